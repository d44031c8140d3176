"""Event vectors: computed once per event, backfilled for old stores (a store written by c905156),
rewritten by ``reembed``, and gone with a purged event (its bytes too)."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from conftest import ROOT, make_settings
from reverie.cli import app
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder, spec_for
from reverie.records import Event
from reverie.store import Store

OLD_STORE = ROOT / "tests" / "data" / "stores" / "c905156"
AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _events(*texts: str, agent: str = "coder-1") -> list[Event]:
    return [Event(event_id=f"{agent}-e{i}", agent_id=agent, session_id=f"s-{agent}", project="atlas", ts=AT, role="user",
                  text=text, ingested_at=AT) for i, text in enumerate(texts)]


def test_a_vector_is_written_once_and_the_backfill_writes_only_what_is_missing(store: Store, hash_embedder: HashEmbedder) -> None:
    events = _events("Deploys need the VPN.", "Invoices are rounded to 2 decimals.", "Staging resets on Sundays.")
    store.events.append(events)
    first = [(e.agent_id, e.event_id) for e in events[:1]]
    assert store.vectors.write(first, hash_embedder.embed([events[0].text])) == 1
    assert store.vectors.write(first, hash_embedder.embed([events[0].text])) == 0  # a retried capture adds nothing
    assert [m[1] for m in store.vectors.missing()] == ["coder-1-e1", "coder-1-e2"]
    assert store.vectors.backfill(hash_embedder) == 2
    assert store.vectors.backfill(hash_embedder) == 0
    stored = store.vectors.of_agent("coder-1")
    assert sorted(stored) == [e.event_id for e in events]
    assert np.allclose(stored["coder-1-e1"], hash_embedder.embed([events[1].text])[0])


def test_a_store_written_by_c905156_is_migrated(tmp_path: Path) -> None:
    uri = tmp_path / "old"
    shutil.copytree(OLD_STORE, uri)
    result = CliRunner().invoke(app, ["store", "migrate", "--data", str(uri)], env={"REVERIE_EMBEDDING__PROVIDER": "hash"})
    assert result.exit_code == 0, result.output
    assert "4 event vectors and 0 contextual keys written" in " ".join(result.output.split())  # nothing consolidated
    again = CliRunner().invoke(app, ["store", "migrate", "--data", str(uri)], env={"REVERIE_EMBEDDING__PROVIDER": "hash"})
    assert "0 event vectors and 0 contextual keys written" in " ".join(again.output.split())
    settings = make_settings(uri)
    store = Store.open(settings.store, spec_for(settings.embedding), ManualClock(AT))
    texts = {e.event_id: e.text for e in store.events.query(agent_id="coder-1")}
    stored = store.vectors.of_agent("coder-1")
    assert sorted(stored) == sorted(texts) and len(texts) == 4
    embedder = HashEmbedder(settings.embedding)
    assert all(np.allclose(stored[i], embedder.embed([t])[0]) for i, t in texts.items())


def test_purging_an_event_removes_its_vector_and_its_bytes(store: Store, hash_embedder: HashEmbedder) -> None:
    events = _events("The vault token is rotated on Mondays.", "Keep this one.")
    store.events.append(events)
    store.vectors.backfill(hash_embedder)
    secret = hash_embedder.embed([events[0].text])[0].astype(np.float32).tobytes()
    store.maintenance.purge(event_ids=["coder-1-e0"], principal="admin")
    assert sorted(store.vectors.of_agent("coder-1")) == ["coder-1-e1"]
    files = [p for p in Path(store.uri, "event_vectors.lance").rglob("*") if p.is_file()]
    assert files and not any(secret[:64] in p.read_bytes() for p in files)


def test_reembed_rewrites_the_event_vectors_with_the_new_embedder(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "s")
    store = Store.open(settings.store, spec_for(settings.embedding), ManualClock(AT))
    store.events.append(_events("Deploys need the VPN.", "Staging resets on Sundays."))
    store.vectors.backfill(HashEmbedder(settings.embedding))
    result = CliRunner().invoke(app, ["reembed", "--data", store.uri, "--provider", "minilm"])
    assert result.exit_code == 0, result.output
    assert "2 event vectors" in " ".join(result.output.split())
    minilm = make_settings(store.uri, provider="minilm")
    reopened = Store.open(minilm.store, spec_for(minilm.embedding), ManualClock(AT))
    assert reopened.vectors.missing() == []
    vectors = reopened.vectors.of_agent("coder-1")
    assert len(vectors) == 2 and all(abs(float(np.linalg.norm(v)) - 1.0) < 1e-4 for v in vectors.values())
