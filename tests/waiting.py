"""The one way the tests wait: poll a condition until it holds, or fail saying what was awaited.

A test never sleeps for a fixed time where it can await a condition instead::

    run = wait_until(lambda: (r := handle.run(run_id)).status == "committed" and r, 60, "the run to commit")

``wait_until`` returns the condition's first truthy value (so the condition can hand back what it
found) and ``waited`` how long that took.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float, what: str | Callable[[], str], *, every: float = 0.05) -> T:
    """The first truthy value of ``condition()``, polled every ``every`` seconds for up to ``timeout``.

    Raises AssertionError naming ``what`` (and the last value seen) if it never held; ``what`` may be
    a function, called then, to describe the state the wait ended in.
    """
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() >= deadline:
            raise AssertionError(f"waited {timeout:g} s for {what() if callable(what) else what}; last seen: {found!r}")
        time.sleep(every)


def waited(condition: Callable[[], object], timeout: float, what: str | Callable[[], str], *, every: float = 0.05) -> float:
    """Seconds until ``condition()`` held (for tests that bound how long a change takes to show)."""
    started = time.monotonic()
    wait_until(condition, timeout, what, every=every)
    return time.monotonic() - started
