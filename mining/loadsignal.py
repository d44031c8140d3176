"""The online load signal: the serving path reports, the background pool reads.

``LoadSignal`` keeps the reports of the last ``load_window_seconds``; its ``level()`` is the highest
of (requests in flight / ``load_inflight_capacity``) and (latency / ``load_latency_target_seconds``)
among them, 0 when nothing was reported lately (serving is idle). The pool yields at or above
``load_high`` and resumes at or below ``load_low``. One named actor (``LOAD_ACTOR``) holds it: the
serving path calls ``report`` without waiting for an answer (``handle.report.remote(n, s)``).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

import ray

from reverie.ports import LOAD_ACTOR
from reverie.settings import MiningSettings, Settings

if TYPE_CHECKING:
    from reverie.remote import Handle

log = logging.getLogger(__name__)


class LoadSignal:
    def __init__(self, settings: MiningSettings, now: Callable[[], float] = time.monotonic) -> None:
        self._settings = settings
        self._now = now
        self._reports: deque[tuple[float, float]] = deque()

    def report(self, inflight: int, latency_seconds: float = 0.0) -> None:
        """One observation of the serving path: requests in flight now, latency of the last ones."""
        value = max(
            max(0, inflight) / max(1, self._settings.load_inflight_capacity),
            max(0.0, latency_seconds) / max(1e-6, self._settings.load_latency_target_seconds),
        )
        self._reports.append((self._now(), value))
        self._prune()

    def level(self) -> float:
        self._prune()
        return max((v for _, v in self._reports), default=0.0)

    def _prune(self) -> None:
        horizon = self._now() - self._settings.load_window_seconds
        while self._reports and self._reports[0][0] < horizon:
            self._reports.popleft()


LoadActor = ray.remote(num_cpus=0)(LoadSignal)


def load_signal(settings: Settings) -> Handle:
    """The named load actor of this namespace, created on first use."""
    return LoadActor.options(
        name=LOAD_ACTOR, namespace=settings.actors.namespace, get_if_exists=True,
    ).remote(settings.mining)


class RemoteLoad:
    """Reads the load actor; if it cannot be reached in time, the load counts as 0 (and is logged)."""

    def __init__(self, handle: Handle, timeout_seconds: float = 2.0) -> None:
        self._handle = handle
        self._timeout = timeout_seconds

    def level(self) -> float:
        try:
            return float(ray.get(self._handle.level.remote(), timeout=self._timeout))
        except (ray.exceptions.GetTimeoutError, ray.exceptions.RayActorError) as exc:
            log.warning("load signal unreachable (%s); counting the load as 0", type(exc).__name__)
            return 0.0
