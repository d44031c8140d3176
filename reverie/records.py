"""Typed records of the domain: what is captured, extracted, kept and audited.

Field names match the LanceDB columns of ``reverie.schemas`` (a test checks it). Times are
timezone-aware UTC; ids use a safe charset; texts are non-empty and at most 32 KiB.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$")
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
SCOPE_PATTERN = re.compile(
    r"^(team|personal:[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}"
    r"|project:[a-z0-9][a-z0-9_-]{0,63}|module:[a-z0-9][a-z0-9_-]{0,63}/[a-z0-9][a-z0-9_-]{0,63})$"
)
MAX_TEXT_BYTES = 32 * 1024

Role = Literal["user", "assistant", "tool", "system"]
EventKind = Literal["message", "tool_call", "tool_result", "feedback", "outcome"]
NoteType = Literal[
    "preference", "constraint", "lesson", "procedure", "verified_fact", "pattern", "open_question"
]
NoteStatus = Literal[
    "candidate", "active", "superseded", "rejected", "archived", "deleted", "quarantined"
]
Specificity = Literal["low", "medium", "high"]
Source = Literal["tool", "user", "agent", "rule", "llm", "reviewer", "mining"]
BatchKind = Literal["local", "mining", "edit", "feedback", "rollback", "purge", "import", "migrate"]
BatchStatus = Literal["queued", "running", "yielded", "committed", "rolled_back", "failed"]
AuditAction = Literal[
    "add", "merge", "supersede", "prune", "edit", "delete", "restore", "rollback", "promote",
    "approve", "reject", "quarantine", "purge", "import", "migrate",
]
VISIBLE_BATCH_STATUSES: frozenset[str] = frozenset({"committed", "rolled_back"})


def _check_id(value: str) -> str:
    if not ID_PATTERN.match(value):
        raise ValueError(
            "ids are 1-128 characters of letters, digits and . _ : @ -, starting with a letter "
            "or digit; choose an id in that form"
        )
    return value


def _check_name(value: str) -> str:
    if not NAME_PATTERN.match(value):
        raise ValueError(
            "project and module names are 1-64 lowercase letters, digits, _ or -; rename it"
        )
    return value


def _check_scope(value: str) -> str:
    if not SCOPE_PATTERN.match(value):
        raise ValueError(
            "a scope is 'team', 'project:<p>', 'module:<p>/<m>' or 'personal:<agent_id>'"
        )
    return value


def _check_text(value: str) -> str:
    if not value.strip():
        raise ValueError("text is empty; send at least one visible character")
    size = len(value.encode("utf-8"))
    if size > MAX_TEXT_BYTES:
        raise ValueError(f"text is {size} bytes, over the 32 KiB limit; split it into parts")
    return value


def _check_utc(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("times must carry a timezone (e.g. 2026-01-02T03:04:05Z)")
    return value.astimezone(UTC)


def _check_tags(value: list[str]) -> list[str]:
    for tag in value:
        if not NAME_PATTERN.match(tag):
            raise ValueError("tags are 1-64 lowercase letters, digits, _ or -")
    return sorted(set(value))


Id = Annotated[str, AfterValidator(_check_id)]
Name = Annotated[str, AfterValidator(_check_name)]
ScopeStr = Annotated[str, AfterValidator(_check_scope)]
Text = Annotated[str, AfterValidator(_check_text)]
UtcTime = Annotated[datetime, AfterValidator(_check_utc)]
Tags = Annotated[list[str], AfterValidator(_check_tags)]
Unit = Annotated[float, Field(ge=0.0, le=1.0)]


def agents_of(source_agents: Sequence[str] | None, owner_agent: str | None) -> frozenset[str]:
    """The agents whose events a note's evidence names (event ids are unique per agent only): its
    source agents and its owner; empty when it names none."""
    return frozenset(a for a in [*(source_agents or ()), owner_agent] if a)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Record(BaseModel):
    """The base of our records: frozen, and unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class AgentCandidate(Record):
    """A structured lesson an agent states itself, carried by one event."""

    type: NoteType
    subject: Text
    statement: Text
    scope: ScopeStr | None = None


class Event(Record):
    """One raw, already-masked event of a session (append-only)."""

    event_id: Id
    agent_id: Id
    session_id: Id
    project: Name
    module: Name | None = None
    ts: UtcTime
    role: Role
    kind: EventKind = "message"
    text: Text
    tags: Tags = Field(default_factory=list)
    importance: Unit = 0.0
    verified: bool = False
    ingested_at: UtcTime
    candidate: AgentCandidate | None = None

    def content_hash(self) -> str:
        """Digest of what the event says, to tell retries from conflicts.

        Times are left out: ``ingested_at`` is ours, and ``ts`` is ours too when the client omitted
        it, so a client retrying a request without ids or times must not look like a conflict.
        """
        body = self.model_dump(mode="json", exclude={"ingested_at", "ts"})
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


class Session(Record):
    session_id: Id
    agent_id: Id
    project: Name
    module: Name | None = None
    started_at: UtcTime
    ended_at: UtcTime | None = None
    n_events: int = 0
    consolidated_by: Id | None = None


class Candidate(Record):
    """A proposed note, before deduplication and conflict resolution."""

    type: NoteType
    subject: Text
    statement: Text
    evidence: list[Id]
    scope: ScopeStr
    confidence: Unit
    source: Source = "rule"
    verified: bool = False
    specificity: Specificity = "medium"
    polarity: Literal[1, -1] = 1
    session_ids: list[Id] = Field(default_factory=list)
    agent_id: Id | None = None
    observed_at: UtcTime | None = None
    status: Literal["candidate", "quarantined"] = "candidate"
    tags: Tags = Field(default_factory=list)


class Note(Record):
    """One long-term memory note: the current view of ``note_id``."""

    note_id: Id
    type: NoteType
    subject: Text
    statement: Text
    scope: ScopeStr
    owner_agent: Id | None = None
    project: Name | None = None
    module: Name | None = None
    evidence: list[Id] = Field(default_factory=list)
    source_sessions: list[Id] = Field(default_factory=list)
    source_agents: list[Id] = Field(default_factory=list)
    confidence: Unit = 0.5
    tags: Tags = Field(default_factory=list)
    verified: bool = False
    specificity: Specificity = "medium"
    polarity: Literal[1, -1] = 1
    status: NoteStatus = "active"
    version: int = Field(default=1, ge=1)
    created_at: UtcTime
    updated_at: UtcTime
    last_verified_at: UtcTime | None = None
    last_seen_at: UtcTime | None = None
    valid_from: UtcTime | None = None
    invalid_at: UtcTime | None = None
    expires_at: UtcTime | None = None
    hit_count: int = Field(default=0, ge=0)
    supersedes: list[Id] = Field(default_factory=list)
    superseded_by: Id | None = None
    conflicts_with: list[Id] = Field(default_factory=list)
    slot: Id | None = Field(default=None, description="the setting, rule or preference the note fills (shared by its rivals)")
    contested: bool = Field(default=False, description="an unverified claim (an open question) disputes this note")
    keys: list[str] = Field(
        default_factory=list, description="the stable keys an agent wrote it under (POST /v1/notes); a merge keeps every one",
    )
    namespace: str | None = Field(default=None, description="where an agent filed it: the labels of a namespace joined by '.'")
    value: str | None = Field(default=None, description="the JSON value an agent wrote (masked), when it wrote one")
    batch_id: Id | None = None
    vector: list[float] | None = Field(default=None, repr=False)

    @property
    def agents(self) -> frozenset[str]:
        """The agents whose events the evidence names (:func:`agents_of`)."""
        return agents_of(self.source_agents, self.owner_agent)


class NoteVersion(Record):
    """An earlier view of a note, kept so a batch can be rolled back exactly."""

    note_id: Id
    version: int
    snapshot: str
    batch_id: Id
    changed_at: UtcTime
    reason: str


class Batch(Record):
    """One consolidation, mining, edit, rollback, purge or import run; its row is the commit marker."""

    batch_id: Id
    kind: BatchKind
    status: BatchStatus = "running"
    agent_id: Id | None = None
    project: Name | None = None
    principal: Id = "system"
    created_at: UtcTime
    updated_at: UtcTime
    committed_at: UtcTime | None = None
    session_ids: list[Id] = Field(default_factory=list)
    note_ids: list[Id] = Field(default_factory=list)
    rolls_back: Id | None = None
    rolled_back_by: Id | None = None
    finalized_at: UtcTime | None = None
    stats: dict[str, Any] = Field(default_factory=dict)


class AuditEntry(Record):
    audit_id: Id
    ts: UtcTime
    principal: Id
    action: AuditAction
    note_id: Id | None = None
    batch_id: Id | None = None
    reason: str = ""
