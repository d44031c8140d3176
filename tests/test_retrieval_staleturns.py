"""Turns a newer note overturns (serve/retrieval/staleturns.py): left out of the raw-turn layer when a
note among the question's first k, observed later, says it replaces what the turn asserts or is a
verified reading of another value; an older note, or prose that merely reads differently, hides nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pyarrow as pa
import pytest

from reverie.records import Event
from serve.retrieval.agentturns import Turn, TurnHits
from serve.retrieval.scopeblock import Cached, Candidate
from serve.retrieval.staleturns import without_overturned

DAY = datetime(2026, 3, 10, tzinfo=UTC)


def _turn(text: str, days: int = 0) -> Turn:
    at = DAY + timedelta(days=days)
    return Turn(Event(event_id=f"e-{abs(hash(text)) % 10_000}", agent_id="a1", session_id="s1", project="atlas", ts=at,
                      role="user", text=text, ingested_at=at), 0.5)


def _note(statement: str, days: int, *, kind: str = "constraint", verified: bool = False) -> Candidate:
    seen = DAY + timedelta(days=days)
    chunk = pa.table({"type": [kind], "verified": [verified], "last_seen_at": [seen], "valid_from": [None],
                      "created_at": [seen]})
    return Candidate(Cached(f"n-{days}", 1, statement, chunk, 0), 0.5, 0.5)


CLAIM = "Checked, the ledger image uses CUDA 12.4, which matters for the wheel."


@pytest.mark.parametrize(("note", "dropped"), [
    (_note("The platform team bumped ledger to CUDA 12.1, so stop assuming 12.4.", 3), True),   # replaces what it says
    (_note("$ docker run ledger-trainer python -c 'import torch; print(torch.version.cuda)'\n12.1", 3,
           kind="verified_fact", verified=True), True),                                          # a newer reading
    (_note("$ docker run ledger-trainer python -c 'import torch; print(torch.version.cuda)'\n12.1", -3,
           kind="verified_fact", verified=True), False),                                         # an older one
    (_note("The ledger image ships CUDA 12.1, I think.", 3), False),                              # unverified prose
    (_note("Ledger wheels are built in the nightly job, not by hand.", 3), False),               # replaces another thing
])
def test_a_turn_is_left_out_only_when_a_newer_note_overturns_it(note: Candidate, dropped: bool) -> None:
    claim, other = _turn(CLAIM), _turn("The ledger job got 64 GPUs today.")
    hits = without_overturned(TurnHits(dense=[claim, other], lexical=[other, claim]), [note], 0.6)
    assert [t.event.text for t in hits.dense] == ([other.event.text] if dropped else [CLAIM, other.event.text])
    assert len(hits.lexical) == len(hits.dense)


SAID = "Found it: ledger-api's PDBs end up in https://symstore.build.internal/sym."
PRINTED = "$ grep -A2 '^\\[Symbols\\]' Config/ledger-api/DefaultEngine.ini\n[Symbols]\nStorePath={url}\nCompress=True"


@pytest.mark.parametrize(("note", "dropped"), [
    (_note(PRINTED.format(url="https://syms.example.net/store"), 3, kind="verified_fact", verified=True), True),
    (_note(PRINTED.format(url="https://symstore.build.internal/sym"), 3, kind="verified_fact", verified=True), False),
    (_note(PRINTED.format(url="https://syms.example.net/store").replace("ledger-api", "billing-api"), 3,
           kind="verified_fact", verified=True), False),  # another thing's address
    (_note("ledger-api symbols now go to https://syms.example.net/store", 3), False),  # said, not printed
    (_note("$ grep -n dump Config/ledger-api/Crash.ini\n4:DumpDir=file:///var/crash/ledger-api", 3, kind="verified_fact",
           verified=True), False),  # a local path: another kind of place, another thing
])
def test_a_turn_naming_an_address_is_left_out_when_a_newer_reading_of_its_thing_prints_another(
        note: Candidate, dropped: bool) -> None:
    turn, other = _turn(SAID), _turn("The ledger job got 64 GPUs today.")
    hits = without_overturned(TurnHits(dense=[turn, other], lexical=[other, turn]), [note], 0.6)
    assert [t.event.text for t in hits.dense] == ([other.event.text] if dropped else [SAID, other.event.text])


POOL_SAID = "Checked: CI schedules ledger-api onto win64-xl agents."
JENKINS = "Started by timer\nRunning on {agent} in C:\\jenkins\\workspace\\{job}\n[Pipeline] stage (Compile)"


@pytest.mark.parametrize(("note", "dropped"), [
    (_note(JENKINS.format(agent="win64-gpu-a10-07", job="ledger-api"), 3, kind="verified_fact", verified=True), True),
    (_note(JENKINS.format(agent="win64-xl-03", job="ledger-api"), 3, kind="verified_fact", verified=True), False),
    (_note(JENKINS.format(agent="win64-gpu-a10-07", job="billing-api"), 3, kind="verified_fact", verified=True),
     False),  # another thing's pool
    (_note(JENKINS.format(agent="win64-gpu-a10-07", job="ledger-api"), -3, kind="verified_fact", verified=True),
     False),  # an older reading
])
def test_a_turn_naming_a_part_is_left_out_when_a_newer_reading_of_its_thing_prints_another(
        note: Candidate, dropped: bool) -> None:
    turn, other = _turn(POOL_SAID), _turn("The ledger job got 64 GPUs today.")
    hits = without_overturned(TurnHits(dense=[turn, other], lexical=[other, turn]), [note], 0.6)
    assert [t.event.text for t in hits.dense] == ([other.event.text] if dropped else [POOL_SAID, other.event.text])
