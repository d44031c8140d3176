"""Credentials of message brokers and realtime messaging services: an Ably API key, a Confluent
Cloud API key and secret in a Kafka client's JAAS config, an Azure Service Bus or Event Hubs
connection string's shared access key. Each names the format's documentation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Detector, Finding, PatternDetector, Span
from reverie.privacy.values import keyish

# Ably API keys (ably.com/docs, "API keys": ``I2E_JQ.OqUdfg:EVKVTCBlzLBPYJiCZTsIW_pqylJ9WVRB5K9P19Ap1y0``):
# the app id, ".", the key id, ":", the key secret (43 base64url characters); the whole key is the credential.
ABLY_KEY = re.compile(r"(?<![\w.\-])[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{6}:(?P<secret>[A-Za-z0-9_\-]{43})(?![\w\-])")
# A Kafka client's SASL/PLAIN login (kafka.apache.org, "Authentication using SASL/PLAIN":
# ``sasl.jaas.config=…PlainLoginModule required username="…" password="…";``): for Confluent Cloud the
# username is the API key (16 upper-case letters and digits) and the password its secret (64 base64
# characters) (docs.confluent.io, "Use API Keys to Authenticate to Confluent Cloud"), in a text that
# names Confluent (its ``*.confluent.cloud`` bootstrap servers).
JAAS_PLAIN_LOGIN = re.compile(
    r"\bPlainLoginModule[ \t]+required\b[^;\n]{0,300}?\busername[ \t]*=[ \t]*(?P<q>[\"'])(?P<key>[^\"'\n]{1,128})(?P=q)"
    r"(?:[^;\n]{0,300}?\bpassword[ \t]*=[ \t]*(?P<r>[\"'])(?P<secret>[^\"'\n]{1,256})(?P=r))?")
# … or as librdkafka's configuration properties name them (docs.confluent.io, "Kafka Python client":
# ``'sasl.username': '<api key>'``, ``sasl.password=<api secret>``).
SASL_PROPERTY = re.compile(
    r"\bsasl[._](?P<name>username|password)[\"']?[ \t]*[:=][ \t]*(?P<q>[\"']?)(?P<v>[^\s\"',;]{1,256})(?P=q)")
CONFLUENT_KEY = re.compile(r"(?=[A-Z]*\d)[A-Z0-9]{16}")
CONFLUENT_SECRET = re.compile(r"[A-Za-z0-9+/]{64}")
# An Azure Service Bus or Event Hubs connection string (learn.microsoft.com, "Get a Service Bus connection
# string"): ``Endpoint=sb://<namespace>.servicebus.windows.net/;SharedAccessKeyName=…;SharedAccessKey=…``,
# the key 32 bytes in base64.
SERVICE_BUS_KEY = re.compile(
    r"(?i)\bEndpoint=sb://[\w.\-]+\.servicebus\.windows\.net/?;(?:[^;\s\"']{0,200};){0,6}?SharedAccessKey=(?P<v>[A-Za-z0-9+/]{43}=)")


def ably_span(text: str, match: re.Match[str]) -> Span | None:
    """The key, when its secret looks generated (two words joined by a dot and a colon do not)."""
    return match.span() if keyish(match.group("secret")) else None


def service_bus_span(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v")


@dataclass(frozen=True)
class ConfluentLogin:
    """The API key and secret of a JAAS PLAIN login (:data:`JAAS_PLAIN_LOGIN`) to Confluent Cloud."""

    triggers: tuple[str, ...] = ("plainloginmodule", "sasl.username", "sasl_username", "sasl.password", "sasl_password")

    def find(self, text: str) -> Iterator[Finding]:
        if "confluent" not in text.lower():
            return
        for match in JAAS_PLAIN_LOGIN.finditer(text):
            yield from self.pair(match, "key", "secret")
        for match in SASL_PROPERTY.finditer(text):
            yield from self.pair(match, "v" if match.group("name") == "username" else "", "v")

    @staticmethod
    def pair(match: re.Match[str], key: str, secret: str) -> Iterator[Finding]:
        """The key in group ``key`` and the secret in group ``secret`` of ``match``, where they have
        the shapes Confluent gives them ('' for no such group)."""
        if key and CONFLUENT_KEY.fullmatch(match.group(key)):
            yield Finding("SECRET", "confluent_api_key", *match.span(key))
        if secret and (value := match.group(secret)) is not None and CONFLUENT_SECRET.fullmatch(value) and keyish(value):
            yield Finding("SECRET", "confluent_api_secret", *match.span(secret))


def messaging_detectors() -> tuple[Detector, ...]:
    return (
        PatternDetector("SECRET", "ably_api_key", ABLY_KEY, (":",), ably_span),
        ConfluentLogin(),
        PatternDetector("SECRET", "azure_servicebus_key", SERVICE_BUS_KEY, ("servicebus.windows.net",), service_bus_span),
    )
