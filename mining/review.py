"""The review queue: patterns that wait for a human before they reach their audience.

An item is opened (by a mining batch) for a pattern supported by a single agent, any ``team``
pattern, a project-wide constraint, and any cluster holding a conflict. One item per pattern
(``r-<pattern id>``); re-mining updates a pending item instead of adding one. Approving makes the
pattern ``active`` and tags it ``reviewed``; rejecting makes it ``rejected`` (mining then leaves it
alone). Each decision is its own audited ``edit`` batch (audit action ``approve`` / ``reject``, the
reviewer as principal) that also updates the pattern's graph node, so rolling the decision back
restores the pending item, the pattern and its node together.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from mining.graph import TEAM_GRAPH, Fragment, GraphRows, names_of_node, pattern_node
from mining.patterns import REVIEWED_TAG
from reverie.errors import ConflictError, NotFoundError, ValidationError
from reverie.ports import ReviewItem
from reverie.records import Batch
from reverie.store import LedgerFilter, NoteWrite, Store, graph_node_id

Decision = Literal["approve", "reject"]


def item_id_for(pattern_id: str) -> str:
    return f"r-{pattern_id}"


def item_from_row(row: dict[str, Any]) -> ReviewItem:
    return ReviewItem(
        item_id=row["item_id"], project=row["project"], pattern_id=row["pattern_id"],
        reasons=list(row["reasons"] or []), status=row["status"], details=json.loads(row["details"] or "{}"),
        run_id=row["run_id"], created_at=row["created_at"], decided_at=row["decided_at"],
        reviewer=row["reviewer"], decision_reason=row["decision_reason"], batch_id=row["batch_id"],
    )


def opened_row(
    old: ReviewItem | None, *, project: str, pattern_id: str, reasons: Sequence[str],
    details: dict[str, Any], run_id: str, at: datetime,
) -> dict[str, Any] | None:
    """The row that opens or refreshes the item of a pattern, or None when nothing would change."""
    if old is not None and old.status != "pending" and not _new_conflicts(old, details):
        return None
    if old is not None and old.status == "pending" and list(old.reasons) == list(reasons) and old.details == details:
        return None
    return {
        "item_id": item_id_for(pattern_id), "project": project, "pattern_id": pattern_id,
        "reasons": list(reasons), "status": "pending", "details": json.dumps(details, sort_keys=True),
        "run_id": run_id, "created_at": old.created_at if old and old.status == "pending" else at,
        "decided_at": None, "reviewer": None, "decision_reason": None,
    }


def _new_conflicts(old: ReviewItem, details: dict[str, Any]) -> bool:
    before = {tuple(p) for p in old.details.get("conflicts", [])}
    return bool({tuple(p) for p in details.get("conflicts", [])} - before)


class ReviewQueue:
    def __init__(self, store: Store) -> None:
        self._store = store

    def items(self, project: str | None = None, status: str | None = "pending") -> list[ReviewItem]:
        found = [item_from_row(r) for r in self._store.reviews.read(LedgerFilter(project=project))]
        return sorted((i for i in found if status is None or i.status == status), key=lambda i: (i.created_at, i.item_id))

    def by_pattern(self, pattern_ids: Sequence[str]) -> dict[str, ReviewItem]:
        if not pattern_ids:
            return {}
        found = self._store.reviews.read(LedgerFilter(pattern_ids=pattern_ids))
        return {r["pattern_id"]: item_from_row(r) for r in found}

    def get(self, item_id: str) -> ReviewItem:
        found = self._store.reviews.read(LedgerFilter(ids=[item_id]))
        if not found:
            raise NotFoundError(f"no review item {item_id!r}; list the review queue to find its id")
        return item_from_row(found[0])

    def decide(self, item_id: str, decision: Decision, *, reason: str, principal: str, at: datetime) -> ReviewItem:
        """Approve or reject a pending item, as one audited edit batch; returns the decided item."""
        item = self.get(item_id)
        _check(item, decision, reason)
        pattern = self._store.notes.get(item.pattern_id)
        if pattern.status not in ("active", "candidate"):
            raise ConflictError(
                f"pattern {pattern.note_id!r} is {pattern.status}; restore it before deciding its review item"
            )
        if decision == "approve":
            tags = sorted({*pattern.tags, REVIEWED_TAG})
            view = pattern.model_copy(update={"status": "active", "tags": tags, "updated_at": at})
        else:
            view = pattern.model_copy(update={"status": "rejected", "updated_at": at, "invalid_at": at})
        row = {
            **_row_of(item), "status": "approved" if decision == "approve" else "rejected",
            "decided_at": at, "reviewer": principal, "decision_reason": reason,
        }
        graph = GraphRows.load(self._store, TEAM_GRAPH if pattern.scope == "team" else item.project)
        node_id = graph_node_id("pattern", pattern.note_id)
        graph.fetch_nodes([node_id])
        fragment = Fragment()
        fragment.node(pattern_node(view, names_of_node(graph.nodes.get(node_id))))  # the decision keeps its names
        nodes, _ = graph.changes(fragment)

        def also(batch: Batch) -> None:
            self._store.reviews.stage(batch, [row])
            self._store.graph_nodes.stage(batch, nodes)

        self._store.batches.run(
            "edit", [NoteWrite(view, decision, reason)], also=also, principal=principal, project=item.project,
            stats={"review_item": item_id, "decision": decision},
        )
        return self.get(item_id)


def _check(item: ReviewItem, decision: str, reason: str) -> None:
    if decision not in ("approve", "reject"):
        raise ValidationError("decision must be 'approve' or 'reject'", field="decision")
    if decision == "reject" and not reason.strip():
        raise ValidationError("a rejection needs a reason; say why the pattern is wrong", field="reason")
    if item.status != "pending":
        raise ConflictError(
            f"review item {item.item_id!r} was already {item.status} by {item.reviewer!r}; "
            "roll that decision's batch back to decide again"
        )


def _row_of(item: ReviewItem) -> dict[str, Any]:
    return {
        "item_id": item.item_id, "project": item.project, "pattern_id": item.pattern_id,
        "reasons": list(item.reasons), "status": item.status, "details": json.dumps(item.details, sort_keys=True),
        "run_id": item.run_id, "created_at": item.created_at, "decided_at": item.decided_at,
        "reviewer": item.reviewer, "decision_reason": item.decision_reason,
    }
