"""When to consolidate an agent (DESIGN §4.2): idle and enough sessions, or the 24 h fallback.

Pure: the policy sees an :class:`AgentActivity` (derived from the store) and the time, and answers
whether a run is due, why not, and when. The random 60-600 s delay that spreads simultaneous starts
is drawn from a generator seeded by ``TriggerSettings.seed`` (per agent and per last run, so it is
the same whatever order agents are checked in); without a seed it comes from the OS.
A manual request skips the delay, the cooldown and the daily cap, but never runs beside a run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from reverie.settings import TriggerSettings
from reverie.statements import stable_digest

Reason = Literal["sessions", "fallback", "manual"]
DAY = timedelta(hours=24)


@dataclass(frozen=True)
class AgentActivity:
    """What the store says about an agent, as of one moment."""

    agent_id: str
    pending_sessions: int
    oldest_pending_at: datetime | None
    last_event_at: datetime | None
    last_run_at: datetime | None
    run_times: tuple[datetime, ...] = ()
    running: bool = False
    cursor: str | None = None

    def runs_within(self, now: datetime) -> int:
        return sum(1 for t in self.run_times if now - t < DAY)


@dataclass(frozen=True)
class Due:
    """A run to start at ``run_at`` for ``reason``."""

    agent_id: str
    reason: Reason
    run_at: datetime


class TriggerPolicy:
    def __init__(self, settings: TriggerSettings) -> None:
        self.settings = settings

    def idle(self, activity: AgentActivity, now: datetime) -> bool:
        last = activity.last_event_at
        return last is None or now - last >= self.settings.idle_after

    def reason(self, activity: AgentActivity, now: datetime) -> Reason | None:
        """Which automatic trigger holds, ignoring idleness, cooldown and cap."""
        if activity.pending_sessions >= self.settings.min_new_sessions:
            return "sessions"
        since = _since(activity)
        if activity.pending_sessions > 0 and since is not None and now - since >= self.settings.fallback_after:
            return "fallback"
        return None

    def blocked(self, activity: AgentActivity, now: datetime) -> str | None:
        """Why an automatic run may not start now (None when it may)."""
        if activity.running:
            return "running"
        if not self.idle(activity, now):
            return "busy"
        if activity.last_run_at is not None and now - activity.last_run_at < self.settings.cooldown:
            return "cooldown"
        if activity.runs_within(now) >= self.settings.max_runs_per_day:
            return "daily_cap"
        return None

    def schedule(self, activity: AgentActivity, now: datetime) -> Due | None:
        """The run to schedule now, with its delay, or None when no automatic run is due."""
        why = self.reason(activity, now)
        if why is None or self.blocked(activity, now) is not None:
            return None
        return Due(activity.agent_id, why, now + self.delay(activity, why))

    def still_due(self, due: Due, activity: AgentActivity, now: datetime) -> bool:
        """A scheduled run is dropped when the agent got busy again or its trigger went away."""
        return self.reason(activity, now) is not None and self.blocked(activity, now) is None

    def delay(self, activity: AgentActivity, reason: Reason) -> timedelta:
        if reason in ("fallback", "manual"):
            return timedelta(0)
        low, high = self.settings.delay_min.total_seconds(), self.settings.delay_max.total_seconds()
        return timedelta(seconds=self._rng(activity).uniform(low, high))

    def earliest(self, activity: AgentActivity, now: datetime) -> tuple[datetime, Reason] | None:
        """The earliest time an automatic run could start, as things stand (None: nothing pending)."""
        since = _since(activity)
        if activity.pending_sessions == 0 or since is None:
            return None
        if activity.pending_sessions >= self.settings.min_new_sessions:
            reason: Reason = "sessions"
            at = now
        else:
            reason, at = "fallback", since + self.settings.fallback_after
        for gate in self._gates(activity):
            at = max(at, gate)
        return max(at, now), reason

    def _gates(self, activity: AgentActivity) -> list[datetime]:
        gates = []
        if activity.last_event_at is not None:
            gates.append(activity.last_event_at + self.settings.idle_after)
        if activity.last_run_at is not None:
            gates.append(activity.last_run_at + self.settings.cooldown)
        recent = sorted(activity.run_times)[-self.settings.max_runs_per_day:]
        if len(recent) >= self.settings.max_runs_per_day:
            gates.append(recent[0] + DAY)
        return gates

    def _rng(self, activity: AgentActivity) -> random.Random:
        if self.settings.seed is None:
            return random.SystemRandom()
        last = activity.last_run_at.isoformat() if activity.last_run_at else "-"
        return random.Random(stable_digest(str(self.settings.seed), activity.agent_id, last))


def _since(activity: AgentActivity) -> datetime | None:
    """The fallback counts from the last run, or from the oldest pending session if none ran."""
    return activity.last_run_at or activity.oldest_pending_at
