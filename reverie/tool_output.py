"""Reading what a tool printed: the fields a command's output states, as ``key -> value``.

Prose is read by :mod:`reverie.statements`; a tool's output states its facts in lines instead —
``size: Medium``, ``warehouse_size = "X-Small"``, ``PartitionCount: 24`` between tabs, a table's
header over its one row (``name | state | size`` over ``wh | SUSPENDED | Medium``, or columns
between blanks), a bare count
under ``grep -c 'Partition:'``, or the one value a command prints for the name it was asked
(``terraform output -raw landing_uri`` then ``s3://…``). Only text that keeps its lines is read
this way (a tool event's note keeps them: ``reverie.extract.clean_statement``); a flattened line of
prose yields no field.

Keys are canonical (``PartitionCount`` and ``partition_count`` read ``partition count``), values
lower case without quotes or a trailing slash. :func:`same_key` lets ``size`` name the same field
as ``warehouse size``; :data:`IDENTITY_KEYS` name *which* thing a record is about, so two records
whose names differ are about different things. Pure functions of the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from reverie import statements  # its lemma, read at call time (statements reads fields through this module)

#: A shell prompt, or a SQL client's prompt before a statement (a bare "> " or "# " line is a quote or a
#: heading of prose, not a command).
_PROMPT = re.compile(r"^\s*(?:\$|PS>)\s+\S|^\s*(?:>|\w*=?[>#])\s*(?:SELECT|SHOW|DESCRIBE|DESC|EXPLAIN|WITH)\b",
                     re.IGNORECASE)
_CELL_SPLIT = re.compile(r"\t+|\s{2,}")
_PAIR = re.compile(r"^(?P<key>[A-Za-z][\w.\- ]{0,40}?)\s*(?::(?!//)|=)\s*(?P<value>\S.*?)\s*[,;]?$")
_INLINE = re.compile(r"(?<![\w.-])(?P<key>[A-Za-z][\w.-]*)=(?P<quote>[\"']?)(?P<value>[^\s\"',;]+)(?P=quote)")
_COUNT = re.compile(r"\bgrep\s++(?:-\w*c\w*|--count)\s++(?P<q>[\"']?)(?P<pattern>[^\"'|\s]{1,80})(?P=q)(?:\s|$)")
_NAME_TOKEN = re.compile(r"[A-Za-z][\w.-]*\w")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATOR_ROW = re.compile(r"^[\s|+:=-]+$")
#: Fields that name which thing a record is about: two records naming different ones are apart.
IDENTITY_KEYS = frozenset({"name", "topic", "id", "host", "hostname", "table", "bucket", "cluster", "database", "namespace",
                           "service", "queue", "index", "repository", "repo", "run", "job", "deployment", "pipeline",
                           "workflow", "pod"})
#: Fields most commands print about whatever they touch: they conflict only between runs of one program.
GENERIC_KEYS = frozenset({"status", "state", "result", "ok", "message", "error", "code", "health", "ready", "phase", "age"})


def is_tool_output(text: str) -> bool:
    """Text with lines, the first of them a command after a prompt (``$ cmd``, ``> SQL``)."""
    lines = text.split("\n")
    return len(lines) > 1 and bool(_PROMPT.match(lines[0]))


def fields(text: str) -> dict[str, str]:
    """The fields a tool's output states (empty for anything but tool output). A key printed with
    several values (one per record: each partition's ``Leader``) states no one value and is left out."""
    if not is_tool_output(text):
        return {}
    command, *lines = [line.rstrip() for line in text.split("\n")]
    lines = [line for line in lines if line.strip()]
    found: dict[str, str] = dict(_table(lines))
    several: set[str] = set()
    for key, value in [*_json_leaves(lines), *(pair for line in lines for pair in _pairs(line).items())]:
        if found.get(key, value) != value:
            several.add(key)
        found[key] = value
    found.update(_answer(command, lines, found))
    return {k: v for k, v in found.items() if k not in several}


def program(text: str) -> str:
    """The program a tool's output came from (the command's first word, lower case); "" for prose."""
    if not is_tool_output(text):
        return ""
    words = _PROMPT_WORD.sub("", text.split("\n", 1)[0]).split()
    return words[0].lower() if words else ""


def command_line(text: str) -> str:
    """A tool output's command, without its prompt ("" for prose)."""
    return _PROMPT_WORD.sub("", text.split("\n", 1)[0]) if is_tool_output(text) else ""


_PROMPT_WORD = re.compile(r"^\s*(?:\$|PS>|\w*=?[>#]|>)\s*")


def key_words(key: str) -> tuple[str, ...]:
    """``PartitionCount`` / ``partition_count`` / ``partition-count`` -> ("partition", "count")."""
    spaced = _CAMEL.sub(" ", key.strip())
    return tuple(statements.lemma(w) for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w)


def is_identity(key: str) -> bool:
    """The key names which thing a record is about: ``name``, ``run``, ``run name``, ``job id`` (not
    ``landing bucket``: a bucket named as a setting's value is the fact, not the record's name)."""
    return key in IDENTITY_KEYS or _named_thing(key) != key


def same_identity(a: str, b: str) -> bool:
    """Two identity keys of one thing: ``run`` and ``run name`` (a name or id of a run), or one key."""
    return is_identity(a) and is_identity(b) and (same_key(a, b) or _named_thing(a) == _named_thing(b))


def _named_thing(key: str) -> str:
    """``run name`` / ``job id`` -> the thing named (``run``, ``job``); any other key as it is."""
    words = key.split()
    return " ".join(words[:-1]) if len(words) > 1 and words[-1] in ("name", "id") else key


def same_key(a: str, b: str) -> bool:
    """One key ends with the other: ``size`` and ``warehouse size`` name one field."""
    first, second = a.split(), b.split()
    shorter, longer = sorted((first, second), key=len)
    return bool(shorter) and longer[len(longer) - len(shorter):] == shorter


def compared(key: str, same_program: bool) -> bool:
    """Whether two outputs' values of ``key`` say anything about each other: never an identity field's,
    and a generic field's (``status``) only between runs of one program."""
    return not is_identity(key) and (same_program or key not in GENERIC_KEYS)


def agreeing(a: dict[str, str], b: dict[str, str], same_program: bool = True) -> bool:
    """Two outputs state one field with one value (``size: X-Small`` / ``warehouse_size = "X-Small"``)."""
    return any(same_key(k, other) and v == b[other] for k, v in a.items() if compared(k, same_program) for other in b)


def shares_field(a: dict[str, str], b: dict[str, str], same_program: bool = True) -> bool:
    """Some field (identity fields aside) that both print, whatever its values."""
    return any(same_key(k, other) for k in a if compared(k, same_program) for other in b if not is_identity(other))


def counted_noun(key: str) -> str | None:
    """``partition count`` -> ``partition``: a count of a noun, read as that noun's value."""
    parts = key.split()
    return parts[-2] if len(parts) >= 2 and parts[-1] in ("count", "num", "number") else None


def _canonical_key(key: str) -> str:
    return " ".join(key_words(key))


def _canonical_value(value: str) -> str:
    return value.strip().strip("\"'`").strip().rstrip("/").lower()


def _pairs(line: str) -> dict[str, str]:
    """``key: value`` or ``key = value`` cells of a line (split at tabs or runs of spaces), and
    ``key=value`` tokens anywhere in it."""
    found: dict[str, str] = {}
    if "|" not in line:
        for cell in _CELL_SPLIT.split(line.strip()):
            match = _PAIR.match(cell)
            if match:
                found[_canonical_key(match.group("key"))] = _canonical_value(match.group("value"))
    for match in _INLINE.finditer(line):
        found.setdefault(_canonical_key(match.group("key")), _canonical_value(match.group("value")))
    return {k: v for k, v in found.items() if k and v}


def _json_leaves(lines: list[str]) -> list[tuple[str, str]]:
    """A JSON object printed whole (``jq``, ``cat x.json``, an API's reply): each scalar under its own
    key, at any depth (``{"checkpoint": {"dir": "gs://…"}}`` -> ``dir``); lists are records, left out."""
    body = "\n".join(lines).strip()
    if not body.startswith("{"):
        return []
    try:
        parsed = json.loads(body)
    except ValueError:
        return []
    return list(_leaves(parsed)) if isinstance(parsed, dict) else []


def _leaves(obj: dict[str, object]) -> Iterator[tuple[str, str]]:
    for key, value in obj.items():
        if isinstance(value, dict):
            yield from _leaves(value)
        elif isinstance(value, str | int | float) and not isinstance(value, bool) and _canonical_key(key):
            yield _canonical_key(key), _canonical_value(str(value))


def _table(lines: list[str]) -> dict[str, str]:
    """A table's header over its one data row: each column's value. Columns are split at ``|``, or,
    where the output is nothing but the two lines and the first is words of one case, at tabs or runs
    of blanks (``PORT  DEVICE  BAUD`` over ``/dev/ttyACM0  vac-drive  921600``)."""
    rows = [_cells(line) for line in lines if "|" in line and not _SEPARATOR_ROW.match(line)]
    if not rows and len(lines) == 2 and _BLANK_HEADER.fullmatch(lines[0].strip()):
        rows = [_CELL_SPLIT.split(line.strip()) for line in lines]
    if len(rows) != 2 or len(rows[0]) != len(rows[1]) or len(rows[0]) < 2:
        return {}
    header, row = rows
    if any(not re.fullmatch(r"[A-Za-z][\w .-]*", cell) for cell in header):
        return {}
    return {_canonical_key(k): _canonical_value(v) for k, v in zip(header, row, strict=True) if v}


#: A header between blanks: words of one case, as tools print them (``PORT  DEVICE  BAUD``, ``project  engine``)
#: — not a file listing (``README.md  Kconfig``) nor a log line (``INFO  fetch  started``).
_BLANK_HEADER = re.compile(r"[A-Z][A-Z_-]*(?:(?:\t+|\s{2,})[A-Z][A-Z_-]*)+|[a-z][a-z_-]*(?:(?:\t+|\s{2,})[a-z][a-z_-]*)+")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _answer(command: str, lines: list[str], found: dict[str, str]) -> dict[str, str]:
    """The one value a command printed: a bare count under ``grep -c 'X'`` (``x count``), or the single
    line printed for the dotted or underscored name the command ends with (``… -raw landing_uri``)."""
    if len(lines) != 1 or found:
        return {}
    value = lines[0].strip()
    count = _COUNT.search(command)
    if count and _NUMBER.match(value):
        return {f"{_canonical_key(count.group('pattern'))} count".strip(): value}
    name = _asked_name(command)
    if name and ("_" in name[1:] or "." in name[1:]) and " " not in value:
        return {_canonical_key(name.rsplit(".", 1)[-1]): _canonical_value(value)}
    return {}


def _asked_name(command: str) -> str:
    """The name a command ends by asking for: ``-raw landing_uri``, ``print(torch.version.cuda)'``,
    ``--format 'value(config.machineType)'`` (its last dotted part is the field: ``cuda``)."""
    words = command.split()
    last = words[-1].rstrip("'\")") if words else ""
    if "(" in last:
        last = last.rsplit("(", 1)[-1]
    return last if _NAME_TOKEN.fullmatch(last) else ""
