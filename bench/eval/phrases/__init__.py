"""Phrasebooks: the wording a fleet scenario is written in.

A :class:`Frame` is one kind of knowledge with its paraphrases (statements), the questions that
should retrieve it (worded differently from every statement) and, where the knowledge has a value
that can change, how a correction, a tool's verification and a wrong claim are said. Slots:
``{module}``, ``{project}``, ``{value}``, ``{old}`` (the value a correction replaces). Secrets and
personal data are ``(kind, template)`` pairs whose ``{value}`` is a planted canary of that kind
(see :mod:`bench.eval.canaries`).

Eight phrasebooks exist and must stay apart: ``dev``, ``dev2``, ``dev3``, ``dev4``, ``dev5``, ``dev6`` and ``dev7``
(tune on them) and ``heldout`` (report on it), each written independently, with different content and wording, and
never from the extractor's rules (``dev2``, ``dev3`` and ``dev4`` were also written without reading
``heldout``; ``dev3``, an ML-research team, also without reading the extractor's rules or reusing
``dev``'s and ``dev2``'s domain or wording; ``dev4``, a game studio, likewise without reading the
extractor's rules or reusing the domain or wording of ``dev``, ``dev2`` or ``dev3``; ``dev5``, an embedded
firmware team, written without reading ``heldout``, the extractor's rules or the other books' wording; ``dev6``, a
mobile app team, likewise written without reading ``heldout``, the extractor's rules or the other books' wording; ``dev7``,
a hospital genomics team, written without reading ``heldout``, the extractor's rules or the other books' wording).
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.eval.truth import ItemType


@dataclass(frozen=True)
class Frame:
    key: str
    type: ItemType
    subject: str
    topic: str
    statements: tuple[str, ...]
    questions: tuple[str, ...]
    values: tuple[str, ...] = ()
    corrections: tuple[str, ...] = ()
    verifications: tuple[str, ...] = ()
    wrong_claims: tuple[str, ...] = ()

    @property
    def correctable(self) -> bool:
        return len(self.values) >= 2 and bool(self.corrections)

    @property
    def contestable(self) -> bool:
        """A verified fact that a wrong claim can deny."""
        return len(self.values) >= 2 and bool(self.wrong_claims) and bool(self.verifications)


@dataclass(frozen=True)
class Phrasebook:
    name: str
    start: str = "2026-03-02T08:00:00Z"
    projects: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    frames: tuple[Frame, ...] = ()
    greetings: tuple[str, ...] = ()
    chatter: tuple[str, ...] = ()
    topical_chatter: tuple[str, ...] = ()
    tool_noise: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    closings: tuple[str, ...] = ()
    secrets: tuple[tuple[str, str], ...] = ()
    personal_data: tuple[tuple[str, str], ...] = ()
    injections: tuple[str, ...] = ()
    offtopic_questions: tuple[str, ...] = ()

    def frames_of(self, item_type: ItemType) -> tuple[Frame, ...]:
        return tuple(f for f in self.frames if f.type == item_type)
