"""The one shared embedding service: a named async actor that batches concurrent requests.

Agent actors, retrieval and mining call it instead of loading the model themselves (torch and the
weights live in this one process). Requests arriving within ``embedding_batch_wait_ms`` of each
other are embedded together, up to ``embedding_max_batch`` texts per model call; the model runs in a
worker thread so requests keep gathering meanwhile. It also counts tokens with the model's own
tokenizer, so token budgets need no tokenizer in the callers either.

Ray imports an actor's module in every process that looks the actor up by name, so the model and
the tokenizer are imported inside the service's constructor only.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import ray

from reverie.embed import Embedder, make_embedder
from reverie.ports import EMBEDDER_ACTOR
from reverie.settings import ActorSettings, EmbeddingSettings, Settings


@dataclass
class _Request:
    texts: list[str]
    done: asyncio.Future[np.ndarray] = field(repr=False)


class EmbeddingService:
    def __init__(self, embedding: EmbeddingSettings, actors: ActorSettings) -> None:
        from reverie.tokens import TokenCounter

        self._embedder: Embedder = make_embedder(embedding)
        self._tokens = TokenCounter()
        self._wait = actors.embedding_batch_wait_ms / 1000.0
        self._max_batch = actors.embedding_max_batch
        self._queue: list[_Request] = []
        self._worker: asyncio.Task[None] | None = None
        self.calls = 0
        self.model_calls = 0

    def info(self) -> dict[str, Any]:
        return {"name": self._embedder.name, "dim": self._embedder.dim, "pid": os.getpid(),
                "calls": self.calls, "model_calls": self.model_calls}

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(n, dim) float32 unit rows, in the order of ``texts``."""
        self.calls += 1
        if not texts:
            return np.zeros((0, self._embedder.dim), dtype=np.float32)
        request = _Request(list(texts), asyncio.get_running_loop().create_future())
        self._queue.append(request)
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._drain())
        return await request.done

    async def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return await asyncio.to_thread(self._tokens.count_many, list(texts))

    async def _drain(self) -> None:
        await asyncio.sleep(self._wait)
        while self._queue:
            taken = self._take()
            try:
                vectors = await asyncio.to_thread(self._embed_all, [t for r in taken for t in r.texts])
            except Exception as exc:  # noqa: BLE001 - handed to every waiting caller, not swallowed
                for request in taken:
                    request.done.set_exception(exc)
                continue
            start = 0
            for request in taken:
                request.done.set_result(vectors[start:start + len(request.texts)])
                start += len(request.texts)

    def _take(self) -> list[_Request]:
        """Whole requests up to the batch size (a larger single request is taken alone)."""
        taken: list[_Request] = []
        size = 0
        while self._queue and (not taken or size + len(self._queue[0].texts) <= self._max_batch):
            request = self._queue.pop(0)
            taken.append(request)
            size += len(request.texts)
        return taken

    def _embed_all(self, texts: list[str]) -> np.ndarray:
        self.model_calls += 1
        return self._embedder.embed(texts)


EmbeddingServiceActor = ray.remote(EmbeddingService)


def embedding_options(settings: Settings) -> dict[str, Any]:
    actors = settings.actors
    return {
        "name": EMBEDDER_ACTOR, "namespace": actors.namespace, "get_if_exists": True,
        "num_cpus": actors.embedding_num_cpus, "max_restarts": actors.max_restarts,
        "max_concurrency": 1000,
    }
