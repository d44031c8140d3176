"""Conversions between records and Arrow rows (JSON columns, vectors, storage-only columns)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from reverie.records import AgentCandidate, Batch, Event, Note, NoteVersion, agents_of

NOTE_STORAGE_ONLY = ("tombstone",)
_NOTE_FIELDS = frozenset(Note.model_fields) - {"vector"}


def events_to_table(events: Sequence[Event], schema: pa.Schema) -> pa.Table:
    rows = []
    for event in events:
        row = event.model_dump(exclude={"candidate"})
        row["candidate"] = event.candidate.model_dump_json() if event.candidate else None
        row["content_hash"] = event.content_hash()
        rows.append(row)
    return pa.Table.from_pylist(rows, schema=schema)


def event_from_row(row: dict[str, Any]) -> Event:
    data = {k: v for k, v in row.items() if k in Event.model_fields}
    raw = row.get("candidate")
    data["candidate"] = AgentCandidate.model_validate_json(raw) if raw else None
    data["tags"] = list(data.get("tags") or [])
    return Event.model_validate(data)


def note_agents(row: dict[str, Any]) -> frozenset[str]:
    """:func:`~reverie.records.agents_of` a stored note row."""
    return agents_of(row.get("source_agents"), row.get("owner_agent"))


def note_row(note: Note, vector: np.ndarray | Sequence[float], *, tombstone: bool = False) -> dict[str, Any]:
    row = note.model_dump(exclude={"vector"})
    row["tombstone"] = tombstone
    row["vector"] = np.asarray(vector, dtype=np.float32).tolist()
    return row


def note_from_row(row: dict[str, Any], *, with_vector: bool = False) -> Note:
    return Note.model_validate(note_data(row, with_vector=with_vector))


def note_data(row: dict[str, Any], *, with_vector: bool = False) -> dict[str, Any]:
    """A stored row's fields as a note's (validate them with Note or a view of one)."""
    data = {k: v for k, v in row.items() if k in _NOTE_FIELDS}
    for key in ("evidence", "source_sessions", "source_agents", "tags", "supersedes", "conflicts_with", "keys"):
        data[key] = list(data.get(key) or [])
    data["contested"] = bool(data.get("contested"))
    if with_vector and row.get("vector") is not None:
        data["vector"] = [float(x) for x in row["vector"]]
    return data


def snapshot_of(note: Note) -> str:
    return note.model_dump_json(exclude={"vector"})


def note_from_snapshot(snapshot: str) -> Note:
    return Note.model_validate_json(snapshot)


def version_row(note: Note, vector: Sequence[float], batch_id: str, reason: str) -> dict[str, Any]:
    return {
        "note_id": note.note_id, "version": note.version, "snapshot": snapshot_of(note),
        "batch_id": batch_id, "changed_at": note.updated_at, "reason": reason,
        "vector": np.asarray(vector, dtype=np.float32).tolist(),
    }


def version_from_row(row: dict[str, Any]) -> NoteVersion:
    return NoteVersion.model_validate({k: row[k] for k in NoteVersion.model_fields})


def batch_row(batch: Batch) -> dict[str, Any]:
    row = batch.model_dump(exclude={"stats"})
    row["stats"] = json.dumps(batch.stats, sort_keys=True, default=str)
    return row


def batch_from_row(row: dict[str, Any]) -> Batch:
    data = {k: v for k, v in row.items() if k in Batch.model_fields}
    data["stats"] = json.loads(row.get("stats") or "{}")
    data["session_ids"] = list(data.get("session_ids") or [])
    data["note_ids"] = list(data.get("note_ids") or [])
    return Batch.model_validate(data)


def rows(table: pa.Table) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = table.to_pylist()
    return found
