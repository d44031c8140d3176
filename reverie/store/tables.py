"""The LanceDB connection: opens or creates every table, refuses a foreign embedder, retries commits."""

from __future__ import annotations

import logging
import random
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from typing import Any, TypeVar

import lancedb
import pyarrow as pa
from lancedb.table import Table

from reverie.embed import EmbedderSpec
from reverie.errors import CommitError, EmbedderMismatchError, StoreError
from reverie.schemas import (
    EMBEDDER_DIM_KEY,
    EMBEDDER_NAME_KEY,
    FIXED_TABLES,
    NOTE_COLUMNS_ADDED,
    event_vectors_schema,
    note_versions_schema,
    notes_schema,
    turn_keys_schema,
)
from reverie.settings import StoreSettings

log = logging.getLogger(__name__)
T = TypeVar("T")
EVENT_LOCK_STRIPES = 16
LOCK_NAMES = ("commit", *(f"events-{i:02d}" for i in range(EVENT_LOCK_STRIPES)))
_SEED_ROWS = {"locks": [{"name": name, "holder": None, "expires_ns": 0} for name in LOCK_NAMES]}
_RETRYABLE = ("commit conflict", "retryable", "conflict", "too many concurrent")
_REPLACE_CHUNK = 200  # rows per delete predicate


def sql_str(value: str) -> str:
    """A SQL string literal; ids are validated already, quotes are doubled anyway."""
    return "'" + value.replace("'", "''") + "'"


def sql_in(column: str, values: Iterable[str]) -> str:
    items = sorted(set(values))
    if not items:
        return "false"
    return f"{column} IN ({', '.join(sql_str(v) for v in items)})"


class Tables:
    """Handles of every table of one store, plus the retry and write-count bookkeeping."""

    def __init__(self, settings: StoreSettings, spec: EmbedderSpec) -> None:
        self.settings = settings
        self.spec = spec
        self.db = self._connect()
        self.schemas = {
            **FIXED_TABLES,
            "notes": notes_schema(spec.name, spec.dim),
            "note_versions": note_versions_schema(spec.dim),
            "event_vectors": event_vectors_schema(spec.dim),
            "turn_keys": turn_keys_schema(spec.dim),
        }
        self._handles: dict[str, Table] = {}
        self.writes_since_compaction: dict[str, int] = {}
        for name in self.schemas:
            self._handles[name] = self._open_or_create(name)
        self._check_embedder()
        self.evolve_notes()

    def evolve_notes(self) -> list[str]:
        """Add the note columns a store of an older schema lacks (their defaults fill old rows) and
        write notes in the column order the table has; returns the columns added."""
        table = self._handles["notes"]
        missing = [c for c in NOTE_COLUMNS_ADDED if c not in table.schema.names]
        if missing:
            try:
                _add_columns(table, missing)
            except Exception as exc:  # noqa: BLE001 - another process added them meanwhile
                table.checkout_latest()
                if any(c not in table.schema.names for c in missing):
                    raise StoreError(
                        f"could not add the columns {missing} to the notes of {self.settings.uri!r} "
                        f"({type(exc).__name__}); run `reverie store migrate --data PATH` with the service stopped"
                    ) from exc
            log.info("notes of %s: added columns %s (schema evolution)", self.settings.uri, missing)
        ours = self.schemas["notes"]
        order = table.schema.names
        if order != ours.names and set(order) == set(ours.names):
            self.schemas["notes"] = pa.schema([ours.field(n) for n in order], metadata=ours.metadata)
        return missing

    def _connect(self) -> lancedb.DBConnection:
        interval = timedelta(seconds=self.settings.read_consistency_seconds)
        try:
            return lancedb.connect(
                self.settings.uri,
                read_consistency_interval=interval,
                storage_options=self.settings.storage_options or None,
            )
        except Exception as exc:  # lancedb raises several types for a bad URI
            raise StoreError(
                f"cannot open the store at {self.settings.uri!r} ({type(exc).__name__}); check "
                "REVERIE_STORE__URI and, for object storage, REVERIE_STORE__STORAGE_OPTIONS"
            ) from exc

    def _open_or_create(self, name: str) -> Table:
        existing = set(self.db.list_tables().tables)
        if name in existing:
            return self.db.open_table(name)
        try:
            seed = _SEED_ROWS.get(name)
            if seed is not None:  # created with its rows in one commit: they exist exactly once
                return self.db.create_table(name, pa.Table.from_pylist(seed, schema=self.schemas[name]))
            return self.db.create_table(name, schema=self.schemas[name])
        except ValueError:  # another process created it between the listing and here
            return self.db.open_table(name)

    def _check_embedder(self) -> None:
        meta = self._handles["notes"].schema.metadata or {}
        name = meta.get(EMBEDDER_NAME_KEY, b"").decode()
        dim = meta.get(EMBEDDER_DIM_KEY, b"0").decode()
        if name != self.spec.name or dim != str(self.spec.dim):
            raise EmbedderMismatchError(
                f"the store at {self.settings.uri!r} was built with embedder {name!r} "
                f"(dim {dim}) but this process uses {self.spec.name!r} (dim {self.spec.dim}); "
                "open it with the same REVERIE_EMBEDDING__PROVIDER, or run `reverie reembed` "
                "to rewrite every vector"
            )

    def __getitem__(self, name: str) -> Table:
        return self._handles[name]

    def write(self, name: str, action: Callable[[Table], T]) -> T:
        """Run one write with retries on commit conflicts; raises CommitError if it never commits."""
        result = self.retried(name, action)
        self.writes_since_compaction[name] = self.writes_since_compaction.get(name, 0) + 1
        if self.writes_since_compaction[name] >= self.settings.compact_every_writes:
            self.compact(name)
        return result

    def retried(self, name: str, action: Callable[[Table], T]) -> T:
        """Run ``action`` on a table, again after a backoff each time another writer's commit conflicts
        with it; raises CommitError if it never commits."""
        table = self._handles[name]
        attempts = max(1, self.settings.commit_retries)
        for attempt in range(attempts):
            try:
                result = action(table)
            except Exception as exc:  # noqa: BLE001 - classified below, re-raised if not retryable
                if not _is_retryable(exc) or attempt == attempts - 1:
                    if _is_retryable(exc):
                        raise CommitError(
                            f"a write to table {name!r} conflicted {attempts} times and did not "
                            "commit; nothing of it was acknowledged; retry the request"
                        ) from exc
                    raise
                self._backoff(attempt)
                continue
            return result
        raise AssertionError("unreachable")

    def compact(self, name: str, keep: timedelta | None = None) -> bool:
        """Merge small fragments and drop versions older than ``keep``; best effort, retried later."""
        keep = self.settings.keep_versions_for if keep is None else keep
        try:
            with warnings.catch_warnings():
                # The retention is chosen on purpose; lancedb warns whenever it is short.
                warnings.filterwarnings("ignore", message=r"optimize\(cleanup_older_than", category=UserWarning)
                self._handles[name].optimize(cleanup_older_than=keep)
        except Exception as exc:  # noqa: BLE001 - a conflict with another writer: try again later
            log.warning("compaction of %s deferred (%s)", name, type(exc).__name__)
            return False
        self.writes_since_compaction[name] = 0
        return True

    def _backoff(self, attempt: int) -> None:
        base = self.settings.retry_base_seconds * (2 ** min(attempt, 6))
        time.sleep(base * (0.5 + random.random()))

    def read(self, name: str, where: str | None = None, columns: list[str] | None = None) -> pa.Table:
        query = self._handles[name].search()
        if where:
            query = query.where(where)
        if columns:
            query = query.select(columns)
        return query.limit(None).to_arrow()

    def replace_rows(self, name: str, key: Sequence[str], data: pa.Table) -> None:
        """Delete the rows ``data`` replaces (matched on the ``key`` columns), then append ``data``."""
        keys = data.select(list(key)).to_pylist()
        for start in range(0, len(keys), _REPLACE_CHUNK):
            self.delete(name, " OR ".join(_row_predicate(k) for k in keys[start:start + _REPLACE_CHUNK]))
        self.write(name, lambda t: t.add(data))

    def delete(self, name: str, where: str) -> None:
        """Delete the rows of table ``name`` matching ``where``, as one write (with retries)."""
        self.write(name, lambda t: t.delete(where))


def _row_predicate(key: dict[str, Any]) -> str:
    parts = []
    for column, value in key.items():
        if value is None:
            parts.append(f"{column} IS NULL")
        elif isinstance(value, str):
            parts.append(f"{column} = {sql_str(value)}")
        else:
            parts.append(f"{column} = {int(value)}")
    return "(" + " AND ".join(parts) + ")"


def _is_retryable(exc: Exception) -> bool:
    text = str(exc).lower()
    return any(marker in text for marker in _RETRYABLE)


def _add_columns(table: Table, names: list[str]) -> None:
    """Add note columns: SQL-filled ones in one call, all-null list columns by their Arrow field."""
    sql = {c: NOTE_COLUMNS_ADDED[c] for c in names if isinstance(NOTE_COLUMNS_ADDED[c], str)}
    fields = [NOTE_COLUMNS_ADDED[c] for c in names if not isinstance(NOTE_COLUMNS_ADDED[c], str)]
    if sql:
        table.add_columns(sql)
    if fields:
        table.add_columns(pa.schema(fields))
