"""The raw log as a ranked layer (DESIGN §4.6): each replica's cache of every agent's turns.

An agent's turns are read from the store the first time it asks, with the vectors capture wrote
(``event_vectors``): a turn without one (a store older than that table, a failed vector write) is
embedded once through the embedding service and its vector written back, so no turn is ever
embedded per query. Each agent's cache holds its events (masked as captured; text that tries to
instruct is never offered), their vectors as float16 in a faiss flat index (768 bytes a turn at 384
dimensions, searched exactly in float32 arithmetic) and a BM25 index of their text.

The cache follows the store, not this process: when the ``events`` table has a new version (looked
at most every ``retrieval.refresh_seconds``), the events ingested since the last read are appended;
when an agent's count no longer adds up (a purge), its cache is read again. Turns appended since the
last BM25 build rank by meaning only until the next build (at most every
``retrieval.lexical_refresh_seconds``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import bm25s
import faiss
import numpy as np

from reverie.ports import EmbeddingService
from reverie.quarantine import is_instruction
from reverie.records import Event
from reverie.settings import RetrievalSettings
from reverie.store import Store, sql_str
from reverie.store.rows import event_from_row, rows
from serve.retrieval.ranking import bm25_index, bm25_scores


@dataclass(frozen=True)
class Turn:
    event: Event
    similarity: float


@dataclass(frozen=True)
class TurnHits:
    """One query's two rankings of an agent's allowed turns, best first."""

    dense: list[Turn]
    lexical: list[Turn]


@dataclass(frozen=True)
class Lexical:
    index: bm25s.BM25 | None
    n: int  # the first ``n`` turns are indexed
    built_at: float


@dataclass
class AgentTurns:
    """One agent's cached turns. The refresh (under the index's lock) only appends: it replaces the
    vector index and the project codes by bigger copies, so a query that took them at its start
    searches a consistent prefix of the turns without a lock."""

    dim: int
    events: list[Event] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    project_codes: dict[str, int] = field(default_factory=dict)
    codes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    index: faiss.IndexScalarQuantizer = field(init=False)
    lexical: Lexical = field(default_factory=lambda: Lexical(None, 0, 0.0))
    watermark: datetime | None = None
    stored: int = 0  # events of the agent in the store when last read, quarantined ones included
    version: int = -1
    checked_at: float = 0.0

    def __post_init__(self) -> None:
        self.index = faiss.IndexScalarQuantizer(self.dim, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)

    def add(self, events: Sequence[Event], vectors: np.ndarray) -> None:
        kept = [i for i, e in enumerate(events) if not is_instruction(e.text)]
        if not kept:
            return
        codes = []
        for i in kept:
            self.positions[events[i].event_id] = len(self.events)
            self.events.append(events[i])
            codes.append(self.project_codes.setdefault(events[i].project, len(self.project_codes)))
        index = faiss.clone_index(self.index) if self.index.ntotal else self.index
        index.add(np.ascontiguousarray(vectors[kept], dtype=np.float32))
        self.codes = np.concatenate([self.codes, np.asarray(codes, np.int32)])
        self.index = index

    def rebuild_lexical(self) -> None:
        n = len(self.codes)
        self.lexical = Lexical(bm25_index([e.text for e in self.events[:n]]) if n else None, n, time.monotonic())

    def allowed(self, codes: np.ndarray, project: str | None, excluded: Iterable[str]) -> np.ndarray:
        """Which of the turns coded ``codes`` a query may return: those of ``project`` (all when
        None), none of the ``excluded`` event ids."""
        if project is None:
            allowed = np.ones(len(codes), bool)
        else:
            allowed = codes == self.project_codes.get(project, -1)
        for event_id in excluded:
            position = self.positions.get(event_id)
            if position is not None and position < len(allowed):
                allowed[position] = False
        return allowed

    def search(self, vector: np.ndarray, query: str, project: str | None, excluded: Iterable[str],
               depth: int) -> TurnHits:
        index, codes, lexical = self.index, self.codes, self.lexical  # one consistent view
        n = min(len(codes), index.ntotal)
        allowed = self.allowed(codes[:n], project, excluded)
        if n == 0 or not allowed.any():
            return TurnHits([], [])
        return TurnHits(self._dense(index, vector, allowed, depth), self._lexical(index, lexical, vector, query, allowed, depth))

    def _dense(self, index: faiss.Index, vector: np.ndarray, allowed: np.ndarray, depth: int) -> list[Turn]:
        selector = faiss.IDSelectorBitmap(np.packbits(allowed, bitorder="little"))
        sims, found = index.search(vector[None, :], min(depth, int(allowed.sum())),
                                   params=faiss.SearchParameters(sel=selector))
        return [Turn(self.events[int(i)], float(s)) for i, s in zip(found[0], sims[0], strict=True) if i >= 0]

    def _lexical(self, index: faiss.Index, lexical: Lexical, vector: np.ndarray, query: str, allowed: np.ndarray,
                 depth: int) -> list[Turn]:
        scores = None if lexical.index is None else bm25_scores(lexical.index, query)
        if scores is None:
            return []
        n = min(lexical.n, len(allowed))
        scores = np.where(allowed[:n], scores[:n], 0.0)
        order = [int(i) for i in np.argsort(-scores, kind="stable")[:depth] if scores[i] > 0]
        if not order:
            return []
        sims = index.reconstruct_batch(np.asarray(order, dtype=np.int64)) @ vector
        return [Turn(self.events[i], float(s)) for i, s in zip(order, sims, strict=True)]


class TurnIndex:
    def __init__(self, store: Store, embedder: EmbeddingService, settings: RetrievalSettings, dim: int) -> None:
        self._store = store
        self._embedder = embedder
        self._settings = settings
        self._dim = dim
        self._agents: dict[str, AgentTurns] = {}
        self._lock = threading.Lock()

    def search(self, agent_id: str, project: str | None, vector: np.ndarray, query: str,
               excluded: Iterable[str], depth: int) -> TurnHits:
        """The agent's turns (of ``project`` when given, none of the ``excluded`` event ids), ranked two ways."""
        return self._current(agent_id).search(vector, query, project, excluded, depth)

    def memory_bytes(self) -> int:
        """Resident bytes of the cached vectors (float16 codes)."""
        return sum(t.index.sa_code_size() * t.index.ntotal for t in list(self._agents.values()))

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
            if lexical.n < len(turns.codes) and (
                    lexical.index is None or time.monotonic() - lexical.built_at >= self._settings.lexical_refresh_seconds):
                turns.rebuild_lexical()
            return turns

    def _refreshed(self, agent_id: str, turns: AgentTurns | None) -> AgentTurns:
        version = self._store.tables["events"].version
        if turns is not None and turns.version == version:
            turns.checked_at = time.monotonic()
            return turns
        if turns is None:
            return self._read(agent_id, AgentTurns(self._dim), version, None)
        stored = self._store.tables["events"].count_rows(f"agent_id = {sql_str(agent_id)}")
        fresh = self._read(agent_id, turns, version, turns.watermark)
        if fresh.stored != stored:  # a purge took turns away: read the whole log again
            return self._read(agent_id, AgentTurns(self._dim), version, None)
        return fresh

    def _read(self, agent_id: str, turns: AgentTurns, version: int, since: datetime | None) -> AgentTurns:
        where = f"agent_id = {sql_str(agent_id)}"
        if since is not None:
            where += f" AND ingested_at > timestamp '{since.isoformat()}'"
        events = sorted((event_from_row(r) for r in rows(self._store.tables.read("events", where))),
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
