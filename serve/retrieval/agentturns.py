"""One agent's cached turns and their rankings (the raw log as a ranked layer, DESIGN §4.6).

Each turn is ranked under its plain text (dense over the vector capture wrote, and BM25), and — once
consolidation wrote its contextual key (``reverie.context_keys``) — under its key too (dense and
BM25). A question that names a time adds a fifth list: the turns of those days (the session's day, or
a day a relative phrase of the turn means), by similarity. Vectors are float16 in faiss flat
indexes (768 bytes a turn and as much a key at 384 dimensions), searched exactly.

The refresh (under the index's lock) only appends: it replaces indexes and arrays by bigger copies,
so a query that took them at its start searches a consistent prefix without a lock.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import NamedTuple

import bm25s
import faiss
import numpy as np

from reverie.dates import Window
from reverie.quarantine import is_instruction
from reverie.records import Event
from reverie.store.keytable import StoredKey
from serve.retrieval.ranking import bm25_index, bm25_scores, top


class Turn(NamedTuple):  # a tuple: a retrieval builds hundreds
    event: Event
    similarity: float


@dataclass(frozen=True)
class TurnHits:
    """One query's rankings of an agent's allowed turns, best first: plain text dense and full text,
    contextual key dense and full text, and the turns of the days the question names."""

    dense: list[Turn] = field(default_factory=list)
    lexical: list[Turn] = field(default_factory=list)
    key_dense: list[Turn] = field(default_factory=list)
    key_lexical: list[Turn] = field(default_factory=list)
    window: list[Turn] = field(default_factory=list)

    def lists(self) -> tuple[list[Turn], ...]:
        return self.dense, self.lexical, self.key_dense, self.key_lexical, self.window


@dataclass(frozen=True)
class Lexical:
    plain: bm25s.BM25 | None
    keys: bm25s.BM25 | None
    n: int  # the first ``n`` turns are indexed
    k: int  # the first ``k`` keys are indexed
    built_at: float


def _flat(dim: int) -> faiss.IndexScalarQuantizer:
    return faiss.IndexScalarQuantizer(dim, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)


def _grown(index: faiss.Index, vectors: np.ndarray) -> faiss.Index:
    grown = faiss.clone_index(index) if index.ntotal else index
    grown.add(np.ascontiguousarray(vectors, dtype=np.float32))
    return grown


@dataclass
class Days:
    """When each turn was said (its day's ordinal, month and day of month) and the days its relative
    phrases mean (``mentions``: start and end ordinals and the turn's position)."""

    said: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.int32))
    mentions: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.int32))

    def add_turns(self, events: Sequence[Event]) -> None:
        days = [e.ts.date() for e in events]
        rows = np.asarray([[d.toordinal(), d.month, d.day] for d in days], np.int32).reshape(-1, 3)
        self.said = np.concatenate([self.said, rows])

    def add_mentions(self, position: int, key: StoredKey) -> None:
        extra = [[s.start.toordinal(), s.end.toordinal(), position] for s in key.spans[1:]]
        if extra:
            self.mentions = np.concatenate([self.mentions, np.asarray(extra, np.int32)])

    def within(self, windows: Sequence[Window], n: int) -> np.ndarray:
        """Which of the first ``n`` turns were said in, or speak of, a day of ``windows``."""
        said, mentions = self.said[:n], self.mentions
        hit = np.zeros(n, bool)
        for w in windows:
            if w.span is not None:
                lo, hi = w.span.start.toordinal(), w.span.end.toordinal()
                hit |= (said[:, 0] >= lo) & (said[:, 0] <= hi)
                meets = (mentions[:, 0] <= hi) & (mentions[:, 1] >= lo) & (mentions[:, 2] < n)
                hit[mentions[meets, 2]] = True
            else:
                hit |= (said[:, 1] == w.month) & ((said[:, 2] == w.day) if w.day is not None else True)
                for start, end, position in mentions[mentions[:, 2] < n]:
                    if w.holds(date.fromordinal(int(start)), date.fromordinal(int(end))):
                        hit[position] = True
        return hit


@dataclass
class AgentTurns:
    """One agent's cached turns, their keys and their days."""

    dim: int
    events: list[Event] = field(default_factory=list)
    positions: dict[str, int] = field(default_factory=dict)
    project_codes: dict[str, int] = field(default_factory=dict)
    codes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    index: faiss.Index = field(init=False)  # _flat's, then its _grown copies
    key_index: faiss.Index = field(init=False)
    key_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # the turn of each key
    key_texts: list[str] = field(default_factory=list)
    keyed: set[str] = field(default_factory=set)
    days: Days = field(default_factory=Days)
    lexical: Lexical = field(default_factory=lambda: Lexical(None, None, 0, 0, 0.0))
    watermark: datetime | None = None  # the newest ``ingested_at`` read
    stored: int = 0  # events of the agent in the store when last read, quarantined ones included
    version: tuple[int, int] = (-1, -1)  # the events' and the keys' table versions last read
    checked_at: float = 0.0

    def __post_init__(self) -> None:
        self.index = _flat(self.dim)
        self.key_index = _flat(self.dim)

    def add(self, events: Sequence[Event], vectors: np.ndarray) -> None:
        kept = [i for i, e in enumerate(events) if not is_instruction(e.text)]
        if not kept:
            return
        codes = []
        for i in kept:
            self.positions[events[i].event_id] = len(self.events)
            self.events.append(events[i])
            codes.append(self.project_codes.setdefault(events[i].project, len(self.project_codes)))
        self.days.add_turns([events[i] for i in kept])
        self.index = _grown(self.index, vectors[kept])
        self.codes = np.concatenate([self.codes, np.asarray(codes, np.int32)])

    def add_keys(self, keys: Iterable[StoredKey]) -> None:
        """Index the keys of cached turns that have none yet (a key of a turn not cached is skipped)."""
        fresh = [k for k in keys if k.event_id in self.positions and k.event_id not in self.keyed]
        if not fresh:
            return
        rows = [self.positions[k.event_id] for k in fresh]
        for row, key in zip(rows, fresh, strict=True):
            self.days.add_mentions(row, key)
            self.keyed.add(key.event_id)
        self.key_texts = self.key_texts + [k.key for k in fresh]
        self.key_rows = np.concatenate([self.key_rows, np.asarray(rows, np.int64)])  # before the index:
        self.key_index = _grown(self.key_index, np.stack([k.vector for k in fresh]))  # a reader slices rows by it

    def rebuild_lexical(self) -> None:
        n, k = len(self.codes), len(self.key_rows)
        self.lexical = Lexical(bm25_index([e.text for e in self.events[:n]]) if n else None,
                               bm25_index(self.key_texts[:k]) if k else None, n, k, time.monotonic())

    def stale(self) -> bool:
        return self.lexical.n < len(self.codes) or self.lexical.k < len(self.key_rows)

    def allowed(self, codes: np.ndarray, project: str | None, excluded: Iterable[str]) -> np.ndarray:
        """Which of the turns coded ``codes`` a query may return: those of ``project`` (all when
        None), none of the ``excluded`` event ids."""
        allowed = np.ones(len(codes), bool) if project is None else codes == self.project_codes.get(project, -1)
        for event_id in excluded:
            position = self.positions.get(event_id)
            if position is not None and position < len(allowed):
                allowed[position] = False
        return allowed

    def search(self, vector: np.ndarray, query: str, project: str | None, excluded: Iterable[str],
               depth: int, windows: Sequence[Window] = (), floors: tuple[float, float] = (-1.0, -1.0)) -> TurnHits:
        """Each ranking's turns, those found by meaning at least ``floors[0]`` similar to the query,
        those found by words or by the days named at least ``floors[1]``."""
        view = _View(self.index, self.key_index, self.key_rows, self.codes, self.lexical)  # one consistent view
        n = min(len(view.codes), view.index.ntotal)
        allowed = self.allowed(view.codes[:n], project, excluded)
        if n == 0 or not allowed.any():
            return TurnHits()
        keyed = view.key_rows[: view.key_index.ntotal]
        key_allowed = _of_keys(allowed, keyed)
        dense, words = floors
        return TurnHits(
            self._dense(view.index, vector, allowed, depth, floor=dense),
            self._lexical(view.lexical.plain, view.lexical.n, allowed, query, depth, view.index, vector, floor=words),
            self._dense(view.key_index, vector, key_allowed, depth, keyed, floor=dense),
            self._lexical(view.lexical.keys, view.lexical.k, key_allowed, query, depth, view.key_index, vector, keyed,
                          floor=words),
            self._window(view, vector, allowed, key_allowed, depth, windows, n, words),
        )

    def _dense(self, index: faiss.Index, vector: np.ndarray, allowed: np.ndarray, depth: int,
               rows: np.ndarray | None = None, *, floor: float = -1.0) -> list[Turn]:
        if not allowed.any():
            return []
        # faiss's stubs know only the C++ (n, bitmap) form; its Python wrapper also takes the bitmap array alone
        selector = faiss.IDSelectorBitmap(np.packbits(allowed, bitorder="little"))  # type: ignore[call-arg, arg-type]
        params = faiss.SearchParameters()  # what SearchParameters(sel=...) does, in the form its stubs know
        params.sel = selector
        sims, found = index.search(vector[None, :], min(depth, int(allowed.sum())), params=params)
        keep = (found[0] >= 0) & (sims[0].astype(np.float64) >= floor)  # compared as Python floats were
        positions = found[0][keep] if rows is None else rows[found[0][keep]]
        return [Turn(self.events[i], s) for i, s in zip(positions.tolist(), sims[0][keep].tolist(), strict=True)]

    def _lexical(self, bm25: bm25s.BM25 | None, indexed: int, allowed: np.ndarray, query: str, depth: int,
                 index: faiss.Index, vector: np.ndarray, rows: np.ndarray | None = None, *,
                 floor: float = -1.0) -> list[Turn]:
        scores = None if bm25 is None else bm25_scores(bm25, query)
        if scores is None:
            return []
        n = min(indexed, len(allowed))
        scores = np.where(allowed[:n], scores[:n], 0.0)
        order = top(scores, depth, np.flatnonzero(scores > 0)).tolist()
        if not order:
            return []
        found = np.asarray(order, dtype=np.int64)
        sims = index.reconstruct_batch(found) @ vector
        keep = sims.astype(np.float64) >= floor
        positions = found[keep] if rows is None else rows[found[keep]]
        return [Turn(self.events[i], s) for i, s in zip(positions.tolist(), sims[keep].tolist(), strict=True)]

    def _window(self, view: _View, vector: np.ndarray, allowed: np.ndarray, key_allowed: np.ndarray, depth: int,
                windows: Sequence[Window], n: int, floor: float) -> list[Turn]:
        """The allowed turns of the days ``windows`` name, by similarity (of the key where there is one)."""
        if not windows:
            return []
        inside = self.days.within(windows, n) & allowed
        if not inside.any():
            return []
        keyed = view.key_rows[: view.key_index.ntotal]
        by_key = self._dense(view.key_index, vector, key_allowed & _of_keys(inside, keyed), depth, keyed, floor=floor)
        plain = inside.copy()
        plain[keyed[keyed < n]] = False
        found = by_key + self._dense(view.index, vector, plain, depth, floor=floor)
        return sorted(found, key=lambda t: -t.similarity)[:depth]


def _of_keys(turns: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """A per-turn mask read per key (``rows``: each key's turn); keys of turns past the mask are out."""
    mask = np.zeros(len(rows), bool)
    inside = rows < len(turns)
    mask[inside] = turns[rows[inside]]
    return mask


@dataclass(frozen=True)
class _View:
    index: faiss.Index
    key_index: faiss.Index
    key_rows: np.ndarray
    codes: np.ndarray
    lexical: Lexical
