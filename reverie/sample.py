"""The bundled fleet sample: a few agents' sessions that ``reverie demo`` captures."""

from __future__ import annotations

import json
from importlib import resources

from reverie.capture import CaptureRequest


def fleet_sample() -> list[CaptureRequest]:
    """The bundled sessions as capture requests, oldest first."""
    raw = resources.files("reverie").joinpath("data/fleet_sample.json").read_text(encoding="utf-8")
    sessions = json.loads(raw)["sessions"]
    return [CaptureRequest.model_validate(s) for s in sessions]
