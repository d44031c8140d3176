"""Raw-log stacking ("version A"): every captured event becomes a note, nothing is ever merged.

:class:`RawLog` captures through the same path as the service (``prepare_events``: validated,
masked) into a real store, writes one ``personal:<agent>`` note per event (an agent's raw log is
its own: DESIGN.md §5 lets no one else read it), and ranks an agent's notes three ways:

- ``dense``: cosine similarity with the shared embedder, exact, over the agent's notes as the store
  returns them (scope and status filtered by the store, vectors as stored, cached per agent);
- ``lexical``: BM25 (``bm25s``) over the same notes;
- ``hybrid``: reciprocal-rank fusion of the two whole rankings (up to ``fusion_depth`` notes each:
  a note's rank in the other list still counts when it is far down).

Each retrieved item costs its text's tokens plus ``item_overhead`` (2 by default: the delimiters a
rendered list spends per line), so a budget buys the same for every arm.

:class:`RawLogArm` is one ranking of a shared log, so the three arms pay for one ingest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import bm25s
import numpy as np

from bench.eval.arms import Retrieval, Retrieved, StoredNote
from reverie.capture import CaptureRequest, prepare_events
from reverie.clock import Clock
from reverie.embed import Embedder, EmbedderSpec
from reverie.privacy import Masker
from reverie.records import Event, Note, NoteType
from reverie.settings import Settings
from reverie.store import NoteFilter, NoteWrite, Store
from reverie.store.rows import rows
from reverie.tokens import TokenCounter

Ranking = Literal["dense", "lexical", "hybrid"]
RRF_K = 60
_NOTE_TYPES: tuple[NoteType, ...] = ("preference", "constraint", "lesson", "procedure")


@dataclass(frozen=True)
class _View:
    """One agent's raw notes in one project, loaded from the store once, ranked in memory (exactly)."""

    notes: tuple[Retrieved, ...]
    vectors: np.ndarray
    index: bm25s.BM25 | None

    def dense(self, vector: np.ndarray, depth: int) -> list[Retrieved]:
        if not self.notes:
            return []
        order = np.argsort(-(self.vectors @ vector), kind="stable")[:depth]
        return [self.notes[int(i)] for i in order]

    def lexical(self, query: str, depth: int) -> list[Retrieved]:
        tokens = bm25s.tokenize([query], stopwords="english", show_progress=False)
        if self.index is None or not tokens.vocab:
            return []
        found, scores = self.index.retrieve(tokens, k=min(depth, len(self.notes)), show_progress=False)
        return [self.notes[int(i)] for i, s in zip(found[0], scores[0], strict=True) if s > 0]


class RawLog:
    def __init__(self, settings: Settings, embedder: Embedder, counter: TokenCounter, clock: Clock | None = None,
                 *, depth: int = 100, fusion_depth: int = 10_000, item_overhead: int = 2) -> None:
        self._settings = settings
        self._embedder = embedder
        self._counter = counter
        self._masker = Masker(settings.privacy)
        self._depth = depth
        self._fusion_depth = fusion_depth
        self._overhead = item_overhead
        self.store = Store.open(settings.store, EmbedderSpec(embedder.name, embedder.dim), clock)
        self._views: dict[tuple[str, str], _View] = {}

    def ingest(self, requests: Sequence[CaptureRequest]) -> int:
        """Capture the sessions and store each new event as a note; returns the notes written."""
        events = [e for r in requests for e in prepare_events(r, self._masker, self.store.clock, self._settings.capture)]
        self.store.events.append(events)
        known = self.store.notes.get_many(_note_id(e) for e in events)
        fresh = [e for e in events if _note_id(e) not in known]
        for (agent_id, project), group in _by_owner(fresh).items():
            vectors = self._embedder.embed([e.text for e in group])
            writes = [NoteWrite(_note(e), "import", "raw log", v) for e, v in zip(group, vectors, strict=True)]
            self.store.batches.run("import", writes, agent_id=agent_id, project=project, principal="raw-log")
        self._views.clear()
        return len(fresh)

    def dense(self, agent_id: str, query: str, project: str, depth: int | None = None) -> list[Retrieved]:
        vector = self._embedder.embed([query])[0]
        return self._view(agent_id, project).dense(vector, depth or self._depth)

    def lexical(self, agent_id: str, query: str, project: str, depth: int | None = None) -> list[Retrieved]:
        return self._view(agent_id, project).lexical(query, depth or self._depth)

    def hybrid(self, agent_id: str, query: str, project: str, depth: int | None = None) -> list[Retrieved]:
        """Fused whole rankings; ``depth`` is ignored (fusion reads ``fusion_depth`` of each)."""
        deep = self._fusion_depth
        return fuse([self.dense(agent_id, query, project, deep), self.lexical(agent_id, query, project, deep)])

    def notes(self) -> list[StoredNote]:
        table = self.store.notes.frame(columns=["note_id", "type", "scope", "status", "statement", "evidence"])
        return [StoredNote(r["note_id"], r["type"], r["scope"], r["status"], r["statement"], tuple(r["evidence"]))
                for r in rows(table)]

    def _view(self, agent_id: str, project: str) -> _View:
        key = (agent_id, project)
        if key not in self._views:
            self._views[key] = self._load(agent_id, project)
        return self._views[key]

    def _load(self, agent_id: str, project: str) -> _View:
        columns = ["note_id", "statement", "scope", "type", "evidence", "vector"]
        table = self.store.notes.frame(_visible(agent_id, project), columns=columns).sort_by("note_id")
        found = rows(table)
        notes = tuple(self._retrieved(r) for r in found)
        vectors = np.array([r["vector"] for r in found], dtype=np.float32).reshape(len(found), self._embedder.dim)
        if not notes:
            return _View((), vectors, None)
        index = bm25s.BM25()
        index.index(bm25s.tokenize([n.text for n in notes], stopwords="english", show_progress=False), show_progress=False)
        return _View(notes, vectors, index)

    def _retrieved(self, row: dict) -> Retrieved:
        return Retrieved(row["note_id"], row["statement"], tuple(row["evidence"]), row["scope"], row["type"],
                         self._counter.count(row["statement"]) + self._overhead)


class RawLogArm:
    """One ranking of a shared :class:`RawLog`, as a :class:`bench.eval.arms.MemoryArm`."""

    def __init__(self, log: RawLog, ranking: Ranking = "dense") -> None:
        self.log = log
        self.ranking = ranking
        self.name = "raw" if ranking == "dense" else f"raw-{ranking}"

    def ingest(self, requests: Sequence[CaptureRequest]) -> None:
        self.log.ingest(requests)

    def settle(self) -> None:
        return None

    def retrieve(self, agent_id: str, query: str, project: str, token_budget: int) -> Retrieval:
        depth = max(100, token_budget // 3)
        ranked = getattr(self.log, self.ranking)(agent_id, query, project, depth)
        return Retrieval(fill_budget(ranked, token_budget))

    def notes(self) -> list[StoredNote]:
        return self.log.notes()

    def close(self) -> None:
        return None


def fill_budget(ranked: Iterable[Retrieved], budget: int) -> tuple[Retrieved, ...]:
    """Items in rank order until the next one would overflow the budget."""
    kept, used = [], 0
    for item in ranked:
        if used + item.tokens > budget:
            break
        kept.append(item)
        used += item.tokens
    return tuple(kept)


def fuse(rankings: Sequence[Sequence[Retrieved]], k: int = RRF_K) -> list[Retrieved]:
    """Reciprocal-rank fusion: score 1/(k + rank) summed over rankings (rank from 1), ties by first seen."""
    scores: dict[str, float] = {}
    items: dict[str, Retrieved] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item.note_id] = scores.get(item.note_id, 0.0) + 1.0 / (k + rank)
            items.setdefault(item.note_id, item)
    order = sorted(scores, key=lambda note_id: -scores[note_id])
    return [items[note_id] for note_id in order]


def _visible(agent_id: str, project: str) -> NoteFilter:
    return NoteFilter(project=project, scopes=[f"personal:{agent_id}"], statuses=["active"])


def _by_owner(events: Iterable[Event]) -> dict[tuple[str, str], list[Event]]:
    groups: dict[tuple[str, str], list[Event]] = {}
    for event in events:
        groups.setdefault((event.agent_id, event.project), []).append(event)
    return groups


def _note_id(event: Event) -> str:
    return f"raw:{event.agent_id}:{event.event_id}"


def _note(event: Event) -> Note:
    """The event as a note, verbatim; its type only mirrors what the event says of itself."""
    return Note(
        note_id=_note_id(event), type=_type_of(event), subject=f"{event.role} {event.kind}", statement=event.text,
        scope=f"personal:{event.agent_id}", owner_agent=event.agent_id, project=event.project, module=event.module,
        evidence=[event.event_id], source_sessions=[event.session_id], source_agents=[event.agent_id],
        tags=event.tags, verified=event.verified, created_at=event.ts, updated_at=event.ts, last_seen_at=event.ts,
        confidence=event.importance, status="active",
    )


def _type_of(event: Event) -> NoteType:
    if event.candidate is not None:
        return event.candidate.type
    if event.verified:
        return "verified_fact"
    return next((t for t in _NOTE_TYPES if t in event.tags), "lesson")

