"""Go (RE2) regular expressions, as gitleaks writes them, translated to Python's ``re``.

What differs and is translated: flag groups in the middle of a pattern (``a(?i)b``, which Python
refuses unless at the start) become scoped groups (``a(?i:b)``); ``\\z`` becomes ``\\Z``;
``(?<name>`` becomes ``(?P<name>``; POSIX classes (``[[:alnum:]]``) are spelled out; ``\\Q...\\E``
is escaped; and ``[``, ``&``, ``~``, ``|`` inside a class are escaped (Python warns of nested sets).
What cannot be translated raises :class:`RuleTranslationError`: Unicode classes (``\\p{..}``) and
the ungreedy flag ``U``.
"""

from __future__ import annotations

import re

from reverie.errors import RuleTranslationError

POSIX_CLASSES = {
    "alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ",
    "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~",
    "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z", "word": "0-9A-Za-z_",
    "xdigit": "0-9A-Fa-f",
}
FLAG_GROUP = re.compile(r"\(\?([imsU-]+)\)")
POSIX_CLASS = re.compile(r"\[:(\^?)([a-z]+):\]")
CLASS_ESCAPE = frozenset("[&~|")


def go_to_python(pattern: str) -> str:
    """The Python spelling of a Go pattern (see the module docstring)."""
    out: list[str] = []
    pending = [0]  # per open group: scoped flag groups to close with it
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            piece, i = _escape(pattern, i)
            out.append(piece)
        elif ch == "[":
            piece, i = _char_class(pattern, i)
            out.append(piece)
        elif ch == "(":
            piece, i = _open_group(pattern, i, pending)
            out.append(piece)
        elif ch == ")":
            out.append(")" * pending.pop() + ")")
            if not pending:
                raise RuleTranslationError(f"unbalanced ')' at {i} in {pattern!r}")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out) + ")" * pending[0]


def _escape(pattern: str, i: int) -> tuple[str, int]:
    nxt = pattern[i + 1:i + 2]
    if nxt in ("p", "P"):
        raise RuleTranslationError(f"Unicode class \\{nxt} at {i} has no Python 're' equivalent")
    if nxt == "z":
        return "\\Z", i + 2
    if nxt == "Q":
        end = pattern.find("\\E", i + 2)
        end = len(pattern) if end < 0 else end
        return re.escape(pattern[i + 2:end]), end + 2
    return pattern[i:i + 2], i + 2


def _char_class(pattern: str, i: int) -> tuple[str, int]:
    """``[...]`` from ``pattern[i]``: POSIX classes spelled out, set-like characters escaped."""
    out, j = ["["], i + 1
    if pattern[j:j + 1] == "^":
        out.append("^")
        j += 1
    if pattern[j:j + 1] == "]":  # a leading ']' is literal
        out.append("\\]")
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        posix = POSIX_CLASS.match(pattern, j) if pattern[j] == "[" else None
        if posix:
            if posix.group(1) or posix.group(2) not in POSIX_CLASSES:
                raise RuleTranslationError(f"POSIX class {posix.group(0)} is not supported")
            out.append(POSIX_CLASSES[posix.group(2)])
            j = posix.end()
        elif pattern[j] == "\\":
            piece, j = _escape(pattern, j)
            out.append(piece)
        else:
            out.append("\\" + pattern[j] if pattern[j] in CLASS_ESCAPE else pattern[j])
            j += 1
    if j >= len(pattern):
        raise RuleTranslationError(f"unterminated character class at {i}")
    return "".join(out) + "]", j + 1


def _open_group(pattern: str, i: int, pending: list[int]) -> tuple[str, int]:
    flags = FLAG_GROUP.match(pattern, i)
    if flags:
        if "U" in flags.group(1):
            raise RuleTranslationError("the ungreedy flag (?U) has no Python 're' equivalent")
        if i == 0:
            return flags.group(0), flags.end()
        pending[-1] += 1  # Go: the flags hold to the end of the enclosing group
        return f"(?{flags.group(1)}:", flags.end()
    pending.append(0)
    if pattern.startswith("(?<", i) and not pattern.startswith(("(?<=", "(?<!"), i):
        return "(?P<", i + 3
    return "(", i + 1
