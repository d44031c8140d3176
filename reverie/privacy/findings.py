"""What masking finds, and the shape every detector has.

A detector finds :class:`Finding` spans in one piece of text; the masker merges them and writes
``[<category>:<label>]`` in their place (:mod:`reverie.privacy.masker`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, Protocol

Category = Literal["SECRET", "PII"]
Span = tuple[int, int]

PLACEHOLDER = re.compile(r"\[(?:SECRET|PII):[a-z0-9_]+\]")


@dataclass(frozen=True, slots=True)
class Finding:
    """``original[start:end]`` was replaced by ``[<category>:<label>]``."""

    category: Category
    label: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Masked:
    """The masked text and what was replaced, in order of position."""

    text: str
    findings: tuple[Finding, ...]

    @property
    def changed(self) -> bool:
        return bool(self.findings)


class Detector(Protocol):
    """Finds spans in one piece of text; ``triggers`` are lower-case literals one of which must
    occur in the text for ``find`` to be worth running (empty: always run)."""

    @property
    def triggers(self) -> tuple[str, ...]: ...

    def find(self, text: str) -> Iterator[Finding]: ...


Locate = Callable[[str, re.Match[str]], Span | None]


def folded(text: str) -> str:
    """``text`` lower-cased for the trigger search (never for positions). "İ".lower() is "i" and a
    combining dot (U+0307), which would hide "kimlik" in "KİMLİK" from a trigger that the detector's
    case-insensitive pattern itself matches; the dot is dropped."""
    return text.lower().replace("\u0307", "")


def whole_match(text: str, match: re.Match[str]) -> Span | None:
    return match.span()


def value_group(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v")


@dataclass(frozen=True)
class PatternDetector:
    """One compiled regex; ``locate`` picks (and may veto) the span of each match."""

    category: Category
    label: str
    pattern: re.Pattern[str]
    triggers: tuple[str, ...] = ()
    locate: Locate = whole_match

    def find(self, text: str) -> Iterator[Finding]:
        for match in self.pattern.finditer(text):
            span = self.locate(text, match)
            if span is not None and span[0] < span[1]:
                yield Finding(self.category, self.label, *span)


@dataclass(frozen=True)
class Gated:
    """Detectors that can only find something where ``gate`` matches (say, seven digits in a row):
    one search of the gate decides for all of them, which keeps text without it cheap."""

    gate: re.Pattern[str]
    detectors: tuple[Detector, ...]
    triggers: tuple[str, ...] = ()

    def find(self, text: str) -> Iterator[Finding]:
        if self.gate.search(text) is None:
            return
        lowered = folded(text)
        for detector in self.detectors:
            if not detector.triggers or any(map(lowered.__contains__, detector.triggers)):
                yield from detector.find(text)
