"""LoCoMo (snap-research/locomo, ACL 2024) as agents' memories and questions with gold evidence.

Each conversation is one agent's memory: agent = the sample id, its own project (the same name);
each ``session_<n>`` is a session that keeps its date; each turn is an event ``"Speaker: text"``
(plus ``" [shares <caption>]"`` when the turn shares an image) whose id is its ``dia_id``.
Questions of categories 1-4 are scored (5, adversarial, has no evidence to find).

The data's quirks are handled and counted in :class:`Quirks`: date keys without a session, questions
without evidence, evidence strings holding several ids, ids that resolve to no turn (two typos are
repaired by normalising: ``D:11:26`` -> ``D11:26``, ``D30:05`` -> ``D30:5``; the rest are dropped),
dates that do not parse (the session then follows the previous one by a day).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from reverie.capture import CaptureRequest, EventIn
from reverie.errors import ValidationError

CATEGORIES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED: tuple[int, ...] = (1, 2, 3, 4)
_SESSION = re.compile(r"^session_(\d+)$")
_LOOSE_ID = re.compile(r"^D:?(\d+):0*(\d+)$")
_DATE_FORMAT = "%I:%M %p on %d %B, %Y"


@dataclass
class Quirks:
    counts: Counter[str] = field(default_factory=Counter)

    def note(self, what: str, n: int = 1) -> None:
        self.counts[what] += n

    def as_dict(self) -> dict[str, int]:
        return dict(sorted(self.counts.items()))


@dataclass(frozen=True)
class Question:
    sample_id: str
    index: int
    text: str
    category: int
    evidence: tuple[str, ...]

    @property
    def question_id(self) -> str:
        return f"{self.sample_id}#{self.index}"


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    requests: tuple[CaptureRequest, ...]
    questions: tuple[Question, ...]

    @property
    def agent_id(self) -> str:
        return self.sample_id

    @property
    def project(self) -> str:
        return self.sample_id

    @property
    def turns(self) -> int:
        return sum(len(r.events) for r in self.requests)


@dataclass(frozen=True)
class Locomo:
    conversations: tuple[Conversation, ...]
    quirks: Quirks

    def questions(self, categories: tuple[int, ...] = SCORED) -> Iterator[Question]:
        """Every question of the given categories that has usable gold evidence, in file order."""
        for conversation in self.conversations:
            yield from (q for q in conversation.questions if q.category in categories and q.evidence)


#: The split of ``shared/data/README.md``: tune on dev, report test once with parameters fixed before.
SPLITS: dict[str, tuple[str, ...]] = {
    "dev": ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43"),
    "test": ("conv-44", "conv-47", "conv-48", "conv-49", "conv-50"),
}


def conversations_named(spec: str) -> tuple[str, ...] | None:
    """``dev``, ``test``, ``all`` or comma-separated sample ids (``conv-26,conv-30``); None for all."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names or names == ["all"]:
        return None
    picked = [c for n in names for c in SPLITS.get(n, (n,))]
    return tuple(dict.fromkeys(picked))


def load_locomo(path: Path | str, *, captions: bool = True, limit: int | None = None,
                only: tuple[str, ...] | None = None) -> Locomo:
    """Read ``locomo10.json`` (or a file of the same shape); ``only`` keeps the named conversations
    (in file order), ``limit`` the first of what is kept."""
    raw = _read(Path(path))
    if only is not None:
        unknown = set(only) - {str(s.get("sample_id")) for s in raw}
        if unknown:
            raise ValidationError(f"no conversation {sorted(unknown)} in {str(path)!r}; name sample ids such as "
                                  "conv-26, or a split: dev, test, all", field="conversations")
        raw = [s for s in raw if str(s.get("sample_id")) in only]
    quirks = Quirks()
    conversations = tuple(_conversation(sample, captions, quirks) for sample in raw[:limit])
    return Locomo(conversations, quirks)


def _read(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise ValidationError(f"no LoCoMo file at {str(path)!r}; pass the path of locomo10.json", field="path")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{str(path)!r} is not JSON (line {exc.lineno}); pass locomo10.json", field="path") from exc
    if not isinstance(data, list) or not all(isinstance(s, dict) and "conversation" in s for s in data):
        raise ValidationError(f"{str(path)!r} is not a list of LoCoMo samples with a 'conversation'", field="path")
    return data


def _conversation(sample: dict[str, Any], captions: bool, quirks: Quirks) -> Conversation:
    sample_id = str(sample["sample_id"])
    body = sample["conversation"]
    requests = _sessions(sample_id, body, captions, quirks)
    turns = {e.event_id for r in requests for e in r.events if e.event_id is not None}
    questions = tuple(_question(sample_id, i, q, turns, quirks) for i, q in enumerate(sample.get("qa", [])))
    return Conversation(sample_id, tuple(requests), questions)


def _sessions(sample_id: str, body: dict[str, Any], captions: bool, quirks: Quirks) -> list[CaptureRequest]:
    numbers = sorted(int(m.group(1)) for key in body if (m := _SESSION.match(key)))
    dated = {int(key.split("_")[1]) for key in body if key.endswith("_date_time")}
    quirks.note("date_keys_without_session", len(dated - set(numbers)))
    requests, previous = [], None
    for n in numbers:
        turns = body[f"session_{n}"]
        start = _date(body.get(f"session_{n}_date_time"), previous, quirks)
        previous = start
        if not turns:
            quirks.note("empty_sessions")
            continue
        events = [_event(turn, start + timedelta(minutes=i), captions, quirks) for i, turn in enumerate(turns)]
        requests.append(CaptureRequest(agent_id=sample_id, session_id=f"{sample_id}-s{n}", project=sample_id, events=events))
    return requests


def _date(text: str | None, previous: datetime | None, quirks: Quirks) -> datetime:
    try:
        return datetime.strptime(str(text), _DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        quirks.note("unparsed_dates")
        return (previous or datetime(2023, 1, 1, tzinfo=UTC)) + timedelta(days=1)


def _event(turn: dict[str, Any], at: datetime, captions: bool, quirks: Quirks) -> EventIn:
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        quirks.note("turns_with_images")
        if captions:
            text += f" [shares {turn['blip_caption']}]"
    return EventIn(event_id=turn["dia_id"], ts=at, role="user", text=text)


def _question(sample_id: str, index: int, qa: dict[str, Any], turns: set[str], quirks: Quirks) -> Question:
    category = int(qa.get("category", 0))
    ids = [part for entry in qa.get("evidence") or [] for part in re.split(r"[;,\s]+", str(entry)) if part]
    if category in SCORED:
        _count_evidence(qa, ids, quirks)
    resolved = tuple(dict.fromkeys(r for part in ids if (r := _resolve(part, turns, quirks if category in SCORED else None))))
    if category in SCORED and ids and not resolved:
        quirks.note("questions_with_only_unresolved_evidence")
    return Question(sample_id, index, str(qa["question"]), category, resolved)


def _count_evidence(qa: dict[str, Any], ids: list[str], quirks: Quirks) -> None:
    if not ids:
        quirks.note("questions_without_evidence")
    several = sum(1 for e in qa.get("evidence") or [] if len(re.split(r"[;,\s]+", str(e).strip())) > 1)
    quirks.note("evidence_strings_with_several_ids", several)


def _resolve(part: str, turns: set[str], quirks: Quirks | None) -> str | None:
    if part in turns:
        return part
    loose = _LOOSE_ID.match(part)
    repaired = f"D{loose.group(1)}:{loose.group(2)}" if loose else None
    if repaired in turns:
        if quirks:
            quirks.note("evidence_ids_repaired")
        return repaired
    if quirks:
        quirks.note("evidence_ids_unresolved")
    return None
