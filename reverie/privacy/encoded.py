"""Secrets inside the base64 values of a Kubernetes Secret's ``data`` (kubernetes.io, "Secrets": "The
values for all keys in the data field have to be base64-encoded strings"), as ``kubectl get secret
-o yaml`` (or ``-o json``) prints them: the encoding hides the shape every other detector looks for
(``postgresql://user:password@host``, ``sk_live_…``, a 40-character AWS secret under its name).

Each value is decoded; where it is text, the secret detectors run on ``NAME: decoded`` (the key's name
is the variable's, ``DATABASE_URL``, ``AWS_SECRET_ACCESS_KEY``, ``password``), and whatever they find in
the decoded value masks the whole base64 value, under the best-ranked label among them. A value that
decodes to nothing secret (``username: YXBw``, "app"; a certificate) stays.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Detector, Finding, folded
from reverie.privacy.values import filler

# The manifest is a Secret (``kind: Secret``, ``"kind": "Secret"``).
SECRET_KIND = re.compile(r"(?m)[\"']?kind[\"']?[ \t]*:[ \t]*[\"']?Secret[\"']?[ \t]*,?[ \t]*$")
# YAML: ``data:`` and the lines indented under it; JSON: ``"data": { … }``.
YAML_DATA = re.compile(r"(?m)^(?P<indent>[ \t]*)data:[ \t]*\r?\n(?P<body>(?:(?P=indent)[ \t]+[^\n]*(?:\n|$))+)")
YAML_ENTRY = re.compile(r"(?m)^[ \t]+(?P<key>[\w.\-]+):[ \t]*[\"']?(?P<v>[A-Za-z0-9+/]{4,}={0,2})[\"']?[ \t]*\r?$")
JSON_DATA = re.compile(r"\"data\"[ \t]*:[ \t]*\{(?P<body>[^{}]*)\}")
JSON_ENTRY = re.compile(r"\"(?P<key>[\w.\-]+)\"[ \t]*:[ \t]*\"(?P<v>[A-Za-z0-9+/]{4,}={0,2})\"")


def decoded_text(value: str) -> str | None:
    """The base64 ``value`` as text, or None where it is not base64 of printable UTF-8."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        text = decoded.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    printable = all(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if text.strip() and printable else None


@dataclass(frozen=True)
class SecretData:
    """The base64 values of a Secret's ``data`` whose decoded text holds a secret (the module's docstring):
    ``detectors`` find it, ``rank`` orders their labels (lowest first)."""

    detectors: tuple[Detector, ...]
    rank: Callable[[str], int]
    triggers: tuple[str, ...] = ("secret",)

    def find(self, text: str) -> Iterator[Finding]:
        if SECRET_KIND.search(text) is None:
            return
        for block, entry in ((YAML_DATA, YAML_ENTRY), (JSON_DATA, JSON_ENTRY)):
            for data in block.finditer(text):
                for match in entry.finditer(text, data.start("body"), data.end("body")):
                    label = self.label_of(match.group("key"), match.group("v"))
                    if label is not None:
                        yield Finding("SECRET", label, *match.span("v"))

    def label_of(self, key: str, value: str) -> str | None:
        decoded = decoded_text(value)
        if decoded is None:
            return None
        candidate = f"{key}: {decoded}"
        lowered = folded(candidate)
        labels = [
            f.label
            for detector in self.detectors
            if not detector.triggers or any(t in lowered for t in detector.triggers)
            for f in detector.find(candidate)
            if f.category == "SECRET" and f.end > len(key) + 2 and not filler(candidate[f.start:f.end])
        ]
        return min(labels, key=self.rank) if labels else None
