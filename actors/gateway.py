"""The store gateway: one actor holds the LanceDB store for every agent memory actor.

Importing LanceDB costs a process about 65 MB (measured: PSS of a bare Ray worker 65 MB, with the
store open 150 MB), so agent actors never import it: they send their reads and their one batch
write per run here. Calls run on a small thread pool (``ActorSettings.store_concurrency``); each
returns only after the store committed (or raises, leaving nothing visible). Only light records
cross the boundary (``reverie.records``, ``reverie.ports``, numpy), never store classes.

Ray imports an actor's module in every process that looks the actor up by name, so this module
imports ``reverie.store`` (and with it LanceDB) only inside the gateway's own methods.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
import ray

from actors.dedupe import WISHES
from actors.plan import Change
from actors.triggers import AgentActivity
from reverie.alternatives import Alternatives, Frames
from reverie.clock import Clock, SystemClock
from reverie.context_keys import TurnKey
from reverie.embed import spec_for
from reverie.errors import NotFoundError, ReverieError
from reverie.ports import STORE_ACTOR, AgentInfo, CaptureResult, ConsolidationResult
from reverie.records import Batch, Event, Note, Session
from reverie.settings import Settings

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    import pyarrow as pa

DAY_SECONDS = 86400.0


class StoreGateway:
    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        from reverie.store import Store

        self._settings = settings
        self._store = Store.open(settings.store, spec_for(settings.embedding), clock or SystemClock())
        self._frames, self._framed = Frames(), set[tuple[str, str, str]]()
        self._frames_lock = threading.Lock()
        self._links: tuple[tuple[int, frozenset[str]], Alternatives] | None = None

    def pid(self) -> int:
        return os.getpid()

    # --- capture ---------------------------------------------------------------------------------
    def append(self, events: Sequence[Event], vectors: np.ndarray | None = None) -> CaptureResult:
        """Commit the events, then their vectors (``vectors[i]`` is ``events[i]``'s). The events are
        what is acknowledged: a vector write that fails is logged and left to the backfill."""
        done = self._store.events.append(events)
        if vectors is not None:
            try:
                self._store.vectors.write([(e.agent_id, e.event_id) for e in events], vectors)
            except ReverieError as exc:
                log.warning("event vectors not written (%s); the turn cache backfills them", exc.code)
        return CaptureResult(accepted=done.accepted, duplicates=done.duplicates, event_ids=done.event_ids)

    def write_keys(self, keys: Sequence[TurnKey], vectors: np.ndarray) -> int:
        """Store the contextual keys a consolidation derived (replacing earlier ones of those turns)."""
        return self._store.keys.write(keys, vectors, self._store.now())

    def end_session(self, agent_id: str, session_id: str, at: datetime) -> Session:
        found = self._store.events.sessions(agent_id=agent_id, session_ids=[session_id])
        if not found:
            raise NotFoundError(f"agent {agent_id!r} has no session {session_id!r}; capture its events first")
        return self._store.events.end_session(session_id, at)

    # --- what consolidation reads ------------------------------------------------------------------
    def sessions(self, agent_id: str, *, pending_only: bool = False) -> list[Session]:
        return self._store.events.sessions(agent_id=agent_id, pending_only=pending_only)

    def events(self, agent_id: str, session_ids: Sequence[str]) -> list[Event]:
        return self._store.events.query(agent_id=agent_id, session_ids=session_ids)

    def mentioning(self, project: str, agent_ids: Sequence[str] | None, phrases: Sequence[str], before: datetime,
                   limit: int) -> list[Event]:
        """The project's events (of ``agent_ids`` only, if given) before ``before`` that name a phrase,
        but none that a live note of any scope cites (another agent's personal note included; event ids
        are unique per agent only, so a note cites the events of its own agents, or anyone's if it names none)."""
        from reverie.citations import cited_events, is_cited
        from reverie.store import EventFilter, NoteFilter

        where = EventFilter(project=project, agent_ids=agent_ids, before=before)
        found = self._store.events.mentioning(where, phrases, limit)
        if not found:
            return []
        live = NoteFilter(statuses=["active", "candidate"], evidence_any=sorted({e.event_id for e in found}))
        cited = cited_events(n for n in self._store.notes.list(live, limit=10_000).notes if n.type != "open_question")
        return [e for e in found if not is_cited(cited, e)]

    def notes_for(self, agent_id: str, scopes: Sequence[str], projects: Sequence[str] = ()) -> tuple[list[Note], np.ndarray]:
        """Every note the agent owns, every note of ``scopes`` and every shared note of ``projects`` (the
        scopes the agent reads there, where a correction looks for its target), all statuses but
        deleted, with vectors."""
        from reverie.store import NoteFilter
        from reverie.store.rows import note_from_row

        kept = NoteFilter(exclude_statuses=["deleted"])
        wanted = [replace(kept, owner=agent_id)]
        shared = sorted({s for s in scopes if not s.startswith("personal:")})
        if shared:
            wanted.append(replace(kept, scopes=shared))
        if projects:
            wanted += [replace(kept, projects=projects, scope_kinds=["project", "module"]), replace(kept, scopes=["team"])]
        frames = [self._store.notes.frame(where) for where in wanted]
        rows: dict[str, dict[str, Any]] = {}
        for frame in frames:
            rows.update({r["note_id"]: r for r in frame.to_pylist()})
        ordered = [rows[k] for k in sorted(rows)]
        dim = self._store.tables.spec.dim
        vectors = np.asarray([r["vector"] for r in ordered], dtype=np.float32).reshape(len(ordered), dim)
        return [note_from_row(r) for r in ordered], vectors

    def alternatives(self) -> Alternatives:
        """The values the team's people fill one frame with (``reverie.alternatives``): read here, from
        what every person said they want in every project (preferences and constraints, active, candidate
        or superseded; never a quarantined, rejected, archived or deleted note, nor a turn the log
        restated), so only the values leave the store, never another agent's statement. Module and project
        names are never values. The frames are kept between calls and grown by the statements new since
        (the links are rebuilt only when a frame was added or a name appeared); a note that left the
        set meanwhile (deleted, edited, archived) has them learnt again from scratch: what was
        deleted teaches nothing. Under the lock: one gateway thread learns, the others wait for it."""
        from reverie.store import NoteFilter

        where = NoteFilter(scope_kinds=["personal"], types=sorted(WISHES), statuses=["active", "candidate", "superseded"])
        rows = self._store.notes.frame(where, ["scope", "statement", "tags"]).to_pylist()
        said = {(r["note_id"], r["scope"], r["statement"]) for r in rows if not {"restated", "quarantine"} & set(r["tags"] or ())}
        places = self._store.notes.frame(NoteFilter(exclude_statuses=["deleted"]), ["project", "module"])
        names = frozenset(n for column in ("project", "module") for n in places.column(column).to_pylist() if n)
        with self._frames_lock:
            if not self._framed <= said:
                self._frames, self._framed, self._links = Frames(), set(), None
            for _, scope, statement in sorted(said - self._framed):
                self._frames.add(scope, statement)
            self._framed |= said
            key = (len(self._frames), names)
            if self._links is None or self._links[0] != key:
                self._links = (key, self._frames.alternatives(names))
            return self._links[1]

    # --- the batch of a run --------------------------------------------------------------------------
    def begin(self, agent_id: str, project: str | None, stats: dict[str, Any]) -> Batch:
        return self._store.batches.begin("local", agent_id=agent_id, project=project, stats=stats)

    def write(self, batch: Batch, changes: Sequence[Change], session_events: dict[str, int], stats: dict[str, Any]) -> Batch:
        """Stage every change and commit (one atomic batch; on any failure nothing is visible).

        ``session_events`` maps each replayed session to the number of events the run read; a session
        that got more events meanwhile is not marked consolidated (its new events wait for the next
        run; the events already replayed merge idempotently then). The agent actor holds its capture
        lock around this call, so no event of the agent lands between this check and the commit.
        Each change of an existing note carries the version the run read: if another writer changed
        the note since, the commit is refused with BatchConflictError and the run repairs itself.
        """
        from reverie.store import NoteWrite

        writes = [NoteWrite(c.note, c.action, c.reason, c.vector, base_version=None if c.new else c.note.version)
                  for c in changes]
        current = {s.session_id: s.n_events for s in self._store.events.sessions(session_ids=list(session_events))}
        consumed = sorted(s for s, n in session_events.items() if current.get(s) == n)
        stats = {**stats, "sessions": len(consumed), "sessions_grown": len(session_events) - len(consumed)}
        batch = batch.model_copy(update={"session_ids": consumed})
        try:
            staged = self._store.batches.stage(batch, writes)
            return self._store.batches.commit(staged, stats)
        except BaseException:
            self.abort(batch.batch_id)
            raise

    def abort(self, batch_id: str) -> None:
        self._store.batches.abort(batch_id)

    def settle(self, agent_id: str | None = None) -> int:
        """Abort the agent's unfinished runs (a restarted actor calls this) and old abandoned ones."""
        return self._store.batches.settle(owner_agent=agent_id)

    def last_batch(self, agent_id: str) -> ConsolidationResult | None:
        done = self._store.batches.list(agent_id=agent_id, kinds=["local"], statuses=["committed", "rolled_back"])
        if not done:
            return None
        last = max(done, key=lambda b: (b.committed_at or b.created_at, b.batch_id))
        return ConsolidationResult(batch_id=last.batch_id, stats=last.stats)

    # --- what triggers and status read -------------------------------------------------------------
    def activity(self, now: datetime, agent_ids: Sequence[str] | None = None) -> dict[str, AgentActivity]:
        """Trigger inputs of the given agents, or of every agent with pending sessions."""
        import pyarrow as pa
        import pyarrow.compute as pc

        from reverie.store import SessionFilter

        where = SessionFilter(agent_ids=agent_ids, consolidated=False)
        pending = self._store.events.session_frame(where, ["agent_id", "session_id", "started_at"])
        agents = sorted(set(agent_ids) if agent_ids is not None else set(pending["agent_id"].to_pylist()))
        if not agents:
            return {}
        runs, running, unmarked = self._runs(agents, now)  # read after ``pending``: see _runs
        if unmarked:
            pending = pending.filter(pc.invert(pc.is_in(pending["session_id"], pa.array(sorted(unmarked)))))
        last_event = self._last_event(pending)
        cursors = self._cursors(agents, unmarked) if agent_ids is not None else {}
        found = {}
        for agent in agents:
            mine = pending.filter(pc.equal(pending["agent_id"], agent))
            found[agent] = AgentActivity(
                agent_id=agent, pending_sessions=mine.num_rows,
                oldest_pending_at=pc.min(mine["started_at"]).as_py() if mine.num_rows else None,
                last_event_at=last_event.get(agent), last_run_at=max(runs.get(agent, []), default=None),
                run_times=tuple(t for t in runs.get(agent, []) if (now - t).total_seconds() < DAY_SECONDS),
                running=agent in running, cursor=cursors.get(agent),
            )
        return found

    def _last_event(self, pending: pa.Table) -> dict[str, datetime]:
        from reverie.store import EventFilter

        if pending.num_rows == 0:
            return {}
        where = EventFilter(session_ids=pending["session_id"].to_pylist())
        events = self._store.events.frame(where, ["agent_id", "ingested_at"])
        grouped = events.group_by("agent_id").aggregate([("ingested_at", "max")])
        return dict(zip(grouped["agent_id"].to_pylist(), grouped["ingested_at_max"].to_pylist(), strict=True))

    def _runs(self, agents: Sequence[str], now: datetime) -> tuple[dict[str, list[datetime]], set[str], set[str]]:
        """Commit times and running agents, plus the sessions of committed runs not yet finalized.

        A run's sessions are marked consolidated just after its marker flips; a reader between the two
        would count them pending beside a finished run, so they are taken out here.
        """
        from reverie.store import BatchFilter

        table = self._store.batches.frame(
            BatchFilter(kinds=["local"], agent_ids=agents),
            ["agent_id", "status", "committed_at", "updated_at", "finalized_at", "session_ids"],
        )
        runs: dict[str, list[datetime]] = {}
        running: set[str] = set()
        unmarked: set[str] = set()
        limit = self._settings.store.abandoned_batch_after.total_seconds()
        for row in table.to_pylist():
            if row["status"] in ("committed", "rolled_back") and row["committed_at"] is not None:
                runs.setdefault(row["agent_id"], []).append(row["committed_at"])
                if row["status"] == "committed" and row["finalized_at"] is None:
                    unmarked.update(row["session_ids"] or [])
            elif row["status"] == "running" and row["finalized_at"] is None and (now - row["updated_at"]).total_seconds() < limit:
                running.add(row["agent_id"])
        return {a: sorted(t) for a, t in runs.items()}, running, unmarked

    def _cursors(self, agents: Sequence[str], unmarked: set[str]) -> dict[str, str]:
        from reverie.store import SessionFilter

        done = [SessionFilter(agent_ids=agents, consolidated=True)]
        if unmarked:
            done.append(SessionFilter(agent_ids=agents, session_ids=sorted(unmarked)))
        columns = ["agent_id", "session_id", "started_at"]
        newest: dict[str, tuple[datetime, str]] = {}
        for row in (r for where in done for r in self._store.events.session_frame(where, columns).to_pylist()):
            key = (row["started_at"], row["session_id"])
            if row["agent_id"] not in newest or key > newest[row["agent_id"]]:
                newest[row["agent_id"]] = key
        return {agent: key[1] for agent, key in newest.items()}

    def agents(self, project: str | None = None, agent_ids: Sequence[str] | None = None) -> list[AgentInfo]:
        found = []
        wanted = set(agent_ids) if agent_ids is not None else None
        pending = {a.agent_id: a.pending_sessions for a in self.activity(self._store.now()).values()}
        for summary in self._store.events.agents(project):
            if wanted is None or summary.agent_id in wanted:
                found.append(AgentInfo(**summary.model_dump(), pending_sessions=pending.get(summary.agent_id, 0)))
        return found

    def known(self, agent_id: str) -> bool:
        from reverie.store import SessionFilter

        return self._store.events.count_sessions(SessionFilter(agent_ids=[agent_id])) > 0


StoreGatewayActor = ray.remote(StoreGateway)


def gateway_options(settings: Settings) -> dict[str, Any]:
    actors = settings.actors
    return {
        "name": STORE_ACTOR, "namespace": actors.namespace, "get_if_exists": True,
        "num_cpus": actors.store_num_cpus, "max_restarts": actors.max_restarts,
        "max_concurrency": actors.store_concurrency,
    }
