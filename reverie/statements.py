"""Reading a statement without an LLM: normal form, content words, topic, polarity, values, choices.

A statement is split into its *main* clause and its *contrast* clauses (", not Y", "- no Y",
"rather than Y", "instead of Y", "over Y"): the main clause carries the polarity and the asserted
values and choices; a contrast clause names what is rejected. A negation led by a conjunction
(", and never on Fridays") is a second negated clause, part of the main one, not a contrast. "Use tables, not prose" is therefore
a positive statement choosing tables and rejecting prose, not a negation. Everything here is a pure
function of the text, shared by consolidation (``actors/``), mining and the HTTP layer.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from reverie import corrections, tool_output, versions

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|%")
_CONTRAST = re.compile(
    r"(?:[,;:(]|\s[-–—])\s*(?:not|no|never)\s+(?P<a>(?:[^,;.!?)]|(?<=\d)\.(?=\d))+)"
    r"|\b(?:rather\s+than|instead\s+of|in\s+place\s+of)\s+(?P<b>(?:[^,;.!?)]|(?<=\d)\.(?=\d))+)"
    r"|\b(?:prefer|prefers|preferred|choose|chose|favou?r)\s+[^,;.!?]{1,120}?\s+over\s+(?P<c>[^,;.!?)]+)",
    re.IGNORECASE,
)
NEGATORS = frozenset({
    "no", "not", "never", "nobody", "none", "nothing", "nowhere", "neither", "nor", "cannot",
    "without", "avoid", "skip", "forbid", "forbidden", "prohibit", "prohibited", "ban", "banned", "refuse",
})
STOPWORDS = frozenset("""
a an the and or but if then than so as of to in on at by for with from into onto over under about
is are was were be been being am do does did doing have has had having will would shall should can
could may might must it its this that these those there here their them they he she his her him we
our you your i me my mine us what which who whom whose when where why how all any each every some
such own same other only just also very too again once more most much many few up down out off
please thanks thank ok okay yes yeah also now still even really actually correction lesson note
always let lets let's i'm i've we're don't doesn't isn't aren't won't can't
""".split())
VERBS = frozenset("""
use uses used using write writes wrote written make makes made keep keeps kept go goes went run runs
ran call calls called add adds added do get gets got set sets put prefer prefers preferred like likes
liked want wants need needs format formats formatted follow follows followed check checks checked
send sends sent change changes changed fix fixes fixed apply applies applied ask asks asked see saw
seen lay laid give gives gave take takes took try tries tried avoid route routes routed ensure
""".split())
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100,
}
_DURATIONS = {
    "ms": 0.001, "millisecond": 0.001, "s": 1.0, "sec": 1.0, "second": 1.0, "m": 60.0, "min": 60.0,
    "minute": 60.0, "h": 3600.0, "hr": 3600.0, "hour": 3600.0, "d": 86400.0, "day": 86400.0,
    "week": 604800.0, "month": 2592000.0, "year": 31536000.0,
}
#: Key suffixes that name a unit of measure and nothing else (``timeout_ms``, ``heap_mb``; not ``replicas_min``,
#: ``start_hour`` or ``release_year``, which count or name a time).
_MEASURED_KEYS = frozenset({"ms", "sec", "secs", "seconds", "kb", "mb", "gb", "kib", "mib", "gib", "hz", "khz", "mhz",
                            "ghz"})
_FREQUENCIES = {"hz": 1.0, "hertz": 1.0, "khz": 1e3, "mhz": 1e6, "ghz": 1e9}
_SIZES = {"b": 1.0, "byte": 1.0, "kb": 1e3, "kib": 1024.0, "mb": 1e6, "mib": 2.0**20, "gb": 1e9, "gib": 2.0**30}
_UNITS = frozenset({
    "%", "percent", "decimal", "digit", "place", "retry", "attempt", "time", "worker", "thread",
    "replica", "core", "cpu", "item", "row", "line", "character", "char", "token", "column",
    "space", "tab", "level", "connection", "request", "page", "step", "version", "port", "node",
})
_PREFIX_UNITS = frozenset({  # "port 8080", "Python 3": the number after these is a setting's value
    "port", "version", "level", "tier", "phase", "python", "node", "java", "postgres", "postgresql",
    "mysql", "redis", "ubuntu", "debian", "http", "tls", "ipv", "cuda", "cudnn", "nccl", "torch", "pytorch", "gcc",
})
#: Units whose values are versions: "Python 3" names no minor version, so it agrees with "Python 3.11".
VERSIONED_UNITS = frozenset({
    "version", "python", "node", "java", "postgres", "postgresql", "mysql", "redis", "ubuntu", "debian", "http",
    "tls", "ipv", "cuda", "cudnn", "nccl", "torch", "pytorch", "gcc",
})
_QUANTIFIERS = frozenset({  # "top 5", "at least 3": the number after these is an amount
    "top", "first", "last", "every", "max", "min", "maximum", "minimum", "limit", "least", "most",
    "over", "under", "above", "below", "around", "approximately", "than", "within", "after", "before",
})
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*([a-z%]+)?", re.IGNORECASE)
_HOST_PORT = re.compile(r"(?<![\w/@.-])[a-z][\w.-]*:(?P<port>\d{2,5})(?![\w.:])")  # "db-1.internal:5432"
_PREFIXED = re.compile(  # "port 8080", "python=3.12", "Python 3.13.4", "version: 16.2"
    r"\b(?P<unit>" + "|".join(sorted(_PREFIX_UNITS)) + r")\s*[=:]?\s*v?(?P<number>\d+(?:\.\d+)*)(?!\w|\.\d)",
    re.IGNORECASE,
)
_SETTING = re.compile(r"\b([a-z][a-z0-9_.-]*[a-z0-9])\s*(?:=|:|\bto\b|\bis\b)\s*([a-z0-9][a-z0-9_.-]*)", re.IGNORECASE)
#: A whole run of key characters followed by a separator: where a setting's key can end (a key always
#: ends where its run does). Matching only from a run's beginning keeps :func:`_settings` linear.
_SEPARATED_RUN = re.compile(r"(?<![a-z0-9_.-])[a-z0-9_.-]++(?=\s*+(?:=|:|\bto\b|\bis\b))", re.IGNORECASE)
_KEY_START = re.compile(r"\b[a-z]", re.IGNORECASE)
OPTION_GROUPS: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in (
    # exclusive settings an agent is told to choose between
    "tab space", "enable enabled disable disabled", "true false", "allow allowed deny denied",
    "sync synchronous async asynchronous", "json yaml toml xml csv", "include exclude",
    "public private", "required optional", "increase decrease", "ascending descending",
    "utc local", "table prose paragraph", "accept reject", "merge rebase", "camelcase snake_case",
    # opposite states and actions; on/off, sit/stand, inside/outside and open/close were tried on
    # SICK TRAIN and dropped (under 30 % precision: they name two things, not one changed thing)
    "start started starting stop stopped stopping", "add added adding remove removed removing",
    "near far", "empty full", "lock locked unlock unlocked", "fold folding unfold unfolding",
    "enter entering exit exiting", "asleep awake", "silent speaking talking singing",
))
_OPTION_CANON = {
    "enabled": "enable", "disabled": "disable", "allowed": "allow", "denied": "deny", "synchronous": "sync",
    "asynchronous": "async", "started": "start", "starting": "start", "stopped": "stop", "stopping": "stop",
    "added": "add",
    "adding": "add", "removed": "remove", "removing": "remove", "locked": "lock", "unlocked": "unlock",
    "folding": "fold", "unfolding": "unfold", "entering": "enter", "exiting": "exit",
    "talking": "speaking", "singing": "speaking",
}


@dataclass(frozen=True)
class Reading:
    """What a statement asserts: polarity, values per unit, chosen and rejected words, options."""

    polarity: int
    values: dict[str, frozenset[float]] = field(default_factory=dict)
    rejected_values: dict[str, frozenset[float]] = field(default_factory=dict)
    chosen: frozenset[str] = frozenset()
    rejected: frozenset[str] = frozenset()
    settings: dict[str, str] = field(default_factory=dict)
    picks: dict[int, frozenset[str]] = field(default_factory=dict)
    identifiers: frozenset[str] = frozenset()
    fields: dict[str, str] = field(default_factory=dict)
    """What a tool's output states, ``key -> value`` (:func:`reverie.tool_output.fields`)."""
    program: str = ""
    """The program that printed it ("" for prose)."""


def normalise(text: str) -> str:
    """Lowercase words only, single-spaced: the key for exact duplicate matching."""
    folded = unicodedata.normalize("NFKC", text).lower()
    return " ".join(_WORD.findall(folded))


def stable_digest(*parts: str, size: int = 20) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:size]


def lemma(word: str) -> str:
    """A crude English singular: enough to match 'reports' with 'report' and 'retries' with 'retry'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("oes"):
        return word[:-2]
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def content_words(text: str) -> list[str]:
    """Lemmas of the words that carry meaning (no stopwords, negators or numbers)."""
    found = []
    for word in words(text):
        if word in STOPWORDS or word in NEGATORS or word.endswith("n't") or word.isdigit() or word == "%":
            continue
        found.append(lemma(word))
    return found


def topic(text: str, size: int = 3) -> str:
    """A short subject for a statement: its first content words that are not common verbs."""
    main, _ = split_contrast(text)
    picked: list[str] = []
    for word in content_words(main) or content_words(text):
        if word in VERBS or word in _NUMBER_WORDS or word in picked or len(word) < 2:
            continue
        picked.append(word)
        if len(picked) == size:
            break
    return " ".join(picked) or "general"


def split_contrast(text: str) -> tuple[str, list[str]]:
    """The main clause and the rejected alternatives ("X, not Y" -> ("X", ["Y"]))."""
    rejected = []
    for match in _CONTRAST.finditer(text):
        part = match.group("a") or match.group("b") or match.group("c") or ""
        rejected.append(part.strip())
    main = _CONTRAST.sub(lambda m: _keep_prefix(m), text)
    return main, [r for r in rejected if r]


def _keep_prefix(match: re.Match[str]) -> str:
    """Drop the contrast clause but keep 'prefer X' of 'prefer X over Y'."""
    if match.group("c") is not None:
        whole = match.group(0)
        return whole[: whole.lower().rfind(" over ")]
    return " "


def polarity(text: str) -> int:
    """-1 when the main clause is negated ("not X and not Y" is one negated statement), else 1."""
    main, _ = split_contrast(text)
    return -1 if any(w in NEGATORS or w.endswith("n't") for w in words(main)) else 1


@lru_cache(maxsize=8192)
def read(text: str) -> Reading:
    """What ``text`` asserts (cached: the same statement is read many times in one run)."""
    main, contrasts = split_contrast(text)
    values = _values(main)
    stated = tool_output.fields(text)
    _add_counts(values, stated)
    _own_version(values, text)
    rejected_values: dict[str, set[float]] = {}
    for part in contrasts:
        for unit, found in _values(part, default_unit=_last_unit(values)).items():
            rejected_values.setdefault(unit, set()).update(found)
    return Reading(
        polarity=1 if stated or tool_output.is_tool_output(text) else polarity(text),  # printed: it negates nothing
        values={u: frozenset(v) for u, v in values.items()},
        rejected_values={u: frozenset(v) for u, v in rejected_values.items()},
        chosen=frozenset(content_words(main)),
        rejected=frozenset(w for part in contrasts for w in content_words(part)),
        settings=_settings(main),
        picks=options(frozenset(lemma(w) for w in words(main))),
        identifiers=identifiers(text),
        fields=stated,
        program=tool_output.program(text) if stated else "",
    )


def _add_counts(values: dict[str, set[float]], stated: dict[str, str]) -> None:
    """A tool's count of a noun (``PartitionCount: 24``) is that noun's value, as "24 partitions" is;
    a version it prints of a versioned thing (``torch.version.cuda`` -> ``12.1``) is that thing's, as
    "CUDA 12.1" is, and so is a version under a named field (``"EngineVersion": "5.5.0"``:
    :func:`reverie.versions.field_versions`); a number under a key that ends in a unit of measure (``tick_rate_hz: 20``,
    ``timeout_ms: 500``) is a value of that unit, as "20 Hz" is."""
    for key, value in stated.items():
        noun = tool_output.counted_noun(key)
        if noun and re.fullmatch(r"\d+(?:\.\d+)?", value):
            values.setdefault(lemma(noun), set()).add(float(value))
        last = key.split()[-1] if key.split() else ""
        unit, scale = _unit(last) if last in _MEASURED_KEYS else (None, 1.0)
        if unit is not None and re.fullmatch(r"\d+(?:\.\d+)?", value):
            values.setdefault(unit, set()).add(round(float(value) * scale, 6))
        if last in VERSIONED_UNITS and re.fullmatch(r"v?\d+(?:\.\d+)+", value) and not _of_a_name(key, stated):
            values.setdefault(last, set()).add(version_value(value.lstrip("v")))
    for unit, found in versions.field_versions(stated).items():
        values.setdefault(unit, set()).update(found)


#: A command asking a tool its version: ``nextflow -version``, ``java --version``, ``go version`` (``-v`` is as
#: often "verbose" or a volume).
_ASKS_VERSION = re.compile(r"(?:^|&&|;|\|)\s*(?:[\w.-]*/)?(?P<tool>[a-z][\w.+-]*)\s+(?:--?version|version)(?=\s|$)",
                           re.IGNORECASE)


def _own_version(values: dict[str, set[float]], text: str) -> None:
    """A version printed bare by a command that asks a tool its version ("version 23.10.1 build 5917"
    under ``$ nextflow -version``) is that tool's, as "Nextflow 23.10.1" is."""
    if "version" not in values or not tool_output.is_tool_output(text):
        return
    asked = _ASKS_VERSION.search(tool_output.command_line(text))
    if asked is not None:
        values.setdefault(f"{asked.group('tool').lower()}{versions.SUFFIX}", set()).update(values.pop("version"))


def _of_a_name(key: str, stated: dict[str, str]) -> bool:
    """A ``version`` field of a named thing (``engine version``, or a record with a ``name``) is that
    thing's version (:func:`reverie.versions.field_versions`), not a bare version every record shares."""
    return key.split()[-1] == "version" and (len(key.split()) > 1 or "name" in stated)


def identifiers(text: str) -> frozenset[str]:
    """Numbers that name a thing rather than measure it: "PR 311", "pool 2", "migration 0042".

    A number right after a noun names it, unless it is a version ("CUDA 12.1" measures the toolkit),
    the noun is a setting ("port", "Python"), a quantifier ("top", "at least") or a unit, or an
    explicit unit follows ("2 hours"). Only explicit units count here: "migration 27 passes" names
    migration 27, it does not count 27 passes. The noun and its number stand on one line with only
    blanks, ``#`` or ``-`` between them: a count a tool prints under ``grep -c 'Partition:'`` names
    no partition. A month's day ("Mar-10") and a command's flag ("tail -2") name nothing.
    """
    folded = unicodedata.normalize("NFKC", text).lower()
    found = set()
    for match in _NAMED_NUMBER.finditer(folded):
        before, token = match.group("noun"), match.group("number")
        if before in STOPWORDS or before in VERBS or before in NEGATORS:
            continue
        if before in _NUMBER_WORDS or before in _PREFIX_UNITS or before in _QUANTIFIERS or before in _MONTHS:
            continue  # "Mar-10" is a date
        between = folded[match.end("noun"):match.start("number")]
        if between.strip() == "-" and between[0] in " \t":
            continue  # "tail -2": a command's flag
        following = words(folded[match.end():match.end() + 40])
        if explicit_unit(before) or explicit_unit(following[0] if following else None):
            continue
        found.add(f"{lemma(before)} {int(token)}")
    return frozenset(found)


_MONTHS = frozenset("jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august "
                    "september october november december".split())
_NAMED_NUMBER = re.compile(r"(?<![\w'])(?P<noun>[a-z]++)[ \t]*+(?:[#-][ \t]*+)?(?<=[ \t#-])(?P<number>\d++)(?![\w]|\.\d)")


def explicit_unit(word: str | None) -> bool:
    """A unit of measure or of counting ("ms", "GB", "Hz", "decimals", "retries")."""
    if not word:
        return False
    base = lemma(word)
    return base in _DURATIONS or base in _SIZES or base in _FREQUENCIES or base in _UNITS


def _values(text: str, default_unit: str | None = None) -> dict[str, set[float]]:
    found: dict[str, set[float]] = {}
    tokens = words(text)
    names = identifiers(text)
    for index, token in enumerate(tokens):
        if token in _NUMBER_WORDS and index + 1 < len(tokens):
            _add_value(found, float(_NUMBER_WORDS[token]), tokens[index + 1], None)
    lowered = text.lower()
    for match in _NUMBER.finditer(lowered):
        before = words(lowered[max(0, match.start() - 40):match.start()])
        if before and f"{lemma(before[-1])} {int(float(match.group(1)))}" in names:
            continue  # it names a thing
        following = match.group(2) or _next_word(lowered, match.end())
        _add_value(found, float(match.group(1)), following, default_unit)
    for match in _PREFIXED.finditer(lowered):
        found.setdefault(match.group("unit"), set()).add(version_value(match.group("number")))
    for match in _HOST_PORT.finditer(lowered):
        found.setdefault("port", set()).add(float(match.group("port")))
    for unit, versions_of in versions.named_versions(text).items():
        found.setdefault(unit, set()).update(versions_of)
    return found


def version_value(number: str) -> float:
    """A setting's number as one comparable value: "5432" -> 5432.0, a dotted version by major and
    minor ("3.13" -> 3.013, "3.13.4" -> 3.013, "3.1" -> 3.001, "3.10" -> 3.010): a patch level never
    makes two versions differ, and 3.1 and 3.10 stay apart."""
    parts = number.split(".")
    if len(parts) == 1:
        return float(parts[0])
    return round(int(parts[0]) + int(parts[1]) / 1000, 6)


def _next_word(text: str, end: int) -> str | None:
    rest = words(text[end:end + 40])
    return rest[0] if rest else None


def _add_value(found: dict[str, set[float]], number: float, unit_word: str | None, default_unit: str | None) -> None:
    unit, scale = _unit(unit_word)
    if unit is None:
        unit, scale = default_unit, 1.0
    if unit is not None:
        found.setdefault(unit, set()).add(round(number * scale, 6))


def _unit(word: str | None) -> tuple[str | None, float]:
    if not word:
        return None, 1.0
    base = lemma(word)
    if base in _DURATIONS:
        return "duration", _DURATIONS[base]
    if base in _SIZES:
        return "size", _SIZES[base]
    if base in _FREQUENCIES:
        return "frequency", _FREQUENCIES[base]
    if base in _UNITS:
        return base, 1.0
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "ed")) and word not in STOPWORDS:
        return base, 1.0  # a count of a plural noun: "two dogs", "3 replicas"
    return None, 1.0


def _last_unit(values: dict[str, set[float]]) -> str | None:
    return next(reversed(values), None) if values else None


def _setting_matches(text: str) -> Iterator[re.Match[str]]:
    """``_SETTING.finditer(text)``, in linear time: the regex alone restarts at every word inside a long
    dotted or hyphenated run and rescans it (30 KB took 10 s). Every key ends where its run of key
    characters ends, so each run followed by a separator is tried once, from its first possible start."""
    done = 0
    for run in _SEPARATED_RUN.finditer(text):
        start = _KEY_START.search(text, run.start(), run.end()) if run.start() >= done else None
        match = _SETTING.match(text, start.start()) if start else None
        if match:
            done = match.end()
            yield match


def _settings(text: str) -> dict[str, str]:
    found = {}
    for match in _setting_matches(text):
        key, value = match.group(1).lower(), match.group(2).lower()
        if ("_" in key or "." in key or "=" in match.group(0)) and key not in STOPWORDS:
            found[key] = value
    return found


def options(chosen: frozenset[str]) -> dict[int, frozenset[str]]:
    """The enumerated options a clause picks, per option group."""
    picked: dict[int, set[str]] = {}
    for index, group in enumerate(OPTION_GROUPS):
        hit = {_OPTION_CANON.get(w, w) for w in chosen & group}
        if hit:
            picked[index] = hit
    return {i: frozenset(v) for i, v in picked.items()}


# --- corrections: what a statement says it replaces ---------------------------------------------
_LEADING = frozenset({"the", "a", "an", "my", "your", "our", "its", "their", "his", "her", "it", "this", "that", "to",
                      "be", "on", "at", "in", "with", "about", "of", "from", "off", "longer", "not", "no", "still",
                      "old", "previous", "former", "earlier"})
_TRAILING = frozenset({"anymore", "any", "more", "now", "before", "earlier", "previously", "either", "though",
                       "please", "too", "yet"})
#: Where a phrase stops naming the old value: "X as I wrote", "X like before", "X but Y", "X we now use Y",
#: "X from now on".
_PHRASE_TAIL = re.compile(
    r"\s+(?:(?:as|like)\s+(?:i|you|we|they|he|she|it|the\s+\w+|before|previously|earlier|originally|planned|stated"
    r"|said)\b|but\s|by\s+mistake\b|(?:i|we|you|they|he|she)\s"
    r"|(?:from\s+(?:now|here|today)\s+on|going\s+forward|these\s+days|for\s+good)\b).*$",
    re.IGNORECASE | re.DOTALL,
)


def replaced(text: str) -> list[str]:
    """What ``text`` says it replaces: "X instead of Y", "X, not Y", "no longer Y", "switch from Y to X",
    "it used to be Y", "(was Y)", "stop using Y", "drop Y", "Y is retired", "Y has been replaced",
    "ignore what I said about Y", "Y? No, X" -> ["Y"] (the frames: ``reverie.corrections``)."""
    found = [phrase for phrase, at in _rejections(text) if corrections.stands(text, at)]
    found += [hit.old for hit in corrections.hits(text)]
    cleaned = [_clean(phrase) for phrase in found]
    return list(dict.fromkeys(p for p in cleaned if p))


def _rejections(text: str) -> list[tuple[str, int]]:
    """The contrasts that reject an alternative ("X, not Y", "instead of Y"), where they stand. "Prefer
    X over Y" is a taste, which both can survive (tests/data/corrections/README.md)."""
    found = []
    for match in _CONTRAST.finditer(text):
        if match.group("a") and corrections.rivals(text, match.start(), match.group("a")):
            found.append((match.group("a").strip(), match.start()))
        elif match.group("b"):
            found.append((match.group("b").strip(), match.start()))
    return found


#: Words that point at the old value without being it: "anything that says X", "turns out X".
_POINTER = re.compile(r"^(?:(?:anything|everything|whatever|whoever|any\s+\w+|all|what)\s+(?:notes?\s+|docs?\s+)?"
                      r"(?:that\s+|which\s+)?"
                      r"(?:says?|said|saying|mentions?|mentioned|mentioning|claims?|claimed|claiming|states?|stated"
                      r"|stating|shows?|showing|lists?|listed|listing|points?\s+(?:at|to)|pointing\s+(?:at|to))\s+"
                      r"|turns?\s+out\s+(?:that\s+)?|turned\s+out\s+(?:that\s+)?)", re.IGNORECASE)


def _clean(phrase: str) -> str:
    """The old value alone: no determiners, frame words or trailing clause; "" when nothing names a
    thing (a pronoun, a bare verb). An old value with its own contrast ("the a decoded backtrace instead
    of bare hex addresses thing") is what it asserted: "decoded backtrace"."""
    phrase = split_contrast(phrase)[0].strip() or phrase
    tokens = _PHRASE_TAIL.sub("", " " + _POINTER.sub("", phrase.strip())).split()
    while tokens and tokens[0].lower() in _LEADING:
        tokens = tokens[1:]
    while tokens and tokens[-1].lower().strip(".") in _TRAILING:
        tokens = tokens[:-1]
    joined = " ".join(tokens)
    meaning = set(content_words(joined)) - _FRAME_WORDS - VERBS
    return joined if meaning or any(ch.isdigit() for ch in joined) else ""


def says_replacement(text: str) -> bool:
    """The statement is worded as a change ("instead of", "no longer", "switch to", "used to", ...)."""
    return corrections.worded_as_change(text) or bool(replaced(text))


def asserts(statement: str, phrase: str, share: float) -> bool:
    """Lexical evidence that ``statement`` asserts ``phrase`` in its main clause: every number of the
    phrase, and at least ``share`` of its content words (lemmas), appear there."""
    have_words, have_numbers = _main_terms(statement)
    numbers = set(_NUMBERS.findall(phrase))
    wanted = set(content_words(phrase)) - _FRAME_WORDS
    if numbers and not numbers <= have_numbers:
        return False
    if not wanted:
        return bool(numbers)
    return len(wanted & have_words) / len(wanted) >= share


@lru_cache(maxsize=8192)
def _main_terms(statement: str) -> tuple[frozenset[str], frozenset[str]]:
    """The content words (lemmas) and numbers of the statement's main clause (cached: a statement is
    checked against many phrases)."""
    main = without_replacements(statement)
    return frozenset(content_words(main)), frozenset(_NUMBERS.findall(main))


_NUMBERS = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
_FRAME_WORDS = frozenset({"longer", "anymore", "now", "today", "earlier", "before", "asked", "enough", "retired", "closed"})


def without_replacements(text: str) -> str:
    """The statement without what it says it replaces (its new claim only): its contrast clauses and
    the spans of its correction frames, both read on the whole text (as :func:`replaced` reads them).
    "" when no word is left ("Merging without CI passing isn't allowed anymore." names only the old
    value): callers keep the statement then, or find no new claim in it."""
    text = text.replace("\u2019", "'")
    spans = [[m.start() + _kept_prefix(m), m.end()] for m in _CONTRAST.finditer(text)]
    spans += [[hit.start, hit.end] for hit in corrections.hits(text)]
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)  # overlapping spans go as one
        else:
            merged.append([start, end])
    main = text
    for start, end in reversed(merged):
        main = main[:start] + " " + main[end:]
    return main if re.search(r"\w", main) else ""


def _kept_prefix(match: re.Match[str]) -> int:
    """How much of a contrast match stays: "prefer X" of "prefer X over Y", nothing of ", not Y"."""
    return len(_keep_prefix(match)) if match.group("c") is not None else 0


# --- slots: the statement with its values masked --------------------------------------------------
_MASK_NUMBER = re.compile(r"(?<![\w])\d+(?:[.:]\d+)*\s*%?")
_MASK_CODE = re.compile(r"`[^`]+`|--[a-z][\w-]+|\b[\w-]+\.(?:py|ts|js|go|rs|sql|yaml|yml|json|toml)\b")
_OPTION_WORDS = frozenset(w for group in OPTION_GROUPS for w in group)


def slot_text(text: str) -> str:
    """The statement with what fills the slot masked: contrast and replaced clauses dropped, numbers,
    code and enumerated options replaced by ``#`` — so "2 decimals, not 4" and "rounded to 4 decimals"
    read alike, and a note's rivals are found by this text's embedding neighbourhood."""
    main = without_replacements(text)
    main = _MASK_CODE.sub("#", main)
    main = _MASK_NUMBER.sub("# ", main)
    kept = ["#" if lemma(w.lower()) in _OPTION_WORDS or w.lower() in _NUMBER_WORDS else w for w in main.split()]
    masked = re.sub(r"\s+([.,;:!?])", r"\1", re.sub(r"\s+", " ", " ".join(kept))).strip(" ,;:-")
    return masked or text


# --- values two statements agree on --------------------------------------------------------------
#: A number a statement names (read lower-cased); a date, a clock time or an ISO timestamp is one value
#: (``2024-07-11``, ``09:14:02``, ``2024-07-11t09:14:02z``), never its pieces: two log lines stamped
#: 09:14:02 and 14:37:41 share no "14".
_VALUE_NUMBER = re.compile(r"(?<![\w.])(?:\d{4}-\d\d-\d\dt\d\d:\d\d(?::\d\d)?(?:\.\d+)?z?|\d{4}-\d\d-\d\d"
                           r"|\d{1,2}:\d\d(?::\d\d)?|\d{2,}(?:\.\d+)*|\d+(?:\.\d+)+)(?![\w])")
_VALUE_NAME = re.compile(r"(?<![\w-])[a-z][a-z]*(?:[-_][a-z]+)+(?![\w-])")


def stated_values(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The values a statement names: numbers of two or more digits (or dotted), and hyphenated or
    underscored names without digits ("events-main"; "worker-1" names an instance, not a value)."""
    lowered = text.lower()
    return frozenset(_VALUE_NUMBER.findall(lowered)), frozenset(_VALUE_NAME.findall(lowered))


#: A token that may name a part: hyphenated pieces of letters and digits, starting with a letter.
_PART = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-]|\.\d)")
#: A piece that mixes letters and digits, letters first: ``nrf5340``, ``esp32``, ``g2``, ``a10``.
_MIXED_PIECE = re.compile(r"[a-z]+[0-9][a-z0-9]*")
#: Digests, encodings, architectures, data types, specs, runtimes and pins: words of every tool's output,
#: no part of anything.
_NOT_PARTS = re.compile(r"(?:sha|base|win|arm|amd|aarch|ppc|utf|u?int|float|crc|rfc|iso|py|cp|node|java|gpio|es|ed|aes|md"
                        r"|x86-|i)\d+\w*|s390x|[0-9a-f]+")  # …and a hex digest or short commit (a1b2c3d)


def part_names(text: str) -> frozenset[str]:
    """The parts a text names (lower case): a chip, a board, a model, a machine type (``nRF5340``,
    ``ESP32-S3``, ``g2-standard-48``): at least five characters, two letters and two digits, one piece
    mixing letters and digits letters first — never a version, a count with its unit (``41m``), nor an
    instance's name (``gs-node-14``, ``gke-pool-4f2a``: a number or a random suffix on plain words)."""
    return frozenset(t for t in _PART.findall(text.lower()) if len(t) >= 5 and sum(c.isdigit() for c in t) >= 2
                     and sum(c.isalpha() for c in t) >= 2 and any(_MIXED_PIECE.fullmatch(p) for p in t.split("-"))
                     and not _NOT_PARTS.fullmatch(t))


def same_value(a: str, b: str, ignored: frozenset[str] = frozenset()) -> bool:
    """Both statements name a value in common: a number when both name numbers, else a name (one of
    ``ignored`` — the module both are about — is no value of either)."""
    numbers_a, names_a = stated_values(a)
    numbers_b, names_b = stated_values(b)
    names_a, names_b = names_a - ignored, names_b - ignored
    if numbers_a and numbers_b:
        return bool(numbers_a & numbers_b)
    if numbers_a or numbers_b:
        return False
    return bool(names_a & names_b)


def _phrase_words(text: str) -> list[str]:
    main, _ = split_contrast(sentences(text)[0])
    return [w for w in content_words(main) if w not in VERBS and len(w) > 1]


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, a semicolon ending one too ("I don't have time for essays; a summary")."""
    return _SENTENCE_END.split(text.strip())


def phrase_polarities(text: str, pairs: frozenset[tuple[str, str]]) -> frozenset[int]:
    """The polarity of each sentence of ``text`` that says one of ``pairs`` (:func:`phrases`)."""
    return frozenset(polarity(s) for s in sentences(text) if phrases(s) & pairs)


def phrases(text: str) -> frozenset[tuple[str, str]]:
    """Pairs of consecutive content words of each sentence's main clause, common verbs aside."""
    found: set[tuple[str, str]] = set()
    for sentence in sentences(text):
        kept = _phrase_words(sentence)
        found.update(zip(kept, kept[1:], strict=False))
    return frozenset(found)


def same_phrase(a: str, b: str) -> bool:
    """One statement's first sentence ends on a phrase the other says too, in any sentence ("... an
    email summary", "... in US Pacific time"): a preference's value comes last, so "status reports as
    a table" and "status reports as a bulleted list" share a phrase but not their ends."""
    def last(text: str) -> tuple[str, str] | None:
        kept = _phrase_words(text)
        return (kept[-2], kept[-1]) if len(kept) >= 2 else None

    ends = {last(a), last(b)} - {None}
    return any(end in phrases(a) and end in phrases(b) for end in ends)


def words_beyond(text: str, other: str) -> frozenset[str]:
    """The content words of ``text`` (common verbs aside) that ``other`` does not say."""
    said = set(content_words(other))
    return frozenset(w for w in content_words(text) if w not in VERBS and w not in said)


def same_wish(a: str, b: str) -> bool:
    """:func:`same_phrase`, and no different word set right before the run of words both share: "a weekly
    email summary" is not "a daily email summary" ("as a short bulleted list" and "preference: a short
    bulleted list" are one wish: an article, not a word of the wish, comes before)."""
    if not same_phrase(a, b):
        return False
    runs_a, runs_b = _lemma_runs(a), _lemma_runs(b)
    for end in phrases(a) & phrases(b):
        before = {_word_before(runs_a, end, runs_b), _word_before(runs_b, end, runs_a)}
        if None not in before and len(before) == 2:
            return False
    return True


def _lemma_runs(text: str) -> list[list[str]]:
    """The lemmas of each sentence's main clause, every word kept."""
    return [[lemma(w) for w in words(split_contrast(sentence)[0])] for sentence in sentences(text)]


def _word_before(runs: list[list[str]], end: tuple[str, str], others: list[list[str]]) -> str | None:
    """The word just before the longest run ending on ``end`` that ``others`` say too, when it is a
    content word (None: none, or a word like "a", "the", "as")."""
    for said in runs:
        for i in range(len(said) - 1):
            if (said[i], said[i + 1]) != end:
                continue
            start = i
            while start > 0 and any(_says(other, said[start - 1:i + 2]) for other in others):
                start -= 1
            word = said[start - 1] if start > 0 else None
            return word if word is not None and content_words(word) and word not in VERBS else None
    return None


def _says(words: list[str], run: list[str]) -> bool:
    n = len(run)
    return any(words[j:j + n] == run for j in range(len(words) - n + 1))

