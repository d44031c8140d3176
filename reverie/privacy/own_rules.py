"""Our own secret patterns, for what neither gitleaks' rule set (:mod:`reverie.privacy.ruleset`)
nor detect-secrets' plugins cover: PEM and PuTTY private-key blocks over many lines (also
JSON-escaped), provider tokens gitleaks lacks (Docker Hub, Figma, Supabase, Groq, Replicate,
LangSmith, Buildkite, Vault batch, Mapbox secret, 1Password, Dropbox, Notion, Discord, Datadog,
legacy Heroku and Mailgun keys, Mollie, Paystack, DeepSeek, Razorpay, Render, Sentry org tokens,
Azure DevOps PATs, X bearer tokens, Okta, Cloudflare, ngrok), AWS secret keys by their key name,
``password = ...`` assignments in code, config and env files (and as env name/value pairs),
credentials in URLs and SQL (``IDENTIFIED BY``), base64 PEM keys, registry ``auth`` entries, bearer
and token headers, and legacy OpenAI keys. Credentials on command lines are in
:mod:`reverie.privacy.commands`.
"""

from __future__ import annotations

import base64
import binascii
import re

from reverie.privacy.findings import Detector, Locate, PatternDetector, Span, value_group, whole_match
from reverie.privacy.values import bare_secret, literal_secret, random_like, without_open_closers, yaml_tag

# RFC 7468 (textual encodings: PEM) and OpenSSH PROTOCOL.key; JSON escapes as in GCP key files.
PEM_BODY = r"(?:[A-Za-z0-9+/=\s:,.\-]|\\[rn])"
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?)-----"
    rf"(?:{PEM_BODY}*?-----END (?P=kind)-----|{PEM_BODY}*)"
)
# A PEM block in base64, as kubeconfig's ``client-key-data`` and Kubernetes Secrets' ``data`` hold
# it: base64 of "-----BEGIN " is "LS0tLS1CRUdJTi"; the block decodes to a private key's BEGIN line.
BASE64_PEM = re.compile(r"(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}")
# PuTTY's PPK file format (PuTTY manual, appendix C).
PUTTY_KEY = re.compile(r"PuTTY-User-Key-File-\d:.*?Private-MAC: [0-9a-fA-F]+", re.DOTALL)
# OpenAI API keys, legacy 'sk-' and project/service-account forms (platform.openai.com docs).
OPENAI_KEY = re.compile(r"(?<![\w-])sk-(?:(?:proj|svcacct|admin)-)?(?P<v>[A-Za-z0-9_\-]{20,})")
# Stripe webhook signing secrets (docs.stripe.com/webhooks): gitleaks has the API keys only.
STRIPE_WEBHOOK_SECRET = re.compile(r"(?<![A-Za-z0-9])whsec_[A-Za-z0-9+/=]{24,}")
# New Relic user API keys (docs.newrelic.com, "API keys"): "NRAK-" and 27 characters. gitleaks
# has the rule only after a "newrelic = " assignment; the prefix alone is distinctive.
NEW_RELIC_KEY = re.compile(r"\bNRAK-[A-Z0-9]{27}\b")
# Doppler token formats (docs.doppler.com, "Token formats"): gitleaks knows personal tokens only.
# Service tokens carry their config's slug, ``dp.st.<config>.`` and 40 characters.
DOPPLER_TOKEN = re.compile(r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_\-]{1,40}\.)?[A-Za-z0-9]{40,44}\b")
# Provider tokens whose prefix alone is distinctive, which gitleaks 8.30.1 lacks, or knows only
# after an assignment naming the provider, or only at a length the provider does not promise.
PREFIXED_TOKENS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    # Docker Hub personal and organization access tokens (docs.docker.com, "Access tokens").
    ("dockerhub_token", re.compile(r"\bdckr_(?:pat|oat)_[A-Za-z0-9_\-]{24,}"), ("dckr_",)),
    # Fly.io macaroon tokens, as ``fly tokens create`` prints them (fly.io/docs, "Access tokens"):
    # "FlyV1 " and a comma-separated list of ``fm1a_``/``fm1r_``/``fm2_`` macaroons, the later ones
    # (third-party discharges) often shorter than the 100 characters gitleaks wants; all are secret,
    # and the whole header value is masked.
    ("flyio_token",
     re.compile(r"(?:\bFlyV1[ \t]+)?\bfm(?:1[ar]|2)_[A-Za-z0-9+/]{40,}={0,3}(?:,fm(?:1[ar]|2)_[A-Za-z0-9+/]{40,}={0,3})*"),
     ("fm1", "fm2")),
    # Figma personal access tokens (Figma REST API, "Authentication").
    ("figma_token", re.compile(r"\bfig[dou]_[A-Za-z0-9_\-]{36,}"), ("fig",)),
    # Supabase personal access tokens (supabase.com/docs, "Management API").
    ("supabase_token", re.compile(r"\bsbp_[a-f0-9]{40}\b"), ("sbp_",)),
    # Groq API keys (console.groq.com/docs, "API keys").
    ("groq_key", re.compile(r"\bgsk_[A-Za-z0-9]{48,}\b"), ("gsk_",)),
    # Replicate API tokens (replicate.com/docs, "Authentication").
    ("replicate_token", re.compile(r"\br8_[A-Za-z0-9]{36,}\b"), ("r8_",)),
    # LangSmith personal and service keys (docs.smith.langchain.com, "Create an API key").
    ("langsmith_key", re.compile(r"\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b"), ("lsv2_",)),
    # Buildkite API access tokens (buildkite.com/docs/apis, "Managing API access tokens").
    ("buildkite_token", re.compile(r"\bbkua_[a-f0-9]{40}\b"), ("bkua_",)),
    # HashiCorp Vault 1.10+ tokens: service "hvs.", batch "hvb.", recovery "hvr." (Vault docs,
    # "Tokens"); gitleaks wants 138 characters for a batch token, shorter ones are as secret.
    ("vault_token", re.compile(r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}"), ("hvs.", "hvb.", "hvr.")),
    # Mapbox secret tokens "sk.eyJ…" (docs.mapbox.com, "Access tokens"); gitleaks has "pk." only.
    ("mapbox_token", re.compile(r"\bsk\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{20,}"), ("sk.eyj",)),
    # 1Password service account tokens "ops_eyJ…" (developer.1password.com, "Service accounts").
    ("onepassword_token", re.compile(r"\bops_eyJ[A-Za-z0-9+/]{100,}={0,3}"), ("ops_eyj",)),
    # Dropbox short-lived access tokens "sl." (Dropbox OAuth guide); gitleaks wants exactly 135
    # characters after "dropbox =".
    ("dropbox_token", re.compile(r"\bsl\.[A-Za-z0-9_=\-]{120,}"), ("sl.",)),
    # Notion internal integration secrets, "secret_" and 43 alphanumerics (before 2024's "ntn_").
    ("notion_token", re.compile(r"\bsecret_[A-Za-z0-9]{43}\b"), ("secret_",)),
    # Discord bot tokens: base64 of the bot's snowflake id ("M", "N" or "O" first), a 6-character
    # timestamp and an HMAC (discord.com/developers/docs, "Authentication").
    ("discord_token", re.compile(r"(?<![\w\-.])[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![\w\-])"),
     ()),    # Discord webhook URLs: /api/webhooks/<id>/<token> (discord.com/developers/docs, "Webhook").
    ("discord_webhook", re.compile(r"\bhttps?://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{60,}"),
     ("discord",)),
    # Microsoft Teams incoming webhook URLs (learn.microsoft.com, "Create an Incoming Webhook"),
    # the whole URL: gitleaks' rule stops before the IncomingWebhook secret segment.
    ("teams_webhook", re.compile(r"\bhttps://[\w\-]+\.webhook\.office\.com/webhookb2/[^\s\"'<>]+"), ("webhook.office",)),
    # Google OAuth client secrets "GOCSPX-" and access tokens "ya29." (developers.google.com, OAuth 2.0).
    ("google_oauth_secret", re.compile(r"\bGOCSPX-[A-Za-z0-9_\-]{28}(?![\w\-])"), ("gocspx-",)),
    ("google_oauth_token", re.compile(r"\bya29\.[A-Za-z0-9_\-]{30,}"), ("ya29.",)),
    # Firebase Cloud Messaging legacy server keys (firebase.google.com, "Server keys").
    ("fcm_server_key", re.compile(r"\bAAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,}"), (":apa91b",)),
    # Zoho OAuth access and refresh tokens "1000." 32 hex "." 32 hex (zoho.com/accounts, OAuth).
    ("zoho_token", re.compile(r"\b1000\.[a-f0-9]{32}\.[a-f0-9]{32}\b"), ("1000.",)),
    # Salesforce session/access tokens: the 15-character org id "00D…", "!", then the session
    # (help.salesforce.com, "Session ID").
    ("salesforce_token", re.compile(r"\b00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{60,}"), ("00d",)),
    # ClickUp personal API tokens "pk_" user id "_" 32 (clickup.com/api, "Authentication").
    ("clickup_token", re.compile(r"\bpk_\d{5,12}_[A-Z0-9]{32}\b"), ("pk_",)),
    # Asana personal access tokens "1/…:" or "2/…/…:" and 32 hex (developers.asana.com, "PAT").
    ("asana_token", re.compile(r"(?<![\w/])[12]/\d{10,19}(?:/\d{10,19})?:[a-f0-9]{32}\b"), (":",)),
    # LaunchDarkly server-side SDK keys "sdk-<uuid>" (docs.launchdarkly.com, "Keys"); its API
    # access tokens "api-<uuid>" only where LaunchDarkly is named (NAMED_KEYS): "api-<uuid>" is
    # also how request ids are written.
    ("launchdarkly_key", re.compile(r"\bsdk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), ("sdk-",)),
    # Meta Graph API access tokens "EAA…" (developers.facebook.com, "Access tokens").
    ("facebook_token", re.compile(r"\bEAA[A-Za-z0-9]{90,}\b"), ("eaa",)),
    # xAI API keys (docs.x.ai), OpenRouter keys (openrouter.ai/docs), Pinecone keys (docs.pinecone.io).
    ("xai_key", re.compile(r"\bxai-[A-Za-z0-9]{70,}\b"), ("xai-",)),
    ("openrouter_key", re.compile(r"\bsk-or-v1-[a-f0-9]{64}\b"), ("sk-or-",)),
    ("pinecone_key", re.compile(r"\bpcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{40,}\b"), ("pcsk_",)),
    # Contentful personal access tokens "CFPAT-" (contentful.com/developers, "Authentication").
    ("contentful_token", re.compile(r"\bCFPAT-[A-Za-z0-9_\-]{43}(?![\w\-])"), ("cfpat-",)),
    # HubSpot private app access tokens "pat-<region>-<uuid>" (developers.hubspot.com, "Private apps").
    ("hubspot_token", re.compile(r"\bpat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
     ("pat-",)),
    # Tailscale auth/API/OAuth keys "tskey-<type>-<id>-<secret>" (tailscale.com/kb, "API keys").
    ("tailscale_key", re.compile(r"\btskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{20,}\b"), ("tskey-",)),
    # Bitbucket app passwords and API tokens "ATBB…" (support.atlassian.com, "App passwords").
    ("bitbucket_token", re.compile(r"\bATBB[A-Za-z0-9_\-]{32,}\b"), ("atbb",)),
    # NuGet.org API keys "oy2" and 43 lower-case characters (learn.microsoft.com, "nuget push").
    ("nuget_key", re.compile(r"\boy2[a-z0-9]{43}\b"), ("oy2",)),
    # crates.io API tokens "cio" and 32 characters (doc.rust-lang.org/cargo, "cargo login").
    ("cratesio_token", re.compile(r"\bcio[A-Za-z0-9]{32}\b"), ("cio",)),
    # CircleCI personal API tokens "CCIPAT_" (circleci.com/docs, "Managing API tokens").
    ("circleci_token", re.compile(r"\bCCIPAT_[A-Za-z0-9]{20,}_[a-f0-9]{40}\b"), ("ccipat_",)),
    # Trello API tokens "ATTA" and 64 hex plus a check (developer.atlassian.com, Trello API).
    ("trello_token", re.compile(r"\bATTA[A-Fa-f0-9]{64,72}\b"), ("atta",)),
    # Flutterwave secret keys "FLWSECK-"/"FLWSECK_TEST-" … "-X" (developer.flutterwave.com, "API keys").
    ("flutterwave_key", re.compile(r"\bFLWSECK(?:_TEST)?-[a-f0-9]{32}-X\b"), ("flwseck",)),
    # Braintree access tokens "access_token$production$…$…" (developer.paypal.com, Braintree).
    ("braintree_token", re.compile(r"\baccess_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}\b"), ("access_token$",)),
    # Plaid access tokens "access-<environment>-<uuid>" (plaid.com/docs, "Tokens").
    ("plaid_token",
     re.compile(r"\baccess-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"),
     ("access-",)),
    # Honeycomb ingest keys "hcaik_"/"hcxik_" (docs.honeycomb.io, "API keys").
    ("honeycomb_key", re.compile(r"\bhc[ax]ik_[a-z0-9]{58}\b"), ("ik_",)),
    # Resend API keys "re_" id "_" secret (resend.com/docs, "API keys").
    ("resend_key", re.compile(r"\bre_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}\b"), ("re_",)),
    # Langfuse secret keys "sk-lf-<uuid>" (langfuse.com/docs, "API keys").
    ("langfuse_key", re.compile(r"\bsk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), ("sk-lf-",)),
    # Modal token secrets "as-" (modal.com/docs, "modal token set").
    ("modal_token", re.compile(r"(?<![\w\-])as-[A-Za-z0-9]{22}\b"), ("as-",)),
    # Yandex Cloud API keys "AQVN" (yandex.cloud/docs, "API key").
    ("yandex_key", re.compile(r"\bAQVN[A-Za-z0-9_\-]{35,38}(?![\w\-])"), ("aqvn",)),
    # Tencent Cloud SecretId "AKID" and 32 characters (tencentcloud.com, "API keys").
    ("tencent_key", re.compile(r"\bAKID[A-Za-z0-9]{32}\b"), ("akid",)),
    # Django's generated insecure SECRET_KEY (django-admin startproject).
    ("django_secret_key", re.compile(r"\bdjango-insecure-[^\s'\"]{40,}"), ("django-insecure-",)),
    # ElevenLabs API keys "sk_" and 48 hex (elevenlabs.io/docs, "Authentication").
    ("elevenlabs_key", re.compile(r"(?<![\w\-])sk_[a-f0-9]{48}\b"), ("sk_",)),
    # WooCommerce REST API consumer keys and secrets "ck_"/"cs_" and 40 hex (woocommerce.github.io).
    ("woocommerce_key", re.compile(r"(?<![\w\-])c[ks]_[a-f0-9]{40}\b"), ("ck_", "cs_")),
    # Mollie API keys "live_"/"test_" and 30 alphanumerics, organization access tokens "access_"
    # and 40 (docs.mollie.com, "Authentication").
    ("mollie_key", re.compile(r"(?<![\w\-])(?:(?:live|test)_[A-Za-z0-9]{30}|access_[A-Za-z0-9]{40})(?![\w\-])"),
     ("live_", "test_", "access_")),
    # Paystack secret and public keys "sk_live_"/"sk_test_"/"pk_…" and 40 hex (paystack.com/docs,
    # "API keys"); Stripe's keys under the same prefixes are mixed-case alphanumerics (PRECISE in
    # masker.py lets this narrower format name the span).
    ("paystack_key", re.compile(r"\b[sp]k_(?:live|test)_[a-f0-9]{40}\b"), ("k_live_", "k_test_")),
    # DeepSeek API keys "sk-" and 32 hex (api-docs.deepseek.com, "Your first API call"), in a text
    # that names DeepSeek: OpenAI's legacy keys came in that shape too, so elsewhere it stays an
    # OpenAI key (PRECISE in masker.py lets this name the span where both match).
    ("deepseek_key", re.compile(r"(?<![\w\-])sk-[a-f0-9]{32}(?![\w\-])"), ("deepseek",)),
    # Razorpay API key ids "rzp_live_"/"rzp_test_" and 14 alphanumerics (razorpay.com/docs/api,
    # "Authentication"); their secrets are found by name (NAMED_KEYS).
    ("razorpay_key", re.compile(r"\brzp_(?:live|test)_[A-Za-z0-9]{14}\b"), ("rzp_",)),
    # Render API keys "rnd_" and 32 alphanumerics (render.com/docs/api, "Authentication").
    ("render_key", re.compile(r"\brnd_[A-Za-z0-9]{32}\b"), ("rnd_",)),
    # Sentry organization auth tokens "sntrys_": a base64 JSON claim, "_", and a URL-safe base64
    # secret (docs.sentry.io, "Auth Tokens"; Sentry's ``token_urlsafe``, so "_" and "-" occur in
    # it, which gitleaks' rule does not allow).
    ("sentry_token", re.compile(r"\bsntrys_eyJ[A-Za-z0-9+/]{20,}={0,2}_[A-Za-z0-9_\-]{40,50}(?![\w\-])"), ("sntrys_",)),
    # Azure DevOps personal access tokens since 2024: 84 characters with the signature "AZDO" at
    # positions 77-80 (learn.microsoft.com, "Use personal access tokens"; devblogs.microsoft.com,
    # "Azure DevOps PAT format change").
    ("azure_devops_token", re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9])"), ("azdo",)),
    # X (Twitter) app-only OAuth 2.0 bearer tokens: a run of "A"s, then the token with "%3D"
    # (developer.x.com, "OAuth 2.0 Bearer Token"); gitleaks wants 22 "A"s and at most 100 more.
    ("twitter_bearer", re.compile(r"(?<![A-Za-z0-9+/])A{20,24}(?=[B-Za-z0-9%])[A-Za-z0-9%]{60,130}(?![A-Za-z0-9%])"),
     ("a" * 20,)),
)
# Keys without a prefix, under the names their providers document: Cloudflare's global API key
# (37 hex, "X-Auth-Key"), Mistral's API key (MISTRAL_API_KEY), Weights & Biases (WANDB_API_KEY,
# 40 hex), Okta API tokens (sent as "SSWS"); Azure shared access signatures ("sig=").
NAMED_KEYS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    ("cloudflare_key", re.compile(r"(?i)\bx-auth-key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[a-f0-9]{37})\b"), ("x-auth-key",)),
    ("mistral_key", re.compile(r"(?i)\bmistral_api_key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9]{32})\b"), ("mistral",)),
    ("wandb_key",
     re.compile(r"(?i)(?:\bwandb_api_key[\"']?[ \t]*[:=][ \t]*[\"']?|\bwandb[ \t]+login[ \t]+(?:-\S+[ \t]+)*)"
                r"(?P<v>[a-f0-9]{40})\b"),
     ("wandb",)),
    ("okta_token", re.compile(r"\bSSWS[ \t]+(?P<v>00[A-Za-z0-9_\-]{40})(?![\w\-])"), ("ssws",)),
    # Okta API tokens: "00" and 40 characters (developer.okta.com, "Create an API token"), in a text
    # that names Okta (its SDK configs: ``okta: client: token: …``).
    ("okta_token", re.compile(r"(?<![\w\-])(?P<v>00[A-Za-z0-9_\-]{40})(?![\w\-])"), ("okta",)),
    # Razorpay key secrets: 24 alphanumerics under "key_secret" in a text that names Razorpay
    # (razorpay.com/docs/api, "Authentication").
    ("razorpay_key", re.compile(r"(?i)\bkey_secret[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9]{24})\b"), ("razorpay",)),
    # Cloudflare API tokens: 40 characters (developers.cloudflare.com, "Create API token"), under
    # an api_token name in a text that names Cloudflare (Terraform's provider block, wrangler).
    ("cloudflare_token",
     re.compile(r"(?i)\b(?:cf_|cloudflare_)?api_?token[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9_\-]{40})(?![\w\-])"),
     ("cloudflare",)),
    # ngrok authtokens: a digit, 26 alphanumerics, "_", 20-22 more (ngrok.com/docs, "ngrok config
    # add-authtoken"), in a text that names ngrok.
    ("ngrok_token", re.compile(r"(?<![\w\-])(?P<v>\d[A-Za-z0-9]{26}_[A-Za-z0-9]{20,22})(?![\w\-])"), ("ngrok",)),
    ("launchdarkly_key",
     re.compile(r"(?i)(?:launchdarkly|\bldclient|\bld_)[^\n]{0,80}?"
                r"(?P<v>\bapi-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)"),
     ("launchdarkly", "ldclient", "ld_")),
    # Cohere API keys: 40 alphanumerics (docs.cohere.com, "API keys"), under an api_key name in a
    # text that names Cohere (``cohere.ClientV2(api_key="…")``); gitleaks wants "cohere" right before.
    ("cohere_key", re.compile(r"(?i)\b(?:co_|cohere_)?api_?key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9]{40})(?![\w\-])"),
     ("cohere",)),
    ("azure_sas_token", re.compile(r"[?&]sig=(?P<v>[A-Za-z0-9%+/]{40,}(?:%3D|=){0,2})"), ("sig=",)),
    # Teams incoming webhooks moved from Office 365 connectors to Workflows (learn.microsoft.com,
    # "Create incoming webhooks with Workflows for Microsoft Teams"): a Logic Apps / Power Automate
    # HTTP trigger URL, ``…/workflows/<id>/triggers/manual/paths/invoke?…&sig=<base64url>``, whose
    # sig alone lets anyone post ("Call, trigger, or nest logic apps by using HTTPS endpoints").
    ("teams_webhook",
     re.compile(r"(?i)\bhttps://[\w.\-]+(?::\d+)?/(?:[\w\-]+/)*workflows/[0-9a-f]{32}/triggers/[^\s\"'<>]*?"
                r"[?&]sig=(?P<v>[A-Za-z0-9_\-%]{30,})"),
     ("/workflows/",)),
)
# Datadog API keys (32 hex) and application keys (40 hex) under their usual names
# (docs.datadoghq.com, "API and application keys"; DD_API_KEY, DD_APP_KEY, datadog.yaml api_key).
DATADOG_KEY = re.compile(
    r"(?i)\b(?:dd_|datadog_)?(?:api|app|application)_?key\b[\"'`]?[ \t]*[:=][ \t]*[\"'`]?"
    r"(?P<v>[a-f0-9]{40}|[a-f0-9]{32})\b"
)
# Legacy Heroku API keys are UUIDs, printed by ``heroku auth:token`` (devcenter.heroku.com,
# "Heroku CLI authentication"): a UUID on a line that names Heroku and a token or key.
HEROKU_UUID = re.compile(
    r"(?i)\bheroku\b[^\n]{0,60}?(?:token|key|auth)[^\n]{0,40}?"
    r"(?P<v>\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)"
)
# Mailgun private API keys, "key-" and 32 hex digits (documentation.mailgun.com, "API keys"), in a
# text that names Mailgun (gitleaks wants them straight after "mailgun =").
MAILGUN_KEY = re.compile(r"\bkey-[a-f0-9]{32}\b")
# AWS secret access keys: 40 base64 characters, found by their key name (AWS IAM user guide).
AWS_SECRET = re.compile(
    r"(?i)secret[_\-]?(?:access[_\-]?)?key[\"'`]?(?:[ \t]*(?::=|=>|[:=])[ \t]*|[ \t]+)[\"'`]?"
    r"(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
# A 40-character secret under a plain "secret" name, beside an access key id (AKIA long-term,
# ASIA temporary): the pair an AWS SDK logs or an env dump prints.
PAIRED_AWS_SECRET = re.compile(r"(?i)\bsecret[\"'`]?[ \t]*[:=][ \t]*[\"'`]?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")
AWS_KEY_ID = re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b")
# The secret in an environment variable's name/value pair (Kubernetes' ``env: - name:
# AWS_SECRET_ACCESS_KEY value: …``, ECS task definitions), as NAMED_ENV_VALUE finds any secret.
NAMED_AWS_SECRET = re.compile(
    r"(?i)\bname[\"']?[ \t]*[:=][ \t]*[\"']?[\w.\-]*secret[_\-]?access[_\-]?key[\"']?[ \t]*,?\s{0,40}?-?[ \t]*"
    r"[\"']?value[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
# The id and the secret joined by "/" or ":", as a credentials string is logged or put in a Hadoop
# ``s3a://ID:SECRET@bucket`` URI (Apache Hadoop, "Hadoop-AWS module: authenticating with S3").
JOINED_AWS_SECRET = re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}[/:](?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")
# The header name, then ":" or "=" (HTTP, code), or only spaces: the server configs that set the
# header, nginx's ``proxy_set_header Authorization "Basic …"`` (nginx.org, ngx_http_proxy_module)
# and Apache's ``RequestHeader set Authorization "Basic …"`` (httpd.apache.org, mod_headers).
AUTHORIZATION = r"\b(?:proxy-)?authorization\b[\"'`]?(?:[ \t]*[:=][ \t]*|[ \t]+)[\"'`]?[ \t]*"
# RFC 6750 bearer tokens in Authorization headers.
BEARER = re.compile(
    rf"(?i)(?:{AUTHORIZATION}(?:bearer|token)"
    r"|\bbearer)[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"
)
# Token headers, ``X-Api-Token: …``, ``X-Auth-Token: …`` (OpenStack Keystone, many APIs): a bearer
# token under another header name.
TOKEN_HEADER = re.compile(r"(?i)(?<![\w\-])x-[\w\-]*token[ \t]*:[ \t]*(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)")
# RFC 7617 Basic credentials (base64 of user:password) in Authorization headers.
BASIC_AUTH = re.compile(rf"(?i){AUTHORIZATION}basic[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{{16,}}=*)")
# Docker's and Podman's registry credentials (``~/.docker/config.json``, ``auth.json``): ``"auth":``
# and the base64 of ``user:password``, as in a Basic header.
REGISTRY_AUTH = re.compile(r"(?i)[\"']auth[\"'][ \t]*:[ \t]*[\"'](?P<v>[A-Za-z0-9+/]{12,}={0,2})[\"']")
# RFC 3986 section 3.2.1: userinfo in a URI.
URL_CREDENTIALS = re.compile(
    r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://(?P<v>[^\s:/?#@\"'<>]*:(?P<pw>[^\s/?#@\"'<>]+))@(?=[\w\[.\-])"
)
# "psk": the WPA pre-shared key of wpa_supplicant.conf(5) and NetworkManager's 802-11-wireless-security.
# keytool's "-storepass", "-keypass", "-srcstorepass" (keytool reference, JDK docs).
SECRET_KEYWORD = (
    r"pass(?:word|wd|phrase)|(?<![a-z])pass|(?<=db|pg)pass|(?<=store)pass|(?<=key)pass|(?<![a-z])pwd|(?<![a-z])psk"
    r"|secret|token"
    r"|(?:api|access|secret|auth|private|client|signing|encryption|master|license|app|consumer)"
    r"[_\-]?key"
)
# key = value in code, env files (dotenv), YAML, INI, JSON and connection strings; ``--key value``
# on a command line, where the value is the word up to the next space (``-storepass ab1&``), or
# to a ";", "|" or "&&" that ends the command.
ASSIGNMENT = re.compile(
    rf"(?i)(?<![\w.\-])(?P<dash>--?)?(?P<key>[\w.\-]*?(?:{SECRET_KEYWORD}))[\"'`]?\]?"
    r"(?P<sep>[ \t]*(?::=|=>|==?|:)[ \t]*|(?(dash)[ \t]+|(?!)))"
    r"(?:\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|`(?P<bq>[^`\n]{1,256})`"
    r"|(?P<bare>(?(dash)(?:[^\s\"'`<>;|&]|&(?!&))|(?:[^\s\"'`,;&<>]|[,;&](?![ \t]|[\w.\-]+=|$))){1,256}))"
)
# "login admin / PASSWORD", "user: admin / PASSWORD": a user name, a slash, then the password.
LOGIN_SLASH_PASSWORD = re.compile(
    r"(?i)\b(?:login|user(?:name)?|credentials?|creds)\b(?:[ \t]+(?:is|are|was))?[ \t]*:?[ \t]*[\w.@\-]+[ \t]+/[ \t]+"
    r"(?P<v>[^\s,;]{6,64})"
)
# .NET appSettings entries (learn.microsoft.com, "<add> element for <appSettings>"): ``<add
# key="SmtpPassword" value="…" />``, the key naming a secret.
APP_SETTING = re.compile(
    rf"(?i)<add[ \t]+key=\"[\w.:\-]*(?:{SECRET_KEYWORD})[\w.:\-]*\"[ \t]+value=\"(?P<v>[^\"\n]{{1,256}})\""
)
# PostgreSQL's password file, ~/.pgpass (postgresql.org/docs, libpq "The Password File"): one
# ``hostname:port:database:username:password`` a line, ``*`` matching any; the host has a letter
# or a dot, the port is digits or ``*`` (so MAC addresses and times are not read as one).
PGPASS_LINE = re.compile(
    r"(?m)^[ \t]*(?=[^:\s]*[A-Za-z.*])[^\s:#][^\s:]*:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:(?P<v>[^\s]+)[ \t]*$"
)
# SQL's ``CREATE USER … IDENTIFIED BY 'PASSWORD'`` (MySQL, Oracle), ``PASSWORD 'x'`` (PostgreSQL).
SQL_PASSWORD = re.compile(r"(?i)\b(?:identified[ \t]+(?:with[ \t]+\w+[ \t]+)?by|password)[ \t]+'(?P<sq>[^'\n]{1,128})'")
# An environment variable as a name and a value (Kubernetes' ``env: - name: X value: …``, ECS task
# definitions ``{"name": "X", "value": …}``), the name naming a secret.
NAMED_ENV_VALUE = re.compile(
    rf"(?i)[\"']?\bname[\"']?[ \t]*[:=][ \t]*[\"']?[\w.\-]*(?:{SECRET_KEYWORD})[\w.\-]*[\"']?[ \t]*,?[ \t]*\n?[ \t]*-?[ \t]*"
    r"[\"']?value[\"']?[ \t]*[:=][ \t]*(?:\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|(?P<v>[^\s\"',}]{1,256}))"
)
# <password>...</password> in XML configs (Maven settings.xml, NuGet.config).
XML_SECRET = re.compile(
    rf"(?i)<(?P<tag>[\w.:\-]*(?:{SECRET_KEYWORD}))>(?P<v>[^<\n]{{1,256}})</(?P=tag)>"
)
SECRET_TRIGGERS = ("pass", "pwd", "psk", "secret", "token", "key")


def random_value(text: str, match: re.Match[str]) -> Span | None:
    return match.span() if random_like(match.group("v")) else None


def private_key_span(text: str, match: re.Match[str]) -> Span | None:
    """The whole block; a block cut off before its END line stops at its last key character."""
    body = match.group(0)
    while body.endswith(("\\n", "\\r")) or body[-1:].isspace():
        body = body[:-2] if body.endswith(("\\n", "\\r")) else body[:-1]
    return match.start(), match.start() + len(body)


def base64_private_key_span(text: str, match: re.Match[str]) -> Span | None:
    """The block, when its first line decodes to a private key's BEGIN line (not a certificate's)."""
    head = match.group(0)[:96].rstrip("=")
    decoded = base64.b64decode(head[:len(head) // 4 * 4])
    return match.span() if b"PRIVATE KEY" in decoded.split(b"\n", 1)[0] else None


def basic_credentials_span(text: str, match: re.Match[str]) -> Span | None:
    """The value, when it decodes to printable ``user:password`` (RFC 7617)."""
    value = match.group("v").rstrip("=")
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return match.span("v") if ":" in decoded[1:-1] and decoded.isprintable() else None


def paired_aws_secret_span(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v") if AWS_KEY_ID.search(text) else None


def bearer_span(text: str, match: re.Match[str]) -> Span | None:
    """The token, less dots that end a sentence; a quote right after keeps them (RFC 6750's
    b64token may end in ".")."""
    start, end = match.span("v")
    if text[end:end + 1] not in ("'", '"', "`"):
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
    if yaml_tag(text, start):
        return None
    return (start, start + len(value)) if bare_secret(value, in_code=match.group("dash") is None) else None


def literal_value(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v") if literal_secret(match.group("v")) else None


def quoted_literal(text: str, match: re.Match[str]) -> Span | None:
    return match.span("sq") if literal_secret(match.group("sq")) else None


def quoted_or_literal(text: str, match: re.Match[str]) -> Span | None:
    """A quoted value as it stands, else a bare one that looks like a literal secret."""
    for group in ("sq", "dq"):
        if match.group(group) is not None:
            return match.span(group) if literal_secret(match.group(group)) else None
    return literal_value(text, match)


def own_secret_detectors() -> tuple[Detector, ...]:
    def secret(label: str, pattern: re.Pattern[str], triggers: tuple[str, ...],
               locate: Locate = whole_match) -> PatternDetector:
        return PatternDetector("SECRET", label, pattern, triggers, locate)

    prefixed = tuple(secret(label, pattern, triggers) for label, pattern, triggers in PREFIXED_TOKENS)
    return (
        *prefixed,
        secret("datadog_key", DATADOG_KEY, ("datadog", "dd_"), value_group),
        secret("heroku_key", HEROKU_UUID, ("heroku",), value_group),
        secret("mailgun_key", MAILGUN_KEY, ("mailgun",)),
        secret("private_key", PRIVATE_KEY_BLOCK, ("private key",), private_key_span),
        secret("private_key", BASE64_PEM, ("ls0tls1crudjti",), base64_private_key_span),
        secret("private_key", PUTTY_KEY, ("putty-user-key-file",)),
        secret("openai_key", OPENAI_KEY, ("sk-",), random_value),
        secret("stripe_key", STRIPE_WEBHOOK_SECRET, ("whsec_",)),
        secret("doppler_token", DOPPLER_TOKEN, ("dp.",)),
        secret("new_relic_key", NEW_RELIC_KEY, ("nrak-",)),
        secret("aws_secret", AWS_SECRET, ("secret",), value_group),
        secret("bearer_token", BEARER, ("bearer", "authorization"), bearer_span),
        secret("bearer_token", TOKEN_HEADER, ("token",), bearer_span),
        secret("url_credentials", URL_CREDENTIALS, ("://",), credentials_span),
        secret("basic_auth", BASIC_AUTH, ("basic",), bearer_span),
        secret("basic_auth", REGISTRY_AUTH, ("auth",), basic_credentials_span),
        secret("aws_secret", PAIRED_AWS_SECRET, ("akia", "asia"), paired_aws_secret_span),
        secret("aws_secret", NAMED_AWS_SECRET, ("secret",), value_group),
        secret("aws_secret", JOINED_AWS_SECRET, ("akia", "asia"), value_group),
        *(secret(label, pattern, triggers, value_group) for label, pattern, triggers in NAMED_KEYS),
        secret("password", LOGIN_SLASH_PASSWORD, ("login", "user", "cred"), literal_value),
        secret("password", PGPASS_LINE, (":",), literal_value),
        secret("password", ASSIGNMENT, SECRET_TRIGGERS, assignment_span),
        secret("password", XML_SECRET, SECRET_TRIGGERS, literal_value),
        secret("password", APP_SETTING, SECRET_TRIGGERS, literal_value),
        secret("password", SQL_PASSWORD, ("identified", "password"), quoted_literal),
        secret("password", NAMED_ENV_VALUE, SECRET_TRIGGERS, quoted_or_literal),
    )


