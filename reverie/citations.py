"""Which events notes cite. Event ids are unique per agent only (DESIGN §3: the same ``(agent_id,
event_id)`` is one event), so a note cites the events of its own agents (:attr:`Note.agents`); a
note that names no agent is taken to cite that id of any agent (the cautious reading)."""

from __future__ import annotations

from collections.abc import Iterable

from reverie.records import Event, Note

ANY_AGENT = ""
Cited = frozenset[tuple[str, str]]


def cited_events(notes: Iterable[Note]) -> Cited:
    """(agent, event id) of every event the notes cite; ``ANY_AGENT`` for a note naming no agent."""
    return frozenset((agent, event_id) for note in notes for agent in (note.agents or {ANY_AGENT})
                     for event_id in note.evidence)


def is_cited(cited: Cited, event: Event) -> bool:
    return cites(cited, event.agent_id, event.event_id)


def cites(cited: Cited, agent_id: str, event_id: str) -> bool:
    """Whether ``agent_id``'s event ``event_id`` is among ``cited``."""
    return (agent_id, event_id) in cited or (ANY_AGENT, event_id) in cited
