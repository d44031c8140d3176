"""Consolidation throughput, end to end through the actors, against the bare embedder on the same texts.

    python -m bench.consolidation [--sessions 100] [--events 10] [--repeats 3] [--out bench/results]

Every event carries salient content (a tagged preference, constraint, correction, lesson or verified
result; no chatter), so every event becomes a candidate that is embedded: facts about 250 numbered
subjects, each restated in paraphrases across sessions (so duplicates merge), a few corrected (so
conflicts are resolved). For
each repeat, in the same process and run: (1) the bare MiniLM embeds every text the run embeds — the
event texts and the turns' contextual keys that consolidation writes (texts per second of the model
alone, in the driver), and so does the embedding service alone (one call, in its own process, as
consolidation uses it); (2) a fresh agent's sessions are captured, then one manual
consolidation runs through the directory, the agent actor, the embedding service and the store
gateway (collect, extract, embed, deduplicate, resolve, prune, one batch write) — events per second
from the request to the committed batch. The median of the per-repeat ratios is the result
(target >= 70 %).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ray

from actors.deploy import Memory, start_memory
from reverie.capture import CaptureRequest, EventIn
from reverie.context_keys import turn_keys
from reverie.embed import MiniLMEmbedder
from reverie.records import Event
from reverie.remote import RemoteDirectory
from reverie.settings import ActorSettings, EmbeddingSettings, Settings, StoreSettings

SUBJECTS = ["billing report", "payments API", "auth token service", "schema migration", "login handler", "ingest job",
            "error wrapper", "PR template", "cache layer", "deploy pipeline", "ledger export", "search index"]
PARAPHRASES = {
    "preference": ("user", ["Please keep the {s} output as a table with {n} columns.",
                            "For the {s}, I prefer a table with {n} columns.",
                            "Format the {s} output as a table of {n} columns, please."]),
    "constraint": ("user", ["Never change the {s} on Fridays; at most {n} deploys a week.",
                            "The {s} must not change on Fridays, with at most {n} deploys a week.",
                            "At most {n} deploys a week for the {s}, and never on Fridays."]),
    "lesson": ("assistant", ["Lesson: run the {s} checks with --dry-run first; it caught a conflict.",
                             "Running the {s} checks with --dry-run first caught the conflict again.",
                             "Always dry-run the {s} checks before the real run; it surfaces conflicts."]),
    "verified": ("tool", ["Verified: the {s} passes all tests with retries set to {n}.",
                          "The {s} passes every test with retries set to {n} (verified by CI)."]),
}
CORRECTION = "Correction: the {s} gets at most {m} deploys a week, not {n}."


def salient_sessions(agent: str, sessions: int, per_session: int, seed: int) -> list[CaptureRequest]:
    """Facts about numbered subjects, restated in paraphrases across sessions; 5 % are corrections."""
    rng = random.Random(seed)
    kinds = list(PARAPHRASES)
    facts = [(kinds[k % len(kinds)], f"{SUBJECTS[k % len(SUBJECTS)]} {k}", rng.randint(2, 9))
             for k in range(sessions * per_session // 4)]
    requests = []
    for i in range(sessions):
        events = []
        for j in range(per_session):
            skewed = rng.random() < 0.5
            index = min(int(rng.paretovariate(1.2)) - 1, len(facts) - 1) if skewed else rng.randrange(len(facts))
            kind, subject, value = facts[index]
            role, templates = PARAPHRASES[kind]
            text, tag = rng.choice(templates).format(s=subject, n=value), kind
            if kind == "constraint" and rng.random() < 0.2:
                text, tag = CORRECTION.format(s=subject, n=value, m=value + 3), "correction"
            events.append(EventIn(event_id=f"{agent}-{i}-{j}", role=role, text=text, tags=[tag],  # type: ignore[arg-type]
                                  kind="tool_result" if role == "tool" else "message", verified=role == "tool"))
        requests.append(CaptureRequest(agent_id=agent, session_id=f"{agent}-s{i}", project="bench", events=events))
    return requests


def key_texts(requests: list[CaptureRequest]) -> list[str]:
    """The contextual keys consolidation writes for these sessions (it embeds them beside the candidates)."""
    at = datetime.now(UTC)
    events = [Event(event_id=e.event_id or f"{r.session_id}-{i}", agent_id=r.agent_id, session_id=r.session_id,
                    project=r.project, ts=at, role=e.role, text=e.text, ingested_at=at)
              for r in requests for i, e in enumerate(r.events)]
    return [k.key for k in turn_keys(events)]


def bare_embedder(model: MiniLMEmbedder, texts: list[str]) -> float:
    model.embed(texts[:8])
    start = time.perf_counter()
    model.embed(texts)
    return len(texts) / (time.perf_counter() - start)


def bare_service(memory: Memory, texts: list[str]) -> float:
    """The embedding service alone on the same texts (same process and threads as in the runs)."""
    ray.get(memory.embedder.embed.remote(texts[:8]))
    start = time.perf_counter()
    ray.get(memory.embedder.embed.remote(texts))
    return len(texts) / (time.perf_counter() - start)


def consolidation(directory: RemoteDirectory, requests: list[CaptureRequest]) -> tuple[float, float, dict]:
    start = time.perf_counter()
    for request in requests:
        directory.capture(request)
    captured = time.perf_counter() - start
    events = sum(len(r.events) for r in requests)
    start = time.perf_counter()
    result = directory.consolidate(requests[0].agent_id)
    seconds = time.perf_counter() - start
    return events / seconds, events / captured, result.stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--events", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    args = parser.parse_args()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.getcwd(), "TOKENIZERS_PARALLELISM": "false"}})
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        settings = Settings(store=StoreSettings(uri=f"{tmp}/store"), embedding=EmbeddingSettings(provider="minilm"),
                            actors=ActorSettings(namespace="bench-consolidation"))
        memory = start_memory(settings, ticker=False)
        directory = RemoteDirectory.of(settings)
        model = MiniLMEmbedder(settings.embedding)
        rows: list[dict[str, Any]] = []
        for repeat in range(args.repeats):
            requests = salient_sessions(f"bench-{repeat}", args.sessions, args.events, seed=repeat)
            texts = [e.text for r in requests for e in r.events] + key_texts(requests)
            bare = bare_embedder(model, texts)
            service = bare_service(memory, texts)
            end_to_end, capture, stats = consolidation(directory, requests)
            events = sum(len(r.events) for r in requests)
            bare, service = bare * events / len(texts), service * events / len(texts)  # events/s when embedding all
            rows.append({"bare_eps": round(bare, 1), "bare_service_eps": round(service, 1),
                         "texts_per_event": round(len(texts) / events, 2),
                         "consolidation_eps": round(end_to_end, 1), "capture_eps": round(capture, 1),
                         "ratio": round(end_to_end / bare, 3), "ratio_to_service": round(end_to_end / service, 3),
                         "stats": stats})
            print(json.dumps(rows[-1]))
        memory.stop()
    ray.shutdown()
    report = {
        "command": "python -m bench.consolidation", "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}",
        "events_per_run": args.sessions * args.events, "repeats": rows,
        "median_bare_eps": statistics.median(r["bare_eps"] for r in rows),
        "median_consolidation_eps": statistics.median(r["consolidation_eps"] for r in rows),
        "median_bare_service_eps": statistics.median(r["bare_service_eps"] for r in rows),
        "median_ratio": statistics.median(r["ratio"] for r in rows),
        "median_ratio_to_service": statistics.median(r["ratio_to_service"] for r in rows),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "consolidation.json").write_text(json.dumps(report, indent=1))
    print(json.dumps({k: v for k, v in report.items() if k != "repeats"}, indent=1))


if __name__ == "__main__":
    main()
