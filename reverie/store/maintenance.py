"""Keeping the store bounded and forgetting on request: compaction, sizes, hard purge."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

from lancedb.table import Table

from reverie.clock import Clock
from reverie.errors import ValidationError
from reverie.records import Note
from reverie.store.batches import BatchWriter, NoteWrite
from reverie.store.keytable import KeyTable
from reverie.store.ledger import graph_node_id
from reverie.store.rows import note_agents, note_from_row, rows
from reverie.store.tables import Tables, sql_in, sql_str


@dataclass(frozen=True)
class TableStats:
    name: str
    rows: int
    versions: int
    fragments: int
    bytes: int


@dataclass(frozen=True)
class PurgeResult:
    events: int
    notes_deleted: list[str]
    notes_rederived: list[str]
    sessions: list[str]
    batch_id: str | None = None
    bytes_freed: int = 0
    rederive: list[str] = field(default_factory=list)
    rekey: list[tuple[str, str]] = field(default_factory=list)  # (agent, event): turns whose key held purged words


@dataclass(frozen=True)
class _Gone:
    events: set[str]
    sessions: set[str]
    agents: set[str]


class Maintenance:
    def __init__(self, tables: Tables, writer: BatchWriter, keys: KeyTable, clock: Clock) -> None:
        self._t = tables
        self._keys = keys
        self._writer = writer
        self._clock = clock

    def compact(self, *, force: bool = False) -> list[str]:
        """Compact every table due for it (all with ``force``); returns the tables compacted."""
        due = [
            name for name in self._t.schemas
            if force or self._t.writes_since_compaction.get(name, 0) >= self._t.settings.compact_every_writes
        ]
        return [name for name in due if self._t.compact(name)]

    def stats(self) -> list[TableStats]:
        found = []
        for name in self._t.schemas:
            table = self._t[name]
            # lancedb 0.40 annotates stats() as a TableStatistics dataclass but returns a plain dict
            info = cast(dict[str, Any], table.stats())
            found.append(TableStats(
                name=name, rows=table.count_rows(), versions=len(table.list_versions()),
                fragments=int(info["fragment_stats"]["num_fragments"]), bytes=int(info["total_bytes"]),
            ))
        return found

    def folder_bytes(self) -> int | None:
        root = Path(self._t.settings.uri)
        if "://" in self._t.settings.uri or not root.exists():
            return None
        return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())

    # --- hard purge ---------------------------------------------------------------------------
    def purge(
        self, *, event_ids: Iterable[str] | None = None, agent_id: str | None = None,
        session_id: str | None = None, principal: str = "system",
    ) -> PurgeResult:
        """Delete events and what is derived only from them, then rewrite files so the bytes go."""
        targets = self._target_events(event_ids, agent_id, session_id)
        purged_ids = {e for _, e in targets}
        agents = {a for a, _ in targets}
        doomed, mixed, projects = self._derived_notes(purged_ids, agents)
        gone = _Gone(purged_ids, {session_id} if session_id else set(), {agent_id} if agent_id else set())
        batch_id = self._strip_evidence(mixed, gone, principal)
        self._delete_notes(doomed)
        sessions, rekey = self._delete_events(targets)
        self._delete_graph(doomed, sessions, [agent_id] if agent_id else [])
        self._forget_names(projects)
        self.scrub()
        return PurgeResult(
            events=len(targets), notes_deleted=sorted(doomed), notes_rederived=sorted(mixed),
            sessions=sessions, batch_id=batch_id, rederive=sorted(mixed), rekey=rekey,
        )

    def _target_events(
        self, event_ids: Iterable[str] | None, agent_id: str | None, session_id: str | None,
    ) -> list[tuple[str, str]]:
        clauses = []
        if event_ids is not None:
            clauses.append(sql_in("event_id", event_ids))
        if agent_id is not None:
            clauses.append(f"agent_id = {sql_str(agent_id)}")
        if session_id is not None:
            clauses.append(f"session_id = {sql_str(session_id)}")
        if not clauses:
            raise ValidationError("purge needs event_ids, an agent_id or a session_id", field=None)
        table = self._t.read("events", " AND ".join(clauses), ["agent_id", "event_id"])
        return [(r["agent_id"], r["event_id"]) for r in rows(table)]

    def _derived_notes(self, purged: set[str], agents: set[str]) -> tuple[set[str], set[str], set[str]]:
        """Notes derived only from purged events, notes that also rest on others, and their projects."""
        doomed: set[str] = set()
        mixed: set[str] = set()
        projects: set[str] = set()
        table = self._t.read("notes", None, ["note_id", "evidence", "source_agents", "owner_agent", "project"])
        for row in rows(table):
            evidence = set(row["evidence"] or [])
            if not evidence & purged or not note_agents(row) & agents:
                continue
            if evidence <= purged:
                doomed.add(row["note_id"])
            else:
                mixed.add(row["note_id"])
            if row["project"]:
                projects.add(row["project"])
        return doomed, mixed - doomed, projects

    def _strip_evidence(self, mixed: set[str], gone: _Gone, principal: str) -> str | None:
        if not mixed:
            return None
        current = self._t.read("notes", f"tombstone = false AND {sql_in('note_id', mixed)}")
        latest = {r["note_id"]: r for r in sorted(rows(current), key=lambda r: r["version"])}
        now = self._clock.now()
        writes = []
        for row in latest.values():
            note = note_from_row(row)
            update = {
                "evidence": [e for e in note.evidence if e not in gone.events],
                "source_sessions": [s for s in note.source_sessions if s not in gone.sessions],
                "source_agents": [a for a in note.source_agents if a not in gone.agents],
                "updated_at": now,
            }
            writes.append(NoteWrite(note.model_copy(update=update), "purge", "evidence purged"))
        batch = self._writer.run("purge", writes, principal=principal)
        self.drop_versions(mixed)
        return batch.batch_id

    def drop_versions(self, note_ids: Iterable[str]) -> None:
        """Delete the earlier views of ``note_ids`` (they may hold purged words)."""
        ids = list(note_ids)
        self._t.write("note_versions", lambda t: t.delete(sql_in("note_id", ids)))

    def _delete_notes(self, note_ids: set[str]) -> None:
        if note_ids:
            for name in ("notes", "note_versions"):
                self._t.write(name, lambda t: t.delete(sql_in("note_id", note_ids)))

    def _delete_events(self, targets: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
        """Delete the events, their vectors and keys (and the keys that quote them); returns the
        emptied sessions and the turns whose key is to be derived again."""
        by_agent: dict[str, list[str]] = {}
        for agent, event in targets:
            by_agent.setdefault(agent, []).append(event)
        touched: set[str] = set()
        rekey: list[tuple[str, str]] = []
        for agent, ids in by_agent.items():
            rekey += [(agent, e) for e in self._keys.delete_for(agent, ids)]
            where = f"agent_id = {sql_str(agent)} AND {sql_in('event_id', ids)}"
            touched.update(r["session_id"] for r in rows(self._t.read("events", where, ["session_id"])))
            self._t.delete("events", where)
            self._t.delete("event_vectors", where)
        emptied = [s for s in touched if self._t["events"].count_rows(f"session_id = {sql_str(s)}") == 0]
        if emptied:
            self._t.write("sessions", lambda t: t.delete(sql_in("session_id", emptied)))
        return sorted(emptied), rekey

    def _delete_graph(self, notes: set[str], sessions: list[str], agents: list[str]) -> None:
        ids = (
            {graph_node_id("note", n) for n in notes} | {graph_node_id("pattern", n) for n in notes}
            | {graph_node_id("session", s) for s in sessions} | {graph_node_id("agent", a) for a in agents}
        )
        if ids:
            self._t.write("graph_nodes", lambda t: t.delete(sql_in("node_id", ids)))
            self._t.write("graph_edges", lambda t: t.delete(f"{sql_in('source', ids)} OR {sql_in('target', ids)}"))
        if notes:
            self._t.write("review_items", lambda t: t.delete(sql_in("pattern_id", notes)))

    def _forget_names(self, projects: set[str]) -> None:
        """Cluster names are words of the notes' statements: those of a project whose notes lost
        evidence go (the next mining run names its clusters again)."""
        if projects:
            self._t.write("mining_names", lambda t: t.delete(sql_in("project", projects)))

    def scrub(self) -> None:
        """Rewrite every fragment holding deleted rows and drop every old version and stray file."""
        for name in self._t.schemas:
            self._t.retried(name, _scrub_table)


def _scrub_table(table: Table) -> None:
    """Rewrite a table's fragments without their deleted rows, then delete every older version and file.
    Another process's commit between the two can conflict: the caller retries the whole of it."""
    table.checkout_latest()
    dataset = table.to_lance()
    dataset.optimize.compact_files(materialize_deletions_threshold=0.0)
    dataset.cleanup_old_versions(older_than=timedelta(0), delete_unverified=True)
    table.checkout_latest()


# --- migration --------------------------------------------------------------------------------
MODULE_KNOWLEDGE = ("constraint", "procedure", "verified_fact")


@dataclass(frozen=True)
class MigrationResult:
    columns_added: list[str]
    moved: list[str]
    batch_id: str | None


def movable(note: Note) -> bool:
    """A personal note that is module knowledge: a constraint, procedure or verified fact of a module,
    neither quarantined nor ever holding personal data."""
    return (
        note.scope.startswith("personal:") and note.type in MODULE_KNOWLEDGE and note.module is not None
        and note.project is not None and note.status not in ("quarantined", "deleted") and "quarantine" not in note.tags
        and "[PII:" not in note.statement
    )


def migrate(tables: Tables, writer: BatchWriter, principal: str = "system") -> MigrationResult:
    """Bring a store to the current schema: add missing note columns, and move personal notes that are
    module knowledge to ``module:<p>/<m>`` as one audited ``migrate`` batch (roll it back to undo)."""
    added = tables.evolve_notes()
    current = [note_from_row(r) for r in rows(tables.read("notes", "tombstone = false"))]
    latest: dict[str, Note] = {}
    for note in sorted(current, key=lambda n: n.version):
        latest[note.note_id] = note
    writes = [
        NoteWrite(n.model_copy(update={"scope": f"module:{n.project}/{n.module}"}), "migrate",
                  f"module knowledge moved from {n.scope} to its module scope", base_version=n.version)
        for n in latest.values() if movable(n)
    ]
    if not writes:
        return MigrationResult(added, [], None)
    batch = writer.run("migrate", writes, principal=principal, stats={"moved": len(writes), "columns_added": added})
    return MigrationResult(added, sorted(w.note.note_id for w in writes), batch.batch_id)
