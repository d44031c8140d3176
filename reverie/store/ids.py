"""Ids the store mints."""

from __future__ import annotations

import secrets
import time


def ordered_id(prefix: str) -> str:
    """A unique id that sorts by creation time (wall clock), whatever clock the caller injects."""
    return f"{prefix}-{time.time_ns():x}-{secrets.token_hex(3)}"
