"""``reverie reembed``: rewrite every vector of a store with another embedder, and record it.

Run it on a stopped service (nothing may write meanwhile). It first settles half-done batches with
the store's current embedder, then rewrites ``note_versions`` (vectors from each snapshot's
statement), empties ``event_vectors`` and ``turn_keys`` (of the old dimension) and last rewrites
``notes``, each table as one overwrite whose schema carries the new embedder's dimension — ``notes``
also its name, which is what the store checks on open, so the store switches embedder only when
every vector is new; then every event gets its vector again from its text, and every turn of a
consolidated session its contextual key. Old table versions are dropped. If it is interrupted, run
it again: it recomputes everything from the statements and the events.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from datetime import timedelta

import numpy as np
import pyarrow as pa

from reverie.embed import Embedder, EmbedderSpec
from reverie.errors import ConflictError
from reverie.note_context import embedding_text
from reverie.records import Note
from reverie.schemas import (
    EMBEDDER_DIM_KEY,
    EMBEDDER_NAME_KEY,
    event_vectors_schema,
    note_versions_schema,
    notes_schema,
    turn_keys_schema,
)
from reverie.settings import StoreSettings
from reverie.store import Store

CHUNK = 512


@dataclass(frozen=True)
class Reembedded:
    notes: int
    versions: int
    turns: int
    old: str
    new: str
    keys: int = 0


def stored_spec(settings: StoreSettings) -> EmbedderSpec:
    """The embedder a store was built with, read from its notes table."""
    import lancedb

    db = lancedb.connect(settings.uri, storage_options=settings.storage_options or None)
    meta = db.open_table("notes").schema.metadata or {}
    return EmbedderSpec(meta[EMBEDDER_NAME_KEY].decode(), int(meta[EMBEDDER_DIM_KEY].decode()))


def reembed_store(settings: StoreSettings, embedder: Embedder) -> Reembedded:
    old = stored_spec(settings)
    store = Store.open(settings, old)
    running = store.batches.list(statuses=["running", "queued", "yielded"])
    if running:
        raise ConflictError(
            f"{len(running)} batch(es) are still running; stop the service (and its agents) before re-embedding"
        )
    versions = _rewrite(store, "note_versions", note_versions_schema(embedder.dim), embedder, _snapshot_texts)
    store.tables.db.create_table("event_vectors", schema=event_vectors_schema(embedder.dim), mode="overwrite")
    store.tables.db.create_table("turn_keys", schema=turn_keys_schema(embedder.dim), mode="overwrite")
    notes = _rewrite(store, "notes", notes_schema(embedder.name, embedder.dim), embedder, _note_texts)
    fresh = Store.open(settings, EmbedderSpec(embedder.name, embedder.dim))
    turns = fresh.vectors.backfill(embedder)
    keys = fresh.keys.backfill(embedder, fresh.now())
    return Reembedded(notes, versions, turns, f"{old.name} ({old.dim})", f"{embedder.name} ({embedder.dim})", keys)


def _snapshot_texts(table: pa.Table) -> list[str]:
    notes = [Note.model_validate_json(s) for s in table["snapshot"].to_pylist()]
    return [embedding_text(n.statement, n.scope, n.type) for n in notes]


def _note_texts(table: pa.Table) -> list[str]:
    columns = (table[c].to_pylist() for c in ("statement", "scope", "type"))
    return [embedding_text(*row) for row in zip(*columns, strict=True)]


def _rewrite(store: Store, name: str, schema: pa.Schema, embedder: Embedder, texts_of) -> int:  # noqa: ANN001
    table = store.tables.read(name)
    texts = texts_of(table) if table.num_rows else []
    vectors = [embedder.embed(texts[i:i + CHUNK]) for i in range(0, len(texts), CHUNK)]
    matrix = np.concatenate(vectors) if vectors else np.zeros((0, embedder.dim), dtype=np.float32)
    column = pa.FixedSizeListArray.from_arrays(pa.array(matrix.reshape(-1), pa.float32()), embedder.dim)
    rewritten = table.drop_columns(["vector"]).append_column("vector", column).select(schema.names).cast(schema)
    store.tables.db.create_table(name, rewritten, schema=schema, mode="overwrite")
    handle = store.tables.db.open_table(name)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"optimize\(cleanup_older_than", category=UserWarning)
        handle.optimize(cleanup_older_than=timedelta(0))
    return table.num_rows
