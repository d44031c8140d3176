"""The arms of a comparison: memory systems behind one small Protocol, fed the same sessions.

- ``off`` (:class:`MemoryOff`): the stateless baseline, nothing is kept, nothing comes back;
- ``raw`` (:class:`reverie.eval.rawlog.RawLogArm`): raw-log stacking ("version A"), every event
  stored as a note and retrieved by similarity;
- ``reverie`` ("version B"): capture through the service, consolidation in the agents' actors,
  mining, scoped retrieval. It plugs in at :func:`build_reverie_arm` once the HTTP service, the
  actors, mining and retrieval exist; until then asking for it is an error, never made-up results.

An arm hands back :class:`Retrieval`\\ s whose items carry their evidence event ids, which is how
the metrics judge them against the ground truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from reverie.capture import CaptureRequest
from reverie.errors import ConfigError
from reverie.settings import Settings

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


def build_reverie_arm(settings: Settings) -> MemoryArm:
    """The "version B" arm: Reverie itself, driven as agents drive it.

    To be built on the HTTP service (``POST /v1/events``, ``/v1/agents/{id}/consolidate``,
    ``/v1/mining/runs``, ``/v1/retrieve`` with ``k`` and ``token_budget``): ``ingest`` posts every
    request, ``settle`` consolidates every agent and mines every project, ``retrieve`` asks as the
    agent, and ``notes`` lists every note in any status. It plugs in here and nowhere else.
    """
    raise ConfigError(
        "the reverie arm is not available yet: it needs the HTTP service, the agent actors, mining and "
        "retrieval; run the comparison with the 'off' and 'raw' arms until they are merged"
    )
