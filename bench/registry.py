"""The registry of benchmarks: each entry is a function of a :class:`Context` returning an :class:`Outcome`.

Add a benchmark by putting a module in ``bench/`` that registers it (it is found automatically)::

    from bench.registry import Context, Measure, Outcome, register

    @register("consolidation", "Consolidation throughput vs the embedder alone")
    def consolidation(ctx: Context) -> Outcome:
        ...  # measure the baseline and the thing in the same run
        return Outcome(measures=[Measure("notes/s", thing, "notes/s", "embedder alone", base)])

Every entry reports its numbers as ratios against a baseline measured in the same run; the runner
adds wall time and peak memory. ``problems`` are broken invariants: they fail the run.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from reverie.embed import Embedder, make_embedder
from reverie.settings import Settings
from reverie.tokens import TokenCounter

Mode = Literal["quick", "full"]
_CORE = {"registry", "runner", "report", "memory"}


@dataclass(frozen=True)
class Measure:
    """One number and the baseline it is compared with (measured in the same run)."""

    name: str
    value: float | None
    unit: str = ""
    baseline: str | None = None
    baseline_value: float | None = None

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.baseline_value:
            return None
        return self.value / self.baseline_value


@dataclass(frozen=True)
class Table:
    title: str
    columns: list[str]
    rows: list[list[Any]]


@dataclass
class Outcome:
    measures: list[Measure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class Context:
    """What an entry gets: the mode, the one Settings object, a scratch folder, command-line options."""

    mode: Mode
    settings: Settings
    workdir: Path
    options: dict[str, str] = field(default_factory=dict)
    resources: ExitStack = field(default_factory=ExitStack)
    """What entries start once for the whole run (a local Ray); closed when the run ends."""

    @property
    def quick(self) -> bool:
        return self.mode == "quick"

    @cached_property
    def embedder(self) -> Embedder:
        """The configured embedder, loaded once for every entry of the run."""
        return make_embedder(self.settings.embedding)

    @cached_property
    def counter(self) -> TokenCounter:
        return TokenCounter()

    def store_settings(self, name: str) -> Settings:
        """The settings with the store in a fresh folder of the scratch directory."""
        store = self.settings.store.model_copy(update={"uri": str(self.workdir / name)})
        return self.settings.model_copy(update={"store": store})


@dataclass(frozen=True)
class Benchmark:
    name: str
    title: str
    run: Callable[[Context], Outcome]
    quick: bool = True


REGISTRY: dict[str, Benchmark] = {}


def register(
    name: str, title: str, *, quick: bool = True,
) -> Callable[[Callable[[Context], Outcome]], Callable[[Context], Outcome]]:
    """Add a benchmark; ``quick=False`` leaves it out of ``--quick`` runs."""
    def add(run: Callable[[Context], Outcome]) -> Callable[[Context], Outcome]:
        REGISTRY[name] = Benchmark(name, title, run, quick)
        return run
    return add


def discover() -> dict[str, Benchmark]:
    """Import every module of ``bench/`` (their ``register`` calls fill the registry)."""
    package = Path(__file__).parent
    for module in pkgutil.iter_modules([str(package)]):
        if module.name not in _CORE and not module.name.startswith("_"):
            importlib.import_module(f"bench.{module.name}")
    return REGISTRY
