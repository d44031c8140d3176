"""The LanceDB store: events, sessions, notes written only as batches, audit, graph tables.

``Store.open(settings, spec)`` opens or creates every table at ``settings.store.uri`` and refuses a
store built with another embedder. Parts: ``events`` (capture), ``vectors`` (one vector per
event, computed once), ``keys`` (each consolidated turn's contextual key), ``notes`` (reads), ``batches`` (the only
way notes change), ``maintenance`` (compaction, sizes, purge), the keyed rows written under batches: ``graph_nodes``,
``graph_edges`` (the team graph) and ``reviews`` (the review queue), and the rows replaced whole by key: ``keyed``
(mining runs, plans, fits, maps, names) and ``retrievals``.
Parts outside the store filter with typed filters (``NoteFilter``, ``EventFilter``, ``SessionFilter``,
``BatchFilter``, ``LedgerFilter``, ``RowFilter``, ``ScopeAccess``); SQL text is made only in here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np

from reverie.clock import Clock, SystemClock
from reverie.embed import EmbedderSpec
from reverie.errors import BatchConflictError, ConflictError
from reverie.ports import AgentSummary
from reverie.records import Batch, Note
from reverie.settings import StoreSettings
from reverie.store.batches import BatchFilter, BatchWriter, NoteWrite, new_batch_id
from reverie.store.events import AppendResult, EventFilter, EventLog, SessionFilter
from reverie.store.ids import ordered_id
from reverie.store.keyed import KEYED_TABLES, KeyedRows, RetrievalRows, RowFilter
from reverie.store.keytable import KeyTable
from reverie.store.ledger import Ledger, LedgerFilter, graph_node_id
from reverie.store.maintenance import Maintenance, PurgeResult, TableStats
from reverie.store.notes import Filed, NoteFilter, NoteHistory, NotePage, NoteReader
from reverie.store.scopes import ScopeAccess
from reverie.store.tables import Tables
from reverie.store.vectors import EventVectors

_EDIT_ATTEMPTS = 5

__all__ = [
    "AgentSummary", "AppendResult", "BatchFilter", "EventFilter", "Filed", "KeyedRows", "Ledger", "LedgerFilter",
    "NoteFilter", "NoteHistory", "NotePage", "NoteWrite", "PurgeResult", "RowFilter", "ScopeAccess",
    "SessionFilter", "Store", "TableStats", "graph_node_id", "new_batch_id", "ordered_id",
]


class Store:
    def __init__(self, settings: StoreSettings, spec: EmbedderSpec, clock: Clock | None = None) -> None:
        self.clock = clock or SystemClock()
        self.tables = Tables(settings, spec)
        self.events = EventLog(self.tables)
        self.notes = NoteReader(self.tables)
        self.vectors = EventVectors(self.tables)
        self.keys = KeyTable(self.tables)
        self.batches = BatchWriter(self.tables, self.notes, self.events, self.clock)
        self.maintenance = Maintenance(self.tables, self.batches, self.keys, self.clock)
        self.graph_nodes = Ledger(self.tables, "graph_nodes", ("project", "node_id"))
        self.graph_edges = Ledger(self.tables, "graph_edges", ("project", "edge_id"))
        self.reviews = Ledger(self.tables, "review_items", ("item_id",))
        self.keyed = {name: KeyedRows(self.tables, name, key) for name, key in KEYED_TABLES.items()}
        self.retrievals = RetrievalRows(self.tables)

    @classmethod
    def open(cls, settings: StoreSettings, spec: EmbedderSpec, clock: Clock | None = None) -> Store:
        """Open (or create) the store and settle batches that a crash left half-done."""
        store = cls(settings, spec, clock)
        store.batches.settle()
        return store

    @property
    def uri(self) -> str:
        return self.tables.settings.uri

    # --- governance edits, each its own audited batch -----------------------------------------
    # Each reads the note, builds the new view and writes it based on the version it read; a batch
    # that changed the note meanwhile (a consolidation, retrieval feedback) makes it read again, so
    # neither side's change is lost.
    def edit_note(
        self, note_id: str, changes: dict[str, Any], *, principal: str, vector: np.ndarray | None = None,
        reason: str = "edited",
    ) -> Batch:
        def view(note: Note) -> NoteWrite:
            new = Note.model_validate({**note.model_dump(), **changes, "updated_at": self.clock.now()})
            return NoteWrite(new, "edit", reason, vector)
        return self._one(note_id, view, principal)

    def delete_note(self, note_id: str, *, principal: str, reason: str = "deleted") -> Batch:
        def view(note: Note) -> NoteWrite:
            if note.status == "deleted":
                raise ConflictError(f"note {note_id!r} is already deleted; restore it instead")
            return NoteWrite(note.model_copy(update={"status": "deleted", "updated_at": self.clock.now()}), "delete", reason)
        return self._one(note_id, view, principal)

    def restore_note(self, note_id: str, *, principal: str, reason: str = "restored") -> Batch:
        def view(note: Note) -> NoteWrite:
            if note.status != "deleted":
                raise ConflictError(f"note {note_id!r} is {note.status}, not deleted; nothing to restore")
            earlier = [v for v in self.notes.history(note_id).versions if v.status != "deleted"]
            status = earlier[-1].status if earlier else "active"
            return NoteWrite(note.model_copy(update={"status": status, "updated_at": self.clock.now()}), "restore", reason)
        return self._one(note_id, view, principal)

    def _one(self, note_id: str, view: Callable[[Note], NoteWrite], principal: str) -> Batch:
        for attempt in range(_EDIT_ATTEMPTS):
            note = self.notes.get(note_id)
            write = replace(view(note), base_version=note.version)
            try:
                return self.batches.run("edit", [write], principal=principal, project=note.project, agent_id=note.owner_agent)
            except BatchConflictError:
                if attempt == _EDIT_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def now(self) -> datetime:
        return self.clock.now()
