"""The explorer page with thousands of notes, in headless Chromium: first render and responsiveness.

    python -m bench.ui                  # 5,000 notes (about 2 min)
    python -m bench.ui --notes 1000
    python -m bench --only ui --render  # the same, as an entry of the suite (full runs only)

A project of ``--notes`` notes (synthetic MiniLM-shaped vectors in Zipf-sized topics, as in
``bench.mining``; 20 agents, sessions of four notes, five modules, one evidence event per note) is
mined once, then served by the real app (Ray Serve, the mining actor) on 127.0.0.1 with an admin key.
Debian's Chromium, driven by Playwright, opens ``/ui/`` and the page's own Performance marks
(``reverie:*``) time it:

- **first visit**: the key submitted to the graph drawn and painted, once (the service builds the
  graph for the first time); **reload**: navigation start to the graph drawn and painted (the page
  reloaded with the key in the tab, median of 3); both against fetching and parsing the same two
  answers (graph with layout, map) in the same page; target ≤ 3 s each at 5,000 notes;
- **map**: the map tab clicked to the map drawn, against fetching the map alone;
- **click to detail**: a real mouse click on a pattern to its statement shown (target ≤ 1 s,
  median), and to its evidence events shown, over 10 patterns, against fetching the note alone. Each
  pattern's place is read just before its click: the detail panel that the first click opens
  narrows the graph (and may move it), so places read beforehand miss;
- **search**: an input event to the matches highlighted and listed (a 120 ms debounce included),
  against scanning the same texts without drawing;
- **pan**: the frame time while panning the drawn graph, against an idle frame of the same page.

Never ``playwright install``: the browser is Debian's (``make install`` installs it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.registry import Context, Measure, Outcome, Table, register

ROOT = Path(__file__).resolve().parents[1]
PROJECT = "explore"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
TARGET_MS = 3000.0  # first visit and reload, each
CLICK_TARGET_MS = 1000.0  # click on a pattern → its statement shown (median)
SEARCHES = ["topic b", "lesson ab", "one-off", "topic zz", "a7"]
DEBOUNCE_MS = 120.0


# --- the project ------------------------------------------------------------------------------------
def seed(settings: Any, n: int) -> dict[str, Any]:
    """``n`` notes and their events in a fresh store, mined once; returns the run's counts."""
    from bench.mining import calibration, synthetic
    from mining.job import MiningJob
    from mining.runs import RunBook
    from reverie.clock import SystemClock
    from reverie.embed import spec_for
    from reverie.store import Store

    store = Store.open(settings.store, spec_for(settings.embedding), SystemClock())
    vectors, labels = synthetic(n, calibration(), seed=7)
    _write(store, vectors, labels)
    state = RunBook(store).create(PROJECT, principal="bench", mode="full", at=store.now(), not_before=store.now())
    started = time.perf_counter()
    done = MiningJob(store, settings.mining, state.run_id).execute()
    stats = done.result["stats"]
    return {"mine_s": round(time.perf_counter() - started, 1), "mapped": stats["notes"], "clusters": stats["clusters"],
            "noise": stats["noise"], "promoted": len(done.result["promoted"]), "candidates": len(done.result["candidates"])}


def _write(store: Any, vectors: Any, labels: Any) -> None:
    from bench.mining import _word
    from reverie.records import Event, Note
    from reverie.store import NoteWrite

    at = store.now()
    writes, events = [], []
    for k, (vector, label) in enumerate(zip(vectors, labels, strict=True)):
        agent, session = f"a{(k // 4) % 20}", f"s{k // 4}"
        statement = f"lesson {_word(k)} of topic {_word(label)}" if label >= 0 else f"one-off lesson {_word(k)}"
        note = Note(
            note_id=f"n{k:06d}", type=("lesson", "preference", "procedure", "constraint")[k % 4],
            subject=f"topic {_word(label)}" if label >= 0 else f"one-off {_word(k)}", statement=statement,
            scope=f"personal:{agent}", owner_agent=agent, project=PROJECT, module=f"m{k % 5}", evidence=[f"e{k}"],
            source_sessions=[session], source_agents=[agent], confidence=0.6, created_at=at, updated_at=at,
        )
        writes.append(NoteWrite(note, "add", vector=vector))
        events.append(Event(event_id=f"e{k}", agent_id=agent, session_id=session, project=PROJECT, module=note.module,
                            ts=at, role="user", text=f"{agent} in {session}: {statement}", ingested_at=at))
    store.events.append(events)
    store.batches.run("local", writes, project=PROJECT)


# --- the service ------------------------------------------------------------------------------------
def settings_in(folder: Path) -> Any:
    from launcher.local import free_port
    from reverie.settings import ActorSettings, AuthSettings, MiningSettings, ServeSettings, Settings, StoreSettings

    return Settings(
        store=StoreSettings(uri=str(folder / "store")),
        auth=AuthSettings(keys_file=folder / "keys.json", requests_per_minute=100_000, burst=100_000),
        serve=ServeSettings(host="127.0.0.1", port=free_port(), app_name="reverie-bench-ui", num_cpus=0.1),
        actors=ActorSettings(namespace=f"bench-ui-{uuid.uuid4().hex[:6]}"), mining=MiningSettings(schedule=False),
    )


@contextmanager
def service(settings: Any) -> Iterator[tuple[str, str]]:
    """The app and the mining actor on a local Ray; yields (url, admin key)."""
    import ray
    from ray import serve as ray_serve

    from mining.loadsignal import load_signal
    from mining.service import mining_service
    from serve.app import start
    from serve.auth.keys import KeysFile

    if ray.is_initialized():
        raise RuntimeError("bench.ui starts its own local Ray; run it in a process without one")
    key = KeysFile(Path(settings.auth.keys_file)).add("bench-admin", "admin", ["*"])
    ray.init(address="local", num_cpus=2, include_dashboard=False, namespace=settings.actors.namespace,
             resources={settings.mining.background_resource: settings.mining.background_slots},
             runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}}, log_to_driver=False)
    try:
        mining = mining_service(settings)
        ray.get(mining.runs.remote())
        url = start(settings)
        yield url, key
        ray_serve.shutdown()
        ray.kill(mining)
        ray.kill(load_signal(settings))
    finally:
        ray.shutdown()


# --- the browser ------------------------------------------------------------------------------------
WAIT_MARK = """async ([name, after]) => {
    for (let i = 0; i < 6000; i++) {
        const found = performance.getEntriesByName('reverie:' + name).filter((m) => m.startTime >= after);
        if (found.length) return found[0].startTime;
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error('no mark ' + name);
}"""
FETCH = """async ([paths, key]) => {
    const started = performance.now();
    await Promise.all(paths.map((p) => fetch(p, { headers: { Authorization: 'Bearer ' + key } }).then((r) => r.json())));
    return performance.now() - started;
}"""
FRAMES = """async (pan) => {
    const cy = window.reverieExplorer.graph.cy;
    const times = [];
    let last = performance.now();
    for (let i = 0; i < 40; i++) {
        if (pan) cy.panBy({ x: i % 2 ? 15 : -15, y: 5 });
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const now = performance.now();
        times.push(now - last);
        last = now;
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
}"""


WHERE = """(id) => {
    const cy = window.reverieExplorer.graph.cy;
    const node = cy.getElementById(id);
    const box = cy.container().getBoundingClientRect();
    let at = node.renderedPosition();
    if (at.x < 12 || at.y < 12 || at.x > box.width - 12 || at.y > box.height - 12) {
        cy.center(node);
        at = node.renderedPosition();
    }
    return [box.left + at.x, box.top + at.y];
}"""


def _mark(page: Any, name: str, after: float = 0.0) -> float:
    return float(page.evaluate(WAIT_MARK, [name, after]))


def _now(page: Any) -> float:
    return float(page.evaluate("performance.now()"))


def first_render(page: Any, url: str, key: str) -> dict[str, Any]:
    page.goto(f"{url}/ui/")
    page.fill("#key-input", key)
    submitted = _now(page)
    page.click("#key-form button")
    first_visit = _mark(page, "graph-drawn", submitted) - submitted
    phase_names = ("key-accepted", "data-requested", "data-loaded", "graph-indexed", "graph-created", "graph-drawn")
    first_phases = {name: round(_mark(page, name, submitted) - submitted, 1) for name in phase_names}
    reloads, drawing, phases = [], [], []
    for _ in range(3):
        page.reload()
        drawn = _mark(page, "graph-drawn")
        reloads.append(drawn)
        loaded = _mark(page, "data-loaded")
        drawing.append(drawn - loaded)
        marks = {name: _mark(page, name) for name in ("data-requested", "graph-indexed", "graph-created")}
        phases.append({"before data": marks["data-requested"], "data": loaded - marks["data-requested"],
                       "index": marks["graph-indexed"] - loaded, "cytoscape": marks["graph-created"] - marks["graph-indexed"],
                       "paint": drawn - marks["graph-created"]})
    paths = [f"/v1/graph?project={PROJECT}&current=true&layout=true", f"/v1/map?project={PROJECT}"]
    data = [page.evaluate(FETCH, [paths, key]) for _ in range(3)]
    return {"first_visit_ms": first_visit, "first_visit_marks_ms": first_phases, "reload_ms": statistics.median(reloads),
            "reloads_ms": reloads,
            "drawing_ms": statistics.median(drawing), "data_ms": statistics.median(data),
            "phases_ms": {k: round(statistics.median(p[k] for p in phases), 1) for k in phases[0]},
            "drawn_elements": int(page.get_attribute("#graph", "data-drawn")),
            "nodes": int(page.get_attribute("#graph", "data-nodes")), "edges": int(page.get_attribute("#graph", "data-edges")),
            "patterns": int(page.text_content("#legend [data-kind='pattern'] .count"))}


def clicks(page: Any, key: str, count: int = 10) -> dict[str, Any]:
    """Real mouse clicks on the most confident patterns: to the statement, and to the evidence."""
    page.evaluate("document.getElementById('graph')"
                  ".addEventListener('mousedown', (e) => { window.benchDown = e.timeStamp; }, true)")
    targets = page.evaluate("""(count) => window.reverieExplorer.graph.cy.nodes('[kind = "pattern"]')
        .sort((a, b) => b.data('confidence') - a.data('confidence')).slice(0, count).map((n) => n.id())""", count)
    detail, evidence, alone = [], [], []
    for node_id in targets:
        x, y = page.evaluate(WHERE, node_id)
        note_id = node_id.removeprefix("pattern:")
        before = _now(page)
        page.mouse.click(x, y)
        down = float(page.evaluate("window.benchDown"))
        detail.append(_mark(page, "detail-shown", before) - down)
        evidence.append(_mark(page, "evidence-shown", before) - down)
        alone.append(page.evaluate(FETCH, [[f"/v1/notes/{note_id}"], key]))
    return {"detail_ms": statistics.median(detail), "detail_max_ms": max(detail),
            "evidence_ms": statistics.median(evidence), "note_fetch_ms": statistics.median(alone), "clicks": len(detail)}


def searches(page: Any) -> dict[str, Any]:
    page.evaluate("document.getElementById('search').addEventListener('input', (e) => { window.benchInput = e.timeStamp; })")
    found, scans = [], []
    for query in SEARCHES:
        before = _now(page)
        page.fill("#search", query)
        done = _mark(page, "search-done", before)
        found.append(done - float(page.evaluate("window.benchInput")))
        scans.append(page.evaluate("""(q) => {
            const words = q.toLowerCase().split(/\\s+/);
            const started = performance.now();
            let hits = 0;
            for (const text of window.reverieExplorer.graph.text.values()) if (words.every((w) => text.includes(w))) hits++;
            return performance.now() - started;
        }""", query))
    page.fill("#search", "")
    return {"search_ms": statistics.median(found), "search_max_ms": max(found), "scan_ms": statistics.median(scans)}


def map_and_frames(page: Any, key: str) -> dict[str, Any]:
    pan = page.evaluate(FRAMES, True)
    idle = page.evaluate(FRAMES, False)
    before = _now(page)
    page.click("#tabs [data-tab='map']")
    drawn = _mark(page, "map-drawn", before) - before
    alone = page.evaluate(FETCH, [[f"/v1/map?project={PROJECT}"], key])
    return {"pan_frame_ms": pan, "idle_frame_ms": idle, "map_ms": drawn, "map_fetch_ms": alone,
            "points": int(page.get_attribute("#map", "data-points"))}


def in_browser(url: str, key: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run `make install` (it installs Debian's chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        try:
            found = first_render(page, url, key)
            found |= clicks(page, key)
            found |= searches(page)
            found |= map_and_frames(page, key)
        finally:
            browser.close()
    return found


# --- the entry and the command ------------------------------------------------------------------------
def measure(folder: Path, notes: int) -> dict[str, Any]:
    settings = settings_in(folder)
    mined = seed(settings, notes)
    with service(settings) as (url, key):
        load = os.getloadavg()[0]
        found = in_browser(url, key)
    found["load_average"] = [round(load, 1), round(os.getloadavg()[0], 1)]
    found["reloads_ms"] = [round(v) for v in found["reloads_ms"]]
    return {"notes": notes, **mined, **{k: round(v, 1) if isinstance(v, float) else v for k, v in found.items()}}


def targets(r: dict[str, Any]) -> dict[str, str]:
    """Each target of the explorer (issue 18) with "holds" or "misses"."""
    def verdict(value: float, target: float) -> str:
        return "holds" if value <= target else "misses"

    first = f"≤ {TARGET_MS / 1000:.0f} s"
    return {f"first visit {first}": verdict(r["first_visit_ms"], TARGET_MS),
            f"reload {first}": verdict(r["reload_ms"], TARGET_MS),
            f"click → statement ≤ {CLICK_TARGET_MS / 1000:.0f} s (median)": verdict(r["detail_ms"], CLICK_TARGET_MS)}


def outcome(r: dict[str, Any]) -> Outcome:
    n = f"{r['notes']:,} notes"
    measures = [
        Measure(f"first visit, {n} (key submitted → graph painted)", r["first_visit_ms"], "ms",
                "fetch + parse of its data", r["data_ms"]),
        Measure("reload (navigation → graph painted, median of 3)", r["reload_ms"], "ms",
                "fetch + parse of its data", r["data_ms"]),
        Measure("map tab → map drawn", r["map_ms"], "ms", "fetch + parse of the map", r["map_fetch_ms"]),
        Measure("click on a pattern → statement shown (median)", r["detail_ms"], "ms",
                "fetch of the note alone", r["note_fetch_ms"]),
        Measure("click on a pattern → evidence shown (median)", r["evidence_ms"], "ms",
                "fetch of the note alone", r["note_fetch_ms"]),
        Measure("search input → matches drawn (median, 120 ms debounce incl.)", r["search_ms"], "ms",
                "the debounce alone", DEBOUNCE_MS),
        Measure("frame while panning (median)", r["pan_frame_ms"], "ms", "idle frame", r["idle_frame_ms"]),
    ]
    notes = [
        f"graph: {r['nodes']:,} nodes ({r['patterns']} patterns), {r['edges']:,} edges; map: {r['points']:,} points; "
        f"mining the project took {r['mine_s']} s ({r['clusters']} clusters, {r['noise']} noise)",
        "targets: " + "; ".join(f"{name}: {verdict}" for name, verdict in targets(r).items())
        + f" (reloads {r['reloads_ms']} ms; drawing alone {r['drawing_ms']} ms)",
        f"search: scanning the texts alone {r['scan_ms']} ms, slowest search {r['search_max_ms']} ms; "
        f"slowest click to detail {r['detail_max_ms']} ms over {r['clicks']} clicks",
        f"reload by phase (ms, median): {r['phases_ms']}; first visit, the page's marks (ms after the key was submitted): "
        f"{r['first_visit_marks_ms']}; drawn at first: {r['drawn_elements']} elements",
        f"load average of the machine (1 min) at the start and the end of the browser part: {r['load_average']} "
        f"on {os.cpu_count()} cores",
    ]
    problems = ([] if r["points"] == r["mapped"]
                else [f"the map shows {r['points']} points for the {r['mapped']} notes mining placed"])
    table = Table("Explorer timings (ms)", ["notes", "first visit", "reload", "data alone", "map", "click → detail",
                                            "click → evidence", "search", "pan frame"],
                  [[r["notes"], r["first_visit_ms"], r["reload_ms"], r["data_ms"], r["map_ms"], r["detail_ms"],
                    r["evidence_ms"], r["search_ms"], r["pan_frame_ms"]]])
    return Outcome(measures=measures, tables=[table], notes=notes, problems=problems)


@register("ui", "Explorer (issue 7): first render and responsiveness in headless Chromium", quick=False)
def ui(ctx: Context) -> Outcome:
    notes = int(ctx.options.get("ui_notes", "5000"))
    return outcome(measure(ctx.workdir / "ui", notes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reverie-bench-ui-") as tmp:
        found = measure(Path(tmp), args.notes)
    found["targets"] = targets(found)
    found |= {"command": f"python -m bench.ui --notes {args.notes}", "date": datetime.now(UTC).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}, "
                         f"load {os.getloadavg()}"}
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "ui.json").write_text(json.dumps(found, indent=1))
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
