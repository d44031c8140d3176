"""Stage 6: archive (never delete) expired notes and low-value notes beyond the caps.

- expired: a live note whose ``expires_at`` has passed (an uncorroborated candidate, for example);
- the run's budget: new notes beyond ``max_new_notes_per_run``, lowest value first;
- the agent's cap: its live notes beyond ``max_notes_per_agent``, lowest value first.

Value = confidence + freshness + 0.5 if verified + 0.1 * log(1 + hits).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from actors.plan import COMPARED_STATUSES, Change, NoteIndex, RunContext
from reverie.records import Note
from reverie.settings import ConsolidationSettings


def value(note: Note, now: datetime, settings: ConsolidationSettings) -> float:
    seen = note.last_seen_at or note.updated_at
    freshness = max(0.0, 1.0 - max((now - seen).total_seconds(), 0.0) / 86400.0 / settings.freshness_days)
    return note.confidence + freshness + (0.5 if note.verified else 0.0) + 0.1 * math.log1p(note.hit_count)


def prune(changes: Sequence[Change], index: NoteIndex, ctx: RunContext, settings: ConsolidationSettings) -> list[Change]:
    views = {c.note.note_id: c for c in changes}
    current = _current(views, index)
    doomed: dict[str, str] = {}
    for note in current.values():
        if note.status in COMPARED_STATUSES and note.expires_at is not None and note.expires_at <= ctx.now:
            doomed[note.note_id] = "expired"
    fresh = [c.note for c in changes if c.new and c.note.status in COMPARED_STATUSES and c.note.note_id not in doomed]
    for note in _lowest(fresh, len(fresh) - settings.max_new_notes_per_run, ctx.now, settings):
        doomed[note.note_id] = f"over the budget of {settings.max_new_notes_per_run} new notes per run"
    owned = [n for n in current.values()
             if n.owner_agent == ctx.agent_id and n.status in COMPARED_STATUSES and n.note_id not in doomed]
    for note in _lowest(owned, len(owned) - settings.max_notes_per_agent, ctx.now, settings):
        doomed[note.note_id] = f"over the cap of {settings.max_notes_per_agent} notes per agent"
    for note_id, reason in doomed.items():
        views[note_id] = _archived(current[note_id], views.get(note_id), reason, ctx.now)
    return list(views.values())


def _current(views: dict[str, Change], index: NoteIndex) -> dict[str, Note]:
    current = {n.note_id: n for n in index.notes}
    current.update({note_id: change.note for note_id, change in views.items()})
    return current


def _lowest(notes: list[Note], excess: int, now: datetime, settings: ConsolidationSettings) -> list[Note]:
    if excess <= 0:
        return []
    return sorted(notes, key=lambda n: (value(n, now, settings), n.note_id))[:excess]


def _archived(note: Note, previous: Change | None, reason: str, now: datetime) -> Change:
    view = note.model_copy(update={"status": "archived", "updated_at": now})
    if previous is None:
        return Change(view, "prune", f"archived: {reason}")
    return Change(view, "prune", f"{previous.reason}; archived: {reason}", previous.vector, previous.new, previous.observed)
