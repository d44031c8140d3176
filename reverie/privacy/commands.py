"""Credentials given on a command line: as an option's value (curl's ``-u``, HTTPie's ``-a``, mysql's ``-p``,
sshpass, registry logins, redis-cli, rabbitmqctl and rabbitmqadmin, ``net use``, sqlcmd, mosquitto, the OpenLDAP
clients, lftp, a ``--token``, 7-Zip's ``-p``), as an argument (MinIO's ``mc alias set``, (``htpasswd -b``, ``openssl passwd``,
sqlplus's ``user/password@db``, ``net user NAME PASSWORD``), typed at Git's password prompt, printed
from an OpenVPN credentials file, or fed to a command that reads a password from its standard input
(``sudo -S``, ``passwd --stdin``, ``chpasswd``, ``gpg --passphrase-fd 0``, a registry login's
``--password-stdin``), through a pipe or a here-string. Each pattern names the command's documentation.
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, Locate, PatternDetector, Span
from reverie.privacy.own_rules import bearer_span, credentials_span, literal_value, quoted_or_literal
from reverie.privacy.values import literal_secret

# curl(1) -u/--user user:password.
CURL_USER_PASSWORD = re.compile(  # curl -u user:password; not docker's -u uid:gid
    r"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t]+[\"']?(?P<v>[^\s:\"']+:(?P<pw>[^\s\"']+))"
)
# mysql(1) -pPASSWORD, also quoted -p'PASSWORD' (MySQL reference manual, command options: no space
# after -p, a bare -p prompts); sshpass(1) -p PASSWORD.
# MariaDB's clients take the same (mariadb.com/kb, "mariadb Command-line Client": ``-p[password]``).
MYSQL_PASSWORD = re.compile(
    r"\b(?:mysql(?:dump|admin)?|mariadb(?:-?dump|-?admin)?)\b[^\n]*?[ \t]-p"
    r"(?:'(?P<sq>[^'\n]{4,})'|\"(?P<dq>[^\"\n]{4,})\"|(?P<v>[^\s'\"]{4,}))"
)
SSHPASS_PASSWORD = re.compile(
    r"\bsshpass\b[ \t]+-p[ \t]*(?:'(?P<sq>[^'\n]{1,})'|\"(?P<dq>[^\"\n]{1,})\"|(?P<v>[^\s'\"]{1,}))"
)
# Commands that read a password from the standard input: ``sudo -S`` ("read the password from the
# standard input", sudo(8)), ``passwd --stdin`` (passwd(1) on Red Hat systems), ``gpg
# --passphrase-fd 0`` (gpg(1): read the passphrase from file descriptor 0), a registry login's
# ``--password-stdin`` (docker(1) login, podman, helm registry, oras) and ``az devops login``
# (learn.microsoft.com, "Sign in with a personal access token": ``echo $PAT | az devops login``).
STDIN_READER = (
    r"(?:sudo\b[^\n|<]*?[ \t]-\w*S\b|passwd\b[^\n|<]*?--stdin\b|gpg\b[^\n|<]*?--passphrase-fd[ \t=]+0\b"
    r"|(?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login\b[^\n|<]*?--password-stdin\b"
    r"|az[ \t]+devops[ \t]+login\b)"
)
# A value in single or double quotes (4 to 128 characters), the alternatives every command rule below
# starts with; each adds the unquoted form its command allows.
QUOTED = r"'(?P<sq>[^'\n]{4,128})'|\"(?P<dq>[^\"\n]{4,128})\""
# The password piped to one (``echo 'PASSWORD' | sudo -S …``) or given as a here-string (bash(1),
# "Here Strings": ``sudo -S apt-get update <<< 'PASSWORD'``).
PIPED_PASSWORD = re.compile(
    rf"\b(?:echo|printf)[ \t]+(?:-\w+[ \t]+)*(?:{QUOTED}|(?P<v>[^\s'\"|]{{4,128}}))"
    rf"[ \t]*\|[ \t]*{STDIN_READER}"
)
HERE_STRING_PASSWORD = re.compile(
    rf"\b{STDIN_READER}[^\n|<]*?<<<[ \t]*(?:{QUOTED}|(?P<v>[^\s'\"|;&]{{4,128}}))"
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
# PASSWORD`` and ``change_password``, Windows' ``net use \\host\share /user:NAME PASSWORD``,
# sqlcmd's and bcp's ``-P`` (learn.microsoft.com, "sqlcmd utility"), mosquitto_pub's and _sub's
# ``-P``/``--pw`` (mosquitto_pub(1)), the OpenLDAP clients' ``-w`` (ldapsearch(1): "use passwd as the
# password for simple authentication").
ARGUMENT_VALUE = rf"(?:{QUOTED}|(?P<v>[^\s'\"]{{4,128}}))(?![^\s])"
CLI_PASSWORD = re.compile(
    r"(?:\b(?:docker|podman|buildah|skopeo|helm|oras|nerdctl)\b[^\n|;&]*?\blogin\b[^\n|;&]*?[ \t](?:-p|--password)(?:[ \t]+|=)"
    r"|\bredis-cli\b[^\n|;&]*?[ \t](?:-a|--pass)[ \t]+"
    r"|\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+)[ \t]+"
    r"|(?i:\bnet[ \t]+use\b)[^\n|;&]*?[ \t]/u(?:ser)?:[^\s]+[ \t]+(?!/)"
    r"|\b(?:sqlcmd|bcp)\b[^\n|;&]*?[ \t]-P[ \t]*"
    r"|\bmosquitto_(?:pub|sub|rr)\b[^\n|;&]*?[ \t](?:-P|--pw)[ \t]+"
    r"|\bldap(?:search|add|modify|delete|modrdn|whoami|passwd|compare|exop)\b[^\n|;&]*?[ \t]-w[ \t]+"
    # rabbitmqadmin's ``-p``/``--password`` (rabbitmq.com/docs, "Management Command Line Tool": ``-u USERNAME
    # -p PASSWORD``; its ``-V`` is the vhost)
    r"|\brabbitmqadmin\b[^\n|;&]{0,200}?[ \t](?:-p|--password)(?:[ \t]+|=))"
    + ARGUMENT_VALUE
)
# Samba's clients take ``-U [DOMAIN\\]USER[%PASSWORD]`` (smbclient(1), rpcclient(1), smbcacls(1):
# "-U|--user=[DOMAIN\\]USERNAME[%PASSWORD]").
SMB_USER_PASSWORD = re.compile(
    r"\b(?:smbclient|rpcclient|smbcacls|smbget|smbtree|smbmap)\b[^\n|;&]*?[ \t](?:-U[ \t]*|--user(?:name)?[= \t])"
    r"[\"']?[^\s%\"']+%(?P<v>[^\s\"']+)"
)
# Neo4j's ``neo4j-admin dbms set-initial-password PASSWORD`` (Neo4j Operations Manual, "Set an initial
# password"; ``neo4j-admin set-initial-password`` before 5.0).
NEO4J_INITIAL_PASSWORD = re.compile(r"\bneo4j-admin\b[^\n|;&]*?[ \t]set-initial-password[ \t]+" + ARGUMENT_VALUE)
# lftp(1) ``-u user,password``, the password also quoted on its own (``-u deploy,'pa ss'``).
LFTP_USER_PASSWORD = re.compile(
    r"\blftp\b[^\n|;&]*?[ \t]-u[ \t]+[\"']?[^\s,\"']+,(?:'(?P<sq>[^'\n]{1,128})'|\"(?P<dq>[^\"\n]{1,128})\"|(?P<v>[^\s\"']+))")
# MinIO's client ``mc alias set ALIAS URL ACCESSKEY SECRETKEY`` (min.io/docs, "mc alias set"): the
# secret key is the last argument (``mc config host add`` before 2021).
MINIO_ALIAS = re.compile(
    r"\bmc(?:\.exe)?[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+(?:https?://)?\S+[ \t]+"
    r"(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+)[ \t]+" + ARGUMENT_VALUE)
# htpasswd's batch mode takes the password as the last argument (httpd.apache.org, "htpasswd": ``-b``,
# ``htpasswd -b[c] passwdfile username password``, ``htpasswd -nb username password``).
HTPASSWD_BATCH = re.compile(
    r"\bhtpasswd(?P<options>(?:[ \t]+-\w+)+)(?P<arguments>(?:[ \t]+[^\s\-|;&'\"][^\s|;&]*){1,2})[ \t]+" + ARGUMENT_VALUE
)
# ``openssl passwd`` hashes the password given as its argument (openssl-passwd(1)).
OPENSSL_PASSWD = re.compile(
    r"\bopenssl[ \t]+passwd\b(?:[ \t]+-(?:salt|in)[ \t]+\S+|[ \t]+-(?!stdin\b)\w+)*[ \t]+"
    rf"(?:{QUOTED}|(?P<v>[^\s'\"()|;&\-][^\s'\"()|;&]{{3,127}}))"
)
# SQL*Plus and Oracle's loaders take ``username/password@connect_identifier`` (Oracle, "SQL*Plus
# User's Guide and Reference", SQLPLUS command syntax).
ORACLE_LOGON = re.compile(
    r"\b(?:sqlplus|sqlldr|expdp|impdp)\b(?:[ \t]+-\w+)*[ \t]+[\"']?[\w$#]+/(?P<v>[^\s@/\"']+)(?=@|[\"']?(?:\s|$))"
)
# HTTPie's ``-a``/``--auth`` (httpie.io/docs/cli, "Authentication"): ``user:password`` for Basic and Digest,
# the token itself after ``-A bearer`` (``--auth-type=bearer``); xh takes the same.
HTTPIE_AUTH = re.compile(
    r"(?m)(?:^|[\s;&|$>])(?:https?|xhs?)[ \t]+(?P<options>(?:[^\n|;&]{0,200}?[ \t])?)(?:-a|--auth)(?:[ \t]+|=)[\"']?"
    r"(?P<v>(?P<user>[^\s:\"']+:)?(?P<pw>[^\s\"']+))")
# An option whose name ends in "token" takes a bearer token: kubectl's ``--token`` ("Bearer token
# for authentication to the API server", kubectl reference), Jupyter's ``--ServerApp.token`` (the
# token sent as ``Authorization: token …``, Jupyter Server, "Security in the Jupyter Server").
TOKEN_OPTION = re.compile(
    r"(?i)(?<![\w\-])--?(?:[\w\-]*[.\-_])?token(?:[ \t]+|[ \t]*=[ \t]*)[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9\-._~+/]{15,}=*)"
)


def httpie_span(text: str, match: re.Match[str]) -> Span | None:
    """A Basic or Digest password after ``user:`` (with its user, as curl's ``-u``), not a bare user name
    (HTTPie then prompts); a bearer token alone."""
    if BEARER_AUTH_TYPE.search(match.group("options")) is None:
        return credentials_span(text, match) if match.group("user") else None
    return None


def httpie_bearer_span(text: str, match: re.Match[str]) -> Span | None:
    if BEARER_AUTH_TYPE.search(match.group("options")) is None or not literal_secret(match.group("v")):
        return None
    return bearer_span(text, match)


BEARER_AUTH_TYPE = re.compile(r"(?i)(?:-A|--auth-type)(?:[ \t]+|=)bearer\b")


def htpasswd_span(text: str, match: re.Match[str]) -> Span | None:
    """The password, when ``-b`` is given and the arguments before it are the file and the user
    (only the user with ``-n``, which prints instead of writing a file)."""
    flags = "".join(option.lstrip("-") for option in match.group("options").split())
    before = 1 if "n" in flags else 2
    return quoted_or_literal(text, match) if "b" in flags and len(match.group("arguments").split()) == before else None


# 7-Zip's ``-p{Password}`` switch, the password straight after it (7-zip.org, "-p (set Password)
# switch"; a bare ``-p`` prompts).
SEVEN_ZIP_PASSWORD = re.compile(
    r"\b7z[a-z]?(?:\.exe)?[ \t]+[^\n]*?[ \t]-p(?:'(?P<sq>[^'\n]{1,})'|\"(?P<dq>[^\"\n]{1,})\"|(?P<v>[^\s'\"]{1,}))"
)
# Windows' ``net user NAME PASSWORD [/add]`` (learn.microsoft.com, "Net user"; ``*`` prompts), as a
# command: at the start of a line, after a prompt or a separator ("The net user count shows …" stays).
NET_USER_PASSWORD = re.compile(
    r"(?im)(?:^|[>$;&|`])[ \t]*net[ \t]+user[ \t]+(?:\"[^\"\n]+\"|[^\s/\"]+)[ \t]+(?P<v>[^\s/*\"][^\s]*)")
# Info-ZIP's ``zip -P password`` and ``unzip -P password`` (infozip.sourceforge.net, zip(1) and
# unzip(1): "-P password  use password to encrypt/decrypt zipfile entries"); upper-case P only
# (``unzip -p`` pipes to stdout).
ZIP_PASSWORD = re.compile(
    r"(?<![\w.\-])(?:un)?zip(?:\.exe)?[ \t]+(?:[^\n]*?[ \t])?-P[ \t]+"
    r"(?:'(?P<sq>[^'\n]{1,})'|\"(?P<dq>[^\"\n]{1,})\"|(?P<v>[^\s'\"]{1,}))")
# Windows' ``net use [device:] \\server\share PASSWORD /user:DOMAIN\name`` (learn.microsoft.com, "Net
# use": the password follows the share; ``*`` prompts), as a command.
NET_USE_PASSWORD = re.compile(
    r"(?im)(?:^|[>$;&|`%❯])[ \t]*net[ \t]+use[ \t]+(?:(?:[A-Z]:|\*)[ \t]+)?\\\\[^\s]+[ \t]+(?P<v>[^\s/*\"][^\s]*)")
# MongoDB's tools take ``-p``/``--password`` (mongodb.com/docs/database-tools, "mongodump": "--password=<password>,
# -p=<password>"; mongosh the same).
MONGO_PASSWORD = re.compile(
    r"\bmongo(?:dump|restore|export|import|sh|stat|top|files)?(?:\.exe)?[ \t]+[^\n]*?[ \t](?:-p|--password)(?:[ \t]+|=)"
    r"(?:'(?P<sq>[^'\n]{1,})'|\"(?P<dq>[^\"\n]{1,})\"|(?P<v>[^\s'\"\-][^\s'\"]*))")
# A Kickstart file's ``rootpw [--plaintext|--iscrypted] [--lock] PASSWORD`` (Red Hat, "Kickstart
# commands and options reference": rootpw); a crypted one is a hash to crack, masked alike.
KICKSTART_ROOTPW = re.compile(
    r"(?m)^[ \t]*rootpw[ \t]+(?:--(?:plaintext|iscrypted|lock|allow-ssh)[ \t]+)*(?P<v>[^\s\-][^\s]*)[ \t]*$")
# Git's password prompt with the answer on its line (git-scm.com, "gitcredentials": "Password for
# 'https://user@host': "), as a terminal transcript shows it.
GIT_PASSWORD_PROMPT = re.compile(r"(?m)^Password for '[^'\n]+':[ \t]*(?P<v>\S+)[ \t]*$")
# An OpenVPN ``--auth-user-pass`` file printed: the username on its first line, the password on the
# second (OpenVPN reference manual, "--auth-user-pass").
OPENVPN_AUTH_FILE = re.compile(r"\bcat[ \t]+\S*openvpn\S*\n[^\s]{1,64}\n(?P<v>\S{4,128})(?=\n|$)")


def command_line_detectors() -> tuple[Detector, ...]:
    def password(pattern: re.Pattern[str], triggers: tuple[str, ...], locate: Locate = quoted_or_literal) -> PatternDetector:
        return PatternDetector("SECRET", "password", pattern, triggers, locate)

    return (
        password(CURL_USER_PASSWORD, ("curl",), credentials_span),
        password(MYSQL_PASSWORD, ("mysql", "mariadb")),
        password(SSHPASS_PASSWORD, ("sshpass",)),
        password(PIPED_PASSWORD, ("sudo", "passwd", "passphrase-fd", "password-stdin", "az devops")),
        password(HERE_STRING_PASSWORD, ("<<<",)),
        password(CHPASSWD_PIPED, ("chpasswd",), literal_value),
        password(CHPASSWD_HERE_STRING, ("chpasswd",), literal_value),
        password(CLI_PASSWORD, ("login", "redis-cli", "rabbitmq", "net use", "sqlcmd", "bcp", "mosquitto_", "ldap")),
        password(LFTP_USER_PASSWORD, ("lftp",)),
        password(MINIO_ALIAS, ("alias set", "host add")),
        password(SMB_USER_PASSWORD, ("smb", "rpcclient"), literal_value),
        password(NEO4J_INITIAL_PASSWORD, ("set-initial-password",)),
        password(HTPASSWD_BATCH, ("htpasswd",), htpasswd_span),
        password(OPENSSL_PASSWD, ("openssl",)),
        password(ORACLE_LOGON, ("sqlplus", "sqlldr", "expdp", "impdp"), literal_value),
        password(SEVEN_ZIP_PASSWORD, ("7z",)),
        password(NET_USER_PASSWORD, ("net user",), literal_value),
        password(ZIP_PASSWORD, ("zip",)),
        password(NET_USE_PASSWORD, ("net use",), literal_value),
        password(MONGO_PASSWORD, ("mongo",)),
        password(KICKSTART_ROOTPW, ("rootpw",), literal_value),
        password(GIT_PASSWORD_PROMPT, ("password for '",), literal_value),
        password(OPENVPN_AUTH_FILE, ("openvpn",), literal_value),
        PatternDetector("SECRET", "bearer_token", TOKEN_OPTION, ("token",), bearer_span),
        password(HTTPIE_AUTH, ("-a", "--auth"), httpie_span),
        PatternDetector("SECRET", "bearer_token", HTTPIE_AUTH, ("bearer",), httpie_bearer_span),
    )
