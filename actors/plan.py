"""The typed records the consolidation stages pass along, and the index of existing notes.

A run turns :class:`Member` s (candidates with their vectors) into :class:`Draft` s (groups judged to
be one note, maybe merged into an existing note), then into :class:`Change` s (new views of notes,
each with the audit action and reason), which the store writes as one batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from reverie.alternatives import Alternatives
from reverie.records import AuditAction, Candidate, Note, Session
from reverie.statements import normalise, stable_digest

LIVE_STATUSES = ("active", "candidate")
COMPARED_STATUSES = ("active", "candidate", "open_question")


def note_id_for(owner: str, scope: str, note_type: str, statement: str) -> str:
    """Deterministic: the same first statement in the same scope always yields the same id (in a
    shared scope whoever says it first: two agents' runs that add it at once meet as a batch conflict)."""
    return "n-" + stable_digest(owner if scope.startswith("personal:") else "shared", scope, note_type, normalise(statement))


@dataclass(frozen=True)
class Member:
    """One candidate, the embedding of its statement and of its value-masked statement (its slot)."""

    candidate: Candidate
    vector: np.ndarray
    slot_vector: np.ndarray | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.candidate.scope, normalise(self.candidate.statement)


@dataclass(frozen=True)
class Draft:
    """Candidates judged to be one note; ``target`` is the existing note they merge into."""

    note_id: str
    members: tuple[Member, ...]
    target: Note | None = None

    @property
    def lead(self) -> Member:
        return self.members[0]


@dataclass(frozen=True)
class Change:
    """One new view of a note; ``vector`` None keeps the stored one; ``new`` if it did not exist."""

    note: Note
    action: AuditAction
    reason: str
    vector: np.ndarray | None = None
    new: bool = False
    observed: bool = False
    slot_vector: np.ndarray | None = None


@dataclass(frozen=True)
class RunContext:
    """What every stage may read about the run: whose, when, and the sessions it replays."""

    agent_id: str
    now: datetime
    sessions: dict[str, Session] = field(default_factory=dict)

    def place(self, candidate: Candidate) -> tuple[str | None, str | None]:
        """Project and module of the candidate's first session."""
        for session_id in candidate.session_ids:
            session = self.sessions.get(session_id)
            if session is not None:
                return session.project, session.module
        return None, None


class NoteIndex:
    """Existing notes of the run's scopes (every status but deleted) with their vectors."""

    def __init__(self, notes: Sequence[Note], vectors: np.ndarray, slot_vectors: dict[str, np.ndarray] | None = None) -> None:
        self.notes = list(notes)
        self.slot_vectors = dict(slot_vectors or {})
        self.alternatives = Alternatives()
        dim = vectors.shape[1] if vectors.ndim == 2 else 0
        self.vectors = vectors.reshape(len(self.notes), dim).astype(np.float32) if self.notes else np.zeros((0, dim), np.float32)
        self._by_id = {n.note_id: i for i, n in enumerate(self.notes)}
        self._by_key = {(n.scope, normalise(n.statement)): i for i, n in enumerate(self.notes) if n.status in COMPARED_STATUSES}
        self._status = np.array([n.status for n in self.notes], dtype=object)
        scopes: dict[str, list[int]] = {}
        for i, n in enumerate(self.notes):
            scopes.setdefault(n.scope, []).append(i)
        self._scope_rows = {scope: np.array(rows, dtype=np.int64) for scope, rows in scopes.items()}

    def __len__(self) -> int:
        return len(self.notes)

    def get(self, note_id: str) -> Note | None:
        index = self._by_id.get(note_id)
        return None if index is None else self.notes[index]

    def vector(self, note_id: str) -> np.ndarray | None:
        index = self._by_id.get(note_id)
        return None if index is None else self.vectors[index]

    def slot_vector(self, note_id: str) -> np.ndarray | None:
        """The embedding of the note's value-masked statement, where the run computed it."""
        return self.slot_vectors.get(note_id)

    def with_slot_vectors(self, found: dict[str, np.ndarray]) -> NoteIndex:
        index = NoteIndex.__new__(NoteIndex)
        index.__dict__.update(self.__dict__)
        index.slot_vectors = {**self.slot_vectors, **found}
        return index

    def with_alternatives(self, alternatives: Alternatives) -> NoteIndex:
        """The index with the values the team's people fill one frame with (``reverie.alternatives``)."""
        index = NoteIndex.__new__(NoteIndex)
        index.__dict__.update(self.__dict__)
        index.alternatives = alternatives
        return index

    def nearest_in(self, vector: np.ndarray, scopes: Iterable[str], k: int,
                   statuses: Iterable[str] = LIVE_STATUSES) -> list[tuple[Note, float]]:
        """The ``k`` most similar notes of any of ``scopes`` with one of ``statuses``."""
        found = [hit for scope in sorted(set(scopes)) for hit in self.nearest(vector, scope, k, statuses)]
        return sorted(found, key=lambda h: (-h[1], h[0].note_id))[:k]

    def scopes(self) -> list[str]:
        return sorted(self._scope_rows)

    def exact(self, scope: str, statement: str) -> Note | None:
        index = self._by_key.get((scope, normalise(statement)))
        return None if index is None else self.notes[index]

    def nearest(self, vector: np.ndarray, scope: str, k: int,
                statuses: Iterable[str] = LIVE_STATUSES) -> list[tuple[Note, float]]:
        """The ``k`` most similar notes of ``scope`` with one of ``statuses`` (exact cosine search)."""
        rows = self._scope_rows.get(scope)
        if rows is None or k <= 0:
            return []
        rows = rows[np.isin(self._status[rows], list(statuses))]
        if rows.size == 0:
            return []
        sims = self.vectors[rows] @ np.asarray(vector, dtype=np.float32)
        order = np.argsort(-sims, kind="stable")[:k]
        return [(self.notes[int(rows[i])], float(sims[i])) for i in order]
