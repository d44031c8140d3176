"""Agent-authored notes (``POST /v1/notes``, DESIGN §6.1): what an agent writes itself, without events.

The note goes where the caller may write (an agent: its personal scope), masked like everything else,
embedded, audited and versioned as one ``edit`` batch (a JSON value is masked as text, then string by
string, as ``reverie privacy rescan`` masks JSON). A ``key`` names the note within its scope and
namespace: writing the same key again writes a new version of that note (its keys, and any merged
in later, stay on it). Text that tries to instruct is kept but quarantined, as consolidation does.
"""

from __future__ import annotations

from typing import Any

from reverie.api import NoteCreate, namespace_path
from reverie.errors import ForbiddenError, ValidationError
from reverie.note_context import embedding_text
from reverie.quarantine import is_instruction
from reverie.records import Note
from reverie.rescan import masked_json
from reverie.store import Filed, NoteFilter, NoteWrite, ordered_id
from serve.auth.access import Principal, is_personal, may_change_note, require, require_project
from serve.services import Services

LIVE = ("active", "candidate", "quarantined")


def write_note(deps: Services, principal: Principal, body: NoteCreate) -> Note:
    """Create the note, or a new version of the one its key names; returns the current view."""
    require(principal, "notes.write")
    project = _project(principal, body.project)
    scope = body.scope or f"personal:{principal.id}"
    statement = deps.masker.mask(body.statement_text()).text
    namespace = namespace_path(body.namespace) if body.namespace else None
    fields = {
        "type": body.type, "subject": deps.masker.mask(body.subject or _subject(body, statement)).text,
        "statement": statement, "tags": body.tags, "namespace": namespace,
        "value": masked_json(body.value_json(), deps.masker.mask_text) if body.value is not None else None,
        "status": "quarantined" if is_instruction(statement) else "active",
    }
    existing = _keyed(deps, scope, namespace, body.key)
    vector = deps.embedder.embed([embedding_text(statement, scope, body.type)])[0]
    if existing is not None:
        _check_change(principal, existing)
        keys = list(dict.fromkeys([*existing.keys, *([body.key] if body.key else [])]))
        deps.store.edit_note(
            existing.note_id, {**fields, "keys": keys}, principal=principal.id, vector=vector, reason=body.reason,
        )
        deps.recaller.changed()
        return deps.store.notes.get(existing.note_id)
    note = _new_note(deps, principal, body, scope, project, fields)
    _check_change(principal, note)
    deps.store.batches.run("edit", [NoteWrite(note, "add", body.reason, vector)], principal=principal.id,
                           project=project, agent_id=note.owner_agent)
    deps.recaller.changed()
    return deps.store.notes.get(note.note_id)


def _project(principal: Principal, asked: str | None) -> str:
    if asked is not None:
        require_project(principal, asked)
        return asked
    if len(principal.projects) == 1 and not principal.all_projects:
        return next(iter(principal.projects))
    raise ValidationError("name the project of the note: this key covers several projects", field="project")


def _subject(body: NoteCreate, statement: str) -> str:
    return body.key if body.key and body.key.strip() else " ".join(statement.split()[:6])


def _keyed(deps: Services, scope: str, namespace: str | None, key: str | None) -> Note | None:
    """The live note of ``scope`` filed under ``namespace`` with ``key``, if there is one."""
    if key is None:
        return None
    where = NoteFilter(scopes=[scope], statuses=list(LIVE), key=key, filed=Filed(namespace))
    found = deps.store.notes.list(where, limit=1).notes
    return found[0] if found else None


def _new_note(deps: Services, principal: Principal, body: NoteCreate, scope: str, project: str, fields: dict[str, Any]) -> Note:
    now = deps.clock.now()
    owner = scope.removeprefix("personal:") if is_personal(scope) else principal.id
    return Note(
        note_id=ordered_id("n"), scope=scope, owner_agent=owner, project=project, module=body.module,
        source_agents=[principal.id], confidence=deps.settings.consolidation.trust_agent,
        created_at=now, updated_at=now, last_seen_at=now, valid_from=now,
        keys=[body.key] if body.key else [], **fields,
    )


def _check_change(principal: Principal, note: Note) -> None:
    if not may_change_note(principal, note):
        raise ForbiddenError(
            f"a {principal.role} may not write notes in scope {note.scope}; an agent writes only in its personal scope",
            field="scope",
        )
