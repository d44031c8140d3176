"""Write the sixth, blind held-out extension of the privacy corpus (heldout_world6.jsonl).

Blindness: the session that wrote this file read neither the detectors (``reverie/privacy/``), the
benchmarks (``bench/`` and ``BENCHMARKS.md``) nor the privacy tests, and never ran the masker or any
other project code. It read only the row format (``tests/privacy_corpus.py``), a few rows and the
label set of the existing ``*.jsonl`` files, and the structure of ``make_world5_corpus.py``.
Templates, wording, names, domains and values are new; the file was committed before anything was
masked with it.

Row format (unchanged): ``{"text": str, "canaries": [str, ...], "kinds": [str, ...]}``; every canary
is an exact substring of ``text``; clean rows have empty lists.

Intent: a *traffic-weighted* sample
-----------------------------------
Earlier worlds leaned towards breadth (many providers, many national formats). This one is weighted
like what an LLM coding/ops agent fleet actually captures: most rows carry the common credentials
(AWS, GitHub/GitLab, OpenAI/Anthropic, Slack, Stripe, database URLs and passwords, JWTs, PEM keys,
``.env`` files, passwords said in chat in a dozen languages) and the common personal data (e-mail
addresses, phone numbers of 30 countries as people write them, card numbers, IBANs, US SSN, UK NINO
and a handful of other national identifiers), placed where agents see them: shell sessions, stack
traces, YAML/TOML/JSON/INI configs, ``docker``/``kubectl``/``helm`` commands, ``curl`` lines with
headers, git remotes, CI logs, chat messages and code-review comments. The clean half is near
misses from the same kind of text.

Labels
------
Every label is one of the earlier files' except three, named in the same style:

* ``cohere_key`` -- Cohere API keys (dashboard.cohere.com "API keys"; SDK reads ``CO_API_KEY``):
  40 alphanumerics, no prefix, so only its context names it.
* ``in_pan`` -- Indian Permanent Account Number (Income Tax Department, Form 49A instructions):
  5 letters, 4 digits, 1 letter; the 4th letter is the holder type (``P`` for a person) and the 5th
  the initial of the surname. No published check algorithm.
* ``cn_ric`` -- Chinese Resident Identity Card number (GB 11643-1999): 6-digit administrative
  division code (GB/T 2260), birth date YYYYMMDD, 3-digit order code (odd for men), check character
  by ISO 7064 MOD 11-2 (weights 2^(17-i) mod 11, 10 written ``X``).

Where each format comes from (the issuer's documentation, as the author knows it)
------------------------------------------------------------------------------------
Secrets:
  ``openai_key`` OpenAI API keys page: ``sk-proj-``/``sk-svcacct-`` keys with the ``T3BlbkFJ``
  marker, and the 51-character legacy ``sk-`` + 20 + ``T3BlbkFJ`` + 20; ``anthropic_key`` Anthropic
  Console: ``sk-ant-api03-`` + 93 base64url + ``AA``; ``google_api_key`` Google Cloud API keys /
  Gemini: ``AIza`` + 35; ``huggingface_token`` Hugging Face user access tokens: ``hf_`` + 34 letters;
  ``aws_key``/``aws_secret`` AWS IAM "Managing access keys": ``AKIA`` (long-term) or ``ASIA`` (STS)
  + 16 base32 characters, and the 40-character base64 secret; ``azure_client_secret`` Entra ID app
  client secrets (``Q~`` at 4-5, 40 characters); ``azure_storage_key`` Azure Storage account keys
  (88 base64 characters in a ``DefaultEndpointsProtocol=...;AccountKey=`` connection string);
  ``digitalocean_token`` DigitalOcean personal access tokens (``dop_v1_`` + 64 hex);
  ``github_token`` GitHub "About authentication" token prefixes (``ghp_``, ``gho_``, ``ghs_`` + 36;
  fine-grained ``github_pat_11`` + 22 + ``_`` + 59); ``gitlab_token`` GitLab token overview
  (``glpat-`` + 20, runner authentication tokens ``glrt-`` + 20); ``slack_token`` Slack token types
  (``xoxb-``, ``xoxp-``, app-level ``xapp-1-``); ``slack_webhook`` Slack incoming webhooks
  (``hooks.slack.com/services/T.../B.../`` + 24); ``discord_webhook`` Discord webhooks
  (``discord.com/api/webhooks/<snowflake>/`` + 68); ``telegram_token`` Telegram Bot API (``<bot
  id>:AA`` + 33); ``stripe_key`` Stripe API keys (``sk_live_``/``rk_live_`` + ``51`` + ~97) and
  webhook signing secrets (``whsec_`` + 32); ``sendgrid_key`` SendGrid (``SG.`` + 22 ``.`` 43);
  ``twilio_api_key`` Twilio API keys (``SK`` + 32 hex); ``datadog_key`` Datadog API keys (32 hex);
  ``npm_token`` npm access tokens (``npm_`` + 36); ``pypi_token`` PyPI API tokens (macaroon,
  ``pypi-AgEIcHlwaS5vcmc`` ...); ``dockerhub_token`` Docker Hub PATs (``dckr_pat_`` + 27);
  ``vault_token`` HashiCorp Vault service tokens (``hvs.`` + 24); ``django_secret_key`` Django
  ``startproject`` (``django-insecure-`` + 50); ``jwt`` RFC 7519 (base64url header.payload.signature);
  ``private_key`` RFC 7468 PEM (``RSA``/``EC``/PKCS#8) and OpenSSH ``openssh-key-v1`` keys, and the
  base64 of a PEM in a kubeconfig ``client-key-data`` (the canary is the first body line, or the
  whole base64 blob); ``url_credentials`` RFC 3986 userinfo in PostgreSQL/MySQL/MongoDB/Redis/AMQP
  URIs (the canary is the password); ``password`` any password given in prose, a CLI flag or a
  config key; ``bearer_token`` an opaque RFC 6750 bearer token; ``basic_auth`` the RFC 7617
  ``user:password`` base64 (also Docker's ``config.json`` ``auth``).
Personal data:
  ``email`` RFC 5322 addresses; ``phone`` ITU-T E.164 numbers of 30 countries in their national
  numbering plans (national and international writing, the grouping each country uses; ranges from
  the national regulators' plans: NANP, Ofcom, BNetzA, ARCEP, CNMC, AGCOM, ACM, BIPT, BAKOM, RTR,
  PTS, UKE, ComReg, ANACOM, Anatel, IFT, ENACOM, TRAI, MIC, MSIT, MIIT, ACMA, IMDA, ICASA, NCC, TDRA,
  MoC Israel, BTK, NTC, Kominfo); ``card_number`` ISO/IEC 7812 PANs (Visa 4, Mastercard 51-55 and
  2221-2720, Amex 34/37, Discover 6011/65, JCB 3528-3589; Luhn check digit); ``iban`` ISO 13616
  (SWIFT IBAN registry BBAN layouts, mod-97 check digits, the national check digits of ES, FR and
  BE); ``ssn`` SSA (area 001-899 without 666, group 01-99, serial 0001-9999); ``uk_nino`` HMRC
  NIM39110 (prefix letters without D F I Q U V, second not O, no BG GB KN NK NT TN ZZ, suffix A-D);
  ``ca_sin`` ESDC (9 digits, Luhn); ``fr_nir`` INSEE (sex, YYMM, department, commune, order, key
  97 - n mod 97); ``de_tax_id`` BZSt Steuer-IdNr (11 digits, one digit repeated in the first ten,
  ISO 7064 MOD 11,10); ``aadhaar`` UIDAI (12 digits, not 0/1 first, Verhoeff); ``es_dni`` Ministerio
  del Interior (8 digits + mod-23 letter); ``nl_bsn`` (9 digits, eleven test); ``br_cpf`` Receita
  Federal (two mod-11 digits); ``pl_pesel`` (weights 1-3-7-9); ``in_pan`` and ``cn_ric`` above.

Clean rows are near misses: commit/object hashes, UUIDs, digests, version strings, dates, ticket
and PR numbers, long non-identifier numbers, ports, paths, placeholders (``<YOUR_API_KEY>``,
``sk-...``), redactions (``****``), base64 of non-secrets, public keys, and prose about password
reset flows, token budgets, key insights.

Values come from one seeded ``random.Random``; none is a real credential or person. The generator
uses only the standard library; ``--check`` validates every personal value with python-stdnum and
phonenumbers, and checks that no text or canary repeats one of the earlier corpus files.

Run from the repository root: ``python tests/data/privacy/make_world6_corpus.py [--check] [--out DIR]``.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

from values import (
    AUDIT,
    DG,
    HEX,
    LO,
    b64s,
    b64u,
    dg,
    p_aadhaar,
    p_bsn,
    p_card,
    p_cn_ric,
    p_cpf,
    p_de_tax,
    p_dni,
    p_iban,
    p_nino,
    p_nir,
    p_pan,
    p_pesel,
    p_phone,
    p_sin,
    p_ssn,
    part,
    pick,
    s_anthropic,
    s_aws_id,
    s_aws_secret,
    s_azure_cs,
    s_bearer,
    s_cohere,
    s_datadog,
    s_dckr,
    s_discord_hook,
    s_django,
    s_do,
    s_gapi,
    s_gho,
    s_ghp,
    s_ghpat,
    s_ghs,
    s_glpat,
    s_glrt,
    s_hf,
    s_jwt_of,
    s_kube_key_data,
    s_npm,
    s_openai,
    s_openai_legacy,
    s_password_of,
    s_pem_ec,
    s_pem_json,
    s_pem_pkcs8,
    s_pem_rsa,
    s_pem_ssh,
    s_pypi,
    s_sendgrid,
    s_slack_hook,
    s_slack_hook_full,
    s_stripe,
    s_stripe_rk,
    s_telegram,
    s_twilio,
    s_url_pw,
    s_vault,
    s_whsec,
    s_xapp,
    s_xoxb,
    s_xoxp,
    uid,
    whole,
    write_jsonl,
)

SEED = 60606
HERE = Path(__file__).parent
OUT_PATH = HERE / "heldout_world6.jsonl"

# ================================================================================================
# secrets
# ================================================================================================

def s_azure_storage(r):
    key = b64s(r.randbytes(64))
    acct = r.choice(["stostaraprod", "sttidewelllogs", "bwartifacts01"])
    return f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net", key


def s_jwt(r, claims=None):
    return s_jwt_of(r, ["https://login.tidewell.app", "https://auth.ostara.io/realms/ops", "https://quillstack.eu.auth0.com/"],
                    ["orders-api", "console", "https://api.harrowgate.dev"], claims)


def s_k8s_sa_jwt(r):
    ns = r.choice(["payments", "ingest", "kube-system"])
    return s_jwt(r, {"aud": ["https://kubernetes.default.svc.cluster.local"], "exp": 1791000000 + r.randrange(10**6),
                     "iss": "https://oidc.eks.eu-west-1.amazonaws.com/id/" + pick(r, 32, HEX.upper()),
                     "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": "deployer", "uid": uid(r)}},
                     "sub": f"system:serviceaccount:{ns}:deployer"})


def s_basic(r):
    user = r.choice(["svc-metrics", "jenkins", "backup", "grafana-ro", "deployer"])
    pw = s_password(r)
    return b64s(f"{user}:{pw}".encode())


# ---- passwords -----------------------------------------------------------------------------------

_WORDS = ["granite", "lupin", "saffron", "kestrel", "otter", "cobalt", "juniper", "quartz", "walnut", "meridian",
          "falke", "Sonnenblume", "mariposa", "girasol", "tartaruga", "vlinder", "zorro", "sakura", "taiga",
          "koala", "Tiramisu", "Brezel", "Hibou", "Lavande", "Cachorro", "Pingwin", "Kirsche", "Ornitorrinco"]


def s_password(r):
    return s_password_of(r, _WORDS)


# ================================================================================================
# personal data
# ================================================================================================

def p_email(r):
    first = r.choice(["amelia", "tomasz", "ines", "kwame", "yuki", "priya", "lars", "chiara", "mateo", "aisha",
                      "bjorn", "olumide", "hana", "rafael", "sofia", "dmitri", "noor", "eoin", "mei", "joao"])
    last = r.choice(["okafor", "lindqvist", "moreau", "takahashi", "ramanathan", "kowalczyk", "ferreira", "brennan",
                     "haddadi", "schulte", "vasquez", "nakamura", "oyelaran", "petrov", "castellanos", "yilmaz"])
    style = r.randrange(4)
    local = {0: f"{first}.{last}", 1: f"{first[0]}{last}", 2: f"{first}{r.randint(7, 99)}",
             3: f"{first}_{last}{dg(r, 2)}"}[style]
    dom = r.choice(["gmail.com", "outlook.com", "yahoo.co.jp", "web.de", "gmx.de", "orange.fr", "hotmail.co.uk",
                    "icloud.com", "proton.me", "tidewell.app", "ostara-logistics.com", "quillstack.eu",
                    "harrowgate.dev", "uni-leipzig.de", "brightwater.co.za", "naver.com", "qq.com", "libero.it",
                    "terra.com.br", "rediffmail.com"])
    v = f"{local}@{dom}"
    AUDIT.append(("email", v, ""))
    return v


PHONE_CC = ["US", "CA", "GB", "DE", "FR", "ES", "IT", "NL", "BE", "CH", "AT", "SE", "PL", "IE", "PT", "BR", "MX",
            "AR", "IN", "JP", "KR", "CN", "AU", "SG", "ZA", "NG", "AE", "IL", "TR", "PH", "ID"]


# ================================================================================================
# makers: slot name -> (value written, canary, label)
# ================================================================================================

Out = tuple[str, str, str]

MAKERS: dict[str, Callable[[random.Random], Out]] = {
    "openai": whole("openai_key", s_openai), "openai_legacy": whole("openai_key", s_openai_legacy),
    "anthropic": whole("anthropic_key", s_anthropic), "gapi": whole("google_api_key", s_gapi),
    "hf": whole("huggingface_token", s_hf), "cohere": whole("cohere_key", s_cohere),
    "aws_id": whole("aws_key", s_aws_id), "aws_secret": whole("aws_secret", s_aws_secret),
    "azure_cs": whole("azure_client_secret", s_azure_cs), "azure_storage": part("azure_storage_key", s_azure_storage),
    "do": whole("digitalocean_token", s_do),
    "ghp": whole("github_token", s_ghp), "ghs": whole("github_token", s_ghs), "gho": whole("github_token", s_gho),
    "ghpat": whole("github_token", s_ghpat), "glpat": whole("gitlab_token", s_glpat),
    "glrt": whole("gitlab_token", s_glrt),
    "xoxb": whole("slack_token", s_xoxb), "xoxp": whole("slack_token", s_xoxp), "xapp": whole("slack_token", s_xapp),
    "slack_hook": part("slack_webhook", s_slack_hook), "slack_hook_url": part("slack_webhook", s_slack_hook_full),
    "discord_hook": part("discord_webhook", s_discord_hook), "telegram": whole("telegram_token", s_telegram),
    "stripe": whole("stripe_key", s_stripe), "stripe_rk": whole("stripe_key", s_stripe_rk),
    "whsec": whole("stripe_key", s_whsec), "sendgrid": whole("sendgrid_key", s_sendgrid),
    "twilio": whole("twilio_api_key", s_twilio), "datadog": whole("datadog_key", s_datadog),
    "npm": whole("npm_token", s_npm), "pypi": whole("pypi_token", s_pypi), "dckr": whole("dockerhub_token", s_dckr),
    "vault": whole("vault_token", s_vault), "django": whole("django_secret_key", s_django),
    "jwt": whole("jwt", s_jwt), "k8s_jwt": whole("jwt", s_k8s_sa_jwt),
    "bearer": whole("bearer_token", s_bearer), "basic": whole("basic_auth", s_basic),
    "pem_rsa": part("private_key", s_pem_rsa), "pem_pkcs8": part("private_key", s_pem_pkcs8),
    "pem_ec": part("private_key", s_pem_ec), "pem_ssh": part("private_key", s_pem_ssh),
    "pem_json": part("private_key", s_pem_json), "kube_key": part("private_key", s_kube_key_data),
    "pw": whole("password", s_password), "upw": whole("url_credentials", s_url_pw),
    "email": whole("email", p_email), "card": whole("card_number", p_card), "iban": whole("iban", p_iban()),
    "ssn": whole("ssn", p_ssn), "nino": whole("uk_nino", p_nino), "sin": whole("ca_sin", p_sin),
    "nir": whole("fr_nir", p_nir), "steuer": whole("de_tax_id", p_de_tax), "aadhaar": whole("aadhaar", p_aadhaar),
    "dni": whole("es_dni", p_dni), "bsn": whole("nl_bsn", p_bsn), "cpf": whole("br_cpf", p_cpf),
    "pesel": whole("pl_pesel", p_pesel), "pan": whole("in_pan", p_pan), "cnric": whole("cn_ric", p_cn_ric),
}
for _cc in PHONE_CC:
    MAKERS[f"tel_{_cc}"] = whole("phone", p_phone(_cc, ["74", "75", "78"]))
    MAKERS[f"iban_{_cc}"] = whole("iban", p_iban(_cc))

# fillers: non-secret values for the templates (no canary)
FILLERS: dict[str, Callable[[random.Random], str]] = {
    "uuid": uid,
    "sha": lambda r: pick(r, 40, HEX),
    "short": lambda r: pick(r, 7, HEX),
    "sha256": lambda r: pick(r, 64, HEX),
    "hex32": lambda r: pick(r, 32, HEX),
    "ip": lambda r: f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
    "port": lambda r: str(r.choice([5432, 3306, 6379, 8080, 8443, 9200, 27017, 5672, 15672, 3000])),
    "date": lambda r: f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "time": lambda r: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}",
    "ver": lambda r: f"{r.randint(0, 4)}.{r.randint(0, 30)}.{r.randint(0, 12)}",
    "ticket": lambda r: f"{r.choice(['OPS', 'PAY', 'INFRA', 'SEC', 'DATA'])}-{r.randint(100, 9999)}",
    "pr": lambda r: str(r.randint(200, 9999)),
    "run": lambda r: str(r.randint(10**9, 2 * 10**10)),
    "pod": lambda r: f"{pick(r, 10, LO + DG)}-{pick(r, 5, LO + DG)}",
}

SLOT = re.compile(r"⟪([a-z0-9_A-Z]+)(?:#(\w+))?⟫")
FILL = re.compile(r"⟨([a-z0-9_]+)⟩")


def render(r: random.Random, template: str) -> dict[str, object]:
    canaries: list[str] = []
    kinds: list[str] = []
    text = FILL.sub(lambda m: FILLERS[m.group(1)](r), template)
    tagged: dict[str, str] = {}

    def plant(m: re.Match[str]) -> str:
        name, tag = m.group(1), m.group(2)
        if tag and tag in tagged:  # the same value again (e.g. fetch and push remotes)
            return tagged[tag]
        value, canary, kind = MAKERS[name](r)
        assert canary in value, name
        if canary not in canaries:
            canaries.append(canary)
            kinds.append(kind)
        if tag:
            tagged[tag] = value
        return value

    text = SLOT.sub(plant, text)
    return {"text": text, "canaries": canaries, "kinds": kinds}


# ================================================================================================
# positive rows
# ================================================================================================

SECRET_ROWS = [
    # ---- LLM provider keys
    "$ export OPENAI_API_KEY=⟪openai⟫\n$ uv run python -m agents.triage --dry-run --limit 20",
    ("DEBUG httpx: POST https://api.openai.com/v1/chat/completions headers={'authorization': 'Bearer ⟪openai⟫', "
     "'content-type': 'application/json', 'x-stainless-retry-count': '0'}"),
    "docker run --rm -e OPENAI_API_KEY=⟪openai⟫ -p 8080:8080 ghcr.io/brightwater/agent-gateway:0.14.2",
    "os.environ.setdefault(\"OPENAI_API_KEY\", \"⟪openai_legacy⟫\")  # old notebook, 2023",
    ("[llm]\nprovider = \"anthropic\"\nmodel = \"claude-sonnet-4-5\"\napi_key = \"⟪anthropic⟫\"\n"
     "max_tokens = 8192"),
    ("curl https://api.anthropic.com/v1/messages \\\n  -H \"x-api-key: ⟪anthropic⟫\" \\\n"
     "  -H \"anthropic-version: 2023-06-01\" \\\n  -H \"content-type: application/json\" \\\n  -d @request.json"),
    ("hey, the eval harness keeps failing with 401. I did `export ANTHROPIC_API_KEY=⟪anthropic⟫` in my zshrc "
     "but the subprocess doesn't seem to pick it up?"),
    "client = Anthropic(api_key=\"⟪anthropic⟫\", max_retries=5)",
    ("Review comment on src/agents/planner.py L14:\n> OPENAI_KEY = \"⟪openai⟫\"\nPlease don't hardcode this, "
     "read it from settings and rotate this one since it's in the PR history now."),
    "GOOGLE_API_KEY=⟪gapi⟫ python scripts/embed_docs.py --model text-embedding-004",
    "  - name: summarize\n    env:\n      GEMINI_API_KEY: \"⟪gapi⟫\"\n    run: python tools/summarize_pr.py",
    "huggingface-cli login --token ⟪hf⟫ --add-to-git-credential",
    "snapshot_download(repo_id=\"quillstack/intent-clf-v3\", token=\"⟪hf⟫\", local_dir=\"/models/intent\")",
    "CO_API_KEY=⟪cohere⟫\nCOHERE_MODEL=command-r-plus",
    "co = cohere.ClientV2(api_key=\"⟪cohere⟫\")\nresp = co.rerank(model=\"rerank-v3.5\", query=q, documents=docs)",
    # ---- AWS / Azure / GCP / DO
    "[default]\naws_access_key_id = ⟪aws_id⟫\naws_secret_access_key = ⟪aws_secret⟫\n\n[profile staging]\nregion = us-east-2",
    "$ aws configure set aws_access_key_id ⟪aws_id⟫\n$ aws configure set aws_secret_access_key ⟪aws_secret⟫\n$ aws sts get-caller-identity",
    ("provider \"aws\" {\n  region     = \"eu-west-1\"\n  access_key = \"⟪aws_id⟫\"\n  secret_key = \"⟪aws_secret⟫\"\n}"),
    ("{\n    \"AccessKey\": {\n        \"UserName\": \"ci-deployer\",\n        \"AccessKeyId\": \"⟪aws_id⟫\",\n"
     "        \"Status\": \"Active\",\n        \"SecretAccessKey\": \"⟪aws_secret⟫\",\n"
     "        \"CreateDate\": \"⟨date⟩T09:41:12+00:00\"\n    }\n}"),
    ("docker run --rm -e AWS_ACCESS_KEY_ID=⟪aws_id⟫ -e AWS_SECRET_ACCESS_KEY=⟪aws_secret⟫ -e AWS_DEFAULT_REGION=us-west-2 "
     "amazon/aws-cli s3 ls s3://ostara-backups/"),
    ("botocore.exceptions.ClientError: An error occurred (SignatureDoesNotMatch) when calling the PutObject "
     "operation: The request signature we calculated does not match the signature you provided.\n"
     "(debug) credentials from env: key=⟪aws_id⟫ secret=⟪aws_secret⟫"),
    ("Run aws-actions/configure-aws-credentials@v4\n  with:\n    aws-access-key-id: ⟪aws_id⟫\n"
     "    aws-secret-access-key: ⟪aws_secret⟫\n    aws-region: eu-central-1"),
    "az login --service-principal -u ⟨uuid⟩ -p ⟪azure_cs⟫ --tenant ⟨uuid⟩",
    "AZURE_CLIENT_ID=⟨uuid⟩\nAZURE_TENANT_ID=⟨uuid⟩\nAZURE_CLIENT_SECRET=⟪azure_cs⟫",
    "export AZURE_STORAGE_CONNECTION_STRING=\"⟪azure_storage⟫\"",
    ("{\n  \"type\": \"service_account\",\n  \"project_id\": \"tidewell-analytics\",\n  \"private_key_id\": \"⟨sha⟩\",\n"
     "  \"private_key\": \"⟪pem_json⟫\\n\",\n  \"client_email\": \"bq-loader@tidewell-analytics.iam.gserviceaccount.com\"\n}"),
    "doctl auth init --access-token ⟪do⟫",
    "DIGITALOCEAN_TOKEN=⟪do⟫ terraform apply -target=digitalocean_droplet.bastion",
    # ---- GitHub / GitLab
    ("$ git remote -v\norigin\thttps://x-access-token:⟪ghs#r⟫@github.com/tidewell/payments-api.git (fetch)\n"
     "origin\thttps://x-access-token:⟪ghs#r⟫@github.com/tidewell/payments-api.git (push)"),
    "[remote \"origin\"]\n\turl = https://release-bot:⟪ghp⟫@github.com/harrowgate/monorepo.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*",
    "$ cat ~/.git-credentials\nhttps://mkowalczyk:⟪ghp⟫@github.com",
    "echo ⟪ghpat⟫ | gh auth login --with-token",
    "GH_TOKEN=⟪ghp⟫ gh pr list --repo tidewell/infra --state merged --limit 50",
    ("Cloning into 'deploy-scripts'...\nfatal: unable to access 'https://⟪gho⟫@github.com/ostara/deploy-scripts.git/': "
     "The requested URL returned error: 403"),
    ("> scripts/release.sh line 88: `TOKEN=⟪ghpat⟫`\nThis is a live fine-grained PAT, please revoke it and use "
     "${{ secrets.RELEASE_TOKEN }} instead."),
    "const octokit = new Octokit({ auth: \"⟪ghp⟫\" });",
    "git clone https://oauth2:⟪glpat⟫@gitlab.ostara.io/platform/helm-charts.git",
    "gitlab-runner register --non-interactive --url https://gitlab.com/ --token ⟪glrt⟫ --executor docker --docker-image alpine:3.20",
    "curl --header \"PRIVATE-TOKEN: ⟪glpat⟫\" \"https://gitlab.com/api/v4/projects/4821/pipelines?status=failed\"",
    "variables:\n  GIT_DEPTH: \"20\"\n  GITLAB_API_TOKEN: \"⟪glpat⟫\"\n  DOCKER_DRIVER: overlay2",
    # ---- Slack / chat webhooks
    "SLACK_BOT_TOKEN=⟪xoxb⟫\nSLACK_APP_TOKEN=⟪xapp⟫\nSLACK_CHANNEL=#deploys",
    "client = WebClient(token=\"⟪xoxp⟫\")\nclient.chat_postMessage(channel=\"C04LQ2M9T\", text=msg)",
    ("slack_sdk.errors.SlackApiError: The request to the Slack API failed. (url: https://slack.com/api/chat.postMessage)\n"
     "The server responded with: {'ok': False, 'error': 'not_in_channel'}\n  token in use: ⟪xoxb⟫"),
    "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy ⟨short⟩ finished\"}' ⟪slack_hook_url⟫",
    "notifiers:\n  - type: slack\n    url: ⟪slack_hook⟫\n    channel: \"#alerts-prod\"",
    "DISCORD_WEBHOOK_URL=⟪discord_hook⟫",
    "curl -s \"https://api.telegram.org/bot⟪telegram⟫/sendMessage?chat_id=-1002211&text=backup+ok\"",
    # ---- Stripe / SaaS
    "stripe.api_key = \"⟪stripe⟫\"",
    "curl https://api.stripe.com/v1/refunds -u ⟪stripe⟫: -d charge=ch_3PqX -d amount=1500",
    ("$ stripe listen --forward-to localhost:4242/webhook\n> Ready! You are using Stripe API Version [2024-06-20]. "
     "Your webhook signing secret is ⟪whsec⟫ (^C to quit)"),
    "STRIPE_SECRET_KEY=⟪stripe⟫\nSTRIPE_WEBHOOK_SECRET=⟪whsec⟫",
    ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: billing-stripe\n  namespace: billing\ntype: Opaque\nstringData:\n"
     "  STRIPE_KEY: ⟪stripe_rk⟫"),
    "SENDGRID_API_KEY=⟪sendgrid⟫",
    "sg = SendGridAPIClient('⟪sendgrid⟫')",
    "TWILIO_API_KEY=⟪twilio⟫\nTWILIO_ACCOUNT_SID=AC⟨hex32⟩",
    ("DD_API_KEY=⟪datadog⟫ DD_SITE=\"datadoghq.eu\" bash -c \"$(curl -L "
     "https://install.datadoghq.com/scripts/install_script_agent7.sh)\""),
    "helm upgrade --install datadog datadog/datadog -n monitoring --set datadog.apiKey=⟪datadog⟫ --set datadog.site=datadoghq.com",
    # ---- registries
    "$ cat .npmrc\n//registry.npmjs.org/:_authToken=⟪npm⟫\n@tidewell:registry=https://registry.npmjs.org/",
    "[distutils]\nindex-servers = pypi\n\n[pypi]\n  username = __token__\n  password = ⟪pypi⟫",
    "twine upload -u __token__ -p ⟪pypi⟫ dist/*",
    "docker login -u brightwaterci -p ⟪dckr⟫\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.",
    "{\n  \"auths\": {\n    \"registry.ostara.io\": {\n      \"auth\": \"⟪basic⟫\"\n    }\n  }\n}",
    # ---- Vault, Django, JWT, bearer, basic
    "export VAULT_ADDR=https://vault.internal:8200\nexport VAULT_TOKEN=⟪vault⟫\nvault kv get -field=dsn secret/payments/db",
    ("$ vault login -method=oidc\nSuccess! You are now authenticated.\n\nKey                  Value\n---                  -----\n"
     "token                ⟪vault⟫\ntoken_duration       768h\ntoken_renewable      true\ntoken_policies       [\"default\" \"ops\"]"),
    "SECRET_KEY = '⟪django⟫'\n\n# SECURITY WARNING: don't run with debug turned on in production!\nDEBUG = True",
    "curl -H \"Authorization: Bearer ⟪jwt⟫\" https://api.harrowgate.dev/v2/orders?status=open",
    "⟨date⟩T⟨time⟩Z WARN  [gateway] rejected expired token: ⟪jwt⟫ (exp in the past)",
    "> Cookie: session=⟪jwt⟫; theme=dark",
    "kubectl config set-credentials deployer --token=⟪k8s_jwt⟫",
    "localStorage.setItem('access_token', '⟪jwt⟫')",
    "requests.get(f\"{BASE}/invoices\", headers={\"Authorization\": \"Bearer ⟪bearer⟫\"}, timeout=30)",
    "http GET https://partners.ostara-logistics.com/api/shipments 'Authorization:Bearer ⟪bearer⟫'",
    "X-Auth-Token: ⟪bearer⟫",
    "curl -v https://metrics.internal/api/v1/query -H \"Authorization: Basic ⟪basic⟫\"",
    # ---- private keys
    "$ cat ~/.ssh/id_ed25519\n⟪pem_ssh⟫",
    "tls.key: |\n  ⟪pem_rsa⟫",
    "Here's the key the vendor sent over, can you convert it to PKCS#8?\n\n⟪pem_rsa⟫",
    "ssl_certificate_key content (do not commit):\n⟪pem_ec⟫",
    ("users:\n- name: ci\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n"
     "    client-key-data: ⟪kube_key⟫"),
    "SSH_PRIVATE_KEY secret for the deploy job:\n⟪pem_pkcs8⟫",
    # ---- .env files (several values each)
    ("# .env.production\nNODE_ENV=production\nDATABASE_URL=postgresql://app:⟪upw⟫@db.tidewell.internal:5432/app\n"
     "REDIS_URL=redis://cache.tidewell.internal:6379/0\nSTRIPE_SECRET_KEY=⟪stripe⟫\nOPENAI_API_KEY=⟪openai⟫"),
    ("$ cat .env\nAPP_PORT=3000\nJWT_SECRET=⟪pw⟫\nGITHUB_TOKEN=⟪ghp⟫\nSENTRY_ENVIRONMENT=staging\n"
     "AWS_ACCESS_KEY_ID=⟪aws_id⟫\nAWS_SECRET_ACCESS_KEY=⟪aws_secret⟫"),
    ("ANTHROPIC_API_KEY=⟪anthropic⟫\nHF_TOKEN=⟪hf⟫\nWANDB_MODE=offline\nCUDA_VISIBLE_DEVICES=0,1"),
    ("env:\n  - name: DB_PASSWORD\n    value: \"⟪pw⟫\"\n  - name: SLACK_WEBHOOK\n    value: \"⟪slack_hook⟫\"\n"
     "  - name: LOG_LEVEL\n    value: info"),
    ("services:\n  api:\n    image: harrowgate/api:⟨ver⟩\n    environment:\n      - DATABASE_URL=mysql://shop:⟪upw⟫@mysql:3306/shop\n"
     "      - SENDGRID_API_KEY=⟪sendgrid⟫\n    ports:\n      - \"8080:8080\""),
    ("Loaded config: {'debug': False, 'db_url': 'postgresql://reporter:⟪upw⟫@10.40.2.11:5432/bi', "
     "'openai_api_key': '⟪openai⟫', 'timeout': 30}"),
]

DB_ROWS = [
    "DATABASE_URL=postgres://orders_svc:⟪upw⟫@orders-db.cluster-c9x2.eu-west-1.rds.amazonaws.com:5432/orders",
    ("Traceback (most recent call last):\n  File \"/app/etl/load.py\", line 27, in <module>\n"
     "    engine = create_engine(\"postgresql+psycopg2://etl_user:⟪upw⟫@10.12.4.7:5432/warehouse\")\n"
     "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"10.12.4.7\", "
     "port 5432 failed: timeout expired"),
    "REDIS_URL=rediss://default:⟪upw⟫@redis-18231.c3.eu-central-1-1.ec2.redns.redis-cloud.com:18231",
    "mongosh \"mongodb+srv://reporting:⟪upw⟫@cluster-prod.ab1cd.mongodb.net/analytics\" --eval 'db.stats()'",
    "CELERY_BROKER_URL = \"amqp://jobs:⟪upw⟫@mq.internal:5672/jobs\"",
    "  sqlalchemy.url = mysql+pymysql://wiki:⟪upw⟫@mariadb.wiki.svc:3306/wiki?charset=utf8mb4",
    ("psycopg.OperationalError: connection failed: FATAL: too many connections for role \"billing\"\n"
     "  conninfo: host=pg01.internal port=5432 user=billing password=⟪pw⟫ dbname=billing"),
    "Data Source=sqlprod02;Initial Catalog=Inventory;User Id=inv_reader;Password=⟪pw⟫;TrustServerCertificate=true",
    "spring.datasource.url=jdbc:postgresql://pg.ostara.io:5432/routing\nspring.datasource.username=routing\nspring.datasource.password=⟪pw⟫",
    "spring:\n  datasource:\n    username: orders\n    password: ⟪pw⟫\n    hikari:\n      maximum-pool-size: 12",
    "kubectl create secret generic pg-creds --from-literal=username=app --from-literal=password='⟪pw⟫' -n payments",
    "docker run -d --name pg16 -e POSTGRES_PASSWORD=⟪pw⟫ -p 5432:5432 -v pgdata:/var/lib/postgresql/data postgres:16",
    "docker login registry.ostara.io -u deploy -p '⟪pw⟫'",
    "helm upgrade --install grafana grafana/grafana -n monitoring --set adminPassword='⟪pw⟫'",
    "mysql -h 10.0.3.12 -u admin -p'⟪pw⟫' -e 'SHOW DATABASES;'",
    "sshpass -p '⟪pw⟫' ssh -o StrictHostKeyChecking=no ops@10.4.0.21 'sudo systemctl restart nginx'",
    "[webservers]\nweb01 ansible_host=10.8.0.4 ansible_user=deploy ansible_become_password=⟪pw⟫",
    "$ cat ~/.pgpass\ndb.tidewell.internal:5432:*:replicator:⟪pw⟫",
    "redis-cli -h cache.internal -p 6379 -a '⟪pw⟫' INFO replication",
    "curl -u elastic:'⟪pw⟫' -k https://es01.internal:9200/_cat/indices?v",
    "EMAIL_HOST = 'smtp.office365.com'\nEMAIL_HOST_USER = 'noreply@tidewell.app'\nEMAIL_HOST_PASSWORD = '⟪pw⟫'",
    "[database]\nhost = 10.1.1.5\nport = 5432\nuser = report\npasswd = ⟪pw⟫",
    "[smtp]\nserver = \"smtp.mailgun.org\"\nlogin = \"postmaster@mg.quillstack.eu\"\npassword = \"⟪pw⟫\"",
    "{\"db\": {\"host\": \"db-replica-2\", \"user\": \"svc_ingest\", \"password\": \"⟪pw⟫\", \"pool\": 8}}",
    "net use \\\\fs01\\finance /user:CORP\\svc_backup ⟪pw⟫ /persistent:no",
    "wp config create --dbname=wordpress --dbuser=wp_admin --dbpass='⟪pw⟫' --dbhost=127.0.0.1",
    "mongodump --uri=\"mongodb://backup:⟪upw⟫@mongo-0.mongo.svc:27017/?authSource=admin\" --gzip --archive=/backups/nightly.gz",
    "rabbitmqctl add_user metrics '⟪pw⟫' && rabbitmqctl set_user_tags metrics monitoring",
    "ALTER USER analytics WITH PASSWORD '⟪pw⟫';",
    "CREATE USER 'grafana'@'%' IDENTIFIED BY '⟪pw⟫';",
]

PASSWORD_PROSE = [
    "the staging admin login is admin / ⟪pw⟫ — please don't paste it outside this channel",
    "Wifi for the offsite: network \"Harbor-Guest\", password ⟪pw⟫",
    "I reset your account; the temporary password is ⟪pw⟫ and you'll be asked to change it on first login.",
    "can you ssh into bastion-2 and check disk usage? root pw is ⟪pw⟫",
    "Das Passwort für den Jenkins-Admin lautet ⟪pw⟫, bitte nach dem ersten Login ändern.",
    "Kennwort für die VPN-Verbindung: ⟪pw⟫",
    "Le mot de passe du serveur de recette est ⟪pw⟫, ne le mets pas dans le ticket stp.",
    "La contraseña de la base de datos de pruebas es ⟪pw⟫",
    "A senha do painel do Grafana é ⟪pw⟫, troca depois do deploy.",
    "La password dell'utente root sul NAS è ⟪pw⟫",
    "Het wachtwoord voor de testomgeving is ⟪pw⟫",
    "Hasło do panelu administracyjnego: ⟪pw⟫",
    "検証環境の管理者パスワードは ⟪pw⟫ です。",
    "测试服务器的密码是 ⟪pw⟫，用完记得改一下。",
    "Пароль от админки стенда: ⟪pw⟫, никому не пересылай.",
    "스테이징 DB 비밀번호는 ⟪pw⟫ 입니다.",
    "Sunucu şifresi: ⟪pw⟫",
    "Lösenordet till gästnätet är ⟪pw⟫",
    "Heslo k testovacímu serveru je ⟪pw⟫",
    "Mật khẩu máy chủ staging là ⟪pw⟫",
    "كلمة المرور لخادم الاختبار هي ⟪pw⟫",
    "Kata sandi server staging: ⟪pw⟫",
    "Salasana testipalvelimelle on ⟪pw⟫",
    "Пароль до сервера: ⟪pw⟫",
]

PERSONAL_ROWS = [
    # e-mail
    "commit ⟨sha⟩\nAuthor: Amelia Okafor <⟪email⟫>\nDate:   Tue Mar 4 10:12:55 2025 +0100\n\n    fix flaky retry test",
    "user_not_found: no account for ⟪email⟫ (tenant=eu-2)",
    "id,name,email,plan\n1042,Hana Nakamura,⟪email⟫,pro\n1043,Lars Lindqvist,⟪email⟫,free",
    "Can you resend the invoice to ⟪email⟫? The old address bounces.",
    "{\"event\": \"signup\", \"user\": {\"id\": \"⟨uuid⟩\", \"email\": \"⟪email⟫\", \"locale\": \"pt-BR\"}}",
    "Reviewed-by: Chiara Ferreira <⟪email⟫>\nSigned-off-by: Dmitri Petrov <⟪email⟫>",
    "smtplib.SMTPRecipientsRefused: {'⟪email⟫': (550, b'5.1.1 The email account that you tried to reach does not exist.')}",
    "git config --global user.email \"⟪email⟫\"",
    # phones, ~30 countries
    "Escalation contacts: Kwame (on call) ⟪tel_US⟫, backup Priya ⟪tel_IN⟫",
    "Twilio delivery failed: to=⟪tel_GB⟫ status=undelivered error_code=30003",
    "Bitte ruf mich unter ⟪tel_DE⟫ zurück, ich bin ab 14 Uhr erreichbar.",
    "Mon numéro pro : ⟪tel_FR⟫",
    "Mi móvil es el ⟪tel_ES⟫, llámame si el despliegue falla.",
    "Chiamami al ⟪tel_IT⟫ per il rollback.",
    "Bel me even op ⟪tel_NL⟫ als de build weer rood is.",
    "{\"name\": \"Mateo Vasquez\", \"phone\": \"⟪tel_MX⟫\", \"country\": \"MX\"}",
    "Support line Belgium ⟪tel_BE⟫ / Switzerland ⟪tel_CH⟫ / Austria ⟪tel_AT⟫",
    "Ring mig på ⟪tel_SE⟫ om något strular.",
    "Zadzwoń do mnie: ⟪tel_PL⟫",
    "Driver contact (Dublin): ⟪tel_IE⟫",
    "O meu telemóvel é ⟪tel_PT⟫",
    "Meu WhatsApp é ⟪tel_BR⟫, me chama lá.",
    "Contacto Buenos Aires: ⟪tel_AR⟫",
    "緊急連絡先：⟪tel_JP⟫（田中）",
    "담당자 연락처: ⟪tel_KR⟫",
    "联系人：王磊，手机 ⟪tel_CN⟫",
    "Site manager Sydney: ⟪tel_AU⟫, after hours ⟪tel_AU⟫",
    "SG ops hotline ⟪tel_SG⟫",
    "ZA courier: ⟪tel_ZA⟫ | Lagos office: ⟪tel_NG⟫",
    "Dubai warehouse ⟪tel_AE⟫ · Tel Aviv R&D ⟪tel_IL⟫",
    "Beni şu numaradan arayın: ⟪tel_TR⟫",
    "Manila support ⟪tel_PH⟫, Jakarta ⟪tel_ID⟫",
    "Toronto office: ⟪tel_CA⟫",
    "customers.csv:\nid;name;phone\n88;Joao Ferreira;⟪tel_BR⟫\n89;Noor Haddadi;⟪tel_AE⟫\n90;Eoin Brennan;⟪tel_IE⟫",
    "WARN sms.sender: rate limited for recipient ⟪tel_US⟫, retrying in 30s",
    "PagerDuty override: Lars Lindqvist ⟪tel_SE⟫ until Monday 09:00 CET",
    "Recepción: ⟪tel_ES⟫ / ⟪tel_MX⟫",
    "Call me on ⟪tel_GB⟫ if the cutover slips past midnight.",
    "WhatsApp ⟪tel_IN⟫ pe message kar dena",
    "Handynummer des Kunden: ⟪tel_AT⟫",
    # cards
    "ERROR payment: card declined (do_not_honor) pan=⟪card⟫ exp=09/27",
    "customer read out their card over chat: ⟪card⟫, exp 11/26, CVC on the back",
    "{\"card\": {\"number\": \"⟪card⟫\", \"exp_month\": 4, \"exp_year\": 2028}}",
    "Amex for the AWS bill: ⟪card⟫",
    "INSERT INTO payments (order_id, card_number) VALUES (55120, '⟪card⟫');",
    "Company card ⟪card⟫, use it for the Figma renewal only.",
    # IBAN
    "Bitte überweise die Kaution auf ⟪iban_DE⟫ (Kontoinhaber: M. Schulte).",
    "Payee: Ostara Logistics Ltd, IBAN ⟪iban_GB⟫, BIC NWBKGB2L",
    "Virement à effectuer sur ⟪iban_FR⟫ avant le 10.",
    "Mi IBAN es ⟪iban_ES⟫",
    "{\"creditor\": {\"name\": \"Quillstack BV\", \"iban\": \"⟪iban_NL⟫\"}, \"amount\": \"1250.00\", \"currency\": \"EUR\"}",
    "IBAN per il rimborso: ⟪iban_IT⟫",
    "vendor_bank_accounts:\n  - vendor: 4411\n    iban: ⟪iban_BE⟫\n  - vendor: 4412\n    iban: ⟪iban_AT⟫",
    "Salary account (CH): ⟪iban_CH⟫",
    "SEPA mandate for ⟪iban_IE⟫ signed on ⟨date⟩",
    "Numer konta: ⟪iban_PL⟫",
    "IBAN para transferência: ⟪iban_PT⟫",
    "Refund to ⟪iban⟫ failed: beneficiary bank rejected (AC04 closed account)",
    # national ids
    "W-9 received. SSN: ⟪ssn⟫",
    "applicant = {\"name\": \"R. Castellanos\", \"ssn\": \"⟪ssn⟫\", \"dob\": \"1987-02-14\"}",
    "background check request for SSN ⟪ssn⟫ returned no records",
    "NI number: ⟪nino⟫ (payroll starts next month)",
    "employees.csv: 231,Eoin Brennan,⟪nino⟫,London",
    "SIN: ⟪sin⟫ — needed for the T4 slip",
    "Numéro de sécurité sociale : ⟪nir⟫",
    "Steuer-ID: ⟪steuer⟫",
    "Aadhaar ⟪aadhaar⟫ linked to PAN ⟪pan⟫",
    "PAN card number: ⟪pan⟫",
    "DNI del cliente: ⟪dni⟫",
    "BSN: ⟪bsn⟫",
    "CPF do titular: ⟪cpf⟫",
    "PESEL: ⟪pesel⟫",
    "身份证号：⟪cnric⟫",
    ("KYC payload: {\"full_name\": \"Mei Zhang\", \"id_type\": \"resident_id\", \"id_number\": \"⟪cnric⟫\", "
     "\"phone\": \"⟪tel_CN⟫\"}"),
    "onboarding form — name: Tomasz Kowalczyk, email: ⟪email⟫, phone: ⟪tel_PL⟫, PESEL: ⟪pesel⟫",
    "ticket ⟨ticket⟩: user wrote \"my SSN is ⟪ssn⟫ and my card is ⟪card⟫, why is my account locked?\"",
    "Shipping to Aisha Oyelaran, ⟪tel_NG⟫, ⟪email⟫",
    "Rechnungsadresse geändert; neue IBAN ⟪iban_DE⟫, Tel. ⟪tel_DE⟫",
]

ALL_POSITIVE = SECRET_ROWS + DB_ROWS + PASSWORD_PROSE + PERSONAL_ROWS

# ================================================================================================
# clean near-miss rows
# ================================================================================================

_FIX = {
    "hello": b64s(b"hello from the fixtures folder"),
    "json": b64s(b'{"kind":"ping","seq":17}'),
    "csv": b64s(b"sku,qty\nA-100,3\nB-220,1\n"),
    "head": b64u(b'{"alg":"RS256","typ":"JWT"}'),
}

CLEAN_ROWS = [
    # hashes, ids, digests
    "commit ⟨sha⟩ (HEAD -> main, origin/main)",
    "Merge pull request #⟨pr⟩ from tidewell/fix/retry-jitter",
    "git cherry-pick ⟨short⟩ ⟨short⟩",
    "image: ghcr.io/tidewell/api@sha256:⟨sha256⟩",
    "sha256sum dist/agent-⟨ver⟩-linux-amd64.tar.gz\n⟨sha256⟩  dist/agent-⟨ver⟩-linux-amd64.tar.gz",
    "request_id=⟨uuid⟩ trace_id=⟨sha⟩ status=200 duration_ms=41",
    "ETag: \"⟨sha⟩\"",
    "Run ID ⟨run⟩ finished in 6m 12s",
    "npm notice integrity: sha512-⟨sha⟩⟨sha⟩",
    "pod/api-⟨pod⟩ 1/1 Running 0 3h",
    "Object ⟨sha⟩ not found in pack; run `git fsck --full`",
    "idempotency_key: ⟨uuid⟩",
    "Docker layer ⟨short⟩⟨short⟩: Pull complete",
    "terraform state: aws_instance.bastion id=i-0⟨short⟩⟨short⟩a",
    "arn:aws:iam::⟨run⟩:role/ci-deployer",  # account-like number but not an identifier of a person
    "subnet-0⟨short⟩⟨short⟩ in vpc-0⟨short⟩c",
    "Correlation ID: ⟨uuid⟩",
    # versions, dates, tickets, numbers
    "Bump pydantic from 2.9.2 to 2.10.4",
    "Released v⟨ver⟩ on ⟨date⟩ — see CHANGELOG.md",
    "python 3.12.7, node 22.11.0, go 1.23.3",
    "Fixes ⟨ticket⟩ and ⟨ticket⟩; follow-up in #⟨pr⟩",
    "Sprint 42 ends ⟨date⟩; demo at 15:30",
    "ingested 18446744073 rows in 3h 21m (throughput 1,525,112 rows/s)",
    "bytes_total 9007199254740991",
    "order #20250314-00871 shipped; tracking 1Z 999 AA1 01 2345 6784",
    "epoch 1741949212 -> ⟨date⟩T⟨time⟩Z",
    "Build 2025.03.14.2217 published to the beta channel",
    "Invoice INV-2025-004412, total EUR 12,480.00, due ⟨date⟩",
    "lat 52.520008, lon 13.404954 (Berlin Mitte)",
    "the p99 went from 1840 ms to 212 ms after the index on (tenant_id, created_at)",
    "Allocated 137438953472 bytes for the KV cache",
    "counter overflowed at 4294967295; switched to bigint",
    "ISBN 978-0-13-468599-1 is the Go book on the shelf",
    "Deployment 7 of 12: canary at 5%, error rate 0.02%",
    "ulimit -n 1048576 && ulimit -u 65535",
    "PID 48213 listening on 0.0.0.0:⟨port⟩",
    "The meeting ID is 884 2231 9907 (no passcode needed, it's internal)",
    # ports, paths, urls, infra
    "EXPOSE 8080 9090\nHEALTHCHECK CMD curl -f http://localhost:8080/healthz || exit 1",
    "postgres://localhost:5432/app_test (no auth in CI)",
    "redis://cache.internal:6379/2",
    "kubectl -n payments port-forward svc/ledger 8443:443",
    "/etc/ssl/private/server.key: permission denied",
    "~/.ssh/id_ed25519.pub",
    "/var/run/secrets/kubernetes.io/serviceaccount/token",
    "C:\\ProgramData\\Tidewell\\agent\\config.yaml",
    "git remote add upstream git@github.com:tidewell/payments-api.git",
    "https://github.com/tidewell/payments-api/pull/⟨pr⟩/files#diff-⟨sha⟩",
    "ssh -i ~/.ssh/deploy_key -p 2222 deploy@bastion.ostara.io",
    "docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16",
    "aws s3 cp s3://ostara-backups/2025/03/14/dump.sql.gz . --region eu-west-1",
    "helm repo add grafana https://grafana.github.io/helm-charts",
    "curl -sSfL https://get.tidewell.app/install.sh | sh -s -- --version ⟨ver⟩",
    "0 4 * * * /usr/local/bin/rotate-logs --keep 14",
    "listen 443 ssl http2;\nssl_certificate /etc/nginx/certs/fullchain.pem;\nssl_certificate_key /etc/nginx/certs/privkey.pem;",
    "mount -t nfs 10.0.0.12:/exports/home /mnt/home",
    "host ⟨ip⟩ port ⟨port⟩ is unreachable",
    # prose that talks about secrets but holds none
    "feat(auth): password reset flow now expires links after 30 minutes",
    "We're way over the token budget for the nightly summarizer; cap max_tokens at 2048.",
    "The key insight here is that retries must be idempotent, not that they must be fast.",
    "Let's add a password strength meter to the signup form (zxcvbn, score >= 3).",
    "Session tokens are rotated on every privilege change; refresh tokens live 14 days.",
    "Where do we keep the API keys now? I thought we moved everything to Vault.",
    "the secret to faster CI is caching the pip wheels, not more runners",
    "key rotation runbook: docs/runbooks/rotate-signing-keys.md",
    "Primary key is (tenant_id, id); the foreign key to accounts is deferrable.",
    "I forgot my password again, can someone trigger the reset email?",
    "Passwords must be at least 12 characters and can't match the last 5.",
    "tokenizer: 'password' is 1 token, ' Password' is 2 in cl100k_base",
    "The rate limiter uses a token bucket per API key with 60 requests per minute.",
    "Never log Authorization headers; the middleware strips them before the access log.",
    "TODO: move the Stripe key into Secrets Manager before launch",
    "SSH keys older than a year will be revoked on ⟨date⟩.",
    "credentials are fetched from IMDSv2 at runtime; nothing is stored on disk",
    "FATAL:  password authentication failed for user \"ingest\"",
    "remote: Invalid username or password.\nfatal: Authentication failed for 'https://github.com/ostara/deploy-scripts.git/'",
    "Error: InvalidClientTokenId — the AWS access key ID you provided does not exist in our records.",
    "401 Unauthorized: missing or malformed bearer token",
    "anthropic.AuthenticationError: Error code: 401 - {'type': 'error', 'error': {'type': 'authentication_error', 'message': 'invalid x-api-key'}}",
    "review: `api_key` should be `SecretStr` in the settings model so it doesn't show up in repr()",
    "nit: the variable name `token` is confusing here, it's a lexer token, not an auth token",
    "Phone numbers are normalized to E.164 before we store them.",
    "IBANs are validated with the mod-97 check on the client and again server-side.",
    "We don't store card numbers at all; Stripe Elements tokenizes them in the browser.",
    "SSN field is masked in the admin UI and encrypted at rest.",
    "The email column has a unique index, lower-cased.",
    # placeholders, references, redactions
    "OPENAI_API_KEY=<YOUR_API_KEY>",
    "export ANTHROPIC_API_KEY=sk-ant-...",
    "OPENAI_API_KEY=sk-...  # put your key here",
    "AWS_ACCESS_KEY_ID=AKIA****************\nAWS_SECRET_ACCESS_KEY=****************************************",
    "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
    "password: \"{{ .Values.db.password }}\"",
    "DB_PASSWORD=changeme  # local docker only, overridden in every environment",
    "      with:\n        token: ${{ secrets.GITHUB_TOKEN }}\n        fetch-depth: 0",
    "-H 'Authorization: Bearer <access-token-from-step-2>'",
    "curl -H \"Authorization: Bearer $API_TOKEN\" https://api.harrowgate.dev/v2/health",
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "SLACK_BOT_TOKEN=xoxb-your-bot-token-goes-here  # from api.slack.com/apps > OAuth",
    "stripe.api_key = os.environ[\"STRIPE_SECRET_KEY\"]",
    "password=******** (redacted by the log filter)",
    "DATABASE_URL=postgres://app:[REDACTED]@db.internal:5432/app",
    "api_key: \"${COHERE_API_KEY:?missing}\"",
    "card: **** **** **** 4417 (Visa), exp 09/27",
    "IBAN: DE** **** **** **** **** 12",
    "SSN: ***-**-6789",
    "contact: <redacted email>, phone: [PHONE]",
    "kubectl get secret pg-creds -o jsonpath='{.data.password}' | base64 -d",
    "vault kv put secret/payments/db password=@password.txt",
    "docker login -u brightwaterci --password-stdin < ~/.docker-token",
    "read -s -p 'Password: ' PGPASSWORD && export PGPASSWORD",
    "Set-Secret -Name GraphToken -Secret (Read-Host -AsSecureString)",
    "email: user@example.com\nphone: +1 555 0100",
    "Replace <username> and <password> in the connection string before running.",
    "GOOGLE_API_KEY=your-google-api-key-here",
    # public material and non-secret base64
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPublicKeyForCiRunnerOnlyNotSecretXyz ci@runner-07",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    f"echo '{_FIX['hello']}' | base64 -d",
    f"fixture payload: {_FIX['json']}",
    f"expected = base64.b64decode(\"{_FIX['csv']}\")",
    f"the JWT header alone is {_FIX['head']} — no claims, no signature, nothing sensitive",
    "Content-Type: multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
    "pk_live_ keys are publishable by design; only sk_live_ and rk_live_ must stay server-side.",
    "the font is served from https://fonts.gstatic.com/s/inter/v13/UcCO3FwrK3iLTeHuS_fvQtMwCp50KnMw2boKoduKmMEVuLyfAZ9hiA.woff2",
    "hsl(210, 40%, 96%) and #0f172a for the dark theme",
    "regex: ^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$ (rough IBAN shape, validated properly later)",
    "phonenumbers.format_number(n, PhoneNumberFormat.E164)",
    "Luhn check fails for 1234 5678 9012 3456, as expected for the negative test",
]


# ================================================================================================
# build / check / write
# ================================================================================================

def build(seed: int = SEED) -> list[dict[str, object]]:
    r = random.Random(seed)
    AUDIT.clear()
    rows = [render(r, t) for t in ALL_POSITIVE] + [render(r, t) for t in CLEAN_ROWS]
    for row in rows:
        for c in row["canaries"]:
            assert c in row["text"], (c, row["text"])
    texts = [row["text"] for row in rows]
    assert len(set(texts)) == len(texts), "duplicate text"
    r.shuffle(rows)
    return rows


def earlier_files() -> list[Path]:
    return sorted(p for p in HERE.glob("*.jsonl") if p.name != OUT_PATH.name)


def check(rows: list[dict[str, object]]) -> None:
    import phonenumbers
    from stdnum import iban as s_iban
    from stdnum import luhn as s_luhn
    from stdnum.br import cpf
    from stdnum.ca import sin
    from stdnum.cn import ric
    from stdnum.de import idnr
    from stdnum.es import dni
    from stdnum.fr import nir
    from stdnum.in_ import aadhaar, pan
    from stdnum.nl import bsn
    from stdnum.pl import pesel
    from stdnum.us import ssn

    mods = {"ssn": ssn, "ca_sin": sin, "fr_nir": nir, "de_tax_id": idnr, "aadhaar": aadhaar, "es_dni": dni,
            "nl_bsn": bsn, "br_cpf": cpf, "pl_pesel": pesel, "in_pan": pan, "cn_ric": ric}
    bad = []
    for label, value, region in AUDIT:
        if label == "phone":
            try:
                n = phonenumbers.parse(value, region)
                ok = phonenumbers.is_valid_number(n) and phonenumbers.region_code_for_number(n) == region
            except phonenumbers.NumberParseException:
                ok = False
        elif label == "card_number":
            ok = s_luhn.is_valid(re.sub(r"\D", "", value))
        elif label == "iban":
            ok = s_iban.is_valid(value) and value.startswith(region)
        elif label == "uk_nino":
            ok = bool(re.fullmatch(r"(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]",
                                   value.replace(" ", "")))
        elif label == "email":
            ok = bool(re.fullmatch(r"[a-z0-9._]+@[a-z0-9.-]+\.[a-z]{2,}", value))
        else:
            ok = mods[label].is_valid(value)
        if not ok:
            bad.append((label, value, region))
    # clean rows: no Luhn-valid 13-19 digit run that looks like a card, no e-mail address
    for row in rows:
        if row["canaries"]:
            continue
        for m in re.finditer(r"(?<![0-9A-Za-z])\d[\d ,.-]{11,22}\d(?![0-9A-Za-z])", row["text"]):
            run = re.sub(r"\D", "", m.group())
            if 13 <= len(run) <= 19 and s_luhn.is_valid(run) and run[0] in "3456":
                bad.append(("clean-luhn", m.group(), row["text"]))
    # nothing repeats an earlier file: no text, no canary
    old_texts, old_canaries = set(), set()
    for p in earlier_files():
        for line in p.open(encoding="utf-8"):
            if line.strip():
                o = json.loads(line)
                old_texts.add(o["text"])
                old_canaries.update(o["canaries"])
    for row in rows:
        if row["text"] in old_texts:
            bad.append(("repeated-text", row["text"][:80], ""))
        for c in row["canaries"]:
            if c in old_canaries:
                bad.append(("repeated-canary", c, ""))
    if bad:
        for b in bad:
            print("INVALID", b)
        raise SystemExit(1)
    print(f"checked {len(AUDIT)} personal values: all valid; no text or canary repeats an earlier file")


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
