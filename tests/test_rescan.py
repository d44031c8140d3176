"""``reverie privacy rescan``: a store written with masking off holds none of its secrets' bytes
after a rescan, in any file under its folder (old table versions included)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from factories import note, write
from privacy_corpus import load_corpus
from reverie.capture import CaptureRequest, prepare_events
from reverie.cli import app
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder, spec_for
from reverie.errors import ConfigError
from reverie.privacy import Masker
from reverie.records import Batch
from reverie.rescan import TEXT_TABLES, rescan
from reverie.settings import PrivacySettings, Settings
from reverie.store import Store, graph_node_id

CONTROL = "PLAINCONTROLMARKER7781"


def _secret_rows() -> list[tuple[str, list[str]]]:
    rows = load_corpus("heldout")
    return [(r["text"], r["canaries"]) for r in rows if r["canaries"]][:60]


def _bytes_under(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def _seed_in_clear(store: Store, settings: Settings, clock: ManualClock, embedder: HashEmbedder) -> list[str]:
    """Events, notes (and an edit, so note_versions holds an earlier view), an audit reason and
    graph rows, every one holding secrets, written with masking off."""
    off = Masker(PrivacySettings(enabled=False))
    secrets = _secret_rows()
    events = [{"role": "user", "text": text} for text, _ in secrets]
    events.append({"role": "user", "text": f"nothing secret {CONTROL}",
                   "candidate": {"type": "lesson", "subject": "deploy", "statement": secrets[0][0]}})
    request = CaptureRequest(agent_id="a1", session_id="s1", project="atlas", events=events)
    store.events.append(prepare_events(request, off, clock, settings.capture))
    store.vectors.backfill(embedder)  # vectors of the clear text, as capture would have written them
    first = note("n1", f"use {secrets[1][0]}", clock.now())
    store.batches.run("local", [write(first, embedder), write(note("n2", secrets[2][0], clock.now()), embedder)],
                      agent_id="a1", project="atlas")
    store.edit_note("n1", {"statement": f"now {secrets[3][0]}"}, principal="admin", reason=secrets[4][0],
                    vector=embedder.embed(["x"])[0])

    def graph(batch: Batch) -> None:
        store.graph_nodes.stage(batch, [{"project": "atlas", "node_id": graph_node_id("note", "n2"), "kind": "note",
                                         "label": secrets[5][0], "attrs": json.dumps({"text": secrets[6][0]})}])

    store.batches.run("mining", [], also=graph, project="atlas")
    return [c for _, canaries in secrets[:7] for c in canaries] + [c for _, cs in secrets for c in cs]


@pytest.fixture
def seeded(store: Store, settings: Settings, clock: ManualClock) -> tuple[Store, list[str]]:
    embedder = HashEmbedder(settings.embedding)
    canaries = _seed_in_clear(store, settings, clock, embedder)
    on_disk = _bytes_under(Path(settings.store.uri))
    assert sum(c.encode() in on_disk for c in canaries) >= 50, "the seed must write secrets in clear"
    return store, sorted(set(canaries))


def test_no_secret_byte_survives_a_rescan(seeded: tuple[Store, list[str]], settings: Settings) -> None:
    store, canaries = seeded
    result = rescan(store, HashEmbedder(settings.embedding), settings.privacy, principal="admin")
    on_disk = _bytes_under(Path(settings.store.uri))
    assert CONTROL.encode() in on_disk, "the byte search must be able to find plain text"
    assert [c for c in canaries if c.encode() in on_disk] == []
    assert result.changed["events"] == 61 and result.changed["notes"] == 2
    assert result.changed["note_versions"] >= 1 and result.changed["graph_nodes"] == 1
    assert result.changed["audit"] >= 1 and result.rules.startswith("gitleaks ")
    batch = store.batches.get(result.batch_id or "")
    assert batch.kind == "edit" and batch.stats["privacy_rescan"]["events"] == 61
    assert "[SECRET:" in store.notes.get("n1").statement or "[PII:" in store.notes.get("n1").statement
    embedder = HashEmbedder(settings.embedding)
    vectors, events = store.vectors.of_agent("a1"), store.events.query(agent_id="a1")
    assert len(vectors) == len(events) and all(np.allclose(vectors[e.event_id], embedder.embed([e.text])[0]) for e in events)
    assert rescan(store, HashEmbedder(settings.embedding), settings.privacy).total == 0


def test_rescanned_events_stay_duplicates_of_their_masked_retry(
    seeded: tuple[Store, list[str]], settings: Settings, clock: ManualClock,
) -> None:
    store, _ = seeded
    rescan(store, HashEmbedder(settings.embedding), settings.privacy)
    text, _ = _secret_rows()[0]
    retry = CaptureRequest(agent_id="a1", session_id="s1", project="atlas", events=[{"role": "user", "text": text}])
    again = store.events.append(prepare_events(retry, Masker(settings.privacy), clock, settings.capture))
    assert again.duplicates == 1 and again.accepted == 0


def test_a_rescan_with_masking_off_is_refused(store: Store, settings: Settings) -> None:
    with pytest.raises(ConfigError, match="masking is off"):
        rescan(store, HashEmbedder(settings.embedding), PrivacySettings(enabled=False))


def test_every_text_table_exists_in_the_schemas(store: Store) -> None:
    assert {t.name for t in TEXT_TABLES} <= set(store.tables.schemas)


def test_the_cli_rescans_a_store_folder(settings: Settings, clock: ManualClock,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store.open(settings.store, spec_for(settings.embedding), clock)
    off = Masker(PrivacySettings(enabled=False))
    request = CaptureRequest(agent_id="a1", session_id="s1", project="atlas",
                             events=[{"role": "user", "text": "the root password is Tr0ub4dor&3x"}])
    store.events.append(prepare_events(request, off, clock, settings.capture))
    monkeypatch.setenv("REVERIE_EMBEDDING__PROVIDER", "hash")
    out = CliRunner().invoke(app, ["privacy", "rescan", "--data", settings.store.uri])
    assert out.exit_code == 0, out.output
    assert "events 1" in out.output
    assert b"Tr0ub4dor&3x" not in _bytes_under(Path(settings.store.uri))
