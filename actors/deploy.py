"""Start the memory side of Reverie on a Ray cluster: store gateway, embedding service, directory.

The one function an entry point (``reverie up``, a test, a benchmark) calls. Each actor is created
by name with ``get_if_exists``, so calling it again, or from another process, finds the running ones;
``Memory.stop`` ends only the ones this call started (a demo beside a running embedding service
leaves it running).
"""

from __future__ import annotations

from dataclasses import dataclass

import ray

from actors.directory import DirectoryActor, directory_options
from actors.embedding import EmbeddingServiceActor, embedding_options
from actors.gateway import StoreGatewayActor, gateway_options
from reverie.clock import Clock, SystemClock
from reverie.ports import DIRECTORY_ACTOR, EMBEDDER_ACTOR, STORE_ACTOR
from reverie.remote import Handle
from reverie.settings import Settings


@dataclass(frozen=True)
class Memory:
    """Handles of the three named actors (callers usually go through ``reverie.remote`` instead), and
    the names of those that ``start_memory`` created rather than found."""

    store: Handle
    embedder: Handle
    directory: Handle
    started: frozenset[str] = frozenset({STORE_ACTOR, EMBEDDER_ACTOR, DIRECTORY_ACTOR})

    def stop(self) -> None:
        """End the services this call started; ending the directory passivates every agent actor first."""
        if DIRECTORY_ACTOR in self.started:
            ray.get(self.directory.stop.remote())
        for name, handle in ((DIRECTORY_ACTOR, self.directory), (EMBEDDER_ACTOR, self.embedder), (STORE_ACTOR, self.store)):
            if name in self.started:
                ray.kill(handle, no_restart=True)


def start_memory(settings: Settings, clock: Clock | None = None, *, ticker: bool = True) -> Memory:
    """Create (or find) the actors, wait until they answer, and start the trigger ticker."""
    clock = clock or SystemClock()
    found = {name for name in (STORE_ACTOR, EMBEDDER_ACTOR, DIRECTORY_ACTOR) if _running(name, settings.actors.namespace)}
    store: Handle = StoreGatewayActor.options(**gateway_options(settings)).remote(settings, clock)
    embedder: Handle = EmbeddingServiceActor.options(**embedding_options(settings)).remote(settings.embedding, settings.actors)
    ray.get([store.pid.remote(), embedder.info.remote()])
    directory: Handle = DirectoryActor.options(**directory_options(settings)).remote(settings, clock)
    if ticker:
        ray.get(directory.start_ticker.remote())
    else:
        ray.get(directory.live.remote())
    return Memory(store, embedder, directory, frozenset({STORE_ACTOR, EMBEDDER_ACTOR, DIRECTORY_ACTOR} - found))


def _running(name: str, namespace: str) -> bool:
    try:
        ray.get_actor(name, namespace=namespace)
    except ValueError:
        return False
    return True
