"""Drawing the knowledge of a fleet and placing each item in the sessions where it is said.

Preferences are personal; constraints, procedures and verified facts belong to a module; lessons
recur in a chosen pattern (``promotable``: >= 3 sessions of >= 3 agents of one project, the one
definition of a correct pattern in ``bench.eval.truth``; only 2 sessions; 3 sessions of one agent;
or two agents in each of two projects) and their scope follows where they landed. Some items get a
later correction (verified by a tool for facts, a user's word otherwise); some facts get a wrong,
unverified denial.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from bench.eval.phrases import Frame, Phrasebook
from bench.eval.plan import Draft, SessionPlan, after, in_module, of_agent, place, say_in
from bench.eval.truth import PATTERN_AGENTS, PATTERN_SESSIONS, Agent, Recurrence


@dataclass(frozen=True)
class KnowledgeSpec:
    """How much knowledge to draw (the part of ``FleetConfig`` this module reads)."""

    preferences_per_agent: int
    constraints_per_module: int
    procedures_per_module: int
    facts_per_module: int
    promotable_lessons: int
    two_session_lessons: int
    one_agent_lessons: int
    cross_project_lessons: int
    mentions: tuple[int, int]
    correction_share: float
    wrong_feedback_share: float


@dataclass
class Quota:
    """Says yes at a steady rate: after ``n`` asks, ``round(share * n)`` yeses (exact shares, no luck)."""

    share: float
    asked: int = 0
    granted: int = 0

    def grant(self) -> bool:
        self.asked += 1
        if self.granted < math.floor(self.share * self.asked + 0.5):
            self.granted += 1
            return True
        return False


@dataclass
class Fates:
    corrections: Quota
    denials: Quota


def draw_knowledge(
    spec: KnowledgeSpec, book: Phrasebook, agents: dict[str, Agent], modules: dict[str, tuple[str, ...]],
    sessions: Sequence[SessionPlan], rng: random.Random,
) -> list[Draft]:
    """Every item of the scenario, placed; corrections and wrong claims included."""
    drafts: list[Draft] = _team_lessons(spec, book, sessions, rng)
    reserved = {d.frame.key for d in drafts}
    fates = Fates(Quota(spec.correction_share), Quota(spec.wrong_feedback_share))
    for agent in agents.values():
        drafts += _personal(spec, book, agent, of_agent(sessions, agent.agent_id), fates, rng)
    for project, names in modules.items():
        for module in names:
            drafts += _module_items(spec, book, project, module, in_module(sessions, project, module), fates, rng)
        drafts += _lessons(spec, book, project, [s for s in sessions if s.project == project], reserved, rng)
    return [d for d in drafts if d.sessions]


def _personal(
    spec: KnowledgeSpec, book: Phrasebook, agent: Agent, pool: list[SessionPlan], fates: Fates, rng: random.Random,
) -> list[Draft]:
    frames = _sample(book.frames_of("preference"), spec.preferences_per_agent, rng)
    drafts = []
    for frame in frames:
        draft = Draft(f"{frame.key}:{agent.agent_id}", frame, agent.project, None, owner=agent.agent_id)
        drafts += _said(draft, pool, spec, fates, rng)
    return drafts


def _module_items(
    spec: KnowledgeSpec, book: Phrasebook, project: str, module: str, pool: list[SessionPlan], fates: Fates,
    rng: random.Random,
) -> list[Draft]:
    frames = (
        _sample(book.frames_of("constraint"), spec.constraints_per_module, rng)
        + _sample(book.frames_of("procedure"), spec.procedures_per_module, rng)
        + _sample(book.frames_of("verified_fact"), spec.facts_per_module, rng)
    )
    drafts = []
    for frame in frames:
        drafts += _said(Draft(f"{frame.key}:{project}/{module}", frame, project, module), pool, spec, fates, rng)
    return drafts


def _said(draft: Draft, pool: list[SessionPlan], spec: KnowledgeSpec, fates: Fates, rng: random.Random) -> list[Draft]:
    """Place an item, then maybe its correction or a wrong denial of it."""
    frame = draft.frame
    draft.value = rng.choice(frame.values) if frame.values else None
    draft.mentions = rng.randint(*spec.mentions)
    if frame.correctable and len(pool) >= 3 and fates.corrections.grant():
        return _corrected(draft, pool, rng)
    place(draft, pool, draft.mentions, "statement", rng)
    if frame.contestable and len(draft.sessions) < len(pool) and fates.denials.grant():
        return [draft, *_denied(draft, pool, rng)]
    return [draft]


def _corrected(draft: Draft, pool: list[SessionPlan], rng: random.Random) -> list[Draft]:
    """The item is said early, then replaced by a correction that is said later."""
    early = pool[: max(1, len(pool) // 2)]
    place(draft, early, max(1, draft.mentions - 1), "statement", rng)
    later = after(pool, draft.sessions[-1].start)
    if not later:
        return [draft]
    new = Draft(
        f"{draft.item_id}~v2", draft.frame, draft.project, draft.module, owner=draft.owner,
        value=rng.choice([v for v in draft.frame.values if v != draft.value]), old=draft.value,
        replaces=draft, mentions=rng.randint(1, 2),
    )
    place(new, later, new.mentions, "correction", rng)
    draft.role, draft.replaced_by = "stale", new
    return [draft, new]


def _denied(fact: Draft, pool: list[SessionPlan], rng: random.Random) -> list[Draft]:
    """A later, unverified claim that the verified fact is something else (must not win)."""
    later = after(pool, fact.sessions[0].start)
    if not later:
        return []
    wrong = Draft(
        f"{fact.item_id}~wrong", fact.frame, fact.project, fact.module, role="wrong", denies=fact,
        value=rng.choice([v for v in fact.frame.values if v != fact.value]), old=fact.value, mentions=1,
    )
    place(wrong, later, 1, "wrong_claim", rng)
    fact.denied_by = wrong
    return [wrong]


def _lessons(spec: KnowledgeSpec, book: Phrasebook, project: str, pool: list[SessionPlan], reserved: set[str],
             rng: random.Random) -> list[Draft]:
    counts: dict[Recurrence, int] = {
        "promotable": spec.promotable_lessons, "two_sessions": spec.two_session_lessons, "one_agent": spec.one_agent_lessons,
    }
    wanted = [recurrence for recurrence, n in counts.items() for _ in range(n)]
    frames = _sample([f for f in book.frames_of("lesson") if f.key not in reserved], len(wanted), rng)
    drafts = []
    for frame, recurrence in zip(frames, wanted, strict=False):
        chosen = _lesson_sessions(recurrence, pool, rng)
        if not chosen:
            continue
        module = chosen[0].module
        drafts.append(say_in(Draft(f"{frame.key}:{project}/{module}", frame, project, module, recurrence=recurrence), chosen))
    return drafts


def _team_lessons(spec: KnowledgeSpec, book: Phrasebook, sessions: Sequence[SessionPlan], rng: random.Random) -> list[Draft]:
    """Lessons seen by two agents in each of two projects: team knowledge, promoted only after review."""
    frames = _sample(book.frames_of("lesson"), spec.cross_project_lessons, rng)
    projects = sorted({s.project for s in sessions})
    drafts = []
    for frame in frames if len(projects) >= 2 else []:
        chosen = [s for p in rng.sample(projects, 2) for s in _one_per_agent([s for s in sessions if s.project == p], 2, rng)]
        drafts.append(say_in(Draft(f"{frame.key}:team", frame, chosen[0].project, None, recurrence="cross_project"), chosen))
    return drafts


def _one_per_agent(pool: list[SessionPlan], n: int, rng: random.Random) -> list[SessionPlan]:
    agents = rng.sample(sorted({s.agent_id for s in pool}), min(n, len({s.agent_id for s in pool})))
    return [rng.choice([s for s in pool if s.agent_id == a]) for a in agents]


def _lesson_sessions(recurrence: Recurrence, pool: list[SessionPlan], rng: random.Random) -> list[SessionPlan]:
    """Sessions of one module where a lesson recurs in the wanted pattern; [] if the pool can't."""
    by_module: dict[str, list[SessionPlan]] = {}
    for session in pool:
        by_module.setdefault(session.module, []).append(session)
    options = []
    for sessions in by_module.values():
        agents = {s.agent_id for s in sessions}
        if recurrence == "promotable" and len(agents) >= PATTERN_AGENTS:
            picked = [rng.choice([s for s in sessions if s.agent_id == a]) for a in rng.sample(sorted(agents), PATTERN_AGENTS)]
            rest = [s for s in sessions if s not in picked and s.agent_id in {p.agent_id for p in picked}]
            options.append(picked + rng.sample(rest, min(len(rest), rng.randint(0, 1))))
        elif recurrence == "two_sessions" and len(sessions) >= 2:
            options.append(rng.sample(sessions, 2))
        elif recurrence == "one_agent":
            options += [rng.sample(own, PATTERN_SESSIONS) for a in sorted(agents)
                        if len(own := [s for s in sessions if s.agent_id == a]) >= PATTERN_SESSIONS]
    return rng.choice(options) if options else []


def _sample(frames: Sequence[Frame], n: int, rng: random.Random) -> list[Frame]:
    return rng.sample(list(frames), min(n, len(frames)))
