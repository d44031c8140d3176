"""The one adapter layer over the named Ray actors of ``reverie.ports``: each Protocol, typed.

Every caller in another process (the HTTP replicas, the agent actors, the CLI, benchmarks, tests)
reaches the directory, the embedding service and the mining service through these classes instead
of raw handles. :class:`Actors` looks a named actor up in ``ActorSettings.namespace`` when it is
first needed (a missing one is :class:`~reverie.errors.UnavailableError`, 503 over HTTP, never a
hang) and forgets it when it dies; :func:`get` and :func:`wait` re-raise our own errors as
themselves (a :class:`~reverie.errors.ReverieError` raised inside an actor, through any number of
actor hops, comes back as itself, not wrapped in Ray's task error). :func:`unwrap` is the one place
that takes Ray's wrapper apart.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Sequence
from datetime import datetime
from typing import Any, Literal, TypeAlias, TypeVar

import numpy as np
import ray
from ray.actor import ActorHandle
from ray.exceptions import ActorUnavailableError, RayActorError, RayTaskError

from reverie.capture import CaptureRequest
from reverie.embed import EmbedderSpec
from reverie.errors import ReverieError, UnavailableError
from reverie.ports import (
    DIRECTORY_ACTOR,
    EMBEDDER_ACTOR,
    MINING_ACTOR,
    AgentInfo,
    AgentStatus,
    CaptureResult,
    ConsolidationResult,
    MapPoint,
    MiningRun,
    ReviewItem,
)
from reverie.records import Session
from reverie.settings import Settings

T = TypeVar("T")

Handle: TypeAlias = Any
"""A handle to one of our actors, as ``XActor.options(...).remote(...)`` returns it. Ray types a call
``handle.method.remote()`` only for ``@ray.method`` methods (its ``ActorProxy``; any other attribute of an
``ActorHandle`` is ``Never``), and ours are plain methods: each actor is a plain class plus one
``ray.remote`` wrapper, testable without Ray. So to mypy a handle is ``Any``."""

_WHAT = {
    DIRECTORY_ACTOR: "the agents' memory directory",
    EMBEDDER_ACTOR: "the embedding service",
    MINING_ACTOR: "the mining service",
}


def unwrap(error: BaseException) -> BaseException:
    """The error an actor raised, out of any number of Ray task-error wrappers."""
    while isinstance(error, RayTaskError) and error.cause is not None and error.cause is not error:
        error = error.cause
    return error


def _ours(error: RayTaskError) -> BaseException:
    cause = unwrap(error)
    return cause if isinstance(cause, ReverieError) else error


def get(ref: Any, timeout: float | None = None) -> Any:
    """``ray.get`` that re-raises our own errors as themselves."""
    try:
        return ray.get(ref, timeout=timeout)
    except RayTaskError as exc:
        raise _ours(exc) from None


async def wait(ref: Awaitable[T]) -> T:
    """``await ref`` that re-raises our own errors as themselves."""
    try:
        return await ref
    except RayTaskError as exc:
        raise _ours(exc) from None


class Actors:
    """Named actor handles of one namespace, looked up lazily and forgotten when they die."""

    def __init__(self, namespace: str, timeout: float) -> None:
        self._namespace = namespace
        self.timeout = timeout
        self._handles: dict[str, ActorHandle[Any]] = {}
        self._lock = threading.Lock()

    @classmethod
    def of(cls, settings: Settings) -> Actors:
        """The actors of the settings' namespace, waited on for ``actors.call_timeout_seconds``."""
        return cls(settings.actors.namespace, settings.actors.call_timeout_seconds)

    def handle(self, name: str) -> ActorHandle[Any]:
        with self._lock:
            if name not in self._handles:
                try:
                    self._handles[name] = ray.get_actor(name, namespace=self._namespace)
                except ValueError as exc:
                    raise UnavailableError(
                        f"{_WHAT.get(name, name)} is not running; start the service with `reverie up` "
                        "(or deploy its actors before the HTTP application)", retry_after=5,
                    ) from exc
            return self._handles[name]

    def look_up(self, names: Sequence[str]) -> list[str]:
        """Find these actors now (the first lookup of a process takes seconds under load, which a
        first request would otherwise wait for); returns the names not running yet (looked up on use)."""
        missing = []
        for name in names:
            try:
                self.handle(name)
            except UnavailableError:
                missing.append(name)
        return missing

    def call(self, name: str, method: str, *args: Any, timeout: float | None = None, **kwargs: Any) -> Any:
        handle = self.handle(name)
        try:
            return get(getattr(handle, method).remote(*args, **kwargs), timeout=timeout or self.timeout)
        except (RayActorError, ActorUnavailableError):
            self.forget(name)
            raise

    def forget(self, name: str) -> None:
        with self._lock:
            self._handles.pop(name, None)


class RemoteDirectory:
    """The :class:`~reverie.ports.MemoryDirectory` over the named directory actor."""

    def __init__(self, actors: Actors, consolidation_seconds: float) -> None:
        self._actors = actors
        self._consolidation_timeout = consolidation_seconds + actors.timeout

    @classmethod
    def of(cls, settings: Settings) -> RemoteDirectory:
        return cls(Actors.of(settings), settings.consolidation.max_seconds)

    def _call(self, method: str, *args: Any, timeout: float | None = None) -> Any:
        return self._actors.call(DIRECTORY_ACTOR, method, *args, timeout=timeout)

    def capture(self, request: CaptureRequest) -> CaptureResult:
        return self._call("capture", request)  # type: ignore[no-any-return]

    def end_session(self, agent_id: str, session_id: str) -> Session:
        return self._call("end_session", agent_id, session_id)  # type: ignore[no-any-return]

    def consolidate(self, agent_id: str) -> ConsolidationResult:
        return self._call("consolidate", agent_id, timeout=self._consolidation_timeout)  # type: ignore[no-any-return]

    def status(self, agent_id: str) -> AgentStatus:
        return self._call("status", agent_id)  # type: ignore[no-any-return]

    def agents(self, project: str | None = None) -> list[AgentInfo]:
        return self._call("agents", project)  # type: ignore[no-any-return]

    def tick(self) -> list[str]:
        return self._call("tick")  # type: ignore[no-any-return]


class RemoteEmbedder:
    """The :class:`~reverie.ports.EmbeddingService` (and an :class:`~reverie.embed.Embedder`) over the
    shared embedding service actor."""

    def __init__(self, actors: Actors, spec: EmbedderSpec) -> None:
        self._actors = actors
        self.name = spec.name
        self.dim = spec.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._actors.call(EMBEDDER_ACTOR, "embed", list(texts)), dtype=np.float32)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        return list(self._actors.call(EMBEDDER_ACTOR, "count_tokens", list(texts)))


class RemoteMining:
    """The :class:`~reverie.ports.MiningService` over the named mining actor (what the HTTP API uses)."""

    def __init__(self, actors: Actors, settings: Settings) -> None:
        self._actors = actors
        self._wait_timeout = settings.consolidation.max_seconds + actors.timeout

    def _call(self, method: str, *args: Any, timeout: float | None = None, **kwargs: Any) -> Any:
        return self._actors.call(MINING_ACTOR, method, *args, timeout=timeout, **kwargs)

    def start(self, project: str, *, wait: bool = False, principal: str = "system") -> MiningRun:
        timeout = self._wait_timeout if wait else None
        return self._call("start", project, wait=wait, principal=principal, timeout=timeout)  # type: ignore[no-any-return]

    def run(self, run_id: str) -> MiningRun:
        return self._call("run", run_id)  # type: ignore[no-any-return]

    def review_items(self, project: str | None = None, status: str | None = "pending") -> list[ReviewItem]:
        return self._call("review_items", project, status)  # type: ignore[no-any-return]

    def review_item(self, item_id: str) -> ReviewItem:
        return self._call("review_item", item_id)  # type: ignore[no-any-return]

    def decide(self, item_id: str, decision: Literal["approve", "reject"], *, reason: str, principal: str) -> ReviewItem:
        return self._call("decide", item_id, decision, reason=reason, principal=principal)  # type: ignore[no-any-return]

    def graph(self, project: str | None = None, *, personal: bool = True, current: bool = False) -> dict[str, Any]:
        return self._call("graph", project, personal=personal, current=current)  # type: ignore[no-any-return]

    def graphml(self, project: str | None = None, *, personal: bool = True) -> str:
        return self._call("graphml", project, personal=personal)  # type: ignore[no-any-return]

    def subject(self, subject: str, project: str | None = None, *, depth: int = 2, personal: bool = True) -> dict[str, Any]:
        return self._call("subject", subject, project, depth=depth, personal=personal)  # type: ignore[no-any-return]

    def map(self, project: str, *, personal: bool = True) -> list[MapPoint]:
        return self._call("map", project, personal=personal)  # type: ignore[no-any-return]


class ActorClock:
    """A :class:`~reverie.clock.Clock` read from a clock actor, so tests drive the time of every
    process at once (create it with ``ray.remote(ManualClock)``); production uses ``SystemClock``."""

    def __init__(self, handle: Any) -> None:
        self._handle = handle

    def now(self) -> datetime:
        return ray.get(self._handle.now.remote())  # type: ignore[no-any-return]
