"""The topic model on real MiniLM vectors: planted paraphrase groups come back as clusters."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import adjusted_rand_score

from mining.reduction import NoReduction, UmapReduction, nearest
from mining.topics import TopicModel, topic_model_for
from mining_data import LESSONS, unit_vectors
from reverie.embed import Embedder
from reverie.settings import MiningSettings


@pytest.fixture(scope="module")
def planted(minilm: Embedder) -> tuple[np.ndarray, np.ndarray]:
    texts = [t for g in LESSONS for t in g["texts"]]
    labels = np.array([i for i, g in enumerate(LESSONS) for _ in g["texts"]])
    return minilm.embed(texts), labels


def test_planted_paraphrase_groups_are_recovered_through_umap(planted: tuple[np.ndarray, np.ndarray]) -> None:
    vectors, labels = planted
    model = topic_model_for(len(vectors), MiningSettings())
    assert isinstance(model.reducer, UmapReduction)  # 72 notes: above identity_below
    fitted = model.fit(vectors)
    assert adjusted_rand_score(labels, fitted.labels) >= 0.9
    assert fitted.coordinates.shape == (len(vectors), 2)


def test_small_sets_skip_the_reducer_and_still_recover_the_groups(planted: tuple[np.ndarray, np.ndarray]) -> None:
    vectors, labels = planted
    keep = np.arange(len(vectors)) % 6 < 3  # 3 paraphrases of each group: 36 notes
    model = topic_model_for(int(keep.sum()), MiningSettings())
    assert isinstance(model.reducer, NoReduction)
    assert adjusted_rand_score(labels[keep], model.fit(vectors[keep]).labels) >= 0.9


def test_new_notes_are_assigned_without_a_refit_and_after_a_pickle_round_trip(planted: tuple[np.ndarray, np.ndarray]) -> None:
    vectors, labels = planted
    held_out = np.arange(len(vectors)) % 6 == 5
    model = topic_model_for(int((~held_out).sum()), MiningSettings())
    fitted = model.fit(vectors[~held_out])
    cluster_of_group = {g: np.bincount(fitted.labels[labels[~held_out] == g] + 1).argmax() - 1 for g in set(labels)}
    copy = TopicModel.from_bytes(model.to_bytes())
    assigned = copy.assign(vectors[held_out])
    expected = np.array([cluster_of_group[g] for g in labels[held_out]])
    placed = assigned.labels >= 0
    assert (assigned.labels[placed] == expected[placed]).all()  # never into a wrong cluster
    assert placed.mean() >= 0.8  # the rest stay noise until the next full fit
    assert np.array_equal(assigned.labels, model.assign(vectors[held_out]).labels)


def test_exact_neighbours_match_a_full_sort() -> None:
    points = unit_vectors(np.random.default_rng(3), 300, 16)
    found = nearest(points, points, 7, exclude_self=True, block=64)
    sims = points @ points.T
    np.fill_diagonal(sims, 2.0)
    expected = np.argsort(-sims, axis=1, kind="stable")[:, :7]
    assert np.array_equal(found.indices, expected)
    assert np.allclose(found.distances[:, 1:], 1 - np.take_along_axis(sims, expected, 1)[:, 1:], atol=1e-5)
    assert (found.distances[:, 0] == 0).all()


def test_the_fit_is_deterministic(planted: tuple[np.ndarray, np.ndarray]) -> None:
    vectors, _ = planted
    first = topic_model_for(len(vectors), MiningSettings()).fit(vectors)
    second = topic_model_for(len(vectors), MiningSettings()).fit(vectors)
    assert np.array_equal(first.labels, second.labels)
    assert np.allclose(first.coordinates, second.coordinates)
