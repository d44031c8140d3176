"""The arms of a comparison: memory systems behind one small Protocol, fed the same sessions.

- ``off`` (:class:`MemoryOff`): the stateless baseline, nothing is kept, nothing comes back;
- ``raw`` (:class:`bench.eval.rawlog.RawLogArm`): raw-log stacking ("version A"), every event
  stored as a note and retrieved by similarity;
- ``reverie`` (:class:`bench.eval.served.ReverieArm`, "version B"): a real local service driven
  over HTTP — capture, consolidation in the agents' actors, mining, scoped retrieval.

An arm hands back :class:`Retrieval`\\ s whose items carry their evidence event ids, which is how
the metrics judge them against the ground truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from reverie.capture import CaptureRequest

ItemKind = Literal["note", "turn", "summary"]


@dataclass(frozen=True)
class Retrieved:
    """One thing injected into an agent's context."""

    note_id: str
    text: str
    evidence: tuple[str, ...]
    scope: str
    type: str
    tokens: int
    kind: ItemKind = "note"
    score: float | None = None
    """the fused score the system ranked the item by, where it reports one (the stop-rule sweep reads it)"""


@dataclass(frozen=True)
class Retrieval:
    items: tuple[Retrieved, ...] = ()

    @property
    def tokens(self) -> int:
        return sum(item.tokens for item in self.items)


@dataclass(frozen=True)
class StoredNote:
    """A note as the metrics see it, whatever system stored it."""

    note_id: str
    type: str
    scope: str
    status: str
    text: str
    evidence: tuple[str, ...]


class MemoryArm(Protocol):
    name: str

    def ingest(self, requests: Sequence[CaptureRequest]) -> None:
        """Capture these sessions (oldest first), as agents would post them."""

    def settle(self) -> None:
        """Do the offline work the arm does between sessions (consolidation, mining); may be nothing."""

    def retrieve(self, agent_id: str, query: str, project: str, token_budget: int) -> Retrieval:
        """What the agent gets at the start of a task, most relevant first, within the budget."""

    def notes(self) -> list[StoredNote]:
        """Every note the arm holds, in any status."""

    def close(self) -> None:
        """Release what the arm holds (stores, services)."""


class MemoryOff:
    """The stateless baseline: nothing is stored, nothing is retrieved."""

    name = "off"

    def ingest(self, requests: Sequence[CaptureRequest]) -> None:
        return None

    def settle(self) -> None:
        return None

    def retrieve(self, agent_id: str, query: str, project: str, token_budget: int) -> Retrieval:
        return Retrieval()

    def notes(self) -> list[StoredNote]:
        return []

    def close(self) -> None:
        return None
