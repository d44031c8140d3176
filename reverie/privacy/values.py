"""Checks on a candidate value: does it look like a key, a literal secret, or a word?"""

from __future__ import annotations

import re

HEX_DIGITS = frozenset("0123456789abcdef")
NOT_SECRETS = frozenset({
    "none", "null", "nil", "true", "false", "undefined", "required", "optional", "string", "str",
    "bytes", "bool", "secretstr", "password", "passwd", "secret", "token", "redacted", "hidden",
    "masked", "empty", "filtered",
    # words that say a value is not a real one (test fixtures: ``{'password': 'wrong'}``)
    "wrong", "invalid", "incorrect", "bad", "dummy", "fake", "placeholder", "example", "sample",
})
# A redacted value shows a run of four or more mask characters, maybe after the key's prefix and
# with its last characters: ``********``, ``ghp_************``, ``sk-…••••abcd``; an elided one, a
# prefix and an ellipsis: ``sk-...``, ``sk-ant-…``.
PLACEHOLDER_VALUE = re.compile(
    r"\s*(?:\$\{.*\}|\$\(.*\)|\$[A-Za-z_]\w*|\{\{.*\}\}|<[^<>]*>|%\(\w+\)s|%s|[*xX•.·]{3,}"
    r"|[\w\-.]{0,24}?[*•·]{4,}[\w\-]{0,8}|[\w\-]{1,24}(?:\.{3,}|…)[\w\-]{0,8}"
    r"|\[(?:SECRET|PII):\w+\]|\[?(?:redacted|filtered|hidden|masked)\]?)\s*",
    re.IGNORECASE,
)
CODE_REFERENCE = re.compile(  # settings.KEY, os.environ[..., secrets.token_hex(16), cache_key(a, b)
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[\[(]|$)|[A-Za-z_]\w*[\[(]"
)
OPENER_OF = {")": "(", "]": "[", "}": "{"}
# A documentation placeholder in a key's shape: the provider's prefix, then one character over and
# over (``ghp_xxxxxxxx…``, ``sk-XXXXXXXX…``, ``AKIA0000000000000000``).
FILLER = re.compile(r"[A-Za-z0-9]{0,12}[_\-.]?(?P<c>[^_\-.\s])(?P=c){7,}")
# A file given in place of the value, as ``@path`` (Vault's and curl's ``key=@file.txt``).
FILE_REFERENCE = re.compile(r"@(?:[~./][^\s]*|[\w\-./]*\.[A-Za-z]{2,5})")
# A YAML node tag (YAML 1.2, section 6.9.1, "Node Tags") before the value it tags: Ansible's
# ``!vault |``, CloudFormation's ``!Ref Name``, Home Assistant's ``!secret name``.
YAML_TAG = re.compile(r"![A-Za-z][A-Za-z_]*(?=[ \t]+\S)")


def random_like(value: str) -> bool:
    """Digits among letters, and mixed case or hex: how keys look, and how words do not."""
    digits = sum(ch.isdigit() for ch in value)
    if digits < 2 or digits == len(value):
        return False
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return mixed or all(ch in HEX_DIGITS for ch in value.lower() if ch.isalnum())


def literal_secret(value: str) -> bool:
    """A quoted value assigned to a secret-named key, unless it is a placeholder or reference."""
    stripped = value.strip()
    if len(stripped) < 4 or stripped.lower() in NOT_SECRETS:
        return False
    return PLACEHOLDER_VALUE.fullmatch(stripped) is None


def bare_secret(value: str, in_code: bool = True) -> bool:
    """An unquoted value: not code, a path or a type name; has a digit or a symbol, or is long.
    ``in_code=False`` for a command-line argument, where ``a.b1`` is not an attribute."""
    if len(value) < 6 or not literal_secret(value):
        return False
    if (in_code and CODE_REFERENCE.match(value)) or value.startswith(("/", "./", "~/", "$", "%", "{", "(", "[")):
        return False
    if FILE_REFERENCE.fullmatch(value):
        return False
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    digit = any(ch.isdigit() for ch in value)
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return digit or symbol or (mixed and len(value) >= 12)


def filler(value: str) -> bool:
    """A prefix and a run of one character: shaped like a key, not a key. (A provider's documented
    sample key, such as AWS's ``AKIAIOSFODNN7EXAMPLE``, is not filler: issue 19 masks samples too.)"""
    return FILLER.fullmatch(value) is not None


def yaml_tag(text: str, start: int) -> bool:
    """``text[start:]`` opens with a YAML tag followed by the node it tags."""
    return YAML_TAG.match(text, start) is not None


def without_open_closers(value: str) -> str:
    """Drop closing brackets at the end that close something outside the value: ``f(pw=x1)``."""
    while value[-1:] in OPENER_OF and value.count(value[-1]) > value.count(OPENER_OF[value[-1]]):
        value = value[:-1]
    return value
