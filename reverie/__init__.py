"""Reverie: shared, evidence-backed memory for fleets of LLM agents.

``reverie.Client`` and ``reverie.AsyncClient`` (the HTTP client) are imported on first use, so
``import reverie`` stays light for the parts that never talk HTTP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reverie.client import AsyncClient, Client

__all__ = ["AsyncClient", "Client"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from reverie import client

        return getattr(client, name)
    raise AttributeError(f"module 'reverie' has no attribute {name!r}")
