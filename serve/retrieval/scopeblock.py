"""The cached retrievable notes of one scope: vectors and ranking columns in numpy, searched exactly or,
above ``retrieval.ann_above`` notes, by a product-quantized fast scan (faiss, two dimensions per
4-bit code: 96 bytes a 384-d note, compared by SIMD table lookups) whose best
``ann_rescored × depth`` rows are re-scored with the float32 vectors, plus an exact scan of the rows
added since that copy was built (it is rebuilt once they are a quarter of it).

One writer (the replica's refresh thread) appends and retires rows; readers never lock. A row is
never rewritten in place: a changed note retires its old slot and takes a new one, and the arrays
are replaced as a whole when they grow or are compacted, so a reader holding ``block.arrays`` sees a
consistent snapshot (rows below its ``n``; only ``live`` flags may drop to False under it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

import faiss
import numpy as np
import pyarrow as pa

from reverie.records import agents_of
from reverie.settings import RetrievalSettings
from reverie.store.scopes import is_personal
from serve.retrieval.ranking import priors, top

BlockKey = tuple[str, str | None]  # (scope, project of a personal scope)
_NO_EXPIRY = float("inf")


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
    """A quantized copy of slots ``[0, n)`` (slots keep their place when the arrays grow)."""

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

    def column(self, name: str) -> Any:
        """One field of the note's row (as Python)."""
        return self.chunk.column(name)[self.row].as_py()

    # read from the row once, when a retrieval first needs them (a Cached is replaced, never changed)
    @cached_property
    def kind(self) -> str:
        return str(self.column("type"))

    @cached_property
    def evidence(self) -> tuple[str, ...]:
        return tuple(self.column("evidence") or ())

    @cached_property
    def agents(self) -> frozenset[str]:
        return agents_of(self.column("source_agents"), self.column("owner_agent"))

    @cached_property
    def scope(self) -> str:
        return str(self.column("scope"))

    @cached_property
    def verified(self) -> bool:
        return bool(self.column("verified"))

    @cached_property
    def seen(self) -> float:
        """When its evidence was last observed (``last_seen_at``, else ``valid_from``, else ``created_at``)."""
        return seconds(next((t for t in map(self.column, ("last_seen_at", "valid_from", "created_at")) if t), None),
                       float("-inf"))

    @cached_property
    def linked(self) -> frozenset[str]:
        """The notes consolidation linked it to as an open tie (``conflicts_with``)."""
        return frozenset(self.column("conflicts_with") or ())

    def evidence_of(self, agent_id: str) -> tuple[str, ...]:
        """The turns of ``agent_id`` the note cites: event ids are unique per agent only, so another
        agent's note citing "e1" does not cite this agent's "e1" (a note naming no agent cites any's)."""
        return self.evidence if not self.agents or agent_id in self.agents else ()

    @cached_property
    def shared(self) -> bool:
        """A module, project or team note (consolidated from every agent that shares it), or a verified
        one (by a tool, a reviewer, or its owner's edit): knowledge beyond one turn's say-so."""
        return not is_personal(self.scope) or self.verified


@dataclass
class Candidate:
    cached: Cached
    similarity: float
    dense: float

    def weighty(self, settings: RetrievalSettings) -> bool:
        """A shared or verified note close to the question: it weighs ``weight_notes_shared``."""
        return self.similarity >= settings.shared_min_similarity and self.cached.shared


@dataclass(frozen=True)
class Hits:
    """Rows of one block, best first: their slots, cosine similarities and dense scores."""

    block: ScopeBlock
    slots: np.ndarray
    sims: np.ndarray
    dense: np.ndarray

    def candidate(self, i: int) -> Candidate:
        return Candidate(self.block.entries[int(self.slots[i])], float(self.sims[i]), float(self.dense[i]))

    def candidates(self) -> list[Candidate]:
        return [self.candidate(i) for i in range(len(self.slots))]


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
    def search(self, query: np.ndarray, now: float, depth: int, settings: RetrievalSettings) -> Hits:
        """The ``depth`` best live, unexpired rows over ``min_similarity`` by the dense score."""
        a, ann = self.arrays, self.ann
        if ann is not None:
            slots, sims = self._approximate(a, ann, query, depth, settings)
        else:
            n = a.n  # read once: a refresh may append a row between two reads of it
            slots = np.arange(n)
            sims = a.vectors[:n] @ query
        keep = a.live[slots] & (a.expires_at[slots] > now) & (sims >= settings.min_similarity)
        slots, sims = slots[keep], sims[keep]
        dense = self.weight * sims + priors(settings, a.fresh_at[slots], a.confidence[slots], a.hits[slots], now)
        best = top(dense, depth)
        return Hits(self, slots[best], sims[best], dense[best])

    @staticmethod
    def _approximate(a: Arrays, ann: Ann, query: np.ndarray, depth: int,
                     settings: RetrievalSettings) -> tuple[np.ndarray, np.ndarray]:
        """Candidates from the quantized scan, re-scored exactly, plus the rows of ``a`` (the arrays the
        caller read, so both agree on ``n``) added since it was built."""
        _, found = ann.index.search(query[None, :], max(1, min(ann.n, int(settings.ann_rescored * depth))))
        slots = np.concatenate([found[0][found[0] >= 0].astype(np.int64), np.arange(ann.n, a.n)])
        return slots, a.vectors[slots] @ query

    def similarity(self, slot: int, query: np.ndarray) -> float:
        return float(self.arrays.vectors[slot] @ query)

    def usable(self, slot: int, now: float) -> bool:
        a = self.arrays
        return slot < a.n and bool(a.live[slot]) and a.expires_at[slot] > now

    # --- the approximate index ---------------------------------------------------------------
    def wants_index(self, settings: RetrievalSettings) -> bool:
        if self.building or self.live_count < max(settings.ann_above, _MIN_QUANTIZED):
            return False
        return self.ann is None or self.arrays.n > 1.25 * self.ann.n

    def build_index(self) -> None:
        """A product-quantized copy of the current rows (faiss fast scan); its candidates are then
        re-scored with the float32 vectors."""
        n = self.arrays.n
        self.ann = Ann(quantized(np.ascontiguousarray(self.arrays.vectors[:n])), n)


def single_threaded() -> None:
    """One OpenMP thread for faiss on the calling thread. The setting is per thread (a new thread
    starts with one per core), and a team of two for a single query spins the second core for
    nothing: a 1.4 ms scan of 30k fp16 rows took 2.7 ms of CPU on a request thread, 1.4 ms after this."""
    faiss.omp_set_num_threads(1)


_MIN_QUANTIZED = 1_000  # an exact scan of fewer rows costs less than 0.1 ms; its codebooks need 16 rows at least
_TRAIN_ROWS = 4_096  # faiss's k-means samples at most 256 rows per centroid: 16 centroids a slice train on this many


def quantized(vectors: np.ndarray) -> Any:
    """A fast-scan product quantizer of ``vectors`` for inner products: 4-bit codes of two dimensions
    each (one each for an odd dimension), trained on at most ``_TRAIN_ROWS`` of them."""
    dim = vectors.shape[1]
    index = faiss.IndexPQFastScan(dim, dim // 2 if dim % 2 == 0 else dim, 4, faiss.METRIC_INNER_PRODUCT)
    sample = vectors
    if len(vectors) > _TRAIN_ROWS:
        sample = vectors[np.random.default_rng(0).choice(len(vectors), _TRAIN_ROWS, replace=False)]
    index.train(sample)
    index.add(vectors)
    return index
