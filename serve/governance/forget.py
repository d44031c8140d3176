"""Hard forgetting (``POST /v1/purge``): raw events, what is derived only from them, and their bytes.

``store.maintenance.purge`` deletes the events, the notes whose evidence lay only in them (with their
versions and graph elements), strips the purged ids from notes that also rest on other evidence, and
rewrites the files so old table versions are gone. Contextual keys go with their turns; a key that
quoted a purged turn as its context (the next turn's) is derived again from what is left
(:func:`rekey`). A note with other evidence may still *say* what
the purged events said, so each one is then **rebuilt from its remaining evidence** (not re-extracted):

- a statement that a remaining event states too (in its text or its structured candidate) is kept;
- otherwise the structured candidate of a remaining event with the note's type, else the text of the
  most telling remaining event (verified first, then importance, then the newest), becomes the
  statement (clipped to ``MAX_STATEMENT`` characters); the subject is kept only if remaining evidence
  mentions it;
- a note whose remaining evidence ids no longer resolve to any event is deleted outright.

The rebuilt views are written as one ``purge`` batch (audited, re-embedded), the earlier views of those
notes are dropped from ``note_versions``, and the store is scrubbed once more, so no byte of the
purged text survives anywhere in the store. Retrieval log rows of a purged agent go too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from reverie.api import PurgeRequest, PurgeResult
from reverie.errors import ValidationError
from reverie.note_context import embedding_text
from reverie.records import Event, Note
from reverie.store import NoteWrite, Store
from reverie.store.vectors import TextEmbedder

MAX_STATEMENT = 1000


@dataclass(frozen=True)
class Rebuilt:
    note: Note
    changed: bool
    gone: bool = False


def purge(store: Store, embedder: TextEmbedder, request: PurgeRequest, principal: str) -> PurgeResult:
    if request.agent_id is None and request.session_id is None:
        raise ValidationError(
            "say whose data to purge: agent_id or session_id (event ids are unique per agent, so event_ids "
            "need one of them)", field="agent_id",
        )
    result = store.maintenance.purge(
        event_ids=request.event_ids, agent_id=request.agent_id, session_id=request.session_id, principal=principal,
    )
    batch_ids = [result.batch_id] if result.batch_id else []
    rebuilt = rebuild(store, embedder, result.rederive, principal)
    if rebuilt is not None:
        batch_ids.append(rebuilt)
    rekey(store, embedder, result.rekey)
    if request.agent_id is not None:
        store.retrievals.delete_of_agent(request.agent_id)
    if rebuilt is not None or request.agent_id is not None:
        store.maintenance.scrub()
    return PurgeResult(
        events=result.events, sessions=result.sessions, notes_deleted=result.notes_deleted,
        notes_rederived=result.notes_rederived, batch_ids=batch_ids,
    )


def rekey(store: Store, embedder: TextEmbedder, turns: Sequence[tuple[str, str]]) -> int:
    """Derive again the contextual keys that quoted a purged turn (the turn after it), from what is
    left of their sessions; returns how many were written."""
    written = 0
    for agent_id in sorted({a for a, _ in turns}):
        ids = {e for a, e in turns if a == agent_id}
        sessions = {e.session_id for e in store.events.query(agent_id=agent_id, event_ids=ids)}
        events = store.events.query(agent_id=agent_id, session_ids=sessions) if sessions else []
        written += store.keys.derive(events, embedder, store.now(), ids)
    return written


def rebuild(store: Store, embedder: TextEmbedder, note_ids: Sequence[str], principal: str) -> str | None:
    """Rebuild each note from its remaining evidence in one batch; returns the batch id, if any."""
    notes = store.notes.get_many(note_ids)
    plans = [rebuilt_view(note, _remaining(store, note), store) for note in notes.values()]
    changed = [p for p in plans if p.changed]
    if not changed:
        return None
    live = [p.note for p in changed if not p.gone]
    vectors: list[np.ndarray] = list(embedder.embed([embedding_text(n.statement, n.scope, n.type) for n in live])) if live else []
    rebuilt = "rebuilt from remaining evidence after a purge"
    writes = [NoteWrite(n, "purge", rebuilt, v) for n, v in zip(live, vectors, strict=True)]
    writes += [NoteWrite(p.note, "purge", "no remaining evidence after a purge", tombstone=True) for p in changed if p.gone]
    batch = store.batches.run("purge", writes, principal=principal)
    ids = [p.note.note_id for p in changed]
    store.maintenance.drop_versions(ids)
    return batch.batch_id


def _remaining(store: Store, note: Note) -> list[Event]:
    agents = note.agents
    return [e for e in store.events.query(event_ids=note.evidence) if not agents or e.agent_id in agents]


def rebuilt_view(note: Note, remaining: Sequence[Event], store: Store) -> Rebuilt:
    """The note as its remaining evidence supports it (``changed`` False when it already is)."""
    if not remaining:
        blank = note.model_copy(update={"statement": "[purged]", "subject": "[purged]", "updated_at": store.now()})
        return Rebuilt(blank, changed=True, gone=True)
    texts = [_texts(e) for e in remaining]
    if _said(note.statement, texts) and _said(note.subject, texts):
        return Rebuilt(note, changed=False)
    subject, statement = _source(note, remaining)
    if _said(note.subject, texts):
        subject = note.subject
    update = {"subject": subject, "statement": statement, "updated_at": store.now()}
    return Rebuilt(note.model_copy(update=update), changed=True)


def _texts(event: Event) -> str:
    parts = [event.text]
    if event.candidate is not None:
        parts += [event.candidate.subject, event.candidate.statement]
    return "\n".join(parts).casefold()


def _said(text: str, texts: Sequence[str]) -> bool:
    wanted = text.casefold().strip()
    return any(wanted in t for t in texts)


def _source(note: Note, remaining: Sequence[Event]) -> tuple[str, str]:
    for event in remaining:
        if event.candidate is not None and event.candidate.type == note.type:
            return event.candidate.subject, event.candidate.statement
    best = max(remaining, key=lambda e: (e.verified, e.importance, e.ts, e.event_id))
    statement = _clip(best.text)
    return " ".join(statement.split()[:6]), statement


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    if len(flat) <= MAX_STATEMENT:
        return flat
    cut = flat[:MAX_STATEMENT].rsplit(" ", 1)[0]
    return cut + " …"
