"""One mining run of one project, as a sequence of checkpointed work units.

Units: ``fit`` (read the project's notes, fit the topic model or assign new notes to the stored
one, match clusters to existing patterns, save the plan), then one ``write`` unit per chunk of
clusters (assess each cluster, write its pattern, graph and review rows as one mining batch), then
``team`` (patterns this project shares with other projects become team patterns, for review), then
``refresh`` (bring the graph's note and pattern nodes up to date with edits, supersessions and
reviews made elsewhere), then ``finish``.

Between units the job asks the load signal; at or above ``load_high`` it records its cursor and
stops with status ``yielded`` (the pool resumes it below ``load_low``). Every batch id is
``b-mining-<run id>-<unit>``: a unit whose batch already committed is skipped (its results are
read back from the batch's stats), a half-written one is cleaned and written again, so a run that
was cancelled, crashed or yielded ends exactly as an uninterrupted one. Every time written into
notes and the graph is the run's ``started_at``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import numpy as np
import pyarrow as pa

from mining.corpus import Eligible, eligible_notes, vectors_of
from mining.fits import Fits, ProjectMap, StoredFit
from mining.graph import (
    TEAM_GRAPH,
    Fragment,
    GraphRows,
    add_pattern,
    add_supersession,
    add_team_pattern,
    names_of_node,
    note_node,
    pattern_node,
)
from mining.names import ClusterNames, class_names, name_clusters
from mining.patterns import (
    ClusterKey,
    KnownPattern,
    Member,
    assess,
    draft,
    focus,
    match_patterns,
    pattern_id_for,
    team_groups,
)
from mining.review import ReviewQueue, item_id_for, opened_row
from mining.runs import Plan, PlannedCluster, RunBook, RunState
from mining.topics import topic_model_for
from reverie.records import AuditAction, Batch, Note
from reverie.settings import MiningSettings
from reverie.store import NoteFilter, NoteWrite, Store, graph_node_id
from reverie.store.rows import note_from_row, rows

log = logging.getLogger(__name__)
_RESULT_KEYS = ("promoted", "candidates", "merged", "review")
_NOTE_COLUMNS = [f for f in Note.model_fields if f != "vector"]
class LoadProbe(Protocol):
    def level(self) -> float: ...


class MiningJob:
    def __init__(
        self, store: Store, settings: MiningSettings, run_id: str, load: LoadProbe | None = None,
        *, node_id: str | None = None,
    ) -> None:
        self.store = store
        self.node_id = node_id
        self.settings = settings
        self.run_id = run_id
        self.load = load
        self.runs = RunBook(store)
        self.fits = Fits(store)
        self._eligible: Eligible | None = None
        self._graph: GraphRows | None = None

    # --- the loop -----------------------------------------------------------------------------
    def execute(self) -> RunState:
        state = self.runs.get(self.run_id)
        nodes = sorted({*state.result.get("nodes", []), *([self.node_id] if self.node_id else [])})
        result = {**state.result, "nodes": nodes}
        state = self._save(state, status="running", attempts=state.attempts + 1, error=None, result=result)
        plan = self.runs.plan(self.run_id)
        if plan is not None and state.cursor == 0:  # the fit finished before an interruption
            state = self._save(state, cursor=1, units=self._units(plan), result={**state.result, **_empty_result(plan)})
        while state.cursor == 0 or state.cursor < state.units:
            if self._overloaded():
                log.info("run %s yields at unit %d: load is high", self.run_id, state.cursor)
                return self._save(state, status="yielded")
            state, plan = self._unit(state, plan)
        return self.runs.get(self.run_id)

    def _unit(self, state: RunState, plan: Plan | None) -> tuple[RunState, Plan | None]:
        start = time.perf_counter()
        if state.cursor == 0:
            plan = self._fit(state)
            state = self._save(state, cursor=1, units=self._units(plan), result={**state.result, **_empty_result(plan)})
        else:
            assert plan is not None
            chunks = plan.chunks(self.settings.chunk_clusters)
            index = state.cursor - 1
            if index < len(chunks):
                found = self._write(state, index, chunks[index])
            elif index == len(chunks):
                found = self._team(state)
            elif index == len(chunks) + 1:
                found = self._refresh(state, plan)
            else:
                found = {"status": "committed"}
            state = self._save(state, cursor=state.cursor + 1, **_merge(state, found))
        log.info("run %s unit %d/%d in %.2f s", self.run_id, state.cursor, state.units, time.perf_counter() - start)
        return state, plan

    def fail(self, message: str) -> RunState:
        """Record that the run failed (it keeps its cursor; resuming continues from there)."""
        return self._save(self.runs.get(self.run_id), status="failed", error=message)

    def _units(self, plan: Plan) -> int:
        return 1 + len(plan.chunks(self.settings.chunk_clusters)) + 3

    def _overloaded(self) -> bool:
        return self.load is not None and self.load.level() >= self.settings.load_high

    def _save(self, state: RunState, **changes: Any) -> RunState:
        state = state.model_copy(update={**changes, "updated_at": self.store.now()})
        self.runs.save(state)
        return state

    # --- unit: fit ------------------------------------------------------------------------------
    def _fit(self, state: RunState) -> Plan:
        notes = self.eligible()
        stored = self.fits.load(state.project)
        if self._incremental(state, stored, notes):
            assert stored is not None
            plan, fit, points, names = self._assign(state, stored, notes)
        else:
            plan, fit, points, names = self._full_fit(state, notes)
        self.runs.save_plan(self.run_id, state.project, plan)
        self.fits.save(state.project, fit)
        self.fits.save_map(state.project, points)
        self.fits.save_names(state.project, fit.fit_id, state.started_at, names)
        return plan

    def _names(self, fit: StoredFit, notes: Eligible) -> ClusterNames:
        """Both names of every cluster of the fit, over its members that are still eligible."""
        pairs = [(n, int(label)) for n, label in zip(fit.note_ids, fit.labels.tolist(), strict=True) if n in notes]
        ids = [n for n, _ in pairs]
        scopes = notes.column("scope", ids)
        personal = [s.startswith("personal:") for s in scopes]
        return name_clusters([label for _, label in pairs], notes.column("statement", ids), personal)

    def _incremental(self, state: RunState, stored: StoredFit | None, notes: Eligible) -> bool:
        if state.mode == "full" or stored is None:
            return False
        if state.mode == "incremental":
            return True
        new = len(set(notes.ids) - set(stored.note_ids))
        fresh = state.started_at - stored.fitted_at < self.settings.refit_after
        return fresh and new <= self.settings.refit_fraction * max(1, len(stored.note_ids))

    def _full_fit(self, state: RunState, notes: Eligible) -> tuple[Plan, StoredFit, ProjectMap, ClusterNames]:
        model = topic_model_for(len(notes), self.settings)
        fitted = model.fit(notes.vectors)
        fit = StoredFit(self.run_id, state.started_at, list(notes.ids), fitted.labels, model)
        names = self._names(fit, notes)
        plan = self._plan(state, "full", _group(notes.ids, fitted.labels), notes, names, assigned=0, placed=notes.ids)
        xy = fitted.coordinates
        points = ProjectMap(self.run_id, state.started_at, list(notes.ids), xy[:, 0], xy[:, 1], fitted.labels)
        return plan, fit, points, names

    def _assign(self, state: RunState, stored: StoredFit, notes: Eligible) -> tuple[Plan, StoredFit, ProjectMap, ClusterNames]:
        known = set(stored.note_ids)
        new_ids = [i for i in notes.ids if i not in known]
        placed = stored.model.assign(notes.vectors[[notes.index[n] for n in new_ids]] if new_ids else notes.vectors[:0])
        ids = [*stored.note_ids, *new_ids]
        labels = np.concatenate([stored.labels, placed.labels]).astype(np.int32)
        touched = set(placed.labels.tolist()) - {-1}
        members = {k: v for k, v in _group(ids, labels).items() if k in touched}
        members = {k: [m for m in v if m in notes] for k, v in members.items()}
        fit = StoredFit(stored.fit_id, stored.fitted_at, ids, labels, stored.model)
        names = self._names(fit, notes)
        plan = self._plan(state, "incremental", members, notes, names, assigned=len(new_ids), placed=new_ids)
        points = self._extend_map(state, stored, new_ids, placed.coordinates, placed.labels)
        return plan, fit, points, names

    def _extend_map(
        self, state: RunState, stored: StoredFit, new_ids: list[str], xy: np.ndarray, labels: np.ndarray,
    ) -> ProjectMap:
        old = self.fits.map(state.project)
        if old is None:
            return ProjectMap(stored.fit_id, state.started_at, new_ids, xy[:, 0], xy[:, 1], labels)
        return ProjectMap(
            stored.fit_id, state.started_at, [*old.note_ids, *new_ids], np.concatenate([old.x, xy[:, 0]]),
            np.concatenate([old.y, xy[:, 1]]), np.concatenate([old.labels, labels]),
        )

    def _plan(
        self, state: RunState, mode: str, members: dict[int, list[str]], notes: Eligible, names: ClusterNames,
        *, assigned: int, placed: Sequence[str],
    ) -> Plan:
        """Clusters focused on one topic and matched to existing patterns; ``placed`` notes outside them are noise."""
        index = notes.index
        keys = []
        for label, ids in sorted(members.items()):
            vectors = notes.vectors[[index[i] for i in ids]]
            s = self.settings
            kept = focus(vectors, s.topic_similarity, s.medoid_similarity, s.min_cluster_size) if ids else np.zeros(0, bool)
            ids = [i for i, k in zip(ids, kept, strict=True) if k]
            if ids:
                centroid = vectors[kept].mean(axis=0)
                keys.append(ClusterKey(f"c{label:05d}", frozenset(ids), centroid / max(np.linalg.norm(centroid), 1e-12)))
        matched = match_patterns(keys, self._known_patterns(state.project), self.settings.pattern_merge_similarity)
        every, shared = names.for_reader(personal=True), names.for_reader(personal=False)
        clusters = [
            PlannedCluster(key=k.key, label=int(k.key[1:]), members=sorted(k.members),
                           pattern_id=matched.get(k.key) or pattern_id_for(state.project, k.members),
                           name=every.get(int(k.key[1:])), shared_name=shared.get(int(k.key[1:])))
            for k in keys
        ]
        clustered = {m for c in clusters for m in c.members}
        noise = sum(1 for n in placed if n not in clustered)
        return Plan(mode=mode, fit_id=self.run_id, notes=len(notes.ids), assigned=assigned, noise=noise, clusters=clusters)  # type: ignore[arg-type]

    def _known_patterns(self, project: str) -> list[KnownPattern]:
        table = self.store.notes.frame(NoteFilter(project=project, types=["pattern"]), columns=["note_id", "vector"])
        supports = self.graph(project).supports()
        vectors = vectors_of(table, self.store.tables.spec.dim)
        return [
            KnownPattern(
                pid,
                frozenset(n.removeprefix("note:") for n in supports.get(graph_node_id("pattern", pid), set())),
                np.asarray(vectors[i]),
            )
            for i, pid in enumerate(table["note_id"].to_pylist())
        ]

    # --- unit: write a chunk of clusters ------------------------------------------------------
    def _write(self, state: RunState, index: int, chunk: Sequence[PlannedCluster]) -> dict[str, Any]:
        batch_id = f"b-mining-{self.run_id}-w{index + 1:04d}"
        done = self._committed(batch_id)
        if done is not None:
            return done
        notes = self.eligible()
        patterns = self.store.notes.get_many([c.pattern_id for c in chunk])
        items = ReviewQueue(self.store).by_pattern([c.pattern_id for c in chunk])
        graph = self.graph(state.project)
        writes: list[NoteWrite] = []
        reviews: list[dict[str, Any]] = []
        fragment = Fragment()
        found: dict[str, list[str]] = {k: [] for k in _RESULT_KEYS}
        views = notes.notes([m for c in chunk for m in c.members])
        for cluster in chunk:
            members = [Member(views[m], notes.vectors[notes.index[m]]) for m in cluster.members if m in views]
            if not members:
                continue
            pid = cluster.pattern_id
            step = self._cluster(state, cluster, members, patterns.get(pid), items.get(pid), fragment)
            writes.extend(step.writes)
            reviews.extend(step.reviews)
            for key, values in step.found.items():
                found[key].extend(values)
        nodes, edges = graph.changes(fragment)
        self._commit(state, batch_id, writes, graph, (nodes, edges), reviews, found)
        return found

    def _cluster(
        self, state: RunState, cluster: PlannedCluster, members: list[Member], existing: Note | None,
        item: Any, fragment: Fragment,
    ) -> _Step:
        found = assess(state.project, members, existing, self.settings)
        result = draft(cluster.pattern_id, state.project, members, found, existing, state.started_at)
        view = result.note or existing
        step = _Step([], [], {k: [] for k in _RESULT_KEYS})
        if view is None or (result.note is None and existing is not None and existing.status not in ("active", "candidate")):
            return step
        if result.note is not None:
            action, key = _action(result.note, existing)
            reason = _reason(found)
            step.writes.append(NoteWrite(result.note, action, reason, result.vector))
            step.found[key].append(result.note.note_id)
        add_pattern(fragment, view, [m.note for m in members], found.conflicts, state.started_at,
                    names=(cluster.name, cluster.shared_name))
        if result.needs_review:
            row = opened_row(item, project=state.project, pattern_id=view.note_id, reasons=found.reasons,
                             details=_details(found, members), run_id=self.run_id, at=state.started_at)
            if row is not None:
                step.reviews.append(row)
                step.found["review"].append(item_id_for(view.note_id))
        return step

    def _commit(
        self, state: RunState, batch_id: str, writes: list[NoteWrite], graph: GraphRows,
        rows_: tuple[list[dict], list[dict]], reviews: list[dict], found: dict[str, Any],
    ) -> None:
        nodes, edges = rows_
        if not (writes or nodes or edges or reviews):
            return

        def also(batch: Batch) -> None:
            self.store.graph_nodes.stage(batch, nodes)
            self.store.graph_edges.stage(batch, edges)
            self.store.reviews.stage(batch, reviews)

        self.store.batches.run(
            "mining", writes, also=also, batch_id=batch_id, project=state.project, principal=state.principal,
            stats={"run_id": self.run_id, "found": found, "nodes": len(nodes), "edges": len(edges)},
        )
        graph.apply(nodes, edges)

    def _committed(self, batch_id: str) -> dict[str, Any] | None:
        batch = self.store.batches.find(batch_id)
        if batch is None or batch.status not in ("committed", "rolled_back"):
            return None
        return dict(batch.stats.get("found", {}))

    # --- unit: patterns that recur across projects --------------------------------------------
    def _team(self, state: RunState) -> dict[str, Any]:
        """Each pattern of this project that other projects share becomes (or feeds) a team pattern.

        Team patterns always wait for a reviewer. Their graph rows are kept under ``TEAM_GRAPH``.
        """
        batch_id = f"b-mining-{self.run_id}-team"
        done = self._committed(batch_id)
        if done is not None:
            return done
        mine, others = self._shared_patterns(state.project)
        groups = team_groups(mine, others, self.settings.pattern_merge_similarity)
        if not groups:
            return {}
        graph = GraphRows.load(self.store, TEAM_GRAPH)
        ids = self._team_ids(groups, graph)
        existing = self.store.notes.get_many(ids)
        items = ReviewQueue(self.store).by_pattern(ids)
        fragment = Fragment()
        step = _Step([], [], {k: [] for k in _RESULT_KEYS})
        names = class_names({i: [m.note.statement for m in group] for i, group in enumerate(groups)})  # all shared notes
        for i, (group, pattern_id) in enumerate(zip(groups, ids, strict=True)):
            self._team_pattern(
                state, group, pattern_id, existing.get(pattern_id), items.get(pattern_id), fragment, step, names.get(i),
            )
        self._commit(state, batch_id, step.writes, graph, graph.changes(fragment), step.reviews, step.found)
        return step.found

    def _shared_patterns(self, project: str) -> tuple[list[Member], list[Member]]:
        table = self.store.notes.frame(NoteFilter(types=["pattern"], statuses=["active", "candidate"], exclude_scopes=["team"]))
        vectors = vectors_of(table, self.store.tables.spec.dim)
        members = [Member(note_from_row(r), np.asarray(vectors[i])) for i, r in enumerate(rows(table.drop_columns(["vector"])))]
        return [m for m in members if m.note.project == project], [m for m in members if m.note.project != project]

    def _team_ids(self, groups: list[list[Member]], graph: GraphRows) -> list[str]:
        supports = {
            target.removeprefix("pattern:"): {s.removeprefix("pattern:") for s in sources}
            for target, sources in graph.supports().items()
        }
        known = self.store.notes.get_many(list(supports), with_vector=True)
        keys = [
            ClusterKey(f"t{i:05d}", frozenset(m.note.note_id for m in g), _centroid([m.vector for m in g]))
            for i, g in enumerate(groups)
        ]
        matched = match_patterns(keys, [
            KnownPattern(pid, frozenset(supports[pid]), np.asarray(note.vector, dtype=np.float32))
            for pid, note in known.items() if note.vector is not None
        ], self.settings.pattern_merge_similarity)
        return [matched.get(k.key) or pattern_id_for("team", k.members) for k in keys]

    def _team_pattern(
        self, state: RunState, group: list[Member], pattern_id: str, existing: Note | None, item: Any,
        fragment: Fragment, step: _Step, name: str | None,
    ) -> None:
        found = assess(state.project, group, existing, self.settings)
        result = draft(pattern_id, state.project, group, found, existing, state.started_at)
        fresh = result.note.model_copy(update={"project": None, "module": None}) if result.note else None
        if fresh is not None:
            action, key = _action(fresh, existing)
            step.writes.append(NoteWrite(fresh, action, _reason(found), result.vector))
            step.found[key].append(fresh.note_id)
        view = fresh or existing
        if view is None or view.status not in ("active", "candidate"):
            return
        add_team_pattern(fragment, view, [m.note for m in group], found.conflicts, state.started_at, names=(name, name))
        if result.needs_review:
            details = {**_details(found, group), "projects": sorted({m.note.project for m in group if m.note.project})}
            row = opened_row(item, project=state.project, pattern_id=view.note_id, reasons=found.reasons,
                             details=details, run_id=self.run_id, at=state.started_at)
            if row is not None:
                step.reviews.append(row)
                step.found["review"].append(item_id_for(view.note_id))

    # --- unit: refresh the graph's view of notes changed elsewhere ------------------------------
    def _refresh(self, state: RunState, plan: Plan) -> dict[str, Any]:
        """Full runs look at every note of the graph; incremental ones at notes that batches
        committed since the previous run touched (edits, supersessions, deletions, rollbacks)."""
        batch_id = f"b-mining-{self.run_id}-refresh"
        done = self._committed(batch_id)
        if done is not None:
            return done
        graph = self.graph(state.project)
        since = self._previous_start(state) if plan.mode == "incremental" else None
        touched = None if since is None else self._touched_since(since)
        fragment = Fragment()
        notes = self._project_notes(state.project, graph, touched)
        listed = set(graph.nodes)
        for note in notes:
            self._refresh_note(graph, fragment, note, listed, state.started_at)
        self._commit(state, batch_id, [], graph, graph.changes(fragment), [], {})
        return {}

    def _previous_start(self, state: RunState) -> datetime | None:
        earlier = [r for r in self.runs.list(state.project, {"committed"}) if r.run_id != state.run_id]
        return earlier[-1].started_at if earlier else None

    def _touched_since(self, since: datetime) -> set[str]:
        batches = self.store.batches.list(statuses=["committed", "rolled_back"])
        return {n for b in batches if b.committed_at is not None and b.committed_at >= since for n in b.note_ids}

    def _refresh_note(self, graph: GraphRows, fragment: Fragment, note: Note, listed: set[str], at: datetime) -> None:
        if note.type == "pattern":
            node_id = graph_node_id("pattern", note.note_id)
            fragment.node(pattern_node(note, names_of_node(graph.nodes.get(node_id))))
            return
        node = note_node(note)
        fragment.node(node)
        add_supersession(fragment, note, listed, at)
        if node.invalid_at is not None:
            for edge in graph.invalidate_edges_from(node.node_id, node.invalid_at):
                fragment.edge(edge)

    def _project_notes(self, project: str, graph: GraphRows, only: set[str] | None) -> list[Note]:
        """Patterns in the graph, and notes in it whose status changed or that were superseded
        (among ``only``, when given), with the graph rows of them and of their winners fetched."""
        among = None if only is None else sorted(only)
        table = self.store.notes.frame(NoteFilter(project=project, note_ids=among), columns=_NOTE_COLUMNS)
        kinds = table["type"].to_pylist()
        ids = [
            graph_node_id("pattern" if k == "pattern" else "note", i)
            for i, k in zip(table["note_id"].to_pylist(), kinds, strict=True)
        ]
        winners = [graph_node_id("note", w) for w in table["superseded_by"].to_pylist() if w]
        if only is None:
            graph.nodes_of(("note", "pattern"))
        else:
            graph.fetch_nodes([*ids, *winners])
        keep = [
            _stale(graph.nodes.get(node), kind, status, winner)
            for node, kind, status, winner in zip(
                ids, kinds, table["status"].to_pylist(), table["superseded_by"].to_pylist(), strict=True,
            )
        ]
        return [note_from_row(r) for r in rows(table.filter(pa.array(keep, type=pa.bool_())))]

    # --- cached reads -------------------------------------------------------------------------
    def eligible(self) -> Eligible:
        if self._eligible is None:
            self._eligible = eligible_notes(self.store, self.runs.get(self.run_id).project)
        return self._eligible

    def graph(self, project: str) -> GraphRows:
        if self._graph is None:
            self._graph = GraphRows.load(self.store, project)
        return self._graph


@dataclass
class _Step:
    writes: list[NoteWrite]
    reviews: list[dict[str, Any]]
    found: dict[str, list[str]]


def _centroid(vectors: Sequence[np.ndarray]) -> np.ndarray:
    total = np.sum(vectors, axis=0)
    return total / max(float(np.linalg.norm(total)), 1e-12)


def _stale(node: dict[str, Any] | None, kind: str, status: str, winner: str | None) -> bool:
    """Whether a note's graph node may be out of date (patterns are always looked at: they are few)."""
    if node is None:
        return False
    return kind == "pattern" or winner is not None or json.loads(node["attrs"] or "{}").get("status") != status


def _group(ids: Sequence[str], labels: np.ndarray) -> dict[int, list[str]]:
    groups: dict[int, list[str]] = {}
    for note_id, label in zip(ids, labels.tolist(), strict=True):
        if label >= 0:
            groups.setdefault(int(label), []).append(note_id)
    return groups


def _action(view: Note, existing: Note | None) -> tuple[AuditAction, str]:
    """The audit action of a pattern write and where the run reports it."""
    if view.status == "active" and (existing is None or existing.status != "active"):
        return "promote", "promoted"
    if view.status == "candidate":
        return ("add" if existing is None else "merge"), "candidates"
    return "merge", "merged"


def _reason(found: Any) -> str:
    why = ", ".join(found.reasons) or "promotion rule met"
    return (f"{found.decision}: {len(found.sessions)} sessions, {len(found.agents)} agents, "
            f"cohesion {found.cohesion:.2f}, closeness {found.closeness:.2f} ({why})")


def _details(found: Any, members: Sequence[Member]) -> dict[str, Any]:
    return {
        "notes": sorted(m.note.note_id for m in members), "sessions": list(found.sessions),
        "agents": list(found.agents), "scope": found.scope, "cohesion": round(found.cohesion, 4),
        "closeness": round(found.closeness, 4),
        "conflicts": [list(p) for p in found.conflicts],
    }


def _empty_result(plan: Plan) -> dict[str, Any]:
    return {
        **{k: [] for k in _RESULT_KEYS},
        "stats": {"mode": plan.mode, "notes": plan.notes, "clusters": len(plan.clusters),
                  "assigned": plan.assigned, "noise": plan.noise},
    }


def _merge(state: RunState, found: dict[str, Any]) -> dict[str, Any]:
    result = dict(state.result)
    for key in _RESULT_KEYS:
        result[key] = sorted({*result.get(key, []), *found.get(key, [])})
    changes: dict[str, Any] = {"result": result}
    if found.get("status") == "committed":
        changes["status"] = "committed"
    return changes

