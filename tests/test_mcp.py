"""The MCP tools, driven by the official MCP client SDK against one real service (two Serve replicas,
the directory and agent actors, the real MiniLM): over stdio (`reverie mcp` as a subprocess) and over
streamable HTTP at /mcp."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from conftest import ROOT
from reverie.integrations.langgraph import ReverieStore
from serving import served, served_settings

T = TypeVar("T")
TOOLS = {"remember", "recall", "feedback", "delete_memory", "memories", "end_session", "consolidate"}
SECRET = "AKIAZ7QWERTY1234ASDF"
KEYS = {"coder-1": ("agent", ["atlas"]), "tester-1": ("agent", ["atlas"]), "roamer": ("agent", ["atlas", "orion"]),
        "ana-atlas": ("analyst", ["atlas"])}


@dataclass
class World:
    url: str
    keys: dict[str, str]


@pytest.fixture(scope="module")
def world(serve_session: int, embedding_service: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    settings = served_settings(tmp_path_factory.mktemp("mcp"), provider="minilm", serve={"num_replicas": 2})
    with served(settings, KEYS, memory=True) as app:
        yield World(app.url, app.keys)


# --- the two transports of the official client -----------------------------------------------------
@asynccontextmanager
async def over_http(world: World, who: str) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {world.keys[who]}"}
    async with httpx2.AsyncClient(headers=headers, timeout=120) as http, \
            streamable_http_client(f"{world.url}/mcp", http_client=http) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def over_stdio(world: World, who: str, **env: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "reverie.cli", "mcp"],
        env={"REVERIE_URL": world.url, "REVERIE_KEY": world.keys[who], "PYTHONPATH": str(ROOT), **env},
    )
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


def run(body: Callable[[], Awaitable[T]]) -> T:
    return anyio.run(body)


async def ok(session: ClientSession, tool: str, **arguments: Any) -> CallToolResult:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, (tool, result.content)
    return result


async def refused(session: ClientSession, tool: str, **arguments: Any) -> str:
    result = await session.call_tool(tool, arguments)
    assert result.is_error, (tool, result.structured_content)
    return " ".join(getattr(block, "text", "") for block in result.content)


def text_of(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


async def recall_note(session: ClientSession, query: str, word: str, tries: int = 40) -> dict[str, Any] | None:
    """The first note item of a recall whose text holds ``word`` (another replica sees a batch within
    its refresh period, so a few tries are allowed)."""
    for _ in range(tries):
        result = await ok(session, "recall", query=query)
        notes = [i for i in (result.structured_content or {})["items"] if i["kind"] == "note" and word in i["text"].lower()]
        if notes:
            return notes[0]
        await anyio.sleep(0.25)
    return None


async def retrieval_returning(session: ClientSession, query: str, item_id: str, tries: int = 40) -> str:
    """The id of a recall that returned ``item_id`` (the replica that answers may not have refreshed yet)."""
    for _ in range(tries):
        content = (await ok(session, "recall", query=query)).structured_content or {}
        if item_id in [i["id"] for i in content["items"]]:
            return content["retrieval_id"]
        await anyio.sleep(0.25)
    raise AssertionError(f"no recall of {query!r} returned {item_id} in {tries} tries")


async def gone(session: ClientSession, query: str, word: str) -> dict[str, Any] | None:
    """None once four recalls in a row (either replica may answer) find no note holding ``word``;
    the note still found if that never happens within 10 s (each replica drops it at its next refresh)."""
    misses, found = 0, None
    for _ in range(40):
        found = await recall_note(session, query, word, tries=1)
        misses = 0 if found is not None else misses + 1
        if misses == 4:
            return None
        await anyio.sleep(0.25)
    return found


# --- tests -------------------------------------------------------------------------------------------
def test_two_sessions_over_stdio_are_consolidated_and_recalled_only_by_their_agent(world: World) -> None:
    async def body() -> tuple[set[str], dict[str, Any] | None, dict[str, Any], str]:
        async with over_stdio(world, "coder-1") as session:
            listed = {t.name for t in (await session.list_tools()).tools}
            first = await ok(session, "remember", text="For me, Makefiles are indented with tabs, never spaces.",
                             session_id="mk-1", tags=["preference"])
            await ok(session, "end_session", session_id="mk-1")
            await ok(session, "remember", text="I want tabs, not spaces, for indentation in every Makefile.",
                     session_id="mk-2", tags=["preference"])
            await ok(session, "end_session", session_id="mk-2")
            batch = (await ok(session, "consolidate")).structured_content or {}
            note = await recall_note(session, "How should a Makefile be indented for this user?", "tab")
        assert (first.structured_content or {})["accepted"] == 1 and (first.structured_content or {})["project"] == "atlas"
        return listed, note, batch, ""

    listed, note, batch, _ = run(body)
    assert listed == TOOLS
    assert batch["batch_id"] and note is not None and note["scope"] == "personal:coder-1"

    async def teammate() -> tuple[list[str], str]:
        async with over_http(world, "tester-1") as session:
            seen = []
            for _ in range(8):  # both replicas, after their refresh
                result = await ok(session, "recall", query="How should a Makefile be indented for this user?")
                seen += [i["id"] for i in (result.structured_content or {})["items"]]
                await anyio.sleep(0.1)
            error = await refused(session, "recall", query="Makefile indentation", scopes=["personal:coder-1"])
        return seen, error

    seen, error = run(teammate)
    assert note["id"] not in seen
    assert "personal:coder-1" in error and "another agent" in error


def test_the_same_tools_over_http_with_the_daily_session_default(world: World) -> None:
    async def body() -> tuple[set[str], dict[str, Any] | None, dict[str, Any], dict[str, Any]]:
        async with over_http(world, "tester-1") as session:
            listed = {t.name for t in (await session.list_tools()).tools}
            said = await ok(session, "remember", text="Ship the release notes as one short table per service, please.",
                            tags=["preference"])
            ended = await ok(session, "end_session")
            await ok(session, "consolidate")
            note = await recall_note(session, "What format do the release notes take?", "release notes")
            assert note is not None
            retrieval_id = await retrieval_returning(session, "What format do the release notes take?", note["id"])
            marked = await ok(session, "feedback", retrieval_id=retrieval_id, used=[note["id"]])
            listed_notes = (await ok(session, "memories", scope="personal:tester-1")).structured_content or {}
            deleted = (await ok(session, "delete_memory", note_id=note["id"])).structured_content or {}
            after = await gone(session, "What format do the release notes take?", "release notes")
        assert (marked.structured_content or {})["used"] == 1 and deleted["status"] == "deleted" and after is None
        assert note["id"] in [n["note_id"] for n in listed_notes["notes"]]
        return listed, note, said.structured_content or {}, ended.structured_content or {}

    listed, note, said, ended = run(body)
    assert listed == TOOLS and note is not None
    assert said["session_id"] == ended["session_id"] and said["session_id"].startswith("mcp-tester-1-20")


def test_mcp_without_a_key_is_401(world: World) -> None:
    response = httpx.post(f"{world.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                          headers={"Accept": "application/json, text/event-stream"}, timeout=30)
    assert response.status_code == 401 and response.json()["error"]["code"] == "unauthorized"


def test_a_bad_argument_is_a_tool_error_and_the_next_call_succeeds(world: World) -> None:
    async def body() -> tuple[str, str, str]:
        async with over_http(world, "coder-1") as session:
            wrong_type = await refused(session, "recall", query="Makefile indentation", k="many")
            await ok(session, "recall", query="Makefile indentation")
            wrong_role = await refused(session, "remember", text="hello", role="robot")
            unknown = await refused(session, "delete_memory", note_id="n-does-not-exist")
            await ok(session, "memories")
        return wrong_type, wrong_role, unknown

    wrong_type, wrong_role, unknown = run(body)
    assert "invalid arguments for recall: k" in wrong_type and "many" not in wrong_type
    assert "invalid arguments for remember: role" in wrong_role and "robot" not in wrong_role
    assert "n-does-not-exist" in unknown and "not_found" in unknown


def test_a_secret_sent_through_remember_comes_back_masked(world: World) -> None:
    async def body() -> str:
        async with over_http(world, "coder-1") as session:
            await ok(session, "remember", text=f"The staging deploy uses AWS key {SECRET} for the bucket sync.",
                     session_id="secret-1")
            answers = []
            for _ in range(40):  # the turn is recalled once the answering replica's cache has refreshed
                result = await ok(session, "recall", query="Which AWS key does the staging bucket sync use?")
                answers.append(text_of(result) + str(result.structured_content))
                if "staging" in answers[-1]:
                    break
                await anyio.sleep(0.25)
        return "\n".join(answers)

    answer = run(body)
    assert "staging" in answer and SECRET not in answer


def test_keys_of_other_roles_and_keys_of_several_projects_get_tool_errors(world: World) -> None:
    async def body() -> tuple[str, str, CallToolResult]:
        async with over_http(world, "ana-atlas") as session:
            analyst = await refused(session, "recall", query="anything")
        async with over_http(world, "roamer") as session:
            unplaced = await refused(session, "remember", text="Notes about both projects.")
            placed = await ok(session, "remember", text="Orion builds run on the big runners.", project="orion")
        return analyst, unplaced, placed

    analyst, unplaced, placed = run(body)
    assert "analyst" in analyst and "HTTP API" in analyst
    assert "project" in unplaced and "REVERIE_PROJECT" in unplaced
    assert (placed.structured_content or {})["project"] == "orion"


def test_reverie_project_is_the_default_over_stdio(world: World) -> None:
    async def body() -> dict[str, Any]:
        async with over_stdio(world, "roamer", REVERIE_PROJECT="orion") as session:
            return (await ok(session, "remember", text="Orion deploys wait for the change window.")).structured_content or {}

    assert run(body)["project"] == "orion"


def test_consolidation_merges_into_an_agents_own_note_and_the_note_keeps_its_key(world: World) -> None:
    rule = "Deploys to staging need a green build on the main branch first."
    with ReverieStore(world.url, world.keys["coder-1"]) as store:
        store.put(("rules",), "staging-deploys", {"text": rule})
        before = httpx.get(f"{world.url}/v1/notes", params={"namespace": "rules", "key": "staging-deploys"},
                           headers={"Authorization": f"Bearer {world.keys['coder-1']}"}, timeout=30).json()["notes"]

        async def body() -> None:
            async with over_http(world, "coder-1") as session:
                await ok(session, "remember", text=rule, session_id="rule-1", tags=["preference"])
                await ok(session, "end_session", session_id="rule-1")
                await ok(session, "consolidate")

        run(body)
        item = store.get(("rules",), "staging-deploys")
        after = httpx.get(f"{world.url}/v1/notes/{before[0]['note_id']}",
                          headers={"Authorization": f"Bearer {world.keys['coder-1']}"}, timeout=30).json()
    assert [n["evidence"] for n in before] == [[]]
    assert after["evidence"] and after["keys"] == ["staging-deploys"] and after["status"] == "active"
    assert item is not None and item.value == {"text": rule}
