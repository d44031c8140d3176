"""Floors and ceilings on the hand-written correction wordings (tests/data/corrections/dev.jsonl): how
many corrections ``replaced()`` reads, and how few ordinary statements it or ``says_replacement()``
takes for one. Set at what the reading achieves, so a change that loses a wording or reads chit-chat
as a correction fails here (raise them when a change reads more). Held-out rows are never asserted on
(bench/corrections.py)."""

from __future__ import annotations

from bench.corrections import load, score


def test_the_dev_wordings_are_read_and_ordinary_statements_are_not() -> None:
    found = score(load("dev"))
    assert (found.corrections, found.others) == (135, 145)
    assert found.detected >= 127
    assert found.matched >= 124
    assert found.false_replaced == 0
    assert found.false_says == 0
