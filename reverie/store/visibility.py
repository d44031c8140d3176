"""Which note rows readers may see: the committed batch row is the commit marker.

Writers insert their batch row first, then their note rows, then flip the batch to ``committed``,
then *finalize* (delete the older views they replaced). Readers therefore read note rows first and
the batch states second: every row they saw belongs to a batch whose row already exists. A row is
visible when its batch is committed (or later rolled back); of several visible views of one note
only the highest version counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from reverie.records import VISIBLE_BATCH_STATUSES
from reverie.store.rows import rows
from reverie.store.tables import Tables, sql_in

_UNSETTLED = "finalized_at IS NULL OR status NOT IN ('committed', 'rolled_back')"


@dataclass(frozen=True)
class Unsettled:
    """Batches that are not yet both visible and finalized, read after the note rows."""

    hidden: frozenset[str]
    pending_notes: frozenset[str]


def unsettled(tables: Tables) -> Unsettled:
    table = tables.read("batches", _UNSETTLED, ["batch_id", "status", "note_ids"])
    hidden: set[str] = set()
    pending: set[str] = set()
    for row in rows(table):
        if row["status"] in VISIBLE_BATCH_STATUSES:
            pending.update(row["note_ids"] or [])
        else:
            hidden.add(row["batch_id"])
    return Unsettled(frozenset(hidden), frozenset(pending))


def visible(tables: Tables, table: pa.Table) -> pa.Table:
    """Keep the rows of ``table`` (read just before) that readers may see, one view per note."""
    state = unsettled(tables)
    if state.hidden:
        table = table.filter(pc.invert(pc.is_in(table["batch_id"], pa.array(sorted(state.hidden)))))
    touched = state.pending_notes and state.pending_notes & set(table["note_id"].to_pylist())
    if touched:
        table = _drop_stale(table, _latest_versions(tables, touched, state.hidden))
    return _one_per_note(table)


def _latest_versions(tables: Tables, note_ids: Iterable[str], hidden: frozenset[str]) -> dict[str, int]:
    found = tables.read("notes", sql_in("note_id", note_ids), ["note_id", "version", "batch_id"])
    latest: dict[str, int] = {}
    for row in rows(found):
        if row["batch_id"] not in hidden:
            latest[row["note_id"]] = max(latest.get(row["note_id"], 0), row["version"])
    return latest


def _drop_stale(table: pa.Table, latest: dict[str, int]) -> pa.Table:
    keep = [
        version >= latest.get(note_id, 0)
        for note_id, version in zip(table["note_id"].to_pylist(), table["version"].to_pylist(), strict=True)
    ]
    return table.filter(pa.array(keep, type=pa.bool_()))


def _one_per_note(table: pa.Table) -> pa.Table:
    if table.num_rows == 0:
        return table
    order = pc.sort_indices(table, sort_keys=[("note_id", "ascending"), ("version", "descending")])
    table = table.take(order)
    ids = table["note_id"].to_pylist()
    keep = [i == 0 or ids[i] != ids[i - 1] for i in range(len(ids))]
    return table.filter(pa.array(keep, type=pa.bool_()))
