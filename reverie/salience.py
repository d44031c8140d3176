"""Which events are worth consolidating: explicit tags, cues in the text, and chatter.

Salience comes from the agent's tags (``preference``, ``correction``, ``constraint``, ``lesson``,
``verified``, ``success``, ``risk``, ``procedure``), from its ``importance``, and from cues found in
the text: a user correction, an explicit preference, a constraint, a verified result, a success
after a tool error (needs the session), a constraint repeated across sessions (needs the replay);
and from who says it: a user telling how to serve them ("give me", "for me", "my reports") and an
agent's or user's ``outcome`` report.
A ``correction`` tag, a ``feedback`` event and a statement worded as a replacement always score at
least the correction weight, so they reach extraction. Chatter ("thanks", "ok", "running it now")
scores 0 whatever its tags, so it never becomes a note.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reverie.quarantine import instruction_findings
from reverie.records import Event
from reverie.statements import NEGATORS, STOPWORDS, content_words, says_replacement, words

TAG_WEIGHTS: dict[str, float] = {
    "correction": 1.0, "verified": 0.95, "constraint": 0.9, "preference": 0.9, "lesson": 0.85,
    "procedure": 0.85, "risk": 0.8, "success": 0.7, "error": 0.3,
}
CUES: dict[str, re.Pattern[str]] = {
    "correction": re.compile(
        r"^\s*(?:correction\b|actually\b|no[,.!]\s|that'?s (?:wrong|not right|incorrect)|wrong[,.:])"
        r"|\b(?:should have been|is wrong|was wrong|not \w+ but|we changed|has changed|policy changed)\b",
        re.IGNORECASE,
    ),
    "preference": re.compile(
        r"\b(?:i|we) (?:prefer|like|want|would rather|'d rather)\b|\bprefer(?:s|red)?\b|\brather than\b"
        r"|\binstead of\b|\b(?:please )?(?:always|never)\b|\bplease use\b|\bplease\b.*\bnot\b",
        re.IGNORECASE,
    ),
    "constraint": re.compile(
        r"\b(?:must|must not|mustn't|never|do not|don't|shall not|is not allowed|are not allowed|only)\b"
        r"|\b(?:at most|at least|no more than|required|mandatory|forbidden|prohibited)\b",
        re.IGNORECASE,
    ),
    "verified": re.compile(
        r"\b(?:verified|confirmed|validated|\d+ passed|all tests pass(?:ed)?|tests? pass(?:ed|es)?|"
        r"succeeded|matches the|diff\s*=\s*0|exit code 0|green build)\b",
        re.IGNORECASE,
    ),
    "lesson": re.compile(
        r"^\s*lesson\b|\b(?:lesson learned|learned that|next time|turns out|the fix was|root cause|"
        r"the trick is|caught|surfaces?|would have)\b",
        re.IGNORECASE,
    ),
    "success": re.compile(
        r"\b(?:passed|succeeded|success(?:ful(?:ly)?)?|fixed|resolved|works now|worked|approved|done)\b",
        re.IGNORECASE,
    ),
    "error": re.compile(
        r"\b(?:error|failed|failure|exception|traceback|timed? ?out|refused|denied|not found)\b",
        re.IGNORECASE,
    ),
}
CUE_WEIGHTS: dict[str, float] = {
    "correction": 0.9, "preference": 0.7, "constraint": 0.75, "verified": 0.8, "lesson": 0.7,
    "recovered": 0.85, "repeated": 0.9, "success": 0.3, "error": 0.3, "feedback": 0.9,
    "addressed": 0.7, "outcome": 0.75,
}
#: A user telling the agent how to serve them: a request to them ("give me …", "alerts should reach me …",
#: "when you review my code, …", "my summaries should …"): a preference, tagged or not. A sentence that
#: only mentions "me" or "my" ("my kids love the beach") tells a story, not how to serve anyone.
_ADDRESSED = re.compile(
    r"\b(?:give|send|show|remind|email|mail|ping|notify|message|alert|brief|reach|forward|cc|wake)\s+me\b"
    r"|\bwhen you\b[^.?!]*\b(?:me|my)\b"
    r"|\bmy\s+(?:\w+\s+){0,3}(?:should|must|needs? to|has to|have to)\b",
    re.IGNORECASE)
_NOT_ADDRESSED = re.compile(r"\blet me\b|\bgive me\s+(?:a|an|one|two|five|ten|\d+|some|a few|a couple of)?\s*"
                    r"(?:min(?:ute)?|sec(?:ond)?|moment|bit|while|hour)s?\b", re.IGNORECASE)  # not how to serve them: a pause
_MIN_CONTENT_WORDS = 3
_CHATTER_WORDS = frozenset("""
thanks thank you thx ty ok okay k great cool nice perfect sure yes yep yeah no nope fine good
looks look sounds sound done running run checking check looking into on it will do doing working
now let me see one moment sec second wait hold got noted alright right awesome lgtm np the a
tests test again retrying trying starting start going ahead here we go finished finish complete completed
wrapped step set bit part cheers bye
""".split())
_PROGRESS = re.compile(
    r"^\s*(?:running|checking|looking|working|starting|retrying|trying|on it|one moment|give me)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Salience:
    """How worth consolidating an event is (0..1), why, and what it tries to instruct."""

    score: float
    cues: tuple[str, ...] = ()
    chatter: bool = False
    instructions: tuple[str, ...] = ()

    def salient(self, threshold: float) -> bool:
        return not self.chatter and (self.score >= threshold or bool(self.instructions))


def is_chatter(text: str) -> bool:
    """Small talk and progress notes: short, and made of acknowledgement or progress words only
    (function words aside: "Good, we're done", "Done with that step")."""
    tokens = words(text)
    if not tokens or len(tokens) > 8:
        return False
    meaningful = [t for t in tokens if t not in STOPWORDS and t not in NEGATORS]
    if all(t in _CHATTER_WORDS for t in (meaningful or tokens)):
        return True
    return len(tokens) <= 5 and bool(_PROGRESS.match(text)) and not any(t.isdigit() for t in tokens)


#: Words that read like a rule or a preference but tell a story or a feeling: "I've always had a love
#: for horses", "we never went back", "Don't feel like I'm making much of an impact", "I only went
#: once". They are taken out before the cues are looked for (a rule still says "Always run …",
#: "never deploy on Fridays", "Don't push to main", "only after 18:00").
_SMALL_TALK = (
    re.compile(r"\b(?:have|has|had|was|were|been|'ve|'d|'s)\s+(?:always|never)\b"
               r"|\b(?:always|never)\s+(?:had|was|were|been|felt|thought|knew|got|went|saw|made|took|wanted|"
               r"loved|liked|dreamed|wished|imagined|expected|realized|\w+ed)\b", re.IGNORECASE),
    re.compile(r"\b(?:don'?t|do not|doesn'?t|does not|didn'?t|did not)\s+(?:really\s+|even\s+|always\s+)?"
               r"(?:feel|think|know|worry|mind|care|remember|understand|believe|get|see|like|love|want|wanna|"
               r"have|need|regret|blame|expect|recall|usually|mean)\b", re.IGNORECASE),
    re.compile(r"\bonly\b(?!\s+(?:be\s+|been\s+|ever\s+)?(?:allowed|permitted|after|before|on|if|when|with|via|"
               r"through|from|during|between|in|at|once|\d))", re.IGNORECASE),
)


def rule_words(text: str) -> str:
    """``text`` without the words that only look like a rule or a preference (:data:`_SMALL_TALK`)."""
    for pattern in _SMALL_TALK:
        text = pattern.sub(" ", text)
    return text


def text_cues(text: str, *, spoken: bool = True) -> list[str]:
    """Cue names found in ``text``; something said (not tool output) worded as a replacement
    ("instead of", "no longer", "switch to", "used to", "X, not Y" ...) is a ``correction`` cue
    (whether it corrects a note is decided against the notes, in consolidation). Stories and feelings
    worded like rules ("I've always had …", "Don't feel like …") are not rules (:func:`rule_words`)."""
    ruled = rule_words(text)
    found = [name for name, pattern in CUES.items()
             if pattern.search(ruled if name in ("preference", "constraint") else text)]
    if spoken and "correction" not in found and says_replacement(text):
        found.insert(0, "correction")
    return found


def assess(event: Event) -> Salience:
    """Salience of one event alone: tags, importance and cues in its own text."""
    findings = tuple(instruction_findings(event.text))
    if is_chatter(event.text):
        return Salience(0.0, ("chatter",), chatter=True, instructions=findings)
    cues = [f"tag:{t}" for t in event.tags if t in TAG_WEIGHTS]
    cues += text_cues(event.text, spoken=event.role in ("user", "assistant"))
    if event.kind == "feedback":
        cues.append("feedback")
    cues += spoken_cues(event)
    if event.verified:
        cues.append("verified")
    weights = [TAG_WEIGHTS[c[4:]] if c.startswith("tag:") else CUE_WEIGHTS[c] for c in cues]
    score = max([event.importance, *weights])
    return Salience(round(score, 3), tuple(dict.fromkeys(cues)), instructions=findings)


def spoken_cues(event: Event) -> list[str]:
    """Cues of who says what, beyond the words: a user's statement about how to serve them
    (``addressed``) and an agent's or user's report of an ``outcome`` (what happened and what it
    taught). Questions and short remarks carry neither."""
    text = event.text.strip()
    if event.role not in ("user", "assistant") or text.endswith("?") or len(content_words(text)) < _MIN_CONTENT_WORDS:
        return []
    found = []
    if event.role == "user" and event.kind in ("message", "feedback") and _ADDRESSED.search(_NOT_ADDRESSED.sub(" ", text)):
        found.append("addressed")
    if event.kind == "outcome":
        found.append("outcome")
    return found


def assess_session(events: Sequence[Event]) -> list[Salience]:
    """Salience of each event of one session, oldest first, with the cues that need the session."""
    found = [assess(e) for e in events]
    failed_at: int | None = None
    for index, (event, salience) in enumerate(zip(events, found, strict=True)):
        if _is_error(event, salience):
            failed_at = index
        elif failed_at is not None and _is_success(salience):
            found[index] = _with(salience, "recovered")
            found[failed_at] = _with(found[failed_at], "error")
            failed_at = None
    return found


def mark_repeated(events: Sequence[Event], saliences: Sequence[Salience], overlap: float = 0.5) -> list[Salience]:
    """Raise constraints stated again (in another event of the replay) with the ``repeated`` cue."""
    constraint_like = [
        i for i, s in enumerate(saliences)
        if not s.chatter and ("constraint" in s.cues or "tag:constraint" in s.cues)
    ]
    bags = {i: set(content_words(events[i].text)) for i in constraint_like}
    result = list(saliences)
    for i in constraint_like:
        for j in constraint_like:
            if i != j and _jaccard(bags[i], bags[j]) >= overlap:
                result[i] = _with(result[i], "repeated")
                break
    return result


def _is_error(event: Event, salience: Salience) -> bool:
    return ("tag:error" in salience.cues or "error" in salience.cues) and event.role in ("tool", "system")


def _is_success(salience: Salience) -> bool:
    return any(c in salience.cues for c in ("success", "tag:success", "verified", "tag:verified", "tag:lesson"))


def _with(salience: Salience, cue: str) -> Salience:
    if cue in salience.cues or salience.chatter:
        return salience
    return Salience(max(salience.score, CUE_WEIGHTS[cue]), (*salience.cues, cue), False, salience.instructions)


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
