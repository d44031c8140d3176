"""The questions asked at the end of a fleet scenario, each with the items that answer it.

- ``own``: an agent asks about something it was told itself;
- ``shared``: a teammate who never saw a promotable lesson asks about it (only promotion can answer);
- ``corrected``: the answer was corrected; the overturned item must not come back;
- ``control``: a verified fact was later denied by a wrong, unverified claim; the fact must win;
- ``offtopic``: nothing in memory answers it; whatever comes back is irrelevant.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from bench.eval.phrases import Phrasebook
from bench.eval.truth import Agent, Item, Query, QueryKind


def ask(
    items: dict[str, Item], agents: dict[str, Agent], book: Phrasebook, frames: Mapping[str, Sequence[str]],
    own_per_item: int, shared_per_item: int, offtopic: int, rng: random.Random,
) -> list[Query]:
    """Queries for every current item, in item order, then the off-topic ones."""
    queries: list[Query] = []
    for item in items.values():
        if item.role != "truth" or item.scope == "team":  # team lessons wait for review: nothing to ask yet
            continue
        for kind, asker, stale in _askers(item, items, agents, own_per_item, shared_per_item, rng):
            text = _question(item, frames[item.frame], rng)
            queries.append(_query(len(queries), asker, item, text, kind, stale))
    for _ in range(offtopic):
        asker = rng.choice(sorted(agents))
        queries.append(Query(
            query_id=f"q{len(queries) + 1:03d}", agent_id=asker, project=agents[asker].project, module=None,
            text=rng.choice(book.offtopic_questions), kind="offtopic", targets=(),
        ))
    return queries


def _askers(
    item: Item, items: dict[str, Item], agents: dict[str, Agent], own: int, shared: int, rng: random.Random,
) -> list[tuple[QueryKind, str, tuple[str, ...]]]:
    replaced = [i for i in items.values() if i.superseded_by == item.item_id]
    denials = [i for i in items.values() if i.contradicts == item.item_id]
    if replaced:
        witnesses = sorted({a for i in replaced for a in i.agents} | set(item.agents))
        return [("corrected", a, tuple(i.item_id for i in replaced)) for a in _some(witnesses, own, rng)]
    asked: list[tuple[QueryKind, str, tuple[str, ...]]] = []
    if denials:
        fooled = sorted({a for i in denials for a in i.agents})
        asked += [("control", a, tuple(i.item_id for i in denials)) for a in _some(fooled, 1, rng)]
    asked += [("own", a, ()) for a in _some(sorted(set(item.agents)), own, rng)]
    if item.promotable:
        others = sorted(a for a in item.visible_to if a not in item.agents and agents[a].project == item.project)
        asked += [("shared", a, ()) for a in _some(others, shared, rng)]
    return asked


def _some(agents: list[str], n: int, rng: random.Random) -> list[str]:
    return rng.sample(agents, min(n, len(agents)))


def _question(item: Item, templates: Sequence[str], rng: random.Random) -> str:
    return rng.choice(templates).format(module=item.module or "", project=item.project)


def _query(index: int, asker: str, item: Item, text: str, kind: QueryKind, stale: tuple[str, ...]) -> Query:
    return Query(
        query_id=f"q{index + 1:03d}", agent_id=asker, project=item.project, module=item.module, text=text,
        kind=kind, targets=(item.item_id,), stale=stale,
    )
