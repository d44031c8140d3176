"""Rendering benchmark results (the JSON the runner writes) into BENCHMARKS.md.

Each entry owns one section between ``<!-- bench:<name> -->`` and ``<!-- /bench:<name> -->``;
rendering replaces what is between the markers and leaves everything else (the prose around the
sections) alone. A section that is not in the file yet is appended at the end.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown_table(columns: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _measures(measures: list[dict[str, Any]]) -> str:
    rows = [[m["name"], m["value"], m["unit"], m["baseline"], m["baseline_value"], m["ratio"]] for m in measures]
    return markdown_table(["measure", "value", "unit", "baseline (same run)", "baseline value", "ratio"], rows)


def render_entry(entry: dict[str, Any], run: dict[str, Any]) -> str:
    """One entry's section: header line, measures, tables, notes, problems."""
    m = run["machine"]
    outcome = entry["outcome"]
    parts = [
        f"### {entry['title']}",
        f"`{run['command']}` — {run['started_at']}, {m['cores']} cores, {m['memory_gib']} GiB, "
        f"Python {m['python']} — status **{entry['status']}**, {entry['seconds']} s, "
        f"peak RSS {entry['peak_mib']} MiB ({entry['memory_scope']})",
    ]
    if outcome["measures"]:
        parts.append(_measures(outcome["measures"]))
    parts += [f"**{t['title']}**\n\n" + markdown_table(t["columns"], t["rows"]) for t in outcome["tables"]]
    parts += [f"- {note}" for note in outcome["notes"]]
    parts += [f"- **problem:** {p}" for p in outcome["problems"]]
    if entry.get("error"):
        parts.append("- **failed:** " + entry["error"].strip().splitlines()[-1])
    return "\n\n".join(parts)


def update_document(document: str, run: dict[str, Any]) -> str:
    """The document with each entry of the run rendered into its section."""
    for entry in run["entries"]:
        document = _with_entry(document, entry, run)
    return document


def _with_entry(document: str, entry: dict[str, Any], run: dict[str, Any]) -> str:
    """The document with this entry's section replaced, or appended when it has none yet."""
    start, end = f"<!-- bench:{entry['name']} -->", f"<!-- /bench:{entry['name']} -->"
    body = f"{start}\n{render_entry(entry, run)}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if pattern.search(document):
        return pattern.sub(lambda _: body, document)
    return document.rstrip("\n") + "\n\n" + body + "\n"


def render(results: Path, target: Path) -> None:
    """Render one results JSON into the markdown file ``target`` (created if missing)."""
    run = json.loads(results.read_text())
    document = target.read_text() if target.exists() else "# Benchmarks\n"
    target.write_text(update_document(document, run))
