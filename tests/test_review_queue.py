"""The review queue: list, approve, reject with a reason; audited, reversible, respected by re-mining."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from mining.graph import TeamGraph
from mining.review import ReviewQueue
from mining.runs import RunBook
from mining_data import copy_store, mine, pattern_of
from reverie.clock import ManualClock
from reverie.errors import ConflictError, NotFoundError, ValidationError
from reverie.store import Store


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory, team_template: Path) -> Path:
    clock = ManualClock()
    root = tmp_path_factory.mktemp("review") / "store"
    # min_agents=1 lets the one-agent lesson (group 5) reach the per-writer review gate
    mine(copy_store(team_template, root, clock), clock, min_agents=1)
    return root


@pytest.fixture
def store(mined: Path, tmp_path: Path, clock: ManualClock) -> Store:
    return copy_store(mined, tmp_path / "store", clock)


def _item_of(store: Store, group: int) -> tuple[str, str]:
    pattern = pattern_of(store, RunBook(store).get("m-atlas-00001"), group)
    return f"r-{pattern.note_id}", pattern.note_id


def test_the_queue_lists_pending_items_of_a_project(store: Store) -> None:
    queue = ReviewQueue(store)
    items = queue.items("atlas")
    assert sorted(i.reasons[0] for i in items) == ["conflict", "single_agent"]  # a constraint is never a pattern
    assert all(i.status == "pending" and i.run_id == "m-atlas-00001" for i in items)
    assert queue.items("orion") == [] and queue.items("atlas", status="approved") == []
    with pytest.raises(NotFoundError):
        queue.get("r-nope")


def test_approval_promotes_the_pattern_is_audited_and_can_be_rolled_back(store: Store, clock: ManualClock) -> None:
    queue = ReviewQueue(store)
    item_id, pattern_id = _item_of(store, 5)
    clock.advance(timedelta(hours=1))
    decided = queue.decide(item_id, "approve", reason="seen it too", principal="rev1", at=clock.now())
    assert (decided.status, decided.reviewer, decided.decision_reason) == ("approved", "rev1", "seen it too")
    pattern = store.notes.get(pattern_id)
    assert pattern.status == "active" and "reviewed" in pattern.tags
    audit = store.notes.history(pattern_id).audit[-1]
    assert (audit.action, audit.principal, audit.reason) == ("approve", "rev1", "seen it too")
    assert store.batches.get(audit.batch_id).kind == "edit"  # type: ignore[arg-type]
    node = TeamGraph.load(store, "atlas").graph.nodes[f"pattern:{pattern_id}"]
    assert node["status"] == "active" and node["name"]  # the decision keeps the cluster's name
    with pytest.raises(ConflictError):
        queue.decide(item_id, "reject", reason="changed my mind", principal="rev2", at=clock.now())
    again = mine(store, clock)  # an approved single-agent pattern stays active and is not asked again
    assert store.notes.get(pattern_id).status == "active" and again.result["review"] == []
    store.batches.rollback(audit.batch_id, principal="admin")  # type: ignore[arg-type]
    assert queue.get(item_id).status == "pending" and store.notes.get(pattern_id).status == "candidate"
    assert TeamGraph.load(store, "atlas").graph.nodes[f"pattern:{pattern_id}"]["status"] == "candidate"


def test_rejection_needs_a_reason_and_re_mining_leaves_the_pattern_alone(store: Store, clock: ManualClock) -> None:
    queue = ReviewQueue(store)
    item_id, pattern_id = _item_of(store, 10)
    with pytest.raises(ValidationError):
        queue.decide(item_id, "reject", reason="  ", principal="rev1", at=clock.now())
    queue.decide(item_id, "reject", reason="the limit is 1000, the other note is stale", principal="rev1", at=clock.now())
    rejected = store.notes.get(pattern_id)
    assert rejected.status == "rejected" and rejected.invalid_at == clock.now()
    assert store.notes.history(pattern_id).audit[-1].action == "reject"
    assert TeamGraph.load(store, "atlas").current().graph.has_node(f"pattern:{pattern_id}") is False
    clock.advance(timedelta(hours=1))
    mine(store, clock, mode="full")
    assert store.notes.get(pattern_id).version == rejected.version
    assert queue.get(item_id).status == "rejected"
