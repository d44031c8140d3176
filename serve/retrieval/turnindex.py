"""The raw log as a ranked layer (DESIGN §4.6): each replica's cache of every agent's turns.

An agent's turns are read from the store the first time it asks, with the vectors capture wrote
(``event_vectors``): a turn without one (a store older than that table, a failed vector write) is
embedded once through the embedding service and its vector written back, so no turn is ever
embedded per query. Each agent's cache (:class:`~serve.retrieval.agentturns.AgentTurns`) holds its
events (masked as captured; text that tries to instruct is never offered), their vectors, the
contextual keys consolidation wrote for them (``turn_keys``) and BM25 indexes of both.

The cache follows the store, not this process: when the ``events`` table has a new version (looked
at most every ``retrieval.refresh_seconds``), the events ingested since the last read are appended;
when an agent's count no longer adds up (a purge), its cache is read again; when ``turn_keys`` has a
new version, the keys of cached turns that had none are added. Turns and keys appended since the
last BM25 build rank by meaning only until the next build (at most every
``retrieval.lexical_refresh_seconds``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from datetime import datetime

import numpy as np

from reverie.dates import Window
from reverie.records import Event
from reverie.settings import RetrievalSettings
from reverie.store import EventFilter, Store
from reverie.store.rows import event_from_row, rows
from reverie.store.vectors import TextEmbedder
from serve.retrieval.agentturns import AgentTurns, Turn, TurnHits

__all__ = ["Turn", "TurnHits", "TurnIndex"]
_READ_ALL_KEYS_ABOVE = 512


class TurnIndex:
    def __init__(self, store: Store, embedder: TextEmbedder, settings: RetrievalSettings, dim: int) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._dim = dim
        self._agents: dict[str, AgentTurns] = {}
        self._lock = threading.Lock()

    def search(self, agent_id: str, project: str | None, vector: np.ndarray, query: str,
               excluded: Iterable[str], depth: int, windows: Sequence[Window] = (),
               floors: tuple[float, float] = (-1.0, -1.0)) -> TurnHits:
        """The agent's turns (of ``project`` when given, none of the ``excluded`` event ids), ranked
        by plain text and by key, dense and full text, and by the days ``windows`` name; those found
        by meaning at least ``floors[0]`` similar to the query, the others at least ``floors[1]``."""
        return self._current(agent_id).search(vector, query, project, excluded, depth, windows, floors)

    def memory_bytes(self) -> int:
        """Resident bytes of the cached vectors of turns and keys (float16 codes)."""
        return sum(i.sa_code_size() * i.ntotal for t in list(self._agents.values()) for i in (t.index, t.key_index))

    def turns(self) -> int:
        return sum(len(t.codes) for t in list(self._agents.values()))

    def forget(self) -> None:
        with self._lock:
            self._agents.clear()

    # --- keeping the cache current --------------------------------------------------------------
    def _current(self, agent_id: str) -> AgentTurns:
        with self._lock:
            turns = self._agents.get(agent_id)
            if turns is None or time.monotonic() - turns.checked_at >= self._settings.refresh_seconds:
                turns = self._refreshed(agent_id, turns)
                self._agents[agent_id] = turns
            lexical = turns.lexical
            if turns.stale() and (lexical.plain is None or lexical.k == 0 and len(turns.key_rows)
                                  or time.monotonic() - lexical.built_at >= self._settings.lexical_refresh_seconds):
                turns.rebuild_lexical()
            return turns

    def _refreshed(self, agent_id: str, turns: AgentTurns | None) -> AgentTurns:
        version = (self._store.tables["events"].version, self._store.tables["turn_keys"].version)
        if turns is not None and turns.version == version:
            turns.checked_at = time.monotonic()
            return turns
        if turns is None:
            return self._keys(agent_id, self._read(agent_id, AgentTurns(self._dim), version, None))
        if turns.version[0] != version[0]:
            stored = self._store.events.count(EventFilter(agent_id=agent_id))
            fresh = self._read(agent_id, turns, version, turns.watermark)
            if fresh.stored != stored:  # a purge took turns away: read the whole log again
                return self._keys(agent_id, self._read(agent_id, AgentTurns(self._dim), version, None))
        turns.version, turns.checked_at = version, time.monotonic()
        return self._keys(agent_id, turns)

    def _keys(self, agent_id: str, turns: AgentTurns) -> AgentTurns:
        """Add the stored keys of cached turns that have none yet."""
        new = self._store.keys.ids(agent_id) - turns.keyed
        if new:
            wanted = None if len(new) > _READ_ALL_KEYS_ABOVE else sorted(new)
            turns.add_keys(self._store.keys.of_agent(agent_id, wanted))
        return turns

    def _read(self, agent_id: str, turns: AgentTurns, version: tuple[int, int], since: datetime | None) -> AgentTurns:
        where = EventFilter(agent_id=agent_id, ingested_after=since)
        events = sorted((event_from_row(r) for r in rows(self._store.events.frame(where))),
                        key=lambda e: (e.ingested_at, e.ts, e.event_id))
        if events:
            turns.add(events, self._vectors(agent_id, events))
            turns.watermark = max(e.ingested_at for e in events)
        turns.stored += len(events)
        turns.version, turns.checked_at = version, time.monotonic()
        return turns

    def _vectors(self, agent_id: str, events: list[Event]) -> np.ndarray:
        """The stored vectors of ``events``; those missing are embedded once and written back."""
        stored = self._store.vectors.of_agent(agent_id, [e.event_id for e in events] if len(events) < 512 else None)
        missing = [e for e in events if e.event_id not in stored]
        if missing:
            vectors = self._embedder.embed([e.text for e in missing])
            self._store.vectors.write([(agent_id, e.event_id) for e in missing], vectors)
            stored.update(zip((e.event_id for e in missing), vectors, strict=True))
        return np.stack([stored[e.event_id] for e in events]).astype(np.float32)
