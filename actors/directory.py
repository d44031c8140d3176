"""The memory directory: finds, activates and passivates agent actors, and runs their triggers.

One named async actor (``DIRECTORY_ACTOR``) that every caller goes through, safe to call from many
Serve replicas at once (its state changes only between awaits; concurrent activations of one agent
share one future). It keeps an LRU of live agent actors capped at ``max_live_per_node`` per alive
node: beyond the cap, the least recently used actor that has no call in flight is passivated
(``ray.kill`` — its state is in the store) and reactivated by name on its next call. Every
``tick_seconds`` it reads every agent's trigger inputs from the store, schedules due runs with
their random delay, starts the runs whose time has come (at most ``max_parallel_runs`` at once),
and passivates actors unused for ``passivate_after``. Time comes from the injected clock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import ray
from ray.exceptions import ActorDiedError, ActorUnavailableError

from actors.memory import AgentMemoryActor, agent_options
from actors.triggers import AgentActivity, Due, TriggerPolicy
from reverie.capture import CaptureRequest
from reverie.clock import Clock, SystemClock
from reverie.errors import NotFoundError, RunInProgressError
from reverie.ports import (
    DIRECTORY_ACTOR,
    STORE_ACTOR,
    AgentInfo,
    AgentStatus,
    CaptureResult,
    ConsolidationResult,
    agent_actor_name,
)
from reverie.records import Session
from reverie.remote import Handle, wait
from reverie.settings import Settings

log = logging.getLogger(__name__)
_GONE = (ActorDiedError, ActorUnavailableError)


class Directory:
    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self._settings = settings
        self._clock = clock or SystemClock()
        self._policy = TriggerPolicy(settings.triggers)
        self._store: Any = ray.get_actor(STORE_ACTOR, namespace=settings.actors.namespace)
        self._live: OrderedDict[str, Any] = OrderedDict()
        self._used_at: dict[str, datetime] = {}
        self._busy: dict[str, int] = {}
        self._starting: dict[str, asyncio.Future[Any]] = {}
        self._stopping: dict[str, asyncio.Task[None]] = {}
        self._released: set[str] = set()
        self._runs: dict[str, asyncio.Task[ConsolidationResult]] = {}
        self._scheduled: dict[str, Due] = {}
        self._errors: dict[str, str] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._run_slots: asyncio.Semaphore | None = None
        self._nodes, self._nodes_at = 1, float("-inf")
        self.activations = 0
        self.passivations = 0
        self.ticks = 0  # ticks of the trigger ticker done (a caller can await the next ones)

    # --- the MemoryDirectory surface ----------------------------------------------------------------
    async def capture(self, request: CaptureRequest) -> CaptureResult:
        self._scheduled.pop(request.agent_id, None)  # it is busy again: a scheduled run waits
        return await self._call(request.agent_id, "capture", request)  # type: ignore[no-any-return]

    async def end_session(self, agent_id: str, session_id: str) -> Session:
        session: Session = await self._call(agent_id, "end_session", session_id)
        await self._check([agent_id])
        return session

    async def consolidate(self, agent_id: str) -> ConsolidationResult:
        """A manual run: now, without delay, cooldown or daily cap; refused beside a running one."""
        if agent_id in self._runs:
            raise RunInProgressError(
                f"a consolidation of agent {agent_id!r} is already running; wait for it to finish "
                "(its status shows running) and ask again"
            )
        await self._require(agent_id)
        return await self._start(agent_id, "manual")

    async def status(self, agent_id: str) -> AgentStatus:
        await self._require(agent_id)
        now = self._clock.now()
        activity = (await wait(self._store.activity.remote(now, [agent_id])))[agent_id]
        last = await wait(self._store.last_batch.remote(agent_id))
        next_at, why = self._next_run(activity, now)
        return AgentStatus(
            agent_id=agent_id, live=agent_id in self._live, cursor=activity.cursor,
            pending_sessions=activity.pending_sessions, running=agent_id in self._runs or activity.running,
            last_run_at=activity.last_run_at, next_run_at=next_at, runs_today=activity.runs_within(now),
            last_batch=last, next_run_reason=why, last_error=self._errors.get(agent_id),
        )

    async def agents(self, project: str | None = None) -> list[AgentInfo]:
        found: list[AgentInfo] = await wait(self._store.agents.remote(project))
        return [a.model_copy(update={"live": a.agent_id in self._live}) for a in found]

    async def tick(self) -> list[str]:
        """Check every agent with pending sessions; start the runs that are due. Returns their ids."""
        started = await self._check(None)
        await self._passivate_idle()
        return started

    # --- introspection and control (tests, benchmarks, the CLI) -------------------------------------
    def live(self) -> list[str]:
        return list(self._live)

    def scheduled(self) -> dict[str, Due]:
        return dict(self._scheduled)

    def counters(self) -> dict[str, int]:
        return {"activations": self.activations, "passivations": self.passivations, "ticks": self.ticks, "live": len(self._live),
                "runs_in_flight": len(self._runs), "scheduled": len(self._scheduled)}

    async def activate(self, agent_id: str) -> int:
        """Make the agent's actor live (as a call would) and return its process id."""
        return await self._call(agent_id, "pid")  # type: ignore[no-any-return]

    async def drain(self) -> dict[str, str]:
        """Wait for every run in flight; returns agent -> batch id (or the error it failed with)."""
        results: dict[str, str] = {}
        while self._runs:
            agent, task = next(iter(self._runs.items()))
            try:
                done = await task
                results[agent] = done.batch_id or "-"
            except Exception as exc:  # noqa: BLE001 - reported per agent, also kept in status
                results[agent] = f"error: {type(exc).__name__}"
        return results

    async def start_ticker(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.create_task(self._tick_forever())

    async def stop(self) -> None:
        """Stop ticking, wait for runs, passivate every live actor."""
        if self._ticker is not None:
            self._ticker.cancel()
        await self.drain()
        for agent in list(self._live):
            await self._passivate(agent)

    # --- calls and the LRU ----------------------------------------------------------------------------
    async def _call(self, agent_id: str, method: str, *args: Any) -> Any:
        """Forward a call; if the actor died, retry (captures are idempotent, runs are not retried).

        The first retry goes to the same handle: Ray restarts the actor (``max_restarts``) and
        dropping our handle, its last reference, would end it for good. Only if it is still gone is
        it forgotten and created again by name.
        """
        for attempt in range(3):
            async with self._using(agent_id) as handle:
                try:
                    return await wait(getattr(handle, method).remote(*args))
                except _GONE:
                    if attempt == 2 or method == "consolidate":
                        raise
                    log.warning("agent actor %s died during %s; retrying", agent_id, method)
                    if attempt == 1:
                        self._forget(agent_id)
            await asyncio.sleep(0.1 * (attempt + 1))
        raise AssertionError("unreachable")

    def _forget(self, agent_id: str) -> None:
        handle = self._live.pop(agent_id, None)
        if handle is not None:
            ray.kill(handle, no_restart=True)
            self._released.add(agent_id)

    @asynccontextmanager
    async def _using(self, agent_id: str) -> AsyncIterator[Any]:
        handle = await self._activate(agent_id)
        self._busy[agent_id] = self._busy.get(agent_id, 0) + 1
        self._used_at[agent_id] = self._clock.now()
        try:
            yield handle
        finally:
            self._busy[agent_id] -= 1
            if self._busy[agent_id] == 0:
                del self._busy[agent_id]
            self._enforce_cap()

    async def _activate(self, agent_id: str) -> Any:
        if agent_id in self._live:
            self._live.move_to_end(agent_id)
            return self._live[agent_id]
        if agent_id in self._starting:
            return await asyncio.shield(self._starting[agent_id])
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._starting[agent_id] = future
        try:
            if agent_id in self._stopping:
                await self._stopping[agent_id]
            if agent_id in self._released:
                await self._name_released(agent_id)
            handle: Handle = AgentMemoryActor.options(**agent_options(agent_id, self._settings)).remote(
                agent_id, self._settings, self._clock)
            await handle.ready.remote()
            self._live[agent_id] = handle
            self.activations += 1
            future.set_result(handle)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody logs it as lost
            raise
        finally:
            del self._starting[agent_id]
        return handle

    def _cap(self) -> int:
        """``max_live_per_node`` times the alive nodes (counted again every 10 s)."""
        if time.monotonic() - self._nodes_at > 10.0:
            self._nodes = max(1, sum(1 for node in ray.nodes() if node.get("Alive")))
            self._nodes_at = time.monotonic()
        return self._settings.actors.max_live_per_node * self._nodes

    def _enforce_cap(self) -> None:
        excess = len(self._live) - self._cap()
        for agent in [a for a in self._live if a not in self._busy and a not in self._runs][:max(excess, 0)]:
            self._stopping[agent] = asyncio.create_task(self._passivate(agent))

    async def _passivate(self, agent_id: str) -> None:
        """Kill the idle actor (its state is in the store); its name is freed shortly after."""
        handle = self._live.pop(agent_id, None)
        try:
            if handle is not None:
                ray.kill(handle, no_restart=True)
                self.passivations += 1
                self._released.add(agent_id)
        finally:
            self._stopping.pop(agent_id, None)

    async def _name_released(self, agent_id: str) -> None:
        """Before re-creating a passivated agent: wait until the dead actor's name is free."""
        name, namespace = agent_actor_name(agent_id), self._settings.actors.namespace
        for _ in range(500):
            try:
                await asyncio.to_thread(ray.get_actor, name, namespace)
            except ValueError:
                self._released.discard(agent_id)
                return
            await asyncio.sleep(0.01)
        log.warning("the name of agent actor %s was not released within 5 s", agent_id)

    async def _passivate_idle(self) -> None:
        limit = self._clock.now() - self._settings.actors.passivate_after
        for agent in [a for a in self._live if a not in self._busy and a not in self._runs]:
            if self._used_at.get(agent, limit) <= limit:
                await self._passivate(agent)

    async def _require(self, agent_id: str) -> None:
        if agent_id not in self._live and not await wait(self._store.known.remote(agent_id)):
            raise NotFoundError(f"no agent {agent_id!r} has captured anything; check the agent id")

    # --- triggers and runs ------------------------------------------------------------------------------
    async def _check(self, agent_ids: list[str] | None) -> list[str]:
        now = self._clock.now()
        activities: dict[str, AgentActivity] = await wait(self._store.activity.remote(now, agent_ids))
        if agent_ids is None:
            for gone in set(self._scheduled) - set(activities):
                del self._scheduled[gone]
        started = []
        for agent, activity in sorted(activities.items()):
            if self._due_now(agent, activity, now):
                task = asyncio.create_task(self._run(agent, self._scheduled.pop(agent).reason))
                task.add_done_callback(_retrieved)
                self._runs[agent] = task
                started.append(agent)
        return started

    def _due_now(self, agent: str, activity: AgentActivity, now: datetime) -> bool:
        if agent in self._runs:
            return False
        if activity.running:
            return False
        due = self._scheduled.get(agent)
        if due is not None and not self._policy.still_due(due, activity, now):
            del self._scheduled[agent]
            due = None
        if due is None:
            due = self._policy.schedule(activity, now)
            if due is None:
                return False
            self._scheduled[agent] = due
        return due.run_at <= now

    async def _start(self, agent_id: str, reason: str) -> ConsolidationResult:
        self._scheduled.pop(agent_id, None)
        task = asyncio.create_task(self._run(agent_id, reason))
        self._runs[agent_id] = task
        return await task

    async def _run(self, agent_id: str, reason: str) -> ConsolidationResult:
        if self._run_slots is None:
            self._run_slots = asyncio.Semaphore(self._settings.actors.max_parallel_runs)
        try:
            async with self._run_slots:
                result: ConsolidationResult = await self._call(agent_id, "consolidate", reason)
            self._errors.pop(agent_id, None)
            return result
        except Exception as exc:
            self._errors[agent_id] = (getattr(exc, "message", None)
                                      or f"{type(exc).__name__}: the run failed; nothing of it is visible")
            log.warning("agent %s: %s consolidation failed: %s", agent_id, reason, type(exc).__name__)
            raise
        finally:
            self._runs.pop(agent_id, None)

    def _next_run(self, activity: AgentActivity, now: datetime) -> tuple[datetime | None, str | None]:
        due = self._scheduled.get(activity.agent_id)
        if due is not None:
            return due.run_at, due.reason
        found = self._policy.earliest(activity, now)
        return (found[0], found[1]) if found is not None else (None, None)

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self._settings.triggers.tick_seconds)
            try:
                await self.tick()
            except Exception:  # noqa: BLE001 - one failed tick must not stop the ticker; logged
                log.exception("directory tick failed; trying again in %.0f s", self._settings.triggers.tick_seconds)
            self.ticks += 1


def _retrieved(task: asyncio.Task[Any]) -> None:
    """A background run's error is kept in the agent's status; mark it seen so asyncio stays quiet."""
    if not task.cancelled():
        task.exception()


DirectoryActor = ray.remote(Directory)


def directory_options(settings: Settings) -> dict[str, Any]:
    actors = settings.actors
    return {
        "name": DIRECTORY_ACTOR, "namespace": actors.namespace, "get_if_exists": True,
        "num_cpus": actors.directory_num_cpus, "max_restarts": actors.max_restarts,
        "max_concurrency": 10000,
    }
