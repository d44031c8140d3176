"""Write the privacy corpus (dev.jsonl, heldout.jsonl) deterministically.

Every value is fake and generated here from a seeded ``random.Random``; card numbers pass Luhn and
IBANs pass mod-97 so that validating detectors are tested for real. The two halves use different
templates (phrasing, positions, separators, formats); only the value generators are shared.

Run from the repository root: ``python tests/data/privacy/make_corpus.py [--out DIR]``.
"""

from __future__ import annotations

import base64
import json
import random
import re
from collections.abc import Callable

from values import ALNUM as AL
from values import DG, HEX, UP, group, write_jsonl
from values import b64u as b64url
from values import pick as rs

FIRST = ["jane", "omar", "li", "priya", "lukas", "sofia", "mateo", "aiko", "noah", "fatima",
         "elena", "kwame", "ines", "raj", "hannah", "yusuf", "marta", "chen", "olivia", "tomas"]
LAST = ["doe", "haddad", "wei", "sharma", "becker", "rossi", "garcia", "tanaka", "smith",
        "khan", "petrova", "mensah", "silva", "patel", "mueller", "demir", "kowalska", "zhang"]
DOMAINS = ["acme.io", "example.com", "globex.net", "initech.dev", "mail.umbrella-corp.org",
           "contoso.co.uk", "hooli.xyz", "example.org"]
WORDS = ["orange", "falcon", "river", "copper", "violet", "maple", "thunder", "quartz", "harbor",
         "pepper", "silver", "nebula", "cactus", "lantern", "meadow", "ember"]

Out = tuple[str, str, str]  # (value to insert, canary substring, kind)


def luhn_complete(r: random.Random, prefix: str, length: int) -> str:
    body = prefix + rs(r, length - len(prefix) - 1, DG)
    for check in DG:
        if luhn_ok(body + check):
            return body + check
    raise AssertionError("unreachable")


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


# ---- canary generators -------------------------------------------------------------------------

def g_aws_key(r: random.Random, half: str) -> Out:
    prefix = "AKIA" if half == "dev" or r.random() < 0.5 else "ASIA"
    v = prefix + rs(r, 16, UP + DG)
    return v, v, "aws_key"


def g_aws_secret(r: random.Random, half: str) -> Out:
    v = rs(r, 40, AL + "/+")
    return v, v, "aws_secret"


def g_github_token(r: random.Random, half: str) -> Out:
    if half == "dev":
        v = "ghp_" + rs(r, 36)
    else:
        kind = r.choice(["pat", "pat", "gho", "ghs", "ghp"])
        v = ("github_pat_" + rs(r, 22) + "_" + rs(r, 59)) if kind == "pat" else f"{kind}_" + rs(r, 36)
    return v, v, "github_token"


def g_slack_token(r: random.Random, half: str) -> Out:
    if half == "dev" or r.random() < 0.4:
        v = f"xoxb-{rs(r, 12, DG)}-{rs(r, 13, DG)}-{rs(r, 24)}"
    else:
        v = f"xoxp-{rs(r, 12, DG)}-{rs(r, 12, DG)}-{rs(r, 13, DG)}-{rs(r, 32, HEX)}"
    return v, v, "slack_token"


def g_slack_webhook(r: random.Random, half: str) -> Out:
    v = f"https://hooks.slack.com/services/T{rs(r, 8, UP + DG)}/B{rs(r, 10, UP + DG)}/{rs(r, 24)}"
    return v, v, "slack_webhook"


def g_openai_key(r: random.Random, half: str) -> Out:
    if half == "dev":
        v = r.choice([
            "sk-" + rs(r, 20) + "T3BlbkFJ" + rs(r, 20),
            "sk-proj-" + rs(r, 60, AL + "-_") + rs(r, 4) + "T3BlbkFJ" + rs(r, 64, AL + "-_"),
        ])
    else:
        v = r.choice([
            "sk-proj-" + rs(r, 70, AL + "-_") + rs(r, 4) + "T3BlbkFJ" + rs(r, 70, AL + "-_"),
            "sk-svcacct-" + rs(r, 60, AL + "-_") + rs(r, 4) + "T3BlbkFJ" + rs(r, 60, AL + "-_"),
            "sk-" + rs(r, 48),
            "sk-" + rs(r, 32, HEX),
        ])
    return v, v, "openai_key"


def g_stripe_key(r: random.Random, half: str) -> Out:
    if half == "dev":
        v = r.choice(["sk_live_", "sk_live_", "rk_live_"]) + rs(r, 24)
    else:
        v = r.choice(["sk_live_51", "rk_live_51", "sk_test_51"]) + rs(r, 97)
    return v, v, "stripe_key"


def g_bearer_token(r: random.Random, half: str) -> Out:
    if half == "dev":
        v = rs(r, r.randint(32, 48), AL + "-._")
    else:
        v = r.choice([
            "ya29." + rs(r, 120, AL + "-_"),
            rs(r, 64, HEX),
            rs(r, 43, AL + "+/") + "=",
        ])
    return v, v, "bearer_token"


def g_jwt(r: random.Random, half: str) -> Out:
    alg = "HS256" if half == "dev" else r.choice(["RS256", "ES256"])
    header = {"alg": alg, "typ": "JWT"} if half == "dev" else {"alg": alg, "kid": rs(r, 12, HEX)}
    payload = {"sub": str(r.randint(1000, 99999)), "iat": 1710000000 + r.randint(0, 10**6),
               "exp": 1720000000 + r.randint(0, 10**6)}
    if half != "dev":
        payload["scope"] = "read:items write:items"
        payload["email_verified"] = True
    sig_len = 43 if alg == "HS256" else (342 if alg == "RS256" else 86)
    v = ".".join([b64url(json.dumps(header).encode()), b64url(json.dumps(payload).encode()),
                  rs(r, sig_len, AL + "-_")])
    return v, v, "jwt"


def pem(r: random.Random, label: str, lines: int, width: int = 64) -> list[str]:
    body = base64.b64encode(r.randbytes(lines * width * 3 // 4)).decode()
    rows = [body[i:i + width] for i in range(0, len(body), width)]
    return [f"-----BEGIN {label}-----", *rows, f"-----END {label}-----"]


def g_private_key(r: random.Random, half: str) -> Out:
    label = r.choice(["RSA PRIVATE KEY", "PRIVATE KEY"])
    v = "\n".join(pem(r, label, r.randint(4, 9)))
    return v, v, "private_key"


def g_private_key_json(r: random.Random, half: str) -> Out:
    v = "\\n".join(pem(r, "PRIVATE KEY", r.randint(5, 8))) + "\\n"
    return v, v.removesuffix("\\n"), "private_key"


def g_private_key_indent(r: random.Random, half: str) -> Out:
    rows = pem(r, r.choice(["EC PRIVATE KEY", "RSA PRIVATE KEY"]), r.randint(3, 6))
    v = "\n".join("    " + row for row in rows)
    return v, v.strip(), "private_key"


def g_private_key_openssh(r: random.Random, half: str) -> Out:
    v = "\n".join(pem(r, "OPENSSH PRIVATE KEY", r.randint(4, 7), width=70))
    return v, v, "private_key"


def g_private_key_encrypted(r: random.Random, half: str) -> Out:
    v = "\r\n".join(pem(r, "ENCRYPTED PRIVATE KEY", r.randint(4, 7)))
    return v, v, "private_key"


def g_password(r: random.Random, half: str) -> Out:
    symbols = "!#%*-_" if half == "dev" else "@^~.!$"
    v = r.choice([
        r.choice(WORDS).capitalize() + rs(r, 4, DG) + r.choice(symbols) + r.choice(WORDS),
        rs(r, r.randint(14, 24), AL + symbols),
        "-".join(r.choice(WORDS) for _ in range(4)) + rs(r, 2, DG),
    ])
    return v, v, "password"


def g_url_credentials(r: random.Random, half: str) -> Out:
    user = r.choice(["app", "admin", "svc_orders", "deploy", "etl-runner", "analytics"])
    pw = rs(r, r.randint(12, 20), AL + ("!*-_" if half == "dev" else "~.-"))
    v = f"{user}:{pw}"
    return v, v, "url_credentials"


def g_url_credentials_nouser(r: random.Random, half: str) -> Out:
    v = ":" + rs(r, r.randint(16, 28), AL)
    return v, v, "url_credentials"


def person(r: random.Random) -> tuple[str, str]:
    return r.choice(FIRST), r.choice(LAST)


def g_email(r: random.Random, half: str) -> Out:
    first, last = person(r)
    if half == "dev":
        local = r.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}_{last}{r.randint(1, 99)}"])
        v = f"{local}@{r.choice(DOMAINS)}"
    else:
        local = r.choice([f"{first}+alerts", f"{first.capitalize()}.{last.capitalize()}", f"{last}-{first}",
                          f"{first}{r.randint(1970, 2005)}"])
        v = f"{local}@{r.choice(['ops.', 'eu.', ''])}{r.choice(DOMAINS)}"
    return v, v, "email"


def g_email_sa(r: random.Random, half: str) -> Out:
    v = f"deployer-{r.randint(10, 99)}@acme-prod-{r.randint(1000, 9999)}.iam.gserviceaccount.com"
    return v, v, "email"


def g_phone(r: random.Random, half: str) -> Out:
    d = lambda n: rs(r, n, DG)  # noqa: E731
    area = str(r.randint(201, 989))
    dev = [f"+1 ({area}) 555-{d(4)}", f"({area}) 555-{d(4)}", f"+44 20 7946 {d(4)}",
           f"+49 30 {d(6)}", f"+1 {area} 555 {d(4)}"]
    held = [f"{area}.555.{d(4)}", f"+33 6 {d(2)} {d(2)} {d(2)} {d(2)}", f"+91 98{d(3)} {d(5)}",
            f"+81-3-{d(4)}-{d(4)}", f"+1{area}555{d(4)}", f"{area}-555-{d(4)}",
            f"+61 2 {d(4)} {d(4)}", f"+1-{area}-555-{d(4)}"]
    v = r.choice(dev if half == "dev" else held)
    return v, v, "phone"


def g_card_number(r: random.Random, half: str) -> Out:
    if half == "dev":
        pre, n = r.choice([("4", 16), ("51", 16), ("55", 16)])
        v = group(luhn_complete(r, pre, n), [4, 4, 4, 4], " ")
    else:
        choice = r.choice(["dash", "amex", "plain", "disc"])
        if choice == "amex":
            v = group(luhn_complete(r, r.choice(["34", "37"]), 15), [4, 6, 5], " ")
        elif choice == "plain":
            v = luhn_complete(r, r.choice(["4", "2221", "53"]), 16)
        else:
            pre = "6011" if choice == "disc" else r.choice(["4", "52"])
            v = group(luhn_complete(r, pre, 16), [4, 4, 4, 4], "-")
    return v, v, "card_number"


IBAN_BBAN = {  # country: list of (count, alphabet)
    "DE": [(18, DG)], "GB": [(4, UP), (14, DG)], "FR": [(10, DG), (11, UP + DG), (2, DG)],
    "NL": [(4, UP), (10, DG)], "ES": [(20, DG)], "IT": [(1, UP), (10, DG), (12, UP + DG)],
    "CH": [(5, DG), (12, UP + DG)], "BE": [(12, DG)], "PL": [(24, DG)], "AT": [(16, DG)],
}


def iban_for(r: random.Random, country: str) -> str:
    bban = "".join(rs(r, n, alpha) for n, alpha in IBAN_BBAN[country])
    digits = "".join(str(int(ch, 36)) for ch in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def g_iban(r: random.Random, half: str) -> Out:
    if half == "dev":
        iban = iban_for(r, r.choice(["DE", "GB", "FR"]))
        v = " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))
    else:
        iban = iban_for(r, r.choice(["NL", "ES", "IT", "CH", "BE", "PL", "AT"]))
        v = iban if r.random() < 0.6 else " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))
    return v, v, "iban"


CANARY: dict[str, Callable[[random.Random, str], Out]] = {
    name.removeprefix("g_"): fn for name, fn in globals().items()
    if name.startswith("g_") and callable(fn)
}


# ---- filler generators (never secrets) ----------------------------------------------------------

def bad_card(r: random.Random) -> str:
    digits = luhn_complete(r, r.choice(["4", "5", "6"]), 16)
    return digits[:-1] + str((int(digits[-1]) + r.randint(1, 9)) % 10)


FILL: dict[str, Callable[[random.Random], str]] = {
    "sha": lambda r: rs(r, 40, HEX),
    "short_sha": lambda r: rs(r, 7, HEX),
    "sha256": lambda r: rs(r, 64, HEX),
    "md5": lambda r: rs(r, 32, HEX),
    "hex32": lambda r: rs(r, 32, HEX),
    "hex16": lambda r: rs(r, 16, HEX),
    "hex2": lambda r: rs(r, 2, "0123456789ABCDEF"),
    "uuid": lambda r: "-".join(rs(r, n, HEX) for n in (8, 4, 4, 4, 12)),
    "ts": lambda r: f"2024-0{r.randint(1, 9)}-{r.randint(10, 28)}T{r.randint(10, 23)}:"
                    f"{r.randint(10, 59)}:{r.randint(10, 59)}.{r.randint(100, 999)}Z",
    "date": lambda r: f"202{r.randint(3, 5)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "date_compact": lambda r: f"2024{r.randint(1, 12):02d}{r.randint(1, 28):02d}",
    "ver": lambda r: f"{r.randint(0, 4)}.{r.randint(0, 30)}.{r.randint(0, 12)}",
    "port": lambda r: str(r.choice([8000, 8080, 5432, 6379, 9090, 3000, 4242, 8443])),
    "int": lambda r: str(r.randint(100, 99999)),
    "int5": lambda r: f"{r.randint(0, 99999):05d}",
    "small": lambda r: str(r.randint(1, 12)),
    "float": lambda r: f"{r.uniform(0, 100):.3f}",
    "sci": lambda r: f"{r.uniform(1, 9):.1f}e-{r.randint(3, 6)}",
    "o": lambda r: str(r.randint(0, 254)),
    "mm": lambda r: f"{r.randint(0, 59):02d}",
    "hexcolor": lambda r: "#" + rs(r, 6, HEX),
    "order": lambda r: f"ORD-{r.randint(2019, 2025)}-{r.randint(0, 999999):06d}",
    "acct": lambda r: rs(r, 12, DG),
    "bad_card": lambda r: group(bad_card(r), [4, 4, 4, 4], " "),
    "bad_card_dash": lambda r: group(bad_card(r), [4, 4, 4, 4], "-"),
    "name": lambda r: " ".join(p.capitalize() for p in person(r)),
    "repo": lambda r: r.choice(["billing", "web", "infra", "reverie", "edge-proxy", "ml-jobs"]),
    "mod": lambda r: r.choice(["store", "consolidate", "extract", "routes", "pool"]),
    "func": lambda r: r.choice(["apply_batch", "_commit", "handle", "run_once"]),
    "ns": lambda r: r.choice(["default", "staging", "prod-eu", "observability"]),
    "path": lambda r: r.choice(["src/app/main.py", "reverie/store/notes.py", "web/src/App.tsx",
                                "infra/terraform/main.tf", "tests/test_api.py"]),
    "word": lambda r: r.choice(WORDS),
    "last4": lambda r: rs(r, 4, DG),
}

FIELD = re.compile(r"<<([a-z0-9_]+?)(?:_\d)?>>")


def render(r: random.Random, half: str, template: str) -> dict[str, object]:
    canaries: list[str] = []
    kinds: list[str] = []

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in CANARY:
            value, canary, kind = CANARY[name](r, half)
            canaries.append(canary)
            kinds.append(kind)
            return value
        return FILL[name](r)

    text = FIELD.sub(sub, template)
    return {"text": text, "canaries": canaries, "kinds": kinds}


# ---- dev templates ------------------------------------------------------------------------------

DEV_SECRET = [
    "$ cat .env\nAWS_ACCESS_KEY_ID=<<aws_key>>\nAWS_SECRET_ACCESS_KEY=<<aws_secret>>\nAWS_DEFAULT_REGION=us-east-1",
    "[default]\naws_access_key_id = <<aws_key>>\naws_secret_access_key = <<aws_secret>>\nregion = eu-west-1",
    "I found this key in the CI logs: <<aws_key>>. Should I rotate it?",
    "s3 = boto3.client('s3', aws_access_key_id='<<aws_key>>', aws_secret_access_key='<<aws_secret>>')",
    "botocore.exceptions.ClientError: An error occurred (InvalidClientTokenId) when calling the "
    "GetCallerIdentity operation: The security token included in the request is invalid (key <<aws_key>>)",
    "git remote set-url origin https://<<github_token>>@github.com/acme/api.git",
    "export GITHUB_TOKEN=<<github_token>>",
    "gh auth status\n  ✓ Logged in to github.com as octo-dev (keyring)\n  ✓ Token: <<github_token>>",
    "use this token for the API calls: <<github_token>> (expires in 30 days)",
    "SLACK_BOT_TOKEN=<<slack_token>>",
    "slack_sdk.errors.SlackApiError: The request to the Slack API failed. (url: https://www.slack.com/api/"
    "chat.postMessage, token: <<slack_token>>)\nThe server responded with: {'ok': False, 'error': 'invalid_auth'}",
    "client = WebClient(token=\"<<slack_token>>\")",
    "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy done\"}' <<slack_webhook>>",
    "notify:\n  slack_webhook_url: <<slack_webhook>>\n  channel: \"#deploys\"",
    "OPENAI_API_KEY=<<openai_key>>",
    "openai.AuthenticationError: Error code: 401 - Incorrect API key provided: <<openai_key>>.",
    "client = OpenAI(api_key=\"<<openai_key>>\")",
    "stripe.api_key = \"<<stripe_key>>\"",
    "STRIPE_SECRET_KEY=<<stripe_key>>",
    "Test with the live key <<stripe_key>> only after staging passes.",
    "curl -s -H \"Authorization: Bearer <<bearer_token>>\" https://api.internal.example.com/v2/jobs",
    "> GET /v1/users/me HTTP/1.1\n> Host: api.example.com\n> Authorization: Bearer <<bearer_token>>\n> Accept: */*",
    "requests.get(url, headers={\"Authorization\": \"Bearer <<bearer_token>>\"}, timeout=10)",
    "id_token=<<jwt>>",
    "DEBUG auth.middleware: decoded session cookie <<jwt>> for user 4821",
    "Set-Cookie: session=<<jwt>>; Path=/; HttpOnly; Secure",
    "Here is the deploy key from the server:\n<<private_key>>\nAdd it to ~/.ssh/id_rsa and chmod 600.",
    "$ cat certs/server.key\n<<private_key>>",
    "DB_PASSWORD=<<password>>",
    "database:\n  host: db.internal\n  user: app\n  password: \"<<password>>\"",
    "{\"username\": \"svc-deploy\", \"password\": \"<<password>>\"}",
    "SECRET_KEY = '<<password>>'",
    "api_key = \"<<password>>\"  # TODO move to vault",
    "DATABASE_URL=postgres://<<url_credentials>>@db.prod.internal:5432/orders",
    "engine = create_engine(\"mysql+pymysql://<<url_credentials>>@mysql.local/shop\")",
    "REDIS_URL=redis://<<url_credentials_nouser>>@cache:6379/0",
    "mongodb+srv://<<url_credentials>>@cluster0.ab1cd.mongodb.net/?retryWrites=true",
]

DEV_PII = [
    "commit <<sha>>\nAuthor: <<name>> <<<email>>>\nDate:   Mon Mar 4 10:22:31 2024 +0100\n\n    Fix flaky retry test",
    "Please send the invoice to <<email>> by Friday.",
    "ValueError: user <<email>> already exists in tenant acme",
    "Customer callback number: <<phone>>",
    "contact:\n  name: <<name>>\n  phone: \"<<phone>>\"\n  email: <<email>>",
    "He said to call him at <<phone>> if the deploy fails again.",
    "payment failed for card <<card_number>> (exp 04/27): insufficient_funds",
    "{\"card\": \"<<card_number>>\", \"amount\": 1999, \"currency\": \"usd\"}",
    "The customer read their card number over chat: <<card_number>>",
    "Refund to IBAN <<iban>> approved by finance.",
    "beneficiary:\n  name: <<name>>\n  iban: <<iban>>\n  bic: DEUTDEFF",
    "SEPA transfer rejected: account <<iban>> is closed (code AC04)",
]

DEV_CLEAN = [
    "commit <<sha>>\nMerge: <<short_sha>> <<short_sha_2>>\nDate:   Tue Apr 9 14:02:11 2024 +0200\n\n"
    "    Merge branch 'feature/retry-backoff'",
    "<<ts>> INFO  worker-3 processed batch <<uuid>> in <<int>> ms",
    "Successfully installed numpy-<<ver>> pandas-<<ver_2>> pyarrow-<<ver_3>>",
    "  File \"/home/dev/projects/reverie/src/<<mod>>.py\", line <<int>>, in <<func>>\n    raise KeyError(key)\n"
    "KeyError: 'session_id'",
    "Listening on http://0.0.0.0:<<port>> (press CTRL+C to quit)",
    "The password reset email is sent only after the token is validated; never log the password itself.",
    "Rotate the API key every 90 days and store secrets in the vault, not in the repo.",
    "password = os.environ[\"DB_PASSWORD\"]",
    "api_key: ${OPENAI_API_KEY}",
    "Order <<order>> shipped on <<date>> - total 1,249.50 EUR",
    "Set the accent color to <<hexcolor>> and the border to <<hexcolor_2>>.",
    "request_id=<<uuid>> status=200 duration=<<float>>s bytes=<<int>>",
    "Tracking id <<bad_card>> was not found in the warehouse system",
    "docker pull ghcr.io/acme/api@sha256:<<sha256>>",
    "PID <<int>> exited with code 137 (OOMKilled) after 00:<<mm>>:<<mm_2>>",
    "Running pytest with seed <<int>>: 412 passed, 3 skipped in <<float>>s",
    "git clone git@github.com:acme/<<repo>>.git",
    "@pytest.fixture\ndef client(tmp_path):\n    return TestClient(app)",
    "Bump lodash from 4.17.20 to 4.17.21 in /frontend (#<<int>>)",
    "loss=<<float>> lr=<<sci>> step=<<int>> epoch=<<small>>",
    "IAM access key IDs start with AKIA; temporary ones start with ASIA.",
    "Use `Authorization: Bearer <token>` for every request; the token is issued by /oauth/token.",
    "arn:aws:iam::<<acct>>:role/ci-deploy assumed by session <<uuid>>",
    "ETag: \"<<md5>>\" Last-Modified: Fri, 15 Mar 2024 10:22:31 GMT",
    "Version 2.14.0-rc.1 released on <<date>>; see CHANGELOG.md for details.",
    "secret_key = settings.SECRET_KEY",
    "The JWT contains three base64url parts separated by dots; never paste one into chat.",
    "kubectl get pods -n <<ns>>\nNAME                      READY   STATUS    RESTARTS   AGE\n"
    "api-7d9f8b6c5-x2k4p        1/1     Running   0          3d4h",
    "SELECT id, created_at FROM orders WHERE id > <<int>> AND created_at > '<<date>>' LIMIT 50;",
    "ip=10.<<o>>.<<o_2>>.<<o_3>> port=<<port>> rtt=<<float>>ms",
    "Lines <<int>>-<<int_2>> of <<path>> were reformatted by black <<ver>>.",
    "Phone numbers must be stored in E.164 format; the validator rejects anything else.",
    "cpu: 500m\nmemory: 2Gi\nreplicas: <<small>>",
    "ISBN 978-0-596-52068-7 is listed twice in the catalogue.",
    "Card numbers are validated with the Luhn algorithm before tokenization.",
]

# ---- held-out templates (different phrasing, formats, positions, separators) ------------------

HELD_SECRET = [
    "aws configure set aws_access_key_id <<aws_key>> && aws configure set aws_secret_access_key <<aws_secret>>",
    "{\n  \"Credentials\": {\n    \"AccessKeyId\": \"<<aws_key>>\",\n    \"SecretAccessKey\": \"<<aws_secret>>\",\n"
    "    \"Expiration\": \"<<ts>>\"\n  }\n}",
    "provider \"aws\" {\n  region     = \"eu-west-1\"\n  access_key = \"<<aws_key>>\"\n  secret_key = \"<<aws_secret>>\"\n}",
    "<<aws_key>> was used from an unknown IP at <<ts>>; GuardDuty finding UnauthorizedAccess:IAMUser",
    "apiVersion: v1\nkind: Secret\nstringData:\n  AWS_ACCESS_KEY_ID: <<aws_key>>\n  AWS_SECRET_ACCESS_KEY: <<aws_secret>>",
    "[url \"https://oauth2:<<github_token>>@github.com/\"]\n\tinsteadOf = https://github.com/",
    "//npm.pkg.github.com/:_authToken=<<github_token>>",
    "curl -H \"Authorization: token <<github_token>>\" https://api.github.com/user/repos",
    "The PAT (<<github_token>>) has repo and workflow scopes; revoke it after the migration.",
    "- uses: actions/checkout@v4\n  with:\n    token: <<github_token>>",
    "curl -H 'Authorization: Bearer <<slack_token>>' https://slack.com/api/auth.test",
    "[slack]\nuser_token = \"<<slack_token>>\"\nchannel = \"C04ABCD1234\"",
    "<<slack_token>> <- this is the token the bot used before the scope change",
    "requests.post(\"<<slack_webhook>>\", json={\"text\": msg})",
    "alertmanager receiver 'ops' -> api_url: '<<slack_webhook>>'",
    "export OPENAI_API_KEY='<<openai_key>>'",
    "Incorrect API key provided: <<openai_key>>. You can find your API key at "
    "https://platform.openai.com/account/api-keys.",
    "llm:\n  provider: openai\n  key: <<openai_key>>\n  model: gpt-4o-mini",
    "// TODO: remove before commit\nconst openai = new OpenAI({ apiKey: '<<openai_key>>' });",
    "Stripe::StripeClient.new(\"<<stripe_key>>\")",
    "stripe listen --api-key <<stripe_key>> --forward-to localhost:4242/webhook",
    "{\"error\": {\"type\": \"invalid_request_error\", \"message\": \"Invalid API Key provided: <<stripe_key>>\"}}",
    "  :method: GET\n  :path: /api/v3/items\n  authorization: bearer <<bearer_token>>\n  user-agent: python-httpx/0.27.0",
    "fetch(url, { headers: { 'Authorization': `Bearer <<bearer_token>>` } })",
    "Proxy-Authorization: Bearer <<bearer_token>>",
    "WARN upstream rejected token (401): Authorization=Bearer <<bearer_token>>",
    "Authorization: Bearer <<jwt>>",
    "localStorage.setItem('access_token', '<<jwt>>')",
    "jwt.exceptions.ExpiredSignatureError: Signature has expired (token=<<jwt>>)",
    "{\"access_token\":\"<<jwt>>\",\"token_type\":\"Bearer\",\"expires_in\":3600}",
    "{\n  \"type\": \"service_account\",\n  \"project_id\": \"acme-prod-4821\",\n  \"private_key_id\": \"<<sha>>\",\n"
    "  \"private_key\": \"<<private_key_json>>\",\n  \"client_email\": \"<<email_sa>>\"\n}",
    "tls:\n  key: |\n<<private_key_indent>>\n  cert: tls.crt",
    "ssh-keygen wrote the new key; contents of id_ed25519 follow\n<<private_key_openssh>>\n(end of file)",
    "the encrypted key (passphrase is in 1Password) is: <<private_key_encrypted>>",
    "mysql -h 10.0.0.5 -u root --password=<<password>> shop < dump.sql",
    "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password><<password>></password>\n</server>",
    "spring.datasource.password=<<password>>",
    "Server=tcp:sql01.corp.local,1433;Database=crm;User Id=sa;Password=<<password>>;Encrypt=True;",
    "PGPASSWORD='<<password>>' psql -h localhost -U postgres -c 'select 1'",
    "export API_SECRET=\"<<password>>\"",
    "client_secret: <<password>>",
    "jdbc:postgresql://pg.internal:5432/ledger?user=ledger_rw&password=<<password>>&ssl=true",
    "amqp://<<url_credentials>>@rabbitmq.svc.cluster.local:5672/%2F",
    "git clone https://<<url_credentials>>@gitlab.example.com/platform/infra.git",
    "CELERY_BROKER_URL = 'redis://<<url_credentials_nouser>>@10.2.0.15:6379/1'",
    "ftp://<<url_credentials>>@files.partner.example:21/outbound/",
    "postgresql+asyncpg://<<url_credentials>>@localhost/test_db failed: connection refused",
]

HELD_PII = [
    "<a href=\"mailto:<<email>>\">Contact support</a>",
    "{\"id\": <<int>>, \"email\": \"<<email>>\", \"role\": \"admin\"}",
    "Signed-off-by: <<name>> <<<email>>>",
    "<<email>> reported that the export button does nothing on Safari",
    "cc: <<email>>; <<email_2>>",
    "SMS verification sent to <<phone>>",
    "| <<name>> | <<phone>> | on-call |",
    "<a href=\"tel:<<phone>>\">Call us</a>",
    "{\"phone_number\": \"<<phone>>\", \"verified\": false}",
    "Card: <<card_number>>  CVV: ***  Exp: 11/26",
    "{\"pan\":\"<<card_number>>\",\"last4\":\"<<last4>>\"}",
    "customer typed <<card_number>> into the notes field",
    "IBAN: <<iban>>\nBIC: INGBNL2A",
    "Überweisung an <<iban>> (Verwendungszweck: Rechnung 2024-118)",
    "payout_account=<<iban>>; status=pending",
    "Please wire the deposit to <<iban>> before the 15th.",
]

HELD_CLEAN = [
    "<<short_sha>> (HEAD -> main, origin/main) fix: handle empty batch in consolidator",
    "[<<ts>>] [WARNING] retry 3/5 for job <<uuid>> after <<float>>s backoff",
    "pip install 'torch==<<ver>>' 'transformers>=<<ver_2>>'",
    "Traceback (most recent call last):\n  File \"/usr/lib/python3.11/asyncio/runners.py\", line <<int>>, in run\n"
    "    return loop.run_until_complete(main)\nTimeoutError",
    "server started pid=<<int>> addr=127.0.0.1:<<port>> workers=<<small>>",
    "If the password field is empty the form shows \"Password is required\" under the input.",
    "We never store the access token; only its SHA-256 hash is persisted.",
    "DB_PASSWORD: {{ .Values.db.password }}",
    "token = get_token(scope=\"read\")",
    "invoice INV-2024-<<int5>> due <<date>> amount 3,480.00",
    "background: <<hexcolor>>; color: <<hexcolor_2>>; border-radius: 4px;",
    "trace_id=<<hex32>> span_id=<<hex16>> parent=<<hex16_2>>",
    "Reference number <<bad_card_dash>> does not match any shipment",
    "FROM python:3.11-slim@sha256:<<sha256>>",
    "Killed: process <<int>> used <<float>> GiB (limit 4 GiB) after <<mm>>m<<mm_2>>s",
    "===== 128 passed, 2 xfailed, 1 warning in <<float>>s =====",
    "remote.origin.url=git@gitlab.com:platform/<<repo>>.git",
    "npm install @types/node@<<ver>> --save-dev",
    "Merged PR #<<int>>: upgrade grpcio to <<ver>>",
    "epoch <<small>>/<<int>>: val_acc=<<float>> val_loss=<<float_2>>",
    "GitHub fine-grained tokens begin with github_pat_, classic ones with ghp_.",
    "401 Unauthorized: missing Authorization header (expected Bearer scheme)",
    "account id <<acct>> / region eu-central-1 / bucket acme-artifacts-<<int>>",
    "Content-MD5: <<md5>> Content-Length: <<int>>",
    "v3.2.1 (build <<date_compact>>.<<small>>) - 14 files changed, 233 insertions(+), 41 deletions(-)",
    "password = config.get(\"database\", \"password\")",
    "Slack tokens start with xoxb- for bots and xoxp- for users; ours live in the secrets manager.",
    "NAMESPACE   NAME   TYPE        CLUSTER-IP      PORT(S)\ndefault     api    ClusterIP   10.96.<<o>>.<<o_2>>   "
    "<<port>>/TCP",
    "UPDATE users SET last_login = '<<ts>>' WHERE id = <<int>>;",
    "mac=00:1A:2B:<<hex2>>:<<hex2_2>>:<<hex2_3>> vlan=<<small>> mtu=1500",
    "<<path>>:<<int>>:<<small>>: E501 line too long (<<int_2>> > 100 characters)",
    "Email addresses are lower-cased before they are compared.",
    "resources:\n  limits:\n    cpu: \"2\"\n    memory: 4096Mi",
    "timestamp 1710498123456 (ms) converted to <<ts>>",
    "IBANs are checked with mod-97 before the payout is queued.",
    "The secret manager rotated 14 credentials on <<date>>; no action needed.",
    "session <<uuid>> idle for <<int>> s; closing websocket 1000",
]


def build(half: str, seed: int, canary_templates: list[str], clean: list[str]) -> list[dict[str, object]]:
    r = random.Random(seed)
    rows = [render(r, half, t) for t in canary_templates for _ in range(2)]
    rows += [render(r, half, t) for t in clean for _ in range(3)]
    r.shuffle(rows)
    return rows


def main() -> None:
    write_jsonl("dev.jsonl", build("dev", 1001, DEV_SECRET + DEV_PII, DEV_CLEAN))
    write_jsonl("heldout.jsonl", build("heldout", 2002, HELD_SECRET + HELD_PII, HELD_CLEAN))


if __name__ == "__main__":
    main()
