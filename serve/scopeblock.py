"""The cached retrievable notes of one scope: vectors and ranking columns in numpy, searched exactly or,
above ``retrieval.ann_above`` notes, through an IVF index (faiss) plus an exact scan of the rows
added since the index was built.

One writer (the replica's refresh thread) appends and retires rows; readers never lock. A row is
never rewritten in place: a changed note retires its old slot and takes a new one, and the arrays
are replaced as a whole when they grow or are compacted, so a reader holding ``block.arrays`` sees a
consistent snapshot (rows below its ``n``; only ``live`` flags may drop to False under it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import faiss
import numpy as np
import pyarrow as pa

from reverie.settings import RetrievalSettings
from serve.ranking import priors

BlockKey = tuple[str, str | None]  # (scope, project of a personal scope)
_NO_EXPIRY = math.inf


def seconds(value: datetime | None, default: float) -> float:
    return value.timestamp() if value is not None else default


@dataclass
class Arrays:
    """Capacity-sized columns; rows ``[0, n)`` are filled."""

    vectors: np.ndarray
    live: np.ndarray
    fresh_at: np.ndarray
    expires_at: np.ndarray
    confidence: np.ndarray
    hits: np.ndarray
    n: int = 0

    @classmethod
    def empty(cls, capacity: int, dim: int) -> Arrays:
        return cls(np.zeros((capacity, dim), np.float32), np.zeros(capacity, bool), np.zeros(capacity),
                   np.full(capacity, _NO_EXPIRY), np.zeros(capacity, np.float32), np.zeros(capacity, np.float32))

    def grown(self, capacity: int) -> Arrays:
        bigger = Arrays.empty(capacity, self.vectors.shape[1])
        for name in ("vectors", "live", "fresh_at", "expires_at", "confidence", "hits"):
            getattr(bigger, name)[: self.n] = getattr(self, name)[: self.n]
        bigger.n = self.n
        return bigger


@dataclass(frozen=True)
class Ann:
    """An IVF index over slots ``[0, n)`` (slots keep their place when the arrays grow)."""

    index: Any
    n: int


@dataclass(frozen=True)
class Cached:
    """Where a note's full row is: a chunk of rows read together, and its index there."""

    note_id: str
    version: int
    statement: str
    chunk: pa.Table
    row: int

    def as_row(self) -> dict[str, Any]:
        return self.chunk.slice(self.row, 1).to_pylist()[0]


@dataclass
class Candidate:
    cached: Cached
    similarity: float
    dense: float


@dataclass
class ScopeBlock:
    key: BlockKey
    weight: float
    dim: int
    arrays: Arrays = field(init=False)
    entries: list[Cached] = field(default_factory=list)
    ann: Ann | None = None
    dead: int = 0
    building: bool = False

    def __post_init__(self) -> None:
        self.arrays = Arrays.empty(16, self.dim)

    @property
    def live_count(self) -> int:
        return self.arrays.n - self.dead

    # --- the writer --------------------------------------------------------------------------
    def append(self, cached: Cached, vector: np.ndarray, row: dict[str, Any]) -> int:
        a = self.arrays
        if a.n == len(a.live):
            a = self.arrays = a.grown(2 * len(a.live))
        slot = a.n
        a.vectors[slot] = vector
        a.fresh_at[slot] = seconds(row.get("last_verified_at") or row.get("last_seen_at") or row.get("created_at"), 0.0)
        a.expires_at[slot] = seconds(row.get("expires_at"), _NO_EXPIRY)
        a.confidence[slot] = row.get("confidence") or 0.0
        a.hits[slot] = row.get("hit_count") or 0
        self.entries.append(cached)
        a.live[slot] = True
        a.n = slot + 1
        return slot

    def retire(self, slot: int) -> None:
        self.arrays.live[slot] = False
        self.dead += 1

    # --- readers -----------------------------------------------------------------------------
    def search(self, query: np.ndarray, now: float, depth: int, settings: RetrievalSettings) -> list[Candidate]:
        """The ``depth`` best live, unexpired rows over ``min_similarity`` by the dense score."""
        a, ann = self.arrays, self.ann
        if ann is not None:
            slots, sims = self._approximate(ann, query, depth, settings)
        else:
            slots = np.arange(a.n)
            sims = a.vectors[: a.n] @ query
        keep = a.live[slots] & (a.expires_at[slots] > now) & (sims >= settings.min_similarity)
        slots, sims = slots[keep], sims[keep]
        dense = self.weight * sims + priors(settings, a.fresh_at[slots], a.confidence[slots], a.hits[slots], now)
        best = np.argsort(-dense, kind="stable")[:depth] if len(dense) <= 4 * depth else _top(dense, depth)
        return [Candidate(self.entries[int(slots[i])], float(sims[i]), float(dense[i])) for i in best]

    def _approximate(self, ann: Ann, query: np.ndarray, depth: int, settings: RetrievalSettings) -> tuple[np.ndarray, np.ndarray]:
        a = self.arrays
        fetch = min(ann.n, 2 * depth + 16)
        params = faiss.SearchParametersIVF(nprobe=settings.ann_probe)
        sims, slots = ann.index.search(query[None, :], fetch, params=params)
        found = slots[0] >= 0
        tail = np.arange(ann.n, a.n)
        tail_sims = a.vectors[ann.n: a.n] @ query
        return (np.concatenate([slots[0][found].astype(np.int64), tail]),
                np.concatenate([sims[0][found].astype(np.float32), tail_sims]))

    def similarity(self, slot: int, query: np.ndarray) -> float:
        return float(self.arrays.vectors[slot] @ query)

    def usable(self, slot: int, now: float) -> bool:
        a = self.arrays
        return slot < a.n and bool(a.live[slot]) and a.expires_at[slot] > now

    # --- the approximate index ---------------------------------------------------------------
    def wants_index(self, settings: RetrievalSettings) -> bool:
        if self.building or self.live_count < settings.ann_above:
            return False
        return self.ann is None or self.arrays.n > 1.25 * self.ann.n

    def build_index(self) -> None:
        """Train and fill an IVF index over the current rows (run off the refresh thread)."""
        a = self.arrays
        n = a.n
        lists = max(16, int(round(math.sqrt(n))))
        quantizer = faiss.IndexFlatIP(self.dim)
        index = faiss.IndexIVFFlat(quantizer, self.dim, lists, faiss.METRIC_INNER_PRODUCT)
        index.cp.max_points_per_centroid = 64
        index.cp.niter = 10
        vectors = np.ascontiguousarray(a.vectors[:n])
        index.train(vectors)
        index.add(vectors)
        self.ann = Ann(index, n)


def _top(scores: np.ndarray, depth: int) -> np.ndarray:
    part = np.argpartition(-scores, depth - 1)[:depth]
    return part[np.argsort(-scores[part], kind="stable")]
