"""Reverie itself as an arm ("version B"), driven over HTTP as a fleet of agents drives it.

The service is started by the caller (``launcher.local.local_service``: local Ray, the memory
actors, mining, the Serve app on a temporary store) and handed in; the arm only speaks HTTP through
:class:`reverie.client.Client`:

- ``ingest`` mints one agent key per agent (role ``agent``, the agent's projects) and posts every
  session to ``POST /v1/events`` as that agent, each agent's oldest first and the agents side by
  side (a thread per agent). With ``consolidate_every=n`` it asks for an agent's consolidation
  (``POST /v1/agents/{id}/consolidate``) as soon as it has ``n`` sessions not yet consolidated —
  what the trigger policy does when the agent goes idle (``TriggerSettings.min_new_sessions``),
  replayed on the scenario's own time line: those runs go one at a time, in the order the sessions
  were given, so the same scenario always gives the same notes;
- ``settle`` consolidates every agent until nothing is pending, then mines every project
  (``POST /v1/mining/runs`` with ``wait``) with the admin key. Nothing is approved: patterns and
  rules waiting for a reviewer stay ``candidate`` and are never retrieved;
- ``retrieve`` asks ``POST /v1/retrieve`` as the agent, with ``k``, the token budget and the agent's
  ``asked_at`` time as ``as_of`` (when set: LoCoMo's questions are asked when the conversation ends), and turns
  every returned item — notes and raw turns (``episodes``), in the one order the service ranked them
  (each item's ``rank``) — into a :class:`~bench.eval.arms.Retrieved` carrying its evidence event ids
  (a raw turn's is its own event id), charged like every arm (its text's tokens +
  ``item_overhead``); the service's own count of the rendered memory block is kept in
  ``context_tokens``;
- ``notes`` lists every note in any status through ``GET /v1/notes`` with the admin key.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from typing import TypeVar

from bench.eval.arms import Retrieval, Retrieved, StoredNote
from reverie.api import ConsolidationResult, MiningRun, RetrievedNote, RetrievedTurn
from reverie.api import Retrieval as Served
from reverie.capture import CaptureRequest
from reverie.client import Client, wait_until_accepted
from reverie.errors import ReverieError, RunInProgressError
from reverie.ports import RunningService
from reverie.tokens import TokenCounter

T = TypeVar("T")
PAGE = 1000
class ArmError(ReverieError):
    """The service did not do what the arm asked (a mining run that did not commit, a key refused)."""

    code = "arm_error"


class ReverieArm:
    """See the module docstring. ``on_close`` stops the service when the arm owns it."""

    name = "reverie"

    def __init__(self, service: RunningService, counter: TokenCounter, *, k: int | None = None,
                 consolidate_every: int | None = None, item_overhead: int = 2, wait_seconds: float = 900.0,
                 on_close: Callable[[], None] | None = None) -> None:
        self._service = service
        self._counter = counter
        self._k = k
        self._every = consolidate_every
        self._overhead = item_overhead
        self._wait = wait_seconds
        self._on_close = on_close
        self._admin = Client(service.url, service.admin_key, retries=5)
        self._agents: dict[str, Client] = {}
        self._projects: dict[str, set[str]] = {}
        self._pending: dict[str, int] = {}
        self.context_tokens: list[int] = []
        self.asked_at: dict[str, datetime] = {}  # an agent's questions' ``as_of`` (default: the service's now)
        self.consolidations: list[ConsolidationResult] = []
        self.minings: list[MiningRun] = []

    # --- the MemoryArm surface ---------------------------------------------------------------------
    def ingest(self, requests: Sequence[CaptureRequest]) -> None:
        """Post every session as its agent, each agent's in order and the agents side by side; the
        consolidations due on the way run one at a time in the order of ``requests``, so a run
        gives the same notes every time (an agent's run reads only its own sessions)."""
        for request in requests:
            self._projects.setdefault(request.agent_id, set()).add(request.project)
        self._mint([a for a in self._projects if a not in self._agents])
        schedule = _Turns(self._due(requests))
        by_agent: dict[str, list[CaptureRequest]] = {}
        for request in requests:
            by_agent.setdefault(request.agent_id, []).append(request)
        with ThreadPoolExecutor(max_workers=len(by_agent) or 1) as pool:  # one each: a thread may wait for another
            for done in [pool.submit(self._feed, agent, mine, schedule) for agent, mine in by_agent.items()]:
                done.result()

    def _due(self, requests: Sequence[CaptureRequest]) -> list[tuple[str, int]]:
        """(agent, how many of its sessions are posted) at each consolidation due during ingest."""
        due, posted, pending = [], dict.fromkeys(self._projects, 0), dict(self._pending)
        for request in requests:
            agent = request.agent_id
            posted[agent] += 1
            pending[agent] = pending.get(agent, 0) + 1
            if self._every is not None and pending[agent] >= self._every:
                due.append((agent, posted[agent]))
                pending[agent] = 0
        return due

    def _feed(self, agent_id: str, requests: Sequence[CaptureRequest], schedule: _Turns) -> None:
        client = self._agents[agent_id]
        for posted, request in enumerate(requests, start=1):
            client.capture(request)
            self._pending[agent_id] = self._pending.get(agent_id, 0) + 1
            with schedule.turn((agent_id, posted)) as due:
                if due:
                    self._consolidate(agent_id)

    def settle(self) -> None:
        for agent_id in sorted(a for a, n in self._pending.items() if n):
            self._consolidate(agent_id)
        for project in sorted({p for projects in self._projects.values() for p in projects}):
            self._mine(project)

    def retrieve(self, agent_id: str, query: str, project: str, token_budget: int) -> Retrieval:
        if agent_id not in self._agents:  # an agent that never captured still asks as itself
            self._projects.setdefault(agent_id, set()).add(project)
            self._mint([agent_id])
        found = self._agents[agent_id].retrieve(agent_id, query, project=project, k=self._k, token_budget=token_budget,
                                                as_of=self.asked_at.get(agent_id))
        self.context_tokens.append(found.tokens)
        return credited(found, self._counter, self._overhead)

    def notes(self) -> list[StoredNote]:
        return [StoredNote(n.note_id, n.type, n.scope, n.status, n.statement, tuple(n.evidence))
                for n in self._admin.iter_notes(limit=PAGE)]

    def close(self) -> None:
        for client in (self._admin, *self._agents.values()):
            client.close()
        self._agents.clear()
        if self._on_close is not None:
            self._on_close()
            self._on_close = None

    # --- keys ---------------------------------------------------------------------------------------
    def _mint(self, agent_ids: Sequence[str]) -> None:
        """One agent key per agent, for its projects; returns once the service accepts them all."""
        for agent_id in agent_ids:
            key = self._service.add_key(agent_id, "agent", sorted(self._projects[agent_id]))
            self._agents[agent_id] = Client(self._service.url, key, retries=5)
        for agent_id in agent_ids:
            wait_until_accepted(self._agents[agent_id])

    # --- consolidation and mining --------------------------------------------------------------------
    def _consolidate(self, agent_id: str) -> None:
        """Manual runs until the agent has no pending session (a run replays at most ``max_sessions``)."""
        client = self._agents[agent_id]
        while True:
            result = self._patiently(lambda: client.consolidate(agent_id))
            if result.batch_id is not None:
                self.consolidations.append(result)
            if result.batch_id is None or client.status(agent_id).pending_sessions == 0:
                break
        self._pending[agent_id] = 0

    def _mine(self, project: str) -> None:
        run = self._patiently(lambda: self._admin.start_mining(project, wait=True))
        self.minings.append(run)
        if run.status != "committed":
            raise ArmError(f"mining run {run.run_id} of project {project!r} ended {run.status}, not committed")

    def _patiently(self, call: Callable[[], T]) -> T:
        """Retry while another run of the same agent or project is in progress (a scheduled one)."""
        deadline = time.monotonic() + self._wait
        while True:
            try:
                return call()
            except RunInProgressError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1.0)



def credited(found: Served, counter: TokenCounter, overhead: int = 2) -> Retrieval:
    """Every item the service returned — notes and raw turns — in its fused order (``rank``; the
    block's order, notes first, where the service gives none), each charged its own text + ``overhead``."""
    hits: list[RetrievedNote | RetrievedTurn] = [*found.notes, *found.episodes]
    if all(hit.rank for hit in hits):
        hits.sort(key=lambda hit: hit.rank)
    return Retrieval(tuple(_note(hit, counter, overhead) if isinstance(hit, RetrievedNote) else _turn(hit, counter, overhead)
                           for hit in hits))


def _note(hit: RetrievedNote, counter: TokenCounter, overhead: int) -> Retrieved:
    note = hit.note
    return Retrieved(note.note_id, note.statement, tuple(note.evidence), note.scope, note.type,
                     counter.count(note.statement) + overhead, "note", hit.score)


def _turn(hit: RetrievedTurn, counter: TokenCounter, overhead: int) -> Retrieved:
    return Retrieved(hit.event_id, hit.text, (hit.event_id,), f"personal:{hit.agent_id}", "raw_turn",
                     counter.count(hit.text) + overhead, "turn", hit.score)


class _Turns:
    """The consolidations due during ingest, taken in their order by the threads that reach them."""

    def __init__(self, due: list[tuple[str, int]]) -> None:
        self._due = due
        self._next = 0
        self._ready = threading.Condition()

    @contextmanager
    def turn(self, point: tuple[str, int]) -> Iterator[bool]:
        """Yields whether a consolidation is due at ``point``; if so, only once every earlier one is done."""
        if point not in self._due:
            yield False
            return
        with self._ready:
            self._ready.wait_for(lambda: self._due[self._next] == point)
        try:
            yield True
        finally:
            with self._ready:
                self._next += 1
                self._ready.notify_all()

