"""Provider token formats neither gitleaks' rule set (:mod:`reverie.privacy.ruleset`) nor
detect-secrets' plugins cover, or cover only after an assignment naming the provider, or only at a
length the provider does not promise. Each names the format's documentation.

Most have a prefix that is distinctive alone (:data:`PREFIXED_TOKENS`); keys without one are found
under the names their providers document, or in a text that names the provider (:data:`NAMED_KEYS`).
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, Locate, PatternDetector, Span, value_group, whole_match
from reverie.privacy.provider_names import provider_name_detectors
from reverie.privacy.values import random_like

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
    # Supabase secret API keys "sb_secret_" (supabase.com/docs, "Understanding API keys", 2025).
    ("supabase_token", re.compile(r"\bsb_secret_[A-Za-z0-9_\-]{20,}"), ("sb_secret_",)),
    # Hugging Face user access tokens "hf_" and 34 characters (huggingface.co/docs/hub, "User access
    # tokens"); gitleaks wants letters only, tokens with digits are as secret.
    ("huggingface_token", re.compile(r"(?<![\w\-])hf_[A-Za-z0-9]{34}(?![\w\-])"), ("hf_",)),
    # Typeform personal access tokens "tfp_" (typeform.com/developers, "Personal access token").
    ("typeform_token", re.compile(r"\btfp_[A-Za-z0-9_\-]{40,}"), ("tfp_",)),
    # PostHog personal API keys "phx_" (posthog.com/docs/api, "Personal API keys"); project keys are
    # "phc_" and public.
    ("posthog_personal_key", re.compile(r"(?<![\w\-])phx_[A-Za-z0-9]{40,}(?![\w\-])"), ("phx_",)),
    # Neon API keys "napi_" and 64 lower-case letters and digits (neon.tech/docs, "Manage API keys").
    ("neon_api_key", re.compile(r"(?<![\w\-])napi_[a-z0-9]{60,}(?![\w\-])"), ("napi_",)),
    # Scaleway access keys, "SCW" and 17 upper-case letters and digits (scaleway.com/docs, "How to
    # create API keys"; the CLI's config.yaml ``access_key``).
    ("scaleway_key", re.compile(r"(?<![\w\-])SCW[A-Z0-9]{17}(?![\w\-])"), ("scw",)),
    # Adafruit IO keys "aio_" and 28 characters (io.adafruit.com, "My Key"); gitleaks finds them only
    # after a word naming Adafruit.
    ("adafruit_api_key", re.compile(r"(?<![\w\-])aio_[A-Za-z0-9]{28}(?![\w\-])"), ("aio_",)),
    # Brevo (Sendinblue) SMTP keys "xsmtpsib-", 64 hex digits, "-" and 16 characters (Brevo help,
    # "SMTP keys"); gitleaks knows the API keys' "xkeysib-".
    ("brevo_key", re.compile(r"(?<![\w\-])xsmtpsib-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![\w\-])"), ("xsmtpsib-",)),
    # SonarQube tokens: "squ_" (user), "sqp_" (project), "sqa_" (global analysis) and 40 hex
    # (docs.sonarsource.com, "Managing your tokens"); gitleaks wants a word naming Sonar before them.
    ("sonar_token", re.compile(r"(?<![\w\-])sq[upa]_[a-f0-9]{40}(?![\w\-])"), ("squ_", "sqp_", "sqa_")),
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
    # Dropbox short-lived access tokens "sl." (Dropbox OAuth guide), now "sl.u."; gitleaks wants exactly
    # 135 characters after "dropbox =".
    ("dropbox_token", re.compile(r"\bsl\.(?:u\.)?[A-Za-z0-9_=\-]{120,}"), ("sl.",)),
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
    # Google OAuth refresh tokens "1//0…" (developers.google.com, "Using OAuth 2.0 to Access Google
    # APIs": refresh tokens as the token endpoint returns them).
    ("google_oauth_token", re.compile(r"(?<![\w/])1//0[A-Za-z0-9_\-]{40,}"), ("1//0",)),
    # New Relic ingest license keys: 40 characters, the last four "NRAL" (docs.newrelic.com, "New
    # Relic API keys", "License key").
    ("new_relic_key", re.compile(r"\b[a-f0-9]{36}NRAL\b"), ("nral",)),
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
    # Google API keys "AIza" and 35 characters (cloud.google.com, "Manage API keys"), also inside a URL's
    # query (``maps/api/js?key=AIza…&callback=…``), where gitleaks wants a quote or a space after.
    ("google_api_key", re.compile(r"(?<![\w\-])AIza[\w\-]{35}(?![\w\-])"), ("aiza",)),
    # Resend API keys "re_" id "_" secret (resend.com/docs, "API keys").
    ("resend_key", re.compile(r"\bre_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}\b"), ("re_",)),
    # Langfuse secret keys "sk-lf-<uuid>" (langfuse.com/docs, "API keys").
    ("langfuse_key", re.compile(r"\bsk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), ("sk-lf-",)),
    # Modal token secrets "as-" (modal.com/docs, "modal token set").
    ("modal_token", re.compile(r"(?<![\w\-])as-[A-Za-z0-9]{22}\b"), ("as-",)),
    # Yandex Cloud API keys "AQVN" (yandex.cloud/docs, "API key"); Yandex OAuth tokens "y0_Ag…", as
    # ``yc config set token`` takes them (yandex.cloud/docs, "OAuth token"; yandex.com/dev/id, "OAuth").
    ("yandex_key", re.compile(r"\bAQVN[A-Za-z0-9_\-]{35,38}(?![\w\-])"), ("aqvn",)),
    ("yandex_key", re.compile(r"\by[0-3]_Ag[A-Za-z0-9_\-]{40,}(?![\w\-])"), ("y0_", "y1_", "y2_", "y3_")),
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
    # Netlify personal access tokens: "nfp_" and 36-40 alphanumerics (docs.netlify.com/api, "Authentication";
    # gitleaks knows Netlify's tokens only after an assignment naming Netlify).
    ("netlify_token", re.compile(r"\bnfp_[A-Za-z0-9]{36,40}\b"), ("nfp_",)),
    # Airtable personal access tokens: "pat", a 14-character id, ".", 64 hex (airtable.com/developers,
    # "Personal access tokens"); gitleaks has the shape but only in a text that names Airtable.
    ("airtable_token", re.compile(r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"), ("pat",)),
    # Atlassian API tokens: "ATATT3", a base64url body, "=" and an 8-hex-digit checksum (support.atlassian.com,
    # "Manage API tokens for your Atlassian account"); gitleaks wants exactly 186 characters after the prefix.
    ("atlassian_token", re.compile(r"\bATATT3[A-Za-z0-9_\-=]{100,250}=[A-F0-9]{8}(?![\w\-=])"), ("atatt3",)),
    # --- formats world12 missed ---
    # ReadMe API keys "rdme_" and 70 lower-case letters and digits (docs.readme.com, "API keys"), also
    # where gitleaks' rule wants a quote or a space after (inside an escaped string).
    ("readme_key", re.compile(r"(?<![\w\-])rdme_[a-z0-9]{70}(?![a-z0-9])"), ("rdme_",)),
    # Cerebras API keys "csk-" and 48 lower-case letters and digits (inference-docs.cerebras.ai, "API keys").
    ("cerebras_api_key", re.compile(r"(?<![\w\-])csk-[a-z0-9]{40,60}(?![\w\-])"), ("csk-",)),
    # Flagsmith server-side environment keys "ser." and 22 characters (docs.flagsmith.com, "Server-side
    # SDKs": "Server-side environment keys … begin with ser.").
    ("flagsmith_server_key", re.compile(r"(?<![\w\-.])ser\.[A-Za-z0-9]{22}(?![\w\-])"), ("ser.",)),
    # dbt Cloud service account tokens "dbtc_" and personal access tokens "dbtu_" (docs.getdbt.com,
    # "Service account tokens", "Personal access tokens").
    ("dbt_cloud_token", re.compile(r"(?<![\w\-])dbt[cu]_[A-Za-z0-9_\-]{40,80}(?![\w\-])"), ("dbtc_", "dbtu_")),
    # ConfigCat SDK keys "configcat-sdk-1/" and two 22-character parts (configcat.com/docs, "SDK key").
    ("configcat_sdk_key", re.compile(r"\bconfigcat-sdk-1/[A-Za-z0-9_\-]{22}/[A-Za-z0-9_\-]{22}(?![\w\-])"),
     ("configcat-sdk-",)),
    # Fireworks AI API keys "fw_" and 24 characters (docs.fireworks.ai, "API keys").
    ("fireworks_api_key", re.compile(r"(?<![\w\-])fw_[A-Za-z0-9]{20,40}(?![\w\-])"), ("fw_",)),
    # AWS STS session tokens: base64 of a protobuf whose first bytes name the partition, "FwoGZXIvYXdzE…"
    # and "IQoJb3JpZ2luX2Vj…" (origin_ec), the older "AQoDYXdzE…" of the STS API reference's examples.
    ("aws_session_token",
     re.compile(r"(?<![A-Za-z0-9+/])(?:FwoGZXIvYXdzE|IQoJb3JpZ2luX2Vj|AQoDYXdzE)[A-Za-z0-9+/]{100,}={0,2}"),
     ("fwogzxivyxdze", "iqojb3jpz2lux2vj", "aqodyxdze")),
    # Adyen API keys: "AQE", a base64 part, "-", a base64 part, "-" and a last part (docs.adyen.com, "API
    # credentials": ``AQEyhmfxK…==-y/wRYt…=-BEK6jF4…``).
    ("adyen_api_key",
     re.compile(r"(?<![A-Za-z0-9+/])AQE[A-Za-z0-9+/]{40,}={0,2}-[A-Za-z0-9+/]{30,}={0,2}-[^\s'\"`<>]{8,40}"),
     ("aqe",)),
    # Paddle API keys "pdl_live_apikey_" / "pdl_sdbx_apikey_" (developer.paddle.com, "API keys").
    ("paddle_api_key", re.compile(r"\bpdl_(?:live|sdbx)_apikey_[a-z0-9]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}(?![\w\-])"),
     ("pdl_",)),
    # Statsig server secret keys "secret-" and 43 characters (docs.statsig.com, "API keys").
    ("statsig_server_secret", re.compile(r"(?<![\w\-])secret-(?=[A-Za-z]*\d)[A-Za-z0-9]{40,50}(?![\w\-])"), ("secret-",)),
    # Unleash API tokens "<project>:<environment>.<32 to 64 hex>" ("*" for all projects; docs.getunleash.io,
    # "API tokens and client keys", "Format").
    ("unleash_api_token", re.compile(r"(?<![\w\-*])(?:\*|[a-z0-9_\-]{1,40}):[a-z0-9_\-]{1,40}\.[a-f0-9]{32,64}(?![\w\-])"),
     (":",)),
    # Fauna secrets "fnA" and 37 characters (docs.fauna.com, "Keys and secrets").
    ("fauna_secret", re.compile(r"(?<![\w\-])fnA(?=[\w\-]*\d)[A-Za-z0-9_\-]{37}(?![\w\-])"), ("fna",)),
    # Octopus Deploy API keys "API-" and 26 to 32 upper-case letters and digits (octopus.com/docs, "How
    # to create an API key"); gitleaks wants exactly 26.
    ("octopus_deploy_api_key", re.compile(r"(?<![\w\-])API-(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{26,32}(?![\w\-])"),
     ("api-",)),
    # Checkout.com sandbox secret keys "sk_sbox_" (checkout.com/docs, "API keys").
    ("checkout_secret_key", re.compile(r"(?<![\w\-])sk_sbox_[a-z0-9]{26,40}(?![\w\-])"), ("sk_sbox_",)),
    # JFrog reference tokens: base64 of "reftkn:01:…" (jfrog.com/help, "Access Tokens", "Reference
    # tokens"); gitleaks wants exactly 64 characters.
    ("jfrog_token", re.compile(r"(?<![A-Za-z0-9+/])cmVmdGtuOj[A-Za-z0-9+/]{50,120}={0,2}(?![A-Za-z0-9+/])"), ("cmvmdgtuoj",)),
    # Intercom access tokens: base64 of "tok:<uuid>:1:0" (developers.intercom.com, "Authentication").
    ("intercom_api_key", re.compile(r"(?<![A-Za-z0-9+/])dG9rOj[A-Za-z0-9+/]{50,70}={0,2}(?![A-Za-z0-9+/])"), ("dg9roj",)),
    # Alibaba Cloud AccessKey ids "LTAI" (alibabacloud.com, "Create an AccessKey pair"), before any
    # punctuation (gitleaks wants a quote or a space after).
    ("alibaba_key", re.compile(r"(?<![\w\-])LTAI[A-Za-z0-9]{12,30}(?![A-Za-z0-9])"), ("ltai",)),
    # X (Twitter) app-only OAuth 2.0 bearer tokens: a run of "A"s, then the token with "%3D"
    # (developer.x.com, "OAuth 2.0 Bearer Token"); gitleaks wants 22 "A"s and at most 100 more.
    ("twitter_bearer", re.compile(r"(?<![A-Za-z0-9+/])A{20,24}(?=[B-Za-z0-9%])[A-Za-z0-9%]{60,130}(?![A-Za-z0-9%])"),
     ("a" * 20,)),
)
# Between a variable's name and its value: an assignment (``=``, ``:``, Make's ``?=``), or a call's
# two arguments (PHP's ``define('CF_API_KEY', '…')``, Go's ``os.Setenv("WANDB_API_KEY", "…")``,
# ``os.environ["X"] = "…"``), or a Kubernetes container's ``env`` entry (``- name: X`` then
# ``value: "…"``), each with its quotes.
# Between a key's name and its value: an assignment, a call's next argument, a Kubernetes env entry's
# ``value:``; or spaces and a quote, as Lisp binds a name (Clojure's ``(def cohere_api_key "…")``, Emacs
# Lisp's ``(setq … "…")``), csh's ``setenv NAME "…"`` and Tcl's ``set NAME "…"`` do.
NAME_SEP = r"[\"']?\]?(?:[ \t]*(?:[:=]|\?=|,|\n[ \t]*value[ \t]*:)[ \t]*[\"']?|[ \t]+[\"'])"
# Keys without a prefix, under the names their providers document: Cloudflare's global API key
# (37 hex, the "X-Auth-Key" header, or CF_API_KEY / CLOUDFLARE_API_KEY as Cloudflare's flarectl and
# Terraform provider read it), Mistral's API key (MISTRAL_API_KEY), Weights & Biases (WANDB_API_KEY,
# 40 hex; ``wandb login`` writes it to ~/.netrc as the password of ``machine api.wandb.ai``, W&B docs,
# "wandb login"), Okta API tokens (sent as "SSWS"); Azure shared access signatures ("sig=").
NAMED_KEYS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    # Honeycomb configuration keys, 22 characters (32 for classic ones), under the names its docs and
    # OpenTelemetry's exporter use (docs.honeycomb.io, "API keys"; "Send data with OpenTelemetry":
    # ``OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=KEY"``, HONEYCOMB_API_KEY).
    ("honeycomb_key",
     re.compile(r"(?i)\b(?:x-honeycomb-team|honeycomb_(?:api_?key|writekey))[\"']?[ \t]*[:=][ \t]*[\"']?"
                r"(?P<v>[A-Za-z0-9]{32}|[A-Za-z0-9]{22})\b"),
     ("honeycomb",)),
    # Cloudflare's Global API Key, 37 hex (developers.cloudflare.com, "Get Global API key"), in a text
    # that names Cloudflare, with no name beside it (given in chat: "the Cloudflare creds? — 7d22…").
    ("cloudflare_key", re.compile(r"(?<![\w\-])(?P<v>[a-f0-9]{37})(?![\w\-])"), ("cloudflare",)),
    ("cloudflare_key",
     re.compile(rf"(?i)\b(?:x-auth-key|(?:cf|cloudflare)_api_key){NAME_SEP}(?P<v>[a-f0-9]{{37}})\b"),
     ("x-auth-key", "cf_api_key", "cloudflare_api_key")),
    ("mistral_key", re.compile(rf"(?i)\bmistral_api_key{NAME_SEP}(?P<v>[A-Za-z0-9]{{32}})\b"), ("mistral",)),
    # Cloudflare API tokens, 40 characters, under the names Cloudflare's tools read (CF_API_TOKEN for
    # flarectl and cf-terraforming, CLOUDFLARE_API_TOKEN for Wrangler and the Terraform provider).
    ("cloudflare_token", re.compile(rf"(?i)\b(?:cf|cloudflare)_api_token{NAME_SEP}(?P<v>[A-Za-z0-9_\-]{{40}})(?![\w\-])"),
     ("cf_api_token", "cloudflare_api_token")),
    # Datadog API keys, 32 hex, under DD_API_KEY (docs.datadoghq.com, "Agent environment variables").
    ("datadog_key", re.compile(rf"(?i)\bdd_api_key{NAME_SEP}(?P<v>[a-f0-9]{{32}})\b"), ("dd_api_key",)),
    # Cohere API keys, 40 characters, under CO_API_KEY, the name Cohere's SDKs read (docs.cohere.com).
    ("cohere_key", re.compile(rf"(?i)\b(?:co|cohere)_api_key{NAME_SEP}(?P<v>[A-Za-z0-9]{{40}})\b"),
     ("co_api_key", "cohere_api_key")),
    # Azure DevOps personal access tokens, 52 base32 characters, under SYSTEM_ACCESSTOKEN (a pipeline's
    # job token, learn.microsoft.com "Predefined variables") or AZURE_DEVOPS_EXT_PAT (az devops login).
    ("azure_devops_token",
     re.compile(rf"(?i)\b(?:system_accesstoken|azure_devops_(?:ext_)?pat){NAME_SEP}(?P<v>[a-z2-7]{{52}})\b"),
     ("system_accesstoken", "azure_devops_")),
    ("wandb_key",
     re.compile(rf"(?i)(?:\bwandb_api_key{NAME_SEP}|\bwandb[ \t]+login[ \t]+(?:-\S+[ \t]+)*"
                r"|\bmachine[ \t]+api\.wandb\.ai(?:\s+login[ \t]+\S+)?\s+password[ \t]+)"
                r"(?P<v>[a-f0-9]{40})\b"),
     ("wandb",)),
    ("okta_token", re.compile(r"\bSSWS[ \t]+(?P<v>00[A-Za-z0-9_\-]{40})(?![\w\-])"), ("ssws",)),
    # Okta API tokens: "00" and 40 characters (developer.okta.com, "Create an API token"), in a text
    # that names Okta (its SDK configs: ``okta: client: token: …``).
    ("okta_token", re.compile(r"(?<![\w\-])(?P<v>00[A-Za-z0-9_\-]{40})(?![\w\-])"), ("okta",)),
    # Razorpay key secrets: 24 alphanumerics under "key_secret" in a text that names Razorpay
    # (razorpay.com/docs/api, "Authentication").
    ("razorpay_key", re.compile(r"(?i)(?<![A-Za-z0-9])key_secret[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9]{24})\b"),
     ("razorpay",)),
    # Cloudflare API tokens: 40 characters (developers.cloudflare.com, "Create API token"), under
    # an api_token (or api_key) name in a text that names Cloudflare (Terraform's provider block,
    # wrangler); the Global API Key is 37 hex, never 40 characters.
    # … also as a Terraform variable's default (``variable "cloudflare_api_token" { default = "…" }``).
    ("cloudflare_token",
     re.compile(r"(?i)\b(?:cf_|cloudflare_)?api_?(?:token|key)[\"']?"
                r"(?:[ \t]*[:=][ \t]*|[ \t]*\{[^{}]{0,200}?\bdefault[ \t]*=[ \t]*)"
                r"[\"']?(?P<v>[A-Za-z0-9_\-]{40})(?![\w\-])"),
     ("cloudflare",)),
    # ngrok authtokens: a digit, 26 alphanumerics, "_", 20-22 more (ngrok.com/docs, "ngrok config
    # add-authtoken"), in a text that names ngrok or has its config file's ``authtoken:`` key (ngrok
    # docs, "Agent Configuration File").
    ("ngrok_token", re.compile(r"(?<![\w\-])(?P<v>\d[A-Za-z0-9]{26}_[A-Za-z0-9]{20,22})(?![\w\-])"), ("ngrok", "authtoken")),
    # Azure DevOps personal access tokens before 2024: 52 characters of lower-case base32 (devblogs.
    # microsoft.com, "Azure DevOps PAT format change"), in a text that names Azure DevOps.
    ("azure_devops_token", re.compile(r"(?<![A-Za-z0-9])(?P<v>[a-z2-7]{52})(?![A-Za-z0-9])"),
     ("dev.azure.com", "visualstudio.com", "az devops", "azure_devops", "azure-devops", "azuredevops")),
    # A Razorpay key id and its secret side by side, as the SDKs take them (razorpay.com/docs/api,
    # "Authentication": ``razorpay.Client(auth=("rzp_live_…", "SECRET"))``, Basic ``id:secret``).
    ("razorpay_key", re.compile(r"\brzp_(?:live|test)_[A-Za-z0-9]{14}[\"']?[ \t]*[,:][ \t]*[\"']?(?P<v>[A-Za-z0-9]{24})\b"),
     ("rzp_",)),
    # The secret half of a Kubernetes bootstrap token, in its Secret (kubernetes.io/docs, "Authenticating
    # with Bootstrap Tokens", "Bootstrap Token Secret Format": ``token-id``, ``token-secret``, 16 of [a-z0-9]).
    ("kubeadm_token", re.compile(r"(?i)\btoken-secret[\"']?[ \t]*:[ \t]*[\"']?(?P<v>[a-z0-9]{16})\b"), ("token-secret",)),
    ("launchdarkly_key",
     re.compile(r"(?i)(?:launchdarkly|\bldclient|\bld_)[^\n]{0,80}?"
                r"(?P<v>\bapi-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)"),
     ("launchdarkly", "ldclient", "ld_")),
    # Cohere API keys: 40 alphanumerics (docs.cohere.com, "API keys"), under an api_key name in a
    # text that names Cohere (``cohere.ClientV2(api_key="…")``); gitleaks wants "cohere" right before.
    ("cohere_key", re.compile(r"(?i)\b(?:co_|cohere_)?api_?key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9]{40})(?![\w\-])"),
     ("cohere",)),
    # … or given to the client as its first argument (docs.cohere.com, "Python SDK": ``cohere.Client("…")``).
    ("cohere_key",
     re.compile(r"\bcohere\.(?:Async)?Client(?:V2)?\([ \t]*(?:api_key[ \t]*=[ \t]*)?[\"'](?P<v>[A-Za-z0-9]{40})[\"']"),
     ("cohere",)),
    # Modal token ids "ak-" and 22 alphanumerics, beside their secrets "as-" (modal.com/docs, "modal
    # token set --token-id ak-… --token-secret as-…"), in a text that names Modal.
    ("modal_token", re.compile(r"(?<![\w\-])(?P<v>ak-[A-Za-z0-9]{22})\b"), ("modal",)),
    # Azure Storage account keys: 64 bytes in base64, 88 characters ending "==" (learn.microsoft.com,
    # "Manage storage account access keys"), as the CLI's ``--account-key`` and AZURE_STORAGE_KEY take them.
    ("azure_storage_key",
     re.compile(r"(?i)(?:--account-key(?:[ \t]+|=)|\bazure_storage_(?:account_)?key[\"']?[ \t]*[:=][ \t]*)[\"']?"
                r"(?P<v>[A-Za-z0-9+/]{86}==)"),
     ("account-key", "azure_storage")),
    # The secrets of an access key pair under the environment variables their providers document:
    # Alibaba Cloud's AccessKey secret, 30 characters (alibabacloud.com, "Configure environment
    # variables": ALIBABA_CLOUD_ACCESS_KEY_SECRET; Terraform's ALICLOUD_SECRET_KEY), Tencent Cloud's
    # SecretKey, 32 (tencentcloud.com, "Credentials": TENCENTCLOUD_SECRET_KEY), Plaid's secret, 30 hex
    # (plaid.com/docs, "Quickstart": PLAID_SECRET).
    ("alibaba_key",
     re.compile(r"(?i)\b(?:alibaba_cloud_access_key_secret|alicloud_secret_key|aliyun_access_key_secret)[\"']?[ \t]*[:=][ \t]*"
                r"[\"']?(?P<v>[A-Za-z0-9]{30})\b"),
     ("alibaba", "alicloud", "aliyun")),
    ("tencent_key", re.compile(r"(?i)\btencentcloud_secret_?key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9]{32})\b"),
     ("tencentcloud",)),
    ("plaid_token", re.compile(r"(?i)\bplaid_secret(?:_key)?[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[a-f0-9]{30})\b"), ("plaid",)),
    # A bearer token sent to Cloudflare's API (developers.cloudflare.com, "Verify an API token":
    # ``curl https://api.cloudflare.com/client/v4/user/tokens/verify -H "Authorization: Bearer …"``).
    ("cloudflare_token", re.compile(r"(?i)\bBearer[ \t]+(?P<v>[A-Za-z0-9_\-]{40})(?![\w\-])"), ("api.cloudflare.com",)),
    # … and to Cohere's (docs.cohere.com, "Authentication": ``Authorization: Bearer <40 characters>``).
    ("cohere_key", re.compile(r"(?i)\bBearer[ \t]+(?P<v>[A-Za-z0-9]{40})(?![\w\-])"), ("api.cohere.com", "api.cohere.ai")),
    # The secret half of a key pair after its id: Tencent Cloud's SecretKey (32) after an "AKID" SecretId
    # (tencentcloud.com, "TCCLI configuration": ``secretId``/``secretKey``), Alibaba Cloud's AccessKey
    # secret (30) after an "LTAI" AccessKey id (alibabacloud.com, "aliyun configure": ``--access-key-id``,
    # ``--access-key-secret``).
    ("tencent_key",
     re.compile(r"(?is)\bAKID[A-Za-z0-9]{32}\b.{0,120}?\bsecret_?key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9]{32})\b"),
     ("akid",)),
    # Alibaba Cloud AccessKey ids of 16 to 23 characters, older than gitleaks' 24, in a text that names
    # Alibaba Cloud (alibabacloud.com, "Create an AccessKey pair"; ``ALICLOUD_ACCESS_KEY``).
    ("alibaba_key", re.compile(r"(?<![\w\-])(?P<v>LTAI[A-Za-z0-9]{12,19})(?![\w\-])"), ("alibaba", "alicloud", "aliyun")),
    # … written as the console shows them ("AccessKey ID：LTAI…，AccessKey Secret：…", with full-width
    # punctuation in Chinese).
    ("alibaba_key",
     re.compile(r"(?is)\bLTAI[A-Za-z0-9]{12,30}(?![A-Za-z0-9]).{0,120}?\b(?:access[_\- ]?key[_\- ]?secret|secret[_\- ]?key)[\"']?"
                r"(?:[ \t]*[:=：][ \t]*|[ \t]+)[\"']?(?P<v>[A-Za-z0-9]{30})(?![A-Za-z0-9])"),
     ("ltai",)),
    # Trello API tokens, 64 hex (developer.atlassian.com/cloud/trello, "API introduction"), in a text
    # that names Trello.
    ("trello_token", re.compile(r"(?<![\w\-])(?P<v>[a-f0-9]{64})(?![\w\-])"), ("trello",)),
    # Mailgun's private API keys since 2023: 32 hex, "-", 8 hex, "-", 8 hex (documentation.mailgun.com,
    # "API keys"), in a text that names Mailgun.
    ("mailgun_key", re.compile(r"(?<![\w\-])(?P<v>[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8})(?![\w\-])"), ("mailgun",)),
    ("azure_sas_token", re.compile(r"[?&]sig=(?P<v>[A-Za-z0-9%+/]{40,}(?:%3D|=){0,2})"), ("sig=",)),
    # Teams incoming webhooks moved from Office 365 connectors to Workflows (learn.microsoft.com,
    # "Create incoming webhooks with Workflows for Microsoft Teams"): a Logic Apps / Power Automate
    # HTTP trigger URL, ``…/workflows/<id>/triggers/manual/paths/invoke?…&sig=<base64url>``, whose
    # sig alone lets anyone post ("Call, trigger, or nest logic apps by using HTTPS endpoints").
    ("teams_webhook",
     re.compile(r"(?i)\bhttps://[\w.\-]+(?::\d+)?/(?:[\w\-]+/)*workflows/[0-9a-f]{32}/triggers/[^\s\"'<>]*?"
                r"[?&]sig=(?P<v>[A-Za-z0-9_\-%]{30,})"),
     ("/workflows/",)),
    # A shared access signature's sig kept apart from its URL, under a name that ends in "sig"
    # (``Sig: "…"``, ``<add key="AzureSig" value="…" />``): base64 of an HMAC-SHA256, URL-encoded
    # (learn.microsoft.com, "Create a service SAS", ``sig``).
    ("azure_sas_token",
     re.compile(r"(?i)(?:\bsig|(?<=[a-z])sig)\b[\"']?(?:[ \t]*[:=][ \t]*|[ \t]+value=)[\"'`]?"
                r"(?P<v>[A-Za-z0-9%+/]{40,}(?:%3D|=){1,2})(?![\w%])"),
     ("sig",)),
    # A Twilio auth token beside its account SID, as the SDKs take the pair (twilio.com/docs, "Auth
    # Tokens": ``Client(account_sid, auth_token)``; curl ``-u $TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN``).
    ("twilio_auth_token",
     re.compile(r"(?:TWILIO_ACCOUNT_SID|\bAC[a-f0-9]{32})[^\n]{0,8}?[:,][ \t]*[\"']?(?P<v>[a-f0-9]{32})\b"),
     ("twilio_account_sid", "twilio")),
    # Algolia's search client takes the application id and an API key, 32 hex (algolia.com/doc,
    # "Initialize the client": ``algoliasearch('YourApplicationID', 'YourWriteAPIKey')``).
    ("algolia_api_key",
     re.compile(r"\balgoliasearch\([ \t]*[\"'][A-Z0-9]{10}[\"'][ \t]*,[ \t]*[\"'](?P<v>[a-f0-9]{32})[\"']"),
     ("algoliasearch",)),
    # Mailjet's API key and secret key joined as HTTP Basic credentials (dev.mailjet.com,
    # "Authentication": ``--user "$MJ_APIKEY_PUBLIC:$MJ_APIKEY_PRIVATE"``), in a text that names Mailjet.
    ("mailjet_api_key", re.compile(r"(?<![\w\-])(?P<v>[a-f0-9]{32}):[a-f0-9]{32}\b"), ("mailjet",)),
    ("mailjet_api_secret", re.compile(r"(?<![\w\-])[a-f0-9]{32}:(?P<v>[a-f0-9]{32})\b"), ("mailjet",)),
    # Cloudinary's CLOUDINARY_URL, ``cloudinary://API_KEY:API_SECRET@CLOUD_NAME`` (cloudinary.com/
    # documentation, "Cloudinary URL"): the secret, labelled as Cloudinary's.
    ("cloudinary_api_secret", re.compile(r"\bcloudinary://\d+:(?P<v>[A-Za-z0-9_\-]{20,40})@"), ("cloudinary://",)),
)
# Datadog API keys (32 hex) and application keys (40 hex) under their usual names
# (docs.datadoghq.com, "API and application keys"; DD_API_KEY, DD_APP_KEY; the API's "DD-API-KEY" and
# "DD-APPLICATION-KEY" headers). A bare ``api_key`` (datadog.yaml's) is Datadog's only in a text that
# names Datadog (``site: datadoghq.eu``): one that only mentions DD_API_KEY (a LiteLLM config's
# ``environment_variables``) may hold other providers' ``api_key``s.
DATADOG_KEY = re.compile(
    r"(?i)\b(?P<dd>dd[_\-]|datadog_)?(?:api|app|application)[_\-]?key\b[\"'`]?[ \t]*[:=][ \t]*[\"'`]?"
    r"(?P<v>[a-f0-9]{40}|[a-f0-9]{32})\b"
)
# Legacy Heroku API keys are UUIDs, printed by ``heroku auth:token`` (devcenter.heroku.com,
# "Heroku CLI authentication"): a UUID on a line that names Heroku and a token or key, or as the
# password of .netrc's ``machine api.heroku.com`` entry, where the CLI keeps it.
HEROKU_UUID = re.compile(
    r"(?i)\bheroku\b[^\n]{0,60}?(?:token|key|auth|\n[ \t]*login[^\n]*\n[ \t]*password)[^\n]{0,40}?"
    r"(?P<v>\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)"
)
# Mailgun private API keys, "key-" and 32 hex digits (documentation.mailgun.com, "API keys"), in a
# text that names Mailgun (gitleaks wants them straight after "mailgun =").
MAILGUN_KEY = re.compile(r"\bkey-[a-f0-9]{32}\b")
# Kubernetes bootstrap tokens, as ``kubeadm token create`` prints them and ``kubeadm join --token``
# takes them: "[a-z0-9]{6}.[a-z0-9]{16}", a public id and a secret (kubernetes.io/docs, "kubeadm
# token"), in a text that names kubeadm, a bootstrap token or a token.
KUBEADM_TOKEN = re.compile(r"(?<![\w.\-])[a-z0-9]{6}\.[a-z0-9]{16}(?![\w\-]|\.\w)")


# Django's SECRET_KEY as ``get_random_secret_key()`` makes it: 50 characters drawn from
# ``a-z0-9!@#$%^&*(-_=+)`` (django/core/management/utils.py; the Django docs, "SECRET_KEY"), under a
# name that says it is a secret key (``SECRET_KEY``, ``DJANGO_SECRET_KEY``, a settings.toml's ``secret_key``).
DJANGO_SECRET_KEY = re.compile(
    r"(?i)secret_key[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>(?-i:[a-z0-9!@#$%^&*(\-_=+)]{50}))(?![a-z0-9!@#$%^&*(\-_=+)])"
)


def django_key_span(text: str, match: re.Match[str]) -> Span | None:
    """Symbols and digits among the lower-case letters, as the generator draws them (14 symbols in
    50 characters: a key without three of each is not one)."""
    value = match.group("v")
    symbols = sum(not ch.isalnum() for ch in value)
    return match.span("v") if symbols >= 3 and sum(ch.isdigit() for ch in value) >= 3 else None


def kubeadm_token_span(text: str, match: re.Match[str]) -> Span | None:
    """A bootstrap token has a digit (a run of 22 random characters of 36 lacks one once in a
    thousand); two words joined by a dot do not."""
    return match.span() if any(ch.isdigit() for ch in match.group(0)) else None


def datadog_span(text: str, match: re.Match[str]) -> Span | None:
    """The key under a Datadog name, or under a bare one in a text that names Datadog."""
    return match.span("v") if match.group("dd") or "datadog" in text.lower() else None


def random_value(text: str, match: re.Match[str]) -> Span | None:
    return match.span() if random_like(match.group("v")) else None


# LiteLLM's master key starts with "sk-" too (tool_keys.LITELLM_MASTER_KEY): the proxy's key, not OpenAI's.
MASTER_KEY_BEFORE = re.compile(r"(?i)\bmaster_key[\"']?[ \t]*[:=][ \t]*[\"']?$")


def openai_span(text: str, match: re.Match[str]) -> Span | None:
    return None if MASTER_KEY_BEFORE.search(text, max(0, match.start() - 40), match.start()) else random_value(text, match)


def provider_detectors() -> tuple[Detector, ...]:
    def secret(label: str, pattern: re.Pattern[str], triggers: tuple[str, ...],
               locate: Locate = whole_match) -> PatternDetector:
        return PatternDetector("SECRET", label, pattern, triggers, locate)

    return (
        *(secret(label, pattern, triggers) for label, pattern, triggers in PREFIXED_TOKENS),
        *(secret(label, pattern, triggers, value_group) for label, pattern, triggers in NAMED_KEYS),
        secret("datadog_key", DATADOG_KEY, ("datadog", "dd_", "dd-"), datadog_span),
        secret("kubeadm_token", KUBEADM_TOKEN, ("kubeadm", "bootstrap", "token"), kubeadm_token_span),
        secret("heroku_key", HEROKU_UUID, ("heroku",), value_group),
        secret("mailgun_key", MAILGUN_KEY, ("mailgun",)),
        secret("openai_key", OPENAI_KEY, ("sk-",), openai_span),
        secret("stripe_key", STRIPE_WEBHOOK_SECRET, ("whsec_",)),
        secret("doppler_token", DOPPLER_TOKEN, ("dp.",)),
        secret("new_relic_key", NEW_RELIC_KEY, ("nrak-",)),
        secret("django_secret_key", DJANGO_SECRET_KEY, ("secret_key",), django_key_span),
        *provider_name_detectors(),
    )
