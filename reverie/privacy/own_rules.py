"""Our own secret patterns, for what neither gitleaks' rule set (:mod:`reverie.privacy.ruleset`)
nor detect-secrets' plugins cover: PEM and PuTTY private-key blocks over many lines (also
JSON-escaped), AWS secret keys by their key name, ``password = ...`` assignments in code, config and
env files (and as env name/value pairs, or as a call's default: ``define('DB_PASSWORD', '…')``),
credential files (``.netrc``, ``.pgpass``), credentials in URLs, Go's MySQL DSNs and SQL
(``IDENTIFIED BY``), base64 PEM keys, registry ``auth`` entries, bearer and token headers (also a
variable later sent as a bearer token). Provider token formats are in
:mod:`reverie.privacy.providers`, credentials on command lines in :mod:`reverie.privacy.commands`.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Detector, Finding, Locate, PatternDetector, Span, value_group, whole_match
from reverie.privacy.sql_inserts import sql_fields
from reverie.privacy.values import (
    NOT_A_CREDENTIAL_NAME,
    bare_secret,
    case_noise,
    code_reference,
    generated,
    in_arn,
    literal_secret,
    random_like,
    without_open_closers,
    word_and_number,
    word_passphrase,
    yaml_tag,
)

# RFC 7468 (textual encodings: PEM) and OpenSSH PROTOCOL.key; JSON escapes as in GCP key files.
PEM_BODY = r"(?:[A-Za-z0-9+/=\s:,.\-]|\\[rn])"
# A block in a JSON string keeps its final newline, escaped (a GCP key file's ``"-----END PRIVATE
# KEY-----\\n"``): the key's own last character, masked with it.
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN (?P<kind>[A-Z0-9 ]{0,30}PRIVATE KEY(?: BLOCK)?)-----"
    rf"(?:{PEM_BODY}*?-----END (?P=kind)-----(?:\\n(?=\"))?|{PEM_BODY}*)"
)
# A PEM block in base64, as kubeconfig's ``client-key-data`` and Kubernetes Secrets' ``data`` hold
# it: base64 of "-----BEGIN " is "LS0tLS1CRUdJTi"; the block decodes to a private key's BEGIN line.
BASE64_PEM = re.compile(r"(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}")
# PuTTY's PPK file format (PuTTY manual, appendix C).
PUTTY_KEY = re.compile(r"PuTTY-User-Key-File-\d:.*?Private-MAC: [0-9a-fA-F]+", re.DOTALL)
# AWS secret access keys: 40 base64 characters, found by their key name (AWS IAM user guide), also
# as ``aws configure`` prompts for it with the current value in brackets (AWS CLI user guide,
# "Configuration basics": ``AWS Secret Access Key [None]: …``).
AWS_SECRET = re.compile(
    r"(?i)secret[_\- ]?(?:access[_\- ]?)?key(?:[ \t]+\[[^\]\n]{1,40}\])?[\"'`]?(?:[ \t]*(?::=|=>|[:=])[ \t]*|[ \t]+)[\"'`]?"
    r"(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
# A 40-character secret under a plain "secret" name, beside an access key id (AKIA long-term,
# ASIA temporary): the pair an AWS SDK logs or an env dump prints.
PAIRED_AWS_SECRET = re.compile(r"(?i)\bsecret[\"'`]?[ \t]*[:=][ \t]*[\"'`]?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")
AWS_KEY_ID = re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b")
# The secret in an environment variable's name/value pair (Kubernetes' ``env: - name:
# AWS_SECRET_ACCESS_KEY value: …``, ECS task definitions), as NAMED_ENV_VALUE finds any secret.
NAMED_AWS_SECRET = re.compile(
    r"(?i)\bname[\"']?[ \t]*[:=][ \t]*[\"']?[\w.\-]*secret[_\-]?access[_\-]?key[\"']?[ \t]*,?\s{0,40}?-?[ \t]*"
    r"[\"']?value[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
# The id and the secret joined by "/" or ":", as a credentials string is logged or put in a Hadoop
# ``s3a://ID:SECRET@bucket`` URI (Apache Hadoop, "Hadoop-AWS module: authenticating with S3"), or
# written as a pair in prose ("mit ASIA… / SECRET").
JOINED_AWS_SECRET = re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}[ \t]*[/:][ \t]*(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")
# The header name, then ":" or "=" (HTTP, code), or only spaces: the server configs that set the
# header, nginx's ``proxy_set_header Authorization "Basic …"`` (nginx.org, ngx_http_proxy_module)
# and Apache's ``RequestHeader set Authorization "Basic …"`` (httpd.apache.org, mod_headers); or a
# header as a name/value record, as HAR files (HAR 1.2, "headers": ``{"name": …, "value": …}``) and
# Postman collections (``{"key": …, "value": …}``) hold them.
AUTHORIZATION = (r"\b(?:proxy-)?authorization\b[\"'`]?(?:[ \t]*[:=][ \t]*|[ \t]+|[ \t]*,\s{0,40}[\"']value[\"'][ \t]*:[ \t]*)"
                 r"[\"'`]?[ \t]*")
# RFC 6750 bearer tokens in Authorization headers.
BEARER = re.compile(
    rf"(?i)(?:{AUTHORIZATION}(?:bearer|token)"
    r"|\bbearer)[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"
)
# Token and key headers, ``X-Api-Token: …``, ``X-Auth-Token: …`` (OpenStack Keystone, many APIs),
# ``X-Api-Key: …``: a bearer token under another header name; also as the headers of a copied request
# hold it: a JSON member (Chrome's "Copy as fetch"), a PowerShell hashtable's entry ("Copy as PowerShell":
# ``"x-api-key"="…"``), a HAR header record (``{"name": "x-api-key", "value": "…"}``).
TOKEN_HEADER = re.compile(
    r"(?i)(?<![\w\-])(?P<name>x-[\w\-]*(?:token|key))"
    r"(?:[ \t]*:[ \t]*|[\"'][ \t]*(?::|=|,\s{0,40}[\"']value[\"'][ \t]*:)[ \t]*[\"'])(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)")
# RFC 7617 Basic credentials (base64 of user:password) in Authorization headers.
BASIC_AUTH = re.compile(rf"(?i){AUTHORIZATION}basic[ \t]+(?P<v>[A-Za-z0-9\-._~+/]{{16,}}=*)")
# Docker's and Podman's registry credentials (``~/.docker/config.json``, ``auth.json``): ``"auth":``
# and the base64 of ``user:password``, as in a Basic header.
REGISTRY_AUTH = re.compile(r"(?i)[\"']auth[\"'][ \t]*:[ \t]*[\"'](?P<v>[A-Za-z0-9+/]{12,}={0,2})[\"']")
# RFC 3986 section 3.2.1: userinfo in a URI. RFC 3986 wants "#" and "@" in a password percent-encoded,
# but connection strings are written by hand (``postgresql://app:Tundra#baikal78@db:5432/app``,
# ``postgres://app:P@nd@.21@db/app``): the password runs to the last "@" before the host, over "#" and "@".
URL_CREDENTIALS = re.compile(
    r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://(?P<v>[^\s:/?#@\"'<>]*:(?P<pw>[^\s/?\"'<>]+))@(?=[\w\[.\-])"
)
# "psk": the WPA pre-shared key of wpa_supplicant.conf(5) and NetworkManager's 802-11-wireless-security.
# keytool's "-storepass", "-keypass", "-srcstorepass" (keytool reference, JDK docs).
PASSWORD_WORD = (
    r"pass(?:word|wd|phrase)|(?<![a-z])pass|(?<=db|pg)pass|(?<=store)pass|(?<=key)pass|(?<![a-z])pwd"
    # "PW" as a whole word of the name (docker-selenium's and the VNC images' ``VNC_PW``, ``ADMIN_PW``)
    r"|(?<![a-z])pw(?![a-z])"
)
SECRET_KEYWORD = (
    rf"{PASSWORD_WORD}|(?<![a-z])psk"
    r"|secret|token"
    r"|(?:api|access|secret|auth|private|client|signing|encryption|master|license|app|consumer)"
    r"[_\-]?key"
)
# The word "password" in the languages of the prose rules (``SMTP_PASSWORT``, ``DB_CONTRASENA``,
# ``SMTP_JELSZO``), as the word itself or in ASCII; a pattern of its own, with its own triggers, so
# that the English one stays as short as it was.
WORLD_PASSWORD_WORD = (
    r"passwort|kennwort|contrase(?:n|ñ)a|contrasenya|senha|wachtwoord|jelsz[oó]|salasana|has[łl]o|heslo|parola"
    r"|[şs]ifre|l[öo]senord|passord|adgangskode|mot_?de_?passe|geslo|lozinka|parool"
)
WORLD_PASSWORD_TRIGGERS = ("passwort", "kennwort", "contrase", "senha", "wachtwoord", "jelsz", "salasana", "hasło",
                           "haslo", "heslo", "parol", "ifre", "senord", "passord", "adgangskode", "passe", "geslo",
                           "lozinka")
PASSWORD_NAME = re.compile(rf"(?i)(?:{PASSWORD_WORD}|{WORLD_PASSWORD_WORD})")


def assignment(keyword: str) -> re.Pattern[str]:
    """key = value in code, env files (dotenv), YAML, INI, JSON and connection strings; ``--key value``
    on a command line, where the value is the word up to the next space (``-storepass ab1&``), or
    to a ";", "|" or "&&" that ends the command; the key ends in ``keyword``."""
    return re.compile(
        rf"(?i)(?<![\w.\-])(?P<dash>--?)?(?P<key>[\w.\-]*?(?:{keyword}))[\"'`]?\]?"
        r"(?P<sep>[ \t]*(?::=|=>|==?|:)[ \t]*|(?(dash)[ \t]+|(?!)))"
        r"(?:\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|`(?P<bq>[^`\n]{1,256})`"
        r"|(?P<bare>(?(dash)(?:[^\s\"'`<>;|&]|&(?!&))|(?:[^\s\"'`,;&<>]|[,;&](?![ \t]|[\w.\-]+=|$))){1,256}))"
    )


ASSIGNMENT = assignment(SECRET_KEYWORD)
# The start of a line of an env file, before its key (a dotenv line, ``export KEY=…``, a Compose list item).
ENV_LINE_START = re.compile(r"[ \t]*(?:export[ \t]+|-[ \t]+)?")
WORLD_ASSIGNMENT = assignment(WORLD_PASSWORD_WORD)
# "login admin / PASSWORD", "user: admin / PASSWORD": a user name, a slash, then the password.
LOGIN_SLASH_PASSWORD = re.compile(
    r"(?i)\b(?:login|user(?:name)?|credentials?|creds)\b(?:[ \t]+(?:is|are|was))?[ \t]*:?[ \t]*[\w.@\-]+[ \t]+/[ \t]+"
    r"(?P<v>[^\s,;]{6,64})"
)
# Credentials named earlier on the line, then "user / PASSWORD" ("shared the admin creds in the
# vault, for now it's admin / PASSWORD"), or an administrator's account ("the staging admin is admin /
# PASSWORD"); the value must then look generated, or be a word and a number.
CREDENTIALS_THEN_SLASH = re.compile(
    r"(?i)\b(?:login|user(?:name)?|credentials?|creds|admin(?:istrator)?|root)\b"
    r"[^\n/]{0,80}?[ \t][\w.@\-]+[ \t]+/[ \t]+(?P<v>[^\s,;]{6,64})"
)
# Credentials as ``user:password`` after a word that says so ("creds: admin:PASSWORD", "login
# root:PASSWORD"), as curl's ``-u`` and HTTP Basic write them (RFC 7617).
CREDENTIALS_COLON = re.compile(
    r"(?i)\b(?:login|credentials?|creds)\b(?:[ \t]+(?:is|are|was))?[ \t]*[:=]?[ \t]*[\w.@\-]+:"
    r"(?!//)(?P<v>[^\s,;:]{6,64})(?![^\s,;])"  # not a URL's "https://"
)
# A call whose first argument names a secret and whose second is its value: PHP's ``define(
# 'DB_PASSWORD', '…')`` (php.net, "define"; WordPress's wp-config.php), a lookup's default, Ruby's
# ``ENV.fetch('DB_PASSWORD', '…')`` (ruby-doc.org, "ENV::fetch"), Python's ``os.getenv('API_KEY', '…')``.
SECRET_NAMED_ARGUMENT = re.compile(
    rf"(?i)\([ \t]*[\"'](?P<name>[\w.\-]*(?:{SECRET_KEYWORD})[\w.\-]*)[\"'][ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?"
    r"(?:\"(?P<dq>[^\"\s]{1,256})\"|'(?P<sq>[^'\s]{1,256})')"
)
# A .netrc entry (GNU inetutils, "The .netrc file"; read by ftp, curl and git): ``machine HOST login
# USER password PASSWORD``, on one line or over several; the host a domain name or localhost.
NETRC_PASSWORD = re.compile(
    r"\bmachine[ \t]+(?:[\w\-]+(?:\.[\w\-]+)+|localhost)(?:\s+(?:login|account|port)[ \t]+\S+)+\s+password[ \t]+(?P<v>\S+)"
)
# Go's MySQL driver DSN (github.com/go-sql-driver/mysql, "DSN (Data Source Name)"):
# ``user:password@tcp(host:3306)/db``, userinfo with no scheme before it.
MYSQL_DSN = re.compile(r"(?<![^\s\"'`=(])(?P<v>[^\s:/@\"'`<>()]+:(?P<pw>[^\s@/\"'`<>]+))@(?:tcp6?|udp|unix)\(")
# Prometheus' and Alertmanager's ``authorization`` block (prometheus.io/docs, "Configuration",
# ``<authorization>``): ``type: Basic`` (or ``Bearer``, the default), then ``credentials:``, the
# Authorization header's value.
BASIC_CREDENTIALS_BLOCK = re.compile(
    r"(?i)\btype:[ \t]*[\"']?basic[\"']?[ \t]*\r?\n[ \t]*credentials:[ \t]*[\"']?(?P<v>[A-Za-z0-9+/]{12,}={0,2})"
)
# A variable sent as a bearer token (``-H "Authorization: Bearer $API_TOKEN"``, HTTPie's
# ``Authorization:Bearer $TOKEN``): where the text assigns it, its value is that token.
BEARER_VARIABLE = re.compile(r"(?i)\bbearer[ \t]+\$\{?(?P<name>[A-Za-z_]\w*)\}?")
# .NET appSettings entries (learn.microsoft.com, "<add> element for <appSettings>"): ``<add
# key="SmtpPassword" value="…" />``, the key naming a secret.
APP_SETTING = re.compile(
    rf"(?i)<add[ \t]+key=\"[\w.:\-]*(?:{SECRET_KEYWORD})[\w.:\-]*\"[ \t]+value=\"(?P<v>[^\"\n]{{1,256}})\""
)
# PostgreSQL's password file, ~/.pgpass (postgresql.org/docs, libpq "The Password File"): one
# ``hostname:port:database:username:password`` a line, ``*`` matching any; the host has a letter
# or a dot, the port is digits or ``*`` (so MAC addresses and times are not read as one).
PGPASS_LINE = re.compile(
    r"(?m)^[ \t]*(?=[^:\s]*[A-Za-z.*])[^\s:#][^\s:]*:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:(?P<v>[^\s]+)[ \t]*$"
)
# SQL's ``CREATE USER … IDENTIFIED BY 'PASSWORD'`` (MySQL, Oracle), ``PASSWORD 'x'`` (PostgreSQL).
SQL_PASSWORD = re.compile(r"(?i)\b(?:identified[ \t]+(?:with[ \t]+\w+[ \t]+)?by|password)[ \t]+'(?P<sq>[^'\n]{1,128})'")
# An environment variable as a name and a value (Kubernetes' ``env: - name: X value: …``, ECS task
# definitions ``{"name": "X", "value": …}``), the name naming a secret.
NAMED_ENV_VALUE = re.compile(
    rf"(?i)[\"']?\bname[\"']?[ \t]*[:=][ \t]*[\"']?[\w.\-]*(?:{SECRET_KEYWORD})[\w.\-]*[\"']?[ \t]*,?[ \t]*\n?[ \t]*-?[ \t]*"
    r"[\"']?value[\"']?[ \t]*[:=][ \t]*(?:\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|(?P<v>[^\s\"',}]{1,256}))"
)
# <password>...</password> in XML configs (Maven settings.xml, NuGet.config).
XML_SECRET = re.compile(
    rf"(?i)<(?P<tag>[\w.:\-]*(?:{SECRET_KEYWORD}))>(?P<v>[^<\n]{{1,256}})</(?P=tag)>"
)
# A token under a name that says it is one, in code or config: a compound name (``api_token``,
# ``access_token=`` in a URL's query, RFC 6750 section 2.3; ``authToken``) or a key that starts its
# line (a kubeconfig's ``users: - user: token:``, kubernetes.io, "Organizing Cluster Access Using
# kubeconfig Files"). A token word in prose ("my API token: …") stays the password rule's.
TOKEN_ASSIGNMENT = re.compile(
    r"(?im)(?:^[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?[\"']?(?=[\w.\-]*token\b)"
    r"|(?<![\w.\-])(?=[\w.\-]*(?:[_.\-]token|(?-i:[a-z]Token))\b))"
    r"(?P<key>[\w.\-]{0,40}?token)[\"'`]?[ \t]*(?::|=)[ \t]*[\"'`]?(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"
)
# npm's ``_auth`` (docs.npmjs.com, "npmrc": "_auth: base64(username:password)"), also scoped to a
# registry (``//registry.example/:_auth=…``).
NPM_AUTH = re.compile(r"(?im)(?:^|:)[ \t]*_auth[ \t]*=[ \t]*[\"']?(?P<v>[A-Za-z0-9+/]{12,}={0,2})")
# A Terraform variable whose name names a secret, and its default (developer.hashicorp.com,
# "Input Variables": ``variable "db_password" { default = "…" }``).
TERRAFORM_DEFAULT = re.compile(
    rf"(?i)\bvariable[ \t]+\"[\w\-]*(?:{SECRET_KEYWORD})[\w\-]*\"[ \t]*\{{[^{{}}]{{0,300}}?\bdefault[ \t]*=[ \t]*"
    r"\"(?P<dq>[^\"\n]{1,256})\""
)
# The secret of an AWS key pair said in prose in another language, beside its key id: Spanish
# "secreto", Portuguese "segredo", German "Geheimnis", French "secrète", Japanese "シークレット(キー)"
# / "秘密(鍵)", Chinese "密钥" (the IAM user guide's "secret access key", 40 base64 characters).
WORLD_AWS_SECRET = re.compile(
    r"(?i)(?:secret\w*|secreto|secreta|segredo|geheim\w*|secr[èe]te"
    r"|シークレット(?:キー|アクセスキー)?|秘密(?:鍵|キー)?|密钥|비밀[ \t]?키)"
    r"[^A-Za-z0-9/+\n]{0,12}?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
SECRET_TRIGGERS = ("pass", "pwd", "pw", "psk", "secret", "token", "key")


def private_key_span(text: str, match: re.Match[str]) -> Span | None:
    """The whole block; a block cut off before its END line stops at its last key character."""
    body = match.group(0)
    if "-----END " in body:
        return match.span()
    while body.endswith(("\\n", "\\r")) or body[-1:].isspace():
        body = body[:-2] if body.endswith(("\\n", "\\r")) else body[:-1]
    return match.start(), match.start() + len(body)


def base64_private_key_span(text: str, match: re.Match[str]) -> Span | None:
    """The block, when its first line decodes to a private key's BEGIN line (not a certificate's)."""
    head = match.group(0)[:96].rstrip("=")
    decoded = base64.b64decode(head[:len(head) // 4 * 4])
    return match.span() if b"PRIVATE KEY" in decoded.split(b"\n", 1)[0] else None


def basic_credentials_span(text: str, match: re.Match[str]) -> Span | None:
    """The value, when it decodes to printable ``user:password`` (RFC 7617)."""
    value = match.group("v").rstrip("=")
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return match.span("v") if ":" in decoded[1:-1] and decoded.isprintable() else None


def terraform_span(text: str, match: re.Match[str]) -> Span | None:
    value = match.group("dq")
    keep = literal_secret(value) and (bare_secret(value, in_code=False) or word_passphrase(value, 3))
    return match.span("dq") if keep else None


def paired_aws_secret_span(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v") if AWS_KEY_ID.search(text) else None


def bearer_span(text: str, match: re.Match[str]) -> Span | None:
    """The token, less dots that end a sentence; a quote right after keeps them (RFC 6750's
    b64token may end in ".")."""
    start, end = match.span("v")
    if text[end:end + 1] not in ("'", '"', "`"):
        end = start + len(text[start:end].rstrip("."))
    value = text[start:end]
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    digit = any(ch.isdigit() for ch in value)
    return (start, end) if len(value) >= 16 and (mixed or digit) else None


def credentials_span(text: str, match: re.Match[str]) -> Span | None:
    """``user:password``, both; but where the user is an e-mail address (Atlassian's API tokens go with
    the account's address: ``curl -u me@example.com:ATATT…``) the password alone, so that the address
    is masked as the e-mail it is."""
    if not literal_secret(match.group("pw")):
        return None
    return match.span("pw") if "@" in text[match.start("v"):match.start("pw")] else match.span("v")


def assignment_span(text: str, match: re.Match[str]) -> Span | None:
    """The value of ``key = value`` (or ``--key value``), if it looks like a literal secret; not
    under a name that is no credential's (``next_page_token``), nor in an ARN."""
    key = match.group("key")
    not_a_credential = NOT_A_CREDENTIAL_NAME.search(key)
    if (not_a_credential and not_a_credential.end() == len(key)) or in_arn(text, match.start()):
        return None
    for group in ("dq", "sq", "bq"):
        if match.group(group) is not None:
            return match.span(group) if literal_secret(match.group(group)) else None
    start, value = match.start("bare"), without_open_closers(match.group("bare"))
    if yaml_tag(text, start):
        return None
    passphrase = PASSWORD_NAME.search(key) is not None and literal_secret(value) and word_passphrase(value, 3)
    if not (passphrase or bare_secret(value, in_code=match.group("dash") is None)):
        return None
    end = start + len(value)
    if match.group("sep") == "==" and ENV_LINE_START.fullmatch(text[:match.start()].rsplit("\n", 1)[-1]):
        start -= 1  # an env file's line splits at its first "=": ``DB_PASSWORD==Harbor4199+`` holds "=Harbor4199+"
    return start, end


def argument_span(text: str, match: re.Match[str]) -> Span | None:
    """A value that reads as a secret, or words joined as a passphrase under a password's name."""
    group = "dq" if match.group("dq") is not None else "sq"
    value = match.group(group)
    passphrase = PASSWORD_NAME.search(match.group("name")) is not None and word_passphrase(value, 3)
    return match.span(group) if passphrase or bare_secret(value, in_code=False) else None


def password_like(text: str, match: re.Match[str]) -> Span | None:
    """Generated, or a word and a number (``admin / pixel225``)."""
    value = match.group("v")
    return match.span("v") if literal_secret(value) and (generated(value) or word_and_number(value)) else None


def token_span(text: str, match: re.Match[str]) -> Span | None:
    """A bearer token's value: with a digit, or letters whose case flips often; not code (``self.X``,
    ``ctx.set(…``), and not under a name that is no credential's (``next_page_token``)."""
    value, end = match.group("v"), match.end("v")
    if NOT_A_CREDENTIAL_NAME.search(match.group("key")) or not literal_secret(value):
        return None
    if text[end:end + 1] in ("(", "[") or code_reference(value) or not (any(ch.isdigit() for ch in value) or case_noise(value)):
        return None
    return bearer_span(text, match)


def token_header_span(text: str, match: re.Match[str]) -> Span | None:
    """A token or key header's value, unless the header names no credential (``X-Idempotency-Key``) or
    the value is a placeholder (``"x-api-key": "YOUR_API_KEY_2"``)."""
    if NOT_A_CREDENTIAL_NAME.search(match.group("name")) or not literal_secret(match.group("v")):
        return None
    return bearer_span(text, match)


@dataclass(frozen=True)
class BearerVariable:
    """The value assigned to a variable (``export API_TOKEN=…``, ``API_TOKEN="…"``) that the text
    then sends as a bearer token (:data:`BEARER_VARIABLE`)."""

    triggers: tuple[str, ...] = ("bearer",)

    def find(self, text: str) -> Iterator[Finding]:
        for name in {match.group("name") for match in BEARER_VARIABLE.finditer(text)}:
            assigned = re.compile(rf"(?<![\w$]){re.escape(name)}=(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)'|(?P<v>[^\s\"';&|]+))")
            for match in assigned.finditer(text):
                group = next(g for g in ("dq", "sq", "v") if match.group(g) is not None)
                if literal_secret(match.group(group)):
                    yield Finding("SECRET", "bearer_token", *match.span(group))


def literal_value(text: str, match: re.Match[str]) -> Span | None:
    return match.span("v") if literal_secret(match.group("v")) else None


def quoted_literal(text: str, match: re.Match[str]) -> Span | None:
    return match.span("sq") if literal_secret(match.group("sq")) else None


def quoted_or_literal(text: str, match: re.Match[str]) -> Span | None:
    """The value in whichever of the groups ``sq``, ``dq`` and ``v`` the pattern has and matched, if it
    is a literal secret (not a placeholder or a reference)."""
    group = next((g for g in ("sq", "dq", "v") if g in match.re.groupindex and match.group(g) is not None), None)
    return match.span(group) if group is not None and literal_secret(match.group(group)) else None


# A value someone asks to rotate or revoke because it leaked ("can you rotate this? it was pasted in
# #general: 7FZw…"): on the same line after such a word, a run of 32 or more letters, digits, "_" and
# "-" with both cases and a digit, as generated tokens are (a commit hash or a UUID is one case).
LEAKED_TOKEN = re.compile(
    r"(?i)\b(?:rotate|revoke|leaked|pasted|exposed|compromised)\b[^\n]{0,120}?(?<![\w\-])"
    r"(?P<v>(?=[\w\-]*\d)(?-i:(?=[\w\-]*[a-z])(?=[\w\-]*[A-Z]))[A-Za-z0-9_\-]{32,256})(?![\w\-])")


# A column of an SQL INSERT named as a secret (``INSERT INTO integration_credentials (provider, env,
# secret, created_at) VALUES ('datadog', 'prod', '27fc…', now())``): its literal is the secret, as in
# an assignment to the same name; a password column's is a password.
SECRET_COLUMN = re.compile(rf"(?i)[\w.\-]*(?:{SECRET_KEYWORD})[\w.\-]*")
PASSWORD_COLUMN = re.compile(rf"(?i)[\w.\-]*(?:{PASSWORD_WORD})[\w.\-]*")


@dataclass(frozen=True)
class SecretColumn:
    """The literals of an SQL INSERT's columns named as secrets (:data:`SECRET_COLUMN`), unless
    the name names no credential (``sort_key``) or the literal is a placeholder."""

    triggers: tuple[str, ...] = ("insert",)

    def find(self, text: str) -> Iterator[Finding]:
        for column, value, start in sql_fields(text):
            name = column.strip(" \t\n\"'`[]")
            if SECRET_COLUMN.fullmatch(name) is None or NOT_A_CREDENTIAL_NAME.search(name) is not None:
                continue
            if literal_secret(value) and not PLACEHOLDER_ONLY.fullmatch(value) and random_like(value):
                label = "password" if PASSWORD_COLUMN.fullmatch(name) else "generic_api_key"
                yield Finding("SECRET", label, start, start + len(value))


PLACEHOLDER_ONLY = re.compile(r"[*x•.\-]+|<[^>]*>|\$\{[^}]*\}")


def own_secret_detectors() -> tuple[Detector, ...]:
    def secret(label: str, pattern: re.Pattern[str], triggers: tuple[str, ...],
               locate: Locate = whole_match) -> PatternDetector:
        return PatternDetector("SECRET", label, pattern, triggers, locate)

    return (
        secret("private_key", PRIVATE_KEY_BLOCK, ("private key",), private_key_span),
        secret("private_key", BASE64_PEM, ("ls0tls1crudjti",), base64_private_key_span),
        secret("private_key", PUTTY_KEY, ("putty-user-key-file",)),
        secret("aws_secret", AWS_SECRET, ("secret",), value_group),
        secret("bearer_token", BEARER, ("bearer", "authorization"), bearer_span),
        secret("bearer_token", TOKEN_HEADER, ("token", "key"), token_header_span),
        secret("bearer_token", TOKEN_ASSIGNMENT, ("token",), token_span),
        secret("basic_auth", NPM_AUTH, ("_auth",), basic_credentials_span),
        secret("aws_secret", WORLD_AWS_SECRET, ("akia", "asia"), paired_aws_secret_span),
        secret("url_credentials", URL_CREDENTIALS, ("://",), credentials_span),
        secret("basic_auth", BASIC_AUTH, ("basic",), bearer_span),
        secret("basic_auth", REGISTRY_AUTH, ("auth",), basic_credentials_span),
        secret("aws_secret", PAIRED_AWS_SECRET, ("akia", "asia"), paired_aws_secret_span),
        secret("aws_secret", NAMED_AWS_SECRET, ("secret",), value_group),
        secret("aws_secret", JOINED_AWS_SECRET, ("akia", "asia"), value_group),
        secret("password", LOGIN_SLASH_PASSWORD, ("login", "user", "cred"), literal_value),
        secret("password", CREDENTIALS_THEN_SLASH, ("login", "user", "cred", "admin", "root"), password_like),
        secret("password", CREDENTIALS_COLON, ("login", "cred"), literal_value),
        secret("password", TERRAFORM_DEFAULT, ("variable",), terraform_span),
        secret("password", SECRET_NAMED_ARGUMENT, SECRET_TRIGGERS, argument_span),
        secret("password", NETRC_PASSWORD, ("machine",), literal_value),
        secret("url_credentials", MYSQL_DSN, ("@tcp", "@udp", "@unix"), credentials_span),
        secret("basic_auth", BASIC_CREDENTIALS_BLOCK, ("credentials",), basic_credentials_span),
        BearerVariable(),
        secret("password", PGPASS_LINE, (":",), literal_value),
        secret("password", ASSIGNMENT, SECRET_TRIGGERS, assignment_span),
        secret("password", WORLD_ASSIGNMENT, WORLD_PASSWORD_TRIGGERS, assignment_span),
        secret("password", XML_SECRET, SECRET_TRIGGERS, literal_value),
        secret("password", APP_SETTING, SECRET_TRIGGERS, literal_value),
        secret("password", SQL_PASSWORD, ("identified", "password"), quoted_literal),
        secret("password", NAMED_ENV_VALUE, SECRET_TRIGGERS, quoted_or_literal),
        SecretColumn(),
        secret("bearer_token", LEAKED_TOKEN, ("rotate", "revoke", "leaked", "pasted", "exposed", "compromised"), value_group),
    )


