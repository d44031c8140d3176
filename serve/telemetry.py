"""Prometheus metrics the Ray way (``ray.util.metrics``): Ray's metrics agent on every node exports
them with the ``ray_`` prefix next to Ray's and Serve's own (``/metrics`` of the node's metrics port).

- ``reverie_http_requests_total{route,method,status}`` and ``reverie_http_request_seconds{route,method}``;
- ``reverie_events_captured_total{outcome=accepted|duplicate}`` (the capture rate);
- ``reverie_consolidation_runs_total{outcome}`` / ``reverie_consolidation_seconds`` and
  ``reverie_mining_runs_total{outcome}`` / ``reverie_mining_seconds`` for runs asked over HTTP;
- ``reverie_retrieved_items_total{layer}`` and ``reverie_retrieved_tokens_total{layer}`` (layer: notes,
  summaries, turns): what the memory blocks served are made of;
- gauges refreshed every ``serve.metrics_interval_seconds``: ``reverie_store_bytes``,
  ``reverie_table_rows{table}``, ``reverie_memory_quality{metric}`` (DESIGN §8) and
  ``reverie_memory_alert{alert}`` (1 while an alert fires).
"""

from __future__ import annotations

import threading

from ray.util import metrics

LATENCY_BOUNDARIES = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 120.0]
RUN_BOUNDARIES = [0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0]


class LayerTally:
    """What this replica's retrievals returned, per layer, since it started (``GET /v1/metrics/memory``)."""

    LAYERS = ("notes", "summaries", "turns")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.retrievals = 0
        self.items = dict.fromkeys(self.LAYERS, 0)
        self.tokens = dict.fromkeys(self.LAYERS, 0)

    def add(self, tokens: dict[str, int], items: dict[str, int]) -> None:
        with self._lock:
            self.retrievals += 1
            for layer in self.LAYERS:
                self.items[layer] += items.get(layer, 0)
                self.tokens[layer] += tokens.get(layer, 0)


class Telemetry:
    """The metric objects of one replica (created once per process; Ray aggregates across them)."""

    def __init__(self) -> None:
        self.requests = metrics.Counter(
            "reverie_http_requests_total", "HTTP requests by route, method and status",
            tag_keys=("route", "method", "status"),
        )
        self.latency = metrics.Histogram(
            "reverie_http_request_seconds", "HTTP request latency by route and method",
            boundaries=LATENCY_BOUNDARIES, tag_keys=("route", "method"),
        )
        self.captured = metrics.Counter(
            "reverie_events_captured_total", "events captured over HTTP", tag_keys=("outcome",),
        )
        self.consolidations = metrics.Counter(
            "reverie_consolidation_runs_total", "consolidation runs asked over HTTP", tag_keys=("outcome",),
        )
        self.consolidation_seconds = metrics.Histogram(
            "reverie_consolidation_seconds", "duration of consolidation runs asked over HTTP", boundaries=RUN_BOUNDARIES,
        )
        self.mining = metrics.Counter("reverie_mining_runs_total", "mining runs started over HTTP", tag_keys=("outcome",))
        self.mining_seconds = metrics.Histogram(
            "reverie_mining_seconds", "duration of mining runs waited for over HTTP", boundaries=RUN_BOUNDARIES,
        )
        self.retrieved_items = metrics.Counter(
            "reverie_retrieved_items_total", "items returned by retrieval, by layer", tag_keys=("layer",),
        )
        self.retrieved_tokens = metrics.Counter(
            "reverie_retrieved_tokens_total", "tokens of the items returned by retrieval, by layer", tag_keys=("layer",),
        )
        self.layers = LayerTally()
        self.store_bytes = metrics.Gauge("reverie_store_bytes", "bytes of the store's tables")
        self.table_rows = metrics.Gauge("reverie_table_rows", "rows of each store table", tag_keys=("table",))
        self.quality = metrics.Gauge("reverie_memory_quality", "memory quality metrics of DESIGN section 8", tag_keys=("metric",))
        self.alerts = metrics.Gauge("reverie_memory_alert", "1 while a memory alert fires", tag_keys=("alert",))

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.inc(1.0, tags={"route": route, "method": method, "status": str(status)})
        self.latency.observe(seconds, tags={"route": route, "method": method})

    def capture(self, accepted: int, duplicates: int) -> None:
        if accepted:
            self.captured.inc(float(accepted), tags={"outcome": "accepted"})
        if duplicates:
            self.captured.inc(float(duplicates), tags={"outcome": "duplicate"})

    def retrieved(self, tokens: dict[str, int], items: dict[str, int]) -> None:
        self.layers.add(tokens, items)
        for layer, n in items.items():
            if n:
                self.retrieved_items.inc(float(n), tags={"layer": layer})
                self.retrieved_tokens.inc(float(tokens.get(layer, 0)), tags={"layer": layer})

    def consolidation(self, outcome: str, seconds: float) -> None:
        self.consolidations.inc(1.0, tags={"outcome": outcome})
        self.consolidation_seconds.observe(seconds)

    def mining_run(self, outcome: str, seconds: float | None) -> None:
        self.mining.inc(1.0, tags={"outcome": outcome})
        if seconds is not None:
            self.mining_seconds.observe(seconds)
