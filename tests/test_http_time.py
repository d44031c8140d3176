"""Dreaming enriches the log, over HTTP on one real service (Serve app, agent actors, the real MiniLM):
consolidation writes each turn's contextual key with its relative dates resolved, a question that
names a day, a month or "last week" (read against ``as_of``) favours the turns of that time, and a
purge leaves no byte of the purged turn in any key (the next turn's key quoted it) or note."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from serving import served, served_settings

NAME = "Zebulon Quagmire"
SESSIONS: dict[str, tuple[datetime, list[str]]] = {
    "pottery": (datetime(2023, 3, 6, 18, 0, tzinfo=UTC), [
        "How was your weekend?", "I went to the pottery workshop yesterday and made a blue bowl.",
        "The teacher said my glaze was too thick."]),
    "hike-march": (datetime(2023, 3, 14, 18, 0, tzinfo=UTC), ["We went hiking around the lake with the team."]),
    "hike-june": (datetime(2023, 6, 12, 18, 0, tzinfo=UTC), ["We went hiking around the lake with the team again."]),
    "cook-1": (datetime(2023, 10, 4, 18, 0, tzinfo=UTC), ["I cooked a big pot of chili for the team dinner."]),
    "cook-2": (datetime(2023, 10, 18, 18, 0, tzinfo=UTC), ["I cooked a big pot of lentil soup for the team dinner."]),
    "ladder": (datetime(2023, 10, 20, 18, 0, tzinfo=UTC), [
        f"My neighbour {NAME} lent me his ladder for the gutters.", "It was a very long ladder; I gave it back today."]),
}


@dataclass
class World:
    url: str
    keys: dict[str, str]
    store: Path

    def call(self, who: str, method: str, path: str, body: Any = None) -> Any:
        with httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {self.keys[who]}"}, timeout=120) as client:
            response = client.request(method, path, json=body)
        assert response.status_code < 300, (path, response.status_code, response.text)
        return response.json()

    def turns(self, query: str, as_of: datetime | None = None) -> list[str]:
        body = {"agent_id": "coder-1", "query": query, "project": "atlas", "as_of": as_of and as_of.isoformat()}
        found = self.call("coder-1", "POST", "/v1/retrieve", body)
        return [t["event_id"] for t in sorted(found["episodes"], key=lambda t: t["rank"])]


@pytest.fixture(scope="module")
def world(serve_session: int, embedding_service: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    settings = served_settings(tmp_path_factory.mktemp("time"), provider="minilm")
    roles = {"admin": ("admin", ["*"]), "coder-1": ("agent", ["atlas"])}
    with served(settings, roles, memory=True) as app:
        world = World(app.url, app.keys, Path(settings.store.uri))
        for name, (at, texts) in SESSIONS.items():
            events = [{"event_id": f"{name}-{i}", "ts": (at + timedelta(minutes=i)).isoformat(), "role": "user", "text": t}
                      for i, t in enumerate(texts)]
            world.call("coder-1", "POST", "/v1/events", {"agent_id": "coder-1", "session_id": name, "project": "atlas",
                                                         "events": events})
        world.call("coder-1", "POST", "/v1/agents/coder-1/consolidate")
        yield world


def test_a_relative_date_is_answered_by_its_absolute_date(world: World) -> None:
    # said on 6 March 2023: "yesterday" is 5 March, which only the turn's contextual key says
    assert world.turns("What did I make on 5 March 2023?")[0] == "pottery-1"


def test_a_question_naming_a_month_favours_that_months_sessions(world: World) -> None:
    found = world.turns("Where did we go hiking in June?")
    assert found.index("hike-june-0") < found.index("hike-march-0")
    found = world.turns("Where did we go hiking in March?")
    assert found.index("hike-march-0") < found.index("hike-june-0")


def test_as_of_moves_last_week(world: World) -> None:
    question = "What did I cook for the team dinner last week?"
    assert world.turns(question, as_of=datetime(2023, 10, 11, 9, 0, tzinfo=UTC))[0] == "cook-1-0"
    assert world.turns(question, as_of=datetime(2023, 10, 25, 9, 0, tzinfo=UTC))[0] == "cook-2-0"


def test_a_purge_leaves_no_byte_of_the_purged_turn_in_keys_or_notes(world: World) -> None:
    assert any(NAME.encode() in p.read_bytes() for p in (world.store / "turn_keys.lance").rglob("*") if p.is_file())
    world.call("admin", "POST", "/v1/purge", {"agent_id": "coder-1", "event_ids": ["ladder-0"]})
    files = [p for p in world.store.rglob("*") if p.is_file()]
    assert files and not [p for p in files if NAME.encode() in p.read_bytes() or b"Zebulon" in p.read_bytes()]
    # the next turn's key quoted the purged one: it is derived again from what is left
    assert world.turns("the long ladder I gave back")[0] == "ladder-1"
