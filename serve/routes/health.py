"""Liveness (no key, no data), the caller's own key, and the memory quality metrics."""

from __future__ import annotations

from fastapi import APIRouter

from reverie.api import Health, MemoryMetrics, PrincipalView
from serve.auth.access import ROLE_ACTIONS, require
from serve.governance.quality import memory_metrics
from serve.routes.context import ERRORS, Caller, Deps, NameQuery

router = APIRouter(responses=ERRORS)
VERSION = "0.1.0"


@router.get("/healthz", response_model=Health, tags=["health"])
def healthz() -> Health:
    """Liveness only: answers without a key and shows no data."""
    return Health(version=VERSION)


@router.get("/v1/metrics/memory", response_model=MemoryMetrics, tags=["health"])
def metrics_memory(principal: Caller, deps: Deps, project: NameQuery = None) -> MemoryMetrics:
    """The quality metrics of DESIGN §8 over the caller's projects, and the state of each alert."""
    require(principal, "metrics.read")
    deps.retrievals.flush()
    return memory_metrics(deps, principal.project_filter(project))


@router.get("/v1/whoami", response_model=PrincipalView, tags=["health"])
def whoami(principal: Caller) -> PrincipalView:
    """The principal, role and projects of the caller's key, and the actions its role allows."""
    return PrincipalView(principal=principal.id, role=principal.role, projects=sorted(principal.projects),
                         actions=sorted(ROLE_ACTIONS[principal.role]))
