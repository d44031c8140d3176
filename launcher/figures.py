"""PNG pictures of the team graph and of the map of experience, drawn with matplotlib (Agg, no display).

``graph_png`` takes the node-link JSON of ``GET /v1/graph?layout=true`` (every node has ``x``, ``y``)
and draws nodes by kind (shape and colour), edges by kind (colour; conflicts red and thicker),
with a legend. ``map_png`` takes the points of ``GET /v1/map``: clustered notes coloured by their
cluster (notes of a promoted pattern drawn larger), noise apart in a panel of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from io import BytesIO
from typing import Any

from reverie.api import MapPoint

NODE_STYLES: dict[str, tuple[str, str, float]] = {  # kind -> (marker, colour, size)
    "pattern": ("*", "#e8590c", 180.0), "note": ("o", "#1c7ed6", 14.0), "subject": ("h", "#7048e8", 40.0),
    "agent": ("D", "#2f9e44", 60.0), "session": ("s", "#868e96", 12.0), "module": ("p", "#0c8599", 80.0),
    "project": ("8", "#343a40", 120.0),
}
EDGE_COLOURS = {
    "supports": "#f08c00", "derived_from": "#adb5bd", "observed_in": "#66d9e8", "contributed_by": "#8ce99a",
    "about": "#b197fc", "conflicts_with": "#e03131", "supersedes": "#495057", "part_of": "#ced4da",
}
NOISE = "#adb5bd"


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def _png(figure: Any) -> bytes:
    buffer = BytesIO()
    figure.savefig(buffer, format="png", dpi=120, bbox_inches="tight")
    _pyplot().close(figure)
    return buffer.getvalue()


def graph_png(graph: Mapping[str, Any], title: str) -> bytes:
    """The graph at its layout (``x``, ``y`` on each node), nodes by kind, edges by kind."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    plt = _pyplot()
    nodes = {n["id"]: n for n in graph.get("nodes", [])}
    figure, axes = plt.subplots(figsize=(12, 12))
    edges_by_kind: dict[str, list[list[tuple[float, float]]]] = {}
    for edge in graph.get("edges", []):
        a, b = nodes.get(edge["source"]), nodes.get(edge["target"])
        if a is not None and b is not None:
            edges_by_kind.setdefault(edge.get("kind", ""), []).append([(a["x"], -a["y"]), (b["x"], -b["y"])])
    for kind, segments in sorted(edges_by_kind.items(), key=lambda item: item[0] == "conflicts_with"):
        conflict = kind == "conflicts_with"
        axes.add_collection(LineCollection(segments, colors=EDGE_COLOURS.get(kind, "#dee2e6"),
                                           linewidths=1.6 if conflict else 0.3, alpha=0.9 if conflict else 0.5,
                                           zorder=2 if conflict else 1))
    counts = Counter(n.get("kind", "") for n in nodes.values())
    for kind, (marker, colour, size) in NODE_STYLES.items():
        mine = [n for n in nodes.values() if n.get("kind") == kind]
        if mine:
            axes.scatter([n["x"] for n in mine], [-n["y"] for n in mine], s=size, marker=marker, c=colour,
                         edgecolors="white", linewidths=0.4, zorder=3 if kind == "pattern" else 2)
    handles = [Line2D([], [], ls="", marker=m, color=c, label=f"{k} ({counts[k]})")
               for k, (m, c, _) in NODE_STYLES.items() if counts[k]]
    handles += [Line2D([], [], color=EDGE_COLOURS.get(k, "#dee2e6"), label=f"{k} ({len(v)})")
                for k, v in sorted(edges_by_kind.items())]
    axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=9)
    _label_patterns(axes, nodes.values())
    axes.set_title(title)
    axes.set_axis_off()
    axes.autoscale()
    axes.set_aspect("equal")
    return _png(figure)


def _label_patterns(axes: Any, nodes: Any, most: int = 40) -> None:
    patterns = sorted((n for n in nodes if n.get("kind") == "pattern"), key=lambda n: -float(n.get("confidence") or 0))
    for node in patterns[:most]:
        axes.annotate(str(node.get("label", ""))[:40], (node["x"], -node["y"]), fontsize=7, xytext=(4, 4),
                      textcoords="offset points", zorder=4)


def map_png(points: Sequence[MapPoint], title: str) -> bytes:
    """Clustered notes coloured by cluster (promoted ones larger and outlined); noise in its own panel."""
    plt = _pyplot()
    clustered = [p for p in points if p.cluster >= 0]
    noise = [p for p in points if p.cluster < 0]
    figure, (main, apart) = plt.subplots(1, 2, figsize=(13, 10), gridspec_kw={"width_ratios": [4, 1]})
    colours = plt.get_cmap("tab20")
    for promoted in (False, True):
        mine = [p for p in clustered if bool(p.pattern_id) == promoted]
        if mine:
            main.scatter([p.x for p in mine], [p.y for p in mine], c=[colours(p.cluster % 20) for p in mine],
                         s=26 if promoted else 10, edgecolors="#212529" if promoted else "none", linewidths=0.4,
                         label="in a promoted pattern" if promoted else "in a cluster, not promoted")
    main.set_title(f"{title}: {len(clustered)} notes in {len({p.cluster for p in clustered})} clusters")
    if clustered:
        main.legend(loc="lower left", fontsize=9)
    apart.scatter([p.x for p in noise], [p.y for p in noise], c=NOISE, s=8, marker="x")
    apart.set_title(f"noise: {len(noise)} notes")
    for axes in (main, apart):
        axes.set_xticks([])
        axes.set_yticks([])
    return _png(figure)
