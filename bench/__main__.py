"""``python -m bench``: run the performance and quality suite, write JSON, optionally render BENCHMARKS.md.

    python -m bench --quick                 # CI: the harness works and the invariants hold (< 5 min)
    python -m bench --render                # full run, tables written into BENCHMARKS.md
    python -m bench --only locomo --locomo ../shared/data/locomo10.json
    python -m bench --from-json bench/results/latest-full.json --render
    python -m bench --list

Exit status 1 when an entry fails or breaks an invariant (a leak, a surfaced secret, a rate out of range).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from bench.registry import Context, discover
from bench.report import render
from bench.runner import RunResult, run_all, write_result
from reverie.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes, quick entries only (CI)")
    p.add_argument("--only", action="append", default=[], metavar="NAME", help="run only this entry (repeatable)")
    p.add_argument("--locomo", metavar="PATH", help="path of locomo10.json")
    p.add_argument("--arms", default="", help="only these arms, comma-separated (e.g. off,raw; default: every arm, "
                   "reverie included; the baselines always run)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an entry's own option (repeatable), e.g. locomo_captions=0 item_overhead=0")
    p.add_argument("--results", type=Path, default=ROOT / "bench" / "results", help="folder for the JSON results")
    p.add_argument("--render", nargs="?", const=ROOT / "BENCHMARKS.md", type=Path, metavar="FILE",
                   help="write the tables into BENCHMARKS.md (or FILE)")
    p.add_argument("--from-json", type=Path, metavar="FILE", help="render this results file instead of running")
    p.add_argument("--list", action="store_true", help="list the registered entries and exit")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    registry = discover()
    if args.list:
        print("\n".join(f"{b.name:16} {'quick+full' if b.quick else 'full only':11} {b.title}" for b in registry.values()))
        return 0
    if args.from_json:
        render(args.from_json, args.render or ROOT / "BENCHMARKS.md")
        return 0
    unknown = [n for n in args.only if n not in registry]
    if unknown:
        print(f"unknown entries {unknown}; known: {sorted(registry)}", file=sys.stderr)
        return 2
    chosen = [b for b in registry.values() if (b.name in args.only if args.only else (b.quick or not args.quick))]
    options = dict(o.split("=", 1) for o in args.option if "=" in o)
    options |= {k: v for k, v in (("locomo", args.locomo), ("arms", args.arms)) if v}
    command = "python -m bench " + " ".join(argv if argv is not None else sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as scratch:
        ctx = Context("quick" if args.quick else "full", Settings(), Path(scratch), options)
        with ctx.resources:
            result = run_all(chosen, ctx, command.strip())
    path = write_result(result, args.results)
    _summary(result, path)
    if args.render:
        render(path, args.render)
    return 1 if result.failed else 0


def _summary(result: RunResult, path: Path) -> None:
    for entry in result.entries:
        print(f"{entry.status:8} {entry.name:16} {entry.seconds:8.1f} s  peak {entry.peak_mib:7.1f} MiB")
        for problem in entry.outcome.problems:
            print(f"         problem: {problem}")
        if entry.error:
            print("         " + entry.error.strip().splitlines()[-1])
    print(f"results: {path}")
    print(json.dumps(result.machine))


if __name__ == "__main__":
    raise SystemExit(main())
