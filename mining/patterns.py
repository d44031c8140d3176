"""The promotion rule (DESIGN §4.4, seed 000), as small pure functions over notes.

A cluster of personal and module notes becomes a shared ``pattern`` note only when it is
**experience that recurs independently**:

- mostly lessons (more than half of its notes): a cluster of constraints, facts or procedures is
  knowledge several agents of a module heard, one module note, never a pattern (``skip``: no
  pattern is written for it);
- seen in at least ``min_sessions`` distinct sessions **and** by at least ``min_agents`` distinct
  agents;
- one topic: mean pairwise cosine at least ``topic_similarity`` **and** every member at least
  ``medoid_similarity`` from the cluster's medoid (a mean lets one far member ride along);
- one slot-consistent claim: no member superseded, contested or an open question, and no two
  members of one slot with different values (``mining.disagreement``; such a cluster goes to the
  review queue).

Otherwise it waits as a ``candidate``. Its scope follows its evidence: one module ->
``module:<p>/<m>``, several (or unknown) modules -> ``project:<p>``, several projects -> ``team``.
Three kinds of pattern stay ``candidate`` until a reviewer approves them, even when the evidence is
there: one supported by a single agent (the per-writer cap, reached only when ``min_agents`` is
lowered), any ``team`` pattern, and a project-wide constraint. Agreement across agents raises
confidence; each agent's notes count as one voice. A new pattern's statement and subject are those
of one note: the medoid of the cluster's latest members (each agent's newest live note).

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

from mining.disagreement import conflicts
from reverie.records import Note
from reverie.settings import MiningSettings

Decision = Literal["promote", "review", "wait", "skip"]
REVIEWED_TAG = "reviewed"
MINED_TAG = "mined"
FINAL_STATUSES = frozenset({"rejected", "deleted", "archived", "superseded", "quarantined"})
LESSON_MAJORITY = 0.5  # "mostly lessons": more than this share of a cluster's notes
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
    closeness: float
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


def medoid_index(vectors: np.ndarray) -> int:
    """The vector closest on average to the others (ties: the first)."""
    return int(np.argmax(np.round(vectors @ vectors.sum(axis=0), 6)))


def closeness(vectors: np.ndarray) -> float:
    """The lowest cosine of a member to the medoid (1.0 for a single vector)."""
    if len(vectors) < 2:
        return 1.0
    return float((vectors @ vectors[medoid_index(vectors)]).min())


def one_topic(vectors: np.ndarray, topic: float, medoid: float) -> bool:
    return cohesion(vectors) >= topic and closeness(vectors) >= medoid


def focus(vectors: np.ndarray, topic: float, medoid: float, min_size: int) -> np.ndarray:
    """Which members keep a cluster on one topic: a boolean mask.

    Density clustering of small sets sweeps a stray note into a group now and then. While the
    cluster is not one topic (``one_topic``), drop the stray member (``_stray``), never going below
    ``min_size``. If that does not make the cluster one topic, keep it whole: the rule then lets it
    wait as ``not_one_topic``.
    """
    keep = np.ones(len(vectors), dtype=bool)
    while keep.sum() > min_size and not one_topic(vectors[keep], topic, medoid):
        worst = _stray(vectors, keep, topic, medoid)
        if worst is None:
            break
        keep[worst] = False
    return keep if one_topic(vectors[keep], topic, medoid) else np.ones(len(vectors), dtype=bool)


def _stray(vectors: np.ndarray, keep: np.ndarray, topic: float, medoid: float) -> int | None:
    """The kept member farthest from the medoid if it is under ``medoid``, else the one least like
    the others if it is under ``topic``; None when no member is under either bar."""
    index = np.flatnonzero(keep)
    kept = vectors[index]
    to_medoid = kept @ kept[medoid_index(kept)]
    mean = (kept @ kept.sum(axis=0) - 1.0) / max(len(kept) - 1, 1)
    far, loose = int(np.argmin(to_medoid)), int(np.argmin(mean))
    if to_medoid[far] < medoid:
        return int(index[far])
    return int(index[loose]) if mean[loose] < topic else None


@dataclass(frozen=True)
class Signals:
    """What the rule reads of a cluster."""

    sessions: int
    agents: int
    lessons: float
    cohesion: float
    closeness: float
    blockers: tuple[str, ...]
    conflicts: tuple[tuple[str, str], ...]
    scope: str
    kind: str


def assess(project: str, members: Sequence[Member], existing: Note | None, settings: MiningSettings) -> Assessment:
    notes = [m.note for m in members]
    live = [n for n in notes if _live(n)] or notes
    sessions = _union((n.source_sessions for n in live), existing.source_sessions if existing else ())
    agents = _union((_agents_of(n) for n in live), existing.source_agents if existing else ())
    modules = tuple(sorted({n.module for n in live} | _modules_of(existing), key=lambda m: (m is None, m or "")))
    scope = scope_for(project, modules, [n.project or project for n in live])
    kinds = [_kind_of(n) for n in notes]
    vectors = np.stack([m.vector for m in members])
    signals = Signals(
        sessions=len(sessions), agents=len(agents), lessons=kinds.count("lesson") / len(kinds),
        cohesion=cohesion(vectors), closeness=closeness(vectors), blockers=blockers(notes),
        conflicts=tuple(conflicts([n for n in notes if _live(n)])), scope=scope, kind=_most_common(kinds),
    )
    decision, reasons = decide(signals, settings)
    return Assessment(
        decision=decision, reasons=reasons, scope=scope, kind=signals.kind, cohesion=signals.cohesion,
        closeness=signals.closeness, conflicts=signals.conflicts,
        evidence=_union((n.evidence for n in live), existing.evidence if existing else ()),
        sessions=sessions, agents=agents, modules=modules,
        confidence=_confidence(live, len(agents), settings),
    )


def blockers(notes: Sequence[Note]) -> tuple[str, ...]:
    """Why a cluster is not one settled claim: a member superseded, contested or an open question."""
    found = {
        "superseded": any(n.status == "superseded" or n.superseded_by for n in notes),
        "contested": any(_contested(n) for n in notes),
        "open_question": any(n.type == "open_question" for n in notes),
    }
    return tuple(reason for reason, held in found.items() if held)


def decide(signals: Signals, settings: MiningSettings) -> tuple[Decision, tuple[str, ...]]:
    if signals.lessons <= LESSON_MAJORITY:
        return "skip", ("not_experience",)
    if signals.conflicts:
        return "review", ("conflict",)
    waiting = [r for r, short in (
        ("few_sessions", signals.sessions < settings.min_sessions),
        ("few_agents", signals.agents < settings.min_agents),
        ("not_one_topic", signals.cohesion < settings.topic_similarity or signals.closeness < settings.medoid_similarity),
    ) if short] + list(signals.blockers)
    if waiting:
        return "wait", tuple(waiting)
    gates = [r for r, held in (
        ("single_agent", signals.agents < 2),
        ("team", signals.scope == "team"),
        ("project_constraint", signals.kind == "constraint" and not signals.scope.startswith("module:")),
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
    if found.decision == "skip" and existing is None:  # not experience: never a pattern
        return Draft(None, None, False)
    reviewed = existing is not None and REVIEWED_TAG in existing.tags
    kept_active = reviewed and existing is not None and existing.status == "active"
    status = "active" if found.decision == "promote" or kept_active else "candidate"
    needs_review = found.decision == "review" and (not reviewed or "conflict" in found.reasons)
    base, vector = _base_view(pattern_id, project, members, existing, at)
    view = base.model_copy(update=_fields_from(found, members, existing, status, at))
    view = Note.model_validate(view.model_dump())
    if existing is not None and _same(view, existing):
        return Draft(None, None, needs_review)
    return Draft(view, vector, needs_review)


def _base_view(pattern_id: str, project: str, members: Sequence[Member], existing: Note | None,
               at: datetime) -> tuple[Note, np.ndarray | None]:
    if existing is not None:
        return existing, None
    medoid = _medoid(latest(members))
    note = Note(
        note_id=pattern_id, type="pattern", subject=medoid.note.subject, statement=medoid.note.statement,
        scope=f"project:{project}", project=project, created_at=at, updated_at=at,
        valid_from=min(m.note.valid_from or m.note.created_at for m in members),
    )
    return note, medoid.vector


def _fields_from(found: Assessment, members: Sequence[Member], existing: Note | None, status: str, at: datetime) -> dict:
    notes = [m.note for m in members]
    modules = [m for m in found.modules if m is not None]
    seen = [n.last_seen_at or n.updated_at for n in notes]
    seen += [existing.last_seen_at] if existing and existing.last_seen_at else []
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


def latest(members: Sequence[Member]) -> list[Member]:
    """Each agent's newest live member (all members' newest when none is live)."""
    live = [m for m in members if _live(m.note)] or list(members)
    newest: dict[str, Member] = {}
    for member in sorted(live, key=lambda m: (_seen(m.note), m.note.note_id)):
        newest[member.note.owner_agent or member.note.note_id] = member
    return sorted(newest.values(), key=lambda m: m.note.note_id)


def _seen(note: Note) -> datetime:
    return note.last_seen_at or note.updated_at


def _live(note: Note) -> bool:
    return note.status in ("active", "candidate") and note.type != "open_question" and not note.superseded_by


def _contested(note: Note) -> bool:
    """Disputed by an unverified claim (consolidation's ``contested`` flag, or a linked open question)."""
    return bool(getattr(note, "contested", False)) or (note.type != "open_question" and bool(note.conflicts_with))


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
