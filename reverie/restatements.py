"""Restatements: raw turns that say again what a superseded note or a correction overturned.

A note cites the turns it was distilled from, and the raw-turn layer withholds the evidence of
superseded notes. But a log says the same thing more often than extraction keeps: an agent repeats a
tool's reading in its own words ("The api CI job times out after 90 minutes."), a user states a
preference in passing before ever tagging it. When a claim is overturned, consolidation looks back
through the log for such turns (dreaming corrects the log) and records them as evidence of the
overturned claim, so they are withheld with it.

A turn restates an overturned claim when it names one of the claim's *stale phrases* — what a
correction says it replaces ("a table", "two reviewers"), or a value the loser states and the winner
does not (the same kind of value: "90" against "20", "jobs-high" against "batch-low"; a field of a tool's
output that a later output prints otherwise: "X-Small" of ``size: X-Small``; an address, a part or a
named thing's version a later reading prints otherwise, in whatever shape; of a person's wish that
none of these name, the words it ends on: "full build log attached") — in its own
main clause (not as what it rejects), and its meaning is near the claim (checked by the caller, on
embeddings). Everything here is a pure function of the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from reverie import versions
from reverie.conflicts import addresses
from reverie.statements import (
    VERBS,
    asserts,
    content_words,
    lemma,
    part_names,
    read,
    replaced,
    sentences,
    split_contrast,
    stated_values,
    without_replacements,
)
from reverie.tool_output import GENERIC_KEYS, is_identity, same_key

_TOKEN = re.compile(r"[a-z0-9]+(?:[.\-_][a-z0-9]+)*")
MAX_PHRASE_WORDS = 6


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens that keep versions and hyphenated names whole ("3.11", "jobs-high")."""
    return _TOKEN.findall(text.lower())


def mentions(text: str, phrase: str) -> bool:
    """``phrase`` occurs in ``text`` as a run of whole tokens."""
    wanted = tokens(phrase)
    if not wanted:
        return False
    have = tokens(text)
    n = len(wanted)
    return any(have[i:i + n] == wanted for i in range(len(have) - n + 1))


_VALUE_WORD = re.compile(r"(?=.*\d)(?!\d+(?:st|nd|rd|th)$).+|.*_.*|.*-.*-.*")


def claimed_values(text: str) -> list[str]:
    """The value words of a text: tokens with a digit (not an ordinal), an underscore or two hyphens
    ("12.1", "ckpt-longterm-euw4", "g2-standard-48", "rsch-ckpt-hot"); plain hyphenated words
    ("read-only") are no values."""
    return [t for t in dict.fromkeys(tokens(text)) if _VALUE_WORD.fullmatch(t)]


def prints(text: str, value: str) -> bool:
    """``value`` is a token of ``text``, or begins one before a separator: a version names its patch
    levels and builds ("12.4" in "cuda:12.4.0-cudnn8")."""
    return any(t == value or (t.startswith(value) and t[len(value)] in ".-_") for t in tokens(text))


def prints_within(text: str, value: str) -> bool:
    """``value`` is printed in ``text`` (:func:`prints`) or set in a longer name after an underscore or a
    slash ("16.2" in ``/Applications/Xcode_16.2.app``), never after a dot or a hyphen ("16.2" is no value
    of "10.16.2", "26" none of "2024-03-26")."""
    if prints(text, value):
        return True
    return re.search(rf"(?<=[_/]){re.escape(value)}(?![\w]|[.-]\d)", text.lower()) is not None


def distinctive(value: str) -> bool:
    """A value word worth matching across two tools' outputs: not a lone digit ("3" of ``retries = 3``)
    and not a date."""
    if _DATE.fullmatch(value):
        return False
    return sum(c.isdigit() for c in value) >= 2 or (not value.isdigit() and len(value) > 2)


_DATE = re.compile(r"\d{4}-\d\d-\d\d(?:t.*)?")


def stale_phrases(loser: str, winner: str, share: float, *, wish: bool = False) -> list[str]:
    """What ``winner`` overturns in ``loser``: the phrases the winner says it replaces that the loser
    asserts, and the one value of a kind the loser states that the winner's own claim replaces by
    another ("90" against "20"; with two old values differing, which one was replaced is unknown,
    so neither is taken). Of a person's ``wish`` that none of these name, the words its main clause
    ends on (:func:`wish_value`). Nothing the winner's own claim still asserts is stale."""
    found = [p for p in replaced(winner) if len(tokens(p)) <= MAX_PHRASE_WORDS and asserts(loser, p, share)]
    old_numbers, old_names = stated_values(without_replacements(loser))
    new_numbers, new_names = stated_values(without_replacements(winner))
    old_numbers, new_numbers = _no_clock(old_numbers), _no_clock(new_numbers)
    for old, new in ((old_numbers, new_numbers), (old_names, new_names)):
        if old and new:
            gone = old - new
            found += sorted(gone) if len(gone) == 1 and new - old else []
            break
    found += changed_fields(read(loser).fields, read(winner).fields)
    found += changed_readings(loser, winner)
    found = _not_claimed(found, winner, share)
    if wish and not found:
        found = _not_claimed([value] if (value := wish_value(loser)) else [], winner, share)
    return found


def _no_clock(numbers: frozenset[str]) -> frozenset[str]:
    """Numbers without a log's time stamp or date ("22:41:07" is when, not what; a time a rule sets, "02:00",
    has no seconds and stays)."""
    return frozenset(n for n in numbers if not _STAMP.fullmatch(n) and not _DATE.fullmatch(n))


_STAMP = re.compile(r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?")


def wish_value(statement: str) -> str | None:
    """The words a wish's main clause ends on, up to ``MAX_PHRASE_WORDS`` tokens back from its last
    content word and from a content word, in its last sentence that has two content words there (common
    verbs and courtesy aside): "… reported to me as the full build log attached, not a wall of red" ->
    "full build log attached". A wish says what it wants last, and a restatement repeats it word for word ("Failed
    builds: the full build log attached. That's my rule."). None when no sentence has two."""
    for sentence in reversed(sentences(statement)):
        main, _ = split_contrast(sentence)
        content = {w for w in content_words(main) if w not in VERBS and w not in _COURTESY}
        said = tokens(main)
        while said and lemma(said[-1]) not in content:
            said.pop()
        tail = said[-MAX_PHRASE_WORDS:]
        while tail and lemma(tail[0]) not in content:
            tail.pop(0)  # from a content word: "the full build log", not "as the full build log"
        if sum(1 for t in tail if lemma(t) in content) >= 2:
            return " ".join(tail)
    return None


_COURTESY = frozenset({"please", "pls", "plz", "thanks", "thx", "time", "now", "today", "again", "way"})


def changed_readings(loser: str, winner: str) -> list[str]:
    """The one address, part or named thing's version the loser states where the winner states
    another of the same kind, as the loser prints it ("s3://crashdump-symbols" against
    "https://symstore.build.internal/sym", "nRF52840" against "STM32U585", "5.5.0" of ``Engine Version:
    5.5.0-31166578`` against an ``engine`` column's 5.3.2): what a turn restating the old reading names;
    of an address, also the one piece of it that changed (:func:`_changed_segment`). With two of a kind
    changed, which one was replaced is unknown, so neither is taken."""
    found: list[str] = []
    for kind in (addresses, part_names):
        old, new = kind(loser), kind(winner)
        gone, came = old - new, new - old
        found += sorted(gone) if len(gone) == 1 and came else []
        if kind is addresses and len(gone) == 1 and len(came) == 1:
            found += _changed_segment(next(iter(gone)), next(iter(came)))
    old_versions, new_versions = _versions(loser), _versions(winner)
    for unit in old_versions.keys() & new_versions.keys():
        replaced_versions = old_versions[unit] - new_versions[unit]
        if len(replaced_versions) == 1 and new_versions[unit] - old_versions[unit]:
            printed = versions.printed_as(loser.lower(), next(iter(replaced_versions)))
            found += printed if len(printed) == 1 else []  # "engine 5.5.0 / sdk 5.5.2": which is the engine's?
    return found


def _changed_segment(old: str, new: str) -> list[str]:
    """The one piece of an address that another address changed, the rest alike as far as both go — a
    bucket (``s3://gx-clinical-results/x/run_7`` against ``s3://gx-results-eu/x``), a directory
    (``file:///refs/t2t-chm13v2.0/genome.fa`` against ``…/grch38/…``): what a turn names of the old
    place ("x publishes to s3://gx-clinical-results", "x aligns against T2T-CHM13v2.0")."""
    if old.split("://", 1)[0] != new.split("://", 1)[0]:
        return []  # another kind of place altogether: no piece of it was replaced
    first, second = _segments(old), _segments(new)
    differing = [i for i in range(min(len(first), len(second))) if first[i] != second[i]]
    if len(differing) != 1 or not distinctive(piece := first[differing[0]]):
        return []
    return [piece]


def _segments(address: str) -> list[str]:
    return [piece for piece in address.split("://", 1)[-1].split("/") if piece]


def _versions(text: str) -> dict[str, frozenset[float]]:
    return {unit: values for unit, values in read(text).values.items() if unit.endswith(versions.SUFFIX)}


def changed_fields(old: dict[str, str], new: dict[str, str]) -> list[str]:
    """The value a tool printed for a field that a later output prints another value for ("x-small" of
    ``size: X-Small`` against ``warehouse_size = "Medium"``), identity and generic fields and plain words
    (``true``) aside; as for numbers,
    with two fields changed which one was replaced is unknown, so neither is taken."""
    gone = {value for key, value in old.items() if not is_identity(key) and key not in GENERIC_KEYS
            and any(same_key(key, other) and other_value != value for other, other_value in new.items())}
    named = len(gone) == 1 and all(len(tokens(v)) <= MAX_PHRASE_WORDS and v not in _PLAIN_WORDS for v in gone)
    return sorted(gone) if named else []


#: Values too common to look for in a log: a changed ``ready: true`` names no stale phrase.
_PLAIN_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "none", "null", "ok", "enabled", "disabled", "0", "1"})


def corrected_phrases(correction: str, share: float) -> list[str]:
    """What a correction that overturned no note says it replaces (short phrases it does not itself
    still assert: "… no longer uses exporter.py; run the streaming exporter" replaces no "exporter")."""
    return _not_claimed([p for p in replaced(correction) if len(tokens(p)) <= MAX_PHRASE_WORDS], correction, share)


def _not_claimed(phrases: list[str], winner: str, share: float) -> list[str]:
    """The phrases the winner's claim does not state: a one-token value ("gx-clinical-results") only where
    it prints it, a phrase where its main clause asserts most of its words."""
    claim = without_replacements(winner)
    return [p for p in dict.fromkeys(phrases) if not mentions(claim, p)
            and (_ONE_VALUE.fullmatch(p) is not None or not asserts(winner, p, share))]


#: One token with a value's inner punctuation: its pieces ("gx", "results") are no claim of it.
_ONE_VALUE = re.compile(r"\S*\w[-_./:]\w\S*")


def restates(text: str, phrases: Iterable[str], share: float) -> bool:
    """``text`` names one of ``phrases`` in its main clause: it asserts it, it does not reject it."""
    return any(mentions(text, p) and asserts(text, p, share) for p in phrases)
