"""Event vectors: every captured event embedded once, offline, never per query (DESIGN §4.6).

Events are never rewritten, so a turn's vector lives in ``event_vectors``, keyed by
``(agent_id, event_id)``. Capture writes it beside the events it commits (through the embedding
service's batcher); anything written without one — a store older than this table, a capture whose
vector write failed, events appended directly — gets it from :meth:`EventVectors.backfill`
(``reverie store migrate``, and each replica's turn cache when it finds a turn without one). Writes
are merges on the key, so a vector written twice (a retried capture, two replicas healing the same
turn) is stored once. Purging an event deletes its vector (``Maintenance.purge``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import pyarrow as pa

from reverie.store.rows import rows
from reverie.store.tables import Tables, sql_in, sql_str

KEY = ["agent_id", "event_id"]
BACKFILL_BATCH = 256


class TextEmbedder(Protocol):
    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class EventVectors:
    def __init__(self, tables: Tables) -> None:
        self._t = tables

    def write(self, keys: Sequence[tuple[str, str]], vectors: np.ndarray, *, replace: bool = False) -> int:
        """Store one vector per ``(agent_id, event_id)``: only those not stored yet, or every one
        with ``replace`` (the event's text changed: a rescan); returns how many rows were written."""
        if not keys:
            return 0
        if len(keys) != len(vectors):
            raise ValueError(f"{len(keys)} event keys but {len(vectors)} vectors")
        data = pa.Table.from_pydict({
            "agent_id": [a for a, _ in keys], "event_id": [e for _, e in keys],
            "vector": [np.asarray(v, np.float32).tolist() for v in vectors],
        }, schema=self._t.schemas["event_vectors"])

        def merge(table: Any) -> Any:
            merging = table.merge_insert(KEY)
            return (merging.when_matched_update_all() if replace else merging).when_not_matched_insert_all().execute(data)

        done = self._t.write("event_vectors", merge)
        return int(done.num_inserted_rows) + (int(done.num_updated_rows) if replace else 0)

    def of_agent(self, agent_id: str, event_ids: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        """The stored vectors of an agent's events (all, or those of ``event_ids``)."""
        where = f"agent_id = {sql_str(agent_id)}"
        if event_ids is not None:
            where += f" AND {sql_in('event_id', event_ids)}"
        table = self._t.read("event_vectors", where, ["event_id", "vector"])
        ids = table.column("event_id").to_pylist()
        if not ids:
            return {}
        matrix = np.asarray(table.column("vector").combine_chunks().flatten(), np.float32).reshape(len(ids), -1)
        return dict(zip(ids, matrix, strict=True))

    def missing(self, agent_id: str | None = None) -> list[tuple[str, str, str]]:
        """``(agent_id, event_id, text)`` of the events that have no vector yet."""
        where = None if agent_id is None else f"agent_id = {sql_str(agent_id)}"
        have = {(r["agent_id"], r["event_id"]) for r in rows(self._t.read("event_vectors", where, KEY))}
        events = self._t.read("events", where, [*KEY, "text"])
        return [(r["agent_id"], r["event_id"], r["text"]) for r in rows(events)
                if (r["agent_id"], r["event_id"]) not in have]

    def backfill(self, embedder: TextEmbedder, agent_id: str | None = None) -> int:
        """Embed and store every event that has no vector yet; returns how many were written."""
        todo = self.missing(agent_id)
        written = 0
        for start in range(0, len(todo), BACKFILL_BATCH):
            chunk = todo[start: start + BACKFILL_BATCH]
            vectors = embedder.embed([text for _, _, text in chunk])
            written += self.write([(a, e) for a, e, _ in chunk], vectors)
        return written
