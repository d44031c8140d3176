"""The retrieval cache's withheld evidence (serve/retrieval/noteindex.py), per agent: event ids are
unique per agent only, so a retired note withholds the ids of its own agents (a note naming none, of
every agent), and the counts follow a note whose agents or evidence change between versions."""

from __future__ import annotations

from reverie.settings import RetrievalSettings
from reverie.store import Store
from serve.retrieval.noteindex import NoteIndex


def _row(status: str, agents: list[str], evidence: list[str], owner: str | None = None) -> dict:
    return {"status": status, "type": "lesson", "tombstone": False, "evidence": evidence, "source_agents": agents,
            "owner_agent": owner}


def test_withheld_evidence_is_each_agents_own_and_follows_each_version(store: Store) -> None:
    index = NoteIndex(store, RetrievalSettings())
    index._track("n1", _row("superseded", ["a1"], ["e1", "e2"]))
    index._track("n2", _row("deleted", [], ["e9"]))  # names no agent: withheld for everyone
    index._track("n3", _row("superseded", ["a2"], ["e1"], owner="a2"))
    assert sorted(index.withheld_events("a1")) == ["e1", "e2", "e9"]
    assert sorted(index.withheld_events("a2")) == ["e1", "e9"]
    assert sorted(index.withheld_events("a3")) == ["e9"]
    index._track("n1", _row("superseded", ["a2"], ["e2"]))  # a later version names another agent
    assert sorted(index.withheld_events("a1")) == ["e9"]
    assert sorted(index.withheld_events("a2")) == ["e1", "e2", "e9"]
    index._track("n3", _row("active", ["a2"], ["e1"]))  # restored: no longer withheld
    index._track("n2", None)  # gone
    assert sorted(index.withheld_events("a2")) == ["e2"]
    index._track("n4", _row("active", ["a2"], ["e2"]))  # a live note withholds nothing
    index._track("n1", _row("active", ["a2"], ["e2"]))
    assert index.withheld_events("a2") == []
