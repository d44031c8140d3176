"""National identifiers in records that do not name the value's field beside it, in a text that
names an identifier elsewhere:

- a log line that maps a person to a value (``[09:32] Jane Doe -> 900402-3652 (mismatch)``), in an
  import's or a sync's log whose other lines give an identifier after its name (``row 12: BSN '…' already
  exists``) or name a field as a national identifier (``field=tax_id value=…``);
- a cell of a printed DataFrame (pandas, polars) whose column is named as an identifier
  (``national_id``, ``tax_id``, ``pesel``), found by :func:`reverie.privacy.aligned_tables.aligned_header`.

Each is labelled as a field named only as a national identifier is: by the first identifier whose
shape and check the value passes (:meth:`reverie.privacy.named_ids.FieldNamed.label_of`); a log's value
by the identifier the log names, if its check passes (a BSN that is also a valid SSN, in a log that
says BSN).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.aligned_tables import aligned_header
from reverie.privacy.findings import Finding
from reverie.privacy.named_ids import GENERIC_ID_NAME, Check, FieldNamed, Named, camel_words, field_name

# A person's name (two to four capitalised words) mapped to a value by an arrow, as import and sync logs
# print their rows.
PERSON_ARROW = re.compile(
    r"(?<![^\W\d_])(?P<name>[^\W\d_][\w'’.\-]{0,40}(?:[ \t][^\W\d_][\w'’.\-]{0,40}){1,3})[ \t]{0,8}(?:->|→|=>|⇒)[ \t]*"
    r"(?P<v>[0-9A-Za-z](?:[0-9A-Za-z.\-/]| (?=[0-9A-Za-z])){0,38}[0-9A-Za-z])(?![\w\-])")
# A field named as a national identifier without saying which (named_ids.GENERIC_ID_NAME), as code spells it.
GENERIC_NAME = re.compile(rf"(?i)(?<![^\W\d_]){GENERIC_ID_NAME.replace('[ ', '[_ ')}(?![^\W\d_])")
GENERIC_HEADER = re.compile(rf"(?i){GENERIC_ID_NAME}")
GENERIC_START = re.compile(rf"(?i){GENERIC_ID_NAME.replace('[ ', '[_ ')}(?![^\W\d_])")
# A value of an aligned table's row that may be an identifier: letters and digits with seven digits or
# more, maybe grouped by single spaces, dots, hyphens or slashes (``9742 2491 2728``, ``19.389.004-0``).
ALIGNED_VALUE = re.compile(r"(?<![^ │┆┃║|])(?=(?:[^\d\n]{0,3}\d){7})[0-9A-Za-z](?:[0-9A-Za-z.\-/]| (?=[0-9A-Za-z])){0,38}"
                           r"[0-9A-Za-z](?![^ │┆┃║|\n])")


def capitalised(name: str) -> bool:
    return all(word[:1].isupper() for word in re.split(r"[ \t]+", name))


@dataclass(frozen=True)
class PersonArrow:
    """A value mapped to a person by an arrow (:data:`PERSON_ARROW`) in a text that names an identifier."""

    field_named: FieldNamed
    triggers: tuple[str, ...] = ("->", "→", "=>", "⇒")

    def find(self, text: str) -> Iterator[Finding]:
        matches = [m for m in PERSON_ARROW.finditer(text)
                   if capitalised(m.group("name")) and sum(ch.isdigit() for ch in m.group("v")) >= 6]
        if not matches:
            return
        named = self.named_in(text)
        if not named and GENERIC_NAME.search(text) is None:
            return
        for match in matches:
            value = match.group("v")
            label = next((label for label, named_id, check in named if named_id.value.fullmatch(value) and check(value)),
                         None) or self.field_named.label_of("national id", value)
            if label is not None:
                yield Finding("PII", label, *match.span("v"))

    def named_in(self, text: str) -> list[tuple[str, Named, Check]]:
        """The identifiers ``text`` gives a value of after their own words (``BSN '…'``, whose check
        passes; not after a generic name: ``tax_id=…`` is no German Steuer-ID)."""
        return [(label, named_id, check) for label, named_id, check in self.field_named.ids
                if any(check(m.group("v")) and GENERIC_START.match(m.group(0)) is None
                       for m in named_id.pattern.finditer(text))]


@dataclass(frozen=True)
class AlignedIdColumn:
    """A cell of a printed DataFrame under a column named as a national identifier, generically
    (``national_id``: the first identifier whose shape and check pass) or as one (``pesel``)."""

    field_named: FieldNamed
    triggers: tuple[str, ...] = ()  # those of the column names: national.py gives them

    def find(self, text: str) -> Iterator[Finding]:
        for match in ALIGNED_VALUE.finditer(text):
            header = aligned_header(text, *match.span())
            if not header:
                continue
            name = camel_words(field_name(header))
            generic = GENERIC_HEADER.fullmatch(name) is not None
            label = self.field_named.label_of("national id" if generic else name, match.group(0))
            if label is not None:
                yield Finding("PII", label, *match.span())
