"""The ``turn_keys`` table: each consolidated turn's contextual key (``reverie.context_keys``).

Keys are derived data, keyed by ``(agent_id, event_id)`` like ``event_vectors``: a key written again
(a re-derivation after a purge or a rescan) replaces the old one. A key holds the words of the turn
before it (``follows``), so purging an event deletes its own key and the key that follows it
(:meth:`KeyTable.delete_for`); the caller re-derives the latter from what is left.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime

import numpy as np
import pyarrow as pa

from reverie.context_keys import TurnKey, turn_keys
from reverie.dates import Span
from reverie.records import Event
from reverie.store.rows import event_from_row, rows
from reverie.store.tables import Tables, sql_in, sql_str
from reverie.store.vectors import BACKFILL_BATCH, TextEmbedder

KEY = ["agent_id", "event_id"]


@dataclass(frozen=True)
class StoredKey:
    event_id: str
    key: str
    spans: tuple[Span, ...]
    vector: np.ndarray


class KeyTable:
    def __init__(self, tables: Tables) -> None:
        self._t = tables

    def write(self, keys: Sequence[TurnKey], vectors: np.ndarray, at: datetime) -> int:
        """Store (or replace) one key per turn; returns how many rows were written."""
        if not keys:
            return 0
        if len(keys) != len(vectors):
            raise ValueError(f"{len(keys)} turn keys but {len(vectors)} vectors")
        data = pa.Table.from_pydict({
            "agent_id": [k.agent_id for k in keys], "event_id": [k.event_id for k in keys],
            "follows": [k.follows for k in keys], "key": [k.key for k in keys],
            "span_start": [[s.start for s in k.spans] for k in keys],
            "span_end": [[s.end for s in k.spans] for k in keys],
            "written_at": [at] * len(keys),
            "vector": [np.asarray(v, np.float32).tolist() for v in vectors],
        }, schema=self._t.schemas["turn_keys"])
        self._t.write("turn_keys", lambda t: (
            t.merge_insert(KEY).when_matched_update_all().when_not_matched_insert_all().execute(data)))
        return len(keys)

    def derive(self, events: Sequence[Event], embedder: TextEmbedder, at: datetime,
               only: Collection[str] | None = None) -> int:
        """Build, embed and store the keys of ``events`` (whole sessions), or only of the turns in
        ``only``; returns how many were written."""
        keys = [k for k in turn_keys(events) if only is None or k.event_id in only]
        for start in range(0, len(keys), BACKFILL_BATCH):
            chunk = keys[start: start + BACKFILL_BATCH]
            self.write(chunk, embedder.embed([k.key for k in chunk]), at)
        return len(keys)

    def backfill(self, embedder: TextEmbedder, at: datetime) -> int:
        """Keys for the turns of consolidated sessions that have none (sessions consolidated before
        keys existed, keys lost to a purge of the turn before them); returns how many were written."""
        consolidated = {r["session_id"] for r in rows(self._t.read("sessions", "consolidated_by IS NOT NULL", ["session_id"]))}
        if not consolidated:
            return 0
        keyed = self.keyed()
        events = [event_from_row(r) for r in rows(self._t.read("events", sql_in("session_id", consolidated)))]
        events.sort(key=lambda e: (e.ts, e.session_id, e.event_id))
        missing = {e.event_id for e in events if (e.agent_id, e.event_id) not in keyed}
        wanted = {e.session_id for e in events if e.event_id in missing}
        return self.derive([e for e in events if e.session_id in wanted], embedder, at, missing)

    def of_agent(self, agent_id: str, event_ids: Sequence[str] | None = None) -> list[StoredKey]:
        """An agent's keys (all, or those of ``event_ids``)."""
        where = f"agent_id = {sql_str(agent_id)}"
        if event_ids is not None:
            where += f" AND {sql_in('event_id', event_ids)}"
        table = self._t.read("turn_keys", where, ["event_id", "key", "span_start", "span_end", "vector"])
        return [StoredKey(r["event_id"], r["key"], _spans(r["span_start"], r["span_end"]), np.asarray(r["vector"], np.float32))
                for r in rows(table)]

    def ids(self, agent_id: str) -> set[str]:
        """The event ids of an agent's turns that have a key."""
        return {r["event_id"] for r in rows(self._t.read("turn_keys", f"agent_id = {sql_str(agent_id)}", ["event_id"]))}

    def keyed(self, agent_id: str | None = None) -> set[tuple[str, str]]:
        where = None if agent_id is None else f"agent_id = {sql_str(agent_id)}"
        return {(r["agent_id"], r["event_id"]) for r in rows(self._t.read("turn_keys", where, KEY))}

    def following(self, agent_id: str, event_ids: Collection[str]) -> set[str]:
        """The turns whose key quotes one of ``event_ids`` as the turn before."""
        where = f"agent_id = {sql_str(agent_id)} AND {sql_in('follows', event_ids)}"
        return {r["event_id"] for r in rows(self._t.read("turn_keys", where, ["event_id"]))}

    def delete_for(self, agent_id: str, event_ids: Sequence[str]) -> list[str]:
        """Delete the keys of ``event_ids`` and the keys that follow them; returns the ids of the
        following turns that lost their key (still stored: their key is to be derived again)."""
        if not event_ids:
            return []
        agent = f"agent_id = {sql_str(agent_id)}"
        orphans = sorted(self.following(agent_id, event_ids) - set(event_ids))
        where = f"{agent} AND ({sql_in('event_id', event_ids)} OR {sql_in('follows', event_ids)})"
        self._t.write("turn_keys", lambda t: t.delete(where))
        return orphans


def _spans(starts: Sequence[date] | None, ends: Sequence[date] | None) -> tuple[Span, ...]:
    return tuple(Span(s, e) for s, e in zip(starts or [], ends or [], strict=True))
