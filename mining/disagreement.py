"""Conflicts inside a cluster: two notes of one slot that disagree.

A cluster that passed the topic test (every member close to its medoid) is one claim, so its notes
are of one *slot* unless they say otherwise: two notes that both carry the consolidation's ``slot``
key are of one slot only when the keys are equal, and statements naming different things by number
("pool 1" / "pool 2", read by ``reverie.statements``) are never of one slot. Without slot keys
the cluster stands in for consolidation's value-masked neighbourhood: its members were embedded
with their values, but MiniLM barely moves for a changed number, so the medoid test already groups
the wordings of one slot, and re-embedding masked statements would need the model inside the
mining task. Two notes of one slot
disagree when they state different values of the same kind ("restart after 1000 jobs" against
"after 200 jobs", "timeout 30 s" against "timeout 60 s", one asserting a value the other rejects,
the same ``key=value`` setting with another value), read by ``reverie.conflicts``. This is what
lets a stale note and its paraphrased correction, whatever their subjects, stop a promotion.

Polarity (one says do, the other says don't) counts only between notes carrying the same slot key.
Read from the wording, polarity differs between paraphrases of one piece of advice: on the planted
paraphrase groups of the tests (180 pairs that agree) 32 pairs differ in polarity ("Never store
local times" / "Store every timestamp in UTC"), while the value reading flags 3 (all in one
preference group, "under 400 lines" / "a few hundred lines"). The choice and option readings of
``reverie.conflicts`` are left out for the same reason: a conflict stops a promotion and asks a human.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from reverie.conflicts import conflict_between
from reverie.records import Note
from reverie.statements import read

_SPACE = re.compile(r"[^a-z0-9]+")
_VALUE_KINDS = frozenset({"value", "setting", "field"})


def subject_key(subject: str) -> str:
    """A subject folded for comparison: lowercase words joined by single spaces."""
    return _SPACE.sub(" ", subject.lower()).strip()


def slot_of(note: Note) -> str | None:
    """The consolidation's slot key of a note, where the store has one."""
    return getattr(note, "slot", None) or None


def same_slot(a: Note, b: Note) -> bool:
    left, right = slot_of(a), slot_of(b)
    if left is not None and right is not None and left != right:
        return False
    first, second = read(a.statement).identifiers, read(b.statement).identifiers
    return not (first and second and first != second)


def disagree(a: Note, b: Note) -> bool:
    if not same_slot(a, b):
        return False
    if a.polarity != b.polarity and slot_of(a) is not None and slot_of(a) == slot_of(b):
        return True
    found = conflict_between(read(a.statement), read(b.statement))
    return found is not None and found.kind in _VALUE_KINDS


def conflicts(notes: Sequence[Note]) -> list[tuple[str, str]]:
    """Every disagreeing pair, each as (smaller id, larger id), sorted."""
    ordered = sorted(notes, key=lambda n: n.note_id)
    return [(a.note_id, b.note_id) for a, b in combinations(ordered, 2) if disagree(a, b)]
