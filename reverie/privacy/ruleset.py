"""Secrets found by a maintained rule set: gitleaks' default rules, vendored as data.

``reverie/data/gitleaks/gitleaks.toml`` is gitleaks' own default config (MIT, see ``LICENSE`` and
``VERSION`` beside it). It is read and compiled once per process (:func:`load_ruleset`) and updated
by replacing the file. Each rule keeps gitleaks' semantics as far as text without a file path
allows: keywords as a pre-filter, the secret group (or the first non-empty group) as the masked
span, the Shannon-entropy floor, a digit in the secret for ``generic-*`` rules, the rule's and the
global allowlists (regexes on the secret, the match or the line; stop words). Rules that only
apply to file paths are left out. Go regexes are translated (:mod:`reverie.privacy.goregex`);
a rule that cannot be translated or compiled is skipped, counted and logged, never fatal.

One deliberate change: gitleaks ends many tokens with ``(?:[\\x60'"\\s;]|\\\\[nr]|$)`` (a quote,
a space, a semicolon or the end, as in code). In prose a key is followed by punctuation as often,
so that group also accepts ``,.)]}>|``, and ``@`` (a token used as the password of a URL's
userinfo, ``https://user:hf_…@host``), Chinese and Japanese punctuation (``，``, ``。``), a colon
before a space or a quote (an API key as the user of HTTP Basic with no password, ``curl -u
sk_test_…:``, as Stripe's and Mailgun's docs write it) and an escaped quote (a string inside a
string: ``"\\"rdme_…\\""``); the masked span is the secret group, so nothing more is masked for it.
"""

from __future__ import annotations

import logging
import math
import re
import tomllib
import warnings
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

from reverie.errors import ConfigError, RuleTranslationError
from reverie.privacy.findings import Finding, Span
from reverie.privacy.goregex import go_to_python
from reverie.privacy.values import NOT_A_CREDENTIAL_NAME

log = logging.getLogger(__name__)

Target = Literal["secret", "match", "line"]
CODE_END = "(?:[\\x60'\"\\s;]|\\\\[nr]|$)"
IDENTIFIER_PREFIX = "[\\w.-]{0,50}?"  # gitleaks' lazy lead-in before a keyword
IDENTIFIER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
PROSE_END = "(?:[\\x60'\"\\s;,.)\\]}>|@，、。：]|:(?=[\\s'\"]|$)|\\\\[nr\"]|$)"

#: Placeholder labels for gitleaks rule ids; any other id gives its family's label
#: (LABEL_OF_FAMILY) or its own name, ``-`` as ``_``.
LABEL_OF_RULE: Mapping[str, str] = MappingProxyType({
    "aws-access-token": "aws_key", "gcp-api-key": "google_api_key",
    "github-pat": "github_token", "github-fine-grained-pat": "github_token",
    "github-oauth": "github_token", "github-app-token": "github_token",
    "github-refresh-token": "github_token", "gitlab-pat": "gitlab_token",
    "gitlab-pat-routable": "gitlab_token", "huggingface-access-token": "huggingface_token",
    "huggingface-organization-api-token": "huggingface_token", "openai-api-key": "openai_key",
    "anthropic-api-key": "anthropic_key", "anthropic-admin-api-key": "anthropic_key",
    "stripe-access-token": "stripe_key", "slack-bot-token": "slack_token",
    "slack-user-token": "slack_token", "slack-app-token": "slack_token",
    "slack-legacy-token": "slack_token", "slack-legacy-bot-token": "slack_token",
    "slack-legacy-workspace-token": "slack_token", "slack-config-access-token": "slack_token",
    "slack-config-refresh-token": "slack_token", "slack-webhook-url": "slack_webhook",
    "npm-access-token": "npm_token", "pypi-upload-token": "pypi_token",
    "digitalocean-pat": "digitalocean_token", "digitalocean-access-token": "digitalocean_token",
    "digitalocean-refresh-token": "digitalocean_token", "sendgrid-api-token": "sendgrid_key",
    "sendinblue-api-token": "brevo_key", "mailgun-private-api-token": "mailgun_key",
    "mailchimp-api-key": "mailchimp_key", "telegram-bot-api-token": "telegram_token",
    "square-access-token": "square_token", "twilio-api-key": "twilio_api_key",
    "shopify-access-token": "shopify_token", "shopify-custom-access-token": "shopify_token",
    "shopify-private-app-access-token": "shopify_token", "shopify-shared-secret": "shopify_token",
    "databricks-api-token": "databricks_token", "doppler-api-token": "doppler_token",
    "postman-api-token": "postman_key", "linear-api-key": "linear_key",
    "grafana-service-account-token": "grafana_token", "grafana-cloud-api-token": "grafana_token",
    "grafana-api-key": "grafana_token", "new-relic-user-api-key": "new_relic_key",
    "pulumi-api-token": "pulumi_token", "planetscale-api-token": "planetscale_token",
    "planetscale-password": "planetscale_token", "planetscale-oauth-token": "planetscale_token",
    "atlassian-api-token": "atlassian_token", "vault-service-token": "vault_token",
    "vault-batch-token": "vault_token", "hashicorp-tf-api-token": "terraform_token",
    "flyio-access-token": "flyio_token", "sentry-user-token": "sentry_token",
    "sentry-org-token": "sentry_token", "sentry-access-token": "sentry_token",
    "rubygems-api-token": "rubygems_key", "clojars-api-token": "clojars_token",
    "readme-api-token": "readme_key", "shippo-api-token": "shippo_token",
    "alibaba-access-key-id": "alibaba_key", "prefect-api-token": "prefect_key",
    "duffel-api-token": "duffel_token", "easypost-api-token": "easypost_key",
    "easypost-test-api-token": "easypost_key", "frameio-api-token": "frameio_token",
    "scalingo-api-token": "scalingo_token", "openshift-user-token": "openshift_token",
    "azure-ad-client-secret": "azure_client_secret", "private-key": "private_key",
    "jwt": "jwt", "jwt-base64": "jwt", "curl-auth-user": "password",
    "curl-auth-header": "bearer_token",
    "gitlab-runner-authentication-token": "gitlab_token",
    "gitlab-runner-authentication-token-routable": "gitlab_token",
    "airtable-api-key": "airtable_token", "airtable-personnal-access-token": "airtable_token",
    "netlify-access-token": "netlify_token", "perplexity-api-key": "perplexity_key",
    "heroku-api-key": "heroku_key", "heroku-api-key-v2": "heroku_key",
    "1password-service-account-token": "onepassword_token", "1password-secret-key": "onepassword_token",
    "discord-api-token": "discord_token", "discord-client-secret": "discord_token",
    "dropbox-api-token": "dropbox_token", "dropbox-long-lived-api-token": "dropbox_token",
    "dropbox-short-lived-api-token": "dropbox_token", "mapbox-api-token": "mapbox_token",
    "notion-api-token": "notion_token", "datadog-access-token": "datadog_key",
    "sonar-api-token": "sonar_token", "artifactory-api-key": "jfrog_token",
    "artifactory-reference-token": "jfrog_token", "jfrog-api-key": "jfrog_token",
    "jfrog-identity-token": "jfrog_token", "cloudflare-api-key": "cloudflare_token",
    "cloudflare-global-api-key": "cloudflare_key", "cloudflare-origin-ca-key": "cloudflare_key",
    "typeform-api-token": "typeform_token", "dynatrace-api-token": "dynatrace_token",
    "twitter-bearer-token": "twitter_bearer", "microsoft-teams-webhook": "teams_webhook",
    "facebook-access-token": "facebook_token", "facebook-page-access-token": "facebook_token",
    "okta-access-token": "okta_token", "launchdarkly-access-token": "launchdarkly_key",
    "flutterwave-secret-key": "flutterwave_key", "plaid-api-token": "plaid_token",
    "plaid-secret-key": "plaid_token", "hubspot-api-key": "hubspot_token",
    "contentful-delivery-api-token": "contentful_token", "yandex-api-key": "yandex_key",
    "yandex-access-token": "yandex_key", "asana-client-secret": "asana_token",
    "bitbucket-client-secret": "bitbucket_token", "sourcegraph-access-token": "sourcegraph_token",
    "infracost-api-token": "infracost_key",
})

#: Providers whose every gitleaks rule gives one label (GitLab's personal, pipeline-trigger, runner,
#: deploy, feed … tokens are all ``gitlab_token``), for their rules LABEL_OF_RULE does not name.
LABEL_OF_FAMILY: Mapping[str, str] = MappingProxyType({
    "gitlab-": "gitlab_token", "new-relic-": "new_relic_key", "mailgun-": "mailgun_key",
    "alibaba-": "alibaba_key", "flutterwave-": "flutterwave_key", "linear-": "linear_key",
    "cohere-": "cohere_key",
})


def label_of(rule_id: str) -> str:
    """Our placeholder label for a gitleaks rule id."""
    if rule_id in LABEL_OF_RULE:
        return LABEL_OF_RULE[rule_id]
    family = next((label for prefix, label in LABEL_OF_FAMILY.items() if rule_id.startswith(prefix)), None)
    return family or rule_id.replace("-", "_")


@dataclass(frozen=True)
class Allowlist:
    """gitleaks' ``[[rules.allowlists]]`` (or the global ``[allowlist]``), without paths."""

    regexes: tuple[re.Pattern[str], ...] = ()
    stopwords: tuple[str, ...] = ()
    target: Target = "secret"
    require_all: bool = False

    def allows(self, secret: str, match: str, line: str) -> bool:
        subject = {"secret": secret, "match": match, "line": line}[self.target]
        hits = []
        if self.regexes:
            hits.append(any(p.search(subject) for p in self.regexes))
        if self.stopwords:
            lowered = secret.lower()
            hits.append(any(word in lowered for word in self.stopwords))
        return bool(hits) and (all(hits) if self.require_all else any(hits))


@dataclass(frozen=True)
class Rule:
    """One compiled gitleaks rule."""

    rule_id: str
    label: str
    pattern: re.Pattern[str]
    keywords: tuple[str, ...]
    secret_group: int = 0
    entropy: float = 0.0
    allowlists: tuple[Allowlist, ...] = ()
    lead_in: int = 0  # the identifier lead-in taken off the pattern (see compile_rule_regex)

    def find(self, text: str, allowed: Allowlist) -> Iterator[Finding]:
        for match in self.pattern.finditer(text):
            span = secret_span(match, self.secret_group)
            secret = text[span[0]:span[1]]
            if span[0] < span[1] and self.keeps(secret, match, text, allowed):
                yield Finding("SECRET", self.label, span[0], word_end(text, span[1]))

    def keeps(self, secret: str, match: re.Match[str], text: str, allowed: Allowlist) -> bool:
        if self.entropy and shannon_entropy(secret) <= self.entropy:
            return False
        if self.rule_id.startswith("generic") and not any(ch.isdigit() for ch in secret):
            return False
        start = lead_in_start(text, match.start(), self.lead_in)
        whole, line = text[start:match.end()], line_of(text, match.start())
        named = text[word_before(text, start):start] + whole.replace(secret, " ")
        if self.rule_id.startswith("generic") and NOT_A_CREDENTIAL_NAME.search(named):
            return False
        if only_references(secret):
            return False
        return not any(a.allows(secret, whole, line) for a in (allowed, *self.allowlists))


@dataclass(frozen=True)
class RuleSet:
    """The compiled rules, run as one detector: each text is lower-cased once and only the rules
    whose keywords occur in it run."""

    version: str
    rules: tuple[Rule, ...]
    allowed: Allowlist
    skipped: Mapping[str, str] = field(default_factory=dict)
    triggers: tuple[str, ...] = ()
    by_keyword: Mapping[str, tuple[int, ...]] = field(init=False)
    always: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:  # the keyword index of the rules, built once
        by_keyword: dict[str, list[int]] = {}
        for index, rule in enumerate(self.rules):
            for keyword in rule.keywords:
                by_keyword.setdefault(keyword, []).append(index)
        object.__setattr__(self, "by_keyword", MappingProxyType({k: tuple(v) for k, v in by_keyword.items()}))
        object.__setattr__(self, "always", tuple(i for i, r in enumerate(self.rules) if not r.keywords))

    def find(self, text: str) -> Iterator[Finding]:
        lowered = text.lower()
        chosen = set(self.always)
        for keyword, indexes in self.by_keyword.items():
            if keyword in lowered:
                chosen.update(indexes)
        for index in sorted(chosen):
            yield from self.rules[index].find(text, self.allowed)


def secret_span(match: re.Match[str], group: int) -> Span:
    """gitleaks' secret: the rule's secret group, else the first non-empty group, else the match."""
    if group and group <= (match.re.groups or 0) and match.group(group):
        return match.span(group)
    for index in range(1, (match.re.groups or 0) + 1):
        if match.group(index):
            return match.span(index)
    return match.span()


def word_end(text: str, end: int) -> int:
    """A secret that stops inside a word goes on to the word's end (at most 64 more characters):
    a rule's fixed length (``github_pat_\\w{82}``) is not the length every token has."""
    if not text[end - 1:end].isalnum():
        return end
    limit = min(len(text), end + 64)
    while end < limit and (text[end].isascii() and (text[end].isalnum() or text[end] == "_")):
        end += 1
    return end


# An environment variable's reference, in a shell's or Windows' syntax (``$STRIPE_KEY``, ``${TOKEN}``, ``%PASS%``).
REFERENCE = re.compile(r"\$\{?[A-Za-z_]\w*\}?|%[A-Za-z_]\w*%")


def only_references(secret: str) -> bool:
    """A credential (``user:password``, maybe quoted) whose every part is a variable's reference: where the
    secret is, not the secret. curl-auth-user's allowlist has ``user:$VAR`` but not a key sent as the
    user with no password, ``curl -u "$STRIPE_KEY:"`` (as Stripe documents ``-u sk_test_…:``)."""
    parts = [part for part in secret.strip("\"'").split(":") if part]
    return bool(parts) and all(REFERENCE.fullmatch(part) for part in parts)


def shannon_entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values()) if value else 0.0


def lead_in_start(text: str, start: int, most: int) -> int:
    """Where gitleaks' match would start: back over up to ``most`` identifier characters."""
    low = max(0, start - most)
    while start > low and text[start - 1] in IDENTIFIER_CHARS:
        start -= 1
    return start


def word_before(text: str, start: int) -> int:
    """Where the word before ``start`` begins, when one space separates them: the key's name may be
    two words (``public key: …``, ``sort key = …``)."""
    if text[start - 1:start] not in (" ", "\t"):
        return start
    begin = start - 1
    while begin > max(0, start - 33) and text[begin - 1].isalpha():
        begin -= 1
    return begin


def line_of(text: str, position: int) -> str:
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    return text[start:end if end >= 0 else len(text)]


# ---- loading ---------------------------------------------------------------------------------------

def compile_rule_regex(pattern: str) -> tuple[re.Pattern[str], int]:
    """A rule's regex without gitleaks' lazy identifier lead-in (``[\\w.-]{0,50}?`` before the
    keyword): it only widens the match, never decides it, and it makes the regex try 50 starts at
    every position (generic-api-key was 40 % of masking's time). The lead-in is restored where the
    match is needed, for allowlists on the match (:func:`lead_in_start`)."""
    flags = "(?i)" if pattern.startswith("(?i)") else ""
    if pattern[len(flags):].startswith(IDENTIFIER_PREFIX):
        return compile_go(flags + pattern[len(flags) + len(IDENTIFIER_PREFIX):]), 50
    return compile_go(pattern), 0


def compile_go(pattern: str) -> re.Pattern[str]:
    """A gitleaks (Go) regex as a compiled Python pattern; RuleTranslationError if it has none."""
    source = go_to_python(pattern.replace(CODE_END, PROSE_END))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return re.compile(source)
        except (re.error, FutureWarning, DeprecationWarning) as exc:
            raise RuleTranslationError(f"Python 're' refuses the translated pattern: {exc}") from exc


def allowlist_of(entry: Mapping[str, Any]) -> Allowlist | None:
    """An allowlist without its path criteria; None where only a path could satisfy it."""
    require_all = str(entry.get("condition", "OR")).upper() == "AND"
    if entry.get("paths") and (require_all or not (entry.get("regexes") or entry.get("stopwords"))):
        return None
    return Allowlist(
        regexes=tuple(compile_go(p) for p in entry.get("regexes", ())),
        stopwords=tuple(w.lower() for w in entry.get("stopwords", ())),
        target=entry.get("regexTarget", "secret"),
        require_all=require_all,
    )


def rule_of(entry: Mapping[str, Any]) -> Rule:
    rule_id = str(entry["id"])
    allowlists = (allowlist_of(a) for a in entry.get("allowlists", ()))
    pattern, lead_in = compile_rule_regex(entry["regex"])
    return Rule(
        rule_id=rule_id,
        label=label_of(rule_id),
        pattern=pattern,
        lead_in=lead_in,
        keywords=tuple(k.lower() for k in entry.get("keywords", ())),
        secret_group=int(entry.get("secretGroup", 0)),
        entropy=float(entry.get("entropy", 0.0)),
        allowlists=tuple(a for a in allowlists if a is not None),
    )


def build_ruleset(config: Mapping[str, Any], version: str) -> RuleSet:
    """Compile every usable rule of a gitleaks config; skip (and log) the rest."""
    rules, skipped = [], {}
    for entry in config.get("rules", ()):
        if "regex" not in entry or "path" in entry:
            skipped[str(entry["id"])] = "applies to file paths only"
            continue
        try:
            rules.append(rule_of(entry))
        except RuleTranslationError as exc:
            skipped[str(entry["id"])] = exc.message
    for rule_id, why in skipped.items():
        log.info("gitleaks rule %s skipped: %s", rule_id, why)
    allowed = allowlist_of(config.get("allowlist", {})) or Allowlist()
    log.info("gitleaks rules %s: %d compiled, %d skipped", version, len(rules), len(skipped))
    return RuleSet(version, tuple(rules), allowed, MappingProxyType(skipped))


RULES_FOLDER = ("data", "gitleaks")  # inside the reverie package


@lru_cache(maxsize=1)
def load_ruleset() -> RuleSet:
    """The vendored gitleaks rules, compiled once per process."""
    folder = resources.files("reverie").joinpath(*RULES_FOLDER)
    try:
        config = tomllib.loads(folder.joinpath("gitleaks.toml").read_text(encoding="utf-8"))
        version = folder.joinpath("VERSION").read_text(encoding="utf-8").split()[0]
    except (OSError, tomllib.TOMLDecodeError, IndexError) as exc:
        raise ConfigError(
            f"the vendored secret rules (reverie/data/gitleaks/) cannot be read: {exc}; "
            "reinstall reverie or restore gitleaks.toml and VERSION from the repository"
        ) from exc
    return build_ruleset(config, version)


