"""Compile umap's and hdbscan's numba code once at set-up, so the first mining run is not slow.

Run by ``make`` after installing (``python -m mining.warm``); numba caches the machine code on disk.
"""

from __future__ import annotations

import time

import numpy as np


def warm() -> float:
    start = time.perf_counter()
    import hdbscan
    import umap

    rng = np.random.default_rng(0)
    points = rng.normal(size=(300, 16)).astype(np.float32)
    reduced = umap.UMAP(n_neighbors=10, n_components=5, metric="cosine", random_state=0).fit_transform(points)
    hdbscan.HDBSCAN(min_cluster_size=5, prediction_data=True).fit(reduced)
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"numba warm-up of umap and hdbscan: {warm():.1f} s")
