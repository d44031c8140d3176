"""The team graph: rows under batches, a round trip through the store, exports and queries."""

from __future__ import annotations

import json
from datetime import timedelta
from io import BytesIO
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mining.graph import Fragment, GraphRows, TeamGraph, add_pattern, note_node
from mining.runs import RunBook
from mining_data import copy_store, mine, pattern_of, settings_at, team_store
from reverie.clock import ManualClock
from reverie.embed import Embedder, spec_for
from reverie.records import Batch, Event, Note
from reverie.store import NoteWrite, Store


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory, minilm: Embedder) -> Path:
    clock = ManualClock()
    root = tmp_path_factory.mktemp("graph") / "store"
    mine(team_store(root, minilm, clock), clock)
    return root


def _note(i: int, agent: str, session: str, module: str | None, subject: str, clock: ManualClock) -> Note:
    return Note(
        note_id=f"n{i}", type="lesson", subject=subject, statement=f"statement {i}", scope=f"personal:{agent}",
        owner_agent=agent, project="atlas", module=module, source_sessions=[session], source_agents=[agent],
        created_at=clock.now(), updated_at=clock.now(),
    )


def _pattern(members: list[Note], clock: ManualClock) -> Note:
    return Note(
        note_id="p1", type="pattern", subject=members[0].subject, statement="the shared lesson", scope="project:atlas",
        project="atlas", source_sessions=sorted({s for m in members for s in m.source_sessions}),
        source_agents=sorted({a for m in members for a in m.source_agents}), created_at=clock.now(),
        updated_at=clock.now(), tags=["lesson", "mined"],
    )


def _commit_rows(store: Store, fragment: Fragment, kind: str = "mining") -> tuple[str, list[dict], list[dict]]:
    nodes, edges = GraphRows.load(store, "atlas").changes(fragment)

    def also(batch: Batch) -> None:
        store.graph_nodes.stage(batch, nodes)
        store.graph_edges.stage(batch, edges)

    batch = store.batches.run(kind, [], also=also, project="atlas")  # type: ignore[arg-type]
    return batch.batch_id, nodes, edges


members_strategy = st.lists(
    st.tuples(st.sampled_from(["a1", "a2", "a3"]), st.sampled_from(["s1", "s2", "s3", "s4"]),
              st.sampled_from([None, "api", "web"]), st.sampled_from(["Deploy order", "deploy  ORDER", "timezones"])),
    min_size=1, max_size=6,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(members=members_strategy)
def test_the_graph_survives_a_round_trip_through_the_store(tmp_path_factory: pytest.TempPathFactory, members: list) -> None:
    clock = ManualClock()
    store = Store.open(*_store_args(tmp_path_factory.mktemp("rt")), clock)
    notes = [_note(i, *m, clock) for i, m in enumerate(members)]
    fragment = Fragment()
    add_pattern(fragment, _pattern(notes, clock), notes, [("n0", f"n{len(notes) - 1}")] if len(notes) > 1 else [], clock.now())
    _, nodes, edges = _commit_rows(store, fragment)
    expected = TeamGraph.from_rows(_as_stored(nodes), _as_stored(edges)).graph
    loaded = TeamGraph.load(store, "atlas").graph
    assert nx.utils.graphs_equal(loaded, expected)
    assert list(loaded.edges(keys=True, data=True)) == list(expected.edges(keys=True, data=True))
    again = nx.node_link_graph(json.loads(json.dumps(TeamGraph(loaded).to_node_link())), edges="edges")
    assert nx.utils.graphs_equal(again, loaded)
    assert GraphRows.load(store, "atlas").changes(fragment) == ([], [])  # nothing new to write


def _store_args(root: Path) -> tuple:
    settings = settings_at(root / "store")
    return settings.store, spec_for(settings.embedding)


def _as_stored(rows: list[dict]) -> list[dict]:
    return [{**r, "batch_id": "-", "seq": 0} for r in rows]


def test_rows_of_running_failed_and_rolled_back_batches_are_invisible(tmp_path: Path) -> None:
    clock = ManualClock()
    store = Store.open(*_store_args(tmp_path), clock)
    notes = [_note(1, "a1", "s1", "api", "deploy order", clock)]
    fragment = Fragment()
    fragment.node(note_node(notes[0]))
    running = store.batches.begin("mining", project="atlas")
    nodes, _ = GraphRows.load(store, "atlas").changes(fragment)
    store.graph_nodes.stage(running, nodes)
    assert store.graph_nodes.read() == []
    store.batches.abort(running.batch_id)
    assert store.graph_nodes.read() == [] and store.tables["graph_nodes"].count_rows() == 0
    first, _, _ = _commit_rows(store, fragment)
    clock.advance(timedelta(hours=1))
    changed = Fragment()
    changed.node(note_node(notes[0].model_copy(update={"status": "superseded", "invalid_at": clock.now()})))
    second, _, _ = _commit_rows(store, changed)
    assert store.graph_nodes.read()[0]["invalid_at"] == clock.now()
    store.batches.rollback(second, principal="admin")
    visible = store.graph_nodes.read()
    assert [(r["node_id"], r["batch_id"], r["invalid_at"]) for r in visible] == [("note:n1", first, None)]


def test_graphml_and_node_link_exports_carry_every_element(mined: Path, tmp_path: Path) -> None:
    store = copy_store(mined, tmp_path / "s", ManualClock())
    graph = TeamGraph.load(store, "atlas")
    kinds = {d["kind"] for _, d in graph.graph.nodes(data=True)}
    assert kinds == {"pattern", "note", "subject", "agent", "session", "module", "project"}
    parsed = nx.read_graphml(BytesIO(graph.to_graphml().encode()), force_multigraph=True)
    assert set(parsed.nodes) == set(graph.graph.nodes)
    assert parsed.number_of_edges() == graph.graph.number_of_edges()
    assert {d["kind"] for _, _, d in parsed.edges(data=True)} == {d["kind"] for _, _, d in graph.graph.edges(data=True)}
    data = graph.to_node_link()
    assert {n["kind"] for n in data["nodes"]} == kinds and all("valid_from" in e and "invalid_at" in e for e in data["edges"])
    hidden = graph.without_personal()
    assert not [n for n, d in hidden.graph.nodes(data=True) if str(d.get("scope", "")).startswith("personal:")]


def test_queries_find_a_subject_s_neighbourhood_and_a_module_s_patterns(mined: Path, tmp_path: Path) -> None:
    store = copy_store(mined, tmp_path / "s", ManualClock())
    state = RunBook(store).get("m-atlas-00001")
    migrations, leak = pattern_of(store, state, 0), pattern_of(store, state, 10)
    graph = TeamGraph.load(store, "atlas").current()
    near = graph.neighbourhood("Database  Migrations", depth=1)
    assert f"pattern:{migrations.note_id}" in near.graph and len([n for n in near.graph if n.startswith("note:")]) == 3
    assert TeamGraph(nx.MultiDiGraph()).neighbourhood("nothing").graph.number_of_nodes() == 0
    in_api = [p["node_id"] for p in graph.patterns_of_module("atlas", "api")]
    assert f"pattern:{migrations.note_id}" in in_api and f"pattern:{leak.note_id}" in in_api
    assert all(graph.graph.nodes[p]["kind"] == "pattern" for p in in_api)
    assert graph.patterns_of_module("atlas", "nowhere") == []


def test_a_note_superseded_after_mining_is_invalidated_in_the_graph(mined: Path, tmp_path: Path, minilm: Embedder) -> None:
    clock = ManualClock()
    store = copy_store(mined, tmp_path / "s", clock)
    loser = store.notes.get("n-atlas-00-0-a1-s1")
    clock.advance(timedelta(hours=2))
    superseded = loser.model_copy(
        update={"status": "superseded", "superseded_by": "n-atlas-00-1-a2-s2", "invalid_at": clock.now()},
    )
    store.batches.run("local", [NoteWrite(superseded, "supersede")], agent_id="a1", project="atlas")
    mine(store, clock)
    graph = TeamGraph.load(store, "atlas")
    node = graph.graph.nodes["note:n-atlas-00-0-a1-s1"]
    assert node["status"] == "superseded" and node["invalid_at"] == clock.now().isoformat()
    assert graph.graph.has_edge("note:n-atlas-00-1-a2-s2", "note:n-atlas-00-0-a1-s1")
    out = [d for _, _, d in graph.graph.out_edges("note:n-atlas-00-0-a1-s1", data=True)]
    assert out and all(d["invalid_at"] for d in out)
    assert "note:n-atlas-00-0-a1-s1" not in graph.current().graph


def test_purging_an_agent_removes_its_graph_elements(mined: Path, tmp_path: Path) -> None:
    store = copy_store(mined, tmp_path / "s", ManualClock())
    at = ManualClock().now()
    store.events.append([Event(event_id="e-s1-0-0", agent_id="a1", session_id="s1", project="atlas", ts=at, role="user",
                               text="migrate first", ingested_at=at)])
    store.maintenance.purge(agent_id="a1")
    nodes = {r["node_id"] for r in store.graph_nodes.read()}
    assert "agent:a1" not in nodes and "session:s1" not in nodes and "note:n-atlas-00-0-a1-s1" not in nodes
    assert all("agent:a1" not in (r["source"], r["target"]) for r in store.graph_edges.read())


def test_without_personal_leaves_nothing_only_personal_notes_point_to(tmp_path: Path) -> None:
    """A subject or session known only from personal notes would tell a reader of the shared graph
    what those notes are about: it goes with them; what shared elements link to stays."""
    clock = ManualClock()
    shared = _note(1, "a1", "s1", "api", "deploy order", clock).model_copy(update={"scope": "module:atlas/api"})
    private = [_note(2, "a2", "s2", "api", "my divorce lawyer", clock), _note(3, "a2", "s3", "api", "deploy order", clock)]
    pattern = _pattern([shared, *private], clock).model_copy(update={"source_sessions": ["s1", "s3"]})
    fragment = Fragment()
    add_pattern(fragment, pattern, [shared, *private], [("n1", "n2")], clock.now())
    nodes, edges = GraphRows(Store.open(*_store_args(tmp_path), clock), "atlas").changes(fragment)
    graph = TeamGraph.from_rows(_as_stored(nodes), _as_stored(edges))
    assert "subject:my divorce lawyer" in graph.graph and "session:s2" in graph.graph
    hidden = graph.without_personal()
    assert {"note:n2", "note:n3", "subject:my divorce lawyer", "session:s2"}.isdisjoint(hidden.graph)
    assert {"note:n1", "subject:deploy order", "session:s1", "session:s3", "agent:a2", "pattern:p1"} <= set(hidden.graph)
    assert all(hidden.graph.degree(n) > 0 for n in hidden.graph)
    assert hidden.neighbourhood("my divorce lawyer").graph.number_of_nodes() == 0
