"""Telling whether two statements about the same slot contradict each other, without an LLM.

Callers first decide that two statements are about the same slot (the same stored slot, the same
subject, or embeddings of the statements or of their value-masked forms alike enough: see
``actors.resolve``); this module then says
whether they contradict, and how (statements naming different things by number — "pool 1" and
"pool 2" — are about different slots and never contradict):

- ``polarity``: one main clause is negated and the other is not ("Never call X" / "Call X");
- ``value``: the same kind of value differs (15 vs 30 minutes, 2 vs 4 decimals), or one asserts
  what the other explicitly rejects ("2 decimals, not 4");
- ``choice``: one chooses what the other rejects ("tables, not prose" / "prose instead of tables");
- ``option``: different members of a known set of exclusive options (tabs / spaces, JSON / YAML);
- ``setting``: the same ``key=value`` setting with another value;
- ``field``: the same field of a tool's output with another value (``size: Medium`` /
  ``warehouse_size = "X-Small"``: :mod:`reverie.tool_output`).
Two tool outputs whose identity fields differ (``name``, ``topic`` ...) are about different things.
:func:`other_value` reads two texts that are word for word the same but for a value or two (a
version, a machine type, a count: "FROM cuda:12.1.0-..." / "FROM cuda:11.8.0-...") as another value
of one reading, whatever its shape; timestamps alone make no other value.

Measured on SICK (CONTRADICTION against the rest) in ``bench/conflicts.py``; see BENCHMARKS.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Literal
from urllib.parse import urlsplit

from reverie.statements import VERSIONED_UNITS, Reading, part_names, read, stated_values
from reverie.tool_output import compared, same_identity, same_key

ConflictKind = Literal["polarity", "value", "choice", "option", "setting", "field"]


@dataclass(frozen=True)
class Conflict:
    kind: ConflictKind
    detail: str


def different_things(a: Reading, b: Reading) -> bool:
    """Both name things by number and none in common ("pool 1" / "pool 2"): other slots, no merge.
    ("db 5433" beside "-p 5433 db 5433" names the same thing twice, not another one.)"""
    if a.identifiers and b.identifiers and not a.identifiers & b.identifiers:
        return True
    return any(value != b.fields[other] for key, value in a.fields.items() for other in b.fields
               if same_identity(key, other))


def conflict_between(a: Reading, b: Reading) -> Conflict | None:
    """The first contradiction found between two readings of the same slot, or None."""
    if different_things(a, b):
        return None
    for check in (_value, _setting, _field, _choice, _option, _polarity):
        found = check(a, b)
        if found is not None:
            return found
    return None


def conflicting(text_a: str, text_b: str) -> Conflict | None:
    return conflict_between(read(text_a), read(text_b))


def _polarity(a: Reading, b: Reading) -> Conflict | None:
    if a.polarity != b.polarity:
        return Conflict("polarity", "one statement negates what the other asserts")
    return None


def _value(a: Reading, b: Reading) -> Conflict | None:
    for unit in sorted(set(a.values) & set(b.values)):
        if not _agree(unit, a.values[unit], b.values[unit]):
            return Conflict("value", f"different {unit} values")
    for x, y in ((a, b), (b, a)):
        for unit, asserted in x.values.items():
            if asserted & y.rejected_values.get(unit, frozenset()):
                return Conflict("value", f"a {unit} value asserted by one is rejected by the other")
    return None


def _choice(a: Reading, b: Reading) -> Conflict | None:
    for x, y in ((a, b), (b, a)):
        crossed = (x.chosen - x.rejected) & (y.rejected - y.chosen)
        if crossed:
            return Conflict("choice", f"one chooses what the other rejects ({len(crossed)} words)")
    return None


def _option(a: Reading, b: Reading) -> Conflict | None:
    picked_a, picked_b = a.picks, b.picks
    for group in sorted(set(picked_a) & set(picked_b)):
        if not picked_a[group] & picked_b[group]:
            return Conflict("option", "different exclusive options of the same setting")
    return None


def _agree(unit: str, first: frozenset[float], second: frozenset[float]) -> bool:
    """Some value in common; for a version, a bare major ("Python 3") agrees with any of its minors."""
    if first & second:
        return True
    if unit not in VERSIONED_UNITS:
        return False
    return any(x == int(y) or y == int(x) for x in first for y in second if x.is_integer() != y.is_integer())


def _setting(a: Reading, b: Reading) -> Conflict | None:
    for key in sorted(set(a.settings) & set(b.settings)):
        if a.settings[key] != b.settings[key]:
            return Conflict("setting", f"setting {key!r} has different values")
    return None


def _field(a: Reading, b: Reading) -> Conflict | None:
    for key, value in sorted(a.fields.items()):
        if not compared(key, a.program == b.program):
            continue
        for other_key, other_value in b.fields.items():
            if same_key(key, other_key) and value != other_value:
                return Conflict("field", f"the tool output's {key!r} has another value")
    return None


#: Most value tokens two texts may differ by, and the least share of their words that must match.
OTHER_VALUE_TOKENS = 2
OTHER_VALUE_SAME = 0.6
_CLOCK = re.compile(r"[\[(]?(?:\d{4}-\d{2}-\d{2}(?:t[\d:.]+z?)?|\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?)[\])]?,?")
_VALUE_TOKEN = re.compile(r"\d|\w[-_./:]\w")


def other_value(a: str, b: str) -> bool:
    """The same words but for at most ``OTHER_VALUE_TOKENS`` value tokens, each replaced one for one
    (a token with a digit or an inner ``-_./:``), at least ``OTHER_VALUE_SAME`` of the words alike:
    one reading of one thing with another value. Differences in timestamps alone are none."""
    first, second = a.lower().split(), b.lower().split()
    matcher = SequenceMatcher(None, first, second, autojunk=False)
    same = sum(size for *_, size in matcher.get_matching_blocks())
    words = max(sum(not _CLOCK.fullmatch(t) for t in tokens) for tokens in (first, second))
    if same < 3 or same < OTHER_VALUE_SAME * words:
        return False
    changed = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or all(_CLOCK.fullmatch(t) for t in (*first[i1:i2], *second[j1:j2])):
            continue
        if op != "replace" or i2 - i1 != j2 - j1:
            return False
        changed += [*first[i1:i2], *second[j1:j2]]
    return 0 < len(changed) <= 2 * OTHER_VALUE_TOKENS and all(_VALUE_TOKEN.search(t) for t in changed)


#: An address: a URL of any scheme (``https://…``, ``s3://…``, ``gs://…``), up to a blank, a quote,
#: a bracket or a separator a tool prints around it (``srv*D:\cache*https://…``).
_ADDRESS = re.compile(r"(?<![\w+.-])[a-z][a-z0-9+.-]{1,15}://[^\s'\"`<>()\[\]{},;*|]+", re.IGNORECASE)


_DENIED = re.compile(r"(?:\bnot|\bnever|n't|\bno longer|\binstead of|\brather than)\W+(?:\w+\W+){0,2}$", re.IGNORECASE)


#: A host named bare (``ota.hearthwire.net``, ``telemetry-sql.internal``, ``db.internal:5432``, an image's
#: ``ghcr.io/acme/x``): dotted labels ending in a domain a service lives under — not a file's extension
#: (``manifest.json``), a module path (``torch.version.cuda``) nor a call (``logger.info(``); a host inside
#: a URL or an e-mail address is that address's. Endings that are also words of code or files (``app``,
#: ``ai``, ``info``, ``local``, ``dev``, ``io``, ``net``) need three labels or a port (``config.local``,
#: ``flask.app`` are files).
_HOST = re.compile(r"(?<![\w@./:-])(?P<host>(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?P<tld>com|net|org|io|dev|app|cloud"
                   r"|ai|internal|local|lan|corp|svc|intra|example|edu|gov|info|tech|eu|uk|de|us))(?P<port>:\d{2,5})?"
                   r"(?P<path>/[^\s'\"`<>()\[\]{},;*|]*)?(?![\w@(-]|\.\w)", re.IGNORECASE)
_AMBIGUOUS_TLDS = frozenset({"app", "ai", "info", "local", "dev", "io", "net"})


def _bare_hosts(text: str) -> list[re.Match[str]]:
    return [m for m in _HOST.finditer(text) if m.group("tld").lower() not in _AMBIGUOUS_TLDS
            or m.group("port") or m.group("host").count(".") >= 2]


@lru_cache(maxsize=16384)
def addresses(text: str) -> frozenset[str]:
    """The addresses ``text`` asserts, lower-cased, without a trailing slash or full stop: URLs and hosts
    named bare; one it denies ("… so it's definitely not https://a/…", "instead of s3://b") is left out,
    and so is a document's own schema (a doctype's ``….dtd``, an ``….xsd``, an ``xmlns`` namespace: a
    plist names Apple's DTD whatever host it sets) (cached: dedupe and the turn check read one statement
    many times)."""
    found = [*_ADDRESS.finditer(text)] if "://" in text else []
    found += _bare_hosts(text) if "." in text else ()
    return frozenset(m.group(0).lower().rstrip("./:?!") for m in found
                     if not _DENIED.search(before := _line_before(text, m.start()))
                     and not _SCHEMA.search(m.group(0).rstrip("./:?!").split("?", 1)[0])
                     and not _SCHEMA_ATTRIBUTE.search(before))


#: A document's own schema, not a place it names: a doctype's DTD, an XML Schema, a namespace.
_SCHEMA = re.compile(r"\.(?:dtd|xsd)$", re.IGNORECASE)
_SCHEMA_ATTRIBUTE = re.compile(r"(?:xmlns(?::\w+)?|schemaLocation)\s*=\s*[\"']?\s*$", re.IGNORECASE)


def _line_before(text: str, at: int) -> str:
    """Up to 40 characters before ``at`` on its own line (a denial on the line above denies nothing)."""
    start = max(0, at - 40, text.rfind("\n", 0, at) + 1)
    return text[start:at]


def shared_address(first: frozenset[str], second: frozenset[str]) -> bool:
    """An address of one is one of the other, or a path under it (``gs://b/m/step_012000`` under
    ``gs://b/m``), or a bare host is the other's host: one place, listed at two depths."""
    return any(x == y or x.startswith(f"{y}/") or y.startswith(f"{x}/") or _one_host(x, y) for x in first for y in second)


def _one_host(a: str, b: str) -> bool:
    """A bare host and a URL or host of it: one host, and one port where both name a port
    (``db.internal`` / ``db.internal:5432`` are one place, ``…:5432`` / ``…:6379`` two)."""
    if "://" in a and "://" in b:
        return False  # two URLs: compared by path above
    first, second = _host_port(a), _host_port(b)
    return bool(first[0]) and first[0] == second[0] and (not first[1] or not second[1] or first[1] == second[1])


def _host_port(address: str) -> tuple[str, int | None]:
    parts = urlsplit(address if "://" in address else f"//{address}")
    try:
        return parts.hostname or "", parts.port
    except ValueError:  # a port out of range
        return parts.hostname or "", None


def same_address(a: str, b: str) -> bool:
    """Both name one address, the very same: where a thing lives, printed by two tools or said twice (a
    path under it may be another thing: ``…/healthz`` and ``…/healthz/deps``)."""
    return bool(addresses(a) & addresses(b))


@lru_cache(maxsize=16384)
def thing_names(text: str) -> frozenset[str]:
    """The hyphenated names a text states, and each path segment of them that is one (``cert-runner``
    in ``Config/cert-runner/DefaultEngine.ini``): what a reading or a turn is about."""
    return frozenset(n for name in stated_values(text)[1] for n in (name, *re.split(r"[/\\*]", name)) if "-" in n)


def other_address(a: str, b: str) -> bool:
    """Both name addresses and none in common: an address is a value no two facts share by chance, so
    two readings that print different ones are two facts (or one fact with another value)."""
    first, second = addresses(a), addresses(b)
    return bool(first) and bool(second) and not shared_address(first, second)


def other_part(a: str, b: str, ignored: frozenset[str] = frozenset()) -> bool:
    """Both print parts (a chip, a machine type, an agent pool: :func:`part_names`; ``ignored`` — the
    module both are about — is none) and none in common: ``[STM32U585.cpu] examination succeeded`` /
    ``"soc": "ESP32-S3"``. A part and an instance of it (``win64-gpu-a10`` / ``win64-gpu-a10-07``) are one."""
    return parts_apart(part_names(a) - ignored, part_names(b) - ignored)


def parts_apart(first: frozenset[str], second: frozenset[str]) -> bool:
    """Two sets of parts, both named and none one of the other's (:func:`other_part`)."""
    return bool(first) and bool(second) and not any(_one_part(x, y) for x in first for y in second)


def _one_part(a: str, b: str) -> bool:
    shorter, longer = sorted((a.split("-"), b.split("-")), key=len)
    return longer[:len(shorter)] == shorter


def other_tool_version(a: str, b: str) -> bool:
    """One tool's version printed under two of its names, with two values: ``kotlin = "2.1.10"`` /
    ``kotlinc-jvm 2.0.21``, ``node`` / ``nodejs``, ``python`` / ``python3`` — a name and the same name
    with at most two more letters or digits before its first hyphen (``rubygems`` and ``python-dateutil``
    are other things than ``ruby`` and ``python``)."""
    first, second = _tool_versions(a), _tool_versions(b)
    return any(x != y and _one_tool(x, y) and not first[x] & second[y] for x in first for y in second)


def _tool_versions(text: str) -> dict[str, frozenset[float]]:
    """The versions of named tools a text states, by the tool's name (``CUDA 12.1``, ``zephyr 3.6.0``)."""
    named = {unit.removesuffix(" version"): found for unit, found in read(text).values.items()
             if unit in VERSIONED_UNITS or unit.endswith(" version")}
    return {name: found for name, found in named.items() if name != "version" and " " not in name}


def _one_tool(a: str, b: str) -> bool:
    shorter, longer = sorted((a, b), key=len)
    rest = longer[len(shorter):].split("-", 1)[0]
    return len(shorter) >= 3 and longer.startswith(shorter) and 0 < len(rest) <= 2 and rest[0].isalnum()


#: Schemes of one kind of place: the web's (a host named bare is one too).
_WEB = frozenset({"http", "https", ""})


def place_kinds(found: frozenset[str]) -> frozenset[str]:
    """The kinds of place addresses are (``s3``, ``gs``, ``file`` …; ``web`` for http, https and a bare host)."""
    kinds = (address.split("://", 1)[0] if "://" in address else "" for address in found)
    return frozenset("web" if kind in _WEB else kind for kind in kinds)


def one_kind_of_place(a: str, b: str) -> bool:
    """Both print an address of one kind of place: two buckets (``s3://a`` / ``s3://b``), two web
    addresses — not a bucket and a reference genome's ``file:///refs/…`` path, nor a bucket and the URL
    of a tool's banner (``http://nextflow.io``): those are two things however alike the readings."""
    return bool(place_kinds(addresses(a)) & place_kinds(addresses(b)))
