"""The ground truth of a fleet scenario: what was said, by whom, who may see it, what is current.

Every event of a scenario carries an :class:`EventLabel`; knowledge events point at the
:class:`Item` they state. A memory's note is judged by its evidence: the items its evidence events
state (see :func:`Truth.items_of`). Scopes follow DESIGN.md §5: ``personal:<agent>`` is read by that
agent only, ``module:<p>/<m>`` and ``project:<p>`` by the agents of project ``p``, ``team`` by all.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer

ItemType = Literal["preference", "constraint", "lesson", "procedure", "verified_fact"]
ItemRole = Literal["truth", "stale", "wrong"]
LabelKind = Literal[
    "statement", "correction", "verification", "wrong_claim", "chatter", "noise", "secret", "injection",
]
QueryKind = Literal["own", "shared", "corrected", "control", "offtopic"]
Recurrence = Literal["promotable", "two_sessions", "few_agents", "one_agent", "cross_project", "not_a_lesson"]
#: A correct pattern (DESIGN.md §4.4): a lesson recurring in >= PATTERN_SESSIONS sessions of >= PATTERN_AGENTS
#: agents of one project.
PATTERN_SESSIONS = 3
PATTERN_AGENTS = 3


def recurrence_of(item_type: str, sessions: int, agents: int, projects: int) -> Recurrence:
    """How a piece of knowledge recurs, by the one definition of a correct pattern."""
    if item_type != "lesson":
        return "not_a_lesson"
    if projects > 1:
        return "cross_project"
    if sessions < PATTERN_SESSIONS:
        return "two_sessions"
    if agents >= PATTERN_AGENTS:
        return "promotable"
    return "one_agent" if agents == 1 else "few_agents"


def readers(scope: str, agents: Iterable[Agent]) -> frozenset[str]:
    """The agents that may read a note of this scope (DESIGN.md §5)."""
    if scope == "team":
        return frozenset(a.agent_id for a in agents)
    kind, _, rest = scope.partition(":")
    if kind == "personal":
        return frozenset(a.agent_id for a in agents if a.agent_id == rest)
    project = rest.split("/", 1)[0]
    return frozenset(a.agent_id for a in agents if a.project == project)


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Agent(Model):
    agent_id: str
    project: str
    home_module: str


class Item(Model):
    """One piece of knowledge: said in paraphrases at ``events``; readable by ``visible_to``."""

    item_id: str
    type: ItemType
    frame: str = Field(description="the phrasebook frame it was drawn from")
    subject: str
    statement: str = Field(description="canonical wording, for reports only")
    scope: str = Field(description="where the knowledge belongs (DESIGN.md §5)")
    project: str
    module: str | None
    owner: str | None = Field(default=None, description="the agent of a personal item")
    visible_to: frozenset[str]
    events: tuple[str, ...]
    sessions: tuple[str, ...]
    agents: tuple[str, ...]
    verified: bool = False
    role: ItemRole = "truth"
    first_said: datetime
    superseded_by: str | None = Field(default=None, description="the correction that made it stale")
    stale_at: datetime | None = None
    contradicts: str | None = Field(default=None, description="for a wrong claim: the fact it denies")
    recurrence: Recurrence = "not_a_lesson"

    @field_serializer("visible_to")
    def _sorted(self, value: frozenset[str]) -> list[str]:
        return sorted(value)  # the same scenario dumps the same in every process

    @property
    def promotable(self) -> bool:
        """A lesson recurring in >= 3 sessions of >= 3 agents of one project (``recurrence_of``): mining
        should promote it without review.

        A ``cross_project`` lesson recurs as much but across projects: its pattern is ``team``-scoped and
        waits for a reviewer (DESIGN.md §4.4), so an active pattern for it without review is premature.
        """
        return self.recurrence == "promotable"


class EventLabel(Model):
    event_id: str
    agent_id: str
    session_id: str
    project: str
    kind: LabelKind
    item_id: str | None = None


class Canary(Model):
    """A planted secret or piece of personal data: its raw value must never come back."""

    event_id: str
    kind: Literal["secret", "personal"]
    label: str
    value: str


class Query(Model):
    """A question asked at the end of the scenario, worded differently from every statement."""

    query_id: str
    agent_id: str
    project: str
    module: str | None
    text: str
    kind: QueryKind
    targets: tuple[str, ...] = Field(description="current items that answer it")
    stale: tuple[str, ...] = Field(default=(), description="overturned items it must not bring back")


class Truth(Model):
    agents: dict[str, Agent]
    items: dict[str, Item]
    labels: dict[str, EventLabel]
    canaries: tuple[Canary, ...]
    queries: tuple[Query, ...]

    @cached_property
    def _conflicts(self) -> dict[str, frozenset[str]]:
        pairs: dict[str, set[str]] = {}
        for item in self.items.values():
            other = item.superseded_by or item.contradicts
            if other is not None:
                pairs.setdefault(item.item_id, set()).add(other)
                pairs.setdefault(other, set()).add(item.item_id)
        return {key: frozenset(value) for key, value in pairs.items()}

    def items_of(self, evidence: Iterable[str]) -> frozenset[str]:
        """The items that the given evidence events state (unknown ids state nothing)."""
        found = (self.labels.get(e) for e in evidence)
        return frozenset(label.item_id for label in found if label is not None and label.item_id)

    def conflicting(self, item_id: str) -> frozenset[str]:
        """Items that contradict this one (its correction or what it corrected, a wrong claim or its fact)."""
        return self._conflicts.get(item_id, frozenset())

    def readers(self, scope: str) -> frozenset[str]:
        """The agents that may read a note of this scope."""
        return readers(scope, self.agents.values())

    def event_readers(self, event_id: str) -> frozenset[str]:
        """Who may see an event's content: its item's readers, else only the agent who logged it."""
        label = self.labels.get(event_id)
        if label is None:
            return frozenset()
        if label.item_id is not None:
            return self.items[label.item_id].visible_to
        return frozenset({label.agent_id})

    def overturned(self, item_id: str) -> bool:
        return self.items[item_id].role != "truth"
