"""The analysts' explorer against a real app with a mined project: the graph, map and review routes
by role, the static page and its Content-Security-Policy, the page itself in headless Chromium
(graph, evidence, map, review, timeline and rollback, untrusted text never run; both canvases
painted after every switch of tab, resize and switch of project, clusters named, no two labels
overlapping), and the PNG exports of the command line."""

from __future__ import annotations

import re
import struct
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import networkx as nx
import pytest
import ray
from playwright.sync_api import Browser, Page
from typer.testing import CliRunner

from browser import chromium, screenshot_path
from explorer_data import PAYLOAD, PROJECT, SECOND, Mined, mined_project
from mining.loadsignal import load_signal
from mining.service import mining_service
from mining_data import LESSONS, pattern_of, team_scenario
from reverie.cli import app as cli
from reverie.clock import ManualClock
from reverie.embed import Embedder
from reverie.errors import NotFoundError
from reverie.store import NoteFilter
from serve.routes.ui import UI_DIR
from serving import ROLES, Served, served, served_settings

#: The notes mining places on the map: the planted note too; never the quarantined one, nor a personal
#: preference (its owner's own, never team experience).
NOTES = 1 + sum(1 for s in team_scenario() if not (LESSONS[s.group]["type"] == "preference" and s.scope is None))
#: An analyst of both mined projects (the page's project switch).
TWO_PROJECTS = {**ROLES, "ana-two": ("analyst", [PROJECT, SECOND])}
UI_FILES = [UI_DIR / "index.html", *sorted(p for p in (UI_DIR / "assets").glob("*.*") if p.suffix in (".js", ".css"))]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory, minilm: Embedder) -> Mined:
    return mined_project(tmp_path_factory.mktemp("explorer") / "store", minilm, ManualClock())


@pytest.fixture(scope="module")
def app(ray_session: None, mined: Mined) -> Iterator[Served]:
    settings = served_settings(
        Path(mined.store.uri).parent, embedding={"provider": "minilm"}, mining={"schedule": False},
        actors={"namespace": f"t-ui-{uuid.uuid4().hex[:8]}"},
    )
    handle = mining_service(settings)  # it starts while Serve does
    try:
        with served(settings, TWO_PROJECTS) as running:
            ray.get(handle.runs.remote())
            yield running
    finally:
        ray.kill(handle)
        ray.kill(load_signal(settings))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as found:
        yield found


def _get(app: Served, who: str, path: str, **params: Any) -> Any:
    with app.client(who) as client:
        response = client.get(path, params=params)
    assert response.status_code == 200, (path, response.status_code, response.text)
    return response.json()


# --- the routes the page reads ---------------------------------------------------------------------
def test_graph_and_map_show_personal_notes_to_admins_only(app: Served, mined: Mined) -> None:
    analyst = _get(app, "ana-atlas", "/v1/graph", project=PROJECT, current=True, layout=True)
    admin = _get(app, "admin", "/v1/graph", project=PROJECT, current=True)
    patterns = {f"pattern:{p.note_id}" for p in mined.patterns()}
    assert {n["id"] for n in analyst["nodes"] if n["kind"] == "pattern"} == patterns
    assert not [n for n in analyst["nodes"] if n["kind"] == "note" and n["scope"].startswith("personal:")]
    assert [n for n in admin["nodes"] if n["kind"] == "note" and n["scope"].startswith("personal:")]
    assert all(0 <= n["x"] <= 1000 and 0 <= n["y"] <= 1000 for n in analyst["nodes"])
    points = _get(app, "ana-atlas", "/v1/map", project=PROJECT)["points"]
    assert len(points) == NOTES
    hidden = [p for p in points if p["scope"] == "personal"]
    assert hidden and all(p["note_id"] is None and p["statement"] is None and p["subject"] is None for p in hidden)
    shown = _get(app, "admin", "/v1/map", project=PROJECT)["points"]
    assert all(p["statement"] for p in shown) and {p["cluster"] for p in shown} == {p["cluster"] for p in points}
    # cluster names: an admin's from every member; an analyst's only from notes an analyst may read
    assert all(p["name"] for p in shown if p["cluster"] >= 0)
    readable = {w for p in points if p["statement"] for w in re.findall(r"[a-z]+", p["statement"].lower())}
    names = [p["name"] for p in points if p["name"]]
    names += [n.get("name") for n in analyst["nodes"] if n["kind"] == "pattern" and n.get("name")]
    assert all(set(n.split(", ")) <= readable for n in names), names


def test_graph_routes_refuse_what_the_key_may_not_read(app: Served, mined: Mined) -> None:
    with app.client("ana-atlas") as analyst, app.client("coder-1") as agent:
        assert agent.get("/v1/graph", params={"project": PROJECT}).status_code == 403
        assert analyst.get("/v1/graph", params={"project": "orion"}).status_code == 403
        assert analyst.get("/v1/graph").json()["error"]["field"] == "project"
        assert analyst.get("/v1/map", params={"project": "orion"}).status_code == 403
        assert analyst.get("/v1/review", params={"project": PROJECT}).status_code == 403
        graphml = analyst.get("/v1/graph.graphml", params={"project": PROJECT})
        subject = pattern_of(mined.store, mined.run, 0).subject
        near = analyst.get(f"/v1/graph/subjects/{subject}", params={"project": PROJECT})
        me = analyst.get("/v1/whoami").json()
    assert graphml.headers["content-type"].startswith("application/graphml+xml")
    full = _get(app, "ana-atlas", "/v1/graph", project=PROJECT)
    assert nx.parse_graphml(graphml.text).number_of_nodes() == len(full["nodes"])
    assert near.status_code == 200 and any(n["kind"] == "pattern" for n in near.json()["nodes"])
    assert me == {"principal": "ana-atlas", "role": "analyst", "projects": ["atlas"],
                  "actions": sorted(["notes.read", "events.read", "batches.read", "mining.read", "graph.read", "metrics.read"])}


def test_review_decisions_check_the_body_and_the_item(app: Served) -> None:
    with app.client("rev-atlas") as reviewer:
        items = reviewer.get("/v1/review", params={"project": PROJECT}).json()["items"]
        assert items and all(i["status"] == "pending" and i["pattern"]["type"] == "pattern" for i in items)
        assert reviewer.post(f"/v1/review/{items[0]['item_id']}", json={"decision": "reject", "reason": ""}).status_code == 422
        assert reviewer.post(f"/v1/review/{items[0]['item_id']}", json={"decision": "maybe", "reason": "x"}).status_code == 422
        assert reviewer.post("/v1/review/r-nothing", json={"decision": "approve", "reason": "ok"}).status_code == 404


# --- the page --------------------------------------------------------------------------------------
def test_the_page_is_static_public_and_locked_down(app: Served) -> None:
    with httpx.Client(base_url=app.url, timeout=30) as anonymous:
        moved = anonymous.get("/ui")
        page = anonymous.get("/ui/")
        script = anonymous.get("/ui/assets/explorer.js")
        library = anonymous.get("/ui/assets/vendor/cytoscape-3.35.0.esm.min.mjs")
        assert anonymous.get("/ui/assets/../keys.json").status_code == 404
        assert anonymous.get("/ui/assets/nothing.js").status_code == 404
        assert anonymous.get("/v1/graph", params={"project": PROJECT}).status_code == 401
        assert anonymous.get("/v1/map", params={"project": PROJECT}).status_code == 401
    assert moved.status_code == 308 and moved.headers["location"] == "/ui/"
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe" not in csp
    assert script.headers["content-type"].startswith("text/javascript") and library.status_code == 200
    assert "immutable" in library.headers["cache-control"] and "immutable" not in script.headers["cache-control"]
    assert PROJECT not in page.text
    for path in UI_FILES:  # our own files: no other host, no HTML parsed from strings, no inline code
        text = path.read_text()
        assert not re.search(r"https?://", text), path
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(", text), path
    html = (UI_DIR / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and not re.search(r"<[^>]*\son[a-z]+\s*=", html)


def _open(browser: Browser, app: Served, who: str, problems: list[str], where: str = "") -> Page:
    context = browser.new_context(viewport={"width": 1500, "height": 950})
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: problems.append(f"console: {message.text} ({message.location['url']})")
            if message.type == "error" else None)
    page.goto(f"{app.url}/ui/{where}")
    assert page.is_visible("#key-form") and not page.is_visible("#views")
    page.fill("#key-input", app.keys[who])
    page.click("#key-form button")
    return page


def _on_graph(page: Page, node_id: str) -> tuple[float, float]:
    """Where a node of the graph is drawn (client coordinates), from cytoscape."""
    found = page.evaluate(
        """(id) => {
            const cy = window.reverieExplorer.graph.cy;
            const box = cy.container().getBoundingClientRect();
            const at = cy.getElementById(id).renderedPosition();
            return [box.left + at.x, box.top + at.y];
        }""",
        node_id,
    )
    return float(found[0]), float(found[1])


def _on_map(page: Page, index: int) -> tuple[float, float]:
    found = page.evaluate("(i) => window.reverieExplorer.map.screenPoint(i)", index)
    return float(found[0]), float(found[1])


def _not_run(page: Page) -> None:
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#detail img, #tooltip img, #detail script, #tooltip script").count() == 0


def test_the_explorer_in_a_browser_graph_evidence_map_review(app: Served, mined: Mined, browser: Browser) -> None:
    problems: list[str] = []
    page = _open(browser, app, "rev-atlas", problems)
    page.wait_for_selector("#graph[data-ready='true']")
    assert page.text_content("#legend [data-kind='pattern'] .count") == str(len(mined.patterns()))
    page.screenshot(path=screenshot_path("graph"))

    pattern = pattern_of(mined.store, mined.run, 0)
    page.mouse.click(*_on_graph(page, f"pattern:{pattern.note_id}"))
    page.wait_for_selector("#detail-statement")
    assert page.text_content("#detail-statement") == pattern.statement
    page.wait_for_selector("#evidence .event")
    page.wait_for_selector("#detail .batches li")
    texts = page.locator("#evidence .event .text").all_text_contents()
    assert len(texts) == len(pattern.evidence) and any(PAYLOAD in t for t in texts)  # shown as text
    _not_run(page)
    page.screenshot(path=screenshot_path("pattern-detail"))

    page.click("#tabs [data-tab='map']")
    page.wait_for_selector("#map[data-ready='true']")
    points = _get(app, "rev-atlas", "/v1/map", project=PROJECT)["points"]
    assert page.get_attribute("#map", "data-points") == str(len(points)) == str(NOTES)
    noise = sum(1 for p in points if p["cluster"] < 0)
    assert page.text_content("#map-legend [data-legend='noise'] .count") == str(noise)
    xs = [_on_map(page, i)[0] for i in range(len(points))]
    on_map = list(zip(xs, points, strict=True))
    assert min(x for x, p in on_map if p["cluster"] < 0) > max(x for x, p in on_map if p["cluster"] >= 0)
    planted = next(i for i, p in enumerate(points) if p["note_id"] == mined.planted.note_id)
    page.mouse.move(*_on_map(page, planted))
    page.wait_for_selector("#tooltip:not([hidden])")
    assert PAYLOAD in page.text_content("#tooltip .statement")
    page.screenshot(path=screenshot_path("map"))
    page.mouse.click(*_on_map(page, planted))
    page.wait_for_function("(text) => document.querySelector('#detail-statement')?.textContent === text",
                           arg=mined.planted.statement)
    _not_run(page)

    page.click("#tabs [data-tab='review']")
    page.wait_for_selector("#review-list[data-items]")
    pending = _get(app, "rev-atlas", "/v1/review", project=PROJECT)["items"]
    assert page.locator("#review-list .card").count() == len(pending) > 0
    item = pending[0]["item_id"]
    card = page.locator(f"#review-list [data-item='{item}']")
    card.locator(".reason").fill("seen in three sessions; right")
    card.locator("button.approve").click()
    page.wait_for_selector(f"#review-list [data-item='{item}'][data-status='approved']")
    items = _get(app, "rev-atlas", "/v1/review", project=PROJECT, status="all")["items"]
    decided = next(i for i in items if i["item_id"] == item)
    assert (decided["status"], decided["reviewer"], decided["decision_reason"]) == (
        "approved", "rev-atlas", "seen in three sessions; right",
    )
    assert decided["pattern"]["status"] == "active"
    page.screenshot(path=screenshot_path("review"))
    assert problems == [], problems


# --- painted canvases, names and labels ------------------------------------------------------------
#: [points of the map whose centre pixel is painted, points]: read back from the map's canvas.
MAP_INK = """() => {
    const map = window.reverieExplorer.map;
    const canvas = map.canvas;
    if (!canvas.width || !canvas.clientWidth) return [0, map.points.length];
    const ratio = canvas.width / canvas.clientWidth;
    const ctx = canvas.getContext('2d');
    let inked = 0;
    map.points.forEach((_, i) => {
        const [x, y] = map.toScreen(map.xs[i], map.ys[i]);
        if (ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data[3] > 0) inked += 1;
    });
    return [inked, map.points.length];
}"""
#: [drawn nodes of the graph with a painted pixel at their centre on one of cytoscape's canvases, drawn nodes].
GRAPH_INK = """() => {
    const cy = window.reverieExplorer.graph.cy;
    const layers = [...cy.container().querySelectorAll('canvas')].filter((c) => c.width && c.clientWidth)
        .map((c) => [c.width / c.clientWidth, c.getContext('2d')]);
    const nodes = cy.nodes(':visible');
    let inked = 0;
    nodes.forEach((node) => {
        const at = node.renderedPosition();
        const ink = ([ratio, ctx]) => ctx.getImageData(Math.round(at.x * ratio), Math.round(at.y * ratio), 1, 1).data[3] > 0;
        if (layers.some(ink)) inked += 1;
    });
    return [inked, nodes.length];
}"""
#: The label boxes cytoscape itself computes for every node drawn with a label (rendered pixels).
GRAPH_LABELS = """() => window.reverieExplorer.graph.cy.nodes(':visible').filter((n) => n.pstyle('label').strValue).map((n) => {
    const b = n.renderedBoundingBox({
        includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false, includeUnderlays: false,
    });
    return { text: n.pstyle('label').strValue, left: b.x1, top: b.y1, right: b.x2, bottom: b.y2 };
})"""


def _painted(page: Page, view: str) -> None:
    """Wait until most points of the map, or nodes of the graph, are painted (5 s at most)."""
    ink = MAP_INK if view == "map" else GRAPH_INK
    page.wait_for_selector(f"#{view}[data-ready='true']")
    page.wait_for_function(f"() => {{ const [inked, all] = ({ink})(); return all > 0 && inked >= 0.8 * all; }}", timeout=5000)


def _show(page: Page, tab: str) -> None:
    page.click(f"#tabs [data-tab='{tab}']")
    _painted(page, tab)


def _overlapping(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]]


def _graph_labels(page: Page) -> list[dict[str, Any]]:
    """The graph's drawn labels once placed for the zoom (placement waits for a zoom to settle)."""
    page.wait_for_function("() => window.reverieExplorer.graph.labelTimer === null")
    return list(page.evaluate(GRAPH_LABELS))


def _map_labels(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate("window.reverieExplorer.map.labels"))


def _names(points: list[dict[str, Any]]) -> dict[int, str]:
    return {p["cluster"]: p["name"] for p in points if p["cluster"] >= 0 and p["name"]}


def test_both_canvases_are_painted_after_every_switch_resize_and_project(app: Served, browser: Browser) -> None:
    problems: list[str] = []
    page = _open(browser, app, "ana-two", problems)
    _painted(page, "graph")
    for tab in ("map", "graph", "map"):
        _show(page, tab)
    # atlas's clusters hold personal notes only: an analyst gets no name, and the legend says why
    assert "personal notes" in page.text_content("#map-legend [data-legend='unnamed']")
    unnamed = page.locator("#map-legend li[data-cluster] .unnamed").all_text_contents()
    assert all(row.endswith("(personal notes only)") for row in unnamed)
    page.set_viewport_size({"width": 1200, "height": 800})
    _painted(page, "map")
    _show(page, "graph")
    _show(page, "map")
    page.select_option("#project", SECOND)  # on the map: drawn again for the other project
    page.wait_for_function("(n) => document.querySelector('#map').dataset.points === String(n)", arg=len(_map_points(app)))
    _painted(page, "map")
    _show(page, "graph")
    _show(page, "map")
    assert problems == [], problems


def _map_points(app: Served, who: str = "ana-two", project: str = SECOND) -> list[dict[str, Any]]:
    return list(_get(app, who, "/v1/map", project=project)["points"])


def test_an_analyst_reads_named_clusters_apart_on_the_map_and_the_graph(app: Served, browser: Browser) -> None:
    problems: list[str] = []
    page = _open(browser, app, "ana-two", problems, f"#project={SECOND}&tab=map")
    _painted(page, "map")
    points = _map_points(app)
    names = _names(points)
    assert len(names) == 2 and len(set(names.values())) == 2  # mining named both lessons, from shared notes
    legend = page.locator("#map-legend li[data-cluster] .name").all_text_contents()
    assert sorted(legend) == sorted(names.values()) and page.locator("#map-legend [data-legend='unnamed']").count() == 0
    labels = _map_labels(page)
    assert {label["text"] for label in labels if label["cluster"] is not None} == set(names.values())
    assert labels and _overlapping(labels) == []
    page.screenshot(path=screenshot_path("analyst-map"))
    # hovering a point highlights its cluster (map and legend); clicking it names its cluster in the detail
    member = next(i for i, p in enumerate(points) if p["cluster"] >= 0)
    page.mouse.move(*_on_map(page, member))
    cluster = points[member]["cluster"]
    page.wait_for_selector(f"#map[data-highlight='{cluster}']")
    assert page.get_attribute(f"#map-legend li[data-cluster='{cluster}']", "class") == "active"
    page.screenshot(path=screenshot_path("analyst-map-hover"))
    page.mouse.click(*_on_map(page, member))
    page.wait_for_function("(name) => document.querySelector('#detail-name')?.textContent === name", arg=names[cluster])
    radii = page.evaluate("async () => { const { pointRadius } = await import('./assets/map.js');"
                          " return [pointRadius(20, 4e5), pointRadius(5000, 4e5)]; }")
    assert radii[0] > radii[1] >= 1.5  # points sized for how many are drawn

    _show(page, "graph")
    graph = _get(app, "ana-two", "/v1/graph", project=SECOND, current=True, layout=True)
    patterns = {n["name"] for n in graph["nodes"] if n["kind"] == "pattern"}
    assert patterns == set(names.values())
    drawn = _graph_labels(page)
    assert patterns <= {label["text"] for label in drawn} and _overlapping(drawn) == []  # patterns by name, apart
    page.screenshot(path=screenshot_path("analyst-graph"))
    assert problems == [], problems


def _drawn(page: Page, kind: str) -> int:
    return int(page.evaluate("(kind) => window.reverieExplorer.graph.cy.nodes(`[kind = \"${kind}\"]`).length", kind))


def test_a_large_graph_starts_from_its_patterns_and_draws_neighbourhoods_on_demand(
    app: Served, mined: Mined, browser: Browser,
) -> None:
    problems: list[str] = []
    page = _open(browser, app, "admin", problems, f"#project={PROJECT}&tab=graph&detail=overview")  # as if it were large
    page.wait_for_selector("#graph[data-ready='true']")
    patterns = len(mined.patterns())
    assert page.get_attribute("#graph", "data-drawn") == str(patterns) == str(_drawn(page, "pattern"))
    assert _drawn(page, "note") == 0 and "(0 drawn)" in page.text_content("#legend [data-kind='note']")
    nodes = _get(app, "admin", "/v1/graph", project=PROJECT, current=True)["nodes"]
    named = {n["id"]: n["name"] for n in nodes if n["kind"] == "pattern"}
    labels = _graph_labels(page)
    texts = [label["text"] for label in labels]  # patterns by their names, as many as fit apart
    assert set(texts) <= set(named.values()) and len(texts) >= 3 and _overlapping(labels) == []
    pattern = pattern_of(mined.store, mined.run, 0)
    page.mouse.click(*_on_graph(page, f"pattern:{pattern.note_id}"))
    page.wait_for_selector("#detail-statement")
    assert page.text_content("#detail-name") == named[f"pattern:{pattern.note_id}"]
    assert _overlapping(_graph_labels(page)) == []  # its neighbourhood drawn and labelled too
    assert _drawn(page, "note") == 3 and _drawn(page, "session") == 3 and _drawn(page, "subject") == 1  # its neighbourhood
    member = next(n for n in mined.store.notes.list(NoteFilter(project=PROJECT), limit=1000).notes
                  if n.note_id.startswith("n-atlas-06-1"))
    page.fill("#search", member.note_id)
    page.wait_for_function("() => document.querySelector('#search-count').textContent === '1 found (0 drawn)'")
    page.click("#search-results button")
    page.wait_for_function("(text) => document.querySelector('#detail-statement')?.textContent === text", arg=member.statement)
    assert _drawn(page, "note") == 4
    page.check(".show-kind[data-kinds='session']")
    graph = _get(app, "admin", "/v1/graph", project=PROJECT, current=True)
    assert _drawn(page, "session") == sum(1 for n in graph["nodes"] if n["kind"] == "session")
    page.screenshot(path=screenshot_path("graph-overview"))
    assert problems == [], problems


def test_the_timeline_rolls_a_batch_back_for_an_admin_after_confirmation(app: Served, mined: Mined, browser: Browser) -> None:
    with app.client("rev-atlas") as reviewer:
        item = reviewer.get("/v1/review", params={"project": PROJECT}).json()["items"][-1]
        rejected = reviewer.post(f"/v1/review/{item['item_id']}", json={"decision": "reject", "reason": "one agent only"}).json()
    problems: list[str] = []
    page = _open(browser, app, "admin", problems)
    page.wait_for_selector("#graph[data-ready='true']")
    page.click("#tabs [data-tab='timeline']")
    page.wait_for_selector("#timeline[data-batches]")
    assert page.locator("#timeline .batch.mining").count() >= 1
    assert f"found.promoted: {len(mined.run.result['promoted'])}" in page.text_content("#timeline .batch.mining .stats")
    page.check("#timeline-kinds input[data-kind='edit']")
    row = page.locator(f"#timeline [data-batch='{rejected['batch_id']}']")
    dialogs: list[str] = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    row.locator("button.rollback").click()
    page.wait_for_selector(f"#timeline [data-batch='{rejected['batch_id']}'].rolled_back")
    assert dialogs and rejected["batch_id"] in dialogs[0]
    page.screenshot(path=screenshot_path("timeline"))
    again = next(i for i in _get(app, "admin", "/v1/review", project=PROJECT)["items"] if i["item_id"] == item["item_id"])
    assert again["status"] == "pending"
    assert problems == [], problems


# --- the exports of the command line ---------------------------------------------------------------
def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


def test_graph_and_map_export_as_png_graphml_and_json(app: Served, tmp_path: Path) -> None:
    runner = CliRunner()
    common = ["--url", app.url, "--key", app.keys["ana-atlas"]]
    for fmt in ("png", "graphml", "json"):
        out = str(tmp_path / f"graph.{fmt}")
        result = runner.invoke(cli, ["graph", "export", PROJECT, "--out", out, "--format", fmt, *common])
        assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["map", "--project", PROJECT, "--out", str(tmp_path / "map.png"), *common])
    assert result.exit_code == 0, result.output
    for name in ("graph.png", "map.png"):
        width, height = _png_size(tmp_path / name)
        assert width >= 600 and height >= 600 and (tmp_path / name).stat().st_size > 20_000
    assert nx.parse_graphml((tmp_path / "graph.graphml").read_text()).number_of_nodes() > 0
    assert "nodes" in (tmp_path / "graph.json").read_text()
    empty = runner.invoke(cli, ["map", "--project", "orion", "--out", str(tmp_path / "none.png"), "--url", app.url,
                                "--key", app.keys["admin"]])
    assert isinstance(empty.exception, NotFoundError) and not (tmp_path / "none.png").exists()
