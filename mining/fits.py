"""The last fit of each project: its pickled topic model, the 2-D map of its notes and the names of
its clusters (``mining.names``: one for readers of every note, one for readers of shared notes).

All are caches of a computation, not knowledge: one row per project in ``mining_models``, one in
``mining_maps`` and one in ``mining_names``, each replaced whole in a single commit (never half-written). The model row lists
every note the model has placed (fitted or assigned later) with its label, so an incremental run
knows which notes are new and which notes form each cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np

from mining.names import ClusterNames
from mining.topics import TopicModel
from reverie.store import Store


@dataclass(frozen=True)
class StoredFit:
    fit_id: str
    fitted_at: datetime
    note_ids: list[str]
    labels: np.ndarray
    model: TopicModel


@dataclass(frozen=True)
class ProjectMap:
    fit_id: str
    updated_at: datetime
    note_ids: list[str]
    x: np.ndarray
    y: np.ndarray
    labels: np.ndarray


class Fits:
    def __init__(self, store: Store) -> None:
        self._keyed = store.keyed

    def load(self, project: str) -> StoredFit | None:
        row = self._keyed["mining_models"].get(project)
        if row is None:
            return None
        return StoredFit(
            row["fit_id"], row["fitted_at"], list(row["note_ids"]), np.asarray(row["labels"], dtype=np.int32),
            TopicModel.from_bytes(row["model"]),
        )

    def save(self, project: str, fit: StoredFit) -> None:
        row = {
            "project": project, "fit_id": fit.fit_id, "fitted_at": fit.fitted_at, "note_ids": fit.note_ids,
            "labels": fit.labels.astype(np.int32).tolist(), "model": fit.model.to_bytes(),
        }
        self._upsert("mining_models", row)

    def mapped_projects(self) -> list[str]:
        """The projects with a map, the most recently updated first."""
        found = self._keyed["mining_maps"].select(columns=["project", "updated_at"])
        pairs = zip(found["updated_at"].to_pylist(), found["project"].to_pylist(), strict=True)
        return [project for _, project in sorted(pairs, reverse=True)]

    def map(self, project: str) -> ProjectMap | None:
        row = self._keyed["mining_maps"].get(project)
        if row is None:
            return None
        return ProjectMap(
            row["fit_id"], row["updated_at"], list(row["note_ids"]), np.asarray(row["x"], dtype=np.float32),
            np.asarray(row["y"], dtype=np.float32), np.asarray(row["labels"], dtype=np.int32),
        )

    def save_map(self, project: str, points: ProjectMap) -> None:
        row = {
            "project": project, "fit_id": points.fit_id, "updated_at": points.updated_at, "note_ids": points.note_ids,
            "x": points.x.astype(np.float32).tolist(), "y": points.y.astype(np.float32).tolist(),
            "labels": points.labels.astype(np.int32).tolist(),
        }
        self._upsert("mining_maps", row)

    def names(self, project: str) -> ClusterNames | None:
        row = self._keyed["mining_names"].get(project)
        if row is None:
            return None
        return ClusterNames(list(row["labels"]), list(row["names"]), list(row["shared_names"]))

    def save_names(self, project: str, fit_id: str, at: datetime, names: ClusterNames) -> None:
        row = {
            "project": project, "fit_id": fit_id, "updated_at": at, "labels": names.labels,
            "names": names.names, "shared_names": names.shared,
        }
        self._upsert("mining_names", row)

    def _upsert(self, name: str, row: dict) -> None:
        self._keyed[name].upsert([row])
