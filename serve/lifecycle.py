"""Running the service (``reverie up``): a local Ray or a joined cluster, a first-start admin key, the
HTTP app, and a clean shutdown on Ctrl-C or SIGTERM. The agents' and mining actors are started by
the caller (the CLI), which is the one place allowed to import those parts.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import ray
from ray import serve as ray_serve

from reverie.errors import UnavailableError
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


def stop_http(settings: Settings, timeout: float = 60.0) -> None:
    """Delete the HTTP application and return once Serve no longer lists it (other Serve applications
    of a cluster keep running). Serve's own blocking delete looks only once a second; this looks every 50 ms."""
    name = settings.serve.app_name
    ray_serve.delete(name, _blocking=False)
    deadline = time.monotonic() + timeout
    while name in ray_serve.status().applications:
        if time.monotonic() > deadline:
            raise UnavailableError(f"Serve did not delete the application {name!r} within {timeout:.0f} s; "
                                   "see Ray's logs", retry_after=5)
        time.sleep(0.05)


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
