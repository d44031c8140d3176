"""What one replica holds: the store, the key ring, quotas, masking, token counting, the remote parts
(directory, embedder, mining), the retrieval log, the retrieval cache (with its refresh thread), the
graph answers last sent and the metrics. Built once per replica from the settings the app builder
passed in; routes get it through ``Depends(services)``. The named actors are looked up on a
background thread as the replica starts: a process's first lookup took 2.3 s under load, which the
explorer's first visit used to wait for.
"""

from __future__ import annotations

import logging
import threading
import time

from reverie.clock import Clock, SystemClock
from reverie.embed import spec_for
from reverie.ports import DIRECTORY_ACTOR, EMBEDDER_ACTOR, MINING_ACTOR
from reverie.privacy import Masker
from reverie.remote import Actors, RemoteDirectory, RemoteEmbedder, RemoteMining
from reverie.settings import Settings
from reverie.store import Store
from reverie.store.cache import GRAPH_TABLES, MAP_TABLES, StoreCache
from reverie.tokens import TokenCounter
from serve.auth.keys import KeyRing, keys_file_path
from serve.auth.quotas import Quotas
from serve.governance.quality import refresh_gauges
from serve.loadreport import LoadReporter
from serve.retrieval.recall import Recaller
from serve.retrieval.retrievals import RetrievalLog
from serve.telemetry import Telemetry

log = logging.getLogger(__name__)


class Services:
    def __init__(self, settings: Settings, clock: Clock | None = None) -> None:
        self.settings = settings
        self.clock = clock or SystemClock()
        self.store = Store.open(settings.store, spec_for(settings.embedding), self.clock)
        self.keys = KeyRing(keys_file_path(settings), settings.auth.reload_seconds)
        self.quotas = Quotas(settings.auth)
        self.masker = Masker(settings.privacy)
        self.tokens = TokenCounter()
        actors = Actors(settings.actors.namespace, settings.serve.call_timeout_seconds)
        self.directory = RemoteDirectory(actors, settings.consolidation.max_seconds)
        self.embedder = RemoteEmbedder(actors, spec_for(settings.embedding))
        self.mining = RemoteMining(actors, settings)
        threading.Thread(target=_look_up, args=(actors,), name="reverie-actors", daemon=True).start()
        self.retrievals = RetrievalLog(self.store, self.clock)
        # the graph and map answers as sent (JSON bytes), until a table they are read from changes
        self.graphs: StoreCache[bytes] = StoreCache(self.store.tables, tuple(dict.fromkeys(GRAPH_TABLES + MAP_TABLES)), size=8)
        self.recaller = Recaller(self.store, self.embedder, self.tokens, settings.retrieval)
        self.recaller.start()
        self.telemetry = Telemetry()
        self.load = LoadReporter(settings.actors.namespace)
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="reverie-gauges", daemon=True)
        self._ticker.start()

    def _tick(self) -> None:
        """Every second: flush retrievals waiting too long (feedback may come through another replica);
        every ``metrics_interval_seconds``: flush them all and refresh the gauges."""
        due = time.monotonic() + self.settings.serve.metrics_interval_seconds
        while not self._stop.wait(min(1.0, self.settings.serve.metrics_interval_seconds)):
            try:
                if time.monotonic() < due:
                    self.retrievals.flush_due()
                    continue
                due = time.monotonic() + self.settings.serve.metrics_interval_seconds
                self.retrievals.flush()
                refresh_gauges(self)
            except Exception as exc:  # noqa: BLE001 - a failed refresh must not kill the replica; next tick retries
                log.warning("metrics refresh failed (%s); retrying next interval", type(exc).__name__)

    def close(self) -> None:
        self._stop.set()
        self.recaller.close()
        try:
            self.retrievals.flush()
        except Exception as exc:  # noqa: BLE001 - shutting down: report and go on
            log.warning("retrieval log not flushed at shutdown (%s)", type(exc).__name__)


def _look_up(actors: Actors) -> None:
    missing = actors.look_up([MINING_ACTOR, DIRECTORY_ACTOR, EMBEDDER_ACTOR])
    if missing:
        log.info("actors %s are not running yet; they are looked up on first use", missing)
