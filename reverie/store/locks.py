"""A lease lock in a LanceDB row, for the short critical section of a batch commit.

A conditional ``merge_insert`` update is a compare-and-swap under concurrent writers (measured: 4
processes, every success counted exactly once). The lease uses the wall clock, never an injected
clock, and expires so a crashed holder cannot block the store.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pyarrow as pa

from reverie.errors import CommitError
from reverie.store.tables import Tables, sql_str


class LeaseLock:
    def __init__(self, tables: Tables, name: str = "commit", lease_seconds: float = 60.0, wait_seconds: float = 60.0) -> None:
        self._t = tables
        self._name = name
        self._lease_ns = int(lease_seconds * 1e9)
        self._wait = wait_seconds

    @contextmanager
    def held(self, holder: str) -> Iterator[None]:
        self.acquire(holder)
        try:
            yield
        finally:
            self.release(holder)

    def acquire(self, holder: str) -> None:
        deadline = time.monotonic() + self._wait
        delay = 0.002
        while not self._swap(holder, f"target.holder IS NULL OR target.expires_ns < {time.time_ns()}"):
            if time.monotonic() > deadline:
                raise CommitError(
                    f"the {self._name!r} lock stayed busy for {self._wait:.0f} s; another writer holds "
                    "it; retry, and check for a stuck writer if it persists"
                )
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 0.2)

    def release(self, holder: str) -> None:
        self._swap(None, f"target.holder = {sql_str(holder)}")

    def _swap(self, holder: str | None, guard: str) -> bool:
        expires = time.time_ns() + self._lease_ns if holder else 0
        row = pa.Table.from_pylist(
            [{"name": self._name, "holder": holder, "expires_ns": expires}], schema=self._t.schemas["locks"]
        )
        result = self._t.write("locks", lambda t: t.merge_insert("name").when_matched_update_all(where=guard).execute(row))
        return result.num_updated_rows == 1
