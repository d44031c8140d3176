"""Mining runs and their checkpoints, kept in the store so a run survives its process.

A run's ``cursor`` counts the work units done (unit 0 is the fit; then one unit per chunk of
clusters; then the graph refresh; then the finish). Its plan (which notes form which cluster and
which pattern each cluster merges into) is written once, by the fit, to ``mining_plans``; a resumed
run reads it back instead of refitting. Run ids are ``m-<project>-<n>``, numbered per project.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from reverie.errors import NotFoundError
from reverie.ports import MiningRun
from reverie.store import RowFilter, Store
from reverie.store.rows import rows

RunStatus = Literal["queued", "running", "yielded", "committed", "failed", "cancelled"]
ACTIVE_STATUSES: frozenset[str] = frozenset({"queued", "running", "yielded"})
Mode = Literal["auto", "full", "incremental"]


class PlannedCluster(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    label: int
    pattern_id: str
    members: list[str]
    name: str | None = None  # mining.names: from every member
    shared_name: str | None = None  # from its shared members only


class Plan(BaseModel):
    model_config = ConfigDict(frozen=True)

    mode: Literal["full", "incremental"]
    fit_id: str
    notes: int
    assigned: int
    noise: int
    clusters: list[PlannedCluster]

    def chunks(self, size: int) -> list[list[PlannedCluster]]:
        size = max(1, size)
        return [self.clusters[i:i + size] for i in range(0, len(self.clusters), size)]


class RunState(BaseModel):
    model_config = ConfigDict(frozen=True)

    run_id: str
    project: str
    status: RunStatus
    mode: Mode = "auto"
    principal: str = "system"
    created_at: datetime
    updated_at: datetime
    started_at: datetime
    not_before: datetime
    cursor: int = 0
    units: int = 0
    attempts: int = 0
    result: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None

    def to_run(self) -> MiningRun:
        stats = {
            **self.result.get("stats", {}), "mode": self.mode, "cursor": self.cursor, "units": self.units,
            "attempts": self.attempts, "principal": self.principal, "created_at": self.created_at.isoformat(),
            "started_at": self.started_at.isoformat(), "not_before": self.not_before.isoformat(),
        }
        if self.result.get("nodes"):
            stats["nodes"] = list(self.result["nodes"])
        if self.result.get("merged"):
            stats["merged"] = list(self.result["merged"])
        if self.error:
            stats["error"] = self.error
        return MiningRun(
            run_id=self.run_id, project=self.project, status=self.status,
            promoted=list(self.result.get("promoted", [])), candidates=list(self.result.get("candidates", [])),
            review=list(self.result.get("review", [])), stats=stats,
        )


class RunBook:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._runs = store.keyed["mining_runs"]
        self._plans = store.keyed["mining_plans"]

    def create(self, project: str, *, principal: str, mode: Mode, at: datetime, not_before: datetime) -> RunState:
        number = self._runs.count(RowFilter(project=project)) + 1
        state = RunState(
            run_id=f"m-{project}-{number:05d}", project=project, status="queued", mode=mode, principal=principal,
            created_at=at, updated_at=at, started_at=at, not_before=not_before,
        )
        self.save(state)
        return state

    def get(self, run_id: str) -> RunState:
        found = self._runs.get(run_id)
        if found is None:
            raise NotFoundError(f"no mining run {run_id!r}; list the runs of the project to find its id")
        return _state(found)

    def list(self, project: str | None = None, statuses: set[str] | frozenset[str] | None = None) -> list[RunState]:
        found = [_state(r) for r in rows(self._runs.select(RowFilter(project=project, statuses=statuses)))]
        return sorted(found, key=lambda r: (r.created_at, r.run_id))

    def save(self, state: RunState) -> None:
        row = {**state.model_dump(exclude={"result"}), "result": json.dumps(state.result, sort_keys=True)}
        self._runs.upsert([row])

    def plan(self, run_id: str) -> Plan | None:
        found = self._plans.get(run_id)
        return Plan.model_validate_json(found["plan"]) if found is not None else None

    def save_plan(self, run_id: str, project: str, plan: Plan) -> None:
        self._plans.upsert([{"run_id": run_id, "project": project, "plan": plan.model_dump_json()}])


def _state(row: dict[str, Any]) -> RunState:
    return RunState.model_validate({**row, "result": json.loads(row["result"] or "{}")})
