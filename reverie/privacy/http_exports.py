"""Secrets in exported HTTP traffic and API clients' files, where no ``password = …`` is written as
such: a request's JSON body kept as an escaped string inside a JSON document (a HAR file's
``postData.text``, a log's serialised body), and an API client's environment export, whose variables
are ``{"key": …, "value": …}`` records (Postman's, with ``"type": "secret"`` for a secret one). Each
names the format's documentation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Detector, Finding
from reverie.privacy.own_rules import PASSWORD_NAME, SECRET_KEYWORD
from reverie.privacy.values import NOT_A_CREDENTIAL_NAME, bare_secret, literal_secret, word_passphrase

# A JSON member inside a JSON string, its quotes escaped (RFC 8259, section 7): a HAR's request body
# (W3C "HTTP Archive (HAR) format", ``postData.text``: ``"{\"email\": \"…\", \"password\": \"…\"}"``).
ESCAPED_MEMBER = re.compile(
    rf"(?i)\\\"(?P<name>[\w.\-]{{0,40}}?(?:{SECRET_KEYWORD})[\w.\-]{{0,40}})\\\"[ \t]*:[ \t]*\\\"(?P<v>[^\"\\\n]{{1,256}})\\\"")
# An API client's environment variable (Postman, "Export environments": ``{"key": "…", "value": "…",
# "type": "default"|"secret", "enabled": true}``; Hoppscotch's and Insomnia's exports alike).
KEY_VALUE_RECORD = re.compile(
    r"\"key\"[ \t]*:[ \t]*\"(?P<name>[^\"\n]{1,64})\"[ \t]*,\s*\"value\"[ \t]*:[ \t]*\"(?P<v>[^\"\n]{1,256})\""
    r"(?P<secret>[ \t]*,\s*\"type\"[ \t]*:[ \t]*\"secret\")?")
SECRET_NAME = re.compile(rf"(?i)[\w.\-]*(?:{SECRET_KEYWORD})[\w.\-]*")


def secret_named(name: str) -> bool:
    """A variable's name that names a secret (``userPassword``, ``api_token``), and not one of the
    names of things that are no credentials though they end in "key" or "token" (``sort_key``)."""
    return SECRET_NAME.fullmatch(name) is not None and NOT_A_CREDENTIAL_NAME.search(name) is None


def reads_as_secret(name: str, value: str) -> bool:
    """A literal (no placeholder or reference) that reads as a secret, or words joined as a passphrase
    under a password's name."""
    if not literal_secret(value):
        return False
    return bare_secret(value, in_code=False) or (PASSWORD_NAME.search(name) is not None and word_passphrase(value, 3))


@dataclass(frozen=True)
class ExportedSecrets:
    """The values of :data:`ESCAPED_MEMBER` and of secret :data:`KEY_VALUE_RECORD` records."""

    triggers: tuple[str, ...] = ('\\"', '"key"')

    def find(self, text: str) -> Iterator[Finding]:
        for match in ESCAPED_MEMBER.finditer(text):
            name = match.group("name")
            if NOT_A_CREDENTIAL_NAME.search(name) is None and reads_as_secret(name, match.group("v")):
                yield Finding("SECRET", "password", *match.span("v"))
        for match in KEY_VALUE_RECORD.finditer(text):
            name, value = match.group("name"), match.group("v")
            if (match.group("secret") or secret_named(name)) and reads_as_secret(name, value):
                yield Finding("SECRET", "password", *match.span("v"))


def http_export_detectors() -> tuple[Detector, ...]:
    return (ExportedSecrets(),)
