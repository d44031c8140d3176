"""Restatements of an overturned claim: found in the log and withheld with it (real store, real MiniLM)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from actors.restated import Overturned, restatements
from reverie.citations import cited_events
from reverie.embed import Embedder
from reverie.errors import ValidationError
from reverie.records import Event, Note
from reverie.restatements import corrected_phrases, mentions, restates, stale_phrases, wish_value
from reverie.settings import ConsolidationSettings
from reverie.store import NoteFilter, NoteWrite
from reverie.store.where import mentions_any as where_mentions
from test_consolidation_memory import Fleet


@pytest.mark.parametrize(("loser", "winner", "phrases"), [
    ("Use Central European Time whenever you mention a time.",
     "Switch my timestamps from Central European Time to US Pacific time.", ["Central European Time"]),
    ("CI job api-test cancelled: exceeded limit of 90 minutes", "$ ci show-limits api\ntimeout: 20 minutes", ["90"]),
    ("Broker stats: consumer ingest bound to jobs-high", "$ queuectl inspect ingest\nsubscribed: batch-low", ["jobs-high"]),
    ("Runtime check: interpreter Python 3.11 (ok)", "$ python --version\nPython 3.13.4", ["3.11"]),
    ("Merging a schema change needs two reviewers.", "Schema changes need the data team's sign-off now, not two reviewers.",
     ["two reviewers"]),
    ("Deploys happen on Tuesdays.", "Deploys happen on Thursdays.", []),  # no frame, no value: nothing to look for
    # two old values, one replaced: which one is unknown, so neither (the 14 days still hold)
    ("Backups run at 02:00 UTC and keep 14 days of history.", "Backups run at 04:00 UTC now.", []),
    # a tool's field printed otherwise later: its old value, when it is the one field that changed
    ('$ terraform state show db | grep class\ninstance_class = "db.t3.small"',
     "$ dbctl describe db\ninstance_class: db.m7g.large", ["db.t3.small"]),
    ("$ dbctl describe db\ninstance_class: db.t3.small\nstorage: gp2",
     "$ dbctl describe db\ninstance_class: db.m7g.large\nstorage: gp3", []),  # two fields: which one is unknown
    ("$ dbctl describe db\ninstance_class: db.t3.small\nstatus: stopped",  # a generic field is no rival value
     "$ dbctl describe db\ninstance_class: db.m7g.large\nstatus: available", ["db.t3.small"]),
    # a reading replaced by another of its kind, in another shape: an address, a part, a named thing's version
    ("[cook-nightly #1482] Uploading 1,284 symbol files to s3://crash-syms ... done",
     "$ grep StorePath DefaultEngine.ini\nStorePath=https://symstore.build.internal/sym", ["s3://crash-syms"]),
    ('$ curl -s http://10.0.4.17/api/v1/device\n{"model": "pairing", "soc": "nRF52840"}',
     "$ openocd -f boards/pairing.cfg\nInfo : [STM32U585.cpu] examination succeeded", ["nrf52840"]),
    ("$ grep -m1 'Engine Version' Saved/Logs/sched.log\nLogInit: Engine Version: 5.5.0-31166578+++UE5+Release",
     "$ buildctl info sched\nproject  engine  platform  status\nsched  5.3.2  Win64  green", ["5.5.0"]),
    ("$ grep host ota.conf\nhost = fw-eu.example.net\nmirror = fw-us.example.net",  # two old hosts: which one?
     "$ grep host ota.conf\nhost = updates.example.dev", []),
    ("$ tool --versions\nengine 5.5.0 / sdk 5.5.2", "$ tool --versions\nengine 5.3.2", []),  # 5.5 printed twice: whose?
])
def test_what_a_winner_overturns_in_a_loser(loser: str, winner: str, phrases: list[str]) -> None:
    assert stale_phrases(loser, winner, 0.6) == phrases


def test_a_restatement_asserts_the_phrase_it_names() -> None:
    assert mentions("The search runtime is Python 3.11.", "3.11")
    assert not mentions("The search runtime is Python 3.11.4.", "3.11")
    assert not mentions("Queue jobs-higher is new.", "jobs-high")
    assert restates("I read timestamps in Central European Time; convert them.", ["central european time"], 0.6)
    assert not restates("Status reports as a bulleted list instead of a table.", ["table"], 0.6)  # rejects it
    assert corrected_phrases("Change of plan: I now want status reports as a bulleted list instead of a table.", 0.6) == ["table"]
    # what the correction still asserts is not stale ("exporter.py" cut at its dot leaves "exporter")
    assert corrected_phrases("The export no longer uses exporter.py --batch 500; run it with the streaming exporter.", 0.6) == []


@pytest.mark.parametrize(("wish", "value"), [
    ("Broken deploys get reported to me as the full rollout log attached, not a wall of red in chat.",
     "full rollout log attached"),
    ("You keep giving me too much or too little. a timeline of which service failed first.",
     "timeline of which service failed first"),
    ("Merge requests as a single squashed commit, please.", "requests as a single squashed commit"),
    ("Prefer tabs.", None),  # one content word: nothing to find a restatement by
])
def test_a_wish_is_found_again_by_the_words_it_ends_on(wish: str, value: str | None) -> None:
    assert wish_value(wish) == value


def test_a_wish_changed_without_naming_its_old_value_is_stale_by_what_it_asked_for() -> None:
    loser = "Broken deploys get reported to me as the full rollout log attached, not a wall of red in chat."
    winner = "Since the new pipeline I want a one-line summary naming the failing stage."
    assert stale_phrases(loser, winner, 0.6) == []
    assert stale_phrases(loser, winner, 0.6, wish=True) == ["full rollout log attached"]
    assert stale_phrases(loser, "I want the full rollout log attached, and a summary.", 0.6, wish=True) == []  # still asked


def _live(fleet: Fleet, agent: str) -> list[str]:
    return [n.statement for n in fleet.notes(agent, ["active", "candidate"])]


def test_a_corrected_preference_takes_its_untagged_restatements_with_it(tmp_path: Path, minilm: Embedder) -> None:
    fleet = Fleet(tmp_path, minilm)
    fleet.say("a1", "s0", "Format the weekly status as a table, please; that is how I read them best.",
              "The users table has forty columns.")
    fleet.say("a2", "t0", "Format the weekly status as a table, please.")  # another agent's own preference
    fleet.say("a1", "s1", "Change of plan: I now want status reports as a bulleted list instead of a table.",
              tags=["correction", "preference"])
    for agent in ("a1", "a2"):
        fleet.memory(agent).consolidate()
    [restated] = fleet.store.notes.list(NoteFilter(statuses=["superseded"])).notes
    assert restated.superseded_by is not None
    correction = fleet.store.notes.get(restated.superseded_by)
    assert restated.evidence == ["s0-0"] and "restated" in restated.tags
    assert restated.scope == "personal:a1" and "bulleted list" in correction.statement
    assert restated.note_id in correction.supersedes
    assert not any("table" in s and "bulleted" not in s for s in _live(fleet, "a1"))
    history = fleet.store.notes.history(restated.note_id).audit
    assert [a.action for a in history] == ["supersede"] and "s0-0" in history[0].reason


def test_a_changed_wish_takes_the_turns_that_repeated_what_it_asked_for(tmp_path: Path, minilm: Embedder) -> None:
    """The correction names no old value: the old wish's own last words find the untagged turn that
    repeated it, which is withheld with it; a turn about something else is not."""
    fleet = Fleet(tmp_path, minilm)
    fleet.say("a1", "s0", "Failed deploys: the full rollout log attached. That's my rule.",
              "The rollout log rotated overnight.")
    fleet.say("a1", "s1", "Broken deploys get reported to me as the full rollout log attached, not a wall of red in chat.",
              tags=["preference"])
    fleet.memory("a1").consolidate()
    [wish] = fleet.notes("a1", ["active"])
    fleet.say("a1", "s2", "Since the new pipeline I want a one-line summary naming the failing stage.",
              tags=["correction", "preference"])
    fleet.memory("a1").consolidate()
    old = fleet.store.notes.get(wish.note_id)
    assert old.status == "superseded"
    assert set(old.evidence) == {"s1-0", "s0-0"}


def test_a_superseded_rule_cites_the_turns_that_restated_it(tmp_path: Path, minilm: Embedder) -> None:
    fleet = Fleet(tmp_path, minilm)
    fleet.say("a1", "s0", "For billing, every table change requires two reviewers.",
              "Lunch with the two reviewers went well.")
    fleet.say("a1", "s1", "Merging a billing schema change needs two reviewers.", tags=["constraint"])
    fleet.memory("a1").consolidate()
    [rule] = fleet.notes("a1", ["active"])
    assert rule.evidence == ["s1-0"]
    fleet.say("a1", "s2", "New process: billing schema changes need the data team's sign-off now, not two reviewers.",
              tags=["constraint", "correction"])
    fleet.memory("a1").consolidate()
    old = fleet.store.notes.get(rule.note_id)
    assert old.status == "superseded"
    assert set(old.evidence) == {"s1-0", "s0-0"}  # the first wording, never extracted; not the other turn


def test_a_live_note_spares_only_its_own_agents_turn_of_an_id(minilm: Embedder) -> None:
    """Event ids are unique per agent only: a1's live note citing "e5" keeps a1's "e5" from being taken
    as a restatement, never a2's "e5"; a note naming no agent spares every agent's."""
    at = datetime(2026, 3, 2, tzinfo=UTC)
    old = "The api CI job times out after 90 minutes."

    def note(note_id: str, agents: list[str], evidence: list[str]) -> Note:
        return Note(note_id=note_id, type="constraint", subject="ci", statement=old, scope="project:atlas",
                    project="atlas", evidence=evidence, source_agents=agents, created_at=at, updated_at=at)

    said = "The api CI job still times out after 90 minutes."
    turns = [Event(event_id="e5", agent_id=agent, session_id="s", project="atlas", ts=at, role="user", text=said,
                   ingested_at=at) for agent in ("a1", "a2")]
    vectors = minilm.embed([said, said, old])
    for live, kept in (([ "a1"], ["a2"]), ([], [])):
        claim = Overturned(note("n-old", ["a3"], ["e1"]), ["90"], at, cited_events([note("n-live", live, ["e5"])]),
                           loser=True)
        found = restatements(claim, turns, vectors[:2], vectors[2], ConsolidationSettings())
        assert [e.agent_id for e in found] == kept


def test_the_store_finds_the_turns_that_name_a_phrase_by_whole_tokens(tmp_path: Path, minilm: Embedder) -> None:
    fleet = Fleet(tmp_path, minilm)
    fleet.say("a1", "s0", "The api CI job times out after 90 minutes.", "It ran 900 minutes.",
              "Timestamps in CENTRAL   European time, please.", "Queue jobs_high is new.")
    fleet.say("a2", "t0", "The api CI job times out after 90 minutes.")
    before = fleet.clock.now()
    fleet.say("a1", "s1", "Still 90 minutes.")
    found = fleet.gateway.mentioning("atlas", ["a1"], ["90", "central european time", "jobs-high"], before, 10)
    assert [e.event_id for e in found] == ["s0-2", "s0-0"]  # newest first; not 900, not jobs_high, not a2's, not later
    every = fleet.gateway.mentioning("atlas", None, ["90"], before, 10)  # any agent of the project
    assert {(e.agent_id, e.event_id) for e in every} == {("a1", "s0-0"), ("a2", "t0-0")}
    # a live note cites its own agents' events only (ids are unique per agent): a2's note citing "s0-0"
    # leaves a1's turn of that id; a1's own note citing "s0-2" takes a1's turn out
    at = fleet.clock.now()
    notes = [Note(note_id=f"n-{agent}", type="lesson", subject="time", statement=f"Times go in CET ({agent}).",
                  scope=f"personal:{agent}", owner_agent=agent, project="atlas", evidence=[event],
                  source_sessions=["s0"], source_agents=[agent], created_at=at, updated_at=at)
             for agent, event in (("a2", "s0-0"), ("a1", "s0-2"))]
    vectors = minilm.embed([n.statement for n in notes])
    fleet.store.batches.run("import", [NoteWrite(n, "add", vector=v) for n, v in zip(notes, vectors, strict=True)])
    found = fleet.gateway.mentioning("atlas", ["a1"], ["90", "central european time"], before, 10)
    assert [e.event_id for e in found] == ["s0-0"]
    with pytest.raises(ValidationError):
        where_mentions("text", [["90%'; drop"]])
    assert where_mentions("text", [["run", "at", "02"], ["90"]]) == (
        "((lower(text) LIKE '%02%' AND lower(text) LIKE '%at%' AND lower(text) LIKE '%run%') OR (lower(text) LIKE '%90%'))")


def test_a_module_notes_restatement_is_said_in_its_module_or_names_it(minilm: Embedder) -> None:
    """"X-Small" said of another module's warehouse restates nothing the ledger's note said; said in a
    ledger session, or naming the ledger, it does."""
    at = datetime(2026, 3, 2, tzinfo=UTC)
    old = "$ snow warehouse describe ledger_wh\nsize: X-Small\nstate: STARTED"
    note = Note(note_id="n-old", type="verified_fact", subject="ledger", statement=old, scope="module:atlas/ledger",
                project="atlas", module="ledger", evidence=["e1"], created_at=at, updated_at=at)
    said = [("billing", "Confirmed billing runs on a X-Small warehouse."),
            ("ledger", "Confirmed it runs on a X-Small warehouse."),
            ("billing", "Confirmed ledger runs on a X-Small warehouse."),
            ("billing", "Confirmed the ledgers app runs on a X-Small warehouse.")]  # a word, not the module
    turns = [Event(event_id=f"e{i + 5}", agent_id="a1", session_id="s", project="atlas", module=module, ts=at,
                   role="user", text=text, ingested_at=at) for i, (module, text) in enumerate(said)]
    vectors = minilm.embed([t for _, t in said] + [old])
    claim = Overturned(note, ["x-small"], at, frozenset(), loser=True)
    found = restatements(claim, turns, vectors[:4], vectors[4], ConsolidationSettings(restatement_similarity=0.0))
    assert [e.event_id for e in found] == ["e6", "e7"]


def test_a_personal_notes_restatement_may_be_said_in_any_module(minilm: Embedder) -> None:
    """A person's taste is theirs whichever module's session they said it in."""
    at = datetime(2026, 3, 2, tzinfo=UTC)
    old = "Please write my status reports as a table."
    note = Note(note_id="n-old", type="preference", subject="reports", statement=old, scope="personal:a1",
                owner_agent="a1", project="atlas", module="ledger", evidence=["e1"], created_at=at, updated_at=at)
    said = "Format the weekly status as a table, please."
    turn = Event(event_id="e5", agent_id="a1", session_id="s", project="atlas", module="billing", ts=at, role="user",
                 text=said, ingested_at=at)
    vectors = minilm.embed([said, old])
    claim = Overturned(note, ["table"], at, frozenset(), loser=True)
    assert restatements(claim, [turn], vectors[:1], vectors[1], ConsolidationSettings()) == [turn]


def test_the_changed_piece_of_an_address_is_a_stale_phrase_and_a_logs_clock_is_none() -> None:
    old = "Mar-10 22:41:07.552 INFO PublishDir - Publishing ledger outputs to s3://gx-clinical-results/ledger/run_7"
    new = "$ aws s3 ls s3://gx-results-eu/ledger/ | tail -2\nPRE run_2026-03-09/\nPRE run_2026-03-10/"
    found = stale_phrases(old, new, 0.6)
    assert "gx-clinical-results" in found and "22:41:07" not in found  # its pieces "gx", "results" claim nothing
    assert "02:00" in stale_phrases("Backups run at 02:00 UTC.", "Backups run at 04:00 UTC now.", 0.6)  # a set time
    reference = "$ bcftools view -h x.vcf.gz | grep '^##reference'\n##reference=file:///refs/{}/genome.fa"
    assert "t2t-chm13v2.0" in stale_phrases(reference.format("T2T-CHM13v2.0"), reference.format("GRCh38"), 0.6)
