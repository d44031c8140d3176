"""How candidate notes are ordered (DESIGN §4.6, seed 000 "Time and ranking").

Two rankings of the visible candidates, fused by reciprocal rank:

- dense: ``scope_weight × similarity + w_f × freshness + w_c × confidence + w_h × hits``, where
  freshness is ``max(0, 1 − age_days / freshness_days)`` (age since the note was last verified, seen or
  created; feedback flushes do not make a note look fresh) and hits is ``min(1, log1p(hit_count) / log1p(hits_saturation))``;
- lexical: BM25 over the statements (``bm25s``), of the same visible notes.

A note's fused score is ``1 / (rrf_k + dense_rank) + weight_lexical / (rrf_k + lexical_rank)`` (a
list it is missing from adds nothing). Notes under ``min_similarity``, or under ``relative_similarity``
times the best candidate's similarity, are never candidates, whatever their words: full text reorders
close candidates (and wins on rare words: names, ids, error codes) but never drags in a far one.
Measured on the phrasebooks of ``bench.eval`` (BENCHMARKS.md, "Retrieval (issue 6)").
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence

import bm25s
import numpy as np
import Stemmer

from reverie.settings import RetrievalSettings

DAY = 86400.0
_STEMMERS = threading.local()
COMPILED_FROM = 5000  # documents in a BM25 index from which its sums are compiled (bench.retrieval: 10k-100k)


def words(texts: Sequence[str]) -> list[list[str]]:
    """Texts as BM25 terms: lower-cased words, English stop words out, Snowball-stemmed."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:  # a Stemmer is not thread-safe: one per thread
        stemmer = _STEMMERS.english = Stemmer.Stemmer("english")
    return bm25s.tokenize(list(texts), stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False)


def bm25_index(texts: Sequence[str]) -> bm25s.BM25:
    retriever = bm25s.BM25()
    retriever.index(words(texts), show_progress=False)
    return retriever


@functools.lru_cache(maxsize=256)
def query_terms(query: str) -> list[str]:
    """A query's BM25 terms, remembered for the few latest queries (one retrieval scores the notes,
    the turns and their keys with them). Callers must not change the list."""
    return words([query])[0]


def bm25_scores(retriever: bm25s.BM25, query: str) -> np.ndarray | None:
    """BM25 score of every document for ``query``; ``None`` when no word of it is indexed.

    On an index of ``COMPILED_FROM`` documents or more, the postings of the query's terms are summed
    by a compiled loop that lets go of the interpreter lock (``bm25s`` adds them with ``np.add.at``,
    which holds it: under concurrent requests a replica then scores one query at a time); the same
    sums in the same order, so the same scores. A smaller index is left to the library (its sums are
    short, and numba costs a process half a second to start); so are variants that also score a
    term's absence."""
    known = retriever.get_tokens_ids(query_terms(query))
    if not known:
        return None
    if retriever.nonoccurrence_array is not None or retriever.scores["num_docs"] < COMPILED_FROM:
        return retriever.get_scores_from_ids(known)
    return postings_sum(retriever, known)


def postings_sum(retriever: bm25s.BM25, terms: Sequence[int]) -> np.ndarray:
    """The compiled sums of ``terms``' postings (what ``get_scores_from_ids`` gives, without the lock)."""
    index = retriever.scores
    return _scorer()(index["indptr"], index["indices"], index["data"], np.asarray(terms, dtype=np.int64),
                     int(index["num_docs"]))


def _postings_sum(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, terms: np.ndarray,
                  documents: int) -> np.ndarray:  # pragma: no cover - compiled
    scores = np.zeros(documents, dtype=data.dtype)
    for term in terms:
        for j in range(indptr[term], indptr[term + 1]):
            scores[indices[j]] += data[j]
    return scores


def compiled(function: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """``function`` compiled without the interpreter lock, its machine code cached on disk where
    numba finds a writable place (beside the source, else the user's cache); where there is none (a
    read-only install and home), compiled once per process instead."""
    import numba  # noqa: PLC0415 - only processes that score a large index pay for it

    try:
        return numba.njit(nogil=True, cache=True)(function)
    except RuntimeError:
        return numba.njit(nogil=True)(function)


@functools.cache
def _scorer() -> Callable[..., np.ndarray]:
    return compiled(_postings_sum)


def warm_scorer() -> None:
    """Compile (or load) the BM25 sums now, not in the first request (half a second or more, under
    the lock)."""
    one = np.zeros(2, dtype=np.int64)
    _scorer()(one, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32), np.zeros(1, dtype=np.int64), 1)


def scope_weight(settings: RetrievalSettings, scope: str) -> float:
    kind = scope.split(":", 1)[0]
    return {
        "personal": settings.weight_personal, "module": settings.weight_module,
        "project": settings.weight_project, "team": settings.weight_team,
    }[kind]


def priors(settings: RetrievalSettings, fresh_at: np.ndarray, confidence: np.ndarray, hits: np.ndarray,
           now: float) -> np.ndarray:
    """The part of the dense score that does not depend on the query."""
    age_days = np.maximum(0.0, now - fresh_at) / DAY
    freshness = np.maximum(0.0, 1.0 - age_days / settings.freshness_days)
    hit_score = np.minimum(1.0, np.log1p(hits) / np.log1p(max(1, settings.hits_saturation)))
    return (settings.weight_freshness * freshness + settings.weight_confidence * confidence
            + settings.weight_hits * hit_score).astype(np.float32)


def fuse(dense: Sequence[str], lexical: Sequence[str], settings: RetrievalSettings) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion of two ranked id lists, best first (ties keep the dense order)."""
    scores: dict[str, float] = {}
    for rank, key in enumerate(dense, start=1):
        scores[key] = scores.get(key, 0.0) + 1.0 / (settings.rrf_k + rank)
    for rank, key in enumerate(lexical, start=1):
        scores[key] = scores.get(key, 0.0) + settings.weight_lexical / (settings.rrf_k + rank)
    order = {key: i for i, key in enumerate([*dense, *lexical])}
    return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))


def top(scores: np.ndarray, depth: int, among: np.ndarray | None = None) -> np.ndarray:
    """Indices of the ``depth`` highest scores among ``among`` (ascending indices; all finite scores
    when None), best first, ties by index: what a stable sort of all of them gives, at the cost of a
    partition."""
    pool = np.flatnonzero(np.isfinite(scores)) if among is None else among
    if depth <= 0:
        return pool[:0]
    if pool.size > depth:
        kth = np.partition(scores[pool], pool.size - depth)[pool.size - depth]
        pool = pool[scores[pool] >= kth]  # every tie of the last place, so the sort below picks by index
    return pool[np.argsort(-scores[pool], kind="stable")][:depth]
