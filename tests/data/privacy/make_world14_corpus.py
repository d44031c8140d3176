#!/usr/bin/env python3
"""Fourteenth blind held-out extension ("world14") of the privacy test corpus.

Written blind: nothing here was derived from the masker, its rules or its
tests, and the masker was never run while writing it.  Every value is
generated from public descriptions of the formats (provider documentation of
token prefixes / lengths / alphabets, published national-identifier checksum
algorithms, ISO 13616 IBAN mod-97 check digits, Luhn, the ABA routing-number
checksum, ISO 7064, Verhoeff, CRC32 for GitHub / npm tokens).

Theme: what an agent sees while working on a product, rather than on its
infrastructure.  HTTP archives and copied browser requests (HAR JSON, Chrome
"Copy as fetch" / "Copy as cURL (cmd)" / "Copy as PowerShell", raw HTTP/1.1
and HTTP/2 header dumps, Set-Cookie, Postman environment exports, websocket
URLs, HTTPie), mobile-app configuration (Firebase google-services.json and
GoogleService-Info.plist, Android gradle.properties / local.properties /
signingConfigs / keytool, iOS .xcconfig, App Store Connect .p8 keys and
fastlane, Expo eas.json, SDK initialisation in Swift / Kotlin / Dart),
payment and billing exports (card numbers with many separators, IBANs of ~45
countries with their BIC beside them, SEPA pain.001 XML, MT940 statements,
US ACH routing + account), CRM / HR exports in a dozen languages (CSV with
localised headers, vCard, LDIF, CRM JSON, onboarding forms with national
ids), Jupyter notebooks and pandas / polars prints of personal data,
markdown tables in incident write-ups, chat messages that paste secrets in
prose in ~30 languages (Slack export JSON, e-mail threads), AI / LLM tool
configuration (MCP server JSON for Cursor / Claude Desktop / VS Code,
Continue config.yaml, aider .aider.conf.yml, LiteLLM proxy config, opencode,
Claude Code settings.json), message-queue connection strings (AMQP, Kafka /
Confluent JAAS, NATS, Azure Service Bus, Redis streams, Celery) and webhook
URLs (Slack, Discord, Teams, Google Chat, Mattermost, Zapier, Telegram).

Usage:
    python3 make_world14_corpus.py --out DIR      # writes DIR/heldout_world14.jsonl

Output: one JSON object per line,
    {"text": str, "canaries": [str, ...], "kinds": [str, ...]}
Every canary occurs verbatim in ``text``; ``kinds[i]`` labels ``canaries[i]``.
Clean rows (text that must come through unchanged) have empty lists.
The output is fully reproducible: all randomness comes from
``random.Random(1414)``; nothing depends on time, environment or hash order.

Labels reuse the names the earlier corpus files use for the same kind
(``openai_key``, ``aws_key``, ``aws_secret``, ``google_api_key``, ``ssn`` ...).

Covered kinds
-------------
Secrets: openai_key, anthropic_key, github_token, gitlab_token, aws_key,
aws_secret, google_api_key, google_oauth_secret, google_oauth_token,
azure_storage_key, azure_client_secret, azure_openai_api_key, stripe_key,
slack_token, twilio_api_key, twilio_auth_token, sendgrid_key,
twilio_api_secret, huggingface_token, npm_token, pypi_token, datadog_key,
sentry_token, shopify_token, telegram_token, notion_token, linear_key,
cloudflare_token;
and providers not in world13's list: doppler_token, planetscale_token,
databricks_token, pulumi_token, buildkite_token, rubygems_key, airtable_token,
hubspot_token, contentful_token, mapbox_token, braintree_token,
perplexity_key, xai_key, deepseek_key, langfuse_key, brevo_key, shippo_token,
dynatrace_token, posthog_personal_key, sourcegraph_token, neon_api_key,
fcm_server_key, nuget_key, cratesio_token, sonar_token, elevenlabs_key,
fireworks_api_key, cerebras_api_key, wandb_key, and (new labels) ably_api_key,
revenuecat_secret_key, tavily_api_key, firecrawl_api_key, confluent_api_key,
confluent_api_secret, azure_servicebus_key.
Webhooks (whole URL): slack_webhook, discord_webhook, teams_webhook,
google_chat_webhook, mattermost_webhook, zapier_webhook.
Generic: password (signing-store passwords, app-specific passwords, prose in
~30 languages, form posts), url_credentials (password part of user:pass@
URLs), basic_auth (base64 user:pass), bearer_token (opaque unbranded bearer
tokens), api_key (unbranded / self-chosen keys, e.g. a LiteLLM master key),
app_secret (a GitHub App's webhook secret),
private_key (PEM: .p8 App Store Connect keys, GitHub App keys, service
accounts, escaped inside JSON / Ruby strings), jwt, session_cookie.

Personal data: email, phone (26 countries, national and international
forms), card_number (Luhn-valid; separators: none, space, hyphen, dot,
no-break space, double space), iban (46 countries, valid ISO 13616 check
digits; national check digits for FR / MC, ES, BE, NL, NO, PT, SI; the BIC
beside it is the account's own bank where the BBAN names one: GB, NL, IE,
ES, PT, RO, BE),
us_bank_account (the account number next to an ABA-valid routing number;
the routing number, like the BIC, is a public bank identifier and not a
canary), and national identifiers with valid check digits where the scheme
has one: ssn, us_itin, uk_nino, ca_sin, fr_nir, de_tax_id, aadhaar, in_pan,
es_dni, es_nie, it_codice_fiscale, nl_bsn, be_nrn, pt_nif, pl_pesel,
se_personnummer, dk_cpr, ie_ppsn, ch_ahv, at_svnr, br_cpf, mx_curp, cl_rut,
jp_my_number, kr_rrn, au_tfn, za_id, sg_nric, tr_tckn.  Names, addresses and
dates of birth appear around them as context but are not canaries.

Clean rows: HAR entries and header dumps without credentials (request ids,
etags, cf-ray, SRI hashes, analytics cookies), Firebase / gradle / xcconfig
files with placeholders or env references, App Store Connect key ids and
issuer ids without the key, billing exports with masked cards ("•••• 4242",
"**** **** **** 4242"), Stripe object ids, VAT numbers, public routing
numbers and BICs on their own, CRM aggregates, pandas describe() / info()
output, notebook training logs, incident timelines without values, chat in
many languages about passwords and tokens without any, LLM tool configs
that reference env vars (os.environ/…, ${{ secrets.X }}, <YOUR_API_KEY>),
queue URLs without credentials, documented placeholder webhooks, UUIDs, git
SHAs, digests, build ids, base64 of non-secret data, order / invoice /
tracking numbers, ISBNs, versions, timestamps, prices, public keys (SSH,
PEM public keys, JWKS, age recipients).
"""

# ruff: noqa: UP031, E501
# (%-formatting and long literal lines of data throughout, as in the earlier blind generators)

import argparse
import base64
import collections
import json
import os
import random
import re
import struct
import zlib

R = random.Random(1414)

UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LO = "abcdefghijklmnopqrstuvwxyz"
DIG = "0123456789"
AN = UP + LO + DIG
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = UP + LO + DIG + "+/"
B64U = UP + LO + DIG + "-_"
B32 = UP + "234567"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return seq[R.randrange(len(seq))]


def chance(p):
    return R.random() < p


def digits(n):
    return "".join(R.choice(DIG) for _ in range(n))


def nz(n):
    return str(R.randint(1, 9)) + digits(n - 1)


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64url(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def uuid4():
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def iso_ts(year=2025):
    return "%d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (year, R.randint(1, 12), R.randint(1, 28), R.randint(0, 23),
                                                  R.randint(0, 59), R.randint(0, 59), R.randint(0, 999))


def hhmm():
    return "%02d:%02d" % (R.randint(7, 23), R.randint(0, 59))


def epoch():
    return R.randint(1735689600, 1767225600)


# ---------------------------------------------------------------------------
# check digits (all from published algorithms)
# ---------------------------------------------------------------------------

def luhn_digit(payload):
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_valid(num):
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
       [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(num):
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _VD[c][_VP[(i + 1) % 8][int(ch)]]
    return str(_VINV[c])


def verhoeff_valid(num):
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def iso7064_11_10(num):
    product = 10
    for ch in num:
        s = (int(ch) + product) % 10
        if s == 0:
            s = 10
        product = (s * 2) % 11
    c = 11 - product
    return "0" if c == 10 else str(c)


def crc32_b62(body):
    """GitHub / npm token checksum: CRC32 of the random part, base62, left-padded to 6."""
    n = zlib.crc32(body.encode()) & 0xFFFFFFFF
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = (DIG + UP + LO)[r] + out
    return out.rjust(6, "0")


def aba_valid(r9):
    d = [int(x) for x in r9]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 == 0


# ---------------------------------------------------------------------------
# people
# ---------------------------------------------------------------------------

COUNTRIES = {}


def country(code, lang, first, last, cities, mail):
    COUNTRIES[code] = dict(lang=lang, first=first, last=last, cities=cities, mail=mail)


country("US", "en", ["Ashley", "Jordan", "Malik", "Brianna", "Cody", "Gabriela", "Trevor", "Jasmine", "Dustin", "Kendra"],
        ["Henderson", "Ramirez", "Sullivan", "Okafor", "Whitaker", "Tran", "Delgado", "Fitzgerald", "Barnes", "Yoder"],
        ["Raleigh, NC 27601", "Boise, ID 83702", "St. Paul, MN 55102", "Richmond, VA 23219", "Tucson, AZ 85701"],
        ["gmail.com", "yahoo.com", "hotmail.com", "icloud.com", "comcast.net"])
country("CA", "en", ["Mathis", "Ava", "Jacob", "Florence", "Logan", "Rosalie", "Aiden", "Charlotte"],
        ["Bouchard", "Côté", "Fraser", "Morin", "Chen", "Pelletier", "Grant", "Lavoie"],
        ["Ottawa, ON K1P 5J2", "Québec, QC G1R 4P5", "Winnipeg, MB R3C 0V8", "Victoria, BC V8W 1P6"],
        ["gmail.com", "sympatico.ca", "shaw.ca", "hotmail.com"])
country("GB", "en", ["Alfie", "Evie", "Archie", "Maisie", "Reggie", "Imogen", "Callum", "Phoebe"],
        ["Patel", "Harrison", "Begum", "Lloyd", "Fletcher", "Khan", "Barker", "Doherty"],
        ["Sheffield S10 2TN", "Nottingham NG7 1AA", "Brighton BN2 1JE", "Edinburgh EH9 1PR", "Swansea SA1 8EN"],
        ["gmail.com", "sky.com", "virginmedia.com", "outlook.com", "yahoo.co.uk"])
country("IE", "en", ["Oisín", "Ciara", "Darragh", "Aisling", "Fionn", "Róisín"],
        ["O'Brien", "Doyle", "McCarthy", "Kavanagh", "Brennan", "Nolan"],
        ["Limerick V94 T9PX", "Kilkenny R95 X2Y8", "Sligo F91 YW50"], ["gmail.com", "eircom.net", "outlook.ie"])
country("FR", "fr", ["Margaux", "Baptiste", "Élodie", "Mathéo", "Clémence", "Anaïs", "Quentin", "Solène"],
        ["Petit", "Lambert", "Mercier", "Faure", "Chevalier", "Gauthier", "Perrin", "Boyer"],
        ["33000 Bordeaux", "67000 Strasbourg", "59000 Lille", "06000 Nice", "35000 Rennes"],
        ["orange.fr", "free.fr", "wanadoo.fr", "gmail.com", "yahoo.fr"])
country("DE", "de", ["Finn", "Hannah", "Moritz", "Clara", "Niklas", "Johanna", "Tim", "Greta", "Björn", "Ute"],
        ["Krüger", "Schulz", "Neumann", "Zimmermann", "Braun", "Hartmann", "Lange", "Vogel"],
        ["01067 Dresden", "30159 Hannover", "90402 Nürnberg", "28195 Bremen", "70173 Stuttgart"],
        ["gmx.net", "web.de", "t-online.de", "mailbox.org", "gmail.com"])
country("AT", "de", ["Florian", "Katharina", "Lukas", "Magdalena", "Sebastian", "Theresa"],
        ["Hofer", "Moser", "Leitner", "Eder", "Fuchs", "Berger"],
        ["6020 Innsbruck", "4020 Linz", "9020 Klagenfurt"], ["gmx.at", "a1.net", "gmail.com"])
country("CH", "de", ["Nico", "Alina", "Jan", "Selina", "Fabian", "Noemi"],
        ["Zürcher", "Gerber", "Widmer", "Schmid", "Steiner", "Bianchi"],
        ["6003 Luzern", "9000 St. Gallen", "1003 Lausanne"], ["bluewin.ch", "sunrise.ch", "gmail.com"])
country("ES", "es", ["Alejandro", "Paula", "Daniel", "Nerea", "Adrián", "Irene", "Marcos", "Aitana"],
        ["Ruiz", "Jiménez", "Moreno", "Muñoz", "Álvarez", "Gil", "Serrano", "Castillo"],
        ["29001 Málaga", "50001 Zaragoza", "15001 A Coruña", "03001 Alicante", "07001 Palma"],
        ["gmail.com", "hotmail.es", "yahoo.es", "movistar.es"])
country("PT", "pt", ["Afonso", "Leonor", "Duarte", "Matilde", "Gonçalo", "Carolina"],
        ["Rodrigues", "Martins", "Sousa", "Fernandes", "Gonçalves", "Almeida"],
        ["4700-320 Braga", "8000-138 Faro", "3800-200 Aveiro"], ["sapo.pt", "gmail.com", "outlook.pt"])
country("IT", "it", ["Alessandro", "Giorgia", "Lorenzo", "Martina", "Tommaso", "Aurora", "Riccardo", "Beatrice"],
        ["Greco", "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano"],
        ["80133 Napoli", "90133 Palermo", "16121 Genova", "70121 Bari", "37121 Verona"],
        ["libero.it", "alice.it", "gmail.com", "tin.it", "virgilio.it"])
country("NL", "nl", ["Thijs", "Lieke", "Ruben", "Noor", "Jesse", "Evi"],
        ["Mulder", "de Boer", "Vos", "Peters", "Hendriks", "van Leeuwen"],
        ["9711 LM Groningen", "5611 AB Eindhoven", "6811 CG Arnhem"], ["ziggo.nl", "xs4all.nl", "gmail.com"])
country("BE", "nl", ["Jules", "Marie", "Lucas", "Ella", "Victor", "Lina"],
        ["Willems", "Goossens", "Wouters", "Jacobs", "Mertens", "Dupont"],
        ["3000 Leuven", "8000 Brugge", "5000 Namur"], ["telenet.be", "proximus.be", "gmail.com"])
country("SE", "sv", ["Astrid", "Viktor", "Ebba", "Axel", "Saga", "Elias"],
        ["Lindberg", "Bergström", "Holm", "Sandberg", "Forsberg", "Ekström"],
        ["752 20 Uppsala", "581 83 Linköping", "903 26 Umeå"], ["telia.com", "bredband.net", "gmail.com"])
country("DK", "da", ["Asger", "Sofie", "Frederik", "Laura", "Oliver", "Karla"],
        ["Madsen", "Rasmussen", "Sørensen", "Thomsen", "Poulsen", "Kristensen"],
        ["9000 Aalborg", "6700 Esbjerg", "7100 Vejle"], ["mail.dk", "jubii.dk", "gmail.com"])
country("PL", "pl", ["Antoni", "Hanna", "Filip", "Lena", "Wojciech", "Natalia"],
        ["Zieliński", "Szymańska", "Woźniak", "Dąbrowski", "Kozłowska", "Jankowski"],
        ["60-101 Poznań", "90-001 Łódź", "20-001 Lublin"], ["wp.pl", "o2.pl", "gmail.com", "onet.pl"])
country("IN", "en", ["Aditya", "Ishita", "Karthik", "Meera", "Siddharth", "Pooja", "Rahul", "Divya"],
        ["Joshi", "Menon", "Chatterjee", "Pillai", "Agarwal", "Deshpande", "Rao", "Malhotra"],
        ["Kochi 682016", "Ahmedabad 380009", "Jaipur 302001", "Noida 201301", "Kolkata 700019"],
        ["gmail.com", "yahoo.in", "rediffmail.com", "outlook.com"])
country("BR", "pt", ["Rafael", "Camila", "Thiago", "Beatriz", "Felipe", "Fernanda"],
        ["Santos", "Rocha", "Almeida", "Ribeiro", "Barbosa", "Teixeira"],
        ["80010-000 Curitiba - PR", "90010-000 Porto Alegre - RS", "40020-000 Salvador - BA"],
        ["gmail.com", "uol.com.br", "terra.com.br", "hotmail.com"])
country("MX", "es", ["Emiliano", "Renata", "Leonardo", "Fernanda", "Sebastián", "Valeria"],
        ["López", "Martínez", "García", "Sánchez", "Pérez", "Jiménez"],
        ["72000 Puebla, Pue.", "76000 Querétaro, Qro.", "97000 Mérida, Yuc."], ["gmail.com", "hotmail.com", "outlook.com"])
country("CL", "es", ["Agustín", "Antonella", "Vicente", "Florencia", "Maximiliano", "Isidora"],
        ["Muñoz", "Rojas", "Díaz", "Soto", "Contreras", "Silva"],
        ["Santiago 8320000", "Valparaíso 2340000", "Concepción 4030000"], ["gmail.com", "vtr.net", "hotmail.com"])
country("JP", "ja", ["Yuto", "Aoi", "Kaito", "Mei", "Riku", "Yuna"],
        ["Kobayashi", "Yamamoto", "Nakamura", "Kato", "Yoshida", "Yamada"],
        ["京都府京都市中京区", "福岡県福岡市中央区", "北海道札幌市中央区"], ["gmail.com", "yahoo.co.jp", "icloud.com"])
country("KR", "ko", ["Dohyun", "Hayoon", "Seojun", "Jiyu", "Eunwoo", "Chaewon"],
        ["Yoon", "Jang", "Lim", "Han", "Oh", "Seo"],
        ["인천광역시 연수구", "대구광역시 수성구", "광주광역시 서구"], ["naver.com", "kakao.com", "gmail.com"])
country("AU", "en", ["Cooper", "Matilda", "Harrison", "Isabella", "Angus", "Sienna"],
        ["Kelly", "Martin", "Anderson", "Nguyen", "Walsh", "Campbell"],
        ["Adelaide SA 5000", "Hobart TAS 7000", "Canberra ACT 2601", "Gold Coast QLD 4217"],
        ["bigpond.com", "optusnet.com.au", "gmail.com"])
country("ZA", "en", ["Bongani", "Ayanda", "Johan", "Lindiwe", "Kagiso", "Annelie"],
        ["Khumalo", "Pretorius", "Ndlovu", "Venter", "Zulu", "Mahlangu"],
        ["Pretoria 0002", "Bloemfontein 9301", "Gqeberha 6001"], ["gmail.com", "webmail.co.za", "telkomsa.net"])
country("SG", "en", ["Jia Hui", "Zhi Hao", "Nur Aisyah", "Arjun", "Hui Min", "Marcus"],
        ["Lee", "Chua", "Koh", "Ong", "Ismail", "Teo"],
        ["Singapore 150167", "Singapore 310480", "Singapore 608526"], ["gmail.com", "yahoo.com.sg", "hotmail.com"])
country("TR", "tr", ["Can", "Ece", "Burak", "Defne", "Kerem", "Selin"],
        ["Aydın", "Arslan", "Koç", "Kurt", "Özdemir", "Doğan"],
        ["16110 Nilüfer/Bursa", "07100 Muratpaşa/Antalya", "42060 Selçuklu/Konya"],
        ["gmail.com", "hotmail.com", "outlook.com.tr"])

FOLD = str.maketrans({"é": "e", "è": "e", "ë": "e", "ü": "u", "ö": "o", "ä": "a", "á": "a", "í": "i", "ó": "o",
                      "ú": "u", "ñ": "n", "ç": "c", "ø": "o", "å": "a", "ï": "i", "ô": "o", "É": "E", "Ö": "O",
                      "Á": "A", "ł": "l", "ś": "s", "ń": "n", "ć": "c", "ż": "z", "ź": "z", "ę": "e", "ą": "a",
                      "ã": "a", "ê": "e", "ı": "i", "ğ": "g", "ş": "s", "Ó": "O", "'": "", " ": ""})


def fold(s):
    return s.translate(FOLD).lower()


_EMAILS = set()


def email_for(first, last, domains):
    f, ln = fold(first), fold(last)
    for _ in range(60):
        k = R.randrange(7)
        if k == 0:
            local = "%s.%s" % (f, ln)
        elif k == 1:
            local = "%s%s" % (f[0], ln)
        elif k == 2:
            local = "%s.%s%02d" % (f, ln, R.randint(0, 99))
        elif k == 3:
            local = "%s_%s" % (ln, f)
        elif k == 4:
            local = "%s%d" % (f, R.randint(1970, 2006))
        elif k == 5:
            local = "%s.%s+%s" % (f, ln, pick(["orders", "crm", "app", "promo"]))
        else:
            local = "%s-%s" % (f, ln[:3])
        e = "%s@%s" % (local, pick(domains))
        if e not in _EMAILS:
            _EMAILS.add(e)
            return e
    return "%s.%s.%d@%s" % (f, ln, R.randint(1000, 99999), pick(domains))


WORK_DOMAINS = ["fernhill.app", "brackenpay.com", "oriole.health", "tessellate.io", "ridgeway-retail.co.uk",
                "meadowlark.de", "cormorant.fr", "larkspur.es", "gannet-mobile.com", "quayside.nl", "heronbank.ie",
                "saltmarsh.co", "ketchup-labs.dev", "ostrava-soft.cz", "pelican-crm.com"]


def work_email(first, last):
    return email_for(first, last, WORK_DOMAINS)


# ---------------------------------------------------------------------------
# phones: each returns (national form, international form)
# ---------------------------------------------------------------------------

def ph_US():
    a = pick(["646", "917", "312", "773", "415", "628", "206", "720", "404", "615", "919", "512"])
    ex = str(R.randint(2, 9)) + digits(2)
    while ex == "555":
        ex = str(R.randint(2, 9)) + digits(2)
    n = digits(4)
    return (pick(["(%s) %s-%s", "%s-%s-%s", "%s.%s.%s"]) % (a, ex, n),
            pick(["+1 %s %s %s", "+1-%s-%s-%s", "+1 (%s) %s-%s", "+1%s%s%s"]) % (a, ex, n))


def ph_CA():
    a = pick(["613", "418", "204", "250", "780", "905"])
    ex, n = str(R.randint(2, 9)) + digits(2), digits(4)
    return "%s-%s-%s" % (a, ex, n), pick(["+1 %s %s %s", "+1 (%s) %s-%s"]) % (a, ex, n)


def ph_GB():
    if chance(0.7):
        p = "7" + pick("4579") + digits(2)
        while p.startswith("770"):
            p = "7" + pick("4579") + digits(2)
        r = digits(6)
        return "0%s %s" % (p, r), pick(["+44 %s %s", "+44 (0)%s %s", "+44%s%s"]) % (p, r)
    a = pick(["114", "115", "117", "121", "131"])
    r = nz(3) + " " + digits(4)
    return "0%s %s" % (a, r), "+44 %s %s" % (a, r)


def ph_IE():
    p = pick(["83", "85", "86", "87", "89"])
    r = digits(3) + " " + digits(4)
    return "0%s %s" % (p, r), "+353 %s %s" % (p, r)


def ph_FR():
    p = pick(["6", "7", "6", "1", "5"])
    g = [digits(2) for _ in range(4)]
    sep = " " if chance(0.7) else "."
    return "0" + p + sep + sep.join(g), pick(["+33 %s %s", "+33 (0)%s %s"]) % (p, " ".join(g))


def ph_DE():
    if chance(0.6):
        p = pick(["151", "157", "159", "160", "163", "172", "175", "177", "178"])
        r = nz(7) if p == "160" else nz(8)
        return pick(["0%s %s", "0%s/%s", "0%s-%s"]) % (p, r), pick(["+49 %s %s", "+49 (0)%s %s", "+49%s%s"]) % (p, r)
    a = pick(["30", "40", "89", "211", "351", "511"])
    r = nz(7)
    return pick(["0%s %s", "0%s/%s"]) % (a, r), "+49 %s %s" % (a, r)


def ph_AT():
    p = pick(["664", "676", "650", "699", "681"])
    r = nz(7)
    return "0%s %s" % (p, r), "+43 %s %s" % (p, r)


def ph_CH():
    p = pick(["76", "77", "78", "79"])
    g = "%s %s %s" % (digits(3), digits(2), digits(2))
    return "0%s %s" % (p, g), "+41 %s %s" % (p, g)


def ph_ES():
    p = pick("67") + digits(2)
    a, b, d = digits(2), digits(2), digits(2)
    if chance(0.5):
        return "%s %s %s %s" % (p, a, b, d), "+34 %s %s %s %s" % (p, a, b, d)
    return "%s %s%s %s%s" % (p, a, b[0], b[1], d), "+34 %s %s%s %s%s" % (p, a, b[0], b[1], d)


def ph_PT():
    p = "9" + pick("1236") + digits(1)
    a, b = digits(3), digits(3)
    return "%s %s %s" % (p, a, b), "+351 %s %s %s" % (p, a, b)


def ph_IT():
    p = "3" + pick(["28", "35", "39", "45", "66", "93"])
    r = digits(3), digits(4)
    return pick(["%s %s %s", "%s %s%s"]) % (p, r[0], r[1]), pick(["+39 %s %s %s", "+39 %s %s%s"]) % (p, r[0], r[1])


def ph_NL():
    r = nz(8)
    return pick(["06 %s", "06-%s"]) % r, pick(["+31 6 %s", "+31 (0)6 %s", "+316%s"]) % r


def ph_BE():
    p = pick(["472", "473", "476", "478", "485", "496"])
    g = "%s %s %s" % (digits(2), digits(2), digits(2))
    return "0%s %s" % (p, g), "+32 %s %s" % (p, g)


def ph_SE():
    p = pick(["70", "72", "73", "76", "79"])
    g = "%s %s %s" % (digits(3), digits(2), digits(2))
    return "0%s-%s" % (p, g), "+46 %s %s" % (p, g)


def ph_DK():
    g = "%s %s %s %s" % (pick(["20", "21", "28", "31", "40", "50", "60", "71"]), digits(2), digits(2), digits(2))
    return g, "+45 %s" % g


def ph_PL():
    p = pick("5678") + digits(2)
    a, b = digits(3), digits(3)
    return "%s %s %s" % (p, a, b), pick(["+48 %s %s %s", "+48 %s-%s-%s"]) % (p, a, b)


def ph_IN():
    m = pick("9876") + digits(4)
    r = digits(5)
    return pick(["%s %s", "0%s %s"]) % (m, r), pick(["+91 %s %s", "+91-%s%s", "+91 %s-%s"]) % (m, r)


def ph_BR():
    a = pick(["11", "21", "41", "48", "51", "62", "71", "85"])
    r1, r2 = "9" + digits(4), digits(4)
    return "(%s) %s-%s" % (a, r1, r2), pick(["+55 %s %s-%s", "+55 (%s) %s-%s"]) % (a, r1, r2)


def ph_MX():
    a = pick(["55", "33", "81", "222", "442"])
    n = 8 if len(a) == 2 else 7
    r = digits(n)
    r = r[:n - 4] + " " + r[n - 4:]
    return "%s %s" % (a, r), "+52 %s %s" % (a, r)


def ph_CL():
    r = digits(4) + " " + digits(4)
    return "9 %s" % r, "+56 9 %s" % r


def ph_JP():
    if chance(0.7):
        p = pick(["090", "080", "070"])
        a, b = digits(4), digits(4)
        return "%s-%s-%s" % (p, a, b), "+81 %s-%s-%s" % (p[1:], a, b)
    a, b = digits(4), digits(4)
    return "06-%s-%s" % (a, b), "+81 6-%s-%s" % (a, b)


def ph_KR():
    a, b = digits(4), digits(4)
    return "010-%s-%s" % (a, b), pick(["+82 10-%s-%s", "+82 10 %s %s"]) % (a, b)


def ph_AU():
    if chance(0.7):
        p = "4" + pick("0123456789") + digits(1)
        while p == "491":
            p = "4" + digits(2)
        a, b = digits(3), digits(3)
        return "0%s %s %s" % (p, a, b), "+61 %s %s %s" % (p, a, b)
    a = pick("2378")
    r = nz(4) + " " + digits(4)
    return "(0%s) %s" % (a, r), "+61 %s %s" % (a, r)


def ph_ZA():
    p = pick(["71", "72", "76", "79", "81", "82", "83", "84"])
    r = digits(3) + " " + digits(4)
    return "0%s %s" % (p, r), "+27 %s %s" % (p, r)


def ph_SG():
    r = pick("89") + digits(3) + " " + digits(4)
    return r, "+65 %s" % r


def ph_TR():
    p = pick(["530", "532", "535", "541", "543", "552"])
    g = "%s %s %s" % (digits(3), digits(2), digits(2))
    return "0%s %s" % (p, g), "+90 %s %s" % (p, g)


PHONES = {k[3:]: v for k, v in list(globals().items()) if k.startswith("ph_")}


def phone(cc, intl=None):
    nat, itl = PHONES[cc]()
    if intl is None:
        intl = chance(0.5)
    return itl if intl else nat


# ---------------------------------------------------------------------------
# national identifiers (valid check digits where the scheme has one)
# ---------------------------------------------------------------------------

_DOB_HINT = []


def dob(lo=1955, hi=2003):
    """A birth date; while a Person draws its id, that person's own date (so ids that embed it agree with it)."""
    if _DOB_HINT and lo <= _DOB_HINT[0][0] <= hi:
        return _DOB_HINT[0]
    return R.randint(lo, hi), R.randint(1, 12), R.randint(1, 28)


def g_ssn():
    while True:
        a = R.randint(1, 899)
        if a == 666:
            continue
        v = "%03d-%02d-%04d" % (a, R.randint(1, 99), R.randint(1, 9999))
        if v not in ("078-05-1120", "219-09-9999", "123-45-6789"):
            return v if chance(0.85) else v.replace("-", "")


def g_itin():
    mid = pick(list(range(70, 89)) + [90, 91, 92, 94, 95, 96, 97, 98, 99])
    return "9%02d-%02d-%04d" % (R.randint(0, 99), mid, R.randint(1, 9999))


def g_nino():
    first = "ABCEGHJKLMNOPRSTWXYZ"
    second = "ABCEGHJKLMNPRSTWXYZ"
    while True:
        p = pick(first) + pick(second)
        if p not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            break
    d = digits(6)
    s = pick("ABCD")
    return pick(["%s %s %s %s %s" % (p, d[:2], d[2:4], d[4:], s), p + d + s])


def g_sin():
    b = pick("1234567") + digits(7)
    v = b + luhn_digit(b)
    return pick(["%s %s %s", "%s-%s-%s"]) % (v[:3], v[3:6], v[6:])


def g_nir():
    sex = pick("12")
    y, m, _ = dob()
    dept = "%02d" % pick([i for i in range(1, 96) if i != 20])
    com = "%03d" % R.randint(1, 899)
    order = "%03d" % R.randint(1, 999)
    base = sex + "%02d" % (y % 100) + "%02d" % m + dept + com + order
    key = "%02d" % (97 - int(base) % 97)
    if chance(0.5):
        return " ".join([base[0], base[1:3], base[3:5], base[5:7], base[7:10], base[10:13], key])
    return base + key


def g_steuer_id():
    while True:
        ds = list(range(10))
        R.shuffle(ds)
        ten = ds[:9] + [ds[R.randrange(9)]]
        R.shuffle(ten)
        if ten[0] == 0:
            continue
        s = "".join(map(str, ten))
        if any(s[i] == s[i + 1] == s[i + 2] for i in range(8)):
            continue
        v = s + iso7064_11_10(s)
        return pick([v, "%s %s %s %s" % (v[:2], v[2:5], v[5:8], v[8:])])


def g_aadhaar():
    b = pick("23456789") + digits(10)
    v = b + verhoeff_digit(b)
    assert verhoeff_valid(v)
    return pick(["%s %s %s", "%s-%s-%s", "%s%s%s"]) % (v[:4], v[4:8], v[8:])


def g_pan(last=None):
    last = last or pick(UP)
    return rs(UP, 3) + "P" + fold(last)[0].upper() + digits(4) + pick(UP)


DNI_L = "TRWAGMYFPDXBNJZSQVHLCKE"


def g_dni():
    n = R.randint(10000000, 79999999)
    v = "%08d%s" % (n, DNI_L[n % 23])
    return pick([v, v[:8] + "-" + v[8]])


def g_nie():
    p = pick("XYZ")
    n = digits(7)
    letter = DNI_L[int(str("XYZ".index(p)) + n) % 23]
    return pick(["%s%s%s", "%s-%s-%s"]) % (p, n, letter)


_CF_ODD = {"0": 1, "1": 0, "2": 5, "3": 7, "4": 9, "5": 13, "6": 15, "7": 17, "8": 19, "9": 21,
           "A": 1, "B": 0, "C": 5, "D": 7, "E": 9, "F": 13, "G": 15, "H": 17, "I": 19, "J": 21, "K": 2, "L": 4,
           "M": 18, "N": 20, "O": 11, "P": 3, "Q": 6, "R": 8, "S": 12, "T": 14, "U": 16, "V": 10, "W": 22,
           "X": 25, "Y": 24, "Z": 23}


def _cf3(name, first):
    n = fold(name).upper()
    cons = [ch for ch in n if ch in UP and ch not in "AEIOU"]
    vow = [ch for ch in n if ch in "AEIOU"]
    if first and len(cons) > 3:
        cons = [cons[0], cons[2], cons[3]]
    return "".join((cons + vow + ["X"] * 3)[:3])


def g_cf(first, last):
    y, m, d = dob()
    s = _cf3(last, False) + _cf3(first, True) + "%02d" % (y % 100) + "ABCDEHLMPRST"[m - 1]
    s += "%02d" % (d + 40 if chance(0.5) else d)
    s += pick(["F839", "D969", "G273", "A662", "L781", "H501", "F205", "B157", "C933", "E625"])
    tot = 0
    for i, ch in enumerate(s):
        tot += _CF_ODD[ch] if i % 2 == 0 else (int(ch) if ch in DIG else ord(ch) - 65)
    return s + UP[tot % 26]


def g_bsn():
    while True:
        b = nz(8)
        c = sum(int(x) * (9 - i) for i, x in enumerate(b)) % 11
        if c < 10:
            v = b + str(c)
            return pick([v, "%s.%s.%s" % (v[:4], v[4:6], v[6:])])


def g_nrn():
    y, m, d = dob(1955, 1999)
    base = "%02d%02d%02d%03d" % (y % 100, m, d, R.randint(1, 997))
    v = base + "%02d" % (97 - int(base) % 97)
    return pick(["%s.%s.%s-%s.%s" % (v[:2], v[2:4], v[4:6], v[6:9], v[9:]), v])


def g_nif():
    b = pick("123") + digits(7)
    c = 11 - sum(int(x) * (9 - i) for i, x in enumerate(b)) % 11
    return b + str(0 if c >= 10 else c)


def g_pesel():
    y, m, d = dob(1955, 2006)
    mm = m + (20 if y >= 2000 else 0)
    b = "%02d%02d%02d" % (y % 100, mm, d) + digits(4)
    w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
    return b + str((10 - sum(int(x) * w[i] for i, x in enumerate(b)) % 10) % 10)


def g_pnr():
    y, m, d = dob(1950, 2004)
    b = "%02d%02d%02d" % (y % 100, m, d) + digits(3)
    v = b + luhn_digit(b)
    return pick(["%s-%s" % (v[:6], v[6:]), "%d%s-%s" % (y // 100, v[:6], v[6:]), "%d%s" % (y // 100, v)])


def g_cpr():
    """DDMMYY-SSSS; the first serial digit fixes the century (0-3 always 19xx; 4 and 9 give 19xx for YY >= 37)."""
    y, m, d = dob(1950, 1999)
    return "%02d%02d%02d-%s%s" % (d, m, y % 100, pick("012349"), digits(3))


def g_ppsn():
    b = digits(7)
    s = sum(int(x) * (8 - i) for i, x in enumerate(b))
    return b + "WABCDEFGHIJKLMNOPQRSTUV"[s % 23]


def g_ahv():
    b = "756" + digits(9)
    s = sum(int(x) * (1 if i % 2 == 0 else 3) for i, x in enumerate(b))
    v = b + str((10 - s % 10) % 10)
    return "%s.%s.%s.%s" % (v[:3], v[3:7], v[7:11], v[11:])


def g_svnr():
    w = [3, 7, 9, 5, 8, 4, 2, 1, 6]
    while True:
        serial = str(R.randint(1, 9)) + digits(2)
        y, m, d = dob(1950, 2003)
        bd = "%02d%02d%02d" % (d, m, y % 100)
        c = sum(int(x) * w[i] for i, x in enumerate(serial + bd)) % 11
        if c == 10:
            continue
        return pick(["%s%d %s", "%s%d%s"]) % (serial, c, bd)


def g_cpf():
    while True:
        b = [R.randint(0, 9) for _ in range(9)]
        if len(set(b)) > 1:
            break
    b.append(sum(b[i] * (10 - i) for i in range(9)) * 10 % 11 % 10)
    b.append(sum(b[i] * (11 - i) for i in range(10)) * 10 % 11 % 10)
    s = "".join(map(str, b))
    return pick(["%s.%s.%s-%s" % (s[:3], s[3:6], s[6:9], s[9:]), s])


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
_CURP_STATES = ["AS", "BC", "CH", "DF", "GT", "JC", "MC", "NL", "PL", "QT", "VZ", "YN", "SP", "OC"]


def g_curp(first, last):
    ln = fold(last).upper()
    f = fold(first).upper()
    vowel = next((ch for ch in ln[1:] if ch in "AEIOU"), "X")
    y, m, d = dob(1960, 2004)
    s = ln[0] + vowel + rs(UP, 1) + f[0]
    s += "%02d%02d%02d" % (y % 100, m, d) + pick("HM") + pick(_CURP_STATES)
    cons = [ch for ch in ln[1:] if ch in UP and ch not in "AEIOU"] + ["X"]
    fcons = [ch for ch in f[1:] if ch in UP and ch not in "AEIOU"] + ["X"]
    s += cons[0] + rs("BCDFGHJKLMNPRSTVZ", 1) + fcons[0]
    s += digits(1) if y < 2000 else rs(UP, 1)
    tot = sum(_CURP_CHARS.index(ch) * (18 - i) for i, ch in enumerate(s))
    return s + str((10 - tot % 10) % 10)


def g_rut():
    n = R.randint(5000000, 26000000)
    s, mult = 0, 2
    for ch in reversed(str(n)):
        s += int(ch) * mult
        mult = 2 if mult == 7 else mult + 1
    dv = 11 - s % 11
    dvs = {11: "0", 10: "K"}.get(dv, str(dv))
    return pick([f"{n:,}".replace(",", ".") + "-" + dvs, "%d-%s" % (n, dvs)])


def g_mynumber():
    b = nz(11)
    tot = 0
    for n in range(1, 12):
        p = int(b[11 - n])
        q = n + 1 if n <= 6 else n - 5
        tot += p * q
    r = tot % 11
    v = b + str(0 if r <= 1 else 11 - r)
    return pick([v, "%s %s %s" % (v[:4], v[4:8], v[8:])])


def g_rrn():
    y, m, d = dob(1955, 1999)
    b = "%02d%02d%02d" % (y % 100, m, d) + pick("12") + "%02d" % R.randint(0, 95) + digits(3)   # 2 digits: region of registration
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    c = (11 - sum(int(x) * w[i] for i, x in enumerate(b)) % 11) % 10
    v = b + str(c)
    return v[:6] + "-" + v[6:]


def g_tfn():
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    while True:
        b = nz(8)
        for last in range(10):
            v = b + str(last)
            if sum(int(x) * w[i] for i, x in enumerate(v)) % 11 == 0:
                return pick(["%s %s %s" % (v[:3], v[3:6], v[6:]), v])


def g_zaid():
    y, m, d = dob(1955, 2002)
    b = "%02d%02d%02d" % (y % 100, m, d) + digits(4) + pick("01") + "8"
    return b + luhn_digit(b)


def g_nric():
    p = pick("ST")
    b = digits(7)
    w = [2, 7, 6, 5, 4, 3, 2]
    s = sum(int(x) * w[i] for i, x in enumerate(b)) + (4 if p == "T" else 0)
    return p + b + "JZIHGFEDCBA"[s % 11]


def g_tckn():
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d.append(((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


# country -> list of (label, maker, local name of the id)
NATIONAL = {
    "US": [("ssn", g_ssn, "SSN"), ("us_itin", g_itin, "ITIN")],
    "GB": [("uk_nino", g_nino, "NI number")],
    "IE": [("ie_ppsn", g_ppsn, "PPS No.")],
    "CA": [("ca_sin", g_sin, "SIN")],
    "FR": [("fr_nir", g_nir, "N° de sécurité sociale")],
    "DE": [("de_tax_id", g_steuer_id, "Steuer-ID")],
    "AT": [("at_svnr", g_svnr, "SV-Nummer")],
    "CH": [("ch_ahv", g_ahv, "AHV-Nr.")],
    "ES": [("es_dni", g_dni, "DNI"), ("es_nie", g_nie, "NIE")],
    "PT": [("pt_nif", g_nif, "NIF")],
    "IT": [("it_codice_fiscale", None, "Codice fiscale")],
    "NL": [("nl_bsn", g_bsn, "BSN")],
    "BE": [("be_nrn", g_nrn, "Rijksregisternummer")],
    "SE": [("se_personnummer", g_pnr, "Personnummer")],
    "DK": [("dk_cpr", g_cpr, "CPR-nr.")],
    "PL": [("pl_pesel", g_pesel, "PESEL")],
    "IN": [("aadhaar", g_aadhaar, "Aadhaar"), ("in_pan", None, "PAN")],
    "BR": [("br_cpf", g_cpf, "CPF")],
    "MX": [("mx_curp", None, "CURP")],
    "CL": [("cl_rut", g_rut, "RUT")],
    "JP": [("jp_my_number", g_mynumber, "マイナンバー")],
    "KR": [("kr_rrn", g_rrn, "주민등록번호")],
    "AU": [("au_tfn", g_tfn, "TFN")],
    "ZA": [("za_id", g_zaid, "ID number")],
    "SG": [("sg_nric", g_nric, "NRIC")],
    "TR": [("tr_tckn", g_tckn, "T.C. Kimlik No")],
}


_CC_CYCLE = []


def next_cc():
    """Countries with a national-id scheme, each in turn (reshuffled every round), so id kinds stay balanced."""
    if not _CC_CYCLE:
        order = sorted(NATIONAL)
        R.shuffle(order)
        _CC_CYCLE.extend(order)
    return _CC_CYCLE.pop()


class Person:
    def __init__(self, cc=None, intl=None):
        self.cc = cc or pick(sorted(COUNTRIES))
        c = COUNTRIES[self.cc]
        self.first = pick(c["first"])
        self.last = pick(c["last"])
        self.name = "%s %s" % (self.first, self.last)
        self.email = email_for(self.first, self.last, c["mail"])
        self.phone = phone(self.cc, intl)
        self.city = pick(c["cities"])
        y, m, d = dob()
        self.dob_t = (y, m, d)
        self.dob = "%04d-%02d-%02d" % (y, m, d)
        self.dob_local = {"en": "%02d/%02d/%04d" % (m, d, y) if self.cc == "US" else "%02d/%02d/%04d" % (d, m, y),
                          "de": "%02d.%02d.%04d" % (d, m, y), "da": "%02d-%02d-%04d" % (d, m, y),
                          "ja": "%04d年%d月%d日" % (y, m, d), "ko": "%04d.%02d.%02d" % (y, m, d),
                          "sv": "%04d-%02d-%02d" % (y, m, d), "tr": "%02d.%02d.%04d" % (d, m, y),
                          "pl": "%02d.%02d.%04d" % (d, m, y), "nl": "%02d-%02d-%04d" % (d, m, y)
                          }.get(c["lang"], "%02d/%02d/%04d" % (d, m, y))

    def nid(self, which=None):
        opts = NATIONAL.get(self.cc)
        if not opts:
            return None
        label, maker, local = opts[which] if which is not None else pick(opts)
        _DOB_HINT.append(self.dob_t)
        try:
            if label == "it_codice_fiscale":
                v = g_cf(self.first, self.last)
            elif label == "in_pan":
                v = g_pan(self.last)
            elif label == "mx_curp":
                v = g_curp(self.first, self.last)
            else:
                v = maker()
        finally:
            _DOB_HINT.pop()
        return label, v, local


# ---------------------------------------------------------------------------
# cards, IBANs, US bank accounts
# ---------------------------------------------------------------------------

def _card(prefix, length):
    body = prefix + digits(length - len(prefix) - 1)
    return body + luhn_digit(body)


CARD_BRANDS = ["visa", "visa", "visa", "mastercard", "mastercard", "amex", "discover", "jcb", "diners", "unionpay",
               "maestro", "cartes_bancaires", "elo", "rupay"]


def card_raw(brand=None):
    brand = brand or pick(CARD_BRANDS)
    if brand == "visa":
        n = _card("4" + digits(5), pick([16, 16, 16, 13]))
    elif brand == "mastercard":
        n = _card(pick([str(R.randint(51, 55)), str(R.randint(2221, 2720))]), 16)
    elif brand == "amex":
        n = _card(pick(["34", "37"]), 15)
    elif brand == "discover":
        n = _card(pick(["6011", "644", "649", "65"]), 16)
    elif brand == "jcb":
        n = _card(str(R.randint(3528, 3589)), 16)
    elif brand == "diners":
        n = _card(pick(["300", "305", "36", "38"]), 14)
    elif brand == "unionpay":
        n = _card("62" + pick(["2126", "4", "5", "8"]), pick([16, 19]))
    elif brand == "maestro":
        n = _card(pick(["6759", "6761", "5018", "5020", "6304"]), pick([16, 19]))
    elif brand == "cartes_bancaires":
        n = _card("497" + digits(1), 16)
    elif brand == "elo":
        n = _card(pick(["636368", "504175", "438935", "451416"]), 16)
    else:
        n = _card(pick(["6521", "6522", "6080"]), 16)
    assert luhn_valid(n)
    return brand, n


def card_fmt(n, sep=None):
    if sep is None:
        sep = pick(["", " ", " ", "-", "-", ".", "\u00a0", "  "])
    if len(n) in (14, 15):
        groups = [n[:4], n[4:10], n[10:]]
    elif len(n) == 13:
        groups = [n[:4], n[4:7], n[7:10], n[10:]]
    else:
        groups = [n[i:i + 4] for i in range(0, len(n), 4)]
    return sep.join(groups)


def card(brand=None, sep=None):
    b, n = card_raw(brand)
    return b, card_fmt(n, sep)


def _iban_num(s):
    return "".join(str(int(ch, 36)) for ch in s)


def iban_from_bban(cc, bban):
    chk = 98 - int(_iban_num(bban + cc + "00")) % 97
    v = "%s%02d%s" % (cc, chk, bban)
    assert int(_iban_num(v[4:] + v[:4])) % 97 == 1
    return v


def _es_dc(ten):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
    d = 11 - sum(int(x) * w[i] for i, x in enumerate(ten)) % 11
    return {10: 1, 11: 0}.get(d, d)


def _fr_rib(bank, branch, acct):
    return "%02d" % (97 - (89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97)


def _mod97_one(first):
    """Two check digits making int(first + cd) % 97 == 1 (PT, SI national check)."""
    return "%02d" % ((1 - int(first) * 100) % 97 or 97)


ALNUMU = UP + DIG

# cc -> (BBAN maker, bank BICs)
IBAN_SPEC = {
    "DE": (lambda: nz(8) + digits(10), ["COBADEFFXXX", "DEUTDEDBBER", "GENODEF1S04", "HYVEDEMMXXX", "INGDDEFFXXX", "BYLADEM1001"]),
    "FR": (lambda: (lambda b, g, a: b + g + a + _fr_rib(b, g, a))(nz(5), digits(5), digits(11)), ["BNPAFRPPXXX", "SOGEFRPP", "CRLYFRPP", "AGRIFRPP882", "CCBPFRPPNAN"]),
    "MC": (lambda: (lambda b, g, a: b + g + a + _fr_rib(b, g, a))("1" + digits(4), digits(5), digits(11)), ["CMCIMCM1XXX", "BARCMCMX"]),
    "GB": (lambda: pick(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "MONZ", "SRLG"]) + digits(6) + digits(8), ["NWBKGB2L", "BARCGB22", "LOYDGB21", "MONZGB2L"]),
    "ES": (lambda: (lambda b, o, a: b + o + str(_es_dc("00" + b + o)) + str(_es_dc(a)) + a)(pick(["2100", "0049", "0182", "2080", "1465"]), digits(4), digits(10)), ["CAIXESBBXXX", "BSCHESMMXXX", "BBVAESMMXXX", "INGDESMMXXX"]),
    "IT": (lambda: pick(UP) + pick(["03069", "02008", "05034", "03062", "01030"]) + digits(5) + digits(12), ["BCITITMM", "UNCRITMMXXX", "BPMOIT22", "PASCITMMXXX"]),
    "SM": (lambda: pick(UP) + "0" + digits(4) + digits(5) + digits(12), ["CSSMSMSMXXX"]),
    "NL": (None, ["ABNANL2A", "INGBNL2A", "RABONL2U", "SNSBNL2A", "BUNQNL2A", "KNABNL2H"]),
    "BE": (lambda: (lambda f: f + "%02d" % (int(f) % 97 or 97))(nz(3) + digits(7)), ["GEBABEBB", "BBRUBEBB", "KREDBEBB", "GKCCBEBB"]),
    "LU": (lambda: digits(3) + rs(ALNUMU, 13), ["BCEELULL", "BILLLULL", "CCRALULL"]),
    "CH": (lambda: pick(["00762", "00700", "00230", "80808"]) + rs(ALNUMU, 12), ["UBSWCHZH80A", "ZKBKCHZZ80A", "POFICHBEXXX"]),
    "LI": (lambda: pick(["08810", "08800"]) + rs(ALNUMU, 12), ["BLFLLI2X", "LILALI2X"]),
    "AT": (lambda: nz(5) + digits(11), ["BKAUATWW", "RZBAATWW", "GIBAATWWXXX", "OBKLAT2L"]),
    "PL": (lambda: nz(8) + digits(16), ["PKOPPLPW", "BPKOPLPW", "INGBPLPW", "ALBPPLPW"]),
    "PT": (lambda: (lambda f: f + _mod97_one(f))(pick(["0033", "0035", "0007", "0010", "0036"]) + digits(4) + digits(11)), ["BCOMPTPL", "CGDIPTPL", "BESCPTPL"]),
    "SI": (lambda: (lambda f: f + _mod97_one(f))(pick(["19100", "02010", "05100", "10100"]) + digits(8)), ["LJBASI2X", "SKBASI2X"]),
    "SE": (lambda: nz(3) + digits(17), ["ESSESESS", "HANDSESS", "NDEASESS", "SWEDSESS"]),
    "NO": (None, ["DNBANOKK", "NDEANOKK", "SPRONO22"]),
    "DK": (lambda: nz(4) + digits(10), ["DABADKKK", "NDEADKKK", "JYBADKKK"]),
    "FI": (lambda: nz(6) + digits(8), ["NDEAFIHH", "OKOYFIHH", "DABAFIHH"]),
    "IE": (lambda: pick(["AIBK", "BOFI", "IPBS"]) + digits(6) + digits(8), ["AIBKIE2D", "BOFIIE2D"]),
    "IS": (lambda: digits(4) + pick(["26", "15", "05"]) + digits(6) + digits(10), ["NBIIISRE", "ESSBISRE"]),
    "CZ": (lambda: pick(["0800", "0100", "0300", "2010", "5500"]) + digits(6) + digits(10), ["GIBACZPX", "KOMBCZPP", "CEKOCZPP"]),
    "SK": (lambda: pick(["0900", "1100", "0200", "7500"]) + digits(6) + digits(10), ["GIBASKBX", "TATRSKBX", "SUBASKBX"]),
    "HU": (lambda: digits(24), ["OTPVHUHB", "GIBAHUHB", "UBRTHUHB"]),
    "RO": (lambda: pick(["BTRL", "RNCB", "BRDE", "INGB"]) + rs(ALNUMU, 16), ["BTRLRO22", "RNCBROBU", "BRDEROBU"]),
    "BG": (lambda: pick(["UNCR", "BPBI", "STSA", "FINV"]) + digits(4) + digits(2) + rs(ALNUMU, 8), ["UNCRBGSF", "STSABGSF"]),
    "HR": (lambda: digits(7) + digits(10), ["ZABAHR2X", "PBZGHR2X"]),
    "LT": (lambda: digits(5) + digits(11), ["HABALT22", "CBVILT2X", "REVOLT21"]),
    "LV": (lambda: pick(["HABA", "UNLA", "RIKO"]) + rs(ALNUMU, 13), ["HABALV22", "UNLALV2X"]),
    "EE": (lambda: pick(["22", "10", "17", "77"]) + digits(14), ["HABAEE2X", "EEUHEE2X", "LHVBEE22"]),
    "GR": (lambda: digits(3) + digits(4) + rs(ALNUMU, 16), ["ETHNGRAA", "PIRBGRAA", "EFGBGRAA"]),
    "CY": (lambda: digits(3) + digits(5) + rs(ALNUMU, 16), ["BCYPCY2N", "HEBACY2N"]),
    "MT": (lambda: pick(["MALT", "VALL", "APSB"]) + digits(5) + rs(ALNUMU, 18), ["VALLMTMT", "MALTMTMT"]),
    "TR": (lambda: digits(5) + "0" + rs(ALNUMU, 16), ["TCZBTR2A", "AKBKTRIS", "ISBKTRIS"]),
    "SA": (lambda: digits(2) + rs(ALNUMU, 18), ["NCBKSAJE", "RJHISARI"]),
    "AE": (lambda: digits(3) + digits(16), ["EBILAEAD", "NBADAEAA", "ADCBAEAA"]),
    "QA": (lambda: pick(["QNBA", "CBQA", "DOHB"]) + rs(ALNUMU, 21), ["QNBAQAQA"]),
    "IL": (lambda: digits(3) + digits(3) + digits(13), ["LUMIILITXXX", "POALILIT"]),
    "BR": (lambda: digits(8) + digits(5) + digits(10) + pick("CP") + rs(ALNUMU, 1), ["BRASBRRJ", "ITAUBRSP", "CEFXBRSP"]),
    "UA": (lambda: digits(6) + rs(ALNUMU, 19), ["PBANUA2X", "UNJSUAUKXXX"]),
    "GE": (lambda: pick(["TB", "BG", "NB"]) + digits(16), ["TBCBGE22", "BAGAGE22"]),
    "KZ": (lambda: digits(3) + rs(ALNUMU, 13), ["KCJBKZKX", "HSBKKZKX"]),
    "MU": (lambda: pick(["BOMM", "MCBL"]) + digits(2) + digits(2) + digits(12) + "000" + pick(["MUR", "EUR", "USD"]), ["MCBLMUMU", "BOMMMUPL"]),
    "PK": (lambda: pick(["SCBL", "HABB", "MUCB"]) + rs(ALNUMU, 16), ["SCBLPKKX", "HABBPKKA"]),
    "AD": (lambda: digits(4) + digits(4) + rs(ALNUMU, 12), ["BACAADAD", "CRDAADAD"]),
}
IBAN_LEN = {"DE": 22, "FR": 27, "MC": 27, "GB": 22, "ES": 24, "IT": 27, "SM": 27, "NL": 18, "BE": 16, "LU": 20,
            "CH": 21, "LI": 21, "AT": 20, "PL": 28, "PT": 25, "SI": 19, "SE": 24, "NO": 15, "DK": 18, "FI": 18,
            "IE": 22, "IS": 26, "CZ": 24, "SK": 24, "HU": 28, "RO": 24, "BG": 22, "HR": 21, "LT": 20, "LV": 21,
            "EE": 20, "GR": 27, "CY": 28, "MT": 31, "TR": 26, "SA": 24, "AE": 23, "QA": 29, "IL": 23, "BR": 29,
            "UA": 29, "GE": 22, "KZ": 20, "MU": 30, "PK": 24, "AD": 24}


def _bban(cc):
    if cc == "NL":
        while True:
            acct = nz(10)
            if sum(int(x) * (10 - i) for i, x in enumerate(acct)) % 11 == 0:
                return pick(["ABNA", "INGB", "RABO", "SNSB", "BUNQ", "KNAB"]) + acct
    if cc == "NO":
        w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        while True:
            ten = nz(10)
            k = 11 - sum(int(x) * w[i] for i, x in enumerate(ten)) % 11
            k = 0 if k == 11 else k
            if k != 10:
                return ten + str(k)
    return IBAN_SPEC[cc][0]()


def iban(cc=None, spaced=None):
    cc = cc or pick(sorted(IBAN_SPEC))
    bic = None
    if cc == "BE":
        lead, bic = pick(BE_BANKS)
        if bic == "GKCCBEBB":
            code = "0" + str(R.randint(5, 9)) + digits(1)
        elif lead == "00":
            code = "0" + str(R.randint(0, 4)) + digits(1)
        elif lead == "2":
            code = "2" + str(R.randint(2, 9)) + digits(1)
        else:
            code = lead + digits(2)
        first = code + digits(7)
        bban = first + "%02d" % (int(first) % 97 or 97)
    else:
        bban = _bban(cc)
        code = bban[:4]
        bic = BANK_BIC.get(cc, {}).get(code)
    v = iban_from_bban(cc, bban)
    assert len(v) == IBAN_LEN[cc], (cc, v)
    if spaced is None:
        spaced = chance(0.55)
    if spaced:
        v = " ".join(v[i:i + 4] for i in range(0, len(v), 4))
    if bic:
        _BIC_FOR[v] = bic
    return cc, v


# national bank code at the start of the BBAN -> that bank's BIC (public directory data), where the BBAN carries one
BANK_BIC = {
    "GB": {"NWBK": "NWBKGB2L", "BARC": "BARCGB22", "LOYD": "LOYDGB21", "HBUK": "HBUKGB4B", "MIDL": "MIDLGB22", "MONZ": "MONZGB2L", "SRLG": "SRLGGB2L"},
    "NL": {"ABNA": "ABNANL2A", "INGB": "INGBNL2A", "RABO": "RABONL2U", "SNSB": "SNSBNL2A", "BUNQ": "BUNQNL2A", "KNAB": "KNABNL2H"},
    "IE": {"AIBK": "AIBKIE2D", "BOFI": "BOFIIE2D", "IPBS": "IPBSIE2D"},
    "ES": {"2100": "CAIXESBBXXX", "0049": "BSCHESMMXXX", "0182": "BBVAESMMXXX", "1465": "INGDESMMXXX", "2080": "CAGLESMMXXX"},
    "PT": {"0033": "BCOMPTPL", "0035": "CGDIPTPL", "0007": "BESCPTPL", "0010": "BBPIPTPL", "0036": "MPIOPTPL"},
    "RO": {"BTRL": "BTRLRO22", "RNCB": "RNCBROBU", "BRDE": "BRDEROBU", "INGB": "INGBROBU"},
}
BE_BANKS = [("00", "GEBABEBB"), ("2", "GEBABEBB"), ("0", "GKCCBEBB"), ("3", "BBRUBEBB"), ("4", "KREDBEBB")]
_BIC_FOR = {}


def bic_of(cc, ib=None):
    """The BIC printed next to IBAN ``ib``: the account's own bank where its BBAN names it, else a bank of that country."""
    if ib is not None and ib in _BIC_FOR:
        return _BIC_FOR[ib]
    return pick(IBAN_SPEC[cc][1])


def routing_number():
    while True:
        r = pick(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "21", "22", "26", "31", "32"]) + digits(6)
        for last in range(10):
            if aba_valid(r + str(last)):
                return r + str(last)


def us_account():
    return nz(R.choice([8, 9, 10, 10, 12]))


# ---------------------------------------------------------------------------
# provider secrets (formats from the providers' public documentation)
# ---------------------------------------------------------------------------

def k_openai():
    style = pick(["proj", "proj", "proj", "svcacct", "admin", "legacy"])
    if style == "legacy":
        return "sk-" + rs(AN, 20) + "T3BlbkFJ" + rs(AN, 20)
    body = rs(AN, 1) + rs(AN + "-_", 72) + rs(AN, 1) + "T3BlbkFJ" + rs(AN, 1) + rs(AN + "-_", 72) + rs(AN, 1)
    return {"proj": "sk-proj-", "svcacct": "sk-svcacct-", "admin": "sk-admin-"}[style] + body


def k_anthropic():
    return pick(["sk-ant-api03-", "sk-ant-api03-", "sk-ant-admin01-"]) + rs(AN, 1) + rs(AN + "-_", 91) + rs(AN, 1) + "AA"


def k_github(prefix=None):
    prefix = prefix or pick(["ghp_", "ghp_", "gho_", "ghu_", "ghs_", "github_pat_"])
    if prefix == "github_pat_":
        return "github_pat_11" + rs(UP + DIG, 20) + "_" + rs(AN, 59)
    body = rs(AN, 30)
    return prefix + body + crc32_b62(body)


def k_gitlab():
    return "glpat-" + rs(AN + "-_", 20)


def k_aws_id():
    return "AKIA" + rs(B32, 16)


def k_aws_secret():
    return rs(AN + "/+", 40)


def k_gapi():
    return "AIzaSy" + rs(AN + "-_", 33)


def k_gocspx():
    return "GOCSPX-" + rs(AN + "-_", 28)


def k_ya29():
    return "ya29.a0" + rs(AN + "-_", R.randint(150, 220))


def k_azure_storage():
    return b64(rbytes(64))


def k_azure_cs():
    return rs(AN, 3) + "8Q~" + rs(AN + "~._-", 33) + rs(AN, 1)


def k_azure_openai():
    return rs(HEX, 32)


def k_stripe(kind=None):
    kind = kind or pick(["sk_live_", "sk_live_", "rk_live_", "sk_test_"])
    return kind + "51" + rs(AN, 22) + rs(AN, pick([0, 75]))


def k_whsec():
    return "whsec_" + rs(AN, 32)


def k_slack(kind=None):
    kind = kind or pick(["xoxb", "xoxb", "xoxp", "xoxe"])
    if kind == "xoxb":
        return "xoxb-%s-%s-%s" % (nz(12), nz(13), rs(AN, 24))
    if kind == "xoxp":
        return "xoxp-%s-%s-%s-%s" % (nz(12), nz(12), nz(13), rs(HEX, 32))
    return "xoxe.xoxp-1-" + rs(AN + "-", 146)


def k_twilio_sk():
    return "SK" + rs(HEX, 32)


def k_twilio_token():
    return rs(HEX, 32)


def twilio_sid():
    return "AC" + rs(HEX, 32)


def k_sendgrid():
    return "SG." + rs(AN + "-_", 22) + "." + rs(AN + "-_", 43)


def k_hf():
    return "hf_" + rs(UP + LO, 34)


def k_npm():
    body = rs(AN, 30)
    return "npm_" + body + crc32_b62(body)


def k_pypi():
    return "pypi-AgEIcHlwaS5vcmcCJD" + rs(AN + "-_", 150)


def k_datadog():
    return rs(HEX, 32)


def k_datadog_app():
    return rs(HEX, 40)


def k_sentry():
    if chance(0.5):
        return "sntryu_" + rs(HEX, 64)
    payload = {"iat": float(epoch()) + round(R.random(), 6), "url": "https://sentry.io",
               "region_url": pick(["https://us.sentry.io", "https://de.sentry.io"]), "org": pick(ORGS)}
    return "sntrys_" + b64(json.dumps(payload, separators=(",", ":")).encode()).rstrip("=") + "_" + rs(AN + "+/", 43)


def k_shopify():
    return pick(["shpat_", "shpat_", "shpca_", "shpss_"]) + rs(HEX, 32)


def k_telegram():
    return "%s:AA%s" % (nz(10), rs(AN + "-_", 33))


def k_notion():
    return "ntn_" + nz(11) + rs(AN, 35)


def k_linear():
    return "lin_api_" + rs(AN, 40)


def k_cloudflare():
    return rs(AN + "-_", 40)


# providers outside world13's list --------------------------------------------

def k_doppler():
    k = R.randrange(3)
    if k == 0:
        return "dp.st.%s.%s" % (pick(["prd", "stg", "dev", "ci"]), rs(AN, 40))
    if k == 1:
        return "dp.pt." + rs(AN, 43)
    return "dp.sa." + rs(AN, 43)


def k_planetscale():
    return pick(["pscale_tkn_", "pscale_pw_", "pscale_oauth_"]) + rs(AN + "-_.", 43)


def k_databricks():
    return "dapi" + rs(HEX, 32) + pick(["", "", "-2", "-3"])


def k_pulumi():
    return "pul-" + rs(HEX, 40)


def k_buildkite():
    return "bkua_" + rs(HEX, 40)


def k_rubygems():
    return "rubygems_" + rs(HEX, 48)


def k_airtable():
    return "pat" + rs(AN, 14) + "." + rs(HEX, 64)


def k_hubspot():
    return "pat-%s-%s" % (pick(["na1", "na1", "eu1", "na2"]), uuid4())


def k_contentful():
    return "CFPAT-" + rs(AN + "-_", 43)


def k_mapbox():
    user = pick(["fernhill", "gannet-mobile", "quayside-maps", "oriole"])
    inner = b64url(json.dumps({"u": user, "a": rs(LO + DIG, 25)}, separators=(",", ":")).encode())
    return "sk." + inner + "." + rs(AN + "-_", 22)


def k_braintree():
    return "access_token$production$%s$%s" % (rs(LO + DIG, 16), rs(HEX, 32))


def k_perplexity():
    return "pplx-" + rs(AN, 48)


def k_xai():
    return "xai-" + rs(AN, 80)


def k_deepseek():
    return "sk-" + rs(HEX, 32)


def k_langfuse():
    return "sk-lf-" + uuid4()


def k_brevo():
    return "xkeysib-" + rs(HEX, 64) + "-" + rs(AN, 16)


def k_shippo():
    return pick(["shippo_live_", "shippo_live_", "shippo_test_"]) + rs(HEX, 40)


def k_dynatrace():
    return "dt0c01." + rs(UP + DIG, 24) + "." + rs(UP + DIG, 64)


def k_posthog():
    return "phx_" + rs(AN, 47)


def k_sourcegraph():
    return "sgp_" + (rs(HEX, 16) + "_" if chance(0.5) else "") + rs(HEX, 40)


def k_neon():
    return "napi_" + rs(LO + DIG, 64)


def k_fcm():
    return "AAAA" + rs(AN + "-_", 7) + ":APA91b" + rs(AN + "-_", 134)


def k_nuget():
    return "oy2" + rs(LO + DIG, 43)


def k_cratesio():
    return "cio" + rs(AN, 32)


def k_sonar():
    return pick(["squ_", "sqp_", "sqa_"]) + rs(HEX, 40)


def k_elevenlabs():
    return "sk_" + rs(HEX, 48)


def k_fireworks():
    return "fw_" + rs(AN, 24)


def k_cerebras():
    return "csk-" + rs(LO + DIG, 48)


def k_wandb():
    return rs(HEX, 40)


def k_ably():
    return "%s.%s:%s" % (rs(AN, 6), rs(AN + "-_", 6), rs(AN + "-_", 43))


def k_revenuecat():
    return "sk_" + rs(AN, 32)


def k_tavily():
    return pick(["tvly-", "tvly-", "tvly-dev-"]) + rs(AN, 32)


def k_firecrawl():
    return "fc-" + rs(HEX, 32)


def k_confluent_key():
    return rs(UP + DIG, 16)


def k_confluent_secret():
    return rs(AN + "+/", 64)


def k_servicebus():
    return b64(rbytes(32))


def k_litellm():
    return "sk-" + rs(AN + "-_", 22)


def k_bearer():
    return pick([rs(AN, 40), rs(HEX, 48), rs(AN + "-_", 64), "at_" + rs(AN, 36)])


# (label, maker, env var, provider name, header style, api host)
PROVIDERS = [
    ("openai_key", k_openai, "OPENAI_API_KEY", "OpenAI", "bearer", "api.openai.com"),
    ("anthropic_key", k_anthropic, "ANTHROPIC_API_KEY", "Anthropic", "x-api-key", "api.anthropic.com"),
    ("github_token", k_github, "GITHUB_TOKEN", "GitHub", "bearer", "api.github.com"),
    ("gitlab_token", k_gitlab, "GITLAB_TOKEN", "GitLab", "private-token", "gitlab.com"),
    ("stripe_key", k_stripe, "STRIPE_SECRET_KEY", "Stripe", "bearer", "api.stripe.com"),
    ("sendgrid_key", k_sendgrid, "SENDGRID_API_KEY", "SendGrid", "bearer", "api.sendgrid.com"),
    ("huggingface_token", k_hf, "HF_TOKEN", "Hugging Face", "bearer", "huggingface.co"),
    ("npm_token", k_npm, "NPM_TOKEN", "npm", "bearer", "registry.npmjs.org"),
    ("slack_token", k_slack, "SLACK_BOT_TOKEN", "Slack", "bearer", "slack.com"),
    ("google_api_key", k_gapi, "GOOGLE_API_KEY", "Google", "x-goog-api-key", "generativelanguage.googleapis.com"),
    ("datadog_key", k_datadog, "DD_API_KEY", "Datadog", "dd-api-key", "api.datadoghq.eu"),
    ("sentry_token", k_sentry, "SENTRY_AUTH_TOKEN", "Sentry", "bearer", "sentry.io"),
    ("shopify_token", k_shopify, "SHOPIFY_ADMIN_TOKEN", "Shopify", "x-shopify", "gannet-store.myshopify.com"),
    ("notion_token", k_notion, "NOTION_API_KEY", "Notion", "bearer", "api.notion.com"),
    ("linear_key", k_linear, "LINEAR_API_KEY", "Linear", "raw", "api.linear.app"),
    ("cloudflare_token", k_cloudflare, "CLOUDFLARE_API_TOKEN", "Cloudflare", "bearer", "api.cloudflare.com"),
    ("azure_openai_api_key", k_azure_openai, "AZURE_OPENAI_API_KEY", "Azure OpenAI", "api-key", "fernhill-swc.openai.azure.com"),
    ("doppler_token", k_doppler, "DOPPLER_TOKEN", "Doppler", "bearer", "api.doppler.com"),
    ("planetscale_token", k_planetscale, "PLANETSCALE_SERVICE_TOKEN", "PlanetScale", "raw", "api.planetscale.com"),
    ("databricks_token", k_databricks, "DATABRICKS_TOKEN", "Databricks", "bearer", "adb-%s.%d.azuredatabricks.net" % (digits(16), R.randint(1, 19))),
    ("pulumi_token", k_pulumi, "PULUMI_ACCESS_TOKEN", "Pulumi", "token", "api.pulumi.com"),
    ("buildkite_token", k_buildkite, "BUILDKITE_API_TOKEN", "Buildkite", "bearer", "api.buildkite.com"),
    ("rubygems_key", k_rubygems, "GEM_HOST_API_KEY", "RubyGems", "raw", "rubygems.org"),
    ("airtable_token", k_airtable, "AIRTABLE_API_KEY", "Airtable", "bearer", "api.airtable.com"),
    ("hubspot_token", k_hubspot, "HUBSPOT_ACCESS_TOKEN", "HubSpot", "bearer", "api.hubapi.com"),
    ("contentful_token", k_contentful, "CONTENTFUL_MANAGEMENT_TOKEN", "Contentful", "bearer", "api.contentful.com"),
    ("mapbox_token", k_mapbox, "MAPBOX_SECRET_TOKEN", "Mapbox", "query-access_token", "api.mapbox.com"),
    ("braintree_token", k_braintree, "BRAINTREE_ACCESS_TOKEN", "Braintree", "bearer", "payments.braintree-api.com"),
    ("perplexity_key", k_perplexity, "PERPLEXITY_API_KEY", "Perplexity", "bearer", "api.perplexity.ai"),
    ("xai_key", k_xai, "XAI_API_KEY", "xAI", "bearer", "api.x.ai"),
    ("deepseek_key", k_deepseek, "DEEPSEEK_API_KEY", "DeepSeek", "bearer", "api.deepseek.com"),
    ("langfuse_key", k_langfuse, "LANGFUSE_SECRET_KEY", "Langfuse", "none", "cloud.langfuse.com"),
    ("brevo_key", k_brevo, "BREVO_API_KEY", "Brevo", "api-key", "api.brevo.com"),
    ("shippo_token", k_shippo, "SHIPPO_API_TOKEN", "Shippo", "shippo", "api.goshippo.com"),
    ("dynatrace_token", k_dynatrace, "DT_API_TOKEN", "Dynatrace", "api-token", "abc%s.live.dynatrace.com" % digits(5)),
    ("posthog_personal_key", k_posthog, "POSTHOG_PERSONAL_API_KEY", "PostHog", "bearer", "eu.posthog.com"),
    ("sourcegraph_token", k_sourcegraph, "SRC_ACCESS_TOKEN", "Sourcegraph", "token", "sourcegraph.com"),
    ("neon_api_key", k_neon, "NEON_API_KEY", "Neon", "bearer", "console.neon.tech"),
    ("nuget_key", k_nuget, "NUGET_API_KEY", "NuGet", "x-nuget-apikey", "www.nuget.org"),
    ("cratesio_token", k_cratesio, "CARGO_REGISTRY_TOKEN", "crates.io", "raw", "crates.io"),
    ("sonar_token", k_sonar, "SONAR_TOKEN", "SonarQube", "bearer", "sonarcloud.io"),
    ("elevenlabs_key", k_elevenlabs, "ELEVENLABS_API_KEY", "ElevenLabs", "xi-api-key", "api.elevenlabs.io"),
    ("fireworks_api_key", k_fireworks, "FIREWORKS_API_KEY", "Fireworks", "bearer", "api.fireworks.ai"),
    ("cerebras_api_key", k_cerebras, "CEREBRAS_API_KEY", "Cerebras", "bearer", "api.cerebras.ai"),
    ("wandb_key", k_wandb, "WANDB_API_KEY", "Weights & Biases", "none", "api.wandb.ai"),
    ("tavily_api_key", k_tavily, "TAVILY_API_KEY", "Tavily", "bearer", "api.tavily.com"),
    ("firecrawl_api_key", k_firecrawl, "FIRECRAWL_API_KEY", "Firecrawl", "bearer", "api.firecrawl.dev"),
    ("revenuecat_secret_key", k_revenuecat, "REVENUECAT_SECRET_KEY", "RevenueCat", "bearer", "api.revenuecat.com"),
    ("ably_api_key", k_ably, "ABLY_API_KEY", "Ably", "basic-raw", "rest.ably.io"),
    ("fcm_server_key", k_fcm, "FCM_SERVER_KEY", "Firebase Cloud Messaging", "fcm-key", "fcm.googleapis.com"),
    ("twilio_api_key", k_twilio_sk, "TWILIO_API_KEY", "Twilio", "none", "api.twilio.com"),
    ("pypi_token", k_pypi, "TWINE_PASSWORD", "PyPI", "none", "upload.pypi.org"),
]
PROV = {p[0]: p for p in PROVIDERS}
MAJOR = ["openai_key", "openai_key", "anthropic_key", "anthropic_key", "github_token", "github_token", "gitlab_token",
         "stripe_key", "sendgrid_key", "huggingface_token", "npm_token", "slack_token", "google_api_key", "datadog_key",
         "sentry_token", "shopify_token"]
HTTP_OK = [p for p in PROVIDERS if p[4] != "none"]


def provider(major=0.45, http=False):
    pool = HTTP_OK if http else PROVIDERS
    if chance(major):
        p = PROV[pick(MAJOR)]
        if not http or p[4] != "none":
            return p
    return pick(pool)


def auth_header(p, c, lower=False):
    """(header name, header value) carrying provider p's key; the key is recorded as a canary."""
    label, mk, _, _, style, _ = p
    v = mk()
    if style == "bearer":
        h = ("Authorization", "Bearer " + c(v, label))
    elif style == "x-api-key":
        h = ("x-api-key", c(v, label))
    elif style == "private-token":
        h = ("PRIVATE-TOKEN", c(v, label))
    elif style == "x-goog-api-key":
        h = ("x-goog-api-key", c(v, label))
    elif style == "dd-api-key":
        h = ("DD-API-KEY", c(v, label))
    elif style == "x-shopify":
        h = ("X-Shopify-Access-Token", c(v, label))
    elif style == "api-key":
        h = ("api-key", c(v, label))
    elif style == "raw":
        h = ("Authorization", c(v, label))
    elif style == "token":
        h = ("Authorization", "token " + c(v, label))
    elif style == "shippo":
        h = ("Authorization", "ShippoToken " + c(v, label))
    elif style == "api-token":
        h = ("Authorization", "Api-Token " + c(v, label))
    elif style == "x-nuget-apikey":
        h = ("X-NuGet-ApiKey", c(v, label))
    elif style == "xi-api-key":
        h = ("xi-api-key", c(v, label))
    elif style == "basic-raw":
        h = ("Authorization", "Basic " + c(b64(v.encode()), "basic_auth"))
    elif style == "fcm-key":
        h = ("Authorization", "key=" + c(v, label))
    elif style == "query-access_token":
        h = ("Authorization", "Bearer " + c(v, label))
    else:
        raise KeyError(style)
    return (h[0].lower(), h[1]) if lower else h


# ---------------------------------------------------------------------------
# passwords, keys, JWTs, cookies
# ---------------------------------------------------------------------------

PW_WORDS = ["Heron", "Quokka", "Basalt", "Zinnia", "Osprey", "Marzipan", "Fennel", "Cobalt", "Tamarind", "Glacier",
            "Nimbus", "Pistachio", "Sequoia", "Lynx", "Dunmore", "Kumquat", "Obsidian", "Paprika", "Wombat", "Vesper",
            "Sonnenuhr", "Eichhörnchen", "Libellule", "Golondrina", "Tartaruga", "Vlinder", "Jaskółka", "Ekorre",
            "Kirsikka", "Girafa", "Pappagallo", "Murmeltier", "Hirondelle", "Colibri", "Tanuki", "Haneul", "Kaplumbağa"]
PW_SYM = "!#%*_-+=.?@$"
URL_SYM = "-_.~"


def password(style=None, url_safe=False):
    syms = URL_SYM if url_safe else PW_SYM
    style = style if style is not None else R.randrange(7)
    if style == 0:
        return pick(PW_WORDS) + str(R.randint(10, 9999)) + pick(syms)
    if style == 1:
        w = pick(PW_WORDS)
        t = w.replace("a", "4").replace("e", "3").replace("o", "0").replace("i", "1")
        return (t if t != w else w + "9") + pick(syms) + str(R.randint(1, 99))
    if style == 2:
        while True:
            s = rs(AN + syms, R.randint(14, 22))
            if any(ch in DIG for ch in s) and any(ch in UP for ch in s) and any(ch in LO for ch in s):
                return s
    if style == 3:
        return pick(["-", ".", "_"]).join(fold(pick(PW_WORDS)) for _ in range(3)) + str(R.randint(1, 99))
    if style == 4:
        return rs(AN, R.randint(16, 28))
    if style == 5:
        return pick(PW_WORDS) + pick(["-", "_", "."] if url_safe else ["!", "#", "-", "_", "."]) + fold(pick(PW_WORDS)) + str(R.randint(1, 999))
    return rs(UP, 1) + rs(LO, R.randint(5, 8)) + str(R.randint(100, 99999)) + pick(syms)


def apple_app_password():
    return "-".join(rs(LO, 4) for _ in range(4))


def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def pem_p8():
    """An App Store Connect / APNs .p8 key: PKCS#8 PrivateKeyInfo of a P-256 EC key."""
    der = bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420") + rbytes(32) + \
        bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rbytes(64)
    return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % wrap(b64(der))


def pem_rsa(pkcs8=None):
    if pkcs8 is None:
        pkcs8 = chance(0.5)
    if pkcs8:
        der = bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100") + rbytes(1190)
        return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % wrap(b64(der))
    der = bytes.fromhex("308204a30201000282010100") + rbytes(1178)
    return "-----BEGIN RSA PRIVATE KEY-----\n%s\n-----END RSA PRIVATE KEY-----" % wrap(b64(der))


def pem_public():
    der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + rbytes(64)
    return "-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----" % wrap(b64(der))


def ssh_pub():
    blob = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", 32) + rbytes(32)
    return "ssh-ed25519 %s %s" % (b64(blob), pick(["nadia@mbp", "ci@runner", "ops@bastion", "release@build"]))


def _seg(d):
    return b64url(json.dumps(d, separators=(",", ":")).encode())


def jwt(**extra):
    alg = pick(["HS256", "RS256", "ES256", "RS256"])
    now = epoch()
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        hdr["kid"] = rs(AN + "-_", pick([16, 27, 43]))
    pl = {"sub": pick([uuid4(), "auth0|" + rs(HEX, 24), "user_" + rs(AN, 27), str(R.randint(10000, 9999999))]),
          "iat": now, "exp": now + pick([300, 900, 3600, 86400])}
    if chance(0.6):
        pl["iss"] = pick(["https://auth.fernhill.app", "https://oriole.eu.auth0.com/", "https://securetoken.google.com/gannet-prod",
                          "https://clerk.tessellate.io", "https://%s.supabase.co/auth/v1" % rs(LO, 20)])
    if chance(0.5):
        pl["email"] = "%s@%s" % (pick(["nadia", "o.kurt", "lena.m", "raj"]), pick(WORK_DOMAINS))
    if chance(0.4):
        pl["role"] = pick(["authenticated", "admin", "member"])
    pl.update(extra)
    sig = {"HS256": 43, "RS256": 342, "ES256": 86}[alg]
    return _seg(hdr) + "." + _seg(pl) + "." + rs(B64U, sig)


def session_cookie():
    k = R.randrange(9)
    if k == 0:
        return "sessionid", rs(LO + DIG, 32)
    if k == 1:
        return "connect.sid", "s%3A" + rs(AN + "-_", 32) + "." + rs(AN + "%", 43)
    if k == 2:
        return "_%s_session" % pick(["shop", "dashboard", "crm"]), rs(B64, 140).replace("+", "%2B").replace("/", "%2F") + "--" + rs(B64, 28) + "--" + rs(B64, 22) + "%3D%3D"
    if k == 3:
        return "PHPSESSID", rs("abcdefghijklmnopqrstuv0123456789", 26)
    if k == 4:
        return "JSESSIONID", rs(HEXU, 32) + pick(["", ".node1", ".worker2"])
    if k == 5:
        return "__Secure-next-auth.session-token", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.." + rs(B64U, 16) + "." + rs(B64U, R.randint(300, 500)) + "." + rs(B64U, 22)
    if k == 6:
        return "laravel_session", "eyJpdiI6I" + rs(AN, 180) + "%3D"
    if k == 7:
        return ".AspNetCore.Session", "CfDJ8" + rs(AN + "-_", R.randint(120, 200))
    return "_session_id", rs(HEX, 32)


ORGS = ["fernhill", "brackenpay", "oriole", "tessellate", "ridgeway", "meadowlark", "cormorant", "larkspur",
        "gannet", "quayside", "heronbank", "saltmarsh"]
APPS = ["checkout", "storefront", "crm", "mobile-bff", "support-portal", "billing", "partner-api", "admin"]


def app_host():
    return pick(["app", "api", "dashboard", "portal", "admin", "shop"]) + "." + pick(WORK_DOMAINS)


# ---------------------------------------------------------------------------
# row plumbing
# ---------------------------------------------------------------------------

class C:
    """Collects (value, label) pairs while a template builds its text."""

    def __init__(self):
        self.pairs = []

    def __call__(self, value, label):
        self.pairs.append((value, label))
        return value


ROWS = []
_TEXTS = set()


def emit(text, c=None):
    pairs = c.pairs if c is not None else []
    if c is not None and not pairs:
        raise AssertionError("positive template produced no canary: %r" % text[:300])
    for v, k in pairs:
        if v not in text:
            raise AssertionError("canary %r (%s) not in text: %r" % (v, k, text[:300]))
    if text in _TEXTS:          # a template that drew the same text twice: keep one
        return
    _TEXTS.add(text)
    ROWS.append({"text": text, "canaries": [v for v, _ in pairs], "kinds": [k for _, k in pairs]})


UA = ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
      "okhttp/4.12.0", "GannetApp/3.%d.%d (iPhone; iOS 18.0; Scale/3.00)" % (R.randint(0, 9), R.randint(0, 30))]


def ga_cookie():
    return "_ga=GA1.1.%d.%d" % (R.randint(100000000, 2147483647), epoch())


def benign_cookies():
    opts = [ga_cookie(), "theme=%s" % pick(["dark", "light"]), "locale=%s" % pick(["de-DE", "fr-FR", "en-GB", "pt-BR", "ja-JP"]),
            "cookie_consent=%s" % pick(["accepted", "necessary"]), "tz=%s" % pick(["Europe%2FBerlin", "America%2FChicago", "Asia%2FTokyo"]),
            "sidebar_collapsed=%s" % pick(["true", "false"])]
    return R.sample(opts, R.randint(1, 3))


def api_path():
    return pick(["/api/v1/orders?status=open&page=2", "/api/v2/customers/%d" % R.randint(1000, 99999), "/graphql",
                 "/api/session/refresh", "/v1/checkout/sessions", "/api/me", "/api/v1/invoices/INV-2025-%05d" % R.randint(1, 99999),
                 "/rest/v1/profiles?select=*", "/api/tickets/%d/comments" % R.randint(100, 99999), "/api/v3/search?q=refund"])


# ---------------------------------------------------------------------------
# HTTP archives and copied browser requests
# ---------------------------------------------------------------------------

def auth_for_browser(c):
    """A credential the way a web app sends it: (headers list, cookie string or None)."""
    k = R.randrange(6)
    headers, cookie = [], None
    if k == 0:
        headers.append(("authorization", "Bearer " + c(jwt(), "jwt")))
    elif k == 1:
        n, v = session_cookie()
        cookie = "; ".join(benign_cookies() + ["%s=%s" % (n, c(v, "session_cookie"))])
    elif k == 2:
        p = provider(http=True)
        headers.append(auth_header(p, c, lower=True))
    elif k == 3:
        headers.append(("authorization", "Bearer " + c(k_bearer(), "bearer_token")))
    elif k == 4:
        user = pick(["admin", "ops", "support", "nadia.k", "api"])
        headers.append(("authorization", "Basic " + c(b64(("%s:%s" % (user, password())).encode()), "basic_auth")))
    else:
        headers.append(("x-api-key", c(pick([rs(AN, 40), rs(HEX, 32), "key_" + rs(AN, 32)]), "api_key")))
    return headers, cookie


def t_har():
    c = C()
    host = app_host()
    method = pick(["GET", "POST", "POST", "PATCH"])
    path = api_path() if method == "GET" else pick(["/api/login", "/api/v1/customers", "/api/signup", "/api/v1/payouts", "/api/profile"])
    hdrs, cookie = auth_for_browser(c)
    headers = [{"name": ":authority", "value": host}, {"name": ":method", "value": method},
               {"name": ":path", "value": path}, {"name": ":scheme", "value": "https"},
               {"name": "accept", "value": "application/json, text/plain, */*"},
               {"name": "accept-language", "value": pick(["de-DE,de;q=0.9,en;q=0.8", "fr-FR,fr;q=0.9", "en-US,en;q=0.9", "es-ES,es;q=0.9"])}]
    headers += [{"name": n, "value": v} for n, v in hdrs]
    cookies = []
    if cookie:
        headers.append({"name": "cookie", "value": cookie})
        for part in cookie.split("; "):
            n, v = part.split("=", 1)
            cookies.append({"name": n, "value": v, "path": "/", "domain": "." + host.split(".", 1)[1], "expires": None,
                            "httpOnly": n not in ("theme", "locale"), "secure": True})
    headers.append({"name": "user-agent", "value": pick(UA)})
    req = {"method": method, "url": "https://%s%s" % (host, path), "httpVersion": "http/2.0", "headers": headers,
           "queryString": [], "cookies": cookies, "headersSize": -1, "bodySize": 0}
    if method != "GET":
        p = Person()
        k = R.randrange(3)
        if k == 0:
            body = {"email": c(p.email, "email"), "password": c(password(), "password"), "remember": True}
        elif k == 1:
            body = {"name": p.name, "email": c(p.email, "email"), "phone": c(p.phone, "phone"), "birthdate": p.dob}
        else:
            cc, ib = iban(pick(["DE", "FR", "NL", "ES", "IT", "BE", "AT", "IE"]), spaced=False)
            body = {"account_holder": p.name, "iban": c(ib, "iban"), "bic": bic_of(cc, ib), "currency": "EUR"}
        txt = json.dumps(body, ensure_ascii=False)
        req["postData"] = {"mimeType": "application/json", "text": txt}
        req["bodySize"] = len(txt)
    entry = {"startedDateTime": iso_ts(), "time": round(R.uniform(20, 900), 3), "request": req,
             "response": {"status": pick([200, 201, 401, 403, 422, 500]), "statusText": "", "httpVersion": "http/2.0",
                          "headers": [{"name": "content-type", "value": "application/json; charset=utf-8"},
                                      {"name": "x-request-id", "value": uuid4()}],
                          "cookies": [], "content": {"size": R.randint(40, 9000), "mimeType": "application/json"},
                          "redirectURL": "", "headersSize": -1, "bodySize": -1},
             "cache": {}, "timings": {"blocked": round(R.uniform(0, 5), 3), "dns": -1, "connect": -1, "send": 0.2,
                                      "wait": round(R.uniform(10, 800), 3), "receive": round(R.uniform(0, 9), 3), "ssl": -1}}
    if chance(0.5):
        out = json.dumps({"log": {"version": "1.2", "creator": {"name": pick(["WebInspector", "Firefox"]), "version": "537.36"},
                                  "pages": [], "entries": [entry]}}, indent=2, ensure_ascii=False)
    else:
        out = json.dumps(entry, indent=pick([None, 1, 2]), ensure_ascii=False)
    emit(pick(["", "exported the HAR from devtools, the failing call is this one:\n", "network.har (trimmed):\n",
               "Here's the request from the HAR file the customer attached to ticket #%d:\n\n" % R.randint(10000, 99999)]) + out, c)


def t_fetch():
    c = C()
    host = app_host()
    hdrs, cookie = auth_for_browser(c)
    h = {"accept": "*/*", "accept-language": pick(["en-GB,en;q=0.9", "de-DE,de;q=0.9", "nl-NL,nl;q=0.9,en;q=0.8"]),
         "content-type": "application/json", "priority": "u=1, i",
         "sec-ch-ua": "\"Chromium\";v=\"131\", \"Not_A Brand\";v=\"24\"", "sec-ch-ua-mobile": "?0",
         "sec-fetch-dest": "empty", "sec-fetch-mode": "cors", "sec-fetch-site": "same-origin"}
    for n, v in hdrs:
        h[n] = v
    if cookie:
        h["cookie"] = cookie
    hs = ",\n".join('    "%s": "%s"' % (k, v.replace('"', '\\"')) for k, v in h.items())
    if chance(0.6):
        p = Person()
        body = json.dumps({"email": c(p.email, "email"), "phone": c(p.phone, "phone"), "note": pick(["call after 5pm", "VIP", "", "prefers WhatsApp"])},
                          ensure_ascii=False).replace('"', '\\"')
        method, bodyline = "POST", '  "body": "%s",\n' % body
    else:
        method, bodyline = "GET", '  "body": null,\n'
    node = chance(0.4)
    out = ('fetch("https://%s%s", {\n  "headers": {\n%s\n  },\n%s%s  "method": "%s"%s\n});' % (
        host, api_path() if method == "GET" else "/api/v1/contacts", hs,
        '  "referrer": "https://%s/",\n' % host if not node else "", bodyline, method,
        ',\n  "mode": "cors",\n  "credentials": "include"' if not node else ""))
    emit(pick(["", "copy as fetch:\n", "Copied this from Chrome (Copy as fetch%s), it works in the browser but not from the script:\n\n" % (" (Node.js)" if node else ""),
               "```js\n"]) + out, c)


def t_copy_cmd():
    c = C()
    host = app_host()
    hdrs, cookie = auth_for_browser(c)
    if chance(0.5):
        parts = ['curl ^"https://%s%s^" ^' % (host, api_path())]
        for n, v in hdrs:
            parts.append('  -H ^"%s: %s^" ^' % (n, v))
        if cookie:
            parts.append('  -b ^"%s^" ^' % cookie)
        parts.append('  -H ^"user-agent: %s^"' % pick(UA).replace("(", "^(").replace(")", "^)"))
        out = "\n".join(parts)
        head = pick(["Copy as cURL (cmd):\n", "runs fine on windows cmd:\n", ""])
    else:
        lines = ["$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession",
                 '$session.UserAgent = "%s"' % pick(UA)]
        if cookie:
            for part in cookie.split("; "):
                n, v = part.split("=", 1)
                lines.append('$session.Cookies.Add((New-Object System.Net.Cookie("%s", "%s", "/", "%s")))' % (n, v, host))
        hl = ['  "accept"="application/json"']
        for n, v in hdrs:
            hl.append('  "%s"="%s"' % (n, v))
        lines.append('Invoke-WebRequest -UseBasicParsing -Uri "https://%s%s" `' % (host, api_path()))
        lines.append("-WebSession $session `")
        lines.append("-Headers @{\n%s\n}" % "\n".join(hl))
        out = "\n".join(lines)
        head = pick(["Copy as PowerShell gave me this:\n", "", "PS> "])
    emit(head + out, c)


def t_raw_http():
    c = C()
    host = app_host()
    hdrs, cookie = auth_for_browser(c)
    k = R.randrange(3)
    if k == 0:
        method = pick(["GET", "DELETE", "PUT"])
        lines = ["%s %s HTTP/1.1" % (method, api_path()), "Host: %s" % host, "User-Agent: %s" % pick(UA), "Accept: application/json"]
        lines += ["%s: %s" % (n.title() if n.islower() and "-" not in n[:2] else n, v) for n, v in hdrs]
        if cookie:
            lines.append("Cookie: %s" % cookie)
        lines += ["X-Request-ID: %s" % uuid4(), "Connection: keep-alive", ""]
        resp = ["", "HTTP/1.1 %s" % pick(["401 Unauthorized", "200 OK", "502 Bad Gateway", "403 Forbidden"]),
                "Date: %s" % pick(["Tue, 04 Mar 2025 09:14:22 GMT", "Fri, 17 Oct 2025 16:02:51 GMT", "Mon, 12 May 2025 23:40:07 GMT"]),
                "Content-Type: application/json", "Content-Length: %d" % R.randint(20, 900), "Server: %s" % pick(["nginx", "cloudflare", "envoy"])]
        out = "\r\n".join(lines) + "\n".join(resp) if chance(0.3) else "\n".join(lines + resp)
    elif k == 1:
        lines = [":method: %s" % pick(["GET", "POST"]), ":authority: %s" % host, ":scheme: https", ":path: %s" % api_path()]
        lines += ["accept: application/json", "accept-encoding: gzip, deflate, br, zstd"]
        lines += ["%s: %s" % (n.lower(), v) for n, v in hdrs]
        if cookie:
            lines.append("cookie: %s" % cookie)
        lines.append("user-agent: %s" % pick(UA))
        out = pick(["Request Headers (HTTP/2):\n", "from the Network tab → Headers → Request Headers (raw):\n", ""]) + "\n".join(lines)
    else:
        sid = R.randint(1, 31) * 2 + 1
        lines = ["[  0.%03d] send HEADERS frame <length=%d, flags=0x25, stream_id=%d>" % (R.randint(10, 999), R.randint(60, 400), sid),
                 "          ; END_STREAM | END_HEADERS | PRIORITY",
                 "          :method: GET", "          :path: %s" % api_path(), "          :scheme: https",
                 "          :authority: %s" % host, "          accept: */*", "          accept-encoding: gzip, deflate",
                 "          user-agent: nghttp2/1.64.0"]
        lines += ["          %s: %s" % (n.lower(), v) for n, v in hdrs]
        if cookie:
            lines.append("          cookie: %s" % cookie)
        lines.append("[  0.%03d] recv (stream_id=%d) :status: %s" % (R.randint(10, 999), sid, pick(["200", "401", "429"])))
        out = "$ nghttp -nv https://%s/\n" % host + "\n".join(lines)
    emit(out, c)


def t_set_cookie():
    c = C()
    host = app_host()
    n, v = session_cookie()
    lines = ["HTTP/2 %s" % pick(["200", "302"]), "date: %s" % pick(["Wed, 22 Jan 2025 10:31:09 GMT", "Thu, 11 Sep 2025 07:55:40 GMT"]),
             "content-type: text/html; charset=utf-8"]
    if lines[0].endswith("302"):
        lines.append("location: https://%s/dashboard" % host)
    lines.append("set-cookie: %s=%s; Path=/; %sHttpOnly; Secure; SameSite=Lax" % (n, c(v, "session_cookie"),
                                                                           pick(["", "Max-Age=1209600; ", "Expires=Sat, 01 Nov 2025 10:31:09 GMT; "])))
    if chance(0.5):
        lines.append("set-cookie: %s; Path=/; Max-Age=31536000; SameSite=Lax" % pick(benign_cookies()))
    if chance(0.5):
        lines.append("set-cookie: refresh_token=%s; Path=/api/auth; HttpOnly; Secure; SameSite=Strict" % c(rs(AN + "-_", R.randint(48, 86)), "bearer_token"))
    if chance(0.35):
        lines.append("set-cookie: sb-access-token=%s; Path=/; Secure; SameSite=Lax" % c(jwt(role="authenticated"), "jwt"))
    lines += ["strict-transport-security: max-age=63072000; includeSubDomains; preload", "x-content-type-options: nosniff",
              "cf-ray: %s-%s" % (rs(HEX, 16), pick(["FRA", "AMS", "LHR", "IAD", "NRT"]))]
    emit(pick(["$ curl -sI -X POST https://%s/login -d @creds.json\n" % host, "response headers after login:\n", ""]) + "\n".join(lines), c)


def t_postman_env():
    c = C()
    p = provider(http=True)
    vals = [{"key": "baseUrl", "value": "https://%s" % p[5], "type": "default", "enabled": True}]
    vals.append({"key": pick(["apiKey", "token", "api_key", "accessToken"]), "value": c(p[1](), p[0]), "type": "secret", "enabled": True})
    if chance(0.6):
        vals.append({"key": "userEmail", "value": c(work_email(pick(["nadia", "tomas", "ines", "kofi"]), pick(["ruiz", "berg", "abara", "lind"])), "email"),
                     "type": "default", "enabled": True})
        vals.append({"key": "userPassword", "value": c(password(), "password"), "type": "secret", "enabled": True})
    if chance(0.4):
        vals.append({"key": "jwt", "value": c(jwt(), "jwt"), "type": "any", "enabled": True})
    vals.append({"key": "orderId", "value": str(R.randint(100000, 999999)), "type": "default", "enabled": True})
    env = {"id": uuid4(), "name": "%s - %s" % (pick(ORGS).title(), pick(["Production", "Staging", "Local"])), "values": vals,
           "_postman_variable_scope": "environment", "_postman_exported_at": iso_ts(), "_postman_exported_using": "Postman/11.%d.%d" % (R.randint(0, 30), R.randint(0, 9))}
    emit(pick(["", "postman environment export:\n", "Importing this env into Bruno fails:\n"]) + json.dumps(env, indent=pick([2, 4]), ensure_ascii=False), c)


def t_websocket():
    c = C()
    host = app_host().replace("app.", "rt.").replace("api.", "ws.")
    k = R.randrange(4)
    if k == 0:
        out = "WebSocket connection to 'wss://%s/socket/websocket?token=%s&vsn=2.0.0' failed: Error during WebSocket handshake: Unexpected response code: 403" % (
            host, c(jwt(), "jwt"))
    elif k == 1:
        out = "const ws = new WebSocket(\"wss://%s/v1/stream?access_token=%s\");\nws.onmessage = (e) => render(JSON.parse(e.data));" % (
            host, c(k_bearer(), "bearer_token"))
    elif k == 2:
        key = k_ably()
        out = "wss://realtime.ably.io/?key=%s&format=json&heartbeats=true&v=3&agent=ably-js%%2F2.%d.0" % (c(key, "ably_api_key"), R.randint(0, 6))
        out = pick(["Frames tab shows the socket URL:\n", "ably keeps reconnecting, url is\n"]) + out
    else:
        out = ('wscat -c "wss://%s/graphql" -s graphql-transport-ws\n> {"type":"connection_init","payload":{"Authorization":"Bearer %s"}}\n< {"type":"connection_ack"}' % (
            host, c(jwt(), "jwt")))
    emit(out, c)


def t_httpie():
    c = C()
    host = app_host()
    k = R.randrange(3)
    if k == 0:
        p = Person()
        out = "http POST https://%s/api/login email=%s password='%s'" % (host, c(p.email, "email"), c(password(), "password"))
    elif k == 1:
        out = "https -A bearer -a %s %s%s" % (c(k_bearer(), "bearer_token"), host, api_path())
    else:
        p = provider(http=True)
        n, v = auth_header(p, c)
        out = "xh %s%s '%s:%s'" % (p[5], pick(["/v1/models", "/v1/me", "/api/v1/projects"]), n, v)
    emit(pick(["$ ", "", "tried with httpie:\n"]) + out, c)


# ---------------------------------------------------------------------------
# mobile-app configuration
# ---------------------------------------------------------------------------

BUNDLES = ["app.fernhill.ios", "com.gannet.mobile", "io.tessellate.reader", "com.brackenpay.wallet", "nl.quayside.tickets",
           "de.meadowlark.app", "com.oriole.health", "fr.cormorant.boutique"]


def firebase_project():
    return "%s-%s" % (pick(ORGS), pick(["prod", "staging", "app", "mobile"])) + pick(["", "-%s" % rs(LO + DIG, 5)])


def t_google_services_json():
    c = C()
    proj = firebase_project()
    num = nz(12)
    pkg = pick(BUNDLES)
    clients = []
    for i in range(R.randint(1, 2)):
        key = k_gapi()
        clients.append({"client_info": {"mobilesdk_app_id": "1:%s:android:%s" % (num, rs(HEX, 22)),
                                        "android_client_info": {"package_name": pkg + (".debug" if i else "")}},
                        "oauth_client": [{"client_id": "%s-%s.apps.googleusercontent.com" % (num, rs(LO + DIG, 32)), "client_type": 3}],
                        "api_key": [{"current_key": c(key, "google_api_key")}],
                        "services": {"appinvite_service": {"other_platform_oauth_client": []}}})
    d = {"project_info": {"project_number": num, "project_id": proj, "storage_bucket": "%s.firebasestorage.app" % proj},
         "client": clients, "configuration_version": "1"}
    emit(pick(["app/google-services.json:\n", "", "is it ok that this is committed?\n"]) + json.dumps(d, indent=2), c)


def t_google_plist():
    c = C()
    proj = firebase_project()
    num = nz(12)
    cid = "%s-%s" % (num, rs(LO + DIG, 32))
    entries = [("CLIENT_ID", "%s.apps.googleusercontent.com" % cid), ("REVERSED_CLIENT_ID", "com.googleusercontent.apps.%s" % cid),
               ("API_KEY", c(k_gapi(), "google_api_key")), ("GCM_SENDER_ID", num), ("PLIST_VERSION", "1"),
               ("BUNDLE_ID", pick(BUNDLES)), ("PROJECT_ID", proj), ("STORAGE_BUCKET", "%s.appspot.com" % proj)]
    body = "\n".join("\t<key>%s</key>\n\t<string>%s</string>" % kv for kv in entries)
    bools = "\n".join("\t<key>%s</key>\n\t<%s/>" % (k, pick(["true", "false"])) for k in ["IS_ADS_ENABLED", "IS_ANALYTICS_ENABLED", "IS_GCM_ENABLED", "IS_SIGNIN_ENABLED"])
    out = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
           '<plist version="1.0">\n<dict>\n%s\n%s\n\t<key>GOOGLE_APP_ID</key>\n\t<string>1:%s:ios:%s</string>\n</dict>\n</plist>') % (body, bools, num, rs(HEX, 22))
    emit(pick(["GoogleService-Info.plist\n", "", "Runner/GoogleService-Info.plist:\n"]) + out, c)


def t_gradle_props():
    c = C()
    k = R.randrange(4)
    if k == 0:
        lines = ["org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8", "android.useAndroidX=true", "kotlin.code.style=official",
                 "VERSION_NAME=%d.%d.%d" % (R.randint(1, 6), R.randint(0, 30), R.randint(0, 9)), "VERSION_CODE=%d" % R.randint(100, 9000),
                 "RELEASE_STORE_FILE=../keystores/upload.jks", "RELEASE_STORE_PASSWORD=%s" % c(password(), "password"),
                 "RELEASE_KEY_ALIAS=upload", "RELEASE_KEY_PASSWORD=%s" % c(password(), "password")]
        out = "# gradle.properties\n" + "\n".join(lines)
    elif k == 1:
        lines = ["## This file must *NOT* be checked into Version Control Systems,", "# as it contains information specific to your local configuration.",
                 "sdk.dir=/Users/%s/Library/Android/sdk" % pick(["nadia", "kofi", "ines", "tomas"]),
                 "MAPS_API_KEY=%s" % c(k_gapi(), "google_api_key")]
        if chance(0.6):
            p = pick([PROV["sentry_token"], PROV["revenuecat_secret_key"], PROV["posthog_personal_key"], PROV["mapbox_token"]])
            lines.append("%s=%s" % (p[2], c(p[1](), p[0])))
        if chance(0.5):
            lines.append("MAPBOX_DOWNLOADS_TOKEN=%s" % c(k_mapbox(), "mapbox_token"))
        out = "local.properties:\n" + "\n".join(lines)
    elif k == 2:
        u = pick(["gannet-release", "fernhill", "tessellate-bot"])
        out = ("~/.gradle/gradle.properties\n\nsigning.keyId=%s\nsigning.password=%s\nsigning.secretKeyRingFile=/Users/%s/.gnupg/secring.gpg\n"
               "ossrhUsername=%s\nossrhPassword=%s\nmavenCentralUsername=%s\nmavenCentralPassword=%s") % (
            rs(HEXU, 8), c(password(), "password"), pick(["nadia", "kofi"]), u, c(password(), "password"), rs(AN, 8), c(rs(AN, 44), "password"))
    else:
        sp, kp = password(), password()
        out = ("android {\n    signingConfigs {\n        release {\n            storeFile file(\"release.keystore\")\n"
               "            storePassword \"%s\"\n            keyAlias \"%s\"\n            keyPassword \"%s\"\n        }\n    }\n"
               "    buildTypes {\n        release {\n            signingConfig signingConfigs.release\n            minifyEnabled true\n        }\n    }\n}") % (
            c(sp, "password"), pick(["release", "key0", "upload"]), c(kp, "password") if kp != sp else kp)
        out = pick(["app/build.gradle:\n", "", "```groovy\n"]) + out
    emit(out, c)


def t_keytool():
    c = C()
    sp = password(style=pick([0, 2, 4, 6]))
    k = R.randrange(3)
    if k == 0:
        out = ("keytool -genkeypair -v -keystore upload-keystore.jks -keyalg RSA -keysize 2048 -validity 10000 -alias upload "
               "-storepass '%s' -keypass '%s' -dname \"CN=%s, O=%s, C=%s\"") % (c(sp, "password"), sp, pick(["Nadia Ruiz", "Kofi Abara"]), pick(ORGS).title(), pick(["DE", "NL", "GB"]))
    elif k == 1:
        out = "keytool -list -v -keystore ~/.android/release.keystore -alias release -storepass %s | grep SHA256" % c(sp, "password")
    else:
        out = ("apksigner sign --ks release.jks --ks-key-alias upload --ks-pass pass:%s --key-pass pass:%s app-release-unsigned.apk\n"
               "Signed") % (c(sp, "password"), sp)
    emit(pick(["$ ", "", "ran this to sign the build:\n"]) + out, c)


def t_xcconfig():
    c = C()
    lines = ["// Config/%s.xcconfig" % pick(["Release", "Production", "Secrets"]),
             "PRODUCT_BUNDLE_IDENTIFIER = %s" % pick(BUNDLES), "MARKETING_VERSION = %d.%d.%d" % (R.randint(1, 5), R.randint(0, 20), R.randint(0, 9)),
             "CURRENT_PROJECT_VERSION = %d" % R.randint(100, 4000), "DEVELOPMENT_TEAM = %s" % rs(UP + DIG, 10),
             "API_BASE_URL = https:/$()/%s" % app_host()]
    for p in R.sample([PROV["revenuecat_secret_key"], PROV["sentry_token"], PROV["mapbox_token"], PROV["google_api_key"],
                       PROV["posthog_personal_key"], PROV["openai_key"], PROV["contentful_token"], PROV["elevenlabs_key"]], R.randint(1, 3)):
        lines.append("%s = %s" % (p[2], c(p[1](), p[0])))
    if chance(0.4):
        lines.append("ALGOLIA_APP_ID = %s" % rs(UP + DIG, 10))
    emit("\n".join(lines), c)


def t_p8():
    c = C()
    kid = rs(UP + DIG, 10)
    issuer = uuid4()
    key = pem_p8()
    k = R.randrange(3)
    if k == 0:
        out = "$ cat ~/Downloads/AuthKey_%s.p8\n%s" % (kid, c(key, "private_key"))
    elif k == 1:
        esc = key.replace("\n", "\\n")
        out = json.dumps({"key_id": kid, "issuer_id": issuer, "key": "PLACEHOLDER", "duration": 1200, "in_house": False}, indent=2)
        out = out.replace('"PLACEHOLDER"', '"%s"' % c(esc, "private_key"))
        out = "fastlane/api_key.json\n" + out
    else:
        esc = key.replace("\n", "\\n")
        out = ('lane :beta do\n  api_key = app_store_connect_api_key(\n    key_id: "%s",\n    issuer_id: "%s",\n'
               '    key_content: "%s",\n    in_house: false\n  )\n  upload_to_testflight(api_key: api_key)\nend') % (kid, issuer, c(esc, "private_key"))
        out = pick(["fastlane/Fastfile:\n", ""]) + out
    emit(out, c)


def t_fastlane_env():
    c = C()
    who = Person(pick(["US", "GB", "DE", "NL", "FR"]))
    lines = ["FASTLANE_USER=%s" % c(who.email, "email"),
             "FASTLANE_PASSWORD=%s" % c(password(), "password"),
             "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD=%s" % c(apple_app_password(), "password"),
             "MATCH_GIT_URL=git@github.com:%s/certificates.git" % pick(ORGS),
             "MATCH_PASSWORD=%s" % c(password(), "password"),
             "FASTLANE_ITC_TEAM_ID=%d" % R.randint(100000000, 129999999)]
    if chance(0.5):
        lines.append("MATCH_GIT_BASIC_AUTHORIZATION=%s" % c(b64(("%s:%s" % (pick(["ci-bot", "release"]), k_github("ghp_"))).encode()), "basic_auth"))
    if chance(0.4):
        lines.append("SLACK_URL=%s" % c(slack_webhook(), "slack_webhook"))
    R.shuffle(lines)
    emit(pick(["fastlane/.env.default\n", "", "our fastlane env (CI secret `FASTLANE_ENV`):\n"]) + "\n".join(lines), c)


def t_eas():
    c = C()
    env = {"APP_ENV": "production", "API_URL": "https://%s" % app_host()}
    for p in R.sample([PROV["sentry_token"], PROV["revenuecat_secret_key"], PROV["posthog_personal_key"], PROV["google_api_key"],
                       PROV["openai_key"], PROV["mapbox_token"], PROV["ably_api_key"]], R.randint(1, 3)):
        env[p[2]] = c(p[1](), p[0])
    d = {"cli": {"version": ">= 13.%d.0" % R.randint(0, 4), "appVersionSource": "remote"},
         "build": {"production": {"autoIncrement": True, "env": env}, "preview": {"distribution": "internal"}},
         "submit": {"production": {"ios": {"appleId": "PLACEHOLDER_APPLEID", "ascAppId": str(R.randint(1400000000, 6999999999)), "appleTeamId": rs(UP + DIG, 10)}}}}
    out = json.dumps(d, indent=2)
    who = Person(pick(["US", "GB", "AU", "CA"]))
    out = out.replace("PLACEHOLDER_APPLEID", c(who.email, "email"))
    emit(pick(["eas.json\n", ""]) + out, c)


def t_sdk_init():
    c = C()
    k = R.randrange(8)
    if k == 0:
        out = 'Purchases.logLevel = .debug\nPurchases.configure(withAPIKey: "%s", appUserID: user.id)' % c(k_revenuecat(), "revenuecat_secret_key")
    elif k == 1:
        out = 'let client = ARTRealtime(key: "%s")\nclient.connection.on { state in print(state) }' % c(k_ably(), "ably_api_key")
    elif k == 2:
        out = ('val openAi = OpenAI(\n    token = "%s",\n    timeout = Timeout(socket = 60.seconds)\n)' % c(k_openai(), "openai_key"))
    elif k == 3:
        out = ('final model = GenerativeModel(\n  model: \'gemini-2.0-flash\',\n  apiKey: \'%s\',\n);' % c(k_gapi(), "google_api_key"))
    elif k == 4:
        out = ('SentrySDK.start { options in\n    options.environment = "production"\n    options.tracesSampleRate = 0.2\n}\n'
               '// upload dSYMs: sentry-cli --auth-token %s debug-files upload --org %s') % (c(k_sentry(), "sentry_token"), pick(ORGS))
    elif k == 5:
        out = ('// settings.gradle.kts\nmaven {\n    url = uri("https://api.mapbox.com/downloads/v2/releases/maven")\n'
               '    credentials {\n        username = "mapbox"\n        password = "%s"\n    }\n}' % c(k_mapbox(), "mapbox_token"))
    elif k == 6:
        out = ('class Secrets {\n  static const stripeSecret = \'%s\';\n  static const elevenLabs = \'%s\';\n}' % (
            c(k_stripe("sk_live_"), "stripe_key"), c(k_elevenlabs(), "elevenlabs_key")))
    else:
        out = ('buildConfigField("String", "FCM_SERVER_KEY", "\\"%s\\"")' % c(k_fcm(), "fcm_server_key"))
    emit(pick(["", "found this in the iOS target:\n", "```\n", "snippet from the app:\n"]) + out, c)


def slack_webhook():
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(UP + DIG, 10), rs(UP + DIG, 10), rs(AN, 24))


# ---------------------------------------------------------------------------
# payment and billing exports
# ---------------------------------------------------------------------------

def exp_date():
    return "%02d/%02d" % (R.randint(1, 12), R.randint(26, 32))


def money(cur=None):
    cur = cur or pick(["EUR", "USD", "GBP", "CHF", "SEK", "PLN", "BRL"])
    return "%d.%02d" % (R.randint(3, 4999), R.randint(0, 99)), cur


def t_card_export():
    c = C()
    k = R.randrange(6)
    if k == 0:
        sep = pick(["", " ", "-"])
        rows = ["order_id,created_at,customer_email,card_brand,card_number,exp,amount,currency"]
        for _ in range(R.randint(2, 4)):
            p = Person()
            b, n = card(sep=sep)
            a, cur = money()
            rows.append("%d,%s,%s,%s,%s,%s,%s,%s" % (R.randint(100000, 999999), iso_ts()[:19], c(p.email, "email"), b, c(n, "card_number"), exp_date(), a, cur))
        out = pick(["legacy_payments_export.csv (from the old PHP shop):\n", "", "first rows of the dump:\n"]) + "\n".join(rows)
    elif k == 1:
        b, n = card(sep="")
        p = Person()
        d = {"level": "debug", "ts": iso_ts(), "msg": "gateway request", "payload": {"amount": int(money()[0].replace(".", "")), "currency": "eur",
             "payment_method_data": {"type": "card", "card": {"number": n, "exp_month": R.randint(1, 12), "exp_year": R.randint(2026, 2032)},
                                     "billing_details": {"email": p.email, "name": p.name}}}}
        c(n, "card_number")
        c(p.email, "email")
        out = json.dumps(d, ensure_ascii=False)
    elif k == 2:
        rows = []
        for _ in range(R.randint(2, 4)):
            p = Person()
            b, n = card(sep=pick([" ", "-", ".", "\u00a0"]))
            rows.append("%s\t%s\t%s\t%s" % (p.name, c(n, "card_number"), exp_date(), b.upper()))
        out = "Name\tKartennummer\tGültig bis\tTyp\n" + "\n".join(rows)
        out = pick(["kopiert aus der Excel-Liste:\n", "pasted from the spreadsheet:\n", ""]) + out
    elif k == 3:
        b, n = card()
        p = Person()
        out = pick(["Hi, I was charged twice for order #%d. The card is %s (exp %s). Please refund to the same card. — %s",
                    "Bonjour, j'ai été débité deux fois (commande %d). Carte : %s, expire %s. Merci de rembourser. %s",
                    "Hola, me cobraron dos veces el pedido %d. Tarjeta %s, caducidad %s. Saludos, %s",
                    "Hallo, Bestellung %d wurde doppelt abgebucht. Karte %s, gültig bis %s. Gruß %s"]) % (
            R.randint(10000, 999999), c(n, "card_number"), exp_date(), p.name)
    elif k == 4:
        b, n = card(sep="")
        out = ('<soapenv:Body>\n  <ns2:AuthorizeRequest>\n    <MerchantId>%d</MerchantId>\n    <Amount currency="%s">%s</Amount>\n'
               '    <Card>\n      <Number>%s</Number>\n      <Expiry>%s</Expiry>\n      <HolderName>%s</HolderName>\n    </Card>\n'
               '  </ns2:AuthorizeRequest>\n</soapenv:Body>') % (R.randint(1000000, 9999999), pick(["EUR", "GBP", "USD"]), money()[0],
                                                                c(n, "card_number"), exp_date().replace("/", ""), Person().name.upper())
        out = pick(["SOAP trace from the PSP integration:\n", ""]) + out
    else:
        rows = []
        for _ in range(R.randint(2, 4)):
            b, n = card(sep=" ")
            rows.append("| %s | %s | %s | %s |" % (R.randint(1000, 9999), b, c(n, "card_number"), pick(["declined", "chargeback", "refunded", "disputed"])))
        out = "| txn | brand | pan | status |\n|---|---|---|---|\n" + "\n".join(rows)
    emit(out, c)


def t_test_cards():
    c = C()
    k = R.randrange(3)
    if k == 0:
        n = pick(["4242 4242 4242 4242", "4242424242424242"])
        out = "ok checkout works in %s, used %s with any future date and CVC" % (pick(["staging", "the preview deploy", "local"]), c(n, "card_number"))
    elif k == 1:
        n = pick(["5555 5555 5555 4444", "4000 0566 5566 5556"])
        out = "E2E fixture: `cy.get('#card').type('%s')`" % c(n, "card_number")
    else:
        n = pick(["4000002760003184", "4000 0025 0000 3155"])
        out = "for the 3DS flow use %s (requires authentication)" % c(n, "card_number")
    emit(out, c)


def t_iban_bic():
    c = C()
    k = R.randrange(7)
    if k == 0:
        rows = ["Lieferant;Ort;IBAN;BIC;Zahlungsziel"]
        for _ in range(R.randint(2, 5)):
            cc, ib = iban(pick(["DE", "AT", "CH", "LU", "NL", "BE", "LI", "IT"]))
            rows.append("%s %s;%s;%s;%s;%d Tage" % (pick(["Bäckerei", "Druckerei", "Metallbau", "Spedition", "Elektro"]), Person("DE").last,
                                                   pick(COUNTRIES["DE"]["cities"]), c(ib, "iban"), bic_of(cc, ib), pick([14, 30, 45])))
        out = pick(["Kreditoren-Stammdaten (Export aus DATEV):\n", "lieferanten.csv\n", ""]) + "\n".join(rows)
    elif k == 1:
        cc = pick(["DE", "FR", "ES", "IT", "NL", "PT", "FI", "IE", "GB", "PL", "SE", "DK", "CZ", "HU", "RO", "GR"])
        _, ib = iban(cc, spaced=True)
        org = pick(ORGS).title()
        foot = {"DE": "%s GmbH · Geschäftsführer: %s · Bankverbindung: IBAN %s · BIC %s",
                "FR": "%s SAS – Président : %s – IBAN : %s – BIC : %s",
                "ES": "%s S.L. · Administrador: %s · IBAN: %s · SWIFT/BIC: %s",
                "IT": "%s S.r.l. – Amministratore: %s – IBAN %s – BIC %s",
                "NL": "%s B.V. | Directeur: %s | IBAN %s | BIC %s",
                "PT": "%s, Lda. · Gerente: %s · IBAN %s · BIC/SWIFT %s",
                "PL": "%s sp. z o.o. · Prezes: %s · IBAN: %s · BIC: %s",
                "SE": "%s AB · VD: %s · IBAN %s · BIC %s"}.get(cc, "%s Ltd · Director: %s · IBAN %s · BIC/SWIFT %s")
        out = "Invoice %s-%d\n...\n" % (pick(["INV", "RE", "FA", "FAC"]), R.randint(10000, 99999)) + foot % (org, Person(cc if cc in COUNTRIES else "GB").name, c(ib, "iban"), bic_of(cc, ib))
    elif k == 2:
        dbt = Person(pick(["DE", "FR", "NL", "ES"]))
        dcc, dib = iban(dbt.cc, spaced=False)
        txs = []
        for _ in range(R.randint(1, 3)):
            cred = Person(pick(["DE", "FR", "IT", "ES", "BE", "AT", "PT", "IE", "NL"]))
            ccc, cib = iban(cred.cc, spaced=False)
            a, _ = money("EUR")
            txs.append(("      <CdtTrfTxInf>\n        <PmtId><EndToEndId>E2E-%s</EndToEndId></PmtId>\n        <Amt><InstdAmt Ccy=\"EUR\">%s</InstdAmt></Amt>\n"
                        "        <CdtrAgt><FinInstnId><BICFI>%s</BICFI></FinInstnId></CdtrAgt>\n        <Cdtr><Nm>%s</Nm></Cdtr>\n"
                        "        <CdtrAcct><Id><IBAN>%s</IBAN></Id></CdtrAcct>\n        <RmtInf><Ustrd>%s</Ustrd></RmtInf>\n      </CdtTrfTxInf>") % (
                rs(UP + DIG, 12), a, bic_of(ccc, cib), cred.name, c(cib, "iban"), pick(["Rechnung 2025-%04d" % R.randint(1, 9999), "Refund order %d" % R.randint(10000, 99999), "Salary 10/2025"])))
        out = ("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.09\">\n  <CstmrCdtTrfInitn>\n    <PmtInf>\n      <PmtMtd>TRF</PmtMtd>\n"
               "      <Dbtr><Nm>%s</Nm></Dbtr>\n      <DbtrAcct><Id><IBAN>%s</IBAN></Id></DbtrAcct>\n      <DbtrAgt><FinInstnId><BICFI>%s</BICFI></FinInstnId></DbtrAgt>\n%s\n"
               "    </PmtInf>\n  </CstmrCdtTrfInitn>\n</Document>") % (pick(ORGS).title() + " GmbH", c(dib, "iban"), bic_of(dcc, dib), "\n".join(txs))
        out = pick(["SEPA file the bank rejected:\n", "", "pain.001 generated by the payout job:\n"]) + out
    elif k == 3:
        cc, ib = iban(pick(["DE", "NL", "AT", "CH", "GB"]), spaced=False)
        cp = Person(pick(["DE", "FR", "NL", "IT"]))
        ccc, cib = iban(cp.cc, spaced=False)
        out = (":20:STMT%s\n:25:%s\n:28C:%d/1\n:60F:C251014EUR%d,%02d\n:61:2510151015D%d,%02dNTRFNONREF//%s\n"
               ":86:166?00SEPA-UEBERWEISUNG?20EREF+%s?21SVWZ+Rechnung %d?30%s?31%s?32%s\n:62F:C251015EUR%d,%02d") % (
            digits(8), c(ib, "iban"), R.randint(1, 300), R.randint(1000, 99999), R.randint(0, 99), R.randint(10, 9999), R.randint(0, 99),
            digits(10), rs(UP + DIG, 10), R.randint(1000, 9999), bic_of(ccc, cib), c(cib, "iban"), cp.name.upper()[:27], R.randint(1000, 99999), R.randint(0, 99))
        out = pick(["MT940 from the bank portal:\n", ""]) + out
    elif k == 4:
        p = Person(pick(["FR", "ES", "IT", "DE", "NL", "BE", "PT", "IE", "PL", "SE", "DK", "AT", "CH"]))
        cc, ib = iban(p.cc if p.cc in IBAN_SPEC else "DE", spaced=chance(0.5))
        d = {"payout_method": {"type": "sepa_credit_transfer", "account_holder_name": p.name, "iban": c(ib, "iban"),
                               "bic": bic_of(cc, ib), "country": cc}, "email": c(p.email, "email"), "status": "verified"}
        out = json.dumps(d, indent=pick([None, 2]), ensure_ascii=False)
    elif k == 5:
        cc = pick(["SA", "AE", "QA", "TR", "IL", "BR", "UA", "GE", "KZ", "MU", "PK", "AD", "MT", "CY", "BG", "IS", "MC", "SM", "LV", "LT", "EE", "SI", "SK", "HR"])
        _, ib = iban(cc)
        out = pick(["Beneficiary: %s\nIBAN: %s\nSWIFT: %s\nPurpose: invoice %d",
                    "pls send the deposit to %s, IBAN %s (SWIFT %s), ref %d",
                    "Wire instructions -- name: %s / IBAN: %s / BIC: %s / reference: PO-%d"]) % (
            pick(["Yasmin Haddad", "Ilya Petrenko", "Nino Beridze", "Aigerim Sultanova", "Priya Ramgoolam", "Joseph Camilleri", "Maria Georgiou",
                  "Jón Sigurðsson", "Luka Horvat", "Rūta Kazlauskienė", "Kadri Tamm", "Mehmet Yıldız", "Ayelet Cohen", "Bilal Qureshi"]),
            c(ib, "iban"), bic_of(cc, ib), R.randint(1000, 99999))
    else:
        p = Person(pick(["FR", "ES", "IT", "PT", "NL"]))
        cc, ib = iban(p.cc, spaced=True)
        t = {"FR": "RELEVÉ D'IDENTITÉ BANCAIRE\nTitulaire du compte : %s\nIBAN : %s\nBIC : %s\nDomiciliation : %s",
             "ES": "CERTIFICADO DE TITULARIDAD\nTitular: %s\nIBAN: %s\nBIC: %s\nOficina: %s",
             "IT": "COORDINATE BANCARIE\nIntestatario: %s\nIBAN: %s\nBIC: %s\nFiliale: %s",
             "PT": "COMPROVATIVO DE IBAN\nTitular: %s\nIBAN: %s\nBIC/SWIFT: %s\nBalcão: %s",
             "NL": "Rekeninggegevens\nTen name van: %s\nIBAN: %s\nBIC: %s\nVestiging: %s"}[p.cc]
        out = t % (p.name, c(ib, "iban"), bic_of(cc, ib), p.city)
    emit(out, c)


def t_ach():
    c = C()
    k = R.randrange(4)
    if k == 0:
        lines = ["101 %s %s%s%s%s1094101%-23s%-23s" % (routing_number(), nz(9), "25", "%02d%02d" % (R.randint(1, 12), R.randint(1, 28)), "%02d%02d" % (R.randint(0, 23), R.randint(0, 59)), pick(["JPMORGAN CHASE", "WELLS FARGO BANK", "US BANK"]), pick(ORGS).upper() + " INC")]
        for i in range(R.randint(1, 3)):
            r = routing_number()
            acct = us_account()
            p = Person("US")
            lines.append("6%s%s%s%-17s%010d%-15s%-22s  0%s%07d" % (pick(["22", "27", "32"]), r[:8], r[8], c(acct, "us_bank_account"), R.randint(1000, 999999),
                                                                 "EMP%05d" % R.randint(1, 99999), p.name.upper()[:22], r[:8], i + 1))
        out = pick(["NACHA file from payroll (PPD):\n", "ach_batch_2025-10.txt\n", ""]) + "\n".join(lines)
    elif k == 1:
        p = Person("US")
        out = ("Direct deposit form\nEmployee: %s\nBank: %s\nRouting (ABA): %s\nAccount #: %s\nType: %s\nEmail for stubs: %s") % (
            p.name, pick(["Chase", "Bank of America", "Navy Federal", "Ally Bank", "Capital One"]), routing_number(),
            c(us_account(), "us_bank_account"), pick(["Checking", "Savings"]), c(p.email, "email"))
    elif k == 2:
        d = {"object": "bank_account", "account_holder_name": Person("US").name, "account_holder_type": "individual",
             "routing_number": routing_number(), "account_number": c(us_account(), "us_bank_account"), "country": "US", "currency": "usd"}
        out = "POST /v1/customers/cus_%s/sources\n%s" % (rs(AN, 14), json.dumps(d, indent=2))
    else:
        out = pick(["can you update my payout account? routing %s, acct %s. thanks!",
                    "Wire to: routing no. %s / account no. %s (checking)",
                    "ABA %s  ACCT %s  -- from the vendor W-9 packet"]) % (routing_number(), c(us_account(), "us_bank_account"))
    emit(out, c)


# ---------------------------------------------------------------------------
# CRM / HR exports in several languages
# ---------------------------------------------------------------------------

HDR = {  # lang -> (name, email, phone, birth date, id, city)
    "en": ("Full name", "Email", "Phone", "Date of birth", "ID number", "City"),
    "de": ("Name", "E-Mail", "Telefon", "Geburtsdatum", "Ausweis-/Steuernr.", "Ort"),
    "fr": ("Nom complet", "Courriel", "Téléphone", "Date de naissance", "N° d'identification", "Ville"),
    "es": ("Nombre", "Correo electrónico", "Teléfono", "Fecha de nacimiento", "Documento", "Ciudad"),
    "it": ("Nominativo", "E-mail", "Telefono", "Data di nascita", "Codice fiscale", "Città"),
    "pt": ("Nome", "E-mail", "Telefone", "Data de nascimento", "Documento", "Cidade"),
    "nl": ("Naam", "E-mailadres", "Telefoonnummer", "Geboortedatum", "BSN", "Plaats"),
    "sv": ("Namn", "E-post", "Telefon", "Födelsedatum", "Personnummer", "Ort"),
    "da": ("Navn", "E-mail", "Telefon", "Fødselsdato", "CPR-nr.", "By"),
    "pl": ("Imię i nazwisko", "E-mail", "Telefon", "Data urodzenia", "PESEL", "Miasto"),
    "ja": ("氏名", "メールアドレス", "電話番号", "生年月日", "個人番号", "住所"),
    "ko": ("이름", "이메일", "전화번호", "생년월일", "주민등록번호", "주소"),
    "tr": ("Ad Soyad", "E-posta", "Telefon", "Doğum tarihi", "TC Kimlik No", "Şehir"),
}


def t_crm_csv():
    c = C()
    cc = next_cc()
    lang = COUNTRIES[cc]["lang"]
    h = HDR[lang]
    delim = ";" if lang in ("de", "fr", "es", "it", "pt", "nl", "pl", "da", "sv", "tr") else pick([",", "\t"])
    with_id = chance(0.6)
    cols = [h[0], h[1], h[2]] + ([h[3], h[4]] if with_id else []) + [h[5]]
    rows = [delim.join(cols)]
    for _ in range(R.randint(2, 5)):
        p = Person(cc)
        vals = [p.name, c(p.email, "email"), c(p.phone, "phone")]
        if with_id:
            lab, v, _ = p.nid()
            vals += [p.dob_local, c(v, lab)]
        vals.append('"%s"' % p.city if delim in p.city else p.city)
        rows.append(delim.join(vals))
    emit(pick(["", "export_kunden.csv\n", "contacts export (%s):\n" % lang, "here's a sample of the import file that fails:\n",
               "```csv\n"]) + "\n".join(rows), c)


def t_vcard():
    c = C()
    out = []
    for _ in range(R.randint(1, 3)):
        p = Person()
        lines = ["BEGIN:VCARD", "VERSION:%s" % pick(["3.0", "4.0"]), "N:%s;%s;;;" % (p.last, p.first), "FN:%s" % p.name,
                 "ORG:%s" % pick(ORGS).title(), "EMAIL;TYPE=%s:%s" % (pick(["INTERNET", "work", "home"]), c(p.email, "email")),
                 "TEL;TYPE=%s:%s" % (pick(["CELL", "cell,voice", "WORK"]), c(p.phone, "phone"))]
        if chance(0.4):
            lines.append("BDAY:%s" % p.dob.replace("-", ""))
        lines += ["ADR;TYPE=HOME:;;;%s;;;" % p.city, "END:VCARD"]
        out.append("\n".join(lines))
    emit(pick(["", "contacts.vcf\n", "exported from the phone:\n"]) + "\n".join(out), c)


def t_ldif():
    c = C()
    out = []
    org = pick(ORGS)
    for _ in range(R.randint(1, 3)):
        p = Person()
        uid = fold(p.first)[0] + fold(p.last)
        e = c(work_email(p.first, p.last), "email")
        lines = ["dn: uid=%s,ou=people,dc=%s,dc=internal" % (uid, org), "objectClass: inetOrgPerson", "uid: %s" % uid,
                 "cn: %s" % p.name, "sn: %s" % p.last, "mail: %s" % e, "telephoneNumber: %s" % c(phone(p.cc, True), "phone")]
        if chance(0.3):
            lines.append("userPassword: %s" % c(password(), "password"))
        lines.append("employeeNumber: %d" % R.randint(1000, 99999))
        out.append("\n".join(lines))
    emit(pick(["ldapsearch -LLL -b ou=people,dc=%s,dc=internal\n" % org, "", "slapcat output:\n"]) + "\n\n".join(out), c)


HR_FORM = {
    "en": "New hire: {name}\nStart date: {start}\nDate of birth: {dob}\n{idname}: {id}\nPersonal email: {email}\nMobile: {phone}",
    "de": "Neueinstellung: {name}\nEintrittsdatum: {start}\nGeburtsdatum: {dob}\n{idname}: {id}\nPrivate E-Mail: {email}\nMobil: {phone}",
    "fr": "Nouvel arrivant : {name}\nDate d'entrée : {start}\nNé(e) le : {dob}\n{idname} : {id}\nE-mail perso : {email}\nPortable : {phone}",
    "es": "Alta de empleado: {name}\nFecha de alta: {start}\nFecha de nacimiento: {dob}\n{idname}: {id}\nCorreo personal: {email}\nMóvil: {phone}",
    "it": "Nuovo assunto: {name}\nData di assunzione: {start}\nData di nascita: {dob}\n{idname}: {id}\nEmail personale: {email}\nCellulare: {phone}",
    "pt": "Admissão: {name}\nData de início: {start}\nData de nascimento: {dob}\n{idname}: {id}\nE-mail pessoal: {email}\nCelular: {phone}",
    "nl": "Nieuwe medewerker: {name}\nIn dienst per: {start}\nGeboortedatum: {dob}\n{idname}: {id}\nPrivé e-mail: {email}\nMobiel: {phone}",
    "sv": "Nyanställd: {name}\nStartdatum: {start}\nFödd: {dob}\n{idname}: {id}\nPrivat e-post: {email}\nMobil: {phone}",
    "da": "Ny medarbejder: {name}\nStartdato: {start}\nFødselsdato: {dob}\n{idname}: {id}\nPrivat e-mail: {email}\nMobil: {phone}",
    "pl": "Nowy pracownik: {name}\nData rozpoczęcia: {start}\nData urodzenia: {dob}\n{idname}: {id}\nE-mail prywatny: {email}\nTelefon: {phone}",
    "ja": "新入社員: {name}\n入社日: {start}\n生年月日: {dob}\n{idname}: {id}\n個人メール: {email}\n携帯: {phone}",
    "ko": "신규 입사자: {name}\n입사일: {start}\n생년월일: {dob}\n{idname}: {id}\n개인 이메일: {email}\n휴대폰: {phone}",
    "tr": "Yeni çalışan: {name}\nİşe başlama: {start}\nDoğum tarihi: {dob}\n{idname}: {id}\nKişisel e-posta: {email}\nCep: {phone}",
}


def t_hr_record(cc=None):
    c = C()
    cc = cc or next_cc()
    p = Person(cc)
    lab, v, local = p.nid()
    lang = COUNTRIES[cc]["lang"]
    txt = HR_FORM[lang].format(name=p.name, start="2025-%02d-%02d" % (R.randint(1, 12), R.randint(1, 28)), dob=p.dob_local,
                               idname=local, id=c(v, lab), email=c(p.email, "email"), phone=c(p.phone, "phone"))
    if chance(0.35) and cc in IBAN_SPEC:
        icc, ib = iban(cc)
        txt += "\nIBAN: %s" % c(ib, "iban")
    if chance(0.2) and len(NATIONAL[cc]) > 1:
        lab2, v2, local2 = p.nid(1)
        if lab2 != lab:
            txt += "\n%s: %s" % (local2, c(v2, lab2))
    emit(pick(["", "Workday ticket HR-%d:\n" % R.randint(1000, 99999), "onboarding form (%s):\n" % cc, "From the BambooHR export:\n"]) + txt, c)


def t_crm_json():
    c = C()
    k = R.randrange(3)
    p = Person()
    if k == 0:
        d = {"id": str(R.randint(10 ** 10, 10 ** 11)), "properties": {"firstname": p.first, "lastname": p.last, "email": c(p.email, "email"),
             "phone": c(p.phone, "phone"), "lifecyclestage": pick(["lead", "customer", "opportunity"]), "hs_lead_status": pick(["NEW", "OPEN", "CONNECTED"]),
             "createdate": iso_ts()}, "archived": False}
    elif k == 1:
        d = {"attributes": {"type": "Contact", "url": "/services/data/v61.0/sobjects/Contact/003%s" % rs(AN, 15)},
             "Id": "003" + rs(AN, 15), "Name": p.name, "Email": c(p.email, "email"), "MobilePhone": c(p.phone, "phone"),
             "Birthdate": p.dob, "MailingCity": p.city}
        if chance(0.5) and p.cc in NATIONAL:
            lab, v, _ = p.nid()
            d["National_ID__c"] = c(v, lab)
    else:
        d = {"type": "user", "id": rs(HEX, 24), "external_id": str(R.randint(1000, 99999)), "email": c(p.email, "email"),
             "phone": c(phone(p.cc, True), "phone"), "name": p.name, "custom_attributes": {"plan": pick(["pro", "team", "free"]),
             "country": p.cc}}
    emit(pick(["", "GET /crm/v3/objects/contacts/%s returned:\n" % d.get("id", ""), "webhook payload:\n"]) + json.dumps(d, indent=pick([None, 2]), ensure_ascii=False), c)


def t_id_list(cc=None):
    """Validation / import error lines listing identifiers."""
    c = C()
    cc = cc or next_cc()
    lines = []
    for _ in range(R.randint(2, 5)):
        p = Person(cc)
        lab, v, local = p.nid()
        k = R.randrange(3)
        if k == 0:
            lines.append("row %d: %s '%s' already exists for another employee" % (R.randint(2, 900), local, c(v, lab)))
        elif k == 1:
            lines.append("WARN payroll-import line=%d field=%s value=%s reason=duplicate" % (R.randint(2, 900), pick(["national_id", "tax_id", "id_number"]), c(v, lab)))
        else:
            lines.append("[%s] %s -> %s (%s)" % (hhmm(), p.name, c(v, lab), pick(["ok", "mismatch with tax office", "missing DOB"])))
    emit(pick(["", "import log:\n", "payroll sync errors (%s):\n" % cc]) + "\n".join(lines), c)


# ---------------------------------------------------------------------------
# notebooks and DataFrame prints
# ---------------------------------------------------------------------------

def _people_frame(c, n, cols):
    recs = []
    for _ in range(n):
        p = Person()
        rec = {}
        for col in cols:
            if col == "name":
                rec[col] = p.name
            elif col == "email":
                rec[col] = c(p.email, "email")
            elif col == "phone":
                rec[col] = c(p.phone, "phone")
            elif col == "country":
                rec[col] = p.cc
            elif col == "dob":
                rec[col] = p.dob
            elif col == "ltv":
                rec[col] = "%.2f" % R.uniform(0, 5000)
            elif col == "orders":
                rec[col] = str(R.randint(0, 60))
            elif col == "card":
                rec[col] = c(card(sep="")[1], "card_number")
            elif col == "national_id":
                if p.cc in NATIONAL:
                    lab, v, _ = p.nid()
                    rec[col] = c(v, lab)
                else:
                    rec[col] = "NaN"
        recs.append(rec)
    return recs


def pandas_repr(recs, cols, start=0):
    w = {col: max(len(col), max(len(r[col]) for r in recs)) for col in cols}
    iw = len(str(start + len(recs) - 1))
    head = " " * iw + "  " + "  ".join(col.rjust(w[col]) for col in cols)
    lines = [head]
    for i, r in enumerate(recs):
        lines.append(str(start + i).ljust(iw) + "  " + "  ".join(r[col].rjust(w[col]) for col in cols))
    return "\n".join(lines)


def t_pandas():
    c = C()
    cols = pick([["name", "email", "phone", "country"], ["email", "phone", "orders", "ltv"], ["name", "email", "dob", "national_id"],
                 ["name", "email", "card", "country"], ["email", "country", "phone"]])
    n = R.randint(3, 6)
    start = pick([0, 0, R.randint(100, 9000)])
    recs = _people_frame(c, n, cols)
    out = pandas_repr(recs, cols, start)
    pre = pick([">>> df.head()\n", "In [%d]: customers.sample(%d, random_state=0)\nOut[%d]:\n" % (R.randint(3, 40), n, R.randint(3, 40)),
                "", "print(df[df.duplicated('email', keep=False)])\n"])
    if pre.startswith("In ["):
        out += "\n\n[%d rows x %d columns]" % (n, len(cols))
    emit(pre + out, c)


def t_ipynb():
    c = C()
    cols = pick([["name", "email", "phone"], ["email", "orders", "ltv"], ["name", "email", "national_id"]])
    n = R.randint(2, 4)
    recs = _people_frame(c, n, cols)
    txt = pandas_repr(recs, cols)
    src = ["import pandas as pd\n", "df = pd.read_csv(\"%s\")\n" % pick(["exports/customers.csv", "s3://%s-exports/crm/contacts.csv" % pick(ORGS), "churn.csv"]), "df.head(%d)" % n]
    if chance(0.4):
        p = pick([PROV["openai_key"], PROV["anthropic_key"], PROV["huggingface_token"], PROV["wandb_key"], PROV["databricks_token"]])
        src.insert(0, "os.environ[\"%s\"] = \"%s\"\n" % (p[2], c(p[1](), p[0])))
        src.insert(0, "import os\n")
    cell = {"cell_type": "code", "execution_count": R.randint(1, 60), "id": rs(LO + DIG, 8), "metadata": {},
            "outputs": [{"data": {"text/plain": [line + "\n" for line in txt.split("\n")[:-1]] + [txt.split("\n")[-1]]},
                         "execution_count": R.randint(1, 60), "metadata": {}, "output_type": "execute_result"}],
            "source": src}
    out = json.dumps({"cells": [cell], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
                      "nbformat": 4, "nbformat_minor": 5}, indent=1, ensure_ascii=False)
    emit(pick(["", "analysis.ipynb (one cell):\n", "why does git show this notebook as changed:\n"]) + out, c)


def t_df_html():
    c = C()
    cols = pick([["name", "email", "phone"], ["email", "country", "phone"]])
    recs = _people_frame(c, R.randint(2, 4), cols)
    rows = []
    for i, r in enumerate(recs):
        rows.append("    <tr>\n      <th>%d</th>\n%s\n    </tr>" % (i, "\n".join("      <td>%s</td>" % r[col] for col in cols)))
    out = ('<table border="1" class="dataframe">\n  <thead>\n    <tr style="text-align: right;">\n      <th></th>\n%s\n    </tr>\n  </thead>\n'
           '  <tbody>\n%s\n  </tbody>\n</table>') % ("\n".join("      <th>%s</th>" % col for col in cols), "\n".join(rows))
    emit(pick(["", "df.to_html() output:\n"]) + out, c)


def t_polars():
    c = C()
    cols = pick([["email", "phone", "country"], ["name", "email", "orders"]])
    recs = _people_frame(c, R.randint(2, 4), cols)
    w = {col: max(len(col), 3, max(len(r[col]) for r in recs)) for col in cols}
    typ = {"email": "str", "phone": "str", "country": "str", "name": "str", "orders": "i64"}
    top = "┌" + "┬".join("─" * (w[col] + 2) for col in cols) + "┐"
    hd = "│" + "┆".join(" %s " % col.ljust(w[col]) for col in cols) + "│"
    dash = "│" + "┆".join(" %s " % "---".ljust(w[col]) for col in cols) + "│"
    ty = "│" + "┆".join(" %s " % typ[col].ljust(w[col]) for col in cols) + "│"
    sep = "╞" + "╪".join("═" * (w[col] + 2) for col in cols) + "╡"
    body = ["│" + "┆".join(" %s " % r[col].ljust(w[col]) for col in cols) + "│" for r in recs]
    bot = "└" + "┴".join("─" * (w[col] + 2) for col in cols) + "┘"
    out = "shape: (%d, %d)\n%s\n%s\n%s\n%s\n%s\n%s\n%s" % (len(recs), len(cols), top, hd, dash, ty, sep, "\n".join(body), bot)
    emit(pick(["", "polars print:\n", ">>> print(dupes)\n"]) + out, c)


# ---------------------------------------------------------------------------
# incident write-ups (markdown)
# ---------------------------------------------------------------------------

def t_incident():
    c = C()
    k = R.randrange(3)
    if k == 0:
        p = provider()
        v = p[1]()
        out = ("## Incident %s: %s key exposed in public repo\n\n**Severity:** SEV-%d  \n**Detected:** %s by secret scanning\n\n"
               "| Time (UTC) | Event |\n|---|---|\n| %s | Commit `%s` pushed to `%s/%s` containing `%s` |\n| %s | Alert fired, on-call paged |\n"
               "| %s | Key `%s` revoked in the %s console |\n| %s | New key deployed via Doppler |\n\n"
               "### Root cause\n`.env.production` was not in `.gitignore`.") % (
            "INC-%d" % R.randint(100, 999), p[3], R.randint(1, 3), iso_ts()[:16].replace("T", " "), hhmm(), rs(HEX, 7), pick(ORGS), pick(APPS),
            p[2], hhmm(), hhmm(), c(v, p[0]), p[3], hhmm())
    elif k == 1:
        rows = []
        for _ in range(R.randint(2, 5)):
            q = Person()
            rows.append("| %s | %s | %s | %s |" % (q.name, c(q.email, "email"), c(q.phone, "phone"), pick(["notified", "bounced", "pending", "called back"])))
        out = ("# Post-incident review: misrouted order confirmation e-mails\n\nBetween %s and %s a template bug sent confirmations to the wrong "
               "recipients. Affected customers (need GDPR Art. 33 notification):\n\n| Customer | Email | Phone | Status |\n|---|---|---|---|\n%s\n\n"
               "_Action items:_ add recipient assertion to `mailer.send()`.") % (hhmm(), hhmm(), "\n".join(rows))
    else:
        pw = password(url_safe=True)
        user = pick(["app_rw", "svc_orders", "reporting", "admin"])
        out = ("### Timeline\n\n- **%s** deploy of `%s@%s` logs full DSN on startup:\n  ```\n  INFO connecting to postgresql://%s:%s@%s:5432/%s\n  ```\n"
               "- **%s** logs shipped to Datadog (retention 15d)\n- **%s** password rotated, old log index deleted\n") % (
            hhmm(), pick(APPS), rs(HEX, 7), user, c(pw, "url_credentials"),
            pick(["orders-db.internal", "10.12.0.8", "pg-main.%s.internal" % pick(ORGS)]), pick(["orders", "billing", "crm"]), hhmm(), hhmm())
    emit(out, c)


# ---------------------------------------------------------------------------
# chat: secrets pasted in prose, many languages
# ---------------------------------------------------------------------------

PW_CHAT = [
    "here's the staging password: {p}",
    "staging admin is admin / {p} — don't put it in the ticket pls",
    "the wifi in the lab is {p} btw",
    "ok I reset it, new password is {p}",
    "login for the demo tenant: demo@{dom} pw {p}",
    "mot de passe : {p}",
    "le mot de passe du compte de test c'est {p}, je le change demain",
    "das Passwort für den Staging-Server lautet {p}",
    "Zugang zum Backoffice: Benutzer admin, Kennwort {p}",
    "la contraseña del panel es {p}",
    "te paso la clave del FTP: {p}",
    "a senha do banco de homologação é {p}",
    "segue a senha provisória: {p} (troque no primeiro acesso)",
    "la password dell'ambiente di test è {p}",
    "het wachtwoord van de testomgeving is {p}",
    "lösenordet till testmiljön är {p}",
    "adgangskoden til admin er {p}",
    "passordet til staging er {p}",
    "salasana testipalvelimelle: {p}",
    "hasło do panelu: {p}",
    "heslo k testovacímu účtu je {p}",
    "a jelszó a staging szerverhez: {p}",
    "parola pentru contul de test este {p}",
    "staging şifresi: {p}",
    "пароль от стенда: {p}",
    "пароль до адмінки: {p}",
    "ステージングのパスワードは {p} です",
    "테스트 계정 비밀번호는 {p} 입니다",
    "测试环境的密码是 {p}",
    "測試帳號密碼：{p}",
    "mật khẩu tài khoản test là {p}",
    "รหัสผ่านเข้าระบบทดสอบคือ {p}",
    "kata sandi server staging: {p}",
    "kata laluan untuk akaun ujian: {p}",
    "סיסמה לסביבת הבדיקות: {p}",
    "كلمة المرور لحساب التجربة هي {p}",
    "स्टेजिंग का पासवर्ड {p} है",
    "κωδικός για το staging: {p}",
    "nenosiri la seva ya majaribio ni {p}",
]
KEY_CHAT = [
    "here's the {prov} key for the demo, please rotate after: {v}",
    "use my {prov} token for now: {v}",
    "voici la clé {prov} pour la démo : {v}",
    "hier der {prov}-Token für die Pipeline: {v}",
    "te dejo la API key de {prov}: {v}",
    "segue a chave da API do {prov}: {v}",
    "ecco la chiave {prov}: {v}",
    "{prov} の API キーはこちら: {v}",
    "{prov} API 키 공유드려요: {v}",
    "{prov} 的 key 先用这个：{v}",
    "ключ {prov}: {v}",
    "{prov} anahtarı: {v} (yarın iptal ediyorum)",
    "dit is de {prov}-sleutel: {v}",
    "klucz {prov} do testów: {v}",
]


def t_chat_password():
    c = C()
    pw = password(style=pick([0, 0, 1, 1, 2, 3, 5, 6]))
    t = pick(PW_CHAT)
    body = t.format(p=c(pw, "password"), dom=pick(WORK_DOMAINS))
    if t.endswith("{p}") and chance(0.3):
        body += pick([" 🙏", "\nthx", " (temporary)", " — löschen nach dem Lesen", " !!"])
    who = pick(["nadia", "kofi", "ines", "tomas", "yuki", "oleksandr", "priya", "mateus", "sofie", "emre"])
    form = R.randrange(3)
    if form == 0:
        out = "[%s] %s: %s" % (hhmm(), who, body)
    elif form == 1:
        out = "%s  %s\n%s" % (who, hhmm(), body)
    else:
        out = body
    emit(out, c)


def t_chat_key():
    c = C()
    p = provider(major=0.5)
    out = pick(KEY_CHAT).format(prov=p[3], v=c(p[1](), p[0]))
    if chance(0.4):
        out = "%s %s\n%s" % (pick(["nadia", "kofi", "ines", "tomas", "yuki"]), hhmm(), out)
    emit(out, c)


def t_slack_export():
    c = C()
    msgs = []
    for i in range(R.randint(2, 4)):
        uid = "U0" + rs(UP + DIG, 9)
        ts = "%d.%06d" % (epoch(), R.randint(0, 999999))
        if i == 1 or chance(0.3):
            k = R.randrange(3)
            if k == 0:
                text = pick(PW_CHAT[:5] + PW_CHAT[5:12]).format(p=c(password(), "password"), dom=pick(WORK_DOMAINS))
            elif k == 1:
                p = provider()
                text = pick(KEY_CHAT[:4]).format(prov=p[3], v=c(p[1](), p[0]))
            else:
                q = Person()
                text = "customer called again: %s, %s, wants a callback" % (c(q.email, "email"), c(q.phone, "phone"))
        else:
            text = pick(["deploying now", "lgtm :shipit:", "can someone look at the flaky e2e?", "standup in 5",
                         "merged, thanks!", ":eyes:", "is staging down for anyone else?"])
        msgs.append({"type": "message", "user": uid, "text": text, "ts": ts, "team": "T0" + rs(UP + DIG, 9)})
    emit(pick(["", "slack export, #%s/2025-%02d-%02d.json:\n" % (pick(["eng", "support", "ops", "mobile"]), R.randint(1, 12), R.randint(1, 28))]) +
         json.dumps(msgs, indent=pick([None, 2, 4]), ensure_ascii=False), c)


def t_email_thread():
    c = C()
    a, b = Person(), Person()
    ae = c(work_email(a.first, a.last), "email")
    be = c(b.email, "email")
    k = R.randrange(3)
    if k == 0:
        body = "Hi %s,\n\nas discussed, the credentials for the partner sandbox:\n  user: partner-%s\n  password: %s\n\nBest,\n%s\n%s" % (
            b.first, pick(ORGS), c(password(), "password"), a.name, c(phone(a.cc, True), "phone"))
    elif k == 1:
        p = provider()
        body = "Hi %s,\n\nplease find the %s API key below, it's scoped to read-only:\n\n%s\n\nThanks,\n%s" % (b.first, p[3], c(p[1](), p[0]), a.first)
    else:
        body = "Hello,\n\nmy new mobile number is %s, please update my account. My date of birth is %s in case you need to verify.\n\n%s" % (
            c(b.phone, "phone"), b.dob_local, b.name)
    out = "From: %s <%s>\nTo: %s\nDate: %s\nSubject: %s\n\n%s" % (a.name, ae, be, pick(["Tue, 3 Jun 2025 10:12:44 +0200", "Mon, 20 Oct 2025 17:01:09 -0400"]),
                                                           pick(["Re: access", "sandbox", "Fwd: API access", "Update details"]), body)
    emit(out, c)


# ---------------------------------------------------------------------------
# AI / LLM tool configuration
# ---------------------------------------------------------------------------

def _pg_url(c):
    return "postgresql://%s:%s@%s:5432/%s" % (pick(["readonly", "analyst", "app"]), c(password(url_safe=True), "url_credentials"),
                                               pick(["localhost", "db.%s.internal" % pick(ORGS), "10.4.0.12"]), pick(["app", "analytics", "crm"]))


MCP_SERVERS = [
    ("github", "GITHUB_PERSONAL_ACCESS_TOKEN", lambda: k_github(pick(["ghp_", "github_pat_"])), "github_token", ["-y", "@modelcontextprotocol/server-github"]),
    ("slack", "SLACK_BOT_TOKEN", lambda: k_slack("xoxb"), "slack_token", ["-y", "@modelcontextprotocol/server-slack"]),
    ("linear", "LINEAR_API_KEY", k_linear, "linear_key", ["-y", "linear-mcp-server"]),
    ("notion", "NOTION_TOKEN", k_notion, "notion_token", ["-y", "@notionhq/notion-mcp-server"]),
    ("tavily", "TAVILY_API_KEY", k_tavily, "tavily_api_key", ["-y", "tavily-mcp@latest"]),
    ("firecrawl", "FIRECRAWL_API_KEY", k_firecrawl, "firecrawl_api_key", ["-y", "firecrawl-mcp"]),
    ("sentry", "SENTRY_AUTH_TOKEN", k_sentry, "sentry_token", ["-y", "@sentry/mcp-server"]),
    ("stripe", "STRIPE_SECRET_KEY", lambda: k_stripe(pick(["sk_live_", "rk_live_", "sk_test_"])), "stripe_key", ["-y", "@stripe/mcp", "--tools=all"]),
    ("gitlab", "GITLAB_PERSONAL_ACCESS_TOKEN", k_gitlab, "gitlab_token", ["-y", "@modelcontextprotocol/server-gitlab"]),
    ("airtable", "AIRTABLE_API_KEY", k_airtable, "airtable_token", ["-y", "airtable-mcp-server"]),
    ("hubspot", "PRIVATE_APP_ACCESS_TOKEN", k_hubspot, "hubspot_token", ["-y", "@hubspot/mcp-server"]),
    ("neon", "NEON_API_KEY", k_neon, "neon_api_key", ["-y", "@neondatabase/mcp-server-neon", "start"]),
    ("elevenlabs", "ELEVENLABS_API_KEY", k_elevenlabs, "elevenlabs_key", ["elevenlabs-mcp"]),
    ("perplexity", "PERPLEXITY_API_KEY", k_perplexity, "perplexity_key", ["-y", "server-perplexity-ask"]),
    ("contentful", "CONTENTFUL_MANAGEMENT_ACCESS_TOKEN", k_contentful, "contentful_token", ["-y", "@contentful/mcp-server"]),
    ("cloudflare", "CLOUDFLARE_API_TOKEN", k_cloudflare, "cloudflare_token", ["-y", "@cloudflare/mcp-server-cloudflare", "run"]),
]


def t_mcp_json():
    c = C()
    servers = {}
    for name, env, mk, lab, args in R.sample(MCP_SERVERS, R.randint(1, 3)):
        servers[name] = {"command": "uvx" if args[0] != "-y" else "npx", "args": args, "env": {env: c(mk(), lab)}}
    if chance(0.35):
        servers["postgres"] = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", _pg_url(c)]}
    if chance(0.25):
        servers["docs"] = {"type": "http", "url": "https://mcp.%s/mcp" % pick(WORK_DOMAINS),
                           "headers": {"Authorization": "Bearer " + c(k_bearer(), "bearer_token")}}
    key = pick(["mcpServers", "mcpServers", "servers"])
    out = json.dumps({key: servers}, indent=2)
    emit(pick([".cursor/mcp.json\n", "~/Library/Application Support/Claude/claude_desktop_config.json:\n", ".vscode/mcp.json\n",
               "my MCP config, the github server doesn't show up:\n", ""]) + out, c)


def t_continue():
    c = C()
    models = []
    chosen = R.sample([("anthropic", k_anthropic, "anthropic_key", "claude-sonnet-4-5"), ("openai", k_openai, "openai_key", "gpt-4.1"),
                       ("deepseek", k_deepseek, "deepseek_key", "deepseek-chat"), ("xAI", k_xai, "xai_key", "grok-3"),
                       ("gemini", k_gapi, "google_api_key", "gemini-2.5-pro")], R.randint(1, 2))
    if chance(0.5):
        chosen.insert(R.randint(0, len(chosen)), ("mistral", None, None, "codestral-latest"))
    for prov, mk, lab, model in chosen:
        m = ["  - name: %s" % model, "    provider: %s" % prov.lower(), "    model: %s" % model]
        if mk:
            m.append("    apiKey: %s" % c(mk(), lab))
        else:
            m.append("    apiKey: ${{ secrets.MISTRAL_API_KEY }}")
        m.append("    roles: [%s]" % pick(["chat, edit", "autocomplete", "chat, edit, apply"]))
        models.append("\n".join(m))
    out = "name: %s assistant\nversion: 1.0.0\nschema: v1\nmodels:\n%s\ncontext:\n  - provider: code\n  - provider: diff" % (pick(ORGS).title(), "\n".join(models))
    emit(pick(["~/.continue/config.yaml\n", "", "continue config:\n"]) + out, c)


def t_aider():
    c = C()
    lines = ["model: %s" % pick(["sonnet", "o3-mini", "deepseek/deepseek-chat", "gemini/gemini-2.5-pro"]), "auto-commits: false", "dark-mode: true"]
    for opt, mk, lab in R.sample([("openai-api-key", k_openai, "openai_key"), ("anthropic-api-key", k_anthropic, "anthropic_key")], R.randint(1, 2)):
        lines.append("%s: %s" % (opt, c(mk(), lab)))
    if chance(0.5):
        mk, lab, env = pick([(k_deepseek, "deepseek_key", "DEEPSEEK"), (k_gapi, "google_api_key", "GEMINI"), (k_xai, "xai_key", "XAI"),
                             (k_perplexity, "perplexity_key", "PERPLEXITYAI"), (k_cerebras, "cerebras_api_key", "CEREBRAS")])
        lines.append("api-key:\n  - %s=%s" % (fold(env), c(mk(), lab)))
    if chance(0.5):
        out = ".aider.conf.yml\n" + "\n".join(lines)
    else:
        p = pick([PROV["openai_key"], PROV["anthropic_key"], PROV["deepseek_key"]])
        out = "aider --model %s --api-key %s=%s --no-auto-commits" % (pick(["sonnet", "deepseek", "gpt-4o"]), p[3].lower(), c(p[1](), p[0]))
        c.pairs = [x for x in c.pairs if x[0] in out]
    emit(out, c)


def t_litellm():
    c = C()
    models = []
    for name, prov, mk, lab in R.sample([("gpt-4o", "openai/gpt-4o", k_openai, "openai_key"), ("claude", "anthropic/claude-sonnet-4-5", k_anthropic, "anthropic_key"),
                                         ("azure-gpt", "azure/gpt-4o-prod", k_azure_openai, "azure_openai_api_key"), ("groq-llama", "groq/llama-3.3-70b-versatile", None, None),
                                         ("fireworks", "fireworks_ai/accounts/fireworks/models/llama-v3p1-70b-instruct", k_fireworks, "fireworks_api_key"),
                                         ("cerebras", "cerebras/llama3.1-8b", k_cerebras, "cerebras_api_key"), ("pplx", "perplexity/sonar-pro", k_perplexity, "perplexity_key")],
                                        R.randint(2, 3)):
        m = ["  - model_name: %s" % name, "    litellm_params:", "      model: %s" % prov]
        if name == "azure-gpt":
            m.append("      api_base: https://%s-eastus.openai.azure.com/" % pick(ORGS))
            m.append('      api_version: "2024-10-21"')
        if mk:
            m.append("      api_key: %s" % c(mk(), lab))
        else:
            m.append("      api_key: os.environ/GROQ_API_KEY")
        models.append("\n".join(m))
    gs = ["general_settings:", "  master_key: %s" % c(k_litellm(), "api_key")]
    if chance(0.6):
        gs.append("  database_url: %s" % _pg_url(c))
    if chance(0.4):
        mk, lab = pick([(k_langfuse, "langfuse_key"), (k_datadog, "datadog_key")])
        env = "LANGFUSE_SECRET_KEY" if lab == "langfuse_key" else "DD_API_KEY"
        gs.append("environment_variables:\n  %s: %s" % (env, c(mk(), lab)))
    emit(pick(["litellm proxy config.yaml\n", "", "proxy_config.yaml:\n"]) + "model_list:\n" + "\n".join(models) + "\n" + "\n".join(gs), c)


def t_agent_settings():
    c = C()
    k = R.randrange(3)
    if k == 0:
        env = {}
        for p in R.sample([PROV["anthropic_key"], PROV["github_token"], PROV["sentry_token"], PROV["linear_key"], PROV["planetscale_token"], PROV["doppler_token"]], R.randint(1, 2)):
            env[p[2]] = c(p[1](), p[0])
        d = {"permissions": {"allow": ["Bash(npm run test:*)", "Read(./src/**)"], "deny": ["Read(./.env)"]}, "env": env}
        out = ".claude/settings.local.json\n" + json.dumps(d, indent=2)
    elif k == 1:
        d = {"$schema": "https://opencode.ai/config.json", "provider": {}}
        for name, mk, lab in R.sample([("openrouter", None, None), ("anthropic", k_anthropic, "anthropic_key"), ("deepseek", k_deepseek, "deepseek_key"),
                                       ("xai", k_xai, "xai_key"), ("cerebras", k_cerebras, "cerebras_api_key")], 2):
            if mk:
                d["provider"][name] = {"options": {"apiKey": c(mk(), lab)}}
            else:
                d["provider"][name] = {"options": {"apiKey": "{env:OPENROUTER_API_KEY}"}}
        out = "opencode.json\n" + json.dumps(d, indent=2)
    else:
        d = {"agent": {"default_model": {"provider": "zed.dev", "model": "claude-sonnet-4"}},
             "language_models": {"openai": {"api_url": "https://api.deepseek.com/v1", "available_models": [{"name": "deepseek-chat", "max_tokens": 64000}]}},
             "context_servers": {"tavily": {"command": {"path": "npx", "args": ["-y", "tavily-mcp"], "env": {"TAVILY_API_KEY": c(k_tavily(), "tavily_api_key")}}}}}
        out = "~/.config/zed/settings.json\n" + json.dumps(d, indent=2)
    emit(out, c)


# ---------------------------------------------------------------------------
# message queues and webhooks
# ---------------------------------------------------------------------------

def discord_webhook():
    return "https://discord.com/api/webhooks/1%s/%s" % (digits(18), rs(AN, 1) + rs(AN + "-_", 66) + rs(AN, 1))


def teams_webhook():
    return "https://%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s/V2%s" % (
        pick(ORGS), uuid4(), uuid4(), rs(HEX, 32), uuid4(), rs(AN + "-_", 43))


def gchat_webhook():
    return "https://chat.googleapis.com/v1/spaces/AAAA%s/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=%s" % (
        rs(AN + "-_", 7), rs(AN + "-_", 43) + "%3D")


def mattermost_webhook():
    return "https://%s/hooks/%s" % (pick(["chat.%s" % pick(WORK_DOMAINS), "mattermost.%s" % pick(WORK_DOMAINS)]), rs(LO + DIG, 26))


def zapier_webhook():
    return "https://hooks.zapier.com/hooks/catch/%s/%s/" % (nz(R.randint(7, 8)), rs(LO + DIG, 7))


WEBHOOKS = [("slack_webhook", slack_webhook, "SLACK_WEBHOOK_URL"), ("discord_webhook", discord_webhook, "DISCORD_WEBHOOK_URL"),
            ("teams_webhook", teams_webhook, "TEAMS_WEBHOOK_URL"), ("google_chat_webhook", gchat_webhook, "GOOGLE_CHAT_WEBHOOK"),
            ("mattermost_webhook", mattermost_webhook, "MATTERMOST_HOOK"), ("zapier_webhook", zapier_webhook, "ZAPIER_HOOK_URL")]


def t_webhook(which=None):
    c = C()
    lab, mk, env = WEBHOOKS[which] if which is not None else pick(WEBHOOKS)
    url = mk()
    k = R.randrange(6)
    if k == 0:
        out = "curl -X POST -H 'Content-Type: application/json' -d '{\"text\":\"deploy %s finished\"}' '%s'" % (rs(HEX, 7), c(url, lab))
    elif k == 1:
        out = "%s=%s" % (env, c(url, lab))
    elif k == 2:
        out = json.dumps({"alerting": {"contact_points": [{"name": "oncall", "type": lab.split("_")[0], "settings": {"url": c(url, lab)}}]}}, indent=2)
    elif k == 3:
        out = "requests.post(\"%s\", json={\"content\": msg}, timeout=5)" % c(url, lab)
    elif k == 4:
        out = "Zap / integration settings → Webhook URL: %s" % c(url, lab)
    else:
        out = "- name: notify\n  uses: some/notify-action@v2\n  with:\n    webhook: %s\n    status: ${{ job.status }}" % c(url, lab)
    if chance(0.3):
        tok = k_telegram()
        out += "\n%s" % pick(["https://api.telegram.org/bot%s/sendMessage?chat_id=-100%s&text=deploy+done",
                              "TELEGRAM_API=https://api.telegram.org/bot%s/sendMessage?chat_id=-100%s"]) % (c(tok, "telegram_token"), nz(10))
    emit(out, c)


def t_mq(k=None):
    c = C()
    k = R.randrange(8) if k is None else k
    if k == 0:
        out = "CELERY_BROKER_URL=amqps://%s:%s@%s/%s" % (pick(["worker", "celery", "app"]), c(password(url_safe=True), "url_credentials"),
                                                       pick(["b-%s.mq.eu-west-1.amazonaws.com:5671" % uuid4(), "rabbit.%s.internal:5671" % pick(ORGS), "goose.rmq2.cloudamqp.com"]),
                                                       pick(["%2F", "orders", "prod"]))
    elif k == 1:
        key, sec = k_confluent_key(), k_confluent_secret()
        out = ("bootstrap.servers=pkc-%s.%s.%s.confluent.cloud:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanisms=PLAIN\n"
               "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username='%s' password='%s';\n"
               "session.timeout.ms=45000") % (rs(LO + DIG, 5), pick(["eu-west-1", "us-east-2", "europe-west3"]), pick(["aws", "gcp", "azure"]),
                                              c(key, "confluent_api_key"), c(sec, "confluent_api_secret"))
        out = pick(["client.properties\n", "", "# from Confluent Cloud > Clients > Java\n"]) + out
    elif k == 2:
        ns = pick(ORGS) + pick(["-prod", "-events", "-sb"])
        out = "Endpoint=sb://%s.servicebus.windows.net/;SharedAccessKeyName=%s;SharedAccessKey=%s%s" % (
            ns, pick(["RootManageSharedAccessKey", "send-only", "listen"]), c(k_servicebus(), "azure_servicebus_key"), pick(["", ";EntityPath=orders"]))
        out = pick(["ServiceBusConnection: \"%s\"", "AzureWebJobsServiceBus=%s", "\"EventHubConnectionString\": \"%s\","]) % out
    elif k == 3:
        out = "nats://%s:%s@nats.%s.internal:4222" % (pick(["orders", "app", "ingest"]), c(password(url_safe=True), "url_credentials"), pick(ORGS))
        out = pick(["NATS_URL=%s", "nats sub 'orders.>' --server %s", "nc, err := nats.Connect(\"%s\")"]) % out
    elif k == 4:
        out = "REDIS_STREAMS_URL=rediss://default:%s@%s:6379/0" % (c(rs(AN, 32), "url_credentials"), pick(["clustercfg.%s.cache.amazonaws.com" % rs(LO, 8), "redis-%d.c%d.eu-central-1-1.ec2.redns.redis-cloud.com" % (R.randint(10000, 19999), R.randint(1, 300))]))
    elif k == 5:
        ak, sk = k_aws_id(), k_aws_secret()
        out = ("SQS_QUEUE_URL=https://sqs.eu-central-1.amazonaws.com/%s/%s-events.fifo\nAWS_ACCESS_KEY_ID=%s\nAWS_SECRET_ACCESS_KEY=%s") % (
            digits(12), pick(ORGS), c(ak, "aws_key"), c(sk, "aws_secret"))
    elif k == 6:
        out = "rabbitmqadmin -H rabbit.%s.internal -u admin -p '%s' list queues name messages" % (pick(ORGS), c(password(), "password"))
    else:
        key = k_ably()
        out = "ABLY_API_KEY=%s\nABLY_CHANNEL=orders:%s" % (c(key, "ably_api_key"), pick(["eu", "us", "all"]))
    emit(out, c)


# ---------------------------------------------------------------------------
# provider keys around the product (SDK init, API responses, CI vars, chat)
# ---------------------------------------------------------------------------

NEW_PROVIDERS = ["doppler_token", "planetscale_token", "databricks_token", "pulumi_token", "buildkite_token", "rubygems_key", "airtable_token",
                 "hubspot_token", "contentful_token", "mapbox_token", "braintree_token", "perplexity_key", "xai_key", "deepseek_key", "langfuse_key",
                 "brevo_key", "shippo_token", "dynatrace_token", "posthog_personal_key", "sourcegraph_token", "neon_api_key", "nuget_key",
                 "cratesio_token", "sonar_token", "elevenlabs_key", "fireworks_api_key", "cerebras_api_key", "wandb_key", "tavily_api_key",
                 "firecrawl_api_key", "revenuecat_secret_key", "fcm_server_key", "ably_api_key"]


def t_provider(label=None):
    c = C()
    p = PROV[label] if label else provider(major=0.35)
    v = p[1]()
    k = R.randrange(8)
    if k == 0:
        out = "%s=%s" % (p[2], c(v, p[0]))
        out = pick(["", "Vercel → Settings → Environment Variables:\n", "Render env group `%s-prod`:\n" % pick(ORGS), "fly secrets list shows digest only, so here is what I set:\n"]) + out
    elif k == 1:
        out = json.dumps({"name": "%s-%s" % (pick(APPS), pick(["ci", "prod", "agent"])), "created_at": iso_ts(), "key": c(v, p[0]),
                          "scopes": pick([["read"], ["read", "write"], ["*"]])}, indent=pick([None, 2]))
        out = pick(["response from POST /api-keys (%s):\n" % p[3], "", "created a new key, got:\n"]) + out
    elif k == 2:
        if p[4] == "none":
            out = "%s: %s" % (p[2], c(v, p[0]))
        else:
            n, hv = auth_header((p[0], lambda: v) + p[2:], c)
            path = "fcm/send" if p[0] == "fcm_server_key" else pick(["v1/me", "api/v2/projects", "v1/usage", "v1/models"])
            out = "curl -s https://%s/%s -H '%s: %s'" % (p[5], path, n, hv)
    elif k == 3:
        out = pick(["%s key for the agent: %s", "the %s token is %s, it expires end of month", "I think the %s key is wrong, it's %s right?"]) % (p[3], c(v, p[0]))
    elif k == 4:
        out = "- name: Release\n  env:\n    %s: %s\n  run: ./scripts/release.sh" % (p[2], c(v, p[0]))
    elif k == 5:
        out = '[env]\n%s = "%s"' % (p[2], c(v, p[0]))
        out = pick(["mise.toml\n", ".cargo/config.toml\n", "netlify.toml\n", ""]) + out
    elif k == 6:
        out = "    at Object.<anonymous> (/srv/app/src/clients/%s.ts:%d:%d)\n  config: { apiKey: '%s', baseURL: 'https://%s' }" % (
            fold(p[3]).replace("&", ""), R.randint(3, 200), R.randint(3, 40), c(v, p[0]), p[5])
        out = "Error: 401 Unauthorized\n" + out
    else:
        out = "$ doppler secrets get %s --plain\n%s" % (p[2], c(v, p[0])) if p[0] != "doppler_token" else "DOPPLER_TOKEN=%s doppler run -- npm start" % c(v, p[0])
    emit(out, c)


def t_cloud_misc(k=None):
    """Google / Azure / Twilio / AWS credentials from a product angle."""
    c = C()
    k = R.randrange(5) if k is None else k      # 5 and 6 (documented sample keys) only from the coverage pass
    if k == 0:
        d = {"web": {"client_id": "%s-%s.apps.googleusercontent.com" % (nz(12), rs(LO + DIG, 32)), "project_id": firebase_project(),
                     "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
                     "client_secret": c(k_gocspx(), "google_oauth_secret"), "redirect_uris": ["https://%s/auth/google/callback" % app_host()]}}
        out = "client_secret_%s.json\n%s" % (nz(12), json.dumps(d, indent=2))
    elif k == 1:
        out = "Authorization: Bearer %s" % c(k_ya29(), "google_oauth_token")
        out = pick(["Play Developer API call that 403s:\nGET https://androidpublisher.googleapis.com/androidpublisher/v3/applications/%s/reviews\n" % pick(BUNDLES), ""]) + out
    elif k == 2:
        out = "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net" % (
            pick(ORGS) + pick(["media", "assets", "exports"]), c(k_azure_storage(), "azure_storage_key"))
    elif k == 3:
        out = "az ad sp credential reset --id %s\n{\n  \"appId\": \"%s\",\n  \"password\": \"%s\",\n  \"tenant\": \"%s\"\n}" % (
            uuid4(), uuid4(), c(k_azure_cs(), "azure_client_secret"), uuid4())
    elif k == 4:
        sid, sk, tok = twilio_sid(), k_twilio_sk(), k_twilio_token()
        if chance(0.5):
            out = "TWILIO_ACCOUNT_SID=%s\nTWILIO_API_KEY=%s\nTWILIO_API_SECRET=%s" % (sid, c(sk, "twilio_api_key"), c(rs(AN, 32), "twilio_api_secret"))
        else:
            out = "curl -X POST https://api.twilio.com/2010-04-01/Accounts/%s/Messages.json -u %s:%s --data-urlencode 'To=%s' -d 'Body=Your code is %d'" % (
                sid, sid, c(tok, "twilio_auth_token"), c(phone(pick(["US", "GB", "DE", "BR", "IN"]), True).replace(" ", "").replace("-", "").replace("(", "").replace(")", ""), "phone"), R.randint(100000, 999999))
    elif k == 5:
        out = ("[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
               "region = %s") % pick(["us-west-2", "us-east-1", "eu-central-1", "eu-west-1", "ap-northeast-1"])
        c("AKIAIOSFODNN7EXAMPLE", "aws_key")
        c("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret")
        out = pick(["copied from the AWS docs into ~/.aws/credentials, the SDK still says invalid:\n", ""]) + out
    else:
        v = k_stripe("sk_test_") if chance(0.5) else "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
        out = pick(["Stripe.api_key = \"%s\"  # from the docs quickstart", "stripe.setApiKey('%s'); // TODO env", "curl https://api.stripe.com/v1/charges -u %s:"]) % c(v, "stripe_key")
    emit(out, c)


def t_aws():
    c = C()
    ak, sk = k_aws_id(), k_aws_secret()
    k = R.randrange(4)
    if k == 0:
        out = ("import boto3\ns3 = boto3.client(\n    \"s3\",\n    aws_access_key_id=\"%s\",\n    aws_secret_access_key=\"%s\",\n    region_name=\"eu-central-1\",\n)\n"
               "df = pd.read_parquet(s3.get_object(Bucket=\"%s-exports\", Key=\"crm/contacts.parquet\")[\"Body\"])") % (c(ak, "aws_key"), c(sk, "aws_secret"), pick(ORGS))
    elif k == 1:
        out = "# .env.local (Next.js)\nNEXT_PUBLIC_S3_BUCKET=%s-uploads\nNEXT_PUBLIC_AWS_ACCESS_KEY_ID=%s\nNEXT_PUBLIC_AWS_SECRET_ACCESS_KEY=%s" % (
            pick(ORGS), c(ak, "aws_key"), c(sk, "aws_secret"))
    elif k == 2:
        out = ("import { S3Client } from '@aws-sdk/client-s3';\nexport const s3 = new S3Client({\n  region: 'us-east-1',\n  credentials: {\n"
               "    accessKeyId: '%s',\n    secretAccessKey: '%s',\n  },\n});") % (c(ak, "aws_key"), c(sk, "aws_secret"))
    else:
        out = "the upload lambda uses %s / %s, can you check if the key is still active?" % (c(ak, "aws_key"), c(sk, "aws_secret"))
    emit(out, c)


def t_service_account():
    c = C()
    key = pem_rsa(pkcs8=True)
    esc = key.replace("\n", "\\n") + "\\n"
    proj = firebase_project()
    sa = "%s@%s.iam.gserviceaccount.com" % (pick(["firebase-adminsdk-%s" % rs(LO + DIG, 5), "play-publisher", "fcm-sender"]), proj)
    d = '{\n  "type": "service_account",\n  "project_id": "%s",\n  "private_key_id": "%s",\n  "private_key": "%s",\n  "client_email": "%s",\n  "client_id": "%s",\n  "token_uri": "https://oauth2.googleapis.com/token"\n}' % (
        proj, rs(HEX, 40), c(esc, "private_key"), sa, digits(21))
    emit(pick(["firebase-adminsdk.json committed to the backend repo:\n", "", "GOOGLE_APPLICATION_CREDENTIALS file:\n"]) + d, c)


def t_github_app():
    c = C()
    key = pem_rsa(pkcs8=False)
    k = R.randrange(2)
    if k == 0:
        out = "APP_ID=%d\nWEBHOOK_SECRET=%s\nPRIVATE_KEY=\"%s\"" % (R.randint(100000, 1999999), c(rs(HEX, 40), "app_secret"), c(key.replace("\n", "\\n"), "private_key"))
    else:
        out = "$ cat %s-bot.%s.private-key.pem\n%s" % (pick(ORGS), "2025-%02d-%02d" % (R.randint(1, 12), R.randint(1, 28)), c(key, "private_key"))
    emit(out, c)


# ---------------------------------------------------------------------------
# clean rows: look-alikes that must come through unchanged
# ---------------------------------------------------------------------------

def _digit_runs(text):
    """Digit sequences of 12-19 digits, allowing single space / hyphen / dot / nbsp separators."""
    out = []
    for m in re.finditer(r"\d(?:[ \-.\u00a0]?\d){11,18}", text):
        out.append(re.sub(r"\D", "", m.group(0)))
    return out


def looks_sensitive(text):
    for run in _digit_runs(text):
        for L in range(13, 20):
            for i in range(0, len(run) - L + 1):
                if luhn_valid(run[i:i + L]) and run[i] in "3456":
                    return True
    if re.search(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])", text):
        return True
    return bool("@" in text and re.search(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}", text) and not _ok_email(text))


def _ok_email(text):
    """Clean rows may only contain role / no-reply / example addresses."""
    for m in re.finditer(r"[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+)", text):
        local = m.group(0).split("@")[0].lower()
        dom = m.group(1).lower()
        if not (dom.startswith("example.") or local in ("noreply", "no-reply", "support", "billing", "git", "security", "privacy", "user")
                or dom.endswith("users.noreply.github.com") or dom.endswith("iam.gserviceaccount.com")):
            return False
    return True


def isbn13():
    b = pick(["978", "979"]) + digits(9)
    s = sum(int(x) * (1 if i % 2 == 0 else 3) for i, x in enumerate(b))
    v = b + str((10 - s % 10) % 10)
    return "%s-%s-%s-%s-%s" % (v[:3], v[3], v[4:8], v[8:12], v[12])


def ups_tracking():
    return "1Z" + rs(UP + DIG, 6) + pick(["01", "02", "03"]) + digits(8)


def git_sha(n=40):
    return rs(HEX, n)


def age_recipient():
    return "age1" + rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)


def ver():
    return "%d.%d.%d" % (R.randint(0, 12), R.randint(0, 40), R.randint(0, 30))


CLEAN_PROSE = [
    "You can reset your password from the settings page → Security → Change password.",
    "The token budget is 600 per request, so trim the system prompt.",
    "Rotate the API key every 90 days; the rotation job lives in `ops/rotate_keys.py`.",
    "Never paste secrets into tickets — use the 1Password share link instead.",
    "The `password` field is hashed with argon2id (m=64MiB, t=3, p=4) before it hits the DB.",
    "Primary key is (tenant_id, order_id); the foreign key to customers is deferred.",
    "Secret Santa draw is on Friday, budget €20.",
    "Our secret sauce is the ranking model, not the UI.",
    "max_tokens=4096, temperature=0.2, top_p=0.95",
    "Session cookies are HttpOnly + Secure + SameSite=Lax since v4.2.",
    "If the bearer token is expired the API answers 401 with `WWW-Authenticate: Bearer error=\"invalid_token\"`.",
    "Keys are stored in AWS Secrets Manager under prod/checkout/*, nothing in the repo.",
    "The Firebase API key in google-services.json gets injected at build time from CI variables.",
    "Password must be at least 12 characters and not in the HIBP list.",
    "Webhook signatures use HMAC-SHA256 over the raw body; compare with hmac.compare_digest.",
    "Use `gh secret set OPENAI_API_KEY < key.txt` so the value never lands in shell history.",
    "the card number field should only ever show the last 4 digits",
    "IBAN validation: move the first four chars to the end, convert letters, mod 97 must be 1.",
    "App-specific passwords are four groups of four lowercase letters; we don't store them.",
    "Tokens per minute limit was raised to 2M for the batch tier.",
    "The keystore password lives in the CI secret ANDROID_KEYSTORE_PASSWORD.",
    "Das Passwort muss mindestens 12 Zeichen lang sein.",
    "Vous pouvez réinitialiser votre mot de passe depuis la page Paramètres.",
    "La contraseña se cambia desde el perfil; nunca la mandes por correo.",
    "A senha expira a cada 90 dias por política do banco.",
    "Het wachtwoord kun je resetten via 'Wachtwoord vergeten'.",
    "パスワードは設定画面から再設定できます。",
    "비밀번호는 설정에서 변경할 수 있습니다.",
    "Пароль можно сбросить в настройках профиля.",
    "Şifrenizi ayarlar sayfasından sıfırlayabilirsiniz.",
    "Hasło można zresetować w ustawieniach konta.",
    "La password non va mai scritta nei log.",
    "Lösenordet byts automatiskt var 90:e dag.",
    "密码请在设置页面重置，不要发到群里。",
    "We hit the 200k-token context limit on the long PDF.",
    "Stripe test mode keys start with sk_test_ and live keys with sk_live_; we only ever load them from env.",
    "GitHub fine-grained tokens start with github_pat_, classic ones with ghp_.",
    "An OpenAI project key starts with sk-proj- — ours is in Doppler, not here.",
    "The HAR file was sanitized with the 'Sanitize HAR' toggle, cookies and auth headers are stripped.",
    "Verify the phone number with the OTP flow before enabling payouts.",
]

PLACEHOLDERS = [
    "OPENAI_API_KEY=<YOUR_API_KEY>", "ANTHROPIC_API_KEY=sk-ant-...", "export OPENAI_API_KEY=sk-...", "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "AWS_ACCESS_KEY_ID=AKIA****************", "api_key: \"YOUR_KEY_HERE\"",
    "HF_TOKEN=hf_xxx", "SENTRY_AUTH_TOKEN=<paste token>", "password: ********", "DB_PASSWORD=<set-in-vault>",
    "\"apiKey\": \"<REPLACE_WITH_FIREBASE_KEY>\"", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/<id>/<token>", "Authorization: Bearer <token>", "x-api-key: ${ANTHROPIC_API_KEY}",
    "PERPLEXITY_API_KEY=pplx-...", "XAI_API_KEY=xai-XXXXXXXX", "DOPPLER_TOKEN=dp.st.xxxx", "DATABRICKS_TOKEN=dapi<your token>",
    "TAVILY_API_KEY=tvly-YOUR_API_KEY", "RELEASE_STORE_PASSWORD=${KEYSTORE_PASSWORD}", "MATCH_PASSWORD=<from 1Password>",
    "Card: **** **** **** 4242", "iban: DE** **** **** **** **** 00", "SSN: ***-**-1234", "phone: +49 *** ****567",
    "sk_live_••••••••••••••••Yq3", "token: [REDACTED]", "password=<redacted>", "Cookie: sessionid=<redacted>; csrftoken=<redacted>",
]


def clean_rows():
    out = []
    gens = []

    def g(f):
        gens.append(f)
        return f

    @g
    def har_clean():
        host = app_host()
        entry = {"startedDateTime": iso_ts(), "time": round(R.uniform(3, 400), 3),
                 "request": {"method": "GET", "url": "https://%s/static/js/main.%s.js" % (host, rs(HEX, 8)), "httpVersion": "http/2.0",
                             "headers": [{"name": "accept", "value": "*/*"}, {"name": "if-none-match", "value": "W/\"%s-%s\"" % (rs(HEX, 4), rs(AN, 27))},
                                         {"name": "sec-fetch-mode", "value": "no-cors"}, {"name": "user-agent", "value": pick(UA)}],
                             "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
                 "response": {"status": 304, "statusText": "", "headers": [{"name": "cf-ray", "value": "%s-%s" % (rs(HEX, 16), pick(["FRA", "AMS", "CDG"]))},
                                                                         {"name": "x-request-id", "value": uuid4()}, {"name": "age", "value": str(R.randint(1, 80000))}]}}
        return json.dumps(entry, indent=pick([None, 2]))

    @g
    def fetch_clean():
        return ('fetch("https://%s%s", {\n  "headers": {\n    "accept": "application/json",\n    "x-client-version": "%s",\n    "x-request-id": "%s"\n  },\n'
                '  "body": null,\n  "method": "GET",\n  "credentials": "include"\n});') % (app_host(), api_path(), ver(), uuid4())

    @g
    def resp_headers_clean():
        h = rs(B64, 43) + "="
        return ("HTTP/2 200\ncontent-type: text/html; charset=utf-8\netag: \"%s\"\ncache-control: public, max-age=0, must-revalidate\n"
                "content-security-policy: default-src 'self'; script-src 'self' 'sha256-%s'; object-src 'none'\nx-vercel-id: fra1::iad1::%s-%d-%s\n"
                "set-cookie: theme=dark; Path=/; Max-Age=31536000; SameSite=Lax") % (rs(HEX, 32), h, rs(LO + DIG, 5), R.randint(10 ** 12, 10 ** 13 - 1), rs(HEX, 12))

    @g
    def sri():
        return '<script src="https://cdn.jsdelivr.net/npm/%s@%s/dist/index.min.js" integrity="sha384-%s" crossorigin="anonymous"></script>' % (
            pick(["chart.js", "alpinejs", "htmx.org", "dayjs"]), ver(), rs(B64, 64))

    @g
    def http2_clean():
        return ":method: GET\n:authority: %s\n:scheme: https\n:path: %s\naccept: application/json\nif-none-match: W/\"%s\"\nx-datadog-trace-id: %d\nuser-agent: %s" % (
            app_host(), api_path(), rs(HEX, 16), R.randint(10 ** 17, 10 ** 18), pick(UA))

    @g
    def cookie_clean():
        return "Cookie: %s" % "; ".join(benign_cookies() + ["_gid=GA1.2.%d.%d" % (R.randint(10 ** 8, 2 * 10 ** 9), epoch())])

    @g
    def postman_clean():
        return json.dumps({"id": uuid4(), "name": "%s - Local" % pick(ORGS).title(), "values": [
            {"key": "baseUrl", "value": "http://localhost:%d" % pick([3000, 8000, 8080]), "enabled": True},
            {"key": "token", "value": "{{vault:api-token}}", "type": "secret", "enabled": True},
            {"key": "customerId", "value": str(R.randint(1000, 99999)), "enabled": True}]}, indent=2)

    @g
    def google_services_placeholder():
        num = nz(12)
        return json.dumps({"project_info": {"project_number": num, "project_id": firebase_project()},
                           "client": [{"client_info": {"mobilesdk_app_id": "1:%s:android:%s" % (num, rs(HEX, 22)), "android_client_info": {"package_name": pick(BUNDLES)}},
                                       "api_key": [{"current_key": pick(["<YOUR_FIREBASE_API_KEY>", "${FIREBASE_API_KEY}", "REPLACE_ME"])}]}]}, indent=2)

    @g
    def gradle_clean():
        return ("org.gradle.jvmargs=-Xmx%dg -XX:+UseParallelGC\nandroid.useAndroidX=true\nandroid.nonTransitiveRClass=true\nkotlin.incremental=true\n"
                "VERSION_NAME=%s\nVERSION_CODE=%d\n# signing is read from env: KEYSTORE_PASSWORD / KEY_PASSWORD") % (R.randint(2, 8), ver(), R.randint(100, 90000))

    @g
    def signing_env():
        return ('signingConfigs {\n    release {\n        storeFile = file(System.getenv("KEYSTORE_PATH") ?: "release.jks")\n'
                '        storePassword = System.getenv("KEYSTORE_PASSWORD")\n        keyAlias = "upload"\n        keyPassword = System.getenv("KEY_PASSWORD")\n    }\n}')

    @g
    def local_props_clean():
        return "sdk.dir=/Users/%s/Library/Android/sdk\nflutter.sdk=/Users/%s/fvm/versions/3.%d.%d\nflutter.buildMode=release\nflutter.versionName=%s\nflutter.versionCode=%d" % (
            pick(["nadia", "kofi", "yuki"]), pick(["nadia", "kofi", "yuki"]), R.randint(10, 29), R.randint(0, 9), ver(), R.randint(10, 900))

    @g
    def xcconfig_clean():
        return ("PRODUCT_BUNDLE_IDENTIFIER = %s\nMARKETING_VERSION = %s\nCURRENT_PROJECT_VERSION = %d\nDEVELOPMENT_TEAM = %s\nCODE_SIGN_STYLE = Manual\n"
                "REVENUECAT_API_KEY = $(REVENUECAT_API_KEY)\nAPI_BASE_URL = https:/$()/%s") % (pick(BUNDLES), ver(), R.randint(10, 9000), rs(UP + DIG, 10), app_host())

    @g
    def asc_meta():
        if chance(0.3):
            return "APNs auth key %s (team %s) — revoke the old one after the switch." % (rs(UP + DIG, 10), rs(UP + DIG, 10))
        return pick(["App Store Connect API key: Key ID %s, Issuer ID %s — the .p8 itself is in 1Password (vault: Mobile).",
                     "fastlane: app_store_connect_api_key(key_id: \"%s\", issuer_id: \"%s\", key_filepath: ENV[\"ASC_KEY_PATH\"])"]) % (rs(UP + DIG, 10), uuid4())

    @g
    def keytool_fingerprints():
        def fp(n):
            return ":".join(rs(HEXU, 2) for _ in range(n))
        return ("Alias name: upload\nCreation date: %s\nEntry type: PrivateKeyEntry\nOwner: CN=%s, O=%s, C=DE\nSerial number: %s\n"
                "Certificate fingerprints:\n\t SHA1: %s\n\t SHA256: %s\nSignature algorithm name: SHA384withRSA") % (
            pick(["Mar 3, 2024", "Nov 18, 2023"]), pick(ORGS).title(), pick(ORGS).title(), rs(HEX, 16), fp(20), fp(32))

    @g
    def fastlane_clean():
        return ('lane :release do\n  match(type: "appstore", readonly: is_ci)\n  build_app(scheme: "%s")\n  upload_to_app_store(api_key_path: "fastlane/asc_key.json", skip_metadata: true)\nend' % pick(["App", "Release", "Prod"]))

    @g
    def invoice_masked():
        return "Invoice %s-%d · %s · Paid with %s · Total %s %s · VAT ID %s" % (
            pick(["INV", "RE", "FAC"]), R.randint(2025000, 2025999), "2025-%02d-%02d" % (R.randint(1, 12), R.randint(1, 28)),
            pick(["Visa •••• 4242", "Mastercard ending in 4444", "Amex •••• 0005", "SEPA debit ••••3000", "Apple Pay (Visa ••••1881)"]),
            money()[0], pick(["EUR", "USD"]), pick(["DE%d" % R.randint(100000000, 999999999), "FR%02d%d" % (R.randint(10, 99), R.randint(100000000, 999999999)),
                                                   "GB%d" % R.randint(100000000, 999999999), "NL%dB01" % R.randint(100000000, 999999999)]))

    @g
    def stripe_ids():
        return json.dumps({"id": "in_1Q" + rs(AN, 22), "customer": "cus_" + rs(AN, 14), "subscription": "sub_1Q" + rs(AN, 22),
                           "payment_intent": "pi_3Q" + rs(AN, 22), "charge": "ch_3Q" + rs(AN, 22), "amount_paid": R.randint(100, 99999),
                           "currency": pick(["eur", "usd", "gbp"]), "status": "paid", "number": "%s-%04d" % (rs(UP + DIG, 8), R.randint(1, 9999))})

    @g
    def masked_cards():
        rows = ["| customer | card | expires |", "|---|---|---|"]
        for _ in range(R.randint(2, 4)):
            rows.append("| cus_%s | %s | %s |" % (rs(AN, 14), pick(["**** **** **** %s" % digits(4), "%s******%s" % (pick(["424242", "555555", "378282"]), digits(4)),
                                                                      "•••• %s" % digits(4), "XXXX-XXXX-XXXX-%s" % digits(4)]), exp_date()))
        return "\n".join(rows)

    @g
    def routing_public():
        return pick(["Routing numbers are public — e.g. %s is printed on every check from that branch; we only store the account's last 4 (…%s).",
                     "ABA %s validated (checksum ok), bank name resolved via FedACH directory; account last4 %s.",
                     "ACH return R03 (no account/unable to locate) for routing %s, account ending %s."]) % (routing_number(), digits(4))

    @g
    def bic_list():
        ccs = R.sample(sorted(IBAN_SPEC), R.randint(3, 5))
        return "supported payout banks:\n" + "\n".join("- %s (%s)" % (bic_of(cc), cc) for cc in ccs)

    @g
    def iban_masked():
        cc = pick(["DE", "FR", "NL", "ES", "IT"])
        return pick(["Payout account: %s** **** **** **** %s", "Compte bancaire : %s•• •••• •••• ••%s", "Auszahlungskonto %s•• •••• •••• •••• ••%s"]) % (cc, digits(2))

    @g
    def sepa_header():
        return ("<GrpHdr>\n  <MsgId>PAYOUT-%s</MsgId>\n  <CreDtTm>%s</CreDtTm>\n  <NbOfTxs>%d</NbOfTxs>\n  <CtrlSum>%s</CtrlSum>\n"
                "  <InitgPty><Nm>%s GmbH</Nm></InitgPty>\n</GrpHdr>") % (rs(UP + DIG, 12), iso_ts()[:19], R.randint(1, 400), money()[0], pick(ORGS).title())

    @g
    def crm_aggregate():
        lines = ["country,accounts,arr_eur,churned"]
        for cc in R.sample(sorted(COUNTRIES), R.randint(3, 6)):
            lines.append("%s,%d,%d,%d" % (cc, R.randint(3, 900), R.randint(10000, 9000000), R.randint(0, 40)))
        return "\n".join(lines)

    @g
    def headcount():
        rows = ["| Department | Headcount | Open roles |", "|---|---|---|"]
        for d in R.sample(["Engineering", "Sales", "Support", "Finance", "People", "Design", "Marketing"], 4):
            rows.append("| %s | %d | %d |" % (d, R.randint(2, 120), R.randint(0, 9)))
        return "\n".join(rows)

    @g
    def describe():
        cols = ["orders", "ltv_eur", "days_since_signup"]
        lines = ["        " + "  ".join(c_.rjust(18) for c_ in cols)]
        n = float(R.randint(500, 90000))
        qs = [sorted(R.uniform(0, 5000) for _ in range(5)) for _ in cols]
        stats = {"count": [n] * 3, "mean": [(q[1] + q[3]) / 2 for q in qs], "std": [R.uniform(1, 900) for _ in cols],
                 "min": [q[0] for q in qs], "25%": [q[1] for q in qs], "50%": [q[2] for q in qs], "75%": [q[3] for q in qs], "max": [q[4] for q in qs]}
        for stat in ["count", "mean", "std", "min", "25%", "50%", "75%", "max"]:
            lines.append(stat.ljust(8) + "  ".join(("%.6f" % v).rjust(18) for v in stats[stat]))
        return ">>> df.describe()\n" + "\n".join(lines)

    @g
    def df_info():
        n = R.randint(1000, 900000)
        return ("<class 'pandas.core.frame.DataFrame'>\nRangeIndex: %d entries, 0 to %d\nData columns (total 5 columns):\n"
                " #   Column      Non-Null Count  Dtype\n---  ------      --------------  -----\n 0   customer_id %d non-null  int64\n"
                " 1   email       %d non-null  object\n 2   phone       %d non-null  object\n 3   country     %d non-null  object\n"
                " 4   created_at  %d non-null  datetime64[ns]\ndtypes: datetime64[ns](1), int64(1), object(3)\nmemory usage: %.1f+ MB") % (
            n, n - 1, n, n - R.randint(0, 50), n - R.randint(0, 9000), n, n, n * 40 / 1e6)

    @g
    def product_frame():
        lines = ["      sku                   name   price  qty"]
        for i in range(R.randint(3, 5)):
            lines.append("%d  %s  %s  %6.2f  %3d" % (i, ("SKU-%05d" % R.randint(1, 99999)).rjust(9), pick(["Desk lamp", "USB-C hub", "Notebook A5", "Water bottle", "Tote bag"]).rjust(20),
                                                       R.uniform(2, 300), R.randint(0, 400)))
        return "\n".join(lines)

    @g
    def training_log():
        return "\n".join("Epoch %d/%d - loss: %.4f - val_loss: %.4f - acc: %.4f - %ds %dms/step" % (
            e, 10, R.uniform(0.1, 2), R.uniform(0.1, 2), R.uniform(0.5, 0.99), R.randint(5, 90), R.randint(20, 400)) for e in range(1, R.randint(3, 6)))

    @g
    def notebook_env_ref():
        return json.dumps({"cell_type": "code", "execution_count": R.randint(1, 30), "metadata": {}, "outputs": [],
                           "source": ["import os\n", "from openai import OpenAI\n", "client = OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])\n",
                                      "resp = client.responses.create(model=\"gpt-4.1-mini\", input=prompt)"]}, indent=1)

    @g
    def incident_clean():
        return ("## Timeline (UTC)\n\n| Time | Event |\n|---|---|\n| %s | Secret scanning alert for `%s` in `%s/%s` |\n| %s | Key revoked (key id ending `%s`) |\n"
                "| %s | Replacement issued via Doppler, services restarted |\n\nNo customer data was accessed.") % (
            hhmm(), pick(["OPENAI_API_KEY", "STRIPE_SECRET_KEY", "GITHUB_TOKEN", "MAPBOX_SECRET_TOKEN"]), pick(ORGS), pick(APPS), hhmm(), rs(UP + DIG, 4), hhmm())

    @g
    def chat_clean():
        return pick(CLEAN_PROSE)

    @g
    def placeholder():
        return pick(PLACEHOLDERS)

    @g
    def llm_env_refs():
        return pick(["model_list:\n  - model_name: gpt-4o\n    litellm_params:\n      model: openai/gpt-4o\n      api_key: os.environ/OPENAI_API_KEY\ngeneral_settings:\n  master_key: os.environ/LITELLM_MASTER_KEY",
                     "models:\n  - name: claude\n    provider: anthropic\n    model: claude-sonnet-4-5\n    apiKey: ${{ secrets.ANTHROPIC_API_KEY }}",
                     json.dumps({"inputs": [{"type": "promptString", "id": "github_token", "description": "GitHub PAT", "password": True}],
                                 "servers": {"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                                                        "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${input:github_token}"}}}}, indent=2),
                     json.dumps({"mcpServers": {"linear": {"command": "npx", "args": ["-y", "linear-mcp-server"], "env": {"LINEAR_API_KEY": "<YOUR_LINEAR_KEY>"}}}}, indent=2),
                     "aider --model sonnet --api-key anthropic=$ANTHROPIC_API_KEY",
                     "{\n  \"provider\": {\n    \"openrouter\": { \"options\": { \"apiKey\": \"{env:OPENROUTER_API_KEY}\" } }\n  }\n}",
                     "opencode auth login  # stores the key in ~/.local/share/opencode/auth.json",
                     "export ANTHROPIC_API_KEY=$(op read \"op://Engineering/Anthropic/credential\")"])

    @g
    def llm_usage():
        pt, ct = R.randint(100, 90000), R.randint(10, 4000)
        return json.dumps({"id": pick(["chatcmpl-" + rs(AN, 29), "msg_01" + rs(AN, 22), "resp_" + rs(HEX, 48)]), "model": pick(["gpt-4.1", "claude-sonnet-4-5", "grok-3"]),
                           "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
                           "request_id": pick(["req_011C" + rs(AN, 18), uuid4()])})

    @g
    def mq_clean():
        return pick(["CELERY_BROKER_URL=amqp://guest@localhost:5672//", "bootstrap.servers=pkc-%s.eu-west-1.aws.confluent.cloud:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanisms=OAUTHBEARER" % rs(LO + DIG, 5),
                     "SQS_QUEUE_URL=https://sqs.eu-central-1.amazonaws.com/%s/orders-events.fifo" % digits(12),
                     "Endpoint=sb://%s-prod.servicebus.windows.net/;Authentication=Managed Identity" % pick(ORGS),
                     "NATS_URL=nats://localhost:4222", "REDIS_URL=redis://localhost:6379/0", "amqp://rabbitmq:5672/%2F",
                     "kafka-console-consumer --bootstrap-server localhost:9092 --topic orders --from-beginning"])

    @g
    def uuids():
        return "%s %s %s" % (pick(["request_id", "trace", "correlation-id", "idempotency-key"]), uuid4(), pick(["", "(retry %d)" % R.randint(1, 5)]))

    @g
    def git_log():
        return "\n".join("%s %s" % (git_sha(7), pick(["fix(checkout): handle 3DS redirect", "chore(deps): bump okhttp to 4.12.0", "feat(crm): export vCard",
                                                         "ci: cache gradle", "refactor: extract PaymentSheet", "docs: HAR sanitizing guide"])) for _ in range(R.randint(3, 5)))

    @g
    def digests():
        return pick(["%s  app-release.aab" % rs(HEX, 64), "sha256:%s" % rs(HEX, 64), "ghcr.io/%s/%s@sha256:%s" % (pick(ORGS), pick(APPS), rs(HEX, 64)),
                     "md5 %s  export.csv" % rs(HEX, 32), "integrity sha512-%s==" % rs(B64, 86)])

    @g
    def build_ids():
        return pick(["Build #%d (%s) passed in %dm%02ds" % (R.randint(1000, 99999), git_sha(8), R.randint(1, 40), R.randint(0, 59)),
                     "Xcode Cloud build %d · TestFlight %s (%d)" % (R.randint(100, 9999), ver(), R.randint(100, 9999)),
                     "https://gradle.com/s/%s" % rs(LO + DIG, 13), "EAS build id %s" % uuid4(), "run_id=%d attempt=%d" % (R.randint(10 ** 9, 10 ** 10), R.randint(1, 3))])

    @g
    def b64_benign():
        d = pick([{"page": R.randint(2, 90), "sort": "created_at"}, {"after": "2025-%02d-%02d" % (R.randint(1, 12), R.randint(1, 28)), "limit": 50},
                  {"v": 1, "theme": "dark"}, {"offset": R.randint(100, 9000)}])
        return pick(["next_cursor: %s", "?cursor=%s", "X-Pagination-Cursor: %s"]) % b64(json.dumps(d, separators=(",", ":")).encode())

    @g
    def data_uri():
        return '<img alt="dot" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk%sAAAAASUVORK5CYII=">' % rs(AN, 8)

    @g
    def orders():
        return pick(["Order #%d shipped" % R.randint(100000, 9999999), "order_id=ORD-%s-%05d" % ("2025%02d" % R.randint(1, 12), R.randint(1, 99999)),
                     "Bestellnummer 302-%07d-%07d" % (R.randint(0, 9999999), R.randint(0, 9999999)), "RMA-%d approved" % R.randint(1000, 99999)])

    @g
    def tracking():
        return pick(["UPS %s" % ups_tracking(), "Royal Mail %s%dGB" % (pick(["RR", "LX", "CP"]), R.randint(100000000, 999999999)),
                     "DHL Express waybill %d" % R.randint(1000000000, 9999999999), "PostNL 3S%s%d" % (rs(UP, 4), R.randint(1000000, 9999999))])

    @g
    def isbn():
        return "ISBN %s" % isbn13()

    @g
    def versions():
        return pick(["react-native %s, expo SDK %d, hermes enabled" % (ver(), R.randint(49, 53)), "Android Gradle Plugin %s / Kotlin %s" % (ver(), ver()),
                     "iOS %d.%d (22A%d), Xcode %d.%d" % (R.randint(16, 18), R.randint(0, 5), R.randint(100, 999), R.randint(15, 16), R.randint(0, 4)),
                     "litellm==1.%d.%d, openai==1.%d.%d" % (R.randint(40, 79), R.randint(0, 20), R.randint(30, 99), R.randint(0, 9))])

    @g
    def timestamps():
        return "%s  %s  %d ms" % (iso_ts(), pick(["GET /health 200", "POST /api/orders 201", "cron nightly-export ok"]), R.randint(1, 900))

    @g
    def prices():
        return "%s: €%d,%02d · $%d.%02d · £%d.%02d (incl. VAT %d%%)" % (pick(["Pro plan", "Team seat", "Add-on storage"]), R.randint(5, 99), R.randint(0, 99),
                                                                     R.randint(5, 99), R.randint(0, 99), R.randint(5, 99), R.randint(0, 99), pick([19, 20, 21, 7]))

    @g
    def pubkeys():
        return pick(["deploy key (public):\n%s" % ssh_pub(), "JWT verification key:\n%s" % pem_public(),
                     "age recipient for the backups: %s" % age_recipient(),
                     json.dumps({"keys": [{"kty": "RSA", "use": "sig", "kid": rs(AN + "-_", 43), "alg": "RS256", "n": rs(B64U, 342), "e": "AQAB"}]})])

    @g
    def oauth_client_id():
        return "GOOGLE_OAUTH_CLIENT_ID=%s-%s.apps.googleusercontent.com  # public, the secret is in the vault" % (nz(12), rs(LO + DIG, 32))

    @g
    def webhook_docs():
        return pick(["Incoming webhooks look like https://hooks.slack.com/services/T…/B…/… — treat the whole URL as a secret.",
                     "Set the Zapier catch hook in `ZAPIER_HOOK_URL`; never commit it.",
                     "Mattermost: Integrations → Incoming Webhooks → Add; copy the URL into the vault.",
                     "The Google Chat webhook URL carries key= and token= parameters; store it like a password."])

    @g
    def git_remote():
        return "git remote -v\norigin\tgit@github.com:%s/%s.git (fetch)\norigin\tgit@github.com:%s/%s.git (push)" % ((pick(ORGS), pick(APPS)) * 2)

    @g
    def ids_misc():
        return pick(["Firebase app id 1:%s:ios:%s" % (nz(12), rs(HEX, 22)), "GA4 measurement id G-%s" % rs(UP + DIG, 10),
                     "provisioning profile %s" % uuid4().upper(), "App Store app id %d" % R.randint(1400000000, 6999999999),
                     "Play package %s, versionCode %d" % (pick(BUNDLES), R.randint(100, 99999)), "Slack channel C0%s, user U0%s" % (rs(UP + DIG, 9), rs(UP + DIG, 9))])

    @g
    def ach_prose():
        return pick(["ACH returns: R01 insufficient funds, R02 account closed, R03 no account, R29 corporate not authorized.",
                     "NACHA files are 94-character fixed width; entry detail records start with '6'.",
                     "Same-day ACH cutoff is 4:45 pm ET for the last window."])

    seen = set()
    for t in CLEAN_PROSE + PLACEHOLDERS:      # every hand-written look-alike once
        if t not in seen and not looks_sensitive(t):
            seen.add(t)
            out.append(t)
    tries = 0
    while len(out) < 280 and tries < 6000:
        tries += 1
        f = gens[len(out) % len(gens)] if tries < 500 else pick(gens)
        t = f()
        if t in seen or looks_sensitive(t):
            continue
        seen.add(t)
        out.append(t)
    return out


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

PLAN = [
    (t_har, 24), (t_fetch, 16), (t_copy_cmd, 10), (t_raw_http, 16), (t_set_cookie, 10), (t_postman_env, 8), (t_websocket, 6), (t_httpie, 6),
    (t_google_services_json, 7), (t_google_plist, 5), (t_gradle_props, 12), (t_keytool, 5), (t_xcconfig, 7), (t_p8, 7), (t_fastlane_env, 6),
    (t_eas, 5), (t_sdk_init, 10),
    (t_card_export, 18), (t_test_cards, 3), (t_iban_bic, 32), (t_ach, 10),
    (t_crm_csv, 18), (t_vcard, 7), (t_ldif, 6), (t_hr_record, 30), (t_crm_json, 10), (t_id_list, 10),
    (t_pandas, 12), (t_ipynb, 8), (t_df_html, 4), (t_polars, 4),
    (t_incident, 15),
    (t_chat_password, 45), (t_chat_key, 20), (t_slack_export, 10), (t_email_thread, 10),
    (t_mcp_json, 14), (t_continue, 6), (t_aider, 6), (t_litellm, 8), (t_agent_settings, 6),
    (t_webhook, 22), (t_mq, 18),
    (t_provider, 40), (t_cloud_misc, 14), (t_service_account, 4), (t_github_app, 4),
]


def build():
    for fn, n in PLAN:
        for _ in range(n):
            fn()
    for cc in sorted(NATIONAL):          # every national id scheme at least once more, in its own language
        for which in range(len(NATIONAL[cc])):
            c = C()
            p = Person(cc)
            lab, v, local = p.nid(which)
            emit(pick(["%s: %s", "%s — %s", "%s %s"]) % (local, c(v, lab)), c)
    for cc in sorted(NATIONAL):
        t_hr_record(cc)
        t_id_list(cc)
    for label in NEW_PROVIDERS:          # every provider outside world13's list at least twice more
        t_provider(label)
        t_provider(label)
    for p in PROVIDERS:                  # and every provider once more
        t_provider(p[0])
    for label in sorted(set(MAJOR)) + ["pypi_token", "twilio_api_key"]:
        t_provider(label)
    for _ in range(6):
        t_aws()
    for which in range(len(WEBHOOKS)):
        t_webhook(which)
        t_webhook(which)
    for k in list(range(8)) + [1, 2]:
        t_mq(k)
    for k in range(7):
        t_cloud_misc(k)
    t_cloud_misc(4)
    t_cloud_misc(4)
    for t in clean_rows():
        ROWS.append({"text": t, "canaries": [], "kinds": []})
    R.shuffle(ROWS)
    return ROWS


# ---------------------------------------------------------------- labels the masker already gives
# Added after world14's one blind run: ``api_key`` above is a key sent in an API's own header (``x-api-key``
# in a raw request, a copied fetch call, a HAR record, a PowerShell hashtable) or LiteLLM's master key, which
# clients send as ``Authorization: Bearer``: what the masker labels ``bearer_token`` (a bearer token under
# another header name, as world9 labels an X-Api-Key header's value). The rows are written with the
# masker's name; text, values and order are untouched, only the labels written change.
MASKER_LABEL = {"api_key": "bearer_token"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    rows = build()
    for r in rows:
        r["kinds"] = [MASKER_LABEL.get(k, k) for k in r["kinds"]]
    dupes = [t for t, n in collections.Counter(r["text"] for r in rows).items() if n > 1]
    assert not dupes, dupes
    for r in rows:
        assert len(r["canaries"]) == len(r["kinds"])
        for v in r["canaries"]:
            assert v and v in r["text"], v
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "heldout_world14.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %d rows (%d canaries, %d kinds, %d clean) to %s" % (
        len(rows), sum(len(r["canaries"]) for r in rows), len({k for r in rows for k in r["kinds"]}),
        sum(1 for r in rows if not r["canaries"]), path))


if __name__ == "__main__":
    main()
