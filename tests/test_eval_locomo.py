"""LoCoMo loading (quirks counted, not crashed on), the evidence scorer, and the raw baselines end to end."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.eval.arms import Retrieval, Retrieved
from bench.eval.evidence import cited_turns, evidence_recall, score
from bench.eval.locomo import SPLITS, conversations_named, load_locomo
from bench.eval.rawlog import RawLog, RawLogArm
from bench.eval.served import credited
from eval_samples import write_locomo_sample
from reverie.api import NoteView, RetrievedNote, RetrievedTurn
from reverie.api import Retrieval as Served
from reverie.clock import ManualClock
from reverie.embed import HashEmbedder
from reverie.errors import ValidationError
from reverie.settings import Settings
from reverie.tokens import TokenCounter


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return write_locomo_sample(tmp_path)


def test_conversations_become_one_agent_each_with_dated_sessions(sample: Path) -> None:
    data = load_locomo(sample)
    first = data.conversations[0]
    assert (first.agent_id, first.project, first.turns) == ("conv-1", "conv-1", 5)
    session = first.requests[0]
    assert (session.agent_id, session.session_id, session.project) == ("conv-1", "conv-1-s1", "conv-1")
    assert [e.event_id for e in session.events] == ["D1:1", "D1:2", "D1:3"]
    assert session.events[0].text == "Ana: I adopted a grey cat called Pixel last week."
    assert session.events[2].text == "Ana: Look at this. [shares a photo of a cat on a windowsill]"
    assert session.events[0].ts == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert first.requests[1].events[0].ts == datetime(2023, 5, 9, 13, 56, tzinfo=UTC)  # unparsed: next day
    assert load_locomo(sample, captions=False).conversations[0].requests[0].events[2].text == "Ana: Look at this."


def test_quirks_are_handled_and_counted(sample: Path) -> None:
    data = load_locomo(sample)
    assert data.quirks.as_dict() == {
        "date_keys_without_session": 1, "evidence_ids_repaired": 1, "evidence_ids_unresolved": 2,
        "evidence_strings_with_several_ids": 1, "questions_with_only_unresolved_evidence": 1,
        "questions_without_evidence": 1, "turns_with_images": 1, "unparsed_dates": 1,
    }
    questions = list(data.questions())
    assert [(q.question_id, q.evidence) for q in questions] == [
        ("conv-1#0", ("D1:1",)), ("conv-1#1", ("D2:1", "D1:2")), ("conv-1#2", ("D2:2",)), ("conv-2#0", ("D1:1",)),
    ]
    assert [q.category for q in data.questions((5,))] == [5]


def test_load_refuses_what_is_not_locomo(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="no LoCoMo file"):
        load_locomo(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{oops")
    with pytest.raises(ValidationError, match="not JSON"):
        load_locomo(tmp_path / "bad.json")
    (tmp_path / "shape.json").write_text(json.dumps({"conversation": {}}))
    with pytest.raises(ValidationError, match="not a list of LoCoMo samples"):
        load_locomo(tmp_path / "shape.json")


def _retrieval(*evidence: tuple[str, ...]) -> Retrieval:
    return Retrieval(tuple(Retrieved(f"n{i}", "t", ev, "personal:a", "lesson", 10) for i, ev in enumerate(evidence)))


def test_cited_turns_keep_rank_order_once_each_up_to_the_cap() -> None:
    wide = _retrieval(("D1", "D2", "D3"), ("D2", "D4"), ("D5",))
    assert cited_turns(wide) == ["D1", "D2", "D3", "D4", "D5"]
    assert cited_turns(wide, cap=3) == ["D1", "D2", "D3"]
    assert cited_turns(wide, cap=0) == []
    assert evidence_recall(["D3", "D5"], cited_turns(wide, cap=4)) == 0.5


def test_score_averages_per_category_and_over_all_questions(sample: Path) -> None:
    questions = list(load_locomo(sample).questions())
    answers = [_retrieval(("D1:1",)), _retrieval(("D1:2",)), _retrieval(("x",)), _retrieval(("D1:1",))]
    table = score("a", questions, answers)
    assert table.per_category == {1: 0.5, 2: 0.0, 4: 1.0}
    assert table.counts == {1: 1, 2: 1, 4: 2}
    assert table.overall == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    capped = score("a", questions, [_retrieval(("x", "D1:1"))] * 4, caps=[1, 1, 1, 1])
    assert capped.overall == 0.0
    with pytest.raises(ValidationError, match="one retrieval"):
        score("a", questions, answers[:2])


def test_raw_baselines_find_the_turn_that_says_it(sample: Path, settings: Settings, clock: ManualClock) -> None:
    data = load_locomo(sample)
    log = RawLog(settings, HashEmbedder(settings.embedding), TokenCounter(), clock)
    assert log.ingest([r for c in data.conversations for r in c.requests]) == 7
    assert log.ingest(list(data.conversations[0].requests)) == 0  # a second capture adds nothing
    questions = list(data.questions())
    for ranking in ("dense", "lexical", "hybrid"):
        arm = RawLogArm(log, ranking)  # type: ignore[arg-type]
        answers = [arm.retrieve(q.sample_id, q.text, q.sample_id, 30) for q in questions]
        assert all(r.tokens <= 30 for r in answers)
        assert all(e in {"D1:1", "D1:2", "D1:3", "D2:1", "D2:2"} for r in answers[:3] for i in r.items for e in i.evidence)
        assert answers[3].items and {i.evidence for i in answers[3].items} <= {("D1:1",), ("D1:2",)}  # conv-2 only
    lexical = RawLogArm(log, "lexical")
    assert cited_turns(lexical.retrieve("conv-1", "Where is Ben's rowing race?", "conv-1", 600))[0] == "D2:1"


def _served(notes: list[tuple[str, list[str], int]], turns: list[tuple[str, int]]) -> Served:
    at = datetime(2023, 5, 8, tzinfo=UTC)
    return Served(retrieval_id="r1", context="", tokens=0, notes=[
        RetrievedNote(note=NoteView(note_id=i, type="lesson", subject="s", statement=f"note {i}", scope="personal:a",
                                    status="active", confidence=0.5, evidence=ev, source_sessions=[], source_agents=[],
                                    created_at=at, updated_at=at), score=0.1, similarity=0.5, rank=rank)
        for i, ev, rank in notes
    ], episodes=[
        RetrievedTurn(event_id=e, agent_id="a", session_id="s", project="p", ts=at, role="user", text=f"turn {e}",
                      similarity=0.4, rank=rank)
        for e, rank in turns
    ])


def test_the_reverie_arm_credits_raw_turns_in_the_fused_order(sample: Path) -> None:
    counter = TokenCounter()
    only_a_turn = credited(_served([("n1", ["D9:9"], 1)], [("D1:1", 2)]), counter)
    assert [i.kind for i in only_a_turn.items] == ["note", "turn"]
    assert [i.evidence for i in only_a_turn.items] == [("D9:9",), ("D1:1",)]
    assert only_a_turn.items[1].tokens == counter.count("turn D1:1") + 2
    questions = [q for q in load_locomo(sample).questions() if q.evidence == ("D1:1",)]
    assert score("reverie", questions, [only_a_turn] * len(questions)).overall == 1.0
    turn_first = credited(_served([("n1", ["D9:9"], 2)], [("D1:1", 1)]), counter)
    assert [i.note_id for i in turn_first.items] == ["D1:1", "n1"]
    assert score("reverie", questions, [turn_first] * len(questions), caps=[1] * len(questions)).overall == 1.0
    assert score("reverie", questions, [only_a_turn] * len(questions), caps=[1] * len(questions)).overall == 0.0


def test_conversations_are_chosen_by_name_or_split(sample: Path) -> None:
    assert conversations_named("all") is None and conversations_named("") is None
    assert conversations_named("dev") == SPLITS["dev"]
    assert conversations_named("conv-44, dev") == ("conv-44", *SPLITS["dev"])
    first = load_locomo(sample).conversations[0].sample_id
    assert [c.sample_id for c in load_locomo(sample, only=(first,)).conversations] == [first]
    with pytest.raises(ValidationError, match="no conversation"):
        load_locomo(sample, only=("conv-nope",))
