"""The promotion rule end to end: notes of several agents -> clusters -> patterns, review items, graph."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from mining.graph import TeamGraph
from mining.review import ReviewQueue
from mining.runs import RunBook, RunState
from mining_data import Seen, copy_store, mine, pattern_of, write_notes
from reverie.clock import ManualClock
from reverie.embed import Embedder
from reverie.errors import NotFoundError
from reverie.store import NoteFilter, Store


@pytest.fixture(scope="module")
def template(team_template: Path) -> Path:
    """The team's notes before any mining, copied by the tests that change things."""
    return team_template


@pytest.fixture(scope="module")
def mined(template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, RunState]]:
    clock = ManualClock()
    store = copy_store(template, tmp_path_factory.mktemp("mined") / "store", clock)
    yield store, mine(store, clock)


def _edges(graph: TeamGraph, node: str, kind: str) -> set[str]:
    return {v for _, v, d in graph.graph.out_edges(node, data=True) if d["kind"] == kind}


def test_a_lesson_of_three_agents_in_three_sessions_is_promoted_and_linked(mined: tuple[Store, RunState]) -> None:
    store, state = mined
    pattern = pattern_of(store, state, 0)
    assert (pattern.type, pattern.status, pattern.scope) == ("pattern", "active", "module:atlas/api")
    assert pattern.source_sessions == ["s1", "s2", "s3"] and pattern.source_agents == ["a1", "a2", "a3"]
    assert pattern.confidence == pytest.approx(0.6 + 2 * 0.1)  # agreement of three agents
    assert pattern.note_id in state.result["promoted"]
    graph = TeamGraph.load(store, "atlas")
    node = f"pattern:{pattern.note_id}"
    assert graph.graph.nodes[node]["kind"] == "pattern"
    assert _edges(graph, node, "observed_in") >= {"session:s1", "session:s2", "session:s3", "module:atlas/api"}
    assert _edges(graph, node, "contributed_by") == {"agent:a1", "agent:a2", "agent:a3"}
    supporters = {u for u, _, d in graph.graph.in_edges(node, data=True) if d["kind"] == "supports"}
    assert len(supporters) == 3
    assert [a.action for a in store.notes.history(pattern.note_id).audit] == ["promote"]


def test_a_lesson_seen_in_two_sessions_is_not_promoted(mined: tuple[Store, RunState]) -> None:
    store, state = mined
    pattern = pattern_of(store, state, 1)
    assert pattern.status == "candidate" and pattern.source_sessions == ["s1", "s2"]  # the quarantined note's s3 never counts
    assert "n-atlas-01-3-a3-s3" not in RunBook(store).plan(state.run_id).model_dump_json()  # type: ignore[union-attr]
    assert ReviewQueue(store).by_pattern([pattern.note_id]) == {}


def test_a_lesson_of_one_agent_in_three_sessions_waits_as_a_candidate(mined: tuple[Store, RunState]) -> None:
    store, state = mined
    pattern = pattern_of(store, state, 5)
    assert pattern.status == "candidate" and len(pattern.source_sessions) == 3
    assert ReviewQueue(store).by_pattern([pattern.note_id]) == {}  # not independent: waits for more agents
    assert "few_agents" in store.notes.history(pattern.note_id).audit[0].reason


def test_evidence_over_several_modules_gives_a_project_pattern(mined: tuple[Store, RunState]) -> None:
    store, state = mined
    lesson = pattern_of(store, state, 6)
    assert (lesson.scope, lesson.status, lesson.module) == ("project:atlas", "active", None)



def test_a_constraint_three_agents_heard_is_never_a_pattern(mined: tuple[Store, RunState]) -> None:
    store, state = mined
    plan = RunBook(store).plan(state.run_id)
    cluster = next(c for c in plan.clusters if any(m.split("-")[2] == "03" for m in c.members))  # type: ignore[union-attr]
    assert len(cluster.members) == 3
    with pytest.raises(NotFoundError):
        store.notes.get(cluster.pattern_id)
    assert ReviewQueue(store).by_pattern([cluster.pattern_id]) == {}


def test_a_conflicting_cluster_lands_in_review_and_shows_as_a_hot_spot(mined: tuple[Store, RunState]) -> None:
    store, state = mined
    pattern = pattern_of(store, state, 10)
    assert pattern.status == "candidate"
    item = ReviewQueue(store).by_pattern([pattern.note_id])[pattern.note_id]
    assert item.reasons == ["conflict"]
    odd = "n-atlas-10-3-a3-s9"
    assert {tuple(p) for p in item.details["conflicts"]} == {("n-atlas-10-0-a1-s7", odd), ("n-atlas-10-2-a2-s8", odd)}
    spots = TeamGraph.load(store, "atlas").hot_spots()
    assert [(s.subject, s.conflicts, s.patterns) for s in spots] == [("memory leak in worker", 2, [f"pattern:{pattern.note_id}"])]


def test_noise_is_never_promoted(mined: tuple[Store, RunState]) -> None:
    store, state = mined
    plan = RunBook(store).plan(state.run_id)
    clustered = {m for c in plan.clusters for m in c.members}  # type: ignore[union-attr]
    singles = [n for n in store.notes.list(NoteFilter(types=["lesson", "preference", "constraint", "procedure"]), limit=100).notes
               if n.source_sessions[0] in ("s10", "s11", "s12")]
    assert len(singles) == 5 and not clustered & {n.note_id for n in singles}
    assert state.result["stats"]["noise"] == 3  # the two personal preferences are not even clustered
    patterns = store.notes.list(NoteFilter(types=["pattern"]), limit=100).notes
    assert len(patterns) == 5 and {p.status for p in patterns if p.note_id in state.result["promoted"]} == {"active"}


def test_personal_preferences_stay_personal_however_many_agents_share_them(template: Path, tmp_path: Path,
                                                                          minilm: Embedder) -> None:
    clock = ManualClock()
    store = copy_store(template, tmp_path / "store", clock)
    written = write_notes(store, minilm, [Seen(2, t, f"p{t}", f"sp{t}") for t in range(1, 5)], clock.now())
    state = mine(store, clock, mode="full")
    clustered = {m for c in RunBook(store).plan(state.run_id).clusters for m in c.members}  # type: ignore[union-attr]
    assert not clustered & {n.note_id for n in written}
    patterns = store.notes.list(NoteFilter(types=["pattern"]), limit=100).notes
    assert not any(set(p.evidence) & {e for n in written for e in n.evidence} for p in patterns)


def test_re_mining_merges_into_the_existing_pattern(template: Path, tmp_path: Path, minilm: Embedder) -> None:
    clock = ManualClock()
    store = copy_store(template, tmp_path / "store", clock)
    first = mine(store, clock)
    before = pattern_of(store, first, 0)
    assert mine(store, clock, mode="full").result["promoted"] == []  # nothing new: no batch, no twin
    assert store.notes.get(before.note_id).version == 1
    clock.advance(timedelta(hours=1))
    write_notes(store, minilm, [Seen(0, 3, "a7", "s13")], clock.now())
    again = mine(store, clock)
    assert again.result["stats"]["mode"] == "incremental" and again.result["stats"]["assigned"] == 1
    after = store.notes.get(before.note_id)
    assert after.version == 2 and after.source_sessions == ["s1", "s13", "s2", "s3"]
    assert after.source_agents == ["a1", "a2", "a3", "a7"] and after.statement == before.statement
    assert after.note_id in again.result["merged"]
    assert len(store.notes.list(NoteFilter(types=["pattern"]), limit=100).notes) == 5
    graph = TeamGraph.load(store, "atlas")
    assert "agent:a7" in _edges(graph, f"pattern:{after.note_id}", "contributed_by")


def test_rolling_back_a_mining_batch_takes_its_patterns_graph_and_review_items_away(template: Path, tmp_path: Path) -> None:
    clock = ManualClock()
    store = copy_store(template, tmp_path / "store", clock)
    state = mine(store, clock)
    pattern = pattern_of(store, state, 0)
    store.batches.rollback(pattern.batch_id, principal="admin")  # type: ignore[arg-type]
    with pytest.raises(NotFoundError):
        store.notes.get(pattern.note_id)
    graph = TeamGraph.load(store, "atlas")
    assert not [n for n, d in graph.graph.nodes(data=True) if d["kind"] in ("pattern", "note")]
    assert ReviewQueue(store).items("atlas") == []


def test_a_pattern_two_projects_share_becomes_a_team_pattern_for_review(template: Path, tmp_path: Path, minilm: Embedder) -> None:
    clock = ManualClock()
    store = copy_store(template, tmp_path / "store", clock)
    atlas = pattern_of(store, mine(store, clock), 0)
    lessons = [Seen(g, t, f"b{t}", f"t{t}") for g, texts in ((0, (0, 1, 2)), (6, (3, 4, 5)), (8, (3, 4, 5))) for t in texts]
    lessons += [Seen(g, 0, "b9", f"t{g}") for g in (2, 4)]
    write_notes(store, minilm, lessons, clock.now(), project="orion")
    orion_run = mine(store, clock, project="orion")
    orion = pattern_of(store, orion_run, 0)
    team = [p for p in store.notes.list(NoteFilter(types=["pattern"], scopes=["team"]), limit=10).notes]
    assert len(team) == 1 and (team[0].status, team[0].project) == ("candidate", None)
    assert team[0].source_agents == ["a1", "a2", "a3", "b0", "b1", "b2"]
    item = ReviewQueue(store).by_pattern([team[0].note_id])[team[0].note_id]
    assert item.reasons == ["team"] and item.details["projects"] == ["atlas", "orion"]
    graph = TeamGraph.load(store)
    node = f"pattern:{team[0].note_id}"
    assert {u for u, _, d in graph.graph.in_edges(node, data=True) if d["kind"] == "supports"} == {
        f"pattern:{atlas.note_id}", f"pattern:{orion.note_id}"}
    assert _edges(graph, node, "observed_in") == {"project:atlas", "project:orion"}
    assert mine(store, clock, project="orion", mode="full").result["review"] == []  # merged, not a twin
    assert len(store.notes.list(NoteFilter(types=["pattern"], scopes=["team"]), limit=10).notes) == 1
