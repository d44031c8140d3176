"""Export / import of a project round-trips notes and graph (also across embedders), bad archives
are 422s, and `reembed` rewrites every vector and the store's embedder record."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from conftest import make_settings
from reverie.cli import app
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder, spec_for
from reverie.errors import EmbedderMismatchError, ValidationError
from reverie.settings import EmbeddingSettings
from reverie.store import NoteFilter, Store
from serve.governance.transfer import export_project, import_archive, read_archive
from serving import seed_world

LIMIT = 64 * 1024 * 1024


def _graph(store: Store, batch_id: str) -> None:
    at = store.now()
    nodes = [{"project": "atlas", "node_id": n, "kind": k, "label": n, "attrs": "{}", "valid_from": at,
              "invalid_at": None, "batch_id": batch_id} for n, k in (("n-atlas-project", "note"), ("deploys", "subject"))]
    edges = [{"project": "atlas", "edge_id": "x1", "source": "n-atlas-project", "target": "deploys", "kind": "about",
              "attrs": "{}", "valid_from": at, "invalid_at": None, "batch_id": batch_id}]
    store.tables.write("graph_nodes", lambda t: t.add(pa.Table.from_pylist(nodes, schema=store.tables.schemas["graph_nodes"])))
    store.tables.write("graph_edges", lambda t: t.add(pa.Table.from_pylist(edges, schema=store.tables.schemas["graph_edges"])))


def _views(store: Store, project: str) -> dict[str, dict]:
    notes = store.notes.list(NoteFilter(project=project), limit=1000).notes
    return {n.note_id: n.model_dump(exclude={"version", "batch_id", "vector"}) for n in notes}


@pytest.fixture
def source(tmp_path: Path, clock: ManualClock) -> Store:
    settings = make_settings(tmp_path / "a")
    store = Store.open(settings.store, spec_for(settings.embedding), clock)
    world = seed_world(store, HashEmbedder(settings.embedding))
    _graph(store, world.batches["coder-1"])
    return store


def test_a_project_round_trips_into_another_store(source: Store, tmp_path: Path, clock: ManualClock) -> None:
    data = export_project(source, "atlas")
    settings = make_settings(tmp_path / "b")
    target = Store.open(settings.store, spec_for(settings.embedding), clock)
    result = import_archive(target, HashEmbedder(settings.embedding), read_archive(data, LIMIT), "admin")
    assert (result.notes, result.graph_nodes, result.graph_edges, result.reembedded) == (5, 2, 1, False)
    assert _views(target, "atlas") == _views(source, "atlas")
    vectors = target.notes.get_many(["n-team"], with_vector=True)["n-team"].vector
    assert np.allclose(vectors, source.notes.get_many(["n-team"], with_vector=True)["n-team"].vector)
    again = import_archive(target, HashEmbedder(settings.embedding), read_archive(data, LIMIT), "admin")
    assert (again.graph_nodes, again.graph_edges) == (0, 0)
    assert len(target.notes.list(NoteFilter(), limit=1000).notes) == 5
    assert target.batches.get(result.batch_id).kind == "import"
    target.batches.rollback(again.batch_id)
    assert _views(target, "atlas") == _views(source, "atlas")


def test_an_archive_of_another_embedder_is_embedded_again(source: Store, tmp_path: Path, clock: ManualClock) -> None:
    settings = make_settings(tmp_path / "c").model_copy(update={"embedding": EmbeddingSettings(provider="hash", hash_dim=64)})
    target = Store.open(settings.store, spec_for(settings.embedding), clock)
    embedder = HashEmbedder(settings.embedding)
    result = import_archive(target, embedder, read_archive(export_project(source, "orion"), LIMIT), "admin")
    assert result.reembedded and result.notes == 2
    hits = target.notes.search(embedder.embed(["Orion deploys need a change ticket"])[0], 1)
    assert hits[0][0].note_id == "n-orion-project" and hits[0][1] == pytest.approx(1.0, abs=1e-5)


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_bad_archives_are_validation_errors(source: Store) -> None:
    good = zipfile.ZipFile(io.BytesIO(export_project(source, "atlas")))
    members = {name: good.read(name) for name in good.namelist()}
    bad = [
        b"not a zip at all",
        _zip({k: v for k, v in members.items() if k != "notes.parquet"}),
        _zip({**members, "manifest.json": b"{"}),
        _zip({**members, "manifest.json": json.dumps({"format": "other"}).encode()}),
        _zip({**members, "notes.parquet": b"PAR1 broken"}),
    ]
    for data in bad:
        with pytest.raises(ValidationError):
            read_archive(data, LIMIT)


def test_reembed_rewrites_every_vector_and_the_embedder_record(source: Store, tmp_path: Path, clock: ManualClock) -> None:
    source.edit_note("n-team", {"confidence": 0.9}, principal="admin")  # a version with a vector
    old = source.notes.get_many(["n-team"], with_vector=True)["n-team"].vector
    uri = source.uri
    result = CliRunner().invoke(app, ["reembed", "--data", uri, "--provider", "minilm"])
    assert result.exit_code == 0, result.output
    assert "hash-sha256-384 (384) -> sentence-transformers/all-MiniLM-L6-v2 (384)" in " ".join(result.output.split())
    hashed = make_settings(uri)
    with pytest.raises(EmbedderMismatchError):
        Store.open(hashed.store, spec_for(hashed.embedding), clock)
    minilm = make_settings(uri, provider="minilm")
    store = Store.open(minilm.store, spec_for(minilm.embedding), clock)
    assert len(store.notes.list(NoteFilter(), limit=100).notes) == 7
    new = store.notes.get_many(["n-team"], with_vector=True)["n-team"].vector
    assert not np.allclose(old, new)
    versions = store.tables.read("note_versions")
    assert versions.num_rows >= 1 and not np.allclose(versions["vector"][0].as_py(), old)
    assert store.notes.history("n-team").versions[0].confidence == pytest.approx(0.6)
