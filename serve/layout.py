"""A cheap, deterministic layout of a project's graph, anchored on the 2-D map of its notes.

A force layout of a few thousand notes with their sessions, agents and subjects takes seconds to
minutes in a browser; the mining run has already placed every note on the map (UMAP), so the graph
is drawn there instead, in time linear in its size:

1. a note sits at its map point; a pattern at the centroid of the points of its cluster;
2. sessions, subjects and every other node without an anchor at the centroid of their placed
   neighbours, nudged by a small offset derived from their id (so they do not sit exactly on
   top of a note), in rounds, so that a node two hops from the notes is placed too;
3. hubs (agents, modules, projects), whose centroid is the middle of everything, on a ring around
   the map, at the angle of their centroid;
4. what is still unplaced (a graph with no map yet, or parts of it not linked to any note), on a
   grid beneath.

Coordinates are scaled into a square of ``SIZE`` units (the browser's and the PNG's drawing space).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from typing import Any

from reverie.ports import MapPoint

SIZE = 1000.0
HUB_KINDS = frozenset({"agent", "module", "project"})
ROUNDS = 3
NUDGE = 0.012  # of SIZE: how far a node placed at a centroid is moved off it
Point = tuple[float, float]


def lay_out(graph: dict[str, Any], points: Sequence[MapPoint]) -> dict[str, Any]:
    """The node-link graph with ``x`` and ``y`` on every node (the same dict, changed in place)."""
    nodes = graph.get("nodes", [])
    neighbours = _neighbours(nodes, graph.get("edges", []))
    placed = _anchors(points)
    placed = {n: p for n, p in placed.items() if n in neighbours}
    kinds = {n["id"]: n.get("kind", "") for n in nodes}
    _spread(placed, neighbours, kinds)
    _ring(placed, neighbours, [n for n, k in kinds.items() if k in HUB_KINDS and n not in placed])
    _grid(placed, [n["id"] for n in nodes if n["id"] not in placed])
    scaled = _scaled(placed)
    for node in nodes:
        node["x"], node["y"] = scaled[node["id"]]
    return graph


def _neighbours(nodes: Iterable[dict[str, Any]], edges: Iterable[dict[str, Any]]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {n["id"]: set() for n in nodes}
    for edge in edges:
        source, target = edge["source"], edge["target"]
        if source in found and target in found and source != target:
            found[source].add(target)
            found[target].add(source)
    return found


def _anchors(points: Sequence[MapPoint]) -> dict[str, Point]:
    """Notes at their map points, patterns at the centroid of their cluster's points."""
    placed: dict[str, Point] = {}
    members: dict[str, list[Point]] = {}
    for point in points:
        placed[f"note:{point.note_id}"] = (point.x, point.y)
        if point.pattern_id:
            members.setdefault(f"pattern:{point.pattern_id}", []).append((point.x, point.y))
    placed.update({pattern: _centroid(spots) for pattern, spots in members.items()})
    return placed


def _spread(placed: dict[str, Point], neighbours: dict[str, set[str]], kinds: dict[str, str]) -> None:
    """Place non-hub nodes at the centroid of their placed neighbours, round by round."""
    span = _span(placed.values())
    for _ in range(ROUNDS):
        found = {}
        for node, near in neighbours.items():
            if node in placed or kinds[node] in HUB_KINDS:
                continue
            spots = [placed[n] for n in near if n in placed]
            if spots:
                found[node] = _nudged(_centroid(spots), node, span)
        if not found:
            return
        placed.update(found)


def _ring(placed: dict[str, Point], neighbours: dict[str, set[str]], hubs: Sequence[str]) -> None:
    """Hubs on a circle around everything placed so far, each at the angle of its neighbours."""
    if not hubs:
        return
    centre = _centroid(list(placed.values())) if placed else (0.0, 0.0)
    radius = 0.6 * _span(placed.values()) + 1.0 if placed else 1.0
    angles = {hub: _angle(hub, neighbours[hub], placed, centre) for hub in hubs}
    ordered = sorted(hubs, key=lambda h: (angles[h], h))
    gap = 2 * math.pi / max(len(ordered), 1)
    previous = -math.inf
    for hub in ordered:
        angle = max(angles[hub], previous + gap / 2)  # hubs at the same angle fan out
        previous = angle
        placed[hub] = (centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle))


def _angle(hub: str, near: set[str], placed: dict[str, Point], centre: Point) -> float:
    spots = [placed[n] for n in near if n in placed]
    if not spots:
        return _unit(hub) * 2 * math.pi
    x, y = _centroid(spots)
    if math.isclose(x, centre[0]) and math.isclose(y, centre[1]):
        return _unit(hub) * 2 * math.pi
    return math.atan2(y - centre[1], x - centre[0]) % (2 * math.pi)


def _grid(placed: dict[str, Point], rest: Sequence[str]) -> None:
    """What no anchor reaches, in rows beneath the rest (ordered by id, so stable)."""
    if not rest:
        return
    xs = [p[0] for p in placed.values()] or [0.0]
    ys = [p[1] for p in placed.values()] or [0.0]
    span = max(_span(placed.values()), 1.0)
    columns = max(1, math.ceil(math.sqrt(len(rest))))
    step = span / columns if placed else 1.0
    top = max(ys) + (step * 2 if placed else 0.0)
    for i, node in enumerate(sorted(rest)):
        row, column = divmod(i, columns)
        placed[node] = (min(xs) + column * step, top + row * step)


def _scaled(placed: dict[str, Point]) -> dict[str, Point]:
    """Into a ``SIZE`` square, aspect kept; y grows downwards on screen, so it is flipped."""
    if not placed:
        return {}
    xs = [p[0] for p in placed.values()]
    ys = [p[1] for p in placed.values()]
    left, top = min(xs), max(ys)
    scale = SIZE / (max(max(xs) - left, top - min(ys)) or 1.0)
    return {n: (round((x - left) * scale, 2), round((top - y) * scale, 2)) for n, (x, y) in placed.items()}


def _centroid(spots: Sequence[Point]) -> Point:
    return (sum(p[0] for p in spots) / len(spots), sum(p[1] for p in spots) / len(spots))


def _span(spots: Iterable[Point]) -> float:
    spots = list(spots)
    if not spots:
        return 0.0
    xs = [p[0] for p in spots]
    ys = [p[1] for p in spots]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def _unit(node: str) -> float:
    """A number in [0, 1) that depends only on ``node`` (never the builtin, per-process ``hash``)."""
    return int.from_bytes(hashlib.blake2b(node.encode(), digest_size=4).digest()) / 2**32


def _nudged(spot: Point, node: str, span: float) -> Point:
    angle = _unit(node) * 2 * math.pi
    distance = NUDGE * (span or 1.0) * (0.5 + _unit(node[::-1]))
    return (spot[0] + distance * math.cos(angle), spot[1] + distance * math.sin(angle))
