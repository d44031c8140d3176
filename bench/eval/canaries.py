"""Planted secrets and personal data (canaries): fresh, seeded values in the formats leaks take.

Each value is unique to its scenario, so finding it anywhere the memory hands back proves a leak.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable

_UPPER_B32 = string.ascii_uppercase + "234567"
_ALNUM = string.ascii_letters + string.digits
_FIRST = ("maria", "jonas", "aiko", "samir", "lena", "tomas", "ines", "kwame", "olga", "ravi")
_LAST = ("keller", "moreau", "tanaka", "haddad", "novak", "silva", "okafor", "berg", "kumar", "lund")


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def aws_key(rng: random.Random) -> str:
    return "AKIA" + _pick(rng, _UPPER_B32, 16)


def github_token(rng: random.Random) -> str:
    return "ghp_" + _pick(rng, _ALNUM, 36)


def slack_token(rng: random.Random) -> str:
    return f"xoxb-{_pick(rng, string.digits, 11)}-{_pick(rng, string.digits, 12)}-{_pick(rng, _ALNUM, 24)}"


def password(rng: random.Random) -> str:
    return _pick(rng, _ALNUM, 10) + rng.choice("!#%&*") + _pick(rng, string.digits, 3)


def email(rng: random.Random) -> str:
    user = f"{rng.choice(_FIRST)}.{rng.choice(_LAST)}{rng.randint(10, 99)}"
    return f"{user}@{rng.choice(('mailbox', 'postal', 'inbox'))}-{_pick(rng, string.ascii_lowercase, 5)}.com"


def phone(rng: random.Random) -> str:
    return f"+1 ({rng.randint(201, 989)}) {rng.randint(200, 989)}-{rng.randint(1000, 9999)}"


def card(rng: random.Random) -> str:
    digits = [4] + [rng.randint(0, 9) for _ in range(14)]
    digits.append(_luhn_check_digit(digits))
    text = "".join(map(str, digits))
    return " ".join(text[i:i + 4] for i in range(0, 16, 4))


def _luhn_check_digit(digits: list[int]) -> int:
    total = 0
    for position, digit in enumerate(reversed(digits)):
        if position % 2 == 0:
            digit *= 2
            digit -= 9 if digit > 9 else 0
        total += digit
    return (10 - total % 10) % 10


#: Generators by the kind a phrasebook template names (``secret`` kinds first, then personal data).
SECRET_KINDS: dict[str, Callable[[random.Random], str]] = {
    "aws_key": aws_key, "github_token": github_token, "slack_token": slack_token, "password": password,
}
PERSONAL_KINDS: dict[str, Callable[[random.Random], str]] = {"email": email, "phone": phone, "card": card}
