"""The mining service: implements ``reverie.ports.MiningService`` as the named actor ``MINING_ACTOR``.

It starts runs (manual ones at once, scheduled ones staggered over ``stagger_max``), refuses a
second run of a project while one is active (409) and more than ``max_runs_per_hour`` manual runs
of a project in an hour (429), supervises the pool, and answers the review queue, the team graph
and the map (both kept between calls until the store changes: ``reverie.store.cache``, and built
ahead of the explorer's requests at start and after every change: ``mining.prebuild``).
``mining_service(settings)`` finds or creates the actor.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from datetime import datetime, timedelta
from typing import Any, Literal

import ray

from mining.corpus import ELIGIBLE
from mining.fits import Fits
from mining.graph import TeamGraph
from mining.loadsignal import RemoteLoad, load_signal
from mining.pool import Pool, Supervisor
from mining.prebuild import Prebuilder
from mining.review import ReviewQueue
from mining.runs import ACTIVE_STATUSES, RunBook
from reverie.clock import Clock, SystemClock
from reverie.embed import spec_for
from reverie.errors import NotFoundError, QuotaError, RunInProgressError, ValidationError
from reverie.ports import MINING_ACTOR, HotSpot, MapPoint, MiningRun, ReviewItem
from reverie.records import NAME_PATTERN
from reverie.remote import Handle
from reverie.settings import Settings
from reverie.store import LedgerFilter, NoteFilter, Store
from reverie.store.cache import GRAPH_TABLES, MAP_TABLES, StoreCache

log = logging.getLogger(__name__)
TERMINAL = frozenset({"committed", "failed", "cancelled"})
READERS = (True, False)  # the explorer's two readers: admins (personal notes) and everyone else


class Mining:
    """See the module docstring; ``supervise=False`` leaves ticking to the caller (tests, tools)."""

    def __init__(self, settings: Settings, clock: Clock | None = None, *, supervise: bool = True) -> None:
        self._settings = settings
        self._m = settings.mining
        self._clock = clock or SystemClock()
        self._store = Store.open(settings.store, spec_for(settings.embedding), self._clock)
        self._runs = RunBook(self._store)
        self._queue = ReviewQueue(self._store)
        self._graphs: StoreCache[TeamGraph] = StoreCache(self._store.tables, GRAPH_TABLES)
        self._maps: StoreCache[list[MapPoint]] = StoreCache(self._store.tables, MAP_TABLES)
        self._load_actor = load_signal(settings)
        pool_store = Store(settings.store, spec_for(settings.embedding), self._clock)
        self.pool = Pool(settings, pool_store, self._clock, RemoteLoad(self._load_actor))
        self._creating = threading.Lock()  # one run of a project at a time, also across threads
        self._supervisor: Supervisor | None = None
        self._prebuilder = Prebuilder(self._view_versions, self.prebuild, self._m.prebuild_seconds)
        if supervise:
            schedule = self.schedule if self._m.schedule else None
            self._supervisor = Supervisor(self.pool, self._m.poll_seconds, schedule, self._m.schedule_every.total_seconds())
            self._supervisor.start()
            if self._m.prebuild_seconds > 0:
                self._prebuilder.start()

    # --- runs -------------------------------------------------------------------------------------
    def start(self, project: str, *, wait: bool = False, principal: str = "system", full: bool = False) -> MiningRun:
        _check_project(project)
        with self._creating:
            self._refuse_second(project)
            self._limit_rate(project)
            now = self._clock.now()
            state = self._runs.create(project, principal=principal, mode="full" if full else "auto", at=now, not_before=now)
            self.pool.add(state)
        return self._wait(state.run_id) if wait else state.to_run()

    def run(self, run_id: str) -> MiningRun:
        return self._runs.get(run_id).to_run()

    def runs(self, project: str | None = None) -> list[MiningRun]:
        return [s.to_run() for s in self._runs.list(project)]

    def cancel(self, run_id: str, *, principal: str = "system") -> MiningRun:
        log.info("run %s cancelled by %s", run_id, principal)
        self.pool.cancel(run_id)
        return self._wait(run_id, timeout=30.0, until=TERMINAL | {"yielded"})

    def resume(self, run_id: str) -> MiningRun:
        state = self.pool.resume(run_id)
        return state.to_run()

    def wait(self, run_id: str, timeout: float | None = None) -> MiningRun:
        return self._wait(run_id, timeout)

    def _wait(self, run_id: str, timeout: float | None = None, until: frozenset[str] = TERMINAL) -> MiningRun:
        deadline = time.monotonic() + (self._m.wait_seconds if timeout is None else timeout)
        while True:
            if self._supervisor is None:
                self.pool.tick()
            state = self._runs.get(run_id)
            if state.status in until or time.monotonic() >= deadline:
                return state.to_run()
            time.sleep(self._m.poll_seconds)

    def _refuse_second(self, project: str) -> None:
        active = self._runs.list(project, ACTIVE_STATUSES)
        if active:
            raise RunInProgressError(
                f"mining run {active[0].run_id!r} of project {project!r} is {active[0].status}; "
                "wait for it (GET its run id) or cancel it before starting another"
            )

    def _limit_rate(self, project: str) -> None:
        hour_ago = self._clock.now() - timedelta(hours=1)
        recent = [s for s in self._runs.list(project) if s.created_at > hour_ago]
        if len(recent) >= self._m.max_runs_per_hour:
            retry = (recent[0].created_at + timedelta(hours=1) - self._clock.now()).total_seconds()
            raise QuotaError(
                f"project {project!r} had {len(recent)} mining runs in the last hour, the limit "
                f"(REVERIE_MINING__MAX_RUNS_PER_HOUR); retry in {retry:.0f} s", retry_after=max(1.0, retry),
            )

    # --- scheduling -------------------------------------------------------------------------
    def schedule(self) -> list[MiningRun]:
        """Queue a run for every project due one, each at a random delay within ``stagger_max``."""
        now = self._clock.now()
        started = []
        for project, changed in sorted(self._changes().items()):
            with self._creating:
                if not self._due(project, changed, now):
                    continue
                delay = random.Random(f"{project}|{now.isoformat()}").uniform(0, self._m.stagger_max.total_seconds())
                state = self._runs.create(
                    project, principal="scheduler", mode="auto", at=now, not_before=now + timedelta(seconds=delay),
                )
                self.pool.add(state)
            started.append(state.to_run())
        return started

    def _changes(self) -> dict[str, list[datetime]]:
        table = self._store.notes.frame(ELIGIBLE, columns=["project", "updated_at"])
        found: dict[str, list[datetime]] = {}
        for project, at in zip(table["project"].to_pylist(), table["updated_at"].to_pylist(), strict=True):
            if project:
                found.setdefault(project, []).append(at)
        return found

    def _due(self, project: str, changed: list[datetime], now: datetime) -> bool:
        runs = self._runs.list(project)
        if any(r.status in ACTIVE_STATUSES for r in runs):
            return False
        last = runs[-1] if runs else None
        if last is not None and now - last.created_at < self._m.min_interval:
            return False
        since = last.started_at if last is not None else datetime.min.replace(tzinfo=now.tzinfo)
        return sum(1 for at in changed if at > since) >= self._m.min_new_notes

    # --- review queue -----------------------------------------------------------------------------
    def review_items(self, project: str | None = None, status: str | None = "pending") -> list[ReviewItem]:
        return self._queue.items(project, status)

    def review_item(self, item_id: str) -> ReviewItem:
        return self._queue.get(item_id)

    def decide(self, item_id: str, decision: Literal["approve", "reject"], *, reason: str, principal: str) -> ReviewItem:
        decided = self._queue.decide(item_id, decision, reason=reason, principal=principal, at=self._clock.now())
        self._prebuilder.nudge()  # an approval or a rejection changes the graph
        return decided

    # --- graph and map ----------------------------------------------------------------------------
    def team_graph(self, project: str | None = None, *, personal: bool = True, current: bool = False) -> TeamGraph:
        """The graph of a project (``None``: all), kept between calls until the store changes."""
        return self._graphs.get((project, personal, current), lambda: self._build_graph(project, personal, current))

    def _build_graph(self, project: str | None, personal: bool, current: bool) -> TeamGraph:
        graph = TeamGraph.load(self._store, project)
        graph = graph.current() if current else graph
        return (graph if personal else graph.without_personal()).for_reader(personal)

    def graph(self, project: str | None = None, *, personal: bool = True, current: bool = False) -> dict[str, Any]:
        return self.team_graph(project, personal=personal, current=current).to_node_link()

    def graphml(self, project: str | None = None, *, personal: bool = True) -> str:
        return self.team_graph(project, personal=personal).to_graphml()

    def subject(self, subject: str, project: str | None = None, *, depth: int = 2, personal: bool = True) -> dict[str, Any]:
        found = self.team_graph(project, personal=personal, current=True).neighbourhood(subject, depth)
        if found.graph.number_of_nodes() == 0:
            raise NotFoundError("no subject of that name in the graph; list the graph's subject nodes to find it")
        return found.to_node_link()

    def module_patterns(self, project: str, module: str) -> list[dict[str, Any]]:
        return self.team_graph(project, current=True).patterns_of_module(project, module)

    def hot_spots(self, project: str | None = None, *, limit: int = 10) -> list[HotSpot]:
        return self.team_graph(project, current=True).hot_spots(limit)

    def map(self, project: str, *, personal: bool = True) -> list[MapPoint]:
        """Every note of the last fit that is still eligible, each with its cluster's name for the
        reader: built from every member (``personal``: a reader of personal notes) or from the
        shared members only. What a reader sees of the note itself is the caller's to decide."""
        _check_project(project)
        return self._maps.get((project, personal), lambda: self._build_map(project, personal))

    def _build_map(self, project: str, personal: bool) -> list[MapPoint]:
        fits = Fits(self._store)
        stored = fits.map(project)
        if stored is None:
            return []
        stored_names = fits.names(project)
        names = stored_names.for_reader(personal=personal) if stored_names is not None else {}
        live = self._store.notes.frame(NoteFilter(**{**ELIGIBLE.__dict__, "project": project}), columns=["scope"])
        scopes = dict(zip(live["note_id"].to_pylist(), live["scope"].to_pylist(), strict=True))
        patterns = self._supported(project)
        return [
            MapPoint(note_id=n, x=float(x), y=float(y), cluster=int(c), pattern_id=patterns.get(n), scope=scopes[n],
                     name=names.get(int(c)))
            for n, x, y, c in zip(stored.note_ids, stored.x, stored.y, stored.labels, strict=True)
            if n in scopes
        ]

    # --- the explorer's views, built ahead ---------------------------------------------------------
    def prebuild(self) -> list[str]:
        """Put in the caches what the explorer asks first, for the projects most recently mapped
        (as many as the caches hold): the current graph and the map, for admins and for everyone
        else (``serve.routes.graph``; its layout reads the admins' map). Returns those projects."""
        projects = self._prebuild_projects()
        for project in projects:
            for personal in READERS:
                self.team_graph(project, personal=personal, current=True)
                self.map(project, personal=personal)
        return projects

    def prebuilt(self, project: str) -> bool:
        """Whether every view ``prebuild`` makes of ``project`` is kept and as fresh as the store."""
        graphs = all(self._graphs.holds((project, personal, True)) for personal in READERS)
        return graphs and all(self._maps.holds((project, personal)) for personal in READERS)

    def _prebuild_projects(self) -> list[str]:
        mapped = Fits(self._store).mapped_projects()
        graphed = set(self._store.tables.read("graph_nodes", columns=["project"])["project"].to_pylist())
        ordered = list(dict.fromkeys([*mapped, *sorted(p for p in graphed if p and p not in mapped)]))
        return [p for p in ordered if NAME_PATTERN.match(p)][: min(self._graphs.size, self._maps.size) // len(READERS)]

    def _view_versions(self) -> tuple[int, ...]:
        return self._graphs.versions() + self._maps.versions()

    def _supported(self, project: str) -> dict[str, str]:
        edges = self._store.graph_edges.read(LedgerFilter(project=project, kinds=["supports"]))
        return {
            e["source"].removeprefix("note:"): e["target"].removeprefix("pattern:")
            for e in edges if e["invalid_at"] is None
        }

    def close(self) -> None:
        self._prebuilder.stop()
        if self._supervisor is not None:
            self._supervisor.stop()


def _check_project(project: str) -> None:
    if not NAME_PATTERN.match(project or ""):
        raise ValidationError("project names are 1-64 lowercase letters, digits, _ or -", field="project")


MiningActor = ray.remote(Mining)


def mining_service(settings: Settings, clock: Clock | None = None) -> Handle:
    """The named mining actor of this namespace, created on first use (no CPU reserved: it waits)."""
    handle: Handle = MiningActor.options(
        name=MINING_ACTOR, namespace=settings.actors.namespace, get_if_exists=True, num_cpus=0,
        max_concurrency=16, max_restarts=settings.actors.max_restarts,
    ).remote(settings, clock)
    return handle

