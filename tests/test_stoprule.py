"""The stop-rule sweep's candidate rules (bench/stoprule.py), on hand-built answers."""

from __future__ import annotations

from pathlib import Path

from bench.eval.arms import Retrieval, Retrieved
from bench.registry import Context
from bench.stoprule import rules
from reverie.settings import Settings


def _item(key: str, kind: str, score: float) -> Retrieved:
    return Retrieved(note_id=key, text=key, evidence=(key,), scope="personal:a", type="lesson", tokens=3,
                     kind=kind, score=score)  # type: ignore[arg-type]


def _keys(r: Retrieval) -> list[str]:
    return [i.note_id for i in r.items]


def test_each_rule_keeps_what_it_names(tmp_path: Path) -> None:
    found = rules(Context("full", Settings(), tmp_path, {"floors": "0.02", "shares": "0.5", "tops": "2",
                                                         "leads": "2", "caps": "1", "bars": "0.9"}))
    led = Retrieval((_item("t1", "turn", 0.05), _item("n1", "note", 0.04), _item("t2", "turn", 0.01),
                     _item("n2", "note", 0.03)))
    unled = Retrieval((_item("t1", "turn", 0.05), _item("t2", "turn", 0.04), _item("n1", "note", 0.03)))
    assert _keys(found["score >= 0.02"](led)) == ["t1", "n1", "n2"]
    assert _keys(found["score >= 0.5 x best"](led)) == ["t1", "n1", "n2"]
    assert _keys(found["first 2 items"](led)) == ["t1", "n1"]
    assert _keys(found["no turns when a note is in the first 2"](led)) == ["n1", "n2"]
    assert _keys(found["no turns when a note is in the first 2"](unled)) == ["t1", "t2", "n1"]  # the turns lead
    assert _keys(found["no turns when a note is in the first 2, then at most 1 items"](led)) == ["n1"]
    assert _keys(found["turns >= 0.9 x best when a note is in the first 2"](led)) == ["t1", "n1", "n2"]
    assert _keys(found["turns >= 0.9 x best when a note is in the first 2"](unled)) == ["t1", "t2", "n1"]
