"""Reducers: embed-space reduction before clustering, passed to the topic model as objects.

``UmapReduction`` is UMAP (seeded, cosine) over an exact k-nearest-neighbour graph that we compute
ourselves with blocked matrix products, so no approximate index is built (pynndescent's numba code
costs a minute of compilation in every fresh process) and the result does not depend on one.
``transform`` places new points as UMAP's own ``transform`` does (a membership-weighted average of
the embeddings of their nearest fitted neighbours, refined by SGD epochs with the fitted points held
still), over exact neighbours, but with ``transform_neighbors`` (5) neighbours and the fit's full
epochs instead of UMAP's ``n_neighbors`` and a third of them: measured on planted paraphrase groups
of five notes, UMAP's choice left a third of held-out paraphrases unassigned (noise), ours 1 in 18,
and neither ever put one into a wrong cluster. ``NoReduction`` is the
identity, for sets too small for UMAP to be meaningful; ``PlaneProjection`` projects onto the two
principal axes, the 2-D map of such small sets.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from types import ModuleType
from typing import Protocol

import numpy as np
import scipy.sparse

# UMAP's messages that are expected here: a seed forces one thread; our exact k-NN graph has no
# search index (we transform ourselves); far-apart topics disconnect a few vertices or make the
# spectral start fail, after which UMAP starts from its seeded random layout.
_EXPECTED_UMAP_WARNINGS = (
    r"n_jobs value .* overridden to 1 by setting random_state",
    r"precomputed_knn\[2\] \(knn_search_index\) is not an NNDescent object",
    r"A (few|large number) of your vertices were disconnected",
    r"Spectral initialisation failed",
    r"Graph is not fully connected",
)


def _umap() -> ModuleType:
    """``umap.umap_``; the package warns on import that TensorFlow (for ParametricUMAP) is absent."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Tensorflow not installed", category=ImportWarning)
        import umap.umap_
    from mining.jitcache import enable

    enable()
    return umap.umap_


class Reducer(Protocol):
    """Maps (n, dim) unit vectors to (n, k) points; ``transform`` places new points in a fitted space."""

    def fit_transform(self, vectors: np.ndarray) -> np.ndarray: ...

    def transform(self, vectors: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class Neighbours:
    """The ``k`` nearest rows of each query row by cosine: indices and distances (1 - cosine)."""

    indices: np.ndarray
    distances: np.ndarray


def nearest(queries: np.ndarray, points: np.ndarray, k: int, *, exclude_self: bool = False, block: int = 1024) -> Neighbours:
    """Exact k nearest neighbours of unit vectors; with ``exclude_self`` row i of ``points`` is i itself first."""
    k = min(k, len(points))
    indices = np.empty((len(queries), k), dtype=np.int64)
    distances = np.empty((len(queries), k), dtype=np.float32)
    for start in range(0, len(queries), block):
        sims = queries[start:start + block] @ points.T
        if exclude_self:
            rows = np.arange(sims.shape[0])
            sims[rows, rows + start] = 2.0  # itself first, even among exact duplicates
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        top_sims = np.take_along_axis(sims, top, axis=1)
        order = np.lexsort((top, -top_sims), axis=1)
        indices[start:start + block] = np.take_along_axis(top, order, axis=1)
        distances[start:start + block] = np.take_along_axis(top_sims, order, axis=1)
    distances = np.clip(1.0 - distances, 0.0, 2.0)
    if exclude_self:
        distances[:, 0] = 0.0
    return Neighbours(indices, distances.astype(np.float32))


class NoReduction:
    """The identity: cluster the vectors themselves."""

    def fit_transform(self, vectors: np.ndarray) -> np.ndarray:
        return np.asarray(vectors, dtype=np.float32)

    def transform(self, vectors: np.ndarray) -> np.ndarray:
        return np.asarray(vectors, dtype=np.float32)


@dataclass
class PlaneProjection:
    """Projection onto the two principal axes of the fitted vectors (the map of small sets)."""

    mean_: np.ndarray | None = field(default=None, repr=False)
    axes_: np.ndarray | None = field(default=None, repr=False)

    def fit_transform(self, vectors: np.ndarray) -> np.ndarray:
        self.mean_ = vectors.mean(axis=0) if len(vectors) else np.zeros(vectors.shape[1], dtype=np.float32)
        axes = np.zeros((2, vectors.shape[1]), dtype=np.float32)
        if len(vectors):
            _, _, vt = np.linalg.svd(vectors - self.mean_, full_matrices=False)
            axes[: min(2, len(vt))] = vt[:2]
        self.axes_ = axes
        return self.transform(vectors)

    def transform(self, vectors: np.ndarray) -> np.ndarray:
        if self.mean_ is None or self.axes_ is None:
            raise RuntimeError("PlaneProjection.transform before fit_transform")
        return ((vectors - self.mean_) @ self.axes_.T).astype(np.float32)


@dataclass
class UmapReduction:
    """UMAP (cosine, seeded, one thread) over an exact k-NN graph; see the module docstring."""

    n_neighbors: int = 15
    n_components: int = 5
    n_epochs: int = 200
    seed: int = 42
    transform_neighbors: int = 5
    train_: np.ndarray | None = field(default=None, repr=False)
    embedding_: np.ndarray | None = field(default=None, repr=False)

    def fit_transform(self, vectors: np.ndarray, neighbours: Neighbours | None = None,
                      start: np.ndarray | None = None) -> np.ndarray:
        """Fit on ``vectors``; ``start`` is an initial layout (UMAP's spectral start when None)."""
        umap = _umap()
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        k = max(2, min(self.n_neighbors, len(vectors) - 1))
        knn = neighbours or nearest(vectors, vectors, k, exclude_self=True)
        init: str | np.ndarray = "spectral" if start is None else np.asarray(start, dtype=np.float64)
        model = umap.UMAP(
            n_neighbors=k, n_components=self.n_components, metric="cosine", n_epochs=self.n_epochs,
            random_state=self.seed, n_jobs=1, precomputed_knn=(knn.indices[:, :k], knn.distances[:, :k]), init=init,
        )
        with warnings.catch_warnings():
            for message in _EXPECTED_UMAP_WARNINGS:
                warnings.filterwarnings("ignore", message=message, category=UserWarning)
            embedding = model.fit_transform(vectors)
        self.train_ = vectors
        self.embedding_ = np.asarray(embedding, dtype=np.float32)
        return self.embedding_

    def transform(self, vectors: np.ndarray) -> np.ndarray:
        """UMAP's transform over our exact neighbours: membership-weighted start, then a third of the fit's SGD epochs."""
        if self.train_ is None or self.embedding_ is None:
            raise RuntimeError("UmapReduction.transform before fit_transform")
        if len(vectors) == 0:
            return np.zeros((0, self.n_components), dtype=np.float32)
        umap = _umap()
        graph = self._membership(umap, np.asarray(vectors, dtype=np.float32), self.train_)
        start = self._start(graph)
        epochs = max(1, self.n_epochs // 3)  # a third of the fit's epochs, as umap-learn's own transform
        graph.data[graph.data < graph.data.max() / float(epochs)] = 0.0
        graph.eliminate_zeros()
        int32 = np.iinfo(np.int32)
        rng_state = np.random.RandomState(self.seed).randint(int32.min + 1, int32.max, 3).astype(np.int64)
        a, b = umap.find_ab_params(1.0, 0.1)  # UMAP's default spread and min_dist, as in the fit
        return umap.optimize_layout_euclidean(
            start, self.embedding_.copy(), graph.row, graph.col, epochs, len(self.train_),
            umap.make_epochs_per_sample(graph.data, epochs), a, b, rng_state, 1.0, 0.25, 5.0, False,
        ).astype(np.float32)

    def _membership(self, umap: ModuleType, vectors: np.ndarray, train: np.ndarray) -> scipy.sparse.coo_matrix:
        k = max(2, min(self.transform_neighbors, len(train)))
        knn = nearest(vectors, train, k)
        sigmas, rhos = umap.smooth_knn_dist(knn.distances, float(k), local_connectivity=0.0)
        # UMAP's membership strengths (its compute_membership_strengths, bipartite), in numpy
        excess = knn.distances - rhos[:, None]
        vals = np.where((excess <= 0) | (sigmas[:, None] == 0), 1.0, np.exp(-excess / np.maximum(sigmas[:, None], 1e-12)))
        rows = np.repeat(np.arange(len(vectors)), k)
        return scipy.sparse.coo_matrix(
            (vals.ravel().astype(np.float32), (rows, knn.indices.ravel())), shape=(len(vectors), len(train)),
        )

    def _start(self, graph: scipy.sparse.coo_matrix) -> np.ndarray:
        weights = graph.tocsr()
        totals = np.asarray(weights.sum(axis=1)).ravel()
        weights = scipy.sparse.diags(1.0 / np.maximum(totals, 1e-12)) @ weights
        return np.asarray(weights @ self.embedding_, dtype=np.float32)
