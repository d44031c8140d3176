"""Masking's quality and cost: the privacy corpus, the masking rate, capture with masking on and off.

    python -m bench.masking [--seconds 4] [--events 2000]

1. Quality on the privacy corpus (tests/data/privacy), each half and its "world" extensions alone
   (``heldout_world2.jsonl`` to ``heldout_world14.jsonl`` are the second to fourteenth blind held-out
   extensions, each written before the previous one's misses were read and fixed):
   positives, kinds, positives left in clear, placeholder labels that differ from the planted kind,
   clean lines changed.
2. The masking rate alone (``Masker.mask``, events/s) over the corpus rows and over the bundled
   fleet text (reverie/data/fleet_sample.json), each repeated for ``--seconds``.
3. Capture throughput in-process (``prepare_events`` then ``store.events.append`` into LanceDB in
   a fresh folder, 50 events a request, the fleet text repeated up to ``--events``) with masking on,
   against the same with masking off, in the same run, interleaved, best of two each; the target
   is a ratio of 0.7 or more.

``uptime`` is read before and after, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.registry import Context, Measure, Outcome, Table, register
from reverie.capture import CaptureRequest, EventIn, prepare_events
from reverie.clock import SystemClock
from reverie.embed import spec_for
from reverie.privacy import Masked, Masker
from reverie.sample import fleet_sample
from reverie.settings import EmbeddingSettings, PrivacySettings, Settings, StoreSettings
from reverie.store import Store

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "privacy"
PER_REQUEST = 50


@dataclass(frozen=True)
class Quality:
    split: str
    positives: int
    kinds: int
    missed: int
    wrong_labels: int
    clean: int
    clean_changed: int

    @property
    def changed_pct(self) -> float:
        return 100 * self.clean_changed / self.clean if self.clean else 0.0


def corpus_rows(*files: str) -> list[dict]:
    return [json.loads(line) for name in files for line in (CORPUS / name).read_text().splitlines() if line.strip()]


def label_at(masked: Masked, start: int, end: int) -> str | None:
    overlaps = [(min(end, f.end) - max(start, f.start), f.label)
                for f in masked.findings if f.start < end and f.end > start]
    return max(overlaps)[1] if overlaps else None


def quality(masker: Masker, split: str, rows: Sequence[dict]) -> Quality:
    missed = wrong = changed = 0
    for row in rows:
        out = masker.mask(row["text"])
        changed += not row["canaries"] and out.changed
        for canary, kind in zip(row["canaries"], row["kinds"], strict=True):
            start = row["text"].find(canary)
            missed += canary in out.text
            wrong += canary not in out.text and label_at(out, start, start + len(canary)) != kind
    kinds = {k for row in rows for k in row["kinds"]}
    return Quality(split, sum(len(r["canaries"]) for r in rows), len(kinds), missed, wrong,
                   sum(not r["canaries"] for r in rows), changed)


def rate(texts: Sequence[str], work: Callable[[str], object], seconds: float) -> float:
    """Texts per second over whole passes, for at least ``seconds``."""
    done, start = 0, time.perf_counter()
    while True:
        for text in texts:
            work(text)
        done += len(texts)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def capture_rate(texts: Sequence[str], privacy: PrivacySettings, folder: Path, events: int) -> float:
    """Events/s of validate + mask + append into a fresh store, in requests of 50."""
    settings = Settings(store=StoreSettings(uri=str(folder)), embedding=EmbeddingSettings(provider="hash"),
                        privacy=privacy)
    store = Store.open(settings.store, spec_for(settings.embedding), SystemClock())
    masker = Masker(settings.privacy)
    stream = [texts[i % len(texts)] for i in range(events)]
    requests = [CaptureRequest(agent_id="bench", session_id=f"s{i // PER_REQUEST}", project="bench",
                               events=[EventIn(role="user", text=t) for t in stream[i:i + PER_REQUEST]])
                for i in range(0, len(stream), PER_REQUEST)]
    start = time.perf_counter()
    for request in requests:
        store.events.append(prepare_events(request, masker, store.clock, settings.capture))
    return events / (time.perf_counter() - start)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def measure(seconds: float, events: int) -> dict:
    before = uptime()
    masker = Masker(PrivacySettings())
    splits = {
        "dev": corpus_rows("dev.jsonl", "dev_world.jsonl"),
        "heldout": corpus_rows("heldout.jsonl", "heldout_world.jsonl", "heldout_world2.jsonl",
                               "heldout_world3.jsonl", "heldout_world4.jsonl", "heldout_world5.jsonl",
                               "heldout_world6.jsonl", "heldout_world7.jsonl", "heldout_world8.jsonl",
                               "heldout_world9.jsonl", "heldout_world10.jsonl", "heldout_world11.jsonl",
                               "heldout_world12.jsonl", "heldout_world13.jsonl", "heldout_world14.jsonl"),
        "dev (world only)": corpus_rows("dev_world.jsonl"),
        "heldout (world only)": corpus_rows("heldout_world.jsonl"),
        "heldout (world2 only)": corpus_rows("heldout_world2.jsonl"),
        "heldout (world3 only)": corpus_rows("heldout_world3.jsonl"),
        "heldout (world4 only)": corpus_rows("heldout_world4.jsonl"),
        "heldout (world5 only)": corpus_rows("heldout_world5.jsonl"),
        "heldout (world6 only)": corpus_rows("heldout_world6.jsonl"),
        "heldout (world7 only)": corpus_rows("heldout_world7.jsonl"),
        "heldout (world8 only)": corpus_rows("heldout_world8.jsonl"),
        "heldout (world9 only)": corpus_rows("heldout_world9.jsonl"),
        "heldout (world10 only)": corpus_rows("heldout_world10.jsonl"),
        "heldout (world11 only)": corpus_rows("heldout_world11.jsonl"),
        "heldout (world12 only)": corpus_rows("heldout_world12.jsonl"),
        "heldout (world13 only)": corpus_rows("heldout_world13.jsonl"),
        "heldout (world14 only)": corpus_rows("heldout_world14.jsonl"),
    }
    qualities = [quality(masker, name, rows) for name, rows in splits.items()]
    corpus_texts = [r["text"] for r in splits["dev"] + splits["heldout"]]
    fleet_texts = [e.text for request in fleet_sample() for e in request.events]
    on, off = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for turn in range(2):  # interleaved, best of two each: the machine may be shared
            on.append(capture_rate(fleet_texts, PrivacySettings(), Path(scratch) / f"on{turn}", events))
            off.append(capture_rate(fleet_texts, PrivacySettings(enabled=False), Path(scratch) / f"off{turn}", events))
    capture_on, capture_off = max(on), max(off)
    return {
        "uptime_before": before,
        "quality": [asdict(q) | {"changed_pct": round(q.changed_pct, 2)} for q in qualities],
        "rules": masker.rules_version,
        "mask_rate_corpus": rate(corpus_texts, masker.mask, seconds),
        "mask_rate_fleet": rate(fleet_texts, masker.mask, seconds),
        "capture_on": capture_on, "capture_off": capture_off, "capture_ratio": capture_on / capture_off,
        "events": events, "uptime_after": uptime(),
    }


def markdown(result: dict) -> str:
    lines = ["| split | positives | kinds | missed | wrong label | clean lines | clean changed |",
             "|---|---|---|---|---|---|---|"]
    for q in result["quality"]:
        lines.append(f"| {q['split']} | {q['positives']} | {q['kinds']} | {q['missed']} | {q['wrong_labels']} "
                     f"| {q['clean']} | {q['clean_changed']} ({q['changed_pct']:.1f} %) |")
    lines += [
        "", f"Rules: {result['rules']}.", "",
        "| measure | value |", "|---|---|",
        f"| masking rate, corpus rows | {result['mask_rate_corpus']:,.0f} events/s |",
        f"| masking rate, fleet text | {result['mask_rate_fleet']:,.0f} events/s |",
        f"| capture, masking on | {result['capture_on']:,.0f} events/s |",
        f"| capture, masking off | {result['capture_off']:,.0f} events/s |",
        f"| capture ratio on/off (target >= 0.7) | {result['capture_ratio']:.2f} |",
        "", f"`uptime` before: `{result['uptime_before']}`", "",
        f"`uptime` after: `{result['uptime_after']}`",
    ]
    return "\n".join(lines)


@register("masking", "Masking: corpus quality, masking rate, capture with masking on vs off", quick=False)
def masking(ctx: Context) -> Outcome:
    result = measure(seconds=1.0 if ctx.quick else 4.0, events=500 if ctx.quick else 2000)
    held = next(q for q in result["quality"] if q["split"] == "heldout")
    problems = [f"{held['missed']} held-out positives left in clear"] if held["missed"] else []
    return Outcome(
        measures=[Measure("capture, masking on", result["capture_on"], "events/s", "masking off", result["capture_off"])],
        tables=[Table("privacy corpus", ["split", "positives", "kinds", "missed", "clean changed %"],
                      [[q["split"], q["positives"], q["kinds"], q["missed"], q["changed_pct"]] for q in result["quality"]])],
        notes=[f"masking rate {result['mask_rate_corpus']:.0f} events/s (corpus), {result['mask_rate_fleet']:.0f} (fleet)"],
        problems=problems,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.masking", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each masking-rate measure")
    parser.add_argument("--events", type=int, default=2000, help="events captured with masking on, and off")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    result = measure(args.seconds, args.events)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
