"""Credentials given on a command line: as an option's value (curl's ``-u``, mysql's ``-p``,
sshpass, registry logins, redis-cli, rabbitmqctl, ``net use``, a ``--token``), or fed to a command
that reads a password from its standard input (``sudo -S``, ``passwd --stdin``, ``chpasswd``),
through a pipe or a here-string. Each pattern names the command's documentation.
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, Locate, PatternDetector
from reverie.privacy.own_rules import bearer_span, credentials_span, literal_value, quoted_or_literal

# curl(1) -u/--user user:password.
CURL_USER_PASSWORD = re.compile(  # curl -u user:password; not docker's -u uid:gid
    r"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]+[\"']?(?P<v>[^\s:\"']+:(?P<pw>[^\s\"']+))"
)
# mysql(1) -pPASSWORD, also quoted -p'PASSWORD' (MySQL reference manual, command options: no space
# after -p, a bare -p prompts); sshpass(1) -p PASSWORD.
MYSQL_PASSWORD = re.compile(
    r"\bmysql(?:dump|admin)?\b[^\n]*?[ \t]-p(?:'(?P<sq>[^'\n]{4,})'|\"(?P<dq>[^\"\n]{4,})\"|(?P<v>[^\s'\"]{4,}))"
)
SSHPASS_PASSWORD = re.compile(
    r"\bsshpass\b[ \t]+-p[ \t]*(?:'(?P<sq>[^'\n]{1,})'|\"(?P<dq>[^\"\n]{1,})\"|(?P<v>[^\s'\"]{1,}))"
)
# Commands that read a password from the standard input: ``sudo -S`` ("read the password from the
# standard input", sudo(8)) and ``passwd --stdin`` (passwd(1) on Red Hat systems).
STDIN_READER = r"(?:sudo\b[^\n|<]*?[ \t]-\w*S\b|passwd\b[^\n|<]*?--stdin\b)"
# The password piped to one (``echo 'PASSWORD' | sudo -S …``) or given as a here-string (bash(1),
# "Here Strings": ``sudo -S apt-get update <<< 'PASSWORD'``).
PIPED_PASSWORD = re.compile(
    r"\b(?:echo|printf)[ \t]+(?:-\w+[ \t]+)*(?:'(?P<sq>[^'\n]{4,128})'|\"(?P<dq>[^\"\n]{4,128})\"|(?P<v>[^\s'\"|]{4,128}))"
    rf"[ \t]*\|[ \t]*{STDIN_READER}"
)
HERE_STRING_PASSWORD = re.compile(
    rf"\b{STDIN_READER}[^\n|<]*?<<<[ \t]*(?:'(?P<sq>[^'\n]{{4,128}})'|\"(?P<dq>[^\"\n]{{4,128}})\"|(?P<v>[^\s'\"|;&]{{4,128}}))"
)
# chpasswd(8) reads ``user:password`` lines from the standard input: ``echo 'deploy:PASSWORD' |
# chpasswd``, ``chpasswd <<< "deploy:PASSWORD"``; the password is what follows the colon.
CHPASSWD_PIPED = re.compile(
    r"\b(?:echo|printf)[ \t]+(?:-\w+[ \t]+)*(?P<q>['\"]?)[\w.\-]+:(?P<v>[^\s'\"|:]{4,128})(?P=q)"
    r"[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd\b"
)
CHPASSWD_HERE_STRING = re.compile(
    r"\bchpasswd\b[^\n|<]*?<<<[ \t]*(?P<q>['\"]?)[\w.\-]+:(?P<v>[^\s'\"|:;&]{4,128})(?P=q)"
)
# Command lines that take a password as an argument: a registry login's ``-p``/``--password``
# (docker(1), podman, helm registry), redis-cli's ``-a``/``--pass``, ``rabbitmqctl add_user USER
# PASSWORD`` and ``change_password``, Windows' ``net use \\host\share /user:NAME PASSWORD``.
ARGUMENT_VALUE = r"(?:'(?P<sq>[^'\n]{4,128})'|\"(?P<dq>[^\"\n]{4,128})\"|(?P<v>[^\s'\"]{4,128}))(?![^\s])"
CLI_PASSWORD = re.compile(
    r"(?:\b(?:docker|podman|buildah|skopeo|helm|oras|nerdctl)\b[^\n|;&]*?\blogin\b[^\n|;&]*?[ \t](?:-p|--password)(?:[ \t]+|=)"
    r"|\bredis-cli\b[^\n|;&]*?[ \t](?:-a|--pass)[ \t]+"
    r"|\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+)[ \t]+"
    r"|(?i:\bnet[ \t]+use\b)[^\n|;&]*?[ \t]/u(?:ser)?:[^\s]+[ \t]+(?!/))"
    + ARGUMENT_VALUE
)
# An option whose name ends in "token" takes a bearer token: kubectl's ``--token`` ("Bearer token
# for authentication to the API server", kubectl reference), Jupyter's ``--ServerApp.token`` (the
# token sent as ``Authorization: token …``, Jupyter Server, "Security in the Jupyter Server").
TOKEN_OPTION = re.compile(
    r"(?i)(?<![\w\-])--?(?:[\w\-]*[.\-_])?token(?:[ \t]+|[ \t]*=[ \t]*)[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9\-._~+/]{15,}=*)"
)


def command_line_detectors() -> tuple[Detector, ...]:
    def password(pattern: re.Pattern[str], triggers: tuple[str, ...], locate: Locate = quoted_or_literal) -> PatternDetector:
        return PatternDetector("SECRET", "password", pattern, triggers, locate)

    return (
        password(CURL_USER_PASSWORD, ("curl",), credentials_span),
        password(MYSQL_PASSWORD, ("mysql",)),
        password(SSHPASS_PASSWORD, ("sshpass",)),
        password(PIPED_PASSWORD, ("sudo", "passwd")),
        password(HERE_STRING_PASSWORD, ("<<<",)),
        password(CHPASSWD_PIPED, ("chpasswd",), literal_value),
        password(CHPASSWD_HERE_STRING, ("chpasswd",), literal_value),
        password(CLI_PASSWORD, ("login", "redis-cli", "rabbitmqctl", "net use")),
        PatternDetector("SECRET", "bearer_token", TOKEN_OPTION, ("token",), bearer_span),
    )
