"""Two store guarantees consolidation relies on (added with the agent actors)."""

from __future__ import annotations

import pytest

from factories import note, write
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder
from reverie.errors import BatchConflictError, CommitError
from reverie.store import NoteFilter, NoteWrite, Store


def test_staging_after_an_abort_fails_and_leaves_nothing(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    """A run whose owner was presumed dead (settle aborted its batch) cannot resurrect the batch."""
    batch = store.batches.begin("local", agent_id="a1")
    store.batches.abort(batch.batch_id)
    with pytest.raises(CommitError, match="aborted"):
        store.batches.stage(batch, [write(note("n1", "Prefer tables", clock.now()), hash_embedder)])
    assert store.batches.get(batch.batch_id).status == "failed"
    assert store.tables["notes"].count_rows() == 0 and store.tables["audit"].count_rows() == 0


def test_a_write_based_on_an_older_version_is_refused(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    """Read, work, write: an edit made meanwhile is never overwritten."""
    store.batches.run("local", [write(note("n1", "Prefer tables", clock.now()), hash_embedder)], agent_id="a1")
    read = store.notes.get("n1")
    store.edit_note("n1", {"tags": ["reviewed"]}, principal="reviewer")
    stale = NoteWrite(read.model_copy(update={"confidence": 0.9}), "merge", base_version=read.version)
    with pytest.raises(BatchConflictError):
        store.batches.run("local", [stale], agent_id="a1")
    assert store.notes.get("n1").tags == ["reviewed"] and store.notes.get("n1").confidence == read.confidence
    fresh = store.notes.get("n1")
    merged = NoteWrite(fresh.model_copy(update={"confidence": 0.9}), "merge", base_version=fresh.version)
    store.batches.run("local", [merged], agent_id="a1")
    assert store.notes.list(NoteFilter()).notes[0].confidence == pytest.approx(0.9)
