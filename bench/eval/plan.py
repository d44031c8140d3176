"""Planning a fleet scenario: agents, their sessions, the knowledge to say and where it is said.

Everything draws from one ``random.Random`` in a fixed order, so a seed gives one scenario. The
plan is turned into events by :mod:`bench.eval.render` and into ground truth by
:mod:`bench.eval.fleet`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from bench.eval.phrases import Frame, Phrasebook
from bench.eval.truth import Agent, ItemRole, Recurrence

MentionKind = Literal["statement", "correction", "wrong_claim"]


@dataclass(eq=False)
class Draft:
    """One item while it is being planned; ``sessions`` fills as it is placed."""

    item_id: str
    frame: Frame
    project: str
    module: str | None
    owner: str | None = None
    value: str | None = None
    old: str | None = None
    role: ItemRole = "truth"
    replaces: Draft | None = None
    denies: Draft | None = None
    replaced_by: Draft | None = None
    denied_by: Draft | None = None
    recurrence: Recurrence = "not_a_lesson"
    mentions: int = 2
    sessions: list[SessionPlan] = field(default_factory=list)

    def fill(self, template: str, module: str | None = None) -> str:
        """The template with this item's slots; ``module`` stands in where the item has none (team lessons)."""
        return template.format(module=self.module or module or "", project=self.project, value=self.value or "",
                               old=self.old or "")


@dataclass(eq=False)
class SessionPlan:
    session_id: str
    agent_id: str
    project: str
    module: str
    start: datetime
    mentions: list[tuple[Draft, MentionKind]] = field(default_factory=list)


def project_modules(book: Phrasebook, n_projects: int, per_project: int) -> dict[str, tuple[str, ...]]:
    """Modules of each project, taken round-robin from the phrasebook (names may repeat across projects)."""
    names = book.modules
    return {
        book.projects[p]: tuple(names[(p * per_project + j) % len(names)] for j in range(per_project))
        for p in range(n_projects)
    }


def make_agents(book: Phrasebook, modules: dict[str, tuple[str, ...]], n_agents: int) -> dict[str, Agent]:
    """Agents spread evenly over projects; each gets a home module round-robin."""
    projects = list(modules)
    agents: dict[str, Agent] = {}
    for i in range(n_agents):
        project = projects[i % len(projects)]
        rank = i // len(projects)
        agent_id = f"{book.roles[i % len(book.roles)]}-{i + 1}"
        home = modules[project][rank % len(modules[project])]
        agents[agent_id] = Agent(agent_id=agent_id, project=project, home_module=home)
    return agents


def plan_sessions(
    agents: dict[str, Agent], modules: dict[str, tuple[str, ...]], start: datetime, days: int,
    chance: float, home_chance: float, rng: random.Random,
) -> list[SessionPlan]:
    """At most one session per agent and day, in the home module mostly; oldest first."""
    sessions = []
    for day in range(days):
        for agent in agents.values():
            if rng.random() >= chance:
                continue
            module = agent.home_module if rng.random() < home_chance else rng.choice(modules[agent.project])
            at = start + timedelta(days=day, hours=1, minutes=rng.randint(0, 480))
            sessions.append(SessionPlan(f"{agent.agent_id}-d{day + 1:02d}", agent.agent_id, agent.project, module, at))
    return sorted(sessions, key=lambda s: (s.start, s.session_id))


def place(draft: Draft, pool: Sequence[SessionPlan], n: int, kind: MentionKind, rng: random.Random) -> bool:
    """Say ``draft`` in ``n`` distinct sessions of ``pool`` (fewer if the pool is short)."""
    chosen = sorted(rng.sample(list(pool), min(n, len(pool))), key=lambda s: s.start)
    for index, session in enumerate(chosen):
        session.mentions.append((draft, kind if index == 0 else "statement"))
        draft.sessions.append(session)
    return bool(chosen)


def say_in(draft: Draft, sessions: Sequence[SessionPlan]) -> Draft:
    """Say ``draft`` once in each of ``sessions`` (as plain statements)."""
    for session in sorted(sessions, key=lambda s: s.start):
        session.mentions.append((draft, "statement"))
        draft.sessions.append(session)
    return draft


def after(pool: Sequence[SessionPlan], moment: datetime) -> list[SessionPlan]:
    return [s for s in pool if s.start > moment]


def in_module(sessions: Sequence[SessionPlan], project: str, module: str) -> list[SessionPlan]:
    return [s for s in sessions if s.project == project and s.module == module]


def of_agent(sessions: Sequence[SessionPlan], agent_id: str) -> list[SessionPlan]:
    return [s for s in sessions if s.agent_id == agent_id]
