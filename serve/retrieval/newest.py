"""Newer evidence in the question's slot: "evidence time decides" (issue 15), at read time.

Consolidation supersedes a note when it can tell from the statements that a later one replaces it.
It cannot always: two tools print one setting in shapes of their own (a Dockerfile's
``FROM nvidia/cuda:12.4.0-…`` and ``nvcc``'s ``release 12.1``, a config's checkpoint dir and a
bucket listing), and a person restates a preference with another value and no word of change. The
question names the slot those statements share. Among the first ``k`` notes a question ranks (the
request's ``k``), an older note is left out, with the asker's turns it cites, when a newer note of the
same cache block (scope, and project for a personal scope) answers the question too — at least
``relevance_similarity`` close to it — and:

- both are verified tool readings (``verified_fact``), at least ``newer_reading_similarity`` alike,
  the newer at most ``newer_reading_margin`` less similar to the question than the older (tools word
  one reading apart: a later one nearly as close stands), and where both print values, some of one
  kind (a unit, a kind of place, a part: a bucket's listing never stands for a version banner);
- or both are one agent's preferences or constraints (a personal scope), at least
  ``newer_preference_similarity`` alike, the newer closer to the question than the older by
  ``newer_preference_lead`` at least (one person's preferences coexist: only a later one that fits
  the question better replaces an earlier one). A module's or team's rules are never compared.

Newer means the later evidence: ``last_seen_at`` (when the events were observed), else ``valid_from``,
else, for a note that records neither, ``created_at``. Two notes consolidation linked as a tie it left
open (``conflicts_with``) are never settled here, unverified prose never displaces a tool's reading,
and open questions are never compared (they stand beside the note they contest). Chosen on the three
development phrasebooks (BENCHMARKS.md, "Newer evidence in the question's slot").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from reverie.conflicts import addresses, place_kinds
from reverie.settings import RetrievalSettings
from reverie.statements import part_names, read
from reverie.store.scopes import is_personal
from serve.retrieval.scopeblock import BlockKey, Cached, Candidate

Ranked = list[tuple[Candidate, float]]
Placed = Callable[[Cached], tuple[BlockKey, np.ndarray] | None]  # a cached note's block and vector, if still cached


@dataclass(frozen=True)
class _Claim:
    position: int
    note_id: str
    family: str
    block: BlockKey
    seen: float
    relevance: float
    vector: np.ndarray
    linked: frozenset[str]
    printed: frozenset[str] = frozenset()  # a reading's kinds of value (:func:`printed_kinds`)


def newest_in_slot(notes: Ranked, placed: Placed, k: int, settings: RetrievalSettings) -> tuple[Ranked, list[Candidate]]:
    """The ranked notes without those a newer note of their slot replaces for this question, and the
    notes left out (their cited turns must stay out too)."""
    claims = [c for i, (candidate, _) in enumerate(notes[:k]) if (c := _claim(i, candidate, placed))]
    passed = {old.position for old in claims if any(_replaces(new, old, settings) for new in claims)}
    if not passed:
        return notes, []
    return [n for i, n in enumerate(notes) if i not in passed], [notes[i][0] for i in sorted(passed)]


def _claim(position: int, candidate: Candidate, placed: Placed) -> _Claim | None:
    cached = candidate.cached
    family = _family(cached)
    where = placed(cached) if family is not None else None
    if family is None or where is None:
        return None
    printed = printed_kinds(cached.statement) if family == "reading" else frozenset()
    return _Claim(position, cached.note_id, family, where[0], cached.seen, candidate.similarity, where[1], cached.linked,
                  printed)


@lru_cache(maxsize=16384)
def printed_kinds(statement: str) -> frozenset[str]:
    """The kinds of value a reading prints: the units of its values (``cuda``, ``nextflow version``), the
    kinds of place of its addresses (``place:s3``, ``place:web``) and parts (``part``)."""
    kinds = {*read(statement).values, *(f"place:{kind}" for kind in place_kinds(addresses(statement)))}
    return frozenset(kinds | ({"part"} if part_names(statement) else set()))


def _family(cached: Cached) -> str | None:
    if cached.kind == "verified_fact" and cached.verified:
        return "reading"
    if cached.kind in ("preference", "constraint") and is_personal(cached.scope):
        return "preference"
    return None


def _replaces(new: _Claim, old: _Claim, settings: RetrievalSettings) -> bool:
    if (new.position == old.position or new.family != old.family or new.block != old.block or new.seen <= old.seen
            or old.note_id in new.linked or new.note_id in old.linked or new.relevance < settings.relevance_similarity):
        return False
    if new.family == "reading":
        if new.printed and old.printed and not new.printed & old.printed:
            return False  # a bucket's listing and a tool's version banner: readings of two settings
        alike, margin = settings.newer_reading_similarity, settings.newer_reading_margin
    else:
        alike, margin = settings.newer_preference_similarity, -settings.newer_preference_lead
    return float(new.vector @ old.vector) >= alike and new.relevance >= old.relevance - margin
