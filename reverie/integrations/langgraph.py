"""LangGraph's long-term memory store on Reverie: :class:`ReverieStore` (``pip install 'reverie[langgraph]'``).

A ``BaseStore`` over the v1 HTTP API with one agent key: every item is an agent-authored note of the
agent's personal scope (``POST /v1/notes``) that carries its namespace, its key and its value::

    store = ReverieStore("http://127.0.0.1:8000", key)            # an agent key; project: the key's only one
    store.put(("users", "u1", "memories"), "tea", {"text": "Prefers green tea, no sugar"})
    store.get(("users", "u1", "memories"), "tea").value           # {'text': 'Prefers green tea, no sugar'}
    store.search(("users", "u1"), query="what does the user drink?")  # scoped retrieval in the namespace
    graph = builder.compile(store=store)

- ``put`` writes the note (a new version when the namespace and key exist: one ``edit`` batch each,
  masked, embedded, audited); ``put(..., None)`` and ``delete`` soft-delete it.
- ``get`` returns the live note filed under the namespace with that key.
- ``search(prefix, query=...)`` is Reverie's scoped retrieval within the namespace (ranked by
  relevance, ``score`` the cosine similarity); ``query=None`` lists the namespace and below it by
  recency (newest first); ``filter`` matches value fields exactly (``$eq``, ``$ne``, ``$gt``, ``$gte``,
  ``$lt``, ``$lte`` too); ``limit``/``offset`` page.
- ``list_namespaces`` as LangGraph defines it (prefix and suffix conditions, ``*``, ``max_depth``).

Where it differs from LangGraph's ``InMemoryStore``:

- values come back **masked**: a secret or personal datum in a value is stored as a placeholder;
- a note that consolidation **merged** answers for every key merged into it;
- ``search`` with a ``query`` returns what is relevant to it (an off-topic query may find nothing), as
  retrieval does, where ``InMemoryStore`` without an index returns every item of the namespace;
- another Serve replica sees a write in ``search(query=...)`` within the retrieval cache's refresh
  period (``get``, ``search`` without a query and ``list_namespaces`` read the store itself);
- no TTL (``supports_ttl`` is False) and ``index`` is ignored: the statement (the value's ``text`` or
  ``content``, else its JSON) is what is embedded.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Generator, Iterable
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)

from reverie.api import MAX_PAGE, NoteCreate, NoteList, NoteView, PrincipalView, Retrieval, RetrieveRequest, namespace_path
from reverie.client import AsyncClient, Call, Calls, Client
from reverie.errors import ValidationError

Plan = Generator[Call[Any], Any, Result]  # calls to send, answers sent back in, the op's result returned
MAX_K = 100
MAX_BUDGET = 32000
ORDERS: dict[str, Callable[[Any, Any], Any]] = {"$gt": operator.gt, "$gte": operator.ge, "$lt": operator.lt, "$lte": operator.le}


class ReverieStore(BaseStore):
    """LangGraph's ``BaseStore`` on a Reverie service, for the agent of ``key`` (see the module doc)."""

    supports_ttl = False

    def __init__(self, url: str, key: str, *, project: str | None = None, timeout: float = 120.0) -> None:
        self._url, self._key, self._timeout = url, key, timeout
        self._client = Client(url, key, timeout=timeout)
        self._project = project
        self._agent: str | None = None

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ReverieStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- BaseStore ---------------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._run(self._plan(op)) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        async with AsyncClient(self._url, self._key, timeout=self._timeout) as client:  # bound to this event loop
            return [await self._arun(client, self._plan(op)) for op in ops]

    def _run(self, plan: Plan) -> Result:
        try:
            call = next(plan)
            while True:
                call = plan.send(self._client.send(call))
        except StopIteration as done:
            result: Result = done.value  # what the plan returned
            return result

    @staticmethod
    async def _arun(client: AsyncClient, plan: Plan) -> Result:
        try:
            call = next(plan)
            while True:
                call = plan.send(await client.send(call))
        except StopIteration as done:
            result: Result = done.value  # what the plan returned
            return result

    # --- one op: the calls it needs ----------------------------------------------------------------
    def _plan(self, op: Op) -> Plan:
        validate_op_namespace(op)
        yield from self._whoami()
        if isinstance(op, GetOp):
            return (yield from self._get(op.namespace, op.key))
        if isinstance(op, PutOp):
            yield from self._put(op)
            return None
        if isinstance(op, SearchOp):
            return (yield from self._search(op))
        if isinstance(op, ListNamespacesOp):
            return (yield from self._namespaces(op))
        raise ValidationError(f"unknown store operation {type(op).__name__}; use GetOp, PutOp, SearchOp or ListNamespacesOp")

    def _whoami(self) -> Generator[Call[Any], Any, None]:
        if self._agent is not None:
            return
        me: PrincipalView = yield Calls.whoami()
        if me.role != "agent":
            raise ValidationError(
                f"ReverieStore needs an agent key; this key is a {me.role}'s: use `reverie keys add <agent> --role agent`")
        if self._project is None:
            if len(me.projects) != 1 or me.projects == ["*"]:
                raise ValidationError("this key covers several projects: pass ReverieStore(..., project=<name>)", field="project")
            self._project = me.projects[0]
        self._agent = me.principal

    @property
    def _scope(self) -> str:
        return f"personal:{self._agent}"

    def _get(self, namespace: tuple[str, ...], key: str) -> Generator[Call[Any], Any, Item | None]:
        found = yield from self._keyed(namespace, key)
        return _item(found, key) if found is not None else None

    def _keyed(self, namespace: tuple[str, ...], key: str) -> Generator[Call[Any], Any, NoteView | None]:
        path = namespace_path(namespace)
        page: NoteList = yield Calls.notes(self._params(namespace=path, key=key, limit=MAX_PAGE))
        exact = [n for n in page.notes if n.namespace == path]
        return exact[0] if exact else None

    def _put(self, op: PutOp) -> Generator[Call[Any], Any, None]:
        if op.value is None:
            found = yield from self._keyed(op.namespace, op.key)
            if found is not None:
                yield Calls.delete_note(found.note_id, "deleted through the LangGraph store")
            return None
        note = NoteCreate(project=self._project, key=op.key, namespace=list(op.namespace), value=dict(op.value),
                          reason="written through the LangGraph store")
        yield Calls.write_note(note)
        return None

    def _search(self, op: SearchOp) -> Generator[Call[Any], Any, list[SearchItem]]:
        scored: list[tuple[NoteView, float | None]]
        if op.query:
            request = RetrieveRequest(agent_id=self._agent or "", query=op.query, project=self._project, scopes=[self._scope],
                                      k=MAX_K, token_budget=MAX_BUDGET, namespace=list(op.namespace_prefix) or None)
            found: Retrieval = yield Calls.retrieve(request)
            scored = [(hit.note, hit.similarity) for hit in found.notes if hit.note.namespace is not None]
        else:
            notes = yield from self._listed(op.namespace_prefix)
            scored = [(n, None) for n in sorted(notes, key=lambda n: n.updated_at, reverse=True)]
        kept = [_search_item(n, score) for n, score in scored if matches(_value(n), op.filter)]
        return kept[op.offset: op.offset + op.limit]

    def _listed(self, prefix: tuple[str, ...]) -> Generator[Call[Any], Any, list[NoteView]]:
        notes: list[NoteView] = []
        cursor = None
        while True:
            page: NoteList = yield Calls.notes(self._params(namespace=namespace_path(prefix) if prefix else None,
                                                            limit=MAX_PAGE, cursor=cursor))
            notes += [n for n in page.notes if n.namespace is not None]
            if page.next_cursor is None:
                return notes
            cursor = page.next_cursor

    def _namespaces(self, op: ListNamespacesOp) -> Generator[Call[Any], Any, list[tuple[str, ...]]]:
        notes = yield from self._listed(())
        spaces = {_labels(n) for n in notes}
        spaces = {s for s in spaces if all(_matches_condition(c, s) for c in op.match_conditions or ())}
        if op.max_depth is not None:
            spaces = {s[: op.max_depth] for s in spaces}
        return sorted(spaces)[op.offset: op.offset + op.limit]

    def _params(self, **extra: Any) -> dict[str, Any]:
        return {"project": self._project, "scope": self._scope, "status": "active", **extra}


# --- items and filters -------------------------------------------------------------------------------
def _labels(note: NoteView) -> tuple[str, ...]:
    return tuple((note.namespace or "").split("."))


def _value(note: NoteView) -> dict[str, Any]:
    if note.value is None:
        return {"text": note.statement}
    value = json.loads(note.value)
    return value if isinstance(value, dict) else {"value": value}


def _item(note: NoteView, key: str) -> Item:
    return Item(value=_value(note), key=key, namespace=_labels(note), created_at=note.created_at, updated_at=note.updated_at)


def _search_item(note: NoteView, score: float | None) -> SearchItem:
    key = note.keys[-1] if note.keys else note.note_id
    return SearchItem(namespace=_labels(note), key=key, value=_value(note), created_at=note.created_at,
                      updated_at=note.updated_at, score=score)


def matches(value: dict[str, Any], wanted: dict[str, Any] | None) -> bool:
    """Whether a value has every field of ``wanted`` (exactly, or by ``$eq``/``$ne``/``$gt``/... operators)."""
    return all(_field_matches(value.get(name), expected) for name, expected in (wanted or {}).items())


def _field_matches(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict) and expected and all(k.startswith("$") for k in expected):
        return all(_compare(actual, op, operand) for op, operand in expected.items())
    return bool(actual == expected)


def _compare(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    order = ORDERS.get(op)
    if order is None:
        raise ValidationError(f"unknown filter operator {op!r}; use $eq, $ne, $gt, $gte, $lt or $lte", field="filter")
    try:
        return actual is not None and bool(order(actual, operand))
    except TypeError:
        return False


def _matches_condition(condition: MatchCondition, labels: tuple[str, ...]) -> bool:
    path = condition.path
    if len(labels) < len(path):
        return False
    # labels may be longer than the path: only the path's length is compared
    pairs = (zip(labels, path, strict=False) if condition.match_type == "prefix"
             else zip(reversed(labels), reversed(path), strict=False))
    return all(wanted == "*" or label == wanted for label, wanted in pairs)
