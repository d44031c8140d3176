"""How an agent actor reaches the store: the gateway's methods, typed, without importing LanceDB.

:class:`StoreClient` is what :class:`~actors.memory.AgentMemory` needs; the gateway
(``actors.gateway.StoreGateway``) implements it in-process, and :class:`RemoteStoreClient` forwards
to the named gateway actor. :class:`ModelClient` is the embedding service's part (embed and count
tokens); ``reverie.remote.RemoteEmbedder`` implements it, and :class:`LocalModel` wraps an in-process
embedder for runs without Ray.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import numpy as np
import ray

from actors.plan import Change
from actors.triggers import AgentActivity
from reverie.alternatives import Alternatives
from reverie.context_keys import TurnKey
from reverie.embed import Embedder
from reverie.ports import STORE_ACTOR, AgentInfo, CaptureResult, ConsolidationResult
from reverie.records import Batch, Event, Note, Session
from reverie.remote import get
from reverie.settings import ActorSettings


class StoreClient(Protocol):
    def append(self, events: Sequence[Event], vectors: np.ndarray | None = None) -> CaptureResult: ...

    def write_keys(self, keys: Sequence[TurnKey], vectors: np.ndarray) -> int: ...

    def end_session(self, agent_id: str, session_id: str, at: datetime) -> Session: ...

    def sessions(self, agent_id: str, *, pending_only: bool = False) -> list[Session]: ...

    def events(self, agent_id: str, session_ids: Sequence[str]) -> list[Event]: ...

    def mentioning(self, project: str, agent_ids: Sequence[str] | None, phrases: Sequence[str], before: datetime,
                   limit: int) -> list[Event]: ...

    def notes_for(self, agent_id: str, scopes: Sequence[str], projects: Sequence[str] = ()) -> tuple[list[Note], np.ndarray]: ...

    def alternatives(self) -> Alternatives: ...

    def begin(self, agent_id: str, project: str | None, stats: dict[str, Any]) -> Batch: ...

    def write(self, batch: Batch, changes: Sequence[Change], session_events: dict[str, int], stats: dict[str, Any]) -> Batch: ...

    def abort(self, batch_id: str) -> None: ...

    def settle(self, agent_id: str | None = None) -> int: ...

    def last_batch(self, agent_id: str) -> ConsolidationResult | None: ...

    def activity(self, now: datetime, agent_ids: Sequence[str] | None = None) -> dict[str, AgentActivity]: ...

    def agents(self, project: str | None = None, agent_ids: Sequence[str] | None = None) -> list[AgentInfo]: ...

    def known(self, agent_id: str) -> bool: ...


class ModelClient(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...


class LocalModel:
    """An in-process embedder plus the bundled tokenizer (for runs and tests without Ray)."""

    def __init__(self, embedder: Embedder) -> None:
        from reverie.tokens import TokenCounter

        self.name = embedder.name
        self.dim = embedder.dim
        self._embedder = embedder
        self._tokens = TokenCounter()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._embedder.embed(texts)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return self._tokens.count_many(texts)


class RemoteStoreClient:
    """Forwards to the named store gateway actor; waits for each answer (it means committed)."""

    def __init__(self, actors: ActorSettings) -> None:
        self._handle = ray.get_actor(STORE_ACTOR, namespace=actors.namespace)
        self._timeout = actors.call_timeout_seconds

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        return get(getattr(self._handle, method).remote(*args, **kwargs), self._timeout)

    def append(self, events: Sequence[Event], vectors: np.ndarray | None = None) -> CaptureResult:
        return self._call("append", list(events), vectors)  # type: ignore[no-any-return]

    def write_keys(self, keys: Sequence[TurnKey], vectors: np.ndarray) -> int:
        return self._call("write_keys", list(keys), vectors)  # type: ignore[no-any-return]

    def end_session(self, agent_id: str, session_id: str, at: datetime) -> Session:
        return self._call("end_session", agent_id, session_id, at)  # type: ignore[no-any-return]

    def sessions(self, agent_id: str, *, pending_only: bool = False) -> list[Session]:
        return self._call("sessions", agent_id, pending_only=pending_only)  # type: ignore[no-any-return]

    def events(self, agent_id: str, session_ids: Sequence[str]) -> list[Event]:
        return self._call("events", agent_id, list(session_ids))  # type: ignore[no-any-return]

    def mentioning(self, project: str, agent_ids: Sequence[str] | None, phrases: Sequence[str], before: datetime,
                   limit: int) -> list[Event]:
        return self._call("mentioning", project, None if agent_ids is None else list(agent_ids), list(phrases),  # type: ignore[no-any-return]
                          before, limit)

    def notes_for(self, agent_id: str, scopes: Sequence[str], projects: Sequence[str] = ()) -> tuple[list[Note], np.ndarray]:
        return self._call("notes_for", agent_id, list(scopes), list(projects))  # type: ignore[no-any-return]

    def alternatives(self) -> Alternatives:
        return self._call("alternatives")  # type: ignore[no-any-return]

    def begin(self, agent_id: str, project: str | None, stats: dict[str, Any]) -> Batch:
        return self._call("begin", agent_id, project, stats)  # type: ignore[no-any-return]

    def write(self, batch: Batch, changes: Sequence[Change], session_events: dict[str, int], stats: dict[str, Any]) -> Batch:
        return self._call("write", batch, list(changes), dict(session_events), stats)  # type: ignore[no-any-return]

    def abort(self, batch_id: str) -> None:
        self._call("abort", batch_id)

    def settle(self, agent_id: str | None = None) -> int:
        return self._call("settle", agent_id)  # type: ignore[no-any-return]

    def last_batch(self, agent_id: str) -> ConsolidationResult | None:
        return self._call("last_batch", agent_id)  # type: ignore[no-any-return]

    def activity(self, now: datetime, agent_ids: Sequence[str] | None = None) -> dict[str, AgentActivity]:
        return self._call("activity", now, None if agent_ids is None else list(agent_ids))  # type: ignore[no-any-return]

    def agents(self, project: str | None = None, agent_ids: Sequence[str] | None = None) -> list[AgentInfo]:
        return self._call("agents", project, None if agent_ids is None else list(agent_ids))  # type: ignore[no-any-return]

    def known(self, agent_id: str) -> bool:
        return self._call("known", agent_id)  # type: ignore[no-any-return]
