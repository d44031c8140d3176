"""Build the explorer's views (team graph, map) ahead of the requests, on a low-priority thread.

The explorer's first visit asks for a project's graph and map at once; built on request they take
seconds at thousands of notes under load. The mining service keeps them (``reverie.store.cache``)
until the tables under them change, so this thread looks at those tables' versions every
``every_seconds`` (or at once when nudged: a review decision) and, when they moved (a committed run,
a decision, a rollback or purge written by another process, a consolidation batch), calls ``build``
to put fresh views in the cache. It runs once at start. A request that arrives during a pass waits
for the view being built (the cache builds each key once) and never gets one older than the store.

The thread asks the OS for the lowest priority (Linux applies ``nice`` per thread), so a pass takes
only the CPU that runs and requests leave; a failed pass is logged and the next change retries.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Hashable

log = logging.getLogger(__name__)
LOWEST = 19  # nice value


class Prebuilder:
    """Calls ``build()`` at start and whenever ``versions()`` differs from the last pass's."""

    def __init__(self, versions: Callable[[], Hashable], build: Callable[[], list[str]], every_seconds: float) -> None:
        self._versions = versions
        self._build = build
        self._every = every_seconds
        self._last: Hashable | None = None
        self._nudged = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="mining-prebuild", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def nudge(self) -> None:
        """Look at the versions now rather than at the next interval."""
        self._nudged.set()

    def stop(self) -> None:
        self._stop.set()
        self._nudged.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        _lower_priority()
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:  # noqa: BLE001 - a failed pass must not end the thread; the next change retries
                log.exception("building the explorer's views ahead failed")
                self._last = None
            self._nudged.wait(self._every)
            self._nudged.clear()

    def step(self) -> bool:
        """One look: build if the versions moved since the last pass; whether it built."""
        versions = self._versions()
        if versions == self._last:
            return False
        started = time.perf_counter()
        projects = self._build()
        self._last = versions
        log.info("explorer views of %s built ahead in %.2f s", projects, time.perf_counter() - started)
        return True


def _lower_priority() -> None:
    """This thread at the lowest CPU priority (per thread on Linux; elsewhere, where it would apply
    to the whole process, left as it is)."""
    if hasattr(os, "setpriority") and hasattr(threading, "get_native_id") and os.uname().sysname == "Linux":
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST)
        except OSError as exc:
            log.info("explorer views are built ahead at normal priority (%s)", exc)
