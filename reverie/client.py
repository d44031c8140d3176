"""The Python client of the v1 HTTP API: ``Client`` (sync) and ``AsyncClient``, over httpx.

Every route has a method with typed results (the models of :mod:`reverie.api`), and every error
the service answers is raised as the matching :class:`~reverie.errors.ReverieError` subclass (same
``code``, ``message`` and ``field``; ``QuotaError``/``UnavailableError`` carry ``retry_after``)::

    with Client("http://127.0.0.1:8000", key) as client:
        client.capture({"agent_id": "coder-1", "session_id": "s1", "project": "atlas",
                        "events": [{"role": "user", "text": "Use tabs, not spaces"}]})
        hits = client.retrieve("coder-1", "indentation style", project="atlas")

Requests the service refused for load or a restarting part (429, 503) and connections that never
opened are retried ``retries`` times, after ``Retry-After``; every write of the API is safe to
repeat (captures are idempotent by event id).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import TracebackType
from typing import Any, Generic, Literal, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from reverie import errors
from reverie.api import (
    AgentList,
    AgentStatus,
    BatchList,
    BatchView,
    CaptureRequest,
    CaptureResult,
    ConsolidationResult,
    EventView,
    FeedbackRequest,
    FeedbackResult,
    Health,
    ImportResult,
    MemoryMap,
    MemoryMetrics,
    MiningRun,
    MiningStart,
    NoteAction,
    NoteCreate,
    NoteHistoryView,
    NoteList,
    NotePatch,
    NoteView,
    PrincipalView,
    PurgeRequest,
    PurgeResult,
    Retrieval,
    RetrieveRequest,
    ReviewDecision,
    ReviewItem,
    ReviewList,
    RollbackRequest,
    SessionEnded,
)

T = TypeVar("T")
Kind = Literal["model", "bytes", "text", "json"]
DEFAULT_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request of the API and how to read its answer."""

    method: str
    path: str
    model: type[T] | None = None
    kind: Kind = "model"
    params: Mapping[str, Any] | None = None
    body: BaseModel | None = None
    content: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    def request(self) -> dict[str, Any]:
        params = {k: v for k, v in (self.params or {}).items() if v is not None}
        request: dict[str, Any] = {"method": self.method, "url": self.path, "params": params, "headers": dict(self.headers)}
        if self.body is not None:
            request["json"] = self.body.model_dump(mode="json", exclude_unset=True)
        if self.content is not None:
            request["content"] = self.content
        return request

    def read(self, response: httpx.Response) -> T:
        if response.status_code >= 400:
            raise error_of(response)
        if self.kind == "bytes":
            return response.content  # type: ignore[return-value]
        if self.kind == "text":
            return response.text  # type: ignore[return-value]
        if self.kind == "json":
            return response.json()  # type: ignore[no-any-return]
        assert self.model is not None
        return self.model.model_validate(response.json())  # type: ignore[attr-defined,no-any-return]


# --- errors ------------------------------------------------------------------------------------
def _codes() -> dict[str, type[errors.ReverieError]]:
    found: dict[str, type[errors.ReverieError]] = {}
    pending: list[type[errors.ReverieError]] = [errors.ReverieError]
    while pending:
        cls = pending.pop()
        found[cls.code] = cls
        pending.extend(cls.__subclasses__())
    return found


CODES = _codes()
BY_STATUS: dict[int, type[errors.ReverieError]] = {
    401: errors.AuthError, 403: errors.ForbiddenError, 404: errors.NotFoundError, 409: errors.ConflictError,
    413: errors.PayloadTooLargeError, 422: errors.ValidationError, 429: errors.QuotaError, 503: errors.UnavailableError,
}


def error_of(response: httpx.Response) -> errors.ReverieError:
    """The exception for an error answer (our JSON shape, or a bare status from a proxy)."""
    try:
        detail = response.json()["error"]
        code, message, field_ = str(detail["code"]), str(detail["message"]), detail.get("field")
    except (ValueError, KeyError, TypeError):
        code, message, field_ = "", f"HTTP {response.status_code} from {response.request.url.path}", None
    cls = CODES.get(code) or BY_STATUS.get(response.status_code, errors.ReverieError)
    if cls in (errors.QuotaError, errors.UnavailableError):
        return cls(message, retry_after=_retry_after(response), field=field_)
    return cls(message, field=field_)


def _retry_after(response: httpx.Response) -> float:
    try:
        return max(0.0, float(response.headers.get("Retry-After", "1")))
    except ValueError:
        return 1.0


def _retryable(response: httpx.Response) -> bool:
    return response.status_code in (429, 503)


# --- the calls, once for both clients ---------------------------------------------------------
def _as(model: type[BaseModel], value: BaseModel | Mapping[str, Any]) -> BaseModel:
    return value if isinstance(value, model) else model.model_validate(value)


class Calls:
    """Builders of every call of the API; the clients only send them."""

    @staticmethod
    def capture(request: CaptureRequest | Mapping[str, Any]) -> Call[CaptureResult]:
        return Call("POST", "/v1/events", CaptureResult, body=_as(CaptureRequest, request))

    @staticmethod
    def end_session(session_id: str) -> Call[SessionEnded]:
        return Call("POST", f"/v1/sessions/{session_id}/end", SessionEnded)

    @staticmethod
    def consolidate(agent_id: str) -> Call[ConsolidationResult]:
        return Call("POST", f"/v1/agents/{agent_id}/consolidate", ConsolidationResult)

    @staticmethod
    def status(agent_id: str) -> Call[AgentStatus]:
        return Call("GET", f"/v1/agents/{agent_id}/status", AgentStatus)

    @staticmethod
    def agents(project: str | None) -> Call[AgentList]:
        return Call("GET", "/v1/agents", AgentList, params={"project": project})

    @staticmethod
    def retrieve(request: RetrieveRequest) -> Call[Retrieval]:
        return Call("POST", "/v1/retrieve", Retrieval, body=request)

    @staticmethod
    def feedback(retrieval_id: str, used: Iterable[str], unused: Iterable[str], wrong: Iterable[str]) -> Call[FeedbackResult]:
        body = FeedbackRequest(used=list(used), unused=list(unused), wrong=list(wrong))
        return Call("POST", f"/v1/retrieve/{retrieval_id}/feedback", FeedbackResult, body=body)

    @staticmethod
    def notes(params: Mapping[str, Any]) -> Call[NoteList]:
        return Call("GET", "/v1/notes", NoteList, params=params)

    @staticmethod
    def write_note(note: NoteCreate) -> Call[NoteView]:
        return Call("POST", "/v1/notes", NoteView, body=note)

    @staticmethod
    def note(note_id: str) -> Call[NoteView]:
        return Call("GET", f"/v1/notes/{note_id}", NoteView)

    @staticmethod
    def edit_note(note_id: str, patch: NotePatch) -> Call[NoteView]:
        return Call("PATCH", f"/v1/notes/{note_id}", NoteView, body=patch)

    @staticmethod
    def delete_note(note_id: str, reason: str) -> Call[NoteView]:
        return Call("DELETE", f"/v1/notes/{note_id}", NoteView, params={"reason": reason})

    @staticmethod
    def restore_note(note_id: str, reason: str) -> Call[NoteView]:
        return Call("POST", f"/v1/notes/{note_id}/restore", NoteView, body=NoteAction(reason=reason))

    @staticmethod
    def history(note_id: str) -> Call[NoteHistoryView]:
        return Call("GET", f"/v1/notes/{note_id}/history", NoteHistoryView)

    @staticmethod
    def event(event_id: str, agent_id: str | None) -> Call[EventView]:
        return Call("GET", f"/v1/events/{event_id}", EventView, params={"agent_id": agent_id})

    @staticmethod
    def batches(project: str | None, agent: str | None) -> Call[BatchList]:
        return Call("GET", "/v1/batches", BatchList, params={"project": project, "agent": agent})

    @staticmethod
    def rollback(batch_id: str, reprocess: bool) -> Call[BatchView]:
        return Call("POST", f"/v1/batches/{batch_id}/rollback", BatchView, body=RollbackRequest(reprocess=reprocess))

    @staticmethod
    def purge(request: PurgeRequest) -> Call[PurgeResult]:
        return Call("POST", "/v1/purge", PurgeResult, body=request)

    @staticmethod
    def start_mining(project: str, wait: bool) -> Call[MiningRun]:
        return Call("POST", "/v1/mining/runs", MiningRun, body=MiningStart(project=project, wait=wait))

    @staticmethod
    def mining_run(run_id: str) -> Call[MiningRun]:
        return Call("GET", f"/v1/mining/runs/{run_id}", MiningRun)

    @staticmethod
    def graph(project: str, current: bool = False, layout: bool = False) -> Call[dict[str, Any]]:
        params = {"project": project, "current": current or None, "layout": layout or None}
        return Call("GET", "/v1/graph", kind="json", params=params)

    @staticmethod
    def graphml(project: str) -> Call[str]:
        return Call("GET", "/v1/graph.graphml", kind="text", params={"project": project})

    @staticmethod
    def subject(subject: str, project: str) -> Call[dict[str, Any]]:
        return Call("GET", f"/v1/graph/subjects/{quote(subject, safe='')}", kind="json", params={"project": project})

    @staticmethod
    def map(project: str) -> Call[MemoryMap]:
        return Call("GET", "/v1/map", MemoryMap, params={"project": project})

    @staticmethod
    def review(project: str | None, status: str) -> Call[ReviewList]:
        return Call("GET", "/v1/review", ReviewList, params={"project": project, "status": status})

    @staticmethod
    def decide(item_id: str, decision: Literal["approve", "reject"], reason: str) -> Call[ReviewItem]:
        return Call("POST", f"/v1/review/{item_id}", ReviewItem, body=ReviewDecision(decision=decision, reason=reason))

    @staticmethod
    def whoami() -> Call[PrincipalView]:
        return Call("GET", "/v1/whoami", PrincipalView)

    @staticmethod
    def memory_metrics(project: str | None) -> Call[MemoryMetrics]:
        return Call("GET", "/v1/metrics/memory", MemoryMetrics, params={"project": project})

    @staticmethod
    def export(project: str) -> Call[bytes]:
        return Call("GET", "/v1/export", kind="bytes", params={"project": project})

    @staticmethod
    def import_archive(data: bytes) -> Call[ImportResult]:
        return Call("POST", "/v1/import", ImportResult, content=data, headers={"Content-Type": "application/zip"})

    @staticmethod
    def health() -> Call[Health]:
        return Call("GET", "/healthz", Health)


def _note_params(project: str | None, scope: str | None, status: str | None, type_: str | None,
                 agent: str | None, limit: int, cursor: str | None, namespace: str | None = None,
                 key: str | None = None) -> dict[str, Any]:
    return {"project": project, "scope": scope, "status": status, "type": type_, "agent": agent, "limit": limit,
            "cursor": cursor, "namespace": namespace, "key": key}


# --- the sync client -----------------------------------------------------------------------------
class Client:
    """A blocking client of one Reverie service (``url``) with one API ``key``."""

    def __init__(self, url: str = DEFAULT_URL, key: str | None = None, *, timeout: float = 660.0,
                 retries: int = 2, transport: httpx.BaseTransport | None = None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._http = httpx.Client(base_url=url, headers=headers, timeout=timeout, transport=transport)
        self._retries = retries

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def send(self, call: Call[T]) -> T:
        """Send one call, retrying refusals for load (429/503) and connections that never opened."""
        for attempt in range(self._retries + 1):
            last = attempt == self._retries
            try:
                response = self._http.request(**call.request())
            except httpx.ConnectError:
                if last:
                    raise
                time.sleep(0.5 * (attempt + 1))
                continue
            if _retryable(response) and not last:
                time.sleep(min(_retry_after(response), 30.0))
                continue
            return call.read(response)
        raise AssertionError("unreachable")

    # capture and control
    def capture(self, request: CaptureRequest | Mapping[str, Any]) -> CaptureResult:
        return self.send(Calls.capture(request))

    def end_session(self, session_id: str) -> SessionEnded:
        return self.send(Calls.end_session(session_id))

    def consolidate(self, agent_id: str) -> ConsolidationResult:
        return self.send(Calls.consolidate(agent_id))

    def status(self, agent_id: str) -> AgentStatus:
        return self.send(Calls.status(agent_id))

    def agents(self, project: str | None = None) -> AgentList:
        return self.send(Calls.agents(project))

    def batches(self, project: str | None = None, agent: str | None = None) -> BatchList:
        return self.send(Calls.batches(project, agent))

    def rollback(self, batch_id: str, *, reprocess: bool = False) -> BatchView:
        return self.send(Calls.rollback(batch_id, reprocess))

    # retrieval
    def retrieve(self, agent_id: str, query: str, *, project: str | None = None, scopes: list[str] | None = None,
                 k: int | None = None, token_budget: int | None = None, as_of: datetime | None = None,
                 memory: bool = True, namespace: list[str] | None = None) -> Retrieval:
        request = RetrieveRequest(agent_id=agent_id, query=query, project=project, scopes=scopes, k=k,
                                  token_budget=token_budget, as_of=as_of, memory=memory, namespace=namespace)
        return self.send(Calls.retrieve(request))

    def feedback(self, retrieval_id: str, *, used: Iterable[str] = (), unused: Iterable[str] = (),
                 wrong: Iterable[str] = ()) -> FeedbackResult:
        return self.send(Calls.feedback(retrieval_id, used, unused, wrong))

    # notes
    def notes(self, *, project: str | None = None, scope: str | None = None, status: str | None = None,
              type: str | None = None, agent: str | None = None, limit: int = 100,  # noqa: A002 - the API's name
              cursor: str | None = None, namespace: str | None = None, key: str | None = None) -> NoteList:
        return self.send(Calls.notes(_note_params(project, scope, status, type, agent, limit, cursor, namespace, key)))

    def write_note(self, note: NoteCreate | Mapping[str, Any]) -> NoteView:
        """Write an agent-authored note (or a new version of the one its ``key`` names)."""
        return self.send(Calls.write_note(_as(NoteCreate, note)))  # type: ignore[arg-type]

    def iter_notes(self, **filters: Any) -> Iterator[NoteView]:
        """Every note matching the filters, page after page."""
        cursor = None
        while True:
            page = self.notes(**filters, cursor=cursor)
            yield from page.notes
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def note(self, note_id: str) -> NoteView:
        return self.send(Calls.note(note_id))

    def edit_note(self, note_id: str, **changes: Any) -> NoteView:
        return self.send(Calls.edit_note(note_id, NotePatch(**changes)))

    def delete_note(self, note_id: str, reason: str = "deleted") -> NoteView:
        return self.send(Calls.delete_note(note_id, reason))

    def restore_note(self, note_id: str, reason: str = "restored") -> NoteView:
        return self.send(Calls.restore_note(note_id, reason))

    def history(self, note_id: str) -> NoteHistoryView:
        return self.send(Calls.history(note_id))

    def event(self, event_id: str, agent_id: str | None = None) -> EventView:
        return self.send(Calls.event(event_id, agent_id))

    # governance
    def purge(self, *, agent_id: str | None = None, session_id: str | None = None,
              event_ids: list[str] | None = None) -> PurgeResult:
        return self.send(Calls.purge(PurgeRequest(agent_id=agent_id, session_id=session_id, event_ids=event_ids)))

    def export(self, project: str) -> bytes:
        return self.send(Calls.export(project))

    def import_archive(self, data: bytes) -> ImportResult:
        return self.send(Calls.import_archive(data))

    # mining, graph, metrics
    def start_mining(self, project: str, *, wait: bool = False) -> MiningRun:
        return self.send(Calls.start_mining(project, wait))

    def mining_run(self, run_id: str) -> MiningRun:
        return self.send(Calls.mining_run(run_id))

    def graph(self, project: str, *, current: bool = False, layout: bool = False) -> dict[str, Any]:
        """Node-link JSON; ``current``: only what is valid now; ``layout``: ``x``, ``y`` on every node."""
        return self.send(Calls.graph(project, current, layout))

    def graphml(self, project: str) -> str:
        return self.send(Calls.graphml(project))

    def subject(self, subject: str, project: str) -> dict[str, Any]:
        return self.send(Calls.subject(subject, project))

    def map(self, project: str) -> MemoryMap:
        return self.send(Calls.map(project))

    def review(self, project: str | None = None, status: str = "pending") -> ReviewList:
        return self.send(Calls.review(project, status))

    def decide(self, item_id: str, decision: Literal["approve", "reject"], reason: str) -> ReviewItem:
        return self.send(Calls.decide(item_id, decision, reason))

    def whoami(self) -> PrincipalView:
        return self.send(Calls.whoami())

    def memory_metrics(self, project: str | None = None) -> MemoryMetrics:
        return self.send(Calls.memory_metrics(project))

    def health(self) -> Health:
        return self.send(Calls.health())


def wait_until_accepted(client: Client, timeout: float = 15.0) -> None:
    """Block until the service accepts the client's key: a running service re-reads its keys file
    about once a second, so a key added a moment ago may still be refused (401)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.agents()
            return
        except errors.AuthError as exc:
            if isinstance(exc, errors.ForbiddenError) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


# --- the async client ---------------------------------------------------------------------------
class AsyncClient:
    """The same API as :class:`Client`, for asyncio code (``await client.retrieve(...)``)."""

    def __init__(self, url: str = DEFAULT_URL, key: str | None = None, *, timeout: float = 660.0,
                 retries: int = 2, transport: httpx.AsyncBaseTransport | None = None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._http = httpx.AsyncClient(base_url=url, headers=headers, timeout=timeout, transport=transport)
        self._retries = retries

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def send(self, call: Call[T]) -> T:
        for attempt in range(self._retries + 1):
            last = attempt == self._retries
            try:
                response = await self._http.request(**call.request())
            except httpx.ConnectError:
                if last:
                    raise
                await asyncio.sleep(0.5 * (attempt + 1))
                continue
            if _retryable(response) and not last:
                await asyncio.sleep(min(_retry_after(response), 30.0))
                continue
            return call.read(response)
        raise AssertionError("unreachable")

    async def capture(self, request: CaptureRequest | Mapping[str, Any]) -> CaptureResult:
        return await self.send(Calls.capture(request))

    async def end_session(self, session_id: str) -> SessionEnded:
        return await self.send(Calls.end_session(session_id))

    async def consolidate(self, agent_id: str) -> ConsolidationResult:
        return await self.send(Calls.consolidate(agent_id))

    async def status(self, agent_id: str) -> AgentStatus:
        return await self.send(Calls.status(agent_id))

    async def agents(self, project: str | None = None) -> AgentList:
        return await self.send(Calls.agents(project))

    async def batches(self, project: str | None = None, agent: str | None = None) -> BatchList:
        return await self.send(Calls.batches(project, agent))

    async def rollback(self, batch_id: str, *, reprocess: bool = False) -> BatchView:
        return await self.send(Calls.rollback(batch_id, reprocess))

    async def retrieve(self, agent_id: str, query: str, *, project: str | None = None, scopes: list[str] | None = None,
                       k: int | None = None, token_budget: int | None = None, as_of: datetime | None = None,
                       memory: bool = True, namespace: list[str] | None = None) -> Retrieval:
        request = RetrieveRequest(agent_id=agent_id, query=query, project=project, scopes=scopes, k=k,
                                  token_budget=token_budget, as_of=as_of, memory=memory, namespace=namespace)
        return await self.send(Calls.retrieve(request))

    async def feedback(self, retrieval_id: str, *, used: Iterable[str] = (), unused: Iterable[str] = (),
                       wrong: Iterable[str] = ()) -> FeedbackResult:
        return await self.send(Calls.feedback(retrieval_id, used, unused, wrong))

    async def notes(self, *, project: str | None = None, scope: str | None = None, status: str | None = None,
                    type: str | None = None, agent: str | None = None, limit: int = 100,  # noqa: A002
                    cursor: str | None = None, namespace: str | None = None, key: str | None = None) -> NoteList:
        return await self.send(Calls.notes(_note_params(project, scope, status, type, agent, limit, cursor, namespace, key)))

    async def write_note(self, note: NoteCreate | Mapping[str, Any]) -> NoteView:
        return await self.send(Calls.write_note(_as(NoteCreate, note)))  # type: ignore[arg-type]

    async def iter_notes(self, **filters: Any) -> AsyncIterator[NoteView]:
        cursor = None
        while True:
            page = await self.notes(**filters, cursor=cursor)
            for note in page.notes:
                yield note
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def note(self, note_id: str) -> NoteView:
        return await self.send(Calls.note(note_id))

    async def edit_note(self, note_id: str, **changes: Any) -> NoteView:
        return await self.send(Calls.edit_note(note_id, NotePatch(**changes)))

    async def delete_note(self, note_id: str, reason: str = "deleted") -> NoteView:
        return await self.send(Calls.delete_note(note_id, reason))

    async def restore_note(self, note_id: str, reason: str = "restored") -> NoteView:
        return await self.send(Calls.restore_note(note_id, reason))

    async def history(self, note_id: str) -> NoteHistoryView:
        return await self.send(Calls.history(note_id))

    async def event(self, event_id: str, agent_id: str | None = None) -> EventView:
        return await self.send(Calls.event(event_id, agent_id))

    async def purge(self, *, agent_id: str | None = None, session_id: str | None = None,
                    event_ids: list[str] | None = None) -> PurgeResult:
        return await self.send(Calls.purge(PurgeRequest(agent_id=agent_id, session_id=session_id, event_ids=event_ids)))

    async def export(self, project: str) -> bytes:
        return await self.send(Calls.export(project))

    async def import_archive(self, data: bytes) -> ImportResult:
        return await self.send(Calls.import_archive(data))

    async def start_mining(self, project: str, *, wait: bool = False) -> MiningRun:
        return await self.send(Calls.start_mining(project, wait))

    async def mining_run(self, run_id: str) -> MiningRun:
        return await self.send(Calls.mining_run(run_id))

    async def graph(self, project: str, *, current: bool = False, layout: bool = False) -> dict[str, Any]:
        return await self.send(Calls.graph(project, current, layout))

    async def graphml(self, project: str) -> str:
        return await self.send(Calls.graphml(project))

    async def subject(self, subject: str, project: str) -> dict[str, Any]:
        return await self.send(Calls.subject(subject, project))

    async def map(self, project: str) -> MemoryMap:
        return await self.send(Calls.map(project))

    async def review(self, project: str | None = None, status: str = "pending") -> ReviewList:
        return await self.send(Calls.review(project, status))

    async def decide(self, item_id: str, decision: Literal["approve", "reject"], reason: str) -> ReviewItem:
        return await self.send(Calls.decide(item_id, decision, reason))

    async def whoami(self) -> PrincipalView:
        return await self.send(Calls.whoami())

    async def memory_metrics(self, project: str | None = None) -> MemoryMetrics:
        return await self.send(Calls.memory_metrics(project))

    async def health(self) -> Health:
        return await self.send(Calls.health())
