"""Four real OS processes write one store at once: nothing acknowledged is lost or duplicated."""

from __future__ import annotations

import multiprocessing as mp
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from conftest import make_settings
from reverie.clock import SystemClock
from reverie.embed import HashEmbedder, spec_for
from reverie.errors import BatchConflictError
from reverie.records import Event, Note
from reverie.store import NoteFilter, NoteWrite, Store

WORKERS = 4
ROUNDS = 5


def _event(agent: str, i: int) -> Event:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Event(event_id=f"e{i}", agent_id=agent, session_id=f"s-{agent}", project="atlas",
                 ts=at, role="user", text=f"shared event {i}", ingested_at=at)


def _note(note_id: str, text: str) -> Note:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Note(note_id=note_id, type="lesson", subject="s", statement=text, scope="project:atlas",
                project="atlas", evidence=["e1"], created_at=at, updated_at=at)


def _commit_shared(store: Store, emb: HashEmbedder, worker: int, rnd: int) -> str | None:
    for _ in range(30):
        text = f"shared note by {worker} round {rnd}"
        try:
            own = _note(f"w{worker}-r{rnd}", f"own note {worker} {rnd}")
            writes = [NoteWrite(own, "add", vector=emb.embed([own.statement])[0]),
                      NoteWrite(_note("shared", text), "merge", vector=emb.embed([text])[0])]
            return store.batches.run("local", writes, agent_id=f"w{worker}").batch_id
        except BatchConflictError:
            continue
    return None


def _worker(uri: str, worker: int, out: mp.Queue) -> None:
    settings = make_settings(uri)
    store = Store.open(settings.store, spec_for(settings.embedding), SystemClock())
    emb = HashEmbedder(settings.embedding)
    accepted, committed = [], []
    for rnd in range(ROUNDS):
        agent = f"agent{rnd % 2}"  # every worker writes the same agents' events: overlapping ids
        result = store.events.append([_event(agent, i) for i in range(rnd * 3, rnd * 3 + 6)])
        accepted += [(agent, e) for e in result.event_ids]
        batch_id = _commit_shared(store, emb, worker, rnd)
        if batch_id:
            committed.append(batch_id)
    out.put((worker, accepted, committed))


def test_four_processes_lose_nothing_and_duplicate_nothing(tmp_path: Path) -> None:
    uri = str(tmp_path / "store")
    settings = make_settings(uri)
    Store.open(settings.store, spec_for(settings.embedding))
    ctx = mp.get_context("spawn")
    out: mp.Queue = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(uri, w, out)) for w in range(WORKERS)]
    for p in procs:
        p.start()
    results = [out.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    store = Store.open(settings.store, spec_for(settings.embedding))
    stored = Counter((r["agent_id"], r["event_id"]) for r in store.tables.read("events").to_pylist())
    acknowledged = {pair for _, accepted, _ in results for pair in accepted}
    assert set(stored) == acknowledged
    assert max(stored.values()) == 1
    committed = [b for _, _, batches in results for b in batches]
    assert len(committed) == WORKERS * ROUNDS
    assert {b.status for b in store.batches.list(kinds=["local"]) if b.batch_id in committed} == {"committed"}
    views = store.notes.list(NoteFilter(), limit=1000).notes
    assert sorted(n.note_id for n in views) == sorted(["shared", *(f"w{w}-r{r}" for w in range(WORKERS) for r in range(ROUNDS))])
    assert store.notes.get("shared").version == WORKERS * ROUNDS
    assert store.tables.read("notes", "tombstone = false").num_rows == len(views)
