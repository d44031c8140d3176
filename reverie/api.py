"""The v1 HTTP contract (DESIGN.md §6): every request and response body, shared by the service and
the Python client so both sides read the same types.

Request models forbid unknown fields (a typo is a 422, not a silently ignored option). Response
models ignore unknown fields, so an older client keeps working against a newer service.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from reverie.capture import CaptureRequest, EventIn
from reverie.ports import AgentStatus, AgentSummary, CaptureResult, ConsolidationResult, MiningRun
from reverie.ports import MapPoint as MinedPoint
from reverie.ports import ReviewItem as QueuedItem
from reverie.records import (
    AuditEntry,
    Batch,
    Event,
    Id,
    Name,
    Note,
    NoteStatus,
    NoteType,
    ScopeStr,
    Specificity,
    Tags,
    Text,
    Unit,
    UtcTime,
)

__all__ = [
    "AgentList", "AgentStatus", "AgentSummary", "BatchList", "BatchView", "CaptureRequest",
    "CaptureResult", "ConsolidationResult", "ErrorBody", "ErrorEnvelope", "EventIn", "EventView",
    "FeedbackRequest", "FeedbackResult", "Health", "ImportResult", "LayerUse", "MapPoint", "MemoryMap",
    "MemoryMetrics", "MetricAlert", "MiningRun", "MiningStart", "Namespace", "NoteAction", "NoteCreate",
    "NoteHistoryView", "NoteList",
    "NotePatch", "NoteView", "PrincipalView", "PurgeRequest", "PurgeResult", "RetrievedNote", "RetrievedTurn",
    "RetrieveRequest",
    "Retrieval", "ReviewDecision", "ReviewItem", "ReviewList", "RollbackRequest", "SessionEnded",
]

MAX_PAGE = 1000


class Body(BaseModel):
    """A request body: unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Reply(BaseModel):
    """A response body: unknown fields are ignored by clients."""

    model_config = ConfigDict(frozen=True, extra="ignore")


# --- errors ------------------------------------------------------------------------------------
class ErrorBody(Reply):
    code: str = Field(description="machine-readable error code, e.g. not_found, validation_error")
    message: str = Field(description="what happened, why, and how to fix it; never the submitted text")
    field: str | None = Field(default=None, description="the request field at fault, if one is")


class ErrorEnvelope(Reply):
    error: ErrorBody


# --- records as they travel -------------------------------------------------------------------
class NoteView(Note):
    """A note as the API shows it: every field of the record except its vector."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    vector: SkipJsonSchema[list[float] | None] = Field(default=None, exclude=True, repr=False)

    @classmethod
    def of(cls, note: Note) -> NoteView:
        return cls.model_validate(note.model_dump(exclude={"vector"}))


class EventView(Event):
    model_config = ConfigDict(frozen=True, extra="ignore")

    @classmethod
    def of(cls, event: Event) -> EventView:
        return cls.model_validate(event.model_dump())


class BatchView(Batch):
    model_config = ConfigDict(frozen=True, extra="ignore")

    @classmethod
    def of(cls, batch: Batch) -> BatchView:
        stats = {k: v for k, v in batch.stats.items() if not k.startswith("_")}
        return cls.model_validate({**batch.model_dump(), "stats": stats})


class AuditView(AuditEntry):
    model_config = ConfigDict(frozen=True, extra="ignore")


# --- capture and control ----------------------------------------------------------------------
class SessionEnded(Reply):
    session_id: str
    agent_id: str
    ended: bool = True


class AgentList(Reply):
    agents: list[AgentSummary]


class BatchList(Reply):
    batches: list[BatchView]


class RollbackRequest(Body):
    reprocess: bool = Field(default=False, description="also mark the batch's sessions for consolidation again")


# --- notes --------------------------------------------------------------------------------------
class NoteList(Reply):
    notes: list[NoteView]
    next_cursor: str | None = None


class NotePatch(Body):
    """Fields a caller may change; anything else changes only through consolidation or review."""

    subject: Text | None = None
    statement: Text | None = None
    type: NoteType | None = None
    confidence: Unit | None = None
    tags: Tags | None = None
    verified: bool | None = None
    specificity: Specificity | None = None
    expires_at: UtcTime | None = None
    reason: str = Field(default="edited", max_length=500)

    def changes(self) -> dict[str, Any]:
        return {k: v for k, v in self.model_dump(exclude={"reason"}, exclude_unset=True).items() if v is not None}


def _check_namespace(labels: list[str]) -> list[str]:
    for label in labels:
        if not label or "." in label or "\x00" in label or len(label) > 128:
            raise ValueError("namespace labels are 1-128 characters without '.' or NUL; rename the label")
    return labels


def _check_key(key: str) -> str:
    if "\x00" in key or not key.strip():
        raise ValueError("a key is 1-256 visible characters without NUL; choose another key")
    return key


Namespace = Annotated[list[str], Field(min_length=1, max_length=16), AfterValidator(_check_namespace)]
NoteKey = Annotated[str, Field(min_length=1, max_length=256), AfterValidator(_check_key)]


def namespace_path(labels: list[str] | tuple[str, ...]) -> str:
    """How a namespace is stored and filtered: its labels joined by '.' (labels never hold one)."""
    return ".".join(labels)


class NoteCreate(Body):
    """An agent-authored note (``POST /v1/notes``): a ``statement``, or a JSON ``value`` whose ``text`` or
    ``content`` (else its compact JSON) becomes the statement. The same ``key`` in the same scope and
    ``namespace`` writes a new version of the note it names instead of a second note."""

    project: Name | None = Field(default=None, description="default: the key's only project")
    module: Name | None = None
    scope: ScopeStr | None = Field(default=None, description="default: the caller's personal scope (agents write only there)")
    type: NoteType = Field(default="preference", description="preference by default, so it is never mined into a pattern")
    key: NoteKey | None = Field(default=None, description="a stable key: writing it again updates the note")
    namespace: Namespace | None = Field(default=None, description="labels of the namespace the note is filed under")
    subject: Text | None = None
    statement: Text | None = None
    value: dict[str, Any] | None = None
    tags: Tags = Field(default_factory=list)
    reason: str = Field(default="written by the agent", max_length=500)

    @model_validator(mode="after")
    def _has_text(self) -> NoteCreate:
        if self.statement is None and self.value is None:
            raise ValueError("send a statement or a JSON value for the note")
        if self.value is not None and len(self.value_json().encode()) > 32 * 1024:
            raise ValueError("the value is over 32 KiB as JSON; store a smaller value")
        return self

    def value_json(self) -> str:
        return json.dumps(self.value, separators=(",", ":"), ensure_ascii=False)

    def statement_text(self) -> str:
        """The statement given, else the value's ``text`` or ``content``, else the value's compact JSON."""
        if self.statement is not None:
            return self.statement
        value = self.value or {}
        for name in ("text", "content"):
            if isinstance(value.get(name), str) and value[name].strip():
                return str(value[name])
        return self.value_json()


class NoteAction(Body):
    reason: str = Field(default="", max_length=500)


class NoteHistoryView(Reply):
    versions: list[NoteView]
    audit: list[AuditView]


# --- retrieval ---------------------------------------------------------------------------------
class RetrieveRequest(Body):
    agent_id: Id
    query: Text
    project: Name | None = None
    scopes: list[ScopeStr] | None = Field(default=None, max_length=64)
    k: int | None = Field(default=None, ge=1, le=100)
    token_budget: int | None = Field(default=None, ge=1, le=32000)
    as_of: AwareDatetime | None = Field(
        default=None, description="when the question is asked (default now): anchors 'last week', 'yesterday' …")
    memory: bool = True
    namespace: Namespace | None = Field(default=None, description="only notes filed under this namespace (no raw turns)")


class RetrievedNote(Reply):
    """A consolidated note: ``score`` is its fused rank score, ``similarity`` its cosine to the query."""

    kind: Literal["note"] = "note"
    note: NoteView
    score: float
    similarity: float
    rank: int = Field(default=0, description="its place in the one fused order the block renders (1 = first)")


class RetrievedTurn(Reply):
    """A raw turn of an earlier session of the agent (the raw log, ranked beside the notes): not a note.

    Its text is masked as captured; ``score`` is its fused score, ``rank`` its place in the one order
    of notes and turns that the block renders (1 = first).
    """

    kind: Literal["raw_turn"] = "raw_turn"
    event_id: str
    agent_id: str
    session_id: str
    project: str
    ts: datetime
    role: str
    text: str
    similarity: float
    score: float = 0.0
    rank: int = 0


class Retrieval(Reply):
    """``notes`` are consolidated notes, ``episodes`` raw turns, both ranked in one fused order (each
    item's ``rank``); ``context`` renders them (notes, then turns under their session's date) and
    costs ``tokens`` (never over the budget)."""

    retrieval_id: str
    notes: list[RetrievedNote]
    context: str
    tokens: int
    episodes: list[RetrievedTurn] = Field(default_factory=list)


class FeedbackRequest(Body):
    used: list[Id] = Field(default_factory=list, max_length=100)
    unused: list[Id] = Field(default_factory=list, max_length=100)
    wrong: list[Id] = Field(default_factory=list, max_length=100)


class FeedbackResult(Reply):
    retrieval_id: str
    used: int
    unused: int
    wrong: int


# --- governance -------------------------------------------------------------------------------
class PurgeRequest(Body):
    agent_id: Id | None = None
    session_id: Id | None = None
    event_ids: list[Id] | None = Field(default=None, min_length=1, max_length=10000)


class PurgeResult(Reply):
    events: int
    sessions: list[str]
    notes_deleted: list[str]
    notes_rederived: list[str]
    batch_ids: list[str]


class ReviewItem(QueuedItem):
    """A pattern waiting for (or decided by) a reviewer (the mining service's queued item), with the
    pattern itself when the caller sees it."""

    pattern: NoteView | None = None


class ReviewList(Reply):
    items: list[ReviewItem]


class ReviewDecision(Body):
    decision: Literal["approve", "reject"]
    reason: str = Field(min_length=1, max_length=500)


class ImportResult(Reply):
    project: str
    notes: int
    graph_nodes: int
    graph_edges: int
    batch_id: str | None
    reembedded: bool


# --- mining, graph, map -----------------------------------------------------------------------
class MiningStart(Body):
    project: Name
    wait: bool = False


class MapPoint(MinedPoint):
    """One note on the 2-D map (the mining service's point: UMAP position, cluster (-1: noise), the
    pattern promoted from that cluster, the cluster's ``name`` built from the notes the caller may
    see), with what the caller may read of the note. A note the caller may not read (a personal note,
    for anyone but an admin) is a bare point: position, cluster, its name, pattern and status only."""

    note_id: str | None  # type: ignore[assignment]
    status: str
    type: str | None = None
    subject: str | None = None
    statement: str | None = None


class MemoryMap(Reply):
    project: str
    points: list[MapPoint]


class PrincipalView(Reply):
    """Who the caller's key stands for, and what it may do (so a client can offer only that)."""

    principal: str
    role: Literal["agent", "reviewer", "analyst", "admin"]
    projects: list[str]
    actions: list[str]


# --- health and metrics -----------------------------------------------------------------------
class MetricAlert(Reply):
    name: str
    firing: bool
    value: float | None
    threshold: float
    message: str


class LayerUse(Reply):
    """Items and tokens the answering replica's retrievals returned since it started, per layer
    (``notes``, ``summaries``, ``turns``); Prometheus sums them over every replica."""

    retrievals: int
    items: dict[str, int]
    tokens: dict[str, int]
    cached_turns: int = 0
    turn_cache_bytes: int = 0


class MemoryMetrics(Reply):
    """The quality metrics of DESIGN §8 over the notes the caller may see, and the alert states."""

    projects: list[str] | None
    notes: int
    active_notes: int
    new_notes_week: int
    store_fill: float
    store_bytes: int | None
    deduplication_rate: float | None
    redundant_share: float | None
    conflict_rate: float | None
    overturned_share: float | None
    context_savings: float | None
    top5_hit_rate: float | None
    top5_hit_rate_baseline: float | None
    consolidation_runs: int
    consolidation_seconds_mean: float | None
    mining_runs: int
    alerts: list[MetricAlert]
    layers: LayerUse | None = Field(default=None, description="what this replica's retrievals returned, per layer")


class Health(Reply):
    status: Literal["ok"] = "ok"
    version: str


NOTE_STATUSES: tuple[NoteStatus, ...] = (
    "candidate", "active", "superseded", "rejected", "archived", "deleted", "quarantined",
)
