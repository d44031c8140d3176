"""A real Serve application on 127.0.0.1 for the HTTP tests: keys for every role, the app built by
``build_app``, the named embedding service it calls, and seeding of the store through its own API.

The session holds one Serve instance (conftest's ``serve_session``, its proxy on :data:`PORT`) and
one MiniLM embedding service (conftest's ``embedding_service``, in :data:`MINILM_NAMESPACE`). A test
module swaps its own app in with ``served`` (in a module-scoped fixture) and out again when it ends;
with ``memory=True`` the memory actors (store gateway, directory, agent actors) come and go with it.
Modules on the hash embedder get a namespace of their own and a hash embedding service in it; the
MiniLM modules share the session's namespace, so each leaves it holding the embedding service only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import ray
from ray import serve as ray_serve

from actors.deploy import Memory, start_memory
from launcher.local import free_port
from reverie.embed import HashEmbedder
from reverie.ports import AGENT_ACTOR_PREFIX, DIRECTORY_ACTOR, EMBEDDER_ACTOR, STORE_ACTOR
from reverie.records import Event, Note
from reverie.settings import ActorSettings, AuthSettings, EmbeddingSettings, ServeSettings, Settings, StoreSettings
from reverie.store import NoteWrite, Store
from serve.app import deploy
from serve.auth.keys import KeysFile
from waiting import wait_until

#: The HTTP port of the session's one Serve proxy (every app of the session is served on it).
PORT = free_port()
#: Where the session's MiniLM embedding service lives, and with it the actors of every MiniLM module.
MINILM_NAMESPACE = "reverie-test-minilm"
#: The named actors ``served(memory=True)`` starts (besides the agents' own).
MEMORY_ACTORS = {DIRECTORY_ACTOR, STORE_ACTOR, EMBEDDER_ACTOR}
#: A stopping replica's drain check (Ray's default waits 2 s per replica even when nothing is in flight).
DRAIN_CHECK_SECONDS = 0.05

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


def start_serve() -> None:
    """The session's Serve instance (conftest's ``serve_session``): its proxy on :data:`PORT` (a no-op
    while it runs)."""
    ray_serve.start(http_options={"host": "127.0.0.1", "port": PORT})


def start_embedding_service() -> Any:
    """The session's MiniLM embedding service (conftest's ``embedding_service``), loaded before it returns."""
    from actors.embedding import EmbeddingServiceActor

    service = EmbeddingServiceActor.options(name=EMBEDDER_ACTOR, namespace=MINILM_NAMESPACE, num_cpus=0,
                                            max_concurrency=1000).remote(EmbeddingSettings(), ActorSettings())
    ray.get(service.info.remote())
    return service


def shares_embedding_service(settings: Settings) -> bool:
    return settings.embedding.provider == "minilm" and settings.actors.namespace == MINILM_NAMESPACE


def served_settings(root: Path, provider: str = "hash", **overrides: Any) -> Settings:
    """Settings of an app on the session's Serve: MiniLM ones in the shared namespace, hash ones in their own."""
    auth = {"keys_file": root / "keys.json", "requests_per_minute": 100000, "burst": 100000, **overrides.pop("auth", {})}
    store = {"uri": str(root / "store"), **overrides.pop("store", {})}
    namespace = MINILM_NAMESPACE if provider == "minilm" else f"reverie-test-{root.name}"
    actors = overrides.pop("actors", {})
    return Settings(
        store=StoreSettings(**store),
        embedding=EmbeddingSettings(**{"provider": provider, **overrides.pop("embedding", {})}),
        auth=AuthSettings(**auth),
        actors=actors if isinstance(actors, ActorSettings) else ActorSettings(**{"namespace": namespace, **actors}),
        serve=ServeSettings(**{"port": PORT, "app_name": f"reverie-test-{root.name}", "num_cpus": 0.1,
                               "drain_check_seconds": DRAIN_CHECK_SECONDS, **overrides.pop("serve", {})}),
        **overrides,
    )


@dataclass
class Served:
    settings: Settings
    url: str
    keys: dict[str, str] = field(default_factory=dict)
    memory: Memory | None = None

    def client(self, principal: str | None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.keys[principal]}"} if principal else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)


@contextmanager
def served(settings: Settings, roles: dict[str, tuple[str, list[str]]] = ROLES, *, memory: bool = False) -> Iterator[Served]:
    """The app of ``settings`` on the session's Serve, with keys for ``roles``; with ``memory`` the
    memory actors too (no ticker: runs start on request). Everything it started is gone when it ends.

    MiniLM apps call the session's embedding service (conftest's ``embedding_service`` must be up);
    hash apps get a hash embedding service of their own.
    """
    assert settings.serve.port == PORT, "apps run on the session's Serve proxy: build the settings with served_settings"
    start_serve()  # again, if a test stopped it
    keys_file = KeysFile(Path(settings.auth.keys_file or ""))
    keys = {name: keys_file.add(name, role, projects) for name, (role, projects) in roles.items()}  # type: ignore[arg-type]
    if shares_embedding_service(settings):
        assert EMBEDDER_ACTOR in _named(MINILM_NAMESPACE), "a MiniLM app needs the session's embedding service: " \
            "request the embedding_service fixture"
    running = deploy(settings)  # the replica starts while the memory actors do
    started: Memory | None = None
    own: Any = None
    try:
        started = start_memory(settings, ticker=False) if memory else None
        own = None if started or shares_embedding_service(settings) else \
            HashEmbeddingService.options(name=EMBEDDER_ACTOR, namespace=settings.actors.namespace).remote(settings.embedding)
        running()
        yield Served(settings, f"http://127.0.0.1:{settings.serve.port}", keys, started)
    finally:
        deleted(settings.serve.app_name)
        if started is not None:
            started.stop()  # the session's embedding service, found running, stays
        if own is not None:
            ray.kill(own)
        released(settings, lambda name: name in MEMORY_ACTORS or name.startswith(AGENT_ACTOR_PREFIX))


def deleted(app_name: str) -> None:
    """Delete the app and wait until it is gone (Serve's own blocking delete polls once a second)."""
    ray_serve.delete(app_name, _blocking=False)
    wait_until(lambda: app_name not in ray_serve.status().applications, 60, f"Serve to delete {app_name!r}")


def _named(namespace: str) -> list[str]:
    return [a["name"] for a in ray.util.list_named_actors(all_namespaces=True) if a["namespace"] == namespace]


def released(settings: Settings, of: Callable[[str], bool] = lambda name: True, timeout: float = 30.0) -> None:
    """Wait until the namespace of ``settings`` holds no named actor (of those ``of`` selects) but the
    session's embedding service: a killed actor's name is freed once its process is gone, and the
    next module may reuse it."""
    kept = {EMBEDDER_ACTOR} if shares_embedding_service(settings) else set()

    def left() -> list[str]:
        return [name for name in _named(settings.actors.namespace) if name not in kept and of(name)]

    wait_until(lambda: not left(), timeout, lambda: f"the named actors of {settings.actors.namespace!r} to end (left: {left()})")


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
