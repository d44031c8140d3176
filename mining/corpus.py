"""The notes a mining run clusters: a project's personal and module notes that are active or
candidates, superseded or open questions (never quarantined, never patterns), with their vectors.

Superseded notes and open questions are clustered so that the cluster they fall in knows it: a
claim one of whose notes was overturned or is disputed is not settled experience, and the promotion
rule lets it wait (``mining.patterns.blockers``). They never count as evidence of a pattern.

Personal preferences are not among them: a preference is the owner's own (seed 000's layered
library: "personal preferences: visible only to the owning agent"), so it never becomes team
experience, however many agents' users happen to share it. Lessons, procedures, constraints and
verified facts are clustered; only a cluster that is mostly lessons can become a pattern
(``mining.patterns``): the rest is module knowledge, one module note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pyarrow as pa

from reverie.records import Note
from reverie.store import NoteFilter, Store
from reverie.store.rows import note_from_row, rows

ELIGIBLE = NoteFilter(
    statuses=["active", "candidate", "superseded"], exclude_types=["pattern"], scope_kinds=["personal", "module"],
    exclude_personal_types=["preference"],
)


class Eligible:
    """The notes a run clusters, sorted by id, with their vectors; notes are built when asked for."""

    def __init__(self, table: pa.Table, vectors: np.ndarray) -> None:
        self.ids: list[str] = table["note_id"].to_pylist()
        self.vectors = vectors
        self.index = {n: i for i, n in enumerate(self.ids)}
        self._table = table
        self._notes: dict[str, Note] = {}

    def __contains__(self, note_id: str) -> bool:
        return note_id in self.index

    def __len__(self) -> int:
        return len(self.ids)

    def column(self, name: str, note_ids: Sequence[str]) -> list[Any]:
        """One column's values for ``note_ids`` (all eligible), in that order."""
        values = self._table[name].to_pylist()
        return [values[self.index[n]] for n in note_ids]

    def note(self, note_id: str) -> Note:
        return self.notes([note_id])[note_id]

    def notes(self, note_ids: Sequence[str]) -> dict[str, Note]:
        """The notes of ``note_ids`` that are eligible, built in one pass."""
        missing = sorted({n for n in note_ids if n in self.index and n not in self._notes})
        if missing:
            taken = self._table.take(pa.array([self.index[n] for n in missing], type=pa.int64()))
            self._notes.update((r["note_id"], note_from_row(r)) for r in rows(taken))
        return {n: self._notes[n] for n in note_ids if n in self.index}


def eligible_notes(store: Store, project: str) -> Eligible:
    table = store.notes.frame(replace(ELIGIBLE, project=project)).sort_by("note_id")
    return Eligible(table.drop_columns(["vector"]), vectors_of(table, store.tables.spec.dim))


def vectors_of(table: pa.Table, dim: int) -> np.ndarray:
    """The ``vector`` column of a notes frame as an (n, dim) float32 matrix."""
    if table.num_rows == 0:
        return np.zeros((0, dim), dtype=np.float32)
    return np.asarray(table["vector"].combine_chunks().flatten().to_numpy().reshape(-1, dim), dtype=np.float32)
