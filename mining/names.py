"""Names of clusters and patterns: their most distinctive words, by class-based TF-IDF (BERTopic's way).

Each cluster is one class: the statements of its members joined into one document. Words are
counted per class (scikit-learn's ``CountVectorizer``, English stop words out, words of three or
more letters, no numbers) and weighted by ``TfidfTransformer`` across the classes (noise, label
-1, is a class too, so words common to everything weigh little, but it gets no name). A class's
name is its ``NAME_WORDS`` heaviest words, so a name only ever holds words of that class's own
statements.

A name is built only from notes its reader may see. ``name_clusters`` therefore computes two
names per cluster, each from a whole computation of its own: ``name`` over every member (for
readers who may see personal notes: admins) and ``shared_name`` over the shared (module and
project) members only, personal notes left out of the counts and of the weights (for everyone
else); a cluster of personal notes only has no shared name. They are stored with the fit
(``mining.fits``) and copied into the graph's pattern nodes, and the readers pick one
(``mining.service``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer

NAME_WORDS = 3
_TOKENS = r"(?u)\b[^\W\d_]{3,}\b"
NOISE = -1


@dataclass(frozen=True)
class ClusterNames:
    """The names of a fit's clusters, per label; ``shared`` holds the names for readers of shared notes."""

    labels: list[int]
    names: list[str | None]
    shared: list[str | None]

    def for_reader(self, *, personal: bool) -> dict[int, str | None]:
        """Label -> the name a reader may see (``personal``: a reader of personal notes)."""
        return dict(zip(self.labels, self.names if personal else self.shared, strict=True))

    def of(self, label: int, *, personal: bool) -> str | None:
        return self.for_reader(personal=personal).get(label)


def class_names(documents: Mapping[int, Sequence[str]], size: int = NAME_WORDS) -> dict[int, str]:
    """Label -> its ``size`` words of highest class-based TF-IDF weight (ties: alphabetical).

    Labels with no statements, or none with a word that is not a stop word, get no name.
    """
    labels = sorted(k for k, texts in documents.items() if texts)
    joined = [" ".join(documents[k]) for k in labels]
    vectorizer = CountVectorizer(stop_words="english", token_pattern=_TOKENS, lowercase=True)
    analyse = vectorizer.build_analyzer()
    if not any(analyse(text) for text in joined):  # only stop words: no vocabulary to weigh
        return {}
    counts = vectorizer.fit_transform(joined)
    weights = TfidfTransformer(norm=None, sublinear_tf=True).fit_transform(counts).tocsr()  # sparse: classes x words
    words = vectorizer.get_feature_names_out()
    names = {}
    for row, label in enumerate(labels):
        if label == NOISE:
            continue
        start, end = weights.indptr[row], weights.indptr[row + 1]
        scored = sorted(zip(weights.data[start:end].tolist(), weights.indices[start:end].tolist(), strict=True),
                        key=lambda pair: (-round(pair[0], 9), words[pair[1]]))
        picked = [str(words[j]) for weight, j in scored if weight > 0][:size]
        if picked:
            names[label] = ", ".join(picked)
    return names


def name_clusters(labels: Sequence[int], statements: Sequence[str], personal: Sequence[bool]) -> ClusterNames:
    """Both names of every cluster of a fit (``personal[i]``: note ``i`` is a personal note)."""
    every: dict[int, list[str]] = {}
    shared: dict[int, list[str]] = {}
    for label, text, private in zip(labels, statements, personal, strict=True):
        every.setdefault(int(label), []).append(text)
        if not private:
            shared.setdefault(int(label), []).append(text)
    named, named_shared = class_names(every), class_names(shared)
    clusters = sorted(k for k in every if k != NOISE)
    return ClusterNames(clusters, [named.get(k) for k in clusters], [named_shared.get(k) for k in clusters])
