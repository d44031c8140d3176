"""Shared fixtures: real LanceDB in temporary folders, the real bundled model, a manual clock; and
what the session starts once: one Ray, one Serve instance, one MiniLM embedding service, and the
mined team's store as a template each module copies. Under `make test` each of the two pytest-xdist
workers is a session of its own (one Ray each, modules never split between them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reverie.clock import ManualClock
from reverie.embed import Embedder, HashEmbedder, MiniLMEmbedder, spec_for
from reverie.settings import EmbeddingSettings, Settings, StoreSettings
from reverie.store import Store

ROOT = Path(__file__).resolve().parents[1]


#: The modules that take longest (long tests or module fixtures that start a service), handed out first:
#: under ``--dist loadfile --no-loadscope-reorder`` (the Makefile) pytest-xdist gives whole modules to its
#: workers in collection order, so the two workers finish together instead of one running a long module
#: alone at the end.
SLOW_FIRST = ("test_pool_runs.py", "test_actors_ray.py", "test_eval_arms.py", "test_cli.py", "test_mcp.py",
              "test_http_capture_kill.py", "test_pool_cluster.py", "test_http_retrieval.py", "test_serve_s3.py",
              "test_explorer.py", "test_privacy.py", "test_store_concurrency.py", "test_http_corrections.py",
              "test_http_scopes.py", "test_capture.py", "test_langgraph_store.py", "test_http_routes.py",
              "test_http_time.py", "test_consolidation_memory.py", "test_embed.py", "test_http_keys.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: index for index, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order


def make_settings(uri: Path | str, provider: str = "hash", **store: object) -> Settings:
    return Settings(
        store=StoreSettings(uri=str(uri), **store),  # type: ignore[arg-type]
        embedding=EmbeddingSettings(provider=provider),  # type: ignore[arg-type]
    )


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "store")


@pytest.fixture
def hash_embedder(settings: Settings) -> HashEmbedder:
    return HashEmbedder(settings.embedding)


@pytest.fixture
def store(settings: Settings, clock: ManualClock) -> Iterator[Store]:
    yield Store.open(settings.store, spec_for(settings.embedding), clock)


@pytest.fixture(scope="session")
def minilm() -> Embedder:
    return MiniLMEmbedder(EmbeddingSettings())


@pytest.fixture(scope="session")
def ray_session() -> Iterator[None]:
    """One local Ray for the whole test session (2 CPUs, no dashboard, small object store).

    Workers get this checkout on PYTHONPATH, so they run the code under test even where another
    checkout of the project is installed in the environment.
    """
    import ray

    ray.init(
        address="local", num_cpus=2, include_dashboard=False, object_store_memory=128 * 1024 * 1024,
        namespace="reverie-test", resources={"reverie_background": 1},
        runtime_env={"env_vars": {"PYTHONPATH": str(ROOT), "TOKENIZERS_PARALLELISM": "false"}},
        log_to_driver=False,
    )
    yield
    ray.shutdown()


@pytest.fixture(scope="session")
def serve_session(ray_session: None) -> Iterator[int]:
    """One Serve instance for the session, its proxy on ``serving.PORT``: modules swap their apps in
    and out of it with ``serving.served``."""
    from ray import serve as ray_serve

    from serving import PORT, start_serve

    start_serve()
    yield PORT
    ray_serve.shutdown()


@pytest.fixture(scope="session")
def embedding_service(ray_session: None) -> Iterator[Any]:
    """The session's one MiniLM embedding service, named in ``serving.MINILM_NAMESPACE`` (the model
    loads once, not once per module)."""
    import ray

    from serving import start_embedding_service

    service = start_embedding_service()
    yield service
    ray.kill(service, no_restart=True)


@pytest.fixture(scope="session")
def team_template(tmp_path_factory: pytest.TempPathFactory, minilm: Embedder) -> Path:
    """The store of ``mining_data.team_scenario`` (MiniLM vectors), built once; a module copies it
    (``mining_data.copy_store``) before writing to it."""
    from mining_data import team_store

    root = tmp_path_factory.mktemp("team-template") / "store"
    team_store(root, minilm, ManualClock())
    return root

