"""Lapsed states ("X isn't allowed anymore", "not X anymore", "no longer X"): which part is the old value.

A clause that says something stopped holding names the old value in its subject or its predicate.
The subject is the old value when the predicate only says it is no longer permitted or needed
("Merging without CI isn't allowed anymore") or names the role it no longer fills ("Jest is no longer
our test runner"); otherwise the predicate is ("The logo isn't blue anymore", "Finance no longer wants
CSV exports", "Not Felix anymore"). A verb alone is no old value: "I can't eat any more" is about
appetite, and "any more help" is a quantity, not a lapse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_I = re.IGNORECASE
_CLAUSE = re.compile(r"(?:[^,;:!?()\u2014\u2013.]|(?<=\d)[.,:](?=\d))+")  # "9:30" and "3.11" end no clause
_LAPSE = re.compile(r"\bno\s+longer\b|\banymore\b|\bany\s+more\b(?!\s+[a-z])|\bany\s+longer\b(?!\s+than)", _I)
#: The clause's subject, its negation and its predicate. "(?<!\s)" tries a run of spaces once, not at
#: each of its spaces (a negation can only follow the whole run): that keeps the match linear.
_NEGATED = re.compile(
    r"(?P<subj>.*?)(?<!\s)\s*(?P<neg>\bno\s+longer\b|\b(?:is|are|was|were|do|does|did|wo|ca)n't\b"
    r"|\b(?:do|does|did|will)\s+not\b|\bcannot\b|\bnot\b|\bnever\b|\b(?:nobody|no\s+one)\s+\w+)\s*(?P<pred>.*)$",
    _I | re.DOTALL,
)
_COPULA = re.compile(r"(?:(?<!\s)\s+(?:is|are|am|was|were)|'s|'re|'m)$", _I)
_LEAD = re.compile(r"^(?:(?:and|but|so|who|which|that|also|well|now)\s+)+", _I)
_PERMISSION = re.compile(r"^(?:allowed|required|needed|necessary|used|supported|valid|permitted|mandatory|enough"
                         r"|in\s+use|the\s+case|an?\s+option|an?\s+thing|recommended|accepted|welcome)\b", _I)
_DETERMINER = re.compile(r"^(?:the|our|a|an|my|your|his|her|their)\b", _I)
#: Verbs and prepositions that lead a predicate without naming anything: "wants to be", "on", "at".
_PREDICATE_LEAD = re.compile(r"^(?:(?:wants?|wanted|needs?|needed|to|be|uses?|used|using|do|does|doing|have|has|having"
                             r"|bother|with|on|at|in|about|of)\s+)+", _I)
_RELATIVE_SUBJECT = re.compile(r"(?:^|\s)(?:what|whatever|which|who|whoever|that)$", _I)
#: After "not"/"no", a word that negates a degree, a focus or an idiom, never a rival value:
#: "not just a hobby", "not sure", "no worries", "no matter what", "never been there".
NOT_A_RIVAL = re.compile(
    r"^(?:just|only|even|too|so|very|really|quite|that|sure|yet|all|everything|everyone|everybody|any\w*|always|much"
    r"|many|enough|exactly|necessarily|entirely|least|if|because|as|like|been|being|had|have|gonna|going|matter"
    r"|doubt|worries|worry|problem|problems|idea|way|thanks|kidding|rush|pressure|offen[cs]e|wonder|clue|biggie"
    r"|big\s+deal|bad|a\s+fan|mention)\b",
    _I,
)
#: A predicate that names no value, whatever the subject: a trouble ("an issue", "a problem") or a
#: certainty ("certain"; "sure" is in NOT_A_RIVAL). "The case" and "an option" are permissions.
_NOT_A_VALUE = re.compile(r"^(?:(?:an?\s+|the\s+)?(?:issue|problem|concern|worry|priority|big\s+deal"
                          r"|surprise|secret|question|mystery)s?|certain|convinced)\b", _I)
_PRONOUNS = frozenset("i we you they he she it this that there these those nobody everyone someone".split())


def lapses(text: str) -> Iterator[tuple[str, int, int]]:
    """(old value, start, end) for each clause of ``text`` that says a state lapsed; the span runs
    from the negation (or the subject, when the subject is the old value) to the lapse word, or only
    to the negation when the clause goes on to name a role the new value fills too ("Jest is no
    longer | our test runner, Vitest is")."""
    for clause in _CLAUSE.finditer(text):
        lapse = _LAPSE.search(clause.group(0))
        if lapse is None:
            continue
        no_longer = lapse.group(0).lower().startswith("no")
        body = clause.group(0) if no_longer else clause.group(0)[:lapse.start()]
        body = re.split(r"\s+but\s+", body, maxsplit=1, flags=_I)[0]  # "no longer X but Y": Y is new
        end = clause.start() + (len(body) if no_longer else lapse.end())
        found = _old(body)
        if found is not None:
            old, offset, kept = found
            yield old, clause.start() + offset, end if kept is None else clause.start() + kept


def _old(body: str) -> tuple[str, int, int | None] | None:
    """The old value of one lapsed clause, where its span starts in ``body``, and where it ends when
    the clause goes on to name a role the new value keeps ("Jest is no longer | our test runner")."""
    match = _NEGATED.match(body)
    if match is None:
        return None
    subject, negation, predicate = match.group("subj"), match.group("neg").lower(), match.group("pred").strip()
    copular = bool(_COPULA.search(subject)) or negation[:2] in ("is", "ar", "wa", "we")
    subject = _LEAD.sub("", _COPULA.sub("", subject)).strip()
    if _RELATIVE_SUBJECT.search(subject):
        return None  # "what no longer serves you" describes, it does not report a lapse
    named = any(w.lower() not in _PRONOUNS for w in re.findall(r"[\w-]+", subject))
    if _NOT_A_VALUE.match(predicate):
        return None  # "it's no longer an issue": the subject is still there, only its trouble is gone
    if _PERMISSION.match(predicate):
        return (subject, body.find(subject), None) if named else None  # "this is no longer the case" names nothing
    if named and copular and _DETERMINER.match(predicate):
        return subject, body.find(subject), match.end("neg")
    value = _PREDICATE_LEAD.sub("", predicate).strip()
    if not value or NOT_A_RIVAL.match(value) or (not copular and negation != "not" and len(predicate.split()) == 1):
        return None
    return value, match.start("neg"), None
