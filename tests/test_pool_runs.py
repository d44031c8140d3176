"""The background pool on real Ray: runs, cancel and resume, yielding to load, rate limits, staggered starts."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ray

from mining.graph import TeamGraph
from mining.loadsignal import load_signal
from mining.review import ReviewQueue
from mining.service import Mining, mining_service
from mining_data import copy_store, mine, settings_at, team_store, unit_vectors
from reverie.clock import ManualClock
from reverie.embed import Embedder, spec_for
from reverie.errors import QuotaError, RunInProgressError
from reverie.ports import MiningRun
from reverie.records import Note
from reverie.settings import ActorSettings, Settings
from reverie.store import NoteFilter, NoteWrite, Store

FAST = {"poll_seconds": 0.05, "yield_grace_seconds": 0.3, "chunk_clusters": 1, "schedule": False}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, minilm: Embedder) -> Path:
    root = tmp_path_factory.mktemp("pool") / "store"
    team_store(root, minilm, ManualClock())
    return root


@pytest.fixture(scope="module")
def baseline(template: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What an uninterrupted run leaves behind (same run id, time and chunking as the pool's)."""
    clock = ManualClock()
    store = copy_store(template, tmp_path_factory.mktemp("baseline") / "store", clock)
    state = mine(store, clock, **FAST)
    return {"outcome": _outcome(store), "result": {k: state.result[k] for k in ("promoted", "candidates", "review")}}


def _outcome(store: Store) -> dict[str, Any]:
    notes = store.notes.list(NoteFilter(), limit=1000).notes
    return {
        "notes": [n.model_dump() for n in notes],
        "graph": TeamGraph.load(store).to_node_link(),
        "review": [i.model_dump() for i in ReviewQueue(store).items(status=None)],
    }


def _settings(uri: Path, **mining: Any) -> Settings:
    base = settings_at(uri, **{**FAST, **mining})
    return base.model_copy(update={"actors": ActorSettings(namespace=f"t-{uuid.uuid4().hex[:8]}")})


@pytest.fixture
def service(ray_session: None, template: Path, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Any, Settings]]:
    overrides = getattr(request, "param", {})
    copy_store(template, tmp_path / "store", ManualClock())
    settings = _settings(tmp_path / "store", **overrides)
    handle = mining_service(settings, ManualClock())
    yield handle, settings
    ray.kill(handle)
    ray.kill(load_signal(settings))


def _poll(handle: Any, run_id: str, until: Any, timeout: float = 60.0) -> MiningRun:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = ray.get(handle.run.remote(run_id))
        if until(run):
            return run
        time.sleep(0.02)
    raise AssertionError(f"run {run_id} never reached the expected state; last: {run.status} {run.stats}")


def _result(run: MiningRun) -> dict[str, list[str]]:
    return {"promoted": run.promoted, "candidates": run.candidates, "review": run.review}


def test_a_run_executes_as_a_background_task_and_refuses_a_second(service: tuple[Any, Settings], baseline: dict) -> None:
    handle, settings = service
    started = ray.get(handle.start.remote("atlas"))
    with pytest.raises(RunInProgressError):
        ray.get(handle.start.remote("atlas"))
    run = ray.get(handle.wait.remote(started.run_id))
    assert run.status == "committed" and _result(run) == baseline["result"]
    assert run.stats["nodes"] == [ray.get_runtime_context().get_node_id()]
    store = Store.open(settings.store, spec_for(settings.embedding))
    assert _outcome(store) == baseline["outcome"]


def test_a_cancelled_run_resumes_to_exactly_the_uninterrupted_result(service: tuple[Any, Settings], baseline: dict) -> None:
    handle, settings = service
    run_id = ray.get(handle.start.remote("atlas")).run_id
    _poll(handle, run_id, lambda r: r.stats["cursor"] >= 2)
    cancelled = ray.get(handle.cancel.remote(run_id, principal="admin"))  # its worker is killed mid-unit
    assert cancelled.status == "cancelled" and cancelled.stats["cursor"] < cancelled.stats["units"]
    ray.get(handle.resume.remote(run_id))
    run = ray.get(handle.wait.remote(run_id))
    assert run.status == "committed" and _result(run) == baseline["result"]
    assert _outcome(Store.open(settings.store, spec_for(settings.embedding))) == baseline["outcome"]


class Traffic:
    """Simulated online load: reports a full serving queue every 50 ms while on."""

    def __init__(self, settings: Settings) -> None:
        self._signal = load_signal(settings)
        self._on = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(0.05):
            if self._on.is_set():
                self._signal.report.remote(inflight=100, latency_seconds=2.0)

    def surge(self) -> None:
        self._on.set()

    def calm(self) -> None:
        self._on.clear()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


def test_the_pool_yields_under_load_and_resumes_when_it_drops(service: tuple[Any, Settings], baseline: dict) -> None:
    handle, settings = service
    traffic = Traffic(settings)
    try:
        run_id = ray.get(handle.start.remote("atlas")).run_id
        _poll(handle, run_id, lambda r: r.stats["cursor"] >= 2)
        traffic.surge()
        yielded = _poll(handle, run_id, lambda r: r.status == "yielded", timeout=10)
        time.sleep(1.0)
        still = ray.get(handle.run.remote(run_id))
        assert still.status == "yielded" and still.stats["cursor"] == yielded.stats["cursor"] < yielded.stats["units"]
        traffic.calm()
        run = ray.get(handle.wait.remote(run_id))
    finally:
        traffic.close()
    assert run.status == "committed" and _result(run) == baseline["result"]
    assert _outcome(Store.open(settings.store, spec_for(settings.embedding))) == baseline["outcome"]


def _synthetic_notes(store: Store, n: int, clock: ManualClock) -> None:
    """``n`` notes around 40 topics (synthetic unit vectors), enough for a fit of a few seconds."""
    rng = np.random.default_rng(7)
    centres = unit_vectors(rng, 40)
    topic = rng.integers(0, 40, n)
    vectors = centres[topic] + rng.normal(scale=0.03, size=(n, 384))
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    writes = [
        NoteWrite(Note(
            note_id=f"x{i:05d}", type="lesson", subject=f"topic {topic[i]}", statement=f"lesson {i} about topic {topic[i]}",
            scope=f"personal:b{i % 7}", owner_agent=f"b{i % 7}", project="orion", source_sessions=[f"t{i % 23}"],
            source_agents=[f"b{i % 7}"], created_at=clock.now(), updated_at=clock.now(),
        ), "add", vector=vectors[i])
        for i in range(n)
    ]
    store.batches.run("local", writes, project="orion")


@pytest.mark.parametrize("service", [{"chunk_clusters": 64}], indirect=True)  # the fit is what is cut here
def test_high_load_during_the_fit_cancels_it_and_the_fit_runs_again(service: tuple[Any, Settings]) -> None:
    handle, settings = service
    _synthetic_notes(Store.open(settings.store, spec_for(settings.embedding)), 600, ManualClock())
    traffic = Traffic(settings)
    try:
        run_id = ray.get(handle.start.remote("orion")).run_id
        _poll(handle, run_id, lambda r: r.status == "running" and r.stats["cursor"] == 0)
        traffic.surge()  # the fit is one unit: only the supervisor's cancel can stop it
        yielded = _poll(handle, run_id, lambda r: r.status == "yielded", timeout=20)
        assert yielded.stats["cursor"] == 0
        traffic.calm()
        run = ray.get(handle.wait.remote(run_id))
    finally:
        traffic.close()
    assert run.status == "committed" and run.stats["attempts"] >= 2 and run.stats["clusters"] > 0, run.stats.get("error")


def test_manual_starts_are_rate_limited_per_project(ray_session: None, template: Path, tmp_path: Path) -> None:
    clock = ManualClock()
    copy_store(template, tmp_path / "store", clock)
    settings = _settings(tmp_path / "store", max_runs_per_hour=2)
    mining = Mining(settings, clock, supervise=False)
    try:
        for _ in range(2):
            run = mining.start("atlas", wait=True)
            assert run.status == "committed", run.stats
        with pytest.raises(QuotaError) as info:
            mining.start("atlas")
        assert info.value.retry_after == pytest.approx(3600, abs=1)
        clock.advance(timedelta(hours=1, seconds=1))
        assert mining.start("atlas", wait=True).status == "committed"
    finally:
        mining.close()
        ray.kill(load_signal(settings))


def test_scheduled_runs_start_staggered_and_only_where_notes_changed(ray_session: None, template: Path, tmp_path: Path) -> None:
    clock = ManualClock()
    store = copy_store(template, tmp_path / "store", clock)
    _synthetic_notes(store, 60, clock)
    settings = _settings(tmp_path / "store")
    mining = Mining(settings, clock, supervise=False)
    try:
        queued = {r.project: r for r in mining.schedule()}
        assert set(queued) == {"atlas", "orion"} and mining.schedule() == []  # one run per project at a time
        delays = {p: (r.stats["not_before"], r.stats["created_at"]) for p, r in queued.items()}
        assert len({d for d, _ in delays.values()}) == 2  # spread apart
        mining.pool.tick()
        assert {mining.run(r.run_id).status for r in queued.values()} == {"queued"}  # not before their time
        clock.advance(settings.mining.stagger_max)
        done = [mining.wait(r.run_id) for r in queued.values()]
        assert {r.status for r in done} == {"committed"}
        clock.advance(settings.mining.min_interval)
        assert mining.schedule() == []  # nothing changed since
    finally:
        mining.close()
        ray.kill(load_signal(settings))
