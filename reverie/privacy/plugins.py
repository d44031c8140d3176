"""detect-secrets' regex plugins, used directly: no baseline, no global settings, no verification,
no entropy plugins (those flag ordinary words in prose). Each value a plugin yields is located in
the text and widened to the whole token, since some plugin patterns stop short of newer, longer
keys."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import MappingProxyType

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector

from reverie.privacy.findings import Detector, Finding, Span

TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+=")
WIDEN_CHARS: MappingProxyType[str, frozenset[str]] = MappingProxyType({
    "aws_secret": BASE64_CHARS,
    "azure_storage_key": BASE64_CHARS,
    "jwt": TOKEN_CHARS | {"."},
    "slack_webhook": TOKEN_CHARS | {"/"},
})


@dataclass(frozen=True)
class PluginDetector:
    """One detect-secrets regex plugin."""

    plugin: RegexBasedDetector
    label_of: Callable[[str], str]
    triggers: tuple[str, ...]

    def find(self, text: str) -> Iterator[Finding]:
        for value in set(self.plugin.analyze_string(text)):
            label = self.label_of(value)
            for start in occurrences(text, value):
                yield Finding("SECRET", label, *widen(text, (start, start + len(value)), label))


def occurrences(text: str, value: str) -> Iterator[int]:
    start = text.find(value) if value else -1
    while start >= 0:
        yield start
        start = text.find(value, start + 1)


def widen(text: str, span: Span, label: str) -> Span:
    """Grow a span over adjacent token characters (never past 512 of them on either side)."""
    chars = WIDEN_CHARS.get(label, TOKEN_CHARS)
    start, end = span
    low, high = max(0, start - 512), min(len(text), end + 512)
    while start > low and text[start - 1] in chars:
        start -= 1
    while end < high and text[end] in chars:
        end += 1
    if label == "jwt":
        end = start + len(text[start:end].rstrip("."))
    return start, end


def fixed_label(label: str) -> Callable[[str], str]:
    def label_of(value: str) -> str:
        return label

    return label_of


AWS_KEY_ID = re.compile(r"(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}")


def aws_label(value: str) -> str:
    return "aws_key" if AWS_KEY_ID.fullmatch(value) else "aws_secret"


def slack_label(value: str) -> str:
    return "slack_webhook" if value.lower().startswith("https://") else "slack_token"


def plugin_detectors() -> tuple[Detector, ...]:
    """The plugins that key on a prefix or a key name; not the keyword-only ones (IBM, SoftLayer,
    Cloudant, Artifactory, Twilio), which flag prose."""
    return (
        PluginDetector(AWSKeyDetector(), aws_label, ("akia", "asia", "abia", "acca", "a3t", "aws")),
        PluginDetector(GitHubTokenDetector(), fixed_label("github_token"),
                       ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
        PluginDetector(GitLabTokenDetector(), fixed_label("gitlab_token"),
                       ("glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "gr1348941", "glcbt-",
                        "glimt-", "glptt-", "glagent-", "gloas-")),
        PluginDetector(SlackDetector(), slack_label, ("xox", "hooks.slack.com")),
        PluginDetector(OpenAIDetector(), fixed_label("openai_key"), ("t3blbkfj",)),
        PluginDetector(StripeDetector(), fixed_label("stripe_key"), ("k_live_",)),
        PluginDetector(JwtTokenDetector(), fixed_label("jwt"), ("eyj",)),
        PluginDetector(SendGridDetector(), fixed_label("sendgrid_key"), ("sg.",)),
        PluginDetector(NpmDetector(), fixed_label("npm_token"), ("_authtoken",)),
        PluginDetector(PypiTokenDetector(), fixed_label("pypi_token"), ("pypi-",)),
        PluginDetector(TelegramBotTokenDetector(), fixed_label("telegram_token"), (":",)),
        # One label for all of Square's credentials, as for gitleaks' square rules (square_token).
        PluginDetector(SquareOAuthDetector(), fixed_label("square_token"), ("sq0csp-",)),
        PluginDetector(AzureStorageKeyDetector(), fixed_label("azure_storage_key"),
                       ("accountkey=",)),
        PluginDetector(MailchimpDetector(), fixed_label("mailchimp_key"), ("-us",)),
    )
