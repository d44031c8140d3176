"""Retrieval and its feedback."""

from __future__ import annotations

from fastapi import APIRouter

from reverie.api import FeedbackRequest, FeedbackResult, Retrieval, RetrieveRequest
from serve.auth.access import require, require_self
from serve.routes.context import ERRORS, Caller, Deps, IdPath

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["retrieval"])


@router.post("/retrieve", response_model=Retrieval)
def retrieve(request: RetrieveRequest, principal: Caller, deps: Deps) -> Retrieval:
    """The notes that fit a task, within k and a token budget, and a memory block to inject.

    Where the notes do not cover the query, raw turns of the agent's earlier sessions fill what the
    notes left of the budget (``episodes``, labelled ``raw turn`` in the block). ``memory: false``
    returns nothing (the stateless baseline) but is logged like any retrieval.
    """
    require(principal, "retrieve")
    require_self(principal, request.agent_id)
    found = deps.recaller.recall(principal, request)
    note_ids = [hit.note.note_id for hit in found.notes]
    retrieval_id = deps.retrievals.record(principal.id, request.agent_id, request.project, note_ids)
    return Retrieval(retrieval_id=retrieval_id, notes=found.notes, context=found.context, tokens=found.tokens,
                     episodes=found.turns, covered=found.covered)


@router.post("/retrieve/{retrieval_id}/feedback", response_model=FeedbackResult)
def feedback(retrieval_id: IdPath, body: FeedbackRequest, principal: Caller, deps: Deps) -> FeedbackResult:
    """Which returned notes were used, unused or wrong: feeds the top-5 hit rate at once, and the notes'
    hit counts and confidence at the next flush (bounded: feedback alone never retires a note)."""
    require(principal, "retrieve")
    before, marked = deps.retrievals.feedback(retrieval_id, principal.id, body.used, body.unused, body.wrong)
    deps.recaller.tally.feedback((set(before.used), set(before.wrong)), (set(marked.used), set(marked.wrong)))
    return FeedbackResult(retrieval_id=retrieval_id, used=len(marked.used), unused=len(marked.unused), wrong=len(marked.wrong))
