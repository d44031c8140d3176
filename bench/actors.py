"""Memory of idle agent actors and of the shared services; cold activation with 1,000 agents.

    python -m bench.actors [--agents 1000] [--live 32] [--cold 40] [--out bench/results]

1. 1,000 agents are registered (one session each, written to the store in one append).
2. ``--live`` of them are activated through the directory (live cap = ``--live``) and each captures
   one session, then sits idle; the PSS of every agent actor process is read from
   ``/proc/<pid>/smaps_rollup`` (target <= 80 MB each), and so is the PSS of the embedding service
   (MiniLM loaded, after embedding), the store gateway and the directory.
3. ``--cold`` agents never activated before are activated one after another (each one evicts the
   least recently used): the wall time of the first call is the cold activation latency
   (target: median <= 1 s), next to the start of a trivial Ray actor in the same run (baseline).

The project's bytecode is compiled first (``compileall``), as ``pip install`` or any first import
does; without it (this machine sets PYTHONDONTWRITEBYTECODE=1) every new actor process compiles the
modules it imports from source, about 0.3 s more per activation. ``--no-compile`` measures that.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import random
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import ray

from actors.deploy import Memory, start_memory
from reverie.capture import CaptureRequest, EventIn
from reverie.clock import SystemClock
from reverie.embed import spec_for
from reverie.records import Event
from reverie.remote import RemoteDirectory
from reverie.settings import ActorSettings, EmbeddingSettings, Settings, StoreSettings
from reverie.store import Store


def pss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no Pss line for process {pid}")


def register(settings: Settings, agents: int) -> list[str]:
    store = Store.open(settings.store, spec_for(settings.embedding), SystemClock())
    now = store.now()
    ids = [f"agent-{i:04d}" for i in range(agents)]
    store.events.append([Event(event_id="e0", agent_id=a, session_id=f"{a}-s0", project="bench", ts=now, role="user",
                               text="Prefer tables for the weekly report.", tags=["preference"], ingested_at=now) for a in ids])
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--live", type=int, default=32)
    parser.add_argument("--cold", type=int, default=40)
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--no-compile", action="store_true",
                        help="remove the project's cached bytecode instead of compiling it (a cold install)")
    args = parser.parse_args()
    for package in ("actors", "reverie"):
        if args.no_compile:
            for cache in Path(package).rglob("__pycache__"):
                shutil.rmtree(cache)
        else:
            compileall.compile_dir(package, quiet=1)
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.getcwd(), "TOKENIZERS_PARALLELISM": "false"}})
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        settings = Settings(store=StoreSettings(uri=f"{tmp}/store"), embedding=EmbeddingSettings(provider="minilm"),
                            actors=ActorSettings(namespace="bench-actors", max_live_per_node=args.live))
        memory = start_memory(settings, ticker=False)
        directory = RemoteDirectory.of(settings)
        started = time.perf_counter()
        agents = register(settings, args.agents)
        registered = time.perf_counter() - started
        report = {"command": "python -m bench.actors", "date": datetime.now(UTC).isoformat(timespec="seconds"),
                  "machine": f"{platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}",
                  "agents": args.agents, "live_cap": args.live, "register_seconds": round(registered, 2),
                  "bytecode_compiled": not args.no_compile}
        report.update(idle_memory(memory, directory, settings, agents[: args.live]))
        report.update(cold_activation(memory, agents[args.live:], args.cold))
        memory.stop()
    ray.shutdown()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "actors.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


def idle_memory(handles: Memory, directory: RemoteDirectory, settings: Settings, agents: list[str]) -> dict[str, object]:
    pids = {}
    for agent in agents:
        pids[agent] = ray.get(handles.directory.activate.remote(agent))
        directory.capture(CaptureRequest(agent_id=agent, session_id=f"{agent}-s1", project="bench",
                                         events=[EventIn(role="user", text="Never deploy on Fridays.", tags=["constraint"])]))
    ray.get(handles.embedder.embed.remote(["warm the model up", "and keep it loaded"]))
    time.sleep(3)  # idle
    live = ray.get(handles.directory.live.remote())
    agent_pss = [pss_mb(pid) for agent, pid in pids.items() if agent in live]
    services = {
        "embedding_service": pss_mb(ray.get(handles.embedder.info.remote())["pid"]),
        "store_gateway": pss_mb(ray.get(handles.store.pid.remote())),
    }
    return {
        "live_agents_measured": len(agent_pss),
        "agent_pss_mb": {"median": round(statistics.median(agent_pss), 1), "mean": round(statistics.fmean(agent_pss), 1),
                         "max": round(max(agent_pss), 1), "min": round(min(agent_pss), 1)},
        "services_pss_mb": {k: round(v, 1) for k, v in services.items()},
    }


@ray.remote(num_cpus=0.01)
class _Bare:
    """A trivial actor: the baseline of what starting any Ray actor process costs here."""

    def pid(self) -> int:
        return os.getpid()


def bare_actor_starts(count: int) -> list[float]:
    latencies = []
    for _ in range(count):
        start = time.perf_counter()
        actor = _Bare.remote()  # type: ignore[attr-defined]  # mypy keeps a decorated class's own type (python/mypy#3135)
        ray.get(actor.pid.remote())
        latencies.append(time.perf_counter() - start)
        ray.kill(actor)
    return latencies


def cold_activation(memory: Memory, candidates: list[str], count: int) -> dict[str, object]:
    rng = random.Random(7)
    picked = rng.sample(candidates, count)
    latencies = []
    for agent in picked:
        start = time.perf_counter()
        ray.get(memory.directory.activate.remote(agent))
        latencies.append(time.perf_counter() - start)
    warm = []
    for agent in picked[-5:]:
        start = time.perf_counter()
        ray.get(memory.directory.activate.remote(agent))
        warm.append(time.perf_counter() - start)
    ordered = sorted(latencies)
    bare = bare_actor_starts(10)
    return {
        "bare_ray_actor_start_s_median": round(statistics.median(bare), 3),
        "cold_activation_s": {"median": round(statistics.median(latencies), 3),
                              "p90": round(ordered[int(0.9 * len(ordered)) - 1], 3),
                              "max": round(max(latencies), 3), "min": round(min(latencies), 3), "n": len(latencies)},
        "warm_call_s_median": round(statistics.median(warm), 4),
        "live_after": len(ray.get(memory.directory.live.remote())),
        **ray.get(memory.directory.counters.remote()),
    }


if __name__ == "__main__":
    main()
