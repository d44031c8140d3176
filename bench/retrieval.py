"""Retrieval over HTTP at 10k and 100k notes visible to the caller, against an embed-only endpoint.

    python -m bench.retrieval            # 10k and 100k notes (the numbers to quote)
    python -m bench.retrieval --quick    # 300 and 2,000 notes: the harness works
    python -m bench --only retrieval     # the same entry through the suite runner (add --render)

A full ``python -m bench`` runs it; ``python -m bench --quick`` (CI) leaves it out, since it starts
Ray, Serve and the embedding service (minutes on a small machine); its own ``--quick`` runs it small.

One local Ray, one embedding service (the configured embedder, MiniLM by default), one Serve proxy.
The baseline is an embed-only Serve deployment with the same replica options: it embeds the query
with the same embedding service and returns. For each size a fresh store is seeded through the
store's batches (never through consolidation), the Reverie app is deployed on it, warmed up, and
both endpoints are measured at 1 and 8 concurrent clients (p50, p99, requests/s) in three alternating
rounds of 200 requests each (one with ``--quick``), pooled per endpoint, so that a drift of the machine
during the run weighs on both alike (one round of 400 each, before: the embed-only baseline alone moved
by 15 % between two quiet runs); every request has a query never sent before (held-out, distinct).

Beside the notes, the asking agent has ``turns`` raw turns of its own (20,000; 2,000 with
``--quick``; ``--option turns=N``), written as events with their vectors (as capture writes them) and
their contextual keys with vectors (as consolidation writes them), so every retrieval also ranks the
raw-turn layer under both; the turn cache's resident bytes are reported.

Seeded notes: statements of words drawn (Zipf) from a vocabulary of 2,000 made-up words, so BM25
does real work; vectors synthetic but shaped like MiniLM's (``bench.mining.synthetic``: topics
around MiniLM's mean direction with MiniLM's within- and between-topic cosines), spread over the
caller's personal scope (10 %), five module scopes (40 %), its project (30 %) and ``team`` (20 %).
Queries are embedded for real by the embedding service.

Recall@10 of the quantized search (scopes of at least ``retrieval.ann_above`` notes) against an
exact scan is measured in process on the same vectors, with held-out queries of two kinds: synthetic
ones shaped like the notes, and the MiniLM vectors of the query texts. (An IVF index was tried first:
on these vectors, whose neighbourhoods are nearly isotropic, it kept only about 0.8 of the exact
top 10 at 24 probed lists, so the scan stays flat and only its bytes shrink: first an 8-bit scalar
quantizer, now 4-bit product codes of two dimensions each, compared by SIMD table lookups.)

A ranking-quality table comes first: on the dev and held-out phrasebooks of ``bench.eval`` (one
note per frame), top-1 and top-5 of dense-only against the hybrid defaults, for paraphrased questions
and for keyword queries (the frame's subject), and where similarities of right and wrong notes lie
(what ``min_similarity`` was set from).

No ``from __future__ import annotations`` here: Serve rebuilds the baseline's FastAPI routes in the
replica, where string annotations would not resolve (the body would be read as a query parameter).
"""

import argparse
import re
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import httpx
import numpy as np
from fastapi import FastAPI
from pydantic import BaseModel
from ray import serve as ray_serve

from bench.registry import Context, Measure, Outcome, Table, register

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "bench"
AGENT = "bench-agent"
SCOPES = ((0.1, f"personal:{AGENT}"), (0.4, "module"), (0.3, f"project:{PROJECT}"), (0.2, "team"))
VOCABULARY = 2000


@dataclass(frozen=True)
class Plan:
    sizes: tuple[int, ...]
    requests: int  # per round of a measurement, over all clients
    warmup: int
    turns: int  # raw turns of the asking agent beside the notes
    rounds: int  # embed-only and retrieval take turns this many times at each client count

    @classmethod
    def of(cls, quick: bool, turns: int | None = None) -> "Plan":
        plan = cls((300, 2000), 40, 16, 2000, 1) if quick else cls((10_000, 100_000), 200, 100, 20_000, 3)
        return plan if turns is None else cls(plan.sizes, plan.requests, plan.warmup, turns, plan.rounds)


# --- data -----------------------------------------------------------------------------------------
def words(rng: np.random.Generator, count: int, length: int) -> list[str]:
    from bench.mining import _word

    ranks = np.minimum(rng.zipf(1.3, size=(count, length)), VOCABULARY)
    return [" ".join(_word(int(r) * 7919 % 100_003) for r in row) for row in ranks]


def held_out(rng: np.random.Generator, count: int) -> list[str]:
    """Distinct queries of six words (the seeded statements have nine)."""
    found: dict[str, None] = {}
    while len(found) < count:
        found.update(dict.fromkeys(words(rng, count, 6)))
    return list(found)[:count]


def seed(store: Any, n: int, calib: dict[str, Any], rng: np.random.Generator) -> np.ndarray:
    """Write ``n`` notes visible to the caller as store batches; returns their vectors."""
    from bench.mining import synthetic
    from reverie.store import NoteWrite

    vectors, _ = synthetic(n, calib, seed=int(rng.integers(1 << 30)))
    statements = words(rng, n, 9)
    at = store.now()
    writes = [NoteWrite(_note(i, statements[i], at), "add", vector=vectors[i]) for i in range(n)]
    for start in range(0, n, 10_000):
        store.batches.run("import", writes[start:start + 10_000], project=PROJECT)
    return vectors


def seed_turns(store: Any, n: int, calib: dict[str, Any], rng: np.random.Generator) -> None:
    """Write ``n`` raw turns of the asking agent, with their vectors, as capture writes them, and
    their contextual keys with vectors, as consolidation writes them."""
    from bench.mining import synthetic
    from reverie.context_keys import turn_keys
    from reverie.records import Event

    vectors, _ = synthetic(n, calib, seed=int(rng.integers(1 << 30)))
    key_vectors, _ = synthetic(n, calib, seed=int(rng.integers(1 << 30)))
    texts = words(rng, n, 14)
    at = store.now()
    for start in range(0, n, 5_000):
        chunk = range(start, min(n, start + 5_000))
        events = [Event(event_id=f"t{i:06d}", agent_id=AGENT, session_id=f"ts{i // 20}", project=PROJECT, ts=at,
                        role="user", text=texts[i], ingested_at=at) for i in chunk]
        store.events.append(events)
        store.vectors.write([(AGENT, e.event_id) for e in events], vectors[start:start + len(events)])
        store.keys.write(turn_keys(events), key_vectors[start:start + len(events)], at)


def _scope(i: int) -> str:
    share, bound = (i % 100) / 100, 0.0
    for fraction, scope in SCOPES:
        bound += fraction
        if share < bound:
            return f"module:{PROJECT}/m{i % 5}" if scope == "module" else scope
    return "team"


def _note(i: int, statement: str, at: Any) -> Any:
    from reverie.records import Note

    scope = _scope(i)
    return Note(note_id=f"n{i:06d}", type=("lesson", "preference", "procedure", "constraint")[i % 4],
                subject=statement.split()[0], statement=statement, scope=scope, owner_agent=AGENT, project=PROJECT,
                module=f"m{i % 5}" if scope.startswith("module:") else None, evidence=[f"e{i}"],
                source_sessions=[f"s{i // 4}"], source_agents=[AGENT], confidence=0.5 + (i % 5) / 10,
                created_at=at, updated_at=at)


# --- the services -----------------------------------------------------------------------------------
def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def services(settings: Any) -> Iterator[str]:
    """A Ray (the running one, or a local one), the embedding service and Serve on 127.0.0.1."""
    import ray
    from ray import serve as ray_serve

    from actors.embedding import EmbeddingServiceActor, embedding_options
    from reverie.remote import Handle

    started = not ray.is_initialized()
    if started:
        ray.init(address="local", include_dashboard=False, log_to_driver=False, namespace=settings.actors.namespace,
                 runtime_env={"env_vars": {"PYTHONPATH": str(ROOT), "TOKENIZERS_PARALLELISM": "false"}})
    embedder: Handle = EmbeddingServiceActor.options(**embedding_options(settings)).remote(settings.embedding, settings.actors)
    ray.get(embedder.info.remote())
    port = _free_port()
    ray_serve.start(http_options={"host": "127.0.0.1", "port": port})
    try:
        ray_serve.run(embed_only(settings), name="bench-embed-only", route_prefix="/embed-only")
        yield f"http://127.0.0.1:{port}"
    finally:
        ray_serve.shutdown()
        ray.kill(embedder)
        if started:
            ray.shutdown()


class EmbedBody(BaseModel):
    query: str


EMBED_API = FastAPI()


@ray_serve.deployment(name="embed-only")
@ray_serve.ingress(EMBED_API)
class EmbedOnly:
    """The baseline: embeds the query with the same embedding service and returns."""

    def __init__(self, namespace: str, timeout: float) -> None:
        from reverie.embed import spec_for
        from reverie.remote import Actors, RemoteEmbedder
        from reverie.settings import EmbeddingSettings

        self._embedder = RemoteEmbedder(Actors(namespace, timeout), spec_for(EmbeddingSettings()))

    @EMBED_API.post("/embed")
    def embed(self, body: EmbedBody) -> dict[str, int]:
        return {"dim": int(self._embedder.embed([body.query]).shape[1])}


def embed_only(settings: Any) -> Any:
    """The baseline deployment, with the app's replica options."""
    serve = settings.serve
    deployment = cast(ray_serve.Deployment, EmbedOnly)  # mypy keeps a decorated class's own type (python/mypy#3135)
    return deployment.options(max_ongoing_requests=serve.max_ongoing_requests, max_queued_requests=serve.max_queued_requests,
                              ray_actor_options={"num_cpus": serve.num_cpus}).bind(settings.actors.namespace,
                                                                                   serve.call_timeout_seconds)


def deploy_reverie(settings: Any) -> None:
    from ray import serve as ray_serve

    from serve.app import build_app

    ray_serve.run(build_app(settings), name=settings.serve.app_name, route_prefix="/")


# --- load ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    latencies: list[float]  # seconds
    wall: float  # seconds from the first request sent to the last answer


@dataclass(frozen=True)
class Load:
    clients: int
    p50_ms: float
    p99_ms: float
    rps: float

    @classmethod
    def of(cls, clients: int, samples: list[Sample]) -> "Load":
        """Latencies of all rounds pooled; requests/s over their summed wall time."""
        ordered = sorted(t for s in samples for t in s.latencies)
        return cls(clients, 1000 * statistics.median(ordered), 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
                   len(ordered) / sum(s.wall for s in samples))


def measure(send: Callable[[httpx.Client, str], None], queries: Iterator[str], clients: int, requests: int,
            make: Callable[[], httpx.Client]) -> Sample:
    """``requests`` requests in all from ``clients`` threads, each with its own connection."""
    latencies: list[float] = []
    lock = threading.Lock()
    batches = [[next(queries) for _ in range(max(1, requests // clients))] for _ in range(clients)]

    errors: list[BaseException] = []

    def run(batch: list[str]) -> None:
        try:
            with make() as client:
                for query in batch:
                    started = time.perf_counter()
                    send(client, query)
                    elapsed = time.perf_counter() - started
                    with lock:
                        latencies.append(elapsed)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the measuring thread below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(b,)) for b in batches]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    if errors:
        raise errors[0]
    return Sample(latencies, wall)


def _embed(client: httpx.Client, query: str) -> None:
    response = client.post("/embed-only/embed", json={"query": query})
    response.raise_for_status()


def _retrieve(budget: int, check: Callable[[dict[str, Any]], None]) -> Callable[[httpx.Client, str], None]:
    def send(client: httpx.Client, query: str) -> None:
        response = client.post("/v1/retrieve", json={"agent_id": AGENT, "query": query, "project": PROJECT,
                                                     "token_budget": budget})
        response.raise_for_status()
        check(response.json())
    return send


# --- one size -----------------------------------------------------------------------------------------
def app_settings(ctx: Context, n: int) -> tuple[Any, str, str]:
    """The app's settings on a fresh store, an agent key (the asker) and an admin key (its metrics)."""
    from serve.auth.keys import KeysFile

    folder = ctx.workdir / f"retrieval-{n}"
    folder.mkdir(parents=True, exist_ok=True)
    keys = folder / "keys.json"
    key = KeysFile(keys).add(AGENT, "agent", [PROJECT])
    admin = KeysFile(keys).add("bench-admin", "admin", ["*"])
    base = ctx.store_settings(f"retrieval-{n}/store")
    auth = base.auth.model_copy(update={"keys_file": keys, "requests_per_minute": 0, "burst": 1_000_000})
    serve = base.serve.model_copy(update={"app_name": "reverie-bench"})
    return base.model_copy(update={"auth": auth, "serve": serve}), key, admin


def wait_ready(url: str, key: str, timeout: float = 600.0) -> None:
    """Until the replica's cache has loaded the notes (the first retrieval that finds any)."""
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=120) as client:
        while time.monotonic() < deadline:
            try:
                response = client.post("/v1/retrieve", json={"agent_id": AGENT, "query": "warm up the cache", "project": PROJECT})
                if response.status_code == 200 and response.json()["notes"]:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(1.0)
    raise TimeoutError("the retrieval service did not become ready")


def one_size(ctx: Context, url: str, n: int, plan: Plan, calib: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    from reverie.clock import SystemClock
    from reverie.embed import spec_for
    from reverie.store import Store

    settings, key, admin = app_settings(ctx, n)
    store = Store.open(settings.store, spec_for(settings.embedding), SystemClock())
    started = time.perf_counter()
    vectors = seed(store, n, calib, rng)
    seed_turns(store, plan.turns, calib, rng)
    seeded = time.perf_counter() - started
    deploy_reverie(settings)
    started = time.perf_counter()
    wait_ready(url, key)
    loaded = time.perf_counter() - started
    queries = iter(held_out(rng, 4 * plan.rounds * plan.requests + 4 * plan.warmup + 64))
    budget = settings.retrieval.token_budget
    over: list[int] = []
    send = _retrieve(budget, lambda body: over.append(body["tokens"]) if body["tokens"] > budget else None)
    headers = {"Authorization": f"Bearer {key}"}
    make = lambda: httpx.Client(base_url=url, headers=headers, timeout=120)  # noqa: E731
    measure(send, queries, 2, plan.warmup, make)
    measure(_embed, queries, 2, plan.warmup, make)
    time.sleep(2.0 if ctx.quick else 15.0)  # approximate indexes are built in the background
    loads = {}
    for clients in (1, 8):  # alternating rounds: a drift of the machine weighs on both endpoints alike
        samples: dict[str, list[Sample]] = {"embed-only": [], "retrieve": []}
        for _ in range(plan.rounds):
            samples["embed-only"].append(measure(_embed, queries, clients, plan.requests, make))
            samples["retrieve"].append(measure(send, queries, clients, plan.requests, make))
        for endpoint, taken in samples.items():
            loads[(endpoint, clients)] = Load.of(clients, taken)
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {admin}"}, timeout=120) as client:
        layers = client.get("/v1/metrics/memory").json().get("layers") or {}
    return {"n": n, "seed_s": seeded, "load_s": loaded, "loads": loads, "over_budget": len(over), "vectors": vectors,
            "layers": layers}


# --- recall of the approximate index ------------------------------------------------------------------
def recall_at_10(vectors: np.ndarray, queries: np.ndarray, settings: Any) -> tuple[float, float, int]:
    """Mean and worst recall@10 of the scoped search (quantized above ``ann_above``) against an exact scan."""
    import pyarrow as pa

    from serve.retrieval.scopeblock import Cached, ScopeBlock

    plain = settings.model_copy(update={"min_similarity": -2.0, "weight_freshness": 0.0, "weight_confidence": 0.0,
                                        "weight_hits": 0.0})
    scopes = np.array([_scope(i) for i in range(len(vectors))])
    empty = pa.table({"x": [0]})
    blocks = []
    for scope in np.unique(scopes):
        block = ScopeBlock((str(scope), PROJECT), 1.0, vectors.shape[1])
        for i in np.flatnonzero(scopes == scope):
            block.append(Cached(str(i), 1, "", empty, 0), vectors[i], {})
        if block.live_count >= settings.ann_above:
            block.build_index()
        blocks.append(block)
    recalls = []
    for query in queries:
        exact = set(np.argsort(-(vectors @ query))[:10].tolist())
        candidates = (c for b in blocks for c in b.search(query, 0.0, plain.depth, plain).candidates())
        found = sorted(candidates, key=lambda c: -c.similarity)[:10]
        recalls.append(len(exact & {int(c.cached.note_id) for c in found}) / 10)
    return float(np.mean(recalls)), float(np.min(recalls)), sum(1 for b in blocks if b.ann is not None)


def shaped_queries(vectors: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """Held-out queries near random notes (cosine about 0.8 to the note they were drawn from)."""
    picked = vectors[rng.choice(len(vectors), size=count, replace=False)]
    noisy = picked + rng.normal(scale=0.75 / np.sqrt(vectors.shape[1]), size=picked.shape)
    return (noisy / np.linalg.norm(noisy, axis=1, keepdims=True)).astype(np.float32)


# --- ranking quality on the phrasebooks -----------------------------------------------------------------
def _fill(template: str, values: tuple[str, ...]) -> str:
    values = values or ("it",)
    return re.sub(r"\{([a-z_]+)\}", lambda m: values[0] if m.group(1) == "value" else values[-1], template)


def phrasebook_quality(ctx: Context) -> tuple[Table, Table]:
    """Top-1 / top-5 of the right note, dense only against the defaults, and similarity quantiles."""
    from bench.eval.phrases.dev import DEV
    from bench.eval.phrases.heldout import HELDOUT

    quality, spread = [], []
    for book in (DEV, HELDOUT):
        statements = [_fill(f.statements[0], f.values) for f in book.frames]
        notes = ctx.embedder.embed(statements)
        kinds = {"paraphrased questions": [(i, q) for i, f in enumerate(book.frames) for q in f.questions],
                 "keyword queries": [(i, f.subject) for i, f in enumerate(book.frames)]}
        for kind, asked in kinds.items():
            vectors = ctx.embedder.embed([q for _, q in asked])
            for name, overrides in (("dense only", {"weight_lexical": 0.0, "relative_similarity": 0.0}), ("defaults", {})):
                top1, top5 = _ranks(ctx, statements, notes, asked, vectors, overrides)
                quality.append([book.name, kind, name, len(asked), round(100 * top1, 1), round(100 * top5, 1)])
            sims = vectors @ notes.T
            right = np.array([sims[j, i] for j, (i, _) in enumerate(asked)])
            wrong = np.array([np.max(np.delete(sims[j], i)) for j, (i, _) in enumerate(asked)])
            spread.append([book.name, kind, *np.round(np.percentile(right, [10, 50]), 2).tolist(),
                           *np.round(np.percentile(wrong, [50, 90]), 2).tolist()])
    return (Table("ranking quality: the right note at rank 1 / in the top 5 (one note per frame, team scope)",
                  ["phrasebook", "queries", "ranking", "n", "top-1 %", "top-5 %"], quality),
            Table("cosine of the right note and of the best wrong one (where the thresholds come from)",
                  ["phrasebook", "queries", "right p10", "right p50", "best wrong p50", "best wrong p90"], spread))


def _ranks(ctx: Context, statements: list[str], notes: np.ndarray, asked: list[tuple[int, str]], vectors: np.ndarray,
           overrides: dict[str, float]) -> tuple[float, float]:
    from reverie.api import RetrieveRequest
    from reverie.clock import SystemClock
    from reverie.embed import EmbedderSpec
    from reverie.records import Note
    from reverie.store import NoteWrite, Store
    from serve.auth.access import Principal
    from serve.retrieval.recall import Recaller

    folder = Path(tempfile.mkdtemp(dir=ctx.workdir))
    settings = ctx.settings.store.model_copy(update={"uri": str(folder)})
    store = Store.open(settings, EmbedderSpec(ctx.embedder.name, ctx.embedder.dim), SystemClock())
    at = store.now()
    rows = [Note(note_id=f"f{i}", type="lesson", subject=s.split()[0], statement=s, scope="team", project=PROJECT,
                 created_at=at, updated_at=at) for i, s in enumerate(statements)]
    store.batches.run("import", [NoteWrite(n, "add", vector=v) for n, v in zip(rows, notes, strict=True)])
    recaller = Recaller(store, ctx.embedder, ctx.counter, ctx.settings.retrieval.model_copy(update=overrides))
    recaller.index.load()
    caller = Principal(AGENT, "agent", frozenset([PROJECT]))
    firsts, fives = [], []
    for (i, query), vector in zip(asked, vectors, strict=True):
        ranked = [c.cached.note_id for c, _ in recaller.rank(caller, RetrieveRequest(agent_id=AGENT, query=query), vector)]
        firsts.append(ranked[:1] == [f"f{i}"])
        fives.append(f"f{i}" in ranked[:5])
    recaller.close()
    return float(np.mean(firsts)), float(np.mean(fives))


# --- the entry ----------------------------------------------------------------------------------------
TARGET_MS = {10_000: 10.0, 100_000: 20.0}


@register("retrieval", "Retrieval (issue 6): HTTP latency and throughput at 10k and 100k notes vs embed-only", quick=False)
def retrieval(ctx: Context) -> Outcome:
    from bench.mining import calibration

    plan = Plan.of(ctx.quick, int(ctx.options["turns"]) if "turns" in ctx.options else None)
    rng = np.random.default_rng(6)
    outcome = Outcome()
    outcome.tables += list(phrasebook_quality(ctx))
    calib = calibration()
    rows, recall_rows = [], []
    with services(ctx.settings) as url:
        for n in plan.sizes:
            result = one_size(ctx, url, n, plan, calib, rng)
            rows += _load_rows(result)
            outcome.measures += _measures(result)
            recall_rows.append(_recall_row(ctx, result, rng))
            if result["over_budget"]:
                outcome.problems.append(f"{n} notes: {result['over_budget']} responses over the token budget")
            outcome.notes.append(f"{n} notes and {plan.turns} raw turns of the asker: seeded in {result['seed_s']:.1f} s "
                                 f"(store batches), cache loaded in {result['load_s']:.1f} s after deployment; "
                                 f"{_layers(result['layers'])}")
    outcome.tables.append(Table("HTTP, held-out queries, p50 / p99 in ms",
                                ["notes", "endpoint", "clients", "p50 ms", "p99 ms", "requests/s"], rows))
    outcome.tables.append(Table("quantized search (product-quantized fast scan and exact re-scoring, scopes of "
                                f"{ctx.settings.retrieval.ann_above} notes or more) against an exact scan, recall@10",
                                ["notes", "scopes indexed", "shaped queries mean", "shaped worst", "MiniLM queries mean",
                                 "MiniLM worst"], recall_rows))
    outcome.notes += _verdicts(rows, recall_rows, plan)
    return outcome


def _layers(layers: dict[str, Any]) -> str:
    if not layers:
        return "no per-layer metrics (the service did not report them)"
    items, tokens, n = layers.get("items", {}), layers.get("tokens", {}), max(1, layers.get("retrievals", 0))
    return (f"turn cache {layers.get('cached_turns', 0)} turns in {layers.get('turn_cache_bytes', 0) / 2**20:.1f} MiB; "
            f"per retrieval: {items.get('notes', 0) / n:.1f} notes ({tokens.get('notes', 0) / n:.0f} tokens), "
            f"{items.get('turns', 0) / n:.1f} turns ({tokens.get('turns', 0) / n:.0f} tokens)")


def _load_rows(result: dict[str, Any]) -> list[list[Any]]:
    return [[result["n"], endpoint, clients, round(load.p50_ms, 1), round(load.p99_ms, 1), round(load.rps, 1)]
            for (endpoint, clients), load in result["loads"].items()]


def _measures(result: dict[str, Any]) -> list[Measure]:
    loads, n = result["loads"], result["n"]
    found = []
    for clients in (1, 8):
        base, ours = loads[("embed-only", clients)], loads[("retrieve", clients)]
        found.append(Measure(f"{n} notes, {clients} client(s): p50", round(ours.p50_ms, 1), "ms", "embed-only p50",
                             round(base.p50_ms, 1)))
        found.append(Measure(f"{n} notes, {clients} client(s): requests/s", round(ours.rps, 1), "req/s",
                             "embed-only requests/s", round(base.rps, 1)))
    return found


def _recall_row(ctx: Context, result: dict[str, Any], rng: np.random.Generator) -> list[Any]:
    import ray

    from reverie.ports import EMBEDDER_ACTOR

    vectors = result["vectors"]
    embedder = ray.get_actor(EMBEDDER_ACTOR, namespace=ctx.settings.actors.namespace)
    texts = held_out(rng, 100 if ctx.quick else 200)
    real = np.asarray(ray.get(embedder.embed.remote(texts)), dtype=np.float32)
    shaped = recall_at_10(vectors, shaped_queries(vectors, rng, len(texts)), ctx.settings.retrieval)
    minilm = recall_at_10(vectors, real, ctx.settings.retrieval)
    return [result["n"], shaped[2], round(shaped[0], 3), round(shaped[1], 2), round(minilm[0], 3), round(minilm[1], 2)]


def _verdicts(rows: list[list[Any]], recall_rows: list[list[Any]], plan: Plan) -> list[str]:
    table = {(r[0], r[1], r[2]): r for r in rows}
    notes = []
    for n in plan.sizes:
        base1, ours1 = table[(n, "embed-only", 1)], table[(n, "retrieve", 1)]
        base8, ours8 = table[(n, "embed-only", 8)], table[(n, "retrieve", 8)]
        target = TARGET_MS.get(n)
        added = ours1[3] - base1[3]
        share = ours8[5] / base8[5] if base8[5] else float("nan")
        verdict = "" if target is None else (f" (target ≤ +{target:.0f} ms: {'met' if added <= target else 'MISSED'})")
        notes.append(f"{n} notes: p50 {added:+.1f} ms over embed-only at 1 client{verdict}; throughput at 8 clients "
                     f"{100 * share:.0f} % of embed-only's (target ≥ 60 %: {'met' if share >= 0.6 else 'MISSED'})")
    for row in recall_rows:
        if row[1]:
            ok = min(row[2], row[4]) >= 0.95
            notes.append(f"{row[0]} notes: recall@10 {row[2]:.3f} (shaped) / {row[4]:.3f} (MiniLM queries) "
                         f"(target ≥ 0.95: {'met' if ok else 'MISSED'})")
    return notes


def main(argv: list[str] | None = None) -> int:
    from bench.__main__ import main as suite

    parser = argparse.ArgumentParser(prog="python -m bench.retrieval", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: the harness works")
    parser.add_argument("--render", action="store_true", help="write the section into BENCHMARKS.md")
    args = parser.parse_args(argv)
    return suite(["--only", "retrieval", *(["--quick"] if args.quick else []), *(["--render"] if args.render else [])])


if __name__ == "__main__":
    raise SystemExit(main())
