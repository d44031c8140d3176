"""The Arrow schema of every LanceDB table, in one place.

Columns mirror ``reverie.records``; a few storage-only columns are added (``content_hash`` on
events, ``tombstone`` on notes) and nested values are JSON strings (``candidate``, ``stats``,
``attrs``). The embedder's name and dimension live in the notes table's schema metadata.
"""

from __future__ import annotations

import pyarrow as pa

TIME = pa.timestamp("us", tz="UTC")
IDS = pa.list_(pa.string())

EMBEDDER_NAME_KEY = b"reverie.embedder.name"
EMBEDDER_DIM_KEY = b"reverie.embedder.dim"
SCHEMA_VERSION_KEY = b"reverie.schema.version"
SCHEMA_VERSION = b"3"  # 2: notes.slot and notes.contested; 3: notes.keys, namespace, value (added to older stores on open)


def _schema(fields: list[pa.Field], metadata: dict[bytes, bytes] | None = None) -> pa.Schema:
    return pa.schema(fields, metadata={SCHEMA_VERSION_KEY: SCHEMA_VERSION, **(metadata or {})})


EVENTS = _schema([
    pa.field("event_id", pa.string(), nullable=False),
    pa.field("agent_id", pa.string(), nullable=False),
    pa.field("session_id", pa.string(), nullable=False),
    pa.field("project", pa.string(), nullable=False),
    pa.field("module", pa.string()),
    pa.field("ts", TIME, nullable=False),
    pa.field("role", pa.string(), nullable=False),
    pa.field("kind", pa.string(), nullable=False),
    pa.field("text", pa.string(), nullable=False),
    pa.field("tags", IDS),
    pa.field("importance", pa.float32()),
    pa.field("verified", pa.bool_()),
    pa.field("ingested_at", TIME, nullable=False),
    pa.field("candidate", pa.string()),
    pa.field("content_hash", pa.string(), nullable=False),
])

SESSIONS = _schema([
    pa.field("session_id", pa.string(), nullable=False),
    pa.field("agent_id", pa.string(), nullable=False),
    pa.field("project", pa.string(), nullable=False),
    pa.field("module", pa.string()),
    pa.field("started_at", TIME, nullable=False),
    pa.field("ended_at", TIME),
    pa.field("n_events", pa.int64()),
    pa.field("consolidated_by", pa.string()),
])


def notes_schema(embedder_name: str, dim: int) -> pa.Schema:
    return _schema(
        [
            pa.field("note_id", pa.string(), nullable=False),
            pa.field("type", pa.string(), nullable=False),
            pa.field("subject", pa.string(), nullable=False),
            pa.field("statement", pa.string(), nullable=False),
            pa.field("scope", pa.string(), nullable=False),
            pa.field("owner_agent", pa.string()),
            pa.field("project", pa.string()),
            pa.field("module", pa.string()),
            pa.field("evidence", IDS),
            pa.field("source_sessions", IDS),
            pa.field("source_agents", IDS),
            pa.field("confidence", pa.float32()),
            pa.field("tags", IDS),
            pa.field("verified", pa.bool_()),
            pa.field("specificity", pa.string()),
            pa.field("polarity", pa.int8()),
            pa.field("status", pa.string(), nullable=False),
            pa.field("version", pa.int64(), nullable=False),
            pa.field("created_at", TIME),
            pa.field("updated_at", TIME),
            pa.field("last_verified_at", TIME),
            pa.field("last_seen_at", TIME),
            pa.field("valid_from", TIME),
            pa.field("invalid_at", TIME),
            pa.field("expires_at", TIME),
            pa.field("hit_count", pa.int64()),
            pa.field("supersedes", IDS),
            pa.field("superseded_by", pa.string()),
            pa.field("conflicts_with", IDS),
            pa.field("slot", pa.string()),
            pa.field("contested", pa.bool_()),
            pa.field("keys", IDS),
            pa.field("namespace", pa.string()),
            pa.field("value", pa.string()),
            pa.field("batch_id", pa.string(), nullable=False),
            pa.field("tombstone", pa.bool_()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ],
        {EMBEDDER_NAME_KEY: embedder_name.encode(), EMBEDDER_DIM_KEY: str(dim).encode()},
    )


#: Columns added to ``notes`` after schema version 1, with the SQL that fills them in older stores, or
#: the Arrow field of an all-null column where SQL has no literal of its type (lists).
NOTE_COLUMNS_ADDED: dict[str, str | pa.Field] = {
    "slot": "CAST(NULL AS STRING)", "contested": "false",
    "keys": pa.field("keys", IDS), "namespace": "CAST(NULL AS STRING)", "value": "CAST(NULL AS STRING)",
}


def note_versions_schema(dim: int) -> pa.Schema:
    """Earlier views: ``snapshot`` is the view's JSON (without its vector, kept beside it)."""
    return _schema([
        pa.field("note_id", pa.string(), nullable=False),
        pa.field("version", pa.int64(), nullable=False),
        pa.field("snapshot", pa.string(), nullable=False),
        pa.field("batch_id", pa.string(), nullable=False),
        pa.field("changed_at", TIME),
        pa.field("reason", pa.string()),
        pa.field("vector", pa.list_(pa.float32(), dim)),
    ])

def event_vectors_schema(dim: int) -> pa.Schema:
    """One vector per captured event, computed once (at capture, or by the backfill); events
    themselves are never rewritten, so their vectors live here, keyed by agent and event."""
    return _schema([
        pa.field("agent_id", pa.string(), nullable=False),
        pa.field("event_id", pa.string(), nullable=False),
        pa.field("vector", pa.list_(pa.float32(), dim)),
    ])


def turn_keys_schema(dim: int) -> pa.Schema:
    """Each consolidated turn's contextual key (DESIGN §4.6): its session's day, speaker, the turn
    before it (``follows``) and its own text with relative dates resolved; the days it speaks of
    (``span_start`` … ``span_end``, the session's day first) and the key's vector. Keyed by agent
    and event like ``event_vectors``: events are never rewritten."""
    return _schema([
        pa.field("agent_id", pa.string(), nullable=False),
        pa.field("event_id", pa.string(), nullable=False),
        pa.field("follows", pa.string()),
        pa.field("key", pa.string(), nullable=False),
        pa.field("span_start", pa.list_(pa.date32())),
        pa.field("span_end", pa.list_(pa.date32())),
        pa.field("written_at", TIME, nullable=False),
        pa.field("vector", pa.list_(pa.float32(), dim)),
    ])


BATCHES = _schema([
    pa.field("batch_id", pa.string(), nullable=False),
    pa.field("kind", pa.string(), nullable=False),
    pa.field("status", pa.string(), nullable=False),
    pa.field("agent_id", pa.string()),
    pa.field("project", pa.string()),
    pa.field("principal", pa.string()),
    pa.field("created_at", TIME),
    pa.field("updated_at", TIME),
    pa.field("committed_at", TIME),
    pa.field("session_ids", IDS),
    pa.field("note_ids", IDS),
    pa.field("rolls_back", pa.string()),
    pa.field("rolled_back_by", pa.string()),
    pa.field("finalized_at", TIME),
    pa.field("stats", pa.string()),
])

AUDIT = _schema([
    pa.field("audit_id", pa.string(), nullable=False),
    pa.field("ts", TIME),
    pa.field("principal", pa.string()),
    pa.field("action", pa.string(), nullable=False),
    pa.field("note_id", pa.string()),
    pa.field("batch_id", pa.string()),
    pa.field("reason", pa.string()),
])

# Rows of the graph and of the review queue carry the batch that wrote them and a write sequence:
# a reader keeps, per key, the newest row of a committed batch (see ``reverie.store.ledger``). A row
# written without ``seq`` (an import that copies rows as they are) counts as the oldest.
GRAPH_NODES = _schema([
    pa.field("project", pa.string(), nullable=False),
    pa.field("node_id", pa.string(), nullable=False),
    pa.field("kind", pa.string(), nullable=False),
    pa.field("label", pa.string()),
    pa.field("attrs", pa.string()),
    pa.field("valid_from", TIME),
    pa.field("invalid_at", TIME),
    pa.field("batch_id", pa.string(), nullable=False),
    pa.field("seq", pa.int64()),
])

GRAPH_EDGES = _schema([
    pa.field("project", pa.string(), nullable=False),
    pa.field("edge_id", pa.string(), nullable=False),
    pa.field("source", pa.string(), nullable=False),
    pa.field("target", pa.string(), nullable=False),
    pa.field("kind", pa.string(), nullable=False),
    pa.field("attrs", pa.string()),
    pa.field("valid_from", TIME),
    pa.field("invalid_at", TIME),
    pa.field("batch_id", pa.string(), nullable=False),
    pa.field("seq", pa.int64()),
])

REVIEW_ITEMS = _schema([
    pa.field("item_id", pa.string(), nullable=False),
    pa.field("project", pa.string(), nullable=False),
    pa.field("pattern_id", pa.string(), nullable=False),
    pa.field("reasons", IDS),
    pa.field("status", pa.string(), nullable=False),
    pa.field("details", pa.string()),
    pa.field("run_id", pa.string()),
    pa.field("created_at", TIME),
    pa.field("decided_at", TIME),
    pa.field("reviewer", pa.string()),
    pa.field("decision_reason", pa.string()),
    pa.field("batch_id", pa.string(), nullable=False),
    pa.field("seq", pa.int64()),
])

# Mining state that is not knowledge: run records with their checkpoint, the fitted model of each
# project (pickled reducer and clusterer, for incremental assignment) and the 2-D map of its notes.
MINING_RUNS = _schema([
    pa.field("run_id", pa.string(), nullable=False),
    pa.field("project", pa.string(), nullable=False),
    pa.field("status", pa.string(), nullable=False),
    pa.field("mode", pa.string(), nullable=False),
    pa.field("principal", pa.string()),
    pa.field("created_at", TIME),
    pa.field("updated_at", TIME),
    pa.field("started_at", TIME),
    pa.field("not_before", TIME),
    pa.field("cursor", pa.int64()),
    pa.field("units", pa.int64()),
    pa.field("attempts", pa.int64()),
    pa.field("result", pa.string()),
    pa.field("error", pa.string()),
])

MINING_PLANS = _schema([
    pa.field("run_id", pa.string(), nullable=False),
    pa.field("project", pa.string(), nullable=False),
    pa.field("plan", pa.large_string(), nullable=False),
])

MINING_MODELS = _schema([
    pa.field("project", pa.string(), nullable=False),
    pa.field("fit_id", pa.string(), nullable=False),
    pa.field("fitted_at", TIME),
    pa.field("note_ids", IDS),
    pa.field("labels", pa.list_(pa.int32())),
    pa.field("model", pa.large_binary()),
])

MINING_MAPS = _schema([
    pa.field("project", pa.string(), nullable=False),
    pa.field("fit_id", pa.string(), nullable=False),
    pa.field("updated_at", TIME),
    pa.field("note_ids", IDS),
    pa.field("x", pa.list_(pa.float32())),
    pa.field("y", pa.list_(pa.float32())),
    pa.field("labels", pa.list_(pa.int32())),
])

MINING_NAMES = _schema([  # a table of its own (not columns of mining_maps): older stores gain it on open
    pa.field("project", pa.string(), nullable=False),
    pa.field("fit_id", pa.string(), nullable=False),
    pa.field("updated_at", TIME),
    pa.field("labels", pa.list_(pa.int32())),
    pa.field("names", pa.list_(pa.string())),
    pa.field("shared_names", pa.list_(pa.string())),
])

RETRIEVALS = _schema([
    pa.field("retrieval_id", pa.string(), nullable=False),
    pa.field("principal", pa.string(), nullable=False),
    pa.field("agent_id", pa.string(), nullable=False),
    pa.field("project", pa.string()),
    pa.field("ts", TIME, nullable=False),
    pa.field("note_ids", IDS),
    pa.field("used", IDS),
    pa.field("unused", IDS),
    pa.field("wrong", IDS),
    pa.field("feedback_at", TIME),
])

LOCKS = _schema([
    pa.field("name", pa.string(), nullable=False),
    pa.field("holder", pa.string()),
    pa.field("expires_ns", pa.int64()),
])

FIXED_TABLES: dict[str, pa.Schema] = {
    "locks": LOCKS,
    "events": EVENTS,
    "sessions": SESSIONS,
    "batches": BATCHES,
    "audit": AUDIT,
    "graph_nodes": GRAPH_NODES,
    "graph_edges": GRAPH_EDGES,
    "retrievals": RETRIEVALS,
    "review_items": REVIEW_ITEMS,
    "mining_runs": MINING_RUNS,
    "mining_plans": MINING_PLANS,
    "mining_models": MINING_MODELS,
    "mining_maps": MINING_MAPS,
    "mining_names": MINING_NAMES,
}
