"""Compile umap's and hdbscan's numba code once at set-up, so the first mining run is not slow.

Run by ``make`` after installing (``python -m mining.warm``); numba caches the machine code on disk.
It fits the same topic model a mining run fits (exact k-NN graph, UMAP reducer and 2-D map,
HDBSCAN) and assigns new points to it, so every compiled path a run takes is warmed.
"""

from __future__ import annotations

import time

import numpy as np

from mining.topics import topic_model_for
from reverie.settings import MiningSettings


def warm() -> float:
    start = time.perf_counter()
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(12, 32))
    points = centres[rng.integers(0, 12, 300)] + rng.normal(scale=0.3, size=(300, 32))
    points = (points / np.linalg.norm(points, axis=1, keepdims=True)).astype(np.float32)
    model = topic_model_for(len(points), MiningSettings())
    model.fit(points[:280])
    model.assign(points[280:])
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"numba warm-up of umap and hdbscan: {warm():.1f} s")
