"""Writing notes: every change is a batch whose committed row is the commit marker.

Protocol: (1) insert the batch row as ``running``; (2) append earlier views to ``note_versions``,
new views to ``notes`` and rows to ``audit``, all tagged with the batch id and invisible to readers;
(3) under the store's commit lease lock, check that no other batch changed the same notes meanwhile
and (4) flip the batch row to ``committed`` (one conditional commit: the marker); (5) finalize: delete
the replaced views, mark consumed sessions, stamp ``finalized_at``. A crash before (4) leaves invisible rows that :meth:`settle`
deletes; a crash after (4) leaves a visible batch that :meth:`settle` finalizes.
"""

from __future__ import annotations

import builtins
import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
import pyarrow as pa

from reverie.clock import Clock
from reverie.errors import BatchConflictError, CommitError, ConflictError, NotFoundError, ValidationError
from reverie.records import AuditAction, AuditEntry, Batch, BatchKind, Note
from reverie.store.events import EventLog
from reverie.store.ids import ordered_id
from reverie.store.locks import LeaseLock
from reverie.store.notes import NoteReader
from reverie.store.rows import batch_from_row, batch_row, note_from_row, note_from_snapshot, note_row, rows, version_row
from reverie.store.tables import Tables, sql_in, sql_str
from reverie.store.where import Clause, all_of, among, equal, not_before

_DERIVED_TABLES = ("notes", "note_versions", "audit", "graph_nodes", "graph_edges", "review_items")


@dataclass(frozen=True)
class NoteWrite:
    """One new view of a note. ``vector=None`` keeps the current vector; ``tombstone`` hides the note.

    ``base_version`` is the version the new view was computed from (optimistic concurrency): the
    commit is refused with BatchConflictError if the note is at another version by then, so a writer
    that read a note, worked on it, then wrote never overwrites a change made meanwhile. ``None``
    means "whatever is current when staged" (the check then covers staging to commit only).
    """

    note: Note
    action: AuditAction
    reason: str = ""
    vector: np.ndarray | None = None
    tombstone: bool = False
    base_version: int | None = None


@dataclass(frozen=True)
class BatchFilter:
    """Conditions on batches, all of which hold; ``None`` means any. ``committed_since``: committed
    at or after it."""

    project: str | None = None
    agent_ids: Iterable[str] | None = None
    kinds: Iterable[str] | None = None
    statuses: Iterable[str] | None = None
    committed_since: datetime | None = None

    def where(self) -> Clause:
        return all_of(
            equal("project", self.project), among("agent_id", self.agent_ids), among("kind", self.kinds),
            among("status", self.statuses), not_before("committed_at", self.committed_since),
        )


def new_batch_id(kind: str) -> str:
    return ordered_id(f"b-{kind}")


class BatchWriter:
    def __init__(self, tables: Tables, notes: NoteReader, events: EventLog, clock: Clock) -> None:
        self._t = tables
        self._notes = notes
        self._events = events
        self._clock = clock
        self._lock = LeaseLock(tables)

    # --- the protocol -------------------------------------------------------------------------
    def begin(
        self, kind: BatchKind, *, agent_id: str | None = None, project: str | None = None,
        principal: str = "system", session_ids: Sequence[str] = (), batch_id: str | None = None,
        rolls_back: str | None = None, stats: dict[str, Any] | None = None,
    ) -> Batch:
        now = self._clock.now()
        batch_id = batch_id or new_batch_id(kind)
        self._reuse(batch_id)
        batch = Batch(
            batch_id=batch_id, kind=kind, status="running", agent_id=agent_id, project=project,
            principal=principal, created_at=now, updated_at=now, session_ids=list(session_ids),
            rolls_back=rolls_back, stats=stats or {},
        )
        self._upsert_batches([batch])
        return batch

    def _reuse(self, batch_id: str) -> None:
        old = self.find(batch_id)
        if old is None:
            return
        if old.status in ("committed", "rolled_back"):
            raise ConflictError(f"batch {batch_id!r} is already {old.status}; it cannot run again")
        self._delete_rows(batch_id)

    def stage(self, batch: Batch, writes: Sequence[NoteWrite]) -> Batch:
        """Append the batch's rows (invisible until commit); returns the batch with its note ids."""
        ids = [w.note.note_id for w in writes]
        if len(set(ids)) != len(ids):
            raise ValidationError("a batch may change each note once; merge the changes first", field="note_id")
        base = self._notes.latest_rows(ids)
        now = self._clock.now()
        note_rows, version_rows, audit_rows = [], [], []
        for write in writes:
            old = base.get(write.note.note_id)
            view, vector = self._next_view(write, old, batch.batch_id)
            note_rows.append(note_row(view, vector, tombstone=write.tombstone))
            if old is not None and not old["tombstone"]:
                version_rows.append(version_row(note_from_row(old), old["vector"], batch.batch_id, write.action))
            audit_rows.append(self._audit_row(batch, write, now))
        self._append("note_versions", version_rows)
        self._append("notes", note_rows)
        self._append("audit", audit_rows)
        bases = {w.note.note_id: (w.base_version if w.base_version is not None else
                                  base[w.note.note_id]["version"] if w.note.note_id in base else 0) for w in writes}
        staged = batch.model_copy(update={"note_ids": ids, "stats": {**batch.stats, "_base": bases}})
        self._update_running(staged.model_copy(update={"updated_at": now}))
        return staged

    def _update_running(self, batch: Batch) -> None:
        """Update a running batch's row; an abort (e.g. by settle) meanwhile wins and this raises."""
        data = pa.Table.from_pylist([batch_row(batch)], schema=self._t.schemas["batches"])
        result = self._t.write("batches", lambda t: t.merge_insert("batch_id").when_matched_update_all(
            where="target.status = 'running'").execute(data))
        if result.num_updated_rows != 1:
            self._delete_rows(batch.batch_id)
            raise CommitError(
                f"batch {batch.batch_id!r} was aborted while it was being staged (its owner was presumed "
                "dead); nothing of it is visible; run it again"
            )

    def _next_view(self, write: NoteWrite, old: dict[str, Any] | None, batch_id: str) -> tuple[Note, Any]:
        vector = write.vector if write.vector is not None else (old or {}).get("vector")
        if vector is None:
            raise ValidationError(
                f"note {write.note.note_id!r} is new and has no vector; embed its statement first",
                field="vector",
            )
        version = (old["version"] if old else 0) + 1
        return write.note.model_copy(update={"version": version, "batch_id": batch_id, "vector": None}), vector

    def _audit_row(self, batch: Batch, write: NoteWrite, now: datetime) -> dict[str, Any]:
        return AuditEntry(
            audit_id=ordered_id("a"), ts=now, principal=batch.principal,
            action=write.action, note_id=write.note.note_id, batch_id=batch.batch_id,
            reason=write.reason,
        ).model_dump()

    def commit(self, batch: Batch, stats: dict[str, Any] | None = None) -> Batch:
        """Flip the marker after checking that no other batch changed the same notes meanwhile."""
        with self._lock.held(batch.batch_id):
            self._check_bases(batch)
            done = self._flip_marker(batch, stats)
        self.finalize(done)
        return self.get(batch.batch_id)

    def _flip_marker(self, batch: Batch, stats: dict[str, Any] | None) -> Batch:
        now = self._clock.now()
        merged = {k: v for k, v in {**batch.stats, **(stats or {})}.items() if k != "_base"}
        done = batch.model_copy(update={"status": "committed", "committed_at": now, "updated_at": now, "stats": merged})
        flips = [done]
        if batch.rolls_back:
            target = self.get(batch.rolls_back)
            flips.append(target.model_copy(update={"status": "rolled_back", "rolled_back_by": batch.batch_id, "updated_at": now}))
        self._flip(flips)
        return done

    def _check_bases(self, batch: Batch) -> None:
        bases: dict[str, int] = batch.stats.get("_base", {})
        latest = self._notes.latest_rows(bases)
        for note_id, version in bases.items():
            now_version = latest[note_id]["version"] if note_id in latest else 0
            if now_version != version:
                self.abort(batch.batch_id)
                raise BatchConflictError(
                    f"note {note_id!r} was changed by batch {latest[note_id]['batch_id']!r} while "
                    f"batch {batch.batch_id!r} ran; nothing was written, run it again"
                )

    def _flip(self, batches: list[Batch]) -> None:
        ids = [b.batch_id for b in batches]
        guard = "target.status = 'running'"
        if len(batches) > 1:
            guard = f"(target.status = 'running' OR (target.status = 'committed' AND target.batch_id = {sql_str(ids[1])}))"
        data = pa.Table.from_pylist([batch_row(b) for b in batches], schema=self._t.schemas["batches"])
        self._t.write("batches", lambda t: t.merge_insert("batch_id").when_matched_update_all(where=guard).execute(data))
        states = {b.batch_id: b.status for b in self._read_batches(sql_in("batch_id", ids))}
        if any(states.get(b.batch_id) != b.status for b in batches):
            raise CommitError(
                f"batch {ids[0]!r} could not be committed (it was aborted or changed meanwhile); "
                "nothing of it is visible; run it again"
            )

    def finalize(self, batch: Batch) -> None:
        """Delete the views a committed batch replaced and stamp it finalized (idempotent)."""
        bases: dict[str, int] = {}
        for row in rows(self._t.read("notes", f"batch_id = {sql_str(batch.batch_id)}", ["note_id", "version"])):
            bases[row["note_id"]] = row["version"]
        for version in sorted(set(bases.values())):
            ids = [n for n, v in bases.items() if v == version]
            self._t.delete("notes", f"{sql_in('note_id', ids)} AND version < {version}")
        self._finalize_sessions(batch)
        now = self._clock.now()
        self._t.write("batches", lambda t: t.update(
            where=f"batch_id = {sql_str(batch.batch_id)}", values={"finalized_at": now}
        ))

    def _finalize_sessions(self, batch: Batch) -> None:
        if batch.kind == "local" and batch.session_ids:
            self._events.mark_consolidated(batch.session_ids, batch.batch_id)
        if batch.kind == "rollback" and batch.stats.get("reprocess") and batch.rolls_back:
            target = self.get(batch.rolls_back)
            self._events.mark_consolidated(target.session_ids, None)

    def abort(self, batch_id: str) -> None:
        """Mark a running batch failed and delete its invisible rows; a committed batch is left alone."""
        data = pa.Table.from_pylist(
            [{"batch_id": batch_id, "status": "failed", "updated_at": self._clock.now()}],
            schema=pa.schema([self._t.schemas["batches"].field(n) for n in ("batch_id", "status", "updated_at")]),
        )
        guard = "target.status IN ('running', 'queued', 'yielded')"
        self._t.write("batches", lambda t: t.merge_insert("batch_id").when_matched_update_all(where=guard).execute(data))
        found = self.find(batch_id)
        if found is not None and found.status == "failed":
            self._delete_rows(batch_id)
            self._t.write("batches", lambda t: t.update(
                where=f"batch_id = {sql_str(batch_id)}", values={"finalized_at": self._clock.now()}
            ))

    def _delete_rows(self, batch_id: str) -> None:
        for name in _DERIVED_TABLES:
            self._t.write(name, lambda t: t.delete(f"batch_id = {sql_str(batch_id)}"))

    def settle(self, *, owner_agent: str | None = None) -> int:
        """Finalize committed batches left unfinalized and abort abandoned ones; returns how many."""
        limit = self._clock.now() - self._t.settings.abandoned_batch_after
        count = 0
        for batch in self._read_batches("finalized_at IS NULL"):
            if batch.status in ("committed", "rolled_back"):
                self.finalize(batch)
            elif batch.updated_at < limit or (
                owner_agent is not None and batch.agent_id == owner_agent and batch.kind == "local"
            ):
                self.abort(batch.batch_id)
            else:
                continue
            count += 1
        return count

    # --- reading batches -----------------------------------------------------------------------
    def find(self, batch_id: str) -> Batch | None:
        found = self._read_batches(f"batch_id = {sql_str(batch_id)}")
        return found[0] if found else None

    def get(self, batch_id: str) -> Batch:
        found = self.find(batch_id)
        if found is None:
            raise NotFoundError(f"no batch {batch_id!r}; list batches to find its id")
        return found

    def list(
        self, *, project: str | None = None, agent_id: str | None = None,
        kinds: Iterable[str] | None = None, statuses: Iterable[str] | None = None,
    ) -> list[Batch]:
        where = BatchFilter(
            project=project, agent_ids=None if agent_id is None else [agent_id], kinds=kinds, statuses=statuses,
        )
        found = self._read_batches(where.where())
        return sorted(found, key=lambda b: (b.created_at, b.batch_id))

    def frame(self, where: BatchFilter, columns: builtins.list[str] | None = None) -> pa.Table:
        """The rows of the batches matching ``where``, as stored (the fast path for status polls)."""
        return self._t.read("batches", where.where(), columns)

    def _read_batches(self, where: str | None) -> builtins.list[Batch]:
        return [batch_from_row(r) for r in rows(self._t.read("batches", where))]

    def _upsert_batches(self, batches: Sequence[Batch]) -> None:
        data = pa.Table.from_pylist([batch_row(b) for b in batches], schema=self._t.schemas["batches"])
        self._t.write(
            "batches",
            lambda t: t.merge_insert("batch_id").when_matched_update_all().when_not_matched_insert_all().execute(data),
        )

    def _append(self, name: str, data: builtins.list[dict[str, Any]]) -> None:
        if data:
            table = pa.Table.from_pylist(data, schema=self._t.schemas[name])
            self._t.write(name, lambda t: t.add(table))

    # --- whole operations -----------------------------------------------------------------------
    def run(
        self, kind: BatchKind, writes: Sequence[NoteWrite], *,
        also: Callable[[Batch], None] | None = None, **begin: Any,
    ) -> Batch:
        """Begin, stage, commit; on any failure the batch is aborted and nothing becomes visible.

        ``also(batch)`` stages further rows under the same batch before it commits (graph and
        review rows, through a :class:`~reverie.store.ledger.Ledger`), so they appear with the notes.
        """
        stats = begin.pop("stats", None)
        batch = self.begin(kind, **begin)
        try:
            staged = self.stage(batch, writes)
            if also is not None:
                also(staged)
            return self.commit(staged, stats)
        except BaseException:
            self._abort_quietly(batch.batch_id)
            raise

    def _abort_quietly(self, batch_id: str) -> None:
        with contextlib.suppress(Exception):  # settle() cleans it later; the original error matters
            self.abort(batch_id)

    def rollback(self, batch_id: str, *, principal: str = "system", reprocess: bool = False) -> Batch:
        """Undo a committed batch exactly, as a compensating batch built from ``note_versions``."""
        target = self.get(batch_id)
        if target.status != "committed" or target.kind == "rollback":
            raise ConflictError(
                f"batch {batch_id!r} is {target.status} ({target.kind}); "
                "only a committed, non-rollback batch can be rolled back"
            )
        writes = self._undo_writes(target)
        return self.run(
            "rollback", writes, agent_id=target.agent_id, project=target.project,
            principal=principal, rolls_back=batch_id, stats={"reprocess": reprocess, "notes": len(writes)},
        )

    def _views(self, note_id: str) -> builtins.list[Note]:
        return [note_from_snapshot(r["snapshot"]) for r in rows(self._t.read("note_versions", f"note_id = {sql_str(note_id)}"))]

    def _restored(self, note_id: str, row: dict[str, Any], batch_id: str) -> bool:
        """True when later batches were rolled back so that the note shows ``batch_id``'s view again."""
        written = [v for v in self._views(note_id) if v.batch_id == batch_id]
        return bool(written) and _content(written[0]) == _content(note_from_row(row))

    def _only_counters_since(self, note_id: str, row: dict[str, Any], batch_id: str) -> bool:
        """True when every change after ``batch_id``'s view of the note was retrieval feedback (hit
        counts, feedback confidence): counters are not content, so they never block a rollback."""
        views = self._views(note_id)
        written = [v.version for v in views if v.batch_id == batch_id]
        if not written:
            return False
        later = {v.batch_id for v in views if v.version > written[0] and v.batch_id} | {row["batch_id"]}
        return all(self.get(b).kind == "feedback" for b in later)

    def _undo_writes(self, target: Batch) -> builtins.list[NoteWrite]:
        current = self._notes.latest_rows(target.note_ids)
        counters_only = set()
        for note_id, row in current.items():
            if row["batch_id"] == target.batch_id or self._restored(note_id, row, target.batch_id):
                continue
            if not self._only_counters_since(note_id, row, target.batch_id):
                raise BatchConflictError(
                    f"note {note_id!r} was changed by a later batch {row['batch_id']!r}; roll that "
                    f"batch back first, then {target.batch_id!r}"
                )
            counters_only.add(note_id)
        earlier = rows(self._t.read("note_versions", f"batch_id = {sql_str(target.batch_id)}"))
        previous = {r["note_id"]: r for r in earlier}
        writes = []
        for note_id in target.note_ids:
            if note_id in previous:
                view = note_from_snapshot(previous[note_id]["snapshot"])
                if note_id in counters_only:  # the hits survive; feedback on the undone view goes with it
                    view = view.model_copy(update={"hit_count": int(current[note_id]["hit_count"])})
                writes.append(NoteWrite(view, "rollback", target.batch_id, np.asarray(previous[note_id]["vector"])))
            elif note_id in current:
                writes.append(NoteWrite(note_from_row(current[note_id]), "rollback", target.batch_id, tombstone=True))
        return writes


def _content(note: Note) -> dict[str, Any]:
    return note.model_dump(exclude={"version", "batch_id", "vector"})
