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
