"""Fields of records in text: the columns of an SQL ``INSERT`` and the literals of its rows."""

from __future__ import annotations

import re
from collections.abc import Iterator

# SQL's INSERT (ISO/IEC 9075-2, "<insert statement>"): the column list, then VALUES and rows of
# literals; a string literal doubles its quotes.
SQL_INSERT = re.compile(r"(?i)\binsert[ \t]+into[ \t]+[\w.\"`\[\]]+[ \t]*\((?P<columns>[^()]{1,400})\)\s*values\s*")
# A row's literal may be a call without arguments (``now()``, ``CURRENT_TIMESTAMP()``): one field.
SQL_ROW = re.compile(r"\s*,?\s*\((?P<row>(?:'(?:[^'\n]|'')*'|\w+\(\)|[^()'\n])*)\)")
SQL_LITERAL = re.compile(r"'(?P<q>(?:[^'\n]|'')*)'|(?P<n>[^,\s()']+)(?:\(\))?")


def sql_fields(text: str) -> Iterator[tuple[str, str, int]]:
    """(column, literal, offset) for every literal of every row an INSERT names the columns of."""
    for insert in SQL_INSERT.finditer(text):
        columns = insert.group("columns").split(",")
        position = insert.end()
        while (row := SQL_ROW.match(text, position)) is not None:
            literals = SQL_LITERAL.finditer(text, row.start("row"), row.end("row"))
            for column, literal in zip(columns, literals, strict=False):
                group = "q" if literal.group("q") is not None else "n"
                yield column, literal.group(group), literal.start(group)
            position = row.end()


def sql_column(text: str, position: int) -> str:
    """The column an SQL INSERT names for the literal at ``position``; else ''."""
    if "insert" not in text.lower():
        return ""
    return next((name for name, value, start in sql_fields(text) if start <= position < start + max(1, len(value))), "")
