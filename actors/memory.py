"""One agent's memory: capture its events and consolidate them, as a plain class and a Ray actor.

:class:`AgentMemory` is testable without Ray (give it a store client and a model client).
:data:`AgentMemoryActor` is the same class as a threaded Ray actor: captures keep flowing while a
run consolidates, and a second run beside a running one is refused with RunInProgressError. Its
state lives in the store, so a restarted or re-activated actor continues exactly where it was: on
start it aborts its own unfinished run (nothing of it was visible) and the pending sessions wait
for the next run. It never imports torch or LanceDB (the embedding service and the store gateway do).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ray

from actors.consolidate import Consolidation
from actors.store_client import ModelClient, RemoteStoreClient, StoreClient
from reverie.capture import CaptureRequest, prepare_events
from reverie.clock import Clock, SystemClock
from reverie.embed import spec_for
from reverie.errors import ReverieError, RunInProgressError, ValidationError
from reverie.extract import ChatExtractor, Extractor, RuleExtractor, StructuredExtractor
from reverie.ports import CaptureResult, ConsolidationResult, agent_actor_name
from reverie.privacy import Masker
from reverie.records import Session
from reverie.remote import Actors, RemoteEmbedder
from reverie.salience import assess
from reverie.settings import Settings

HEAVY_MODULES = ("torch", "sentence_transformers", "transformers", "lancedb", "lance", "pandas", "pyarrow", "tokenizers")


class AgentMemory:
    def __init__(self, agent_id: str, settings: Settings, clock: Clock | None = None,
                 store: StoreClient | None = None, model: ModelClient | None = None) -> None:
        self.agent_id = agent_id
        self._settings = settings
        self._clock = clock or SystemClock()
        self._store = store or RemoteStoreClient(settings.actors)
        self._model = model or RemoteEmbedder(Actors.of(settings), spec_for(settings.embedding))
        self._masker = Masker(settings.privacy)
        self._capture_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._running = False
        self._extractor_list = self._extractors()
        self.last_error: str | None = None
        self.settled = self._store.settle(agent_id)

    def pid(self) -> int:
        return os.getpid()

    def ready(self) -> bool:
        return True

    def capture(self, request: CaptureRequest) -> CaptureResult:
        """Validate, mask and append; returns once the store committed the events."""
        if request.agent_id != self.agent_id:
            raise ValidationError(
                f"this memory belongs to agent {self.agent_id!r}, not {request.agent_id!r}; "
                "send the events to their own agent", field="agent_id",
            )
        events = prepare_events(request, self._masker, self._clock, self._settings.capture)
        vectors = self._model.embed([e.text for e in events])  # once, offline: turns are never embedded per query
        with self._capture_lock:
            result = self._store.append(events, vectors)
        saliences = [assess(e) for e in events]
        threshold = self._settings.capture.salience_threshold
        return result.model_copy(update={
            "salient": sum(1 for s in saliences if s.salient(threshold)),
            "quarantined": sum(1 for s in saliences if s.instructions),
        })

    def end_session(self, session_id: str) -> Session:
        with self._capture_lock:
            return self._store.end_session(self.agent_id, session_id, self._clock.now())

    def consolidate(self, reason: str = "manual") -> ConsolidationResult:
        """Run now; RunInProgressError if this agent's run is already going."""
        with self._run_lock:
            if self._running:
                raise RunInProgressError(
                    f"a consolidation of agent {self.agent_id!r} is already running; wait for it "
                    "to finish (its status shows running) and ask again"
                )
            self._running = True
        try:
            result = self._consolidation().run(reason)
        except ReverieError as exc:
            self.last_error = f"{exc.code}: {exc.message}"
            raise
        finally:
            with self._run_lock:
                self._running = False
        self.last_error = None
        return result

    def running(self) -> bool:
        return self._running

    def state(self) -> dict[str, Any]:
        """Run state and which heavy libraries this process holds (it should hold none)."""
        heavy = sorted(m for m in HEAVY_MODULES if m in sys.modules)
        return {"running": self._running, "last_error": self.last_error, "pid": os.getpid(), "heavy_modules": heavy}

    def _consolidation(self) -> Consolidation:
        return Consolidation(
            self.agent_id, self._settings, self._store, self._model, self._extractor_list, self._clock,
            commit_guard=self._holding_captures,
        )

    @contextmanager
    def _holding_captures(self) -> Iterator[None]:
        """No capture of this agent lands while the run checks its sessions and commits."""
        with self._capture_lock:
            yield

    def _extractors(self) -> list[Extractor]:
        threshold = self._settings.capture.salience_threshold
        found: list[Extractor] = [StructuredExtractor(), RuleExtractor(threshold)]
        if self._settings.llm.enabled:
            found.append(ChatExtractor(self._settings.llm, self._masker, threshold,
                                       repair_rounds=self._settings.consolidation.repair_rounds))
        return found


AgentMemoryActor = ray.remote(AgentMemory)


def agent_options(agent_id: str, settings: Settings) -> dict[str, Any]:
    actors = settings.actors
    return {
        "name": agent_actor_name(agent_id), "namespace": actors.namespace, "get_if_exists": True,
        "num_cpus": actors.num_cpus, "max_restarts": actors.max_restarts,
        "max_concurrency": actors.agent_concurrency,
    }
