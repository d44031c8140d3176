"""Write the second held-out extension of the privacy corpus (heldout_world2.jsonl).

Why a second one: the first held-stretch (``heldout_world.jsonl``) stopped being blind once a
session read the rows that missed and fixed their causes. These rows were written afterwards, by a
session that had not read the detectors (``reverie/privacy/``) nor run the masker on them: every
value is drawn from a seeded ``random.Random`` in the shape each provider or authority documents,
as the comment beside each generator says, never from our own rules. Identifiers with a check digit
get a correct one from the published algorithm (Luhn for cards and the Canadian SIN, ISO 13616
mod-97 for IBANs, Verhoeff for Aadhaar, the NIR key, ISO 7064 mod 11,10 for the Steuer-IdNr);
documented sample numbers are planted too (a sample is masked like any other secret).

The rows were committed before anything ran on them. Run from the repository root:
``python tests/data/privacy/make_world2_corpus.py [--out DIR]``.
"""

from __future__ import annotations

import base64
import json
import random
import re

from make_world_corpus import FIELD, Gen, Out
from values import ALNUM as AL
from values import B64STD as B64
from values import B64URL as URLSAFE
from values import DG, HEX, LO, UP, iban_of, luhn_digit, mod11_10, verhoeff_digit, write_jsonl
from values import b64u as b64url
from values import group as spaced
from values import pick as rs
from values import whole as same

# ---- secrets by provider (the format each documents) ------------------------------------------

def g_jwt(r: random.Random) -> Out:
    """RFC 7519: base64url(header) . base64url(claims) . base64url(signature)."""
    header = b64url(json.dumps({"alg": "RS256", "typ": "JWT", "kid": rs(r, 8, HEX)}).encode())
    claims = b64url(json.dumps({"sub": rs(r, 12, DG), "iss": "https://auth.example.org",
                                "exp": r.randint(1_700_000_000, 1_900_000_000)}).encode())
    v = f"{header}.{claims}.{rs(r, 86, URLSAFE)}"
    return v, v, "jwt"


def g_pem(r: random.Random) -> Out:
    """RFC 7468 PEM: a BEGIN line, base64 lines of 64, an END line (RSA, EC, OpenSSH)."""
    label = r.choice(["RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY"])
    body = "\n".join(rs(r, 64, B64) for _ in range(r.randint(3, 6)))
    v = f"-----BEGIN {label}-----\n{body}\n{rs(r, 24, B64)}==\n-----END {label}-----"
    return v, v, "private_key"


def g_discord(r: random.Random) -> Out:
    """Discord bot tokens: base64(snowflake user id) . 6 characters . 27-38 characters."""
    snowflake = str(r.randint(10**17, 10**19 - 1))
    v = b64url(snowflake.encode()) + "." + rs(r, 6, URLSAFE) + "." + rs(r, 38, URLSAFE)
    return v, v, "discord_token"


def g_slack_webhook(r: random.Random) -> Out:
    """Slack incoming webhooks: hooks.slack.com/services/T…/B…/24 characters."""
    v = f"https://hooks.slack.com/services/T{rs(r, 10, UP + DG)}/B{rs(r, 10, UP + DG)}/{rs(r, 24)}"
    return v, v, "slack_webhook"


def g_url_credentials(r: random.Random) -> Out:
    """RFC 3986 userinfo: scheme://user:password@host."""
    user = r.choice(["report_ro", "etl", "svc-billing", "admin"])
    pw = rs(r, 14, AL)
    scheme, host = r.choice([("postgres", "db.internal:5432/app"), ("mongodb+srv", "cluster0.ab1cd.mongodb.net/prod"),
                             ("redis", "cache.internal:6379/0"), ("amqp", "mq.internal:5672/%2f")])
    creds = f"{user}:{pw}"
    return f"{scheme}://{creds}@{host}", creds, "url_credentials"


def g_bearer(r: random.Random) -> Out:
    """An opaque OAuth 2.0 access token (RFC 6750), no provider prefix."""
    v = rs(r, 40, AL + "-._~")
    return v, v, "bearer_token"


def g_aws_secret(r: random.Random) -> Out:
    """AWS secret access keys: 40 characters of base64."""
    v = rs(r, 40, B64)
    return v, v, "aws_secret"


def g_azure_storage(r: random.Random) -> Out:
    """Azure Storage account keys: 64 random bytes in base64 (88 characters, ending "==")."""
    v = base64.b64encode(bytes(r.randrange(256) for _ in range(64))).decode()
    return v, v, "azure_storage_key"


def g_heroku(r: random.Random) -> Out:
    """Heroku API keys: the 2024 format "HRKU-AA" and 58 characters; older keys are UUIDs."""
    if r.random() < 0.5:
        v = "HRKU-AA" + rs(r, 58, URLSAFE)
    else:
        h = rs(r, 32, HEX)
        v = f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"
    return v, v, "heroku_key"


def g_password(r: random.Random) -> Out:
    v = r.choice([
        rs(r, 3, UP) + rs(r, 5, LO) + r.choice("@#$%^&") + rs(r, 4, DG),
        r.choice(["Harbor", "Maple", "Orchid", "Quartz", "Tundra"]) + r.choice("-_.") + rs(r, 5, DG) + r.choice("!*"),
        rs(r, 20, AL),
        rs(r, 5, LO) + r.choice("!?") + rs(r, 5, LO) + rs(r, 2, DG),
    ])
    return v, v, "password"


SECRETS: dict[str, Gen] = {
    # Google API keys: "AIza" and 35 characters of [0-9A-Za-z_-] (Google Cloud docs, API keys).
    "google_api_key": same("google_api_key", lambda r: "AIza" + rs(r, 35, URLSAFE)),
    # Hugging Face user access tokens: "hf_" and 34 letters (settings/tokens).
    "huggingface_token": same("huggingface_token", lambda r: "hf_" + rs(r, 34, UP + LO)),
    # Twilio API key SIDs: "SK" and 32 hex digits (Twilio REST API, API keys).
    "twilio_api_key": same("twilio_api_key", lambda r: "SK" + rs(r, 32, HEX)),
    # AWS access key ids: "AKIA" (long-term) or "ASIA" (STS) and 16 upper-case alphanumerics.
    "aws_key": same("aws_key", lambda r: r.choice(["AKIA", "ASIA"]) + rs(r, 16, UP + "234567")),
    "aws_secret": g_aws_secret,
    # GitHub classic PATs "ghp_", user-to-server "ghu_", refresh "ghr_": prefix and 36 alphanumerics.
    "github_token": same("github_token", lambda r: r.choice(["ghp_", "ghu_", "ghr_"]) + rs(r, 36)),
    # GitLab personal access tokens "glpat-" and 20 characters; runner auth tokens "glrt-".
    "gitlab_token": same("gitlab_token", lambda r: r.choice(["glpat-", "glrt-"]) + rs(r, 20, URLSAFE)),
    # Slack user and bot tokens: "xoxp-"/"xoxb-", numeric team and user ids, a 32/24-char secret.
    "slack_token": same("slack_token", lambda r: r.choice([
        f"xoxp-{rs(r, 11, DG)}-{rs(r, 11, DG)}-{rs(r, 13, DG)}-{rs(r, 32, HEX)}",
        f"xoxb-{rs(r, 11, DG)}-{rs(r, 13, DG)}-{rs(r, 24)}"])),
    "slack_webhook": g_slack_webhook,
    # Stripe secret and restricted keys: "sk_live_"/"rk_live_" and 24+ alphanumerics.
    "stripe_key": same("stripe_key", lambda r: r.choice(["sk_live_", "rk_live_", "sk_test_"]) + rs(r, 24)),
    # OpenAI keys: legacy "sk-" + 20 + "T3BlbkFJ" + 20, project keys "sk-proj-…", service accounts
    # "sk-svcacct-…".
    "openai_key": same("openai_key", lambda r: r.choice([
        "sk-" + rs(r, 20) + "T3BlbkFJ" + rs(r, 20),
        "sk-svcacct-" + rs(r, 74, URLSAFE) + "T3BlbkFJ" + rs(r, 74, URLSAFE)])),
    # Anthropic API keys "sk-ant-api03-" and admin keys "sk-ant-admin01-": 93 characters and "AA".
    "anthropic_key": same("anthropic_key", lambda r: r.choice(["sk-ant-api03-", "sk-ant-admin01-"])
                          + rs(r, 93, URLSAFE) + "AA"),
    # SendGrid: "SG." 22 characters "." 43 characters.
    "sendgrid_key": same("sendgrid_key", lambda r: "SG." + rs(r, 22, URLSAFE) + "." + rs(r, 43, URLSAFE)),
    # npm granular access tokens: "npm_" and 36 alphanumerics.
    "npm_token": same("npm_token", lambda r: "npm_" + rs(r, 36)),
    # PyPI API tokens: macaroons starting "pypi-AgEIcHlwaS5vcmc" (base64 of "pypi.org").
    "pypi_token": same("pypi_token", lambda r: "pypi-AgEIcHlwaS5vcmc" + rs(r, 120, URLSAFE)),
    # Shopify: access tokens "shpat_", shared secrets "shpss_", custom-app tokens "shpca_": 32 hex.
    "shopify_token": same("shopify_token", lambda r: r.choice(["shpat_", "shpss_", "shpca_"]) + rs(r, 32, HEX)),
    "discord_token": g_discord,
    # Telegram bot tokens (BotFather): numeric bot id ":" 35 characters.
    "telegram_token": same("telegram_token", lambda r: str(r.randint(10**8, 10**10 - 1)) + ":AA" + rs(r, 33, URLSAFE)),
    # Microsoft Entra client secrets: 3 characters, a digit, "Q~", 34 characters.
    "azure_client_secret": same("azure_client_secret",
                                lambda r: rs(r, 3) + r.choice(DG) + "Q~" + rs(r, 34, AL + "_~.-")),
    "azure_storage_key": g_azure_storage,
    # DigitalOcean: personal "dop_v1_", OAuth "doo_v1_", refresh "dor_v1_", and 64 hex digits.
    "digitalocean_token": same("digitalocean_token", lambda r: r.choice(["dop_v1_", "doo_v1_"]) + rs(r, 64, HEX)),
    "heroku_key": g_heroku,
    # Datadog: API keys are 32 hex digits, application keys 40 hex digits.
    "datadog_key": same("datadog_key", lambda r: rs(r, r.choice([32, 40]), HEX)),
    # Atlassian API tokens: "ATATT3xFfGF0" ... "=" and an 8-hex-digit checksum, 192 in all.
    "atlassian_token": same("atlassian_token",
                            lambda r: "ATATT3xFfGF0" + rs(r, 171, URLSAFE) + "=" + rs(r, 8, HEX.upper())),
    # Linear personal API keys: "lin_api_" and 40 alphanumerics.
    "linear_key": same("linear_key", lambda r: "lin_api_" + rs(r, 40)),
    # Notion integration tokens: legacy "secret_" and 43 alphanumerics; since 2024 "ntn_" and 46.
    "notion_token": same("notion_token", lambda r: r.choice(["secret_" + rs(r, 43), "ntn_" + rs(r, 11, DG) + rs(r, 35)])),
    # Doppler personal "dp.pt.", service "dp.st.", CLI "dp.ct." and 43 characters.
    "doppler_token": same("doppler_token", lambda r: r.choice(["dp.pt.", "dp.st.", "dp.ct."]) + rs(r, 43)),
    # HashiCorp Vault 1.10+: service tokens "hvs.", batch tokens "hvb.", and 90-odd characters.
    "vault_token": same("vault_token", lambda r: r.choice(["hvs.", "hvb."]) + rs(r, 91, URLSAFE)),
    "jwt": g_jwt,
    "private_key": g_pem,
    # Mailchimp API keys: 32 hex digits, "-us", a datacenter number.
    "mailchimp_key": same("mailchimp_key", lambda r: rs(r, 32, HEX) + "-us" + str(r.randint(1, 21))),
    # Dropbox short-lived access tokens: "sl." and 130-odd characters.
    "dropbox_token": same("dropbox_token", lambda r: "sl." + rs(r, 136, URLSAFE)),
    # Figma personal access tokens: "figd_" and 40 characters.
    "figma_token": same("figma_token", lambda r: "figd_" + rs(r, 40, URLSAFE)),
    # Supabase personal access tokens: "sbp_" and 40 hex digits.
    "supabase_token": same("supabase_token", lambda r: "sbp_" + rs(r, 40, HEX)),
    # Netlify personal access tokens: "nfp_" and 36 alphanumerics.
    "netlify_token": same("netlify_token", lambda r: "nfp_" + rs(r, 36)),
    # Buildkite API access tokens: "bkua_" and 40 hex digits.
    "buildkite_token": same("buildkite_token", lambda r: "bkua_" + rs(r, 40, HEX)),
    # Docker Hub personal access tokens: "dckr_pat_" and 27 characters.
    "dockerhub_token": same("dockerhub_token", lambda r: "dckr_pat_" + rs(r, 27, URLSAFE)),
    # Groq API keys: "gsk_" and 52 alphanumerics.
    "groq_key": same("groq_key", lambda r: "gsk_" + rs(r, 52)),
    # Replicate API tokens: "r8_" and 37 alphanumerics.
    "replicate_token": same("replicate_token", lambda r: "r8_" + rs(r, 37)),
    # Perplexity API keys: "pplx-" and 48 alphanumerics.
    "perplexity_key": same("perplexity_key", lambda r: "pplx-" + rs(r, 48)),
    # LangSmith personal tokens: "lsv2_pt_", 32 hex, "_", 10 hex.
    "langsmith_key": same("langsmith_key", lambda r: "lsv2_pt_" + rs(r, 32, HEX) + "_" + rs(r, 10, HEX)),
    # Airtable personal access tokens: "pat", 14 alphanumerics, ".", 64 hex digits.
    "airtable_token": same("airtable_token", lambda r: "pat" + rs(r, 14) + "." + rs(r, 64, HEX)),
    # Mapbox secret tokens: "sk.eyJ1Ijoi" (base64 of '{"u":"') and a JWT-like tail.
    "mapbox_token": same("mapbox_token", lambda r: "sk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6I" + rs(r, 20) + "." + rs(r, 22, URLSAFE)),
    # 1Password service account tokens: "ops_eyJ" and a long base64 body.
    "onepassword_token": same("onepassword_token", lambda r: "ops_eyJ" + rs(r, 180, AL)),
    # Mailgun private API keys: "key-" and 32 hex digits.
    "mailgun_key": same("mailgun_key", lambda r: "key-" + rs(r, 32, HEX)),
    # Grafana Cloud access policy tokens: "glc_" and base64 of a JSON object.
    "grafana_token": same("grafana_token", lambda r: "glc_eyJvIjoi" + rs(r, 100, AL) + "In19"),
    "url_credentials": g_url_credentials,
    "bearer_token": g_bearer,
    "password": g_password,
}


# ---- personal data (national formats, check digits from the published algorithms) --------------

def g_phone_de_mobile(r: random.Random) -> Out:
    """German mobile numbers in national format: 015x/016x/017x and 7-8 digits (BNetzA plan)."""
    v = r.choice(["0172 " + rs(r, 7, DG), "0173-" + rs(r, 7, DG), "0152 " + rs(r, 8, DG),
                  "0162/" + rs(r, 7, DG), "0157 " + spaced(rs(r, 8, DG), [4, 4])])
    return v, v, "phone"


def g_phone_de_fixed(r: random.Random) -> Out:
    v = r.choice(["040 " + rs(r, 8, "23456789"), "0221 " + rs(r, 7, "23456789"), "+49 69 " + rs(r, 8, "23456789")])
    return v, v, "phone"


def g_phone_gb(r: random.Random) -> Out:
    """Ofcom's ranges for drama: 07700 900000-999, 0113 496 0000-0999, 0117 496 0000-0999."""
    v = r.choice(["07700 900" + rs(r, 3, DG), "0113 496 0" + rs(r, 3, DG), "+44 117 496 0" + rs(r, 3, DG),
                  "+44 7700 900" + rs(r, 3, DG)])
    return v, v, "phone"


def g_phone_fr(r: random.Random) -> Out:
    """French numbers: ten digits in pairs, mobiles 06/07, or +33 without the trunk 0."""
    pairs = " ".join(rs(r, 2, DG) for _ in range(4))
    v = r.choice(["06 " + pairs, "07 " + pairs, "+33 6 " + pairs, "01 " + pairs])
    return v, v, "phone"


def g_phone_us(r: random.Random) -> Out:
    """NANP: area code and exchange 2-9xx; 555-0100..0199 is reserved for fiction."""
    area = r.choice(["212", "312", "415", "617", "206", "512"])
    v = r.choice([f"({area}) 555-01{rs(r, 2, DG)}", f"{area}-555-01{rs(r, 2, DG)}", f"+1 {area} 555 01{rs(r, 2, DG)}"])
    return v, v, "phone"


def g_phone_in(r: random.Random) -> Out:
    """Indian mobiles: ten digits starting 6-9, "+91" or a trunk 0."""
    body = r.choice("6789") + rs(r, 9, DG)
    v = r.choice(["+91 " + spaced(body, [5, 5]), "+91-" + body, "0" + spaced(body, [5, 5])])
    return v, v, "phone"


def g_phone_intl(r: random.Random) -> Out:
    """Mobiles of other regions in E.164-style international format."""
    v = r.choice([
        "+34 6" + spaced(rs(r, 8, DG), [2, 3, 3]),            # Spain: 6xx xxx xxx
        "+39 3" + spaced(rs(r, 9, DG), [2, 3, 4]),            # Italy: 3xx xxx xxxx
        "+31 6 " + r.choice("12345") + rs(r, 7, DG),          # Netherlands: 06-1..5 + 7
        "+61 4" + spaced(rs(r, 8, DG), [2, 3, 3]),            # Australia: 04xx xxx xxx
        "+81 90-" + rs(r, 4, DG) + "-" + rs(r, 4, DG),        # Japan: 090-xxxx-xxxx
        "+55 11 9" + rs(r, 4, DG) + "-" + rs(r, 4, DG),       # Brazil: São Paulo mobile
        "+41 79 " + spaced(rs(r, 7, DG), [3, 2, 2]),          # Switzerland: 079
        "+43 664 " + rs(r, 7, DG),                            # Austria: A1 mobile
        "+353 85 " + spaced(rs(r, 7, DG), [3, 4]),            # Ireland: 085
    ])
    return v, v, "phone"


def g_phone_au_national(r: random.Random) -> Out:
    v = "04" + rs(r, 2, DG) + " " + spaced(rs(r, 6, DG), [3, 3])
    return v, v, "phone"


def g_phone_nl_national(r: random.Random) -> Out:
    v = "06-" + r.choice("12345") + rs(r, 7, DG)
    return v, v, "phone"


def g_ssn(r: random.Random) -> Out:
    """SSA: area 001-899 but 666, group 01-99, serial 0001-9999; 219-09-9999 is the SSA's own
    1938 pamphlet sample."""
    if r.random() < 0.2:
        return "219-09-9999", "219-09-9999", "ssn"
    area = r.choice([n for n in range(1, 900) if n != 666])
    v = f"{area:03d}-{r.randint(1, 99):02d}-{r.randint(1, 9999):04d}"
    return v, v, "ssn"


def g_nino(r: random.Random) -> Out:
    """HMRC: two prefix letters (not D F I Q U V; second not O; not BG GB NK KN TN NT ZZ), six
    digits, a suffix A-D."""
    while True:
        prefix = r.choice("ABCEGHJKLMNOPRSTWXYZ") + r.choice("ABCEGHJKLMNPRSTWXYZ")
        if prefix not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}:
            break
    digits = rs(r, 6, DG)
    v = r.choice([f"{prefix}{digits}{r.choice('ABCD')}",
                  f"{prefix} {spaced(digits, [2, 2, 2])} {r.choice('ABCD')}"])
    return v, v, "uk_nino"


def g_sin(r: random.Random) -> Out:
    """Canadian SIN: nine digits, Luhn; first digit 1-7 (9 for temporary residents)."""
    body = r.choice("12345679") + rs(r, 7, DG)
    digits = body + luhn_digit(body)
    v = r.choice([spaced(digits, [3, 3, 3]), spaced(digits, [3, 3, 3], "-"), digits])
    return v, v, "ca_sin"


def g_nir(r: random.Random) -> Out:
    """French NIR: sex, year, month, department, commune, order (13 digits) and key 97 - n mod 97."""
    body = (r.choice("12") + f"{r.randint(50, 99):02d}" + f"{r.randint(1, 12):02d}"
            + f"{r.choice([13, 31, 33, 59, 69, 75, 92, 93]):02d}" + f"{r.randint(1, 990):03d}" + f"{r.randint(1, 999):03d}")
    key = f"{97 - int(body) % 97:02d}"
    v = r.choice([spaced(body + key, [1, 2, 2, 2, 3, 3, 2]), body + key])
    return v, v, "fr_nir"


def g_idnr(r: random.Random) -> Out:
    """Steuer-IdNr: 11 digits, first not 0, one digit twice in the first ten (others once), ISO
    7064 mod 11,10 check digit."""
    while True:
        digits = r.sample("0123456789", 9)
        if digits[0] == "0":
            continue
        twice = r.choice(digits)
        body = digits.copy()
        body.insert(r.randint(1, 9), twice)
        text = "".join(body)
        if text[0] != "0" and twice * 2 not in text:
            break
    v = text + mod11_10(text)
    v = r.choice([v, spaced(v, [2, 3, 3, 3])])
    return v, v, "de_tax_id"


def g_aadhaar(r: random.Random) -> Out:
    """UIDAI: 12 digits, first 2-9, the last a Verhoeff check digit."""
    body = r.choice("23456789") + rs(r, 10, DG)
    digits = body + verhoeff_digit(body)
    v = r.choice([spaced(digits, [4, 4, 4]), digits])
    return v, v, "aadhaar"


def g_iban(r: random.Random) -> Out:
    """German, British, Austrian, Swiss and Belgian IBANs (Belgium with its national mod-97 pair),
    plus the two samples every bank's documentation shows."""
    pick = r.random()
    if pick < 0.15:
        v = r.choice(["DE89 3704 0044 0532 0130 00", "GB82 WEST 1234 5698 7654 32"])
        return v, v, "iban"
    account = r.choice(["DE", "GB", "AT", "CH", "BE"])
    if account == "DE":
        raw = iban_of("DE", rs(r, 18, DG))
    elif account == "GB":
        raw = iban_of("GB", r.choice(["NWBK", "BARC", "LOYD", "MIDL"]) + rs(r, 14, DG))
    elif account == "AT":
        raw = iban_of("AT", rs(r, 16, DG))
    elif account == "CH":
        raw = iban_of("CH", rs(r, 17, DG))
    else:
        first = r.choice(["096", "001", "310", "363"]) + rs(r, 7, DG)  # bank codes of the NBB list
        check = int(first) % 97 or 97
        raw = iban_of("BE", f"{first}{check:02d}")
    v = r.choice([" ".join(raw[i:i + 4] for i in range(0, len(raw), 4)), raw])
    return v, v, "iban"


def g_card(r: random.Random) -> Out:
    """Card numbers: issuer prefixes (Visa 4, Mastercard 51-55/2221-2720, Amex 34/37, Discover
    6011/65, JCB 3528-3589, UnionPay 62), Luhn; and the documented test numbers."""
    if r.random() < 0.2:
        v = r.choice(["4111 1111 1111 1111", "5555-5555-5555-4444", "3782 822463 10005", "6011111111111117"])
        return v, v, "card_number"
    prefix, length = r.choice([("4", 16), ("53", 16), ("2720", 16), ("34", 15), ("65", 16), ("3530", 16), ("62", 16)])
    body = prefix + rs(r, length - len(prefix) - 1, DG)
    digits = body + luhn_digit(body)
    sizes = [4, 6, 5] if length == 15 else [4, 4, 4, 4]
    v = r.choice([spaced(digits, sizes), spaced(digits, sizes, "-"), digits])
    return v, v, "card_number"


def g_email(r: random.Random) -> Out:
    user = r.choice(["grace.hopper", "t.nakamura", "a-okonkwo", "lea+billing", "r.fernandez92", "s_lindqvist"])
    domain = r.choice(["example.org", "mail.example.net", "beispiel.at", "ejemplo.es", "example.com.au"])
    v = f"{user}@{domain}"
    return v, v, "email"


PERSONAL: dict[str, Gen] = {
    "phone_de": g_phone_de_mobile, "phone_de_fixed": g_phone_de_fixed, "phone_gb": g_phone_gb,
    "phone_fr": g_phone_fr, "phone_us": g_phone_us, "phone_in": g_phone_in, "phone_intl": g_phone_intl,
    "phone_au": g_phone_au_national, "phone_nl": g_phone_nl_national,
    "ssn": g_ssn, "uk_nino": g_nino, "ca_sin": g_sin, "fr_nir": g_nir, "de_tax_id": g_idnr,
    "aadhaar": g_aadhaar, "iban": g_iban, "card_number": g_card, "email": g_email,
}
CANARY: dict[str, Gen] = {**SECRETS, **PERSONAL}


def render(r: random.Random, template: str) -> dict[str, object]:
    canaries: list[str] = []
    kinds: list[str] = []

    def sub(m: re.Match[str]) -> str:
        value, canary, kind = CANARY[m.group(1)](r)
        canaries.append(canary)
        kinds.append(kind)
        return value

    return {"text": FIELD.sub(sub, template), "canaries": canaries, "kinds": kinds}


# ---- positive templates ------------------------------------------------------------------------

SECRET_ROWS = [
    "const mapsKey = \"<<google_api_key>>\"; // TODO move to server side",
    "Geocoding returns REQUEST_DENIED for <<google_api_key>> since this morning.",
    "gemini: api_key=<<google_api_key>> model=gemini-1.5-flash",
    "HF_HUB_TOKEN: <<huggingface_token>>",
    "git clone https://user:<<huggingface_token>>@huggingface.co/acme/private-model",
    "Somebody committed the hugging face token <<huggingface_token>> to the notebook again.",
    "TWILIO_KEY_SID=<<twilio_api_key>>",
    "Twilio(\"<<twilio_api_key>>\", os.environ[\"TWILIO_KEY_SECRET\"], sid)",
    "we rotated the twilio api key, the new SID is <<twilio_api_key>>",
    "[default]\naws_access_key_id = <<aws_key>>\naws_secret_access_key = <<aws_secret>>",
    "AWS_ACCESS_KEY_ID=<<aws_key>> aws s3 ls s3://acme-backups",
    "the leaked key <<aws_key>> belongs to the ci-deployer IAM user",
    "GITHUB_TOKEN=<<github_token>> gh release create v2.1.0",
    "remote: https://<<github_token>>@github.com/acme/infra.git",
    "Revoke <<github_token>>, it was posted in #general.",
    "CI_REGISTRY_PASSWORD: <<gitlab_token>>",
    "gitlab-runner register --token <<gitlab_token>> --url https://gitlab.example.com",
    "SLACK_BOT_TOKEN=<<slack_token>>",
    "client = WebClient(token=\"<<slack_token>>\")",
    "notify_url: <<slack_webhook>>",
    "curl -X POST -d '{\"text\":\"deploy done\"}' <<slack_webhook>>",
    "stripe.api_key = \"<<stripe_key>>\"",
    "STRIPE_SECRET_KEY=<<stripe_key>>",
    "OPENAI_API_KEY=<<openai_key>>",
    "client = OpenAI(api_key=\"<<openai_key>>\")",
    "x-api-key: <<anthropic_key>>",
    "export ANTHROPIC_API_KEY=\"<<anthropic_key>>\"",
    "SENDGRID_TOKEN=<<sendgrid_key>>",
    "mail.send with key <<sendgrid_key>> returned 403 forbidden",
    "echo \"//registry.npmjs.org/:_authToken=<<npm_token>>\" > ~/.npmrc",
    "[distutils]\nindex-servers = pypi\n[pypi]\nusername = __token__\npassword = <<pypi_token>>",
    "UV_PUBLISH_TOKEN=<<pypi_token>> uv publish",
    "SHOPIFY_API_SECRET=<<shopify_token>>",
    "session = shopify.Session(shop_url, '2024-04', '<<shopify_token>>')",
    "DISCORD_BOT_TOKEN=<<discord_token>>",
    "client.run('<<discord_token>>')",
    "TELEGRAM_BOT_TOKEN=<<telegram_token>>",
    "curl https://api.telegram.org/bot<<telegram_token>>/getUpdates",
    "AZURE_CLIENT_SECRET=<<azure_client_secret>>",
    "az login --service-principal -u 0b6f2c1e-app -p <<azure_client_secret>> --tenant acme.onmicrosoft.com",
    "DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=<<azure_storage_key>>;EndpointSuffix=core.windows.net",
    "export DIGITALOCEAN_ACCESS_TOKEN=<<digitalocean_token>>",
    "HEROKU_API_KEY=<<heroku_key>>",
    "heroku auth:token printed <<heroku_key>>",
    "DD_API_KEY=<<datadog_key>>",
    "datadog:\n  api_key: <<datadog_key>>\n  site: datadoghq.eu",
    "JIRA_TOKEN=<<atlassian_token>>",
    "confluence = Confluence(url, username='bot@example.org', password='<<atlassian_token>>')",
    "LINEAR_TOKEN=<<linear_key>>",
    "NOTION_API_KEY=<<notion_token>>",
    "notion = Client(auth=\"<<notion_token>>\")",
    "DOPPLER_TOKEN=<<doppler_token>>",
    "vault login <<vault_token>>",
    "X-Vault-Token: <<vault_token>>",
    "Authorization: Bearer <<jwt>>",
    "the id_token in the callback was <<jwt>>",
    "key.pem:\n<<private_key>>",
    "ssh_private_key: |\n<<private_key>>",
    "MAILCHIMP_API_KEY=<<mailchimp_key>>",
    "DROPBOX_ACCESS_TOKEN=<<dropbox_token>>",
    "FIGMA_TOKEN=<<figma_token>>",
    "SUPABASE_ACCESS_TOKEN=<<supabase_token>>",
    "NETLIFY_AUTH_TOKEN=<<netlify_token>>",
    "BUILDKITE_API_TOKEN=<<buildkite_token>>",
    "echo <<dockerhub_token>> | docker login -u acmebot --password-stdin",
    "GROQ_API_KEY=<<groq_key>>",
    "REPLICATE_API_TOKEN=<<replicate_token>>",
    "PERPLEXITY_API_KEY=<<perplexity_key>>",
    "LANGSMITH_API_KEY=<<langsmith_key>>",
    "AIRTABLE_TOKEN=<<airtable_token>>",
    "mapboxgl.accessToken = '<<mapbox_token>>';",
    "OP_SERVICE_ACCOUNT_TOKEN=<<onepassword_token>>",
    "mailgun: api_key <<mailgun_key>> domain mg.example.org",
    "GRAFANA_CLOUD_TOKEN=<<grafana_token>>",
    "DATABASE_URL=<<url_credentials>>",
    "could not connect to <<url_credentials>>: timeout",
    "curl -H 'Authorization: Bearer <<bearer_token>>' https://api.example.org/v2/orders",
    # passwords said in prose and key-value forms
    "the root password on the new box is <<password>>",
    "My password for the NAS is <<password>> if you need to reboot it.",
    "Das Passwort lautet <<password>>, bitte nach dem Login ändern.",
    "mot de passe : <<password>>",
    "login admin, password <<password>>",
    "PGPASSWORD=<<password>> psql -h db.internal -U app",
    "mysql -u root -p<<password>> orders",
    "db_pass: <<password>>",
    "I set the wifi password to <<password>> for the workshop.",
    "secret: <<password>>",
]

PERSONAL_ROWS = [
    "Meine Handynummer: <<phone_de>>",
    "Ruf bitte unter <<phone_de>> zurück, ich bin heute unterwegs.",
    "Notfallkontakt <<phone_de>> (Hausmeister)",
    "Büro Hamburg: <<phone_de_fixed>>",
    "the locksmith's number is <<phone_gb>>",
    "UK support line <<phone_gb>>",
    "Mon portable : <<phone_fr>>",
    "contact the venue at <<phone_fr>>",
    "Her cell is <<phone_us>>, text first.",
    "escalation contact: <<phone_us>>",
    "WhatsApp <<phone_in>> for the vendor",
    "the courier called from <<phone_intl>>",
    "Spanish office: <<phone_intl>>",
    "reach Kenji on <<phone_intl>>",
    "contractor mobile <<phone_intl>>",
    "call me on <<phone_au>> when you land",
    "mijn nummer is <<phone_nl>>",
    "social security no. <<ssn>>",
    "SSN <<ssn>> on the I-9 form does not match",
    "His National Insurance number is <<uk_nino>>.",
    "NI no: <<uk_nino>>",
    "Social Insurance Number <<ca_sin>> for payroll",
    "SIN: <<ca_sin>>",
    "numéro de sécurité sociale <<fr_nir>>",
    "NIR : <<fr_nir>>",
    "Steuerliche Identifikationsnummer: <<de_tax_id>>",
    "Steuer-ID <<de_tax_id>> für die Lohnabrechnung",
    "Aadhaar no. <<aadhaar>>",
    "aadhaar_number = \"<<aadhaar>>\"",
    "Please wire the deposit to <<iban>>.",
    "IBAN <<iban>> (Kontoinhaber: M. Huber)",
    "beneficiary IBAN: <<iban>>",
    "refund to IBAN <<iban>>",
    "pay with card <<card_number>>",
    "card number: <<card_number>>, CVC on the back",
    "Visa <<card_number>> was declined twice",
    "Signed-off-by: Grace <<<email>>>",
    "send the contract to <<email>>",
    "cc <<email>> on the invoice thread",
    "contact: <<email>>, <<phone_gb>>",
]


# ---- lines that must stay as they are ----------------------------------------------------------

CLEAN_ROWS = [
    "Our password policy requires 14 characters and a breach check against known lists.",
    "The rate limiter is a token bucket with a refill of 10 tokens per second.",
    "We replaced the key-value store with Postgres and a JSONB column.",
    "Bumped fastapi from 0.110.0 to 0.111.1 and uvicorn to 0.29.0.",
    "Reverted 4e1d2c3b9a8f7e6d5c4b3a291807f6e5d4c3b2a1 because it broke the nightly build.",
    "git bisect points at 7c9e2a1, the commit that changed the retry budget.",
    "Closes #2381; follows up on #2377.",
    "The flaky test in issue #512 fails about once in 40 runs.",
    "Trace 6f1c2b0e-9a4d-4c3e-8b7a-2d1e0f9c8b7a took 1.3 s end to end.",
    "Each row gets a UUID primary key (uuid4) generated by the database.",
    "The conference runs from 2025-09-22 to 2025-09-24 in Lisbon.",
    "Due date: 31.03.2025, please submit the report by then.",
    "The annual plan costs $1,188.00, the monthly one $109.00.",
    "Lunch was 23,50 € for two.",
    "The invoice for 4,200 EUR was paid on 12 May.",
    "v2.0.0-beta.3 drops Python 3.8; v1.9.x keeps getting security fixes until 2025-12-31.",
    "Node 20.11.1 and npm 10.2.4 are pinned in .nvmrc.",
    "The password reset email links to /account/reset and expires after one hour.",
    "Never log the Authorization header; log the token's last four characters at most.",
    "Bearer tokens are validated against the JWKS endpoint every five minutes.",
    "Secrets are injected by the CSI driver, not baked into the image.",
    "The API key must be sent in the X-API-Key header.",
    "We should hash passwords with bcrypt cost 12 or argon2id.",
    "token_bucket.take(1) returns False when the bucket is empty.",
    "The tokenizer splits 'unbelievable' into three tokens.",
    "The context window is 128k tokens; we keep 4k for the answer.",
    "The keystore is a PKCS#12 file; its path is configured in app.yaml.",
    "Use a composite key of (tenant_id, order_id) for the partition.",
    "This is the key question: do we shard by tenant or by region?",
    "password = getpass.getpass(\"Password: \")",
    "token = request.headers.get(\"Authorization\", \"\").removeprefix(\"Bearer \")",
    "if not api_key:\n    raise ConfigError(\"set ACME_API_KEY\")",
    "secret = os.environ[\"WEBHOOK_SECRET\"]",
    "client_secret = settings.oauth.client_secret",
    "export GITHUB_TOKEN=$(gh auth token)",
    "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "Replace <YOUR_API_KEY> with the key from the dashboard.",
    "Authorization: Bearer <token>",
    "password: ********",
    "The API returned 401 because the token had expired.",
    "sha1 of the release tarball: 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
    "ETag: \"33a64df551425fcc55e4d42a148795d9f25f89d4\"",
    "Layer digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 is the empty layer.",
    "The MAC address 00:1A:2B:3C:4D:5E belongs to the lab printer.",
    "Ping 192.168.10.24 and 10.20.30.40; both should answer.",
    "IPv6: 2001:db8::8a2e:370:7334 is in the documentation range.",
    "The office is at 52.5200 N, 13.4050 E.",
    "Set the accent colour to #0f62fe.",
    "Error code 0x80070005 means access denied on Windows.",
    "exit status 137 usually means the container was OOM-killed.",
    "The p99 went from 870 ms to 240 ms after caching the lookups.",
    "We served 18,442,109 requests in March, 12 % more than February.",
    "Build 2025.04.17.2 is on staging; build 2025.04.16.9 is on prod.",
    "Port 6379 is Redis, 5432 is Postgres, 27017 is MongoDB.",
    "Chapter 7 covers consensus; pages 211 to 248.",
    "ISBN 978-0-13-468599-1 is the second edition.",
    "The flight LH 1234 leaves at 07:35 from gate B44.",
    "Room 2.041 is booked from 14:00 to 15:30.",
    "Order number 100-4829174-2201934 was delivered.",
    "PO 4500123456 was approved by procurement.",
    "The contract number is C-2024-0815.",
    "Ticket OPS-7781: rotate the TLS certificate before it expires on 2025-06-30.",
    "The SSN column is dropped in the analytics export.",
    "We validate IBANs with the mod-97 check; invalid ones get a 422.",
    "Phone numbers go through libphonenumber and are stored in E.164.",
    "The Aadhaar field is optional for non-resident customers.",
    "Test card numbers are listed in the payment provider's docs.",
    "Rotate the AWS keys every 90 days; the audit checks key age.",
    "GitHub tokens with the ghp_ prefix are classic personal access tokens.",
    "Slack tokens starting with xoxb are bot tokens.",
    "The sk- prefix alone does not tell you which provider issued a key.",
    "scikit-learn 1.4.2 and skorch 0.15 are installed in the image.",
    "SKU-77812-BLK is back in stock.",
    "The hf_hub cache lives under ~/.cache/huggingface/hub.",
    "AIzaWorks is the name of our internal hackathon team.",
    "Please review the key rotation runbook before Friday.",
    "He finally passed the driving test on the third try.",
    "The token economy in the game was rebalanced in 1.7.",
    "A secret-sharing scheme splits the master key into five shares.",
    "The keynote starts at 9, the workshops at 11.",
    "She keeps her passport in the hotel safe.",
    "LGTM once the migration is reversible.",
    "Could we name this `load_credentials` instead of `get_creds`?",
    "nit: the docstring still mentions the old token format.",
    "Why does this loop call the tokenizer twice per message?",
    "I'd rather raise here than return an empty list on a parse error.",
    "This function mixes I/O and parsing; can we split it?",
    "Please add a test for the expired-password path.",
    "Let's keep secrets handling in one module so it is easy to audit.",
    "The new retry policy uses exponential backoff with jitter, capped at 30 s.",
    "The queue consumer acks only after the write is committed.",
    "We moved the cron job from 02:00 to 03:30 UTC to avoid the backup window.",
    "Memory went from 1.2 GiB to 780 MiB after streaming the parser.",
    "The dataset has 2,048,000 rows and 37 columns.",
    "Accuracy 0.912, F1 0.887, AUC 0.954 on the validation split.",
    "Seed 1234 reproduces the failing shuffle.",
    "The model has 7.2B parameters and runs in 16 GB with 4-bit weights.",
    "Batch 50 of 120 done, ETA 14 minutes.",
    "kubectl rollout restart deployment/api -n prod",
    "docker compose up -d --build web worker",
    "terraform import aws_s3_bucket.logs acme-logs-2024",
    "SELECT id, email_verified FROM users WHERE created_at > now() - interval '7 days';",
    "grep -rn 'api_key' src/ --include='*.py'",
    "openssl rand -hex 32 generates a new signing secret.",
    "ssh-keygen -t ed25519 -C \"deploy@ci\" creates the deploy key.",
    "The default port of the admin UI is 8443.",
    "Q3 revenue was 3.4 M, up from 2.9 M in Q2.",
    "The meeting is on 04/07/2025 at 10:00 CEST.",
    "He was born in 1987 and joined in 2015.",
    "The building code is 4471, ask reception for a badge.",
    "Zip code 10115 is Berlin Mitte.",
    "The tracking ID is 1Z 999 AA1 01 2345 6784.",
]


def build(seed: int) -> list[dict[str, object]]:
    r = random.Random(seed)
    rows = [render(r, t) for t in SECRET_ROWS + PERSONAL_ROWS]
    rows += [{"text": c, "canaries": [], "kinds": []} for c in CLEAN_ROWS]
    r.shuffle(rows)
    return rows


def main() -> None:
    write_jsonl("heldout_world2.jsonl", build(5005))


if __name__ == "__main__":
    main()
