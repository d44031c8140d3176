"""The online load this replica reports to the background pool's load signal (``LOAD_ACTOR``).

The gate counts requests in flight and times them; at most every ``interval`` seconds a finished
request sends ``report(inflight, latency)`` without waiting (fire and forget), so serving never waits
on mining. While the load actor is not running (no mining service), lookups are retried every
``retry_seconds`` and nothing is reported.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import ray

from reverie.ports import LOAD_ACTOR


class LoadReporter:
    def __init__(self, namespace: str, interval: float = 0.25, retry_seconds: float = 10.0) -> None:
        self._namespace = namespace
        self._interval = interval
        self._retry = retry_seconds
        self._lock = threading.Lock()
        self._inflight = 0
        self._worst = 0.0
        self._sent = 0.0
        self._looked = float("-inf")
        self._handle: Any = None

    def started(self) -> None:
        with self._lock:
            self._inflight += 1

    def finished(self, seconds: float) -> None:
        now = time.monotonic()
        with self._lock:
            self._inflight -= 1
            self._worst = max(self._worst, seconds)
            if now - self._sent < self._interval:
                return
            inflight, worst, self._worst, self._sent = self._inflight + 1, self._worst, 0.0, now
        self._send(inflight, worst, now)

    def _send(self, inflight: int, latency: float, now: float) -> None:
        handle = self._actor(now)
        if handle is None:
            return
        try:
            handle.report.remote(inflight, latency)
        except ray.exceptions.RayActorError:
            self._handle = None

    def _actor(self, now: float) -> Any:
        if self._handle is None and now - self._looked >= self._retry:
            self._looked = now
            try:
                self._handle = ray.get_actor(LOAD_ACTOR, namespace=self._namespace)
            except ValueError:
                self._handle = None
        return self._handle
