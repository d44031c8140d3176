"""Results computed from the store (team graphs, maps, their JSON), kept until the store changes.

Loading a project's graph reads every row of ``graph_nodes`` and ``graph_edges`` and builds a
networkx graph: seconds for a project of thousands of notes, which the explorer and the exports ask
for again and again. A result is kept with the versions of the tables it was read from (for a
graph: ``graph_nodes``, ``graph_edges`` and ``batches``, whose committed rows decide what is
visible); any write to one of them makes a new version, so a kept result is used only while it is
exactly what a fresh read would give. Reading the versions costs about a millisecond.

One build per key at a time: a caller that finds the same key being built at the same versions
(a background pass building it ahead of the explorer, or another request) waits for that build
instead of starting a second one; if the store has changed since that build started, it builds its
own, so waiting never hands back a result older than what the caller would have read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

from reverie.store.tables import Tables

GRAPH_TABLES = ("graph_nodes", "graph_edges", "batches")
MAP_TABLES = ("mining_maps", "mining_names", "notes", "graph_edges", "batches")
T = TypeVar("T")


class _Build(Generic[T]):
    """A build of one key in progress, at the versions it started from; others wait on it."""

    def __init__(self, versions: tuple[int, ...]) -> None:
        self.versions = versions
        self._done = threading.Event()
        self._value: T | None = None
        self._ok = False

    def finish(self, value: T) -> None:
        self._value, self._ok = value, True
        self._done.set()

    def fail(self) -> None:
        self._done.set()

    def wait(self) -> tuple[bool, T | None]:
        """(True, its result) once it is built; (False, None) if the build raised."""
        self._done.wait()
        return self._ok, self._value


class StoreCache(Generic[T]):
    """At most ``size`` results, each kept with the versions of ``tables`` it was built at."""

    def __init__(self, tables: Tables, names: Sequence[str], size: int = 8) -> None:
        self._tables_of = tables
        self._tables = tuple(names)
        self._size = size
        self._kept: OrderedDict[Hashable, tuple[tuple[int, ...], T]] = OrderedDict()
        self._building: dict[Hashable, _Build[T]] = {}
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return self._size

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The result kept under ``key`` if the tables are unchanged since, else ``build()`` (kept),
        or the result of the build of ``key`` already running at these versions."""
        while True:
            versions = self.versions()
            with self._lock:
                found = self._kept.get(key)
                if found is not None and found[0] == versions:
                    self._kept.move_to_end(key)
                    return found[1]
                running = self._building.get(key)
                if running is None or running.versions != versions:
                    mine = self._building[key] = _Build[T](versions)
                    break
            built, value = running.wait()
            if built:
                return value  # type: ignore[return-value]  # finished: a T
        return self._build(key, build, mine)

    def holds(self, key: Hashable) -> bool:
        """Whether a result for ``key`` is kept and still what a fresh read would give."""
        versions = self.versions()
        with self._lock:
            found = self._kept.get(key)
            return found is not None and found[0] == versions

    def _build(self, key: Hashable, build: Callable[[], T], mine: _Build[T]) -> T:
        try:
            value = build()
        except BaseException:
            self._settle(key, mine)
            mine.fail()  # whoever waited on it builds for themselves
            raise
        # written to while building: hand it back, but do not keep what may be stale
        self._settle(key, mine, (value,) if self.versions() == mine.versions else None)
        mine.finish(value)
        return value

    def _settle(self, key: Hashable, mine: _Build[T], kept: tuple[T] | None = None) -> None:
        """Keep ``kept`` (if any) and mark the build of ``key`` done, at once for other callers."""
        with self._lock:
            if kept is not None:
                self._kept[key] = (mine.versions, kept[0])
                self._kept.move_to_end(key)
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
            if self._building.get(key) is mine:
                del self._building[key]

    def versions(self) -> tuple[int, ...]:
        """The versions of the tables results are kept against (they change with every write)."""
        return tuple(int(self._tables_of[name].version) for name in self._tables)
