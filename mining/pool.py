"""The aggregation pool: low-priority Ray tasks that yield to online load.

Each run executes as one Ray task that requests the custom resource ``background_resource``
(``task_slots`` of it) and a fraction of a CPU (``task_cpus``): it can only run on nodes that
declare the resource, at most as many at once as the resource allows, so it never takes the cores
serving needs. Ray has no task priorities, so the pool makes the tasks preemptible:

- the task checks the load signal between work units and, at or above ``load_high``, checkpoints
  and returns ``yielded``;
- the supervisor (``tick``, every ``poll_seconds``) cancels a task that keeps running through high
  load for ``yield_grace_seconds`` (a long unit such as the UMAP fit) with ``ray.cancel(force=True)``,
  marks it yielded and, once the load is at or below ``load_low``, submits it again: it resumes
  from its cursor (an interrupted fit is refitted);
- a task lost to a crashed worker or node is submitted again, at most ``max_attempts`` times.

Runs wait in the pool until their ``not_before`` (staggered scheduled starts).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import ray

from mining.job import LoadProbe, MiningJob
from mining.loadsignal import RemoteLoad
from mining.runs import ACTIVE_STATUSES, RunBook, RunState
from reverie.clock import Clock
from reverie.embed import spec_for
from reverie.errors import ConflictError
from reverie.ports import LOAD_ACTOR
from reverie.settings import Settings
from reverie.store import Store

log = logging.getLogger(__name__)


def _mine(settings: Settings, run_id: str) -> dict[str, Any]:
    """The body of a pool task: run the job; our own errors end the run as ``failed``."""
    store = Store.open(settings.store, spec_for(settings.embedding))
    load = RemoteLoad(ray.get_actor(LOAD_ACTOR, namespace=settings.actors.namespace))
    node = ray.get_runtime_context().get_node_id()
    job = MiningJob(store, settings.mining, run_id, load, node_id=node)
    try:
        state = job.execute()
    except Exception as exc:  # noqa: BLE001 - recorded on the run, which the caller can resume
        log.exception("mining run %s failed", run_id)
        state = job.fail(f"{type(exc).__name__}: {getattr(exc, 'message', None) or exc}")
    return {"status": state.status, "node_id": node}


mine_task = ray.remote(max_retries=0)(_mine)


@dataclass
class Flight:
    run_id: str
    ref: ray.ObjectRef
    high_since: float | None = None
    reason: Literal["yield", "cancel"] | None = None


class Pool:
    def __init__(self, settings: Settings, store: Store, clock: Clock, load: LoadProbe) -> None:
        self._settings = settings
        self._m = settings.mining
        self._runs = RunBook(store)
        self._clock = clock
        self._load = load
        self._lock = threading.RLock()
        self._flights: dict[str, Flight] = {}
        self._waiting: dict[str, datetime] = {s.run_id: s.not_before for s in self._runs.list(statuses=ACTIVE_STATUSES)}

    # --- requests -------------------------------------------------------------------------------
    def add(self, state: RunState) -> None:
        """Queue a run; it is submitted at the next tick after its ``not_before``."""
        with self._lock:
            self._waiting[state.run_id] = state.not_before

    def cancel(self, run_id: str) -> RunState:
        with self._lock:
            flight = self._flights.get(run_id)
            if flight is not None:
                self._interrupt(flight, "cancel")
                return self._runs.get(run_id)
            state = self._runs.get(run_id)
            if state.status not in ACTIVE_STATUSES:
                raise ConflictError(
                    f"mining run {run_id!r} is {state.status}; only a queued, running or yielded run can be cancelled")
            self._waiting.pop(run_id, None)
            return self._set(state, "cancelled")

    def resume(self, run_id: str) -> RunState:
        with self._lock:
            state = self._runs.get(run_id)
            if state.status not in ("cancelled", "failed", "yielded"):
                raise ConflictError(
                    f"mining run {run_id!r} is {state.status}; only a cancelled, failed or yielded run can be resumed")
            state = self._set(state, "queued", attempts=0)
            self._waiting[run_id] = self._clock.now()
            return state

    def busy(self) -> bool:
        with self._lock:
            return bool(self._flights or self._waiting)

    # --- supervision ----------------------------------------------------------------------------
    def tick(self) -> None:
        """One supervision step: land finished tasks, preempt under load, submit what may run."""
        level = self._load.level()
        now = time.monotonic()
        with self._lock:
            for flight in list(self._flights.values()):
                self._watch(flight, level, now)
            if level <= self._m.load_low:
                self._submit_due()

    def _watch(self, flight: Flight, level: float, now: float) -> None:
        done, _ = ray.wait([flight.ref], timeout=0)
        if done:
            self._land(flight)
            return
        if flight.reason is not None:
            return
        if level < self._m.load_high:
            flight.high_since = None
        elif flight.high_since is None:
            flight.high_since = now
        elif now - flight.high_since >= self._m.yield_grace_seconds:
            log.info("run %s did not yield within %.1f s of high load; cancelling it", flight.run_id, self._m.yield_grace_seconds)
            self._interrupt(flight, "yield")

    def _interrupt(self, flight: Flight, reason: Literal["yield", "cancel"]) -> None:
        """Kill the task's worker: an interrupt raised inside the task could land in an import or a
        numba compilation and leave the (reused) worker broken; a killed worker leaves nothing
        behind but invisible rows of an uncommitted batch, which the resumed run cleans."""
        flight.reason = reason
        ray.cancel(flight.ref, force=True)

    def _land(self, flight: Flight) -> None:
        del self._flights[flight.run_id]
        try:
            out = ray.get(flight.ref)
        except ray.exceptions.RayTaskError as exc:
            if flight.reason is None and not isinstance(exc, ray.exceptions.TaskCancelledError):
                self._set(self._runs.get(flight.run_id), "failed", error=f"mining task raised {type(exc.cause).__name__}")
                return
            self._after_interrupt(flight)
            return
        except ray.exceptions.RayError as exc:  # cancelled, or the worker or node was lost
            if flight.reason is not None:
                self._after_interrupt(flight)
            else:
                self._retry(flight.run_id, exc)
            return
        if out["status"] == "failed" and flight.reason is not None:
            self._after_interrupt(flight, failed=True)  # our interrupt surfaced as an error inside a library
        elif out["status"] == "yielded":
            self._waiting[flight.run_id] = self._clock.now()

    def _after_interrupt(self, flight: Flight, *, failed: bool = False) -> None:
        state = self._runs.get(flight.run_id)
        if state.status == "committed" or (state.status == "failed" and not failed):
            return
        if flight.reason == "yield":
            self._set(state, "yielded", error=None)
            self._waiting[flight.run_id] = self._clock.now()
        else:
            self._set(state, "cancelled")

    def _retry(self, run_id: str, exc: Exception) -> None:
        state = self._runs.get(run_id)
        if state.attempts >= self._m.max_attempts:
            self._set(state, "failed", error=f"the mining task was lost {state.attempts} times ({type(exc).__name__})")
            return
        log.warning("mining run %s lost its task (%s); submitting it again", run_id, type(exc).__name__)
        self._set(state, "queued")
        self._waiting[run_id] = self._clock.now()

    def _submit_due(self) -> None:
        now = self._clock.now()
        for run_id, not_before in sorted(self._waiting.items()):
            if not_before > now:
                continue
            del self._waiting[run_id]
            state = self._runs.get(run_id)
            if state.status in ACTIVE_STATUSES:
                self._submit(state)

    def _submit(self, state: RunState) -> None:
        options = {
            "num_cpus": self._m.task_cpus,
            "resources": {self._m.background_resource: self._m.task_slots},
        }
        self._set(state, "queued")
        ref = mine_task.options(**options).remote(self._settings, state.run_id)  # type: ignore[attr-defined]
        self._flights[state.run_id] = Flight(state.run_id, ref)

    def _set(self, state: RunState, status: str, **changes: Any) -> RunState:
        state = state.model_copy(update={"status": status, "updated_at": self._clock.now(), **changes})
        self._runs.save(state)
        return state


class Supervisor:
    """Calls ``tick`` (and an optional schedule step) on a daemon thread until stopped."""

    def __init__(self, pool: Pool, every_seconds: float, schedule: Any | None = None, schedule_seconds: float = 300.0) -> None:
        self._pool = pool
        self._every = every_seconds
        self._schedule = schedule
        self._schedule_seconds = schedule_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="mining-supervisor", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        next_schedule = time.monotonic() + self._schedule_seconds
        while not self._stop.wait(self._every):
            try:
                self._pool.tick()
                if self._schedule is not None and time.monotonic() >= next_schedule:
                    next_schedule = time.monotonic() + self._schedule_seconds
                    self._schedule()
            except Exception:  # noqa: BLE001 - the supervisor must outlive one bad tick; it is logged
                log.exception("mining supervisor tick failed")
