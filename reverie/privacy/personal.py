"""Personal data: e-mail addresses, phone numbers (libphonenumber, through ``phonenumbers``), payment
card numbers and IBANs (``python-stdnum``'s Luhn and IBAN checks)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum import luhn

from reverie.privacy.aligned_tables import aligned_header
from reverie.privacy.bank_accounts import routing_number
from reverie.privacy.findings import Detector, Finding, Locate, PatternDetector, Span, value_group, whole_match
from reverie.privacy.sql_inserts import sql_column

# RFC 5322 addresses, with RFC 6531's non-ASCII local parts and domains (``zoë.dubois@…``), and the
# "@" percent-encoded as in a URL's query (RFC 3986 section 2.1: ``email=mei.okafor%40proton.me``).
EMAIL = re.compile(
    r"(?<![\w.%+\-])[^\W_][\w.%+\-']{0,63}(?:@|%40)"
    r"(?:[^\W_](?:[\w\-]{0,61}[^\W_])?\.)+[^\W\d_]{2,24}(?![\w\-])"
)
# Addresses spelled out against harvesters: "jane [at] example [dot] org", "jane dot doe at example
# dot com". With a bracketed "at" the dots may be plain; with a bare word "at" the domain's dots
# must be spelled out too and the last label must be a common top-level domain or a country code,
# so that "look at the time" or "meet at noon.com" stay.
OBFUSCATED_AT = r"[ \t]*[\[({<][ \t]*at[ \t]*[\])}>][ \t]*"
OBFUSCATED_DOT = r"(?:[ \t]*[\[({<][ \t]*dot[ \t]*[\])}>][ \t]*|[ \t]+dot[ \t]+)"
EMAIL_WORD = r"[^\W_][\w+\-']{0,63}"
COMMON_TLD = r"(?:com|net|org|edu|gov|info|biz|io|dev|app|me|co|[a-z]{2})"
OBFUSCATED_EMAIL = re.compile(
    rf"(?i)(?<![\w.@%+\-])(?:{EMAIL_WORD}(?:(?:\.|{OBFUSCATED_DOT}){EMAIL_WORD}){{0,4}}{OBFUSCATED_AT}"
    rf"{EMAIL_WORD}(?:(?:\.|{OBFUSCATED_DOT}){EMAIL_WORD}){{0,3}}(?:\.|{OBFUSCATED_DOT})[^\W\d_]{{2,24}}"
    rf"|{EMAIL_WORD}(?:{OBFUSCATED_DOT}{EMAIL_WORD}){{0,4}}[ \t]+at[ \t]+"
    rf"{EMAIL_WORD}(?:{OBFUSCATED_DOT}{EMAIL_WORD}){{0,2}}{OBFUSCATED_DOT}{COMMON_TLD})(?![\w\-])"
)


# The login of a remote shell or copy command (``ssh -p 2222 deploy@bastion``): a user on a host.
REMOTE_LOGIN = re.compile(r"(?<![\w\-])(?:ssh|scp|sftp|rsync|mosh|ssh-copy-id|autossh)[ \t]+(?:[^\n@|;&]*?[ \t])?$")
# The addresses documentation writes (RFC 2606/6761 reserved names): a generic local part at a
# reserved domain: a placeholder word or a role mailbox (RFC 2142, "Mailbox names for common
# services": info, sales, support, abuse, postmaster …; and the usual billing, admin, contact,
# noreply). A named person at example.com (``chen.petrova@example.com``, and ``jane.doe@example.com``:
# a sample person's address is still a person's, as a sample key is still a key) is masked. Any
# address under the reserved top-level domains ``.test``, ``.example``, ``.invalid`` and
# ``.localhost`` (RFC 2606 section 2; ``ci@noreply.invalid``), which never resolve, names no mailbox.
PLACEHOLDER_EMAIL = re.compile(
    r"(?i)(?:user(?:name)?|name|you|your(?:[._]?name|[._]?email)?|someone|somebody|email|me|foo|bar|test|example"
    r"|first(?:name)?[._]last(?:name)?"
    r"|info|marketing|sales|support|abuse|noc|security|postmaster|hostmaster|webmaster|www|ftp|news|usenet|uucp"
    r"|billing|admin|contact|hello|no-?reply)@(?:[\w\-]+\.)*example\.(?:com|org|net)"
    r"|[^@]+@(?:[\w\-]+\.)*(?:test|example|invalid|localhost)"
)


def email_span(text: str, match: re.Match[str]) -> Span | None:
    """Not the ``user@host`` of a URL, nor scp-style ``git@github.com:org/repo``, nor the login of
    an ssh command, nor a documentation placeholder (``user@example.com``)."""
    after = text[match.end():match.end() + 2]
    if len(after) == 2 and after[0] == ":" and not after[1].isspace():
        return None
    if PLACEHOLDER_EMAIL.fullmatch(match.group(0)) or REMOTE_LOGIN.search(line_before(text, match.start())):
        return None
    before = text[max(0, match.start() - 256):match.start()]
    token = before.split()[-1] if before and not before[-1].isspace() else ""
    return None if "://" in token else match.span()


# ---- phone numbers ---------------------------------------------------------------------------------

# Digits with at most one separator between two of them; not a code keyed in and ended with "#"
# ("dial-in code 448 219 7703#", a conference or voicemail code). Chinese, Japanese and Korean text
# sets no space around a number ("我的手机号是13417022545，", "携帯番号は090-7425-2652です"): a letter of
# those scripts may touch it.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
# Hebrew joins a one-letter preposition to a number with a hyphen (maqaf): "ל-052-340-0965" (to …).
HEBREW_PREFIX = "\u05d0-\u05ea"
PHONE_CANDIDATE = re.compile(
    rf"(?:(?<![\w+.\-/#])|(?<=[{CJK}])|(?<=[{HEBREW_PREFIX}]-))(?<!\d:)(?:\+|\b00)?\(?\d(?:\)?[ \-./]?\(?\d){{5,18}}"
    rf"(?:(?![\w\-/#]|[.:]\d)|(?=[{CJK}]))"
)
PHONE_BAD_SEPARATORS = re.compile(r"[ .\-/]{2}|\(\D|\D\)|[.\-/].*[ ].*[.\-/]")
PHONE_SLASH = re.compile(r"0\d{2,4}/\d[\d \-.]+")  # "0176/12345678", Belgium's "0479/97.62.77"
# Words that say the numbers on a line are phone numbers, in the languages of the default regions.
PHONE_WORDS = re.compile(
    r"(?i)(?<![^\W\d_])(?:t[ée]l[ée]?(?:f|ph)on(?:o|e|nummer)?|t[ée]l|phone|mobile?|mobil|m[óo]vil|cell(?:ulare?|ulaire)?|"
    r"celular|cel|handy|portable|fax|whatsapp|hotline|helpline|kom[óo]rk\w*|gsm|tlf|puh(?:elin)?|telem[óo]vel|fono|landline|ph|hp|"
    r"handphone|contact(?:o|e)?|contato|kontakt|contatto|κινητ[όο]|τηλ[έε]φωνο|τηλ|"
    r"телефон|тел|моб|sms|otp|on-call|"
    # "call me", "reach me at", and the same in Danish, Norwegian and Swedish ("ring på", "nå meg på")
    r"(?:call|reach|text|ring)[ \t]+me|ring[ \t]+(?:på|mig|meg|os|oss)|n[åa]r?[ \t]+(?:meg|mig)"
    # "called back on", a callback (German Rückruf, French rappeler, Italian richiamare, Dutch terugbellen)
    r"|call(?:ed|ing)?[ \t]+(?:me[ \t]+)?back|call-?back|r[üu]ckruf|zur[üu]ckrufen|rappel(?:er)?|richiamar\w*|terugbellen"
    # Hebrew "to call", phone, mobile; Arabic phone, mobile
    r"|להתקשר|טלפון|נייד|هاتف|جوال|موبايل"
    # Icelandic "sími" (phone, "í síma"), "hringdu" (call); Lithuanian "skambinkite" (call)
    r"|s[íi]m(?:a|i|anúmer)|hringdu|skambink\w*"
    # "my number" ("Mit nummer er …", "Moje číslo je …", "mi número es …")
    r"|(?:my|mein(?:e)?|mit|mitt|min|mijn|mon|mi|mio|il[ \t]+mio|meu|m[óo]j|moje|m[ée])[ \t]+"
    r"(?:number|nummer|numer|num[ée]ro|n[úu]mero|numero|[čc][íi]slo))(?![^\W\d_])|電話|电话|手机|手機|携帯|전화|휴대폰"
    # a line labelled only "Number:" ("Número: 972 335 961")
    r"|(?i:^[ \t]*(?:n[úu]mero|number|nummer|numer|num[ée]ro)[ \t]*:[ \t]*$)"
)
# A phone word at most 16 characters, none a digit, before the number.
PHONE_WORD_JUST_BEFORE = re.compile(rf"(?i)(?:{PHONE_WORDS.pattern.removeprefix('(?i)')})[^\d\n]{{0,16}}$")
# A word before the number that names a product or publication code, not a phone number (GS1's GTIN
# and EAN, UPC, ISBN, ISSN): "GTIN 05412345000013".
PRODUCT_CODE_BEFORE = re.compile(r"(?i)(?<![^\W\d_])(?:gtin|ean|upc|isbn|issn)(?:-?\d{1,2})?[ \t]*[:#]?[ \t]*$")
# A word just before a national-looking number that names a business record's number (a customer, an
# account, an order, a purchase order, an invoice, a batch or lot, a contract, a ticket) or a postal
# code (CEP_BEFORE): "Customer
# no. 02162842", "PO 0589823838", ``"Account": "079317500109"`` (AWS's twelve-digit account id, as
# ``aws sts get-caller-identity`` prints it), or a national identifier. A number with its international
# prefix is still a phone.
RECORD_NUMBER_BEFORE = re.compile(
    r"(?i)(?<![^\W\d_])(?:(?:customer|client|account|acct|order|po|purchase[ \t]+order|invoice|batch|lot|contract|ticket"
    # a postal code ("ZIP", "PLZ", "postcode")
    r"|zip(?:[ \t]+code)?|post(?:al)?[ \t]*code|plz|c[óo]digo[ \t]+postal|code[ \t]+postal)"
    r"(?:[ \t_\-]*(?:no|nr|number|num|id|#))?"
    # a field named as a national or tax identifier (``national_id=011151-6391``): named_ids' GENERIC_ID_NAME
    r"|(?:national|citizen|gov(?:ernment)?|tax(?:payer)?)[ \t_\-]?id(?:entity)?(?:[ \t_\-]?(?:number|no|code))?)"
    r"\.?[\"']?[ \t]*[:#=]?[ \t]*[\"']?$")
# Brazil's postal code, the CEP, written 01310-100 after its name (Correios, "CEP"); Turkish "cep" is a
# mobile phone ("Cep: 0552 873 83 84"), so only the CEP's own shape is one.
CEP_BEFORE = re.compile(r"(?i)(?<![^\W\d_])cep[ \t]*:?[ \t]*$")
CEP = re.compile(r"\d{5}-\d{3}")
# The account part of an Amazon Resource Name (``arn:aws:sts::079317500109:assumed-role/…``; AWS,
# "Identify AWS resources with Amazon Resource Names"): an account id, not a phone.
ARN_ACCOUNT_BEFORE = re.compile(r"\barn:[\w\-]+:[\w\-]+:[\w\-]*:$")
# An international number earlier on the line: the numbers after it are a list of phone numbers
# ("+47 942 61 722 / 486 28 596").
INTERNATIONAL_BEFORE = re.compile(r"(?<![\w+])(?:\+|\b00)\d{1,3}[ \-.]?\(?\d(?:[ \-.()]?\d){5,}")
# Grouped like an amount with thousands separators: "734 003 200", "1.249.000".
THOUSANDS = re.compile(r"\d{1,3}(?P<s>[ .])\d{3}(?:(?P=s)\d{3})+")
# A decimal number (digits, one dot, digits) beside another on its line: a row of a table of measures
# (pandas' ``df.describe()``: ``mean  1780.695110  2521.576741``), not a phone number written with a dot
# (unless the line speaks of phones: "tel. 347.1289034, fax 02.4567891").
DECIMAL = re.compile(r"\d+\.\d+")
DECIMALS = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
# A letter-and-digit group just before (``1Z 999 AA1 01 2345 6784``): the digits go on a longer code.
CODE_GROUP_BEFORE = re.compile(r"(?<![^ \t\n])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]+[ \t]$")
# A date, day first or year first (``06.07.2023``, ``2025-12-21``): a German number with its trunk
# zero may have the same digits, but not written so.
DATE_SHAPE = re.compile(r"(?:0?[1-9]|[12]\d|3[01])(?P<s>[./\-])(?:0?[1-9]|1[0-2])(?P=s)(?:19|20)\d{2}"
                        r"|(?:19|20)\d{2}(?P<t>[./\-])(?:0?[1-9]|1[0-2])(?P=t)(?:0?[1-9]|[12]\d|3[01])")
# Mexico's mobile "1" after +52, dropped from the numbering plan in 2019 (IFT, "Plan Técnico
# Fundamental de Numeración", in force 3 August 2019) but still written: ``+52 1 33 1876 9260``.
MEXICAN_MOBILE_ONE = re.compile(r"^\+52[ \-.]?1[ \-.]?(?=\d)")
NANP_SHAPE = re.compile(r"(?:1[\-. ])?(?:\(\d{3}\)[ ]?\d{3}[\-. ]|\d{3}(?P<s>[\-. ])\d{3}(?P=s))\d{4}")


@dataclass(frozen=True)
class PhoneDetector:
    """Candidates by shape, kept when libphonenumber calls them valid: ``+``/``00`` numbers in any
    region; national numbers in each configured region, written with its trunk prefix (``0``), in
    North America in the usual 3-3-4 grouping, or else grouped as one of the region's own formats
    writes them without a trunk prefix (:func:`grouped_as_the_region_writes`)."""

    regions: tuple[str, ...]
    triggers: tuple[str, ...] = ()

    def find(self, text: str) -> Iterator[Finding]:
        for match in PHONE_CANDIDATE.finditer(text):
            start, candidate = match.start(), match.group(0)
            if candidate.startswith("(") and ")" not in candidate:  # "(0171 4274793)"
                start, candidate = start + 1, candidate[1:]
            before = line_before(text, start)
            if CODE_GROUP_BEFORE.search(before) or PRODUCT_CODE_BEFORE.search(before) or record_number(text, start, candidate):
                continue
            # an SQL INSERT's column before a table's (a row of VALUES below another has as many commas), or a
            # printed DataFrame's (pandas, polars)
            header = sql_column(text, start) or column_header(text, start) or aligned_header(text, start, start + len(candidate))
            phone_column = PHONE_WORDS.fullmatch(header.strip(" \t\"'`|")) is not None
            if (phone_column and phone_shaped(candidate)) or self.is_phone(candidate, said(text, start, before, header)):
                yield Finding("PII", "phone", start, start + len(candidate))

    def is_phone(self, candidate: str, before: str = "") -> bool:
        """``before``: the candidate's line up to it, where words may say it is a phone number."""
        digits = "".join(ch for ch in candidate if ch.isdigit())
        if not 7 <= len(digits) <= 15 or PHONE_BAD_SEPARATORS.search(candidate.replace(") ", ")")):
            return False
        if candidate.count("(") != candidate.count(")"):
            return False
        if DATE_SHAPE.fullmatch(candidate):
            return False
        if candidate.startswith(("+", "00")):
            international = "+" + candidate[2:] if candidate.startswith("00") else candidate
            return (possible_number(international, None) or possible_number(MEXICAN_MOBILE_ONE.sub("+52 ", international), None)
                    or (PHONE_WORDS.search(before) is not None and short_of_the_plan(international)))
        if not phone_grouping(candidate):
            return False
        spoken_of = PHONE_WORDS.search(before) is not None or INTERNATIONAL_BEFORE.search(before) is not None
        close = spoken_of and PHONE_WORD_JUST_BEFORE.search(before) is not None
        return any(self.valid_national(candidate, digits, region, spoken_of, close) for region in self.regions)

    @staticmethod
    def valid_national(candidate: str, digits: str, region: str, spoken_of: bool, close: bool = False) -> bool:
        """A number without a trunk prefix needs nine digits or more, grouped as the region writes
        them and not like an amount (``734 003 200``), unless ``spoken_of``: its line says it holds
        phone numbers ("móvil 612 345 678", "tlf. 20 30 40 50"; or its table column's header does,
        ``name,phone``) or has an international number before it. Written without a separator it
        needs nine digits or more and the word ``close`` before it ("手机：15702981932", "το κινητό μου
        είναι 6948847900"), as mobile numbers are written in China or Greece."""
        prefix = national_prefix(region)
        if prefix == "1":  # North America: no trunk zero; the 3-3-4 grouping says it is a number
            return NANP_SHAPE.fullmatch(candidate) is not None and possible_number(candidate, region)
        if prefix and digits.startswith(prefix) and (prefix == "0" or trunk_stands_alone(candidate, prefix)):
            # a number the plan could hold but has not allocated ("011 15-9614-6423"), where the line
            # speaks of phones and it is grouped as the region writes its numbers
            return len(digits) - len(prefix) in national_lengths(region) and (
                valid_number(candidate, region)
                or (spoken_of and phone_grouping(candidate) and len(re.findall(r"\d+", candidate)) > 2
                    and possible_number(candidate, region)))
        if spoken_of:  # any grouping of a valid number, eight digits or more (Denmark, Norway)
            grouped = re.search(r"\d\D+\d", candidate) is not None
            if len(digits) == 7:  # seven only grouped as the region writes them (Iceland's "641 1969"),
                return written_as_the_region_groups(candidate, digits, region)  # of a length it dials
            return (len(digits) >= 8 and len(digits) in national_lengths(region)
                    and (grouped or (len(digits) >= 9 and close)) and valid_number(candidate, region))
        if len(digits) < 9 or THOUSANDS.fullmatch(candidate) is not None:
            return False
        return grouped_as_the_region_writes(candidate, digits, region)


def decimal_in_a_row(text: str, start: int, candidate: str) -> bool:
    """``candidate`` is a decimal number and its line holds another (:data:`DECIMAL`)."""
    if DECIMAL.fullmatch(candidate) is None:
        return False
    line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", start)
    return len(DECIMALS.findall(text, line_start, len(text) if line_end < 0 else line_end)) >= 2


def said(text: str, start: int, before: str, header: str) -> str:
    """What the text says before a candidate at ``start``: its line up to it (``before``); a table's header,
    which speaks for its rows (one that names phones as if just before the cell); a list's heading, which
    speaks for its items ("on-call rota:" then "- Name (NO): 938 28 495"); an e-mail address just before
    (someone's contact details)."""
    words = f"{before} {header.strip()}: " if PHONE_WORDS.fullmatch(header.strip(" \t\"'`|")) else f"{header} {before}"
    heading = list_heading(text, start)
    words = f"{heading}\n{words}" if heading else words
    return f"{words} contact: " if EMAIL_JUST_BEFORE.search(before) else words


def record_number(text: str, start: int, candidate: str) -> bool:
    """A national-looking candidate that the words before it, or its shape where it stands, make another
    record's number: a business record's or an ARN's account, a postal code, a bank's routing number, a
    decimal in a row of measures."""
    if candidate.startswith(("+", "00")):
        return False
    before = line_before(text, start)
    return (RECORD_NUMBER_BEFORE.search(before) is not None or ARN_ACCOUNT_BEFORE.search(before) is not None
            or (CEP.fullmatch(candidate) is not None and CEP_BEFORE.search(before) is not None)
            or routing_number(text, start, candidate)
            or (decimal_in_a_row(text, start, candidate) and PHONE_WORDS.search(before) is None))


def phone_shaped(candidate: str) -> bool:
    """Written as a national number is, whatever the region (a column headed "phone" says what it holds,
    also of a country whose plan is not configured): 7 to 15 digits, grouped as phones are, no date."""
    digits = sum(ch.isdigit() for ch in candidate)
    return (7 <= digits <= 15 and PHONE_BAD_SEPARATORS.search(candidate.replace(") ", ")")) is None
            and candidate.count("(") == candidate.count(")") and DATE_SHAPE.fullmatch(candidate) is None
            and phone_grouping(candidate))


# An item of a list: a bullet or a number, then the item.
LIST_ITEM = re.compile(r"[ \t]*(?:[-*•·]|\d{1,2}[.)])[ \t]+\S")
# An e-mail address just before, and a comma, semicolon, slash or bar: a list of someone's contact details
# ("real customer details (javier@…, 628 358 932, …)").
EMAIL_JUST_BEFORE = re.compile(r"[^\s@,;(]+@[^\W_][\w\-]*(?:\.[\w\-]+)+[ \t]*[,;/|][ \t]*$")


def list_heading(text: str, position: int) -> str:
    """For a position in a list's item, the line above the list's first item (its heading); else ''."""
    end = text.rfind("\n", 0, position)
    line_start = end + 1
    if not LIST_ITEM.match(text, line_start):
        return ""
    for _ in range(50):
        if end < 0:
            return ""
        start = text.rfind("\n", 0, end) + 1
        if not LIST_ITEM.match(text, start):
            return text[start:end]
        end = start - 1
    return ""


def line_before(text: str, position: int) -> str:
    """The line of ``position`` up to it, at most 160 characters."""
    return text[max(0, position - 160):position].rsplit("\n", 1)[-1]


TABLE_SEPARATORS = (",", ";", "\t", "|")


def column_header(text: str, position: int) -> str:
    """In a table (CSV or TSV, RFC 4180; a Markdown table), the header cell of the column that
    ``position`` is in: the column's cell in the top one of the lines above that have as many
    separators as its own ("name,phone,city"), at most 100 lines up; else ''."""
    start = text.rfind("\n", 0, position) + 1
    end = text.find("\n", position)
    line = text[start:end if end >= 0 else len(text)]
    for separator in (s for s in TABLE_SEPARATORS if s in line):
        header, above_end = None, start - 1
        for _ in range(100):
            if above_end < 0:
                break
            above_start = text.rfind("\n", 0, above_end) + 1
            if text.count(separator, above_start, above_end) != line.count(separator):
                break
            header, above_end = text[above_start:above_end], above_start - 1
        if header is not None:
            return header.split(separator)[text.count(separator, start, position)]
    return ""


def phone_grouping(candidate: str) -> bool:
    """A national number, not a date (``03/04/2024``) nor an ISBN (``0-306-40615-2``): no one-digit
    group after the first, and a slash only after a trunk-prefixed area code (``0176/12345678``).
    (International numbers have one-digit groups: ``+33 6 12 34 56 78``.)"""
    groups = re.split(r"[ \-./()]+", candidate.strip("()+"))
    if any(len(g) == 1 for g in groups[1:]):
        return False
    return "/" not in candidate or PHONE_SLASH.fullmatch(candidate) is not None


def trunk_stands_alone(candidate: str, prefix: str) -> bool:
    """A trunk prefix other than ``0`` (Russia's ``8``) is a digit any number may start with: it
    says "phone" only as a group of its own, ``8 (912) 345-67-89``."""
    return re.match(rf"{prefix}[ \-.(]", candidate) is not None


def grouped_as_the_region_writes(candidate: str, digits: str, region: str) -> bool:
    """A national number without a trunk prefix: in a region that has none (Spain, Italy, Portugal,
    Poland, Denmark, Norway …) or in a format that leaves it out (Brazil's ``(41) 96768-8555``).
    Such a number has nothing in front that says "phone", so its digit groups must be the groups
    of one of the formats libphonenumber's metadata lists for it (``945 12 34 56``, not
    ``94512-3456``), and there must be more than one group; the caller also wants nine digits or
    more, since shorter grouped numbers (``4412 7781``) are as often codes and PINs, and no
    grouping like an amount's."""
    if not unprefixed_formats(region):
        return False
    groups = tuple(len(g) for g in re.split(r"[ \-./()]+", candidate) if g)
    # Without a trunk prefix the digits written are the national significant number.
    return len(groups) > 1 and groups in set(format_groups(digits, region)) and valid_number(candidate, region)


def written_as_the_region_groups(candidate: str, digits: str, region: str) -> bool:
    """Grouped as one of the region's trunk-less formats and of a length its plan has: what a line
    that speaks of phones may hold though the range is not (yet) one libphonenumber lists."""
    groups = tuple(len(g) for g in re.split(r"[ \-./()]+", candidate) if g)
    return len(groups) > 1 and groups in set(format_groups(digits, region)) and possible_number(candidate, region)


def format_groups(significant: str, region: str) -> Iterator[tuple[int, ...]]:
    """The digit groups of each of the region's trunk-less formats that applies to the number."""
    for layout, leading in unprefixed_formats(region):
        match = layout.fullmatch(significant)
        if match is not None and (leading is None or leading.match(significant) is not None):
            yield tuple(len(group) for group in match.groups())


@cache
def unprefixed_formats(region: str) -> tuple[tuple[re.Pattern[str], re.Pattern[str] | None], ...]:
    """The region's national formats that write no trunk prefix: all of them where the region has
    none, else those whose formatting rule leaves it out (``(\\1)``, not ``0\\1``)."""
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    if metadata is None:
        return ()
    prefix = metadata.national_prefix or ""
    return tuple(
        (re.compile(layout.pattern or ""),
         re.compile(layout.leading_digits_pattern[-1]) if layout.leading_digits_pattern else None)
        for layout in metadata.number_format
        if layout.pattern and (not prefix or prefix not in (layout.national_prefix_formatting_rule or prefix))
    )


@cache
def national_lengths(region: str) -> frozenset[int]:
    """The lengths of the region's national significant numbers (libphonenumber's metadata)."""
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    return frozenset(metadata.general_desc.possible_length or ()) if metadata and metadata.general_desc else frozenset()


def national_prefix(region: str) -> str:
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    return (metadata.national_prefix or "") if metadata else ""


def possible_number(candidate: str, region: str | None) -> bool:
    """The length fits the country's plan, as a whole number, not only as one dialled locally
    (``+1 555 0100``): for shapes that already say "phone" (``+``, 3-3-4)."""
    try:
        reason = phonenumbers.is_possible_number_with_reason(phonenumbers.parse(candidate, region))
        return reason == phonenumbers.ValidationResult.IS_POSSIBLE
    except phonenumbers.NumberParseException:
        return False


def short_of_the_plan(international: str) -> bool:
    """An international number one or two digits shorter than its country's plan now wants: a number
    of an older plan, still written (Nigeria's fixed lines, "+234 1 …" for Lagos, are ten digits
    in libphonenumber's metadata since the move to the "20…" numbers). Only on a line that speaks of
    phones."""
    try:
        number = phonenumbers.parse(international, None)
    except phonenumbers.NumberParseException:
        return False
    reason = phonenumbers.is_possible_number_with_reason(number)
    lengths = national_lengths(phonenumbers.region_code_for_number(number) or "ZZ")
    significant = len(str(number.national_number))
    return (reason == phonenumbers.ValidationResult.TOO_SHORT and significant >= 7
            and any(0 < length - significant <= 2 for length in lengths))


def valid_number(candidate: str, region: str | None) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(candidate, region))
    except phonenumbers.NumberParseException:
        return False


# The recipient and sender of a text message or call as an API takes them, E.164 after ``To=`` and
# ``From=`` (Twilio's Messages and Calls resources, twilio.com/docs; Vonage's ``to``/``from``), "+" maybe
# percent-encoded: a phone number whatever its length, since the API is given what the user typed.
MESSAGE_API_NUMBER = re.compile(r"(?i)(?<![\w.\-])(?:to|from)=(?P<v>(?:\+|%2B)\d{7,15})(?![\w])")


# ---- cards and IBANs -------------------------------------------------------------------------------

# Chinese and Japanese set no space around a number ("银行卡6264 6154 2134 4881被扣了"): a letter of
# those scripts may touch it, as a phone number's (PHONE_CANDIDATE). The groups as printed on the card
# may be joined by spaces, hyphens, dots (``6522.5552.9302.0680``) or no-break spaces (a copy from a web
# page or a spreadsheet).
CARD_SEPARATOR = "[ \\-.\u00a0]"
CARD = re.compile(rf"(?:(?<![\w\-.])|(?<=[{CJK}]))\d(?:{CARD_SEPARATOR}?\d){{12,22}}(?:(?![\w\-]|\.\d)|(?=[{CJK}]))")
# Issuer identification numbers of the major schemes (ISO/IEC 7812; Visa, Mastercard incl. the 2-series,
# Amex, Diners, Discover, JCB, UnionPay, Maestro).
CARD_PREFIX = re.compile(
    r"4|5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720)|3[47]|3(?:0[0-5]|[689])|6(?:011|5|4[4-9]|2)|35"
    # Elo's ranges outside those (Elo, "Tabela de BINs": 504175, 506699-506778, 509xxx, 627780, 636297,
    # 636368) and Troy's 9792 (BKM, "TROY BIN ranges")
    r"|50(?:4175|6699|67[0-7]\d|6778|9\d{3})|627780|636(?:297|368)|9792"
)
# Wider ranges, counted only when the number is written in groups as on the card or after a word for
# a card (CARD_WORD_BEFORE; a bare run of digits from them is as often an order number): Maestro's 50
# and 56-69 (Mastercard, "Maestro IIN ranges"), Mir's 2200-2204 (NSPK, "Mir card BIN ranges"),
# RuPay's 60, 81, 82 and 508 (NPCI, "RuPay").
GROUPED_CARD_PREFIX = re.compile(r"50|5[6-9]|6|220[0-4]|8[12]")
IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){10,30}")


# A word for a card, or a card number's field, just before it: then a bare run of digits may have the
# wider prefixes too ("Bitte buchen Sie von meiner Karte 6081…", "Mi tarjeta 6304…", a log's ``pan=``,
# the primary account number, ISO/IEC 7812).
CARD_WORD_BEFORE = re.compile(
    r"(?i)(?<![^\W\d_])(?:card|karte|carte|tarjeta|cart[ãa]o|carta|kaart|karta|kort|kart[ıi]|kartu|pan"
    r"|card[ _\-]?(?:number|no|num)|kartennummer|カード|卡|카드)\w{0,6}[^\d\n]{0,16}$")


def card_span(text: str, match: re.Match[str]) -> Span | None:
    """The longest run of leading groups that forms a card number (prefix, length, Luhn)."""
    groups = re.split(CARD_SEPARATOR, match.group(0))
    separators = set(re.findall(CARD_SEPARATOR, match.group(0)))
    if len(groups) > 1 and (len(groups[0]) != 4 or len(separators) > 1):
        return None
    named = CARD_WORD_BEFORE.search(line_before(text, match.start())) is not None
    for count in range(len(groups), 0, -1):
        digits = "".join(groups[:count])
        shape_ok = count == 1 or all(3 <= len(g) <= 6 for g in groups[:count])
        if shape_ok and 13 <= len(digits) <= 19 and card_number_valid(digits, grouped=count > 1 or named):
            return match.start(), match.start() + len(" ".join(groups[:count]))
    return None


# The lengths the largest schemes issue (Visa, "Visa Core Rules": 13 to 19 digits, 13, 16 or 19 in use;
# Mastercard, "Mastercard Rules": 16 digits for its 51-55 and 2221-2720 ranges; American Express: 15):
# a 15-digit number under a Mastercard prefix is something else (a French NIR, ``2 58 11 …``).
SCHEME_LENGTHS = ((re.compile(r"4"), (13, 16, 19)), (re.compile(r"5[1-5]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)"), (16,)),
                  (re.compile(r"3[47]"), (15,)))


def card_number_valid(digits: str, grouped: bool = False) -> bool:
    prefixed = CARD_PREFIX.match(digits) is not None or (grouped and GROUPED_CARD_PREFIX.match(digits) is not None)
    scheme = next((lengths for prefix, lengths in SCHEME_LENGTHS if prefix.match(digits)), None)
    return prefixed and (scheme is None or len(digits) in scheme) and luhn.is_valid(digits)


def iban_span(text: str, match: re.Match[str]) -> Span | None:
    """The longest prefix that stdnum calls a valid IBAN (country length and format, mod 97); the
    national check digits inside the BBAN are not required, a mistyped account is still one."""
    candidate = match.group(0)
    ends = [i + 1 for i, ch in enumerate(candidate) if ch != " "]
    for end in reversed(ends[14:]):
        if stdnum_iban.is_valid(candidate[:end], check_country=False) and not text[match.start() + end:][:1].isalnum():
            return match.start(), match.start() + end
    return None


def personal_data_detectors(phones: PhoneDetector) -> tuple[Detector, ...]:
    def pii(label: str, pattern: re.Pattern[str], triggers: tuple[str, ...],
            locate: Locate = whole_match) -> PatternDetector:
        return PatternDetector("PII", label, pattern, triggers, locate)

    return (
        pii("email", EMAIL, ("@", "%40"), email_span),
        pii("email", OBFUSCATED_EMAIL, (" at ", "at]", "at)", "at}", "at>")),
        phones,
        pii("phone", MESSAGE_API_NUMBER, ("to=", "from="), value_group),
        pii("card_number", CARD, (), card_span),
        pii("iban", IBAN, (), iban_span),
    )
