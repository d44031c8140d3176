"""Contextual keys: what dreaming adds to the raw log (DESIGN §4.6, issue 14).

A turn is indexed under its plain text at capture. Consolidation also writes a *contextual key* for
every turn of the sessions it replays: the session's day, the speaker, the turn before it and its own
text with each relative time resolved against that day::

    8 May 2023. Caroline: Hey Mel, how was your week? Melanie: I ran a charity race yesterday (7 May 2023)!

A turn alone ("I ran it yesterday!") rarely says what it is about or when; its key does. Retrieval
ranks keys dense and by full text beside the plain text, and uses the key's days (the session's and
those its relative phrases mean) for questions that name a time. The injected text stays what was
said; the key is only an index. Text that tries to instruct is never a key, nor the context of one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from reverie.dates import Span, relative_mentions, with_absolute_dates
from reverie.quarantine import is_instruction
from reverie.records import Event

MAX_CONTEXT_CHARS = 400  # of the turn before (its start says what it was about)
MAX_TEXT_CHARS = 2000  # of the turn itself (MiniLM reads about 256 word pieces anyway)
_NAMED_SPEAKER = re.compile(r"^[A-Z][\w .'-]{0,40}: ")


@dataclass(frozen=True)
class TurnKey:
    agent_id: str
    event_id: str
    follows: str | None
    key: str
    spans: tuple[Span, ...]


def day_label(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def speaker(event: Event) -> str:
    """``Name: text`` already names its speaker; any other turn is prefixed with its role."""
    return "" if _NAMED_SPEAKER.match(event.text) else f"{event.role}: "


def key_of(event: Event, previous: Event | None) -> TurnKey:
    day = event.ts.date()
    context = "" if previous is None else f"{speaker(previous)}{_clip(previous.text, MAX_CONTEXT_CHARS)} "
    text = _clip(event.text, MAX_TEXT_CHARS)
    spans = (Span(day, day), *(m.span for m in relative_mentions(text, day)))
    key = f"{day_label(day)}. {context}{speaker(event)}{with_absolute_dates(text, day)}"
    return TurnKey(event.agent_id, event.event_id, None if previous is None else previous.event_id, key, spans)


def turn_keys(events: Sequence[Event]) -> list[TurnKey]:
    """The key of every turn of ``events`` (whole sessions), each after the turn before it in its
    session; text that tries to instruct is left out, as a turn and as a context."""
    by_session: dict[tuple[str, str], list[Event]] = {}
    for event in events:
        if not is_instruction(event.text):
            by_session.setdefault((event.agent_id, event.session_id), []).append(event)
    keys = []
    for turns in by_session.values():
        turns.sort(key=lambda e: e.ts)  # stable: turns of one instant keep the order they were stored in
        keys += [key_of(e, turns[i - 1] if i else None) for i, e in enumerate(turns)]
    return keys


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"
