"""Scoped retrieval (DESIGN §4.6): filter first, rank notes and raw turns, fuse them into one order,
fill the token budget while items stay relevant, render.

1. Filter: only the cached blocks the caller may see acting as ``request.agent_id`` (its personal
   scope, the module and project scopes of its projects, ``team``), narrowed by ``scopes`` and
   ``project``; the cache holds only active, committed notes, and expired ones are skipped per row.
2. Notes: fan out personal → module → project → team, each block searched with its scope's weight,
   ranked (:mod:`serve.retrieval.ranking`), BM25 over the same visible notes, reciprocal-rank fusion;
   among the first ``k``, an older note a newer one of its slot replaces for this question is left
   out, and so are the asker's turns it cites (:mod:`serve.retrieval.newest`).
3. Raw turns, the floor (:mod:`serve.retrieval.turnindex`): where the request's ``scopes``, if any,
   hold the agent's personal scope (raw turns are as private as its personal notes), the agent's own
   turns of the asked project, never the evidence of a retired note or of a claim that lost to a
   verified one, in five lists: dense (vectors computed offline) and BM25 over the plain text, the
   same over the contextual keys consolidation wrote (:mod:`reverie.context_keys`), and — when the
   question names a time, read against ``as_of`` (:mod:`reverie.dates`) — the turns of those days by
   similarity. A dense turn needs ``relevance_similarity`` to the query, a full-text or time-window
   turn ``turn_lexical_min_similarity`` (full text finds names and dates that meaning misses); notes
   come only when the best of them reaches ``relevance_similarity`` (the others then need
   ``min_similarity`` and ``relative_similarity``, as ranked in step 2).
4. One order: each item's fused score is its reciprocal-rank score in its own layer's lists, weighted
   by ``weight_notes`` (``weight_notes_shared`` for a shared or verified note at least
   ``shared_min_similarity`` close; a note ranked above a weightier one among the notes scores at
   least as much) or ``weight_turns`` (turn lists: dense 1, full text ``weight_turn_lexical``, key
   dense ``weight_turn_key``, key full text ``weight_turn_key_lexical``, time window
   ``weight_turn_window``); a note ranks at least where the best turn it cites ranks (it stands for
   that turn, which the fill then leaves out).
5. Fit: items in that order while their fused score clears ``relevance_floor``; turns also
   ``relevance_share`` of the best item's score, and ``notes_lead_share`` of it when a note ranks
   among the first ``notes_lead`` items, ``shared_notes_lead_share`` when a weighty shared note ranks
   among the first ``shared_notes_lead`` (raw turns only when necessary); at most ``k`` notes, each
   only if the block still fits the budget; a turn a chosen note cites is left out (the note stands for it). ``tokens`` is
   the rendered block's count with the bundled tokenizer, never over the budget; every item carries
   its ``rank`` in the order. Rendering: :mod:`serve.retrieval.block`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import numpy as np

from reverie.api import RetrieveRequest, namespace_path
from reverie.dates import windows
from reverie.errors import ForbiddenError, UnavailableError
from reverie.settings import RetrievalSettings
from reverie.store import Store
from reverie.store.scopes import is_personal, scope_project
from reverie.store.vectors import TextEmbedder
from reverie.tokens import TokenCounter
from serve.auth.access import Principal, retrieval_access
from serve.retrieval.fill import Fill, Ranked, Recalled
from serve.retrieval.newest import newest_in_slot
from serve.retrieval.noteindex import NoteIndex
from serve.retrieval.ranking import fuse
from serve.retrieval.scopeblock import BlockKey, Cached, Candidate, Hits, ScopeBlock, single_threaded
from serve.retrieval.staleturns import without_overturned
from serve.retrieval.tally import Tally
from serve.retrieval.turnindex import Turn, TurnHits, TurnIndex

log = logging.getLogger(__name__)
_ORDER = {"personal": 0, "module": 1, "project": 2, "team": 3}
_LOAD_WAIT_SECONDS = 60.0


def sees_scope(principal: Principal, agent_id: str, scope: str) -> bool:
    """What ``sees_note`` lets the caller see, acting as ``agent_id`` (an admin sees that agent's view
    of personal notes and every project's shared notes)."""
    return retrieval_access(principal, agent_id).sees_scope(scope)


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
    """Raw turns are the agent's own, like its personal notes: only where the request lets those in
    (and never for a request within a namespace: turns are filed under none)."""
    return request.namespace is None and (request.scopes is None or f"personal:{request.agent_id}" in request.scopes)


def filed_under(cached: Cached, namespace: list[str] | None) -> bool:
    """Whether a cached note is filed under ``namespace`` or below it (any note when it is None)."""
    if namespace is None:
        return True
    path = cached.as_row().get("namespace") or ""
    wanted_path = namespace_path(namespace)
    return path == wanted_path or path.startswith(wanted_path + ".")


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
    def __init__(self, store: Store, embedder: TextEmbedder, tokens: TokenCounter, settings: RetrievalSettings) -> None:
        self.settings = self._settings = settings
        self._embedder = embedder
        self._tokens = tokens
        self.index = NoteIndex(store, settings)
        self.turns = TurnIndex(store, embedder, settings, store.tables.spec.dim)
        self.tally = Tally(store, settings)
        self._store = store
        self._fill = Fill(tokens, settings)
        self._worker = RecallWorker(self)

    def recall(self, principal: Principal, request: RetrieveRequest) -> Recalled:
        if not request.memory:
            return Recalled()
        single_threaded()  # this request's thread: faiss searches one query at a time
        if request.project is not None and not principal.in_project(request.project):
            raise ForbiddenError(f"this key is not for project {request.project!r}", field="project")
        vector = np.asarray(self._embedder.embed([request.query])[0], dtype=np.float32)
        if not self.index.ready.wait(_LOAD_WAIT_SECONDS):
            raise UnavailableError("the retrieval cache is still loading the notes; retry shortly", retry_after=5)
        k = request.k or self._settings.k
        notes, passed = newest_in_slot(self.rank(principal, request, vector), self._placed, k, self._settings)
        turns = self._turn_hits(request, vector, [e for c in passed for e in c.cached.evidence_of(request.agent_id)])
        turns = without_overturned(turns, [c for c, _ in notes[:k]], self._settings.overturned_turn_overlap)
        order = self.order(notes, turns, request.agent_id)
        found = self.fit(order, k, request.token_budget or self._settings.token_budget)
        self.tally.returned(n.note.note_id for n in found.notes)
        return found

    def _placed(self, cached: Cached) -> tuple[BlockKey, np.ndarray] | None:
        """A ranked note's block and vector, if the cache still holds that very row (a refresh may have
        replaced it since the ranking)."""
        where = self.index.lookup(cached.note_id)
        if where is None or where[1] >= len(where[0].entries) or where[0].entries[where[1]] is not cached:
            return None
        return where[0].key, where[0].arrays.vectors[where[1]]

    def _turn_hits(self, request: RetrieveRequest, vector: np.ndarray, passed: list[str]) -> TurnHits:
        """The asker's turns, without the evidence of retired notes and of the notes ``newest_in_slot``
        left out for this question (``passed``)."""
        s = self._settings
        if not s.turns or not turns_wanted(request):
            return TurnHits()
        as_of = (request.as_of or self._store.now()).date()
        withheld = [*self.index.withheld_events(request.agent_id), *passed]
        return self.turns.search(request.agent_id, request.project, vector, request.query, withheld, s.turn_depth,
                                 windows(request.query, as_of), (s.relevance_similarity, s.turn_lexical_min_similarity))

    # --- ranking -----------------------------------------------------------------------------
    def rank(self, principal: Principal, request: RetrieveRequest, vector: np.ndarray) -> list[tuple[Candidate, float]]:
        """The visible notes, best first, with their reciprocal-rank fused scores."""
        s = self._settings
        now = time.time()
        blocks = sorted((b for b in list(self.index.blocks.values()) if wanted(principal, request, b)),
                        key=lambda b: (_ORDER[b.key[0].split(":", 1)[0]], b.key[0]))
        dense = merged([b.search(vector, now, s.depth, s) for b in blocks], s.depth)
        dense = [c for c in dense if filed_under(c.cached, request.namespace)]
        found = {c.cached.note_id: c for c in dense}
        lexical = self._lexical(request.query, blocks, vector, now, found)
        lexical = [i for i in lexical if filed_under(found[i].cached, request.namespace)]
        if found and s.relative_similarity > 0:  # only notes near the best one: full text reorders, never drags in
            floor = s.relative_similarity * max(c.similarity for c in found.values())
            lexical = [i for i in lexical if found[i].similarity >= floor]
            dense = [c for c in dense if c.similarity >= floor]
        fused = fuse([c.cached.note_id for c in dense], lexical, s)
        return [(found[note_id], score) for note_id, score in fused]

    def order(self, notes: list[tuple[Candidate, float]], turns: TurnHits, agent_id: str) -> list[Ranked]:
        """One order over notes and the asker's (``agent_id``) turns: each layer's reciprocal-rank scores,
        weighted by layer."""
        s = self._settings
        relevant = bool(notes) and max(c.similarity for c, _ in notes) >= s.relevance_similarity
        items = _weighed(notes, s) if relevant else []
        scores: dict[str, float] = {}
        by_id: dict[str, Turn] = {}
        weights = (1.0, s.weight_turn_lexical, s.weight_turn_key, s.weight_turn_key_lexical, s.weight_turn_window)
        for weight, ranking in zip(weights, turns.lists(), strict=True):
            for rank, turn in enumerate(ranking, start=1):
                event_id = turn.event.event_id
                scores[event_id] = scores.get(event_id, 0.0) + s.weight_turns * weight / (s.rrf_k + rank)
                by_id.setdefault(event_id, turn)
        items = [_standing_for(item, agent_id, scores) for item in items]
        items += [Ranked(score, turn=by_id[event_id]) for event_id, score in scores.items()]
        return sorted(items, key=lambda r: -r.score)  # stable: a note stays ahead of the turn it cites

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
    def fit(self, order: list[Ranked], k: int, budget: int) -> Recalled:
        return self._fill.fit(order, k, budget)

    def changed(self) -> None:
        """A route of this replica committed a batch: refresh now (other replicas poll for it)."""
        self.index.refresh()

    def purged(self, note_ids: list[str]) -> None:
        """Forget notes a purge in this replica deleted (no batch announces them)."""
        self.index.forget(note_ids)
        self.turns.forget()
        self._fill.forget()

    def start(self) -> None:
        self._worker.start()

    def close(self) -> None:
        self._worker.stop()
        self.index.close()


def _weighed(notes: list[tuple[Candidate, float]], s: RetrievalSettings) -> list[Ranked]:
    """The notes' fused scores weighted by kind (``weight_notes_shared`` for a shared or verified note
    close to the question, else ``weight_notes``), never out of the notes' own order: a note that ranks
    above a weightier one among the notes scores at least as much (the weight decides notes against
    turns, not which note answers: the scope weights and similarity gates did that)."""
    weighed = [(s.weight_notes_shared if c.weighty(s) else s.weight_notes) * score for c, score in notes]
    for i in range(len(weighed) - 2, -1, -1):
        weighed[i] = max(weighed[i], weighed[i + 1])
    return [Ranked(score, candidate=c) for (c, _), score in zip(notes, weighed, strict=True)]


def _standing_for(item: Ranked, agent_id: str, turn_scores: dict[str, float]) -> Ranked:
    """A note stands for the turns of ``agent_id`` it cites (the fill leaves them out for it): it ranks
    at least where the best of them ranks."""
    assert item.candidate is not None
    cited = item.candidate.cached.evidence_of(agent_id)
    best = max((turn_scores[e] for e in cited if e in turn_scores), default=0.0)
    return Ranked(max(best, item.score), candidate=item.candidate, cites=cited)


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
        single_threaded()  # the turn indexes are built here
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
            # no message: it may quote stored text
            log.warning("retrieval cache %s failed (%s); retrying", what, type(exc).__name__)
            return False
        return True
