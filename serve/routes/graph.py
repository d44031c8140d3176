"""The team graph and the map of a project, as the analysts' explorer and the exports read them.

A graph or map answer is kept (as the bytes sent, per kind of reader) until one of the tables it is
read from changes (``Services.graphs``), so the explorer's reloads do not rebuild a graph of
thousands of nodes nor copy a map of thousands of points from the mining service again.

Personal notes are the caller's to see only for admins: for anyone else they are left out of the
graph (with their edges) and are bare points on the map (where they lie and in which cluster, never
what they say), so the shape of what the fleet learnt shows without anyone's private notes. Cluster
names follow the same rule: an admin gets the name built from every member, anyone else the name
built from the shared members only (``mining.names``), on the map and on the graph's pattern nodes.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from reverie.api import MapPoint, MemoryMap
from reverie.errors import ValidationError
from reverie.ports import MapPoint as MinedPoint
from reverie.store import NoteFilter
from serve.auth.access import Principal, is_personal, require, require_project
from serve.layout import lay_out
from serve.routes.context import ERRORS, NAME, Caller, Deps, NameQuery
from serve.services import Services

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["mining and graph"])

GRAPHML = "application/graphml+xml"
ProjectQuery = Annotated[str, Query(pattern=NAME, description="a project name")]
NOTE_COLUMNS = ["type", "scope", "status", "subject", "statement"]


def _project(principal: Principal, project: str | None) -> str | None:
    """The project to read: the one asked for (if the key covers it); all only for all-project keys."""
    require(principal, "graph.read")
    if project is not None:
        require_project(principal, project)
    elif not principal.all_projects:
        raise ValidationError("name the project: ?project=<name> (this key covers only some projects)", field="project")
    return project


JSON: dict[int | str, dict[str, Any]] = {200: {"content": {"application/json": {}}, "description": "node-link JSON"}}


def _json(found: dict[str, Any]) -> bytes:
    """Node-link JSON as it is: written at once, not walked value by value by FastAPI's encoder
    (a graph of thousands of notes is tens of thousands of small dicts)."""
    return json.dumps(found, separators=(",", ":")).encode()


def _answer(data: bytes) -> Response:
    return Response(data, media_type="application/json")


def _graph_json(deps: Services, project: str | None, personal: bool, current: bool, layout: bool) -> bytes:
    found = deps.mining.graph(project, personal=personal, current=current)
    if layout:
        lay_out(found, deps.mining.map(project) if project is not None else [])
    return _json(found)


@router.get("/graph", response_class=Response, responses=JSON)
def graph(
    principal: Caller, deps: Deps, project: NameQuery = None,
    current: Annotated[bool, Query(description="only what is valid now (no invalid_at)")] = False,
    layout: Annotated[bool, Query(description="add x, y to every node: a layout anchored on the notes' map")] = False,
) -> Response:
    """The team graph as node-link JSON (nodes carry ``kind``; edges ``kind``, ``valid_from``, ``invalid_at``)."""
    chosen = _project(principal, project)
    key = ("graph", chosen, principal.is_admin, current, layout)
    return _answer(deps.graphs.get(key, lambda: _graph_json(deps, chosen, principal.is_admin, current, layout)))


@router.get("/graph.graphml", response_class=Response, responses={200: {"content": {GRAPHML: {}}, "description": "GraphML"}})
def graphml(principal: Caller, deps: Deps, project: NameQuery = None) -> Response:
    """The team graph as GraphML (lists and dicts as JSON strings)."""
    chosen = _project(principal, project)
    return Response(deps.mining.graphml(chosen, personal=principal.is_admin), media_type=GRAPHML)


@router.get("/graph/subjects/{subject}", response_class=Response, responses=JSON)
def subject(
    subject: Annotated[str, Path(min_length=1, max_length=200)], principal: Caller, deps: Deps,
    project: NameQuery = None, depth: Annotated[int, Query(ge=1, le=4)] = 2,
) -> Response:
    """Everything within ``depth`` hops of a subject (current elements only), as node-link JSON."""
    chosen = _project(principal, project)
    return _answer(_json(deps.mining.subject(subject, chosen, depth=depth, personal=principal.is_admin)))


@router.get("/map", response_model=MemoryMap)
def memory_map(principal: Caller, deps: Deps, project: ProjectQuery) -> Response:
    """The 2-D map of the project's notes (UMAP of their vectors): position, cluster (-1: noise), pattern,
    and the cluster's name (its most distinctive words, from the notes the caller may see)."""
    _project(principal, project)
    key = ("map", project, principal.is_admin)
    return _answer(deps.graphs.get(key, lambda: _map_json(deps, project, principal)))


def _map_json(deps: Services, project: str, principal: Principal) -> bytes:
    """What an admin (``principal.is_admin``) or anyone else may see of the map, as JSON."""
    mined = deps.mining.map(project, personal=principal.is_admin)  # names from the notes the caller may see
    notes = _notes(deps, project)
    points = [_point(principal, p, notes[p.note_id]) for p in mined if p.note_id in notes]
    # Written at once: FastAPI would validate thousands of points a second time on the way out.
    return MemoryMap(project=project, points=points).model_dump_json().encode()


def _notes(deps: Services, project: str) -> dict[str, dict[str, Any]]:
    table = deps.store.notes.frame(NoteFilter(project=project), columns=NOTE_COLUMNS)
    columns = {name: table[name].to_pylist() for name in ["note_id", *NOTE_COLUMNS]}
    return {
        note_id: {name: columns[name][i] for name in NOTE_COLUMNS}
        for i, note_id in enumerate(columns["note_id"])
    }


def _point(principal: Principal, mined: MinedPoint, note: dict[str, Any]) -> MapPoint:
    where = {"x": mined.x, "y": mined.y, "cluster": mined.cluster, "pattern_id": mined.pattern_id,
             "name": mined.name, "status": note["status"]}
    if is_personal(note["scope"]) and not principal.is_admin:
        return MapPoint(note_id=None, scope="personal", **where)
    return MapPoint(note_id=mined.note_id, scope=note["scope"], type=note["type"], subject=note["subject"],
                    statement=note["statement"], **where)
