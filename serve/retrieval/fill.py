"""Filling the token budget from the one fused order (DESIGN §4.6): the last step of a retrieval.

Items come in fused order while their score clears ``retrieval.relevance_floor`` and
``retrieval.relevance_share`` of the best item's score (the stop rule: once the order's scores have
fallen that far below its head, what follows is chatter that merely fills the budget); at most ``k`` notes;
each only if the rendered block still fits the budget (a day's header line counts with its first
turn); a turn that a chosen note cites is left out, and one chosen before that note is dropped again
(the note stands for it, and its tokens go back to the budget). Lines are built and counted in
chunks, so a long order costs only what is looked at. The whole rendered block is counted last and
trimmed from the end until it fits: ``tokens`` never exceeds the budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reverie.api import NoteView, RetrievedNote, RetrievedTurn
from reverie.records import Note
from reverie.settings import RetrievalSettings
from reverie.store.rows import note_from_row
from reverie.tokens import TokenCounter
from serve.retrieval.block import BEGIN, END, Entry, day_line, item_line, note_entry, render
from serve.retrieval.scopeblock import Candidate
from serve.retrieval.turnindex import Turn

_COUNT_CHUNK = 48  # items whose lines are built and counted at a time
View = RetrievedNote | RetrievedTurn


@dataclass(frozen=True)
class Recalled:
    notes: list[RetrievedNote] = field(default_factory=list)
    turns: list[RetrievedTurn] = field(default_factory=list)
    context: str = ""
    tokens: int = 0
    layer_tokens: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Ranked:
    """One item of the fused order: a note candidate or a raw turn, with its fused score."""

    score: float
    candidate: Candidate | None = None
    turn: Turn | None = None

    @property
    def key(self) -> str:
        return self.candidate.cached.note_id if self.candidate is not None else self.turn.event.event_id  # type: ignore[union-attr]


@dataclass
class _Chosen:
    """What the fit has taken so far: lines and their costs, by item key."""

    entries: dict[str, tuple[Entry, int, View]] = field(default_factory=dict)
    days: dict[str, int] = field(default_factory=dict)  # turns chosen per day
    cited: set[str] = field(default_factory=set)
    used: int = 0


def notes_of(candidates: list[Candidate]) -> list[Note]:
    """The full notes of candidates, read from their cached row chunks one ``take`` per chunk."""
    by_chunk: dict[int, list[int]] = {}
    for i, c in enumerate(candidates):
        by_chunk.setdefault(id(c.cached.chunk), []).append(i)
    found: dict[int, Note] = {}
    for positions in by_chunk.values():
        chunk = candidates[positions[0]].cached.chunk
        taken = chunk.take([candidates[i].cached.row for i in positions]).to_pylist()
        found.update({i: note_from_row(row) for i, row in zip(positions, taken, strict=True)})
    return [found[i] for i in range(len(candidates))]


class Fill:
    def __init__(self, tokens: TokenCounter, settings: RetrievalSettings) -> None:
        self._tokens = tokens
        self._floor = settings.relevance_floor
        self._share = settings.relevance_share
        self._settings = settings
        self._leads = ((settings.notes_lead, settings.notes_lead_share, False),
                       (settings.shared_notes_lead, settings.shared_notes_lead_share, True))
        self._frame = tokens.count(BEGIN) + tokens.count(END)
        self._day_cost = tokens.count(day_line("2000-01-01"))

    def fit(self, order: list[Ranked], k: int, budget: int) -> Recalled:
        """Items in fused order while they clear the relevance floor, each only if the block still
        fits the budget (at most ``k`` notes; turns a chosen note cites are left out)."""
        chosen = _Chosen(used=self._frame)
        relevant = self._relevant(order)
        notes_taken = 0
        for start in range(0, len(relevant), _COUNT_CHUNK):
            chunk = relevant[start: start + _COUNT_CHUNK]
            for item, (entry, cost, view) in zip(chunk, self._lines(chunk), strict=True):
                if item.candidate is not None:
                    if notes_taken < k and self._take_note(chosen, item.key, entry, cost, view, budget):
                        notes_taken += 1
                elif item.key not in chosen.cited:
                    self._take_turn(chosen, item.key, entry, cost, view, budget)
            if chosen.used >= budget - 1:
                break
        return self._rendered(chosen, budget)

    def _relevant(self, order: list[Ranked]) -> list[Ranked]:
        """The items that clear the absolute floor; turns must also clear the share of the best score
        (notes have their own similarity gates and ``k``: an open question beside the fact it contests stays),
        and a higher share of it when a note (``notes_lead``) or a shared or verified note close
        to the question (``shared_notes_lead``) ranks among the first items: then the notes answer."""
        best = max((r.score for r in order), default=0.0)
        cut = max(self._floor, self._share * best)
        relevant = [r for r in order if r.score >= self._floor and (r.candidate is not None or r.score >= cut)]
        for lead, share, shared_only in self._leads:
            head = [r.candidate for r in relevant[:lead] if r.candidate is not None]
            if any(not shared_only or c.weighty(self._settings) for c in head):
                cut = max(cut, share * best)
        return [r for r in relevant if r.candidate is not None or r.score >= cut]

    def _take_note(self, chosen: _Chosen, key: str, entry: Entry, cost: int, view: View,
                   budget: int) -> bool:
        assert isinstance(view, RetrievedNote)
        freed = [t for t in view.note.evidence if t in chosen.entries]
        refund = sum(chosen.entries[t][1] + self._day_refund(chosen, chosen.entries[t][0]) for t in freed)
        if chosen.used - refund + cost > budget:
            return False
        for turn_id in freed:
            self._drop(chosen, turn_id)
        chosen.entries[key] = (entry, cost, view)
        chosen.used += cost
        chosen.cited.update(view.note.evidence)
        return True

    def _take_turn(self, chosen: _Chosen, key: str, entry: Entry, cost: int, view: View,
                   budget: int) -> None:
        extra = cost + (self._day_cost if entry.day not in chosen.days else 0)
        if chosen.used + extra <= budget:
            chosen.entries[key] = (entry, cost, view)
            chosen.days[entry.day or ""] = chosen.days.get(entry.day or "", 0) + 1
            chosen.used += extra

    def _day_refund(self, chosen: _Chosen, entry: Entry) -> int:
        return self._day_cost if entry.day is not None and chosen.days.get(entry.day) == 1 else 0

    def _drop(self, chosen: _Chosen, key: str) -> None:
        entry, cost, _ = chosen.entries.pop(key)
        chosen.used -= cost + self._day_refund(chosen, entry)
        if entry.day is not None:
            chosen.days[entry.day] -= 1
            if not chosen.days[entry.day]:
                del chosen.days[entry.day]

    def _rendered(self, chosen: _Chosen, budget: int) -> Recalled:
        items = list(chosen.entries.values())
        context = render([entry for entry, _, _ in items])
        tokens = self._tokens.count(context) if context else 0
        while tokens > budget:  # the pieces were counted apart: the whole decides
            items.pop()
            context = render([entry for entry, _, _ in items])
            tokens = self._tokens.count(context) if context else 0
        ranked = [view.model_copy(update={"rank": rank}) for rank, (_, _, view) in enumerate(items, start=1)]
        layers = {"notes": 0, "turns": 0}
        for entry, cost, _ in items:
            layers["turns" if entry.day is not None else "notes"] += cost
        return Recalled([v for v in ranked if isinstance(v, RetrievedNote)],
                        [v for v in ranked if isinstance(v, RetrievedTurn)], context, tokens, layers)

    def _lines(self, items: Sequence[Ranked]) -> list[tuple[Entry, int, View]]:
        """Each item's block entry, its token cost and its response view (notes read in one pass)."""
        notes = iter(notes_of([r.candidate for r in items if r.candidate is not None]))
        built: list[tuple[Entry, View]] = []
        for item in items:
            if item.candidate is not None:
                note = next(notes)
                view: View = RetrievedNote(
                    note=NoteView.of(note), score=item.score, similarity=item.candidate.similarity, rank=0)
                built.append((note_entry(note.type, note.statement), view))
            else:
                assert item.turn is not None
                built.append((_turn_entry(item.turn), _turn_view(item.turn, item.score)))
        costs = self._tokens.count_many([item_line(entry) for entry, _ in built]) if built else []
        return [(entry, cost, view) for (entry, view), cost in zip(built, costs, strict=True)]

def _turn_entry(turn: Turn) -> Entry:
    return Entry(turn.event.text, turn.event.ts.date().isoformat())


def _turn_view(turn: Turn, score: float) -> RetrievedTurn:
    e = turn.event
    return RetrievedTurn(event_id=e.event_id, agent_id=e.agent_id, session_id=e.session_id, project=e.project,
                         ts=e.ts, role=e.role, text=e.text, similarity=turn.similarity, score=score, rank=0)


