"""The team graphs the mining service has built, kept until the store changes under them.

Loading a project's graph reads every row of ``graph_nodes`` and ``graph_edges`` and builds a
networkx graph: seconds for a project of thousands of notes, which the explorer and the exports ask
for again and again. A graph is kept with the versions of the three tables its rows depend on
(``graph_nodes``, ``graph_edges`` and ``batches``, whose committed rows decide what is visible);
any write to one of them makes a new version, so a kept graph is used only while it is exactly what
a fresh load would give.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from mining.graph import TeamGraph
from reverie.store import Store

TABLES = ("graph_nodes", "graph_edges", "batches")


class GraphCache:
    def __init__(self, store: Store, size: int = 8) -> None:
        self._store = store
        self._size = size
        self._kept: OrderedDict[Hashable, tuple[tuple[int, ...], TeamGraph]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], TeamGraph]) -> TeamGraph:
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
        return tuple(int(self._store.tables[name].version) for name in TABLES)
