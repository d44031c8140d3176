"""The log of retrievals and their feedback (the source of the top-5 hit rate of DESIGN §8).

A retrieval is remembered in memory at once and written to the ``retrievals`` table in batches (at
most every ``flush_seconds``, or when ``flush_rows`` wait), never one store write per request. The
row keeps who asked, for which agent and project, and which notes came back in which order — ids
only, never the query. Feedback marks returned notes used, unused or wrong; it flushes first, so it
finds a retrieval of this replica at once and one of another replica after that replica's next flush.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from reverie.clock import Clock
from reverie.errors import NotFoundError, ValidationError
from reverie.store import Store, ordered_id


@dataclass(frozen=True)
class RetrievalRecord:
    retrieval_id: str
    principal: str
    agent_id: str
    project: str | None
    ts: datetime
    note_ids: list[str]
    used: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    feedback_at: datetime | None = None


class RetrievalLog:
    def __init__(self, store: Store, clock: Clock, flush_seconds: float = 2.0, flush_rows: int = 256) -> None:
        self._store = store
        self._clock = clock
        self._flush_seconds = flush_seconds
        self._flush_rows = flush_rows
        self._pending: list[RetrievalRecord] = []
        self._oldest = time.monotonic()
        self._lock = threading.Lock()

    def record(self, principal: str, agent_id: str, project: str | None, note_ids: Sequence[str]) -> str:
        record = RetrievalRecord(ordered_id("r"), principal, agent_id, project, self._clock.now(), list(note_ids))
        with self._lock:
            if not self._pending:
                self._oldest = time.monotonic()
            self._pending.append(record)
            due = len(self._pending) >= self._flush_rows or time.monotonic() - self._oldest >= self._flush_seconds
        if due:
            self.flush()
        return record.retrieval_id

    def flush_due(self) -> int:
        """Flush if the oldest pending retrieval waited ``flush_seconds`` (so another replica finds it
        for feedback within about that long, even when no further retrieval comes here)."""
        with self._lock:
            due = bool(self._pending) and time.monotonic() - self._oldest >= self._flush_seconds
        return self.flush() if due else 0

    def flush(self) -> int:
        with self._lock:
            pending, self._pending = self._pending, []
        if pending:
            self._write(pending)
        return len(pending)

    def feedback(self, retrieval_id: str, principal: str, used: Sequence[str], unused: Sequence[str],
                 wrong: Sequence[str]) -> tuple[RetrievalRecord, RetrievalRecord]:
        """Mark returned notes; only the principal who retrieved may, and only notes it got back.

        Returns the record as it was and as it is now (feedback given again replaces the earlier marks).
        """
        self.flush()
        found = self._read(retrieval_id)
        if found is None or found.principal != principal:
            raise NotFoundError(f"no retrieval {retrieval_id!r}; use the retrieval_id a retrieve call returned")
        strays = (set(used) | set(unused) | set(wrong)) - set(found.note_ids)
        if strays:
            raise ValidationError(
                f"{len(strays)} note id(s) were not returned by this retrieval; give feedback only on returned notes",
                field="used",
            )
        if set(used) & set(wrong):
            raise ValidationError("a note cannot be both used and wrong; pick one", field="wrong")
        marked = replace(found, used=sorted(set(used)), unused=sorted(set(unused)), wrong=sorted(set(wrong)),
                         feedback_at=self._clock.now())
        self._write([marked])
        return found, marked

    def _read(self, retrieval_id: str) -> RetrievalRecord | None:
        found = self._store.retrievals.get(retrieval_id)
        return RetrievalRecord(**found) if found is not None else None

    def _write(self, records: Sequence[RetrievalRecord]) -> None:
        self._store.retrievals.upsert([r.__dict__ for r in records])
