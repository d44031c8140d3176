"""Write the "world" extension of the privacy corpus (heldout_world.jsonl, dev_world.jsonl).

Issue 19: vendor tokens of many providers, national phone formats, national identifiers and
secrets said in prose. Every value is fake, drawn from a seeded ``random.Random`` in the shape each
provider or authority documents (the comment on each generator names the format); identifiers with
a check digit get a correct one computed here, from the published algorithm, so that validating
detectors are tested for real. Documented sample numbers are planted too: a sample is masked like
any other. The values are never produced by, nor checked against, the masker's own rules.

The held-out rows were written before the detectors they test; the detectors were tuned on the dev
rows only. Run from the repository root: ``python tests/data/privacy/make_world_corpus.py [--out DIR]``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from values import ALNUM as AL
from values import B64URL as URLSAFE
from values import DG, HEX, LO, UP, group, luhn_digit, mod11_10, verhoeff_digit, write_jsonl
from values import pick as rs
from values import whole as same

BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

Out = tuple[str, str, str]  # (value to insert, canary substring, kind)
Gen = Callable[[random.Random], Out]


# ---- check digits, from the published algorithms ----------------------------------------------

def iban_for(r: random.Random, country: str, bban_len: int) -> str:
    bban = rs(r, bban_len, DG)
    number = int("".join(str(int(ch, 36)) for ch in bban + country + "00"))
    return f"{country}{98 - number % 97:02d}{bban}"


# ---- secrets by provider (the format each documents) ------------------------------------------

SECRETS: dict[str, Gen] = {
    # Google Cloud API keys: "AIza" followed by 35 characters of [0-9A-Za-z_-].
    "google_api_key": same("google_api_key", lambda r: "AIza" + rs(r, 35, URLSAFE)),
    # Hugging Face user access tokens: "hf_" followed by 34 letters.
    "huggingface_token": same("huggingface_token", lambda r: "hf_" + rs(r, 34, UP + LO)),
    # Twilio API key SIDs: "SK" followed by 32 hex digits.
    "twilio_api_key": same("twilio_api_key", lambda r: "SK" + rs(r, 32, HEX)),
    # Anthropic API keys: "sk-ant-api03-", 93 URL-safe characters, "AA".
    "anthropic_key": same("anthropic_key", lambda r: "sk-ant-api03-" + rs(r, 93, URLSAFE) + "AA"),
    # GitLab personal access tokens: "glpat-" and 20 characters.
    "gitlab_token": same("gitlab_token", lambda r: "glpat-" + rs(r, 20, URLSAFE)),
    # GitHub fine-grained PATs and OAuth tokens.
    "github_token": same("github_token", lambda r: r.choice([
        "github_pat_" + rs(r, 22) + "_" + rs(r, 59), "gho_" + rs(r, 36), "ghs_" + rs(r, 36)])),
    # npm access tokens: "npm_" and 36 alphanumerics.
    "npm_token": same("npm_token", lambda r: "npm_" + rs(r, 36)),
    # PyPI API tokens: a macaroon, "pypi-AgEIcHlwaS5vcmc" then base64url.
    "pypi_token": same("pypi_token", lambda r: "pypi-AgEIcHlwaS5vcmc" + rs(r, 70, URLSAFE)),
    # DigitalOcean personal access tokens: "dop_v1_" and 64 hex digits.
    "digitalocean_token": same("digitalocean_token", lambda r: "dop_v1_" + rs(r, 64, HEX)),
    # Shopify admin API access tokens: "shpat_" and 32 hex digits.
    "shopify_token": same("shopify_token", lambda r: r.choice(["shpat_", "shpca_"]) + rs(r, 32, HEX)),
    # SendGrid API keys: "SG.", 22 characters, ".", 43 characters.
    "sendgrid_key": same("sendgrid_key", lambda r: "SG." + rs(r, 22, URLSAFE) + "." + rs(r, 43, URLSAFE)),
    # Databricks personal access tokens: "dapi" and 32 hex digits.
    "databricks_token": same("databricks_token", lambda r: "dapi" + rs(r, 32, HEX)),
    # Doppler service tokens: "dp.st." and 40-odd characters; personal tokens "dp.pt.".
    "doppler_token": same("doppler_token", lambda r: r.choice(["dp.pt.", "dp.st."]) + rs(r, 43, LO + DG)),
    # Postman API keys: "PMAK-", 24 hex digits, "-", 34 hex digits.
    "postman_key": same("postman_key", lambda r: "PMAK-" + rs(r, 24, HEX) + "-" + rs(r, 34, HEX)),
    # Linear personal API keys: "lin_api_" and 40 alphanumerics.
    "linear_key": same("linear_key", lambda r: "lin_api_" + rs(r, 40)),
    # Grafana service account tokens: "glsa_", 32 alphanumerics, "_", 8 hex digits.
    "grafana_token": same("grafana_token", lambda r: "glsa_" + rs(r, 32) + "_" + rs(r, 8, HEX)),
    # New Relic user API keys: "NRAK-" and 27 upper-case alphanumerics.
    "new_relic_key": same("new_relic_key", lambda r: "NRAK-" + rs(r, 27, UP + DG)),
    # Pulumi access tokens: "pul-" and 40 hex digits.
    "pulumi_token": same("pulumi_token", lambda r: "pul-" + rs(r, 40, HEX)),
    # PlanetScale service tokens / passwords: "pscale_tkn_" / "pscale_pw_" and 43 characters.
    "planetscale_token": same("planetscale_token",
                              lambda r: r.choice(["pscale_tkn_", "pscale_pw_"]) + rs(r, 43, URLSAFE)),
    # Atlassian API tokens: 192 characters, "ATATT3xFfGF0" ... "=" and an 8-hex checksum. (The
    # first held-out commit made them 3 characters too long; the draw is kept, the middle is cut.)
    "atlassian_token": same("atlassian_token",
                            lambda r: "ATATT3xFfGF0" + rs(r, 174, URLSAFE)[:171] + "=" + rs(r, 8, HEX.upper())),
    # Square production access tokens: "EAAA" and 60 characters.
    "square_token": same("square_token", lambda r: "EAAA" + rs(r, 60, URLSAFE)),
    # age X25519 identities: "AGE-SECRET-KEY-1" and 58 upper-case bech32 characters.
    "age_secret_key": same("age_secret_key", lambda r: "AGE-SECRET-KEY-1" + rs(r, 58, BECH32)),
    # HashiCorp Vault service tokens (1.10+): "hvs." and 90-odd characters.
    "vault_token": same("vault_token", lambda r: "hvs." + rs(r, 91, URLSAFE)),
    # Terraform Cloud / Enterprise API tokens: 14 characters, ".atlasv1.", 67 characters.
    "terraform_token": same("terraform_token", lambda r: rs(r, 14) + ".atlasv1." + rs(r, 67, URLSAFE)),
    # Fly.io access tokens: "fo1_" and 43 characters.
    "flyio_token": same("flyio_token", lambda r: "fo1_" + rs(r, 43, URLSAFE)),
    # Sentry user auth tokens: "sntryu_" and 64 hex digits.
    "sentry_token": same("sentry_token", lambda r: "sntryu_" + rs(r, 64, HEX)),
    # RubyGems API keys: "rubygems_" and 48 hex digits.
    "rubygems_key": same("rubygems_key", lambda r: "rubygems_" + rs(r, 48, HEX)),
    # Clojars deploy tokens: "CLOJARS_" and 60 lower-case alphanumerics.
    "clojars_token": same("clojars_token", lambda r: "CLOJARS_" + rs(r, 60, LO + DG)),
    # ReadMe API keys: "rdme_" and 70 lower-case alphanumerics.
    "readme_key": same("readme_key", lambda r: "rdme_" + rs(r, 70, LO + DG)),
    # Shippo live API tokens: "shippo_live_" and 40 hex digits.
    "shippo_token": same("shippo_token", lambda r: "shippo_live_" + rs(r, 40, HEX)),
    # Alibaba Cloud AccessKey IDs: "LTAI" and 20 alphanumerics.
    "alibaba_key": same("alibaba_key", lambda r: "LTAI" + rs(r, 20, LO + DG)),
    # Prefect API keys: "pnu_" and 36 alphanumerics.
    "prefect_key": same("prefect_key", lambda r: "pnu_" + rs(r, 36)),
    # Brevo (Sendinblue) API keys: "xkeysib-", 64 hex digits, "-", 16 alphanumerics.
    "brevo_key": same("brevo_key", lambda r: "xkeysib-" + rs(r, 64, HEX) + "-" + rs(r, 16)),
    # Duffel API tokens: "duffel_test_" / "duffel_live_" and 43 characters.
    "duffel_token": same("duffel_token", lambda r: "duffel_live_" + rs(r, 43, URLSAFE)),
    # EasyPost API keys: "EZAK" and 54 alphanumerics.
    "easypost_key": same("easypost_key", lambda r: "EZAK" + rs(r, 54, LO + DG)),
    # Frame.io developer tokens: "fio-u-" and 64 characters.
    "frameio_token": same("frameio_token", lambda r: "fio-u-" + rs(r, 64, URLSAFE)),
    # Scalingo API tokens: "tk-us-" and 48 characters.
    "scalingo_token": same("scalingo_token", lambda r: "tk-us-" + rs(r, 48, URLSAFE)),
    # OpenShift user tokens: "sha256~" and 43 characters.
    "openshift_token": same("openshift_token", lambda r: "sha256~" + rs(r, 43, URLSAFE)),
    # Azure AD (Entra) client secrets: 3 characters, a digit, "Q~", 31-34 characters.
    "azure_client_secret": same("azure_client_secret",
                                lambda r: rs(r, 3) + r.choice(DG) + "Q~" + rs(r, 34, AL + "_~.-")),
    # Slack bot tokens and incoming webhooks.
    "slack_token": same("slack_token", lambda r: f"xoxb-{rs(r, 12, DG)}-{rs(r, 13, DG)}-{rs(r, 24)}"),
    # Stripe restricted and secret keys.
    "stripe_key": same("stripe_key", lambda r: r.choice(["sk_live_51", "rk_live_51"]) + rs(r, 97)),
    # AWS access key ids: "AKIA" and 16 upper-case alphanumerics.
    "aws_key": same("aws_key", lambda r: "AKIA" + rs(r, 16, UP + DG)),
    # OpenAI project keys.
    "openai_key": same("openai_key",
                       lambda r: "sk-proj-" + rs(r, 74, URLSAFE) + "T3BlbkFJ" + rs(r, 74, URLSAFE)),
    # Mailgun private API keys: "key-" and 32 hex digits (named next to "mailgun" where used).
    "mailgun_key": same("mailgun_key", lambda r: "key-" + rs(r, 32, HEX)),
    # Telegram bot tokens: a numeric bot id, ":", 35 characters starting "AA".
    "telegram_token": same("telegram_token", lambda r: rs(r, 10, DG) + ":AA" + rs(r, 33, URLSAFE)),
    # GCP service-account JSON keys carry a PEM private key (the escaped newline after the END line
    # is not part of the secret).
    "private_key": lambda r: pem_in_json(r),
}


def pem_in_json(r: random.Random) -> Out:
    block = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(
        rs(r, 64, AL + "+/") for _ in range(4)) + "\\n-----END PRIVATE KEY-----"
    return block + "\\n", block, "private_key"


def password_value(r: random.Random) -> str:
    return r.choice([
        rs(r, 4, LO) + r.choice("!#%&*") + rs(r, 3, DG) + rs(r, 3, UP),
        r.choice(["Winter", "Summer", "Falcon", "Copper"]) + rs(r, 4, DG) + r.choice("!?$"),
        rs(r, 16, AL),
        rs(r, 6, LO) + rs(r, 2, DG) + rs(r, 4, LO),
    ])


def g_password(r: random.Random) -> Out:
    value = password_value(r)
    return value, value, "password"


# ---- personal data (national formats) ----------------------------------------------------------

def g_phone_de(r: random.Random) -> Out:
    v = r.choice([  # German mobile (015x/016x/017x) and Berlin/Munich landlines, national format
        "0151 " + rs(r, 8, DG), "0171 " + rs(r, 7, DG), "0176/" + rs(r, 8, DG),
        "030 " + rs(r, 8, "123456789"), "089 " + rs(r, 7, "123456789")])
    return v, v, "phone"


def g_phone_gb(r: random.Random) -> Out:
    v = r.choice(["07700 900" + rs(r, 3, DG), "020 7946 0" + rs(r, 3, DG), "0161 496 0" + rs(r, 3, DG)])
    return v, v, "phone"  # Ofcom's numbers reserved for drama


def g_phone_fr(r: random.Random) -> Out:
    v = "0" + r.choice("1234567") + " " + " ".join(rs(r, 2, DG) for _ in range(4))
    return v, v, "phone"


def g_phone_in(r: random.Random) -> Out:
    v = r.choice(["+91 " + r.choice("6789") + rs(r, 4, DG) + " " + rs(r, 5, DG),
                  "0" + r.choice("6789") + rs(r, 4, DG) + " " + rs(r, 5, DG)])
    return v, v, "phone"


def g_phone_us(r: random.Random) -> Out:
    v = r.choice(["(212) 555-01" + rs(r, 2, DG), "415.555.01" + rs(r, 2, DG), "+1 646 555 01" + rs(r, 2, DG)])
    return v, v, "phone"


def g_ssn(r: random.Random) -> Out:
    if r.random() < 0.25:
        v = "078-05-1120"  # the Woolworth wallet sample, the most misused SSN
    else:
        area = r.choice([n for n in range(1, 900) if n != 666])
        v = f"{area:03d}-{r.randint(1, 99):02d}-{r.randint(1, 9999):04d}"
    return v, v, "ssn"


def g_nino(r: random.Random) -> Out:
    if r.random() < 0.25:
        v = "QQ 12 34 56 C"  # HMRC's documented example
    else:
        v = r.choice("ABCEGHJKLMNOPRSTWXYZ") + r.choice("ABCEGHJKLMNPRSTWXYZ") + " " + group(
            rs(r, 6, DG), [2, 2, 2]) + " " + r.choice("ABCD")
        v = v if r.random() < 0.5 else v.replace(" ", "")
    return v, v, "uk_nino"


def g_sin(r: random.Random) -> Out:
    if r.random() < 0.25:
        v = "046 454 286"  # the Government of Canada's sample SIN
    else:
        body = r.choice("1234567") + rs(r, 7, DG)
        v = group(body + luhn_digit(body), [3, 3, 3], r.choice([" ", "-"]))
    return v, v, "ca_sin"


def g_nir(r: random.Random) -> Out:
    body = (r.choice("12") + f"{r.randint(40, 99):02d}" + f"{r.randint(1, 12):02d}"
            + f"{r.randint(1, 95):02d}" + rs(r, 3, DG) + rs(r, 3, DG))
    key = 97 - int(body) % 97
    v = group(body + f"{key:02d}", [1, 2, 2, 2, 3, 3, 2])
    return v, v, "fr_nir"


def g_idnr(r: random.Random) -> Out:
    while True:  # one digit twice (or thrice), no digit more than that, first digit not 0
        body = str(r.randint(1, 9)) + rs(r, 9, DG)
        counts = sorted((body.count(d) for d in set(body)), reverse=True)
        if counts[0] in (2, 3) and counts[1] == 1:
            break
    v = body + mod11_10(body)
    v = v if r.random() < 0.5 else group(v, [2, 3, 3, 3])
    return v, v, "de_tax_id"


def g_aadhaar(r: random.Random) -> Out:
    body = r.choice("23456789") + rs(r, 10, DG)
    v = group(body + verhoeff_digit(body), [4, 4, 4], r.choice([" ", " ", "-"]))
    return v, v, "aadhaar"


def g_iban(r: random.Random) -> Out:
    country, length = r.choice([("DE", 18), ("FR", 23), ("ES", 20), ("NL", 14)])
    raw = iban_for(r, country, length) if country != "NL" else iban_for(r, "NL", 14)
    if country == "NL":
        raw = "NL" + raw[2:4] + rs(r, 4, UP) + raw[8:]
        number = int("".join(str(int(ch, 36)) for ch in raw[4:] + "NL00"))
        raw = f"NL{98 - number % 97:02d}" + raw[4:]
    v = " ".join(raw[i:i + 4] for i in range(0, len(raw), 4))
    return v, v, "iban"


def g_card(r: random.Random) -> Out:
    prefix, length = r.choice([("4", 16), ("51", 16), ("2221", 16), ("37", 15), ("6011", 16)])
    body = prefix + rs(r, length - len(prefix) - 1, DG)
    digits = body + luhn_digit(body)
    v = group(digits, [4, 6, 5] if length == 15 else [4, 4, 4, 4], r.choice([" ", "-"]))
    return v, v, "card_number"


def g_email(r: random.Random) -> Out:
    v = r.choice(["anke.vogel", "j.dupont", "priya.n", "m_okafor"]) + "@" + r.choice(
        ["beispiel.de", "exemple.fr", "corp.example.in", "example.co.uk"])
    return v, v, "email"


PERSONAL: dict[str, Gen] = {
    "phone_de": g_phone_de, "phone_gb": g_phone_gb, "phone_fr": g_phone_fr, "phone_in": g_phone_in,
    "phone_us": g_phone_us, "ssn": g_ssn, "uk_nino": g_nino, "ca_sin": g_sin, "fr_nir": g_nir,
    "de_tax_id": g_idnr, "aadhaar": g_aadhaar, "iban": g_iban, "card_number": g_card, "email": g_email,
    "password": g_password,
}
CANARY: dict[str, Gen] = {**SECRETS, **PERSONAL}
FIELD = re.compile(r"<<([a-z0-9_]+?)(?:_\d)?>>")


def render(r: random.Random, template: str) -> dict[str, object]:
    canaries: list[str] = []
    kinds: list[str] = []

    def sub(m: re.Match[str]) -> str:
        value, canary, kind = CANARY[m.group(1)](r)
        canaries.append(canary)
        kinds.append(kind)
        return value

    return {"text": FIELD.sub(sub, template), "canaries": canaries, "kinds": kinds}


# ---- held-out templates (written first) ---------------------------------------------------------

HELD_SECRET = [
    "GOOGLE_API_KEY=<<google_api_key>>",
    "maps = googlemaps.Client(key=\"<<google_api_key>>\")",
    "The Places call fails with key <<google_api_key>>, is billing enabled on that project?",
    "export HF_TOKEN=<<huggingface_token>>",
    "huggingface-cli login --token <<huggingface_token>>",
    "I pasted my hugging face token <<huggingface_token>> into the notebook by mistake",
    "TWILIO_API_KEY=<<twilio_api_key>>\nTWILIO_API_SECRET=<<password>>",
    "client = Client(\"<<twilio_api_key>>\", api_secret, account_sid)",
    "Twilio key <<twilio_api_key>> was created for the sms-notifier service.",
    "ANTHROPIC_API_KEY=<<anthropic_key>>",
    "anthropic.AuthenticationError: invalid x-api-key <<anthropic_key>>",
    "git clone https://oauth2:<<gitlab_token>>@gitlab.example.com/infra/terraform.git",
    "GITLAB_TOKEN: <<gitlab_token>>",
    "gh secret set GH_PAT --body <<github_token>>",
    "token: <<github_token>>  # expires 2025-01-31",
    "//registry.npmjs.org/:_authToken=<<npm_token>>",
    "NPM_TOKEN=<<npm_token>> npm publish --access public",
    "[pypi]\n  username = __token__\n  password = <<pypi_token>>",
    "twine upload -u __token__ -p <<pypi_token>> dist/*",
    "doctl auth init --access-token <<digitalocean_token>>",
    "DIGITALOCEAN_TOKEN=<<digitalocean_token>>",
    "X-Shopify-Access-Token: <<shopify_token>>",
    "SHOPIFY_ADMIN_TOKEN=<<shopify_token>>",
    "sg = SendGridAPIClient('<<sendgrid_key>>')",
    "SENDGRID_API_KEY=<<sendgrid_key>>",
    "databricks configure --token <<databricks_token>>",
    "DATABRICKS_TOKEN=<<databricks_token>>",
    "DOPPLER_TOKEN=<<doppler_token>> doppler run -- ./start.sh",
    "x-api-key: <<postman_key>>",
    "POSTMAN_API_KEY=<<postman_key>>",
    "LINEAR_API_KEY=<<linear_key>>",
    "headers = {\"Authorization\": \"<<linear_key>>\"}",
    "GRAFANA_SERVICE_ACCOUNT_TOKEN=<<grafana_token>>",
    "grafana:\n  url: https://grafana.example.net\n  token: <<grafana_token>>",
    "NEW_RELIC_API_KEY=<<new_relic_key>>",
    "newrelic profile add --apiKey <<new_relic_key>> --region US",
    "PULUMI_ACCESS_TOKEN=<<pulumi_token>>",
    "pscale auth login --service-token <<planetscale_token>>",
    "DATABASE_PASSWORD=<<planetscale_token>>",
    "curl -u me@example.com:<<atlassian_token>> https://acme.atlassian.net/rest/api/3/myself",
    "JIRA_API_TOKEN=<<atlassian_token>>",
    "SQUARE_ACCESS_TOKEN=<<square_token>>",
    "square_client = Client(access_token='<<square_token>>', environment='production')",
    ("# created: 2024-05-02T10:11:12Z\n# public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n"
     "<<age_secret_key>>"),
    "SOPS_AGE_KEY=<<age_secret_key>>",
    "VAULT_TOKEN=<<vault_token>> vault kv get secret/app",
    "vault login <<vault_token>>",
    "credentials \"app.terraform.io\" {\n  token = \"<<terraform_token>>\"\n}",
    "TF_TOKEN_app_terraform_io=<<terraform_token>>",
    "FLY_API_TOKEN=<<flyio_token>>",
    "flyctl deploy --access-token <<flyio_token>>",
    "SENTRY_AUTH_TOKEN=<<sentry_token>>",
    "sentry-cli --auth-token <<sentry_token>> releases new 1.4.2",
    "---\n:rubygems_api_key: <<rubygems_key>>",
    "GEM_HOST_API_KEY=<<rubygems_key>> gem push pkg/acme-1.2.0.gem",
    "CLOJARS_DEPLOY_TOKEN=<<clojars_token>>",
    "README_API_KEY=<<readme_key>>",
    "SHIPPO_API_TOKEN=<<shippo_token>>",
    "ALIBABA_CLOUD_ACCESS_KEY_ID=<<alibaba_key>>",
    "aliyun configure set --access-key-id <<alibaba_key>> --region cn-hangzhou",
    "PREFECT_API_KEY=<<prefect_key>>",
    "BREVO_API_KEY=<<brevo_key>>",
    "DUFFEL_ACCESS_TOKEN=<<duffel_token>>",
    "EASYPOST_API_KEY=<<easypost_key>>",
    "FRAMEIO_TOKEN=<<frameio_token>>",
    "scalingo login --api-token <<scalingo_token>>",
    "oc login --token=<<openshift_token>> --server=https://api.cluster.example.com:6443",
    "AZURE_CLIENT_SECRET=<<azure_client_secret>>",
    ("az login --service-principal -u 7f1c0a4e-9d2b-4e3a-8c5f-0b6d2e1a9c3f -p <<azure_client_secret>> --tenant "
     "acme.onmicrosoft.com"),
    "SLACK_BOT_TOKEN=<<slack_token>>",
    "stripe.api_key = '<<stripe_key>>'",
    "aws configure set aws_access_key_id <<aws_key>>",
    "OPENAI_API_KEY=<<openai_key>>",
    "MAILGUN_API_KEY=<<mailgun_key>>",
    "mailgun: domain mg.example.com, private key <<mailgun_key>>",
    "TELEGRAM_BOT_TOKEN=<<telegram_token>>",
    ("{\"type\": \"service_account\", \"project_id\": \"acme-prod\", \"private_key\": \"<<private_key>>\", \"client_email\": "
     "\"ci@acme-prod.iam.gserviceaccount.com\"}"),
    # secrets said in prose and key-value forms
    "the root password is <<password>>",
    "FYI the staging db password is now <<password>> until Monday.",
    "pw: <<password>>",
    "login with admin / pw <<password>>",
    "secret=<<password>>",
    "My API token: <<password>> — please don't share it.",
    "The wifi passphrase for the office is <<password>>.",
    "use password <<password>> for the jenkins user",
    "new password set to <<password>> (temporary)",
    "Passwort: <<password>>",
]

HELD_PII = [
    "Ruf mich an unter <<phone_de>>, falls der Build wieder bricht.",
    "Kontakt: Anke Vogel, Tel. <<phone_de>>",
    "mobile: <<phone_de>>",
    "call me on <<phone_gb>> after 6pm",
    "Office line <<phone_gb>> (reception)",
    "Appelez-moi au <<phone_fr>> demain matin.",
    "tél : <<phone_fr>>",
    "WhatsApp <<phone_in>> for the vendor contact",
    "support escalation: <<phone_in>>",
    "on-call pager <<phone_us>>",
    "Customer phone: <<phone_us>>",
    "SSN: <<ssn>>",
    "the applicant's social security number is <<ssn>>",
    "{\"ssn\": \"<<ssn>>\", \"dob\": \"1984-02-11\"}",
    "National Insurance number <<uk_nino>>",
    "NINO=<<uk_nino>>",
    "employee record: NI <<uk_nino>>, tax code 1257L",
    "SIN <<ca_sin>> on the T4 slip",
    "social insurance number: <<ca_sin>>",
    "N° de sécurité sociale : <<fr_nir>>",
    "NIR <<fr_nir>> rejected by the CPAM import",
    "Steuer-IdNr.: <<de_tax_id>>",
    "steuerliche Identifikationsnummer <<de_tax_id>> fehlt im Lohnkonto",
    "Aadhaar: <<aadhaar>>",
    "KYC upload failed for aadhaar number <<aadhaar>>",
    "Überweisung an <<iban>> ist freigegeben.",
    "IBAN: <<iban>>",
    "charge card <<card_number>> for the renewal",
    "card=<<card_number>> exp=09/28",
    "Bitte an <<email>> schicken.",
    "reply-to: <<email>>",
]

HELD_CLEAN = [
    "The password must be at least 12 characters and may not reuse the last 5 passwords.",
    "Reset tokens expire after 30 minutes; the token is single use.",
    "We rotate secrets quarterly and keep them in Vault, never in the repository.",
    "If the password is wrong three times the account is locked for 15 minutes.",
    "The password is stored as an argon2id hash with a per-user salt.",
    "LGTM, but please move the token refresh into its own function.",
    "nit: rename `get_secret` to `load_secret` for consistency with `load_config`.",
    "Can we drop the retry loop? The client already retries on 429 and 503.",
    "This PR bumps ruff to 0.4.2 and fixes the new lint errors.",
    "Let's keep the API key out of the logs: mask it in the formatter.",
    "Why does this test sleep for 2 seconds? A fake clock would be faster.",
    "The access token is passed in the Authorization header, not in the query string.",
    "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39\nAuthor: CI Bot <ci@noreply.invalid>",
    "Merged 9c1e8b7 into main after the review from two maintainers.",
    "request 5b0e6f0a-7d8c-4e3f-9a2b-1c0d9e8f7a6b finished in 412 ms",
    "Build #48213 passed on runner linux-x64-07 in 6m 12s.",
    "Released v3.18.2 on 2024-06-11; v3.19.0-rc.1 is planned for July.",
    "Listening on 0.0.0.0:8080, metrics on :9090",
    "docker run -p 5432:5432 -e POSTGRES_PASSWORD_FILE=/run/secrets/db postgres:16",
    "password: ${{ secrets.DB_PASSWORD }}",
    "token = os.environ.get(\"HF_TOKEN\")",
    "api_key = config[\"google\"][\"api_key\"]",
    "secret = vault.read(\"secret/data/app\")[\"data\"]",
    "the password is required",
    "the password is too short",
    "the token is invalid or expired",
    "The secret is in 1Password under 'staging db'.",
    "pw: see the team vault",
    "password: <redacted>",
    "secret=REPLACE_ME",
    "Order 100234981 shipped; tracking 1Z999AA10123456784 arrives Thursday.",
    "Invoice INV-2024-00017 is due on 2024-07-01.",
    "The p95 latency dropped from 412 ms to 188 ms after the index change.",
    "We processed 1,234,567 events yesterday, 3 % more than last week.",
    "The job ran from 2024-03-15 10:22:31 to 2024-03-15 11:02:09 UTC.",
    "Unix time 1718035200 is 2024-06-10 16:00:00 UTC.",
    "Use SHA-256, not MD5: d41d8cd98f00b204e9800998ecf8427e is the hash of the empty string.",
    "Set the brand color to #1a2b3c and the hover color to #4d5e6f.",
    "ERROR 1045 (28000): Access denied for user 'app'@'10.0.3.17' (using password: YES)",
    "HTTP 401 Unauthorized: missing or invalid API key.",
    "warning: the token endpoint returned 500, retrying in 4 s",
    "Refactor: extract `TokenBucket` from the rate limiter.",
    "The SSN field is masked in the UI and never exported.",
    "Phone numbers are normalised to E.164 before they are stored.",
    "IBANs are validated with the mod-97 check before payout.",
    "Card numbers never reach our servers; Stripe Elements tokenises them.",
    "Our office is at 221B Baker Street, open 9 to 5.",
    "The meeting moved to Thursday at 14:30 CET.",
    "Ticket PROJ-4821 tracks the flaky integration test.",
    "See RFC 6749 section 4.1 for the authorization code flow.",
    "Python 3.11.7, numpy 1.26.4, torch 2.3.1+cu121",
    "pip install 'pydantic>=2.7,<3' 'httpx==0.27.0'",
    "The batch size of 4096 fit in 24 GB of GPU memory.",
    "Vector dimension is 384 for MiniLM and 1024 for bge-large.",
    "Run `make test` before pushing; it takes about 90 seconds.",
    "The migration adds an index on (agent_id, session_id, ts).",
    "Please squash the fixup commits before merging.",
    "I think the cache key should include the embedder name.",
    "Good catch, the off-by-one is in the pagination cursor.",
    "We should log the request id, not the request body.",
    "This function is 80 lines long; could it be split in three?",
    "The key insight is that retries must be idempotent.",
    "Primary key is (note_id, version); the secondary index is on subject.",
    "keyboard shortcut: Ctrl+Shift+P opens the command palette",
    "Token budget per prompt: 2048; the summary uses at most 512 tokens.",
    "max_tokens=1024, temperature=0.2, top_p=0.95",
    "The monkey-patched secret manager in the tests is gone; we use a real Vault dev server.",
    "Our support hours are Monday to Friday, 08:00 to 18:00.",
    "The cluster has 16 nodes with 64 cores each, 1024 cores in total.",
    "kubectl get pods -n reverie -o wide",
    "kubectl create secret generic db-creds --from-file=./password.txt",
    "helm upgrade --install reverie ./chart --set image.tag=1.4.2",
    "terraform plan -out=tfplan && terraform apply tfplan",
    "aws s3 sync ./dist s3://acme-static-site --delete",
    "The S3 bucket acme-logs-eu-west-1 keeps 90 days of logs.",
    "gcloud config set project acme-prod-123456",
    "The region is eu-central-1 and the account alias is acme-prod.",
    "UUIDs like 123e4567-e89b-12d3-a456-426614174000 are fine to log.",
    "Docker image sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Coverage went from 81.4 % to 86.9 % with the new tests.",
    "The test suite has 1,482 tests; 12 are marked slow.",
    "ISBN 978-3-16-148410-0 is the example ISBN in most docs.",
    "Room 4.12 on the 4th floor, building B.",
    "We moved the standup from 9:15 to 9:30.",
    "The chart shows 3 peaks: 10:00, 14:00 and 21:00.",
    "Issue #1204: handle empty sessions without crashing",
    "Fixed in 2.4.1 (see #1187 and #1190).",
    "Our SLA is 99.9 %, about 43 minutes of downtime a month.",
    "The queue depth hit 12,000 messages during the backfill.",
    "Latency budget: 50 ms for retrieval, 200 ms end to end.",
    "A secret santa draw is planned for the team party on 12/19.",
    "The token ring network in the lab was decommissioned in 2003.",
    "She said the key to the server room is at the front desk.",
    "Pass the config object down instead of reading the environment.",
    "The passport photo requirements changed last year.",
    "Our keynote speaker joins at 10:45.",
    "The secretary approved the budget for Q3.",
    "Line 0151 of the CSV has a stray quote.",
    "The error budget is 0.1 % per 28 days.",
    "Build 20240611.3 is the release candidate.",
    "Version string 10.0.19045.4412 is Windows 10 22H2.",
    "He scored 030 on the first try and 089 on the second, out of 100.",
    "Timestamps are in milliseconds: 1718035200123.",
    "The product code is SKU-4412-BLUE-XL.",
    "SK hynix and Samsung supply the HBM stacks.",
    "AIzawa is the name of the new intern from the Osaka office.",
    "hf_transfer speeds up downloads from the Hub.",
]


# ---- dev templates (tuning only) -----------------------------------------------------------------

DEV_SECRET = [
    "config.set('google.maps_key', '<<google_api_key>>')",
    "Firebase web config: apiKey: \"<<google_api_key>>\", authDomain: \"acme.firebaseapp.com\"",
    "HUGGING_FACE_HUB_TOKEN=<<huggingface_token>>",
    "from huggingface_hub import login; login(\"<<huggingface_token>>\")",
    "twilio api:core:keys:create -> sid <<twilio_api_key>>",
    "Use the Twilio key <<twilio_api_key>> with the secret in 1Password.",
    "client = anthropic.Anthropic(api_key=\"<<anthropic_key>>\")",
    "CI_JOB_TOKEN is fine, but this one is a personal token: <<gitlab_token>>",
    "git push https://x-access-token:<<github_token>>@github.com/acme/site.git",
    "npm config set //registry.npmjs.org/:_authToken <<npm_token>>",
    "TWINE_PASSWORD=<<pypi_token>>",
    "DO_TOKEN = \"<<digitalocean_token>>\"",
    "shopify_access_token: <<shopify_token>>",
    "sendgrid key: <<sendgrid_key>>",
    "Authorization: Bearer <<databricks_token>>",
    "doppler configure set token <<doppler_token>>",
    "newman run collection.json --postman-api-key <<postman_key>>",
    "linear token <<linear_key>> belongs to the bot user",
    "curl -H \"Authorization: Bearer <<grafana_token>>\" https://grafana.example.net/api/dashboards",
    "NEW_RELIC_USER_KEY=\"<<new_relic_key>>\"",
    "pulumi login with token <<pulumi_token>>",
    "PLANETSCALE_SERVICE_TOKEN=<<planetscale_token>>",
    "confluence token <<atlassian_token>>",
    "square access token: <<square_token>>",
    "age -d -i key.txt secrets.age  # key.txt holds <<age_secret_key>>",
    "export VAULT_TOKEN='<<vault_token>>'",
    "TFE_TOKEN=<<terraform_token>>",
    "fly tokens create deploy -> <<flyio_token>>",
    "sentry auth token <<sentry_token>>",
    "gem signin with key <<rubygems_key>>",
    "clojars token: <<clojars_token>>",
    "readme key <<readme_key>>",
    "shippo token <<shippo_token>>",
    "AccessKeyId: <<alibaba_key>>",
    "prefect cloud login -k <<prefect_key>>",
    "sib_api_v3_sdk key <<brevo_key>>",
    "duffel token <<duffel_token>>",
    "easypost = EasyPostClient(\"<<easypost_key>>\")",
    "frame.io token <<frameio_token>>",
    "SCALINGO_API_TOKEN=<<scalingo_token>>",
    "Authorization: Bearer <<openshift_token>>",
    "clientSecret: <<azure_client_secret>>",
    "slack token <<slack_token>>",
    "STRIPE_KEY=\"<<stripe_key>>\"",
    "aws_access_key_id=<<aws_key>>",
    "export OPENAI_KEY=<<openai_key>>",
    "mailgun api key = <<mailgun_key>>",
    "bot = telebot.TeleBot(\"<<telegram_token>>\")",
    "\"private_key\": \"<<private_key>>\"",
    "the admin password is <<password>>",
    "Password for the build box: <<password>>",
    "pwd <<password>>",
    "sudo password = <<password>>",
    "I changed the vpn password to <<password>> yesterday.",
    "API token is <<password>> for now",
    "try pw=<<password>>",
    "Kennwort: <<password>>",
    "the passcode is <<password>>",
]

DEV_PII = [
    "Tel.: <<phone_de>>",
    "meine Handynummer ist <<phone_de>>",
    "ring <<phone_gb>> for the locksmith",
    "portable : <<phone_fr>>",
    "vendor helpline <<phone_in>>",
    "call <<phone_us>> for the on-call engineer",
    "ssn=<<ssn>>",
    "Employee SSN <<ssn>> missing from W-2",
    "NI number: <<uk_nino>>",
    "SIN: <<ca_sin>>",
    "numéro de sécu <<fr_nir>>",
    "IdNr <<de_tax_id>>",
    "aadhaar=<<aadhaar>>",
    "pay to <<iban>>",
    "card <<card_number>>",
    "mail <<email>>",
    # more draws of the national formats, for tuning
    "Festnetz <<phone_de>>, mobil <<phone_de_2>>",
    "Rückruf an <<phone_de>> erbeten",
    "landline <<phone_gb>>; mobile <<phone_gb_2>>",
    "tel <<phone_fr>> / <<phone_fr_2>>",
    "phone <<phone_in>> or <<phone_in_2>>",
    "office <<phone_us>>, cell <<phone_us_2>>",
    "accounts <<iban>> and <<iban_2>>",
    "IBAN <<iban>>",
    "cards on file: <<card_number>>, <<card_number_2>>",
    "ids: <<ssn>> <<ca_sin>> <<aadhaar>> <<de_tax_id>> <<fr_nir>> <<uk_nino>>",
]

DEV_CLEAN = [
    "The password field is optional when SSO is enabled.",
    "Tokens are refreshed 5 minutes before they expire.",
    "Please don't paste secrets into the chat; use the vault link.",
    "the secret is rotated every 30 days",
    "the password is case sensitive",
    "password reset links are valid for 24 hours",
    "token count: 1532 prompt + 211 completion",
    "key = cache_key(agent_id, session_id)",
    "secret_name = \"prod/db/password\"",
    "pw: ask Priya",
    "Could you add a test for the empty token case?",
    "This looks good to me; one question about the retry budget.",
    "nit: trailing whitespace on line 42",
    "I'd prefer a dataclass here over a dict.",
    "commit 9b2d1f0c7a6e5d4c3b2a19f8e7d6c5b4a3928170",
    "build 2024.06.11.4 deployed to staging",
    "Release 5.2.0 is scheduled for 2024-08-01.",
    "Job 7f3e2a1c finished with exit code 0 after 912 s.",
    "Order #558213 was refunded on 03/04/2024.",
    "p99 latency 1.84 s, p50 212 ms",
    "The tracking number is 9400 1000 0000 0000 0000 00.",
    "Unix epoch 1700000000 is 2023-11-14.",
    "10.0.0.12:6379 refused the connection",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "Use AIza-style keys only in the browser; restrict them by referrer.",
    "The hf_hub_download call caches files under ~/.cache/huggingface.",
    "SKU 4412-XL is out of stock.",
    "uuid 550e8400-e29b-41d4-a716-446655440000",
    "We ship to DE, FR, GB and the US.",
    "Page 030 of the manual explains the wiring.",
    "The 2024 budget is 1,250,000 EUR.",
    "Room 0151 is the server room.",
    "Meeting at 09:30, call dial-in code 4412 7781#",
    "The ISBN is 0-306-40615-2.",
    "Chapter 12, verse 34.",
    "python -m pytest -k token -x",
    "grep -rn password src/ | wc -l",
    "SELECT count(*) FROM users WHERE password_hash IS NULL;",
    "The key rotation job runs at 02:00 UTC.",
    "Coverage: 91.2 % (target 90 %).",
    "She passed the exam with 87 points.",
    "The pin on the map marks the data centre.",
    "Keyboard layout set to de-DE.",
    "Account number 12345678 at the sandbox bank is a test fixture.",
    "The invoice total is 4,216.80 USD.",
    "Throughput went from 1,200 to 3,400 requests per second.",
    "Set max_retries=5 and backoff=2.0.",
    "Secret Santa is on Friday.",
    "Token Ring and FDDI are historical LAN technologies.",
    "The API key header is named X-Api-Key.",
]


def build(seed: int, templates: list[str], clean: list[str]) -> list[dict[str, object]]:
    r = random.Random(seed)
    rows = [render(r, t) for t in templates] + [{"text": c, "canaries": [], "kinds": []} for c in clean]
    r.shuffle(rows)
    return rows


def main() -> None:
    write_jsonl("heldout_world.jsonl", build(3003, HELD_SECRET + HELD_PII, HELD_CLEAN))
    if DEV_SECRET:
        write_jsonl("dev_world.jsonl", build(4004, DEV_SECRET + DEV_PII, DEV_CLEAN))


if __name__ == "__main__":
    main()
