"""How well ``replaced`` and ``says_replacement`` read corrections, on hand-written wordings.

    python -m bench.corrections [--split dev|heldout|all]

The corpus is ``tests/data/corrections/`` (its README states the labelling rule). Per split:

- **detected**: corrections where ``replaced()`` returns something;
- **matched**: corrections where a returned phrase matches a gold phrase (:func:`phrase_matches`);
- **false_replaced**: non-corrections where ``replaced()`` returns something;
- **false_says**: non-corrections where ``says_replacement()`` is true (it is what tags a turn as
  a correction in salience and extraction, so a false one costs conversations).

Pure text, no model: it runs in well under a second.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from reverie.restatements import tokens
from reverie.statements import STOPWORDS, lemma, replaced, says_replacement

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corrections"
SPLITS = ("dev", "heldout")
#: A returned phrase may carry this many key words beyond the gold phrase ("the old Vagrant setup"
#: for "Vagrant setup"); more, and it names more than the old value (a whole clause).
EXTRA_WORDS = 2


@dataclass(frozen=True)
class Row:
    text: str
    replaces: tuple[str, ...]
    note: str


@dataclass(frozen=True)
class Score:
    corrections: int
    detected: int
    matched: int
    others: int
    false_replaced: int
    false_says: int

    def line(self, name: str) -> str:
        return (f"{name}: detected {self.detected}/{self.corrections}, matched {self.matched}/{self.corrections}, "
                f"false replaced() {self.false_replaced}/{self.others}, "
                f"false says_replacement() {self.false_says}/{self.others}")


def load(split: str) -> list[Row]:
    lines = (CORPUS / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [Row(r["text"], tuple(r["replaces"]), r.get("note", "")) for r in rows]


def key_words(phrase: str) -> set[str]:
    """Lemmas of the phrase's tokens, stopwords aside; numbers, versions and names stay whole."""
    return {lemma(t) for t in tokens(phrase) if t not in STOPWORDS}


def phrase_matches(returned: str, gold: str) -> bool:
    """Every key word of ``gold`` is in ``returned``, and ``returned`` adds at most
    :data:`EXTRA_WORDS` key words of its own."""
    want, have = key_words(gold), key_words(returned)
    return bool(want) and want <= have and len(have - want) <= EXTRA_WORDS


def score(rows: list[Row]) -> Score:
    corrections = [r for r in rows if r.replaces]
    others = [r for r in rows if not r.replaces]
    found = {r.text: replaced(r.text) for r in rows}
    matched = [r for r in corrections if any(phrase_matches(p, g) for p in found[r.text] for g in r.replaces)]
    return Score(
        corrections=len(corrections),
        detected=sum(1 for r in corrections if found[r.text]),
        matched=len(matched),
        others=len(others),
        false_replaced=sum(1 for r in others if found[r.text]),
        false_says=sum(1 for r in others if says_replacement(r.text)),
    )


def misses(rows: list[Row]) -> list[str]:
    """One line per row read wrongly: a correction without a matching phrase, a false reading."""
    out = []
    for row in rows:
        found = replaced(row.text)
        if row.replaces and not any(phrase_matches(p, g) for p in found for g in row.replaces):
            out.append(f"MISS  {row.text!r} -> {found} (gold {list(row.replaces)})")
        elif not row.replaces and (found or says_replacement(row.text)):
            out.append(f"FALSE {row.text!r} -> {found} says={says_replacement(row.text)}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="dev")
    parser.add_argument("--misses", action="store_true", help="list the rows read wrongly (dev only)")
    args = parser.parse_args()
    for split in SPLITS if args.split == "all" else (args.split,):
        rows = load(split)
        print(score(rows).line(split))
        if args.misses and split == "dev":
            print("\n".join(misses(rows)))


if __name__ == "__main__":
    main()
