"""Reading notes: current views only, filtered, paged, searched by vector, with their history."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from reverie.errors import NotFoundError
from reverie.records import AuditEntry, Note
from reverie.store.rows import note_from_row, note_from_snapshot, rows
from reverie.store.tables import Tables, sql_in, sql_str
from reverie.store.visibility import visible


@dataclass(frozen=True)
class NoteFilter:
    """Conditions on current note views; ``None`` means any."""

    project: str | None = None
    module: str | None = None
    scopes: Sequence[str] | None = None
    statuses: Sequence[str] | None = None
    types: Sequence[str] | None = None
    owner: str | None = None
    note_ids: Sequence[str] | None = None
    extra: list[str] = field(default_factory=list)

    def where(self) -> str:
        clauses = ["tombstone = false", *self.extra]
        for column, value in (("project", self.project), ("module", self.module), ("owner_agent", self.owner)):
            if value is not None:
                clauses.append(f"{column} = {sql_str(value)}")
        for column, values in (
            ("scope", self.scopes), ("status", self.statuses), ("type", self.types), ("note_id", self.note_ids),
        ):
            if values is not None:
                clauses.append(sql_in(column, values))
        return " AND ".join(clauses)


@dataclass(frozen=True)
class NotePage:
    notes: list[Note]
    next_cursor: str | None


@dataclass(frozen=True)
class NoteHistory:
    versions: list[Note]
    audit: list[AuditEntry]


class NoteReader:
    def __init__(self, tables: Tables) -> None:
        self._t = tables

    def frame(self, where: NoteFilter | None = None, columns: list[str] | None = None) -> pa.Table:
        """Current views matching ``where`` as an Arrow table (the fast path for caches and mining)."""
        needed = None if columns is None else sorted({*columns, "note_id", "version", "batch_id"})
        found = self._t.read("notes", (where or NoteFilter()).where(), needed)
        return visible(self._t, found)

    def get(self, note_id: str) -> Note:
        found = self.get_many([note_id])
        if note_id not in found:
            raise NotFoundError(f"no note {note_id!r}; list notes to find its id")
        return found[note_id]

    def get_many(self, note_ids: Iterable[str], *, with_vector: bool = False) -> dict[str, Note]:
        ids = list(note_ids)
        if not ids:
            return {}
        table = self.frame(NoteFilter(note_ids=ids))
        return {r["note_id"]: note_from_row(r, with_vector=with_vector) for r in rows(table)}

    def list(self, where: NoteFilter, *, limit: int = 100, cursor: str | None = None) -> NotePage:
        """One page ordered by note id; ``cursor`` is the last id of the previous page."""
        extra = [f"note_id > {sql_str(cursor)}"] if cursor else []
        scoped = NoteFilter(**{**where.__dict__, "extra": [*where.extra, *extra]})
        table = self.frame(scoped).sort_by("note_id")
        page = [note_from_row(r) for r in rows(table.slice(0, limit))]
        more = table.num_rows > limit
        return NotePage(page, page[-1].note_id if more and page else None)

    def search(self, vector: np.ndarray, k: int, where: NoteFilter | None = None) -> list[tuple[Note, float]]:
        """The ``k`` nearest current views by cosine similarity, filtered before the search."""
        if k <= 0:
            return []
        clause = (where or NoteFilter()).where()
        limit = k + 16
        while True:
            raw = (
                self._t["notes"].search(np.asarray(vector, dtype=np.float32))
                .distance_type("cosine").where(clause, prefilter=True).limit(limit).to_arrow()
            )
            kept = visible(self._t, raw)
            if kept.num_rows >= k or raw.num_rows < limit:
                break
            limit *= 4
        hits = sorted(rows(kept), key=lambda r: r["_distance"])[:k]
        return [(note_from_row(r), 1.0 - float(r["_distance"])) for r in hits]

    def history(self, note_id: str) -> NoteHistory:
        """Every earlier view, oldest first, then the current one, and the audit trail of the note."""
        current = self.get_many([note_id])
        table = self._t.read("note_versions", f"note_id = {sql_str(note_id)}")
        versions = {r["version"]: note_from_snapshot(r["snapshot"]) for r in rows(table)}
        if note_id in current:
            versions[current[note_id].version] = current[note_id]
        if not versions:
            raise NotFoundError(f"no note {note_id!r}; list notes to find its id")
        audit = [AuditEntry.model_validate(r) for r in rows(self._t.read("audit", f"note_id = {sql_str(note_id)}"))]
        return NoteHistory([versions[v] for v in sorted(versions)], sorted(audit, key=lambda a: (a.ts, a.audit_id)))

    def latest_rows(self, note_ids: Iterable[str]) -> dict[str, dict]:
        """The newest visible row of each note, tombstones included (the writer's base versions)."""
        ids = list(note_ids)
        if not ids:
            return {}
        table = visible(self._t, self._t.read("notes", sql_in("note_id", ids)))
        return {r["note_id"]: r for r in rows(table)}
