"""Writing planned sessions as capture requests, labelling every event for the ground truth.

A session is a greeting, its knowledge mentions (in plan order) mixed with chatter, tool noise and
now and then a planted secret or an injection attempt, and a closing. Tags, importance and
agent-stated candidates are given the way agents give them: often, not always.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Literal

from bench.eval.canaries import PERSONAL_KINDS, SECRET_KINDS
from bench.eval.phrases import Phrasebook
from bench.eval.plan import Draft, MentionKind, SessionPlan
from bench.eval.truth import Canary, EventLabel, LabelKind
from reverie.capture import CaptureRequest, EventIn
from reverie.records import AgentCandidate

#: One event before it gets its id and time: EventIn fields, its label kind, the item it states.
Line = tuple[dict[str, Any], LabelKind, str | None]

_TAG = {"preference": "preference", "constraint": "constraint", "procedure": "procedure", "lesson": "lesson"}


@dataclass(frozen=True)
class StyleSpec:
    """How sessions are written (the part of ``FleetConfig`` this module reads)."""

    events_per_session: tuple[int, int]
    tag_chance: float
    candidate_chance: float
    secret_chance: float
    injection_chance: float


@dataclass
class Written:
    requests: list[CaptureRequest] = field(default_factory=list)
    labels: dict[str, EventLabel] = field(default_factory=dict)
    canaries: list[Canary] = field(default_factory=list)


def write_sessions(sessions: Sequence[SessionPlan], spec: StyleSpec, book: Phrasebook, rng: random.Random) -> Written:
    written = Written()
    for session in sessions:
        lines = _session_lines(session, spec, book, rng)
        events = []
        at = session.start
        for index, (fields, kind, item_id) in enumerate(lines):
            at += timedelta(minutes=rng.randint(1, 4))
            event_id = f"{session.session_id}-e{index + 1:02d}"
            fields = dict(fields)
            canary = fields.pop("_canary", None)
            events.append(EventIn(event_id=event_id, ts=at, **fields))
            written.labels[event_id] = EventLabel(
                event_id=event_id, agent_id=session.agent_id, session_id=session.session_id,
                project=session.project, kind=kind, item_id=item_id,
            )
            if canary is not None:
                written.canaries.append(canary.model_copy(update={"event_id": event_id}))
        written.requests.append(CaptureRequest(
            agent_id=session.agent_id, session_id=session.session_id, project=session.project,
            module=session.module, events=events,
        ))
    return written


def _session_lines(session: SessionPlan, spec: StyleSpec, book: Phrasebook, rng: random.Random) -> list[Line]:
    blocks = [_mention(draft, kind, session, spec, book, rng) for draft, kind in session.mentions]
    size = sum(len(b) for b in blocks) + 2
    fillers = [[_filler(session, book, rng)] for _ in range(max(2, rng.randint(*spec.events_per_session) - size))]
    if rng.random() < spec.secret_chance:
        fillers.append([_secret(session, book, rng)])
    if rng.random() < spec.injection_chance:
        fillers.append([_injection(session, book, rng)])
    middle = _interleave(blocks, fillers, rng)
    greeting = _say("user", rng.choice(book.greetings))
    closing = _say(rng.choice(("user", "assistant")), rng.choice(book.closings))
    return [greeting, *middle, closing]


def _interleave(ordered: list[list[Line]], loose: list[list[Line]], rng: random.Random) -> list[Line]:
    """Loose blocks go to random places; ordered blocks keep their order; lines of a block stay together."""
    slots: list[list[Line] | None] = [None] * len(ordered) + list(loose)
    rng.shuffle(slots)
    queue = iter(ordered)
    return [line for block in slots for line in (block if block is not None else next(queue))]


def _say(role: str, text: str, *, kind: str = "message", label: LabelKind = "chatter", item: str | None = None,
         tags: Sequence[str] = (), importance: float = 0.0, verified: bool = False, **extra: Any) -> Line:
    fields = {"role": role, "kind": kind, "text": text, "tags": list(tags), "importance": round(importance, 2),
              "verified": verified, **extra}
    return fields, label, item


def _mention(draft: Draft, kind: MentionKind, session: SessionPlan, spec: StyleSpec, book: Phrasebook,
             rng: random.Random) -> list[Line]:
    lead = [_topical(session, draft.frame.topic, book, rng)] if rng.random() < 0.4 else []
    if kind == "wrong_claim":
        return lead + [_wrong_claim(draft, spec, rng)]
    if draft.frame.type == "verified_fact":
        return lead + _fact(draft, kind, rng)
    if draft.frame.type == "lesson":
        return lead + _lesson(draft, session, spec, book, rng)
    return lead + [_told(draft, kind, spec, rng)]


def _told(draft: Draft, kind: MentionKind, spec: StyleSpec, rng: random.Random) -> Line:
    """A preference, constraint or procedure said by the user (or the assistant for procedures)."""
    frame = draft.frame
    tagged = rng.random() < spec.tag_chance
    if kind == "correction":
        tags = ["correction", _TAG[frame.type]] if tagged else []
        return _say("user", draft.fill(rng.choice(frame.corrections)), kind="feedback", label="correction",
                    item=draft.item_id, tags=tags, importance=_importance(tagged, rng))
    role = "assistant" if frame.type == "procedure" and rng.random() < 0.5 else "user"
    return _say(role, draft.fill(rng.choice(frame.statements)), label="statement", item=draft.item_id,
                tags=[_TAG[frame.type]] if tagged else [], importance=_importance(tagged, rng))


def _fact(draft: Draft, kind: MentionKind, rng: random.Random) -> list[Line]:
    """A tool's verification of the value, with the assistant's note of it (or a correction) around it."""
    frame = draft.frame
    check = _say("tool", draft.fill(rng.choice(frame.verifications)), kind="tool_result", label="verification",
                 item=draft.item_id, tags=["verified"], importance=_importance(True, rng), verified=True)
    if kind == "correction":
        said = _say(rng.choice(("user", "assistant")), draft.fill(rng.choice(frame.corrections)), label="correction",
                    item=draft.item_id, tags=["correction"], importance=_importance(True, rng))
        return [said, check]
    if rng.random() < 0.5:
        note = _say("assistant", draft.fill(rng.choice(frame.statements)), label="statement", item=draft.item_id,
                    importance=_importance(False, rng))
        return [check, note]
    return [check]


def _wrong_claim(draft: Draft, spec: StyleSpec, rng: random.Random) -> Line:
    tags = ["correction"] if rng.random() < 0.5 else []
    return _say("user", draft.fill(rng.choice(draft.frame.wrong_claims)), kind="feedback", label="wrong_claim",
                item=draft.item_id, tags=tags, importance=_importance(True, rng))


def _lesson(draft: Draft, session: SessionPlan, spec: StyleSpec, book: Phrasebook, rng: random.Random) -> list[Line]:
    """Often an error first, then the assistant states what it learned (sometimes as a candidate)."""
    lines = []
    if rng.random() < 0.5:
        lines.append(_say("tool", rng.choice(book.errors).format(module=session.module), kind="tool_result",
                          label="noise", tags=["error"], importance=0.3))
    text = draft.fill(rng.choice(draft.frame.statements), session.module)
    tagged = rng.random() < spec.tag_chance
    extra: dict[str, Any] = {}
    if rng.random() < spec.candidate_chance:
        subject = draft.fill(draft.frame.subject, session.module)
        extra["candidate"] = AgentCandidate(type="lesson", subject=subject, statement=text)
    lines.append(_say("assistant", text, kind="outcome", label="statement", item=draft.item_id,
                      tags=["lesson"] if tagged else [], importance=_importance(tagged, rng), **extra))
    return lines


def _filler(session: SessionPlan, book: Phrasebook, rng: random.Random) -> Line:
    draw = rng.random()
    if draw < 0.35:
        return _topical(session, rng.choice([f.topic for f in book.frames]), book, rng)
    if draw < 0.55:
        return _say("tool", rng.choice(book.tool_noise).format(module=session.module), kind="tool_result",
                    label="noise", importance=rng.uniform(0.0, 0.15))
    return _say(rng.choice(("user", "assistant")), rng.choice(book.chatter), importance=rng.uniform(0.0, 0.1))


def _topical(session: SessionPlan, topic: str, book: Phrasebook, rng: random.Random) -> Line:
    text = rng.choice(book.topical_chatter).format(module=session.module, topic=topic)
    return _say(rng.choice(("user", "assistant")), text, importance=rng.uniform(0.0, 0.2))


def _secret(session: SessionPlan, book: Phrasebook, rng: random.Random) -> Line:
    pairs: list[tuple[Literal["secret", "personal"], str, str]] = [("secret", k, t) for k, t in book.secrets]
    pairs += [("personal", k, t) for k, t in book.personal_data]
    category, kind, template = rng.choice(pairs)
    value = {**SECRET_KINDS, **PERSONAL_KINDS}[kind](rng)
    canary = Canary(event_id="pending", kind=category, label=kind, value=value)
    fields, label, item = _say("user", template.format(module=session.module, value=value), label="secret")
    return {**fields, "_canary": canary}, label, item


def _injection(session: SessionPlan, book: Phrasebook, rng: random.Random) -> Line:
    role = rng.choice(("user", "tool"))
    return _say(role, rng.choice(book.injections).format(module=session.module),
                kind="tool_result" if role == "tool" else "message", label="injection",
                tags=["lesson"] if rng.random() < 0.5 else [], importance=0.9)


def _importance(tagged: bool, rng: random.Random) -> float:
    return rng.uniform(0.6, 0.95) if tagged else rng.uniform(0.2, 0.5)
