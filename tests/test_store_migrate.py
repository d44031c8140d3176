"""`reverie store migrate`: older notes tables gain the new columns on open, and personal module
knowledge moves to its module scope as one audited batch that a rollback undoes."""

from __future__ import annotations

from pathlib import Path

import lancedb
import pyarrow as pa

from conftest import make_settings
from factories import note, write
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder, spec_for
from reverie.schemas import NOTE_COLUMNS_ADDED, notes_schema
from reverie.store import Store
from reverie.store.maintenance import migrate


def test_an_older_store_gains_slot_and_contested_on_open(tmp_path: Path, clock: ManualClock) -> None:
    settings = make_settings(tmp_path / "store")
    spec = spec_for(settings.embedding)
    Store.open(settings.store, spec, clock)
    db = lancedb.connect(settings.store.uri)
    db.drop_table("notes")
    current = notes_schema(spec.name, spec.dim)
    older = pa.schema([f for f in current if f.name not in NOTE_COLUMNS_ADDED], metadata=current.metadata)
    db.create_table("notes", schema=older)
    store = Store.open(settings.store, spec, clock)
    embedder = HashEmbedder(settings.embedding)
    authored = {"slot": "slot-1", "keys": ["k1"], "namespace": "prefs.editor", "value": '{"text":"Prefer tabs."}'}
    store.batches.run("edit", [write(note("n1", "Prefer tabs.", clock.now()).model_copy(update=authored), embedder)])
    found = store.notes.get("n1")
    assert (found.slot, found.contested, found.keys, found.namespace, found.value) == (
        "slot-1", False, *list(authored.values())[1:],
    )


def test_migrate_moves_personal_module_knowledge_as_one_batch_and_rollback_undoes_it(
    store: Store, hash_embedder: HashEmbedder, clock: ManualClock,
) -> None:
    at = clock.now()
    rule = note("n-rule", "Deploy billing after 18:00 UTC.", at).model_copy(update={"type": "constraint", "module": "billing"})
    taste = note("n-taste", "I like tables.", at).model_copy(update={"module": "billing"})
    leaky = note("n-pii", "Mail [PII:email] when billing breaks.", at).model_copy(
        update={"type": "constraint", "module": "billing"},
    )
    store.batches.run("local", [write(n, hash_embedder) for n in (rule, taste, leaky)], agent_id="a1")
    result = migrate(store.tables, store.batches, principal="admin")
    assert result.moved == ["n-rule"] and result.columns_added == []
    assert store.notes.get("n-rule").scope == "module:atlas/billing"
    assert store.notes.get("n-taste").scope == "personal:a1" and store.notes.get("n-pii").scope == "personal:a1"
    assert [a.action for a in store.notes.history("n-rule").audit][-1] == "migrate"
    assert migrate(store.tables, store.batches).batch_id is None  # nothing left to move
    store.batches.rollback(result.batch_id or "", principal="admin")
    assert store.notes.get("n-rule").scope == "personal:a1"


def test_slot_and_contested_travel_with_export_import_and_rollback(
    store: Store, hash_embedder: HashEmbedder, clock: ManualClock, tmp_path: Path,
) -> None:
    from serve.governance.transfer import export_project, import_archive, read_archive

    fact = note("n-fact", "The db listens on port 6543.", clock.now(), scope="module:atlas/ledger")
    authored = {"slot": "slot-port", "keys": ["db-port"], "namespace": "facts", "value": '{"port":6543}'}
    store.batches.run("local", [write(fact.model_copy(update=authored), hash_embedder)], agent_id="a1")
    contest = store.edit_note("n-fact", {"contested": True}, principal="a1")
    settings = make_settings(tmp_path / "other")
    other = Store.open(settings.store, spec_for(settings.embedding), clock)
    import_archive(other, hash_embedder, read_archive(export_project(store, "atlas"), 64 * 1024 * 1024), "admin")
    moved = other.notes.get("n-fact")
    assert (moved.slot, moved.contested, moved.keys, moved.namespace, moved.value) == (
        "slot-port", True, ["db-port"], "facts", '{"port":6543}',
    )
    store.batches.rollback(contest.batch_id, principal="admin")
    assert (store.notes.get("n-fact").slot, store.notes.get("n-fact").contested) == ("slot-port", False)
