"""The command line: ``reverie demo`` for real (its own local service, the bundled fleet sample over
HTTP, consolidation, mining, retrieval), and ``reverie store stats`` on the store it leaves."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from reverie.cli import app, console
from serving import MINILM_NAMESPACE

runner = CliRunner()
SECRETS = (b"AKIAIOSFODNN7EXAMPLE", b"dana.kim@example.com", b"555 0134")


def _summary(output: str) -> dict[str, str]:
    """The rows of the demo's summary table: label -> value."""
    rows = re.findall(r"^\W*│ (.+?) +│ +(.+?) │$", output, flags=re.MULTILINE)
    return {label.strip(): value.strip() for label, value in rows}


def _pair(value: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", value))


def test_the_demo_runs_the_fleet_sample_end_to_end_and_its_numbers_agree(
        serve_session: int, embedding_service: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo joins the session's Ray and Serve (``--port``: the app is deployed beside the others
    and deleted at the end) and, through its namespace, the session's MiniLM embedding service, which
    it finds running and leaves so; everything else it starts is its own, as under `reverie demo`."""
    monkeypatch.setattr(console, "width", 220)  # not COLUMNS: a pytest-xdist worker sets it before the import
    monkeypatch.setenv("REVERIE_ACTORS__NAMESPACE", MINILM_NAMESPACE)
    store = tmp_path / "store"
    result = runner.invoke(app, ["demo", "--data", str(store), "--port", str(serve_session)])
    assert result.exit_code == 0, result.output
    assert "Reverie is serving http://127.0.0.1:" in result.output and "the service is stopped" in result.output
    summary = _summary(result.output)
    agents, sessions, events = _pair(summary["agents / sessions / events captured"])
    assert (agents, sessions, events) == (4, 18, 53)
    assert summary["events with a secret or personal data masked before writing"] == "3"
    assert summary["events quarantined (text that tries to instruct)"] == "1"
    raw, active = _pair(summary["raw log lines before -> active notes after"])
    assert raw == events and 0 < active < events / 2
    statuses = dict((s.split()[0], int(s.split()[1])) for s in summary["notes by status"].split(", "))
    assert statuses["active"] == active and statuses["quarantined"] == 1 and statuses["superseded"] >= 1
    superseded, questions = _pair(summary["conflicts resolved: superseded / open questions"])
    assert superseded == statuses["superseded"] and questions >= 1
    promoted, _ = _pair(summary["patterns promoted / waiting for a reviewer"])
    assert promoted >= 1
    nodes, edges = _pair(summary["team knowledge graph: nodes / edges written"])
    assert nodes > 0 and edges > 0
    memory, whole_log = _pair(summary["tokens per question: Reverie's memory block vs the asker's whole raw log"])
    assert 0 < memory < whole_log
    assert "[pattern · project:atlas" in result.output  # the newcomer gets what three teammates learned
    assert "rounded to 4 decimals" not in result.output  # the superseded note is never returned
    assert not any(s in p.read_bytes() for p in store.rglob("*") if p.is_file() for s in SECRETS)
    stats = runner.invoke(app, ["store", "stats", "--data", str(store)])
    assert stats.exit_code == 0 and "events" in stats.output and str(events) in stats.output
