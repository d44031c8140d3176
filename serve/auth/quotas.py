"""Per-key request quotas: a token bucket per key id, refilled at ``requests_per_minute``.

A request over the quota answers 429 with ``Retry-After`` (the seconds until a token is back). The
buckets live in each replica, so with N replicas a key may reach N times its quota: size it per
replica. Buckets of keys idle for long enough to be full again are dropped, so memory stays bounded
by the keys active in the last minute or so.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from reverie.errors import QuotaError
from reverie.settings import AuthSettings


@dataclass
class _Bucket:
    tokens: float
    at: float


class Quotas:
    def __init__(self, settings: AuthSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = settings.requests_per_minute / 60.0
        self._burst = float(max(1, settings.burst))
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()
        self._swept = clock()

    def take(self, key_id: str) -> None:
        """Spend one request of ``key_id``'s quota, or raise QuotaError with the wait in seconds."""
        if self._rate <= 0:
            return
        now = self._clock()
        with self._lock:
            bucket = self._buckets.get(key_id) or _Bucket(self._burst, now)
            bucket.tokens = min(self._burst, bucket.tokens + (now - bucket.at) * self._rate)
            bucket.at = now
            self._buckets[key_id] = bucket
            if bucket.tokens < 1.0:
                wait = math.ceil((1.0 - bucket.tokens) / self._rate)
                raise QuotaError(
                    f"this key is over its quota of {self._rate * 60:.0f} requests a minute; retry in {wait} s "
                    "or ask an admin to raise REVERIE_AUTH__REQUESTS_PER_MINUTE",
                    retry_after=wait,
                )
            bucket.tokens -= 1.0
            self._sweep(now)

    def _sweep(self, now: float) -> None:
        full_after = self._burst / self._rate
        if now - self._swept < full_after:
            return
        self._swept = now
        for key, bucket in list(self._buckets.items()):
            if now - bucket.at >= full_after:
                del self._buckets[key]
