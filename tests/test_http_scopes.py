"""A randomised search for leaks: principals × scopes × routes against a running app.

The oracle below is written from DESIGN §5 alone (not from ``serve.auth.access``): a note is visible to an
admin; a ``team`` note to everyone; a personal note to its own agent only; a module or project note to
principals of its project. Retrieval adds: active, unexpired, and an agent's own personal notes only.
Every answer of every drawn request is checked against it, both ways (no leak, nothing missing).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reverie.clock import SystemClock
from reverie.embed import HashEmbedder, spec_for
from reverie.records import Event, Note
from reverie.settings import RetrievalSettings
from reverie.store import NoteWrite, Store
from serving import Served, served, served_settings

PROJECTS = ["atlas", "orion", "vega"]
AGENTS = {"ag-a": ["atlas"], "ag-o": ["orion"], "ag-ao": ["atlas", "orion"]}
PRINCIPALS = {
    **{name: ("agent", projects) for name, projects in AGENTS.items()},
    "an-a": ("analyst", ["atlas"]), "an-ov": ("analyst", ["orion", "vega"]),
    "rv-a": ("reviewer", ["atlas"]), "rv-all": ("reviewer", ["*"]), "ad": ("admin", ["*"]),
}
STATUSES = ["active", "active", "active", "candidate", "superseded", "deleted", "quarantined", "archived"]
WORDS = ["deploy", "cache", "schema", "retry", "token", "index", "budget", "review", "queue", "metric"]


@dataclass(frozen=True)
class Who:
    id: str
    role: str
    projects: tuple[str, ...]


def may_see(who: Who, note: Note) -> bool:
    if who.role == "admin" or note.scope == "team":
        return True
    if note.scope.startswith("personal:"):
        return who.role == "agent" and note.scope == f"personal:{who.id}"
    project = note.scope.split(":", 1)[1].split("/", 1)[0]
    return "*" in who.projects or project in who.projects


def may_recall(who: Who, agent: str, note: Note, now: object, project: str | None, scopes: list[str] | None) -> bool:
    personal_ok = not note.scope.startswith("personal:") or note.scope == f"personal:{agent}"
    fresh = note.expires_at is None or note.expires_at > now  # type: ignore[operator]
    in_project = project is None or note.project == project or note.scope == "team"
    in_scopes = scopes is None or note.scope in scopes
    return may_see(who, note) and personal_ok and note.status == "active" and fresh and in_project and in_scopes


def _universe(store: Store, embedder: HashEmbedder) -> dict[str, Note]:
    rng = random.Random(7)
    now = store.now()
    notes = {}
    events = []
    for i in range(80):
        kind = rng.choice(["personal", "personal", "module", "project", "team"])
        project = rng.choice(PROJECTS)
        owner = rng.choice([*AGENTS, "ghost-1"])
        scope = {"personal": f"personal:{owner}", "module": f"module:{project}/m{i % 2}",
                 "project": f"project:{project}", "team": "team"}[kind]
        statement = " ".join(rng.sample(WORDS, 4)) + f" rule {i}"
        expires = now - timedelta(days=1) if rng.random() < 0.1 else None
        notes[f"n{i:03d}"] = Note(
            note_id=f"n{i:03d}", type="lesson", subject=statement.split()[0], statement=statement, scope=scope,
            owner_agent=owner, project=project, evidence=[f"ev{i:03d}"], source_agents=[owner],
            status=rng.choice(STATUSES), expires_at=expires, created_at=now, updated_at=now,  # type: ignore[arg-type]
        )
        events.append(Event(event_id=f"ev{i:03d}", agent_id=owner, session_id=f"s-{owner}-{project}", project=project,
                            ts=now, role="user", text=statement, ingested_at=now))
    store.events.append(events)
    store.batches.run("local", [NoteWrite(n, "add", vector=embedder.embed([n.statement])[0]) for n in notes.values()])
    return notes


class World(tuple):  # type: ignore[type-arg]
    """(app, notes, store) with a short repr, for hypothesis' failure reports."""

    def __repr__(self) -> str:
        return "<world>"


@pytest.fixture(scope="module")
def world(ray_session: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, Note], Store]]:
    # every visible note is a candidate here (no similarity floor), so a retrieval returns exactly min(k, visible)
    config = served_settings(tmp_path_factory.mktemp("scopes"),
                             retrieval=RetrievalSettings(min_similarity=-1.0, relative_similarity=0.0,
                                                         relevance_similarity=-1.0, turns=False))
    with served(config, PRINCIPALS) as app:
        store = Store.open(config.store, spec_for(config.embedding), SystemClock())
        universe = _universe(store, HashEmbedder(config.embedding))
        time.sleep(4 * config.retrieval.refresh_seconds + 1.0)  # the replica's cache picks up committed batches
        yield World((app, universe, store))
        for client in _clients.values():
            client.close()
        _clients.clear()


def _who(name: str) -> Who:
    role, projects = PRINCIPALS[name]
    return Who(name, role, tuple(projects))


names = st.sampled_from(sorted(PRINCIPALS))
note_ids = st.sampled_from([f"n{i:03d}" for i in range(80)] + ["n999"])
maybe_project = st.none() | st.sampled_from(PROJECTS)
scope_lists = st.none() | st.lists(st.sampled_from(["team", "project:atlas", "project:orion", "module:atlas/m0",
                                                    "module:orion/m1", "personal:ag-a", "personal:ag-o"]), min_size=1, max_size=3)
common = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


_clients: dict[tuple[str, str], httpx.Client] = {}


def _client(app: Served, name: str) -> httpx.Client:
    """One keep-alive client per principal (a fresh connection per example would dominate the time)."""
    if (app.url, name) not in _clients:
        _clients[(app.url, name)] = app.client(name)
    return _clients[(app.url, name)]


def _get(app: Served, name: str, path: str, **params: object) -> httpx.Response:
    return _client(app, name).get(path, params={k: v for k, v in params.items() if v is not None})


@common
@given(name=names, note_id=note_ids, history=st.booleans())
def test_reading_one_note(world: tuple[Served, dict[str, Note], Store], name: str, note_id: str, history: bool) -> None:
    app, notes, _ = world
    response = _get(app, name, f"/v1/notes/{note_id}" + ("/history" if history else ""))
    visible = note_id in notes and may_see(_who(name), notes[note_id])
    assert response.status_code == (200 if visible else 404), (name, note_id, response.text)


@common
@given(name=names, project=maybe_project, status=st.none() | st.sampled_from(sorted(set(STATUSES))),
       scope=st.none() | st.sampled_from(["team", "project:atlas", "module:orion/m1", "personal:ag-ao"]))
def test_listing_notes(world: tuple[Served, dict[str, Note], Store], name: str, project: str | None, status: str | None,
                       scope: str | None) -> None:
    app, notes, _ = world
    who = _who(name)
    response = _get(app, name, "/v1/notes", project=project, status=status, scope=scope, limit=1000)
    if project is not None and "*" not in who.projects and project not in who.projects:
        assert response.status_code == 403
        return
    got = {n["note_id"] for n in response.json()["notes"]}
    wanted = {i for i, n in notes.items() if may_see(who, n) and (project is None or n.project == project)
              and (status is None or n.status == status) and (scope is None or n.scope == scope)}
    assert got == wanted


@common
@given(name=names, agent=st.sampled_from(sorted(AGENTS)), words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
       project=maybe_project, scopes=scope_lists, k=st.integers(1, 20))
def test_retrieval(world: tuple[Served, dict[str, Note], Store], name: str, agent: str, words: list[str],
                   project: str | None, scopes: list[str] | None, k: int) -> None:
    app, notes, store = world
    who = _who(name)
    body = {"agent_id": agent, "query": " ".join(words), "project": project, "scopes": scopes, "k": k, "token_budget": 4000}
    response = _client(app, name).post("/v1/retrieve", json={key: v for key, v in body.items() if v is not None})
    acting = who.role == "admin" or (who.role == "agent" and who.id == agent)
    in_project = project is None or "*" in who.projects or project in who.projects
    if not acting or not in_project:
        assert response.status_code == 403, response.text
        return
    assert response.status_code == 200, response.text
    returned = [hit["note"]["note_id"] for hit in response.json()["notes"]]
    assert len(returned) <= k
    now = store.now()
    assert all(may_recall(who, agent, notes[i], now, project, scopes) for i in returned), returned
    recallable = [i for i, n in notes.items() if may_recall(who, agent, n, now, project, scopes)]
    assert len(returned) == min(k, len(recallable))


@common
@given(name=names, index=st.integers(0, 79))
def test_reading_evidence(world: tuple[Served, dict[str, Note], Store], name: str, index: int) -> None:
    app, notes, _ = world
    who = _who(name)
    note = notes[f"n{index:03d}"]
    response = _get(app, name, f"/v1/events/ev{index:03d}", agent_id=note.owner_agent)
    if who.role == "admin":
        visible = True
    elif who.role == "agent":
        visible = note.owner_agent == who.id
    else:  # evidence of a shared note it sees, and raw events stay within their project (team notes too)
        in_project = "*" in who.projects or note.project in who.projects
        visible = not note.scope.startswith("personal:") and may_see(who, note) and in_project
    assert response.status_code == (200 if visible else 404), (name, note.note_id, note.scope, response.text[:200])
