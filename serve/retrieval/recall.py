"""Scoped retrieval (DESIGN §4.6): filter first, fan out over the scopes, rank, fuse with full text,
fall back to raw turns where notes do not cover the query, fit k and the token budget, render.

1. Filter: only the cached blocks the caller may see acting as ``request.agent_id`` (its personal
   scope, the module and project scopes of its projects, ``team``), narrowed by ``scopes`` and
   ``project``; the cache holds only active, committed notes, and expired ones are skipped per row.
2. Fan out personal → module → project → team, each block searched with its scope's weight, and
   rank (:mod:`serve.retrieval.ranking`); BM25 over the same visible notes; reciprocal-rank fusion.
3. Episodic fallback (:mod:`serve.retrieval.episodes`) when the best note's similarity is under
   ``retrieval.episodic_below`` (the notes do not cover the query) and the request's ``scopes``, if
   any, hold the agent's personal scope (raw turns are as private as its personal notes).
4. Fit: notes in rank order up to ``k``, then turns up to ``episodic_k``, each only if the whole block
   still fits the budget; ``tokens`` is the rendered block's count with the bundled tokenizer, never
   over the budget. Rendering: :mod:`serve.retrieval.block`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from reverie.api import RetrievedNote, RetrievedTurn, RetrieveRequest, NoteView
from reverie.errors import ForbiddenError, UnavailableError
from reverie.ports import EmbeddingService
from reverie.records import Note
from reverie.settings import RetrievalSettings
from reverie.store import Store
from reverie.store.rows import note_from_row
from reverie.tokens import TokenCounter
from serve.auth.access import Principal, is_personal, scope_project
from serve.retrieval.block import BEGIN, END, note_line, render, turn_line
from serve.retrieval.episodes import EpisodeFinder, Turn
from serve.retrieval.noteindex import NoteIndex
from serve.retrieval.ranking import fuse
from serve.retrieval.scopeblock import Candidate, Hits, ScopeBlock
from serve.retrieval.tally import Tally

log = logging.getLogger(__name__)
_ORDER = {"personal": 0, "module": 1, "project": 2, "team": 3}
_LOAD_WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class Recalled:
    notes: list[RetrievedNote] = field(default_factory=list)
    turns: list[RetrievedTurn] = field(default_factory=list)
    context: str = ""
    tokens: int = 0
    covered: bool = True


def sees_scope(principal: Principal, agent_id: str, scope: str) -> bool:
    """What ``sees_note`` lets the caller see, acting as ``agent_id`` (an admin sees that agent's view
    of personal notes and every project's shared notes)."""
    if is_personal(scope):
        return scope == f"personal:{agent_id}" and (principal.is_admin or principal.id == agent_id)
    return scope == "team" or principal.in_project(scope_project(scope))


def wanted(principal: Principal, request: RetrieveRequest, block: ScopeBlock) -> bool:
    scope, personal_project = block.key
    if not sees_scope(principal, request.agent_id, scope):
        return False
    if request.scopes is not None and scope not in request.scopes:
        return False
    if request.project is None or scope == "team":
        return True
    owner = personal_project if is_personal(scope) else scope_project(scope)
    return owner == request.project


def turns_wanted(request: RetrieveRequest) -> bool:
    """Raw turns are the agent's own, like its personal notes: only where the request lets those in."""
    return request.scopes is None or f"personal:{request.agent_id}" in request.scopes


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


def merged(hits: list[Hits], depth: int) -> list[Candidate]:
    """The ``depth`` best candidates of several blocks by dense score (ties: fan-out order)."""
    if not hits:
        return []
    dense = np.concatenate([h.dense for h in hits])
    owner = np.repeat(np.arange(len(hits)), [len(h.dense) for h in hits])
    index = np.concatenate([np.arange(len(h.dense)) for h in hits])
    best = np.argsort(-dense, kind="stable")[:depth]
    return [hits[owner[i]].candidate(int(index[i])) for i in best]


class Recaller:
    def __init__(self, store: Store, embedder: EmbeddingService, tokens: TokenCounter, settings: RetrievalSettings) -> None:
        self.settings = self._settings = settings
        self._embedder = embedder
        self._tokens = tokens
        self.index = NoteIndex(store, settings)
        self.episodes = EpisodeFinder(store, embedder, settings, self.index.retired_evidence)
        self.tally = Tally(store, settings)
        self._store = store
        self._frame = tokens.count(BEGIN) + tokens.count(END)
        self._worker = RecallWorker(self)

    def recall(self, principal: Principal, request: RetrieveRequest) -> Recalled:
        if not request.memory:
            return Recalled()
        if request.project is not None and not principal.in_project(request.project):
            raise ForbiddenError(f"this key is not for project {request.project!r}", field="project")
        vector = np.asarray(self._embedder.embed([request.query])[0], dtype=np.float32)
        if not self.index.ready.wait(_LOAD_WAIT_SECONDS):
            raise UnavailableError("the retrieval cache is still loading the notes; retry shortly", retry_after=5)
        ranked = self.rank(principal, request, vector)
        covered = bool(ranked) and max(c.similarity for c in ranked) >= self._settings.episodic_below
        turns: list[Turn] = []
        if not covered and self._settings.episodic and turns_wanted(request):
            turns = self.episodes.find(principal, request.agent_id, request.project, request.query, vector)
        found = self.fit(ranked, turns, request.k or self._settings.k, request.token_budget or self._settings.token_budget)
        self.tally.returned(n.note.note_id for n in found.notes)
        return Recalled(found.notes, found.turns, found.context, found.tokens, covered)

    # --- ranking -----------------------------------------------------------------------------
    def rank(self, principal: Principal, request: RetrieveRequest, vector: np.ndarray) -> list[Candidate]:
        s = self._settings
        now = time.time()
        blocks = sorted((b for b in list(self.index.blocks.values()) if wanted(principal, request, b)),
                        key=lambda b: (_ORDER[b.key[0].split(":", 1)[0]], b.key[0]))
        dense = merged([b.search(vector, now, s.depth, s) for b in blocks], s.depth)
        found = {c.cached.note_id: c for c in dense}
        lexical = self._lexical(request.query, blocks, vector, now, found)
        if found and s.relative_similarity > 0:  # only notes near the best one: full text reorders, never drags in
            floor = s.relative_similarity * max(c.similarity for c in found.values())
            lexical = [i for i in lexical if found[i].similarity >= floor]
            dense = [c for c in dense if c.similarity >= floor]
        fused = fuse([c.cached.note_id for c in dense], lexical, s)
        return [found[note_id] for note_id, _ in fused]

    def _lexical(self, query: str, blocks: list[ScopeBlock], vector: np.ndarray, now: float,
                 found: dict[str, Candidate]) -> list[str]:
        """BM25 ranking of the visible notes over ``min_similarity``; adds their candidates to ``found``."""
        lexical = self.index.lexical
        if lexical is None:
            return []
        allowed = np.zeros(len(self.index.codes), dtype=bool)
        visible = {b.key for b in blocks}
        for key in visible:
            allowed[self.index.codes[key]] = True
        ranked = []
        for note_id in lexical.search(query, allowed, self._settings.depth):
            where = self.index.lookup(note_id)
            if where is None or where[0].key not in visible or not where[0].usable(where[1], now):
                continue
            if note_id not in found:
                block, slot = where
                similarity = block.similarity(slot, vector)
                if similarity < self._settings.min_similarity:
                    continue
                found[note_id] = Candidate(block.entries[slot], similarity, similarity * block.weight)
            ranked.append(note_id)
        return ranked

    # --- fitting the budget ------------------------------------------------------------------
    def fit(self, ranked: list[Candidate], turns: list[Turn], k: int, budget: int) -> Recalled:
        """Notes in rank order up to ``k``, then turns, each only if the block still fits the budget
        (a note that does not fit is skipped; at most ``4 k`` are looked at)."""
        used = self._frame
        items: list[tuple[str, RetrievedNote | RetrievedTurn]] = []
        for chunk in (ranked[:k], ranked[k: 4 * k]):
            lines = [self._note_line(c, n) for c, n in zip(chunk, notes_of(chunk), strict=True)]
            for (line, note), cost in zip(lines, self._tokens.count_many([line for line, _ in lines]) if lines else [], strict=True):
                if len(items) < k and used + cost <= budget:
                    used += cost
                    items.append((line, note))
            if len(items) == k:
                break
        turns_lines = list(self._turn_lines(turns))
        for (line, turn), cost in zip(turns_lines, self._tokens.count_many([line for line, _ in turns_lines]) if turns_lines else [], strict=True):
            if used + cost <= budget:
                used += cost
                items.append((line, turn))
        context = render([line for line, _ in items])
        tokens = self._tokens.count(context) if context else 0
        while tokens > budget:  # the pieces were counted apart: the whole decides
            items.pop()
            context = render([line for line, _ in items])
            tokens = self._tokens.count(context) if context else 0
        chosen = [i for _, i in items if isinstance(i, RetrievedNote)]
        kept = [i for _, i in items if isinstance(i, RetrievedTurn)]
        return Recalled(chosen, kept, context, tokens)

    @staticmethod
    def _note_line(candidate: Candidate, note: Note) -> tuple[str, RetrievedNote]:
        line = note_line(note.type, note.scope, note.confidence, note.evidence, note.statement)
        return line, RetrievedNote(note=NoteView.of(note), score=candidate.dense, similarity=candidate.similarity)

    def _turn_lines(self, turns: list[Turn]) -> Iterator[tuple[str, RetrievedTurn]]:
        for turn in turns[: self._settings.episodic_k]:
            e = turn.event
            line = turn_line(e.session_id, e.ts.date().isoformat(), e.role, e.event_id, e.text)
            yield line, RetrievedTurn(event_id=e.event_id, agent_id=e.agent_id, session_id=e.session_id,
                                      project=e.project, ts=e.ts, role=e.role, text=e.text, similarity=turn.similarity)

    def changed(self) -> None:
        """A route of this replica committed a batch: refresh now (other replicas poll for it)."""
        if self.index.ready.is_set():
            self.index.refresh()

    def purged(self, note_ids: list[str]) -> None:
        """Forget notes a purge in this replica deleted (no batch announces them)."""
        self.index.forget(note_ids)
        self.episodes.forget()

    def start(self) -> None:
        self._worker.start()

    def close(self) -> None:
        self._worker.stop()
        self.index.close()


class RecallWorker:
    """Two background threads of the replica: one loads the cache, then keeps it current (refresh,
    full-text rebuilds); the other reconciles it and flushes hits, so slow writes never delay a refresh."""

    def __init__(self, recaller: Recaller) -> None:
        self._r = recaller
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._refresh, name="reverie-recall", daemon=True),
                         threading.Thread(target=self._maintain, name="reverie-recall-flush", daemon=True)]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=10)
        self._guard("final flush", self._r.tally.flush)

    def _refresh(self) -> None:
        s, index = self._r.settings, self._r.index
        while not index.ready.is_set() and not self._stop.is_set():
            if not self._guard("load", index.load):
                self._stop.wait(1.0)
        lexical_due = 0.0
        while not self._stop.wait(s.refresh_seconds):
            self._guard("refresh", index.refresh)
            if time.monotonic() >= lexical_due and index.lexical_due():
                lexical_due = time.monotonic() + s.lexical_refresh_seconds
                index.rebuild_lexical_soon()

    def _maintain(self) -> None:
        s, index = self._r.settings, self._r.index
        due = {"reconcile": time.monotonic() + s.reconcile_seconds, "flush": time.monotonic() + s.flush_seconds}
        while not self._stop.wait(min(1.0, s.flush_seconds, s.reconcile_seconds)):
            now = time.monotonic()
            if now >= due["reconcile"] and index.ready.is_set():
                due["reconcile"] = now + s.reconcile_seconds
                self._guard("reconcile", index.reconcile)
            if now >= due["flush"]:
                due["flush"] = now + s.flush_seconds
                self._guard("flush", self._r.tally.flush)

    @staticmethod
    def _guard(what: str, step: Callable[[], object]) -> bool:
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - the replica keeps serving; the next round retries
            log.warning("retrieval cache %s failed (%s); retrying", what, type(exc).__name__)  # no message: it may quote stored text
            return False
        return True
