"""The review queue: patterns that wait for a human before they reach their audience (DESIGN §4.4)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from reverie.api import NoteView, ReviewDecision, ReviewItem, ReviewList
from reverie.errors import ForbiddenError, NotFoundError
from reverie.ports import ReviewItem as QueuedItem
from reverie.records import Note
from serve.auth.access import Principal, may_change_note, require, sees_note
from serve.routes.context import ERRORS, Caller, Deps, IdPath, NameQuery
from serve.services import Services

router = APIRouter(prefix="/v1", responses=ERRORS, tags=["mining and graph"])

StatusQuery = Annotated[Literal["pending", "approved", "rejected", "all"], Query(description="which items")]


@router.get("/review", response_model=ReviewList)
def review_queue(principal: Caller, deps: Deps, project: NameQuery = None, status: StatusQuery = "pending") -> ReviewList:
    """The review items of the caller's projects (oldest first), each with its pattern."""
    require(principal, "review")
    projects = principal.project_filter(project)
    found = deps.mining.review_items(project, None if status == "all" else status)
    shown = [i for i in found if projects is None or i.project in projects]
    return ReviewList(items=_with_patterns(deps, principal, shown))


@router.post("/review/{item_id}", response_model=ReviewItem)
def decide(item_id: IdPath, body: ReviewDecision, principal: Caller, deps: Deps) -> ReviewItem:
    """Approve (the pattern becomes active) or reject (with a reason) one pending item; 409 if decided."""
    require(principal, "review")
    item = deps.mining.review_item(item_id)
    if not principal.in_project(item.project):
        raise NotFoundError(f"no review item {item_id!r}; list the review queue to find its id")
    pattern = deps.store.notes.get(item.pattern_id)
    if not may_change_note(principal, pattern):
        raise ForbiddenError(f"a {principal.role} of these projects may not decide on a {pattern.scope} pattern")
    decided = deps.mining.decide(item_id, body.decision, reason=body.reason, principal=principal.id)
    return _with_patterns(deps, principal, [decided])[0]


def _with_patterns(deps: Services, principal: Principal, items: list[QueuedItem]) -> list[ReviewItem]:
    patterns = deps.store.notes.get_many([i.pattern_id for i in items])
    return [
        ReviewItem(**item.model_dump(), pattern=_visible(principal, patterns.get(item.pattern_id)))
        for item in items
    ]


def _visible(principal: Principal, note: Note | None) -> NoteView | None:
    return NoteView.of(note) if note is not None and sees_note(principal, note) else None
