"""US bank account numbers, which have no check digit or shape of their own (4 to 17 digits, each
bank its own), found where the text says what they are: after a word that names an account number in
a text that gives an ABA routing number (a direct-deposit form, a wire instruction, a Stripe
``bank_account`` object), and in the account field of a NACHA file's entry detail records. The routing
number itself is public, printed on every check (ABA, "Routing Number Policy"): it is no phone number
and is not masked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from stdnum.us import rtn

from reverie.privacy.findings import Detector, Finding

# An ABA routing transit number after a word that names it (``routing no. 079264327``, ``ABA 113635870``,
# ``Routing (ABA): 031191483``, Stripe's ``"routing_number": "…"``): nine digits with the ABA check
# (python-stdnum's us.rtn).
ROUTING_NAMED = re.compile(
    r"(?i)(?<![^\W\d_])(?:routing|aba|rtn|transit)(?:[ \t_\-]*(?:no\.?|number|nr|num|#))?[\"')]?"
    r"(?:[ \t]*\((?:aba|rtn)\))?[ \t]*[:=#]?[ \t]*[\"']?(?P<v>\d{9})(?!\d)")
# A word that names routing numbers near a nine-digit number ("Routing numbers are public — e.g. …").
ROUTING_WORD = re.compile(r"(?i)(?<![^\W\d_])(?:routing|aba|rtn|fedach|fedwire)(?![^\W\d_])")
# An account number after a word that names it (``account no. 726209887188``, ``ACCT 52565310``, ``Account #:
# …``, ``"account_number": "…"``): six digits or more (a bank's are 4 to 17; "last 4" digits alone are
# no account's number).
ACCOUNT_NAMED = re.compile(
    r"(?i)(?<![^\W\d_])(?:acct|account)(?:[ \t_\-]*(?:no\.?|number|nr|num|#))?[\"']?"
    r"[ \t]*[:=#]?[ \t]*[\"']?(?P<v>\d{6,17})(?![\w\-])")
# A NACHA entry detail record (Nacha Operating Rules, Appendix Three, "Entry Detail Record"): "6", the
# transaction code (22-29 checking, 32-39 savings, 41-49 general ledger, 51-56 loan), the receiving bank's
# routing number (eight digits and its check digit), the receiver's account number (17 characters, left
# justified), the amount (10 digits).
ACH_ENTRY = re.compile(r"(?m)^6(?:2[2-9]|3[2-9]|4[1-9]|5[1-6])(?P<rdfi>\d{9})(?P<account>[0-9A-Za-z\- ]{17})\d{10}")


def routing_number(text: str, start: int, candidate: str) -> bool:
    """``candidate`` at ``start`` is nine digits with the ABA check, on a line (or just after one) that
    speaks of routing numbers: a routing number, not a phone number."""
    if len(candidate) != 9 or not candidate.isdigit() or not rtn.is_valid(candidate):
        return False
    return ROUTING_WORD.search(text, max(0, start - 120), start) is not None


@dataclass(frozen=True)
class NamedAccounts:
    """Account numbers after their name in a text that gives a routing number after its name."""

    triggers: tuple[str, ...] = ("routing", "aba", "rtn", "transit")

    def find(self, text: str) -> Iterator[Finding]:
        routings = {m.group("v") for m in ROUTING_NAMED.finditer(text) if rtn.is_valid(m.group("v"))}
        if routings:
            for match in ACCOUNT_NAMED.finditer(text):
                if match.group("v") not in routings:
                    yield Finding("PII", "us_bank_account", *match.span("v"))


@dataclass(frozen=True)
class AchEntries:
    """The account numbers of NACHA entry detail records whose routing number passes the ABA check."""

    triggers: tuple[str, ...] = ("\n6",)  # an entry's line follows the file's and the batch's headers

    def find(self, text: str) -> Iterator[Finding]:
        for match in ACH_ENTRY.finditer(text):
            account = match.group("account").rstrip()
            if rtn.is_valid(match.group("rdfi")) and account.strip("0 "):
                yield Finding("PII", "us_bank_account", match.start("account"), match.start("account") + len(account))


def bank_account_detectors() -> tuple[Detector, ...]:
    return (NamedAccounts(), AchEntries())
