"""The mining service keeps built graphs only while the store is unchanged under them."""

from __future__ import annotations

from mining.graph import Fragment, GraphRows, TeamGraph, add_pattern
from reverie.clock import ManualClock
from reverie.records import Batch, Note
from reverie.store import Store
from reverie.store.cache import GRAPH_TABLES, StoreCache


def _note(note_id: str, agent: str, clock: ManualClock, type_: str = "lesson") -> Note:
    return Note(
        note_id=note_id, type=type_, subject="deploys", statement=f"statement of {note_id}", scope=f"personal:{agent}",
        owner_agent=agent, project="atlas", source_sessions=[f"s-{agent}"], source_agents=[agent],
        created_at=clock.now(), updated_at=clock.now(),
    )


def _mine(store: Store, pattern_id: str, clock: ManualClock) -> str:
    members = [_note(f"{pattern_id}-n{i}", f"a{i}", clock) for i in range(3)]
    pattern = _note(pattern_id, "a0", clock, "pattern").model_copy(update={"scope": "project:atlas", "owner_agent": None})
    fragment = Fragment()
    add_pattern(fragment, pattern, members, [], clock.now())
    nodes, edges = GraphRows.load(store, "atlas").changes(fragment)

    def also(batch: Batch) -> None:
        store.graph_nodes.stage(batch, nodes)
        store.graph_edges.stage(batch, edges)

    return store.batches.run("mining", [], also=also, project="atlas").batch_id


def _patterns(graph: TeamGraph) -> set[str]:
    return {n for n, d in graph.graph.nodes(data=True) if d["kind"] == "pattern"}


def test_a_kept_graph_is_used_until_a_batch_changes_the_store(store: Store, clock: ManualClock) -> None:
    cache: StoreCache[TeamGraph] = StoreCache(store.tables, GRAPH_TABLES)
    builds: list[TeamGraph] = []

    def build() -> TeamGraph:
        builds.append(TeamGraph.load(store, "atlas").current())
        return builds[-1]

    _mine(store, "p1", clock)
    first = cache.get("atlas", build)
    assert cache.get("atlas", build) is first and len(builds) == 1
    second_batch = _mine(store, "p2", clock)
    second = cache.get("atlas", build)
    assert len(builds) == 2 and _patterns(second) == {"pattern:p1", "pattern:p2"}
    store.batches.rollback(second_batch)  # a rollback changes what is visible, not only the rows
    assert _patterns(cache.get("atlas", build)) == {"pattern:p1"} and len(builds) == 3
    assert _patterns(cache.get("atlas", build)) == _patterns(TeamGraph.load(store, "atlas").current())
