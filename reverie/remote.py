"""Small adapters that give the named Ray actors of ``reverie.ports`` their Protocol types.

Callers in other processes (the HTTP layer, mining, the agent actors, tests) use these instead of
raw handles: they look the actor up by name in ``ActorSettings.namespace``, wait with a timeout, and
re-raise our own errors (a :class:`~reverie.errors.ReverieError` raised inside an actor comes back
as itself, not wrapped in Ray's task error).
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from datetime import datetime
from typing import Any, TypeVar

import numpy as np
import ray
from ray.exceptions import RayTaskError

from reverie.capture import CaptureRequest
from reverie.embed import EmbedderSpec
from reverie.errors import ReverieError
from reverie.ports import DIRECTORY_ACTOR, EMBEDDER_ACTOR, AgentInfo, AgentStatus, CaptureResult, ConsolidationResult
from reverie.records import Session
from reverie.settings import ActorSettings

T = TypeVar("T")


def unwrap(exc: RayTaskError) -> BaseException:
    """The ReverieError a remote call raised (through any number of actor hops), else ``exc``."""
    cause: BaseException | None = exc
    while isinstance(cause, RayTaskError):
        cause = cause.cause
    return cause if isinstance(cause, ReverieError) else exc


def get(ref: Any, timeout: float | None = None) -> Any:
    """``ray.get`` that re-raises our own errors as themselves."""
    try:
        return ray.get(ref, timeout=timeout)
    except RayTaskError as exc:
        raise unwrap(exc) from None


async def wait(ref: Awaitable[T]) -> T:
    """``await ref`` that re-raises our own errors as themselves."""
    try:
        return await ref
    except RayTaskError as exc:
        raise unwrap(exc) from None


class RemoteEmbedder:
    """An :class:`~reverie.embed.Embedder` backed by the shared embedding service actor."""

    def __init__(self, spec: EmbedderSpec, actors: ActorSettings) -> None:
        self.name = spec.name
        self.dim = spec.dim
        self._namespace = actors.namespace
        self._timeout = actors.call_timeout_seconds
        self._handle: Any = None

    def _service(self) -> Any:
        if self._handle is None:
            self._handle = ray.get_actor(EMBEDDER_ACTOR, namespace=self._namespace)
        return self._handle

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(get(self._service().embed.remote(list(texts)), self._timeout), dtype=np.float32)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        return list(get(self._service().count_tokens.remote(list(texts)), self._timeout))


class DirectoryClient:
    """The :class:`~reverie.ports.MemoryDirectory` for synchronous callers (CLI, tests, scripts)."""

    def __init__(self, actors: ActorSettings) -> None:
        self._handle = ray.get_actor(DIRECTORY_ACTOR, namespace=actors.namespace)
        self._timeout = actors.call_timeout_seconds

    def _call(self, method: str, *args: Any) -> Any:
        return get(getattr(self._handle, method).remote(*args), self._timeout)

    def capture(self, request: CaptureRequest) -> CaptureResult:
        return self._call("capture", request)  # type: ignore[no-any-return]

    def end_session(self, agent_id: str, session_id: str) -> Session:
        return self._call("end_session", agent_id, session_id)  # type: ignore[no-any-return]

    def consolidate(self, agent_id: str) -> ConsolidationResult:
        return self._call("consolidate", agent_id)  # type: ignore[no-any-return]

    def status(self, agent_id: str) -> AgentStatus:
        return self._call("status", agent_id)  # type: ignore[no-any-return]

    def agents(self, project: str | None = None) -> list[AgentInfo]:
        return self._call("agents", project)  # type: ignore[no-any-return]

    def tick(self) -> list[str]:
        return self._call("tick")  # type: ignore[no-any-return]


class AsyncDirectoryClient:
    """The same calls for async callers (Ray Serve replicas): every method is awaited."""

    def __init__(self, actors: ActorSettings) -> None:
        self._handle = ray.get_actor(DIRECTORY_ACTOR, namespace=actors.namespace)

    async def capture(self, request: CaptureRequest) -> CaptureResult:
        return await wait(self._handle.capture.remote(request))  # type: ignore[no-any-return]

    async def end_session(self, agent_id: str, session_id: str) -> Session:
        return await wait(self._handle.end_session.remote(agent_id, session_id))  # type: ignore[no-any-return]

    async def consolidate(self, agent_id: str) -> ConsolidationResult:
        return await wait(self._handle.consolidate.remote(agent_id))  # type: ignore[no-any-return]

    async def status(self, agent_id: str) -> AgentStatus:
        return await wait(self._handle.status.remote(agent_id))  # type: ignore[no-any-return]

    async def agents(self, project: str | None = None) -> list[AgentInfo]:
        return await wait(self._handle.agents.remote(project))  # type: ignore[no-any-return]

    async def tick(self) -> list[str]:
        return await wait(self._handle.tick.remote())  # type: ignore[no-any-return]


class ActorClock:
    """A :class:`~reverie.clock.Clock` read from a clock actor, so tests drive the time of every
    process at once (create it with ``ray.remote(ManualClock)``); production uses ``SystemClock``."""

    def __init__(self, handle: Any) -> None:
        self._handle = handle

    def now(self) -> datetime:
        return ray.get(self._handle.now.remote())  # type: ignore[no-any-return]
