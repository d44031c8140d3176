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
    """Starts and watches cross-agent mining runs of a project."""

    def start(self, project: str, *, wait: bool = False, principal: str = "system") -> MiningRun: ...

    def run(self, run_id: str) -> MiningRun: ...
