"""The topic model of one project: reducer -> clusterer, and a 2-D map beside them (BERTopic-like).

The map is a 2-D UMAP over the same neighbours, started from the two principal axes of the
clustering space so that ``map_epochs`` (fewer than the fit's) suffice: it is drawn, not clustered.

``fit`` runs the named stages (reduce, cluster, map) over unit vectors and returns the labels;
``assign`` places new vectors into the fitted clusters and onto the map without refitting. The
model pickles, so a later process (another mining run) can assign incrementally.
"""

from __future__ import annotations

import logging
import pickle
import time
from dataclasses import dataclass

import numpy as np

from mining.clustering import Clusterer, HdbscanClustering
from mining.reduction import Neighbours, NoReduction, PlaneProjection, Reducer, UmapReduction, nearest
from reverie.settings import MiningSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Fitted:
    labels: np.ndarray
    coordinates: np.ndarray


class TopicModel:
    def __init__(self, reducer: Reducer, clusterer: Clusterer, projection: Reducer) -> None:
        self.reducer = reducer
        self.clusterer = clusterer
        self.projection = projection

    def fit(self, vectors: np.ndarray) -> Fitted:
        knn = self._neighbours(vectors)
        start = time.perf_counter()
        reduced = _fit(self.reducer, vectors, knn)
        log.info("reduced %d vectors in %.1f s", len(vectors), time.perf_counter() - start)
        labels = self.clusterer.fit(reduced)
        log.info("clustered: %d clusters, %d noise", len(set(labels.tolist()) - {-1}), int((labels < 0).sum()))
        coordinates = _fit(self.projection, vectors, knn, _plane(reduced))
        return Fitted(labels, coordinates)

    def assign(self, vectors: np.ndarray) -> Fitted:
        if len(vectors) == 0:
            return Fitted(np.zeros(0, dtype=np.int32), np.zeros((0, 2), dtype=np.float32))
        labels = self.clusterer.assign(self.reducer.transform(vectors))
        return Fitted(labels, self.projection.transform(vectors))

    def _neighbours(self, vectors: np.ndarray) -> Neighbours | None:
        """One exact k-NN graph shared by the UMAP reducer and the UMAP map (the costly part)."""
        umaps = [r for r in (self.reducer, self.projection) if isinstance(r, UmapReduction)]
        if not umaps:
            return None
        k = max(2, min(max(r.n_neighbors for r in umaps), len(vectors) - 1))
        return nearest(np.asarray(vectors, dtype=np.float32), np.asarray(vectors, dtype=np.float32), k, exclude_self=True)

    def to_bytes(self) -> bytes:
        return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)

    @staticmethod
    def from_bytes(data: bytes) -> TopicModel:
        model = pickle.loads(data)  # noqa: S301 - written by this project into its own store
        if not isinstance(model, TopicModel):
            raise TypeError("the stored mining model is not a TopicModel; run a full mining run")
        return model


def _fit(reducer: Reducer, vectors: np.ndarray, knn: Neighbours | None, start: np.ndarray | None = None) -> np.ndarray:
    if isinstance(reducer, UmapReduction):
        return reducer.fit_transform(vectors, knn, start)
    return reducer.fit_transform(vectors)


def _plane(reduced: np.ndarray) -> np.ndarray | None:
    """The clustering space's two principal axes, scaled as UMAP scales its own start: the map's start."""
    if reduced.shape[1] <= 2 or len(reduced) < 3:
        return None
    plane = PlaneProjection().fit_transform(reduced)
    return plane * (10.0 / max(float(np.abs(plane).max()), 1e-12))


def topic_model_for(n_notes: int, settings: MiningSettings) -> TopicModel:
    """UMAP for ``identity_below`` notes or more, the identity (and a plane map) below."""
    clusterer = HdbscanClustering(settings.min_cluster_size, settings.min_samples, settings.cluster_selection)
    if n_notes < settings.identity_below:
        return TopicModel(NoReduction(), clusterer, PlaneProjection())
    reducer = UmapReduction(settings.umap_neighbors, settings.umap_components, settings.umap_epochs, settings.seed,
                            settings.assign_neighbors)
    projection = UmapReduction(settings.umap_neighbors, 2, settings.map_epochs, settings.seed, settings.assign_neighbors)
    return TopicModel(reducer, clusterer, projection)
