"""Start the memory side of Reverie on a Ray cluster: store gateway, embedding service, directory.

The one function an entry point (``reverie up``, a test, a benchmark) calls. Each actor is created
by name with ``get_if_exists``, so calling it again, or from another process, finds the running ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import ray

from actors.directory import DirectoryActor, directory_options
from actors.embedding import EmbeddingServiceActor, embedding_options
from actors.gateway import StoreGatewayActor, gateway_options
from reverie.clock import Clock, SystemClock
from reverie.remote import Handle
from reverie.settings import Settings


@dataclass(frozen=True)
class Memory:
    """Handles of the three named actors (callers usually go through ``reverie.remote`` instead)."""

    store: Handle
    embedder: Handle
    directory: Handle

    def stop(self) -> None:
        """Passivate every agent actor and end the three services."""
        ray.get(self.directory.stop.remote())
        for handle in (self.directory, self.embedder, self.store):
            ray.kill(handle, no_restart=True)


def start_memory(settings: Settings, clock: Clock | None = None, *, ticker: bool = True) -> Memory:
    """Create (or find) the actors, wait until they answer, and start the trigger ticker."""
    clock = clock or SystemClock()
    store: Handle = StoreGatewayActor.options(**gateway_options(settings)).remote(settings, clock)
    embedder: Handle = EmbeddingServiceActor.options(**embedding_options(settings)).remote(settings.embedding, settings.actors)
    ray.get([store.pid.remote(), embedder.info.remote()])
    directory: Handle = DirectoryActor.options(**directory_options(settings)).remote(settings, clock)
    if ticker:
        ray.get(directory.start_ticker.remote())
    else:
        ray.get(directory.live.remote())
    return Memory(store, embedder, directory)
