"""A mined project for the explorer's tests: the team of ``mining_data.team_scenario`` (MiniLM
vectors), the events behind every note, one mining run, and untrusted text planted where the page
shows it (an evidence event and a shared note); and a second, smaller mined project (``SECOND``: two
lessons of three agents each, in module scope) to switch to.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mining.runs import RunState
from mining_data import QUARANTINED, Seen, copy_store, mine, note_of, team_scenario, write_notes
from reverie.clock import ManualClock
from reverie.embed import Embedder
from reverie.records import Event, Note
from reverie.store import NoteFilter, Store

PROJECT = "atlas"
SECOND = "borealis"
#: Two lessons (timezones, pagination), each noted by three agents in three sessions of module api.
SECOND_NOTES = [Seen(g, t, f"b{t}", f"sb{g}-{t}", scope=f"module:{SECOND}/api") for g in (5, 8) for t in range(3)]
# Would run if any text of a note or event reached the page as HTML.
PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
PLANTED = Seen(7, 0, "a7", "s13", scope="module:atlas/api", statement=f"Deploy checklist for the api {PAYLOAD}")
MARKED = Seen(0, 0, "a1", "s1")  # the note whose evidence event carries the payload


@dataclass(frozen=True)
class Mined:
    store: Store
    run: RunState
    planted: Note

    def patterns(self) -> list[Note]:
        """The live patterns of the project (what the graph of the explorer must show)."""
        where = NoteFilter(project=PROJECT, types=["pattern"], statuses=["active", "candidate"])
        return sorted(self.store.notes.list(where, limit=1000).notes, key=lambda n: n.note_id)


def event_text(seen: Seen) -> str:
    text = f"{note_of(seen, ManualClock().now()).statement} (said in session {seen.session})"
    return f"{text} {PAYLOAD}" if seen == MARKED else text


def mined_project(template: Path, uri: Path, embedder: Embedder, clock: ManualClock) -> Mined:
    """The team's notes (a copy of ``template``, a :func:`mining_data.team_store`) and their events,
    the planted note, and one mining run over them; the second project's notes, mined too."""
    store = copy_store(template, uri, clock)
    planted = write_notes(store, embedder, [PLANTED], clock.now())[0]
    every = [*((s, PROJECT) for s in [*team_scenario(), QUARANTINED, PLANTED]), *((s, SECOND) for s in SECOND_NOTES)]
    store.events.append([
        Event(event_id=note_of(s, clock.now()).evidence[0], agent_id=s.agent, session_id=s.session, project=project,
              module=s.module, ts=clock.now(), role="user", text=event_text(s), ingested_at=clock.now())
        for s, project in every
    ])
    write_notes(store, embedder, SECOND_NOTES, clock.now(), project=SECOND)
    mine(store, clock, project=SECOND)
    # min_agents=1: the one-agent lesson reaches the per-writer review gate, so the queue has two items to decide
    return Mined(store, mine(store, clock, min_agents=1), planted)
