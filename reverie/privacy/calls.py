"""Passwords handed to an API by position, where no name beside the value says it is one: a
client's ``login(user, password)``, an HTTP library's ``auth=(user, password)``, a database
driver's connect call, a mail library's start call, and the default a config gives a
secret-named environment variable (``env('DB_PASSWORD', '…')``). Each pattern names the API's
documentation; the value must be a literal (not a placeholder or a variable).
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, PatternDetector
from reverie.privacy.own_rules import quoted_or_literal

# One quoted string literal (single or double quotes), and the same as the value.
STRING = r"(?:'[^'\n]*'|\"[^\"\n]*\")"
VALUE = r"(?:'(?P<sq>[^'\n]{1,256})'|\"(?P<dq>[^\"\n]{1,256})\")"
ARG = rf"[ \t]*{STRING}[ \t]*,"
# A first argument given as a variable or an expression (``$dsn``, ``url``, ``cfg.url``) or a literal.
ANY_ARG = rf"[ \t]*(?:{STRING}|\$?[A-Za-z_][\w.\->\[\]'\"]*)[ \t]*,"
# Python's ``smtplib.SMTP.login(user, password)``, ``imaplib.IMAP4.login(user, password)`` and
# ``ftplib.FTP.login(user, passwd)`` (docs.python.org, "smtplib", "imaplib", "ftplib").
LOGIN_CALL = re.compile(rf"\.login\({ARG}[ \t]*{VALUE}[ \t]*\)")
# requests' HTTP Basic authentication, ``auth=('user', 'pass')`` or ``HTTPBasicAuth('user', 'pass')``
# (requests.readthedocs.io, "Authentication"); httpx and aiohttp's ``BasicAuth`` take the same.
AUTH_PAIR = re.compile(rf"(?:\bauth[ \t]*=[ \t]*\(|\b(?:HTTPBasicAuth|HTTPDigestAuth|BasicAuth|DigestAuth)\(){ARG}[ \t]*{VALUE}")
# PHP's ``mysqli_connect(host, username, password, database)`` and ``new mysqli(…)`` (php.net,
# "mysqli::__construct"); ``new PDO(dsn, username, password)`` (php.net, "PDO::__construct").
PHP_CONNECT = re.compile(rf"(?i)(?:\bmysqli_(?:real_)?connect|\bnew[ \t]+mysqli|\bnew[ \t]+PDO)\({ANY_ARG}{ARG}[ \t]*{VALUE}")
# Ruby's ``Net::SMTP.start(address, port, helo, user, secret, authtype)`` (ruby-doc.org, "Net::SMTP").
RUBY_SMTP = re.compile(rf"\bNet::SMTP\.start\({ARG}[ \t]*\d+[ \t]*,{ARG}{ARG}[ \t]*{VALUE}")
# Go's ``smtp.PlainAuth(identity, username, password, host)`` (pkg.go.dev/net/smtp, "PlainAuth").
GO_PLAIN_AUTH = re.compile(rf"\bsmtp\.PlainAuth\({ARG}{ARG}[ \t]*{VALUE}")
# JDBC's ``DriverManager.getConnection(url, user, password)`` (docs.oracle.com, java.sql.DriverManager),
# its arguments often on lines of their own, the URL a literal or a variable; the same for PHP's
# connect calls, whose DSN or host is often a variable (``new PDO($dsn, 'user', '…')``).
JDBC_CONNECTION = re.compile(
    rf"\bDriverManager\.getConnection\(\s*(?:{STRING}|[A-Za-z_][\w.]*(?:\(\))?)\s*,\s*{STRING}\s*,\s*{VALUE}")
# A default for a secret-named environment variable: Laravel's ``env('DB_PASSWORD', 'default')``
# (laravel.com/docs, "Configuration"), Python's ``os.getenv("DB_PASSWORD", "default")`` and
# ``os.environ.get(…, …)`` (docs.python.org, "os.getenv").
SECRET_VARIABLE = r"['\"][A-Z0-9_]*(?:PASSWORD|PASSWD|PASS|PWD|SECRET)[A-Z0-9_]*['\"]"
ENV_DEFAULT = re.compile(rf"(?i)(?:\benv|\bgetenv|\benviron\.get)\([ \t]*{SECRET_VARIABLE}[ \t]*,[ \t]*{VALUE}[ \t]*\)")


def call_detectors() -> tuple[Detector, ...]:
    def password(pattern: re.Pattern[str], triggers: tuple[str, ...]) -> PatternDetector:
        return PatternDetector("SECRET", "password", pattern, triggers, quoted_or_literal)

    return (
        password(LOGIN_CALL, (".login(",)),
        password(AUTH_PAIR, ("auth",)),
        password(PHP_CONNECT, ("mysqli", "pdo(")),
        password(RUBY_SMTP, ("net::smtp",)),
        password(GO_PLAIN_AUTH, ("plainauth",)),
        password(JDBC_CONNECTION, ("getconnection",)),
        password(ENV_DEFAULT, ("env(", "environ.get(")),
    )
