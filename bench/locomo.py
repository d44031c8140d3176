"""LoCoMo benchmark: turn-level evidence recall per category at the retrieval token budget (600).

Every conversation is its own agent's memory. The three raw baselines run in the same process on
the same stored turns with the same embedder: dense, BM25, and their reciprocal-rank fusion (the
hybrid baseline). Reverie (a real local service driven over HTTP, ``bench.served``: every
conversation one agent in its own project, consolidated as the trigger policy would, then mined) is
scored counting at most as many cited turns, in rank order, as the hybrid baseline fitted in the
budget for the same question, asked as of the end of its conversation (``as_of``: its last turn's
time, so "last year" means the conversation's). ``--arms raw`` leaves Reverie out. ``--quick`` uses the first
conversation only. The data path is ``--locomo PATH``. Options (``--option``): ``locomo_captions=0``
leaves image captions out of the turns, ``item_overhead=N`` charges N tokens per injected item
instead of 2, ``fusion_depth=N`` fuses only the top N of each ranking, ``reverie_k=N`` asks Reverie
for at most N items (default 100, the API's maximum: the budget is the limit, as for the raw arms),
``reverie_every=N`` consolidates after every N new sessions (default ``min_new_sessions``; 0: once),
``conversations=dev|test|all|conv-26,conv-30`` runs only those conversations (default all; the split
of ``shared/data/README.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bench.eval.arms import MemoryArm, Retrieval
from bench.eval.evidence import RecallTable, cited_turns, score
from bench.eval.locomo import CATEGORIES, SCORED, Locomo, Question, conversations_named, load_locomo
from bench.eval.memo import MemoEmbedder
from bench.eval.rawlog import RawLog, RawLogArm
from bench.eval.served import ReverieArm
from bench.registry import Context, Measure, Outcome, Table, register
from bench.served import arms_wanted, describe_work, reverie_arm

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo10.json"
HYBRID = "raw-hybrid"
#: Measured earlier on this machine (the issue's figures); shown beside this run's, never used in scoring.
REFERENCE = {"raw": 52.7, "raw-lexical": 55.7, "raw-hybrid": 62.2}


def ask(arm: MemoryArm, questions: Sequence[Question], budget: int) -> list[Retrieval]:
    return [arm.retrieve(q.sample_id, q.text, q.sample_id, budget) for q in questions]


def _row(table: RecallTable) -> list:
    per = [round(100 * table.per_category[c], 1) if c in table.per_category else None for c in SCORED]
    return [table.arm, *per, round(100 * table.overall, 1), REFERENCE.get(table.arm), round(table.mean_turns, 1),
            round(table.mean_tokens)]


def _problems(tables: list[RecallTable], retrievals: dict[str, list[Retrieval]], budget: int) -> list[str]:
    found = [f"{t.arm}: no questions were scored" for t in tables if not t.questions]
    found += [f"{t.arm}: recall {t.overall} outside [0, 1]" for t in tables if not 0.0 <= t.overall <= 1.0]
    for arm, answers in retrievals.items():
        over = sum(1 for r in answers if r.tokens > budget)
        if over:
            found.append(f"{arm}: {over} retrievals over the {budget}-token budget")
    return found


def run_arms(ctx: Context, data: Locomo, questions: list[Question], budget: int,
              notes: list[str]) -> tuple[list[RecallTable], dict[str, list[Retrieval]]]:
    embedder = MemoEmbedder(ctx.embedder)
    overhead = int(ctx.options.get("item_overhead", "2"))
    depth = int(ctx.options.get("fusion_depth", "10000"))
    log = RawLog(ctx.store_settings("locomo-raw"), embedder, ctx.counter, item_overhead=overhead, fusion_depth=depth)
    log.ingest([r for c in data.conversations for r in c.requests])
    embedder.embed([q.text for q in questions])
    retrievals = {arm.name: ask(arm, questions, budget) for arm in
                  (RawLogArm(log, "dense"), RawLogArm(log, "lexical"), RawLogArm(log, "hybrid"))}
    tables = [score(name, questions, answers) for name, answers in retrievals.items()]
    caps = [len(cited_turns(r)) for r in retrievals[HYBRID]]
    if "reverie" in arms_wanted(ctx, ("raw", "reverie")):
        arm = reverie_arm(ctx, "locomo-reverie", k=int(ctx.options.get("reverie_k", "100")),
                          consolidate_every=int(ctx.options.get("reverie_every", ctx.settings.triggers.min_new_sessions)) or None)
        try:
            retrievals[arm.name] = _feed_and_ask(arm, data, questions, budget)
            notes.append(f"reverie: {describe_work(arm)}")
        finally:
            arm.close()
        tables.append(score(arm.name, questions, retrievals[arm.name], caps))
    return tables, retrievals


def _feed_and_ask(arm: ReverieArm, data: Locomo, questions: list[Question], budget: int) -> list[Retrieval]:
    arm.ingest([r for c in data.conversations for r in c.requests])
    arm.settle()
    for conversation in data.conversations:  # the questions are asked when the conversation ends
        arm.asked_at[conversation.agent_id] = max(e.ts for r in conversation.requests for e in r.events if e.ts)
    return ask(arm, questions, budget)


@register("locomo", "LoCoMo: turn-level evidence recall at a 600-token budget, categories 1-4")
def locomo(ctx: Context) -> Outcome:
    path = Path(ctx.options.get("locomo") or DEFAULT_PATH)
    if not path.is_file():
        missing = f"no LoCoMo file at {path}; pass --locomo PATH to locomo10.json"
        return Outcome(notes=[missing], problems=[] if ctx.quick else [missing])
    captions = ctx.options.get("locomo_captions", "1") != "0"
    only = conversations_named(ctx.options.get("conversations", "all"))
    data = load_locomo(path, captions=captions, limit=1 if ctx.quick else None, only=only)
    questions = list(data.questions())
    budget = ctx.settings.retrieval.token_budget
    arm_notes: list[str] = []
    tables, retrievals = run_arms(ctx, data, questions, budget, arm_notes)
    by_arm = {t.arm: t for t in tables}
    hybrid = by_arm[HYBRID]
    columns = ["arm", *(f"{c} {CATEGORIES[c]}" for c in SCORED), "all (1-4)", "reference (earlier run)",
               "turns/question", "tokens/question"]
    quirks = data.quirks.as_dict()
    return Outcome(
        measures=[Measure(f"evidence recall: {t.arm}", round(100 * t.overall, 1), "%", HYBRID,
                          round(100 * hybrid.overall, 1)) for t in tables if t.arm != HYBRID],
        tables=[Table(f"evidence recall % ({len(questions)} questions, {len(data.conversations)} conversations: "
                      f"{', '.join(c.sample_id for c in data.conversations)}; "
                      f"{budget}-token budget)", columns, [_row(t) for t in tables]),
                Table("data quirks handled", ["quirk", "count"], [[k, v] for k, v in quirks.items()])],
        notes=[f"questions per category: {hybrid.counts}",
               f"each turn is 'Speaker: text'{' (+ [shares <caption>] for shared images)' if captions else ''}; each "
               f"injected item costs its tokens (bundled MiniLM tokenizer) + {ctx.options.get('item_overhead', '2')} "
               "for its delimiters; hybrid = RRF (k=60) of the whole dense and BM25 rankings", *arm_notes],
        problems=_problems(tables, retrievals, budget),
    )
