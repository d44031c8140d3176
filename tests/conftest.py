"""Shared fixtures: real LanceDB in temporary folders, the real bundled model, a manual clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reverie.clock import ManualClock
from reverie.embed import Embedder, HashEmbedder, MiniLMEmbedder, spec_for
from reverie.settings import EmbeddingSettings, Settings, StoreSettings
from reverie.store import Store

ROOT = Path(__file__).resolve().parents[1]


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
