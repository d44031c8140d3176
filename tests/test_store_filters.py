"""The store's typed filters select the right rows of a real LanceDB store: every field, quoted
values, empty lists; and the scope rule checked in Python keeps exactly what its SQL keeps."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from factories import event, note, write
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder
from reverie.records import Note
from reverie.store import (
    BatchFilter,
    EventFilter,
    Filed,
    LedgerFilter,
    NoteFilter,
    RowFilter,
    ScopeAccess,
    SessionFilter,
    Store,
)

QUOTED = "o'brien"


def _note(note_id: str, at: datetime, **fields: object) -> Note:
    base = note(note_id, f"statement of {note_id}", at)
    return base.model_copy(update=fields)


@pytest.fixture
def notes(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> Store:
    now = clock.now()
    made = [
        _note("n1", now, keys=[QUOTED], namespace="team.o'hara", source_agents=["a2"], evidence=["e1", QUOTED]),
        _note("n2", now, scope="project:atlas", type="lesson", status="candidate", namespace="team.o'hara.sub"),
        _note("n3", now, scope="module:atlas/api", type="pattern", owner_agent="a2", namespace="team"),
        _note("n4", now, scope="team", project=None, type="lesson", status="deleted", evidence=["e2"]),
        _note("n5", now, scope="module:beta/db", project="beta", type="constraint", owner_agent="a3"),
        _note("n6", now, scope="module:atlas/db", project="beta", type="lesson"),  # scope names another project
        _note("n7", now, scope="personal:a2", owner_agent="a2", type="lesson", keys=["plain"]),
    ]
    store.batches.run("local", [write(n, hash_embedder) for n in made], agent_id="a1", project="atlas")
    return store


def _ids(store: Store, where: NoteFilter) -> list[str]:
    return store.notes.frame(where, columns=["note_id"]).sort_by("note_id")["note_id"].to_pylist()


@pytest.mark.parametrize(("where", "expected"), [
    (NoteFilter(), ["n1", "n2", "n3", "n4", "n5", "n6", "n7"]),
    (NoteFilter(projects=["beta"]), ["n5", "n6"]),
    (NoteFilter(projects=[]), []),
    (NoteFilter(scopes=[]), []),
    (NoteFilter(scope_kinds=["personal", "module"]), ["n1", "n3", "n5", "n6", "n7"]),
    (NoteFilter(scope_kinds=[]), []),
    (NoteFilter(exclude_scopes=["team", "project:atlas"]), ["n1", "n3", "n5", "n6", "n7"]),
    (NoteFilter(exclude_scopes=[]), ["n1", "n2", "n3", "n4", "n5", "n6", "n7"]),
    (NoteFilter(exclude_statuses=["deleted", "candidate"]), ["n1", "n3", "n5", "n6", "n7"]),
    (NoteFilter(types=["lesson"], exclude_types=[]), ["n2", "n4", "n6", "n7"]),
    (NoteFilter(exclude_types=["pattern", "lesson"]), ["n1", "n5"]),
    (NoteFilter(exclude_personal_types=["preference"]), ["n2", "n3", "n4", "n5", "n6", "n7"]),
    (NoteFilter(agents=["a2"]), ["n1", "n3", "n7"]),
    (NoteFilter(agents=[]), []),
    (NoteFilter(evidence_any=[QUOTED]), ["n1"]),
    (NoteFilter(evidence_any=["e2", "e9"]), ["n4"]),
    (NoteFilter(evidence_any=[]), []),
    (NoteFilter(key=QUOTED), ["n1"]),
    (NoteFilter(key="o'"), []),
    (NoteFilter(filed=Filed("team.o'hara")), ["n1"]),
    (NoteFilter(filed=Filed("team.o'hara", below=True)), ["n1", "n2"]),
    (NoteFilter(filed=Filed("team", below=True)), ["n1", "n2", "n3"]),
    (NoteFilter(filed=Filed(None)), ["n4", "n5", "n6", "n7"]),
    (NoteFilter(owner=QUOTED), []),
    (NoteFilter(note_ids=["n2", QUOTED], after_id="n1"), ["n2"]),
])
def test_note_filters_select_the_right_notes(notes: Store, where: NoteFilter, expected: list[str]) -> None:
    assert _ids(notes, where) == expected


ACCESSES = [
    ScopeAccess(everything=True), ScopeAccess(), ScopeAccess(projects=None), ScopeAccess(projects=frozenset({"atlas"})),
    ScopeAccess(projects=frozenset({"beta", QUOTED}), agent="a2"), ScopeAccess(projects=frozenset(), agent="a1"),
    ScopeAccess(projects=None, agent=QUOTED),
]


@pytest.mark.parametrize("access", ACCESSES)
def test_the_scope_rule_is_the_same_in_sql_and_in_python(notes: Store, access: ScopeAccess) -> None:
    everything = notes.notes.frame(NoteFilter(), columns=["note_id", "scope", "project"]).to_pylist()
    admitted = sorted(r["note_id"] for r in everything if access.admits(r["scope"], r["project"]))
    assert _ids(notes, NoteFilter(visible_to=access)) == admitted


def test_the_scope_rule_keeps_what_each_reader_may_see(notes: Store) -> None:
    assert _ids(notes, NoteFilter(visible_to=ScopeAccess(projects=frozenset({"atlas"}), agent="a1"))) == ["n1", "n2", "n3", "n4"]
    assert _ids(notes, NoteFilter(visible_to=ScopeAccess(projects=None))) == ["n2", "n3", "n4", "n5"]  # n6 names atlas, is beta's
    assert _ids(notes, NoteFilter(visible_to=ScopeAccess(projects=frozenset()))) == ["n4"]
    beta = ScopeAccess(projects=frozenset({"beta"}))
    assert beta.admits("team", None) and beta.admits("module:beta/db", "beta")
    assert not beta.admits("personal:a2", "beta") and not beta.admits("module:beta/db", "atlas")


def test_event_and_session_filters(store: Store, clock: ManualClock) -> None:
    start = clock.now()
    store.events.append([
        event(1, start), event(2, start + timedelta(minutes=1)),
        event(3, start + timedelta(minutes=2), agent="a2", session="s2", project="beta"),
    ])

    def ids(where: EventFilter) -> list[str]:
        return sorted(store.events.frame(where, ["event_id"])["event_id"].to_pylist())

    assert ids(EventFilter(agent_id="a1")) == ["e1", "e2"]
    assert ids(EventFilter(since=start + timedelta(minutes=1))) == ["e2", "e3"]
    assert ids(EventFilter(ingested_after=start + timedelta(minutes=1))) == ["e3"]
    assert ids(EventFilter(projects=["beta", QUOTED])) == ["e3"]
    assert ids(EventFilter(session_ids=[])) == []
    assert store.events.count(EventFilter(agent_id=QUOTED)) == 0
    store.events.mark_consolidated(["s1"], "b-1")

    def sessions(where: SessionFilter) -> list[str]:
        return sorted(store.events.session_frame(where, ["session_id"])["session_id"].to_pylist())

    assert sessions(SessionFilter(consolidated=True)) == ["s1"]
    assert sessions(SessionFilter(consolidated=False, agent_ids=["a2", QUOTED])) == ["s2"]
    assert sessions(SessionFilter(agent_ids=[])) == []
    assert store.events.count_sessions(SessionFilter(project="beta")) == 1


def test_batch_filters(notes: Store, clock: ManualClock) -> None:
    before = clock.now()
    clock.advance(timedelta(minutes=5))
    notes.batches.run("edit", [], agent_id="a9", project="beta")

    def ids(where: BatchFilter) -> list[str]:
        return notes.batches.frame(where, ["kind"])["kind"].to_pylist()

    assert ids(BatchFilter(agent_ids=[QUOTED, "a9"])) == ["edit"]
    assert ids(BatchFilter(kinds=["local"], statuses=["committed"])) == ["local"]
    assert ids(BatchFilter(committed_since=before + timedelta(minutes=1))) == ["edit"]
    assert ids(BatchFilter(agent_ids=[])) == []


def test_ledger_and_keyed_filters(store: Store, clock: ManualClock) -> None:
    now = clock.now()
    nodes = [{"project": p, "node_id": n, "kind": k, "label": None, "attrs": None, "valid_from": now, "invalid_at": None}
             for p, n, k in [("atlas", "note:n1", "note"), ("atlas", QUOTED, "agent"), ("beta", "note:n1", "note")]]
    store.batches.run("mining", [], also=lambda b: store.graph_nodes.stage(b, nodes), project="atlas")

    def keys(where: LedgerFilter) -> list[tuple[str, str]]:
        return [(r["project"], r["node_id"]) for r in store.graph_nodes.read(where)]

    assert keys(LedgerFilter(project="atlas", ids=[QUOTED])) == [("atlas", QUOTED)]
    assert keys(LedgerFilter(kinds=["note"])) == [("atlas", "note:n1"), ("beta", "note:n1")]
    assert keys(LedgerFilter(ids=[])) == []
    assert store.graph_nodes.stored(LedgerFilter(project=QUOTED)).num_rows == 0
    runs = store.keyed["mining_plans"]
    runs.upsert([{"run_id": QUOTED, "project": "atlas", "plan": "{}"}, {"run_id": "r2", "project": "beta", "plan": "{}"}])
    assert runs.get(QUOTED)["project"] == "atlas" and runs.get("r3") is None
    assert runs.count(RowFilter(project="beta")) == 1 and runs.count(RowFilter(projects=[])) == 0
    record = {"retrieval_id": "r1", "principal": QUOTED, "agent_id": QUOTED, "project": "atlas", "ts": now,
              "note_ids": ["n1"], "used": [], "unused": [], "wrong": [], "feedback_at": now}
    store.retrievals.upsert([record])
    assert store.retrievals.with_feedback(["atlas"]).num_rows == 1 and store.retrievals.with_feedback([]).num_rows == 0
    store.retrievals.delete_of_agent(QUOTED)
    assert store.retrievals.get("r1") is None
