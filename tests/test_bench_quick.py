"""The benchmark harness: ``python -m bench --quick`` end to end on small data, the runner's failure
handling and the BENCHMARKS.md renderer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.__main__ import main
from bench.registry import Benchmark, Context, Outcome, discover
from bench.report import update_document
from bench.runner import run_all
from eval_samples import write_locomo_sample
from reverie.settings import Settings


def test_quick_run_end_to_end_writes_results_and_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("REVERIE_EMBEDDING__PROVIDER", "hash")
    target = tmp_path / "BENCHMARKS.md"
    target.write_text("# Benchmarks\n\nprose kept\n\n<!-- bench:fleet -->\nold\n<!-- /bench:fleet -->\n\ntail kept\n")
    # The reverie arm's own end-to-end test (tests/test_eval_arms.py) starts a service; here the harness
    # runs the arms that need none, which is what --quick checks: entries, invariants, JSON, rendering.
    code = main(["--quick", "--locomo", str(write_locomo_sample(tmp_path)), "--results", str(tmp_path / "out"),
                 "--arms", "off,raw,raw-hybrid", "--render", str(target)])
    assert code == 0, capsys.readouterr().out
    run = json.loads((tmp_path / "out" / "latest-quick.json").read_text())
    assert run["mode"] == "quick" and run["machine"]["cores"] >= 1
    entries = {e["name"]: e for e in run["entries"]}
    assert {"fleet", "locomo"} <= set(entries)
    for name in ("fleet", "locomo"):
        assert entries[name]["status"] == "ok" and entries[name]["peak_mib"] > 0
        assert entries[name]["outcome"]["measures"] and entries[name]["outcome"]["problems"] == []
    assert all(m["ratio"] is not None for m in entries["locomo"]["outcome"]["measures"])
    document = target.read_text()
    assert "prose kept" in document and "tail kept" in document and "\nold\n" not in document
    assert document.count("<!-- bench:fleet -->") == 1 and "<!-- bench:locomo -->" in document
    assert "heldout: retrieval" in document and "evidence recall %" in document


def _entry(name: str, outcome: Outcome | None = None, error: bool = False) -> Benchmark:
    def run(ctx: Context) -> Outcome:
        if error:
            raise RuntimeError("boom")
        return outcome or Outcome()
    return Benchmark(name, name.title(), run)


def test_a_failing_entry_is_reported_and_the_others_still_run(tmp_path: Path) -> None:
    ctx = Context("quick", Settings(), tmp_path)
    result = run_all([_entry("bad", error=True), _entry("leaky", Outcome(problems=["leaks = 1"])), _entry("fine")],
                     ctx, "python -m bench")
    assert [e.status for e in result.entries] == ["failed", "problems", "ok"]
    assert "RuntimeError: boom" in (result.entries[0].error or "")
    assert [e.name for e in result.failed] == ["bad", "leaky"]
    rendered = update_document("# B\n", result.as_dict())
    assert "**failed:** RuntimeError: boom" in rendered and "**problem:** leaks = 1" in rendered


def test_registry_lists_entries_and_refuses_unknown_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert {"fleet", "locomo"} <= set(discover())
    assert main(["--list"]) == 0
    assert "locomo" in capsys.readouterr().out
    assert main(["--only", "nonexistent"]) == 2
