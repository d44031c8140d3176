"""Provider keys whose shape says little (32 hex digits, 24 letters and digits, a UUID), found and
labelled by their provider: under the names its tools read, or in a text that names it.

Each :class:`ProviderKey` has the key's documented shape and, where the provider documents them,
the environment variables or settings its SDK or CLI reads (``names``) and the words that name it
(``words``: its name, its API host). A value of the shape counts:

- after one of the names, as code and config assign it (``NAME=…``, ``NAME: …``, a call's two
  arguments ``os.Setenv("NAME", "…")``, a shell default ``${NAME:-…}``, Ruby's ``ENV['NAME'] ||= '…'``,
  a Kubernetes ``env`` entry's ``- name: NAME`` then ``value: …``), or on the same line as the name
  in prose, before or after it ("Lägg in … som DATADOG_API_KEY", "CEREBRAS_API_KEY olarak …");
- in a text that names the provider, on the value's line or shortly before it, and speaks of a
  credential (a key, a token, a secret … in one of several languages), unless a word just before
  the value says it is a hash, a commit or an id.

The value must look generated (digits among letters, :func:`keyish`). A label here is the provider's
own; where a generic rule also finds the value (``password``, ``bearer_token``), this one names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reverie.privacy.findings import Finding
from reverie.privacy.values import keyish

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
# Between a name and its value: an assignment (``=``, ``:``, ``:=``, ``=>``, ``?=``, ``||=``), a shell
# default (``:-``), a call's next argument (``,``), each with the quotes and brackets around the name;
# or a Kubernetes env entry's next line, ``value:``.
NAME_TO_VALUE = (r"(?:[\"'`\]]*[ \t]*(?::-|\|\|=|:=|=>|\?=|[:=,])[ \t]*[\"'`]?"
                 r"|[\"'`]?[ \t]*\r?\n[ \t]*-?[ \t]*[\"']?value[\"']?[ \t]*:[ \t]*[\"']?)")
# A word that speaks of a credential, in the languages of the corpus's chat: key, token, secret,
# password, credential, and German Schlüssel, French clé, Spanish/Portuguese/Italian clave/chave/chiave,
# Dutch sleutel, Swedish nyckel, Danish/Norwegian nøgle/nøkkel, Finnish avain, Polish klucz, Czech klíč,
# Hungarian kulcs, Turkish anahtar, Russian/Ukrainian ключ/токен, Japanese キー/トークン, Chinese 密钥/令牌,
# Korean 키/토큰, Arabic مفتاح, Hebrew מפתח.
CREDENTIAL_WORD = re.compile(
    r"(?i)key|token|secret|passw|credential|auth|schl[üu]ssel|cl[ée]|clave|chave|chiave|sleutel|nyckel|n[øo]gle"
    r"|n[øo]kkel|avain|klucz|kl[íi][čc]|kulcs|anahtar|ключ|токен|キー|トークン|密[钥鑰]|令牌|키|토큰|مفتاح|מפתח"
    # curl's and HTTPie's credentials option (``-u user:TOKEN``, ``--user``)
    r"|(?<![\w\-])-u[ \t]|--user\b"
)
# A word just before a value that says what else it is: a digest, a commit, an id of a request or a trace.
NOT_A_KEY_BEFORE = re.compile(
    r"(?i)(?:sha\d*|md5|hash|checksum|digest|etag|commit|revision|fingerprint|uuid|(?:request|trace|span|event|message"
    r"|correlation|order|build|run|job)[ _\-]?id)[\"'`]?[ \t]*[:=#]?[ \t]*[\"'`]?$"
)


@dataclass(frozen=True)
class ProviderKey:
    """A provider's key: its label, its shape (a regex), the names its tools read it under and the
    words that name the provider (regexes, case-insensitive), with lower-case literals of each for the
    trigger search. ``not_hex``: the key is never all hex digits, so a run that is (a commit, a
    digest) is not one."""

    label: str
    value: str
    names: str = ""
    name_triggers: tuple[str, ...] = ()
    words: str = ""
    word_triggers: tuple[str, ...] = ()
    not_hex: bool = False

    def counts(self, text: str, start: int, value: str) -> bool:
        if not keyish(value) or (self.not_hex and all(ch in "0123456789abcdefABCDEF" for ch in value)):
            return False
        return NOT_A_KEY_BEFORE.search(text, max(0, start - 40), start) is None


@dataclass(frozen=True)
class ByName:
    """The key after one of its provider's names, or on the same line as it."""

    key: ProviderKey
    after: re.Pattern[str]
    before: re.Pattern[str]
    triggers: tuple[str, ...]

    def find(self, text: str) -> Iterator[Finding]:
        for pattern in (self.after, self.before):
            for match in pattern.finditer(text):
                if self.key.counts(text, match.start("v"), match.group("v")):
                    yield Finding("SECRET", self.key.label, *match.span("v"))


# The provider's name counts for a value on its line, or before it by at most this many characters (a
# ticket's title, a config block's name): in a dump of many providers' variables, a name after the value
# belongs to another line's key.
NAMED_WITHIN = 240


@dataclass(frozen=True)
class InContext:
    """The key in a text that names its provider, near it (:data:`NAMED_WITHIN`), and speaks of a
    credential."""

    key: ProviderKey
    words: re.Pattern[str]
    values: re.Pattern[str]
    triggers: tuple[str, ...]

    def find(self, text: str) -> Iterator[Finding]:
        named = [match.start() for match in self.words.finditer(text)]
        if not named or CREDENTIAL_WORD.search(text) is None:
            return
        for match in self.values.finditer(text):
            start, end = match.span("v")
            line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end
            near = any(start - NAMED_WITHIN <= at < start or line_start <= at <= line_end for at in named)
            if near and self.key.counts(text, start, match.group("v")):
                yield Finding("SECRET", self.key.label, start, end)


def value_pattern(value: str) -> str:
    """The value alone: not inside a longer word, path or base64 run (a hyphen after a word joins it,
    a hyphen after ``:`` is a shell default's, ``${NAME:-…}``)."""
    return rf"(?<![\w+/.])(?<!\w-)(?P<v>{value})(?![\w\-+/])"


def by_name(key: ProviderKey) -> ByName:
    names = rf"(?<![A-Za-z0-9])(?i:{key.names})(?![A-Za-z0-9])"
    return ByName(
        key,
        re.compile(rf"{names}(?:{NAME_TO_VALUE}|[^\n]{{0,40}}?){value_pattern(key.value)}"),
        re.compile(rf"{value_pattern(key.value)}[^\n]{{0,40}}?{names}"),
        key.name_triggers,
    )


def in_context(key: ProviderKey) -> InContext:
    return InContext(key, re.compile(rf"(?i)(?<![A-Za-z0-9])(?:{key.words})"), re.compile(value_pattern(key.value)),
                     key.word_triggers)


HEX32 = r"[a-f0-9]{32}"
PROVIDER_KEYS: tuple[ProviderKey, ...] = (
    # Datadog API keys (32 hex) and application keys (40 hex) (docs.datadoghq.com, "API and application
    # keys"; the Agent's DD_API_KEY, DATADOG_API_KEY for its integrations and Terraform provider).
    # … and in a text that names Datadog ("the Datadog API key below: …", "Key `…` revoked in the Datadog
    # console"), where a config's bare ``api_key:`` is Datadog's too.
    ProviderKey("datadog_key", r"[a-f0-9]{40}|[a-f0-9]{32}",
                r"(?:datadog|dd)_(?:api|app|application)_key", ("datadog_", "dd_api", "dd_app"), r"datadog", ("datadog",)),
    # AssemblyAI API keys, 32 hex (assemblyai.com/docs, "Authentication"; the SDKs read ASSEMBLYAI_API_KEY).
    ProviderKey("assemblyai_api_key", HEX32, r"assemblyai_api_key", ("assemblyai_api_key",),
                r"assembly[ \t]?ai", ("assemblyai", "assembly ai")),
    # Algolia API keys, 32 hex (algolia.com/doc, "API keys"; ALGOLIA_API_KEY, ALGOLIA_ADMIN_API_KEY).
    ProviderKey("algolia_api_key", HEX32, r"algolia_(?:admin_|write_|search_)?api_key", ("algolia_",),
                r"algolia", ("algolia",)),
    # Twilio auth tokens, 32 hex (twilio.com/docs, "Auth Tokens"; TWILIO_AUTH_TOKEN).
    ProviderKey("twilio_auth_token", HEX32, r"twilio_auth_token", ("twilio_auth_token",)),
    # Mailjet API key and secret key, 32 hex each (dev.mailjet.com, "Authentication": MJ_APIKEY_PUBLIC,
    # MJ_APIKEY_PRIVATE).
    ProviderKey("mailjet_api_key", HEX32, r"mj_apikey_public|mailjet_api_key", ("mj_apikey_public", "mailjet_api_key")),
    ProviderKey("mailjet_api_secret", HEX32, r"mj_apikey_private|mailjet_(?:api_)?secret(?:_key)?",
                ("mj_apikey_private", "mailjet_secret", "mailjet_api_secret")),
    # Vonage (Nexmo) API secrets, 16 characters (developer.vonage.com, "Authentication": VONAGE_API_SECRET;
    # NEXMO_API_SECRET before the rename).
    ProviderKey("vonage_api_secret", r"[A-Za-z0-9]{16}", r"(?:vonage|nexmo)_api_secret",
                ("vonage_api_secret", "nexmo_api_secret")),
    # Jenkins API tokens: "11" and 32 hex (jenkins.io, "Authenticating scripted clients"; since 2.129).
    ProviderKey("jenkins_api_token", r"11[a-f0-9]{32}", r"jenkins_(?:api_)?token", ("jenkins_",),
                r"jenkins", ("jenkins",)),
    # Linode (Akamai Cloud) personal access tokens, 64 hex (techdocs.akamai.com, "Manage personal access
    # tokens"; the CLI's LINODE_CLI_TOKEN, Terraform's LINODE_TOKEN).
    ProviderKey("linode_pat", r"[a-f0-9]{64}", r"linode_(?:cli_|api_)?token", ("linode_",),
                r"linode", ("linode",)),
    # Hetzner Cloud API tokens, 64 letters and digits (docs.hetzner.cloud, "Authentication"; hcloud's
    # HCLOUD_TOKEN).
    ProviderKey("hetzner_api_token", r"[A-Za-z0-9]{64}", r"hcloud_token|hetzner_(?:api_)?token", ("hcloud_token", "hetzner_"),
                r"hetzner|hcloud", ("hetzner", "hcloud")),
    # Vultr API keys, 36 upper-case letters and digits (docs.vultr.com, "API"; VULTR_API_KEY).
    ProviderKey("vultr_api_key", r"[A-Z0-9]{36}", r"vultr_api_key", ("vultr_api_key",), r"vultr", ("vultr",)),
    # Vercel access tokens, 24 letters and digits (vercel.com/docs, "Access tokens"; the CLI's VERCEL_TOKEN).
    ProviderKey("vercel_token", r"[A-Za-z0-9]{24}", r"vercel_(?:api_)?token", ("vercel_",), r"vercel", ("vercel",)),
    # Deepgram API keys, 40 hex (developers.deepgram.com, "Authentication": ``Authorization: Token …``,
    # DEEPGRAM_API_KEY).
    ProviderKey("deepgram_api_key", r"[a-f0-9]{40}", r"deepgram_api_key", ("deepgram_api_key",), r"deepgram", ("deepgram",)),
    # Together AI API keys, 64 hex (docs.together.ai, "Authentication"; TOGETHER_API_KEY). "Together" is
    # an English word: only its hosts and its name as one word name it.
    ProviderKey("together_api_key", r"[a-f0-9]{64}", r"together_api_key", ("together_api_key",),
                r"together\.(?:xyz|ai)|togetherai|together[ \t]ai", ("together.xyz", "together.ai", "togetherai", "together ai")),
    # Postmark server and account tokens, UUIDs (postmarkapp.com/developer, "Authentication":
    # X-Postmark-Server-Token, X-Postmark-Account-Token).
    ProviderKey("postmark_server_token", UUID, r"x-postmark-(?:server|account)-token|postmark_(?:server_|api_|account_)?token",
                ("x-postmark-", "postmark_")),
    # Rollbar access tokens, 32 hex (docs.rollbar.com, "Access tokens": X-Rollbar-Access-Token,
    # ROLLBAR_ACCESS_TOKEN).
    ProviderKey("rollbar_access_token", HEX32, r"x-rollbar-access-token|rollbar_(?:access_|server_|client_)?token",
                ("x-rollbar-access-token", "rollbar_"), r"rollbar", ("rollbar",)),
    # PagerDuty REST API keys, 20 characters (developer.pagerduty.com, "API access keys"; user tokens
    # begin "u+").
    ProviderKey("pagerduty_api_key", r"[A-Za-z0-9+_\-]{20}", r"pagerduty_(?:api_)?(?:token|key)|pd_api_key",
                ("pagerduty_", "pd_api_key"), r"pagerduty", ("pagerduty",)),
    # Freshdesk API keys, 20 letters and digits (developers.freshdesk.com, "Authentication").
    ProviderKey("freshdesk_api_key", r"[A-Za-z0-9]{20}", r"freshdesk_api_key", ("freshdesk_api_key",),
                r"freshdesk", ("freshdesk",)),
    # IBM Cloud API keys, 44 characters (cloud.ibm.com/docs, "API keys"; the CLI's IBMCLOUD_API_KEY,
    # Terraform's IC_API_KEY, ``ibmcloud login --apikey``; IAM's ``apikey=`` grant).
    ProviderKey("ibm_cloud_api_key", r"[A-Za-z0-9_\-]{44}", r"ibm(?:_?cloud)?_api_?key|ic_api_key|ibm\.apikey",
                ("ibmcloud_api", "ibm_cloud_api", "ibm_api", "ic_api_key", "ibm.apikey"),
                r"ibm(?:cloud)?\b|cloud\.ibm\.com", ("ibm",)),
    # Akamai EdgeGrid client secrets, 44 base64 characters (techdocs.akamai.com, "Create authentication
    # credentials": the .edgerc's client_secret; AKAMAI_CLIENT_SECRET).
    ProviderKey("akamai_client_secret", r"[A-Za-z0-9+/]{43}=", r"akamai_client_secret", ("akamai_client_secret",),
                r"akamai", ("akamai",)),
    # Auth0 client secrets, 64 characters (auth0.com/docs, "Application credentials"; AUTH0_CLIENT_SECRET).
    ProviderKey("auth0_client_secret", r"[A-Za-z0-9_\-]{64}", r"auth0_client_secret", ("auth0_client_secret",),
                r"auth0", ("auth0",)),
    # Azure OpenAI keys, 32 hex (learn.microsoft.com, "Azure OpenAI REST API": the ``api-key`` header;
    # AZURE_OPENAI_API_KEY).
    ProviderKey("azure_openai_api_key", HEX32, r"azure_openai_(?:api_)?key", ("azure_openai_",),
                r"openai\.azure\.com", ("openai.azure.com",)),
    # Cloudinary API secrets, 27 characters (cloudinary.com/documentation, "API keys"; CLOUDINARY_API_SECRET).
    ProviderKey("cloudinary_api_secret", r"[A-Za-z0-9_\-]{27}", r"cloudinary_api_secret", ("cloudinary_api_secret",),
                r"cloudinary", ("cloudinary",)),
    # Mistral API keys, 32 letters and digits (docs.mistral.ai, "Authentication").
    ProviderKey("mistral_key", r"[A-Za-z0-9]{32}", words=r"mistral", word_triggers=("mistral",), not_hex=True),
    # Okta API tokens under the names Okta's SDKs read (OKTA_CLIENT_TOKEN; OKTA_API_TOKEN).
    ProviderKey("okta_token", r"00[A-Za-z0-9_\-]{40}", r"okta_(?:client_|api_)token", ("okta_",)),
    # DeepSeek keys under DEEPSEEK_API_KEY (api-docs.deepseek.com); Clerk secret keys under
    # CLERK_SECRET_KEY (clerk.com/docs, "API keys"), which share Stripe's "sk_test_"/"sk_live_"; Stability
    # AI keys (platform.stability.ai, "Authentication"), which share OpenAI's "sk-".
    ProviderKey("deepseek_key", r"sk-[a-f0-9]{32}", r"deepseek_api_key", ("deepseek_api_key",)),
    ProviderKey("clerk_secret_key", r"sk_(?:test|live)_[A-Za-z0-9]{40,60}", r"clerk_secret_key", ("clerk_secret_key",),
                r"clerk\.(?:com|dev)|@clerk/|clerk_", ("clerk.", "@clerk/", "clerk_")),
    ProviderKey("stability_api_key", r"sk-[A-Za-z0-9]{48}", r"stability_(?:api_)?key", ("stability_",),
                r"stability[ \t]?ai|stability\.ai", ("stability ai", "stabilityai", "stability.ai")),
    # Rails' master key, 32 hex (guides.rubyonrails.org, "Securing Rails Applications", "Custom
    # Credentials": ``config/master.key`` or RAILS_MASTER_KEY decrypts config/credentials.yml.enc), under
    # its variable or in a text that names its file (``cat config/master.key``, a per-environment key
    # ``config/credentials/production.key``).
    ProviderKey("rails_master_key", HEX32, r"rails_master_key", ("rails_master_key",),
                r"master\.key|credentials/[\w\-]+\.key", ("master.key", "credentials/")),
    # Azure Storage account keys under the names the CLI and SDKs read, also as a Kubernetes env entry.
    ProviderKey("azure_storage_key", r"[A-Za-z0-9+/]{86}==", r"azure_storage_(?:account_)?key", ("azure_storage_",)),
    # Azure DevOps personal access tokens (52 lower-case base32) under a name that says so (``azure.pat``,
    # ADO_PAT), or in a text that names Azure DevOps.
    ProviderKey("azure_devops_token", r"[a-z2-7]{52}", r"azure[._\-]?(?:devops[._\-]?)?pat|ado_pat", ("azure.pat", "azure_pat",
                "azure-pat", "azure_devops_pat", "ado_pat"), r"azure[ \t]+devops", ("azure devops",)),
    # Plaid secrets (30 hex) and Cloudflare API tokens (40 characters, never all hex: not a commit) in a
    # text that names the provider and a credential, as a table of integrations holds them.
    ProviderKey("plaid_token", r"[a-f0-9]{30}", words=r"plaid", word_triggers=("plaid",)),
    ProviderKey("cloudflare_token", r"[A-Za-z0-9_\-]{40}", words=r"cloudflare", word_triggers=("cloudflare",), not_hex=True),
    # Twilio API key secrets, 32 letters and digits, beside an API key "SK…" (twilio.com/docs, "API keys":
    # TWILIO_API_SECRET).
    ProviderKey("twilio_api_secret", r"[A-Za-z0-9]{32}", r"twilio_api_secret", ("twilio_api_secret",)),
    # Weights & Biases API keys, 40 hex (docs.wandb.ai, "wandb login"), in a text that names W&B.
    ProviderKey("wandb_key", r"[a-f0-9]{40}", words=r"wandb|weights[ \t]*(?:&|and)[ \t]*biases",
                word_triggers=("wandb", "weights")),
    # RevenueCat secret API keys "sk_" and 32 letters and digits (revenuecat.com/docs, "Authentication";
    # the public SDK keys are "appl_", "goog_" …), under REVENUECAT_* names or in a text that names
    # RevenueCat or calls its SDK (``Purchases.configure(withAPIKey: …)``).
    ProviderKey("revenuecat_secret_key", r"sk_[A-Za-z0-9]{32}", r"revenuecat_(?:secret_|api_)?key|revenuecat_api_secret",
                ("revenuecat_",), r"revenuecat|api\.revenuecat\.com|purchases\.configure", ("revenuecat", "purchases.configure")),
    # GoCardless access tokens "live_"/"sandbox_" and 40 characters (developer.gocardless.com,
    # "Authentication"), in a text that names GoCardless (Mollie's "live_" keys are 30).
    ProviderKey("gocardless_api_token", r"(?:live|sandbox)_[A-Za-z0-9_\-=]{40}", words=r"gocardless",
                word_triggers=("gocardless",)),
)


def provider_name_detectors() -> tuple[ByName | InContext, ...]:
    return (*(by_name(key) for key in PROVIDER_KEYS if key.names),
            *(in_context(key) for key in PROVIDER_KEYS if key.words))
