"""Capture and control: events, session end, consolidation, agent status and list, batches, rollback."""

from __future__ import annotations

import time

from fastapi import APIRouter

from reverie.api import (
    AgentList,
    AgentStatus,
    BatchList,
    BatchView,
    CaptureRequest,
    CaptureResult,
    ConsolidationResult,
    RollbackRequest,
    SessionEnded,
)
from reverie.errors import ForbiddenError, NotFoundError, ReverieError, ValidationError
from reverie.records import Session
from serve.auth.access import (
    Principal,
    may_roll_back,
    require,
    require_project,
    require_self,
    sees_agent,
    sees_batch,
)
from serve.routes.context import ERRORS, Caller, Deps, IdPath, IdQuery, NameQuery
from serve.services import Services

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["capture and control"])


@router.post("/events", status_code=202, response_model=CaptureResult)
def capture(request: CaptureRequest, principal: Caller, deps: Deps) -> CaptureResult:
    """Capture events of one session; 202 once they are committed (retries with the same ids are safe)."""
    require(principal, "capture")
    require_self(principal, request.agent_id)
    require_project(principal, request.project)
    _check_sizes(request, deps)
    result = deps.directory.capture(request)
    deps.telemetry.capture(result.accepted, result.duplicates)
    return result


def _check_sizes(request: CaptureRequest, deps: Deps) -> None:
    settings = deps.settings.capture
    if len(request.events) > settings.max_events_per_request:
        raise ValidationError(
            f"{len(request.events)} events in one request, over the limit of {settings.max_events_per_request}; "
            "send them in several requests", field="events",
        )
    for index, event in enumerate(request.events):
        size = len(event.text.encode())
        if size > settings.max_text_bytes:
            raise ValidationError(
                f"event {index} has {size} bytes of text, over the limit of {settings.max_text_bytes}; split it",
                field=f"events.{index}.text",
            )


@router.post("/sessions/{session_id}/end", response_model=SessionEnded)
def end_session(session_id: IdPath, principal: Caller, deps: Deps) -> SessionEnded:
    """Mark a session ended (the agent's trigger policy may then consolidate it)."""
    require(principal, "capture")
    session = _session(deps, principal, session_id)
    deps.directory.end_session(session.agent_id, session_id)
    return SessionEnded(session_id=session_id, agent_id=session.agent_id)


def _session(deps: Services, principal: Principal, session_id: str) -> Session:
    found = deps.store.events.sessions(session_ids=[session_id])
    if not found or (principal.role == "agent" and found[0].agent_id != principal.id):
        raise NotFoundError(f"no session {session_id!r}; capture its events first")
    return found[0]


@router.post("/agents/{agent_id}/consolidate", response_model=ConsolidationResult)
def consolidate(agent_id: IdPath, principal: Caller, deps: Deps) -> ConsolidationResult:
    """Run the agent's consolidation now and wait for it; 409 while a run is in progress."""
    require(principal, "agent.consolidate")
    require_self(principal, agent_id)
    started = time.perf_counter()
    try:
        result = deps.directory.consolidate(agent_id)
    except ReverieError as exc:
        deps.telemetry.consolidation(exc.code, time.perf_counter() - started)
        raise
    deps.telemetry.consolidation("committed" if result.batch_id else "nothing", time.perf_counter() - started)
    return result


@router.get("/agents/{agent_id}/status", response_model=AgentStatus)
def status(agent_id: IdPath, principal: Caller, deps: Deps) -> AgentStatus:
    """Cursor, last run, pending sessions and next scheduled run of one agent."""
    require(principal, "agent.read")
    require_self(principal, agent_id)
    return deps.directory.status(agent_id)


@router.get("/agents", response_model=AgentList)
def agents(principal: Caller, deps: Deps, project: NameQuery = None) -> AgentList:
    """The agents of the caller's projects, with their sessions and events."""
    projects = principal.project_filter(project)
    found = deps.store.events.agents(project)
    shown = [
        a for a in found
        if sees_agent(principal, a.agent_id, a.projects) and (projects is None or set(a.projects) & set(projects))
    ]
    return AgentList(agents=shown)


@router.get("/batches", response_model=BatchList)
def batches(principal: Caller, deps: Deps, project: NameQuery = None, agent: IdQuery = None) -> BatchList:
    """The batch timeline (consolidation, mining, edits, rollbacks, purges, imports), oldest first."""
    require(principal, "batches.read")
    principal.project_filter(project)
    found = deps.store.batches.list(project=project, agent_id=agent)
    return BatchList(batches=[BatchView.of(b) for b in found if sees_batch(principal, b)])


@router.post("/batches/{batch_id}/rollback", response_model=BatchView)
def rollback(batch_id: IdPath, principal: Caller, deps: Deps, body: RollbackRequest | None = None) -> BatchView:
    """Undo one batch exactly, as a compensating batch; 409 if a later batch changed the same notes."""
    require(principal, "batches.rollback")
    batch = deps.store.batches.get(batch_id)
    if not sees_batch(principal, batch):
        raise NotFoundError(f"no batch {batch_id!r}; list batches to find its id")
    if not may_roll_back(principal, batch):
        raise ForbiddenError(
            f"a {principal.role} may roll back only mining batches of its projects; this is a {batch.kind} batch")
    reprocess = body.reprocess if body is not None else False
    return BatchView.of(deps.store.batches.rollback(batch_id, principal=principal.id, reprocess=reprocess))
