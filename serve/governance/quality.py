"""The memory quality metrics of DESIGN §8 (seed 004's table) and their alerts, computed from the store.

Over the notes of the given projects (all when ``None``):

- ``deduplication_rate``: merges / (adds + merges) in committed consolidation batches (the share of
  candidate memories judged duplicates);
- ``redundant_share``: of up to ``serve.metrics_sample`` active notes, the share that a greedy pass
  would merge into an earlier note of the same scope (cosine ≥ ``consolidation.duplicate_similarity``):
  highly similar but unmerged notes / notes;
- ``conflict_rate``: active ``open_question`` notes (contradictions detected but unresolved) / active notes;
- ``overturned_share``: superseded notes / notes;
- ``context_savings``: 1 − bytes of the statements of active notes created in the window / bytes of
  the events captured in the window (how much smaller the distilled memory is than the raw log);
- ``top5_hit_rate``: over retrievals given feedback in the window, the share of the (up to 5) first
  returned notes marked used; the ``baseline`` is the same rate over feedback before the window;
- ``store_fill``: the fullest agent's kept notes / ``consolidation.max_notes_per_agent``;
- consolidation runs and their mean duration, mining runs, new notes in the window, store bytes;
- ``layers``: the items and tokens this replica's retrievals returned per layer (notes, summaries,
  turns) since it started, so an operator sees what memory is made of.

Alerts (``alerts.*``): store fill, new notes per week, redundant share, a top-5 hit-rate drop against
the baseline, conflict rate (a human spot-check is due).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from reverie.api import LayerUse, MemoryMetrics, MetricAlert
from reverie.records import Batch
from reverie.settings import Settings
from reverie.store import EventFilter, NoteFilter, Store
from reverie.store.rows import rows

if TYPE_CHECKING:
    from serve.services import Services

KEPT = ("active", "candidate", "quarantined")


def memory_metrics(services: Services, projects: Sequence[str] | None) -> MemoryMetrics:
    layers = services.telemetry.layers
    use = LayerUse(retrievals=layers.retrievals, items=dict(layers.items), tokens=dict(layers.tokens),
                   cached_turns=services.recaller.turns.turns(), turn_cache_bytes=services.recaller.turns.memory_bytes())
    return compute(services.store, services.settings, projects).model_copy(update={"layers": use})


def compute(store: Store, settings: Settings, projects: Sequence[str] | None) -> MemoryMetrics:
    now = store.now()
    since = now - settings.serve.metrics_window
    notes = _notes(store, projects)
    batches = [b for b in store.batches.list(statuses=["committed", "rolled_back"])
               if projects is None or b.project in projects]
    local = [b for b in batches if b.kind == "local"]
    hit, baseline = _hit_rates(store, projects, since)
    values = {
        "notes": notes.num_rows,
        "active_notes": _count(notes, "status", ["active"]),
        "new_notes_week": int(pc.sum(_created_since(notes, since)).as_py() or 0),
        "store_fill": _fill(notes, settings.consolidation.max_notes_per_agent),
        "store_bytes": sum(s.bytes for s in store.maintenance.stats()) if projects is None else None,
        "deduplication_rate": _dedup_rate(store, [b.batch_id for b in local]),
        "redundant_share": _redundant(notes, settings),
        "conflict_rate": _ratio(_count(notes, "type", ["open_question"], active=True), _count(notes, "status", ["active"])),
        "overturned_share": _ratio(_count(notes, "status", ["superseded"]), notes.num_rows),
        "context_savings": _savings(store, notes, projects, since),
        "top5_hit_rate": hit,
        "top5_hit_rate_baseline": baseline,
        "consolidation_runs": len(local),
        "consolidation_seconds_mean": _mean_seconds(local),
        "mining_runs": sum(1 for b in batches if b.kind == "mining"),
    }
    return MemoryMetrics(projects=list(projects) if projects is not None else None, alerts=alerts(values, settings), **values)


def _notes(store: Store, projects: Sequence[str] | None) -> pa.Table:
    columns = ["note_id", "status", "type", "scope", "owner_agent", "created_at", "vector"]
    return store.notes.frame(NoteFilter(projects=projects), columns=columns)


def _created_since(notes: pa.Table, since: datetime) -> pa.ChunkedArray:
    """A mask of the notes created at or after ``since``."""
    return pc.greater_equal(notes["created_at"], pa.scalar(since, notes.schema.field("created_at").type))


def _count(notes: pa.Table, column: str, values: list[str], *, active: bool = False) -> int:
    mask = pc.is_in(notes[column], pa.array(values))
    if active:
        mask = pc.and_(mask, pc.equal(notes["status"], "active"))
    return int(pc.sum(mask).as_py() or 0)


def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _fill(notes: pa.Table, cap: int) -> float:
    kept = notes.filter(pc.is_in(notes["status"], pa.array(KEPT)))
    owners = [o for o in kept["owner_agent"].to_pylist() if o is not None]
    if not owners:
        return 0.0
    _, counts = np.unique(np.array(owners), return_counts=True)
    return float(counts.max()) / cap


def _dedup_rate(store: Store, batch_ids: list[str]) -> float | None:
    if not batch_ids:
        return None
    actions = store.notes.audit_actions(batch_ids)
    merges = actions.count("merge")
    return _ratio(merges, merges + actions.count("add"))


def _redundant(notes: pa.Table, settings: Settings) -> float | None:
    active = notes.filter(pc.equal(notes["status"], "active"))
    if active.num_rows == 0:
        return None
    active = active.slice(0, settings.serve.metrics_sample)
    vectors = np.asarray(active["vector"].to_pylist(), dtype=np.float32)
    scopes = np.array(active["scope"].to_pylist())
    redundant = 0
    for scope in np.unique(scopes):
        redundant += _greedy_merges(vectors[scopes == scope], settings.consolidation.duplicate_similarity)
    return redundant / active.num_rows


def _greedy_merges(vectors: np.ndarray, threshold: float) -> int:
    similar = vectors @ vectors.T >= threshold
    kept: list[int] = []
    merged = 0
    for i in range(len(vectors)):
        if kept and similar[i, kept].any():
            merged += 1
        else:
            kept.append(i)
    return merged


def _savings(store: Store, notes: pa.Table, projects: Sequence[str] | None, since: datetime) -> float | None:
    texts = store.events.frame(EventFilter(projects=projects, since=since), ["text"])["text"]
    raw = pc.sum(pc.binary_length(pc.cast(texts, pa.binary()))).as_py() or 0
    if not raw:
        return None
    fresh = notes.filter(pc.and_(pc.equal(notes["status"], "active"), _created_since(notes, since)))
    ids = fresh["note_id"].to_pylist()
    kept = store.notes.frame(NoteFilter(note_ids=ids), columns=["statement"]) if ids else None
    distilled = pc.sum(pc.binary_length(pc.cast(kept["statement"], pa.binary()))).as_py() or 0 if kept is not None else 0
    return max(0.0, 1.0 - distilled / raw)


def _hit_rates(store: Store, projects: Sequence[str] | None, since: datetime) -> tuple[float | None, float | None]:
    recent: list[float] = []
    earlier: list[float] = []
    for row in rows(store.retrievals.with_feedback(projects, ["note_ids", "used", "feedback_at"])):
        top = (row["note_ids"] or [])[:5]
        if top:
            rate = len(set(top) & set(row["used"] or [])) / len(top)
            (recent if row["feedback_at"] >= since else earlier).append(rate)
    return (float(np.mean(recent)) if recent else None, float(np.mean(earlier)) if earlier else None)


def _mean_seconds(batches: Sequence[Batch]) -> float | None:
    spans = [(b.committed_at - b.created_at).total_seconds() for b in batches if b.committed_at]
    return float(np.mean(spans)) if spans else None


def alerts(values: dict[str, object], settings: Settings) -> list[MetricAlert]:
    limits = settings.alerts
    hit, baseline = values["top5_hit_rate"], values["top5_hit_rate_baseline"]
    drop = (baseline - hit) * 100 if isinstance(hit, float) and isinstance(baseline, float) else None  # points
    checks = [
        ("store_fill", values["store_fill"], limits.store_fill, "the fullest agent's notes reached this share of the cap"),
        ("new_notes_week", values["new_notes_week"], float(limits.max_new_notes_per_week),
         "more new notes this week than the limit"),
        ("redundant_share", values["redundant_share"], limits.redundant_share, "too many highly similar but unmerged notes"),
        ("hit_rate_drop", drop, limits.hit_rate_drop_points, "top-5 hit rate fell this many points under its baseline"),
        ("conflict_rate", values["conflict_rate"], limits.conflict_rate,
         "unresolved conflicts above the limit: a human spot-check is due"),
    ]
    found = []
    for name, value, threshold, message in checks:
        number = float(value) if isinstance(value, (int, float)) else None
        firing = number is not None and (number >= threshold if name == "store_fill" else number > threshold)
        found.append(MetricAlert(name=name, firing=firing, value=number, threshold=threshold, message=message))
    return found


def refresh_gauges(services: Services) -> None:
    """Set the store and quality gauges of the Prometheus metrics from a fresh computation."""
    metrics = memory_metrics(services, None)
    telemetry = services.telemetry
    stats = services.store.maintenance.stats()
    telemetry.store_bytes.set(float(sum(s.bytes for s in stats)))
    for table in stats:
        telemetry.table_rows.set(float(table.rows), tags={"table": table.name})
    for name in ("deduplication_rate", "redundant_share", "conflict_rate", "overturned_share", "context_savings",
                 "top5_hit_rate", "store_fill", "new_notes_week", "active_notes", "consolidation_runs",
                 "consolidation_seconds_mean", "mining_runs"):
        value = getattr(metrics, name)
        if value is not None:
            telemetry.quality.set(float(value), tags={"metric": name})
    for alert in metrics.alerts:
        telemetry.alerts.set(1.0 if alert.firing else 0.0, tags={"alert": alert.name})
