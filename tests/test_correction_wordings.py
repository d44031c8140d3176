"""Floors on the hand-written correction wordings (tests/data/corrections/dev.jsonl): how many
corrections ``replaced()`` reads, and how few ordinary statements it or ``says_replacement()`` takes
for one. Set a little under what the reading achieves, so a change that loses wordings or reads
chit-chat as a correction fails here. Held-out rows are never asserted on (bench/corrections.py)."""

from __future__ import annotations

from bench.corrections import load, score


def test_the_dev_wordings_are_read_and_ordinary_statements_are_not() -> None:
    found = score(load("dev"))
    assert (found.corrections, found.others) == (133, 143)
    assert found.detected >= 122  # 126 reached
    assert found.matched >= 118  # 122 reached
    assert found.false_replaced <= 2  # 0 reached
    assert found.false_says <= 2  # 0 reached
