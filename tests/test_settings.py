from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic import ValidationError

from reverie.settings import Settings


def test_environment_overrides_nested_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_CONSOLIDATION__DUPLICATE_SIMILARITY", "0.9")
    monkeypatch.setenv("REVERIE_TRIGGERS__COOLDOWN", "PT30M")
    settings = Settings()
    assert settings.consolidation.duplicate_similarity == 0.9
    assert settings.triggers.cooldown == timedelta(minutes=30)


def test_a_bad_provider_fails_at_load_listing_the_allowed_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_EMBEDDING__PROVIDER", "openai")
    with pytest.raises(ValidationError) as info:
        Settings()
    assert "'minilm' or 'hash'" in str(info.value)


def test_settings_are_frozen_and_carry_the_design_defaults() -> None:
    settings = Settings()
    with pytest.raises(ValidationError):
        settings.consolidation.duplicate_similarity = 0.1  # type: ignore[misc]
    assert (settings.triggers.min_new_sessions, settings.triggers.max_runs_per_day) == (5, 4)
    assert settings.triggers.fallback_after == timedelta(hours=24)
    assert (settings.triggers.delay_min, settings.triggers.delay_max) == (timedelta(seconds=60), timedelta(seconds=600))
    c = settings.consolidation
    assert (c.max_sessions, c.batch_events, c.max_tokens_per_batch, c.max_seconds, c.repair_rounds) == (100, 50, 16000, 600, 2)
    # duplicate_similarity: the seeds' 0.85, recalibrated for the bundled MiniLM on MRPC (BENCHMARKS.md)
    assert (c.duplicate_k, c.duplicate_similarity, c.conflict_margin) == (5, 0.73, 0.25)
    assert (c.max_notes_per_agent, c.max_new_notes_per_run) == (5000, 200)
    assert (settings.mining.min_sessions, settings.mining.topic_similarity) == (3, 0.6)
    a = settings.alerts
    assert (a.store_fill, a.max_new_notes_per_week, a.redundant_share) == (0.8, 100, 0.3)
    assert (a.hit_rate_drop_points, a.conflict_rate) == (10, 0.05)


def test_unknown_settings_are_refused() -> None:
    with pytest.raises(ValidationError):
        Settings(store={"url": "x"})  # type: ignore[arg-type]
