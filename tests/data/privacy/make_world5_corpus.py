"""Write the fifth, blind held-out extension of the privacy corpus (heldout_world5.jsonl).

Blindness: the session that wrote this file read neither the detectors (``reverie/privacy/``), the
benchmarks (``bench/``) nor the privacy tests, and never ran the masker. It read only the corpus row
format (``tests/privacy_corpus.py``), a few rows and the label set of the existing ``*.jsonl`` files,
and the structure of ``make_world4_corpus.py``. Templates, wording, word lists and values are new;
the file was committed before anything was masked with it.

Row format (unchanged): ``{"text": str, "canaries": [str, ...], "kinds": [str, ...]}``; every canary
is an exact substring of ``text``; clean rows have empty lists.

What the rows carry
-------------------
* Provider credentials in the shapes the providers document, in the places they leak: shell
  history, ``.env``/YAML/TOML/JSON/INI configs, Terraform and Helm values, CI logs, stack traces,
  chat messages, code-review comments, ``curl`` lines, URLs and query strings.
* Passwords and other secrets said in prose and in key-value form, in English, German, French,
  Spanish, Portuguese, Italian, Dutch, Polish, Swedish, Finnish, Czech, Turkish, Russian,
  Ukrainian, Greek, Japanese, Chinese, Korean, Vietnamese, Indonesian and Hindi.
* Phone numbers of 64 countries and territories, national and international forms.
* E-mail addresses in headers, trailers, CSV/JSON/LDIF records, logs and obfuscated prose.
* IBANs of 29 countries (ISO 13616 mod-97 check digits over a BBAN in the SWIFT IBAN registry
  layout, with the national check digits of CZ/SK, HU, FI, FR/MC, SI where the author knows them),
  payment card numbers of ten networks (Visa, Mastercard, Amex, Discover,
  JCB, Mir, Maestro, UnionPay, RuPay, Diners) (IIN ranges as the networks publish them, Luhn check digit).
* National identifiers with valid check digits; new labels in the ``<country>_<id>`` style:

  ====================  ===================================================================
  label                 format (authority) and check
  ====================  ===================================================================
  ``pl_pesel``          PESEL, Poland (Ministry of Digital Affairs): YYMMDD (+20/+80 month
                        for 2000s/1800s), 4-digit serial (sex in last), weights 1-3-7-9 mod 10
  ``se_personnummer``   Swedish personnummer (Skatteverket): YYMMDD-NNNC / YYYYMMDDNNNC,
                        Luhn over the ten-digit form
  ``fi_hetu``           Finnish henkilötunnus (DVV): DDMMYY, century sign ``-``/``A``, 002-899,
                        check character = number mod 31 in 0-9A-Y without G I O Q Z
  ``dk_cpr``            Danish CPR-nummer (CPR-kontoret): DDMMYY-SSSS, written here with the
                        historic modulus-11 check (weights 4 3 2 7 6 5 4 3 2 1)
  ``be_nrn``            Belgian national register number (Rijksregister / Registre national):
                        YY.MM.DD-SSS.CC, CC = 97 - (n mod 97), ``2`` prefixed for births >= 2000
  ``pt_nif``            Portuguese NIF (Autoridade Tributária), individuals 1-3xx, mod 11
  ``cl_rut``            Chilean RUT/RUN (Servicio de Impuestos Internos / Registro Civil):
                        12.345.678-K, mod 11 with weights 2..7, 10 -> K, 11 -> 0
  ``mx_curp``           Mexican CURP (RENAPO): 4 letters, YYMMDD, H/M, state, 3 consonants,
                        homoclave, check digit over the 37-symbol alphabet with Ñ
  ``no_fnr``            Norwegian fødselsnummer (Skatteetaten): DDMMYY + individual + two
                        mod-11 check digits
  ``ch_ahv``            Swiss AHV/AVS number (ZAS/CdC): 756.XXXX.XXXX.XC, EAN-13 check digit
  ``au_tfn``            Australian Tax File Number (ATO): 9 digits, weights 1 4 3 7 5 8 6 9 10
                        mod 11
  ``za_id``             South African ID number (Home Affairs): YYMMDD SSSS C A Z, Luhn
  ``ro_cnp``            Romanian CNP (DEPABD): S YYMMDD JJ NNN C, weights 279146358279 mod 11
  ====================  ===================================================================

  The existing identifier labels are reused (``ssn`` SSA rules, ``uk_nino`` HMRC prefix rules,
  ``ca_sin`` Luhn, ``fr_nir`` INSEE key, ``de_tax_id`` ISO 7064 MOD 11,10, ``aadhaar`` Verhoeff,
  ``es_dni``/``es_nie`` mod-23 letter, ``it_codice_fiscale`` odd/even tables, ``nl_bsn`` eleven
  test, ``br_cpf`` two mod-11 digits).

New secret labels (providers absent from the earlier worlds): ``razorpay_key`` (Razorpay API keys
docs: ``rzp_live_``/``rzp_test_`` key id + 14, key secret 24 alphanumerics), ``mollie_key`` (Mollie
API keys docs: ``live_``/``test_`` + 30 alphanumerics), ``paystack_key`` (Paystack API keys docs:
``sk_live_`` + 40 hex), ``deepseek_key`` (DeepSeek platform: ``sk-`` + 32 hex),
``azure_devops_token`` (Azure DevOps PAT docs, 2024 format: 84 characters with the ``AZDO``
signature at 77-80), ``render_key`` (Render API keys docs: ``rnd_`` + 32 alphanumerics),
``ngrok_token`` (ngrok agent authtoken: ``2`` + 26 alphanumerics ``_`` 21 alphanumerics).

Every other secret label is one of the earlier files'. Where each format comes from (the provider's
own documentation of its key or token, as the author remembers it):

  OpenAI API keys page (``sk-proj-``/``sk-svcacct-``/``sk-admin-`` with ``T3BlbkFJ``); Anthropic
  Console API keys (``sk-ant-api03-`` ... ``AA``); Groq console (``gsk_``); xAI console (``xai-``);
  Perplexity API settings (``pplx-``); OpenRouter keys (``sk-or-v1-`` + 64 hex); Hugging Face
  User access tokens (``hf_``); Replicate account API tokens (``r8_``); Mistral La Plateforme
  (32 alphanumerics, no prefix); Google Cloud API keys / Gemini (``AIza`` + 35); Google OAuth
  client secrets (``GOCSPX-``) and access tokens (``ya29.``); Langfuse project keys (``sk-lf-`` +
  UUID); Pinecone API keys (``pcsk_``); ElevenLabs (``sk_`` + 48 hex); Weights & Biases (40 hex);
  AWS IAM access keys (``AKIA``/``ASIA`` + 16 base32, 40-character secret); Azure Storage account
  keys (88 base64 characters), Entra ID client secrets (``Q~`` at 5-6), SAS ``sig``; GCP
  service-account key files; DigitalOcean API tokens (``dop_v1_``/``doo_v1_``); Alibaba Cloud
  AccessKey (``LTAI``); Tencent Cloud SecretId (``AKID``); Heroku API keys v2 (``HRKU-AA`` + 58);
  Netlify personal access tokens (``nfp_``); Fly.io macaroons (``FlyV1 fm2_``); Cloudflare API
  tokens (40) and Global API Key (37 hex); Stripe API keys (``sk_live_``/``rk_live_``) and webhook
  signing secrets (``whsec_``); Square access tokens (``EAAA``); Braintree access tokens
  (``access_token$production$``); Plaid access tokens (``access-production-`` + UUID); Flutterwave
  secret keys (``FLWSECK-`` ... ``-X``); Slack token types (``xoxb-``/``xoxp-``/``xapp-``) and
  incoming webhooks; Discord bot tokens and webhooks; Telegram Bot API tokens; Microsoft Teams
  workflow webhooks; Twilio API keys (``SK`` + 32 hex); SendGrid (``SG.``); Mailgun (``key-``);
  Mailchimp (32 hex ``-usNN``); Brevo (``xkeysib-``); Resend (``re_``); GitHub token prefixes
  (``ghp_``/``gho_``/``ghu_``/``github_pat_``); GitLab token prefixes (``glpat-``, ``gloas-``,
  ``glft-``); Bitbucket app passwords / access tokens (``ATBB``/``ATCTT3xFfGN0``); npm (``npm_``),
  PyPI macaroons (``pypi-AgEIcHlwaS5vcmc``), RubyGems (``rubygems_`` + 48 hex), NuGet (``oy2`` + 43),
  crates.io (``cio``), Clojars (``CLOJARS_`` + 60 hex), Docker Hub (``dckr_pat_``), JFrog reference
  tokens (``cmVmdGtuOjAxOj``); PlanetScale passwords (``pscale_pw_``); connection URIs of
  PostgreSQL, MySQL, MongoDB (``mongodb+srv``), Redis (``rediss``), RabbitMQ (``amqps``), SQL
  Server/ODBC (``Password=``); RFC 7519 JWTs; RFC 7468 PEM and OpenSSH private keys; HashiCorp
  Vault (``hvs.``); Doppler (``dp.st.``/``dp.pt.``); 1Password service accounts (``ops_eyJ``); age
  (``AGE-SECRET-KEY-1``); HCP Terraform (``.atlasv1.``); Pulumi (``pul-``); Tailscale
  (``tskey-api-``/``tskey-auth-``); Datadog (32 hex); New Relic (``NRAK-``); Sentry org tokens
  (``sntrys_eyJ``); Grafana Cloud (``glc_eyJ``) and service accounts (``glsa_``); Dynatrace
  (``dt0c01.``); SonarQube (``squ_``); CircleCI (``CCIPAT_``); Buildkite (``bkua_``); Atlassian
  (``ATATT3xFfGF0``); Linear (``lin_api_``); Notion (``ntn_``); Figma (``figd_``); Airtable
  (``pat`` + 14 ``.`` 64 hex); HubSpot private apps (``pat-na1-``); ClickUp (``pk_``); Okta (``00``
  + 40); Contentful (``CFPAT-``); Typeform (``tfp_``); Mapbox secret tokens (``sk.eyJ1``); Shopify
  (``shpat_``/``shpss_``); X/Twitter app bearer (``AAAAAAAAAAAAAAAAAAAAA``); Meta Graph (``EAAB``);
  Firebase legacy server keys (``AAAA...:APA91b``); Django (``django-insecure-``); Shippo
  (``shippo_live_``); Postman (``PMAK-``); LaunchDarkly (``api-`` + UUID); Supabase (``sbp_``).

Clean rows (no canaries) are near misses from real engineering text: commit and object hashes,
UUIDs, digests, versions, dates, ticket/PR numbers, ports, paths, public keys, placeholders and
redactions, base64 of test fixtures, prose about passwords, tokens and keys that contains none.

Values are drawn from one seeded ``random.Random``; none is a real credential or person. The
generator uses the standard library; ``--check`` validates every personal value with python-stdnum
and phonenumbers (validation of the data only).

Run from the repository root: ``python tests/data/privacy/make_world5_corpus.py [--check] [--out DIR]``.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

from values import (
    ALNUM,
    B64URL,
    DG,
    HEX,
    HEXU,
    LO,
    UP,
    b64s,
    b64u,
    ean13_digit,
    iban_of,
    id_aadhaar,
    id_dni,
    id_nie,
    id_nino,
    luhn_digit,
    mod11_10,
    pick,
    s_anthropic_with_admin,
    s_aws_secret,
    s_azure_cs,
    s_braintree,
    s_discord_bot,
    s_discord_hook,
    s_fcm,
    s_openai_with_admin,
    s_slack_hook_t10,
    write_jsonl,
)
from values import dg as digits
from values import group as split
from values import nz as nonzero
from values import part as inner
from values import uid as v4
from values import whole as full

SEED = 50505
OUT_PATH = Path(__file__).parent / "heldout_world5.jsonl"

Out = tuple[str, str, str]  # (text to insert, canary substring of it, label)
Maker = Callable[[random.Random], Out]

# (label, value as written, region or raw value) for --check
AUDIT: list[tuple[str, str, str]] = []


# ================================================================================================
# check-digit algorithms
# ================================================================================================

def weighted(payload: str, weights: list[int]) -> int:
    return sum(int(d) * w for d, w in zip(payload, weights, strict=False))


# ================================================================================================
# secrets: providers
# ================================================================================================

def k_github(r):
    kind = r.choice(["ghp", "gho", "ghu", "pat"])
    if kind == "pat":
        return "github_pat_11" + pick(r, 20, UP + DG) + "_" + pick(r, 59)
    return f"{kind}_" + pick(r, 36)


def k_gitlab(r):
    kind = r.choice(["glpat", "glpat", "gloas", "glft"])
    if kind == "gloas":
        return "gloas-" + pick(r, 64, HEX)
    return f"{kind}-" + pick(r, 20, B64URL)


def k_slack(r):
    kind = r.choice(["xoxb", "xoxp", "xapp"])
    if kind == "xoxb":
        return f"xoxb-{digits(r, 12)}-{digits(r, 13)}-{pick(r, 24)}"
    if kind == "xoxp":
        return f"xoxp-{digits(r, 11)}-{digits(r, 12)}-{digits(r, 13)}-{pick(r, 32, HEX)}"
    return f"xapp-1-A{pick(r, 10, UP + DG)}-{digits(r, 13)}-{pick(r, 64, HEX)}"


def k_telegram(r):
    return f"{r.randint(10**9, 8 * 10**9)}:AA{pick(r, 33, B64URL)}"


def k_teams_hook(r):
    sig = pick(r, 43, B64URL)
    return (f"https://prod-{r.randint(10, 99)}.northeurope.logic.azure.com:443/workflows/{pick(r, 32, HEX)}"
            f"/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={sig}"), sig


def k_stripe(r):
    kind = r.choice(["sk", "rk", "whsec"])
    if kind == "whsec":
        return "whsec_" + pick(r, 32)
    return f"{kind}_live_51" + pick(r, 22) + pick(r, 75)


def k_aws_id(r):
    return r.choice(["AKIA", "AKIA", "ASIA"]) + pick(r, 16, UP + "234567")


def k_azure_storage(r):
    key = b64s(r.randbytes(64))
    return (f"DefaultEndpointsProtocol=https;AccountName=sa{pick(r, 9, LO + DG)};AccountKey={key};"
            "EndpointSuffix=core.windows.net"), key


def k_azure_sas(r):
    sig = b64s(r.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    return (f"https://{pick(r, 6, LO)}media.blob.core.windows.net/exports/q3.parquet?sv=2023-01-03&ss=b&srt=o"
            f"&sp=rl&se=2025-10-01T00:00:00Z&spr=https&sig={sig}"), sig


def k_azure_devops(r):
    return pick(r, 52) + pick(r, 24) + "AZDO" + pick(r, 4)


def k_gcp_key(r):
    lines = pem_lines(r, "PRIVATE KEY", 1190)
    return "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(lines[:4]) + "\\n...", lines[0]


PEM_HEAD = {
    "RSA PRIVATE KEY": bytes.fromhex("308204a20201000282010100"),
    "PRIVATE KEY": bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8"),
    "EC PRIVATE KEY": bytes.fromhex("30740201010420"),
    "ENCRYPTED PRIVATE KEY": bytes.fromhex("308205243056"),
    "OPENSSH PRIVATE KEY": b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01",
    "DSA PRIVATE KEY": bytes.fromhex("308201bb02010002818100"),
}


def pem_lines(r, label, n=260):
    body = b64s(PEM_HEAD[label] + r.randbytes(n))
    w = 70 if label == "OPENSSH PRIVATE KEY" else 64
    return [body[i:i + w] for i in range(0, len(body), w)]


def k_pem(label):
    def f(r):
        lines = pem_lines(r, label)
        return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----", lines[0]
    return f


def k_jwt(r, claims=None):
    alg = r.choice(["HS256", "RS256", "ES384"])
    head = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        head["kid"] = pick(r, 12, HEX)
    body = claims or {"iss": r.choice(["https://auth.northwind.example", "supabase", "keycloak"]),
                      "sub": v4(r), "scope": r.choice(["read:orders write:orders", "admin", "openid profile"]),
                      "iat": 1740000000 + r.randrange(9 * 10**6)}
    sig = r.randbytes({"HS256": 32, "RS256": 256, "ES384": 96}[alg])
    return ".".join([b64u(json.dumps(head, separators=(",", ":")).encode()),
                     b64u(json.dumps(body, separators=(",", ":")).encode()), b64u(sig)])


def k_supabase_service(r):
    return k_jwt(r, {"iss": "supabase", "ref": pick(r, 20, LO), "role": "service_role",
                     "iat": 1731000000 + r.randrange(10**6), "exp": 2046000000})


def k_pypi(r):
    raw = b"\x02\x01\x08pypi.org\x02\x24" + v4(r).encode() + b"\x00\x02\x2a\x02\x02" + r.randbytes(110)
    return "pypi-" + b64u(raw)


def k_onepassword(r):
    payload = {"signInAddress": "my.1password.eu", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
               "iterations": 650000, "salt": b64u(r.randbytes(16))},
               "email": f"{pick(r, 13, LO + DG)}@1passwordserviceaccounts.eu", "srpX": pick(r, 64, HEX),
               "muk": {"alg": "A256GCM", "ext": True, "k": b64u(r.randbytes(32)), "key_ops": ["encrypt", "decrypt"]}}
    return "ops_" + b64u(json.dumps(payload, separators=(",", ":")).encode())


def k_sentry_org(r):
    payload = {"iat": 1741000000.0 + r.randrange(10**6), "url": "https://sentry.io", "region_url": "https://de.sentry.io",
               "org": r.choice(["northwind", "fjordtech", "kestrel-labs"])}
    return "sntrys_" + b64u(json.dumps(payload, separators=(",", ":")).encode()) + "_" + pick(r, 43, B64URL)


def k_grafana_cloud(r):
    payload = {"o": str(r.randint(10**5, 10**6)), "n": "stack-" + digits(r, 6) + "-alloy", "k": pick(r, 24),
               "m": {"r": r.choice(["prod-eu-west-2", "prod-us-east-0"])}}
    return "glc_" + b64u(json.dumps(payload, separators=(",", ":")).encode())


def k_mapbox(r):
    return "sk.eyJ1Ijoi" + b64u(f'{pick(r, 8, LO)}","a":"{pick(r, 25, LO + DG)}"}}'.encode())[:50] + "." + pick(r, 22, B64URL)


def k_flyio(r):
    return "FlyV1 fm2_" + b64s(r.randbytes(150)).rstrip("=") + ",fm2_" + b64s(r.randbytes(48)).rstrip("=")


def k_jfrog(r):
    raw = f"reftkn:01:{1900000000 + r.randrange(10**8)}:{pick(r, 27)}".encode()
    return b64u(raw)


def k_bitbucket(r):
    if r.random() < 0.5:
        return "ATBB" + pick(r, 28) + pick(r, 8, HEXU)
    return "ATCTT3xFfGN0" + pick(r, 170, B64URL) + "=" + pick(r, 8, HEXU)


def k_twitter(r):
    return "AAAAAAAAAAAAAAAAAAAAA" + pick(r, 28) + "%3D" + pick(r, 50)


SECRETS: dict[str, Maker] = {
    "openai": full("openai_key", s_openai_with_admin),
    "openai_legacy": full("openai_key", lambda r: "sk-" + pick(r, 20) + "T3BlbkFJ" + pick(r, 20)),
    "anthropic": full("anthropic_key", s_anthropic_with_admin),
    "groq": full("groq_key", lambda r: "gsk_" + pick(r, 52)),
    "xai": full("xai_key", lambda r: "xai-" + pick(r, 80)),
    "perplexity": full("perplexity_key", lambda r: "pplx-" + pick(r, 48)),
    "openrouter": full("openrouter_key", lambda r: "sk-or-v1-" + pick(r, 64, HEX)),
    "hf": full("huggingface_token", lambda r: "hf_" + pick(r, 34, UP + LO)),
    "replicate": full("replicate_token", lambda r: "r8_" + pick(r, 37)),
    "mistral": full("mistral_key", lambda r: pick(r, 32)),
    "deepseek": full("deepseek_key", lambda r: "sk-" + pick(r, 32, HEX)),
    "gapi": full("google_api_key", lambda r: "AIza" + pick(r, 35, B64URL)),
    "gsecret": full("google_oauth_secret", lambda r: "GOCSPX-" + pick(r, 28, B64URL)),
    "gaccess": full("google_oauth_token", lambda r: "ya29.a0A" + pick(r, 150, B64URL)),
    "langfuse": full("langfuse_key", lambda r: "sk-lf-" + v4(r)),
    "pinecone": full("pinecone_key", lambda r: "pcsk_" + pick(r, 6) + "_" + pick(r, 63)),
    "elevenlabs": full("elevenlabs_key", lambda r: "sk_" + pick(r, 48, HEX)),
    "wandb": full("wandb_key", lambda r: pick(r, 40, HEX)),
    "aws_id": full("aws_key", k_aws_id),
    "aws_secret": full("aws_secret", s_aws_secret),
    "azure_storage": inner("azure_storage_key", k_azure_storage),
    "azure_secret": full("azure_client_secret", s_azure_cs),
    "azure_sas": inner("azure_sas_token", k_azure_sas),
    "azure_devops": full("azure_devops_token", k_azure_devops),
    "gcp_key": inner("private_key", k_gcp_key),
    "do": full("digitalocean_token", lambda r: r.choice(["dop_v1_", "doo_v1_"]) + pick(r, 64, HEX)),
    "alibaba": full("alibaba_key", lambda r: "LTAI" + pick(r, 20)),
    "tencent": full("tencent_key", lambda r: "AKID" + pick(r, 32)),
    "heroku": full("heroku_key", lambda r: "HRKU-AA" + pick(r, 58, B64URL)),
    "netlify": full("netlify_token", lambda r: "nfp_" + pick(r, 36)),
    "flyio": full("flyio_token", k_flyio),
    "render": full("render_key", lambda r: "rnd_" + pick(r, 32)),
    "cf_token": full("cloudflare_token", lambda r: pick(r, 40, B64URL)),
    "cf_global": full("cloudflare_key", lambda r: pick(r, 37, HEX)),
    "stripe": full("stripe_key", k_stripe),
    "square": full("square_token", lambda r: "EAAA" + pick(r, 60, B64URL)),
    "braintree": full("braintree_token", s_braintree),
    "plaid": full("plaid_token", lambda r: "access-production-" + v4(r)),
    "razorpay_id": full("razorpay_key", lambda r: "rzp_live_" + pick(r, 14)),
    "razorpay_secret": full("razorpay_key", lambda r: pick(r, 24)),
    "mollie": full("mollie_key", lambda r: "live_" + pick(r, 30)),
    "paystack": full("paystack_key", lambda r: "sk_live_" + pick(r, 40, HEX)),
    "flutterwave": full("flutterwave_key", lambda r: "FLWSECK-" + pick(r, 32, HEX) + "-X"),
    "slack": full("slack_token", k_slack),
    "slack_hook": inner("slack_webhook", s_slack_hook_t10),
    "discord": full("discord_token", s_discord_bot),
    "discord_hook": inner("discord_webhook", s_discord_hook),
    "telegram": full("telegram_token", k_telegram),
    "teams_hook": inner("teams_webhook", k_teams_hook),
    "twilio": full("twilio_api_key", lambda r: "SK" + pick(r, 32, HEX)),
    "sendgrid": full("sendgrid_key", lambda r: f"SG.{pick(r, 22, B64URL)}.{pick(r, 43, B64URL)}"),
    "mailgun": full("mailgun_key", lambda r: "key-" + pick(r, 32, HEX)),
    "mailchimp": full("mailchimp_key", lambda r: pick(r, 32, HEX) + "-us" + str(r.randint(2, 21))),
    "brevo": full("brevo_key", lambda r: f"xkeysib-{pick(r, 64, HEX)}-{pick(r, 16)}"),
    "resend": full("resend_key", lambda r: f"re_{pick(r, 8)}_{pick(r, 24)}"),
    "github": full("github_token", k_github),
    "gitlab": full("gitlab_token", k_gitlab),
    "bitbucket": full("bitbucket_token", k_bitbucket),
    "npm": full("npm_token", lambda r: "npm_" + pick(r, 36)),
    "pypi": full("pypi_token", k_pypi),
    "rubygems": full("rubygems_key", lambda r: "rubygems_" + pick(r, 48, HEX)),
    "nuget": full("nuget_key", lambda r: "oy2" + pick(r, 43, LO + DG)),
    "crates": full("cratesio_token", lambda r: "cio" + pick(r, 32)),
    "clojars": full("clojars_token", lambda r: "CLOJARS_" + pick(r, 60, HEX)),
    "docker": full("dockerhub_token", lambda r: "dckr_pat_" + pick(r, 27, B64URL)),
    "jfrog": full("jfrog_token", k_jfrog),
    "pscale": full("planetscale_token", lambda r: "pscale_pw_" + pick(r, 43, B64URL)),
    "supabase": full("supabase_token", lambda r: "sbp_" + pick(r, 40, HEX)),
    "supabase_jwt": full("jwt", k_supabase_service),
    "jwt": full("jwt", k_jwt),
    "pem_rsa": inner("private_key", k_pem("RSA PRIVATE KEY")),
    "pem_pkcs8": inner("private_key", k_pem("PRIVATE KEY")),
    "pem_ec": inner("private_key", k_pem("EC PRIVATE KEY")),
    "pem_enc": inner("private_key", k_pem("ENCRYPTED PRIVATE KEY")),
    "pem_ssh": inner("private_key", k_pem("OPENSSH PRIVATE KEY")),
    "pem_dsa": inner("private_key", k_pem("DSA PRIVATE KEY")),
    "vault": full("vault_token", lambda r: "hvs.CAESI" + pick(r, 86, B64URL)),
    "doppler": full("doppler_token", lambda r: r.choice(["dp.st.prd_eu.", "dp.pt."]) + pick(r, 43)),
    "onepassword": full("onepassword_token", k_onepassword),
    "age": full("age_secret_key", lambda r: "AGE-SECRET-KEY-1" + pick(r, 58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")),
    "terraform": full("terraform_token", lambda r: f"{pick(r, 14)}.atlasv1.{pick(r, 67, B64URL)}"),
    "pulumi": full("pulumi_token", lambda r: "pul-" + pick(r, 40, HEX)),
    "tailscale": full("tailscale_key", lambda r: f"tskey-{r.choice(['api', 'auth'])}-k{pick(r, 11)}-{pick(r, 33)}"),
    "datadog": full("datadog_key", lambda r: pick(r, 32, HEX)),
    "newrelic": full("new_relic_key", lambda r: "NRAK-" + pick(r, 27, UP + DG)),
    "sentry": full("sentry_token", k_sentry_org),
    "grafana_cloud": full("grafana_token", k_grafana_cloud),
    "grafana_sa": full("grafana_token", lambda r: f"glsa_{pick(r, 32)}_{pick(r, 8, HEX)}"),
    "dynatrace": full("dynatrace_token", lambda r: f"dt0c01.{pick(r, 24, UP + DG)}.{pick(r, 64, UP + DG)}"),
    "sonar": full("sonar_token", lambda r: "squ_" + pick(r, 40, HEX)),
    "circleci": full("circleci_token", lambda r: f"CCIPAT_{pick(r, 22)}_{pick(r, 40, HEX)}"),
    "buildkite": full("buildkite_token", lambda r: "bkua_" + pick(r, 40, HEX)),
    "atlassian": full("atlassian_token", lambda r: "ATATT3xFfGF0" + pick(r, 171, B64URL) + "=" + pick(r, 8, HEXU)),
    "linear": full("linear_key", lambda r: "lin_api_" + pick(r, 40)),
    "notion": full("notion_token", lambda r: "ntn_" + digits(r, 11) + pick(r, 35)),
    "figma": full("figma_token", lambda r: f"figd_{pick(r, 40, B64URL)}"),
    "airtable": full("airtable_token", lambda r: f"pat{pick(r, 14)}.{pick(r, 64, HEX)}"),
    "hubspot": full("hubspot_token", lambda r: f"pat-{r.choice(['na1', 'eu1'])}-{v4(r)}"),
    "clickup": full("clickup_token", lambda r: f"pk_{r.randint(10**7, 10**8)}_{pick(r, 32, UP + DG)}"),
    "okta": full("okta_token", lambda r: "00" + pick(r, 40, B64URL)),
    "contentful": full("contentful_token", lambda r: "CFPAT-" + pick(r, 43, B64URL)),
    "typeform": full("typeform_token", lambda r: "tfp_" + pick(r, 44) + "_" + pick(r, 14)),
    "mapbox": full("mapbox_token", k_mapbox),
    "shopify": full("shopify_token", lambda r: r.choice(["shpat_", "shpss_"]) + pick(r, 32, HEX)),
    "twitter": full("twitter_bearer", k_twitter),
    "facebook": full("facebook_token", lambda r: "EAAB" + pick(r, 180)),
    "fcm": full("fcm_server_key", s_fcm),
    "django": full("django_secret_key", lambda r: "django-insecure-" + pick(r, 50, LO + DG + "!@#%^&*(-_=+)")),
    "shippo": full("shippo_token", lambda r: "shippo_live_" + pick(r, 40, HEX)),
    "postman": full("postman_key", lambda r: f"PMAK-{pick(r, 24, HEX)}-{pick(r, 34, HEX)}"),
    "launchdarkly": full("launchdarkly_key", lambda r: "api-" + v4(r)),
    "ngrok": full("ngrok_token", lambda r: "2" + pick(r, 26) + "_" + pick(r, 21)),
}

# ---- passwords ---------------------------------------------------------------------------------

PW_STEMS = ["Sturmvogel", "Hirondelle", "Lagartija", "Borboleta", "Pettirosso", "Kievitsei", "Wiewiórka",
            "Ekorre", "Kettu", "Vlaštovka", "Kaplumbağa", "Ласточка", "Χελιδόνι", "Tsubame", "Kingfisher",
            "Heron", "Marmot", "Ocelot", "Pangolin", "Quokka"]
DICE = ["anvil", "bramble", "cobalt", "drizzle", "estuary", "fjord", "gravel", "hollow", "indigo", "jasper",
        "kelp", "lichen", "mortar", "nectar", "oxbow", "pumice", "quill", "rampart", "sorrel", "thistle"]


def pw(r: random.Random) -> str:
    style = r.randrange(5)
    if style == 0:
        return r.choice(PW_STEMS) + r.choice(["!", "#", "_", "."]) + digits(r, r.choice([2, 3, 4])) + r.choice(["", "?", "&"])
    if style == 1:
        sep = r.choice(["-", "_", ".", "+"])
        return sep.join(r.sample(DICE, r.choice([3, 4]))) + sep + digits(r, 3)
    if style == 2:
        return pick(r, r.choice([14, 18, 22]), ALNUM + "!$%*+-=@^~")
    if style == 3:
        w = r.choice(DICE)
        return w.capitalize().replace("o", "0").replace("i", "1").replace("e", "3") + "@" + str(r.randint(1990, 2025))
    return pick(r, 4, UP) + digits(r, 2) + pick(r, 4, LO) + r.choice("#%&") + pick(r, 3)


def urlpw(r: random.Random) -> str:
    return pick(r, r.choice([16, 20, 24]), ALNUM + "-._~")


SECRETS.update({
    "pw": full("password", pw),
    "urlpw": full("url_credentials", urlpw),
    "bearer": full("bearer_token", lambda r: pick(r, r.choice([36, 48, 64]), B64URL + ".~")),
    "basic": full("basic_auth", lambda r: b64s(f"{r.choice(['deploy', 'metrics', 'backup-agent', 'root'])}:{urlpw(r)}".encode())),
    "pw_b64": full("password", lambda r: b64s(pw(r).encode())),
})

# ================================================================================================
# personal data
# ================================================================================================


def nanp(r, areas):
    while True:
        ex = r.choice("23456789") + digits(r, 2)
        if ex[1:] != "11" and ex != "555" and ex[:2] not in ("95", "97"):
            return r.choice(areas), ex, digits(r, 4)


def d(n):
    return lambda r: digits(r, n)


# Ofcom 07xxx mobile blocks (071-075, 077-079 allocated to mobile operators; 07700 900 avoided)
IT_MOB = ['20', '28', '38', '40', '47', '49', '66', '88', '92']  # 3xx mobile prefixes (TIM, Vodafone, WindTre, Iliad)
PL_MOB = ['501', '512', '531', '601', '664', '691', '725', '790', '881']
RO_MOB = ['22', '23', '40', '44', '45', '55', '66', '72', '88']
DK_MOB = ['20', '22', '26', '28', '30', '40', '42', '50', '60', '61']
UA_MOB = ['50', '63', '66', '67', '68', '93', '95', '96', '97', '98', '99']
NG_MOB = ['803', '806', '813', '703', '802', '808', '705']
GB_MOB = ["740", "745", "747", "756", "771", "773", "780", "786", "792", "795", "798"]

PHONES: dict[str, tuple[str, Callable[[random.Random], str]]] = {
    "us_paren": ("US", lambda r: "({}) {}-{}".format(*nanp(r, ["206", "312", "617", "720", "503", "612"]))),
    "us_intl": ("US", lambda r: "+1 {} {} {}".format(*nanp(r, ["713", "305", "919", "415"]))),
    "us_dash": ("US", lambda r: "1-{}-{}-{}".format(*nanp(r, ["214", "602", "404"]))),
    "ca_paren": ("CA", lambda r: "+1 ({}) {}-{}".format(*nanp(r, ["604", "416", "780", "902"]))),
    "gb_mobile": ("GB", lambda r: f"0{r.choice(GB_MOB)}{digits(r, 1)} {digits(r, 6)}"),
    "gb_intl": ("GB", lambda r: f"+44 {r.choice(GB_MOB)}{digits(r, 1)} {digits(r, 3)} {digits(r, 3)}"),
    "gb_london": ("GB", lambda r: f"+44 20 3{digits(r, 3)} {digits(r, 4)}"),
    "gb_leeds": ("GB", lambda r: f"0113 {r.choice('234')}{digits(r, 2)} {digits(r, 4)}"),
    "ie_mobile": ("IE", lambda r: f"08{r.choice('3567')} {nonzero(r)}{digits(r, 2)} {digits(r, 4)}"),
    "ie_dublin": ("IE", lambda r: f"+353 1 {r.choice('2345678')}{digits(r, 2)} {digits(r, 4)}"),
    "fr_mobile": ("FR", lambda r: "06 " + r.choice("1245678") + digits(r, 1) + " " + split(digits(r, 6), [2, 2, 2])),
    "fr_lyon": ("FR", lambda r: f"+33 (0)4 7{r.choice('28')} {digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "fr_intl_mobile": ("FR", lambda r: f"+33 7 {r.choice('5678')}{digits(r, 1)} {digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "de_mobile": ("DE", lambda r: f"0171 {digits(r, 7)}"),
    "de_munich": ("DE", lambda r: f"+49 89 {nonzero(r)}{digits(r, 7)}"),
    "de_berlin": ("DE", lambda r: f"030 {nonzero(r)}{digits(r, 3)} {digits(r, 4)}"),
    "at_mobile": ("AT", lambda r: f"+43 664 {digits(r, 7)}"),
    "ch_mobile": ("CH", lambda r: f"078 {digits(r, 3)} {digits(r, 2)} {digits(r, 2)}"),
    "ch_lausanne": ("CH", lambda r: f"+41 21 {r.choice('3456789')}{digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "nl_mobile": ("NL", lambda r: f"+31 6 {r.choice('1234')}{digits(r, 3)} {digits(r, 4)}"),
    "nl_amsterdam": ("NL", lambda r: f"020-{nonzero(r)}{digits(r, 2)} {digits(r, 4)}"),
    "be_mobile": ("BE", lambda r: f"047{r.choice('0123456789')} {digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "be_antwerp": ("BE", lambda r: f"+32 3 {r.choice('2345678')}{digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "lu_mobile": ("LU", lambda r: f"+352 621 {digits(r, 3)} {digits(r, 3)}"),
    "es_mobile": ("ES", lambda r: f"6{r.choice('0123456789')}{digits(r, 1)} {digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "es_bcn": ("ES", lambda r: f"+34 93 {r.choice('2345')}{digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "pt_mobile": ("PT", lambda r: f"91{digits(r, 1)} {digits(r, 3)} {digits(r, 3)}"),
    "pt_lisbon": ("PT", lambda r: f"+351 21{r.choice('3456789')} {digits(r, 3)} {digits(r, 3)}"),
    "it_mobile": ("IT", lambda r: f"+39 3{r.choice(IT_MOB)} {digits(r, 3)} {digits(r, 4)}"),
    "it_milan": ("IT", lambda r: f"02 {r.choice('3456789')}{digits(r, 3)} {digits(r, 4)}"),
    "gr_mobile": ("GR", lambda r: f"+30 69{r.choice('345789')} {digits(r, 3)} {digits(r, 4)}"),
    "gr_athens": ("GR", lambda r: f"210 {r.choice('3456789')}{digits(r, 2)} {digits(r, 4)}"),
    "pl_mobile": ("PL", lambda r: f"+48 {r.choice(PL_MOB)} {digits(r, 3)} {digits(r, 3)}"),
    "pl_warsaw": ("PL", lambda r: f"22 {r.choice('3456789')}{digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "cz_mobile": ("CZ", lambda r: f"+420 {r.choice(['602', '604', '721', '736', '775', '792'])} {digits(r, 3)} {digits(r, 3)}"),
    "sk_mobile": ("SK", lambda r: f"09{r.choice(['03', '05', '10', '15', '44', '48'])} {digits(r, 3)} {digits(r, 3)}"),
    "hu_mobile": ("HU", lambda r: f"+36 {r.choice(['20', '30', '70'])} {nonzero(r)}{digits(r, 2)} {digits(r, 4)}"),
    "hu_national": ("HU", lambda r: f"06 30 {nonzero(r)}{digits(r, 2)} {digits(r, 4)}"),
    "ro_mobile": ("RO", lambda r: f"07{r.choice(RO_MOB)} {digits(r, 3)} {digits(r, 3)}"),
    "bg_mobile": ("BG", lambda r: f"+359 8{r.choice('789')} {nonzero(r)}{digits(r, 2)} {digits(r, 4)}"),
    "hr_mobile": ("HR", lambda r: f"+385 9{r.choice('1258')} {digits(r, 3)} {digits(r, 4)}"),
    "si_mobile": ("SI", lambda r: f"+386 {r.choice(['31', '40', '41', '51', '68', '70'])} {digits(r, 3)} {digits(r, 3)}"),
    "se_mobile": ("SE", lambda r: f"07{r.choice('0236')}-{digits(r, 3)} {digits(r, 2)} {digits(r, 2)}"),
    "se_stockholm": ("SE", lambda r: f"+46 8 {nonzero(r)}{digits(r, 2)} {digits(r, 3)} {digits(r, 2)}"),
    "no_mobile": ("NO", lambda r: f"+47 9{digits(r, 2)} {digits(r, 2)} {digits(r, 3)}"),
    "no_national": ("NO", lambda r: f"4{r.choice('0158')}{digits(r, 1)} {digits(r, 2)} {digits(r, 3)}"),
    "dk_mobile": ("DK", lambda r: f"+45 {r.choice(DK_MOB)} {nonzero(r)}{digits(r, 1)} {digits(r, 2)} {digits(r, 2)}"),
    "fi_mobile": ("FI", lambda r: f"04{r.choice('0145')} {digits(r, 3)} {digits(r, 4)}"),
    "fi_intl": ("FI", lambda r: f"+358 50 {digits(r, 3)} {digits(r, 4)}"),
    "is_mobile": ("IS", lambda r: f"+354 {r.choice(['69', '76', '77', '78', '83', '85', '86'])}{digits(r, 1)} {digits(r, 4)}"),
    "ee_mobile": ("EE", lambda r: f"+372 5{digits(r, 3)} {digits(r, 4)}"),
    "lv_mobile": ("LV", lambda r: f"+371 2{r.choice('0124689')}{digits(r, 2)} {digits(r, 4)}"),
    "lt_mobile": ("LT", lambda r: f"+370 6{digits(r, 2)} {digits(r, 5)}"),
    "ua_mobile": ("UA", lambda r: f"+380 {r.choice(UA_MOB)} {digits(r, 3)} {digits(r, 2)} {digits(r, 2)}"),
    "ua_national": ("UA", lambda r: f"067 {digits(r, 3)} {digits(r, 2)} {digits(r, 2)}"),
    "tr_mobile": ("TR", lambda r: f"+90 53{r.choice('0123456789')} {digits(r, 3)} {digits(r, 2)} {digits(r, 2)}"),
    "tr_istanbul": ("TR", lambda r: f"0 (212) {r.choice('2345')}{digits(r, 2)} {digits(r, 2)} {digits(r, 2)}"),
    "il_mobile": ("IL", lambda r: f"05{r.choice('0234')}-{r.choice('23456789')}{digits(r, 2)}-{digits(r, 4)}"),
    "ae_mobile": ("AE", lambda r: f"+971 5{r.choice('0256')} {digits(r, 3)} {digits(r, 4)}"),
    "sa_mobile": ("SA", lambda r: f"+966 5{r.choice('03456')} {digits(r, 3)} {digits(r, 4)}"),
    "eg_mobile": ("EG", lambda r: f"+20 1{r.choice('0125')} {digits(r, 4)} {digits(r, 4)}"),
    "ma_mobile": ("MA", lambda r: f"+212 6{r.choice('1256')}{digits(r, 1)}-{digits(r, 6)}"),
    "ng_mobile": ("NG", lambda r: f"0{r.choice(NG_MOB)} {digits(r, 3)} {digits(r, 4)}"),
    "ke_mobile": ("KE", lambda r: f"+254 7{r.choice(['01', '10', '12', '20', '21', '22', '27'])} {digits(r, 3)} {digits(r, 3)}"),
    "za_mobile": ("ZA", lambda r: f"+27 82 {digits(r, 3)} {digits(r, 4)}"),
    "za_capetown": ("ZA", lambda r: f"021 {r.choice('4567')}{digits(r, 2)} {digits(r, 4)}"),
    "gh_mobile": ("GH", lambda r: f"+233 {r.choice(['20', '24', '26', '27', '54', '55'])} {digits(r, 3)} {digits(r, 4)}"),
    "in_mobile": ("IN", lambda r: f"+91 9{r.choice('4789')}{digits(r, 3)} {digits(r, 5)}"),
    "in_national": ("IN", lambda r: f"98{r.choice('12345')}{digits(r, 2)}-{digits(r, 5)}"),
    "in_delhi": ("IN", lambda r: f"011-2{digits(r, 3)}-{digits(r, 4)}"),
    "pk_mobile": ("PK", lambda r: f"03{r.choice(['00', '01', '21', '33', '45'])}-{nonzero(r)}{digits(r, 6)}"),
    "bd_mobile": ("BD", lambda r: f"+880 1{r.choice('3789')}{digits(r, 2)}-{digits(r, 6)}"),
    "cn_mobile": ("CN", lambda r: f"1{r.choice(['38', '39', '36', '58', '86', '89'])} {digits(r, 4)} {digits(r, 4)}"),
    "cn_shanghai": ("CN", lambda r: f"+86 21 {r.choice('56')}{digits(r, 3)} {digits(r, 4)}"),
    "hk_mobile": ("HK", lambda r: f"+852 9{r.choice('2467')}{digits(r, 2)} {digits(r, 4)}"),
    "tw_mobile": ("TW", lambda r: f"09{r.choice('12')}{digits(r, 1)}-{digits(r, 3)}-{digits(r, 3)}"),
    "tw_taipei": ("TW", lambda r: f"+886 2 2{digits(r, 3)} {digits(r, 4)}"),
    "jp_mobile": ("JP", lambda r: f"080-{nonzero(r)}{digits(r, 3)}-{digits(r, 4)}"),
    "jp_intl": ("JP", lambda r: f"+81 90-{nonzero(r)}{digits(r, 3)}-{digits(r, 4)}"),
    "jp_osaka": ("JP", lambda r: f"06-{r.choice('6')}{digits(r, 3)}-{digits(r, 4)}"),
    "kr_mobile": ("KR", lambda r: f"+82 10-{nonzero(r)}{digits(r, 3)}-{digits(r, 4)}"),
    "kr_seoul": ("KR", lambda r: f"02-{r.choice('3456789')}{digits(r, 3)}-{digits(r, 4)}"),
    "sg_mobile": ("SG", lambda r: f"9{r.choice('12345678')}{digits(r, 2)} {digits(r, 4)}"),
    "my_mobile": ("MY", lambda r: f"+60 12-{nonzero(r)}{digits(r, 2)} {digits(r, 4)}"),
    "th_mobile": ("TH", lambda r: f"08{r.choice('1245689')}-{digits(r, 3)}-{digits(r, 4)}"),
    "vn_mobile": ("VN", lambda r: f"+84 9{r.choice('013678')} {digits(r, 3)} {digits(r, 2)} {digits(r, 2)}"),
    "id_mobile": ("ID", lambda r: f"+62 81{r.choice('1235')}-{digits(r, 4)}-{digits(r, 4)}"),
    "ph_mobile": ("PH", lambda r: f"+63 9{r.choice(['17', '18', '20', '27', '95'])} {digits(r, 3)} {digits(r, 4)}"),
    "au_mobile": ("AU", lambda r: f"+61 4{r.choice('0123')}{digits(r, 1)} {digits(r, 3)} {digits(r, 3)}"),
    "au_melbourne": ("AU", lambda r: f"(03) 9{digits(r, 3)} {digits(r, 4)}"),
    "nz_mobile": ("NZ", lambda r: f"021 {digits(r, 3)} {digits(r, 4)}"),
    "nz_auckland": ("NZ", lambda r: f"+64 9 {r.choice('34589')}{digits(r, 2)} {digits(r, 4)}"),
    "mx_cdmx": ("MX", lambda r: f"+52 55 {r.choice('12345')}{digits(r, 3)} {digits(r, 4)}"),
    "mx_monterrey": ("MX", lambda r: f"81 {r.choice('12348')}{digits(r, 3)} {digits(r, 4)}"),
    "br_mobile": ("BR", lambda r: f"(11) 9{r.choice('6789')}{digits(r, 3)}-{digits(r, 4)}"),
    "br_intl": ("BR", lambda r: f"+55 21 9{r.choice('6789')}{digits(r, 3)} {digits(r, 4)}"),
    "ar_mobile": ("AR", lambda r: f"+54 9 11 {r.choice('2345')}{digits(r, 3)}-{digits(r, 4)}"),
    "cl_mobile": ("CL", lambda r: f"+56 9 {r.choice('58')}{digits(r, 3)} {digits(r, 4)}"),
    "co_mobile": ("CO", lambda r: f"+57 3{r.choice(['00', '01', '10', '12', '15', '20'])} {digits(r, 3)} {digits(r, 4)}"),
    "pe_mobile": ("PE", lambda r: f"+51 9{digits(r, 2)} {digits(r, 3)} {digits(r, 3)}"),
}


def phone_maker(key: str) -> Maker:
    region, f = PHONES[key]

    def make(r: random.Random) -> Out:
        v = f(r)
        AUDIT.append(("phone", v, region))
        return v, v, "phone"
    return make


# ---- e-mail addresses ----------------------------------------------------------------------------

GIVEN = ["radek", "sanna", "tobiasz", "maeve", "ilse", "kwame", "anouk", "dario", "hanne", "jiho", "lucia",
         "emeka", "saoirse", "pietro", "ayumi", "farid", "greta", "wiktor", "nilufar", "oskar", "thandiwe", "mateo"]
FAMILY = ["novak", "lindgren", "mahlangu", "rinaldi", "kowalski", "oconnell", "vasquez", "hakkinen", "dvorak",
          "andersen", "oyelaran", "pereira", "kim", "nguyen", "schmitz", "haddad", "bakker", "ionescu", "yilmaz"]
MAILHOSTS = ["seznam.cz", "wp.pl", "t-online.de", "free.fr", "virgilio.it", "telia.com", "abv.bg", "naver.com",
             "163.com", "rediffmail.com", "yandex.ru", "bluewin.ch", "zoho.eu", "hey.com", "pm.me", "tuta.io",
             "me.com", "btinternet.com", "kpnmail.nl", "sapo.pt", "terra.com.br", "xs4all.nl", "online.no"]
ORGS = ["northwind-logistics.io", "fjordtech.no", "klinik-sonnenhof.de", "mairie-annecy.fr", "studio-ombra.it",
        "kestrel-labs.co.uk", "pampa-agro.com.ar", "sakura-denki.co.jp", "baltic-freight.lv", "umoja.co.ke"]


def email_of(r: random.Random, style: str) -> str:
    g, f = r.choice(GIVEN), r.choice(FAMILY)
    if style == "corp":
        return f"{g}.{f}@{r.choice(ORGS)}"
    if style == "initial":
        return f"{g[0]}{f}@{r.choice(ORGS)}"
    if style == "tag":
        return f"{g}+{r.choice(['aws-billing', 'jira', 'pypi', 'ci'])}@{r.choice(MAILHOSTS)}"
    if style == "underscore":
        return f"{g}_{f}{digits(r, 2)}@{r.choice(MAILHOSTS)}"
    if style == "mixed":
        return f"{g.capitalize()}.{f.capitalize()}@{r.choice(ORGS)}"
    if style == "sub":
        return f"{f}@{r.choice(['eng', 'mail', 'lab'])}.{r.choice(ORGS)}"
    if style == "paren":
        h = r.choice(MAILHOSTS).split(".", 1)
        return f"{g}.{f}(at){h[0]}(dot){h[1]}"
    if style == "spelled":
        h = r.choice(MAILHOSTS).split(".", 1)
        return f"{g} AT {h[0]} DOT {h[1]}"
    if style == "braces":
        return f"{g}{{at}}{r.choice(ORGS)}"
    return f"{g}{f[:3]}{digits(r, 3)}@{r.choice(MAILHOSTS)}"


def email_maker(style: str) -> Maker:
    def make(r: random.Random) -> Out:
        v = email_of(r, style)
        AUDIT.append(("email", v, style))
        return v, v, "email"
    return make


# ---- cards ---------------------------------------------------------------------------------------

NETWORKS = {
    "visa": (["4"], 16, [4, 4, 4, 4]),
    "visa13": (["4"], 13, [4, 3, 3, 3]),
    "mc": (["51", "52", "54", "2223", "2431", "2699"], 16, [4, 4, 4, 4]),
    "amex": (["34", "37"], 15, [4, 6, 5]),
    "discover": (["6011", "65", "644", "649"], 16, [4, 4, 4, 4]),
    "jcb": (["3530", "3561", "3585"], 16, [4, 4, 4, 4]),
    "mir": (["2200", "2201", "2202", "2204"], 16, [4, 4, 4, 4]),
    "maestro": (["6759", "5018", "5020"], 16, [4, 4, 4, 4]),
    "unionpay": (["6212", "6258", "6231"], 16, [4, 4, 4, 4]),
    "rupay": (["6521", "6522", "6070"], 16, [4, 4, 4, 4]),
    "diners": (["3056", "38"], 14, [4, 6, 4]),
}


def card_maker(net: str, sep: str) -> Maker:
    prefixes, n, groups = NETWORKS[net]

    def make(r: random.Random) -> Out:
        while True:
            p = r.choice(prefixes)
            body = p + digits(r, n - len(p) - 1)
            num = body + luhn_digit(body)
            if len(set(num)) > 4:
                break
        v = num if sep == "" else split(num, groups, sep)
        AUDIT.append(("card_number", v, net))
        return v, v, "card_number"
    return make


# ---- IBANs ---------------------------------------------------------------------------------------

def cz_sk_account(r: random.Random) -> str:
    """CZ/SK BBAN: bank(4) + prefix(6) + account(10), prefix and account pass the weighted mod-11 test."""
    w = [6, 3, 7, 9, 10, 5, 8, 4, 2, 1]
    while True:
        acc = digits(r, 10)
        if acc[:4] != "0000" and weighted(acc, w) % 11 == 0:
            return acc


def hu_block(r: random.Random, n: int) -> str:
    """Hungarian giro check: weights 9 7 3 1 repeated, sum ≡ 0 mod 10 (last digit is the check)."""
    payload = digits(r, n - 1)
    w = [9, 7, 3, 1] * 5
    s = weighted(payload, w)
    return payload + str(-s % 10)


def fr_rib(bank: str, branch: str, account: str) -> str:
    conv = account.translate(str.maketrans(UP, "12345678912345678923456789"))
    key = 97 - (89 * int(bank) + 15 * int(branch) + 3 * int(conv)) % 97
    return f"{bank}{branch}{account}{key:02d}"


def bban(r: random.Random, cc: str) -> str:
    if cc == "FI":
        body = r.choice(["100", "400", "800", "157"]) + digits(r, 10)
        return body + luhn_digit(body)
    if cc == "EE":
        return r.choice(["22", "10", "77"]) + digits(r, 14)
    if cc == "LT":
        return r.choice(["73000", "70440", "40100"]) + digits(r, 11)
    if cc == "LV":
        return r.choice(["HABA", "UNLA", "RIKO"]) + digits(r, 13)
    if cc == "SI":
        head = r.choice(["19100", "02010", "05100"]) + digits(r, 8)
        return head + f"{98 - int(head + '00') % 97:02d}"
    if cc in ("CZ", "SK"):
        bank = r.choice(["0800", "0100", "2010"]) if cc == "CZ" else r.choice(["1100", "0200", "0900"])
        return bank + "000000" + cz_sk_account(r)
    if cc == "HU":
        return hu_block(r, 8) + hu_block(r, 16)
    if cc == "BG":
        return r.choice(["BNBG", "UNCR", "STSA"]) + digits(r, 4) + r.choice(["10", "15"]) + digits(r, 8)
    if cc == "CY":
        return r.choice(["002", "005"]) + digits(r, 5) + digits(r, 16)
    if cc == "MT":
        return r.choice(["MALT", "VALL"]) + digits(r, 5) + pick(r, 4, UP) + digits(r, 14)
    if cc == "IS":
        return r.choice(["0159", "0133", "0515"]) + "26" + digits(r, 6) + digits(r, 10)
    if cc == "LI":
        return r.choice(["08810", "08800"]) + digits(r, 12)
    if cc == "MC":
        return fr_rib(r.choice(["11222", "12739"]), digits(r, 5), digits(r, 11))
    if cc == "FR":
        return fr_rib(r.choice(["30002", "10107", "18206"]), digits(r, 5), digits(r, 11))
    if cc == "KW":
        return r.choice(["CBKU", "NBOK"]) + digits(r, 22)
    if cc == "QA":
        return r.choice(["DOHB", "QNBA"]) + digits(r, 21)
    if cc == "IL":
        return r.choice(["010", "012", "020"]) + digits(r, 3) + digits(r, 13)
    if cc == "PK":
        return r.choice(["SCBL", "HABB"]) + digits(r, 16)
    if cc == "UA":
        return r.choice(["305299", "322001", "300528"]) + digits(r, 19)
    if cc == "KZ":
        return r.choice(["125", "722"]) + pick(r, 13, UP + DG)
    if cc == "GE":
        return r.choice(["NB", "TB", "BG"]) + digits(r, 16)
    if cc == "AZ":
        return r.choice(["NABZ", "IBAZ"]) + digits(r, 20)
    if cc == "DE":
        return r.choice(["12030000", "76010085", "66050101"]) + digits(r, 10)
    if cc == "GB":
        return r.choice(["MIDL", "NWBK", "BUKB"]) + digits(r, 6) + digits(r, 8)
    if cc == "PL":
        return r.choice(["10501214", "12401037", "24900005"]) + digits(r, 16)
    if cc == "SE":
        return r.choice(["500", "600", "958"]) + digits(r, 17)
    if cc == "DK":
        return r.choice(["0040", "2000", "9570"]) + digits(r, 10)
    if cc == "NO":
        w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        while True:
            p = r.choice(["1206", "9710", "3000"]) + digits(r, 6)
            k = -weighted(p, w) % 11
            if k != 10:
                return p + str(k)
    raise KeyError(cc)


def iban_maker(cc: str, paper: bool = False) -> Maker:
    def make(r: random.Random) -> Out:
        v = iban_of(cc, bban(r, cc))
        if paper:
            v = " ".join(v[i:i + 4] for i in range(0, len(v), 4))
        AUDIT.append(("iban", v, cc))
        return v, v, "iban"
    return make


# ---- national identifiers -----------------------------------------------------------------------

def date_parts(r: random.Random, lo: int = 1950, hi: int = 2004) -> tuple[int, int, int]:
    return r.randint(lo, hi), r.randint(1, 12), r.randint(1, 28)


def id_ssn(r):
    while True:
        a = r.randint(1, 899)
        if a != 666:
            return f"{a:03d}{r.randint(1, 99):02d}{r.randint(1, 9999):04d}"


def id_sin(r):
    body = r.choice("1245679") + digits(r, 7)
    return body + luhn_digit(body)


def id_nir(r):
    y, m, _ = date_parts(r, 1955, 1999)
    dept = r.choice(["31", "06", "38", "2A", "35", "76", "92"])
    body = f"{r.choice('12')}{y % 100:02d}{m:02d}{dept}{r.randint(1, 600):03d}{r.randint(1, 990):03d}"
    num = int(body.replace("2A", "19").replace("2B", "18"))
    return f"{body}{97 - num % 97:02d}"


def id_idnr(r):
    while True:
        ds = r.sample(DG, 9)
        ds.insert(r.randrange(10), r.choice(ds))
        p = "".join(ds)
        if p[0] != "0":
            return p + mod11_10(p)


CF_ODD = dict(zip(DG + UP, [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20,
                            11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23], strict=True))


def id_cf(r):
    """Codice fiscale with precomputed name codes (surname, name), month letter, day, Belfiore code."""
    sur = r.choice(["FRR", "LNG", "CST", "MRN", "DSN", "PLL", "BRB", "VTL"])  # Ferrari, Longo, Costa, ...
    nam, fem = r.choice([("PLA", False), ("NDR", False), ("LNE", True), ("MRT", True), ("GPP", False), ("FNC", True)])
    y, _, day = date_parts(r, 1960, 1999)
    place = r.choice(['A662', 'D969', 'G224', 'L424', 'E506'])  # Belfiore codes: Bari, Genova, Padova, Trieste, Livorno
    body = f"{sur}{nam}{y % 100:02d}{r.choice('ABCDEHLMPRST')}{day + (40 if fem else 0):02d}{place}"
    s = sum(CF_ODD[c] if i % 2 == 0 else (int(c) if c.isdigit() else ord(c) - 65) for i, c in enumerate(body))
    return body + UP[s % 26]


def id_bsn(r):
    while True:
        p = r.choice("123456") + digits(r, 7)
        k = weighted(p, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
        if k < 10:
            return p + str(k)


def id_cpf(r):
    ds = [int(c) for c in digits(r, 9)]
    for n in (10, 11):
        ds.append(sum(x * w for x, w in zip(ds, range(n, 1, -1), strict=True)) * 10 % 11 % 10)
    return "".join(map(str, ds))


def id_pesel(r):
    y, m, day = date_parts(r, 1950, 2009)
    mm = m + (20 if y >= 2000 else 0)
    p = f"{y % 100:02d}{mm:02d}{day:02d}{digits(r, 4)}"
    return p + str(-weighted(p, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)


def id_personnummer(r):
    y, m, day = date_parts(r, 1950, 2003)
    p = f"{y % 100:02d}{m:02d}{day:02d}{digits(r, 3)}"
    return f"{y}|{p}{luhn_digit(p)}"


def id_hetu(r):
    y, m, day = date_parts(r, 1950, 2010)
    ind = r.randint(2, 899)
    n = int(f"{day:02d}{m:02d}{y % 100:02d}{ind:03d}")
    sign = "-" if y < 2000 else "A"
    return f"{day:02d}{m:02d}{y % 100:02d}{sign}{ind:03d}{'0123456789ABCDEFHJKLMNPRSTUVWXY'[n % 31]}"


def id_cpr(r):
    w = [4, 3, 2, 7, 6, 5, 4, 3, 2, 1]
    while True:
        y, m, day = date_parts(r, 1950, 1999)
        seq = r.choice("0123") + digits(r, 3)  # 7th digit 0-3: born 1900-1999
        n = f"{day:02d}{m:02d}{y % 100:02d}{seq}"
        if weighted(n, w) % 11 == 0:
            return n


def id_be_nn(r):
    y, m, day = date_parts(r, 1950, 2008)
    p = f"{y % 100:02d}{m:02d}{day:02d}{r.randint(1, 997):03d}"
    base = int(("2" if y >= 2000 else "") + p)
    return p + f"{97 - base % 97:02d}"


def id_pt_nif(r):
    p = r.choice("123") + digits(r, 7)
    c = 11 - weighted(p, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
    return p + str(0 if c >= 10 else c)


def id_rut(r):
    body = str(r.randint(5_000_000, 25_999_999))
    s = sum(int(c) * w for c, w in zip(reversed(body), [2, 3, 4, 5, 6, 7] * 2, strict=False))
    v = 11 - s % 11
    return body + {11: "0", 10: "K"}.get(v, str(v))


CURP_ALPHA = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def id_curp(r):
    """CURP with a consistent name (first four letters and internal consonants), check digit."""
    pat, mat, given, cons, sex = r.choice([
        ("GARCIA", "LOPEZ", "MARIANA", "RPR", "M"), ("HERNANDEZ", "RUIZ", "JAVIER", "RZV", "H"),
        ("MARTINEZ", "SOTO", "LUCIA", "RTC", "M"), ("RAMIREZ", "VEGA", "EDUARDO", "MGD", "H"),
        ("TORRES", "DIAZ", "FERNANDA", "RZR", "M"), ("FLORES", "MORA", "ALEJANDRO", "LRL", "H")])
    first_vowel = next(c for c in pat[1:] if c in "AEIOU")
    y, m, day = date_parts(r, 1960, 2005)
    state = r.choice(["DF", "JC", "NL", "PL", "VZ", "YN", "GT"])
    homo = r.choice(DG) if y < 2000 else r.choice(UP[:10])
    body = f"{pat[0]}{first_vowel}{mat[0]}{given[0]}{y % 100:02d}{m:02d}{day:02d}{sex}{state}{cons}{homo}"
    s = sum(CURP_ALPHA.index(c) * (18 - i) for i, c in enumerate(body))
    return body + str(-s % 10)


def id_fnr(r):
    w1, w2 = [3, 7, 6, 1, 8, 9, 4, 5, 2], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
    while True:
        y, m, day = date_parts(r, 1950, 1999)
        p = f"{day:02d}{m:02d}{y % 100:02d}{r.randint(0, 499):03d}"
        k1 = -weighted(p, w1) % 11
        if k1 == 10:
            continue
        k2 = -weighted(p + str(k1), w2) % 11
        if k2 != 10:
            return p + str(k1) + str(k2)


def id_ahv(r):
    p = "756" + digits(r, 9)
    return p + ean13_digit(p)


def id_tfn(r):
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    while True:
        n = nonzero(r) + digits(r, 8)
        if weighted(n, w) % 11 == 0:
            return n


def id_za(r):
    y, m, day = date_parts(r, 1950, 1999)
    p = f"{y % 100:02d}{m:02d}{day:02d}{digits(r, 4)}{r.choice('01')}8"
    return p + luhn_digit(p)


def id_cnp(r):
    y, m, day = date_parts(r, 1950, 1999)
    p = f"{r.choice('12')}{y % 100:02d}{m:02d}{day:02d}{r.choice(['12', '40', '22', '35', '04'])}{r.randint(1, 999):03d}"
    k = weighted(p, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11
    return p + str(1 if k == 10 else k)


IDS: dict[str, tuple[str, Callable, Callable[[str], str]]] = {
    # name: (label, raw maker, formatter)
    "ssn": ("ssn", id_ssn, lambda s: split(s, [3, 2, 4], "-")),
    "ssn_plain": ("ssn", id_ssn, lambda s: s),
    "nino": ("uk_nino", id_nino, lambda s: s),
    "nino_sp": ("uk_nino", id_nino, lambda s: f"{s[:2]} {s[2:4]} {s[4:6]} {s[6:8]} {s[8]}"),
    "sin": ("ca_sin", id_sin, lambda s: split(s, [3, 3, 3], " ")),
    "sin_plain": ("ca_sin", id_sin, lambda s: s),
    "nir": ("fr_nir", id_nir, lambda s: split(s, [1, 2, 2, 2, 3, 3, 2], " ")),
    "nir_plain": ("fr_nir", id_nir, lambda s: s),
    "idnr": ("de_tax_id", id_idnr, lambda s: s),
    "idnr_sp": ("de_tax_id", id_idnr, lambda s: split(s, [2, 3, 3, 3], " ")),
    "aadhaar": ("aadhaar", id_aadhaar, lambda s: split(s, [4, 4, 4], " ")),
    "aadhaar_plain": ("aadhaar", id_aadhaar, lambda s: s),
    "dni": ("es_dni", id_dni, lambda s: s),
    "nie": ("es_nie", id_nie, lambda s: f"{s[0]}-{s[1:8]}-{s[8]}"),
    "cf": ("it_codice_fiscale", id_cf, lambda s: s),
    "bsn": ("nl_bsn", id_bsn, lambda s: s),
    "cpf": ("br_cpf", id_cpf, lambda s: f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"),
    "pesel": ("pl_pesel", id_pesel, lambda s: s),
    "pnr": ("se_personnummer", id_personnummer, lambda s: s.split("|")[1][:6] + "-" + s.split("|")[1][6:]),
    "pnr12": ("se_personnummer", id_personnummer, lambda s: s.split("|")[0][:2] + s.split("|")[1]),
    "hetu": ("fi_hetu", id_hetu, lambda s: s),
    "cpr": ("dk_cpr", id_cpr, lambda s: s[:6] + "-" + s[6:]),
    "be_nn": ("be_nrn", id_be_nn, lambda s: f"{s[:2]}.{s[2:4]}.{s[4:6]}-{s[6:9]}.{s[9:]}"),
    "be_nn_plain": ("be_nrn", id_be_nn, lambda s: s),
    "nif": ("pt_nif", id_pt_nif, lambda s: s),
    "nif_sp": ("pt_nif", id_pt_nif, lambda s: split(s, [3, 3, 3], " ")),
    "rut": ("cl_rut", id_rut, lambda s: f"{int(s[:-1]):,}".replace(",", ".") + "-" + s[-1]),
    "rut_plain": ("cl_rut", id_rut, lambda s: s[:-1] + "-" + s[-1]),
    "curp": ("mx_curp", id_curp, lambda s: s),
    "fnr": ("no_fnr", id_fnr, lambda s: s),
    "fnr_sp": ("no_fnr", id_fnr, lambda s: s[:6] + " " + s[6:]),
    "ahv": ("ch_ahv", id_ahv, lambda s: f"{s[:3]}.{s[3:7]}.{s[7:11]}.{s[11:]}"),
    "tfn": ("au_tfn", id_tfn, lambda s: split(s, [3, 3, 3], " ")),
    "za_id": ("za_id", id_za, lambda s: s),
    "cnp": ("ro_cnp", id_cnp, lambda s: s),
}


def id_maker(name: str) -> Maker:
    label, raw_f, fmt = IDS[name]

    def make(r: random.Random) -> Out:
        raw = raw_f(r)
        v = fmt(raw)
        AUDIT.append((label, v, raw))
        return v, v, label
    return make


PII: dict[str, Maker] = {}
PII.update({f"tel_{k}": phone_maker(k) for k in PHONES})
PII.update({f"mail_{s}": email_maker(s) for s in ["corp", "initial", "tag", "underscore", "mixed", "sub", "paren",
                                                  "spelled", "braces", "plain"]})
PII.update({f"card_{n}": card_maker(n, " ") for n in NETWORKS})
PII.update({f"card_{n}_dash": card_maker(n, "-") for n in NETWORKS})
PII.update({f"card_{n}_raw": card_maker(n, "") for n in NETWORKS})
IBAN_CCS = ["FI", "EE", "LT", "LV", "SI", "SK", "CZ", "HU", "BG", "CY", "MT", "IS", "LI", "MC", "FR", "KW", "QA",
            "IL", "PK", "UA", "KZ", "GE", "AZ", "DE", "GB", "PL", "SE", "DK", "NO"]
PII.update({f"iban_{c.lower()}": iban_maker(c) for c in IBAN_CCS})
PII.update({f"iban_{c.lower()}_sp": iban_maker(c, True) for c in IBAN_CCS})
PII.update({f"id_{n}": id_maker(n) for n in IDS})

MAKERS: dict[str, Maker] = {**SECRETS, **PII}

# ================================================================================================
# fillers (never canaries)
# ================================================================================================


FILLERS: dict[str, Callable[[random.Random], str]] = {
    "sha7": lambda r: pick(r, 7, HEX), "sha12": lambda r: pick(r, 12, HEX), "sha10": lambda r: pick(r, 10, HEX),
    "sha40": lambda r: pick(r, 40, HEX),
    "sha64": lambda r: pick(r, 64, HEX), "md5": lambda r: pick(r, 32, HEX), "uuid": v4,
    "int5": lambda r: str(r.randint(10000, 99999)),
    "ver": lambda r: f"{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 20)}",
    "ip": lambda r: f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
    "digest": lambda r: "sha256:" + pick(r, 64, HEX),
    "sri": lambda r: "sha384-" + b64s(r.randbytes(48)),
    "ed25519": lambda r: b64s(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)),
    "epoch_ms": lambda r: str(1733000000000 + r.randrange(10**10)),
    "trace": lambda r: pick(r, 32, HEX), "span": lambda r: pick(r, 16, HEX),
    "age_pub": lambda r: pick(r, 58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"),
    "k8s_hash": lambda r: pick(r, 10, "bcdfghjklmnpqrstvwxz2456789") + "-" + pick(r, 5, "bcdfghjklmnpqrstvwxz2456789"),
}

# ================================================================================================
# rendering
# ================================================================================================

SLOT = re.compile(r"⟦([a-z0-9_]+)⟧")   # a planted value
FILL = re.compile(r"⟨([a-z0-9_]+)⟩")   # a non-secret filler


def render(r: random.Random, template: str) -> dict[str, object]:
    canaries: list[str] = []
    kinds: list[str] = []
    text = FILL.sub(lambda m: FILLERS[m.group(1)](r), template)

    def plant(m: re.Match[str]) -> str:
        value, canary, kind = MAKERS[m.group(1)](r)
        assert canary and canary in value, m.group(1)
        canaries.append(canary)
        kinds.append(kind)
        return value

    text = SLOT.sub(plant, text)
    return {"text": text, "canaries": canaries, "kinds": kinds}


# ================================================================================================
# positive rows: secrets
# ================================================================================================

SECRET_ROWS = [
    # --- AI APIs
    "$ export OPENAI_API_KEY='⟦openai⟧'\n$ python eval_rag.py --model gpt-4.1-mini",
    "⟦openai_legacy⟧ <- this is the old key from the 2023 hackathon repo, still works?? please rotate",
    "client = anthropic.Anthropic(api_key=\"⟦anthropic⟧\")  # TODO move to env before merge",
    "[review] nit: hardcoded `⟦anthropic⟧` in conftest.py line 12; use monkeypatch.setenv instead",
    "GROQ_API_KEY: ⟦groq⟧",
    "xai:\n  base_url: https://api.x.ai/v1\n  api_key: \"⟦xai⟧\"",
    "perplexity returned 401 for key ⟦perplexity⟧ (org: research-sandbox)",
    "litellm --model openrouter/meta-llama/llama-3.3-70b --api_key ⟦openrouter⟧ --port 4000",
    "HF_TOKEN=⟦hf⟧ accelerate launch train_lora.py --config configs/qwen-7b.yaml",
    ("Traceback (most recent call last):\n  File \"gen.py\", line 41, in <module>\n    out = replicate.run(MODEL, "
     "input=args)\nreplicate.exceptions.ReplicateError: invalid token 'r8_…'; REPLICATE_API_TOKEN=⟦replicate⟧ was read "
     "from .env.local"),
    "MISTRAL_API_KEY=⟦mistral⟧",
    "deepseek_api_key = \"⟦deepseek⟧\"  # platform.deepseek.com, billing under R&D",
    "gemini:\n  key: ⟦gapi⟧\n  model: gemini-2.0-flash",
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-pro:generateContent?key=⟦gapi⟧",
    "LANGFUSE_PUBLIC_KEY=pk-lf-⟨uuid⟩\nLANGFUSE_SECRET_KEY=⟦langfuse⟧\nLANGFUSE_HOST=https://cloud.langfuse.com",
    "pc = Pinecone(api_key='⟦pinecone⟧'); index = pc.Index('support-kb')",
    "xi-api-key: ⟦elevenlabs⟧",
    "wandb login ⟦wandb⟧",
    # --- cloud providers
    "[default]\naws_access_key_id = ⟦aws_id⟧\naws_secret_access_key = ⟦aws_secret⟧\nregion = eu-central-1",
    "AWS_ACCESS_KEY_ID=⟦aws_id⟧ AWS_SECRET_ACCESS_KEY=⟦aws_secret⟧ aws s3 sync ./dist s3://static-assets-prod",
    ("botocore.exceptions.ClientError: An error occurred (InvalidAccessKeyId) when calling the PutObject operation: The "
     "AWS Access Key Id you provided does not exist in our records. (key=⟦aws_id⟧)"),
    "AZURE_STORAGE_CONNECTION_STRING=\"⟦azure_storage⟧\"",
    "  \"AzureAd\": { \"TenantId\": \"⟨uuid⟩\", \"ClientId\": \"⟨uuid⟩\", \"ClientSecret\": \"⟦azure_secret⟧\" }",
    "az login --service-principal -u ⟨uuid⟩ -p ⟦azure_secret⟧ --tenant ⟨uuid⟩",
    "download link for the auditors (valid one week): ⟦azure_sas⟧",
    "AZURE_DEVOPS_EXT_PAT=⟦azure_devops⟧ az devops configure --defaults organization=https://dev.azure.com/fjordtech",
    "git clone https://build:⟦azure_devops⟧@dev.azure.com/fjordtech/payments/_git/ledger",
    ("{\n  \"type\": \"service_account\",\n  \"project_id\": \"kestrel-ml-prod\",\n  \"private_key_id\": \"⟨sha40⟩\",\n  "
     "\"private_key\": \"⟦gcp_key⟧\",\n  \"token_uri\": \"https://oauth2.googleapis.com/token\"\n}"),
    "doctl auth init --access-token ⟦do⟧",
    "ALIBABA_CLOUD_ACCESS_KEY_ID=⟦alibaba⟧",
    "tencentcloud:\n  secret_id: ⟦tencent⟧\n  region: ap-guangzhou",
    "heroku config:set -a billing-api HEROKU_API_KEY=⟦heroku⟧",
    "NETLIFY_AUTH_TOKEN: ⟦netlify⟧ # from user settings > applications",
    "fly deploy --access-token \"⟦flyio⟧\"",
    "curl -s -H \"Authorization: Bearer ⟦render⟧\" https://api.render.com/v1/services?limit=20",
    "provider \"cloudflare\" {\n  api_token = \"⟦cf_token⟧\"\n}",
    "X-Auth-Email: ⟦mail_corp⟧\nX-Auth-Key: ⟦cf_global⟧",
    # --- payments
    "STRIPE_SECRET_KEY=⟦stripe⟧",
    "stripe.api_key = \"⟦stripe⟧\"",
    "stripe listen --forward-to localhost:8000/webhooks/stripe  # signing secret: ⟦stripe⟧",
    "SQUARE_ACCESS_TOKEN=\"⟦square⟧\"",
    "gateway = braintree.BraintreeGateway(access_token=\"⟦braintree⟧\")",
    "plaid item ⟨uuid⟩ → access_token ⟦plaid⟧ (production, Chase)",
    "razorpay:\n  key_id: ⟦razorpay_id⟧\n  key_secret: ⟦razorpay_secret⟧",
    "const mollie = createMollieClient({ apiKey: '⟦mollie⟧' });",
    "PAYSTACK_SECRET_KEY=⟦paystack⟧",
    "Flutterwave secret for the Lagos storefront: ⟦flutterwave⟧",
    # --- chat and webhooks
    "SLACK_TOKEN=⟦slack⟧",
    "app = App(token=os.environ.get(\"SLACK_BOT_TOKEN\", \"⟦slack⟧\"))",
    ("alertmanager:\n  receivers:\n    - name: oncall\n      slack_configs:\n        - api_url: ⟦slack_hook⟧\n          "
     "channel: '#sev-alerts'"),
    "client.run('⟦discord⟧')",
    "DISCORD_WEBHOOK=⟦discord_hook⟧",
    "curl -s \"https://api.telegram.org/bot⟦telegram⟧/sendMessage?chat_id=-100⟨int5⟩&text=backup+ok\"",
    "TELEGRAM_BOT_TOKEN: '⟦telegram⟧'",
    "teams_url = \"⟦teams_hook⟧\"",
    # --- email / messaging SaaS
    "twilio api:core:messages:create --from \"$FROM\" --to \"$TO\" --body hi  # api key ⟦twilio⟧",
    "SENDGRID_API_KEY=⟦sendgrid⟧",
    "mg = Mailgun(domain='mg.northwind-logistics.io', api_key='⟦mailgun⟧')",
    "mailchimp_marketing.Client().set_config({\"api_key\": \"⟦mailchimp⟧\", \"server\": \"us6\"})",
    "api-key: ⟦brevo⟧",
    "RESEND_API_KEY=⟦resend⟧ npm run email:preview",
    # --- source hosting and CI
    "git remote set-url origin https://x-access-token:⟦github⟧@github.com/kestrel-labs/infra.git",
    "GH_TOKEN=⟦github⟧ gh pr list --state merged --limit 200",
    "⟦github⟧",
    "GITLAB_TOKEN=⟦gitlab⟧",
    "curl --header \"PRIVATE-TOKEN: ⟦gitlab⟧\" \"https://gitlab.fjordtech.no/api/v4/projects/118/jobs?scope=failed\"",
    "bitbucket-pipelines: BB_AUTH_STRING=deploy-bot:⟦bitbucket⟧",
    "sonar-scanner -Dsonar.projectKey=ledger -Dsonar.host.url=https://sonar.fjordtech.no -Dsonar.token=⟦sonar⟧",
    "circleci-cli setup --token ⟦circleci⟧ --host https://circleci.com",
    "bk configure --org fjordtech --token ⟦buildkite⟧",
    # --- package registries
    "//registry.npmjs.org/:_authToken=⟦npm⟧",
    "[pypi]\n  username = __token__\n  password = ⟦pypi⟧",
    "twine upload dist/* -u __token__ -p ⟦pypi⟧",
    "GEM_HOST_API_KEY=\"⟦rubygems⟧\" gem push pkg/ledger-2.4.0.gem",
    "dotnet nuget push bin/Release/*.nupkg --api-key ⟦nuget⟧ --source https://api.nuget.org/v3/index.json",
    "[registry]\ntoken = \"⟦crates⟧\"",
    "{:deploy-repositories [[\"clojars\" {:username \"kestrel\" :password \"⟦clojars⟧\"}]]}",
    "echo ⟦docker⟧ | docker login -u kestrelci --password-stdin",
    "jf config add art --url=https://fjordtech.jfrog.io --access-token=⟦jfrog⟧ --interactive=false",
    # --- databases
    "DATABASE_URL=postgresql://orders_rw:⟦urlpw⟧@pg-primary.internal:5432/orders?sslmode=require",
    "mysql://reporting:⟦urlpw⟧@10.20.4.17:3306/bi",
    "MONGO_URI=\"mongodb+srv://atlas-admin:⟦urlpw⟧@cluster0.x7k2p.mongodb.net/?retryWrites=true&w=majority\"",
    "redis.from_url('rediss://default:⟦urlpw⟧@eu1-gentle-owl-31337.upstash.io:6379')",
    "CELERY_BROKER_URL = 'amqps://worker:⟦urlpw⟧@rabbit.fjordtech.no:5671/jobs'",
    "Server=tcp:sql-ledger.database.windows.net,1433;Initial Catalog=ledger;User ID=ledger_app;Password=⟦pw⟧;Encrypt=True;",
    "DB_PASSWORD=⟦pscale⟧ # planetscale branch password for main",
    "SUPABASE_ACCESS_TOKEN=⟦supabase⟧ supabase link --project-ref ⟨sha10⟩",
    "SUPABASE_SERVICE_ROLE_KEY=⟦supabase_jwt⟧",
    "psql \"host=db.internal port=5432 user=etl password=⟦pw⟧ dbname=warehouse\"",
    # --- JWTs and private keys
    "Authorization: Bearer ⟦jwt⟧",
    "[2025-03-14 09:12:44,117] DEBUG auth.middleware: decoded claims for token=⟦jwt⟧ sub ok, scope ok",
    "document.cookie = \"session=⟦jwt⟧; Path=/; Secure\"",
    "⟦pem_rsa⟧",
    "cat > ~/.ssh/id_ed25519 <<'EOF'\n⟦pem_ssh⟧\nEOF",
    "tls:\n  key: |\n⟦pem_ec⟧",
    "the customer attached their signing key to the ticket (!!):\n⟦pem_pkcs8⟧",
    "⟦pem_enc⟧\npassphrase is in the vault entry 'release-signing'",
    "legacy/deploy_dsa.key:\n⟦pem_dsa⟧",
    # --- secrets managers and infra
    "export VAULT_TOKEN=⟦vault⟧",
    "DOPPLER_TOKEN=⟦doppler⟧ doppler run -- ./server",
    "OP_SERVICE_ACCOUNT_TOKEN=⟦onepassword⟧",
    "# created: 2025-02-11T10:04:51+01:00\n# public key: age1⟨age_pub⟩\n⟦age⟧",
    "credentials \"app.terraform.io\" {\n  token = \"⟦terraform⟧\"\n}",
    "- name: PULUMI_ACCESS_TOKEN\n  value: \"⟦pulumi⟧\"",
    "tailscale up --authkey=⟦tailscale⟧ --hostname=ci-runner-07",
    "ngrok config add-authtoken ⟦ngrok⟧",
    # --- observability
    "DD_API_KEY=⟦datadog⟧ DD_SITE=datadoghq.eu helm upgrade datadog datadog/datadog -f values.yaml",
    "newrelic:\n  api_key: ⟦newrelic⟧",
    "SENTRY_AUTH_TOKEN=⟦sentry⟧ sentry-cli sourcemaps upload ./build",
    "GRAFANA_CLOUD_TOKEN=⟦grafana_cloud⟧",
    "curl -H \"Authorization: Bearer ⟦grafana_sa⟧\" https://grafana.fjordtech.no/api/dashboards/uid/⟨sha10⟩",
    "Api-Token ⟦dynatrace⟧",
    # --- SaaS
    "JIRA_API_TOKEN=⟦atlassian⟧",
    "LINEAR_API_KEY=\"⟦linear⟧\"",
    "notion = Client(auth=\"⟦notion⟧\")",
    "X-Figma-Token: ⟦figma⟧",
    "AIRTABLE_PAT=⟦airtable⟧",
    "hubspot private app token ⟦hubspot⟧ has crm.objects.contacts.write, revoke after import",
    "Authorization: ⟦clickup⟧",
    "okta:\n  client:\n    orgUrl: https://fjordtech.okta.com\n    token: ⟦okta⟧",
    "contentful space export --space-id ⟨sha10⟩ --management-token ⟦contentful⟧",
    "TYPEFORM_TOKEN=⟦typeform⟧",
    "MAPBOX_SECRET_TOKEN=⟦mapbox⟧",
    "SHOPIFY_ADMIN_TOKEN=⟦shopify⟧",
    "TWITTER_BEARER_TOKEN=⟦twitter⟧",
    "graph.facebook.com/v19.0/me/accounts?access_token=⟦facebook⟧",
    "FCM legacy server key (deprecated, migrate to v1!): key=⟦fcm⟧",
    "SECRET_KEY = '⟦django⟧'",
    "shippo:\n  token: ⟦shippo⟧  # live mode, labels are billed",
    "newman run collection.json --env-var apiKey=⟦postman⟧",
    "LD_API_KEY=⟦launchdarkly⟧",
    # --- generic tokens / basic auth
    "curl -u deploy:⟦urlpw⟧ https://nexus.fjordtech.no/repository/releases/",
    "Authorization: Basic ⟦basic⟧",
    "X-Api-Token: ⟦bearer⟧",
    "requests.get(url, headers={'Authorization': f'Bearer ⟦bearer⟧'}, timeout=10)",
    ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: smtp-relay\ntype: Opaque\ndata:\n  username: c210cC1yZWxheQ==\n  "
     "password: ⟦pw_b64⟧"),
]

# ================================================================================================
# positive rows: passwords in prose and key-value form, many languages and styles
# ================================================================================================

PASSWORD_ROWS = [
    "hey, the staging admin login is admin / ⟦pw⟧ — don't paste it in #general pls",
    "[10:42] maeve: what's the wifi here?\n[10:42] ilse: network Kestrel-Guest, pass ⟦pw⟧",
    "$ mysql -u root -p'⟦pw⟧' -h 127.0.0.1 inventory",
    "  412  sshpass -p '⟦pw⟧' ssh -l ops bastion-2.fjordtech.no",
    "  1093  echo '⟦pw⟧' | sudo -S systemctl restart nginx",
    "spring.datasource.password=⟦pw⟧",
    "db:\n  host: postgres\n  user: keycloak\n  password: \"⟦pw⟧\"",
    "{\"smtp\": {\"host\": \"smtp.sapo.pt\", \"port\": 587, \"user\": \"alerts\", \"pass\": \"⟦pw⟧\"}}",
    "REDIS_PASSWORD=⟦pw⟧",
    "[database]\nhost = 10.0.3.8\npassword = ⟦pw⟧",
    "2025-04-02 07:31:09 WARN  LoginService - retrying with fallback credentials user=svc_batch password=⟦pw⟧",
    ("java.sql.SQLException: Access denied for user 'report'@'10.0.2.15' (using password: YES) "
     "[jdbc:mysql://db:3306/rpt?user=report&password=⟦pw⟧]"),
    "review: please don't commit `KEYSTORE_PASS = \"⟦pw⟧\"`, read it from the CI secret instead",
    "> the vpn password changed to ⟦pw⟧ as of today, update your profiles",
    "Das Passwort für das NAS ist ⟦pw⟧, bitte nicht weitergeben.",
    "Le mot de passe du compte admin : ⟦pw⟧",
    "La contraseña nueva del router es ⟦pw⟧ (la cambié ayer).",
    "A senha do servidor de homologação é ⟦pw⟧",
    "La password di root sul server di backup è \"⟦pw⟧\"",
    "Het wachtwoord voor de testomgeving: ⟦pw⟧",
    "Hasło do panelu: ⟦pw⟧ — zmień po pierwszym logowaniu",
    "Lösenordet till kundportalen är ⟦pw⟧",
    "Palvelimen salasana on ⟦pw⟧",
    "Heslo k databázi je ⟦pw⟧",
    "Sunucu şifresi: ⟦pw⟧",
    "Пароль от почты: ⟦pw⟧",
    "Новий пароль до VPN — ⟦pw⟧",
    "Ο κωδικός του Wi-Fi είναι ⟦pw⟧",
    "管理画面のパスワードは「⟦pw⟧」です。",
    "测试环境数据库密码：⟦pw⟧",
    "관리자 비밀번호는 ⟦pw⟧ 입니다",
    "Mật khẩu máy chủ là ⟦pw⟧",
    "Kata sandi akun admin: ⟦pw⟧",
    "सर्वर का पासवर्ड ⟦pw⟧ है",
    "passphrase for the gpg key is ⟦pw⟧",
    "<add key=\"SmtpPassword\" value=\"⟦pw⟧\" />",
    "ansible_become_pass: ⟦pw⟧",
    "POSTGRES_PASSWORD: ⟦pw⟧",
]

# ================================================================================================
# positive rows: personal data
# ================================================================================================

PERSONAL_ROWS = [
    # phones, one or several, national and international
    "Call me on ⟦tel_us_paren⟧ if the deploy fails tonight",
    "⟦tel_us_intl⟧ (cell) / ⟦tel_ca_paren⟧ (Vancouver office)",
    "support line: ⟦tel_us_dash⟧",
    "Mob: ⟦tel_gb_mobile⟧",
    "ring the London desk on ⟦tel_gb_london⟧ or Leeds on ⟦tel_gb_leeds⟧",
    "WhatsApp ⟦tel_gb_intl⟧",
    "Ciara (Dublin): ⟦tel_ie_dublin⟧, mobile ⟦tel_ie_mobile⟧",
    "Portable : ⟦tel_fr_mobile⟧ — bureau ⟦tel_fr_lyon⟧",
    "tel=⟦tel_fr_intl_mobile⟧",
    "Handy ⟦tel_de_mobile⟧, Büro München ⟦tel_de_munich⟧",
    "Rückruf bitte unter ⟦tel_de_berlin⟧",
    "Erreichbar unter ⟦tel_at_mobile⟧",
    "Natel ⟦tel_ch_mobile⟧ · Lausanne ⟦tel_ch_lausanne⟧",
    "Bel me even op ⟦tel_nl_mobile⟧ of kantoor ⟦tel_nl_amsterdam⟧",
    "GSM ⟦tel_be_mobile⟧ / Antwerpen ⟦tel_be_antwerp⟧",
    "contact Luxembourg: ⟦tel_lu_mobile⟧",
    "Móvil: ⟦tel_es_mobile⟧; oficina Barcelona ⟦tel_es_bcn⟧",
    "telemóvel ⟦tel_pt_mobile⟧, Lisboa ⟦tel_pt_lisbon⟧",
    "cell. ⟦tel_it_mobile⟧ — ufficio Milano ⟦tel_it_milan⟧",
    "κινητό ⟦tel_gr_mobile⟧, γραφείο ⟦tel_gr_athens⟧",
    "tel. ⟦tel_pl_mobile⟧ lub stacjonarny ⟦tel_pl_warsaw⟧",
    "mobil ⟦tel_cz_mobile⟧ / ⟦tel_sk_mobile⟧ (Bratislava)",
    "Telefon: ⟦tel_hu_mobile⟧ vagy ⟦tel_hu_national⟧",
    "Telefon ⟦tel_ro_mobile⟧ · ⟦tel_bg_mobile⟧ (Sofia)",
    "mob. ⟦tel_hr_mobile⟧, ⟦tel_si_mobile⟧",
    "Ring ⟦tel_se_mobile⟧ eller växeln ⟦tel_se_stockholm⟧",
    "Ring meg på ⟦tel_no_mobile⟧ / ⟦tel_no_national⟧",
    "Mobil: ⟦tel_dk_mobile⟧",
    "puh. ⟦tel_fi_mobile⟧ tai ⟦tel_fi_intl⟧",
    "sími ⟦tel_is_mobile⟧",
    "Tallinn ⟦tel_ee_mobile⟧ · Rīga ⟦tel_lv_mobile⟧ · Vilnius ⟦tel_lt_mobile⟧",
    "тел. ⟦tel_ua_mobile⟧, ⟦tel_ua_national⟧",
    "Cep: ⟦tel_tr_mobile⟧ — ofis ⟦tel_tr_istanbul⟧",
    "נייד ⟦tel_il_mobile⟧",
    "Dubai ⟦tel_ae_mobile⟧ | Riyadh ⟦tel_sa_mobile⟧ | Cairo ⟦tel_eg_mobile⟧",
    "Casablanca: ⟦tel_ma_mobile⟧",
    "Lagos ⟦tel_ng_mobile⟧, Nairobi ⟦tel_ke_mobile⟧, Accra ⟦tel_gh_mobile⟧",
    "SA office ⟦tel_za_capetown⟧, after hours ⟦tel_za_mobile⟧",
    "ph: ⟦tel_in_mobile⟧ / ⟦tel_in_national⟧ / Delhi landline ⟦tel_in_delhi⟧",
    "Karachi ⟦tel_pk_mobile⟧; Dhaka ⟦tel_bd_mobile⟧",
    "手机 ⟦tel_cn_mobile⟧，上海办公室 ⟦tel_cn_shanghai⟧",
    "HK ⟦tel_hk_mobile⟧ / 台北 ⟦tel_tw_taipei⟧ / 手機 ⟦tel_tw_mobile⟧",
    "携帯: ⟦tel_jp_mobile⟧、海外から ⟦tel_jp_intl⟧、大阪 ⟦tel_jp_osaka⟧",
    "휴대폰 ⟦tel_kr_mobile⟧, 서울 사무실 ⟦tel_kr_seoul⟧",
    "SG hp ⟦tel_sg_mobile⟧, KL ⟦tel_my_mobile⟧",
    "โทร ⟦tel_th_mobile⟧",
    "SĐT: ⟦tel_vn_mobile⟧",
    "HP/WA ⟦tel_id_mobile⟧",
    "Globe ⟦tel_ph_mobile⟧",
    "mob ⟦tel_au_mobile⟧, Melbourne office ⟦tel_au_melbourne⟧",
    "NZ: ⟦tel_nz_mobile⟧ or ⟦tel_nz_auckland⟧",
    "Cel. ⟦tel_mx_cdmx⟧ / Monterrey ⟦tel_mx_monterrey⟧",
    "Celular: ⟦tel_br_mobile⟧ ou ⟦tel_br_intl⟧",
    "Cel Buenos Aires ⟦tel_ar_mobile⟧, Santiago ⟦tel_cl_mobile⟧",
    "Bogotá ⟦tel_co_mobile⟧, Lima ⟦tel_pe_mobile⟧",
    "name,phone,city\nT. Mahlangu,⟦tel_za_mobile⟧,Johannesburg\nA. Rinaldi,⟦tel_it_mobile⟧,Torino",
    "{\"contact\": {\"name\": \"Hanne Andersen\", \"phone\": \"⟦tel_dk_mobile⟧\"}}",
    "<a href=\"tel:⟦tel_es_bcn⟧\">Llámanos</a>",
    # e-mails
    "From: Radek Novak <⟦mail_corp⟧>\nTo: ⟦mail_initial⟧\nSubject: Re: invoice 2025-0117",
    "Co-authored-by: Sanna Lindgren <⟦mail_plain⟧>",
    "Signed-off-by: Jiho Kim <⟦mail_mixed⟧>",
    "⟦mail_tag⟧ bounced: 550 5.1.1 mailbox unavailable",
    "auth: login failed for user=⟦mail_underscore⟧ from ⟨ip⟩",
    "write to me at ⟦mail_paren⟧, I check it weekly",
    "contact: ⟦mail_spelled⟧",
    "send the NDA to ⟦mail_braces⟧ (spam filter eats the @ version)",
    "dn: uid=okyilmaz,ou=people,dc=fjordtech,dc=no\nmail: ⟦mail_sub⟧",
    "[\"⟦mail_corp⟧\", \"⟦mail_plain⟧\", \"⟦mail_tag⟧\"]",
    "mailto:⟦mail_corp⟧?subject=Access%20request",
    "git config user.email \"⟦mail_plain⟧\"",
    "Hi team, I'm leaving Friday; reach me privately at ⟦mail_underscore⟧.",
    # payment cards
    "card: ⟦card_visa⟧ exp 09/28 cvc on file",
    "Karte ⟦card_mc_dash⟧ wurde abgelehnt (Code 05)",
    "amex ⟦card_amex⟧, billing zip 02139",
    "charge failed for ⟦card_discover_raw⟧",
    "{\"pan\": \"⟦card_jcb_raw⟧\", \"exp\": \"11/27\"}",
    "Карта Мир ⟦card_mir⟧",
    "Maestro ⟦card_maestro⟧ — the customer read it out on the call",
    "银联卡号 ⟦card_unionpay⟧",
    "RuPay: ⟦card_rupay_dash⟧",
    "visa (old 13-digit) ⟦card_visa13⟧",
    "Diners ⟦card_diners⟧",
    "PAN=⟦card_mc_raw⟧ AMT=129.90 CUR=EUR RC=51",
    # IBANs
    "Tilinumero ⟦iban_fi_sp⟧",
    "IBAN: ⟦iban_ee⟧ (Swedbank)",
    "Sąskaita ⟦iban_lt⟧",
    "Konts ⟦iban_lv_sp⟧",
    "TRR ⟦iban_si⟧",
    "Číslo účtu (IBAN) ⟦iban_sk_sp⟧",
    "Platba na účet ⟦iban_cz⟧",
    "Számlaszám: ⟦iban_hu_sp⟧",
    "Банкова сметка ⟦iban_bg⟧",
    "Payee IBAN ⟦iban_cy⟧",
    "BOV ⟦iban_mt_sp⟧",
    "Reikningur ⟦iban_is⟧",
    "Konto ⟦iban_li⟧",
    "RIB Monaco : ⟦iban_mc_sp⟧",
    "Virement sur ⟦iban_fr⟧ avant le 5",
    "beneficiary ⟦iban_kw⟧ (NBK)",
    "QNB account ⟦iban_qa_sp⟧",
    "חשבון ⟦iban_il⟧",
    "Meezan? no, HBL: ⟦iban_pk⟧",
    "Рахунок ⟦iban_ua⟧",
    "ИИК ⟦iban_kz⟧",
    "ანგარიში ⟦iban_ge⟧",
    "Hesab ⟦iban_az_sp⟧",
    "iban=⟦iban_de⟧&bic=COBADEFFXXX",
    "sort-coded account in IBAN form: ⟦iban_gb_sp⟧",
    "Nr rachunku: ⟦iban_pl_sp⟧",
    "Kontonummer ⟦iban_se⟧; Danish account ⟦iban_dk⟧; Norwegian ⟦iban_no_sp⟧",
    # national identifiers
    "SSN ⟦id_ssn⟧ on the W-9 scan",
    "applicant ssn=⟦id_ssn_plain⟧ dob=1984-06-02",
    "NI number: ⟦id_nino⟧",
    "National Insurance No. ⟦id_nino_sp⟧",
    "Social Insurance Number (NAS) — ⟦id_sin⟧",
    "NAS/SIN ⟦id_sin_plain⟧",
    "n° de sécurité sociale ⟦id_nir⟧",
    "NIR=⟦id_nir_plain⟧",
    "Steuer-ID ⟦id_idnr⟧",
    "Identifikationsnummer: ⟦id_idnr_sp⟧",
    "e-KYC done, Aadhaar no. ⟦id_aadhaar⟧",
    "aadhaar_no: \"⟦id_aadhaar_plain⟧\"",
    "DNI ⟦id_dni⟧",
    "NIE: ⟦id_nie⟧",
    "Codice fiscale: ⟦id_cf⟧",
    "BSN ⟦id_bsn⟧",
    "CPF ⟦id_cpf⟧",
    "PESEL: ⟦id_pesel⟧",
    "pesel=⟦id_pesel⟧ imię=Wiktor",
    "Personnummer ⟦id_pnr⟧",
    "personnummer: ⟦id_pnr12⟧",
    "Henkilötunnus ⟦id_hetu⟧",
    "hetu=⟦id_hetu⟧",
    "CPR-nr. ⟦id_cpr⟧",
    "Rijksregisternummer ⟦id_be_nn⟧",
    "numéro national: ⟦id_be_nn_plain⟧",
    "NIF ⟦id_nif⟧",
    "contribuinte n.º ⟦id_nif_sp⟧",
    "RUT ⟦id_rut⟧",
    "run=⟦id_rut_plain⟧",
    "CURP: ⟦id_curp⟧",
    "Fødselsnummer ⟦id_fnr⟧",
    "fnr: ⟦id_fnr_sp⟧",
    "AHV-Nr. ⟦id_ahv⟧",
    "TFN ⟦id_tfn⟧",
    "SA ID ⟦id_za_id⟧",
    "CNP ⟦id_cnp⟧",
    # mixed records
    "employee,email,phone,tax_id\nPietro Rinaldi,⟦mail_corp⟧,⟦tel_it_mobile⟧,⟦id_cf⟧",
    "{\"name\": \"Anouk Bakker\", \"bsn\": \"⟦id_bsn⟧\", \"iban\": \"⟦iban_de⟧\", \"email\": \"⟦mail_plain⟧\"}",
    "Patient: W. Kowalski, PESEL ⟦id_pesel⟧, tel. ⟦tel_pl_mobile⟧",
    "Kund: Oskar Lindgren, pnr ⟦id_pnr⟧, ⟦tel_se_mobile⟧, ⟦mail_plain⟧",
    "Asiakas ⟦id_hetu⟧ / ⟦iban_fi⟧",
    "Cliente: Mariana García, CURP ⟦id_curp⟧, cel ⟦tel_mx_cdmx⟧",
    "Titular RUT ⟦id_rut⟧ — cuenta vista, fono ⟦tel_cl_mobile⟧",
    "loan application: SSN ⟦id_ssn⟧, card ⟦card_visa⟧, phone ⟦tel_us_paren⟧",
]

# ================================================================================================
# clean rows: near misses that must stay as written
# ================================================================================================

_B64_FIXTURES = {
    "greeting": b64s(b"hello from the test suite"),
    "json": b64s(b'{"user":"test","role":"viewer"}'),
    "lorem": b64s(b"lorem ipsum dolor sit amet"),
    "csv": b64s(b"id,name\n1,widget\n2,gadget\n"),
    "jwt_head": b64u(b'{"alg":"HS256","typ":"JWT"}'),
}

CLEAN_ROWS = [
    # hashes, ids, digests
    "Merged ⟨sha7⟩ into main; CI is green on ⟨sha40⟩.",
    ("commit ⟨sha40⟩\nMerge: ⟨sha7⟩ ⟨sha7⟩\nDate:   Fri Mar 14 16:02:11 2025 +0100\n\n    Merge pull request #2291 from "
     "kestrel-labs/fix/retry-jitter"),
    "git log --oneline ⟨sha7⟩..⟨sha7⟩ -- src/ledger/",
    "bisect: first bad commit is ⟨sha10⟩ (\"switch decimal rounding to HALF_EVEN\")",
    "docker pull ghcr.io/kestrel-labs/api@⟨digest⟩",
    "FROM python:3.12.2-slim@⟨digest⟩",
    "sha256sum dist/ledger-2.4.0.tar.gz\n⟨sha64⟩  dist/ledger-2.4.0.tar.gz",
    "md5 of the golden fixture changed to ⟨md5⟩ after the CSV column reorder",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 is the SHA-256 of an empty file, so the upload was empty",
    "const EMPTY_SHA1 = 'da39a3ee5e6b4b0d3255bfef95601890afd80709';",
    "<script src=\"https://cdn.example.org/chart.umd.js\" integrity=\"⟨sri⟩\" crossorigin=\"anonymous\"></script>",
    "request_id=⟨uuid⟩ method=GET path=/v2/orders status=200 duration_ms=184",
    "X-Request-Id: ⟨uuid⟩",
    "Idempotency-Key: ⟨uuid⟩",
    "trace_id=⟨trace⟩ span_id=⟨span⟩ service=checkout",
    "Sentry event ⟨trace⟩ is the same crash as the one in ENG-3317.",
    "https://app.kestrel-labs.example/orgs/⟨uuid⟩/settings/members",
    "pod/ledger-api-⟨k8s_hash⟩ 1/1 Running 0 3h12m",
    "Grafana dashboard uid ⟨sha10⟩, panel 14 (p99 latency by route)",
    "vpc-0a1b2c3d4e5f67890 / subnet-04c7e1f2a9b3d5e68 / sg-0f3e2d1c0b9a87654",
    "ami-0c55b159cbfafe1f0 is the Ubuntu 22.04 image we pin in the launch template",
    "arn:aws:s3:::kestrel-artifacts/builds/*",
    "go.mod: github.com/kestrel-labs/ledger v1.4.2-0.20250310114307-⟨sha12⟩",
    "The cache key is sha1(tenant_id + ':' + sku) truncated to 16 hex chars, e.g. ⟨span⟩.",
    # versions, dates, numbers
    "Bump pydantic from 2.9.2 to 2.10.6 and fastapi from 0.115.4 to 0.115.11",
    "Release v⟨ver⟩ — 2025-03-18",
    "semver with build metadata: 1.0.0-alpha.1+build.20250314.7",
    "node v20.11.1, npm 10.2.4, python 3.12.2, go 1.22.5",
    "Chrome 134.0.6998.89 on Windows 10.0.19045.5247",
    "Meeting moved to 14:30 CET on 2025-04-09; agenda in the usual doc.",
    "date range 2024-01-01..2024-12-31, 366 days because of the leap year",
    "ISO 8601 duration P1Y2M10DT2H30M parses to 432 days and 2.5 hours",
    "timestamp ⟨epoch_ms⟩ in the event is milliseconds since epoch",
    "user count 1,254,903; events today 48,221,907; p95 latency 212 ms",
    "invoice INV-2025-004417, total €1,249.00, due in 30 days",
    "Amount 4,111.11 USD was refunded to the original payment method.",
    "Build 4111 failed at the lint step, build 4112 passed.",
    "disk: 512110190592 bytes total, 87.3% used",
    "ulimit -n 1048576",
    "Content-Length: 1048576",
    "cache hit ratio 0.9731 over 1,048,576 lookups",
    "lr=2e-5 batch=64 seed=20250314 steps=12000 warmup=500",
    "Figure 3 shows p95 latency dropping from 812 ms to 264 ms after the index change.",
    "CVE-2024-3094 does not affect us: our base image ships xz 5.4.5.",
    "RFC 7519 §4.1.4 defines the exp claim as a NumericDate.",
    "coordinates of the Oslo office: 59.9139, 10.7522",
    "tokenizer vocab size 151,936; context window 131,072",
    "order #⟨int5⟩ shipped, ETA 3–5 business days",
    "See PAY-4821 and PR #18342 for the rounding discussion.",
    "Windows build 26100.3476 broke the installer signature check.",
    # ports, hosts, paths, URLs without credentials
    "listening on 0.0.0.0:8443 (pid 41822)",
    "postgres is on 5432, redis on 6379, the admin UI on 9090, metrics on 9464",
    "docker run -p 127.0.0.1:5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16.2-alpine",
    "DATABASE_URL=postgresql://localhost:5432/app_test",
    "REDIS_URL=redis://redis:6379/0",
    "mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017/test?replicaSet=rs0",
    "git clone git@github.com:kestrel-labs/infra.git",
    "curl https://api.github.com/repos/kestrel-labs/infra/pulls?state=closed&per_page=100",
    "pip install 'ledger-client[async]==2.4.0' --index-url https://pypi.org/simple",
    "npm ERR! 404 Not Found - GET https://registry.npmjs.org/@kestrel%2fui-kit - Not found",
    "/var/lib/postgresql/16/main/pg_wal/000000010000002A000000C3",
    "/home/runner/work/ledger/ledger/.venv/lib/python3.12/site-packages/ledger/__init__.py",
    "C:\\Users\\Public\\Documents\\report_2025-Q1.xlsx",
    "ssh: connect to host bastion.internal port 22: Connection timed out",
    "IPv6 link-local fe80::1ff:fe23:4567:890a on eth0",
    "10.0.0.0/8, 172.16.0.0/12 and 192.168.0.0/16 are the private ranges",
    "15 3 * * 1-5 /opt/backup/run.sh >> /var/log/backup.log 2>&1",
    "AWS region eu-central-1, AZ eu-central-1b, bucket s3://kestrel-artifacts/builds/2025/03/14/",
    "locale fr_FR.UTF-8, timezone Europe/Paris, currency EUR",
    # prose about passwords, tokens, keys and secrets that contains none
    "fix(auth): password reset flow sends two emails when the user double-clicks",
    "We blew the token budget on the summarizer: 128k context and 4,096 max_tokens per call.",
    "The key insight is that the cache key must include the tenant id.",
    "The secret sauce of the new scheduler is the retry budget, not the backoff.",
    "The secret is out: we're moving to Postgres 17 next quarter.",
    "Rotate the signing keys every 90 days; see docs/runbooks/key-rotation.md.",
    "key rotation is scheduled for 2025-06-01; no action needed from service owners",
    "Passwordless login via WebAuthn is now the default for new accounts.",
    "Use `passwd` to change your password on first login.",
    "Forgot password? The link goes to /account/password/reset?next=%2Fdashboard",
    "bcrypt cost factor 12 takes about 250 ms per password check on the t3.small",
    "the refresh token lifetime is 30 days; access tokens expire after 15 minutes",
    "token bucket: capacity 100, refill rate 10 per second",
    "the token counter returned 3,217 tokens for the system prompt",
    "Set `max_tokens` to 1024 and `temperature` to 0.2 for the grader.",
    "ghp_ tokens are the prefix plus 36 base62 characters, the last six of which are a CRC32 checksum.",
    "Stripe keys starting with pk_live_ are publishable and safe to ship to the browser.",
    "xoxb- tokens belong to bots and xoxp- tokens to users; we only use the former.",
    "JWTs are three base64url parts joined by dots: header.payload.signature.",
    f"{_B64_FIXTURES['jwt_head']} is just the header {{\"alg\":\"HS256\",\"typ\":\"JWT\"}}, no claims and no signature",
    "We never log IBANs or card numbers; the PCI scope ends at the tokenizer service.",
    "Test card numbers live in the provider docs; do not hardcode them in fixtures.",
    "The SSN input is validated client-side; see web/forms/validators/ssn.ts.",
    "phone numbers are stored in E.164 and rendered with the national format of the user's locale",
    "The 'keychain-access-groups' entitlement is required on macOS for the CLI login.",
    "credentials come from the instance metadata service (IMDSv2), nothing on disk",
    "ModuleNotFoundError: No module named 'keyring'",
    "fatal: Authentication failed for 'https://github.com/kestrel-labs/infra.git/'",
    "FATAL:  password authentication failed for user \"etl\"",
    "ERROR:  relation \"public.api_keys\" does not exist at character 15",
    "CREATE TABLE api_tokens (id uuid PRIMARY KEY, token_hash bytea NOT NULL, created_at timestamptz NOT NULL DEFAULT now());",
    "SELECT count(*) FROM users WHERE password_changed_at < now() - interval '1 year';",
    "nit: rename `secret` to `secret_arn` since it only holds the ARN, not the value",
    "review: the retry key should be (method, path, idempotency_key), not just the path",
    "LGTM once the password strength meter handles unicode; see the zxcvbn issue.",
    "the 'key' column is a composite of (tenant_id, sku), so the unique index covers it",
    # placeholders, references, redactions
    "db_password = os.environ[\"LEDGER_DB_PASSWORD\"]",
    "anthropic_api_key: ${ANTHROPIC_API_KEY}",
    "token: ${{ secrets.PYPI_API_TOKEN }}",
    "Authorization: Bearer <your-access-token>",
    "OPENAI_API_KEY=sk-...",
    "GITHUB_TOKEN=ghp_************************************",
    "DB_PASSWORD=",
    "password: '{{ vault_db_password }}'",
    "export PGPASSWORD=\"$(pass show prod/pg/etl)\"",
    "kubectl create secret generic db --from-literal=password=\"$DB_PASSWORD\"",
    "secret_key_base: <%= ENV['SECRET_KEY_BASE'] %>",
    "api_key = None  # set in settings_local.py, never committed",
    "password='********'",
    "Token: [REDACTED]",
    "STRIPE_SECRET_KEY=sk_test_your_key_here",
    "openssl rand -hex 32 > .secrets/session_key && chmod 600 .secrets/session_key",
    "ssh-keygen -t ed25519 -C 'ci-runner-2025' -f ~/.ssh/id_ed25519 -N ''",
    "chmod 600 ~/.ssh/id_rsa && ssh-add ~/.ssh/id_rsa",
    # public keys and certificates, base64 of non-secrets
    "ssh-ed25519 ⟨ed25519⟩ ci-runner-2025",
    f"assert base64.b64encode(b\"hello from the test suite\").decode() == \"{_B64_FIXTURES['greeting']}\"",
    f"fixtures/event.json: {{\"payload\": \"{_B64_FIXTURES['json']}\", \"encoding\": \"base64\"}}",
    f"echo '{_B64_FIXTURES['lorem']}' | base64 -d   # lorem ipsum, used by the decoder tests",
    f"expected_body = \"{_B64_FIXTURES['csv']}\"  # id,name / widget / gadget",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "the hex colours are #1e90ff for links and #ff6347 for errors",
    "regex for ticket ids: [A-Z]{2,5}-\\d{1,6}",
    "HTTP 429 Too Many Requests, Retry-After: 30",
    "phonenumbers.parse(raw, 'DE') raises NumberParseException for inputs shorter than 3 digits",
    "IBAN validation uses ISO 7064 mod 97-10; see validators/iban.py",
]

ALL_POSITIVE = SECRET_ROWS + PASSWORD_ROWS + PERSONAL_ROWS


def build(seed: int = SEED) -> list[dict[str, object]]:
    r = random.Random(seed)
    AUDIT.clear()
    rows = [render(r, t) for t in ALL_POSITIVE]
    rows += [render(r, t) for t in CLEAN_ROWS]
    for row in rows:
        for c in row["canaries"]:
            assert c in row["text"], (c, row["text"])
    r.shuffle(rows)
    return rows


def check(rows: list[dict[str, object]]) -> None:
    """Validate the personal values with python-stdnum and phonenumbers, and the corpus invariants."""
    import phonenumbers
    from stdnum import iban as s_iban
    from stdnum import luhn as s_luhn
    from stdnum.au import tfn
    from stdnum.be import nn
    from stdnum.br import cpf
    from stdnum.ca import sin
    from stdnum.ch import ssn as ahv
    from stdnum.cl import rut
    from stdnum.de import idnr
    from stdnum.dk import cpr
    from stdnum.es import dni, nie
    from stdnum.fi import hetu
    from stdnum.fr import nir
    from stdnum.in_ import aadhaar
    from stdnum.it import codicefiscale
    from stdnum.mx import curp
    from stdnum.nl import bsn
    from stdnum.no import fodselsnummer
    from stdnum.pl import pesel
    from stdnum.pt import nif
    from stdnum.ro import cnp
    from stdnum.se import personnummer
    from stdnum.us import ssn
    from stdnum.za import idnr as za_idnr

    by_label = {"ssn": ssn, "ca_sin": sin, "fr_nir": nir, "de_tax_id": idnr, "aadhaar": aadhaar, "es_dni": dni,
                "es_nie": nie, "it_codice_fiscale": codicefiscale, "nl_bsn": bsn, "br_cpf": cpf, "pl_pesel": pesel,
                "se_personnummer": personnummer, "fi_hetu": hetu, "dk_cpr": cpr, "be_nrn": nn, "pt_nif": nif,
                "cl_rut": rut, "mx_curp": curp, "no_fnr": fodselsnummer, "ch_ahv": ahv, "au_tfn": tfn,
                "za_id": za_idnr, "ro_cnp": cnp}
    bad = []
    for label, value, extra in AUDIT:
        if label == "phone":
            try:
                n = phonenumbers.parse(value, extra)
                ok = phonenumbers.is_valid_number(n) and phonenumbers.region_code_for_number(n) == extra
            except phonenumbers.NumberParseException:
                ok = False
        elif label == "card_number":
            ok = s_luhn.is_valid(re.sub(r"\D", "", value))
        elif label == "iban":
            ok = s_iban.is_valid(value)
        elif label == "uk_nino":
            ok = bool(re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", value.replace(" ", "")))
        elif label == "dk_cpr":
            raw = value.replace("-", "")
            ok = cpr.is_valid(raw) and cpr.checksum(raw) == 0
        elif label in by_label:
            ok = by_label[label].is_valid(value)
        else:
            ok = True
        if not ok:
            bad.append((label, value, extra))
    # near misses: no clean row may hold a Luhn-valid 13-19 digit run or an e-mail address
    for row in rows:
        if not row["canaries"]:
            for m in re.finditer(r"(?<![0-9A-Za-z])\d[\d ,.-]{11,22}\d(?![0-9A-Za-z])", row["text"]):
                run = re.sub(r"\D", "", m.group())
                if 13 <= len(run) <= 19 and s_luhn.is_valid(run) and run[0] in "3456":
                    bad.append(("clean-luhn", m.group(), row["text"]))
    if bad:
        for b in bad:
            print("INVALID", b)
        raise SystemExit(1)
    print(f"checked {len(AUDIT)} personal values: all valid")


def main() -> None:
    rows = build()
    if "--check" in sys.argv:
        check(rows)
    write_jsonl(OUT_PATH.name, rows)
    pos = [x for x in rows if x["canaries"]]
    kinds = sorted({k for x in pos for k in x["kinds"]})
    print(f"{len(pos)} positive rows, {sum(len(x['canaries']) for x in pos)} planted values, {len(kinds)} kinds, "
          f"{len(rows) - len(pos)} clean rows")


if __name__ == "__main__":
    main()
