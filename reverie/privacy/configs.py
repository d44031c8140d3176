"""Passwords in the formats of particular config files, exports and APIs, where no ``password =``
assignment says so: a server's config directive (Redis' ``requirepass``, Cisco IOS' ``secret 0``,
HAProxy's ``stats auth``, nslcd's ``bindpw``), Neo4j's ``NEO4J_AUTH=neo4j/…``, a Wi-Fi QR code's ``P:``
field, PgBouncer's auth file, a password manager's CSV export (the column headed "Password"), .NET's
``NetworkCredential``, PowerShell's ``ConvertTo-SecureString``, a ``setPassword("…")`` call, a Terraform
state's ``random_password`` result, Gradle's ``storePassword "…"``, base64 Basic credentials in a variable
named for them (fastlane's ``MATCH_GIT_BASIC_AUTHORIZATION``), a
BitLocker recovery password, a list of 2FA backup codes. Each pattern names the format's documentation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Detector, Finding, Locate, PatternDetector, Span
from reverie.privacy.own_rules import basic_credentials_span, literal_value, quoted_or_literal
from reverie.privacy.values import bare_secret, literal_secret

# A value in single or double quotes, or bare up to a space.
VALUE = r"(?:'(?P<sq>[^'\n]{1,256})'|\"(?P<dq>[^\"\n]{1,256})\"|(?P<v>[^\s'\"，。、；]{1,256}))"
# Redis' ``requirepass`` and ``masterauth`` directives (redis.io/docs, "redis.conf": "requirepass
# foobared"), also as ``CONFIG SET requirepass …``; KeyDB and Valkey read the same file.
REDIS_PASSWORD = re.compile(rf"(?i)\b(?:requirepass|masterauth)[ \t]+{VALUE}")
# The LDAP bind password of nslcd and the PAM/NSS LDAP modules: ``bindpw PASSWORD`` (nslcd.conf(5):
# "bindpw PASSWORD"; pam_ldap's and libnss-ldap's ldap.conf), and ``rootpw`` of OpenLDAP's slapd.conf(5).
LDAP_BIND_PASSWORD = re.compile(r"(?im)^[ \t]*(?:bindpw|rootpw)[ \t]+(?P<v>[^\s{][^\s]*)[ \t]*$")
# The Neo4j Docker image's ``NEO4J_AUTH=neo4j/PASSWORD`` (neo4j.com/docs, "Operations Manual",
# "Docker: Authentication"; ``none`` turns authentication off).
NEO4J_AUTH = re.compile(r"(?i)\bNEO4J_AUTH[\"']?[ \t]*[:=][ \t]*[\"']?[^\s/\"']+/(?P<v>[^\s\"']+)")
# Cisco IOS ``enable secret`` / ``enable password`` and ``username NAME [privilege N] secret|password``,
# with an optional encryption type: 0 (clear text) or a hash type (Cisco IOS Security Command
# Reference, "enable secret", "username"); a type-7 password is only obfuscated, a hash is crackable.
CISCO_PASSWORD = re.compile(
    r"(?im)^[ \t]*(?:enable|username[ \t]+\S+(?:[ \t]+privilege[ \t]+\d{1,2})?)[ \t]+(?:secret|password)"
    r"(?:[ \t]+level[ \t]+\d{1,2})?(?:[ \t]+(?P<type>\d))?[ \t]+(?P<v>\S+)"
)
# HAProxy's ``stats auth <user>:<passwd>`` and a userlist's ``user NAME insecure-password PASSWORD``
# (HAProxy Configuration Manual, "stats auth", "3.4. Userlists").
HAPROXY_PASSWORD = re.compile(
    r"(?m)^[ \t]*(?:stats[ \t]+auth[ \t]+[^\s:]+:|user[ \t]+\S+[ \t]+insecure-password[ \t]+)(?P<v>\S+)"
)
# A Wi-Fi network in a QR code (ZXing, "Barcode Contents", WIFI): ``WIFI:T:WPA;S:name;P:password;;``,
# the fields in any order, ``\\`` escaping ``;,:"\\``.
WIFI_QR = re.compile(r"\bWIFI:(?:[A-Z]:(?:\\.|[^;\\\n])*;)*?P:(?P<v>(?:\\.|[^;\\\n])+)")
# PgBouncer's auth file (pgbouncer.org, "Authentication file format"): one ``"username" "password"``
# a line, the password in clear text or as an MD5 or SCRAM secret.
PGBOUNCER_USERLIST = re.compile(r"(?m)^[ \t]*\"[^\"\s]{1,64}\"[ \t]+\"(?P<v>[^\"\n]{1,256})\"[ \t]*$")
# .NET's ``new NetworkCredential(userName, password[, domain])`` (learn.microsoft.com,
# "NetworkCredential Constructor").
NETWORK_CREDENTIAL = re.compile(
    r"\bNetworkCredential[ \t]*\([ \t]*(?:@?\"[^\"\n]*\"|[\w.]+)[ \t]*,[ \t]*@?\"(?P<dq>[^\"\n]{1,256})\""
)
# PowerShell's ``ConvertTo-SecureString 'PASSWORD' -AsPlainText -Force`` (learn.microsoft.com,
# "ConvertTo-SecureString"): the plain text, before or after its flags.
SECURE_STRING = re.compile(
    r"(?i)\bConvertTo-SecureString\b(?:[ \t]+-(?:AsPlainText|Force)\b)*(?:[ \t]+-String)?[ \t]+"
    r"(?:'(?P<sq>[^'\n]{1,256})'|\"(?P<dq>[^\"\n]{1,256})\")"
)
# Terraform's state (``terraform.tfstate``, JSON) of a ``random_password`` resource: its ``result``
# attribute is the generated password, kept in the state in clear (registry.terraform.io,
# hashicorp/random, "random_password": "result (String, Sensitive)"), within the resource's instance.
TFSTATE_RANDOM_PASSWORD = re.compile(
    r"\"type\"[ \t]*:[ \t]*\"random_password\"(?:(?!\"type\"[ \t]*:)[^\x00]){0,2000}?"
    r"\"result\"[ \t]*:[ \t]*\"(?P<dq>[^\"\n]{1,256})\""
)
# A setter or builder call given the password as a literal: JDBC data sources' ``setPassword("…")``
# (docs.oracle.com, javax.sql.DataSource implementations), a builder's ``.password("…")``.
PASSWORD_SETTER = re.compile(
    r"(?i)(?:(?<![\w$])(?:set|with)_?(?:[a-z]{1,12}_?)??|\.)(?:password|passwd|passphrase)[ \t]*\([ \t]*"
    r"(?:'(?P<sq>[^'\n]{1,256})'|\"(?P<dq>[^\"\n]{1,256})\")[ \t]*\)"
)
# Gradle's Groovy DSL sets a property by a call without parentheses, the password a quoted literal on
# its own line (developer.android.com, "Sign your app": ``signingConfigs { release { storePassword "…"
# keyPassword "…" } }``; docs.gradle.org, a repository's ``credentials { password "…" }``).
GRADLE_PASSWORD = re.compile(
    r"(?m)^[ \t]*(?:store|key)?(?:[Pp]assword)[ \t]+(?:'(?P<sq>[^'\n]{1,256})'|\"(?P<dq>[^\"\n]{1,256})\")[ \t]*$")
# Basic credentials (base64 of ``user:password``, RFC 7617) in a variable named for them: fastlane match's
# MATCH_GIT_BASIC_AUTHORIZATION ("base64 encoded", docs.fastlane.tools, "match"), a ``BASIC_AUTH=…``.
BASIC_AUTH_VARIABLE = re.compile(
    r"(?i)\b[\w.\-]{0,40}basic[_\-]?auth(?:orization)?[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9+/]{12,}={0,2})(?![\w+/=])")
# A BitLocker recovery password: 48 digits in eight groups of six, each group a multiple of 11
# (learn.microsoft.com, "BitLocker recovery overview": "a 48-digit numerical password").
BITLOCKER_RECOVERY = re.compile(r"(?<![\d\-])\d{6}(?:-\d{6}){7}(?![\d\-])")
# Two-factor backup (recovery) codes, listed after the words: Google's "8-digit backup codes"
# (support.google.com, "Sign in with backup codes"), GitHub's "xxxxx-xxxxx" recovery codes
# (docs.github.com, "Configuring two-factor authentication recovery methods"), 4-4 digit groups.
BACKUP_CODES = re.compile(r"(?i)\b(?:backup|recovery|2fa|mfa|one-time)[ \t]+codes?\b[^\n:]{0,60}?:")
BACKUP_CODE = re.compile(
    r"(?<![\w\-])(?:\d{4}[ \-]\d{4}|\d{8,10}|(?=[a-z\d\-]*\d)[a-z\d]{4,5}-[a-z\d]{4,5})(?![\w\-])"
)


def cisco_span(text: str, match: re.Match[str]) -> Span | None:
    """After an encryption type any value; without one, a value that reads as a password (so that
    "username jdoe password reset …" at a line's start stays)."""
    value = match.group("v")
    typed = match.group("type") is not None
    return match.span("v") if literal_secret(value) and (typed or bare_secret(value, in_code=False)) else None


def bitlocker_span(text: str, match: re.Match[str]) -> Span | None:
    return match.span() if all(int(group) % 11 == 0 for group in match.group(0).split("-")) else None


def pgbouncer_span(text: str, match: re.Match[str]) -> Span | None:
    """A password that reads as one (a digit or a symbol, or mixed case over 12 characters), or an
    MD5/SCRAM secret: two quoted words on a line are otherwise anything."""
    value = match.group("v")
    return match.span("v") if bare_secret(value, in_code=False) else None


@dataclass(frozen=True)
class BackupCodes:
    """The codes on the line after "backup codes …:" (a list: "1234-5678 and 8765-4321")."""

    triggers: tuple[str, ...] = ("code",)

    def find(self, text: str) -> Iterator[Finding]:
        for head in BACKUP_CODES.finditer(text):
            end = text.find("\n", head.end())
            for code in BACKUP_CODE.finditer(text, head.end(), end if end >= 0 else len(text)):
                yield Finding("SECRET", "password", *code.span())


# ---- a password manager's export: the column headed "Password" ------------------------------------

# Headers that name a password column (Bitwarden's, 1Password's, KeePass', Chrome's and Firefox's CSV
# exports: "password", "login_password"; in other languages as the applications localise them).
PASSWORD_HEADER = re.compile(
    r"(?i)(?:[\w ]{0,20}[_ ])?(?:password|passwort|passwd|pass|pwd|kennwort|mot de passe|contrase[ñn]a|senha"
    r"|wachtwoord|l[öo]senord|passord|salasana|has[łl]o|heslo|parola|[şs]ifre|пароль|密码|パスワード|비밀번호)"
)
SEPARATORS = (",", ";", "\t", "|")


def cells(line: str, separator: str) -> list[Span]:
    """The spans of a line's cells (RFC 4180: a separator inside double quotes is part of the cell),
    each without its quotes and surrounding spaces."""
    spans, start, quoted = [], 0, False
    for index, ch in enumerate(line + separator):
        if ch == '"':
            quoted = not quoted
        elif ch == separator and not quoted:
            spans.append(trimmed(line, start, index))
            start = index + 1
    return spans


def trimmed(line: str, start: int, end: int) -> Span:
    while start < end and line[start] in " \t":
        start += 1
    while end > start and line[end - 1] in " \t":
        end -= 1
    if end - start >= 2 and line[start] == line[end - 1] == '"':
        start, end = start + 1, end - 1
    return start, end


@dataclass(frozen=True)
class PasswordColumn:
    """The cells under a table header that names a password (CSV, TSV, a Markdown table)."""

    triggers: tuple[str, ...] = ("pass", "pwd", "kennwort", "mot de passe", "contrase", "senha", "wachtwoord",
                                 "senord", "passord", "salasana", "hasło", "haslo", "heslo", "parola", "ifre",
                                 "пароль", "密码", "パスワード", "비밀번호")

    def find(self, text: str) -> Iterator[Finding]:
        lines, offset = [], 0
        for line in text.split("\n"):
            lines.append((offset, line.rstrip("\r")))
            offset += len(line) + 1
        for index, (_, header) in enumerate(lines[:-1]):
            for separator in (s for s in SEPARATORS if s in header):
                heads = cells(header, separator)
                columns = [i for i, (a, b) in enumerate(heads) if PASSWORD_HEADER.fullmatch(header[a:b])]
                if columns and sum(a < b for a, b in heads) >= 2:  # a header of two cells or more
                    yield from self.column(lines[index + 1:], separator, len(heads), columns)

    @staticmethod
    def column(rows: list[tuple[int, str]], separator: str, width: int, columns: list[int]) -> Iterator[Finding]:
        for offset, row in rows:
            spans = cells(row, separator)
            if len(spans) != width or sum(a < b for a, b in spans) < 2:
                return
            for column in columns:
                start, end = spans[column]
                value = row[start:end]
                if literal_secret(value) and not set(value) <= set("-:| "):
                    yield Finding("SECRET", "password", offset + start, offset + end)


def config_detectors() -> tuple[Detector, ...]:
    def password(pattern: re.Pattern[str], triggers: tuple[str, ...], locate: Locate = quoted_or_literal) -> PatternDetector:
        return PatternDetector("SECRET", "password", pattern, triggers, locate)

    return (
        password(REDIS_PASSWORD, ("requirepass", "masterauth")),
        password(LDAP_BIND_PASSWORD, ("bindpw", "rootpw"), literal_value),
        password(NEO4J_AUTH, ("neo4j_auth",), literal_value),
        password(CISCO_PASSWORD, ("secret", "password"), cisco_span),
        password(HAPROXY_PASSWORD, ("stats", "insecure-password"), literal_value),
        password(WIFI_QR, ("wifi:",), literal_value),
        password(PGBOUNCER_USERLIST, ('"',), pgbouncer_span),
        password(NETWORK_CREDENTIAL, ("networkcredential",)),
        password(SECURE_STRING, ("convertto-securestring",)),
        password(TFSTATE_RANDOM_PASSWORD, ("random_password",)),
        password(PASSWORD_SETTER, ("pass",)),
        password(GRADLE_PASSWORD, ("password",)),
        PatternDetector("SECRET", "basic_auth", BASIC_AUTH_VARIABLE, ("basic",), basic_credentials_span),
        password(BITLOCKER_RECOVERY, ("-",), bitlocker_span),
        BackupCodes(),
        PasswordColumn(),
    )
