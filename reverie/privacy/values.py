"""Checks on a candidate value: does it look like a key, a literal secret, or a word?"""

from __future__ import annotations

import re

HEX_DIGITS = frozenset("0123456789abcdef")
NOT_SECRETS = frozenset({
    "none", "null", "nil", "true", "false", "undefined", "required", "optional", "string", "str",
    "bytes", "bool", "secretstr", "password", "passwd", "secret", "token", "redacted", "hidden",
    "masked", "empty", "filtered",
    # words that say a value is not a real one (test fixtures: ``{'password': 'wrong'}``)
    "wrong", "invalid", "incorrect", "bad", "dummy", "fake", "placeholder", "example", "sample",
})
# A redacted value shows a run of four or more mask characters, maybe after the key's prefix and
# with its last characters, maybe around an ellipsis: ``********``, ``ghp_************``, ``sk-…••••abcd``,
# ``sk-****...****an5m``; an elided one, a
# prefix and an ellipsis: ``sk-...``, ``sk-ant-…``.
PLACEHOLDER_VALUE = re.compile(
    r"\s*(?:\$\{.*\}|\$\(.*\)|\$[A-Za-z_]\w*|\$env:[A-Za-z_]\w*|\{\{.*\}\}|<[^<>]*>|%\(\w+\)s|%s|[*xX•.·]{3,}"
    r"|[\w\-.]{0,24}?[*•·]{4,}(?:(?:\.{2,}|…)[*•·]*)?[\w\-]{0,8}|[\w\-]{1,24}(?:\.{3,}|…)[\w\-]{0,8}"
    r"|\[(?:SECRET|PII):\w+\]|\[?(?:redacted|filtered|hidden|masked)\]?"
    # a 1Password secret reference, resolved by ``op run`` / ``op inject`` (developer.1password.com,
    # "Secret reference syntax": ``op://vault/item/field``): where the secret is, not the secret
    r"|op://[^\s\"']+"
    # opencode's variable substitution (opencode.ai/docs, "Config", "Variables": ``{env:OPENROUTER_API_KEY}``,
    # ``{file:~/.secrets/key}``): the config reads the value from there
    r"|\{(?:env|file):[^{}\s]+\}"
    # a template's words that ask for the value (``YOUR_PASSWORD``, ``your-api-key-here``, ``CHANGE_ME``)
    # (also after the key's prefix, as a provider's docs write it: ``tvly-YOUR_API_KEY``)
    r"|(?:[a-z0-9]{1,12}[_\-])?(?:your|enter|insert)[_\-][\w\-]{2,40}|[\w\-]{1,40}[_\-]here|(?:change|replace)[_\-]?me)\s*",
    re.IGNORECASE,
)
CODE_REFERENCE = re.compile(  # settings.KEY, os.environ[..., secrets.token_hex(16), cache_key(a, b)
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[\[(]|$)|[A-Za-z_]\w*[\[(]"
)
OPENER_OF = {")": "(", "]": "[", "}": "{"}
# A documentation placeholder in a key's shape: the provider's prefix (of up to three parts), then
# one character over and over (``ghp_xxxxxxxx…``, ``sk-XXXXXXXX…``, ``sk-ant-xxxxxxxx``, ``AKIA0000…``).
FILLER = re.compile(r"[A-Za-z0-9]{0,12}(?:[_\-.][A-Za-z0-9]{1,12}){0,2}[_\-.]?(?P<c>[^_\-.\s])(?P=c){7,}")
# A file given in place of the value, as ``@path`` (Vault's and curl's ``key=@file.txt``).
FILE_REFERENCE = re.compile(r"@(?:[~./][^\s]*|[\w\-./]*\.[A-Za-z]{2,5})")
# A YAML node tag (YAML 1.2, section 6.9.1, "Node Tags") before the value it tags: Ansible's
# ``!vault |``, CloudFormation's ``!Ref Name``, Home Assistant's ``!secret name``.
YAML_TAG = re.compile(r"![A-Za-z][A-Za-z_]*(?=[ \t]+\S)")
# Names of things that are not credentials though they end in "key" or "token": an Idempotency-Key
# header, a cache, partition or sort key, a public key; a pagination cursor (Google's API design
# guide, "List pagination": ``page_token``/``next_page_token``; ``continuationToken``, ``syncToken``).
NOT_A_CREDENTIAL_NAME = re.compile(
    r"(?i)(?:idempoten(?:cy|t)|cache|partition|sort|primary|foreign|public|object|routing|dedup(?:lication)?"
    r"|correlation|request|trace|lookup|shard|group|sharding|message|event)[_\-. ]?key"
    r"|(?:page|continuation|sync|pagination|cursor)[_\-. ]?token"
    # A request's or a trace's id names the request (W3C Trace Context: trace-id, parent-id; request ids
    # are UUIDs, RFC 9562): ``INFO  api request_id=0ea7fab9-…`` holds no key after "api".
    r"|(?:request|trace|span|parent|correlation|transaction)[_\-. ]?id(?![a-z])"
    # what a token or key is, not what it is: ``gh auth status``'s "Token scopes: 'repo', 'workflow'"
    r"|(?:token|key)[_\-. ]?(?:scopes?|types?|permissions|expir(?:y|es|ation))(?![a-z])"
)
# The resource part of an Amazon Resource Name (AWS, "Identify AWS resources with Amazon Resource
# Names": ``arn:partition:service:region:account-id:resource-type:resource-id``): there ``secret:`` and
# ``key/`` name a resource type, not a value.
ARN_BEFORE = re.compile(r"\barn:[\w\-]+:[\w\-]+:[\w\-]*:\d{0,12}:$")


def random_like(value: str) -> bool:
    """Digits among letters, and mixed case or hex: how keys look, and how words do not."""
    digits = sum(ch.isdigit() for ch in value)
    if digits < 2 or digits == len(value):
        return False
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return mixed or all(ch in HEX_DIGITS for ch in value.lower() if ch.isalnum())


def keyish(value: str) -> bool:
    """Generated, as keys are: two digits or more among two letters or more, or one digit among
    letters of both cases (20 random letters and digits hold a single digit one time in five); not a
    word, a number, a run of one character."""
    digits = sum(ch.isdigit() for ch in value)
    letters = sum(ch.isalpha() for ch in value)
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return len(set(value)) >= 8 and letters >= 2 and (digits >= 2 or (digits == 1 and mixed and len(value) >= 16))


def passphrase(value: str) -> bool:
    """Three words or more and a number, joined by hyphens or underscores or by dots, as password
    managers generate them (``tiramisu-hibou-mariposa-71``; Bitwarden's "include number" puts the
    digit on a word: ``walrus.kiwi.ember4``), unlike a standard's name (``NIST-800-63B``)."""
    if ("." in value) == ("-" in value or "_" in value):  # dots alone, or hyphens and underscores
        return False
    parts = re.split(r"[\-_.]", value)
    words = [part.rstrip("0123456789") for part in parts]
    numbered = any(part.isdigit() or (word != part and word.isalpha()) for part, word in zip(parts, words, strict=True))
    return (sum(word.isalpha() and len(word) >= 3 for word in words) >= 3 and numbered
            and all(word.isalpha() or part.isdigit() for part, word in zip(parts, words, strict=True)))


# Words a passphrase generator does not draw but code and prose use: an object's or a config's
# name, a credential's name, a function word; and the last label of a host or a file name.
NOT_PASSPHRASE_WORDS = frozenset({
    "self", "this", "that", "config", "conf", "cfg", "settings", "setting", "env", "environ", "process",
    "params", "param", "args", "opts", "options", "request", "response", "data", "user", "users", "admin",
    "get", "set", "value", "values", "default", "field", "form", "input", "secret", "secrets", "password",
    "passwords", "passwd", "pass", "pwd", "token", "tokens", "key", "keys", "auth", "credential",
    "credentials", "login", "vault", "the", "and", "for", "with", "from", "your", "our", "not", "new", "old",
    "same", "use", "none", "null", "true", "false", "string", "name", "type", "app", "api", "url", "host",
    "are", "was", "were", "will", "must", "should", "can", "you", "all", "any", "every", "each", "one", "two",
    "three", "four", "five", "six", "seven", "eight", "nine", "ten", "days", "day", "weeks", "months", "hours",
    "minutes", "seconds", "time", "times", "also", "only", "just", "then", "than", "when", "where", "which",
    "what", "who", "how", "why", "there", "here", "these", "those", "them", "they", "has", "have", "had",
    "been", "being", "into", "onto", "over", "under", "after", "before", "about", "again", "still", "via",
    "per", "but", "out", "off", "too", "very", "more", "most", "less", "least", "some", "such", "own",
    "der", "die", "das", "und", "ist", "nicht", "mit", "les", "des", "est", "pas", "une", "que", "por",
    "para", "los", "las", "del", "con", "una", "het", "een", "van", "och", "att", "som",
    # what a password policy says of one ("minimum twelve characters required")
    "minimum", "maximum", "min", "max", "characters", "chars", "length", "long", "short", "digits", "letters",
    "symbols", "numbers", "uppercase", "lowercase", "special", "contain", "contains", "required",
    "optional", "expire", "expires", "expired", "changed", "change", "reset", "strong", "weak", "secure",
    "valid", "invalid", "incorrect", "wrong", "correct", "previous", "current", "temporary", "random",
    "generated", "hashed", "stored", "encrypted", "needed", "missing", "empty", "unknown",
})
NOT_PASSPHRASE_ENDINGS = frozenset({
    "com", "net", "org", "edu", "gov", "int", "arpa", "info", "biz", "dev", "app", "cloud", "lan", "local",
    "internal", "corp", "home", "test", "example", "localhost", "invalid", "svc", "cluster",
    "json", "yaml", "yml", "toml", "ini", "cfg", "conf", "txt", "env", "xml", "html", "bak", "tar", "zip",
    "log", "pem", "crt", "csv", "sql", "py", "js", "ts", "sh", "md",
})


def word_passphrase(value: str, words: int = 4) -> bool:
    """Words alone joined by one separator (a hyphen, an underscore, a dot or a space), as password
    managers and diceware write passphrases without a number (``velvet_marble_orbit_crater``,
    ``thistle.marble.orbit.granite``; 1Password's and Bitwarden's generators, the EFF word lists):
    ``words`` of them or more (dotted ones four or more, since code chains three names), each of 3
    to 12 lower-case letters (or all capitalised), none a word code or prose uses for something
    else (``config``, ``password``, ``the``), not ending in a host's or a file's last label."""
    separators = {ch for ch in value if not ch.isalpha()}
    if len(separators) != 1 or (separator := separators.pop()) not in "-_. ":
        return False
    parts = value.split(separator)
    least = max(words, 4) if separator == "." else words
    if len(parts) < least or len(parts) > 8 or parts[-1].lower() in NOT_PASSPHRASE_ENDINGS:
        return False
    if not (all(p.islower() for p in parts) or all(p[:1].isupper() and p[1:].islower() for p in parts)):
        return False
    return all(p.isalpha() and 3 <= len(p) <= 12 and p.lower() not in NOT_PASSPHRASE_WORDS for p in parts)


def word_and_number(value: str) -> bool:
    """A word and three digits or more (``kestrel4670``, ``Umber499``): how people make a password
    a site accepts. Only where the text already says the value is a password."""
    match = re.fullmatch(r"([A-Za-z]{3,16})[._\-]?(\d{3,8})[!#$%&*?@.]?", value)
    return match is not None and match.group(1).lower() not in NOT_PASSPHRASE_WORDS


def words_and_number(value: str) -> bool:
    """A capitalised word, a symbol, a word and a number (``Pirate.maple7``, ``Velvet;tiger57``,
    ``Sommer&shadow5``): how people join two words into a password a site accepts. Only where the
    text already says the value is a password."""
    match = re.fullmatch(r"([A-Z][a-z]{2,15})[^\w\s]([a-z]{3,15})\d{1,4}[!#$%&*?@.]?", value)
    return match is not None and not {w.lower() for w in match.groups()} & NOT_PASSPHRASE_WORDS


def code_reference(value: str) -> bool:
    """Code, not a value: ``settings.SECRET_KEY``, ``os.environ[…``, ``secrets.token_hex(16)``. A
    dotted name that reads as a generated password is not code: a passphrase (``ember.kite.walrus4``),
    mixed case with three digits or more (``WIEW2683.pfifferling``, ``iikz.GDFQ_1796``), or letters
    whose case flips often and a digit (``xgUgDL.NzR8ABF``). Nor is a generated value with a bracket
    it never closes (``jU7rJ(oh4ahkMr``, ``Thunder[falcon91``): a call or an index closes its own."""
    match = CODE_REFERENCE.match(value)
    if match is None:
        return False
    digits = sum(ch.isdigit() for ch in value)
    if match.group(0).endswith(("(", "[")):
        return not (unclosed_bracket(value) and random_like(value))
    return not (passphrase(value) or word_passphrase(value) or (random_like(value) and digits >= 3)
                or (case_noise(value) and digits >= 1))


def unclosed_bracket(value: str) -> bool:
    """More ``(`` or ``[`` than the brackets that close them, with characters after the last one."""
    opened = value.count("(") > value.count(")") or value.count("[") > value.count("]")
    return opened and not value.endswith(("(", "["))


def generated(value: str) -> bool:
    """Looks generated, as a key or a password manager's output does: digits among mixed-case
    letters or hex (:func:`random_like`), a quarter of 16 or more characters digits, digits and
    symbols, letters whose case flips often, or a passphrase of words and a number."""
    digit = any(ch.isdigit() for ch in value)
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    many_digits = len(value) >= 16 and sum(ch.isdigit() for ch in value) >= len(value) / 4
    return random_like(value) or many_digits or (digit and symbol) or case_noise(value) or passphrase(value)


def case_noise(value: str) -> bool:
    """Letters whose case flips often (``EutzWMDeEKdjtXCU``), unlike camelCase words."""
    flips = sum(a.isupper() != b.isupper() for a, b in zip(value, value[1:], strict=False) if a.isalpha() and b.isalpha())
    return len(value) >= 12 and flips / len(value) >= 0.3


def in_arn(text: str, start: int) -> bool:
    """``text[start:]`` is the resource part of an ARN (``…:123456789012:secret:prod/db``)."""
    return ARN_BEFORE.search(text, max(0, start - 160), start) is not None


def literal_secret(value: str) -> bool:
    """A quoted value assigned to a secret-named key, unless it is a placeholder or reference."""
    stripped = value.strip()
    if len(stripped) < 4 or stripped.lower() in NOT_SECRETS:
        return False
    return PLACEHOLDER_VALUE.fullmatch(stripped) is None


def bare_secret(value: str, in_code: bool = True) -> bool:
    """An unquoted value: not code, a path or a type name; has a digit or a symbol, or is long.
    ``in_code=False`` for a command-line argument, where ``a.b1`` is not an attribute."""
    if len(value) < 6 or not literal_secret(value):
        return False
    if (in_code and code_reference(value)) or value.startswith(("/", "./", "~/", "$", "%", "{", "(", "[")):
        return False
    if FILE_REFERENCE.fullmatch(value):
        return False
    symbol = any(not ch.isalnum() and ch not in "_-." for ch in value)
    digit = any(ch.isdigit() for ch in value)
    mixed = any(ch.isupper() for ch in value) and any(ch.islower() for ch in value)
    return digit or symbol or (mixed and len(value) >= 12)


def filler(value: str) -> bool:
    """A prefix and a run of one character: shaped like a key, not a key. (A provider's documented
    sample key, such as AWS's ``AKIAIOSFODNN7EXAMPLE``, is not filler: issue 19 masks samples too.)
    A URL whose last path segment, its secret, is such a run is a sample too (Slack's documented webhook
    ``https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX``)."""
    if "://" in value:
        value = value.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return FILLER.fullmatch(value) is not None


def yaml_tag(text: str, start: int) -> bool:
    """``text[start:]`` opens with a YAML tag followed by the node it tags."""
    return YAML_TAG.match(text, start) is not None


def without_open_closers(value: str) -> str:
    """Drop closing brackets at the end that close something outside the value: ``f(pw=x1)``."""
    while value[-1:] in OPENER_OF and value.count(value[-1]) > value.count(OPENER_OF[value[-1]]):
        value = value[:-1]
    return value
