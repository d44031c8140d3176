"""Turning what an agent posts into stored events: validate everything, mask, give ids.

The request models here are the body of ``POST /v1/events``; the HTTP layer and the agent actors
both call :func:`prepare_events`, so nothing reaches the store unmasked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from reverie.clock import Clock
from reverie.errors import PayloadTooLargeError
from reverie.records import AgentCandidate, Event, EventKind, Id, Name, Role, Tags, Text, Unit, UtcTime
from reverie.settings import CaptureSettings

if TYPE_CHECKING:  # the caller brings the masker: importing it compiles ~800 patterns, which a process
    from reverie.privacy import Masker  # that only reads CaptureRequest (mining, the directory) never needs


class EventIn(BaseModel):
    """One event as a client sends it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event_id: Id | None = None
    ts: UtcTime | None = None
    role: Role
    kind: EventKind = "message"
    text: Text
    tags: Tags = Field(default_factory=list)
    importance: Unit = 0.0
    verified: bool = False
    candidate: AgentCandidate | None = None


class CaptureRequest(BaseModel):
    """``POST /v1/events``: events of one session of one agent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: Id
    session_id: Id
    project: Name
    module: Name | None = None
    events: list[EventIn] = Field(min_length=1)


def prepare_events(request: CaptureRequest, masker: Masker, clock: Clock, settings: CaptureSettings) -> list[Event]:
    """Validate the whole request, then mask and stamp each event (ids are stable for retries)."""
    if len(request.events) > settings.max_events_per_request:
        raise PayloadTooLargeError(
            f"{len(request.events)} events in one request, over the limit of "
            f"{settings.max_events_per_request}; send them in several requests", field="events",
        )
    now = clock.now()
    return [_event(request, item, index, masker, now) for index, item in enumerate(request.events)]


def _event(request: CaptureRequest, item: EventIn, index: int, masker: Masker, now: datetime) -> Event:
    candidate = item.candidate
    if candidate is not None:
        candidate = candidate.model_copy(update={
            "subject": masker.mask(candidate.subject).text,
            "statement": masker.mask(candidate.statement).text,
        })
    return Event(
        event_id=item.event_id or _stable_id(request, item, index),
        agent_id=request.agent_id, session_id=request.session_id, project=request.project,
        module=request.module, ts=item.ts or now, role=item.role, kind=item.kind,
        text=masker.mask(item.text).text, tags=item.tags, importance=item.importance,
        verified=item.verified, ingested_at=now, candidate=candidate,
    )


def _stable_id(request: CaptureRequest, item: EventIn, index: int) -> str:
    """An id derived from the event itself, so a client retrying without ids adds nothing new."""
    parts: Sequence[str] = (
        request.agent_id, request.session_id, str(index), item.role, item.kind, item.text,
        item.ts.isoformat() if item.ts else "",
    )
    return "ev-" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:24]
