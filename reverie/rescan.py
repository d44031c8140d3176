"""``reverie privacy rescan``: re-mask what a store already holds with the current rules.

Text stored before a rule existed stays in clear until it is rescanned. Run it on a stopped service
(nothing may write meanwhile; it refuses while batches are running). In order:

1. ``events``: text and the agent's structured candidate are masked as capture masks them, and the
   content hash is recomputed, so a client retrying the original request is still a duplicate; the
   vector of every changed event (``event_vectors``) is computed again from its masked text, and so
   are the contextual keys (``turn_keys``) of the changed turns and of the turns after them;
2. every table of :data:`TEXT_TABLES`: text columns masked as text, JSON columns string by string;
3. ``notes``: subject, statement and an agent's JSON value masked and the statement re-embedded, as **one** audited batch
   (kind ``edit``, reason ``privacy rescan``) whose stats count what every step changed;
4. ``note_versions``: the earlier views, including those the batch of step 3 just stored;
5. the store is scrubbed (``Maintenance.scrub``): deleted rows are rewritten out of their fragments
   and every old table version is dropped, so no file keeps the clear text.

Only rows that change are rewritten (delete, then append the masked rows). Vectors of earlier views
in ``note_versions`` are kept as they were. Tables left alone hold no text: ``sessions``,
``retrievals`` and ``locks`` (ids and times), ``mining_models`` (a fitted reducer and clusterer) and
``mining_maps`` (coordinates).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from reverie.errors import ConfigError, ConflictError
from reverie.note_context import embedding_text
from reverie.privacy import Masker
from reverie.records import Event, Note
from reverie.settings import PrivacySettings
from reverie.store import NoteWrite, Store
from reverie.store.rows import event_from_row, events_to_table, note_from_row, rows
from reverie.store.vectors import TextEmbedder

log = logging.getLogger(__name__)



@dataclass(frozen=True)
class TextTable:
    """A table re-masked row by row: ``key`` names one row, ``text`` columns are masked as text,
    ``json`` columns string by string inside their JSON."""

    name: str
    key: tuple[str, ...]
    text: tuple[str, ...] = ()
    json: tuple[str, ...] = ()


#: Tables with text derived from events, beside ``events`` and ``notes`` (which have their own
#: steps; contextual keys are derived again from the re-masked events). A table that stores text
#: later (summaries) joins here with one line.
TEXT_TABLES: tuple[TextTable, ...] = (
    TextTable("audit", ("audit_id",), text=("reason",)),
    TextTable("batches", ("batch_id",), json=("stats",)),
    TextTable("graph_nodes", ("project", "node_id", "batch_id", "seq"), text=("label",), json=("attrs",)),
    TextTable("graph_edges", ("project", "edge_id", "batch_id", "seq"), json=("attrs",)),
    TextTable("review_items", ("item_id", "batch_id", "seq"), text=("decision_reason",), json=("details",)),
    TextTable("mining_runs", ("run_id",), text=("error",), json=("result",)),
    TextTable("mining_plans", ("run_id",), json=("plan",)),
)
NOTE_VERSIONS = TextTable("note_versions", ("note_id", "version", "batch_id"), json=("snapshot",))


@dataclass
class RescanResult:
    """Rows re-masked per table, the batch that re-masked the notes, and the rule set used."""

    changed: dict[str, int] = field(default_factory=dict)
    batch_id: str | None = None
    rules: str = ""

    @property
    def total(self) -> int:
        return sum(self.changed.values())


def rescan(store: Store, embedder: TextEmbedder, privacy: PrivacySettings,
           *, principal: str = "system") -> RescanResult:
    """Re-mask every text the store holds with the current rules (see the module docstring)."""
    masker = _masker(privacy)
    _refuse_running(store)
    result = RescanResult(rules=masker.rules_version)
    changed = rescan_events(store, masker, embedder)
    result.changed["events"] = len(changed)
    result.changed["turn_keys"] = rekey_events(store, embedder, changed)
    for table in TEXT_TABLES:
        result.changed[table.name] = rescan_table(store, table, masker)
    notes, result.batch_id = rescan_notes(store, embedder, masker, principal, dict(result.changed))
    result.changed["notes"] = notes
    result.changed[NOTE_VERSIONS.name] = rescan_table(store, NOTE_VERSIONS, masker)
    store.maintenance.scrub()
    log.info("privacy rescan with rules %s: %d rows re-masked %s", result.rules, result.total, result.changed)
    return result


def _masker(privacy: PrivacySettings) -> Masker:
    if not privacy.enabled:
        raise ConfigError(
            "masking is off (REVERIE_PRIVACY__ENABLED=false), so a rescan would change nothing; "
            "turn it on to re-mask the store", field="privacy.enabled",
        )
    return Masker(privacy)


def _refuse_running(store: Store) -> None:
    running = store.batches.list(statuses=["running", "queued", "yielded"])
    if running:
        raise ConflictError(
            f"{len(running)} batch(es) are still running; stop the service (and its agents) and "
            "rescan again, since a rescan rewrites rows that a running batch may also write"
        )


# ---- events -----------------------------------------------------------------------------------------

def rescan_events(store: Store, masker: Masker, embedder: TextEmbedder) -> list[Event]:
    """Re-mask every event; returns those that changed (their vectors are computed again)."""
    changed = []
    for row in rows(store.tables.read("events")):
        event = event_from_row(row)
        masked = masked_event(event, masker)
        if masked != event:
            changed.append(masked)
    if changed:
        table = events_to_table(changed, store.tables.schemas["events"])
        store.tables.replace_rows("events", ("agent_id", "event_id"), table)
        keys = [(e.agent_id, e.event_id) for e in changed]
        store.vectors.write(keys, embedder.embed([e.text for e in changed]), replace=True)
    return changed


def rekey_events(store: Store, embedder: TextEmbedder, changed: Sequence[Event]) -> int:
    """Derive again, from the re-masked events, the contextual keys of the changed turns and of the
    turns after them (a key quotes the turn before it); returns how many keys were rewritten."""
    written = 0
    for agent_id in sorted({e.agent_id for e in changed}):
        ids = {e.event_id for e in changed if e.agent_id == agent_id}
        targets = store.keys.following(agent_id, ids) | (ids & store.keys.ids(agent_id))
        if targets:
            sessions = {e.session_id for e in changed if e.agent_id == agent_id}
            events = store.events.query(agent_id=agent_id, session_ids=sessions)
            written += store.keys.derive(events, embedder, store.now(), targets)
    return written


def masked_event(event: Event, masker: Masker) -> Event:
    """The event as capture would store it now (``reverie.capture`` masks the same fields)."""
    update: dict[str, Any] = {"text": masker.mask(event.text).text}
    if event.candidate is not None:
        update["candidate"] = event.candidate.model_copy(update={
            "subject": masker.mask(event.candidate.subject).text,
            "statement": masker.mask(event.candidate.statement).text,
        })
    return event.model_copy(update=update)


# ---- notes -------------------------------------------------------------------------------------------

def rescan_notes(store: Store, embedder: TextEmbedder, masker: Masker, principal: str,
                 stats: dict[str, int]) -> tuple[int, str | None]:
    """One ``edit`` batch with every note whose subject or statement changes, re-embedded."""
    current = [note_from_row(r) for r in rows(store.notes.live_rows())]
    changed = [(note, masked_note(note, masker)) for note in current]
    changed = [(old, new) for old, new in changed if new != old]
    texts = [embedding_text(new.statement, new.scope, new.type) for _, new in changed]
    vectors = embedder.embed(texts) if changed else np.zeros((0, 0))
    writes = [
        NoteWrite(new, "edit", f"privacy rescan (rules {masker.rules_version})", vector, base_version=old.version)
        for (old, new), vector in zip(changed, vectors, strict=True)
    ]
    summary: dict[str, int | str] = {**stats, "notes": len(writes), "rules": masker.rules_version}
    batch = store.batches.run("edit", writes, principal=principal, stats={"privacy_rescan": summary})
    return len(writes), batch.batch_id


def masked_note(note: Note, masker: Masker) -> Note:
    subject, statement = masker.mask(note.subject).text, masker.mask(note.statement).text
    value = masked_json(note.value, masker.mask_text) if note.value is not None else None
    if (subject, statement, value) == (note.subject, note.statement, note.value):
        return note
    return note.model_copy(update={"subject": subject, "statement": statement, "value": value})


# ---- any other table -----------------------------------------------------------------------------

def rescan_table(store: Store, table: TextTable, masker: Masker) -> int:
    """Re-mask one table's text and JSON columns; returns the rows rewritten (0 if it is absent)."""
    if table.name not in store.tables.schemas:
        return 0
    changed = [new for new in (masked_row(row, table, masker) for row in rows(store.tables.read(table.name)))
               if new is not None]
    if changed:
        data = pa.Table.from_pylist(changed, schema=store.tables.schemas[table.name])
        store.tables.replace_rows(table.name, table.key, data)
    return len(changed)


def masked_row(row: dict[str, Any], table: TextTable, masker: Masker) -> dict[str, Any] | None:
    """The row with its text masked, or None when nothing in it changes."""
    new = dict(row)
    for column in table.text:
        if isinstance(row.get(column), str):
            new[column] = masker.mask(row[column]).text
    for column in table.json:
        if isinstance(row.get(column), str):
            new[column] = masked_json(row[column], masker.mask_text)
    return None if new == row else new


def masked_json(raw: str, mask: Callable[[str], str]) -> str:
    """A JSON document masked as text (so ``"password": "..."`` keeps its context), then string by
    string (so escapes such as a PEM block's ``\\n`` cannot hide a secret); the first pass is kept
    only where the result still parses. Text that is not JSON is masked as text."""
    whole = mask(raw)
    try:
        value = json.loads(whole)
    except ValueError:
        try:
            value = json.loads(raw)
        except ValueError:
            return whole
        whole = raw
    masked = _walk(value, mask)
    return whole if masked == value else json.dumps(masked, ensure_ascii=False)


def _walk(value: Any, mask: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, list):
        return [_walk(v, mask) for v in value]
    if isinstance(value, dict):
        return {mask(k): _walk(v, mask) for k, v in value.items()}
    return value
