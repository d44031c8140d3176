"""Tables printed with their columns aligned by spaces rather than split by a separator: pandas'
prints of a DataFrame (``df.head()``, ``print(df)``: columns two spaces apart or more, each right
aligned under its name) and polars' (cells between ``┆`` and ``│`` box lines, left aligned, the names
above a ``---`` row and a row of types). For a value that is a whole cell of such a row, the column's
name is the nearest cell above it, over the same character columns, that holds no digit: the cells
between are the column's other values, a rule (``---``, ``═══``) or a type (``str``, ``i64``).
"""

from __future__ import annotations

import re

# polars' (and psql's, and box-drawing tables') cell borders, vertical
BORDERS = "│┆┃║|"
# The edges of a cell: two spaces or more, a border, a line's start or end.
CELL_EDGE_AFTER = re.compile(rf"(?m)(?:$|[ ]{{2}}|[ ]?[{BORDERS}])")
# A cell of a row: text without two spaces in a row or a border.
CELL = re.compile(rf"[^ {BORDERS}](?:[^ {BORDERS}]| (?=[^ {BORDERS}]))*")
# Rules, types and missing values: cells above a value that are not its column's name.
NOT_A_NAME = re.compile(
    r"[-─━═=:+╞╪╡┌┬┐└┴┘├┼┤╭╮╰╯ ]+|str|utf8|i\d+|u\d+|f\d+|bool|date|datetime.*|object|NaN|None|null|<NA>|NaT|…|\.\.\.")
# How far up the name may be: pandas prints 60 rows at most before it truncates (display.max_rows);
# and how long a printed row may be (both wrap a wide frame at the terminal's width).
MAX_LINES_UP = 64
MAX_ROW = 1000


def is_cell(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is a whole cell of an aligned row (two spaces or a border on each side)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = text[max(line_start, start - 2):start]
    edge_before = before in ("", "  ") or before[-1:] in BORDERS or (before[:1] in BORDERS and before[1:] == " ")
    return line_end - line_start <= MAX_ROW and edge_before and CELL_EDGE_AFTER.match(text, end, line_end) is not None


def aligned_header(text: str, start: int, end: int) -> str:
    """The name of the aligned column whose cell ``text[start:end]`` is (see the module's docstring);
    '' if it is no cell of such a table or no name is found above it in its block of lines."""
    if not is_cell(text, start, end):
        return ""
    line_start = text.rfind("\n", 0, start) + 1
    first, last = start - line_start, end - line_start
    above_end = line_start - 1
    for _ in range(MAX_LINES_UP):
        if above_end < 0:
            return ""
        above_start = text.rfind("\n", 0, above_end) + 1
        line = text[above_start:above_end]
        if not line.strip() or len(line) > MAX_ROW:
            return ""
        cell = overlapping_cell(line, first, last)
        if cell and not any(ch.isdigit() for ch in cell) and NOT_A_NAME.fullmatch(cell) is None:
            return cell
        above_end = above_start - 1
    return ""


def overlapping_cell(line: str, first: int, last: int) -> str:
    """The cell of ``line`` over the character columns ``first`` to ``last``; '' if none is."""
    for match in CELL.finditer(line):
        if match.start() < last and match.end() > first:
            return match.group(0)
        if match.start() >= last:
            break
    return ""
