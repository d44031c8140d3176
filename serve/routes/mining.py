"""Mining runs: start one for a project, watch it."""

from __future__ import annotations

import time

from fastapi import APIRouter, Response

from reverie.api import MiningRun, MiningStart
from reverie.errors import NotFoundError, ReverieError
from serve.auth.access import require, require_project
from serve.routes.context import ERRORS, Caller, Deps, IdPath

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["mining and graph"])


@router.post("/mining/runs", response_model=MiningRun, status_code=202,
             responses={200: {"model": MiningRun, "description": "the run, finished (wait: true)"}})
def start_run(body: MiningStart, principal: Caller, deps: Deps, response: Response) -> MiningRun:
    """Start a mining run of a project (202); with ``wait: true``, wait for it and answer 200."""
    require(principal, "mining.start")
    require_project(principal, body.project)
    started = time.perf_counter()
    try:
        run = deps.mining.start(body.project, wait=body.wait, principal=principal.id)
    except ReverieError as exc:
        deps.telemetry.mining_run(exc.code, None)
        raise
    deps.telemetry.mining_run(run.status, time.perf_counter() - started if body.wait else None)
    if body.wait:
        response.status_code = 200
    return run


@router.get("/mining/runs/{run_id}", response_model=MiningRun)
def watch_run(run_id: IdPath, principal: Caller, deps: Deps) -> MiningRun:
    """The state of one run: ``{run_id, status, promoted}`` and its other outcomes."""
    require(principal, "mining.read")
    run = deps.mining.run(run_id)
    if not principal.in_project(run.project):
        raise NotFoundError(f"no mining run {run_id!r}")
    return run
