#!/usr/bin/env python3
"""Write heldout_world10.jsonl: a tenth blind held-out corpus for the secret/PII masker.

`python3 tests/data/privacy/make_world10_corpus.py` writes heldout_world10.jsonl beside
this script (`--out PATH` writes it elsewhere; a folder gets heldout_world10.jsonl in
it).  Stdlib only and deterministic: one random.Random(SEED) drives every choice, so a
rerun writes the same bytes.

Each line is {"text": ..., "canaries": [...], "kinds": [...]}: every canary is the exact
planted secret/PII value as it appears in the text (the password part only for
user:password@host userinfo, the base64 blob only for `Basic ...`, the whole URL for
webhooks, the whole PEM block for private keys), kinds is the parallel label list; clean
rows carry empty lists.  The script asserts that every canary occurs verbatim.

Blind: written from general knowledge of real-world formats only; no detector, pattern,
benchmark or other corpus of the project was read while writing it, and the masker was
not run on it.

Mix: the traffic of a fleet of LLM coding agents -- agent/user transcripts and tool calls,
shell sessions and their output, CI logs with timestamps, stack traces, config files
(.env, YAML, TOML, INI, JSON, XML, HCL/tfvars, .properties, docker-compose, k8s manifests,
systemd units, nginx/apache, .netrc, .pgpass, .npmrc, .pypirc, pip.conf, git credentials,
kubeconfig, ...), DSNs for many databases and brokers, code in Python, JS/TS, Go, Java,
C#, Ruby, PHP, Rust, Kotlin, Swift, shell, PowerShell and SQL, and tickets/chat in 39
natural languages.  Weighted towards passwords in many phrasings, emails, phones of 57
countries in national and international formats, the commonest cloud/API keys, cards
(Luhn) and IBANs (mod-97 plus the national BBAN checks of BE/FR/ES/IT/NO/FI), national
identifiers with their own check digits, and a long tail of providers' tokens with their
documented prefixes, lengths and charsets.  Clean rows are look-alikes that are not
secrets: git SHAs, request-id UUIDs, file/image/lockfile hashes, versions, dates, ports,
placeholders and masked values, public keys/certificates, code that reads secrets from
the environment, and prose (many languages) about passwords/tokens/PINs without one.

New labels (not in the earlier vocabulary):
  bg_egn             Bulgarian EGN (10 digits, weighted mod-11 check digit)
  hr_oib             Croatian OIB (11 digits, ISO 7064 MOD 11,10)
  is_kennitala       Icelandic kennitala (DDMMYY-NNCD, weighted mod-11 check digit)
  cz_rc              Czech/Slovak rodne cislo (YYMMDD/NNNC, whole number divisible by 11)
  sourcegraph_token  Sourcegraph access token (sgp_...)
  infracost_key      Infracost API key (ico-...)
"""
from __future__ import annotations

import argparse
import base64
import datetime as _dt
import json
import os
import random
import re as _re
import string
import sys
import unicodedata
import uuid

SEED = 20251010
R = random.Random(SEED)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
HEX = "0123456789abcdef"
B64U = AN + "-_"
B64C = AN + "+/"
B32L = LO + "234567"
B32U = UP + "234567"
BECH = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


# ----------------------------------------------------------------------------- helpers

def pick(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def rs(n, cs=AN):
    """n random chars of cs; mixed charsets get at least one letter and one digit."""
    has_alpha = any(c.isalpha() for c in cs)
    has_digit = any(c.isdigit() for c in cs)
    while True:
        s = "".join(R.choice(cs) for _ in range(n))
        if n < 10 or not (has_alpha and has_digit):
            return s
        if any(c.isdigit() for c in s) and any(c.isalpha() for c in s):
            return s


def hx(n, upper=False):
    s = rs(n, HEX)
    return s.upper() if upper else s


def dg(n):
    return "".join(R.choice(DG) for _ in range(n))


def nzdg(n):
    return str(R.randint(1, 9)) + dg(n - 1)


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(nbytes):
    return base64.b64encode(rbytes(nbytes)).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def uid():
    return str(uuid.UUID(int=R.getrandbits(128), version=4))


def sha(n=40):
    return hx(n)


_EPOCH = _dt.datetime(2023, 1, 1, tzinfo=_dt.timezone.utc)


def when():
    return _EPOCH + _dt.timedelta(seconds=R.randint(0, 3 * 365 * 86400))


def iso(t=None, frac=3):
    t = t or when()
    s = t.strftime("%Y-%m-%dT%H:%M:%S")
    if frac:
        s += "." + dg(frac)
    return s + "Z"


def stamp(t=None):
    t = t or when()
    return t.strftime("%Y-%m-%d %H:%M:%S") + "," + dg(3)


def ipv4():
    return pick(["10", "172", "192"]) + "." + ".".join(str(R.randint(1, 254)) for _ in range(3))


def birth(y0=1950, y1=2006):
    d = _dt.date(y0, 1, 1) + _dt.timedelta(days=R.randint(0, (y1 - y0) * 365))
    return d


def camel(var):
    parts = var.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def asciify(s):
    s = (s.replace("ß", "ss").replace("ø", "o").replace("Ø", "O").replace("æ", "ae")
         .replace("ł", "l").replace("Ł", "L").replace("đ", "d").replace("ı", "i")
         .replace("þ", "th").replace("ð", "d").replace("ä", "ae").replace("ö", "oe")
         .replace("ü", "ue"))
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c))


# ----------------------------------------------------------------------- check digits

def luhn_ok(num):
    ds = [int(c) for c in num if c.isdigit()]
    tot = 0
    for i, d in enumerate(reversed(ds)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        tot += d
    return tot % 10 == 0


def luhn_complete(partial):
    for c in DG:
        if luhn_ok(partial + c):
            return partial + c
    raise AssertionError(partial)


def iban_ok(s):
    s = s.replace(" ", "")
    r = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


def iban_make(cc, bban):
    n = int("".join(str(int(c, 36)) for c in bban + cc + "00"))
    return "%s%02d%s" % (cc, 98 - n % 97, bban)


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
       [2, 3, 4, 0, 1, 7, 8, 9, 5, 6], [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
       [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
       [8, 7, 6, 5, 9, 3, 2, 1, 0, 4], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
       [5, 8, 0, 3, 7, 9, 6, 1, 4, 2], [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
       [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_ok(num):
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def verhoeff_digit(num):
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _VD[c][_VP[(i + 1) % 8][int(ch)]]
    return str(_VINV[c])


def mod11_10(digits):
    """ISO 7064 MOD 11,10 check digit (German Steuer-IdNr, Croatian OIB)."""
    p = 10
    for c in digits:
        s = (int(c) + p) % 10
        s = 10 if s == 0 else s
        p = (s * 2) % 11
    c = 11 - p
    return 0 if c == 10 else c


def wsum(digits, weights):
    return sum(int(a) * b for a, b in zip(digits, weights))


# --- validators written apart from the generators, checked against published examples

def v_cpf(s):
    d = [int(c) for c in s if c.isdigit()]
    for n in (9, 10):
        t = sum(d[i] * (n + 1 - i) for i in range(n))
        if (t * 10) % 11 % 10 != d[n]:
            return False
    return True


def v_pesel(s):
    return (10 - wsum(s[:10], [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10) % 10 == int(s[10])


def v_bsn(s):
    return (wsum(s[:8], [9, 8, 7, 6, 5, 4, 3, 2]) - int(s[8])) % 11 == 0


def v_tckn(s):
    d = [int(c) for c in s]
    return (d[0] != 0 and ((sum(d[0:9:2]) * 7 - sum(d[1:8:2])) % 10 == d[9])
            and sum(d[:10]) % 10 == d[10])


def v_dni(s):
    s = s.replace("-", "").replace(".", "")
    s = {"X": "0", "Y": "1", "Z": "2"}.get(s[0], s[0]) + s[1:]
    return "TRWAGMYFPDXBNJZSQVHLCKE"[int(s[:-1]) % 23] == s[-1]


_CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21,
                    2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]))
_CF_EVEN = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    list(range(10)) + list(range(26))))


def cf_char(body):
    t = sum((_CF_ODD if i % 2 == 0 else _CF_EVEN)[c] for i, c in enumerate(body))
    return chr(65 + t % 26)


def v_cf(s):
    return cf_char(s[:15]) == s[15]


def v_hetu(s):
    return "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(s[:6] + s[7:10]) % 31] == s[10]


def v_ee(s):
    d = s[:10]
    t = wsum(d, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11
    if t == 10:
        t = wsum(d, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11
        t = 0 if t == 10 else t
    return t == int(s[10])


def v_cn(s):
    return "10X98765432"[wsum(s[:17], [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]) % 11] == s[17]


def v_hk(s):
    s = s.replace("(", "").replace(")", "")
    body, ck = s[:-1], s[-1]
    if len(body) == 7:
        body = " " + body
    val = lambda c: 36 if c == " " else (ord(c) - 55 if c.isalpha() else int(c))
    t = sum(val(c) * w for c, w in zip(body, range(9, 1, -1))) + (10 if ck == "A" else int(ck))
    return t % 11 == 0


def v_tfn(s):
    s = s.replace(" ", "")
    return wsum(s, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 == 0


def v_rut(s):
    body, dv = s.replace(".", "").split("-")
    t = sum(int(c) * w for c, w in zip(reversed(body), [2, 3, 4, 5, 6, 7] * 3))
    r = 11 - t % 11
    return {11: "0", 10: "K"}.get(r, str(r)) == dv


def v_ean13(s):
    d = [int(c) for c in s if c.isdigit()]
    return sum(x * (3 if i % 2 else 1) for i, x in enumerate(d)) % 10 == 0


def v_jp(s):
    s = s.replace(" ", "").replace("-", "")
    t = sum(int(s[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12))
    r = t % 11
    return (0 if r <= 1 else 11 - r) == int(s[11])


def v_nif(s):
    r = wsum(s[:8], [9, 8, 7, 6, 5, 4, 3, 2]) % 11
    return (0 if r < 2 else 11 - r) == int(s[8])


def v_mod11_10(s):
    return mod11_10(s[:-1]) == int(s[-1])


def _selftest():
    for x in ("4111111111111111", "79927398713", "046454286", "8001015009087"):
        assert luhn_ok(x), x
    for x in ("GB82WEST12345698765432", "DE89370400440532013000",
              "FR1420041010050500013M02606", "NL91ABNA0417164300", "BE68539007547034"):
        assert iban_ok(x), x
    assert verhoeff_ok("2363") and verhoeff_digit("236") == "3"
    assert v_cpf("52998224725") and v_pesel("44051401359") and v_bsn("111222333")
    assert v_tckn("10000000146") and v_dni("12345678Z") and v_cf("RSSMRA85T10A562S")
    assert v_hetu("131052-308T") and v_ee("37605030299") and v_cn("11010519491231002X")
    assert v_hk("A123456(3)") and v_tfn("123 456 782") and v_rut("12.345.678-5")
    assert v_ean13("7569217076985") and v_jp("123456789018") and v_nif("123456789")
    assert luhn_ok("8112189876")
    assert v_mod11_10("86095742719") and v_mod11_10("69435151530")


# ------------------------------------------------------------------ cards and IBANs

def card_number(brand=None):
    brand = brand or pick(["visa", "visa", "visa", "mc", "mc", "amex", "discover", "jcb",
                           "unionpay", "diners", "mc2"])
    if brand == "visa":
        pre, n = "4" + dg(5), 16
    elif brand == "mc":
        pre, n = str(R.randint(51, 55)) + dg(4), 16
    elif brand == "mc2":
        pre, n = str(R.randint(2221, 2720)) + dg(2), 16
    elif brand == "amex":
        pre, n = pick(["34", "37"]) + dg(4), 15
    elif brand == "discover":
        pre, n = pick(["6011", "65" + dg(2), "644" + dg(1)]) + dg(2), 16
    elif brand == "jcb":
        pre, n = str(R.randint(3528, 3589)) + dg(2), 16
    elif brand == "unionpay":
        pre, n = "62" + dg(4), pick([16, 16, 19])
    else:
        pre, n = "36" + dg(4), 14
    num = luhn_complete(pre + dg(n - 1 - len(pre)))
    assert luhn_ok(num) and len(num) == n
    style = R.random()
    if n == 15 and style < 0.6:
        return "%s %s %s" % (num[:4], num[4:10], num[10:])
    if n == 14 and style < 0.5:
        return "%s %s %s" % (num[:4], num[4:10], num[10:])
    if n == 16 and style < 0.45:
        return " ".join(num[i:i + 4] for i in range(0, 16, 4))
    if n == 16 and style < 0.6:
        return "-".join(num[i:i + 4] for i in range(0, 16, 4))
    return num


IBAN_SPECS = {
    "DE": "18n", "FR": "10n11n2n", "ES": "20n", "IT": "1a10n12n", "NL": "4a10n", "BE": "12n",
    "AT": "16n", "CH": "5n12n", "GB": "4a14n", "IE": "4a14n", "PL": "24n", "PT": "21n",
    "SE": "20n", "NO": "11n", "DK": "14n", "FI": "14n", "LU": "3n13n", "CZ": "20n",
    "SK": "20n", "HU": "24n", "RO": "4a16c", "BG": "4a6n8c", "HR": "17n", "SI": "15n",
    "EE": "16n", "LT": "16n", "LV": "4a13c", "GR": "7n16n", "TR": "5n1z16n", "SA": "2n18n",
    "AE": "3n16n", "IL": "19n", "BR": "23n1a1c", "IS": "22n", "MT": "4a5n18c", "CY": "8n16n", "UA": "6n19n",
}


def _bban(spec):
    out, num = [], ""
    for ch in spec:
        if ch.isdigit():
            num += ch
            continue
        k, num = int(num), ""
        if ch == "n":
            out.append(dg(k))
        elif ch == "a":
            out.append(rs(k, UP))
        elif ch == "z":
            out.append("0" * k)
        else:
            out.append("".join(pick(DG + DG + UP) for _ in range(k)))
    return "".join(out)


def _es_dc(ten):
    t = wsum(ten, [1, 2, 4, 8, 5, 10, 9, 7, 3, 6])
    d = 11 - t % 11
    return {11: 0, 10: 1}.get(d, d)


def iban(cc=None, spaced=None):
    cc = cc or pick(list(IBAN_SPECS))
    while True:
        b = _bban(IBAN_SPECS[cc])
        if cc == "BE":
            first = b[:10]
            k = int(first) % 97 or 97
            b = first + "%02d" % k
        elif cc == "FR":
            bank, branch, acct = b[:5], b[5:10], b[10:21]
            key = 97 - ((89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97)
            b = bank + branch + acct + "%02d" % key
        elif cc == "ES":
            bank, branch, acct = b[:4], b[4:8], b[10:20]
            b = bank + branch + str(_es_dc("00" + bank + branch)) + str(_es_dc(acct)) + acct
        elif cc == "NO":
            t = wsum(b[:10], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2])
            k = 11 - t % 11
            if k == 10:
                continue
            b = b[:10] + str(0 if k == 11 else k)
        elif cc == "FI":
            b = luhn_complete(b[:13])
        elif cc == "IT":
            rest = b[1:]
            b = cf_char(rest) + rest
        out = iban_make(cc, b)
        assert iban_ok(out) and len(out) == 4 + len(b)
        break
    if spaced is None:
        spaced = chance(0.5)
    if spaced:
        return " ".join(out[i:i + 4] for i in range(0, len(out), 4))
    return out


# ------------------------------------------------------------- national identifiers

def id_ssn():
    while True:
        a = R.randint(1, 899)
        if a != 666:
            break
    s = "%03d-%02d-%04d" % (a, R.randint(1, 99), R.randint(1, 9999))
    return s if chance(0.85) else s.replace("-", " ")


def id_aadhaar():
    body = str(R.randint(2, 9)) + dg(10)
    n = body + verhoeff_digit(body)
    assert verhoeff_ok(n)
    return " ".join(n[i:i + 4] for i in range(0, 12, 4)) if chance(0.7) else n


def id_ar_cuit():
    while True:
        pre = pick(["20", "20", "27", "27", "23", "30", "33"])
        dni = str(R.randint(10_000_000, 45_999_999))
        t = wsum(pre + dni, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2])
        c = 11 - t % 11
        if c == 10:
            continue
        c = 0 if c == 11 else c
        return "%s-%s-%d" % (pre, dni, c) if chance(0.75) else "%s%s%d" % (pre, dni, c)


def id_au_tfn():
    while True:
        d8 = nzdg(8)
        t = wsum(d8, [1, 4, 3, 7, 5, 8, 6, 9])
        c = t % 11
        if c == 10:
            continue
        n = d8 + str(c)
        assert v_tfn(n)
        return "%s %s %s" % (n[:3], n[3:6], n[6:]) if chance(0.6) else n


def id_be_nrn():
    b = birth(1945, 2008)
    serial = R.randint(1, 997)
    base = "%02d%02d%02d%03d" % (b.year % 100, b.month, b.day, serial)
    n = int(("2" if b.year >= 2000 else "") + base)
    ck = 97 - n % 97
    if chance(0.6):
        return "%s.%s.%s-%s.%02d" % (base[:2], base[2:4], base[4:6], base[6:9], ck)
    return base + "%02d" % ck


def id_br_cpf():
    while True:
        d = [R.randint(0, 9) for _ in range(9)]
        if len(set(d)) > 1:
            break
    for n in (9, 10):
        t = sum(d[i] * (n + 1 - i) for i in range(n))
        d.append((t * 10) % 11 % 10)
    s = "".join(map(str, d))
    assert v_cpf(s)
    return "%s.%s.%s-%s" % (s[:3], s[3:6], s[6:9], s[9:]) if chance(0.75) else s


def id_ca_sin():
    n = luhn_complete(str(R.randint(1, 7)) + dg(7))
    return pick(["%s %s %s", "%s-%s-%s", "%s%s%s"]) % (n[:3], n[3:6], n[6:])


def id_ch_ahv():
    body = "756" + dg(9)
    t = sum(int(x) * (3 if i % 2 else 1) for i, x in enumerate(body))
    n = body + str((10 - t % 10) % 10)
    assert v_ean13(n)
    return "%s.%s.%s.%s" % (n[:3], n[3:7], n[7:11], n[11:]) if chance(0.8) else n


def id_cl_rut():
    body = str(R.randint(5_000_000, 26_999_999))
    t = sum(int(c) * w for c, w in zip(reversed(body), [2, 3, 4, 5, 6, 7] * 3))
    r = 11 - t % 11
    dv = {11: "0", 10: "K"}.get(r, str(r))
    dotted = "{:,}".format(int(body)).replace(",", ".")
    out = "%s-%s" % (dotted if chance(0.7) else body, dv)
    assert v_rut(out)
    return out


_CN_AREAS = ["110101", "110105", "110108", "310104", "310115", "440305", "440106", "510104",
             "330106", "320102", "420106", "610113", "500103", "370202", "210102", "350203"]


def id_cn_ric():
    b = birth(1955, 2005)
    body = pick(_CN_AREAS) + b.strftime("%Y%m%d") + "%03d" % R.randint(0, 999)
    n = body + "10X98765432"[wsum(body, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]) % 11]
    assert v_cn(n)
    return n


def id_de_tax_id():
    while True:
        dup = R.randint(0, 9)
        ds = R.sample([d for d in range(10) if d != dup], 8) + [dup, dup]
        R.shuffle(ds)
        if ds[0] != 0:
            break
    body = "".join(map(str, ds))
    n = body + str(mod11_10(body))
    if chance(0.4):
        return "%s %s %s %s" % (n[:2], n[2:5], n[5:8], n[8:])
    return n


def id_hr_oib():
    body = nzdg(10)
    return body + str(mod11_10(body))


def id_dk_cpr():
    while True:
        b = birth(1940, 1999)
        nine = b.strftime("%d%m%y") + str(R.randint(0, 3)) + dg(2)
        t = wsum(nine, [4, 3, 2, 7, 6, 5, 4, 3, 2])
        c = (11 - t % 11) % 11
        if c == 10:
            continue
        n = nine + str(c)
        return n[:6] + "-" + n[6:] if chance(0.8) else n


def id_ee_ik():
    b = birth(1945, 2008)
    g = (3 if b.year < 2000 else 5) + R.randint(0, 1)
    d10 = str(g) + b.strftime("%y%m%d") + dg(3)
    t = wsum(d10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11
    if t == 10:
        t = wsum(d10, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11
        t = 0 if t == 10 else t
    n = d10 + str(t)
    assert v_ee(n)
    return n


def id_es_dni():
    n = R.randint(10_000_000, 79_999_999)
    s = "%d%s" % (n, "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23])
    assert v_dni(s)
    return s if chance(0.75) else s[:-1] + "-" + s[-1]


def id_es_nie():
    p = pick("XYZ")
    n = R.randint(0, 9_999_999)
    s = "%s%07d%s" % (p, n, "TRWAGMYFPDXBNJZSQVHLCKE"[int("XYZ".index(p) * 10_000_000 + n) % 23])
    assert v_dni(s)
    return s if chance(0.8) else "%s-%s-%s" % (s[0], s[1:8], s[8])


def id_fi_hetu():
    b = birth(1945, 2010)
    nnn = "%03d" % R.randint(2, 899)
    ddmmyy = b.strftime("%d%m%y")
    sign = "-" if b.year < 2000 else pick("AAB")
    n = ddmmyy + sign + nnn + "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(ddmmyy + nnn) % 31]
    assert v_hetu(n)
    return n


def id_fr_nir():
    b = birth(1945, 2005)
    dept = "%02d" % pick([d for d in range(1, 96) if d != 20])
    n13 = "%d%02d%02d%s%03d%03d" % (R.randint(1, 2), b.year % 100, b.month, dept,
                                     R.randint(1, 990), R.randint(1, 999))
    key = 97 - int(n13) % 97
    if chance(0.5):
        return "%s %s %s %s %s %s %02d" % (n13[0], n13[1:3], n13[3:5], n13[5:7], n13[7:10],
                                          n13[10:13], key)
    return n13 + "%02d" % key


def id_hk_hkid():
    L = pick("ABCDEGHKMPRVYZ")
    ds = dg(6)
    t = 36 * 9 + (ord(L) - 55) * 8 + wsum(ds, [7, 6, 5, 4, 3, 2])
    c = 11 - t % 11
    ck = "0" if c == 11 else ("A" if c == 10 else str(c))
    s = "%s%s(%s)" % (L, ds, ck)
    assert v_hk(s)
    return s if chance(0.8) else s.replace("(", "").replace(")", "")


def id_ie_ppsn():
    d7 = dg(7)
    t = wsum(d7, [8, 7, 6, 5, 4, 3, 2])
    second = ""
    if chance(0.4):
        second = "A"
        t += 9 * 1
    return d7 + "WABCDEFGHIJKLMNOPQRSTUV"[t % 23] + second


def id_il_tz():
    body = str(R.randint(0, 3)) + dg(7)
    for c in DG:
        s = body + c
        tot = 0
        for i, ch in enumerate(s):
            x = int(ch) * (1 if i % 2 == 0 else 2)
            tot += x - 9 if x > 9 else x
        if tot % 10 == 0:
            return s
    raise AssertionError


def id_in_pan():
    return rs(3, UP) + pick("PPPPPCHF") + rs(1, UP) + dg(4) + rs(1, UP)


_CF_SURN = ["ROSSI", "BIANCHI", "ESPOSITO", "ROMANO", "COLOMBO", "RICCI", "MARINO", "GRECO",
            "BRUNO", "GALLO", "CONTI", "DE LUCA", "MANCINI", "COSTA", "GIORDANO", "RIZZO",
            "LOMBARDI", "MORETTI", "FERRARI", "BARBIERI", "FONTANA", "SANTORO"]
_CF_MALE = ["MARCO", "LUCA", "GIUSEPPE", "ANDREA", "FRANCESCO", "ALESSANDRO", "MATTEO",
            "LORENZO", "DAVIDE", "STEFANO", "PAOLO", "ROBERTO"]
_CF_FEM = ["GIULIA", "FRANCESCA", "CHIARA", "SARA", "VALENTINA", "ELENA", "MARTINA",
           "SILVIA", "ALESSIA", "FEDERICA", "LAURA", "ANNA"]
_BELFIORE = ["H501", "F205", "F839", "L219", "G273", "D969", "A944", "D612", "A662", "C351",
             "L736", "L781", "B157", "E506"]


def _cf_part(s, is_name):
    s = s.replace(" ", "").replace("'", "")
    cons = [c for c in s if c not in "AEIOU"]
    vows = [c for c in s if c in "AEIOU"]
    if is_name and len(cons) >= 4:
        return cons[0] + cons[2] + cons[3]
    return "".join((cons + vows + ["X"] * 3)[:3])


def id_it_cf(sur=None, name=None, female=None):
    female = chance(0.5) if female is None else female
    sur = sur or pick(_CF_SURN)
    name = name or pick(_CF_FEM if female else _CF_MALE)
    b = birth(1945, 2004)
    body = (_cf_part(sur, False) + _cf_part(name, True) + "%02d" % (b.year % 100)
            + "ABCDEHLMPRST"[b.month - 1] + "%02d" % (b.day + (40 if female else 0))
            + pick(_BELFIORE))
    s = body + cf_char(body)
    assert v_cf(s)
    return s


def id_jp_my_number():
    d11 = nzdg(11)
    t = sum(int(d11[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12))
    r = t % 11
    n = d11 + str(0 if r <= 1 else 11 - r)
    assert v_jp(n)
    return pick(["%s %s %s", "%s-%s-%s", "%s%s%s"]) % (n[:4], n[4:8], n[8:])


def id_kr_rrn():
    b = birth(1950, 2012)
    g = (1 if b.year < 2000 else 3) + R.randint(0, 1)
    d12 = b.strftime("%y%m%d") + str(g) + dg(5)
    c = (11 - wsum(d12, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11) % 10
    return d12[:6] + "-" + d12[6:] + str(c)


_CURP_S = ["GARCIA", "HERNANDEZ", "LOPEZ", "MARTINEZ", "GONZALEZ", "RODRIGUEZ", "PEREZ",
           "SANCHEZ", "RAMIREZ", "TORRES", "FLORES", "RIVERA", "GOMEZ", "DIAZ", "CRUZ",
           "MORALES", "REYES", "ORTIZ", "CASTILLO", "VARGAS"]
_CURP_N = ["JUAN", "CARLOS", "LUIS", "FERNANDO", "ALEJANDRO", "RICARDO", "DIEGO", "SOFIA",
           "GABRIELA", "DANIELA", "ANDREA", "PAULINA", "VALERIA", "LETICIA", "ROBERTO"]
_CURP_STATES = ["AS", "BC", "BS", "CC", "CL", "CM", "CS", "CH", "DF", "DG", "GT", "GR", "HG",
                "JC", "MC", "MN", "MS", "NT", "NL", "OC", "PL", "QT", "QR", "SP", "SL", "SR",
                "TC", "TS", "TL", "VZ", "YN", "ZS"]
_CURP_BAD = ["BUEI", "CACA", "CAGO", "COGE", "COJO", "FETO", "GUEY", "JOTO", "KACA", "KAGO",
             "MAME", "MAMO", "MEAR", "MEON", "MION", "MOCO", "PEDO", "PENE", "PUTA", "PUTO",
             "QULO", "RATA", "RUIN", "CULO", "LOCA", "LOCO", "LOKA", "LOKO", "MOCO", "NACA"]


def id_mx_curp():
    while True:
        s1, s2, nm = pick(_CURP_S), pick(_CURP_S), pick(_CURP_N)
        iv = next(c for c in s1[1:] if c in "AEIOU")
        head = s1[0] + iv + s2[0] + nm[0]
        if head not in _CURP_BAD:
            break
    cons = lambda w: next((c for c in w[1:] if c not in "AEIOU"), "X")
    b = birth(1950, 2008)
    female = nm in ("SOFIA", "GABRIELA", "DANIELA", "ANDREA", "PAULINA", "VALERIA", "LETICIA")
    body = (head + b.strftime("%y%m%d") + ("M" if female else "H") + pick(_CURP_STATES)
            + cons(s1) + cons(s2) + cons(nm) + (str(R.randint(0, 9)) if b.year < 2000 else pick(UP)))
    chars = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
    t = sum(chars.index(c) * (18 - i) for i, c in enumerate(body))
    return body + str((10 - t % 10) % 10)


def id_nl_bsn():
    while True:
        d8 = nzdg(8)
        c = wsum(d8, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
        if c == 10:
            continue
        n = d8 + str(c)
        assert v_bsn(n)
        return n if chance(0.8) else "%s.%s.%s" % (n[:4], n[4:6], n[6:])


def id_no_fnr():
    while True:
        b = birth(1945, 2008)
        ind = "%03d" % (R.randint(0, 499) if b.year < 2000 else R.randint(500, 999))
        d9 = b.strftime("%d%m%y") + ind
        k1 = 11 - wsum(d9, [3, 7, 6, 1, 8, 9, 4, 5, 2]) % 11
        if k1 == 10:
            continue
        k1 = 0 if k1 == 11 else k1
        d10 = d9 + str(k1)
        k2 = 11 - wsum(d10, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
        if k2 == 10:
            continue
        k2 = 0 if k2 == 11 else k2
        n = d10 + str(k2)
        return n if chance(0.7) else n[:6] + " " + n[6:]


def id_pl_pesel():
    b = birth(1945, 2010)
    mm = b.month + (20 if b.year >= 2000 else 0)
    d10 = "%02d%02d%02d" % (b.year % 100, mm, b.day) + dg(4)
    n = d10 + str((10 - wsum(d10, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10) % 10)
    assert v_pesel(n)
    return n


def id_pt_nif():
    d8 = pick("123123125") + dg(7)
    r = wsum(d8, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
    n = d8 + str(0 if r < 2 else 11 - r)
    assert v_nif(n)
    return n if chance(0.75) else "%s %s %s" % (n[:3], n[3:6], n[6:])


def id_ro_cnp():
    b = birth(1945, 2008)
    s = (1 if b.year < 2000 else 5) + R.randint(0, 1)
    county = "%02d" % pick(list(range(1, 47)) + [51, 52])
    d12 = str(s) + b.strftime("%y%m%d") + county + "%03d" % R.randint(1, 999)
    r = wsum(d12, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11
    return d12 + ("1" if r == 10 else str(r))


def id_se_pnr():
    b = birth(1940, 2008)
    n = luhn_complete(b.strftime("%y%m%d") + dg(3))
    sep = "-" if chance(0.85) else ""
    if chance(0.3):
        return b.strftime("%Y") + n[2:6] + sep + n[6:]
    return n[:6] + sep + n[6:]


def id_sg_nric():
    p = pick("SSSTTFG")
    d7 = dg(7)
    t = wsum(d7, [2, 7, 6, 5, 4, 3, 2]) + (4 if p in "TG" else 0)
    tab = "JZIHGFEDCBA" if p in "ST" else "XWUTRQPNMLK"
    return p + d7 + tab[t % 11]


def id_tr_tckn():
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d.append((sum(d[0:9:2]) * 7 - sum(d[1:8:2])) % 10)
    d.append(sum(d) % 10)
    s = "".join(map(str, d))
    assert v_tckn(s)
    return s


def id_uk_nino():
    while True:
        a = pick("ABCEGHJKLMNOPRSTWXYZ")
        b = pick("ABCEGHJKLMNPRSTWXYZ")
        if a + b not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            break
    d = dg(6)
    sfx = pick("ABCD")
    if chance(0.5):
        return "%s%s %s %s %s %s" % (a, b, d[:2], d[2:4], d[4:], sfx)
    return a + b + d + sfx


def id_za_id():
    b = birth(1945, 2005)
    n = luhn_complete(b.strftime("%y%m%d") + "%04d" % R.randint(0, 9999) + pick("0001") + "8")
    return n


def id_bg_egn():
    b = birth(1945, 2010)
    mm = b.month + (40 if b.year >= 2000 else 0)
    d9 = "%02d%02d%02d" % (b.year % 100, mm, b.day) + dg(3)
    r = wsum(d9, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11
    return d9 + ("0" if r == 10 else str(r))


def id_is_kennitala():
    while True:
        b = birth(1945, 2008)
        d8 = b.strftime("%d%m%y") + str(R.randint(20, 99))
        c = 11 - wsum(d8, [3, 2, 7, 6, 5, 4, 3, 2]) % 11
        if c == 10:
            continue
        c = 0 if c == 11 else c
        n = d8 + str(c) + ("9" if b.year < 2000 else "0")
        return n[:6] + "-" + n[6:] if chance(0.75) else n


def id_cz_rc():
    while True:
        b = birth(1955, 2008)
        mm = b.month + (50 if chance(0.5) else 0)
        d9 = "%02d%02d%02d" % (b.year % 100, mm, b.day) + dg(3)
        c = int(d9) % 11
        if c == 10:
            continue
        n = d9 + str(c)
        assert int(n) % 11 == 0
        return n[:6] + "/" + n[6:] if chance(0.8) else n


NATIONAL_IDS = {
    "ssn": id_ssn, "aadhaar": id_aadhaar, "ar_cuit": id_ar_cuit, "au_tfn": id_au_tfn,
    "be_nrn": id_be_nrn, "br_cpf": id_br_cpf, "ca_sin": id_ca_sin, "ch_ahv": id_ch_ahv,
    "cl_rut": id_cl_rut, "cn_ric": id_cn_ric, "de_tax_id": id_de_tax_id, "dk_cpr": id_dk_cpr,
    "ee_ik": id_ee_ik, "es_dni": id_es_dni, "es_nie": id_es_nie, "fi_hetu": id_fi_hetu,
    "fr_nir": id_fr_nir, "hk_hkid": id_hk_hkid, "ie_ppsn": id_ie_ppsn, "il_tz": id_il_tz,
    "in_pan": id_in_pan, "it_codice_fiscale": id_it_cf, "jp_my_number": id_jp_my_number,
    "kr_rrn": id_kr_rrn, "mx_curp": id_mx_curp, "nl_bsn": id_nl_bsn, "no_fnr": id_no_fnr,
    "pl_pesel": id_pl_pesel, "pt_nif": id_pt_nif, "ro_cnp": id_ro_cnp,
    "se_personnummer": id_se_pnr, "sg_nric": id_sg_nric, "tr_tckn": id_tr_tckn,
    "uk_nino": id_uk_nino, "za_id": id_za_id, "bg_egn": id_bg_egn, "hr_oib": id_hr_oib,
    "is_kennitala": id_is_kennitala, "cz_rc": id_cz_rc,
}


# ------------------------------------------------------------------ token generators

def t_aws_key():
    return pick(["AKIA", "AKIA", "AKIA", "ASIA"]) + rs(16, B32U)


def t_aws_secret():
    return rs(40, AN + "/+")


def t_github():
    k = R.random()
    if k < 0.55:
        return "ghp_" + rs(36)
    if k < 0.78:
        return "github_pat_11" + rs(20, UP + DG) + "_" + rs(59)
    return pick(["gho_", "ghu_", "ghs_", "ghr_"]) + rs(36)


def t_gitlab():
    k = R.random()
    if k < 0.7:
        return "glpat-" + rs(20, B64U)
    return pick(["gldt-", "glrt-", "glcbt-", "glft-"]) + rs(20, B64U)


def t_openai():
    k = R.random()
    if k < 0.55:
        return "sk-proj-" + rs(74, B64U) + "T3BlbkFJ" + rs(74, B64U)
    if k < 0.75:
        return "sk-" + rs(20) + "T3BlbkFJ" + rs(20)
    if k < 0.9:
        return "sk-svcacct-" + rs(74, B64U) + "T3BlbkFJ" + rs(74, B64U)
    return "sk-admin-" + rs(74, B64U) + "T3BlbkFJ" + rs(74, B64U)


def t_anthropic():
    return pick(["sk-ant-api03-"] * 5 + ["sk-ant-admin01-"]) + rs(93, B64U) + "AA"


def t_google_api_key():
    return "AIzaSy" + rs(33, B64U)


def t_google_oauth_secret():
    return "GOCSPX-" + rs(28, B64U)


def t_google_oauth_token():
    if chance(0.75):
        return "ya29.a0" + rs(R.randint(140, 200), B64U)
    return "1//0" + rs(1, "abcdefg") + rs(R.randint(96, 100), B64U)


def t_slack_token():
    k = R.random()
    if k < 0.45:
        return "xoxb-%s-%s-%s" % (nzdg(R.randint(11, 13)), nzdg(13), rs(24))
    if k < 0.75:
        return "xoxp-%s-%s-%s-%s" % (nzdg(11), nzdg(12), nzdg(13), hx(32))
    if k < 0.9:
        return "xapp-1-A%s-%s-%s" % (rs(10, UP + DG), nzdg(13), hx(64))
    return "xoxe.xoxp-1-" + rs(140, B64U)


def t_slack_webhook():
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (
        rs(R.choice([8, 10]), UP + DG), rs(R.choice([8, 10]), UP + DG), rs(24))


def t_stripe():
    k = R.random()
    if k < 0.45:
        return "sk_live_51" + rs(R.choice([97, 97, 22]))
    if k < 0.6:
        return "rk_live_51" + rs(97)
    if k < 0.75:
        return "sk_live_" + rs(24)
    if k < 0.88:
        return "whsec_" + rs(32)
    return "sk_test_51" + rs(97)


def t_sendgrid():
    return "SG." + rs(22, B64U) + "." + rs(43, B64U)


def t_twilio():
    return "SK" + hx(32)


def t_datadog():
    return hx(32) if chance(0.7) else hx(40)


def t_discord_token():
    uid_ = str(R.randint(10 ** 17, 13 * 10 ** 17))
    return b64u(uid_.encode()) + "." + rs(6, B64U) + "." + rs(pick([27, 38]), B64U)


def t_discord_webhook():
    host = pick(["discord.com", "discord.com", "discordapp.com"])
    return "https://%s/api/webhooks/%s/%s" % (host, str(R.randint(7 * 10 ** 17, 14 * 10 ** 17)), rs(68, B64U))


def t_teams_webhook():
    tenant = pick(["contoso", "northwindtraders", "fabrikam365", "helio", "acmecorp"])
    u = "https://%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s" % (
        tenant, uid(), uid(), hx(32), uid())
    if chance(0.5):
        u += "/V2" + rs(43, B64U)
    return u


def t_telegram():
    return "%d:AA%s" % (R.randint(10 ** 8, 8 * 10 ** 9), rs(33, B64U))


def t_npm():
    return "npm_" + rs(36)


def t_pypi():
    return "pypi-AgEIcHlwaS5vcmc" + pick(["CJ", "CJD", "CJG"]) + rs(R.randint(120, 170), B64U)


def t_hf():
    return "hf_" + rs(34, UP + LO) if chance(0.5) else "hf_" + rs(34)


def t_jwt(payload=None, alg=None):
    alg = alg or pick(["HS256", "HS256", "RS256", "ES256"])
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and chance(0.7):
        hdr["kid"] = hx(16) if chance(0.5) else rs(43, B64U)
    t0 = int(when().timestamp())
    if payload is None:
        payload = pick([
            {"sub": uid(), "iat": t0, "exp": t0 + 3600, "scope": "read:orders write:orders"},
            {"sub": str(R.randint(1000, 99999)), "name": pick(["Ana Souza", "Tom Berger", "Priya Nair"]),
             "role": pick(["admin", "member", "billing"]), "iat": t0},
            {"iss": "https://auth.%s" % pick(["acmecorp.io", "helio.dev", "fjordsoft.no"]),
             "aud": pick(["api", "orders-service", "https://api.helio.dev"]), "sub": "auth0|" + hx(24),
             "iat": t0, "exp": t0 + 86400, "azp": rs(32)},
            {"user_id": R.randint(1, 500000), "session": hx(16), "exp": t0 + 900},
            {"role": "service_role", "iss": "supabase", "iat": t0, "exp": t0 + 315360000},
        ])
    sig = {"HS256": 32, "RS256": 256, "ES256": 64}[alg]
    return (b64u(json.dumps(hdr, separators=(",", ":")).encode()) + "."
            + b64u(json.dumps(payload, separators=(",", ":")).encode()) + "." + b64u(rbytes(sig)))


def _wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def t_private_key(kind=None):
    kind = kind or pick(["rsa", "rsa", "pkcs8", "ec", "openssh", "openssh"])
    if kind == "rsa":
        der = bytes.fromhex("308204a40201000282010100") + rbytes(256) + bytes.fromhex("0203010001") + rbytes(920)
        return "-----BEGIN RSA PRIVATE KEY-----\n%s\n-----END RSA PRIVATE KEY-----" % _wrap(base64.b64encode(der).decode())
    if kind == "pkcs8":
        der = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100") + rbytes(1160)
        return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % _wrap(base64.b64encode(der).decode())
    if kind == "ec":
        der = (bytes.fromhex("30770201010420") + rbytes(32)
               + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + rbytes(64))
        return "-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----" % _wrap(base64.b64encode(der).decode())
    pub = rbytes(32)
    blob = (b"openssh-key-v1\x00" + b"\x00\x00\x00\x04none" * 2 + b"\x00\x00\x00\x00\x00\x00\x00\x01"
            + b"\x00\x00\x00\x33\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + pub
            + b"\x00\x00\x00\x88" + rbytes(8) + b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + pub
            + b"\x00\x00\x00\x40" + rbytes(64) + b"\x00\x00\x00\x0fci@build-04.lan" + b"\x01\x02\x03")
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % _wrap(base64.b64encode(blob).decode(), 70)


def t_bearer():
    k = R.random()
    if k < 0.4:
        return rs(pick([32, 40, 48, 64]), B64U)
    if k < 0.6:
        return hx(pick([40, 64]))
    if k < 0.8:
        return rs(8, LO + DG) + "." + rs(40, AN)
    return b64(32).rstrip("=")


def t_age():
    return "AGE-SECRET-KEY-1" + rs(58, BECH)


def t_airtable():
    return "pat" + rs(14) + "." + hx(64)


def t_alibaba():
    return "LTAI" + rs(pick([20, 20, 16]))


def t_alibaba_secret():
    return rs(30)


def t_asana():
    return pick(["2/", "1/"]) + nzdg(16) + "/" + nzdg(16) + ":" + hx(32)


def t_atlassian():
    return "ATATT3xFfGF0" + rs(170, B64U) + "=" + hx(8, True)


def t_azure_client_secret():
    return rs(3) + str(R.randint(0, 9)) + "Q~" + rs(34, AN + "_~.-")


def t_azure_devops():
    return rs(52, B32L)


def t_azure_storage():
    return base64.b64encode(rbytes(64)).decode()


def t_azure_sas_sig():
    return base64.b64encode(rbytes(32)).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def t_bitbucket():
    return "ATBB" + rs(28) + hx(8, True)


def t_braintree():
    return "access_token$production$" + rs(16, LO + DG) + "$" + hx(32)


def t_brevo():
    return "xkeysib-" + hx(64) + "-" + rs(16)


def t_buildkite():
    return "bkua_" + hx(40)


def t_circleci():
    return "CCIPAT_" + rs(22) + "_" + hx(40)


def t_clickup():
    return "pk_" + nzdg(pick([7, 8, 9])) + "_" + rs(32, UP + DG)


def t_clojars():
    return "CLOJARS_" + hx(60)


def t_cloudflare_key():
    return hx(37)


def t_cloudflare_token():
    return rs(40, B64U)


def t_cohere():
    return rs(40)


def t_contentful():
    return "CFPAT-" + rs(43, B64U)


def t_cratesio():
    return "cio" + rs(32)


def t_databricks():
    return "dapi" + hx(32) + ("-2" if chance(0.3) else "")


def t_deepseek():
    return "sk-" + hx(32)


def t_digitalocean():
    return pick(["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"]) + hx(64)


def t_django():
    cs = LO + DG + "!@#%^&*(-_=+)"
    return ("django-insecure-" if chance(0.4) else "") + rs(50, cs)


def t_dockerhub():
    return "dckr_pat_" + rs(27, B64U)


def t_doppler():
    if chance(0.6):
        return "dp.st." + pick(["prd", "dev", "stg", "ci"]) + "." + rs(40)
    return pick(["dp.pt.", "dp.sa.", "dp.ct."]) + rs(43)


def t_dropbox():
    return pick(["sl.", "sl.u."]) + rs(R.randint(130, 140), B64U)


def t_duffel():
    return pick(["duffel_live_", "duffel_live_", "duffel_test_"]) + rs(43, B64U)


def t_dynatrace():
    return "dt0c01." + rs(24, UP + DG) + "." + rs(64, UP + DG)


def t_easypost():
    return pick(["EZAK", "EZAK", "EZTK"]) + rs(54)


def t_elevenlabs():
    return "sk_" + hx(48)


def t_facebook():
    return "EAA" + pick("BGJICU") + rs(R.randint(150, 190))


def t_fcm():
    return "AAAA" + rs(7, B64U) + ":APA91b" + rs(134, B64U)


def t_figma():
    return "figd_" + rs(40, B64U)


def t_flutterwave():
    return pick(["FLWSECK-", "FLWSECK-", "FLWSECK_TEST-"]) + hx(32) + "-X"


def t_flyio():
    if chance(0.4):
        return "fo1_" + rs(43, B64U)
    return "fm2_lJPECAAAAAAAA" + rs(R.randint(180, 240), B64C) + "=="


def t_frameio():
    return "fio-u-" + rs(64, B64U)


def t_grafana():
    if chance(0.6):
        return "glsa_" + rs(32) + "_" + hx(8)
    body = json.dumps({"o": str(R.randint(100000, 999999)), "n": pick(["stack-", "ci-", "alloy-"]) + dg(6) + "-hm-read",
                       "k": rs(24), "m": {"r": pick(["prod-us-east-0", "prod-eu-west-2", "prod-ap-southeast-1"])}},
                      separators=(",", ":"))
    return "glc_" + base64.b64encode(body.encode()).decode().rstrip("=")


def t_groq():
    return "gsk_" + rs(52)


def t_heroku():
    return uid() if chance(0.5) else "HRKU-AA" + rs(58, B64U)


def t_honeycomb():
    if chance(0.6):
        return pick(["hcaik_", "hcxik_"]) + rs(58, LO + DG)
    return rs(22)


def t_hubspot():
    return pick(["pat-na1-", "pat-eu1-", "pat-na2-"]) + uid()


def t_jfrog():
    if chance(0.5):
        return "cmVmdGtuOjAxOj" + rs(50)
    return "AKCp8" + rs(68)


def t_kubeadm():
    return rs(6, LO + DG) + "." + rs(16, LO + DG)


def t_langfuse():
    return "sk-lf-" + uid()


def t_langsmith():
    return pick(["lsv2_pt_", "lsv2_sk_"]) + hx(32) + "_" + hx(10)


def t_launchdarkly():
    return pick(["sdk-", "sdk-", "api-"]) + uid()


def t_linear():
    return "lin_api_" + rs(40)


def t_mailchimp():
    return hx(32) + "-us" + str(R.randint(1, 21))


def t_mailgun():
    return "key-" + hx(32) if chance(0.5) else hx(32) + "-" + hx(8) + "-" + hx(8)


def t_mapbox():
    user = pick(["acme-maps", "fjordsoft", "tbergmann", "helio-geo", "kappadata"])
    mid = b64u(json.dumps({"u": user, "a": rs(25, LO + DG)}, separators=(",", ":")).encode())
    return "sk." + mid + "." + rs(22, B64U)


def t_mistral():
    return rs(32)


def t_modal_id():
    return "ak-" + rs(22)


def t_modal_secret():
    return "as-" + rs(22)


def t_mollie():
    return pick(["live_", "live_", "test_"]) + rs(30)


def t_netlify():
    return "nfp_" + rs(36)


def t_new_relic():
    k = R.random()
    if k < 0.5:
        return "NRAK-" + rs(27, UP + DG)
    if k < 0.8:
        return hx(36) + "NRAL"
    return "NRII-" + rs(32, B64U)


def t_ngrok():
    return "2" + rs(26) + "_" + rs(22)


def t_notion():
    return "secret_" + rs(43) if chance(0.5) else "ntn_" + dg(11) + rs(35)


def t_nuget():
    return "oy2" + rs(43, LO + DG)


def t_okta():
    return "00" + rs(40, B64U)


def t_onepassword():
    inner = {"signInAddress": pick(["my.1password.com", "acme.1password.eu", "helio.1password.com"]),
             "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": rs(22, B64U)},
             "email": rs(12, LO + DG) + "@1passwordserviceaccounts.com",
             "srpX": hx(64), "muk": {"alg": "A256GCM", "ext": True, "k": rs(43, B64U), "key_ops": ["encrypt", "decrypt"],
                                     "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + rs(6, UP + DG) + "-" + rs(6, UP + DG) + "-" + rs(5, UP + DG),
             "throttleSecret": {"seed": hx(64), "uuid": rs(26, UP + DG)}, "deviceUuid": rs(26, LO + DG)}
    return "ops_" + b64u(json.dumps(inner, separators=(",", ":")).encode())


def t_openrouter():
    return "sk-or-v1-" + hx(64)


def t_openshift():
    return "sha256~" + rs(43, B64U)


def t_paystack():
    return pick(["sk_live_", "sk_live_", "sk_test_"]) + hx(40)


def t_perplexity():
    return "pplx-" + rs(48)


def t_pinecone():
    return "pcsk_" + rs(6) + "_" + rs(63) if chance(0.7) else uid()


def t_plaid():
    return pick(["access-production-", "access-development-", "access-sandbox-"]) + uid()


def t_planetscale():
    return pick(["pscale_tkn_", "pscale_pw_", "pscale_oauth_"]) + rs(43, B64U)


def t_postman():
    return "PMAK-" + hx(24) + "-" + hx(34)


def t_prefect():
    return "pnu_" + rs(36)


def t_pulumi():
    return "pul-" + hx(40)


def t_razorpay_id():
    return pick(["rzp_live_", "rzp_live_", "rzp_test_"]) + rs(14)


def t_readme():
    return "rdme_" + rs(70, LO + DG)


def t_render():
    return "rnd_" + rs(32)


def t_replicate():
    return "r8_" + rs(37)


def t_resend():
    return "re_" + rs(8) + "_" + rs(24)


def t_rubygems():
    return "rubygems_" + hx(48)


def t_salesforce():
    return "00D" + rs(12, UP + DG) + "!" + rs(R.randint(90, 110), AN + "._")


def t_scalingo():
    return "tk-us-" + rs(48, B64U)


def t_sentry():
    if chance(0.4):
        return "sntryu_" + hx(64)
    body = json.dumps({"iat": float(int(when().timestamp())) + 0.5, "url": "https://sentry.io",
                       "region_url": pick(["https://us.sentry.io", "https://de.sentry.io"]),
                       "org": pick(["acme", "helio", "fjordsoft", "kappa-data"])}, separators=(",", ":"))
    return "sntrys_" + base64.b64encode(body.encode()).decode().rstrip("=") + "_" + rs(43, B64C)


def t_shippo():
    return pick(["shippo_live_", "shippo_live_", "shippo_test_"]) + hx(40)


def t_shopify():
    return pick(["shpat_", "shpat_", "shpss_", "shpca_", "shppa_"]) + hx(32)


def t_sonar():
    return pick(["squ_", "squ_", "sqp_", "sqa_"]) + hx(40)


def t_square():
    k = R.random()
    if k < 0.5:
        return "EAAA" + rs(60, B64U)
    if k < 0.75:
        return "sq0atp-" + rs(22, B64U)
    return "sq0csp-" + rs(43, B64U)


def t_supabase():
    return "sbp_" + hx(40) if chance(0.7) else "sb_secret_" + rs(31, B64U)


def t_tailscale():
    return "tskey-%s-k%sCNTRL-%s" % (pick(["auth", "auth", "api", "client"]), rs(pick([8, 10, 11]), AN), rs(33))


def t_tencent_id():
    return "AKID" + rs(32)


def t_tencent_secret():
    return rs(32)


def t_terraform():
    return rs(14) + ".atlasv1." + rs(67, B64U)


def t_trello():
    return "ATTA" + hx(64) + hx(8, True) if chance(0.7) else hx(64)


def t_twitter():
    return "A" * 21 + rs(8, UP + LO) + "A" * 7 + rs(14) + "%2B" + rs(10) + "%3D" + rs(50)


def t_typeform():
    return "tfp_" + rs(44, AN + "_-") + "_" + rs(14)


def t_vault():
    k = R.random()
    if k < 0.45:
        return "hvs.CAESI" + rs(R.randint(80, 100), B64U)
    if k < 0.75:
        return "hvs." + rs(24)
    if k < 0.88:
        return "hvb.AAAAAQ" + rs(120, B64U)
    return "s." + rs(24)


def t_wandb():
    return hx(40)


def t_woo_key():
    return "ck_" + hx(40)


def t_woo_secret():
    return "cs_" + hx(40)


def t_xai():
    return "xai-" + rs(80)


def t_yandex():
    if chance(0.55):
        return "AQVN" + rs(pick([35, 36, 37]), B64U)
    if chance(0.5):
        return "y0_AgAAAAA" + rs(50, B64U)
    return "t1.9euelZq" + rs(R.randint(150, 180), B64U) + "." + rs(86, B64U)


def t_zoho():
    return "1000." + hx(32) + "." + hx(32)


def t_sourcegraph():
    return "sgp_" + hx(16) + "_" + hx(40) if chance(0.6) else "sgp_" + hx(40)


def t_infracost():
    return "ico-" + rs(32)


# ------------------------------------------------------------------------ text helpers

_FIELD = _re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill(tpl, **kw):
    """Replace {name} for the names given; every other brace is left alone."""
    return _FIELD.sub(lambda m: str(kw[m.group(1)]) if m.group(1) in kw else m.group(0), tpl)


ORGS = ["acme", "helio", "fjordsoft", "kappa-data", "northwind", "bluefin", "tessera", "orbitlabs",
        "quillstack", "vantage-io", "lumenworks", "pinecrest"]
REPOS = ["infra", "billing-api", "web", "platform", "data-pipeline", "mobile-app", "checkout",
         "search-svc", "etl-jobs", "monorepo", "auth-gateway", "ml-serving"]
USERS = ["deploy", "ci-bot", "svc-release", "jenkins", "buildbot", "mkowalski", "asato", "lfernandes",
         "tnguyen", "rbauer", "dev", "ops"]
APPS = ["orders-api", "checkout-web", "ledger", "notifier", "search", "payments-worker", "reports",
        "inventory", "gateway", "scheduler"]
DOMAINS_CO = ["acme-corp.io", "helio.dev", "fjordsoft.no", "kappadata.it", "northwind-traders.com",
              "bluefin.app", "tessera.cloud", "orbitlabs.ai", "quillstack.co", "lumenworks.de"]


def common_kw():
    org = pick(ORGS)
    return dict(org=org, repo=pick(REPOS), user=pick(USERS), app=pick(APPS), domain=pick(DOMAINS_CO),
                uuid=uid(), uuid2=uid(), ver="v%d.%d.%d" % (R.randint(0, 4), R.randint(0, 30), R.randint(0, 12)),
                hex12=hx(12), hex24=hx(24), hex32=hx(32), hex64=hx(64), rs22=rs(22), n=R.randint(1, 9),
                digits=dg(10), ts=iso(), port=pick([443, 8443, 8080, 3000, 5000, 9000]))


ENV_FILLER = ["NODE_ENV=production", "PORT=3000", "LOG_LEVEL=info", "APP_NAME=billing-api",
              "REDIS_HOST=cache.internal", "TZ=UTC", "FEATURE_FLAGS=beta_dashboard,new_checkout",
              "SENTRY_ENVIRONMENT=staging", "AWS_REGION=eu-west-1", "DEBUG=false", "WORKERS=4",
              "HTTP_TIMEOUT_MS=15000", "OTEL_SERVICE_NAME=orders", "RAILS_ENV=production",
              "DATABASE_POOL=10", "QUEUE_NAME=default", "PUBLIC_URL=https://app.helio.dev",
              "CACHE_TTL=300", "ENABLE_METRICS=true", "GOMAXPROCS=4"]

SHELL_AFTER = [("make deploy ENV=staging", "==> building image\n==> pushing image\n==> rollout complete (41s)"),
               ("python -m app.sync --dry-run", "would sync 128 records (0 conflicts)"),
               ("npm run start", "> web@2.3.1 start\n> node dist/server.js\n\nlistening on :3000"),
               ("go run ./cmd/worker", "2024/05/11 09:12:03 worker started pid=48213 queue=default"),
               ("pytest tests/integration -q", "......................                               [100%]\n22 passed in 8.31s"),
               ("./scripts/smoke.sh", "GET /health 200\nGET /v1/status 200\nsmoke OK"),
               ("docker compose up -d", "[+] Running 3/3\n ✔ Container app-db-1     Started\n ✔ Container app-cache-1  Started\n ✔ Container app-web-1    Started"),
               ("cargo run --release --bin ingest", "    Finished `release` profile [optimized] target(s) in 0.21s\n     Running `target/release/ingest`\ningested 5021 rows")]


def gh_ts(t):
    """GitHub Actions log timestamp (7 fractional digits)."""
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%06d%d" % (t.microsecond, R.randint(0, 9)) + "Z"


def _hdr(sp, v):
    h = sp["hdr"](v) if callable(sp["hdr"]) else sp["hdr"].replace("{v}", v)
    name, _, val = h.partition(": ")
    return h, name, val


def c_env(sp, v, kw):
    var = pick(sp["vars"])
    lines = R.sample(ENV_FILLER, R.randint(2, 5))
    lines.insert(R.randint(0, len(lines)), "%s=%s" % (var, v if chance(0.7) else '"%s"' % v))
    head = pick(["", "", "# .env\n", "$ cat .env.local\n", "==> .env.production <==\n",
                 "# copied from the vault entry, do not commit\n", "$ cat apps/api/.env\n"])
    return head + "\n".join(lines)


def c_export(sp, v, kw):
    var = pick(sp["vars"])
    q = pick(["", "", "'", '"'])
    cmd, out = pick(SHELL_AFTER)
    prompt = pick(["$ ", "% ", "%s@%s:~/%s$ " % (kw["user"], pick(["devbox", "ci-runner-7", "mbp"]), kw["repo"]), "❯ "])
    return "%sexport %s=%s%s%s\n%s%s\n%s" % (prompt, var, q, v, q, prompt, cmd, out)


def c_curl(sp, v, kw):
    h, _, _ = _hdr(sp, v)
    tail = pick(["", " | jq .", " -o /dev/null -w '%{http_code}\\n'", " --fail-with-body"])
    method = pick(["", "", "-X POST "])
    body = " \\\n  -d @payload.json" if method else ""
    return "curl -sS %s%s \\\n  -H '%s' \\\n  -H 'Accept: application/json'%s%s" % (method, sp["url"], h, body, tail)


def c_httpie(sp, v, kw):
    h, name, val = _hdr(sp, v)
    return "$ http GET %s '%s:%s'\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{\n    \"ok\": true\n}" % (sp["url"], name, val)


def c_yaml(sp, v, kw):
    key = sp["key"]
    if chance(0.5):
        return "%s:\n  %s:\n    enabled: true\n    %s: %s\n    timeout: 30s\n" % (
            pick(["integrations", "providers", "services", "clients"]), sp["slug"], key, v if chance(0.6) else '"%s"' % v)
    base = ("base_url: %s\n" % sp["url"].split("?")[0]) if sp["url"] else ""
    return "# config/%s.yml\n%s: %s\nretries: 3\n%s" % (sp["slug"], key, v, base)


def c_json(sp, v, kw):
    return json.dumps({pick(["integrations", "providers", "credentials"]): {sp["slug"]: {
        sp["key"]: v, "enabled": True, "timeoutMs": pick([5000, 10000, 30000])}}}, indent=2)


def c_toml(sp, v, kw):
    base = ("endpoint = \"%s\"\n" % sp["url"].split("?")[0]) if sp["url"] else ""
    return "[%s.%s]\n%s = \"%s\"\n%smax_retries = 5\n" % (
        pick(["integrations", "clients", "providers"]), sp["slug"].replace("-", "_"), sp["key"], v, base)


def c_ini(sp, v, kw):
    return "[%s]\n%s = %s\nregion = %s\n" % (sp["slug"], sp["key"], v, pick(["us-east-1", "eu-central-1", "ap-south-1"]))


def c_props(sp, v, kw):
    base = "app.%s" % sp["slug"].replace("_", "-")
    return "%s.enabled=true\n%s.%s=%s\n%s.connect-timeout=5s" % (base, base, sp["key"].replace("_", "-"), v, base)


def c_xml(sp, v, kw):
    var = pick(sp["vars"])
    return ('<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <appSettings>\n'
            '    <add key="Environment" value="Production" />\n    <add key="%s" value="%s" />\n'
            '  </appSettings>\n</configuration>' % (var, v))


def c_docker(sp, v, kw):
    var = pick(sp["vars"])
    return "docker run -d --name %s --restart unless-stopped \\\n  -e %s=%s \\\n  -e LOG_LEVEL=info \\\n  -p 8080:8080 ghcr.io/%s/%s:%s" % (
        kw["app"], var, v, kw["org"], kw["app"], kw["ver"])


def c_k8s(sp, v, kw):
    var = pick(sp["vars"])
    return ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s-credentials\n  namespace: %s\ntype: Opaque\n"
            "stringData:\n  %s: %s\n" % (sp["slug"], pick(["default", "prod", "payments", "platform"]), var, v if chance(0.5) else '"%s"' % v))


def c_compose(sp, v, kw):
    var = pick(sp["vars"])
    if chance(0.5):
        env = "    environment:\n      - %s=%s\n      - TZ=UTC" % (var, v)
    else:
        env = "    environment:\n      %s: %s\n      TZ: UTC" % (var, v)
    return "services:\n  %s:\n    image: %s/%s:latest\n%s\n    ports:\n      - \"8080:8080\"" % (kw["app"], kw["org"], kw["app"], env)


def c_gha(sp, v, kw):
    var = pick(sp["vars"])
    return ("name: nightly\non:\n  schedule:\n    - cron: \"0 3 * * *\"\njobs:\n  sync:\n    runs-on: ubuntu-latest\n"
            "    env:\n      %s: %s\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/sync.sh" % (var, v))


def c_helm(sp, v, kw):
    return "helm upgrade --install %s ./charts/%s -n %s \\\n  --set image.tag=%s \\\n  --set %s.%s=%s" % (
        kw["app"], kw["app"], pick(["prod", "staging"]), kw["ver"], sp["slug"].replace("-", ""), camel(sp["key"]), v)


def c_systemd(sp, v, kw):
    var = pick(sp["vars"])
    return ("[Unit]\nDescription=%s worker\nAfter=network-online.target\n\n[Service]\nUser=%s\n"
            "Environment=\"%s=%s\"\nExecStart=/opt/%s/bin/%s --config /etc/%s/config.toml\nRestart=on-failure\n\n"
            "[Install]\nWantedBy=multi-user.target" % (kw["app"], kw["app"], var, v, kw["app"], kw["app"], kw["app"]))


def c_dockerfile(sp, v, kw):
    var = pick(sp["vars"])
    return "FROM python:3.12-slim\nWORKDIR /app\nENV %s=%s\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\nCOPY . .\nCMD [\"python\", \"-m\", \"app\"]" % (var, v)


def c_tf(sp, v, kw):
    key = sp["key"]
    if chance(0.5):
        return "# terraform.tfvars\nenvironment = \"prod\"\n%s_%s = \"%s\"\nregion = \"eu-west-1\"" % (sp["slug"].replace("-", "_"), key, v)
    return "variable \"%s_%s\" {\n  type      = string\n  sensitive = true\n  default   = \"%s\"\n}" % (sp["slug"].replace("-", "_"), key, v)


def c_diff(sp, v, kw):
    var = pick(sp["vars"])
    ln = R.randint(10, 90)
    key = var.upper()
    return ("diff --git a/config/settings.py b/config/settings.py\nindex %s..%s 100644\n--- a/config/settings.py\n"
            "+++ b/config/settings.py\n@@ -%d,7 +%d,7 @@ DEBUG = False\n ALLOWED_HOSTS = [\"*\"]\n"
            "-%s = os.environ[\"%s\"]\n+%s = \"%s\"\n TIME_ZONE = \"UTC\"" % (
                hx(7), hx(7), ln, ln, key, var, key, v))


CODE_TPL = {
    "python": ['import os\n\nos.environ["{VAR}"] = "{v}"\n', '{KEY} = "{v}"  # TODO: move to secrets manager\n',
               'session = requests.Session()\nsession.headers.update({"{hname}": "{hval}"})\nresp = session.get("{url}", timeout=10)\nresp.raise_for_status()',
               'settings = Settings(\n    {key}="{v}",\n    timeout=30,\n)'],
    "javascript": ['const {camel} = "{v}";\n', "const res = await fetch('{url}', {\n  headers: { '{hname}': '{hval}' },\n});",
                   "process.env.{VAR} ??= '{v}';"],
    "typescript": ['export const config = {\n  {camel}: "{v}",\n  retries: 3,\n} as const;',
                   "const client = axios.create({\n  baseURL: '{base}',\n  headers: { '{hname}': '{hval}' },\n});"],
    "go": ['req.Header.Set("{hname}", "{hval}")', 'const {camel} = "{v}"', 'os.Setenv("{VAR}", "{v}")'],
    "java": ['private static final String {KEY} = "{v}";', 'conn.setRequestProperty("{hname}", "{hval}");'],
    "csharp": ['client.DefaultRequestHeaders.Add("{hname}", "{hval}");', 'Environment.SetEnvironmentVariable("{VAR}", "{v}");',
               'var {camel} = "{v}";'],
    "ruby": ['ENV["{VAR}"] ||= "{v}"', "{KEY} = '{v}'.freeze"],
    "php": ["define('{VAR}', '{v}');", "$client = new \\GuzzleHttp\\Client(['headers' => ['{hname}' => '{hval}']]);"],
    "rust": ['let {key} = "{v}";', 'std::env::set_var("{VAR}", "{v}");',
             'let resp = client.get("{url}")\n    .header("{hname}", "{hval}")\n    .send()\n    .await?;'],
    "kotlin": ['val {camel} = "{v}"', 'private const val {KEY} = "{v}"'],
    "swift": ['let {camel} = "{v}"', 'request.setValue("{hval}", forHTTPHeaderField: "{hname}")'],
    "powershell": ['$env:{VAR} = "{v}"', '$headers = @{ "{hname}" = "{hval}" }\nInvoke-RestMethod -Uri "{url}" -Headers $headers'],
}
CODE_FILES = {"python": ["app/config.py", "scripts/sync.py", "jobs/export.py"],
              "javascript": ["src/client.js", "lib/api.js", "server/index.js"],
              "typescript": ["src/config.ts", "src/lib/http.ts"], "go": ["internal/client/client.go", "cmd/sync/main.go"],
              "java": ["src/main/java/com/acme/ApiClient.java"], "csharp": ["Services/ApiClient.cs", "Program.cs"],
              "ruby": ["config/initializers/api.rb"], "php": ["config/services.php"], "rust": ["src/client.rs"],
              "kotlin": ["app/src/main/kotlin/Api.kt"], "swift": ["Sources/App/APIClient.swift"],
              "powershell": ["deploy.ps1"]}
CODE_COMMENT = {"python": "# ", "ruby": "# ", "powershell": "# ", "php": "// ", "javascript": "// ", "typescript": "// ",
                "go": "// ", "java": "// ", "csharp": "// ", "rust": "// ", "kotlin": "// ", "swift": "// "}


def c_code(sp, v, kw):
    lang = pick(list(CODE_TPL))
    tpls = CODE_TPL[lang]
    if sp["hdr"] is None:
        tpls = [t for t in tpls if "{hname}" not in t] or tpls[:1]
    tpl = pick(tpls)
    var = pick(sp["vars"])
    if "{hname}" in tpl:
        _, hname, hval = _hdr(sp, v)
    else:
        hname = hval = ""
    body = fill(tpl, v=v, VAR=var, KEY=var.upper(), key=var.lower(), camel=camel(var), hname=hname, hval=hval,
                url=sp["url"], base=sp["url"].split("/v")[0] if sp["url"] else "")
    if chance(0.5):
        body = "%s%s\n%s" % (CODE_COMMENT[lang], pick(CODE_FILES[lang]), body)
    return body


USER_ASKS = ["here's the {svc} key: {v} — can you wire it into the config?",
             "I'm getting 401s from {svc}. I'm using {v}. What am I doing wrong?",
             "use this token for the {svc} integration: {v}\nthen run the integration tests",
             "Set {VAR} to {v} in the staging env please",
             "the old {svc} credential was revoked, new one is {v}",
             "can you check why this doesn't work? {VAR}={v}",
             "pls add `{v}` as {VAR} to the GitHub Actions secrets and re-run the failed job"]
ASSISTANT_REPLIES = ["I'll put it in `.env` (already gitignored) and read it from the environment instead of hard-coding it.",
                     "That credential authenticates fine against the sandbox; the 401 comes from the wrong base URL in `client.ts`.",
                     "Done. Since it was pasted into chat, consider rotating it once the migration is finished.",
                     "I added it as a repository secret and re-ran the workflow — the job is green now.",
                     "Updated `config/settings.py` to load it via `os.environ` and ran the test suite: 214 passed."]


def c_transcript(sp, v, kw):
    var = pick(sp["vars"])
    ask = fill(pick(USER_ASKS), svc=sp["svc"], v=v, VAR=var)
    rep = pick(ASSISTANT_REPLIES)
    style = R.random()
    if style < 0.35:
        return "User: %s\n\nAssistant: %s" % (ask, rep)
    if style < 0.55:
        return "<user>\n%s\n</user>\n<assistant>\n%s\n</assistant>" % (ask, rep)
    if style < 0.75:
        return json.dumps([{"role": "user", "content": ask}, {"role": "assistant", "content": rep}], ensure_ascii=False)
    return "> %s\n\n● %s" % (ask, rep)


def c_toolcall(sp, v, kw):
    var = pick(sp["vars"])
    cmds = ["export %s=%s && npm test" % (var, v), "echo '%s=%s' >> .env" % (var, v),
            "gh secret set %s --body '%s' --repo %s/%s" % (var, v, kw["org"], kw["repo"]),
            "%s=%s python scripts/check_%s.py" % (var, v, sp["slug"].replace("-", "_"))]
    if sp["hdr"] is not None:
        h, _, _ = _hdr(sp, v)
        cmds.append("curl -s -H '%s' %s" % (h, sp["url"]))
    cmd = pick(cmds)
    style = R.random()
    if style < 0.35:
        return json.dumps({"type": "tool_use", "id": "toolu_01" + rs(22), "name": "bash", "input": {"command": cmd}})
    if style < 0.65:
        return json.dumps({"role": "assistant", "content": None, "tool_calls": [{"id": "call_" + rs(24), "type": "function",
                           "function": {"name": "run_shell", "arguments": json.dumps({"cmd": cmd, "timeout": 120})}}]})
    if style < 0.85:
        return "⏺ Bash(%s)\n  ⎿  %s" % (cmd, pick(["(no output)", "ok", "✓ 38 tests passed", "Set Actions secret %s for %s/%s" % (var, kw["org"], kw["repo"])]))
    return "[tool:shell] $ %s\n[tool:shell] exit 0" % cmd


def c_ci(sp, v, kw):
    var = pick(sp["vars"])
    t = when()
    L = []
    step = pick(["./scripts/deploy.sh", "make release", "npm run publish:ci", "python tools/upload.py"])
    for line in ["##[group]Run %s" % step, step, "shell: /usr/bin/bash -e {0}", "env:", "  %s: %s" % (var, v),
                 "  NODE_VERSION: 20", "##[endgroup]"]:
        L.append(gh_ts(t) + " " + line)
        t += _dt.timedelta(microseconds=R.randint(30, 30000))
    if chance(0.5):
        return "\n".join(L)
    return "\n".join(["Running with gitlab-runner 16.%d.0 (%s)" % (R.randint(1, 11), hx(8)),
                      "$ echo \"using %s=%s\"" % (var, v), "using %s=%s" % (var, v), "$ ./ci/publish.sh",
                      "Job succeeded"])


def c_log(sp, v, kw):
    if sp["hdr"] is None:
        var = pick(sp["vars"])
        return "%s DEBUG config.loader: resolved %s=%s (source=env)\n%s INFO  app: started in %dms" % (
            stamp(), var, v, stamp(), R.randint(80, 900))
    h, name, val = _hdr(sp, v)
    if chance(0.5):
        return "%s DEBUG urllib3.connectionpool: Starting new HTTPS connection (1): %s:443\n%s DEBUG http.client: send: b'GET %s HTTP/1.1\\r\\nHost: %s\\r\\nUser-Agent: python-requests/2.31.0\\r\\n%s\\r\\n\\r\\n'" % (
            stamp(), sp["url"].split("/")[2], stamp(), "/" + "/".join(sp["url"].split("/")[3:]), sp["url"].split("/")[2], h)
    return json.dumps({"ts": iso(), "level": "debug", "msg": "outgoing request", "method": "POST", "url": sp["url"],
                       "headers": {name: val, "content-type": "application/json"}})


def c_stack(sp, v, kw):
    var = pick(sp["vars"])
    if chance(0.5):
        return ("Traceback (most recent call last):\n  File \"/srv/app/jobs/sync_%s.py\", line %d, in main\n"
                "    client = build_client(%s=\"%s\")\n  File \"/srv/app/clients/base.py\", line %d, in build_client\n"
                "    %s\n%s" % (
                    sp["slug"].replace("-", "_"), R.randint(20, 200), var.lower(), v, R.randint(20, 90),
                    *(("resp.raise_for_status()", "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: " + sp["url"])
                      if sp["url"] else ("raise ConfigError(f\"{name}: credential rejected\")", "app.errors.ConfigError: %s: credential rejected" % var))))
    return ("Error: Request failed with status code 403\n    at createError (/app/node_modules/axios/lib/core/createError.js:16:15)\n"
            "    at settle (/app/node_modules/axios/lib/core/settle.js:17:12) {\n  config: {\n    url: '%s',\n"
            "    headers: {\n      Accept: 'application/json',\n      '%s': '%s'\n    }\n  }\n}" % (
                sp["url"], *(_hdr(sp, v)[1:] if sp["hdr"] else (var, v))))


def c_chat(sp, v, kw):
    a, b = R.sample(["maria", "tom", "akira", "lena", "omar", "sofia", "jonas", "priya", "dmitri", "chloe"], 2)
    h, m = R.randint(8, 18), R.randint(0, 50)
    return "[%02d:%02d] %s: anyone have the %s creds for staging?\n[%02d:%02d] %s: %s\n[%02d:%02d] %s: thx" % (
        h, m, a, sp["svc"], h, m + 2, b, v if chance(0.5) else "%s=%s" % (pick(sp["vars"]), v), h, m + 3, a)


GENERIC = [c_env, c_env, c_export, c_yaml, c_json, c_toml, c_ini, c_props, c_xml, c_docker, c_k8s, c_compose,
           c_gha, c_helm, c_systemd, c_dockerfile, c_tf, c_diff, c_code, c_code, c_code, c_transcript,
           c_transcript, c_toolcall, c_toolcall, c_ci, c_log, c_stack, c_chat]
HEADER_CTX = [c_curl, c_curl, c_httpie]


# ------------------------------------------------------------------- provider table

P = {}


def spec(kind, gen, svc, vars_, key="api_key", hdr="Authorization: Bearer {v}", url=None, n=2, extra=(), generic=True,
         slug=None):
    P[kind] = dict(kind=kind, gen=gen, svc=svc, vars=vars_, key=key, hdr=hdr, url=url or "", n=n, extra=list(extra),
                   generic=generic, slug=slug or svc.lower().replace(" ", "-").replace(".", ""))


B = "Authorization: Bearer {v}"

spec("openai_key", t_openai, "OpenAI", ["OPENAI_API_KEY"], url="https://api.openai.com/v1/chat/completions", n=12, extra=[
    'from openai import OpenAI\n\nclient = OpenAI(api_key="{v}")\nresp = client.chat.completions.create(model="gpt-4o-mini", messages=msgs)',
    "import OpenAI from 'openai';\n\nconst openai = new OpenAI({ apiKey: '{v}' });",
    'llm = ChatOpenAI(model="gpt-4o", temperature=0, openai_api_key="{v}")',
    "$ OPENAI_API_KEY={v} python eval/run_evals.py --suite smoke\nrunning 24 cases... 23 passed, 1 failed (timeout)",
    "[openai]\napi_key = \"{v}\"\norganization = \"org-{rs22}\"",
])
spec("anthropic_key", t_anthropic, "Anthropic", ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY"], hdr="x-api-key: {v}",
     url="https://api.anthropic.com/v1/messages", n=12, extra=[
    'import anthropic\n\nclient = anthropic.Anthropic(api_key="{v}")\nmsg = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=[{"role": "user", "content": prompt}])',
    "curl https://api.anthropic.com/v1/messages \\\n  -H 'x-api-key: {v}' \\\n  -H 'anthropic-version: 2023-06-01' \\\n  -H 'content-type: application/json' \\\n  -d '{\"model\": \"claude-3-5-haiku-latest\", \"max_tokens\": 256, \"messages\": [{\"role\": \"user\", \"content\": \"ping\"}]}'",
    "[env]\nANTHROPIC_API_KEY = \"{v}\"\n",
    "const anthropic = new Anthropic({\n  apiKey: \"{v}\",\n  maxRetries: 4,\n});",
    "$ claude config set -g apiKey {v}\n✔ Saved",
])
spec("github_token", t_github, "GitHub", ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_PAT"], hdr="Authorization: token {v}",
     url="https://api.github.com/repos/acme/infra/pulls?state=open", n=14, extra=[
    "git remote set-url origin https://x-access-token:{v}@github.com/{org}/{repo}.git",
    "echo {v} | gh auth login --with-token",
    "//npm.pkg.github.com/:_authToken={v}\n@{org}:registry=https://npm.pkg.github.com",
    "$ cat ~/.git-credentials\nhttps://{user}:{v}@github.com",
    "docker login ghcr.io -u {user} -p {v}",
    "      - uses: actions/checkout@v4\n        with:\n          repository: {org}/{repo}\n          token: {v}",
    "pip install git+https://{v}@github.com/{org}/internal-utils.git@v1.4.2",
    "[url \"https://{user}:{v}@github.com/\"]\n\tinsteadOf = https://github.com/",
])
spec("gitlab_token", t_gitlab, "GitLab", ["GITLAB_TOKEN", "GL_TOKEN", "GITLAB_PRIVATE_TOKEN"], hdr="PRIVATE-TOKEN: {v}",
     url="https://gitlab.com/api/v4/projects/48213/pipelines", n=8, extra=[
    "git clone https://oauth2:{v}@gitlab.com/{org}/{repo}.git",
    "glab auth login --hostname gitlab.{domain} --token {v}",
    "[[runners]]\n  name = \"build-03\"\n  url = \"https://gitlab.com/\"\n  token = \"{v}\"\n  executor = \"docker\"",
])
spec("slack_token", t_slack_token, "Slack", ["SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_APP_TOKEN"],
     url="https://slack.com/api/chat.postMessage", n=8, extra=[
    'from slack_sdk import WebClient\n\nclient = WebClient(token="{v}")\nclient.chat_postMessage(channel="#deploys", text="release {ver} is live")',
    "const app = new App({\n  token: '{v}',\n  signingSecret: process.env.SLACK_SIGNING_SECRET,\n});",
])
spec("slack_webhook", t_slack_webhook, "Slack webhook", ["SLACK_WEBHOOK_URL", "SLACK_WEBHOOK"], hdr=None, n=7,
     key="webhook_url", extra=[
    "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"Deploy finished: {app}@{ver}\"}' {v}",
    "receivers:\n  - name: slack-oncall\n    slack_configs:\n      - api_url: {v}\n        channel: '#oncall'\n        send_resolved: true",
    'requests.post("{v}", json={"text": f"backup finished in {elapsed:.1f}s"}, timeout=5)',
    "notifications:\n  slack:\n    webhook: {v}\n    on_failure: always",
])
spec("stripe_key", t_stripe, "Stripe", ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY"], url="https://api.stripe.com/v1/charges",
     n=10, key="secret_key", extra=[
    "stripe.api_key = \"{v}\"",
    "const stripe = require('stripe')('{v}');",
    "curl https://api.stripe.com/v1/customers -u {v}: -d limit=3",
    "\\Stripe\\Stripe::setApiKey('{v}');",
    "Stripe.apiKey = \"{v}\";",
    "stripe listen --forward-to localhost:4242/webhook --api-key {v}",
])
spec("sendgrid_key", t_sendgrid, "SendGrid", ["SENDGRID_API_KEY", "SMTP_PASSWORD"], url="https://api.sendgrid.com/v3/mail/send", n=5, extra=[
    "sg = SendGridAPIClient('{v}')\nresponse = sg.send(message)",
    "sgMail.setApiKey('{v}');",
    "EMAIL_HOST = \"smtp.sendgrid.net\"\nEMAIL_HOST_USER = \"apikey\"\nEMAIL_HOST_PASSWORD = \"{v}\"\nEMAIL_PORT = 587",
])
spec("twilio_api_key", t_twilio, "Twilio", ["TWILIO_API_KEY", "TWILIO_API_KEY_SID"], url="https://api.twilio.com/2010-04-01/Accounts.json",
     hdr=None, n=3, extra=["client = Client(\"{v}\", os.environ[\"TWILIO_API_SECRET\"], os.environ[\"TWILIO_ACCOUNT_SID\"])"])
spec("datadog_key", t_datadog, "Datadog", ["DD_API_KEY", "DATADOG_API_KEY", "DD_APP_KEY"], hdr="DD-API-KEY: {v}",
     url="https://api.datadoghq.com/api/v1/validate", n=5, extra=[
    "helm install datadog-agent datadog/datadog --set datadog.apiKey={v} --set datadog.site=datadoghq.eu",
    "# /etc/datadog-agent/datadog.yaml\napi_key: {v}\nsite: datadoghq.com\nlogs_enabled: true",
])
spec("google_api_key", t_google_api_key, "Gemini", ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_API_KEY", "FIREBASE_API_KEY"],
     hdr="x-goog-api-key: {v}", url="https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent", n=8, extra=[
    '<script src="https://maps.googleapis.com/maps/api/js?key={v}&callback=initMap" async defer></script>',
    "const firebaseConfig = {\n  apiKey: \"{v}\",\n  authDomain: \"{app}-prod.firebaseapp.com\",\n  projectId: \"{app}-prod\",\n};",
    'genai.configure(api_key="{v}")',
    "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Alexanderplatz+1,+Berlin&key={v}'",
])
spec("google_oauth_secret", t_google_oauth_secret, "Google OAuth", ["GOOGLE_CLIENT_SECRET", "GOOGLE_OAUTH_CLIENT_SECRET"], hdr=None,
     key="client_secret", n=3, extra=[
    '{"web":{"client_id":"{digits}-{hex32}.apps.googleusercontent.com","project_id":"{app}-prod","auth_uri":"https://accounts.google.com/o/oauth2/auth","token_uri":"https://oauth2.googleapis.com/token","client_secret":"{v}","redirect_uris":["https://{domain}/auth/callback"]}}',
    "providers: [\n  GoogleProvider({\n    clientId: process.env.GOOGLE_CLIENT_ID,\n    clientSecret: \"{v}\",\n  }),\n]",
])
spec("google_oauth_token", t_google_oauth_token, "Google", ["GOOGLE_ACCESS_TOKEN", "GCP_ACCESS_TOKEN"],
     url="https://www.googleapis.com/drive/v3/files?pageSize=10", n=3, extra=[
    "$ gcloud auth print-access-token\n{v}",
])
spec("jwt", t_jwt, "auth", ["ACCESS_TOKEN", "JWT", "AUTH_TOKEN", "ID_TOKEN", "API_JWT"], url="https://api.helio.dev/v2/orders?limit=50",
     key="access_token", n=10, extra=[
    "Cookie: session={v}; theme=dark; locale=en-GB",
    "localStorage.setItem('access_token', '{v}');",
    "$ http GET :8080/api/me 'Authorization:Bearer {v}'\nHTTP/1.1 200 OK",
    "SUPABASE_SERVICE_ROLE_KEY={v}",
    "> POST /graphql HTTP/2\n> Host: api.{domain}\n> authorization: Bearer {v}\n> content-type: application/json\n>\n< HTTP/2 200",
])
spec("bearer_token", t_bearer, "internal API", ["API_TOKEN", "SERVICE_TOKEN", "INTERNAL_API_TOKEN"], url="https://internal.helio.dev/api/v1/jobs",
     key="token", n=6, extra=[
    "GET /api/v1/reports/daily HTTP/1.1\nHost: reports.internal\nAuthorization: Bearer {v}\nAccept: */*",
    "apiVersion: v1\nkind: Config\nusers:\n- name: ci-deployer\n  user:\n    token: {v}\nclusters:\n- name: prod\n  cluster:\n    server: https://10.20.0.1:6443",
])

spec("age_secret_key", t_age, "age", ["SOPS_AGE_KEY", "AGE_SECRET_KEY"], hdr=None, n=3, key="age_key", extra=[
    "# created: 2024-03-02T11:04:55+01:00\n# public key: age1{pub}\n{v}",
    "SOPS_AGE_KEY={v} sops -d secrets/prod.enc.yaml > /tmp/prod.yaml",
])
spec("airtable_token", t_airtable, "Airtable", ["AIRTABLE_TOKEN", "AIRTABLE_API_KEY"], url="https://api.airtable.com/v0/appX8f2kQ1LmN9pQr/Tasks", n=2)
spec("alibaba_key", t_alibaba, "Alibaba Cloud", ["ALIBABA_CLOUD_ACCESS_KEY_ID", "ALICLOUD_ACCESS_KEY"], hdr=None, key="access_key_id", n=2)
spec("asana_token", t_asana, "Asana", ["ASANA_ACCESS_TOKEN", "ASANA_PAT"], url="https://app.asana.com/api/1.0/users/me", n=2)
spec("atlassian_token", t_atlassian, "Jira", ["JIRA_API_TOKEN", "CONFLUENCE_API_TOKEN", "ATLASSIAN_API_TOKEN"], hdr=None, n=3, extra=[
    "JIRA_API_TOKEN={v} jira issue list -q 'project = OPS AND status = \"In Progress\"'",
    "[jira]\nserver = https://{org}.atlassian.net\ntoken = {v}",
])
spec("azure_client_secret", t_azure_client_secret, "Azure AD", ["AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET"], hdr=None, key="client_secret",
     n=4, extra=[
    "az login --service-principal -u {uuid} -p '{v}' --tenant {uuid2}",
    "provider \"azurerm\" {\n  features {}\n  subscription_id = \"{uuid}\"\n  client_id       = \"{uuid2}\"\n  client_secret   = \"{v}\"\n}",
    "  \"AzureAd\": {\n    \"Instance\": \"https://login.microsoftonline.com/\",\n    \"TenantId\": \"{uuid}\",\n    \"ClientId\": \"{uuid2}\",\n    \"ClientSecret\": \"{v}\"\n  }",
])
spec("azure_devops_token", t_azure_devops, "Azure DevOps", ["AZURE_DEVOPS_EXT_PAT", "AZDO_PAT", "ADO_TOKEN"], hdr=None, key="pat", n=3, extra=[
    "git clone https://{v}@dev.azure.com/{org}/Platform/_git/{repo}",
    "echo {v} | az devops login --organization https://dev.azure.com/{org}/",
])
spec("azure_storage_key", t_azure_storage, "Azure Storage", ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY"], hdr=None, key="account_key",
     n=5, extra=[
    "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={v};EndpointSuffix=core.windows.net",
    "az storage blob upload --account-name {acct} --account-key {v} --container-name backups --file dump.sql.gz --name 2024/05/dump.sql.gz",
    "  \"ConnectionStrings\": {\n    \"Blob\": \"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={v};EndpointSuffix=core.windows.net\"\n  }",
])
spec("azure_sas_token", t_azure_sas_sig, "Azure SAS", ["AZURE_SAS"], hdr=None, generic=False, n=3, extra=[
    "azcopy copy 'https://{acct}.blob.core.windows.net/backups/db-2024-05-01.bak?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2025-06-30T18:00:00Z&st=2024-06-01T10:00:00Z&spr=https&sig={v}' ./restore/",
    "BLOB_SAS_URL=\"https://{acct}.blob.core.windows.net/exports?sp=racwdl&st=2024-09-01T08:00:00Z&se=2024-12-31T23:59:00Z&spr=https&sv=2022-11-02&sr=c&sig={v}\"",
    "SharedAccessSignature=sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2025-03-01T00:00:00Z&st=2024-03-01T00:00:00Z&spr=https&sig={v}",
])
spec("bitbucket_token", t_bitbucket, "Bitbucket", ["BITBUCKET_APP_PASSWORD", "BITBUCKET_TOKEN"], hdr=None, n=2, extra=[
    "git clone https://{user}:{v}@bitbucket.org/{org}/{repo}.git"])
spec("braintree_token", t_braintree, "Braintree", ["BRAINTREE_ACCESS_TOKEN"], hdr=None, n=2, extra=[
    "gateway = braintree.BraintreeGateway(access_token=\"{v}\")"])
spec("brevo_key", t_brevo, "Brevo", ["BREVO_API_KEY", "SENDINBLUE_API_KEY"], hdr="api-key: {v}", url="https://api.brevo.com/v3/smtp/email", n=2)
spec("buildkite_token", t_buildkite, "Buildkite", ["BUILDKITE_API_TOKEN"], url="https://api.buildkite.com/v2/organizations/acme/pipelines", n=2)
spec("circleci_token", t_circleci, "CircleCI", ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"], hdr="Circle-Token: {v}", url="https://circleci.com/api/v2/me", n=2)
spec("clickup_token", t_clickup, "ClickUp", ["CLICKUP_API_TOKEN"], hdr="Authorization: {v}", url="https://api.clickup.com/api/v2/team", n=2)
spec("clojars_token", t_clojars, "Clojars", ["CLOJARS_PASSWORD", "CLOJARS_TOKEN"], hdr=None, n=2, extra=[
    ':repositories [["releases" {:url "https://repo.clojars.org" :username "{user}" :password "{v}" :sign-releases false}]]'])
spec("cloudflare_key", t_cloudflare_key, "Cloudflare", ["CLOUDFLARE_API_KEY", "CF_API_KEY"], hdr="X-Auth-Key: {v}",
     url="https://api.cloudflare.com/client/v4/zones", n=2, slug="cloudflare")
spec("cloudflare_token", t_cloudflare_token, "Cloudflare", ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"],
     url="https://api.cloudflare.com/client/v4/user/tokens/verify", n=3, extra=["CLOUDFLARE_API_TOKEN={v} npx wrangler deploy --env production"])
spec("cohere_key", t_cohere, "Cohere", ["CO_API_KEY", "COHERE_API_KEY"], url="https://api.cohere.com/v2/chat", n=2, extra=[
    'co = cohere.ClientV2(api_key="{v}")'])
spec("contentful_token", t_contentful, "Contentful", ["CONTENTFUL_MANAGEMENT_TOKEN"], url="https://api.contentful.com/spaces", n=2, extra=[
    "contentful login --management-token {v}"])
spec("cratesio_token", t_cratesio, "crates.io", ["CARGO_REGISTRY_TOKEN"], hdr=None, n=2, extra=[
    "cargo login {v}", "# ~/.cargo/credentials.toml\n[registry]\ntoken = \"{v}\""])
spec("databricks_token", t_databricks, "Databricks", ["DATABRICKS_TOKEN"], url="https://adb-1234567890123456.7.azuredatabricks.net/api/2.0/clusters/list",
     n=3, extra=["[DEFAULT]\nhost  = https://adb-{digits}.7.azuredatabricks.net\ntoken = {v}"])
spec("deepseek_key", t_deepseek, "DeepSeek", ["DEEPSEEK_API_KEY"], url="https://api.deepseek.com/chat/completions", n=2, extra=[
    'client = OpenAI(api_key="{v}", base_url="https://api.deepseek.com")'])
spec("digitalocean_token", t_digitalocean, "DigitalOcean", ["DIGITALOCEAN_TOKEN", "DO_TOKEN"], url="https://api.digitalocean.com/v2/droplets",
     n=2, extra=["doctl auth init --access-token {v}"])
spec("django_secret_key", t_django, "Django", ["DJANGO_SECRET_KEY", "SECRET_KEY"], hdr=None, key="secret_key", n=3, extra=[
    "# settings/base.py\nSECRET_KEY = '{v}'\nDEBUG = False\nALLOWED_HOSTS = ['.{domain}']"])
spec("dockerhub_token", t_dockerhub, "Docker Hub", ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"], hdr=None, n=3, extra=[
    "docker login -u {user} -p {v}", "echo \"{v}\" | docker login --username {user} --password-stdin"])
spec("doppler_token", t_doppler, "Doppler", ["DOPPLER_TOKEN"], url="https://api.doppler.com/v3/configs/config/secrets", n=2, extra=[
    "doppler run --token {v} -- npm start"])
spec("dropbox_token", t_dropbox, "Dropbox", ["DROPBOX_ACCESS_TOKEN"], url="https://api.dropboxapi.com/2/files/list_folder", n=2)
spec("duffel_token", t_duffel, "Duffel", ["DUFFEL_ACCESS_TOKEN"], url="https://api.duffel.com/air/offer_requests", n=2)
spec("dynatrace_token", t_dynatrace, "Dynatrace", ["DT_API_TOKEN", "DYNATRACE_API_TOKEN"], hdr="Authorization: Api-Token {v}",
     url="https://abc12345.live.dynatrace.com/api/v2/metrics/ingest", n=2)
spec("easypost_key", t_easypost, "EasyPost", ["EASYPOST_API_KEY"], hdr=None, n=2, extra=['client = easypost.EasyPostClient("{v}")'])
spec("elevenlabs_key", t_elevenlabs, "ElevenLabs", ["ELEVENLABS_API_KEY", "XI_API_KEY"], hdr="xi-api-key: {v}",
     url="https://api.elevenlabs.io/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM", n=2)
spec("facebook_token", t_facebook, "Meta Graph", ["FB_ACCESS_TOKEN", "META_ACCESS_TOKEN", "WHATSAPP_TOKEN"],
     url="https://graph.facebook.com/v19.0/me/accounts", n=2, extra=[
    "curl -G 'https://graph.facebook.com/v19.0/me/accounts' -d 'access_token={v}'"])
spec("fcm_server_key", t_fcm, "FCM", ["FCM_SERVER_KEY"], hdr="Authorization: key={v}", url="https://fcm.googleapis.com/fcm/send", n=2)
spec("figma_token", t_figma, "Figma", ["FIGMA_TOKEN", "FIGMA_ACCESS_TOKEN"], hdr="X-Figma-Token: {v}", url="https://api.figma.com/v1/files/Xk2Lm9PqRs7TvWy", n=2)
spec("flutterwave_key", t_flutterwave, "Flutterwave", ["FLW_SECRET_KEY"], url="https://api.flutterwave.com/v3/transactions", n=2)
spec("flyio_token", t_flyio, "Fly.io", ["FLY_API_TOKEN"], hdr=None, n=2, extra=["FLY_API_TOKEN=\"FlyV1 {v}\" flyctl deploy --remote-only"])
spec("frameio_token", t_frameio, "Frame.io", ["FRAMEIO_TOKEN"], url="https://api.frame.io/v2/me", n=2)
spec("grafana_token", t_grafana, "Grafana", ["GRAFANA_TOKEN", "GRAFANA_SERVICE_ACCOUNT_TOKEN", "GRAFANA_CLOUD_TOKEN"],
     url="https://acme.grafana.net/api/dashboards/uid/k8s-nodes", n=3)
spec("groq_key", t_groq, "Groq", ["GROQ_API_KEY"], url="https://api.groq.com/openai/v1/chat/completions", n=2)
spec("heroku_key", t_heroku, "Heroku", ["HEROKU_API_KEY"], url="https://api.heroku.com/apps", n=2, extra=[
    "HEROKU_API_KEY={v} heroku container:release web -a {app}"])
spec("honeycomb_key", t_honeycomb, "Honeycomb", ["HONEYCOMB_API_KEY"], hdr="x-honeycomb-team: {v}", url="https://api.honeycomb.io/1/auth",
     n=2, extra=["OTEL_EXPORTER_OTLP_ENDPOINT=https://api.honeycomb.io\nOTEL_EXPORTER_OTLP_HEADERS=\"x-honeycomb-team={v}\""])
spec("hubspot_token", t_hubspot, "HubSpot", ["HUBSPOT_ACCESS_TOKEN", "HUBSPOT_PRIVATE_APP_TOKEN"],
     url="https://api.hubapi.com/crm/v3/objects/contacts?limit=10", n=2)
spec("jfrog_token", t_jfrog, "JFrog", ["JFROG_ACCESS_TOKEN", "ARTIFACTORY_API_KEY"], hdr="X-JFrog-Art-Api: {v}",
     url="https://acme.jfrog.io/artifactory/api/repositories", n=2, extra=[
    "jf c add prod --url https://{org}.jfrog.io --access-token {v} --interactive=false"])
spec("kubeadm_token", t_kubeadm, "kubeadm", ["KUBEADM_TOKEN"], hdr=None, generic=False, n=3, extra=[
    "kubeadm join 10.0.0.10:6443 --token {v} \\\n    --discovery-token-ca-cert-hash sha256:{hex64}",
    "$ kubeadm token create --print-join-command\nkubeadm join k8s-api.internal:6443 --token {v} --discovery-token-ca-cert-hash sha256:{hex64}",
    "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbootstrapTokens:\n- token: \"{v}\"\n  ttl: \"24h\"\n  usages:\n  - signing\n  - authentication",
])
spec("langfuse_key", t_langfuse, "Langfuse", ["LANGFUSE_SECRET_KEY"], hdr=None, key="secret_key", n=2)
spec("langsmith_key", t_langsmith, "LangSmith", ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"], hdr="x-api-key: {v}",
     url="https://api.smith.langchain.com/runs", n=2)
spec("launchdarkly_key", t_launchdarkly, "LaunchDarkly", ["LAUNCHDARKLY_SDK_KEY", "LD_SDK_KEY"], hdr=None, key="sdk_key", n=2, extra=[
    'ldclient.set_config(Config("{v}"))'])
spec("linear_key", t_linear, "Linear", ["LINEAR_API_KEY"], hdr="Authorization: {v}", url="https://api.linear.app/graphql", n=2)
spec("mailchimp_key", t_mailchimp, "Mailchimp", ["MAILCHIMP_API_KEY"], hdr=None, n=2, extra=[
    lambda v: "curl -s -u anystring:%s https://%s.api.mailchimp.com/3.0/lists" % (v, v.split("-")[-1])])
spec("mailgun_key", t_mailgun, "Mailgun", ["MAILGUN_API_KEY"], hdr=None, n=2, extra=[
    "curl -s --user 'api:{v}' https://api.mailgun.net/v3/mg.{domain}/messages -F subject='Nightly report' -F text=@report.txt"])
spec("mapbox_token", t_mapbox, "Mapbox", ["MAPBOX_DOWNLOADS_TOKEN", "MAPBOX_SECRET_TOKEN"], hdr=None, n=2, extra=[
    "machine api.mapbox.com\n  login mapbox\n  password {v}", "MAPBOX_DOWNLOADS_TOKEN={v}\n# gradle.properties for the Android SDK"])
spec("mistral_key", t_mistral, "Mistral", ["MISTRAL_API_KEY"], url="https://api.mistral.ai/v1/chat/completions", n=2)
spec("modal_token", t_modal_secret, "Modal", ["MODAL_TOKEN_SECRET"], hdr=None, n=1)
spec("mollie_key", t_mollie, "Mollie", ["MOLLIE_API_KEY"], url="https://api.mollie.com/v2/payments", n=2)
spec("netlify_token", t_netlify, "Netlify", ["NETLIFY_AUTH_TOKEN"], url="https://api.netlify.com/api/v1/sites", n=2, extra=[
    "netlify deploy --prod --dir dist --auth {v} --site {uuid}"])
spec("new_relic_key", t_new_relic, "New Relic", ["NEW_RELIC_API_KEY", "NEW_RELIC_LICENSE_KEY"], hdr="Api-Key: {v}",
     url="https://api.newrelic.com/graphql", n=3, extra=[
    "common: &default_settings\n  license_key: '{v}'\n  app_name: checkout-service\n  distributed_tracing:\n    enabled: true"])
spec("ngrok_token", t_ngrok, "ngrok", ["NGROK_AUTHTOKEN"], hdr=None, n=2, extra=[
    "ngrok config add-authtoken {v}", "version: \"2\"\nauthtoken: {v}\ntunnels:\n  web:\n    proto: http\n    addr: 3000"])
spec("notion_token", t_notion, "Notion", ["NOTION_TOKEN", "NOTION_API_KEY"], url="https://api.notion.com/v1/search", n=2)
spec("nuget_key", t_nuget, "NuGet", ["NUGET_API_KEY"], hdr=None, n=2, extra=[
    "dotnet nuget push bin/Release/*.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json"])
spec("okta_token", t_okta, "Okta", ["OKTA_API_TOKEN", "OKTA_TOKEN"], hdr="Authorization: SSWS {v}", url="https://acme.okta.com/api/v1/users?limit=25", n=2)
spec("onepassword_token", t_onepassword, "1Password", ["OP_SERVICE_ACCOUNT_TOKEN"], hdr=None, n=2, extra=[
    "export OP_SERVICE_ACCOUNT_TOKEN={v}\nop read op://Infra/postgres-prod/password"])
spec("openrouter_key", t_openrouter, "OpenRouter", ["OPENROUTER_API_KEY"], url="https://openrouter.ai/api/v1/chat/completions", n=2)
spec("openshift_token", t_openshift, "OpenShift", ["OPENSHIFT_TOKEN", "OC_TOKEN"], url="https://api.ocp4.internal:6443/apis/project.openshift.io/v1/projects",
     n=2, extra=["oc login --token={v} --server=https://api.{org}.openshiftapps.com:6443"])
spec("paystack_key", t_paystack, "Paystack", ["PAYSTACK_SECRET_KEY"], url="https://api.paystack.co/transaction/initialize", n=2)
spec("perplexity_key", t_perplexity, "Perplexity", ["PERPLEXITY_API_KEY", "PPLX_API_KEY"], url="https://api.perplexity.ai/chat/completions", n=2)
spec("pinecone_key", t_pinecone, "Pinecone", ["PINECONE_API_KEY"], hdr="Api-Key: {v}", url="https://api.pinecone.io/indexes", n=2, extra=[
    'pc = Pinecone(api_key="{v}")\nindex = pc.Index("docs-embeddings")'])
spec("plaid_token", t_plaid, "Plaid", ["PLAID_ACCESS_TOKEN"], hdr=None, key="access_token", n=2, extra=[
    'request = TransactionsSyncRequest(access_token="{v}", count=100)'])
spec("planetscale_token", t_planetscale, "PlanetScale", ["PLANETSCALE_SERVICE_TOKEN", "PSCALE_TOKEN"], hdr=None, n=2, extra=[
    "pscale connect {app} main --service-token {v} --service-token-id {rs22}"])
spec("postman_key", t_postman, "Postman", ["POSTMAN_API_KEY"], hdr="X-Api-Key: {v}", url="https://api.getpostman.com/collections", n=2)
spec("prefect_key", t_prefect, "Prefect", ["PREFECT_API_KEY"], hdr=None, n=2, extra=[
    "prefect cloud login --key {v} --workspace {org}/production"])
spec("pulumi_token", t_pulumi, "Pulumi", ["PULUMI_ACCESS_TOKEN"], hdr=None, n=2)
spec("readme_key", t_readme, "ReadMe", ["README_API_KEY", "RDME_API_KEY"], hdr=None, n=2, extra=[
    "npx rdme openapi openapi.yaml --key={v} --id={hex24}"])
spec("render_key", t_render, "Render", ["RENDER_API_KEY"], url="https://api.render.com/v1/services?limit=20", n=2)
spec("replicate_token", t_replicate, "Replicate", ["REPLICATE_API_TOKEN"], url="https://api.replicate.com/v1/predictions", n=2)
spec("resend_key", t_resend, "Resend", ["RESEND_API_KEY"], url="https://api.resend.com/emails", n=2, extra=[
    "const resend = new Resend('{v}');"])
spec("rubygems_key", t_rubygems, "RubyGems", ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"], hdr=None, n=2, extra=[
    "$ cat ~/.gem/credentials\n---\n:rubygems_api_key: {v}\n"])
spec("salesforce_token", t_salesforce, "Salesforce", ["SF_ACCESS_TOKEN", "SALESFORCE_ACCESS_TOKEN"],
     url="https://acme.my.salesforce.com/services/data/v60.0/sobjects/Account", n=2)
spec("scalingo_token", t_scalingo, "Scalingo", ["SCALINGO_API_TOKEN"], hdr=None, n=2, extra=["scalingo login --api-token {v}"])
spec("sentry_token", t_sentry, "Sentry", ["SENTRY_AUTH_TOKEN"], url="https://sentry.io/api/0/projects/", n=3, extra=[
    "# ~/.sentryclirc\n[auth]\ntoken={v}\n\n[defaults]\norg={org}", "sentry-cli --auth-token {v} releases new {app}@{ver}"])
spec("shippo_token", t_shippo, "Shippo", ["SHIPPO_API_KEY", "SHIPPO_TOKEN"], hdr="Authorization: ShippoToken {v}", url="https://api.goshippo.com/shipments/", n=2)
spec("shopify_token", t_shopify, "Shopify", ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_API_TOKEN"], hdr="X-Shopify-Access-Token: {v}",
     url="https://acme-store.myshopify.com/admin/api/2024-04/orders.json?status=any", n=3)
spec("sonar_token", t_sonar, "SonarQube", ["SONAR_TOKEN"], hdr=None, n=2, extra=[
    "sonar-scanner -Dsonar.projectKey={repo} -Dsonar.host.url=https://sonarcloud.io -Dsonar.token={v}",
    "mvn -B verify sonar:sonar -Dsonar.login={v}"])
spec("square_token", t_square, "Square", ["SQUARE_ACCESS_TOKEN"], url="https://connect.squareup.com/v2/payments", n=2)
spec("supabase_token", t_supabase, "Supabase", ["SUPABASE_ACCESS_TOKEN"], url="https://api.supabase.com/v1/projects", n=2, extra=[
    "supabase login --token {v}"])
spec("tailscale_key", t_tailscale, "Tailscale", ["TS_AUTHKEY", "TAILSCALE_AUTH_KEY"], hdr=None, n=3, extra=[
    "sudo tailscale up --authkey={v} --advertise-tags=tag:ci --ssh"])
spec("terraform_token", t_terraform, "Terraform Cloud", ["TF_TOKEN_app_terraform_io", "TFE_TOKEN"], n=3,
     url="https://app.terraform.io/api/v2/organizations/acme/workspaces", extra=[
    '{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "{v}"\n    }\n  }\n}',
    "credentials \"app.terraform.io\" {\n  token = \"{v}\"\n}"])
spec("trello_token", t_trello, "Trello", ["TRELLO_TOKEN"], hdr=None, n=2, extra=[
    "curl \"https://api.trello.com/1/members/me/boards?key=$TRELLO_KEY&token={v}\""])
spec("twitter_bearer", t_twitter, "X API", ["TWITTER_BEARER_TOKEN", "X_BEARER_TOKEN"],
     url="https://api.twitter.com/2/tweets/search/recent?query=from%3Aacme", n=2)
spec("typeform_token", t_typeform, "Typeform", ["TYPEFORM_TOKEN"], url="https://api.typeform.com/forms", n=2)
spec("vault_token", t_vault, "Vault", ["VAULT_TOKEN"], hdr="X-Vault-Token: {v}", url="https://vault.internal:8200/v1/secret/data/app", n=4, extra=[
    "vault login {v}",
    "$ vault token create -policy=ci -ttl=24h\nKey                  Value\n---                  -----\ntoken                {v}\ntoken_duration       24h\ntoken_renewable      true\ntoken_policies       [\"ci\" \"default\"]"])
spec("wandb_key", t_wandb, "Weights & Biases", ["WANDB_API_KEY"], hdr=None, n=2, slug="wandb", extra=[
    "$ wandb login {v}\nwandb: Appending key for api.wandb.ai to your netrc file: /home/ci/.netrc",
    "machine api.wandb.ai\n  login user\n  password {v}"])
spec("xai_key", t_xai, "xAI", ["XAI_API_KEY"], url="https://api.x.ai/v1/chat/completions", n=2)
spec("yandex_key", t_yandex, "Yandex Cloud", ["YC_API_KEY", "YANDEX_API_KEY"], hdr=lambda v: ("Authorization: Api-Key " if v.startswith("AQVN") else "Authorization: Bearer ") + v,
     url="https://llm.api.cloud.yandex.net/foundationModels/v1/completion", n=2)
spec("zoho_token", t_zoho, "Zoho", ["ZOHO_ACCESS_TOKEN"], hdr="Authorization: Zoho-oauthtoken {v}", url="https://www.zohoapis.com/crm/v6/Leads", n=2)
spec("sourcegraph_token", t_sourcegraph, "Sourcegraph", ["SRC_ACCESS_TOKEN"], hdr="Authorization: token {v}",
     url="https://sourcegraph.acme-corp.io/.api/graphql", n=3, extra=[
    "SRC_ENDPOINT=https://sourcegraph.com SRC_ACCESS_TOKEN={v} src search 'repo:^github.com/acme/ lang:go panic('"])
spec("infracost_key", t_infracost, "Infracost", ["INFRACOST_API_KEY"], hdr="X-Api-Key: {v}", url="https://pricing.api.infracost.io/graphql", n=3,
     extra=["infracost configure set api_key {v}"])
spec("discord_token", t_discord_token, "Discord", ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"], hdr="Authorization: Bot {v}",
     url="https://discord.com/api/v10/users/@me", n=3, extra=["client.run('{v}')", "client.login('{v}');"])
spec("discord_webhook", t_discord_webhook, "Discord webhook", ["DISCORD_WEBHOOK_URL"], hdr=None, generic=False, n=3, extra=[
    "curl -H 'Content-Type: application/json' -d '{\"content\": \"nightly build failed on main\"}' {v}",
    "webhook = DiscordWebhook(url=\"{v}\", content=\"deploy ok\")\nwebhook.execute()",
    "alerts:\n  discord:\n    url: {v}\n    username: grafana"])
spec("teams_webhook", t_teams_webhook, "Teams webhook", ["TEAMS_WEBHOOK_URL"], hdr=None, generic=False, n=3, extra=[
    "Invoke-RestMethod -Method Post -ContentType 'application/json' -Uri '{v}' -Body (@{ text = 'Backup completed' } | ConvertTo-Json)",
    "TEAMS_WEBHOOK_URL={v}",
    "msteams:\n  webhook_url: \"{v}\"\n  title: \"Pipeline status\""])
spec("telegram_token", t_telegram, "Telegram", ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"], hdr=None, n=4, extra=[
    "curl -s 'https://api.telegram.org/bot{v}/sendMessage' -d chat_id=-100{digits} -d text='backup finished'",
    "bot = telebot.TeleBot(\"{v}\")", "https://api.telegram.org/bot{v}/getUpdates"])
spec("npm_token", t_npm, "npm", ["NPM_TOKEN", "NODE_AUTH_TOKEN"], hdr=None, n=5, extra=[
    "//registry.npmjs.org/:_authToken={v}\nalways-auth=true",
    "npm config set //registry.npmjs.org/:_authToken {v}",
    "- run: npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: {v}"])
spec("pypi_token", t_pypi, "PyPI", ["PYPI_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN"], hdr=None, n=5, extra=[
    "[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = {v}",
    "twine upload -u __token__ -p {v} dist/*", "poetry config pypi-token.pypi {v}", "uv publish --token {v}"])
spec("huggingface_token", t_hf, "Hugging Face", ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"], url="https://huggingface.co/api/whoami-v2", n=5, extra=[
    "huggingface-cli login --token {v} --add-to-git-credential", 'from huggingface_hub import login\nlogin(token="{v}")',
    "git clone https://hf_user:{v}@huggingface.co/datasets/{org}/eval-set"])
spec("aws_key", t_aws_key, "AWS", ["AWS_ACCESS_KEY_ID"], hdr=None, key="access_key_id", n=3)
spec("aws_secret", t_aws_secret, "AWS", ["AWS_SECRET_ACCESS_KEY"], hdr=None, key="secret_access_key", n=3)


def provider_row(kind, force_extra=None):
    sp = P[kind]
    v = sp["gen"]()
    kw = common_kw()
    kw.update(acct=pick(["acmeprodstore", "heliobackups", "fjorddata01", "kappalogs", "nwtexports"]),
              pub="1" + rs(58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"))
    use_extra = sp["extra"] and (not sp["generic"] or (force_extra if force_extra is not None else chance(0.5)))
    if use_extra:
        e = pick(sp["extra"])
        text = e(v) if callable(e) else fill(e, v=v, **kw)
    else:
        ctxs = GENERIC + (HEADER_CTX if sp["hdr"] else [])
        text = pick(ctxs)(sp, v, kw)
    return text, [(v, kind)]


# ------------------------------------------------------------------ phones and emails
# '#' any digit, '%' a digit 2-9, '{p}' one of the prefixes

PHONES = {
    "US": (["212", "312", "415", "646", "718", "206", "512", "617", "303", "404", "305", "702", "919", "503"],
           ["({p}) %##-####", "{p}-%##-####", "+1 {p} %## ####", "+1-{p}-%##-####", "{p}.%##.####", "+1 ({p}) %##-####", "+1{p}%######"]),
    "CA": (["416", "604", "514", "403", "613", "780"], ["({p}) %##-####", "+1 {p} %##-####", "{p}-%##-####"]),
    "GB": (["7400", "7802", "7911", "7834", "7523", "7961"], ["0{p} %#####", "+44 {p} %#####", "+44 (0){p} %#####", "+44{p}%#####"]),
    "GB2": (["20 3", "20 8", "161 4", "131 5"], ["0{p}## ####", "+44 {p}## ####"]),
    "DE": (["151", "152", "160", "162", "170", "171", "172", "176", "177", "178", "179", "157"],
           ["0{p} %#######", "+49 {p} %#######", "+49 (0){p} %### ####", "0{p}/%######", "+49{p}%#######"]),
    "DE2": (["30", "89", "40", "221", "69", "711"], ["0{p} %######", "+49 {p} %######", "0{p}/%#####-0"]),
    "AT": (["664", "660", "676", "699"], ["0{p} %######", "+43 {p} %######"]),
    "CH": (["76", "77", "78", "79"], ["0{p} %## ## ##", "+41 {p} %## ## ##"]),
    "FR": (["6", "7"], ["0{p} %# ## ## ##", "+33 {p} %# ## ## ##", "+33 (0){p} %# ## ## ##", "0{p}%#######", "+33{p}%#######"]),
    "FR2": (["1", "4"], ["0{p} %# ## ## ##", "+33 {p} %# ## ## ##"]),
    "BE": (["470", "471", "472", "475", "477", "478", "479", "486", "496"], ["0{p} ## ## ##", "+32 {p} ## ## ##"]),
    "NL": (["6"], ["0{p}-%#######", "+31 {p} %#######", "0{p} %# ## ## ##", "+31 (0){p} %#######"]),
    "ES": (["6", "7"], ["{p}%# ### ###", "+34 {p}%# ## ## ##", "+34 {p}%#######", "{p}%#######"]),
    "IT": (["320", "328", "333", "338", "340", "345", "347", "349", "366", "389", "392"], ["{p} ### ####", "+39 {p} #######", "+39 {p} ### ####"]),
    "PT": (["91", "92", "93", "96"], ["{p}# ### ###", "+351 {p}# ### ###"]),
    "IE": (["83", "85", "86", "87", "89"], ["0{p} ### ####", "+353 {p} ### ####"]),
    "PL": (["50", "51", "53", "60", "66", "69", "72", "78", "88"], ["{p}# ### ###", "+48 {p}# ### ###", "+48 {p}#######"]),
    "CZ": (["60", "72", "73", "77", "79"], ["{p}# ### ###", "+420 {p}# ### ###"]),
    "SK": (["90", "91", "94", "95"], ["0{p}# ### ###", "+421 {p}# ### ###"]),
    "HU": (["20", "30", "70"], ["06 {p} ### ####", "+36 {p} ### ####", "+36-{p}-###-####"]),
    "RO": (["72", "73", "74", "75", "76"], ["0{p}# ### ###", "+40 {p}# ### ###"]),
    "BG": (["87", "88", "89"], ["0{p} ### ####", "+359 {p} ### ####"]),
    "HR": (["91", "92", "95", "97", "98"], ["0{p} ### ####", "+385 {p} ### ####"]),
    "GR": (["690", "693", "694", "697", "698"], ["{p} ### ####", "+30 {p} ### ####"]),
    "SE": (["70", "72", "73", "76"], ["0{p}-### ## ##", "+46 {p} ### ## ##", "0{p} ### ## ##"]),
    "NO": (["4", "9"], ["{p}## ## ###", "+47 {p}## ## ###", "+47 {p}#######"]),
    "DK": (["2", "3", "4", "5", "6"], ["{p}# ## ## ##", "+45 {p}# ## ## ##"]),
    "FI": (["40", "44", "45", "50"], ["0{p} ### ####", "+358 {p} ### ####"]),
    "IS": (["6", "7", "8"], ["{p}## ####", "+354 {p}## ####"]),
    "EE": (["5"], ["{p}### ####", "+372 {p}### ####"]),
    "LT": (["6"], ["8 {p}## #####", "+370 {p}## #####"]),
    "TR": (["530", "532", "535", "541", "542", "505", "555"], ["0{p} ### ## ##", "+90 {p} ### ## ##", "0 ({p}) ### ## ##"]),
    "RU": (["903", "905", "912", "915", "916", "925", "926", "977", "985"], ["8 ({p}) ###-##-##", "+7 {p} ###-##-##", "+7 ({p}) ### ## ##", "8{p}#######"]),
    "UA": (["50", "66", "67", "68", "93", "95", "97", "99"], ["0{p} ### ## ##", "+380 {p} ### ####", "+380 ({p}) ###-##-##"]),
    "IL": (["50", "52", "53", "54", "58"], ["0{p}-###-####", "+972 {p}-###-####", "+972-{p}-#######"]),
    "SA": (["50", "53", "54", "55", "56", "59"], ["0{p} ### ####", "+966 {p} ### ####"]),
    "AE": (["50", "52", "55", "56"], ["0{p} ### ####", "+971 {p} ### ####"]),
    "EG": (["10", "11", "12", "15"], ["0{p} #### ####", "+20 {p} #### ####"]),
    "IR": (["912", "919", "935", "936", "901"], ["0{p} ### ####", "+98 {p} ### ####"]),
    "IN": (["98", "99", "97", "96", "90", "88", "70", "63"], ["{p}### #####", "+91 {p}### #####", "+91-{p}########", "0{p}########"]),
    "CN": (["138", "139", "135", "136", "186", "188", "150", "159", "177", "199"], ["{p} #### ####", "+86 {p} #### ####", "{p}########", "+86-{p}-####-####"]),
    "HK": (["5", "6", "9"], ["{p}### ####", "+852 {p}### ####"]),
    "JP": (["90", "80", "70"], ["0{p}-####-####", "+81 {p}-####-####", "+81 {p} #### ####"]),
    "JP2": (["3", "6"], ["0{p}-####-####", "+81 {p}-####-####"]),
    "KR": (["10"], ["0{p}-####-####", "+82 {p}-####-####", "+82 {p} #### ####"]),
    "VN": (["90", "91", "93", "96", "97", "98"], ["0{p} ### ####", "+84 {p} ### ####"]),
    "TH": (["81", "86", "89", "91", "95"], ["0{p}-###-####", "+66 {p} ### ####"]),
    "ID": (["812", "813", "821", "852", "857", "878"], ["0{p}-####-####", "+62 {p}-####-####", "+62 {p} #### ####"]),
    "PH": (["917", "918", "920", "927", "945", "995"], ["0{p} ### ####", "+63 {p} ### ####"]),
    "MY": (["12", "13", "16", "17", "19"], ["0{p}-### ####", "+60 {p}-### ####"]),
    "SG": (["8", "9"], ["{p}### ####", "+65 {p}### ####"]),
    "AU": (["4"], ["0{p}## ### ###", "+61 {p}## ### ###", "+61{p}########"]),
    "AU2": (["2", "3", "7", "8"], ["(0{p}) %### ####", "+61 {p} %### ####"]),
    "NZ": (["21", "22", "27"], ["0{p} ### ####", "+64 {p} ### ####"]),
    "ZA": (["72", "73", "76", "82", "83", "84"], ["0{p} ### ####", "+27 {p} ### ####"]),
    "NG": (["803", "806", "813", "816", "703", "706", "903"], ["0{p} ### ####", "+234 {p} ### ####"]),
    "KE": (["712", "722", "733", "791", "110"], ["0{p} ######", "+254 {p} ######"]),
    "BR": (["11", "21", "31", "41", "51", "61", "71", "81"], ["({p}) 9####-####", "+55 {p} 9####-####", "+55 ({p}) 9####-####", "{p} 9#### ####"]),
    "MX": (["55", "33", "81"], ["{p} #### ####", "+52 {p} #### ####", "+52 1 {p} #### ####"]),
    "AR": (["11"], ["{p} %###-####", "+54 9 {p} %###-####", "+54 11 %###-####"]),
    "CL": (["9"], ["{p} %### ####", "+56 {p} %### ####"]),
    "CO": (["300", "301", "310", "311", "315", "320"], ["{p} ### ####", "+57 {p} ### ####"]),
}


def phone(cc):
    for _ in range(20):
        prefixes, pats = PHONES[cc]
        out = []
        for ch in fill(pick(pats), p=pick(prefixes)):
            if ch == "#":
                out.append(pick(DG))
            elif ch == "%":
                out.append(str(R.randint(2, 9)))
            else:
                out.append(ch)
        s = "".join(out)
        if not ((cc in ("US", "CA")) and "555" in s):
            return s
    return s


def slug(s):
    s = asciify(s).lower()
    return "".join(c for c in s if c.isalnum())


def email_addr(first, last, domains):
    f, l = slug(first), slug(last)
    local = pick(["%s.%s" % (f, l), "%s%s" % (f[0], l), "%s_%s" % (f, l), "%s%s%d" % (f, l, R.randint(1, 99)),
                  "%s.%s" % (f, l), "%s.%s+%s" % (f, l, pick(["github", "ci", "billing", "jira", "news"])),
                  "%s.%s" % (l, f), "%s%d" % (f, R.randint(70, 2005))])
    return "%s@%s" % (local, pick(domains))


CORP_DOMAINS = ["acme-corp.io", "helio.dev", "fjordsoft.no", "kappadata.it", "northwind-traders.com", "bluefin.app",
                "tessera.cloud", "orbitlabs.ai", "quillstack.co", "lumenworks.de", "mail.vantage-io.com", "eu.pinecrest.org"]


# --------------------------------------------------------------------------- languages

EN_PW = ["creds for the staging box: {user} / {pw}",
         "login is {user}, password {pw} — same as the jenkins one, I know, I know",
         "Your temporary password is {pw}. You'll be asked to change it at first sign-in.",
         "new root pw on bastion-02 is {pw}, updated the runbook",
         "hey can you try logging in with {pw}? I reset it this morning",
         "Username: {user}\nPassword: {pw}\nURL: https://admin.{domain}/login",
         "pw for the shared finance mailbox is {pw} — don't forward it",
         "the wifi password in the office is {pw}"]
EN_CONTACT = ["You can reach me at {phone} or {email} if the deploy breaks overnight.",
              "Customer callback requested — {name}, {phone}, {email}",
              "Please update my contact info: cell {phone}, email {email}. Thanks!",
              "On-call this week: {name} ({phone})",
              "Forwarding to {email} — she owns the billing integration now."]


def L(code, first, last, dom, cc, pw, contact, ids=(), money=(), rom=None, iban_cc=None):
    return dict(code=code, first=first, last=last, dom=dom, cc=cc, pw=pw, contact=contact, ids=list(ids),
                money=list(money), rom=rom, iban_cc=iban_cc)


LANGS = [
    L("en-US", ["James", "Olivia", "Ethan", "Mia", "Noah", "Ava", "Liam", "Harper"],
      ["Carter", "Brooks", "Hughes", "Reed", "Foster", "Hayes", "Ward", "Price"],
      ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me"], ["US"], EN_PW[:4], EN_CONTACT,
      [("ssn", "Applicant SSN: {v} (verified against W-2)"), ("ssn", "my social is {v}, the HR portal keeps rejecting it"),
       ("ssn", "SSN {v} — please don't store this in the ticket")],
      ["Charge failed for {name}, card {card}, exp 08/27 — customer asked us to retry tomorrow."]),
    L("en-GB", ["Oliver", "Amelia", "George", "Isla", "Harry", "Poppy", "Jack", "Freya"],
      ["Smith", "Taylor", "Davies", "Evans", "Walker", "Wright", "Thompson", "Roberts"],
      ["btinternet.com", "hotmail.co.uk", "gmail.com", "sky.com", "outlook.com"], ["GB", "GB2"], EN_PW[4:],
      ["Ring me on {phone} or drop a line to {email}.", "Contact details for the delivery: {name}, mobile {phone}, {email}"],
      [("uk_nino", "My National Insurance number is {v}."), ("uk_nino", "NI number: {v} — payroll needs it before Friday")],
      ["Please pay the invoice to {iban}, reference INV-{n}."], iban_cc="GB"),
    L("en-CA", ["Liam", "Charlotte", "Benjamin", "Chloe"], ["Tremblay", "Roy", "Gagnon", "MacDonald"],
      ["rogers.com", "shaw.ca", "gmail.com", "sympatico.ca"], ["CA"], [EN_PW[2]], [EN_CONTACT[2]],
      [("ca_sin", "My SIN is {v}, for the T4 slip."), ("ca_sin", "Social Insurance Number: {v}")]),
    L("en-IE", ["Seán", "Aoife", "Conor", "Saoirse"], ["Murphy", "Kelly", "O'Sullivan", "Walsh"],
      ["eircom.net", "gmail.com", "hotmail.com"], ["IE"], [EN_PW[1]], [EN_CONTACT[0]],
      [("ie_ppsn", "My PPS number is {v}."), ("ie_ppsn", "PPSN: {v} (for Revenue)")],
      ["Bank details: IBAN {iban}, BIC AIBKIE2D"], iban_cc="IE"),
    L("en-AU", ["Jack", "Matilda", "Cooper", "Ruby"], ["Wilson", "Nguyen", "Mitchell", "Kelly"],
      ["bigpond.com", "optusnet.com.au", "gmail.com"], ["AU", "AU2"], [EN_PW[5]], [EN_CONTACT[1]],
      [("au_tfn", "My TFN is {v}, can you update payroll?"), ("au_tfn", "Tax file number: {v}")]),
    L("en-ZA", ["Thabo", "Lerato", "Pieter", "Naledi"], ["Nkosi", "van der Merwe", "Dlamini", "Botha"],
      ["gmail.com", "mweb.co.za", "telkomsa.net"], ["ZA"], [EN_PW[6]], [EN_CONTACT[3]],
      [("za_id", "My ID number is {v}."), ("za_id", "SA ID: {v}")]),
    L("en-SG", ["Wei Ling", "Jun Jie", "Priya", "Hui Min"], ["Tan", "Lim", "Ng", "Wong"],
      ["singnet.com.sg", "gmail.com", "yahoo.com.sg"], ["SG"], [EN_PW[7]], [EN_CONTACT[0]],
      [("sg_nric", "My NRIC is {v}."), ("sg_nric", "NRIC/FIN: {v}")]),
    L("en-IN", ["Rahul", "Priya", "Aditya", "Sneha"], ["Sharma", "Iyer", "Reddy", "Nair"],
      ["gmail.com", "rediffmail.com", "yahoo.co.in"], ["IN"], [EN_PW[3]], [EN_CONTACT[2]],
      [("in_pan", "PAN: {v} — needed for the TDS certificate"), ("aadhaar", "Aadhaar no. {v}"), ("in_pan", "my PAN card number is {v}")]),
    L("en-NG", ["Chinedu", "Ngozi", "Tunde", "Aisha"], ["Okafor", "Adeyemi", "Bello", "Eze"], ["gmail.com", "yahoo.com"], ["NG"],
      [EN_PW[0]], [EN_CONTACT[1], EN_CONTACT[3]]),
    L("de", ["Lukas", "Anna", "Jonas", "Lea", "Felix", "Marie", "Tobias", "Julia"],
      ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Becker", "Hoffmann", "Koch"],
      ["web.de", "gmx.de", "t-online.de", "posteo.de", "gmail.com"], ["DE", "DE2", "AT"],
      ["Das Passwort für den Staging-Server lautet {pw}, bitte nicht weitergeben.",
       "Zugangsdaten fürs Admin-Panel: Benutzer {user}, Kennwort {pw}",
       "Hab das WLAN-Passwort geändert, neu ist: {pw}"],
      ["Erreichbar bin ich unter {phone} oder per Mail an {email}.", "Rückrufbitte: {name}, Tel. {phone}, E-Mail {email}"],
      [("de_tax_id", "Meine Steuer-ID lautet {v}."), ("de_tax_id", "Steuerliche Identifikationsnummer: {v}")],
      ["Bitte überweisen Sie den Betrag auf folgendes Konto: IBAN {iban}, Verwendungszweck RE-{n}."], iban_cc="DE"),
    L("de-CH", ["Luca", "Lara", "Noah", "Mia"], ["Meier", "Keller", "Brunner", "Gerber"], ["bluewin.ch", "gmx.ch", "sunrise.ch"],
      ["CH"], ["Das Kennwort für die NAS ist {pw}."], ["Ruf mich an unter {phone} oder schreib an {email}."],
      [("ch_ahv", "Meine AHV-Nummer ist {v}, falls die Versicherung nachfragt."), ("ch_ahv", "AHV-Nr.: {v}")],
      ["Zahlbar innert 30 Tagen auf IBAN {iban}."], iban_cc="CH"),
    L("fr", ["Camille", "Louis", "Léa", "Hugo", "Chloé", "Lucas", "Manon", "Arthur"],
      ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand"],
      ["orange.fr", "free.fr", "laposte.net", "gmail.com", "sfr.fr"], ["FR", "FR2"],
      ["Le mot de passe du compte admin est {pw}, pense à le changer après.", "Identifiant : {user} / mot de passe : {pw}",
       "Je t'ai mis le mdp du wifi invité : {pw}"],
      ["Vous pouvez me joindre au {phone} ou à {email}.", "Coordonnées du client : {name}, tél. {phone}, courriel {email}"],
      [("fr_nir", "Mon numéro de sécurité sociale est le {v}."), ("fr_nir", "N° de sécu : {v}")],
      ["Merci d'effectuer le virement sur l'IBAN {iban} avant le 30."], iban_cc="FR"),
    L("fr-BE", ["Louise", "Arthur", "Elena", "Jules"], ["Peeters", "Janssens", "Maes", "Dupont"], ["skynet.be", "telenet.be", "proximus.be"],
      ["BE"], ["Le code d'accès du serveur est {pw}."], ["Tél. {phone} — e-mail {email}"],
      [("be_nrn", "Mon numéro de registre national : {v}"), ("be_nrn", "Mijn rijksregisternummer is {v}.")],
      ["Gelieve te storten op rekening {iban}."], iban_cc="BE"),
    L("es", ["Lucía", "Hugo", "Martina", "Pablo", "Sofía", "Álvaro", "Carmen", "Javier"],
      ["García", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Ruiz"],
      ["gmail.com", "hotmail.es", "yahoo.es", "telefonica.net", "outlook.es"], ["ES"],
      ["La contraseña del servidor de pruebas es {pw}, no la compartas.", "Te paso la clave del router: {pw}",
       "Usuario {user}, contraseña {pw}. Cámbiala al entrar."],
      ["Llámame al {phone} o escríbeme a {email}.", "Datos de contacto: {name}, móvil {phone}, correo {email}"],
      [("es_dni", "Mi DNI es {v}, por si lo necesitáis para el contrato."), ("es_nie", "Mi NIE es {v}."),
       ("es_dni", "DNI del titular: {v}"), ("es_nie", "NIE del trabajador: {v}")],
      ["Haz la transferencia a la cuenta {iban}, concepto: alquiler marzo."], iban_cc="ES"),
    L("es-MX", ["Santiago", "Valentina", "Mateo", "Regina"], ["Hernández", "Ramírez", "Torres", "Flores"],
      ["gmail.com", "hotmail.com", "prodigy.net.mx"], ["MX"], ["La contraseña del portal es {pw}."],
      ["Mi cel es {phone}, correo {email}."], [("mx_curp", "Mi CURP es {v}."), ("mx_curp", "CURP del empleado: {v}")],
      ["Te deposito con mi tarjeta {card}, ¿sí pasa?"]),
    L("es-AR", ["Martín", "Camila", "Joaquín", "Florencia"], ["González", "Rodríguez", "Gómez", "Fernández"],
      ["gmail.com", "fibertel.com.ar", "hotmail.com"], ["AR"], ["La clave del servidor es {pw}, no la pases."],
      ["Escribime a {email} o llamame al {phone}."], [("ar_cuit", "Mi CUIT es {v}, facturá a ese número."), ("ar_cuit", "CUIL: {v}")]),
    L("es-CL", ["Benjamín", "Isidora", "Vicente", "Josefa"], ["Muñoz", "Rojas", "Díaz", "Soto"], ["gmail.com", "vtr.net"],
      ["CL"], ["La clave del wifi es {pw}."], ["Mi fono es {phone}, mail {email}."],
      [("cl_rut", "Mi RUT es {v}."), ("cl_rut", "RUT empresa: {v}")]),
    L("es-CO", ["Andrés", "Daniela", "Camilo", "Mariana"], ["Rodríguez", "Gómez", "Moreno", "Jiménez"], ["gmail.com", "hotmail.com"],
      ["CO"], ["La contraseña de la VPN es {pw}."], ["Mi celular: {phone} · {email}"]),
    L("it", ["Giulia", "Marco", "Francesca", "Luca", "Chiara", "Matteo", "Sara", "Andrea"],
      ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci"],
      ["libero.it", "virgilio.it", "tiscali.it", "gmail.com", "alice.it"], ["IT"],
      ["La password del database di produzione è {pw}, cambiala entro venerdì.", "Credenziali VPN: utente {user}, password {pw}"],
      ["Mi trovi al {phone} oppure scrivimi a {email}.", "Recapiti: {name}, cell. {phone}, e-mail {email}"],
      [("it_codice_fiscale", "Il mio codice fiscale è {v}."), ("it_codice_fiscale", "C.F.: {v}")],
      ["Il bonifico va fatto sull'IBAN {iban}, causale: fattura {n}/2024."], iban_cc="IT"),
    L("pt", ["Beatriz", "João", "Inês", "Tiago", "Mariana", "Rui", "Catarina", "Diogo"],
      ["Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa", "Rodrigues", "Martins"],
      ["sapo.pt", "gmail.com", "outlook.pt", "netcabo.pt"], ["PT"],
      ["A palavra-passe do servidor é {pw}, não partilhes.", "Utilizador {user} e palavra-passe {pw}"],
      ["Podes ligar-me para o {phone} ou mandar e-mail para {email}."],
      [("pt_nif", "O meu NIF é {v}."), ("pt_nif", "NIF para a fatura: {v}")],
      ["Transferência para o IBAN {iban}, por favor."], iban_cc="PT"),
    L("pt-BR", ["Ana", "Pedro", "Larissa", "Gabriel", "Juliana", "Rafael", "Fernanda", "Thiago"],
      ["Souza", "Lima", "Carvalho", "Almeida", "Ribeiro", "Gomes", "Araújo", "Barbosa"],
      ["gmail.com", "uol.com.br", "bol.com.br", "hotmail.com", "terra.com.br"], ["BR"],
      ["A senha do Wi-Fi do escritório é {pw}.", "Segue a senha do painel: {pw} (usuário {user})",
       "Galera, troquei a senha do banco de homologação pra {pw}"],
      ["Meu celular é {phone} e meu e-mail é {email}.", "Contato do cliente: {name} — {phone} — {email}"],
      [("br_cpf", "Meu CPF é {v}."), ("br_cpf", "CPF do titular: {v}"), ("br_cpf", "cpf {v} pra nota fiscal")],
      ["Meu cartão {card} foi recusado de novo, pode verificar?"]),
    L("nl", ["Daan", "Emma", "Sem", "Julia", "Lucas", "Tess", "Finn", "Sophie"],
      ["de Jong", "Jansen", "de Vries", "van den Berg", "Bakker", "Visser", "Smit", "Meijer"],
      ["ziggo.nl", "kpnmail.nl", "gmail.com", "hotmail.nl", "xs4all.nl"], ["NL"],
      ["Het wachtwoord voor de VPN is {pw}, niet doorsturen aub.", "Inlog voor de testomgeving: {user} / {pw}"],
      ["Bel me op {phone} of mail naar {email}.", "Contactgegevens: {name}, tel. {phone}, {email}"],
      [("nl_bsn", "Mijn BSN is {v}."), ("nl_bsn", "Burgerservicenummer: {v}")],
      ["Graag overmaken naar {iban} t.n.v. {name}."], iban_cc="NL"),
    L("pl", ["Jakub", "Zuzanna", "Antoni", "Julia", "Szymon", "Maja", "Filip", "Zofia"],
      ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kowalczyk", "Kamiński", "Lewandowski", "Zieliński"],
      ["wp.pl", "onet.pl", "o2.pl", "interia.pl", "gmail.com"], ["PL"],
      ["Hasło do panelu administracyjnego to {pw}, zmień je po zalogowaniu.", "Login: {user}, hasło: {pw}"],
      ["Mój numer telefonu: {phone}, e-mail: {email}.", "Proszę o kontakt: {name}, tel. {phone}"],
      [("pl_pesel", "Mój PESEL to {v}."), ("pl_pesel", "PESEL pacjenta: {v}")],
      ["Przelew proszę na konto {iban}, tytułem: faktura {n}/2024."], iban_cc="PL"),
    L("sv", ["Elsa", "William", "Alice", "Hugo", "Maja", "Oscar", "Ebba", "Lucas"],
      ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson", "Persson"],
      ["telia.com", "gmail.com", "hotmail.se", "bredband.net"], ["SE"],
      ["Lösenordet till testmiljön är {pw}.", "Inloggning: {user}, lösen {pw}"], ["Ring mig på {phone} eller mejla {email}."],
      [("se_personnummer", "Mitt personnummer är {v}."), ("se_personnummer", "Personnr: {v}")],
      ["Betala till IBAN {iban} senast den 25:e."], iban_cc="SE"),
    L("no", ["Nora", "Jakob", "Emma", "Filip", "Ingrid", "Aksel", "Sofie", "Henrik"],
      ["Hansen", "Johansen", "Olsen", "Larsen", "Andersen", "Pedersen", "Nilsen", "Kristiansen"],
      ["online.no", "gmail.com", "hotmail.no", "live.no"], ["NO"],
      ["Passordet til ruteren er {pw}.", "Brukernavn {user}, passord {pw} — bytt det etter første innlogging"],
      ["Du når meg på {phone} eller {email}."], [("no_fnr", "Fødselsnummeret mitt er {v}."), ("no_fnr", "Fnr.: {v}")],
      ["Kontonummer/IBAN: {iban}"], iban_cc="NO"),
    L("da", ["Freja", "William", "Ida", "Noah", "Clara", "Oscar", "Alma", "Victor"],
      ["Nielsen", "Jensen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Sørensen"],
      ["mail.dk", "gmail.com", "hotmail.dk", "jubii.dk"], ["DK"], ["Adgangskoden til serveren er {pw}.", "Koden til wifi er {pw}"],
      ["Ring på {phone} eller skriv til {email}."], [("dk_cpr", "Mit CPR-nummer er {v}."), ("dk_cpr", "CPR: {v}")],
      ["Overfør venligst til {iban}."], iban_cc="DK"),
    L("fi", ["Aino", "Eino", "Helmi", "Väinö", "Sofia", "Leo", "Ella", "Onni"],
      ["Korhonen", "Virtanen", "Mäkinen", "Nieminen", "Mäkelä", "Hämäläinen", "Laine", "Heikkinen"],
      ["gmail.com", "luukku.com", "elisanet.fi", "kolumbus.fi"], ["FI"],
      ["Palvelimen salasana on {pw}, älä jaa sitä eteenpäin.", "Tunnus {user}, salasana {pw}"],
      ["Soita numeroon {phone} tai lähetä sähköpostia osoitteeseen {email}."],
      [("fi_hetu", "Henkilötunnukseni on {v}."), ("fi_hetu", "Hetu: {v}")], ["Maksu tilille {iban}."], iban_cc="FI"),
    L("cs", ["Jan", "Tereza", "Jakub", "Eliška", "Tomáš", "Anna", "Matěj", "Karolína"],
      ["Novák", "Svoboda", "Novotný", "Dvořák", "Černý", "Procházka", "Kučera", "Veselý"],
      ["seznam.cz", "email.cz", "centrum.cz", "gmail.com"], ["CZ"],
      ["Heslo k databázi je {pw}, prosím nesdílej ho.", "Přihlašovací údaje: {user} / {pw}"],
      ["Zavolej mi na {phone} nebo napiš na {email}."], [("cz_rc", "Moje rodné číslo je {v}."), ("cz_rc", "Rodné číslo pojištěnce: {v}")],
      ["Platbu pošlete na účet {iban}."], iban_cc="CZ"),
    L("sk", ["Martin", "Zuzana", "Peter", "Lucia"], ["Horváth", "Kováč", "Varga", "Tóth"], ["azet.sk", "zoznam.sk", "gmail.com"],
      ["SK"], ["Heslo k serveru je {pw}, nikomu ho neposielaj."], ["Zavolajte mi na {phone} alebo napíšte na {email}."],
      [("cz_rc", "Moje rodné číslo je {v}.")], ["Prosím uhraďte na IBAN {iban}."], iban_cc="SK"),
    L("tr", ["Elif", "Yusuf", "Zeynep", "Emir", "Defne", "Mehmet", "Ayşe", "Mustafa"],
      ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Yıldırım", "Öztürk"],
      ["gmail.com", "hotmail.com", "yandex.com.tr", "outlook.com"], ["TR"],
      ["Sunucunun şifresi {pw}, kimseyle paylaşma.", "Kullanıcı adı {user}, parola {pw}"],
      ["Bana {phone} numarasından ya da {email} adresinden ulaşabilirsin."],
      [("tr_tckn", "T.C. kimlik numaram {v}."), ("tr_tckn", "TCKN: {v}")],
      ["Ödemeyi {iban} numaralı hesaba yapabilirsiniz."], iban_cc="TR"),
    L("ro", ["Andrei", "Ioana", "Mihai", "Elena", "Alexandru", "Maria", "Ștefan", "Ana"],
      ["Popescu", "Ionescu", "Popa", "Dumitru", "Stan", "Stoica", "Gheorghe", "Rusu"], ["yahoo.com", "gmail.com", "yahoo.ro"], ["RO"],
      ["Parola pentru serverul de test este {pw}.", "Utilizator {user}, parolă {pw}"], ["Mă găsiți la {phone} sau la {email}."],
      [("ro_cnp", "CNP-ul meu este {v}."), ("ro_cnp", "CNP: {v}")], ["Vă rog plătiți în contul {iban}."], iban_cc="RO"),
    L("et", ["Mari", "Rasmus", "Laura", "Martin", "Liis", "Karl"], ["Tamm", "Saar", "Sepp", "Mägi", "Kask", "Kukk"],
      ["hot.ee", "mail.ee", "gmail.com"], ["EE"], ["Serveri parool on {pw}, palun ära jaga seda."],
      ["Helista mulle {phone} või kirjuta {email}."], [("ee_ik", "Minu isikukood on {v}."), ("ee_ik", "Isikukood: {v}")],
      ["Palun kanna summa kontole {iban}."], iban_cc="EE"),
    L("bg", ["Георги", "Мария", "Иван", "Елена", "Димитър", "Десислава"], ["Иванов", "Петрова", "Георгиев", "Димитрова", "Николов", "Стоянова"],
      ["abv.bg", "mail.bg", "gmail.com"], ["BG"], ["Паролата за сървъра е {pw}, не я споделяй."],
      ["Телефон за връзка: {phone}, имейл: {email}."], [("bg_egn", "Моето ЕГН е {v}."), ("bg_egn", "ЕГН на клиента: {v}")],
      ["Моля, преведете сумата по IBAN {iban}."],
      rom=(["georgi", "maria", "ivan", "elena", "dimitar", "desislava"], ["ivanov", "petrova", "georgiev", "dimitrova", "nikolov", "stoyanova"]),
      iban_cc="BG"),
    L("hr", ["Luka", "Ana", "Ivan", "Petra", "Marko", "Mia"], ["Horvat", "Kovačević", "Babić", "Marić", "Jurić", "Novak"],
      ["gmail.com", "net.hr", "t-com.hr"], ["HR"], ["Lozinka za poslužitelj je {pw}, nemoj je dijeliti."],
      ["Nazovi me na {phone} ili piši na {email}."], [("hr_oib", "Moj OIB je {v}."), ("hr_oib", "OIB tvrtke: {v}")],
      ["Uplatu izvršite na IBAN {iban}."], iban_cc="HR"),
    L("is", ["Guðrún", "Jón", "Sigríður", "Gunnar", "Anna", "Ólafur"],
      ["Jónsdóttir", "Sigurðsson", "Guðmundsdóttir", "Einarsson", "Magnúsdóttir", "Ólafsson"],
      ["simnet.is", "gmail.com", "internet.is"], ["IS"], ["Lykilorðið að þjóninum er {pw}."],
      ["Hringdu í mig í síma {phone} eða sendu póst á {email}."],
      [("is_kennitala", "Kennitalan mín er {v}."), ("is_kennitala", "Kt. {v}")], ["Vinsamlegast millifærðu á {iban}."], iban_cc="IS"),
    L("hu", ["Bence", "Anna", "Máté", "Zsófia", "Dávid", "Hanna"], ["Nagy", "Kovács", "Tóth", "Szabó", "Horváth", "Varga"],
      ["freemail.hu", "citromail.hu", "gmail.com"], ["HU"], ["A szerver jelszava: {pw}, kérlek ne add tovább."],
      ["Hívj a {phone} számon vagy írj a {email} címre."], [], ["Kérem, utalja az összeget a {iban} számlára."], iban_cc="HU"),
    L("el", ["Γιώργος", "Μαρία", "Νίκος", "Ελένη", "Κώστας", "Κατερίνα"],
      ["Παπαδόπουλος", "Παπαδοπούλου", "Οικονόμου", "Γεωργίου", "Νικολάου", "Δημητρίου"],
      ["gmail.com", "yahoo.gr", "otenet.gr"], ["GR"], ["Ο κωδικός πρόσβασης για τον server είναι {pw}."],
      ["Τηλέφωνο επικοινωνίας: {phone}, email: {email}."], [], ["Παρακαλώ καταθέστε στο IBAN {iban}."],
      rom=(["giorgos", "maria", "nikos", "eleni", "kostas", "katerina"], ["papadopoulos", "papadopoulou", "oikonomou", "georgiou", "nikolaou", "dimitriou"]),
      iban_cc="GR"),
    L("ru", ["Алексей", "Мария", "Дмитрий", "Анна", "Сергей", "Екатерина"], ["Иванов", "Смирнова", "Кузнецов", "Попова", "Соколов", "Морозова"],
      ["mail.ru", "yandex.ru", "gmail.com", "bk.ru", "list.ru"], ["RU"],
      ["Пароль от тестового сервера: {pw}, никому не пересылай.", "Логин {user}, пароль {pw}"],
      ["Мой телефон {phone}, почта {email}.", "Связаться с клиентом: {name}, тел. {phone}"], [],
      ["Оплата картой {card} не прошла, клиент просит повторить."],
      rom=(["aleksey", "maria", "dmitry", "anna", "sergey", "ekaterina"], ["ivanov", "smirnova", "kuznetsov", "popova", "sokolov", "morozova"])),
    L("uk", ["Олександр", "Олена", "Андрій", "Ірина", "Максим", "Наталія"], ["Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Кравченко", "Мельник"],
      ["ukr.net", "gmail.com", "i.ua"], ["UA"], ["Пароль до адмінки — {pw}, зміни його після входу."],
      ["Телефонуйте за номером {phone} або пишіть на {email}."], [], ["Реквізити для оплати: IBAN {iban}"],
      rom=(["oleksandr", "olena", "andriy", "iryna", "maksym", "nataliia"], ["shevchenko", "kovalenko", "bondarenko", "tkachenko", "kravchenko", "melnyk"]),
      iban_cc="UA"),
    L("he", ["נועה", "איתי", "מאיה", "יונתן", "תמר", "אורי"], ["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "אברהם"],
      ["gmail.com", "walla.co.il", "012.net.il"], ["IL"], ["הסיסמה לשרת היא {pw}, אל תעביר אותה הלאה."],
      ["אפשר להשיג אותי בטלפון {phone} או במייל {email}."], [("il_tz", "מספר תעודת הזהות שלי הוא {v}"), ("il_tz", "ת.ז. {v}")],
      ["נא להעביר לחשבון {iban}"],
      rom=(["noa", "itay", "maya", "yonatan", "tamar", "ori"], ["cohen", "levi", "mizrahi", "peretz", "biton", "avraham"]), iban_cc="IL"),
    L("ar", ["محمد", "فاطمة", "أحمد", "مريم", "علي", "نورة"], ["العتيبي", "الحربي", "القحطاني", "الشمري", "الدوسري", "الزهراني"],
      ["gmail.com", "hotmail.com", "yahoo.com"], ["SA", "AE", "EG"], ["كلمة المرور للخادم هي {pw} من فضلك لا تشاركها."],
      ["رقم هاتفي {phone} وبريدي الإلكتروني {email}."], [], ["يرجى التحويل إلى الآيبان {iban}"],
      rom=(["mohammed", "fatima", "ahmed", "maryam", "ali", "noura"], ["alotaibi", "alharbi", "alqahtani", "alshammari", "aldosari", "alzahrani"]),
      iban_cc="SA"),
    L("fa", ["علی", "زهرا", "محمد", "فاطمه", "رضا", "مریم"], ["محمدی", "حسینی", "احمدی", "رضایی", "کریمی", "موسوی"],
      ["gmail.com", "yahoo.com"], ["IR"], ["رمز عبور سرور {pw} است، لطفاً آن را به کسی نده."],
      ["شماره تماس من {phone} و ایمیلم {email} است."],
      rom=(["ali", "zahra", "mohammad", "fatemeh", "reza", "maryam"], ["mohammadi", "hosseini", "ahmadi", "rezaei", "karimi", "mousavi"])),
    L("hi", ["आरव", "अनन्या", "विवान", "दीया", "अर्जुन", "ईशा"], ["शर्मा", "वर्मा", "गुप्ता", "सिंह", "पटेल", "कुमार"],
      ["gmail.com", "rediffmail.com", "yahoo.co.in"], ["IN"], ["सर्वर का पासवर्ड {pw} है, इसे किसी के साथ साझा न करें।"],
      ["मुझे {phone} पर कॉल करें या {email} पर ईमेल करें।"], [("aadhaar", "मेरा आधार नंबर {v} है।"), ("in_pan", "मेरा पैन नंबर {v} है।")],
      rom=(["aarav", "ananya", "vivaan", "diya", "arjun", "isha"], ["sharma", "verma", "gupta", "singh", "patel", "kumar"])),
    L("ja", ["翔太", "陽菜", "蓮", "結衣", "大翔", "さくら"], ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺"],
      ["gmail.com", "yahoo.co.jp", "docomo.ne.jp", "icloud.com"], ["JP", "JP2"],
      ["本番DBのパスワードは {pw} です。共有しないでください。", "検証環境のログイン情報：ユーザー名 {user}／パスワード {pw}"],
      ["連絡先は {phone}、メールは {email} です。"], [("jp_my_number", "私のマイナンバーは {v} です。"), ("jp_my_number", "個人番号：{v}")],
      rom=(["shota", "hina", "ren", "yui", "hiroto", "sakura"], ["sato", "suzuki", "takahashi", "tanaka", "ito", "watanabe"])),
    L("zh", ["伟", "芳", "娜", "磊", "静", "强"], ["王", "李", "张", "刘", "陈", "杨"], ["qq.com", "163.com", "126.com", "sina.com", "gmail.com"],
      ["CN"], ["测试服务器的密码是 {pw}，请勿外传。", "运维账号：{user}，密码：{pw}"], ["我的手机号是 {phone}，邮箱是 {email}。"],
      [("cn_ric", "我的身份证号码是{v}。"), ("cn_ric", "身份证号：{v}")], ["银行卡号 {card}，请核对后转账。"],
      rom=(["wei", "fang", "na", "lei", "jing", "qiang"], ["wang", "li", "zhang", "liu", "chen", "yang"])),
    L("zh-HK", ["嘉欣", "志明", "詠詩", "家豪"], ["陳", "黃", "李", "何"], ["netvigator.com", "gmail.com", "yahoo.com.hk"], ["HK"],
      ["伺服器密碼係 {pw}，唔好傳出去。"], ["有事打 {phone} 或者 email {email} 搵我。"],
      [("hk_hkid", "我的香港身份證號碼係 {v}。"), ("hk_hkid", "HKID: {v}")],
      rom=(["kayan", "chiming", "wingsze", "kaho"], ["chan", "wong", "lee", "ho"])),
    L("ko", ["민준", "서연", "도윤", "지우", "하준", "서윤"], ["김", "이", "박", "최", "정", "강"], ["naver.com", "daum.net", "gmail.com", "kakao.com"],
      ["KR"], ["서버 비밀번호는 {pw} 입니다. 외부에 공유하지 마세요."], ["연락처는 {phone}, 이메일은 {email} 입니다."],
      [("kr_rrn", "제 주민등록번호는 {v} 입니다."), ("kr_rrn", "주민번호: {v}")],
      rom=(["minjun", "seoyeon", "doyun", "jiwoo", "hajun", "seoyun"], ["kim", "lee", "park", "choi", "jung", "kang"])),
    L("vi", ["Minh", "Lan", "Huy", "Thảo", "Nam", "Linh"], ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Vũ"], ["gmail.com", "yahoo.com.vn"],
      ["VN"], ["Mật khẩu máy chủ là {pw}, đừng chia sẻ nhé."], ["Số điện thoại của tôi là {phone}, email {email}."]),
    L("id", ["Budi", "Siti", "Agus", "Dewi", "Rizky", "Putri"], ["Santoso", "Wijaya", "Saputra", "Lestari", "Hidayat", "Kusuma"],
      ["gmail.com", "yahoo.co.id"], ["ID"], ["Kata sandi server staging adalah {pw}, jangan dibagikan ya."],
      ["Hubungi saya di {phone} atau {email}."]),
    L("th", ["สมชาย", "สมหญิง", "ณัฐ", "พิมพ์", "ธนา", "กานต์"], ["ใจดี", "สุขสันต์", "วงศ์ไทย", "ศรีสุข", "ทองดี", "แสงทอง"],
      ["gmail.com", "hotmail.co.th"], ["TH"], ["รหัสผ่านของเซิร์ฟเวอร์คือ {pw} อย่าบอกใครนะ"], ["โทรหาฉันได้ที่ {phone} หรืออีเมล {email}"],
      rom=(["somchai", "somying", "nat", "pim", "thana", "karn"], ["jaidee", "suksan", "wongthai", "srisuk", "thongdee", "saengthong"])),
    L("tl", ["Juan", "Maria", "Jose", "Angelica", "Mark", "Kristine"], ["dela Cruz", "Reyes", "Santos", "Bautista", "Garcia", "Mendoza"],
      ["gmail.com", "yahoo.com.ph"], ["PH"], ["Ang password ng server ay {pw}, huwag mong ibahagi."],
      ["Tawagan mo ako sa {phone} o mag-email sa {email}."]),
    L("ms", ["Ahmad", "Nurul", "Hafiz", "Siti", "Aiman", "Farah"], ["Ismail", "Hassan", "Abdullah", "Omar", "Yusof", "Ahmad"],
      ["gmail.com", "yahoo.com.my"], ["MY"], ["Kata laluan pelayan ialah {pw}, jangan kongsi dengan sesiapa."],
      ["Hubungi saya di {phone} atau e-mel {email}."]),
    L("sw", ["Amani", "Baraka", "Neema", "Juma", "Zawadi", "Hassan"], ["Mwangi", "Otieno", "Wanjiru", "Kamau", "Njoroge", "Achieng"],
      ["gmail.com", "yahoo.com"], ["KE"], ["Nenosiri la seva ni {pw}, usimpe mtu mwingine."], ["Nipigie kwa {phone} au niandikie {email}."]),
    L("ca", ["Jordi", "Montserrat", "Pau", "Núria", "Arnau", "Laia"], ["Puig", "Vila", "Serra", "Soler", "Ferrer", "Roca"],
      ["gmail.com", "telefonica.net"], ["ES"], ["La contrasenya del servidor és {pw}, no la comparteixis."],
      ["Truca'm al {phone} o escriu-me a {email}."], [("es_dni", "El meu DNI és {v}.")], ["Feu la transferència al compte {iban}."],
      iban_cc="ES"),
    L("lt", ["Lukas", "Emilija", "Matas", "Austėja", "Jonas", "Gabija"],
      ["Kazlauskas", "Jankauskienė", "Petrauskas", "Stankevičiūtė", "Vasiliauskas", "Žukauskaitė"], ["gmail.com", "one.lt", "inbox.lt"],
      ["LT"], ["Serverio slaptažodis yra {pw}."], ["Skambinkite {phone} arba rašykite {email}."], [],
      ["Prašome pervesti į sąskaitą {iban}."], iban_cc="LT"),
    L("nz", ["Aroha", "Nikau", "Olivia", "Hemi"], ["Ngata", "Parata", "Smith", "Walker"], ["xtra.co.nz", "gmail.com"], ["NZ"],
      [EN_PW[2]], ["Flick me a text on {phone} or email {email}."]),
]


def person(lang):
    i = R.randrange(len(lang["first"]))
    j = R.randrange(len(lang["last"]))
    name = lang["first"][i] + " " + lang["last"][j]
    if lang["code"] in ("ja", "zh", "zh-HK", "ko"):
        name = lang["last"][j] + lang["first"][i]
    if lang["rom"]:
        rf, rl = lang["rom"]
        em = email_addr(rf[i % len(rf)], rl[j % len(rl)], lang["dom"])
    else:
        em = email_addr(lang["first"][i], lang["last"][j], lang["dom"])
    return name, em


def lang_by(code):
    for l in LANGS:
        if l["code"] == code:
            return l
    raise KeyError(code)


# ---------------------------------------------------------------------------- passwords

PW_WORDS = ["Summer", "Winter", "Autumn", "Spring", "Dragon", "Falcon", "Monkey", "Sunshine", "Shadow", "Tiger", "Rocket",
            "Coffee", "Pirate", "Galaxy", "Maple", "Harbor", "Velvet", "Copper", "Thunder", "Orchid", "Bayern", "Paris",
            "Welcome", "Kaffee", "Sommer", "Zaq1", "Qwerty", "Letmein", "Admin", "Passw0rd"]
PHRASE_WORDS = ["marble", "otter", "canyon", "lantern", "violet", "saddle", "quartz", "ember", "nimbus", "tundra", "pepper",
                "harbor", "cobalt", "meadow", "falcon", "juniper", "walnut", "glacier", "sparrow", "tangent", "orbit",
                "pickle", "crimson", "basil", "fjord", "yonder"]
SYM = "!#$%^&*()-_=+.,:;~@?[]{}"


def gen_password(style=None, avoid="", urlsafe=False, prose=False):
    sym = "!*-_.~" if urlsafe else SYM
    sym = "".join(c for c in sym if c not in avoid) or "_"
    style = style or pick(["human", "human", "random", "random", "random", "phrase", "alnum"])
    for _ in range(100):
        if style == "human":
            w = pick(PW_WORDS)
            k = R.random()
            if k < 0.4:
                s = "%s%d%s" % (w, R.randint(1990, 2026), pick(sym))
            elif k < 0.7:
                s = "%s%s%s%d" % (w, pick(sym), pick(PW_WORDS).lower(), R.randint(1, 99))
            else:
                s = "%s%s%d%s" % (pick(sym), w, R.randint(100, 9999), pick(sym))
        elif style == "random":
            cs = AN + sym
            n = R.randint(14, 28)
            s = "".join(pick(cs) for _ in range(n))
            if not (any(c in sym for c in s) and any(c.isdigit() for c in s) and any(c.isupper() for c in s)
                    and any(c.islower() for c in s)):
                continue
        elif style == "phrase":
            sep = pick(["-", "-", ".", "_"]) if not urlsafe else pick(["-", "_", "."])
            if sep in avoid:
                sep = ""
            ws = R.sample(PHRASE_WORDS, pick([3, 4]))
            if sep == "":
                ws = [w.title() for w in ws]
            s = sep.join(ws) + sep + str(R.randint(10, 99))
        else:
            s = rs(R.randint(12, 20))
        if any(c in avoid for c in s):
            continue
        if len(s) < 8 or s[0] in "-#;.,:([{'\"" or s[-1] in ".,;:!?)]}'\"":
            continue
        if prose and not (s[0].isalnum() and s[-1].isalnum()):
            continue
        return s
    raise AssertionError("password gen")


def pin(n=None):
    n = n or pick([4, 4, 6, 6, 8])
    while True:
        s = dg(n)
        if len(set(s)) > 2:
            return s


def yq(pw):
    """YAML scalar: bare when harmless, otherwise double-quoted (the canary is the inner value)."""
    if all(c.isalnum() or c in "-_." for c in pw) and not pw[0] in "-.":
        return pw
    return '"%s"' % pw


# ------------------------------------------------------------------------- row store

ROWS = []


def add(text, pairs):
    seen = []
    for c, k in pairs:
        assert len(c) >= 4, (c, k)
        assert c in text, (c, k, text)
        if c in seen:
            continue
        seen.append(c)
    ROWS.append({"text": text, "canaries": [c for c, _ in pairs], "kinds": [k for _, k in pairs]})


DBUSERS = ["app", "appuser", "orders_rw", "svc_billing", "postgres", "root", "admin", "reporting", "etl", "django",
           "wordpress", "keycloak", "grafana", "metabase", "analytics_ro"]
DBS = ["orders", "billing", "app_production", "inventory", "crm", "analytics", "wp_site", "keycloak", "payments", "ledger"]
HOSTS = ["db.internal", "10.0.4.12", "pg-primary.prod.svc.cluster.local", "mysql-01.acme.lan",
         "orders-db.cluster-c9xk2lqz1abc.eu-west-1.rds.amazonaws.com", "127.0.0.1", "localhost", "postgres",
         "sql-prod-01.database.windows.net", "db.helio.dev", "172.20.0.5", "mariadb", "aurora-ro.internal"]
SSIDS = ["ACME-Guest", "Office-5G", "FjordSoft", "Helio-Corp", "Lab-IoT", "KappaData-Staff"]


def pw_kw(pw):
    return dict(pw=pw, pwy=yq(pw), host=pick(HOSTS), dbuser=pick(DBUSERS), db=pick(DBS), user=pick(USERS), ip=ipv4(),
                domain=pick(DOMAINS_CO), app=pick(APPS), ssid=pick(SSIDS), org=pick(ORGS), date=when().strftime("%Y%m%d"),
                n=R.randint(100, 9999), dbport=pick([5432, 3306, 5433, 1433, 6432]), repo=pick(REPOS))


Q = "'\"\\`"
SH_UNQ = " !\"#$&'()*;<>?[]\\`{|}~^%,=@:+"
CONFIG_PW = [
    ("DB_HOST={host}\nDB_PORT={dbport}\nDB_USER={dbuser}\nDB_PASSWORD={pw}\nDB_NAME={db}", Q + " #$"),
    ("MAIL_MAILER=smtp\nMAIL_HOST=smtp.{domain}\nMAIL_PORT=587\nMAIL_USERNAME=notifications\nMAIL_PASSWORD={pw}\nMAIL_ENCRYPTION=tls", Q + " #$"),
    ("services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {dbuser}\n      POSTGRES_PASSWORD: {pwy}\n      POSTGRES_DB: {db}\n    volumes:\n      - pgdata:/var/lib/postgresql/data", Q),
    ("services:\n  mysql:\n    image: mysql:8.4\n    environment:\n      - MYSQL_ROOT_PASSWORD={pw}\n      - MYSQL_DATABASE={db}\n    ports:\n      - \"3306:3306\"", Q + " #$"),
    ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: {app}-db\ntype: Opaque\nstringData:\n  username: {dbuser}\n  password: {pwy}", Q),
    ("# group_vars/prod.yml\nansible_user: {user}\nansible_become_password: {pwy}\nnginx_worker_processes: auto", Q),
    ("[database]\nhost = \"{host}\"\nport = {dbport}\nuser = \"{dbuser}\"\npassword = \"{pw}\"\npool_size = 10", Q),
    ("# ~/.my.cnf\n[client]\nuser={dbuser}\npassword={pw}\nhost={host}", Q + " #;"),
    ("spring.datasource.url=jdbc:postgresql://{host}:5432/{db}\nspring.datasource.username={dbuser}\nspring.datasource.password={pw}\nspring.jpa.hibernate.ddl-auto=validate", Q + " "),
    ("spring:\n  datasource:\n    url: jdbc:mysql://{host}:3306/{db}\n    username: {dbuser}\n    password: {pwy}\n  jpa:\n    open-in-view: false", Q),
    ("<connectionStrings>\n  <add name=\"Default\" connectionString=\"Server={host};Database={db};User Id={dbuser};Password={pw};\" providerName=\"System.Data.SqlClient\" />\n</connectionStrings>", Q + ";&<>="),
    ("{\n  \"ConnectionStrings\": {\n    \"DefaultConnection\": \"Host={host};Database={db};Username={dbuser};Password={pw}\"\n  },\n  \"Logging\": { \"LogLevel\": { \"Default\": \"Warning\" } }\n}", Q + ";="),
    ("<settings>\n  <servers>\n    <server>\n      <id>nexus-releases</id>\n      <username>{user}</username>\n      <password>{pw}</password>\n    </server>\n  </servers>\n</settings>", Q + "&<>{}"),
    ("<tomcat-users>\n  <role rolename=\"manager-gui\"/>\n  <user username=\"admin\" password=\"{pw}\" roles=\"manager-gui,admin-gui\"/>\n</tomcat-users>", Q + "&<>"),
    ("# terraform.tfvars\ndb_username   = \"{dbuser}\"\ndb_password   = \"{pw}\"\ninstance_class = \"db.t3.medium\"", Q + "$%"),
    ("provider \"postgresql\" {\n  host     = \"{host}\"\n  username = \"{dbuser}\"\n  password = \"{pw}\"\n  sslmode  = \"require\"\n}", Q + "$%"),
    ("machine {host}\n  login {user}\n  password {pw}", Q + " "),
    ("$ cat ~/.pgpass\n{host}:5432:{db}:{dbuser}:{pw}\n*:*:*:replicator:{pw2}", Q + ":"),
    ("[Service]\nType=simple\nUser={app}\nEnvironment=\"PGPASSWORD={pw}\"\nExecStart=/usr/local/bin/{app}-backup --target s3://backups/{app}", Q + "%$"),
    ("<VirtualHost *:443>\n  ServerName {app}.{domain}\n  SetEnv DB_PASSWORD {pw}\n  DocumentRoot /var/www/{app}/public\n</VirtualHost>", Q + " <>"),
    ("define( 'DB_NAME', '{db}' );\ndefine( 'DB_USER', '{dbuser}' );\ndefine( 'DB_PASSWORD', '{pw}' );\ndefine( 'DB_HOST', 'localhost' );", Q),
    ("bind 0.0.0.0\nport 6379\nrequirepass {pw}\nmaxmemory 2gb\nmaxmemory-policy allkeys-lru", Q + " #"),
    ("$ cat /etc/pgbouncer/userlist.txt\n\"{dbuser}\" \"{pw}\"", Q),
    ("default_user = {user}\ndefault_pass = {pw}\nlisteners.tcp.default = 5672\nmanagement.tcp.port = 15672", Q + " #"),
    ("[security]\nadmin_user = admin\nadmin_password = {pw}\nsecret_key = ${GF_SECRET_KEY}", Q + " #;"),
    ("KEYCLOAK_ADMIN=admin\nKEYCLOAK_ADMIN_PASSWORD={pw}\nKC_DB=postgres\nKC_HOSTNAME=sso.{domain}", Q + " #$"),
    ("network={\n    ssid=\"{ssid}\"\n    psk=\"{pw}\"\n    key_mgmt=WPA-PSK\n}", Q),
    ("interface=wlan0\nssid={ssid}\nhw_mode=g\nchannel=6\nwpa=2\nwpa_passphrase={pw}\nwpa_key_mgmt=WPA-PSK", Q + " #"),
    ("<UserAccounts>\n  <AdministratorPassword>\n    <Value>{pw}</Value>\n    <PlainText>true</PlainText>\n  </AdministratorPassword>\n</UserAccounts>", Q + "&<>"),
    ("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"{user}\" password=\"{pw}\";", Q + ";"),
    ("# kibana.yml\nserver.host: \"0.0.0.0\"\nelasticsearch.hosts: [\"https://es01:9200\"]\nelasticsearch.username: kibana_system\nelasticsearch.password: {pwy}", Q),
    ("jenkins:\n  securityRealm:\n    local:\n      allowsSignup: false\n      users:\n        - id: admin\n          password: {pwy}", Q),
    ("ldap:\n  url: ldaps://ldap.{domain}:636\n  bind_dn: cn=svc-gitlab,ou=services,dc=corp,dc=local\n  bind_password: {pwy}\n  base: ou=people,dc=corp,dc=local", Q),
    ("apiVersion: v1\nkind: Config\nusers:\n- name: admin@legacy-cluster\n  user:\n    username: admin\n    password: {pwy}", Q),
    ("[smtp]\nserver = smtp.{domain}\nport = 465\nusername = alerts\npassword = {pw}\nuse_ssl = true", Q + " #;"),
    ("[web]\nweb01 ansible_host={ip} ansible_user={user} ansible_password={pw}\nweb02 ansible_host={ip}", Q + " #;="),
    ("FROM mysql:8.0\nENV MYSQL_ROOT_PASSWORD={pw}\nENV MYSQL_DATABASE={db}\nCOPY schema.sql /docker-entrypoint-initdb.d/", Q + " #$"),
    ("$ cat /etc/samba/creds/finance\nusername={user}\npassword={pw}\ndomain=CORP", Q + " "),
    ("$ cat /etc/openvpn/auth.txt\n{user}\n{pw}", Q + " "),
    ("{\n  \"db\": {\n    \"host\": \"{host}\",\n    \"user\": \"{dbuser}\",\n    \"password\": \"{pw}\",\n    \"database\": \"{db}\"\n  }\n}", Q),
    ("<bean id=\"dataSource\" class=\"com.zaxxer.hikari.HikariDataSource\">\n  <property name=\"jdbcUrl\" value=\"jdbc:postgresql://{host}/{db}\"/>\n  <property name=\"username\" value=\"{dbuser}\"/>\n  <property name=\"password\" value=\"{pw}\"/>\n</bean>", Q + "&<>"),
    ("'mysql' => [\n    'driver' => 'mysql',\n    'host' => env('DB_HOST', '127.0.0.1'),\n    'username' => env('DB_USERNAME', '{dbuser}'),\n    'password' => env('DB_PASSWORD', '{pw}'),\n],", Q),
    ("production:\n  adapter: postgresql\n  database: {db}\n  username: {dbuser}\n  password: {pwy}\n  host: {host}\n  pool: 5", Q),
    ("Vagrant.configure(\"2\") do |config|\n  config.vm.box = \"ubuntu/jammy64\"\n  config.ssh.username = \"vagrant\"\n  config.ssh.password = \"{pw}\"\nend", Q + "#"),
    ("# gradle.properties\norg.gradle.jvmargs=-Xmx2g\nmavenUser=ci\nmavenPassword={pw}", Q + " "),
    ("DATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': '{db}',\n        'USER': '{dbuser}',\n        'PASSWORD': '{pw}',\n        'HOST': '{host}',\n    }\n}", Q),
    ("global:\n  smtp_smarthost: 'smtp.{domain}:587'\n  smtp_auth_username: 'alertmanager'\n  smtp_auth_password: '{pw}'", Q),
    ("scrape_configs:\n  - job_name: node\n    basic_auth:\n      username: prometheus\n      password: {pwy}\n    static_configs:\n      - targets: ['{ip}:9100']", Q),
    ("[client]\nhost = {host}\n[mysqldump]\nuser = backup\npassword = \"{pw}\"", Q),
]

CLI_PW = [
    ("mysql -h {host} -u {dbuser} -p'{pw}' -e 'SHOW DATABASES;'", Q),
    ("mysql -u{dbuser} -p{pw} {db} < dump.sql", SH_UNQ + Q),
    ("PGPASSWORD='{pw}' psql -h {host} -U {dbuser} -d {db} -c '\\dt'", Q),
    ("sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no {user}@{ip} 'sudo systemctl restart {app}'", Q),
    ("curl -u {user}:{pw} https://nexus.{domain}/service/rest/v1/repositories", SH_UNQ + Q),
    ("docker login registry.{domain} -u {user} -p '{pw}'", Q),
    ("redis-cli -h {host} -p 6379 -a '{pw}' INFO keyspace", Q),
    ("az vm create -g rg-{app} -n vm-{app}-01 --image Ubuntu2204 --admin-username azureuser --admin-password '{pw}'", Q),
    ("echo '{pw}' | sudo -S apt-get install -y nginx", Q),
    ("net user svc_backup {pw} /add /domain", SH_UNQ + Q + "/"),
    ("htpasswd -b -c /etc/nginx/.htpasswd admin '{pw}'", Q),
    ("openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{pw}", SH_UNQ + Q),
    ("zip -P '{pw}' backup-{date}.zip *.sql", Q),
    ("7z a -p{pw} -mhe=on archive-{date}.7z ./exports", SH_UNQ + Q),
    ("keytool -importkeystore -srckeystore in.p12 -srcstoretype PKCS12 -destkeystore app.jks -deststorepass '{pw}' -srcstorepass '{pw}'", Q),
    ("rabbitmqctl add_user {user} '{pw}' && rabbitmqctl set_user_tags {user} administrator", Q),
    ("kubectl create secret generic {app}-db --from-literal=username={dbuser} --from-literal=password='{pw}' -n prod", Q),
    ("vault kv put secret/{app}/db username={dbuser} password='{pw}'", Q),
    ("gh secret set DB_PASSWORD --body '{pw}' --env production", Q),
    ("heroku config:set DATABASE_PASSWORD='{pw}' -a {app}", Q),
    ("aws rds modify-db-instance --db-instance-identifier {app}-prod --master-user-password '{pw}' --apply-immediately", Q),
    ("gcloud sql users set-password root --host=% --instance={app}-db --password='{pw}'", Q),
    ("psql -c \"ALTER USER {dbuser} WITH PASSWORD '{pw}';\"", Q + "$!"),
    ("mount -t cifs //fs01/finance /mnt/finance -o username={user},password={pw},vers=3.0", SH_UNQ + Q),
    ("wget --user={user} --password='{pw}' https://downloads.{domain}/releases/latest.tar.gz", Q),
    ("ldapsearch -x -H ldaps://ldap.{domain} -D 'cn=admin,dc=corp,dc=local' -w '{pw}' -b 'ou=people,dc=corp,dc=local'", Q),
    ("sqlcmd -S {host} -U sa -P '{pw}' -Q 'SELECT @@VERSION'", Q),
    ("mongosh --host {host} -u {dbuser} -p '{pw}' --authenticationDatabase admin", Q),
    ("ansible-playbook site.yml -i inventories/prod -e 'ansible_become_pass={pw}'", Q + " "),
    ("pg_dump 'host={host} user={dbuser} password={pw} dbname={db}' > backup.sql", Q + " "),
    ("ipmitool -I lanplus -H {ip} -U ADMIN -P '{pw}' chassis power status", Q),
    ("nmcli dev wifi connect '{ssid}' password '{pw}'", Q),
    ("Set-LocalUser -Name svc_sql -Password (ConvertTo-SecureString '{pw}' -AsPlainText -Force)", Q),
    ("sudo -u postgres psql -c \"CREATE ROLE {dbuser} LOGIN PASSWORD '{pw}';\"", Q + "$!"),
    ("cmdkey /add:{host} /user:CORP\\{user} /pass:{pw}", SH_UNQ + Q + "/"),
    ("smbclient //fs01/projects -U '{user}%{pw}' -c 'ls'", Q + "%"),
    ("docker run -d --name pg -e POSTGRES_PASSWORD={pw} -p 5432:5432 postgres:16", SH_UNQ + Q),
    ("helm install {app}-db bitnami/postgresql --set auth.postgresPassword={pw} --set auth.database={db}", SH_UNQ + Q),
    ("influx setup --username admin --password '{pw}' --org {org} --bucket metrics --force", Q),
    ("$ git config --global credential.helper store\n$ git push\nUsername for 'https://git.{domain}': {user}\nPassword for 'https://{user}@git.{domain}': {pw}", Q + " "),
]

CODE_PW = [
    ('conn = psycopg2.connect(host="{host}", dbname="{db}", user="{dbuser}", password="{pw}")', Q),
    ('server = smtplib.SMTP_SSL("smtp.{domain}", 465)\nserver.login("alerts", "{pw}")', Q),
    ('resp = requests.get(url, auth=("{user}", "{pw}"), timeout=10)', Q),
    ('ssh = paramiko.SSHClient()\nssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())\nssh.connect("{ip}", username="{user}", password="{pw}")', Q),
    ("const pool = new Pool({\n  host: '{host}',\n  user: '{dbuser}',\n  password: '{pw}',\n  database: '{db}',\n});", Q),
    ("const transporter = nodemailer.createTransport({\n  host: 'smtp.{domain}',\n  port: 587,\n  auth: { user: 'notifications', pass: '{pw}' },\n});", Q),
    ("export const dataSource = new DataSource({\n  type: 'mysql',\n  host: '{host}',\n  username: '{dbuser}',\n  password: '{pw}',\n  database: '{db}',\n});", Q),
    ('dsn := "host={host} user={dbuser} password={pw} dbname={db} sslmode=disable"\ndb, err := sql.Open("postgres", dsn)', Q + " "),
    ('auth := smtp.PlainAuth("", "alerts", "{pw}", "smtp.{domain}")', Q),
    ('Connection conn = DriverManager.getConnection("jdbc:postgresql://{host}:5432/{db}", "{dbuser}", "{pw}");', Q),
    ('HikariConfig cfg = new HikariConfig();\ncfg.setJdbcUrl("jdbc:mysql://{host}:3306/{db}");\ncfg.setUsername("{dbuser}");\ncfg.setPassword("{pw}");', Q),
    ('var cs = "Server={host};Database={db};User Id={dbuser};Password={pw};TrustServerCertificate=True";', Q + ";="),
    ('var cred = new NetworkCredential("{user}", "{pw}", "CORP");', Q),
    ("ActiveRecord::Base.establish_connection(adapter: 'postgresql', host: '{host}', username: '{dbuser}', password: '{pw}', database: '{db}')", Q),
    ("Net::SMTP.start('smtp.{domain}', 587, 'localhost', 'alerts', '{pw}', :plain) do |smtp|\n  smtp.send_message msg, from, to\nend", Q),
    ("$pdo = new PDO('mysql:host={host};dbname={db}', '{dbuser}', '{pw}');", Q),
    ("$conn = mysqli_connect('localhost', '{dbuser}', '{pw}', '{db}');", Q),
    ('let opts = PgConnectOptions::new()\n    .host("{host}")\n    .username("{dbuser}")\n    .password("{pw}")\n    .database("{db}");', Q),
    ('Database.connect("jdbc:postgresql://{host}/{db}", driver = "org.postgresql.Driver", user = "{dbuser}", password = "{pw}")', Q + "$"),
    ('let config = SQLPostgresConfiguration(hostname: "{host}", username: "{dbuser}", password: "{pw}", database: "{db}", tls: .disable)', Q + "\\("),
    ('$secure = ConvertTo-SecureString "{pw}" -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential ("CORP\\{user}", $secure)', Q + "$"),
    ("CREATE USER '{dbuser}'@'%' IDENTIFIED BY '{pw}';\nGRANT SELECT, INSERT, UPDATE ON {db}.* TO '{dbuser}'@'%';", Q),
    ("ALTER ROLE {dbuser} WITH LOGIN PASSWORD '{pw}';", Q),
    ("CREATE LOGIN {dbuser} WITH PASSWORD = '{pw}', CHECK_POLICY = OFF;\nCREATE USER {dbuser} FOR LOGIN {dbuser};", Q),
    ('CREATE USER {dbuser} IDENTIFIED BY "{pw}";\nGRANT CREATE SESSION TO {dbuser};', Q),
    ('#!/usr/bin/env bash\nset -euo pipefail\nBACKUP_PASS="{pw}"\nopenssl enc -aes-256-cbc -pbkdf2 -in dump.sql -out dump.sql.enc -pass pass:"$BACKUP_PASS"', Q + "$!"),
    ("- name: create app db user\n  community.mysql.mysql_user:\n    name: {dbuser}\n    password: {pwy}\n    priv: '{db}.*:ALL'", Q),
    ('val props = Properties().apply {\n    put("user", "{dbuser}")\n    put("password", "{pw}")\n}', Q + "$"),
    ('client := redis.NewClient(&redis.Options{\n\tAddr:     "{host}:6379",\n\tPassword: "{pw}",\n\tDB:       0,\n})', Q),
    ("$mail->Username = 'noreply';\n$mail->Password = '{pw}';\n$mail->SMTPSecure = PHPMailer::ENCRYPTION_STARTTLS;", Q),
]

PROSE_PW = [
    "creds for the staging box: {user} / {pw}",
    "login is {user}, password {pw}",
    "Your temporary password is {pw}. You will be asked to change it at first sign-in.",
    "new root password on bastion-02 is {pw}, updated the runbook",
    "Username: {user}\nPassword: {pw}\nURL: https://admin.{domain}/login",
    "Hi IT, my password {pw} stopped working after the reset yesterday, can you unlock {user}?",
    "for the demo use admin / {pw} (it gets wiped every night)",
    "I set the keystore passphrase to {pw}",
    "Subject: VPN access\n\nYour account {user} has been created. Initial password: {pw}\nPlease change it within 24 hours.",
    "pass={pw}",
    "reminder to self: router admin pw {pw}",
    "the encryption passphrase for the offsite backups is {pw} — it's also in the safe",
]
PIN_PROSE = [
    "door code / alarm PIN for the server room: {pin}",
    "my phone passcode is {pin}, grab the 2FA code from it if I'm not around",
    "New card PIN: {pin}. Do not share it with anyone.",
    "The SIM PIN is {pin} and the PUK is {puk}.",
    "Voicemail PIN reset to {pin}",
    "Use one-time passcode {pin} to finish signing in. It expires in 10 minutes.",
]


def row_password(kind):
    if kind == "config":
        tpl, avoid = pick(CONFIG_PW)
    elif kind == "cli":
        tpl, avoid = pick(CLI_PW)
    elif kind == "code":
        tpl, avoid = pick(CODE_PW)
    else:
        tpl, avoid = pick(PROSE_PW), Q
    pw = gen_password(avoid=avoid, prose=(kind == "prose"))
    kw = pw_kw(pw)
    pairs = [(pw, "password")]
    if "{pw2}" in tpl:
        pw2 = gen_password(avoid=avoid)
        kw["pw2"] = pw2
        pairs.append((pw2, "password"))
    text = fill(tpl, **kw)
    if kind == "cli" and chance(0.5):
        text = pick(["$ ", "root@%s:~# " % pick(["db01", "bastion", "ip-10-0-3-14"]), "PS C:\\> " if "Set-Local" in tpl else "$ "]) + text
    add(text, pairs)


def row_pin():
    tpl = pick(PIN_PROSE)
    p = pin(pick([4, 6]) if "passcode" not in tpl else 6)
    pairs = [(p, "password")]
    kw = {"pin": p}
    if "{puk}" in tpl:
        puk = pin(8)
        kw["puk"] = puk
        pairs.append((puk, "password"))
    add(fill(tpl, **kw), pairs)


# ------------------------------------------------------------------------------ DSNs

DSN_T = [
    ("pg", "postgres://{u}:{p}@{host}:5432/{db}"),
    ("pg", "postgresql://{u}:{p}@{host}:5432/{db}?sslmode=require"),
    ("sqla", "postgresql+psycopg2://{u}:{p}@{host}/{db}"),
    ("sql", "mysql://{u}:{p}@{host}:3306/{db}"),
    ("sqla", "mysql+pymysql://{u}:{p}@{host}:3306/{db}?charset=utf8mb4"),
    ("sql", "mariadb://{u}:{p}@{host}:3306/{db}"),
    ("mongo", "mongodb://{u}:{p}@mongo-0.mongo:27017,mongo-1.mongo:27017/{db}?replicaSet=rs0&authSource=admin"),
    ("mongo", "mongodb+srv://{u}:{p}@cluster0.{r5}.mongodb.net/{db}?retryWrites=true&w=majority"),
    ("redis", "redis://:{p}@{host}:6379/0"),
    ("redis", "rediss://default:{p}@{r8}.upstash.io:6379"),
    ("redis", "redis://{u}:{p}@redis-12345.c1.eu-west-1-2.ec2.redns.redis-cloud.com:12345"),
    ("amqp", "amqp://{u}:{p}@rabbitmq.prod.svc:5672/%2F"),
    ("amqp", "amqps://{u}:{p}@b-{uuid}.mq.eu-west-1.amazonaws.com:5671"),
    ("amqp", "amqp://{u}:{p}@localhost:5672//"),
    ("msg", "nats://{u}:{p}@nats.internal:4222"),
    ("msg", "mqtt://{u}:{p}@broker.{domain}:1883"),
    ("sql", "clickhouse://{u}:{p}@{host}:9000/{db}"),
    ("pg", "postgresql://{u}:{p}@free-tier14.aws-eu-central-1.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full"),
    ("pg", "postgres://{u}:{p}@ep-{r5}-{r8}.eu-central-1.aws.neon.tech/{db}?sslmode=require"),
    ("file", "ftp://{u}:{p}@ftp.{domain}/incoming/"),
    ("file", "sftp://{u}:{p}@sftp.{domain}:22/uploads"),
    ("mail", "smtp://{u}:{p}@smtp.{domain}:587"),
    ("mail", "smtps://{u}:{p}@smtp.{domain}:465"),
    ("proxy", "http://{u}:{p}@proxy.{domain}:3128"),
    ("http", "https://elastic:{p}@es.{domain}:9200"),
    ("http", "http://admin:{p}@localhost:5984/_all_dbs"),
    ("graph", "neo4j+s://neo4j:{p}@{r8}.databases.neo4j.io"),
    ("sqla", "snowflake://{u}:{p}@xy12345.eu-central-1/{db}/PUBLIC?warehouse=COMPUTE_WH"),
    ("sqla", "oracle+oracledb://{u}:{p}@{host}:1521/?service_name=ORCLPDB1"),
    ("sqla", "mssql+pyodbc://{u}:{p}@{host}:1433/{db}?driver=ODBC+Driver+18+for+SQL+Server"),
    ("sql", "sqlserver://{u}:{p}@{host}:1433?database={db}"),
    ("pypi", "https://{u}:{p}@nexus.{domain}/repository/pypi-internal/simple"),
    ("git", "https://{u}:{p}@git.{domain}/{org}/{repo}.git"),
    ("rtsp", "rtsp://{u}:{p}@{ip}:554/Streaming/Channels/101"),
]
ANY = "*"
SQL_F = ("pg", "sql", "sqla")
DSN_CTX = [
    (ANY, "{VAR}={dsn}"),
    (ANY, "export {VAR}='{dsn}'"),
    (ANY, "{ts} INFO  startup: connecting to {dsn}\n{ts} INFO  startup: connected"),
    (ANY, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {app}-config\ndata:\n  {VAR}: \"{dsn}\""),
    (ANY, "$ echo ${VAR}\n{dsn}"),
    (ANY, "User: this keeps timing out, here's the URL I'm using: {dsn}\n\nAssistant: The host isn't reachable from inside the container; use the compose service name instead of localhost."),
    (ANY, "{\"name\": \"run_shell\", \"arguments\": {\"cmd\": \"python scripts/check_conn.py --url '{dsn}'\"}}"),
    (ANY, "services:\n  worker:\n    environment:\n      {VAR}: \"{dsn}\""),
    (SQL_F + ("mongo", "redis", "amqp"), "# .env.production\n{VAR}={dsn}\nSESSION_TTL=3600"),
    (SQL_F, "engine = create_engine(\"{dsn}\", pool_pre_ping=True)"),
    (SQL_F, "SQLALCHEMY_DATABASE_URI = \"{dsn}\""),
    (("sqla", "pg"), "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN={dsn}"),
    (("sqla", "pg"), "[database]\nsql_alchemy_conn = {dsn}"),
    (SQL_F, "Traceback (most recent call last):\n  File \"/app/migrate.py\", line 14, in <module>\n    engine = create_engine(\"{dsn}\")\n  File \"/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/create.py\", line 602, in create_engine\n    dbapi = dbapi_meth(**dbapi_args)\nModuleNotFoundError: No module named 'psycopg2'"),
    (("pg",), "db, err := sql.Open(\"pgx\", \"{dsn}\")"),
    (("pg",), "$ psql '{dsn}' -c 'select count(*) from orders'\n count\n-------\n 48213\n(1 row)"),
    (("pg", "sql"), "User: prisma keeps failing with P1001, here's my DATABASE_URL: {dsn}\n\nAssistant: P1001 means the server is unreachable; check the security group before touching the credentials."),
    (("mongo",), "const client = new MongoClient(\"{dsn}\");\nawait client.connect();"),
    (("mongo",), "$ mongosh \"{dsn}\"\nCurrent Mongosh Log ID: {hex24}\nUsing MongoDB: 7.0.12"),
    (("redis",), "r = redis.Redis.from_url(\"{dsn}\", decode_responses=True)"),
    (("redis",), "const redis = new Redis(\"{dsn}\");"),
    (("amqp", "redis"), "broker_url = \"{dsn}\"\nresult_backend = \"rpc://\""),
    (("amqp",), "spring.rabbitmq.addresses={dsn}"),
    (("amqp",), "conn, err := amqp.Dial(\"{dsn}\")"),
    (("msg",), "nc, err := nats.Connect(\"{dsn}\")" ),
    (("msg",), "client.connect(\"{dsn}\", { clientId: 'sensor-gw-01' });"),
    (("file",), "$ curl -T report.csv {dsn}\n  % Total    % Received % Xferd  Average Speed\n100  4821    0     0  100  4821      0  12302 --:--:-- --:--:-- --:--:-- 12330"),
    (("file",), "lftp -e 'mirror -R ./dist /uploads; bye' {dsn}"),
    (("mail",), "EMAIL_URL={dsn}"),
    (("mail",), "MAILER_DSN={dsn}"),
    (("proxy",), "export https_proxy={dsn}\nexport no_proxy=localhost,127.0.0.1,.internal"),
    (("proxy",), "[global]\nproxy = {dsn}"),
    (("http",), "curl -s '{dsn}/_cluster/health?pretty'"),
    (("graph",), "driver = GraphDatabase.driver(\"{dsn}\")"),
    (("pypi",), "[global]\nindex-url = {dsn}\ntrusted-host = nexus.{domain}"),
    (("pypi",), "--extra-index-url {dsn}\nrequests==2.32.3\npydantic==2.8.2"),
    (("git",), "$ git clone {dsn}\nCloning into '{repo}'...\nremote: Enumerating objects: 1284, done."),
    (("git",), "$ cat ~/.git-credentials\n{dsn}"),
    (("rtsp",), "ffmpeg -rtsp_transport tcp -i \"{dsn}\" -c copy -t 60 clip.mp4"),
    (("rtsp",), "cameras:\n  loading_dock:\n    ffmpeg:\n      inputs:\n        - path: {dsn}\n          roles: [detect, record]"),
]
DSN_VARS = {"pg": "DATABASE_URL", "sql": "DATABASE_URL", "sqla": "SQLALCHEMY_URL", "mongo": "MONGODB_URI", "redis": "REDIS_URL",
            "amqp": "BROKER_URL", "msg": "BROKER_URL", "file": "UPLOAD_URL", "mail": "SMTP_URL", "proxy": "HTTPS_PROXY",
            "http": "ELASTICSEARCH_URL", "graph": "NEO4J_URI", "pypi": "PIP_INDEX_URL", "git": "GIT_REMOTE", "rtsp": "CAMERA_URL"}


def row_dsn():
    fam, tpl = pick(DSN_T)
    p = gen_password(urlsafe=True, style=pick(["random", "random", "human", "phrase", "alnum"]))
    u = pick(DBUSERS + USERS)
    kw = pw_kw(p)
    dsn = fill(tpl, u=u, p=p, r5=rs(5, LO + DG), r8=rs(8, LO + DG), uuid=uid(), **{k: v for k, v in kw.items() if k != "pw"})
    ctxs = [c for f, c in DSN_CTX if f == ANY or fam in f]
    ctx = pick(ctxs)
    text = fill(ctx, dsn=dsn, ts=iso(), app=kw["app"], domain=kw["domain"], repo=kw["repo"], VAR=DSN_VARS[fam], hex24=hx(24))
    add(text, [(p, "url_credentials")])


def row_jdbc_param():
    p = gen_password(urlsafe=True)
    kw = pw_kw(p)
    url = pick(["jdbc:postgresql://{host}:5432/{db}?user={dbuser}&password={pw}&ssl=true",
                "jdbc:mysql://{host}:3306/{db}?user={dbuser}&password={pw}&useSSL=false",
                "jdbc:sqlserver://{host}:1433;databaseName={db};user={dbuser};password={pw};encrypt=true"])
    u = fill(url, **kw)
    text = pick(["{ts} INFO  com.zaxxer.hikari.HikariDataSource - HikariPool-1 - Starting...\n{ts} DEBUG com.zaxxer.hikari.HikariConfig - jdbcUrl................................{u}",
                 "spring.datasource.url={u}", "<property name=\"url\" value=\"{u}\"/>"])
    if "<property" in text and ("&" in u):
        text = "spring.datasource.url={u}"
    add(fill(text, ts=iso(), u=u), [(p, "password")])


# ---------------------------------------------------------------- prose / PII rows

def wrap_msg(text):
    k = R.random()
    if k < 0.35:
        return text
    if k < 0.5:
        return "Ticket #%d — comment from requester:\n> %s" % (R.randint(10000, 99999), text.replace("\n", "\n> "))
    if k < 0.65:
        return json.dumps({"channel": pick(["C0" + rs(9, UP + DG), "#support", "#it-help", "#ops"]), "user": "U0" + rs(9, UP + DG),
                           "ts": "%d.%06d" % (int(when().timestamp()), R.randint(0, 999999)), "text": text}, ensure_ascii=False)
    if k < 0.8:
        return "[%s] %s: %s" % (when().strftime("%H:%M"), pick(["maria", "jonas", "akira", "lena", "omar", "sofia", "priya", "dmitri"]), text)
    if k < 0.9:
        return "User: %s\n\nAssistant: I won't repeat that back; I've noted it only where needed. %s" % (
            text, pick(["Shall I continue with the migration?", "Next step is to update the ticket.", "Let me know if anything else is blocked."]))
    return "From: helpdesk-notifications\nSubject: New reply on your request\n\n%s\n\n-- \nSent from the service portal" % text


def row_lang_pw(lang, tpl):
    pw = gen_password(avoid=Q + " ", prose=True)
    name, _ = person(lang)
    text = fill(tpl, pw=pw, user=pick(USERS), domain=pick(DOMAINS_CO), name=name)
    add(wrap_msg(text), [(pw, "password")])


def row_lang_contact(lang, tpl):
    name, em = person(lang)
    ph = phone(pick(lang["cc"]))
    text = fill(tpl, name=name, email=em, phone=ph)
    pairs = []
    if "{email}" in tpl:
        pairs.append((em, "email"))
    if "{phone}" in tpl:
        pairs.append((ph, "phone"))
    add(wrap_msg(text), pairs)


def row_lang_id(lang, kind, tpl):
    v = NATIONAL_IDS[kind]()
    add(wrap_msg(fill(tpl, v=v)), [(v, kind)])


def row_lang_money(lang, tpl):
    name, _ = person(lang)
    if "{card}" in tpl:
        v, k = card_number(), "card_number"
    else:
        v, k = iban(lang["iban_cc"]), "iban"
    add(wrap_msg(fill(tpl, card=v, iban=v, name=name, n=R.randint(100, 9999))), [(v, k)])


ID_LABELS = {"ssn": "SSN", "aadhaar": "Aadhaar", "ar_cuit": "CUIT", "au_tfn": "TFN", "be_nrn": "Rijksregisternummer",
             "br_cpf": "CPF", "ca_sin": "SIN", "ch_ahv": "AHV-Nr", "cl_rut": "RUT", "cn_ric": "身份证号", "de_tax_id": "Steuer-IdNr",
             "dk_cpr": "CPR-nr", "ee_ik": "Isikukood", "es_dni": "DNI", "es_nie": "NIE", "fi_hetu": "Henkilötunnus",
             "fr_nir": "NIR", "hk_hkid": "HKID", "ie_ppsn": "PPSN", "il_tz": "Teudat Zehut", "in_pan": "PAN",
             "it_codice_fiscale": "Codice Fiscale", "jp_my_number": "マイナンバー", "kr_rrn": "주민등록번호", "mx_curp": "CURP",
             "nl_bsn": "BSN", "no_fnr": "Fødselsnummer", "pl_pesel": "PESEL", "pt_nif": "NIF", "ro_cnp": "CNP",
             "se_personnummer": "Personnummer", "sg_nric": "NRIC", "tr_tckn": "TC Kimlik No", "uk_nino": "NINO",
             "za_id": "ID Number", "bg_egn": "ЕГН", "hr_oib": "OIB", "is_kennitala": "Kennitala", "cz_rc": "Rodné číslo"}
ID_LANG = {"ssn": "en-US", "aadhaar": "en-IN", "ar_cuit": "es-AR", "au_tfn": "en-AU", "be_nrn": "fr-BE", "br_cpf": "pt-BR",
           "ca_sin": "en-CA", "ch_ahv": "de-CH", "cl_rut": "es-CL", "cn_ric": "zh", "de_tax_id": "de", "dk_cpr": "da",
           "ee_ik": "et", "es_dni": "es", "es_nie": "es", "fi_hetu": "fi", "fr_nir": "fr", "hk_hkid": "zh-HK", "ie_ppsn": "en-IE",
           "il_tz": "he", "in_pan": "en-IN", "it_codice_fiscale": "it", "jp_my_number": "ja", "kr_rrn": "ko", "mx_curp": "es-MX",
           "nl_bsn": "nl", "no_fnr": "no", "pl_pesel": "pl", "pt_nif": "pt", "ro_cnp": "ro", "se_personnummer": "sv",
           "sg_nric": "en-SG", "tr_tckn": "tr", "uk_nino": "en-GB", "za_id": "en-ZA", "bg_egn": "bg", "hr_oib": "hr",
           "is_kennitala": "is", "cz_rc": "cs"}


def row_id_structured(kind):
    lang = lang_by(ID_LANG[kind])
    v = NATIONAL_IDS[kind]()
    name, em = person(lang)
    ph = phone(pick(lang["cc"]))
    lab = ID_LABELS[kind]
    k = R.random()
    if k < 0.25:
        rec = {"customer_id": "cus_" + rs(14), "full_name": name, "national_id": {"type": lab, "value": v},
               "email": em, "kyc_status": "pending_review"}
        add(json.dumps(rec, ensure_ascii=False, indent=2), [(v, kind), (em, "email")])
    elif k < 0.45:
        add("INSERT INTO employees (full_name, national_id, phone, start_date) VALUES ('%s', '%s', '%s', '%s');" % (
            name.replace("'", "''"), v, ph, when().strftime("%Y-%m-%d")), [(v, kind), (ph, "phone")])
    elif k < 0.65:
        add("name,%s,email,status\n\"%s\",%s,%s,active" % (lab.lower().replace(" ", "_"), name, v, em), [(v, kind), (em, "email")])
    elif k < 0.8:
        add("%s WARN  kyc.verify: document mismatch id_type=%s id_value=%s session=%s" % (iso(), lab.replace(" ", "_"), v, uid()),
            [(v, kind)])
    else:
        add("Onboarding form\n---------------\nName: %s\n%s: %s\nPhone: %s\nStart date: %s" % (
            name, lab, v, ph, when().strftime("%d.%m.%Y")), [(v, kind), (ph, "phone")])


def row_contact_structured():
    lang = pick(LANGS)
    name, em = person(lang)
    ph = phone(pick(lang["cc"]))
    k = R.randrange(16)
    if k == 0:
        add(json.dumps({"ticket_id": R.randint(100000, 999999), "requester": {"name": name, "email": em, "phone": ph},
                        "subject": pick(["Cannot log in", "Invoice question", "Refund request", "Account locked"]),
                        "priority": "normal"}, ensure_ascii=False, indent=2), [(em, "email"), (ph, "phone")])
    elif k == 1:
        name2, em2 = person(lang)
        add("id,name,email,signup_date\n%d,%s,%s,%s\n%d,%s,%s,%s" % (R.randint(1000, 9999), name, em, when().date(),
                                                                   R.randint(1000, 9999), name2, em2, when().date()),
            [(em, "email"), (em2, "email")])
    elif k == 2:
        add("Thanks,\n%s\n%s | %s\nM: %s\nE: %s" % (name, pick(["Senior Engineer", "Head of Data", "Product Manager", "SRE"]),
                                                  pick(["Acme Corp", "Helio GmbH", "Fjordsoft AS", "Kappa Data S.r.l."]), ph, em),
            [(ph, "phone"), (em, "email")])
    elif k == 3:
        add("commit %s\nAuthor: %s <%s>\nDate:   %s\n\n    fix(api): handle empty cursor in pagination" % (
            hx(40), name, em, when().strftime("%a %b %d %H:%M:%S %Y +0200")), [(em, "email")])
    elif k == 4:
        add(json.dumps({"name": "@%s/%s" % (pick(ORGS), pick(REPOS)), "version": "2.%d.0" % R.randint(0, 20),
                        "author": "%s <%s>" % (name, em), "license": "MIT"}, ensure_ascii=False, indent=2), [(em, "email")])
    elif k == 5:
        add("INSERT INTO users (name, email, phone, created_at) VALUES ('%s', '%s', '%s', NOW());" % (
            name.replace("'", "''"), em, ph), [(em, "email"), (ph, "phone")])
    elif k == 6:
        add("%s WARN auth: login failed user=%s ip=%s reason=bad_password attempts=%d" % (iso(), em, ipv4(), R.randint(2, 9)),
            [(em, "email")])
    elif k == 7:
        add("BEGIN:VCARD\nVERSION:3.0\nFN:%s\nTEL;TYPE=CELL:%s\nEMAIL;TYPE=INTERNET:%s\nEND:VCARD" % (name, ph, em),
            [(ph, "phone"), (em, "email")])
    elif k == 8:
        add('<p>Questions? Write to <a href="mailto:%s">%s</a> or call %s.</p>' % (em, name, ph), [(em, "email"), (ph, "phone")])
    elif k == 9:
        add(json.dumps({"id": "cus_" + rs(14), "object": "customer", "email": em, "name": name, "phone": ph,
                        "currency": pick(["eur", "usd", "gbp"]), "delinquent": False}, ensure_ascii=False, indent=2),
            [(em, "email"), (ph, "phone")])
    elif k == 10:
        add("BEGIN:VEVENT\nDTSTART:%s\nSUMMARY:Quarterly review\nORGANIZER;CN=%s:mailto:%s\nEND:VEVENT" % (
            when().strftime("%Y%m%dT%H%M00Z"), name, em), [(em, "email")])
    elif k == 11:
        e164 = "+" + "".join(c for c in ph if c.isdigit()) if ph.startswith("+") else ph
        add("%s INFO sms.dispatch: sent OTP to %s via twilio sid=SM%s status=queued" % (iso(), e164, hx(32)), [(e164, "phone")])
    elif k == 12:
        add("# MAINTAINERS\n%s <%s>\n  scope: payments, ledger" % (name, em), [(em, "email")])
    elif k == 13:
        add(json.dumps({"event": "user.updated", "data": {"user_id": uid(), "changes": {"phone": [None, ph], "email": [None, em]}}},
                       ensure_ascii=False), [(ph, "phone"), (em, "email")])
    elif k == 14:
        add("Hi team, new contractor starting Monday: %s, %s. Please set up Slack and Jira." % (name, em), [(em, "email")])
    else:
        add("on-call escalation: primary %s (%s), secondary see PagerDuty" % (name, ph), [(ph, "phone")])


def row_card():
    v = card_number()
    k = R.randrange(7)
    if k == 0:
        add("%s ERROR payments.charge: declined card=%s exp=%02d/%d amount=%d.%02d EUR code=do_not_honor" % (
            iso(), v, R.randint(1, 12), R.randint(25, 31), R.randint(5, 900), R.randint(0, 99)), [(v, "card_number")])
    elif k == 1:
        add(json.dumps({"payment_method": {"type": "card", "card": {"number": v, "exp_month": R.randint(1, 12),
                        "exp_year": R.randint(2025, 2031), "cvc": dg(3)}}}, indent=2), [(v, "card_number")])
    elif k == 2:
        add("Customer: hi, I tried to pay with %s but it failed twice. Expiry is %02d/%d." % (
            v, R.randint(1, 12), R.randint(25, 31)), [(v, "card_number")])
    elif k == 3:
        add("order_id,card_number,amount\n%d,%s,%d.%02d" % (R.randint(10 ** 6, 10 ** 7), v, R.randint(5, 500), R.randint(0, 99)),
            [(v, "card_number")])
    elif k == 4:
        add("POST /checkout HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\ncc_number=%s&cc_exp=%02d%%2F%d&amount=49.90" % (
            v.replace(" ", "").replace("-", ""), R.randint(1, 12), R.randint(25, 31)), [(v.replace(" ", "").replace("-", ""), "card_number")])
    elif k == 5:
        add("Corporate card for the AWS account: %s (expires %02d/%d, billing contact finance)" % (v, R.randint(1, 12), R.randint(26, 31)),
            [(v, "card_number")])
    else:
        add("Traceback (most recent call last):\n  File \"/app/billing/tasks.py\", line 77, in capture\n    gateway.capture(card_number=\"%s\", amount=amount)\nbilling.errors.GatewayTimeout: upstream timed out after 30s" % v,
            [(v, "card_number")])


def row_iban():
    v = iban(spaced=chance(0.4))
    k = R.randrange(5)
    if k == 0:
        add("<CdtrAcct>\n  <Id>\n    <IBAN>%s</IBAN>\n  </Id>\n</CdtrAcct>" % v.replace(" ", ""), [(v.replace(" ", ""), "iban")])
    elif k == 1:
        add(json.dumps({"payout": {"currency": "EUR", "amount": R.randint(100, 90000), "beneficiary": {"iban": v, "bic": pick(
            ["DEUTDEFF", "BNPAFRPP", "INGBNL2A", "COBADEFFXXX", "BSCHESMM"])}}}, indent=2), [(v, "iban")])
    elif k == 2:
        add("Vendor bank details changed: new IBAN %s — please confirm by phone before paying." % v, [(v, "iban")])
    elif k == 3:
        add("UPDATE suppliers SET iban = '%s' WHERE id = %d;" % (v.replace(" ", ""), R.randint(1, 900)), [(v.replace(" ", ""), "iban")])
    else:
        add("%s INFO sepa.export: queued transfer to %s ref=INV-%d" % (iso(), v.replace(" ", ""), R.randint(1000, 9999)),
            [(v.replace(" ", ""), "iban")])


# --------------------------------------------------------------------- multi-value rows

def row_aws_pair():
    ak, sk = t_aws_key(), t_aws_secret()
    region = pick(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2"])
    k = R.randrange(8)
    if k == 0:
        t = "[default]\naws_access_key_id = %s\naws_secret_access_key = %s\nregion = %s" % (ak, sk, region)
        if chance(0.5):
            t = "$ cat ~/.aws/credentials\n" + t
    elif k == 1:
        t = "$ aws configure\nAWS Access Key ID [None]: %s\nAWS Secret Access Key [None]: %s\nDefault region name [None]: %s\nDefault output format [None]: json" % (ak, sk, region)
    elif k == 2:
        t = 's3 = boto3.client(\n    "s3",\n    aws_access_key_id="%s",\n    aws_secret_access_key="%s",\n    region_name="%s",\n)' % (ak, sk, region)
    elif k == 3:
        t = 'provider "aws" {\n  region     = "%s"\n  access_key = "%s"\n  secret_key = "%s"\n}' % (region, ak, sk)
    elif k == 4:
        t = "export AWS_ACCESS_KEY_ID=%s\nexport AWS_SECRET_ACCESS_KEY=%s\nexport AWS_DEFAULT_REGION=%s\naws s3 ls s3://%s-backups/" % (ak, sk, region, pick(ORGS))
    elif k == 5:
        t = "      - name: Configure AWS credentials\n        uses: aws-actions/configure-aws-credentials@v4\n        with:\n          aws-access-key-id: %s\n          aws-secret-access-key: %s\n          aws-region: %s" % (ak, sk, region)
    elif k == 6:
        t = 'const client = new S3Client({\n  region: "%s",\n  credentials: { accessKeyId: "%s", secretAccessKey: "%s" },\n});' % (region, ak, sk)
    else:
        t = "User: the upload script says SignatureDoesNotMatch, creds are %s / %s\n\nAssistant: The secret has a trailing character copied from the console; paste it again without the newline." % (ak, sk)
    add(t, [(ak, "aws_key"), (sk, "aws_secret")])


ENV_MIX = ["openai_key", "anthropic_key", "stripe_key", "github_token", "sendgrid_key", "slack_token", "datadog_key",
           "google_api_key", "huggingface_token", "twilio_api_key", "mailgun_key", "sentry_token", "npm_token", "groq_key",
           "linear_key", "notion_token", "supabase_token", "vault_token", "cloudflare_token", "resend_key", "mistral_key",
           "pinecone_key", "langsmith_key", "replicate_token", "shopify_token", "hubspot_token", "xai_key", "openrouter_key"]


def row_env_dump():
    kinds = R.sample(ENV_MIX, pick([2, 2, 3]))
    pairs, lines = [], []
    for k in kinds:
        sp = P[k]
        v = sp["gen"]()
        lines.append("%s=%s" % (sp["vars"][0], v))
        pairs.append((v, k))
    if chance(0.4):
        pw = gen_password(avoid=Q + " #$")
        lines.append("DB_PASSWORD=%s" % pw)
        pairs.append((pw, "password"))
        if len(pairs) > 3:
            lines.pop(0)
            pairs.pop(0)
    lines += R.sample(ENV_FILLER, 3)
    R.shuffle(lines)
    style = R.randrange(5)
    if style == 0:
        t = "$ printenv | sort\n" + "\n".join(sorted(lines))
    elif style == 1:
        t = json.dumps({"Config": {"Env": [l for l in lines] + ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"]}}, indent=2)
        t = "$ docker inspect %s --format '{{json .Config}}' | jq\n%s" % (pick(APPS), t)
    elif style == 2:
        t = "User: here's my .env, why does the worker crash on boot?\n```\n%s\n```\n\nAssistant: The worker expects REDIS_URL, which is missing from this file." % "\n".join(lines)
    elif style == 3:
        body = "\n".join("  %s: %s" % tuple(l.split("=", 1)) for l in lines)
        t = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s-env\ntype: Opaque\nstringData:\n%s" % (pick(APPS), body)
    else:
        t = "\n".join("%s [build] %s" % (iso(), l if i % 2 else "setting " + l) for i, l in enumerate(lines))
    add(t, pairs)


def row_transcript_long():
    sp_kind = pick(["openai_key", "anthropic_key", "github_token", "stripe_key", "gitlab_token", "slack_token", "npm_token",
                    "huggingface_token", "sendgrid_key", "google_api_key"])
    sp = P[sp_kind]
    v = sp["gen"]()
    lang = pick(LANGS[:12])
    name, em = person(lang)
    t0 = when() + _dt.timedelta(microseconds=R.randint(0, 999999))
    turns = [
        "user: the nightly job fails since yesterday, can you look? the bot account is %s" % em,
        "assistant: Let me check the CI log first.",
        json.dumps({"tool": "bash", "command": "gh run view --log-failed | tail -n 20"}),
        "tool_result:\n%s Run ./scripts/release.sh\n%s   %s=%s\n%s error: 401 Unauthorized" % (
            t0.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), (t0 + _dt.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            sp["vars"][0], v, (t0 + _dt.timedelta(seconds=2)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")),
        "assistant: The token printed in the log is rejected with 401; it was likely revoked. It is also exposed in the log, so rotate it and mask the step output.",
    ]
    add("\n".join(turns), [(em, "email"), (v, sp_kind)])


def row_pair_provider():
    k = R.randrange(12)
    if k == 0:
        a, b = t_alibaba(), t_alibaba_secret()
        add("aliyun configure set --profile prod --mode AK --region cn-hangzhou --access-key-id %s --access-key-secret %s" % (a, b),
            [(a, "alibaba_key"), (b, "alibaba_key")])
    elif k == 1:
        a, b = t_tencent_id(), t_tencent_secret()
        add("[default]\nsecretId = %s\nsecretKey = %s\nregion = ap-guangzhou" % (a, b), [(a, "tencent_key"), (b, "tencent_key")])
    elif k == 2:
        a, b = t_modal_id(), t_modal_secret()
        add("modal token set --token-id %s --token-secret %s --profile=%s" % (a, b, pick(ORGS)), [(a, "modal_token"), (b, "modal_token")])
    elif k == 3:
        a, b = t_razorpay_id(), rs(24)
        add("razorpay_client = razorpay.Client(auth=(\"%s\", \"%s\"))" % (a, b), [(a, "razorpay_key"), (b, "razorpay_key")])
    elif k == 4:
        a, b = t_woo_key(), t_woo_secret()
        add("curl \"https://shop.%s/wp-json/wc/v3/orders?consumer_key=%s&consumer_secret=%s\"" % (pick(DOMAINS_CO), a, b),
            [(a, "woocommerce_key"), (b, "woocommerce_key")])
    elif k == 5:
        lang = pick(LANGS[:10])
        name, em = person(lang)
        v = t_heroku()
        add("machine api.heroku.com\n  login %s\n  password %s\nmachine git.heroku.com\n  login %s\n  password %s" % (em, v, em, v),
            [(em, "email"), (v, "heroku_key")])
    elif k == 6:
        name, em = person(pick(LANGS[:10]))
        v = t_atlassian()
        add("curl -s -u %s:%s -H 'Accept: application/json' 'https://%s.atlassian.net/rest/api/3/search?jql=assignee=currentUser()'" % (
            em, v, pick(ORGS)), [(em, "email"), (v, "atlassian_token")])
    elif k == 7:
        name, em = person(pick(LANGS[:10]))
        v = t_cloudflare_key()
        add("curl -X GET 'https://api.cloudflare.com/client/v4/zones' \\\n  -H 'X-Auth-Email: %s' \\\n  -H 'X-Auth-Key: %s'" % (em, v),
            [(em, "email"), (v, "cloudflare_key")])
    elif k == 8:
        cs, rt = t_google_oauth_secret(), "1//0" + pick("abcdefg") + rs(98, B64U)
        add(json.dumps({"client_id": "%s-%s.apps.googleusercontent.com" % (nzdg(12), rs(32, LO + DG)), "client_secret": cs,
                        "refresh_token": rt, "type": "authorized_user"}, indent=2),
            [(cs, "google_oauth_secret"), (rt, "google_oauth_token")])
    elif k == 9:
        pem = t_private_key("pkcs8").replace("\n", "\\n")
        sa = "%s@%s-prod.iam.gserviceaccount.com" % (pick(["deployer", "ci-runner", "bq-loader", "terraform"]), pick(ORGS))
        doc = '{\n  "type": "service_account",\n  "project_id": "%s-prod",\n  "private_key_id": "%s",\n  "private_key": "%s\\n",\n  "client_email": "%s",\n  "client_id": "%s",\n  "token_uri": "https://oauth2.googleapis.com/token"\n}' % (
            pick(ORGS), hx(40), pem, sa, nzdg(21))
        add(doc, [(pem, "private_key"), (sa, "email")])
    elif k == 10:
        name, em = person(pick(LANGS[:10]))
        user = slug(name.split()[0])
        pw = gen_password(avoid=Q + " ")
        b = base64.b64encode(("%s:%s" % (user, pw)).encode()).decode()
        add("registry=https://nexus.%s/repository/npm-group/\nemail=%s\nalways-auth=true\n_auth=%s" % (pick(DOMAINS_CO), em, b),
            [(em, "email"), (b, "basic_auth")])
    else:
        name, em = person(pick(LANGS[:10]))
        v = t_github()
        add("[user]\n\tname = %s\n\temail = %s\n[credential]\n\thelper = store\n[url \"https://%s@github.com/\"]\n\tinsteadOf = https://github.com/" % (
            name, em, v), [(em, "email"), (v, "github_token")])


def row_basic_auth():
    user = pick(USERS + ["admin", "api", "grafana", "prometheus"])
    pw = gen_password(avoid=Q + " :")
    b = base64.b64encode(("%s:%s" % (user, pw)).encode()).decode()
    k = R.randrange(8)
    if k == 0:
        t = "curl -H 'Authorization: Basic %s' https://jenkins.%s/api/json" % (b, pick(DOMAINS_CO))
    elif k == 1:
        t = "location /metrics {\n    proxy_pass http://127.0.0.1:9100;\n    proxy_set_header Authorization \"Basic %s\";\n}" % b
    elif k == 2:
        t = json.dumps({"auths": {"registry.%s" % pick(DOMAINS_CO): {"auth": b}}}, indent=2)
        t = "$ cat ~/.docker/config.json\n" + t
    elif k == 3:
        t = 'headers = {"Authorization": "Basic %s", "Accept": "application/json"}' % b
    elif k == 4:
        t = "GET /api/v2/reports HTTP/1.1\nHost: reports.internal\nAuthorization: Basic %s\nUser-Agent: Go-http-client/1.1" % b
    elif k == 5:
        t = "livenessProbe:\n  httpGet:\n    path: /healthz\n    port: 8080\n    httpHeaders:\n      - name: Authorization\n        value: Basic %s" % b
    elif k == 6:
        t = json.dumps({"request": {"method": "GET", "url": "https://api.%s/v1/export" % pick(DOMAINS_CO),
                                    "headers": [{"name": "authorization", "value": "Basic " + b}]}}, indent=2)
    else:
        t = "%s DEBUG httpx: > Authorization: Basic %s" % (stamp(), b)
    add(t, [(b, "basic_auth")])


def row_private_key():
    pem = t_private_key()
    k = R.randrange(7)
    if k == 0:
        t = "$ cat ~/.ssh/%s\n%s" % (pick(["id_rsa", "id_ed25519", "deploy_key", "id_ecdsa"]), pem)
    elif k == 1:
        t = 'resource "tls_locally_signed_cert" "app" {\n  ca_private_key_pem = <<EOT\n%s\nEOT\n  ca_cert_pem = file("ca.crt")\n}' % pem
    elif k == 2:
        esc = pem.replace("\n", "\\n")
        t = 'GITHUB_APP_PRIVATE_KEY="%s"' % esc
        add(t, [(esc, "private_key")])
        return
    elif k == 3:
        t = "User: the deploy key for the runner is below, add it to the repo secrets\n\n%s\n\nAssistant: Added as DEPLOY_KEY. Please delete this message; private keys shouldn't sit in chat history." % pem
    elif k == 4:
        t = 'PRIVATE_KEY = """%s"""\n\njwt_token = jwt.encode(payload, PRIVATE_KEY, algorithm="RS256")' % pem
    elif k == 5:
        t = "==> certs/server.key <==\n%s" % pem
    else:
        t = json.dumps({"key_name": "deploy", "private_key": pem}, indent=2)
        esc = pem.replace("\n", "\\n")
        add(t, [(esc, "private_key")])
        return
    add(t, [(pem, "private_key")])


def row_mailchimp_dc():
    v = t_mailchimp()
    dc = v.split("-")[-1]
    add("mailchimp.setConfig({\n  apiKey: \"%s\",\n  server: \"%s\",\n});" % (v, dc), [(v, "mailchimp_key")])


# --------------------------------------------------------------------------- clean rows

CLEAN = []


_CLEAN_SEEN = set()


def clean(text):
    if text in _CLEAN_SEEN:
        return
    _CLEAN_SEEN.add(text)
    CLEAN.append({"text": text, "canaries": [], "kinds": []})


COMMIT_MSGS = ["fix(api): handle empty cursor in pagination", "chore(deps): bump axios from 1.6.8 to 1.7.2",
               "feat: add retry with jitter to webhook sender", "refactor: split billing service into modules",
               "docs: document the password reset flow", "test: cover token refresh edge cases",
               "ci: cache pip wheels between jobs", "fix: rotate leaked CI token (old one revoked, see INC-482)",
               "build: pin node to 20.12.2", "perf: avoid N+1 query on orders list", "revert: \"feat: new checkout\"",
               "fix(auth): return 401 instead of 500 when the API key header is missing"]

FORGOT = ["I forgot my password — where is the reset link?",
          "Ich habe mein Passwort vergessen, wo finde ich den Link zum Zurücksetzen?",
          "J'ai oublié mon mot de passe, où se trouve le lien de réinitialisation ?",
          "He olvidado mi contraseña, ¿dónde está el enlace para restablecerla?",
          "Ho dimenticato la password, dov'è il link per reimpostarla?",
          "Esqueci a minha palavra-passe, onde está a ligação para a repor?",
          "Esqueci minha senha, cadê o link pra redefinir?",
          "Ik ben mijn wachtwoord vergeten, waar vind ik de resetlink?",
          "Zapomniałem hasła, gdzie jest link do resetu?",
          "Jag har glömt mitt lösenord, var hittar jag återställningslänken?",
          "Jeg har glemt passordet mitt, hvor finner jeg lenken for å tilbakestille det?",
          "Jeg har glemt min adgangskode, hvor er linket til nulstilling?",
          "Unohdin salasanani, mistä löydän palautuslinkin?",
          "Zapomněl jsem heslo, kde najdu odkaz na obnovení?",
          "Zabudol som heslo, kde nájdem odkaz na obnovenie?",
          "Şifremi unuttum, sıfırlama bağlantısı nerede?",
          "Mi-am uitat parola, unde găsesc linkul de resetare?",
          "Unustasin oma parooli, kust leian lähtestamise lingi?",
          "Забравих си паролата, къде е линкът за възстановяване?",
          "Zaboravio sam lozinku, gdje je poveznica za ponovno postavljanje?",
          "Ég gleymdi lykilorðinu mínu, hvar er hlekkurinn til að endurstilla það?",
          "Elfelejtettem a jelszavam, hol találom a visszaállító linket?",
          "Ξέχασα τον κωδικό μου, πού είναι ο σύνδεσμος επαναφοράς;",
          "Я забыл пароль, где ссылка для сброса?",
          "Я забув пароль, де посилання для скидання?",
          "שכחתי את הסיסמה, איפה הקישור לאיפוס?",
          "نسيت كلمة المرور، أين رابط إعادة التعيين؟",
          "رمز عبورم را فراموش کرده‌ام، لینک بازنشانی کجاست؟",
          "मैं अपना पासवर्ड भूल गया हूँ, रीसेट लिंक कहाँ है?",
          "パスワードを忘れました。リセット用のリンクはどこですか？",
          "我忘记密码了，重置链接在哪里？",
          "비밀번호를 잊어버렸어요. 재설정 링크는 어디에 있나요?",
          "Tôi quên mật khẩu, đường dẫn đặt lại ở đâu?",
          "Saya lupa kata sandi, di mana tautan untuk mengatur ulang?",
          "ฉันลืมรหัสผ่าน ลิงก์รีเซ็ตอยู่ที่ไหน",
          "Nakalimutan ko ang password ko, nasaan ang link para i-reset?",
          "Saya terlupa kata laluan, di mana pautan untuk menetapkan semula?",
          "Nimesahau nenosiri langu, kiungo cha kuweka upya kiko wapi?",
          "He oblidat la contrasenya, on és l'enllaç per restablir-la?",
          "Pamiršau slaptažodį, kur rasti atkūrimo nuorodą?"]
NEVER_SHARE = ["Never share your password or PIN with anyone, not even with our support team.",
               "Geben Sie Ihr Passwort oder Ihre PIN niemals weiter – auch nicht an unseren Support.",
               "Ne communiquez jamais votre mot de passe ou votre code PIN, même à notre support.",
               "Nunca compartas tu contraseña ni tu PIN, ni siquiera con nuestro equipo de soporte.",
               "Non condividere mai la tua password o il PIN, nemmeno con il nostro supporto.",
               "Nunca compartilhe sua senha ou PIN com ninguém, nem com nosso suporte.",
               "Deel je wachtwoord of pincode nooit met iemand, ook niet met onze helpdesk.",
               "Nigdy nie udostępniaj hasła ani kodu PIN nikomu, nawet naszemu wsparciu.",
               "Dela aldrig ditt lösenord eller din PIN-kod med någon, inte ens med vår support.",
               "Şifrenizi veya PIN kodunuzu destek ekibimiz dahil kimseyle paylaşmayın.",
               "Никогда никому не сообщайте пароль или ПИН-код, даже сотрудникам поддержки.",
               "パスワードや暗証番号は、サポート担当者を含め誰にも教えないでください。",
               "请勿向任何人（包括客服人员）透露您的密码或PIN码。",
               "비밀번호나 PIN은 고객센터 직원을 포함해 누구에게도 알려주지 마세요.",
               "لا تشارك كلمة المرور أو الرمز السري مع أي شخص، حتى فريق الدعم.",
               "לעולם אל תמסרו את הסיסמה או הקוד הסודי לאף אחד, גם לא לתמיכה.",
               "अपना पासवर्ड या पिन किसी के साथ साझा न करें, सपोर्ट टीम के साथ भी नहीं।",
               "Älä koskaan kerro salasanaasi tai PIN-koodiasi kenellekään, et edes tuellemme.",
               "Nikdy nikomu nesdělujte své heslo ani PIN, ani naší podpoře.",
               "Μην αποκαλύπτετε ποτέ τον κωδικό ή το PIN σας σε κανέναν, ούτε στην υποστήριξη.",
               "Không bao giờ chia sẻ mật khẩu hoặc mã PIN với bất kỳ ai, kể cả bộ phận hỗ trợ.",
               "Jangan pernah membagikan kata sandi atau PIN Anda kepada siapa pun, termasuk tim dukungan.",
               "Ніколи не повідомляйте пароль чи PIN-код нікому, навіть службі підтримки.",
               "Nu vă comunicați niciodată parola sau PIN-ul, nici măcar echipei de suport.",
               "Soha ne adja ki jelszavát vagy PIN-kódját senkinek, még az ügyfélszolgálatnak sem."]
EN_CLEAN_PROSE = [
    "Password must be at least 12 characters and include a number and a symbol.",
    "The API key is read from the environment at startup; if it is missing the service refuses to boot.",
    "Tokens expire after 15 minutes; the client refreshes them automatically using the refresh token cookie.",
    "Reminder: rotate the staging database password every 90 days (next rotation is due on the 14th).",
    "Enter the 6-digit code we sent to your phone to continue.",
    "We never ask for your PIN by email or phone.",
    "The secret key is stored in Vault under secret/data/payments; ask #platform for read access.",
    "If you see 'invalid_grant', the refresh token has been revoked — sign in again.",
    "Don't paste tokens into Slack. Use the 1Password share link instead.",
    "The password field is now masked in the audit log, see PR #2291.",
    "To generate a new deploy key, run ssh-keygen and add the public half to the repository settings.",
    "Your session has expired. Please log in again.",
    "fatal: Authentication failed for 'https://github.com/acme/infra.git/'",
    "psql: error: connection to server at \"db.internal\" (10.0.4.12), port 5432 failed: FATAL:  password authentication failed for user \"app\"",
    "Error: 401 Unauthorized — the API key header (X-Api-Key) is missing or empty.",
    "openai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-proj-****...****. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}",
    "Stripe secret keys start with sk_live_ (production) or sk_test_ (test mode); publishable keys start with pk_.",
    "GitHub personal access tokens have the prefix ghp_ and fine-grained ones github_pat_; both should be stored as repository secrets.",
    "The kubeadm bootstrap token has the form [a-z0-9]{6}.[a-z0-9]{16} and expires after 24h by default.",
    "IBANs are validated with the mod-97 check before the payout is queued.",
    "Card numbers are tokenized by the payment provider; we only store the last four digits and the brand.",
    "The customer's phone number is optional; leave it blank if they didn't provide one.",
    "Please enter your email address and we'll send you a link to reset your password.",
    "Passwords are hashed with argon2id (m=65536, t=3, p=4) before they are stored.",
]


def clean_rows():
    for s in FORGOT:
        clean(s)
    for s in NEVER_SHARE:
        clean(s)
    for s in EN_CLEAN_PROSE:
        clean(s)
    gens = [cl_gitlog, cl_requestids, cl_sha256sum, cl_lock, cl_docker, cl_gosum, cl_pip_hash, cl_cargo, cl_changelog,
            cl_env_read, cl_placeholder, cl_masked_ci, cl_secretref, cl_pubkey, cl_nginx, cl_sshconfig, cl_api_resp,
            cl_css, cl_stack, cl_pytest, cl_pods, cl_tfplan, cl_datauri, cl_gen_password, cl_webpack, cl_pkgjson,
            cl_uuid_sql, cl_fingerprint, cl_cron, cl_versions, cl_cert, cl_guid, cl_mac, cl_metrics, cl_compose_vars,
            cl_gha_secrets, cl_helm_values, cl_isbn, cl_k8s_configmap, cl_http_noauth]
    for _ in range(4):
        for g in gens:
            clean(g())


def cl_gitlog():
    return "$ git log --oneline -n %d\n" % 6 + "\n".join("%s %s" % (hx(7), pick(COMMIT_MSGS)) for _ in range(6))


def cl_requestids():
    return "\n".join('%s INFO http: %s %s status=%d dur_ms=%d request_id=%s trace_id=%s span_id=%s' % (
        iso(), pick(["GET", "POST", "PUT"]), pick(["/v1/orders", "/healthz", "/v1/users/me", "/v2/invoices"]),
        pick([200, 200, 201, 204, 404]), R.randint(2, 900), uid(), hx(32), hx(16)) for _ in range(3))


def cl_sha256sum():
    return "$ sha256sum dist/*\n" + "\n".join("%s  dist/%s-%s-%s.tar.gz" % (hx(64), pick(APPS), "1.%d.%d" % (R.randint(0, 9), R.randint(0, 20)),
                                                                              pick(["linux-amd64", "darwin-arm64", "windows-amd64"])) for _ in range(3))


def cl_lock():
    pkg = pick(["lodash", "react-dom", "zod", "express", "undici", "esbuild", "typescript"])
    return '    "node_modules/%s": {\n      "version": "%d.%d.%d",\n      "resolved": "https://registry.npmjs.org/%s/-/%s-%d.%d.%d.tgz",\n      "integrity": "sha512-%s==",\n      "license": "MIT"\n    }' % (
        pkg, R.randint(1, 19), R.randint(0, 30), R.randint(0, 9), pkg, pkg, 4, 17, 21, base64.b64encode(rbytes(64)).decode()[:86])


def cl_docker():
    img = pick(["python:3.12-slim", "node:20-alpine", "golang:1.22", "postgres:16", "nginx:1.27"])
    return "$ docker pull %s\n%s: Pulling from library/%s\nDigest: sha256:%s\nStatus: Downloaded newer image for %s\ndocker.io/library/%s" % (
        img, img.split(":")[1], img.split(":")[0], hx(64), img, img)


def cl_gosum():
    mods = ["github.com/stretchr/testify v1.9.0", "golang.org/x/sync v0.7.0", "github.com/jackc/pgx/v5 v5.6.0", "go.uber.org/zap v1.27.0"]
    return "\n".join("%s h1:%s=\n%s/go.mod h1:%s=" % (m, base64.b64encode(rbytes(32)).decode()[:43], m, base64.b64encode(rbytes(32)).decode()[:43])
                     for m in R.sample(mods, 2))


def cl_pip_hash():
    return "requests==2.32.3 \\\n    --hash=sha256:%s \\\n    --hash=sha256:%s\nurllib3==2.2.2 \\\n    --hash=sha256:%s" % (hx(64), hx(64), hx(64))


def cl_cargo():
    return '[[package]]\nname = "%s"\nversion = "%d.%d.%d"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "%s"' % (
        pick(["serde", "tokio", "anyhow", "reqwest", "clap"]), R.randint(0, 2), R.randint(0, 40), R.randint(0, 9), hx(64))


def cl_changelog():
    return "## [%d.%d.%d] - %s\n### Fixed\n- Token refresh no longer races with logout (#%d)\n- Password reset emails are sent once (#%d)\n### Changed\n- Minimum TLS version is now 1.2" % (
        R.randint(1, 5), R.randint(0, 20), R.randint(0, 9), when().strftime("%Y-%m-%d"), R.randint(100, 3000), R.randint(100, 3000))


ENV_READ = [
    'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)',
    "const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!, { apiVersion: '2024-06-20' });",
    'token := os.Getenv("GITHUB_TOKEN")\nif token == "" {\n\tlog.Fatal("GITHUB_TOKEN is not set")\n}',
    'String password = System.getenv("DB_PASSWORD");\nObjects.requireNonNull(password, "DB_PASSWORD missing");',
    "Stripe.api_key = ENV.fetch(\"STRIPE_SECRET_KEY\")",
    "let key = std::env::var(\"ANTHROPIC_API_KEY\").expect(\"ANTHROPIC_API_KEY must be set\");",
    "$password = getenv('DB_PASSWORD') ?: throw new RuntimeException('DB_PASSWORD missing');",
    'var conn = builder.Configuration.GetConnectionString("Default")\n    ?? throw new InvalidOperationException("Connection string not found.");',
    "val apiKey = BuildConfig.MAPS_API_KEY",
    'guard let token = ProcessInfo.processInfo.environment["API_TOKEN"] else { fatalError("API_TOKEN missing") }',
    '$token = $env:AZURE_DEVOPS_EXT_PAT\nif (-not $token) { throw "AZURE_DEVOPS_EXT_PAT is not set" }',
    'password = keyring.get_password("smtp", username)',
    "const secret = await secretsManager.getSecretValue({ SecretId: 'prod/db/password' });",
    'db_password = subprocess.check_output(["op", "read", "op://Infra/postgres-prod/password"], text=True).strip()',
    'if [ -z "${SLACK_WEBHOOK_URL:-}" ]; then echo "SLACK_WEBHOOK_URL not set" >&2; exit 1; fi',
]


def cl_env_read():
    return pick(ENV_READ)


PLACEHOLDERS = [
    "OPENAI_API_KEY=<your-openai-api-key>\nANTHROPIC_API_KEY=<your-anthropic-api-key>\nDATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DB",
    "# .env.example\nSTRIPE_SECRET_KEY=\nSTRIPE_WEBHOOK_SECRET=\nSENTRY_DSN=",
    "password: ${DB_PASSWORD}\nusername: ${DB_USER}\nurl: jdbc:postgresql://${DB_HOST}:5432/${DB_NAME}",
    "env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "data:\n  password: {{ .Values.postgresql.auth.password | b64enc | quote }}",
    "api_key = \"YOUR_API_KEY_HERE\"  # replace before running",
    "curl https://api.example.com/v1/items -H \"Authorization: Bearer $API_TOKEN\"",
    "docker login -u \"$REGISTRY_USER\" --password-stdin < /run/secrets/registry_password",
    "aws_access_key_id = <redacted>\naws_secret_access_key = <redacted>",
    "DB_PASSWORD=********",
    "token: [REDACTED]",
    "export VAULT_TOKEN=$(vault write -field=token auth/approle/login role_id=$ROLE_ID secret_id=$SECRET_ID)",
    "Authorization: Bearer <token>",
    "mysql -u root -p\nEnter password:",
    "connection_string = f\"postgresql://{user}:{password}@{host}:{port}/{db}\"",
    "# TODO: move the SMTP password to the secret store (currently read from $SMTP_PASSWORD)",
    "PGPASSWORD=\"$(cat /run/secrets/pg_password)\" pg_dump -h db -U app app > dump.sql",
    "apiKey: process.env.NEXT_PUBLIC_FIREBASE_API_KEY,",
    "kubectl create secret generic db --from-file=password=./password.txt",
    "sk-... (truncated) — the full key is only shown once when you create it",
]


def cl_placeholder():
    return pick(PLACEHOLDERS)


def cl_masked_ci():
    t = when()
    lines = ["##[group]Run ./scripts/publish.sh", "env:", "  NPM_TOKEN: ***", "  GITHUB_TOKEN: ***", "##[endgroup]",
             "npm notice Publishing to https://registry.npmjs.org/ with tag latest", "+ @%s/%s@%d.%d.%d" % (pick(ORGS), pick(REPOS), 1, R.randint(0, 9), R.randint(0, 9))]
    out = []
    for l in lines:
        t += _dt.timedelta(microseconds=R.randint(100, 400000))
        out.append(gh_ts(t) + " " + l)
    return "\n".join(out)


def cl_secretref():
    return "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: %s-db\n        key: password\n  - name: STRIPE_SECRET_KEY\n    valueFrom:\n      secretKeyRef:\n        name: stripe\n        key: secret-key" % pick(APPS)


def cl_pubkey():
    k = R.random()
    if k < 0.5:
        return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s deploy@%s" % (base64.b64encode(rbytes(24)).decode()[:43], pick(["ci-runner-3", "laptop", "bastion"]))
    return "$ cat ~/.ssh/known_hosts\ngithub.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n%s ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB%s=" % (
        ipv4(), base64.b64encode(rbytes(64)).decode()[:86])


def cl_nginx():
    return "server {\n    listen 443 ssl http2;\n    server_name %s;\n    ssl_certificate     /etc/letsencrypt/live/%s/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/%s/privkey.pem;\n    location / {\n        proxy_pass http://127.0.0.1:%d;\n        proxy_set_header Host $host;\n    }\n}" % (
        (pick(DOMAINS_CO),) * 3 + (pick([3000, 8000, 8080]),))


def cl_sshconfig():
    return "Host bastion\n    HostName %s\n    User %s\n    IdentityFile ~/.ssh/id_ed25519\n    Port 22\n\nHost db-*\n    ProxyJump bastion\n    User admin" % (ipv4(), pick(USERS))


def cl_api_resp():
    return json.dumps({"data": [{"id": uid(), "status": pick(["active", "paused"]), "created_at": iso(frac=0)} for _ in range(2)],
                       "has_more": False, "request_id": "req_" + rs(14)}, indent=2)


def cl_css():
    return ".btn-primary {\n  background: #%s;\n  border-color: #%s;\n  color: #ffffff;\n}\n.btn-primary:hover { background: #%s; }" % (hx(6), hx(6), hx(6))


def cl_stack():
    return "Traceback (most recent call last):\n  File \"/app/worker.py\", line %d, in handle\n    order = Order.objects.get(pk=order_id)\n  File \"/usr/local/lib/python3.12/site-packages/django/db/models/query.py\", line 649, in get\n    raise self.model.DoesNotExist(\norders.models.Order.DoesNotExist: Order matching query does not exist." % R.randint(20, 300)


def cl_pytest():
    return "tests/test_auth.py::test_password_reset_token_expires PASSED\ntests/test_auth.py::test_login_rejects_wrong_password PASSED\ntests/test_keys.py::test_api_key_rotation PASSED\n==================== 3 passed in %.2fs ====================" % (R.random() * 5)


def cl_pods():
    app = pick(APPS)
    return "NAME                               READY   STATUS    RESTARTS   AGE\n" + "\n".join(
        "%-34s 1/1     Running   0          %dd" % ("%s-%s-%s" % (app, rs(10, LO + DG), rs(5, LO + DG)), R.randint(1, 40)) for _ in range(3))


def cl_tfplan():
    return "  # aws_db_instance.main will be updated in-place\n  ~ resource \"aws_db_instance\" \"main\" {\n        id       = \"%s-prod\"\n      ~ password = (sensitive value)\n        # (41 unchanged attributes hidden)\n    }\n\nPlan: 0 to add, 1 to change, 0 to destroy." % pick(APPS)


def cl_datauri():
    return '<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA%s" />' % base64.b64encode(rbytes(60)).decode()


def cl_gen_password():
    return pick(['token = secrets.token_urlsafe(32)\nhashed = hashlib.sha256(token.encode()).hexdigest()',
                 "const key = crypto.randomBytes(32).toString('hex');",
                 "openssl rand -base64 32 > /run/secrets/session_key",
                 'b := make([]byte, 32)\nif _, err := rand.Read(b); err != nil {\n\treturn "", err\n}'])


def cl_webpack():
    return "\n".join("dist/assets/%s.%s.js    %d.%d kB │ gzip: %d.%d kB" % (pick(["index", "vendor", "chunk", "router"]), hx(8), R.randint(1, 900),
                                                                        R.randint(0, 99), R.randint(1, 200), R.randint(0, 99)) for _ in range(3))


def cl_pkgjson():
    return json.dumps({"name": pick(REPOS), "private": True, "scripts": {"build": "tsc -p .", "test": "vitest run"},
                       "dependencies": {"zod": "^3.23.8", "pg": "^8.12.0"}, "engines": {"node": ">=20"}}, indent=2)


def cl_uuid_sql():
    return "INSERT INTO feature_flags (id, key, enabled) VALUES\n  ('%s', 'new_checkout', true),\n  ('%s', 'dark_mode', false);" % (uid(), uid())


def cl_fingerprint():
    return "The authenticity of host '%s (%s)' can't be established.\nED25519 key fingerprint is SHA256:%s.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?" % (
        pick(["bastion.internal", "git.internal", "10.0.0.7"]), ipv4(), base64.b64encode(rbytes(32)).decode()[:43])


def cl_cron():
    return "# m h dom mon dow command\n%d %d * * %d /opt/backup/run.sh --keep 14 >> /var/log/backup.log 2>&1" % (
        R.randint(0, 59), R.randint(0, 23), R.randint(0, 6))


def cl_versions():
    return "$ node --version && npm --version && python3 --version\nv20.%d.%d\n10.%d.%d\nPython 3.12.%d" % (
        R.randint(0, 15), R.randint(0, 9), R.randint(0, 9), R.randint(0, 9), R.randint(0, 8))


def cl_cert():
    body = base64.b64encode(bytes.fromhex("3082") + rbytes(420)).decode()
    return "-----BEGIN CERTIFICATE-----\n%s\n-----END CERTIFICATE-----" % _wrap(body)


def cl_guid():
    return "HKEY_CLASSES_ROOT\\CLSID\\{%s}\\InprocServer32\n    (Default)    REG_SZ    C:\\Windows\\System32\\shell32.dll" % uid().upper()


def cl_mac():
    return "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP\n    link/ether %s brd ff:ff:ff:ff:ff:ff\n    inet 10.0.%d.%d/24 brd 10.0.%d.255 scope global eth0" % (
        ":".join(hx(2) for _ in range(6)), R.randint(0, 9), R.randint(2, 250), R.randint(0, 9))


def cl_metrics():
    return "http_requests_total{method=\"GET\",code=\"200\"} %d\nhttp_request_duration_seconds_sum %.3f\nprocess_resident_memory_bytes %d" % (
        R.randint(1000, 900000), R.random() * 1000, R.randint(10 ** 7, 10 ** 9))


def cl_compose_vars():
    return "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg_password\n    secrets:\n      - pg_password\nsecrets:\n  pg_password:\n    file: ./secrets/pg_password.txt"


def cl_gha_secrets():
    return "      - name: Publish\n        run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n      - name: Deploy\n        run: ./deploy.sh\n        env:\n          AWS_ROLE_ARN: arn:aws:iam::123456789012:role/github-deploy"


def cl_helm_values():
    return "postgresql:\n  auth:\n    existingSecret: %s-db\n    secretKeys:\n      adminPasswordKey: postgres-password\n      userPasswordKey: password" % pick(APPS)


def cl_isbn():
    return pick(["Reference: Kleppmann, Designing Data-Intensive Applications, O'Reilly 2017, ISBN 978-1-4493-7332-0.",
                 "See 'Site Reliability Engineering' (ISBN 978-1-4919-2912-4), chapter 6.",
                 "Order %d shipped in 2 parcels, tracking reference will follow." % R.randint(10000, 99999)])


def cl_k8s_configmap():
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  LOG_LEVEL: info\n  HTTP_PORT: \"8080\"\n  FEATURE_NEW_CHECKOUT: \"true\"\n  CACHE_TTL_SECONDS: \"300\"" % pick(APPS)


def cl_http_noauth():
    return "HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer realm=\"api\", error=\"invalid_token\", error_description=\"The access token expired\"\nContent-Type: application/json\nX-Request-Id: %s\n\n{\"error\":\"invalid_token\"}" % uid()


# ----------------------------------------------------------------------------- assemble

def build():
    _selftest()
    # providers: each kind its quota, with at least one row from its own templates
    for kind, sp in P.items():
        for i in range(sp["n"]):
            force = True if (i == 0 and sp["extra"]) else (False if (i == 1 and sp["generic"]) else None)
            text, pairs = provider_row(kind, force)
            add(text, pairs)
    for _ in range(10):
        row_aws_pair()
    for _ in range(14):
        row_env_dump()
    for _ in range(8):
        row_transcript_long()
    for _ in range(26):
        row_pair_provider()
    for _ in range(9):
        row_basic_auth()
    for _ in range(10):
        row_private_key()
    row_mailchimp_dc()
    # passwords
    for _ in range(52):
        row_password("config")
    for _ in range(36):
        row_password("cli")
    for _ in range(30):
        row_password("code")
    for _ in range(16):
        row_password("prose")
    for _ in range(8):
        row_pin()
    for _ in range(52):
        row_dsn()
    for _ in range(5):
        row_jdbc_param()
    # languages
    for lang in LANGS:
        for tpl in lang["pw"]:
            row_lang_pw(lang, tpl)
        for tpl in lang["contact"]:
            row_lang_contact(lang, tpl)
        for kind, tpl in lang["ids"]:
            row_lang_id(lang, kind, tpl)
        for tpl in lang["money"]:
            row_lang_money(lang, tpl)
    for kind in NATIONAL_IDS:
        row_id_structured(kind)
    for _ in range(40):
        row_contact_structured()
    for _ in range(14):
        row_card()
    for _ in range(14):
        row_iban()
    clean_rows()
    rows = ROWS + CLEAN
    R.shuffle(rows)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "heldout_world10.jsonl"))
    args = ap.parse_args(argv)
    rows = build()
    for r in rows:
        assert len(r["canaries"]) == len(r["kinds"])
        for c in r["canaries"]:
            assert c in r["text"] and len(c) >= 4
    if os.path.isdir(args.out):  # --out DIR, like the other generators (tests/test_privacy_corpus_regenerates.py)
        args.out = os.path.join(args.out, "heldout_world10.jsonl")
    with open(args.out, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    pos = [r for r in rows if r["canaries"]]
    kinds = sorted({k for r in pos for k in r["kinds"]})
    print("wrote %s: %d rows (%d positive, %d values, %d kinds, %d clean)" % (
        args.out, len(rows), len(pos), sum(len(r["canaries"]) for r in pos), len(kinds), len(rows) - len(pos)), file=sys.stderr)


if __name__ == "__main__":
    main()
