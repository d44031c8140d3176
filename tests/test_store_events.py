from __future__ import annotations

import pytest

from factories import event
from reverie.clock import ManualClock
from reverie.errors import ConflictError, EventConflictError, NotFoundError
from reverie.store import Store


def test_append_is_idempotent_by_agent_and_event_id(store: Store, clock: ManualClock) -> None:
    events = [event(i, clock.now()) for i in range(5)]
    first = store.events.append(events)
    again = store.events.append(events)
    assert (first.accepted, first.duplicates) == (5, 0)
    assert (again.accepted, again.duplicates) == (0, 5)
    assert len(store.events.query(agent_id="a1")) == 5


def test_same_event_id_for_another_agent_is_a_different_event(store: Store, clock: ManualClock) -> None:
    store.events.append([event(1, clock.now())])
    result = store.events.append([event(1, clock.now(), agent="a2", session="s2")])
    assert result.accepted == 1
    assert store.events.get("e1", agent_id="a2").agent_id == "a2"


def test_same_id_other_content_is_a_conflict_and_writes_nothing(store: Store, clock: ManualClock) -> None:
    store.events.append([event(1, clock.now())])
    with pytest.raises(EventConflictError) as info:
        store.events.append([event(2, clock.now()), event(1, clock.now(), text="changed text")])
    assert "changed text" not in str(info.value)
    assert [e.event_id for e in store.events.query(agent_id="a1")] == ["e1"]


def test_conflict_inside_one_request(store: Store, clock: ManualClock) -> None:
    with pytest.raises(EventConflictError):
        store.events.append([event(1, clock.now()), event(1, clock.now(), text="other")])
    assert store.events.query(agent_id="a1") == []


def test_sessions_are_kept(store: Store, clock: ManualClock) -> None:
    start = clock.now()
    store.events.append([event(1, start), event(2, start)])
    store.events.append([event(3, clock.advance(__import__("datetime").timedelta(minutes=5)))])
    [session] = store.events.sessions(agent_id="a1")
    assert (session.n_events, session.started_at, session.ended_at) == (3, start, None)
    ended = store.events.end_session("s1", clock.now())
    assert store.events.sessions(agent_id="a1")[0].ended_at == ended.ended_at == clock.now()
    assert store.events.sessions(agent_id="a1", pending_only=True)[0].session_id == "s1"


def test_a_session_id_belongs_to_one_agent(store: Store, clock: ManualClock) -> None:
    store.events.append([event(1, clock.now())])
    with pytest.raises(ConflictError):
        store.events.append([event(2, clock.now(), agent="a2", session="s1")])


def test_unknown_ids_are_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError):
        store.events.get("nope")
    with pytest.raises(NotFoundError):
        store.events.end_session("nope", store.now())
