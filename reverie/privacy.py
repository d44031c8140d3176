"""Masking of secrets and personal data before the first write (DESIGN.md §7).

``Masker(settings).mask(text)`` replaces every secret with ``[SECRET:<label>]`` and every piece of
personal data with ``[PII:<label>]``, and reports each replacement as a :class:`Finding` whose
offsets point into the original text::

    >>> Masker(PrivacySettings()).mask("mail jane.doe@acme.io").text
    'mail [PII:email]'

What is found, and by what:

- vendor tokens (AWS, GitHub, GitLab, Slack, OpenAI, Stripe, JWT, SendGrid, npm, PyPI, Telegram,
  Square, Azure, Mailchimp): detect-secrets' regex plugins, used directly (no baseline, no global
  settings, no verification, no entropy plugins: those flag ordinary words in prose); each value is
  widened to the whole token, since some plugin patterns stop short of newer, longer keys;
- what detect-secrets lacks: PEM private-key blocks over many lines (also JSON-escaped), AWS secret
  keys by their key name, ``password = ...`` style assignments in code, config and env files,
  credentials in URLs, bearer headers, and newer formats (``github_pat_``, ``sk-proj-``, long Stripe
  keys);
- personal data: e-mail addresses, phone numbers (international and North American), payment card
  numbers (card prefix and Luhn check) and IBANs (length per country and mod-97 check).

Every detector names trigger literals; a text holding none of them never reaches its regexes, which
keeps clean prose cheap. Overlapping spans merge into one placeholder labelled by the most specific
detector (``LABEL_RANK``). Placeholders already in a text are never masked again, and masking is
idempotent: after a pass, the pieces between placeholders are scanned again until nothing new is
found, so ``mask(mask(t).text) == mask(t).text`` holds by construction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, Protocol

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

from reverie.errors import ValidationError
from reverie.settings import PrivacySettings

Category = Literal["SECRET", "PII"]
Span = tuple[int, int]

#: Lower rank wins when overlapping spans merge: the most specific detector names the placeholder.
LABEL_RANK: MappingProxyType[str, int] = MappingProxyType({
    label: rank for rank, label in enumerate((
        "private_key", "jwt", "aws_key", "github_token", "gitlab_token", "slack_webhook",
        "slack_token", "openai_key", "stripe_key", "sendgrid_key", "npm_token", "pypi_token",
        "telegram_token", "square_secret", "azure_storage_key", "mailchimp_key", "aws_secret",
        "url_credentials", "bearer_token", "password", "iban", "card_number", "email", "phone",
    ))
})

PLACEHOLDER = re.compile(r"\[(?:SECRET|PII):[a-z0-9_]+\]")


@dataclass(frozen=True, slots=True)
class Finding:
    """``original[start:end]`` was replaced by ``[<category>:<label>]``."""

    category: Category
    label: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Masked:
    """The masked text and what was replaced, in order of position."""

    text: str
    findings: tuple[Finding, ...]

    @property
    def changed(self) -> bool:
        return bool(self.findings)


class Detector(Protocol):
    """Finds spans in one piece of text; ``triggers`` are lower-case literals one of which must
    occur in the text for ``find`` to be worth running (empty: always run)."""

    @property
    def triggers(self) -> tuple[str, ...]: ...

    def find(self, text: str) -> Iterator[Finding]: ...


# ---- shared checks -------------------------------------------------------------------------------

HEX_DIGITS = frozenset("0123456789abcdef")
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+=")
WIDEN_CHARS: MappingProxyType[str, frozenset[str]] = MappingProxyType({
    "aws_secret": BASE64_CHARS,
    "azure_storage_key": BASE64_CHARS,
    "jwt": TOKEN_CHARS | {"."},
    "slack_webhook": TOKEN_CHARS | {"/"},
})
OPENER_OF: MappingProxyType[str, str] = MappingProxyType({")": "(", "]": "[", "}": "{"})
NOT_SECRETS = frozenset({
    "none", "null", "nil", "true", "false", "undefined", "required", "optional", "string", "str",
    "bytes", "bool", "secretstr", "password", "passwd", "secret", "token", "redacted", "hidden",
    "masked", "empty", "filtered",
})
PLACEHOLDER_VALUE = re.compile(
    r"\s*(?:\$\{.*\}|\$\(.*\)|\$[A-Za-z_]\w*|\{\{.*\}\}|<[^<>]*>|%\(\w+\)s|%s|[*xX•.·]{3,}"
    r"|\[(?:SECRET|PII):\w+\]|\[?(?:redacted|filtered|hidden|masked)\]?)\s*",
    re.IGNORECASE,
)
CODE_REFERENCE = re.compile(  # settings.KEY, os.environ[..., secrets.token_hex(16), get_pw(...)
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[\[(]|$)|[A-Za-z_]\w*[\[(](?:$|[)\]\"']|\w+=)"
)


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


def bare_secret(value: str) -> bool:
    """An unquoted value: not code, a path or a type name; has a digit or a symbol, or is long."""
    if len(value) < 6 or not literal_secret(value):
        return False
    if CODE_REFERENCE.match(value) or value.startswith(("/", "./", "~/", "$", "%", "{")):
        return False
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    digit = any(ch.isdigit() for ch in value)
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return digit or symbol or (mixed and len(value) >= 12)


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def iban_valid(iban: str) -> bool:
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


IBAN_LENGTHS: MappingProxyType[str, int] = MappingProxyType({
    entry[:2]: int(entry[2:]) for entry in (
        "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 "
        "EE20 EG29 ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 "
        "IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 "
        "NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 "
        "TR26 UA29 VA22 VG24 XK20"
    ).split()
})
CARD_PREFIX = re.compile(
    r"4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|3(?:0[0-5]|[689])|6(?:011|5|4[4-9]|2)|35"
)


# ---- detectors -----------------------------------------------------------------------------------

Locate = Callable[[str, re.Match[str]], Span | None]


def whole_match(text: str, match: re.Match[str]) -> Span | None:
    return match.span()


def value_group(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v")


@dataclass(frozen=True)
class PatternDetector:
    """Our own compiled regex; ``locate`` picks (and may veto) the span of each match."""

    category: Category
    label: str
    pattern: re.Pattern[str]
    triggers: tuple[str, ...] = ()
    locate: Locate = whole_match

    def find(self, text: str) -> Iterator[Finding]:
        for match in self.pattern.finditer(text):
            span = self.locate(text, match)
            if span is not None and span[0] < span[1]:
                yield Finding(self.category, self.label, *span)


@dataclass(frozen=True)
class PluginDetector:
    """A detect-secrets regex plugin, used directly: each value it yields is located in the text
    and widened to the whole token."""

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
    """detect-secrets plugins that key on a prefix or a key name; not the entropy plugins, and not
    the keyword-only ones (IBM, SoftLayer, Cloudant, Artifactory, Twilio), which flag prose."""
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
        PluginDetector(SquareOAuthDetector(), fixed_label("square_secret"), ("sq0csp-",)),
        PluginDetector(AzureStorageKeyDetector(), fixed_label("azure_storage_key"),
                       ("accountkey=",)),
        PluginDetector(MailchimpDetector(), fixed_label("mailchimp_key"), ("-us",)),
    )


# Our own secret patterns, for what the plugins above do not cover.

PEM_BODY = r"(?:[A-Za-z0-9+/=\s:,.\-]|\\[rn])"
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?)-----"
    rf"(?:{PEM_BODY}*?-----END (?P=kind)-----|{PEM_BODY}*)"
)
PUTTY_KEY = re.compile(r"PuTTY-User-Key-File-\d:.*?Private-MAC: [0-9a-fA-F]+", re.DOTALL)
GITHUB_PAT = re.compile(r"github_pat_[A-Za-z0-9_]{22,}")
OPENAI_KEY = re.compile(r"(?<![\w-])sk-(?:(?:proj|svcacct|admin)-)?(?P<v>[A-Za-z0-9_\-]{20,})")
STRIPE_KEY = re.compile(
    r"(?<![A-Za-z0-9])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})"
)
SLACK_TOKEN = re.compile(r"(?<![\w-])(?:xox[a-z]|xapp)-(?:[A-Za-z0-9]+-)+[A-Za-z0-9]{8,}")
AWS_SECRET = re.compile(
    r"(?i)secret[_\-]?(?:access[_\-]?)?key[\"'`]?(?:[ \t]*(?::=|=>|[:=])[ \t]*|[ \t]+)[\"'`]?"
    r"(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
BEARER = re.compile(
    r"(?i)(?:\b(?:proxy-)?authorization\b[\"'`]?[ \t]*[:=][ \t]*[\"'`]?[ \t]*(?:bearer|token|basic)"
    r"|\bbearer)[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"
)
URL_CREDENTIALS = re.compile(
    r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://(?P<v>[^\s:/?#@\"'<>]*:(?P<pw>[^\s/?#@\"'<>]+))@(?=[\w\[.\-])"
)
SECRET_KEYWORD = (
    r"pass(?:word|wd|phrase)|(?<![a-z])pass|(?<![a-z])pwd|secret|token"
    r"|(?:api|access|secret|auth|private|client|signing|encryption|master|license|app|consumer)"
    r"[_\-]?key"
)
ASSIGNMENT = re.compile(
    rf"(?i)(?<![\w.\-])(?P<dash>--?)?(?P<key>[\w.\-]*?(?:{SECRET_KEYWORD}))[\"'`]?\]?"
    r"(?P<sep>[ \t]*(?::=|=>|==?|:)[ \t]*|(?(dash)[ \t]+|(?!)))"
    r"(?:\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|`(?P<bq>[^`\n]{1,256})`"
    r"|(?P<bare>(?:[^\s\"'`,;&<>]|[,;&](?![ \t]|[\w.\-]+=|$)){1,256}))"
)
CURL_USER_PASSWORD = re.compile(  # curl -u user:password; not docker's -u uid:gid
    r"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]+[\"']?(?P<v>[^\s:\"']+:(?P<pw>[^\s\"']+))"
)
MYSQL_PASSWORD = re.compile(r"\bmysql(?:dump|admin)?\b[^\n]*?[ \t]-p(?P<v>[^\s'\"]{4,})")
XML_SECRET = re.compile(
    rf"(?i)<(?P<tag>[\w.:\-]*(?:{SECRET_KEYWORD}))>(?P<v>[^<\n]{{1,256}})</(?P=tag)>"
)
SECRET_TRIGGERS = ("pass", "pwd", "secret", "token", "key")


def random_value(text: str, match: re.Match[str]) -> Span | None:
    return match.span() if random_like(match.group("v")) else None


def random_value_whole(text: str, match: re.Match[str]) -> Span | None:
    return match.span() if random_like(match.group(0)) else None


def private_key_span(text: str, match: re.Match[str]) -> Span | None:
    """The whole block; a block cut off before its END line stops at its last key character."""
    body = match.group(0)
    while body.endswith(("\\n", "\\r")) or body[-1:].isspace():
        body = body[:-2] if body.endswith(("\\n", "\\r")) else body[:-1]
    return match.start(), match.start() + len(body)


def bearer_span(text: str, match: re.Match[str]) -> Span | None:
    start, end = match.span("v")
    end = start + len(text[start:end].rstrip("."))
    value = text[start:end]
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    digit = any(ch.isdigit() for ch in value)
    return (start, end) if len(value) >= 16 and (mixed or digit) else None


def credentials_span(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v") if literal_secret(match.group("pw")) else None


def assignment_span(text: str, match: re.Match[str]) -> Span | None:
    """The value of ``key = value`` (or ``--key value``), if it looks like a literal secret."""
    for group in ("dq", "sq", "bq"):
        if match.group(group) is not None:
            return match.span(group) if literal_secret(match.group(group)) else None
    start, value = match.start("bare"), without_open_closers(match.group("bare"))
    return (start, start + len(value)) if bare_secret(value) else None


def without_open_closers(value: str) -> str:
    """Drop closing brackets at the end that close something outside the value: ``f(pw=x1)``."""
    while value[-1:] in OPENER_OF and value.count(value[-1]) > value.count(OPENER_OF[value[-1]]):
        value = value[:-1]
    return value


def literal_value(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v") if literal_secret(match.group("v")) else None


def own_secret_detectors() -> tuple[Detector, ...]:
    def secret(label: str, pattern: re.Pattern[str], triggers: tuple[str, ...],
               locate: Locate = whole_match) -> PatternDetector:
        return PatternDetector("SECRET", label, pattern, triggers, locate)

    return (
        secret("private_key", PRIVATE_KEY_BLOCK, ("private key",), private_key_span),
        secret("private_key", PUTTY_KEY, ("putty-user-key-file",)),
        secret("github_token", GITHUB_PAT, ("github_pat_",)),
        secret("openai_key", OPENAI_KEY, ("sk-",), random_value),
        secret("stripe_key", STRIPE_KEY, ("k_live_", "k_test_", "whsec_")),
        secret("slack_token", SLACK_TOKEN, ("xox", "xapp-"), random_value_whole),
        secret("aws_secret", AWS_SECRET, ("secret",), value_group),
        secret("bearer_token", BEARER, ("bearer", "authorization"), bearer_span),
        secret("url_credentials", URL_CREDENTIALS, ("://",), credentials_span),
        secret("password", CURL_USER_PASSWORD, ("curl",), credentials_span),
        secret("password", MYSQL_PASSWORD, ("mysql",), literal_value),
        secret("password", ASSIGNMENT, SECRET_TRIGGERS, assignment_span),
        secret("password", XML_SECRET, SECRET_TRIGGERS, literal_value),
    )


# Personal data.

EMAIL = re.compile(
    r"(?<![\w.%+\-])[A-Za-z0-9][A-Za-z0-9._%+\-']{0,63}@"
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w\-])"
)
PHONE_INTERNATIONAL = re.compile(r"(?<![\w+])\+\d[\d \-.()]{5,22}\d(?!\d)")
PHONE_NANP = re.compile(
    r"(?<![\w+.\-])(?:1[\-. ])?(?:\(\d{3}\)[ ]?|\d{3}(?P<sep>[\-.]))[2-9]\d{2}"
    r"(?(sep)(?P=sep)|[\-. ])\d{4}"
    r"(?![\w\-]|\.\d)"
)
CARD = re.compile(r"(?<![\w\-.])\d(?:[ \-]?\d){12,22}(?![\w\-]|\.\d)")
IBAN = re.compile(r"(?<![A-Za-z0-9])(?P<cc>[A-Z]{2})\d{2}(?:[ ]?[A-Z0-9]){10,30}")
PHONE_BAD_SEPARATORS = re.compile(r"[ .\-]{2}|\(\D|\D\)")


def email_span(text: str, match: re.Match[str]) -> Span | None:
    """Not the ``user@host`` of a URL, nor scp-style ``git@github.com:org/repo``."""
    after = text[match.end():match.end() + 2]
    if len(after) == 2 and after[0] == ":" and not after[1].isspace():
        return None
    before = text[max(0, match.start() - 256):match.start()]
    token = before.split()[-1] if before and not before[-1].isspace() else ""
    return None if "://" in token else match.span()


def international_phone_span(text: str, match: re.Match[str]) -> Span | None:
    candidate = match.group(0)
    digits = sum(ch.isdigit() for ch in candidate)
    if not 8 <= digits <= 15 or PHONE_BAD_SEPARATORS.search(candidate.replace(") ", ")")):
        return None
    return match.span() if candidate.count("(") == candidate.count(")") <= 1 else None


def card_span(text: str, match: re.Match[str]) -> Span | None:
    """The longest run of leading groups that forms a card number (prefix, length, Luhn)."""
    groups = re.split(r"[ \-]", match.group(0))
    separators = set(re.findall(r"[ \-]", match.group(0)))
    if len(groups) > 1 and (len(groups[0]) != 4 or len(separators) > 1):
        return None
    for count in range(len(groups), 0, -1):
        digits = "".join(groups[:count])
        shape_ok = count == 1 or all(3 <= len(g) <= 6 for g in groups[:count])
        if shape_ok and 13 <= len(digits) <= 19 and card_number_valid(digits):
            return match.start(), match.start() + len(" ".join(groups[:count]))
    return None


def card_number_valid(digits: str) -> bool:
    return CARD_PREFIX.match(digits) is not None and luhn_valid(digits)


def iban_span(text: str, match: re.Match[str]) -> Span | None:
    """The country's IBAN length in characters (spaces skipped), then the mod-97 check."""
    length = IBAN_LENGTHS.get(match.group("cc"))
    candidate = match.group(0)
    compact = candidate.replace(" ", "")
    if length is None or len(compact) < length or not iban_valid(compact[:length]):
        return None
    end, seen = match.start(), 0
    while seen < length:
        seen += candidate[end - match.start()] != " "
        end += 1
    return None if text[end:end + 1].isalnum() else (match.start(), end)


def personal_data_detectors() -> tuple[Detector, ...]:
    def pii(label: str, pattern: re.Pattern[str], triggers: tuple[str, ...],
            locate: Locate = whole_match) -> PatternDetector:
        return PatternDetector("PII", label, pattern, triggers, locate)

    return (
        pii("email", EMAIL, ("@",), email_span),
        pii("phone", PHONE_INTERNATIONAL, ("+",), international_phone_span),
        pii("phone", PHONE_NANP, ()),
        pii("card_number", CARD, (), card_span),
        pii("iban", IBAN, (), iban_span),
    )


# ---- the masker ----------------------------------------------------------------------------------

class Masker:
    """Masks secrets and personal data. Build one per process from the settings and share it: it
    holds only immutable, compiled detectors."""

    def __init__(self, settings: PrivacySettings) -> None:
        detectors: tuple[Detector, ...] = ()
        if settings.enabled and settings.secrets:
            detectors += plugin_detectors() + own_secret_detectors()
        if settings.enabled and settings.personal_data:
            detectors += personal_data_detectors()
        self._detectors = detectors

    def mask(self, text: str) -> Masked:
        """Replace every secret and piece of personal data in ``text`` by a typed placeholder."""
        if not isinstance(text, str):
            raise ValidationError(
                f"text to mask must be a str, got {type(text).__name__}; decode bytes first",
                field="text",
            )
        findings = self._scan(text) if self._detectors else []
        return Masked(apply(text, findings), tuple(findings))

    def mask_many(self, texts: Iterable[str]) -> list[Masked]:
        return [self.mask(text) for text in texts]

    def _scan(self, text: str) -> list[Finding]:
        """Detect in the gaps between placeholders; rescan the pieces of every gap that had a
        finding until none has, so the result is a fixed point (idempotence)."""
        found: list[Finding] = []
        todo = gaps(0, len(text), [m.span() for m in PLACEHOLDER.finditer(text)])
        while todo:
            next_todo: list[Span] = []
            for start, end in todo:
                new = self._detect(text, start, end)
                found.extend(new)
                next_todo += gaps(start, end, [(f.start, f.end) for f in new]) if new else []
            todo = next_todo
        return sorted(found, key=lambda f: f.start)

    def _detect(self, text: str, start: int, end: int) -> list[Finding]:
        segment = text[start:end]
        lowered = segment.lower()
        raw = [
            Finding(f.category, f.label, f.start + start, f.end + start)
            for detector in self._detectors
            if not detector.triggers or any(t in lowered for t in detector.triggers)
            for f in detector.find(segment)
        ]
        return merge(raw)


def gaps(start: int, end: int, spans: Sequence[Span]) -> list[Span]:
    """The non-empty pieces of ``[start, end)`` outside the sorted, disjoint ``spans``."""
    pieces, position = [], start
    for span_start, span_end in spans:
        if span_start > position:
            pieces.append((position, span_start))
        position = max(position, span_end)
    return pieces + [(position, end)] if position < end else pieces


def merge(findings: list[Finding]) -> list[Finding]:
    """Union overlapping spans; the merged span takes the best-ranked label among its parts."""
    merged: list[Finding] = []
    for f in sorted(findings, key=lambda f: (f.start, -f.end)):
        last = merged[-1] if merged else None
        if last is None or f.start >= last.end:
            merged.append(f)
            continue
        best = last if LABEL_RANK.get(last.label, 99) <= LABEL_RANK.get(f.label, 99) else f
        merged[-1] = Finding(best.category, best.label, last.start, max(last.end, f.end))
    return merged


def apply(text: str, findings: Sequence[Finding]) -> str:
    parts, position = [], 0
    for f in findings:
        parts += [text[position:f.start], f"[{f.category}:{f.label}]"]
        position = f.end
    return "".join(parts) + text[position:]
