"""Identifiers that count only where a word names them: before the value (``PESEL: 85042428995``), in
a comment after it (``"375884165"  # PT NIF``), or as the name of the field the value is in:

- a table's column (CSV, TSV, Markdown: ``name,pesel,email``), underscores read as spaces
  (``tc_kimlik_no``, ``teudat_zehut``);
- a column of an SQL ``INSERT INTO t (name, national_id) VALUES ('…', '…')``;
- a record that gives the identifier's type beside its value, as KYC and identity-verification
  APIs return them (``"national_id": {"type": "CNP", "value": "2710505432678"}``).

A field named only as a national identifier (``national_id``, ``national id number``; a log's
``field=tax_id value=…``, a Salesforce custom field's ``National_ID__c``; in other languages a column
"Documento" or "Ausweis-/Steuernr.") takes the first identifier whose shape and check the value
passes; so do a value printed on a line of its own
after the bare word "ID" (``ID: 882 814 547``) and a cell of a person's row that has no header
(``Lindqvist;Hugo;1995-02-12;860727-6121``: names and a date beside it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Finding
from reverie.privacy.personal import CJK, TABLE_SEPARATORS, column_header
from reverie.privacy.sql_inserts import sql_fields

Check = Callable[[str], bool]


@dataclass(frozen=True)
class Named:
    """An identifier that counts only where a word names it: ``pattern`` finds the value (group
    ``v``) after the word, ``noted`` the value with the word in a comment or an aside after it
    (``tax_id = "375884165"  # PT NIF``), ``value`` the value alone, ``header`` a table column's
    header that is the word (``PESEL``, ``nric``, ``PPS No.``)."""

    pattern: re.Pattern[str]
    noted: re.Pattern[str]
    value: re.Pattern[str]
    header: re.Pattern[str]


def named(words: str, value: str) -> Named:
    """``value`` after a word that names the identifier, with at most 24 characters, none a digit,
    between them: ``PESEL: 85042428995``, ``CPR-nr. 150965-3689``. Text without spaces may follow
    (``マイナンバーは271828180049です``), but no ASCII letter or digit; and precede, in Chinese,
    Japanese and Korean (``私のマイナンバーは…``)."""
    words = code_spelled(words)
    alone = rf"(?<![\w\-+.])(?P<v>{value})(?![0-9A-Za-z_\-]|\.\d)"
    return Named(
        re.compile(rf"(?i)(?:(?<![^\W\d_])|(?-i:(?<=[{CJK}])))(?:{words})(?![^\W\d_])[^\d\n]{{0,24}}?(?<![\d.\-])(?P<v>{value})"
                   r"(?![0-9A-Za-z_\-]|\.\d)"),
        re.compile(rf"(?i){alone}[\"'`]?[ \t]*(?:#|//|--|/\*|\()[^\d\n]{{0,16}}?(?<![^\W\d_])(?:{words})(?![^\W\d_])"),
        re.compile(rf"(?i){alone}"),
        re.compile(rf"(?i)(?:{NUMBER_OF})?(?:{words})(?:[ \t_.\-]*(?:{NUMBER_WORD}|#)\.?)?"),
    )


# "Number" in the languages of the identifiers, as a column's header writes it after the identifier's
# word ("INSZ-nummer", "TAJ szám", "PPS No.") or before it ("número de contribuinte", "numéro NIR").
NUMBER_WORD = r"no|nr|num|number|nummer|numer|num[ée]ro|n[úu]mero|sz[áa]m|n°"
NUMBER_OF = rf"(?:{NUMBER_WORD})\.?(?:[ \t]+(?:de|do|da|du|of))?[ \t]+"


def code_spelled(words: str) -> str:
    """The words also as code spells them, in a field's, a key's or an element's name: snake, kebab or
    camel case (``rodne_cislo``, ``social-insurance-number``, ``<TcKimlikNo>``, ``"myNumber"``): where
    the words allow a space, an underscore or a hyphen or nothing may stand."""
    return (words.replace(r"[ \t]+", r"[ \t_\-]*").replace(r"[ \t]?", r"[ \t_\-]?")
            .replace(r"[ \t\-]?", r"[ \t_\-]?").replace(r"[ \t_]+", r"[ \t_\-]*"))


def field_name(name: str) -> str:
    """A column's or a field's name as words: ``tc_kimlik_no`` reads ``tc kimlik no``."""
    return name.strip(" \t\"'`|[]").replace("_", " ")


@dataclass(frozen=True)
class HeadedColumn:
    """A named identifier in a table (CSV, TSV, Markdown) whose column header is its word."""

    label: str
    named: Named
    check: Check
    triggers: tuple[str, ...]

    def find(self, text: str) -> Iterator[Finding]:
        if not any(separator in text for separator in TABLE_SEPARATORS):
            return
        for match in self.named.value.finditer(text):
            header = field_name(column_header(text, match.start()))
            if header and self.named.header.fullmatch(header) and self.check(match.group("v")):
                yield Finding("PII", self.label, *match.span("v"))


# A field that names a national identifier without saying which.
ANY_NATIONAL_ID = re.compile(r"(?i)(?:national|citizen|personal)[ \-]?id(?:entity)?(?:[ \-]?(?:number|no|code))?")
# A field named as a national, government or tax identifier without saying which, as code, logs and
# APIs name it: ``national_id=…``, ``"nationalId": "…"``, ``"govId": "…"``, ``taxId = "…"``, a form's
# ``National Id      30-68841674-0``, a table column ``national_id``. Underscores and camelCase read
# as words (field_name, then a space before a capital). The value counts only if one identifier's
# shape and check digits pass (FieldNamed.label_of), so ``order_id=…`` or a bad number stays.
# An identity document's number without the country's name (``"id_no"``, ``<IdNumber>``, ``id_card``,
# ``identity_number``) names one too.
# In other languages: an identity document's or a tax number's column without the country's name
# (German "Ausweis-/Steuernr.", "Ausweisnummer", "Steuernummer"; Portuguese and Spanish "Documento",
# "Nº do documento", "número de documento"; French "numéro de pièce d'identité").
GENERIC_ID_NAME = (r"(?:(?:national|citizen|personal|gov(?:ernment)?|tax(?:payer)?)[ \-]?id(?:entity)?"
                   r"(?:[ \-]?(?:number|no|code))?"
                   r"|id(?:entity)?[ \-]?(?:number|no|nr|card)(?:[ \-]?(?:number|no))?"
                   r"|(?:ausweis|steuer)(?:nummer|[ \-]?nr\.?)|ausweis-?[ ]?/[ ]?steuer(?:nummer|[ \-]?nr\.?)"
                   r"|(?:n[º°o]\.?[ \-]?|n[úu]mero[ \-]+)?(?:(?:de|do|del)[ \-]+)?documento(?:[ \-]+de[ \-]+identi(?:dad|dade))?"
                   r"|num[ée]ro[ \-]+de[ \-]+pi[èe]ce[ \-]+d['’]identit[ée])")
# … also as a log's field and value pair (``field=national_id value=…``), and as a Salesforce custom
# field, whose API name ends in "__c" (``"National_ID__c": "…"``).
GENERIC_ID_FIELD = re.compile(
    rf"(?i)(?<![\w\-])[\"'`]?(?P<n>{GENERIC_ID_NAME.replace('[ ', '[_ ')})(?:__c)?[\"'`]?"
    r"(?:[ \t]*[:=][ \t]*|[ \t]{2,}|[ \t]+value[ \t]*=[ \t]*)[\"'`]?"
    r"(?P<v>[0-9A-Za-z](?:[0-9A-Za-z.\-/()]| (?=\d))*[0-9A-Za-z)])(?![\w\-])")
# … or as an XML element's name (``<CitizenId>4-2003-25585-85-8</CitizenId>``, ``<IdNumber>…``).
GENERIC_ID_ELEMENT = re.compile(
    rf"(?i)<(?P<n>{GENERIC_ID_NAME.replace('[ ', '[_ ')})>[ \t]*"
    r"(?P<v>[0-9A-Za-z](?:[0-9A-Za-z.\-/()]| (?=\d))*[0-9A-Za-z)])[ \t]*</")
# A record of an identifier's type and its value, in JSON.
TYPED_VALUE = re.compile(r'"(?:type|id_type|document_type|kind)"[ \t]*:[ \t]*"(?P<t>[^"\n]{1,48})"\s*,\s*'
                         r'"(?:value|number|id_number)"[ \t]*:[ \t]*"(?P<v>[^"\n]{4,40})"')


@dataclass(frozen=True)
class FieldNamed:
    """Identifiers in an SQL INSERT's named columns and in typed JSON records: ``ids`` are (label,
    named, check) in the order a field named only as a national identifier tries them."""

    ids: tuple[tuple[str, Named, Check], ...]
    triggers: tuple[str, ...] = ("insert", '"type"', '"id_type"', '"document_type"', '"kind"')

    def find(self, text: str) -> Iterator[Finding]:
        for name, value, start in (*sql_fields(text), *typed_fields(text)):
            label = self.label_of(field_name(name), value)
            if label is not None:
                yield Finding("PII", label, start, start + len(value))

    def label_of(self, name: str, value: str) -> str | None:
        anything = ANY_NATIONAL_ID.fullmatch(name) is not None
        for label, named_id, check in self.ids:
            if (anything or named_id.header.fullmatch(name)) and named_id.value.fullmatch(value) and check(value):
                return label
        return None


@dataclass(frozen=True)
class GenericNamed:
    """A national identifier in a field named only as one (:data:`GENERIC_ID_FIELD`): ``key=value``
    in a log line, a JSON or YAML member, an assignment, a form's row, or a table's column whose
    header is such a name; labelled by the first of ``field_named.ids`` whose shape and check pass."""

    field_named: FieldNamed
    triggers: tuple[str, ...] = ("national", "citizen", "personal", "govid", "gov_id", "gov id", "government",
                                 "taxid", "tax_id", "tax id", "taxpayer", "idno", "id_no", "id no", "id-no", "idnr",
                                 "id_nr", "idnumber", "id_number", "id number", "id-number", "idcard", "id_card",
                                 "id card", "id-card", "identity", "ausweis", "steuer", "documento", "pièce", "piece")

    def find(self, text: str) -> Iterator[Finding]:
        for match in (*GENERIC_ID_FIELD.finditer(text), *GENERIC_ID_ELEMENT.finditer(text)):
            label = self.field_named.label_of("national id", match.group("v"))
            if label is not None:
                yield Finding("PII", label, *match.span("v"))
        if any(separator in text for separator in TABLE_SEPARATORS):
            for match in TABLE_CELL.finditer(text):
                header = camel_words(field_name(column_header(text, match.start())))
                if header and re.fullmatch(rf"(?i){GENERIC_ID_NAME}", header):
                    label = self.field_named.label_of("national id", match.group("v"))
                    if label is not None:
                        yield Finding("PII", label, *match.span("v"))


# PostgreSQL's report of a row that broke a constraint (not-null, check: "DETAIL:  Failing row contains
# (2670, A B, 0691847GA, Cork, null)."; postgresql.org, errors 23502/23514): the row's values, in
# column order but without the columns' names.
FAILING_ROW = re.compile(r"Failing row contains \((?P<row>[^()\n]*(?:\([^()\n]*\)[^()\n]*)*)\)")


@dataclass(frozen=True)
class FailingRow:
    """A national identifier among the values of a row PostgreSQL prints in a constraint error: a
    table's record, so a value that one identifier's shape and check pass is taken for it."""

    field_named: FieldNamed
    triggers: tuple[str, ...] = ("failing row contains",)

    def find(self, text: str) -> Iterator[Finding]:
        for match in FAILING_ROW.finditer(text):
            position = match.start("row")
            for value in match.group("row").split(", "):
                label = self.field_named.label_of("national id", value.strip())
                if label is not None:
                    start = position + len(value) - len(value.lstrip())
                    yield Finding("PII", label, start, start + len(value.strip()))
                position += len(value) + 2


# A table's cell (CSV, TSV, pipes, semicolons), optionally quoted.
TABLE_CELL = re.compile(r"(?:(?<=^)|(?<=[,;\t|]))[ \t]*[\"']?(?P<v>[0-9A-Za-z][0-9A-Za-z .\-/()]*?[0-9A-Za-z)])[\"']?"
                        r"[ \t]*(?=[,;\t|]|$)",
                        re.MULTILINE)


def camel_words(name: str) -> str:
    """``nationalId`` reads ``national Id``."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)


def typed_fields(text: str) -> Iterator[tuple[str, str, int]]:
    for match in TYPED_VALUE.finditer(text):
        yield match.group("t"), match.group("v"), match.start("v")


# A line that gives only an identifier under the bare word "ID" (``ID: 882 814 547``, a form's or a
# ticket's field): the value written as identifiers are printed, grouped by spaces, hyphens, dots or
# slashes or holding a letter (a bare run of digits under "ID" is as often an order's or a ticket's).
BARE_ID_LINE = re.compile(r"(?m)^[ \t]*(?:[-*][ \t]+)?(?:ID|Id)[ \t]*[:=][ \t]*"
                          r"(?P<v>[0-9A-Za-z](?:[0-9A-Za-z.\-/]| (?=[0-9A-Za-z]))*[0-9A-Za-z])[ \t]*\r?$")


@dataclass(frozen=True)
class BareIdLine:
    """An identifier on a line of its own after "ID:" (:data:`BARE_ID_LINE`), labelled by the first of
    ``field_named.ids`` whose shape and check pass."""

    field_named: FieldNamed
    triggers: tuple[str, ...] = ("id",)

    def find(self, text: str) -> Iterator[Finding]:
        for match in BARE_ID_LINE.finditer(text):
            value = match.group("v")
            if not value.isdigit() and (label := self.field_named.label_of("national id", value)) is not None:
                yield Finding("PII", label, *match.span("v"))


# A person's record as a delimited row without a header (an export's ``Lindqvist;Hugo;1995-02-12;860727-6121``):
# two cells or more that are names, one that is a date, and a cell that one identifier's shape and check pass.
DATE_CELL = re.compile(r"(?:19|20)\d{2}-\d{2}-\d{2}|\d{1,2}([./])\d{1,2}\1(?:19|20)\d{2}")
NAME_CELL = re.compile(r"[^\W\d_]+(?:[ '’.\-][^\W\d_]+)*")
# A header's cell that is a field's name, not a value: words, underscores, hyphens.
HEADER_NAME = re.compile(r"[A-Za-z][A-Za-z _\-]*")


@dataclass(frozen=True)
class PersonRow:
    """National identifiers in a delimited row that records a person (:data:`DATE_CELL`,
    :data:`NAME_CELL`) and has no header above that names its columns (a named column is
    :class:`HeadedColumn`'s and :class:`GenericNamed`'s)."""

    field_named: FieldNamed
    triggers: tuple[str, ...] = ()

    def find(self, text: str) -> Iterator[Finding]:
        if DATE_CELL.search(text) is None or not any(separator in text for separator in TABLE_SEPARATORS):
            return
        position = 0
        for line in text.splitlines(keepends=True):
            yield from self.row(text, line.rstrip("\r\n"), position)
            position += len(line)

    def row(self, text: str, line: str, position: int) -> Iterator[Finding]:
        separator = max(TABLE_SEPARATORS, key=line.count)
        cells = line.split(separator)
        if len(cells) < 3:
            return
        values = [cell.strip(" \t\"'") for cell in cells]
        if sum(NAME_CELL.fullmatch(v) is not None for v in values) < 2 or not any(DATE_CELL.fullmatch(v) for v in values):
            return
        offset = position
        for cell, value in zip(cells, values, strict=True):
            start = offset + cell.find(value) if value else offset
            offset += len(cell) + 1
            if not value or NAME_CELL.fullmatch(value) or DATE_CELL.fullmatch(value):
                continue
            header = column_header(text, start).strip(" \t\"'")
            if header and HEADER_NAME.fullmatch(header):
                continue
            label = self.field_named.label_of("national id", value)
            if label is not None:
                yield Finding("PII", label, start, start + len(value))
