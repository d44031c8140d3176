"""Stage 5: resolve contradictions within the same scope and subject.

Two notes are rivals when they share a scope, are about the same slot (the same subject, or
statements at least ``conflict_similarity`` alike) and :mod:`reverie.conflicts` finds a
contradiction. The one with the higher resolution score wins — verified +2, high specificity +1,
freshness max(0, 1 - age_days/30), observed in this run +0.5 — and the loser is superseded
(``superseded_by``, ``invalid_at``, the overturning evidence in the audit reason). A near tie
(within ``conflict_margin``) turns the newer one into an ``open_question`` linked to the other, and an
unverified note never supersedes a verified one, whatever the scores: it becomes an open question.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal

import numpy as np

from actors.plan import LIVE_STATUSES, Change, NoteIndex
from reverie.conflicts import Conflict, conflict_between
from reverie.records import Note
from reverie.settings import ConsolidationSettings
from reverie.statements import normalise, read

Decision = Literal["supersede_old", "supersede_new", "question"]
RIVAL_POOL = 20


def resolution_score(note: Note, now: datetime, settings: ConsolidationSettings, *, observed: bool) -> float:
    score = settings.score_verified if note.verified else 0.0
    if note.specificity == "high":
        score += settings.score_specificity
    seen = note.last_verified_at or note.last_seen_at or note.updated_at
    age_days = max((now - seen).total_seconds(), 0.0) / 86400.0
    score += max(0.0, 1.0 - age_days / settings.freshness_days)
    return score + (settings.score_observed if observed else 0.0)


def decide(new: Note, old: Note, now: datetime, settings: ConsolidationSettings, *, old_observed: bool) -> Decision:
    """Who wins between a note observed in this run (``new``) and a rival it contradicts."""
    if old.verified and not new.verified:
        return "question"
    mine = resolution_score(new, now, settings, observed=True)
    theirs = resolution_score(old, now, settings, observed=old_observed)
    if abs(mine - theirs) <= settings.conflict_margin:
        return "question"
    return "supersede_old" if mine > theirs else "supersede_new"


def resolve(changes: Sequence[Change], index: NoteIndex, settings: ConsolidationSettings, now: datetime) -> list[Change]:
    views: dict[str, Change] = {c.note.note_id: c for c in changes}
    order = [c.note.note_id for c in changes]
    run = _RunVectors(changes, index)
    for position, note_id in enumerate(order):
        change = views[note_id]
        if not change.observed or change.note.status not in LIVE_STATUSES:
            continue
        earlier = run.close_earlier(position, settings.conflict_similarity, order)
        for rival, conflict in _rivals(change, views, earlier, index, settings):
            views = _apply(views, change.note.note_id, rival, conflict, index, settings, now)
            if views[note_id].note.status not in LIVE_STATUSES or views[note_id].note.type == "open_question":
                break
    return list(views.values())


class _RunVectors:
    """The run's own notes as one matrix, so each finds its earlier look-alikes in one product
    (the ``RIVAL_POOL`` most alike and the last ``RIVAL_POOL`` with the same subject)."""

    def __init__(self, changes: Sequence[Change], index: NoteIndex) -> None:
        vectors = [_vector(c, index) for c in changes]
        dim = next((v.shape[0] for v in vectors if v is not None), 0)
        self.matrix = np.stack([v if v is not None else np.zeros(dim, np.float32) for v in vectors]) if changes else np.zeros((0, 0))
        self.subjects = [normalise(c.note.subject) for c in changes]
        self.scopes = [c.note.scope for c in changes]

    def close_earlier(self, position: int, threshold: float, order: Sequence[str]) -> dict[str, float]:
        """Earlier notes of the run in the same scope that are alike (or share the subject)."""
        if position == 0:
            return {}
        sims = self.matrix[:position] @ self.matrix[position]
        alike = np.nonzero(sims >= threshold)[0]
        alike = alike[np.argsort(-sims[alike], kind="stable")][:RIVAL_POOL].tolist()
        same = [i for i in range(position) if self.subjects[i] == self.subjects[position]][-RIVAL_POOL:]
        return {order[i]: float(sims[i]) for i in alike + same if self.scopes[i] == self.scopes[position]}


def _vector(change: Change, index: NoteIndex) -> np.ndarray | None:
    return change.vector if change.vector is not None else index.vector(change.note.note_id)


def _rivals(change: Change, views: dict[str, Change], earlier: dict[str, float], index: NoteIndex,
            settings: ConsolidationSettings) -> list[tuple[Note, Conflict]]:
    vector = _vector(change, index)
    if vector is None:
        return []
    pool: dict[str, tuple[Note, float]] = {}
    for note, sim in index.nearest(vector, change.note.scope, RIVAL_POOL):
        if note.note_id in views:
            continue  # changed in this run: met below if earlier, or from its own turn if later
        pool[note.note_id] = (note, sim)
    for other_id, sim in earlier.items():
        pool[other_id] = (views[other_id].note, sim)
    return _contradicting(change.note, pool, settings)


def _contradicting(note: Note, pool: dict[str, tuple[Note, float]], settings: ConsolidationSettings) -> list[tuple[Note, Conflict]]:
    mine = read(note.statement)
    found = []
    for rival_id, (rival, sim) in sorted(pool.items(), key=lambda kv: (-kv[1][1], kv[0])):
        if rival_id == note.note_id or rival.status not in LIVE_STATUSES or rival_id in note.supersedes:
            continue
        if sim < settings.conflict_similarity and normalise(rival.subject) != normalise(note.subject):
            continue
        conflict = conflict_between(mine, read(rival.statement))
        if conflict is not None:
            found.append((rival, conflict))
    return found


def _apply(views: dict[str, Change], note_id: str, rival: Note, conflict: Conflict, index: NoteIndex,
           settings: ConsolidationSettings, now: datetime) -> dict[str, Change]:
    views = dict(views)
    change = views[note_id]
    new = change.note
    rival_change = views.get(rival.note_id)
    decision = decide(new, rival, now, settings, old_observed=rival_change is not None and rival_change.observed)
    if decision == "supersede_old":
        views[rival.note_id] = _superseded(rival, new, conflict, now, rival_change)
        views[note_id] = _with(change, {"supersedes": [*new.supersedes, rival.note_id]}, f"supersedes {rival.note_id}")
    elif decision == "supersede_new":
        loser = _superseded(new, rival, conflict, now, change)
        views[note_id] = loser
    elif change.new:
        update = {"type": "open_question", "conflicts_with": [*new.conflicts_with, rival.note_id]}
        views[note_id] = _with(change, update, f"open question: contradicts {rival.note_id} ({conflict.kind}), {_why(new, rival)}")
    else:
        views[note_id] = _with(change, {"conflicts_with": [*new.conflicts_with, rival.note_id]}, f"contradicts {rival.note_id}")
    return views


def _superseded(loser: Note, winner: Note, conflict: Conflict, now: datetime, previous: Change | None) -> Change:
    view = loser.model_copy(update={
        "status": "superseded", "superseded_by": winner.note_id, "invalid_at": now, "updated_at": now,
    })
    reason = f"superseded by {winner.note_id} ({conflict.kind}); overturning evidence: {', '.join(winner.evidence)}"
    if previous is None:
        return Change(view, "supersede", reason)
    return Change(view, "supersede", f"{previous.reason}; {reason}", previous.vector, previous.new, previous.observed)


def _with(change: Change, update: dict[str, object], reason: str) -> Change:
    return Change(change.note.model_copy(update=update), change.action, f"{change.reason}; {reason}",
                  change.vector, change.new, change.observed)


def _why(new: Note, rival: Note) -> str:
    return "it is verified and this is not" if rival.verified and not new.verified else "a near tie"
