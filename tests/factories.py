"""Small builders of valid records for tests."""

from __future__ import annotations

from datetime import datetime

from reverie.embed import Embedder
from reverie.records import Event, Note
from reverie.store import NoteWrite


def event(
    i: int, at: datetime, *, agent: str = "a1", session: str = "s1", text: str | None = None, project: str = "atlas",
) -> Event:
    return Event(
        event_id=f"e{i}", agent_id=agent, session_id=session, project=project, ts=at,
        role="user", text=text or f"event number {i}", ingested_at=at,
    )


def note(note_id: str, statement: str, at: datetime, *, agent: str = "a1", evidence: list[str] | None = None,
         scope: str | None = None, status: str = "active", project: str = "atlas") -> Note:
    return Note(
        note_id=note_id, type="preference", subject=statement.split()[0].lower(), statement=statement,
        scope=scope or f"personal:{agent}", owner_agent=agent, project=project,
        evidence=evidence or ["e1"], created_at=at, updated_at=at, status=status,  # type: ignore[arg-type]
    )


def write(n: Note, embedder: Embedder, action: str = "add") -> NoteWrite:
    return NoteWrite(n, action, vector=embedder.embed([n.statement])[0])  # type: ignore[arg-type]
