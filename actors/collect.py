"""Stage 1: collect the sessions to replay, salient events first, in budgeted chunks.

Up to ``max_sessions`` pending sessions are picked oldest first (so none starves); they are replayed
most salient first (so a run cut short by its time budget has kept what matters), each session's
events in order. Only salient events (and events carrying an agent's own candidate) go into chunks
of at most ``batch_events`` events and ``max_tokens_per_batch`` tokens. A session counts as
consumed once every chunk holding its events was processed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from reverie.extract import Scored
from reverie.records import Event, Session
from reverie.salience import assess_session, mark_repeated
from reverie.settings import ConsolidationSettings


@dataclass(frozen=True)
class Replay:
    """The sessions of a run in replay order and the chunks of salient events to extract from."""

    sessions: list[Session]
    chunks: list[list[Scored]]
    last_chunk: dict[str, int] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)

    def consumed(self, done_chunks: int) -> list[str]:
        """Sessions fully replayed once the first ``done_chunks`` chunks are processed."""
        return [s.session_id for s in self.sessions if self.last_chunk.get(s.session_id, -1) < done_chunks]

    def salient_events(self) -> list[Event]:
        return [item.event for chunk in self.chunks for item in chunk]


def pick_sessions(pending: Sequence[Session], limit: int) -> list[Session]:
    """The oldest ``limit`` pending sessions."""
    return sorted(pending, key=lambda s: (s.started_at, s.session_id))[:limit]


def score(sessions: Sequence[Session], events: Sequence[Event], threshold: float) -> list[tuple[Session, list[Scored]]]:
    """Each session with its scored events, most salient session first."""
    by_session: dict[str, list[Event]] = {s.session_id: [] for s in sessions}
    for event in sorted(events, key=lambda e: (e.ts, e.event_id)):
        if event.session_id in by_session:
            by_session[event.session_id].append(event)
    flat_events = [e for s in sessions for e in by_session[s.session_id]]
    flat_scores = [x for s in sessions for x in assess_session(by_session[s.session_id])]
    flat_scores = mark_repeated(flat_events, flat_scores)
    scored, start = [], 0
    for session in sessions:
        size = len(by_session[session.session_id])
        items = [Scored(e, x) for e, x in zip(flat_events[start:start + size], flat_scores[start:start + size], strict=True)]
        scored.append((session, items))
        start += size
    weight = {s.session_id: sum(i.salience.score for i in items if keep(i, threshold)) for s, items in scored}
    return sorted(scored, key=lambda pair: (-weight[pair[0].session_id], pair[0].started_at, pair[0].session_id))


def keep(item: Scored, threshold: float) -> bool:
    """Worth extracting from: salient (or trying to instruct), or carrying the agent's own candidate."""
    if item.salience.chatter:
        return False
    return item.salience.salient(threshold) or item.event.candidate is not None


def chunk(scored: Sequence[tuple[Session, list[Scored]]], tokens: Mapping[str, int],
          settings: ConsolidationSettings, threshold: float) -> Replay:
    """Split the kept events into chunks within the event and token budgets."""
    chunks: list[list[Scored]] = [[]]
    used = 0
    last: dict[str, int] = {}
    stats = {"events": 0, "salient": 0, "chatter": 0, "instructions": 0}
    for session, items in scored:
        for item in items:
            _count(stats, item, threshold)
            if not keep(item, threshold):
                continue
            size = tokens.get(item.event.event_id, 0)
            if chunks[-1] and (len(chunks[-1]) >= settings.batch_events or used + size > settings.max_tokens_per_batch):
                chunks.append([])
                used = 0
            chunks[-1].append(item)
            used += size
            last[session.session_id] = len(chunks) - 1
    return Replay([s for s, _ in scored], [c for c in chunks if c], last, stats)


def _count(stats: dict[str, int], item: Scored, threshold: float) -> None:
    stats["events"] += 1
    stats["chatter"] += int(item.salience.chatter)
    stats["instructions"] += int(bool(item.salience.instructions))
    stats["salient"] += int(keep(item, threshold))
