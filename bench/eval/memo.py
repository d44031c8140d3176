"""An embedder that remembers: a benchmark embeds all its questions in one batch, then asks one by one."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reverie.embed import Embedder


class MemoEmbedder:
    """Wraps an embedder; texts already embedded are served from memory, new ones go in one batch."""

    def __init__(self, inner: Embedder) -> None:
        self.name = inner.name
        self.dim = inner.dim
        self._inner = inner
        self._known: dict[str, np.ndarray] = {}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._known))
        if missing:
            self._known.update(zip(missing, self._inner.embed(missing), strict=True))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._known[t] for t in texts]).astype(np.float32)

    def forget(self) -> None:
        self._known.clear()
