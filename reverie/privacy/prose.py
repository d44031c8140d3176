"""Secrets said in prose (English, with the German and French links "ist", "lautet", "est"):
"the root password is X", "pw X", "use password X", "token: X".

A credential word, then a link ("is", "is now", "set to", ":" …) or nothing, then the value. A
value after a link is kept when it is quoted or does not read as a word (a digit or a symbol, or
mixed case over 8 characters); a value straight after the credential word ("password X") only when
it looks random (digits among mixed-case letters, or hex; a quarter of 16 or more characters
digits; letters whose case flips often) or mixes symbols and digits. So "the password is required"
and "the token endpoint" stay as they are.
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, PatternDetector, Span
from reverie.privacy.values import CODE_REFERENCE, NOT_SECRETS, PLACEHOLDER_VALUE, random_like

CREDENTIAL_WORD = (
    r"pass(?:word|wort|phrase|code)s?|passwd|kennwort|mot de passe|contrase[ñn]a|wachtwoord|senha|"
    r"pw|pwd|pin|secret|"
    r"(?:api|access|auth|bearer)?[ _-]?token|(?:api|access|auth|secret|private)[ _-]?key"
)
LINK = (
    r"(?:(?:[ \t]+(?:for|of|on|to|in|f[üu]r|zum|zur|du|de|des|del|della|do|da|van|voor|pour|para|per)[ \t]+|[ \t]+dell')"
    r"(?:(?:the|den|die|das|der|le|la|les|el|il|lo|o|a|het)[ \t]+)?[\w.@/\-]+(?:[ \t]+[\w.@/\-]+)?)?"
    r"(?:[ \t]+(?:is|was|are|to|->|ist|lautet|war|est|es|è|é|e)"
    r"(?:[ \t]+(?:now|still|currently|just|set[ \t]+to|jetzt|nun))?[ \t]+"
    r"|[ \t]*[:=][ \t]*)"
    r"|[ \t]+(?:(?:was|is|has[ \t]+been)[ \t]+)?(?:set|changed|reset|rotated|updated)[ \t]+to[ \t]+"
)
PROSE_SECRET = re.compile(
    rf"(?i)(?<![\w\-])(?:{CREDENTIAL_WORD})(?:(?P<link>{LINK})|(?P<bare>[ \t]+))"
    r"(?:\"(?P<dq>[^\"\n]{4,128})\"|'(?P<sq>[^'\n]{4,128})'|`(?P<bq>[^`\n]{4,128})`"
    r"|(?P<v>(?:[^\s\"'`;&,<>]|[;&](?!\w+=|\s|$)){4,128}?))(?=[.,;)]*(?:\s|$))"
)


def reads_as_word(value: str) -> bool:
    digit = any(ch.isdigit() for ch in value)
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return not (digit or symbol or (mixed and len(value) > 8))


def not_a_value(value: str) -> bool:
    return (value.lower() in NOT_SECRETS or PLACEHOLDER_VALUE.fullmatch(value) is not None
            or CODE_REFERENCE.match(value) is not None or value.startswith(("/", "./", "~/", "$", "%", "(", "[", "{", "<")))


def prose_span(text: str, match: re.Match[str]) -> Span | None:
    for group in ("dq", "sq", "bq"):
        if match.group(group) is not None:
            quoted = match.group(group)
            return None if not_a_value(quoted) else match.span(group)
    value = match.group("v")
    if not_a_value(value) or len(value) < 6:
        return None
    if match.group("link") is not None:
        return None if reads_as_word(value) else match.span("v")
    digit = any(ch.isdigit() for ch in value)
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    many_digits = len(value) >= 16 and sum(ch.isdigit() for ch in value) >= len(value) / 4
    keyish = random_like(value) or many_digits or (digit and symbol) or case_noise(value)
    return match.span("v") if keyish else None


def case_noise(value: str) -> bool:
    """Letters whose case flips often (``EutzWMDeEKdjtXCU``), unlike camelCase words."""
    flips = sum(a.isupper() != b.isupper() for a, b in zip(value, value[1:], strict=False) if a.isalpha() and b.isalpha())
    return len(value) >= 12 and flips / len(value) >= 0.3


def prose_secret_detectors() -> tuple[Detector, ...]:
    return (PatternDetector("SECRET", "password", PROSE_SECRET,
                            ("pass", "pw", "pin", "secret", "token", "key", "kennwort", "contrase",
                             "wachtwoord", "senha"), prose_span),)
