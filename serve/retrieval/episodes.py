"""The episodic fallback (seed 000's layers): raw evidence turns when the notes do not cover a query.

Only the events the caller may see, under DESIGN §5: the retrieving agent's own events (an admin
retrieving for an agent gets that agent's), of the asked project if one is given, masked as they were
captured. Events that try to instruct (``reverie.quarantine``) are never offered, nor the evidence of a
deleted or superseded note (``retired``: it would bring the retired note back as its own raw turn). Candidates are the
BM25 best (``retrieval.episodic_candidates``) of the agent's events; they are embedded with the query's
embedder and kept when their cosine reaches ``retrieval.episodic_min_similarity``, best first.

Each agent's log is read once and read again only when the ``events`` table has a new version (an
append or a purge), at most every ``retrieval.refresh_seconds``; the most recently used 64 are kept.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import bm25s
import numpy as np

from reverie.ports import EmbeddingService
from reverie.quarantine import is_instruction
from reverie.records import Event
from reverie.settings import RetrievalSettings
from reverie.store import Store
from reverie.store.rows import event_from_row, rows
from serve.auth.access import Principal, sees_event
from serve.retrieval.ranking import bm25_index, bm25_scores

_KEPT_LOGS = 64


@dataclass(frozen=True)
class Turn:
    event: Event
    similarity: float


@dataclass
class _Log:
    version: int
    read_at: float
    events: list[Event]
    retriever: bm25s.BM25 | None

    @classmethod
    def of(cls, events: list[Event], version: int) -> _Log:
        kept = [e for e in events if not is_instruction(e.text)]
        return cls(version, time.monotonic(), kept, bm25_index([e.text for e in kept]) if kept else None)

    def candidates(self, query: str, depth: int) -> list[Event]:
        scores = None if self.retriever is None else bm25_scores(self.retriever, query)
        if scores is None:
            return []
        order = [int(i) for i in np.argsort(-scores, kind="stable")[:depth] if scores[i] > 0]
        return [self.events[i] for i in order]


class EpisodeFinder:
    def __init__(self, store: Store, embedder: EmbeddingService, settings: RetrievalSettings,
                 retired: Callable[[str], bool]) -> None:
        self._store = store
        self._retired = retired
        self._embedder = embedder
        self._settings = settings
        self._logs: OrderedDict[tuple[str, str | None], _Log] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, principal: Principal, agent_id: str, project: str | None, query: str,
             vector: np.ndarray) -> list[Turn]:
        """Relevant raw turns of ``agent_id``'s own events, best first."""
        log = self._log(agent_id, project)
        found = [e for e in log.candidates(query, self._settings.episodic_candidates)
                 if sees_event(principal, e, False) and not self._retired(e.event_id)]
        if not found:
            return []
        sims = self._embedder.embed([e.text for e in found]) @ vector
        turns = [Turn(e, float(s)) for e, s in zip(found, sims, strict=True) if s >= self._settings.episodic_min_similarity]
        return sorted(turns, key=lambda t: -t.similarity)

    def _log(self, agent_id: str, project: str | None) -> _Log:
        key = (agent_id, project)
        with self._lock:
            log = self._logs.get(key)
            if log is not None and time.monotonic() - log.read_at < self._settings.refresh_seconds:
                self._logs.move_to_end(key)
                return log
        version = self._store.tables["events"].version
        if log is None or log.version != version:
            table = self._store.events.frame(agent_id=agent_id, project=project)
            log = _Log.of([event_from_row(r) for r in rows(table)], version)
        log.read_at = time.monotonic()
        with self._lock:
            self._logs[key] = log
            self._logs.move_to_end(key)
            while len(self._logs) > _KEPT_LOGS:
                self._logs.popitem(last=False)
        return log

    def forget(self) -> None:
        with self._lock:
            self._logs.clear()
