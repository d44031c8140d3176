"""The Protocols through which ``actors/``, ``mining/`` and ``serve/`` reach each other.

They never import one another: at run time each part finds the others as named Ray actors (or
deployment handles) in the namespace of ``ActorSettings.namespace``, typed by these Protocols. The
plain classes implement them; callers in other processes wrap a Ray handle in a small adapter.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal, Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from reverie.capture import CaptureRequest

EMBEDDER_ACTOR = "reverie-embedder"
DIRECTORY_ACTOR = "reverie-directory"
MINING_ACTOR = "reverie-mining"
LOAD_ACTOR = "reverie-load"


class Result(BaseModel):
    model_config = ConfigDict(frozen=True)


class CaptureResult(Result):
    accepted: int
    duplicates: int
    event_ids: list[str]


class ConsolidationResult(Result):
    batch_id: str | None
    stats: dict[str, Any] = Field(default_factory=dict)


class AgentStatus(Result):
    agent_id: str
    live: bool
    cursor: str | None
    pending_sessions: int
    running: bool
    last_run_at: datetime | None
    next_run_at: datetime | None
    runs_today: int
    last_batch: ConsolidationResult | None = None


class MiningRun(Result):
    run_id: str
    project: str
    status: Literal["queued", "running", "yielded", "committed", "failed", "cancelled"]
    promoted: list[str] = Field(default_factory=list)
    candidates: list[str] = Field(default_factory=list)
    review: list[str] = Field(default_factory=list)
    stats: dict[str, Any] = Field(default_factory=dict)


class ReviewItem(Result):
    """A pattern waiting for a reviewer: why (``reasons``: single_agent, team, project_constraint,
    conflict), what it stands on (``details``: member notes, sessions, agents, conflicting pairs)."""

    item_id: str
    project: str
    pattern_id: str
    reasons: list[str]
    status: Literal["pending", "approved", "rejected"]
    details: dict[str, Any] = Field(default_factory=dict)
    run_id: str | None = None
    created_at: datetime | None = None
    decided_at: datetime | None = None
    reviewer: str | None = None
    decision_reason: str | None = None
    batch_id: str | None = None


class MapPoint(Result):
    """One note on a project's 2-D map of experience; ``pattern_id`` when its cluster has one."""

    note_id: str
    x: float
    y: float
    cluster: int
    scope: str
    pattern_id: str | None = None


class HotSpot(Result):
    """A subject with conflicting notes: how many conflicting pairs, which notes and patterns."""

    subject: str
    conflicts: int
    notes: list[str]
    patterns: list[str]


class EmbeddingService(Protocol):
    """The one shared embedder (batched); nobody else loads the model."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class MemoryDirectory(Protocol):
    """Finds or activates each agent's memory actor and forwards to it."""

    def capture(self, request: CaptureRequest) -> CaptureResult: ...

    def end_session(self, agent_id: str, session_id: str) -> None: ...

    def consolidate(self, agent_id: str) -> ConsolidationResult: ...

    def status(self, agent_id: str) -> AgentStatus: ...


class MiningService(Protocol):
    """Cross-agent mining of a project (the named actor ``MINING_ACTOR``), its review queue and graph.

    Graph answers are node-link JSON (``networkx.node_link_data`` with ``edges="edges"``): every
    node has ``id``, ``kind`` (pattern, note, subject, agent, session, module, project), ``label``,
    ``valid_from`` and ``invalid_at``; every edge ``source``, ``target``, ``key``, ``kind``.
    ``personal=False`` drops personal note nodes, for callers who may not see them. ``project=None``
    is the whole team. Errors: NotFoundError (unknown run, item or project), RunInProgressError
    (a run of the project is active), QuotaError (the project's run rate limit), ValidationError,
    ConflictError (an item already decided).
    """

    def start(self, project: str, *, wait: bool = False, principal: str = "system", full: bool = False) -> MiningRun: ...

    def run(self, run_id: str) -> MiningRun: ...

    def runs(self, project: str | None = None) -> list[MiningRun]: ...

    def cancel(self, run_id: str, *, principal: str = "system") -> MiningRun: ...

    def resume(self, run_id: str) -> MiningRun: ...

    def review_items(self, project: str | None = None, status: str | None = "pending") -> list[ReviewItem]: ...

    def review_item(self, item_id: str) -> ReviewItem: ...

    def decide(self, item_id: str, decision: Literal["approve", "reject"], *, reason: str, principal: str) -> ReviewItem: ...

    def graph(self, project: str | None = None, *, personal: bool = True, current: bool = False) -> dict[str, Any]: ...

    def graphml(self, project: str | None = None, *, personal: bool = True) -> str: ...

    def subject(self, subject: str, project: str | None = None, *, depth: int = 2, personal: bool = True) -> dict[str, Any]: ...

    def module_patterns(self, project: str, module: str) -> list[dict[str, Any]]: ...

    def hot_spots(self, project: str | None = None, *, limit: int = 10) -> list[HotSpot]: ...

    def map(self, project: str) -> list[MapPoint]: ...
