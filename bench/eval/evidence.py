"""Turn-level evidence recall: the share of a question's gold turns among the turns a retrieval cites.

A retrieval cites the evidence ids of its items, in rank order, each turn once. A system that
returns notes citing many turns must not win by citing everything: ``cap`` counts at most that many
cited turns, taken in rank order — set it to the number of raw turns a baseline fits in the same
token budget for the same question.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.eval.arms import Retrieval
from bench.eval.locomo import CATEGORIES, Question
from reverie.errors import ValidationError


def cited_turns(retrieval: Retrieval, cap: int | None = None) -> list[str]:
    """Evidence ids in rank order, each once, at most ``cap`` of them."""
    seen: dict[str, None] = {}
    for item in retrieval.items:
        for turn in item.evidence:
            if cap is not None and len(seen) >= cap:
                return list(seen)
            seen.setdefault(turn, None)
    return list(seen)


def evidence_recall(gold: Sequence[str], cited: Sequence[str]) -> float:
    return len(set(gold) & set(cited)) / len(set(gold)) if gold else 0.0


@dataclass(frozen=True)
class RecallTable:
    """Mean recall per category and over all scored questions (each question weighs the same)."""

    arm: str
    per_category: dict[int, float]
    counts: dict[int, int]
    overall: float
    questions: int
    mean_turns: float
    mean_tokens: float
    labels: dict[int, str] = field(default_factory=lambda: {c: CATEGORIES[c] for c in CATEGORIES})


def score(arm: str, questions: Sequence[Question], retrievals: Sequence[Retrieval],
          caps: Sequence[int | None] | None = None) -> RecallTable:
    """Recall of each question's gold turns; ``caps[i]`` bounds the turns counted for question ``i``."""
    if len(questions) != len(retrievals) or (caps is not None and len(caps) != len(questions)):
        raise ValidationError(
            f"{len(questions)} questions, {len(retrievals)} retrievals and "
            f"{'no' if caps is None else len(caps)} caps; pass one retrieval (and one cap) per question"
        )
    limits = list(caps) if caps is not None else [None] * len(questions)
    cited = [cited_turns(r, cap) for r, cap in zip(retrievals, limits, strict=True)]
    recalls = [evidence_recall(q.evidence, c) for q, c in zip(questions, cited, strict=True)]
    by_category: dict[int, list[float]] = {}
    for question, recall in zip(questions, recalls, strict=True):
        by_category.setdefault(question.category, []).append(recall)
    return RecallTable(
        arm=arm, per_category={c: _mean(v) for c, v in sorted(by_category.items())},
        counts={c: len(v) for c, v in sorted(by_category.items())}, overall=_mean(recalls), questions=len(questions),
        mean_turns=_mean([len(c) for c in cited]), mean_tokens=_mean([r.tokens for r in retrievals]),
    )


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
