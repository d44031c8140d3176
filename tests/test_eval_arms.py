"""The comparison arms: memory off, raw-log stacking (dense, BM25, fused) on a real store, and
Reverie itself — a real local service (Ray, the memory actors, mining, Serve) driven over HTTP."""

from __future__ import annotations

import threading
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from bench.eval.arms import MemoryOff, Retrieval, Retrieved
from bench.eval.compare import history_tokens, run_arm
from bench.eval.fleet import FleetConfig, Scenario, fleet_scenario
from bench.eval.rawlog import RawLog, RawLogArm, fill_budget, fuse
from bench.eval.served import ReverieArm, _Turns
from conftest import make_settings
from launcher.local import local_service
from reverie.clock import ManualClock
from reverie.embed import Embedder, HashEmbedder
from reverie.settings import Settings
from reverie.tokens import TokenCounter
from serving import DRAIN_CHECK_SECONDS, MINILM_NAMESPACE


@cache
def scenario(split: str) -> Scenario:
    return fleet_scenario(split, FleetConfig.quick())  # type: ignore[arg-type]


@cache
def counter() -> TokenCounter:
    return TokenCounter()


def one_project(data: Scenario) -> Scenario:
    """The scenario's first project alone (its sessions, agents and questions): every kind of item is
    in each project, and one keeps the model's and the service's work small."""
    project = data.requests[0].project
    requests = [r for r in data.requests if r.project == project]
    agents = {r.agent_id for r in requests}
    truth = data.truth.model_copy(update={
        "queries": tuple(q for q in data.truth.queries if q.project == project),
        "agents": {name: agent for name, agent in data.truth.agents.items() if name in agents}})
    return data.model_copy(update={"requests": requests, "truth": truth})


def first_days(data: Scenario, days: int) -> Scenario:
    """The sessions of the scenario's first ``days`` days and the questions they can answer (each
    item a question asks for or must not bring back was said in them): less to embed, the same kinds."""
    dates = sorted({r.events[0].ts.date() for r in data.requests})[:days]
    requests = [r for r in data.requests if r.events[0].ts.date() in dates]
    kept = {r.session_id for r in requests}

    def said(item_id: str) -> bool:
        return not kept.isdisjoint(data.truth.items[item_id].sessions)

    queries = tuple(q for q in data.truth.queries if all(said(i) for i in (*q.targets, *q.stale)))
    return data.model_copy(update={"requests": requests, "truth": data.truth.model_copy(update={"queries": queries})})


def busiest_agents(data: Scenario, count: int) -> Scenario:
    """The ``count`` agents with the most sessions (ties by name), their sessions and questions: fewer
    actors to start, consolidate and ask, the same kinds of items."""
    sessions = Counter(r.agent_id for r in data.requests)
    agents = set(sorted(sessions, key=lambda a: (-sessions[a], a))[:count])
    truth = data.truth.model_copy(update={
        "queries": tuple(q for q in data.truth.queries if q.agent_id in agents),
        "agents": {name: agent for name, agent in data.truth.agents.items() if name in agents}})
    return data.model_copy(update={"requests": [r for r in data.requests if r.agent_id in agents], "truth": truth})


def _item(note_id: str, tokens: int = 10) -> Retrieved:
    return Retrieved(note_id, note_id, (note_id,), "personal:a", "lesson", tokens)


def test_fill_budget_stops_at_the_first_item_that_does_not_fit() -> None:
    items = [_item("a", 5), _item("b", 5), _item("c", 20), _item("d", 1)]
    assert [i.note_id for i in fill_budget(items, 10)] == ["a", "b"]
    assert [i.note_id for i in fill_budget(items, 31)] == ["a", "b", "c", "d"]
    assert fill_budget(items, 4) == ()


def test_fusion_rewards_agreement_and_keeps_first_seen_order_on_ties() -> None:
    fused = fuse([[_item("a"), _item("b"), _item("c")], [_item("b"), _item("c"), _item("d")]])
    assert [i.note_id for i in fused] == ["b", "c", "a", "d"]  # 1/62+1/61, 1/63+1/62, 1/61, 1/63
    assert [i.note_id for i in fuse([[_item("x")], [_item("y")]])] == ["x", "y"]


def test_memory_off_keeps_nothing() -> None:
    off = MemoryOff()
    off.ingest(scenario("dev").requests)
    assert off.retrieve("coder-1", "anything", "atlas", 600) == Retrieval()
    assert off.notes() == []


def test_raw_log_stores_every_event_masked_and_scoped_to_its_agent(settings: Settings, clock: ManualClock) -> None:
    data = scenario("dev")
    log = RawLog(settings, HashEmbedder(settings.embedding), counter(), clock)
    events = sum(len(r.events) for r in data.requests)
    assert log.ingest(data.requests) == events
    assert log.ingest(data.requests[:3]) == 0
    notes = log.notes()
    assert len(notes) == events
    assert all(n.scope == f"personal:{data.truth.labels[n.evidence[0]].agent_id}" for n in notes)
    assert not any(c.value in n.text for c in data.truth.canaries for n in notes)


def test_raw_arms_answer_within_budget_from_the_askers_own_log(settings: Settings, clock: ManualClock) -> None:
    data = scenario("dev")
    log = RawLog(settings, HashEmbedder(settings.embedding), counter(), clock)
    log.ingest(data.requests)
    for ranking in ("dense", "lexical", "hybrid"):
        run = run_arm(RawLogArm(log, ranking), data, counter(), token_budget=200, ingest=False)  # type: ignore[arg-type]
        for query, retrieval in run.answers:
            assert retrieval.tokens <= 200
            assert all(data.truth.labels[e].agent_id == query.agent_id for i in retrieval.items for e in i.evidence)
        report = run.report
        assert report.problems() == []
        assert report.hit_rate_by_kind["shared"] == 0.0  # a raw log cannot know what only teammates heard
        assert report.dedup_rate == 0.0 and report.wrong_feedback_kept == 1.0


def test_history_tokens_count_each_agents_whole_log() -> None:
    data = scenario("dev")
    totals = history_tokens(data, counter())
    assert set(totals) == set(data.truth.agents)
    first = data.requests[0]
    assert totals[first.agent_id] >= sum(counter().count(e.text) for e in first.events)


def test_with_meaning_the_raw_log_answers_most_questions_its_agent_heard(tmp_path: Path, minilm: Embedder) -> None:
    """A sanity check of the held-out questions: a meaning-aware retriever over the raw log finds most."""
    data = one_project(scenario("heldout"))
    settings = make_settings(tmp_path / "store", provider="minilm")
    run = run_arm(RawLogArm(RawLog(settings, minilm, counter())), data, counter())
    assert run.report.hit_rate_by_kind["own"] >= 0.6
    assert run.report.error_recurrence > 0.5  # and it keeps bringing back what was corrected
    assert run.report.problems() == []


def test_the_reverie_arm_drives_a_real_service_end_to_end(serve_session: int, embedding_service: Any,
                                                         tmp_path: Path) -> None:
    """Capture over HTTP with one key per agent, consolidation in the agents' actors (every 2 new
    sessions, then at the end), mining of the project, retrieval as each agent: the invariants hold.
    The project's first three days as its two busiest agents (3 sessions each: a run during ingest, a
    second over its notes at the end), and every status and invariant below shows. The app joins the
    session's Serve and the memory its MiniLM embedding service; the rest of the service is its own
    (and ends with it)."""
    data = busiest_agents(first_days(one_project(scenario("dev")), 3), 2)
    assert len(data.truth.agents) == 2 and len(data.requests) == 6
    events = sum(len(r.events) for r in data.requests)
    settings = make_settings(tmp_path / "store", provider="minilm")
    update = {"serve": settings.serve.model_copy(update={"drain_check_seconds": DRAIN_CHECK_SECONDS}),
              "actors": settings.actors.model_copy(update={"namespace": MINILM_NAMESPACE})}
    with local_service(settings.model_copy(update=update), triggers=False, port=serve_session) as service:
        arm = ReverieArm(service, counter(), consolidate_every=2)
        run = run_arm(arm, data, counter(), token_budget=300)
        statuses = {n.status for n in arm.notes()}
        arm.close()
    report = run.report
    assert report.problems() == []  # 0 leaks, 0 secrets surfaced or stored, every rate in [0, 1]
    assert report.questions == len(data.truth.queries) and report.unknown_evidence == 0
    assert all(r.tokens <= 300 for _, r in run.answers) and all(t <= 300 for t in arm.context_tokens)
    assert 0 < report.active_notes < events / 2  # distilled, not piled up
    assert statuses >= {"active", "quarantined"}
    assert report.hit_rate > 0.0 and report.injections_shared == 0
    assert len(arm.consolidations) == 2 * len(data.truth.agents)
    assert sum(r.stats["sessions"] for r in arm.consolidations) == len(data.requests)
    assert {r.project for r in arm.minings} == {r.project for r in data.requests}
    assert all(r.status == "committed" for r in arm.minings)


def test_consolidations_due_during_ingest_run_in_the_order_of_the_sessions() -> None:
    """Agents post side by side, but the runs due on the way go one at a time in the scenario's order."""
    turns = _Turns([("b", 1), ("a", 2), ("b", 2)])
    order: list[tuple[str, int]] = []

    def agent(name: str) -> None:
        for posted in (1, 2, 3):
            with turns.turn((name, posted)) as due:
                if due:
                    order.append((name, posted))

    threads = [threading.Thread(target=agent, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert order == [("b", 1), ("a", 2), ("b", 2)]
