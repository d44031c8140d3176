"""A real Serve application on 127.0.0.1 for the HTTP tests: keys for every role, the app built by
``build_app``, the named embedding service it calls, and seeding of the store through its own API.

One app per test module (``served`` in a module-scoped fixture), on the session's Ray; it is deleted
and Serve shut down when the module ends.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import ray
from ray import serve as ray_serve

from reverie.embed import HashEmbedder
from reverie.ports import EMBEDDER_ACTOR
from reverie.settings import AuthSettings, EmbeddingSettings, ServeSettings, Settings, StoreSettings
from serve.app import build_app
from serve.keys import KeysFile

ROLES = {
    "admin": ("admin", ["*"]),
    "coder-1": ("agent", ["atlas"]),
    "tester-1": ("agent", ["atlas"]),
    "scout-1": ("agent", ["orion"]),
    "rev-atlas": ("reviewer", ["atlas"]),
    "ana-atlas": ("analyst", ["atlas"]),
    "ana-orion": ("analyst", ["orion"]),
    "rev-all": ("reviewer", ["*"]),
}


@ray.remote(num_cpus=0)
class HashEmbeddingService:
    """The EmbeddingService port over the deterministic hash embedder (mechanics tests)."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        self._embedder = HashEmbedder(settings)

    def embed(self, texts: list[str]) -> Any:
        return self._embedder.embed(texts)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def served_settings(root: Path, **overrides: Any) -> Settings:
    auth = {"keys_file": root / "keys.json", "requests_per_minute": 100000, "burst": 100000, **overrides.pop("auth", {})}
    store = {"uri": str(root / "store"), **overrides.pop("store", {})}
    return Settings(
        store=StoreSettings(**store),
        embedding=EmbeddingSettings(provider="hash"),
        auth=AuthSettings(**auth),
        serve=ServeSettings(port=free_port(), app_name=f"reverie-test-{root.name}", num_cpus=0.1, **overrides.pop("serve", {})),
        **overrides,
    )


@dataclass
class Served:
    settings: Settings
    url: str
    keys: dict[str, str] = field(default_factory=dict)

    def client(self, principal: str | None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.keys[principal]}"} if principal else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)


@contextmanager
def served(settings: Settings, roles: dict[str, tuple[str, list[str]]] = ROLES) -> Iterator[Served]:
    keys_file = KeysFile(Path(settings.auth.keys_file or ""))
    keys = {name: keys_file.add(name, role, projects) for name, (role, projects) in roles.items()}  # type: ignore[arg-type]
    embedder = HashEmbeddingService.options(name=EMBEDDER_ACTOR, namespace=settings.actors.namespace).remote(settings.embedding)
    ray_serve.start(http_options={"host": "127.0.0.1", "port": settings.serve.port})
    ray_serve.run(build_app(settings), name=settings.serve.app_name, route_prefix="/")
    try:
        yield Served(settings, f"http://127.0.0.1:{settings.serve.port}", keys)
    finally:
        ray_serve.shutdown()
        ray.kill(embedder)
