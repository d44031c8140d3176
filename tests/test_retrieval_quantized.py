"""A large scope's quantized search (serve/retrieval/scopeblock.py): the fast-scan candidates,
re-scored exactly, give the exact scan's best notes; rows added after the copy was built and rows
retired since are honoured; an odd dimension still builds."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from reverie.settings import RetrievalSettings
from serve.retrieval.scopeblock import Cached, ScopeBlock, quantized

# plain cosine ranking: no priors, no floor (what the quantized copy must reproduce)
PLAIN = RetrievalSettings(min_similarity=-2.0, weight_freshness=0.0, weight_confidence=0.0, weight_hits=0.0)
EMPTY = pa.table({"x": [0]})


def _clustered(rng: np.random.Generator, n: int, dim: int, topics: int = 40) -> np.ndarray:
    """Unit vectors around a few topics (cosine about 0.5 within a topic), as sentence embeddings lie."""
    centres = rng.normal(size=(topics, dim))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    noisy = centres[rng.integers(topics, size=n)] + rng.normal(scale=1.0 / np.sqrt(dim), size=(n, dim))
    return (noisy / np.linalg.norm(noisy, axis=1, keepdims=True)).astype(np.float32)


def _block(vectors: np.ndarray) -> ScopeBlock:
    block = ScopeBlock(("team", None), 1.0, vectors.shape[1])
    for i, vector in enumerate(vectors):
        block.append(Cached(str(i), 1, "", EMPTY, 0), vector, {})
    return block


def _found(block: ScopeBlock, query: np.ndarray, top: int = 10) -> list[int]:
    """The ``top`` best of a search at the configured depth (the ranking takes ``depth`` from each block)."""
    return [int(c.cached.note_id) for c in block.search(query, 0.0, PLAIN.depth, PLAIN).candidates()][:top]


def test_the_quantized_search_finds_the_exact_scans_best_notes() -> None:
    rng = np.random.default_rng(7)
    vectors = _clustered(rng, 6000, 384)
    block = _block(vectors)
    block.build_index()
    assert block.ann is not None and block.ann.n == 6000
    queries = _clustered(rng, 60, 384)
    recalls = [len(set(_found(block, q)) & set(np.argsort(-(vectors @ q))[:10].tolist())) / 10 for q in queries]
    assert np.mean(recalls) >= 0.98 and min(recalls) >= 0.8


def test_rows_added_after_the_build_and_rows_retired_since_are_honoured() -> None:
    rng = np.random.default_rng(8)
    vectors = _clustered(rng, 3000, 64)
    block = _block(vectors)
    block.build_index()
    late = _clustered(rng, 1, 64)[0]
    slot = block.append(Cached("late", 1, "", EMPTY, 0), late, {})
    assert block.search(late, 0.0, 1, PLAIN).candidates()[0].cached.note_id == "late"
    best = _found(block, vectors[42], 1)[0]
    assert best == 42
    block.retire(42)
    block.retire(slot)
    assert 42 not in _found(block, vectors[42]) and "late" not in {c.cached.note_id for c in
                                                                   block.search(late, 0.0, 10, PLAIN).candidates()}


@pytest.mark.parametrize("dim", [63, 64])
def test_any_dimension_builds_a_copy_that_ranks_a_stored_vector_first(dim: int) -> None:
    vectors = _clustered(np.random.default_rng(dim), 500, dim)
    index = quantized(vectors)
    _, found = index.search(vectors[:5], 1)
    assert found[:, 0].tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(("rows", "wanted"), [(999, False), (1000, True)])
def test_a_low_ann_above_never_quantizes_a_scope_too_small_to_train_on(rows: int, wanted: bool) -> None:
    block = _block(_clustered(np.random.default_rng(9), rows, 32))
    assert block.wants_index(PLAIN.model_copy(update={"ann_above": 10})) is wanted
