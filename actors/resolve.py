"""Stage 5: resolve contradictions between notes of one slot, and let corrections supersede.

Two notes are rivals when they fill the same *slot* — the same stored ``slot`` id, statements at
least ``conflict_similarity`` alike, value-masked statements (:func:`reverie.statements.slot_text`)
at least ``slot_similarity`` alike, or the same subject — in scopes the run may write, and
:mod:`reverie.conflicts` finds a contradiction. A **correction** is a statement that says what it
replaces ("X instead of Y", "no longer Y", "it used to be Y" ...): its target is any live note of a
scope the agent reads in its project, at least ``correction_similarity`` alike (or, where it states
the very value the correction rejects, ``correction_value_similarity``: found by that value however far
the embedding puts it), whose main clause states what is replaced (lexical evidence:
:func:`reverie.statements.asserts`). A correction that finds no such note corrects nothing. Two tools'
outputs of one scope that print one field with two values (:mod:`reverie.tool_output`), or two
verified readings of one unit with two values, are rivals from ``correction_similarity``; one text
with another value in it (:func:`reverie.conflicts.other_value`) contradicts its older self; so does a
verified reading printing another address than a verified reading of its scope, and a claim of
another address than a verified note is disputed by it (:func:`reverie.conflicts.other_address`;
a host named bare is an address), and an explicit claim naming another name or part (``nRF52840``
against ``"soc": "nRF5340"``) than a verified note; an unverified correction or feedback that names a
module and a value the module's nearest verified reading prints in no shape ("Nah, buildgrid is 30
Hz" against ``sim.tickrate 128``) disputes that reading; notes of two modules are never rivals. A
person's new wish worded as a change that names nothing it replaces changes their nearest live wish
(``changed_wish_similarity``, ``changed_wish_margin``), and so does one tagged a correction or worded
as a withdrawal whose named old value no note states, when that wish shares a word with it (unless it
says what that wish already says beside its contrast clause: a restatement changes nothing); news
about a module of the project ("the engine team finished the event-scheduler upgrade") is no
wish of its author.

Order is by **evidence time** (``last_seen_at``: when the events were observed), never the wall
clock. A later correction supersedes its target. Otherwise the higher resolution score wins —
verified +2, the later evidence +1, observed in this run +0.5 — and high specificity (+1) only
breaks a tie. Whatever the scores, an unverified note never supersedes a verified one: it becomes an
``open_question`` linked to it and the verified note is marked ``contested`` (retrieval shows both).
A remaining tie leaves both visible the same way: never the older claim as the only live answer.
The loser is superseded (``superseded_by``, ``invalid_at``, the overturning evidence in the audit
reason). Rivals share one ``slot`` id, which every note the run writes gets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

import numpy as np

from actors.dedupe import WISHES, changes, changes_wish
from actors.plan import LIVE_STATUSES, Change, NoteIndex
from reverie import corrections
from reverie.conflicts import (
    Conflict,
    conflict_between,
    different_things,
    one_kind_of_place,
    other_address,
    other_part,
    other_tool_version,
    other_value,
    thing_names,
)
from reverie.records import Note
from reverie.restatements import claimed_values, mentions, prints, prints_within
from reverie.settings import ConsolidationSettings
from reverie.statements import (
    VERBS,
    Reading,
    asserts,
    content_words,
    explicit_unit,
    lemma,
    normalise,
    part_names,
    phrase_polarities,
    phrases,
    polarity,
    read,
    replaced,
    same_phrase,
    same_wish,
    sentences,
    slot_text,
    split_contrast,
    stable_digest,
    stated_values,
    without_replacements,
    words,
    words_beyond,
)
from reverie.tool_output import key_words, shares_field

Decision = Literal["supersede_old", "supersede_new", "question"]
RIVAL_POOL = 20
MODULE_KNOWLEDGE = frozenset({"constraint", "procedure", "verified_fact"})
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Rivalry:
    """Why two notes compete: a contradiction in one slot, or an explicit correction of the rival."""

    kind: str
    detail: str
    correction: bool = False


def evidence_time(note: Note) -> datetime:
    """When the note's latest evidence was observed (event time); never the time of the run."""
    return note.last_seen_at or note.valid_from or note.created_at or EPOCH


def is_correction(note: Note) -> bool:
    return "correction" in note.tags or bool(replaced(note.statement))


def resolution_score(note: Note, rival: Note, settings: ConsolidationSettings, *, observed: bool) -> float:
    score = settings.score_verified if note.verified else 0.0
    if evidence_time(note) > evidence_time(rival):
        score += settings.score_later
    return score + (settings.score_observed if observed else 0.0)


def decide(new: Note, old: Note, settings: ConsolidationSettings, *, old_observed: bool, correction: bool = False) -> Decision:
    """Who wins between a note observed in this run (``new``) and a rival it contradicts or corrects."""
    if old.verified and not new.verified:
        return "question"
    if correction and evidence_time(new) >= evidence_time(old):
        return "supersede_old"
    mine = resolution_score(new, old, settings, observed=True)
    theirs = resolution_score(old, new, settings, observed=old_observed)
    if abs(mine - theirs) <= settings.conflict_margin:
        mine += settings.score_specificity if new.specificity == "high" else 0.0
        theirs += settings.score_specificity if old.specificity == "high" else 0.0
    if abs(mine - theirs) <= settings.conflict_margin:
        return "question"
    return "supersede_old" if mine > theirs else "supersede_new"


def writable(scope: str, agent_id: str) -> bool:
    """Scopes a local run may change: the agent's own and module scopes."""
    return scope == f"personal:{agent_id}" or scope.startswith("module:")


def resolve(changes: Sequence[Change], index: NoteIndex, settings: ConsolidationSettings, now: datetime,
            agent_id: str) -> list[Change]:
    views: dict[str, Change] = {c.note.note_id: c for c in changes}
    order = [c.note.note_id for c in changes]
    run = _RunVectors(changes, index)
    for position, note_id in enumerate(order):
        change = views[note_id]
        if not change.observed or not live_claim(change.note):
            continue
        for rival, rivalry in _rivals(change, position, views, run, index, settings, agent_id):
            views = _apply(views, note_id, rival, rivalry, settings, now, agent_id)
            if not live_claim(views[note_id].note):
                break
    views = _recheck_own_claims(views, run, index, settings, now, agent_id)
    views = _recheck_own_wishes(views, index, settings, now, agent_id)
    return assign_slots(list(views.values()), index, run, settings)


def _recheck_own_claims(views: dict[str, Change], run: _RunVectors, index: NoteIndex,
                        settings: ConsolidationSettings, now: datetime, agent_id: str) -> dict[str, Change]:
    """The agent's own live unverified claims that this run did not touch (personal, or module notes it
    wrote), against the verified notes it reads now: a verified note may have been written (by any agent
    of the module) after the claim was consolidated, and a claim that denies it then becomes an open
    question beside it."""
    mine = f"personal:{agent_id}"
    for note in index.notes:
        own = note.scope == mine or (note.scope.startswith("module:") and note.owner_agent == agent_id)
        if not own or note.note_id in views or note.verified or not live_claim(note) or note.type == "pattern":
            continue
        change = Change(note, "edit", "checked against verified notes")
        rivals = [(r, why) for r, why in _rivals(change, None, views, run, index, settings, agent_id) if r.verified]
        if rivals:
            views = {**views, note.note_id: change}
            rival, rivalry = rivals[0]
            views = _apply(views, note.note_id, rival, rivalry, settings, now, agent_id)
    return views


def _recheck_own_wishes(views: dict[str, Change], index: NoteIndex, settings: ConsolidationSettings, now: datetime,
                        agent_id: str) -> dict[str, Change]:
    """The agent's wishes worded as a change, against their older live wishes naming another value of
    one frame (:func:`_other_filler`): the frame may have been learnt from the team after the change was
    consolidated ("Correction: snippets in plain SQL." on day 8, "Write examples for me in plain SQL."
    said by a colleague on day 12). Only a strictly later change supersedes, and the change's live note
    wins: the change itself, or the note of its value that a later restatement superseded it with."""
    current = {n.note_id: n for n in index.notes} | {i: c.note for i, c in views.items()}
    mine = [n.note_id for n in current.values() if n.scope == f"personal:{agent_id}" and n.type in WISHES]
    why = Rivalry("correction", "the same person's later wish of another value of one frame", correction=True)
    changes = [i for i in mine if current[i].status != "deleted" and _changes_a_wish(current[i])
               and not _names_module(current[i], index)]
    for change_id in sorted(changes, key=lambda i: (evidence_time(current[i]), i)):
        change = current[change_id]
        winner = _standing_for(change, current, index)
        for old in [current[i] for i in mine]:
            if winner is None or not _changed_by(old, change, winner, index):
                continue
            views = {**views, winner.note_id: views.get(winner.note_id) or Change(winner, "edit", "checked against older wishes")}
            views = _apply(views, winner.note_id, old, why, settings, now, agent_id)
            current |= {i: views[i].note for i in (winner.note_id, old.note_id)}
            winner = current[winner.note_id] if live_claim(current[winner.note_id]) else None
    return views


def _changed_by(old: Note, change: Note, winner: Note, index: NoteIndex) -> bool:
    """``old`` is a live, unverified wish of the change's project, older than ``change``, naming another
    value of one of its frames (a verified note never loses to a frame; another project's wish is
    another setting)."""
    return (live_claim(old) and old.note_id != winner.note_id and evidence_time(old) < evidence_time(change)
            and _fills_another(old, change, index))


def _fills_another(old: Note, change: Note, index: NoteIndex) -> bool:
    """An unverified wish of the change's project naming another value of one of its frames."""
    return not old.verified and old.project == change.project and index.alternatives.changed(old.statement, change.statement)


def _standing_for(change: Note, current: Mapping[str, Note], index: NoteIndex) -> Note | None:
    """The live note that stands for a change: itself, or the same person's note superseding it that
    asserts one of its values (a later restatement of the new wish, never one withdrawing it)."""
    note: Note | None = change
    seen = set()
    while note is not None and not live_claim(note) and note.superseded_by and note.note_id not in seen:
        seen.add(note.note_id)
        note = current.get(note.superseded_by)
        if note is None or note.scope != change.scope or not (
                index.alternatives.values_in(note.statement) & index.alternatives.values_in(change.statement)):
            return None
    return note if note is not None and live_claim(note) else None


def live_claim(note: Note) -> bool:
    return note.status in LIVE_STATUSES and note.type != "open_question"


class _RunVectors:
    """The run's own notes as matrices (statement and value-masked statement), in run order."""

    def __init__(self, changes: Sequence[Change], index: NoteIndex) -> None:
        self.ids = [c.note.note_id for c in changes]
        self.position = {note_id: i for i, note_id in enumerate(self.ids)}
        self.matrix = _stack([_vector(c, index) for c in changes])
        self.slots = _stack([_slot_vector(c, index) for c in changes])

    def vector(self, note_id: str) -> np.ndarray | None:
        return self.matrix[self.position[note_id]] if self.matrix.size else None

    def earlier(self, position: int) -> dict[str, tuple[float, float]]:
        """Statement and slot similarity of every earlier note of the run."""
        if position == 0 or self.matrix.size == 0:
            return {}
        slot = self.slots[position] if self.slots.size else None
        return self.against(self.matrix[position], slot, position)

    def against(self, vector: np.ndarray, slot: np.ndarray | None, upto: int | None = None) -> dict[str, tuple[float, float]]:
        """Statement and slot similarity of the run's notes (the first ``upto``, else all) to a vector."""
        count = len(self.ids) if upto is None else upto
        if count == 0 or self.matrix.size == 0:
            return {}
        sims = self.matrix[:count] @ vector
        slots = self.slots[:count] @ slot if self.slots.size and slot is not None else np.zeros(count)
        return {self.ids[i]: (float(sims[i]), float(slots[i])) for i in range(count)}


def _stack(vectors: list[np.ndarray | None]) -> np.ndarray:
    dim = next((v.shape[0] for v in vectors if v is not None), 0)
    if not vectors or dim == 0:
        return np.zeros((len(vectors), 0), np.float32)
    return np.stack([v if v is not None else np.zeros(dim, np.float32) for v in vectors]).astype(np.float32)


def _vector(change: Change, index: NoteIndex) -> np.ndarray | None:
    return change.vector if change.vector is not None else index.vector(change.note.note_id)


def _slot_vector(change: Change, index: NoteIndex) -> np.ndarray | None:
    return change.slot_vector if change.slot_vector is not None else index.slot_vector(change.note.note_id)


def _rivals(change: Change, position: int | None, views: dict[str, Change], run: _RunVectors, index: NoteIndex,
            settings: ConsolidationSettings, agent_id: str) -> list[tuple[Note, Rivalry]]:
    """The notes ``change`` competes with: near ones of the index and the run's notes before
    ``position`` (all of them for a note that is not the run's own: ``position`` None)."""
    vector = _vector(change, index)
    if vector is None:
        return []
    mine = _slot_vector(change, index)
    pool: dict[str, tuple[Note, float, float]] = {}
    for note, sim in index.nearest_in(vector, _readable(index, change.note), RIVAL_POOL):
        if note.note_id in run.position:  # the run's own notes: met below if earlier, or from their own turn if later
            continue
        current = views[note.note_id].note if note.note_id in views else note  # as this run left it so far
        theirs = index.slot_vector(note.note_id)
        pool[note.note_id] = (current, sim, float(theirs @ mine) if theirs is not None and mine is not None else sim)
    _add_value_rivals(change.note, vector, mine, pool, views, run, index)
    earlier = run.earlier(position) if position is not None else run.against(vector, mine)
    for other_id, (sim, slot_sim) in earlier.items():
        pool[other_id] = (views[other_id].note, sim, slot_sim)
    found = _competing(change.note, pool, settings, agent_id)
    if not found:
        found += _denied_reading(change.note, pool, settings)  # also for an own claim rechecked later
    if change.new and not any(why.correction for _, why in found):
        found += _changed_wish(change.note, vector, views, run, index, settings)
    if change.note.verified:
        met = {rival.note_id for rival, _ in found}
        found += [(t, why) for t, why in _confirmed(change.note, pool, views, index, settings) if t.note_id not in met]
    return found


def _changed_wish(note: Note, vector: np.ndarray, views: dict[str, Change], run: _RunVectors, index: NoteIndex,
                  settings: ConsolidationSettings) -> list[tuple[Note, Rivalry]]:
    """A person's wish worded as a change that names nothing it replaces ("I moved to X a couple of
    weeks ago", "Correction: snippets in Scala.") or nothing a live note states (called only when no
    note was found stating what it replaces) changes their own wish nearest to it: the most similar
    live wish of their scope, from ``changed_wish_similarity`` and ahead of the next by
    ``changed_wish_margin`` (a person keeps one wish a slot; the nearest is the one the change is about),
    with the notes that restate that wish (never counted as the next). Only a new note changes a wish:
    a note a restatement merged into keeps what it said."""
    if not _changes_a_wish(note) or _names_module(note, index):
        return []
    mine = [views[i].note if i in views else n for n in index.notes if (i := n.note_id) not in run.position]
    mine += [views[i].note for i in run.ids[:run.position.get(note.note_id, len(run.ids))]]
    wishes = [other for other in mine if other.scope == note.scope and other.type in WISHES and live_claim(other)
              and other.note_id != note.note_id]
    if found := _other_filler(note, wishes, index):
        return found
    scored = []
    for other in wishes:
        theirs = run.vector(other.note_id) if other.note_id in run.position else index.vector(other.note_id)
        if theirs is not None:
            scored.append((float(theirs @ vector), other.note_id, other))
    scored.sort(key=lambda row: (-row[0], row[1]))
    if not scored or scored[0][0] < settings.changed_wish_similarity:
        return []
    target = scored[0][2]
    if not changes_wish(note) and not _shares_a_word(note.statement, target.statement):
        return []  # it names an old value no note states: only a wish about the same thing is its target
    if _restates_with_contrast(note.statement, target.statement):
        return []
    mates = [other for _, _, other in scored[1:] if _restates(other, target)]
    rest = [sim for sim, _, other in scored[1:] if other not in mates]
    if rest and scored[0][0] - rest[0] < settings.changed_wish_margin:
        return []
    why = Rivalry("correction", "the same person's nearest wish (or its restatement), which it changes", correction=True)
    return [(wish, why) for wish in (target, *mates)]


def _other_filler(note: Note, wishes: Sequence[Note], index: NoteIndex) -> list[tuple[Note, Rivalry]]:
    """The person's wishes naming another value of a frame the change names one of: "Write new
    pipelines in Snakemake." / "Write new pipelines in WDL on Cromwell." said by two people of the
    project make "we switched to WDL on Cromwell" change every live wish of its author naming Snakemake
    (``reverie.alternatives``, learnt from the team's wishes; the embedding does not relate the values).
    Only an unverified wish of the same project."""
    why = Rivalry("correction", "the same person's wish of another value of one frame, which it changes", correction=True)
    return [(wish, why) for wish in wishes if _fills_another(wish, note, index)]


def _one_wish(note: Note, rival: Note) -> bool:
    """Two wishes of one person that end on one phrase (:func:`reverie.statements.same_phrase`, the
    words either replaces left out): a negation elsewhere ("I don't have time for essays; a two-line
    root cause is plenty") is no denial of what both ask for."""
    if note.type not in WISHES or rival.type not in WISHES or not note.scope.startswith("personal:"):
        return False
    mine = without_replacements(note.statement) or note.statement
    theirs = without_replacements(rival.statement) or rival.statement
    if not same_phrase(mine, theirs):
        return False
    shared = phrases(mine) & phrases(theirs)
    signs = phrase_polarities(mine, shared) | phrase_polarities(theirs, shared)
    if len(signs) != 1:
        return False  # "Don't paste logs in chat" / "Paste logs in chat": one phrase, denied
    return _negates_its_own(mine, theirs) and _negates_its_own(theirs, mine)


def _negates_its_own(text: str, other: str) -> bool:
    """Each negated sentence of ``text`` is about something of its own, two content words ``other`` does
    not say ("I don't have time for essays"), not the shared wish ("Not anymore, please.")."""
    return all(len(words_beyond(sentence, other)) >= 2 for sentence in sentences(text) if polarity(sentence) < 0)


_CLAIMS = frozenset({"constraint", "lesson", "verified_fact"})


def _denied_reading(note: Note, pool: dict[str, tuple[Note, float, float]],
                    settings: ConsolidationSettings) -> list[tuple[Note, Rivalry]]:
    """An unverified claim tagged a correction (or posted as feedback) that names nothing it replaces, asks
    nothing, names a module of its project and asserts a value ("Nah, buildgrid is 30 Hz, I tuned that
    myself", "Firebase 11.8.1 in checkout-kit, I'm sure of it")
    denies the module's verified reading nearest to it — from ``correction_similarity``, ahead of the
    module's next reading by ``changed_wish_margin`` — when that reading prints none of the values the
    claim's first clause asserts: a tool printed the slot otherwise, so the claim is an open question
    beside the reading (which is marked contested), however the two name the setting."""
    if (note.verified or "correction" not in note.tags or note.type not in _CLAIMS or not note.scope.startswith("personal:")
            or replaced(note.statement) or _asks(note.statement)):
        return []  # a correction naming what it replaces finds it by that; a question asserts nothing
    readings = sorted(((sim, other) for other, sim, _ in pool.values()
                       if other.type == "verified_fact" and other.verified and live_claim(other) and other.module
                       and other.scope == f"module:{note.project}/{other.module}" and mentions(note.statement, other.module)),
                      key=lambda row: (-row[0], row[1].note_id))
    if not readings or readings[0][0] < settings.correction_similarity:
        return []
    sim, reading = readings[0]
    if any(other.module == reading.module and sim - s < settings.changed_wish_margin for s, other in readings[1:]):
        return []
    values = [v for v in _first_clause_values(note.statement) if v != reading.module]
    if not values or any(_shows(reading.statement, v) for v in values):
        return []
    return [(reading, Rivalry("value", f"another value than {reading.note_id}, the module's verified reading, prints",
                              correction=True))]


def _shows(reading: str, value: str) -> bool:
    """The reading prints ``value`` in any shape: a token or a name it begins (:func:`prints_within`), or a
    number with a unit or a "v" stuck to it ("30" in ``TICK_RATE 30Hz``, "11.8.1" in ``v11.8.1``)."""
    if prints_within(reading, value):
        return True
    number = re.escape(value)
    return bool(re.fullmatch(r"\d+(?:\.\d+)*", value)) and re.search(rf"(?<![\d.]){number}(?![\d]|\.\d)", reading) is not None


def _asks(statement: str) -> bool:
    return sentences(statement)[0].rstrip().endswith("?")


def _first_clause_values(statement: str) -> list[str]:
    """The value words the first sentence's main clause asserts ("still has the nRF5340; the ESP32-S3
    was only a spike" asserts nRF5340)."""
    main, _ = split_contrast(sentences(statement)[0])
    return claimed_values(main)


def _restates_with_contrast(statement: str, wish: str) -> bool:
    """``statement`` names an old value no note states and, beside it, says what ``wish`` already says
    ("… a two-line root cause and the fix is plenty, not three paragraphs of background" against "can we
    do a two-line root cause and the fix instead of …"): a restatement with a contrast clause changes
    nothing (:func:`reverie.statements.same_phrase` on what is left once the replaced words are gone)."""
    if not replaced(statement):
        return False
    rest = without_replacements(statement)
    return bool(rest) and same_wish(rest, wish)


def _changes_a_wish(note: Note) -> bool:
    """Worded as a change of the author's wish and naming nothing a live note states: the words it
    replaces (if any) found no target ("Forget what I said about timing units. …" names the topic;
    "… a decoded backtrace instead of bare hex addresses, from now on" says what the new wish is not).
    A contrast's own words are no change: the change is in a tag, in other words of it, or in a frame
    that withdraws what was said (:func:`reverie.corrections.hits`)."""
    if changes_wish(note):
        return True
    beyond_contrast = _CONTRAST_WORDS.sub(" ", note.statement)  # "X instead of Y" alone says what X is not
    return note.type in WISHES and note.scope.startswith("personal:") and (
        changes(note.tags, beyond_contrast) or bool(corrections.hits(note.statement)))


_CONTRAST_WORDS = re.compile(r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\b", re.IGNORECASE)


def _shares_a_word(a: str, b: str) -> bool:
    """A content word (not a common verb) in common: "… about logs" / "the logs I forward"."""
    return bool((set(content_words(a)) & set(content_words(b))) - VERBS)


def _names_module(note: Note, index: NoteIndex) -> bool:
    """The statement names a module of its project ("the engine team finished the event-scheduler
    upgrade"): news about the module, not how its author wants to be served."""
    text = note.statement.lower()
    if _PERSONAL.search(text):
        return False  # "switch to email for ledger build failures, please": a wish that names the module
    names = {note.module} if note.module else set()
    names |= {scope.rsplit("/", 1)[-1] for scope in index.scopes() if scope.startswith(f"module:{note.project}/")}
    return any(re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", text) for name in names if name)


_PERSONAL = re.compile(r"\b(?:i|i'm|i'd|me|my|mine|you|your|please|pls)\b")


def _restates(other: Note, wish: Note) -> bool:
    """Another note of the same wish: its slot, or the phrase it ends on (:func:`same_phrase`)."""
    return (other.slot is not None and other.slot == wish.slot) or same_phrase(other.statement, wish.statement)


def _add_value_rivals(note: Note, vector: np.ndarray, mine: np.ndarray | None, pool: dict[str, tuple[Note, float, float]],
                      views: dict[str, Change], run: _RunVectors, index: NoteIndex) -> None:
    """Notes of the readable scopes that state a value the note's correction rejects for the same unit
    ("not 12" of partitions): found by the value, however far the embedding puts them (a tool's output
    and a sentence about it are worded apart)."""
    phrases = replaced(note.statement)
    rejected = read(note.statement).rejected_values if phrases else {}
    named = _named_values(phrases)
    if not rejected and not named:
        return
    scopes = set(_readable(index, note))
    for other in index.notes:
        if other.note_id in pool or other.note_id in run.position or other.scope not in scopes or not live_claim(other):
            continue
        if not (_states_verbatim(named, other.statement) or (
                rejected and _has_digit(other.statement) and _states_rejected(rejected, read(other.statement).values))):
            continue
        theirs, slot = index.vector(other.note_id), index.slot_vector(other.note_id)
        if theirs is None:
            continue
        sim = float(theirs @ vector)
        current = views[other.note_id].note if other.note_id in views else other
        pool[other.note_id] = (current, sim, float(slot @ mine) if slot is not None and mine is not None else sim)


#: A replaced phrase that names a value rather than a kind of thing: an inner hyphen, dot, underscore or
#: "://" ("X-Small", "s3://raw-eu", "v2.3"), or a capitalised word after its first letter ("PostgreSQL").
#: A bare number is no name: numbers tie a correction to a note by their unit (``rejected_values``).
_VALUE_LIKE = re.compile(r"\w[-_.]\w|://|\b\w+[A-Z]")
_BARE_NUMBER = re.compile(r"[\d\s.,%]+")


def _named_values(phrases: Sequence[str]) -> list[str]:
    return [p for p in phrases if _VALUE_LIKE.search(p) and not _BARE_NUMBER.fullmatch(p)]


def _has_digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def _states_verbatim(phrases: Sequence[str], statement: str) -> bool:
    return any(mentions(statement, p) for p in phrases)


def _states_rejected(rejected: Mapping[str, frozenset[float]], values: Mapping[str, frozenset[float]]) -> bool:
    return any(rejected[unit] & values.get(unit, frozenset()) for unit in rejected)


def _confirmed(note: Note, pool: dict[str, tuple[Note, float, float]], views: dict[str, Change], index: NoteIndex,
               settings: ConsolidationSettings) -> list[tuple[Note, Rivalry]]:
    """A verified note that states what an open correction claims confirms it: the correction's target
    (a verified note it could not overturn alone) is then this note's rival, as an explicit correction.
    Lexical evidence both ways: the note states the correction's new claim, and the target asserts
    what the correction replaces and not the new claim."""
    found = []
    for question_id, (question, sim, _) in sorted(pool.items(), key=lambda kv: (-kv[1][1], kv[0])):
        if question.type != "open_question" or question.status not in LIVE_STATUSES or sim < settings.correction_similarity:
            continue
        phrases, new_claim = replaced(question.statement), without_replacements(question.statement)
        if not phrases or not new_claim or not _states_claim(note.statement, new_claim, settings):
            continue
        for target_id in question.conflicts_with:
            target = views[target_id].note if target_id in views else index.get(target_id)
            if (target is not None and target_id != note.note_id and live_claim(target)
                    and _states_replaced(target, phrases, settings)
                    and not _states_claim(target.statement, new_claim, settings)):
                found.append((target, Rivalry("correction", f"it confirms {question_id}, which replaces what it states",
                                              correction=True)))
    return found


def _states_claim(statement: str, new_claim: str, settings: ConsolidationSettings) -> bool:
    """The statement asserts the claim's words, or prints every value it names: a tool's output names
    the values of a sentence ("bumped to CUDA 12.1" / "... print(torch.version.cuda) 12.1") in few of
    its words."""
    values = claimed_values(new_claim)
    return asserts(statement, new_claim, settings.correction_overlap) or bool(values) and all(
        prints(statement, value) for value in values)


def _readable(index: NoteIndex, note: Note) -> list[str]:
    """Scopes of the index a note's owner reads in its project (the index holds nothing else)."""
    return [s for s in index.scopes() if not s.startswith("personal:") or s == note.scope or s == f"personal:{note.owner_agent}"]


def _competing(note: Note, pool: dict[str, tuple[Note, float, float]], settings: ConsolidationSettings,
               agent_id: str) -> list[tuple[Note, Rivalry]]:
    phrases = replaced(note.statement)
    mine = claim(note.statement)
    said = read(note.statement)  # with what it rejects
    explicit = is_correction(note)
    found = []
    for rival_id, (rival, sim, slot_sim) in sorted(pool.items(), key=lambda kv: (-kv[1][1], kv[0])):
        if rival_id == note.note_id or not live_claim(rival) or rival_id in note.supersedes or _other_module(note, rival):
            continue
        theirs = claim(rival.statement)
        if different_things(mine, theirs):
            continue
        if phrases and _near_enough(sim, said, theirs, phrases, rival, settings) and _states_replaced(rival, phrases, settings):
            found.append((rival, Rivalry("correction", f"it states what {note.note_id} replaces", correction=True)))
            continue
        if not writable(rival.scope, agent_id) or _wish_and_reading(note, rival):
            continue
        printed = _other_printed(note, rival, sim, settings)
        if printed is not None:
            found.append((rival, Rivalry(printed.kind, printed.detail, correction=explicit)))
            continue
        # an address first: "so it's definitely not https://a" is another address, not a mere negation
        conflict = (_other_address(note, rival) or conflict_between(mine, theirs) or _other_name(note, rival, explicit)
                    or _other_value(note, rival) or _claimed_field(note, rival))
        if conflict is None or (conflict.kind == "polarity" and _one_wish(note, rival)):
            continue
        if (_same_slot(note, rival, sim, slot_sim, settings) or _disputes(note, rival, sim, conflict.kind, explicit, settings)
                or _one_field(note, rival, sim, conflict.kind, settings)):
            found.append((rival, Rivalry(conflict.kind, conflict.detail, correction=explicit)))
    return found


def _near_enough(sim: float, said: Reading, theirs: Reading, phrases: Sequence[str], rival: Note,
                 settings: ConsolidationSettings) -> bool:
    """A correction's target: near from ``correction_similarity``, or from ``correction_value_similarity``
    where it states a value the correction rejects: for the same unit, or a named value word for word."""
    if sim >= settings.correction_similarity:
        return True
    return sim >= settings.correction_value_similarity and (
        _states_rejected(said.rejected_values, theirs.values) or _states_verbatim(_named_values(phrases), rival.statement))


def _other_name(note: Note, rival: Note, explicit: bool) -> Conflict | None:
    """An explicit correction that names another value than a verified note ("batch-low" against
    "queue events-main", a part "nRF52840" against ``"soc": "nRF5340"``; the module's own name is
    neither's value): names are values the conflict reader has no unit for, so only a verified note is
    disputed this way (the claim then stays an open question beside it)."""
    if not explicit or not rival.verified:
        return None
    module = _module_name(rival)  # what both are about
    names = (stated_values(note.statement)[1] | part_names(note.statement)) - module
    other_names = (stated_values(rival.statement)[1] | part_names(rival.statement)) - module
    if names and other_names and not names & other_names and not stated_values(note.statement)[0]:
        return Conflict("value", "another name than the verified note states")
    return None


def _other_module(note: Note, rival: Note) -> bool:
    """Notes of two modules are about two things ("the evalsuite image" / "the datamix image")."""
    return note.scope != rival.scope and note.scope.startswith("module:") and rival.scope.startswith("module:")


def _other_value(note: Note, rival: Note) -> Conflict | None:
    """One text of one scope with another value in it: one reading, read again (:func:`other_value`)."""
    if note.scope == rival.scope and other_value(note.statement, rival.statement):
        return Conflict("value", "the same words with another value")
    return None


def _other_address(note: Note, rival: Note) -> Conflict | None:
    """Another address than a verified note prints (``StorePath=https://a/…`` / ``…*https://b/…``):
    where one thing lives, read again with another value (two verified readings of one scope about
    one thing: a field or a name they share), or claimed otherwise ("No, the symbols go to https://b/…";
    an address it denies is not claimed)."""
    if not rival.verified or not other_address(note.statement, rival.statement):
        return None
    if not one_kind_of_place(note.statement, rival.statement):
        return None  # a bucket and a reference's file path: where two things live
    if not note.verified:
        return Conflict("value", "another address than the verified note prints")
    if note.scope != rival.scope or not _one_thing(note.statement, rival.statement):
        return None  # a git remote and a health check: two addresses of two things
    return Conflict("value", "another address than the other verified reading prints")


def _module_name(note: Note) -> frozenset[str]:
    """The name of the module a note is about, lower case (no value of it: every note of the module names it)."""
    return frozenset({note.module.lower()}) if note.module else frozenset()


def _wish_and_reading(note: Note, rival: Note) -> bool:
    """A person's preference and a tool's reading never contradict: one says what someone wants, the other
    what a tool printed ("build results as a summary in #build-status" beside a build log naming its agent)."""
    return any(a.type == "preference" and not a.verified and b.type == "verified_fact" and b.verified
               for a, b in ((note, rival), (rival, note)))


def _other_printed(note: Note, rival: Note, sim: float, settings: ConsolidationSettings) -> Conflict | None:
    """Two verified readings of one module printing another part (``[STM32U585.cpu]`` / ``"soc":
    "ESP32-S3"``, agent pool ``win64-xl`` / ``Running on win64-gpu-a10-07``) or another version of one
    tool under two of its names (``kotlin = "2.1.10"`` / ``kotlinc-jvm 2.0.21``): one fact of the module
    read again, from the value bar (``correction_value_similarity``) — the printed value is the lexical
    evidence, and two tools word one fact far apart."""
    if not (note.verified and rival.verified) or note.scope != rival.scope or not note.scope.startswith("module:"):
        return None
    if sim < settings.correction_value_similarity:
        return None
    if other_part(note.statement, rival.statement, _module_name(rival)) or other_tool_version(note.statement, rival.statement):
        return Conflict("value", "another part or tool version than the other verified reading prints")
    return None


def _one_thing(a: str, b: str) -> bool:
    first, second = read(a), read(b)
    return bool(thing_names(a) & thing_names(b)) or shares_field(first.fields, second.fields, first.program == second.program)


_KEY_FILLER = frozenset({"max", "min", "num", "count", "total", "value", "size", "default", "limit"})  # name no field


def _claimed_field(note: Note, rival: Note) -> Conflict | None:
    """An unverified claim of one number beside a word that names a numeric field a verified reading
    prints (up to three words before it, or the field's last word right after it), with another value
    ("pretty sure it ticks at 30" / ``tick_rate_hz: 20``; "it's 115200 baud" / ``baud = 460800``; not
    "drops 30 packets" / ``packet_size: 512``)."""
    if note.verified or not rival.verified:
        return None
    numbers = stated_values(note.statement)[0]
    if len(numbers) != 1:
        return None
    [number] = numbers
    said = words(note.statement)
    at = [i for i, token in enumerate(said) if token == number]
    if not at or any(explicit_unit(said[i + 1]) for i in at if i + 1 < len(said)):
        return None  # "30 seconds": a unit, which the unit reading compares
    before = {lemma(w) for i in at for w in said[max(0, i - 3):i]}  # "ticks at 30"
    after = {lemma(said[i + 1]) for i in at if i + 1 < len(said)}  # "115200 baud": the field's last word
    named = [float(value) for key, value in read(rival.statement).fields.items()
             if re.fullmatch(r"\d+(?:\.\d+)?", value)
             and (before & set(key_words(key)) - _KEY_FILLER or after & set(key_words(key)[-1:]) - _KEY_FILLER)]
    if named and float(number) not in named:  # a field of that name printing the number agrees
        return Conflict("field", "another value of a field the verified reading prints")
    return None


def _one_field(note: Note, rival: Note, sim: float, kind: str, settings: ConsolidationSettings) -> bool:
    """Two tools' outputs of one scope printing one field with two values ("size: X-Small" / a table's
    size column "Medium"), or two verified readings of one unit with two values (``FROM cuda:11.8.0`` /
    ``torch.version.cuda`` printing 12.1), read one slot from the lower correction bar: their shapes
    differ more than their subject (a describe, a query, a state dump)."""
    printed = kind == "field" or (kind == "value" and note.verified and rival.verified)
    return printed and note.scope == rival.scope and sim >= settings.correction_similarity


def _disputes(note: Note, rival: Note, sim: float, kind: str, explicit: bool, settings: ConsolidationSettings) -> bool:
    """An explicit correction ("No, it is 45 minutes", a ``feedback`` event) that states another value
    than a note of the module it was said in disputes that note, from the lower correction bar."""
    return (explicit and kind in ("value", "setting", "field") and sim >= settings.correction_similarity
            and note.project is not None and rival.scope == f"module:{note.project}/{note.module}")


def claim(statement: str) -> Reading:
    """What a statement asserts now: a correction is read without what it replaces ("no longer Y"
    is no negation of the new rule)."""
    return read((without_replacements(statement) or statement) if replaced(statement) else statement)


def _states_replaced(rival: Note, phrases: list[str], settings: ConsolidationSettings) -> bool:
    """Lexical evidence: the rival's main clause asserts a phrase the note replaces."""
    return any(asserts(rival.statement, p, settings.correction_overlap) for p in phrases)


def _same_slot(note: Note, rival: Note, sim: float, slot_sim: float, settings: ConsolidationSettings) -> bool:
    if note.slot is not None and note.slot == rival.slot:
        return True
    if sim >= settings.conflict_similarity or slot_sim >= settings.slot_similarity:
        return True
    return normalise(rival.subject) == normalise(note.subject)


def _apply(views: dict[str, Change], note_id: str, rival: Note, rivalry: Rivalry, settings: ConsolidationSettings,
           now: datetime, agent_id: str) -> dict[str, Change]:
    views = dict(views)
    change = views[note_id]
    new = change.note
    rival_change = views.get(rival.note_id)
    rival = rival_change.note if rival_change is not None else rival
    slot = new.slot or rival.slot or _slot_id(new)
    decision = decide(new, rival, settings, old_observed=rival_change is not None and rival_change.observed,
                      correction=rivalry.correction)
    if decision == "supersede_old" and not writable(rival.scope, agent_id):
        decision = "question"  # a project or team note changes through review, not by one agent's run
    if decision == "supersede_old":
        views[rival.note_id] = _superseded(rival, new, rivalry, now, rival_change, slot)
        update: dict[str, object] = {"supersedes": [*new.supersedes, rival.note_id], "slot": slot}
        if change.new and _joins_module(new, rival):
            update["scope"] = rival.scope  # the module's agents keep one (corrected) note
        if rivalry.correction and rival.type == "preference" and new.type == "constraint" and new.scope == rival.scope:
            update["type"] = "preference"  # a correction of someone's preference is their preference now
        views[note_id] = _with(change, update, f"supersedes {rival.note_id} ({rivalry.kind})")
    elif decision == "supersede_new":
        views[note_id] = _superseded(new, rival, rivalry, now, change, slot)
        views[rival.note_id] = _touched(rival, rival_change, {"slot": slot}, f"outranks {note_id}")
    else:
        views = _question(views, note_id, rival, rival_change, rivalry, slot, agent_id)
    return views


def _joins_module(new: Note, rival: Note) -> bool:
    """A personal correction of a module note that is itself module knowledge moves to that module."""
    return (rival.scope.startswith("module:") and new.scope.startswith("personal:") and new.type in MODULE_KNOWLEDGE
            and "[PII:" not in new.statement and "quarantine" not in new.tags)


def _question(views: dict[str, Change], note_id: str, rival: Note, rival_change: Change | None, rivalry: Rivalry,
              slot: str, agent_id: str) -> dict[str, Change]:
    """The new claim becomes an open question beside its rival, which is marked contested."""
    change = views[note_id]
    new = change.note
    why = "it is verified and this is not" if rival.verified and not new.verified else "a tie"
    links = {"conflicts_with": [*new.conflicts_with, rival.note_id], "slot": slot}
    demoted = change.new or (rival.verified and not new.verified)  # an unverified claim never stands against a verified note
    update = {**links, "type": "open_question"} if demoted else links
    views[note_id] = _with(change, update, f"open question: contradicts {rival.note_id} ({rivalry.kind}), {why}")
    if writable(rival.scope, agent_id):
        contest = {"contested": True, "conflicts_with": list(dict.fromkeys([*rival.conflicts_with, note_id])),
                   "slot": rival.slot or slot}
        views[rival.note_id] = _touched(rival, rival_change, contest, f"contested by {note_id}")
    return views


def _slot_id(note: Note) -> str:
    return "slot-" + stable_digest(note.project or note.scope, normalise(slot_text(note.statement)), size=16)


def _superseded(loser: Note, winner: Note, rivalry: Rivalry, now: datetime, previous: Change | None, slot: str) -> Change:
    view = loser.model_copy(update={
        "status": "superseded", "superseded_by": winner.note_id, "invalid_at": now, "updated_at": now, "slot": slot,
        "contested": False,
    })
    reason = f"superseded by {winner.note_id} ({rivalry.kind}); overturning evidence: {', '.join(winner.evidence)}"
    if previous is None:
        return Change(view, "supersede", reason)
    return Change(view, "supersede", f"{previous.reason}; {reason}", previous.vector, previous.new, previous.observed,
                  previous.slot_vector)


def _touched(note: Note, previous: Change | None, update: dict[str, object], reason: str) -> Change:
    if previous is None:
        return Change(note.model_copy(update=update), "edit", reason)
    return _with(previous, update, reason)


def _with(change: Change, update: Mapping[str, object], reason: str) -> Change:
    return Change(change.note.model_copy(update=update), change.action, f"{change.reason}; {reason}",
                  change.vector, change.new, change.observed, change.slot_vector)


# --- slots ------------------------------------------------------------------------------------------
def assign_slots(changes: list[Change], index: NoteIndex, run: _RunVectors, settings: ConsolidationSettings) -> list[Change]:
    """Every written note gets a slot: its rival's, else its nearest slot-mate's, else a new one."""
    slots = {c.note.note_id: c.note.slot for c in changes}
    done = []
    for change in changes:
        note = change.note
        slot = note.slot or _linked_slot(note, slots, index) or _nearest_slot(change, index, settings) or _slot_id(note)
        slots[note.note_id] = slot
        done.append(change if slot == note.slot else Change(
            note.model_copy(update={"slot": slot}), change.action, change.reason, change.vector, change.new,
            change.observed, change.slot_vector))
    return done


def _linked_slot(note: Note, slots: dict[str, str | None], index: NoteIndex) -> str | None:
    for other in _links(note):
        found = slots.get(other) or ((n := index.get(other)) and n.slot)
        if found:
            return found
    return None


def _links(note: Note) -> Iterable[str]:
    return [*note.supersedes, *note.conflicts_with, *([note.superseded_by] if note.superseded_by else [])]


def _nearest_slot(change: Change, index: NoteIndex, settings: ConsolidationSettings) -> str | None:
    mine = change.slot_vector
    if mine is None:
        return None
    best: tuple[float, str] | None = None
    reading = read(change.note.statement)
    for note_id, theirs in index.slot_vectors.items():
        other = index.get(note_id)
        if other is None or other.slot is None or other.scope != change.note.scope or other.note_id == change.note.note_id:
            continue
        sim = float(theirs @ mine)
        if (sim >= settings.slot_similarity and not different_things(reading, read(other.statement))
                and (best is None or sim > best[0])):
            best = (sim, other.slot)
    return best[1] if best else None
