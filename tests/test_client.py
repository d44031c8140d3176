"""reverie.Client and reverie.AsyncClient against a running app: typed results for the routes, the
service's errors as our exceptions, paging, export → import, and retries on load refusals."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

import reverie
from reverie.api import NoteView, Retrieval
from reverie.client import AsyncClient, Client, error_of
from reverie.clock import SystemClock
from reverie.embed import HashEmbedder, spec_for
from reverie.errors import ForbiddenError, NotFoundError, QuotaError, UnavailableError, ValidationError
from reverie.store import Store
from serving import Served, World, seed_world, served, served_settings


@pytest.fixture(scope="module")
def app(ray_session: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served(served_settings(tmp_path_factory.mktemp("client"))) as running:
        yield running


@pytest.fixture(scope="module")
def world(app: Served) -> World:
    store = Store.open(app.settings.store, spec_for(app.settings.embedding), SystemClock())
    return seed_world(store, HashEmbedder(app.settings.embedding))


def test_the_sync_client_returns_typed_results(app: Served, world: World) -> None:
    with reverie.Client(app.url, app.keys["coder-1"]) as client:
        assert client.health().status == "ok"
        note = client.note("n-atlas-module")
        assert isinstance(note, NoteView) and note.scope == "module:atlas/api"
        assert [n.note_id for n in client.iter_notes(limit=1)] == [
            "n-atlas-module", "n-atlas-project", "n-coder-personal", "n-team",
        ]
        found = client.retrieve("coder-1", "api handlers validate ids", project="atlas", k=2)
        assert isinstance(found, Retrieval) and found.notes[0].note.note_id == "n-atlas-module"
        assert client.feedback(found.retrieval_id, used=[found.notes[0].note.note_id]).used == 1
        edited = client.edit_note("n-coder-personal", confidence=0.9, reason="sure now")
        assert edited.confidence == pytest.approx(0.9) and edited.version == 2
        assert client.delete_note("n-coder-personal").status == "deleted"
        assert client.restore_note("n-coder-personal").status == "active"
        assert [a.action for a in client.history("n-coder-personal").audit] == ["add", "edit", "delete", "restore"]
        assert client.event("e1", agent_id="coder-1").text.startswith("coder-1 says")
        assert {a.agent_id for a in client.agents().agents} == {"coder-1", "tester-1"}
        assert [b.agent_id for b in client.batches().batches if b.kind == "local"] == ["coder-1"]


def test_errors_come_back_as_our_exceptions(app: Served, world: World) -> None:
    with Client(app.url, app.keys["coder-1"]) as client:
        with pytest.raises(NotFoundError) as missing:
            client.note("n-scout-personal")
        assert "no note" in missing.value.message
        with pytest.raises(ForbiddenError):
            client.retrieve("tester-1", "anything")
        with pytest.raises(ValidationError) as invalid:
            client.notes(limit=5000)
        assert invalid.value.field == "limit"
    with Client(app.url, "rv_wrong-key-of-nobody-00000000") as stranger, pytest.raises(reverie.errors.AuthError):
        stranger.notes()


def test_export_and_import_through_the_client(app: Served, world: World) -> None:
    with Client(app.url, app.keys["admin"]) as admin:
        archive = admin.export("orion")
        result = admin.import_archive(archive)
        assert (result.project, result.notes, result.reembedded) == ("orion", 2, False)
        assert admin.note("n-orion-project").version == 2
        rolled = admin.rollback(result.batch_id)
        assert rolled.rolls_back == result.batch_id
        assert admin.note("n-orion-project").version == 3  # the compensating batch's view


def test_the_async_client_is_the_same_api(app: Served, world: World) -> None:
    async def scenario() -> tuple[list[str], str]:
        async with AsyncClient(app.url, app.keys["ana-atlas"]) as client:
            ids = [n.note_id async for n in client.iter_notes(limit=2)]
            with pytest.raises(ForbiddenError):
                await client.memory_metrics(project="orion")
            metrics = await client.memory_metrics()
            return ids, str(metrics.projects)

    ids, projects = asyncio.run(scenario())
    assert ids == ["n-atlas-module", "n-atlas-project", "n-team"] and projects == "['atlas']"


def test_refusals_for_load_are_retried_after_retry_after() -> None:
    answers = iter([
        httpx.Response(503, text="no healthy replicas"),  # Ray's proxy: a bare 503
        httpx.Response(429, headers={"Retry-After": "0"},
                       json={"error": {"code": "quota_exceeded", "message": "slow down", "field": None}}),
        httpx.Response(200, json={"status": "ok", "version": "0.1.0"}),
    ])
    transport = httpx.MockTransport(lambda request: next(answers))
    with Client("http://reverie.invalid", "k", retries=2, transport=transport) as client:
        assert client.health().status == "ok"
    bare = error_of(httpx.Response(503, text="busy", request=httpx.Request("GET", "http://x/v1/notes")))
    assert isinstance(bare, UnavailableError) and bare.retry_after == 1.0
    quota = error_of(httpx.Response(429, headers={"Retry-After": "7"}, request=httpx.Request("GET", "http://x/"),
                                    json={"error": {"code": "quota_exceeded", "message": "m", "field": None}}))
    assert isinstance(quota, QuotaError) and quota.retry_after == 7.0
