"""Write the third, blind held-out extension of the privacy corpus (heldout_world3.jsonl).

Why a third one: ``heldout_world2.jsonl`` stopped being blind once its misses were read and fixed.
These rows were written by a session that had read neither the detectors (``reverie/privacy/``)
nor the values of the earlier rows (only their format and the kind names), and they were committed
before the masker ran on them. Every value is drawn from a seeded ``random.Random`` in the shape
the provider or authority documents (the docstring of each generator names the format), never from
our own rules; providers the corpus had not had are preferred. Identifiers with a check digit get a
correct one from the published algorithm, and every personal value is checked with python-stdnum
or phonenumbers before it is written (that checks the data, not the masker).

Run from the repository root: ``python tests/data/privacy/make_world3_corpus.py [--out DIR]``.
"""

from __future__ import annotations

import base64
import json
import random
import re
from collections.abc import Callable

import phonenumbers
from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.ca import sin as std_sin
from stdnum.de import idnr as std_idnr
from stdnum.fr import nir as std_nir
from stdnum.in_ import aadhaar as std_aadhaar
from stdnum.us import ssn as std_ssn
from values import ALNUM as AL
from values import B64URL as URLSAFE
from values import (
    DG,
    HEX,
    LO,
    UP,
    s_age,
    s_anthropic,
    s_aws_id_even,
    s_aws_secret,
    s_braintree,
    s_cf_global,
    s_cf_token,
    s_circleci,
    s_cratesio,
    s_dckr,
    s_django,
    s_elevenlabs,
    s_fcm,
    s_flw,
    s_gapi,
    s_glpat,
    s_gocspx,
    s_hf,
    s_hubspot,
    s_langfuse,
    s_mistral,
    s_npm,
    s_nuget,
    s_okta,
    s_openrouter,
    s_plaid,
    s_resend,
    s_sendgrid,
    s_slack_hook_t10,
    s_tencent,
    s_twilio,
    s_wandb,
    s_xai,
    s_ya29,
    write_jsonl,
)
from values import b64u as b64url
from values import group as grouped
from values import part as inside
from values import pick as rs
from values import uid as ruuid
from values import whole as same

Out = tuple[str, str, str]  # (value to insert, canary substring, kind)
Gen = Callable[[random.Random], Out]

FIELD = re.compile(r"<<([a-z0-9_]+?)(?:_\d)?>>")


# ---- secrets by provider (the format each documents) ------------------------------------------

def github_token(r: random.Random) -> str:
    """GitHub tokens: ``ghp_``/``gho_``/``ghs_``/``ghu_`` + 36, or ``github_pat_`` 22 ``_`` 59."""
    if r.random() < 0.4:
        return "github_pat_11" + rs(r, 20, UP + DG) + "_" + rs(r, 59)
    return r.choice(["ghp_", "gho_", "ghs_", "ghu_"]) + rs(r, 36)


def slack_token(r: random.Random) -> str:
    """Slack bot token ``xoxb-`` digits-digits-24, or an app-level token ``xapp-1-A…-digits-64 hex``."""
    if r.random() < 0.5:
        return f"xoxb-{rs(r, 12, DG)}-{rs(r, 13, DG)}-{rs(r, 24)}"
    return f"xapp-1-A{rs(r, 10, UP + DG)}-{rs(r, 13, DG)}-{rs(r, 64, HEX)}"


def openai_key(r: random.Random) -> str:
    """OpenAI project keys ``sk-proj-`` …``T3BlbkFJ``…, and service-account keys ``sk-svcacct-``."""
    prefix = r.choice(["sk-proj-", "sk-svcacct-"])
    return prefix + rs(r, 74, URLSAFE) + "T3BlbkFJ" + rs(r, 74, URLSAFE)


def stripe_key(r: random.Random) -> str:
    """Stripe live secret ``sk_live_`` and restricted ``rk_live_`` keys, 24 to 99 characters."""
    return r.choice(["sk_live_", "rk_live_"]) + "51" + rs(r, r.choice([22, 97]))


def jwt(r: random.Random) -> str:
    """RFC 7519: base64url(header).base64url(claims).base64url(signature)."""
    header = b64url(json.dumps({"alg": "RS256", "typ": "JWT", "kid": rs(r, 8)}).encode())
    claims = b64url(json.dumps(
        {"sub": ruuid(r), "iss": "https://auth.example.org/", "exp": 1767225600 + r.randrange(10**6)}).encode())
    return f"{header}.{claims}.{b64url(r.randbytes(256))}"


def private_key(r: random.Random) -> tuple[str, str]:
    """An OpenSSH or SEC1 EC private key block (RFC 7468 armour); the base64 body is the secret."""
    label, lead = r.choice([("OPENSSH PRIVATE KEY", b"openssh-key-v1\x00"), ("EC PRIVATE KEY", b"\x30\x77\x02\x01\x01\x04\x20")])
    body = base64.b64encode(lead + r.randbytes(180)).decode()
    lines = "\n".join(body[i:i + 70] for i in range(0, len(body), 70))
    return f"-----BEGIN {label}-----\n{lines}\n-----END {label}-----", body[:70]


def vault_token(r: random.Random) -> str:
    """HashiCorp Vault service tokens ``hvs.`` (91 or more characters) and recovery tokens ``hvr.``."""
    return r.choice(["hvs.", "hvr."]) + "CAESI" + rs(r, 90, URLSAFE)


def pypi_token(r: random.Random) -> str:
    """PyPI API tokens: ``pypi-`` and a base64url macaroon starting ``AgEIcHlwaS5vcmc``."""
    return "pypi-AgEIcHlwaS5vcmc" + rs(r, 150, URLSAFE)


def pinecone_key(r: random.Random) -> str:
    """Pinecone API keys: ``pcsk_``, a short id, ``_``, then the secret."""
    return f"pcsk_{rs(r, 6)}_{rs(r, 64)}"


def asana_token(r: random.Random) -> str:
    """Asana personal access tokens: ``2/`` user id ``/`` token id ``:`` 32 hex."""
    return f"2/{rs(r, 16, DG)}/{rs(r, 16, DG)}:{rs(r, 32, HEX)}"


def contentful_token(r: random.Random) -> str:
    """Contentful personal access tokens: ``CFPAT-`` and 43 characters."""
    return "CFPAT-" + rs(r, 43, URLSAFE)


def sonar_token(r: random.Random) -> str:
    """SonarQube user/project/global tokens: ``squ_``/``sqp_``/``sqa_`` and 40 hex digits."""
    return r.choice(["squ_", "sqp_", "sqa_"]) + rs(r, 40, HEX)


def jfrog_token(r: random.Random) -> str:
    """JFrog Artifactory API keys: ``AKCp`` and 69 characters."""
    return "AKCp8" + rs(r, 68)


def bitbucket_token(r: random.Random) -> str:
    """Bitbucket app passwords: ``ATBB`` and 32 characters (plus a check suffix)."""
    return "ATBB" + rs(r, 32) + rs(r, 8, UP + DG)


def tailscale_key(r: random.Random) -> str:
    """Tailscale auth and API keys: ``tskey-auth-``/``tskey-api-`` id ``-`` secret."""
    return f"tskey-{r.choice(['auth', 'api'])}-k{rs(r, 11)}CNTRL-{rs(r, 33)}"


def honeycomb_key(r: random.Random) -> str:
    """Honeycomb ingest keys: ``hcaik_`` and 58 characters."""
    return "hcaik_01" + rs(r, 56, LO + DG)


def dynatrace_token(r: random.Random) -> str:
    """Dynatrace API tokens: ``dt0c01.`` 24 ``.`` 64."""
    return f"dt0c01.{rs(r, 24, UP + DG)}.{rs(r, 64, UP + DG)}"


def launchdarkly_key(r: random.Random) -> str:
    """LaunchDarkly SDK keys ``sdk-`` UUID and API access tokens ``api-`` UUID."""
    return r.choice(["sdk-", "api-"]) + ruuid(r)


def trello_token(r: random.Random) -> str:
    """Trello tokens: ``ATTA`` and 64 hex plus an 8-hex check."""
    return "ATTA" + rs(r, 64, HEX) + rs(r, 8, HEX.upper())


def clickup_token(r: random.Random) -> str:
    """ClickUp personal tokens: ``pk_`` user id ``_`` 32 upper-case characters."""
    return f"pk_{rs(r, 8, DG)}_{rs(r, 32, UP + DG)}"


def teams_webhook(r: random.Random) -> tuple[str, str]:
    """Microsoft Teams incoming webhook URL; the 32-hex segment is the secret."""
    secret = rs(r, 32, HEX)
    url = (f"https://contoso.webhook.office.com/webhookb2/{ruuid(r)}@{ruuid(r)}/IncomingWebhook/"
           f"{secret}/{ruuid(r)}")
    return url, secret


def discord_webhook(r: random.Random) -> tuple[str, str]:
    """Discord webhook URL: /api/webhooks/<snowflake>/<68-character token>."""
    token = rs(r, 68, URLSAFE)
    return f"https://discord.com/api/webhooks/{rs(r, 19, DG)}/{token}", token


def yandex_key(r: random.Random) -> str:
    """Yandex Cloud API keys: ``AQVN`` and 35 to 38 characters."""
    return "AQVN" + rs(r, 36, URLSAFE)


def facebook_token(r: random.Random) -> str:
    """Meta/Facebook Graph API access tokens: ``EAA`` and a long alphanumeric string."""
    return "EAAG" + rs(r, 180)


def twitter_bearer(r: random.Random) -> str:
    """X/Twitter app-only bearer tokens: 22 ``A`` then a URL-encoded string."""
    return "A" * 22 + rs(r, 30) + "%3D" + rs(r, 50)


def zoho_token(r: random.Random) -> str:
    """Zoho OAuth tokens: ``1000.`` 32 hex ``.`` 32 hex."""
    return f"1000.{rs(r, 32, HEX)}.{rs(r, 32, HEX)}"


def salesforce_token(r: random.Random) -> str:
    """Salesforce session/access tokens: org id ``00D…`` ``!`` then a long string."""
    return f"00D{rs(r, 12, UP + DG)}!AQ{rs(r, 94, AL + '._')}"


def woocommerce_key(r: random.Random) -> str:
    """WooCommerce REST consumer secrets: ``cs_`` and 40 hex."""
    return "cs_" + rs(r, 40, HEX)


def modal_token(r: random.Random) -> str:
    """Modal token secrets: ``as-`` and 22 characters."""
    return "as-" + rs(r, 22)


def typeform_token(r: random.Random) -> str:
    """Typeform personal access tokens: ``tfp_`` and about 59 characters."""
    return f"tfp_{rs(r, 44, URLSAFE)}_{rs(r, 14)}"


def shopify_token(r: random.Random) -> str:
    """Shopify Admin API access tokens: ``shpat_`` and 32 hex."""
    return "shpat_" + rs(r, 32, HEX)


def telegram_token(r: random.Random) -> str:
    """Telegram bot tokens: bot id ``:`` 35 characters."""
    return f"{rs(r, 10, DG)}:AA{rs(r, 33, URLSAFE)}"


def azure_storage_key(r: random.Random) -> tuple[str, str]:
    """Azure Storage account key (88 base64 characters) in a connection string."""
    key = base64.b64encode(r.randbytes(64)).decode()
    return (f"DefaultEndpointsProtocol=https;AccountName=stprod{rs(r, 6, LO + DG)};AccountKey={key};"
            "EndpointSuffix=core.windows.net"), key


def azure_sas_token(r: random.Random) -> tuple[str, str]:
    """Azure shared access signature: the ``sig`` parameter (URL-encoded base64 HMAC) is the secret."""
    sig = base64.b64encode(r.randbytes(32)).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    return (f"https://stlogs.blob.core.windows.net/exports?sv=2022-11-02&ss=b&srt=co&sp=rl"
            f"&se=2026-12-31T00:00:00Z&sig={sig}"), sig


def basic_auth(r: random.Random) -> tuple[str, str]:
    """RFC 7617 Basic credentials: base64(user:password)."""
    token = base64.b64encode(f"deploy:{rs(r, 16)}".encode()).decode()
    return f"Authorization: Basic {token}", token


def bearer_token(r: random.Random) -> tuple[str, str]:
    """RFC 6750 bearer token, opaque."""
    token = rs(r, 48, URLSAFE)
    return f"Authorization: Bearer {token}", token


def url_credentials(r: random.Random) -> tuple[str, str]:
    """RFC 3986 userinfo: a password in a connection URL."""
    pw = rs(r, 18)
    url = r.choice([
        f"postgresql://app_rw:{pw}@db-primary.internal:5432/orders",
        f"redis://:{pw}@cache-1.internal:6379/0",
        f"amqp://worker:{pw}@rabbitmq.internal:5672/%2F",
        f"mongodb+srv://reporting:{pw}@cluster0.ab1cd.mongodb.net/analytics",
        f"https://ci-bot:{pw}@git.internal.example/platform/infra.git",
        f"mysql://root:{pw}@10.0.4.12:3306/shop",
    ])
    return url, pw


def password_value(r: random.Random) -> str:
    """A password as people choose them: words, digits and symbols mixed."""
    word = r.choice(["Sommer", "Kolibri", "Tangerine", "Zebra", "Orkan", "Marmotte", "Girasole", "Pinguin"])
    return word + rs(r, 2, DG) + r.choice("!#$%&*?") + rs(r, 5, AL)


def password(r: random.Random) -> str:
    return password_value(r)


# ---- personal data (shape, and check digit where one exists) ---------------------------------

def valid_phone(r: random.Random, region: str, make: Callable[[random.Random], str], fmt: int) -> str:
    """A random number of ``region`` that libphonenumber accepts as valid, in ``fmt``."""
    for _ in range(1000):
        n = phonenumbers.parse(make(r), region)
        if phonenumbers.is_valid_number(n):
            return phonenumbers.format_number(n, fmt)
    raise AssertionError(f"no valid number for {region}")


NAT = phonenumbers.PhoneNumberFormat.NATIONAL
INTL = phonenumbers.PhoneNumberFormat.INTERNATIONAL
E164 = phonenumbers.PhoneNumberFormat.E164


def phone_de_mobile(r: random.Random) -> str:
    """German mobile in national format, 015x/016x/017x (Bundesnetzagentur plan)."""
    number = valid_phone(r, "DE", lambda q: "0" + q.choice(["151", "160", "170", "171", "176", "152"]) + rs(q, 8, DG), NAT)
    return r.choice([number, number.replace(" ", "/", 1), number.replace(" ", "")])


def phone_de_fixed(r: random.Random) -> str:
    """German landline, national format with the area code (Berlin, Munich, Hamburg)."""
    return valid_phone(r, "DE", lambda q: q.choice(["030", "089", "040"]) + rs(q, 8, DG), NAT)


def phone_gb(r: random.Random) -> str:
    """UK mobile (07) or London (020) in national format."""
    return valid_phone(r, "GB", lambda q: q.choice(["07" + rs(q, 9, DG), "020" + rs(q, 8, DG)]), NAT)


def phone_fr(r: random.Random) -> str:
    """French mobile 06/07, national format in pairs."""
    return valid_phone(r, "FR", lambda q: q.choice(["06", "07"]) + rs(q, 8, DG), NAT)


def phone_us(r: random.Random) -> str:
    """US number in the (NPA) NXX-XXXX form or dashed."""
    number = valid_phone(
        r, "US", lambda q: q.choice(["415", "212", "617", "312", "206"]) + q.choice("23456789") + rs(q, 6, DG), NAT)
    return r.choice([number, re.sub(r"\((\d{3})\) ", r"\1-", number)])


def phone_intl(r: random.Random) -> str:
    """International format (+CC …) or E.164 for several regions."""
    region, make = r.choice([
        ("JP", lambda q: "090" + rs(q, 8, DG)), ("BR", lambda q: "119" + rs(q, 8, DG)),
        ("ES", lambda q: "6" + rs(q, 8, DG)), ("IT", lambda q: "3" + rs(q, 9, DG)),
        ("PL", lambda q: "5" + rs(q, 8, DG)), ("IN", lambda q: q.choice("6789") + rs(q, 9, DG)),
        ("CH", lambda q: "07" + q.choice("6789") + rs(q, 7, DG)), ("AU", lambda q: "04" + rs(q, 8, DG)),
        ("MX", lambda q: "55" + rs(q, 8, DG)), ("ZA", lambda q: "082" + rs(q, 7, DG)),
        ("SE", lambda q: "070" + rs(q, 7, DG)), ("IE", lambda q: "08" + q.choice("3579") + rs(q, 7, DG)),
    ])
    return valid_phone(r, region, make, r.choice([INTL, INTL, E164]))


def phone_ch_national(r: random.Random) -> str:
    """Swiss mobile in national format, 07x xxx xx xx."""
    return valid_phone(r, "CH", lambda q: "07" + q.choice("6789") + rs(q, 7, DG), NAT)


def phone_in_national(r: random.Random) -> str:
    """Indian mobile in national format, 0 and ten digits."""
    return valid_phone(r, "IN", lambda q: q.choice("6789") + rs(q, 9, DG), NAT)


def phone_tel_link(r: random.Random) -> tuple[str, str]:
    """RFC 3966 tel: URI; the number is the personal datum, not the scheme."""
    number = valid_phone(r, "GB", lambda q: "07" + rs(q, 9, DG), E164)
    return "tel:" + number, number


def ssn(r: random.Random) -> str:
    """US SSN: area 001-665/667-899, group 01-99, serial 0001-9999."""
    while True:
        digits = f"{r.randint(1, 899):03d}{r.randint(1, 99):02d}{r.randint(1, 9999):04d}"
        if std_ssn.is_valid(digits):
            return grouped(digits, [3, 2, 4], r.choice(["-", "-", " "]))


NINO_FIRST = "ABCEGHJKLMNOPRSTWXYZ"
NINO_SECOND = "ABCEGHJKLMNPRSTWXYZ"
NINO_BAD_PREFIX = {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}


def uk_nino(r: random.Random) -> str:
    """UK National Insurance number (HMRC NIM39110): two letters, six digits, A-D."""
    while (prefix := r.choice(NINO_FIRST) + r.choice(NINO_SECOND)) in NINO_BAD_PREFIX:
        pass
    body = prefix + rs(r, 6, DG) + r.choice("ABCD")
    return r.choice([body, grouped(body, [2, 2, 2, 2, 1])])


def ca_sin(r: random.Random) -> str:
    """Canadian SIN: nine digits, Luhn; first digit not 0 or 8."""
    body = r.choice("1234567") + rs(r, 7, DG)
    value = body + luhn.calc_check_digit(body)
    assert std_sin.is_valid(value)
    return grouped(value, [3, 3, 3], r.choice([" ", "-"]))


def fr_nir(r: random.Random) -> str:
    """French NIR: sex, year, month, département, commune, order, then key 97 - (n mod 97)."""
    body = (f"{r.choice('12')}{r.randint(40, 99):02d}{r.randint(1, 12):02d}{r.randint(1, 95):02d}"
            f"{r.randint(1, 999):03d}{r.randint(1, 999):03d}")
    key = 97 - int(body) % 97
    value = body + f"{key:02d}"
    assert std_nir.is_valid(value)
    return r.choice([value, grouped(value, [1, 2, 2, 2, 3, 3, 2])])


def de_tax_id(r: random.Random) -> str:
    """German Steuer-IdNr: 11 digits, one digit repeated in the first ten, ISO 7064 mod 11,10."""
    while True:
        body = r.choice("123456789") + rs(r, 9, DG)
        for check in DG:
            if std_idnr.is_valid(body + check):
                value = body + check
                return r.choice([value, grouped(value, [2, 3, 3, 3])])


def aadhaar(r: random.Random) -> str:
    """Indian Aadhaar: 12 digits, first 2-9, Verhoeff check digit."""
    while True:
        body = r.choice("23456789") + rs(r, 10, DG)
        for check in DG:
            if std_aadhaar.is_valid(body + check):
                return grouped(body + check, [4, 4, 4])


IBAN_BBAN: dict[str, Callable[[random.Random], str]] = {
    "DE": lambda q: rs(q, 18, DG),
    "GB": lambda q: rs(q, 4, UP) + rs(q, 14, DG),
    "NL": lambda q: q.choice(["ABNA", "INGB", "RABO"]) + rs(q, 10, DG),
    "ES": lambda q: rs(q, 20, DG),
    "IT": lambda q: q.choice(UP) + rs(q, 10, DG) + rs(q, 12, DG),
    "CH": lambda q: rs(q, 17, DG),
    "AT": lambda q: rs(q, 16, DG),
    "BE": lambda q: rs(q, 12, DG),
    "PL": lambda q: rs(q, 24, DG),
    "SE": lambda q: rs(q, 20, DG),
    "FR": lambda q: rs(q, 10, DG) + rs(q, 11, DG) + rs(q, 2, DG),
}


def iban(country: str) -> Callable[[random.Random], str]:
    """ISO 13616 IBANs of ``country`` with the mod-97 check digits, in groups of four or as one string."""
    return lambda r: iban_of(r, country)


def iban_of(r: random.Random, country: str) -> str:
    for _ in range(10000):
        bban = IBAN_BBAN[country](r)
        numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
        value = f"{country}{98 - int(numeric) % 97:02d}{bban}"
        if std_iban.is_valid(value):
            return r.choice([value, " ".join(value[i:i + 4] for i in range(0, len(value), 4))])
    raise AssertionError(country)


def card_number(r: random.Random) -> str:
    """Payment card numbers (ISO/IEC 7812, Luhn) of several networks, in their printed groups."""
    prefix, length, groups = r.choice([
        ("4", 16, [4, 4, 4, 4]), ("2221", 16, [4, 4, 4, 4]), ("55", 16, [4, 4, 4, 4]),
        ("37", 15, [4, 6, 5]), ("6011", 16, [4, 4, 4, 4]), ("3528", 16, [4, 4, 4, 4]),
        ("36", 14, [4, 6, 4]), ("62", 16, [4, 4, 4, 4]),
    ])
    body = prefix + rs(r, length - len(prefix) - 1, DG)
    value = body + luhn.calc_check_digit(body)
    return r.choice([grouped(value, groups), grouped(value, groups, "-"), value])


def email(r: random.Random) -> str:
    """RFC 5322 addresses: dotted, plus-addressed, sub-domains, new TLDs."""
    first = r.choice(["amelie", "jonas", "priya", "kwame", "sofia", "mateo", "yuki", "olu"])
    last = r.choice(["schmidt", "dubois", "ramanathan", "mensah", "rossi", "garcia", "tanaka", "adeyemi"])
    domain = r.choice(["posteo.de", "mail.kanzlei-berg.de", "orange.fr", "student.uva.nl",
                       "gmx.at", "protonmail.com", "company.co.uk", "startup.io", "studio.design"])
    local = r.choice([f"{first}.{last}", f"{first}+{rs(r, 5, LO)}", f"{first[0]}{last}{r.randint(1, 99)}", f"{last}_{first}"])
    return f"{local}@{domain}"


SECRETS: dict[str, Gen] = {
    name: same(name, fn) for name, fn in {
        "google_api_key": s_gapi, "huggingface_token": s_hf,
        "twilio_api_key": s_twilio, "github_token": github_token, "gitlab_token": s_glpat,
        "slack_token": slack_token, "openai_key": openai_key, "anthropic_key": s_anthropic,
        "stripe_key": stripe_key, "aws_key": s_aws_id_even, "aws_secret": s_aws_secret, "jwt": jwt,
        "vault_token": vault_token, "npm_token": s_npm, "pypi_token": pypi_token,
        "dockerhub_token": s_dckr, "pinecone_key": pinecone_key, "xai_key": s_xai,
        "openrouter_key": s_openrouter, "google_oauth_secret": s_gocspx,
        "google_oauth_token": s_ya29, "resend_key": s_resend, "asana_token": asana_token,
        "hubspot_token": s_hubspot, "contentful_token": contentful_token, "okta_token": s_okta,
        "sonar_token": sonar_token, "jfrog_token": jfrog_token, "bitbucket_token": bitbucket_token,
        "fcm_server_key": s_fcm, "tailscale_key": tailscale_key,
        "braintree_token": s_braintree, "flutterwave_key": s_flw,
        "plaid_token": s_plaid, "honeycomb_key": honeycomb_key, "dynatrace_token": dynatrace_token,
        "launchdarkly_key": launchdarkly_key, "trello_token": trello_token,
        "clickup_token": clickup_token, "nuget_key": s_nuget, "cratesio_token": s_cratesio,
        "circleci_token": s_circleci, "yandex_key": yandex_key, "tencent_key": s_tencent,
        "facebook_token": facebook_token, "twitter_bearer": twitter_bearer, "zoho_token": zoho_token,
        "salesforce_token": salesforce_token, "woocommerce_key": woocommerce_key,
        "elevenlabs_key": s_elevenlabs, "langfuse_key": s_langfuse, "modal_token": modal_token,
        "wandb_key": s_wandb, "typeform_token": typeform_token, "cloudflare_key": s_cf_global,
        "cloudflare_token": s_cf_token, "mistral_key": s_mistral,
        "age_secret_key": s_age, "django_secret_key": s_django,
        "sendgrid_key": s_sendgrid, "shopify_token": shopify_token, "telegram_token": telegram_token,
        "password": password,
    }.items()
} | {
    name: inside(name, fn) for name, fn in {
        "slack_webhook": s_slack_hook_t10, "private_key": private_key, "teams_webhook": teams_webhook,
        "discord_webhook": discord_webhook, "azure_storage_key": azure_storage_key,
        "azure_sas_token": azure_sas_token, "basic_auth": basic_auth, "bearer_token": bearer_token,
        "url_credentials": url_credentials,
    }.items()
}
PERSONAL: dict[str, Gen] = {
    "phone_de_mobile": same("phone", phone_de_mobile), "phone_de_fixed": same("phone", phone_de_fixed),
    "phone_gb": same("phone", phone_gb), "phone_fr": same("phone", phone_fr),
    "phone_us": same("phone", phone_us), "phone_intl": same("phone", phone_intl),
    "phone_ch": same("phone", phone_ch_national), "phone_in": same("phone", phone_in_national),
    "phone_tel": inside("phone", phone_tel_link),
    "ssn": same("ssn", ssn), "uk_nino": same("uk_nino", uk_nino), "ca_sin": same("ca_sin", ca_sin),
    "fr_nir": same("fr_nir", fr_nir), "de_tax_id": same("de_tax_id", de_tax_id),
    "aadhaar": same("aadhaar", aadhaar),
    **{f"iban_{c.lower()}": same("iban", iban(c)) for c in IBAN_BBAN}, "card_number": same("card_number", card_number),
    "email": same("email", email),
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
    # the seven kinds of the issue, fresh instances
    "places autocomplete keeps failing, key in the bundle is <<google_api_key>> — restrict it to our referrer",
    "GOOGLE_MAPS_API_KEY=<<google_api_key>>",
    "curl 'https://generativelanguage.googleapis.com/v1beta/models?key=<<google_api_key>>'",
    "huggingface-cli login --token <<huggingface_token>>",
    "HF_TOKEN: \"<<huggingface_token>>\"  # read-only, for the gated llama weights",
    "export HUGGING_FACE_HUB_TOKEN=<<huggingface_token>>",
    "twilio api:core:keys:create printed sid <<twilio_api_key>> and the secret in one go",
    "client = Client(\"<<twilio_api_key>>\", api_secret, account_sid)",
    "TWILIO_API_KEY=<<twilio_api_key>>",
    # providers, prefixed tokens
    "git remote set-url origin https://x-access-token:<<github_token>>@github.com/acme/infra.git",
    "GH_TOKEN=<<github_token>> gh release create v2.4.0",
    "the bot's token <<github_token>> was committed in .github/scripts/sync.sh, rotating now",
    "CI_JOB variable GITLAB_TOKEN = <<gitlab_token>>",
    "SLACK_BOT_TOKEN=<<slack_token>>",
    "app = App(token=\"<<slack_token>>\")",
    "post alerts to <<slack_webhook>>",
    "OPENAI_API_KEY=<<openai_key>>",
    "llm = ChatOpenAI(api_key=\"<<openai_key>>\", model=\"gpt-4o-mini\")",
    "anthropic = Anthropic(api_key='<<anthropic_key>>')",
    "STRIPE_SECRET_KEY=<<stripe_key>>",
    "stripe.api_key = \"<<stripe_key>>\"",
    "[default]\naws_access_key_id = <<aws_key>>\naws_secret_access_key = <<aws_secret>>",
    "AWS_ACCESS_KEY_ID=<<aws_key>> aws s3 ls s3://acme-backups",
    "curl -H 'Authorization: Bearer <<jwt>>' https://api.internal/v1/me",
    "id_token=<<jwt>>",
    "cat ~/.ssh/deploy_ed25519\n<<private_key>>",
    "key.pem:\n<<private_key>>",
    "vault login <<vault_token>>",
    "VAULT_TOKEN=<<vault_token>> terraform apply",
    "//registry.npmjs.org/:_authToken=<<npm_token>>",
    "[pypi]\nusername = __token__\npassword = <<pypi_token>>",
    "echo <<dockerhub_token>> | docker login -u acmebuild --password-stdin",
    "pc = Pinecone(api_key=\"<<pinecone_key>>\")",
    "XAI_API_KEY=<<xai_key>>",
    "base_url=\"https://openrouter.ai/api/v1\", api_key=\"<<openrouter_key>>\"",
    "\"client_secret\": \"<<google_oauth_secret>>\", \"redirect_uris\": [\"http://localhost\"]",
    "access token from the playground: <<google_oauth_token>>",
    "resend.api_key = \"<<resend_key>>\"",
    "asana PAT <<asana_token>> belongs to the ops bot",
    "HUBSPOT_ACCESS_TOKEN=<<hubspot_token>>",
    "contentful space export --management-token <<contentful_token>>",
    "curl -H \"Authorization: SSWS <<okta_token>>\" https://acme.okta.com/api/v1/users",
    "sonar-scanner -Dsonar.token=<<sonar_token>>",
    "artifactory api key <<jfrog_token>>",
    "BITBUCKET_APP_PASSWORD=<<bitbucket_token>>",
    "FCM legacy server key: <<fcm_server_key>>",
    "tailscale up --authkey=<<tailscale_key>>",
    "gateway = braintree.BraintreeGateway(access_token=\"<<braintree_token>>\")",
    "FLW_SECRET_KEY=<<flutterwave_key>>",
    "plaid access_token for the sandbox user: <<plaid_token>>",
    "HONEYCOMB_API_KEY=<<honeycomb_key>>",
    "Api-Token <<dynatrace_token>>",
    "ldclient.set_config(Config(\"<<launchdarkly_key>>\"))",
    "trello token=<<trello_token>>",
    "Authorization: <<clickup_token>>",
    "notify via <<teams_webhook>>",
    "webhook: <<discord_webhook>>",
    "dotnet nuget push pkg.nupkg --api-key <<nuget_key>> --source https://api.nuget.org/v3/index.json",
    "CARGO_REGISTRY_TOKEN=<<cratesio_token>>",
    "circleci token: <<circleci_token>>",
    "yc api key: <<yandex_key>>",
    "TENCENTCLOUD_SECRET_ID=<<tencent_key>>",
    "graph api token <<facebook_token>>",
    "TWITTER_BEARER_TOKEN=<<twitter_bearer>>",
    "Authorization: Zoho-oauthtoken <<zoho_token>>",
    "sf session id <<salesforce_token>>",
    "WC_CONSUMER_SECRET=<<woocommerce_key>>",
    "ELEVENLABS_API_KEY=<<elevenlabs_key>>",
    "LANGFUSE_SECRET_KEY=<<langfuse_key>>",
    "modal token set --token-id ak-4mR8qY2vL0xT7nW3pZ5sB1 --token-secret <<modal_token>>",
    "WANDB_API_KEY=<<wandb_key>>",
    "TYPEFORM_TOKEN=<<typeform_token>>",
    "-H \"X-Auth-Email: ops@acme.test\" -H \"X-Auth-Key: <<cloudflare_key>>\"",
    "CLOUDFLARE_API_TOKEN=<<cloudflare_token>>",
    "MISTRAL_API_KEY=<<mistral_key>>",
    "# created: 2026-01-10\n# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n<<age_secret_key>>",
    "SECRET_KEY = '<<django_secret_key>>'",
    "sg = SendGridAPIClient('<<sendgrid_key>>')",
    "X-Shopify-Access-Token: <<shopify_token>>",
    "bot = telebot.TeleBot(\"<<telegram_token>>\")",
    "AZURE_STORAGE_CONNECTION_STRING=\"<<azure_storage_key>>\"",
    "download the export from <<azure_sas_token>>",
    "<<basic_auth>>",
    "curl -s -H '<<bearer_token>>' https://api.partner.example/v2/orders",
    "DATABASE_URL=<<url_credentials>>",
    "celery broker: <<url_credentials>>",
    "clone with <<url_credentials>>",
    # passwords in prose and key-value forms, several languages
    "the root password is <<password>>",
    "wifi for the offsite: network AcmeGuest, password <<password>>",
    "pw: <<password>>",
    "login admin / <<password>> for the staging grafana",
    "my password for the router is <<password>>, don't share it",
    "PGPASSWORD=<<password>> psql -h db.internal -U report",
    "mysql -u root -p'<<password>>' shop",
    "sshpass -p '<<password>>' ssh deploy@10.0.3.7",
    "Das Passwort für den NAS-Zugang ist <<password>>",
    "Kennwort: <<password>>",
    "Le mot de passe du compte admin est <<password>>",
    "La contraseña del servidor es <<password>>",
    "La password dell'account è <<password>>",
    "Het wachtwoord is <<password>>",
    "A senha do banco é <<password>>",
    "db:\n  user: app\n  password: \"<<password>>\"",
    "secret=<<password>>",
]

PERSONAL_ROWS = [
    "Ruf mich an unter <<phone_de_mobile>>, ich bin ab 14 Uhr erreichbar.",
    "Handy: <<phone_de_mobile>>",
    "Meine neue Nummer ist <<phone_de_mobile>>.",
    "Praxis Dr. Weber, Tel. <<phone_de_fixed>>",
    "call the landlord on <<phone_gb>> about the boiler",
    "Mobile: <<phone_gb>>",
    "rappelle-moi au <<phone_fr>> stp",
    "Portable : <<phone_fr>>",
    "Her cell is <<phone_us>>, text first.",
    "customer callback number <<phone_us>>",
    "WhatsApp <<phone_intl>>",
    "reach the regional office at <<phone_intl>>",
    "emergency contact: <<phone_intl>>",
    "Kontakt in Zürich: <<phone_ch>>",
    "mobile no. <<phone_in>>",
    "<a href=\"<<phone_tel>>\">Call us</a>",
    "phones on file: <<phone_intl>>, <<phone_intl>>",
    "My SSN is <<ssn>>.",
    "W-2 shows SSN <<ssn>> for the employee",
    "social security number: <<ssn>>",
    "NI number <<uk_nino>> on the payslip",
    "National Insurance: <<uk_nino>>",
    "SIN <<ca_sin>> for the T4 slip",
    "Numéro d'assurance sociale : <<ca_sin>>",
    "Numéro de sécurité sociale : <<fr_nir>>",
    "NIR <<fr_nir>> sur la carte Vitale",
    "Steuer-IdNr.: <<de_tax_id>>",
    "Meine Steueridentifikationsnummer lautet <<de_tax_id>>.",
    "Aadhaar: <<aadhaar>>",
    "attached the KYC form with Aadhaar number <<aadhaar>>",
    "Bitte überweise an <<iban_de>>.",
    "IBAN: <<iban_gb>> (BIC on the invoice)",
    "refund to account <<iban_nl>>",
    "payout IBAN <<iban_it>>",
    "Lastschrift vom Konto <<iban_ch>>",
    "transferencia a <<iban_es>>",
    "wire it to <<iban_pl>> please",
    "card <<card_number>> exp 09/28 cvc on the back",
    "charged to <<card_number>> twice, please refund one",
    "Kartennummer <<card_number>>",
    "the test order used my real card, <<card_number>>, by mistake",
    "ending in — no wait, here is the full number: <<card_number>>",
    "mail me at <<email>> with the contract",
    "From: Amelie <<<email>>>",
    "cc <<email>> and <<email>>",
    "mailto:<<email>>?subject=Invoice",
]

CLEAN_ROWS = [
    "Bumped requests from 2.31.0 to 2.32.3 and urllib3 to 2.2.2.",
    "Reverted 3f9c2a1e8b7d6c5f4a3b2c1d0e9f8a7b6c5d4e3f because it broke the arm64 build.",
    "LGTM once the commit 9b1e4c7 is squashed into the previous one.",
    "Order #4829-1173-5520 shipped on 2026-03-14.",
    "Your order number is 112-4829117-3355201.",
    "Tracking: 9400 1112 0208 2745 3851 07 via USPS.",
    "DHL shipment 00340434161094042557 is out for delivery.",
    "Invoice INV-2026-00417 totals EUR 1.249,00 incl. 19 % VAT.",
    "The price went from $1,299.99 to $1,099.00 on Black Friday.",
    "2026-02-11T09:41:27.331Z INFO request_id=7c9e6679-7425-40de-944b-e07fc1f90ae7 status=200 dur=41ms",
    "trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7",
    "We need a password policy that requires 12 characters and blocks breached passwords.",
    "The token bucket refills at 10 tokens per second with a burst of 50.",
    "Their secret sauce is just good caching.",
    "Let's write down the key rotation schedule: every 90 days, staggered by region.",
    "Password reset emails go out through the notification service now.",
    "The API key field in the settings page should be masked after saving.",
    "Rename `get_secret()` to `read_secret_from_vault()` so it's clear where it reads from.",
    "nit: `token_count` should be `num_tokens` to match the tokenizer module.",
    "Please don't log the password, log only whether it was provided.",
    "def verify_password(plain: str, hashed: str) -> bool:",
    "if not user.password_hash: raise AuthError('no password set')",
    "The JWT library validates exp and nbf; we only need to check aud.",
    "Docker image sha256:a3ed95caeb02ffe68cdd9fd84406680ae93d633cb16422d00e8a7c22955b46d4 is the base.",
    "pip install torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121",
    "node v20.11.1, npm 10.2.4, pnpm 8.15.4",
    "Kubernetes 1.29.3 on the new cluster, etcd 3.5.12.",
    "The migration 0042_add_index_on_created_at takes about 3 minutes on prod.",
    "Build #18734 passed in 6m 12s.",
    "PR #2291 closes issue #2260.",
    "Room 4.12 is booked from 14:00 to 15:30 on 2026-04-02.",
    "The meeting ID is 842 1177 3391 — no passcode needed for internal attendees.",
    "Latency p99 dropped from 840 ms to 212 ms after the index.",
    "Our ISO 27001 audit is on 12.05.2026.",
    "Postleitzahl 80331 ist München Altstadt.",
    "Le rendez-vous est le 14/03/2026 à 10h30.",
    "The ISBN is 978-3-16-148410-0.",
    "Serial number SN-7731-AB42-9910 on the router label.",
    "GTIN 4006381333931 is the barcode on the pencil box.",
    "Lat/long 52.5200, 13.4050 is central Berlin.",
    "Error code 0x80070005 means access denied on Windows.",
    "HTTP 429 with Retry-After: 120 — back off and retry.",
    "The secret to good sourdough is a long cold proof.",
    "She kept the secret for years.",
    "A keyring is just a place to keep keys; ours is the system keychain.",
    "Use the `--password-stdin` flag instead of `-p` so the shell history stays clean.",
    "We rotated all the keys last quarter; the runbook is in Confluence.",
    "Ask the user for their password only on the login page, never in chat.",
    "The passphrase must be at least five words long according to the new policy.",
    "Tokenization splits 'unbelievable' into three tokens.",
    "SSO via Okta is live; SCIM provisioning comes next sprint.",
    "The `AWS_REGION` default is eu-central-1.",
    "Set OPENAI_API_KEY in your shell, not in the notebook.",
    "GOOGLE_APPLICATION_CREDENTIALS should point at the mounted secret file.",
    "export PATH=\"$HOME/.local/bin:$PATH\"",
    "const MAX_RETRIES = 5; const TIMEOUT_MS = 30000;",
    "SELECT id, email_verified, created_at FROM users WHERE deleted_at IS NULL;",
    "grep -rn 'TODO' src/ | wc -l gives 137.",
    "The UUID column uses gen_random_uuid(); e.g. 0b9a2d1e-5c3f-4e8a-9d7b-1f2e3c4d5a6b in the fixture.",
    "Checksum md5 9e107d9d372bb6826bd81d3542a419d6 matches the mirror.",
    "sha1 of the tarball: 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
    "git checkout -b fix/token-refresh-race",
    "The refresh token expires after 30 days; access tokens after 1 hour.",
    "We store only a salted bcrypt hash of each password (cost 12).",
    "Timestamp 1767225600 is 2026-01-01 00:00:00 UTC.",
    "Port 5432 is Postgres, 6379 is Redis, 9092 is Kafka.",
    "The IPv4 10.20.30.40 is the internal load balancer.",
    "Bank holiday on 25.12. — the office is closed.",
    "Temperature was 21.5 °C at 07:30.",
    "Version 3.12.4 of CPython fixes the regression.",
    "Semantic versioning: 1.0.0-rc.1 < 1.0.0.",
    "The ticket ABC-1234 tracks the rate limiter bug.",
    "Train ICE 1043 leaves at 08:12 from platform 7.",
    "Flight LH 2034 lands at 16:45.",
    "Ich habe das Passwort vergessen und muss es zurücksetzen.",
    "Das Kennwort muss mindestens zwölf Zeichen haben.",
    "Le mot de passe doit être changé tous les 90 jours.",
    "La contraseña debe tener al menos ocho caracteres.",
    "Het wachtwoord is verlopen, vraag een nieuw aan bij IT.",
    "A senha expirou ontem.",
    "The password is stored in 1Password under 'Staging DB'.",
    "The password is in the vault, ask Priya for access.",
    "The admin password is rotated by the operator every night.",
    "secret: use the Kubernetes secret named db-credentials",
    "password: see the team vault",
    "token: ${{ secrets.GITHUB_TOKEN }}",
    "api_key: ${OPENAI_API_KEY}",
    "password = os.environ[\"DB_PASSWORD\"]",
    "client_secret=settings.OAUTH_CLIENT_SECRET",
    "The phone number field accepts E.164 only.",
    "Call volume was 1,204 calls on Monday.",
    "We processed 4,815,162,342 events in March.",
    "Account 7 of 12 migrated; 5 remaining.",
    "The population of Berlin is about 3,850,000.",
    "Reference 2026/04/17-0093 on the letter from the tax office.",
    "The batch id 20260417093112 is the one that failed.",
    "Epoch millis 1767225600000 in the log.",
    "The layer hash is 3c3a4604a545 and the image tag is 1.4.2-alpine.",
    "commit e83c5163316f89bfbde7d9ab23ca2e25604af290 (tag: v1.0.0)",
    "The Kafka offset is 18446744 on partition 3.",
    "Please review the IBAN validation logic in payments/iban.py.",
    "Credit card numbers are tokenized by the payment provider; we never see them.",
    "The SSN field is optional and only for US employees.",
    "We don't collect Aadhaar numbers anymore.",
    "Sprint 42 goal: finish the secrets scanner rollout.",
    "The word 'key' appears 37 times in the spec.",
    "A 256-bit key is 32 bytes, or 64 hex digits.",
    "Use `secrets.token_urlsafe(32)` to generate the state parameter.",
    "Set `PASSWORD_HASHERS` so Argon2 comes first.",
    "The webhook endpoint is /api/hooks/github and it verifies the signature.",
    "Send feedback via the form at https://example.org/feedback.",
    "Docs: https://docs.python.org/3/library/secrets.html",
    "Run `make test` before pushing; CI takes about 8 minutes.",
]


def build(seed: int) -> list[dict[str, object]]:
    r = random.Random(seed)
    rows = [render(r, t) for t in SECRET_ROWS + PERSONAL_ROWS]
    rows += [{"text": c, "canaries": [], "kinds": []} for c in CLEAN_ROWS]
    r.shuffle(rows)
    return rows


def main() -> None:
    write_jsonl("heldout_world3.jsonl", build(7331))


if __name__ == "__main__":
    main()
