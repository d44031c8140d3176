"""The other parts of the service, reached as named Ray actors and typed by ``reverie.ports``.

``serve/`` never imports ``actors/`` or ``mining/``: it looks their actors up by name in
``settings.actors.namespace`` when a route first needs them. A missing actor (the service was started
without it, or it is restarting) answers 503 with ``Retry-After``, never a hang or a 500. Errors the
actors raise on purpose come back as our own errors (``serve.statuses.unwrap``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import ray
from ray.actor import ActorHandle

from reverie.capture import CaptureRequest
from reverie.errors import UnavailableError
from reverie.ports import (
    DIRECTORY_ACTOR,
    EMBEDDER_ACTOR,
    MINING_ACTOR,
    AgentStatus,
    CaptureResult,
    ConsolidationResult,
    MapPoint,
    MiningRun,
    ReviewItem,
)
from reverie.settings import Settings

_WHAT = {
    DIRECTORY_ACTOR: "the agents' memory directory",
    EMBEDDER_ACTOR: "the embedding service",
    MINING_ACTOR: "the mining service",
}


class Actors:
    """Named actor handles of one namespace, looked up lazily and forgotten when they die."""

    def __init__(self, namespace: str, timeout: float) -> None:
        self._namespace = namespace
        self.timeout = timeout
        self._handles: dict[str, ActorHandle] = {}
        self._lock = threading.Lock()

    def handle(self, name: str) -> ActorHandle:
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

    def call(self, name: str, method: str, *args: Any, timeout: float | None = None, **kwargs: Any) -> Any:
        handle = self.handle(name)
        try:
            return ray.get(getattr(handle, method).remote(*args, **kwargs), timeout=timeout or self.timeout)
        except (ray.exceptions.RayActorError, ray.exceptions.ActorUnavailableError):
            self.forget(name)
            raise

    def forget(self, name: str) -> None:
        with self._lock:
            self._handles.pop(name, None)


class RemoteDirectory:
    """``MemoryDirectory`` over the named directory actor."""

    def __init__(self, actors: Actors, consolidation_seconds: float) -> None:
        self._actors = actors
        self._consolidation_timeout = consolidation_seconds + actors.timeout

    def capture(self, request: CaptureRequest) -> CaptureResult:
        return self._actors.call(DIRECTORY_ACTOR, "capture", request)

    def end_session(self, agent_id: str, session_id: str) -> None:
        self._actors.call(DIRECTORY_ACTOR, "end_session", agent_id, session_id)

    def consolidate(self, agent_id: str) -> ConsolidationResult:
        return self._actors.call(DIRECTORY_ACTOR, "consolidate", agent_id, timeout=self._consolidation_timeout)

    def status(self, agent_id: str) -> AgentStatus:
        return self._actors.call(DIRECTORY_ACTOR, "status", agent_id)


class RemoteEmbedder:
    """``EmbeddingService`` over the named embedding actor."""

    def __init__(self, actors: Actors) -> None:
        self._actors = actors

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self._actors.call(EMBEDDER_ACTOR, "embed", list(texts)), dtype=np.float32)


class RemoteMining:
    """``MiningService`` over the named mining actor."""

    def __init__(self, actors: Actors, settings: Settings) -> None:
        self._actors = actors
        self._wait_timeout = settings.consolidation.max_seconds + actors.timeout

    def start(self, project: str, *, wait: bool = False, principal: str = "system") -> MiningRun:
        timeout = self._wait_timeout if wait else None
        return self._actors.call(MINING_ACTOR, "start", project, wait=wait, principal=principal, timeout=timeout)

    def run(self, run_id: str) -> MiningRun:
        return self._actors.call(MINING_ACTOR, "run", run_id)

    def review_items(self, project: str | None = None, status: str | None = "pending") -> list[ReviewItem]:
        return self._actors.call(MINING_ACTOR, "review_items", project, status)

    def review_item(self, item_id: str) -> ReviewItem:
        return self._actors.call(MINING_ACTOR, "review_item", item_id)

    def decide(self, item_id: str, decision: Literal["approve", "reject"], *, reason: str, principal: str) -> ReviewItem:
        return self._actors.call(MINING_ACTOR, "decide", item_id, decision, reason=reason, principal=principal)

    def graph(self, project: str | None = None, *, personal: bool = True, current: bool = False) -> dict[str, Any]:
        return self._actors.call(MINING_ACTOR, "graph", project, personal=personal, current=current)

    def graphml(self, project: str | None = None, *, personal: bool = True) -> str:
        return self._actors.call(MINING_ACTOR, "graphml", project, personal=personal)

    def subject(self, subject: str, project: str | None = None, *, depth: int = 2, personal: bool = True) -> dict[str, Any]:
        return self._actors.call(MINING_ACTOR, "subject", subject, project, depth=depth, personal=personal)

    def map(self, project: str) -> list[MapPoint]:
        return self._actors.call(MINING_ACTOR, "map", project)
