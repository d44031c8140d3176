"""The promotion rule (DESIGN §4.4, seed 000), as small pure functions over notes.

A cluster of personal and module notes becomes a shared ``pattern`` note only when it recurs in at
least ``min_sessions`` distinct sessions, is about one topic (mean pairwise cosine of its notes at
least ``topic_similarity``) and holds no conflict. Otherwise it waits as a ``candidate``. Its scope
follows its evidence: one module -> ``module:<p>/<m>``, several (or unknown) modules ->
``project:<p>``, several projects -> ``team``. Three kinds of pattern stay ``candidate`` until a
reviewer approves them, even when the evidence is there: one supported by a single agent (the
per-writer cap), any ``team`` pattern, and a project-wide constraint. A conflicting cluster goes to
the review queue. Agreement across agents raises confidence; each agent's notes count as one voice.

A pattern's identity is deterministic: a cluster merges into the existing pattern whose supporting
notes it shares most (or, sharing none, whose vector is within ``pattern_merge_similarity`` of the
cluster's centroid); a new pattern's id is a digest of its project and first supporting notes. A
merge keeps the union of evidence, sessions and agents, and the pattern's own wording (a reviewer
may have edited it).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import numpy as np

from mining.disagreement import conflicts, subject_key
from reverie.records import Note
from reverie.settings import MiningSettings

Decision = Literal["promote", "review", "wait"]
REVIEWED_TAG = "reviewed"
MINED_TAG = "mined"
FINAL_STATUSES = frozenset({"rejected", "deleted", "archived", "superseded", "quarantined"})
_UNCHANGED_FIELDS = {"version", "batch_id", "updated_at", "last_seen_at", "vector"}


@dataclass(frozen=True)
class Member:
    """A note of a cluster with its vector."""

    note: Note
    vector: np.ndarray


@dataclass(frozen=True)
class Assessment:
    decision: Decision
    reasons: tuple[str, ...]
    scope: str
    kind: str
    cohesion: float
    conflicts: tuple[tuple[str, str], ...]
    evidence: tuple[str, ...]
    sessions: tuple[str, ...]
    agents: tuple[str, ...]
    modules: tuple[str | None, ...]
    confidence: float


@dataclass(frozen=True)
class Draft:
    """What mining writes for one cluster: the pattern's new view (or None) and whether to ask a reviewer."""

    note: Note | None
    vector: np.ndarray | None
    needs_review: bool


# --- identity ------------------------------------------------------------------------------------
def team_groups(this: Sequence[Member], others: Sequence[Member], similarity: float) -> list[list[Member]]:
    """Each pattern of this project with the patterns of other projects within ``similarity`` of it."""
    if not this or not others:
        return []
    cosines = np.stack([m.vector for m in this]) @ np.stack([m.vector for m in others]).T
    groups = []
    for i, mine in enumerate(this):
        close = [others[j] for j in np.flatnonzero(cosines[i] >= similarity).tolist()]
        if close:
            groups.append([mine, *sorted(close, key=lambda m: m.note.note_id)])
    return groups


def pattern_id_for(project: str, member_ids: Iterable[str]) -> str:
    digest = hashlib.sha256(f"{project}|{','.join(sorted(member_ids))}".encode()).hexdigest()
    return f"p-{digest[:24]}"


@dataclass(frozen=True)
class ClusterKey:
    key: str
    members: frozenset[str]
    centroid: np.ndarray


@dataclass(frozen=True)
class KnownPattern:
    pattern_id: str
    members: frozenset[str]
    vector: np.ndarray


def match_patterns(clusters: Sequence[ClusterKey], known: Sequence[KnownPattern], similarity: float) -> dict[str, str]:
    """Cluster key -> the existing pattern it merges into; each pattern takes at most one cluster.

    Candidates are the patterns sharing notes with the cluster, then those whose vector is within
    ``similarity`` of its centroid; the best pairs (most shared notes, then highest cosine) win.
    """
    if not clusters or not known:
        return {}
    owner = {note: j for j, pattern in enumerate(known) for note in pattern.members}
    cosines = np.stack([c.centroid for c in clusters]) @ np.stack([p.vector for p in known]).T
    pairs = []
    for i, cluster in enumerate(clusters):
        shared = Counter(owner[n] for n in cluster.members if n in owner)
        close = np.flatnonzero(cosines[i] >= similarity).tolist()
        for j in set(shared) | set(close):
            pairs.append((-shared.get(j, 0), -float(cosines[i, j]), cluster.key, known[j].pattern_id))
    matched: dict[str, str] = {}
    taken: set[str] = set()
    for _, _, key, pattern_id in sorted(pairs):
        if key not in matched and pattern_id not in taken:
            matched[key] = pattern_id
            taken.add(pattern_id)
    return matched


# --- the rule ------------------------------------------------------------------------------------
def scope_for(project: str, modules: Iterable[str | None], projects: Iterable[str]) -> str:
    found_projects = set(projects) | {project}
    if len(found_projects) > 1:
        return "team"
    found_modules = set(modules)
    if len(found_modules) == 1 and None not in found_modules:
        return f"module:{project}/{next(iter(found_modules))}"
    return f"project:{project}"


def cohesion(vectors: np.ndarray) -> float:
    """Mean pairwise cosine of unit vectors (1.0 for a single vector)."""
    n = len(vectors)
    if n < 2:
        return 1.0
    total = vectors.sum(axis=0)
    return float((total @ total - n) / (n * (n - 1)))


def focus(vectors: np.ndarray, threshold: float, min_size: int) -> np.ndarray:
    """Which members keep a cluster on one topic: a boolean mask.

    Density clustering of small sets sweeps a stray note into a group now and then. While the
    cluster's cohesion is under ``threshold``, drop the member least similar to the others (if it is
    itself under ``threshold``), never going below ``min_size``. If that does not make the cluster
    one topic, keep it whole: the rule then lets it wait as ``not_one_topic``.
    """
    keep = np.ones(len(vectors), dtype=bool)
    total = vectors.sum(axis=0)
    while keep.sum() > min_size and cohesion(vectors[keep]) < threshold:
        n = int(keep.sum())
        affinity = np.where(keep, (vectors @ total - 1.0) / (n - 1), np.inf)
        worst = int(np.argmin(affinity))
        if affinity[worst] >= threshold:
            break
        keep[worst] = False
        total = total - vectors[worst]
    return keep if cohesion(vectors[keep]) >= threshold else np.ones(len(vectors), dtype=bool)


def assess(project: str, members: Sequence[Member], existing: Note | None, settings: MiningSettings) -> Assessment:
    notes = [m.note for m in members]
    sessions = _union((n.source_sessions for n in notes), existing.source_sessions if existing else ())
    agents = _union((_agents_of(n) for n in notes), existing.source_agents if existing else ())
    modules = tuple(sorted({n.module for n in notes} | _modules_of(existing), key=lambda m: (m is None, m or "")))
    scope = scope_for(project, modules, [n.project or project for n in notes])
    kind = _most_common(_kind_of(n) for n in notes)
    tight = cohesion(np.stack([m.vector for m in members]))
    pairs = tuple(conflicts(notes))
    decision, reasons = _decide(len(sessions), len(agents), tight, pairs, scope, kind, settings)
    return Assessment(
        decision=decision, reasons=reasons, scope=scope, kind=kind, cohesion=tight, conflicts=pairs,
        evidence=_union((n.evidence for n in notes), existing.evidence if existing else ()),
        sessions=sessions, agents=agents, modules=modules,
        confidence=_confidence(notes, len(agents), settings),
    )


def _decide(
    sessions: int, agents: int, tight: float, pairs: tuple, scope: str, kind: str, settings: MiningSettings,
) -> tuple[Decision, tuple[str, ...]]:
    if pairs:
        return "review", ("conflict",)
    waiting = [r for r, short in (("few_sessions", sessions < settings.min_sessions),
                                  ("not_one_topic", tight < settings.topic_similarity)) if short]
    if waiting:
        return "wait", tuple(waiting)
    gates = [r for r, held in (
        ("single_agent", agents < 2),
        ("team", scope == "team"),
        ("project_constraint", kind == "constraint" and not scope.startswith("module:")),
    ) if held]
    return ("review", tuple(gates)) if gates else ("promote", ())


def _confidence(notes: Sequence[Note], agents: int, settings: MiningSettings) -> float:
    """Mean over agents of each agent's mean confidence, raised by agreement across agents."""
    per_agent: dict[str, list[float]] = {}
    for note in notes:
        per_agent.setdefault(note.owner_agent or "-", []).append(note.confidence)
    base = float(np.mean([np.mean(v) for v in per_agent.values()]))
    return round(min(1.0, base + settings.agent_confidence_step * max(0, agents - 1)), 4)


# --- the pattern note ------------------------------------------------------------------------------
def draft(
    pattern_id: str, project: str, members: Sequence[Member], found: Assessment,
    existing: Note | None, at: datetime,
) -> Draft:
    """The pattern's next view, or ``note=None`` when nothing about it changes."""
    if existing is not None and existing.status in FINAL_STATUSES:
        return Draft(None, None, False)
    reviewed = existing is not None and REVIEWED_TAG in existing.tags
    status = "active" if found.decision == "promote" or (reviewed and existing.status == "active") else "candidate"
    needs_review = found.decision == "review" and (not reviewed or "conflict" in found.reasons)
    base, vector = _base_view(pattern_id, project, members, existing, at)
    view = base.model_copy(update=_fields_from(found, members, existing, status, at))
    view = Note.model_validate(view.model_dump())
    if existing is not None and _same(view, existing):
        return Draft(None, None, needs_review)
    return Draft(view, vector, needs_review)


def _base_view(pattern_id: str, project: str, members: Sequence[Member], existing: Note | None, at: datetime) -> tuple[Note, np.ndarray | None]:
    if existing is not None:
        return existing, None
    medoid = _medoid(members)
    note = Note(
        note_id=pattern_id, type="pattern", subject=_subject(members), statement=medoid.note.statement,
        scope=f"project:{project}", project=project, created_at=at, updated_at=at,
        valid_from=min(m.note.valid_from or m.note.created_at for m in members),
    )
    return note, medoid.vector


def _fields_from(found: Assessment, members: Sequence[Member], existing: Note | None, status: str, at: datetime) -> dict:
    notes = [m.note for m in members]
    modules = [m for m in found.modules if m is not None]
    seen = [n.last_seen_at or n.updated_at for n in notes] + ([existing.last_seen_at] if existing and existing.last_seen_at else [])
    return {
        "scope": found.scope, "module": modules[0] if found.scope.startswith("module:") else None,
        "evidence": list(found.evidence), "source_sessions": list(found.sessions),
        "source_agents": list(found.agents), "confidence": found.confidence, "status": status,
        "tags": sorted({*(existing.tags if existing else ()), MINED_TAG, found.kind}),
        "verified": any(n.verified for n in notes) or bool(existing and existing.verified),
        "specificity": _most_common(n.specificity for n in notes),
        "polarity": -1 if sum(n.polarity for n in notes) < 0 else 1,
        "updated_at": at, "last_seen_at": max(seen),
    }


def _same(view: Note, existing: Note) -> bool:
    """Equal content; floats compared at 4 decimals (the store keeps them as float32)."""
    return _content(view) == _content(existing)


def _content(note: Note) -> dict:
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in note.model_dump(exclude=_UNCHANGED_FIELDS).items()}


def _medoid(members: Sequence[Member]) -> Member:
    """The member closest on average to the others (ties: the smallest note id)."""
    vectors = np.stack([m.vector for m in members])
    scores = (vectors @ vectors.sum(axis=0)).tolist()
    order = sorted(range(len(members)), key=lambda i: (-round(scores[i], 6), members[i].note.note_id))
    return members[order[0]]


def _subject(members: Sequence[Member]) -> str:
    counts = Counter(subject_key(m.note.subject) for m in members)
    top = max(counts.values())
    key = min(k for k, c in counts.items() if c == top)
    return next(m.note.subject for m in sorted(members, key=lambda m: m.note.note_id) if subject_key(m.note.subject) == key)


def _most_common(values: Iterable[str]) -> str:
    counts = Counter(values)
    top = max(counts.values())
    return min(k for k, c in counts.items() if c == top)


def _kind_of(note: Note) -> str:
    """A note's type; for a pattern, the type of the notes it was mined from (kept in its tags)."""
    if note.type != "pattern":
        return note.type
    return next((t for t in note.tags if t not in (MINED_TAG, REVIEWED_TAG)), "lesson")


def _agents_of(note: Note) -> list[str]:
    return [*note.source_agents, *([note.owner_agent] if note.owner_agent else [])]


def _modules_of(existing: Note | None) -> set[str | None]:
    if existing is None:
        return set()
    if existing.scope.startswith("module:"):
        return {existing.module}
    return {None} if existing.scope.startswith("project:") else set()


def _union(groups: Iterable[Iterable[str]], more: Iterable[str] = ()) -> tuple[str, ...]:
    found: set[str] = set(more)
    for group in groups:
        found.update(group)
    return tuple(sorted(found))
