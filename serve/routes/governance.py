"""Governance: purge, export and import of a project."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from reverie.api import ImportResult, PurgeRequest, PurgeResult
from serve.auth.access import Principal, require
from serve.governance.forget import purge
from serve.governance.transfer import export_project, import_archive, read_archive
from serve.routes.context import ERRORS, NAME, Caller, Deps

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["governance"])

ZIP = "application/zip"


@router.post("/purge", response_model=PurgeResult)
def purge_route(request: PurgeRequest, principal: Caller, deps: Deps) -> PurgeResult:
    """Hard forget an agent, a session or events, everything derived only from them and their bytes."""
    require(principal, "purge")
    result = purge(deps.store, deps.embedder, request, principal.id)
    deps.recaller.purged(result.notes_deleted)  # other replicas drop them at their next reconcile
    return result


@router.get("/export", response_class=Response, responses={200: {"content": {ZIP: {}}, "description": "the archive"}})
def export_route(principal: Caller, deps: Deps, project: Annotated[str, Query(pattern=NAME)]) -> Response:
    """A ZIP of Parquet files with the project's notes (vectors included) and graph, and a manifest."""
    require(principal, "export")
    data = export_project(deps.store, project)
    headers = {"Content-Disposition": f'attachment; filename="reverie-{project}.zip"'}
    return Response(content=data, media_type=ZIP, headers=headers)


@router.post(
    "/import", response_model=ImportResult,
    openapi_extra={"requestBody": {"required": True, "content": {ZIP: {"schema": {"type": "string", "format": "binary"}}}}},
)
async def import_route(request: Request, principal: Caller, deps: Deps) -> ImportResult:
    """Import an archive written by ``GET /v1/export`` as one atomic ``import`` batch."""
    require(principal, "import")
    data = await request.body()
    return await run_in_threadpool(_import, data, principal, deps)


def _import(data: bytes, principal: Principal, deps: Deps) -> ImportResult:
    archive = read_archive(data, deps.settings.serve.max_import_bytes)
    return import_archive(deps.store, deps.embedder, archive, principal.id)
