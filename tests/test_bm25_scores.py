"""BM25 scoring and top-k selection (serve/retrieval/ranking.py): the compiled sums give the library's scores exactly."""

from __future__ import annotations

import numpy as np

from serve.retrieval.ranking import COMPILED_FROM, bm25_index, bm25_scores, compiled, postings_sum, query_terms, top

CORPUS = ["Deploys go through blue green on Fridays", "The deploy failed twice on Friday night",
          "Invoices are archived after ninety days", "Run pytest with -x before pushing",
          "Blue green switches need a change ticket", "Staging data is wiped every Sunday", "deploy deploy deploy"]


def test_the_compiled_sums_are_the_librarys_scores() -> None:
    index = bm25_index(CORPUS)
    for query in ["blue green deploy", "deploy deploy friday", "ticket", "invoices archived days pytest"]:
        terms = index.get_tokens_ids(query_terms(query))
        ours, theirs = postings_sum(index, terms), index.get_scores_from_ids(terms)
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)
        assert ours.max() > 0


def test_a_large_index_is_scored_by_the_compiled_sums() -> None:
    corpus = [f"{CORPUS[i % len(CORPUS)]} item{i}" for i in range(COMPILED_FROM)]
    index = bm25_index(corpus)
    ours = bm25_scores(index, "blue green deploy item17")
    assert ours is not None
    np.testing.assert_array_equal(ours, index.get_scores_from_ids(index.get_tokens_ids(query_terms("blue green deploy item17"))))
    assert int(np.argmax(ours)) == 17


def test_a_query_of_unknown_words_scores_nothing() -> None:
    assert bm25_scores(bm25_index(CORPUS), "kangaroo zeppelin") is None


def test_a_function_numba_cannot_cache_is_compiled_anyway() -> None:
    """Where numba finds no writable cache (here: code without a source file, as a read-only install
    and home would be), the scorer is compiled per process instead of failing the import."""
    space: dict[str, object] = {}
    exec("def doubled(values):\n    return values * 2\n", space)  # noqa: S102 - a fixed snippet, no source file
    doubled = compiled(space["doubled"])  # type: ignore[arg-type]
    np.testing.assert_array_equal(doubled(np.arange(3)), [0, 2, 4])


def test_top_is_a_stable_sort_cut_short() -> None:
    """The partition that picks the best few returns what a stable sort of all would, ties by index."""
    rng = np.random.default_rng(7)
    for _ in range(500):
        scores = rng.integers(-2, 5, size=int(rng.integers(0, 60))).astype(np.float32)
        depth = int(rng.integers(0, 20))
        positive = np.flatnonzero(scores > 0)
        expected = [i for i in np.argsort(-scores, kind="stable") if scores[i] > 0][:depth]
        assert top(scores, depth, positive).tolist() == expected
        assert top(scores, depth).tolist() == np.argsort(-scores, kind="stable")[:depth].tolist()
