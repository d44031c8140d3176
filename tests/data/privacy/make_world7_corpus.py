"""Write the seventh, blind held-out extension of the privacy corpus (heldout_world7.jsonl).

Blindness: the session that wrote this file read neither the detectors (``reverie/privacy/``), the
benchmarks (``bench/`` and ``BENCHMARKS.md``) nor the privacy tests, and never ran the masker or any
other project code. It read only the row format (``tests/privacy_corpus.py``), a few rows and the
label set of the existing ``*.jsonl`` files, and ``make_world6_corpus.py``, whose value generators
(check digits, token shapes) it reuses with new names, domains, words, seed and all-new templates.
The file was committed before anything was masked with it. (The generators that world6, world7 and
world8 had in common now live in ``values.py``, unchanged.)

Row format (unchanged): ``{"text": str, "canaries": [str, ...], "kinds": [str, ...]}``; every canary
is an exact substring of ``text``; clean rows have empty lists.

Intent: a *traffic-weighted* sample, as world6
----------------------------------------------
Weighted like what an LLM coding/ops agent fleet captures: mostly common credentials (AWS,
GitHub/GitLab, OpenAI/Anthropic/Gemini, Slack, Stripe, database URLs and config passwords, JWTs, PEM
keys, ``.env`` files, passwords said in chat in ~20 languages) and common personal data (e-mail,
phone numbers of 31 countries as people write them, card numbers, IBANs of 12 countries, US SSN, UK
NINO, a few other national ids), placed in shell sessions, stack traces, YAML/TOML/JSON/INI, docker /
kubectl / helm, curl with headers, git remotes, CI logs, chat, code review, SQL, Python/JS string
literals, Jupyter output, HTTP request dumps, CSV and Markdown tables. The clean half is near misses
from the same kind of text.

Labels
------
Every label is one of the earlier files' except two, named in the same style:

* ``kr_rrn`` -- South Korean Resident Registration Number (Ministry of the Interior and Safety):
  ``YYMMDD-SBBBBNC``; S the sex/century digit (1/2 for 1900s, 3/4 for 2000s), birth-place digits
  NN <= 96, check digit C = (11 - sum(w_i d_i) mod 11) mod 10 with weights 2..9,2..5.
* ``jp_my_number`` -- Japanese Individual Number (マイナンバー, Act on the Use of Numbers to Identify
  a Specific Individual, Ordinance art. 5): 12 digits, the last a check digit: weights 6,5,4,3,2,7,
  6,5,4,3,2 over the first 11, check = 0 if sum mod 11 <= 1 else 11 - (sum mod 11); written plain or
  in groups of 4.

Also used, with the earlier files' labels: ``es_nie`` (Ministerio del Interior: X/Y/Z for 0/1/2, 7
digits, the DNI mod-23 letter) and ``se_personnummer`` (Skatteverket: YYMMDD-NNNC, Luhn over the 9
digits, optionally with the century).

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

AWS's documented example keys (``AKIAIOSFODNN7EXAMPLE`` / ``wJalrXUtnFEMI/K7MDENG/...EXAMPLEKEY``)
are planted in no earlier file, so they were written as clean rows (obviously fake fixtures); issue 19
masks a documented sample like any key, so build() relabels those two rows (``RELABELLED``). Still
clean are ``sk-...``, ``xxxx`` and ``<YOUR_API_KEY>`` placeholders, ``****`` redactions, ``${VAR}``
references, ``example.com`` addresses and ``555`` numbers. Twilio account SIDs (``AC`` + 32 hex)
are identifiers, not secrets, and stay unlabelled as in earlier files. Documented test card numbers
(4111..., 4242...) are left out altogether: no earlier file fixes their label.

Clean rows are near misses: commit/object hashes, UUIDs, digests, version strings, dates, ticket,
order and invoice numbers, long non-identifier numbers, ports, paths, AWS account ids/ARNs,
placeholders, redactions, base64 of non-secrets, public keys and certificates, and prose about
password reset flows, token budgets, key insights (in several languages).

Values come from one seeded ``random.Random``; none is a real credential or person. The generator
uses only the standard library; ``--check`` validates every personal value with python-stdnum and
phonenumbers, that no clean row holds a Luhn-valid card-like run, and that no text or canary repeats
one of the earlier corpus files.

Run from the repository root: ``python tests/data/privacy/make_world7_corpus.py [--check] [--out DIR]``.
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
    group,
    luhn_digit,
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

SEED = 70717
HERE = Path(__file__).parent
OUT_PATH = HERE / "heldout_world7.jsonl"

# ================================================================================================
# secrets
# ================================================================================================

def s_azure_storage(r):
    key = b64s(r.randbytes(64))
    acct = r.choice(["stfenwickraw", "stlarchmontbk", "mvcicache02"])
    return f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net", key


def s_jwt(r, claims=None):
    return s_jwt_of(r, ["https://id.fenwick.cloud", "https://sso.larchmont.io/realms/eng", "https://marrowvale.us.auth0.com/"],
                    ["ledger-svc", "admin-ui", "https://api.pellucid.dev"], claims)


def s_k8s_sa_jwt(r):
    ns = r.choice(["billing", "etl", "platform"])
    return s_jwt(r, {"aud": ["https://kubernetes.default.svc.cluster.local"], "exp": 1791000000 + r.randrange(10**6),
                     "iss": "https://oidc.eks.us-east-2.amazonaws.com/id/" + pick(r, 32, HEX.upper()),
                     "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": "argo-sync", "uid": uid(r)}},
                     "sub": f"system:serviceaccount:{ns}:argo-sync"})


def s_basic(r):
    user = r.choice(["prom-scrape", "buildbot", "restic", "loki-ro", "harbor-pull"])
    pw = s_password(r)
    return b64s(f"{user}:{pw}".encode())


# ---- passwords -----------------------------------------------------------------------------------

_WORDS = ["heron", "basalt", "tamarind", "puffin", "marigold", "cinder", "larkspur", "obsidian", "hazel", "tundra",
          "Eichhorn", "Zitrone", "colibri", "naranja", "gabbiano", "eekhoorn", "lince", "momiji", "fjord",
          "wombat", "Cannoli", "Kuchen", "Renard", "Mimosa", "Jabuti", "Jastrząb", "Holunder", "Quetzal"]


def s_password(r):
    return s_password_of(r, _WORDS)


# ================================================================================================
# personal data
# ================================================================================================

def p_email(r):
    first = r.choice(["beatrix", "oskar", "lucia", "femi", "ren", "anika", "henrik", "giulia", "santiago", "zainab",
                      "torvald", "chidi", "sora", "emilio", "ingrid", "anatoly", "layla", "ciaran", "xiu", "thiago",
                      "marisol", "kenji", "wanjiru", "pavel"])
    last = r.choice(["adeyemi", "holmberg", "lefebvre", "watanabe", "subramanian", "wisniewska", "carvalho", "gallagher",
                     "karimi", "vogel", "ibarra", "yamada", "okonkwo", "sokolov", "montalvo", "demir", "novak", "quinlan"])
    style = r.randrange(5)
    local = {0: f"{first}.{last}", 1: f"{first[0]}.{last}", 2: f"{first}.{last[0]}{r.randint(1, 99)}",
             3: f"{last}.{first}", 4: f"{first}-{last}"}[style]
    dom = r.choice(["gmail.com", "googlemail.com", "outlook.de", "hotmail.fr", "yahoo.com", "t-online.de", "free.fr",
                    "live.co.uk", "me.com", "pm.me", "fenwick.cloud", "larchmont.io", "marrowvale.com", "pellucid.dev",
                    "tu-dresden.de", "uol.com.br", "daum.net", "163.com", "virgilio.it", "btinternet.com",
                    "bigpond.com", "seznam.cz", "wp.pl", "mail.ru"])
    v = f"{local}@{dom}"
    AUDIT.append(("email", v, ""))
    return v


PHONE_CC = ["US", "CA", "GB", "DE", "FR", "ES", "IT", "NL", "BE", "CH", "AT", "SE", "PL", "IE", "PT", "BR", "MX",
            "AR", "IN", "JP", "KR", "CN", "AU", "SG", "ZA", "NG", "AE", "IL", "TR", "PH", "ID"]


def p_nie(r):
    lead = r.choice("XYZ")
    n = dg(r, 7)
    v = f"{lead}{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[int(str('XYZ'.index(lead)) + n) % 23]}"
    AUDIT.append(("es_nie", v, ""))
    return v


def p_personnummer(r):
    y, m, d = r.randint(1950, 2004), r.randint(1, 12), r.randint(1, 28)
    body = f"{y % 100:02d}{m:02d}{d:02d}{dg(r, 3)}"
    v = f"{body[:6]}-{body[6:]}{luhn_digit(body)}"
    if r.random() < 0.4:
        v = f"{y // 100}{v}"
    AUDIT.append(("se_personnummer", v, ""))
    return v


def p_kr_rrn(r):
    y, m, d = r.randint(1960, 2009), r.randint(1, 12), r.randint(1, 28)
    sex = r.choice("12") if y < 2000 else r.choice("34")
    body = f"{y % 100:02d}{m:02d}{d:02d}{sex}{dg(r, 2)}{r.randint(0, 96):02d}{dg(r, 1)}"
    w = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    chk = (11 - sum(a * int(c) for a, c in zip(w, body, strict=False)) % 11) % 10
    v = f"{body[:6]}-{body[6:]}{chk}"
    AUDIT.append(("kr_rrn", v, ""))
    return v


def p_jp_mynumber(r):
    body = dg(r, 11)
    s = sum(w * int(c) for w, c in zip((6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2), body, strict=False))
    n = body + str(-s % 11 % 10)
    v = group(n, [4, 4, 4], r.choice([" ", "-"])) if r.random() < 0.6 else n
    AUDIT.append(("jp_my_number", v, ""))
    return v


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
    "nie": whole("es_nie", p_nie), "pnr": whole("se_personnummer", p_personnummer), "rrn": whole("kr_rrn", p_kr_rrn),
    "mynum": whole("jp_my_number", p_jp_mynumber),
}
for _cc in PHONE_CC:
    MAKERS[f"tel_{_cc}"] = whole("phone", p_phone(_cc, ["74", "75", "79"]))
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

# ================================================================================================
# positive rows
# ================================================================================================

SECRET_ROWS = [
    # ---- LLM provider keys
    "(venv) ~/src/ledger-bot $ OPENAI_API_KEY=⟪openai⟫ pytest -k smoke -x\n======== 3 passed in 4.12s ========",
    ("httpx.HTTPStatusError: Client error '429 Too Many Requests' for url 'https://api.openai.com/v1/responses'\n"
     "  request headers: {'Authorization': 'Bearer ⟪openai⟫', 'OpenAI-Organization': 'org-fenwick'}"),
    "kubectl -n agents create secret generic llm-creds --from-literal=OPENAI_API_KEY=⟪openai⟫",
    "In [3]: openai.api_key = \"⟪openai_legacy⟫\"\nIn [4]: openai.Model.list()[\"data\"][0][\"id\"]\nOut[4]: 'gpt-3.5-turbo'",
    "const client = new OpenAI({ apiKey: \"⟪openai⟫\", timeout: 20_000 });",
    ("# settings.toml\n[providers.anthropic]\nkey = \"⟪anthropic⟫\"\ndefault_model = \"claude-opus-4-1\"\n"
     "request_timeout_s = 120"),
    ("$ curl -sS https://api.anthropic.com/v1/models -H 'x-api-key: ⟪anthropic⟫' -H 'anthropic-version: 2023-06-01' "
     "| jq '.data[].id'"),
    ("quick q — is it fine to commit `.env.local` if it only has ANTHROPIC_API_KEY=⟪anthropic⟫ in it? it's my "
     "personal dev key"),
    "ANTHROPIC_API_KEY: ⟪anthropic⟫\nLOG_LEVEL: debug\nMAX_PARALLEL_TOOLS: 4",
    "llm = ChatAnthropic(model=\"claude-3-5-haiku-latest\", anthropic_api_key=\"⟪anthropic⟫\", temperature=0)",
    ("Code review on agents/router.ts:\n  + const GEMINI_KEY = '⟪gapi⟫';\nThis will ship in the bundle. Move it "
     "server-side and revoke it in the console."),
    "genai.configure(api_key=\"⟪gapi⟫\")",
    "https://maps.googleapis.com/maps/api/geocode/json?address=Rua+Augusta+100&key=⟪gapi⟫",
    "export HF_TOKEN=⟪hf⟫\ngit clone https://huggingface.co/fenwick/ner-multilingual-base",
    "from huggingface_hub import login\nlogin(token=\"⟪hf⟫\")",
    # ---- AWS / Azure / GCP / DO
    ("[profile fenwick-prod]\nsso_start_url = https://fenwick.awsapps.com/start\n\n[profile legacy-ci]\n"
     "aws_access_key_id=⟪aws_id⟫\naws_secret_access_key=⟪aws_secret⟫"),
    "AWS_ACCESS_KEY_ID=⟪aws_id⟫ AWS_SECRET_ACCESS_KEY=⟪aws_secret⟫ terraform plan -out plan.bin",
    ("s3 = boto3.client(\n    \"s3\",\n    aws_access_key_id=\"⟪aws_id⟫\",\n    aws_secret_access_key=\"⟪aws_secret⟫\",\n"
     "    region_name=\"ap-southeast-2\",\n)"),
    "{\"Credentials\": {\"AccessKeyId\": \"⟪aws_id⟫\", \"SecretAccessKey\": \"⟪aws_secret⟫\", \"Expiration\": \"⟨date⟩T18:00:00Z\"}}",
    ("2025-05-02 11:04:19,883 WARN  [s3-uploader] retrying upload (attempt 3/5) using static credentials "
     "⟪aws_id⟫/⟪aws_secret⟫"),
    "  env:\n    - name: AWS_ACCESS_KEY_ID\n      value: ⟪aws_id⟫\n    - name: AWS_SECRET_ACCESS_KEY\n      value: ⟪aws_secret⟫",
    "AZURE_CLIENT_ID=⟨uuid⟩\nAZURE_TENANT_ID=⟨uuid⟩\nAZURE_CLIENT_SECRET=⟪azure_cs⟫",
    "export AZURE_STORAGE_CONNECTION_STRING=\"⟪azure_storage⟫\"\naz storage blob list -c raw-events --output table",
    "doctl auth init --access-token ⟪do⟫ --context fenwick",
    "provider \"digitalocean\" {\n  token = \"⟪do⟫\"\n}",
    ("{\n  \"type\": \"service_account\",\n  \"project_id\": \"larchmont-data\",\n  \"private_key_id\": \"⟨sha⟩\",\n"
     "  \"private_key\": \"⟪pem_json⟫\\n\",\n  \"client_email\": \"etl-runner@larchmont-data.iam.gserviceaccount.com\"\n}"),
    # ---- GitHub / GitLab
    "$ git remote -v\norigin  https://oskar:⟪ghp#t⟫@github.com/fenwick/ledger.git (fetch)\norigin  https://oskar:⟪ghp#t⟫@github.com/fenwick/ledger.git (push)",
    "echo ⟪ghp⟫ | gh auth login --with-token",
    "GITHUB_TOKEN=⟪ghpat⟫ goreleaser release --clean",
    "remote: Invalid username or token. Password authentication is not supported.\nfatal: Authentication failed for 'https://x-access-token:⟪ghs⟫@github.com/larchmont/infra.git/'",
    "[url \"https://⟪ghp⟫@github.com/\"]\n\tinsteadOf = https://github.com/",
    "//npm.pkg.github.com/:_authToken=⟪ghp⟫\n@fenwick:registry=https://npm.pkg.github.com",
    "headers = {\"Authorization\": f\"token ⟪gho⟫\", \"Accept\": \"application/vnd.github+json\"}",
    "git clone https://oauth2:⟪glpat⟫@gitlab.larchmont.io/platform/helm-charts.git",
    "variables:\n  GITLAB_API_TOKEN: \"⟪glpat⟫\"\nstages: [lint, build, deploy]",
    "gitlab-runner register --non-interactive --url https://gitlab.com --token ⟪glrt⟫ --executor docker --docker-image alpine:3.20",
    "curl --header \"PRIVATE-TOKEN: ⟪glpat⟫\" \"https://gitlab.com/api/v4/projects/⟨pr⟩/pipelines?status=failed\"",
    # ---- Slack, chat hooks
    "SLACK_BOT_TOKEN=⟪xoxb⟫\nSLACK_APP_TOKEN=⟪xapp⟫\nSLACK_CHANNEL=#deploys",
    "app = App(token=\"⟪xoxb⟫\", signing_secret=os.environ[\"SLACK_SIGNING_SECRET\"])",
    "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy ⟨ver⟩ done\"}' ⟪slack_hook_url⟫",
    "alertmanager.yml:\n  receivers:\n  - name: oncall\n    slack_configs:\n    - api_url: ⟪slack_hook_url⟫\n      channel: '#alerts-prod'",
    "slack_sdk.errors.SlackApiError: The request to the Slack API failed. (url: https://slack.com/api/chat.postMessage)\nThe server responded with: {'ok': False, 'error': 'not_in_channel'}\n  token used: ⟪xoxp⟫",
    "DISCORD_WEBHOOK=⟪discord_hook⟫",
    "requests.post(\"⟪discord_hook⟫\", json={\"content\": msg}, timeout=5)",
    "TELEGRAM_BOT_TOKEN=⟪telegram⟫ python -m notifier",
    "https://api.telegram.org/bot⟪telegram⟫/sendMessage?chat_id=-100⟨run⟩&text=build+failed",
    # ---- Stripe / payments / mail
    "STRIPE_SECRET_KEY=⟪stripe⟫\nSTRIPE_WEBHOOK_SECRET=⟪whsec⟫",
    "stripe.api_key = \"⟪stripe⟫\"\ncharge = stripe.PaymentIntent.retrieve(pi_id)",
    "$ stripe listen --forward-to localhost:4242/webhook --api-key ⟪stripe_rk⟫\n> Ready! Your webhook signing secret is ⟪whsec⟫ (^C to quit)",
    "curl https://api.stripe.com/v1/customers -u ⟪stripe⟫: -d description=smoke",
    "SENDGRID_API_KEY='⟪sendgrid⟫'",
    "sg = SendGridAPIClient(\"⟪sendgrid⟫\")",
    "TWILIO_ACCOUNT_SID=AC⟨hex32⟩\nTWILIO_API_KEY=⟪twilio⟫",
    "helm upgrade --install datadog datadog/datadog -n monitoring --set datadog.apiKey=⟪datadog⟫ --set datadog.site=datadoghq.eu",
    "DD_API_KEY=⟪datadog⟫ DD_SITE=datadoghq.com datadog-agent run",
    # ---- registries / infra tokens
    "//registry.npmjs.org/:_authToken=⟪npm⟫",
    "- run: npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: ⟪npm⟫",
    "[pypi]\n  username = __token__\n  password = ⟪pypi⟫",
    "$ twine upload dist/* -u __token__ -p ⟪pypi⟫\nUploading distributions to https://upload.pypi.org/legacy/",
    "echo \"⟪dckr⟫\" | docker login -u fenwickci --password-stdin",
    "$ export VAULT_ADDR=https://vault.larchmont.io:8200\n$ export VAULT_TOKEN=⟪vault⟫\n$ vault kv get secret/billing/db",
    "SECRET_KEY = '⟪django⟫'\nDEBUG = True\nALLOWED_HOSTS = ['*']",
    # ---- JWT / bearer / basic
    "Authorization: Bearer ⟪jwt⟫",
    "GET /v2/invoices?limit=50 HTTP/1.1\nHost: api.pellucid.dev\nAuthorization: Bearer ⟪jwt⟫\nUser-Agent: python-requests/2.32.3",
    "localStorage.setItem('access_token', '⟪jwt⟫')",
    "token: ⟪k8s_jwt⟫",
    "$ kubectl --token=⟪k8s_jwt⟫ get pods -n billing",
    "curl -H \"Authorization: Bearer ⟪bearer⟫\" https://internal.fenwick.cloud/admin/flags",
    "> GET /metrics HTTP/1.1\n> Host: ⟨ip⟩:9090\n> Authorization: Basic ⟪basic⟫\n> Accept: */*",
    "{\n  \"auths\": {\n    \"harbor.larchmont.io\": {\n      \"auth\": \"⟪basic⟫\"\n    }\n  }\n}",
    "WWW auth failed for user; header was `Authorization: Basic ⟪basic⟫` (status 401)",
    # ---- private keys
    "$ cat ~/.ssh/id_ed25519\n⟪pem_ssh⟫",
    "tls.key: |\n⟪pem_rsa⟫",
    "ssh_private_key = \"\"\"\n⟪pem_pkcs8⟫\n\"\"\"",
    "Here's the key the vendor emailed, can you add it to the sftp job?\n\n⟪pem_ec⟫",
    "users:\n- name: admin@larchmont-prod\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURF\n    client-key-data: ⟪kube_key⟫",
]

DB_ROWS = [
    "DATABASE_URL=postgresql://ledger:⟪upw⟫@db-primary.fenwick.internal:5432/ledger?sslmode=require",
    "psql \"postgres://readonly:⟪upw⟫@⟨ip⟩:5432/analytics\" -c '\\dt'",
    "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"10.2.3.4\", port 5432 failed: FATAL:  password authentication failed for user \"etl\"\n[SQL: engine = create_engine('postgresql+psycopg2://etl:⟪upw⟫@10.2.3.4/warehouse')]",
    "MONGO_URI=mongodb+srv://app:⟪upw⟫@cluster0.ab1cd.mongodb.net/orders?retryWrites=true&w=majority",
    "spring.datasource.url=jdbc:mysql://mysql.larchmont.io:3306/crm\nspring.datasource.username=crm_app\nspring.datasource.password=⟪pw⟫",
    "REDIS_URL=redis://default:⟪upw⟫@redis-12345.c1.eu-central-1-1.ec2.cloud.redislabs.com:12345",
    "CELERY_BROKER_URL = \"amqp://celery:⟪upw⟫@rabbit.fenwick.internal:5672//\"",
    "mysql -h 127.0.0.1 -u root -p'⟪pw⟫' billing < dump.sql",
    "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: ⟪pw⟫\n    ports: [\"5432:5432\"]",
    "[client]\nuser=backup\npassword=⟪pw⟫\nhost=db-replica-2",
    "$ PGPASSWORD='⟪pw⟫' pg_dump -h db.pellucid.dev -U admin -Fc prod > prod.dump",
    "docker run -d --name pg -e POSTGRES_PASSWORD=⟪pw⟫ -p 5433:5432 postgres:15-alpine",
    "db:\n  host: mariadb.svc\n  user: wordpress\n  password: \"⟪pw⟫\"",
    "conn = pymysql.connect(host=\"10.0.4.17\", user=\"report\", password=\"⟪pw⟫\", database=\"sales\")",
    "CREATE ROLE reporting LOGIN PASSWORD '⟪pw⟫' VALID UNTIL '2026-01-01';",
    "ALTER USER 'svc_orders'@'%' IDENTIFIED WITH caching_sha2_password BY '⟪pw⟫';",
    "helm install pg bitnami/postgresql --set auth.postgresPassword=⟪pw⟫ --set auth.database=keycloak",
    "kubectl create secret generic mongo-auth --from-literal=username=root --from-literal=password='⟪pw⟫' -n data",
    "Traceback (most recent call last):\n  File \"/app/worker.py\", line 88, in <module>\n    r = redis.from_url(\"rediss://:⟪upw⟫@cache.larchmont.io:6380/0\")\nredis.exceptions.AuthenticationError: invalid username-password pair",
    "[database]\ndsn = \"mysql://wp:⟪upw⟫@localhost:3306/site\"\npool = 10",
    "ELASTIC_PASSWORD=⟪pw⟫\nKIBANA_SYSTEM_PASSWORD=⟪pw⟫",
    "smtp:\n  host: smtp.mailgun.org\n  port: 587\n  username: apikey\n  password: ⟪pw⟫",
    "ftp://deploy:⟪upw⟫@files.marrowvale.com/public_html/",
    "const pool = new Pool({ connectionString: 'postgres://api:⟪upw⟫@pg.pellucid.dev/api' });",
    "- name: Run migrations\n  run: alembic upgrade head\n  env:\n    DB_PASSWORD: ⟪pw⟫",
]

PASSWORD_PROSE = [
    "new grafana admin pw is ⟪pw⟫, I'll rotate it after the demo",
    "login for the test tenant: user qa-bot, pass ⟪pw⟫",
    "FYI the router's admin password got reset to ⟪pw⟫ after the firmware update",
    "ok the sftp user is `partner_upload` and the password is ⟪pw⟫, expires end of month",
    "Zugangsdaten für den Staging-Server: Benutzer deploy, Passwort ⟪pw⟫",
    "Das neue WLAN-Passwort im Büro ist ⟪pw⟫",
    "Voici le mot de passe pour l'accès au NAS : ⟪pw⟫",
    "mot de passe provisoire : ⟪pw⟫ (à changer à la première connexion)",
    "Te paso la contraseña del usuario admin: ⟪pw⟫",
    "contraseña del wifi de la oficina: ⟪pw⟫",
    "Segue a senha do banco de homologação: ⟪pw⟫",
    "Ecco la password del server di collaudo: ⟪pw⟫",
    "wachtwoord van de beheerder is nu ⟪pw⟫",
    "Nowe hasło do VPN: ⟪pw⟫",
    "本番DBのパスワード: ⟪pw⟫",
    "管理后台密码：⟪pw⟫",
    "Новый пароль от Jenkins — ⟪pw⟫",
    "관리자 비밀번호: ⟪pw⟫",
    "Yeni yönetici şifresi ⟪pw⟫ olarak ayarlandı.",
    "Adgangskoden til testserveren er ⟪pw⟫",
    "Passordet til ruteren er ⟪pw⟫",
    "Το συνθηματικό του διακομιστή είναι ⟪pw⟫",
    "Jelszó a teszt szerverhez: ⟪pw⟫",
    "पासवर्ड है ⟪pw⟫",
    "Parola serverului de test este ⟪pw⟫",
    "Geslo za strežnik: ⟪pw⟫",
    "$ sudo -S apt-get update <<< '⟪pw⟫'",
    "sshpass -p '⟪pw⟫' ssh pi@⟨ip⟩",
    "keytool -importkeystore -srckeystore old.jks -srcstorepass ⟪pw⟫ -destkeystore new.p12 -deststoretype PKCS12",
    "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:⟪pw⟫",
    "ADMIN_PASSWORD=⟪pw⟫\nADMIN_EMAIL=⟪email⟫",
    "config.vm.provision \"shell\", inline: \"echo 'vagrant:⟪pw⟫' | chpasswd\"",
    "self.client.login(username=\"ops\", password=\"⟪pw⟫\")  # TODO move to fixture",
    "Jupyter: jupyter server --ServerApp.password='' --ServerApp.token=⟪bearer⟫ --port 8888",
]

PERSONAL_ROWS = [
    # e-mail
    "commit ⟨sha⟩\nAuthor: Ingrid Holmberg <⟪email⟫>\nDate:   Thu Jun 12 16:40:03 2025 +0200\n\n    bump pydantic to 2.11",
    "WARN mailer: hard bounce for ⟪email⟫ (550 5.7.1 rejected by policy)",
    "email,first_name,last_name,country\n⟪email⟫,Femi,Adeyemi,NG\n⟪email⟫,Giulia,Carvalho,PT",
    "Please add ⟪email⟫ as a collaborator on the analytics repo, she starts Monday.",
    "{\"customer\": {\"id\": \"cus_⟨hex32⟩\", \"email\": \"⟪email⟫\", \"name\": \"Santiago Ibarra\"}}",
    "Co-authored-by: Kenji Yamada <⟪email⟫>",
    "INSERT INTO users (id, email, created_at) VALUES (⟨pr⟩, '⟪email⟫', now());",
    ">>> df[df.email.str.contains('gmail')].head(2)\n      id                email  orders\n12   431  ⟪email⟫       7\n58   902  ⟪email⟫       2",
    "git config user.email \"⟪email⟫\"",
    "Hi team, I'm out until the 14th. For anything urgent reach out to ⟪email⟫.",
    "django.db.utils.IntegrityError: duplicate key value violates unique constraint \"users_email_key\"\nDETAIL:  Key (email)=(⟪email⟫) already exists.",
    "To: ⟪email⟫\nCc: ⟪email⟫\nSubject: Re: contract renewal",
    # phones, ~25 countries
    "Contact: Wanjiru Okonkwo, mobile ⟪tel_US⟫",
    "call me at ⟪tel_US⟫ if the pager doesn't go through",
    "customer callback number: ⟪tel_CA⟫",
    "ring the site manager on ⟪tel_GB⟫ before the maintenance window",
    "Landline for the Leeds office: ⟪tel_GB⟫",
    "Handynummer: ⟪tel_DE⟫",
    "Rückruf bitte unter ⟪tel_DE⟫",
    "Tél. portable : ⟪tel_FR⟫",
    "Mi móvil es ⟪tel_ES⟫, escríbeme por WhatsApp.",
    "cellulare del tecnico: ⟪tel_IT⟫",
    "Bel me even op ⟪tel_NL⟫",
    "GSM: ⟪tel_BE⟫",
    "Natel: ⟪tel_CH⟫",
    "erreichbar unter ⟪tel_AT⟫",
    "Ring mig på ⟪tel_SE⟫",
    "tel. kom. ⟪tel_PL⟫",
    "Mobile: ⟪tel_IE⟫ (Ciarán)",
    "telemóvel ⟪tel_PT⟫",
    "Meu WhatsApp: ⟪tel_BR⟫",
    "Cel. ⟪tel_MX⟫",
    "celular: ⟪tel_AR⟫",
    "Delivery contact — Anika Subramanian, ⟪tel_IN⟫",
    "携帯: ⟪tel_JP⟫",
    "연락처: ⟪tel_KR⟫",
    "手机号：⟪tel_CN⟫",
    "ph: ⟪tel_AU⟫",
    "HP ⟪tel_SG⟫",
    "cell ⟪tel_ZA⟫",
    "Line: ⟪tel_NG⟫",
    "Mob: ⟪tel_AE⟫",
    "נייד: ⟪tel_IL⟫",
    "Cep: ⟪tel_TR⟫",
    "Globe: ⟪tel_PH⟫",
    "WA: ⟪tel_ID⟫",
    ("name,phone,city\nLucía Montalvo,⟪tel_ES⟫,Sevilla\nHenrik Vogel,⟪tel_DE⟫,Köln\nSora Watanabe,⟪tel_JP⟫,Osaka"),
    "{\"shipping\": {\"name\": \"Chidi Okonkwo\", \"phone\": \"⟪tel_NG⟫\", \"city\": \"Lagos\"}}",
    "twilio.base.exceptions.TwilioRestException: Unable to create record: The 'To' number ⟪tel_US⟫ is not a valid mobile number",
    "Escalation contacts:\n- primary: Pavel Novak ⟪tel_PL⟫\n- backup: Marisol Ibarra ⟪tel_MX⟫",
    "user_profile = {'name': 'Layla Karimi', 'phone': '⟪tel_AE⟫', 'email': '⟪email⟫'}",
    "Lieferadresse: Holunderweg 4, 01069 Dresden, Tel. ⟪tel_DE⟫",
    "UPDATE customers SET phone = '⟪tel_FR⟫' WHERE id = ⟨pr⟩;",
    # cards
    "card: ⟪card⟫ exp 09/28 cvc 512",
    "payment failed for card ⟪card⟫ (do_not_honor)",
    "Can you refund the charge on ⟪card⟫? Customer says it was a duplicate.",
    "{\"number\": \"⟪card⟫\", \"exp_month\": 11, \"exp_year\": 2029}",
    "2025-06-03T08:12:44Z ERROR checkout: gateway rejected pan=⟪card⟫ reason=insufficient_funds",
    "INSERT INTO payments (user_id, card_no) VALUES (77, '⟪card⟫');",
    "Kreditkarte: ⟪card⟫, gültig bis 04/27",
    "numéro de carte ⟪card⟫",
    # IBAN
    "Please wire the deposit to ⟪iban_DE⟫ (Holmberg GmbH).",
    "IBAN: ⟪iban_GB⟫",
    "Bankverbindung: ⟪iban_AT⟫, BIC BKAUATWW",
    "RIB / IBAN : ⟪iban_FR⟫",
    "Cuenta para el reembolso: ⟪iban_ES⟫",
    "rekeningnummer ⟪iban_NL⟫ t.n.v. R. Quinlan",
    "IBAN beneficiario: ⟪iban_IT⟫",
    "vendor,iban,amount\nmarrowvale,⟪iban_BE⟫,1200.00\npellucid,⟪iban_IE⟫,880.50",
    "{\"payout\": {\"iban\": \"⟪iban_CH⟫\", \"currency\": \"CHF\"}}",
    "Numer konta: ⟪iban_PL⟫",
    "NIB/IBAN ⟪iban_PT⟫",
    "sepa_mandate(iban=\"⟪iban⟫\", name=\"Oskar Vogel\")",
    # national ids
    "SSN: ⟪ssn⟫",
    "applicant ssn=⟪ssn⟫ dob=1984-02-11 status=pending",
    "W-9 on file, TIN ⟪ssn⟫",
    "employee_id,name,ssn\nE-1041,Ren Demir,⟪ssn⟫",
    "NI number ⟪nino⟫",
    "payroll: nino=⟪nino⟫ tax_code=1257L",
    "SIN ⟪sin⟫",
    "N° de sécurité sociale : ⟪nir⟫",
    "Steuer-ID: ⟪steuer⟫",
    "Aadhaar no. ⟪aadhaar⟫",
    "PAN: ⟪pan⟫",
    "DNI ⟪dni⟫",
    "NIE: ⟪nie⟫",
    "BSN ⟪bsn⟫",
    "CPF: ⟪cpf⟫",
    "PESEL ⟪pesel⟫",
    "personnummer ⟪pnr⟫",
    "주민등록번호: ⟪rrn⟫",
    "マイナンバー ⟪mynum⟫",
    "身份证号：⟪cnric⟫",
    # mixed
    "Ticket ⟨ticket⟩ — customer Beatrix Quinlan (⟪email⟫, ⟪tel_GB⟫) asks to update card ending in the new ⟪card⟫",
    "KYC record: name=Thiago Carvalho cpf=⟪cpf⟫ phone=⟪tel_BR⟫ email=⟪email⟫",
    "Onboarding form\nName: Emilio Ibarra\nDNI: ⟪dni⟫\nTeléfono: ⟪tel_ES⟫\nIBAN: ⟪iban_ES⟫",
    "| name | email | phone |\n|---|---|---|\n| Zainab Karimi | ⟪email⟫ | ⟪tel_GB⟫ |",
    "print(user)\n{'id': 55, 'email': '⟪email⟫', 'ssn': '⟪ssn⟫'}",
    "Out[12]:\n   name              phone\n0  Xiu Yamada   ⟪tel_CN⟫\n1  Kenji Sato    ⟪tel_JP⟫",
    "Lohnabrechnung: Henrik Vogel, Steuer-ID ⟪steuer⟫, IBAN ⟪iban_DE⟫",
    "Dossier : Lucie Lefebvre, NIR ⟪nir⟫, tél. ⟪tel_FR⟫",
]

ALL_POSITIVE = SECRET_ROWS + DB_ROWS + PASSWORD_PROSE + PERSONAL_ROWS

# ================================================================================================
# clean near-miss rows
# ================================================================================================

_FIX = {
    "greet": b64s(b"welcome to the ledger sandbox"),
    "cfg": b64s(b'{"retries":3,"backoff":"exp"}'),
    "tsv": b64s(b"region\tcount\neu\t12\nus\t40\n"),
    "hdr": b64u(b'{"alg":"ES256","typ":"JWT"}'),
    "readme": b64s(b"# fixtures\nNothing secret lives here.\n"),
}

CLEAN_ROWS = [
    # hashes, ids, digests
    "commit ⟨sha⟩\nMerge: ⟨short⟩ ⟨short⟩\nAuthor: dependabot[bot]\n\n    Bump urllib3 from 2.2.1 to 2.2.2",
    "HEAD is now at ⟨short⟩ chore: regenerate lockfile",
    "$ git rev-parse HEAD\n⟨sha⟩",
    "Step 7/12 : RUN pip install -r requirements.txt\n ---> Using cache\n ---> ⟨hex32⟩",
    "Digest: sha256:⟨sha256⟩\nStatus: Downloaded newer image for python:3.12-slim",
    "x-request-id: ⟨uuid⟩\nx-amzn-trace-id: Root=1-6650c3a1-⟨hex32⟩",
    "Resolved https://github.com/fenwick/ledger.git#⟨sha⟩",
    "\"integrity\": \"sha512-⟨sha256⟩⟨sha256⟩\"",
    "deployment_id = \"⟨uuid⟩\"  # for the rollback script",
    "pod/ledger-api-⟨pod⟩ restarted (OOMKilled), node ip-10-0-3-17.ec2.internal",
    "s3://fenwick-artifacts/builds/⟨sha⟩/ledger-⟨ver⟩.whl",
    "  revision: ⟨sha⟩\n  path: charts/ledger\n  targetRevision: HEAD",
    "md5(export.csv) = ⟨hex32⟩",
    "job ⟨run⟩ finished: 412 passed, 3 skipped, 0 failed (wall 6m12s)",
    # versions, dates, tickets, numbers
    "Successfully installed anthropic-0.39.0 httpx-0.27.2 pydantic-2.9.2 tokenizers-0.20.1",
    "node v20.15.1, npm 10.7.0, pnpm 9.4.0",
    "Closes ⟨ticket⟩. Follow-up in #⟨pr⟩.",
    "Order #⟨run⟩ shipped on ⟨date⟩ via DHL, tracking pending",
    "invoice INV-2025-004471 total 1,284.50 EUR due ⟨date⟩",
    "timestamp=1718035200123 seq=884213 partition=7 offset=30219987",
    "Processed 18446744073709 rows in 42.7s (431,234,123 rows/s)",
    "LISTEN 0.0.0.0:8443, 0.0.0.0:9090 (metrics), 127.0.0.1:6060 (pprof)",
    "ports:\n  - \"5432:5432\"\n  - \"6379:6379\"\n  - \"15672:15672\"",
    "ERROR: relation \"orders_2024_q3\" does not exist at character 15",
    "The migration 0047_add_index_on_created_at took 12 minutes on prod.",
    "memory: requests 512Mi, limits 2Gi; cpu: 250m",
    "Release ⟨ver⟩ (⟨date⟩): drop Python 3.8, add async client.",
    "build number 20250611.4 on agent pool ubuntu-22.04",
    "Cargo.lock: serde 1.0.203, tokio 1.38.0, reqwest 0.12.5",
    "lat=48.137154 lon=11.576124 accuracy=12.5",
    "IPv6 fe80::1c2a:3bff:fe4d:5e6f%en0",
    "user_id 3141592653 was merged into 2718281828",
    "ISBN 978-0-13-468599-1 (2nd edition)",
    "ZIP 94107, floor 3, desk 3-112",
    "The build took 1234567 ms which is way over budget.",
    "container exited with code 137 after 00:14:32",
    "chmod 600 ~/.ssh/config && ls -l /etc/ssl/certs | wc -l",
    "/var/lib/postgresql/16/main/base/16384/2619",
    "cron: 15 3 * * 1-5 /opt/ledger/bin/nightly --since 2025-01-01",
    # placeholders / redactions
    "OPENAI_API_KEY=<YOUR_API_KEY>  # get one at platform.openai.com",
    "export ANTHROPIC_API_KEY=sk-ant-...   # paste your key here",
    "api_key = \"sk-...\"  # replace me",
    "STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
    "GH_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx gh pr list",
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "Example from the AWS docs: aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "admin_password: ******** (masked by the UI)",
    "DATABASE_URL=postgres://user:****@localhost:5432/app",
    "-H 'Authorization: Bearer <access_token>'",
    "  with:\n    token: ${{ secrets.RELEASE_PAT }}",
    "  password: ${LEDGER_PG_PASSWORD:?unset}",
    "pg_pass = os.environ.get(\"LEDGER_PG_PASS\", \"\")",
    "api_key: !vault |\n  secret/data/ledger#api_key",
    "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ",
    "redis://:<password>@localhost:6379/0",
    "mongodb://<username>:<password>@host:27017",
    "aws_secret_access_key = REDACTED",
    "[redacted] key=sk-proj-•••• (last 4: 9fQa)",
    "headers: {'x-api-key': '***'}",
    "DD_API_KEY=your_datadog_api_key_here",
    "curl -H \"Authorization: Bearer $TOKEN\" https://api.pellucid.dev/v1/me",
    "export VAULT_TOKEN=$(vault login -method=oidc -token-only)",
    "kubectl create secret generic llm-creds --from-env-file=.env",
    "echo \"$DOCKERHUB_TOKEN\" | docker login -u fenwickci --password-stdin",
    "psql \"$DATABASE_URL\" -c 'select 1'",
    "<input type=\"password\" name=\"password\" autocomplete=\"current-password\">",
    "email: user@example.com",
    "phone: +1 555 0199 (fictional)",
    "IBAN: DE00 0000 0000 0000 0000 00 (placeholder)",
    "SSN: XXX-XX-XXXX",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE⟨hex32⟩\n-----END PUBLIC KEY-----",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI⟨hex32⟩ ingrid@laptop",
    "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----",
    # prose about secrets
    "We should redesign the password reset flow so the link expires after 15 minutes.",
    "The token budget for the planner is 8k input and 2k output per step.",
    "The key insight from the outage: retries must be idempotent.",
    "Rotate the API keys quarterly and store them in Vault, never in the repo.",
    "The secret sauce here is the cache warmup, not the model.",
    "Reminder: never paste credentials into tickets; use the 1Password share link.",
    "Password must be at least 12 characters and include a digit.",
    "forgot_password() sends a one-time code; see docs/auth.md",
    "max_tokens=4096, temperature=0.2, top_p=0.95",
    "Primary key on (tenant_id, created_at); foreign key to accounts.id.",
    "Keyboard shortcut: Ctrl+Shift+P opens the command palette.",
    "El token de acceso caduca a los 60 minutos; hay que refrescarlo.",
    "Das Passwort-Feld darf nicht leer sein.",
    "Le mot de passe doit contenir au moins une majuscule.",
    "パスワードを忘れた場合はリセットしてください。",
    "Secret scanning found 0 new alerts on main.",
    "The JWT middleware rejects tokens with alg=none.",
    "def test_login_rejects_wrong_password(client):\n    assert client.post('/login', json={'password': 'wrong'}).status_code == 401",
    "if not hmac.compare_digest(sig, expected):\n    raise InvalidSignature",
    "We ran out of tokens mid-response; bump the context window.",
    "private_key_path: /etc/ledger/tls/server.key",
    "ssh -i ~/.ssh/id_ed25519 deploy@bastion.fenwick.cloud",
    "GOOGLE_APPLICATION_CREDENTIALS=/var/run/secrets/gcp/sa.json",
    # base64 / encoded non-secrets
    "data:\n  greeting: ⟨b64:greet⟩",
    "echo ⟨b64:cfg⟩ | base64 -d",
    "payload=⟨b64:tsv⟩",
    "JWT header only: ⟨b64:hdr⟩ (payload omitted)",
    "README.md.b64: ⟨b64:readme⟩",
    "favicon: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAAXNSR0IArs4c6QAAAARnQU1BAACx",
    # CLI / config / logs with no secret
    "$ docker ps\nCONTAINER ID   IMAGE                 STATUS\n⟨short⟩a1b2c   postgres:16-alpine    Up 3 hours",
    "$ kubectl get secrets -n billing\nNAME              TYPE     DATA   AGE\nstripe-creds      Opaque   2      41d\nregistry-pull     kubernetes.io/dockerconfigjson   1   41d",
    "helm upgrade ledger ./charts/ledger -f values-prod.yaml --set image.tag=⟨ver⟩",
    "[tool.poetry.dependencies]\npython = \"^3.11\"\nopenai = \"^1.40\"\nboto3 = \"^1.34\"",
    "[server]\nport = 8080\nworkers = 4\nlog_level = \"info\"",
    "{\"level\":\"info\",\"msg\":\"token refreshed\",\"expires_in\":3600,\"ts\":\"⟨date⟩T⟨time⟩Z\"}",
    "2025-06-11 09:14:02 INFO auth: login succeeded for user_id=4821 (mfa=totp)",
    "HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer realm=\"api\", error=\"invalid_token\"",
    "SELECT id, status, created_at FROM orders WHERE created_at > now() - interval '7 days';",
    "git remote add origin git@github.com:fenwick/ledger.git",
    "git clone https://github.com/larchmont/helm-charts.git",
    "postgresql://localhost:5432/ledger_test",
    "redis://redis:6379/2",
    "Jupyter Server 2.14.1 is running at: http://127.0.0.1:8888/lab",
    "Finished `release` profile [optimized] target(s) in 1m 02s",
    "  File \"/usr/lib/python3.12/json/decoder.py\", line 355, in raw_decode\n    raise JSONDecodeError(\"Expecting value\", s, err.value) from None",
    "✔ 38 tests passed (2.31s) — coverage 87.4%",
    "AIza is the prefix Google API keys use; ours live in Secret Manager.",
    "Tokens starting with ghp_ are classic PATs; prefer fine-grained ones.",
    "Color palette: #1f2937 #3b82f6 #10b981 #f59e0b",
    "Fixture user: id=1, name='Test User', email='test@example.org'",
    "fake_key = 'not-a-real-key'  # used by unit tests",
    "OPENAI_API_KEY=dummy pytest tests/unit",
    "region=eu-west-1 account=123456789012 role=ReadOnly",
    "arn:aws:iam::123456789012:role/ledger-ci",
    "Bucket policy updated; versioning enabled on fenwick-logs.",
    "UUID collision probability is negligible: ⟨uuid⟩ vs ⟨uuid⟩",
]
CLEAN_ROWS = [re.sub(r"⟨b64:(\w+)⟩", lambda m: _FIX[m.group(1)], t) for t in CLEAN_ROWS]

# Clean rows relabelled as positives after the file was written (2aa52ed, issue 19: a provider's documented
# sample key is masked like any key): template -> the labels its row carries in heldout_world7.jsonl.
RELABELLED: dict[str, dict[str, list[str]]] = {
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": {
        "canaries": ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"], "kinds": ["aws_key", "aws_secret"]},
    "Example from the AWS docs: aws_access_key_id = AKIAIOSFODNN7EXAMPLE": {
        "canaries": ["AKIAIOSFODNN7EXAMPLE"], "kinds": ["aws_key"]},
}



# ================================================================================================
# build / check / write
# ================================================================================================

def build(seed: int = SEED) -> list[dict[str, object]]:
    r = random.Random(seed)
    AUDIT.clear()
    rows = [render(r, t) for t in ALL_POSITIVE] + [render(r, t) | RELABELLED.get(t, {}) for t in CLEAN_ROWS]
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
    from stdnum.es import dni, nie
    from stdnum.fr import nir
    from stdnum.in_ import aadhaar, pan
    from stdnum.jp import in_ as jp_in
    from stdnum.kr import rrn
    from stdnum.nl import bsn
    from stdnum.pl import pesel
    from stdnum.se import personnummer
    from stdnum.us import ssn

    mods = {"ssn": ssn, "ca_sin": sin, "fr_nir": nir, "de_tax_id": idnr, "aadhaar": aadhaar, "es_dni": dni,
            "nl_bsn": bsn, "br_cpf": cpf, "pl_pesel": pesel, "in_pan": pan, "cn_ric": ric,
            "es_nie": nie, "se_personnummer": personnummer, "kr_rrn": rrn, "jp_my_number": jp_in}
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
            ok = bool(re.fullmatch(r"[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]{2,}", value))
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
    relabelled = {c for labels in RELABELLED.values() for c in labels["canaries"]}  # documented samples recur
    for row in rows:
        if row["text"] in old_texts:
            bad.append(("repeated-text", row["text"][:80], ""))
        for c in row["canaries"]:
            if c in old_canaries and c not in relabelled:
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
