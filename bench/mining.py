"""Mining benchmarks: full mine (cold, warm), incremental assignment, and the pool's yield latency.

    python -m bench.mining            # 1k, 10k and 50k notes, then yield latency (about 15 min)
    python -m bench.mining --quick    # 1k and 10k notes, then yield latency

Each size runs in a fresh process: "cold" is its first full mining run (imports, numba compilation
of the code paths numba does not cache, the store's first reads), "warm" a second full run in the
same process. Both are ``MiningJob.execute`` end to end: read notes, exact k-NN, UMAP (5-D for
clustering, 2-D for the map), HDBSCAN, promotion, pattern/graph/review batches. "Incremental" adds
100 notes and runs again (assignment with ``approximate_predict``, no refit), per note. Baseline in
the same process: a stock ``umap.UMAP`` fit (its own NNDescent index) on the same vectors, cold and
warm, against our reducer's fit alone.

Vectors are synthetic but shaped like MiniLM's: the planted paraphrase set is embedded with the
bundled MiniLM, and topics are sampled around its mean direction so that the cosine between notes
of one topic and between topics match what MiniLM gives for paraphrases and for unrelated lessons.
Topic sizes follow a Zipf law (many lessons seen a few times, a few seen often), 15 % of the notes
are one-off noise; 20 agents, sessions of about four notes, five modules.

Yield latency: a 10k-note run on a local Ray with the background resource; at a random moment the
simulated serving path reports full load; latency is the time from that report until the run is
``yielded`` (a unit boundary, or the supervisor's cancel of a long unit such as the fit); then the
load drops, the run resumes, and the next surge comes. Results go to bench/results/mining.json and
a Markdown table is printed for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
PROJECT = "bench"


# --- data -----------------------------------------------------------------------------------------
def calibration() -> dict[str, Any]:
    """Mean direction and cosines of MiniLM on the planted paraphrase groups of the tests."""
    from reverie.embed import MiniLMEmbedder
    from reverie.settings import EmbeddingSettings

    groups = json.loads((ROOT / "tests" / "data" / "mining" / "lessons.json").read_text())["groups"]
    vectors = MiniLMEmbedder(EmbeddingSettings()).embed([t for g in groups for t in g["texts"]])
    labels = np.repeat(np.arange(len(groups)), [len(g["texts"]) for g in groups])
    sims = vectors @ vectors.T
    same = labels[:, None] == labels[None, :]
    np.fill_diagonal(same, False)
    other = labels[:, None] != labels[None, :]
    mean = vectors.mean(axis=0)
    return {"mean": (mean / np.linalg.norm(mean)).tolist(), "within": float(sims[same].mean()),
            "between": float(sims[other].mean())}


def synthetic(n: int, calib: dict[str, Any], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` unit vectors (dim 384) in Zipf-sized topics shaped like MiniLM; labels (-1: noise)."""
    rng = np.random.default_rng(seed)
    dim = len(calib["mean"])
    mean = np.asarray(calib["mean"])
    lift = np.sqrt(calib["between"] / max(1e-6, 1 - calib["between"]))  # cos(centre_i, centre_j) ~ between
    spread = np.sqrt((1 / calib["within"] - 1) / dim)  # cos(member_i, member_j) ~ within
    noise = int(0.15 * n)
    sizes = np.maximum(2, (rng.zipf(1.8, size=n) % 60))
    sizes = sizes[np.cumsum(sizes) <= n - noise]
    labels = np.concatenate([np.repeat(np.arange(len(sizes)), sizes), np.full(n - sizes.sum(), -1)])
    centres = lift * mean + rng.normal(size=(len(sizes) + n, dim)) / np.sqrt(dim)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    topic = np.where(labels >= 0, labels, len(sizes) + np.arange(n))
    vectors = centres[topic] + rng.normal(scale=spread, size=(n, dim))
    order = rng.permutation(n)
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)[order]
    return vectors, labels[order]


def write_notes(store: Any, vectors: np.ndarray, labels: np.ndarray, at: datetime, offset: int = 0) -> None:
    from reverie.records import Note
    from reverie.store import NoteWrite

    writes = []
    for i, (vector, label) in enumerate(zip(vectors, labels, strict=True)):
        k = i + offset
        agent = f"a{k % 20}"
        note = Note(
            note_id=f"n{k:06d}", type=("lesson", "verified_fact", "procedure", "constraint")[k % 4],
            subject=f"topic {_word(label)}" if label >= 0 else f"one-off {_word(k)}",
            statement=f"lesson {_word(k)} of topic {_word(label)}",
            scope=f"personal:{agent}", owner_agent=agent, project=PROJECT, module=f"m{k % 5}",
            evidence=[f"e{k}"], source_sessions=[f"s{k // 4}"], source_agents=[agent], confidence=0.6,
            created_at=at, updated_at=at,
        )
        writes.append(NoteWrite(note, "add", vector=vector))
    for start in range(0, len(writes), 10_000):
        store.batches.run("local", writes[start:start + 10_000], project=PROJECT)


def _word(k: int) -> str:
    """A number spelled in letters (statements must not carry digits: they read as stated values)."""
    letters = ""
    k = int(k) + 1
    while k:
        k, r = divmod(k, 26)
        letters += "abcdefghijklmnopqrstuvwxyz"[r]
    return letters


# --- one size, in its own process -----------------------------------------------------------------
def one_size(n: int, calib: dict[str, Any]) -> dict[str, Any]:
    from mining.job import MiningJob
    from mining.reduction import UmapReduction
    from mining.runs import RunBook
    from reverie.clock import ManualClock
    from reverie.embed import spec_for
    from reverie.settings import Settings, StoreSettings
    from reverie.store import Store

    vectors, labels = synthetic(n + 100, calib, seed=n)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store=StoreSettings(uri=f"{tmp}/store"))
        clock = ManualClock()
        store = Store.open(settings.store, spec_for(settings.embedding), clock)
        write_notes(store, vectors[:n], labels[:n], clock.now())

        def run(mode: str) -> tuple[float, dict]:
            state = RunBook(store).create(PROJECT, principal="bench", mode=mode, at=clock.now(), not_before=clock.now())  # type: ignore[arg-type]
            start = time.perf_counter()
            done = MiningJob(store, settings.mining, state.run_id).execute()
            return time.perf_counter() - start, done.result

        cold, first = run("full")
        clock.advance(timedelta(hours=1))  # runs an hour apart, as the schedule would space them
        warm, _ = run("full")
        clock.advance(timedelta(hours=1))
        write_notes(store, vectors[n:], labels[n:], clock.now(), offset=n)
        incremental, third = run("auto")
        ours = UmapReduction(settings.mining.umap_neighbors, settings.mining.umap_components, settings.mining.umap_epochs)
        start = time.perf_counter()
        ours.fit_transform(vectors[:n])
        ours_fit = time.perf_counter() - start
    stock_cold, stock_warm = stock_umap(vectors[:n], settings.mining) if n <= 10_000 else (None, None)
    return {
        "notes": n, "cold_s": cold, "warm_s": warm, "incremental_ms_per_note": 1000 * incremental / 100,
        "incremental_mode": third["stats"]["mode"], "clusters": first["stats"]["clusters"],
        "noise": first["stats"]["noise"], "promoted": len(first["promoted"]), "candidates": len(first["candidates"]),
        "review": len(first["review"]), "our_reducer_fit_s": ours_fit, "stock_umap_cold_s": stock_cold,
        "stock_umap_warm_s": stock_warm, "planted_topics": int(labels[:n].max()) + 1,
    }


def stock_umap(vectors: np.ndarray, mining: Any) -> tuple[float, float]:
    """Baseline: umap.UMAP with its own approximate index (pynndescent), same parameters."""
    from mining.reduction import _umap

    umap = _umap()
    times = []
    for _ in range(2):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            umap.UMAP(n_neighbors=mining.umap_neighbors, n_components=mining.umap_components, metric="cosine",
                      n_epochs=mining.umap_epochs, random_state=mining.seed, n_jobs=1).fit_transform(vectors)
        times.append(time.perf_counter() - start)
    return times[0], times[1]


# --- yield latency ----------------------------------------------------------------------------
def yield_latency(n: int, calib: dict[str, Any], surges: int) -> dict[str, Any]:
    import ray

    from mining.loadsignal import load_signal
    from mining.service import Mining
    from reverie.clock import ManualClock
    from reverie.embed import spec_for
    from reverie.settings import ActorSettings, MiningSettings, Settings, StoreSettings
    from reverie.store import Store

    vectors, labels = synthetic(n, calib, seed=1)
    ray.init(address="local", num_cpus=2, include_dashboard=False, resources={"reverie_background": 1},
             runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}}, log_to_driver=False)
    latencies: list[tuple[float, int]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(store=StoreSettings(uri=f"{tmp}/store"), mining=MiningSettings(schedule=False, chunk_clusters=16),
                                actors=ActorSettings(namespace=f"bench-{uuid.uuid4().hex[:6]}"))
            clock = ManualClock()
            write_notes(Store.open(settings.store, spec_for(settings.embedding), clock), vectors, labels, clock.now())
            mining = Mining(settings, clock)
            signal = load_signal(settings)
            rng = np.random.default_rng(0)
            runs = 0
            while len(latencies) < surges:
                run_id = mining.start(PROJECT, full=True).run_id
                runs += 1
                latencies += _surges(mining, signal, run_id, rng, surges - len(latencies))
                mining.wait(run_id)
            mining.close()
    finally:
        ray.shutdown()
    every = [s for s, _ in latencies]
    in_fit = [s for s, cursor in latencies if cursor == 0]
    between = [s for s, cursor in latencies if cursor > 0]
    return {
        "notes": n, "surges": len(every), "runs": runs, "median_s": statistics.median(every),
        "p90_s": float(np.percentile(every, 90)), "max_s": max(every),
        "fit_cancelled": {"surges": len(in_fit), "median_s": statistics.median(in_fit) if in_fit else None},
        "unit_boundary": {"surges": len(between), "median_s": statistics.median(between) if between else None},
        "all": latencies,
    }


def _surges(mining: Any, signal: Any, run_id: str, rng: np.random.Generator, wanted: int) -> list[tuple[float, int]]:
    """Surges during one run until it commits: (latency of the yield, cursor it yielded at).

    Every other surge waits until the fit is done (a yield at a unit boundary); the others come at
    a random moment (often during the fit, which only the supervisor's cancel can stop).
    """
    found: list[tuple[float, int]] = []
    while len(found) < wanted:
        if len(found) % 2:
            while mining.run(run_id).stats.get("cursor", 0) < 1 and mining.run(run_id).status != "committed":
                time.sleep(0.05)
        time.sleep(float(rng.uniform(0.2, 3.0)))
        if mining.run(run_id).status == "committed":
            break
        stop = threading.Event()
        feeder = threading.Thread(target=_feed, args=(signal, stop), daemon=True)
        start = time.perf_counter()
        feeder.start()
        while mining.run(run_id).status not in ("yielded", "committed"):
            time.sleep(0.02)
        yielded = mining.run(run_id)
        if yielded.status == "yielded":
            found.append((time.perf_counter() - start, int(yielded.stats["cursor"])))
        stop.set()
        feeder.join()
    return found


def _feed(signal: Any, stop: threading.Event) -> None:
    while not stop.is_set():
        signal.report.remote(inflight=64, latency_seconds=1.0)
        stop.wait(0.1)


# --- driver ---------------------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"), "cpus": os.cpu_count(),
        "python": platform.python_version(), "platform": platform.platform(), "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k notes only")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--surges", type=int, default=16)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    warnings.simplefilter("ignore")
    RESULTS.mkdir(parents=True, exist_ok=True)
    calib_file = RESULTS / "mining-calibration.json"
    if args.one:
        print(json.dumps(one_size(args.one, json.loads(calib_file.read_text()))))
        return
    calib = calibration()
    calib_file.write_text(json.dumps(calib))
    report: dict[str, Any] = {"machine": machine(), "calibration": {k: calib[k] for k in ("within", "between")}, "sizes": []}
    for n in (1_000, 10_000) if args.quick else (1_000, 10_000, 50_000):
        out = subprocess.run([sys.executable, "-m", "bench.mining", "--one", str(n)], cwd=ROOT, check=True,
                             capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        report["sizes"].append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(json.dumps(report["sizes"][-1]), flush=True)
    report["yield"] = yield_latency(10_000, calib, args.surges)
    report["machine_after"] = machine()
    (RESULTS / "mining.json").write_text(json.dumps(report, indent=2))
    print(table(report))


def table(report: dict[str, Any]) -> str:
    lines = [
        "| notes | full mine cold (s) | full mine warm (s) | incremental (ms/note) | clusters | promoted "
        "| our reducer fit (s) | stock UMAP fit cold / warm (s) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in report["sizes"]:
        stock = "-" if s["stock_umap_cold_s"] is None else f"{s['stock_umap_cold_s']:.1f} / {s['stock_umap_warm_s']:.1f}"
        lines.append(f"| {s['notes']:,} | {s['cold_s']:.1f} | {s['warm_s']:.1f} | {s['incremental_ms_per_note']:.1f} | "
                     f"{s['clusters']} | {s['promoted']} | {s['our_reducer_fit_s']:.1f} | {stock} |")
    y = report["yield"]
    lines.append(f"\nYield latency ({y['notes']:,} notes, {y['surges']} surges over {y['runs']} runs): "
                 f"median {y['median_s']:.2f} s, p90 {y['p90_s']:.2f} s, max {y['max_s']:.2f} s; "
                 f"at a unit boundary: {y['unit_boundary']['surges']} surges, median {_s(y['unit_boundary']['median_s'])}; "
                 f"during the fit (cancelled by the supervisor): {y['fit_cancelled']['surges']} surges, "
                 f"median {_s(y['fit_cancelled']['median_s'])}")
    return "\n".join(lines)


def _s(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


if __name__ == "__main__":
    main()
