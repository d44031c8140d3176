"""Running arms on a fleet scenario: feed the same sessions, ask the same questions, score them."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench.eval.arms import MemoryArm
from bench.eval.fleet import Scenario
from bench.eval.metrics import Answer, QualityReport, evaluate
from reverie.tokens import TokenCounter


@dataclass(frozen=True)
class ArmRun:
    """One arm's quality report and what it cost (wall-clock seconds)."""

    report: QualityReport
    ingest_seconds: float
    settle_seconds: float
    retrieve_seconds: float
    answers: Sequence[Answer]

    @property
    def retrieve_ms_mean(self) -> float:
        return 1000 * self.retrieve_seconds / max(1, len(self.answers))


def history_tokens(scenario: Scenario, counter: TokenCounter) -> dict[str, int]:
    """Tokens of each agent's whole raw history: what injecting every log line would cost."""
    totals: dict[str, int] = {}
    for request in scenario.requests:
        counted = sum(counter.count_many([e.text for e in request.events]))
        totals[request.agent_id] = totals.get(request.agent_id, 0) + counted
    return totals


def run_arm(arm: MemoryArm, scenario: Scenario, counter: TokenCounter, *, token_budget: int = 600,
            ingest: bool = True) -> ArmRun:
    """Ingest (unless a shared store already holds the sessions), settle, ask every question, score."""
    started = time.perf_counter()
    if ingest:
        arm.ingest(scenario.requests)
    ingested = time.perf_counter()
    arm.settle()
    settled = time.perf_counter()
    answers = [(q, arm.retrieve(q.agent_id, q.text, q.project, token_budget)) for q in scenario.truth.queries]
    asked = time.perf_counter()
    report = evaluate(arm.name, scenario.truth, arm.notes(), answers, history_tokens(scenario, counter))
    return ArmRun(report, ingested - started, settled - ingested, asked - settled, answers)
