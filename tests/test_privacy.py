"""Masking (reverie.privacy) against the planted corpus in tests/data/privacy, both halves.

The corpus was committed before the detector; the detector was tuned on ``dev`` only, so the
``heldout`` numbers are the honest ones.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from privacy_corpus import CORPUS_DIR, PII_KINDS, CorpusRow, Half, load_corpus
from reverie.errors import ValidationError
from reverie.privacy import PLACEHOLDER, Finding, Masked, Masker
from reverie.settings import PrivacySettings

HALVES: list[Half] = ["dev", "heldout"]
LABELS = {
    "aws_key", "aws_secret", "github_token", "slack_token", "slack_webhook", "openai_key",
    "stripe_key", "bearer_token", "jwt", "private_key", "password", "url_credentials",
    "email", "phone", "card_number", "iban",
}


@pytest.fixture(scope="module")
def masker() -> Masker:
    return Masker(PrivacySettings())


@pytest.fixture(scope="module", params=HALVES)
def half(request: pytest.FixtureRequest) -> list[tuple[CorpusRow, Masked]]:
    m = Masker(PrivacySettings())
    return [(row, m.mask(row["text"])) for row in load_corpus(request.param)]


def rebuild(original: str, findings: tuple[Finding, ...]) -> str:
    parts, position = [], 0
    for f in findings:
        parts += [original[position:f.start], f"[{f.category}:{f.label}]"]
        position = f.end
    return "".join(parts) + original[position:]


def fragments(canary: str, size: int = 8) -> set[str]:
    return {canary[i:i + size] for i in range(len(canary) - size + 1)}


def label_at(masked: Masked, start: int, end: int) -> str | None:
    """The label of the finding that covers most of ``[start, end)``."""
    overlaps = [(min(end, f.end) - max(start, f.start), f.label)
                for f in masked.findings if f.start < end and f.end > start]
    return max(overlaps)[1] if overlaps else None


# ---- the corpus itself ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", HALVES)
def test_corpus_is_well_formed(name: Half) -> None:
    rows = load_corpus(name)
    planted = [(c, k) for row in rows for c, k in zip(row["canaries"], row["kinds"], strict=True)]
    assert all(c in row["text"] for row in rows for c in row["canaries"])
    assert {k for _, k in planted} >= LABELS
    assert len(planted) >= 50
    assert sum(not row["canaries"] for row in rows) >= 50


def test_the_world_extension_of_the_held_out_half_is_large_enough() -> None:
    """Issue 19: at least 100 positives over 40 providers and kinds, and 100 clean lines."""
    rows = [json.loads(line) for line in (CORPUS_DIR / "heldout_world.jsonl").read_text().splitlines()]
    kinds = [k for row in rows for k in row["kinds"]]
    assert len(kinds) >= 100 and len(set(kinds)) >= 40
    assert sum(not row["canaries"] for row in rows) >= 100
    assert {"google_api_key", "huggingface_token", "twilio_api_key", "password", "phone",
            "ssn"} <= set(kinds)


@pytest.mark.parametrize("name", ["heldout_world2.jsonl", "heldout_world3.jsonl", "heldout_world4.jsonl",
                                  "heldout_world5.jsonl", "heldout_world6.jsonl", "heldout_world7.jsonl",
                                  "heldout_world8.jsonl", "heldout_world9.jsonl",
                                  "heldout_world10.jsonl", "heldout_world11.jsonl", "heldout_world12.jsonl",
                                  "heldout_world13.jsonl", "heldout_world14.jsonl"])
def test_the_blind_later_held_out_extensions_are_large_enough(name: str) -> None:
    """heldout_world2.jsonl to heldout_world14.jsonl, each written without reading the detectors
    and committed before the masker ran on it (each was blind for one run; all are regression data
    now): the same bar as the first. A Twilio credential may be an API key's (``twilio_api_key``) or
    the account's auth token (world12's to world14's ``twilio_auth_token``)."""
    rows = [json.loads(line) for line in (CORPUS_DIR / name).read_text().splitlines()]
    kinds = [k for row in rows for k in row["kinds"]]
    assert len(kinds) >= 100 and len(set(kinds)) >= 40
    assert sum(not row["canaries"] for row in rows) >= 100
    assert {"google_api_key", "huggingface_token", "password", "phone", "ssn",
            "uk_nino", "ca_sin", "fr_nir", "de_tax_id", "aadhaar", "iban", "card_number",
            "email"} <= set(kinds)
    assert {"twilio_api_key", "twilio_auth_token"} & set(kinds)


# ---- recall, precision, labels -------------------------------------------------------------------

def test_no_canary_survives(half: list[tuple[CorpusRow, Masked]]) -> None:
    survivors = [k for row, out in half for c, k in zip(row["canaries"], row["kinds"], strict=True)
                 if c in out.text]
    assert survivors == []


def test_no_fragment_of_a_secret_survives(half: list[tuple[CorpusRow, Masked]]) -> None:
    """No 8-character piece of a secret remains, unless it also occurs outside the canaries (or
    is a placeholder's label: ``rubygems_…`` becomes ``[SECRET:rubygems_key]``)."""
    leaks = []
    for row, out in half:
        kept = PLACEHOLDER.sub("\0", out.text)
        context = row["text"]
        for canary in row["canaries"]:
            context = context.replace(canary, "\0")
        for canary, kind in zip(row["canaries"], row["kinds"], strict=True):
            if kind not in PII_KINDS and any(
                f in kept and f not in context for f in fragments(canary)
            ):
                leaks.append(kind)
    assert leaks == []


def test_placeholder_labels_match_planted_kinds(half: list[tuple[CorpusRow, Masked]]) -> None:
    results = []
    for row, out in half:
        for canary, kind in zip(row["canaries"], row["kinds"], strict=True):
            start = row["text"].find(canary)
            results.append(label_at(out, start, start + len(canary)) == kind)
    assert sum(results) / len(results) >= 0.95


def test_clean_lines_rarely_change(half: list[tuple[CorpusRow, Masked]]) -> None:
    clean = [out for row, out in half if not row["canaries"]]
    changed = [out.text for out in clean if out.changed]
    assert len(changed) / len(clean) <= 0.02, changed


# ---- mechanics -----------------------------------------------------------------------------------

def test_masking_the_corpus_is_idempotent(
    half: list[tuple[CorpusRow, Masked]], masker: Masker
) -> None:
    for _, out in half:
        again = masker.mask(out.text)
        assert again.text == out.text
        assert not again.changed


def test_findings_point_into_the_original(half: list[tuple[CorpusRow, Masked]]) -> None:
    for row, out in half:
        spans = [(f.start, f.end) for f in out.findings]
        assert all(0 <= s < e <= len(row["text"]) for s, e in spans)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))  # sorted and disjoint
        assert rebuild(row["text"], out.findings) == out.text
        assert out.changed == (out.text != row["text"])
        for canary in row["canaries"]:
            start = row["text"].find(canary)
            assert any(s <= start and start + len(canary) <= e for s, e in spans)


def test_offsets_of_a_known_text(masker: Masker) -> None:
    text = "mail jane.doe@acme.io or call +44 20 7946 0958; DB_PASSWORD=Tr0ub4dor&3x"
    out = masker.mask(text)
    assert out.text == "mail [PII:email] or call [PII:phone]; DB_PASSWORD=[SECRET:password]"
    assert [(f.label, text[f.start:f.end]) for f in out.findings] == [
        ("email", "jane.doe@acme.io"), ("phone", "+44 20 7946 0958"), ("password", "Tr0ub4dor&3x"),
    ]
    assert {f.category for f in out.findings} == {"PII", "SECRET"}


def test_overlapping_spans_merge_under_the_most_specific_label(masker: Masker) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    out = masker.mask(f"git clone https://oauth2:{token}@github.com/acme/api.git")
    assert out.text == "git clone https://[SECRET:github_token]@github.com/acme/api.git"
    assert len(out.findings) == 1


def test_placeholders_are_never_masked_again(masker: Masker) -> None:
    for text in ("password: [SECRET:password]", "api_key = '[SECRET:openai_key]'",
                 "Authorization: Bearer [SECRET:bearer_token]", "[PII:email] wrote [PII:phone]",
                 "postgres://[SECRET:url_credentials]@db:5432/app"):
        assert masker.mask(text) == Masked(text, ())


def test_mask_many_is_mask_of_each(masker: Masker) -> None:
    texts = [row["text"] for row in load_corpus("dev")[:20]]
    assert masker.mask_many(texts) == [masker.mask(t) for t in texts]
    assert masker.mask_many([]) == []


def test_non_text_is_refused_without_echo(masker: Masker) -> None:
    secret = b"password=Tr0ub4dor&3x"
    with pytest.raises(ValidationError) as caught:
        masker.mask(secret)  # type: ignore[arg-type]
    assert "Tr0ub4dor" not in str(caught.value) and caught.value.field == "text"


# ---- switches ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", HALVES)
def test_disabled_masker_leaves_every_text_alone(name: Half) -> None:
    off = Masker(PrivacySettings(enabled=False))
    for row in load_corpus(name):
        assert off.mask(row["text"]) == Masked(row["text"], ())


@pytest.mark.parametrize("name", HALVES)
def test_each_part_switches_off_alone(name: Half) -> None:
    no_secrets = Masker(PrivacySettings(secrets=False))
    no_personal = Masker(PrivacySettings(personal_data=False))
    for row in load_corpus(name):
        assert {f.category for f in no_secrets.mask(row["text"]).findings} <= {"PII"}
        assert {f.category for f in no_personal.mask(row["text"]).findings} <= {"SECRET"}
    text = "mail jane.doe@acme.io, password=Tr0ub4dor&3x"
    assert no_secrets.mask(text).text == "mail [PII:email], password=Tr0ub4dor&3x"
    assert no_personal.mask(text).text == "mail jane.doe@acme.io, password=[SECRET:password]"


# ---- properties ----------------------------------------------------------------------------------

PIECES = [
    "password=", "secret: ", "Authorization: Bearer ", "token=\"", "://", "@", "user:", ":pw@",
    "+1 ", "+44 20 ", "(415) ", "555-", "4111 1111 1111 1111", "DE89 3704 0044 0532 0130 00",
    "-----BEGIN RSA PRIVATE KEY-----\n", "\n-----END RSA PRIVATE KEY-----", "AKIA", "ghp_",
    "sk-proj-", "xoxb-", "eyJ", ".", "\n", " ", "\"", "'", "[SECRET:password]", "[PII:email]",
    "[SECRET:", "]", "jane.doe@acme.io", "Tr0ub4dor&3x", "0123456789", "abcdefABCDEF", "\\n",
]
mixed_text = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=24
).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=300), mixed_text))
def test_masking_never_raises_and_is_idempotent(masker: Masker, text: str) -> None:
    out = masker.mask(text)
    assert masker.mask(out.text).text == out.text
    assert rebuild(text, out.findings) == out.text
    assert all(0 <= f.start < f.end <= len(text) for f in out.findings)


@pytest.mark.parametrize("text", [
    "password = os.environ[\"DB_PASSWORD\"]", "secret_key = settings.SECRET_KEY",
    "SECRET_KEY = secrets.token_hex(16)", "token = get_token(scope=\"read\")",
    "password: str = Field(min_length=12)", "api_key: ${OPENAI_API_KEY}", "Password: ********",
    "max_tokens: 1024", "PWD=/home/dev/projects/reverie", "docker run -u 1000:1000 app",
    "postgres://user:password@localhost:5432/db", "Authorization: Bearer <token>",
    "git clone git@github.com:acme/api.git", "npm install @types/node@20.11.5",
    "UTC+02:00, +0530", "Order 4716 2937 4839 2234 confirmed", "2024-03-15T10:22:31.482Z",
])
def test_references_placeholders_and_lookalikes_stay(masker: Masker, text: str) -> None:
    assert masker.mask(text).text == text


@pytest.mark.parametrize(("text", "masked"), [
    ("password=Tr0ub4dor&3x", "password=[SECRET:password]"),
    ("jdbc:pg://h/db?user=a&password=Xyz123abc&ssl=true",
     "jdbc:pg://h/db?user=a&password=[SECRET:password]&ssl=true"),
    ("Server=db;Password=abc12345;Encrypt=True",
     "Server=db;Password=[SECRET:password];Encrypt=True"),
    ("connect(password=Secret123)", "connect(password=[SECRET:password])"),
    ("curl -u admin:S3cretPass http://x", "curl -u [SECRET:password] http://x"),
    ("mysql -u root -pS3cretPass1 shop", "mysql -u root -p[SECRET:password] shop"),
    ("call 1-800-555-0199 now", "call [PII:phone] now"),
    ("{\"email\":\"o'brien@example.ie\"}", "{\"email\":\"[PII:email]\"}"),
    ("key = \"-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7bq\\n (truncated)",
     "key = \"[SECRET:private_key]\\n (truncated)"),
])
def test_general_forms_are_masked(masker: Masker, text: str, masked: str) -> None:
    assert masker.mask(text).text == masked
