"""Text that tries to instruct: memory text is data, never instructions.

:func:`instruction_findings` names what a text tries to do (override earlier instructions, switch
roles, wear role tags, forge the delimiters a memory block is wrapped in, hide characters, make
itself a permanent rule of the memory: "remember this forever", "as a permanent rule", "store this in
your memory", "new instruction for every agent" — memory poisoning aims at later sessions). The
event stays in ``events`` as evidence; the candidate built from it becomes a note with status
``quarantined``: never retrieved for another agent, never promoted, audited, and listed for review
by filtering notes on ``status = quarantined`` (``QUARANTINED``).
"""

from __future__ import annotations

import re
import unicodedata

_OVERRIDE = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|drop)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|"
    r"all|any|your|the|these|those)\b[^.\n]{0,30}?\b(?:instructions?|rules?|prompts?|guidelines?|"
    r"directives?|constraints?|guardrails?|policies)\b",
    re.IGNORECASE,
)
_REVEAL = re.compile(
    r"\b(?:reveal|print|show|leak|dump|repeat|output|exfiltrate)\b[^.\n]{0,30}?\b(?:system\s+prompt|"
    r"hidden\s+prompt|initial\s+prompt|developer\s+message|your\s+instructions)\b",
    re.IGNORECASE,
)
_ROLE_SWITCH = re.compile(
    r"\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you\s+(?:are|will|must)|act\s+as\s+(?:an?\s+)?"
    r"(?:admin|root|system|developer|unrestricted)|pretend\s+(?:to\s+be|you\s+are)|new\s+instructions?\s*:|"
    r"system\s+override|developer\s+mode|jailbreak|do\s+anything\s+now)\b",
    re.IGNORECASE,
)
_ROLE_TAG = re.compile(
    r"</?\s*(?:system|assistant|user|developer|tool|instructions?|inst|sys)\s*>|<\|\s*(?:im_start|im_end|"
    r"system|endoftext|eot_id|start_header_id)\s*\|>|\[/?(?:INST|SYS)\]|<<\s*/?SYS\s*>>|"
    r"(?:^|\n)\s*(?:system|assistant|developer)\s*:\s",
    re.IGNORECASE,
)
_DELIMITER = re.compile(
    r"</?\s*(?:memory|memories|memory[-_]block|context|reference|reference[-_]data|notes?|reverie)"
    r"(?:\s[^>]*)?>|\b(?:BEGIN|END)\s+(?:MEMORY|MEMORIES|CONTEXT|REFERENCE)\b|"
    r"[=#\-]{3,}\s*(?:END|BEGIN)\s+(?:OF\s+)?(?:MEMORY|CONTEXT|REFERENCE)",
    re.IGNORECASE,
)
_PERSIST = re.compile(
    r"\bremember\s+(?:(?:this|that|it)\s+)?(?:forever|for\s+ever|for\s+good|permanently)\b|"
    r"\b(?:as|into)\s+(?:an?\s+)?(?:permanent|standing|global|universal)\s+(?:rule|instruction|directive|order|memory)\b|"
    r"\b(?:store|save|write|put|commit|burn)\s+(?:this|that|it)\s+(?:in|into|to)\s+(?:your|the)\s+"
    r"(?:permanent\s+|long[- ]term\s+)?memory\b|"
    r"\bnew\s+(?:rules?|instructions?|directives?)\s+for\s+(?:every|all|each)\s+(?:agents?|assistants?)\b",
    re.IGNORECASE,
)
_HIDDEN = re.compile(
    "[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]"
)
QUARANTINED = "quarantined"
_CHECKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("override", _OVERRIDE), ("reveal", _REVEAL), ("role_switch", _ROLE_SWITCH),
    ("role_tag", _ROLE_TAG), ("forged_delimiter", _DELIMITER), ("persistence", _PERSIST),
)


def instruction_findings(text: str) -> list[str]:
    """The kinds of instruction attempt found in ``text`` (empty when it reads as plain data)."""
    found = ["hidden_unicode"] if _HIDDEN.search(text) else []
    folded = unicodedata.normalize("NFKC", _HIDDEN.sub("", text))
    found.extend(kind for kind, pattern in _CHECKS if pattern.search(folded))
    return found


def is_instruction(text: str) -> bool:
    return bool(instruction_findings(text))
