"""Choosing the retrieval stop rule on dev data: one dev run, every candidate rule applied after it.

The service fills its block with items in fused order while their fused score clears
``retrieval.relevance_floor`` and turns clear ``relevance_share`` of the best (``serve/retrieval/fill.py``).
This entry runs the dev fleet scenario (reverie and raw stacking) and the LoCoMo dev conversations
(reverie and the raw arms) once with those settings but ``retrieval.notes_lead`` 0 (no bar for turns
beside a leading note: the lead rules below are the candidates for it), then applies each candidate rule to the answers
the service gave: keep the items whose fused score clears an absolute floor, a share of the
question's best score, or the first N items; or leave the turns out when a note ranks among the
first N (raw turns only when necessary), then at most M items, or keep only turns above a higher
share of the best score then.
Dropping the items under a floor from an unfloored answer is what the service does with that floor
(items are taken greedily in the same order), except that budget an unfloored answer spent on a
dropped item cannot go to a later item above the floor: the chosen rule is confirmed by a real run.

Dev data only (issue 13: settings are chosen on the dev phrasebook and LoCoMo's dev conversations);
the held-out fleet and LoCoMo's test conversations are never read here. Options: ``floors`` and
``shares`` (comma-separated), ``tops`` (comma-separated item counts), ``leads`` and ``caps``
(comma-separated item counts), ``bars`` (comma-separated shares).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from bench.eval.arms import Retrieval
from bench.eval.compare import ArmRun, history_tokens, run_arm
from bench.eval.evidence import RecallTable, cited_turns, score
from bench.eval.fleet import Scenario, fleet_scenario
from bench.eval.locomo import CATEGORIES, SCORED, Question, conversations_named, load_locomo
from bench.eval.metrics import QualityReport, evaluate
from bench.eval.rawlog import RawLog, RawLogArm
from bench.locomo import DEFAULT_PATH, HYBRID, run_arms
from bench.registry import Context, Outcome, Table, register
from bench.served import reverie_arm

Rule = Callable[[Retrieval], Retrieval]
_FLOORS = "0,0.01,0.015,0.02,0.025,0.03,0.035,0.04,0.05,0.06"
_SHARES = "0.3,0.4,0.5,0.6,0.7"
_TOPS = "3,5,8,12"
_LEADS = "1,2,3,4,5,6"
_CAPS = "4,5,6"
_BARS = "0.6,0.7,0.8,0.9"


def _floats(ctx: Context, name: str, default: str) -> list[float]:
    return [float(v) for v in ctx.options.get(name, default).split(",") if v]


def _floor(floor: float) -> Rule:
    def rule(r: Retrieval) -> Retrieval:
        return replace(r, items=tuple(i for i in r.items if (i.score or 0.0) >= floor))
    return rule


def _share(share: float) -> Rule:
    def rule(r: Retrieval) -> Retrieval:
        best = max((i.score or 0.0 for i in r.items), default=0.0)
        return replace(r, items=tuple(i for i in r.items if (i.score or 0.0) >= share * best))
    return rule


def _first(count: int) -> Rule:
    def rule(r: Retrieval) -> Retrieval:
        return replace(r, items=r.items[:count])
    return rule


def _notes_lead(lead: int, cap: int | None = None) -> Rule:
    """Raw turns only when necessary: none when a note ranks among the first ``lead`` items (and then
    at most ``cap`` items, where a cap is given)."""
    def rule(r: Retrieval) -> Retrieval:
        if any(i.kind != "turn" for i in r.items[:lead]):
            return replace(r, items=tuple(i for i in r.items if i.kind != "turn")[:cap])
        return r
    return rule


def _notes_lead_bar(lead: int, share: float) -> Rule:
    """When a note ranks among the first ``lead`` items, a turn stays only above ``share`` x the best score."""
    def rule(r: Retrieval) -> Retrieval:
        if any(i.kind != "turn" for i in r.items[:lead]):
            best = max((i.score or 0.0 for i in r.items), default=0.0)
            return replace(r, items=tuple(i for i in r.items if i.kind != "turn" or (i.score or 0.0) >= share * best))
        return r
    return rule


def _unchanged(r: Retrieval) -> Retrieval:
    return r


def rules(ctx: Context) -> dict[str, Rule]:
    """Every candidate stop rule by name: absolute floors, shares of the best score, first N items."""
    found: dict[str, Rule] = {"no rule (floor 0)": _unchanged}
    found.update({f"score >= {f:g}": _floor(f) for f in _floats(ctx, "floors", _FLOORS)})
    found.update({f"score >= {q:g} x best": _share(q) for q in _floats(ctx, "shares", _SHARES)})
    found.update({f"first {int(n)} items": _first(int(n)) for n in _floats(ctx, "tops", _TOPS)})
    found.update({f"no turns when a note is in the first {int(n)}": _notes_lead(int(n))
                  for n in _floats(ctx, "leads", _LEADS)})
    found.update({f"no turns when a note is in the first {int(n)}, then at most {int(m)} items": _notes_lead(int(n), int(m))
                  for n in _floats(ctx, "leads", _LEADS) for m in _floats(ctx, "caps", _CAPS)})
    found.update({f"turns >= {q:g} x best when a note is in the first {int(n)}": _notes_lead_bar(int(n), q)
                  for n in _floats(ctx, "leads", _LEADS) for q in _floats(ctx, "bars", _BARS)})
    return found


def _fleet(ctx: Context) -> tuple[Scenario, ArmRun, ArmRun]:
    scenario = fleet_scenario("dev")
    budget = ctx.settings.retrieval.token_budget
    raw = run_arm(RawLogArm(RawLog(ctx.store_settings("stoprule-raw"), ctx.embedder, ctx.counter), "dense"),
                  scenario, ctx.counter, token_budget=budget)
    every = int(ctx.options.get("reverie_every", ctx.settings.triggers.min_new_sessions)) or None
    arm = reverie_arm(ctx, "stoprule-reverie", consolidate_every=every)
    try:
        reverie = run_arm(arm, scenario, ctx.counter, token_budget=budget)
    finally:
        arm.close()
    return scenario, raw, reverie


def _fleet_row(name: str, scenario: Scenario, run: ArmRun, rule: Rule, raw: QualityReport,
               history: dict[str, int]) -> list[object]:
    answers = [(q, rule(r)) for q, r in run.answers]
    report = evaluate(name, scenario.truth, [], answers, history)
    corrected = report.hit_rate_by_kind.get("corrected")
    return [name, _pct(report.hit_rate), _pct(report.hit_rate - raw.hit_rate), _pct(corrected),
            round(report.context_tokens), _pct(report.context_tokens / raw.context_tokens),
            round(report.offtopic_tokens), _pct(report.error_recurrence), _pct(report.wrong_feedback_recalled)]


def _locomo(ctx: Context) -> tuple[list[Question], list[int | None], RecallTable, list[Retrieval]]:
    data = load_locomo(ctx.options.get("locomo") or DEFAULT_PATH, only=conversations_named("dev"))
    questions = list(data.questions())
    tables, retrievals = run_arms(ctx, data, questions, ctx.settings.retrieval.token_budget, [])
    caps: list[int | None] = [len(cited_turns(r)) for r in retrievals[HYBRID]]
    hybrid = next(t for t in tables if t.arm == HYBRID)
    return questions, caps, hybrid, retrievals["reverie"]


def _locomo_row(name: str, questions: Sequence[Question], caps: Sequence[int | None], hybrid: RecallTable,
                answers: Sequence[Retrieval], rule: Rule) -> list[object]:
    table = score(name, questions, [rule(r) for r in answers], caps)
    per = [_pct(table.per_category.get(c)) for c in SCORED]
    return [name, *per, _pct(table.overall), _pct(table.overall - hybrid.overall), round(table.mean_tokens)]


def _pct(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


@register("stoprule", "Choosing the retrieval stop rule on dev data (fleet dev and LoCoMo dev, one run)", quick=False)
def stoprule(ctx: Context) -> Outcome:
    retrieval = ctx.settings.retrieval.model_copy(update={"notes_lead": 0})  # the lead rules below decide
    ctx = replace(ctx, settings=ctx.settings.model_copy(update={"retrieval": retrieval}))
    candidates = rules(ctx)
    scenario, raw, reverie = _fleet(ctx)
    questions, caps, hybrid, answers = _locomo(ctx)
    history = history_tokens(scenario, ctx.counter)
    fleet_rows = [_fleet_row(n, scenario, reverie, rule, raw.report, history) for n, rule in candidates.items()]
    locomo_rows = [_locomo_row(n, questions, caps, hybrid, answers, rule) for n, rule in candidates.items()]
    return Outcome(tables=[
        Table(f"fleet dev, reverie under each rule (raw stacking: hit@5 {_pct(raw.report.hit_rate)} %, "
              f"{round(raw.report.context_tokens)} tokens/question)",
              ["rule", "hit@5 %", "vs raw (points)", "hit@5 corrected %", "tokens/question", "% of raw tokens",
               "tokens off-topic", "error recurrence %", "wrong feedback recalled %"], fleet_rows),
        Table(f"LoCoMo dev ({len(questions)} questions), reverie under each rule (raw hybrid: "
              f"{_pct(hybrid.overall)} %)",
              ["rule", *(f"{c} {CATEGORIES[c]}" for c in SCORED), "all", "vs hybrid (points)", "tokens/question"],
              locomo_rows),
    ])
