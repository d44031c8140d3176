"""The promotion gate on planted clusters (real MiniLM vectors of sentences written for these tests),
and the names of clusters and patterns (class-based TF-IDF), per audience.

The rule is called on the clusters directly (``assess`` is a pure function of the notes and their
vectors); the names are also checked end to end: a mining run stores them with the fit, and the
graph gives an analyst only the name built from shared notes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from mining.fits import Fits
from mining.graph import TeamGraph
from mining.names import class_names, name_clusters
from mining.patterns import Member, assess, closeness, cohesion, draft, focus
from mining_data import LESSONS, Seen, mine, settings_at, write_notes
from reverie.clock import ManualClock
from reverie.embed import Embedder, spec_for
from reverie.records import Note
from reverie.settings import MiningSettings
from reverie.store import Store

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
SETTINGS = MiningSettings()
REINDEX = [  # one lesson, five wordings
    "Reindexing the search cluster during business hours slows every query; schedule reindexes at night.",
    "Run search reindex jobs overnight, because daytime reindexing makes queries crawl.",
    "Rebuilding the search index at noon made all searches slow, so we rebuild it after midnight now.",
    "Search queries become sluggish while the index is rebuilt in the daytime; reindex at night instead.",
    "Do the full search reindex at night: during the day it drags every query down.",
]
FONTS = [  # another lesson, other words
    "The invoice PDF renderer prints boxes instead of totals unless the fonts package is installed.",
    "Install the font bundle on the PDF workers or invoice amounts render as empty squares.",
    "Invoices came out with square glyphs until we added the missing fonts to the renderer image.",
]
LEDGER = "The billing module must never write to the ledger tables directly; it goes through the ledger queue."


def _note(i: int, text: str, agent: str, session: str, *, type: str = "lesson", subject: str = "search reindex",
          scope: str | None = None, at: datetime = T0, **extra: object) -> Note:
    return Note(
        note_id=f"n{i:02d}-{agent}-{session}", type=type, subject=subject, statement=text,  # type: ignore[arg-type]
        scope=scope or f"personal:{agent}", owner_agent=agent, project="atlas", module="search",
        evidence=[f"e{i}"], source_sessions=[session], source_agents=[agent], confidence=0.6,
        created_at=at, updated_at=at, valid_from=at, last_seen_at=at, **extra,  # type: ignore[arg-type]
    )


STALE = [
    "Restart the import worker after every 500 files or it runs out of memory.",
    "The import worker leaks memory; restart it after every 500 files.",
    "Recycle the importer every 50 files, since its memory keeps growing.",
]


class Vectors:
    """MiniLM vectors of every planted sentence, embedded in one call (the model is the slow part)."""

    def __init__(self, embedder: Embedder) -> None:
        texts = [*REINDEX, *FONTS, LEDGER, *STALE]
        self._by_text = dict(zip(texts, embedder.embed(texts), strict=True))

    def cluster(self, notes: Sequence[Note]) -> list[Member]:
        return [Member(n, self._by_text[n.statement]) for n in notes]

    def lesson(self, who: Sequence[tuple[str, str]]) -> list[Member]:
        return self.cluster([_note(i, REINDEX[i], agent, session) for i, (agent, session) in enumerate(who)])


@pytest.fixture(scope="module")
def planted(minilm: Embedder) -> Vectors:
    return Vectors(minilm)


# --- the gate ----------------------------------------------------------------------------------
def test_a_lesson_three_agents_learned_in_three_sessions_is_promoted(planted: Vectors) -> None:
    found = assess("atlas", planted.lesson( [("a1", "s1"), ("a2", "s2"), ("a3", "s3")]), None, SETTINGS)
    assert (found.decision, found.reasons, found.scope) == ("promote", (), "module:atlas/search")


def test_a_lesson_seen_in_two_sessions_is_not_promoted(planted: Vectors) -> None:
    found = assess("atlas", planted.lesson( [("a1", "s1"), ("a2", "s2"), ("a3", "s2")]), None, SETTINGS)
    assert (found.decision, found.reasons) == ("wait", ("few_sessions",))


def test_a_lesson_of_two_agents_in_three_sessions_is_not_promoted(planted: Vectors) -> None:
    found = assess("atlas", planted.lesson( [("a1", "s1"), ("a2", "s2"), ("a2", "s3")]), None, SETTINGS)
    assert (found.decision, found.reasons) == ("wait", ("few_agents",))
    assert assess("atlas", planted.lesson([("a1", "s1"), ("a2", "s2"), ("a2", "s3")]), None,
                  MiningSettings(min_agents=2)).decision == "promote"


def test_a_cluster_mixing_two_topics_is_not_promoted(planted: Vectors) -> None:
    notes = [_note(i, t, f"a{i}", f"s{i}") for i, t in enumerate([*REINDEX[:2], *FONTS[:2]])]
    found = assess("atlas", planted.cluster(notes), None, SETTINGS)
    assert (found.decision, found.reasons) == ("wait", ("not_one_topic",))


def test_one_far_member_does_not_ride_along_on_a_high_mean(planted: Vectors) -> None:
    """Five wordings of one lesson and one of another: the mean passes, the medoid test does not."""
    members = planted.cluster([_note(i, t, f"a{i}", f"s{i}") for i, t in enumerate([*REINDEX, FONTS[0]])])
    vectors = np.stack([m.vector for m in members])
    assert closeness(vectors) < SETTINGS.medoid_similarity
    found = assess("atlas", members, None, SETTINGS)
    assert found.decision == "wait" and "not_one_topic" in found.reasons
    kept = focus(vectors, SETTINGS.topic_similarity, SETTINGS.medoid_similarity, SETTINGS.min_cluster_size)
    assert kept.tolist() == [True] * 5 + [False]  # the job drops the stray note; the rest is one topic
    assert cohesion(vectors[kept]) >= SETTINGS.topic_similarity


@pytest.mark.parametrize("change", [
    {"status": "superseded", "superseded_by": "n99-a9-s9"}, {"contested": True}, {"type": "open_question"},
], ids=["superseded", "contested", "open_question"])
def test_a_cluster_holding_a_superseded_contested_or_open_member_is_not_promoted(planted: Vectors, change: dict) -> None:
    notes = [_note(i, REINDEX[i], f"a{i}", f"s{i}") for i in range(4)]
    if "contested" in change and "contested" not in Note.model_fields:
        change = {"conflicts_with": ["n99-a9-s9"]}  # a store without the ``contested`` column: the linked question
    notes[3] = notes[3].model_copy(update=change)
    found = assess("atlas", planted.cluster(notes), None, SETTINGS)
    assert found.decision == "wait"
    assert set(found.reasons) & {"superseded", "contested", "open_question"}


def test_a_module_constraint_three_agents_heard_is_never_a_pattern(planted: Vectors) -> None:
    notes = [_note(i, LEDGER, f"a{i}", f"s{i}", type="constraint", subject="ledger writes") for i in range(3)]
    members = planted.cluster(notes)
    found = assess("atlas", members, None, SETTINGS)
    assert (found.decision, found.reasons) == ("skip", ("not_experience",))
    assert draft("p-x", "atlas", members, found, None, T0).note is None


def test_a_stale_note_and_its_paraphrased_correction_go_to_review(planted: Vectors) -> None:
    """Different subjects, one slot: the values differ, so the cluster is a conflict, not a pattern."""
    notes = [_note(i, text, f"a{i + 1}", f"s{i + 1}", subject=subject)
             for i, (text, subject) in enumerate(zip(STALE, ["import worker", "memory leak", "importer"], strict=True))]
    found = assess("atlas", planted.cluster(notes), None, SETTINGS)
    assert (found.decision, found.reasons) == ("review", ("conflict",))
    assert set(found.conflicts) == {("n00-a1-s1", "n02-a3-s3"), ("n01-a2-s2", "n02-a3-s3")}


def test_the_statement_and_subject_come_from_one_note_the_medoid_of_the_latest_members(planted: Vectors) -> None:
    later = T0 + timedelta(days=3)
    notes = [
        _note(0, REINDEX[0], "a1", "s1", subject="old wording"), _note(1, REINDEX[1], "a1", "s4", subject="reindex", at=later),
        _note(2, REINDEX[2], "a2", "s2", subject="index rebuild"), _note(3, REINDEX[3], "a3", "s3", subject="slow queries"),
    ]
    members = planted.cluster(notes)
    found = assess("atlas", members, None, SETTINGS)
    pattern = draft("p-x", "atlas", members, found, None, T0).note
    assert pattern is not None and pattern.status == "active"
    source = next(n for n in notes[1:] if n.statement == pattern.statement)  # a1's older note is not among the latest
    assert pattern.subject == source.subject


# --- names -------------------------------------------------------------------------------------
def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def test_two_clusters_get_names_from_their_own_words() -> None:
    names = class_names({0: REINDEX, 1: FONTS, -1: [LEDGER]})
    assert set(names) == {0, 1}
    own = {0: set().union(*map(_words, REINDEX)), 1: set().union(*map(_words, FONTS))}
    for label, other in ((0, 1), (1, 0)):
        named = set(names[label].split(", "))
        assert named & own[label] and not named & own[other], names
        assert named <= own[label]


def test_a_word_only_a_personal_note_holds_is_never_in_a_shared_name() -> None:
    texts = [*REINDEX[:2], *(f"Zanzibar, Zanzibar: {t}" for t in REINDEX[2:]), *FONTS]
    private = [False, False, True, True, True, False, False, False]
    found = name_clusters([0, 0, 0, 0, 0, 1, 1, 1], texts, private)
    assert "zanzibar" in found.of(0, personal=True)  # type: ignore[operator]
    assert "zanzibar" not in (found.of(0, personal=False) or "")
    alone = name_clusters([0, 0, 1], ["Zanzibar zebra quokka.", "Zanzibar zebra quokka!", FONTS[0]], [True, True, False])
    assert alone.of(0, personal=False) is None and alone.of(0, personal=True)


def test_a_mining_run_stores_names_and_an_analyst_gets_the_shared_one(tmp_path: Path, minilm: Embedder) -> None:
    clock = ManualClock()
    settings = settings_at(tmp_path / "store")
    store = Store.open(settings.store, spec_for(settings.embedding), clock)
    seen = [Seen(0, t, f"a{t}", f"s{t}", statement=f"Zanzibar, Zanzibar, Zanzibar: {LESSONS[0]['texts'][t]}") for t in (1, 2, 3)]
    seen += [Seen(0, t, f"m{t}", f"s{t}", scope="module:atlas/api") for t in (4, 5)]
    seen += [Seen(5, t, f"b{t}", f"t{t}") for t in range(4)]
    write_notes(store, minilm, seen, clock.now())
    state = mine(store, clock)
    names = Fits(store).names("atlas")
    assert names is not None and names.labels
    admin = [n for n in names.names if n]
    assert any("zanzibar" in n for n in admin) and not any("zanzibar" in (n or "") for n in names.shared)
    graph = TeamGraph.load(store, "atlas")
    analyst = graph.without_personal().for_reader(personal=False)
    patterns = [d for _, d in analyst.graph.nodes(data=True) if d["kind"] == "pattern"]
    assert patterns and all("zanzibar" not in (d.get("name") or "") and "shared_name" not in d for d in patterns)
    assert any(d.get("name") for d in patterns)  # the migrations cluster has shared members
    every = [d.get("name") or "" for _, d in graph.for_reader(personal=True).graph.nodes(data=True) if d["kind"] == "pattern"]
    assert any("zanzibar" in n for n in every)
    exported = nx.parse_graphml(analyst.to_graphml())
    assert all("zanzibar" not in d.get("name", "") for _, d in exported.nodes(data=True) if d["kind"] == "pattern")
    assert state.status == "committed"
