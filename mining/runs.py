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

import pyarrow as pa
from pydantic import BaseModel, ConfigDict, Field

from reverie.errors import NotFoundError
from reverie.ports import MiningRun
from reverie.store import Store, sql_in, sql_str
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
        self._t = store.tables

    def create(self, project: str, *, principal: str, mode: Mode, at: datetime, not_before: datetime) -> RunState:
        number = self._t["mining_runs"].count_rows(f"project = {sql_str(project)}") + 1
        state = RunState(
            run_id=f"m-{project}-{number:05d}", project=project, status="queued", mode=mode, principal=principal,
            created_at=at, updated_at=at, started_at=at, not_before=not_before,
        )
        self.save(state)
        return state

    def get(self, run_id: str) -> RunState:
        found = self._read(f"run_id = {sql_str(run_id)}")
        if not found:
            raise NotFoundError(f"no mining run {run_id!r}; list the runs of the project to find its id")
        return found[0]

    def list(self, project: str | None = None, statuses: set[str] | frozenset[str] | None = None) -> list[RunState]:
        clauses = []
        if project is not None:
            clauses.append(f"project = {sql_str(project)}")
        if statuses is not None:
            clauses.append(sql_in("status", statuses))
        return sorted(self._read(" AND ".join(clauses) or None), key=lambda r: (r.created_at, r.run_id))

    def save(self, state: RunState) -> None:
        row = {**state.model_dump(exclude={"result"}), "result": json.dumps(state.result, sort_keys=True)}
        data = pa.Table.from_pylist([row], schema=self._t.schemas["mining_runs"])
        self._t.write("mining_runs", lambda t: t.merge_insert("run_id").when_matched_update_all().when_not_matched_insert_all().execute(data))

    def plan(self, run_id: str) -> Plan | None:
        found = rows(self._t.read("mining_plans", f"run_id = {sql_str(run_id)}"))
        return Plan.model_validate_json(found[0]["plan"]) if found else None

    def save_plan(self, run_id: str, project: str, plan: Plan) -> None:
        data = pa.Table.from_pylist(
            [{"run_id": run_id, "project": project, "plan": plan.model_dump_json()}], schema=self._t.schemas["mining_plans"],
        )
        self._t.write("mining_plans", lambda t: t.merge_insert("run_id").when_matched_update_all().when_not_matched_insert_all().execute(data))

    def _read(self, where: str | None) -> list[RunState]:
        found = []
        for row in rows(self._t.read("mining_runs", where)):
            row["result"] = json.loads(row["result"] or "{}")
            found.append(RunState.model_validate(row))
        return found
