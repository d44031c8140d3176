from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from conftest import make_settings
from factories import note, write
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder, spec_for
from reverie.errors import BatchConflictError, ConflictError, EmbedderMismatchError, NotFoundError
from reverie.settings import Settings
from reverie.store import NoteFilter, NoteWrite, Store


def _add(store: Store, emb: HashEmbedder, *notes_: object, kind: str = "local") -> str:
    return store.batches.run(kind, [write(n, emb) for n in notes_], agent_id="a1", project="atlas").batch_id  # type: ignore[arg-type]


def _views(store: Store) -> dict[str, dict]:
    page = store.notes.list(NoteFilter(), limit=1000)
    return {n.note_id: n.model_dump(exclude={"version", "batch_id"}) for n in page.notes}


def test_staged_rows_are_invisible_until_commit(
    store: Store, hash_embedder: HashEmbedder, clock: ManualClock, settings: Settings,
) -> None:
    batch = store.batches.begin("local", agent_id="a1")
    staged = store.batches.stage(batch, [write(note("n1", "Prefer tables", clock.now()), hash_embedder)])
    other = Store.open(settings.store, spec_for(settings.embedding), clock)  # another handle, as another process would
    for reader in (store, other):
        assert reader.notes.list(NoteFilter()).notes == []
        assert reader.notes.search(hash_embedder.embed(["prefer tables"])[0], 5) == []
        with pytest.raises(NotFoundError):
            reader.notes.get("n1")
    store.batches.commit(staged)
    assert other.notes.get("n1").statement == "Prefer tables"


def test_abandoned_batches_are_cleaned_up(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    batch = store.batches.begin("local", agent_id="a1")
    store.batches.stage(batch, [write(note("n1", "Prefer tables", clock.now()), hash_embedder)])
    assert store.batches.settle() == 0  # still young: it may be running
    clock.advance(timedelta(hours=1))
    assert store.batches.settle() == 1
    assert store.batches.get(batch.batch_id).status == "failed"
    assert store.tables["notes"].count_rows() == 0
    assert store.tables["audit"].count_rows() == 0


def test_a_crash_after_the_marker_is_finalized_later(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    _add(store, hash_embedder, note("n1", "Prefer tables", clock.now()))
    batch = store.batches.begin("local", agent_id="a1")
    changed = note("n1", "Prefer tables always", clock.now())
    staged = store.batches.stage(batch, [write(changed, hash_embedder, "merge")])
    store.batches._flip([staged.model_copy(update={"status": "committed"})])  # marker only, then "crash"
    assert store.notes.get("n1").statement == "Prefer tables always"
    assert [n.statement for n in store.notes.list(NoteFilter(statuses=["active"])).notes] == ["Prefer tables always"]
    assert store.tables["notes"].count_rows() == 2
    assert store.batches.settle() == 1
    assert store.tables["notes"].count_rows() == 1


def test_rollback_restores_the_exact_previous_views(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    _add(store, hash_embedder, note("n1", "Prefer tables", clock.now()), note("n2", "Use tabs", clock.now()))
    before = _views(store)
    clock.advance(timedelta(hours=1))
    changed = store.notes.get("n1").model_copy(update={"statement": "Prefer prose", "confidence": 0.9, "updated_at": clock.now()})
    superseded = store.notes.get("n2").model_copy(update={"status": "superseded", "superseded_by": "n3"})
    batch_id = _add(store, hash_embedder, changed, superseded, note("n3", "Use spaces", clock.now()))
    assert _views(store) != before
    rollback = store.batches.rollback(batch_id, principal="admin")
    assert _views(store) == before
    assert store.batches.get(batch_id).status == "rolled_back"
    assert store.batches.get(batch_id).rolled_back_by == rollback.batch_id
    assert {a.action for a in store.notes.history("n1").audit} == {"add", "rollback"}
    with pytest.raises(ConflictError):
        store.batches.rollback(batch_id)


def test_rollback_is_refused_when_a_later_batch_changed_the_notes(
    store: Store, hash_embedder: HashEmbedder, clock: ManualClock,
) -> None:
    first = _add(store, hash_embedder, note("n1", "Prefer tables", clock.now()))
    second = _add(store, hash_embedder, store.notes.get("n1").model_copy(update={"statement": "Prefer charts"}))
    with pytest.raises(BatchConflictError):
        store.batches.rollback(first)
    store.batches.rollback(second)
    store.batches.rollback(first)  # allowed once the later change was undone
    with pytest.raises(NotFoundError):
        store.notes.get("n1")


def test_retrieval_feedback_never_blocks_a_rollback_and_the_hits_survive_it(
    store: Store, hash_embedder: HashEmbedder, clock: ManualClock,
) -> None:
    first = _add(store, hash_embedder, note("n1", "Prefer tables", clock.now()))
    before = store.notes.get("n1")
    merged = _add(store, hash_embedder, before.model_copy(update={"statement": "Prefer charts", "confidence": 0.8}))
    counted = store.notes.get("n1").model_copy(update={"hit_count": 7, "confidence": 0.82})
    store.batches.run("feedback", [NoteWrite(counted, "edit", "retrieval hits and feedback")])
    store.batches.run("feedback", [NoteWrite(store.notes.get("n1").model_copy(update={"hit_count": 9}), "edit")])
    store.batches.rollback(merged)
    restored = store.notes.get("n1")
    assert (restored.statement, restored.confidence, restored.hit_count) == ("Prefer tables", before.confidence, 9)
    later = _add(store, hash_embedder, restored.model_copy(update={"statement": "Prefer prose"}))
    store.batches.run("feedback", [NoteWrite(store.notes.get("n1").model_copy(update={"hit_count": 10}), "edit")])
    with pytest.raises(BatchConflictError):  # content changed after it: still refused
        store.batches.rollback(first)
    assert store.batches.get(later).status == "committed"


def test_concurrent_batches_on_one_note_conflict(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    _add(store, hash_embedder, note("n1", "Prefer tables", clock.now()))
    a = store.batches.stage(store.batches.begin("local"), [write(note("n1", "A wins", clock.now()), hash_embedder)])
    b = store.batches.stage(store.batches.begin("local"), [write(note("n1", "B loses", clock.now()), hash_embedder)])
    store.batches.commit(a)
    with pytest.raises(BatchConflictError):
        store.batches.commit(b)
    assert store.notes.get("n1").statement == "A wins"
    assert store.batches.get(b.batch_id).status == "failed"


def test_soft_delete_restore_and_history(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    _add(store, hash_embedder, note("n1", "Prefer tables", clock.now(), status="candidate"))
    store.delete_note("n1", principal="rev")
    assert store.notes.get("n1").status == "deleted"
    assert store.notes.list(NoteFilter(statuses=["active", "candidate"])).notes == []
    with pytest.raises(ConflictError):
        store.delete_note("n1", principal="rev")
    store.restore_note("n1", principal="rev")
    assert store.notes.get("n1").status == "candidate"
    store.edit_note("n1", {"statement": "Prefer tables in reports"}, principal="rev",
                    vector=hash_embedder.embed(["Prefer tables in reports"])[0])
    history = store.notes.history("n1")
    assert [v.status for v in history.versions] == ["candidate", "deleted", "candidate", "candidate"]
    assert [a.action for a in history.audit] == ["add", "delete", "restore", "edit"]
    assert {a.principal for a in history.audit[1:]} == {"rev"}


def test_list_filters_and_pages(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    notes_ = [note(f"n{i:02d}", f"statement {i}", clock.now(), agent="a1" if i % 2 else "a2") for i in range(25)]
    _add(store, hash_embedder, *notes_)
    page = store.notes.list(NoteFilter(owner="a1"), limit=5)
    seen = [n.note_id for n in page.notes]
    while page.next_cursor:
        page = store.notes.list(NoteFilter(owner="a1"), limit=5, cursor=page.next_cursor)
        seen += [n.note_id for n in page.notes]
    assert seen == [f"n{i:02d}" for i in range(25) if i % 2]


def test_search_filters_before_ranking(store: Store, hash_embedder: HashEmbedder, clock: ManualClock) -> None:
    _add(store, hash_embedder,
         note("n1", "deploy with blue green switch", clock.now(), scope="project:atlas"),
         note("n2", "deploy with blue green switch now", clock.now(), scope="personal:a9", agent="a9"),
         note("n3", "deploy with blue green", clock.now(), scope="project:orion", project="orion"))
    query = hash_embedder.embed(["deploy with blue green switch"])[0]
    hits = store.notes.search(query, 5, NoteFilter(project="atlas", scopes=["project:atlas", "team"]))
    assert [n.note_id for n, _ in hits] == ["n1"]
    assert hits[0][1] == pytest.approx(1.0, abs=1e-5)


def test_opening_with_another_embedder_is_refused(tmp_path: Path, clock: ManualClock) -> None:
    hashed = make_settings(tmp_path / "s")
    Store.open(hashed.store, spec_for(hashed.embedding), clock)
    other = make_settings(tmp_path / "s", provider="minilm")
    with pytest.raises(EmbedderMismatchError) as info:
        Store.open(other.store, spec_for(other.embedding), clock)
    assert "hash-sha256-384" in info.value.message and "all-MiniLM-L6-v2" in info.value.message


def test_new_notes_need_a_vector(store: Store, clock: ManualClock) -> None:
    from reverie.errors import ValidationError
    with pytest.raises(ValidationError):
        store.batches.run("local", [NoteWrite(note("n1", "x y", clock.now()), "add")])
    assert store.batches.list(statuses=["failed"])[0].kind == "local"
