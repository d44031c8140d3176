"""Session cookies: the id a web application hands a logged-in browser is a credential, since
whoever sends it back is that user until it expires (OWASP, "Session Management Cheat Sheet": "the
session ID … is temporarily equivalent to the strongest authentication method used by the
application"). A cookie counts as one by its name, as the frameworks name theirs: PHP's ``PHPSESSID``,
Java servlets' ``JSESSIONID``, ASP.NET's ``ASP.NET_SessionId`` and ASP.NET Core's ``.AspNetCore.Cookies``
(its authentication cookie) and ``.AspNetCore.Session``, Django's ``sessionid``, Flask's ``session``,
Express's ``connect.sid``, Rails' ``_<app>_session``, Laravel's ``laravel_session``, Drupal's
``SESS<hash>``, Devise's ``remember_user_token``; and only where a cookie is written:

- a ``Cookie:`` or ``Set-Cookie:`` header (RFC 6265, sections 4.1 and 4.2), or any line that says
  "cookie" (curl's ``-H 'cookie: …'`` and ``--cookie``/``-b``, ``document.cookie = "…"``), as
  ``name=value`` pairs; also the header as a name/value record over two lines (a HAR file's
  ``{"name": "cookie", "value": "…"}``);
- in a text that speaks of cookies: a quoted name and its quoted value (``cookies={"sessionid":
  "…"}`` in requests, ``cookies.set('PHPSESSID', '…')``), a ``{"name": …, "value": …}`` record (a
  browser extension's export), or tab-separated columns where the value follows the name (the
  Netscape cookie file curl and wget read, ``domain  flag  path  secure  expiry  name  value``; a copy
  of the browser's devtools cookie table, ``name  value  domain  path …``).

The value must look generated (:func:`reverie.privacy.values.keyish`, 16 characters or more), so
``session=deleted`` or ``PHPSESSID=`` in a config stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Finding
from reverie.privacy.values import keyish

# A session cookie's name (see the module's docstring), the whole name.
SESSION_NAME = re.compile(
    r"(?i)(?:[\w.\-]*(?:session|sessid)[\w.\-]*|(?:[\w\-]*[._\-])?s?sess(?:[._\-][\w.\-]*|[0-9a-f]{32})?"
    r"|(?:[\w\-]*[._\-])?sid|\.aspnetcore\.(?:cookies|identity\.application)|\.aspxauth"
    r"|remember_(?:user_)?token|__secure-next-auth\.session-token)"
)
# ``name=value`` in a cookie header, the name after a space, ";", ":" or a quote (RFC 6265's
# cookie-value: no whitespace, quote, comma, semicolon or backslash).
PAIR = re.compile(r"(?<![^\s;:'\"])(?P<name>[\w.\-!#$%&*+^|~]{1,64})=(?P<v>[^\s;,\"'\\]{1,4096})")
COOKIE_LINE = re.compile(r"(?i)cookie|(?<![\w\-])(?:-b|--cookie)[ \t]")
# A quoted name and its quoted value: a dict's member, a call's two arguments.
QUOTED_PAIR = re.compile(r"[\"'](?P<name>[\w.\-]{1,64})[\"'][ \t]*(?::|,|=>)[ \t]*[\"'](?P<v>[^\"'\s]{1,4096})[\"']")
# A cookie as a JSON record (EditThisCookie's and Cookie-Editor's exports; the devtools protocol).
NAME_VALUE_RECORD = re.compile(r"\"name\"[ \t]*:[ \t]*\"(?P<name>[\w.\-]{1,64})\"[ \t]*,\s*"
                               r"\"value\"[ \t]*:[ \t]*\"(?P<v>[^\"\s]{1,4096})\"")
# A cookie header as a HAR file's header record (W3C "HTTP Archive (HAR) format", ``headers``).
COOKIE_HEADER_RECORD = re.compile(
    r"(?i)\"name\"[ \t]*:[ \t]*\"(?:set-)?cookie\"[ \t]*,\s*\"value\"[ \t]*:[ \t]*\"(?P<v>[^\"\n]*)\"")
# A date or a time: when, not an id (``session_expires=2025-01-08T10:00:00Z``).
DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+\-]\d{2}:?\d{2})?)?")


def session_id(name: str, value: str) -> bool:
    """``value`` under the cookie ``name`` is a session's id."""
    if SESSION_NAME.fullmatch(name) is None or len(value) < 16 or DATE_TIME.fullmatch(value):
        return False
    return sum(ch.isalpha() for ch in value) >= 4 and keyish(value)


@dataclass(frozen=True)
class SessionCookies:
    """Session ids in cookie headers, cookie jars and code that sets cookies (the module's docstring)."""

    triggers: tuple[str, ...] = ("cookie", "-b")

    def find(self, text: str) -> Iterator[Finding]:
        position = 0
        for line in text.splitlines(keepends=True):
            if COOKIE_LINE.search(line):
                for match in PAIR.finditer(line):
                    if session_id(match.group("name"), match.group("v")):
                        yield Finding("SECRET", "session_cookie", position + match.start("v"), position + match.end("v"))
            position += len(line)
        if "cookie" not in text.lower():
            return
        for record in COOKIE_HEADER_RECORD.finditer(text):
            for match in PAIR.finditer(record.group("v")):
                if session_id(match.group("name"), match.group("v")):
                    start = record.start("v") + match.start("v")
                    yield Finding("SECRET", "session_cookie", start, start + len(match.group("v")))
        position = 0
        for line in text.splitlines(keepends=True):
            if "\t" in line:
                yield from self.columns(line, position)
            position += len(line)
        for pattern in (QUOTED_PAIR, NAME_VALUE_RECORD):
            for match in pattern.finditer(text):
                if session_id(match.group("name"), match.group("v")):
                    yield Finding("SECRET", "session_cookie", *match.span("v"))

    @staticmethod
    def columns(line: str, position: int) -> Iterator[Finding]:
        """A tab-separated row of a cookie table: a session cookie's name, then its value."""
        fields = line.rstrip("\r\n").split("\t")
        offset = position
        for name, value in zip(fields, fields[1:], strict=False):
            offset += len(name) + 1
            if session_id(name.strip(), value.strip()):
                start = offset + len(value) - len(value.lstrip())
                yield Finding("SECRET", "session_cookie", start, start + len(value.strip()))
