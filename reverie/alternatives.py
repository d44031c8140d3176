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
a statement with a masked span (``[PII:email]``) teaches nothing. Two fillers of one frame are
alternatives; frames are never chained. A value counts where a statement asserts it (not in a negated
sentence, a contrast clause, or after "drop" / "stop"). Only the values cross the store's boundary,
never the statements they came from.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from reverie.privacy.findings import PLACEHOLDER
from reverie.statements import STOPWORDS, polarity, sentences, without_replacements

FRAME_WORDS = 4  # words two statements share at their start and end, together, to be one frame
VALUE_WORDS = 14  # the longest filler counted as a value
BUCKET_LIMIT = 400  # statements compared within one bucket (a frame's first or last two words)

_TOKEN = re.compile(r"[a-z0-9][a-z0-9.+#_/'-]*")
_ARTICLES = frozenset({"a", "an", "the"})
_RHETORICAL = re.compile(r"^\W*(?:\w+\W+)?(?:didn't|don't|haven't|hasn't|wasn't|weren't|isn't|aren't|doesn't)\s+"
                         r"(?:i|we|you|it)\b.*\?\W*$", re.IGNORECASE)
_WITHDRAWN = re.compile(r"\b(?:stop|drop|dropping|quit|ditch|forget|no\s+longer|no\s+more|enough\s+with)\b", re.IGNORECASE)
_PERSONS = frozenset({"i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "we", "we're", "we've", "our", "us",
                      "you", "you're", "your"})

Value = tuple[str, ...]


class Alternatives:
    """The values two people filled one frame with: ``links[value]`` is every value it shared a frame
    with. Only a direct link counts — frames are never chained ("Use _ in all docs" links tabs and
    British spelling, "… workflows in _" Snakemake and WDL: a chain would make tabs and WDL one choice)."""

    def __init__(self, links: Mapping[Value, frozenset[Value]] | None = None) -> None:
        self.links = dict(links or {})
        self._sizes = sorted({len(v) for v in self.links})

    def values_in(self, statement: str) -> frozenset[Value]:
        """The known values a statement asserts, as whole runs of its words: in a sentence that is not
        negated (a rhetorical "didn't I tell you we switched to X?" asserts X), outside its contrast
        clauses ("X, not Y") and not after a word that withdraws ("please drop Y", "stop sending Y")."""
        kept = [_WITHDRAWN.split(without_replacements(sentence) or sentence)[0] for sentence in sentences(statement)
                if polarity(sentence) >= 0 or _RHETORICAL.match(sentence)]
        words = tokens(" ".join(kept))  # one run of words: "HGVS c. and p. notation" is split as sentences
        found: set[Value] = set()
        for size in self._sizes:
            found |= {run for i in range(len(words) - size + 1) if (run := tuple(words[i:i + size])) in self.links}
        return frozenset(found)

    def changed(self, old: str, new: str) -> bool:
        """``new`` asserts a value that shared a frame with one ``old`` asserts, and neither asserts the other's."""
        before, after = self.values_in(old), self.values_in(new)
        return any(b in self.links[a] and a not in before and b not in after for a in after for b in before)


def tokens(text: str) -> list[str]:
    """Lower-cased words, keeping what joins a name (``dsl2``, ``c++``, ``pre-commit``), ends trimmed."""
    return [t.strip(".'-") for t in _TOKEN.findall(text.lower()) if t.strip(".'-")]


class Frames:
    """The frames learnt so far, grown one statement at a time (a long-lived reader adds only what is new):
    each statement is aligned with the statements of its buckets (its first two words, its last two),
    at most :data:`BUCKET_LIMIT` of each, and every pair of fillers found is kept."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, ...], list[tuple[str, Value]]] = defaultdict(list)
        self._said: set[tuple[str, Value]] = set()
        self._pairs: set[tuple[Value, Value]] = set()

    def __len__(self) -> int:
        """How many pairs of fillers were found (grows only)."""
        return len(self._pairs)

    def add(self, author: str, text: str) -> None:
        words = tuple(tokens(text))
        if PLACEHOLDER.search(text) or len(words) < FRAME_WORDS or (author, words) in self._said:
            return
        self._said.add((author, words))
        for bucket in (("<", *words[:2]), (">", *words[-2:])):
            rows = self._buckets[bucket]
            for other_author, other in rows[:BUCKET_LIMIT]:
                if other_author != author and (pair := fillers(words, other)):
                    self._pairs.add((min(pair), max(pair)))
            rows.append((author, words))

    def alternatives(self, names: Iterable[str] = ()) -> Alternatives:
        """The links found, leaving out any filler naming one of ``names``."""
        things = frozenset(t for name in names for t in tokens(name))
        links: dict[Value, set[Value]] = defaultdict(set)
        for a, b in self._pairs:
            if things.isdisjoint(a) and things.isdisjoint(b):
                links[a].add(b)
                links[b].add(a)
        return Alternatives({value: frozenset(others) for value, others in links.items()})


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
