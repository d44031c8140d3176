"""The parts of masking issue 19 added: gitleaks' vendored rules (and the Go-regex translation),
phone regions, national identifiers and secrets said in prose."""

from __future__ import annotations

import re

import pytest

from reverie.errors import ConfigError, RuleTranslationError
from reverie.privacy import Masker
from reverie.privacy.goregex import go_to_python
from reverie.privacy.ruleset import build_ruleset, load_ruleset, shannon_entropy
from reverie.settings import PrivacySettings, Settings


@pytest.fixture(scope="module")
def masker() -> Masker:
    return Masker(PrivacySettings())


# ---- Go regexes --------------------------------------------------------------------------------

@pytest.mark.parametrize(("go", "python"), [
    (r"(?i)abc", r"(?i)abc"),
    (r"dp\.pt\.(?i)[a-z0-9]{43}", r"dp\.pt\.(?i:[a-z0-9]{43})"),
    (r"(a(?i)b)c", r"(a(?i:b))c"),
    (r"x(?-i:Ab)", r"x(?-i:Ab)"),
    (r"end\z", r"end\Z"),
    (r"[[:alnum:]_]+", r"[0-9A-Za-z_]+"),
    (r"(?<tok>ab)", r"(?P<tok>ab)"),
    (r"[a|b&&c]", r"[a\|b\&\&c]"),
    (r"\Qa.b\E+", r"a\.b+"),
])
def test_go_patterns_are_translated(go: str, python: str) -> None:
    assert go_to_python(go) == python
    re.compile(python)


@pytest.mark.parametrize("go", [r"\p{L}+", r"(?U)a+", r"[abc"])
def test_untranslatable_patterns_say_why(go: str) -> None:
    with pytest.raises(RuleTranslationError):
        go_to_python(go)


def test_a_rule_that_cannot_be_compiled_is_skipped_and_counted() -> None:
    config = {"rules": [
        {"id": "ok", "regex": r"\b(okk_[a-z]{8})\b", "keywords": ["okk_"]},
        {"id": "unicode", "regex": r"\p{L}{8}", "keywords": ["x"]},
        {"id": "paths", "path": r"\.p12$"},
    ]}
    ruleset = build_ruleset(config, "test")
    assert [r.rule_id for r in ruleset.rules] == ["ok"]
    assert set(ruleset.skipped) == {"unicode", "paths"}
    assert [f.label for f in ruleset.find("token okk_abcdefgh here")] == ["ok"]


# ---- the vendored rule set -----------------------------------------------------------------------

def test_the_vendored_rules_compile_with_their_version_and_licence() -> None:
    ruleset = load_ruleset()
    assert ruleset.version == "8.30.1"
    assert len(ruleset.rules) >= 200
    assert all(why == "applies to file paths only" for why in ruleset.skipped.values())


def test_entropy_floor_and_allowlists_hold() -> None:
    ruleset = load_ruleset()
    assert shannon_entropy("aaaa") == 0.0 and shannon_entropy("ab") == 1.0
    low_entropy = "AIza" + "a" * 35  # gcp-api-key needs entropy > 4
    assert not any(f.label == "google_api_key" for f in ruleset.find(f"key {low_entropy} "))
    real = "AIzaSyD8vQ2x7Lk3mPq9Rt5Wz1Yb6Nc4Hf0Jg2E"
    assert [f.label for f in ruleset.find(f"key {real}, ok")] == ["google_api_key"]


def test_match_allowlists_see_the_identifier_lead_in(masker: Masker) -> None:
    """gitleaks' ``[\\w.-]{0,50}?`` lead-in is off the compiled regexes but not off the match that
    allowlists test: ``primary_key`` stays allowed, an ``api_key`` is still found."""
    assert masker.mask("primary_key = abcdef1234567890xyz").text == "primary_key = abcdef1234567890xyz"
    assert "[SECRET:" in masker.mask("my_api_key = zq8Lm2Xp4Rt6Vb9Nc1Dw").text


# ---- the seven kinds of the issue, with their labels ---------------------------------------------

@pytest.mark.parametrize(("text", "label"), [
    ("GOOGLE_MAPS_KEY=AIzaSyD8vQ2x7Lk3mPq9Rt5Wz1Yb6Nc4Hf0Jg2E", "[SECRET:google_api_key]"),
    ("token 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 for the hub", "[SECRET:huggingface_token]"),
    ("twilio key SK3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4", "[SECRET:twilio_api_key]"),
    ("the root password is Tr0ub4dor&3x", "[SECRET:password]"),
    ("ruf an: 0151 23456789", "[PII:phone]"),
    ("SSN 078-05-1120", "[PII:ssn]"),
    ("Aadhaar 2345 6789 0124", "[PII:aadhaar]"),
])
def test_the_kinds_of_the_issue_are_masked_with_their_labels(
    masker: Masker, text: str, label: str
) -> None:
    out = masker.mask(text)
    assert label in out.text, out.text
    assert masker.mask(out.text).text == out.text


# ---- providers gitleaks lacks, labels named like ours, prose in German -----------------------------

A40 = "Zq8Lm2Xp4Rt6Vb9Nc1Dw3Ks5Jh7Gf0Ae2Uy4Io6P"  # 40 mixed alphanumerics, no meaning


@pytest.mark.parametrize(("text", "label"), [
    (f"docker login -u ci --password-stdin <<< dckr_pat_{A40[:27]}", "dockerhub_token"),
    (f"figma token figd_{A40}", "figma_token"),
    ("SUPABASE=sbp_" + "3fa9" * 10, "supabase_token"),
    (f"key gsk_{A40}{A40[:12]}", "groq_key"),
    (f"use r8_{A40[:37]} for replicate", "replicate_token"),
    ("LANGCHAIN_API_KEY=lsv2_sk_" + "0a1b" * 8 + "_" + "9f8e7d6c5b", "langsmith_key"),
    ("bk token bkua_" + "c0ffee42" * 5, "buildkite_token"),
    (f"VAULT_TOKEN=hvb.{A40}{A40}", "vault_token"),
    (f"token sk.eyJ1IjoiZGV2In0{A40[:6]}.{A40[:22]}", "mapbox_token"),
    (f"op: ops_eyJ{A40 * 3}", "onepassword_token"),
    (f"dbx sl.{A40 * 4}", "dropbox_token"),
    (f"integration secret_{A40}{A40[:3]}", "notion_token"),
    (f"bot.run(\"OTk4NzY1NDMyMTAxMjM0NTY3.{A40[:6]}.{A40[:38]}\")", "discord_token"),
    ("datadog:\n  app_key: " + "ab12" * 10, "datadog_key"),
    ("heroku: our api token is 0b9e3a52-6c1d-4e7f-8a2b-3c4d5e6f7a8b", "heroku_key"),
    ("mailgun sending key key-" + "0123abcd" * 4, "mailgun_key"),
    ("HEROKU_API_KEY=HRKU-AA" + A40 + A40[:18], "heroku_key"),             # gitleaks' rule, our name
    ("git push https://bot: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@huggingface.co/acme/m", "huggingface_token"),
])
def test_more_providers_are_masked_under_their_own_label(masker: Masker, text: str, label: str) -> None:
    out = masker.mask(text)
    assert f"[SECRET:{label}]" in out.text, out.text
    assert masker.mask(out.text).text == out.text


@pytest.mark.parametrize("text", [
    "Das Passwort lautet Kx7!vRq2mLp9, bitte sofort ändern.",
    "Le mot de passe est Qz4#wTn8bYv1 pour le serveur.",
])
def test_passwords_in_german_and_french_prose_are_masked(masker: Masker, text: str) -> None:
    assert "[SECRET:password]" in masker.mask(text).text


@pytest.mark.parametrize("text", [
    "Das Passwort ist falsch.",
    "Le mot de passe est obligatoire.",
    "heroku apps:info shows the app id 0b9e3a52-6c1d-4e7f-8a2b-3c4d5e6f7a8b",
    "the secret_santa_assignments table has 12 rows",
    "see section 4.2 of the Discord developer docs",
])
def test_near_misses_stay(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text


# ---- phone regions -------------------------------------------------------------------------------

def test_national_numbers_are_read_in_the_configured_regions() -> None:
    german = "Tel. 030 12345678"
    assert Masker(PrivacySettings(phone_regions=("DE",))).mask(german).text == "Tel. [PII:phone]"
    assert Masker(PrivacySettings(phone_regions=("US",))).mask(german).text == german
    international = "call +49 30 12345678"
    assert Masker(PrivacySettings(phone_regions=("US",))).mask(international).text == "call [PII:phone]"


def test_phone_regions_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVERIE_PRIVACY__PHONE_REGIONS", "us, de")
    assert Settings().privacy.phone_regions == ("US", "DE")


def test_an_unknown_region_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="unknown regions \\['XX'\\].*ISO 3166"):
        Masker(PrivacySettings(phone_regions=("US", "XX")))


# ---- national identifiers: checksum, and documented samples --------------------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ("SIN 046 454 286", "SIN [PII:ca_sin]"),          # the Government of Canada's sample
    ("NINO QQ 12 34 56 C", "NINO [PII:uk_nino]"),      # HMRC's example
    ("NIR 2 55 08 14 168 025 38", "NIR [PII:fr_nir]"),
    ("IdNr 86095742719", "IdNr [PII:de_tax_id]"),
])
def test_national_identifiers_and_their_samples_are_masked(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


@pytest.mark.parametrize("text", [
    "SIN 146 454 287",         # Luhn fails
    "IdNr 86095742718",        # ISO 7064 check digit fails
    "order 2345 6789 0123",    # Verhoeff fails
    "build 666-12-3456",       # area 666 is never issued
])
def test_wrong_check_digits_stay(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text


# ---- prose -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ("pw: Falcon8510!", "pw: [SECRET:password]"),
    ("use password xK9#mq2LpZ for the jenkins user", "use password [SECRET:password] for the jenkins user"),
    ("the wifi passphrase for the office is \"blue horse\".", "the wifi passphrase for the office is \"[SECRET:password]\"."),
    ("I changed the vpn password to 4iB0ru98foNA yesterday.", "I changed the vpn password to [SECRET:password] yesterday."),
])
def test_secrets_said_in_prose_are_masked(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


@pytest.mark.parametrize("text", [
    "the password is required", "the token is invalid or expired", "pw: see the team vault",
    "the key to the server room is at the front desk", "password reset links expire in 24 hours",
    "Primary key is (note_id, version)", "The token endpoint returned 500",
])
def test_prose_about_secrets_stays(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text
