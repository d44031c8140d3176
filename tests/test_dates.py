"""Relative dates resolved against the day they were said, and the times a question names."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reverie.dates import Span, Window, relative_mentions, windows, with_absolute_dates

MONDAY = date(2023, 5, 8)


@pytest.mark.parametrize(("said", "means"), [
    ("I went yesterday", "yesterday (7 May 2023)"),
    ("we ran it last Sunday", "last Sunday (7 May 2023)"),
    ("two weeks ago I painted", "two weeks ago (24–30 April 2023)"),
    ("3 days ago", "3 days ago (5 May 2023)"),
    ("camping next month", "next month (June 2023)"),
    ("Last week I spoke", "Last week (1–7 May 2023)"),
    ("last weekend we biked", "last weekend (6–7 May 2023)"),
    ("last year I read it", "last year (2022)"),
    ("last summer we travelled", "last summer (1 June–31 August 2022)"),
    ("this coming Friday", "this coming Friday (12 May 2023)"),
    ("the day before yesterday", "the day before yesterday (6 May 2023)"),
    ("in two weeks we ship", "in two weeks (22–28 May 2023)"),
])
def test_a_relative_phrase_gets_its_absolute_date(said: str, means: str) -> None:
    assert means in with_absolute_dates(said, MONDAY)


def test_words_that_only_look_like_time_stay_as_they_were() -> None:
    for text in ("I was todays winner", "a while ago, recently", "the weekly sync", "yesterdays news is old"):
        assert with_absolute_dates(text, MONDAY) == text


@given(st.text(max_size=200))
def test_resolving_never_loses_what_was_said(text: str) -> None:
    resolved = with_absolute_dates(text, MONDAY)
    assert len(relative_mentions(text, MONDAY)) == 0 and resolved == text or len(resolved) > len(text)


def test_a_question_names_days_months_and_years() -> None:
    as_of = date(2023, 10, 20)
    assert windows("What did she do on 7 May 2023?", as_of) == [Window(span=Span(date(2023, 5, 7), date(2023, 5, 7)))]
    assert windows("What happened in May 2023?", as_of) == [Window(span=Span(date(2023, 5, 1), date(2023, 5, 31)))]
    assert windows("Where did we go hiking in June?", as_of) == [Window(month=6)]
    assert windows("What did she do on May 7?", as_of) == [Window(month=5, day=7)]
    assert windows("What did they read in 2022?", as_of) == [Window(span=Span(date(2022, 1, 1), date(2022, 12, 31)))]
    assert windows("What did I cook last week?", as_of) == [Window(span=Span(date(2023, 10, 9), date(2023, 10, 15)))]
    assert windows("May I ask what she likes?", as_of) == []
    assert windows("How do I deploy the api?", as_of) == []


def test_a_month_of_any_year_holds_its_days_and_not_a_vague_span() -> None:
    june = Window(month=6)
    assert june.holds(date(2021, 6, 3), date(2021, 6, 3))
    assert not june.holds(date(2021, 7, 3), date(2021, 7, 3))
    assert not june.holds(date(2021, 1, 1), date(2021, 12, 31))  # "last year" says nothing about June
