"""Write the eighth, blind held-out extension of the privacy corpus (heldout_world8.jsonl).

Blindness: the session that wrote this file read neither the detectors (``reverie/privacy/``), the
benchmarks (``bench/`` and ``BENCHMARKS.md``), the privacy tests nor the issue tracker, and never ran
the masker or any other project code. It read only the row format, a few rows and the label set of the
existing ``*.jsonl`` files, and ``make_world7_corpus.py`` / ``make_world6_corpus.py``, whose value
generators (check digits, token shapes) it copies here under a new seed; names, domains, words and
every template are new. The file was committed before anything was masked with it. (The generators
it shared with them now live in ``values.py``, unchanged.)

Row format (unchanged): ``{"text": str, "canaries": [str, ...], "kinds": [str, ...]}``; every canary
is an exact substring of ``text``; clean rows have empty lists.

Intent: a *traffic-weighted* sample, as world6 and world7
---------------------------------------------------------
Weighted like what an LLM coding/ops agent fleet captures: mostly common credentials (AWS, GitHub /
GitLab, OpenAI / Anthropic / Gemini, Slack, Stripe, database URLs and config passwords, JWTs, PEM keys,
passwords said in chat in ~33 languages) and common personal data (e-mail, phone numbers of 52
countries as people write them, card numbers, IBANs of 18 countries, US SSN and about 30 other
national ids), with a long tail of ~60 further token kinds. The contexts are new: ``.netrc``,
``.pgpass``, ``git credential fill``, ``~/.docker/config.json``, ``credentials.tfrc.json``,
``.databrickscfg``, ``.sentryclirc``, ``~/.cargo/credentials.toml``, Maven ``settings.xml``,
``gradle.properties``, ``pip.conf``, composer ``auth.json``, Postfix ``sasl_passwd``, msmtp,
``wpa_supplicant``, systemd units, Terraform (providers, resources, tfvars, outputs), Kubernetes
manifests and ``kubeadm`` output, Helm values, Ansible inventories, Jenkins / GitHub Actions /
GitLab CI logs, cloud CLI output (``aws iam create-access-key``, ``az ad sp create-for-rbac``,
``gcloud auth print-access-token``, ``doctl``), HTTP/2 and HAR dumps, mitmproxy flows, logfmt and
JSON logs, stack traces (Python, Java, PHP), SQL (DDL, ``COPY``, queries), Jupyter ``%env`` and
``!`` cells, commit messages and trailers, code review comments, Jira tickets, vCards, LDIF,
WhatsApp exports and chat in many languages. The clean quarter is near misses from the same text.

Labels
------
Every label is one of the earlier files' except three, named in the same style:

* ``kubeadm_token`` -- Kubernetes bootstrap token ("Authenticating with Bootstrap Tokens", kubeadm
  docs): ``[a-z0-9]{6}.[a-z0-9]{16}``, a public token id and a secret; the canary is the whole token,
  or the 16-character ``token-secret`` of a ``bootstrap-token-<id>`` Secret. The documented example
  ``abcdef.0123456789abcdef`` was written as a clean row (an obvious fixture) and is relabelled a
  positive in build() (``RELABELLED``: a documented sample is masked like any key); the CA cert hash
  stays clean.
* ``sg_nric`` -- Singapore NRIC / FIN (Immigration & Checkpoints Authority): prefix S (born before
  2000) or T (from 2000) for citizens and PRs, F / G for foreigners, 7 digits, a check letter: weights
  2,7,6,5,4,3,2, plus 4 for T / G, sum mod 11 indexing ``JZIHGFEDCBA`` (S/T) or ``XWUTRQPNMLK``
  (F/G), as the algorithm is commonly documented.
* ``ie_ppsn`` -- Irish Personal Public Service Number (Department of Social Protection): 7 digits, a
  check letter and, on numbers issued since 2013, a second letter (``A``); check = (weights 8..2 over
  the digits + 9 x value of the second letter, W = 0, A = 1 ...) mod 23 indexing ``WABCDEFGHIJKLMNOPQRSTUV``.

Where each format comes from (the issuer's documentation, as the author knows it)
------------------------------------------------------------------------------------
Secrets (as in world7): ``openai_key`` (``sk-proj-``/``sk-svcacct-`` with ``T3BlbkFJ``, legacy
``sk-`` 48), ``anthropic_key`` (``sk-ant-api03-`` + 93 + ``AA``), ``google_api_key`` (``AIza`` + 35),
``google_oauth_token`` (``ya29.`` access tokens), ``google_oauth_secret`` (``GOCSPX-`` + 28),
``huggingface_token`` (``hf_`` + 34), ``aws_key`` / ``aws_secret`` (``AKIA``/``ASIA`` + 16 base32; 40
base64), ``azure_client_secret`` (``Q~`` at 4-5), ``azure_storage_key`` (88 base64 in a connection
string), ``azure_sas_token`` (the ``sig=`` of a service SAS URL, percent-encoded), ``azure_devops_token``
(52 lowercase base32, or 84 with ``AZDO`` at 76-79), ``digitalocean_token`` (``dop_v1_`` + 64 hex),
``github_token`` (``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_`` + 36, ``github_pat_11``), ``gitlab_token``
(``glpat-``, ``gldt-``, ``glrt-``, ``glptt-``), ``bitbucket_token`` (``ATBB`` app passwords),
``slack_token`` (``xoxb-``/``xoxp-``/``xapp-1-``), ``slack_webhook``, ``discord_webhook``,
``discord_token`` (base64 user id . 6 . 38), ``teams_webhook`` (the 32-hex segment of an
``IncomingWebhook`` URL), ``telegram_token``, ``stripe_key`` (``sk_live_``/``rk_live_``, ``whsec_``),
``sendgrid_key``, ``twilio_api_key`` (``SK`` + 32 hex; its secret is labelled ``password`` as earlier
files do), ``mailgun_key`` (``key-`` + 32 hex), ``brevo_key`` (``xkeysib-``), ``resend_key`` (``re_``),
``square_token`` (``EAAA``), ``shopify_token`` (``shpat_``/``shpca_``/``shppa_``/``shpss_`` + 32 hex),
``paystack_key`` (``sk_live_`` + 40 hex), ``razorpay_key`` (``rzp_live_`` + 14 and its 24-char secret),
``mollie_key`` (``live_`` + 30), ``flutterwave_key`` (``FLWSECK-`` + 32 hex + ``-X``), ``plaid_token``
(``access-production-`` + UUID), ``datadog_key`` (32 hex), ``new_relic_key`` (``NRAK-`` + 27),
``grafana_token`` (``glsa_`` + 32 + ``_`` + 8 hex), ``sentry_token`` (``sntryu_`` + 64 hex),
``npm_token``, ``pypi_token``, ``nuget_key`` (``oy2`` + 43), ``rubygems_key`` (``rubygems_`` + 48 hex),
``cratesio_token`` (``cio`` + 32), ``dockerhub_token`` (``dckr_pat_``), ``jfrog_token`` (``AKCp`` API
keys), ``vault_token`` (``hvs.``), ``terraform_token`` (``<14>.atlasv1.<67>``), ``pulumi_token``
(``pul-`` + 40 hex), ``doppler_token`` (``dp.st.<config>.`` / ``dp.pt.``), ``tailscale_key``
(``tskey-auth-<id>CNTRL-<secret>``), ``age_secret_key`` (``AGE-SECRET-KEY-1`` + 58 bech32),
``cloudflare_token`` (40-char API tokens) and ``cloudflare_key`` (37-hex global keys),
``netlify_token`` (``nfp_``), ``flyio_token`` (``fo1_``), ``supabase_token`` (``sbp_`` + 40 hex),
``planetscale_token`` (``pscale_tkn_``/``pscale_pw_``), ``atlassian_token`` (``ATATT3xFfGF0`` ... ``=`` +
8 hex), ``linear_key`` (``lin_api_`` + 40), ``notion_token`` (``secret_`` + 43), ``postman_key``
(``PMAK-`` 24 hex ``-`` 34 hex), ``databricks_token`` (``dapi`` + 32 hex), ``sonar_token``
(``squ_``/``sqp_`` + 40 hex), ``buildkite_token`` (``bkua_`` + 40 hex), ``circleci_token`` (``CCIPAT_``),
``figma_token`` (``figd_``), ``airtable_token`` (``pat<14>.<64 hex>``), ``hubspot_token``
(``pat-<region>-<uuid>``), ``okta_token`` (``00`` + 40 SSWS tokens), ``mapbox_token`` (``sk.`` +
base64url JSON + ``.`` + 22), ``ngrok_token``, ``dropbox_token`` (``sl.``), ``fcm_server_key``
(``AAAA...:APA91b...``), ``alibaba_key`` (``LTAI``), ``tencent_key`` (``AKID`` + 32), LLM providers
``groq_key`` (``gsk_`` + 52), ``openrouter_key`` (``sk-or-v1-`` + 64 hex), ``xai_key`` (``xai-`` + 80),
``perplexity_key`` (``pplx-`` + 48), ``mistral_key`` (32), ``deepseek_key`` (``sk-`` + 32 hex),
``replicate_token`` (``r8_`` + 37), ``cohere_key`` (40), ``elevenlabs_key`` (``sk_`` + 48 hex),
``langsmith_key`` (``lsv2_pt_``/``lsv2_sk_``), ``langfuse_key`` (``sk-lf-`` + UUID), ``pinecone_key``
(``pcsk_``), ``wandb_key`` (40 hex); ``django_secret_key``, ``jwt`` (RFC 7519, incl. Kubernetes
service-account and Supabase service-role tokens), ``private_key`` (RFC 7468 PEM and OpenSSH; the canary
is the first body line), ``url_credentials`` (RFC 3986 userinfo, also Go MySQL DSNs; the canary is the
password), ``password``, ``bearer_token`` (RFC 6750 opaque), ``basic_auth`` (RFC 7617 base64).
Personal data: ``email`` (RFC 5322), ``phone`` (E.164 national numbering plans of 52 countries, mobile
and geographic ranges as the regulators publish them), ``card_number`` (ISO/IEC 7812, Luhn), ``iban``
(ISO 13616, SWIFT registry BBAN layouts incl. AE GR LU RO SA TR, mod-97), ``ssn``, ``uk_nino``,
``ca_sin``, ``fr_nir``, ``de_tax_id``, ``aadhaar``, ``in_pan``, ``es_dni``, ``es_nie``, ``nl_bsn``,
``br_cpf``, ``pl_pesel``, ``cn_ric``, ``se_personnummer``, ``kr_rrn``, ``jp_my_number`` as world7;
and ``it_codice_fiscale`` (Agenzia delle Entrate: surname/name letters, YY, month letter, day (+40
women), Belfiore code, odd/even-table check letter), ``mx_curp`` (RENAPO: 4 name letters, YYMMDD, H/M,
state, 3 consonants, homoclave, check digit over the 37-symbol alphabet), ``dk_cpr`` (CPR-kontoret:
DDMMYY-SSSS), ``fi_hetu`` (DVV: DDMMYY, century sign, ZZZ, mod-31 check character), ``no_fnr``
(Skatteetaten: DDMMYY III K1 K2, mod-11), ``za_id`` (DHA: YYMMDD SSSS C A Z, Luhn), ``ch_ahv`` (ZAS:
756.XXXX.XXXX.XC, EAN-13 check), ``au_tfn`` (ATO: 9 digits, weights 1,4,3,7,5,8,6,9,10, mod 11),
``be_nrn`` (Rijksregister: YY.MM.DD-SSS.CC, 97 - mod 97, ``2`` prefixed from 2000), ``pt_nif`` (AT:
9 digits, mod 11), ``cl_rut`` (SII: mod 11, ``K``), ``ro_cnp`` (S YYMMDD JJ NNN C, weights
279146358279).

Clean rows are near misses: commit SHAs, ``go.sum`` / SRI / npm ``integrity`` hashes (base64 that looks
like a key), UUIDs and request ids (``chatcmpl-``, ``msg_``, ``req_``, ``pi_``, ``cus_``, Twilio ``AC``
SIDs, Slack channel ids), ARNs and account ids, public keys (``ssh-ed25519``, ``age1``, JWKS moduli),
``eyJ`` pagination cursors, version and build numbers, order / tracking / invoice numbers, dates,
placeholders (``<YOUR_API_KEY>``, ``${{ secrets.X }}``, ``op://`` references, ``{{ .Values.x }}``),
redactions (``****``, ``sk-...abcd``), documented fixtures (AWS ``...EXAMPLE`` keys, the kubeadm example
token), test card numbers described in words, ``example.com`` / ``.test`` addresses, ``ssh user@host``,
and prose about password policies, token budgets and key rotation in several languages.

Values come from one seeded ``random.Random``; none is a real credential or person. The generator uses
only the standard library. ``--check`` validates every planted personal value with the check-digit
functions below and in ``values.py``, validates the earlier files' values of the same labels with those functions too (so
the functions are tested against data someone else generated), checks that no clean row holds a
Luhn-valid card-like run, and that no text or canary repeats an earlier corpus file.

Run from the repository root: ``python3 tests/data/privacy/make_world8_corpus.py [--check] [--out DIR]``.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

from values import (
    ALNUM,
    B64URL,
    BECH32,
    DG,
    DNI_LETTERS,
    HEX,
    LO,
    UP,
    b64s,
    b64u,
    dg,
    ean13_digit,
    es_ccc,
    fr_rib_key,
    group,
    iban_of,
    luhn_digit,
    mod11_10,
    nz,
    part,
    pem,
    pick,
    s_age,
    s_anthropic,
    s_aws_id,
    s_aws_secret,
    s_azure_cs,
    s_cf_global,
    s_cf_token,
    s_circleci,
    s_cohere,
    s_cratesio,
    s_databricks,
    s_datadog,
    s_dckr,
    s_discord_bot,
    s_discord_hook,
    s_django,
    s_do,
    s_elevenlabs,
    s_fcm,
    s_flw,
    s_gapi,
    s_ghpat,
    s_glpat,
    s_glrt,
    s_glsa,
    s_gocspx,
    s_groq,
    s_hf,
    s_hubspot,
    s_langfuse,
    s_langsmith,
    s_linear,
    s_mistral,
    s_npm,
    s_nrak,
    s_nuget,
    s_okta,
    s_openai,
    s_openai_legacy,
    s_openrouter,
    s_plaid,
    s_postman,
    s_pplx,
    s_pulumi,
    s_pypi,
    s_replicate,
    s_resend,
    s_sendgrid,
    s_sentry,
    s_slack_hook,
    s_slack_hook_full,
    s_stripe,
    s_stripe_rk,
    s_supabase,
    s_tailscale,
    s_telegram,
    s_tencent,
    s_tfc,
    s_twilio,
    s_vault,
    s_wandb,
    s_whsec,
    s_xai,
    s_xapp,
    s_xoxb,
    s_xoxp,
    s_ya29,
    uid,
    verhoeff_digit,
    whole,
    write_jsonl,
)

SEED = 80828
HERE = Path(__file__).parent
OUT_PATH = HERE / "heldout_world8.jsonl"

# (label, value as written, region) -- personal values for --check
AUDIT: list[tuple[str, str, str]] = []


def pct(s: str) -> str:
    return s.replace("%", "%25").replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def audit(label: str, value: str, region: str = "") -> str:
    AUDIT.append((label, value, region))
    return value


# ================================================================================================
# check digits (each also serves as the validator in --check)
# ================================================================================================

def luhn_ok(number: str) -> bool:
    return len(number) > 1 and number.isdigit() and luhn_digit(number[:-1]) == number[-1]


IBAN_LEN = {"DE": 22, "GB": 22, "FR": 27, "ES": 24, "NL": 18, "IT": 27, "BE": 16, "AT": 20, "CH": 21, "IE": 22,
            "PL": 28, "PT": 25, "AE": 23, "GR": 27, "LU": 20, "RO": 24, "SA": 24, "TR": 26}


def iban_ok(v: str) -> bool:
    s = v.replace(" ", "")
    if IBAN_LEN.get(s[:2], len(s)) != len(s) or not 15 <= len(s) <= 34 or not s[2:4].isdigit():
        return False
    return int("".join(str(int(ch, 36)) for ch in s[4:] + s[:4])) % 97 == 1


def nir_key(body: str) -> str:
    return f"{97 - int(body) % 97:02d}"


def cpf_digits(nine: str) -> str:
    d = [int(c) for c in nine]
    for n in (10, 11):
        s = sum(x * w for x, w in zip(d, range(n, 1, -1), strict=False)) % 11
        d.append(0 if s < 2 else 11 - s)
    return "".join(map(str, d[9:]))


def pesel_digit(ten: str) -> str:
    return str(-sum(int(c) * w for c, w in zip(ten, [1, 3, 7, 9] * 3, strict=False)) % 10)


def bsn_ok(nine: str) -> bool:
    return sum(int(c) * w for c, w in zip(nine, [9, 8, 7, 6, 5, 4, 3, 2, -1], strict=True)) % 11 == 0


def cn_ric_char(body17: str) -> str:
    s = sum(int(c) * (2 ** (17 - i) % 11) for i, c in enumerate(body17)) % 11
    return "10X98765432"[s]


def rrn_digit(twelve: str) -> str:
    w = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    return str((11 - sum(a * int(c) for a, c in zip(w, twelve, strict=True)) % 11) % 10)


def mynumber_digit(eleven: str) -> str:
    s = sum(w * int(c) for w, c in zip((6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2), eleven, strict=True))
    return str(-s % 11 % 10)


_CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   [1, 0, 5, 7, 9, 13, 15, 17, 19, 21] + [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3,
                                                          6, 8, 12, 14, 16, 10, 22, 25, 24, 23], strict=True))


def cf_char(fifteen: str) -> str:
    s = 0
    for i, ch in enumerate(fifteen):
        if i % 2 == 0:
            s += _CF_ODD[ch]
        else:
            s += int(ch) if ch.isdigit() else ord(ch) - 65
    return chr(65 + s % 26)


_CURP_ALPHA = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp_digit(seventeen: str) -> str:
    s = sum(_CURP_ALPHA.index(ch) * (18 - i) for i, ch in enumerate(seventeen))
    return str((10 - s % 10) % 10)


def hetu_char(ddmmyy_zzz: str) -> str:
    return "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(ddmmyy_zzz) % 31]


def fnr_digits(nine: str) -> str | None:
    out = nine
    for w in ((3, 7, 6, 1, 8, 9, 4, 5, 2), (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)):
        k = 11 - sum(a * int(c) for a, c in zip(w, out, strict=True)) % 11
        if k == 10:
            return None
        out += str(0 if k == 11 else k)
    return out[9:]


def tfn_ok(nine: str) -> bool:
    return sum(int(c) * w for c, w in zip(nine, (1, 4, 3, 7, 5, 8, 6, 9, 10), strict=True)) % 11 == 0


def nrn_key(nine: str, born_2000: bool) -> str:
    return f"{97 - int(('2' if born_2000 else '') + nine) % 97:02d}"


def nif_digit(eight: str) -> str:
    c = 11 - sum(int(d) * (9 - i) for i, d in enumerate(eight)) % 11
    return "0" if c >= 10 else str(c)


def rut_char(body: str) -> str:
    s = sum(int(c) * (2 + i % 6) for i, c in enumerate(reversed(body)))
    return {11: "0", 10: "K"}.get(11 - s % 11, str(11 - s % 11))


def cnp_digit(twelve: str) -> str:
    s = sum(int(c) * int(w) for c, w in zip(twelve, "279146358279", strict=True)) % 11
    return "1" if s == 10 else str(s)


def nric_char(prefix: str, seven: str) -> str:
    s = sum(int(c) * w for c, w in zip(seven, (2, 7, 6, 5, 4, 3, 2), strict=True)) + (4 if prefix in "TG" else 0)
    return ("JZIHGFEDCBA" if prefix in "ST" else "XWUTRQPNMLK")[s % 11]


_PPS = "WABCDEFGHIJKLMNOPQRSTUV"


def ppsn_char(seven: str, second: str) -> str:
    s = sum((8 - i) * int(c) for i, c in enumerate(seven)) + 9 * _PPS.index(second or "W")
    return _PPS[s % 23]


def _compact(v: str) -> str:
    return re.sub(r"[\s.\-/]", "", v).upper()


def valid(label: str, value: str) -> bool:
    """Check digits / layout of a personal value as written (separators allowed)."""
    v = _compact(value)
    if label == "card_number":
        return 13 <= len(v) <= 19 and luhn_ok(v)
    if label == "iban":
        return iban_ok(v)
    if label == "ssn":
        return bool(re.fullmatch(r"(?!000|666|9)\d{3}(?!00)\d{2}(?!0000)\d{4}", v))
    if label == "uk_nino":
        return bool(re.fullmatch(r"(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", v))
    if label == "ca_sin":
        return len(v) == 9 and luhn_ok(v)
    if label == "fr_nir":  # Corsica: departments 2A / 2B count as 19 / 18 for the key
        body = v[:5] + v[5:7].replace("2A", "19").replace("2B", "18") + v[7:13]
        return len(v) == 15 and body.isdigit() and v[13:].isdigit() and nir_key(body) == v[13:]
    if label == "de_tax_id":
        counts = sorted((v[:10].count(d) for d in set(v[:10])), reverse=True)
        return len(v) == 11 and v.isdigit() and v[0] != "0" and counts[0] in (2, 3) and mod11_10(v[:10]) == v[10]
    if label == "aadhaar":
        return len(v) == 12 and v.isdigit() and v[0] not in "01" and verhoeff_digit(v[:11]) == v[11]
    if label == "in_pan":
        return bool(re.fullmatch(r"[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]", v))
    if label == "es_dni":
        return bool(re.fullmatch(r"\d{8}[A-Z]", v)) and DNI_LETTERS[int(v[:8]) % 23] == v[8]
    if label == "es_nie":
        return bool(re.fullmatch(r"[XYZ]\d{7}[A-Z]", v)) and DNI_LETTERS[int(str("XYZ".index(v[0])) + v[1:8]) % 23] == v[8]
    if label == "nl_bsn":
        return len(v) == 9 and v.isdigit() and bsn_ok(v)
    if label == "br_cpf":
        return len(v) == 11 and v.isdigit() and cpf_digits(v[:9]) == v[9:]
    if label == "pl_pesel":
        return len(v) == 11 and v.isdigit() and pesel_digit(v[:10]) == v[10]
    if label == "cn_ric":
        return bool(re.fullmatch(r"\d{17}[\dX]", v)) and cn_ric_char(v[:17]) == v[17]
    if label == "se_personnummer":
        v = v[-10:]
        return len(v) == 10 and v.isdigit() and luhn_ok(v)
    if label == "kr_rrn":
        return len(v) == 13 and v.isdigit() and rrn_digit(v[:12]) == v[12]
    if label == "jp_my_number":
        return len(v) == 12 and v.isdigit() and mynumber_digit(v[:11]) == v[11]
    if label == "it_codice_fiscale":
        return bool(re.fullmatch(r"[A-Z]{6}\d\d[A-EHLMPRST]\d\d[A-Z]\d{3}[A-Z]", v)) and cf_char(v[:15]) == v[15]
    if label == "mx_curp":
        return bool(re.fullmatch(r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", v)) and curp_digit(v[:17]) == v[17]
    if label == "dk_cpr":
        return len(v) == 10 and v.isdigit() and 1 <= int(v[:2]) <= 31 and 1 <= int(v[2:4]) <= 12
    if label == "fi_hetu":
        return bool(re.fullmatch(r"\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]", value.strip())) and \
            hetu_char(value.strip()[:6] + value.strip()[7:10]) == value.strip()[10]
    if label == "no_fnr":
        return len(v) == 11 and v.isdigit() and fnr_digits(v[:9]) == v[9:]
    if label == "za_id":
        return len(v) == 13 and luhn_ok(v)
    if label == "ch_ahv":
        return len(v) == 13 and v.startswith("756") and ean13_digit(v[:12]) == v[12]
    if label == "au_tfn":
        return len(v) == 9 and v.isdigit() and tfn_ok(v)
    if label == "be_nrn":
        return len(v) == 11 and v.isdigit() and v[9:] in (nrn_key(v[:9], False), nrn_key(v[:9], True))
    if label == "pt_nif":
        return len(v) == 9 and v.isdigit() and nif_digit(v[:8]) == v[8]
    if label == "cl_rut":
        return bool(re.fullmatch(r"\d{7,8}[\dK]", v)) and rut_char(v[:-1]) == v[-1]
    if label == "ro_cnp":
        return len(v) == 13 and v.isdigit() and cnp_digit(v[:12]) == v[12]
    if label == "sg_nric":
        return bool(re.fullmatch(r"[STFG]\d{7}[A-Z]", v)) and nric_char(v[0], v[1:8]) == v[8]
    if label == "ie_ppsn":
        return bool(re.fullmatch(r"\d{7}[A-W][AHW]?", v)) and ppsn_char(v[:7], v[8:]) == v[7]
    if label == "email":
        return bool(re.fullmatch(r"[a-z0-9._+-]+@[a-z0-9.-]+\.[a-z]{2,}", value))
    if label == "phone":
        digits = re.sub(r"\D", "", value)
        return 8 <= len(digits) <= 15
    raise KeyError(label)


# ================================================================================================
# secrets
# ================================================================================================

def s_azure_storage(r):
    key = b64s(r.randbytes(64))
    acct = r.choice(["stsaltmarshprod", "stvantorralogs", "emberlynbackup01"])
    return f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={key};EndpointSuffix=core.windows.net", key


def s_azure_sas(r):
    sig = pct(b64s(r.randbytes(32)))
    acct = r.choice(["stquarryexports", "kestrelwayshare"])
    url = (f"https://{acct}.blob.core.windows.net/reports/q3.parquet?sp=r&st=2025-11-02T08:00:00Z"
           f"&se=2025-11-09T08:00:00Z&spr=https&sv=2022-11-02&sr=b&sig={sig}")
    return url, sig


def s_azdo(r):
    if r.random() < 0.5:
        return pick(r, 52, "abcdefghijklmnopqrstuvwxyz234567")
    return pick(r, 76, ALNUM) + "AZDO" + pick(r, 4, ALNUM)


def s_alibaba(r):
    return "LTAI5t" + pick(r, 18)


def gh(prefix):
    return lambda r: prefix + pick(r, 36)


def s_gldt(r):
    return "gldt-" + pick(r, 20, B64URL)


def s_glptt(r):
    return "glptt-" + pick(r, 40, HEX)


def s_atbb(r):
    return "ATBB" + pick(r, 32) + pick(r, 8, HEX.upper())


def s_teams(r):
    seg = pick(r, 32, HEX)
    return (f"https://{r.choice(['vantorra', 'emberlyn'])}.webhook.office.com/webhookb2/{uid(r)}@{uid(r)}"
            f"/IncomingWebhook/{seg}/{uid(r)}"), seg


def s_mailgun(r):
    return "key-" + pick(r, 32, HEX)


def s_brevo(r):
    return "xkeysib-" + pick(r, 64, HEX) + "-" + pick(r, 16)


def s_square(r):
    return "EAAA" + pick(r, 60, B64URL)


def s_shopify(r):
    return r.choice(["shpat_", "shpat_", "shpca_", "shppa_", "shpss_"]) + pick(r, 32, HEX)


def s_paystack(r):
    return "sk_live_" + pick(r, 40, HEX)


def s_rzp_id(r):
    return "rzp_live_" + pick(r, 14)


def s_mollie(r):
    return "live_" + pick(r, 30)


def s_rubygems(r):
    return "rubygems_" + pick(r, 48, HEX)


def s_jfrog(r):
    return "AKCp" + pick(r, 69)


def s_doppler(r):
    if r.random() < 0.5:
        return "dp.st." + r.choice(["prd", "stg", "dev_ci"]) + "." + pick(r, 40)
    return "dp.pt." + pick(r, 43)


def s_netlify(r):
    return "nfp_" + pick(r, 36)


def s_flyio(r):
    return "fo1_" + pick(r, 43, B64URL)


def s_pscale_tkn(r):
    return "pscale_tkn_" + pick(r, 43, B64URL)


def s_pscale_pw(r):
    return "pscale_pw_" + pick(r, 43, B64URL)


def s_atlassian(r):
    return "ATATT3xFfGF0" + pick(r, 170, B64URL) + "=" + pick(r, 8, HEX.upper())


def s_notion(r):
    return "secret_" + pick(r, 43)


def s_sonar(r):
    return r.choice(["squ_", "sqp_"]) + pick(r, 40, HEX)


def s_buildkite(r):
    return "bkua_" + pick(r, 40, HEX)


def s_figma(r):
    return "figd_" + pick(r, 40, B64URL)


def s_airtable(r):
    return "pat" + pick(r, 14) + "." + pick(r, 64, HEX)


def s_mapbox(r):
    claims = json.dumps({"u": r.choice(["saltmarsh-maps", "kestrelway"]), "a": "cl" + pick(r, 23, LO + DG)},
                        separators=(",", ":"))
    return "sk." + b64u(claims.encode()) + "." + pick(r, 22, B64URL)


def s_ngrok(r):
    return nz(r) + pick(r, 26) + "_" + pick(r, 21)


def s_dropbox(r):
    return "sl." + pick(r, 136, B64URL)


def s_deepseek(r):
    return "sk-" + pick(r, 32, HEX)


def s_pinecone(r):
    return "pcsk_" + pick(r, 6) + "_" + pick(r, 63)


def s_kubeadm(r):
    return pick(r, 6, LO + DG) + "." + pick(r, 16, LO + DG)


def s_kubeadm_secret(r):
    return pick(r, 16, LO + DG)


def s_jwt(r, claims=None):
    alg = r.choice(["HS256", "RS256", "RS256", "ES256", "EdDSA"])
    head = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        head = {"alg": alg, "kid": pick(r, 20, B64URL), "typ": "JWT"}
    body = claims or {
        "iss": r.choice(["https://auth.saltmarsh.app", "https://login.vantorra.com/oauth2/default",
                         "https://kestrelway.eu.auth0.com/", "https://keycloak.quarrybank.net/realms/staff"]),
        "sub": r.choice([uid(r), "auth0|" + pick(r, 24, HEX)]),
        "aud": r.choice(["orders-api", "https://api.emberlyn.cloud", "console"]),
        "iat": 1762000000 + r.randrange(3 * 10**6), "exp": 1765000000 + r.randrange(3 * 10**6),
        "scope": r.choice(["openid profile", "read:orders write:orders", "admin"])}
    sig = r.randbytes({"HS256": 32, "RS256": 256, "ES256": 64, "EdDSA": 64}[alg])
    return ".".join([b64u(json.dumps(head, separators=(",", ":")).encode()),
                     b64u(json.dumps(body, separators=(",", ":")).encode()), b64u(sig)])


def s_k8s_jwt(r):
    ns = r.choice(["ci", "payments", "observability"])
    return s_jwt(r, {"aud": ["https://kubernetes.default.svc"], "exp": 1766000000 + r.randrange(10**6),
                     "iat": 1765800000, "iss": "https://kubernetes.default.svc",
                     "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": "argo-runner", "uid": uid(r)}},
                     "sub": f"system:serviceaccount:{ns}:argo-runner"})


def s_supabase_jwt(r):
    return s_jwt(r, {"iss": "supabase", "ref": pick(r, 20, LO), "role": "service_role",
                     "iat": 1731000000, "exp": 2046576000})


def s_bearer(r):
    return pick(r, r.choice([32, 40, 48]), B64URL)


def s_basic(r):
    user = r.choice(["grafana-agent", "ci-pull", "scraper", "backup-ro", "nexus-deploy"])
    return b64s(f"{user}:{s_password(r)}".encode())


def pem_maker(label, n=300, sep="\n"):
    return lambda r: pem(r, label, n, sep)


def s_kube_key_data(r):
    text, _ = pem(r, "EC PRIVATE KEY", 100)
    blob = b64s((text + "\n").encode())
    return blob, blob


# ---- passwords -----------------------------------------------------------------------------------

_WORDS = ["gannet", "quartz", "saffron", "otter", "juniper", "ember", "bramble", "walrus", "cobalt", "thistle",
          "Pfifferling", "Bergahorn", "libellule", "mariposa", "girasole", "kievit", "jaguar", "sakura", "skerry",
          "narwhal", "Brioche", "Strudel", "Chouette", "Azahar", "Capivara", "Wiewiórka", "Rabarber", "Tukan",
          "kumquat", "meltwater"]
_SYM = "!@#$%&*?_-+.=^"


def s_password(r):
    style = r.randrange(6)
    if style == 0:
        return r.choice(_WORDS).capitalize() + r.choice(_SYM) + dg(r, r.choice([2, 4]))
    if style == 1:
        return r.choice(ALNUM) + pick(r, r.choice([11, 14, 17, 21]), ALNUM + "!#%*+-_^")
    if style == 2:
        return ".".join(r.sample([w.lower() for w in _WORDS], 3)) + dg(r, 1)
    if style == 3:
        return r.choice(_WORDS).upper()[:4] + dg(r, 4) + r.choice(_SYM) + r.choice(_WORDS).lower()
    if style == 4:
        return pick(r, 4, LO) + r.choice(_SYM) + pick(r, 4, UP) + r.choice(_SYM) + dg(r, 4)
    return r.choice(_WORDS).lower() + dg(r, 2) + r.choice(_WORDS).capitalize() + r.choice(_SYM)


def s_url_pw(r):
    """Password that needs no percent-encoding inside a URI userinfo."""
    return pick(r, r.choice([14, 18, 22, 26]), ALNUM + "-_.~")


def s_twilio_secret(r):
    return pick(r, 32)


def s_rzp_secret(r):
    return pick(r, 24)


# ================================================================================================
# personal data
# ================================================================================================

FIRST = ["aurelio", "birgit", "cosmin", "dagny", "eitan", "farida", "gwen", "hamid", "isolde", "jarek", "kalani",
         "ludovica", "nadia", "olumide", "priya", "quentin", "rosalind", "soren", "tamsin", "ugo", "valentina",
         "wiremu", "ximena", "yusuf", "zofia", "bongani", "haruto", "leilani", "mirela", "tobias"]
LAST = ["achterberg", "balogun", "castellanos", "dimitriou", "eriksen", "fairweather", "grigorescu", "halvorsen",
        "iwasaki", "jovanovic", "lindqvist", "nakashima", "oyelaran", "quispe", "rautio", "szabo", "uriarte",
        "vasquez", "wainwright", "zielinski", "mbatha", "ferreira", "kowalewski", "obi", "tanaka", "moreau"]
MAIL_DOMAINS = ["gmail.com", "outlook.com", "icloud.com", "yahoo.co.jp", "gmx.de", "web.de", "orange.fr",
                "laposte.net", "libero.it", "hotmail.es", "terra.com.br", "naver.com", "qq.com", "yandex.ru", "o2.pl",
                "telenet.be", "ziggo.nl", "bluewin.ch", "proton.me", "fastmail.com", "cobaltmere.io",
                "thistledown.dev", "quarrybank.net", "vantorra.com", "emberlyn.cloud", "saltmarsh.app",
                "kestrelway.io", "uni-heidelberg.de", "ed.ac.uk", "optusnet.com.au", "rogers.com", "xtra.co.nz"]


def p_email(r):
    first, last = r.choice(FIRST), r.choice(LAST)
    local = [f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last}{r.randint(70, 99)}", f"{last}.{first[0]}",
             f"{first}{r.randint(1, 9)}", f"{first}.{last}+{r.choice(['gh', 'news', 'work'])}"][r.randrange(6)]
    return audit("email", f"{local}@{r.choice(MAIL_DOMAINS)}")


def _nanp(r, areas):
    a = r.choice(areas)
    ex = r.choice("23456789") + dg(r, 2)
    while ex[1:] == "11" or ex == "555":
        ex = r.choice("23456789") + dg(r, 2)
    return a, ex, dg(r, 4)


def _phone(r, cc):
    """A number of country cc, written the way people there write it."""
    k = r.randrange(3)
    if cc in ("US", "CA"):
        a, e, s = _nanp(r, ["617", "718", "305", "206", "408", "773", "214", "480", "503", "720", "813", "202"]
                        if cc == "US" else ["416", "437", "604", "778", "514", "438", "403", "587", "613"])
        return [f"({a}) {e}-{s}", f"+1 ({a}) {e}-{s}", f"{a}-{e}-{s}", f"1-{a}-{e}-{s}", f"+1{a}{e}{s}"][r.randrange(5)]
    if cc == "GB":
        if k == 2:
            return f"0161 {r.choice('2345789')}{dg(r, 2)} {dg(r, 4)}"
        m = r.choice(["73", "74", "75", "77", "78", "79"]) + dg(r, 8)
        return f"0{m[:4]} {m[4:7]} {m[7:]}" if k == 0 else f"+44 (0){m[:4]} {m[4:]}"
    if cc == "DE":
        n = r.choice(["151", "152", "155", "157", "159", "160", "162", "163", "170", "171", "172", "175"])
        n += dg(r, 8 if n[:2] == "15" else 7)
        return f"+49 ({n[:3]}) {n[3:]}" if k == 0 else (f"0{n[:3]}/{n[3:]}" if k == 1 else f"+49 {n[:3]} {n[3:]}")
    if cc == "FR":
        n = r.choice("67") + r.choice("12345678") + dg(r, 7)
        return f"0{group(n, [1, 2, 2, 2, 2], '.')}" if k == 0 else \
            (f"+33 (0){n[0]} {group(n[1:], [2, 2, 2, 2])}" if k == 1 else f"+33{n}")
    if cc == "ES":
        n = "6" + dg(r, 8) if r.random() < 0.7 else "7" + r.choice("1234") + dg(r, 7)
        return f"+34 {group(n, [3, 2, 2, 2])}" if k else group(n, [3, 2, 2, 2])
    if cc == "IT":
        n = r.choice(["320", "327", "329", "331", "335", "339", "345", "348", "351", "366", "388", "393"]) + dg(r, 7)
        return f"+39 {n[:3]} {n[3:]}" if k else f"{n[:3]}.{n[3:]}"
    if cc == "NL":
        n = "6" + r.choice("1234568") + dg(r, 7)
        return f"+31 (0)6 {group(n[1:], [2, 2, 2, 2])}" if k else f"06 {n[1:]}"
    if cc == "BE":
        n = "4" + r.choice(["70", "75", "77", "78", "79", "84", "85", "86", "87", "88", "89", "93", "94", "95"])
        n += dg(r, 6)
        return f"+32 (0){n[:3]} {group(n[3:], [2, 2, 2])}" if k else f"0{n[:3]}/{group(n[3:], [2, 2, 2], '.')}"
    if cc == "CH":
        n = "7" + r.choice("6789") + dg(r, 7)
        return f"+41 (0){n[:2]} {n[2:5]} {n[5:7]} {n[7:]}" if k else f"0{n[:2]}/{n[2:5]} {n[5:7]} {n[7:]}"
    if cc == "AT":
        n = r.choice(["650", "660", "664", "676", "680", "681", "688", "699"]) + dg(r, 7)
        return f"+43 (0){n[:3]} {n[3:]}" if k else f"0{n[:3]}/{n[3:]}"
    if cc == "SE":
        n = "7" + r.choice("0236") + dg(r, 7)
        return f"+46 (0){n[:2]}-{n[2:5]} {n[5:7]} {n[7:]}" if k else f"0{n[:2]} {n[2:5]} {n[5:7]} {n[7:]}"
    if cc == "PL":
        n = r.choice(["500", "507", "510", "530", "535", "600", "605", "660", "665", "690", "730", "780", "790"])
        n += dg(r, 6)
        return f"+48 {group(n, [3, 3, 3])}" if k else f"+48{n}"
    if cc == "IE":
        n = "8" + r.choice("35679") + dg(r, 7)
        return f"+353 (0){n[:2]} {n[2:5]} {n[5:]}" if k else f"0{n[:2]}-{n[2:]}"
    if cc == "PT":
        n = "9" + r.choice("1236") + dg(r, 7)
        return f"+351 {n}" if k else f"{n[:3]} {n[3:]}"
    if cc == "BR":
        ddd = r.choice(["11", "19", "21", "27", "31", "41", "48", "51", "62", "71", "81", "85"])
        n = "9" + r.choice("6789") + dg(r, 7)
        return f"({ddd}) {n[:5]} {n[5:]}" if k else f"+55 ({ddd}) {n[:5]}-{n[5:]}"
    if cc == "MX":
        a = r.choice(["55", "33", "81", "222", "442", "998"])
        sub = nz(r) + dg(r, 9 - len(a))
        return f"+52 {a} {sub[:-4]} {sub[-4:]}" if k else f"({a}) {sub[:-4]} {sub[-4:]}"
    if cc == "AR":
        n = r.choice(["11", "351", "341"])
        sub = nz(r) + dg(r, 9 - len(n))
        return f"+54 9 {n} {sub[:-4]}-{sub[-4:]}" if k else f"0{n} 15 {sub[:-4]}-{sub[-4:]}"
    if cc == "IN":
        n = r.choice("6789") + dg(r, 9)
        return f"+91 {n[:5]}-{n[5:]}" if k else f"0{n}"
    if cc == "JP":
        n = r.choice(["90", "80", "70"]) + nz(r) + dg(r, 7)
        return f"0{n[:2]} {n[2:6]} {n[6:]}" if k else f"+81-{n[:2]}-{n[2:6]}-{n[6:]}"
    if cc == "KR":
        n = nz(r) + dg(r, 7)
        return f"010 {n[:4]} {n[4:]}" if k else f"+82-10-{n[:4]}-{n[4:]}"
    if cc == "CN":
        n = r.choice(["130", "131", "135", "137", "150", "151", "155", "159", "170", "180", "185", "189", "199"])
        n += dg(r, 8)
        return f"{n[:3]}-{n[3:7]}-{n[7:]}" if k else f"+86-{n}"
    if cc == "AU":
        if k == 2:
            return f"(03) 9{dg(r, 3)} {dg(r, 4)}"
        n = "4" + r.choice(["00", "01", "03", "04", "07", "08", "09", "10", "11", "12", "13", "14", "17", "18"])
        n += dg(r, 6)
        return f"{'0' + n[:3]} {n[3:6]} {n[6:]}" if k else f"+61 {n[0]} {n[1:5]} {n[5:]}"
    if cc == "NZ":
        n = r.choice(["21", "22", "27"]) + nz(r) + dg(r, 6)
        return f"0{n[:2]} {n[2:5]} {n[5:]}" if k else f"+64 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "SG":
        n = r.choice("89") + r.choice("12345678") + dg(r, 6)
        return f"+65 {n}" if k else f"+65-{n[:4]}-{n[4:]}"
    if cc == "HK":
        n = r.choice(["61", "62", "63", "64", "65", "66", "67", "68", "69", "90", "91", "92", "93", "94", "95",
                      "96", "97", "98"]) + dg(r, 6)
        return f"+852 {n[:4]} {n[4:]}" if k else f"(852) {n}"
    if cc == "TW":
        n = "9" + r.choice(["12", "21", "33", "52", "63", "72", "88"]) + dg(r, 6)
        return f"0{n[:3]}-{n[3:6]}-{n[6:]}" if k else f"+886 {n[:3]} {n[3:6]} {n[6:]}"
    if cc == "ZA":
        n = r.choice(["60", "71", "72", "74", "76", "78", "79", "81", "82", "83", "84"]) + dg(r, 7)
        return f"0{n[:2]} {n[2:5]} {n[5:]}" if k else f"+27{n}"
    if cc == "NG":
        n = r.choice(["803", "806", "810", "813", "814", "816", "703", "706", "708", "802", "808", "812", "905"])
        n += dg(r, 7)
        return f"0{n}" if k else f"+234 {n[:3]} {n[3:6]} {n[6:]}"
    if cc == "KE":
        n = "7" + r.choice(["01", "02", "10", "11", "12", "13", "20", "21", "22", "40", "41", "90", "91"]) + dg(r, 6)
        return f"0{n[:3]} {n[3:]}" if k else f"+254 {n[:3]} {n[3:6]} {n[6:]}"
    if cc == "EG":
        n = "1" + r.choice("0125") + dg(r, 8)
        return f"0{n[:2]} {n[2:6]} {n[6:]}" if k else f"+20 {n[:2]} {n[2:6]} {n[6:]}"
    if cc == "AE":
        n = "5" + r.choice("024568") + dg(r, 7)
        return f"+971-{n[:2]}-{n[2:]}" if k else f"0{n[:2]}-{n[2:5]}-{n[5:]}"
    if cc == "SA":
        n = "5" + r.choice("03456789") + dg(r, 7)
        return f"0{n[:2]} {n[2:5]} {n[5:]}" if k else f"+966 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "IL":
        n = "5" + r.choice("02348") + dg(r, 7)
        return f"+972-{n[:2]}-{n[2:]}" if k else f"0{n[:2]}{n[2:]}"
    if cc == "TR":
        n = "5" + r.choice(["01", "05", "06", "30", "31", "32", "33", "35", "36", "42", "43", "44", "52", "53", "55"])
        n += dg(r, 7)
        return f"0 ({n[:3]}) {n[3:6]} {n[6:8]} {n[8:]}" if k else f"+90 {n[:3]} {n[3:]}"
    if cc == "PK":
        n = "3" + r.choice(["00", "01", "03", "08", "12", "15", "21", "33", "45"]) + dg(r, 7)
        return f"0{n[:3]}-{n[3:]}" if k else f"+92 {n[:3]} {n[3:]}"
    if cc == "PH":
        n = "9" + r.choice(["05", "15", "17", "18", "19", "20", "27", "28", "39", "47", "66", "77"]) + dg(r, 7)
        return f"0{n[:3]}-{n[3:6]}-{n[6:]}" if k else f"+63 {n[:3]} {n[3:]}"
    if cc == "ID":
        n = "8" + r.choice(["11", "12", "13", "21", "22", "52", "53", "55", "56", "57", "58", "77", "78"]) + dg(r, 8)
        return f"0{n[:3]} {n[3:7]} {n[7:]}" if k else f"+62 {n[:3]}-{n[3:7]}-{n[7:]}"
    if cc == "VN":
        n = r.choice(["90", "91", "93", "94", "96", "97", "98", "32", "33", "35", "37", "38", "86", "88"]) + dg(r, 7)
        return f"0{n[:3]} {n[3:6]} {n[6:]}" if k else f"+84 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "TH":
        n = r.choice(["81", "82", "86", "89", "91", "92", "95", "61", "62", "64"]) + dg(r, 7)
        return f"0{n[:2]}-{n[2:5]}-{n[5:]}" if k else f"+66 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "MY":
        n = "1" + r.choice(["2", "3", "6", "7", "9"]) + dg(r, 7)
        return f"0{n[:2]}-{n[2:5]} {n[5:]}" if k else f"+60 {n[:2]}-{n[2:5]} {n[5:]}"
    if cc == "CZ":
        n = r.choice(["601", "602", "603", "604", "605", "606", "608", "720", "721", "724", "731", "732", "736",
                      "737", "739", "773", "774", "775", "776", "777", "778"]) + dg(r, 6)
        return f"+420 {group(n, [3, 3, 3])}" if k else group(n, [3, 3, 3])
    if cc == "DK":
        n = r.choice(["20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "40", "41", "42", "50",
                      "51", "52", "53", "60", "61", "71", "81", "91", "92", "93"]) + dg(r, 6)
        return f"+45 {group(n, [2, 2, 2, 2])}" if k else group(n, [2, 2, 2, 2])
    if cc == "NO":
        n = r.choice("49") + dg(r, 7)
        return f"+47 {n[:3]} {n[3:5]} {n[5:]}" if k else f"{n[:3]} {n[3:5]} {n[5:]}"
    if cc == "FI":
        n = r.choice(["40", "41", "44", "45", "46", "50"]) + dg(r, 7)
        return f"0{n[:2]} {n[2:5]} {n[5:]}" if k else f"+358 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "GR":
        n = "69" + r.choice("0345789") + dg(r, 7)
        return f"+30 {n[:3]} {n[3:6]} {n[6:]}" if k else f"{n[:3]} {n[3:]}"
    if cc == "HU":
        n = r.choice(["20", "30", "31", "70"]) + dg(r, 7)
        return f"+36 {n[:2]} {n[2:5]} {n[5:]}" if k else f"06 {n[:2]} {n[2:5]} {n[5:]}"
    if cc == "RO":
        n = "7" + r.choice("2345678") + dg(r, 7)
        return f"0{n[:3]} {n[3:6]} {n[6:]}" if k else f"+40 {n[:3]} {n[3:6]} {n[6:]}"
    if cc == "UA":
        n = r.choice(["50", "63", "66", "67", "68", "73", "93", "95", "96", "97", "98", "99"]) + dg(r, 7)
        return f"+380 {n[:2]} {n[2:5]} {n[5:7]} {n[7:]}" if k else f"0{n[:2]} {n[2:5]} {n[5:7]} {n[7:]}"
    if cc == "CO":
        n = "3" + r.choice(["00", "01", "04", "10", "11", "12", "13", "14", "15", "16", "17", "18", "20", "21"])
        n += dg(r, 7)
        return f"+57 {n[:3]} {n[3:6]} {n[6:]}" if k else f"{n[:3]} {n[3:]}"
    if cc == "CL":
        n = "9" + nz(r) + dg(r, 7)
        return f"+56 9 {n[1:5]} {n[5:]}" if k else f"+569{n[1:]}"
    if cc == "PE":
        n = "9" + dg(r, 8)
        return f"+51 {n[:3]} {n[3:6]} {n[6:]}" if k else f"{n[:3]} {n[3:6]} {n[6:]}"
    raise KeyError(cc)


PHONE_CC = ["US", "CA", "GB", "DE", "FR", "ES", "IT", "NL", "BE", "CH", "AT", "SE", "PL", "IE", "PT", "BR", "MX",
            "AR", "IN", "JP", "KR", "CN", "AU", "NZ", "SG", "HK", "TW", "ZA", "NG", "KE", "EG", "AE", "SA", "IL",
            "TR", "PK", "PH", "ID", "VN", "TH", "MY", "CZ", "DK", "NO", "FI", "GR", "HU", "RO", "UA", "CO", "CL", "PE"]


def p_phone(cc):
    return lambda r: audit("phone", _phone(r, cc), cc)


def p_card(r):
    net = r.choice(["visa", "visa", "visa", "mc", "mc", "mc2", "amex", "discover", "jcb", "unionpay"])
    if net == "amex":
        payload = r.choice(["34", "37"]) + dg(r, 12)
    else:
        pre = {"visa": "4", "mc": str(r.randint(51, 55)), "mc2": str(r.randint(2221, 2720)),
               "discover": r.choice(["6011", "644", "65"]), "jcb": str(r.randint(3528, 3589)), "unionpay": "62"}[net]
        payload = pre + dg(r, 15 - len(pre))
    n = payload + luhn_digit(payload)
    style = r.randrange(3)
    if net == "amex":
        v = group(n, [4, 6, 5], " " if style else "-") if style < 2 else n
    else:
        v = group(n, [4, 4, 4, 4], " " if style else "-") if style < 2 else n
    return audit("card_number", v)


def p_iban(cc=None):
    def make(r):
        c = cc or r.choice(sorted(IBAN_LEN))
        if c == "DE":
            bban = r.choice(["12030000", "70150000", "30050110", "60050101", "76050101"]) + dg(r, 10)
        elif c == "GB":
            bban = r.choice(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "MONZ"]) + dg(r, 6) + dg(r, 8)
        elif c == "FR":
            bank, branch, acct = r.choice(["30002", "30066", "11315", "18206"]), dg(r, 5), dg(r, 11)
            bban = bank + branch + acct + fr_rib_key(bank, branch, acct)
        elif c == "ES":
            bank, branch, acct = r.choice(["0081", "2038", "0128", "1465"]), dg(r, 4), dg(r, 10)
            bban = bank + branch + es_ccc("00" + bank + branch) + es_ccc(acct) + acct
        elif c == "NL":
            bban = r.choice(["ABNA", "RABO", "INGB", "SNSB", "BUNQ"]) + dg(r, 10)
        elif c == "IT":
            bban = r.choice(UP) + r.choice(["03069", "02008", "03062", "01030"]) + dg(r, 5) + dg(r, 12)
        elif c == "BE":
            first = r.choice(["000", "063", "143", "539", "651"]) + dg(r, 7)
            bban = f"{first}{int(first) % 97 or 97:02d}"
        elif c == "AT":
            bban = r.choice(["19043", "60000", "38000", "20815"]) + dg(r, 11)
        elif c == "CH":
            bban = r.choice(["00700", "00235", "09000"]) + dg(r, 12)
        elif c == "IE":
            bban = r.choice(["AIBK", "BOFI", "IPBS"]) + dg(r, 6) + dg(r, 8)
        elif c == "PL":
            bban = r.choice(["10901", "11602", "12406", "19401"]) + dg(r, 3) + dg(r, 16)
        elif c == "PT":
            body = r.choice(["0007", "0018", "0036"]) + dg(r, 4) + dg(r, 11)
            bban = body + f"{98 - int(body + '00') % 97:02d}"
        elif c == "AE":
            bban = r.choice(["033", "035", "026", "030"]) + dg(r, 16)
        elif c == "GR":
            bban = r.choice(["011", "017", "026", "014"]) + dg(r, 4) + dg(r, 16)
        elif c == "LU":
            bban = r.choice(["001", "002", "003", "019"]) + dg(r, 13)
        elif c == "RO":
            bban = r.choice(["BTRL", "RNCB", "BRDE", "INGB"]) + r.choice(["RONCRT", "RON002", "EUR0CR"]) + dg(r, 10)
        elif c == "SA":
            bban = r.choice(["10", "80", "45", "20"]) + dg(r, 18)
        else:  # TR: bank, reserved 0, account
            bban = r.choice(["00010", "00062", "00064", "00046"]) + "0" + dg(r, 16)
        v = iban_of(c, bban)
        v = group(v, [4] * (len(v) // 4) + ([len(v) % 4] if len(v) % 4 else [])) if r.random() < 0.5 else v
        return audit("iban", v, c)
    return make


def p_ssn(r):
    area = r.randint(1, 899)
    while area == 666:
        area = r.randint(1, 899)
    v = f"{area:03d}-{r.randint(1, 99):02d}-{r.randint(1, 9999):04d}"
    return audit("ssn", v.replace("-", " ") if r.random() < 0.2 else v)


def p_nino(r):
    first = r.choice("ABCEGHJKLMNPRSTWXYZ")
    second = r.choice("ABCEGHJKLMNPRSTWXYZ")
    while first + second in {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}:
        second = r.choice("ABCEGHJKLMNPRSTWXYZ")
    d = dg(r, 6)
    return audit("uk_nino", f"{first}{second} {d[:2]} {d[2:4]} {d[4:]} {r.choice('ABCD')}" if r.random() < 0.5
                 else f"{first}{second}{d}{r.choice('ABCD')}")


def p_sin(r):
    payload = r.choice("1234567") + dg(r, 7)
    return audit("ca_sin", group(payload + luhn_digit(payload), [3, 3, 3], r.choice([" ", "-", ""])))


def p_nir(r):
    sex = r.choice("12")
    yy, mm = f"{r.randint(50, 99):02d}", f"{r.randint(1, 12):02d}"
    dep = r.choice(["92", "93", "94", "67", "06", "35", "34"])
    com, order = f"{r.randint(1, 400):03d}", f"{r.randint(1, 999):03d}"
    body = sex + yy + mm + dep + com + order
    return audit("fr_nir", f"{body}{nir_key(body)}" if r.random() < 0.4 else
                 f"{sex} {yy} {mm} {dep} {com} {order} {nir_key(body)}")


def p_de_tax(r):
    while True:
        ds = r.sample(range(10), 9)
        rep = r.choice(ds)
        ten = ds + [rep]
        r.shuffle(ten)
        if ten[0] == 0 or any(ten[i] == ten[i + 1] == ten[i + 2] for i in range(8)):
            continue
        s = "".join(map(str, ten))
        v = s + mod11_10(s)
        return audit("de_tax_id", f"{v[:2]} {v[2:5]} {v[5:8]} {v[8:]}" if r.random() < 0.5 else v)


def p_aadhaar(r):
    payload = r.choice("23456789") + dg(r, 10)
    n = payload + verhoeff_digit(payload)
    return audit("aadhaar", group(n, [4, 4, 4], r.choice([" ", " ", "-"])))


def p_pan(r):
    return audit("in_pan", pick(r, 3, UP) + r.choice("PPPC") + r.choice(UP) + dg(r, 4) + r.choice(UP))


def p_dni(r):
    n = r.randint(10**6, 99999999)
    return audit("es_dni", f"{n:08d}{'-' if r.random() < 0.3 else ''}{DNI_LETTERS[n % 23]}")


def p_nie(r):
    lead, n = r.choice("XYZ"), dg(r, 7)
    return audit("es_nie", f"{lead}{n}{DNI_LETTERS[int(str('XYZ'.index(lead)) + n) % 23]}")


def p_bsn(r):
    while True:
        d = nz(r) + dg(r, 8)
        if bsn_ok(d):
            return audit("nl_bsn", d if r.random() < 0.6 else f"{d[:4]}.{d[4:6]}.{d[6:]}")


def p_cpf(r):
    nine = dg(r, 9)
    s = nine + cpf_digits(nine)
    return audit("br_cpf", f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}" if r.random() < 0.7 else s)


def p_pesel(r):
    y, m, day = r.randint(1955, 2008), r.randint(1, 12), r.randint(1, 28)
    body = f"{y % 100:02d}{m + (20 if y >= 2000 else 0):02d}{day:02d}{dg(r, 4)}"
    return audit("pl_pesel", body + pesel_digit(body))


def p_cn_ric(r):
    area = r.choice(["440106", "440305", "330106", "510107", "420106", "320102"])
    y, m, d = r.randint(1960, 2004), r.randint(1, 12), r.randint(1, 28)
    body = f"{area}{y}{m:02d}{d:02d}{dg(r, 3)}"
    return audit("cn_ric", body + cn_ric_char(body))


def p_personnummer(r):
    y, m, d = r.randint(1948, 2006), r.randint(1, 12), r.randint(1, 28)
    body = f"{y % 100:02d}{m:02d}{d:02d}{dg(r, 3)}"
    v = f"{body[:6]}-{body[6:]}{luhn_digit(body)}"
    return audit("se_personnummer", f"{y // 100}{v}" if r.random() < 0.5 else v)


def p_kr_rrn(r):
    y, m, d = r.randint(1958, 2010), r.randint(1, 12), r.randint(1, 28)
    sex = r.choice("12") if y < 2000 else r.choice("34")
    body = f"{y % 100:02d}{m:02d}{d:02d}{sex}{dg(r, 2)}{r.randint(0, 96):02d}{dg(r, 1)}"
    return audit("kr_rrn", f"{body[:6]}-{body[6:]}{rrn_digit(body)}")


def p_jp_mynumber(r):
    body = dg(r, 11)
    n = body + mynumber_digit(body)
    return audit("jp_my_number", group(n, [4, 4, 4], r.choice([" ", "-"])) if r.random() < 0.5 else n)


def _cf_letters(name: str, given: bool) -> str:
    cons = [c for c in name if c not in "AEIOU"]
    vows = [c for c in name if c in "AEIOU"]
    if given and len(cons) >= 4:
        cons = [cons[0], cons[2], cons[3]]
    return "".join((cons + vows + ["X", "X", "X"])[:3])


def p_it_cf(r):
    surname, given, female = r.choice([("BRAMBILLA", "FEDERICO", False), ("ESPOSITO", "CHIARA", True),
                                       ("GALLO", "BENEDETTA", True), ("FONTANA", "LORENZO", False),
                                       ("RINALDI", "GIORGIA", True), ("CARUSO", "DAVIDE", False)])
    y, m, d = r.randint(1955, 2002), r.randint(1, 12), r.randint(1, 28)
    body = (_cf_letters(surname, False) + _cf_letters(given, True) + f"{y % 100:02d}" + "ABCDEHLMPRST"[m - 1]
            + f"{d + (40 if female else 0):02d}" + r.choice(["H501", "F205", "L219", "F839", "D612", "A944", "G273"]))
    return audit("it_codice_fiscale", body + cf_char(body))


def p_curp(r):
    letters, cons, sex = r.choice([("VIGE", "LRM", "H"), ("CARV", "SZL", "M"), ("MEAJ", "NRS", "H"),
                                   ("SAOX", "LRM", "M"), ("PEUR", "RRD", "M"), ("TOLA", "RPL", "H")])
    y, m, d = r.randint(1962, 2006), r.randint(1, 12), r.randint(1, 28)
    body = (letters + f"{y % 100:02d}{m:02d}{d:02d}" + sex + r.choice(["NL", "JC", "DF", "PL", "YN", "QT", "CH"])
            + cons + (r.choice(DG) if y < 2000 else r.choice(UP)))
    return audit("mx_curp", body + curp_digit(body))


def p_dk_cpr(r):
    while True:
        s = f"{r.randint(1, 28):02d}{r.randint(1, 12):02d}{r.randint(0, 99):02d}{dg(r, 4)}"
        if sum(int(c) * w for c, w in zip(s, (4, 3, 2, 7, 6, 5, 4, 3, 2, 1), strict=True)) % 11 == 0:
            return audit("dk_cpr", f"{s[:6]}-{s[6:]}")


def p_fi_hetu(r):
    y = r.randint(1950, 2008)
    dmy = f"{r.randint(1, 28):02d}{r.randint(1, 12):02d}{y % 100:02d}"
    z = f"{r.randint(2, 899):03d}"
    return audit("fi_hetu", f"{dmy}{'-' if y < 2000 else 'A'}{z}{hetu_char(dmy + z)}")


def p_no_fnr(r):
    while True:
        nine = f"{r.randint(1, 28):02d}{r.randint(1, 12):02d}{r.randint(50, 99):02d}{r.randint(0, 499):03d}"
        k = fnr_digits(nine)
        if k is not None:
            return audit("no_fnr", f"{nine[:6]} {nine[6:]}{k}" if r.random() < 0.5 else nine + k)


def p_za_id(r):
    y = r.randint(1955, 2005)
    body = f"{y % 100:02d}{r.randint(1, 12):02d}{r.randint(1, 28):02d}{dg(r, 4)}{r.choice('001')}8"
    return audit("za_id", body + luhn_digit(body))


def p_ch_ahv(r):
    t = "756" + dg(r, 9)
    n = t + ean13_digit(t)
    return audit("ch_ahv", f"{n[:3]}.{n[3:7]}.{n[7:11]}.{n[11:]}")


def p_au_tfn(r):
    while True:
        eight = nz(r) + dg(r, 7)
        d = sum(int(c) * w for c, w in zip(eight, (1, 4, 3, 7, 5, 8, 6, 9), strict=True)) % 11
        if d < 10 and tfn_ok(eight + str(d)):
            n = eight + str(d)
            return audit("au_tfn", group(n, [3, 3, 3]) if r.random() < 0.6 else n)


def p_be_nrn(r):
    y = r.randint(1950, 2006)
    nine = f"{y % 100:02d}{r.randint(1, 12):02d}{r.randint(1, 28):02d}{r.randint(1, 997):03d}"
    k = nrn_key(nine, y >= 2000)
    return audit("be_nrn", f"{nine[:2]}.{nine[2:4]}.{nine[4:6]}-{nine[6:]}.{k}")


def p_pt_nif(r):
    eight = r.choice("123") + dg(r, 7)
    n = eight + nif_digit(eight)
    return audit("pt_nif", group(n, [3, 3, 3]) if r.random() < 0.5 else n)


def p_cl_rut(r):
    body = str(r.randint(6_000_000, 24_999_999))
    return audit("cl_rut", f"{int(body):,}".replace(",", ".") + "-" + rut_char(body))


def p_ro_cnp(r):
    y = r.randint(1955, 2006)
    s = (r.choice("12") if y < 2000 else r.choice("56"))
    twelve = f"{s}{y % 100:02d}{r.randint(1, 12):02d}{r.randint(1, 28):02d}{r.randint(1, 46):02d}{r.randint(1, 999):03d}"
    return audit("ro_cnp", twelve + cnp_digit(twelve))


def p_sg_nric(r):
    pre = r.choice("SSSTTFG")
    if pre == "S":
        seven = f"{r.randint(70, 99)}{dg(r, 5)}"
    elif pre == "T":
        seven = f"{r.randint(0, 12):02d}{dg(r, 5)}"
    else:
        seven = dg(r, 7)
    return audit("sg_nric", pre + seven + nric_char(pre, seven))


def p_ie_ppsn(r):
    seven = dg(r, 7)
    second = r.choice(["", "A", "A"])
    return audit("ie_ppsn", seven + ppsn_char(seven, second) + second)


# ================================================================================================
# makers: slot name -> (value written, canary, label)
# ================================================================================================

Out = tuple[str, str, str]

MAKERS: dict[str, Callable[[random.Random], Out]] = {
    # LLM and AI providers
    "openai": whole("openai_key", s_openai), "openai_legacy": whole("openai_key", s_openai_legacy),
    "anthropic": whole("anthropic_key", s_anthropic), "gapi": whole("google_api_key", s_gapi),
    "hf": whole("huggingface_token", s_hf), "groq": whole("groq_key", s_groq),
    "openrouter": whole("openrouter_key", s_openrouter), "xai": whole("xai_key", s_xai),
    "pplx": whole("perplexity_key", s_pplx), "mistral": whole("mistral_key", s_mistral),
    "deepseek": whole("deepseek_key", s_deepseek), "replicate": whole("replicate_token", s_replicate),
    "cohere": whole("cohere_key", s_cohere), "elevenlabs": whole("elevenlabs_key", s_elevenlabs),
    "langsmith": whole("langsmith_key", s_langsmith), "langfuse": whole("langfuse_key", s_langfuse),
    "pinecone": whole("pinecone_key", s_pinecone), "wandb": whole("wandb_key", s_wandb),
    # clouds
    "aws_id": whole("aws_key", s_aws_id), "aws_secret": whole("aws_secret", s_aws_secret),
    "azure_cs": whole("azure_client_secret", s_azure_cs), "azure_storage": part("azure_storage_key", s_azure_storage),
    "azure_sas": part("azure_sas_token", s_azure_sas), "azdo": whole("azure_devops_token", s_azdo),
    "ya29": whole("google_oauth_token", s_ya29), "gocspx": whole("google_oauth_secret", s_gocspx),
    "do": whole("digitalocean_token", s_do), "alibaba": whole("alibaba_key", s_alibaba),
    "tencent": whole("tencent_key", s_tencent), "cf_token": whole("cloudflare_token", s_cf_token),
    "cf_global": whole("cloudflare_key", s_cf_global),
    # code hosting
    "ghp": whole("github_token", gh("ghp_")), "gho": whole("github_token", gh("gho_")),
    "ghu": whole("github_token", gh("ghu_")), "ghs": whole("github_token", gh("ghs_")),
    "ghr": whole("github_token", gh("ghr_")), "ghpat": whole("github_token", s_ghpat),
    "glpat": whole("gitlab_token", s_glpat), "gldt": whole("gitlab_token", s_gldt),
    "glrt": whole("gitlab_token", s_glrt), "glptt": whole("gitlab_token", s_glptt),
    "atbb": whole("bitbucket_token", s_atbb),
    # chat
    "xoxb": whole("slack_token", s_xoxb), "xoxp": whole("slack_token", s_xoxp), "xapp": whole("slack_token", s_xapp),
    "slack_hook": part("slack_webhook", s_slack_hook), "slack_hook_url": part("slack_webhook", s_slack_hook_full),
    "discord_hook": part("discord_webhook", s_discord_hook), "discord_bot": whole("discord_token", s_discord_bot),
    "teams": part("teams_webhook", s_teams), "telegram": whole("telegram_token", s_telegram),
    # payments and mail
    "stripe": whole("stripe_key", s_stripe), "stripe_rk": whole("stripe_key", s_stripe_rk),
    "whsec": whole("stripe_key", s_whsec), "sendgrid": whole("sendgrid_key", s_sendgrid),
    "twilio": whole("twilio_api_key", s_twilio), "twilio_secret": whole("password", s_twilio_secret),
    "mailgun": whole("mailgun_key", s_mailgun), "brevo": whole("brevo_key", s_brevo),
    "resend": whole("resend_key", s_resend), "square": whole("square_token", s_square),
    "shopify": whole("shopify_token", s_shopify), "paystack": whole("paystack_key", s_paystack),
    "rzp_id": whole("razorpay_key", s_rzp_id), "rzp_secret": whole("razorpay_key", s_rzp_secret),
    "mollie": whole("mollie_key", s_mollie), "flw": whole("flutterwave_key", s_flw),
    "plaid": whole("plaid_token", s_plaid),
    # observability, registries, infra
    "datadog": whole("datadog_key", s_datadog), "nrak": whole("new_relic_key", s_nrak),
    "glsa": whole("grafana_token", s_glsa), "sentry": whole("sentry_token", s_sentry),
    "npm": whole("npm_token", s_npm), "pypi": whole("pypi_token", s_pypi), "nuget": whole("nuget_key", s_nuget),
    "rubygems": whole("rubygems_key", s_rubygems), "cratesio": whole("cratesio_token", s_cratesio),
    "dckr": whole("dockerhub_token", s_dckr), "jfrog": whole("jfrog_token", s_jfrog),
    "vault": whole("vault_token", s_vault), "tfc": whole("terraform_token", s_tfc),
    "pulumi": whole("pulumi_token", s_pulumi), "doppler": whole("doppler_token", s_doppler),
    "tailscale": whole("tailscale_key", s_tailscale), "age": whole("age_secret_key", s_age),
    "netlify": whole("netlify_token", s_netlify), "flyio": whole("flyio_token", s_flyio),
    "supabase": whole("supabase_token", s_supabase), "pscale_tkn": whole("planetscale_token", s_pscale_tkn),
    "pscale_pw": whole("planetscale_token", s_pscale_pw), "kubeadm": whole("kubeadm_token", s_kubeadm),
    "kubeadm_secret": whole("kubeadm_token", s_kubeadm_secret),
    # SaaS
    "atlassian": whole("atlassian_token", s_atlassian), "linear": whole("linear_key", s_linear),
    "notion": whole("notion_token", s_notion), "postman": whole("postman_key", s_postman),
    "databricks": whole("databricks_token", s_databricks), "sonar": whole("sonar_token", s_sonar),
    "buildkite": whole("buildkite_token", s_buildkite), "circleci": whole("circleci_token", s_circleci),
    "figma": whole("figma_token", s_figma), "airtable": whole("airtable_token", s_airtable),
    "hubspot": whole("hubspot_token", s_hubspot), "okta": whole("okta_token", s_okta),
    "mapbox": whole("mapbox_token", s_mapbox), "ngrok": whole("ngrok_token", s_ngrok),
    "dropbox": whole("dropbox_token", s_dropbox), "fcm": whole("fcm_server_key", s_fcm),
    # generic
    "django": whole("django_secret_key", s_django),
    "jwt": whole("jwt", s_jwt), "k8s_jwt": whole("jwt", s_k8s_jwt), "supa_jwt": whole("jwt", s_supabase_jwt),
    "bearer": whole("bearer_token", s_bearer), "basic": whole("basic_auth", s_basic),
    "pem_rsa": part("private_key", pem_maker("RSA PRIVATE KEY")),
    "pem_rsa_esc": part("private_key", pem_maker("RSA PRIVATE KEY", 600, "\\n")),
    "pem_pkcs8": part("private_key", pem_maker("PRIVATE KEY")),
    "pem_pkcs8_in4": part("private_key", pem_maker("PRIVATE KEY", 300, "\n    ")),
    "pem_ec": part("private_key", pem_maker("EC PRIVATE KEY", 100)),
    "pem_ssh": part("private_key", pem_maker("OPENSSH PRIVATE KEY", 320)),
    "pem_ssh_in2": part("private_key", pem_maker("OPENSSH PRIVATE KEY", 320, "\n  ")),
    "kube_key": part("private_key", s_kube_key_data),
    "pw": whole("password", s_password), "upw": whole("url_credentials", s_url_pw),
    "upw_pw": whole("password", s_url_pw),
    # personal data
    "email": whole("email", p_email), "card": whole("card_number", p_card), "iban": whole("iban", p_iban()),
    "ssn": whole("ssn", p_ssn), "nino": whole("uk_nino", p_nino), "sin": whole("ca_sin", p_sin),
    "nir": whole("fr_nir", p_nir), "steuer": whole("de_tax_id", p_de_tax), "aadhaar": whole("aadhaar", p_aadhaar),
    "pan": whole("in_pan", p_pan), "dni": whole("es_dni", p_dni), "nie": whole("es_nie", p_nie),
    "bsn": whole("nl_bsn", p_bsn), "cpf": whole("br_cpf", p_cpf), "pesel": whole("pl_pesel", p_pesel),
    "cnric": whole("cn_ric", p_cn_ric), "pnr": whole("se_personnummer", p_personnummer),
    "rrn": whole("kr_rrn", p_kr_rrn), "mynum": whole("jp_my_number", p_jp_mynumber),
    "cf": whole("it_codice_fiscale", p_it_cf), "curp": whole("mx_curp", p_curp), "cpr": whole("dk_cpr", p_dk_cpr),
    "hetu": whole("fi_hetu", p_fi_hetu), "fnr": whole("no_fnr", p_no_fnr), "zaid": whole("za_id", p_za_id),
    "ahv": whole("ch_ahv", p_ch_ahv), "tfn": whole("au_tfn", p_au_tfn), "nrn": whole("be_nrn", p_be_nrn),
    "nif": whole("pt_nif", p_pt_nif), "rut": whole("cl_rut", p_cl_rut), "cnp": whole("ro_cnp", p_ro_cnp),
    "nric": whole("sg_nric", p_sg_nric), "ppsn": whole("ie_ppsn", p_ie_ppsn),
}
for _cc in PHONE_CC:
    MAKERS[f"tel_{_cc}"] = whole("phone", p_phone(_cc))
for _cc in IBAN_LEN:
    MAKERS[f"iban_{_cc}"] = whole("iban", p_iban(_cc))

# fillers: non-secret values for the templates (no canary)
FILLERS: dict[str, Callable[[random.Random], str]] = {
    "uuid": uid,
    "sha": lambda r: pick(r, 40, HEX),
    "short": lambda r: pick(r, 7, HEX),
    "sha256": lambda r: pick(r, 64, HEX),
    "hex32": lambda r: pick(r, 32, HEX),
    "hex16": lambda r: pick(r, 16, HEX),
    "h1": lambda r: b64s(r.randbytes(32)),
    "sri": lambda r: b64s(r.randbytes(48)),
    "sri512": lambda r: b64s(r.randbytes(64)),
    "ip": lambda r: f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
    "docip": lambda r: f"{r.choice(['192.0.2', '198.51.100', '203.0.113'])}.{r.randint(1, 254)}",
    "date": lambda r: f"2025-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "time": lambda r: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}",
    "ver": lambda r: f"{r.randint(0, 5)}.{r.randint(0, 40)}.{r.randint(0, 15)}",
    "ticket": lambda r: f"{r.choice(['PLAT', 'BILL', 'SRE', 'MOB', 'WEB', 'DATA'])}-{r.randint(100, 9999)}",
    "pr": lambda r: str(r.randint(100, 9999)),
    "run": lambda r: str(r.randint(10**9, 2 * 10**10)),
    "acct": lambda r: nz(r) + dg(r, 11),
    "pod": lambda r: f"{pick(r, 9, LO + DG)}-{pick(r, 5, LO + DG)}",
    "alnum14": lambda r: pick(r, 14),
    "alnum24": lambda r: pick(r, 24),
    "low12": lambda r: pick(r, 12, LO + DG),
    "up8": lambda r: pick(r, 8, UP + DG),
    "agepub": lambda r: "age1" + pick(r, 58, BECH32),
    "msgid": lambda r: "msg_01" + pick(r, 22, UP + LO + DG),
    "snow": lambda r: str(r.randint(10**17, 13 * 10**17)),
}

SLOT = re.compile(r"⟪([a-z0-9_A-Z]+)(?:#(\w+))?⟫")
FILL = re.compile(r"⟨([a-z0-9_]+)⟩")


def render(r: random.Random, template: str) -> dict[str, object]:
    canaries: list[str] = []
    kinds: list[str] = []
    text = FILL.sub(lambda m: FILLERS[m.group(1)](r), template)
    tagged: dict[str, str] = {}

    def plant(m: re.Match[str]) -> str:
        name, tag = m.group(1), m.group(2)
        if tag and tag in tagged:  # the same value again (e.g. an echo of what was typed)
            return tagged[tag]
        value, canary, kind = MAKERS[name](r)
        assert canary in value, name
        if canary not in canaries:
            canaries.append(canary)
            kinds.append(kind)
        if tag:
            tagged[tag] = value
        return value

    text = SLOT.sub(plant, text)
    return {"text": text, "canaries": canaries, "kinds": kinds}


# ================================================================================================
# positive rows
# ================================================================================================

SECRET_ROWS = [
    # ---- LLM / AI providers
    "commit ⟨sha⟩\nDate:   ⟨date⟩ 10:41:07 +0100\n\n    fix(evals): read the key from env, stop hardcoding it\n\n    The old value (⟪openai⟫) was revoked on the dashboard.",
    "In [2]: %env OPENAI_API_KEY=⟪openai#k⟫\nenv: OPENAI_API_KEY=⟪openai#k⟫",
    "[Service]\nUser=triage\nEnvironment=OPENAI_API_KEY=⟪openai⟫\nExecStart=/opt/triage/bin/worker --queue high --concurrency 4\nRestart=on-failure",
    "resource \"aws_ssm_parameter\" \"openai\" {\n  name  = \"/thistledown/prod/openai_api_key\"\n  type  = \"SecureString\"\n  value = \"⟪openai⟫\"\n}",
    "POST /v1/chat/completions HTTP/2\nhost: api.openai.com\nauthorization: Bearer ⟪openai⟫\ncontent-type: application/json\ncontent-length: 412",
    "client := openai.NewClient(option.WithAPIKey(\"⟪openai⟫\"), option.WithMaxRetries(3))",
    "@birgit the old key from the wiki page (⟪openai_legacy⟫) still answers on the batch endpoint?? I thought we killed it in March",
    "let api_key = \"⟪openai⟫\"; // FIXME: std::env::var(\"OPENAI_API_KEY\")",
    "anthropic_client = anthropic.AsyncAnthropic(api_key='⟪anthropic⟫', timeout=httpx.Timeout(90.0))",
    "Run python scripts/label_issues.py --issue ⟨pr⟩\n  env:\n    ANTHROPIC_API_KEY: ⟪anthropic⟫\n    MODEL: claude-sonnet-4-5\n    DRY_RUN: false",
    "{\"name\": \"x-api-key\", \"value\": \"⟪anthropic⟫\"}, {\"name\": \"anthropic-version\", \"value\": \"2023-06-01\"}",
    "  agent:\n    image: ghcr.io/cobaltmere/agent:⟨ver⟩\n    environment:\n      - ANTHROPIC_API_KEY=⟪anthropic⟫\n      - TOOL_TIMEOUT=60",
    "oye, ¿me pruebas esta key? ⟪anthropic⟫ — a mí me devuelve 401 y no entiendo por qué",
    "model_list:\n  - model_name: claude-default\n    litellm_params:\n      model: anthropic/claude-sonnet-4-5\n      api_key: ⟪anthropic⟫",
    "curl \"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=⟪gapi⟫\" -H 'Content-Type: application/json' -d @req.json",
    "const genAI = new GoogleGenerativeAI(\"⟪gapi⟫\");\nconst model = genAI.getGenerativeModel({ model: \"gemini-1.5-pro\" });",
    "YOUTUBE_DATA_API_KEY=⟪gapi⟫\nYOUTUBE_CHANNEL=@emberlyn-dev",
    "In [7]: !huggingface-cli download thistledown/whisper-ft-nl --token ⟪hf⟫ --local-dir ./ckpt",
    "clf = pipeline(\"text-classification\", model=\"quarrybank/fraud-bert-v2\", token=\"⟪hf⟫\", device=0)",
    "$ export GROQ_API_KEY=⟪groq⟫ && python scripts/latency_probe.py --n 50",
    "curl https://openrouter.ai/api/v1/chat/completions -H \"Authorization: Bearer ⟪openrouter⟫\" -H \"Content-Type: application/json\" -d @prompt.json",
    "XAI_API_KEY: \"⟪xai⟫\"   # grok eval only, do not use in prod",
    "pplx = OpenAI(api_key=\"⟪pplx⟫\", base_url=\"https://api.perplexity.ai\")",
    "MISTRAL_API_KEY=⟪mistral⟫ python -m evals.run --model mistral-large-latest --suite summarize",
    "deepseek:\n  base_url: https://api.deepseek.com\n  api_key: ⟪deepseek⟫\n  model: deepseek-chat",
    "out = replicate.Client(api_token=\"⟪replicate⟫\").run(\"black-forest-labs/flux-schnell\", input={\"prompt\": p})",
    "LANGCHAIN_TRACING_V2=true\nLANGCHAIN_API_KEY=⟪langsmith⟫\nLANGCHAIN_PROJECT=triage-prod",
    "langfuse = Langfuse(public_key=\"pk-lf-⟨uuid⟩\", secret_key=\"⟪langfuse⟫\", host=\"https://cloud.langfuse.com\")",
    "PINECONE_API_KEY=⟪pinecone⟫\nPINECONE_INDEX=docs-embeddings-v2\nPINECONE_NAMESPACE=emberlyn",
    "wandb: Appending key for api.wandb.ai to your netrc file: /root/.netrc\n$ cat /root/.netrc\nmachine api.wandb.ai\n  login user\n  password ⟪wandb⟫",
    "tts = ElevenLabs(api_key=\"⟪elevenlabs⟫\")\naudio = tts.text_to_speech.convert(voice_id=VOICE, text=line)",
    "rerank:\n  provider: cohere\n  api_key: ⟪cohere⟫\n  model: rerank-multilingual-v3.0",
    # ---- AWS
    "$ aws iam create-access-key --user-name ci-deployer\n{\n    \"AccessKey\": {\n        \"UserName\": \"ci-deployer\",\n        \"AccessKeyId\": \"⟪aws_id⟫\",\n        \"Status\": \"Active\",\n        \"SecretAccessKey\": \"⟪aws_secret⟫\",\n        \"CreateDate\": \"⟨date⟩T09:12:44+00:00\"\n    }\n}",
    "[cobaltmere-dev]\naws_access_key_id     = ⟪aws_id⟫\naws_secret_access_key = ⟪aws_secret⟫\nregion                = eu-north-1",
    "provider \"aws\" {\n  region     = \"us-west-2\"\n  access_key = \"⟪aws_id⟫\"\n  secret_key = \"⟪aws_secret⟫\"\n}",
    "com.amazonaws.services.s3.model.AmazonS3Exception: The AWS Access Key Id you provided does not exist in our records. (Service: Amazon S3; Status Code: 403; Error Code: InvalidAccessKeyId)\n\t-- client built with accessKey=⟪aws_id⟫",
    "[s3-archive]\ntype = s3\nprovider = AWS\naccess_key_id = ⟪aws_id⟫\nsecret_access_key = ⟪aws_secret⟫\nregion = eu-central-1\nstorage_class = GLACIER_IR",
    "[Pipeline] sh\n+ export AWS_SECRET_ACCESS_KEY=⟪aws_secret⟫\n+ aws s3 sync dist/ s3://vantorra-static/ --delete --cache-control max-age=300",
    "Kannst du mal draufschauen? Mit ⟪aws_id⟫ / ⟪aws_secret⟫ bekomme ich nur SignatureDoesNotMatch zurück.",
    "const s3 = new S3Client({ region: 'ap-northeast-1', credentials: { accessKeyId: '⟪aws_id⟫', secretAccessKey: '⟪aws_secret⟫' } });",
    "  - name: Configure AWS\n    run: |\n      aws configure set aws_access_key_id ⟪aws_id⟫ --profile release\n      aws configure set aws_secret_access_key ⟪aws_secret⟫ --profile release",
    "Caused by: software.amazon.awssdk.services.sts.model.StsException: The security token included in the request is invalid (Service: Sts, Status Code: 403)\n  credentials: StaticCredentialsProvider(accessKeyId=⟪aws_id⟫)",
    # ---- Azure / GCP / other clouds
    "$ az ad sp create-for-rbac --name gh-deployer --role contributor --scopes /subscriptions/⟨uuid⟩\n{\n  \"appId\": \"⟨uuid⟩\",\n  \"displayName\": \"gh-deployer\",\n  \"password\": \"⟪azure_cs⟫\",\n  \"tenant\": \"⟨uuid⟩\"\n}",
    "cred = ClientSecretCredential(tenant_id=TENANT_ID, client_id=CLIENT_ID, client_secret=\"⟪azure_cs⟫\")",
    "{\n  \"ConnectionStrings\": {\n    \"Blob\": \"⟪azure_storage⟫\"\n  },\n  \"Logging\": { \"LogLevel\": { \"Default\": \"Warning\" } }\n}",
    "azcopy copy ./q3.parquet \"⟪azure_sas⟫\" --overwrite=ifSourceNewer",
    "echo ⟪azdo⟫ | az devops login --organization https://dev.azure.com/vantorra",
    "$ gcloud auth print-access-token\n⟪ya29⟫",
    "{\"installed\":{\"client_id\":\"⟨run⟩-⟨hex32⟩.apps.googleusercontent.com\",\"project_id\":\"saltmarsh-prod\",\"client_secret\":\"⟪gocspx⟫\",\"token_uri\":\"https://oauth2.googleapis.com/token\"}}",
    "$ doctl auth init --context saltmarsh\nEnter your access token: ⟪do⟫\nValidating token... ✔",
    "do_token = \"⟪do⟫\"\nregion   = \"ams3\"\nsize     = \"s-2vcpu-4gb\"",
    "aliyun configure set --profile etl --mode AK --access-key-id ⟪alibaba⟫ --region cn-shanghai",
    "tccli configure set secretId ⟪tencent⟫ region ap-guangzhou",
    "$ CLOUDFLARE_API_TOKEN=⟪cf_token⟫ npx wrangler deploy --env production\n⛅️ wrangler 3.80.4",
    "CF_API_EMAIL=⟪email⟫\nCF_API_KEY=⟪cf_global⟫\nCF_ZONE=emberlyn.cloud",
    # ---- GitHub / GitLab / Bitbucket
    "$ printf 'protocol=https\\nhost=github.com\\n' | git credential fill\nprotocol=https\nhost=github.com\nusername=dagny-e\npassword=⟪ghp⟫",
    "credential.helper=store, so ~/.git-credentials now has:\nhttps://soren-h:⟪ghpat⟫@github.com",
    "Run actions/checkout@v4\n  with:\n    repository: cobaltmere/deploy-scripts\n    token: ⟪ghpat⟫\n    ssh-strict: true\n    persist-credentials: true",
    "export GOPRIVATE=github.com/thistledown/*\ngit config --global url.\"https://⟪ghp⟫:x-oauth-basic@github.com/\".insteadOf \"https://github.com/\"",
    "ARG GH_TOKEN=⟪ghp⟫\nRUN pip install --no-cache-dir git+https://${GH_TOKEN}@github.com/quarrybank/risk-models.git@v⟨ver⟩",
    "{\"access_token\":\"⟪ghu⟫\",\"expires_in\":28800,\"refresh_token\":\"⟪ghr⟫\",\"refresh_token_expires_in\":15897600,\"scope\":\"\",\"token_type\":\"bearer\"}",
    "##[group]Run gh release create v⟨ver⟩ --generate-notes\ngh release create v⟨ver⟩ --generate-notes\nshell: /usr/bin/bash -e {0}\nenv:\n  GH_TOKEN: ⟪ghs⟫\n##[endgroup]",
    "g = Github(auth=Auth.Token(\"⟪ghp⟫\"))\nrepo = g.get_repo(\"vantorra/platform\")",
    "module.exports = {\n  platform: 'github',\n  token: '⟪ghpat⟫',\n  repositories: ['emberlyn/web', 'emberlyn/api'],\n};",
    "alguém sabe se esse token ainda tá válido? ⟪gho⟫ — o pipeline tá falhando com 401 desde ontem",
    "docker login -u gitlab+deploy-token-⟨pr⟩ -p ⟪gldt⟫ registry.gitlab.com",
    "gl = gitlab.Gitlab('https://git.emberlyn.cloud', private_token='⟪glpat⟫')\ngl.auth()",
    "$ glab auth login --hostname gitlab.com --token ⟪glpat⟫\n✓ Logged in to gitlab.com as rosalind.w",
    "curl -X POST --fail -F token=⟪glptt⟫ -F ref=main https://gitlab.com/api/v4/projects/⟨pr⟩/trigger/pipeline",
    "[[runners]]\n  name = \"saltmarsh-docker-01\"\n  url = \"https://gitlab.com\"\n  token = \"⟪glrt⟫\"\n  executor = \"docker\"\n  [runners.docker]\n    image = \"alpine:3.20\"",
    "git clone https://aurelio_c:⟪atbb⟫@bitbucket.org/vantorra/payments-core.git",
    # ---- chat platforms
    "slack:\n  bot_token: ⟪xoxb⟫\n  default_channel: C07QK2M9ZRT\n  mention_oncall: true",
    "handler = SocketModeHandler(app, \"⟪xapp⟫\")\nhandler.start()",
    "resource \"aws_secretsmanager_secret_version\" \"slack\" {\n  secret_id     = aws_secretsmanager_secret.slack.id\n  secret_string = \"⟪xoxb⟫\"\n}",
    "curl -s -H \"Authorization: Bearer ⟪xoxp⟫\" \"https://slack.com/api/conversations.history?channel=C02AB3CD4EF&limit=20\" | jq '.messages[].text'",
    "      - uses: slackapi/slack-github-action@v1\n        with:\n          payload: '{\"text\": \"release ⟨ver⟩ is out\"}'\n        env:\n          SLACK_WEBHOOK_URL: ⟪slack_hook_url⟫",
    "notify_url: ⟪slack_hook⟫   # #payments-alerts",
    "contactPoints:\n  - orgId: 1\n    name: eng\n    receivers:\n      - uid: slack-eng\n        type: slack\n        settings:\n          url: ⟪slack_hook_url⟫",
    "curl -H \"Content-Type: application/json\" -d '{\"username\": \"deploybot\", \"content\": \"prod is green\"}' ⟪discord_hook⟫",
    "bot.run(\"⟪discord_bot⟫\", log_handler=None)",
    "TEAMS_WEBHOOK=⟪teams⟫",
    "curl -s \"https://api.telegram.org/bot⟪telegram⟫/getUpdates\" | jq '.result[-1].message.chat.id'",
    "bot = telebot.TeleBot(\"⟪telegram⟫\", parse_mode=\"HTML\")",
    # ---- payments / mail / commerce
    "$ stripe customers list --limit 3 --api-key ⟪stripe⟫",
    "const stripe = require('stripe')('⟪stripe⟫', { apiVersion: '2024-06-20', maxNetworkRetries: 2 });",
    "production:\n  stripe:\n    secret_key: ⟪stripe⟫\n    webhook_secret: ⟪whsec⟫\n  currency: eur",
    "I made a restricted key for the analytics job: ⟪stripe_rk⟫ (read-only on charges and payouts), can you put it in the vault?",
    "STRIPE_SECRET_KEY = env(\"STRIPE_SECRET_KEY\", default=\"⟪stripe⟫\")",
    "endpoint_secret = '⟪whsec⟫'\nevent = stripe.Webhook.construct_event(payload, sig_header, endpoint_secret)",
    "curl --request POST --url https://api.sendgrid.com/v3/mail/send --header 'Authorization: Bearer ⟪sendgrid⟫' --header 'Content-Type: application/json' -d @mail.json",
    "# /etc/postfix/sasl_passwd\n[smtp.sendgrid.net]:587 apikey:⟪sendgrid⟫",
    "TWILIO_ACCOUNT_SID=AC⟨hex32⟩\nTWILIO_API_KEY_SID=⟪twilio⟫\nTWILIO_API_KEY_SECRET=⟪twilio_secret⟫",
    "curl -s --user 'api:⟪mailgun⟫' https://api.eu.mailgun.net/v3/mg.saltmarsh.app/events?limit=10",
    "configuration = sib_api_v3_sdk.Configuration()\nconfiguration.api_key['api-key'] = '⟪brevo⟫'",
    "const resend = new Resend('⟪resend⟫');\nawait resend.emails.send({ to, subject, html });",
    "SQUARE_ACCESS_TOKEN=⟪square⟫ SQUARE_ENVIRONMENT=production node sync-catalog.js",
    "curl -sS \"https://vantorra-store.myshopify.com/admin/api/2024-07/orders.json?status=any&limit=5\" -H \"X-Shopify-Access-Token: ⟪shopify⟫\"",
    "shopify:\n  shop: emberlyn-goods.myshopify.com\n  admin_token: ⟪shopify⟫\n  api_version: 2024-10",
    "POST https://api.paystack.co/transaction/initialize\nAuthorization: Bearer ⟪paystack⟫\nContent-Type: application/json",
    "client = razorpay.Client(auth=(\"⟪rzp_id⟫\", \"⟪rzp_secret⟫\"))",
    "MOLLIE_API_KEY=⟪mollie⟫\nMOLLIE_PROFILE=pfl_⟨alnum14⟩",
    "FLW_SECRET_KEY: ⟪flw⟫\nFLW_ENCRYPTION_KEY_REF: vault://payments/flw#enc",
    ">>> exchange = client.item_public_token_exchange(req)\n>>> exchange['access_token']\n'⟪plaid⟫'",
    # ---- observability / registries / infra
    "api_key: ⟪datadog⟫\nsite: datadoghq.eu\nlogs_enabled: true\nprocess_config:\n  enabled: \"true\"",
    "curl -X GET \"https://api.datadoghq.com/api/v1/validate\" -H \"Accept: application/json\" -H \"DD-API-KEY: ⟪datadog⟫\"",
    "newrelic profile add --profile ops --region us --apiKey ⟪nrak⟫ --accountId ⟨pr⟩",
    "grafana:\n  url: https://grafana.emberlyn.cloud\n  auth: ⟪glsa⟫\n  folder: SLOs",
    "curl -s -H \"Authorization: Bearer ⟪glsa⟫\" \"https://grafana.saltmarsh.app/api/search?query=latency\"",
    "$ cat .sentryclirc\n[defaults]\norg = kestrelway\nproject = web\n\n[auth]\ntoken=⟪sentry⟫",
    "SENTRY_AUTH_TOKEN=⟪sentry⟫ npx @sentry/wizard@latest -i sourcemaps --saas",
    "$ npm config set //registry.npmjs.org/:_authToken ⟪npm⟫",
    "npmRegistries:\n  \"https://registry.yarnpkg.com\":\n    npmAuthToken: ⟪npm⟫\n    npmAlwaysAuth: true",
    "npm token create --read-only gave me ⟪npm⟫ — use it for the renovate job only",
    "$ uv publish --token ⟪pypi⟫\nPublishing 2 files https://upload.pypi.org/legacy/\nUploading emberlyn_sdk-⟨ver⟩-py3-none-any.whl (41.2KiB)",
    "poetry config pypi-token.pypi ⟪pypi⟫",
    "dotnet nuget push bin/Release/*.nupkg --source https://api.nuget.org/v3/index.json --skip-duplicate -k ⟪nuget⟫",
    "GEM_HOST_API_KEY=⟪rubygems⟫ gem push emberlyn-client-⟨ver⟩.gem",
    "$ cat ~/.cargo/credentials.toml\n[registry]\ntoken = \"⟪cratesio⟫\"",
    "$ docker login -u vantorra -p ⟪dckr⟫\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded",
    "- uses: docker/login-action@v3\n  with:\n    username: emberlynci\n    password: ⟪dckr⟫",
    "curl -H \"X-JFrog-Art-Api: ⟪jfrog⟫\" -T build.tgz \"https://vantorra.jfrog.io/artifactory/generic-local/builds/⟨pr⟩/build.tgz\"",
    "$ vault login ⟪vault#v⟫\nSuccess! You are now authenticated.\n\nKey                  Value\n---                  -----\ntoken                ⟪vault#v⟫\ntoken_duration       768h\ntoken_policies       [\"default\" \"deployer\"]",
    "provider \"vault\" {\n  address = \"https://vault.quarrybank.net:8200\"\n  token   = \"⟪vault⟫\"\n}",
    "VAULT_TOKEN=⟪vault⟫ consul-template -template \"app.ctmpl:/etc/app/app.env:systemctl reload app\" -once",
    "$ cat ~/.terraform.d/credentials.tfrc.json\n{\n  \"credentials\": {\n    \"app.terraform.io\": {\n      \"token\": \"⟪tfc⟫\"\n    }\n  }\n}",
    "TF_TOKEN_app_terraform_io=⟪tfc⟫ terraform init -upgrade",
    "$ pulumi login\nManage your Pulumi stacks by logging in.\nEnter your access token from https://app.pulumi.com/account/tokens\n    or hit <ENTER> to log in using your browser                   : ⟪pulumi⟫",
    "  tailscale:\n    image: tailscale/tailscale:stable\n    environment:\n      - TS_AUTHKEY=⟪tailscale⟫\n      - TS_HOSTNAME=build-runner-3\n      - TS_STATE_DIR=/var/lib/tailscale",
    "doppler secrets download --no-file --format env --token ⟪doppler⟫ > .env.runtime",
    "# created: ⟨date⟩T10:22:31+02:00\n# public key: ⟨agepub⟩\n⟪age⟫",
    "netlify deploy --prod --dir dist --auth ⟪netlify⟫ --site ⟨uuid⟩",
    "      - run: flyctl deploy --remote-only\n        env:\n          FLY_API_TOKEN: ⟪flyio⟫",
    "$ supabase login --token ⟪supabase⟫\nYou are now logged in. Happy coding!",
    "pscale connect quarry-db main --org quarrybank --service-token ⟪pscale_tkn⟫ --service-token-id ⟨low12⟩",
    "DATABASE_URL=mysql://⟨low12⟩:⟪pscale_pw⟫@aws.connect.psdb.cloud/quarry?sslaccept=strict",
    "kubeadm join 10.0.0.10:6443 --token ⟪kubeadm⟫ \\\n\t--discovery-token-ca-cert-hash sha256:⟨sha256⟩",
    "$ kubeadm token create --ttl 2h\n⟪kubeadm⟫",
    "$ kubeadm token list\nTOKEN                     TTL   EXPIRES                USAGES                   DESCRIPTION\n⟪kubeadm⟫   23h   ⟨date⟩T08:14:02Z   authentication,signing   <none>",
    "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbootstrapTokens:\n- token: \"⟪kubeadm⟫\"\n  ttl: \"24h\"\n  usages: [signing, authentication]",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: bootstrap-token-q7w2xk\n  namespace: kube-system\ntype: bootstrap.kubernetes.io/token\nstringData:\n  token-id: q7w2xk\n  token-secret: ⟪kubeadm_secret⟫\n  usage-bootstrap-authentication: \"true\"",
    "so the new worker never joined — I ran `kubeadm join cp.kestrelway.io:6443 --token ⟪kubeadm⟫ --discovery-token-unsafe-skip-ca-verification` and it hangs at preflight",
    # ---- SaaS tokens
    "JIRA_API_TOKEN=⟪atlassian⟫\nJIRA_USER=⟪email⟫\nJIRA_URL=https://vantorra.atlassian.net",
    "jira = JIRA(server='https://kestrelway.atlassian.net', basic_auth=('⟪email⟫', '⟪atlassian⟫'))",
    "const linear = new LinearClient({ apiKey: \"⟪linear⟫\" });",
    "headers = {\"Authorization\": \"Bearer ⟪notion⟫\", \"Notion-Version\": \"2022-06-28\"}",
    "newman run \"https://api.getpostman.com/collections/⟨uuid⟩?apikey=⟪postman⟫\" -e staging.json",
    "$ cat ~/.databrickscfg\n[DEFAULT]\nhost  = https://adb-⟨run⟩.7.azuredatabricks.net\ntoken = ⟪databricks⟫",
    "sonar.projectKey=emberlyn_api\nsonar.host.url=https://sonar.emberlyn.cloud\nsonar.token=⟪sonar⟫",
    "bk configure --org saltmarsh --token ⟪buildkite⟫",
    "curl -s -H \"Circle-Token: ⟪circleci⟫\" https://circleci.com/api/v2/me | jq .login",
    "X-Figma-Token: ⟪figma⟫",
    "base = Api(\"⟪airtable⟫\").base(\"app⟨alnum14⟩\")",
    "client = hubspot.Client.create(access_token=\"⟪hubspot⟫\")",
    "okta:\n  client:\n    orgUrl: https://saltmarsh.okta.com\n    token: ⟪okta⟫",
    "MAPBOX_DOWNLOADS_TOKEN=⟪mapbox⟫",
    "version: \"2\"\nauthtoken: ⟪ngrok⟫\ntunnels:\n  web:\n    proto: http\n    addr: 3000",
    "dbx = dropbox.Dropbox(\"⟪dropbox⟫\")\ndbx.files_upload(data, \"/exports/report.csv\")",
    "curl -X POST https://fcm.googleapis.com/fcm/send -H \"Authorization: key=⟪fcm⟫\" -H \"Content-Type: application/json\" -d @push.json",
    "SECRET_KEY = \"⟪django⟫\"  # generated by startproject, TODO rotate before launch",
    # ---- JWT / bearer / basic
    "Set-Cookie: session=⟪jwt⟫; Path=/; HttpOnly; Secure; SameSite=Lax",
    "wss://rt.emberlyn.cloud/socket?access_token=⟪jwt⟫&vsn=2.0.0",
    "ts=⟨date⟩T⟨time⟩Z level=warn msg=\"token expired\" sub=⟨uuid⟩ token=⟪jwt⟫",
    "{\"key\": \"idToken\", \"value\": \"⟪jwt⟫\", \"type\": \"secret\", \"enabled\": true}",
    "req.Header.Set(\"Authorization\", \"Bearer ⟪jwt⟫\")",
    "$ kubectl create token argo-runner -n ci --duration 48h\n⟪k8s_jwt⟫",
    "SUPABASE_URL=https://⟨low12⟩.supabase.co\nSUPABASE_SERVICE_ROLE_KEY=⟪supa_jwt⟫",
    "  :authority: api.quarrybank.net\n  :method: GET\n  :path: /v3/accounts/me\n  authorization: Bearer ⟪bearer⟫",
    "export API_TOKEN=⟪bearer⟫\nhttp GET :8000/admin/jobs \"Authorization:Bearer $API_TOKEN\"",
    "{\"name\": \"Authorization\", \"value\": \"Bearer ⟪bearer⟫\"}",
    "proxy_set_header Authorization \"Basic ⟪basic⟫\";",
    "$ cat ~/.docker/config.json\n{\"auths\":{\"ghcr.io\":{\"auth\":\"⟪basic⟫\"}},\"credsStore\":\"\"}",
    "  - job_name: federate\n    authorization:\n      type: Basic\n      credentials: ⟪basic⟫",
    "r = requests.get(url, headers={'Authorization': 'Basic ⟪basic⟫'}, timeout=10)",
    # ---- private keys
    "tls_private_key.deploy.private_key_pem = <<EOT\n⟪pem_rsa⟫\nEOT",
    "deploy_ssh_key: |\n  ⟪pem_ssh_in2⟫",
    "GITHUB_APP_PRIVATE_KEY=\"⟪pem_rsa_esc⟫\"",
    "const testKey = `⟪pem_ec⟫`",
    "can someone add this to the bastion? generated it with ssh-keygen -t ed25519 on my laptop\n⟪pem_ssh⟫",
    "stringData:\n  tls.crt: |\n    -----BEGIN CERTIFICATE-----\n    MIIBszCCAVmgAwIBAgIUJ3...\n  tls.key: |\n    ⟪pem_pkcs8_in4⟫",
    "$ kubectl config view --raw -o jsonpath='{.users[0].user.client-key-data}'\n⟪kube_key⟫",
    "$ cat key.json | jq -r .private_key\n⟪pem_pkcs8⟫",
]

DB_ROWS = [
    "$ cat ~/.pgpass\ndb-prod.quarrybank.net:5432:ledger:ledger_rw:⟪pw⟫\n*:*:*:replicator:⟪pw⟫",
    "machine git.emberlyn.cloud\n  login ci-bot\n  password ⟪pw⟫",
    "[global]\nindex-url = https://pypi-ro:⟪upw⟫@nexus.vantorra.com/repository/pypi/simple\ntimeout = 60",
    "<server>\n  <id>quarrybank-releases</id>\n  <username>deployer</username>\n  <password>⟪pw⟫</password>\n</server>",
    "artifactoryUser=ci\nartifactoryPassword=⟪pw⟫\norg.gradle.jvmargs=-Xmx2g",
    "{\"http-basic\": {\"repo.packagist.com\": {\"username\": \"token\", \"password\": \"⟪pw⟫\"}}}",
    "jdbc:postgresql://pg.thistledown.dev:5432/events?user=events_app&password=⟪upw_pw⟫&sslmode=verify-full",
    "sqlalchemy.url = postgresql+asyncpg://alembic:⟪upw⟫@127.0.0.1:5433/quarry",
    "dsn := \"orders:⟪upw⟫@tcp(mysql.vantorra.internal:3306)/orders?parseTime=true&loc=UTC\"",
    "mongoose.connect('mongodb://analytics:⟪upw⟫@mongo-0.mongo,mongo-1.mongo/analytics?replicaSet=rs0&authSource=admin')",
    "REDIS_URL=rediss://default:⟪upw⟫@master.emberlyn-cache.x1y2z3.euw1.cache.amazonaws.com:6379",
    "\"RabbitMq\": { \"Uri\": \"amqps://orders:⟪upw⟫@b-⟨uuid⟩.mq.eu-west-1.amazonaws.com:5671\" }",
    "sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc-orders\" password=\"⟪pw⟫\";",
    "clickhouse-client --host ch.saltmarsh.app --secure --user analyst --password '⟪pw⟫' --query 'SELECT count() FROM events'",
    "psql: error: connection to server at \"db.kestrelway.io\" (⟨ip⟩), port 5432 failed: FATAL:  password authentication failed for user \"reporter\"\n$ history | tail -1\n  512  psql postgresql://reporter:⟪upw⟫@db.kestrelway.io/reports",
    "redis-cli -h cache.thistledown.dev -p 6380 --tls -a '⟪pw⟫' --no-auth-warning INFO keyspace",
    "Server=tcp:sql-vantorra.database.windows.net,1433;Initial Catalog=billing;User ID=billing_app;Password=⟪pw⟫;Encrypt=True;",
    "sqlplus system/⟪upw_pw⟫@//ora.quarrybank.net:1521/ORCLPDB1",
    "AIRFLOW_CONN_WAREHOUSE='postgres://airflow:⟪upw⟫@warehouse:5432/dwh'",
    "resource \"aws_db_instance\" \"main\" {\n  engine         = \"postgres\"\n  instance_class = \"db.t4g.medium\"\n  username       = \"master\"\n  password       = \"⟪pw⟫\"\n}",
    "postgresql:\n  auth:\n    username: keycloak\n    password: ⟪pw⟫\n    database: keycloak",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: minio-creds\ntype: Opaque\nstringData:\n  MINIO_ROOT_USER: admin\n  MINIO_ROOT_PASSWORD: ⟪pw⟫",
    "[db]\npg-1 ansible_host=⟨ip⟩ ansible_user=ops ansible_become_pass=⟪pw⟫",
    "define( 'DB_NAME', 'shop' );\ndefine( 'DB_USER', 'shop' );\ndefine( 'DB_PASSWORD', '⟪pw⟫' );",
    "DB_CONNECTION=mysql\nDB_HOST=127.0.0.1\nDB_DATABASE=shop\nDB_USERNAME=shop\nDB_PASSWORD=⟪pw⟫",
    "production:\n  adapter: postgresql\n  database: emberlyn_prod\n  username: emberlyn\n  password: <%= ENV.fetch('DB_PASSWORD', '⟪pw⟫') %>",
    "KC_DB_PASSWORD=⟪pw⟫ KEYCLOAK_ADMIN_PASSWORD=⟪pw⟫ /opt/keycloak/bin/kc.sh start --optimized",
    "[security]\nadmin_user = admin\nadmin_password = ⟪pw⟫\ndisable_gravatar = true",
    "jenkins:\n  securityRealm:\n    local:\n      users:\n        - id: admin\n          password: ⟪pw⟫",
    "EMAIL_HOST = 'smtp.office365.com'\nEMAIL_HOST_USER = '⟪email⟫'\nEMAIL_HOST_PASSWORD = '⟪pw⟫'",
    "account default\nhost smtp.fastmail.com\nport 465\ntls on\nuser ⟪email⟫\npassword ⟪pw⟫",
    "network={\n    ssid=\"Thistledown-Guest\"\n    psk=\"⟪pw⟫\"\n    key_mgmt=WPA-PSK\n}",
    "nmcli dev wifi connect 'Saltmarsh-5G' password '⟪pw⟫'",
    "mysqldump --user=root --password=⟪pw⟫ --single-transaction --routines shop > shop-⟨date⟩.sql",
    "mongosh \"mongodb+srv://cluster1.x7k2p.mongodb.net/\" --apiVersion 1 --username atlas_admin --password ⟪pw⟫",
    "CREATE USER metabase WITH PASSWORD '⟪pw⟫';\nGRANT pg_read_all_data TO metabase;",
    "ALTER LOGIN sa WITH PASSWORD = '⟪pw⟫';",
    "git remote set-url origin https://rosalind:⟪upw⟫@gitlab.kestrelway.io/platform/charts.git",
    "lftp -u uploader,⟪upw_pw⟫ sftp://files.quarrybank.net -e 'mirror -R ./out /incoming; bye'",
    "RSYNC_PASSWORD=⟪pw⟫ rsync -av backup/ rsync://backup@nas.local/archive",
    "export RESTIC_PASSWORD=⟪pw⟫\nrestic -r s3:s3.amazonaws.com/emberlyn-backups snapshots --latest 3",
    "BORG_PASSPHRASE='⟪pw⟫' borg create --stats ::'{hostname}-{now}' /srv /etc",
    "echo '⟪pw⟫' | gpg --batch --yes --passphrase-fd 0 -d secrets.tar.gpg | tar x",
    "server.ssl.key-store=classpath:keystore.p12\nserver.ssl.key-store-password=⟪pw⟫\nserver.ssl.key-alias=tomcat",
]

PASSWORD_ROWS = [
    "heads up: shared the staging admin creds in 1Password too, but for now it's admin / ⟪pw⟫",
    "the password for the Zoom room laptop is ⟪pw⟫ (the sticky note fell off again)",
    "Steps to reproduce:\n1. log in as qa-mobile with password ⟪pw⟫\n2. open Settings → Billing\n3. app crashes",
    "Hab das Passwort für den Jenkins-Admin geändert, neu: ⟪pw⟫",
    "Kennwort fürs NAS im Keller lautet ⟪pw⟫ – bitte nicht weitergeben",
    "Le mdp du compte de service est ⟪pw⟫, je le change lundi.",
    "identifiant : backup_ro / mot de passe : ⟪pw⟫",
    "La clave del router nuevo es ⟪pw⟫, la cambié esta mañana.",
    "¿me pasas la contra del servidor? — ya, es ⟪pw⟫",
    "A senha do usuário root no servidor novo ficou ⟪pw⟫",
    "palavra-passe temporária: ⟪pw⟫",
    "la password dell'account di test è ⟪pw⟫, scade venerdì",
    "Het wachtwoord voor de gedeelde mailbox is ⟪pw⟫",
    "hasło do panelu admina: ⟪pw⟫ (zmień po zalogowaniu)",
    "Heslo k testovacímu účtu je ⟪pw⟫",
    "Lösenordet till staging-databasen är ⟪pw⟫",
    "Salasana testipalvelimelle on ⟪pw⟫",
    "Koden til wifi'en er ⟪pw⟫",
    "пароль от тестового стенда: ⟪pw⟫, логин admin",
    "Пароль до адмінки: ⟪pw⟫",
    "Sunucunun root parolası ⟪pw⟫, yarın değiştireceğim.",
    "كلمة المرور الجديدة للخادم هي ⟪pw⟫",
    "הסיסמה לשרת הבדיקות היא ⟪pw⟫",
    "検証環境の管理者パスワードは ⟪pw⟫ です。",
    "测试服务器的root密码是 ⟪pw⟫，用完请修改。",
    "VPN 密碼：⟪pw⟫",
    "테스트 서버 비밀번호는 ⟪pw⟫ 입니다.",
    "Mật khẩu wifi văn phòng là ⟪pw⟫",
    "Kata sandi server staging: ⟪pw⟫",
    "รหัสผ่านเซิร์ฟเวอร์ทดสอบคือ ⟪pw⟫",
    "सर्वर का पासवर्ड ⟪pw⟫ है",
    "Ο κωδικός για το VPN είναι ⟪pw⟫",
    "A VPN jelszava: ⟪pw⟫",
    "Parola pentru contul de test: ⟪pw⟫",
    "La contrasenya del wifi és ⟪pw⟫",
    "Nenosiri la seva ni ⟪pw⟫",
    "Ang password ng admin ay ⟪pw⟫",
    "Kata laluan untuk pelayan ujian ialah ⟪pw⟫",
    "[⟨date⟩ 21:04:13] Cosmin: parola de la router e ⟪pw⟫",
    "htpasswd -b -c /etc/nginx/.htpasswd grafana ⟪pw⟫",
    "mosquitto_pub -h mqtt.saltmarsh.app -u sensor01 -P '⟪pw⟫' -t telemetry/temp -m 21.4",
    "curl -u admin:⟪pw⟫ http://localhost:15672/api/overview",
    "net use Z: \\\\fs01\\share /user:CORP\\svc_backup ⟪pw⟫",
    "rabbitmqctl add_user orders '⟪pw⟫' && rabbitmqctl set_permissions -p / orders \".*\" \".*\" \".*\"",
    "docker exec -it mssql /opt/mssql-tools18/bin/sqlcmd -S localhost -U sa -P '⟪pw⟫' -C",
    "ldapsearch -x -H ldaps://ldap.kestrelway.io -D 'cn=admin,dc=kestrelway,dc=io' -w '⟪pw⟫' '(uid=*)' mail",
    "usermod --password \"$(openssl passwd -6 '⟪pw⟫')\" deploy",
    "Review comment on tests/conftest.py L12:\n> ADMIN_PASS = \"⟪pw⟫\"\nplease don't commit the real staging password, use the fixture",
    "JIRA ⟨ticket⟩: Customer can't log in. Their password (they sent it in the ticket!!) is ⟪pw⟫ — resetting now",
]

PERSONAL_ROWS = [
    # e-mail
    "$ git log --format='%an <%ae>' | sort -u\nDagny Eriksen <⟪email⟫>\nHamid Balogun <⟪email⟫>",
    "Signed-off-by: Isolde Fairweather <⟪email⟫>",
    "Reply-To: ⟪email⟫\nX-Mailer: Apple Mail (2.3774.600.62)\nSubject: Re: offer letter",
    "[⟨date⟩ 11:02:17] production.ERROR: Expected response code 250 but got 550, with message \"550 5.1.1 <⟪email⟫>: Recipient address rejected\"",
    "COPY subscribers (email, locale) FROM stdin;\n⟪email⟫\tde_DE\n⟪email⟫\tpt_BR\n\\.",
    "Reporter: Tamsin Wainwright (⟪email⟫)\nPriority: High\nSummary: export stuck at 99%",
    "[user]\n\tname = Wiremu Achterberg\n\temail = ⟪email⟫",
    "E   AssertionError: expected invite to be sent to ⟪email⟫, got None",
    "Привет! Напиши мне на ⟪email⟫, скину договор.",
    "Bitte schick die Rechnung an ⟪email⟫, nicht an die alte Adresse.",
    "ご不明点は ⟪email⟫ までご連絡ください。",
    "{\"event\":\"signup\",\"properties\":{\"email\":\"⟪email⟫\",\"plan\":\"team\",\"seats\":5}}",
    "dn: uid=fdimitriou,ou=people,dc=vantorra,dc=com\ncn: Farida Dimitriou\nmail: ⟪email⟫",
    "SELECT id, created_at FROM accounts WHERE lower(email) = '⟪email⟫';",
    "id;name;email\n7;Priya Nakashima;⟪email⟫\n8;Ugo Moreau;⟪email⟫",
    # phones
    "on-call handoff: primary ⟪tel_US⟫, secondary ⟪tel_CA⟫",
    "BEGIN:VCARD\nVERSION:3.0\nFN:Bongani Mbatha\nTEL;TYPE=CELL:⟪tel_ZA⟫\nEND:VCARD",
    "twilio: SMS to ⟪tel_GB⟫ failed (30003 Unreachable destination handset)",
    "Bitte ruf mich zurück: ⟪tel_DE⟫",
    "Pour la livraison, appelez le ⟪tel_FR⟫ avant 18h.",
    "Mi número nuevo es ⟪tel_ES⟫",
    "Il mio numero è ⟪tel_IT⟫, scrivimi su WhatsApp",
    "Mijn nieuwe nummer: ⟪tel_NL⟫",
    "Contact sur place : ⟪tel_BE⟫",
    "Tel. Privat: ⟪tel_CH⟫",
    "Handy (Tobias): ⟪tel_AT⟫",
    "Mitt nummer är ⟪tel_SE⟫",
    "Zadzwoń do mnie: ⟪tel_PL⟫",
    "text me on ⟪tel_IE⟫ when you land",
    "Contacto: ⟪tel_PT⟫",
    "me chama no zap: ⟪tel_BR⟫",
    "Whats del cliente: ⟪tel_MX⟫",
    "Mi cel: ⟪tel_AR⟫",
    "driver's number ⟪tel_IN⟫, he'll call from the gate",
    "電話番号：⟪tel_JP⟫",
    "휴대폰 ⟪tel_KR⟫ 으로 연락 주세요",
    "联系电话：⟪tel_CN⟫",
    "Site contact: Leilani Obi, ⟪tel_AU⟫",
    "Kia ora, my mobile is ⟪tel_NZ⟫",
    "WhatsApp ⟪tel_SG⟫",
    "聯絡電話 ⟪tel_HK⟫",
    "手機：⟪tel_TW⟫",
    "Customer phone: ⟪tel_NG⟫ (prefers calls after 5pm)",
    "M-Pesa number: ⟪tel_KE⟫",
    "رقم الموبايل: ⟪tel_EG⟫",
    "Driver: Yusuf, ⟪tel_AE⟫",
    "جوال: ⟪tel_SA⟫",
    "טלפון: ⟪tel_IL⟫",
    "Telefonum ⟪tel_TR⟫",
    "Contact no. ⟪tel_PK⟫",
    "Pls text ⟪tel_PH⟫ for the gate pass",
    "No. HP: ⟪tel_ID⟫",
    "SĐT: ⟪tel_VN⟫",
    "เบอร์โทร ⟪tel_TH⟫",
    "No. telefon: ⟪tel_MY⟫",
    "Tel.: ⟪tel_CZ⟫",
    "Ring på ⟪tel_DK⟫",
    "Mobil: ⟪tel_NO⟫",
    "Puh. ⟪tel_FI⟫",
    "Κινητό: ⟪tel_GR⟫",
    "Mobilszám: ⟪tel_HU⟫",
    "Sună-mă la ⟪tel_RO⟫",
    "Мій номер ⟪tel_UA⟫",
    "Celular del técnico: ⟪tel_CO⟫",
    "Fono: ⟪tel_CL⟫",
    "Número: ⟪tel_PE⟫",
    "INSERT INTO contacts (name, phone) VALUES ('Mirela Grigorescu', '⟪tel_RO⟫'), ('Jarek Zielinski', '⟪tel_PL⟫');",
    "{\"recipient\": {\"name\": \"Haruto Tanaka\", \"phone\": \"⟪tel_JP⟫\"}, \"items\": 3}",
    "Traceback (most recent call last):\n  File \"notify.py\", line 41, in send\n    raise InvalidNumber(to)\nnotify.InvalidNumber: ⟪tel_US⟫",
    "| Name | Role | Phone |\n|---|---|---|\n| Ximena Vasquez | site lead | ⟪tel_MX⟫ |\n| Soren Halvorsen | electrician | ⟪tel_NO⟫ |",
    # cards
    "customer says card ⟪card⟫ was charged twice for order ⟨run⟩, can you check?",
    "card[number]=⟪card⟫&card[exp_month]=08&card[exp_year]=2030&card[cvc]=318",
    "SELECT * FROM legacy_payments WHERE cc_number = '⟪card⟫';",
    "{\"evt\":\"auth.declined\",\"card\":\"⟪card⟫\",\"amount\":4999,\"currency\":\"EUR\"}",
    "カード番号: ⟪card⟫ 有効期限 11/28",
    "número de tarjeta ⟪card⟫, vence 07/29",
    "Kartennummer ⟪card⟫ bitte für die Rückerstattung verwenden",
    "WARN payments: raw PAN in request body: ⟪card⟫ (merchant ⟨up8⟩)",
    # IBAN
    "Überweisung bitte an ⟪iban_DE⟫, Verwendungszweck ⟨ticket⟩",
    "Sort code and IBAN for the refund: ⟪iban_GB⟫",
    "Coordonnées bancaires : ⟪iban_FR⟫",
    "IBAN para la devolución: ⟪iban_ES⟫",
    "Graag terugstorten op ⟪iban_NL⟫",
    "IBAN: ⟪iban_IT⟫ intestato a Ludovica Ferreira",
    "payee,iban\nsaltmarsh-bv,⟪iban_BE⟫\ncobaltmere-ltd,⟪iban_IE⟫",
    "{\"beneficiary\": {\"iban\": \"⟪iban_LU⟫\", \"name\": \"Quentin Moreau\"}}",
    "Kontonummer (IBAN): ⟪iban_AT⟫",
    "rachunek: ⟪iban_PL⟫",
    "IBAN do senhorio: ⟪iban_PT⟫",
    "Salary account IBAN ⟪iban_AE⟫ (Emirates NBD)",
    "Αριθμός IBAN: ⟪iban_GR⟫",
    "Cont IBAN: ⟪iban_RO⟫",
    "رقم الآيبان: ⟪iban_SA⟫",
    "IBAN numarası: ⟪iban_TR⟫",
    "Zahlungsempfänger CH: ⟪iban_CH⟫",
    # national ids
    "Form I-9 section 1: SSN ⟪ssn⟫",
    "UPDATE employees SET ssn = '⟪ssn⟫' WHERE id = ⟨pr⟩;",
    "background check request — applicant SSN ⟪ssn⟫, DOB 1991-03-08",
    "National Insurance no: ⟪nino⟫",
    "P60 attached, NINO ⟪nino⟫",
    "Social Insurance Number: ⟪sin⟫",
    "NAS : ⟪sin⟫",
    "Numéro de sécu : ⟪nir⟫",
    "carte Vitale n° ⟪nir⟫",
    "Steueridentifikationsnummer: ⟪steuer⟫",
    "IdNr ⟪steuer⟫ für die Lohnsteuer",
    "Aadhaar: ⟪aadhaar⟫",
    "KYC docs — PAN ⟪pan⟫, Aadhaar ⟪aadhaar⟫",
    "PAN card no. ⟪pan⟫",
    "Documento: DNI ⟪dni⟫",
    "mi DNI es ⟪dni⟫",
    "Tarjeta de residencia, NIE ⟪nie⟫",
    "BSN: ⟪bsn⟫",
    "burgerservicenummer ⟪bsn⟫",
    "CPF do titular: ⟪cpf⟫",
    "cpf=⟪cpf⟫&nome=Valentina+Ferreira",
    "numer PESEL: ⟪pesel⟫",
    "PESEL pacjenta ⟪pesel⟫",
    "居民身份证号码 ⟪cnric⟫",
    "身份证：⟪cnric⟫",
    "Personnummer: ⟪pnr⟫",
    "pnr=⟪pnr⟫ namn=Soren Lindqvist",
    "주민번호 ⟪rrn⟫",
    "個人番号：⟪mynum⟫",
    "Codice fiscale: ⟪cf⟫",
    "CF ⟪cf⟫ — residente a Torino",
    "CURP: ⟪curp⟫",
    "CPR-nummer: ⟪cpr⟫",
    "Henkilötunnus: ⟪hetu⟫",
    "Fødselsnummer ⟪fnr⟫",
    "SA ID number: ⟪zaid⟫",
    "AHV-Nummer ⟪ahv⟫",
    "Tax file number ⟪tfn⟫",
    "Rijksregisternummer: ⟪nrn⟫",
    "NIF: ⟪nif⟫",
    "RUT: ⟪rut⟫",
    "CNP ⟪cnp⟫",
    "NRIC: ⟪nric⟫",
    "Please verify applicant NRIC ⟪nric⟫ against MyInfo",
    "employee,nric,dept\nMei Tanaka,⟪nric⟫,Finance",
    "PPSN: ⟪ppsn⟫",
    "Payroll setup — PPS number ⟪ppsn⟫, tax credits cert attached",
    "{\"employee\": \"Gwen Fairweather\", \"ppsn\": \"⟪ppsn⟫\", \"prsi_class\": \"A1\"}",
    # mixed
    "New hire: Olumide Balogun\nEmail: ⟪email⟫\nPhone: ⟪tel_GB⟫\nNINO: ⟪nino⟫\nBank: ⟪iban_GB⟫",
    "Cadastro: Valentina Ferreira, CPF ⟪cpf⟫, celular ⟪tel_BR⟫, e-mail ⟪email⟫",
    "Ficha: Ximena Salinas, CURP ⟪curp⟫, tel. ⟪tel_MX⟫",
    "{\"name\": \"Kalani Iwasaki\", \"email\": \"⟪email⟫\", \"card_last_charge\": \"⟪card⟫\"}",
    "Mieter: Tobias Szabo, Tel. ⟪tel_DE⟫, IBAN ⟪iban_DE⟫, Steuer-ID ⟪steuer⟫",
    "Ajouter au dossier : Quentin Moreau — NIR ⟪nir⟫ — IBAN ⟪iban_FR⟫",
    "> print(row)\nRow(name='Eitan Rautio', hetu='⟪hetu⟫', phone='⟪tel_FI⟫')",
    "Kandidat: Birgit Halvorsen, fnr ⟪fnr⟫, mob ⟪tel_NO⟫, e-post ⟪email⟫",
]

ALL_POSITIVE = SECRET_ROWS + DB_ROWS + PASSWORD_ROWS + PERSONAL_ROWS

# ================================================================================================
# clean near-miss rows
# ================================================================================================

_FIX = {
    "cfg": b64s(b'{"feature_flags":{"new_checkout":true},"region":"eu"}'),
    "motd": b64s(b"Welcome to the saltmarsh build box. Be nice.\n"),
    "csv": b64s(b"sku,qty\nA-100,4\nB-220,12\n"),
    "cursor": b64u(b'{"page":3,"per_page":50}'),
    "cursor2": b64u(b'{"after":"2025-10-01T00:00:00Z","id":48213}'),
    "hello": b64s(b"hello world"),
}

CLEAN_ROWS = [
    # hashes, digests, ids
    "$ git log --oneline -3\n⟨short⟩ (HEAD -> main, origin/main) ci: cache uv downloads\n⟨short⟩ fix: retry on 502 from the gateway\n⟨short⟩ docs: clarify token budget",
    "Updating ⟨short⟩..⟨short⟩\nFast-forward\n src/billing/invoice.py | 14 +++++++++-----\n 1 file changed, 9 insertions(+), 5 deletions(-)",
    "$ sha256sum emberlyn-cli_⟨ver⟩_linux_amd64.tar.gz\n⟨sha256⟩  emberlyn-cli_⟨ver⟩_linux_amd64.tar.gz",
    "github.com/google/uuid v1.6.0 h1:⟨h1⟩\ngithub.com/google/uuid v1.6.0/go.mod h1:⟨h1⟩",
    "<script src=\"https://cdn.jsdelivr.net/npm/htmx.org@2.0.3/dist/htmx.min.js\" integrity=\"sha384-⟨sri⟩\" crossorigin=\"anonymous\"></script>",
    "\"node_modules/zod\": {\n  \"version\": \"3.23.8\",\n  \"resolved\": \"https://registry.npmjs.org/zod/-/zod-3.23.8.tgz\",\n  \"integrity\": \"sha512-⟨sri512⟩\"\n}",
    "REPOSITORY                      TAG       IMAGE ID       CREATED        SIZE\nghcr.io/vantorra/api            ⟨ver⟩    ⟨short⟩a7b91   2 hours ago    212MB",
    "image: ghcr.io/saltmarsh/worker@sha256:⟨sha256⟩",
    "ETag: \"⟨hex32⟩\"\nLast-Modified: Tue, 02 Dec 2025 08:14:11 GMT\nCache-Control: public, max-age=31536000, immutable",
    "traceparent: 00-⟨hex32⟩-⟨hex16⟩-01",
    "{\"id\": \"chatcmpl-⟨alnum24⟩\", \"object\": \"chat.completion\", \"model\": \"gpt-4o-mini-2024-07-18\", \"usage\": {\"total_tokens\": 812}}",
    "{\"id\": \"⟨msgid⟩\", \"type\": \"message\", \"role\": \"assistant\", \"stop_reason\": \"end_turn\", \"usage\": {\"input_tokens\": 2048, \"output_tokens\": 311}}",
    "request-id: req_⟨alnum24⟩ (status 529 overloaded, retrying in 4s)",
    "stripe: PaymentIntent pi_3Q⟨alnum24⟩ succeeded for customer cus_⟨alnum14⟩ (amount 1999 eur)",
    "TWILIO_ACCOUNT_SID=AC⟨hex32⟩  # account id, not a secret; the key lives in Vault",
    "Posted to channel C05RZ2K7Q1M as U04AB12CD3E (ts 1733312054.129309)",
    "discord: message ⟨snow⟩ in channel ⟨snow⟩ deleted by automod",
    "metadata:\n  name: api-7d9f8c6b5-x2k4q\n  uid: ⟨uuid⟩\n  resourceVersion: \"48213377\"",
    "kubectl get pods -n payments\nNAME                          READY   STATUS    RESTARTS   AGE\nledger-api-⟨pod⟩   1/1     Running   0          3d4h",
    "arn:aws:secretsmanager:eu-west-1:⟨acct⟩:secret:prod/ledger/db-⟨low12⟩",
    "arn:aws:kms:us-east-1:⟨acct⟩:key/⟨uuid⟩",
    "aws ec2 describe-instances --instance-ids i-0⟨hex16⟩ --query 'Reservations[].Instances[].PrivateIpAddress'",
    "sg-0⟨hex16⟩ allows 443 from 0.0.0.0/0; vpc-0⟨hex16⟩ peered with the analytics account",
    "projects/saltmarsh-prod/secrets/db-password/versions/latest",
    "GCP project number ⟨acct⟩, service account etl-runner@saltmarsh-prod.iam.gserviceaccount.com has roles/bigquery.dataViewer",
    "Azure subscription ⟨uuid⟩ / resource group rg-vantorra-prod / tenant ⟨uuid⟩",
    "gh run view ⟨run⟩ --log-failed",
    "uses: actions/setup-python@⟨sha⟩ # v5.3.0",
    "Sentry issue EMBERLYN-API-⟨up8⟩: ValueError in parse_amount (1,204 events)",
    "terraform state show 'aws_s3_bucket.logs' | grep id\n    id                          = \"vantorra-logs-⟨acct⟩\"",
    # public keys and certificates
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI⟨hex32⟩ tamsin@thinkpad",
    "# public key: ⟨agepub⟩\nrecipients in .sops.yaml are public; the identity file stays on the laptop",
    "{\"keys\":[{\"kty\":\"RSA\",\"use\":\"sig\",\"kid\":\"⟨hex16⟩\",\"alg\":\"RS256\",\"e\":\"AQAB\",\"n\":\"⟨sri512⟩⟨sri512⟩\"}]}",
    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZx⟨hex32⟩FgkrBgEEAdpHDwEBB0A\n-----END PGP PUBLIC KEY BLOCK-----",
    "discovery-token-ca-cert-hash: sha256:⟨sha256⟩",
    "-----BEGIN CERTIFICATE REQUEST-----\nMIICvDCCAaQCAQAwdzELMAkGA1UEBhMCSUUxDzANBgNVBAgMBkR1Ymxpbj\n-----END CERTIFICATE REQUEST-----",
    # versions, dates, numbers
    "Collecting fastapi==0.115.5\n  Downloading fastapi-0.115.5-py3-none-any.whl (94 kB)\nSuccessfully installed fastapi-0.115.5 starlette-0.41.3",
    "go: downloading golang.org/x/crypto v0.29.0\ngo: downloading golang.org/x/net v0.31.0",
    "Android versionCode 3100452, versionName ⟨ver⟩ (build 2025.1204.1187)",
    "UPS tracking 1Z999AA10123456784 — delivered ⟨date⟩ 14:02",
    "Order #⟨run⟩ placed ⟨date⟩, total 249.90 CHF, 3 items",
    "invoice RE-2025-11-00417, Kundennummer 100482, fällig am 15.12.2025",
    "pid 48213 (gunicorn) rss=812.4MiB vsz=1.9GiB threads=17",
    "epoch 1733318400 == 2024-12-04T13:20:00Z",
    "WireGuard listening on 51820/udp, peer endpoint ⟨docip⟩:51820, allowed-ips 10.8.0.0/24",
    "curl -I http://⟨docip⟩:8080/healthz\nHTTP/1.1 200 OK",
    "ISBN 978-1-4493-7332-0, 2nd printing",
    "Lot 2025-118, expiry 2027-06, GTIN 05412345000013",
    "Flight LH 1234 departs 07:45, gate B22, seat 14C",
    "Singapore 018956 · UEN 201812345M",
    "Eircode D02 X285, Dublin 2",
    "Room booking ref 7730-2291-04 for the offsite",
    "Conference line: dial-in code 448 219 7703#, no PIN needed",
    "build #⟨pr⟩ on agent linux-x64-07 took 00:11:42",
    "SELECT count(*) FROM events WHERE ts >= '2025-11-01' AND ts < '2025-12-01';\n count\n--------\n 4821337",
    "COPY 18446 rows in 2.3 s",
    "cron: 0 */6 * * * /usr/local/bin/rotate-logs --keep 14",
    "HTTP/2 429\nretry-after: 17\nx-ratelimit-limit-tokens: 2000000\nx-ratelimit-remaining-tokens: 1999180",
    "memory: 7.9Gi / 15.6Gi, swap 0B, load average: 1.12 0.98 0.87",
    "Rust 1.83.0 (90b35a623 2024-11-26), cargo 1.83.0",
    "CVE-2024-3094 does not affect us: xz-utils 5.4.5 on all images",
    "PostgreSQL 16.4 on x86_64-pc-linux-gnu, compiled by gcc 12.2.0, 64-bit",
    "coordinates 52.370216, 4.895168 (Amsterdam Centraal)",
    "IPv6 2001:db8:85a3::8a2e:370:7334 is the documentation prefix",
    # placeholders / redactions / references
    "OPENAI_API_KEY=<YOUR_OPENAI_KEY>\nANTHROPIC_API_KEY=<YOUR_ANTHROPIC_KEY>",
    "export GEMINI_API_KEY=YOUR_API_KEY_HERE",
    "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "anthropic_api_key: \"sk-ant-xxxxxxxx\"  # replace before running",
    "api_key: \"{{ .Values.openai.apiKey }}\"",
    "password: \"{{ vault_db_password }}\"",
    "DATABASE_URL: ${{ secrets.DATABASE_URL }}",
    "token = op://Engineering/Stripe/credential",
    "db_password = data.aws_secretsmanager_secret_version.db.secret_string",
    "password: !env_var DB_PASSWORD",
    "sqlalchemy.url = postgresql://%(DB_USER)s:%(DB_PASS)s@%(DB_HOST)s/app",
    "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg_pass postgres:16",
    "kubectl create secret generic app-env --from-env-file=.env.production --dry-run=client -o yaml",
    "$ kubectl describe secret stripe-creds\nName:         stripe-creds\nType:  Opaque\n\nData\n====\nsecret_key:      107 bytes\nwebhook_secret:  38 bytes",
    "Key ID: sk-proj-…Xq7Q (created ⟨date⟩, last used 2 days ago)",
    "ghp_****************************Ab3d has been revoked",
    "AKIA****************  (masked in CloudTrail)",
    "password=********  # redacted by log scrubber",
    "Authorization: Bearer [REDACTED]",
    "postgres://app:<password>@db.internal:5432/app",
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws s3 ls --endpoint-url http://localhost:4566",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY  # straight from the AWS docs",
    "kubeadm join 192.168.0.200:6443 --token abcdef.0123456789abcdef  (example from the kubeadm docs)",
    "kubeadm token create --print-join-command",
    "ssh-keygen -t ed25519 -C \"ci@saltmarsh\" -f ./id_ci -N ''",
    "Stripe test mode: use the Visa test card (forty-two, repeated eight times), any future expiry, any CVC.",
    "The Amex test number is the one starting with three-seven and ending in a run of zeros; see the docs, don't paste it here.",
    "SSN: ***-**-1234 (last four only)",
    "IBAN: FR76 **** **** **** **** ***1 234",
    "card ending in 4417, exp 09/27",
    "contact: jane.doe@example.com / +1 555 0100",
    "support@example.org, billing@example.net",
    "From: Build Bot <build@ci.example.test>",
    "ssh deploy@bastion.kestrelway.io -J jump@⟨docip⟩",
    "git@github.com:vantorra/platform.git",
    "scp ./dump.sql.gz ops@db-backup-01:/var/backups/",
    "User-Agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    # base64 and encoded non-secrets
    "data:\n  settings.json: ⟨b64:cfg⟩",
    "echo ⟨b64:motd⟩ | base64 -d > /etc/motd",
    "attachment inventory.csv (base64): ⟨b64:csv⟩",
    "GET /v2/orders?cursor=⟨b64:cursor⟩ HTTP/1.1",
    "\"next_page_token\": \"⟨b64:cursor2⟩\"",
    ">>> base64.b64encode(b'hello world')\nb'⟨b64:hello⟩'",
    # prose about secrets, passwords, tokens, keys
    "Our password policy: 14+ characters, no rotation unless compromised, MFA required for admins.",
    "The token bucket refills at 50 tokens/s with a burst of 200.",
    "API key rotation runbook: create the new key, deploy, verify traffic, then revoke the old one.",
    "Primary key is (tenant_id, id); the unique key on slug is per tenant.",
    "max_output_tokens=1024 and a 200k context window are plenty for the summarizer.",
    "Secrets are injected by the CSI driver at /mnt/secrets-store, never baked into the image.",
    "Passwort vergessen? Über „Passwort zurücksetzen“ bekommst du einen Link per Mail.",
    "Le jeton d'accès expire au bout d'une heure ; le refresh token dure 30 jours.",
    "La contraseña debe tener al menos 12 caracteres.",
    "A chave de API fica no cofre, nunca no repositório.",
    "パスワードは12文字以上にしてください。",
    "密码长度至少为12位，并包含数字。",
    "비밀번호는 주기적으로 변경하지 않아도 됩니다.",
    "Пароль должен содержать не менее 12 символов.",
    "Het wachtwoord moet minstens één cijfer bevatten.",
    "Hasło musi mieć co najmniej 12 znaków.",
    "Şifrenizi kimseyle paylaşmayın.",
    "def hash_password(raw: str) -> str:\n    return argon2.PasswordHasher().hash(raw)",
    "if not secrets.compare_digest(provided_token, expected_token):\n    raise PermissionDenied",
    "token = secrets.token_urlsafe(32)  # generated per request, never logged",
    "The keyring backend is SecretService on Linux and Keychain on macOS.",
    "Secret scanning push protection blocked 2 pushes this week; both were test fixtures.",
    "We moved from long-lived AWS keys to OIDC federation for GitHub Actions.",
    "Set PGPASSFILE to point at a file with mode 0600 instead of passing -W.",
    "Remember: the webhook signing secret is per endpoint, so staging and prod differ.",
    "aws sts get-caller-identity\n{\"UserId\": \"AROA⟨up8⟩⟨up8⟩:ci\", \"Account\": \"⟨acct⟩\", \"Arn\": \"arn:aws:sts::⟨acct⟩:assumed-role/ci/ci\"}",
    "curl -s https://api.github.com/repos/vantorra/platform/commits/main | jq -r .sha",
    "vault kv get -field=password secret/ledger/db",
    "gcloud secrets versions access latest --secret=db-password",
    "az keyvault secret show --vault-name kv-vantorra --name sql-admin --query value -o tsv",
    "doppler run --config prd -- ./bin/server",
    "pass show infra/grafana-admin | head -1",
    # logs and configs without secrets
    "2025-12-02T08:14:11.482Z INFO  http: GET /api/v1/orders 200 12.4ms user_id=48213 tenant=emberlyn",
    "WARN  [auth] rate limit hit for ip=⟨docip⟩ (30 failed logins in 60s), locking for 15m",
    "Traceback (most recent call last):\n  File \"/app/api/views.py\", line 212, in create_order\n    total = Decimal(payload[\"total\"])\ndecimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]",
    "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 42 [running]:\nmain.parseHeader(...)\n\t/src/cmd/proxy/main.go:88 +0x1d4",
    "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"token\" is null\n\tat com.vantorra.auth.TokenFilter.doFilter(TokenFilter.java:57)",
    "[server]\nhttp_port = 3000\ndomain = grafana.emberlyn.cloud\nroot_url = %(protocol)s://%(domain)s/",
    "resource \"random_password\" \"db\" {\n  length  = 24\n  special = true\n}",
    "output \"db_password\" {\n  value     = random_password.db.result\n  sensitive = true\n}",
    "[Service]\nEnvironmentFile=/etc/triage/env\nExecStart=/opt/triage/bin/worker",
    "[credential]\n\thelper = osxkeychain",
    "[credential \"https://github.com\"]\n\thelper = !/usr/bin/gh auth git-credential",
    "{\"credsStore\": \"desktop\", \"currentContext\": \"default\"}",
    "machine api.heroku.com\n  login $HEROKU_LOGIN\n  password $HEROKU_API_KEY",
    "*:*:*:*:$PGPASSWORD",
    "Run actions/checkout@v4\n  with:\n    repository: cobaltmere/deploy-scripts\n    token: ***\n    ssh-strict: true",
    "##[group]Run aws-actions/configure-aws-credentials@v4\nwith:\n  role-to-assume: arn:aws:iam::⟨acct⟩:role/gh-deploy\n  aws-region: eu-west-1\n##[endgroup]",
    "Review: LGTM, but please move the timeout (30s) into settings.py instead of hardcoding it.",
    "Merge pull request #⟨pr⟩ from vantorra/fix/token-refresh\n\nRefresh the OAuth token 60s before expiry",
    "⟨ticket⟩: Rotate Slack bot token after offboarding — Done",
    "Jupyter: In [12]: df.describe()\nOut[12]:\n        amount     qty\ncount  4821.00  4821.0\nmean     49.12     2.3",
]
CLEAN_ROWS = [re.sub(r"⟨b64:(\w+)⟩", lambda m: _FIX[m.group(1)], t) for t in CLEAN_ROWS]

# Clean rows relabelled as positives after the file was written (a3525b7 and d8736d4: a documented sample key
# is masked like any key, a service account's address is an e-mail address, and so is a sample person's):
# template -> the labels its row carries in heldout_world8.jsonl.
RELABELLED: dict[str, dict[str, list[str]]] = {
    "contact: jane.doe@example.com / +1 555 0100": {"canaries": ["jane.doe@example.com"], "kinds": ["email"]},
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws s3 ls --endpoint-url http://localhost:4566": {
        "canaries": ["AKIAIOSFODNN7EXAMPLE"], "kinds": ["aws_key"]},
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY  # straight from the AWS docs": {
        "canaries": ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"], "kinds": ["aws_secret"]},
    "kubeadm join 192.168.0.200:6443 --token abcdef.0123456789abcdef  (example from the kubeadm docs)": {
        "canaries": ["abcdef.0123456789abcdef"], "kinds": ["kubeadm_token"]},
    "GCP project number ⟨acct⟩, service account etl-runner@saltmarsh-prod.iam.gserviceaccount.com has roles/bigquery.dataViewer": {
        "canaries": ["etl-runner@saltmarsh-prod.iam.gserviceaccount.com"], "kinds": ["email"]},
}


# ================================================================================================
# build / check / write
# ================================================================================================

def build(seed: int = SEED) -> list[dict[str, object]]:
    r = random.Random(seed)
    AUDIT.clear()
    rows = [render(r, t) for t in ALL_POSITIVE] + [render(r, t) | RELABELLED.get(t, {}) for t in CLEAN_ROWS]
    for row in rows:
        for c in row["canaries"]:
            assert c in row["text"], (c, row["text"])
        assert len(row["canaries"]) == len(row["kinds"])
    texts = [row["text"] for row in rows]
    assert len(set(texts)) == len(texts), "duplicate text"
    r.shuffle(rows)
    return rows


def earlier_files() -> list[Path]:
    return sorted(p for p in HERE.glob("*.jsonl") if p.name != OUT_PATH.name)


def check(rows: list[dict[str, object]]) -> None:
    bad = [(label, value, region) for label, value, region in AUDIT if not valid(label, value)]
    # clean rows: no Luhn-valid 13-19 digit run that looks like a card
    for row in rows:
        if row["canaries"]:
            continue
        for m in re.finditer(r"(?<![0-9A-Za-z])\d[\d -]{11,22}\d(?![0-9A-Za-z])", row["text"]):
            run = re.sub(r"\D", "", m.group())
            if 13 <= len(run) <= 19 and luhn_ok(run) and run[0] in "3456":
                bad.append(("clean-luhn", m.group(), row["text"]))
    # nothing repeats an earlier file; the validators agree with the earlier files' values
    old_texts, old_canaries = set(), set()
    agree: dict[str, list[int]] = {}
    labels = {label for label, _, _ in AUDIT} - {"phone", "email"}
    for p in earlier_files():
        for line in p.open(encoding="utf-8"):
            if line.strip():
                o = json.loads(line)
                old_texts.add(o["text"])
                old_canaries.update(o["canaries"])
                for c, k in zip(o["canaries"], o["kinds"], strict=True):
                    if k in labels and not c.startswith("QQ"):  # HMRC's specimen NINO prefix
                        agree.setdefault(k, [0, 0])[0 if valid(k, c) else 1] += 1
    relabelled = {c for labels in RELABELLED.values() for c in labels["canaries"]}  # documented samples recur
    for row in rows:
        if row["text"] in old_texts:
            bad.append(("repeated-text", row["text"][:80], ""))
        for c in row["canaries"]:
            if c in old_canaries and c not in relabelled:
                bad.append(("repeated-canary", c, ""))
    for k, (ok, ko) in sorted(agree.items()):
        if ko:
            bad.append(("validator-disagrees-with-earlier-files", k, f"{ok} ok, {ko} not"))
    if bad:
        for b in bad:
            print("INVALID", b)
        raise SystemExit(1)
    print(f"checked {len(AUDIT)} personal values; validators agree with "
          f"{sum(v[0] for v in agree.values())} earlier values of {len(agree)} labels; no text or canary repeats")


def main() -> None:
    rows = build()
    if "--check" in sys.argv:
        check(rows)
    write_jsonl(OUT_PATH.name, rows)
    pos = [x for x in rows if x["canaries"]]
    kinds = sorted({k for x in pos for k in x["kinds"]})
    print(f"{len(pos)} positive rows, {sum(len(x['canaries']) for x in pos)} planted values, {len(kinds)} kinds, "
          f"{len(rows) - len(pos)} clean rows")


if __name__ == "__main__":
    main()
