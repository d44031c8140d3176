"""``/mcp``: Reverie's MCP tools over streamable HTTP (DESIGN §6.1), stateless, so any replica answers.

The gate admits a request to ``/mcp`` like any other (no key: 401; quota; body size). Each tool call
then calls this same FastAPI app in process (httpx's ASGI transport) with the request's own bearer
key, so the routes' roles and scopes decide what the tools may do, exactly as over HTTP (and the key's
quota counts ``/mcp`` and each call it makes: two or three per tool call). The SDK's
session manager runs for the app's lifespan (Serve runs the ingress app's lifespan in each replica).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI
from mcp.server.mcpserver import MCPServer
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from reverie.integrations.mcp_server import build_server, http_link

PATH = "/mcp"
INTERNAL_URL = "http://reverie.internal"  # calls never leave the process; the host only names them


class McpEndpoint:
    """The ASGI endpoint at ``/mcp`` and the lifespan its session manager needs."""

    def __init__(self, host: str) -> None:
        self._host = host
        self._server: MCPServer | None = None

    def mount(self, app: FastAPI) -> None:
        self._server = build_server(http_link(INTERNAL_URL, httpx.ASGITransport(app=app)))
        self._server.streamable_http_app(stateless_http=True, json_response=True, host=self._host)
        app.router.routes.append(Route(PATH, endpoint=self, methods=["GET", "POST", "DELETE"]))

    @asynccontextmanager
    async def lifespan(self, _: FastAPI) -> AsyncIterator[None]:
        assert self._server is not None, "mount() the endpoint before the app starts"
        async with self._server.session_manager.run():
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self._server is not None
        await self._server.session_manager.handle_request(scope, receive, send)
