"""Running the registered benchmarks: time, peak memory and failures of each, written as JSON."""

from __future__ import annotations

import json
import os
import platform
import re
import time
import traceback
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.memory import PeakMemory
from bench.registry import Benchmark, Context, Outcome


@dataclass
class EntryResult:
    name: str
    title: str
    status: str
    seconds: float
    peak_mib: float
    memory_scope: str
    outcome: Outcome = field(default_factory=Outcome)
    error: str | None = None

    @property
    def failed(self) -> bool:
        return self.status != "ok"


@dataclass
class RunResult:
    mode: str
    command: str
    started_at: str
    machine: dict[str, Any]
    entries: list[EntryResult]

    @property
    def failed(self) -> list[EntryResult]:
        return [e for e in self.entries if e.failed]

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for entry, result in zip(data["entries"], self.entries, strict=True):
            for measure, original in zip(entry["outcome"]["measures"], result.outcome.measures, strict=True):
                measure["ratio"] = original.ratio
        return data


def machine() -> dict[str, Any]:
    """Cores, memory and software of this machine, for the report."""
    meminfo = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    total = re.search(r"MemTotal:\s+(\d+)", meminfo)
    return {
        "cores": os.cpu_count(), "memory_gib": round(int(total.group(1)) / 1024 / 1024, 1) if total else None,
        "platform": platform.platform(), "python": platform.python_version(), "processor": platform.machine(),
    }


def run_entry(benchmark: Benchmark, ctx: Context) -> EntryResult:
    """Run one entry; an exception becomes a failed result with its traceback, never a crash of the run."""
    started = time.perf_counter()
    outcome, error = Outcome(), None
    with PeakMemory() as peak:
        try:
            outcome = benchmark.run(ctx)
        except Exception:  # noqa: BLE001 - reported in the result and fails the run
            error = traceback.format_exc()
    status = "failed" if error else ("problems" if outcome.problems else "ok")
    return EntryResult(benchmark.name, benchmark.title, status, round(time.perf_counter() - started, 2),
                       round(peak.mib, 1), peak.scope, outcome, error)


def run_all(benchmarks: Sequence[Benchmark], ctx: Context, command: str) -> RunResult:
    started = datetime.now(UTC).isoformat(timespec="seconds")
    entries = [run_entry(b, ctx) for b in benchmarks]
    return RunResult(ctx.mode, command, started, machine(), entries)


def write_result(result: RunResult, folder: Path) -> Path:
    """``<folder>/<mode>-<time>.json`` plus ``<folder>/latest-<mode>.json``; returns the first."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = result.started_at.replace(":", "").replace("+0000", "Z")
    text = json.dumps(result.as_dict(), indent=2, default=str)
    path = folder / f"{result.mode}-{stamp}.json"
    path.write_text(text)
    (folder / f"latest-{result.mode}.json").write_text(text)
    return path
