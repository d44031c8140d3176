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
from reverie.records import Session

EMBEDDER_ACTOR = "reverie-embedder"
DIRECTORY_ACTOR = "reverie-directory"
STORE_ACTOR = "reverie-store"
AGENT_ACTOR_PREFIX = "reverie-agent:"
MINING_ACTOR = "reverie-mining"
LOAD_ACTOR = "reverie-load"


def agent_actor_name(agent_id: str) -> str:
    """The name of an agent's memory actor in the namespace of ``ActorSettings.namespace``."""
    return AGENT_ACTOR_PREFIX + agent_id


class Result(BaseModel):
    model_config = ConfigDict(frozen=True)


class CaptureResult(Result):
    """Returned only once the events are committed to the store (``accepted`` new, ``duplicates`` retried).

    ``salient`` and ``quarantined`` count the accepted events that consolidation will consider and
    the ones whose text tries to instruct (kept as evidence; their notes will be quarantined).
    """

    accepted: int
    duplicates: int
    event_ids: list[str]
    salient: int = 0
    quarantined: int = 0


class ConsolidationResult(Result):
    """``batch_id`` is None when there was nothing to consolidate (then nothing was written)."""

    batch_id: str | None
    stats: dict[str, Any] = Field(default_factory=dict)


class AgentStatus(Result):
    """Where an agent's consolidation stands.

    ``cursor``: the newest consolidated session; ``pending_sessions``: sessions not consolidated yet;
    ``runs_today``: committed runs in the last 24 hours (the daily cap counts these);
    ``next_run_at``: the scheduled run, or the earliest time the triggers allow one (None when
    nothing is pending); ``next_run_reason``: sessions | fallback | manual; ``last_error``: why the
    last run failed, if it did (the run left nothing visible).
    """

    agent_id: str
    live: bool
    cursor: str | None
    pending_sessions: int
    running: bool
    last_run_at: datetime | None
    next_run_at: datetime | None
    runs_today: int
    last_batch: ConsolidationResult | None = None
    next_run_reason: str | None = None
    last_error: str | None = None


class AgentSummary(Result):
    """One agent as its sessions tell it (it has captured at least one session)."""

    agent_id: str
    projects: list[str]
    sessions: int
    events: int
    last_event_at: datetime | None


class AgentInfo(AgentSummary):
    """One registered agent, with what the directory knows of it: sessions pending and a live actor."""

    pending_sessions: int
    live: bool = False


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
    """One note on a project's 2-D map of experience; ``pattern_id`` when its cluster has one;
    ``name``: its cluster's most distinctive words, from the notes the reader may see (None for noise)."""

    note_id: str
    x: float
    y: float
    cluster: int
    scope: str
    pattern_id: str | None = None
    name: str | None = None


class HotSpot(Result):
    """A subject with conflicting notes: how many conflicting pairs, which notes and patterns."""

    subject: str
    conflicts: int
    notes: list[str]
    patterns: list[str]


class RunningService(Protocol):
    """A Reverie service that the caller started (``launcher.local.local_service``) and reaches over
    HTTP: where it listens, an admin key, and new keys for other principals (revoked when it stops)."""

    url: str
    admin_key: str

    def add_key(self, principal: str, role: Literal["agent", "reviewer", "analyst", "admin"],
                projects: Sequence[str]) -> str: ...


class EmbeddingService(Protocol):
    """The one shared embedder (batched); nobody else loads the model or its tokenizer.

    Concurrent calls are gathered for a few milliseconds and embedded together. ``info`` gives the
    embedder's ``name`` and ``dim`` (what a store records); ``count_tokens`` counts with the model's
    own tokenizer.
    """

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...

    def info(self) -> dict[str, Any]: ...


class MemoryDirectory(Protocol):
    """Finds or activates each agent's memory actor and forwards to it (the named actor
    ``DIRECTORY_ACTOR``; safe to call concurrently from many replicas).

    - ``capture`` returns once the events are committed; errors: ValidationError (422),
      PayloadTooLargeError (413), EventConflictError / ConflictError (409).
    - ``end_session``: NotFoundError (404) for an unknown session, ConflictError when the session
      belongs to another agent. Ending a session may schedule a consolidation.
    - ``consolidate`` runs now (no delay, cooldown or daily cap); RunInProgressError (409) when a run
      of that agent is already going; NotFoundError when the agent never captured anything.
    - ``status``: NotFoundError for an unknown agent.
    - ``agents``: every registered agent (optionally of one project), live or passivated.
    - ``tick``: check every agent's triggers now and start the runs that are due (the directory also
      does this on its own every ``TriggerSettings.tick_seconds``); returns the agent ids started.
    """

    def capture(self, request: CaptureRequest) -> CaptureResult: ...

    def end_session(self, agent_id: str, session_id: str) -> Session: ...

    def consolidate(self, agent_id: str) -> ConsolidationResult: ...

    def status(self, agent_id: str) -> AgentStatus: ...

    def agents(self, project: str | None = None) -> list[AgentInfo]: ...

    def tick(self) -> list[str]: ...


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

    def map(self, project: str, *, personal: bool = True) -> list[MapPoint]: ...
