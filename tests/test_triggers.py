from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actors.triggers import AgentActivity, TriggerPolicy
from reverie.settings import TriggerSettings

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
IDLE = NOW - timedelta(minutes=11)


def _activity(pending: int = 5, last_event: datetime | None = IDLE, last_run: datetime | None = None,
              runs: tuple[datetime, ...] = (), running: bool = False, agent: str = "a1") -> AgentActivity:
    return AgentActivity(agent, pending, NOW - timedelta(hours=2) if pending else None, last_event,
                         last_run, runs, running)


@pytest.fixture
def policy() -> TriggerPolicy:
    return TriggerPolicy(TriggerSettings(seed=7))


def test_idle_agent_with_five_pending_sessions_is_scheduled_after_a_random_delay(policy: TriggerPolicy) -> None:
    due = policy.schedule(_activity(), NOW)
    assert due is not None and due.reason == "sessions"
    assert timedelta(seconds=60) <= due.run_at - NOW <= timedelta(seconds=600)


def test_the_delay_is_deterministic_with_a_seed_and_differs_between_agents(policy: TriggerPolicy) -> None:
    first = policy.schedule(_activity(agent="a1"), NOW)
    again = TriggerPolicy(TriggerSettings(seed=7)).schedule(_activity(agent="a1"), NOW)
    other = policy.schedule(_activity(agent="a2"), NOW)
    assert first == again
    assert first is not None and other is not None and first.run_at != other.run_at


@pytest.mark.parametrize(("activity", "why"), [
    (_activity(last_event=NOW - timedelta(minutes=9)), "busy"),
    (_activity(last_run=NOW - timedelta(minutes=30)), "cooldown"),
    (_activity(last_run=NOW - timedelta(hours=2), runs=tuple(NOW - timedelta(hours=h) for h in (2, 5, 8, 11))), "daily_cap"),
    (_activity(running=True), "running"),
])
def test_automatic_runs_wait_for_idleness_cooldown_the_daily_cap_and_a_running_run(
    policy: TriggerPolicy, activity: AgentActivity, why: str,
) -> None:
    assert policy.blocked(activity, NOW) == why
    assert policy.schedule(activity, NOW) is None


def test_runs_older_than_a_day_do_not_count_against_the_cap(policy: TriggerPolicy) -> None:
    runs = tuple(NOW - timedelta(hours=h) for h in (2, 25, 26, 27))
    assert policy.blocked(_activity(last_run=runs[0], runs=runs), NOW) is None


def test_fewer_sessions_wait_for_the_24_hour_fallback_which_has_no_delay(policy: TriggerPolicy) -> None:
    recent = _activity(pending=2, last_run=NOW - timedelta(hours=23))
    assert policy.schedule(recent, NOW) is None
    old = _activity(pending=2, last_run=NOW - timedelta(hours=24))
    due = policy.schedule(old, NOW)
    assert due is not None and due.reason == "fallback" and due.run_at == NOW


def test_the_fallback_of_a_new_agent_counts_from_its_oldest_pending_session(policy: TriggerPolicy) -> None:
    fresh = AgentActivity("a1", 1, NOW - timedelta(hours=25), IDLE, None)
    assert policy.reason(fresh, NOW) == "fallback"
    assert policy.reason(AgentActivity("a1", 1, NOW - timedelta(hours=3), IDLE, None), NOW) is None


def test_nothing_pending_never_triggers(policy: TriggerPolicy) -> None:
    nothing = _activity(pending=0, last_run=NOW - timedelta(days=3))
    assert policy.schedule(nothing, NOW) is None
    assert policy.earliest(nothing, NOW) is None


def test_a_scheduled_run_is_dropped_when_the_agent_gets_busy_again(policy: TriggerPolicy) -> None:
    due = policy.schedule(_activity(), NOW)
    assert due is not None
    assert policy.still_due(due, _activity(), NOW)
    assert not policy.still_due(due, _activity(last_event=NOW), NOW)


def test_earliest_names_the_gate_that_holds_the_run_back(policy: TriggerPolicy) -> None:
    cooling = _activity(last_run=NOW - timedelta(minutes=20))
    assert policy.earliest(cooling, NOW) == (NOW + timedelta(minutes=40), "sessions")
    few = _activity(pending=1, last_run=NOW - timedelta(hours=3))
    assert policy.earliest(few, NOW) == (NOW + timedelta(hours=21), "fallback")


def test_manual_and_fallback_runs_have_no_delay(policy: TriggerPolicy) -> None:
    assert policy.delay(_activity(), "manual") == timedelta(0)
    assert policy.delay(_activity(), "fallback") == timedelta(0)


@given(st.integers(min_value=0, max_value=2**31), st.text(alphabet="abc123", min_size=1, max_size=8))
def test_delays_always_fall_within_the_configured_bounds(seed: int, agent: str) -> None:
    policy = TriggerPolicy(TriggerSettings(seed=seed))
    delay = policy.delay(_activity(agent=agent), "sessions")
    assert timedelta(seconds=60) <= delay <= timedelta(seconds=600)


def test_without_a_seed_delays_come_from_the_system_and_stay_in_bounds() -> None:
    policy = TriggerPolicy(TriggerSettings())
    delays = {policy.delay(_activity(), "sessions") for _ in range(20)}
    assert len(delays) > 1
    assert all(timedelta(seconds=60) <= d <= timedelta(seconds=600) for d in delays)
