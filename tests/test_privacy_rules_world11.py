"""The classes the eleventh held-out extension's blind run (heldout_world11.jsonl) missed or changed,
one test per class, each with values made for the test (not the corpus's)."""

from __future__ import annotations

import pytest

from reverie.privacy import Masker
from reverie.privacy.national import dk_cpr_valid, tw_national_id_valid
from reverie.settings import PrivacySettings


@pytest.fixture(scope="module")
def masker() -> Masker:
    return Masker(PrivacySettings())


# ---- a field named only as a national, government or tax identifier -----------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ('INFO kyc.submit name="A B" national_id=90010119575\n',                     # a log line's key=value
     'INFO kyc.submit name="A B" national_id=[PII:pl_pesel]\n'),
    ('{"name": "A B", "nationalId": "90010119575"}', '{"name": "A B", "nationalId": "[PII:pl_pesel]"}'),
    ('{"govId": "47824504000"}', '{"govId": "[PII:br_cpf]"}'),                   # an unpunctuated CPF
    ('var c = new Customer { nationalId = "16204685158" };',                     # an initializer
     'var c = new Customer { nationalId = "[PII:tr_tckn]" };'),
    ("  Name             A B\n  National Id      90010119575\n",                # a form's row
     "  Name             A B\n  National Id      [PII:pl_pesel]\n"),
    ("id|name|national_id|city\n1|A B|A143231948|Taipei\n",                      # a table's column
     "id|name|national_id|city\n1|A B|[PII:tw_national_id]|Taipei\n"),
    ('phone=+4520304050 national_id=011151-6391',                                # not a phone after an id's name
     'phone=[PII:phone] national_id=[PII:dk_cpr]'),
])
def test_a_field_named_as_a_national_id_takes_the_first_identifier_that_passes(
        masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


@pytest.mark.parametrize("text", [
    "national_id=90010119576",          # no identifier's check passes
    "order_id=90010119575",             # not named as a national identifier
    'tax_id_type = "EU_VAT"',
])
def test_a_field_named_as_a_national_id_without_a_valid_number_stays(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text


# ---- identifiers new in world11, and more words for known ones ------------------------------------

@pytest.mark.parametrize(("text", "masked"), [
    ("身分證字號 A143231948", "身分證字號 [PII:tw_national_id]"),
    ("Thai ID: 1-6252-76018-95-5", "Thai ID: [PII:th_national_id]"),
    ("EMŠO: 0101990509078", "EMŠO: [PII:si_emso]"),
    ("Asmens kodas: 39001011215", "Asmens kodas: [PII:lt_asmens_kodas]"),
    ('sozialversicherungsnummer: "8885 010180"', 'sozialversicherungsnummer: "[PII:at_svnr]"'),
    ('"T.C. No": "16204685158"', '"T.C. No": "[PII:tr_tckn]"'),
    ('"tax_file_number": "698 321 818"', '"tax_file_number": "[PII:au_tfn]"'),
    ("मेरा आधार नंबर 812806192057 है।", "मेरा आधार नंबर [PII:aadhaar] है।"),
    ("Please FICA with ID 9001015000085", "Please FICA with ID [PII:za_id]"),      # South Africa's KYC
    ("DETAIL:  Failing row contains (12, A B, 90010119575, Kraków, null).",        # PostgreSQL's row
     "DETAIL:  Failing row contains (12, A B, [PII:pl_pesel], Kraków, null)."),
])
def test_identifiers_of_the_eleventh_extension_are_masked(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked


def test_identifier_checks() -> None:
    assert tw_national_id_valid("A143231948") and tw_national_id_valid("F275749118")
    assert not tw_national_id_valid("A143231949") and not tw_national_id_valid("A343231948")
    assert dk_cpr_valid("011151-6391")                          # 2051 by the century table: any century
    assert not dk_cpr_valid("321151-6391")                      # no 32nd


@pytest.mark.parametrize("text", [
    "Thai ID: 1-6252-76018-95-4",                               # a wrong check digit
    "Asmens kodas: 39001011216",
    "EMŠO: 0101990509079",
])
def test_new_identifiers_with_a_wrong_check_stay(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text


# ---- provider formats ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "label"), [
    ("POSTHOG_PERSONAL_API_KEY=phx_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f", "posthog_personal_key"),
    ("NEON_API_KEY=napi_" + "a1b2c3d4e5" * 6 + "f6g7", "neon_api_key"),
    ("access_key: SCW1A2B3C4D5E6F7G8H9", "scaleway_key"),
    ('AIO_KEY="aio_' + "Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9B" + '"', "adafruit_api_key"),
    ("it was pasted here: xsmtpsib-" + "0a1b2c3d" * 8 + "-Ab3De5Gh7Jk9Mn1P", "brevo_key"),
    ('os.environ["SONAR_TOKEN"] = "sqp_' + "0a1b2c3d4e" * 4 + '"', "sonar_token"),
    ("define('CF_API_KEY', '" + "0a1b2c3d4" * 4 + "e');", "cloudflare_key"),      # a call's two arguments
    ('os.Setenv("WANDB_API_KEY", "' + "0a1b2c3d4e" * 4 + '")', "wandb_key"),
    ('cf_api_token: "' + "Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9Bc1Df3Gh5Jk7M" + '"', "cloudflare_token"),
    ("DD_API_KEY ?= " + "0a1b2c3d4e5f6a7b" * 2, "datadog_key"),
    ('- name: CO_API_KEY\n  value: "' + "Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9Bc1Df3Gh5Jk7M" + '"', "cohere_key"),
    ('os.environ["SYSTEM_ACCESSTOKEN"] = "' + "abcdefgh234567" * 3 + "abcdefghij" + '"', "azure_devops_token"),
])
def test_provider_formats_of_the_eleventh_extension(masker: Masker, text: str, label: str) -> None:
    assert [f.label for f in masker.mask(text).findings] == [label]


# ---- passwords handed to commands and APIs ---------------------------------------------------------

@pytest.mark.parametrize(("text", "password"), [
    ("$ zip -r -P 'Pine-Harbor42!' out.zip exports/", "Pine-Harbor42!"),   # Info-ZIP
    ("% unzip -P Qw7rTz9xVb payroll.zip", "Qw7rTz9xVb"),
    ("% net use Z: \\\\files\\share Maple88% /user:CORP\\ops", "Maple88%"),  # after the share
    ("mongodump --uri=mongodb://db:27017 -u etl -p 'Tide4Sail#' --out /b", "Tide4Sail#"),
    ("rootpw --plaintext Cobalt_Fern29?\nuser --name=ops", "Cobalt_Fern29?"),  # Kickstart
    ('auth := smtp.PlainAuth("", "a@example.org", "Fjord#5521", "smtp.example.org")', "Fjord#5521"),
    ('DriverManager.getConnection(\n    "jdbc:postgresql://db/app", "svc", "river-lamp-cedar-07");',
     "river-lamp-cedar-07"),
    ('  VNC_PW: "amber-cliff-otter-31"', "amber-cliff-otter-31"),          # "PW" as a word of the name
    ("> הסיסמה היא Lumen_4410", "Lumen_4410"),                             # Hebrew copula
    ("пароль от сервера cedar-plume-otter-52, логин root", "cedar-plume-otter-52"),  # no Russian copula
    ("can you rotate this? it was pasted in #ops: Zx8Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2", "Zx8Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2"),
    ("INSERT INTO creds (provider, secret, created_at)\nVALUES ('acme', '9f8e7d6c5b4a39281706f5e4d3c2b1a0', now());",
     "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),                                  # an SQL column named secret
])
def test_passwords_handed_to_commands_and_apis_are_masked(masker: Masker, text: str, password: str) -> None:
    assert password not in masker.mask(text).text


@pytest.mark.parametrize("text", [
    "unzip -p archive.zip notes.txt | less",          # unzip's -p pipes, it takes no password
    "net use Z: \\\\files\\share /user:CORP\\ops",   # no password: Windows prompts
    "rootpw --iscrypted --lock",
    "INSERT INTO t (name, secret) VALUES ('a', '<redacted>');",
    "пароль от сервера потерян",                       # "the server's password is lost"
    "please rotate the logs after 3f2a9c0d1e2b4a5c6d7e8f9a0b1c2d3e4f5a6b7c",  # a commit hash: one case
    "DETAIL:  Failing row contains (12, A B, 90010119576, Kraków, null).",  # no check passes
])
def test_commands_without_a_password_stay(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text


# ---- clean text the blind run changed ------------------------------------------------------------

@pytest.mark.parametrize("text", [
    # a request's and a trace's ids after a service named "api"
    "2025-01-01T00:00:00Z INFO  api request_id=1b4e28ba-2fa1-41d2-883f-0016d3cca427 trace_id=4bf92f3577b34da6a3ce929d0e0e4736",
    # AWS's twelve-digit account id in get-caller-identity and in an ARN
    '{\n    "Account": "012345678901",\n    "Arn": "arn:aws:sts::012345678901:assumed-role/ci/ci"\n}',
    # gh auth status: a token's scopes
    "  - Token: ghp_************************************\n  - Token scopes: 'repo', 'workflow'",
    # business record numbers
    "Customer no. 01234567\nPO 0301234567\nBatch 03012345678 / lot 203033",
])
def test_clean_text_of_the_eleventh_extension_stays(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text


def test_a_phone_after_a_record_word_with_its_country_code_is_still_masked(masker: Masker) -> None:
    assert masker.mask("Customer no. +49 30 1234567").text == "Customer no. [PII:phone]"


@pytest.mark.parametrize(("text", "secret"), [
    ("request_id=7f3a password: Hunter2x9q", "Hunter2x9q"),
    ("trace_id=ab12 token=Zx8Qw3Er5Ty7Ui9Op1As3Df5", "Zx8Qw3Er5Ty7Ui9Op1As3Df5"),
    ("INFO api request_id=1 api_key=Zx8Qw3Er5Ty7Ui9Op1As3Df5Gh", "Zx8Qw3Er5Ty7Ui9Op1As3Df5Gh"),
])
def test_a_request_id_before_a_secret_does_not_hide_it(masker: Masker, text: str, secret: str) -> None:
    assert secret not in masker.mask(text).text
