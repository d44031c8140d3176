"""Hits and feedback, counted in memory and written to the notes in batches (never one write per request).

- Every note a retrieval returns counts one hit.
- Feedback on a retrieval: ``used`` raises the note's confidence by ``retrieval.used_step``; ``wrong``
  lowers it by ``retrieval.wrong_step`` and takes its hit back; ``unused`` changes nothing. Feedback
  alone never moves a confidence above ``feedback_max_confidence`` or below
  ``feedback_min_confidence`` (a value already outside stays where it is), and never changes a note's
  status, text or scope: wrong feedback can make a note rank lower, never become a lasting rule, and
  only evidence (consolidation, a reviewer) can retire a note. Feedback given again on the same
  retrieval counts only what changed.

:meth:`Tally.flush` writes what accumulated as one ``feedback`` batch (audited, versioned, seen by
every replica's cache), based on the versions it read; a note that consolidation changed meanwhile is
read again on the next flush, so nothing counted is lost. Feedback batches carry counters, not
content: they never block the rollback of an earlier batch (the hit count survives it).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from reverie.errors import BatchConflictError, CommitError
from reverie.records import Note
from reverie.settings import RetrievalSettings
from reverie.store import NoteWrite, Store

log = logging.getLogger(__name__)
PRINCIPAL = "reverie-retrieval"


@dataclass
class Pending:
    hits: int = 0
    used: int = 0
    wrong: int = 0

    def __bool__(self) -> bool:
        return bool(self.hits or self.used or self.wrong)


class Tally:
    def __init__(self, store: Store, settings: RetrievalSettings) -> None:
        self._store = store
        self._settings = settings
        self._pending: dict[str, Pending] = {}
        self._lock = threading.Lock()

    def returned(self, note_ids: Iterable[str]) -> None:
        with self._lock:
            for note_id in note_ids:
                self._pending.setdefault(note_id, Pending()).hits += 1

    def feedback(self, before: tuple[set[str], set[str]], after: tuple[set[str], set[str]]) -> None:
        """Count the change from the earlier marks ``(used, wrong)`` to the new ones."""
        (used_before, wrong_before), (used, wrong) = before, after
        with self._lock:
            for note_id in used ^ used_before:
                self._pending.setdefault(note_id, Pending()).used += 1 if note_id in used else -1
            for note_id in wrong ^ wrong_before:
                step = 1 if note_id in wrong else -1
                entry = self._pending.setdefault(note_id, Pending())
                entry.wrong += step
                entry.hits -= step

    def flush(self) -> int:
        """Write what is pending as one batch; returns the notes changed."""
        with self._lock:
            pending, self._pending = self._pending, {}
        pending = {k: v for k, v in pending.items() if v}
        if not pending:
            return 0
        try:
            return self._write(pending)
        except (BatchConflictError, CommitError) as exc:
            log.info("retrieval hits not written this time (%s); kept for the next flush", type(exc).__name__)
            self._restore(pending)
            return 0
        except BaseException:
            self._restore(pending)  # acknowledged feedback is never dropped, whatever went wrong
            raise

    def _write(self, pending: dict[str, Pending]) -> int:
        notes = self._store.notes.get_many(pending)
        now = self._store.now()
        writes = []
        for note_id, counts in pending.items():
            note = notes.get(note_id)
            if note is None or note.status != "active":
                continue  # gone or retired meanwhile: its hits no longer matter
            writes.append(NoteWrite(self.updated(note, counts, now), "edit", "retrieval hits and feedback",
                                    base_version=note.version))
        if writes:
            self._store.batches.run("feedback", writes, principal=PRINCIPAL)
        return len(writes)

    def updated(self, note: Note, counts: Pending, now: datetime) -> Note:
        s = self._settings
        shift = counts.used * s.used_step - counts.wrong * s.wrong_step
        low = min(note.confidence, s.feedback_min_confidence)
        high = max(note.confidence, s.feedback_max_confidence)
        confidence = min(high, max(low, note.confidence + shift))
        return note.model_copy(update={
            "hit_count": max(0, note.hit_count + counts.hits), "confidence": confidence, "updated_at": now,
        })

    def _restore(self, pending: dict[str, Pending]) -> None:
        with self._lock:
            for note_id, counts in pending.items():
                entry = self._pending.setdefault(note_id, Pending())
                entry.hits += counts.hits
                entry.used += counts.used
                entry.wrong += counts.wrong
