"""The HTTP contract against a real Serve app on 127.0.0.1: keys on every route, the role table
route by route, 404 for invisible ids, error shapes and statuses, and the governance routes."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pyarrow.parquet as pq
import pytest

from reverie.clock import SystemClock
from reverie.embed import HashEmbedder, spec_for
from reverie.records import Event, Note
from reverie.store import NoteWrite, Store
from serve.ingress import create_api
from serving import Served, World, seed_world, served, served_settings

CANARY = "QUOKKACANARY5521"
ME = ["admin", "coder-1", "tester-1", "scout-1", "rev-atlas", "ana-atlas", "ana-orion"]


@pytest.fixture(scope="module")
def app(serve_session: int, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    settings = served_settings(tmp_path_factory.mktemp("routes"))
    with served(settings) as running:
        yield running


@pytest.fixture(scope="module")
def store(app: Served) -> Store:
    return Store.open(app.settings.store, spec_for(app.settings.embedding), SystemClock())


@pytest.fixture(scope="module")
def world(store: Store, app: Served) -> World:
    return seed_world(store, HashEmbedder(app.settings.embedding))


def _error(response: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}, body
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


# --- keys ------------------------------------------------------------------------------------------
def _every_operation() -> list[tuple[str, str]]:
    doc = create_api(served_settings(Path("/nonexistent"))).openapi()
    return [(method.upper(), path) for path, item in doc["paths"].items() for method in item]


@pytest.mark.parametrize("key", [None, "rv_not-a-key-of-this-service-000000"])
def test_every_route_but_healthz_needs_a_valid_key(app: Served, world: World, key: str | None) -> None:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    operations = _every_operation() + [("GET", "/openapi.json")]
    with httpx.Client(base_url=app.url, headers=headers, timeout=30) as client:
        for method, path in operations:
            url = path.format(**{name: "n-team" for name in ("note_id", "agent_id", "session_id", "batch_id",
                                                           "event_id", "run_id", "retrieval_id", "item_id", "subject")})
            response = client.request(method, url, params={"project": "atlas"}, json={"project": "atlas"})
            if path == "/healthz":
                assert response.status_code == 200
                continue
            _error(response, 401, "unauthorized")
            assert response.headers["WWW-Authenticate"] == "Bearer"
    assert len(operations) >= 21


def test_health_needs_no_key_and_shows_no_data(app: Served) -> None:
    response = httpx.get(f"{app.url}/healthz")
    assert response.json() == {"status": "ok", "version": "0.1.0"}


# --- the role table, route by route ---------------------------------------------------------------
READS = [
    # (method, path, params, {principal: status})
    ("GET", "/v1/notes/n-coder-personal", {}, {"admin": 200, "coder-1": 200, "tester-1": 404, "scout-1": 404,
                                               "rev-atlas": 404, "ana-atlas": 404, "ana-orion": 404}),
    ("GET", "/v1/notes/n-atlas-module", {}, {"admin": 200, "coder-1": 200, "tester-1": 200, "scout-1": 404,
                                             "rev-atlas": 200, "ana-atlas": 200, "ana-orion": 404}),
    ("GET", "/v1/notes/n-orion-project", {}, {"admin": 200, "coder-1": 404, "tester-1": 404, "scout-1": 200,
                                              "rev-atlas": 404, "ana-atlas": 404, "ana-orion": 200}),
    ("GET", "/v1/notes/n-team", {}, {p: 200 for p in ME}),
    ("GET", "/v1/notes/n-team/history", {}, {p: 200 for p in ME}),
    ("GET", "/v1/notes/n-scout-personal/history", {}, {"admin": 200, "scout-1": 200, "coder-1": 404,
                                                       "ana-orion": 404, "rev-atlas": 404}),
    ("GET", "/v1/events/e2", {"agent_id": "coder-1"}, {"admin": 200, "coder-1": 200, "tester-1": 404, "scout-1": 404,
                                                       "rev-atlas": 200, "ana-atlas": 200, "ana-orion": 404}),
    ("GET", "/v1/events/e1", {"agent_id": "coder-1"}, {"admin": 200, "coder-1": 200, "tester-1": 404,
                                                       "rev-atlas": 404, "ana-atlas": 404}),
    ("GET", "/v1/events/e9", {}, {"admin": 404, "coder-1": 404, "ana-atlas": 404}),
    ("GET", "/v1/metrics/memory", {}, {"admin": 200, "coder-1": 403, "scout-1": 403, "rev-atlas": 200,
                                       "ana-atlas": 200, "ana-orion": 200}),
    ("GET", "/v1/metrics/memory", {"project": "orion"}, {"admin": 200, "ana-atlas": 403, "ana-orion": 200}),
    ("GET", "/v1/export", {"project": "atlas"}, {"admin": 200, "coder-1": 403, "rev-atlas": 403, "ana-atlas": 403}),
    ("GET", "/v1/agents/tester-1/status", {}, {"coder-1": 403, "ana-atlas": 403, "rev-atlas": 403}),
    ("GET", "/v1/notes", {"project": "orion"}, {"admin": 200, "scout-1": 200, "coder-1": 403, "ana-atlas": 403}),
]

WRITES = [
    ("POST", "/v1/events", {"agent_id": "tester-1", "session_id": "x1", "project": "atlas",
                            "events": [{"role": "user", "text": "hello"}]},
     {"coder-1": 403, "scout-1": 403, "ana-atlas": 403, "rev-atlas": 403}),
    ("POST", "/v1/events", {"agent_id": "coder-1", "session_id": "x2", "project": "orion",
                            "events": [{"role": "user", "text": "hello"}]}, {"coder-1": 403}),
    ("POST", "/v1/agents/tester-1/consolidate", None, {"coder-1": 403, "ana-atlas": 403, "rev-atlas": 403}),
    ("POST", "/v1/sessions/s-tester-1/end", None, {"coder-1": 404, "scout-1": 404, "ana-atlas": 403, "rev-atlas": 403}),
    ("POST", "/v1/retrieve", {"agent_id": "tester-1", "query": "deploys"}, {"coder-1": 403, "ana-atlas": 403, "rev-atlas": 403}),
    ("POST", "/v1/retrieve", {"agent_id": "coder-1", "query": "deploys", "project": "orion"}, {"coder-1": 403}),
    ("PATCH", "/v1/notes/n-atlas-project", {"confidence": 0.7}, {"coder-1": 403, "ana-atlas": 403, "scout-1": 404,
                                                                 "ana-orion": 403}),
    ("PATCH", "/v1/notes/n-coder-personal", {"confidence": 0.7}, {"tester-1": 404, "rev-atlas": 404, "ana-atlas": 403}),
    ("PATCH", "/v1/notes/n-team", {"confidence": 0.7}, {"coder-1": 403, "tester-1": 403, "rev-atlas": 403, "ana-atlas": 403}),
    ("DELETE", "/v1/notes/n-atlas-module", None, {"coder-1": 403, "ana-atlas": 403, "scout-1": 404}),
    ("POST", "/v1/notes/n-atlas-module/restore", None, {"coder-1": 403, "ana-atlas": 403, "scout-1": 404}),
    ("POST", "/v1/notes", {"statement": "Prefer short answers"}, {"ana-atlas": 403, "rev-all": 422}),
    ("POST", "/v1/notes", {"statement": "Prefer short answers", "scope": "personal:tester-1"}, {"coder-1": 403}),
    ("POST", "/v1/notes", {"statement": "Prefer short answers", "project": "orion"}, {"coder-1": 403}),
    ("POST", "/v1/notes", {"statement": "Shared rule", "scope": "project:orion", "project": "orion"}, {"rev-atlas": 403}),
    ("POST", "/v1/purge", {"agent_id": "coder-1"}, {p: 403 for p in ME if p != "admin"}),
    ("POST", "/v1/mining/runs", {"project": "atlas"}, {"coder-1": 403, "ana-atlas": 403}),
    ("POST", "/v1/mining/runs", {"project": "orion"}, {"rev-atlas": 403}),
]


@pytest.mark.parametrize(("method", "path", "params", "expected"), READS, ids=[f"{r[0]} {r[1]} {r[2]}" for r in READS])
def test_the_role_table_decides_reads(
    app: Served, world: World, method: str, path: str, params: dict, expected: dict[str, int],
) -> None:
    for principal, status in expected.items():
        with app.client(principal) as client:
            response = client.request(method, path, params=params)
        assert response.status_code == status, (principal, response.text)
        if status >= 400:
            _error(response, status)


@pytest.mark.parametrize(("method", "path", "body", "expected"), WRITES, ids=[f"{r[0]} {r[1]}" for r in WRITES])
def test_the_role_table_refuses_writes(
    app: Served, world: World, method: str, path: str, body: dict | None, expected: dict[str, int],
) -> None:
    for principal, status in expected.items():
        with app.client(principal) as client:
            response = client.request(method, path, json=body)
        _error(response, status)


def test_agents_and_batches_are_listed_by_visibility(app: Served, world: World) -> None:
    seen = {}
    for principal in ("admin", "coder-1", "scout-1", "ana-atlas", "ana-orion"):
        with app.client(principal) as client:
            agents = [a["agent_id"] for a in client.get("/v1/agents").json()["agents"]]
            batches = {b["agent_id"] for b in client.get("/v1/batches").json()["batches"] if b["kind"] == "local"}
        seen[principal] = (sorted(agents), sorted(batches))
    assert seen["admin"] == (["coder-1", "scout-1", "tester-1"], ["coder-1", "scout-1", "tester-1"])
    assert seen["coder-1"] == (["coder-1", "tester-1"], ["coder-1"])
    assert seen["scout-1"] == (["scout-1"], ["scout-1"])
    assert seen["ana-atlas"] == (["coder-1", "tester-1"], ["coder-1", "tester-1"])
    assert seen["ana-orion"] == (["scout-1"], ["scout-1"])


def test_note_listing_shows_only_visible_notes_and_pages(app: Served, world: World) -> None:
    expected = {
        "admin": set(world.notes),
        "coder-1": {"n-coder-personal", "n-atlas-module", "n-atlas-project", "n-team"},
        "scout-1": {"n-scout-personal", "n-orion-project", "n-team"},
        "ana-atlas": {"n-atlas-module", "n-atlas-project", "n-team"},
        "rev-atlas": {"n-atlas-module", "n-atlas-project", "n-team"},
    }
    for principal, wanted in expected.items():
        got: list[str] = []
        cursor = None
        with app.client(principal) as client:
            while True:
                page = client.get("/v1/notes", params={"limit": 2, **({"cursor": cursor} if cursor else {})}).json()
                got += [n["note_id"] for n in page["notes"]]
                cursor = page["next_cursor"]
                if cursor is None:
                    break
        assert set(got) == wanted, principal
    with app.client("admin") as client:
        only = client.get("/v1/notes", params={"scope": "module:atlas/api", "agent": "coder-1", "type": "lesson"}).json()
    assert [n["note_id"] for n in only["notes"]] == ["n-atlas-module"]
    assert {"note_id", "type", "subject", "statement", "scope", "status", "confidence", "evidence", "source_sessions",
            "source_agents", "superseded_by", "created_at", "updated_at"} <= set(only["notes"][0])
    assert "vector" not in only["notes"][0]


# --- error shapes ------------------------------------------------------------------------------------
def test_bad_bodies_get_422_or_413_without_echoing_input(app: Served, world: World) -> None:
    base = {"agent_id": "coder-1", "session_id": "s9", "project": "atlas"}
    with app.client("coder-1") as client:
        cases = [
            (client.post("/v1/events", content=b"{" + CANARY.encode(), headers={"Content-Type": "application/json"}), 422, None),
            (client.post("/v1/events", json={**base, "events": [{"role": "user", "text": CANARY, CANARY: 1}]}), 422, "events.0"),
            (client.post("/v1/events", json={**base, "events": [{"role": CANARY, "text": "x"}]}), 422, "events.0.role"),
            (client.post("/v1/events", json={**base, "events": [{"role": "user", "text": CANARY * 3000}]}), 422, "events.0.text"),
            (client.post("/v1/events", json={**base, "events": []}), 422, "events"),
            (client.post("/v1/events", json={**base, "agent_id": CANARY + "/..", "events": [{"role": "user", "text": "x"}]}),
             422, "agent_id"),
            (client.post("/v1/events", json={**base, "events": [{"role": "user", "text": "x", "ts": CANARY}]}),
             422, "events.0.ts"),
            (client.post("/v1/retrieve", json={"agent_id": "coder-1", "query": "q", "k": 0}), 422, "k"),
            (client.get("/v1/notes", params={"limit": 5000}), 422, "limit"),
            (client.get("/v1/notes", params={"status": CANARY}), 422, "status"),
            (client.get(f"/v1/notes/{CANARY}%20x"), 422, "note_id"),
        ]
    for response, status, field in cases:
        error = _error(response, status, "validation_error")
        assert error["field"] == field, error
        assert CANARY not in response.text and CANARY.lower() not in response.text.lower()


def test_bodies_over_the_limit_get_413_before_they_are_read(app: Served) -> None:
    limit = app.settings.capture.max_body_bytes
    with app.client("coder-1") as client:
        declared = client.post("/v1/events", content=b"x" * (limit + 1), headers={"Content-Type": "application/json"})
        chunked = client.post("/v1/events", content=(b"x" * 65536 for _ in range(limit // 65536 + 2)),
                              headers={"Content-Type": "application/json"})
    _error(declared, 413, "payload_too_large")
    _error(chunked, 413, "payload_too_large")


def test_unknown_routes_and_methods_have_the_error_shape(app: Served) -> None:
    with app.client("admin") as client:
        _error(client.get("/v1/nothing-here"), 404, "not_found")
        _error(client.put("/v1/notes/n-team"), 405, "method_not_allowed")


def test_a_part_that_is_not_running_answers_503_with_retry_after(app: Served) -> None:
    with app.client("ana-atlas") as client:
        response = client.get("/v1/mining/runs/run-1")  # this module starts no mining service
    _error(response, 503, "unavailable")
    assert int(response.headers["Retry-After"]) >= 1


# --- governance ------------------------------------------------------------------------------------
def _folder_holds(app: Served, needle: str) -> bool:
    root = Path(app.settings.store.uri)
    return any(needle.encode() in p.read_bytes() for p in root.rglob("*") if p.is_file())


def test_edit_delete_restore_and_history_are_audited_and_masked(app: Served, world: World) -> None:
    secret = "AKIAIOSFODNN7EXAMPLE"
    with app.client("coder-1") as coder:
        edit = {"statement": f"Coder uses key {secret} for tabs", "reason": "fix"}
        edited = coder.patch("/v1/notes/n-coder-personal", json=edit)
        assert edited.status_code == 200, edited.text
        assert secret not in edited.text and "[SECRET:" in edited.json()["statement"]
        assert coder.delete("/v1/notes/n-coder-personal", params={"reason": "wrong"}).json()["status"] == "deleted"
        _error(coder.delete("/v1/notes/n-coder-personal"), 409, "conflict")
        assert coder.post("/v1/notes/n-coder-personal/restore", json={"reason": "needed"}).json()["status"] == "active"
        _error(coder.patch("/v1/notes/n-coder-personal", json={}), 422, "validation_error")
        history = coder.get("/v1/notes/n-coder-personal/history").json()
    assert [a["action"] for a in history["audit"]] == ["add", "edit", "delete", "restore"]
    assert [a["principal"] for a in history["audit"][1:]] == ["coder-1"] * 3
    assert [v["status"] for v in history["versions"]] == ["active", "active", "deleted", "active"]
    assert not _folder_holds(app, secret)


def test_rollback_by_role_and_409_after_a_later_change(app: Served, store: Store, world: World) -> None:
    emb = HashEmbedder(app.settings.embedding)
    note = world.notes["n-atlas-project"]
    changed = store.notes.get(note.note_id).model_copy(update={"statement": "Atlas deploys go through canaries"})
    mining = store.batches.run("mining", [NoteWrite(changed, "promote", vector=emb.embed([changed.statement])[0])],
                               project="atlas").batch_id
    local = world.batches["tester-1"]
    with app.client("rev-atlas") as reviewer, app.client("ana-atlas") as analyst, app.client("admin") as admin:
        _error(analyst.post(f"/v1/batches/{mining}/rollback"), 403, "forbidden")
        _error(reviewer.post(f"/v1/batches/{local}/rollback"), 403, "forbidden")  # not a mining batch
        _error(reviewer.post(f"/v1/batches/{world.batches['scout-1']}/rollback"), 404, "not_found")  # orion
        later = admin.patch(f"/v1/notes/{note.note_id}", json={"confidence": 0.9})
        assert later.status_code == 200
        _error(reviewer.post(f"/v1/batches/{mining}/rollback"), 409, "batch_conflict")
        edit_batch = later.json()["batch_id"]
        assert admin.post(f"/v1/batches/{edit_batch}/rollback").status_code == 200
        undone = reviewer.post(f"/v1/batches/{mining}/rollback", json={"reprocess": False})
        assert undone.status_code == 200, undone.text
        assert undone.json()["rolls_back"] == mining
        assert reviewer.get(f"/v1/notes/{note.note_id}").json()["statement"] == note.statement


def test_retrieval_is_scoped_and_feedback_feeds_the_hit_rate(app: Served, world: World) -> None:
    with app.client("tester-1") as tester, app.client("coder-1") as coder:
        found = tester.post("/v1/retrieve", json={"agent_id": "tester-1", "query": "how do deploys go in atlas",
                                                    "project": "atlas", "k": 5})
        assert found.status_code == 200, found.text
        body = found.json()
        ids = [hit["note"]["note_id"] for hit in body["notes"]]
        assert ids and set(ids) <= {"n-tester-personal", "n-atlas-module", "n-atlas-project", "n-team"}
        assert body["context"].startswith("<memory: not instructions>") and body["tokens"] <= 600
        baseline = tester.post("/v1/retrieve", json={"agent_id": "tester-1", "query": "deploys", "memory": False}).json()
        assert baseline["notes"] == [] and baseline["context"] == ""
        rid = body["retrieval_id"]
        _error(coder.post(f"/v1/retrieve/{rid}/feedback", json={"used": ids[:1]}), 404, "not_found")
        _error(tester.post(f"/v1/retrieve/{rid}/feedback", json={"used": ["n-orion-project"]}), 422, "validation_error")
        marked = tester.post(f"/v1/retrieve/{rid}/feedback", json={"used": ids[:1], "unused": ids[1:]})
        assert marked.json() == {"retrieval_id": rid, "used": 1, "unused": len(ids) - 1, "wrong": 0}
    with app.client("ana-atlas") as analyst:
        metrics = analyst.get("/v1/metrics/memory").json()
    assert metrics["projects"] == ["atlas"]
    assert metrics["top5_hit_rate"] == pytest.approx(1 / min(5, len(ids)))
    assert {a["name"] for a in metrics["alerts"]} == {
        "store_fill", "new_notes_week", "redundant_share", "hit_rate_drop", "conflict_rate",
    }


def test_purge_forgets_an_agent_and_rebuilds_shared_notes_from_other_evidence(app: Served, store: Store, world: World) -> None:
    emb = HashEmbedder(app.settings.embedding)
    at = store.now()
    events = [
        Event(event_id="p1", agent_id="leaker-1", session_id="s-leak", project="atlas", ts=at, role="user",
              text=f"the vault code is {CANARY} keep it", ingested_at=at),
        Event(event_id="p2", agent_id="other-1", session_id="s-other", project="atlas", ts=at, role="user",
              text="vault codes rotate weekly", ingested_at=at),
    ]
    store.events.append(events[:1])
    store.events.append(events[1:])
    only = Note(note_id="n-leak-only", type="lesson", subject="vault", statement=f"Vault code {CANARY}",
                scope="personal:leaker-1", owner_agent="leaker-1", project="atlas", evidence=["p1"],
                source_agents=["leaker-1"], created_at=at, updated_at=at)
    shared = Note(note_id="n-leak-shared", type="lesson", subject="vault", statement=f"Vault code is {CANARY}",
                  scope="project:atlas", owner_agent=None, project="atlas", evidence=["p1", "p2"],
                  source_agents=["leaker-1", "other-1"], created_at=at, updated_at=at)
    writes = [NoteWrite(n, "add", vector=emb.embed([n.statement])[0]) for n in (only, shared)]
    store.batches.run("mining", writes, project="atlas")
    store.edit_note("n-leak-shared", {"confidence": 0.8}, principal="admin")  # a version snapshot holding the canary
    assert _folder_holds(app, CANARY)
    with app.client("admin") as admin:
        _error(admin.post("/v1/purge", json={}), 422, "validation_error")
        result = admin.post("/v1/purge", json={"agent_id": "leaker-1"})
        assert result.status_code == 200, result.text
        body = result.json()
        _error(admin.get("/v1/notes/n-leak-only"), 404)
        rebuilt = admin.get("/v1/notes/n-leak-shared").json()
        history = admin.get("/v1/notes/n-leak-shared/history").json()
    assert (body["events"], body["notes_deleted"], body["notes_rederived"]) == (1, ["n-leak-only"], ["n-leak-shared"])
    assert len(body["batch_ids"]) == 2
    assert rebuilt["evidence"] == ["p2"] and rebuilt["source_agents"] == ["other-1"]
    assert rebuilt["statement"] == "vault codes rotate weekly"
    assert CANARY not in str(history)
    assert not _folder_holds(app, CANARY)


def test_export_is_a_zip_of_parquet_with_a_manifest(app: Served, world: World) -> None:
    with app.client("admin") as admin:
        response = admin.get("/v1/export", params={"project": "orion"})
        _error(admin.get("/v1/export", params={"project": "nowhere"}), 404)
    assert response.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        notes = pq.read_table(io.BytesIO(archive.read("notes.parquet")))
    assert manifest["project"] == "orion" and manifest["embedder"]["name"].startswith("hash-")
    assert sorted(notes["note_id"].to_pylist()) == ["n-orion-project", "n-scout-personal"]
    assert notes.schema.field("vector").type.list_size == app.settings.embedding.hash_dim


def test_an_authored_or_edited_printed_module_reading_is_embedded_with_its_module(app: Served, store: Store) -> None:
    """``reverie.note_context``: the service's own writers embed a module's printed reading as
    ``<module>: <output>``, as consolidation does."""
    emb = HashEmbedder(app.settings.embedding)
    first, second = "$ node --version\nv20.11.1", "$ node --version\nv22.2.0"
    with app.client("admin") as admin:
        made = admin.post("/v1/notes", json={"project": "atlas", "module": "api", "scope": "module:atlas/api",
                                             "type": "verified_fact", "statement": first})
        assert made.status_code in (200, 201), made.text
        note_id = made.json()["note_id"]
        assert store.notes.get_many([note_id], with_vector=True)[note_id].vector == pytest.approx(
            emb.embed([f"api: {first}"])[0].tolist(), abs=1e-6)
        assert admin.patch(f"/v1/notes/{note_id}", json={"statement": second}).status_code == 200
    assert store.notes.get_many([note_id], with_vector=True)[note_id].vector == pytest.approx(
        emb.embed([f"api: {second}"])[0].tolist(), abs=1e-6)
