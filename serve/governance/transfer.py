"""Export and import of a project's notes and graph, so a deployment can be backed up and moved.

The archive is a ZIP of Parquet files plus a manifest::

    manifest.json      {"format": "reverie-export", "version": 1, "project", "exported_at",
                        "embedder": {"name", "dim"}, "counts": {...}}
    notes.parquet      the current view of every note of the project, vectors included
    graph_nodes.parquet, graph_edges.parquet   the project's committed graph rows

Import writes every note as a new version under one ``import`` batch (audited, rolled back as a
whole), and the graph rows under the same batch id, so nothing of a failed import is ever visible.
Notes keep their ids (importing twice is harmless: the second adds versions, not twins; graph rows
already present are skipped). When the archive was written with another embedder, the statements
are embedded again with this store's embedder. Raw events and note histories stay behind.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pydantic import ValidationError as PydanticValidationError

from reverie.api import ImportResult
from reverie.errors import NotFoundError, ValidationError
from reverie.note_context import embedding_text
from reverie.records import Note
from reverie.store import LedgerFilter, NoteFilter, NoteWrite, Store
from reverie.store.rows import note_from_row, rows
from reverie.store.vectors import TextEmbedder

FORMAT = "reverie-export"
VERSION = 1
GRAPH_TABLES = ("graph_nodes", "graph_edges")
GRAPH_KEYS = {"graph_nodes": "node_id", "graph_edges": "edge_id"}
MEMBERS = ("manifest.json", "notes.parquet", *(f"{t}.parquet" for t in GRAPH_TABLES))


# --- export ------------------------------------------------------------------------------------
def export_project(store: Store, project: str) -> bytes:
    notes = store.notes.frame(NoteFilter(project=project)).drop_columns(["tombstone"])
    graph = {name: committed_rows(store, name, project) for name in GRAPH_TABLES}
    if notes.num_rows == 0 and all(t.num_rows == 0 for t in graph.values()):
        raise NotFoundError(f"project {project!r} has no notes and no graph to export")
    manifest = {
        "format": FORMAT, "version": VERSION, "project": project, "exported_at": store.now().isoformat(),
        "embedder": {"name": store.tables.spec.name, "dim": store.tables.spec.dim},
        "counts": {"notes": notes.num_rows, **{n: t.num_rows for n, t in graph.items()}},
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest, indent=2))
        for name, table in {"notes": notes, **graph}.items():
            archive.writestr(f"{name}.parquet", _parquet(table))
    return out.getvalue()


def committed_rows(store: Store, name: str, project: str) -> pa.Table:
    """Rows of a graph table of ``project`` whose batch is committed (what readers may see)."""
    ledger = {"graph_nodes": store.graph_nodes, "graph_edges": store.graph_edges}[name]
    table = ledger.stored(LedgerFilter(project=project))
    if table.num_rows == 0:
        return table
    shown = {b.batch_id for b in store.batches.list(statuses=["committed", "rolled_back"])}
    return table.filter(pc.is_in(table["batch_id"], pa.array(sorted(shown), pa.string())))


def _parquet(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


# --- import ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Archive:
    manifest: dict[str, Any]
    notes: pa.Table
    graph: dict[str, pa.Table]

    @property
    def project(self) -> str:
        return str(self.manifest["project"])


def read_archive(data: bytes, max_bytes: int) -> Archive:
    """Open and check an export archive; every problem is a 422 naming what is wrong."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise ValidationError("the body is not a ZIP archive; send the file `reverie export` wrote") from exc
    with archive:
        sizes = {info.filename: info.file_size for info in archive.infolist()}
        missing = [m for m in MEMBERS if m not in sizes]
        if missing:
            raise ValidationError(f"the archive lacks {', '.join(missing)}; send the file `reverie export` wrote")
        if sum(sizes[m] for m in MEMBERS) > max_bytes * 8:
            raise ValidationError("the archive unpacks to more than 8 times the import limit; split the project")
        manifest = _manifest(archive.read("manifest.json"))
        tables = {m.removesuffix(".parquet"): _table(archive.read(m), m) for m in MEMBERS[1:]}
    return Archive(manifest, tables.pop("notes"), tables)


def _manifest(raw: bytes) -> dict[str, Any]:
    try:
        manifest = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValidationError("manifest.json is not JSON; send the file `reverie export` wrote") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise ValidationError(f"manifest.json is not a {FORMAT} version {VERSION} manifest")
    embedder = manifest.get("embedder")
    if not isinstance(manifest.get("project"), str) or not isinstance(embedder, dict):
        raise ValidationError("manifest.json lacks its project or embedder")
    return manifest


def _table(raw: bytes, member: str) -> pa.Table:
    try:
        return pq.read_table(io.BytesIO(raw))
    except (pa.ArrowException, OSError) as exc:
        raise ValidationError(f"{member} is not a Parquet file; send the file `reverie export` wrote") from exc


def import_archive(store: Store, embedder: TextEmbedder, archive: Archive, principal: str) -> ImportResult:
    notes = _notes(archive.notes, archive.project)
    vectors, reembedded = _vectors(store, embedder, archive, notes)
    writes = [NoteWrite(n, "import", "imported", v) for n, v in zip(notes, vectors, strict=True)]
    batch = store.batches.begin("import", project=archive.project, principal=principal,
                                stats={"notes": len(notes), "reembedded": reembedded})
    try:
        staged = store.batches.stage(batch, writes)
        counts = {name: _stage_graph(store, name, archive.graph[name], archive.project, batch.batch_id) for name in GRAPH_TABLES}
        store.batches.commit(staged, {**counts})
    except BaseException:
        store.batches.abort(batch.batch_id)
        raise
    return ImportResult(project=archive.project, notes=len(notes), graph_nodes=counts["graph_nodes"],
                        graph_edges=counts["graph_edges"], batch_id=batch.batch_id, reembedded=reembedded)


def _notes(table: pa.Table, project: str) -> list[Note]:
    found = []
    for index, row in enumerate(rows(table.drop_columns([c for c in ("vector", "tombstone") if c in table.column_names]))):
        try:
            note = note_from_row(row)
        except PydanticValidationError as exc:
            where = ".".join(str(p) for p in exc.errors()[0]["loc"])
            raise ValidationError(f"note row {index} of notes.parquet is invalid at {where}", field=where) from exc
        if note.project not in (project, None):
            raise ValidationError(f"note row {index} belongs to another project than the manifest's", field="project")
        found.append(note)
    return found


def _vectors(store: Store, embedder: TextEmbedder, archive: Archive, notes: Sequence[Note]) -> tuple[list[np.ndarray], bool]:
    spec = store.tables.spec
    same = archive.manifest["embedder"] == {"name": spec.name, "dim": spec.dim} and "vector" in archive.notes.column_names
    if same:
        vectors = [np.asarray(v if v is not None else [], dtype=np.float32) for v in archive.notes["vector"].to_pylist()]
        if any(v.shape != (spec.dim,) for v in vectors):
            raise ValidationError(f"a vector of notes.parquet is not {spec.dim} floats; re-export the project", field="vector")
        return vectors, False
    if not notes:
        return [], True
    return list(embedder.embed([embedding_text(n.statement, n.scope, n.type) for n in notes])), True


def _stage_graph(store: Store, name: str, table: pa.Table, project: str, batch_id: str) -> int:
    """Append the archive's graph rows under ``batch_id``, skipping rows the project already has."""
    if table.num_rows == 0:
        return 0
    schema = store.tables.schemas[name]
    key = GRAPH_KEYS[name]
    present = set(committed_rows(store, name, project)[key].to_pylist())
    fresh = [r for r in rows(table) if r.get(key) not in present]
    for row in fresh:
        row.update(project=project, batch_id=batch_id)
    try:
        data = pa.Table.from_pylist([{f: r.get(f) for f in schema.names} for r in fresh], schema=schema)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise ValidationError(f"{name}.parquet does not fit the {name} table; send the file `reverie export` wrote") from exc
    if data.num_rows:
        store.tables.write(name, lambda t: t.add(data))
    return data.num_rows
