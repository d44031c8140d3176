"""Rendering typed filters as LanceDB WHERE clauses: the only place SQL text is put together.

Each helper returns one condition, or ``None`` when the filter field is unset (``None``), so a filter
renders as ``all_of(helper(...), ...)``. Values are always quoted by :func:`sql_str`; an empty list
of wanted values matches nothing, an empty list of excluded values excludes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from reverie.errors import ValidationError
from reverie.store.tables import sql_in, sql_str

Clause = str | None


def all_of(*clauses: Clause) -> Clause:
    """The conjunction of the conditions given; ``None`` when there are none."""
    kept = [c for c in clauses if c]
    return " AND ".join(kept) if kept else None


def any_of(*clauses: Clause) -> Clause:
    """The disjunction of the conditions given, in parentheses; ``None`` when there are none."""
    kept = [c for c in clauses if c]
    return "(" + " OR ".join(kept) + ")" if kept else None


def equal(column: str, value: str | None) -> Clause:
    return None if value is None else f"{column} = {sql_str(value)}"


def among(column: str, values: Iterable[str] | None) -> Clause:
    return None if values is None else sql_in(column, values)


def not_among(column: str, values: Iterable[str] | None) -> Clause:
    items = sorted(set(values or ()))
    return f"{column} NOT IN ({', '.join(sql_str(v) for v in items)})" if items else None


def mentions_any(column: str, phrases: Iterable[Sequence[str]] | None) -> Clause:
    """A text column containing, in any case, every token of one of ``phrases``: a prefilter, to be
    checked exactly by the caller. Tokens are words (letters, digits, ``.``, ``-``, ``_``; a ``_``
    matches any one character, which only widens the prefilter); one-character tokens are skipped."""
    if phrases is None:
        return None
    wanted = [sorted({t.lower() for t in phrase if len(t) > 1}) for phrase in phrases]
    if not wanted:
        return "false"
    if any(not tokens for tokens in wanted):
        return "true"  # a phrase of one-character tokens only: no prefilter
    if any(not all(c.isalnum() or c in ".-_" for c in t) for tokens in wanted for t in tokens):
        raise ValidationError(f"a text filter takes word tokens (letters, digits, '.', '-', '_'), not {wanted!r}",
                              field="mentioning")
    return any_of(*("(" + " AND ".join(f"lower({column}) LIKE '%{t}%'" for t in tokens) + ")" for tokens in wanted))


def holds_any(column: str, values: Iterable[str] | None) -> Clause:
    """A list column holding at least one of ``values``."""
    if values is None:
        return None
    items = sorted(set(values))
    return f"array_has_any({column}, [{', '.join(sql_str(v) for v in items)}])" if items else "false"


def starts(column: str, prefix: str) -> str:
    return f"starts_with({column}, {sql_str(prefix)})"


def is_null(column: str, null: bool | None) -> Clause:
    """``column IS NULL`` (``null``), ``IS NOT NULL`` (not ``null``), or no condition (``None``)."""
    if null is None:
        return None
    return f"{column} IS NULL" if null else f"{column} IS NOT NULL"


def not_before(column: str, at: datetime | None) -> Clause:
    return None if at is None else f"{column} >= {_timestamp(at)}"


def later_than(column: str, at: datetime | None) -> Clause:
    return None if at is None else f"{column} > {_timestamp(at)}"


def earlier_than(column: str, at: datetime | None) -> Clause:
    return None if at is None else f"{column} < {_timestamp(at)}"


def greater(column: str, value: str | None) -> Clause:
    return None if value is None else f"{column} > {sql_str(value)}"


def _timestamp(at: datetime) -> str:
    return f"timestamp {sql_str(at.isoformat())}"
