"""Notes for the mining tests: the planted paraphrase groups, written as consolidation would write them.

Each group of ``data/mining/lessons.json`` is one lesson worded six ways. A scenario says which
paraphrases become notes of which agent, session and module; the notes are written directly with
``store.batches.run("local", ...)`` and real MiniLM vectors.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from mining.job import MiningJob
from mining.runs import RunBook, RunState
from reverie.clock import ManualClock
from reverie.embed import Embedder, spec_for
from reverie.records import Note
from reverie.settings import MiningSettings, Settings, StoreSettings
from reverie.store import NoteWrite, Store

LESSONS = json.loads((Path(__file__).parent / "data" / "mining" / "lessons.json").read_text())["groups"]


@dataclass(frozen=True)
class Seen:
    """One paraphrase (``text`` index) of a group, noted by ``agent`` in ``session``."""

    group: int
    text: int
    agent: str
    session: str
    module: str | None = "api"
    polarity: int = 1
    statement: str | None = None
    scope: str | None = None


def note_of(seen: Seen, at: datetime, project: str = "atlas") -> Note:
    group = LESSONS[seen.group]
    return Note(
        note_id=f"n-{project}-{seen.group:02d}-{seen.text}-{seen.agent}-{seen.session}", type=group["type"],
        subject=group["subject"], statement=seen.statement or group["texts"][seen.text],
        scope=seen.scope or f"personal:{seen.agent}", owner_agent=seen.agent, project=project, module=seen.module,
        evidence=[f"e-{seen.session}-{seen.group}-{seen.text}"], source_sessions=[seen.session],
        source_agents=[seen.agent], confidence=0.6, polarity=seen.polarity,  # type: ignore[arg-type]
        created_at=at, updated_at=at, valid_from=at, last_seen_at=at,
    )


def write_notes(store: Store, embedder: Embedder, seen: Sequence[Seen], at: datetime, project: str = "atlas") -> list[Note]:
    """Write the notes, one ``local`` batch per agent, as each agent's consolidation would."""
    notes = [note_of(s, at, project) for s in seen]
    vectors = embedder.embed([n.statement for n in notes])
    by_agent: dict[str, list[NoteWrite]] = {}
    for note, vector in zip(notes, vectors, strict=True):
        by_agent.setdefault(note.owner_agent or "-", []).append(NoteWrite(note, "add", vector=vector))
    for agent, writes in sorted(by_agent.items()):
        store.batches.run("local", writes, agent_id=agent, project=project)
    return notes


def all_paraphrases(groups: Sequence[int] = tuple(range(len(LESSONS)))) -> list[Seen]:
    """Every paraphrase of ``groups``, each from its own agent and session (labels: the group)."""
    return [Seen(g, t, f"a{g}-{t}", f"s{g}-{t}") for g in groups for t in range(len(LESSONS[g]["texts"]))]


def unit_vectors(rng: np.random.Generator, n: int, dim: int = 384) -> np.ndarray:
    v = rng.normal(size=(n, dim))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def team_scenario() -> list[Seen]:
    """Lessons of a small team in project atlas, one per line of the promotion rule.

    - group 0, 3 agents in 3 sessions, module api: promoted (``module:atlas/api``)
    - group 1, 3 notes in only 2 sessions (a third, quarantined, is ignored): waits as a candidate
    - group 5, one agent in 3 sessions: waits as a candidate (too few agents)
    - group 6, 3 agents in 3 sessions over modules api and web: promoted (``project:atlas``)
    - group 3, a constraint of 3 agents over modules api and web: no pattern (not experience)
    - group 10, 3 agents, one stating another value: lands in review (conflict)
    - one paraphrase each of groups 2, 4, 8, 9, 11: noise (2 and 9 are personal preferences: never clustered)
    """
    leak = "The image worker leaks memory, so restart it after every 200 jobs."
    return [
        Seen(0, 0, "a1", "s1"), Seen(0, 1, "a2", "s2"), Seen(0, 2, "a3", "s3"),
        Seen(1, 0, "a1", "s1"), Seen(1, 1, "a1", "s1"), Seen(1, 2, "a2", "s2"),
        Seen(5, 0, "a4", "s4"), Seen(5, 1, "a4", "s5"), Seen(5, 2, "a4", "s6"),
        Seen(6, 0, "a1", "s1"), Seen(6, 1, "a2", "s2", module="web"), Seen(6, 2, "a3", "s3", module="web"),
        Seen(3, 0, "a1", "s7"), Seen(3, 2, "a2", "s8", module="web"), Seen(3, 4, "a3", "s9"),
        Seen(10, 0, "a1", "s7"), Seen(10, 2, "a2", "s8"), Seen(10, 3, "a3", "s9", statement=leak),
        Seen(2, 0, "a5", "s10"), Seen(4, 0, "a5", "s10"), Seen(8, 0, "a6", "s11"), Seen(9, 0, "a6", "s11"),
        Seen(11, 0, "a6", "s12"),
    ]


QUARANTINED = Seen(1, 3, "a3", "s3")


def settings_at(uri: Path | str, **mining: object) -> Settings:
    """Settings of a MiniLM store at ``uri`` (the model is not loaded to open it)."""
    return Settings(store=StoreSettings(uri=str(uri)), mining=MiningSettings(**mining))  # type: ignore[arg-type]


def team_store(uri: Path, embedder: Embedder, clock: ManualClock) -> Store:
    """A store holding :func:`team_scenario`'s notes and one quarantined note of group 1."""
    settings = settings_at(uri)
    store = Store.open(settings.store, spec_for(settings.embedding), clock)
    write_notes(store, embedder, team_scenario(), clock.now())
    bad = note_of(QUARANTINED, clock.now()).model_copy(update={"status": "quarantined"})
    quarantined = NoteWrite(bad, "quarantine", vector=embedder.embed([bad.statement])[0])
    store.batches.run("local", [quarantined], agent_id="a3", project="atlas")
    return store


def copy_store(template: Path, target: Path, clock: ManualClock) -> Store:
    shutil.copytree(template, target)
    settings = settings_at(target)
    return Store.open(settings.store, spec_for(settings.embedding), clock)


def mine(store: Store, clock: ManualClock, *, mode: str = "auto", project: str = "atlas", **mining: object) -> RunState:
    """One mining run, in this process (the pool runs the same job in a Ray task)."""
    state = RunBook(store).create(project, principal="system", mode=mode, at=clock.now(), not_before=clock.now())  # type: ignore[arg-type]
    return MiningJob(store, MiningSettings(**mining), state.run_id).execute()  # type: ignore[arg-type]


def pattern_of(store: Store, state: RunState, group: int) -> Note:
    """The pattern a run wrote for the cluster holding ``group``'s notes."""
    plan = RunBook(store).plan(state.run_id)
    assert plan is not None
    for cluster in plan.clusters:
        if any(m.split("-")[2] == f"{group:02d}" for m in cluster.members):
            return store.notes.get(cluster.pattern_id)
    raise AssertionError(f"no cluster holds group {group}")
