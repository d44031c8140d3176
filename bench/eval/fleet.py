"""Seeded fleet scenarios: N agents in M projects over D days, as capture requests plus ground truth.

    >>> scenario = fleet_scenario("dev", FleetConfig.quick())
    >>> scenario.requests[0]          # a reverie.capture.CaptureRequest, oldest session first
    >>> scenario.truth.queries[0]     # a question with the items that answer it

``fleet_scenario("dev", ...)`` uses the frozen development seed and phrasebook (tune on it);
``fleet_scenario("dev2", ...)``, ``fleet_scenario("dev3", ...)``, ``fleet_scenario("dev4", ...)``,
``fleet_scenario("dev5", ...)``, ``fleet_scenario("dev6", ...)`` and ``fleet_scenario("dev7", ...)`` the second,
third, fourth, fifth, sixth and seventh development seeds and phrasebooks
(other teams, each worded independently: tune on them too);
``fleet_scenario("heldout", ...)`` the held-out ones (report on it, never tune on it).
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bench.eval.knowledge import KnowledgeSpec, draw_knowledge
from bench.eval.phrases import Phrasebook
from bench.eval.phrases.dev import DEV
from bench.eval.phrases.dev2 import DEV2
from bench.eval.phrases.dev3 import DEV3
from bench.eval.phrases.dev4 import DEV4
from bench.eval.phrases.dev5 import DEV5
from bench.eval.phrases.dev6 import DEV6
from bench.eval.phrases.dev7 import DEV7
from bench.eval.phrases.heldout import HELDOUT
from bench.eval.plan import Draft, make_agents, plan_sessions, project_modules
from bench.eval.questions import ask
from bench.eval.render import StyleSpec, Written, write_sessions
from bench.eval.seeds import DEV2_SEED, DEV3_SEED, DEV4_SEED, DEV5_SEED, DEV6_SEED, DEV7_SEED, DEV_SEED, HELDOUT_SEED
from bench.eval.truth import Agent, Item, Recurrence, Truth, readers, recurrence_of
from reverie.capture import CaptureRequest
from reverie.records import UtcTime

Split = Literal["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "heldout"]

#: The frozen seed and phrasebook of each split.
SPLIT_BOOKS: dict[Split, tuple[int, Phrasebook]] = {
    "dev": (DEV_SEED, DEV), "dev2": (DEV2_SEED, DEV2), "dev3": (DEV3_SEED, DEV3), "dev4": (DEV4_SEED, DEV4),
    "dev5": (DEV5_SEED, DEV5), "dev6": (DEV6_SEED, DEV6), "dev7": (DEV7_SEED, DEV7),
    "heldout": (HELDOUT_SEED, HELDOUT),
}


class FleetConfig(BaseModel):
    """The size and texture of a scenario; the defaults are the full benchmark's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agents: int = Field(15, ge=1)
    projects: int = Field(3, ge=1)
    modules_per_project: int = Field(3, ge=1)
    days: int = Field(14, ge=1)
    session_chance: float = Field(0.8, ge=0.0, le=1.0)
    home_module_chance: float = Field(0.6, ge=0.0, le=1.0)
    events_per_session: tuple[int, int] = (8, 14)
    preferences_per_agent: int = 2
    constraints_per_module: int = 1
    procedures_per_module: int = 1
    facts_per_module: int = 2
    promotable_lessons: int = 2
    two_session_lessons: int = 1
    one_agent_lessons: int = 1
    cross_project_lessons: int = 1
    mentions: tuple[int, int] = (2, 4)
    correction_share: float = Field(0.3, ge=0.0, le=1.0)
    wrong_feedback_share: float = Field(0.5, ge=0.0, le=1.0)
    tag_chance: float = Field(0.6, ge=0.0, le=1.0)
    candidate_chance: float = Field(0.25, ge=0.0, le=1.0)
    secret_chance: float = Field(0.12, ge=0.0, le=1.0)
    injection_chance: float = Field(0.06, ge=0.0, le=1.0)
    own_queries_per_item: int = 2
    shared_queries_per_item: int = 2
    offtopic_queries: int = 8

    @classmethod
    def quick(cls) -> FleetConfig:
        """Small enough for CI and unit tests (about 40 sessions), with every kind of item in it."""
        return cls(agents=8, projects=2, modules_per_project=2, days=6, correction_share=0.4,
                   secret_chance=0.25, injection_chance=0.15, offtopic_queries=4)


class Scenario(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    seed: int
    phrasebook: str
    config: FleetConfig
    requests: list[CaptureRequest]
    truth: Truth


def fleet_scenario(split: Split, config: FleetConfig | None = None) -> Scenario:
    """The frozen development (``dev``, ``dev2``, ``dev3``, ``dev4``, ``dev5``, ``dev6``, ``dev7``) or held-out
    scenario at the given size."""
    seed, book = SPLIT_BOOKS[split]
    return generate(config or FleetConfig(), book, seed, name=split)


def generate(config: FleetConfig, book: Phrasebook, seed: int, *, name: str = "custom") -> Scenario:
    rng = random.Random(seed)
    start = _utc(book.start)
    modules = project_modules(book, min(config.projects, len(book.projects)), config.modules_per_project)
    agents = make_agents(book, modules, config.agents)
    sessions = plan_sessions(agents, modules, start, config.days, config.session_chance, config.home_module_chance, rng)
    drafts = draw_knowledge(_knowledge_spec(config), book, agents, modules, sessions, rng)
    written = write_sessions(sessions, _style_spec(config), book, rng)
    items = {d.item_id: _item(d, written, agents) for d in drafts}
    questions = {f.key: f.questions for f in book.frames}
    queries = ask(items, agents, book, questions, config.own_queries_per_item, config.shared_queries_per_item,
                  config.offtopic_queries, rng)
    truth = Truth(agents=agents, items=items, labels=written.labels, canaries=tuple(written.canaries),
                  queries=tuple(queries))
    return Scenario(name=name, seed=seed, phrasebook=book.name, config=config, requests=written.requests, truth=truth)


def _knowledge_spec(config: FleetConfig) -> KnowledgeSpec:
    return KnowledgeSpec(
        preferences_per_agent=config.preferences_per_agent, constraints_per_module=config.constraints_per_module,
        procedures_per_module=config.procedures_per_module, facts_per_module=config.facts_per_module,
        promotable_lessons=config.promotable_lessons, two_session_lessons=config.two_session_lessons,
        one_agent_lessons=config.one_agent_lessons, cross_project_lessons=config.cross_project_lessons,
        mentions=config.mentions,
        correction_share=config.correction_share, wrong_feedback_share=config.wrong_feedback_share,
    )


def _style_spec(config: FleetConfig) -> StyleSpec:
    return StyleSpec(
        events_per_session=config.events_per_session, tag_chance=config.tag_chance,
        candidate_chance=config.candidate_chance, secret_chance=config.secret_chance,
        injection_chance=config.injection_chance,
    )


def _item(draft: Draft, written: Written, agents: dict[str, Agent]) -> Item:
    """The ground truth of one placed draft: its events, scope, readers and fate."""
    events = tuple(e for e, label in written.labels.items() if label.item_id == draft.item_id)
    times = [ts for r in written.requests for ev in r.events if ev.event_id in events and (ts := ev.ts) is not None]
    scope = _scope(draft)
    replacement = draft.replaced_by
    return Item(
        item_id=draft.item_id, type=draft.frame.type, frame=draft.frame.key,
        subject=draft.fill(draft.frame.subject, "each module"),
        statement=draft.fill(draft.frame.statements[0], "each module"), scope=scope, project=draft.project,
        module=_module_of(draft), owner=draft.owner, visible_to=readers(scope, agents.values()), events=events,
        sessions=tuple(dict.fromkeys(s.session_id for s in draft.sessions)),
        agents=tuple(dict.fromkeys(s.agent_id for s in draft.sessions)),
        verified=draft.frame.type == "verified_fact" and draft.role != "wrong", role=draft.role,
        first_said=min(times), superseded_by=replacement.item_id if replacement else None,
        stale_at=_first_time(replacement, written) if replacement else None,
        contradicts=draft.denies.item_id if draft.denies else None, recurrence=_recurrence(draft),
    )


def _scope(draft: Draft) -> str:
    if draft.owner is not None:
        return f"personal:{draft.owner}"
    if len({s.project for s in draft.sessions}) > 1:
        return "team"
    modules = {s.module for s in draft.sessions} if draft.frame.type == "lesson" else {draft.module}
    return f"module:{draft.project}/{modules.pop()}" if len(modules) == 1 else f"project:{draft.project}"


def _module_of(draft: Draft) -> str | None:
    scope = _scope(draft)
    return scope.split("/", 1)[1] if scope.startswith("module:") else None


def _recurrence(draft: Draft) -> Recurrence:
    return recurrence_of(
        draft.frame.type, len({s.session_id for s in draft.sessions}), len({s.agent_id for s in draft.sessions}),
        len({s.project for s in draft.sessions}),
    )


def _first_time(draft: Draft, written: Written) -> datetime:
    return min(
        ev.ts for r in written.requests for ev in r.events
        if ev.ts and ev.event_id is not None and written.labels[ev.event_id].item_id == draft.item_id
    )


def _utc(text: str) -> UtcTime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
