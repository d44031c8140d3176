"""Lapsed states (reverie/lapses.py): which part of "X isn't allowed anymore", "not X anymore" or
"no longer X" is the old value, and the span a new claim drops."""

from __future__ import annotations

import pytest

from reverie.lapses import lapses


def read(text: str) -> list[tuple[str, str]]:
    return [(old, text[start:end].strip()) for old, start, end in lapses(text)]


@pytest.mark.parametrize(("text", "old", "span"), [
    # the predicate is the old value
    ("The logo isn't blue anymore.", "blue", "isn't blue anymore"),
    ("Finance no longer wants CSV exports.", "CSV exports", "no longer wants CSV exports"),
    ("Not Felix anymore.", "Felix", "Not Felix anymore"),
    ("Paolo is no longer on the security team.", "the security team", "no longer on the security team"),
    ("The homepage isn't server-rendered anymore but a static export.", "server-rendered", "isn't server-rendered anymore"),
    ("I'm not scared of dogs anymore.", "scared of dogs", "not scared of dogs anymore"),
    # the subject is: its use is no longer permitted or needed, or it no longer fills a role
    ("Merging without CI passing isn't allowed anymore.", "Merging without CI passing",
     "Merging without CI passing isn't allowed anymore"),
    ("Suits aren't required anymore.", "Suits", "Suits aren't required anymore"),
    ("Cargo pants are no longer a thing.", "Cargo pants", "Cargo pants are no longer a thing"),
    ("Jest is no longer our test runner, Vitest is.", "Jest", "Jest is no longer"),  # the role stays the new claim's
    # a time or a ratio is one value
    ("Standup is no longer at 9:30.", "9:30", "no longer at 9:30"),
    ("Ratio is 4:3, not 16:9 anymore.", "16:9", "not 16:9 anymore"),
])
def test_the_old_value_of_a_lapse_and_its_span(text: str, old: str, span: str) -> None:
    assert read(text) == [(old, span)]


@pytest.mark.parametrize("text", [
    "I can't eat any more.",  # a verb alone: appetite
    "Let me know if you need any more help.",  # a quantity
    "Let go of what no longer serves you.",  # a description
    "This is no longer the case.", "It's no longer an issue.", "The flaky test is no longer an issue.",
    "I'm not sure anymore.", "I'm not certain anymore.", "It isn't allowed anymore.",  # no value named
    "We use Postgres.",
])
def test_what_is_no_lapsed_value(text: str) -> None:
    assert read(text) == []
