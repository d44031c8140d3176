"""Filling the token budget from the one fused order (DESIGN §4.6): the last step of a retrieval.

Items come in fused order while their score clears ``retrieval.relevance_floor`` and
``retrieval.relevance_share`` of the best item's score (the stop rule: once the order's scores have
fallen that far below its head, what follows is chatter that merely fills the budget); at most ``k`` notes;
each only if the rendered block still fits the budget (a day's header line counts with its first
turn); a turn that a chosen note cites is left out, and one chosen before that note is dropped again
(the note stands for it, and its tokens go back to the budget). The order is looked at in chunks
and the fill stops after a chunk that left the budget full, so a long order costs only what is
looked at; in a chunk only the items still takeable (no note past ``k``, no cited turn) are
counted, each line's count is remembered (a bounded memo keyed by a digest of its text), and the
response views (full notes, turns) are built for the chosen items only (recent notes' views are
remembered for the very row they were read from). The block's tokens are its lines' (WordPiece
splits on whitespace first, so lines joined by line breaks cost their sum), checked last against the
budget and trimmed from the end if over: ``tokens`` never exceeds the budget.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from reverie.api import NoteView, RetrievedNote, RetrievedTurn
from reverie.settings import RetrievalSettings
from reverie.store.rows import note_data
from reverie.tokens import TokenCounter
from serve.retrieval.block import BEGIN, END, Entry, day_line, item_line, note_entry, render
from serve.retrieval.scopeblock import Cached, Candidate
from serve.retrieval.turnindex import Turn

_COUNT_CHUNK = 48  # items looked at a time (the fill stops between two chunks once the budget is full)
_MEMO_SIZE = 20_000  # line counts remembered (cleared when full)
_VIEWS_SIZE = 4096  # notes' response views remembered by id and version (cleared when full)
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
    cites: tuple[str, ...] = ()  # a note's: the asker's turns it cites, left out once the note is taken

    @property
    def key(self) -> str:
        return self.candidate.cached.note_id if self.candidate is not None else self.turn.event.event_id  # type: ignore[union-attr]


@dataclass
class _Chosen:
    """What the fit has taken so far: lines, their costs and items, by item key."""

    entries: dict[str, tuple[Entry, int, Ranked]] = field(default_factory=dict)
    days: dict[str, int] = field(default_factory=dict)  # turns chosen per day
    cited: set[str] = field(default_factory=set)
    used: int = 0


def notes_of(candidates: list[Candidate]) -> list[NoteView]:
    """The full notes of candidates as the API shows them, read from their cached row chunks one
    ``take`` per chunk."""
    by_chunk: dict[int, list[int]] = {}
    for i, c in enumerate(candidates):
        by_chunk.setdefault(id(c.cached.chunk), []).append(i)
    found: dict[int, NoteView] = {}
    for positions in by_chunk.values():
        chunk = candidates[positions[0]].cached.chunk
        taken = chunk.take([candidates[i].cached.row for i in positions]).to_pylist()
        found.update({i: NoteView.model_validate(note_data(row)) for i, row in zip(positions, taken, strict=True)})
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
        self._memo: dict[bytes, int] = {}  # a digest of an item line's label and text -> its token count
        self._note_views: dict[tuple[str, int], tuple[Cached, NoteView]] = {}  # id and version -> the view of that row

    def fit(self, order: list[Ranked], k: int, budget: int) -> Recalled:
        """Items in fused order while they clear the relevance floor, each only if the block still
        fits the budget (at most ``k`` notes; turns a chosen note cites are left out)."""
        chosen = _Chosen(used=self._frame)
        relevant = self._relevant(order)
        notes_taken = 0
        for start in range(0, len(relevant), _COUNT_CHUNK):
            chunk = [item for item in relevant[start: start + _COUNT_CHUNK]  # what could still be taken
                     if (notes_taken < k if item.candidate is not None else item.key not in chosen.cited)]
            for item, (entry, cost) in zip(chunk, self._lines(chunk), strict=True):
                if item.candidate is not None:
                    if notes_taken < k and self._take_note(chosen, item, entry, cost, budget):
                        notes_taken += 1
                elif item.key not in chosen.cited:
                    self._take_turn(chosen, item, entry, cost, budget)
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

    def _take_note(self, chosen: _Chosen, item: Ranked, entry: Entry, cost: int, budget: int) -> bool:
        assert item.candidate is not None
        evidence = item.cites
        freed = [t for t in evidence if t in chosen.entries]
        refund = sum(chosen.entries[t][1] + self._day_refund(chosen, chosen.entries[t][0]) for t in freed)
        if chosen.used - refund + cost > budget:
            return False
        for turn_id in freed:
            self._drop(chosen, turn_id)
        chosen.entries[item.key] = (entry, cost, item)
        chosen.used += cost
        chosen.cited.update(evidence)
        return True

    def _take_turn(self, chosen: _Chosen, item: Ranked, entry: Entry, cost: int, budget: int) -> None:
        extra = cost + (self._day_tokens(entry.day) if entry.day not in chosen.days else 0)
        if chosen.used + extra <= budget:
            chosen.entries[item.key] = (entry, cost, item)
            chosen.days[entry.day or ""] = chosen.days.get(entry.day or "", 0) + 1
            chosen.used += extra

    def _day_refund(self, chosen: _Chosen, entry: Entry) -> int:
        return self._day_tokens(entry.day) if entry.day is not None and chosen.days.get(entry.day) == 1 else 0

    def _day_tokens(self, day: str | None) -> int:
        """The tokens of a day's header line (remembered: a year or a day number may take two)."""
        key = f"\x01{day}".encode()
        cost = self._memo.get(key)
        if cost is None:
            cost = self._memo[key] = self._tokens.count(day_line(day or ""))
        return cost

    def _drop(self, chosen: _Chosen, key: str) -> None:
        entry, cost, _ = chosen.entries.pop(key)
        chosen.used -= cost + self._day_refund(chosen, entry)
        if entry.day is not None:
            chosen.days[entry.day] -= 1
            if not chosen.days[entry.day]:
                del chosen.days[entry.day]

    def _rendered(self, chosen: _Chosen, budget: int) -> Recalled:
        items = list(chosen.entries.values())
        while self._block_tokens(items) > budget:  # a guard: the fit kept the same sum within the budget
            items.pop()
        context = render([entry for entry, _, _ in items])
        tokens = self._block_tokens(items)
        ranked = self._views([item for _, _, item in items])
        layers = {"notes": 0, "turns": 0}
        for entry, cost, _ in items:
            layers["turns" if entry.day is not None else "notes"] += cost
        return Recalled([v for v in ranked if isinstance(v, RetrievedNote)],
                        [v for v in ranked if isinstance(v, RetrievedTurn)], context, tokens, layers)

    def _views(self, items: list[Ranked]) -> list[View]:
        """The response views of the chosen items, ranked 1.. in order (notes not seen lately read
        from their rows in one pass)."""
        candidates = [item.candidate for item in items if item.candidate is not None]
        known: dict[tuple[str, int], NoteView] = {}
        for c in candidates:  # the same cached row, not only the same id and version (a purged id may come back)
            seen = self._note_views.get((c.cached.note_id, c.cached.version))
            if seen is not None and seen[0] is c.cached:
                known[(c.cached.note_id, c.cached.version)] = seen[1]
        missing = [c for c in candidates if (c.cached.note_id, c.cached.version) not in known]
        if missing:
            read = notes_of(missing)
            if len(self._note_views) + len(read) > _VIEWS_SIZE:
                self._note_views.clear()
            for c, view in zip(missing, read, strict=True):
                self._note_views[(c.cached.note_id, c.cached.version)] = (c.cached, view)
                known[(c.cached.note_id, c.cached.version)] = view
        views: list[View] = []
        for rank, item in enumerate(items, start=1):
            if item.candidate is not None:
                note = known[(item.candidate.cached.note_id, item.candidate.cached.version)]
                views.append(RetrievedNote(note=note, score=item.score, similarity=item.candidate.similarity, rank=rank))
            else:
                assert item.turn is not None
                views.append(_turn_view(item.turn, item.score, rank))
        return views

    def forget(self) -> None:
        """Drop what the fill remembers (after a purge: no purged text stays in a view)."""
        self._memo.clear()
        self._note_views.clear()

    def _block_tokens(self, items: list[tuple[Entry, int, Ranked]]) -> int:
        """The rendered block's tokens without tokenizing it again: WordPiece splits on whitespace
        first, so a block of lines joined by line breaks costs its lines' tokens (each item's, each
        day header's once, the two delimiters'); ``tests/test_retrieval_fill.py`` checks the sum."""
        if not items:
            return 0
        days = {entry.day for entry, _, _ in items if entry.day is not None}
        return self._frame + sum(cost for _, cost, _ in items) + sum(self._day_tokens(day) for day in days)

    def _lines(self, items: Sequence[Ranked]) -> list[tuple[Entry, int]]:
        """Each item's block entry and its token cost (counted once per text, then remembered)."""
        entries = [_entry(item) for item in items]
        keys = [_digest(entry) for entry in entries]
        costs = {key: cost for key in keys if (cost := self._memo.get(key)) is not None}
        unknown = [key for key in dict.fromkeys(keys) if key not in costs]
        if unknown:
            by_key = dict(zip(keys, entries, strict=True))
            counted = dict(zip(unknown, self._tokens.count_many([item_line(by_key[key]) for key in unknown]), strict=True))
            if len(self._memo) + len(counted) > _MEMO_SIZE:  # another thread may clear it too: costs are local
                self._memo.clear()
            self._memo.update(counted)
            costs.update(counted)
        return [(entry, costs[key]) for entry, key in zip(entries, keys, strict=True)]


def _digest(entry: Entry) -> bytes:
    """A line's memo key: 16 bytes, whatever the text's length (and no text kept in memory)."""
    return hashlib.blake2b(f"{entry.label}\x00{entry.text}".encode(), digest_size=16).digest()


def _entry(item: Ranked) -> Entry:
    if item.candidate is not None:
        cached = item.candidate.cached
        return note_entry(cached.kind, cached.statement)
    assert item.turn is not None
    return _turn_entry(item.turn)


def _turn_entry(turn: Turn) -> Entry:
    return Entry(turn.event.text, turn.event.ts.date().isoformat())


def _turn_view(turn: Turn, score: float, rank: int) -> RetrievedTurn:
    e = turn.event
    return RetrievedTurn(event_id=e.event_id, agent_id=e.agent_id, session_id=e.session_id, project=e.project,
                         ts=e.ts, role=e.role, text=e.text, similarity=turn.similarity, score=score, rank=rank)


