"""Raw capture: the append-only ``events`` table and the ``sessions`` it feeds.

An append holds the lease lock of its agent's stripe while it checks which ids exist and adds the
new rows, so concurrent writers (two processes retrying the same request) never add an event twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import pyarrow as pa

from reverie.errors import ConflictError, EventConflictError, NotFoundError
from reverie.ports import AgentSummary
from reverie.records import Event, Session
from reverie.restatements import mentions, tokens
from reverie.store.ids import ordered_id
from reverie.store.locks import LeaseLock, all_held, event_stripe
from reverie.store.rows import event_from_row, events_to_table, rows
from reverie.store.tables import Tables, sql_in, sql_str
from reverie.store.where import Clause, all_of, among, earlier_than, equal, is_null, later_than, mentions_any, not_before


@dataclass(frozen=True)
class EventFilter:
    """Conditions on events, all of which hold; ``None`` means any. ``since``: ``ts`` at or after it;
    ``before``: ``ts`` strictly before it; ``ingested_after``: ingested strictly after it."""

    agent_id: str | None = None
    agent_ids: Iterable[str] | None = None
    mentioning: Iterable[Sequence[str]] | None = None
    """phrases as word tokens: the text contains every token of one (any case); a prefilter, see
    :meth:`EventLog.mentioning`"""
    session_ids: Iterable[str] | None = None
    event_ids: Iterable[str] | None = None
    project: str | None = None
    projects: Iterable[str] | None = None
    since: datetime | None = None
    before: datetime | None = None
    ingested_after: datetime | None = None

    def where(self) -> Clause:
        return all_of(
            equal("agent_id", self.agent_id), among("agent_id", self.agent_ids), among("session_id", self.session_ids),
            among("event_id", self.event_ids), equal("project", self.project), among("project", self.projects),
            not_before("ts", self.since), earlier_than("ts", self.before), later_than("ingested_at", self.ingested_after),
            mentions_any("text", self.mentioning),
        )


@dataclass(frozen=True)
class SessionFilter:
    """Conditions on sessions, all of which hold; ``None`` means any. ``consolidated``: whether a
    run consumed the session (``False``: pending)."""

    agent_ids: Iterable[str] | None = None
    session_ids: Iterable[str] | None = None
    project: str | None = None
    consolidated: bool | None = None

    def where(self) -> Clause:
        pending = None if self.consolidated is None else not self.consolidated
        return all_of(
            among("agent_id", self.agent_ids), among("session_id", self.session_ids),
            equal("project", self.project), is_null("consolidated_by", pending),
        )


@dataclass(frozen=True)
class AppendResult:
    accepted: int
    duplicates: int
    event_ids: list[str]


class EventLog:
    """Appends events idempotently by ``(agent_id, event_id)`` and keeps ``sessions`` current."""

    def __init__(self, tables: Tables) -> None:
        self._t = tables

    def append(self, events: Sequence[Event]) -> AppendResult:
        """Write new events; a retried batch adds nothing; the same id with other content is a 409."""
        unique = _unique_in_request(events)
        locks = [LeaseLock(self._t, name) for name in {event_stripe(e.agent_id) for e in unique}]
        with all_held(locks, ordered_id("append")):
            known = self._hashes(unique)
            fresh = [e for e in unique if (e.agent_id, e.event_id) not in known]
            _refuse_changed(unique, known)
            self._check_session_owners(fresh)
            if fresh:
                self._insert(fresh)
                self._refresh_sessions(fresh)
        return AppendResult(
            accepted=len(fresh), duplicates=len(events) - len(fresh),
            event_ids=[e.event_id for e in events],
        )

    def _insert(self, events: Sequence[Event]) -> None:
        data = events_to_table(events, self._t.schemas["events"])
        self._t.write("events", lambda t: t.add(data))

    def _hashes(self, events: Sequence[Event]) -> dict[tuple[str, str], str]:
        found: dict[tuple[str, str], str] = {}
        by_agent: dict[str, list[str]] = {}
        for event in events:
            by_agent.setdefault(event.agent_id, []).append(event.event_id)
        for agent_id, ids in by_agent.items():
            where = f"agent_id = {sql_str(agent_id)} AND {sql_in('event_id', ids)}"
            table = self._t.read("events", where, ["agent_id", "event_id", "content_hash"])
            for row in rows(table):
                found[(row["agent_id"], row["event_id"])] = row["content_hash"]
        return found

    def _check_session_owners(self, events: Sequence[Event]) -> None:
        owners = {e.session_id: e.agent_id for e in events}
        for session in self.sessions(session_ids=list(owners)):
            if session.agent_id != owners[session.session_id]:
                raise ConflictError(
                    f"session {session.session_id!r} belongs to another agent; session ids are "
                    "unique across agents, so start a new session id",
                    field="session_id",
                )

    def _refresh_sessions(self, events: Sequence[Event]) -> None:
        existing = {s.session_id: s for s in self.sessions(session_ids={e.session_id for e in events})}
        updated = []
        for session_id, group in _by_session(events).items():
            first = group[0]
            started = min(e.ts for e in group)
            old = existing.get(session_id)
            updated.append(Session(
                session_id=session_id, agent_id=first.agent_id, project=first.project,
                module=first.module if old is None else old.module or first.module,
                started_at=started if old is None else min(started, old.started_at),
                ended_at=None if old is None else old.ended_at,
                n_events=self._t["events"].count_rows(f"session_id = {sql_str(session_id)}"),
                consolidated_by=None if old is None else old.consolidated_by,
            ))
        self.upsert_sessions(updated)

    def upsert_sessions(self, sessions: Sequence[Session]) -> None:
        data = pa.Table.from_pylist([s.model_dump() for s in sessions], schema=self._t.schemas["sessions"])
        self._t.write("sessions", lambda t: (
            t.merge_insert("session_id").when_matched_update_all().when_not_matched_insert_all()
            .execute(data)
        ))

    def end_session(self, session_id: str, at: datetime) -> Session:
        found = self.sessions(session_ids=[session_id])
        if not found:
            raise NotFoundError(f"no session {session_id!r}; capture its events first")
        session = found[0].model_copy(update={"ended_at": at})
        self.upsert_sessions([session])
        return session

    def mark_consolidated(self, session_ids: Iterable[str], batch_id: str | None) -> None:
        ids = list(session_ids)
        if ids:
            value = "NULL" if batch_id is None else sql_str(batch_id)
            self._t.write("sessions", lambda t: t.update(
                where=sql_in("session_id", ids), values_sql={"consolidated_by": value}
            ))

    def sessions(
        self, *, agent_id: str | None = None, session_ids: Iterable[str] | None = None,
        project: str | None = None, pending_only: bool = False,
    ) -> list[Session]:
        where = SessionFilter(
            agent_ids=None if agent_id is None else [agent_id], session_ids=session_ids, project=project,
            consolidated=False if pending_only else None,
        )
        found = [Session.model_validate(r) for r in rows(self.session_frame(where))]
        return sorted(found, key=lambda s: (s.started_at, s.session_id))

    def session_frame(self, where: SessionFilter, columns: list[str] | None = None) -> pa.Table:
        return self._t.read("sessions", where.where(), columns)

    def count_sessions(self, where: SessionFilter) -> int:
        return self._t["sessions"].count_rows(where.where())

    def query(
        self, *, agent_id: str | None = None, session_ids: Iterable[str] | None = None,
        event_ids: Iterable[str] | None = None, project: str | None = None,
    ) -> list[Event]:
        """Events matching every given filter, oldest first."""
        where = EventFilter(agent_id=agent_id, session_ids=session_ids, event_ids=event_ids, project=project)
        found = [event_from_row(r) for r in rows(self.frame(where))]
        return sorted(found, key=lambda e: (e.ts, e.session_id, e.event_id))

    def frame(self, where: EventFilter, columns: list[str] | None = None) -> pa.Table:
        return self._t.read("events", where.where(), columns)

    def mentioning(self, where: EventFilter, phrases: Sequence[str], limit: int) -> list[Event]:
        """Events matching ``where`` whose text names one of ``phrases`` (whole tokens, any case),
        newest first, at most ``limit``: the store keeps the texts that contain every token of a
        phrase, they are matched exactly here, and only the matches are read whole."""
        wanted = [tokens(p) for p in phrases if tokens(p)]
        if not wanted:
            return []
        found = self.frame(replace(where, mentioning=wanted), ["agent_id", "event_id", "ts", "text"])
        hits = [(r["ts"], r["agent_id"], r["event_id"]) for r in rows(found)
                if any(mentions(r["text"], p) for p in phrases)]
        hits = sorted(hits, reverse=True)[:limit]
        events: list[Event] = []
        for agent_id in sorted({a for _, a, _ in hits}):
            events += self.query(agent_id=agent_id, event_ids=[e for _, a, e in hits if a == agent_id])
        return sorted(events, key=lambda e: (e.ts, e.session_id, e.event_id), reverse=True)

    def count(self, where: EventFilter) -> int:
        return self._t["events"].count_rows(where.where())

    def get(self, event_id: str, agent_id: str | None = None) -> Event:
        found = self.query(event_ids=[event_id], agent_id=agent_id)
        if not found:
            raise NotFoundError(f"no event {event_id!r}; check the id (event ids are per agent)")
        return found[0]

    def agents(self, project: str | None = None) -> list[AgentSummary]:
        summaries: dict[str, AgentSummary] = {}
        for session in self.sessions(project=project):
            old = summaries.get(session.agent_id)
            last = session.ended_at or session.started_at
            summaries[session.agent_id] = AgentSummary(
                agent_id=session.agent_id,
                projects=sorted({session.project, *(old.projects if old else [])}),
                sessions=(old.sessions if old else 0) + 1,
                events=(old.events if old else 0) + session.n_events,
                last_event_at=max(last, old.last_event_at) if old and old.last_event_at else last,
            )
        return sorted(summaries.values(), key=lambda a: a.agent_id)


def _unique_in_request(events: Sequence[Event]) -> list[Event]:
    seen: dict[tuple[str, str], Event] = {}
    for event in events:
        key = (event.agent_id, event.event_id)
        if key in seen and seen[key].content_hash() != event.content_hash():
            raise EventConflictError(
                f"event {event.event_id!r} appears twice in one request with different content; "
                "give each event its own id", field="event_id",
            )
        seen.setdefault(key, event)
    return list(seen.values())


def _refuse_changed(events: Sequence[Event], known: dict[tuple[str, str], str]) -> None:
    for event in events:
        stored = known.get((event.agent_id, event.event_id))
        if stored is not None and stored != event.content_hash():
            raise EventConflictError(
                f"event {event.event_id!r} of agent {event.agent_id!r} was already captured with "
                "other content; event ids are unique per agent, so send a new id",
                field="event_id",
            )


def _by_session(events: Sequence[Event]) -> dict[str, list[Event]]:
    groups: dict[str, list[Event]] = {}
    for event in events:
        groups.setdefault(event.session_id, []).append(event)
    return groups
