"""Secrets said in prose: "the root password is X", "pw X", "use password X", "token: X", and the
same in the languages of the default phone regions ("das Passwort lautet X", "hasło do VPN: X",
"lösenordet till wifi:t är X", "пароль от сервера: X", "数据库密码是 X", "비밀번호는 X 입니다").

A credential word, then a link ("is", "is now", "set to", ":" …) or nothing, then the value. A
value after a link is kept when it is quoted or does not read as a word (a digit or a symbol, or
mixed case over 8 characters); a value straight after the credential word ("password X") only when
it looks generated (:func:`reverie.privacy.values.generated`: digits among mixed-case letters, or
hex; a quarter of 16 or more characters digits; letters whose case flips often; a passphrase of
three words and a number) or mixes symbols and digits; a date, an ``@file`` or a YAML tag (``!vault``) is never a value. A
compound may name what the secret is for before the word ("das WLAN-Passwort ist X"). So "the password is required"
and "the token endpoint" stay as they are. In Chinese, Japanese and Korean the credential word is
not set off by spaces and the link is a particle or copula (は, 是, 는/은) right after it; in Thai
what the secret is for follows the word unspaced, then the copula คือ; the value is the run of ASCII
characters that follows.

A value after a link may also be words joined as a passphrase (``velvet_marble_orbit_crater``; words
and spaces when they end the line), an aside in parentheses ("sent me their password (X)"), or come
first ("takes X as the password"). After a word that names a PIN or a code keyed in ("PIN", "Code
PIN", "passcode", "door code", 暗証番号) and a link, a run of four to twelve digits is the secret. In a
conversation that asks for a password, a strongly generated value (both cases, digits and a symbol)
within 200 characters after the word is one. Persian puts the copula after the value ("رمز عبور
سرور X است"); login details may come as "user / password" ("Přihlašovací údaje: jan / X", or an e-mail address
then a slash and a generated value: "reviewer@demo.app / X"); a
one-time passcode of six to eight digits needs no link ("one-time passcode 479020").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Detector, Finding, PatternDetector, Span
from reverie.privacy.values import (
    FILE_REFERENCE,
    NOT_A_CREDENTIAL_NAME,
    NOT_SECRETS,
    PLACEHOLDER_VALUE,
    code_reference,
    generated,
    in_arn,
    word_and_number,
    word_passphrase,
    words_and_number,
    yaml_tag,
)

# English, German, French, Spanish, Dutch, Portuguese; Turkish, Polish, Czech/Slovak, Hungarian,
# Finnish, Swedish, Norwegian, Danish (with their definite endings -et/-en), Russian/Ukrainian,
# Greek, Hebrew, Arabic, Vietnamese, Indonesian, Hindi; Romanian and Turkish "parola" (Turkish also
# with its possessive, "parolası"; "şifrem", my password), Slovenian "geslo", Croatian/Serbian/Bosnian "lozinka", Greek
# "συνθηματικό", Catalan "contrasenya", European Portuguese "palavra-passe", Spanish "clave", Swahili
# "nenosiri", Malay "kata laluan", Danish/Norwegian "koden" (the code); Hungarian "jelszó" with its
# possessives ("jelszava"), Hebrew "סיסמה" with a prefixed article or preposition ("הסיסמה");
# abbreviations: French "mdp" (mot de passe), Spanish "contra" (contraseña); Swedish "lösen" (short for
# lösenord), Icelandic "lykilorð" (with its article, "lykilorðið"), Bulgarian "парола" ("паролата"),
# Lithuanian "slaptažodis", Persian "رمز عبور", French "code d'accès" (access code).
CREDENTIAL_WORD = (
    r"pass(?:word|wort|phrase|code)s?|passwd|kennwort|mot de passe|mdp|contrase[ñn]a|contrasenya|contra|wachtwoord|senha|"
    r"palavra-passe|clave|nenosiri|koden|"
    r"[şs]ifre(?:si|niz|m|miz)?|has[łl]o|has[łl]a|heslo|jelsz(?:[óo]|av(?:a|am|ad|unk|uk))|(?:salasana|parool)(?:[ \t]+on)?|"
    r"l[öo]sen(?:ord(?:et)?)?|passord(?:et)?|lykilor[ðd](?:i[ðd])?|slapta[žz]od(?:is|[įi])|رمز[ \t]+عبور|code[ \t]+d['’]acc[èe]s|"
    r"adgangskode(?:n)?|kodeord(?:et)?|parol(?:a(?:s[ıi]|n[ıi]z)?|ă)|geslo|lozink[aeu]|пароль|пароля|парола(?:та)?|κωδικός|συνθηματικ[όο]|"
    r"[הולשב]?סיסמ[הא]|كلمة المرور|"
    # Indonesian and Malay possessive "-nya" ("kata sandinya X": its password, X)
    r"m[ậa]t kh[ẩa]u|kata sandi(?:nya)?|kata laluan(?:nya)?|"
    r"पासवर्ड|pass|pw|pwd|pin(?:-(?:code|kode|kod))?|code[ \t]+pin|puk|secret|"
    # a code that opens something, or a one-time code that stands in for a password
    r"(?:door|gate|alarm|entry|keypad|lock|safe|garage)[ \t]+code|(?:backup|recovery)[ \t]+codes?|"
    r"(?:api|access|auth|bearer)?[ _-]?token|(?:api|access|auth|secret|private)[ _-]?key|"
    # "try logging in with X": then only a generated value
    r"log(?:ging|ged)?[ \t]?in[ \t]+with(?=[ \t]+[^\s]*\d)"
)
# A copula ("is", "ist", "är", "jest", "er", Romanian "este", Hindi "है", Catalan "és", Tagalog "ay",
# Swahili "ni", Malay "ialah", Portuguese "ficou" (became), Lithuanian "yra", Bulgarian "е", Hebrew "היא"/"הוא",
# Arabic "هي"/"هو" …)
# in those languages, or ":".
COPULA = (r"(?:is|was|are|to|->|ist|lautet|war|est|c['’]est|este|es|és|è|é|e|är|er|jest|je|—|-|это|είναι|adalah|ialah|ay|ni"
          r"|ficou|là|है|yra|е|היא|הוא|هي|هو)")
# "now" and the like after the copula ("is now", "ist jetzt", Dutch "is nu", French "est maintenant").
ADVERB = (
    r"(?:now|still|currently|just|set[ \t]+to|jetzt|nun|nu|nå|nyt|teraz|ahora|agora|ora|maintenant|acum|теперь)"
)
COPULA_LINK = rf"(?:[ \t]+{COPULA}(?:[ \t]+{ADVERB})?[ \t]+|[ \t]*[:=][ \t]*)"
# After words for what the secret is for, an "=" stuck to the last word is part of the value
# ("salasana on LHybDC7X=LQY…"), not a link. There the Finnish and Estonian "on", the Arabic
# "هي"/"هو" and the Hebrew "היא"/"הוא" are copulas too ("salasana testipalvelimelle on X",
# "كلمة المرور لخادم الاختبار هي X"), and Brazilian Portuguese "pra" (to: "troquei a senha do banco pra X").
WORDS_COPULA = rf"(?:{COPULA[3:-1]}|on|هي|هو|היא|הוא|pra)"
WORDS_COPULA_LINK = rf"(?:[ \t]+{WORDS_COPULA}(?:[ \t]+{ADVERB})?[ \t]+|[ \t]*:[ \t]*|[ \t]+=[ \t]*)"
# "for the X", "of Y" … in those languages, then a copula.
LINK = (
    r"(?:(?:[ \t]+(?:for|of|on|to|in|f[üu]r|zum|zur|du|de|des|del|della|do|da|van|voor|pour|para|per|"
    r"till|f[öo]r|til|od|pro|от|для|к|na|ke|untuk|için)[ \t]+|[ \t]+dell')"
    r"(?:(?:the|den|die|das|der|le|la|les|el|il|lo|o|a|het)[ \t]+)?[\w.@/\-]+(?::\w+)?(?:[ \t]+[\w.@/\-]+)?)"
    + WORDS_COPULA_LINK + "|" + COPULA_LINK
    + r"|[ \t]+(?:(?:was|is|has[ \t]+been)[ \t]+)?(?:set|changed|reset|rotated|updated)[ \t]+to[ \t]+"
    # Russian has no copula in the present: "пароль от сервера X" (the server's password: X), "пароль
    # от личного кабинета X" (of the personal account), then only a value with a digit in it ("пароль
    # от сервера потерян" stays)
    + r"|[ \t]+(?:от|для)(?:[ \t]+[\w.@/\-]+){1,5}[ \t]+(?=[^\s]*\d)"
    # an instruction what to key in ("when it asks for the passphrase, enter X")
    + r"|[ \t]*,[ \t]*(?:enter|type|use|try)[ \t]+"
)
# Any other words for what the secret is for, at most eight and none a copula ("nueva del router",
# "di root sul server di backup", "máy chủ", "akun admin", "του Wi-Fi"), then a copula: the value
# must then look like a key, as after no link at all ("the password policy … is NIST-800-63B" stays).
# A word may end a clause ("geändert, neu: X", "del servidor? — ya, es X"), a dash may stand between
# them, and an aside in parentheses counts as one word ("password (they sent it!) is X").
# A word of six characters or more with both cases and a digit, or a run of four digits or more, is
# the value, not what it is for ("passord IquTAn0VBlh3 — bytt det", "password jPsx0pY:Zv&13$", "passcode
# 479020 to finish").
KEYLIKE_WORD = r"(?=[\w.@/'’\-]*[a-z])(?=[\w.@/'’\-]*[A-Z])(?=[\w.@/'’\-]*\d)[\w.@/'’\-]{6,}(?![\w.@/'’\-])"
QUALIFIED_WORD = rf"(?:[—–]|\([^()\n]{{1,60}}\)|(?!{WORDS_COPULA}[ \t]|{KEYLIKE_WORD}|\d{{4,}}[ \t])[\w.@/'’\-]+(?::\w+)?[,?!]?)"
QUALIFIED_LINK = rf"(?:[ \t]+{QUALIFIED_WORD}){{1,8}}?" + WORDS_COPULA_LINK
# A compound may put what the secret is for before the word, with a hyphen ("WLAN-Passwort",
# "Root-Kennwort", "Wi-Fi-password"). A value may be an aside in parentheses straight after the word
# ("sent me their password (X) in plain text"), or, after a link, words joined by spaces that end the
# line, a diceware passphrase ("… är jigsaw glacier indigo onyx.").
PROSE_SECRET = re.compile(
    rf"(?i)(?<![\w\-])(?:[^\W\d_]+-){{0,2}}(?P<word>{CREDENTIAL_WORD})"
    r"(?:[ \t]+\((?P<pq>(?=[^()\s]*[^()\sA-Za-z])[^()\s]{4,128})\)(?=[.,;:]*(?:\s|$))|"
    rf"(?:(?P<link>{LINK})|(?P<qualified>{QUALIFIED_LINK})|(?P<bare>[ \t]+))"
    r"(?:\"(?P<dq>[^\"\n]{4,128})\"|'(?P<sq>[^'\n]{4,128})'|`(?P<bq>[^`\n]{4,128})`"
    r"|(?P<sp>[A-Za-z]{3,12}(?: [A-Za-z]{3,12}){3,7})(?=[.!]?[ \t]*(?:\r?\n|$))"
    r"|(?P<v>(?:[^\s\"'`;&,<>،]|;(?!\w{2,}=|\s|$)|&(?!\w+=)|,(?=[^\s,])){4,128}?))(?=[.,;)،]*(?:\s|$|\")))"
)


# Japanese, Korean (also "비번", short for 비밀번호), Chinese: no space around the word;
# a particle or copula (Cantonese 係), or a colon, links;
# a space alone links a value that looks generated ("ユーザー名 asato／パスワード pAaG8&u…").
# Thai writes what the password is for after the word, without spaces, then the copula "คือ"
# ("รหัสผ่านเซิร์ฟเวอร์คือ X": the server's password is X).
CJK_SECRET = re.compile(
    r"(?P<word>パスワード|暗証番号|비밀번호|비번|패스워드|密码|密碼|口令|รหัสผ่าน[^\s!-~]{0,30}?)"
    r"(?:(?P<link>[ \t]*(?:は|が|:|：|是|为|為|係|는|은|가|=|คือ)[ \t]*)|(?P<bare>[ \t]+))"
    r"(?:「(?P<jq>[^」\n]{4,128})」|\"(?P<dq>[^\"\n]{4,128})\"|'(?P<sq>[^'\n]{4,128})'|`(?P<bq>[^`\n]{4,128})`"
    r"|(?P<v>[!-~]{4,128}?))(?=[.,;)]*(?:\s|$|[^!-~]))"
)


# Persian puts the copula "است" after the value and what the password is for after the word, as an
# ezafe ("رمز عبور سرور X است": the server's password is X); the value is the run of ASCII characters.
PERSIAN_SECRET = re.compile(r"(?P<word>رمز(?:[ \t]+عبور)?)(?:[ \t]+[^\s!-~]+){0,4}[ \t]+(?P<v>[!-~]{4,128}?)[ \t]+(?:است|هست)")
# Login details given as "user / password" after a word for them ("Přihlašovací údaje: jan / X",
# "credentials: ops / X"): only a generated value.
CREDENTIALS_PAIR = re.compile(
    r"(?i)(?:credentials|login[ \t]+details|p[řr]ihla[šs]ovac[íi][ \t]+[úu]daje|zugangsdaten|identifiants|credenciales"
    r"|credenziali|credenciais|dane[ \t]+logowania|inloggegevens)[ \t]*:[ \t]*[^\s/]{1,64}[ \t]*/[ \t]*(?P<v>\S{6,128})"
)

# A login given as "email / password" ("the demo account is reviewer@demo.app / Tr4ck-Pony-88"): the
# address names the account, the slash its password; only a generated value, never a second address nor a
# path (``git@github.com/org/repo2024`` names a repository).
EMAIL_PAIR = re.compile(r"(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++[ \t]*+/[ \t]*+"
                        r"(?P<v>(?![^\s@]+@[\w-]+\.)[^\s/]{6,128}?)(?=[.,;:!?)]*(?:\s|$))")

# A path to a file ("pages/login.tsx"): what a "credentials: user / X" line may name instead of a password.
FILE_PATH = re.compile(r"[\w.\-]+(?:/[\w.\-]+)+\.\w{1,5}")


def generated_value(text: str, match: re.Match[str]) -> Span | None:
    value = match.group("v")
    return match.span("v") if generated(value) and not not_a_value(value) and not FILE_PATH.fullmatch(value) else None


# The value before the word: "still takes X as the password", "use X as your passphrase". The word
# must end the phrase (not "SHA256 as the password hash").
REVERSED_SECRET = re.compile(
    r"(?i)(?<![^\s(\[\"'`])(?P<v>[^\s\"'`,;()<>]{6,64})[ \t]+as[ \t]+(?:(?:the|a|my|your|its|our|their|his|her|new)[ \t]+)?"
    r"(?:[\w\-]+[ \t]+)?(?:password|passphrase|passcode|passwort|kennwort|pin)"
    r"(?=[ \t]*(?:[.,;:!?)]|$)|[ \t]+(?:lol|now|for|on|again|too|here|there|but|and|so|if|when|until|then)\b)"
)
# A conversation that asks for a password, then a value that can only be one: generated, with
# digits, both cases and a symbol ("Could you confirm the password? — try +2Qw…xwKd, or …!Bt?cP").
# Within 200 characters after the word; paths, URLs, addresses and assignments are not values.
ASKED_WORD = re.compile(
    r"(?i)(?<![^\W\d_])(?:pass(?:word|wort|phrase|code)s?|passwd|pwd|kennwort|mot de passe|mdp"
    r"|contrase[ñn]a|senha|wachtwoord|l[öo]senord(?:et)?|passord(?:et)?|salasana|has[łl]o|heslo|parol[aă]|[şs]ifre"
    r"|пароль|密码|密碼|パスワード|비밀번호)(?![^\W\d_])"
)
STRONG_TOKEN = re.compile(r"(?<![^\s(\[\"'`:,])(?P<v>[^\s\"'`<>]{12,64}?)(?=[.,;:!?)\]\"'`]*(?:\s|$))")


def strongly_generated(value: str) -> bool:
    """Upper and lower case, digits and a symbol other than ``_-.``: a password generator's output."""
    upper = sum(ch.isupper() for ch in value)
    lower = sum(ch.islower() for ch in value)
    digits = sum(ch.isdigit() for ch in value)
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    return upper >= 2 and lower >= 2 and digits >= 2 and symbol and len(set(value)) >= 10


@dataclass(frozen=True)
class AskedPassword:
    """A strongly generated value within 200 characters after a word for a password."""

    triggers: tuple[str, ...] = ("pass", "pw", "kennwort", "mdp", "contrase", "senha", "wachtwoord", "senord",
                                 "passord", "salasana", "hasło", "haslo", "heslo", "parol", "ifre", "пароль", "密码",
                                 "密碼", "パスワード", "비밀번호")

    def find(self, text: str) -> Iterator[Finding]:
        for word in ASKED_WORD.finditer(text):
            for match in STRONG_TOKEN.finditer(text, word.end(), min(len(text), word.end() + 200)):
                value = match.group("v")
                if strongly_generated(value) and not not_a_value(value) and not ASKED_NOT_VALUE.search(value):
                    yield Finding("SECRET", "password", *match.span("v"))


# What a strongly generated run may still be: an e-mail address, an assignment, a URL, a path, a
# key id and its secret (``AKIA…/…``), ``user:password`` (the rules for those find them).
ASKED_NOT_VALUE = re.compile(r"[@/:\\]|=.")


# A date, maybe with a time (``2023-07-26``, ``26.07.2023``): when, not what ("rotated … on 2023-07-26").
DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?|\d{1,2}([./])\d{1,2}\1\d{2,4}")


def reads_as_word(value: str) -> bool:
    digit = any(ch.isdigit() for ch in value)
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return not (digit or symbol or (mixed and len(value) > 8))


def not_a_value(value: str) -> bool:
    return (value.lower() in NOT_SECRETS or REGULAR_EXPRESSION.search(value) is not None
            or PLACEHOLDER_VALUE.fullmatch(value) is not None
            or (code_reference(value) and not words_and_number(value)) or "://" in value
            or FILE_REFERENCE.fullmatch(value) is not None
            or DATE.fullmatch(value) is not None
            or value.startswith(("/", "./", "~/", "$", "(", "[", "{", "<")) or WINDOWS_VARIABLE.match(value) is not None)


# A regular expression, as a password policy or a validator is written ("Password policy regex:
# ^(?=.*[A-Z])(?=.*\d).{12,}$"): anchored at both ends, or holding a lookahead or a group, a class
# escape or a character class with a range.
REGULAR_EXPRESSION = re.compile(r"^\^.*\$$|\(\?[=!:<]|\\[dwsDWS]|\[[^\]]*\w-\w[^\]]*\][*+?{]")
# A Windows environment variable (``%APPDATA%\…``, ``%DB_PASSWORD%``): a reference, where a generated
# password may start with "%" too ("Salasana on %bMiPCP=Pa45+…").
WINDOWS_VARIABLE = re.compile(r"%\w+%")


# Words that name a PIN or a code keyed in: after them a run of digits is the secret, where after
# "password" it would be too short or read as a number.
PIN_WORD = re.compile(
    r"(?i)(?:[^\W\d_]+-)?(?:pin(?:-(?:code|kode|kod))?|code[ \t]+pin|puk|pass[ \t]?code|暗証番号"
    r"|(?:door|gate|alarm|entry|keypad|lock|safe|garage)[ \t]+code|(?:backup|recovery)[ \t]+codes?)"
)
PIN_VALUE = re.compile(r"\d{4,12}#?")
# A one-time passcode, six to eight digits (RFC 6238, "TOTP"; RFC 4226, "HOTP"), needs no link:
# "Use one-time passcode 479020 to finish signing in".
BARE_PIN_WORD = re.compile(r"(?i)pass[ \t]?code")
OTP_VALUE = re.compile(r"\d{6,8}")
# "pin it to 8080", "Pin the release to 2024": "to" links a PIN only after a verb that sets one
# ("PIN changed to 4821", "PIN is set to 7731"); otherwise "pin … to" is the verb (fix a version, a port).
PINNED_TO = re.compile(r"(?i)(?<![^\W\d_])to[ \t]+$")
SET_TO = re.compile(r"(?i)(?:set|changed|reset|rotated|updated)[ \t]+to[ \t]+$")


# A version a dependency is pinned to: "2.31.0", "v18.19.1", "torch==2.3.1", "numpy<2".
PINNED_VERSION = re.compile(r"(?:[\w.\-]+(?:==|~=|<=|>=|<|>|@))?v?\d+(?:\.\d+)+[\w.\-+]*|[\w.\-]+(?:==|~=|<=|>=|<|>)[\w.\-]+")


def is_pin_word(match: re.Match[str]) -> bool:
    return re.fullmatch(r"(?i)pin", match.group("word") or "") is not None


def pinned_to(match: re.Match[str]) -> bool:
    link = optional(match, "link") or optional(match, "qualified") or ""
    return PINNED_TO.search(link) is not None and SET_TO.search(link) is None


def prose_span(text: str, match: re.Match[str]) -> Span | None:
    if not_a_credential(text, match):
        return None
    for group in ("dq", "sq", "bq", "jq"):
        if group in match.re.groupindex and match.group(group) is not None:
            quoted = match.group(group)
            return None if not_a_value(quoted) else match.span(group)
    aside, spaced, bare = optional(match, "pq"), optional(match, "sp"), optional(match, "bare") is not None
    if aside is not None:  # "password (X)": an aside, read as a value straight after the word
        return None if not_a_value(aside) or not (generated(aside) or word_and_number(aside)) else match.span("pq")
    if spaced is not None:
        return match.span("sp") if not bare and word_passphrase(spaced) else None
    value = match.group("v")
    if not_a_value(value) or yaml_tag(text, match.start("v")):
        return None
    if is_pin_word(match) and (pinned_to(match) or PINNED_VERSION.fullmatch(value)):
        return None  # "pin requests to 2.31.0", "the pin is 2.31.0", "pin torch==2.3.1": a version fixed
    if PIN_VALUE.fullmatch(value):  # a PIN only after a word that names one, and a link
        word = match.group("word")
        otp = BARE_PIN_WORD.fullmatch(word) is not None and OTP_VALUE.fullmatch(value) is not None
        named = PIN_WORD.fullmatch(word) is not None and (not bare or otp)
        return match.span("v") if named and not pinned_to(match) else None
    if len(value) < 6 or ("," in value and not generated(value)):  # "a,b" may be a list, not a value
        return None
    if optional(match, "link") is not None:
        keep = reads_as_word(value) and not word_passphrase(value)
    elif optional(match, "qualified") is not None:
        keep = not (generated(value) or word_passphrase(value) or word_and_number(value) or words_and_number(value))
    else:
        keep = not (generated(value) or word_passphrase(value) or words_and_number(value))
    return None if keep else with_final_dot(text, match.span("v"))


def optional(match: re.Match[str], group: str) -> str | None:
    """A group that only some of the patterns have."""
    return match.group(group) if group in match.re.groupindex else None


def with_final_dot(text: str, span: Span) -> Span:
    """A dot that ends the line right after the value may end the sentence or the password
    (generated passwords end in a symbol as often as not): it is masked with the value. So is a dot
    before a space after a value with a symbol in it, a generator's output ("pw is qRm…*ANAnK. (case
    sensitive)"), unless a capital starts a sentence after it ("… is X. You will be asked …")."""
    start, end = span
    if text[end:end + 1] != ".":
        return span
    after = text[end + 1:end + 2]
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in text[start:end])
    next_word = text[end + 1:end + 40].lstrip(" \t")[:1]
    aside = after in (" ", "\t") and symbol and not next_word.isupper()
    return (start, end + 1) if after in ("", "\n", "\r") or aside else span


def not_a_credential(text: str, match: re.Match[str]) -> bool:
    """The word names no credential: a pagination cursor (``next_page_token: …``), or an ARN's
    resource type (``arn:aws:secretsmanager:…:secret:prod/db``)."""
    before = text[max(0, match.start() - 24):match.start()]
    return NOT_A_CREDENTIAL_NAME.search(before + match.group(0)[:24]) is not None or in_arn(text, match.start())


def reversed_span(text: str, match: re.Match[str]) -> Span | None:
    value = match.group("v")
    if not_a_value(value) or not (generated(value) or word_and_number(value) or word_passphrase(value, 3)):
        return None
    return match.span("v")


def prose_secret_detectors() -> tuple[Detector, ...]:
    return (PatternDetector("SECRET", "password", PROSE_SECRET,
                            ("pass", "pw", "pin", "secret", "token", "key", "kennwort", "contrase",
                             "wachtwoord", "senha", "ifre", "hasło", "hasła", "haslo", "hasla", "heslo", "jelsz", "salasana",
                             "senord", "adgangskode", "kodeord", "parol", "parool", "geslo", "lozink", "пароль", "пароля",
                             "парола", "lösen", "losen", "lykilor", "slapta", "رمز", "d'acc", "d’acc",
                             "κωδικός", "συνθηματικ", "סיסמ", "كلمة", "khẩu", "khau", "sandi", "पासवर्ड",
                             "mdp", "contra", "clave", "nenosiri", "laluan", "koden", "puk", " code", "in with"), prose_span),
            PatternDetector("SECRET", "password", CJK_SECRET,
                            ("パスワード", "暗証番号", "비밀번호", "비번", "패스워드", "密码", "密碼", "口令", "รหัสผ่าน"),
                            prose_span),
            PatternDetector("SECRET", "password", REVERSED_SECRET, (" as ",), reversed_span),
            PatternDetector("SECRET", "password", PERSIAN_SECRET, ("رمز",), generated_value),
            PatternDetector("SECRET", "password", CREDENTIALS_PAIR, ("credentials", "details", "daje", "zugangsdaten",
                                                                    "identifiants", "credencia", "credenziali",
                                                                    "logowania", "inloggegevens"), generated_value),
            PatternDetector("SECRET", "password", EMAIL_PAIR, ("@",), generated_value),
            AskedPassword())
