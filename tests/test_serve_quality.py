"""The DESIGN §8 metrics and alerts computed from a store with planted redundancy, conflicts,
overturned notes, merges and retrieval feedback."""

from __future__ import annotations

from datetime import timedelta

import pytest

from factories import note, write
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder
from reverie.settings import Settings
from reverie.store import Store
from serve.governance.quality import compute
from serve.retrieval.retrievals import RetrievalLog


def _alerts(metrics: object) -> dict[str, bool]:
    return {a.name: a.firing for a in metrics.alerts}  # type: ignore[attr-defined]


def test_metrics_and_alerts_follow_the_store(
    store: Store, hash_embedder: HashEmbedder, clock: ManualClock, settings: Settings,
) -> None:
    at = clock.now()
    twins = [note(f"t{i}", "Always run the linter before pushing", at) for i in range(3)]
    others = [note("q1", "Is the cache warm at start", at).model_copy(update={"type": "open_question"}),
              note("s1", "Use the old deploy script", at, status="superseded"),
              note("u1", "Write tests first", at)]
    batch = store.batches.run("local", [write(n, hash_embedder) for n in twins + others], agent_id="a1", project="atlas")
    clock.advance(timedelta(minutes=5))
    merged = store.notes.get("t0").model_copy(update={"confidence": 0.7})
    store.batches.run("local", [write(merged, hash_embedder, "merge")], agent_id="a1", project="atlas")

    log = RetrievalLog(store, clock)
    early = log.record("a1", "a1", "atlas", ["t0", "u1", "q1", "s1", "t1"])
    log.feedback(early, "a1", used=["t0", "u1", "q1", "s1"], unused=["t1"], wrong=[])
    clock.advance(settings.serve.metrics_window + timedelta(days=1))
    late = log.record("a1", "a1", "atlas", ["t0", "u1", "q1", "s1", "t1"])
    log.feedback(late, "a1", used=["t0"], unused=[], wrong=["u1"])

    metrics = compute(store, settings, ["atlas"])
    assert (metrics.notes, metrics.active_notes) == (6, 5)
    assert metrics.redundant_share == pytest.approx(2 / 5)  # two of the three twins would merge
    assert metrics.conflict_rate == pytest.approx(1 / 5)
    assert metrics.overturned_share == pytest.approx(1 / 6)
    assert metrics.deduplication_rate == pytest.approx(1 / 7)  # one merge, six adds
    assert (metrics.top5_hit_rate, metrics.top5_hit_rate_baseline) == (pytest.approx(0.2), pytest.approx(0.8))
    assert metrics.consolidation_runs == 2 and batch.committed_at is not None
    assert metrics.new_notes_week == 0  # all created before the window
    assert _alerts(metrics) == {"store_fill": False, "new_notes_week": False, "redundant_share": True,
                                "hit_rate_drop": True, "conflict_rate": True}
    assert compute(store, settings, ["orion"]).notes == 0
