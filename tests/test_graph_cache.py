"""The mining service keeps built graphs only while the store is unchanged under them, builds each
once at a time, and builds the explorer's views ahead of requests, replaced after every change."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import ray

from mining.graph import Fragment, GraphRows, TeamGraph, add_pattern
from mining.loadsignal import load_signal
from mining.prebuild import Prebuilder
from mining.service import Mining
from reverie.clock import ManualClock
from reverie.records import Batch, Note
from reverie.settings import Settings
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


def test_a_caller_waits_for_the_build_in_progress_and_builds_anew_after_a_change(store: Store, clock: ManualClock) -> None:
    cache: StoreCache[TeamGraph] = StoreCache(store.tables, GRAPH_TABLES)
    _mine(store, "p1", clock)
    started, release, builds = threading.Event(), threading.Event(), []

    def slow() -> TeamGraph:  # a build ahead of time, still running when the request comes
        builds.append("ahead")
        started.set()
        release.wait(10)
        return TeamGraph.load(store, "atlas").current()

    def request() -> TeamGraph:
        builds.append("request")
        return TeamGraph.load(store, "atlas").current()

    with ThreadPoolExecutor(2) as pool:
        ahead = pool.submit(cache.get, "atlas", slow)
        assert started.wait(10)
        waiting = pool.submit(cache.get, "atlas", request)
        time.sleep(0.2)
        assert not waiting.done()  # it waits rather than building a second time
        release.set()
        assert waiting.result(10) is ahead.result(10) and builds == ["ahead"]
    _mine(store, "p2", clock)  # the kept graph is stale now: never served again
    assert _patterns(cache.get("atlas", request)) == {"pattern:p1", "pattern:p2"} and builds == ["ahead", "request"]


def test_views_built_ahead_are_replaced_after_every_change(
    ray_session: None, settings: Settings, store: Store, clock: ManualClock,
) -> None:
    _mine(store, "p1", clock)
    mining = Mining(settings, clock, supervise=False)
    try:
        ahead = Prebuilder(mining._view_versions, mining.prebuild, 60.0)
        assert ahead.step() and mining.prebuilt("atlas") and not ahead.step()  # built once, kept while unchanged
        analyst = mining.team_graph("atlas", personal=False, current=True)
        assert _patterns(analyst) == {"pattern:p1"} and _personal(analyst) == set()
        assert _personal(mining.team_graph("atlas", personal=True, current=True)) == {f"note:p1-n{i}" for i in range(3)}
        second = _mine(store, "p2", clock)
        assert not mining.prebuilt("atlas") and ahead.step() and mining.prebuilt("atlas")
        assert _patterns(mining.team_graph("atlas", personal=False, current=True)) == {"pattern:p1", "pattern:p2"}
        store.batches.rollback(second)  # written by another process (the HTTP API): seen by its versions
        assert not mining.prebuilt("atlas")
        assert _patterns(mining.team_graph("atlas", personal=False, current=True)) == {"pattern:p1"}
        assert ahead.step() and mining.prebuilt("atlas") and mining.prebuild() == ["atlas"]
    finally:
        mining.close()
        ray.kill(load_signal(settings))


def _personal(graph: TeamGraph) -> set[str]:
    return {n for n, d in graph.graph.nodes(data=True) if str(d.get("scope", "")).startswith("personal:")}
