"""Measure conflict detection on SICK and duplicate detection on MRPC with the bundled MiniLM.

    python -m bench.sick_mrpc [--data ../shared/data] [--out bench/results]

- SICK: a pair is a contradiction when its cosine >= t and ``reverie.conflicts`` finds a conflict
  (polarity, value, choice, option, setting). t is tuned on TRAIN+TRIAL (max F1), reported on TEST,
  against CONTRADICTION vs everything else.
- MRPC: a pair is a duplicate when its cosine >= t (and, second variant, as consolidation merges:
  no conflict between the two sentences and no different numbered things named). t is tuned on
  train by max F0.5 — chosen before looking at test: a wrong merge hides a distinct statement, a
  missed merge only leaves a redundant note that later runs can still merge, so precision weighs
  twice — and reported on test, next to 0.85.

Embeddings are cached under ``--out`` so a second run only recomputes the scores.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from reverie.conflicts import conflict_between, different_things
from reverie.embed import MiniLMEmbedder
from reverie.settings import ConsolidationSettings, EmbeddingSettings
from reverie.statements import Reading, read

GRID = [round(t, 2) for t in np.arange(0.30, 0.96, 0.01)]


@dataclass(frozen=True)
class Pairs:
    a: list[str]
    b: list[str]
    label: np.ndarray
    split: np.ndarray


def load_sick(path: Path) -> Pairs:
    rows = [line.rstrip("\n").split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    return Pairs([r[1] for r in rows], [r[2] for r in rows], np.array([r[3] == "CONTRADICTION" for r in rows]),
                 np.array([r[11] for r in rows]))


def load_mrpc(folder: Path) -> Pairs:
    a, b, label, split = [], [], [], []
    for name in ("train", "test"):
        for line in (folder / f"msr_paraphrase_{name}.txt").read_text(encoding="utf-8-sig").splitlines():
            cols = line.split("\t")
            if cols[0] in ("0", "1"):
                a.append(cols[3])
                b.append(cols[4])
                label.append(cols[0] == "1")
                split.append(name)
    return Pairs(a, b, np.array(label), np.array(split))


def cosines(pairs: Pairs, cache: Path, embed: Callable[[Sequence[str]], np.ndarray]) -> np.ndarray:
    if cache.exists():
        return np.load(cache)
    va, vb = embed(pairs.a), embed(pairs.b)
    sims = (va * vb).sum(axis=1)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, sims)
    return sims


def scores(predicted: np.ndarray, truth: np.ndarray, mask: np.ndarray) -> dict[str, float]:
    """Precision, recall, F1, F0.5 and accuracy of ``predicted`` over the pairs in ``mask``."""
    predicted, truth = predicted[mask], truth[mask]
    tp = float((predicted & truth).sum())
    precision = tp / max(float(predicted.sum()), 1.0)
    recall = tp / max(float(truth.sum()), 1.0)
    f1 = 2 * precision * recall / max(precision + recall, 1e-9)
    f05 = 1.25 * precision * recall / max(0.25 * precision + recall, 1e-9)
    return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3), "f0.5": round(f05, 3),
            "accuracy": round(float((predicted == truth).mean()), 3), "predicted": int(predicted.sum()),
            "positives": int(truth.sum())}


def tune(sims: np.ndarray, extra: np.ndarray, truth: np.ndarray, mask: np.ndarray, metric: str) -> float:
    best = max(GRID, key=lambda t: (scores((sims >= t) & extra, truth, mask)[metric], -t))
    return float(best)


def sick(pairs: Pairs, sims: np.ndarray) -> dict[str, object]:
    found = [conflict_between(read(x), read(y)) for x, y in zip(pairs.a, pairs.b, strict=True)]
    flagged = np.array([c is not None for c in found])
    tuning, test = np.isin(pairs.split, ["TRAIN", "TRIAL"]), pairs.split == "TEST"
    chosen = tune(sims, flagged, pairs.label, tuning, "f1")
    default = ConsolidationSettings().conflict_similarity
    kinds: dict[str, int] = {}
    for conflict, s, in_test in zip(found, sims, test, strict=True):
        if conflict is not None and in_test and s >= chosen:
            kinds[conflict.kind] = kinds.get(conflict.kind, 0) + 1
    return {
        "tuned_threshold": chosen, "default_threshold": default,
        "train_trial_at_tuned": scores((sims >= chosen) & flagged, pairs.label, tuning),
        "test_at_tuned": scores((sims >= chosen) & flagged, pairs.label, test),
        "test_at_default": scores((sims >= default) & flagged, pairs.label, test),
        "test_rules_without_similarity": scores(flagged, pairs.label, test),
        "test_kinds_at_tuned": kinds,
    }


def _mergeable(a: Reading, b: Reading) -> bool:
    """What consolidation's deduplication requires besides similarity (see actors/dedupe.py)."""
    return not different_things(a, b) and conflict_between(a, b) is None


def mrpc(pairs: Pairs, sims: np.ndarray) -> dict[str, object]:
    agree = np.array([_mergeable(read(x), read(y)) for x, y in zip(pairs.a, pairs.b, strict=True)])
    train, test = pairs.split == "train", pairs.split == "test"
    everything = np.ones_like(agree)
    plain = tune(sims, everything, pairs.label, train, "f0.5")
    gated = tune(sims, agree, pairs.label, train, "f0.5")
    return {
        "tuned_threshold": plain, "tuned_threshold_with_conflict_gate": gated,
        "train_at_tuned": scores((sims >= plain), pairs.label, train),
        "test_at_tuned": scores((sims >= plain), pairs.label, test),
        "test_at_0.85": scores((sims >= 0.85), pairs.label, test),
        "test_gated_at_tuned": scores((sims >= gated) & agree, pairs.label, test),
        "test_gated_at_0.85": scores((sims >= 0.85) & agree, pairs.label, test),
        "test_curve": {str(t): scores((sims >= t) & agree, pairs.label, test) for t in (0.7, 0.75, 0.8, 0.85, 0.9)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data",
                        help="folder with SICK_full.txt and msr_paraphrase_*.txt (default: ../shared/data beside the project)")
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    args = parser.parse_args()
    model = MiniLMEmbedder(EmbeddingSettings())
    started = time.perf_counter()
    sick_pairs, mrpc_pairs = load_sick(args.data / "SICK_full.txt"), load_mrpc(args.data)
    report: dict[str, object] = {
        "command": "python -m bench.sick_mrpc", "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, python {platform.python_version()}",
        "embedder": model.name,
        "sick": sick(sick_pairs, cosines(sick_pairs, args.out / "sick_cosines.npy", model.embed)),
        "mrpc": mrpc(mrpc_pairs, cosines(mrpc_pairs, args.out / "mrpc_cosines.npy", model.embed)),
    }
    report["seconds"] = round(time.perf_counter() - started, 1)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "sick_mrpc.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
