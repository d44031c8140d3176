"""Capture masks before the first write: after ingesting the whole canary corpus, no canary is on
disk or in the logs, while plain text demonstrably is (so the byte search can find things)."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError as PydanticValidationError

from privacy_corpus import all_canaries, byte_searchable, load_corpus
from reverie.capture import CaptureRequest, prepare_events
from reverie.clock import ManualClock
from reverie.errors import PayloadTooLargeError
from reverie.privacy import Masker
from reverie.settings import CaptureSettings, Settings
from reverie.store import Store

CONTROL = "PLAINCONTROLMARKER4412"


def _requests() -> list[CaptureRequest]:
    rows = load_corpus("dev") + load_corpus("heldout")
    events = [{"role": "user", "text": row["text"]} for row in rows]
    events.append({"role": "user", "text": f"nothing secret here {CONTROL}"})
    per = CaptureSettings().max_events_per_request  # the fewest appends (table versions) capture allows
    return [CaptureRequest(agent_id="a1", session_id=f"s{i}", project="atlas", events=events[i:i + per])
            for i in range(0, len(events), per)]


def _bytes_under(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def test_no_canary_reaches_the_store_or_the_logs(store: Store, settings: Settings, clock: ManualClock, tmp_path: Path) -> None:
    log_file = tmp_path / "reverie.log"
    handler = logging.FileHandler(log_file)
    root = logging.getLogger()
    root.addHandler(handler)
    old_level = root.level
    root.setLevel(logging.DEBUG)
    try:
        masker = Masker(settings.privacy)
        for request in _requests():
            store.events.append(prepare_events(request, masker, clock, settings.capture))
        store.maintenance.compact(force=True)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        handler.close()
    on_disk = _bytes_under(Path(settings.store.uri)) + log_file.read_bytes()
    assert CONTROL.encode() in on_disk, "the byte search must be able to find plain text"
    leaked = [c for c in all_canaries() if byte_searchable(c) and c.encode() in on_disk]
    assert leaked == [], f"{len(leaked)} canaries reached disk"
    assert len(all_canaries()) >= 100


def test_stable_ids_make_client_retries_idempotent(store: Store, settings: Settings, clock: ManualClock) -> None:
    request = CaptureRequest(agent_id="a1", session_id="s1", project="atlas",
                             events=[{"role": "user", "text": "prefer tables"}, {"role": "assistant", "text": "ok"}])
    masker = Masker(settings.privacy)
    first = store.events.append(prepare_events(request, masker, clock, settings.capture))
    clock.advance(timedelta(minutes=3))  # the retry arrives later: the server-assigned ts differs
    again = store.events.append(prepare_events(request, masker, clock, settings.capture))
    assert (first.accepted, again.accepted, again.duplicates) == (2, 0, 2)
    assert first.event_ids == again.event_ids


def test_candidates_are_masked_too(settings: Settings, clock: ManualClock) -> None:
    request = CaptureRequest(agent_id="a1", session_id="s1", project="atlas", events=[{
        "role": "assistant", "text": "noted",
        "candidate": {"type": "verified_fact", "subject": "contact", "statement": "Mail ops at jane.doe@example.com"},
    }])
    [event] = prepare_events(request, Masker(settings.privacy), clock, settings.capture)
    assert event.candidate is not None and "jane.doe" not in event.candidate.statement


def test_too_many_events_are_refused_without_echo(settings: Settings, clock: ManualClock) -> None:
    request = CaptureRequest(agent_id="a1", session_id="s1", project="atlas",
                             events=[{"role": "user", "text": "secret-ish text"}] * 3)
    with pytest.raises(PayloadTooLargeError) as info:
        prepare_events(request, Masker(settings.privacy), clock, CaptureSettings(max_events_per_request=2))
    assert "secret-ish" not in info.value.message


def test_a_request_with_one_bad_event_is_refused_whole() -> None:
    with pytest.raises(PydanticValidationError):
        CaptureRequest(agent_id="a1", session_id="s1", project="atlas",
                       events=[{"role": "user", "text": "fine"}, {"role": "user", "text": ""}])
