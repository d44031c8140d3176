from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from conftest import ROOT
from reverie.embed import Embedder, HashEmbedder, MiniLMEmbedder, spec_for
from reverie.settings import EmbeddingSettings
from reverie.tokens import TokenCounter


def _run(code: str, **env: str) -> str:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, check=True).stdout


def test_minilm_loads_and_embeds_fully_offline() -> None:
    code = (
        "from reverie.embed import MiniLMEmbedder; from reverie.settings import EmbeddingSettings; "
        "v = MiniLMEmbedder(EmbeddingSettings()).embed(['offline works']); print(v.shape[1], round(float((v**2).sum()), 4))"
    )
    out = _run(code, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_HOME="/nonexistent", no_proxy="*",
               HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9")
    assert out.split() == ["384", "1.0"]


def test_minilm_is_normalised_batched_and_means_something(minilm: Embedder) -> None:
    texts = ["Prefer tables in the weekly report", "Use a table for the weekly report, not prose",
             "The deploy pipeline failed on the database migration"] * 30
    vectors = minilm.embed(texts)
    assert vectors.shape == (90, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > 0.6 > vectors[0] @ vectors[2]
    assert np.allclose(vectors[0], minilm.embed([texts[0]])[0], atol=1e-5)
    assert minilm.embed([]).shape == (0, 384)


def test_hash_embedder_is_deterministic_across_processes() -> None:
    here = HashEmbedder(EmbeddingSettings(provider="hash")).embed(["same text everywhere"])[0]
    code = ("import json; from reverie.embed import HashEmbedder; from reverie.settings import EmbeddingSettings; "
            "print(json.dumps(HashEmbedder(EmbeddingSettings(provider='hash')).embed(['same text everywhere'])[0].tolist()))")
    there = np.array(json.loads(_run(code, PYTHONHASHSEED="123")))
    assert np.allclose(here, there)
    assert np.isclose(np.linalg.norm(here), 1.0)


def test_specs_name_the_embedder_without_loading_it() -> None:
    assert spec_for(EmbeddingSettings()).name == MiniLMEmbedder.name
    assert spec_for(EmbeddingSettings(provider="hash", hash_dim=64)).dim == 64


def test_light_modules_never_import_torch() -> None:
    code = ("import sys, reverie.store, reverie.capture, reverie.tokens, reverie.ports, reverie.privacy; "
            "print('torch' in sys.modules, 'sentence_transformers' in sys.modules)")
    assert _run(code).split() == ["False", "False"]


def test_tokens_are_counted_with_the_bundled_tokenizer() -> None:
    counter = TokenCounter()
    assert counter.count("Prefer tables for weekly reports") == 5
    assert counter.count_many(["a b", "hello world again"]) == [2, 3]
    assert counter.count("word " * 400) == 400  # never truncated at the model limit of 256
