"""One local consolidation run of one agent: the six stages, orchestrated, written as one batch.

collect -> extract -> deduplicate -> trust -> resolve -> prune -> write; beside them, every replayed
turn's contextual key (``reverie.context_keys``) is embedded and stored, and the log's restatements
of what the run overturned become its evidence (``actors.restated``). The stages are the pure
functions of ``actors.collect``, ``reverie.extract``, ``actors.dedupe``, ``actors.trust``,
``actors.resolve``, ``actors.prune`` and ``actors.restated``; this module only reads, embeds, times
and writes. The run's
batch row is begun first (it is the persisted run state: ``running`` while it goes, aborted by a
restarted actor, ``committed`` with its stats at the end), and every note change is written in one
atomic batch. If another batch changed the same notes meanwhile, stages 3-6 are redone on the
fresh notes, up to ``repair_rounds`` times.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from actors.collect import Replay, chunk, keep, pick_sessions, score
from actors.dedupe import deduplicate, quarantine_drafts
from actors.plan import LIVE_STATUSES, Change, Member, NoteIndex, RunContext
from actors.prune import prune
from actors.resolve import RIVAL_POOL, resolve
from actors.restated import attach, explicit_corrections, overturned, restatements
from actors.store_client import ModelClient, StoreClient
from actors.trust import weigh
from reverie.citations import Cited
from reverie.clock import Clock
from reverie.context_keys import turn_keys
from reverie.errors import BatchConflictError
from reverie.extract import Extractor, extract
from reverie.note_context import embedding_text
from reverie.ports import ConsolidationResult
from reverie.records import Batch, Candidate, Event, Session
from reverie.settings import Settings
from reverie.statements import slot_text

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Prepared:
    """Stages 1-2 of a run, done once: what was replayed and the embedded candidates."""

    replay: Replay
    members: list[Member]
    session_events: dict[str, int]
    chunks_done: int
    timings: dict[str, float]


class _Timer:
    """Seconds spent per phase of a run (kept in the batch stats as ``phase_seconds``)."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round(self.laps.get(name, 0.0) + now - self._last, 3)
        self._last = now


class Consolidation:
    def __init__(self, agent_id: str, settings: Settings, store: StoreClient, model: ModelClient,
                 extractors: Sequence[Extractor], clock: Clock,
                 commit_guard: Callable[[], AbstractContextManager[Any]] = nullcontext) -> None:
        self.agent_id = agent_id
        self._settings = settings
        self._store = store
        self._model = model
        self._extractors = list(extractors)
        self._clock = clock
        self._guard = commit_guard

    def run(self, reason: str) -> ConsolidationResult:
        started, wall = self._clock.now(), time.perf_counter()
        pending = self._store.sessions(self.agent_id, pending_only=True)
        if not pending:
            return ConsolidationResult(batch_id=None, stats={"reason": reason, "sessions": 0, "pending": 0})
        picked = pick_sessions(pending, self._settings.consolidation.max_sessions)
        projects = {s.project for s in picked}
        batch = self._store.begin(self.agent_id, projects.pop() if len(projects) == 1 else None, {"reason": reason})
        try:
            prepared = self._prepare(picked, started)
            done, stats = self._integrate(batch, prepared, picked, started, reason, wall)
        except BaseException:
            self._abort_quietly(batch.batch_id)
            raise
        log.info("agent %s: batch %s committed: %s", self.agent_id, done.batch_id, stats)
        return ConsolidationResult(batch_id=done.batch_id, stats=done.stats)

    # --- stages 1-2 ---------------------------------------------------------------------------------
    def _prepare(self, picked: Sequence[Session], started: datetime) -> Prepared:
        settings, timer = self._settings, _Timer()
        events = self._store.events(self.agent_id, [s.session_id for s in picked])
        threshold = settings.capture.salience_threshold
        scored = score(picked, events, threshold)
        kept = [item.event for _, items in scored for item in items if keep(item, threshold)]
        timer.lap("collect")
        counts = dict(zip([e.event_id for e in kept], self._model.count_tokens([e.text for e in kept]), strict=True))
        replay = chunk(scored, counts, settings.consolidation, threshold)
        timer.lap("tokens")
        candidates: list[Candidate] = []
        done = 0
        for batch in replay.chunks:
            candidates.extend(extract(batch, self._extractors))
            done += 1
            if (self._clock.now() - started).total_seconds() > settings.consolidation.max_seconds:
                break
        consumed = set(replay.consumed(done))
        candidates = [c for c in candidates if set(c.session_ids) <= consumed]
        timer.lap("extract")
        statements = [c.statement for c in candidates]
        texts = [embedding_text(c.statement, c.scope, c.type) for c in candidates]
        vectors = self._model.embed(texts + [slot_text(s) for s in statements]) if candidates else np.zeros((0, 0))
        n = len(candidates)
        members = [Member(c, v, slot) for c, v, slot in zip(candidates, vectors[:n], vectors[n:], strict=True)]
        timer.lap("embed")
        if settings.consolidation.contextual_keys:
            self._write_keys([e for e in events if e.session_id in consumed])
            timer.lap("keys")
        read = Counter(e.session_id for e in events)
        return Prepared(replay, members, {s: read[s] for s in consumed}, done, timer.laps)

    def _write_keys(self, events: Sequence[Event]) -> None:
        """Dreaming enriches the log: each replayed turn's contextual key, embedded and stored."""
        keys = turn_keys(events)
        if keys:
            self._store.write_keys(keys, self._model.embed([k.key for k in keys]))

    # --- stages 3-6 and the write -------------------------------------------------------------------
    def _integrate(self, batch: Batch, prepared: Prepared, picked: Sequence[Session], started: datetime,
                   reason: str, wall: float) -> tuple[Batch, dict[str, Any]]:
        rounds = self._settings.consolidation.repair_rounds
        timer = _Timer()
        for attempt in range(rounds + 1):
            changes = self.plan(prepared, picked)
            timer.lap("plan")
            stats = self._stats(prepared, changes, reason, attempt, wall)
            try:
                with self._guard():
                    done = self._store.write(batch, changes, prepared.session_events,
                                             {**stats, "phase_seconds": {**prepared.timings, **timer.laps}})
                timer.lap("write")
                log.info("agent %s: phases %s", self.agent_id, {**prepared.timings, **timer.laps})
                return done, stats
            except BatchConflictError:
                if attempt == rounds:
                    raise
                log.info("agent %s: notes changed during the run; repairing (round %d)", self.agent_id, attempt + 1)
                batch = self._store.begin(batch.agent_id or self.agent_id, batch.project,
                                          {"reason": reason, "repair": attempt + 1})
        raise AssertionError("unreachable")

    def plan(self, prepared: Prepared, picked: Sequence[Session]) -> list[Change]:
        """Stages 3-6 over the current notes: the changes one batch will write."""
        settings = self._settings.consolidation
        scopes = sorted({m.candidate.scope for m in prepared.members})
        projects = sorted({s.project for s in picked})
        notes, vectors = self._store.notes_for(self.agent_id, scopes, projects)
        index = NoteIndex(notes, vectors).with_alternatives(self._store.alternatives())
        index = self._with_slots(index, prepared.members)
        ctx = RunContext(self.agent_id, self._clock.now(), {s.session_id: s for s in picked})
        drafts = deduplicate(prepared.members, index, settings, self.agent_id)
        drafts += quarantine_drafts(prepared.members, index, self.agent_id)
        changes = weigh(drafts, ctx, settings)
        changes = resolve(changes, index, settings, ctx.now, self.agent_id)
        explicit = explicit_corrections(prepared.members, self.agent_id)
        return self._restated(prune(changes, index, ctx, settings), index, ctx.now, explicit)

    def _restated(self, changes: list[Change], index: NoteIndex, now: datetime, explicit: Cited) -> list[Change]:
        """Stage 5b (``actors.restated``): the log's restatements of what the run overturned, as its evidence."""
        settings = self._settings.consolidation
        for claim in overturned(changes, index, settings, explicit):
            reference = claim.reference
            assert reference.project is not None
            events = self._store.mentioning(reference.project, claim.readers, claim.phrases, claim.before,
                                            settings.restatement_limit)
            if not events:
                continue
            vectors = self._model.embed([e.text for e in events] + [reference.statement])
            found = restatements(claim, events, vectors[:-1], vectors[-1], settings)
            by_id = {(e.agent_id, e.event_id): v for e, v in zip(events, vectors, strict=False)}
            changes = attach(changes, claim, found, by_id, now, index)
        return changes

    def _with_slots(self, index: NoteIndex, members: Sequence[Member]) -> NoteIndex:
        """The index with the value-masked embeddings of the live notes near the run's candidates."""
        floor = self._settings.consolidation.correction_similarity
        near = {n.note_id: n for m in members for n, sim in index.nearest_in(m.vector, index.scopes(), RIVAL_POOL)
                if sim >= floor}
        wanted = sorted(i for i in near if index.slot_vector(i) is None)
        if not wanted:
            return index
        found = self._model.embed([slot_text(near[i].statement) for i in wanted])
        return index.with_slot_vectors(dict(zip(wanted, found, strict=True)))

    def _stats(self, prepared: Prepared, changes: Sequence[Change], reason: str, attempt: int, wall: float) -> dict[str, Any]:
        replay = prepared.replay
        live_new = [c for c in changes if c.new and c.note.status in LIVE_STATUSES]
        return {
            "reason": reason, **replay.stats, "chunks": prepared.chunks_done, "chunks_total": len(replay.chunks),
            "candidates": len(prepared.members),
            "quarantined": sum(1 for c in changes if c.note.status == "quarantined" and c.new),
            "added": sum(1 for c in live_new if c.note.type != "open_question"),
            "open_questions": sum(1 for c in changes if c.note.type == "open_question" and c.new),
            "merged": sum(1 for c in changes if c.action == "merge"),
            "superseded": sum(1 for c in changes if c.note.status == "superseded"),
            "archived": sum(1 for c in changes if c.note.status == "archived"),
            "notes_written": len(changes), "repair_rounds": attempt,
            "seconds": round(time.perf_counter() - wall, 3),
        }

    def _abort_quietly(self, batch_id: str) -> None:
        try:
            self._store.abort(batch_id)
        except Exception:  # noqa: BLE001 - the run's own error matters; settle() cleans up later
            log.warning("agent %s: could not abort batch %s; it will be settled later", self.agent_id, batch_id)
