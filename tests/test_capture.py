"""Capture masks before the first write: after ingesting the whole canary corpus, no canary is on
disk or in the logs, while plain text demonstrably is (so the byte search can find things)."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError as PydanticValidationError

from privacy_corpus import all_canaries, byte_searchable, found_in, load_corpus
from reverie.capture import CaptureRequest, prepare_events
from reverie.clock import ManualClock
from reverie.errors import PayloadTooLargeError
from reverie.privacy import Masker
from reverie.settings import CaptureSettings, Settings
from reverie.store import Store

CONTROL = "PLAINCONTROLMARKER"
#: Rows an append carries: larger appends write pages LanceDB compresses, where a byte search finds
#: nothing (each request's control row checks that it still finds plain text).
PER_REQUEST = 100


def _requests() -> list[CaptureRequest]:
    rows = load_corpus("dev") + load_corpus("heldout")
    events = [{"role": "user", "text": row["text"]} for row in rows]
    return [CaptureRequest(agent_id="a1", session_id=f"s{i}", project="atlas",
                           events=[*events[i:i + PER_REQUEST - 1], {"role": "user", "text": f"nothing secret {_control(i)}"}])
            for i in range(0, len(events), PER_REQUEST - 1)]


def _control(i: int) -> str:
    return f"{CONTROL}{i:05d}"


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
        requests = _requests()
        for request in requests:
            store.events.append(prepare_events(request, masker, clock, settings.capture))
        store.maintenance.compact(force=True)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        handler.close()
    on_disk = _bytes_under(Path(settings.store.uri)) + log_file.read_bytes()
    controls = {_control(int(r.session_id[1:])).encode() for r in requests}
    assert found_in(controls, on_disk) == controls, "the byte search must find plain text in every append"
    leaked = found_in({c.encode() for c in all_canaries() if byte_searchable(c)}, on_disk)
    assert leaked == set(), f"{len(leaked)} canaries reached disk"
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


def test_the_one_pass_byte_search_finds_what_a_search_per_needle_finds() -> None:
    needles = [c.encode() for c in all_canaries() if byte_searchable(c)]
    haystack = b"\x00" * 100 + needles[0] + b" plain " + needles[-1][:-1] + b"|" + needles[5] + needles[7][:5]
    assert found_in(needles, haystack) == {n for n in needles if n in haystack} == {needles[0], needles[5]}
    assert found_in(needles, b"short") == set() and found_in([], haystack) == set()
