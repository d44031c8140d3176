"""Stage 5b: restatements of what this run overturned, found in the log and withheld with it.

After resolution, each note the run superseded, and each new correction that overturned no note,
names its *stale phrases* (:mod:`reverie.restatements`). The log of the project before the winning
evidence — the owner's turns only for a personal note — is searched for turns that assert one of them
(the store matches whole tokens; the main clause is checked here), and a turn whose embedding is at
least ``restatement_similarity`` from the overturned claim (the correction, when there was no note)
is one more piece of its evidence (a module note's only where the turn was said in a session of
its module or names it): the loser cites it, or a new superseded note — the log's own
statement of the replaced claim — is written beside the correction. The raw-turn layer withholds the
evidence of superseded notes, so an overturned claim does not come back in the words of a turn
extraction never kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from actors.dedupe import WISHES
from actors.plan import Change, Member, NoteIndex, note_id_for
from actors.resolve import evidence_time, is_correction, live_claim
from reverie.citations import Cited, cited_events, cites, is_cited
from reverie.records import Event, Note
from reverie.restatements import corrected_phrases, mentions, restates, stale_phrases
from reverie.settings import ConsolidationSettings


@dataclass(frozen=True)
class Overturned:
    """A claim the run overturned: the note (or, with no note, the correction) and what it replaced."""

    reference: Note
    phrases: list[str]
    before: datetime
    excluded: Cited
    """the turns live notes cite (with their agents): never taken as a restatement"""
    loser: bool

    @property
    def readers(self) -> list[str] | None:
        note = self.reference
        return [note.owner_agent] if note.scope.startswith("personal:") and note.owner_agent else None


def overturned(changes: Sequence[Change], index: NoteIndex, settings: ConsolidationSettings,
               explicit: Cited) -> list[Overturned]:
    """What this run's changes overturned, with the phrases a restatement would name. The log is
    corrected on explicit evidence only: a live winner (never an open question, a claim that lost)
    that is verified or was said explicitly (``explicit``: the events of the run's correction
    candidates that their agent tagged or posted as feedback) — never on untagged wording alone: a
    conversation's "no worries" or "don't forget your passion for dance" reads like a replacement.
    No turn a live note cites is taken."""
    views = {c.note.note_id: c.note for c in changes}
    cited = cited_events(n for n in [*index.notes, *views.values()] if live_claim(views.get(n.note_id, n)))
    found: list[Overturned] = []
    beaten = {c.note.superseded_by for c in changes if c.action == "supersede"}
    for change in changes:
        note = change.note
        if note.project is None:
            continue
        if change.action == "supersede" and note.status == "superseded" and note.superseded_by:
            winner = views.get(note.superseded_by) or index.get(note.superseded_by)
            if winner is None or not live_claim(winner) or not (winner.verified or _said_explicitly(winner, explicit)):
                continue
            wish = note.type in WISHES and note.scope.startswith("personal:")
            phrases = stale_phrases(note.statement, winner.statement, settings.correction_overlap, wish=wish)
            before = max(evidence_time(note), evidence_time(winner))
            found.append(Overturned(note, phrases, before, cited, loser=True))
        elif (change.new and live_claim(note) and is_correction(note) and note.note_id not in beaten
              and _said_explicitly(note, explicit)):
            phrases = corrected_phrases(note.statement, settings.correction_overlap)
            found.append(Overturned(note, phrases, evidence_time(note), cited, loser=False))
    return [o for o in found if o.phrases]


def explicit_corrections(members: Sequence[Member], agent_id: str) -> Cited:
    """The events (agent, id) of correction candidates said explicitly: tagged by their agent, or a
    feedback event (a candidate naming no agent is of the run's, ``agent_id``)."""
    return frozenset((m.candidate.agent_id or agent_id, e) for m in members
                     if m.candidate.source != "rule" and "correction" in m.candidate.tags for e in m.candidate.evidence)


def _said_explicitly(note: Note, explicit: Cited) -> bool:
    cited = cited_events([note])
    return any(cites(cited, agent_id, event_id) for agent_id, event_id in explicit)


def restatements(claim: Overturned, candidates: Sequence[Event], vectors: np.ndarray, reference: np.ndarray,
                 settings: ConsolidationSettings) -> list[Event]:
    """The candidates that restate ``claim``: not already its evidence nor a live note's, asserting a
    stale phrase in their main clause, and near the claim in meaning."""
    known = cited_events([claim.reference]) | claim.excluded
    kept = []
    for event, vector in zip(candidates, vectors, strict=True):
        if is_cited(known, event) or not restates(event.text, claim.phrases, settings.correction_overlap):
            continue
        if not _of_its_module(claim.reference, event):
            continue
        if float(np.dot(vector, reference)) >= settings.restatement_similarity:
            kept.append(event)
    return kept


def _of_its_module(note: Note, event: Event) -> bool:
    """A module note's restatement was said in a session of its module, or names the module: "X-Small"
    said of another module's warehouse restates nothing this module's note said."""
    if not note.scope.startswith("module:") or not note.module or not event.module or event.module == note.module:
        return True
    return mentions(event.text, note.module)


def attach(changes: list[Change], claim: Overturned, found: Sequence[Event], vectors: dict[tuple[str, str], np.ndarray],
           now: datetime, index: NoteIndex) -> list[Change]:
    """The changes with ``found`` as evidence of the overturned claim."""
    if not found:
        return changes
    ids = ", ".join(e.event_id for e in found)
    if claim.loser:
        return [_cited(c, found, f"restated in the log by {ids}") if c.note.note_id == claim.reference.note_id else c
                for c in changes]
    correction = claim.reference
    lead = found[-1]  # the oldest: the claim as the log first stated it
    scope_owner = correction.owner_agent or lead.agent_id
    note_id = note_id_for(scope_owner, correction.scope, correction.type, lead.text)
    if index.get(note_id) is not None or any(c.note.note_id == note_id for c in changes):
        return changes
    times = [e.ts for e in found]
    note = Note(
        note_id=note_id, type=correction.type, subject=correction.subject, statement=lead.text, scope=correction.scope,
        owner_agent=correction.owner_agent, project=correction.project, module=correction.module,
        evidence=[e.event_id for e in found], source_sessions=sorted({e.session_id for e in found}),
        source_agents=sorted({e.agent_id for e in found}), confidence=0.5, tags=["restated"], status="superseded",
        superseded_by=correction.note_id, created_at=now, updated_at=now, last_seen_at=max(times),
        valid_from=min(times), invalid_at=now, slot=correction.slot,
    )
    reason = f"the log's statement of what {correction.note_id} replaces ({ids}); superseded by it"
    out = [_with_supersedes(c, note_id) if c.note.note_id == correction.note_id else c for c in changes]
    return [*out, Change(note, "supersede", reason, vectors[lead.agent_id, lead.event_id], new=True)]


def _cited(change: Change, found: Sequence[Event], reason: str) -> Change:
    note = change.note
    update = {
        "evidence": list(dict.fromkeys([*note.evidence, *(e.event_id for e in found)])),
        "source_sessions": list(dict.fromkeys([*note.source_sessions, *(e.session_id for e in found)])),
        "source_agents": list(dict.fromkeys([*note.source_agents, *(e.agent_id for e in found)])),
    }
    return Change(note.model_copy(update=update), change.action, f"{change.reason}; {reason}", change.vector,
                  change.new, change.observed, change.slot_vector)


def _with_supersedes(change: Change, note_id: str) -> Change:
    note = change.note
    update = {"supersedes": list(dict.fromkeys([*note.supersedes, note_id]))}
    return Change(note.model_copy(update=update), change.action, change.reason, change.vector, change.new,
                  change.observed, change.slot_vector)
