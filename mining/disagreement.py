"""Conflicts inside a cluster: two notes about the same subject that disagree.

They disagree when their polarities differ (one says do, the other says don't) or when both state
values (numbers, quoted or backticked literals) and the values differ ("timeout 30 s" against
"timeout 60 s"), unless the numbers name different things ("pool 1" / "pool 2", read by
``reverie.statements``). Notes about different subjects never conflict, whatever their wording.

Why not ``reverie.conflicts`` (the detector consolidation uses, which reads polarity, values,
choices and options from the text): a cluster is a group of paraphrases, and on the planted
paraphrase groups of the tests (180 pairs that agree) it flagged 39 pairs as contradictions,
mostly by reading a negation into one wording of the same advice ("Never store local times" /
"Store every timestamp in UTC"); this detector flags none. A conflict stops a promotion and asks a
human, so mining wants the precise signal: the polarity consolidation already decided for each
note, and stated values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from reverie.records import Note
from reverie.statements import identifiers

_VALUE = re.compile(r"`[^`]+`|\"[^\"]+\"|'[^']+'|\b\d+(?:[.,]\d+)*\b")
_SPACE = re.compile(r"[^a-z0-9]+")


def subject_key(subject: str) -> str:
    """A subject folded for comparison: lowercase words joined by single spaces."""
    return _SPACE.sub(" ", subject.lower()).strip()


def values(statement: str) -> frozenset[str]:
    return frozenset(v.strip("`\"'").lower() for v in _VALUE.findall(statement))


def disagree(a: Note, b: Note) -> bool:
    if subject_key(a.subject) != subject_key(b.subject):
        return False
    if a.polarity != b.polarity:
        return True
    left, right = values(a.statement), values(b.statement)
    return bool(left and right and left != right) and not _other_things(a.statement, b.statement)


def _other_things(a: str, b: str) -> bool:
    """Both name things by number, not the same ones ("pool 1" / "pool 2"): no contradiction."""
    first, second = identifiers(a), identifiers(b)
    return bool(first) and bool(second) and first != second


def conflicts(notes: Sequence[Note]) -> list[tuple[str, str]]:
    """Every disagreeing pair, each as (smaller id, larger id), sorted."""
    by_subject: dict[str, list[Note]] = {}
    for note in sorted(notes, key=lambda n: n.note_id):
        by_subject.setdefault(subject_key(note.subject), []).append(note)
    pairs = [
        (a.note_id, b.note_id)
        for group in by_subject.values() for a, b in combinations(group, 2) if disagree(a, b)
    ]
    return sorted(pairs)
