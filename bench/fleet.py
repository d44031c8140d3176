"""Fleet scenario benchmark: the same sessions and questions for every arm, dev and held-out seeds.

Arms: memory off, raw-log stacking (dense, the "version A" of seed 004) and its hybrid variant (the
strongest raw baseline), and Reverie ("version B": a real local service driven over HTTP, see
``bench.served``). ``--arms`` runs only the arms it names (the ``raw`` baseline always runs).
Held-out numbers are the ones to quote; the dev scenarios are the ones to tune on. Option
``reverie_every=N`` consolidates an agent during ingest once it has N new sessions (default: the
trigger policy's ``min_new_sessions``; 0: only when the scenario ends). Option
``split=dev|dev2|dev3|dev4|dev5|dev6|dev7|heldout|both`` (default ``both``, which is heldout and dev; ``--quick``
runs the held-out one unless told): tune with ``split=dev``, ``split=dev2``, ``split=dev3``,
``split=dev4``, ``split=dev5``, ``split=dev6`` or ``split=dev7`` (a second, third, fourth, fifth, sixth and
seventh development phrasebook, other teams worded independently)
and run the held-out scenario once, at the end.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.eval.arms import MemoryArm, MemoryOff
from bench.eval.compare import ArmRun, run_arm
from bench.eval.fleet import FleetConfig, Scenario, Split, fleet_scenario
from bench.eval.metrics import QualityReport
from bench.eval.rawlog import RawLog, RawLogArm
from bench.eval.served import ReverieArm
from bench.registry import Context, Measure, Outcome, Table, register
from bench.served import arms_wanted, describe_work, reverie_arm
from reverie.errors import ConfigError

BASELINE = "raw"
_KINDS = ("own", "shared", "corrected", "control")
ARMS = ("off", "raw", "raw-hybrid", "reverie")


def _arms(ctx: Context, split: Split) -> list[Callable[[], MemoryArm]]:
    """Each wanted arm as a factory: the reverie arm's service starts only when its turn comes."""
    log = RawLog(ctx.store_settings(f"fleet-{split}-raw"), ctx.embedder, ctx.counter)
    every = int(ctx.options.get("reverie_every", ctx.settings.triggers.min_new_sessions)) or None
    factories: dict[str, Callable[[], MemoryArm]] = {
        "off": MemoryOff, "raw": lambda: RawLogArm(log, "dense"), "raw-hybrid": lambda: RawLogArm(log, "hybrid"),
        "reverie": lambda: reverie_arm(ctx, f"fleet-{split}-reverie", consolidate_every=every),
    }
    wanted = set(arms_wanted(ctx, ARMS)) | {BASELINE}
    return [factories[name] for name in ARMS if name in wanted]


def _run(ctx: Context, scenario: Scenario) -> tuple[list[ArmRun], list[str]]:
    runs, notes, ingested = [], [], False
    for make in _arms(ctx, scenario.name):  # type: ignore[arg-type]
        arm = make()
        shared_log = isinstance(arm, RawLogArm)
        try:
            runs.append(run_arm(arm, scenario, ctx.counter, token_budget=ctx.settings.retrieval.token_budget,
                                ingest=not (shared_log and ingested)))
            if isinstance(arm, ReverieArm):
                notes.append(f"{scenario.name} reverie: {describe_work(arm)}")
        finally:
            arm.close()
        ingested = ingested or shared_log
    return runs, notes


def _pct(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


def _counted(report: QualityReport, name: str, value: float | None) -> str | None:
    """A rate in percent with its count beside it, e.g. ``57.1 (12/21)``."""
    count = report.counts.get(name)
    if value is None or count is None:
        return None if value is None else str(_pct(value))
    return f"{_pct(value)} ({count[0]}/{count[1]})"


def _retrieval_row(run: ArmRun) -> list:
    r = run.report
    kinds = [_counted(r, f"hit_rate:{k}", r.hit_rate_by_kind.get(k)) for k in _KINDS]
    return [r.arm, _counted(r, "hit_rate", r.hit_rate), *kinds, _pct(r.precision_at_k),
            round(r.context_tokens), round(r.offtopic_tokens), _pct(r.context_savings),
            _counted(r, "error_recurrence", r.error_recurrence),
            _counted(r, "wrong_feedback_recalled", r.wrong_feedback_recalled),
            _counted(r, "irrelevant_share", r.irrelevant_share), r.leaks, r.secrets_surfaced,
            r.injections_surfaced, round(run.retrieve_ms_mean, 1)]


def _store_row(run: ArmRun) -> list:
    r = run.report
    rates = ("dedup_rate", "redundant_share", "conflict_rate", "unresolved_contradictions", "overturned_share",
             "overturned_still_active", "wrong_feedback_kept", "promotion_precision", "promotion_recall")
    return [r.arm, r.notes, r.active_notes, *(_counted(r, name, getattr(r, name)) for name in rates),
            r.secrets_stored, r.injections_shared, round(run.ingest_seconds + run.settle_seconds, 1)]


_RETRIEVAL_COLUMNS = [
    "arm", "hit@5 %", "own", "shared", "corrected", "control", "precision@5 %", "tokens/question",
    "tokens off-topic", "savings vs whole history %", "error recurrence %", "wrong feedback recalled %",
    "irrelevant items %", "leaks", "secrets", "injections surfaced", "ms/question",
]
_STORE_COLUMNS = [
    "arm", "notes", "active", "dedup %", "redundant %", "conflict %", "unresolved contradictions %",
    "overturned %", "overturned still active %", "wrong feedback kept %", "promotion precision %",
    "promotion recall %", "secrets stored", "injections shared", "ingest+settle s",
]


def _measures(split: str, reports: dict[str, QualityReport]) -> list[Measure]:
    base = reports[BASELINE]
    found = []
    for name, report in reports.items():
        if name == BASELINE:
            continue
        found.append(Measure(f"{split} hit@5: {name}", _pct(report.hit_rate), "%", BASELINE, _pct(base.hit_rate)))
        found.append(Measure(f"{split} tokens/question: {name}", round(report.context_tokens, 1), "tokens", BASELINE,
                             round(base.context_tokens, 1)))
    return found


def _describe(scenario: Scenario) -> str:
    t = scenario.truth
    events = sum(len(r.events) for r in scenario.requests)
    return (f"{scenario.name} (seed {scenario.seed}, phrasebook {scenario.phrasebook}): {len(t.agents)} agents, "
            f"{len(scenario.requests)} sessions, {events} events, {len(t.items)} items, {len(t.queries)} questions, "
            f"{len(t.canaries)} planted secrets")


SPLITS: dict[str, tuple[Split, ...]] = {
    "dev": ("dev",), "dev2": ("dev2",), "dev3": ("dev3",), "dev4": ("dev4",), "dev5": ("dev5",), "dev6": ("dev6",),
    "dev7": ("dev7",), "heldout": ("heldout",),
    "both": ("heldout", "dev"),
}


def splits_wanted(ctx: Context) -> tuple[Split, ...]:
    """The scenarios option ``split`` names; by default both, or the held-out one for ``--quick``
    (it checks the harness on the quoted scenario)."""
    name = ctx.options.get("split", "heldout" if ctx.quick else "both")
    if name not in SPLITS:
        raise ConfigError(f"fleet option split={name!r} is not one of {sorted(SPLITS)}; "
                          "pass --option split=dev7, split=dev6, split=dev5, split=dev4, split=dev3, split=dev2 "
                          "or split=dev to tune, "
                          "split=heldout to quote")
    return SPLITS[name]


@register("fleet", "Fleet scenario: memory off vs raw-log stacking vs Reverie")
def fleet(ctx: Context) -> Outcome:
    config = FleetConfig.quick() if ctx.quick else FleetConfig()
    outcome = Outcome(notes=["held-out is the scenario to quote; dev, dev2, dev3, dev4, dev5, dev6 and dev7 are the ones "
                             "tuned on"])
    for split in splits_wanted(ctx):
        scenario = fleet_scenario(split, config)  # type: ignore[arg-type]
        runs, notes = _run(ctx, scenario)
        outcome.notes += [_describe(scenario), *notes]
        outcome.tables.append(Table(f"{split}: retrieval ({ctx.settings.retrieval.token_budget}-token budget)",
                                    _RETRIEVAL_COLUMNS, [_retrieval_row(r) for r in runs]))
        outcome.tables.append(Table(f"{split}: memory store", _STORE_COLUMNS, [_store_row(r) for r in runs]))
        outcome.measures += _measures(split, {r.report.arm: r.report for r in runs})
        outcome.problems += [f"{split} {r.report.arm}: {p}" for r in runs for p in r.report.problems()]
    return outcome
