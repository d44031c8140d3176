"""Write the fourth, blind held-out extension of the privacy corpus (heldout_world4.jsonl).

Why a fourth one: ``heldout_world3.jsonl`` stops being blind once its misses are read and fixed.
These rows were written by a session that read neither the detectors (``reverie/privacy/``) nor
any masker output: only the row format and the kind names of the earlier files. The file was
committed before the masker ran on it.

What it adds to the earlier worlds:

* personal data written by hand the many ways people type it (dots, dashes, spaces, parentheses,
  ``00`` and ``+`` prefixes, the ``(0)`` trunk digit, ``tel:`` links; e-mail addresses with
  ``+tags``, apostrophes, upper case, non-ASCII local parts, ``[at]``/``dot`` obfuscation and
  percent-encoding), not libphonenumber's canonical formats; several numbers per row in contact
  lists, CSV and JSON records;
* secrets in the newer token shapes providers document (GitLab runner and pipeline-trigger tokens,
  Slack app-level and rotating tokens, OpenAI project and service-account keys, Doppler service
  tokens, …) and in the containers they travel in: a GCP service-account JSON with ``\\n``
  escapes, PuTTY and OpenPGP key files, Kubernetes Secrets (base64 ``data`` and plain
  ``stringData``), whole ``.env`` blocks, ``.netrc``, ``.pgpass``, ``wpa_supplicant``, SQL Server
  connection strings, Spring datasource properties, ``curl -u``; passwords in prose in thirteen
  languages;
* national identifiers the corpus had not had, labelled in the ``<country>_<id>`` style of
  ``uk_nino``/``ca_sin``/``fr_nir``/``de_tax_id``: ``es_dni``, ``es_nie``, ``it_codice_fiscale``,
  ``nl_bsn``, ``br_cpf``;
* clean rows that look risky: digests, UUIDs/ULIDs, public keys and certificates, docs
  placeholders and redactions, base64 of non-secrets, numbers that fail the checksums they resemble.

Every value is drawn from a seeded ``random.Random`` in the shape its provider or authority
documents (each generator's docstring names the format); no value is a real credential. Every
check digit is computed here from the published algorithm (Luhn, ISO 13616 mod 97 and the national
BBAN checks of BE/ES/FR/IT/NL/NO/PT, Verhoeff, ISO 7064 MOD 11,10, the NIR key, the DNI letter, the
codice fiscale check letter, the BSN eleven-test, the CPF check digits). The generator uses the
standard library only; ``--check`` additionally validates every personal value with python-stdnum
and phonenumbers (the project's own dependencies), which checks the data, not the masker.

Run from the repository root: ``python tests/data/privacy/make_world4_corpus.py [--check] [--out DIR]``.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable

from values import ALNUM as AL
from values import B64STD as B64
from values import B64URL as URLSAFE
from values import (
    DG,
    HEX,
    LO,
    UP,
    dg,
    es_ccc,
    iban_of,
    id_aadhaar,
    id_dni,
    id_nie,
    id_nino,
    luhn_digit,
    luhn_valid,
    mod11_10,
    part,
    s_age,
    s_anthropic_with_admin,
    s_aws_id_even,
    s_aws_secret,
    s_azure_cs,
    s_cf_token,
    s_cratesio,
    s_databricks,
    s_datadog,
    s_dckr,
    s_elevenlabs,
    s_gapi,
    s_glsa,
    s_gocspx,
    s_groq,
    s_hf,
    s_langsmith,
    s_linear,
    s_npm,
    s_nrak,
    s_openai_with_admin,
    s_openrouter,
    s_postman,
    s_pplx,
    s_pulumi,
    s_replicate,
    s_sendgrid,
    s_sentry,
    s_slack_hook,
    s_supabase,
    s_tailscale,
    s_tfc,
    s_twilio,
    s_xai,
    s_xapp,
    verhoeff_valid,
    whole,
    write_jsonl,
)
from values import HEXU as HEXUP
from values import b64s as b64
from values import b64u as b64url
from values import group as grouped
from values import pick as rs
from values import uid as ruuid

Out = tuple[str, str, str]  # (value written into the text, canary substring of it, kind)
Gen = Callable[[random.Random], Out]

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CANARY_FIELD = re.compile(r"<<([a-z0-9_]+?)>>")
FILL_FIELD = re.compile(r"\{\{([a-z0-9_]+?)\}\}")

# Filled in while rows are built, for ``--check``: (kind, canary, detail), detail = phone region.
PERSONAL_LOG: list[tuple[str, str, str]] = []


# ---- secrets by provider (the format each documents) ------------------------------------------

def github_token(r: random.Random) -> str:
    """GitHub fine-grained PAT ``github_pat_`` 22 ``_`` 59; server-to-server ``ghs_``, refresh ``ghr_``,
    classic ``ghp_`` + 36."""
    if r.random() < 0.5:
        return "github_pat_11" + rs(r, 20, UP + DG) + "_" + rs(r, 59)
    return r.choice(["ghs_", "ghr_", "ghp_"]) + rs(r, 36)


def gitlab_token(r: random.Random) -> str:
    """GitLab: PAT ``glpat-`` + 20, runner auth ``glrt-`` + 20, deploy ``gldt-`` + 20,
    pipeline trigger ``glptt-`` + 40 hex."""
    kind = r.choice(["glpat", "glrt", "gldt", "glptt"])
    if kind == "glptt":
        return "glptt-" + rs(r, 40, HEX)
    return f"{kind}-" + rs(r, 20, URLSAFE)


def slack_bot(r: random.Random) -> str:
    """Slack bot token ``xoxb-`` team-id digits, bot-id digits, 24 alphanumerics."""
    return f"xoxb-{rs(r, 11, DG)}-{rs(r, 13, DG)}-{rs(r, 24)}"


def slack_user(r: random.Random) -> str:
    """Slack user token ``xoxp-`` or a rotating ``xoxe.xoxp-1-`` token."""
    if r.random() < 0.5:
        return f"xoxp-{rs(r, 12, DG)}-{rs(r, 12, DG)}-{rs(r, 13, DG)}-{rs(r, 32, HEX)}"
    return "xoxe.xoxp-1-" + rs(r, 140, URLSAFE)


def stripe_key(r: random.Random) -> str:
    """Stripe restricted ``rk_live_`` and secret ``sk_live_`` keys: ``51`` + account part, 99 in all."""
    return r.choice(["rk_live_", "rk_live_", "sk_live_"]) + "51" + rs(r, 97)


def twilio_account_sid(r: random.Random) -> str:
    """Twilio account SID ``AC`` + 32 hex (an identifier, not itself secret)."""
    return "AC" + rs(r, 32, HEX)


def pypi_token(r: random.Random) -> str:
    """PyPI API token: ``pypi-`` + a base64url macaroon whose first bytes encode the location
    ``pypi.org`` (``AgEIcHlwaS5vcmc``) or ``test.pypi.org`` (``AgENdGVzdC5weXBpLm9yZw``)."""
    location = r.choice([b"pypi.org", b"pypi.org", b"test.pypi.org"])
    raw = b"\x02\x01" + bytes([len(location)]) + location + b"\x02\x24" + ruuid(r).encode() + b"\x00\x02\x2a" + r.randbytes(120)
    return "pypi-" + b64url(raw)


def digitalocean_token(r: random.Random) -> str:
    """DigitalOcean personal ``dop_v1_``, OAuth ``doo_v1_`` and refresh ``dor_v1_`` tokens + 64 hex."""
    return r.choice(["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"]) + rs(r, 64, HEX)


def doppler_token(r: random.Random) -> str:
    """Doppler personal ``dp.pt.`` + 43, service ``dp.st.<config>.`` + 40, service account ``dp.sa.`` + 43."""
    kind = r.choice(["pt", "st", "sa"])
    if kind == "st":
        return f"dp.st.{r.choice(['prd', 'stg', 'dev_ci'])}." + rs(r, 40)
    return f"dp.{kind}." + rs(r, 43)


def azure_storage_key(r: random.Random) -> tuple[str, str]:
    """Azure Storage connection string; the 64-byte AccountKey (88 base64 characters) is the secret."""
    key = b64(r.randbytes(64))
    account = "st" + rs(r, 10, LO + DG)
    return (f"DefaultEndpointsProtocol=https;AccountName={account};AccountKey={key};"
            f"EndpointSuffix=core.windows.net"), key


def azure_sas_token(r: random.Random) -> tuple[str, str]:
    """Azure SAS URL; the ``sig`` (HMAC-SHA256, base64, percent-encoded) is the secret."""
    sig = b64(r.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    return (f"https://{rs(r, 8, LO)}backup.blob.core.windows.net/db-dumps/nightly.bak"
            f"?sp=r&st=2025-03-01T09:00:00Z&se=2025-03-08T09:00:00Z&spr=https&sv=2022-11-02&sr=b&sig={sig}"), sig


def vault_token(r: random.Random) -> str:
    """HashiCorp Vault service token ``hvs.`` + ~90 characters, or batch token ``hvb.``."""
    return r.choice(["hvs.", "hvs.", "hvb."]) + "CAESI" + rs(r, 86, URLSAFE)




def shopify_token(r: random.Random) -> str:
    """Shopify admin API access token ``shpat_`` / custom app ``shpca_`` + 32 hex."""
    return r.choice(["shpat_", "shpca_"]) + rs(r, 32, HEX)




def atlassian_token(r: random.Random) -> str:
    """Atlassian API token ``ATATT3xFfGF0`` + base64url body, ``=`` and an 8-hex checksum (192 in all)."""
    return "ATATT3xFfGF0" + rs(r, 171, URLSAFE) + "=" + rs(r, 8, HEXUP)


def notion_token(r: random.Random) -> str:
    """Notion integration token: ``ntn_`` + 46 (since 2024) or legacy ``secret_`` + 43."""
    if r.random() < 0.6:
        return "ntn_" + rs(r, 11, DG) + rs(r, 35)
    return "secret_" + rs(r, 43)






def onepassword_token(r: random.Random) -> str:
    """1Password service-account token ``ops_`` + base64(JSON), starting ``ops_eyJ``."""
    payload = json.dumps({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
                          "iterations": 650000, "salt": b64url(r.randbytes(16))},
                          "email": f"{rs(r, 12, LO)}@1passwordserviceaccounts.com",
                          "srpX": rs(r, 64, HEX), "muk": {"alg": "A256GCM", "ext": True, "k": b64url(r.randbytes(32))}},
                         separators=(",", ":"))
    return "ops_" + b64url(payload.encode())


















def flyio_token(r: random.Random) -> str:
    """Fly.io macaroon token ``FlyV1 fm2_`` + base64 (tokens come with the ``FlyV1`` scheme)."""
    return "FlyV1 fm2_" + b64(r.randbytes(180)).rstrip("=") + ",fm2_" + b64(r.randbytes(60)).rstrip("=")




def teams_webhook(r: random.Random) -> tuple[str, str]:
    """Power Automate Workflows URL for Teams; the ``sig`` query value is the secret."""
    sig = rs(r, 43, URLSAFE)
    return (f"https://prod-{r.randint(10, 99)}.westeurope.logic.azure.com:443"
            f"/workflows/{rs(r, 32, HEX)}/triggers/manual/paths/invoke"
            f"?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={sig}"), sig


# ---- generic secrets: JWT, keys, URLs, passwords -----------------------------------------------

def jwt(r: random.Random) -> str:
    """RFC 7519 compact JWS: base64url(header).base64url(claims).base64url(signature)."""
    alg = r.choice(["HS256", "ES256", "RS256"])
    header = b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": str(r.randint(10**5, 10**7)), "role": r.choice(["service_role", "admin", "user"]),
              "iat": 1735689600 + r.randrange(10**7)}
    claims["exp"] = claims["iat"] + 3600
    body = b64url(json.dumps(claims, separators=(",", ":")).encode())
    sig = r.randbytes({"HS256": 32, "ES256": 64, "RS256": 256}[alg])
    return f"{header}.{body}.{b64url(sig)}"


PEM_LEADS = {
    # label → DER prefix of that structure (so the body starts as real keys do)
    "RSA PRIVATE KEY": bytes.fromhex("308204a40201000282010100"),
    "PRIVATE KEY": bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7"),
    "EC PRIVATE KEY": bytes.fromhex("307702010104"),
    "ENCRYPTED PRIVATE KEY": bytes.fromhex("3082051c304e06092a864886f70d01050d3041"),
    "OPENSSH PRIVATE KEY": b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none",
}


def pem_body(r: random.Random, label: str, size: int = 300) -> list[str]:
    body = b64(PEM_LEADS[label] + r.randbytes(size))
    width = 70 if label == "OPENSSH PRIVATE KEY" else 64
    return [body[i:i + width] for i in range(0, len(body), width)]


def pem_private_key(r: random.Random) -> tuple[str, str]:
    """RFC 7468 armoured private key (PKCS#1, PKCS#8, SEC1, encrypted PKCS#8, OpenSSH); the first
    two body lines are the canary."""
    label = r.choice(list(PEM_LEADS))
    lines = pem_body(r, label)
    text = f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"
    return text, "\n".join(lines[:2])


def gcp_private_key(r: random.Random) -> tuple[str, str]:
    """The ``private_key`` of a GCP service-account JSON: PKCS#8 PEM with ``\\n`` escapes inside a
    JSON string; the first body line is the canary."""
    lines = pem_body(r, "PRIVATE KEY", 1180)
    value = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(lines[:6]) + "\\n"
    return value, lines[0]


def putty_private_key(r: random.Random) -> tuple[str, str]:
    """PuTTY .ppk (PPK3) file: the ``Private-Lines`` base64 is the secret (first line = canary)."""
    public = b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32))
    private = b64(b"\x00\x00\x00\x20" + r.randbytes(32) + r.randbytes(12))
    text = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20250114\n"
            f"Public-Lines: 2\n{public[:64]}\n{public[64:]}\nPrivate-Lines: 1\n{private}\n"
            f"Private-MAC: {rs(r, 64, HEX)}")
    return text, private


def pgp_private_key(r: random.Random) -> tuple[str, str]:
    """OpenPGP transferable secret key (RFC 4880 ASCII armour); first body line = canary."""
    body = b64(b"\x95\x01\xd8\x04" + r.randbytes(420))
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    text = ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(lines[:6]) + "\n=" + rs(r, 4, B64)
            + "\n-----END PGP PRIVATE KEY BLOCK-----")
    return text, lines[0]


WORDS = ["maple", "orbit", "lantern", "quartz", "harbor", "velvet", "cactus", "ember", "glacier", "nimbus",
         "pepper", "saffron", "tundra", "violet", "walnut", "zephyr", "copper", "meadow", "falcon", "juniper"]
PW_WORDS = ["Frühling", "Kastanie", "Bergamote", "Papillon", "Girasol", "Mariposa", "Tramonto", "Ruiseñor",
            "Sneeuwklok", "Jaguar", "Ostrava", "Lighthouse", "Wombat", "Cerezo", "Korsika"]


def password_value(r: random.Random) -> str:
    """Passwords as people and tools choose them: word+digits+symbol, diceware passphrases,
    generated random strings, l33t variants."""
    style = r.randrange(4)
    if style == 0:
        return r.choice(PW_WORDS) + rs(r, r.choice([2, 4]), DG) + r.choice("!#$%&*+?@") + rs(r, 3, AL)
    if style == 1:
        sep = r.choice(["-", ".", "_"])
        return sep.join(r.sample(WORDS, 4)) + sep + rs(r, 2, DG)
    if style == 2:
        return rs(r, r.choice([16, 20, 24]), AL + "!#%+=@^")
    word = r.choice(WORDS)
    return word[0].upper() + word[1:].replace("a", "4").replace("e", "3").replace("o", "0") + rs(r, 3, DG) + r.choice("!?$")


def url_password(r: random.Random) -> str:
    """A password that can sit in a URL's userinfo without escaping."""
    return rs(r, r.choice([14, 18, 22]), AL + "-_.~")


# ---- personal data: national formats, hand-written ---------------------------------------------

def nz(r: random.Random) -> str:
    return r.choice("23456789")


def nanp(r: random.Random, areas: list[str]) -> tuple[str, str, str]:
    """A NANP number: area code from ``areas``, exchange NXX (not N11, not 555), line 4 digits."""
    while True:
        exch = nz(r) + dg(r, 2)
        if exch[1:] != "11" and exch != "555" and exch[:2] != "95":
            return r.choice(areas), exch, dg(r, 4)


def fr_mobile(r: random.Random) -> str:
    """The nine digits after the trunk 0 of a metropolitan French mobile: 06 (not 063x/069x, which
    are overseas) or 073-079 (ARCEP plan)."""
    return "6" + r.choice("1245678") + dg(r, 7) if r.random() < 0.6 else "7" + r.choice("3456789") + dg(r, 7)


GB_MOBILE = ["40", "71", "72", "73", "75", "90", "95"]  # 07xx blocks Ofcom has allocated to mobiles
US_AREAS = ["212", "415", "312", "617", "206", "512", "303", "404", "646", "718", "919", "702", "503", "773"]
CA_AREAS = ["416", "604", "514", "403", "613", "647"]

# key → (ISO region of the number, maker). The maker writes the number as a person would.
PHONES: dict[str, tuple[str, Callable[[random.Random], str]]] = {
    "us_paren": ("US", lambda r: "({}) {}-{}".format(*nanp(r, US_AREAS))),
    "us_dots": ("US", lambda r: "{}.{}.{}".format(*nanp(r, US_AREAS))),
    "us_one_paren": ("US", lambda r: "1 ({}) {} {}".format(*nanp(r, US_AREAS))),
    "ca_dash": ("CA", lambda r: "{}-{}-{}".format(*nanp(r, CA_AREAS))),
    "ca_plus_dots": ("CA", lambda r: "+1.{}.{}.{}".format(*nanp(r, CA_AREAS))),
    "mx_plus": ("MX", lambda r: f"+52 55 {dg(r, 4)} {dg(r, 4)}"),
    "br_paren": ("BR", lambda r: f"({r.choice(['11', '21', '31', '41'])}) 9{r.choice('6789')}{dg(r, 3)}-{dg(r, 4)}"),
    "br_plus": ("BR", lambda r: f"+55 {r.choice(['11', '21', '51'])} 9{r.choice('6789')}{dg(r, 3)}-{dg(r, 4)}"),
    "ar_plus": ("AR", lambda r: f"+54 9 11 {r.choice('2345')}{dg(r, 3)}-{dg(r, 4)}"),
    "gb_mobile": ("GB", lambda r: f"07{r.choice(GB_MOBILE)}{dg(r, 1)} {dg(r, 6)}"),
    "gb_plus_zero": ("GB", lambda r: f"+44 (0)20 {r.choice('378')}{dg(r, 3)} {dg(r, 4)}"),
    "gb_manchester": ("GB", lambda r: f"0161 {nz(r)}{dg(r, 2)} {dg(r, 4)}"),
    "gb_0044": ("GB", lambda r: f"0044 7{r.choice(GB_MOBILE)}{dg(r, 1)} {dg(r, 3)} {dg(r, 3)}"),
    "ie_plus": ("IE", lambda r: f"+353 (0)8{r.choice('3567')} {nz(r)}{dg(r, 6)}"),
    "fr_dots": ("FR", lambda r: "0" + grouped(fr_mobile(r), [1, 2, 2, 2, 2], ".")),
    "fr_plus": ("FR", lambda r: "+33 " + grouped(fr_mobile(r), [1, 2, 2, 2, 2])),
    "fr_paris_zero": ("FR", lambda r: f"+33 (0)1 4{dg(r, 1)} {dg(r, 2)} {dg(r, 2)} {dg(r, 2)}"),
    "de_mobile_slash": ("DE", lambda r: f"0{r.choice(['151', '157', '176'])}/{dg(r, 8)}"),
    "de_plus_mobile": ("DE", lambda r: f"+49 {r.choice(['162', '172', '175'])} {dg(r, 7)}"),
    "de_fixed_dash": ("DE", lambda r: f"0{r.choice(['30', '40', '89', '221', '69'])}-{nz(r)}{dg(r, 6)}"),
    "de_plus_zero": ("DE", lambda r: f"+49 (0)30 {nz(r)}{dg(r, 3)} {dg(r, 4)}"),
    "at_mobile": ("AT", lambda r: f"0664 {dg(r, 3)} {dg(r, 4)}"),
    "ch_plus": ("CH", lambda r: f"+41 {r.choice(['44', '43', '22', '31'])} {nz(r)}{dg(r, 2)} {dg(r, 2)} {dg(r, 2)}"),
    "ch_0041": ("CH", lambda r: f"0041 7{r.choice('6789')} {dg(r, 3)} {dg(r, 2)} {dg(r, 2)}"),
    "nl_mobile_dash": ("NL", lambda r: f"06-{r.choice('12345')}{dg(r, 7)}"),
    "be_mobile": ("BE", lambda r: f"04{r.choice('789')}{dg(r, 1)} {dg(r, 2)} {dg(r, 2)} {dg(r, 2)}"),
    "be_plus_brussels": ("BE", lambda r: f"+32 2 {r.choice('234567')}{dg(r, 2)} {dg(r, 2)} {dg(r, 2)}"),
    "es_mobile": ("ES", lambda r: f"6{dg(r, 2)} {dg(r, 2)} {dg(r, 2)} {dg(r, 2)}"),
    "es_plus_madrid": ("ES", lambda r: f"+34 91{nz(r)} {dg(r, 3)} {dg(r, 3)}"),
    "pt_mobile": ("PT", lambda r: f"9{r.choice('1236')}{dg(r, 1)} {dg(r, 3)} {dg(r, 3)}"),
    "it_mobile": ("IT", lambda r: f"3{r.choice(['33', '47', '28', '39', '40'])} {dg(r, 3)} {dg(r, 4)}"),
    "it_plus_rome": ("IT", lambda r: f"+39 06 {r.choice('2345')}{dg(r, 3)} {dg(r, 4)}"),
    "pl_dashes": ("PL", lambda r: f"{r.choice(['50', '51', '53', '57', '60', '66', '69', '72', '78', '79', '88'])}"
                                  f"{dg(r, 1)}-{dg(r, 3)}-{dg(r, 3)}"),
    "se_mobile": ("SE", lambda r: f"07{r.choice('0236')}-{dg(r, 3)} {dg(r, 2)} {dg(r, 2)}"),
    "no_plus": ("NO", lambda r: f"+47 {r.choice(['40', '41', '46', '47', '48', '90', '92', '95', '98'])}"
                                f"{dg(r, 1)} {dg(r, 2)} {dg(r, 3)}"),
    "dk_plus": ("DK", lambda r: f"+45 {r.choice(['20', '30', '40', '50', '60'])} {nz(r)}{dg(r, 1)} {dg(r, 2)} {dg(r, 2)}"),
    "fi_mobile": ("FI", lambda r: f"04{r.choice('0145')} {dg(r, 3)} {dg(r, 4)}"),
    "cz_plus": ("CZ", lambda r: f"+420 {r.choice(['601', '602', '603', '731', '777'])} {dg(r, 3)} {dg(r, 3)}"),
    "jp_mobile": ("JP", lambda r: f"0{r.choice('789')}0-{nz(r)}{dg(r, 3)}-{dg(r, 4)}"),
    "jp_plus_tokyo": ("JP", lambda r: f"+81 3-{nz(r)}{dg(r, 3)}-{dg(r, 4)}"),
    "kr_mobile": ("KR", lambda r: f"010-{r.choice('2346789')}{dg(r, 3)}-{dg(r, 4)}"),
    "cn_plus": ("CN", lambda r: f"+86 1{r.choice(['39', '38', '86', '58', '77'])} {dg(r, 4)} {dg(r, 4)}"),
    "in_plus_dash": ("IN", lambda r: f"+91-{r.choice('6789')}{dg(r, 4)}-{dg(r, 5)}"),
    "in_mumbai": ("IN", lambda r: f"022 {r.choice('2456')}{dg(r, 3)} {dg(r, 4)}"),
    "au_mobile": ("AU", lambda r: f"04{r.choice('0123')}{dg(r, 1)} {dg(r, 3)} {dg(r, 3)}"),
    "au_paren": ("AU", lambda r: f"(02) 9{dg(r, 3)} {dg(r, 4)}"),
    "nz_plus": ("NZ", lambda r: f"+64 21 {dg(r, 3)} {dg(r, 4)}"),
    "za_mobile": ("ZA", lambda r: f"0{r.choice(['82', '83', '72', '76'])} {dg(r, 3)} {dg(r, 4)}"),
    "ng_plus": ("NG", lambda r: f"+234 {r.choice(['803', '806', '813', '703'])} {dg(r, 3)} {dg(r, 4)}"),
    "ke_mobile": ("KE", lambda r: f"07{r.choice(['12', '22', '20', '11'])} {dg(r, 6)}"),
    "tr_mobile": ("TR", lambda r: f"0 (5{r.choice(['32', '33', '42', '05'])}) {dg(r, 3)} {dg(r, 2)} {dg(r, 2)}"),
    "il_plus": ("IL", lambda r: f"+972-5{r.choice('0234')}-{nz(r)}{dg(r, 2)}-{dg(r, 4)}"),
    "ae_plus": ("AE", lambda r: f"+971 5{r.choice('0256')} {dg(r, 3)} {dg(r, 4)}"),
    "sg_plus": ("SG", lambda r: f"+65 {r.choice('89')}{r.choice('12345678')}{dg(r, 2)} {dg(r, 4)}"),
    "hk_plus": ("HK", lambda r: f"+852 {r.choice(['61', '63', '64', '65', '69', '94', '96', '97'])}{dg(r, 2)} {dg(r, 4)}"),
    "ph_mobile": ("PH", lambda r: f"09{r.choice(['17', '18', '27', '99'])}-{dg(r, 3)}-{dg(r, 4)}"),
    "id_mobile": ("ID", lambda r: f"0812-{dg(r, 4)}-{dg(r, 4)}"),
    "ru_plus": ("RU", lambda r: f"+7 (9{r.choice(['12', '16', '26', '85'])}) {dg(r, 3)}-{dg(r, 2)}-{dg(r, 2)}"),
    "eg_plus": ("EG", lambda r: f"+20 1{r.choice('0125')} {dg(r, 4)} {dg(r, 4)}"),
}


def phone(key: str) -> Gen:
    region, make = PHONES[key]

    def gen(r: random.Random) -> Out:
        value = make(r)
        PERSONAL_LOG.append(("phone", value, region))
        return value, value, "phone"

    return gen


def tel_link(r: random.Random) -> Out:
    """RFC 3966 ``tel:`` URI in an HTML link; the number is the datum."""
    region = r.choice(["NL", "FR"])
    number = "+316" + r.choice("12345") + dg(r, 7) if region == "NL" else "+33" + fr_mobile(r)
    PERSONAL_LOG.append(("phone", number, region))
    return f'<a href="tel:{number}">call me</a>', number, "phone"


FIRST = ["Amélie", "Siobhan", "Joaquín", "Yuki", "Oluwaseun", "Priya", "Björn", "Zofia", "Mateus", "Aoife",
         "Chidi", "Ingrid", "Rafael", "Mei", "Tomasz", "Leilani", "Dmitri", "Fatima", "Hugo", "Noor"]
LAST = ["O'Sullivan", "van der Berg", "Nakamura", "Adeyemi", "Krishnan", "Lindqvist", "Kowalczyk", "Ferreira",
        "Ní Bhriain", "Okafor", "Sørensen", "Castellanos", "Zhang", "Dubois", "Haddad", "Moreau", "Schulte-Ebbert"]
DOMAINS = ["gmail.com", "outlook.com", "web.de", "gmx.net", "proton.me", "icloud.com", "yahoo.co.jp", "orange.fr",
           "libero.it", "hotmail.co.uk", "uol.com.br", "mail.ru", "kanzlei-ebbert.de", "stud.uni-heidelberg.de",
           "physio-amsterdam.nl", "bakery.coffee", "fastmail.fm"]


def ascii_fold(s: str) -> str:
    table = str.maketrans("éíóúáñöøåäüßçłÍ", "eiouanooaausclI")
    return re.sub(r"[^a-z0-9'.-]", "", s.lower().translate(table).replace(" ", ""))


def email_value(r: random.Random, style: str) -> str:
    """An e-mail address in the many ways people write them."""
    first, last = ascii_fold(r.choice(FIRST)), ascii_fold(r.choice(LAST))
    dom = r.choice(DOMAINS)
    if style == "plus":
        return f"{first}.{last}+{r.choice(['invoices', 'github', 'news', 'dev2'])}@{dom}"
    if style == "upper":
        return f"{first}.{last}@{dom}".upper()
    if style == "apostrophe":
        return f"{first}.o'{r.choice(['brien', 'connor', 'neill'])}@{r.choice(['eircom.net', 'gmail.com'])}"
    if style == "unicode":
        return f"{r.choice(['zoë', 'jürgen', 'françois', 'søren'])}.{last}@{r.choice(['posteo.de', 'laposte.net'])}"
    if style == "at_bracket":
        return f"{first}.{last} [at] {dom.rsplit('.', 1)[0]} [dot] {dom.rsplit('.', 1)[1]}"
    if style == "at_words":
        return f"{first} dot {last} at gmail dot com"
    if style == "percent":
        return f"{first}.{last}%40{dom}"
    if style == "newtld":
        return f"{first}@{last.replace(chr(39), '')}.{r.choice(['photography', 'studio', 'dev', 'berlin'])}"
    return f"{first}{last[0]}{dg(r, 2)}@{dom}"


def email(style: str) -> Gen:
    def gen(r: random.Random) -> Out:
        value = email_value(r, style)
        PERSONAL_LOG.append(("email", value, style))
        return value, value, "email"

    return gen


def mailto(r: random.Random) -> Out:
    value = email_value(r, "plain")
    PERSONAL_LOG.append(("email", value, "mailto"))
    return f"[write to me](mailto:{value}?subject=Quote)", value, "email"


CARD_BRANDS = {
    # brand → (prefix choices, length, grouping)
    "visa": (["4"], 16, [4, 4, 4, 4]),
    "mastercard": (["51", "53", "55", "2221", "2720", "2500"], 16, [4, 4, 4, 4]),
    "amex": (["34", "37"], 15, [4, 6, 5]),
    "jcb": (["3528", "3566", "3589"], 16, [4, 4, 4, 4]),
    "diners": (["36", "300", "305"], 14, [4, 6, 4]),
    "unionpay19": (["62"], 19, [4, 4, 4, 4, 3]),
}


def card(brand: str, sep: str) -> Gen:
    """A card number of ``brand`` (IIN range, length) with a Luhn check digit, grouped by ``sep``."""
    prefixes, length, groups = CARD_BRANDS[brand]

    def gen(r: random.Random) -> Out:
        while True:
            prefix = r.choice(prefixes)
            payload = prefix + dg(r, length - len(prefix) - 1)
            number = payload + luhn_digit(payload)
            if len(set(number[len(prefix):])) > 3:
                break
        value = grouped(number, groups, sep) if sep != "none" else number
        PERSONAL_LOG.append(("card_number", value, brand))
        return value, value, "card_number"

    return gen


IT_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                  [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8,
                   12, 14, 16, 10, 22, 25, 24, 23], strict=True))


def it_cin(abi: str, cab: str, account: str) -> str:
    """The Italian BBAN check letter (CIN) over ABI + CAB + account: odd/even position tables."""
    s = abi + cab + account
    total = 0
    for i, ch in enumerate(s):
        if i % 2 == 0:
            total += IT_ODD[ch]
        else:
            total += int(ch) if ch.isdigit() else ord(ch) - 65
    return UP[total % 26]


def bban(r: random.Random, country: str) -> str:
    """A BBAN in the country's registry format, with the national check digits where there are any."""
    if country == "DE":
        return r.choice(["10070000", "20050550", "37040044", "50010517", "70150000", "43060967"]) + dg(r, 10)
    if country == "AT":
        return r.choice(["12000", "20111", "32000", "14000"]) + dg(r, 11)
    if country == "CH":
        return r.choice(["00762", "00235", "80808", "09000"]) + dg(r, 12)
    if country == "FR":
        bank, branch, account = r.choice(["30004", "30003", "20041", "10278"]), dg(r, 5), dg(r, 11)
        key = 97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97
        return f"{bank}{branch}{account}{key:02d}"
    if country == "ES":
        bank, branch, account = r.choice(["2100", "0049", "0182", "2085", "0081"]), dg(r, 4), dg(r, 10)
        return bank + branch + es_ccc("00" + bank + branch) + es_ccc(account) + account
    if country == "IT":
        abi, cab, account = r.choice(["03069", "02008", "05034", "01030"]), dg(r, 5), dg(r, 12)
        return it_cin(abi, cab, account) + abi + cab + account
    if country == "NL":
        while True:
            account = r.choice("123456789") + dg(r, 9)
            if sum(int(d) * (10 - i) for i, d in enumerate(account)) % 11 == 0:
                return r.choice(["ABNA", "RABO", "INGB", "TRIO", "KNAB", "BUNQ"]) + account
    if country == "BE":
        first = r.choice(["001", "068", "310", "363", "735"]) + dg(r, 7)
        check = int(first) % 97 or 97
        return f"{first}{check:02d}"
    if country == "GB":
        return r.choice(["NWBK", "BARC", "LOYD", "HBUK", "MIDL"]) + dg(r, 6) + dg(r, 8)
    if country == "IE":
        return r.choice(["AIBK", "BOFI"]) + r.choice(["931152", "900017", "933114"]) + dg(r, 8)
    if country == "PT":
        nib = r.choice(["0035", "0033", "0007"]) + dg(r, 4) + dg(r, 11)
        check = 98 - int(nib + "00") % 97
        return f"{nib}{check:02d}"
    if country == "NO":
        while True:
            payload = r.choice(["1503", "8601", "6063"]) + dg(r, 6)
            rest = sum(int(d) * w for d, w in zip(payload, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=True)) % 11
            if rest != 1:
                return payload + str((11 - rest) % 11)
    if country == "PL":
        return r.choice(["10901014", "11402004", "10203541", "11602202"]) + dg(r, 16)
    if country == "SE":
        return r.choice(["500", "800", "300", "600"]) + dg(r, 17)
    if country == "DK":
        return r.choice(["3000", "5301", "1551"]) + dg(r, 10)
    if country == "LU":
        return r.choice(["001", "019", "002"]) + dg(r, 13)
    if country == "HR":
        return r.choice(["2484008", "2402006", "2340009"]) + dg(r, 10)
    if country == "GR":
        return r.choice(["011", "017", "026"]) + dg(r, 4) + dg(r, 16)
    if country == "RO":
        return r.choice(["BTRL", "RNCB", "BRDE"]) + dg(r, 16)
    if country == "TR":
        return r.choice(["00062", "00010", "00046"]) + "0" + dg(r, 16)
    if country == "SA":
        return r.choice(["80", "10", "45"]) + dg(r, 18)
    if country == "AE":
        return r.choice(["033", "026", "035"]) + dg(r, 16)
    if country == "BR":
        return r.choice(["00360305", "60701190"]) + dg(r, 5) + dg(r, 10) + "C" + r.choice("12")
    raise KeyError(country)


IBAN_COUNTRIES = ["DE", "AT", "CH", "FR", "ES", "IT", "NL", "BE", "GB", "IE", "PT", "NO", "PL", "SE", "DK", "LU",
                  "HR", "GR", "RO", "TR", "SA", "AE", "BR"]


def iban(country: str, style: str) -> Gen:
    """An IBAN (ISO 13616 mod-97 check digits over a registry-format BBAN), electronic or paper form."""
    def gen(r: random.Random) -> Out:
        value = iban_of(country, bban(r, country))
        if style == "paper":
            value = " ".join(value[i:i + 4] for i in range(0, len(value), 4))
        PERSONAL_LOG.append(("iban", value, country))
        return value, value, "iban"

    return gen


def ssn_value(r: random.Random) -> str:
    """US SSN: area 001-665/667-899, group 01-99, serial 0001-9999 (SSA's never-issued rules)."""
    while True:
        area = r.randint(1, 899)
        if area == 666:
            continue
        digits = f"{area:03d}{r.randint(1, 99):02d}{r.randint(1, 9999):04d}"
        if digits not in {"078051120", "219099999", "457555462"}:
            return digits


NINO_FIRST = "ABCEGHJKLMNOPRSTWXYZ"
NINO_SECOND = "ABCEGHJKLMNPRSTWXYZ"


def ca_sin_value(r: random.Random) -> str:
    """Canadian SIN: nine digits, first 1-7 (province of registration) or 9, Luhn check digit."""
    payload = r.choice("12345679") + dg(r, 7)
    return payload + luhn_digit(payload)


def fr_nir_value(r: random.Random) -> str:
    """French NIR: sex, year, month, département (incl. 2A/2B), commune, order, key = 97 - n mod 97
    (Corsica counts 2A as 19, 2B as 18)."""
    sex = r.choice("12")
    year, month = f"{r.randint(50, 99):02d}", f"{r.randint(1, 12):02d}"
    dept = r.choice(["75", "69", "13", "33", "59", "2A", "2B", "44", "67"])
    commune, order = f"{r.randint(1, 400):03d}", f"{r.randint(1, 999):03d}"
    body = sex + year + month + dept + commune + order
    numeric = body.replace("2A", "19").replace("2B", "18")
    key = 97 - int(numeric) % 97
    return f"{body}{key:02d}"


def de_tax_id_value(r: random.Random) -> str:
    """German Steuer-IdNr: 11 digits, first not 0; in the first ten one digit occurs twice (the
    others at most once); ISO 7064 MOD 11,10 check digit."""
    while True:
        digits = r.sample(DG, 9)
        digits.append(r.choice(digits))
        r.shuffle(digits)
        payload = "".join(digits)
        if payload[0] != "0":
            return payload + mod11_10(payload)


CF_MONTHS = "ABCDEHLMPRST"
CF_PLACES = ["H501", "F205", "L219", "F839", "G273", "A944", "D612", "L736", "C351", "B157"]


def cf_part(name: str, is_first: bool) -> str:
    cons = [c for c in name if c in "BCDFGHJKLMNPQRSTVWXYZ"]
    vows = [c for c in name if c in "AEIOU"]
    if is_first and len(cons) >= 4:
        cons = [cons[0], cons[2], cons[3]]
    return "".join((cons + vows + ["X", "X", "X"])[:3])


def it_cf_value(r: random.Random) -> str:
    """Italian codice fiscale: surname and name codes, year, month letter, day (+40 for women),
    Belfiore place code, and the check letter from the odd/even tables."""
    surname = r.choice(["ROSSI", "ESPOSITO", "BIANCHI", "COLOMBO", "RICCI", "MARINO", "GRECO", "BRUNO", "GALLO", "CONTI"])
    first = r.choice(["GIULIA", "MARCO", "FRANCESCA", "LORENZO", "CHIARA", "ALESSANDRO", "SOFIA", "MATTEO"])
    female = first in {"GIULIA", "FRANCESCA", "CHIARA", "SOFIA"}
    day = r.randint(1, 28) + (40 if female else 0)
    body = (cf_part(surname, False) + cf_part(first, True) + f"{r.randint(50, 99):02d}" + r.choice(CF_MONTHS)
            + f"{day:02d}" + r.choice(CF_PLACES))
    total = sum(IT_ODD[ch] if i % 2 == 0 else (int(ch) if ch.isdigit() else ord(ch) - 65) for i, ch in enumerate(body))
    return body + UP[total % 26]


def nl_bsn_value(r: random.Random) -> str:
    """Dutch BSN: 9 digits passing the eleven-test (9·d1 + 8·d2 + … + 2·d8 − d9 ≡ 0 mod 11)."""
    while True:
        payload = r.choice("123456789") + dg(r, 7)
        last = sum(int(d) * (9 - i) for i, d in enumerate(payload)) % 11
        if last < 10:
            return payload + str(last)


def br_cpf_value(r: random.Random) -> str:
    """Brazilian CPF: 9 digits and two mod-11 check digits."""
    while True:
        digits = [int(d) for d in dg(r, 9)]
        if len(set(digits)) > 1:
            break
    for n in (10, 11):
        s = sum(d * w for d, w in zip(digits, range(n, 1, -1), strict=True))
        digits.append(s * 10 % 11 % 10)
    return "".join(map(str, digits))


def national(kind: str, make: Callable[[random.Random], str], fmt: Callable[[str], str] = lambda s: s) -> Gen:
    def gen(r: random.Random) -> Out:
        raw = make(r)
        value = fmt(raw)
        PERSONAL_LOG.append((kind, value, raw))
        return value, value, kind

    return gen


# ---- the canary fields the templates use ----------------------------------------------------------

CANARY: dict[str, Gen] = {
    "anthropic_key": whole("anthropic_key", s_anthropic_with_admin),
    "openai_key": whole("openai_key", s_openai_with_admin),
    "github_token": whole("github_token", github_token),
    "gitlab_token": whole("gitlab_token", gitlab_token),
    "slack_bot": whole("slack_token", slack_bot),
    "slack_app": whole("slack_token", s_xapp),
    "slack_user": whole("slack_token", slack_user),
    "slack_webhook": part("slack_webhook", s_slack_hook),
    "stripe_key": whole("stripe_key", stripe_key),
    "twilio_api_key": whole("twilio_api_key", s_twilio),
    "sendgrid_key": whole("sendgrid_key", s_sendgrid),
    "npm_token": whole("npm_token", s_npm),
    "pypi_token": whole("pypi_token", pypi_token),
    "huggingface_token": whole("huggingface_token", s_hf),
    "digitalocean_token": whole("digitalocean_token", digitalocean_token),
    "doppler_token": whole("doppler_token", doppler_token),
    "databricks_token": whole("databricks_token", s_databricks),
    "google_api_key": whole("google_api_key", s_gapi),
    "google_oauth_secret": whole("google_oauth_secret", s_gocspx),
    "aws_key": whole("aws_key", s_aws_id_even),
    "aws_secret": whole("aws_secret", s_aws_secret),
    "azure_client_secret": whole("azure_client_secret", s_azure_cs),
    "azure_storage_key": part("azure_storage_key", azure_storage_key),
    "azure_sas_token": part("azure_sas_token", azure_sas_token),
    "vault_token": whole("vault_token", vault_token),
    "shopify_token": whole("shopify_token", shopify_token),
    "linear_key": whole("linear_key", s_linear),
    "new_relic_key": whole("new_relic_key", s_nrak),
    "sentry_token": whole("sentry_token", s_sentry),
    "grafana_token": whole("grafana_token", s_glsa),
    "postman_key": whole("postman_key", s_postman),
    "atlassian_token": whole("atlassian_token", atlassian_token),
    "terraform_token": whole("terraform_token", s_tfc),
    "pulumi_token": whole("pulumi_token", s_pulumi),
    "dockerhub_token": whole("dockerhub_token", s_dckr),
    "openrouter_key": whole("openrouter_key", s_openrouter),
    "groq_key": whole("groq_key", s_groq),
    "replicate_token": whole("replicate_token", s_replicate),
    "langsmith_key": whole("langsmith_key", s_langsmith),
    "perplexity_key": whole("perplexity_key", s_pplx),
    "xai_key": whole("xai_key", s_xai),
    "supabase_token": whole("supabase_token", s_supabase),
    "tailscale_key": whole("tailscale_key", s_tailscale),
    "notion_token": whole("notion_token", notion_token),
    "cloudflare_token": whole("cloudflare_token", s_cf_token),
    "datadog_key": whole("datadog_key", s_datadog),
    "age_secret_key": whole("age_secret_key", s_age),
    "onepassword_token": whole("onepassword_token", onepassword_token),
    "elevenlabs_key": whole("elevenlabs_key", s_elevenlabs),
    "cratesio_token": whole("cratesio_token", s_cratesio),
    "flyio_token": whole("flyio_token", flyio_token),
    "teams_webhook": part("teams_webhook", teams_webhook),
    "jwt": whole("jwt", jwt),
    "private_key": part("private_key", pem_private_key),
    "gcp_private_key": part("private_key", gcp_private_key),
    "putty_key": part("private_key", putty_private_key),
    "pgp_key": part("private_key", pgp_private_key),
    "password": whole("password", password_value),
    "url_password": whole("url_credentials", url_password),
    "bearer_token": whole("bearer_token", lambda r: rs(r, r.choice([32, 40, 64]), URLSAFE + ".~")),
    "basic_auth": whole("basic_auth",
                        lambda r: b64(f"{r.choice(['svc-ci', 'grafana', 'admin', 'scraper'])}:{url_password(r)}".encode())),
    "k8s_b64_password": whole("password", lambda r: b64(password_value(r).encode())),
    # personal data
    **{f"phone_{key}": phone(key) for key in PHONES},
    "phone_tel": tel_link,
    **{f"email_{s}": email(s) for s in ["plain", "plus", "upper", "apostrophe", "unicode", "at_bracket", "at_words",
                                        "percent", "newtld"]},
    "email_mailto": mailto,
    "card_visa_space": card("visa", " "), "card_visa_dash": card("visa", "-"),
    "card_mc_space": card("mastercard", " "), "card_mc_none": card("mastercard", "none"),
    "card_amex_dash": card("amex", "-"),
    "card_jcb": card("jcb", "-"), "card_diners": card("diners", " "), "card_unionpay": card("unionpay19", " "),
    **{f"iban_{c.lower()}": iban(c, "electronic") for c in IBAN_COUNTRIES},
    **{f"iban_{c.lower()}_paper": iban(c, "paper") for c in IBAN_COUNTRIES},
    "ssn_dash": national("ssn", ssn_value, lambda s: grouped(s, [3, 2, 4], "-")),
    "ssn_space": national("ssn", ssn_value, lambda s: grouped(s, [3, 2, 4], " ")),
    "uk_nino_spaced": national("uk_nino", id_nino, lambda s: f"{s[:2]} {s[2:4]} {s[4:6]} {s[6:8]} {s[8]}"),
    "uk_nino_lower": national("uk_nino", id_nino, lambda s: s.lower()),
    "ca_sin_dash": national("ca_sin", ca_sin_value, lambda s: grouped(s, [3, 3, 3], "-")),
    "ca_sin_space": national("ca_sin", ca_sin_value, lambda s: grouped(s, [3, 3, 3], " ")),
    "fr_nir_spaced": national("fr_nir", fr_nir_value, lambda s: grouped(s, [1, 2, 2, 2, 3, 3, 2], " ")),
    "fr_nir_plain": national("fr_nir", fr_nir_value),
    "de_tax_id_spaced": national("de_tax_id", de_tax_id_value, lambda s: grouped(s, [2, 3, 3, 3], " ")),
    "de_tax_id_plain": national("de_tax_id", de_tax_id_value),
    "aadhaar_spaced": national("aadhaar", id_aadhaar, lambda s: grouped(s, [4, 4, 4], " ")),
    "aadhaar_dash": national("aadhaar", id_aadhaar, lambda s: grouped(s, [4, 4, 4], "-")),
    "es_dni_dash": national("es_dni", id_dni, lambda s: f"{s[:8]}-{s[8]}"),
    "es_nie": national("es_nie", id_nie),
    "it_cf": national("it_codice_fiscale", it_cf_value),
    "it_cf_lower": national("it_codice_fiscale", it_cf_value, lambda s: s.lower()),
    "nl_bsn_dots": national("nl_bsn", nl_bsn_value, lambda s: f"{s[:4]}.{s[4:6]}.{s[6:]}"),
    "br_cpf": national("br_cpf", br_cpf_value, lambda s: f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"),
    "br_cpf_plain": national("br_cpf", br_cpf_value),
}


# ---- non-canary random fillers (for context and for the clean rows) -----------------------------

def not_luhn(r: random.Random, n: int, first: str = "123456789") -> str:
    while True:
        s = r.choice(first) + dg(r, n - 1)
        if not luhn_valid(s):
            return s


def not_verhoeff(r: random.Random, n: int) -> str:
    while True:
        s = r.choice("123456789") + dg(r, n - 1)
        if not verhoeff_valid(s):
            return s


def isbn13(r: random.Random) -> str:
    payload = "978" + r.choice("0123") + dg(r, 8)
    check = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(payload)) % 10) % 10
    return f"{payload[:3]}-{payload[3]}-{payload[4:8]}-{payload[8:]}-{check}"


def ean13_not_luhn(r: random.Random) -> str:
    while True:
        payload = "40" + dg(r, 10)
        check = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(payload)) % 10) % 10
        number = payload + str(check)
        if not luhn_valid(number):
            return number


def ulid(r: random.Random) -> str:
    return "01J" + rs(r, 23, CROCKFORD)


FILL: dict[str, Callable[[random.Random], str]] = {
    "age_pub": lambda r: rs(r, 58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"),
    "hex7": lambda r: rs(r, 7, HEX), "hex8": lambda r: rs(r, 8, HEX), "hex12": lambda r: rs(r, 12, HEX),
    "hex16": lambda r: rs(r, 16, HEX), "hex24": lambda r: rs(r, 24, HEX), "hex32": lambda r: rs(r, 32, HEX),
    "hex40": lambda r: rs(r, 40, HEX), "hex64": lambda r: rs(r, 64, HEX),
    "uuid": ruuid, "ulid": ulid, "isbn": isbn13, "ean": ean13_not_luhn,
    "colour": lambda r: "#" + rs(r, 6, HEX),
    "sha512_b64": lambda r: b64(r.randbytes(64)),
    "ssh_pub": lambda r: b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + r.randbytes(32)),
    "cert_body": lambda r: "\n".join(textwrap64(b64(bytes.fromhex("308203") + r.randbytes(240)))),
    "ec_pub": lambda r: "\n".join(textwrap64(b64(
        bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + b"\x04" + r.randbytes(64)))),
    "acct12": lambda r: not_verhoeff(r, 12),
    "snowflake": lambda r: not_luhn(r, 19),
    "order17": lambda r: f"{r.randint(100, 999)}-{not_luhn(r, 7)}-{not_luhn(r, 7)}",
    "slack_channel": lambda r: "C0" + rs(r, 9, UP + DG),
    "ts_ms": lambda r: str(1718000000000 + r.randrange(10**10)),
    "ga": lambda r: "G-" + rs(r, 10, UP + DG),
}


def textwrap64(s: str) -> list[str]:
    return [s[i:i + 64] for i in range(0, len(s), 64)]


def render(r: random.Random, template: str) -> dict[str, object]:
    canaries: list[str] = []
    kinds: list[str] = []

    def sub(m: re.Match[str]) -> str:
        value, canary, kind = CANARY[m.group(1)](r)
        assert canary in value, (m.group(1), canary, value)
        canaries.append(canary)
        kinds.append(kind)
        return value

    text = FILL_FIELD.sub(lambda m: FILL[m.group(1)](r), template)
    text = CANARY_FIELD.sub(sub, text)
    return {"text": text, "canaries": canaries, "kinds": kinds}


# ---- positive rows: secrets ----------------------------------------------------------------------

SECRET_ROWS = [
    # model providers
    "export ANTHROPIC_API_KEY=<<anthropic_key>>",
    "curl https://api.anthropic.com/v1/messages -H \"x-api-key: <<anthropic_key>>\" -H \"anthropic-version: 2023-06-01\"",
    "OPENAI_API_KEY=<<openai_key>>",
    "I pasted my key by mistake in the notebook: openai.api_key = '<<openai_key>>' — revoke it please",
    "const groq = new Groq({ apiKey: \"<<groq_key>>\" });",
    "LANGSMITH_API_KEY=<<langsmith_key>>\nLANGSMITH_TRACING=true",
    "huggingface-cli upload acme/ner-small ./out --token <<huggingface_token>>",
    "git clone https://user:<<huggingface_token>>@huggingface.co/datasets/acme/support-tickets",
    # code hosting and CI
    "curl -H \"Authorization: token <<github_token>>\" https://api.github.com/repos/acme/api/actions/runs",
    "gitlab-runner register --url https://gitlab.com --token <<gitlab_token>>",
    "curl -X POST -F token=<<gitlab_token>> -F ref=main https://gitlab.example.net/api/v4/projects/42/trigger/pipeline",
    # chat and webhooks
    "SLACK_BOT_TOKEN=<<slack_bot>>\nSLACK_APP_TOKEN=<<slack_app>>",
    "slack_sdk.WebClient(token=\"<<slack_user>>\").chat_postMessage(channel=\"#ops\", text=\"deploy done\")",
    "alertmanager receiver: slack_api_url: '<<slack_webhook>>'",
    "Teams workflow URL for the on-call channel: <<teams_webhook>>",
    # payments, commerce, messaging
    "STRIPE_API_KEY=<<stripe_key>>",
    "TWILIO_ACCOUNT_SID=AC{{hex32}}\nTWILIO_API_KEY=<<twilio_api_key>>\nTWILIO_API_SECRET=<<password>>",
    "twilio = Client('<<twilio_api_key>>', os.environ['TWILIO_API_SECRET'], 'AC{{hex32}}')",
    "SENDGRID_API_KEY='<<sendgrid_key>>'",
    "shopify app env pull printed SHOPIFY_ACCESS_TOKEN=<<shopify_token>>",
    # package registries
    "//registry.npmjs.org/:_authToken=<<npm_token>>",
    "[pypi]\n  username = __token__\n  password = <<pypi_token>>",
    "TWINE_PASSWORD=<<pypi_token>> twine upload dist/*",
    "cargo login <<cratesio_token>>",
    # cloud and infra
    "[default]\naws_access_key_id=<<aws_key>>\naws_secret_access_key=<<aws_secret>>\nregion=eu-west-1",
    "doctl auth init --access-token <<digitalocean_token>>",
    "DOPPLER_TOKEN=<<doppler_token>> doppler run -- npm start",
    "databricks configure --token <<databricks_token>> --host https://adb-4213.7.azuredatabricks.net",
    "AZURE_STORAGE_CONNECTION_STRING='<<azure_storage_key>>'",
    "az keyvault secret show returned \"value\": \"<<azure_client_secret>>\"",
    "here is the SAS link for the dump, valid a week: <<azure_sas_token>>",
    "SUPABASE_ACCESS_TOKEN=<<supabase_token>> supabase link --project-ref abcdefghijklmnopqrst",
    "VAULT_TOKEN=<<vault_token>> vault kv get secret/payments",
    "fly secrets list failed until I exported FLY_API_TOKEN=\"<<flyio_token>>\"",
    "const geocoder = new Geocoder({ key: '<<google_api_key>>' })",
    "OAuth client for the CLI: client_id 4819-abc.apps.googleusercontent.com, client_secret <<google_oauth_secret>>",
    # SaaS tools
    "sentry-cli --auth-token <<sentry_token>> releases new 2.8.1",
    "jira: email bot@acme.io, API token <<atlassian_token>>",
    "NOTION_TOKEN=<<notion_token>>",
    "OP_SERVICE_ACCOUNT_TOKEN=<<onepassword_token>>",
    "AGE identity for sops: <<age_secret_key>>",
    # whole blocks pasted from a secrets file
    ("# .env.production (observability)\nDATADOG_API_KEY=<<datadog_key>>\nNEW_RELIC_API_KEY=<<new_relic_key>>\n"
     "GRAFANA_SA_TOKEN=<<grafana_token>>\nPOSTMAN_API_KEY=<<postman_key>>\nLINEAR_API_KEY=<<linear_key>>"),
    ("CI variables copied over from the old Jenkins:\nTF_TOKEN_app_terraform_io=<<terraform_token>>\n"
     "PULUMI_ACCESS_TOKEN=<<pulumi_token>>\nCLOUDFLARE_API_TOKEN=<<cloudflare_token>>\nTAILSCALE_AUTHKEY=<<tailscale_key>>\n"
     "DOCKERHUB_TOKEN=<<dockerhub_token>>"),
    ("keys for the eval harness:\nOPENROUTER_API_KEY=<<openrouter_key>>\nPERPLEXITY_API_KEY=<<perplexity_key>>\n"
     "XAI_API_KEY=<<xai_key>>\nREPLICATE_API_TOKEN=<<replicate_token>>\nELEVENLABS_API_KEY=<<elevenlabs_key>>"),
    # generic: JWT, bearer, basic, keys
    "SUPABASE_SERVICE_ROLE_KEY=<<jwt>>",
    "the refresh endpoint returned {\"access_token\": \"<<jwt>>\", \"token_type\": \"Bearer\", \"expires_in\": 3600}",
    "curl -sS -H \"Authorization: Bearer <<bearer_token>>\" https://api.partner-portal.net/v3/invoices?limit=5",
    "proxy_set_header Authorization \"Basic <<basic_auth>>\";",
    "I committed this by accident, can we scrub history?\n<<private_key>>",
    ("  \"type\": \"service_account\",\n  \"project_id\": \"acme-analytics-prod\",\n  \"private_key_id\": \"{{hex40}}\",\n"
     "  \"private_key\": \"<<gcp_private_key>>"),
    "<<putty_key>>",
    "<<pgp_key>>",
    # connection strings, URLs, config files
    "DATABASE_URL=postgres://app_rw:<<url_password>>@db-prod.c9akciq32.eu-central-1.rds.amazonaws.com:5432/shop",
    "pip install --index-url https://deploy:<<url_password>>@nexus.corp.local/repository/pypi/simple acme-utils",
    "HTTPS_PROXY=http://jdoe:<<url_password>>@proxy.corp.local:3128",
    "git remote add backup https://mirror-bot:<<url_password>>@git.acme-internal.org/platform/api.git",
    "sqlalchemy.url = mssql+pyodbc://sa:<<url_password>>@sql01.corp.local/Reporting?driver=ODBC+Driver+18+for+SQL+Server",
    "Server=tcp:acme-sql.database.windows.net,1433;Database=orders;User ID=app;Password=<<password>>;Encrypt=True;",
    "spring.datasource.url=jdbc:postgresql://pg.internal:5432/billing\nspring.datasource.username=billing\nspring.datasource.password=<<password>>",
    "machine api.heroku.com\n  login ops@acme.io\n  password <<password>>",
    "db.internal:5432:analytics:etl:<<password>>",
    "curl -u admin:<<password>> http://jenkins.corp.local:8080/job/deploy/build",
    "PGPASSWORD='<<password>>' psql -h 10.20.0.5 -U reporting analytics",
    "network={\n    ssid=\"Office-5G\"\n    psk=\"<<password>>\"\n}",
    ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\ndata:\n  username: YXBw\n"
     "  password: <<k8s_b64_password>>"),
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: smtp\nstringData:\n  SMTP_USER: mailer\n  SMTP_PASSWORD: \"<<password>>\"",
    ("# .env\nNODE_ENV=production\nSTRIPE_SECRET_KEY=<<stripe_key>>\nSENDGRID_API_KEY=<<sendgrid_key>>\n"
     "SESSION_SECRET=<<password>>"),
    "# .env.local\nNEXT_PUBLIC_SITE_URL=https://shop.acme.io\nDATABASE_URL=mysql://shop:<<url_password>>@127.0.0.1:3306/shop\nGITHUB_SECRET=<<github_token>>",
    # passwords in prose, several languages
    "the wifi password for the offsite is <<password>>",
    "Das Passwort für den Jenkins-Admin lautet <<password>>.",
    "le mot de passe du compte admin est <<password>>",
    "La contraseña del servidor es <<password>>",
    "la password del router è <<password>>",
    "a senha do banco é <<password>>, troque depois",
    "hasło do VPN: <<password>>",
    "lösenordet till wifi:t är <<password>>",
    "şifre: <<password>>",
    "管理画面のパスワードは <<password>> です",
    "数据库密码是 <<password>>",
    "пароль от сервера: <<password>>",
    "비밀번호는 <<password>> 입니다",
]

# ---- positive rows: personal data ----------------------------------------------------------------

PERSONAL_ROWS = [
    # phones, national formats
    "call me back at <<phone_us_paren>> after 5pm",
    "Landlord: <<phone_us_one_paren>>, his wife <<phone_us_dots>>",
    "Numéro: <<phone_ca_plus_dots>>",
    "WhatsApp do cliente: <<phone_br_paren>>",
    "reps: Buenos Aires <<phone_ar_plus>>, Ciudad de México <<phone_mx_plus>>",
    "mob <<phone_gb_mobile>>, office <<phone_gb_plus_zero>>",
    "ring the Manchester depot on <<phone_gb_manchester>>, or from abroad <<phone_gb_0044>>",
    "Tél. : <<phone_fr_dots>>",
    "joignable au <<phone_fr_plus>> ou au bureau <<phone_fr_paris_zero>>",
    "Handy: <<phone_de_mobile_slash>>, Festnetz: <<phone_de_fixed_dash>>",
    "DACH: Berlin <<phone_de_plus_zero>>, Wien <<phone_at_mobile>>, Zürich <<phone_ch_plus>>, Basel <<phone_ch_0041>>",
    "Benelux support: <<phone_nl_mobile_dash>> / <<phone_be_mobile>> / <<phone_be_plus_brussels>>",
    "Iberia: móvil <<phone_es_mobile>>, Madrid <<phone_es_plus_madrid>>, Lisboa <<phone_pt_mobile>>",
    "cell. <<phone_it_mobile>>, ufficio di Roma <<phone_it_plus_rome>>",
    "tel. kom. <<phone_pl_dashes>>, Praha <<phone_cz_plus>>",
    "Nordics: <<phone_se_mobile>> (SE), <<phone_no_plus>> (NO), <<phone_dk_plus>> (DK), <<phone_fi_mobile>> (FI)",
    "携帯: <<phone_jp_mobile>>、東京オフィス <<phone_jp_plus_tokyo>>",
    "Seoul <<phone_kr_mobile>>, Shanghai <<phone_cn_plus>>",
    "contact the courier at <<phone_in_plus_dash>>; Mumbai branch <<phone_in_mumbai>>",
    "mobile <<phone_au_mobile>>, Sydney office <<phone_au_paren>>, Auckland <<phone_nz_plus>>",
    "Africa desk: Joburg <<phone_za_mobile>>, Lagos <<phone_ng_plus>>, Nairobi <<phone_ke_mobile>>, Cairo <<phone_eg_plus>>",
    "cep telefonu <<phone_tr_mobile>>",
    "Middle East: <<phone_il_plus>>, <<phone_ae_plus>>",
    "APAC: SG <<phone_sg_plus>> / HK <<phone_hk_plus>> / Manila <<phone_ph_mobile>> / Jakarta <<phone_id_mobile>>",
    "тел. <<phone_ru_plus>>",
    "<<phone_tel>>",
    # e-mails, odd spellings
    "cc <<email_plus>> on the invoice thread",
    "FROM: <<email_upper>>",
    "Reply-To: <<email_apostrophe>>",
    "Kontakt: <<email_unicode>>",
    "reach me at <<email_at_bracket>>",
    "you can write to <<email_at_words>>",
    "GET /unsubscribe?email=<<email_percent>>&list=weekly",
    "<<email_mailto>>",
    "Author: Zofia Kowalczyk <<<email_plain>>>",
    # cards
    "card on file: <<card_visa_space>> exp 11/27",
    "Kartennummer <<card_visa_dash>>",
    "{\"number\": \"<<card_mc_none>>\", \"cvc\": \"***\"}",
    "AMEX: <<card_amex_dash>>",
    "JCB <<card_jcb>>",
    "Diners Club <<card_diners>>",
    "银联卡号 <<card_unionpay>>",
    # IBANs
    "Bitte überweisen an <<iban_de_paper>> (Sparkasse)",
    "Konto <<iban_ch_paper>>",
    "RIB / IBAN : <<iban_fr_paper>>",
    "IBAN <<iban_es>> a nombre de la comunidad de vecinos",
    "coordinate bancarie: <<iban_it>>",
    "rekeningnummer <<iban_nl_paper>>, of de Belgische <<iban_be_paper>>",
    "payroll change: old <<iban_gb_paper>>, new <<iban_pt_paper>>",
    "SEPA batch: <<iban_pl_paper>>, <<iban_at>>, <<iban_lu>>, <<iban_hr>>, <<iban_gr_paper>>",
    "Nordic payees: <<iban_no>>, <<iban_se>>, <<iban_dk_paper>>",
    "beneficiary IBAN <<iban_ae>>; Riyadh office <<iban_sa>>",
    ("payee,iban\nKaya Lojistik,<<iban_tr_paper>>\nTransilvania SRL,<<iban_ro>>\nLoja Ferreira,<<iban_br>>\n"
     "O'Sullivan Ltd,<<iban_ie>>"),
    # national identifiers
    "SSN <<ssn_dash>> on the W-9",
    "social security no. <<ssn_space>>",
    "NI number: <<uk_nino_spaced>>",
    "nino=<<uk_nino_lower>>",
    "SIN <<ca_sin_dash>>",
    "N° de sécurité sociale : <<fr_nir_spaced>>",
    "NIR <<fr_nir_plain>> (carte Vitale)",
    "Steuer-ID <<de_tax_id_spaced>>",
    "Aadhaar <<aadhaar_spaced>>",
    "aadhaar no - <<aadhaar_dash>>",
    "mi DNI es <<es_dni_dash>>",
    "NIE: <<es_nie>>",
    "codice fiscale: <<it_cf>>",
    "cf <<it_cf_lower>>",
    "burgerservicenummer: <<nl_bsn_dots>>",
    "cpf=<<br_cpf_plain>>",
    # mixed records
    "Patient: Aoife Ní Bhriain\nTel: <<phone_ie_plus>>\nEmail: <<email_plain>>",
    "Mitarbeiter-Stammdaten: Steuer-ID <<de_tax_id_plain>>, IBAN <<iban_de>>, Tel. <<phone_de_plus_mobile>>",
    "payload: {\"cpf\": \"<<br_cpf>>\", \"telefone\": \"<<phone_br_plus>>\", \"email\": \"<<email_newtld>>\"}",
    "contractor onboarding: SIN <<ca_sin_space>>, phone <<phone_ca_dash>>, card <<card_mc_space>>",
]

# ---- clean rows: look risky, are not secrets or personal data --------------------------------------

CLEAN_ROWS = [
    # hashes, ids, digests
    "commit {{hex40}}\nAuthor: release-bot\nDate:   Mon Mar 3 09:14:22 2025 +0100\n\n    chore: bump version to 4.2.0",
    "git cherry-pick {{hex7}} {{hex7}} {{hex7}}",
    "regression introduced in {{hex12}}, reverted in {{hex12}}",
    "git rebase -i {{hex7}}~3",
    "request_id={{uuid}} status=200 duration_ms=184",
    "Idempotency-Key: {{uuid}}",
    "uploaded to s3://acme-datalake/raw/2025/03/{{uuid}}.parquet",
    "events are keyed by ULID, e.g. {{ulid}}",
    "Mongo ObjectId('{{hex24}}') not found",
    "traceparent: 00-{{hex32}}-{{hex16}}-01",
    "ETag: W/\"{{hex32}}\"",
    "cache key: deps-linux-x64-{{hex64}}",
    "sha256sum dist/acme-cli-2.3.1-linux-amd64.tar.gz → {{hex64}}",
    "docker pull postgres@sha256:{{hex64}}",
    "\"integrity\": \"sha512-{{sha512_b64}}\"",
    "version https://git-lfs.github.com/spec/v1\noid sha256:{{hex64}}\nsize 48213",
    "CRC32 of the block is 0x{{hex8}}, matches the footer",
    "nonce {{hex32}} is generated per request for the CSP header",
    "arn:aws:iam::{{acct12}}:role/github-actions-deploy",
    "message id {{snowflake}} in #releases",
    "Slack channel {{slack_channel}} is #incident-2291",
    "gtag('config', '{{ga}}');",
    # public keys and certificates
    "ssh-ed25519 {{ssh_pub}} deploy@build-7",
    "-----BEGIN CERTIFICATE-----\n{{cert_body}}\n-----END CERTIFICATE-----",
    "-----BEGIN PUBLIC KEY-----\n{{ec_pub}}\n-----END PUBLIC KEY-----",
    "GPG key fingerprint: 3A1F 9C2B 7D4E 8A60 51B3  E9D2 0C7F 4B18 6E2A 9D05",
    "age recipient (public): age1{{age_pub}}",
    # versions, numbers, dates
    "Bumped fastapi 0.110.3 → 0.115.6 and pydantic 2.7.4 → 2.10.3",
    "go: downloading golang.org/x/net v0.26.0",
    "image: ghcr.io/acme/worker:1.42.0-rc.3+build.20250311",
    "Python 3.12.4 (main, Jun  6 2024, 19:30:16) [GCC 11.4.0] on linux",
    "Windows 10.0.19045.4529, kernel 6.8.0-35-generic",
    "nvm use 20.14.0 && pnpm i --frozen-lockfile",
    "python -m pip install 'numpy>=1.26,<2.1' 'torch==2.5.1+cu121'",
    "order #{{order17}} shipped yesterday",
    "invoice INV-2025-000381, total 1,249.00 EUR, due 2025-04-15",
    "ts={{ts_ms}} level=info msg=\"flush complete\" bytes=52428800",
    "created_at: 2025-03-11T10:48:54.512Z, updated_at: 2025-03-11T10:49:02.003Z",
    "ISBN {{isbn}} is the second edition",
    "EAN {{ean}} on the pallet label",
    "the Luhn example from Wikipedia, 79927398713, is only 11 digits",
    "2^64 - 1 = 18446744073709551615",
    "fib(50) = 12586269025",
    "pi ≈ 3.14159265358979323846",
    "mean latency 184.27 ms, p99 1203.5 ms over 1048576 requests",
    "seed=1337 lr=3e-4 batch=256 warmup_steps=2000 max_steps=100000",
    "1920x1080 at 59.94 fps, bitrate 6000 kbps",
    "chmod 0644 /etc/acme/config.yaml && chown 1001:1001 /var/lib/acme",
    "Cron: 0 3 * * 1-5 (03:00 on weekdays, Europe/Berlin)",
    "coords 52.5200, 13.4050 — Berlin Mitte",
    "Kundennummer 100482, Bestellung vom 11.03.2025",
    "build 20250311.3 on ubuntu-22.04 took 00:07:42",
    "lines 4821-4907 of server.log around 14:02:11.532",
    "ZIP 94107-1234 is in San Francisco",
    "PLAT-4821, PR #9912, RFC 9110 §15.5.20",
    # networking without credentials
    "listen 0.0.0.0:8443; proxy_pass http://127.0.0.1:9000;",
    "EXPOSE 5432 6379 9092",
    "allow 10.0.0.0/8 and 192.168.0.0/16 in the security group, deny the rest",
    "ping 192.0.2.10 and 2001:db8::1 (documentation ranges)",
    "redis://localhost:6379/0",
    "DATABASE_URL=postgres://app@localhost:5432/app_dev  # peer auth, no password",
    "DATABASE_URL=postgres://<user>:<password>@<host>:5432/<db>",
    "curl https://api.example.com/v1/users?page=2&per_page=50",
    "see https://example.org/docs/auth#scopes for how tokens are scoped",
    "git clone https://github.com/acme/widgets.git",
    "git clone git@github.com:acme/widgets.git",
    "HTTP/1.1 429 Too Many Requests\nRetry-After: 120",
    # placeholders and redactions
    "export OPENAI_API_KEY=sk-...  # paste your key here",
    "ANTHROPIC_API_KEY=sk-ant-xxxxxxxxxxxxxxxxxxxxxxxx",
    "api_key: <YOUR_API_KEY>",
    "SLACK_BOT_TOKEN=xoxb-your-bot-token",
    "HF_TOKEN=hf_...  (create one at huggingface.co/settings/tokens)",
    "token: ${{ secrets.NPM_TOKEN }}",
    "password: ${DB_PASSWORD}",
    "api_key = os.environ[\"STRIPE_API_KEY\"]",
    "GITHUB_TOKEN=ghp_************************************ (masked in the log)",
    "AWS_SECRET_ACCESS_KEY=<redacted>",
    "password: ********",
    "Authorization: Bearer <token>",
    "IBAN format for Germany: DEkk bbbb bbbb cccc cccc cc",
    "use 555-0100 through 555-0199 in fixtures; they are reserved for fiction",
    "SSN must match ^\\d{3}-\\d{2}-\\d{4}$ and is validated server side",
    "Phone numbers are stored in E.164, e.g. +<country code><number>.",
    "email: user@<your-domain>",
    "kubectl create secret generic db-creds --from-env-file=.env.prod",
    "kubectl get secret db-creds -o jsonpath='{.data.password}' | base64 -d",
    ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  LOG_LEVEL: info\n"
     "  FEATURE_FLAGS: \"search,export\""),
    # base64 and tokens that are not secret
    "echo 'aGVsbG8sIHdvcmxkIQ==' | base64 -d   # hello, world!",
    "prefs cookie = eyJ0aGVtZSI6ImRhcmsiLCJsYW5nIjoiZW4ifQ (just {\"theme\":\"dark\",\"lang\":\"en\"})",
    "the header alone, eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9, decodes to {\"alg\":\"HS256\",\"typ\":\"JWT\"}",
    ("<img src=\"data:image/png;base64,"
     "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\">"),
    # code
    "class AbstractAnnotationConfigDispatcherServletInitializer extends AbstractDispatcherServletInitializer {}",
    "def test_refund_is_rejected_when_the_original_charge_was_disputed_twice(client, ledger):",
    "const secret = process.env.JWT_SECRET;",
    "password = getpass.getpass(\"Password: \")",
    "if not hmac.compare_digest(expected_signature, received_signature):\n    raise PermissionDenied(\"bad signature\")",
    "token = jwt.encode(payload, settings.SIGNING_KEY, algorithm=\"HS256\")",
    "SELECT COUNT(*) FROM orders WHERE created_at >= '2025-03-01' AND total_cents > 100000;",
    "migration 0042_add_index_on_user_email applied in 1.8s",
    "theme: { colors: { brand: { 500: '{{colour}}', 600: '{{colour}}' }, muted: '{{colour}}' } }",
    "background: {{colour}}; border: 1px solid {{colour}}; color: rgba(15, 23, 42, 0.85);",
    "\\frac{a^2 + b^2}{c^2} = 1",
    "for i in range(0, 4294967296, 65536): pass",
    # prose about secrets and personal data, several languages
    "The password must be at least 12 characters long and include a digit.",
    "Das Passwort muss mindestens zwölf Zeichen lang sein.",
    "Le mot de passe a été réinitialisé, un lien vous a été envoyé.",
    "La contraseña caducó; pide un enlace nuevo desde el panel.",
    "Rotate the Stripe key every 90 days and store it in Vault, never in the repo.",
    "We never log card numbers; the PSP returns a token we keep instead.",
    "The API returns 401 when the token is missing and 403 when it lacks the scope.",
    "Set SESSION_COOKIE_SECURE=True and CSRF_COOKIE_HTTPONLY=True in production.",
    "GDPR request: delete the user's IBAN and phone number within 30 days.",
    "Telefonkonferenz um 14:30, Einwahl über Teams.",
    "Ask the customer for their NIE only when the invoice is over 400 EUR.",
]


def build(seed: int) -> list[dict[str, object]]:
    r = random.Random(seed)
    PERSONAL_LOG.clear()
    rows = [render(r, t) for t in SECRET_ROWS + PERSONAL_ROWS]
    rows += [render(r, t) for t in CLEAN_ROWS]
    for row in rows:
        assert all(c in row["text"] for c in row["canaries"]), row
    r.shuffle(rows)
    return rows


def check(rows: list[dict[str, object]]) -> None:
    """Validate every personal value with python-stdnum and phonenumbers (project dependencies)."""
    import phonenumbers
    from stdnum import iban as std_iban
    from stdnum import luhn as std_luhn
    from stdnum.br import cpf
    from stdnum.ca import sin
    from stdnum.de import idnr
    from stdnum.es import dni, nie
    from stdnum.fr import nir
    from stdnum.in_ import aadhaar
    from stdnum.it import codicefiscale
    from stdnum.nl import bsn
    from stdnum.us import ssn

    validators = {"iban": std_iban, "ssn": ssn, "ca_sin": sin, "fr_nir": nir, "de_tax_id": idnr, "aadhaar": aadhaar,
                  "es_dni": dni, "es_nie": nie, "it_codice_fiscale": codicefiscale, "nl_bsn": bsn, "br_cpf": cpf}
    bad = []
    for kind, value, detail in PERSONAL_LOG:
        if kind == "phone":  # detail: the region the number was written for
            n = phonenumbers.parse(value, detail)
            ok = phonenumbers.is_valid_number(n) and phonenumbers.region_code_for_number(n) == detail
        elif kind == "card_number":
            ok = std_luhn.is_valid(re.sub(r"\D", "", value))
        elif kind == "uk_nino":  # detail: the unformatted number (stdnum has no NINO module)
            ok = bool(re.fullmatch(r"(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", detail))
        elif kind in validators:  # detail: the unformatted number
            ok = validators[kind].is_valid(value if kind == "iban" else detail)
        else:  # e-mail addresses: written by hand, some deliberately obfuscated
            ok = True
        if not ok:
            bad.append((kind, value, detail))
    if bad:
        raise SystemExit(f"invalid personal values: {bad}")
    print(f"checked {len(PERSONAL_LOG)} personal values: all valid")


def main() -> None:
    rows = build(4404)
    if "--check" in sys.argv:
        check(rows)
    write_jsonl("heldout_world4.jsonl", rows)


if __name__ == "__main__":
    main()
