"""Notes: list, read, edit, delete, restore, history; and the evidence events behind them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from reverie.api import (
    MAX_PAGE,
    AuditView,
    EventView,
    NoteAction,
    NoteCreate,
    NoteHistoryView,
    NoteList,
    NotePatch,
    NoteView,
)
from reverie.errors import ForbiddenError, NotFoundError, ValidationError
from reverie.note_context import embedding_text
from reverie.records import Note, NoteStatus, NoteType
from reverie.store import Filed, NoteFilter
from serve.auth.access import Principal, may_change_note, note_access, require, sees_event, sees_note, visible_note
from serve.authored import write_note
from serve.routes.context import ERRORS, ID, SCOPE, Caller, Deps, IdPath, IdQuery, NameQuery
from serve.services import Services

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["notes"])


@router.get("/notes", response_model=NoteList)
def list_notes(
    principal: Caller, deps: Deps, project: NameQuery = None,
    scope: Annotated[str | None, Query(pattern=SCOPE)] = None,
    status: NoteStatus | None = None, type: NoteType | None = None,  # noqa: A002 - the API's field name
    agent: IdQuery = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    cursor: Annotated[str | None, Query(pattern=ID)] = None,
    namespace: Annotated[str | None, Query(
        min_length=1, max_length=2200, description="notes filed under this namespace (labels joined by '.') or below it",
    )] = None,
    key: Annotated[str | None, Query(min_length=1, max_length=256, description="notes written under this key")] = None,
) -> NoteList:
    """Notes the caller may see, ordered by id, one page at a time (``next_cursor`` for the next)."""
    require(principal, "notes.read")
    principal.project_filter(project)
    where = NoteFilter(
        project=project, scopes=[scope] if scope else None, statuses=[status] if status else None,
        types=[type] if type else None, owner=agent, visible_to=note_access(principal), key=key,
        filed=Filed(namespace, below=True) if namespace is not None else None,
    )
    page = deps.store.notes.list(where, limit=limit, cursor=cursor)
    return NoteList(notes=[NoteView.of(n) for n in page.notes if sees_note(principal, n)], next_cursor=page.next_cursor)


@router.post("/notes", status_code=201, response_model=NoteView)
def create_note(body: NoteCreate, principal: Caller, deps: Deps) -> NoteView:
    """Write a note of the caller's own (an agent: in its personal scope), masked, embedded and audited
    as one ``edit`` batch; the same ``key`` in the same scope and ``namespace`` writes a new version of
    that note. This replica's next retrieval for the caller finds it at once; others within
    ``retrieval.refresh_seconds``."""
    return NoteView.of(write_note(deps, principal, body))


def _note(deps: Services, principal: Principal, note_id: str) -> Note:
    return visible_note(principal, deps.store.notes.get(note_id))


def _changeable(deps: Services, principal: Principal, note_id: str) -> Note:
    require(principal, "notes.write")
    note = _note(deps, principal, note_id)
    if not may_change_note(principal, note):
        raise ForbiddenError(f"a {principal.role} may not change note {note_id!r} (scope {note.scope})")
    return note


@router.get("/notes/{note_id}", response_model=NoteView)
def read_note(note_id: IdPath, principal: Caller, deps: Deps) -> NoteView:
    require(principal, "notes.read")
    return NoteView.of(_note(deps, principal, note_id))


@router.patch("/notes/{note_id}", response_model=NoteView)
def edit_note(note_id: IdPath, patch: NotePatch, principal: Caller, deps: Deps) -> NoteView:
    """Change a note's text or attributes; the old view is kept as a version, the edit is audited."""
    note = _changeable(deps, principal, note_id)
    changes = patch.changes()
    if not changes:
        raise ValidationError("the patch changes nothing; send at least one field to change")
    for name in ("subject", "statement"):
        if name in changes:
            changes[name] = deps.masker.mask(changes[name]).text
    vector = None
    text = embedding_text(changes.get("statement", note.statement), note.scope, changes.get("type", note.type))
    if text != embedding_text(note.statement, note.scope, note.type):
        vector = deps.embedder.embed([text])[0]
    deps.store.edit_note(note_id, changes, principal=principal.id, vector=vector, reason=patch.reason)
    deps.recaller.changed()
    return NoteView.of(deps.store.notes.get(note_id))


@router.delete("/notes/{note_id}", response_model=NoteView)
def delete_note(note_id: IdPath, principal: Caller, deps: Deps,
                reason: Annotated[str, Query(max_length=500)] = "deleted") -> NoteView:
    """Soft delete: the note is never retrieved again but stays restorable and auditable."""
    _changeable(deps, principal, note_id)
    deps.store.delete_note(note_id, principal=principal.id, reason=reason)
    deps.recaller.changed()
    return NoteView.of(deps.store.notes.get(note_id))


@router.post("/notes/{note_id}/restore", response_model=NoteView)
def restore_note(note_id: IdPath, principal: Caller, deps: Deps, body: NoteAction | None = None) -> NoteView:
    _changeable(deps, principal, note_id)
    deps.store.restore_note(note_id, principal=principal.id, reason=(body.reason if body else "") or "restored")
    deps.recaller.changed()
    return NoteView.of(deps.store.notes.get(note_id))


@router.get("/notes/{note_id}/history", response_model=NoteHistoryView)
def note_history(note_id: IdPath, principal: Caller, deps: Deps) -> NoteHistoryView:
    """Every earlier view of the note, oldest first, and its audit trail."""
    require(principal, "notes.read")
    _note(deps, principal, note_id)
    history = deps.store.notes.history(note_id)
    return NoteHistoryView(
        versions=[NoteView.of(v) for v in history.versions],
        audit=[AuditView.model_validate(a.model_dump()) for a in history.audit],
    )


@router.get("/events/{event_id}", response_model=EventView)
def read_event(event_id: IdPath, principal: Caller, deps: Deps, agent_id: IdQuery = None) -> EventView:
    """One evidence event (event ids are unique per agent: ``agent_id`` picks one when several agents used it)."""
    require(principal, "events.read")
    for event in deps.store.events.query(event_ids=[event_id], agent_id=agent_id):
        if sees_event(principal, event, _is_visible_evidence(deps, principal, event.event_id, event.agent_id)):
            return EventView.of(event)
    raise NotFoundError(f"no event {event_id!r}; check the id (event ids are per agent)")


def _is_visible_evidence(deps: Services, principal: Principal, event_id: str, agent_id: str) -> bool:
    if principal.role == "agent" or principal.is_admin:
        return False
    where = NoteFilter(visible_to=note_access(principal), evidence_any=[event_id], agents=[agent_id])
    return any(sees_note(principal, n) for n in deps.store.notes.list(where, limit=MAX_PAGE).notes)
