from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path

import pyarrow as pa

from conftest import make_settings
from factories import event, note, write
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder, spec_for
from reverie.settings import Settings
from reverie.store import NoteFilter, Store

CANARY = "ZEBRACANARY7731"


def _grep(folder: Path, needle: str) -> list[str]:
    found = subprocess.run(["grep", "-rl", needle, str(folder)], capture_output=True, text=True)
    return found.stdout.split()


def test_versions_and_fragments_stay_bounded_under_many_small_writes(tmp_path: Path, clock: ManualClock) -> None:
    settings = make_settings(tmp_path / "s", compact_every_writes=10, keep_versions_for=timedelta(0))
    store = Store.open(settings.store, spec_for(settings.embedding), clock)
    emb = HashEmbedder(settings.embedding)
    for i in range(60):
        store.events.append([event(i, clock.now(), session=f"s{i % 3}")])
        if i % 6 == 0:
            store.batches.run("local", [write(note(f"n{i}", f"note {i}", clock.now()), emb)], agent_id="a1")
    stats = {s.name: s for s in store.maintenance.stats()}
    for name in ("events", "sessions", "notes", "batches"):
        assert stats[name].versions <= 12, (name, stats[name])
        assert stats[name].fragments <= 12, (name, stats[name])
    assert stats["events"].rows == 60
    assert len(store.notes.list(NoteFilter()).notes) == 10


def test_purge_removes_events_derived_notes_and_their_bytes(
    store: Store, hash_embedder: HashEmbedder, clock: ManualClock, settings: Settings,
) -> None:
    at = clock.now()
    store.events.append([event(1, at, text=f"my secret plan {CANARY}"), event(2, at, text="unrelated"),
                         event(3, at, text="prefer tables")])
    only = note("n1", f"Plan is {CANARY}", at, evidence=["e1"])
    mixed = note("n2", "Prefer tables", at, evidence=["e1", "e3"])
    other = note("n3", "Unrelated fact", at, evidence=["e2"])
    store.batches.run("local", [write(n, hash_embedder) for n in (only, mixed, other)], agent_id="a1")
    store.edit_note("n1", {"confidence": 0.9}, principal="rev")  # a note_versions snapshot with the canary
    names = pa.Table.from_pylist([{"project": "atlas", "fit_id": "f1", "updated_at": at, "labels": [0],
                                   "names": [f"plan {CANARY.lower()}"], "shared_names": [None]}],
                                 schema=store.tables.schemas["mining_names"])
    store.tables.write("mining_names", lambda t: t.add(names))  # a cluster named from the purged note's words
    folder = Path(settings.store.uri)
    assert _grep(folder, CANARY)
    result = store.maintenance.purge(event_ids=["e1"], principal="admin")
    assert (result.events, result.notes_deleted, result.notes_rederived) == (1, ["n1"], ["n2"])
    assert _grep(folder, CANARY) == [] and _grep(folder, CANARY.lower()) == []
    assert store.tables["mining_names"].count_rows() == 0  # rebuilt by the next mining run
    assert [e.event_id for e in store.events.query(agent_id="a1")] == ["e2", "e3"]
    assert store.notes.get("n2").evidence == ["e3"]
    assert {n.note_id for n in store.notes.list(NoteFilter()).notes} == {"n2", "n3"}


def test_purge_of_an_agent_removes_its_sessions(store: Store, clock: ManualClock) -> None:
    store.events.append([event(1, clock.now()), event(2, clock.now(), agent="a2", session="s2")])
    result = store.maintenance.purge(agent_id="a1")
    assert result.sessions == ["s1"]
    assert [s.agent_id for s in store.events.sessions()] == ["a2"]
