"""National identifiers, found by shape and kept when their checksum (``python-stdnum``) holds.

Documented sample numbers (the SSA's advertising SSNs, HMRC's ``QQ`` prefix, the Government of
Canada's sample SIN) are masked too: a number that is a sample is still a number someone typed.

Where the written shape is only a run of digits and the checksum is weak (the Dutch BSN's
eleven-test passes one number in eleven, the Brazilian CPF's one in a hundred), the bare digits
count only after a word that names the identifier ("BSN", "CPF"); the shapes their authorities
print (``1234.56.782``, ``123.456.789-09``) count alone. Likewise a 3-3-3 Canadian SIN that is also
a phone number of a configured region, on a line that speaks of phones, counts as a SIN only
after a word that names it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from stdnum import luhn
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.de import idnr
from stdnum.es import dni, nie
from stdnum.fr import nir
from stdnum.in_ import aadhaar
from stdnum.it import codicefiscale
from stdnum.nl import bsn
from stdnum.us import ssn

from reverie.privacy.findings import Detector, Gated, PatternDetector, Span, value_group
from reverie.privacy.personal import PHONE_WORDS, line_before

Check = Callable[[str], bool]
PhoneCheck = Callable[[str, str], bool]  # (number, its line before it) -> reads as a phone number
# Not the end of a longer group of digits, nor after "+" (an international phone number: a
# national identifier is never written with a leading "+").
NOT_A_TAIL = r"(?<![\w\-+])(?<!\d[ \-])"

# SSA: 3-2-4 digits, area not 000, 666 or 9xx, group not 00, serial not 0000 (stdnum); plus the
# numbers SSA documents as misused samples, which stdnum refuses.
SSN = re.compile(NOT_A_TAIL + r"\d{3}(?P<s>[\- ])\d{2}(?P=s)\d{4}(?![\w\-])")
SSN_SAMPLES = frozenset({"078051120", "219099999", "457555462"})
# HMRC National Insurance Manual NIM39110: two prefix letters, six digits, a suffix A-D; there is
# no check digit and stdnum has no module for it. The shape alone is used: the prefixes HMRC does
# not allocate (QQ in its examples, ZZ for temporary numbers) still name someone. Typed in lower
# case ("ab123456c") only with a prefix HMRC allocates (NIM39110: first letter not D, F, I, Q, U
# or V; second not D, F, I, O, Q, U or V; not BG, GB, KN, NK, NT, TN or ZZ), since lower case
# gives less away.
NINO = re.compile(r"(?<![A-Za-z0-9])(?:[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]|[a-z]{2} ?\d{2} ?\d{2} ?\d{2} ?[a-d])"
                  r"(?![A-Za-z0-9])")
NINO_ALLOCATED = re.compile(r"(?!BG|GB|KN|NK|NT|TN|ZZ)[^DFIQUV][^DFIOQUV]")
# Service Canada: nine digits, Luhn; stdnum also refuses first digits 0 and 8.
SIN = re.compile(NOT_A_TAIL + r"\d{3}(?P<s>[\- ])\d{3}(?P=s)\d{3}(?![\w\-])")
SIN_SAMPLES = frozenset({"046454286"})
SIN_WORDS = re.compile(r"(?i)\b(?:SIN|NAS|social[ \t]+insurance|assurance[ \t]+sociale)\b")

# INSEE NIR: sex, year, month, department (2A/2B for Corsica), commune, order, key = 97 - n mod 97.
NIR = re.compile(NOT_A_TAIL + r"[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\w\-])")
# BZSt Steuerliche Identifikationsnummer: 11 digits, ISO 7064 MOD 11,10 check digit.
IDNR = re.compile(NOT_A_TAIL + r"(?<!\.)[1-9]\d(?: ?\d{3}){3}(?![\w\-]|\.\d)")
# UIDAI Aadhaar: 12 digits, first not 0 or 1, Verhoeff check digit.
AADHAAR = re.compile(NOT_A_TAIL + r"(?<!\.)[2-9]\d{3}(?P<s>[ \-]?)\d{4}(?P=s)\d{4}(?![\w\-]|\.\d)")
# Spanish DNI (Ministerio del Interior, Real Decreto 1553/2005; the letter is
# TRWAGMYFPDXBNJZSQVHLCKE[n mod 23]): eight digits and the letter, often after a hyphen or space.
DNI = re.compile(NOT_A_TAIL + r"\d{8}[ \-]?[A-Za-z](?![\w\-])")
# Spanish NIE (Real Decreto 557/2011, art. 206): X, Y or Z (counting as 0, 1, 2), seven digits,
# the DNI letter of that number.
NIE = re.compile(r"(?<![\w\-])(?:[XYZ][ \-]?\d{7}[ \-]?[A-Z]|[xyz][ \-]?\d{7}[ \-]?[a-z])(?![\w\-])")
# Italian codice fiscale (Agenzia delle Entrate, DM 23 December 1976): three letters of the
# surname, three of the name, year, month letter, day (+40 for women), the Belfiore place code,
# a check letter; digits may be replaced by LMNPQRSTUV (omocodia). One case throughout.
CODICE_FISCALE = re.compile(
    r"(?i)(?<![A-Za-z0-9])[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]"
    r"(?![A-Za-z0-9])"
)
# Dutch BSN (Rijksoverheid, "Burgerservicenummer"; eleven-test): nine digits, printed 1234.56.782
# on identity documents; bare digits after a word naming it.
BSN_PRINTED = re.compile(NOT_A_TAIL + r"\d{4}\.\d{2}\.\d{3}(?![\w\-]|\.\d)")
BSN_NAMED = re.compile(
    r"(?i)\b(?:bsn|burgerservicenummer|sofi-?nummer)\b[^\d\n]{0,24}?"
    r"(?<![\d.\-])(?P<v>\d{9}|\d{4}\.\d{2}\.\d{3}|\d{3} \d{3} \d{3})(?![\w\-]|\.\d)"
)
# Brazilian CPF (Receita Federal, "Cadastro de Pessoas Físicas"; two mod-11 check digits): printed
# 123.456.789-09; bare digits after a word naming it.
CPF_PRINTED = re.compile(NOT_A_TAIL + r"\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w\-]|\.\d)")
CPF_NAMED = re.compile(
    r"(?i)\b(?:cpf|cadastro[ \t]+de[ \t]+pessoas?[ \t]+f[íi]sicas?)\b[^\d\n]{0,24}?"
    r"(?<![\d.\-])(?P<v>\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})(?![\w\-]|\.\d)"
)


def compact(value: str) -> str:
    return "".join(ch for ch in value if ch.isalnum()).upper()


def ssn_valid(value: str) -> bool:
    return ssn.is_valid(compact(value)) or compact(value) in SSN_SAMPLES


def sin_valid(value: str) -> bool:
    number = compact(value)
    return sin.is_valid(number) or (number in SIN_SAMPLES and luhn.is_valid(number))


# Every identifier but the NINO and the codice fiscale has seven digits or more in a row, with at
# most one space, dot or hyphen between two of them: text without such a run skips them all.
SEVEN_DIGITS = re.compile(r"\d(?:[ .\-]?\d){6}")


def nino_valid(value: str) -> bool:
    return value.isupper() or NINO_ALLOCATED.match(value.upper()) is not None


def one_case(value: str) -> bool:
    return value.isupper() or value.islower()


def checked(check: Check) -> Callable[[str, re.Match[str]], Span | None]:
    def locate(text: str, match: re.Match[str]) -> Span | None:
        return match.span() if check(match.group(0)) else None

    return locate


def checked_value(check: Check) -> Callable[[str, re.Match[str]], Span | None]:
    def locate(text: str, match: re.Match[str]) -> Span | None:
        return value_group(text, match) if check(match.group("v")) else None

    return locate


def sin_located(is_phone: PhoneCheck) -> Callable[[str, re.Match[str]], Span | None]:
    """A valid SIN, unless it also reads as a phone number and its line, before it, speaks of
    phones ("móvil 666 82 10 67, Lisboa 930 412 838") and not of a SIN."""
    def locate(text: str, match: re.Match[str]) -> Span | None:
        value = match.group(0)
        if not sin_valid(value):
            return None
        line = line_before(text, match.start())
        if SIN_WORDS.search(line[-48:]) or not PHONE_WORDS.search(line):
            return match.span()
        return None if is_phone(value, line) else match.span()

    return locate


def national_id_detectors(is_phone: PhoneCheck) -> tuple[Detector, ...]:
    """``is_phone`` says whether a number reads as a phone number (of the configured regions)."""
    def pii(label: str, pattern: re.Pattern[str], check: Check) -> PatternDetector:
        return PatternDetector("PII", label, pattern, (), checked(check))

    def named(label: str, pattern: re.Pattern[str], check: Check, triggers: tuple[str, ...]) -> PatternDetector:
        return PatternDetector("PII", label, pattern, triggers, checked_value(check))

    numbers = (
        pii("ssn", SSN, ssn_valid),
        PatternDetector("PII", "ca_sin", SIN, (), sin_located(is_phone)),
        pii("fr_nir", NIR, lambda v: nir.is_valid(compact(v))),
        pii("de_tax_id", IDNR, lambda v: idnr.is_valid(compact(v))),
        pii("aadhaar", AADHAAR, lambda v: aadhaar.is_valid(compact(v))),
        pii("es_dni", DNI, lambda v: dni.is_valid(compact(v))),
        pii("es_nie", NIE, lambda v: nie.is_valid(compact(v))),
        pii("nl_bsn", BSN_PRINTED, lambda v: bsn.is_valid(v)),
        named("nl_bsn", BSN_NAMED, lambda v: bsn.is_valid(v), ("bsn", "burgerservicenummer", "sofi")),
        pii("br_cpf", CPF_PRINTED, lambda v: cpf.is_valid(v)),
        named("br_cpf", CPF_NAMED, lambda v: cpf.is_valid(v), ("cpf", "cadastro")),
    )
    return (
        Gated(SEVEN_DIGITS, numbers),
        pii("uk_nino", NINO, nino_valid),
        pii("it_codice_fiscale", CODICE_FISCALE, lambda v: one_case(v) and codicefiscale.is_valid(v)),
    )
