"""National identifiers, found by shape and kept when their checksum (``python-stdnum``) holds.

Documented sample numbers (the SSA's advertising SSNs, HMRC's ``QQ`` prefix, the Government of
Canada's sample SIN) are masked too: a number that is a sample is still a number someone typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from stdnum import luhn
from stdnum.ca import sin
from stdnum.de import idnr
from stdnum.fr import nir
from stdnum.in_ import aadhaar
from stdnum.us import ssn

from reverie.privacy.findings import Detector, PatternDetector, Span

Check = Callable[[str], bool]
# Not the end of a longer group of digits, nor after "+" (an international phone number: a
# national identifier is never written with a leading "+").
NOT_A_TAIL = r"(?<![\w\-+])(?<!\d[ \-])"

# SSA: 3-2-4 digits, area not 000, 666 or 9xx, group not 00, serial not 0000 (stdnum); plus the
# numbers SSA documents as misused samples, which stdnum refuses.
SSN = re.compile(NOT_A_TAIL + r"\d{3}(?P<s>[\- ])\d{2}(?P=s)\d{4}(?![\w\-])")
SSN_SAMPLES = frozenset({"078051120", "219099999", "457555462"})
# HMRC National Insurance Manual NIM39110: two prefix letters, six digits, a suffix A-D; there is
# no check digit and stdnum has no module for it. The shape alone is used: the prefixes HMRC does
# not allocate (QQ in its examples, ZZ for temporary numbers) still name someone.
NINO = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])")
# Service Canada: nine digits, Luhn; stdnum also refuses first digits 0 and 8.
SIN = re.compile(NOT_A_TAIL + r"\d{3}(?P<s>[\- ])\d{3}(?P=s)\d{3}(?![\w\-])")
SIN_SAMPLES = frozenset({"046454286"})
# INSEE NIR: sex, year, month, department (2A/2B for Corsica), commune, order, key = 97 - n mod 97.
NIR = re.compile(NOT_A_TAIL + r"[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\w\-])")
# BZSt Steuerliche Identifikationsnummer: 11 digits, ISO 7064 MOD 11,10 check digit.
IDNR = re.compile(NOT_A_TAIL + r"(?<!\.)[1-9]\d(?: ?\d{3}){3}(?![\w\-]|\.\d)")
# UIDAI Aadhaar: 12 digits, first not 0 or 1, Verhoeff check digit.
AADHAAR = re.compile(NOT_A_TAIL + r"(?<!\.)[2-9]\d{3}(?P<s>[ \-]?)\d{4}(?P=s)\d{4}(?![\w\-]|\.\d)")


def compact(value: str) -> str:
    return "".join(ch for ch in value if ch.isalnum()).upper()


def ssn_valid(value: str) -> bool:
    return ssn.is_valid(compact(value)) or compact(value) in SSN_SAMPLES


def sin_valid(value: str) -> bool:
    number = compact(value)
    return sin.is_valid(number) or (number in SIN_SAMPLES and luhn.is_valid(number))


def checked(check: Check) -> Callable[[str, re.Match[str]], Span | None]:
    def locate(text: str, match: re.Match[str]) -> Span | None:
        return match.span() if check(match.group(0)) else None

    return locate


def national_id_detectors() -> tuple[Detector, ...]:
    def pii(label: str, pattern: re.Pattern[str], check: Check) -> PatternDetector:
        return PatternDetector("PII", label, pattern, (), checked(check))

    return (
        pii("ssn", SSN, ssn_valid),
        pii("uk_nino", NINO, lambda v: True),
        pii("ca_sin", SIN, sin_valid),
        pii("fr_nir", NIR, lambda v: nir.is_valid(compact(v))),
        pii("de_tax_id", IDNR, lambda v: idnr.is_valid(compact(v))),
        pii("aadhaar", AADHAAR, lambda v: aadhaar.is_valid(compact(v))),
    )
