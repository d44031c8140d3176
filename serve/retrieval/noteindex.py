"""Each replica's in-memory cache of the retrievable notes (status active, committed), kept current
from the store, never from in-process events only (several replicas may serve one store).

- Load: the visible active notes, read once, grouped into one :class:`ScopeBlock` per scope (personal
  scopes also per project).
- Refresh (every ``retrieval.refresh_seconds``, on a background thread): when the ``batches`` table
  has a new version, the batches committed since the last look (a window of a few minutes, so a
  writer's clock may lag) name the notes they changed; those notes' current views are read and each
  one replaces, joins or leaves the cache. A deleted or superseded note therefore stops being
  returned within about ``refresh_seconds`` plus one read.
- Reconcile (every ``retrieval.reconcile_seconds``): the ids and versions of every visible active note
  are compared with the cache, which catches what no batch announces (a purge deletes rows directly).
- Withheld evidence: the evidence event ids of deleted, superseded and quarantined notes and of the
  claims that lost to a verified note (active open questions), kept current by the same reads, so
  the raw-turn layer never brings such a note back as its own raw turns. Event ids are unique per
  agent only, so they are kept per agent (a note's source agents and owner; a note naming none
  withholds its ids for every agent).
- Full text: one BM25 index (``bm25s``) over the cached statements, rebuilt in the background at most
  every ``retrieval.lexical_refresh_seconds`` when statements were added or changed (retired notes
  are dropped from its answers at once; a note added since the last build is found by meaning only
  until the next one).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

import bm25s
import numpy as np
import pyarrow as pa

from reverie.citations import ANY_AGENT
from reverie.records import VISIBLE_BATCH_STATUSES
from reverie.settings import RetrievalSettings
from reverie.store import BatchFilter, NoteFilter, Store
from reverie.store.rows import note_agents, rows
from reverie.store.scopes import names_own_project
from serve.retrieval.ranking import COMPILED_FROM, bm25_index, bm25_scores, scope_weight, top, warm_scorer
from serve.retrieval.scopeblock import BlockKey, Cached, ScopeBlock, single_threaded

log = logging.getLogger(__name__)
WINDOW = timedelta(minutes=10)
_COMPACT_AT = 1024
RETIRED = ("deleted", "superseded", "quarantined")


def block_key(scope: str, project: str | None) -> BlockKey:
    return (scope, project if scope.startswith("personal:") else None)


@dataclass(frozen=True)
class Lexical:
    """A BM25 index over a snapshot of cached notes; ``ids[i]`` is document ``i``."""

    retriever: bm25s.BM25
    ids: list[str]
    keys: np.ndarray  # block-key code of each document

    @classmethod
    def build(cls, ids: list[str], texts: list[str], keys: np.ndarray) -> Lexical | None:
        if not ids:
            return None
        return cls(bm25_index(texts), ids, keys)

    def search(self, query: str, allowed: np.ndarray, depth: int) -> list[str]:
        scores = bm25_scores(self.retriever, query)
        if scores is None:
            return []
        hit = np.flatnonzero(scores > 0)
        return [self.ids[i] for i in top(scores, depth, hit[allowed[self.keys[hit]]])]


class NoteIndex:
    def __init__(self, store: Store, settings: RetrievalSettings) -> None:
        self._store = store
        self._settings = settings
        self._dim = store.tables.spec.dim
        self.blocks: dict[BlockKey, ScopeBlock] = {}
        self._where: dict[str, tuple[ScopeBlock, int]] = {}
        self.codes: dict[BlockKey, int] = {}
        self.lexical: Lexical | None = None
        self._lexical_dirty = False
        self._lexical_building = False
        self._applied: dict[str, datetime] = {}
        # of retired notes and losing claims: note id -> (its agents, its evidence), and per agent
        # (ANY_AGENT where a note names none) event id -> how many of them cite it (ids are unique per agent only)
        self._retired: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}
        self._retired_events: dict[str, dict[str, int]] = {}
        self._watermark: datetime | None = None
        self._batches_version: int | None = None
        self._loaded = False  # set under the writer lock when the first load has read the notes
        self._write = threading.Lock()
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reverie-index", initializer=single_threaded)
        self.ready = threading.Event()
        single_threaded()  # and each request thread, in Recaller.recall

    # --- reading -----------------------------------------------------------------------------
    def lookup(self, note_id: str) -> tuple[ScopeBlock, int] | None:
        return self._where.get(note_id)

    def __len__(self) -> int:
        return len(self._where)

    def withheld_events(self, agent_id: str) -> list[str]:
        """Events of ``agent_id`` whose raw turns stay out: the evidence of its retired notes and losing
        claims (a note's agents are its source agents and owner; one naming none withholds for all)."""
        return [*self._retired_events.get(agent_id, ()), *self._retired_events.get(ANY_AGENT, ())]

    # --- loading and refreshing ----------------------------------------------------------------
    def load(self) -> None:
        """Read every visible active note (after the batch window, so no commit falls between)."""
        with self._write:
            self._batches_version = self._store.tables["batches"].version
            self._remember(self._committed_since(None))
            frame = self._store.notes.frame(NoteFilter(statuses=["active"]))
            self._apply(frame, replace_all=True)
            retired = self._store.notes.frame(NoteFilter(statuses=RETIRED), columns=_TRACKED[1:])
            for row in rows(retired):
                self._track(row["note_id"], row)
            self._loaded = True
        self.refresh()  # what was committed while the notes were read (a route's refresh saw nothing loaded)
        if len(self) >= COMPILED_FROM:
            warm_scorer()
        self._rebuild_lexical()
        self.ready.set()

    def refresh(self) -> int:
        """Apply the batches committed since the last look; returns how many notes were re-read.

        The version is read first and compared under the writer lock, so a caller that committed a
        batch before calling returns only once the cache holds it, even while another thread is
        refreshing. Before the first load has read the notes there is nothing to refresh (it returns
        at once); the load catches up on what was committed while it read."""
        if not self._loaded:
            return 0
        version = self._store.tables["batches"].version
        with self._write:
            if self._batches_version is not None and version <= self._batches_version:
                return 0
            self._batches_version = version
            fresh = [b for b in self._committed_since(self._watermark) if b["batch_id"] not in self._applied]
            ids = sorted({i for b in fresh for i in (b["note_ids"] or [])})
            if ids:
                self._apply(self._store.notes.frame(NoteFilter(note_ids=ids)), touched=ids)
            self._remember(fresh)
        return len(ids)

    def reconcile(self) -> int:
        """Compare every visible active note's version with the cache; returns the notes fixed."""
        current = self._store.notes.frame(NoteFilter(statuses=["active"]), columns=["note_id", "version"])
        versions = dict(zip(current["note_id"].to_pylist(), current["version"].to_pylist(), strict=True))
        with self._write:
            stale = [i for i, (block, slot) in self._where.items()
                     if versions.get(i) != block.entries[slot].version]
            missing = [i for i in versions if i not in self._where]
            ids = sorted({*stale, *missing})
            if ids:
                self._apply(self._store.notes.frame(NoteFilter(note_ids=ids)), touched=ids)
        return len(ids)

    def forget(self, note_ids: Iterable[str]) -> None:
        with self._write:
            for note_id in note_ids:
                self._drop(note_id)
                self._track(note_id, None)

    def _committed_since(self, watermark: datetime | None) -> list[dict]:
        since = (min(watermark, self._store.now()) if watermark else self._store.now()) - WINDOW
        where = BatchFilter(statuses=VISIBLE_BATCH_STATUSES, committed_since=since)
        return rows(self._store.batches.frame(where, ["batch_id", "note_ids", "committed_at"]))

    def _remember(self, batches: Iterable[dict]) -> None:
        for batch in batches:
            self._applied[batch["batch_id"]] = batch["committed_at"]
            if self._watermark is None or batch["committed_at"] > self._watermark:
                self._watermark = batch["committed_at"]
        if self._watermark is not None:
            floor = self._watermark - 2 * WINDOW
            self._applied = {k: v for k, v in self._applied.items() if v >= floor}

    # --- changing the cache (under the writer lock) --------------------------------------------
    def _apply(self, frame: pa.Table, *, touched: Sequence[str] = (), replace_all: bool = False) -> None:
        seen: set[str] = set()
        vectors = frame["vector"].combine_chunks().flatten().to_numpy(zero_copy_only=False).reshape(-1, self._dim) \
            if frame.num_rows else np.zeros((0, self._dim), np.float32)
        chunk = frame.drop_columns(["vector"])
        for i, row in enumerate(rows(chunk.select(_LIGHT))):
            seen.add(row["note_id"])
            self._put(row, np.asarray(vectors[i], dtype=np.float32), chunk, i)
        for row in rows(chunk.select(_TRACKED)):
            self._track(row["note_id"], row)
        gone = set(self._where) if replace_all else set(touched)
        for note_id in gone - seen:
            self._drop(note_id)
        for note_id in set(touched) - seen:
            self._track(note_id, None)
        self._compact()
        self._schedule_indexes()

    def _put(self, row: dict, vector: np.ndarray, chunk: pa.Table, i: int) -> None:
        note_id = row["note_id"]
        old = self._where.get(note_id)
        if old is not None and old[0].entries[old[1]].version == row["version"]:
            return
        retrievable = row["status"] == "active" and not row["tombstone"] and _consistent(row)
        if old is not None:
            self._drop(note_id)
        if not retrievable:
            return
        block = self._block(block_key(row["scope"], row["project"]))
        cached = Cached(note_id, row["version"], row["statement"], chunk, i)
        self._where[note_id] = (block, block.append(cached, vector, row))
        if old is None or old[0].entries[old[1]].statement != row["statement"]:
            self._lexical_dirty = True

    def _track(self, note_id: str, row: dict | None) -> None:
        """Count the evidence of ``note_id`` as withheld or not, as its current ``row`` says (None: gone),
        per agent. The new counts go in before the old come out, so a request reading meanwhile never
        misses an event that stays withheld."""
        old = self._retired.pop(note_id, None)
        if row is not None and not row.get("tombstone") and _withholds(row):
            self._retired[note_id] = (note_agents(row), tuple(row["evidence"] or ()))
            self._count(*self._retired[note_id], +1)
        if old is not None:
            self._count(*old, -1)

    def _count(self, agents: frozenset[str], evidence: tuple[str, ...], step: int) -> None:
        for agent in agents or (ANY_AGENT,):
            counts = self._retired_events.setdefault(agent, {})
            for event_id in evidence:
                left = counts.get(event_id, 0) + step
                if left > 0:
                    counts[event_id] = left
                else:
                    counts.pop(event_id, None)

    def _drop(self, note_id: str) -> None:
        found = self._where.pop(note_id, None)
        if found is not None:
            found[0].retire(found[1])

    def _block(self, key: BlockKey) -> ScopeBlock:
        if key not in self.blocks:
            self.blocks[key] = ScopeBlock(key, scope_weight(self._settings, key[0]), self._dim)
            self.codes.setdefault(key, len(self.codes))
        return self.blocks[key]

    def _compact(self) -> None:
        """Rebuild blocks that are mostly retired rows (readers keep the old block they hold)."""
        for key, block in list(self.blocks.items()):
            if block.dead < max(_COMPACT_AT, block.live_count):
                continue
            fresh = ScopeBlock(key, block.weight, self._dim)
            a = block.arrays
            for slot in np.flatnonzero(a.live[: a.n]):
                cached = block.entries[int(slot)]
                new_slot = fresh.append(cached, a.vectors[slot], cached.as_row())
                self._where[cached.note_id] = (fresh, new_slot)
            self.blocks[key] = fresh

    # --- background builds ---------------------------------------------------------------------
    def _schedule_indexes(self) -> None:
        for block in self.blocks.values():
            if block.wants_index(self._settings):
                block.building = True
                self._builder.submit(self._build_index, block)

    def _build_index(self, block: ScopeBlock) -> None:
        try:
            block.build_index()
        except Exception as exc:  # noqa: BLE001 - exact search goes on; the next change retries
            log.warning("approximate index of %s not built (%s); searching it exactly", block.key, type(exc).__name__)
        finally:
            block.building = False

    def lexical_due(self) -> bool:
        return self._lexical_dirty and not self._lexical_building

    def rebuild_lexical_soon(self) -> None:
        self._lexical_building = True
        self._builder.submit(self._rebuild_lexical)

    def _rebuild_lexical(self) -> None:
        try:
            with self._write:
                self._lexical_dirty = False
                snapshot = [(i, b.entries[s].statement, self.codes[b.key]) for i, (b, s) in self._where.items()]
            ids = [s[0] for s in snapshot]
            self.lexical = Lexical.build(ids, [s[1] for s in snapshot], np.array([s[2] for s in snapshot], dtype=np.int64))
        finally:
            self._lexical_building = False

    def close(self) -> None:
        self._builder.shutdown(wait=False, cancel_futures=True)


def _withholds(row: dict) -> bool:
    """Whether a note's evidence stays out of the raw-turn layer: it is retired, or a losing claim."""
    return row["status"] in RETIRED or (row["status"] == "active" and row.get("type") == "open_question")


def _consistent(row: dict) -> bool:
    """A shared note's scope names its own project (``sees_note`` refuses others to everyone but admins)."""
    return names_own_project(row["scope"], row["project"])


_TRACKED = ["note_id", "status", "type", "evidence", "tombstone", "owner_agent", "source_agents"]
_LIGHT = ["note_id", "version", "status", "tombstone", "scope", "project", "statement", "confidence",
          "hit_count", "last_verified_at", "last_seen_at", "created_at", "expires_at"]
