#!/usr/bin/env python3
"""Writes ``heldout_world9.jsonl``: a ninth, blind held-out extension of the privacy corpus.

Written from knowledge of real-world formats only (no detector rule was read): traffic of a fleet of
LLM coding agents (session logs, tool calls, shell commands, config files, CI logs, tickets, chat in
many languages), weighted like real traffic: mostly credentials in many phrasings and file formats,
emails, phones, the commonest cloud/API keys, cards/IBANs and national identifiers, with a long tail
of other providers. Values have the real shape: documented prefixes, lengths and charsets, and valid
check digits where the format has one. Clean rows hold look-alikes that are not secrets.

Templates mark a planted value as ``⟦kind⟧`` or ``⟦kind|variant⟧`` (``#n`` after it repeats one value
inside a row) and a non-secret filler as ``⟦~name⟧``. Deterministic: ``random.Random(SEED)``, stdlib
only. It adds five labels: ``tr_tckn``, ``il_tz``, ``ar_cuit``, ``ee_ik`` and ``hk_hkid``.

    python tests/data/privacy/make_world9_corpus.py
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import re
import string
import struct
import sys
import zlib
from collections import Counter
from pathlib import Path

SEED = 9_2024_0611
R = random.Random(SEED)
OUT = Path(__file__).with_name("heldout_world9.jsonl")

U = string.ascii_uppercase
L = string.ascii_lowercase
D = string.digits
AN = U + L + D
HEX = "0123456789abcdef"
HEXU = HEX.upper()
B64 = AN + "+/"
URLSAFE = AN + "-_"
B62 = D + U + L


def rs(n: int, cs: str = AN) -> str:
    return "".join(R.choice(cs) for _ in range(n))


def uuid4() -> str:
    h = rs(32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


def b64url(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


# ---------------------------------------------------------------- check digits

def luhn_digit(payload: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num: str) -> bool:
    return luhn_digit(num[:-1]) == num[-1]


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
       [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(payload: str) -> str:
    c = 0
    for i, ch in enumerate(reversed(payload)):
        c = _VD[c][_VP[(i + 1) % 8][int(ch)]]
    return str(_VINV[c])


def mod97_iban(country: str, bban: str) -> str:
    s = bban + country + "00"
    n = int("".join(str(int(c, 36)) for c in s))
    return f"{98 - n % 97:02d}"


def group(s: str, n: int = 4, sep: str = " ") -> str:
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


def dob(lo: int = 1952, hi: int = 1999) -> tuple[int, int, int]:
    return R.randint(lo, hi), R.randint(1, 12), R.randint(1, 28)


# ---------------------------------------------------------------- passwords

WORDS = ("harbor velvet quartz maple orbit lantern tundra cobalt saffron pixel juniper falcon ember "
         "glacier mosaic nimbus otter prairie rocket sable thistle walnut zephyr cactus delta fjord "
         "gecko hazel indigo kestrel lotus meadow nectar onyx pepper quill raven summit topaz umber "
         "violet willow bramble cinder dune marble copper sparrow timber anchor biscuit crater "
         "drizzle fennel granite hammock iceberg jigsaw kettle ladder mango noodle oyster pebble").split()
LOCAL = ("Sonnenblume Kartoffel Mariposa Tortuga Papillon Fromage Girasole Formaggio Zonnebloem "
         "Kruimel Pierogi Kotek Solros Kanelbulle Revontuli Sakura Tanuki Haneul Jacaranda Saudade "
         "Kiraz Yildiz Medved Chaika Pohjola Bifrost Mistral Tramonto Aurinko Feijoada").split()
PUNCT = "!#$%*+-.=?@^_~"


def _random_pw(n: int, punct: str = PUNCT) -> str:
    while True:
        s = R.choice(U + L) + rs(n - 1, AN + punct * 2)
        if (any(c in punct for c in s) and any(c.isdigit() for c in s)
                and any(c.isupper() for c in s) and any(c.islower() for c in s)):
            return s


def password(v: str = "") -> str:
    v = v or R.choice(["word", "word", "random", "random", "local", "phrase", "simple", "hexgen",
                       "b64gen", "word"])
    if v == "pin":
        return str(R.randint(1, 9)) + rs(R.choice([3, 3, 5, 3]), D)
    if v == "pin6":
        return str(R.randint(1, 9)) + rs(5, D)
    if v == "word":
        return (R.choice(WORDS).capitalize() + R.choice(PUNCT) + R.choice(WORDS).capitalize()
                + rs(R.randint(2, 4), D))
    if v == "local":
        return R.choice(LOCAL) + rs(R.randint(2, 4), D) + R.choice("!#$%*?@")
    if v == "random":
        return _random_pw(R.randint(14, 24))
    if v == "phrase":
        return R.choice("-_.").join(R.sample(WORDS, R.choice([4, 4, 5])))
    if v == "phrase_sp":
        return " ".join(R.sample(WORDS, 4))
    if v == "simple":
        return R.choice(WORDS) + rs(R.randint(3, 4), D)
    if v == "hexgen":
        return rs(32, HEX)
    if v == "b64gen":
        return base64.b64encode(R.randbytes(24)).decode()
    if v == "url":
        if R.random() < 0.5:
            return _random_pw(R.randint(16, 22), "-_.~!")
        return R.choice(WORDS).capitalize() + rs(2, D) + R.choice("-_.~") + R.choice(WORDS) + rs(2, D)
    if v == "urlenc":
        raw = R.choice(WORDS).capitalize() + R.choice("@#/:") + rs(R.randint(4, 6), AN) + R.choice("!$@")
        return "".join(c if c in AN + "-_.~" else f"%{ord(c):02X}" for c in raw)
    if v == "backup":
        return rs(4, D) + "-" + rs(4, D)
    if v == "bitlocker":
        return "-".join(f"{R.randint(0, 65535) * 11:06d}" for _ in range(8))
    raise ValueError(v)


def basic_auth(v: str = "") -> str:
    user = R.choice(["admin", "deploy", "ci-runner", "grafana", "svc-reports", "jenkins", "api-client"])
    return base64.b64encode(f"{user}:{password(R.choice(['word', 'random', 'url']))}".encode()).decode()


def bearer_token(v: str = "") -> str:
    return R.choice([lambda: rs(R.choice([32, 40, 48]), AN), lambda: rs(64, HEX),
                     lambda: b64url(R.randbytes(R.choice([24, 32, 48]))),
                     lambda: "tok_" + rs(40, AN), lambda: "at-" + uuid4() + "-" + rs(12, AN)])()


# ---------------------------------------------------------------- private keys

def _pem(label: str, head: str, nlines: int) -> tuple[str, list[str]]:
    body = head + rs(64 * nlines - len(head) + R.randint(8, 40), B64)
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    if len(lines[-1]) % 4:
        lines[-1] = lines[-1][: len(lines[-1]) - len(lines[-1]) % 4 - 4] + rs(2, B64) + "=="
    return label, lines


def _openssh_lines() -> list[str]:
    def s(b: bytes) -> bytes:
        return struct.pack(">I", len(b)) + b
    pub, priv, chk = R.randbytes(32), R.randbytes(32), R.randbytes(4)
    kt = b"ssh-ed25519"
    comment = R.choice([b"deploy@ci-runner", b"build@jenkins-02", b"ops@bastion", b"root@gpu-node-7"])
    sec = chk + chk + s(kt) + s(pub) + s(priv + pub) + s(comment)
    sec += bytes(range(1, 1 + (8 - len(sec) % 8) % 8))
    blob = (b"openssh-key-v1\0" + s(b"none") + s(b"none") + s(b"") + struct.pack(">I", 1)
            + s(s(kt) + s(pub)) + s(sec))
    b = base64.b64encode(blob).decode()
    return [b[i:i + 70] for i in range(0, len(b), 70)]


def private_key(v: str = "") -> tuple[str, str]:
    v = v or R.choice(["openssh", "rsa", "pkcs8", "ec"])
    if v in ("openssh", "openssh_json"):
        label, lines = "OPENSSH PRIVATE KEY", _openssh_lines()
        canary = lines[3]
    elif v in ("rsa", "rsa_json"):
        label, lines = _pem("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA", R.randint(9, 14))
        canary = lines[4]
    elif v == "ec":
        label, lines = _pem("EC PRIVATE KEY", "MHcCAQEEI", 2)
        canary = lines[0][12:60]
    else:  # pkcs8 / pkcs8_json / k8s
        label, lines = _pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", R.randint(9, 13))
        canary = lines[3]
    pem = f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"
    if v.endswith("_json"):
        return pem.replace("\n", "\\n") + "\\n", canary
    if v == "k8s":
        enc = base64.b64encode((pem + "\n").encode()).decode()
        return enc, enc[200:248]
    return pem, canary


# ---------------------------------------------------------------- providers

def gh_style(prefix: str) -> str:
    body = rs(30, AN)
    n, out = zlib.crc32(body.encode()), ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return prefix + body + out.rjust(6, "0")


def github_token(v: str = "") -> str:
    v = v or R.choice(["ghp", "ghp", "ghp", "gho", "ghs", "pat", "ghu", "ghr"])
    if v == "pat":
        return "github_pat_11" + rs(20, U + D) + "_" + rs(59, AN)
    return gh_style(v + "_")


_BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech32(hrp: str, data: bytes) -> str:
    acc, bits, five = 0, 0, []
    for b in data:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            five.append((acc >> bits) & 31)
    if bits:
        five.append((acc << (5 - bits)) & 31)

    def polymod(values: list[int]) -> int:
        gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
        chk = 1
        for val in values:
            top = chk >> 25
            chk = (chk & 0x1FFFFFF) << 5 ^ val
            for i in range(5):
                chk ^= gen[i] if ((top >> i) & 1) else 0
        return chk
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = polymod(exp + five + [0] * 6) ^ 1
    checksum = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_BECH[d] for d in five + checksum)


def jwt(v: str = "") -> str:
    now = 1_700_000_000 + R.randint(0, 40_000_000)
    v = v or R.choice(["user", "user", "service", "supabase", "rs"])
    if v == "supabase":
        header = {"alg": "HS256", "typ": "JWT"}
        payload = {"iss": "supabase", "ref": rs(20, L), "role": "service_role", "iat": now, "exp": now + 315_360_000}
    elif v == "service":
        header = {"alg": "HS256", "typ": "JWT"}
        payload = {"sub": "svc-" + rs(6, L + D), "aud": "internal-api", "scope": "orders:read orders:write",
                   "iat": now, "exp": now + 3600}
    else:
        header = {"alg": "RS256" if v == "rs" else "HS256", "typ": "JWT", "kid": rs(8, HEX)}
        payload = {"sub": str(R.randint(10_000, 99_999_999)), "role": R.choice(["admin", "member", "editor"]),
                   "tenant": rs(6, L), "iat": now, "exp": now + R.choice([900, 3600, 86400])}
    signing = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64url(json.dumps(payload, separators=(",", ":")).encode())
    if header["alg"] == "RS256":
        sig = b64url(R.randbytes(256))
    else:
        sig = b64url(hmac.new(R.randbytes(32), signing.encode(), hashlib.sha256).digest())
    return signing + "." + sig


def mapbox_token(v: str = "") -> str:
    head = b64url(json.dumps({"u": R.choice(["geo-team", "fleetmaps", "tripviz"]), "a": "cl" + rs(23, L + D)},
                             separators=(",", ":")).encode())
    return "sk." + head + "." + rs(22, URLSAFE)


def azure_sas_token(v: str = "") -> tuple[str, str]:
    sig = base64.b64encode(R.randbytes(32)).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    y, m, d = R.randint(2025, 2027), R.randint(1, 12), R.randint(1, 28)
    q = (f"sv=2022-11-02&ss=b&srt=sco&sp=rwdlacupiytfx&se={y}-{m:02d}-{d:02d}T18:00:00Z"
         f"&st={y - 1}-{m:02d}-{d:02d}T10:00:00Z&spr=https&sig={sig}")
    return q, sig


def onepassword_token(v: str = "") -> str:
    doc = {"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
           "iterations": 650000, "salt": b64url(R.randbytes(16))}, "email": rs(13, L + D) + "@1passwordserviceaccounts.com",
           "srpX": rs(64, HEX), "muk": {"alg": "A256GCM", "ext": True, "k": b64url(R.randbytes(32)), "key_ops": ["encrypt", "decrypt"],
           "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + rs(6, U + D) + "-" + rs(6, U + D) + "-" + rs(5, U + D),
           "deviceUuid": rs(26, L + D)}
    return "ops_" + b64url(json.dumps(doc, separators=(",", ":")).encode())


def twitter_bearer(v: str = "") -> str:
    return ("A" * 22 + rs(8, AN) + "AAAAAA" + rs(12, AN) + "%2B" + rs(14, AN) + "%3D" + rs(50, AN))


def teams_webhook(v: str = "") -> str:
    org = R.choice(["northwindtraders", "fabrikamltd", "tailspin-toys", "woodgrovebank"])
    return (f"https://{org}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/"
            f"{rs(32, HEX)}/{uuid4()}/V2{rs(40, URLSAFE)}")


def discord_token(v: str = "") -> str:
    uid = str(R.randint(10**17, 13 * 10**17))
    return b64url(uid.encode()) + "." + rs(6, URLSAFE) + "." + rs(38, URLSAFE)


def sentry_token(v: str = "") -> str:
    if R.random() < 0.5:
        return "sntryu_" + rs(64, HEX)
    meta = {"iat": R.randint(1_700_000_000, 1_740_000_000) + 0.5, "url": "https://sentry.io",
            "region_url": "https://us.sentry.io", "org": R.choice(["tessera-labs", "brightlane", "kolmio"])}
    return "sntrys_" + b64url(json.dumps(meta, separators=(",", ":")).encode()) + "_" + rs(43, URLSAFE)


def grafana_token(v: str = "") -> str:
    if v == "glc":
        return "glc_" + b64url(json.dumps({"o": str(R.randint(100000, 999999)), "n": "stack-" + rs(6, D) + "-hm-read",
                                            "k": rs(24, AN), "m": {"r": "prod-eu-west-2"}}, separators=(",", ":")).encode())
    return "glsa_" + rs(32, AN) + "_" + rs(8, HEX)


def flyio_token(v: str = "") -> str:
    return "fm2_" + rs(140, B64) + "," + "fm2_" + rs(120, B64)


def atlassian_token(v: str = "") -> str:
    return "ATATT3xFfGF0" + rs(174, URLSAFE) + "=" + rs(8, HEXU)


PROVIDERS = {
    "aws_key": lambda v="": ("ASIA" if v == "asia" else "AKIA") + rs(16, U + "234567"),
    "aws_secret": lambda v="": rs(40, B64),
    "gitlab_token": lambda v="": {"": "glpat-", "rt": "glrt-", "dt": "gldt-"}[v] + rs(20, URLSAFE),
    "slack_token": lambda v="": {
        "": lambda: f"xoxb-{rs(1, '123456789')}{rs(10, D)}-{rs(13, D)}-{rs(24, AN)}",
        "user": lambda: f"xoxp-{rs(11, D)}-{rs(11, D)}-{rs(13, D)}-{rs(32, HEX)}",
        "app": lambda: f"xapp-1-A{rs(10, U + D)}-{rs(13, D)}-{rs(64, HEX)}"}[v](),
    "slack_webhook": lambda v="": (f"https://hooks.slack.com/services/T{rs(R.choice([8, 10]), U + D)}"
                                   f"/B{rs(R.choice([8, 10]), U + D)}/{rs(24, AN)}"),
    "stripe_key": lambda v="": {"": lambda: "sk_live_" + rs(R.choice([24, 99]), AN),
                                "rk": lambda: "rk_live_" + rs(99, AN),
                                "wh": lambda: "whsec_" + rs(32, AN)}[v](),
    "openai_key": lambda v="": {"": lambda: "sk-proj-" + rs(74, URLSAFE) + "T3BlbkFJ" + rs(74, URLSAFE),
                                "svc": lambda: "sk-svcacct-" + rs(74, URLSAFE) + "T3BlbkFJ" + rs(74, URLSAFE),
                                "old": lambda: "sk-" + rs(20, AN) + "T3BlbkFJ" + rs(20, AN)}[v](),
    "anthropic_key": lambda v="": ("sk-ant-admin01-" if v == "admin" else "sk-ant-api03-") + rs(93, URLSAFE) + "AA",
    "google_api_key": lambda v="": "AIza" + rs(35, URLSAFE),
    "google_oauth_secret": lambda v="": "GOCSPX-" + rs(28, URLSAFE),
    "google_oauth_token": lambda v="": ("1//0" + rs(R.randint(96, 104), URLSAFE)) if v == "refresh"
    else "ya29." + rs(R.randint(150, 200), URLSAFE),
    "twilio_api_key": lambda v="": ("SK" + rs(32, HEX)) if v != "secret" else rs(32, AN),
    "sendgrid_key": lambda v="": "SG." + rs(22, URLSAFE) + "." + rs(43, URLSAFE),
    "mailgun_key": lambda v="": ("key-" + rs(32, HEX)) if v == "old" else rs(32, HEX) + "-" + rs(8, HEX) + "-" + rs(8, HEX),
    "mailchimp_key": lambda v="": rs(32, HEX) + "-us" + str(R.randint(1, 21)),
    "npm_token": lambda v="": gh_style("npm_"),
    "pypi_token": lambda v="": "pypi-AgEIcHlwaS5vcmc" + rs(R.randint(140, 170), URLSAFE),
    "huggingface_token": lambda v="": "hf_" + rs(34, U + L),
    "digitalocean_token": lambda v="": "dop_v1_" + rs(64, HEX),
    "discord_webhook": lambda v="": f"https://discord.com/api/webhooks/{R.randint(10**17, 13 * 10**17)}/{rs(68, URLSAFE)}",
    "telegram_token": lambda v="": f"{R.randint(1, 9)}{rs(9, D)}:AA{rs(33, URLSAFE)}",
    "shopify_token": lambda v="": ("shpss_" if v == "ss" else "shpat_") + rs(32, HEX),
    "square_token": lambda v="": ("sq0csp-" + rs(43, URLSAFE)) if v == "csp" else "EAAA" + rs(60, URLSAFE),
    "heroku_key": lambda v="": "HRKU-AA" + rs(58, URLSAFE),
    "datadog_key": lambda v="": rs(40 if v == "app" else 32, HEX),
    "new_relic_key": lambda v="": ("NRAK-" + rs(27, U + D)) if v != "license" else rs(36, HEX) + "NRAL",
    "azure_storage_key": lambda v="": base64.b64encode(R.randbytes(64)).decode(),
    "azure_client_secret": lambda v="": rs(3, AN) + R.choice(D) + "Q~" + rs(34, AN + "_~.-"),
    "azure_devops_token": lambda v="": rs(52, L + "234567"),
    "databricks_token": lambda v="": "dapi" + rs(32, HEX) + R.choice(["", "-2", "-3"]),
    "terraform_token": lambda v="": rs(14, AN) + ".atlasv1." + rs(67, AN),
    "vault_token": lambda v="": "hvs.CAESI" + rs(86, URLSAFE),
    "doppler_token": lambda v="": ("dp.st.prd." + rs(40, AN)) if v == "st" else "dp.pt." + rs(43, AN),
    "pulumi_token": lambda v="": "pul-" + rs(40, HEX),
    "nuget_key": lambda v="": "oy2" + rs(43, L + D),
    "rubygems_key": lambda v="": "rubygems_" + rs(48, HEX),
    "cratesio_token": lambda v="": "cio" + rs(32, AN),
    "clojars_token": lambda v="": "CLOJARS_" + rs(60, HEX),
    "dockerhub_token": lambda v="": "dckr_pat_" + rs(27, URLSAFE),
    "jfrog_token": lambda v="": "AKCp8" + rs(68, AN),
    "circleci_token": lambda v="": "CCIPAT_" + rs(22, AN) + "_" + rs(40, HEX),
    "buildkite_token": lambda v="": "bkua_" + rs(40, HEX),
    "netlify_token": lambda v="": "nfp_" + rs(36, AN),
    "render_key": lambda v="": "rnd_" + rs(32, AN),
    "supabase_token": lambda v="": "sbp_" + rs(40, HEX),
    "planetscale_token": lambda v="": ("pscale_pw_" if v == "pw" else "pscale_tkn_") + rs(43, URLSAFE),
    "linear_key": lambda v="": "lin_api_" + rs(40, AN),
    "notion_token": lambda v="": ("secret_" + rs(43, AN)) if v == "old" else "ntn_" + rs(11, D) + rs(35, AN),
    "airtable_token": lambda v="": "pat" + rs(14, AN) + "." + rs(64, HEX),
    "asana_token": lambda v="": f"2/{rs(16, D)}/{rs(16, D)}:{rs(32, HEX)}",
    "clickup_token": lambda v="": f"pk_{R.randint(10**7, 10**8 - 1)}_{rs(32, U + D)}",
    "figma_token": lambda v="": "figd_" + rs(40, URLSAFE),
    "typeform_token": lambda v="": "tfp_" + rs(44, AN) + "_" + rs(14, AN),
    "contentful_token": lambda v="": "CFPAT-" + rs(43, URLSAFE),
    "hubspot_token": lambda v="": f"pat-{R.choice(['na1', 'eu1'])}-{uuid4()}",
    "okta_token": lambda v="": "00" + rs(40, URLSAFE),
    "salesforce_token": lambda v="": "00D" + rs(12, AN) + "!" + "AQ" + rs(94, AN + "._"),
    "zoho_token": lambda v="": "1000." + rs(32, HEX) + "." + rs(32, HEX),
    "cloudflare_token": lambda v="": rs(40, URLSAFE),
    "cloudflare_key": lambda v="": rs(37, HEX),
    "honeycomb_key": lambda v="": "hcaik_01" + rs(56, L + D),
    "dynatrace_token": lambda v="": "dt0c01." + rs(24, U + D) + "." + rs(64, U + D),
    "launchdarkly_key": lambda v="": (v or "sdk") + "-" + uuid4(),
    "langsmith_key": lambda v="": "lsv2_" + (v or "pt") + "_" + rs(32, HEX) + "_" + rs(10, HEX),
    "langfuse_key": lambda v="": "sk-lf-" + uuid4(),
    "groq_key": lambda v="": "gsk_" + rs(52, AN),
    "mistral_key": lambda v="": rs(32, AN),
    "cohere_key": lambda v="": rs(40, AN),
    "perplexity_key": lambda v="": "pplx-" + rs(48, AN),
    "xai_key": lambda v="": "xai-" + rs(80, AN),
    "deepseek_key": lambda v="": "sk-" + rs(32, HEX),
    "openrouter_key": lambda v="": "sk-or-v1-" + rs(64, HEX),
    "replicate_token": lambda v="": "r8_" + rs(37, AN),
    "elevenlabs_key": lambda v="": "sk_" + rs(48, HEX),
    "wandb_key": lambda v="": rs(40, HEX),
    "modal_token": lambda v="": ("ak-" if v == "id" else "as-") + rs(22, AN),
    "pinecone_key": lambda v="": "pcsk_" + rs(5, AN) + "_" + rs(63, AN),
    "resend_key": lambda v="": "re_" + rs(8, AN) + "_" + rs(24, AN),
    "brevo_key": lambda v="": "xkeysib-" + rs(64, HEX) + "-" + rs(16, AN),
    "postman_key": lambda v="": "PMAK-" + rs(24, HEX) + "-" + rs(34, HEX),
    "readme_key": lambda v="": "rdme_" + rs(70, HEX),
    "prefect_key": lambda v="": "pnu_" + rs(36, AN),
    "ngrok_token": lambda v="": R.choice("123") + rs(26, AN) + "_" + rs(21, AN),
    "tailscale_key": lambda v="": f"tskey-{v or 'auth'}-k{rs(10, AN)}CNTRL-{rs(33, AN)}",
    "sonar_token": lambda v="": (v or "squ") + "_" + rs(40, HEX),
    "scalingo_token": lambda v="": "tk-us-" + rs(48, URLSAFE),
    "easypost_key": lambda v="": "EZAK" + rs(54, AN),
    "shippo_token": lambda v="": "shippo_live_" + rs(40, HEX),
    "duffel_token": lambda v="": "duffel_live_" + rs(43, URLSAFE),
    "flutterwave_key": lambda v="": "FLWSECK-" + rs(32, HEX) + "-X",
    "paystack_key": lambda v="": "sk_live_" + rs(40, HEX),
    "razorpay_key": lambda v="": ("rzp_live_" + rs(14, AN)) if v != "secret" else rs(24, AN),
    "mollie_key": lambda v="": "live_" + rs(30, AN),
    "braintree_token": lambda v="": "access_token$production$" + rs(16, L + D) + "$" + rs(32, HEX),
    "woocommerce_key": lambda v="": (v or "ck") + "_" + rs(40, HEX),
    "plaid_token": lambda v="": rs(30, HEX) if v == "secret" else "access-production-" + uuid4(),
    "facebook_token": lambda v="": "EAA" + R.choice("BGIJ") + rs(R.randint(150, 190), AN),
    "fcm_server_key": lambda v="": "AAAA" + rs(7, URLSAFE) + ":APA91b" + rs(134, URLSAFE),
    "dropbox_token": lambda v="": "sl.B" + rs(134, URLSAFE),
    "trello_token": lambda v="": "ATTA" + rs(64, HEX) + rs(8, HEXU),
    "frameio_token": lambda v="": "fio-u-" + rs(64, URLSAFE),
    "age_secret_key": lambda v="": _bech32("age-secret-key-", R.randbytes(32)).upper(),
    "alibaba_key": lambda v="": rs(30, AN) if v == "secret" else "LTAI5t" + rs(18, AN),
    "tencent_key": lambda v="": rs(32, AN) if v == "secret" else "AKID" + rs(32, AN),
    "yandex_key": lambda v="": ("y0_AgAAAAA" + rs(48, URLSAFE)) if v == "oauth" else "AQVN" + rs(36, URLSAFE),
    "openshift_token": lambda v="": "sha256~" + rs(43, URLSAFE),
    "kubeadm_token": lambda v="": rs(6, L + D) + "." + rs(16, L + D),
    "django_secret_key": lambda v="": ("django-insecure-" if v == "insecure" else "")
    + rs(50, L + D + "!@#$%^&*(-_=+)"),
    "bitbucket_token": lambda v="": "ATBB" + rs(24, AN) + rs(8, HEXU),
}
PROVIDERS.update({
    "jwt": jwt, "mapbox_token": mapbox_token, "onepassword_token": onepassword_token,
    "twitter_bearer": twitter_bearer, "teams_webhook": teams_webhook, "discord_token": discord_token,
    "sentry_token": sentry_token, "grafana_token": grafana_token, "flyio_token": flyio_token,
    "atlassian_token": atlassian_token, "github_token": github_token,
})


# ---------------------------------------------------------------- emails

FIRST = ("anna jonas maria li priya kenji fatima olumide sophie lucas ahmet ingrid mikko thao siti david "
         "elena giorgos zsofia petr oksana hyunwoo aisha carlos chloe marco sanne emma tomas yuki "
         "rafael amara nikolai lea mateo noor arjun wei ines bjorn camille dmitri hana kwame laura").split()
LAST = ("kowalska muller garcia wei raman sato zahra adebayo martin silva yilmaz larsen virtanen nguyen "
        "rahma cohen popescu papadopoulos nagy novak kovalenko kim khan mendoza dubois rossi devries "
        "berg nielsen oconnor tanaka haddad ivanova fernandes moreau schmidt jansen lindqvist okafor").split()
FREE = ("gmail.com outlook.com hotmail.com yahoo.com icloud.com proton.me gmx.de web.de t-online.de "
        "orange.fr free.fr libero.it mail.ru yandex.ru qq.com 163.com naver.com yahoo.co.jp uol.com.br "
        "wp.pl seznam.cz o2.pl abv.bg rediffmail.com hotmail.fr gmx.at bluewin.ch telia.com").split()
CORP = ("brightlane.io kappa-analytics.com tessera-labs.dev hollowpine.co.uk fjordline-shipping.no "
        "sakura-systems.co.jp andes-pagos.cl grupo-tierra.mx vitrine-paris.fr zeta-saude.com.br kolmio.fi "
        "polarbyte.se nordwind-logistik.de cantiere-verde.it blauwe-haven.nl mazowsze-soft.pl "
        "istanbul-kargo.com.tr seoul-fintech.kr mumbai-retail.in").split()


def email(v: str = "") -> str:
    f, last = R.choice(FIRST), R.choice(LAST)
    local = R.choice([f"{f}.{last}", f"{f[0]}.{last}", f"{f}{last}{R.randint(1, 99)}", f"{f}_{last}",
                      f"{last}.{f}", f"{f}{R.randint(1970, 2005)}", f"{f}.{last}+{R.choice(['github', 'shop', 'news'])}"])
    dom = R.choice(CORP if v == "corp" else FREE if v == "free" else CORP + FREE)
    return local + "@" + dom


# ---------------------------------------------------------------- phones
# pattern mini-language: X any digit, N 2-9, {a|b} one of, other characters literal

PHONES = {
    "us": ["({201|212|213|305|312|404|415|512|617|646|702|718|206|303}) {2|3|4|6|7|8}{0|2|4|6|8}X-XXXX",
           "+1 {415|646|312|206|512|617}-{2|3|4|6|7|8}{0|2|3|7|9}X-XXXX", "{212|312|415}.{2|4|6|8}{2|3|5}X.XXXX",
           "+1{213|404|617|303}{2|3|4|6|7|8}{0|4|6}XXXXX"],
    "ca": ["({416|647|604|514|403|613}) {2|3|4|6|7|8}{0|2|5}X-XXXX", "+1 {416|604|514}-{2|4|6|8}{3|4|6}X-XXXX"],
    "uk": ["07{4|5|8|9}XX XXXXXX", "+44 7{4|5|8|9}XX XXXXXX", "+44 (0)20 {3|8}XXX XXXX", "0161 {4|8}XX XXXX"],
    "de": ["+49 15{1|2|7} XXXXXXXX", "017{0|1|2|3|5|6|7|8|9} XXXXXXX", "+49 (0)30 {2|3|4|6|8}XXXXXXX",
           "089 {1|2|3|5}XXX XXXX", "+49 17{1|6|9} {2|3|4|5|6|7}XXXXXX"],
    "fr": ["06 XX XX XX XX", "+33 6 XX XX XX XX", "+33 (0)1 {4|5}X XX XX XX", "07 {5|6|8}X XX XX XX",
           "+33 7 {5|6|8}X XX XX XX"],
    "es": ["+34 6XX XXX XXX", "6XX XX XX XX", "+34 91 XXX XX XX", "93 XXX XX XX"],
    "it": ["+39 3{2|3|4|5|9}X XXX XXXX", "3{3|4|8}X XXXXXXX", "+39 06 XXXX XXXX", "02 XXXX XXXX"],
    "nl": ["+31 6 {1|2|3|4|5}XXX XXXX", "06-{1|2|3|4|5}XXXXXXX", "+31 (0)20 {5|6|7}XX XXXX", "010 {2|4}XX XXXX"],
    "br": ["+55 11 9{6|7|8|9}XXX-XXXX", "(21) 9{6|7|8|9}XXX-XXXX", "+55 (31) 9{8|9}XXX-XXXX",
           "+55119{6|7|8|9}XXXXXXX"],
    "mx": ["+52 55 {1|2|4|5}XXX XXXX", "+52 81 {8|1}XXX XXXX", "55 {2|5|6}XXX XXXX"],
    "in": ["+91 {9|8|7}XXXX XXXXX", "+91-{9|8|7|6}XXXXXXXXX", "0{9|8}XXXXXXXXX"],
    "jp": ["0{9|8|7}0-XXXX-XXXX", "+81 {90|80}-XXXX-XXXX", "03-{3|5|6}XXX-XXXX", "+81 6-{6|4}XXX-XXXX"],
    "cn": ["+86 1{3|5|8}X XXXX XXXX", "1{3|5|8|9}XXXXXXXXX", "+86 10 {5|6|8}XXX XXXX"],
    "kr": ["010-XXXX-XXXX", "+82 10-XXXX-XXXX", "+82 2-{3|5|7}XXX-XXXX", "02-{3|5|7}XX-XXXX"],
    "au": ["04XX XXX XXX", "+61 4XX XXX XXX", "(02) {8|9}XXX XXXX", "+61 3 {8|9}XXX XXXX"],
    "ru": ["+7 (9{0|1|2|5|6|8}X) XXX-XX-XX", "8 9{1|2|6}X XXX XX XX", "+7 495 {2|6|9}XX-XX-XX"],
    "pl": ["+48 {5|6|7|8}XX XXX XXX", "{5|6|7}XX-XXX-XXX", "+48 22 {5|6|8}XX XX XX"],
    "tr": ["+90 5{3|4|5}X XXX XX XX", "0 (5{3|4|5}X) XXX XX XX", "0212 {2|3|5}XX XX XX"],
    "se": ["070-XXX XX XX", "+46 7{0|2|3|6} XXX XX XX", "08-{5|6|7}XX XXX XX"],
    "za": ["+27 {82|83|72|71|84} XXX XXXX", "0{82|83|72|84} XXX XXXX"],
    "ng": ["+234 {803|806|810|813|703|802} XXX XXXX", "0{803|806|813} XXX XXXX"],
    "ar": ["+54 9 11 {2|3|4|5|6}XXX-XXXX", "011 {4|5}XXX-XXXX"],
    "pt": ["+351 9{1|2|3|6}X XXX XXX", "9{1|2|3|6}X XXX XXX", "+351 21 XXX XXXX"],
    "id": ["+62 8{12|13|21|52|57}-XXXX-XXXX", "08{12|13|21|52}-XXXX-XXXX"],
    "vn": ["+84 9{0|1|3|4|8} XXX XX XX", "09{0|1|3|8} XXX XXXX"],
    "eg": ["+20 1{0|1|2|5} XXXX XXXX", "01{0|1|2}XXXXXXXX"],
    "sa": ["+966 5{0|3|4|5|6} XXX XXXX", "05{0|5} XXX XXXX"],
    "il": ["+972 5{0|2|3|4|8}-XXX-XXXX", "05{0|2|4}-XXX-XXXX"],
    "ch": ["+41 7{6|7|8|9} XXX XX XX", "07{6|8|9} XXX XX XX", "+41 44 {2|3|4}XX XX XX"],
    "ie": ["+353 8{3|5|6|7|9} XXX XXXX", "08{5|6|7} XXX XXXX"],
    "ua": ["+380 {50|63|66|67|68|73|93|95|96|97|98|99} XXX XX XX", "0{67|50|93} XXX XX XX"],
    "gr": ["+30 69{4|7|8|9} XXX XXXX", "69{4|7|8}XXXXXXX", "+30 210 {3|6|7}XX XXXX"],
    "cz": ["+420 {6|7}{0|2|3|7}X XXX XXX", "{6|7}{0|2|3|7}X XXX XXX"],
    "ro": ["+40 7{2|3|4|5|6}X XXX XXX", "07{2|4|5}X XXX XXX"],
    "hu": ["+36 {20|30|70} XXX XXXX", "06 {20|30|70} XXX XXXX"],
    "th": ["+66 {8|9|6}X XXX XXXX", "0{8|9}X-XXX-XXXX"],
    "ph": ["+63 9{17|18|27|45|55} XXX XXXX", "09{17|18|27} XXX XXXX"],
    "dk": ["+45 {2|3|4|5|6|7|8|9}X XX XX XX", "{2|3|4|5|6}X XX XX XX"],
    "no": ["+47 {4|9}XX XX XXX", "{4|9}XX XX XXX"],
    "fi": ["+358 {40|41|44|45|50} XXX XXXX", "0{40|44|50} XXX XXXX"],
    "be": ["+32 4{7|8|9}X XX XX XX", "04{7|8|9}X XX XX XX", "+32 2 {2|5|6}XX XX XX"],
    "at": ["+43 6{64|60|76|99} XXXXXXX", "06{64|76} XXX XXXX"],
    "sg": ["+65 {8|9}XXX XXXX"],
    "hk": ["+852 {5|6|9}XXX XXXX"],
    "ae": ["+971 5{0|2|5|6} XXX XXXX", "05{0|5} XXX XXXX"],
    "ke": ["+254 7{0|1|2|9}X XXX XXX", "07{0|1|2}X XXX XXX"],
    "cl": ["+56 9 {5|6|7|8|9}XXX XXXX"],
    "co": ["+57 3{0|1|2|5}X XXX XXXX"],
}


def _render(pattern: str) -> str:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "{":
            j = pattern.index("}", i)
            out.append(R.choice(pattern[i + 1:j].split("|")))
            i = j + 1
            continue
        out.append(R.choice(D) if c == "X" else R.choice("23456789") if c == "N" else c)
        i += 1
    return "".join(out)


def phone(v: str = "") -> str:
    if v.startswith("e164"):
        cc = v[5:] or R.choice(["us", "uk", "de", "fr", "br", "in", "mx", "es", "it", "au", "ng", "za", "ph"])
        pat = next(p for p in PHONES[cc] if p.startswith("+"))
        return re.sub(r"[ ()\-.]", "", _render(pat).replace("(0)", ""))
    cc = v or R.choice(list(PHONES))
    return _render(R.choice(PHONES[cc]))


# ---------------------------------------------------------------- cards, IBANs

def card_number(v: str = "") -> str:
    brand = R.choice(["visa", "visa", "visa", "mc", "mc", "mc2", "amex", "discover", "jcb", "unionpay"])
    payload = {"visa": lambda: "4" + rs(14, D), "mc": lambda: "5" + R.choice("12345") + rs(13, D),
               "mc2": lambda: str(R.randint(2221, 2720)) + rs(11, D), "amex": lambda: "3" + R.choice("47") + rs(12, D),
               "discover": lambda: "6011" + rs(11, D), "jcb": lambda: str(R.randint(3528, 3589)) + rs(11, D),
               "unionpay": lambda: "62" + rs(13, D)}[brand]()
    num = payload + luhn_digit(payload)
    fmt = v or R.choice(["plain", "spaced", "spaced", "dashed"])
    if fmt == "plain":
        return num
    sep = " " if fmt == "spaced" else "-"
    if brand == "amex":
        return sep.join([num[:4], num[4:10], num[10:]])
    return group(num, 4, sep)


def _es_dc(digits: str) -> str:
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
    r = 11 - sum(int(c) * x for c, x in zip(digits, w, strict=False)) % 11
    return str({11: 0, 10: 1}.get(r, r))


_CF_ODD = dict(zip(D + U, [1, 0, 5, 7, 9, 13, 15, 17, 19, 21] + [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23], strict=False))
_CF_EVEN = dict(zip(D + U, list(range(10)) + list(range(26)), strict=False))


def _cf_char(s: str) -> str:
    total = sum((_CF_ODD if i % 2 == 0 else _CF_EVEN)[c] for i, c in enumerate(s))
    return U[total % 26]


def _bban(cc: str) -> str:
    if cc == "DE":
        return R.choice(["10070000", "37040044", "50010517", "20041155", "70150000", "12030000"]) + rs(10, D)
    if cc == "GB":
        return R.choice(["NWBK", "BARC", "LOYD", "HBUK", "MIDL"]) + rs(6, D) + rs(8, D)
    if cc == "FR":
        bank, gui, acc = R.choice(["30004", "30003", "20041", "10278", "30002"]), rs(5, D), rs(11, D)
        key = 97 - (89 * int(bank) + 15 * int(gui) + 3 * int(acc)) % 97
        return bank + gui + acc + f"{key:02d}"
    if cc == "ES":
        ent, off, acc = R.choice(["2100", "0049", "0182", "2085", "0081"]), rs(4, D), rs(10, D)
        return ent + off + _es_dc("00" + ent + off) + _es_dc(acc) + acc
    if cc == "NL":
        while True:
            acc = R.choice("123456789") + rs(9, D)
            if sum(int(c) * (10 - i) for i, c in enumerate(acc)) % 11 == 0:
                return R.choice(["ABNA", "INGB", "RABO", "TRIO", "SNSB"]) + acc
    if cc == "BE":
        first = rs(10, D)
        chk = int(first) % 97 or 97
        return first + f"{chk:02d}"
    if cc == "IT":
        body = R.choice(["03069", "02008", "05034", "03062"]) + rs(5, D) + rs(12, D)
        return _cf_char(body) + body
    if cc == "CH":
        return R.choice(["00230", "00762", "00700", "08390"]) + rs(12, D)
    if cc == "AT":
        return R.choice(["12000", "20111", "32000", "14000"]) + rs(11, D)
    if cc == "PL":
        b7 = R.choice(["1020", "1090", "1140", "1050"]) + rs(3, D)
        b8 = b7 + str((10 - sum(int(c) * w for c, w in zip(b7, [3, 9, 7, 1, 3, 9, 7], strict=False)) % 10) % 10)
        return b8 + rs(16, D)
    if cc == "IE":
        return R.choice(["AIBK", "BOFI"]) + rs(6, D) + rs(8, D)
    if cc == "PT":
        b19 = R.choice(["0035", "0033", "0007", "0010"]) + rs(4, D) + rs(11, D)
        return b19 + f"{98 - (int(b19) * 100) % 97:02d}"
    if cc == "SE":
        return R.choice(["500", "800", "600"]) + rs(17, D)
    raise ValueError(cc)


def iban(v: str = "") -> str:
    cc, _, fmt = (v or "").partition("_")
    cc = cc or R.choice(["DE", "DE", "GB", "FR", "ES", "NL", "BE", "IT", "CH", "AT", "PL", "IE", "PT", "SE"])
    bban = _bban(cc)
    s = cc + mod97_iban(cc, bban) + bban
    fmt = fmt or R.choice(["s", "c", "s"])
    return group(s) if fmt == "s" else s


# ---------------------------------------------------------------- national identifiers

def ssn(v: str = "") -> str:
    while True:
        a = R.randint(1, 899)
        if a != 666:
            break
    g, s = R.randint(1, 99), R.randint(1, 9999)
    sep = "" if v == "plain" else " " if v == "sp" else "-"
    return f"{a:03d}{sep}{g:02d}{sep}{s:04d}"


def uk_nino(v: str = "") -> str:
    while True:
        pre = R.choice("ABCEGHJKLMNOPRSTWXYZ") + R.choice("ABCEGHJKLMNPRSTWXYZ")
        if pre not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}:
            break
    d = rs(6, D)
    suf = R.choice("ABCD")
    return f"{pre} {d[:2]} {d[2:4]} {d[4:]} {suf}" if v == "sp" else f"{pre}{d}{suf}"


def ca_sin(v: str = "") -> str:
    p = R.choice("1234567") + rs(7, D)
    n = p + luhn_digit(p)
    return f"{n[:3]}{'-' if v == 'dash' else ' '}{n[3:6]}{'-' if v == 'dash' else ' '}{n[6:]}" if v != "plain" else n


def fr_nir(v: str = "") -> str:
    y, m, _ = dob()
    dept = R.choice([f"{x:02d}" for x in list(range(1, 20)) + list(range(21, 96))])
    body = f"{R.choice('12')}{y % 100:02d}{m:02d}{dept}{R.randint(1, 999):03d}{R.randint(1, 999):03d}"
    key = 97 - int(body) % 97
    if v == "plain":
        return body + f"{key:02d}"
    return f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key:02d}"


def de_tax_id(v: str = "") -> str:
    while True:
        dup = R.choice(D)
        others = R.sample([c for c in D if c != dup], 8)
        digits = [dup, dup] + others
        R.shuffle(digits)
        if digits[0] != "0":
            break
    product = 10
    for c in digits:
        s = (int(c) + product) % 10 or 10
        product = (s * 2) % 11
    n = "".join(digits) + str((11 - product) % 10)
    return f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}" if v == "sp" else n


def aadhaar(v: str = "") -> str:
    p = R.choice("23456789") + rs(10, D)
    n = p + verhoeff_digit(p)
    return n if v == "plain" else group(n, 4, "-" if v == "dash" else " ")


def es_dni(v: str = "") -> str:
    n = R.randint(10_000_000, 79_999_999)
    letter = "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23]
    return f"{n}-{letter}" if v == "dash" else f"{n}{letter}"


def es_nie(v: str = "") -> str:
    p = R.choice("XYZ")
    n = rs(7, D)
    letter = "TRWAGMYFPDXBNJZSQVHLCKE"[int(str("XYZ".index(p)) + n) % 23]
    return f"{p}-{n}-{letter}" if v == "dash" else f"{p}{n}{letter}"


def it_codice_fiscale(v: str = "") -> str:
    sur = R.choice(["RSS", "BNC", "VRD", "FRR", "CLM", "RCC", "MRN", "GLL", "CST", "LNG"])
    name = R.choice(["MRA", "LRA", "GPP", "GLI", "FNC", "SFN", "CHR", "LCU", "NDR", "VNT"])
    y, m, d = dob()
    day = d + (40 if R.random() < 0.5 else 0)
    body = f"{sur}{name}{y % 100:02d}{'ABCDEHLMPRST'[m - 1]}{day:02d}" + R.choice(["H501", "F205", "F839", "L219", "G273", "A944", "D612"])
    return body + _cf_char(body)


def nl_bsn(v: str = "") -> str:
    while True:
        p = R.choice("123456789") + rs(7, D)
        last = sum(int(c) * (9 - i) for i, c in enumerate(p)) % 11
        if last < 10:
            n = p + str(last)
            return f"{n[:4]}.{n[4:6]}.{n[6:]}" if v == "dot" else n


def br_cpf(v: str = "") -> str:
    while True:
        d = [int(c) for c in rs(9, D)]
        if len(set(d)) > 1:
            break
    for k in (10, 11):
        s = sum(x * w for x, w in zip(d, range(k, 1, -1), strict=False))
        d.append((s * 10 % 11) % 10)
    n = "".join(map(str, d))
    return n if v == "plain" else f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}"


def pl_pesel(v: str = "") -> str:
    y, m, d = dob(1955, 2006)
    mm = m + (20 if y >= 2000 else 0)
    p = f"{y % 100:02d}{mm:02d}{d:02d}{rs(4, D)}"
    s = sum(int(c) * w for c, w in zip(p, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3], strict=False))
    return p + str((10 - s % 10) % 10)


def se_personnummer(v: str = "") -> str:
    y, m, d = dob(1950, 2004)
    p = f"{y % 100:02d}{m:02d}{d:02d}{rs(3, D)}"
    n = p + luhn_digit(p)
    if v == "long":
        return f"{y // 100}{n[:6]}-{n[6:]}"
    return f"{n[:6]}-{n[6:]}"


def fi_hetu(v: str = "") -> str:
    y, m, d = dob(1950, 2006)
    ind = R.randint(2, 899)
    body = f"{d:02d}{m:02d}{y % 100:02d}"
    chk = "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(f"{body}{ind:03d}") % 31]
    return f"{body}{'-' if y < 2000 else 'A'}{ind:03d}{chk}"


def dk_cpr(v: str = "") -> str:
    while True:
        y, m, d = dob(1960, 1999)
        p = f"{d:02d}{m:02d}{y % 100:02d}{R.choice('0123')}{rs(2, D)}"
        r = sum(int(c) * w for c, w in zip(p, [4, 3, 2, 7, 6, 5, 4, 3, 2], strict=False)) % 11
        c = (11 - r) % 11
        if c < 10:
            n = p + str(c)
            return f"{n[:6]}-{n[6:]}" if v != "plain" else n


def be_nrn(v: str = "") -> str:
    y, m, d = dob(1950, 1999)
    p = f"{y % 100:02d}{m:02d}{d:02d}{R.randint(1, 997):03d}"
    c = 97 - int(p) % 97
    n = p + f"{c:02d}"
    return n if v == "plain" else f"{n[:2]}.{n[2:4]}.{n[4:6]}-{n[6:9]}.{n[9:]}"


def pt_nif(v: str = "") -> str:
    p = R.choice("123") + rs(7, D)
    c = 11 - sum(int(x) * (9 - i) for i, x in enumerate(p)) % 11
    return p + str(0 if c >= 10 else c)


def cl_rut(v: str = "") -> str:
    body = R.randint(5_000_000, 25_999_999)
    s = sum(int(c) * w for c, w in zip(reversed(str(body)), [2, 3, 4, 5, 6, 7] * 2, strict=False))
    r = 11 - s % 11
    dv = "0" if r == 11 else "K" if r == 10 else str(r)
    return f"{body:,}".replace(",", ".") + "-" + dv if v != "plain" else f"{body}-{dv}"


_CURP_AL = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def mx_curp(v: str = "") -> str:
    y, m, d = dob(1960, 1999)
    head = R.choice(["GARC", "GORL", "HEMA", "LOPJ", "MARA", "PEGL", "ROSE", "SAVM", "TOLE", "RUIF"])
    body = (f"{head}{y % 100:02d}{m:02d}{d:02d}{R.choice('HM')}"
            f"{R.choice(['DF', 'JC', 'NL', 'PL', 'GT', 'MC', 'VZ', 'YN', 'QT', 'SL'])}"
            f"{rs(3, 'BCDFGHJKLMNPRSTVXZ')}{R.choice(D)}")
    s = sum(_CURP_AL.index(c) * (18 - i) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


def no_fnr(v: str = "") -> str:
    while True:
        y, m, d = dob(1950, 1999)
        p = f"{d:02d}{m:02d}{y % 100:02d}{R.randint(0, 499):03d}"
        k1 = 11 - sum(int(c) * w for c, w in zip(p, [3, 7, 6, 1, 8, 9, 4, 5, 2], strict=False)) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        p += str(k1)
        k2 = 11 - sum(int(c) * w for c, w in zip(p, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=False)) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 != 10:
            return p + str(k2)


def ch_ahv(v: str = "") -> str:
    p = "756" + rs(9, D)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(p))
    n = p + str((10 - s % 10) % 10)
    return n if v == "plain" else f"{n[:3]}.{n[3:7]}.{n[7:11]}.{n[11:]}"


def au_tfn(v: str = "") -> str:
    while True:
        p = R.choice("123456789") + rs(7, D)
        s = sum(int(c) * w for c, w in zip(p, [1, 4, 3, 7, 5, 8, 6, 9], strict=False))
        last = s % 11
        if last < 10:
            n = p + str(last)
            return n if v == "plain" else f"{n[:3]} {n[3:6]} {n[6:]}"


def za_id(v: str = "") -> str:
    y, m, d = dob(1955, 2003)
    p = f"{y % 100:02d}{m:02d}{d:02d}{R.randint(0, 9999):04d}{R.choice('0001')}8"
    return p + luhn_digit(p)


def ro_cnp(v: str = "") -> str:
    y, m, d = dob(1950, 2004)
    s = ("1" if R.random() < 0.5 else "2") if y < 2000 else R.choice("56")
    jj = R.choice([f"{x:02d}" for x in range(1, 41)] + ["51", "52"])
    p = f"{s}{y % 100:02d}{m:02d}{d:02d}{jj}{R.randint(1, 999):03d}"
    r = sum(int(c) * int(w) for c, w in zip(p, "279146358279", strict=False)) % 11
    return p + ("1" if r == 10 else str(r))


def cn_ric(v: str = "") -> str:
    y, m, d = dob(1985, 2002)
    p = R.choice(["110101", "310104", "440305", "330106", "510107", "420106", "320102"]) + f"{y}{m:02d}{d:02d}" + rs(3, D)
    s = sum(int(c) * w for c, w in zip(p, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2], strict=False))
    return p + "10X98765432"[s % 11]


def in_pan(v: str = "") -> str:
    return rs(3, U) + "P" + R.choice(U) + rs(4, D) + R.choice(U)


def kr_rrn(v: str = "") -> str:
    y, m, d = dob(1955, 1999)
    p = f"{y % 100:02d}{m:02d}{d:02d}{R.choice('12')}{rs(5, D)}"
    s = sum(int(c) * w for c, w in zip(p, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5], strict=False))
    n = p + str((11 - s % 11) % 10)
    return f"{n[:6]}-{n[6:]}"


def jp_my_number(v: str = "") -> str:
    p = rs(11, D)
    s = sum(int(c) * (n + 1 if n <= 6 else n - 5) for n, c in enumerate(reversed(p), start=1))
    r = s % 11
    n = p + ("0" if r <= 1 else str(11 - r))
    return n if v == "plain" else f"{n[:4]} {n[4:8]} {n[8:]}"


def sg_nric(v: str = "") -> str:
    pre = R.choice("SSTFG")
    yy = {"S": R.randint(60, 99), "T": R.randint(0, 23)}.get(pre, R.randint(0, 99))
    dg = f"{yy:02d}" + rs(5, D)
    s = sum(int(c) * w for c, w in zip(dg, [2, 7, 6, 5, 4, 3, 2], strict=False)) + (4 if pre in "TG" else 0)
    table = "JZIHGFEDCBA" if pre in "ST" else "XWUTRQPNMLK"
    return pre + dg + table[s % 11]


def ie_ppsn(v: str = "") -> str:
    dg = rs(7, D)
    s = sum(int(c) * w for c, w in zip(dg, range(8, 1, -1), strict=False))
    second = ""
    if R.random() < 0.5:
        second = "A"
        s += 9 * 1
    return dg + "WABCDEFGHIJKLMNOPQRSTUV"[s % 23] + second


def tr_tckn(v: str = "") -> str:
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d.append(d10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


def il_tz(v: str = "") -> str:
    p = rs(8, D)
    return p + luhn_digit(p)


def ar_cuit(v: str = "") -> str:
    while True:
        p = R.choice(["20", "27", "23"]) + str(R.randint(10_000_000, 45_999_999))
        c = 11 - sum(int(x) * w for x, w in zip(p, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=False)) % 11
        if c != 10:
            c = 0 if c == 11 else c
            return f"{p[:2]}-{p[2:]}-{c}" if v != "plain" else p + str(c)


def ee_ik(v: str = "") -> str:
    y, m, d = dob(1950, 2004)
    g = (R.choice("34") if y < 2000 else R.choice("56"))
    p = f"{g}{y % 100:02d}{m:02d}{d:02d}{R.randint(1, 999):03d}"
    r = sum(int(c) * w for c, w in zip(p, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1], strict=False)) % 11
    if r == 10:
        r = sum(int(c) * w for c, w in zip(p, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3], strict=False)) % 11
        r = 0 if r == 10 else r
    return p + str(r)


def hk_hkid(v: str = "") -> str:
    letter, dg = R.choice(U), rs(6, D)
    s = 36 * 9 + (U.index(letter) + 10) * 8 + sum(int(c) * w for c, w in zip(dg, range(7, 1, -1), strict=False))
    c = (11 - s % 11) % 11
    return f"{letter}{dg}({'A' if c == 10 else c})"


GEN = dict(PROVIDERS)
GEN.update({
    "password": password, "basic_auth": basic_auth, "bearer_token": bearer_token, "private_key": private_key,
    "url_credentials": lambda v="": password(v or R.choice(["url", "url", "url", "urlenc"])),
    "azure_sas_token": azure_sas_token,
    "email": email, "phone": phone, "card_number": card_number, "iban": iban, "ssn": ssn, "uk_nino": uk_nino,
    "ca_sin": ca_sin, "fr_nir": fr_nir, "de_tax_id": de_tax_id, "aadhaar": aadhaar, "es_dni": es_dni,
    "es_nie": es_nie, "it_codice_fiscale": it_codice_fiscale, "nl_bsn": nl_bsn, "br_cpf": br_cpf,
    "pl_pesel": pl_pesel, "se_personnummer": se_personnummer, "fi_hetu": fi_hetu, "dk_cpr": dk_cpr,
    "be_nrn": be_nrn, "pt_nif": pt_nif, "cl_rut": cl_rut, "mx_curp": mx_curp, "no_fnr": no_fnr,
    "ch_ahv": ch_ahv, "au_tfn": au_tfn, "za_id": za_id, "ro_cnp": ro_cnp, "cn_ric": cn_ric, "in_pan": in_pan,
    "kr_rrn": kr_rrn, "jp_my_number": jp_my_number, "sg_nric": sg_nric, "ie_ppsn": ie_ppsn,
    "tr_tckn": tr_tckn, "il_tz": il_tz, "ar_cuit": ar_cuit, "ee_ik": ee_ik, "hk_hkid": hk_hkid,
})


# ---------------------------------------------------------------- non-secret fillers

def _isbn13() -> str:
    p = "978" + rs(9, D)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(p))
    n = p + str((10 - s % 10) % 10)
    return f"{n[:3]}-{n[3]}-{n[4:7]}-{n[7:12]}-{n[12]}"


def _not_luhn16() -> str:
    p = R.choice("3456789") + rs(14, D)
    good = luhn_digit(p)
    return group(p + str((int(good) + R.randint(1, 9)) % 10))


def _cert(label: str = "CERTIFICATE") -> str:
    head = {"CERTIFICATE": "MIIDdzCCAl+gAwIBAgIU", "PUBLIC KEY": "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"}[label]
    n = 6 if label == "PUBLIC KEY" else 12
    body = head + rs(64 * n - len(head) + 24, B64)
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + "==" + f"\n-----END {label}-----"


def _ts() -> str:
    return (f"{R.randint(2023, 2025)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{R.randint(0, 23):02d}:"
            f"{R.randint(0, 59):02d}:{R.randint(0, 59):02d}.{R.randint(0, 999):03d}Z")


FILL = {
    "uuid": uuid4,
    "sha": lambda: rs(40, HEX),
    "sha7": lambda: rs(7, HEX),
    "sha256": lambda: rs(64, HEX),
    "hex32": lambda: rs(32, HEX),
    "hex16": lambda: rs(16, HEX),
    "hex12": lambda: rs(12, HEX),
    "b64_43": lambda: base64.b64encode(R.randbytes(32)).decode()[:43],
    "b64_88": lambda: base64.b64encode(R.randbytes(64)).decode(),
    "edpub": lambda: base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + R.randbytes(32)).decode(),
    "rsapub": lambda: "AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + rs(300, B64),
    "cert": _cert,
    "pubkey": lambda: _cert("PUBLIC KEY"),
    "date": lambda: f"{R.randint(2023, 2025)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}",
    "ts": _ts,
    "epoch": lambda: str(R.randint(1_690_000_000, 1_760_000_000)),
    "ver": lambda: f"{R.randint(0, 9)}.{R.randint(0, 30)}.{R.randint(0, 20)}",
    "n2": lambda: str(R.randint(10, 99)),
    "n3": lambda: str(R.randint(100, 999)),
    "n4": lambda: str(R.randint(1000, 9999)),
    "n5": lambda: str(R.randint(10000, 99999)),
    "ip": lambda: f"10.{R.randint(0, 40)}.{R.randint(0, 255)}.{R.randint(2, 250)}",
    "isbn": _isbn13,
    "ups": lambda: "1Z" + rs(6, U + D) + rs(2, D) + rs(8, D),
    "order": lambda: f"{R.choice(['ORD', 'SO', 'PO', 'INV'])}-{R.randint(2023, 2025)}-{rs(6, D)}",
    "css": lambda: f"css-{rs(7, L + D)} sc-{rs(6, U + L)} {rs(6, U + L)}",
    "pod": lambda: f"{R.choice(['api', 'worker', 'web', 'ingest'])}-{rs(9, L + D)}-{rs(5, L + D)}",
    "nix": lambda: rs(32, "0123456789abcdfghijklmnpqrsvwxyz"),
    "cid": lambda: "bafybei" + rs(52, "abcdefghijklmnopqrstuvwxyz234567"),
    "ytid": lambda: rs(11, URLSAFE),
    "notluhn": _not_luhn16,
    "price": lambda: f"{R.randint(3, 2400)}.{R.choice(['00', '49', '90', '99'])}",
    "jira": lambda: f"{R.choice(['PLAT', 'INFRA', 'WEB', 'DATA', 'SEC', 'OPS'])}-{R.randint(100, 9999)}",
    "sid": lambda: rs(20, L + D),
    "ga": lambda: "G-" + rs(10, U + D),
    "agepub": lambda: _bech32("age", R.randbytes(32)),
    "b64long": lambda: base64.b64encode(R.randbytes(R.randint(60, 120))).decode(),
}


# ================================================================ positive templates
# (language, template). Credentials first: the bulk of real traffic.

POS: list[tuple[str, str]] = []


def P(lang: str, text: str) -> None:
    POS.append((lang, text))


# ---- passwords said in chat, many languages
P("en", "user: can you log into the staging box? ssh deploy@⟦~ip⟧, pass is ⟦password⟧")
P("en", "The guest Wi-Fi password is \"⟦password|phrase_sp⟧\" - please don't paste it in #general again.")
P("en", "my db password is ⟦password⟧ btw, the migration keeps failing with 'auth failed'")
P("en", "use hunter-style creds for the sandbox: admin / ⟦password⟧")
P("en", "ok new root pw: ⟦password|random⟧ (rotated after Friday's incident)")
P("en", "The PIN for the shared corporate card is ⟦password|pin⟧; keep it in the vault, not in Slack.")
P("en", "jenkins login -> user `ci-bot`, password `⟦password⟧`")
P("en", "When keytool asks for the keystore passphrase, enter ⟦password|phrase⟧")
P("en", "fyi the router admin page at 192.168.1.1 still takes ⟦password|simple⟧ as the password lol")
P("en", "Your temporary password is ⟦password|random⟧. You will be asked to change it at first sign-in.")
P("en", "Hey, I reset the grafana admin account. creds: admin:⟦password|url⟧ - change it after you log in")
P("en", "the zip is encrypted, password: ⟦password⟧")
P("en", "Passcode for the Zoom bridge tomorrow: ⟦password|pin6⟧")
P("en", "door code for the server room is ⟦password|pin⟧# (changes monthly)")
P("en", "Backup codes for the shared 2FA account: ⟦password|backup⟧ and ⟦password|backup⟧. Each works once.")
P("en", "BitLocker recovery key for LAPTOP-0231: ⟦password|bitlocker⟧")
P("en", "Assistant: I still can't reach the DB. Could you confirm the password? User: try ⟦password⟧, if that fails it's ⟦password⟧")
P("en", "Support ticket #⟦~n5⟧: customer says they can't log in and sent me their password (⟦password⟧) in plain text. I told them to reset it.")
P("en", "note to self: VPN = ops-vpn.corp.lan, user jsmith-adm, passphrase ⟦password|phrase⟧")
P("de", "Das Passwort für den Testnutzer lautet ⟦password⟧, bitte nach dem ersten Login ändern.")
P("de", "Kennwort vom NAS: ⟦password⟧ (Benutzer ist admin)")
P("de", "Die PIN fürs Diensthandy ist ⟦password|pin⟧.")
P("de", "Zugangsdaten für das Kundenportal: Benutzername kunde-4711, Passwort ⟦password|local⟧")
P("fr", "Salut, le mot de passe du compte de démo c'est ⟦password⟧, tu peux tester ?")
P("fr", "Identifiant : support-fr / mot de passe : ⟦password⟧")
P("fr", "Code PIN de la carte SIM de test : ⟦password|pin⟧")
P("fr", "Le mdp du wifi du bureau a changé, c'est maintenant ⟦password|phrase⟧")
P("es", "La contraseña del servidor de pruebas es ⟦password⟧, no la compartas con nadie.")
P("es", "usuario: admin, clave: ⟦password⟧ (la cambié ayer)")
P("es", "Te paso el PIN de la tarjeta de empresa: ⟦password|pin⟧")
P("pt", "A senha do banco de homologação é ⟦password⟧, cuidado pra não commitar.")
P("pt", "A palavra-passe do router é ⟦password|phrase⟧.")
P("pt", "login: financeiro / senha: ⟦password⟧")
P("it", "La password dell'account di staging è ⟦password⟧, usala solo per i test.")
P("it", "Codice PIN del badge: ⟦password|pin⟧")
P("nl", "Het wachtwoord voor de beheeromgeving is ⟦password⟧.")
P("nl", "wachtwoord wifi kantoor: ⟦password|phrase_sp⟧")
P("pl", "Hasło do serwera: ⟦password⟧ - login root.")
P("pl", "Nowe hasło do panelu to ⟦password|local⟧, zmień je po zalogowaniu.")
P("sv", "Lösenordet till wifi-nätet är ⟦password|phrase_sp⟧.")
P("fi", "Salasana testitunnukselle on ⟦password⟧.")
P("da", "Adgangskoden til admin-panelet er ⟦password⟧.")
P("no", "Passordet til kontoen er ⟦password⟧, bytt det etter første innlogging.")
P("tr", "Sunucunun şifresi ⟦password⟧, kimseyle paylaşma.")
P("tr", "Kullanıcı adı: muhasebe, parola: ⟦password⟧")
P("ru", "Пароль от тестового стенда: ⟦password⟧, логин admin.")
P("ru", "Скинь в личку, а не в общий чат. Ладно, пароль: ⟦password⟧")
P("uk", "Пароль до бази даних — ⟦password⟧.")
P("zh", "测试服务器的密码是 ⟦password⟧，用户名 root。")
P("zh", "数据库口令：⟦password⟧，别发到群里")
P("ja", "ステージング環境のパスワードは ⟦password⟧ です。共有しないでください。")
P("ja", "暗証番号は⟦password|pin⟧です。")
P("ko", "관리자 계정 비밀번호는 ⟦password⟧ 입니다.")
P("hi", "सर्वर का पासवर्ड ⟦password⟧ है, किसी को मत बताना।")
P("ar", "كلمة المرور الخاصة بحساب الاختبار هي ⟦password⟧")
P("he", "הסיסמה לשרת היא ⟦password⟧")
P("vi", "Mật khẩu của tài khoản quản trị là ⟦password⟧ nhé.")
P("id", "Kata sandi untuk server staging: ⟦password⟧")
P("th", "รหัสผ่านของเซิร์ฟเวอร์ทดสอบคือ ⟦password⟧")
P("cs", "Heslo k testovacímu účtu je ⟦password⟧.")
P("ro", "Parola pentru contul de test este ⟦password⟧.")
P("el", "Ο κωδικός πρόσβασης για τον server είναι ⟦password⟧.")
P("hu", "A teszt fiók jelszava: ⟦password⟧")
P("ms", "Kata laluan untuk akaun ujian ialah ⟦password⟧.")
P("tl", "Ang password ng admin account ay ⟦password⟧.")
P("sw", "Nenosiri la seva ni ⟦password⟧.")

# ---- passwords in config files
P("en", """spring:
  datasource:
    url: jdbc:postgresql://db.internal:5432/orders
    username: orders_app
    password: ⟦password⟧
  jpa:
    hibernate:
      ddl-auto: validate""")
P("en", """services:
  db:
    image: postgres:16-alpine
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: "⟦password⟧"
    ports:
      - "5432:5432\"""")
P("en", """# .env
DB_HOST=db
DB_USER=app
DB_PASSWORD=⟦password⟧
REDIS_URL=redis://:⟦url_credentials⟧@cache:6379/0
LOG_LEVEL=info""")
P("en", """[database]
host = "10.20.1.4"
user = "svc_ingest"
password = "⟦password⟧"
pool_size = 10""")
P("en", """[client]
user=backup
password=⟦password⟧
host=127.0.0.1""")
P("en", """{
  "db": {
    "host": "pg-primary.internal",
    "port": 5432,
    "user": "api",
    "pass": "⟦password⟧"
  }
}""")
P("en", """<settings>
  <servers>
    <server>
      <id>nexus-releases</id>
      <username>deployer</username>
      <password>⟦password⟧</password>
    </server>
  </servers>
</settings>""")
P("en", """spring.mail.host=smtp.office365.com
spring.mail.port=587
spring.mail.username=⟦email|corp⟧
spring.mail.password=⟦password⟧""")
P("en", """apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
type: Opaque
stringData:
  username: app
  password: "⟦password⟧\"""")
P("en", """# group_vars/prod.yml
ansible_user: deploy
ansible_become_pass: "⟦password⟧"
nginx_worker_processes: auto""")
P("en", """resource "aws_db_instance" "main" {
  identifier        = "orders-prod"
  engine            = "postgres"
  instance_class    = "db.t3.medium"
  username          = "orders"
  password          = "⟦password⟧"
  allocated_storage = 50
}""")
P("en", """FROM mysql:8.0
ENV MYSQL_DATABASE=shop \\
    MYSQL_USER=shop \\
    MYSQL_PASSWORD=⟦password⟧ \\
    MYSQL_ROOT_PASSWORD=⟦password⟧
COPY schema.sql /docker-entrypoint-initdb.d/""")
P("en", """cat <<EOF > ~/.pgpass
db.internal:5432:*:report:⟦password⟧
EOF
chmod 600 ~/.pgpass""")
P("en", "$ mysql -h ⟦~ip⟧ -u root -p'⟦password⟧' -e 'SHOW DATABASES;'")
P("en", "psql \"host=db port=5432 user=etl password=⟦password⟧ dbname=warehouse sslmode=require\" -c '\\dt'")
P("en", "sqlcmd -S tcp:sql01,1433 -U sa -P '⟦password⟧' -Q \"SELECT @@VERSION\"")
P("en", "redis-cli -h cache.internal -p 6380 --tls -a '⟦password⟧' PING")
P("en", "docker login registry.corp.internal -u ci -p ⟦password⟧")
P("en", "curl -u admin:⟦password|url⟧ https://grafana.internal/api/health")
P("en", "git remote set-url origin https://builder:⟦url_credentials⟧@git.internal.corp/platform/api.git")
P("en", """machine api.heroku.com
  login ops
  password ⟦password⟧
machine git.heroku.com
  login ops
  password ⟦password⟧""")
P("en", """In [4]: import psycopg2
   ...: conn = psycopg2.connect(host="10.1.0.7", dbname="analytics", user="analyst", password="⟦password⟧")
   ...: df = pd.read_sql("select * from events limit 100", conn)""")
P("en", "engine = create_engine(\"postgresql+psycopg2://analyst:⟦url_credentials⟧@warehouse:5432/dwh\")")
P("en", "MONGO_URI=mongodb+srv://appuser:⟦url_credentials⟧@cluster0.ab1cd.mongodb.net/prod?retryWrites=true&w=majority")
P("en", "broker_url = 'amqp://orders:⟦url_credentials⟧@rabbit.internal:5672/%2F'")
P("en", "jdbc:sqlserver://sql01:1433;databaseName=crm;user=crm_app;password=⟦password⟧;encrypt=true;trustServerCertificate=false")
P("en", """  "ConnectionStrings": {
    "Default": "Server=tcp:shop-sql.database.windows.net,1433;Initial Catalog=shop;User ID=shopadmin;Password=⟦password⟧;Encrypt=True;Connection Timeout=30;"
  },""")
P("en", "sqlplus system/⟦password|url⟧@//oradb.internal:1521/ORCLPDB1")
P("en", "ldapsearch -x -H ldaps://ldap.corp.lan -D \"cn=admin,dc=corp,dc=lan\" -w '⟦password⟧' -b \"ou=people,dc=corp,dc=lan\" uid")
P("en", "2024-05-02 10:14:03,551 DEBUG urllib3.connectionpool: Starting new HTTPS connection (1): pypi.org:443 via proxy http://proxyuser:⟦url_credentials⟧@proxy.corp:3128")
P("en", "[INFO] db.pool: connecting with config {'host': 'db', 'user': 'app', 'password': '⟦password⟧', 'port': 5432, 'sslmode': 'prefer'}")
P("en", """sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "10.0.0.5", port 5432 failed: FATAL:  password authentication failed for user "app"

(Background on this error at: https://sqlalche.me/e/20/e3q8)
DATABASE_URL was postgresql://app:⟦url_credentials⟧@10.0.0.5:5432/app""")
P("en", """define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'wp_user' );
define( 'DB_PASSWORD', '⟦password⟧' );
define( 'DB_HOST', 'localhost' );""")
P("en", """production:
  adapter: postgresql
  database: app_production
  username: app
  password: <%= ENV.fetch("DATABASE_PASSWORD", "⟦password⟧") %>""")
P("en", "wp user create editor2 ⟦email⟧ --role=editor --user_pass='⟦password⟧'")
P("en", r"net use Z: \\fileserver01\finance /user:CORP\svc_backup ⟦password⟧ /persistent:yes")
P("en", "$secpasswd = ConvertTo-SecureString '⟦password⟧' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential ('CORP\\svc_deploy', $secpasswd)")
P("en", "echo '⟦password⟧' | sudo -S apt-get update -y")
P("en", "sshpass -p '⟦password⟧' ssh -o StrictHostKeyChecking=no pi@192.168.0.42 'uptime'")
P("en", "htpasswd -b -c /etc/nginx/.htpasswd admin ⟦password⟧")
P("en", "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:⟦password⟧")
P("en", "keytool -genkeypair -alias server -keyalg RSA -keystore server.jks -storepass ⟦password#1⟧ -keypass ⟦password#1⟧ -dname \"CN=api.internal\"")
P("en", "vault kv put secret/billing/db username=billing password='⟦password⟧'")
P("en", "kubectl create secret generic db-creds --from-literal=username=app --from-literal=password='⟦password⟧' -n prod")
P("en", "helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword=⟦password|url⟧ --set primary.persistence.size=20Gi")
P("en", "az vm create -g rg-dev -n jumpbox --image Ubuntu2204 --admin-username azureuser --admin-password '⟦password⟧'")
P("en", "gcloud sql users set-password postgres --instance=main-pg --password=⟦password|url⟧")
P("en", "aws rds create-db-instance --db-instance-identifier reports --engine mysql --master-username admin --master-user-password '⟦password⟧' --allocated-storage 20")
P("en", """jobs:
  test:
    runs-on: ubuntu-latest
    env:
      SMTP_PASSWORD: ⟦password⟧   # TODO move to secrets
    steps:
      - uses: actions/checkout@v4""")
P("en", """test:
  image: python:3.12
  services:
    - mysql:8
  variables:
    MYSQL_DATABASE: test
    MYSQL_ROOT_PASSWORD: "⟦password⟧\"""")
P("en", """MAIL_MAILER=smtp
MAIL_HOST=smtp.mailgun.org
MAIL_PORT=587
MAIL_USERNAME=⟦email|corp⟧
MAIL_PASSWORD=⟦password⟧
MAIL_ENCRYPTION=tls""")
P("en", """  elasticsearch:
    image: docker.elastic.co/elasticsearch/elasticsearch:8.14.1
    environment:
      - discovery.type=single-node
      - ELASTIC_PASSWORD=⟦password⟧""")
P("en", """[security]
admin_user = admin
admin_password = ⟦password⟧
secret_key = ⟦password|b64gen⟧""")
P("en", "export AIRFLOW_CONN_WAREHOUSE='postgresql://airflow:⟦url_credentials⟧@pg-airflow:5432/airflow'")
P("en", "CELERY_BROKER_URL = \"redis://:⟦url_credentials⟧@redis-master.cache.svc:6379/1\"")
P("en", "lftp -u ftpuser,⟦password⟧ ftp.partner-files.net -e 'mirror -R ./out /inbox; bye'")
P("en", """network={
    ssid="Office-5G"
    psk="⟦password|phrase⟧"
    key_mgmt=WPA-PSK
}""")
P("en", """hostname core-sw01
username admin privilege 15 secret 0 ⟦password⟧
enable secret 0 ⟦password⟧
ip domain-name corp.lan""")
P("en", "CREATE USER reporting WITH PASSWORD '⟦password⟧' VALID UNTIL '2026-01-01';")
P("en", "ALTER USER 'app'@'%' IDENTIFIED BY '⟦password⟧';\nFLUSH PRIVILEGES;")
P("en", "CREATE LOGIN etl_user WITH PASSWORD = '⟦password⟧', CHECK_POLICY = ON;")
P("en", "db.createUser({ user: \"reporter\", pwd: \"⟦password⟧\", roles: [ { role: \"read\", db: \"sales\" } ] })")
P("en", """bind 0.0.0.0
port 6379
requirepass ⟦password⟧
maxmemory 2gb""")
P("en", "\"app\" \"⟦password⟧\"\n\"stats\" \"⟦password⟧\"")
P("en", "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc-orders\" password=\"⟦password⟧\";")
P("en", "        ds.setUser(\"billing\");\n        ds.setPassword(\"⟦password⟧\");\n        ds.setURL(\"jdbc:oracle:thin:@//oradb:1521/BILL\");")
P("en", "db, err := sql.Open(\"mysql\", \"shop:⟦url_credentials⟧@tcp(10.0.3.4:3306)/shop?parseTime=true\")")
P("en", "const pool = new Pool({ user: 'api', host: 'pg', database: 'api', password: '⟦password⟧', port: 5432 })")
P("en", "let url = \"postgres://api:⟦url_credentials⟧@localhost/api\";\nlet pool = PgPoolOptions::new().max_connections(5).connect(url).await?;")
P("en", "var cred = new NetworkCredential(\"svc_sharepoint\", \"⟦password⟧\", \"CORP\");")
P("en", """--- a/config/settings.py
+++ b/config/settings.py
@@ -41,7 +41,7 @@ EMAIL_HOST = "smtp.sendgrid.net"
 EMAIL_PORT = 587
 EMAIL_HOST_USER = "apikey"
-EMAIL_HOST_PASSWORD = os.environ["EMAIL_HOST_PASSWORD"]
+EMAIL_HOST_PASSWORD = "⟦password⟧"
 EMAIL_USE_TLS = True""")
P("en", "nit: you hardcoded `password='⟦password⟧'` in tests/conftest.py - please read it from the environment instead.")
P("en", "{\"tool\": \"bash\", \"input\": {\"command\": \"PGPASSWORD='⟦password⟧' pg_dump -h db -U app app > /tmp/app.sql\"}}")
P("en", """$ cat config/database.yml
production:
  adapter: postgresql
  host: db.prod.internal
  username: rails
  password: ⟦password⟧""")
P("en", "WIFI:T:WPA;S:CafeGuest;P:⟦password|url⟧;;")
P("en", "\"Title\",\"Username\",\"Password\",\"URL\"\n\"VPN\",\"jdoe\",\"⟦password⟧\",\"https://vpn.corp.lan\"\n\"Jira\",\"jdoe\",\"⟦password⟧\",\"https://jira.corp.lan\"")
P("en", "smbclient //nas/backup -U backup%⟦password|url⟧ -c 'ls'")
P("en", "RSYNC_PASSWORD=⟦password⟧ rsync -av --delete ./dist/ rsync://deploy@mirror.internal/site/")
P("en", "export PGPASSWORD=⟦password⟧\npsql -h localhost -U postgres -d app -f migrate.sql")
P("en", "mongodump --uri=\"mongodb://backup:⟦url_credentials⟧@mongo-0.mongo:27017/?authSource=admin\" --gzip --archive=/backup/mongo.gz")
P("en", "neo4j-admin dbms set-initial-password ⟦password⟧")
P("en", "rabbitmqctl add_user ops ⟦password⟧ && rabbitmqctl set_user_tags ops administrator")
P("en", "ansible-playbook site.yml -i inventory/prod --extra-vars \"ansible_password=⟦password⟧\"")
P("en", "try DATABASE_URL=mysql://root:⟦url_credentials⟧@localhost:3306/wordpress and rerun the installer")
P("en", "clickhouse-client --host ch-01 --user default --password ⟦password⟧ --query 'SELECT version()'")
P("en", "influx setup --username admin --password ⟦password⟧ --org tessera --bucket metrics --force")
P("en", "EMAIL_URL=smtp://mailer:⟦url_credentials⟧@smtp.mailprovider.net:587/?tls=True")
P("en", "Upload the export to ftp://anon-upload:⟦url_credentials⟧@files.vendor-portal.com/inbox/ before 5pm")
P("en", "svn checkout --username build --password ⟦password⟧ https://svn.corp.lan/repos/firmware/trunk")
P("en", "nmcli dev wifi connect \"HomeNet\" password \"⟦password⟧\"")
P("en", "docker run -d -e ACCEPT_EULA=Y -e MSSQL_SA_PASSWORD='⟦password⟧' -p 1433:1433 mcr.microsoft.com/mssql/server:2022-latest")
P("en", "WARN  [main] com.zaxxer.hikari.HikariConfig - HikariPool-1 - jdbcUrl=jdbc:mysql://db:3306/app?user=app&password=⟦password⟧&useSSL=true")
P("en", """Traceback (most recent call last):
  File "app/db.py", line 41, in connect
    return psycopg2.connect(dsn)
           ^^^^^^^^^^^^^^^^^^^^^
    dsn = 'dbname=app user=app password=⟦password⟧ host=pg'
psycopg2.OperationalError: could not translate host name "pg" to address""")
P("en", "0 3 * * * /usr/bin/mysqldump -uroot -p⟦password|url⟧ --all-databases | gzip > /backup/all-$(date +\\%F).sql.gz")
P("en", """listen stats
    bind *:8404
    stats enable
    stats uri /stats
    stats auth admin:⟦password|url⟧""")
P("en", """scrape_configs:
  - job_name: node
    basic_auth:
      username: prom
      password: ⟦password⟧
    static_configs:
      - targets: ['10.0.4.11:9100']""")
P("en", """global:
  smtp_smarthost: 'smtp.office365.com:587'
  smtp_from: '⟦email|corp⟧'
  smtp_auth_username: '⟦email|corp⟧'
  smtp_auth_password: '⟦password⟧'""")
P("en", "<user username=\"manager\" password=\"⟦password⟧\" roles=\"manager-gui,admin-gui\"/>")
P("en", "$ cat ~/.git-credentials\nhttps://devbot:⟦url_credentials⟧@gitlab.corp.net")
P("en", "registry=https://npm.corp.internal/\n//npm.corp.internal/:_auth=⟦basic_auth⟧\nalways-auth=true")
P("en", "{\n  \"auths\": {\n    \"registry.corp.io\": {\n      \"auth\": \"⟦basic_auth⟧\"\n    }\n  }\n}")
P("en", "Authorization: Basic ⟦basic_auth⟧")
P("en", "curl -s -H \"Authorization: Basic ⟦basic_auth⟧\" https://jenkins.corp.lan/job/deploy/lastBuild/api/json")
P("en", "> GET /api/v2/reports HTTP/1.1\n> Host: reports.partner.net\n> Authorization: Basic ⟦basic_auth⟧\n> User-Agent: curl/8.5.0")
P("en", "curl -H \"Authorization: Bearer ⟦bearer_token⟧\" https://api.internal.brightlane.io/v1/users?limit=50")
P("en", """GET /v2/orders?status=open HTTP/1.1
Host: api.partner.io
Authorization: Bearer ⟦bearer_token⟧
Accept: application/json""")
P("en", "./syncctl --token ⟦bearer_token⟧ --endpoint https://sync.internal push")
P("en", "headers = {\"Authorization\": \"Token ⟦bearer_token⟧\", \"Content-Type\": \"application/json\"}")
P("en", "127.0.0.1 - - [12/Mar/2025:09:14:22 +0000] \"GET /oauth/callback?state=xyz&access_token=⟦bearer_token⟧ HTTP/1.1\" 302 0")
P("en", "X-Api-Key: ⟦bearer_token⟧")
P("en", "api_token: \"⟦bearer_token⟧\"  # internal metrics gateway")
P("en", "$ cat ~/.ssh/id_ed25519\n⟦private_key|openssh⟧")
P("en", """{
  "type": "service_account",
  "project_id": "analytics-prod-381204",
  "private_key_id": "⟦~sha⟧",
  "private_key": "⟦private_key|pkcs8_json⟧",
  "client_email": "⟦email|corp⟧",
  "token_uri": "https://oauth2.googleapis.com/token"
}""")
P("en", """apiVersion: v1
kind: Secret
metadata:
  name: ingress-tls
type: kubernetes.io/tls
data:
  tls.crt: ⟦~b64long⟧
  tls.key: ⟦private_key|k8s⟧""")
P("en", """resource "tls_cert_request" "api" {
  private_key_pem = <<-EOT
⟦private_key|rsa⟧
  EOT
}""")
P("en", """diff --git a/deploy/keys/ec.pem b/deploy/keys/ec.pem
new file mode 100644
--- /dev/null
+++ b/deploy/keys/ec.pem
⟦private_key|ec⟧""")
P("en", "I accidentally pasted this into the PR description, can you scrub it?\n\n⟦private_key|rsa⟧")
P("en", "ssh_private_key: \"⟦private_key|openssh_json⟧\"")
P("de", """# Konfiguration für den Mailversand
SMTP_BENUTZER=⟦email|corp⟧
SMTP_PASSWORT=⟦password⟧""")
P("fr", "Pour te connecter à la base : `psql postgresql://lecteur:⟦url_credentials⟧@pg.interne:5432/ventes`")
P("es", "Configura el .env así:\nDB_USUARIO=app\nDB_CONTRASENA=⟦password⟧")
P("ja", "DB接続文字列: mysql://app:⟦url_credentials⟧@db01:3306/app（本番なので取り扱い注意）")
P("zh", "Redis 配置：requirepass ⟦password⟧，记得重启服务")
P("ru", "В конфиге стоит password: ⟦password⟧ — его надо вынести в секреты.")
P("pt", "No application.properties: spring.datasource.password=⟦password⟧")
P("ko", "git 원격 주소: https://deploy:⟦url_credentials⟧@git.corp.kr/app.git")
P("it", "Stringa di connessione: Server=sql01;Database=fatture;User Id=contab;Password=⟦password⟧;")
P("tr", "docker-compose.yml içinde MYSQL_ROOT_PASSWORD=⟦password⟧ yazıyor, bunu secrets'a taşıyalım.")
P("pl", "W pliku .env jest DB_PASS=⟦password⟧ - nie commituj tego.")
P("nl", "Connectiestring: Host=pg01;Username=rapportage;Password=⟦password⟧;Database=dwh")
P("vi", "Chuỗi kết nối: postgres://admin:⟦url_credentials⟧@10.10.0.5:5432/shop")
P("id", "Tolong cek, di config.yaml ada password: ⟦password⟧ yang masih hardcode")
P("uk", "У .env лежить ADMIN_PASSWORD=⟦password⟧, прибери його з репозиторію")
P("ar", "سلسلة الاتصال: mongodb://admin:⟦url_credentials⟧@10.0.0.9:27017/crm")
P("hi", "डेटाबेस यूज़र app है और पासवर्ड ⟦password⟧ है, .env में डाल दो")
P("sv", "Anslutningssträng: Server=db01;Uid=rapport;Pwd=⟦password⟧;Database=ekonomi")
P("cs", "V souboru settings.ini je password = ⟦password⟧, přesuňte to do trezoru.")
P("el", "Στο .env υπάρχει DB_PASSWORD=⟦password⟧, μην το ανεβάσεις στο git.")
P("he", "מחרוזת החיבור: Server=sql02;User Id=app;Password=⟦password⟧;")
P("th", "ในไฟล์ .env มี DB_PASSWORD=⟦password⟧ อย่า commit นะ")
P("fi", "Tietokannan yhteysosoite: postgresql://raportit:⟦url_credentials⟧@db.sisainen:5432/raportit")
P("da", "Forbindelsesstreng: Server=sql03;User ID=lager;Password=⟦password⟧;")
P("no", "Tilkoblingsstreng: amqp://ordre:⟦url_credentials⟧@rabbit.intern:5672/")
P("ro", "În config/app.yml avem password: ⟦password⟧ scris direct, trebuie mutat în vault.")
P("hu", "A .env fájlban: SMTP_JELSZO=⟦password⟧")

# ---- emails and phones
P("en", "Author: Priya Raman <⟦email⟧>\nDate:   Tue Mar 4 10:22:41 2025 +0530\n\n    fix: retry S3 uploads on 503")
P("en", "git config --global user.email \"⟦email⟧\"")
P("en", """Best regards,
Tomasz Nowak
Senior Backend Engineer
mob. ⟦phone|pl⟧
⟦email|corp⟧""")
P("en", """psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "users_email_key"
DETAIL:  Key (email)=(⟦email⟧) already exists.""")
P("en", """BEGIN:VCARD
VERSION:3.0
FN:Kenji Sato
TEL;TYPE=CELL:⟦phone|jp⟧
EMAIL;TYPE=INTERNET:⟦email⟧
END:VCARD""")
P("en", "  \"author\": \"Lena Fischer <⟦email⟧>\",\n  \"license\": \"MIT\",")
P("en", "authors = [{ name = \"Ahmed Haddad\", email = \"⟦email⟧\" }]")
P("en", "<p>Questions? Write to <a href=\"mailto:⟦email|corp⟧\">our billing contact</a>.</p>")
P("en", "call me at ⟦phone|us⟧ if the deploy breaks tonight")
P("en", "2025-01-14T08:03:11Z INFO auth user=⟦email⟧ action=login ip=⟦~ip⟧ status=ok mfa=totp")
P("en", "INSERT INTO customers (name, email, phone) VALUES ('Ana Souza', '⟦email⟧', '⟦phone|br⟧');")
P("en", """id,name,email,phone,country
1041,Sophie Martin,⟦email⟧,⟦phone|fr⟧,FR
1042,Jonas Berg,⟦email⟧,⟦phone|se⟧,SE
1043,Olumide Adebayo,⟦email⟧,⟦phone|ng⟧,NG""")
P("en", """{"id": ⟦~n5⟧, "name": "Hyunwoo Kim", "email": "⟦email⟧", "phone": "⟦phone|kr⟧", "plan": "pro"}""")
P("en", "[sms] OTP sent to ⟦phone|e164⟧ via twilio (status=queued)")
P("en", "[twilio] inbound webhook params: {'From': '⟦phone|e164_us⟧', 'Body': 'STOP', 'NumMedia': '0'}")
P("en", "\"phone_number\": \"⟦phone|e164⟧\",\n\"phone_verified\": true")
P("en", "Ticket #⟦~n5⟧ - Refund request\nFrom: ⟦email⟧\nPhone: ⟦phone|uk⟧\nOrder: ⟦~order⟧\nCustomer says the parcel never arrived.")
P("en", "Hi team, new on-call contact for the Sydney DC is ⟦phone|au⟧ (after hours ⟦phone|au⟧).")
P("en", "Reply-To: ⟦email⟧\nSubject: Re: invoice ⟦~order⟧")
P("en", "git log --format='%an <%ae>' | sort -u\nMarco Rossi <⟦email⟧>\nSanne de Vries <⟦email⟧>")
P("en", "ValueError: invalid recipient '⟦email⟧' (domain has no MX record)")
P("en", "@mention the customer: they asked us to call back on ⟦phone|ca⟧ between 9 and 5 EST")
P("en", "WhatsApp from the client (⟦phone|in⟧): \"is the API down?\"")
P("en", "The invite went to ⟦email⟧ instead of the team alias, please resend.")
P("en", "| Name | Email | Phone |\n|---|---|---|\n| Aisha Khan | ⟦email⟧ | ⟦phone|ae⟧ |\n| Kwame Okafor | ⟦email⟧ | ⟦phone|ke⟧ |")
P("en", "users.yaml:\n- name: Ingrid Larsen\n  email: ⟦email⟧\n  phone: \"⟦phone|no⟧\"")
P("de", "Ruf mich bitte unter ⟦phone|de⟧ an, ich bin heute im Homeoffice.")
P("de", "Kontakt: Frau Schmidt, Tel. ⟦phone|de⟧, E-Mail ⟦email⟧")
P("de", "Mit freundlichen Grüßen\nJonas Müller\nTel.: ⟦phone|at⟧\n⟦email|corp⟧")
P("fr", "Mon numéro : ⟦phone|fr⟧, appelle-moi après 18h.")
P("fr", "Merci d'envoyer le devis à ⟦email⟧ avant vendredi.")
P("fr", "Contact Belgique : ⟦phone|be⟧")
P("es", "Mi número es ⟦phone|mx⟧, escríbeme por WhatsApp.")
P("es", "Escríbeme a ⟦email⟧ o llámame al ⟦phone|es⟧")
P("es", "Cliente: Carlos Mendoza, celular ⟦phone|co⟧")
P("es", "Teléfono de contacto en Santiago: ⟦phone|cl⟧")
P("es", "Mi celu es ⟦phone|ar⟧, avisame cuando esté el deploy.")
P("pt", "Meu WhatsApp: ⟦phone|br⟧")
P("pt", "Pode mandar o relatório para ⟦email⟧?")
P("pt", "Contacto em Lisboa: ⟦phone|pt⟧")
P("it", "Il mio cellulare è ⟦phone|it⟧, scrivimi se serve.")
P("it", "Per la fattura scrivere a ⟦email⟧")
P("nl", "Mijn nummer is ⟦phone|nl⟧, bel maar als het misgaat.")
P("zh", "我的手机号是⟦phone|cn⟧，有问题随时联系。")
P("zh", "请把发票发到 ⟦email⟧，谢谢")
P("ja", "携帯番号は⟦phone|jp⟧です。")
P("ja", "担当者のメールアドレス: ⟦email⟧")
P("ko", "제 전화번호는 ⟦phone|kr⟧ 입니다.")
P("ko", "이메일 주소는 ⟦email⟧ 입니다")
P("hi", "मेरा नंबर ⟦phone|in⟧ है, कॉल कर लेना।")
P("ar", "رقم هاتفي ⟦phone|sa⟧")
P("ar", "للتواصل: ⟦phone|eg⟧ أو البريد ⟦email⟧")
P("ru", "Мой номер ⟦phone|ru⟧, звоните после 18:00.")
P("ru", "Почта для связи: ⟦email⟧")
P("tr", "Telefon numaram ⟦phone|tr⟧, akşam arayabilirsin.")
P("pl", "Mój numer: ⟦phone|pl⟧")
P("vi", "Số điện thoại của tôi là ⟦phone|vn⟧")
P("id", "Nomor HP saya ⟦phone|id⟧, hubungi lewat WA saja.")
P("th", "เบอร์โทรของฉันคือ ⟦phone|th⟧")
P("sv", "Mitt nummer är ⟦phone|se⟧.")
P("el", "Το κινητό μου είναι ⟦phone|gr⟧.")
P("hu", "Az én számom: ⟦phone|hu⟧")
P("cs", "Moje číslo je ⟦phone|cz⟧, volejte odpoledne.")
P("ro", "Numărul meu de telefon: ⟦phone|ro⟧")
P("uk", "Мій номер телефону: ⟦phone|ua⟧")
P("he", "המספר שלי ⟦phone|il⟧, תתקשר אחרי חמש")
P("fi", "Puhelinnumeroni on ⟦phone|fi⟧.")
P("da", "Mit nummer er ⟦phone|dk⟧.")
P("no", "Nummeret mitt er ⟦phone|no⟧.")
P("tl", "Ang numero ko ay ⟦phone|ph⟧, text mo na lang ako.")
P("ms", "Nombor telefon saya ⟦phone|sg⟧.")
P("sw", "Namba yangu ya simu ni ⟦phone|ke⟧.")
P("en", "Hong Kong office hotline staffed by Mr Chan, direct line ⟦phone|hk⟧")
P("de", "Schweizer Kollegin erreichbar unter ⟦phone|ch⟧")
P("en", "Irish account manager: ⟦phone|ie⟧ / ⟦email|corp⟧")
P("en", "South Africa support escalation: ⟦phone|za⟧")

# ---- cards and IBANs
P("en", "charge failed for card ⟦card_number⟧ (insufficient_funds), customer ⟦email⟧")
P("en", "Please charge the deposit to my Visa ⟦card_number|spaced⟧, exp 08/27.")
P("en", "[payments] DEBUG raw request body: {\"card\": {\"number\": \"⟦card_number|plain⟧\", \"exp_month\": 11, \"exp_year\": 2027}}")
P("en", "card_number,exp,holder\n⟦card_number|plain⟧,03/28,LAURA JANSEN")
P("en", "User: my card ⟦card_number|dashed⟧ was charged twice for order ⟦~order⟧")
P("de", "Bitte überweisen Sie den Betrag auf IBAN ⟦iban|DE⟧ (Verwendungszweck: ⟦~order⟧).")
P("de", "Meine neue Bankverbindung: ⟦iban|AT⟧, BIC BKAUATWW")
P("fr", "Virement à effectuer sur le compte ⟦iban|FR⟧ au nom de Camille Moreau.")
P("es", "Número de cuenta para la devolución: ⟦iban|ES⟧")
P("it", "IBAN per il rimborso: ⟦iban|IT⟧")
P("nl", "Graag terugstorten op ⟦iban|NL⟧ t.n.v. S. de Vries")
P("en", "<CdtrAcct><Id><IBAN>⟦iban|BE_c⟧</IBAN></Id></CdtrAcct>")
P("en", "Payee: Tom O'Connor, IBAN ⟦iban|IE⟧, amount EUR 1,200.00")
P("en", "Updated bank details for supplier 4471: ⟦iban|GB⟧")
P("pl", "Numer konta do zwrotu: ⟦iban|PL⟧")
P("pt", "IBAN para transferência: ⟦iban|PT⟧")
P("de", "Lohnkonto Schweiz: ⟦iban|CH⟧")
P("sv", "Betala till IBAN ⟦iban|SE⟧ senast fredag.")
P("en", "refund_iban = \"⟦iban|DE_c⟧\"  # from support ticket")
P("ja", "カード番号 ⟦card_number|spaced⟧ で決済エラーが出ています")
P("zh", "用户的银行卡号 ⟦card_number|plain⟧ 支付失败")
P("es", "Pago rechazado con la tarjeta ⟦card_number⟧")
P("fr", "La carte ⟦card_number|spaced⟧ a été refusée.")
P("en", "stripe.error.CardError: Your card was declined. card=⟦card_number|plain⟧ decline_code=do_not_honor")

# ---- national identifiers
P("en", "Employee onboarding form\nName: Marcus Lee\nSSN: ⟦ssn⟧\nStart date: 2025-03-01")
P("en", "UPDATE employees SET ssn = '⟦ssn|plain⟧' WHERE id = 8812;")
P("en", "The applicant's social security number is ⟦ssn⟧, please verify with payroll.")
P("en", "W-2 import error at row 17: employee_ssn=\"⟦ssn⟧\" does not match the employer record")
P("en", "National Insurance number: ⟦uk_nino|sp⟧")
P("en", "payroll.csv: Emma Nielsen,⟦uk_nino⟧,tax code 1257L")
P("en", "My SIN is ⟦ca_sin⟧ for the T4 slip.")
P("fr", "Numéro de sécurité sociale : ⟦fr_nir⟧")
P("fr", "nir=⟦fr_nir|plain⟧ dans la table patients, à pseudonymiser avant l'export")
P("de", "Steuerliche Identifikationsnummer: ⟦de_tax_id⟧")
P("de", "Bitte trage meine Steuer-ID ⟦de_tax_id|sp⟧ in die Lohnabrechnung ein.")
P("en", "Aadhaar: ⟦aadhaar⟧, PAN: ⟦in_pan⟧ (KYC for account 30021)")
P("hi", "मेरा आधार नंबर ⟦aadhaar⟧ है")
P("en", "kyc_payload = {\"pan\": \"⟦in_pan⟧\", \"name_on_pan\": \"ARJUN MEHTA\"}")
P("es", "DNI del titular: ⟦es_dni⟧")
P("es", "Adjunto mi NIE ⟦es_nie⟧ para el contrato de alquiler.")
P("es", "El cliente dio el DNI ⟦es_dni|dash⟧ por teléfono")
P("it", "Codice fiscale: ⟦it_codice_fiscale⟧")
P("it", "Il codice fiscale del paziente (⟦it_codice_fiscale⟧) è finito nei log di debug.")
P("nl", "BSN: ⟦nl_bsn⟧")
P("nl", "Het burgerservicenummer ⟦nl_bsn|dot⟧ staat in de export, haal het eruit.")
P("pt", "CPF: ⟦br_cpf⟧")
P("pt", "O cliente informou o CPF ⟦br_cpf|plain⟧ no chat, precisa mascarar.")
P("pl", "PESEL pracownika: ⟦pl_pesel⟧")
P("sv", "Personnummer: ⟦se_personnummer⟧")
P("sv", "kund.personnr = \"⟦se_personnummer|long⟧\"")
P("fi", "Henkilötunnus: ⟦fi_hetu⟧")
P("da", "CPR-nummer: ⟦dk_cpr⟧")
P("fr", "Numéro de registre national : ⟦be_nrn⟧")
P("nl", "Rijksregisternummer ⟦be_nrn|plain⟧ moet uit de logging.")
P("pt", "NIF: ⟦pt_nif⟧ (para a fatura)")
P("es", "RUT del cliente: ⟦cl_rut⟧")
P("es", "CURP: ⟦mx_curp⟧")
P("no", "Fødselsnummer: ⟦no_fnr⟧")
P("de", "AHV-Nummer: ⟦ch_ahv⟧")
P("en", "Tax File Number (TFN): ⟦au_tfn⟧")
P("en", "South African ID number: ⟦za_id⟧")
P("ro", "CNP: ⟦ro_cnp⟧")
P("zh", "身份证号：⟦cn_ric⟧")
P("zh", "用户实名认证信息 {\"id_card\": \"⟦cn_ric⟧\"}")
P("ko", "주민등록번호: ⟦kr_rrn⟧")
P("ja", "マイナンバー: ⟦jp_my_number⟧")
P("en", "NRIC: ⟦sg_nric⟧ (for the tenancy agreement)")
P("en", "PPS number: ⟦ie_ppsn⟧")
P("tr", "T.C. Kimlik No: ⟦tr_tckn⟧")
P("tr", "Müşterinin TC kimlik numarası ⟦tr_tckn⟧ loglara düşmüş.")
P("he", "מספר תעודת זהות: ⟦il_tz⟧")
P("es", "CUIT: ⟦ar_cuit⟧ (monotributista)")
P("en", "Estonian personal code (isikukood): ⟦ee_ik⟧")
P("en", "HKID: ⟦hk_hkid⟧")
P("en", """patients.csv (first rows)
mrn,name,ssn,phone
M-22014,Laura Jansen,⟦ssn⟧,⟦phone|us⟧
M-22015,David Cohen,⟦ssn⟧,⟦phone|us⟧""")
P("en", "SELECT * FROM kyc WHERE pesel = '⟦pl_pesel⟧';  -- debugging ticket ⟦~jira⟧")
P("en", "{\"customer\": {\"fnr\": \"⟦no_fnr⟧\", \"email\": \"⟦email⟧\"}}")
P("en", "AssertionError: expected valid CURP, got '⟦mx_curp⟧' (row 33)")
P("en", "log: verifying identity doc type=ZA_ID number=⟦za_id⟧ result=match")
P("en", "customer.tax_id = \"⟦pt_nif⟧\"  # PT NIF from checkout form")
P("de", "Versichertennummer AHV ⟦ch_ahv|plain⟧ im Formular eingetragen")
P("en", "Form 1: applicant CNP ⟦ro_cnp⟧, phone ⟦phone|ro⟧")
P("fi", "asiakas: Mikko Virtanen, hetu ⟦fi_hetu⟧, puh. ⟦phone|fi⟧")
P("da", "Kunde: Emma Nielsen, CPR ⟦dk_cpr|plain⟧, mobil ⟦phone|dk⟧")
P("en", "Driver onboarding (SG): NRIC ⟦sg_nric⟧, mobile ⟦phone|sg⟧")
P("ko", "회원 정보: 주민번호 ⟦kr_rrn⟧, 연락처 ⟦phone|kr⟧")
P("ja", "個人番号 ⟦jp_my_number|plain⟧ がCSVに含まれていました")
P("en", "Revenue Ireland form: PPSN ⟦ie_ppsn⟧, IBAN ⟦iban|IE_c⟧")
P("es", "Factura a nombre de Rafael Fernandes, RUT ⟦cl_rut|plain⟧")
P("ar", "رقم الهوية الإسرائيلية للعميل: ⟦il_tz⟧")
P("et", "Isikukood: ⟦ee_ik⟧, telefon ⟦phone|fi⟧")
P("zh", "香港身份證號碼：⟦hk_hkid⟧")
P("es", "Constancia de inscripción AFIP, CUIT ⟦ar_cuit|plain⟧")
P("en", "Canadian payroll import: SIN ⟦ca_sin|dash⟧ rejected (duplicate)")

# ---- the commonest cloud / API keys
P("en", "[default]\naws_access_key_id = ⟦aws_key⟧\naws_secret_access_key = ⟦aws_secret⟧\nregion = eu-west-1")
P("en", "export AWS_ACCESS_KEY_ID=⟦aws_key⟧\nexport AWS_SECRET_ACCESS_KEY=⟦aws_secret⟧\naws s3 ls s3://tessera-backups/")
P("en", """provider "aws" {
  region     = "us-east-1"
  access_key = "⟦aws_key⟧"
  secret_key = "⟦aws_secret⟧"
}""")
P("en", "s3 = boto3.client(\"s3\", aws_access_key_id=\"⟦aws_key⟧\", aws_secret_access_key=\"⟦aws_secret⟧\")")
P("en", "+ aws configure set aws_secret_access_key ⟦aws_secret⟧\n+ aws configure set region ap-southeast-2")
P("en", "{\n    \"Credentials\": {\n        \"AccessKeyId\": \"⟦aws_key|asia⟧\",\n        \"SecretAccessKey\": \"⟦aws_secret⟧\",\n        \"Expiration\": \"2025-04-02T17:40:12+00:00\"\n    }\n}")
P("en", "botocore.exceptions.ClientError: An error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: key ⟦aws_key⟧ is not valid")
P("de", "Hier die AWS-Zugangsdaten für das Projekt: Access Key ⟦aws_key⟧, Secret ⟦aws_secret⟧")
P("es", "Las credenciales de AWS son: AKID ⟦aws_key⟧ y el secreto ⟦aws_secret⟧")
P("ja", "AWSのアクセスキー ⟦aws_key⟧ とシークレット ⟦aws_secret⟧ を環境変数に設定してください")
P("en", "docker run -e AWS_ACCESS_KEY_ID=⟦aws_key⟧ -e AWS_SECRET_ACCESS_KEY=⟦aws_secret⟧ amazon/aws-cli sts get-caller-identity")
P("en", "git clone https://⟦github_token⟧@github.com/tessera-labs/infra.git")
P("en", "GITHUB_TOKEN=⟦github_token⟧")
P("en", "echo ⟦github_token|gho⟧ | gh auth login --with-token")
P("en", "curl -H \"Authorization: token ⟦github_token⟧\" https://api.github.com/user/repos?per_page=100")
P("en", "##[debug]Evaluating: secrets.GITHUB_TOKEN\n##[debug]Result: '⟦github_token|ghs⟧'")
P("en", "//npm.pkg.github.com/:_authToken=⟦github_token|pat⟧\n@tessera:registry=https://npm.pkg.github.com")
P("en", "[url \"https://x-access-token:⟦github_token⟧@github.com/\"]\n\tinsteadOf = https://github.com/")
P("fr", "Voici mon token GitHub pour le CI : ⟦github_token|pat⟧")
P("zh", "GitHub 的个人访问令牌是 ⟦github_token⟧，先用着")
P("en", "OPENAI_API_KEY=⟦openai_key⟧")
P("en", "client = OpenAI(api_key=\"⟦openai_key⟧\")\nresp = client.chat.completions.create(model=\"gpt-4o-mini\", messages=msgs)")
P("en", "curl https://api.openai.com/v1/models -H \"Authorization: Bearer ⟦openai_key|svc⟧\"")
P("en", "openai.api_key = \"⟦openai_key|old⟧\"  # legacy notebook, do not ship")
P("es", "Mi clave de OpenAI es ⟦openai_key⟧, ¿por qué me da error 429?")
P("pt", "coloquei a chave ⟦openai_key⟧ no .env mas o app não lê")
P("en", "ANTHROPIC_API_KEY=⟦anthropic_key⟧")
P("en", "curl https://api.anthropic.com/v1/messages -H \"x-api-key: ⟦anthropic_key⟧\" -H \"anthropic-version: 2023-06-01\" -d @req.json")
P("en", "client = anthropic.Anthropic(api_key=\"⟦anthropic_key⟧\")")
P("en", "admin key for usage reports: ⟦anthropic_key|admin⟧")
P("de", "Der Anthropic-Schlüssel ⟦anthropic_key⟧ ist im Chatverlauf gelandet, bitte widerrufen.")
P("en", "STRIPE_SECRET_KEY=⟦stripe_key⟧\nSTRIPE_WEBHOOK_SECRET=⟦stripe_key|wh⟧")
P("en", "stripe.api_key = \"⟦stripe_key⟧\"")
P("en", "curl https://api.stripe.com/v1/charges -u ⟦stripe_key|rk⟧: -d limit=3")
P("it", "la chiave Stripe di produzione è ⟦stripe_key⟧, non metterla nel frontend!")
P("en", "SLACK_BOT_TOKEN=⟦slack_token⟧\nSLACK_APP_TOKEN=⟦slack_token|app⟧")
P("en", "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy done\"}' ⟦slack_webhook⟧")
P("en", "client = WebClient(token=\"⟦slack_token|user⟧\")")
P("en", "alertmanager:\n  receivers:\n    - name: slack\n      slack_configs:\n        - api_url: ⟦slack_webhook⟧\n          channel: '#alerts'")
P("pt", "webhook do Slack: ⟦slack_webhook⟧")
P("en", "const firebaseConfig = {\n  apiKey: \"⟦google_api_key⟧\",\n  authDomain: \"tripviz-prod.firebaseapp.com\",\n  projectId: \"tripviz-prod\",\n};")
P("en", "https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=⟦google_api_key⟧")
P("en", """{"web":{"client_id":"⟦~n5⟧⟦~n5⟧-⟦~sid⟧.apps.googleusercontent.com","project_id":"crm-sync","client_secret":"⟦google_oauth_secret⟧","redirect_uris":["https://crm.brightlane.io/oauth2/callback"]}}""")
P("en", "curl -H \"Authorization: Bearer ⟦google_oauth_token⟧\" https://www.googleapis.com/drive/v3/files")
P("en", "refresh_token: ⟦google_oauth_token|refresh⟧")
P("en", "GOOGLE_CLIENT_SECRET=⟦google_oauth_secret⟧")
P("en", "Authorization: Bearer ⟦jwt⟧")
P("en", "SUPABASE_SERVICE_ROLE_KEY=⟦jwt|supabase⟧")
P("en", "localStorage.setItem('access_token', '⟦jwt⟧')")
P("en", "[auth] DEBUG decoded session cookie session=⟦jwt|rs⟧")
P("en", "curl -H 'Authorization: Bearer ⟦jwt|service⟧' https://orders.internal/api/v1/orders")
P("ko", "테스트용 토큰이에요: ⟦jwt⟧")
P("ru", "Вот токен из заголовка: Bearer ⟦jwt⟧ - он истекает через час")
P("en", "TWILIO_API_KEY=⟦twilio_api_key⟧\nTWILIO_API_SECRET=⟦twilio_api_key|secret⟧")
P("en", "SENDGRID_API_KEY=⟦sendgrid_key⟧")
P("en", "sg = SendGridAPIClient('⟦sendgrid_key⟧')")
P("en", "curl -s --user 'api:⟦mailgun_key⟧' https://api.eu.mailgun.net/v3/mg.brightlane.io/messages -F to=ops -F text=test")
P("en", "MAILGUN_API_KEY=⟦mailgun_key|old⟧")
P("en", "mailchimp.setConfig({ apiKey: \"⟦mailchimp_key⟧\", server: \"us6\" });")
P("en", "//registry.npmjs.org/:_authToken=⟦npm_token⟧")
P("en", "NPM_TOKEN=⟦npm_token⟧ npm publish --access public")
P("en", "[pypi]\nusername = __token__\npassword = ⟦pypi_token⟧")
P("en", "twine upload -u __token__ -p ⟦pypi_token⟧ dist/*")
P("en", "from huggingface_hub import login\nlogin(token=\"⟦huggingface_token⟧\")")
P("en", "HF_TOKEN=⟦huggingface_token⟧ python train.py --push-to-hub")
P("en", "doctl auth init --access-token ⟦digitalocean_token⟧")
P("en", "DIGITALOCEAN_TOKEN=⟦digitalocean_token⟧")
P("en", "GITLAB_TOKEN=⟦gitlab_token⟧")
P("en", "git clone https://oauth2:⟦gitlab_token⟧@gitlab.com/kolmio/platform/api.git")
P("en", "gitlab-runner register --url https://gitlab.com --token ⟦gitlab_token|rt⟧ --executor docker")
P("de", "Das GitLab-Token ⟦gitlab_token⟧ läuft morgen ab.")
P("en", "AZURE_DEVOPS_EXT_PAT=⟦azure_devops_token⟧ az devops project list --org https://dev.azure.com/kolmio")
P("en", "git clone https://pat:⟦azure_devops_token⟧@dev.azure.com/kolmio/platform/_git/api")
P("en", "DefaultEndpointsProtocol=https;AccountName=tesseralogs;AccountKey=⟦azure_storage_key⟧;EndpointSuffix=core.windows.net")
P("en", "az storage blob upload --account-name tesseralogs --account-key ⟦azure_storage_key⟧ -c exports -f out.csv")
P("en", "https://tesseralogs.blob.core.windows.net/exports/report.csv?⟦azure_sas_token⟧")
P("en", "AZURE_CLIENT_ID=⟦~uuid⟧\nAZURE_TENANT_ID=⟦~uuid⟧\nAZURE_CLIENT_SECRET=⟦azure_client_secret⟧")
P("en", "az login --service-principal -u ⟦~uuid⟧ -p ⟦azure_client_secret⟧ --tenant ⟦~uuid⟧")
P("en", "HEROKU_API_KEY=⟦heroku_key⟧")
P("en", "DD_API_KEY=⟦datadog_key⟧\nDD_APP_KEY=⟦datadog_key|app⟧\nDD_SITE=datadoghq.eu")
P("en", "helm install datadog-agent datadog/datadog --set datadog.apiKey=⟦datadog_key⟧")
P("en", "NEW_RELIC_LICENSE_KEY=⟦new_relic_key|license⟧\nNEW_RELIC_API_KEY=⟦new_relic_key⟧")
P("en", "SENTRY_AUTH_TOKEN=⟦sentry_token⟧ sentry-cli releases new 2025.03.1")
P("en", "DATABRICKS_HOST=https://adb-⟦~n5⟧⟦~n4⟧.azuredatabricks.net\nDATABRICKS_TOKEN=⟦databricks_token⟧")
P("en", "credentials \"app.terraform.io\" {\n  token = \"⟦terraform_token⟧\"\n}")
P("en", "export VAULT_ADDR=https://vault.corp.lan:8200\nexport VAULT_TOKEN=⟦vault_token⟧")
P("en", "DOPPLER_TOKEN=⟦doppler_token|st⟧ doppler run -- npm start")
P("en", "pulumi login --cloud-url https://api.pulumi.com  # PULUMI_ACCESS_TOKEN=⟦pulumi_token⟧")
P("en", "dotnet nuget push bin/Release/Tessera.Core.2.1.0.nupkg --api-key ⟦nuget_key⟧ --source https://api.nuget.org/v3/index.json")
P("en", "---\n:rubygems_api_key: ⟦rubygems_key⟧")
P("en", "cargo login ⟦cratesio_token⟧")
P("en", "CLOJARS_USERNAME=kolmio\nCLOJARS_PASSWORD=⟦clojars_token⟧")
P("en", "echo ⟦dockerhub_token⟧ | docker login -u tesseraci --password-stdin")
P("en", "curl -H \"X-JFrog-Art-Api: ⟦jfrog_token⟧\" -T app.jar https://tessera.jfrog.io/artifactory/libs-release/app.jar")
P("en", "CIRCLE_TOKEN=⟦circleci_token⟧")
P("en", "curl -H \"Authorization: Bearer ⟦buildkite_token⟧\" https://api.buildkite.com/v2/organizations/kolmio/pipelines")
P("en", "netlify deploy --prod --auth ⟦netlify_token⟧")
P("en", "fly deploy --access-token \"FlyV1 ⟦flyio_token⟧\"")
P("en", "RENDER_API_KEY=⟦render_key⟧")
P("en", "SUPABASE_ACCESS_TOKEN=⟦supabase_token⟧ supabase link --project-ref ⟦~sid⟧")
P("en", "pscale auth login --service-token ⟦planetscale_token⟧ --service-token-id ⟦~sid⟧")
P("en", "DATABASE_URL=mysql://8x2kq9v3:⟦planetscale_token|pw⟧@aws.connect.psdb.cloud/shop?sslaccept=strict")
P("en", "LINEAR_API_KEY=⟦linear_key⟧")
P("en", "notion = Client(auth=\"⟦notion_token⟧\")")
P("en", "NOTION_TOKEN=⟦notion_token|old⟧")
P("en", "curl https://api.airtable.com/v0/appXk29Qe8mZp1/Leads -H \"Authorization: Bearer ⟦airtable_token⟧\"")
P("en", "ASANA_PAT=⟦asana_token⟧")
P("en", "curl -H \"Authorization: ⟦clickup_token⟧\" https://api.clickup.com/api/v2/team")
P("en", "curl -H \"X-Figma-Token: ⟦figma_token⟧\" https://api.figma.com/v1/files/Qe2hR8k1")
P("en", "TYPEFORM_TOKEN=⟦typeform_token⟧")
P("en", "contentful space export --management-token ⟦contentful_token⟧ --space-id 9xk2p")
P("en", "HUBSPOT_ACCESS_TOKEN=⟦hubspot_token⟧")
P("en", "curl -H \"Authorization: SSWS ⟦okta_token⟧\" https://kolmio.okta.com/api/v1/users?limit=25")
P("en", "OP_SERVICE_ACCOUNT_TOKEN=⟦onepassword_token⟧")
P("en", "sf org login access-token --instance-url https://brightlane.my.salesforce.com  # SF_ACCESS_TOKEN=⟦salesforce_token⟧")
P("en", "Authorization: Zoho-oauthtoken ⟦zoho_token⟧")
P("en", "MAPBOX_SECRET_TOKEN=⟦mapbox_token⟧")
P("en", "curl -H \"Authorization: Bearer ⟦cloudflare_token⟧\" https://api.cloudflare.com/client/v4/user/tokens/verify")
P("en", "curl -H \"X-Auth-Email: ⟦email|corp⟧\" -H \"X-Auth-Key: ⟦cloudflare_key⟧\" https://api.cloudflare.com/client/v4/zones")
P("en", "GRAFANA_SERVICE_ACCOUNT_TOKEN=⟦grafana_token⟧")
P("en", "grafana_cloud_access_policy_token = \"⟦grafana_token|glc⟧\"")
P("en", "HONEYCOMB_API_KEY=⟦honeycomb_key⟧\nOTEL_EXPORTER_OTLP_ENDPOINT=https://api.honeycomb.io")
P("en", "curl -H \"Authorization: Api-Token ⟦dynatrace_token⟧\" https://abc12345.live.dynatrace.com/api/v2/metrics")
P("en", "LAUNCHDARKLY_SDK_KEY=⟦launchdarkly_key|sdk⟧")
P("en", "LANGSMITH_API_KEY=⟦langsmith_key⟧\nLANGSMITH_TRACING=true")
P("en", "LANGFUSE_SECRET_KEY=⟦langfuse_key⟧\nLANGFUSE_PUBLIC_KEY=pk-lf-⟦~uuid⟧\nLANGFUSE_HOST=https://cloud.langfuse.com")
P("en", "GROQ_API_KEY=⟦groq_key⟧")
P("en", "MISTRAL_API_KEY=⟦mistral_key⟧")
P("en", "co = cohere.Client(\"⟦cohere_key⟧\")  # CO_API_KEY")
P("en", "PERPLEXITY_API_KEY=⟦perplexity_key⟧")
P("en", "XAI_API_KEY=⟦xai_key⟧")
P("en", "DEEPSEEK_API_KEY=⟦deepseek_key⟧")
P("en", "client = OpenAI(base_url=\"https://openrouter.ai/api/v1\", api_key=\"⟦openrouter_key⟧\")")
P("en", "export REPLICATE_API_TOKEN=⟦replicate_token⟧")
P("en", "ELEVENLABS_API_KEY=⟦elevenlabs_key⟧")
P("en", "wandb login ⟦wandb_key⟧")
P("en", "modal token set --token-id ⟦modal_token|id⟧ --token-secret ⟦modal_token⟧")
P("en", "pc = Pinecone(api_key=\"⟦pinecone_key⟧\")")
P("en", "RESEND_API_KEY=⟦resend_key⟧")
P("en", "BREVO_API_KEY=⟦brevo_key⟧")
P("en", "newman run collection.json --env-var \"postman_api_key=⟦postman_key⟧\"")
P("en", "rdme openapi openapi.yaml --key=⟦readme_key⟧ --id=64f0c2")
P("en", "prefect cloud login -k ⟦prefect_key⟧ -w kolmio/prod")
P("en", "ngrok config add-authtoken ⟦ngrok_token⟧")
P("en", "tailscale up --authkey=⟦tailscale_key⟧ --hostname=ci-runner-3")
P("en", "sonar-scanner -Dsonar.projectKey=api -Dsonar.host.url=https://sonar.corp.lan -Dsonar.token=⟦sonar_token⟧")
P("en", "SCALINGO_API_TOKEN=⟦scalingo_token⟧")
P("en", "EASYPOST_API_KEY=⟦easypost_key⟧")
P("en", "shippo.config.api_key = \"⟦shippo_token⟧\"")
P("en", "curl -H \"Authorization: Bearer ⟦duffel_token⟧\" -H \"Duffel-Version: v2\" https://api.duffel.com/air/offer_requests")
P("en", "FLW_SECRET_KEY=⟦flutterwave_key⟧")
P("en", "PAYSTACK_SECRET_KEY=⟦paystack_key⟧")
P("en", "RAZORPAY_KEY_ID=⟦razorpay_key⟧\nRAZORPAY_KEY_SECRET=⟦razorpay_key|secret⟧")
P("en", "mollie_client.set_api_key(\"⟦mollie_key⟧\")")
P("en", "BRAINTREE_ACCESS_TOKEN=⟦braintree_token⟧")
P("en", "WC_CONSUMER_KEY=⟦woocommerce_key|ck⟧\nWC_CONSUMER_SECRET=⟦woocommerce_key|cs⟧")
P("en", "PLAID_SECRET=⟦plaid_token|secret⟧\nPLAID_ENV=production")
P("en", "{\"access_token\": \"⟦plaid_token⟧\", \"item_id\": \"⟦~sid⟧\"}")
P("en", "curl \"https://graph.facebook.com/v19.0/me/accounts?access_token=⟦facebook_token⟧\"")
P("en", "TWITTER_BEARER_TOKEN=⟦twitter_bearer⟧")
P("en", "curl -X POST https://fcm.googleapis.com/fcm/send -H \"Authorization: key=⟦fcm_server_key⟧\" -d @push.json")
P("en", "dbx = dropbox.Dropbox(\"⟦dropbox_token⟧\")")
P("en", "https://api.trello.com/1/members/me/boards?key=⟦~hex32⟧&token=⟦trello_token⟧")
P("en", "FRAMEIO_TOKEN=⟦frameio_token⟧")
P("en", "# created: 2025-02-11T09:12:44Z\n# public key: ⟦~agepub⟧\n⟦age_secret_key⟧")
P("en", "ALIBABA_CLOUD_ACCESS_KEY_ID=⟦alibaba_key⟧\nALIBABA_CLOUD_ACCESS_KEY_SECRET=⟦alibaba_key|secret⟧")
P("en", "TENCENTCLOUD_SECRET_ID=⟦tencent_key⟧\nTENCENTCLOUD_SECRET_KEY=⟦tencent_key|secret⟧")
P("en", "yc config set token ⟦yandex_key|oauth⟧\nYC_API_KEY=⟦yandex_key⟧")
P("en", "oc login --token=⟦openshift_token⟧ --server=https://api.ocp.corp.lan:6443")
P("en", "kubeadm join 10.0.0.10:6443 --token ⟦kubeadm_token⟧ --discovery-token-ca-cert-hash sha256:⟦~sha256⟧")
P("en", "SECRET_KEY = '⟦django_secret_key|insecure⟧'")
P("en", "DJANGO_SECRET_KEY=⟦django_secret_key⟧")
P("en", "git clone https://tessera-ci:⟦bitbucket_token⟧@bitbucket.org/tessera/api.git")
P("en", "JIRA_API_TOKEN=⟦atlassian_token⟧\nJIRA_URL=https://tessera.atlassian.net")
P("en", "TELEGRAM_BOT_TOKEN=⟦telegram_token⟧")
P("en", "curl https://api.telegram.org/bot⟦telegram_token⟧/getUpdates")
P("en", "client.run('⟦discord_token⟧')")
P("en", "DISCORD_WEBHOOK_URL=⟦discord_webhook⟧")
P("en", "Invoke-RestMethod -Method Post -Uri '⟦teams_webhook⟧' -Body $json -ContentType 'application/json'")
P("en", "SHOPIFY_ADMIN_API_ACCESS_TOKEN=⟦shopify_token⟧\nSHOPIFY_API_SECRET=⟦shopify_token|ss⟧")
P("en", "SQUARE_ACCESS_TOKEN=⟦square_token⟧")
P("en", "square_application_secret: ⟦square_token|csp⟧")
P("en", "LAUNCHDARKLY_API_KEY=⟦launchdarkly_key|api⟧")
P("en", "curl -H \"Authorization: Bearer ⟦tailscale_key|api⟧\" https://api.tailscale.com/api/v2/tailnet/-/devices")

# ---- mixed files with several secrets
P("en", """# .env.production
DATABASE_URL=postgres://app:⟦url_credentials⟧@pg-prod.internal:5432/app
REDIS_PASSWORD=⟦password⟧
STRIPE_SECRET_KEY=⟦stripe_key⟧
SENDGRID_API_KEY=⟦sendgrid_key⟧
SENTRY_DSN=https://⟦~hex32⟧@o⟦~n5⟧.ingest.sentry.io/⟦~n5⟧""")
P("en", """OPENAI_API_KEY=⟦openai_key⟧
ANTHROPIC_API_KEY=⟦anthropic_key⟧
GROQ_API_KEY=⟦groq_key⟧
LANGSMITH_API_KEY=⟦langsmith_key⟧""")
P("en", """env:
  - name: AWS_ACCESS_KEY_ID
    value: ⟦aws_key⟧
  - name: AWS_SECRET_ACCESS_KEY
    value: ⟦aws_secret⟧
  - name: DB_PASSWORD
    value: "⟦password⟧\"""")
P("en", """$ printenv | grep -i -E 'token|key|pass'
GITHUB_TOKEN=⟦github_token⟧
NPM_TOKEN=⟦npm_token⟧
PGPASSWORD=⟦password⟧
HOSTNAME=runner-⟦~hex12⟧""")
P("en", """Assistant ran: cat .env
  SLACK_BOT_TOKEN=⟦slack_token⟧
  HUBSPOT_ACCESS_TOKEN=⟦hubspot_token⟧
  ADMIN_EMAIL=⟦email|corp⟧
I will not print these values again; consider rotating them since they appeared in the log.""")
P("en", """# settings.toml
[default]
secret_key = "⟦django_secret_key⟧"
[default.database]
url = "postgresql://web:⟦url_credentials⟧@db:5432/web"
[default.mail]
password = "⟦password⟧\"""")
P("en", """variable "cloudflare_api_token" {
  default = "⟦cloudflare_token⟧"
}
variable "do_token" {
  default = "⟦digitalocean_token⟧"
}""")
P("en", """[Service]
Environment="DD_API_KEY=⟦datadog_key⟧"
Environment="VAULT_TOKEN=⟦vault_token⟧"
ExecStart=/usr/local/bin/agent run""")
P("en", """- name: Configure app
  ansible.builtin.template:
    src: app.env.j2
    dest: /etc/app.env
  vars:
    mailgun_key: "⟦mailgun_key⟧"
    twilio_auth: "⟦twilio_api_key|secret⟧"
    db_pass: "⟦password⟧\"""")
P("en", """<appSettings>
  <add key="StorageConnection" value="DefaultEndpointsProtocol=https;AccountName=fabrikamdocs;AccountKey=⟦azure_storage_key⟧;EndpointSuffix=core.windows.net" />
  <add key="SmtpPassword" value="⟦password⟧" />
</appSettings>""")
P("de", """# Zugangsdaten Staging (nicht committen!)
Datenbank: postgres://staging:⟦url_credentials⟧@10.3.0.12/shop
Admin-Login: admin / ⟦password⟧
Stripe: ⟦stripe_key⟧""")
P("es", """Credenciales del cliente:
- Usuario: ⟦email⟧
- Contraseña: ⟦password⟧
- Teléfono: ⟦phone|es⟧""")
P("fr", """Fiche client
Nom : Chloé Dubois
Téléphone : ⟦phone|fr⟧
Email : ⟦email⟧
NIR : ⟦fr_nir⟧
IBAN : ⟦iban|FR⟧""")
P("pt", """Cadastro
Nome: Lucas Silva
CPF: ⟦br_cpf⟧
Celular: ⟦phone|br⟧
E-mail: ⟦email⟧""")
P("it", """Dati anagrafici
Nome: Giulia Ferrari
Codice fiscale: ⟦it_codice_fiscale⟧
Cellulare: ⟦phone|it⟧
IBAN: ⟦iban|IT⟧""")
P("ja", """顧客情報
氏名: 佐藤 健二
電話: ⟦phone|jp⟧
メール: ⟦email⟧
カード: ⟦card_number|spaced⟧""")
P("zh", """客户资料
姓名：李伟
手机：⟦phone|cn⟧
邮箱：⟦email⟧
身份证：⟦cn_ric⟧""")
P("ko", """고객 정보
이름: 김현우
전화: ⟦phone|kr⟧
이메일: ⟦email⟧""")
P("ru", """Данные клиента:
ФИО: Иванова Елена
Телефон: ⟦phone|ru⟧
Email: ⟦email⟧
Пароль от личного кабинета: ⟦password⟧""")
P("pl", """Zgłoszenie #⟦~n5⟧
Klient: Anna Kowalska
PESEL: ⟦pl_pesel⟧
Tel.: ⟦phone|pl⟧
Konto: ⟦iban|PL⟧""")
P("tr", """Müşteri kaydı
Ad Soyad: Ahmet Yılmaz
TCKN: ⟦tr_tckn⟧
Telefon: ⟦phone|tr⟧
E-posta: ⟦email⟧""")
P("nl", """Klantgegevens
Naam: Sanne de Vries
BSN: ⟦nl_bsn⟧
Telefoon: ⟦phone|nl⟧
IBAN: ⟦iban|NL⟧""")
P("sv", """Kunduppgifter
Namn: Ingrid Lindqvist
Personnummer: ⟦se_personnummer⟧
Telefon: ⟦phone|se⟧""")
P("en", """> ANTHROPIC_API_KEY is set? checking...
$ env | grep KEY
ANTHROPIC_API_KEY=⟦anthropic_key⟧
MISTRAL_API_KEY=⟦mistral_key⟧
PINECONE_API_KEY=⟦pinecone_key⟧""")
P("en", """[2025-03-18 12:01:44] ERROR PaymentGateway: request failed
  url=https://api.paystack.co/transaction/initialize
  headers={'Authorization': 'Bearer ⟦paystack_key⟧', 'Content-Type': 'application/json'}
  body={'email': '⟦email⟧', 'amount': 500000}""")
P("en", """apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  SENTRY_AUTH_TOKEN: "⟦sentry_token⟧"
  HONEYCOMB_API_KEY: "⟦honeycomb_key⟧"
  LOG_FORMAT: json""")
P("en", """# .circleci/config.yml (leaked in a debug step)
+ echo "token=⟦circleci_token⟧"
+ echo "dockerhub=⟦dockerhub_token⟧\"""")
P("en", """~/.config/gh/hosts.yml
github.com:
    user: tessera-bot
    oauth_token: ⟦github_token|gho⟧
    git_protocol: https""")
P("en", """~/.docker/config.json
{"auths":{"https://index.docker.io/v1/":{"auth":"⟦basic_auth⟧"}},"credsStore":""}""")
P("en", """~/.kube/config
users:
- name: ci
  user:
    token: ⟦bearer_token⟧""")
P("en", """~/.terraformrc
credentials "app.terraform.io" {
  token = "⟦terraform_token⟧"
}""")
P("en", """~/.cargo/credentials.toml
[registry]
token = "⟦cratesio_token⟧\"""")
P("en", """~/.gem/credentials
---
:rubygems_api_key: ⟦rubygems_key⟧""")
P("en", """wrangler.toml
[vars]
ENVIRONMENT = "production"
OPENROUTER_KEY = "⟦openrouter_key⟧\"""")
P("en", """serverless.yml
provider:
  environment:
    EASYPOST_API_KEY: ⟦easypost_key⟧
    SHIPPO_TOKEN: ⟦shippo_token⟧""")
P("en", """.streamlit/secrets.toml
OPENAI_API_KEY = "⟦openai_key⟧"
[connections.snowflake]
user = "analyst"
password = "⟦password⟧\"""")
P("en", """application-prod.yml
langfuse:
  secret-key: ⟦langfuse_key⟧
elevenlabs:
  api-key: ⟦elevenlabs_key⟧""")


# ================================================================ clean templates (no secret, no personal datum)

CLEAN: list[tuple[str, str]] = []


def C(lang: str, text: str) -> None:
    CLEAN.append((lang, text))


# ---- hashes, ids, digests
C("en", "commit ⟦~sha⟧\nMerge: ⟦~sha7⟧ ⟦~sha7⟧\n\n    Merge pull request #⟦~n4⟧ from feature/retry-uploads")
C("en", "⟦~sha7⟧ fix(api): handle empty payload in webhook parser\n⟦~sha7⟧ chore(deps): bump urllib3 from 2.2.1 to 2.2.2\n⟦~sha7⟧ docs: explain rate limits")
C("en", "docker pull python@sha256:⟦~sha256⟧")
C("en", "\"node_modules/lodash\": {\n  \"version\": \"4.17.21\",\n  \"resolved\": \"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz\",\n  \"integrity\": \"sha512-⟦~b64_88⟧\"\n}")
C("en", "request_id=⟦~uuid⟧ method=GET path=/healthz status=200 duration_ms=⟦~n2⟧")
C("en", "requests==2.32.3 \\\n    --hash=sha256:⟦~sha256⟧ \\\n    --hash=sha256:⟦~sha256⟧")
C("en", "golang.org/x/crypto v0.24.0 h1:⟦~b64_43⟧=\ngolang.org/x/crypto v0.24.0/go.mod h1:⟦~b64_43⟧=")
C("en", "[[package]]\nname = \"serde\"\nversion = \"1.0.203\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"⟦~sha256⟧\"")
C("en", "provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"5.54.1\"\n  hashes = [\n    \"h1:⟦~b64_43⟧=\",\n    \"zh:⟦~sha256⟧\",\n  ]\n}")
C("en", "/nix/store/⟦~nix⟧-python3-3.11.9/bin/python3")
C("en", "ipfs://⟦~cid⟧/metadata.json")
C("en", "$ sha256sum dist/app-2.4.1.tar.gz\n⟦~sha256⟧  dist/app-2.4.1.tar.gz")
C("en", "$ md5sum backup.tar\n⟦~hex32⟧  backup.tar")
C("en", "ETag: \"⟦~hex32⟧\"\nLast-Modified: Tue, 11 Jun 2024 08:12:44 GMT\nCache-Control: max-age=3600")
C("en", "CONTAINER ID   IMAGE          COMMAND                  STATUS\n⟦~hex12⟧   nginx:1.27     \"/docker-entrypoint.…\"   Up 3 hours\n⟦~hex12⟧   redis:7.2      \"docker-entrypoint.s…\"   Up 3 hours")
C("en", "traceparent: 00-⟦~hex32⟧-⟦~hex16⟧-01")
C("en", "x-amz-request-id: ⟦~hex16⟧\nx-amz-id-2: ⟦~b64long⟧")
C("en", "Project(\"{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}\") = \"Tessera.Core\", \"src\\Tessera.Core.csproj\", \"{⟦~uuid⟧}\"")
C("en", "kubectl logs ⟦~pod⟧ -c app --since=10m")
C("en", "pod/⟦~pod⟧   1/1   Running   0   4h12m\npod/⟦~pod⟧   1/1   Running   2   4h12m")
C("en", "Successfully built ⟦~hex12⟧\nSuccessfully tagged registry.corp.internal/api:⟦~sha7⟧")
C("en", "gpg: Signature made Mon 10 Jun 2024 14:02:11 CEST\ngpg:                using EDDSA key ⟦~sha⟧\ngpg: Good signature")
C("en", "Key fingerprint is SHA256:⟦~b64_43⟧.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?")
C("en", "ssh-ed25519 ⟦~edpub⟧ deploy@build-07")
C("en", "# authorized_keys\nssh-rsa ⟦~rsapub⟧ backup@nas\nssh-ed25519 ⟦~edpub⟧ ci@runner-3")
C("en", "$ openssl s_client -connect api.github.com:443 -showcerts </dev/null\n⟦~cert⟧")
C("en", "public_key_pem = <<EOT\n⟦~pubkey⟧\nEOT")
C("en", "⟦~agepub⟧ is the recipient; encrypt with: age -r <recipient> -o secrets.age secrets.txt")
C("en", "Run ID ⟦~n5⟧⟦~n5⟧ · Job ⟦~n5⟧⟦~n5⟧ · attempt 2 · https://github.com/tessera-labs/api/actions/runs/⟦~n5⟧⟦~n5⟧")
C("en", "Build #⟦~n5⟧ (⟦~date⟧) passed in 12m 31s on agent linux-large-⟦~n2⟧")
C("en", "x-request-id: ⟦~uuid⟧\nx-correlation-id: ⟦~uuid⟧")
C("en", "INSERT INTO audit_log (id, entity_id, action) VALUES ('⟦~uuid⟧', '⟦~uuid⟧', 'update');")
C("en", "Deployed image sha256:⟦~sha256⟧ to cluster prod-eu-1 (revision 214)")
C("en", "npm notice shasum:        ⟦~sha⟧\nnpm notice integrity:     sha512-⟦~b64_43⟧[...]⟦~n3⟧==")
C("en", "Cache key: Linux-pip-⟦~sha256⟧\nCache restored from key: Linux-pip-⟦~sha256⟧")
C("en", "S3 object versionId=⟦~b64_43⟧ size=48213 storageClass=STANDARD")
C("en", "CloudFront distribution E⟦~n5⟧ invalidation I⟦~n4⟧ status: Completed")
C("en", "resourceVersion: \"⟦~n5⟧⟦~n3⟧\"\nuid: ⟦~uuid⟧\ngeneration: 4")
C("en", "etcd revision ⟦~n5⟧⟦~n4⟧ compacted")
C("en", "git rev-parse HEAD\n⟦~sha⟧")
C("en", "git bisect good ⟦~sha⟧\nBisecting: 12 revisions left to test after this (roughly 4 steps)")
C("en", "Cherry-picked ⟦~sha7⟧..⟦~sha7⟧ onto release/⟦~ver⟧")
C("en", "wheel: numpy-2.0.1-cp312-cp312-manylinux_2_17_x86_64.whl sha256=⟦~sha256⟧")

# ---- base64 of public data, look-alikes
C("en", "$ echo 'aGVsbG8gd29ybGQK' | base64 -d\nhello world")
C("en", "<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\" alt=\"\">")
C("en", "ca.crt: ⟦~b64long⟧\nnamespace: ZGVmYXVsdA==")
C("en", "Content-Transfer-Encoding: base64\n\nVGhlIHF1YXJ0ZXJseSByZXBvcnQgaXMgYXR0YWNoZWQu")
C("en", "The 32-byte salt is stored next to the hash; see docs/crypto.md for the KDF parameters.")
C("en", "const CSS = '<div class=\"⟦~css⟧\">';")
C("en", "<button class=\"⟦~css⟧\" data-testid=\"submit\">Save</button>")
C("en", "YouTube demo: https://www.youtube.com/watch?v=⟦~ytid⟧")
C("en", "gtag('config', '⟦~ga⟧');")
C("en", "window.__BUILD__ = { id: \"⟦~sha7⟧\", time: \"⟦~ts⟧\", branch: \"main\" };")
C("en", "const PUBLIC_OAUTH_CLIENT_ID = \"⟦~n5⟧⟦~n5⟧-⟦~sid⟧.apps.googleusercontent.com\";  // public, safe to ship")
C("en", "Shipment ⟦~ups⟧ is out for delivery (UPS Ground).")
C("en", "Reference number: ⟦~notluhn⟧ (keep this for your records)")
C("en", "Added to the reading list: ISBN ⟦~isbn⟧ (paperback, 2nd printing).")
C("en", "Order ⟦~order⟧ total: €⟦~price⟧ (incl. 19% VAT), shipped ⟦~date⟧")
C("en", "Invoice ⟦~order⟧ - amount due USD ⟦~price⟧ - due ⟦~date⟧")
C("en", "The ticket ⟦~jira⟧ tracks the flaky test; see also ⟦~jira⟧.")
C("en", "arn:aws:iam::aws:policy/ReadOnlyAccess")
C("en", "arn:aws:s3:::public-datasets-mirror/*")
C("en", "Windows well-known SID S-1-5-32-544 is the local Administrators group.")
C("en", "error 0x80070005: access denied while writing C:\\ProgramData\\Agent\\state.json")
C("en", "GUID partition {⟦~uuid⟧} mounted at /data")
C("en", "Device UUID=⟦~uuid⟧ TYPE=\"ext4\" PARTUUID=\"⟦~uuid⟧\"")
C("en", "ulimit -n 1048576; sysctl vm.max_map_count=262144")
C("en", "offset=1048576 partition=7 topic=orders.v2 lag=0")
C("en", "Timestamp 1718093564 is 2024-06-11T08:12:44Z")
C("en", "Version: ⟦~ver⟧ (build ⟦~sha7⟧, go1.22.4 linux/amd64)")
C("en", "Bumps [numpy](https://github.com/numpy/numpy) from 1.26.4 to 2.0.1.")
C("en", "Python 3.12.4 (main, Jun  7 2024, 00:00:00) [GCC 13.2.1 20240316] on linux")
C("en", "pip freeze | head -3\nanyio==4.4.0\ncertifi==2024.6.2\ncharset-normalizer==3.3.2")
C("en", "FROM node:20.14.0-bookworm-slim@sha256:⟦~sha256⟧")
C("en", "image: ghcr.io/tessera-labs/worker:⟦~ver⟧-⟦~sha7⟧")
C("en", "Color tokens: --brand: #1E6FD9; --muted: #8A94A6; --danger: #D93025;")
C("en", "Regex for AWS access key ids: re.compile(r\"\\b(AKIA|ASIA)[A-Z2-7]{16}\\b\")")
C("en", "gitleaks detect --source . --redact --report-format sarif --report-path leaks.sarif")
C("en", "trufflehog git file://. --only-verified --fail")
C("en", "Port 5432 (postgres), 6379 (redis), 9092 (kafka), 8200 (vault).")
C("en", "cron: '17 3 * * 1-5'  # 03:17 UTC on weekdays")
C("en", "IPv4 192.0.2.10 and 2001:db8::10 are documentation addresses.")
C("en", "Throughput: 18,432 req/s p50=4.1ms p99=38.7ms (n=⟦~n5⟧⟦~n2⟧)")
C("en", "Checksum mismatch: expected ⟦~hex32⟧, got ⟦~hex32⟧ for chunk 17 of 42")
C("en", "Token count: 128000 context, 4096 max output; temperature=0.2 top_p=0.95")
C("en", "Matrix seed 1337; batch_size=64; lr=3e-4; warmup_steps=2000")
C("en", "UUIDv7 example from the RFC draft looks like 017f22e2-79b0-7cc3-98c4-dc0c0c07398f; ours are generated per request.")
C("en", "Sentry event ⟦~hex32⟧ grouped into issue API-⟦~n4⟧")
C("en", "Stripe price IDs are public: price_⟦~sid⟧ (monthly), price_⟦~sid⟧ (yearly)")
C("en", "Google Fonts: https://fonts.googleapis.com/css2?family=Inter:wght@400;600&display=swap")

# ---- placeholders, env references, redactions
C("en", "export OPENAI_API_KEY=<your-api-key>")
C("en", "DB_PASSWORD=${DB_PASSWORD:?must be set}")
C("en", "password: ${{ secrets.DB_PASSWORD }}")
C("en", "      - name: Publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n        run: npm publish")
C("en", "stripe.api_key = os.environ[\"STRIPE_SECRET_KEY\"]")
C("en", "const token = process.env.GITHUB_TOKEN ?? '';")
C("en", "PGPASSWORD=$(cat /run/secrets/db_password) psql -h db -U app -c 'select 1'")
C("en", "export VAULT_TOKEN=\"$(vault login -method=oidc -token-only)\"")
C("en", "kubectl get secret db-creds -o jsonpath='{.data.password}' | base64 -d")
C("en", "            - name: DB_PASSWORD\n              valueFrom:\n                secretKeyRef:\n                  name: db-creds\n                  key: password")
C("en", "DB_PASSWORD=********\nAPI_KEY=********")
C("en", "\"api_key\": \"[REDACTED]\",\n\"password\": \"[REDACTED]\"")
C("en", "Authorization: Bearer <redacted>")
C("en", "token=*** (masked by the runner)")
C("en", "OPENAI_API_KEY=sk-...  # paste yours here")
C("en", "Error: Incorrect API key provided: sk-proj-********************************. You can find your API key at https://platform.openai.com/account/api-keys.")
C("en", "{\n  \"username\": \"YOUR_USERNAME\",\n  \"password\": \"YOUR_PASSWORD\"\n}")
C("en", "aws_access_key_id = <ACCESS_KEY_ID>\naws_secret_access_key = <SECRET_ACCESS_KEY>")
C("en", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ")
C("en", "curl -H \"Authorization: Bearer $TOKEN\" https://api.github.com/user")
C("en", "{{ .Values.postgresql.auth.password | b64enc | quote }}")
C("en", "password = {{ vault_db_password }}")
C("en", "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  ...encrypted blob elided...")
C("en", "conn = psycopg2.connect(dsn=os.getenv(\"DATABASE_URL\"))")
C("en", "mysql -u root -p   # you will be prompted for the password")
C("en", "echo \"$CR_PAT\" | docker login ghcr.io -u USERNAME --password-stdin")
C("en", "git remote -v\norigin  https://github.com/tessera-labs/api.git (fetch)\norigin  https://github.com/tessera-labs/api.git (push)")
C("en", "git clone git@github.com:tessera-labs/api.git")
C("en", "postgresql://localhost:5432/app  (no credentials: peer auth)")
C("en", "REDIS_URL=redis://localhost:6379/0")
C("en", "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME")
C("en", "API docs: https://docs.stripe.com/keys#obtain-api-keys")
C("en", "See https://example.com/docs/auth for the token flow.")
C("en", "password = getpass.getpass(\"Password: \")")
C("en", "if len(password) < 12:\n    raise ValueError(\"password too short\")")
C("en", "hashed = argon2.PasswordHasher().hash(password)\nuser.password_hash = hashed")
C("en", "<input type=\"password\" name=\"password\" autocomplete=\"current-password\" required>")
C("en", "PasswordAuthentication no\nPubkeyAuthentication yes\nPermitRootLogin prohibit-password")
C("en", "Password policy: at least 12 characters, one digit, one symbol; rotate every 90 days.")
C("en", "PASSWORD_MIN_LENGTH=12\nPASSWORD_REQUIRE_SYMBOL=true\nSESSION_TTL_SECONDS=3600")
C("en", "The `password` field is required. The `token` field must be a string.")
C("en", "Rotate leaked token (old value revoked, see incident ⟦~jira⟧).")
C("en", "Never commit .env files; use git-secrets or gitleaks as a pre-commit hook.")
C("en", "Use `secrets.token_urlsafe(32)` to generate a new key; never reuse the staging one in prod.")
C("en", "We store only the SHA-256 of each API key, so a lost key cannot be recovered - issue a new one.")
C("en", "The reviewer asked to replace the hardcoded password with a Kubernetes secret reference. Done in ⟦~sha7⟧.")
C("en", "Assistant: I won't print the contents of .env. I checked that DB_PASSWORD and STRIPE_SECRET_KEY are set (both non-empty).")
C("en", "Tool output: 3 secrets found and redacted ([AWS_KEY], [GITHUB_TOKEN], [PASSWORD]).")
C("en", "forgot your password? click \"Reset password\" on the sign-in page and check your inbox.")
C("en", "The password reset link expires after 30 minutes.")
C("en", "2FA is enforced; recovery codes are shown once at enrollment.")
C("en", "WARNING: apt does not have a stable CLI interface. Use with caution in scripts.")
C("en", "FATAL:  password authentication failed for user \"app\"")
C("en", "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)")
C("en", "401 Unauthorized: {\"error\":\"invalid_token\",\"error_description\":\"The access token expired\"}")
C("en", "Hint: set PGSSLMODE=require when connecting from outside the VPC.")
C("de", "Passwort vergessen? Klicken Sie auf „Passwort zurücksetzen“.")
C("de", "Das Passwort muss mindestens 12 Zeichen lang sein.")
C("de", "Bitte niemals Zugangsdaten per E-Mail verschicken, nutzt den Passwortmanager.")
C("fr", "Mot de passe oublié ? Cliquez sur « Réinitialiser le mot de passe ».")
C("fr", "Le jeton a été révoqué, merci d'en générer un nouveau depuis la console.")
C("es", "¿Olvidaste tu contraseña? Haz clic en el enlace para restablecerla.")
C("es", "La contraseña debe tener al menos 12 caracteres y un símbolo.")
C("pt", "Esqueceu a senha? Use a opção \"Redefinir senha\".")
C("pt", "A chave de API fica no cofre; nunca cole no chat.")
C("it", "Hai dimenticato la password? Clicca su \"Reimposta password\".")
C("nl", "Wachtwoord vergeten? Klik op 'Wachtwoord opnieuw instellen'.")
C("pl", "Nie pamiętasz hasła? Kliknij „Resetuj hasło”.")
C("sv", "Glömt lösenordet? Klicka på \"Återställ lösenord\".")
C("fi", "Unohditko salasanasi? Valitse \"Nollaa salasana\".")
C("da", "Har du glemt din adgangskode? Klik på \"Nulstil adgangskode\".")
C("no", "Glemt passordet? Trykk på «Tilbakestill passord».")
C("tr", "Şifrenizi mi unuttunuz? \"Şifreyi sıfırla\" bağlantısına tıklayın.")
C("ru", "Забыли пароль? Нажмите «Сбросить пароль».")
C("uk", "Забули пароль? Натисніть «Скинути пароль».")
C("zh", "忘记密码？请点击\"重置密码\"。")
C("zh", "密钥已轮换，旧的令牌已失效。")
C("ja", "パスワードをお忘れですか？「パスワードをリセット」をクリックしてください。")
C("ja", "APIキーは環境変数から読み込んでください。ハードコードは禁止です。")
C("ko", "비밀번호를 잊으셨나요? '비밀번호 재설정'을 클릭하세요.")
C("hi", "पासवर्ड भूल गए? \"पासवर्ड रीसेट करें\" पर क्लिक करें।")
C("ar", "هل نسيت كلمة المرور؟ انقر على \"إعادة تعيين كلمة المرور\".")
C("he", "שכחת את הסיסמה? לחץ על \"איפוס סיסמה\".")
C("vi", "Quên mật khẩu? Nhấn \"Đặt lại mật khẩu\".")
C("id", "Lupa kata sandi? Klik \"Atur ulang kata sandi\".")
C("th", "ลืมรหัสผ่าน? คลิก \"รีเซ็ตรหัสผ่าน\"")
C("cs", "Zapomněli jste heslo? Klikněte na „Obnovit heslo“.")
C("ro", "Ați uitat parola? Apăsați „Resetează parola”.")
C("el", "Ξεχάσατε τον κωδικό; Πατήστε «Επαναφορά κωδικού».")
C("hu", "Elfelejtette a jelszavát? Kattintson a „Jelszó visszaállítása” gombra.")
C("ms", "Terlupa kata laluan? Klik \"Tetapkan semula kata laluan\".")
C("tl", "Nakalimutan ang password? I-click ang \"I-reset ang password\".")
C("sw", "Umesahau nenosiri? Bofya \"Weka upya nenosiri\".")

# ---- code review, logs, CI chatter without secrets
C("en", "LGTM. One nit: move the retry constants to settings.py and add a test for the 429 path.")
C("en", "Could you rebase on main? There's a conflict in poetry.lock after ⟦~sha7⟧.")
C("en", "The flaky test is test_upload_resumes_after_timeout; it fails about 1 in 40 runs on arm64.")
C("en", "2025-02-03T11:22:09.114Z INFO  worker: processed batch=⟦~n4⟧ items=500 elapsed=1.84s")
C("en", "[WARN] deprecated config key `auth.token_ttl`; use `auth.access_token_ttl` instead")
C("en", "tests/test_api.py::test_login_rejects_bad_password PASSED                [ 42%]")
C("en", "E   AssertionError: assert 401 == 200\nE    +  where 401 = <Response [401]>.status_code")
C("en", "Step 7/12 : RUN pip install --no-cache-dir -r requirements.txt\n ---> Running in ⟦~hex12⟧")
C("en", "Terraform will perform the following actions:\n  # aws_s3_bucket.logs will be created\n  + resource \"aws_s3_bucket\" \"logs\" {\n      + bucket = \"tessera-logs-prod\"\n      + id     = (known after apply)\n    }")
C("en", "  # random_password.db will be created\n  + resource \"random_password\" \"db\" {\n      + result  = (sensitive value)\n      + length  = 32\n      + special = true\n    }")
C("en", "Apply complete! Resources: 3 added, 0 changed, 0 destroyed.\n\nOutputs:\n\ndb_password = <sensitive>")
C("en", "helm upgrade api ./chart --set image.tag=⟦~sha7⟧ --set replicaCount=3 --atomic --timeout 5m")
C("en", "ansible-vault encrypt group_vars/prod/vault.yml\nEncryption successful")
C("en", "Created secret/db-creds (Opaque, 2 keys) in namespace prod")
C("en", "$ vault kv get -field=password secret/app/db\nError reading secret/app/db: permission denied")
C("en", "Warning: Identity file ~/.ssh/id_ed25519 not accessible: No such file or directory.")
C("en", "Generating public/private ed25519 key pair.\nYour identification has been saved in /home/ci/.ssh/id_ed25519\nYour public key has been saved in /home/ci/.ssh/id_ed25519.pub")
C("en", "The key's randomart image is:\n+--[ED25519 256]--+\n|      .o+=*o.    |\n|     . o.=+=     |\n+----[SHA256]-----+")
C("en", "Coverage: 87.4% (+0.6%) - 1,204 of 1,378 lines covered")
C("en", "Lighthouse: performance 94, accessibility 100, best practices 96, SEO 100")
C("de", "Review: Bitte die Konstante TIMEOUT_SECONDS in die Konfiguration verschieben, sonst passt alles.")
C("fr", "Le déploiement de la version ⟦~ver⟧ est terminé, aucune erreur dans les logs.")
C("es", "El pipeline falló en el paso de lint; ya lo arreglé en ⟦~sha7⟧.")
C("pt", "O build ⟦~n5⟧ passou, pode fazer o merge.")
C("it", "Ho aggiornato la dipendenza a ⟦~ver⟧, i test passano.")
C("ja", "ビルド番号 ⟦~n5⟧ は成功しました。マージして大丈夫です。")
C("zh", "已将版本升级到 ⟦~ver⟧，提交 ⟦~sha7⟧，测试全部通过。")
C("ko", "배포가 완료되었습니다. 커밋 ⟦~sha7⟧ 기준입니다.")
C("ru", "Сборка ⟦~n5⟧ упала на шаге тестов, смотрю логи.")
C("pl", "Build ⟦~n5⟧ przeszedł, można mergować.")
C("tr", "Sürüm ⟦~ver⟧ yayınlandı, değişiklik günlüğü README'de.")
C("nl", "De release ⟦~ver⟧ staat klaar; changelog is bijgewerkt.")
C("vi", "Đã sửa lỗi trong commit ⟦~sha7⟧, nhờ anh review giúp.")
C("id", "Pipeline gagal di tahap lint, sudah saya perbaiki di ⟦~sha7⟧.")
C("ar", "تم نشر الإصدار ⟦~ver⟧ بنجاح.")
C("hi", "बिल्ड ⟦~n5⟧ पास हो गया, मर्ज कर दो।")
C("uk", "Реліз ⟦~ver⟧ опубліковано, дякую всім.")
C("sv", "Bygget ⟦~n5⟧ gick igenom, mergea gärna.")
C("cs", "Verze ⟦~ver⟧ je venku, changelog je v README.")
C("el", "Η έκδοση ⟦~ver⟧ κυκλοφόρησε χωρίς σφάλματα.")
C("he", "הגרסה ⟦~ver⟧ שוחררה בהצלחה.")
C("th", "ปล่อยเวอร์ชัน ⟦~ver⟧ เรียบร้อยแล้ว")
C("hu", "A(z) ⟦~ver⟧ verzió kiadva, a tesztek zöldek.")
C("ro", "Versiunea ⟦~ver⟧ a fost publicată.")
C("fi", "Versio ⟦~ver⟧ on julkaistu.")
C("da", "Version ⟦~ver⟧ er udgivet.")
C("no", "Versjon ⟦~ver⟧ er publisert.")


# ================================================================ build

SLOT = re.compile(r"⟦(~?)([a-z0-9_]+)(?:\|([A-Za-z0-9_]*))?(?:#(\d+))?⟧")


def fill(template: str) -> tuple[str, list[str], list[str]]:
    canaries: list[str] = []
    kinds: list[str] = []
    memo: dict[tuple[str, str, str], str] = {}

    def sub(m: re.Match[str]) -> str:
        tilde, name, variant, tag = m.groups()
        if tilde:
            return FILL[name]()
        key = (name, variant or "", tag or "")
        if tag and key in memo:
            return memo[key]
        res = GEN[name](variant or "")
        ins, can = res if isinstance(res, tuple) else (res, res)
        canaries.append(can)
        kinds.append(name)
        if tag:
            memo[key] = ins
        return ins

    return SLOT.sub(sub, template), canaries, kinds


def valid(text: str, canaries: list[str]) -> bool:
    if "⟦" in text or "⟧" in text:
        raise ValueError(text)
    for c in canaries:
        if c not in text:
            return False
        if len(c) < 8 and text.count(c) != 1:
            return False
    return len(set(canaries)) == len(canaries)


def make_rows() -> tuple[list[dict], Counter]:
    rows: list[tuple[str, dict]] = []
    templates = [(lang, t, True) for lang, t in POS] + [(lang, t, False) for lang, t in CLEAN]
    for lang, template, positive in templates:
        for _ in range(50):
            text, canaries, kinds = fill(template)
            if valid(text, canaries):
                break
        else:
            raise RuntimeError(f"cannot fill: {template[:60]}")
        if positive != bool(canaries):
            raise ValueError(f"template in the wrong list: {template[:60]}")
        rows.append((lang, {"text": text, "canaries": canaries, "kinds": kinds}))
    R.shuffle(rows)
    return [r for _, r in rows], Counter(lang for lang, _ in rows)


def main() -> None:
    if len({t for _, t in POS} | {t for _, t in CLEAN}) != len(POS) + len(CLEAN):
        raise ValueError("duplicate template")
    rows, langs = make_rows()
    # --out DIR writes there instead (tests/test_privacy_corpus_regenerates.py), like the other generators
    out = Path(sys.argv[sys.argv.index("--out") + 1]) / OUT.name if "--out" in sys.argv else OUT
    with out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    pos = [r for r in rows if r["canaries"]]
    kinds = Counter(k for r in pos for k in r["kinds"])
    print(f"{OUT.name}: {len(pos)} positive rows, {sum(kinds.values())} values, {len(kinds)} kinds, "
          f"{len(rows) - len(pos)} clean rows, {len(langs)} languages, {len(POS) + len(CLEAN)} templates")


if __name__ == "__main__":
    main()
