"""Tables of rows keyed by one column, each row replaced whole by a merge on its key: mining runs and
plans (by ``run_id``), the last fit, map and cluster names of each project (by ``project``) and the
retrieval log (by ``retrieval_id``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from reverie.store.rows import rows
from reverie.store.tables import Tables, sql_str
from reverie.store.where import Clause, all_of, among, equal, is_null

KEYED_TABLES = {
    "mining_runs": "run_id", "mining_plans": "run_id", "mining_models": "project", "mining_maps": "project",
    "mining_names": "project",
}


@dataclass(frozen=True)
class RowFilter:
    """Conditions on a keyed table's rows, on the columns it has; ``None`` means any."""

    project: str | None = None
    projects: Iterable[str] | None = None
    statuses: Iterable[str] | None = None

    def where(self) -> Clause:
        return all_of(equal("project", self.project), among("project", self.projects), among("status", self.statuses))


class KeyedRows:
    def __init__(self, tables: Tables, name: str, key: str) -> None:
        self._t = tables
        self.name = name
        self.key = key

    def get(self, value: str) -> dict[str, Any] | None:
        """The row whose key is ``value``, if there is one."""
        found = rows(self._t.read(self.name, equal(self.key, value)))
        return found[0] if found else None

    def select(self, where: RowFilter | None = None, columns: list[str] | None = None) -> pa.Table:
        return self._t.read(self.name, (where or RowFilter()).where(), columns)

    def count(self, where: RowFilter | None = None) -> int:
        return self._t[self.name].count_rows((where or RowFilter()).where())

    def upsert(self, new_rows: Sequence[dict[str, Any]]) -> None:
        """Insert each row, or replace the stored row of its key."""
        data = pa.Table.from_pylist(list(new_rows), schema=self._t.schemas[self.name])
        self._t.write(self.name, lambda t: (
            t.merge_insert(self.key).when_matched_update_all().when_not_matched_insert_all().execute(data)
        ))


class RetrievalRows(KeyedRows):
    """The retrieval log: what each retrieval returned, and the feedback given on it."""

    def __init__(self, tables: Tables) -> None:
        super().__init__(tables, "retrievals", "retrieval_id")

    def with_feedback(self, projects: Iterable[str] | None, columns: list[str] | None = None) -> pa.Table:
        """Retrievals of ``projects`` (``None``: of all) that got feedback."""
        where = all_of(is_null("feedback_at", False), among("project", projects))
        return self._t.read(self.name, where, columns)

    def delete_of_agent(self, agent_id: str) -> None:
        where = f"agent_id = {sql_str(agent_id)}"
        self._t.write(self.name, lambda t: t.delete(where))
