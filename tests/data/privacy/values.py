"""Value generators shared by the privacy corpus generators (``make_*corpus.py`` in this folder).

Each generator imports from here the helpers, check-digit algorithms and token / identifier makers
that two or more of them had written out identically, some under other names (world3's
``google_api_key`` is ``s_gapi`` here, world5's ``k_fcm`` is ``s_fcm``; the older generators import
the basic helpers under their own names: ``rs`` is ``pick``, world5's ``digits`` is ``dg``). Every
maker takes the generator's ``random.Random`` and draws from it exactly as each copy did, so every
committed ``*.jsonl`` regenerates byte-identically (``tests/test_privacy_corpus_regenerates.py``). A
change here changes every corpus that uses the function: add a new function instead.

A few makers that differed between worlds only in a word list take that list as an argument
(``s_password_of``, ``s_jwt_of``, ``phone`` / ``p_phone``). ``AUDIT`` collects the personal values
the ``p_*`` makers plant, for a generator's ``--check``; the generator clears it in ``build()``.
"""

from __future__ import annotations

import base64
import json
import random
import string
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).parent

UP, LO, DG = string.ascii_uppercase, string.ascii_lowercase, string.digits
ALNUM = UP + LO + DG
HEX, HEXU = "0123456789abcdef", "0123456789ABCDEF"
B64URL = ALNUM + "-_"
B64STD = ALNUM + "+/"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"

Out = tuple[str, str, str]  # (value written into the text, canary substring of it, label)

# (label, value as written, region) -- personal values planted by the p_* makers, for --check
AUDIT: list[tuple[str, str, str]] = []


def write_jsonl(name: str, rows: list[dict[str, object]]) -> None:
    """Write a corpus file: into the folder after ``--out`` on the command line, else into this folder."""
    folder = Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else HERE
    with (folder / name).open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


# ================================================================================================
# basics
# ================================================================================================

def pick(r: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(r.choice(alphabet) for _ in range(n))


def dg(r: random.Random, n: int) -> str:
    return pick(r, n, DG)


def nz(r: random.Random) -> str:
    return r.choice("123456789")


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def b64s(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def uid(r: random.Random) -> str:
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def group(s: str, sizes: list[int], sep: str = " ") -> str:
    out, i = [], 0
    for n in sizes:
        out.append(s[i:i + n])
        i += n
    assert i == len(s), (s, sizes)
    return sep.join(out)


def whole(label: str, f: Callable[[random.Random], str]) -> Callable[[random.Random], Out]:
    """The whole value is the canary."""
    def make(r):
        v = f(r)
        return v, v, label
    return make


def part(label: str, f: Callable[[random.Random], tuple[str, str]]) -> Callable[[random.Random], Out]:
    """Only a piece of the value is the canary (a URL's password, a key file's body)."""
    def make(r):
        v, c = f(r)
        return v, c, label
    return make


# ================================================================================================
# check digits
# ================================================================================================

def luhn_digit(payload: str) -> str:
    """The Luhn (ISO/IEC 7812-1) check digit to append to ``payload``."""
    total = 0
    for i, ch in enumerate(reversed(payload)):
        v = int(ch) * (2 if i % 2 == 0 else 1)
        total += v - 9 if v > 9 else v
    return str(-total % 10)


def luhn_valid(n: str) -> bool:
    return luhn_digit(n[:-1]) == n[-1]


VERHOEFF_D = [  # the dihedral group D5 (Verhoeff 1969)
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]
VERHOEFF_INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(payload: str) -> str:
    c = 0
    for i, ch in enumerate(reversed(payload)):
        c = VERHOEFF_D[c][VERHOEFF_P[(i + 1) % 8][int(ch)]]
    return str(VERHOEFF_INV[c])


def verhoeff_valid(number: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(number)):
        c = VERHOEFF_D[c][VERHOEFF_P[i % 8][int(ch)]]
    return c == 0


def mod11_10(payload: str) -> str:
    """ISO 7064 MOD 11,10 (German Steuer-IdNr)."""
    p = 10
    for ch in payload:
        s = (int(ch) + p) % 10 or 10
        p = s * 2 % 11
    return str((11 - p) % 10)


def mod97(digits_or_letters: str) -> int:
    """The ISO 7064 MOD 97-10 remainder of a string whose letters count A=10 … Z=35."""
    return int("".join(str(int(ch, 36)) for ch in digits_or_letters)) % 97


def iban_of(cc: str, bban: str) -> str:
    """ISO 13616: check digits 98 - (BBAN + country + "00" as digits, letters 10-35) mod 97."""
    return f"{cc}{98 - mod97(bban + cc + '00'):02d}{bban}"


def es_ccc(digits: str) -> str:
    """The Spanish CCC check digit (the first over ``00`` + bank + branch, the second over the account)."""
    weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
    v = 11 - sum(int(d) * w for d, w in zip(digits, weights, strict=True)) % 11
    return str({10: 1, 11: 0}.get(v, v))


def fr_rib_key(bank: str, branch: str, acct: str) -> str:
    """The French RIB key over bank, branch and a numeric account number."""
    return f"{97 - (89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97:02d}"


def ean13_digit(twelve: str) -> str:
    """GS1 check digit: weights 1,3 from the left for an even-length payload of 12."""
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(twelve))
    return str(-s % 10)


# ================================================================================================
# secrets
# ================================================================================================

def s_openai(r):
    return r.choice(["sk-proj-", "sk-proj-", "sk-svcacct-"]) + pick(r, 74, B64URL) + "T3BlbkFJ" + pick(r, 74, B64URL)


def s_openai_legacy(r):
    return "sk-" + pick(r, 20) + "T3BlbkFJ" + pick(r, 20)


def s_openai_with_admin(r):
    """OpenAI: project/service-account/admin keys carry ``T3BlbkFJ`` (base64 of "OpenAI")."""
    p = r.choice(["sk-proj-", "sk-proj-", "sk-svcacct-", "sk-admin-"])
    return p + pick(r, 74, B64URL) + "T3BlbkFJ" + pick(r, 74, B64URL)


def s_anthropic(r):
    """Anthropic API keys: ``sk-ant-api03-``, 93 characters of [A-Za-z0-9_-], then ``AA``."""
    return "sk-ant-api03-" + pick(r, 93, B64URL) + "AA"


def s_anthropic_with_admin(r):
    """Anthropic API keys ``sk-ant-api03-`` + 93 of [A-Za-z0-9_-] + ``AA``; admin keys ``sk-ant-admin01-``."""
    return r.choice(["sk-ant-api03-", "sk-ant-api03-", "sk-ant-admin01-"]) + pick(r, 93, B64URL) + "AA"


def s_gapi(r):
    """Google API key ``AIza`` + 35 of [A-Za-z0-9_-]."""
    return "AIza" + pick(r, 35, B64URL)


def s_hf(r):
    """Hugging Face user access token: ``hf_`` + 34 letters."""
    return "hf_" + pick(r, 34, UP + LO)


def s_cohere(r):
    return pick(r, 40)


def s_mistral(r):
    """Mistral AI API keys: 32 alphanumerics."""
    return pick(r, 32)


def s_xai(r):
    """xAI API key ``xai-`` + 80 alphanumerics."""
    return "xai-" + pick(r, 80)


def s_groq(r):
    """Groq API key ``gsk_`` + 52 alphanumerics."""
    return "gsk_" + pick(r, 52)


def s_pplx(r):
    """Perplexity API key ``pplx-`` + 48 alphanumerics."""
    return "pplx-" + pick(r, 48)


def s_openrouter(r):
    """OpenRouter API key ``sk-or-v1-`` + 64 hex."""
    return "sk-or-v1-" + pick(r, 64, HEX)


def s_elevenlabs(r):
    """ElevenLabs API key ``sk_`` + 48 hex."""
    return "sk_" + pick(r, 48, HEX)


def s_replicate(r):
    """Replicate API token ``r8_`` + 37 alphanumerics."""
    return "r8_" + pick(r, 37)


def s_langfuse(r):
    """Langfuse secret keys: ``sk-lf-`` and a UUID."""
    return "sk-lf-" + uid(r)


def s_langsmith(r):
    """LangSmith personal ``lsv2_pt_`` / service ``lsv2_sk_`` key: 32 hex ``_`` 10 hex."""
    return r.choice(["lsv2_pt_", "lsv2_sk_"]) + pick(r, 32, HEX) + "_" + pick(r, 10, HEX)


def s_wandb(r):
    """Weights & Biases API keys: 40 hex digits."""
    return pick(r, 40, HEX)


def s_aws_id(r):
    return r.choice(["AKIA", "AKIA", "AKIA", "ASIA"]) + pick(r, 16, UP + "234567")


def s_aws_id_even(r):
    """AWS access key id ``AKIA``/``ASIA`` + 16 of [A-Z2-7]."""
    return r.choice(["AKIA", "ASIA"]) + pick(r, 16, UP + "234567")


def s_aws_secret(r):
    """AWS secret access key: 40 base64 characters."""
    return pick(r, 40, B64STD)


def s_azure_cs(r):
    """Entra ID (Azure AD) client secret: 3 characters, a digit, ``Q~``, 34 of [A-Za-z0-9_.~-]."""
    return pick(r, 3, ALNUM) + r.choice(DG) + "Q~" + pick(r, 34, ALNUM + "_.~-")


def s_do(r):
    return "dop_v1_" + pick(r, 64, HEX)


def s_cf_global(r):
    """Cloudflare global API key: 37 lower-case hex digits."""
    return pick(r, 37, HEX)


def s_cf_token(r):
    """Cloudflare API token: 40 of [A-Za-z0-9_-] (no prefix; the variable name says what it is)."""
    return pick(r, 40, B64URL)


def s_databricks(r):
    """Databricks personal access token ``dapi`` + 32 hex, optionally ``-<n>``."""
    return "dapi" + pick(r, 32, HEX) + r.choice(["", "", "-2", "-3"])


def s_supabase(r):
    """Supabase management API personal token ``sbp_`` + 40 hex."""
    return "sbp_" + pick(r, 40, HEX)


def s_tfc(r):
    """HCP Terraform / Terraform Cloud user token: 14 characters ``.atlasv1.`` 67 characters."""
    return pick(r, 14) + ".atlasv1." + pick(r, 67, B64URL)


def s_pulumi(r):
    """Pulumi access token ``pul-`` + 40 hex."""
    return "pul-" + pick(r, 40, HEX)


def s_tailscale(r):
    """Tailscale auth key ``tskey-auth-`` k + 10 + ``CNTRL-`` + 33 alphanumerics."""
    return "tskey-auth-k" + pick(r, 10) + "CNTRL-" + pick(r, 33)


def s_tencent(r):
    """Tencent Cloud SecretId: ``AKID`` and 32 characters."""
    return "AKID" + pick(r, 32)


def s_okta(r):
    """Okta API tokens (sent as ``SSWS``): ``00`` and 40 characters."""
    return "00" + pick(r, 40, B64URL)


def s_gocspx(r):
    """Google OAuth client secret ``GOCSPX-`` + 28 of [A-Za-z0-9_-]."""
    return "GOCSPX-" + pick(r, 28, B64URL)


def s_ya29(r):
    """Google OAuth 2.0 access tokens: ``ya29.`` and a long base64url string."""
    return "ya29.a0" + pick(r, 150, B64URL)


def s_fcm(r):
    """Firebase Cloud Messaging legacy server keys: ``AAAA`` 7 ``:APA91b`` 134."""
    return "AAAA" + pick(r, 7, B64URL) + ":APA91b" + pick(r, 134, B64URL)


def s_ghp(r):
    return "ghp_" + pick(r, 36)


def s_ghs(r):
    return "ghs_" + pick(r, 36)


def s_gho(r):
    return "gho_" + pick(r, 36)


def s_ghpat(r):
    return "github_pat_11" + pick(r, 22, UP + DG) + "_" + pick(r, 59)


def s_glpat(r):
    """GitLab personal/project access token: ``glpat-`` and 20 characters."""
    return "glpat-" + pick(r, 20, B64URL)


def s_glrt(r):
    return "glrt-" + pick(r, 20, B64URL)


def s_circleci(r):
    """CircleCI personal API tokens: ``CCIPAT_`` 22 ``_`` 40 hex."""
    return "CCIPAT_" + pick(r, 22) + "_" + pick(r, 40, HEX)


def s_glsa(r):
    """Grafana service-account token ``glsa_`` + 32 alphanumerics ``_`` 8 hex."""
    return "glsa_" + pick(r, 32) + "_" + pick(r, 8, HEX)


def s_nrak(r):
    """New Relic user API key ``NRAK-`` + 27 of [A-Z0-9]."""
    return "NRAK-" + pick(r, 27, UP + DG)


def s_datadog(r):
    """Datadog API key: 32 hex (no prefix)."""
    return pick(r, 32, HEX)


def s_sentry(r):
    """Sentry user auth token ``sntryu_`` + 64 hex."""
    return "sntryu_" + pick(r, 64, HEX)


def s_linear(r):
    """Linear personal API key ``lin_api_`` + 40 alphanumerics."""
    return "lin_api_" + pick(r, 40)


def s_postman(r):
    """Postman API key ``PMAK-`` 24 hex ``-`` 34 hex."""
    return "PMAK-" + pick(r, 24, HEX) + "-" + pick(r, 34, HEX)


def s_xoxb(r):
    return f"xoxb-{dg(r, 12)}-{dg(r, 13)}-{pick(r, 24)}"


def s_xoxp(r):
    return f"xoxp-{dg(r, 12)}-{dg(r, 12)}-{dg(r, 13)}-{pick(r, 32, HEX)}"


def s_xapp(r):
    """Slack app-level token ``xapp-1-A`` + 10 + ``-`` 13 digits ``-`` 64 hex."""
    return f"xapp-1-A{pick(r, 10, UP + DG)}-{dg(r, 13)}-{pick(r, 64, HEX)}"


def s_slack_hook(r):
    """Slack incoming webhook URL; the last 24-character path segment is the secret."""
    t = pick(r, 24)
    return f"https://hooks.slack.com/services/T{pick(r, 8, UP + DG)}/B{pick(r, 10, UP + DG)}/{t}", t


def s_slack_hook_full(r):
    url, _ = s_slack_hook(r)
    return url, url


def s_slack_hook_t10(r):
    """Slack incoming webhook: hooks.slack.com/services/T…/B…/24 characters."""
    t = pick(r, 24)
    return f"https://hooks.slack.com/services/T{pick(r, 10, UP + DG)}/B{pick(r, 10, UP + DG)}/{t}", t


def s_discord_hook(r):
    t = pick(r, 68, B64URL)
    return f"https://discord.com/api/webhooks/{r.randint(10**17, 13 * 10**17)}/{t}", t


def s_discord_bot(r):
    """Discord bot token: base64(snowflake id) . 6 (timestamp) . 38 (HMAC)."""
    sid = str(r.randint(10**17, 13 * 10**17))
    return b64u(sid.encode()) + "." + pick(r, 6, B64URL) + "." + pick(r, 38, B64URL)


def s_telegram(r):
    return f"{r.randint(10**9, 7 * 10**9)}:AA{pick(r, 33, B64URL)}"


def s_stripe(r):
    return "sk_live_51" + pick(r, 22) + pick(r, 75)


def s_stripe_rk(r):
    return "rk_live_51" + pick(r, 22) + pick(r, 75)


def s_whsec(r):
    return "whsec_" + pick(r, 32)


def s_braintree(r):
    """Braintree/PayPal access tokens: ``access_token$production$`` 16 ``$`` 32 hex."""
    return f"access_token$production${pick(r, 16, LO + DG)}${pick(r, 32, HEX)}"


def s_plaid(r):
    """Plaid access tokens: ``access-production-`` and a UUID."""
    return "access-production-" + uid(r)


def s_flw(r):
    """Flutterwave secret keys: ``FLWSECK-`` 32 hex ``-X``."""
    return "FLWSECK-" + pick(r, 32, HEX) + "-X"


def s_sendgrid(r):
    """SendGrid API key ``SG.`` + 22 ``.`` + 43 of base64url."""
    return "SG." + pick(r, 22, B64URL) + "." + pick(r, 43, B64URL)


def s_resend(r):
    """Resend API keys: ``re_``, an 8-character id, ``_``, 24 characters."""
    return "re_" + pick(r, 8) + "_" + pick(r, 24)


def s_twilio(r):
    """Twilio API key SID: ``SK`` + 32 lowercase hex."""
    return "SK" + pick(r, 32, HEX)


def s_hubspot(r):
    """HubSpot private app tokens: ``pat-`` region ``-`` UUID."""
    return f"pat-{r.choice(['na1', 'eu1'])}-{uid(r)}"


def s_npm(r):
    """npm granular/automation token ``npm_`` + 36 alphanumerics."""
    return "npm_" + pick(r, 36)


def s_pypi(r):
    raw = b"\x01\x08pypi.org\x02\x25" + uid(r).encode() + b"\x00\x02\x2a\x02\x02" + r.randbytes(104)
    return "pypi-AgEIcHlwaS5vcmc" + b64u(raw)[20:]


def s_nuget(r):
    """NuGet.org API keys: ``oy2`` and 43 lower-case characters."""
    return "oy2" + pick(r, 43, LO + DG)


def s_cratesio(r):
    """crates.io API token ``cio`` + 32 alphanumerics."""
    return "cio" + pick(r, 32)


def s_dckr(r):
    """Docker Hub personal access token ``dckr_pat_`` + 27 of [A-Za-z0-9_-]."""
    return "dckr_pat_" + pick(r, 27, B64URL)


def s_vault(r):
    return "hvs." + pick(r, 24)


def s_django(r):
    """Django's generated SECRET_KEY: ``django-insecure-`` and 50 characters."""
    return "django-insecure-" + pick(r, 50, LO + DG + "!@#%^&*(-_=+)")


def s_age(r):
    """age X25519 identity ``AGE-SECRET-KEY-1`` + 58 bech32 characters (upper case)."""
    return "AGE-SECRET-KEY-1" + pick(r, 58, BECH32.upper())


def s_bearer(r):
    return pick(r, r.choice([32, 40, 43]), B64URL)


PEM_HEAD = {  # the DER bytes a key of each kind starts with
    "RSA PRIVATE KEY": bytes.fromhex("308204a40201000282010100"),
    "PRIVATE KEY": bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7"),
    "EC PRIVATE KEY": bytes.fromhex("30770201010420"),
    "OPENSSH PRIVATE KEY": b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01",
}


def pem(r, label, n=300, sep="\n"):
    body = b64s(PEM_HEAD[label] + r.randbytes(n))
    w = 70 if label == "OPENSSH PRIVATE KEY" else 64
    lines = [body[i:i + w] for i in range(0, len(body), w)]
    return f"-----BEGIN {label}-----{sep}" + sep.join(lines) + f"{sep}-----END {label}-----", lines[0]


def s_pem_rsa(r):
    return pem(r, "RSA PRIVATE KEY")


def s_pem_pkcs8(r):
    return pem(r, "PRIVATE KEY")


def s_pem_ec(r):
    return pem(r, "EC PRIVATE KEY", 100)


def s_pem_ssh(r):
    return pem(r, "OPENSSH PRIVATE KEY", 320)


def s_pem_json(r):
    """A GCP service-account file's private_key: PEM with escaped newlines, as one JSON string."""
    return pem(r, "PRIVATE KEY", 1190, "\\n")


def s_kube_key_data(r):
    text, _ = pem(r, "RSA PRIVATE KEY", 200)
    blob = b64s((text + "\n").encode())
    return blob, blob


def s_url_pw(r):
    """Password that needs no percent-encoding inside a URI userinfo."""
    return pick(r, r.choice([16, 20, 24]), ALNUM + "-_.~")


# ---- makers that differ between worlds only in their word lists -------------------------------------

_SYM = "!@#$%&*?_-+.="


def s_password_of(r, words):
    style = r.randrange(5)
    if style == 0:
        return r.choice(words).capitalize() + r.choice(_SYM) + dg(r, r.choice([3, 4]))
    if style == 1:
        return pick(r, r.choice([14, 16, 20]), ALNUM + "!#%*+-_")
    if style == 2:
        return "-".join(r.sample([w.lower() for w in words], 3)) + "-" + dg(r, 2)
    if style == 3:
        return dg(r, 2) + r.choice(words) + r.choice(_SYM) + pick(r, 4, UP)
    return pick(r, 3, UP) + r.choice(_SYM) + pick(r, 5, LO) + dg(r, 3) + r.choice(_SYM)


def s_jwt_of(r, issuers, audiences, claims=None):
    alg = r.choice(["HS256", "RS256", "RS256", "ES256"])
    head = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        head = {"alg": alg, "kid": pick(r, 16, B64URL), "typ": "JWT"}
    body = claims or {
        "sub": uid(r), "iss": r.choice(issuers),
        "aud": r.choice(audiences),
        "exp": 1760000000 + r.randrange(5 * 10**6), "email_verified": True}
    sig = r.randbytes({"HS256": 32, "RS256": 256, "ES256": 64}[alg])
    return ".".join([b64u(json.dumps(head, separators=(",", ":")).encode()),
                     b64u(json.dumps(body, separators=(",", ":")).encode()), b64u(sig)])


# ================================================================================================
# personal data
# ================================================================================================

def id_aadhaar(r):
    """Aadhaar (UIDAI): 12 digits, first 2-9, not a palindrome, Verhoeff check digit."""
    while True:
        p = r.choice("23456789") + dg(r, 10)
        n = p + verhoeff_digit(p)
        if n != n[::-1]:
            return n


def id_dni(r):
    """Spanish DNI: 8 digits and the letter TRWAGMYFPDXBNJZSQVHLCKE[n mod 23]."""
    n = r.randint(1_000_000, 99_999_999)
    return f"{n:08d}{DNI_LETTERS[n % 23]}"


def id_nie(r):
    """Spanish NIE: X/Y/Z (counting 0/1/2), 7 digits, the DNI letter of the resulting number."""
    lead, rest = r.choice("XYZ"), dg(r, 7)
    return f"{lead}{rest}{DNI_LETTERS[int(str('XYZ'.index(lead)) + rest) % 23]}"


def id_nino(r):
    """UK National Insurance number: two prefix letters (no D F I Q U V, second not O; not BG GB KN
    NK NT TN ZZ), six digits, suffix A-D."""
    first, second = "ABCEGHJKLMNOPRSTWXYZ", "ABCEGHJKLMNPRSTWXYZ"
    while True:
        p = r.choice(first) + r.choice(second)
        if p not in {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}:
            return p + dg(r, 6) + r.choice("ABCD")


def p_card(r):
    net = r.choice(["visa", "visa", "visa", "mc", "mc", "mc2", "amex", "discover", "jcb"])
    if net == "amex":
        payload = r.choice(["34", "37"]) + dg(r, 12)
    else:
        pre = {"visa": "4", "mc": str(r.randint(51, 55)), "mc2": str(r.randint(2221, 2720)),
               "discover": r.choice(["6011", "65"]), "jcb": str(r.randint(3528, 3589))}[net]
        payload = pre + dg(r, 15 - len(pre))
    n = payload + luhn_digit(payload)
    style = r.randrange(3)
    if net == "amex":
        v = group(n, [4, 6, 5], " " if style else "-") if style < 2 else n
    else:
        v = group(n, [4, 4, 4, 4], " " if style else "-") if style < 2 else n
    AUDIT.append(("card_number", v, ""))
    return v


def p_iban(cc=None):
    def make(r):
        c = cc or r.choice(["DE", "GB", "FR", "ES", "NL", "IT", "BE", "AT", "CH", "IE", "PL", "PT"])
        if c == "DE":
            bban = r.choice(["10070000", "50010517", "37040044", "20041111", "43060967"]) + dg(r, 10)
        elif c == "GB":
            bban = r.choice(["NWBK", "BARC", "LOYD", "HBUK", "MIDL"]) + dg(r, 6) + dg(r, 8)
        elif c == "FR":
            bank, branch, acct = r.choice(["30004", "30003", "20041", "10278"]), dg(r, 5), dg(r, 11)
            bban = bank + branch + acct + fr_rib_key(bank, branch, acct)
        elif c == "ES":
            bank, branch, acct = r.choice(["2100", "0049", "0182", "2080"]), dg(r, 4), dg(r, 10)
            bban = bank + branch + es_ccc("00" + bank + branch) + es_ccc(acct) + acct
        elif c == "NL":
            bban = r.choice(["ABNA", "RABO", "INGB", "TRIO", "KNAB"]) + dg(r, 10)
        elif c == "IT":
            bban = r.choice(UP) + r.choice(["03069", "02008", "05034"]) + dg(r, 5) + dg(r, 12)
        elif c == "BE":
            first = r.choice(["001", "068", "310", "363", "735"]) + dg(r, 7)
            chk = int(first) % 97 or 97
            bban = f"{first}{chk:02d}"
        elif c == "AT":
            bban = r.choice(["12000", "20111", "32000", "14000"]) + dg(r, 11)
        elif c == "CH":
            bban = r.choice(["00762", "00230", "80808"]) + dg(r, 12)
        elif c == "IE":
            bban = r.choice(["AIBK", "BOFI"]) + dg(r, 6) + dg(r, 8)
        elif c == "PL":
            bban = r.choice(["10203", "11402", "10501"]) + dg(r, 3) + dg(r, 16)
        else:  # PT: bank, branch, account, two NIB check digits (ISO 7064 MOD 97-10)
            body = r.choice(["0035", "0033", "0010"]) + dg(r, 4) + dg(r, 11)
            bban = body + f"{98 - int(body + '00') % 97:02d}"
        v = iban_of(c, bban)
        v = group(v, [4] * (len(v) // 4) + ([len(v) % 4] if len(v) % 4 else [])) if r.random() < 0.5 else v
        AUDIT.append(("iban", v, c))
        return v
    return make


def p_ssn(r):
    area = r.randint(1, 899)
    while area == 666:
        area = r.randint(1, 899)
    v = f"{area:03d}-{r.randint(1, 99):02d}-{r.randint(1, 9999):04d}"
    if r.random() < 0.25:
        v = v.replace("-", "")
    AUDIT.append(("ssn", v, ""))
    return v


def p_nino(r):
    first = r.choice("ABCEGHJKLMNPRSTWXYZ")
    second = r.choice("ABCEGHJKLMNPRSTWXYZ".replace("O", ""))
    while first + second in {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}:
        second = r.choice("ABCEGHJKLMNPRSTWXYZ")
    d = dg(r, 6)
    v = f"{first}{second} {d[:2]} {d[2:4]} {d[4:]} {r.choice('ABCD')}" if r.random() < 0.5 else \
        f"{first}{second}{d}{r.choice('ABCD')}"
    AUDIT.append(("uk_nino", v, ""))
    return v


def p_sin(r):
    payload = r.choice("1234567") + dg(r, 7)
    n = payload + luhn_digit(payload)
    v = group(n, [3, 3, 3], r.choice([" ", "-"]))
    AUDIT.append(("ca_sin", v, ""))
    return v


def p_nir(r):
    sex = r.choice("12")
    yy, mm = f"{r.randint(55, 99):02d}", f"{r.randint(1, 12):02d}"
    dep = r.choice(["75", "69", "13", "33", "59", "44", "31"])
    com, order = f"{r.randint(1, 400):03d}", f"{r.randint(1, 999):03d}"
    body = sex + yy + mm + dep + com + order
    key = f"{97 - int(body) % 97:02d}"
    v = f"{sex} {yy} {mm} {dep} {com} {order} {key}"
    AUDIT.append(("fr_nir", v, ""))
    return v


def p_de_tax(r):
    while True:
        ds = r.sample(range(10), 9)
        if ds[0] == 0:
            continue
        rep = r.choice(ds)
        ten = ds + [rep]
        head, tail = ten[:1], ten[1:]
        r.shuffle(tail)
        ten = head + tail
        if any(ten[i] == ten[i + 1] == ten[i + 2] for i in range(8)):
            continue
        s = "".join(map(str, ten))
        v = s + mod11_10(s)
        if r.random() < 0.5:
            v = f"{v[:2]} {v[2:5]} {v[5:8]} {v[8:]}"
        AUDIT.append(("de_tax_id", v, ""))
        return v


def p_aadhaar(r):
    payload = r.choice("23456789") + dg(r, 10)
    n = payload + verhoeff_digit(payload)
    v = group(n, [4, 4, 4])
    AUDIT.append(("aadhaar", v, ""))
    return v


def p_dni(r):
    n = r.randint(10**6, 99999999)
    v = f"{n:08d}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"
    AUDIT.append(("es_dni", v, ""))
    return v


def p_bsn(r):
    while True:
        d = nz(r) + dg(r, 7)
        s = sum(int(c) * w for c, w in zip(d, range(9, 1, -1), strict=False)) % 11
        if s < 10:
            v = d + str(s)
            AUDIT.append(("nl_bsn", v, ""))
            return v


def p_cpf(r):
    d = [int(c) for c in dg(r, 9)]
    for n in (10, 11):
        s = sum(x * w for x, w in zip(d, range(n, 1, -1), strict=False)) % 11
        d.append(0 if s < 2 else 11 - s)
    s = "".join(map(str, d))
    v = f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"
    AUDIT.append(("br_cpf", v, ""))
    return v


def p_pesel(r):
    y, m, day = r.randint(1960, 2005), r.randint(1, 12), r.randint(1, 28)
    mm = m + (20 if y >= 2000 else 0)
    body = f"{y % 100:02d}{mm:02d}{day:02d}{dg(r, 4)}"
    chk = -sum(int(c) * w for c, w in zip(body, [1, 3, 7, 9] * 3, strict=False)) % 10
    v = body + str(chk)
    AUDIT.append(("pl_pesel", v, ""))
    return v


def p_pan(r):
    surname = r.choice(UP)
    v = pick(r, 3, UP) + "P" + surname + dg(r, 4) + r.choice(UP)
    AUDIT.append(("in_pan", v, ""))
    return v


def p_cn_ric(r):
    area = r.choice(["110101", "110102", "110105", "110108", "310104", "310110", "120101"])
    y, m, d = r.randint(1965, 2002), r.randint(1, 12), r.randint(1, 28)
    body = f"{area}{y}{m:02d}{d:02d}{dg(r, 3)}"
    s = sum(int(c) * (2 ** (17 - i) % 11) for i, c in enumerate(body)) % 11
    v = body + "10X98765432"[s]
    AUDIT.append(("cn_ric", v, ""))
    return v


def _us_local(r):
    area = r.choice(["212", "415", "206", "312", "617", "303", "512", "646", "702", "919", "404", "213"])
    ex = r.choice("23456789") + dg(r, 2)
    while ex[1:] == "11" or ex == "555":
        ex = r.choice("23456789") + dg(r, 2)
    return area, ex, dg(r, 4)


def _ca_local(r):
    area = r.choice(["416", "604", "514", "613", "403", "647", "780"])
    ex = r.choice("23456789") + dg(r, 2)
    while ex[1:] == "11" or ex == "555":
        ex = r.choice("23456789") + dg(r, 2)
    return area, ex, dg(r, 4)


def phone(r, cc, gb_mobile):
    """A number of country ``cc`` in one of the ways people there write it; ``gb_mobile``: the UK mobile
    prefixes to draw from (world6 and world7 differ only there)."""
    k = r.randrange(3)
    if cc in ("US", "CA"):
        a, e, s = _us_local(r) if cc == "US" else _ca_local(r)
        return [f"({a}) {e}-{s}", f"+1 {a} {e} {s}", f"{a}-{e}-{s}", f"{a}.{e}.{s}", f"+1-{a}-{e}-{s}"][r.randrange(5)]
    if cc == "GB":
        if k == 2:
            n = r.choice(["7", "3"]) + dg(r, 7)
            return f"020 {n[:4]} {n[4:]}"
        m = r.choice(gb_mobile) + dg(r, 8)
        return f"0{m[:4]} {m[4:]}" if k == 0 else f"+44 {m[:4]} {m[4:]}"
    if cc == "DE":
        if k == 0:
            n = r.choice(["151", "152", "160", "162", "157"]) + dg(r, 8)
            return f"+49 {n[:3]} {n[3:7]} {n[7:]}"
        if k == 1:
            n = r.choice(["170", "171", "172", "173", "174", "175"]) + dg(r, 7)
            return f"0{n[:3]} {n[3:]}"
        return f"030 {nz(r)}{dg(r, 7)}"
    if cc == "FR":
        n = r.choice(["61", "62", "64", "65", "67", "68", "73", "76", "78"])
        n += dg(r, 9 - len(n))
        return f"0{n[0]} {group(n[1:], [2, 2, 2, 2])}" if k else f"+33 {n[0]} {group(n[1:], [2, 2, 2, 2])}"
    if cc == "ES":
        n = (r.choice(["6", "6", "71", "72"]) if k else "91") + dg(r, 7)
        n += dg(r, 9 - len(n))
        return f"+34 {group(n, [3, 3, 3])}" if k else group(n, [3, 3, 3])
    if cc == "IT":
        n = r.choice(["320", "328", "333", "338", "340", "347", "349", "366", "380", "389", "392"]) + dg(r, 7)
        return f"+39 {n[:3]} {n[3:6]} {n[6:]}" if k else f"{n[:3]} {n[3:]}"
    if cc == "NL":
        n = "6" + r.choice("12345") + dg(r, 7)
        return f"06-{n[1:]}" if k == 0 else f"+31 6 {n[1:]}"
    if cc == "BE":
        n = "4" + r.choice(["7", "8", "9"]) + dg(r, 7)
        return f"0{n[:3]} {group(n[3:], [2, 2, 2])}" if k else f"+32 {n[:3]} {group(n[3:], [2, 2, 2])}"
    if cc == "CH":
        n = "7" + r.choice("5689") + dg(r, 7)
        return f"0{n[:2]} {n[2:5]} {n[5:7]} {n[7:]}" if k else f"+41 {n[:2]} {n[2:5]} {n[5:7]} {n[7:]}"
    if cc == "AT":
        n = r.choice(["664", "660", "676", "699", "650"]) + dg(r, 7)
        return f"0{n[:3]} {n[3:]}" if k else f"+43 {n[:3]} {n[3:]}"
    if cc == "SE":
        n = "7" + r.choice("0236") + dg(r, 7)
        return f"0{n[:2]}-{n[2:5]} {n[5:7]} {n[7:]}" if k else f"+46 {n[:2]} {n[2:5]} {n[5:7]} {n[7:]}"
    if cc == "PL":
        n = r.choice(["501", "512", "533", "601", "662", "691", "724", "784", "798", "881"]) + dg(r, 6)
        return f"+48 {group(n, [3, 3, 3])}" if k else group(n, [3, 3, 3], "-")
    if cc == "IE":
        n = "8" + r.choice("35679") + dg(r, 7)
        return f"0{n[:2]} {n[2:5]} {n[5:]}" if k else f"+353 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "PT":
        n = "9" + r.choice("1236") + dg(r, 7)
        return f"+351 {group(n, [3, 3, 3])}" if k else group(n, [3, 3, 3])
    if cc == "BR":
        ddd = r.choice(["11", "21", "31", "41", "51", "61", "71", "81"])
        n = "9" + r.choice("6789") + dg(r, 7)
        return f"({ddd}) {n[:5]}-{n[5:]}" if k else f"+55 {ddd} {n[:5]}-{n[5:]}"
    if cc == "MX":
        n = r.choice(["55", "33", "81"]) + nz(r) + dg(r, 7)
        return f"+52 {n[:2]} {n[2:6]} {n[6:]}" if k else f"{n[:2]} {n[2:6]} {n[6:]}"
    if cc == "AR":
        n = "11" + r.choice("2345") + dg(r, 7)
        return f"+54 9 11 {n[2:6]}-{n[6:]}" if k else f"011 15-{n[2:6]}-{n[6:]}"
    if cc == "IN":
        n = r.choice("6789") + dg(r, 9)
        return f"+91 {n[:5]} {n[5:]}" if k else f"+91-{n}"
    if cc == "JP":
        n = r.choice(["90", "80", "70"]) + nz(r) + dg(r, 7)
        return f"0{n[:2]}-{n[2:6]}-{n[6:]}" if k else f"+81 {n[:2]} {n[2:6]} {n[6:]}"
    if cc == "KR":
        n = "10" + nz(r) + dg(r, 7)
        return f"010-{n[2:6]}-{n[6:]}" if k else f"+82 10-{n[2:6]}-{n[6:]}"
    if cc == "CN":
        n = r.choice(["138", "139", "136", "158", "186", "188", "152", "177"]) + dg(r, 8)
        return f"+86 {n[:3]} {n[3:7]} {n[7:]}" if k else n
    if cc == "AU":
        if k == 2:
            return f"(02) {r.choice('89')}{dg(r, 3)} {dg(r, 4)}"
        n = "4" + r.choice(["0", "1", "2", "3", "8"]) + dg(r, 7)
        return f"0{n[:3]} {n[3:6]} {n[6:]}" if k else f"+61 {n[:3]} {n[3:6]} {n[6:]}"
    if cc == "SG":
        n = r.choice(["8", "9"]) + r.choice("12345678") + dg(r, 6)
        return f"+65 {n[:4]} {n[4:]}" if k else f"{n[:4]} {n[4:]}"
    if cc == "ZA":
        n = r.choice(["72", "73", "76", "79", "82", "83", "84", "61"]) + dg(r, 7)
        return f"0{n[:2]} {n[2:5]} {n[5:]}" if k else f"+27 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "NG":
        n = r.choice(["803", "806", "813", "816", "703", "706", "805", "807", "902"]) + dg(r, 7)
        return f"0{n[:3]} {n[3:6]} {n[6:]}" if k else f"+234 {n[:3]} {n[3:6]} {n[6:]}"
    if cc == "AE":
        n = "5" + r.choice("024568") + dg(r, 7)
        return f"0{n[:2]} {n[2:5]} {n[5:]}" if k else f"+971 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "IL":
        n = "5" + r.choice("0234") + "2" + dg(r, 6)
        return f"0{n[:2]}-{n[2:5]}-{n[5:]}" if k else f"+972 {n[:2]}-{n[2:5]}-{n[5:]}"
    if cc == "TR":
        n = "5" + r.choice(["30", "32", "35", "41", "42", "52", "54", "05"]) + dg(r, 7)
        return f"0{n[:3]} {n[3:6]} {n[6:8]} {n[8:]}" if k else f"+90 {n[:3]} {n[3:6]} {n[6:8]} {n[8:]}"
    if cc == "PH":
        n = "9" + r.choice(["17", "18", "20", "27", "45", "55", "77"]) + dg(r, 7)
        return f"0{n[:3]} {n[3:6]} {n[6:]}" if k else f"+63 {n[:3]} {n[3:6]} {n[6:]}"
    if cc == "ID":
        n = "8" + r.choice(["11", "12", "13", "21", "52", "56", "57", "77"]) + dg(r, 8)
        return f"0{n[:3]}-{n[3:7]}-{n[7:]}" if k else f"+62 {n[:3]}-{n[3:7]}-{n[7:]}"
    raise KeyError(cc)


def p_phone(cc, gb_mobile):
    def make(r):
        v = phone(r, cc, gb_mobile)
        AUDIT.append(("phone", v, cc))
        return v
    return make
