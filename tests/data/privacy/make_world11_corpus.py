#!/usr/bin/env python3
"""Generate the blind held-out corpus "world11" for a secrets/PII masker.

Standard library only; fully reproducible (random.Random(1111)).

Usage:  python3 make_world11_corpus.py --out DIR      -> DIR/heldout_world11.jsonl

Each line: {"text": str, "canaries": [str, ...], "kinds": [str, ...]}
Every canary occurs verbatim in text; kinds[i] labels canaries[i].
Clean rows (look-alikes only) have empty lists.
"""
import argparse
import base64
import json
import os
import string
import sys
import zlib
import random

R = random.Random(1111)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
ALNUM = UP + LO + DG
ALNUMX = ALNUM + "-_"
HEX = "0123456789abcdef"
HEXU = HEX.upper()
B64 = ALNUM + "+/"
B32U = UP + "234567"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def ch(seq):
    return R.choice(seq)


def ri(a, b):
    return R.randint(a, b)


def coin(p=0.5):
    return R.random() < p


def uuid4():
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + ch("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b64s(b):
    return base64.b64encode(b).decode()


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def group(s, size, sep=" "):
    return sep.join(s[i:i + size] for i in range(0, len(s), size))


# ---------------------------------------------------------------- check digits
def luhn_digit(partial):
    total = 0
    for i, d in enumerate(reversed(partial)):
        d = int(d)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
       [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(num):
    c = 0
    for i, d in enumerate(reversed(num)):
        c = _VD[c][_VP[(i + 1) % 8][int(d)]]
    return str(_VINV[c])


def verhoeff_ok(num):
    c = 0
    for i, d in enumerate(reversed(num)):
        c = _VD[c][_VP[i % 8][int(d)]]
    return c == 0


def iso7064_11_10(digits):
    product = 10
    for d in digits:
        s = (int(d) + product) % 10
        if s == 0:
            s = 10
        product = (s * 2) % 11
    c = 11 - product
    return "0" if c == 10 else str(c)


def rand_date(y0=1950, y1=2005):
    y = ri(y0, y1)
    m = ri(1, 12)
    d = ri(1, 28)
    return y, m, d


# ---------------------------------------------------------------- national ids
def gen_ssn():
    while True:
        a = ri(1, 899)
        if a != 666:
            break
    g = ri(1, 99)
    s = ri(1, 9999)
    return f"{a:03d}-{g:02d}-{s:04d}" if coin(0.85) else f"{a:03d}{g:02d}{s:04d}"


def gen_uk_nino():
    bad = {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}
    while True:
        p = ch("ABCEGHJKLMNOPRSTWXYZ") + ch("ABCEGHJKLMNPRSTWXYZ")
        if p not in bad:
            break
    d = rs(DG, 6)
    suf = ch("ABCD")
    if coin(0.5):
        return f"{p} {d[:2]} {d[2:4]} {d[4:]} {suf}"
    return f"{p}{d}{suf}"


def gen_de_tax_id():
    while True:
        pool = list(range(10))
        R.shuffle(pool)
        nine = pool[:9]
        dup = ch(nine)
        ten = nine + [dup]
        R.shuffle(ten)
        if ten[0] != 0:
            break
    s = "".join(map(str, ten))
    s += iso7064_11_10(s)
    return s if coin(0.6) else f"{s[:2]} {s[2:5]} {s[5:8]} {s[8:]}"


def gen_fr_nir():
    sex = ch("12")
    y, m, d = rand_date(1950, 2004)
    dept = ri(1, 95)
    if dept == 20:
        dept = 21
    commune = ri(1, 899)
    order = ri(1, 999)
    body = f"{sex}{y % 100:02d}{m:02d}{dept:02d}{commune:03d}{order:03d}"
    key = 97 - int(body) % 97
    full = f"{body}{key:02d}"
    if coin(0.5):
        return f"{full[0]} {full[1:3]} {full[3:5]} {full[5:7]} {full[7:10]} {full[10:13]} {full[13:]}"
    return full


_DNI_L = "TRWAGMYFPDXBNJZSQVHLCKE"


def gen_es_dni():
    n = ri(10000000, 79999999)
    v = f"{n:08d}{_DNI_L[n % 23]}"
    return v if coin(0.8) else f"{v[:8]}-{v[8]}"


def gen_es_nie():
    p = ch("XYZ")
    n = ri(0, 9999999)
    num = int(str("XYZ".index(p)) + f"{n:07d}")
    v = f"{p}{n:07d}{_DNI_L[num % 23]}"
    return v if coin(0.75) else f"{p}-{n:07d}-{_DNI_L[num % 23]}"


_CF_ODD = {}
for _i, _c in enumerate("0123456789"):
    _CF_ODD[_c] = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21][_i]
for _c, _v in zip(UP, [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]):
    _CF_ODD[_c] = _v


def _cf_part(word, is_name):
    word = "".join(c for c in word.upper() if c.isalpha())
    cons = [c for c in word if c not in "AEIOU"]
    vow = [c for c in word if c in "AEIOU"]
    if is_name and len(cons) >= 4:
        return cons[0] + cons[2] + cons[3]
    return ("".join(cons + vow) + "XXX")[:3]


IT_SURN = ["Rossi", "Bianchi", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo",
           "Conti", "DeLuca", "Mancini", "Costa", "Giordano", "Lombardi", "Moretti", "Barbieri", "Fontana", "Santoro"]
IT_NAMES = [("Marco", "M"), ("Giulia", "F"), ("Alessandro", "M"), ("Francesca", "F"), ("Luca", "M"),
            ("Chiara", "F"), ("Matteo", "M"), ("Sara", "F"), ("Giuseppe", "M"), ("Elena", "F"), ("Davide", "M"),
            ("Martina", "F"), ("Simone", "M"), ("Valentina", "F")]
IT_BELFIORE = ["H501", "F205", "F839", "L219", "G273", "A944", "D612", "L736", "D969", "L424", "B157", "E506"]


def gen_it_cf(surname=None, name=None, sex=None):
    if surname is None:
        surname = ch(IT_SURN)
    if name is None:
        name, sex = ch(IT_NAMES)
    y, m, d = rand_date(1950, 2004)
    code = _cf_part(surname, False) + _cf_part(name, True)
    code += f"{y % 100:02d}" + "ABCDEHLMPRST"[m - 1] + f"{d + (40 if sex == 'F' else 0):02d}" + ch(IT_BELFIORE)
    s = 0
    for i, c in enumerate(code):
        if i % 2 == 0:
            s += _CF_ODD[c]
        else:
            s += int(c) if c.isdigit() else ord(c) - 65
    return code + chr(65 + s % 26)


def gen_nl_bsn():
    while True:
        d = [ri(1, 9)] + [ri(0, 9) for _ in range(7)]
        s = sum(w * x for w, x in zip(range(9, 1, -1), d))
        c = s % 11
        if c < 10:
            return "".join(map(str, d)) + str(c)


def gen_be_nrn():
    y, m, d = rand_date(1950, 2005)
    seq = ri(1, 997)
    body = f"{y % 100:02d}{m:02d}{d:02d}{seq:03d}"
    base = int(("2" if y >= 2000 else "") + body)
    c = 97 - base % 97
    v = f"{body}{c:02d}"
    if coin(0.6):
        return f"{v[:2]}.{v[2:4]}.{v[4:6]}-{v[6:9]}.{v[9:]}"
    return v


def gen_pl_pesel():
    y, m, d = rand_date(1950, 2006)
    mm = m + (20 if y >= 2000 else 0)
    body = f"{y % 100:02d}{mm:02d}{d:02d}" + rs(DG, 4)
    w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
    s = sum(int(a) * b for a, b in zip(body, w))
    return body + str((10 - s % 10) % 10)


def gen_pt_nif():
    while True:
        body = ch("123") + rs(DG, 7)
        s = sum(int(a) * b for a, b in zip(body, range(9, 1, -1)))
        c = 11 - s % 11
        c = 0 if c >= 10 else c
        return body + str(c)


def gen_se_pnr():
    y, m, d = rand_date(1945, 2005)
    body = f"{y % 100:02d}{m:02d}{d:02d}" + rs(DG, 3)
    c = luhn_digit(body)
    sep = "-" if y > 1925 else "+"
    if coin(0.35):
        return f"{y}{m:02d}{d:02d}-{body[6:]}{c}"
    return f"{body[:6]}{sep}{body[6:]}{c}"


def gen_no_fnr():
    while True:
        y, m, d = rand_date(1950, 1999)
        ind = ri(0, 499)
        base = f"{d:02d}{m:02d}{y % 100:02d}{ind:03d}"
        w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
        k1 = 11 - sum(int(a) * b for a, b in zip(base, w1)) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        base += str(k1)
        w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        k2 = 11 - sum(int(a) * b for a, b in zip(base, w2)) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 == 10:
            continue
        return base + str(k2)


def gen_dk_cpr():
    while True:
        y, m, d = rand_date(1950, 2003)
        base = f"{d:02d}{m:02d}{y % 100:02d}" + rs(DG, 3)
        w = [4, 3, 2, 7, 6, 5, 4, 3, 2]
        r = sum(int(a) * b for a, b in zip(base, w)) % 11
        c = (11 - r) % 11
        if c == 10:
            continue
        v = base + str(c)
        return f"{v[:6]}-{v[6:]}" if coin(0.8) else v


def gen_fi_hetu():
    y, m, d = rand_date(1950, 2008)
    nnn = ri(2, 899)
    sep = "-" if y < 2000 else ch("AB")
    c = "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(f"{d:02d}{m:02d}{y % 100:02d}{nnn:03d}") % 31]
    return f"{d:02d}{m:02d}{y % 100:02d}{sep}{nnn:03d}{c}"


def gen_is_kt():
    while True:
        y, m, d = rand_date(1950, 2008)
        base = f"{d:02d}{m:02d}{y % 100:02d}{ri(20, 99)}"
        w = [3, 2, 7, 6, 5, 4, 3, 2]
        r = 11 - sum(int(a) * b for a, b in zip(base, w)) % 11
        r = 0 if r == 11 else r
        if r == 10:
            continue
        v = base + str(r) + ("9" if y < 2000 else "0")
        return f"{v[:6]}-{v[6:]}" if coin(0.7) else v


def _ee_check(base):
    w1 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]
    r = sum(int(a) * b for a, b in zip(base, w1)) % 11
    if r == 10:
        w2 = [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]
        r = sum(int(a) * b for a, b in zip(base, w2)) % 11
        if r == 10:
            r = 0
    return str(r)


def gen_ee_ik():
    y, m, d = rand_date(1950, 2008)
    g = ch("34") if y < 2000 else ch("56")
    base = f"{g}{y % 100:02d}{m:02d}{d:02d}{ri(0, 999):03d}"
    return base + _ee_check(base)


def gen_lt_ak():  # Lithuanian asmens kodas: same layout and check as Estonia
    y, m, d = rand_date(1950, 2008)
    g = ch("34") if y < 2000 else ch("56")
    base = f"{g}{y % 100:02d}{m:02d}{d:02d}{ri(0, 999):03d}"
    return base + _ee_check(base)


def gen_cz_rc():
    while True:
        y, m, d = rand_date(1955, 2005)
        mm = m + (50 if coin() else 0)
        base = f"{y % 100:02d}{mm:02d}{d:02d}" + rs(DG, 3)
        c = int(base) % 11
        if c == 10:
            continue
        return f"{base[:6]}/{base[6:]}{c}" if coin(0.75) else f"{base}{c}"


def gen_ro_cnp():
    y, m, d = rand_date(1950, 2005)
    s = (ch("12") if y < 2000 else ch("56"))
    base = f"{s}{y % 100:02d}{m:02d}{d:02d}{ri(1, 46):02d}{ri(1, 999):03d}"
    w = "279146358279"
    r = sum(int(a) * int(b) for a, b in zip(base, w)) % 11
    return base + ("1" if r == 10 else str(r))


def gen_bg_egn():
    y, m, d = rand_date(1950, 2008)
    mm = m + (40 if y >= 2000 else 0)
    base = f"{y % 100:02d}{mm:02d}{d:02d}" + rs(DG, 3)
    w = [2, 4, 8, 5, 10, 9, 7, 3, 6]
    c = sum(int(a) * b for a, b in zip(base, w)) % 11
    return base + ("0" if c == 10 else str(c))


def gen_hr_oib():
    base = str(ri(1, 9)) + rs(DG, 9)
    return base + iso7064_11_10(base)


def gen_ch_ahv():
    body = "756" + rs(DG, 9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    v = body + str((10 - s % 10) % 10)
    return f"{v[:3]}.{v[3:7]}.{v[7:11]}.{v[11:]}" if coin(0.85) else v


def gen_ie_ppsn():
    digits = rs(DG, 7)
    w = [8, 7, 6, 5, 4, 3, 2]
    s = sum(int(a) * b for a, b in zip(digits, w))
    second = ""
    if coin(0.4):
        second = "A"
        s += 9 * 1
    return digits + "WABCDEFGHIJKLMNOPQRSTUV"[s % 23] + second


def gen_br_cpf():
    d = [ri(0, 9) for _ in range(9)]
    s = sum(x * w for x, w in zip(d, range(10, 1, -1)))
    r = (s * 10) % 11
    d.append(0 if r == 10 else r)
    s = sum(x * w for x, w in zip(d, range(11, 1, -1)))
    r = (s * 10) % 11
    d.append(0 if r == 10 else r)
    v = "".join(map(str, d))
    return f"{v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}" if coin(0.75) else v


def gen_ar_cuit():
    while True:
        pre = ch(["20", "23", "27", "30", "33"])
        base = pre + rs(DG, 8)
        w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        r = 11 - sum(int(a) * b for a, b in zip(base, w)) % 11
        if r == 10:
            continue
        r = 0 if r == 11 else r
        v = base + str(r)
        return f"{v[:2]}-{v[2:10]}-{v[10]}" if coin(0.75) else v


def gen_cl_rut():
    n = ri(5000000, 26000000)
    s, f = 0, 2
    for c in reversed(str(n)):
        s += int(c) * f
        f = 2 if f == 7 else f + 1
    r = 11 - s % 11
    dv = "0" if r == 11 else ("K" if r == 10 else str(r))
    if coin(0.7):
        return f"{n:,}".replace(",", ".") + "-" + dv
    return f"{n}-{dv}"


_CURP_ALPHA = "0123456789ABCDEFGHIJKLMN\u00d1OPQRSTUVWXYZ"
MX_STATES = ["AS", "BC", "BS", "CC", "CL", "CM", "CS", "CH", "DF", "DG", "GT", "GR", "HG", "JC", "MC", "MN", "MS",
             "NT", "NL", "OC", "PL", "QT", "QR", "SP", "SL", "SR", "TC", "TS", "TL", "VZ", "YN", "ZS"]
MX_SURN = ["HERNANDEZ", "GARCIA", "MARTINEZ", "LOPEZ", "GONZALEZ", "RODRIGUEZ", "PEREZ", "SANCHEZ", "RAMIREZ",
           "FLORES", "TORRES", "RIVERA", "GOMEZ", "DIAZ", "CRUZ", "MORALES", "REYES", "JIMENEZ", "VARGAS", "MENDOZA"]
MX_NAMES = [("JUAN", "H"), ("MARIA", "M"), ("LUIS", "H"), ("ANA", "M"), ("CARLOS", "H"), ("SOFIA", "M"),
            ("JORGE", "H"), ("VALERIA", "M"), ("DIEGO", "H"), ("FERNANDA", "M"), ("RICARDO", "H"), ("ELENA", "M")]


def _first_internal(word, vowels):
    for c in word[1:]:
        if (c in "AEIOU") == vowels:
            return c
    return "X"


def gen_mx_curp(s1=None, s2=None, nm=None, sex=None):
    if s1 is None:
        s1, s2 = ch(MX_SURN), ch(MX_SURN)
        nm, sex = ch(MX_NAMES)
    y, m, d = rand_date(1955, 2006)
    code = s1[0] + _first_internal(s1, True) + s2[0] + nm[0]
    code += f"{y % 100:02d}{m:02d}{d:02d}{sex}{ch(MX_STATES)}"
    code += _first_internal(s1, False) + _first_internal(s2, False) + _first_internal(nm, False)
    code += ch(DG) if y < 2000 else ch(UP)
    s = sum(_CURP_ALPHA.index(c) * (18 - i) for i, c in enumerate(code))
    return code + str((10 - s % 10) % 10)


def gen_ca_sin():
    body = ch("1234567") + rs(DG, 7)
    v = body + luhn_digit(body)
    st = ri(0, 2)
    return [f"{v[:3]} {v[3:6]} {v[6:]}", f"{v[:3]}-{v[3:6]}-{v[6:]}", v][st]


def gen_au_tfn():
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    while True:
        d = [ri(1, 9)] + [ri(0, 9) for _ in range(7)]
        s = sum(a * b for a, b in zip(d, w))
        for last in range(10):
            if (s + last * 10) % 11 == 0:
                v = "".join(map(str, d)) + str(last)
                return f"{v[:3]} {v[3:6]} {v[6:]}" if coin(0.6) else v


def gen_in_pan():
    return rs(UP, 3) + ch("PPPPPCHFT") + ch(UP) + rs(DG, 4) + ch(UP)


def gen_aadhaar():
    body = str(ri(2, 9)) + rs(DG, 10)
    v = body + verhoeff_digit(body)
    st = ri(0, 2)
    return [f"{v[:4]} {v[4:8]} {v[8:]}", v, f"{v[:4]}-{v[4:8]}-{v[8:]}"][st]


CN_REGIONS = ["110101", "110105", "310104", "310115", "440305", "440106", "510107", "330106", "420106", "320102",
              "500103", "610113", "370202", "210203", "350203", "430104"]


def gen_cn_ric():
    y, m, d = rand_date(1955, 2005)
    base = ch(CN_REGIONS) + f"{y}{m:02d}{d:02d}" + f"{ri(1, 999):03d}"
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return base + "10X98765432"[sum(int(a) * b for a, b in zip(base, w)) % 11]


def gen_jp_my_number():
    body = rs(DG, 11)
    s = 0
    for n in range(1, 12):
        p = int(body[11 - n])
        q = n + 1 if n <= 6 else n - 5
        s += p * q
    r = s % 11
    c = 0 if r <= 1 else 11 - r
    v = body + str(c)
    return f"{v[:4]} {v[4:8]} {v[8:]}" if coin(0.5) else v


def gen_kr_rrn():
    y, m, d = rand_date(1955, 2006)
    g = ch("12") if y < 2000 else ch("34")
    base = f"{y % 100:02d}{m:02d}{d:02d}{g}" + rs(DG, 5)
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    c = (11 - sum(int(a) * b for a, b in zip(base, w)) % 11) % 10
    v = base + str(c)
    return f"{v[:6]}-{v[6:]}"


def gen_hk_hkid():
    L = ch("ACDEGHKMPRVYZ")
    digits = rs(DG, 6)
    s = 36 * 9 + (ord(L) - 55) * 8 + sum(int(c) * w for c, w in zip(digits, range(7, 1, -1)))
    r = 11 - s % 11
    c = "0" if r == 11 else ("A" if r == 10 else str(r))
    return f"{L}{digits}({c})" if coin(0.7) else f"{L}{digits}{c}"


def gen_sg_nric():
    p = ch("STFG")
    digits = rs(DG, 7)
    s = sum(int(c) * w for c, w in zip(digits, [2, 7, 6, 5, 4, 3, 2]))
    if p in "TG":
        s += 4
    tbl = "JZIHGFEDCBA" if p in "ST" else "XWUTRQPNMLK"
    return p + digits + tbl[s % 11]


def gen_il_tz():
    body = rs(DG, 8)
    s = 0
    for i, c in enumerate(body):
        x = int(c) * (1 if i % 2 == 0 else 2)
        s += x - 9 if x > 9 else x
    return body + str((10 - s % 10) % 10)


def gen_tr_tckn():
    d = [ri(1, 9)] + [ri(0, 9) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d.append(d10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


def gen_za_id():
    y, m, d = rand_date(1950, 2004)
    base = f"{y % 100:02d}{m:02d}{d:02d}{ri(0, 9999):04d}{ch('001')}8"
    v = base + luhn_digit(base)
    return v if coin(0.8) else f"{v[:6]} {v[6:10]} {v[10:]}"


# new national-id labels ----------------------------------------------------
_TW_CODES = dict(A=10, B=11, C=12, D=13, E=14, F=15, G=16, H=17, I=34, J=18, K=19, L=20, M=21, N=22, O=35,
                 P=23, Q=24, R=25, S=26, T=27, U=28, V=29, W=32, X=30, Y=31, Z=33)


def gen_tw_id():
    L = ch("ABCDEFGHJKMNPQTUVXYWZIO")
    code = _TW_CODES[L]
    digits = ch("12") + rs(DG, 7)
    s = (code // 10) * 1 + (code % 10) * 9 + sum(int(c) * w for c, w in zip(digits, range(8, 0, -1)))
    return L + digits + str((10 - s % 10) % 10)


def gen_th_id():
    body = str(ri(1, 8)) + rs(DG, 11)
    s = sum(int(c) * (13 - i) for i, c in enumerate(body))
    v = body + str((11 - s % 11) % 10)
    if coin(0.5):
        return f"{v[0]}-{v[1:5]}-{v[5:10]}-{v[10:12]}-{v[12]}"
    return v


def gen_si_emso():
    while True:
        y, m, d = rand_date(1950, 2008)
        base = f"{d:02d}{m:02d}{y % 1000:03d}50{ri(0, 999):03d}"
        w = [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        mm = sum(int(a) * b for a, b in zip(base, w)) % 11
        k = 0 if mm == 0 else 11 - mm
        if k == 10:
            continue
        return base + str(k)


def gen_at_svnr():
    while True:
        y, m, d = rand_date(1950, 2005)
        serial = f"{ri(100, 999)}"
        dob = f"{d:02d}{m:02d}{y % 100:02d}"
        digits = serial + "0" + dob
        w = [3, 7, 9, 0, 5, 8, 4, 2, 1, 6]
        c = sum(int(a) * b for a, b in zip(digits, w)) % 11
        if c == 10:
            continue
        v = serial + str(c) + dob
        return f"{v[:4]} {v[4:]}" if coin(0.6) else v


# ---------------------------------------------------------------- cards / iban
def gen_card():
    t = ri(0, 9)
    if t <= 3:
        body = "4" + rs(DG, 14)
    elif t <= 5:
        body = (ch(["51", "52", "53", "54", "55"]) + rs(DG, 13)) if coin() else (str(ri(2221, 2720)) + rs(DG, 11))
    elif t <= 7:
        body = "3" + ch("47") + rs(DG, 12)
    elif t == 8:
        body = "6011" + rs(DG, 11)
    else:
        body = str(ri(3528, 3589)) + rs(DG, 11)
    v = body + luhn_digit(body)
    sep = ch([" ", "-", "", " "])
    if len(v) == 15:
        return f"{v[:4]}{sep}{v[4:10]}{sep}{v[10:]}"
    return sep.join(v[i:i + 4] for i in range(0, 16, 4))


IBAN_SPECS = {
    "DE": lambda: rs(DG, 18), "FR": lambda: rs(DG, 10) + rs(UP + DG, 11) + rs(DG, 2),
    "GB": lambda: ch(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "SRLG"]) + rs(DG, 14),
    "ES": lambda: rs(DG, 20), "IT": lambda: ch(UP) + rs(DG, 10) + rs(DG, 12), "NL": lambda: ch(
        ["INGB", "ABNA", "RABO", "SNSB", "TRIO", "KNAB"]) + rs(DG, 10), "BE": None,
    "CH": lambda: rs(DG, 5) + rs(DG, 12), "AT": lambda: rs(DG, 16), "PL": lambda: rs(DG, 24),
    "PT": lambda: rs(DG, 21), "SE": lambda: rs(DG, 20), "IE": lambda: ch(["AIBK", "BOFI", "IPBS"]) + rs(DG, 14),
    "NO": lambda: rs(DG, 11), "DK": lambda: rs(DG, 14), "FI": lambda: rs(DG, 14), "LU": lambda: rs(DG, 3) + rs(
        UP + DG, 13), "RO": lambda: ch(["BTRL", "RNCB", "BRDE", "INGB"]) + rs(UP + DG, 16),
    "CZ": lambda: rs(DG, 20), "HU": lambda: rs(DG, 24), "GR": lambda: rs(DG, 23), "HR": lambda: rs(DG, 17),
    "SI": lambda: rs(DG, 15), "LT": lambda: rs(DG, 16), "EE": lambda: rs(DG, 16), "BG": lambda: ch(
        ["BNBG", "UNCR", "STSA"]) + rs(DG, 6) + rs(UP + DG, 8), "TR": lambda: rs(DG, 5) + "0" + rs(DG, 16),
}


def _be_bban():
    b = rs(DG, 10)
    c = int(b) % 97
    c = 97 if c == 0 else c
    return b + f"{c:02d}"


def iban_check(cc, bban):
    s = bban + cc + "00"
    num = "".join(str(int(c, 36)) for c in s)
    return f"{98 - int(num) % 97:02d}"


def gen_iban(cc=None, spaced=None):
    if cc is None:
        cc = ch(list(IBAN_SPECS))
    bban = _be_bban() if cc == "BE" else IBAN_SPECS[cc]()
    v = cc + iban_check(cc, bban) + bban
    if spaced is None:
        spaced = coin(0.55)
    return group(v, 4) if spaced else v


# ---------------------------------------------------------------- phones
def _d(n):
    return rs(DG, n)


def gen_phone(cc=None):
    if cc is None:
        cc = ch(["us", "uk", "de", "fr", "es", "it", "br", "in", "jp", "cn", "kr", "au", "mx", "nl", "pl", "se",
                 "ru", "tr", "za", "ng", "ar", "ch", "ie", "sg", "hk", "il", "pt", "ca", "eg", "ke", "ph", "id"])
    if cc in ("us", "ca"):
        a = ri(201, 989)
        while a % 100 == 11 or str(a)[1:] == "11":
            a = ri(201, 989)
        e = ri(201, 989)
        while e == 555 or e % 100 == 11:
            e = ri(201, 989)
        l = _d(4)
        return ch([f"+1 {a} {e} {l}", f"({a}) {e}-{l}", f"{a}-{e}-{l}", f"+1-{a}-{e}-{l}", f"{a}.{e}.{l}",
                   f"+1{a}{e}{l}", f"+1 ({a}) {e}-{l}"])
    if cc == "uk":
        n = "7" + ch("45789") + _d(2)
        rest = _d(6)
        return ch([f"+44 {n} {rest}", f"0{n} {rest}", f"+44{n}{rest}", f"+44 (0){n} {rest[:3]} {rest[3:]}"])
    if cc == "de":
        pre = ch(["151", "152", "157", "160", "162", "170", "171", "172", "175", "176", "177", "179"])
        n = _d(ch([7, 8]))
        return ch([f"+49 {pre} {n}", f"0{pre} {n}", f"+49{pre}{n}", f"+49 (0) {pre} {n}", f"0{pre}/{n}",
                   f"+49 30 {_d(8)}", f"089 {_d(7)}"])
    if cc == "fr":
        p = ch("67") + _d(8)
        pairs = " ".join(p[i:i + 2] for i in range(1, 9, 2))
        return ch([f"+33 {p[0]} {pairs}", f"0{p[0]} {pairs}", f"+33{p}", f"0{p[0]}.{pairs.replace(' ', '.')}"])
    if cc == "es":
        n = ch("67") + _d(8)
        return ch([f"+34 {n[:3]} {n[3:6]} {n[6:]}", f"{n[:3]} {n[3:5]} {n[5:7]} {n[7:]}", f"+34{n}"])
    if cc == "it":
        n = "3" + ch("2345789") + _d(1) + _d(7)
        return ch([f"+39 {n[:3]} {n[3:6]} {n[6:]}", f"{n[:3]} {n[3:]}", f"+39 {n}"])
    if cc == "br":
        ddd = ch(["11", "21", "31", "41", "51", "61", "71", "81", "85"])
        n = "9" + _d(8)
        return ch([f"+55 {ddd} {n[:5]}-{n[5:]}", f"({ddd}) {n[:5]}-{n[5:]}", f"+55{ddd}{n}"])
    if cc == "in":
        n = ch("6789") + _d(9)
        return ch([f"+91 {n[:5]} {n[5:]}", f"+91-{n}", f"0{n}", f"+91 {n}"])
    if cc == "jp":
        m = ch(["090", "080", "070"])
        return ch([f"{m}-{_d(4)}-{_d(4)}", f"+81 {m[1:]}-{_d(4)}-{_d(4)}", f"03-{_d(4)}-{_d(4)}",
                   f"+81-6-{_d(4)}-{_d(4)}"])
    if cc == "cn":
        p = "1" + ch("3578") + _d(1)
        return ch([f"+86 {p} {_d(4)} {_d(4)}", f"{p}{_d(8)}", f"+86-{p}-{_d(4)}-{_d(4)}"])
    if cc == "kr":
        return ch([f"010-{_d(4)}-{_d(4)}", f"+82 10-{_d(4)}-{_d(4)}", f"+82 10 {_d(4)} {_d(4)}"])
    if cc == "au":
        n = "4" + _d(8)
        return ch([f"+61 {n[:3]} {n[3:6]} {n[6:]}", f"0{n[:3]} {n[3:6]} {n[6:]}", f"+61 2 {_d(4)} {_d(4)}"])
    if cc == "mx":
        return ch([f"+52 55 {_d(4)} {_d(4)}", f"+52 1 33 {_d(4)} {_d(4)}", f"(81) {_d(4)}-{_d(4)}"])
    if cc == "nl":
        return ch([f"+31 6 {_d(8)}", f"06-{_d(8)}", f"+31 (0)6 {_d(4)} {_d(4)}", f"020 {_d(3)} {_d(4)}"])
    if cc == "pl":
        n = ch("5678") + _d(8)
        return ch([f"+48 {n[:3]} {n[3:6]} {n[6:]}", f"{n[:3]}-{n[3:6]}-{n[6:]}"])
    if cc == "se":
        return ch([f"070-{_d(3)} {_d(2)} {_d(2)}", f"+46 70 {_d(3)} {_d(2)} {_d(2)}", f"+46 8 {_d(3)} {_d(3)} {_d(2)}"])
    if cc == "ru":
        n = "9" + _d(9)
        return ch([f"+7 {n[:3]} {n[3:6]}-{n[6:8]}-{n[8:]}", f"8 ({n[:3]}) {n[3:6]}-{n[6:8]}-{n[8:]}",
                   f"+7{n}"])
    if cc == "tr":
        n = "5" + ch("0345") + _d(8)
        return ch([f"+90 {n[:3]} {n[3:6]} {n[6:8]} {n[8:]}", f"0{n[:3]} {n[3:6]} {n[6:8]} {n[8:]}"])
    if cc == "za":
        return ch([f"+27 {ch(['82', '83', '72', '73', '84'])} {_d(3)} {_d(4)}", f"0{ch(['82', '71', '61'])} {_d(3)} {_d(4)}"])
    if cc == "ng":
        return ch([f"+234 {ch(['803', '806', '813', '816', '703'])} {_d(3)} {_d(4)}", f"0{ch(['803', '805', '802'])}{_d(7)}"])
    if cc == "ar":
        return ch([f"+54 9 11 {_d(4)}-{_d(4)}", f"+54 9 351 {_d(3)}-{_d(4)}"])
    if cc == "ch":
        return ch([f"+41 7{ch('5789')} {_d(3)} {_d(2)} {_d(2)}", f"07{ch('5789')} {_d(3)} {_d(2)} {_d(2)}"])
    if cc == "ie":
        return ch([f"+353 8{ch('35679')} {_d(3)} {_d(4)}", f"08{ch('35679')} {_d(3)} {_d(4)}"])
    if cc == "sg":
        return ch([f"+65 {ch('89')}{_d(3)} {_d(4)}", f"+65{ch('89')}{_d(7)}"])
    if cc == "hk":
        return ch([f"+852 {ch('569')}{_d(3)} {_d(4)}", f"+852-{ch('569')}{_d(7)}"])
    if cc == "il":
        return ch([f"+972 5{ch('02348')}-{_d(3)}-{_d(4)}", f"05{ch('02348')}-{_d(3)}-{_d(4)}"])
    if cc == "pt":
        return ch([f"+351 9{ch('1236')}{_d(1)} {_d(3)} {_d(3)}", f"9{ch('1236')}{_d(7)}"])
    if cc == "eg":
        return f"+20 1{ch('0125')} {_d(4)} {_d(4)}"
    if cc == "ke":
        return ch([f"+254 7{_d(2)} {_d(3)} {_d(3)}", f"07{_d(2)} {_d(6)}"])
    if cc == "ph":
        return ch([f"+63 9{_d(2)} {_d(3)} {_d(4)}", f"09{_d(2)}-{_d(3)}-{_d(4)}"])
    if cc == "id":
        return ch([f"+62 8{_d(2)}-{_d(4)}-{_d(4)}", f"08{_d(2)}{_d(8)}"])
    return f"+{ri(30, 99)} {_d(3)} {_d(3)} {_d(3)}"


# ---------------------------------------------------------------- people
import unicodedata

_FOLD = {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "Ae", "ß": "ss", "ð": "d", "Ð": "D",
         "þ": "th", "Þ": "Th", "ı": "i", "đ": "d", "Đ": "D"}


def fold(s):
    s = "".join(_FOLD.get(c, c) for c in s)
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c))


LOCALES = {
    "us": (["James", "Olivia", "Marcus", "Priya", "Tyler", "Aaliyah", "Kevin", "Megan", "Darnell", "Hannah", "Rosa", "Brandon"],
           ["Whitaker", "Nguyen", "Okafor", "Patel", "Brennan", "Castillo", "Hughes", "Kowalski", "Jefferson", "Lindqvist"],
           ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "comcast.net", "proton.me"]),
    "uk": (["Oliver", "Amelia", "Harry", "Isla", "George", "Freya", "Callum", "Niamh"],
           ["Thornton", "Ashworth", "Bellamy", "Pritchard", "Okonkwo", "Fairbairn"],
           ["btinternet.com", "gmail.com", "hotmail.co.uk", "sky.com"]),
    "de": (["Lukas", "Lena", "Jonas", "Mia", "Felix", "Hannah", "Tobias", "Katharina"],
           ["Schneider", "Becker", "Hoffmann", "Wagner", "Schulz", "Krüger", "Weiß"],
           ["web.de", "gmx.de", "t-online.de", "posteo.de"]),
    "fr": (["Camille", "Lucas", "Chloé", "Hugo", "Manon", "Théo", "Léa"],
           ["Lefèvre", "Moreau", "Girard", "Fournier", "Bonnet", "Mercier"],
           ["orange.fr", "free.fr", "laposte.net", "sfr.fr"]),
    "es": (["Alejandro", "Lucía", "Javier", "Carmen", "Pablo", "Marta"],
           ["García", "Fernández", "López", "Martín", "Ruiz", "Navarro"],
           ["gmail.com", "hotmail.es", "telefonica.net"]),
    "it": ([n for n, _ in IT_NAMES], IT_SURN[:12], ["libero.it", "virgilio.it", "tiscali.it", "alice.it"]),
    "nl": (["Daan", "Sanne", "Bram", "Fleur", "Jesse", "Lotte"],
           ["de Vries", "Jansen", "van Dijk", "Bakker", "Visser", "Smit"], ["ziggo.nl", "kpnmail.nl", "hotmail.nl"]),
    "be": (["Arne", "Lotte", "Wout", "Elise", "Maxime", "Florian"],
           ["Peeters", "Janssens", "Maes", "Dubois", "Lambert", "Claes"], ["telenet.be", "skynet.be", "proximus.be"]),
    "pl": (["Jakub", "Zuzanna", "Kacper", "Julia", "Mateusz", "Oliwia"],
           ["Nowak", "Kowalczyk", "Wiśniewski", "Wójcik", "Kamiński", "Zieliński", "Michałowska"],
           ["wp.pl", "onet.pl", "interia.pl", "o2.pl"]),
    "pt": (["João", "Inês", "Tiago", "Beatriz", "Rui", "Mariana"],
           ["Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa"], ["sapo.pt", "gmail.com", "netcabo.pt"]),
    "se": (["Erik", "Astrid", "Oskar", "Elin", "Linnea", "Axel"],
           ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Lindberg"], ["telia.com", "bredband.net", "gmail.com"]),
    "no": (["Magnus", "Ingrid", "Sindre", "Nora", "Håkon", "Sofie"],
           ["Hansen", "Johansen", "Olsen", "Larsen", "Berg", "Haugen", "Sørensen"], ["online.no", "gmail.com"]),
    "dk": (["Mads", "Freja", "Rasmus", "Ida", "Emil", "Clara"],
           ["Jensen", "Nielsen", "Pedersen", "Christensen", "Madsen", "Søgaard"], ["mail.dk", "jubii.dk", "gmail.com"]),
    "fi": (["Eero", "Aino", "Juho", "Venla", "Aleksi", "Sanni"],
           ["Korhonen", "Virtanen", "Mäkinen", "Nieminen", "Heikkinen"], ["elisanet.fi", "luukku.com", "gmail.com"]),
    "is": (["Gunnar", "Sigrún", "Einar", "Katrín"],
           ["Jónsson", "Sigurðardóttir", "Gunnarsson", "Magnúsdóttir"], ["simnet.is", "gmail.com"]),
    "ee": (["Kristjan", "Liis", "Rasmus", "Kadri", "Mart", "Triin"],
           ["Tamm", "Saar", "Sepp", "Mägi", "Kask", "Rebane"], ["mail.ee", "hot.ee"]),
    "cz": (["Jan", "Tereza", "Petr", "Kateřina", "Ondřej", "Lucie"],
           ["Novák", "Svoboda", "Dvořák", "Černý", "Procházka"], ["seznam.cz", "email.cz", "centrum.cz"]),
    "ro": (["Andrei", "Ioana", "Mihai", "Elena", "Radu", "Alexandra"],
           ["Popescu", "Ionescu", "Popa", "Dumitru", "Stan", "Constantinescu"], ["yahoo.ro", "gmail.com"]),
    "bg": (["Georgi", "Maria", "Dimitar", "Elena", "Ivan", "Desislava"],
           ["Ivanov", "Petrova", "Georgiev", "Dimitrova", "Nikolov"], ["abv.bg", "mail.bg"]),
    "hr": (["Luka", "Ana", "Ivan", "Petra", "Marko", "Lucija"],
           ["Horvat", "Kovačević", "Babić", "Marić", "Jurić"], ["net.hr", "t-com.hr"]),
    "ch": (["Noah", "Lea", "Luca", "Lina", "Elias", "Mia"],
           ["Müller", "Meier", "Schmid", "Keller", "Weber", "Huber"], ["bluewin.ch", "gmx.ch", "sunrise.ch"]),
    "ie": (["Seán", "Aoife", "Conor", "Ciara", "Cian", "Siobhán"],
           ["Murphy", "Kelly", "O'Sullivan", "Walsh", "Byrne", "Ryan"], ["eircom.net", "gmail.com"]),
    "br": (["Gabriel", "Ana", "Rafael", "Juliana", "Thiago", "Larissa"],
           ["Silva", "Souza", "Oliveira", "Lima", "Carvalho", "Almeida"], ["uol.com.br", "bol.com.br", "gmail.com", "terra.com.br"]),
    "ar": (["Santiago", "Valentina", "Matías", "Camila", "Facundo", "Florencia"],
           ["González", "Rodríguez", "Fernández", "Gómez", "Díaz"], ["fibertel.com.ar", "hotmail.com.ar", "gmail.com"]),
    "cl": (["Benjamín", "Isidora", "Vicente", "Catalina", "Tomás", "Antonia"],
           ["Muñoz", "Rojas", "Díaz", "Soto", "Contreras"], ["vtr.net", "gmail.com"]),
    "mx": (["Juan", "María", "Luis", "Ana", "Carlos", "Sofía"],
           ["Hernández", "García", "Martínez", "López", "Ramírez"], ["prodigy.net.mx", "hotmail.com", "gmail.com"]),
    "ca": (["Liam", "Emma", "Noah", "Chloé", "Ethan", "Maya"],
           ["Tremblay", "Gagnon", "Roy", "MacDonald", "Campbell", "Bouchard"], ["rogers.com", "shaw.ca", "videotron.ca", "sympatico.ca"]),
    "au": (["Jack", "Charlotte", "Riley", "Matilda", "Cooper", "Zoe"],
           ["Smith", "Mitchell", "Kelly", "O'Brien", "Harrison", "Nguyen"], ["bigpond.com", "optusnet.com.au", "iinet.net.au"]),
    "in": (["Aarav", "Ananya", "Rohan", "Priya", "Vikram", "Sneha"],
           ["Sharma", "Iyer", "Reddy", "Nair", "Gupta", "Banerjee"], ["gmail.com", "rediffmail.com", "yahoo.co.in"]),
    "cn": (["Wei", "Fang", "Lei", "Jing", "Hao", "Xiu"],
           ["Wang", "Li", "Zhang", "Liu", "Chen", "Yang"], ["qq.com", "163.com", "126.com", "sina.com"]),
    "jp": (["Haruto", "Yui", "Sota", "Aoi", "Ren", "Sakura"],
           ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito"], ["docomo.ne.jp", "yahoo.co.jp", "ezweb.ne.jp", "gmail.com"]),
    "kr": (["Minjun", "Seoyeon", "Jiho", "Hayoon", "Dohyun", "Jiwoo"],
           ["Kim", "Lee", "Park", "Choi", "Jung", "Kang"], ["naver.com", "daum.net", "kakao.com"]),
    "hk": (["Chun", "Wing", "Kayan", "Tszhin", "Mei", "Kwok"],
           ["Chan", "Wong", "Leung", "Cheung", "Lau", "Ho"], ["netvigator.com", "gmail.com"]),
    "sg": (["Weiming", "Huimin", "Arjun", "Nurul", "Junjie", "Siti"],
           ["Tan", "Lim", "Lee", "Ng", "Ong", "Rahman"], ["singnet.com.sg", "gmail.com"]),
    "il": (["Noam", "Tamar", "Yonatan", "Noa", "Itai", "Maya"],
           ["Cohen", "Levi", "Mizrahi", "Peretz", "Biton", "Friedman"], ["walla.co.il", "bezeqint.net", "gmail.com"]),
    "tr": (["Emre", "Zeynep", "Burak", "Elif", "Mehmet", "Ayşe"],
           ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Öztürk"], ["hotmail.com.tr", "gmail.com", "yandex.com.tr"]),
    "za": (["Thabo", "Naledi", "Sipho", "Lerato", "Pieter", "Anika"],
           ["Nkosi", "Dlamini", "van der Merwe", "Botha", "Mokoena", "Naidoo"], ["mweb.co.za", "telkomsa.net", "gmail.com"]),
    "tw": (["Yuting", "Chiahao", "Peishan", "Wenchieh", "Hsinyi"],
           ["Chen", "Lin", "Huang", "Chang", "Wu"], ["gmail.com", "yahoo.com.tw", "ms1.hinet.net"]),
    "th": (["Somchai", "Nattaya", "Kittipong", "Siriporn", "Anan", "Ploy"],
           ["Saetang", "Srisuk", "Wongsawat", "Chaiyaporn", "Rattanakorn"], ["gmail.com", "hotmail.co.th"]),
    "si": (["Luka", "Nika", "Jan", "Eva", "Žiga", "Maja"],
           ["Novak", "Horvat", "Krajnc", "Kovačič", "Zupančič"], ["siol.net", "gmail.com"]),
    "lt": (["Lukas", "Emilija", "Jonas", "Gabija", "Matas", "Austėja"],
           ["Kazlauskas", "Jankauskas", "Petrauskas", "Stankevičius", "Vasiliauskas"], ["gmail.com", "one.lt"]),
    "at": (["Maximilian", "Anna", "David", "Laura", "Florian", "Lena"],
           ["Gruber", "Huber", "Bauer", "Wagner", "Pichler", "Steiner"], ["aon.at", "chello.at", "gmx.at"]),
    "ru": (["Dmitry", "Anastasia", "Sergey", "Olga", "Pavel", "Yulia"],
           ["Ivanov", "Smirnova", "Kuznetsov", "Popova", "Sokolov"], ["mail.ru", "yandex.ru", "bk.ru"]),
}
PHONE_CC = {"us": "us", "uk": "uk", "de": "de", "fr": "fr", "es": "es", "it": "it", "nl": "nl", "be": None, "pl": "pl",
            "pt": "pt", "se": "se", "no": None, "dk": None, "fi": None, "is": None, "ee": None, "cz": None,
            "ro": None, "bg": None, "hr": None, "ch": "ch", "ie": "ie", "br": "br", "ar": "ar", "cl": None,
            "mx": "mx", "ca": "ca", "au": "au", "in": "in", "cn": "cn", "jp": "jp", "kr": "kr", "hk": "hk",
            "sg": "sg", "il": "il", "tr": "tr", "za": "za", "tw": None, "th": None, "si": None, "lt": None,
            "at": None, "ru": "ru"}
_GENERIC_CC = {"be": ("+32", 9), "no": ("+47", 8), "dk": ("+45", 8), "fi": ("+358", 9), "is": ("+354", 7),
               "ee": ("+372", 8), "cz": ("+420", 9), "ro": ("+40", 9), "bg": ("+359", 9), "hr": ("+385", 9),
               "cl": ("+56", 9), "tw": ("+886", 9), "th": ("+66", 9), "si": ("+386", 8), "lt": ("+370", 8),
               "at": ("+43", 10)}


def phone_for(loc):
    cc = PHONE_CC.get(loc)
    if cc:
        return gen_phone(cc)
    pre, n = _GENERIC_CC[loc]
    lead = {"be": "4", "no": "9", "dk": "2", "fi": "4", "is": "6", "ee": "5", "cz": "6", "ro": "7", "bg": "8",
            "hr": "9", "cl": "9", "tw": "9", "th": "8", "si": "4", "lt": "6", "at": "6"}[loc]
    num = lead + rs(DG, n - 1)
    if coin(0.5):
        return f"{pre} {num[:3]} {num[3:6]} {num[6:]}".rstrip()
    return f"{pre}{num}"


COMPANY_DOMAINS = ["hollowbrook-analytics.com", "kestrelfreight.co.uk", "nordwind-logistik.de", "fromagerie-vallet.fr",
                   "tanaka-seiko.co.jp", "pinecrest-dental.com", "bluefinch.io", "larkspur-legal.com",
                   "ostrava-strojirny.cz", "vinhedos-alto.com.br", "maplegrove-clinic.ca", "sundara-textiles.in",
                   "fjellsport.no", "helios-energia.es", "quokka-labs.com.au", "brightwater-hr.ie", "zeitraum.at",
                   "harborline.app", "gruenfeld-bau.ch", "copperleaf.dev", "mistral-voyages.fr", "kiwano.co"]


class Person:
    def __init__(self, loc=None):
        self.loc = loc or ch(list(LOCALES))
        firsts, lasts, doms = LOCALES[self.loc]
        self.first = ch(firsts)
        self.last = ch(lasts)
        self.name = f"{self.first} {self.last}"
        f, l = fold(self.first).lower(), fold(self.last).lower().replace(" ", "").replace("'", "")
        style = ri(0, 6)
        local = [f"{f}.{l}", f"{f[0]}{l}", f"{f}_{l}", f"{f}{l}{ri(1, 99)}", f"{l}.{f}", f"{f}.{l}+{ch(['shop', 'news', 'bank', 'work', 'git'])}",
                 f"{f}{ri(1970, 2005)}"][style]
        self.email = local + "@" + (ch(doms) if coin(0.7) else ch(COMPANY_DOMAINS))
        self._phone = None

    @property
    def phone(self):
        if self._phone is None:
            self._phone = phone_for(self.loc)
        return self._phone


LOCALE_IDS = {"us": ["ssn"], "uk": ["uk_nino"], "de": ["de_tax_id"], "fr": ["fr_nir"], "es": ["es_dni", "es_nie"],
              "it": ["it_codice_fiscale"], "nl": ["nl_bsn"], "be": ["be_nrn"], "pl": ["pl_pesel"], "pt": ["pt_nif"],
              "se": ["se_personnummer"], "no": ["no_fnr"], "dk": ["dk_cpr"], "fi": ["fi_hetu"],
              "is": ["is_kennitala"], "ee": ["ee_ik"], "cz": ["cz_rc"], "ro": ["ro_cnp"], "bg": ["bg_egn"],
              "hr": ["hr_oib"], "ch": ["ch_ahv"], "ie": ["ie_ppsn"], "br": ["br_cpf"], "ar": ["ar_cuit"],
              "cl": ["cl_rut"], "mx": ["mx_curp"], "ca": ["ca_sin"], "au": ["au_tfn"], "in": ["in_pan", "aadhaar"],
              "cn": ["cn_ric"], "jp": ["jp_my_number"], "kr": ["kr_rrn"], "hk": ["hk_hkid"], "sg": ["sg_nric"],
              "il": ["il_tz"], "tr": ["tr_tckn"], "za": ["za_id"], "tw": ["tw_national_id"],
              "th": ["th_national_id"], "si": ["si_emso"], "lt": ["lt_asmens_kodas"], "at": ["at_svnr"]}
ID_LOCALE = {k: loc for loc, ks in LOCALE_IDS.items() for k in ks}

ID_GEN = {"ssn": gen_ssn, "uk_nino": gen_uk_nino, "de_tax_id": gen_de_tax_id, "fr_nir": gen_fr_nir,
          "es_dni": gen_es_dni, "es_nie": gen_es_nie, "it_codice_fiscale": gen_it_cf, "nl_bsn": gen_nl_bsn,
          "be_nrn": gen_be_nrn, "pl_pesel": gen_pl_pesel, "pt_nif": gen_pt_nif, "se_personnummer": gen_se_pnr,
          "no_fnr": gen_no_fnr, "dk_cpr": gen_dk_cpr, "fi_hetu": gen_fi_hetu, "is_kennitala": gen_is_kt,
          "ee_ik": gen_ee_ik, "cz_rc": gen_cz_rc, "ro_cnp": gen_ro_cnp, "bg_egn": gen_bg_egn, "hr_oib": gen_hr_oib,
          "ch_ahv": gen_ch_ahv, "ie_ppsn": gen_ie_ppsn, "br_cpf": gen_br_cpf, "ar_cuit": gen_ar_cuit,
          "cl_rut": gen_cl_rut, "mx_curp": gen_mx_curp, "ca_sin": gen_ca_sin, "au_tfn": gen_au_tfn,
          "in_pan": gen_in_pan, "aadhaar": gen_aadhaar, "cn_ric": gen_cn_ric, "jp_my_number": gen_jp_my_number,
          "kr_rrn": gen_kr_rrn, "hk_hkid": gen_hk_hkid, "sg_nric": gen_sg_nric, "il_tz": gen_il_tz,
          "tr_tckn": gen_tr_tckn, "za_id": gen_za_id, "tw_national_id": gen_tw_id, "th_national_id": gen_th_id,
          "si_emso": gen_si_emso, "lt_asmens_kodas": gen_lt_ak, "at_svnr": gen_at_svnr}

ID_FIELD = {"ssn": ["SSN", "ssn", "Social Security No."], "uk_nino": ["NI number", "NINO", "national_insurance_no"],
            "de_tax_id": ["Steuer-ID", "Steuerliche IdNr.", "steuer_id"], "fr_nir": ["N° sécu", "NIR", "numero_ss"],
            "es_dni": ["DNI", "dni", "Documento"], "es_nie": ["NIE", "nie"],
            "it_codice_fiscale": ["Codice fiscale", "CF", "codice_fiscale"], "nl_bsn": ["BSN", "bsn", "Burgerservicenummer"],
            "be_nrn": ["Rijksregisternummer", "N° national", "rrn"], "pl_pesel": ["PESEL", "pesel"],
            "pt_nif": ["NIF", "nif", "Contribuinte"], "se_personnummer": ["Personnummer", "pnr"],
            "no_fnr": ["Fødselsnummer", "fnr"], "dk_cpr": ["CPR-nr.", "cpr"], "fi_hetu": ["Henkilötunnus", "hetu"],
            "is_kennitala": ["Kennitala", "kt"], "ee_ik": ["Isikukood", "isikukood"], "cz_rc": ["Rodné číslo", "rc"],
            "ro_cnp": ["CNP", "cnp"], "bg_egn": ["ЕГН", "egn"], "hr_oib": ["OIB", "oib"],
            "ch_ahv": ["AHV-Nr.", "AVS", "ahv_nr"], "ie_ppsn": ["PPSN", "PPS No."], "br_cpf": ["CPF", "cpf"],
            "ar_cuit": ["CUIT", "cuit", "CUIL"], "cl_rut": ["RUT", "rut"], "mx_curp": ["CURP", "curp"],
            "ca_sin": ["SIN", "NAS", "sin"], "au_tfn": ["TFN", "tax_file_number"], "in_pan": ["PAN", "pan_no"],
            "aadhaar": ["Aadhaar", "aadhaar_no", "UID"], "cn_ric": ["身份证号", "id_card_no"],
            "jp_my_number": ["マイナンバー", "my_number", "個人番号"], "kr_rrn": ["주민등록번호", "rrn"],
            "hk_hkid": ["HKID", "身份證號碼", "hkid"], "sg_nric": ["NRIC", "NRIC/FIN", "nric"],
            "il_tz": ["ת.ז.", "teudat_zehut", "ID"], "tr_tckn": ["TC Kimlik No", "tckn", "T.C. No"],
            "za_id": ["ID Number", "sa_id", "RSA ID"], "tw_national_id": ["身分證字號", "national_id"],
            "th_national_id": ["เลขประจำตัวประชาชน", "citizen_id"], "si_emso": ["EMŠO", "emso"],
            "lt_asmens_kodas": ["Asmens kodas", "ak"], "at_svnr": ["SV-Nummer", "SVNR", "sozialversicherungsnummer"]}

ID_SENT = {
    "ssn": ["my SSN is {v}, please update the W-9 on file", "SSN on the application: {v}",
            "Hi, for the background check the social is {v}."],
    "uk_nino": ["My National Insurance number is {v} if HR needs it.", "NI no. {v} - starter checklist attached"],
    "de_tax_id": ["Meine Steuer-ID lautet {v}, bitte für die Lohnabrechnung hinterlegen.",
                  "Hallo, hier meine steuerliche Identifikationsnummer: {v}"],
    "fr_nir": ["Bonjour, mon numéro de sécurité sociale est le {v}.", "Mon NIR : {v} (pour la mutuelle)"],
    "es_dni": ["Hola, mi DNI es {v} para la factura.", "Te paso mi DNI: {v}"],
    "es_nie": ["Mi NIE es {v}, lo necesitan para el contrato de alquiler.", "NIE del nuevo empleado: {v}"],
    "it_codice_fiscale": ["Il mio codice fiscale è {v}, grazie.", "Ciao, ti giro il CF per la fattura: {v}"],
    "nl_bsn": ["Mijn BSN is {v}, kunnen jullie dat aanpassen?", "BSN van de nieuwe medewerker: {v}"],
    "be_nrn": ["Mijn rijksregisternummer is {v}.", "Mon numéro de registre national : {v}"],
    "pl_pesel": ["Mój PESEL to {v}, proszę o wystawienie faktury.", "Dzień dobry, podaję numer PESEL: {v}"],
    "pt_nif": ["O meu NIF é {v}, pode pôr na fatura?", "NIF para faturação: {v}"],
    "se_personnummer": ["Mitt personnummer är {v}.", "Hej! Personnumret är {v}, tack."],
    "no_fnr": ["Fødselsnummeret mitt er {v}.", "Hei, her er fødselsnr: {v}"],
    "dk_cpr": ["Mit CPR-nummer er {v}.", "Hej, CPR: {v} – til lønsedlen"],
    "fi_hetu": ["Henkilötunnukseni on {v}.", "Moi, hetu on {v} jos tarvitsette sen."],
    "is_kennitala": ["Kennitalan mín er {v}.", "Góðan dag, kt. {v}"],
    "ee_ik": ["Minu isikukood on {v}.", "Tere! Isikukood: {v}"],
    "cz_rc": ["Moje rodné číslo je {v}.", "Dobrý den, rodné číslo: {v}"],
    "ro_cnp": ["CNP-ul meu este {v}.", "Bună ziua, vă trimit CNP: {v}"],
    "bg_egn": ["Моето ЕГН е {v}.", "Здравейте, ЕГН: {v}"],
    "hr_oib": ["Moj OIB je {v}.", "Pozdrav, OIB za račun: {v}"],
    "ch_ahv": ["Meine AHV-Nummer ist {v}.", "Mon numéro AVS est le {v}."],
    "ie_ppsn": ["My PPS number is {v}.", "PPSN for payroll: {v}"],
    "br_cpf": ["Meu CPF é {v}, pode colocar na nota?", "Oi! Segue o CPF: {v}"],
    "ar_cuit": ["Mi CUIT es {v}, para la factura A.", "CUIT del proveedor: {v}"],
    "cl_rut": ["Mi RUT es {v}.", "Hola, el RUT para la boleta es {v}"],
    "mx_curp": ["Mi CURP es {v}, ¿la necesitan para el alta?", "CURP del trabajador: {v}"],
    "ca_sin": ["My SIN is {v} for the T4.", "Mon NAS est le {v}."],
    "au_tfn": ["My TFN is {v} - please update the super form.", "TFN: {v}"],
    "in_pan": ["My PAN is {v}, please add it for TDS.", "PAN card no. {v}"],
    "aadhaar": ["मेरा आधार नंबर {v} है।", "Aadhaar for KYC: {v}"],
    "cn_ric": ["我的身份证号是{v}，麻烦登记一下。", "身份证号码：{v}"],
    "jp_my_number": ["私のマイナンバーは{v}です。", "マイナンバー：{v} よろしくお願いします"],
    "kr_rrn": ["제 주민등록번호는 {v}입니다.", "주민번호: {v}"],
    "hk_hkid": ["我的身份證號碼是 {v}", "HKID: {v}, thanks"],
    "sg_nric": ["My NRIC is {v}.", "NRIC for the tenancy agreement: {v}"],
    "il_tz": ["מספר תעודת הזהות שלי הוא {v}", "ת.ז. {v} בבקשה לעדכן"],
    "tr_tckn": ["TC kimlik numaram {v}.", "Merhaba, T.C. kimlik no: {v}"],
    "za_id": ["My ID number is {v}.", "Please FICA with ID {v}"],
    "tw_national_id": ["我的身分證字號是{v}", "身分證字號：{v}"],
    "th_national_id": ["เลขบัตรประชาชนของฉันคือ {v}", "เลขประจำตัวประชาชน {v} ค่ะ"],
    "si_emso": ["Moja EMŠO je {v}.", "EMŠO: {v}"],
    "lt_asmens_kodas": ["Mano asmens kodas yra {v}.", "Asmens kodas: {v}"],
    "at_svnr": ["Meine Sozialversicherungsnummer lautet {v}.", "SV-Nr.: {v}"],
}

# ---------------------------------------------------------------- passwords
WORDS = ["copper", "violin", "orbit", "maple", "harbor", "falcon", "quartz", "ember", "lantern", "glacier", "saffron",
         "tundra", "velvet", "meadow", "cobalt", "thistle", "juniper", "pebble", "nimbus", "otter", "raven",
         "sprocket", "walnut", "zephyr", "bramble", "cinder", "fjord", "garnet", "hollow", "indigo", "kestrel",
         "lagoon", "marble", "nectar", "onyx", "pylon", "quiver", "rustic", "sable", "tinsel", "umber", "vortex",
         "willow", "yonder", "biscuit", "paprika", "anchor", "gizmo", "turnip", "mango"]
SEASONS = ["Summer", "Winter", "Herbst", "Sommer", "Primavera", "Verano", "Automne", "Zima", "Lato", "Invierno",
           "Kevät", "Inverno", "Printemps"]
SYM = "!@#%^*-_=+?"


def gen_password(safe="plain"):
    if safe == "url":
        st = ri(0, 2)
        if st == 0:
            return rs(ALNUM, ri(14, 26))
        if st == 1:
            return ch(WORDS).capitalize() + ch("-_~") + ch(WORDS) + str(ri(10, 9999))
        return rs(ALNUM, 8) + ch("-_") + rs(ALNUM, 10)
    st = ri(0, 8)
    if st == 0:
        while True:
            p = ch(ALNUM) + rs(ALNUM + SYM, ri(13, 22)) + ch(ALNUM)
            if any(c in SYM for c in p) and any(c.isdigit() for c in p):
                return p
    if st == 1:
        return ch(WORDS).capitalize() + ch(SYM) + str(ri(10, 9999))
    if st == 2:
        return ch(WORDS).capitalize() + ch(["_", "-", ""]) + ch(WORDS).capitalize() + str(ri(1, 99)) + ch("!?#*")
    if st == 3:
        return "-".join(ch(WORDS) for _ in range(ri(3, 4))) + "-" + str(ri(1, 99))
    if st == 4:
        w = ch(WORDS)
        leet = w.translate(str.maketrans("aeiost", "4310$7"))
        return leet.capitalize() + ch("!@#") + str(ri(1, 999))
    if st == 5:
        return ch(SEASONS) + str(ri(2019, 2025)) + ch("!#$*.")[:1].replace(".", "!")
    if st == 6:
        return rs(ALNUM, ri(16, 32))
    if st == 7:
        return ch(["Contraseña", "Passwörter", "Mot2Passe", "Çilek", "Ñandú", "Göteborg", "Kødpølse"]) + str(ri(10, 99)) + ch("!#?")
    return ch(UP) + rs(LO, ri(4, 7)) + str(ri(1000, 99999)) + ch(SYM)


# ---------------------------------------------------------------- token generators
_B62 = DG + UP + LO


def _b62(n, width):
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = _B62[r] + out
    return out.rjust(width, "0")


def gen_github():
    t = ri(0, 9)
    if t <= 5:
        pre = ch(["ghp_", "ghp_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"])
        body = rs(ALNUM, 30)
        return pre + body + _b62(zlib.crc32(body.encode()), 6)
    return "github_pat_11" + rs(UP + DG, 20) + "_" + rs(ALNUM, 59)


def gen_gitlab():
    t = ri(0, 9)
    if t <= 5:
        return "glpat-" + rs(ALNUMX, 20)
    if t == 6:
        return "glpat-" + rs(ALNUMX, 27) + ".01." + rs(LO + DG, 9)
    if t == 7:
        return "glrt-" + rs(ALNUMX, 20)
    if t == 8:
        return "gldt-" + rs(ALNUMX, 20)
    return "glptt-" + rs(HEX, 40)


def gen_openai():
    t = ri(0, 5)
    mid = "T3BlbkFJ"
    if t <= 2:
        return "sk-proj-" + rs(ALNUMX, 74) + mid + rs(ALNUMX, 74)
    if t == 3:
        return "sk-" + rs(ALNUM, 20) + mid + rs(ALNUM, 20)
    if t == 4:
        return "sk-svcacct-" + rs(ALNUMX, 74) + mid + rs(ALNUMX, 74)
    return "sk-admin-" + rs(ALNUMX, 58) + mid + rs(ALNUMX, 58)


def gen_slack():
    t = ri(0, 2)
    if t == 0:
        return f"xoxb-{rs(DG, ri(10, 13))}-{rs(DG, ri(10, 13))}-{rs(ALNUM, 24)}"
    if t == 1:
        return f"xoxp-{rs(DG, 11)}-{rs(DG, 11)}-{rs(DG, 13)}-{rs(HEX, 32)}"
    return f"xapp-1-A{rs(UP + DG, 10)}-{rs(DG, 13)}-{rs(HEX, 64)}"


def gen_jwt(alg=None, payload=None):
    alg = alg or ch(["HS256", "RS256", "ES256", "HS512"])
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and coin():
        hdr["kid"] = rs(ALNUMX, ch([16, 27, 40]))
    now = ri(1704067200, 1767225600)
    if payload is None:
        payload = ch([
            {"sub": rs(DG, 9), "iat": now, "exp": now + 3600, "scope": "read:orders write:orders"},
            {"iss": "https://auth.harborline.app/", "sub": "auth0|" + rs(HEX, 24), "aud": "api.harborline.app", "iat": now, "exp": now + 86400},
            {"user_id": ri(1000, 99999), "role": ch(["admin", "editor", "viewer"]), "iat": now, "exp": now + 900},
            {"iss": "supabase", "ref": rs(LO, 20), "role": "service_role", "iat": now, "exp": now + 315360000},
            {"sub": uuid4(), "tenant": ch(["acme", "globex", "initech", "umbrella"]), "iat": now, "nbf": now, "exp": now + 7200},
        ])
    siglen = {"HS256": 43, "HS512": 86, "RS256": 342, "ES256": 86}[alg]
    return b64u(json.dumps(hdr, separators=(",", ":")).encode()) + "." + \
        b64u(json.dumps(payload, separators=(",", ":")).encode()) + "." + rs(ALNUMX, siglen)


def gen_onepassword():
    d = {"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
         "iterations": 650000, "salt": b64u(rbytes(16))}, "email": rs(LO + DG, 13) + "@1passwordserviceaccounts.com",
         "srpX": rs(HEX, 64), "muk": {"alg": "A256GCM", "ext": True, "k": b64u(rbytes(32)), "key_ops": ["encrypt", "decrypt"],
         "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + rs(UP + DG, 6) + "-" + rs(UP + DG, 6) + "-" + rs(UP + DG, 5) + "-" + rs(UP + DG, 5) + "-" + rs(UP + DG, 5) + "-" + rs(UP + DG, 5),
         "throttleSecret": {"seed": rs(HEX, 64), "uuid": rs(UP + DG, 26)}, "deviceUuid": rs(LO + DG, 26)}
    return "ops_" + b64u(json.dumps(d, separators=(",", ":")).encode())


def gen_grafana():
    if coin(0.6):
        return "glsa_" + rs(ALNUM, 32) + "_" + rs(HEX, 8)
    d = {"o": str(ri(100000, 999999)), "n": "stack-" + str(ri(100000, 999999)) + "-hm-read", "k": rs(ALNUM, 24),
         "m": {"r": ch(["prod-us-east-0", "prod-eu-west-2", "prod-ap-southeast-1"])}}
    return "glc_" + b64s(json.dumps(d, separators=(",", ":")).encode())


def gen_sentry():
    if coin(0.5):
        return "sntryu_" + rs(HEX, 64)
    d = {"iat": ri(1704067200, 1767225600) + 0.123, "url": "https://sentry.io", "region_url": "https://us.sentry.io",
         "org": ch(["harborline", "bluefinch", "copperleaf", "kiwano"])}
    return "sntrys_" + b64s(json.dumps(d, separators=(",", ":")).encode()).rstrip("=") + "_" + rs(ALNUM + "+/", 43)


def gen_mapbox():
    d = {"u": ch(["mkovacs", "geo-team", "harborline", "tanaka-s", "fleetops"]), "a": "cl" + rs(LO + DG, 23)}
    return "sk." + b64u(json.dumps(d, separators=(",", ":")).encode()) + "." + rs(ALNUMX, 22)


def gen_jfrog():
    if coin(0.5):
        return "AKCp" + ch("5678") + rs(ALNUM, 68)
    raw = f"reftkn:01:{ri(1767225600, 1830297600)}:{rs(ALNUM, 27)}"
    return b64s(raw.encode()).rstrip("=")


def gen_discord_token():
    uid = str(ri(10 ** 17, 13 * 10 ** 17))
    return b64s(uid.encode()).rstrip("=") + "." + rs(ALNUMX, 6) + "." + rs(ALNUMX, 38)


def gen_azure_sas_sig():
    return b64s(rbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def gen_twitter():
    return "A" * 22 + rs(ALNUM, 8) + "AAAAAA" + rs(ALNUM, 10) + "%2B" + rs(ALNUM, 12) + "%3D" + rs(ALNUM, 50)


DJ_CHARS = LO + DG + "!@#$%^*(-_=+)"


def gen_django():
    return ("django-insecure-" if coin(0.5) else "") + rs(DJ_CHARS, 50)


def gen_bearer():
    t = ri(0, 3)
    if t == 0:
        return rs(ALNUM, ri(32, 48))
    if t == 1:
        return rs(HEX, 64)
    if t == 2:
        return rs(ALNUMX, 43)
    return rs(ALNUM, 20) + "." + rs(ALNUMX, 30)


def gen_heroku():
    return "HRKU-AA" + rs(ALNUMX, 58) if coin(0.5) else uuid4()


def gen_vault():
    t = ri(0, 2)
    if t == 0:
        return "hvs.CAESI" + rs(ALNUMX, 86)
    if t == 1:
        return "hvs." + rs(ALNUM, 24)
    return "hvb.AAAAAQ" + rs(ALNUMX, 120)


AGE_ALPHA = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

TOKENS = {}


def T(kind, gen, env, svc, hdr=None, url=None):
    TOKENS[kind] = dict(gen=gen, env=env, svc=svc, hdr=hdr, url=url)


T("openai_key", gen_openai, ["OPENAI_API_KEY", "OPENAI_KEY"], "OpenAI", ("Authorization", "Bearer {v}"), "https://api.openai.com/v1/chat/completions")
T("anthropic_key", lambda: ch(["sk-ant-api03-", "sk-ant-api03-", "sk-ant-admin01-"]) + rs(ALNUMX, 93) + "AA",
  ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY"], "Anthropic", ("x-api-key", "{v}"), "https://api.anthropic.com/v1/messages")
T("github_token", gen_github, ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"], "GitHub", ("Authorization", "token {v}"), "https://api.github.com/repos/harborline/infra/actions/runs")
T("gitlab_token", gen_gitlab, ["GITLAB_TOKEN", "CI_JOB_TOKEN_OVERRIDE", "GL_TOKEN"], "GitLab", ("PRIVATE-TOKEN", "{v}"), "https://gitlab.com/api/v4/projects/48213377/pipelines")
T("aws_key", lambda: ch(["AKIA", "AKIA", "AKIA", "ASIA"]) + rs(B32U, 16), ["AWS_ACCESS_KEY_ID"], "AWS")
T("aws_secret", lambda: rs(ALNUM + "+/", 40), ["AWS_SECRET_ACCESS_KEY"], "AWS")
T("slack_token", gen_slack, ["SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_APP_TOKEN"], "Slack", ("Authorization", "Bearer {v}"), "https://slack.com/api/chat.postMessage")
T("slack_webhook", lambda: f"https://hooks.slack.com/services/T{rs(UP + DG, ri(8, 10))}/B{rs(UP + DG, ri(8, 10))}/{rs(ALNUM, 24)}",
  ["SLACK_WEBHOOK_URL", "SLACK_HOOK"], "Slack")
T("stripe_key", lambda: ch(["sk_live_51", "sk_live_51", "rk_live_51", "sk_test_51"]) + rs(ALNUM, 96) if coin(0.8) else "whsec_" + rs(ALNUM, 32),
  ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY"], "Stripe", ("Authorization", "Bearer {v}"), "https://api.stripe.com/v1/charges")
T("twilio_api_key", lambda: "SK" + rs(HEX, 32), ["TWILIO_API_KEY", "TWILIO_API_KEY_SID"], "Twilio")
T("sendgrid_key", lambda: "SG." + rs(ALNUMX, 22) + "." + rs(ALNUMX, 43), ["SENDGRID_API_KEY"], "SendGrid", ("Authorization", "Bearer {v}"), "https://api.sendgrid.com/v3/mail/send")
T("mailgun_key", lambda: "key-" + rs(HEX, 32) if coin() else rs(HEX, 32) + "-" + rs(HEX, 8) + "-" + rs(HEX, 8), ["MAILGUN_API_KEY"], "Mailgun")
T("mailchimp_key", lambda: rs(HEX, 32) + "-us" + str(ri(1, 21)), ["MAILCHIMP_API_KEY", "MC_API_KEY"], "Mailchimp")
T("brevo_key", lambda: ch(["xkeysib-", "xkeysib-", "xsmtpsib-"]) + rs(HEX, 64) + "-" + rs(ALNUM, 16), ["BREVO_API_KEY", "SENDINBLUE_API_KEY"], "Brevo", ("api-key", "{v}"), "https://api.brevo.com/v3/smtp/email")
T("huggingface_token", lambda: "hf_" + rs(UP + LO, 34), ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"], "Hugging Face", ("Authorization", "Bearer {v}"), "https://huggingface.co/api/whoami-v2")
T("replicate_token", lambda: "r8_" + rs(ALNUM, 37), ["REPLICATE_API_TOKEN"], "Replicate", ("Authorization", "Bearer {v}"), "https://api.replicate.com/v1/predictions")
T("groq_key", lambda: "gsk_" + rs(ALNUM, 52), ["GROQ_API_KEY"], "Groq", ("Authorization", "Bearer {v}"), "https://api.groq.com/openai/v1/chat/completions")
T("xai_key", lambda: "xai-" + rs(ALNUM, 80), ["XAI_API_KEY", "GROK_API_KEY"], "xAI", ("Authorization", "Bearer {v}"), "https://api.x.ai/v1/chat/completions")
T("openrouter_key", lambda: "sk-or-v1-" + rs(HEX, 64), ["OPENROUTER_API_KEY"], "OpenRouter", ("Authorization", "Bearer {v}"), "https://openrouter.ai/api/v1/chat/completions")
T("perplexity_key", lambda: "pplx-" + rs(ALNUM, 48), ["PERPLEXITY_API_KEY", "PPLX_API_KEY"], "Perplexity", ("Authorization", "Bearer {v}"), "https://api.perplexity.ai/chat/completions")
T("deepseek_key", lambda: "sk-" + rs(HEX, 32), ["DEEPSEEK_API_KEY"], "DeepSeek", ("Authorization", "Bearer {v}"), "https://api.deepseek.com/chat/completions")
T("mistral_key", lambda: rs(ALNUM, 32), ["MISTRAL_API_KEY"], "Mistral", ("Authorization", "Bearer {v}"), "https://api.mistral.ai/v1/chat/completions")
T("cohere_key", lambda: rs(ALNUM, 40), ["COHERE_API_KEY", "CO_API_KEY"], "Cohere", ("Authorization", "Bearer {v}"), "https://api.cohere.com/v2/chat")
T("elevenlabs_key", lambda: "sk_" + rs(HEX, 48), ["ELEVENLABS_API_KEY", "XI_API_KEY"], "ElevenLabs", ("xi-api-key", "{v}"), "https://api.elevenlabs.io/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM")
T("langsmith_key", lambda: ch(["lsv2_pt_", "lsv2_sk_"]) + rs(HEX, 32) + "_" + rs(HEX, 10), ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"], "LangSmith", ("x-api-key", "{v}"), "https://api.smith.langchain.com/runs")
T("langfuse_key", lambda: "sk-lf-" + uuid4(), ["LANGFUSE_SECRET_KEY"], "Langfuse")
T("wandb_key", lambda: rs(HEX, 40), ["WANDB_API_KEY"], "Weights & Biases")
T("pinecone_key", lambda: "pcsk_" + rs(ALNUM, ri(5, 6)) + "_" + rs(ALNUM, 63), ["PINECONE_API_KEY"], "Pinecone", ("Api-Key", "{v}"), "https://api.pinecone.io/indexes")
T("modal_token", lambda: ch(["ak-", "as-"]) + rs(ALNUM, 22), ["MODAL_TOKEN_SECRET", "MODAL_TOKEN_ID"], "Modal")
T("prefect_key", lambda: "pnu_" + rs(ALNUM, 36), ["PREFECT_API_KEY"], "Prefect", ("Authorization", "Bearer {v}"), "https://api.prefect.cloud/api/me/")
T("notion_token", lambda: "secret_" + rs(ALNUM, 43) if coin() else "ntn_" + rs(DG, 11) + rs(ALNUM, 35), ["NOTION_TOKEN", "NOTION_API_KEY"], "Notion", ("Authorization", "Bearer {v}"), "https://api.notion.com/v1/databases/query")
T("linear_key", lambda: "lin_api_" + rs(ALNUM, 40), ["LINEAR_API_KEY"], "Linear", ("Authorization", "{v}"), "https://api.linear.app/graphql")
T("airtable_token", lambda: "pat" + rs(ALNUM, 14) + "." + rs(HEX, 64), ["AIRTABLE_TOKEN", "AIRTABLE_API_KEY"], "Airtable", ("Authorization", "Bearer {v}"), "https://api.airtable.com/v0/appQ3kLm9vXyZ12ab/Orders")
T("asana_token", lambda: ("2/" + rs(DG, 16) + "/" + rs(DG, 16) + ":" + rs(HEX, 32)) if coin() else ("1/" + rs(DG, 16) + ":" + rs(HEX, 32)),
  ["ASANA_ACCESS_TOKEN", "ASANA_PAT"], "Asana", ("Authorization", "Bearer {v}"), "https://app.asana.com/api/1.0/users/me")
T("atlassian_token", lambda: "ATATT3xFfGF0" + rs(ALNUMX, 171) + "=" + rs(HEXU, 8), ["JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN", "CONFLUENCE_TOKEN"], "Atlassian")
T("bitbucket_token", lambda: "ATBB" + rs(ALNUM, 32) + rs(HEXU, 8), ["BITBUCKET_APP_PASSWORD", "BB_APP_PASSWORD"], "Bitbucket")
T("clickup_token", lambda: "pk_" + rs(DG, ri(6, 9)) + "_" + rs(UP + DG, 32), ["CLICKUP_API_TOKEN"], "ClickUp", ("Authorization", "{v}"), "https://api.clickup.com/api/v2/team")
T("trello_token", lambda: "ATTA" + rs(HEX, 64) + rs(HEXU, 8), ["TRELLO_TOKEN"], "Trello")
T("typeform_token", lambda: "tfp_" + rs(ALNUMX, 44) + "_" + rs(ALNUM, 14), ["TYPEFORM_TOKEN"], "Typeform", ("Authorization", "Bearer {v}"), "https://api.typeform.com/forms")
T("figma_token", lambda: "figd_" + rs(ALNUMX, 40), ["FIGMA_TOKEN", "FIGMA_ACCESS_TOKEN"], "Figma", ("X-Figma-Token", "{v}"), "https://api.figma.com/v1/files/Qx7rK2pLm0aB9cD3eF5gH1")
T("contentful_token", lambda: "CFPAT-" + rs(ALNUMX, 43), ["CONTENTFUL_MANAGEMENT_TOKEN", "CONTENTFUL_CMA_TOKEN"], "Contentful", ("Authorization", "Bearer {v}"), "https://api.contentful.com/spaces/q8xk2m1p0z/environments")
T("hubspot_token", lambda: "pat-" + ch(["na1", "eu1", "na2"]) + "-" + uuid4(), ["HUBSPOT_ACCESS_TOKEN", "HUBSPOT_PRIVATE_APP_TOKEN"], "HubSpot", ("Authorization", "Bearer {v}"), "https://api.hubapi.com/crm/v3/objects/contacts")
T("zoho_token", lambda: "1000." + rs(HEX, 32) + "." + rs(HEX, 32), ["ZOHO_REFRESH_TOKEN", "ZOHO_ACCESS_TOKEN"], "Zoho", ("Authorization", "Zoho-oauthtoken {v}"), "https://www.zohoapis.eu/crm/v5/Leads")
T("salesforce_token", lambda: "00D" + rs(ALNUM, 12) + "!AQ" + rs(ALNUM + "._", 94), ["SF_ACCESS_TOKEN", "SALESFORCE_TOKEN"], "Salesforce", ("Authorization", "Bearer {v}"), "https://harborline.my.salesforce.com/services/data/v60.0/sobjects/Account")
T("okta_token", lambda: "00" + rs(ALNUMX, 40), ["OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN"], "Okta", ("Authorization", "SSWS {v}"), "https://harborline.okta.com/api/v1/users?limit=25")
T("onepassword_token", gen_onepassword, ["OP_SERVICE_ACCOUNT_TOKEN"], "1Password")
T("supabase_token", lambda: "sbp_" + rs(HEX, 40), ["SUPABASE_ACCESS_TOKEN"], "Supabase", ("Authorization", "Bearer {v}"), "https://api.supabase.com/v1/projects")
T("vault_token", gen_vault, ["VAULT_TOKEN"], "Vault", ("X-Vault-Token", "{v}"), "https://vault.internal.harborline.app:8200/v1/secret/data/payments")
T("terraform_token", lambda: rs(ALNUM, 14) + ".atlasv1." + rs(ALNUM, 67), ["TF_TOKEN_app_terraform_io", "TFE_TOKEN", "ATLAS_TOKEN"], "Terraform Cloud", ("Authorization", "Bearer {v}"), "https://app.terraform.io/api/v2/organizations/harborline/workspaces")
T("pulumi_token", lambda: "pul-" + rs(HEX, 40), ["PULUMI_ACCESS_TOKEN"], "Pulumi", ("Authorization", "token {v}"), "https://api.pulumi.com/api/user")
T("doppler_token", lambda: ch(["dp.st.prd.", "dp.st.dev.", "dp.st.stg.", "dp.pt.", "dp.sa.", "dp.ct."]) + rs(ALNUM, ch([40, 43])), ["DOPPLER_TOKEN"], "Doppler", ("Authorization", "Bearer {v}"), "https://api.doppler.com/v3/configs/config/secrets/download?format=json")
T("buildkite_token", lambda: "bkua_" + rs(HEX, 40), ["BUILDKITE_API_TOKEN", "BUILDKITE_TOKEN"], "Buildkite", ("Authorization", "Bearer {v}"), "https://api.buildkite.com/v2/organizations/harborline/pipelines")
T("circleci_token", lambda: "CCIPAT_" + rs(ALNUM, 22) + "_" + rs(HEX, 40), ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"], "CircleCI", ("Circle-Token", "{v}"), "https://circleci.com/api/v2/me")
T("sonar_token", lambda: ch(["sqp_", "squ_", "sqa_"]) + rs(HEX, 40), ["SONAR_TOKEN"], "SonarQube")
T("sourcegraph_token", lambda: ("sgp_" + rs(HEX, 16) + "_" + rs(HEX, 40)) if coin() else "sgp_" + rs(HEX, 40), ["SRC_ACCESS_TOKEN"], "Sourcegraph", ("Authorization", "token {v}"), "https://sourcegraph.harborline.app/.api/graphql")
T("jfrog_token", gen_jfrog, ["JFROG_ACCESS_TOKEN", "ARTIFACTORY_API_KEY", "JF_ACCESS_TOKEN"], "JFrog", ("Authorization", "Bearer {v}"), "https://harborline.jfrog.io/artifactory/api/repositories")
T("npm_token", lambda: "npm_" + rs(ALNUM, 36), ["NPM_TOKEN", "NODE_AUTH_TOKEN"], "npm")
T("pypi_token", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(ALNUMX, ri(130, 170)), ["PYPI_API_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN"], "PyPI")
T("rubygems_key", lambda: "rubygems_" + rs(HEX, 48), ["GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"], "RubyGems")
T("nuget_key", lambda: "oy2" + rs(LO + DG, 43), ["NUGET_API_KEY"], "NuGet")
T("cratesio_token", lambda: "cio" + rs(ALNUM, 32), ["CARGO_REGISTRY_TOKEN"], "crates.io")
T("clojars_token", lambda: "CLOJARS_" + rs(HEX, 60), ["CLOJARS_DEPLOY_TOKEN", "CLOJARS_PASSWORD"], "Clojars")
T("dockerhub_token", lambda: "dckr_pat_" + rs(ALNUMX, 27), ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"], "Docker Hub")
T("heroku_key", gen_heroku, ["HEROKU_API_KEY"], "Heroku", ("Authorization", "Bearer {v}"), "https://api.heroku.com/apps")
T("netlify_token", lambda: "nfp_" + rs(ALNUM, 36), ["NETLIFY_AUTH_TOKEN"], "Netlify", ("Authorization", "Bearer {v}"), "https://api.netlify.com/api/v1/sites")
T("render_key", lambda: "rnd_" + rs(ALNUM, 32), ["RENDER_API_KEY"], "Render", ("Authorization", "Bearer {v}"), "https://api.render.com/v1/services?limit=20")
T("flyio_token", lambda: ("fm2_lJPE" + rs(ALNUM + "+/", ri(200, 280)) + "==") if coin(0.6) else "fo1_" + rs(ALNUMX, 43), ["FLY_API_TOKEN", "FLY_ACCESS_TOKEN"], "Fly.io")
T("digitalocean_token", lambda: ch(["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"]) + rs(HEX, 64), ["DIGITALOCEAN_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN"], "DigitalOcean", ("Authorization", "Bearer {v}"), "https://api.digitalocean.com/v2/droplets")
T("cloudflare_key", lambda: rs(HEX, 37), ["CLOUDFLARE_API_KEY", "CF_API_KEY"], "Cloudflare")
T("cloudflare_token", lambda: rs(ALNUMX, 40), ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"], "Cloudflare", ("Authorization", "Bearer {v}"), "https://api.cloudflare.com/client/v4/user/tokens/verify")
T("planetscale_token", lambda: ch(["pscale_tkn_", "pscale_pw_", "pscale_oauth_"]) + rs(ALNUMX, 43), ["PLANETSCALE_SERVICE_TOKEN", "PSCALE_TOKEN"], "PlanetScale")
T("tailscale_key", lambda: ch(["tskey-auth-", "tskey-auth-", "tskey-api-"]) + "k" + rs(ALNUM, 10) + "CNTRL-" + rs(ALNUM, 33), ["TS_AUTHKEY", "TAILSCALE_API_KEY"], "Tailscale")
T("ngrok_token", lambda: "2" + rs(ALNUM, 26) + "_" + rs(ALNUM, 21), ["NGROK_AUTHTOKEN"], "ngrok")
T("kubeadm_token", lambda: rs(LO + DG, 6) + "." + rs(LO + DG, 16), ["KUBEADM_TOKEN"], "kubeadm")
T("openshift_token", lambda: "sha256~" + rs(ALNUMX, 43), ["OPENSHIFT_TOKEN", "OC_TOKEN"], "OpenShift", ("Authorization", "Bearer {v}"), "https://api.ocp4.harborline.internal:6443/apis/project.openshift.io/v1/projects")
T("age_secret_key", lambda: "AGE-SECRET-KEY-1" + rs(AGE_ALPHA, 58), ["SOPS_AGE_KEY"], "age")
T("telegram_token", lambda: f"{ri(500000000, 7999999999)}:AA{rs(ALNUMX, 33)}", ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"], "Telegram")
T("discord_token", gen_discord_token, ["DISCORD_BOT_TOKEN", "DISCORD_TOKEN"], "Discord", ("Authorization", "Bot {v}"), "https://discord.com/api/v10/users/@me")
T("discord_webhook", lambda: f"https://{ch(['discord.com', 'discord.com', 'discordapp.com'])}/api/webhooks/{ri(10 ** 18, 14 * 10 ** 17)}/{rs(ALNUMX, 68)}", ["DISCORD_WEBHOOK_URL"], "Discord")
T("teams_webhook", lambda: f"https://{ch(['harborline', 'bluefinch', 'kestrelfreight', 'copperleafdev'])}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{rs(HEX, 32)}/{uuid4()}", ["TEAMS_WEBHOOK_URL"], "Microsoft Teams")
T("facebook_token", lambda: "EAA" + ch("BGIJ") + rs(ALNUM, ri(150, 190)), ["FB_ACCESS_TOKEN", "META_PAGE_TOKEN"], "Facebook")
T("fcm_server_key", lambda: "AAAA" + rs(ALNUMX, 7) + ":APA91b" + rs(ALNUMX, 134), ["FCM_SERVER_KEY", "FIREBASE_SERVER_KEY"], "Firebase Cloud Messaging", ("Authorization", "key={v}"), "https://fcm.googleapis.com/fcm/send")
T("google_api_key", lambda: "AIza" + rs(ALNUMX, 35), ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_API_KEY"], "Google", ("x-goog-api-key", "{v}"), "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent")
T("google_oauth_secret", lambda: "GOCSPX-" + rs(ALNUMX, 28), ["GOOGLE_CLIENT_SECRET"], "Google OAuth")
T("google_oauth_token", lambda: ("ya29." + ch(["a0A", "A0A", "a0Ad"]) + rs(ALNUMX, ri(150, 200))) if coin(0.7) else "1//0" + ch("cdegh") + rs(ALNUMX, 98), ["GOOGLE_ACCESS_TOKEN", "GOOGLE_REFRESH_TOKEN"], "Google", ("Authorization", "Bearer {v}"), "https://www.googleapis.com/drive/v3/files?pageSize=10")
T("twitter_bearer", gen_twitter, ["TWITTER_BEARER_TOKEN", "X_BEARER_TOKEN"], "X / Twitter", ("Authorization", "Bearer {v}"), "https://api.twitter.com/2/tweets/search/recent?query=harborline")
T("dropbox_token", lambda: "sl." + ch(["", "u."]) + ch("BC") + rs(ALNUMX, 136), ["DROPBOX_ACCESS_TOKEN"], "Dropbox", ("Authorization", "Bearer {v}"), "https://api.dropboxapi.com/2/files/list_folder")
T("mapbox_token", gen_mapbox, ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"], "Mapbox")
T("shopify_token", lambda: ch(["shpat_", "shpat_", "shpca_", "shppa_", "shpss_"]) + rs(HEX, 32), ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"], "Shopify", ("X-Shopify-Access-Token", "{v}"), "https://harborline-store.myshopify.com/admin/api/2024-10/orders.json")
T("square_token", lambda: ch(["EAAA" + rs(ALNUMX, 60), "sq0atp-" + rs(ALNUMX, 22), "sq0csp-" + rs(ALNUMX, 43)]), ["SQUARE_ACCESS_TOKEN"], "Square", ("Authorization", "Bearer {v}"), "https://connect.squareup.com/v2/locations")
T("braintree_token", lambda: "access_token$" + ch(["production", "sandbox"]) + "$" + rs(LO + DG, 16) + "$" + rs(HEX, 32), ["BRAINTREE_ACCESS_TOKEN"], "Braintree")
T("plaid_token", lambda: "access-" + ch(["sandbox", "production", "development"]) + "-" + uuid4(), ["PLAID_ACCESS_TOKEN"], "Plaid")
T("paystack_key", lambda: ch(["sk_live_", "sk_test_"]) + rs(HEX, 40), ["PAYSTACK_SECRET_KEY"], "Paystack", ("Authorization", "Bearer {v}"), "https://api.paystack.co/transaction/initialize")
T("flutterwave_key", lambda: ch(["FLWSECK-", "FLWSECK_TEST-"]) + rs(HEX, 32) + "-X", ["FLW_SECRET_KEY", "FLUTTERWAVE_SECRET_KEY"], "Flutterwave", ("Authorization", "Bearer {v}"), "https://api.flutterwave.com/v3/payments")
T("razorpay_key", lambda: ch(["rzp_live_", "rzp_test_"]) + rs(ALNUM, 14), ["RAZORPAY_KEY_ID"], "Razorpay")
T("mollie_key", lambda: ch(["live_", "test_"]) + rs(ALNUM, 30), ["MOLLIE_API_KEY"], "Mollie", ("Authorization", "Bearer {v}"), "https://api.mollie.com/v2/payments")
T("duffel_token", lambda: ch(["duffel_live_", "duffel_test_"]) + rs(ALNUMX, 43), ["DUFFEL_ACCESS_TOKEN"], "Duffel", ("Authorization", "Bearer {v}"), "https://api.duffel.com/air/offer_requests")
T("shippo_token", lambda: ch(["shippo_live_", "shippo_test_"]) + rs(HEX, 40), ["SHIPPO_API_TOKEN", "SHIPPO_TOKEN"], "Shippo", ("Authorization", "ShippoToken {v}"), "https://api.goshippo.com/shipments/")
T("easypost_key", lambda: ch(["EZAK", "EZTK"]) + rs(ALNUM, 54), ["EASYPOST_API_KEY"], "EasyPost")
T("woocommerce_key", lambda: ch(["ck_", "cs_"]) + rs(HEX, 40), ["WOOCOMMERCE_CONSUMER_SECRET", "WC_CONSUMER_KEY"], "WooCommerce")
T("resend_key", lambda: "re_" + rs(ALNUM, 8) + "_" + rs(ALNUM, 24), ["RESEND_API_KEY"], "Resend", ("Authorization", "Bearer {v}"), "https://api.resend.com/emails")
T("postman_key", lambda: "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34), ["POSTMAN_API_KEY"], "Postman", ("X-Api-Key", "{v}"), "https://api.getpostman.com/collections")
T("readme_key", lambda: "rdme_" + rs(LO + DG, 70), ["README_API_KEY"], "ReadMe")
T("infracost_key", lambda: "ico-" + rs(ALNUM, 32), ["INFRACOST_API_KEY"], "Infracost", ("X-Api-Key", "{v}"), "https://pricing.api.infracost.io/graphql")
T("frameio_token", lambda: "fio-u-" + rs(ALNUMX, 64), ["FRAMEIO_TOKEN"], "Frame.io", ("Authorization", "Bearer {v}"), "https://api.frame.io/v2/me")
T("launchdarkly_key", lambda: ch(["sdk-", "api-"]) + uuid4(), ["LAUNCHDARKLY_SDK_KEY", "LD_API_KEY"], "LaunchDarkly", ("Authorization", "{v}"), "https://app.launchdarkly.com/api/v2/flags/default")
T("honeycomb_key", lambda: ("hcaik_" + rs(LO + DG, 58)) if coin(0.6) else rs(ALNUM, 22), ["HONEYCOMB_API_KEY", "HONEYCOMB_WRITEKEY"], "Honeycomb", ("X-Honeycomb-Team", "{v}"), "https://api.honeycomb.io/1/auth")
T("new_relic_key", lambda: ch(["NRAK-" + rs(UP + DG, 27), rs(HEX, 36) + "NRAL", "NRII-" + rs(ALNUMX, 32)]), ["NEW_RELIC_API_KEY", "NEW_RELIC_LICENSE_KEY"], "New Relic", ("Api-Key", "{v}"), "https://api.newrelic.com/graphql")
T("dynatrace_token", lambda: "dt0c01." + rs(UP + DG, 24) + "." + rs(UP + DG, 64), ["DT_API_TOKEN", "DYNATRACE_API_TOKEN"], "Dynatrace", ("Authorization", "Api-Token {v}"), "https://abc12345.live.dynatrace.com/api/v2/metrics")
T("grafana_token", gen_grafana, ["GRAFANA_SERVICE_ACCOUNT_TOKEN", "GRAFANA_CLOUD_TOKEN"], "Grafana", ("Authorization", "Bearer {v}"), "https://harborline.grafana.net/api/dashboards/uid/ops-overview")
T("sentry_token", gen_sentry, ["SENTRY_AUTH_TOKEN"], "Sentry", ("Authorization", "Bearer {v}"), "https://sentry.io/api/0/projects/")
T("datadog_key", lambda: rs(HEX, ch([32, 40])), ["DD_API_KEY", "DATADOG_API_KEY", "DD_APP_KEY"], "Datadog", ("DD-API-KEY", "{v}"), "https://api.datadoghq.eu/api/v1/validate")
T("databricks_token", lambda: "dapi" + rs(HEX, 32) + ch(["", "", "-2", "-3"]), ["DATABRICKS_TOKEN"], "Databricks", ("Authorization", "Bearer {v}"), "https://adb-4821937465019283.3.azuredatabricks.net/api/2.0/clusters/list")
T("alibaba_key", lambda: "LTAI" + rs(ALNUM, ch([12, 16, 20])), ["ALIBABA_CLOUD_ACCESS_KEY_ID", "ALICLOUD_ACCESS_KEY"], "Alibaba Cloud")
T("tencent_key", lambda: "AKID" + rs(ALNUM, 32), ["TENCENTCLOUD_SECRET_ID"], "Tencent Cloud")
T("yandex_key", lambda: ("AQVN" + rs(ALNUMX, 36)) if coin(0.6) else "y0_" + rs(ALNUMX, 55), ["YC_API_KEY", "YANDEX_OAUTH_TOKEN"], "Yandex Cloud")
T("scalingo_token", lambda: "tk-us-" + rs(ALNUMX, 48), ["SCALINGO_API_TOKEN"], "Scalingo")
T("azure_client_secret", lambda: rs(ALNUM, 3) + ch(DG) + "Q~" + rs(ALNUM + "_.~-", 34), ["AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET"], "Azure AD")
T("azure_devops_token", lambda: rs(LO + "234567", 52) if coin() else rs(ALNUM, 76) + "AZDO" + rs(ALNUM, 4), ["AZURE_DEVOPS_PAT", "AZURE_DEVOPS_EXT_PAT", "SYSTEM_ACCESSTOKEN"], "Azure DevOps")
T("azure_storage_key", lambda: rs(ALNUM + "+/", 86) + "==", ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY"], "Azure Storage")
T("django_secret_key", gen_django, ["DJANGO_SECRET_KEY", "SECRET_KEY"], "Django")
T("bearer_token", gen_bearer, ["API_TOKEN", "ACCESS_TOKEN", "AUTH_TOKEN"], "internal API", ("Authorization", "Bearer {v}"), "https://api.internal.harborline.app/v2/shipments")
T("jwt", gen_jwt, ["JWT", "ID_TOKEN", "SUPABASE_SERVICE_ROLE_KEY", "SESSION_JWT"], "auth", ("Authorization", "Bearer {v}"), "https://api.harborline.app/v1/me")
# new labels (formats outside the existing vocabulary)
T("octopus_deploy_api_key", lambda: "API-" + rs(UP + DG, 26), ["OCTOPUS_API_KEY", "OCTOPUS_CLI_API_KEY"], "Octopus Deploy", ("X-Octopus-ApiKey", "{v}"), "https://harborline.octopus.app/api/spaces")
T("adafruit_api_key", lambda: "aio_" + rs(ALNUM, 28), ["ADAFRUIT_IO_KEY", "AIO_KEY"], "Adafruit IO", ("X-AIO-Key", "{v}"), "https://io.adafruit.com/api/v2/greenhouse_lab/feeds")
T("harness_api_key", lambda: ch(["pat.", "pat.", "sat."]) + rs(ALNUMX, 22) + "." + rs(ALNUM, 24) + "." + rs(ALNUM, 20), ["HARNESS_PLATFORM_API_KEY", "HARNESS_API_KEY"], "Harness", ("x-api-key", "{v}"), "https://app.harness.io/ng/api/projects?accountIdentifier=kmpySmUISimoRrJL6NL73w")
T("posthog_personal_key", lambda: "phx_" + rs(ALNUM, 43), ["POSTHOG_PERSONAL_API_KEY"], "PostHog", ("Authorization", "Bearer {v}"), "https://eu.posthog.com/api/projects/")
T("scaleway_key", lambda: "SCW" + rs(UP + DG, 17), ["SCW_ACCESS_KEY"], "Scaleway")
T("neon_api_key", lambda: "napi_" + rs(LO + DG, 64), ["NEON_API_KEY"], "Neon", ("Authorization", "Bearer {v}"), "https://console.neon.tech/api/v2/projects")

NEW_LABELS = {
    "tw_national_id": "Taiwan National ID (身分證字號): 1 letter + sex digit 1/2 + 7 digits + check digit (letter mapped to 2 digits, weights 1,9,8..1, mod 10)",
    "th_national_id": "Thai citizen ID: 13 digits, first 1-8, check = (11 - sum(d_i*(13-i)) mod 11) mod 10; often 1-2345-67890-12-3",
    "si_emso": "Slovenian EMŠO: DDMMYYY + region 50 + 3-digit serial + mod-11 check (weights 7..2,7..2)",
    "lt_asmens_kodas": "Lithuanian asmens kodas: G YYMMDD NNN C, 11 digits, two-pass mod-11 check (weights 1..9,1 / 3..9,1,2,3)",
    "at_svnr": "Austrian Sozialversicherungsnummer: 3-digit serial + check digit + DDMMYY, check = weighted sum (3,7,9,-,5,8,4,2,1,6) mod 11",
    "octopus_deploy_api_key": "Octopus Deploy API key: 'API-' + 26 uppercase alphanumerics",
    "adafruit_api_key": "Adafruit IO key: 'aio_' + 28 alphanumerics",
    "harness_api_key": "Harness PAT/SAT: 'pat.'|'sat.' + 22-char account id + '.' + 24-char token id + '.' + 20-char secret",
    "posthog_personal_key": "PostHog personal API key: 'phx_' + 43 alphanumerics",
    "scaleway_key": "Scaleway access key: 'SCW' + 17 uppercase alphanumerics",
    "neon_api_key": "Neon API key: 'napi_' + 64 lowercase alphanumerics",
}


# ---------------------------------------------------------------- naming helpers
def slug(s):
    return "".join(c if c.isalnum() else "_" for c in s.lower()).strip("_").replace("__", "_")


def camel(env):
    parts = env.lower().split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def keyname(env):
    st = ri(0, 5)
    if st <= 1:
        return env.lower()
    if st == 2:
        return camel(env)
    if st == 3:
        return env.lower().replace("_", "-")
    if st == 4:
        return env
    low = env.lower()
    for suf in ("api_key", "access_token", "secret_key", "token", "secret", "key", "password", "url"):
        if low.endswith(suf):
            return suf
    return low


def q_any():
    return ch(["", '"', "'"])


NAMESPACES = ["payments", "default", "prod", "staging", "platform", "data-eng", "growth", "ml-serving"]
SERVICES = ["api", "worker", "billing-svc", "notifier", "ingest", "scheduler", "webhooks", "etl-runner", "gateway"]
HOSTS = ["build-07.ci.harborline.internal", "ip-internal-runner-3", "gke-prod-pool-2-9f3c", "web-01.fra", "mbp-jkowalski",
         "ubuntu-s-2vcpu-4gb-ams3-01", "devbox-ana", "runner-x8dk2-project-4412"]


def clean_env_lines(n):
    pool = ["NODE_ENV=production", "PORT=8080", "LOG_LEVEL=debug", "DATABASE_POOL_SIZE=10",
            "REDIS_HOST=cache.internal.harborline.app", "FEATURE_FLAGS=checkout_v2,new_nav", "TZ=Europe/Berlin",
            "SENTRY_ENVIRONMENT=staging", f"APP_VERSION={ri(1, 4)}.{ri(0, 20)}.{ri(0, 9)}",
            f"BUILD_SHA={rs(HEX, 40)}", "CACHE_TTL=3600", "S3_BUCKET=harborline-assets-prod", "AWS_REGION=eu-central-1",
            "NEXT_PUBLIC_API_URL=https://api.harborline.app", "OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4317",
            f"DEPLOY_ID={uuid4()}", "WORKERS=4", "ENABLE_TELEMETRY=false", "PYTHONUNBUFFERED=1",
            "RAILS_MAX_THREADS=5", "GIN_MODE=release", "MAX_UPLOAD_MB=25", "DEFAULT_LOCALE=en-GB",
            "SMTP_HOST=smtp.eu.mailgun.org", "SMTP_PORT=587", "QUEUE_NAME=jobs-default"]
    return R.sample(pool, n)


def shell_prompt():
    return ch(["$ ", "$ ", "❯ ", f"{ch(['deploy', 'ubuntu', 'root', 'ana', 'ci'])}@{ch(HOSTS).split('.')[0]}:~/app$ ", "PS C:\\src\\app> ", "% "])


# ---------------------------------------------------------------- generic single-secret contexts
def c_dotenv(v, env, spec):
    lines = clean_env_lines(ri(2, 5))
    q = q_any()
    entry = f"{env}={q}{v}{q}"
    if coin(0.4):
        entry = f"# {spec['svc']} ({ch(['rotated', 'added', 'prod', 'temporary'])} {ri(2023, 2025)}-{ri(1, 12):02d}-{ri(1, 28):02d})\n" + entry
    lines.insert(ri(0, len(lines)), entry)
    head = ch(["", "$ cat .env\n", "$ cat .env.local\n", "# .env.production\n", "==> apps/api/.env <==\n", "cat > .env <<'EOF'\n"])
    tail = "\nEOF" if head.startswith("cat >") else ""
    return head + "\n".join(lines) + tail


def c_export(v, env, spec):
    q = ch(['"', "'", ""])
    cmd = ch(["python scripts/sync_contacts.py --dry-run", "npm run seed", "go run ./cmd/backfill", "make smoke-test",
              "terraform plan -out tf.plan", "./bin/worker --once", "pytest -k integration -x"])
    out = ch(["", "\nok: 3 items processed", "\nRunning 14 tests...", "\n[info] starting worker pid=48213"])
    return f"{shell_prompt()}export {env}={q}{v}{q}\n{shell_prompt()}{cmd}{out}"


def c_yaml(v, env, spec):
    k = keyname(env)
    q = ch(['"', "'", ""]) if all(c not in v for c in ":#{}[],&*!|>%@`") else '"'
    extra = ch(["  timeout_seconds: 30\n", "  retries: 3\n", "  region: eu-west-1\n", "  base_url: https://api.example-partner.net\n", ""])
    head = ch(["", "# config/settings.yaml\n", "--- \n", "config/production.yml:\n"])
    return f"{head}{slug(spec['svc'])}:\n  enabled: true\n  {k}: {q}{v}{q}\n{extra}".rstrip()


def c_toml(v, env, spec):
    k = keyname(env).replace("-", "_")
    extra = ch(['timeout = 30', 'region = "us-east-1"', 'verify_ssl = true', 'max_retries = 5'])
    return f"[{slug(spec['svc'])}]\n{k} = \"{v}\"\n{extra}"


def c_ini(v, env, spec):
    k = keyname(env)
    sep = ch([" = ", "=", ": "])
    return f"[{slug(spec['svc'])}]\n{k}{sep}{v}\n{ch(['endpoint', 'host', 'region'])}{sep}{ch(['eu-1', 'api.partner.net', 'us-east-2'])}"


def c_json(v, env, spec):
    k = camel(env) if coin() else keyname(env)
    d = {slug(spec["svc"]): {k: v, "timeout": ri(5, 60)}, "logLevel": ch(["info", "warn", "debug"])}
    if coin(0.5):
        d = {"name": ch(SERVICES), "version": f"{ri(0, 3)}.{ri(0, 12)}.{ri(0, 9)}", "integrations": d}
    return json.dumps(d, indent=ch([2, 4]), ensure_ascii=False)


def c_hcl(v, env, spec):
    k = env.lower()
    if coin():
        return f'variable "{k}" {{\n  type      = string\n  default   = "{v}"\n  sensitive = true\n}}'
    return f'# terraform.tfvars\n{k} = "{v}"\nregion = "{ch(["eu-west-1", "us-east-1", "ap-southeast-2"])}"'


def c_k8s_secret(v, env, spec):
    return (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {slug(spec['svc']).replace('_', '-')}-credentials\n"
            f"  namespace: {ch(NAMESPACES)}\ntype: Opaque\nstringData:\n  {env}: \"{v}\"")


def c_k8s_env(v, env, spec):
    return (f"    spec:\n      containers:\n        - name: {ch(SERVICES)}\n          image: ghcr.io/harborline/{ch(SERVICES)}:{ri(1, 3)}.{ri(0, 30)}.{ri(0, 9)}\n"
            f"          env:\n            - name: LOG_FORMAT\n              value: json\n            - name: {env}\n              value: \"{v}\"")


def c_dockerfile(v, env, spec):
    base, run, cmd = ch([("python:3.12-slim", "pip install --no-cache-dir -r requirements.txt", '["python", "-m", "app"]'),
                         ("node:20-alpine", "npm ci --omit=dev", '["node", "dist/server.js"]'),
                         ("golang:1.22", "go build -o /out/app ./cmd/app", '["/out/app"]'),
                         ("eclipse-temurin:21-jdk", "./gradlew bootJar --no-daemon", '["java", "-jar", "build/libs/app.jar"]'),
                         ("ruby:3.3", "bundle install --without development test", '["bundle", "exec", "puma"]')])
    kw = ch(["ENV", "ENV", "ARG"])
    return f"FROM {base}\nWORKDIR /app\nCOPY . .\n{kw} {env}={v}\nRUN {run}\nCMD {cmd}"


def c_docker_run(v, env, spec):
    return f"{shell_prompt()}docker run -d --name {ch(SERVICES)} -e {env}={v} -e LOG_LEVEL=info -p 8080:8080 ghcr.io/harborline/{ch(SERVICES)}:{ri(1, 3)}.{ri(0, 9)}.{ri(0, 9)}\n{rs(HEX, 64)}"


def c_compose(v, env, spec):
    svc = ch(SERVICES)
    if coin():
        return f"services:\n  {svc}:\n    image: harborline/{svc}:latest\n    environment:\n      - {env}={v}\n      - TZ=UTC\n    ports:\n      - \"8080:8080\""
    return f"services:\n  {svc}:\n    build: .\n    environment:\n      {env}: \"{v}\"\n      WORKERS: \"2\""


def c_gha(v, env, spec):
    return (f"name: deploy\non:\n  push:\n    branches: [main]\njobs:\n  release:\n    runs-on: ubuntu-latest\n    env:\n"
            f"      {env}: {v}\n    steps:\n      - uses: actions/checkout@v4\n      - run: make release")


def c_gitlab_ci(v, env, spec):
    return f"variables:\n  {env}: \"{v}\"\n  DOCKER_DRIVER: overlay2\n\ndeploy:\n  stage: deploy\n  script:\n    - ./scripts/deploy.sh"


def c_python(v, env, spec):
    st = ri(0, 4)
    k = env.lower()
    if st == 0:
        return f"import os\n\n{env} = os.getenv(\"{env}\", \"{v}\")\n"
    if st == 1:
        return f"# settings.py\n{k.upper()} = \"{v}\"  # TODO move to vault\nDEBUG = False"
    if st == 2:
        return f"client = {slug(spec['svc']).title().replace('_', '')}Client(\n    api_key=\"{v}\",\n    timeout=30,\n)"
    if st == 3:
        return f">>> import os\n>>> os.environ[\"{env}\"] = \"{v}\"\n>>> run_sync()\nsynced 42 records"
    return f"def test_client_auth(monkeypatch):\n    monkeypatch.setenv(\"{env}\", \"{v}\")\n    assert make_client().authenticated"


def c_js(v, env, spec):
    st = ri(0, 3)
    if st == 3 and spec["hdr"] is None:
        st = ri(0, 2)
    if st == 0:
        return f"const {camel(env)} = process.env.{env} ?? '{v}';\nexport default {{ {camel(env)} }};"
    if st == 1:
        return f"// config.ts\nexport const config = {{\n  {camel(env)}: \"{v}\",\n  retries: 3,\n}} as const;"
    if st == 2:
        return f"module.exports = {{\n  {slug(spec['svc'])}: {{ key: '{v}' }},\n}};"
    return f"const res = await fetch(url, {{\n  headers: {{ '{(spec['hdr'] or ('Authorization', 'Bearer {v}'))[0]}': `{(spec['hdr'] or ('Authorization', 'Bearer {v}'))[1].format(v=v)}` }},\n}});"


def c_go(v, env, spec):
    if coin():
        return f"package config\n\nconst {camel(env)[0].upper() + camel(env)[1:]} = \"{v}\"\n"
    return f"func init() {{\n\tif os.Getenv(\"{env}\") == \"\" {{\n\t\tos.Setenv(\"{env}\", \"{v}\")\n\t}}\n}}"


def c_rust(v, env, spec):
    if coin():
        return f"const {env}: &str = \"{v}\";"
    return f"let key = std::env::var(\"{env}\").unwrap_or_else(|_| \"{v}\".to_string());"


def c_java(v, env, spec):
    if coin():
        return f"# application.properties\n{slug(spec['svc']).replace('_', '.')}.{keyname(env).replace('_', '-').lower()}={v}\nserver.port=8081"
    return f"public final class Secrets {{\n    public static final String {env} = \"{v}\";\n    private Secrets() {{}}\n}}"


def c_csharp(v, env, spec):
    if coin():
        return json.dumps({"Logging": {"LogLevel": {"Default": "Information"}}, spec["svc"].replace(" ", ""): {camel(env)[0].upper() + camel(env)[1:]: v}}, indent=2, ensure_ascii=False)
    return f"var {camel(env)} = Environment.GetEnvironmentVariable(\"{env}\") ?? \"{v}\";"


def c_php(v, env, spec):
    if coin():
        return f"<?php\ndefine('{env}', '{v}');"
    return f"<?php\nreturn [\n    '{slug(spec['svc'])}' => [\n        'key' => env('{env}', '{v}'),\n    ],\n];"


def c_ruby(v, env, spec):
    if coin():
        return f"ENV['{env}'] ||= '{v}'"
    return f"{spec['svc'].replace(' ', '').replace('.', '').replace('/', '')}.configure do |config|\n  config.api_key = \"{v}\"\nend"


def c_kotlin(v, env, spec):
    return f"object Keys {{\n    const val {env} = \"{v}\"\n}}"


def c_swift(v, env, spec):
    return f"enum Secrets {{\n    static let {camel(env)} = \"{v}\"\n}}"


def c_elixir(v, env, spec):
    return f"config :harborline, {slug(spec['svc'])}:\n  {keyname(env).replace('-', '_').lower()}: System.get_env(\"{env}\", \"{v}\")"


def c_sql(v, env, spec):
    return f"INSERT INTO integration_credentials (provider, env, secret, created_at)\nVALUES ('{slug(spec['svc'])}', 'prod', '{v}', now());"


def c_curl(v, env, spec):
    hn, hv = spec["hdr"] or ("Authorization", "Bearer {v}")
    url = spec["url"] or "https://api.internal.harborline.app/v1/status"
    q = ch(['"', "'"])
    extra = ch(["", " -H 'Content-Type: application/json'", " -s", " -sS --fail"])
    resp = ch(['{"ok":true}', 'HTTP/2 200', '{"error":"rate_limited"}', ''])
    return f"{shell_prompt()}curl{extra} {url} \\\n  -H {q}{hn}: {hv.format(v=v)}{q}\n{resp}".rstrip()


def c_httpie(v, env, spec):
    hn, hv = spec["hdr"] or ("Authorization", "Bearer {v}")
    url = spec["url"] or "https://api.internal.harborline.app/v1/status"
    return f"{shell_prompt()}http GET {url} '{hn}:{hv.format(v=v)}'\nHTTP/1.1 200 OK\nContent-Type: application/json"


def c_log(v, env, spec):
    ts = f"2025-{ri(1, 12):02d}-{ri(1, 28):02d}T{ri(0, 23):02d}:{ri(0, 59):02d}:{ri(0, 59):02d}.{ri(0, 999):03d}Z"
    return ch([
        f"{ts} DEBUG [{ch(SERVICES)}] loaded credentials {env}={v}",
        f"{ts} WARN  {slug(spec['svc'])}.client: retrying request (attempt 2/5) token={v}",
        f"[{ts}] INFO  config: {{'{env.lower()}': '{v}', 'timeout': 30}}",
        f"{ts} level=error msg=\"auth failed\" provider={slug(spec['svc'])} key=\"{v}\" status=401",
        f"time=\"{ts}\" level=debug msg=\"env dump\" {env}={v} PATH=/usr/local/bin:/usr/bin",
    ])


def c_trace(v, env, spec):
    if coin():
        return ("Traceback (most recent call last):\n  File \"/app/jobs/sync.py\", line 88, in run\n    resp.raise_for_status()\n"
                "  File \"/usr/local/lib/python3.12/site-packages/requests/models.py\", line 1024, in raise_for_status\n"
                "    raise HTTPError(http_error_msg, response=self)\n"
                f"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: {spec['url'] or 'https://api.partner.net/v1/items'}?api_key={v}")
    return (f"Error: Request failed with status code 403\n    at createError (/app/node_modules/axios/lib/core/createError.js:16:15)\n"
            f"    at settle (/app/node_modules/axios/lib/core/settle.js:17:12) {{\n  config: {{\n    headers: {{\n      Accept: 'application/json',\n"
            f"      Authorization: 'Bearer {v}'\n    }}\n  }}\n}}")


CHAT_TOKEN = [
    "here's the {svc} key for staging: {v} — don't commit it pls",
    "@devops can you rotate this? it was pasted in #general: {v}",
    "ok try with this one `{v}` and tell me if the 401 is gone",
    "Le token {svc} pour la prod : {v}",
    "Der {svc}-Key für Staging ist {v}, bitte nicht einchecken.",
    "El token de {svc} es {v}, caduca el viernes",
    "{svc} 的 key 是 {v}，别提交到仓库",
    "{svc}のAPIキーは {v} です。本番では使わないでください。",
    "Usa questa chiave {svc}: {v}",
    "Ключ {svc} для теста: {v}",
    "{svc} 토큰: {v} (내일 만료)",
    "A chave do {svc} é {v}",
    "Klucz {svc} do testów: {v}",
]


def c_chat(v, env, spec):
    who = ch(["maria.k", "devbot", "tomasz", "j.lee", "anja", "rahul", "chen.w", "sofia_r"])
    t = f"{ri(8, 19):02d}:{ri(0, 59):02d}"
    return f"[{t}] {who}: " + ch(CHAT_TOKEN).format(svc=spec["svc"], v=v)


def c_powershell(v, env, spec):
    return f"PS C:\\src\\{ch(SERVICES)}> $env:{env} = \"{v}\"\nPS C:\\src\\{ch(SERVICES)}> dotnet run --project src/Api"


def c_systemd(v, env, spec):
    return f"[Service]\nUser=app\nEnvironment=\"{env}={v}\"\nExecStart=/usr/local/bin/{ch(SERVICES)} --config /etc/app/config.yml\nRestart=always"


def c_makefile(v, env, spec):
    return f"{env} ?= {v}\n\ndeploy:\n\t{env}=$({env}) ./scripts/deploy.sh"


def c_helm(v, env, spec):
    return f"{shell_prompt()}helm upgrade --install {ch(SERVICES)} ./charts/app -n {ch(NAMESPACES)} --set secrets.{camel(env)}={v}"


def c_ansible(v, env, spec):
    return f"# group_vars/prod.yml\n{env.lower()}: \"{v}\"\nansible_user: deploy"


def c_jupyter(v, env, spec):
    return f"In [{ri(2, 40)}]: import os\n   ...: os.environ[\"{env}\"] = \"{v}\"\n\nIn [{ri(41, 60)}]: client = load_client()"


def c_diff(v, env, spec):
    f = ch(["config/secrets.yml", ".env.staging", "src/config.ts", "settings/prod.py", "deploy/values.yaml"])
    return f"diff --git a/{f} b/{f}\nindex {rs(HEX, 7)}..{rs(HEX, 7)} 100644\n--- a/{f}\n+++ b/{f}\n@@ -3,4 +3,5 @@\n {ch(clean_env_lines(1))}\n+{env}={v}\n {ch(clean_env_lines(1))}"


def c_printenv(v, env, spec):
    return f"{shell_prompt()}env | grep -i {env.split('_')[0].lower()}\n{env}={v}"


def c_agent(v, env, spec):
    return (f"Assistant: I'll check which credentials the worker sees.\nTool call: bash {{\"command\": \"cat /proc/1/environ | tr '\\\\0' '\\\\n' | grep {env}\"}}\n"
            f"Tool result:\n{env}={v}")


GENERIC = [c_dotenv, c_export, c_yaml, c_toml, c_ini, c_json, c_hcl, c_k8s_secret, c_k8s_env, c_dockerfile,
           c_docker_run, c_compose, c_gha, c_gitlab_ci, c_python, c_js, c_go, c_rust, c_java, c_csharp, c_php,
           c_ruby, c_kotlin, c_swift, c_elixir, c_sql, c_curl, c_httpie, c_log, c_trace, c_chat, c_powershell,
           c_systemd, c_makefile, c_helm, c_ansible, c_jupyter, c_diff, c_printenv, c_agent]


# ---------------------------------------------------------------- private keys / public keys
def _pem_body(prefix, total_len):
    body = prefix + rs(B64, total_len - len(prefix) - 1)
    body += ch(["=", rs(B64, 1)])
    return body


def gen_private_key(kind=None, escaped=False):
    kind = kind or ch(["rsa", "pkcs8", "ec", "openssh", "openssh", "ec", "pkcs8_ec", "enc"])
    if kind == "rsa":
        label, body = "RSA PRIVATE KEY", _pem_body("MIIEpAIBAAKCAQEA", 1592)
    elif kind == "pkcs8":
        label, body = "PRIVATE KEY", _pem_body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 1624)
    elif kind == "ec":
        label, body = "EC PRIVATE KEY", _pem_body("MHcCAQEEI", 164)
    elif kind == "pkcs8_ec":
        label, body = "PRIVATE KEY", _pem_body("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg", 184)
    elif kind == "enc":
        label, body = "ENCRYPTED PRIVATE KEY", _pem_body("MIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG9w0BBQwwDgQI", 1748)
    else:
        label = "OPENSSH PRIVATE KEY"
        body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + \
               "QyNTUxOQAAACA" + rs(B64, 43) + "AAAAJ" + rs(B64, 180) + "AAAAEA" + rs(B64, 60) + "==" 
    width = 70 if kind == "openssh" else 64
    lines = [body[i:i + width] for i in range(0, len(body), width)]
    nl = "\\n" if escaped else "\n"
    return f"-----BEGIN {label}-----{nl}" + nl.join(lines) + f"{nl}-----END {label}-----"


def _ed25519_blob():
    return b64s(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rbytes(32))


def gen_ssh_pub():
    if coin(0.6):
        return "ssh-ed25519 " + _ed25519_blob() + " " + ch(["deploy@ci-runner-03", "ana@mbp-ana", "build-agent", "root@bastion-fra1"])
    blob = b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x81\x00" + rbytes(384)
    return "ssh-rsa " + b64s(blob) + " " + ch(["jenkins@build", "ops-laptop", "tkowalski@thinkpad"])


def gen_age_pub():
    return "age1" + rs(AGE_ALPHA.lower(), 58)


def gen_pub_pem():
    body = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + rs(B64, 344) + "IDAQAB"
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN PUBLIC KEY-----\n" + "\n".join(lines) + "\n-----END PUBLIC KEY-----"


# ---------------------------------------------------------------- url / basic helpers
DB_HOSTS = ["db.internal.harborline.app", "pg-prod-1.cluster-cq8x.eu-central-1.rds.amazonaws.com",
            "mysql-primary.svc.cluster.local", "cluster0.x7kq2.mongodb.net", "redis-master.cache.svc", "10-db.fra.internal",
            "rabbitmq.mq.svc", "smtp.sendrelay.net", "ftp.kestrelfreight.co.uk", "warehouse.copperleaf.dev"]


def url_with_password(pw, user=None):
    user = user or ch(["app", "admin", "svc_billing", "readonly", "etl", "postgres", "root", "deploy", "harbor"])
    scheme, host, port, path = ch([
        ("postgresql", DB_HOSTS[1], ":5432", "/billing?sslmode=require"), ("postgres", DB_HOSTS[0], ":5432", "/app"),
        ("mysql", DB_HOSTS[2], ":3306", "/shop"), ("mongodb+srv", DB_HOSTS[3], "", "/orders?retryWrites=true&w=majority"),
        ("redis", DB_HOSTS[4], ":6379", "/0"), ("amqp", DB_HOSTS[6], ":5672", "/%2F"), ("smtp", DB_HOSTS[7], ":587", ""),
        ("ftp", DB_HOSTS[8], "", "/outbound/"), ("https", "nexus.harborline.internal", "", "/repository/pypi-internal/simple"),
        ("mssql", "sqlsrv01.corp.local", ":1433", "/crm"), ("clickhouse", DB_HOSTS[9], ":9440", "/analytics?secure=true"),
    ])
    if scheme == "redis" and coin():
        return f"{scheme}://:{pw}@{host}{port}{path}"
    return f"{scheme}://{user}:{pw}@{host}{port}{path}"


def basic_b64(user=None, pw=None):
    user = user or ch(["admin", "api", "jenkins", "grafana", "monitor", "svc-export", "partner-acme"])
    pw = pw or gen_password("url")
    return b64s(f"{user}:{pw}".encode())


# ---------------------------------------------------------------- kind-specific contexts
def sp(fn):
    return fn


SPECIAL = {}


def S(kind):
    def deco(fn):
        SPECIAL.setdefault(kind, []).append(fn)
        return fn
    return deco


@S("aws_key")
def _(v):
    sec = TOKENS["aws_secret"]["gen"]()
    prof = ch(["default", "prod", "harborline-ci", "data-lake"])
    return (f"{shell_prompt()}cat ~/.aws/credentials\n[{prof}]\naws_access_key_id = {v}\naws_secret_access_key = {sec}\nregion = eu-central-1",
            [(sec, "aws_secret")])


@S("aws_key")
def _(v):
    sec = TOKENS["aws_secret"]["gen"]()
    return (f"s3 = boto3.client(\n    \"s3\",\n    aws_access_key_id=\"{v}\",\n    aws_secret_access_key=\"{sec}\",\n    region_name=\"us-east-1\",\n)",
            [(sec, "aws_secret")])


@S("aws_secret")
def _(v):
    return f"{shell_prompt()}aws configure\nAWS Access Key ID [****************{rs(B32U, 4)}]: \nAWS Secret Access Key [None]: {v}\nDefault region name [None]: eu-west-1\nDefault output format [None]: json"


@S("github_token")
def _(v):
    return f"{shell_prompt()}git remote set-url origin https://x-access-token:{v}@github.com/harborline/{ch(SERVICES)}.git\n{shell_prompt()}git push origin HEAD"


@S("github_token")
def _(v):
    return f"{shell_prompt()}echo {v} | gh auth login --with-token\n{shell_prompt()}gh pr list --state open\nShowing 3 of 3 open pull requests in harborline/infra"


@S("github_token")
def _(v):
    return f"{shell_prompt()}cat ~/.git-credentials\nhttps://{ch(['jkowalski', 'ana-dev', 'ci-bot'])}:{v}@github.com"


@S("gitlab_token")
def _(v):
    return f"{shell_prompt()}git clone https://oauth2:{v}@gitlab.com/harborline/platform/{ch(SERVICES)}.git\nCloning into '{ch(SERVICES)}'...\nremote: Enumerating objects: 1843, done."


@S("gitlab_token")
def _(v):
    return f"{shell_prompt()}glab auth login --hostname gitlab.harborline.app --token {v}\n✓ Logged in to gitlab.harborline.app as ci-bot"


@S("npm_token")
def _(v):
    return f"{shell_prompt()}cat ~/.npmrc\n@harborline:registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={v}\nfund=false"


@S("npm_token")
def _(v):
    return f"- name: Publish\n  run: npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: {v}"


@S("pypi_token")
def _(v):
    return f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {v}"


@S("pypi_token")
def _(v):
    return f"{shell_prompt()}twine upload -u __token__ -p {v} dist/*\nUploading distributions to https://upload.pypi.org/legacy/\nUploading harborline_sdk-{ri(0, 3)}.{ri(0, 20)}.{ri(0, 9)}-py3-none-any.whl"


@S("rubygems_key")
def _(v):
    return f"{shell_prompt()}cat ~/.gem/credentials\n---\n:rubygems_api_key: {v}"


@S("nuget_key")
def _(v):
    return f"{shell_prompt()}dotnet nuget push bin/Release/Harborline.Client.{ri(1, 4)}.{ri(0, 9)}.{ri(0, 9)}.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json\nPushing Harborline.Client to 'https://www.nuget.org/api/v2/package'..."


@S("cratesio_token")
def _(v):
    return ch([f"{shell_prompt()}cargo login {v}\n       Login token for `crates-io` saved",
               f"# ~/.cargo/credentials.toml\n[registry]\ntoken = \"{v}\""])


@S("clojars_token")
def _(v):
    return f";; ~/.lein/profiles.clj\n{{:auth {{:repository-auth {{#\"clojars\" {{:username \"harborline\" :password \"{v}\"}}}}}}}}"


@S("dockerhub_token")
def _(v):
    return f"{shell_prompt()}echo \"{v}\" | docker login -u harborline --password-stdin\nLogin Succeeded"


@S("dockerhub_token")
def _(v):
    return f"{shell_prompt()}docker login -u harborline -p {v}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded"


@S("kubeadm_token")
def _(v):
    return (f"{shell_prompt()}kubeadm join cp.k8s.harborline.internal:6443 --token {v} \\\n"
            f"    --discovery-token-ca-cert-hash sha256:{rs(HEX, 64)}\n[preflight] Running pre-flight checks")


@S("kubeadm_token")
def _(v):
    return f"{shell_prompt()}kubeadm token list\nTOKEN                     TTL         EXPIRES                USAGES                   DESCRIPTION\n{v}   23h         2025-{ri(1, 12):02d}-{ri(1, 28):02d}T10:12:44Z   authentication,signing   <none>"


@S("telegram_token")
def _(v):
    return f"{shell_prompt()}curl -s \"https://api.telegram.org/bot{v}/sendMessage?chat_id=-100{rs(DG, 10)}&text=deploy%20ok\"\n{{\"ok\":true,\"result\":{{\"message_id\":{ri(100, 9999)}}}}}"


@S("telegram_token")
def _(v):
    return f"from telegram.ext import ApplicationBuilder\n\napp = ApplicationBuilder().token(\"{v}\").build()"


for _k in ("slack_webhook", "discord_webhook", "teams_webhook"):
    @S(_k)
    def _(v):
        return f"{shell_prompt()}curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"Deploy of {ch(SERVICES)} finished ✅\"}}' {v}"

    @S(_k)
    def _(v):
        return f"# alertmanager.yml\nreceivers:\n  - name: oncall\n    {ch(['slack_configs', 'webhook_configs'])}:\n      - {ch(['api_url', 'url'])}: '{v}'\n        send_resolved: true"

    @S(_k)
    def _(v):
        return f"requests.post(\n    \"{v}\",\n    json={{\"text\": f\"Nightly ETL failed: {{err}}\"}},\n    timeout=5,\n)"


@S("vault_token")
def _(v):
    return (f"{shell_prompt()}vault token create -policy=ci -ttl=24h\nKey                  Value\n---                  -----\n"
            f"token                {v}\ntoken_accessor       {rs(ALNUM, 24)}\ntoken_duration       24h\ntoken_renewable      true\ntoken_policies       [\"ci\" \"default\"]")


@S("vault_token")
def _(v):
    return f"{shell_prompt()}vault login {v}\nSuccess! You are now authenticated."


@S("tailscale_key")
def _(v):
    return f"{shell_prompt()}sudo tailscale up --authkey={v} --hostname={ch(HOSTS).split('.')[0]} --advertise-tags=tag:ci"


@S("ngrok_token")
def _(v):
    return ch([f"{shell_prompt()}ngrok config add-authtoken {v}\nAuthtoken saved to configuration file: /home/ana/.config/ngrok/ngrok.yml",
               f"version: \"2\"\nauthtoken: {v}\ntunnels:\n  web:\n    proto: http\n    addr: 3000"])


@S("age_secret_key")
def _(v):
    return f"{shell_prompt()}cat ~/.config/sops/age/keys.txt\n# created: 2025-{ri(1, 12):02d}-{ri(1, 28):02d}T{ri(0, 23):02d}:{ri(0, 59):02d}:11+02:00\n# public key: {gen_age_pub()}\n{v}"


@S("openshift_token")
def _(v):
    return f"{shell_prompt()}oc login --token={v} --server=https://api.ocp4.harborline.internal:6443\nLogged into \"https://api.ocp4.harborline.internal:6443\" as \"ci-deployer\" using the token provided."


@S("heroku_key")
def _(v):
    p = Person()
    return (f"{shell_prompt()}cat ~/.netrc\nmachine api.heroku.com\n  login {p.email}\n  password {v}\nmachine git.heroku.com\n  login {p.email}\n  password {v}",
            [(p.email, "email")])


@S("flyio_token")
def _(v):
    return f"{shell_prompt()}export FLY_API_TOKEN=\"FlyV1 {v}\"\n{shell_prompt()}fly deploy --remote-only\n==> Verifying app config"


@S("flyio_token")
def _(v):
    return f"- uses: superfly/flyctl-actions/setup-flyctl@master\n- run: flyctl deploy --remote-only\n  env:\n    FLY_API_TOKEN: \"FlyV1 {v}\""


@S("terraform_token")
def _(v):
    return f"{shell_prompt()}cat ~/.terraform.d/credentials.tfrc.json\n" + json.dumps({"credentials": {"app.terraform.io": {"token": v}}}, indent=2)


@S("doppler_token")
def _(v):
    return f"{shell_prompt()}doppler run --token {v} -- npm start\n> api@2.4.1 start\n> node dist/server.js"


@S("azure_storage_key")
def _(v):
    acct = ch(["hlassets", "kestrelbackups", "copperleafprod", "stdatalake01"])
    return f"AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={v};EndpointSuffix=core.windows.net\""


@S("azure_storage_key")
def _(v):
    return f"{shell_prompt()}az storage blob upload --account-name hlassets --account-key \"{v}\" -c backups -f db.dump -n db-{ri(20240101, 20251231)}.dump"


@S("azure_sas_token")
def _(v):
    return (f"https://{ch(['hlassets', 'stdatalake01', 'kestrelbackups'])}.blob.core.windows.net/{ch(['backups', 'exports', 'invoices'])}/{ch(['db.bak', 'report.csv', 'dump.tar.gz'])}"
            f"?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2025-{ri(1, 12):02d}-{ri(1, 28):02d}T18:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig={v}")


@S("azure_sas_token")
def _(v):
    return (f"{shell_prompt()}azcopy copy ./exports \"https://stdatalake01.blob.core.windows.net/raw?sp=racwl&st=2025-03-01T09:00:00Z&se=2025-03-08T09:00:00Z&spr=https&sv=2022-11-02&sr=c&sig={v}\" --recursive\n"
            f"INFO: Scanning...\nJob {uuid4()} has started")


@S("azure_sas_token")
def _(v):
    return f"AZURE_BLOB_SAS=\"?sv=2021-06-08&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2026-01-31T23:59:59Z&spr=https&sig={v}\""


@S("azure_client_secret")
def _(v):
    return f"{shell_prompt()}az login --service-principal -u {uuid4()} -p {v} --tenant {uuid4()}\n[\n  {{\n    \"cloudName\": \"AzureCloud\",\n    \"state\": \"Enabled\"\n  }}\n]"


@S("azure_devops_token")
def _(v):
    return f"{shell_prompt()}echo {v} | az devops login --organization https://dev.azure.com/harborline\n{shell_prompt()}az pipelines list -o table"


@S("azure_devops_token")
def _(v):
    return f"{shell_prompt()}git clone https://harborline:{v}@dev.azure.com/harborline/Platform/_git/{ch(SERVICES)}"


@S("google_oauth_secret")
def _(v):
    cid = f"{rs(DG, 12)}-{rs(LO + DG, 32)}.apps.googleusercontent.com"
    return json.dumps({"installed": {"client_id": cid, "project_id": f"harborline-{ri(100000, 999999)}",
                                     "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                                     "token_uri": "https://oauth2.googleapis.com/token", "client_secret": v,
                                     "redirect_uris": ["http://localhost"]}}, indent=2)


@S("google_api_key")
def _(v):
    return f"{shell_prompt()}curl \"https://maps.googleapis.com/maps/api/geocode/json?address=Reeperbahn+1,+Hamburg&key={v}\""


@S("google_api_key")
def _(v):
    return f"<script async src=\"https://maps.googleapis.com/maps/api/js?key={v}&callback=initMap\"></script>"


@S("google_oauth_token")
def _(v):
    return f"{shell_prompt()}gcloud auth print-access-token\n{v}"


@S("private_key")
def _(v):
    return v


@S("slack_token")
def _(v):
    return f"from slack_sdk import WebClient\n\nclient = WebClient(token=\"{v}\")\nclient.chat_postMessage(channel=\"C0{rs(UP + DG, 9)}\", text=\"build green\")"


@S("stripe_key")
def _(v):
    return f"import stripe\nstripe.api_key = \"{v}\"\nstripe.PaymentIntent.create(amount=2000, currency=\"eur\")"


@S("stripe_key")
def _(v):
    return f"{shell_prompt()}curl https://api.stripe.com/v1/customers -u {v}: -d limit=3"


@S("twilio_api_key")
def _(v):
    return f"client = Client(\"{v}\", os.environ[\"TWILIO_API_SECRET\"], \"AC{rs(HEX, 32)}\")"


@S("mailgun_key")
def _(v):
    dom = ch(COMPANY_DOMAINS)
    frm = f"{ch(['noreply', 'alerts', 'billing', 'no-reply'])}@mg.{dom}"
    to = Person().email
    return (f"{shell_prompt()}curl -s --user 'api:{v}' https://api.eu.mailgun.net/v3/mg.{dom}/messages \\\n"
            f"  -F from='{dom.split('.')[0].title()} <{frm}>' -F to={to} -F subject='test'",
            [(frm, "email"), (to, "email")])


@S("mailchimp_key")
def _(v):
    dc = v.split("-")[-1]
    return f"{shell_prompt()}curl -sS --user \"anystring:{v}\" https://{dc}.api.mailchimp.com/3.0/lists?count=5"


@S("woocommerce_key")
def _(v):
    if v.startswith("ck_"):
        ck, cs = v, "cs_" + rs(HEX, 40)
        other = cs
    else:
        ck, cs = "ck_" + rs(HEX, 40), v
        other = ck
    return (f"{shell_prompt()}curl \"https://shop.fromagerie-vallet.fr/wp-json/wc/v3/orders?consumer_key={ck}&consumer_secret={cs}&per_page=5\"",
            [(other, "woocommerce_key")])


@S("plaid_token")
def _(v):
    return f"response = client.transactions_sync(\n    TransactionsSyncRequest(access_token=\"{v}\", cursor=cursor)\n)"


@S("braintree_token")
def _(v):
    return f"gateway = braintree.BraintreeGateway(access_token=\"{v}\")"


@S("shopify_token")
def _(v):
    return f"session = shopify.Session(\"harborline-store.myshopify.com\", \"2024-10\", \"{v}\")\nshopify.ShopifyResource.activate_session(session)"


@S("easypost_key")
def _(v):
    return f"client = EasyPost::Client.new(api_key: '{v}')\nshipment = client.shipment.retrieve('shp_{rs(HEX, 32)}')"


@S("facebook_token")
def _(v):
    return f"{shell_prompt()}curl -s \"https://graph.facebook.com/v19.0/me/accounts?access_token={v}\""


@S("mapbox_token")
def _(v):
    return f"{shell_prompt()}cat ~/.netrc\nmachine api.mapbox.com\n  login mapbox\n  password {v}"


@S("cloudflare_key")
def _(v):
    p = Person()
    return (f"{shell_prompt()}curl -X GET \"https://api.cloudflare.com/client/v4/zones?name=harborline.app\" \\\n  -H \"X-Auth-Email: {p.email}\" \\\n  -H \"X-Auth-Key: {v}\"",
            [(p.email, "email")])


@S("atlassian_token")
def _(v):
    p = Person()
    return (f"{shell_prompt()}curl -u {p.email}:{v} -H 'Accept: application/json' https://harborline.atlassian.net/rest/api/3/search?jql=project=OPS",
            [(p.email, "email")])


@S("bitbucket_token")
def _(v):
    return f"{shell_prompt()}git clone https://{ch(['ana-dev', 'jkowalski', 'ci_bot'])}:{v}@bitbucket.org/harborline/{ch(SERVICES)}.git"


@S("sonar_token")
def _(v):
    return ch([f"{shell_prompt()}mvn -B verify sonar:sonar -Dsonar.host.url=https://sonar.harborline.app -Dsonar.token={v}",
               f"{shell_prompt()}sonar-scanner -Dsonar.projectKey=harborline_api -Dsonar.login={v}"])


@S("jfrog_token")
def _(v):
    return f"{shell_prompt()}jf c add harborline --url=https://harborline.jfrog.io --access-token={v} --interactive=false"


@S("datadog_key")
def _(v):
    return f"{shell_prompt()}DD_API_KEY={v} DD_SITE=\"datadoghq.eu\" bash -c \"$(curl -L https://install.datadoghq.com/scripts/install_script_agent7.sh)\""


@S("new_relic_key")
def _(v):
    return f"common: &default_settings\n  license_key: '{v}'\n  app_name: Harborline API (prod)\n  distributed_tracing:\n    enabled: true"


@S("honeycomb_key")
def _(v):
    return f"OTEL_EXPORTER_OTLP_ENDPOINT=https://api.honeycomb.io\nOTEL_EXPORTER_OTLP_HEADERS=\"x-honeycomb-team={v}\"\nOTEL_SERVICE_NAME={ch(SERVICES)}"


@S("sentry_token")
def _(v):
    return f"{shell_prompt()}sentry-cli --auth-token {v} releases new -p harborline-web {rs(HEX, 12)}"


@S("databricks_token")
def _(v):
    return f"{shell_prompt()}cat ~/.databrickscfg\n[DEFAULT]\nhost  = https://adb-{rs(DG, 16)}.{ri(1, 19)}.azuredatabricks.net\ntoken = {v}"


@S("yandex_key")
def _(v):
    if v.startswith("y0_"):
        return f"{shell_prompt()}yc config set token {v}\n{shell_prompt()}yc compute instance list"
    return f"{shell_prompt()}curl -H \"Authorization: Api-Key {v}\" https://llm.api.cloud.yandex.net/foundationModels/v1/completion -d @prompt.json"


@S("scalingo_token")
def _(v):
    return f"{shell_prompt()}scalingo login --api-token {v}\n-----> Authenticating with api token... Done"


@S("modal_token")
def _(v):
    other = ("as-" if v.startswith("ak-") else "ak-") + rs(ALNUM, 22)
    tid, tsec = (v, other) if v.startswith("ak-") else (other, v)
    return (f"{shell_prompt()}modal token set --token-id {tid} --token-secret {tsec} --profile=harborline\nToken verified successfully!",
            [(other, "modal_token")])


@S("wandb_key")
def _(v):
    return ch([f"{shell_prompt()}wandb login {v}\nwandb: Appending key for api.wandb.ai to your netrc file: /home/ana/.netrc",
               f"machine api.wandb.ai\n  login user\n  password {v}"])


@S("huggingface_token")
def _(v):
    return ch([f"{shell_prompt()}huggingface-cli login --token {v}\nToken is valid (permission: write).",
               f"{shell_prompt()}git clone https://hf_user:{v}@huggingface.co/harborline/invoice-layoutlm"])


for _k, _ctor in (("openai_key", "OpenAI(api_key=\"{v}\")"), ("anthropic_key", "anthropic.Anthropic(api_key=\"{v}\")"),
                  ("mistral_key", "Mistral(api_key=\"{v}\")"), ("cohere_key", "cohere.ClientV2(\"{v}\")"),
                  ("pinecone_key", "Pinecone(api_key=\"{v}\")"), ("groq_key", "Groq(api_key=\"{v}\")"),
                  ("notion_token", "Client(auth=\"{v}\")"), ("replicate_token", "replicate.Client(api_token=\"{v}\")"),
                  ("langsmith_key", "Client(api_key=\"{v}\", api_url=\"https://api.smith.langchain.com\")"),
                  ("openrouter_key", "OpenAI(base_url=\"https://openrouter.ai/api/v1\", api_key=\"{v}\")"),
                  ("deepseek_key", "OpenAI(api_key=\"{v}\", base_url=\"https://api.deepseek.com\")"),
                  ("xai_key", "OpenAI(api_key=\"{v}\", base_url=\"https://api.x.ai/v1\")"),
                  ("elevenlabs_key", "ElevenLabs(api_key=\"{v}\")"),
                  ("adafruit_api_key", "Client(\"greenhouse_lab\", \"{v}\")")):
    @S(_k)
    def _(v, _ctor=_ctor):
        return f"client = {_ctor.format(v=v)}\n# quick smoke test\nprint(client)"


@S("prefect_key")
def _(v):
    return f"{shell_prompt()}prefect cloud login -k {v} --workspace harborline/prod\nAuthenticated with Prefect Cloud!"


@S("contentful_token")
def _(v):
    return f"{shell_prompt()}contentful login --management-token {v}\nGreat! You've successfully logged in!"


@S("zoho_token")
def _(v):
    other = TOKENS["zoho_token"]["gen"]()
    return (json.dumps({"access_token": v, "refresh_token": other, "api_domain": "https://www.zohoapis.eu", "token_type": "Bearer", "expires_in": 3600}, indent=2),
            [(other, "zoho_token")])


@S("salesforce_token")
def _(v):
    return (f"{shell_prompt()}sf org display --target-org prod\n=== Org Description\n KEY              VALUE\n ──────────────── ──────────────────────────\n"
            f" Access Token     {v}\n Api Version      60.0\n Instance Url     https://harborline.my.salesforce.com\n Status           Connected")


@S("onepassword_token")
def _(v):
    return f"{shell_prompt()}export OP_SERVICE_ACCOUNT_TOKEN={v}\n{shell_prompt()}op vault list\nID                            NAME\n{rs(LO + DG, 26)}    CI Secrets"


@S("supabase_token")
def _(v):
    return f"{shell_prompt()}supabase login --token {v}\nYou are now logged in. Happy coding!"


@S("netlify_token")
def _(v):
    return f"{shell_prompt()}netlify deploy --prod --dir=dist --auth {v}\nDeploy path: /home/runner/work/site/dist"


@S("digitalocean_token")
def _(v):
    return f"{shell_prompt()}doctl auth init --access-token {v}\nValidating token... OK"


@S("planetscale_token")
def _(v):
    if v.startswith("pscale_pw_"):
        return f"DATABASE_URL=\"mysql://{rs(LO + DG, 12)}:{v}@aws.connect.psdb.cloud/harborline?sslaccept=strict\""
    return f"{shell_prompt()}PLANETSCALE_SERVICE_TOKEN_ID={rs(LO + DG, 12)} PLANETSCALE_SERVICE_TOKEN={v} pscale database list --org harborline"


@S("discord_token")
def _(v):
    return f"bot = commands.Bot(command_prefix=\"!\", intents=intents)\n\nif __name__ == \"__main__\":\n    bot.run(\"{v}\")"


@S("octopus_deploy_api_key")
def _(v):
    return f"{shell_prompt()}octo push --package ./artifacts/Api.{ri(1, 3)}.{ri(0, 20)}.{ri(0, 9)}.zip --server https://harborline.octopus.app --apiKey {v}"


@S("neon_api_key")
def _(v):
    return f"{shell_prompt()}neonctl projects list --api-key {v} --output table"


@S("scaleway_key")
def _(v):
    return f"# ~/.config/scw/config.yaml\naccess_key: {v}\ndefault_organization_id: {uuid4()}\ndefault_project_id: {uuid4()}\ndefault_region: fr-par\ndefault_zone: fr-par-1"


@S("django_secret_key")
def _(v):
    return f"# settings/base.py\nSECRET_KEY = '{v}'\n\nDEBUG = False\nALLOWED_HOSTS = ['api.harborline.app']"


@S("jwt")
def _(v):
    return f"GET /api/v1/orders?page=2 HTTP/1.1\nHost: api.harborline.app\nCookie: session={v}; theme=dark\nUser-Agent: Mozilla/5.0"


@S("jwt")
def _(v):
    return f"> localStorage.getItem('auth')\n'{{\"accessToken\":\"{v}\",\"expiresIn\":3600}}'"


@S("bearer_token")
def _(v):
    return f"POST /v2/shipments HTTP/1.1\nHost: api.internal.harborline.app\nAuthorization: Bearer {v}\nContent-Type: application/json\nX-Request-Id: {uuid4()}"


@S("launchdarkly_key")
def _(v):
    return f"const client = LaunchDarkly.init('{v}');\nawait client.waitForInitialization({{ timeout: 10 }});"


@S("grafana_token")
def _(v):
    return f"{shell_prompt()}grafana-cli --homepath /usr/share/grafana admin data-migration encrypt-datasource-passwords\n# then\nGF_AUTH_TOKEN={v} ./sync-dashboards.sh"


@S("resend_key")
def _(v):
    return f"import {{ Resend }} from 'resend';\nconst resend = new Resend('{v}');"


@S("duffel_token")
def _(v):
    return f"const duffel = new Duffel({{ token: '{v}' }});"


@S("mollie_key")
def _(v):
    return f"$mollie = new \\Mollie\\Api\\MollieApiClient();\n$mollie->setApiKey(\"{v}\");"


@S("paystack_key")
def _(v):
    return f"{shell_prompt()}curl https://api.paystack.co/transaction/verify/{rs(LO + DG, 12)} -H \"Authorization: Bearer {v}\""


@S("razorpay_key")
def _(v):
    return f"var options = {{\n  \"key\": \"{v}\",\n  \"amount\": \"{ri(100, 99999)}00\",\n  \"currency\": \"INR\",\n  \"name\": \"Sundara Textiles\"\n}};"


# ---------------------------------------------------------------- password contexts
USERS = ["app", "admin", "svc_billing", "etl", "deploy", "backup", "root", "reporting", "jenkins", "grafana", "sa",
         "postgres", "webadmin", "ops", "integration"]
DBS = ["shop", "crm", "billing", "analytics", "app_prod", "inventory", "hr"]


def _u():
    return ch(USERS)


def _host():
    return ch(DB_HOSTS[:3] + ["sqlsrv01.corp.local", "oradb01.corp.local", "nas.local", "bastion.harborline.internal"])


def pw_cli():
    pw = gen_password()
    u, h, db, ns = _u(), _host(), ch(DBS), ch(NAMESPACES)
    t = ch([
        f"mysql -u {u} -p'{pw}' -h {h} {db}", f"mysql --user={u} --password='{pw}' {db} < dump.sql",
        f"PGPASSWORD='{pw}' psql -h {h} -U {u} -d {db} -c 'select count(*) from orders'",
        f"sshpass -p '{pw}' ssh -o StrictHostKeyChecking=no {u}@bastion.harborline.internal",
        f"redis-cli -h {h} -p 6379 -a '{pw}' --no-auth-warning INFO replication",
        f"mongosh \"mongodb://{h}:27017\" --username {u} --password '{pw}' --authenticationDatabase admin",
        f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{pw}",
        f"keytool -importkeystore -srckeystore bundle.p12 -srcstoretype PKCS12 -destkeystore app.jks -deststorepass '{pw}'",
        f"zip -r -P '{pw}' export_customers.zip exports/", f"7z a -p'{pw}' -mhe=on backup.7z /srv/backups",
        f"curl -u {u}:'{pw}' https://nexus.harborline.internal/service/rest/v1/repositories",
        f"wget --user={u} --password='{pw}' https://ftp.kestrelfreight.co.uk/outbound/manifest.csv",
        f"ldapsearch -x -H ldaps://ldap.corp.local -D 'cn={u},ou=svc,dc=corp,dc=local' -w '{pw}' '(uid=jdoe)'",
        f"smbclient //fileserver/finance -U 'CORP\\{u}%{pw}'", f"net use Z: \\\\fileserver\\share {pw} /user:CORP\\{u}",
        f"htpasswd -bc /etc/nginx/.htpasswd {u} '{pw}'", f"rabbitmqctl add_user {u} '{pw}'",
        f"sqlcmd -S sqlsrv01.corp.local -U sa -P '{pw}' -Q \"SELECT name FROM sys.databases\"",
        f"kubectl create secret generic db-creds --from-literal=username={u} --from-literal=password='{pw}' -n {ns}",
        f"helm install pg bitnami/postgresql --set auth.postgresPassword='{pw}' --set auth.database={db}",
        f"echo '{pw}' | sudo -S systemctl restart nginx",
        f"ipmitool -I lanplus -H bmc-r12.dc.internal -U ADMIN -P '{pw}' power status",
        f"nmcli dev wifi connect 'Harborline-Guest' password '{pw}'",
        f"mysqldump -u{u} -p'{pw}' --single-transaction {db} > {db}.sql",
        f"docker run -d --name pg -e POSTGRES_PASSWORD='{pw}' -p 5432:5432 postgres:16",
        f"az vm create -g rg-prod -n vm-build-02 --image Ubuntu2204 --admin-username azureuser --admin-password '{pw}'",
        f"influx -username {u} -password '{pw}' -execute 'SHOW DATABASES'",
        f"sqlplus {u}/'{pw}'@//oradb01.corp.local:1521/ORCLPDB1",
        f"mongodump --uri=\"mongodb://{h}:27017\" -u {u} -p '{pw}' --out /backups/$(date +%F)",
        f"vault kv put secret/{db}/db username={u} password='{pw}'",
        f"gpg --batch --passphrase '{pw}' -c customers_export.csv",
        f"unzip -P '{pw}' payroll_2025_03.zip",
    ])
    out = ""
    if t.startswith(("mysql ", "mysqldump")) and coin(0.7):
        out = "\nmysql: [Warning] Using a password on the command line interface can be insecure."
    elif t.startswith("kubectl create secret") and coin(0.7):
        out = "\nsecret/db-creds created"
    elif t.startswith("sshpass") and coin(0.7):
        out = "\nWarning: Permanently added 'bastion.harborline.internal' (ED25519) to the list of known hosts."
    elif t.startswith("rabbitmqctl") and coin(0.7):
        out = f"\nAdding user \"{u}\" ..."
    elif t.startswith("htpasswd") and coin(0.7):
        out = f"\nAdding password for user {u}"
    return shell_prompt() + t + out, [(pw, "password")]


PW_ENV_KEYS = ["DB_PASSWD", "MYSQL_ROOT_PASSWORD", "POSTGRES_PASSWORD", "RABBITMQ_DEFAULT_PASS", "GF_SECURITY_ADMIN_PASSWORD",
               "KEYCLOAK_ADMIN_PASSWORD", "MINIO_ROOT_PASSWORD", "ELASTIC_PASSWORD", "REDIS_PASSWORD", "PGPASS",
               "ADMIN_PASS", "SMTP_PASSWD", "LDAP_BIND_PW", "MSSQL_SA_PASSWORD", "ORACLE_PWD", "WORDPRESS_DB_PASSWORD",
               "NEXTCLOUD_ADMIN_PASSWORD", "WEBPASSWORD", "VNC_PW", "DB_PASS", "MAIL_PASSWORD", "FTP_PASS", "KEYSTORE_PASSWORD"]
PW_YAML_KEYS = ["db_pwd", "admin_pw", "smtp_pass", "keystore_pass", "bind_credential", "mqtt_pass", "wifi_psk",
                "passphrase", "secret_phrase", "pass_word", "motDePasse", "contrasena", "kennwort", "haslo", "parola",
                "wachtwoord", "losenord", "sifre", "パスワード", "密码", "senha", "userPassword", "bindPassword", "pwd",
                "auth_pass", "root_password", "master_password", "clave_acceso"]
PW_PROP_KEYS = ["spring.datasource.password", "jdbc.pw", "mail.smtp.password", "ssl.keystore.password",
                "javax.net.ssl.trustStorePassword", "db.pass", "hibernate.connection.password", "ldap.manager.pwd",
                "quarkus.datasource.password", "sftp.passwd"]


def pw_config():
    pw = gen_password()
    u, h, db = _u(), _host(), ch(DBS)
    t = ri(0, 17)
    if t == 0:
        lines = clean_env_lines(ri(1, 4))
        q = q_any()
        lines.insert(ri(0, len(lines)), f"{ch(PW_ENV_KEYS)}={q}{pw}{q}")
        txt = "\n".join(lines)
    elif t == 1:
        txt = f"{ch(['database', 'smtp', 'ldap', 'mqtt', 'backup'])}:\n  host: {h}\n  user: {u}\n  {ch(PW_YAML_KEYS)}: \"{pw}\"\n  port: {ch([5432, 3306, 587, 389, 1883])}"
    elif t == 2:
        txt = f"{ch(PW_PROP_KEYS)}={pw}\nspring.datasource.username={u}\nspring.datasource.url=jdbc:postgresql://{h}:5432/{db}"
    elif t == 3:
        txt = f"# /etc/redis/redis.conf\nbind 127.0.0.1 ::1\nport 6379\nrequirepass {pw}\n{ch(['masterauth ' + pw, 'maxmemory 2gb'])}"
    elif t == 4:
        txt = f"# /etc/hostapd/hostapd.conf\ninterface=wlan0\nssid=Harborline-Lab\nwpa=2\nwpa_passphrase={pw}\nwpa_key_mgmt=WPA-PSK"
    elif t == 5:
        txt = f"network={{\n    ssid=\"{ch(['FRITZ!Box 7590 KL', 'Livebox-4F2A', 'TP-Link_5G_88', 'Vodafone-C4D2'])}\"\n    psk=\"{pw}\"\n    key_mgmt=WPA-PSK\n}}"
    elif t == 6:
        txt = f"# kickstart\nlang en_US.UTF-8\nkeyboard us\nrootpw --plaintext {pw}\nuser --name={u} --groups=wheel"
    elif t == 7:
        txt = f"[webservers]\nweb-01.fra ansible_user={u} ansible_password={pw}\nweb-02.fra ansible_user={u} ansible_become_pass={pw}"
    elif t == 8:
        txt = f"{shell_prompt()}cat ~/.pgpass\n{h}:5432:{db}:{u}:{pw}"
    elif t == 9:
        txt = f"{shell_prompt()}cat ~/.netrc\nmachine {ch(['ftp.kestrelfreight.co.uk', 'nexus.harborline.internal', 'api.partner.net'])}\n  login {u}\n  password {pw}"
    elif t == 10:
        txt = f"[client]\nuser={u}\npassword={pw}\nhost={h}"
    elif t == 11:
        txt = (f"<unattend xmlns=\"urn:schemas-microsoft-com:unattend\">\n  <UserAccounts>\n    <AdministratorPassword>\n"
               f"      <Value>{pw}</Value>\n      <PlainText>true</PlainText>\n    </AdministratorPassword>\n  </UserAccounts>\n</unattend>")
    elif t == 12:
        txt = f"<?php\ndefine( 'DB_NAME', '{db}' );\ndefine( 'DB_USER', '{u}' );\ndefine( 'DB_PASSWORD', '{pw}' );\ndefine( 'DB_HOST', 'localhost' );"
    elif t == 13:
        txt = f"<settings>\n  <servers>\n    <server>\n      <id>harborline-releases</id>\n      <username>{u}</username>\n      <password>{pw}</password>\n    </server>\n  </servers>\n</settings>"
    elif t == 14:
        txt = f"apiVersion: 1\ndatasources:\n  - name: Postgres\n    type: postgres\n    url: {h}:5432\n    user: {u}\n    secureJsonData:\n      password: '{pw}'"
    elif t == 15:
        txt = f"[options]\naddons_path = /mnt/extra-addons\nadmin_passwd = {pw}\ndb_host = {h}\ndb_user = {u}"
    elif t == 16:
        txt = f"!\nhostname core-sw-01\nusername admin privilege 15 password 0 {pw}\nenable secret 0 {pw}\n!"
    else:
        txt = f"services:\n  db:\n    image: mariadb:11\n    environment:\n      MARIADB_ROOT_PASSWORD: \"{pw}\"\n      MARIADB_DATABASE: {db}"
    return txt, [(pw, "password")]


def pw_connstr():
    pw = gen_password()
    u, db = _u(), ch(DBS)
    t = ch([
        f"Server=tcp:sqlsrv01.corp.local,1433;Initial Catalog={db};User ID={u};Password={pw};Encrypt=True;TrustServerCertificate=False;",
        f"host={DB_HOSTS[0]} port=5432 dbname={db} user={u} password={pw} sslmode=require",
        f"jdbc:mysql://mysql-primary:3306/{db}?user={u}&password={pw}&useSSL=true",
        f"jdbc:sqlserver://sqlsrv01.corp.local:1433;databaseName={db};user={u};password={pw};encrypt=true",
        f"DRIVER={{ODBC Driver 18 for SQL Server}};SERVER=sqlsrv01.corp.local;DATABASE={db};UID={u};PWD={pw}",
        f"Host=pg-prod-1;Port=5432;Username={u};Password={pw};Database={db};Pooling=true",
        f"{u}:{pw}@tcp(mysql-primary.svc.cluster.local:3306)/{db}?parseTime=true",
        f"Data Source=oradb01.corp.local:1521/ORCLPDB1;User Id={u};Password={pw};",
    ])
    wrap = ch(["{t}", "ConnectionStrings__Default=\"{t}\"", "\"ConnectionStrings\": {{ \"Default\": \"{t}\" }}",
               "DSN = \"{t}\"", "db, err := sql.Open(\"mysql\", \"{t}\")", "conn_str = '{t}'"])
    if '"' in pw and '"' in wrap:
        wrap = "{t}"
    return wrap.format(t=t), [(pw, "password")]


def pw_code():
    pw = gen_password()
    u, h, db = _u(), _host(), ch(DBS)
    pairs = [(pw, "password")]
    t = ri(0, 11)
    if t == 0:
        txt = f"conn = psycopg2.connect(\n    host=\"{h}\",\n    dbname=\"{db}\",\n    user=\"{u}\",\n    password=\"{pw}\",\n)"
    elif t == 1:
        txt = f"var cred = new NetworkCredential(\"svc_print\", \"{pw}\", \"CORP\");"
    elif t == 2:
        txt = f"Connection conn = DriverManager.getConnection(\n    \"jdbc:postgresql://{h}:5432/{db}\", \"{u}\", \"{pw}\");"
    elif t == 3:
        txt = f"const pool = mysql.createPool({{\n  host: '{h}',\n  user: '{u}',\n  password: '{pw}',\n  database: '{db}',\n}});"
    elif t == 4:
        txt = f"$pdo = new PDO('mysql:host={h};dbname={db}', '{u}', '{pw}');"
    elif t == 5:
        txt = f"ActiveRecord::Base.establish_connection(\n  adapter: 'postgresql', host: '{h}', username: '{u}', password: '{pw}', database: '{db}'\n)"
    elif t == 6:
        txt = f"config :harborline, Harborline.Repo,\n  username: \"{u}\",\n  password: \"{pw}\",\n  hostname: \"{h}\",\n  database: \"{db}\",\n  pool_size: 10"
    elif t == 7:
        txt = f"Database.connect(\n    \"jdbc:postgresql://{h}:5432/{db}\",\n    driver = \"org.postgresql.Driver\",\n    user = \"{u}\",\n    password = \"{pw}\"\n)"
    elif t == 8:
        txt = f"let credential = URLCredential(user: \"{u}\", password: \"{pw}\", persistence: .forSession)"
    elif t == 9:
        txt = f"let opts = PgConnectOptions::new()\n    .host(\"{h}\")\n    .username(\"{u}\")\n    .password(\"{pw}\")\n    .database(\"{db}\");"
    elif t == 10:
        p = Person()
        txt = f"auth := smtp.PlainAuth(\"\", \"{p.email}\", \"{pw}\", \"smtp.sendrelay.net\")"
        pairs.append((p.email, "email"))
    else:
        txt = ch([f"CREATE USER '{u}'@'%' IDENTIFIED BY '{pw}';\nGRANT SELECT ON {db}.* TO '{u}'@'%';",
                  f"ALTER USER {u} WITH PASSWORD '{pw}';", f"ALTER LOGIN sa WITH PASSWORD = '{pw}';",
                  f"CREATE ROLE {u} LOGIN PASSWORD '{pw}' VALID UNTIL '2026-01-01';"])
    return txt, pairs


def pw_log():
    pw = gen_password("url")
    ts = f"2025-{ri(1, 12):02d}-{ri(1, 28):02d} {ri(0, 23):02d}:{ri(0, 59):02d}:{ri(0, 59):02d}"
    u = ch(["jdoe", "admin", "m.kovacs", "svc-report", "a.nowak"])
    txt = ch([
        f"{ts} WARN  auth: login failed for user '{u}' (password='{pw}')",
        f"{ts} DEBUG http: request body: {{\"username\":\"{u}\",\"password\":\"{pw}\",\"remember\":true}}",
        f"{ts} INFO  127 POST /login username={u}&password={pw}&next=%2Fdashboard 302",
        f"{ts} ERROR ldap: bind failed dn=cn={u},ou=people,dc=corp,dc=local password={pw} err=\"Invalid credentials (49)\"",
        f"[{ts}] app.DEBUG: Login attempt {{\"user\":\"{u}\",\"pass\":\"{pw}\"}} []",
    ])
    return txt, [(pw, "password")]


def pw_curl_login():
    pw = gen_password()
    u = ch(["admin", "ops@harborline.app", "demo-user", "qa-bot"])
    pairs = [(pw, "password")]
    if "@" in u:
        pairs.append((u, "email"))
    txt = (f"{shell_prompt()}curl -s -X POST https://api.harborline.app/v1/auth/login \\\n  -H 'Content-Type: application/json' \\\n"
           f"  -d '{{\"username\":\"{u}\",\"password\":\"{pw}\"}}'\n{{\"token_type\":\"Bearer\",\"expires_in\":3600}}")
    return txt, pairs


PW_PROSE = [
    "the password is {pw}", "pw: {pw}", "use {pw} as the password for now, I'll reset it tomorrow",
    "temp pw for the staging admin: {pw} — rotate after the demo", "wifi password is {pw} btw",
    "Le mot de passe est {pw}", "mdp : {pw} (compte admin du NAS)", "Das Passwort lautet {pw}",
    "Kennwort für den Router: {pw}", "La contraseña es {pw}", "clave del servidor: {pw}", "A senha é {pw}",
    "a senha do banco ficou {pw}", "La password è {pw}", "Het wachtwoord is {pw}", "Hasło to {pw}",
    "Пароль: {pw}", "пароль от сервера {pw}, логин root", "Пароль від адмінки — {pw}", "パスワードは {pw} です",
    "管理画面のパスワード：{pw}", "密码是 {pw}", "数据库密码：{pw}", "비밀번호는 {pw} 입니다", "Şifre: {pw}",
    "sunucunun şifresi {pw}", "كلمة المرور هي {pw}", "पासवर्ड {pw} है", "Lösenordet är {pw}", "Heslo je {pw}",
    "Mật khẩu là {pw}", "Kata sandinya {pw}", "Ο κωδικός είναι {pw}", "הסיסמה היא {pw}", "Salasana on {pw}",
    "Adgangskoden er {pw}", "Passordet er {pw}", "A jelszó: {pw}", "Parola este {pw}", "รหัสผ่านคือ {pw}",
]


def pw_prose():
    pw = gen_password()
    s = ch(PW_PROSE).format(pw=pw)
    form = ri(0, 4)
    if form == 0:
        txt = f"[{ri(8, 22):02d}:{ri(0, 59):02d}] {ch(['maria.k', 'tomasz', 'yuki', 'chen.w', 'olga', 'ahmet', 'noa', 'lars'])}: {s}"
    elif form == 1:
        txt = f"User: {s}. Can you log into the box and check why nginx is down?\nAssistant: I'll connect and check the service status."
    elif form == 2:
        txt = f"**{ch(['Mateusz', 'Inès', 'Kenji', 'Bruna', 'Fatima', 'Ole'])}** {ri(8, 22)}:{ri(10, 59)}\n{s}"
    elif form == 3:
        txt = f"> {s}\n\nthanks, got in 👍"
    else:
        txt = f"Subject: Re: accès serveur / server access\n\nHi,\n\n{s}\n\nBest,\n{ch(['Jakub', 'Camille', 'Sven', 'Ana'])}"
    return txt, [(pw, "password")]


def pw_email():
    pw = gen_password()
    p = Person()
    txt = ch([
        f"To: {p.email}\nSubject: Your new account\n\nHello {p.first},\n\nYour temporary password is: {pw}\nPlease change it after your first login.\n\nIT Service Desk",
        f"From: helpdesk@harborline.app\nTo: {p.email}\nSubject: Passwort zurückgesetzt\n\nHallo {p.first},\nIhr neues Einmalpasswort: {pw}\n",
    ])
    pairs = [(pw, "password"), (p.email, "email")]
    if "helpdesk@harborline.app" in txt:
        pairs.append(("helpdesk@harborline.app", "email"))
    return txt, pairs


def urlcred_row():
    pw = gen_password("url")
    url = url_with_password(pw)
    env = ch(["DATABASE_URL", "MONGO_URI", "REDIS_URL", "CELERY_BROKER_URL", "SQLALCHEMY_DATABASE_URI", "PIP_INDEX_URL", "SMTP_URL", "DSN"])
    t = ri(0, 6)
    if t == 0:
        txt = f"{env}={url}"
    elif t == 1:
        txt = f"{env}: \"{url}\""
    elif t == 2:
        txt = f"engine = create_engine(\"{url}\", pool_pre_ping=True)"
    elif t == 3:
        txt = f"{shell_prompt()}psql \"{url}\" -c '\\dt'" if url.startswith("postgres") else f"{shell_prompt()}echo $" + env + f"\n{url}"
    elif t == 4:
        txt = f"2025-{ri(1, 12):02d}-{ri(1, 28):02d}T10:{ri(10, 59)}:{ri(10, 59)}Z ERROR could not connect to {url}: connection refused"
    elif t == 5:
        sch = url.split("://")[0]
        sect = {"postgresql": "database", "postgres": "database", "mysql": "database", "mongodb+srv": "mongodb",
                "redis": "cache", "amqp": "broker", "smtp": "mailer", "ftp": "export", "mssql": "database",
                "clickhouse": "analytics"}.get(sch, "upstream")
        txt = f"[global]\nindex-url = {url}" if sch == "https" else f"{sect}:\n  url: {url}\n  pool_size: {ri(2, 20)}"
    else:
        txt = f"const client = new Client({{ connectionString: '{url}' }});"
    return txt, [(pw, "url_credentials")]


def basic_row():
    v = basic_b64()
    t = ri(0, 4)
    if t == 0:
        txt = f"{shell_prompt()}curl -H \"Authorization: Basic {v}\" https://jenkins.harborline.internal/api/json?tree=jobs[name]"
    elif t == 1:
        txt = f"GET /metrics HTTP/1.1\nHost: grafana.harborline.internal\nAuthorization: Basic {v}\nAccept: */*"
    elif t == 2:
        txt = json.dumps({"auths": {"registry.harborline.app": {"auth": v}, "ghcr.io": {"auth": basic_b64()}}}, indent=2)
        d = json.loads(txt)
        return txt, [(v, "basic_auth"), (d["auths"]["ghcr.io"]["auth"], "basic_auth")]
    elif t == 3:
        txt = f"{shell_prompt()}git config --global http.https://git.harborline.internal/.extraheader \"AUTHORIZATION: basic {v}\""
    else:
        txt = f"headers = {{\"Authorization\": \"Basic {v}\", \"Accept\": \"application/json\"}}"
    return txt, [(v, "basic_auth")]


def privkey_row():
    t = ri(0, 4)
    if t == 0:
        k = gen_private_key(ch(["pkcs8", "pkcs8_ec"]), escaped=True)
        d = {"type": "service_account", "project_id": f"harborline-{ri(100000, 999999)}", "private_key_id": rs(HEX, 40),
             "private_key": "@@K@@", "client_id": rs(DG, 21),
             "token_uri": "https://oauth2.googleapis.com/token"}
        txt = json.dumps(d, indent=2).replace("@@K@@", k + "\\n")
        return txt, [(k, "private_key")]
    k = gen_private_key()
    if t == 1:
        return f"{shell_prompt()}cat ~/.ssh/id_{ch(['ed25519', 'rsa', 'deploy'])}\n{k}", [(k, "private_key")]
    if t == 2:
        return f"{shell_prompt()}cat > /etc/ssl/private/origin.key <<'EOF'\n{k}\nEOF\n{shell_prompt()}chmod 600 /etc/ssl/private/origin.key", [(k, "private_key")]
    if t == 3:
        return f"resource \"tls_private_key\" \"imported\" {{}}\n\nlocals {{\n  deploy_key = <<-EOT\n{k}\nEOT\n}}", [(k, "private_key")]
    return f"User: the deploy fails with 'Permission denied (publickey)'. here's the key we use:\n\n{k}\n\nAssistant: Thanks — the key itself looks intact; let's check the remote's authorized_keys.", [(k, "private_key")]


# ---------------------------------------------------------------- personal-data contexts
def rand_dob():
    y, m, d = rand_date(1955, 2004)
    return f"{y}-{m:02d}-{d:02d}"


CITIES = {"us": "Portland, OR", "uk": "Leeds", "de": "Leipzig", "fr": "Lyon", "es": "Valencia", "it": "Bologna",
          "nl": "Utrecht", "be": "Gent", "pl": "Kraków", "pt": "Porto", "se": "Göteborg", "no": "Bergen", "dk": "Aarhus",
          "fi": "Tampere", "is": "Reykjavík", "ee": "Tartu", "cz": "Brno", "ro": "Cluj-Napoca", "bg": "Plovdiv",
          "hr": "Split", "ch": "Basel", "ie": "Cork", "br": "Curitiba", "ar": "Rosario", "cl": "Valparaíso",
          "mx": "Guadalajara", "ca": "Halifax", "au": "Brisbane", "in": "Pune", "cn": "杭州", "jp": "横浜",
          "kr": "부산", "hk": "Kowloon", "sg": "Tampines", "il": "Haifa", "tr": "İzmir", "za": "Durban",
          "tw": "台中", "th": "Chiang Mai", "si": "Maribor", "lt": "Kaunas", "at": "Graz", "ru": "Kazan"}


class Rec:
    """One person's record: ordered fields (name, value, kind-or-None)."""

    def __init__(self, p, idkind=None, email=True, phone=True, card=False, iban=False, dob=False):
        self.p = p
        self.fields = [("name", p.name, None)]
        if email:
            self.fields.append(("email", p.email, "email"))
        if phone:
            self.fields.append(("phone", p.phone, "phone"))
        if dob:
            self.fields.append(("date_of_birth", rand_dob(), None))
        if idkind == "it_codice_fiscale" and p.loc == "it":
            sex = dict(IT_NAMES).get(p.first, "M")
            self.fields.append(("national_id", gen_it_cf(fold(p.last), fold(p.first), sex), idkind))
        elif idkind == "mx_curp" and p.loc == "mx":
            s2 = ch(MX_SURN)
            p.name = f"{p.first} {p.last} {s2.capitalize()}"
            self.fields[0] = ("name", p.name, None)
            sex = "M" if p.first in ("María", "Ana", "Sofía") else "H"
            self.fields.append(("national_id", gen_mx_curp(fold(p.last).upper(), s2, fold(p.first).upper(), sex), idkind))
        elif idkind:
            self.fields.append(("national_id", ID_GEN[idkind](), idkind))
        self.idkind = idkind
        if card:
            self.fields.append(("card_number", gen_card(), "card_number"))
        if iban:
            cc = {"uk": "GB"}.get(p.loc, p.loc.upper())
            self.fields.append(("iban", gen_iban(cc if cc in IBAN_SPECS else ch(["DE", "FR", "ES", "IT", "NL", "GB"])), "iban"))
        self.fields.append(("city", CITIES.get(p.loc, "—"), None))

    def pairs(self):
        return [(v, k) for _, v, k in self.fields if k]

    def get(self, name):
        for n, v, _ in self.fields:
            if n == name:
                return v
        return None


def _colname(rec, n):
    if n == "national_id" and rec.idkind:
        return ID_FIELD[rec.idkind][-1]
    return n


def ctx_csv(recs):
    cols = [n for n, _, _ in recs[0].fields]
    mixed = len({r.idkind for r in recs}) > 1
    sep = ch([",", ";", "\t", "|"])
    hdr = ["id"] + [(_colname(recs[0], c) if not mixed else c) for c in cols] + (["country"] if mixed else []) + ["created_at"]
    lines = [sep.join(hdr)]
    for i, r in enumerate(recs):
        vals = [str(ri(1000, 99999))]
        for c in cols:
            v = r.get(c)
            vals.append(f'"{v}"' if (sep in v or (sep == "," and " " in v and coin(0.3))) else v)
        if mixed:
            vals.append(r.p.loc.upper())
        vals.append(f"2025-{ri(1, 12):02d}-{ri(1, 28):02d} {ri(0, 23):02d}:{ri(0, 59):02d}:{ri(0, 59):02d}")
        lines.append(sep.join(vals))
    head = ch(["", f"{shell_prompt()}head -n {len(recs) + 1} exports/customers_{ri(20240101, 20251231)}.csv\n",
               f"{shell_prompt()}psql -c \"\\copy (select * from customers limit {len(recs)}) to stdout with csv header\"\n",
               "Here is a sample of the file that fails to import:\n\n```\n"])
    tail = "\n```\n\nThe importer says: row 3: invalid date format" if head.endswith("```\n") else ""
    return head + "\n".join(lines) + tail


def ctx_sql(recs):
    cols = [n for n, _, _ in recs[0].fields]
    mixed = len({r.idkind for r in recs}) > 1
    names = [(c if mixed else _colname(recs[0], c)) for c in cols]
    rows = []
    for r in recs:
        rows.append("(" + ", ".join(f"'{r.get(c)}'".replace("O'", "O''") if "'" in r.get(c) else f"'{r.get(c)}'" for c in cols) + ")")
    txt = f"INSERT INTO customers ({', '.join(names)}) VALUES\n  " + ",\n  ".join(rows) + ";"
    if coin(0.3):
        txt = f"-- Dumped from database version 16.2\n-- Data for Name: customers; Type: TABLE DATA\n\n" + txt
    return txt


def ctx_json(recs):
    items = []
    for r in recs:
        d = {"id": ri(1000, 99999)}
        for n, v, k in r.fields:
            key = camel(n.upper()) if coin(0.5) else n
            if n == "national_id" and r.idkind:
                key = ch(["nationalId", "taxId", "govId", ID_FIELD[r.idkind][-1]])
            d[key] = v
        items.append(d)
    doc = {"data": items, "page": 1, "total": len(items) + ri(0, 400)}
    pre = ch(["", f"{shell_prompt()}curl -s https://api.harborline.app/v1/admin/customers?limit={len(recs)} | jq .\n",
              "HTTP/1.1 200 OK\nContent-Type: application/json\n\n"])
    return pre + json.dumps(doc, indent=2, ensure_ascii=False)


def ctx_ticket(rec):
    p = rec.p
    lines = [f"Ticket #{ri(10000, 99999)} | Priority: {ch(['High', 'Normal', 'Urgent'])} | Channel: {ch(['email', 'web form', 'chat'])}"]
    if rec.get("email"):
        lines.append(f"From: {p.name} <{rec.get('email')}>")
    lines.append(f"Subject: {ch(['Charged twice for order', 'Cannot update my profile', 'Refund request', 'Account locked', 'Wrong tax id on invoice'])} #{ri(100000, 999999)}")
    lines.append("")
    body = [f"Hi, this is {p.first}."]
    if rec.get("national_id"):
        body.append(ch([f"My {ID_FIELD[rec.idkind][0]} is {rec.get('national_id')} — it is wrong on the last invoice.",
                        f"For verification: {ID_FIELD[rec.idkind][0]} {rec.get('national_id')}."]))
    if rec.get("card_number"):
        body.append(f"The card {rec.get('card_number')} was charged twice on {ri(1, 28)}/{ri(1, 12)}.")
    if rec.get("iban"):
        body.append(f"Please refund to IBAN {rec.get('iban')}.")
    if rec.get("phone"):
        body.append(ch([f"Call me back on {rec.get('phone')} please.", f"Phone: {rec.get('phone')}", f"You can text me at {rec.get('phone')}."]))
    body.append(ch(["Thanks!", "Regards", "Merci", "Danke"]))
    return "\n".join(lines + body)


def ctx_email_msg(rec):
    p = rec.p
    to = Person()
    hdr = [f"From: \"{p.name}\" <{rec.get('email')}>", f"To: {to.email}", f"Date: {ch(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])}, {ri(1, 28)} {ch(['Jan', 'Mar', 'May', 'Sep', 'Nov'])} 2025 {ri(8, 18)}:{ri(10, 59)}:{ri(10, 59)} +0{ri(0, 3)}00",
           f"Subject: {ch(['Onboarding documents', 'Re: contract', 'Angebot', 'Devis', 'Factura pendiente'])}", ""]
    body = [ch(["Hello,", "Hallo,", "Bonjour,", "Hola,", "Hi team,"]), "", ch(["please find the signed form attached.", "as discussed on the phone, details below.", "see below."])]
    if rec.get("national_id"):
        body.append(f"{ID_FIELD[rec.idkind][0]}: {rec.get('national_id')}")
    if rec.get("iban"):
        body.append(f"IBAN: {rec.get('iban')}")
    body += ["", "--", p.name]
    if rec.get("phone"):
        body.append(ch(["Mobile: ", "Tel. ", "M: ", "📞 "]) + rec.get("phone"))
    pairs = rec.pairs() + [(to.email, "email")]
    return "\n".join(hdr + body), pairs


def ctx_log(recs):
    out = []
    for r in recs:
        ts = f"2025-{ri(1, 12):02d}-{ri(1, 28):02d}T{ri(0, 23):02d}:{ri(0, 59):02d}:{ri(0, 59):02d}Z"
        kv = " ".join(f"{n}={json.dumps(v, ensure_ascii=False) if ' ' in v else v}" for n, v, k in r.fields if n != "city")
        out.append(f"{ts} INFO {ch(['user.signup', 'kyc.submit', 'profile.update', 'checkout.address'])} request_id={uuid4()} {kv}")
    return "\n".join(out)


def ctx_hr_yaml(rec):
    lines = [f"employee:", f"  id: E{ri(10000, 99999)}", f"  start_date: 2025-{ri(1, 12):02d}-01"]
    for n, v, k in rec.fields:
        key = ID_FIELD[rec.idkind][-1] if n == "national_id" else n
        lines.append(f"  {key}: \"{v}\"")
    lines.append(f"  department: {ch(['Finance', 'Engineering', 'Logistics', 'Sales'])}")
    return "\n".join(lines)


def ctx_fixture(rec):
    lang = ri(0, 2)
    if lang == 0:
        args = ",\n        ".join(f"{(ID_FIELD[rec.idkind][-1] if n == 'national_id' else n)}=\"{v}\"" for n, v, k in rec.fields)
        return f"@pytest.fixture\ndef customer(db):\n    return Customer.objects.create(\n        {args},\n    )"
    if lang == 1:
        args = ",\n  ".join(f"{camel((ID_FIELD[rec.idkind][-1] if n == 'national_id' else n).upper())}: '{v}'" for n, v, k in rec.fields)
        return f"export const mockUser: User = {{\n  {args},\n}};"
    args = "\n    ".join(f"{camel(n.upper())} = \"{v}\"," for n, v, k in rec.fields)
    return f"var customer = new Customer\n{{\n    {args}\n}};"


def ctx_pg_error(rec):
    vals = ", ".join(v for _, v, _ in rec.fields)
    if rec.get("email") and coin():
        return (f"ERROR:  duplicate key value violates unique constraint \"customers_email_key\"\nDETAIL:  Key (email)=({rec.get('email')}) already exists.",
                [(rec.get("email"), "email")])
    return f"ERROR:  null value in column \"country_code\" of relation \"customers\" violates not-null constraint\nDETAIL:  Failing row contains ({ri(100, 99999)}, {vals}, null)."


def ctx_form(rec):
    parts = []
    for n, v, k in rec.fields:
        parts.append(f"  {n.replace('_', ' ').title():<16} {v}")
    return f"New submission — \"{ch(['Contact us', 'KYC verification', 'Job application', 'Warranty claim'])}\" form\n" + "\n".join(parts) + f"\n  Submitted        2025-{ri(1, 12):02d}-{ri(1, 28):02d} {ri(0, 23):02d}:{ri(0, 59):02d}"


def ctx_vcard(rec):
    p = rec.p
    lines = ["BEGIN:VCARD", "VERSION:3.0", f"N:{p.last};{p.first};;;", f"FN:{p.name}"]
    if rec.get("email"):
        lines.append(f"EMAIL;TYPE=INTERNET:{rec.get('email')}")
    if rec.get("phone"):
        lines.append(f"TEL;TYPE=CELL:{rec.get('phone')}")
    lines.append("END:VCARD")
    return "\n".join(lines)


CONTACT_SENT = [
    ("us", "You can reach me at {e} or on {p}."), ("es", "Mi correo es {e} y mi teléfono {p}."),
    ("de", "Meine E-Mail-Adresse ist {e}, Handy: {p}"), ("fr", "Mon adresse mail : {e}, tél. {p}"),
    ("it", "Il mio numero è {p}, scrivimi a {e}"), ("br", "Meu e-mail é {e} e o celular {p}"),
    ("cn", "我的邮箱是 {e}，电话 {p}"), ("jp", "メールアドレスは {e}、電話番号は {p} です"),
    ("kr", "제 이메일은 {e}이고 전화번호는 {p}입니다"), ("pl", "Mój e-mail to {e}, telefon {p}"),
    ("nl", "Mijn e-mailadres is {e}, bel me op {p}"), ("se", "Min e-post är {e}, ring {p}"),
    ("ru", "Мой email {e}, телефон {p}"), ("tr", "E-posta adresim {e}, telefonum {p}"),
    ("il", "האימייל שלי הוא {e} והטלפון {p}"), ("eg", "بريدي الإلكتروني هو {e} ورقمي {p}"),
    ("id", "Email saya {e}, nomor HP {p}"), ("ph", "Email ko ay {e}, cell {p}"),
    ("th", "อีเมลของฉันคือ {e} เบอร์โทร {p}"), ("in", "मेरा ईमेल {e} है और फ़ोन {p}"),
    ("uk", "Drop me a line at {e} or ring {p} after 5."), ("au", "Email's {e}, mob {p} cheers"),
]
EMAIL_ONLY = ["ping me at {e}", "Please cc {e} on the thread.", "Rechnung bitte an {e}", "envoyez le devis à {e}",
              "mi correo: {e}", "请发到 {e}", "{e} までご連絡ください", "pls reset the account for {e}, she's locked out",
              "User {e} not found in tenant 'harborline'", "Invited {e} to the workspace"]
PHONE_ONLY = ["call me: {p}", "my number changed to {p}", "Rufen Sie mich unter {p} an.", "appelez-moi au {p}",
              "mi número es {p}", "电话：{p}", "携帯：{p}", "whatsapp {p}", "SMS to {p} failed: undeliverable",
              "Numer telefonu: {p}", "Telefone: {p}", "Contact number {p}"]


def contact_sentence(kinds):
    loc, tpl = ch(CONTACT_SENT)
    p = Person(loc if loc in LOCALES else None)
    ph = gen_phone(loc) if loc in ("eg", "id", "ph") else p.phone
    if "email" in kinds and "phone" in kinds:
        s = tpl.format(e=p.email, p=ph)
        pairs = [(p.email, "email"), (ph, "phone")]
    elif "email" in kinds:
        s = ch(EMAIL_ONLY).format(e=p.email)
        pairs = [(p.email, "email")]
    else:
        s = ch(PHONE_ONLY).format(p=ph)
        pairs = [(ph, "phone")]
    form = ri(0, 3)
    if form == 0:
        s = f"[{ri(8, 22):02d}:{ri(0, 59):02d}] {fold(p.first).lower()}: {s}"
    elif form == 1:
        s = f"User: {s}\nAssistant: Thanks, I've updated the contact details on the account."
    elif form == 2:
        s = f"> {s}"
    return s, pairs


def id_sentence(kind, with_contact=False):
    v = ID_GEN[kind]()
    s = ch(ID_SENT[kind]).format(v=v)
    pairs = [(v, kind)]
    if with_contact:
        p = Person(ID_LOCALE[kind])
        s += ch([f" Mail: {p.email}", f" ({p.phone})", f"\n{p.name}\n{p.phone}"])
        pairs.append((p.email, "email") if "Mail:" in s else (p.phone, "phone"))
    form = ri(0, 3)
    if form == 0:
        s = f"[{ri(8, 22):02d}:{ri(0, 59):02d}] {ch(['cliente', 'kunde', 'user_4471', 'guest', 'customer'])}: {s}"
    elif form == 1:
        s = f"User: {s}\nAssistant: Thank you. I won't repeat the number back; it has been attached to your case."
    return s, pairs


def card_row():
    v = gen_card()
    p = Person()
    t = ri(0, 5)
    exp = f"{ri(1, 12):02d}/{ri(26, 31)}"
    if t == 0:
        return json.dumps({"payment_method": {"type": "card", "card": {"number": v, "exp": exp, "holder": p.name}}, "amount": ri(100, 99999), "currency": ch(["EUR", "USD", "GBP"])}, indent=2, ensure_ascii=False), [(v, "card_number")]
    if t == 1:
        return f"[{ri(8, 22):02d}:{ri(0, 59):02d}] {fold(p.first).lower()}: {ch(['my card number is', 'meine Kartennummer ist', 'mi tarjeta es la', 'le numéro de ma carte est', '我的卡号是', 'numer karty:'])} {v}, exp {exp}", [(v, "card_number")]
    if t == 2:
        return f"2025-{ri(1, 12):02d}-{ri(1, 28):02d}T{ri(0, 23):02d}:{ri(10, 59)}:{ri(10, 59)}Z ERROR payments.gateway charge declined card={v} exp={exp} amount={ri(5, 900)}.{ri(10, 99)} reason=insufficient_funds", [(v, "card_number")]
    if t == 3:
        return f"Order #{ri(100000, 999999)}\nCustomer: {p.name} <{p.email}>\nPayment: {ch(['Visa', 'Mastercard', 'Card'])} {v} ({exp})\nTotal: €{ri(10, 900)},{ri(10, 99)}", [(v, "card_number"), (p.email, "email")]
    if t == 4:
        return f"cardholder,card_number,expiry\n\"{p.name}\",{v.replace(' ', '')},{exp}", [(v.replace(" ", ""), "card_number")]
    return f"User: can you update my billing? new card {v} exp {exp}\nAssistant: I can't process card numbers in chat — please use the secure billing page.", [(v, "card_number")]


def iban_row():
    p = Person(ch(["de", "fr", "es", "it", "nl", "be", "at", "pl", "pt", "ie", "fi", "ch", "se", "dk", "no", "uk", "cz", "ro", "hr", "si", "lt", "ee", "bg"]))
    ccmap = {"uk": "GB", "at": "AT"}
    cc = ccmap.get(p.loc, p.loc.upper())
    if cc not in IBAN_SPECS:
        cc = ch(list(IBAN_SPECS))
    v = gen_iban(cc)
    t = ri(0, 5)
    if t == 0:
        return f"Rechnung Nr. RE-2025-{ri(100, 999)}\nBitte überweisen Sie den Betrag von {ri(100, 9000)},{ri(10, 99)} € innerhalb von 14 Tagen auf:\nKontoinhaber: {p.name}\nIBAN: {v}\nBIC: {rs(UP, 6)}{rs(UP + DG, 2)}", [(v, "iban")]
    if t == 1:
        vv = v.replace(" ", "")
        return f"<CdtTrfTxInf>\n  <Amt><InstdAmt Ccy=\"EUR\">{ri(10, 9000)}.{ri(10, 99)}</InstdAmt></Amt>\n  <Cdtr><Nm>{p.name}</Nm></Cdtr>\n  <CdtrAcct><Id><IBAN>{vv}</IBAN></Id></CdtrAcct>\n</CdtTrfTxInf>", [(vv, "iban")]
    if t == 2:
        return f"[{ri(8, 22):02d}:{ri(0, 59):02d}] {fold(p.first).lower()}: {ch(['überweis mir das bitte auf', 'please send it to', 'mi IBAN es', 'mon IBAN :', 'il mio IBAN è', 'mijn rekeningnummer is', 'mój numer konta:'])} {v}", [(v, "iban")]
    if t == 3:
        return f"employee_id;name;iban;salary\nE{ri(1000, 9999)};{p.name};{v};{ri(2500, 9000)}", [(v, "iban")]
    if t == 4:
        return json.dumps({"beneficiary": {"name": p.name, "iban": v, "email": p.email}, "reference": f"INV-{ri(10000, 99999)}"}, indent=2, ensure_ascii=False), [(v, "iban"), (p.email, "email")]
    return f"UPDATE suppliers SET iban = '{v}' WHERE supplier_id = {ri(10, 900)};", [(v, "iban")]


# ---------------------------------------------------------------- multi-secret bundles
def _bundle_items(kinds):
    items, used = [], set()
    for k in kinds:
        spec = TOKENS[k]
        env = ch(spec["env"])
        if env in used:
            env = env + "_2"
        used.add(env)
        items.append((env, spec["gen"](), k))
    return items


def bundle_env(kinds, head=None):
    items = _bundle_items(kinds)
    lines = clean_env_lines(ri(2, 5))
    pairs = []
    for env, v, k in items:
        q = q_any()
        lines.insert(ri(0, len(lines)), f"{env}={q}{v}{q}")
        pairs.append((v, k))
    if coin(0.4):
        pw = gen_password("url")
        lines.insert(0, f"DATABASE_URL={url_with_password(pw)}")
        pairs.append((pw, "url_credentials"))
    if head is None:
        head = ch(["$ cat .env\n", "Tool result (read_file .env.production):\n", "", "# copied from 1Password, do not commit\n"])
    return head + "\n".join(lines), pairs


def bundle_k8s(kinds):
    items = _bundle_items(kinds)
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {ch(SERVICES)}-env", f"  namespace: {ch(NAMESPACES)}", "type: Opaque", "stringData:"]
    pairs = []
    for env, v, k in items:
        lines.append(f"  {env}: \"{v}\"")
        pairs.append((v, k))
    if coin(0.5):
        pw = gen_password()
        lines.append(f"  {ch(PW_ENV_KEYS)}: \"{pw}\"")
        pairs.append((pw, "password"))
    return "\n".join(lines), pairs


def bundle_compose(kinds):
    items = _bundle_items(kinds)
    pw = gen_password()
    svc = ch(SERVICES)
    lines = ["services:", "  db:", "    image: postgres:16", "    environment:", f"      POSTGRES_PASSWORD: \"{pw}\"", f"  {svc}:",
             f"    image: ghcr.io/harborline/{svc}:{ri(1, 3)}.{ri(0, 30)}.{ri(0, 9)}", "    depends_on: [db]", "    environment:"]
    pairs = [(pw, "password")]
    for env, v, k in items:
        lines.append(f"      {env}: \"{v}\"")
        pairs.append((v, k))
    return "\n".join(lines), pairs


def bundle_ci_log(kinds):
    items = _bundle_items(kinds)
    base = f"2025-{ri(1, 12):02d}-{ri(1, 28):02d}T{ri(0, 23):02d}:{ri(10, 59)}:"
    lines = [f"{base}{ri(10, 59)}.{rs(DG, 7)}Z ##[group]Run ./scripts/debug-env.sh"]
    pairs = []
    for env, v, k in items:
        lines.append(f"{base}{ri(10, 59)}.{rs(DG, 7)}Z {env}={v}")
        pairs.append((v, k))
    lines.append(f"{base}{ri(10, 59)}.{rs(DG, 7)}Z GITHUB_SHA={rs(HEX, 40)}")
    lines.append(f"{base}{ri(10, 59)}.{rs(DG, 7)}Z ##[endgroup]")
    return "\n".join(lines), pairs


def bundle_tfvars(kinds):
    items = _bundle_items(kinds)
    lines = [f"# {ch(['prod', 'staging'])}.auto.tfvars", f"region = \"{ch(['eu-west-1', 'us-east-1'])}\""]
    pairs = []
    for env, v, k in items:
        lines.append(f"{env.lower()} = \"{v}\"")
        pairs.append((v, k))
    return "\n".join(lines), pairs


def bundle_agent(kinds):
    txt, pairs = bundle_env(kinds, head="")
    txt = ("User: the staging deploy keeps failing with 401s, can you look?\nAssistant: Let me inspect the environment file the service loads.\n"
           "Tool call: read_file {\"path\": \"deploy/staging/.env\"}\nTool result:\n" + txt +
           "\nAssistant: One of these keys is probably revoked; I'll test them one at a time.")
    return txt, pairs


BUNDLES = [bundle_env, bundle_k8s, bundle_compose, bundle_ci_log, bundle_tfvars, bundle_agent]


# ---------------------------------------------------------------- clean rows (look-alikes, no secrets, no personal data)
def cl_gitlog():
    msgs = ["fix: handle empty cart in checkout", "chore(deps): bump axios from 1.6.7 to 1.7.2", "feat(api): add /v2/shipments",
            "refactor: extract retry policy", "docs: explain password rotation policy", "ci: cache pnpm store",
            "test: cover token refresh edge case", "perf: batch inserts in importer", "Revert \"feat: new nav\"",
            "build: pin node to 20.11.1"]
    n = ri(3, 7)
    if coin():
        return f"{shell_prompt()}git log --oneline -n {n}\n" + "\n".join(f"{rs(HEX, 7)} {ch(msgs)}" for _ in range(n))
    out = [f"{shell_prompt()}git log -n {n} --format='%H %ad %s' --date=short"]
    for _ in range(n):
        out.append(f"{rs(HEX, 40)} 2025-{ri(1, 12):02d}-{ri(1, 28):02d} {ch(msgs)}")
    return "\n".join(out)


def cl_sha256sum():
    files = ["dist/app-linux-amd64.tar.gz", "dist/app-darwin-arm64.tar.gz", "dist/app-windows-amd64.zip", "SHA256SUMS.sig",
             "harborline_sdk-2.4.0-py3-none-any.whl", "release.json"]
    n = ri(2, 5)
    algo = ch(["sha256sum", "shasum -a 256", "md5sum", "sha1sum"])
    ln = {"sha256sum": 64, "shasum -a 256": 64, "md5sum": 32, "sha1sum": 40}[algo]
    return f"{shell_prompt()}{algo} dist/*\n" + "\n".join(f"{rs(HEX, ln)}  {f}" for f in R.sample(files, n))


def cl_docker():
    lines = [f"{shell_prompt()}docker pull ghcr.io/harborline/{ch(SERVICES)}:{ri(1, 3)}.{ri(0, 20)}.{ri(0, 9)}"]
    for _ in range(ri(3, 6)):
        lines.append(f"{rs(HEX, 12)}: Pull complete")
    lines.append(f"Digest: sha256:{rs(HEX, 64)}")
    lines.append("Status: Downloaded newer image")
    return "\n".join(lines)


def cl_lockfile():
    pk = ch(["lodash", "zod", "undici", "picocolors", "nanoid", "semver"])
    ver = f"{ri(1, 5)}.{ri(0, 20)}.{ri(0, 9)}"
    if coin():
        return (f"    \"node_modules/{pk}\": {{\n      \"version\": \"{ver}\",\n      \"resolved\": \"https://registry.npmjs.org/{pk}/-/{pk}-{ver}.tgz\",\n"
                f"      \"integrity\": \"sha512-{b64s(rbytes(64))}\",\n      \"license\": \"MIT\"\n    }}")
    mod = ch(["github.com/google/uuid", "golang.org/x/crypto", "github.com/spf13/cobra", "go.uber.org/zap"])
    return f"{mod} v{ver} h1:{b64s(rbytes(32))}\n{mod} v{ver}/go.mod h1:{b64s(rbytes(32))}"


def cl_css():
    rules = []
    for sel in R.sample([":root", ".btn-primary", ".navbar", ".alert-warning", "body.dark", ".badge--new", "a:hover"], ri(2, 4)):
        props = "\n".join(f"  {p}: #{rs(HEX, ch([3, 6, 6, 8]))};" for p in R.sample(["color", "background", "border-color", "--accent", "--muted", "outline-color"], ri(1, 3)))
        rules.append(f"{sel} {{\n{props}\n}}")
    return "\n".join(rules)


def cl_b64img():
    raw = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + rbytes(ri(60, 140))
    return f"<img alt=\"logo\" width=\"16\" height=\"16\" src=\"data:image/png;base64,{b64s(raw)}\" />"


def cl_uuid_log():
    lines = []
    for _ in range(ri(3, 6)):
        lines.append(f"2025-{ri(1, 12):02d}-{ri(1, 28):02d}T{ri(0, 23):02d}:{ri(0, 59):02d}:{ri(0, 59):02d}.{ri(100, 999)}Z INFO  {ch(SERVICES)} request_id={uuid4()} trace_id={rs(HEX, 32)} span_id={rs(HEX, 16)} status={ch([200, 201, 204, 304, 404])} duration_ms={ri(2, 900)}")
    return "\n".join(lines)


def cl_build():
    return (f"Build #{ri(1000, 9999)} ({ch(['main', 'release/2.4', 'feature/checkout-v2'])})\n  id: {uuid4()}\n  commit: {rs(HEX, 40)}\n"
            f"  runner: {ch(HOSTS)}\n  started: 2025-{ri(1, 12):02d}-{ri(1, 28):02d}T{ri(0, 23):02d}:{ri(10, 59)}:00Z\n  duration: {ri(1, 40)}m{ri(0, 59)}s\n"
            f"  artifact: app-{ri(1, 3)}.{ri(0, 20)}.{ri(0, 9)}+build.{ri(100, 999)}.tar.gz\n  cache key: v2-deps-{rs(HEX, 16)}")


def cl_versions():
    return (f"{shell_prompt()}node --version && npm --version && python3 --version && go version\n"
            f"v{ri(18, 22)}.{ri(0, 20)}.{ri(0, 9)}\n{ri(9, 10)}.{ri(0, 9)}.{ri(0, 9)}\nPython 3.{ri(9, 13)}.{ri(0, 9)}\ngo version go1.{ri(20, 23)}.{ri(0, 9)} linux/amd64")


def cl_order():
    return (f"Order confirmation\nOrder no.: {ri(100, 999)}-{rs(DG, 7)}-{rs(DG, 7)}\nDate: {ri(1, 28)}.{ri(1, 12)}.2025\n"
            f"Items: {ri(1, 4)} x {ch(['USB-C cable 2m', 'Desk lamp', 'Coffee beans 1kg', 'Notebook A5'])} @ {ri(3, 80)}.{ri(10, 99)} EUR\n"
            f"Shipping: 4.99 EUR\nTotal: {ri(10, 400)}.{ri(10, 99)} EUR (incl. 19% VAT)\nTracking: 1Z{rs(UP + DG, 16)}\nEstimated delivery: {ri(2, 5)} business days")


def cl_timestamps():
    e = ri(1704067200, 1767225600)
    return (f"{shell_prompt()}date +%s && date -u\n{e}\n{ch(['Mon', 'Tue', 'Wed'])} {ch(['Jan', 'Jun', 'Oct'])} {ri(1, 28)} {ri(0, 23):02d}:{ri(10, 59)}:{ri(10, 59)} UTC 2025\n"
            f"# cron\n{ri(0, 59)} {ri(0, 23)} * * {ri(0, 6)} /usr/local/bin/backup.sh\nlast_run_ms={e * 1000 + ri(0, 999)}")


def cl_prices():
    rows = ["sku,name,price_eur,stock"]
    for _ in range(ri(3, 6)):
        rows.append(f"{rs(UP, 3)}-{rs(DG, 5)},{ch(['Espresso cup', 'Chair mat', 'Monitor arm', 'Cable tray', 'Label printer'])},{ri(2, 400)}.{ri(10, 99)},{ri(0, 500)}")
    return "\n".join(rows)


def cl_ports():
    lines = [f"{shell_prompt()}docker ps --format 'table {{{{.Names}}}}\\t{{{{.Ports}}}}\\t{{{{.Status}}}}'", "NAMES        PORTS                     STATUS"]
    for s in R.sample(SERVICES, ri(2, 4)):
        p = ch([3000, 5432, 6379, 8080, 8443, 9090, 9200])
        lines.append(f"{s:<12} {p}/tcp, {p + 1}/tcp{'':<6} Up {ri(1, 9)} hours (healthy)")
    return "\n".join(lines)


def cl_hostnames():
    return ("upstream api_backend {\n    server api-1.internal.harborline.app:8080 max_fails=3;\n    server api-2.internal.harborline.app:8080 backup;\n}\n"
            "server {\n    listen 443 ssl http2;\n    server_name api.harborline.app;\n    ssl_certificate /etc/letsencrypt/live/api.harborline.app/fullchain.pem;\n"
            "    ssl_certificate_key /etc/letsencrypt/live/api.harborline.app/privkey.pem;\n    location / { proxy_pass http://api_backend; }\n}")


def cl_pubkeys():
    t = ri(0, 4)
    if t == 0:
        return f"{shell_prompt()}cat ~/.ssh/authorized_keys\n{gen_ssh_pub()}\n{gen_ssh_pub()}"
    if t == 1:
        return f"# public key for verifying release signatures\n{gen_pub_pem()}"
    if t == 2:
        return f"{shell_prompt()}age-keygen -y ~/.config/sops/age/keys.txt\n{gen_age_pub()}\n# .sops.yaml\ncreation_rules:\n  - path_regex: secrets/.*\\.yaml\n    age: {gen_age_pub()}"
    if t == 3:
        return f"{shell_prompt()}ssh-keyscan github.com 2>/dev/null | head -1\ngithub.com ssh-ed25519 {_ed25519_blob()}"
    body = rs(B64, 64 * 5)
    return "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBG" + "\n".join(body[i:i + 64] for i in range(0, len(body), 64)) + f"\n={rs(B64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----"


def cl_cert():
    body = "MIIDdzCCAl+gAwIBAgIU" + rs(B64, 64 * 12)
    return f"{shell_prompt()}openssl s_client -connect api.harborline.app:443 -showcerts </dev/null 2>/dev/null | sed -n '/BEGIN CERT/,/END CERT/p'\n-----BEGIN CERTIFICATE-----\n" + "\n".join(body[i:i + 64] for i in range(0, len(body), 64)) + "\n-----END CERTIFICATE-----"


def cl_placeholders():
    t = ri(0, 6)
    if t == 0:
        return ("# .env.example — copy to .env and fill in\nOPENAI_API_KEY=YOUR_API_KEY\nSTRIPE_SECRET_KEY=sk_live_...\nDATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME\n"
                "SLACK_WEBHOOK_URL=<your-slack-webhook-url>\nGITHUB_TOKEN=\nSENTRY_DSN=")
    if t == 1:
        return "## Configuration\n\nSet `ANTHROPIC_API_KEY` to your key (it starts with `sk-ant-`). Never paste the key into issues.\n\n```bash\nexport ANTHROPIC_API_KEY=<your-key-here>\n```"
    if t == 2:
        return "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  AWS_ACCESS_KEY_ID: ${{ secrets.AWS_ACCESS_KEY_ID }}\n  AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}\n  DB_PASSWORD: ${{ vars.DB_PASSWORD_REF }}"
    if t == 3:
        return "database:\n  host: \"{{ db_host }}\"\n  user: \"{{ db_user }}\"\n  password: \"{{ vault_db_password }}\"\n  sslmode: require"
    if t == 4:
        return "import os\n\nclient = OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])\ndb_password = os.environ.get(\"DB_PASSWORD\")\nif not db_password:\n    raise RuntimeError(\"DB_PASSWORD is not set\")"
    if t == 5:
        return "curl https://api.example.com/v1/items \\\n  -H \"Authorization: Bearer $API_TOKEN\" \\\n  -H \"X-Api-Key: ${PARTNER_KEY:?missing}\""
    return "[smtp]\nhost = smtp.sendrelay.net\nuser = %(SMTP_USER)s\npassword = %(SMTP_PASSWORD)s\nstarttls = true"


def cl_masked():
    t = ri(0, 5)
    if t == 0:
        return f"{shell_prompt()}gh auth status\ngithub.com\n  ✓ Logged in to github.com account ci-bot (keyring)\n  - Active account: true\n  - Git operations protocol: https\n  - Token: ghp_************************************\n  - Token scopes: 'repo', 'workflow'"
    if t == 1:
        return f"2025-{ri(1, 12):02d}-{ri(1, 28):02d}T10:00:00Z Run ./deploy.sh\n  env:\n    AWS_ACCESS_KEY_ID: ***\n    AWS_SECRET_ACCESS_KEY: ***\n    NPM_TOKEN: ***\nDeploying to production..."
    if t == 2:
        return f"Payment method: Visa •••• {rs(DG, 4)} (expires {ri(1, 12):02d}/{ri(26, 30)})\nBilling email: ••••••@••••.com\nIBAN: DE** **** **** **** **{rs(DG, 2)} {rs(DG, 2)}"
    if t == 3:
        return f"{shell_prompt()}aws configure list\n      Name                    Value             Type    Location\n      ----                    -----             ----    --------\n   profile                <not set>             None    None\naccess_key     ****************{rs(B32U, 4)} shared-credentials-file\nsecret_key     ****************{rs(ALNUM, 4)} shared-credentials-file\n    region             eu-central-1      config-file    ~/.aws/config"
    if t == 4:
        return "{\n  \"api_key\": \"[REDACTED]\",\n  \"password\": \"********\",\n  \"token\": \"<redacted>\",\n  \"endpoint\": \"https://api.harborline.app\"\n}"
    return f"Your API key sk-...{rs(ALNUM, 4)} was rotated on 2025-{ri(1, 12):02d}-{ri(1, 28):02d}. The old key stops working in 24 hours."


DOC_PW = [
    "Passwords must be at least 12 characters long and include one number and one symbol. Passwords are hashed with Argon2id and never logged.",
    "To reset your password, open Settings → Security → Change password. You will receive a confirmation email with a link that expires after 30 minutes.",
    "The `--password-stdin` flag reads the password from standard input, which keeps it out of your shell history.",
    "If `requirepass` is set in redis.conf, clients must send AUTH before any other command.",
    "Never store the admin password in the repository. Use the secrets manager and reference it as `${DB_PASSWORD}` in the compose file.",
    "Le mot de passe doit contenir au moins 12 caractères. Ne le partagez jamais par e-mail.",
    "Das Passwort muss mindestens 12 Zeichen lang sein und darf nicht per Chat verschickt werden.",
    "La contraseña se guarda cifrada; el soporte nunca te la pedirá por teléfono.",
    "パスワードは12文字以上で設定してください。チャットで共有しないでください。",
    "密码至少需要 12 位，且不得通过聊天工具发送。",
    "Password rotation: service accounts every 90 days, humans every 180 days. See RUNBOOK-SEC-07.",
    "Q: What happens if I forget my password?\nA: Click \"Forgot password\" on the sign-in page; a reset link is sent to the address on file.",
]


def cl_docs():
    return ch(DOC_PW)


def cl_stripe_ids():
    return json.dumps({"id": "pi_" + rs(ALNUM, 24), "object": "payment_intent", "amount": ri(100, 99999), "currency": "eur",
                       "customer": "cus_" + rs(ALNUM, 14), "payment_method": "pm_" + rs(ALNUM, 24), "latest_charge": "ch_" + rs(ALNUM, 24),
                       "status": "succeeded", "created": ri(1704067200, 1767225600)}, indent=2)


def cl_slack_ids():
    return f"channel=C0{rs(UP + DG, 9)} user=U0{rs(UP + DG, 9)} team=T0{rs(UP + DG, 8)} ts={ri(1704067200, 1767225600)}.{rs(DG, 6)} thread_ts={ri(1704067200, 1767225600)}.{rs(DG, 6)}"


def cl_arn():
    acct = rs(DG, 12)
    return (f"{shell_prompt()}aws sts get-caller-identity\n{{\n    \"UserId\": \"AROA{rs(B32U, 17)}:ci-session\",\n    \"Account\": \"{acct}\",\n"
            f"    \"Arn\": \"arn:aws:sts::{acct}:assumed-role/ci-deployer/ci-session\"\n}}")


def cl_k8s_cm():
    return (f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {ch(SERVICES)}-config\n  namespace: {ch(NAMESPACES)}\n  resourceVersion: \"{ri(1000000, 99999999)}\"\n  uid: {uuid4()}\n"
            f"data:\n  LOG_LEVEL: info\n  FEATURE_CHECKOUT_V2: \"true\"\n  CACHE_TTL: \"3600\"\n  UPSTREAM_URL: http://ingest.{ch(NAMESPACES)}.svc.cluster.local:8080")


def cl_tfplan():
    return (f"  # aws_db_instance.main will be updated in-place\n  ~ resource \"aws_db_instance\" \"main\" {{\n        id       = \"db-{rs(UP + DG, 26)}\"\n"
            f"      ~ password = (sensitive value)\n        username = \"app\"\n      ~ instance_class = \"db.t4g.medium\" -> \"db.t4g.large\"\n    }}\n\nPlan: 0 to add, 1 to change, 0 to destroy.")


def cl_trace():
    return (f"Traceback (most recent call last):\n  File \"/app/worker/tasks.py\", line {ri(20, 400)}, in process_batch\n    rows = parse(payload)\n"
            f"  File \"/app/worker/parse.py\", line {ri(10, 200)}, in parse\n    return [Row(**r) for r in data[\"items\"]]\nKeyError: 'items'\n"
            f"task_id={uuid4()} retries=3/5 queue=default worker=celery@{ch(HOSTS).split('.')[0]}")


def cl_java_trace():
    return (f"java.lang.IllegalStateException: Connection pool shut down\n\tat org.apache.http.util.Asserts.check(Asserts.java:34)\n"
            f"\tat com.harborline.billing.InvoiceService.render(InvoiceService.java:{ri(40, 400)})\n\tat com.harborline.billing.Job.run(Job.java:{ri(10, 90)})\n"
            f"\t... {ri(5, 40)} common frames omitted\nCorrelation-Id: {uuid4()}")


def cl_sentry_dsn_pk():
    return (f"// public client-side config\nSentry.init({{ dsn: \"https://{rs(HEX, 32)}@o{rs(DG, 6)}.ingest.sentry.io/{rs(DG, 7)}\", tracesSampleRate: 0.1 }});\n"
            f"const stripe = Stripe('pk_live_51{rs(ALNUM, 96)}');")


def cl_hex_blobs():
    return (f"{shell_prompt()}b3sum --no-names dist/app.wasm && xxd -l 48 -p dist/app.wasm\n{rs(HEX, 64)}\n0061736d01000000{rs(HEX, 48)}\n{rs(HEX, 32)}\n"
            f"wasm-opt: {ri(1000, 90000)} bytes saved")


def cl_numbers():
    return (f"Invoice INV-2025-{rs(DG, 6)}\nCustomer no. {rs(DG, 8)}\nContract {rs(DG, 4)}-{rs(DG, 4)}-{rs(DG, 2)}\nISBN 978-{ri(0, 9)}-{rs(DG, 3)}-{rs(DG, 5)}-{ri(0, 9)}\n"
            f"Batch {rs(DG, 11)} / lot {rs(DG, 6)}\nPO {rs(DG, 10)}")


def cl_uuids_json():
    return json.dumps({"workspace_id": uuid4(), "project_id": uuid4(), "run_id": uuid4(), "lineage": uuid4(),
                       "serial": ri(1, 900), "terraform_version": f"1.{ri(5, 9)}.{ri(0, 9)}"}, indent=2)


def cl_shell_misc():
    return (f"{shell_prompt()}df -h /\nFilesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p1   {ri(20, 500)}G  {ri(5, 200)}G  {ri(5, 300)}G  {ri(5, 95)}% /\n"
            f"{shell_prompt()}uptime\n {ri(0, 23):02d}:{ri(10, 59)}:{ri(10, 59)} up {ri(1, 300)} days,  {ri(1, 23)}:{ri(10, 59)},  2 users,  load average: 0.{ri(10, 99)}, 0.{ri(10, 99)}, 0.{ri(10, 99)}")


def cl_git_ssh_url():
    return (f"{shell_prompt()}git remote -v\norigin\tgit@github.com:harborline/{ch(SERVICES)}.git (fetch)\norigin\tgit@github.com:harborline/{ch(SERVICES)}.git (push)\n"
            f"{shell_prompt()}npx create-vite@5.2.0 web && cd web && npm i react@18.3.1 @types/node@20.12.7")


def cl_jwt_doc():
    return ("A JWT has three base64url parts: header.payload.signature. The header usually looks like {\"alg\":\"RS256\",\"typ\":\"JWT\"}.\n"
            "Validate `exp`, `nbf`, `iss` and `aud` on every request; never trust `alg: none`.")


def cl_colour_theme():
    d = {"name": "harbor-dark", "colors": {k: "#" + rs(HEX, 6) for k in ["editor.background", "editor.foreground", "statusBar.background", "terminal.ansiGreen", "badge.background"]}}
    return json.dumps(d, indent=2)


def cl_chat_clean():
    return ch([
        "[09:14] lars: deploy of billing-svc 2.14.3 is done, build #8812, commit 4f9c2e1\n[09:15] noa: 👍 monitoring looks fine, p95 212ms",
        "[16:02] chen.w: the password reset email goes out but the link is expired immediately — is the TTL in seconds or minutes?\n[16:03] maria.k: minutes, RESET_TTL=30",
        "User: where do I put my API key?\nAssistant: Put it in an environment variable such as OPENAI_API_KEY and read it with os.environ; don't hard-code it.",
        "User: rotate the stripe key pls\nAssistant: Done — the old key was revoked in the dashboard and the new one is stored in Vault at secret/payments/stripe. I did not print it here.",
        "Der Build ist grün, Version 3.2.0 ist auf Staging. Bitte bis 17 Uhr testen.",
        "El despliegue terminó a las 14:32; el identificador del job es 7d1c9a40-5b2e-4f6a-9c3d-2e8b7a1f0c55.",
    ])


CLEAN_GENS = [cl_gitlog, cl_sha256sum, cl_docker, cl_lockfile, cl_css, cl_b64img, cl_uuid_log, cl_build, cl_versions,
              cl_order, cl_timestamps, cl_prices, cl_ports, cl_hostnames, cl_pubkeys, cl_cert, cl_placeholders,
              cl_masked, cl_docs, cl_stripe_ids, cl_slack_ids, cl_arn, cl_k8s_cm, cl_tfplan, cl_trace, cl_java_trace,
              cl_sentry_dsn_pk, cl_hex_blobs, cl_numbers, cl_uuids_json, cl_shell_misc, cl_git_ssh_url, cl_jwt_doc,
              cl_colour_theme, cl_chat_clean]


# ---------------------------------------------------------------- assembly
from collections import Counter

FENCE_INTRO = ["Here's my config, why does it fail?", "This is what the agent printed:", "Context from the incident channel:",
               "Can you explain this output?", "Voici la sortie :", "Das ist die Ausgabe:", "出力はこちら：", "Esta es la salida:"]


def maybe_fence(text):
    if coin(0.12) and "```" not in text:
        return f"{ch(FENCE_INTRO)}\n\n```\n{text}\n```\n"
    return text


def build():
    rows = []
    count = Counter()

    T_ = {k: 5 for k in TOKENS}
    for k in ("sendgrid_key", "huggingface_token", "npm_token", "pypi_token", "datadog_key", "twilio_api_key",
              "google_oauth_token", "azure_storage_key", "azure_client_secret", "vault_token", "terraform_token",
              "telegram_token", "discord_webhook", "slack_webhook", "mailgun_key", "shopify_token", "square_token",
              "digitalocean_token", "heroku_key", "databricks_token", "okta_token", "atlassian_token", "notion_token",
              "linear_key", "private_key_unused"):
        if k in T_:
            T_[k] = 6
    for k, n in {"openai_key": 8, "github_token": 8, "aws_key": 8, "aws_secret": 7, "slack_token": 7, "stripe_key": 7,
                 "jwt": 10, "bearer_token": 10, "gitlab_token": 6, "google_api_key": 6, "anthropic_key": 7}.items():
        T_[k] = n
    ID_T = {k: 4 for k in ID_GEN}
    for k, n in {"ssn": 8, "uk_nino": 6, "de_tax_id": 5, "fr_nir": 5, "es_dni": 5, "br_cpf": 5, "cn_ric": 5, "in_pan": 5,
                 "aadhaar": 5, "it_codice_fiscale": 5, "nl_bsn": 5, "pl_pesel": 5}.items():
        ID_T[k] = n
    OTHER_T = {"private_key": 10, "basic_auth": 10, "url_credentials": 22, "card_number": 26, "iban": 26,
               "password": 118, "email": 70, "phone": 64}

    def emit(text, pairs):
        seen, cs, ks = set(), [], []
        for v, k in pairs:
            if v in seen:
                continue
            if v not in text:
                raise AssertionError(f"canary not in text: {k} {v!r}\n---\n{text}")
            seen.add(v)
            cs.append(v)
            ks.append(k)
            count[k] += 1
        rows.append({"text": text, "canaries": cs, "kinds": ks})

    def run(fn, *a):
        res = fn(*a)
        return res

    # 1. multi-secret bundles
    token_kinds = list(TOKENS)
    for _ in range(42):
        avail = [k for k in token_kinds if count[k] < T_[k] - 1 and k not in ("jwt",)]
        ks = R.sample(avail, ri(3, 5))
        text, pairs = ch(BUNDLES)(ks)
        emit(maybe_fence(text), pairs)

    # 2. single-token rows
    for k in token_kinds:
        spec = TOKENS[k]
        while count[k] < T_[k]:
            v = spec["gen"]()
            if k in SPECIAL and coin(0.45):
                res = ch(SPECIAL[k])(v)
            else:
                pool = GENERIC if spec["hdr"] else [g for g in GENERIC if g not in (c_curl, c_httpie, c_trace)]
                res = ch(pool)(v, ch(spec["env"]), spec)
            if isinstance(res, tuple):
                text, extra = res
            else:
                text, extra = res, []
            emit(maybe_fence(text), [(v, k)] + extra)

    # 3. structured credentials
    while count["private_key"] < OTHER_T["private_key"]:
        emit(*privkey_row())
    while count["basic_auth"] < OTHER_T["basic_auth"]:
        t, p = basic_row()
        emit(maybe_fence(t), p)
    while count["url_credentials"] < OTHER_T["url_credentials"]:
        t, p = urlcred_row()
        emit(maybe_fence(t), p)

    # 4. national ids (with some contact data)
    def want(kind, frac=0.85):
        return count[kind] < OTHER_T[kind] * frac

    id_kinds = list(ID_GEN)
    for k in id_kinds:
        while count[k] < ID_T[k]:
            r = R.random()
            if r < 0.38:
                emit(*id_sentence(k, with_contact=coin(0.3)))
            elif r < 0.62:
                p = Person(ID_LOCALE[k])
                rec = Rec(p, k, email=want("email") and coin(0.6), phone=want("phone") and coin(0.5),
                          card=want("card_number", 0.6) and coin(0.15), iban=want("iban", 0.6) and coin(0.15), dob=coin(0.4))
                fn = ch([ctx_ticket, ctx_hr_yaml, ctx_fixture, ctx_form, ctx_pg_error, ctx_email_msg if rec.get("email") else ctx_form])
                res = fn(rec)
                if isinstance(res, tuple):
                    emit(*res)
                else:
                    emit(res, rec.pairs())
            else:
                others = [x for x in id_kinds if x != k and count[x] < ID_T[x] - 1]
                ks = [k] + R.sample(others, min(len(others), ri(1, 3)))
                same = coin(0.35)
                fl = dict(email=want("email") and coin(0.7), phone=want("phone") and coin(0.6), dob=coin(0.3),
                          iban=want("iban", 0.5) and coin(0.15))
                if same:
                    ks = [k] * ri(2, 3)
                recs = [Rec(Person(ID_LOCALE[x]), x, **fl) for x in ks]
                fn = ch([ctx_csv, ctx_sql, ctx_json, ctx_log])
                text = fn(recs)
                pairs = [pp for rr in recs for pp in rr.pairs()]
                emit(maybe_fence(text), pairs)

    # 5. emails and phones
    while count["email"] < OTHER_T["email"] or count["phone"] < OTHER_T["phone"]:
        kinds = set()
        if count["email"] < OTHER_T["email"]:
            kinds.add("email")
        if count["phone"] < OTHER_T["phone"]:
            kinds.add("phone")
        r = R.random()
        if r < 0.55:
            if len(kinds) == 2 and coin(0.4):
                kinds = {ch(["email", "phone"])}
            emit(*contact_sentence(kinds))
        elif r < 0.7:
            rec = Rec(Person(), None, email="email" in kinds, phone="phone" in kinds)
            emit(ctx_vcard(rec), rec.pairs())
        elif r < 0.85 and "email" in kinds:
            ppl = [Person() for _ in range(ri(2, 4))]
            lines = [f"{shell_prompt()}git shortlog -sne --since=2025-01-01"]
            for pp in ppl:
                lines.append(f"   {ri(1, 300):>4}\t{pp.name} <{pp.email}>")
            emit("\n".join(lines), [(pp.email, "email") for pp in ppl])
        else:
            recs = [Rec(Person(), None, email="email" in kinds, phone="phone" in kinds) for _ in range(ri(1, 3))]
            emit(ctx_log(recs) if coin() else ctx_json(recs), [pp for rr in recs for pp in rr.pairs()])

    # 6. passwords
    pw_fns = [pw_cli] * 25 + [pw_config] * 25 + [pw_connstr] * 10 + [pw_code] * 12 + [pw_log] * 6 + [pw_curl_login] * 4 + [pw_prose] * 16 + [pw_email] * 3
    while count["password"] < OTHER_T["password"]:
        t, p = ch(pw_fns)()
        emit(maybe_fence(t) if coin(0.5) else t, p)

    # 7. cards and IBANs
    while count["card_number"] < OTHER_T["card_number"]:
        emit(*card_row())
    while count["iban"] < OTHER_T["iban"]:
        emit(*iban_row())

    # 8. clean rows
    n_clean = 250
    for i in range(n_clean):
        g = CLEAN_GENS[i] if i < len(CLEAN_GENS) else ch(CLEAN_GENS)
        emit(maybe_fence(g()), [])

    R.shuffle(rows)
    return rows


def self_check(rows):
    """Re-validate the structure of every identifier we generated."""
    problems = 0
    for r in rows:
        assert len(r["canaries"]) == len(r["kinds"])
        for v, k in zip(r["canaries"], r["kinds"]):
            assert v in r["text"]
            d = "".join(c for c in v if c.isdigit())
            ok = True
            if k == "card_number":
                ok = luhn_ok(d) and len(d) in (15, 16)
            elif k == "iban":
                s = v.replace(" ", "")
                num = "".join(str(int(c, 36)) for c in s[4:] + s[:4])
                ok = int(num) % 97 == 1
            elif k == "aadhaar":
                ok = verhoeff_ok(d) and len(d) == 12
            elif k in ("ca_sin", "za_id"):
                ok = luhn_ok(d)
            elif k == "nl_bsn":
                ok = (sum(w * int(x) for w, x in zip(range(9, 1, -1), d[:8])) - int(d[8])) % 11 == 0
            elif k == "hr_oib":
                ok = iso7064_11_10(d[:10]) == d[10]
            elif k == "de_tax_id":
                ok = iso7064_11_10(d[:10]) == d[10] and max(d[:10].count(c) for c in set(d[:10])) == 2
            elif k == "fr_nir":
                ok = 97 - int(d[:13]) % 97 == int(d[13:])
            elif k == "se_personnummer":
                ok = luhn_ok(d[-10:])
            elif k == "il_tz":
                ok = luhn_ok(d)
            elif k == "ch_ahv":
                ok = (sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d[:12])) + int(d[12])) % 10 == 0
            if not ok:
                problems += 1
                print("CHECK FAILED", k, v, file=sys.stderr)
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = build()
    bad = self_check(rows)
    path = os.path.join(a.out, "heldout_world11.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    kinds = Counter(k for r in rows for k in r["kinds"])
    clean = sum(1 for r in rows if not r["canaries"])
    pos = sum(kinds.values())
    share = sum(n for k, n in kinds.items() if k in ("password", "phone", "email") or k in ID_GEN)
    print(f"wrote {path}")
    print(f"rows: {len(rows)}  positives (canaries): {pos}  kinds: {len(kinds)}  clean rows: {clean}  "
          f"positive rows: {len(rows) - clean}  structure-check failures: {bad}")
    print(f"password+phone+email+national ids: {share} ({100 * share / pos:.1f}% of positives); "
          f"password={kinds['password']} phone={kinds['phone']} email={kinds['email']} national ids={share - kinds['password'] - kinds['phone'] - kinds['email']}")
    print("new labels (not in the masker's vocabulary):")
    for k, desc in NEW_LABELS.items():
        print(f"  {k:<22} n={kinds[k]:<3} {desc}")
    print("per-kind counts:")
    print("  " + ", ".join(f"{k}={n}" for k, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
