"""A real Serve application on 127.0.0.1 for the HTTP tests: keys for every role, the app built by
``build_app``, the named embedding service it calls, and seeding of the store through its own API.

One app per test module (``served`` in a module-scoped fixture), on the session's Ray; it is deleted
and Serve shut down when the module ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import ray
from ray import serve as ray_serve

from launcher.local import free_port
from reverie.embed import HashEmbedder
from reverie.ports import EMBEDDER_ACTOR
from reverie.records import Event, Note
from reverie.settings import AuthSettings, EmbeddingSettings, ServeSettings, Settings, StoreSettings
from reverie.store import NoteWrite, Store
from serve.app import build_app
from serve.auth.keys import KeysFile

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


def _embedding_service(settings: Settings) -> Any:
    """The named embedding service the app calls: the hash one, or the real MiniLM service of ``actors/``."""
    options = {"name": EMBEDDER_ACTOR, "namespace": settings.actors.namespace}
    if settings.embedding.provider == "minilm":
        from actors.embedding import EmbeddingServiceActor

        service = EmbeddingServiceActor.options(**options, num_cpus=0, max_concurrency=1000).remote(
            settings.embedding, settings.actors,
        )
        ray.get(service.info.remote())  # the model is loaded before the first request
        return service
    return HashEmbeddingService.options(**options).remote(settings.embedding)


def served_settings(root: Path, provider: str = "hash", **overrides: Any) -> Settings:
    auth = {"keys_file": root / "keys.json", "requests_per_minute": 100000, "burst": 100000, **overrides.pop("auth", {})}
    store = {"uri": str(root / "store"), **overrides.pop("store", {})}
    return Settings(
        store=StoreSettings(**store),
        embedding=EmbeddingSettings(**{"provider": provider, **overrides.pop("embedding", {})}),
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
    embedder = _embedding_service(settings)
    ray_serve.start(http_options={"host": "127.0.0.1", "port": settings.serve.port})
    ray_serve.run(build_app(settings), name=settings.serve.app_name, route_prefix="/")
    try:
        yield Served(settings, f"http://127.0.0.1:{settings.serve.port}", keys)
    finally:
        ray_serve.shutdown()
        ray.kill(embedder)


# --- a small seeded world: two projects, agents in each, notes in every kind of scope ------------
@dataclass(frozen=True)
class World:
    notes: dict[str, Note]
    batches: dict[str, str]


def _note(note_id: str, scope: str, owner: str, project: str, evidence: list[str], at: datetime, statement: str,
          status: str = "active", type_: str = "lesson") -> Note:
    return Note(
        note_id=note_id, type=type_, subject=statement.split()[0].lower(), statement=statement, scope=scope,  # type: ignore[arg-type]
        owner_agent=owner, project=project, module="api" if scope.startswith("module:") else None,
        evidence=evidence, source_sessions=[f"s-{owner}"], source_agents=[owner], confidence=0.6,
        status=status, created_at=at, updated_at=at,  # type: ignore[arg-type]
    )


def seed_world(store: Store, embedder: HashEmbedder) -> World:
    """Events of three agents and notes in personal, module, project and team scopes, as batches."""
    at = store.now()
    for agent, project in (("coder-1", "atlas"), ("tester-1", "atlas"), ("scout-1", "orion")):
        store.events.append([
            Event(event_id=f"e{i}", agent_id=agent, session_id=f"s-{agent}", project=project, ts=at, role="user",
                  text=f"{agent} says fact number {i} about deploys", ingested_at=at)
            for i in range(1, 4)
        ])
    specs = [
        ("n-coder-personal", "personal:coder-1", "coder-1", "atlas", ["e1"], "Coder prefers tabs in Makefiles"),
        ("n-tester-personal", "personal:tester-1", "tester-1", "atlas", ["e1"], "Tester runs pytest with -x first"),
        ("n-atlas-module", "module:atlas/api", "coder-1", "atlas", ["e2"], "Api handlers validate ids before queries"),
        ("n-atlas-project", "project:atlas", "tester-1", "atlas", ["e2"], "Atlas deploys go through blue green switch"),
        ("n-team", "team", "coder-1", "atlas", ["e3"], "Team writes commit messages in the imperative"),
        ("n-orion-project", "project:orion", "scout-1", "orion", ["e2"], "Orion deploys need a change ticket"),
        ("n-scout-personal", "personal:scout-1", "scout-1", "orion", ["e1"], "Scout likes short summaries"),
    ]
    notes = {s[0]: _note(*s[:5], at, s[5]) for s in specs}  # type: ignore[misc]
    batches = {}
    for agent in ("coder-1", "tester-1", "scout-1"):
        mine = [n for n in notes.values() if n.owner_agent == agent]
        writes = [NoteWrite(n, "add", vector=embedder.embed([n.statement])[0]) for n in mine]
        project = mine[0].project
        batches[agent] = store.batches.run("local", writes, agent_id=agent, project=project,
                                           session_ids=[f"s-{agent}"]).batch_id
    return World(notes, batches)
