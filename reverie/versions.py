"""Versions of named things, however they are printed: ``<name> <version>``.

"Zephyr 3.6.0", "Booting Zephyr OS build v3.5.0", a ``west list`` row ``zephyr  zephyr  v3.6.0``, a
YAML entry ``- name: zephyr`` over ``revision: v3.5.0``, a JSON field ``"EngineVersion": "5.5.0"``,
"the engine is 5.5.0": each states a version of one named thing, read as a value of the unit
``"<name> version"`` (:data:`SUFFIX`) — so two readings of one thing in two shapes compare, and two
things' versions never do. A version here is dotted with three parts (``3.6.0``, ``5.5.0-31166578``)
or two after a ``v`` (``v3.6``): a bare ``3.5`` is as often a measure. A date (``2026.03.04``) and an
address (``10.0.4.17``) are none. The name is the word right before the version on its line, past at
most three filler words ("OS", "build", "version", "is" ...); a word that is a verb, a stopword, a
number or a participle names nothing ("upgraded to 3.6.0"). Names the sentence reader already knows
as versioned units (``CUDA 12.1``, ``Python 3.11``) are left to it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping

from reverie import statements  # its word lists and lemma, read at call time (statements reads versions here)

#: The unit of a named thing's version: ``"zephyr version"``.
SUFFIX = " version"
#: A version: not glued to a name by "-" (``ledger-0.3.1`` is an artifact's file name).
_VERSION = re.compile(r"(?<![\w.-])v?(?P<number>\d+\.\d+\.\d+|(?<=v)\d+\.\d+)(?=[-+]|(?!\w|\.\d))", re.IGNORECASE)
_DATE = re.compile(r"(?:19|20)\d\d\.\d\d\.\d\d")
_FILLER = frozenset({"os", "build", "version", "ver", "release", "rev", "revision", "tag", "is", "at", "on", "of",
                     "to", "v", "sdk", "kernel", "firmware"})
#: Words a number after them counts or places, never a thing with versions ("section 4.2.1", "step 1.2.3").
_NEVER_NAMES = frozenset({"section", "step", "chapter", "figure", "table", "item", "line", "page", "rule", "phase",
                          "stage", "retry", "backup", "commit", "lts", "site-packages", "packages", "amd64", "arm64",
                          "i386", "all", "any", "number", "no", "id", "issue", "pr", "ticket", "task", "port"})
_NAME = re.compile(r"[a-z][a-z0-9_-]*[a-z0-9]")
_NAME_FIELD = re.compile(r"^\s*(?:-\s+)?name\s*[:=]\s*[\"']?(?P<name>[A-Za-z][\w.-]*)", re.IGNORECASE | re.MULTILINE)
_TOKEN = re.compile(r"[\w.-]+(?:'[a-z]+)?|\S")  # "we're" is one word
_ARCH = re.compile(r":(?:amd64|arm64|i386|all|armhf)\b")  # apt's "libssl3:amd64 (3.0.2-…)": the package's
_MAX_FILLER = 3
_WINDOW = 64  # characters read back from a version for its name: bounded, so a long line reads in linear time
_SKIPPED = frozenset(":=*[(\"'@")  # marks between a name and its version; a clause's end (";", ",", ".") is none


def named_versions(text: str) -> dict[str, set[float]]:
    """``"<name> version" -> {value}`` for every version in ``text`` whose name can be read."""
    found: dict[str, set[float]] = {}
    lowered = text.lower()
    listed = [(m.start(), m.group("name")) for m in _NAME_FIELD.finditer(lowered)] if "name" in lowered else []
    for match in _VERSION.finditer(lowered):
        number = match.group("number")
        if _DATE.fullmatch(number) or lowered[max(0, match.start() - 1):match.start()] in ("\"", "'"):
            continue  # a date; a quoted value is a field's (:func:`field_versions`)
        name = _name_before(lowered, match.start()) or _listed_name(listed, match.start())
        if name:
            found.setdefault(name + SUFFIX, set()).add(statements.version_value(number))
    return found


def printed_as(text: str, value: float) -> list[str]:
    """How ``text`` prints the version ``value`` (``"5.5.0"`` for 5.005 in ``Engine Version: 5.5.0-3116+UE5``)."""
    return list(dict.fromkeys(m.group("number") for m in _VERSION.finditer(text)
                              if statements.version_value(m.group("number")) == value))


def field_versions(stated: Mapping[str, str]) -> dict[str, set[float]]:
    """A tool's field whose value is a version: ``engine version`` / ``fw`` printing ``5.5.0`` is the
    engine's / the firmware's version; a bare ``version`` or ``revision`` is the record's ``name``'s."""
    found: dict[str, set[float]] = {}
    for key, value in stated.items():
        match = _VERSION.fullmatch(value) or _VERSION.match(value)
        if not match or _DATE.fullmatch(match.group("number")):
            continue
        words = [w for w in key.split() if w not in _FILLER]
        name = words[-1] if words else stated.get("name", "")
        if _is_name(name):
            found.setdefault(statements.lemma(name) + SUFFIX, set()).add(statements.version_value(match.group("number")))
    return found


def _name_before(text: str, at: int) -> str:
    """The word before ``at`` on its line (within :data:`_WINDOW`), past filler words; "" where it names
    nothing."""
    start = max(text.rfind("\n", 0, at) + 1, at - _WINDOW)
    tokens = _TOKEN.findall(_ARCH.sub("", text[start:at]))
    skipped = 0
    while tokens and (tokens[-1] in _FILLER or tokens[-1] in _SKIPPED) and skipped <= _MAX_FILLER:
        skipped += tokens[-1] in _FILLER
        tokens.pop()
    if not tokens or skipped > _MAX_FILLER:
        return ""
    name = tokens[-1].strip("._-")
    return statements.lemma(name) if _is_name(name) else ""


def _listed_name(listed: list[tuple[int, str]], at: int) -> str:
    """The ``name:`` of the entry a version is printed under (``- name: zephyr`` … ``revision: v3.5.0``)."""
    before = bisect_right(listed, (at, "")) - 1
    name = listed[before][1] if before >= 0 else ""
    return statements.lemma(name) if _is_name(name) else ""


def _is_name(word: str) -> bool:
    if not _NAME.fullmatch(word) or len(word) < 2 or word in _NEVER_NAMES:
        return False
    if word in statements.STOPWORDS or word in statements.VERBS or word in statements.NEGATORS:
        return False
    if word in statements.VERSIONED_UNITS or word in _FILLER:
        return False  # "CUDA 12.1" is read by the sentence reader; a filler word names nothing
    return not word.endswith(("ed", "ing")) or len(word) <= 4
