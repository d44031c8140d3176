"""Keyed rows written under a batch: the team graph and the review queue.

Unlike notes, these rows are never rewritten in place: every change appends a new row for the same
key, tagged with the batch that wrote it and a write sequence. A reader keeps, per key, the newest
row (highest ``seq``) whose batch is ``committed``. Rows of a running or failed batch are invisible,
and so are the rows of a batch that was rolled back: rolling back a mining batch makes its graph and
review changes disappear, and the previous row of each key shows again.

Graph node ids are ``<kind>:<key>`` (``note:n1``, ``session:s1``, ``agent:a1``, ``subject:...``), so
that ids of different kinds never collide and purge can find every node of a note, session or agent.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from reverie.records import Batch
from reverie.store.rows import rows
from reverie.store.tables import Tables, sql_in
from reverie.store.where import Clause, all_of, among, equal


def graph_node_id(kind: str, key: str) -> str:
    """The id of a graph node of ``kind`` (pattern, note, subject, agent, session, module, project)."""
    return f"{kind}:{key}"


@dataclass(frozen=True)
class LedgerFilter:
    """Conditions on a ledger's stored rows, all of which hold; ``None`` means any. ``ids`` are of the
    ledger's own id (``node_id``, ``edge_id``, ``item_id``); ``kinds`` and ``sources`` hold on the
    graph tables, ``pattern_ids`` on the review queue."""

    project: str | None = None
    ids: Iterable[str] | None = None
    kinds: Iterable[str] | None = None
    sources: Iterable[str] | None = None
    pattern_ids: Iterable[str] | None = None

    def where(self, id_column: str) -> Clause:
        return all_of(
            equal("project", self.project), among(id_column, self.ids), among("kind", self.kinds),
            among("source", self.sources), among("pattern_id", self.pattern_ids),
        )


class Ledger:
    """One table of keyed rows under batches (see the module docstring)."""

    def __init__(self, tables: Tables, name: str, key: Sequence[str]) -> None:
        self._t = tables
        self.name = name
        self._key = tuple(key)

    def stage(self, batch: Batch, new_rows: Sequence[dict[str, Any]]) -> int:
        """Append rows under ``batch`` (invisible until it commits); returns how many."""
        if not new_rows:
            return 0
        keys = [self.key_of(r) for r in new_rows]
        if len(set(keys)) != len(keys):
            raise ValueError(f"a batch writes each key of {self.name} once; merge the rows first")
        seq = time.time_ns()
        data = [{**r, "batch_id": batch.batch_id, "seq": seq} for r in new_rows]
        table = pa.Table.from_pylist(data, schema=self._t.schemas[self.name])
        self._t.write(self.name, lambda t: t.add(table))
        return len(data)

    def read(self, where: LedgerFilter | None = None) -> list[dict[str, Any]]:
        """The visible row of each key matching ``where`` (evaluated on every stored row)."""
        found = rows(self.stored(where))
        committed = self._committed({r["batch_id"] for r in found})
        newest: dict[tuple[Any, ...], dict[str, Any]] = {}
        for row in found:
            if row["batch_id"] not in committed:
                continue
            key = self.key_of(row)
            if key not in newest or (row["seq"] or 0) > (newest[key]["seq"] or 0):
                newest[key] = row
        return [newest[k] for k in sorted(newest)]

    def stored(self, where: LedgerFilter | None = None) -> pa.Table:
        """Every stored row matching ``where``, of any batch and any write (what exports filter)."""
        return self._t.read(self.name, (where or LedgerFilter()).where(self._key[-1]))

    def key_of(self, row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(row[k] for k in self._key)

    def _committed(self, batch_ids: set[str]) -> set[str]:
        if not batch_ids:
            return set()
        where = f"status = 'committed' AND {sql_in('batch_id', batch_ids)}"
        return {r["batch_id"] for r in rows(self._t.read("batches", where, ["batch_id"]))}
