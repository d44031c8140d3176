"""Reading notes: current views only, filtered, paged, searched by vector, with their history."""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np
import pyarrow as pa
from lancedb.query import LanceVectorQueryBuilder

from reverie.errors import NotFoundError
from reverie.records import AuditEntry, Note
from reverie.store.rows import note_from_row, note_from_snapshot, rows
from reverie.store.scopes import PERSONAL, ScopeAccess, ScopeKind, kind_where
from reverie.store.tables import Tables, sql_in, sql_str
from reverie.store.visibility import visible
from reverie.store.where import Clause, all_of, among, any_of, equal, greater, holds_any, is_null, not_among, starts


@dataclass(frozen=True)
class Filed:
    """Notes filed under ``namespace`` (``None``: under none), or also below it (``below``)."""

    namespace: str | None
    below: bool = False

    def where(self) -> Clause:
        if self.namespace is None:
            return is_null("namespace", True)
        exact = equal("namespace", self.namespace)
        return any_of(exact, starts("namespace", self.namespace + ".")) if self.below else exact


@dataclass(frozen=True)
class NoteFilter:
    """Conditions on current note views, all of which hold; ``None`` means any.

    ``agents``: owned by or drawn from one of them; ``evidence_any``: resting on one of these events;
    ``exclude_personal_types``: types left out of personal scopes only; ``after_id``: ids after it;
    ``visible_to``: what that reader sees (``reverie.store.scopes``).
    """

    project: str | None = None
    projects: Sequence[str] | None = None
    module: str | None = None
    scopes: Sequence[str] | None = None
    scope_kinds: Sequence[ScopeKind] | None = None
    exclude_scopes: Sequence[str] | None = None
    statuses: Sequence[str] | None = None
    exclude_statuses: Sequence[str] | None = None
    types: Sequence[str] | None = None
    exclude_types: Sequence[str] | None = None
    exclude_personal_types: Sequence[str] | None = None
    owner: str | None = None
    agents: Sequence[str] | None = None
    note_ids: Sequence[str] | None = None
    after_id: str | None = None
    evidence_any: Sequence[str] | None = None
    key: str | None = None
    filed: Filed | None = None
    visible_to: ScopeAccess | None = None

    def where(self) -> str:
        return all_of("tombstone = false", self._columns(), self._scopes(), self._lists()) or ""

    def _columns(self) -> Clause:
        return all_of(
            equal("project", self.project), among("project", self.projects), equal("module", self.module),
            among("status", self.statuses), not_among("status", self.exclude_statuses),
            among("type", self.types), not_among("type", self.exclude_types), equal("owner_agent", self.owner),
            among("note_id", self.note_ids), greater("note_id", self.after_id),
        )

    def _scopes(self) -> Clause:
        personal_types = None
        if self.exclude_personal_types:
            personal_types = f"NOT ({starts('scope', PERSONAL)} AND {among('type', self.exclude_personal_types)})"
        return all_of(
            among("scope", self.scopes), kind_where(self.scope_kinds), not_among("scope", self.exclude_scopes),
            personal_types, self.visible_to.where() if self.visible_to else None,
            self.filed.where() if self.filed else None,
        )

    def _lists(self) -> Clause:
        agents = any_of(among("owner_agent", self.agents), holds_any("source_agents", self.agents))
        keys = None if self.key is None else holds_any("keys", [self.key])
        return all_of(holds_any("evidence", self.evidence_any), agents, keys)


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
        scoped = replace(where, after_id=cursor) if cursor else where
        table = self.frame(scoped).sort_by("note_id")
        page = [note_from_row(r) for r in rows(table.slice(0, limit))]
        more = table.num_rows > limit
        return NotePage(page, page[-1].note_id if more and page else None)

    def search(self, vector: np.ndarray, k: int, where: NoteFilter | None = None) -> builtins.list[tuple[Note, float]]:
        """The ``k`` nearest current views by cosine similarity, filtered before the search."""
        if k <= 0:
            return []
        clause = (where or NoteFilter()).where()
        limit = k + 16
        while True:
            # a vector query builds a LanceVectorQueryBuilder; lancedb types Table.search with the base class
            query = cast(LanceVectorQueryBuilder, self._t["notes"].search(np.asarray(vector, dtype=np.float32)))
            raw = query.distance_type("cosine").where(clause, prefilter=True).limit(limit).to_arrow()
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

    def live_rows(self) -> pa.Table:
        """Every stored note row but tombstones, of any batch and version (rescans and migrations)."""
        return self._t.read("notes", "tombstone = false")

    def audit_actions(self, batch_ids: Sequence[str]) -> Sequence[str]:
        """The action of every audit row the batches ``batch_ids`` wrote."""
        actions: list[str] = self._t.read("audit", sql_in("batch_id", batch_ids), ["action"])["action"].to_pylist()
        return actions

    def latest_rows(self, note_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The newest visible row of each note, tombstones included (the writer's base versions)."""
        ids = list(note_ids)
        if not ids:
            return {}
        table = visible(self._t, self._t.read("notes", sql_in("note_id", ids)))
        return {r["note_id"]: r for r in rows(table)}
