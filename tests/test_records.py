from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from reverie.records import AuditEntry, Batch, Candidate, Event, Note, NoteVersion, Session
from reverie.schemas import AUDIT, BATCHES, EVENTS, SESSIONS, note_versions_schema, notes_schema

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _event(**changes: object) -> dict:
    base = {"event_id": "e1", "agent_id": "a1", "session_id": "s1", "project": "atlas", "ts": AT,
            "role": "user", "text": "hello", "ingested_at": AT}
    return {**base, **changes}


@pytest.mark.parametrize("changes", [
    {"text": ""}, {"text": "   "}, {"text": "x" * (32 * 1024 + 1)}, {"role": "boss"}, {"kind": "chat"},
    {"ts": datetime(2026, 1, 1)}, {"event_id": "has space"}, {"event_id": "'; drop"}, {"project": "Atlas"},
    {"importance": 1.5}, {"tags": ["Not A Tag"]}, {"unknown": 1},
])
def test_bad_events_are_refused(changes: dict) -> None:
    with pytest.raises(ValidationError):
        Event.model_validate(_event(**changes))


def test_times_are_normalised_to_utc() -> None:
    east = datetime(2026, 1, 1, 12, tzinfo=timezone(timedelta(hours=2)))
    assert Event.model_validate(_event(ts=east)).ts == datetime(2026, 1, 1, 10, tzinfo=UTC)


def test_text_of_exactly_32_kib_is_accepted() -> None:
    assert len(Event.model_validate(_event(text="x" * 32 * 1024)).text) == 32 * 1024


def test_content_hash_ignores_times_only() -> None:
    a = Event.model_validate(_event())
    assert a.content_hash() == Event.model_validate(_event(ingested_at=AT + timedelta(days=1))).content_hash()
    assert a.content_hash() == Event.model_validate(_event(ts=AT + timedelta(minutes=5))).content_hash()
    assert a.content_hash() != Event.model_validate(_event(text="hello!")).content_hash()


def test_scopes_are_validated() -> None:
    for scope in ("team", "project:atlas", "module:atlas/billing", "personal:coder-1"):
        Candidate(type="lesson", subject="s", statement="t", evidence=["e1"], scope=scope, confidence=0.5)
    for scope in ("global", "project:", "module:atlas", "personal:", "team:x"):
        with pytest.raises(ValidationError):
            Candidate(type="lesson", subject="s", statement="t", evidence=["e1"], scope=scope, confidence=0.5)


@pytest.mark.parametrize(("record", "schema", "storage_only"), [
    (Event, EVENTS, {"content_hash"}),
    (Session, SESSIONS, set()),
    (Note, notes_schema("x", 4), {"tombstone"}),
    (NoteVersion, note_versions_schema(4), {"vector"}),
    (Batch, BATCHES, set()),
    (AuditEntry, AUDIT, set()),
])
def test_records_and_schemas_agree(record: type, schema, storage_only: set[str]) -> None:  # noqa: ANN001
    assert set(record.model_fields) == set(schema.names) - storage_only


ids = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,20}", fullmatch=True)


@given(event_id=ids, text=st.text(min_size=1, max_size=200).filter(lambda t: t.strip()), importance=st.floats(0, 1))
def test_events_round_trip_through_json(event_id: str, text: str, importance: float) -> None:
    event = Event.model_validate(_event(event_id=event_id, text=text, importance=importance))
    assert Event.model_validate_json(event.model_dump_json()) == event
