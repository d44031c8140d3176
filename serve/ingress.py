"""The FastAPI application of the v1 HTTP contract: routes, error handlers, the gate, CORS.

``create_api(settings, services)`` builds it (with the MCP tools at ``/mcp``); the Serve deployment calls it once per replica with
the replica's services. Without services (``None``) it still describes itself (``app.openapi()``),
which is how the OpenAPI-driven tests and docs read the contract without a running service.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from reverie.errors import ConfigError, UnavailableError
from reverie.settings import Settings
from serve import statuses
from serve.auth.gate import Gate
from serve.mcp_endpoint import McpEndpoint
from serve.routes import agents, governance, graph, health, mining, notes, retrieval, review, ui
from serve.services import Services

DESCRIPTION = (
    "Shared, evidence-backed memory for fleets of LLM agents. Every route but /healthz needs "
    "'Authorization: Bearer <key>'. Errors are {\"error\": {\"code\", \"message\", \"field\"}}."
)


def create_api(settings: Settings, services: Services | None = None) -> FastAPI:
    mcp = McpEndpoint(settings.serve.host)
    app = FastAPI(
        title="Reverie", version=health.VERSION, description=DESCRIPTION,
        docs_url=None, redoc_url=None, openapi_url="/openapi.json", lifespan=mcp.lifespan,
    )
    for module in (agents, notes, retrieval, governance, mining, graph, review, health, ui):
        app.include_router(module.router)
    mcp.mount(app)
    statuses.install(app)
    app.state.services = services
    _cors(app, settings.auth.cors_origins)
    app.add_middleware(Gate, services=lambda: _require(app))
    return app


def _require(app: FastAPI) -> Services:
    if app.state.services is None:
        raise UnavailableError("this application was built without its services; serve it with build_app()")
    return app.state.services


def _cors(app: FastAPI, origins: list[str]) -> None:
    """An explicit allow-list at most: no origin by default, and never a wildcard."""
    if not origins:
        return
    if any("*" in origin for origin in origins):
        raise ConfigError("REVERIE_AUTH__CORS_ORIGINS may not contain '*'; list the exact origins")
    app.add_middleware(
        CORSMiddleware, allow_origins=origins, allow_methods=["GET", "POST", "PATCH", "DELETE"],
        allow_headers=["Authorization", "Content-Type"], allow_credentials=False,
    )
