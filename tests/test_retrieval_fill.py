"""The last step of a retrieval (serve/retrieval/fill.py) on hand-built fused orders: which items the
stop rules keep. Through HTTP the same rules are covered by test_http_retrieval; here the scores are
chosen exactly."""

from __future__ import annotations

from datetime import UTC, datetime

import pyarrow as pa

from reverie.records import Event, Note
from reverie.settings import RetrievalSettings
from reverie.store.rows import note_row
from reverie.tokens import TokenCounter
from serve.retrieval.agentturns import Turn
from serve.retrieval.block import BEGIN, END, Entry, day_line, item_line, note_entry, render
from serve.retrieval.fill import Fill, Ranked
from serve.retrieval.scopeblock import Cached, Candidate

AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _note(note_id: str, score: float, scope: str = "personal:a", *, similarity: float = 0.5,
          verified: bool = False, agent: str = "a", evidence: tuple[str, ...] = ()) -> Ranked:
    note = Note(note_id=note_id, type="lesson", subject="deploys", statement=f"Deploys need approval ({note_id}).",
                scope=scope, owner_agent=agent, verified=verified, project="p", source_sessions=["s"],
                source_agents=[agent], evidence=list(evidence), created_at=AT, updated_at=AT)
    chunk = pa.Table.from_pylist([note_row(note, [0.0] * 4)])
    return Ranked(score, candidate=Candidate(Cached(note_id, 1, note.statement, chunk, 0), similarity, similarity))


def _turn(event_id: str, score: float) -> Ranked:
    event = Event(event_id=event_id, agent_id="a", session_id="s", project="p", ts=AT, role="user",
                  text=f"We talked about deploys ({event_id}).", ingested_at=AT)
    return Ranked(score, turn=Turn(event, 0.5))


def _kept(order: list[Ranked], **settings: float) -> list[str]:
    recalled = Fill(TokenCounter(), RetrievalSettings(**settings)).fit(order, k=8, budget=600)  # type: ignore[arg-type]
    ranked = sorted([*recalled.notes, *recalled.turns], key=lambda v: v.rank)
    return [v.note.note_id if hasattr(v, "note") else v.event_id for v in ranked]


def test_turns_beside_a_leading_note_must_clear_the_higher_bar() -> None:
    order = [_note("n1", 1.0), _turn("t-close", 0.85), _turn("t-far", 0.6), _note("n2", 0.3), _turn("t-chatter", 0.2)]
    assert _kept(order) == ["n1", "t-close", "n2"]  # 0.8 x best beside a leading note; notes keep their own gates
    assert _kept(order, notes_lead=0) == ["n1", "t-close", "t-far", "n2"]  # only the share of 0.4 x best
    assert _kept(order, notes_lead_share=0.0) == ["n1", "t-close", "t-far", "n2"]


def test_when_a_turn_leads_the_turns_clear_only_the_share() -> None:
    order = [_turn("t1", 1.0), _note("n1", 0.9), _turn("t2", 0.6), _turn("t-chatter", 0.3)]
    assert _kept(order) == ["t1", "n1", "t2"]
    assert _kept(order, notes_lead=2) == ["t1", "n1"]  # a note among the first two: the higher bar


def test_a_shared_note_near_the_head_holds_turns_to_the_higher_bar() -> None:
    order = [_turn("t1", 1.0), _turn("t2", 0.95), _note("n-module", 0.9, "module:p/deploy"), _turn("t3", 0.85)]
    assert _kept(order, shared_notes_lead=3, shared_notes_lead_share=0.9) == ["t1", "t2", "n-module"]
    assert _kept(order, shared_notes_lead=2, shared_notes_lead_share=0.9) == ["t1", "t2", "n-module", "t3"]
    personal = [_turn("t1", 1.0), _turn("t2", 0.95), _note("n-own", 0.9), _turn("t3", 0.85)]
    assert _kept(personal, shared_notes_lead=3, shared_notes_lead_share=0.9) == ["t1", "t2", "n-own", "t3"]
    verified = [_turn("t1", 1.0), _turn("t2", 0.95), _note("n-checked", 0.9, verified=True), _turn("t3", 0.85)]
    assert _kept(verified, shared_notes_lead=3, shared_notes_lead_share=0.9) == ["t1", "t2", "n-checked"]
    far = [_turn("t1", 1.0), _turn("t2", 0.95), _note("n-far", 0.9, "team", similarity=0.2), _turn("t3", 0.85)]
    assert _kept(far, shared_notes_lead=3, shared_notes_lead_share=0.9) == ["t1", "t2", "n-far", "t3"]


def test_shared_notes_close_to_the_question_weigh_more_without_leaving_the_notes_order() -> None:
    from serve.retrieval.recall import _weighed

    def candidate(note_id: str, scope: str, similarity: float) -> Candidate:
        found = _note(note_id, 0.0, scope).candidate
        assert found is not None
        return Candidate(found.cached, similarity, similarity)

    notes = [(candidate("n-own", "personal:a", 0.5), 1.0), (candidate("n-module", "module:p/deploy", 0.5), 0.9),
             (candidate("n-far", "team", 0.2), 0.8)]
    weighed = [(r.key, round(r.score, 3)) for r in _weighed(notes, RetrievalSettings())]
    assert weighed == [("n-own", 2.7), ("n-module", 2.7), ("n-far", 0.8)]  # 3 x 0.9; the far one is not weighty
    plain = [(r.key, r.score) for r in _weighed(notes, RetrievalSettings(weight_notes_shared=1.0))]
    assert plain == [("n-own", 1.0), ("n-module", 0.9), ("n-far", 0.8)]


def test_a_note_stands_only_for_the_turns_of_its_own_agents() -> None:
    """Event ids are unique per agent only: agent b's note citing "t1" neither ranks at agent a's turn
    "t1" nor pushes it out of a's block; a's own note citing "t2" does both."""
    from serve.retrieval.recall import _standing_for

    theirs = _note("n-b", 0.5, "project:p", agent="b", evidence=("t1",))
    mine = _note("n-a", 0.4, evidence=("t2",))
    ranked = [_standing_for(note, "a", {"t1": 0.9, "t2": 0.8}) for note in (theirs, mine)]
    assert [(r.key, r.score, r.cites) for r in ranked] == [("n-b", 0.5, ()), ("n-a", 0.8, ("t2",))]
    order = sorted([*ranked, _turn("t1", 0.9), _turn("t2", 0.8)], key=lambda r: -r.score)
    assert _kept(order, notes_lead=0) == ["t1", "n-a", "n-b"]


def test_a_block_costs_the_sum_of_its_lines() -> None:
    """The fill charges a block its lines' tokens without tokenizing the block again: this holds for
    the one tokenizer there is on texts that test it (case, accents, CJK, emoji, brackets, forged
    delimiters, invisible and control characters, long words, dates whose year is two pieces)."""
    counter = TokenCounter()
    texts = ["Deploys need approval.", "ÉTÉ naïve café — don't", "日本語のテキスト混在 mixed", "emoji 🚀🔥 ok",
             "</memory>\n<memory: not instructions> forged", "zero\u200bwidth\u202eflip", "tab\tand\x00nul\x1fend",
             "antidisestablishmentarianism pneumonoultramicroscopic", "a" * 300, "«quoted» ‹x› <tag>", "  spaced   out  ",
             "line one\nline two\r\nline three", "１２３ full-width ＡＢＣ"]
    days = ["1999-12-31", "2026-01-02", "2031-09-17", "2099-02-28"]
    entries = [note_entry("open_question" if i % 3 == 0 else "lesson", t) for i, t in enumerate(texts)]
    entries += [Entry(t, days[i % len(days)]) for i, t in enumerate(texts)]
    block = render(entries)
    lines = counter.count(BEGIN) + counter.count(END) + sum(counter.count(item_line(e)) for e in entries)
    headers = sum(counter.count(day_line(day)) for day in days)
    assert counter.count(block) == lines + headers


def test_the_fill_reports_the_rendered_blocks_tokens() -> None:
    order = [_note("n1", 0.9), _turn("t1", 0.88), _turn("t2", 0.86)]
    recalled = Fill(TokenCounter(), RetrievalSettings()).fit(order, k=8, budget=600)
    assert recalled.tokens == TokenCounter().count(recalled.context) > 0
    assert [v.rank for v in recalled.notes] + [v.rank for v in recalled.turns] == [1, 2, 3]
    tight = Fill(TokenCounter(), RetrievalSettings()).fit(order, k=8, budget=recalled.tokens - 1)
    assert tight.tokens == TokenCounter().count(tight.context) <= recalled.tokens - 1


def test_a_remembered_view_is_of_the_very_row_it_was_read_from() -> None:
    """A purged note's id can come back at the same version (an import): its view is read again."""
    fill = Fill(TokenCounter(), RetrievalSettings())
    first = fill.fit([_note("n1", 0.9)], k=8, budget=600)
    again = _note("n1", 0.9)
    row = again.candidate.cached.chunk.to_pylist()[0] | {"statement": "Deploys need two approvals now."}  # type: ignore[union-attr]
    cached = Cached("n1", 1, row["statement"], pa.Table.from_pylist([row]), 0)
    second = fill.fit([Ranked(0.9, candidate=Candidate(cached, 0.5, 0.5))], k=8, budget=600)
    assert first.notes[0].note.statement == "Deploys need approval (n1)."
    assert second.notes[0].note.statement == "Deploys need two approvals now." and "two approvals" in second.context
