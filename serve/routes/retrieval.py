"""Retrieval and its feedback."""

from __future__ import annotations

from fastapi import APIRouter

from reverie.api import FeedbackRequest, FeedbackResult, Retrieval, RetrieveRequest
from serve.access import require, require_self
from serve.recall import recall
from serve.routes.context import ERRORS, Caller, Deps, IdPath

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["retrieval"])


@router.post("/retrieve", response_model=Retrieval)
def retrieve(request: RetrieveRequest, principal: Caller, deps: Deps) -> Retrieval:
    """The notes that fit a task, within k and a token budget, and a memory block to inject.

    ``memory: false`` returns no notes (the stateless baseline) but is logged like any retrieval.
    """
    require(principal, "retrieve")
    require_self(principal, request.agent_id)
    found = recall(deps.store, deps.embedder, deps.tokens, deps.settings.retrieval, principal, request)
    note_ids = [hit.note.note_id for hit in found.notes]
    retrieval_id = deps.retrievals.record(principal.id, request.agent_id, request.project, note_ids)
    return Retrieval(retrieval_id=retrieval_id, notes=found.notes, context=found.context, tokens=found.tokens)


@router.post("/retrieve/{retrieval_id}/feedback", response_model=FeedbackResult)
def feedback(retrieval_id: IdPath, body: FeedbackRequest, principal: Caller, deps: Deps) -> FeedbackResult:
    """Which returned notes were used, unused or wrong (feeds the top-5 hit rate)."""
    require(principal, "retrieve")
    marked = deps.retrievals.feedback(retrieval_id, principal.id, body.used, body.unused, body.wrong)
    return FeedbackResult(retrieval_id=retrieval_id, used=len(marked.used), unused=len(marked.unused), wrong=len(marked.wrong))
