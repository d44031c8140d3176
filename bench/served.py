"""The ``reverie`` arm of the quality benchmarks: a fresh local service per scenario, driven over HTTP.

Each call starts a whole local Reverie (``launcher.local.local_service``: the memory actors, mining
and the Serve app) on its own store in the run's scratch folder, with the scheduled work off (the
arm asks for every consolidation and mining run itself, so every run of the benchmark does the same
work) and the per-key request quota lifted (a benchmark client posts as fast as the service answers;
the quota guards against abuse, not memory quality). The arm stops the service when it is closed;
one local Ray serves every service of a run.
"""

from __future__ import annotations

from contextlib import ExitStack

import ray

from bench.eval.served import ReverieArm
from bench.registry import Context
from launcher.local import local_service
from reverie.settings import Settings
from serve.lifecycle import joined_ray

#: Quotas high enough that a benchmark never waits on them.
UNLIMITED = {"requests_per_minute": 10_000_000, "burst": 1_000_000}


def arms_wanted(ctx: Context, default: tuple[str, ...]) -> tuple[str, ...]:
    """The arms ``--arms`` names (all of ``default`` when it names none)."""
    named = tuple(a for a in ctx.options.get("arms", "").split(",") if a)
    return tuple(a for a in default if a in named) if named else default


def service_settings(ctx: Context, name: str) -> Settings:
    settings = ctx.store_settings(name)
    return settings.model_copy(update={"auth": settings.auth.model_copy(update=UNLIMITED)})


def reverie_arm(ctx: Context, name: str, *, k: int | None = None, consolidate_every: int | None = None) -> ReverieArm:
    """The arm over a service of its own, stopped when the arm is closed (the run's local Ray, started
    on first use, stays up for the next one)."""
    if not ray.is_initialized():
        ctx.resources.enter_context(joined_ray(ctx.settings))
    stack = ExitStack()
    try:
        service = stack.enter_context(local_service(service_settings(ctx, name), triggers=False))
        return ReverieArm(service, ctx.counter, k=k, consolidate_every=consolidate_every, on_close=stack.close)
    except BaseException:
        stack.close()
        raise


def describe_work(arm: ReverieArm) -> str:
    """What the service did for the arm: consolidation runs, mining runs, what it injected."""
    def total(name: str) -> int:
        return sum(int(r.stats.get(name, 0)) for r in arm.consolidations)

    promoted = sum(len(r.promoted) for r in arm.minings)
    review = sum(len(r.review) for r in arm.minings)
    rendered = sum(arm.context_tokens) / len(arm.context_tokens) if arm.context_tokens else 0.0
    return (f"{len(arm.consolidations)} consolidation runs (notes added {total('added')}, merged {total('merged')}, "
            f"superseded {total('superseded')}, open questions {total('open_questions')}, quarantined "
            f"{total('quarantined')}); {len(arm.minings)} mining runs (patterns promoted {promoted}, waiting for "
            f"review {review}, none approved); the memory block as the service renders it: {rendered:.0f} "
            "tokens/question on average")
