"""Turns a newer note overturns: "evidence time decides" for the raw-turn layer, at read time.

Consolidation withholds the turns its superseded notes cite, and the turns of the log that restate
what a run overturned (``actors/restated.py``). A turn that extraction never kept and that no run
matched ("Checked, the image uses CUDA 12.4" against a reading that prints ``12.1``) still comes back
beside the note that replaced it. Among the question's first ``k`` notes, a note whose evidence was
observed after a turn overturns it when:

- it says it replaces what the turn asserts (a correction's replaced phrase, :func:`replaced`, that
  the turn's main clause asserts: :func:`asserts`);
- or it is a verified tool reading that states another value of a unit the turn states
  (:func:`reverie.conflicts.conflict_between`, kind ``value``: "CUDA 12.1" against ``cuda:11.8.0``);
- or it is a verified tool reading that prints addresses, none of them one the turn asserts, and the
  turn names a thing the reading names ("cert-runner's PDBs end up in https://a/…" against a later
  ``Config/cert-runner/…`` reading that prints ``StorePath=https://b/…``);
- or it is a verified tool reading that prints parts (a chip, a machine type, an agent pool), none of
  them one the turn names, and the turn names a thing the reading names ("CI schedules lobby-relay onto
  win64-xl agents" against a later build log printing ``Running on win64-gpu-a10-07`` in lobby-relay's
  workspace).

Only values and replaced phrases count: prose that merely reads differently never hides a turn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from reverie.conflicts import addresses, conflict_between, parts_apart, place_kinds, shared_address, thing_names
from reverie.statements import Reading, asserts, content_words, part_names, read, replaced
from serve.retrieval.agentturns import Turn, TurnHits
from serve.retrieval.scopeblock import Candidate


@dataclass(frozen=True)
class _Phrase:
    text: str
    words: frozenset[str]  # its content words (lemmas), one of which a turn must contain to assert it
    numbers: frozenset[str]  # every one of which it must contain


@dataclass(frozen=True)
class _Newer:
    seen: float
    phrases: tuple[_Phrase, ...]
    reading: Reading | None  # a verified reading with values: a turn must name one of its units to differ
    addresses: frozenset[str] = frozenset()  # a verified reading's addresses
    names: frozenset[str] = frozenset()  # and the names it states (a turn must share one)
    parts: frozenset[str] = frozenset()  # the parts a verified reading prints


def without_overturned(turns: TurnHits, notes: Iterable[Candidate], overlap: float) -> TurnHits:
    """The turn rankings without the turns a newer note among ``notes`` overturns."""
    newer = [n for c in notes if (n := _newer(c)) is not None]
    if not newer:
        return turns
    gone: dict[str, bool] = {}

    def kept(turn: Turn) -> bool:
        key = turn.event.event_id
        if key not in gone:
            gone[key] = _overturned(turn, newer, overlap)
        return not gone[key]

    return TurnHits(*([t for t in ranking if kept(t)] for ranking in turns.lists()))


def _newer(candidate: Candidate) -> _Newer | None:
    cached = candidate.cached
    phrases = _phrases(cached.statement)
    verified = cached.kind == "verified_fact" and cached.verified
    reading = read(cached.statement) if verified else None
    reading = reading if reading is not None and reading.values else None
    printed = addresses(cached.statement) if verified else frozenset()
    parts = part_names(cached.statement) if verified else frozenset()
    if not phrases and reading is None and not printed and not parts:
        return None
    names = thing_names(cached.statement) if printed or parts else frozenset()
    return _Newer(cached.seen, phrases, reading, printed, names, parts)


@lru_cache(maxsize=16384)
def _phrases(statement: str) -> tuple[_Phrase, ...]:
    """What a note says it replaces (cached: the same notes rank for many questions)."""
    return tuple(_Phrase(p, frozenset(content_words(p)), frozenset(_DIGITS.findall(p))) for p in replaced(statement))


def _overturned(turn: Turn, newer: list[_Newer], overlap: float) -> bool:
    """Cheap checks first (the turn's content lemmas and numbers, as :func:`asserts` reads them): a turn
    is read only when it names what a newer note is about."""
    said = turn.event.ts.timestamp()
    text = turn.event.text
    named: frozenset[str] | None = None
    for note in newer:
        if note.seen <= said:
            continue
        named = named if named is not None else frozenset(content_words(text)) | frozenset(_DIGITS.findall(text))
        for phrase in note.phrases:
            if phrase.numbers <= named and (not phrase.words or phrase.words & named) and asserts(text, phrase.text, overlap):
                return True
        if note.reading is not None and named & note.reading.values.keys() and any(ch.isdigit() for ch in text):
            found = conflict_between(read(text), note.reading)
            if found is not None and found.kind == "value":
                return True
        if note.addresses and "://" in text and _other_address(text, note):
            return True
        if note.parts and parts_apart(part_names(text), note.parts) and thing_names(text) & note.names:
            return True
    return False


def _other_address(text: str, note: _Newer) -> bool:
    said = addresses(text)
    return (bool(said) and not shared_address(said, note.addresses) and bool(place_kinds(said) & place_kinds(note.addresses))
            and bool(thing_names(text) & note.names))


_DIGITS = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
