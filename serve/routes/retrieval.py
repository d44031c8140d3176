"""Retrieval and its feedback."""

from __future__ import annotations

from fastapi import APIRouter, Response

from reverie.api import FeedbackRequest, FeedbackResult, Retrieval, RetrieveRequest
from serve.auth.access import require, require_self
from serve.routes.context import ERRORS, Caller, Deps, IdPath

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["retrieval"])


@router.post("/retrieve", response_model=Retrieval)
def retrieve(request: RetrieveRequest, principal: Caller, deps: Deps) -> Response:
    """The notes and raw turns that fit a task, in one fused order, within k notes and a token
    budget, and a memory block to inject.

    The agent's own raw turns are always ranked beside the notes (``episodes``; the block shows them
    under their session's date); a turn a returned note cites is left out. An off-topic question may
    get nothing. ``memory: false`` returns nothing (the stateless baseline) but is logged like any
    retrieval.
    """
    require(principal, "retrieve")
    require_self(principal, request.agent_id)
    found = deps.recaller.recall(principal, request)
    note_ids = [hit.note.note_id for hit in found.notes]
    retrieval_id = deps.retrievals.record(principal.id, request.agent_id, request.project, note_ids)
    deps.telemetry.retrieved(found.layer_tokens, {"notes": len(found.notes), "turns": len(found.turns)})
    body = Retrieval(retrieval_id=retrieval_id, notes=found.notes, context=found.context, tokens=found.tokens,
                     episodes=found.turns)
    # written once by its own model (FastAPI would dump it and validate it again before writing it);
    # the route's response model still documents it
    return Response(body.model_dump_json(), media_type="application/json")


@router.post("/retrieve/{retrieval_id}/feedback", response_model=FeedbackResult)
def feedback(retrieval_id: IdPath, body: FeedbackRequest, principal: Caller, deps: Deps) -> FeedbackResult:
    """Which returned notes were used, unused or wrong: feeds the top-5 hit rate at once, and the notes'
    hit counts and confidence at the next flush (bounded: feedback alone never retires a note)."""
    require(principal, "retrieve")
    before, marked = deps.retrievals.feedback(retrieval_id, principal.id, body.used, body.unused, body.wrong)
    deps.recaller.tally.feedback((set(before.used), set(before.wrong)), (set(marked.used), set(marked.wrong)))
    return FeedbackResult(retrieval_id=retrieval_id, used=len(marked.used), unused=len(marked.unused), wrong=len(marked.wrong))
