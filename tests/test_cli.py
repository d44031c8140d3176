from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from reverie.cli import app

runner = CliRunner()


def test_demo_captures_the_bundled_sample_and_shows_the_store(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "--data", str(tmp_path / "store")])
    assert result.exit_code == 0, result.output
    for agent in ("coder-1", "tester-1", "reviewer-1"):
        assert agent in result.output
    assert "masked before writing: 3" in result.output
    stats = runner.invoke(app, ["store", "stats", "--data", str(tmp_path / "store")])
    assert stats.exit_code == 0 and "events" in stats.output and "39" in stats.output
    assert "AKIAIOSFODNN7EXAMPLE".encode() not in b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
