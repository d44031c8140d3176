"""The fleet scenario generator: seeded, consistent ground truth, each phrasebook's wording apart from the others."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.eval.fleet import FleetConfig, Scenario, fleet_scenario, generate
from bench.eval.phrases import Phrasebook
from bench.eval.phrases.dev import DEV
from bench.eval.phrases.dev2 import DEV2
from bench.eval.phrases.dev3 import DEV3
from bench.eval.phrases.dev4 import DEV4
from bench.eval.phrases.dev5 import DEV5
from bench.eval.phrases.dev6 import DEV6
from bench.eval.phrases.dev7 import DEV7
from bench.eval.phrases.heldout import HELDOUT
from bench.eval.seeds import DEV2_SEED, DEV3_SEED, DEV4_SEED, DEV5_SEED, DEV6_SEED, DEV7_SEED, DEV_SEED, HELDOUT_SEED
from reverie.capture import prepare_events
from reverie.clock import ManualClock
from reverie.privacy import Masker
from reverie.settings import CaptureSettings, PrivacySettings

TINY = FleetConfig(agents=6, projects=2, modules_per_project=2, days=4)
SPLITS = ("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "heldout")
DEV_SPLITS = ("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7")


@cache
def quick(split: str) -> Scenario:
    return fleet_scenario(split, FleetConfig.quick())  # type: ignore[arg-type]


def _events(scenario: Scenario) -> dict:
    return {e.event_id: (r, e) for r in scenario.requests for e in r.events}


def check_invariants(scenario: Scenario) -> None:
    truth, events = scenario.truth, _events(scenario)
    assert set(truth.labels) == set(events)
    for label in truth.labels.values():
        request, _ = events[label.event_id]
        assert (label.agent_id, label.session_id, label.project) == (request.agent_id, request.session_id, request.project)
        assert label.item_id is None or label.event_id in truth.items[label.item_id].events
    for item in truth.items.values():
        assert item.events and all(truth.labels[e].item_id == item.item_id for e in item.events)
        assert set(item.agents) <= item.visible_to == truth.readers(item.scope)
        assert min(events[e][1].ts for e in item.events) == item.first_said
    for query in truth.queries:
        assert all(truth.items[t].role == "truth" for t in query.targets)
        assert all(truth.items[s].role in ("stale", "wrong") for s in query.stale)
        assert query.agent_id in truth.agents
        assert all(query.agent_id in truth.items[t].visible_to for t in query.targets)


def test_one_seed_gives_one_scenario() -> None:
    first = generate(TINY, DEV, DEV_SEED).model_dump_json()
    assert generate(TINY, DEV, DEV_SEED).model_dump_json() == first
    assert generate(TINY, DEV, DEV_SEED + 1).model_dump_json() != first


def test_one_seed_gives_one_scenario_in_every_process() -> None:
    """Nothing depends on string hashing: another process with another hash seed writes the same bytes."""
    script = ("import hashlib; from bench.eval.fleet import generate, FleetConfig; from bench.eval.phrases.dev import DEV; "
              f"print(hashlib.sha256(generate(FleetConfig(**{TINY.model_dump()!r}), DEV, 7)"
              ".model_dump_json().encode()).hexdigest())")
    other = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "12345", "PATH": ""}, cwd=Path(__file__).resolve().parents[1])
    assert other.stdout.strip() == hashlib.sha256(generate(TINY, DEV, 7).model_dump_json().encode()).hexdigest()


def test_frozen_splits_use_their_own_seed_and_phrasebook() -> None:
    assert (quick("dev").seed, quick("dev").phrasebook) == (DEV_SEED, "dev")
    assert (quick("dev2").seed, quick("dev2").phrasebook) == (DEV2_SEED, "dev2")
    assert (quick("dev3").seed, quick("dev3").phrasebook) == (DEV3_SEED, "dev3")
    assert (quick("dev4").seed, quick("dev4").phrasebook) == (DEV4_SEED, "dev4")
    assert (quick("dev5").seed, quick("dev5").phrasebook) == (DEV5_SEED, "dev5")
    assert (quick("dev6").seed, quick("dev6").phrasebook) == (DEV6_SEED, "dev6")
    assert (quick("dev7").seed, quick("dev7").phrasebook) == (DEV7_SEED, "dev7")
    assert (quick("heldout").seed, quick("heldout").phrasebook) == (HELDOUT_SEED, "heldout")
    assert len({DEV_SEED, DEV2_SEED, DEV3_SEED, DEV4_SEED, DEV5_SEED, DEV6_SEED, DEV7_SEED, HELDOUT_SEED}) == 8
    for split in SPLITS:
        check_invariants(quick(split))


def _sentences(book: Phrasebook) -> set[str]:
    found = {t for f in book.frames for t in (*f.statements, *f.questions, *f.corrections, *f.verifications, *f.wrong_claims)}
    return found | set(book.chatter) | set(book.topical_chatter) | set(book.injections) | set(book.offtopic_questions)


def test_heldout_wording_and_content_are_apart_from_dev() -> None:
    assert not _sentences(DEV) & _sentences(HELDOUT)
    assert not {f.key for f in DEV.frames} & {f.key for f in HELDOUT.frames}
    assert not set(DEV.projects) & set(HELDOUT.projects)
    assert not set(DEV.modules) & set(HELDOUT.modules)


BOOKS = {"dev": DEV, "dev2": DEV2, "dev3": DEV3, "dev4": DEV4, "dev5": DEV5, "dev6": DEV6, "dev7": DEV7,
         "heldout": HELDOUT}


def _shared(book: str, other: str) -> tuple[int, int, int, int]:
    """What two books have in common, counted, not shown: a failure must not print the held-out book's wording
    (the tests pass books by name, so a failing test's arguments show no book's contents either)."""
    one, two = BOOKS[book], BOOKS[other]
    return (len(_sentences(one) & _sentences(two)), len({f.key for f in one.frames} & {f.key for f in two.frames}),
            len(set(one.projects) & set(two.projects)), len(set(one.modules) & set(two.modules)))


@pytest.mark.parametrize("other", ["dev", "heldout"])
def test_dev2_wording_and_content_are_apart_from_the_other_books(other: str) -> None:
    assert _shared("dev2", other) == (0, 0, 0, 0)


@pytest.mark.parametrize("other", ["dev", "dev2", "heldout"])
def test_dev3_wording_and_content_are_apart_from_the_other_books(other: str) -> None:
    assert _shared("dev3", other) == (0, 0, 0, 0)


@pytest.mark.parametrize("other", ["dev", "dev2", "dev3", "heldout"])
def test_dev4_wording_and_content_are_apart_from_the_other_books(other: str) -> None:
    assert _shared("dev4", other) == (0, 0, 0, 0)


@pytest.mark.parametrize("other", ["dev", "dev2", "dev3", "dev4", "heldout"])
def test_dev5_wording_and_content_are_apart_from_the_other_books(other: str) -> None:
    assert _shared("dev5", other) == (0, 0, 0, 0)


@pytest.mark.parametrize("other", ["dev", "dev2", "dev3", "dev4", "dev5", "heldout"])
def test_dev6_wording_and_content_are_apart_from_the_other_books(other: str) -> None:
    assert _shared("dev6", other) == (0, 0, 0, 0)


@pytest.mark.parametrize("other", ["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "heldout"])
def test_dev7_wording_and_content_are_apart_from_the_other_books(other: str) -> None:
    assert _shared("dev7", other) == (0, 0, 0, 0)


def test_questions_are_worded_apart_from_what_was_said() -> None:
    for scenario in map(quick, SPLITS):
        texts = {e.text.lower() for r in scenario.requests for e in r.events}
        for query in scenario.truth.queries:
            assert query.text.lower() not in texts
            assert not any(len(t) > 20 and t in query.text.lower() for t in texts)


def test_every_kind_of_knowledge_and_question_is_present() -> None:
    for scenario in map(quick, SPLITS):
        truth = scenario.truth
        kinds = {(i.type, i.role) for i in truth.items.values()}
        assert {("preference", "truth"), ("constraint", "truth"), ("procedure", "truth"), ("lesson", "truth"),
                ("verified_fact", "truth"), ("verified_fact", "wrong")} <= kinds
        assert any(i.role == "stale" and i.type == "verified_fact" for i in truth.items.values())
        assert any(i.role == "stale" and i.type != "verified_fact" for i in truth.items.values())
        assert {"own", "shared", "corrected", "control", "offtopic"} == {q.kind for q in truth.queries}
        assert {lab.kind for lab in truth.labels.values()} >= {"chatter", "noise", "secret", "injection", "wrong_claim"}


def test_lessons_recur_in_the_planned_patterns() -> None:
    lessons = [i for s in map(quick, SPLITS) for i in s.truth.items.values() if i.type == "lesson"]
    assert {i.recurrence for i in lessons} == {"promotable", "two_sessions", "one_agent", "cross_project"}
    for lesson in lessons:
        sessions, agents = len(set(lesson.sessions)), len(set(lesson.agents))
        assert {"promotable": sessions >= 3 and agents >= 3, "two_sessions": sessions == 2,
                "one_agent": sessions >= 3 and agents == 1, "cross_project": sessions >= 4 and agents >= 4,
                }[lesson.recurrence], lesson
        assert lesson.scope.startswith(("module:", "project:")) or lesson.recurrence == "cross_project"
        assert lesson.scope != "team" or lesson.recurrence == "cross_project"


@pytest.mark.parametrize("split", DEV_SPLITS)
def test_each_item_is_readable_by_its_scope_only(split: str) -> None:
    truth = quick(split).truth
    for item in truth.items.values():
        if item.type == "preference":
            assert item.scope == f"personal:{item.owner}" and item.visible_to == {item.owner}
        elif item.scope == "team":
            projects = {truth.labels[e].project for e in item.events}
            assert len(projects) == 2 and item.visible_to == set(truth.agents)
        else:
            assert item.visible_to == {a for a, agent in truth.agents.items() if agent.project == item.project}


@pytest.mark.parametrize("split", DEV_SPLITS)
def test_shared_questions_come_from_teammates_who_never_heard_the_lesson(split: str) -> None:
    truth = quick(split).truth
    shared = [q for q in truth.queries if q.kind == "shared"]
    assert shared
    for query in shared:
        lesson = truth.items[query.targets[0]]
        assert lesson.promotable and query.agent_id not in lesson.agents and query.agent_id in lesson.visible_to


def test_corrections_come_later_and_only_facts_are_corrected_by_a_tool() -> None:
    for scenario in map(quick, SPLITS):
        truth, events = scenario.truth, _events(scenario)
        for old in (i for i in truth.items.values() if i.role == "stale"):
            new = truth.items[old.superseded_by]  # type: ignore[index]
            assert max(events[e][1].ts for e in old.events) < new.first_said == old.stale_at
            verified = [events[e][1].verified for e in new.events]
            assert any(verified) if old.type == "verified_fact" else not any(verified)


@pytest.mark.parametrize("split", DEV_SPLITS)
def test_wrong_claims_are_unverified_later_and_heard_by_the_control_asker(split: str) -> None:
    truth, events = quick(split).truth, _events(quick(split))
    for wrong in (i for i in truth.items.values() if i.role == "wrong"):
        fact = truth.items[wrong.contradicts]  # type: ignore[index]
        assert fact.verified and not any(events[e][1].verified for e in wrong.events)
        assert min(events[e][1].ts for e in wrong.events) > fact.first_said
        controls = [q for q in truth.queries if q.kind == "control" and wrong.item_id in q.stale]
        assert controls and all(q.agent_id in wrong.agents for q in controls)


def test_planted_secrets_are_in_the_events_and_masked_at_capture() -> None:
    masker, clock = Masker(PrivacySettings()), ManualClock()
    for scenario in map(quick, SPLITS):
        events = _events(scenario)
        assert scenario.truth.canaries
        stored = {e.event_id: e.text for r in scenario.requests for e in prepare_events(r, masker, clock, CaptureSettings())}
        for canary in scenario.truth.canaries:
            assert canary.value in events[canary.event_id][1].text
            assert canary.value not in stored[canary.event_id]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), book=st.sampled_from([DEV, DEV2, DEV3, DEV4, DEV5, DEV6, DEV7]))
def test_any_seed_gives_consistent_ground_truth(seed: int, book: Phrasebook) -> None:
    check_invariants(generate(TINY, book, seed))
