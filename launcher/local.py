"""A whole Reverie on this machine: local Ray, the memory actors, the mining service and the HTTP app.

:func:`start_parts` starts the embedding service, the store gateway, the agents' directory and the
mining service as named actors (what ``reverie up`` runs beside the HTTP app). :func:`local_service`
adds the rest of ``reverie up`` — a local Ray when none is running, an admin key, Serve on
127.0.0.1 and a free port (or the app alone on a Serve already running) — and hands back a
:class:`LocalService` that mints keys and stops everything it started::

    with local_service(settings) as service:             # settings.store.uri: the data folder
        key = service.add_key("coder-1", "agent", ["atlas"])
        with Client(service.url, key) as client: ...

``triggers=False`` leaves the scheduled work off (the directory's trigger ticker and scheduled
mining runs) so that a caller that asks for every consolidation and mining run itself (a benchmark,
the demo) gets the same runs every time; everything else is what ``reverie up`` starts.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import ray
from ray import serve as ray_serve

from reverie.errors import ConfigError, UnavailableError
from reverie.settings import Settings
from serve.app import deploy, start_proxy, url_of
from serve.auth.keys import KeysFile, RoleName, keys_file_path
from serve.lifecycle import joined_ray, stop_http

ADMIN = "reverie-admin"


def start_parts(settings: Settings, *, triggers: bool = True) -> Callable[[], None]:
    """The embedding service, the store gateway, the agents' directory and the mining service, as
    named actors; returns the function that stops them."""
    from actors.deploy import start_memory
    from mining.service import mining_service

    mining = mining_service(settings)  # its process starts while the memory actors do
    memory = start_memory(settings, ticker=triggers)
    ray.get(mining.runs.remote())

    def stop() -> None:
        ray.get(mining.close.remote())
        ray.kill(mining, no_restart=True)
        memory.stop()

    return stop


def free_port(host: str = "127.0.0.1") -> int:
    """A port free to listen on now, taken below the OS's ephemeral range.

    A port the OS hands out for ``bind(0)`` comes from the same range as the local ports of outgoing
    connections, and Ray opens many: one of them could take the port before Serve binds it ("Failed to
    bind"). Ports under the range are never handed out that way.
    """
    low = _ephemeral_low()
    for port in random.sample(range(max(1024, low - 12_000), low), 64):
        with socket.socket() as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:  # everything tried was taken: let the OS choose
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default; elsewhere any port under it is as good


class LocalService:
    """A running local service: its URL, an admin key, and keys minted for other principals."""

    def __init__(self, settings: Settings, url: str, keys: KeysFile, admin_key: str) -> None:
        self.settings = settings
        self.url = url
        self.admin_key = admin_key
        self._keys = keys
        self._minted: list[str] = [admin_key]

    @property
    def data(self) -> str:
        return self.settings.store.uri

    def add_key(self, principal: str, role: RoleName, projects: Sequence[str]) -> str:
        """A new key (stored hashed in the service's keys file); revoked when the service stops."""
        key = self._keys.add(principal, role, list(projects))
        self._minted.append(key)
        return key

    def revoke_keys(self) -> None:
        for key in self._minted:
            self._keys.revoke(key)
        self._minted.clear()


@contextmanager
def local_service(settings: Settings, *, triggers: bool = True, port: int | None = None) -> Iterator[LocalService]:
    """Start a whole local Reverie on ``settings`` (its store folder, 127.0.0.1 and ``port`` or a free
    one); stop everything it started on exit. Joins a Ray already running in this process (a test
    session) instead of starting one, and a Serve already running on it (``port`` must then be its
    HTTP port): the app is deployed beside the others there and deleted on exit."""
    settings = _local(settings, triggers, port)
    keys = KeysFile(keys_file_path(settings))
    with ExitStack() as stack:
        if not ray.is_initialized():
            stack.enter_context(joined_ray(settings))
        if ray_serve.status().proxies:
            if port is None:
                raise ConfigError("Serve already runs on this Ray and its HTTP port is not known here; "
                                  "pass local_service the port it listens on")
            stack.callback(stop_http, settings)
        else:
            stack.callback(ray_serve.shutdown)
            start_proxy(settings)
        running = deploy(settings)  # the replicas start while the memory actors and the mining service do
        stack.callback(start_parts(settings, triggers=triggers))
        running()
        service = LocalService(settings, url_of(settings), keys, keys.add(ADMIN, "admin", ["*"]))
        stack.callback(service.revoke_keys)
        wait_until_serving(service.url)
        yield service


def _local(settings: Settings, triggers: bool, port: int | None) -> Settings:
    """The settings on 127.0.0.1 and the port; without triggers, no scheduled mining runs either."""
    update: dict[str, object] = {"serve": settings.serve.model_copy(update={"host": "127.0.0.1", "port": port or free_port()})}
    if not triggers:
        update["mining"] = settings.mining.model_copy(update={"schedule": False})
    return settings.model_copy(update=update)


def wait_until_serving(url: str, timeout: float = 60.0) -> None:
    """Block until ``/healthz`` answers 200 (Serve's proxy may take a moment after the deploy)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=5.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise UnavailableError(f"the service at {url} did not answer /healthz within {timeout:.0f} s; see Ray's logs",
                                   retry_after=5)
        time.sleep(0.2)
