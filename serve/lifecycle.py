"""Running the service (``reverie up``): a local Ray or a joined cluster, a first-start admin key, the
HTTP app, and a clean shutdown on Ctrl-C or SIGTERM. The agents' and mining actors are started by
the caller (the CLI), which is the one place allowed to import those parts.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import ray
from ray import serve as ray_serve

from reverie.settings import Settings
from serve.auth.keys import KeysFile, keys_file_path


def ensure_admin_key(settings: Settings) -> str | None:
    """On a first start (no keys file), create one admin key and return it to be shown once."""
    keys = KeysFile(keys_file_path(settings))
    if keys.exists():
        return None
    return keys.add("admin", "admin", ["*"])


@contextmanager
def joined_ray(settings: Settings, address: str = "local") -> Iterator[None]:
    """A Ray of this machine only (``local``: never another cluster on it, with the background
    resource declared), or the cluster at ``address`` (which declares its own resources)."""
    if address == "local":
        ray.init(
            address="local", include_dashboard=False, namespace=settings.actors.namespace,
            resources={settings.mining.background_resource: settings.mining.background_slots},
            log_to_driver=False,
        )
    else:
        ray.init(address=address, namespace=settings.actors.namespace, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def stop_http(settings: Settings) -> None:
    """Delete the HTTP application (other Serve applications of a cluster keep running)."""
    ray_serve.delete(settings.serve.app_name)


def wait_for_interrupt() -> None:
    """Block until Ctrl-C (SIGINT) or SIGTERM."""
    stop = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stop.wait(0.5):
            pass
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
