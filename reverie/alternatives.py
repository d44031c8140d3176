"""Values that fill one frame: what a team's own wishes say are alternatives of one choice.

A person changes a wish without naming the old value ("didn't I tell you we switched to WDL on
Cromwell? new stuff goes there") and MiniLM does not relate the values (cosine 0.11 between
"WDL on Cromwell" and "Snakemake"). The team's wishes do: two people of one project say "Write
new pipelines in Snakemake." and "Write new pipelines in WDL on Cromwell." — one frame, two
fillers — so the two values answer one question, and one person naming both, at two times, has
changed their mind. This is the paradigmatic relation of distributional semantics, read from the
aligned wordings rather than learned.

Two statements of two people are aligned by the words they share at the start and the end (at
least :data:`FRAME_WORDS` of them, so "I like _" frames nothing); the two middles, each at most
:data:`VALUE_WORDS` words, are the fillers. A middle is a value only if it carries a content word
of its own (articles and end punctuation dropped; two middles where one's content words contain the
other's are one value refined, not two), no word of a person (a frame's lead-in, "since the new
postdoc started I've wanted", is who speaks, not what they want) and no name of a module or project
(``names``: "For datamix, …" and "For evalsuite, …" are two things, not two choices of one);
a masked span (``[EMAIL]``) never is. Fillers linked
through frames form groups (union-find): any two values of a group are alternatives. Only the
values cross the store's boundary, never the statements they came from.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from reverie.statements import STOPWORDS

FRAME_WORDS = 4  # words two statements share at their start and end, together, to be one frame
VALUE_WORDS = 14  # the longest filler counted as a value
BUCKET_LIMIT = 400  # statements compared within one bucket (a frame's first or last two words)

_TOKEN = re.compile(r"[a-z0-9][a-z0-9.+#_/'-]*")
_ARTICLES = frozenset({"a", "an", "the"})
_MASK = re.compile(r"\[[A-Z_]+\]")
_PERSONS = frozenset({"i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "we", "we're", "we've", "our", "us",
                      "you", "you're", "your"})

Value = tuple[str, ...]


@dataclass(frozen=True)
class Alternatives:
    """The groups of values that fill one frame: ``group[value]`` is the group's number."""

    group: Mapping[Value, int] = field(default_factory=dict)

    def values_in(self, statement: str) -> frozenset[Value]:
        """The known values a statement names, as whole runs of its words."""
        words = tokens(statement)
        found = set()
        for size in {len(v) for v in self.group}:
            found |= {run for i in range(len(words) - size + 1) if (run := tuple(words[i:i + size])) in self.group}
        return frozenset(found)

    def changed(self, old: str, new: str) -> bool:
        """``new`` names a value of a group whose other value ``old`` names, and neither names the other's."""
        before, after = self.values_in(old), self.values_in(new)
        return any(self.group[a] == self.group[b] and a not in before and b not in after
                   for a in after for b in before if a != b)


def tokens(text: str) -> list[str]:
    return [t.strip(".'-") for t in _TOKEN.findall(text.lower()) if t.strip(".'-")]


class Frames:
    """The frames learnt so far, grown one statement at a time (a long-lived reader adds only what is new):
    each statement is aligned with the statements of its buckets (its first two words, its last two),
    at most :data:`BUCKET_LIMIT` of each, and every pair of fillers found is kept."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, ...], list[tuple[str, Value]]] = defaultdict(list)
        self._said: set[tuple[str, Value]] = set()
        self._pairs: set[tuple[Value, Value]] = set()

    def add(self, author: str, text: str) -> None:
        words = tuple(tokens(text))
        if _MASK.search(text) or len(words) < FRAME_WORDS or (author, words) in self._said:
            return
        self._said.add((author, words))
        for bucket in (("<", *words[:2]), (">", *words[-2:])):
            rows = self._buckets[bucket]
            for other_author, other in rows[:BUCKET_LIMIT]:
                if other_author != author and (pair := fillers(words, other)):
                    self._pairs.add((min(pair), max(pair)))
            rows.append((author, words))

    def alternatives(self, names: Iterable[str] = ()) -> Alternatives:
        """The groups of the fillers found (union-find), leaving out any filler naming one of ``names``."""
        things = frozenset(t for name in names for t in tokens(name))
        parent: dict[Value, Value] = {}
        for a, b in sorted(self._pairs):
            if things.isdisjoint(a) and things.isdisjoint(b):
                _join(parent, a, b)
        roots = sorted({_root(parent, v) for v in parent})
        number = {root: n for n, root in enumerate(roots)}
        return Alternatives({value: number[_root(parent, value)] for value in parent})


def learn(statements: Iterable[tuple[str, str]], names: Iterable[str] = ()) -> Alternatives:
    """The groups of fillers of ``(author, statement)`` pairs: only two authors' statements align;
    a filler naming one of ``names`` (modules, projects) is no value."""
    frames = Frames()
    for author, text in sorted(set(statements)):
        frames.add(author, text)
    return frames.alternatives(names)


def fillers(a: Value, b: Value) -> tuple[Value, Value] | None:
    """The two values filling one frame of ``a`` and ``b``, if they are of one frame."""
    if a == b:
        return None
    shortest = min(len(a), len(b))
    start = 0
    while start < shortest and a[start] == b[start]:
        start += 1
    end = 0
    while end < shortest - start and a[-1 - end] == b[-1 - end]:
        end += 1
    if start + end < FRAME_WORDS:
        return None
    left, right = _value(a[start:len(a) - end]), _value(b[start:len(b) - end])
    if not left or not right or left == right:
        return None
    mine, theirs = _content(left), _content(right)
    return None if mine <= theirs or theirs <= mine else (left, right)


def _value(words: Value) -> Value:
    if len(words) > VALUE_WORDS or not _PERSONS.isdisjoint(words):
        return ()
    while words and words[0] in _ARTICLES:
        words = words[1:]
    return words if _content(words) else ()


def _content(words: Value) -> frozenset[str]:
    return frozenset(w for w in words if w not in STOPWORDS and any(c.isalpha() for c in w) and len(w) > 1)


def _root(parent: dict[Value, Value], value: Value) -> Value:
    while parent[value] != value:
        parent[value] = parent[parent[value]]
        value = parent[value]
    return value


def _join(parent: dict[Value, Value], a: Value, b: Value) -> None:
    parent.setdefault(a, a)
    parent.setdefault(b, b)
    ra, rb = _root(parent, a), _root(parent, b)
    if ra != rb:
        parent[max(ra, rb)] = min(ra, rb)
