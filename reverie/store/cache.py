"""Results computed from the store (team graphs, maps, their JSON), kept until the store changes.

Loading a project's graph reads every row of ``graph_nodes`` and ``graph_edges`` and builds a
networkx graph: seconds for a project of thousands of notes, which the explorer and the exports ask
for again and again. A result is kept with the versions of the tables it was read from (for a
graph: ``graph_nodes``, ``graph_edges`` and ``batches``, whose committed rows decide what is
visible); any write to one of them makes a new version, so a kept result is used only while it is
exactly what a fresh read would give. Reading the versions costs about a millisecond.
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


class StoreCache(Generic[T]):
    """At most ``size`` results, each kept with the versions of ``tables`` it was built at."""

    def __init__(self, tables: Tables, names: Sequence[str], size: int = 8) -> None:
        self._tables_of = tables
        self._tables = tuple(names)
        self._size = size
        self._kept: OrderedDict[Hashable, tuple[tuple[int, ...], T]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The graph kept under ``key`` if the tables are unchanged since, else ``build()`` (kept)."""
        versions = self._versions()
        with self._lock:
            found = self._kept.get(key)
            if found is not None and found[0] == versions:
                self._kept.move_to_end(key)
                return found[1]
        graph = build()
        if self._versions() != versions:  # written to while building: do not keep what may be stale
            return graph
        with self._lock:
            self._kept[key] = (versions, graph)
            self._kept.move_to_end(key)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return graph

    def _versions(self) -> tuple[int, ...]:
        return tuple(int(self._tables_of[name].version) for name in self._tables)
