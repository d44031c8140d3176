"""``/mcp``: Reverie's MCP tools over streamable HTTP (DESIGN §6.1), stateless, so any replica answers.

The gate admits a request to ``/mcp`` like any other (no key: 401; quota; body size). Each tool call
then calls this same FastAPI app in process (httpx's ASGI transport) with the request's own bearer
key, so the routes' roles and scopes decide what the tools may do, exactly as over HTTP (and the key's
quota counts ``/mcp`` and each call it makes: two or three per tool call). The SDK's
session manager starts on the first request and runs until the app's lifespan ends (Serve runs the
ingress app's lifespan in each replica).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import anyio
import httpx
from fastapi import FastAPI
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

PATH = "/mcp"
INTERNAL_URL = "http://reverie.internal"  # calls never leave the process; the host only names them


class McpEndpoint:
    """The ASGI endpoint at ``/mcp`` and the lifespan its session manager needs.

    The MCP SDK (about 0.7 s of imports) loads on the first ``/mcp`` request, not when a replica
    starts: most replicas never serve one. Its session manager then runs in a task of the app's
    lifespan until the replica stops."""

    def __init__(self, host: str) -> None:
        self._host = host
        self._app: FastAPI | None = None
        self._server: MCPServer | None = None
        self._failure: BaseException | None = None
        self._wanted: anyio.Event | None = None
        self._ready: anyio.Event | None = None

    def mount(self, app: FastAPI) -> None:
        self._app = app
        app.router.routes.append(Route(PATH, endpoint=self, methods=["GET", "POST", "DELETE"]))

    @asynccontextmanager
    async def lifespan(self, _: FastAPI) -> AsyncIterator[None]:
        assert self._app is not None, "mount() the endpoint before the app starts"
        self._wanted, self._ready = anyio.Event(), anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(self._run_when_wanted)
            yield
            group.cancel_scope.cancel()

    async def _run_when_wanted(self) -> None:
        assert self._wanted is not None and self._ready is not None
        await self._wanted.wait()
        try:
            server = await anyio.to_thread.run_sync(self._build)  # the imports, off the event loop
            async with server.session_manager.run():
                self._server = server
                self._ready.set()
                await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            raise
        except Exception as error:  # kept for every /mcp request (a 500), not raised into the lifespan
            self._failure = error
        finally:
            self._server = None
            self._ready.set()

    def _build(self) -> MCPServer:
        from reverie.integrations.mcp_server import build_server, http_link

        assert self._app is not None
        server = build_server(http_link(INTERNAL_URL, httpx.ASGITransport(app=self._app)))
        server.streamable_http_app(stateless_http=True, json_response=True, host=self._host)
        return server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self._wanted is not None and self._ready is not None, "the app's lifespan is not running"
        self._wanted.set()
        await self._ready.wait()
        server = self._server
        if server is None:
            raise RuntimeError("the MCP server is not running") from self._failure
        await server.session_manager.handle_request(scope, receive, send)
