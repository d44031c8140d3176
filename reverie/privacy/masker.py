"""The masker: runs every detector, merges what they find, writes the placeholders."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import phonenumbers

from reverie.errors import ConfigError, ValidationError
from reverie.privacy.bank_accounts import bank_account_detectors
from reverie.privacy.calls import call_detectors
from reverie.privacy.commands import command_line_detectors
from reverie.privacy.configs import config_detectors
from reverie.privacy.cookies import SessionCookies
from reverie.privacy.encoded import SecretData
from reverie.privacy.findings import PLACEHOLDER, Detector, Finding, Masked, Span, folded
from reverie.privacy.http_exports import http_export_detectors
from reverie.privacy.messaging import messaging_detectors
from reverie.privacy.national import national_id_detectors
from reverie.privacy.own_rules import own_secret_detectors
from reverie.privacy.personal import PhoneDetector, personal_data_detectors
from reverie.privacy.plugins import plugin_detectors
from reverie.privacy.prose import prose_secret_detectors
from reverie.privacy.providers import provider_detectors
from reverie.privacy.ruleset import load_ruleset
from reverie.privacy.tool_keys import tool_key_detectors
from reverie.privacy.values import filler
from reverie.privacy.webhooks import webhook_detectors
from reverie.settings import PrivacySettings

#: When overlapping spans merge, the lowest rank names the placeholder: whole blocks first, then
#: any provider's label (rank 10), then the generic secret kinds, then personal data. The South
#: African ID, the Romanian CNP and the Korean RRN come before card numbers: all are 13 digits, found
#: only after a word that names them, and a 13-digit number with a Luhn digit may also pass for a
#: Maestro card; so do the identifiers of the eleventh and twelfth extensions, most found only after
#: a word that names them (the Indonesian NIK has a card's 16 digits). The Japanese My Number, found
#: only after a word that names it, comes before the
#: Aadhaar, whose 4-4-4 grouping and check digit it may also have. The Chinese resident identity
#: number (18 characters, a valid date of birth and an ISO 7064 check) comes before card numbers:
#: a card of 18 digits is rare, and one that also passes that date and check rarer still. A US bank
#: account number, found only after its name beside a routing number or in a NACHA entry, comes right
#: after the IBAN: its digits may also read as a phone or a card number.
FIRST = ("private_key", "jwt")
GENERIC = ("aws_secret", "url_credentials", "bearer_token", "password", "generic_api_key")
PERSONAL = ("iban", "us_bank_account", "za_id", "ro_cnp", "kr_rrn", "cn_ric", "tw_national_id", "th_national_id", "si_emso",
            "lt_asmens_kodas", "at_svnr", "gb_nhs_number", "us_itin", "au_medicare", "nz_ird", "ru_inn", "ru_snils", "ua_rnokpp",
            "kz_iin", "gr_amka", "gr_afm", "hu_taj", "hu_tax_id", "lv_personas_kods", "mx_rfc", "uy_ci", "ec_cedula", "pl_nip",
            "sa_national_id", "de_svnr", "my_nric", "pk_cnic", "id_nik", "ae_emirates_id", "lu_matricule", "card_number",
            "au_tfn", "ssn", "uk_nino", "ca_sin", "fr_nir",
            "es_dni", "es_nie", "it_codice_fiscale", "nl_bsn", "br_cpf", "pl_pesel", "se_personnummer", "dk_cpr",
            "fi_hetu", "be_nrn", "pt_nif", "cl_rut", "mx_curp", "no_fnr", "ch_ahv", "de_tax_id",
            "jp_my_number", "aadhaar", "sg_nric", "ie_ppsn", "tr_tckn", "il_tz", "ar_cuit", "ee_ik", "hk_hkid", "in_pan",
            "bg_egn", "hr_oib", "is_kennitala", "cz_rc",
            "email", "phone")
#: Provider formats that are a narrower shape under another provider's prefix (Paystack's 40-hex
#: ``sk_live_`` keys inside Stripe's ``sk_live_`` rule; DeepSeek's 32-hex ``sk-`` keys, in a text
#: naming DeepSeek, inside OpenAI's ``sk-``), or the same shape under a name or in a text that names
#: the other provider (Clerk's ``sk_live_`` under CLERK_SECRET_KEY, Stability AI's ``sk-`` keys): where
#: both match, the narrower one names the span.
PRECISE = ("paystack_key", "deepseek_key", "clerk_secret_key", "stability_api_key")
RANK = {**{label: i for i, label in enumerate(FIRST)},
        **{label: 5 for label in PRECISE},
        **{label: 20 + i for i, label in enumerate(GENERIC)},
        **{label: 40 + i for i, label in enumerate(PERSONAL)}}


def rank(label: str) -> int:
    return RANK.get(label, 10)


def secret_detectors() -> tuple[Detector, ...]:
    found: tuple[Detector, ...] = (
        load_ruleset(), *plugin_detectors(), *provider_detectors(), *tool_key_detectors(), *messaging_detectors(),
        *webhook_detectors(), *own_secret_detectors(), *config_detectors(), *call_detectors(),
        *command_line_detectors(), *prose_secret_detectors(), *http_export_detectors(), SessionCookies())
    return (*found, SecretData(found, rank))  # a Kubernetes Secret's base64 values, decoded, by the others


def checked_regions(regions: Sequence[str]) -> tuple[str, ...]:
    unknown = sorted(set(regions) - phonenumbers.SUPPORTED_REGIONS)
    if unknown:
        raise ConfigError(
            f"REVERIE_PRIVACY__PHONE_REGIONS names unknown regions {unknown}; use ISO 3166-1 "
            "alpha-2 codes libphonenumber knows, e.g. US,GB,DE", field="phone_regions",
        )
    return tuple(regions)


class Masker:
    """Masks secrets and personal data. Build one per process from the settings and share it: it
    holds only immutable, compiled detectors."""

    def __init__(self, settings: PrivacySettings) -> None:
        detectors: tuple[Detector, ...] = ()
        self._rules_version = "none"
        if settings.enabled and settings.secrets:
            detectors += secret_detectors()
            self._rules_version = f"gitleaks {load_ruleset().version}"
        if settings.enabled and settings.personal_data:
            phones = PhoneDetector(checked_regions(settings.phone_regions))
            detectors += personal_data_detectors(phones)
            detectors += bank_account_detectors()
            detectors += national_id_detectors(phones.is_phone)
        self._detectors = detectors
        # Every trigger literal once: a segment is searched for each of them once, and a detector runs
        # when one of its own is among those found (not each detector searching for its own in turn).
        self._triggers = tuple(sorted({t for d in detectors for t in d.triggers}))

    def mask(self, text: str) -> Masked:
        """Replace every secret and piece of personal data in ``text`` by a typed placeholder."""
        if not isinstance(text, str):
            raise ValidationError(
                f"text to mask must be a str, got {type(text).__name__}; decode bytes first",
                field="text",
            )
        findings = self._scan(text) if self._detectors else []
        return Masked(apply(text, findings), tuple(findings))

    def mask_many(self, texts: Iterable[str]) -> list[Masked]:
        return [self.mask(text) for text in texts]

    def mask_text(self, text: str) -> str:
        return self.mask(text).text

    @property
    def rules_version(self) -> str:
        """The maintained rule set in use, e.g. ``gitleaks 8.30.1`` (``none`` with secrets off)."""
        return self._rules_version

    def _scan(self, text: str) -> list[Finding]:
        """Detect in the gaps between placeholders; rescan the pieces of every gap that had a
        finding until none has, so the result is a fixed point (idempotence)."""
        found: list[Finding] = []
        todo = gaps(0, len(text), [m.span() for m in PLACEHOLDER.finditer(text)])
        while todo:
            next_todo: list[Span] = []
            for start, end in todo:
                new = self._detect(text, start, end)
                found.extend(new)
                next_todo += gaps(start, end, [(f.start, f.end) for f in new]) if new else []
            todo = next_todo
        return sorted(found, key=lambda f: f.start)

    def _detect(self, text: str, start: int, end: int) -> list[Finding]:
        segment = text[start:end]
        lowered = folded(segment)
        present = {t for t in self._triggers if t in lowered}
        raw = [
            Finding(f.category, f.label, f.start + start, f.end + start)
            for detector in self._detectors
            if not detector.triggers or not present.isdisjoint(detector.triggers)
            for f in detector.find(segment)
            if f.category != "SECRET" or not filler(segment[f.start:f.end])
        ]
        return merge(raw)


def gaps(start: int, end: int, spans: Sequence[Span]) -> list[Span]:
    """The non-empty pieces of ``[start, end)`` outside the sorted, disjoint ``spans``."""
    pieces, position = [], start
    for span_start, span_end in spans:
        if span_start > position:
            pieces.append((position, span_start))
        position = max(position, span_end)
    return pieces + [(position, end)] if position < end else pieces


def merge(findings: list[Finding]) -> list[Finding]:
    """Union overlapping spans; the merged span takes the best-ranked label among its parts."""
    merged: list[Finding] = []
    for f in sorted(findings, key=lambda f: (f.start, -f.end)):
        last = merged[-1] if merged else None
        if last is None or f.start >= last.end:
            merged.append(f)
            continue
        best = last if rank(last.label) <= rank(f.label) else f
        merged[-1] = Finding(best.category, best.label, last.start, max(last.end, f.end))
    return merged


def apply(text: str, findings: Sequence[Finding]) -> str:
    parts, position = [], 0
    for f in findings:
        parts += [text[position:f.start], f"[{f.category}:{f.label}]"]
        position = f.end
    return "".join(parts) + text[position:]
