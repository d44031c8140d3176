"""Newer evidence in the question's slot: "evidence time decides" (issue 15), at read time.

Consolidation supersedes a note when it can tell from the statements that a later one replaces it.
It cannot always: two tools print one setting in shapes of their own (a Dockerfile's
``FROM nvidia/cuda:12.4.0-…`` and ``nvcc``'s ``release 12.1``, a config's checkpoint dir and a
bucket listing), and a person restates a preference with another value and no word of change. The
question names the slot those statements share. Among the first ``k`` notes a question ranks, an
older note is left out, with the asker's turns it cites, when a newer note of the same scope and kind
answers the question too:

- two verified tool readings (``verified_fact``, both verified) at least
  ``newer_reading_similarity`` alike, the newer at most ``newer_reading_margin`` less similar to
  the question than the older (tools word one reading apart: a later one nearly as close stands);
- two preferences or constraints at least ``newer_preference_similarity`` alike, the newer closer to
  the question than the older by ``newer_preference_lead`` at least (one person's preferences
  coexist: only a later one that fits the question better replaces an earlier one).

Newer means the later evidence (``last_seen_at``, else ``valid_from``, else ``created_at``): when the
events were observed, never when a run wrote the note. Unverified prose never displaces a tool's
reading, and open questions are never compared (they stand beside the note they contest). Chosen on
the three development phrasebooks (BENCHMARKS.md, "Newer evidence in the question's slot").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np

from reverie.settings import RetrievalSettings
from serve.retrieval.noteindex import NoteIndex
from serve.retrieval.scopeblock import Candidate

Ranked = list[tuple[Candidate, float]]
_FAMILY = {"verified_fact": "reading", "preference": "preference", "constraint": "preference"}


@dataclass(frozen=True)
class _Claim:
    position: int
    family: str
    scope: str
    seen: float
    relevance: float
    vector: np.ndarray


def newest_in_slot(notes: Ranked, index: NoteIndex, settings: RetrievalSettings) -> tuple[Ranked, list[Candidate]]:
    """The ranked notes without those a newer note of their slot replaces for this question, and the
    notes left out (their cited turns must stay out too)."""
    claims = [c for i, (candidate, _) in enumerate(notes[: settings.k]) if (c := _claim(i, candidate, index))]
    passed = {old.position for old in claims if any(_replaces(new, old, settings) for new in claims)}
    if not passed:
        return notes, []
    return [n for i, n in enumerate(notes) if i not in passed], [notes[i][0] for i in sorted(passed)]


def _claim(position: int, candidate: Candidate, index: NoteIndex) -> _Claim | None:
    cached = candidate.cached
    family = _FAMILY.get(cached.kind)
    where = index.lookup(cached.note_id)
    if family is None or where is None or (family == "reading" and not cached.column("verified")):
        return None
    block, slot = where
    seen = next((t for t in (cached.column(c) for c in ("last_seen_at", "valid_from", "created_at")) if t), None)
    return _Claim(position, family, str(cached.column("scope")), _seconds(seen), candidate.similarity,
                  block.arrays.vectors[slot])


def _seconds(value: datetime | None) -> float:
    return value.timestamp() if value is not None else float("-inf")


def _replaces(new: _Claim, old: _Claim, settings: RetrievalSettings) -> bool:
    if new.position == old.position or new.family != old.family or new.scope != old.scope or new.seen <= old.seen:
        return False
    if new.family == "reading":
        alike, margin = settings.newer_reading_similarity, settings.newer_reading_margin
    else:
        alike, margin = settings.newer_preference_similarity, -settings.newer_preference_lead
    return float(new.vector @ old.vector) >= alike and new.relevance >= old.relevance - margin
