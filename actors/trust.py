"""Stage 4: confidence from trust tiers, and the note views the drafts become.

A candidate's tier comes from its source: a verified tool result > the user > the agent itself >
an LLM extractor > text matched by rules. A new note starts at its best member's tier; every
further corroborating event adds ``confidence_step`` (up to ``confidence_max``). A merge into an
existing note keeps the old view as a version (the store does), raises its confidence the same way,
unions evidence, sessions and agents, and refreshes ``last_seen_at``. A note below
``activate_confidence`` stays a ``candidate`` (expiring after ``candidate_ttl`` unless corroborated).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from actors.plan import Change, Draft, RunContext
from reverie.citations import cited_events, cites
from reverie.records import Candidate, Note, NoteStatus, Specificity
from reverie.settings import ConsolidationSettings

_SPECIFICITY = {"low": 0, "medium": 1, "high": 2}


def tier(candidate: Candidate, settings: ConsolidationSettings) -> float:
    if candidate.verified or candidate.source == "tool":
        return settings.trust_tool
    return {
        "user": settings.trust_user, "agent": settings.trust_agent, "llm": settings.trust_llm,
        "reviewer": settings.trust_tool, "mining": settings.trust_agent,
    }.get(candidate.source, settings.trust_rule)


def weigh(drafts: Sequence[Draft], ctx: RunContext, settings: ConsolidationSettings) -> list[Change]:
    """The new view of every note the drafts add or merge into (unchanged merges are skipped)."""
    changes = []
    for draft in drafts:
        change = added(draft, ctx, settings) if draft.target is None else merged(draft, draft.target, ctx, settings)
        if change is not None:
            changes.append(change)
    return changes


def added(draft: Draft, ctx: RunContext, settings: ConsolidationSettings) -> Change:
    lead = draft.lead.candidate
    members = [m.candidate for m in draft.members]
    project, module = ctx.place(lead)
    confidence = _raised(max(tier(c, settings) for c in members), _distinct_events(members) - 1, settings)
    quarantined = lead.status == "quarantined"
    status = "quarantined" if quarantined else _status(confidence, settings)
    seen = _times(members) or [ctx.now]
    note = Note(
        note_id=draft.note_id, type=lead.type, subject=lead.subject, statement=lead.statement,
        scope=lead.scope, owner_agent=ctx.agent_id, project=project, module=module,
        **_provenance(members, []), confidence=confidence, verified=any(c.verified for c in members),
        specificity=_most_specific(members), polarity=lead.polarity, status=status, created_at=ctx.now,
        updated_at=ctx.now, last_verified_at=_verified_at(members), last_seen_at=max(seen),
        valid_from=min(seen), expires_at=_expiry(status, ctx.now, settings),
    )
    reason = f"{len(members)} candidate(s) from {len(note.source_sessions)} session(s)"
    return Change(note, "quarantine" if quarantined else "add", reason, draft.lead.vector, new=True, observed=True,
                  slot_vector=draft.lead.slot_vector)


def merged(draft: Draft, target: Note, ctx: RunContext, settings: ConsolidationSettings) -> Change | None:
    cited = cited_events([target])  # the members' events the target already cites (ids are unique per agent)
    members = [m.candidate for m in draft.members
               if not all(cites(cited, m.candidate.agent_id or ctx.agent_id, e) for e in m.candidate.evidence)]
    if not members:
        return None
    best = max(tier(c, settings) for c in members)
    confidence = _raised(max(target.confidence, best), _distinct_events(members), settings)
    status: NoteStatus = "quarantined" if target.status == "quarantined" else _merged_status(target, confidence, settings)
    view = target.model_copy(update={
        **_provenance(members, [target]), "confidence": confidence, "status": status,
        "verified": target.verified or any(c.verified for c in members),
        "last_verified_at": _verified_at(members) or target.last_verified_at,
        "last_seen_at": max([*_times(members), *([target.last_seen_at] if target.last_seen_at else [])]),
        "updated_at": ctx.now, "expires_at": _expiry(status, ctx.now, settings) if status == "candidate" else None,
        "superseded_by": None if status != target.status else target.superseded_by,
        "invalid_at": None if status != target.status else target.invalid_at,
    })
    revived = "revived and " if target.status in ("superseded", "archived") and status != target.status else ""
    reason = f"{revived}merged {len(members)} candidate(s); confidence {target.confidence:.2f} -> {confidence:.2f}"
    return Change(view, "merge", reason, None, new=False, observed=True)


def _raised(base: float, steps: int, settings: ConsolidationSettings) -> float:
    return round(min(settings.confidence_max, base + settings.confidence_step * max(steps, 0)), 4)


def _distinct_events(members: Iterable[Candidate]) -> int:
    return len({(c.agent_id, e) for c in members for e in c.evidence})


def _status(confidence: float, settings: ConsolidationSettings) -> NoteStatus:
    return "active" if confidence >= settings.activate_confidence else "candidate"


def _merged_status(target: Note, confidence: float, settings: ConsolidationSettings) -> NoteStatus:
    if target.status in ("active", "candidate", "superseded", "archived"):
        return _status(confidence, settings)
    return target.status


def _expiry(status: str, now: datetime, settings: ConsolidationSettings) -> datetime | None:
    return now + settings.candidate_ttl if status == "candidate" else None


def _provenance(members: Sequence[Candidate], bases: Sequence[Note]) -> dict[str, Any]:
    def union(old: Iterable[str], new: Iterable[str]) -> list[str]:
        return list(dict.fromkeys([*old, *new]))

    base = bases[0] if bases else None
    return {
        "evidence": union(base.evidence if base else [], (e for c in members for e in c.evidence)),
        "source_sessions": union(base.source_sessions if base else [], (s for c in members for s in c.session_ids)),
        "source_agents": union(base.source_agents if base else [], (c.agent_id for c in members if c.agent_id)),
        "tags": sorted(set(base.tags if base else []) | {t for c in members for t in c.tags}),
    }


def _times(members: Sequence[Candidate]) -> list[datetime]:
    return [c.observed_at for c in members if c.observed_at is not None]


def _verified_at(members: Sequence[Candidate]) -> datetime | None:
    times = [c.observed_at for c in members if c.verified and c.observed_at is not None]
    return max(times) if times else None


def _most_specific(members: Sequence[Candidate]) -> Specificity:
    return max((c.specificity for c in members), key=lambda s: _SPECIFICITY[s])
