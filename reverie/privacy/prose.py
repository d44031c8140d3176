"""Secrets said in prose: "the root password is X", "pw X", "use password X", "token: X", and the
same in the languages of the default phone regions ("das Passwort lautet X", "hasło do VPN: X",
"lösenordet till wifi:t är X", "пароль от сервера: X", "数据库密码是 X", "비밀번호는 X 입니다").

A credential word, then a link ("is", "is now", "set to", ":" …) or nothing, then the value. A
value after a link is kept when it is quoted or does not read as a word (a digit or a symbol, or
mixed case over 8 characters); a value straight after the credential word ("password X") only when
it looks random (digits among mixed-case letters, or hex; a quarter of 16 or more characters
digits; letters whose case flips often; a generated passphrase of three words and a number) or
mixes symbols and digits; a date, an ``@file`` or a YAML tag (``!vault``) is never a value. A
compound may name what the secret is for before the word ("das WLAN-Passwort ist X"). So "the password is required"
and "the token endpoint" stay as they are. In Chinese, Japanese and Korean the credential word is
not set off by spaces and the link is a particle or copula (は, 是, 는/은) right after it; the value
is the run of ASCII characters that follows.
"""

from __future__ import annotations

import re

from reverie.privacy.findings import Detector, PatternDetector, Span
from reverie.privacy.values import CODE_REFERENCE, FILE_REFERENCE, NOT_SECRETS, PLACEHOLDER_VALUE, random_like, yaml_tag

# English, German, French, Spanish, Dutch, Portuguese; Turkish, Polish, Czech/Slovak, Hungarian,
# Finnish, Swedish, Norwegian, Danish (with their definite endings -et/-en), Russian/Ukrainian,
# Greek, Hebrew, Arabic, Vietnamese, Indonesian, Hindi; Romanian and Turkish "parola", Slovenian
# "geslo", Croatian/Serbian/Bosnian "lozinka", Greek "συνθηματικό".
CREDENTIAL_WORD = (
    r"pass(?:word|wort|phrase|code)s?|passwd|kennwort|mot de passe|contrase[ñn]a|wachtwoord|senha|"
    r"[şs]ifre(?:si|niz)?|has[łl]o|has[łl]a|heslo|jelsz[óo]|(?:salasana|parool)(?:[ \t]+on)?|l[öo]senord(?:et)?|passord(?:et)?|"
    r"adgangskode(?:n)?|kodeord(?:et)?|parol[aă]|geslo|lozink[aeu]|пароль|пароля|κωδικός|συνθηματικ[όο]|סיסמה|كلمة المرور|"
    r"m[ậa]t kh[ẩa]u|kata sandi|"
    r"पासवर्ड|pass|pw|pwd|pin|secret|"
    r"(?:api|access|auth|bearer)?[ _-]?token|(?:api|access|auth|secret|private)[ _-]?key"
)
# A copula ("is", "ist", "är", "jest", "er", Romanian "este", Hindi "है" …) in those languages, or ":".
COPULA = r"(?:is|was|are|to|->|ist|lautet|war|est|este|es|è|é|e|är|er|jest|je|—|-|это|είναι|adalah|là|है)"
# "now" and the like after the copula ("is now", "ist jetzt", Dutch "is nu", French "est maintenant").
ADVERB = (
    r"(?:now|still|currently|just|set[ \t]+to|jetzt|nun|nu|nå|nyt|teraz|ahora|agora|ora|maintenant|acum|теперь)"
)
COPULA_LINK = rf"(?:[ \t]+{COPULA}(?:[ \t]+{ADVERB})?[ \t]+|[ \t]*[:=][ \t]*)"
# After words for what the secret is for, an "=" stuck to the last word is part of the value
# ("salasana on LHybDC7X=LQY…"), not a link. There the Finnish and Estonian "on" and the Arabic
# "هي"/"هو" are copulas too ("salasana testipalvelimelle on X", "كلمة المرور لخادم الاختبار هي X").
WORDS_COPULA = rf"(?:{COPULA[3:-1]}|on|هي|هو)"
WORDS_COPULA_LINK = rf"(?:[ \t]+{WORDS_COPULA}(?:[ \t]+{ADVERB})?[ \t]+|[ \t]*:[ \t]*|[ \t]+=[ \t]*)"
# "for the X", "of Y" … in those languages, then a copula.
LINK = (
    r"(?:(?:[ \t]+(?:for|of|on|to|in|f[üu]r|zum|zur|du|de|des|del|della|do|da|van|voor|pour|para|per|"
    r"till|f[öo]r|til|od|pro|от|для|к|na|ke|untuk|için)[ \t]+|[ \t]+dell')"
    r"(?:(?:the|den|die|das|der|le|la|les|el|il|lo|o|a|het)[ \t]+)?[\w.@/\-]+(?::\w+)?(?:[ \t]+[\w.@/\-]+)?)"
    + WORDS_COPULA_LINK + "|" + COPULA_LINK
    + r"|[ \t]+(?:(?:was|is|has[ \t]+been)[ \t]+)?(?:set|changed|reset|rotated|updated)[ \t]+to[ \t]+"
)
# Any other words for what the secret is for, at most eight and none a copula ("nueva del router",
# "di root sul server di backup", "máy chủ", "akun admin", "του Wi-Fi"), then a copula: the value
# must then look like a key, as after no link at all ("the password policy … is NIST-800-63B" stays).
QUALIFIED_LINK = rf"(?:[ \t]+(?!{WORDS_COPULA}[ \t])[\w.@/'’\-]+(?::\w+)?){{1,8}}?" + WORDS_COPULA_LINK
# A compound may put what the secret is for before the word, with a hyphen ("WLAN-Passwort",
# "Root-Kennwort", "Wi-Fi-password").
PROSE_SECRET = re.compile(
    rf"(?i)(?<![\w\-])(?:[^\W\d_]+-){{0,2}}(?:{CREDENTIAL_WORD})"
    rf"(?:(?P<link>{LINK})|(?P<qualified>{QUALIFIED_LINK})|(?P<bare>[ \t]+))"
    r"(?:\"(?P<dq>[^\"\n]{4,128})\"|'(?P<sq>[^'\n]{4,128})'|`(?P<bq>[^`\n]{4,128})`"
    r"|(?P<v>(?:[^\s\"'`;&,<>]|;(?!\w+=|\s|$)|&(?!\w+=)){4,128}?))(?=[.,;)]*(?:\s|$))"
)


# Japanese, Korean, Chinese: no space around the word; a particle or copula, or a colon, links.
CJK_SECRET = re.compile(
    r"(?:パスワード|暗証番号|비밀번호|패스워드|密码|密碼|口令)"
    r"(?P<link>[ \t]*(?:は|が|:|：|是|为|為|는|은|가|=)[ \t]*)"
    r"(?:「(?P<jq>[^」\n]{4,128})」|\"(?P<dq>[^\"\n]{4,128})\"|'(?P<sq>[^'\n]{4,128})'|`(?P<bq>[^`\n]{4,128})`"
    r"|(?P<v>[!-~]{4,128}?))(?=[.,;)]*(?:\s|$|[^!-~]))"
)


# A date, maybe with a time (``2023-07-26``, ``26.07.2023``): when, not what ("rotated … on 2023-07-26").
DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?|\d{1,2}([./])\d{1,2}\1\d{2,4}")


def reads_as_word(value: str) -> bool:
    digit = any(ch.isdigit() for ch in value)
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return not (digit or symbol or (mixed and len(value) > 8))


def not_a_value(value: str) -> bool:
    return (value.lower() in NOT_SECRETS or PLACEHOLDER_VALUE.fullmatch(value) is not None
            or CODE_REFERENCE.match(value) is not None or "://" in value or FILE_REFERENCE.fullmatch(value) is not None
            or DATE.fullmatch(value) is not None
            or value.startswith(("/", "./", "~/", "$", "%", "(", "[", "{", "<")))


def prose_span(text: str, match: re.Match[str]) -> Span | None:
    for group in ("dq", "sq", "bq", "jq"):
        if group in match.re.groupindex and match.group(group) is not None:
            quoted = match.group(group)
            return None if not_a_value(quoted) else match.span(group)
    value = match.group("v")
    if not_a_value(value) or len(value) < 6 or yaml_tag(text, match.start("v")):
        return None
    if match.group("link") is not None:
        return None if reads_as_word(value) else match.span("v")
    digit = any(ch.isdigit() for ch in value)
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    many_digits = len(value) >= 16 and sum(ch.isdigit() for ch in value) >= len(value) / 4
    keyish = random_like(value) or many_digits or (digit and symbol) or case_noise(value) or passphrase(value)
    return match.span("v") if keyish else None


def passphrase(value: str) -> bool:
    """Three words or more and a number, joined by hyphens or underscores, as password managers
    generate them (``tiramisu-hibou-mariposa-71``), unlike a standard's name (``NIST-800-63B``)."""
    parts = re.split(r"[\-_]", value)
    words = sum(part.isalpha() and len(part) >= 3 for part in parts)
    return words >= 3 and any(part.isdigit() for part in parts) and all(parts)


def case_noise(value: str) -> bool:
    """Letters whose case flips often (``EutzWMDeEKdjtXCU``), unlike camelCase words."""
    flips = sum(a.isupper() != b.isupper() for a, b in zip(value, value[1:], strict=False) if a.isalpha() and b.isalpha())
    return len(value) >= 12 and flips / len(value) >= 0.3


def prose_secret_detectors() -> tuple[Detector, ...]:
    return (PatternDetector("SECRET", "password", PROSE_SECRET,
                            ("pass", "pw", "pin", "secret", "token", "key", "kennwort", "contrase",
                             "wachtwoord", "senha", "ifre", "hasło", "hasła", "haslo", "hasla", "heslo", "jelsz", "salasana",
                             "senord", "adgangskode", "kodeord", "parol", "geslo", "lozink", "пароль", "пароля",
                             "κωδικός", "συνθηματικ", "סיסמה", "كلمة", "khẩu", "khau", "sandi", "पासवर्ड"), prose_span),
            PatternDetector("SECRET", "password", CJK_SECRET,
                            ("パスワード", "暗証番号", "비밀번호", "패스워드", "密码", "密碼", "口令"), prose_span))
