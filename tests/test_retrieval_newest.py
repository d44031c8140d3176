"""Newer evidence in the question's slot (serve/retrieval/newest.py): which older note a newer one
stands for, at the boundaries of each setting, on cached rows as the retrieval cache holds them
(pyarrow chunks) and vectors given per row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from reverie.settings import RetrievalSettings
from serve.retrieval.newest import newest_in_slot
from serve.retrieval.scopeblock import BlockKey, Cached, Candidate

SETTINGS = RetrievalSettings()  # readings: 0.3 alike, margin 0.1; preferences: 0.2 alike, lead 0.05
T0 = datetime(2026, 3, 1, tzinfo=UTC)
AXIS = np.eye(4, dtype=np.float32)


def _row(note_id: str, kind: str, scope: str, days: int, **extra: Any) -> dict[str, Any]:
    return {"note_id": note_id, "type": kind, "scope": scope, "verified": kind == "verified_fact",
            "last_seen_at": T0 + timedelta(days=days), "valid_from": None, "created_at": T0,
            "conflicts_with": [], "evidence": [f"e-{note_id}"], "source_agents": ["a1"], "owner_agent": "a1", **extra}


def _ranked(rows: list[dict[str, Any]], similarity: dict[str, float]) -> list[tuple[Candidate, float]]:
    chunk = pa.Table.from_pylist(rows)
    return [(Candidate(Cached(r["note_id"], 1, "", chunk, i), similarity[r["note_id"]], 0.0), 1.0 / (i + 1))
            for i, r in enumerate(rows)]


def _placed(vectors: dict[str, np.ndarray], blocks: dict[str, BlockKey] | None = None):  # noqa: ANN202
    def placed(cached: Cached) -> tuple[BlockKey, np.ndarray] | None:
        if cached.note_id not in vectors:
            return None
        scope = str(cached.column("scope"))
        block = (blocks or {}).get(cached.note_id, (scope, "p1" if scope.startswith("personal:") else None))
        return block, vectors[cached.note_id]
    return placed


def _left_out(rows: list[dict[str, Any]], similarity: dict[str, float], vectors: dict[str, np.ndarray] | None = None,
              k: int = 8, **kw: Any) -> list[str]:
    same = {r["note_id"]: AXIS[0] for r in rows}
    kept, passed = newest_in_slot(_ranked(rows, similarity), _placed(vectors or same, **kw), k, SETTINGS)
    assert [c.cached.note_id for c, _ in kept] == [r["note_id"] for r in rows if r["note_id"] not in
                                                  {p.cached.note_id for p in passed}]
    return [c.cached.note_id for c in passed]


READINGS = [_row("old", "verified_fact", "module:p1/api", 1), _row("new", "verified_fact", "module:p1/api", 5)]
PREFS = [_row("old", "preference", "personal:a1", 1), _row("new", "preference", "personal:a1", 5)]


@pytest.mark.parametrize(("new_similarity", "left_out"), [(0.41, ["old"]), (0.39, [])])
def test_a_newer_reading_stands_for_an_older_one_up_to_the_margin(new_similarity: float, left_out: list[str]) -> None:
    assert _left_out(READINGS, {"old": 0.5, "new": new_similarity}) == left_out


@pytest.mark.parametrize(("new_similarity", "left_out"), [(0.56, ["old"]), (0.54, []), (0.9, ["old"])])
def test_a_newer_preference_must_fit_the_question_better_by_the_lead(new_similarity: float, left_out: list[str]) -> None:
    assert _left_out(PREFS, {"old": 0.5, "new": new_similarity}) == left_out


def test_how_alike_the_two_notes_must_be() -> None:
    at = lambda cos: (AXIS[0] * cos + AXIS[1] * np.sqrt(1 - cos * cos)).astype(np.float32)  # noqa: E731
    assert _left_out(READINGS, {"old": 0.5, "new": 0.5}, {"old": AXIS[0], "new": at(0.31)}) == ["old"]
    assert _left_out(READINGS, {"old": 0.5, "new": 0.5}, {"old": AXIS[0], "new": at(0.29)}) == []
    assert _left_out(PREFS, {"old": 0.5, "new": 0.6}, {"old": AXIS[0], "new": at(0.21)}) == ["old"]
    assert _left_out(PREFS, {"old": 0.5, "new": 0.6}, {"old": AXIS[0], "new": at(0.19)}) == []


def test_what_is_never_compared() -> None:
    sims = {"old": 0.5, "new": 0.6}
    equal = [READINGS[0], {**READINGS[1], "last_seen_at": READINGS[0]["last_seen_at"]}]
    assert _left_out(equal, sims) == []  # no later evidence
    assert _left_out([READINGS[1], READINGS[0]], sims) == ["old"]  # rank order does not matter, time does
    assert _left_out([{**READINGS[0], "verified": False}, READINGS[1]], sims) == []  # prose never displaces a reading
    assert _left_out([READINGS[0], {**READINGS[1], "conflicts_with": ["old"]}], sims) == []  # a tie left open
    assert _left_out([{**READINGS[0], "conflicts_with": ["new"]}, READINGS[1]], sims) == []
    rules = [_row("old", "constraint", "module:p1/api", 1), _row("new", "constraint", "module:p1/api", 5)]
    assert _left_out(rules, sims) == []  # a module's rules coexist
    mixed = [READINGS[0], _row("new", "preference", "module:p1/api", 5)]
    assert _left_out(mixed, sims) == []  # another kind
    assert _left_out(READINGS, sims, blocks={"old": ("personal:a1", "p1"), "new": ("personal:a1", "p2")}) == []
    assert _left_out(READINGS, {"old": 0.25, "new": 0.19}) == []  # the newer must answer the question itself
    assert _left_out(READINGS, sims, vectors={"new": AXIS[0]}) == []  # a row the cache no longer holds
    assert _left_out([READINGS[0], _row("x", "lesson", "module:p1/api", 3), READINGS[1]], {**sims, "x": 0.4}, k=2) == []
    assert _left_out([READINGS[0], _row("x", "lesson", "module:p1/api", 3), READINGS[1]], {**sims, "x": 0.4}, k=3) == ["old"]


BUCKET = "$ aws s3 ls s3://gx-results-eu/api/ | tail -2\n  PRE run_2026-03-09/\n  PRE run_2026-03-10/"
BANNER = "$ cd api && nextflow -version\n  N E X T F L O W\n  version 23.10.1 build 5917\n  http://nextflow.io"
PUBLISH = "INFO PublishDir - Publishing api outputs to s3://gx-results/api/run_7"


@pytest.mark.parametrize(("newer", "left_out"), [
    (BANNER, []),            # a version banner prints no kind of value the bucket listing does
    (PUBLISH, ["old"]),      # another reading of a bucket stands for the older one
])
def test_a_newer_reading_stands_only_for_a_reading_of_one_kind_of_value(newer: str, left_out: list[str]) -> None:
    rows = [{**READINGS[0], "statement": BUCKET}, {**READINGS[1], "statement": newer}]
    chunk = pa.Table.from_pylist(rows)
    ranked = [(Candidate(Cached(r["note_id"], 1, r["statement"], chunk, i), 0.5, 0.0), 1.0 / (i + 1))
              for i, r in enumerate(rows)]
    _, passed = newest_in_slot(ranked, _placed({"old": AXIS[0], "new": AXIS[0]}), 8, SETTINGS)
    assert [c.cached.note_id for c in passed] == left_out
