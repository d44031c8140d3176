"""Governance: purge, export and import of a project."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Query, Response

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


def _importer(principal: Caller) -> Principal:
    """The caller, if its role may import (a dependency: a refused caller gets 403 before the body is read)."""
    require(principal, "import")
    return principal


@router.post("/import", response_model=ImportResult)
def import_route(
    data: Annotated[bytes, Body(media_type=ZIP, description="a ZIP archive from `GET /v1/export`")],
    principal: Annotated[Principal, Depends(_importer)], deps: Deps,
) -> ImportResult:
    """Import an archive written by ``GET /v1/export`` as one atomic ``import`` batch."""
    archive = read_archive(data, deps.settings.serve.max_import_bytes)
    return import_archive(deps.store, deps.embedder, archive, principal.id)
