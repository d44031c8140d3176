"""The team knowledge graph (DESIGN §4.5): a networkx MultiDiGraph persisted in the store.

Nodes (``kind``): pattern, note, subject, agent, session, module, project. Edges (``kind``):

- ``supports``       note -> pattern      the note is evidence of the pattern
- ``derived_from``   note -> session      the note was distilled from that session
- ``observed_in``    pattern -> session / module / project   where the pattern recurs
- ``contributed_by`` pattern / note -> agent
- ``about``          pattern / note -> subject
- ``conflicts_with`` note -> note         the two notes disagree (same subject)
- ``supersedes``     note -> note         the newer note replaced the older
- ``part_of``        module -> project

Every node and edge has ``valid_from`` and ``invalid_at`` (ISO times; ``invalid_at`` empty while
valid): elements are invalidated, never deleted. Node ids are ``<kind>:<key>``; edge ids are
``<kind>|<source>|<target>``. Note nodes carry no statement (personal notes stay private); the
pattern nodes carry theirs and the ``name`` of their cluster (``mining.names``), the one the reader
may see (``TeamGraph.for_reader``). Rows live in the ``graph_nodes`` / ``graph_edges`` ledgers: a mining
batch writes only what changed, and rolling it back makes those changes disappear.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from io import BytesIO
from typing import Any, Literal

import networkx as nx

from mining.disagreement import subject_key
from reverie.ports import HotSpot
from reverie.records import Note
from reverie.store import LedgerFilter, Store, graph_node_id

NodeKind = Literal["pattern", "note", "subject", "agent", "session", "module", "project"]
EdgeKind = Literal[
    "supports", "derived_from", "observed_in", "contributed_by", "about", "conflicts_with", "supersedes", "part_of",
]
LIVE_NOTE_STATUSES = frozenset({"active", "candidate"})
TEAM_GRAPH = "_team"  # the rows of team patterns (no project name can be this: names start alphanumeric)


@dataclass(frozen=True)
class GraphNode:
    node_id: str
    kind: NodeKind
    label: str
    attrs: dict[str, Any] = field(default_factory=dict)
    valid_from: datetime | None = None
    invalid_at: datetime | None = None


@dataclass(frozen=True)
class GraphEdge:
    source: str
    target: str
    kind: EdgeKind
    attrs: dict[str, Any] = field(default_factory=dict)
    valid_from: datetime | None = None
    invalid_at: datetime | None = None

    @property
    def edge_id(self) -> str:
        return f"{self.kind}|{self.source}|{self.target}"


@dataclass
class Fragment:
    """Nodes and edges one mining unit wants to exist, keyed by id (later additions win)."""

    nodes: dict[str, GraphNode] = field(default_factory=dict)
    edges: dict[str, GraphEdge] = field(default_factory=dict)

    def node(self, node: GraphNode) -> str:
        self.nodes[node.node_id] = node
        return node.node_id

    def edge(self, edge: GraphEdge) -> None:
        self.edges[edge.edge_id] = edge


# --- what a cluster contributes ------------------------------------------------------------------
def _context(fragment: Fragment, project: str, at: datetime) -> str:
    return fragment.node(GraphNode(graph_node_id("project", project), "project", project, {}, at))


def _module(fragment: Fragment, project: str, module: str, at: datetime) -> str:
    node = fragment.node(GraphNode(graph_node_id("module", f"{project}/{module}"), "module", module, {"project": project}, at))
    fragment.edge(GraphEdge(node, _context(fragment, project, at), "part_of", valid_from=at))
    return node


def _subject(fragment: Fragment, subject: str, at: datetime) -> str:
    return fragment.node(GraphNode(graph_node_id("subject", subject_key(subject)), "subject", subject_key(subject), {}, at))


def _simple(fragment: Fragment, kind: NodeKind, key: str, at: datetime) -> str:
    return fragment.node(GraphNode(graph_node_id(kind, key), kind, key, {}, at))


def note_node(note: Note) -> GraphNode:
    attrs = {
        "type": note.type, "scope": note.scope, "status": note.status, "owner_agent": note.owner_agent,
        "module": note.module, "confidence": round(float(note.confidence), 4),
    }
    invalid = note.invalid_at if note.status not in LIVE_NOTE_STATUSES else None
    if invalid is None and note.status not in LIVE_NOTE_STATUSES:
        invalid = note.updated_at
    valid_from = note.valid_from or note.created_at
    return GraphNode(graph_node_id("note", note.note_id), "note", note.subject, attrs, valid_from, invalid)


Names = tuple[str | None, str | None]  # (from every member, from shared members only): mining.names
NO_NAMES: Names = (None, None)


def pattern_node(pattern: Note, names: Names = NO_NAMES) -> GraphNode:
    """A pattern's node; ``name`` and ``shared_name`` are its cluster's names (``TeamGraph.for_reader``
    keeps the one its reader may see, as ``name``)."""
    kind = next((t for t in pattern.tags if t not in ("mined", "reviewed")), None)
    attrs = {
        "name": names[0], "shared_name": names[1],
        "statement": pattern.statement, "status": pattern.status, "scope": pattern.scope,
        "confidence": round(float(pattern.confidence), 4), "module": pattern.module, "note_type": kind,
        "sessions": len(pattern.source_sessions), "agents": len(pattern.source_agents),
    }
    invalid = None if pattern.status in LIVE_NOTE_STATUSES else pattern.updated_at
    valid_from = pattern.valid_from or pattern.created_at
    return GraphNode(graph_node_id("pattern", pattern.note_id), "pattern", pattern.subject, attrs, valid_from, invalid)


def names_of_node(row: dict[str, Any] | None) -> Names:
    """The names a persisted pattern row carries (a refresh keeps them)."""
    attrs = _loads(row["attrs"]) if row else {}
    return attrs.get("name"), attrs.get("shared_name")


def add_note(fragment: Fragment, note: Note, at: datetime) -> str:
    node = fragment.node(note_node(note))
    fragment.edge(GraphEdge(node, _subject(fragment, note.subject, at), "about", valid_from=at))
    for session in note.source_sessions:
        fragment.edge(GraphEdge(node, _simple(fragment, "session", session, at), "derived_from", valid_from=at))
    for agent in sorted(note.agents):
        fragment.edge(GraphEdge(node, _simple(fragment, "agent", agent, at), "contributed_by", valid_from=at))
    return node


def add_pattern(
    fragment: Fragment, pattern: Note, members: Sequence[Note], conflicts: Iterable[tuple[str, str]], at: datetime,
    *, names: Names = NO_NAMES,
) -> str:
    """The pattern, its supporting notes and where they come from, and the conflicts among them."""
    project = pattern.project or "-"
    node = fragment.node(pattern_node(pattern, names))
    fragment.edge(GraphEdge(node, _subject(fragment, pattern.subject, at), "about", valid_from=at))
    fragment.edge(GraphEdge(node, _context(fragment, project, at), "observed_in", valid_from=at))
    for module in sorted({n.module for n in members if n.module}):
        fragment.edge(GraphEdge(node, _module(fragment, project, module, at), "observed_in", valid_from=at))
    for session in pattern.source_sessions:
        fragment.edge(GraphEdge(node, _simple(fragment, "session", session, at), "observed_in", valid_from=at))
    for agent in pattern.source_agents:
        fragment.edge(GraphEdge(node, _simple(fragment, "agent", agent, at), "contributed_by", valid_from=at))
    for note in members:
        fragment.edge(GraphEdge(add_note(fragment, note, at), node, "supports", valid_from=at))
    for a, b in conflicts:
        fragment.edge(GraphEdge(graph_node_id("note", a), graph_node_id("note", b), "conflicts_with", valid_from=at))
    return node


def add_team_pattern(
    fragment: Fragment, team: Note, members: Sequence[Note], conflicts: Iterable[tuple[str, str]], at: datetime,
    *, names: Names = NO_NAMES,
) -> str:
    """A team pattern and the project patterns that support it (their nodes live in their projects)."""
    node = fragment.node(pattern_node(team, names))
    fragment.edge(GraphEdge(node, _subject(fragment, team.subject, at), "about", valid_from=at))
    for project in sorted({m.project for m in members if m.project}):
        fragment.edge(GraphEdge(node, _context(fragment, project, at), "observed_in", valid_from=at))
    for agent in team.source_agents:
        fragment.edge(GraphEdge(node, _simple(fragment, "agent", agent, at), "contributed_by", valid_from=at))
    for member in members:
        fragment.edge(GraphEdge(graph_node_id("pattern", member.note_id), node, "supports", valid_from=at))
    for a, b in conflicts:
        fragment.edge(GraphEdge(graph_node_id("pattern", a), graph_node_id("pattern", b), "conflicts_with", valid_from=at))
    return node


def add_supersession(fragment: Fragment, note: Note, known: set[str], at: datetime) -> None:
    """``winner -supersedes-> note`` when the winner is in the graph too."""
    winner = note.superseded_by and graph_node_id("note", note.superseded_by)
    if winner and winner in known:
        fragment.edge(GraphEdge(winner, graph_node_id("note", note.note_id), "supersedes", valid_from=at))


# --- the persisted rows --------------------------------------------------------------------------
class GraphRows:
    """The visible rows of one project's graph, read as needed and kept: the base a unit diffs against.

    A run touches a few hundred clusters of a graph that may hold tens of thousands of rows, so
    rows are fetched by id when a fragment needs them (or by kind), never all at once.
    """

    def __init__(self, store: Store, project: str) -> None:
        self._store = store
        self.project = project
        self.nodes: dict[str, dict[str, Any]] = {}
        self.edges: dict[str, dict[str, Any]] = {}
        self._asked_nodes: set[str] = set()
        self._asked_edges: set[str] = set()

    @classmethod
    def load(cls, store: Store, project: str) -> GraphRows:
        return cls(store, project)

    def changes(self, fragment: Fragment) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Rows for what is new or different in ``fragment`` (existing elements keep valid_from)."""
        missing_nodes = self._missing(fragment.nodes, self._asked_nodes)
        if missing_nodes:
            self._fetch_nodes(LedgerFilter(ids=missing_nodes))
        missing_edges = self._missing(fragment.edges, self._asked_edges)
        if missing_edges:
            self._fetch_edges(LedgerFilter(ids=missing_edges))
        nodes = [r for r in (self._node_row(n) for n in fragment.nodes.values()) if r is not None]
        edges = [r for r in (self._edge_row(e) for e in fragment.edges.values()) if r is not None]
        return nodes, edges

    def apply(self, nodes: Sequence[dict[str, Any]], edges: Sequence[dict[str, Any]]) -> None:
        """Take rows just committed into this base."""
        self.nodes.update({r["node_id"]: r for r in nodes})
        self.edges.update({r["edge_id"]: r for r in edges})

    def supports(self) -> dict[str, set[str]]:
        """Pattern node id -> the ids of the nodes that support it (valid edges only)."""
        found: dict[str, set[str]] = {}
        for row in self._fetch_edges(LedgerFilter(kinds=["supports"])):
            if row["invalid_at"] is None:
                found.setdefault(row["target"], set()).add(row["source"])
        return found

    def fetch_nodes(self, node_ids: Iterable[str]) -> None:
        """Make sure the rows of ``node_ids`` (those that exist) are here."""
        missing = self._missing(dict.fromkeys(node_ids), self._asked_nodes)
        if missing:
            self._fetch_nodes(LedgerFilter(ids=missing))

    def nodes_of(self, kinds: Sequence[str]) -> list[dict[str, Any]]:
        return self._fetch_nodes(LedgerFilter(kinds=kinds))

    def invalidate_edges_from(self, node_id: str, at: datetime) -> list[GraphEdge]:
        """Valid edges leaving ``node_id``, as invalidated copies (for a note that left the live set)."""
        return [
            GraphEdge(row["source"], row["target"], row["kind"], _loads(row["attrs"]), row["valid_from"], at)
            for row in self._fetch_edges(LedgerFilter(sources=[node_id])) if row["invalid_at"] is None
        ]

    def _missing(self, wanted: dict[str, Any], asked: set[str]) -> list[str]:
        missing = [i for i in wanted if i not in asked]
        asked.update(missing)
        return missing

    def _fetch_nodes(self, where: LedgerFilter) -> list[dict[str, Any]]:
        found = self._store.graph_nodes.read(replace(where, project=self.project))
        self.nodes.update({r["node_id"]: r for r in found if r["node_id"] not in self.nodes})
        self._asked_nodes.update(r["node_id"] for r in found)
        return [self.nodes[r["node_id"]] for r in found]

    def _fetch_edges(self, where: LedgerFilter) -> list[dict[str, Any]]:
        found = self._store.graph_edges.read(replace(where, project=self.project))
        self.edges.update({r["edge_id"]: r for r in found if r["edge_id"] not in self.edges})
        self._asked_edges.update(r["edge_id"] for r in found)
        return [self.edges[r["edge_id"]] for r in found]

    def _node_row(self, node: GraphNode) -> dict[str, Any] | None:
        old = self.nodes.get(node.node_id)
        row = {
            "project": self.project, "node_id": node.node_id, "kind": node.kind, "label": node.label,
            "attrs": _dumps(node.attrs), "valid_from": old["valid_from"] if old else node.valid_from,
            "invalid_at": node.invalid_at,
        }
        return None if old and _same_row(old, row, ("kind", "label", "attrs", "invalid_at")) else row

    def _edge_row(self, edge: GraphEdge) -> dict[str, Any] | None:
        old = self.edges.get(edge.edge_id)
        row = {
            "project": self.project, "edge_id": edge.edge_id, "source": edge.source, "target": edge.target,
            "kind": edge.kind, "attrs": _dumps(edge.attrs), "valid_from": old["valid_from"] if old else edge.valid_from,
            "invalid_at": edge.invalid_at,
        }
        return None if old and _same_row(old, row, ("kind", "attrs", "invalid_at")) else row


def _same_row(old: dict[str, Any], new: dict[str, Any], keys: Sequence[str]) -> bool:
    return all(old.get(k) == new.get(k) for k in keys)


def _dumps(attrs: dict[str, Any]) -> str:
    return json.dumps(attrs, sort_keys=True, default=str)


def _loads(text: str | None) -> dict[str, Any]:
    return json.loads(text) if text else {}


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# --- the networkx view ---------------------------------------------------------------------------
class TeamGraph:
    """A networkx MultiDiGraph of the visible rows, with exports and queries."""

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.graph = graph

    @classmethod
    def load(cls, store: Store, project: str | None = None) -> TeamGraph:
        where = LedgerFilter(project=project)
        return cls.from_rows(store.graph_nodes.read(where), store.graph_edges.read(where))

    @classmethod
    def from_rows(cls, nodes: Iterable[dict[str, Any]], edges: Iterable[dict[str, Any]]) -> TeamGraph:
        graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        for row in sorted(nodes, key=lambda r: (r["node_id"], r["project"])):
            data = {**_loads(row["attrs"]), "kind": row["kind"], "label": row["label"] or "",
                    "valid_from": _iso(row["valid_from"]), "invalid_at": _iso(row["invalid_at"])}
            if row["node_id"] in graph:  # the same agent or session seen from several projects
                seen = graph.nodes[row["node_id"]]["valid_from"]
                data["valid_from"] = min(filter(None, (data["valid_from"], seen)), default=None)
            graph.add_node(row["node_id"], **data)
        for row in sorted(edges, key=lambda r: (r["edge_id"], r["project"])):
            data = {**_loads(row["attrs"]), "kind": row["kind"],
                    "valid_from": _iso(row["valid_from"]), "invalid_at": _iso(row["invalid_at"])}
            graph.add_edge(row["source"], row["target"], key=row["edge_id"], **data)
        for node, data in graph.nodes(data=True):
            if "kind" not in data:  # an end of an edge whose node is kept in another project's rows
                kind, _, key = node.partition(":")
                data.update(kind=kind, label=key, valid_from=None, invalid_at=None)
        return cls(graph)

    # --- views and exports ------------------------------------------------------------------------
    def current(self) -> TeamGraph:
        """Only what is valid now (no ``invalid_at``)."""
        live: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        live.add_nodes_from((n, d) for n, d in self.graph.nodes(data=True) if not d.get("invalid_at"))
        for u, v, k, d in self.graph.edges(keys=True, data=True):
            if not d.get("invalid_at") and u in live and v in live:
                live.add_edge(u, v, key=k, **d)
        return TeamGraph(live)

    def without_personal(self) -> TeamGraph:
        """Drop personal notes (and their edges), for readers who may not see them, and what only
        they linked to: a subject or session known only from personal notes would say what they are about."""
        hidden = {
            n for n, d in self.graph.nodes(data=True)
            if d["kind"] == "note" and str(d.get("scope", "")).startswith("personal:")
        }
        linked = {m for n in hidden for m in nx.all_neighbors(self.graph, n)} - hidden
        kept = self.graph.copy()
        kept.remove_nodes_from(hidden)
        kept.remove_nodes_from([n for n in linked if kept.degree(n) == 0])
        return TeamGraph(kept)

    def for_reader(self, personal: bool) -> TeamGraph:
        """Each pattern node with the one name its reader may see, as ``name``: the name from every
        member for readers of personal notes, else the name from its shared members only."""
        named = self.graph.copy()
        for _, data in named.nodes(data=True):
            if data.get("kind") == "pattern":
                shared = data.pop("shared_name", None)
                if not personal:
                    data["name"] = shared
        return TeamGraph(named)

    def to_node_link(self) -> dict[str, Any]:
        return nx.node_link_data(self.graph, edges="edges")

    def to_graphml(self) -> str:
        flat: nx.MultiDiGraph[str] = nx.MultiDiGraph()
        flat.add_nodes_from((n, _graphml_values(d)) for n, d in self.graph.nodes(data=True))
        for u, v, k, d in self.graph.edges(keys=True, data=True):
            flat.add_edge(u, v, key=k, **_graphml_values(d))
        buffer = BytesIO()
        nx.write_graphml(flat, buffer, named_key_ids=True)
        return buffer.getvalue().decode("utf-8")

    # --- queries ------------------------------------------------------------------------------
    def neighbourhood(self, subject: str, depth: int = 2) -> TeamGraph:
        """Everything within ``depth`` hops of the subject, edges in either direction."""
        node = graph_node_id("subject", subject_key(subject))
        if node not in self.graph:
            return TeamGraph(nx.MultiDiGraph())
        return TeamGraph(nx.ego_graph(self.graph, node, radius=depth, undirected=True))

    def patterns_of_module(self, project: str, module: str) -> list[dict[str, Any]]:
        target = graph_node_id("module", f"{project}/{module}")
        if target not in self.graph:
            return []
        found = [
            {"node_id": u, **self.graph.nodes[u]}
            for u, _, d in self.graph.in_edges(target, data=True)
            if d["kind"] == "observed_in" and self.graph.nodes[u]["kind"] == "pattern"
        ]
        return sorted(found, key=lambda p: (-float(p.get("confidence") or 0), p["node_id"]))

    def hot_spots(self, limit: int = 10) -> list[HotSpot]:
        """Subjects with the most conflicting note pairs, with the notes and patterns involved."""
        pairs: Counter[str] = Counter()
        notes: dict[str, set[str]] = {}
        for u, v, d in self.graph.edges(data=True):
            if d["kind"] != "conflicts_with":
                continue
            subject = self.graph.nodes[u].get("label", "") if u in self.graph else ""
            key = subject_key(subject)
            pairs[key] += 1
            notes.setdefault(key, set()).update((u, v))
        spots = [
            HotSpot(subject=s, conflicts=c, notes=sorted(notes[s]), patterns=self._patterns_of(notes[s]))
            for s, c in pairs.items()
        ]
        return sorted(spots, key=lambda h: (-h.conflicts, h.subject))[:limit]

    def _patterns_of(self, note_ids: set[str]) -> list[str]:
        return sorted({
            v for n in note_ids for _, v, d in self.graph.out_edges(n, data=True) if d["kind"] == "supports"
        })


def _graphml_values(data: dict[str, Any]) -> dict[str, Any]:
    """GraphML holds scalars only: drop empty values, write lists and dicts as JSON."""
    flat = {}
    for key, value in data.items():
        if value is None:
            continue
        flat[key] = value if isinstance(value, (str, int, float, bool)) else json.dumps(value, sort_keys=True)
    return flat
