#!/usr/bin/env python3
"""Thirteenth blind held-out extension ("world13") of the privacy test corpus.

Written blind: nothing here was derived from the masker, its rules or its
tests, and the masker was never run while writing it.  Every value is
generated from public descriptions of the formats (provider documentation of
token prefixes / lengths / alphabets, published national-identifier checksum
algorithms, ISO 13616 IBAN mod-97 check digits, Luhn).

Theme: what an ordinary user of an LLM agent fleet pastes into agent
sessions.  Rather than exotic kinds, this world puts the common kinds in
realistic surroundings: shell history and CI logs, ``.env`` files,
docker-compose / Kubernetes YAML (including base64 ``data:`` secrets),
Terraform and tfstate, JSON API responses, stack traces and axios-style
error dumps, SQL dumps / INSERT / COPY statements, CSV customer exports,
support-ticket chat in English and a dozen other languages, code-review
comments, git remotes and ``.git-credentials``, curl commands, database
connection strings (postgres, mysql, mongodb+srv, redis, amqp, mssql, jdbc,
oracle, kafka JAAS), cloud CLI files (``~/.aws/credentials``, gcloud ADC and
service-account JSON, az CLI, kubeconfig with tokens and client-key-data),
PEM / OpenSSH private keys inside certificate bundles, JWTs in headers and
cookies, framework session cookies, Slack / Discord / Teams webhooks, OAuth
client secrets, SMTP passwords, passwords in prose in ~25 languages, and
provider keys in new places (query strings, quoted in many languages'
source code, logfmt / JSON log fields, dotfiles such as .npmrc, .pypirc,
.netrc, docker config.json, Maven settings.xml).

Usage:
    python3 make_world13_corpus.py --out DIR      # writes DIR/heldout_world13.jsonl

Output: one JSON object per line,
    {"text": str, "canaries": [str, ...], "kinds": [str, ...]}
Every canary occurs verbatim in ``text``; ``kinds[i]`` labels ``canaries[i]``.
Clean rows (text that must come through unchanged) have empty lists.
The output is fully reproducible: all randomness comes from
``random.Random(1313)``; nothing depends on time, environment or hash order.

Covered kinds
-------------
Secrets (label ``<provider>_<kind>``): openai_api_key (project,
service-account, admin and legacy forms), anthropic_api_key,
anthropic_admin_key, github_token (ghp_/gho_/ghu_/ghs_/ghr_ with CRC32
checksum, fine-grained github_pat_), github_oauth_client_secret, gitlab_token
(PAT, runner, deploy, trigger), aws_access_key_id, aws_secret_access_key,
aws_session_token, gcp_api_key, gcp_oauth_client_secret, gcp_oauth_token,
gcp_refresh_token, azure_storage_key, azure_client_secret, azure_sas_token,
azure_openai_key, azure_devops_pat, stripe_secret_key, stripe_webhook_secret,
slack_token (bot / user / app), slack_signing_secret, twilio_auth_token,
twilio_api_secret, sendgrid_api_key, huggingface_token, npm_token, pypi_token,
dockerhub_token, datadog_api_key, datadog_app_key, mailgun_api_key,
mailchimp_api_key, shopify_token, replicate_api_token, sentry_token,
grafana_token, vault_token, terraform_token, notion_token, linear_api_key,
digitalocean_token, groq_api_key, openrouter_api_key, telegram_bot_token,
discord_bot_token, postman_api_key,
newrelic_api_key, atlassian_api_token, supabase_token, tailscale_key,
age_secret_key, figma_token, square_access_token, cloudflare_api_token,
langsmith_api_key, pinecone_api_key, mistral_api_key, cohere_api_key,
heroku_api_key, rails_master_key, kubernetes_token, auth0_client_secret,
okta_client_secret, oauth_client_secret (generic, e.g. Keycloak).
Webhooks (whole URL): slack_webhook, discord_webhook, teams_webhook.
Generic: password (key/value, CLI flags, config files, SQL, JDBC / ADO.NET
strings, log lines, prose in ~25 languages, base64 in Kubernetes secrets),
url_credentials (password part of user:pass@ URLs), basic_auth (base64
user:pass), private_key (PEM, OpenSSH, encrypted PKCS#8, escaped in JSON /
env vars, base64 kubeconfig client-key-data), jwt, session_cookie,
app_secret (framework signing secrets), api_key (unbranded key in a query
string).

Personal data: email, phone (36 countries, national and international
forms), card_number (Luhn-valid: Visa, Mastercard, Amex, Discover, JCB,
Diners, UnionPay, Maestro, Mir, RuPay, Elo, Troy), iban (27 countries, valid
ISO 13616 check digits, national check digits for ES, FR, BE, NL, NO, PT),
and national identifiers with valid check digits: ssn, uk_nino, ca_sin,
fr_nir, de_tax_id, aadhaar, es_dni, it_codice_fiscale, nl_bsn, be_nrn,
pt_nif, pl_pesel, se_personnummer, no_fnr, fi_hetu, ie_ppsn, ch_ahv, br_cpf,
kr_rrn, cn_ric, au_tfn, za_id, tr_tckn, sg_nric, gb_nhs_number.  (Names,
street addresses and dates of birth appear around them as context but are
not canaries.)

Clean rows: git SHAs and logs, UUIDs, trace ids, sha256 / sha512 digests,
npm integrity strings, build and run ids, placeholders (your-api-key-here,
xxxx, <TOKEN>, ${SECRET}, {{ secrets.X }}), redacted values (sk-****),
env-var references, docs describing key formats without a key, versions,
timestamps, order / tracking numbers, ISBNs, SKUs, documentation-range IPs,
ports, hex colours, base64 of non-secret content, public certificates and
SSH public keys, "password reset" / "token budget" / "secret sauce" prose,
connection strings without passwords, ordinary engineering prose, code
review and chat in several languages.
"""

import argparse
import base64
import json
import os
import struct
import zlib
import random

R = random.Random(1313)

UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LO = "abcdefghijklmnopqrstuvwxyz"
DIG = "0123456789"
B62 = DIG + UP + LO
B64 = UP + LO + DIG + "+/"
B64U = UP + LO + DIG + "-_"
HEX = "0123456789abcdef"
B32 = UP + "234567"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return seq[R.randrange(len(seq))]


def chance(p):
    return R.random() < p


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


def digits(n):
    return "".join(R.choice(DIG) for _ in range(n))


def ts_iso(year=2025):
    return "%d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (year, R.randint(1, 12), R.randint(1, 28), R.randint(0, 23),
                                                  R.randint(0, 59), R.randint(0, 59), R.randint(0, 999))


def ts_plain(year=2025):
    return "%d-%02d-%02d %02d:%02d:%02d" % (year, R.randint(1, 12), R.randint(1, 28), R.randint(0, 23),
                                            R.randint(0, 59), R.randint(0, 59))


# ---------------------------------------------------------------------------
# checksums
# ---------------------------------------------------------------------------

def luhn_check_digit(partial):
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
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


def iso7064_mod11_10(num):
    product = 10
    for ch in num:
        s = (int(ch) + product) % 10
        if s == 0:
            s = 10
        product = (s * 2) % 11
    c = 11 - product
    return "0" if c == 10 else str(c)


def crc_b62(body):
    n = zlib.crc32(body.encode()) & 0xFFFFFFFF
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out.rjust(6, "0")


def mod97_str(s):
    return int(s) % 97


# ---------------------------------------------------------------------------
# people, places
# ---------------------------------------------------------------------------

def rand_dob(lo=1950, hi=2004):
    return R.randint(lo, hi), R.randint(1, 12), R.randint(1, 28)


COUNTRIES = {}


def country(code, first, last, cities, mail, street):
    COUNTRIES[code] = dict(first=first, last=last, cities=cities, mail=mail, street=street)


country("US", ["James", "Olivia", "Marcus", "Emily", "Tyrone", "Hannah", "Diego", "Kayla", "Brandon", "Megan"],
        ["Johnson", "Miller", "Garcia", "Nguyen", "Robinson", "Patel", "Walker", "Brooks", "Hayes", "Coleman"],
        ["Austin, TX 78704", "Denver, CO 80205", "Columbus, OH 43215", "Portland, OR 97209", "Tampa, FL 33606"],
        ["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "aol.com"], "{n} {s} St")
country("GB", ["Oliver", "Amelia", "Harry", "Isla", "George", "Poppy", "Jack", "Freya"],
        ["Smith", "Taylor", "Davies", "Evans", "Wright", "Hughes", "Clarke", "Ahmed"],
        ["Leeds LS6 2QD", "Bristol BS3 4RT", "Manchester M14 5JH", "Glasgow G12 8QQ", "Cardiff CF24 3AA"],
        ["gmail.com", "btinternet.com", "hotmail.co.uk", "outlook.com"], "{n} {s} Road")
country("CA", ["Liam", "Chloe", "Noah", "Maya", "Ethan", "Léa", "Owen", "Zoe"],
        ["Tremblay", "Roy", "Wilson", "MacDonald", "Gagnon", "Singh", "Campbell", "Lee"],
        ["Toronto, ON M5V 2T6", "Montréal, QC H2X 1Y4", "Calgary, AB T2P 1J9", "Halifax, NS B3H 1Y6"],
        ["gmail.com", "rogers.com", "videotron.ca", "outlook.com"], "{n} {s} Avenue")
country("FR", ["Camille", "Lucas", "Manon", "Hugo", "Chloé", "Théo", "Inès", "Louis"],
        ["Martin", "Bernard", "Dubois", "Lefebvre", "Moreau", "Girard", "Fournier", "Rousseau"],
        ["75011 Paris", "69003 Lyon", "13006 Marseille", "31000 Toulouse", "44000 Nantes"],
        ["orange.fr", "free.fr", "laposte.net", "gmail.com", "sfr.fr"], "{n} rue {s}")
country("DE", ["Lukas", "Anna", "Jonas", "Lea", "Felix", "Marie", "Paul", "Sophie", "Jürgen", "Katrin"],
        ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Becker", "Hoffmann", "Wagner"],
        ["10115 Berlin", "80331 München", "50667 Köln", "20095 Hamburg", "04109 Leipzig"],
        ["web.de", "gmx.de", "t-online.de", "posteo.de", "gmail.com"], "{s}straße {n}")
country("ES", ["Lucía", "Hugo", "Martina", "Pablo", "Sofía", "Álvaro", "Carmen", "Javier"],
        ["García", "Fernández", "López", "Martínez", "Sánchez", "Romero", "Navarro", "Torres"],
        ["28004 Madrid", "08012 Barcelona", "46002 Valencia", "41001 Sevilla", "48001 Bilbao"],
        ["gmail.com", "hotmail.es", "telefonica.net", "yahoo.es"], "Calle {s}, {n}")
country("IT", ["Giulia", "Marco", "Francesca", "Luca", "Chiara", "Matteo", "Sara", "Andrea"],
        ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci"],
        ["00184 Roma", "20121 Milano", "10123 Torino", "40126 Bologna", "50122 Firenze"],
        ["libero.it", "gmail.com", "virgilio.it", "tiscali.it"], "Via {s} {n}")
country("NL", ["Daan", "Emma", "Sem", "Julia", "Lars", "Sanne", "Bram", "Fleur"],
        ["de Jong", "Jansen", "de Vries", "van Dijk", "Bakker", "Visser", "Smit", "Meijer"],
        ["1012 AB Amsterdam", "3011 BD Rotterdam", "3511 LX Utrecht", "2511 CV Den Haag"],
        ["ziggo.nl", "kpnmail.nl", "gmail.com", "hotmail.nl"], "{s}straat {n}")
country("BE", ["Lotte", "Arthur", "Elise", "Noah", "Louise", "Wout"],
        ["Peeters", "Janssens", "Maes", "Claes", "Dubois", "Lambert"],
        ["1000 Bruxelles", "2000 Antwerpen", "9000 Gent", "4000 Liège"],
        ["telenet.be", "skynet.be", "gmail.com"], "{s}laan {n}")
country("PT", ["João", "Beatriz", "Tiago", "Inês", "Rodrigo", "Mariana"],
        ["Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa"],
        ["1100-148 Lisboa", "4000-322 Porto", "3000-150 Coimbra"],
        ["sapo.pt", "gmail.com", "hotmail.com"], "Rua {s}, {n}")
country("PL", ["Jakub", "Zuzanna", "Kacper", "Julia", "Szymon", "Maja"],
        ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamińska", "Lewandowski"],
        ["00-001 Warszawa", "30-001 Kraków", "50-001 Wrocław", "80-001 Gdańsk"],
        ["wp.pl", "onet.pl", "gmail.com", "interia.pl"], "ul. {s} {n}")
country("SE", ["Elsa", "William", "Alice", "Oscar", "Maja", "Hugo"],
        ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Lindqvist"],
        ["111 22 Stockholm", "411 03 Göteborg", "211 20 Malmö"],
        ["telia.com", "gmail.com", "outlook.com"], "{s}gatan {n}")
country("NO", ["Nora", "Jakob", "Emma", "Filip", "Ingrid", "Magnus"],
        ["Hansen", "Johansen", "Olsen", "Larsen", "Berg", "Haugen"],
        ["0150 Oslo", "5003 Bergen", "7010 Trondheim"], ["online.no", "gmail.com"], "{s}veien {n}")
country("DK", ["Freja", "Mads", "Ida", "Magnus", "Clara", "Emil"],
        ["Jensen", "Nielsen", "Hansen", "Pedersen", "Andersen", "Christensen"],
        ["1050 København K", "8000 Aarhus C", "5000 Odense C"], ["mail.dk", "gmail.com"], "{s}vej {n}")
country("FI", ["Aino", "Eino", "Helmi", "Väinö", "Sofia", "Leo"],
        ["Korhonen", "Virtanen", "Mäkinen", "Nieminen", "Mäkelä", "Hämäläinen"],
        ["00100 Helsinki", "33100 Tampere", "20100 Turku"], ["elisanet.fi", "gmail.com"], "{s}katu {n}")
country("IE", ["Seán", "Aoife", "Conor", "Niamh", "Cian", "Saoirse"],
        ["Murphy", "Kelly", "O'Sullivan", "Walsh", "Byrne", "Ryan"],
        ["Dublin D08 X2A3", "Cork T12 R2NC", "Galway H91 E2K3"], ["eircom.net", "gmail.com"], "{n} {s} Street")
country("CH", ["Luca", "Mia", "Noah", "Lina", "Leon", "Elena"],
        ["Meier", "Keller", "Huber", "Brunner", "Baumann", "Frei"],
        ["8001 Zürich", "3011 Bern", "1204 Genève", "4051 Basel"], ["bluewin.ch", "gmx.ch", "gmail.com"],
        "{s}gasse {n}")
country("AT", ["Tobias", "Anna", "Maximilian", "Laura", "David", "Lena"],
        ["Gruber", "Huber", "Bauer", "Wagner", "Pichler", "Steiner"],
        ["1010 Wien", "8010 Graz", "5020 Salzburg"], ["aon.at", "gmx.at", "gmail.com"], "{s}gasse {n}")
country("IN", ["Aarav", "Priya", "Rohan", "Ananya", "Vikram", "Sneha", "Arjun", "Kavya"],
        ["Sharma", "Iyer", "Reddy", "Gupta", "Nair", "Mehta", "Kulkarni", "Banerjee"],
        ["Bengaluru 560034", "Mumbai 400050", "Pune 411001", "Chennai 600040", "Hyderabad 500081"],
        ["gmail.com", "yahoo.co.in", "rediffmail.com", "outlook.com"], "{n}, {s} Road")
country("BR", ["Gabriel", "Ana", "Lucas", "Júlia", "Mateus", "Larissa"],
        ["Silva", "Souza", "Oliveira", "Pereira", "Lima", "Carvalho"],
        ["01310-100 São Paulo - SP", "20040-020 Rio de Janeiro - RJ", "30130-010 Belo Horizonte - MG"],
        ["gmail.com", "uol.com.br", "bol.com.br", "hotmail.com"], "Rua {s}, {n}")
country("MX", ["Santiago", "Valentina", "Mateo", "Ximena", "Diego", "Regina"],
        ["Hernández", "González", "Rodríguez", "Ramírez", "Flores", "Cruz"],
        ["06600 Ciudad de México, CDMX", "44100 Guadalajara, Jal.", "64000 Monterrey, N.L."],
        ["gmail.com", "hotmail.com", "prodigy.net.mx"], "Av. {s} {n}")
country("JP", ["Haruto", "Yui", "Sota", "Hina", "Ren", "Sakura"],
        ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito"],
        ["東京都渋谷区", "大阪府大阪市北区", "神奈川県横浜市"], ["docomo.ne.jp", "yahoo.co.jp", "gmail.com"],
        "{n}-{n}")
country("KR", ["Minjun", "Seoyeon", "Jiho", "Jiwoo", "Hyunwoo", "Subin"],
        ["Kim", "Lee", "Park", "Choi", "Jung", "Kang"],
        ["서울특별시 강남구", "부산광역시 해운대구", "경기도 성남시"], ["naver.com", "daum.net", "gmail.com"],
        "{s}로 {n}")
country("CN", ["Wei", "Fang", "Hao", "Jing", "Lei", "Min"],
        ["Wang", "Li", "Zhang", "Liu", "Chen", "Zhao"],
        ["上海市浦东新区", "北京市海淀区", "深圳市南山区"], ["qq.com", "163.com", "126.com"], "{s}路{n}号")
country("AU", ["Jack", "Charlotte", "William", "Mia", "Lachlan", "Ruby"],
        ["Smith", "Jones", "Williams", "Brown", "Wilson", "Taylor"],
        ["Sydney NSW 2000", "Melbourne VIC 3000", "Brisbane QLD 4000", "Perth WA 6000"],
        ["bigpond.com", "gmail.com", "outlook.com"], "{n} {s} Street")
country("NZ", ["Tama", "Aroha", "Liam", "Isla", "Nikau", "Olivia"],
        ["Ngata", "Wilson", "Thompson", "Walker", "Parata", "Harris"],
        ["Auckland 1010", "Wellington 6011", "Christchurch 8011"], ["xtra.co.nz", "gmail.com"], "{n} {s} Street")
country("ZA", ["Thabo", "Naledi", "Sipho", "Zanele", "Pieter", "Lerato"],
        ["Nkosi", "Dlamini", "van der Merwe", "Botha", "Mokoena", "Naidoo"],
        ["Cape Town 8001", "Johannesburg 2001", "Durban 4001"], ["gmail.com", "mweb.co.za"], "{n} {s} Street")
country("TR", ["Emir", "Zeynep", "Yusuf", "Elif", "Mehmet", "Ayşe"],
        ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Öztürk"],
        ["34710 Kadıköy/İstanbul", "06420 Çankaya/Ankara", "35220 Konak/İzmir"],
        ["gmail.com", "hotmail.com", "yandex.com.tr"], "{s} Sok. No:{n}")
country("SG", ["Wei Ling", "Jun Jie", "Priya", "Hafiz", "Mei", "Ryan"],
        ["Tan", "Lim", "Ng", "Wong", "Rahman", "Goh"],
        ["Singapore 238859", "Singapore 529510", "Singapore 059413"], ["gmail.com", "singnet.com.sg"],
        "{n} {s} Road")
country("AE", ["Omar", "Fatima", "Ahmed", "Mariam", "Khalid", "Aisha"],
        ["Al Mansoori", "Al Hashimi", "Khan", "Haddad", "Al Suwaidi", "Nasser"],
        ["Dubai Marina, Dubai", "Al Reem Island, Abu Dhabi"], ["gmail.com", "eim.ae"], "Villa {n}, {s} St")
country("NG", ["Chinedu", "Ngozi", "Tunde", "Amaka", "Emeka", "Funmi"],
        ["Okafor", "Adeyemi", "Balogun", "Eze", "Nwosu", "Ibrahim"],
        ["Lekki, Lagos", "Wuse II, Abuja", "GRA, Port Harcourt"], ["gmail.com", "yahoo.com"], "{n} {s} Crescent")
country("KE", ["Wanjiru", "Otieno", "Achieng", "Kamau", "Njeri", "Mwangi"],
        ["Kariuki", "Odhiambo", "Mutua", "Kiprop", "Wambui", "Omondi"],
        ["Westlands, Nairobi", "Nyali, Mombasa"], ["gmail.com", "yahoo.com"], "{s} Road, House {n}")
country("RU", ["Алексей", "Мария", "Дмитрий", "Анна", "Сергей", "Екатерина"],
        ["Иванов", "Смирнова", "Кузнецов", "Попова", "Соколов", "Лебедева"],
        ["Москва 101000", "Санкт-Петербург 190000", "Казань 420111"], ["mail.ru", "yandex.ru", "gmail.com"],
        "ул. {s}, д. {n}")
country("UA", ["Олена", "Андрій", "Ірина", "Тарас", "Оксана", "Максим"],
        ["Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Мельник", "Кравчук"],
        ["Київ 01001", "Львів 79000", "Одеса 65000"], ["ukr.net", "gmail.com"], "вул. {s}, {n}")
country("PH", ["Juan", "Maria", "Jose", "Angelica", "Mark", "Kristine"],
        ["Santos", "Reyes", "Cruz", "Bautista", "Garcia", "Mendoza"],
        ["Makati City 1226", "Quezon City 1100", "Cebu City 6000"], ["gmail.com", "yahoo.com.ph"],
        "{n} {s} St.")
country("AR", ["Mateo", "Sofía", "Benjamín", "Valentina", "Tomás", "Camila"],
        ["González", "Rodríguez", "Gómez", "Fernández", "López", "Díaz"],
        ["C1043 CABA", "X5000 Córdoba", "S2000 Rosario"], ["gmail.com", "hotmail.com", "fibertel.com.ar"],
        "Av. {s} {n}")

STREET_WORDS = ["Oak", "Maple", "Linden", "Church", "Mill", "Station", "Park", "Garden", "River", "Hill",
                "Birken", "Rosen", "Victor Hugo", "Garibaldi", "Mayor", "Lake", "Cedar", "Harbour"]

ASCII_FOLD = str.maketrans({"é": "e", "è": "e", "ü": "u", "ö": "o", "ä": "a", "á": "a", "í": "i", "ó": "o",
                            "ú": "u", "ñ": "n", "ç": "c", "ø": "o", "å": "a", "ş": "s", "ı": "i", "ğ": "g",
                            "Ç": "C", "Ö": "O", "Ş": "S", "Á": "A", "É": "E", "ł": "l", "ś": "s", "ń": "n",
                            "ć": "c", "ż": "z", "ź": "z", "ę": "e", "ą": "a", "ã": "a", "ê": "e", "ô": "o",
                            "'": "", " ": ""})
CYR = {"Алексей": "alexey", "Мария": "maria", "Дмитрий": "dmitry", "Анна": "anna", "Сергей": "sergey",
       "Екатерина": "ekaterina", "Иванов": "ivanov", "Смирнова": "smirnova", "Кузнецов": "kuznetsov",
       "Попова": "popova", "Соколов": "sokolov", "Лебедева": "lebedeva", "Олена": "olena", "Андрій": "andriy",
       "Ірина": "iryna", "Тарас": "taras", "Оксана": "oksana", "Максим": "maksym", "Шевченко": "shevchenko",
       "Коваленко": "kovalenko", "Бондаренко": "bondarenko", "Ткаченко": "tkachenko", "Мельник": "melnyk",
       "Кравчук": "kravchuk"}


def asciify(s):
    if s in CYR:
        return CYR[s]
    return s.translate(ASCII_FOLD).lower()


COMPANY_DOMAINS = ["harborline.io", "kestrelpay.com", "northwind-logistics.de", "bluefinch.app", "lumenworks.co.uk",
                   "tidewater.fr", "pinecrest-health.org", "quillmetrics.com", "copperleaf.dev", "arcadia-retail.es",
                   "veldtlabs.co.za", "sakura-denki.jp", "fjordbyte.no", "orchardhq.com", "brightwave.in"]

_used_emails = set()


def email_for(first, last, domains=None):
    f, l = asciify(first), asciify(last)
    for _ in range(50):
        style = R.randrange(6)
        if style == 0:
            local = "%s.%s" % (f, l)
        elif style == 1:
            local = "%s%s%d" % (f[0], l, R.randint(1, 99))
        elif style == 2:
            local = "%s_%s%d" % (f, l, R.randint(70, 2004))
        elif style == 3:
            local = "%s.%s+%s" % (f, l, pick(["shop", "news", "billing", "work"]))
        elif style == 4:
            local = "%s%s" % (f, R.randint(100, 9999))
        else:
            local = "%s-%s" % (l, f[:1])
        dom = pick(domains) if domains else pick(["gmail.com", "outlook.com", "proton.me", "yahoo.com"])
        e = "%s@%s" % (local, dom)
        if e not in _used_emails:
            _used_emails.add(e)
            return e
    return "%s.%s.%d@%s" % (f, l, R.randint(1000, 9999), dom)


def work_email(first, last):
    return email_for(first, last, COMPANY_DOMAINS)


# ---------------------------------------------------------------------------
# phones: (national, international) generators per country
# ---------------------------------------------------------------------------

def _d(n):
    return digits(n)


def _nz(n):
    return str(R.randint(1, 9)) + digits(n - 1)


def phone_US():
    a = pick(["415", "646", "312", "206", "617", "512", "303", "404", "503", "702", "919", "213"])
    ex = str(R.randint(2, 9)) + _d(2)
    while ex == "555":
        ex = str(R.randint(2, 9)) + _d(2)
    ln = _d(4)
    return pick(["(%s) %s-%s", "%s-%s-%s", "%s.%s.%s"]) % (a, ex, ln), pick(["+1 %s %s %s", "+1-%s-%s-%s", "+1 (%s) %s-%s"]) % (a, ex, ln)


def phone_CA():
    a = pick(["416", "514", "604", "403", "613", "902"])
    ex, ln = str(R.randint(2, 9)) + _d(2), _d(4)
    return "(%s) %s-%s" % (a, ex, ln), "+1 %s-%s-%s" % (a, ex, ln)


def phone_GB():
    if chance(0.7):
        p = "7" + pick(["4", "5", "8", "9"]) + _d(2)
        r = _d(6)
        while p == "7700":
            p = "7" + pick(["4", "5", "8", "9"]) + _d(2)
        return "0%s %s" % (p, r), pick(["+44 %s %s", "+44 (0)%s %s"]) % (p, r)
    a, b = pick(["20 3", "20 8", "161 4", "113 2", "131 3"]).split(" ")
    r = _d(3) + " " + _d(4)
    return "0%s %s%s" % (a, b, r), "+44 %s %s%s" % (a, b, r)


def phone_DE():
    if chance(0.6):
        p = pick(["151", "152", "160", "162", "170", "171", "176", "179"])
        r = _nz(8)
        return "0%s %s" % (p, r), pick(["+49 %s %s", "+49 (0)%s %s", "+49-%s-%s"]) % (p, r)
    a = pick(["30", "89", "40", "221", "69", "711"])
    r = _nz(7)
    return "0%s %s" % (a, r), "+49 %s %s" % (a, r)


def phone_FR():
    p = pick(["6", "7", "1", "4", "9"])
    g = [_d(2) for _ in range(4)]
    return "0%s %s" % (p, " ".join(g)), pick(["+33 %s %s", "+33 (0)%s %s"]) % (p, " ".join(g))


def phone_ES():
    p = pick(["6", "7", "9"]) + _d(2)
    a, b = _d(3), _d(3)
    return "%s %s %s" % (p, a, b), "+34 %s %s %s" % (p, a, b)


def phone_IT():
    p = "3" + pick(["20", "33", "38", "40", "47", "49"])
    r = _d(3) + " " + _d(4)
    return "%s %s" % (p, r), "+39 %s %s" % (p, r)


def phone_NL():
    r = _nz(8)
    return "06-%s" % r, pick(["+31 6 %s", "+31 (0)6 %s", "+316%s"]) % r


def phone_BE():
    p = pick(["470", "471", "475", "477", "486", "495"])
    g = "%s %s %s" % (_d(2), _d(2), _d(2))
    return "0%s %s" % (p, g), "+32 %s %s" % (p, g)


def phone_CH():
    p = pick(["76", "77", "78", "79"])
    g = "%s %s %s" % (_d(3), _d(2), _d(2))
    return "0%s %s" % (p, g), "+41 %s %s" % (p, g)


def phone_AT():
    p = pick(["664", "660", "676", "699", "650"])
    r = _nz(7)
    return "0%s %s" % (p, r), "+43 %s %s" % (p, r)


def phone_SE():
    p = pick(["70", "72", "73", "76"])
    g = "%s %s %s" % (_d(3), _d(2), _d(2))
    return "0%s-%s" % (p, g), "+46 %s %s" % (p, g)


def phone_NO():
    g = "%s %s %s" % (pick(["4", "9"]) + _d(2), _d(2), _d(3))
    return g, "+47 %s" % g


def phone_DK():
    g = "%s %s %s %s" % (pick(["20", "22", "26", "30", "40", "42", "51", "61"]), _d(2), _d(2), _d(2))
    return g, "+45 %s" % g


def phone_FI():
    p = pick(["40", "44", "45", "50"])
    r = _d(3) + " " + _d(4)
    return "0%s %s" % (p, r), "+358 %s %s" % (p, r)


def phone_PL():
    p = pick(["5", "6", "7", "8"]) + _d(2)
    a, b = _d(3), _d(3)
    return pick(["%s %s %s", "%s-%s-%s"]) % (p, a, b), "+48 %s %s %s" % (p, a, b)


def phone_PT():
    p = "9" + pick(["1", "2", "3", "6"]) + _d(1)
    a, b = _d(3), _d(3)
    return "%s %s %s" % (p, a, b), "+351 %s %s %s" % (p, a, b)


def phone_IE():
    p = pick(["83", "85", "86", "87", "89"])
    r = _d(3) + " " + _d(4)
    return "0%s %s" % (p, r), "+353 %s %s" % (p, r)


def phone_IN():
    m = pick(["9", "8", "7", "6"]) + _d(4)
    r = _d(5)
    return pick(["0%s %s", "%s %s"]) % (m, r), pick(["+91 %s %s", "+91-%s%s", "+91 %s-%s"]) % (m, r)


def phone_BR():
    a = pick(["11", "21", "31", "41", "51", "61", "71", "81"])
    r1, r2 = "9" + _d(4), _d(4)
    return "(%s) %s-%s" % (a, r1, r2), "+55 %s %s-%s" % (a, r1, r2)


def phone_MX():
    a = pick(["55", "33", "81"])
    r = _d(4) + " " + _d(4)
    return "%s %s" % (a, r), pick(["+52 %s %s", "+52 1 %s %s"]) % (a, r)


def phone_AR():
    r = _d(4) + "-" + _d(4)
    return "011 15-%s" % r, "+54 9 11 %s" % r


def phone_JP():
    if chance(0.7):
        p = pick(["090", "080", "070"])
        a, b = _d(4), _d(4)
        return "%s-%s-%s" % (p, a, b), "+81 %s-%s-%s" % (p[1:], a, b)
    a, b = _d(4), _d(4)
    return "03-%s-%s" % (a, b), "+81 3-%s-%s" % (a, b)


def phone_KR():
    a, b = _d(4), _d(4)
    return "010-%s-%s" % (a, b), "+82 10-%s-%s" % (a, b)


def phone_CN():
    p = pick(["138", "139", "135", "186", "158", "177", "199"])
    a, b = _d(4), _d(4)
    return "%s %s %s" % (p, a, b), pick(["+86 %s %s %s", "+86-%s-%s-%s"]) % (p, a, b)


def phone_AU():
    if chance(0.7):
        p = "4" + _d(2)
        a, b = _d(3), _d(3)
        return "0%s %s %s" % (p, a, b), "+61 %s %s %s" % (p, a, b)
    a = pick(["2", "3", "7", "8"])
    r = _nz(4) + " " + _d(4)
    return "(0%s) %s" % (a, r), "+61 %s %s" % (a, r)


def phone_NZ():
    p = pick(["21", "22", "27", "29"])
    r = _d(3) + " " + _d(4)
    return "0%s %s" % (p, r), "+64 %s %s" % (p, r)


def phone_ZA():
    p = pick(["82", "83", "72", "73", "61", "84"])
    r = _d(3) + " " + _d(4)
    return "0%s %s" % (p, r), "+27 %s %s" % (p, r)


def phone_NG():
    p = pick(["803", "806", "813", "816", "703", "903", "805"])
    r = _d(3) + " " + _d(4)
    return "0%s %s" % (p, r), "+234 %s %s" % (p, r)


def phone_KE():
    p = pick(["712", "722", "733", "700", "110"])
    r = _d(6)
    return "0%s %s" % (p, r), "+254 %s %s" % (p, r)


def phone_TR():
    p = pick(["532", "533", "542", "505", "555", "544"])
    g = "%s %s %s" % (_d(3), _d(2), _d(2))
    return "0%s %s" % (p, g), "+90 %s %s" % (p, g)


def phone_RU():
    p = "9" + _d(2)
    a, b, c = _d(3), _d(2), _d(2)
    return "8 (%s) %s-%s-%s" % (p, a, b, c), pick(["+7 %s %s-%s-%s", "+7 (%s) %s-%s-%s"]) % (p, a, b, c)


def phone_UA():
    p = pick(["67", "50", "63", "93", "97"])
    r = _d(3) + " " + _d(2) + " " + _d(2)
    return "0%s %s" % (p, r), "+380 %s %s" % (p, r)


def phone_AE():
    p = pick(["50", "52", "55", "56"])
    r = _d(3) + " " + _d(4)
    return "0%s %s" % (p, r), "+971 %s %s" % (p, r)


def phone_SG():
    r = pick(["8", "9"]) + _d(3) + " " + _d(4)
    return r, "+65 %s" % r


def phone_PH():
    p = "9" + pick(["17", "18", "27", "05", "99"])
    r = _d(3) + " " + _d(4)
    return "0%s %s" % (p, r), "+63 %s %s" % (p, r)


PHONE = {k[6:]: v for k, v in list(globals().items()) if k.startswith("phone_")}


def phone(cc, intl=None):
    nat, itl = PHONE[cc]()
    if intl is None:
        intl = chance(0.5)
    return itl if intl else nat


# ---------------------------------------------------------------------------
# cards
# ---------------------------------------------------------------------------

def _card(prefix, length):
    body = prefix + digits(length - len(prefix) - 1)
    return body + luhn_check_digit(body)


def card_raw(brand=None):
    brand = brand or pick(["visa", "visa", "visa", "mc", "mc", "amex", "discover", "jcb", "diners", "unionpay",
                           "maestro", "mir", "rupay", "elo", "troy"])
    if brand == "visa":
        return brand, _card("4" + digits(R.choice([3, 5])), 16)
    if brand == "mc":
        return brand, _card(pick([str(R.randint(51, 55)), str(R.randint(2221, 2720))]), 16)
    if brand == "amex":
        return brand, _card(pick(["34", "37"]), 15)
    if brand == "discover":
        return brand, _card(pick(["6011", "65" + digits(2), "644"]), 16)
    if brand == "jcb":
        return brand, _card(str(R.randint(3528, 3589)), 16)
    if brand == "diners":
        return brand, _card(pick(["36", "38", "300", "305"]), 14)
    if brand == "unionpay":
        return brand, _card("62" + pick(["2126", "4", "5", "6", "8"]), pick([16, 16, 19]))
    if brand == "maestro":
        return brand, _card(pick(["6759", "5018", "5020", "6304"]), pick([16, 19]))
    if brand == "mir":
        return brand, _card("220" + str(R.randint(0, 4)), 16)
    if brand == "rupay":
        return brand, _card(pick(["6080", "6521", "6522", "8171"]), 16)
    if brand == "elo":
        return brand, _card(pick(["636368", "438935", "504175", "451416"]), 16)
    return brand, _card("9792", 16)


def card_fmt(num, style=None):
    style = style if style is not None else R.randrange(4)
    if style == 0:
        return num
    sep = " " if style in (1, 3) else "-"
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    if len(num) == 14:
        return sep.join([num[:4], num[4:10], num[10:]])
    groups = [num[i:i + 4] for i in range(0, len(num), 4)]
    return sep.join(groups)


def card(brand=None, style=None):
    b, n = card_raw(brand)
    return card_fmt(n, style)


# ---------------------------------------------------------------------------
# IBAN
# ---------------------------------------------------------------------------

def _iban_num(s):
    return "".join(str(int(ch, 36)) for ch in s)


def iban_from_bban(cc, bban):
    chk = 98 - int(_iban_num(bban + cc + "00")) % 97
    return "%s%02d%s" % (cc, chk, bban)


def _es_dc(ten):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]
    s = sum(int(d) * w[i] for i, d in enumerate(ten))
    d = 11 - s % 11
    return {10: 1, 11: 0}.get(d, d)


def _bban(cc):
    if cc == "DE":
        return _nz(8) + digits(10)
    if cc == "FR":
        bank, branch, acct = _nz(5), digits(5), digits(11)
        key = 97 - (89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97
        return bank + branch + acct + "%02d" % key
    if cc == "GB":
        return pick(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "TSBS"]) + digits(6) + digits(8)
    if cc == "ES":
        bank, branch, acct = _nz(4), digits(4), digits(10)
        return bank + branch + str(_es_dc("00" + bank + branch)) + str(_es_dc(acct)) + acct
    if cc == "IT":
        return rs(UP, 1) + pick(["03069", "02008", "05034", "01030"]) + digits(5) + digits(12)
    if cc == "NL":
        while True:
            acct = _nz(10)
            if sum(int(d) * (10 - i) for i, d in enumerate(acct)) % 11 == 0:
                return pick(["ABNA", "INGB", "RABO", "SNSB", "TRIO", "KNAB"]) + acct
    if cc == "BE":
        first = _nz(3) + digits(7)
        c = int(first) % 97 or 97
        return first + "%02d" % c
    if cc == "CH":
        return pick(["00762", "00700", "00235", "08390"]) + digits(12)
    if cc == "AT":
        return _nz(5) + digits(11)
    if cc == "PL":
        return _nz(8) + digits(16)
    if cc == "PT":
        first = pick(["0033", "0035", "0007", "0018"]) + digits(4) + digits(11)
        return first + "%02d" % (98 - (int(first) * 100) % 97)
    if cc == "SE":
        return _nz(3) + digits(17)
    if cc == "NO":
        while True:
            ten = _nz(10)
            w = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
            k = 11 - sum(int(d) * w[i] for i, d in enumerate(ten)) % 11
            if k == 11:
                k = 0
            if k != 10:
                return ten + str(k)
    if cc == "DK":
        return _nz(4) + digits(10)
    if cc == "FI":
        return _nz(6) + digits(8)
    if cc == "IE":
        return pick(["AIBK", "BOFI", "IPBS"]) + digits(6) + digits(8)
    if cc == "LU":
        return digits(3) + digits(13)
    if cc == "GR":
        return digits(3) + digits(4) + digits(16)
    if cc == "CZ":
        return pick(["0800", "0100", "2010", "0300"]) + digits(6) + digits(10)
    if cc == "HU":
        return digits(24)
    if cc == "RO":
        return pick(["BTRL", "RNCB", "BRDE", "INGB"]) + rs(UP + DIG, 16)
    if cc == "TR":
        return digits(5) + "0" + digits(16)
    if cc == "SA":
        return digits(2) + digits(18)
    if cc == "AE":
        return digits(3) + digits(16)
    if cc == "BR":
        return digits(8) + digits(5) + digits(10) + pick("CP") + "1"
    if cc == "HR":
        return digits(7) + digits(10)
    if cc == "EE":
        return digits(2) + digits(14)
    raise KeyError(cc)


IBAN_CC = ["DE", "FR", "GB", "ES", "IT", "NL", "BE", "CH", "AT", "PL", "PT", "SE", "NO", "DK", "FI", "IE", "LU",
           "GR", "CZ", "HU", "RO", "TR", "SA", "AE", "BR", "HR", "EE"]


def iban(cc=None, spaced=None):
    cc = cc or pick(IBAN_CC)
    v = iban_from_bban(cc, _bban(cc))
    if spaced is None:
        spaced = chance(0.5)
    if spaced:
        v = " ".join(v[i:i + 4] for i in range(0, len(v), 4))
    return v


# ---------------------------------------------------------------------------
# national identifiers
# ---------------------------------------------------------------------------

def ssn():
    while True:
        a = R.randint(1, 899)
        if a == 666:
            continue
        v = "%03d-%02d-%04d" % (a, R.randint(1, 99), R.randint(1, 9999))
        if v not in ("078-05-1120", "123-45-6789", "219-09-9999"):
            return v


def uk_nino(spaced=None):
    f1 = "ABCEGHJKLMNOPRSTWXYZ"
    f2 = "ABCEGHJKLMNPRSTWXYZ"
    while True:
        p = pick(f1) + pick(f2)
        if p not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            break
    d = digits(6)
    s = pick("ABCD")
    if spaced is None:
        spaced = chance(0.5)
    return "%s %s %s %s %s" % (p, d[:2], d[2:4], d[4:], s) if spaced else p + d + s


def ca_sin():
    body = pick("1234567") + digits(7)
    v = body + luhn_check_digit(body)
    return pick(["%s-%s-%s", "%s %s %s", "%s%s%s"]) % (v[:3], v[3:6], v[6:])


def fr_nir(spaced=None):
    sex = pick("12")
    yy = "%02d" % R.randint(0, 99)
    mm = "%02d" % R.randint(1, 12)
    dept = "%02d" % pick([i for i in range(1, 96) if i != 20])
    com = "%03d" % R.randint(1, 990)
    order = "%03d" % R.randint(1, 999)
    base = sex + yy + mm + dept + com + order
    key = "%02d" % (97 - int(base) % 97)
    if spaced is None:
        spaced = chance(0.5)
    if spaced:
        return " ".join([sex, yy, mm, dept, com, order, key])
    return base + key


def de_tax_id(spaced=None):
    while True:
        ds = list(range(10))
        R.shuffle(ds)
        ten = ds[1:] + [ds[1]]  # ds[0] missing, ds[1] twice
        R.shuffle(ten)
        if ten[0] != 0:
            break
    s = "".join(map(str, ten))
    v = s + iso7064_mod11_10(s)
    if spaced is None:
        spaced = chance(0.3)
    return "%s %s %s %s" % (v[:2], v[2:5], v[5:8], v[8:]) if spaced else v


def aadhaar():
    b = pick("23456789") + digits(10)
    v = b + verhoeff_digit(b)
    return pick(["%s %s %s", "%s-%s-%s", "%s%s%s"]) % (v[:4], v[4:8], v[8:])


def es_dni():
    n = R.randint(1000000, 99999999)
    return "%08d%s" % (n, "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23])


_CF_ODD = {"0": 1, "1": 0, "2": 5, "3": 7, "4": 9, "5": 13, "6": 15, "7": 17, "8": 19, "9": 21,
           "A": 1, "B": 0, "C": 5, "D": 7, "E": 9, "F": 13, "G": 15, "H": 17, "I": 19, "J": 21, "K": 2, "L": 4,
           "M": 18, "N": 20, "O": 11, "P": 3, "Q": 6, "R": 8, "S": 12, "T": 14, "U": 16, "V": 10, "W": 22,
           "X": 25, "Y": 24, "Z": 23}


def _cf_part(name, is_first):
    n = asciify(name).upper()
    cons = [c for c in n if c in UP and c not in "AEIOU"]
    vow = [c for c in n if c in "AEIOU"]
    if is_first and len(cons) > 3:
        cons = [cons[0], cons[2], cons[3]]
    return "".join((cons + vow + ["X", "X", "X"])[:3])


def it_cf(first=None, last=None):
    first = first or pick(COUNTRIES["IT"]["first"])
    last = last or pick(COUNTRIES["IT"]["last"])
    y, m, d = rand_dob()
    female = chance(0.5)
    s = _cf_part(last, False) + _cf_part(first, True) + "%02d" % (y % 100) + "ABCDEHLMPRST"[m - 1]
    s += "%02d" % (d + 40 if female else d)
    s += pick(["H501", "F205", "L219", "F839", "G273", "A944", "D612", "L736", "A662", "C351"])
    tot = 0
    for i, ch in enumerate(s):
        if i % 2 == 0:
            tot += _CF_ODD[ch]
        else:
            tot += int(ch) if ch in DIG else ord(ch) - 65
    return s + UP[tot % 26]


def nl_bsn():
    while True:
        b = _nz(8)
        s = sum(int(d) * (9 - i) for i, d in enumerate(b))
        c = s % 11
        if c < 10:
            return b + str(c)


def be_nrn(fmt=None):
    y, m, d = rand_dob(1950, 1999)
    seq = "%03d" % R.randint(1, 998)
    base = "%02d%02d%02d%s" % (y % 100, m, d, seq)
    chk = 97 - int(base) % 97
    v = base + "%02d" % chk
    if fmt is None:
        fmt = chance(0.6)
    return "%s.%s.%s-%s.%s" % (v[:2], v[2:4], v[4:6], v[6:9], v[9:]) if fmt else v


def pt_nif():
    while True:
        b = pick("12356") + digits(7)
        s = sum(int(d) * (9 - i) for i, d in enumerate(b))
        c = 11 - s % 11
        if c >= 10:
            c = 0
        return b + str(c)


def pl_pesel():
    y, m, d = rand_dob(1950, 2009)
    mm = m + (20 if y >= 2000 else 0)
    b = "%02d%02d%02d" % (y % 100, mm, d) + digits(4)
    w = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]
    c = (10 - sum(int(x) * w[i] for i, x in enumerate(b)) % 10) % 10
    return b + str(c)


def se_pnr():
    y, m, d = rand_dob(1950, 2004)
    b = "%02d%02d%02d" % (y % 100, m, d) + digits(3)
    v = b + luhn_check_digit(b)
    if chance(0.4):
        return "%d%s-%s" % (y // 100, v[:6], v[6:])
    return "%s-%s" % (v[:6], v[6:])


def no_fnr():
    while True:
        y, m, d = rand_dob(1950, 1999)
        b = "%02d%02d%02d" % (d, m, y % 100) + "%03d" % R.randint(0, 499)
        w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
        k1 = 11 - sum(int(x) * w1[i] for i, x in enumerate(b)) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        b += str(k1)
        w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        k2 = 11 - sum(int(x) * w2[i] for i, x in enumerate(b)) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 == 10:
            continue
        return b + str(k2)


def fi_hetu():
    y, m, d = rand_dob(1950, 2005)
    n = "%03d" % R.randint(2, 899)
    num = int("%02d%02d%02d%s" % (d, m, y % 100, n))
    c = "0123456789ABCDEFHJKLMNPRSTUVWXY"[num % 31]
    return "%02d%02d%02d%s%s%s" % (d, m, y % 100, "-" if y < 2000 else "A", n, c)


def ie_ppsn():
    b = digits(7)
    s = sum(int(x) * (8 - i) for i, x in enumerate(b))
    return b + "WABCDEFGHIJKLMNOPQRSTUV"[s % 23]


def ch_ahv():
    b = "756" + digits(9)
    s = sum(int(x) * (1 if i % 2 == 0 else 3) for i, x in enumerate(b))
    c = (10 - s % 10) % 10
    v = b + str(c)
    return "%s.%s.%s.%s" % (v[:3], v[3:7], v[7:11], v[11:])


def br_cpf(fmt=None):
    while True:
        b = [R.randint(0, 9) for _ in range(9)]
        if len(set(b)) > 1:
            break
    d1 = sum(b[i] * (10 - i) for i in range(9)) * 10 % 11 % 10
    b.append(d1)
    d2 = sum(b[i] * (11 - i) for i in range(10)) * 10 % 11 % 10
    b.append(d2)
    s = "".join(map(str, b))
    if fmt is None:
        fmt = chance(0.7)
    return "%s.%s.%s-%s" % (s[:3], s[3:6], s[6:9], s[9:]) if fmt else s


def kr_rrn():
    y, m, d = rand_dob(1950, 1999)
    b = "%02d%02d%02d" % (y % 100, m, d) + pick("12") + digits(5)
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    c = (11 - sum(int(x) * w[i] for i, x in enumerate(b)) % 11) % 10
    v = b + str(c)
    return v[:6] + "-" + v[6:]


def cn_ric():
    area = pick(["110105", "310115", "440305", "330106", "510107", "420111", "320102"])
    y, m, d = rand_dob(1955, 2004)
    b = area + "%04d%02d%02d" % (y, m, d) + digits(3)
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return b + "10X98765432"[sum(int(x) * w[i] for i, x in enumerate(b)) % 11]


def au_tfn():
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    while True:
        b = _nz(8)
        for last in range(10):
            v = b + str(last)
            if sum(int(x) * w[i] for i, x in enumerate(v)) % 11 == 0:
                return "%s %s %s" % (v[:3], v[3:6], v[6:])


def za_id():
    y, m, d = rand_dob(1950, 2003)
    b = "%02d%02d%02d" % (y % 100, m, d) + digits(4) + pick("01") + "8"
    return b + luhn_check_digit(b)


def tr_tckn():
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d.append(d10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


def sg_nric():
    p = pick("ST")
    b = digits(7)
    w = [2, 7, 6, 5, 4, 3, 2]
    s = sum(int(x) * w[i] for i, x in enumerate(b)) + (4 if p == "T" else 0)
    return p + b + "JZIHGFEDCBA"[s % 11]


def nhs_number():
    while True:
        b = _nz(9)
        s = sum(int(x) * (10 - i) for i, x in enumerate(b))
        c = 11 - s % 11
        if c == 11:
            c = 0
        if c == 10:
            continue
        v = b + str(c)
        return pick(["%s %s %s", "%s-%s-%s"]) % (v[:3], v[3:6], v[6:])


NATIONAL = {"US": ("ssn", ssn), "GB": ("uk_nino", uk_nino), "CA": ("ca_sin", ca_sin), "FR": ("fr_nir", fr_nir),
            "DE": ("de_tax_id", de_tax_id), "ES": ("es_dni", es_dni), "IT": ("it_codice_fiscale", it_cf),
            "NL": ("nl_bsn", nl_bsn), "BE": ("be_nrn", be_nrn), "PT": ("pt_nif", pt_nif),
            "PL": ("pl_pesel", pl_pesel), "SE": ("se_personnummer", se_pnr), "NO": ("no_fnr", no_fnr),
            "FI": ("fi_hetu", fi_hetu), "IE": ("ie_ppsn", ie_ppsn), "CH": ("ch_ahv", ch_ahv),
            "IN": ("aadhaar", aadhaar), "BR": ("br_cpf", br_cpf), "KR": ("kr_rrn", kr_rrn), "CN": ("cn_ric", cn_ric),
            "AU": ("au_tfn", au_tfn), "ZA": ("za_id", za_id), "TR": ("tr_tckn", tr_tckn), "SG": ("sg_nric", sg_nric)}

IBAN_OF = {c: c for c in IBAN_CC}


class Person(object):
    def __init__(self, cc=None):
        self.cc = cc or pick(sorted(COUNTRIES))
        c = COUNTRIES[self.cc]
        self.first = pick(c["first"])
        self.last = pick(c["last"])
        self.name = "%s %s" % (self.first, self.last)
        self.email = email_for(self.first, self.last, c["mail"])
        self.phone = phone(self.cc)
        self.city = pick(c["cities"])
        self.street = c["street"].format(n=R.randint(1, 240), s=pick(STREET_WORDS))
        y, m, d = rand_dob()
        self.dob = "%04d-%02d-%02d" % (y, m, d)
        self.iban = iban(self.cc) if self.cc in IBAN_OF else None
        self.nid = (NATIONAL[self.cc][0], NATIONAL[self.cc][1]()) if self.cc in NATIONAL else None


# ---------------------------------------------------------------------------
# secrets
# ---------------------------------------------------------------------------

def openai_key(style=None):
    style = style or pick(["proj", "proj", "proj", "proj", "svcacct", "legacy", "admin"])
    if style == "legacy":
        return "sk-" + rs(B62, 20) + "T3BlbkFJ" + rs(B62, 20)
    mid = rs(B62, 1) + rs(B62 + "-_", 72) + rs(B62, 1) + "T3BlbkFJ" + rs(B62, 1) + rs(B62 + "-_", 72) + rs(B62, 1)
    return {"proj": "sk-proj-", "svcacct": "sk-svcacct-", "admin": "sk-admin-"}[style] + mid


def anthropic_key():
    return "sk-ant-api03-" + rs(B62, 1) + rs(B62 + "-_", 91) + rs(B62, 1) + "AA"


def anthropic_admin_key():
    return "sk-ant-admin01-" + rs(B62, 1) + rs(B62 + "-_", 91) + rs(B62, 1) + "AA"


def github_token(prefix=None):
    prefix = prefix or pick(["ghp_", "ghp_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"])
    if prefix == "github_pat_":
        return "github_pat_" + "11" + rs(UP + DIG, 20) + "_" + rs(B62, 59)
    body = rs(B62, 30)
    return prefix + body + crc_b62(body)


def gitlab_token(kind=None):
    kind = kind or pick(["glpat-", "glpat-", "glpat-", "glrt-", "gldt-", "glptt-"])
    if kind == "glptt-":
        return "glptt-" + rs(HEX, 40)
    if kind == "glrt-":
        return "glrt-" + rs(B62 + "_-", 20)
    return kind + rs(B62, 1) + rs(B62 + "_-", 18) + rs(B62, 1)


def aws_key_id(temp=False):
    return ("ASIA" if temp else "AKIA") + rs(UP + "234567", 16)


def aws_secret():
    return rs(B62 + "/+", 40)


def aws_session_token():
    return "IQoJb3JpZ2luX2Vj" + rs(B62, 12) + rs(B64, 340) + "=="


def gcp_api_key():
    return "AIza" + "Sy" + rs(B62 + "-_", 33)


def gcp_client_secret():
    return "GOCSPX-" + rs(B62 + "-_", 28)


def gcp_access_token():
    return "ya29.a0" + rs(B62 + "-_", 180)


def gcp_refresh_token():
    return "1//0" + rs(B62, 1) + rs(B62 + "-_", 98)


def azure_storage_key():
    return b64(rbytes(64))


def azure_client_secret():
    return rs(B62, 3) + "8Q~" + rs(B62 + "~._-", 33) + rs(B62, 1)


def azure_openai_key():
    return rs(HEX, 32)


def azure_devops_pat():
    return rs("abcdefghijklmnopqrstuvwxyz234567", 52)


def azure_sas_sig():
    return b64(rbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def stripe_key(kind=None):
    kind = kind or pick(["sk_live_", "sk_live_", "sk_live_", "rk_live_", "sk_test_"])
    return kind + "51" + rs(B62, pick([22, 97]))


def stripe_whsec():
    return "whsec_" + rs(B62, 32)


def slack_token(kind=None):
    kind = kind or pick(["xoxb", "xoxb", "xoxp", "xapp"])
    if kind == "xoxb":
        return "xoxb-%s-%s-%s" % (_nz(11), _nz(13), rs(B62, 24))
    if kind == "xoxp":
        return "xoxp-%s-%s-%s-%s" % (_nz(11), _nz(11), _nz(13), rs(HEX, 32))
    return "xapp-1-A%s-%s-%s" % (rs(UP + DIG, 10), _nz(13), rs(HEX, 64))


def slack_webhook():
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(UP + DIG, 10), rs(UP + DIG, 10), rs(B62, 24))


def discord_webhook():
    return "https://%s/api/webhooks/%s/%s" % (pick(["discord.com", "discord.com", "discordapp.com"]), _nz(19),
                                             rs(B62, 1) + rs(B62 + "-_", 66) + rs(B62, 1))


def teams_webhook():
    org = pick(["contoso", "harborline", "kestrelpay", "lumenworks", "quillmetrics"])
    return "https://%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s/V2%s" % (
        org, uuid4(), uuid4(), rs(HEX, 32), uuid4(), rs(B62 + "-_", 40))


def discord_bot_token():
    uid = _nz(18)
    return b64(uid.encode()).rstrip("=") + "." + rs(B62 + "-_", 6) + "." + rs(B62 + "-_", 38)


def twilio_sid():
    return "AC" + rs(HEX, 32)


def twilio_token():
    return rs(HEX, 32)


def sendgrid_key():
    return "SG." + rs(B62 + "-_", 22) + "." + rs(B62 + "-_", 43)


def hf_token():
    return "hf_" + rs(UP + LO, 34)


def npm_token():
    body = rs(B62, 30)
    return "npm_" + body + crc_b62(body)


def pypi_token():
    return "pypi-AgEIcHlwaS5vcmcCJD" + rs(B62 + "-_", 150)


def dockerhub_token():
    return "dckr_pat_" + rs(B62 + "-_", 27)


def datadog_api():
    return rs(HEX, 32)


def datadog_app():
    return rs(HEX, 40)


def mailgun_key():
    return "key-" + rs(HEX, 32)


def mailchimp_key():
    return rs(HEX, 32) + "-us" + str(R.randint(1, 21))


def shopify_token():
    return pick(["shpat_", "shpat_", "shpss_", "shpca_"]) + rs(HEX, 32)


def sentry_token():
    return "sntryu_" + rs(HEX, 64)


def grafana_token():
    return "glsa_" + rs(B62, 32) + "_" + rs(HEX, 8)


def vault_token():
    return "hvs." + rs(B62, 24) if chance(0.5) else "hvs.CAESI" + rs(B62 + "-_", 86)


def terraform_token():
    return rs(B62, 14) + ".atlasv1." + rs(B62, 67)


def notion_token():
    return "ntn_" + _nz(11) + rs(B62, 35)


def linear_key():
    return "lin_api_" + rs(B62, 40)


def do_token():
    return "dop_v1_" + rs(HEX, 64)


def groq_key():
    return "gsk_" + rs(B62, 52)


def openrouter_key():
    return "sk-or-v1-" + rs(HEX, 64)


def replicate_token():
    return "r8_" + rs(B62, 37)


def telegram_token():
    return "%s:AA%s" % (_nz(10), rs(B62 + "-_", 33))


def postman_key():
    return "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34)


def newrelic_key():
    return "NRAK-" + rs(UP + DIG, 27)


def atlassian_token():
    return "ATATT3xFfGF0" + rs(B62 + "-_", 170) + "=" + rs(HEX.upper(), 8)


def supabase_token():
    return "sbp_" + rs(HEX, 40)


def tailscale_key():
    return "tskey-auth-k" + rs(B62, 10) + "CNTRL-" + rs(B62, 33)


def age_key():
    return "AGE-SECRET-KEY-1" + rs("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)


def figma_token():
    return "figd_" + rs(B62 + "-_", 40)


def square_token():
    return "EAAA" + rs(B62 + "-_", 60)


def cloudflare_token():
    return rs(B62 + "_-", 40)


def langsmith_key():
    return "lsv2_pt_" + rs(HEX, 32) + "_" + rs(HEX, 10)


def pinecone_key():
    return "pcsk_" + rs(B62, 5) + "_" + rs(B62, 60)


def mistral_key():
    return rs(B62, 32)


def cohere_key():
    return rs(B62, 40)


def rails_master_key():
    return rs(HEX, 32)


def k8s_static_token():
    return rs(B62, 32)


def auth0_client_secret():
    return rs(B62 + "-_", 64)


def okta_client_secret():
    return rs(B62 + "-_", 40)


def gh_oauth_secret():
    return rs(HEX, 40)


# --- passwords -------------------------------------------------------------

WORDS = ["Kestrel", "Harbor", "Granite", "Orbit", "Pylon", "Falcon", "Cobalt", "Juniper", "Nebula", "Marlin",
         "Saffron", "Tundra", "Quasar", "Walnut", "Lantern", "Meridian", "Raven", "Cedar", "Sparrow", "Vortex",
         "Mondschein", "Sonnenblume", "Papillon", "Mariposa", "Girasole", "Zonnebloem", "Krokodyl", "Fjaril",
         "Tormenta", "Pingwin", "Kirschbaum", "Citrouille", "Sakura", "Hanami", "Baikal", "Dragao", "Kaktus",
         "Biscotto", "Panda", "Zephyr", "Tangerine", "Bluebell", "Thistle", "Pumpkin", "Monsoon", "Ember"]
SYM = "!#%^*_-+=.?~"
URL_SYM = "-_.~!*"


def password(style=None, url_safe=False):
    syms = URL_SYM if url_safe else SYM
    style = style if style is not None else R.randrange(7)
    if style == 0:
        return pick(WORDS) + str(R.randint(10, 9999)) + pick(syms)
    if style == 1:
        w = pick(WORDS)
        leet = w.replace("a", "@" if not url_safe else "4").replace("o", "0").replace("e", "3").replace("i", "1")
        if leet == w:
            leet = w + "7"
        return leet + pick(syms) + str(R.randint(1, 99))
    if style == 2:
        n = R.randint(14, 24)
        while True:
            s = rs(B62 + syms, n)
            if any(c in DIG for c in s) and any(c in UP for c in s) and any(c in LO for c in s):
                return s
    if style == 3:
        ws = [pick(WORDS).lower() for _ in range(3)]
        return pick(["-", "_", "."]).join(ws) + str(R.randint(1, 99))
    if style == 4:
        return rs(B62, R.randint(16, 32))
    if style == 5:
        return pick(WORDS) + pick(["!", "#", "-", "_"]) + pick(WORDS).lower() + str(R.randint(1, 99))
    return rs(UP, 1) + rs(LO, R.randint(4, 7)) + str(R.randint(1000, 99999)) + pick(syms) + rs(UP, 1)


def gmail_app_password():
    return " ".join(rs(LO, 4) for _ in range(4))


# --- PEM / keys / JWT ------------------------------------------------------

def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def pem_private(kind=None):
    kind = kind or pick(["pkcs8_rsa", "rsa", "ec", "pkcs8_ec", "pkcs8_ec", "ed25519", "openssh", "openssh",
                         "encrypted"])
    if kind == "pkcs8_rsa":
        der = bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100") + rbytes(
            1154)
        return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % wrap(b64(der))
    if kind == "rsa":
        der = bytes.fromhex("308204a40201000282010100") + rbytes(1180)
        return "-----BEGIN RSA PRIVATE KEY-----\n%s\n-----END RSA PRIVATE KEY-----" % wrap(b64(der))
    if kind == "ec":
        der = bytes.fromhex("30770201010420") + rbytes(32) + bytes.fromhex(
            "a00a06082a8648ce3d030107a14403420004") + rbytes(64)
        return "-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----" % wrap(b64(der))
    if kind == "pkcs8_ec":
        der = bytes.fromhex(
            "308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420") + rbytes(32) + bytes.fromhex(
            "a14403420004") + rbytes(64)
        return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % wrap(b64(der))
    if kind == "ed25519":
        der = bytes.fromhex("302e020100300506032b657004220420") + rbytes(32)
        return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % b64(der)
    if kind == "encrypted":
        der = bytes.fromhex("308205243056") + rbytes(1316)
        return "-----BEGIN ENCRYPTED PRIVATE KEY-----\n%s\n-----END ENCRYPTED PRIVATE KEY-----" % wrap(b64(der))
    # openssh ed25519

    def sstr(b):
        return struct.pack(">I", len(b)) + b
    pub = rbytes(32)
    priv = rbytes(32)
    comment = ("%s@%s" % (pick(["deploy", "ci", "root", "ubuntu", "dev"]),
                          pick(["bastion", "build-01", "laptop", "runner-7"]))).encode()
    pubblob = sstr(b"ssh-ed25519") + sstr(pub)
    chk = rbytes(4)
    sec = chk + chk + sstr(b"ssh-ed25519") + sstr(pub) + sstr(priv + pub) + sstr(comment)
    i = 1
    while len(sec) % 8:
        sec += bytes([i])
        i += 1
    blob = b"openssh-key-v1\x00" + sstr(b"none") + sstr(b"none") + sstr(b"") + struct.pack(">I", 1) + sstr(
        pubblob) + sstr(sec)
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % wrap(b64(blob), 70)


def pem_cert():
    der = bytes.fromhex("308203") + rbytes(R.randint(700, 900))
    return "-----BEGIN CERTIFICATE-----\n%s\n-----END CERTIFICATE-----" % wrap(b64(der))


def ssh_pubkey():
    blob = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", 32) + rbytes(32)
    return "ssh-ed25519 %s %s@%s" % (b64(blob), pick(["ana", "jonas", "li.wei", "deploy"]),
                                     pick(["mbp", "thinkpad", "ci"]))


def _j(d):
    return b64url(json.dumps(d, separators=(",", ":")).encode())


def jwt(kind=None, **claims):
    kind = kind or pick(["hs", "hs", "rs", "es", "k8s", "supabase"])
    now = R.randint(1735689600, 1767225600)
    if kind == "k8s":
        hdr = {"alg": "RS256", "kid": rs(B62 + "-_", 43)}
        ns = pick(["default", "ci", "monitoring", "payments"])
        sa = pick(["deployer", "argocd-manager", "prometheus", "gitlab-runner"])
        pl = {"aud": ["https://kubernetes.default.svc.cluster.local"], "exp": now + 31536000, "iat": now,
              "iss": "https://kubernetes.default.svc.cluster.local",
              "kubernetes.io": {"namespace": ns, "serviceaccount": {"name": sa, "uid": uuid4()}},
              "nbf": now, "sub": "system:serviceaccount:%s:%s" % (ns, sa)}
        sig = 342
    elif kind == "supabase":
        hdr = {"alg": "HS256", "typ": "JWT"}
        pl = {"iss": "supabase", "ref": rs(LO, 20), "role": "service_role", "iat": now, "exp": now + 315360000}
        sig = 43
    else:
        hdr = {"alg": {"hs": "HS256", "rs": "RS256", "es": "ES256"}[kind], "typ": "JWT"}
        if kind != "hs":
            hdr["kid"] = rs(B62, 16)
        pl = {"sub": pick([uuid4(), str(R.randint(1000, 999999)), "auth0|" + rs(HEX, 24)]), "iat": now,
              "exp": now + pick([900, 3600, 86400])}
        if chance(0.5):
            pl["scope"] = pick(["read:orders write:orders", "openid profile", "admin", "api:all"])
        if chance(0.5):
            pl["iss"] = pick(["https://auth.harborline.io/", "https://kestrelpay.eu.auth0.com/", "accounts.bluefinch.app"])
        sig = {"hs": 43, "rs": 342, "es": 86}[kind]
    pl.update(claims)
    return _j(hdr) + "." + _j(pl) + "." + rs(B64U, sig)


# --- session cookies ---------------------------------------------------------

def session_cookie():
    k = R.randrange(8)
    if k == 0:
        return "sessionid", rs(LO + DIG, 32)
    if k == 1:
        return "connect.sid", "s%3A" + rs(B62 + "-_", 32) + "." + rs(B62 + "%", 43)
    if k == 2:
        return "_%s_session" % pick(["storefront", "admin", "app"]), rs(B64, 120).replace("+", "%2B").replace(
            "/", "%2F") + "--" + rs(B64, 24) + "--" + rs(B64, 22) + "%3D%3D"
    if k == 3:
        return "PHPSESSID", rs("abcdefghijklmnopqrstuv0123456789", 26)
    if k == 4:
        return "laravel_session", "eyJpdiI6I" + rs(B62, 150) + "%3D"
    if k == 5:
        return ".AspNetCore.Cookies", "CfDJ8" + rs(B62 + "-_", 300)
    if k == 6:
        return "session", _j({"user_id": R.randint(1, 99999), "_fresh": True}) + "." + rs(B62 + "-_", 6) + "." + rs(
            B62 + "-_", 27)
    return "JSESSIONID", rs("0123456789ABCDEF", 32)


# ---------------------------------------------------------------------------
# rows
# ---------------------------------------------------------------------------

class C(object):
    """Collects (value, kind) pairs while a template builds its text."""

    def __init__(self):
        self.pairs = []

    def __call__(self, value, kind):
        self.pairs.append((value, kind))
        return value


ROWS = []


def emit(text, c=None):
    pairs = c.pairs if c is not None else []
    for v, k in pairs:
        if v not in text:
            raise AssertionError("canary %r (%s) not in text: %r" % (v, k, text[:200]))
    ROWS.append({"text": text, "canaries": [v for v, _ in pairs], "kinds": [k for _, k in pairs]})


ORGS = ["harborline", "kestrelpay", "bluefinch", "lumenworks", "quillmetrics", "copperleaf", "orchardhq",
        "tidewater", "fjordbyte", "veldtlabs", "brightwave", "pinecrest"]
REPOS = ["api", "web", "infra", "billing-service", "etl", "mobile-app", "platform", "ml-pipeline", "docs",
         "terraform-modules", "helm-charts", "agent-runner"]
USERS = ["deploy", "svc_app", "app", "admin", "reporting", "etl_user", "backend", "ci", "analytics", "root"]
HOSTS = ["db.internal", "10.0.3.17", "pg-prod.cluster-c9xq2.eu-west-1.rds.amazonaws.com", "mysql-primary.svc",
         "db-01.prod.lan", "postgres.default.svc.cluster.local", "172.20.0.5", "orders-db.internal"]
DBN = ["orders", "app_production", "billing", "analytics", "crm", "inventory", "users", "shop"]


# Provider key catalogue: (kind, generator, env var name, host for curl/http, auth header style)
PROVIDERS = [
    ("openai_api_key", openai_key, "OPENAI_API_KEY", "api.openai.com", "bearer"),
    ("anthropic_api_key", anthropic_key, "ANTHROPIC_API_KEY", "api.anthropic.com", "x-api-key"),
    ("github_token", github_token, "GITHUB_TOKEN", "api.github.com", "bearer"),
    ("gitlab_token", lambda: gitlab_token("glpat-"), "GITLAB_TOKEN", "gitlab.com", "private-token"),
    ("stripe_secret_key", stripe_key, "STRIPE_SECRET_KEY", "api.stripe.com", "bearer"),
    ("sendgrid_api_key", sendgrid_key, "SENDGRID_API_KEY", "api.sendgrid.com", "bearer"),
    ("huggingface_token", hf_token, "HF_TOKEN", "huggingface.co", "bearer"),
    ("npm_token", npm_token, "NPM_TOKEN", "registry.npmjs.org", "bearer"),
    ("pypi_token", pypi_token, "TWINE_PASSWORD", "upload.pypi.org", "basic-pypi"),
    ("dockerhub_token", dockerhub_token, "DOCKERHUB_TOKEN", "hub.docker.com", "bearer"),
    ("slack_token", slack_token, "SLACK_BOT_TOKEN", "slack.com", "bearer"),
    ("gcp_api_key", gcp_api_key, "GOOGLE_API_KEY", "generativelanguage.googleapis.com", "x-goog-api-key"),
    ("datadog_api_key", datadog_api, "DD_API_KEY", "api.datadoghq.com", "dd-api-key"),
    ("mailgun_api_key", mailgun_key, "MAILGUN_API_KEY", "api.mailgun.net", "basic-api"),
    ("groq_api_key", groq_key, "GROQ_API_KEY", "api.groq.com", "bearer"),
    ("openrouter_api_key", openrouter_key, "OPENROUTER_API_KEY", "openrouter.ai", "bearer"),
    ("replicate_api_token", replicate_token, "REPLICATE_API_TOKEN", "api.replicate.com", "bearer"),
    ("notion_token", notion_token, "NOTION_TOKEN", "api.notion.com", "bearer"),
    ("linear_api_key", linear_key, "LINEAR_API_KEY", "api.linear.app", "raw"),
    ("digitalocean_token", do_token, "DIGITALOCEAN_TOKEN", "api.digitalocean.com", "bearer"),
    ("shopify_token", shopify_token, "SHOPIFY_ACCESS_TOKEN", "kestrel-store.myshopify.com", "x-shopify"),
    ("sentry_token", sentry_token, "SENTRY_AUTH_TOKEN", "sentry.io", "bearer"),
    ("grafana_token", grafana_token, "GRAFANA_TOKEN", "grafana.harborline.io", "bearer"),
    ("vault_token", vault_token, "VAULT_TOKEN", "vault.internal:8200", "x-vault-token"),
    ("postman_api_key", postman_key, "POSTMAN_API_KEY", "api.getpostman.com", "x-api-key"),
    ("newrelic_api_key", newrelic_key, "NEW_RELIC_API_KEY", "api.newrelic.com", "api-key"),
    ("supabase_token", supabase_token, "SUPABASE_ACCESS_TOKEN", "api.supabase.com", "bearer"),
    ("langsmith_api_key", langsmith_key, "LANGSMITH_API_KEY", "api.smith.langchain.com", "x-api-key"),
    ("pinecone_api_key", pinecone_key, "PINECONE_API_KEY", "api.pinecone.io", "api-key"),
    ("mistral_api_key", mistral_key, "MISTRAL_API_KEY", "api.mistral.ai", "bearer"),
    ("cohere_api_key", cohere_key, "COHERE_API_KEY", "api.cohere.com", "bearer"),
    ("figma_token", figma_token, "FIGMA_TOKEN", "api.figma.com", "x-figma-token"),
    ("square_access_token", square_token, "SQUARE_ACCESS_TOKEN", "connect.squareup.com", "bearer"),
    ("cloudflare_api_token", cloudflare_token, "CLOUDFLARE_API_TOKEN", "api.cloudflare.com", "bearer"),
    ("azure_openai_key", azure_openai_key, "AZURE_OPENAI_API_KEY", "kestrel-eastus.openai.azure.com", "api-key"),
    ("terraform_token", terraform_token, "TFE_TOKEN", "app.terraform.io", "bearer"),
    ("atlassian_api_token", atlassian_token, "JIRA_API_TOKEN", "harborline.atlassian.net", "basic-email"),
    ("twilio_auth_token", twilio_token, "TWILIO_AUTH_TOKEN", "api.twilio.com", "basic-sid"),
    ("anthropic_admin_key", anthropic_admin_key, "ANTHROPIC_ADMIN_KEY", "api.anthropic.com", "x-api-key"),
]
# the major ones get drawn more often
MAJOR = ["openai_api_key", "openai_api_key", "anthropic_api_key", "anthropic_api_key", "github_token", "gitlab_token", "stripe_secret_key",
         "sendgrid_api_key", "huggingface_token", "npm_token", "pypi_token", "dockerhub_token", "slack_token", "gcp_api_key",
         "datadog_api_key"]
PROV = {p[0]: p for p in PROVIDERS}


def provider(major_bias=0.65):
    if chance(major_bias):
        return PROV[pick(MAJOR)]
    return pick(PROVIDERS)


def auth_header(style, val, c, kind):
    if style == "bearer":
        return "Authorization: Bearer " + c(val, kind)
    if style == "x-api-key":
        return "x-api-key: " + c(val, kind)
    if style == "private-token":
        return "PRIVATE-TOKEN: " + c(val, kind)
    if style == "x-goog-api-key":
        return "x-goog-api-key: " + c(val, kind)
    if style == "dd-api-key":
        return "DD-API-KEY: " + c(val, kind)
    if style == "x-shopify":
        return "X-Shopify-Access-Token: " + c(val, kind)
    if style == "x-vault-token":
        return "X-Vault-Token: " + c(val, kind)
    if style == "api-key":
        return "api-key: " + c(val, kind)
    if style == "x-figma-token":
        return "X-Figma-Token: " + c(val, kind)
    if style == "raw":
        return "Authorization: " + c(val, kind)
    if style == "basic-api":
        return "Authorization: Basic " + c(b64(("api:" + val).encode()), "basic_auth")
    if style == "basic-email":
        return "Authorization: Basic " + c(b64(("%s:%s" % (work_email("ops", "bot"), val)).encode()), "basic_auth")
    if style == "basic-pypi":
        return "Authorization: Basic " + c(b64(("__token__:" + val).encode()), "basic_auth")
    if style == "basic-sid":
        return "Authorization: Basic " + c(b64(("%s:%s" % (twilio_sid(), val)).encode()), "basic_auth")
    raise KeyError(style)


def app_secret():
    return pick([rs(HEX, 64), rs(B62, 50), b64(rbytes(32)), "django-insecure-" + rs(LO + DIG + "!@#%^&*(-_=+)", 50)])


NS = ["default", "prod", "staging", "payments", "ml", "monitoring", "ci"]
BENIGN_CMDS = ["ls -la", "cd ~/src/{repo}", "git status", "git pull --rebase", "make test", "docker ps -a",
               "kubectl get pods -n {ns}", "vim .env", "terraform plan -out tf.plan", "python -m venv .venv",
               "source .venv/bin/activate", "pip install -r requirements.txt", "npm ci", "htop",
               "git log --oneline -5", "docker compose up -d", "kubectl logs -f deploy/{repo} -n {ns}",
               "cat ~/.ssh/config", "tail -f /var/log/nginx/error.log", "pytest -x -q", "go test ./...",
               "cargo build --release", "helm upgrade --install {repo} ./chart -n {ns}"]


def benign_cmd():
    return pick(BENIGN_CMDS).format(repo=pick(REPOS), ns=pick(NS))


def secret_cmd(c):
    k = R.randrange(26)
    user, host, db = pick(USERS), pick(HOSTS), pick(DBN)
    if k == 0:
        p = provider()
        return "export %s=%s" % (p[2], c(p[1](), p[0]))
    if k == 1:
        p = provider()
        return 'export %s="%s"' % (p[2], c(p[1](), p[0]))
    if k == 2:
        return "mysql -h %s -u %s -p'%s' %s" % (host, user, c(password(), "password"), db)
    if k == 3:
        return "mysql -u root -p%s -e 'show databases'" % c(password(style=pick([0, 2, 4, 6])), "password")
    if k == 4:
        return "PGPASSWORD='%s' psql -h %s -U %s %s" % (c(password(), "password"), host, user, db)
    if k == 5:
        return 'psql "postgresql://%s:%s@%s:5432/%s?sslmode=require"' % (user, c(password(url_safe=True), "url_credentials"), host, db)
    if k == 6:
        return "docker login -u %s -p %s" % (pick(ORGS), c(dockerhub_token(), "dockerhub_token"))
    if k == 7:
        return "echo %s | docker login ghcr.io -u %s --password-stdin" % (c(github_token("ghp_"), "github_token"), pick(ORGS))
    if k == 8:
        return "aws configure set aws_secret_access_key %s" % c(aws_secret(), "aws_secret_access_key")
    if k == 9:
        return "gh auth login --with-token <<< %s" % c(github_token(pick(["ghp_", "github_pat_"])), "github_token")
    if k == 10:
        return "npm config set //registry.npmjs.org/:_authToken %s" % c(npm_token(), "npm_token")
    if k == 11:
        return "twine upload -u __token__ -p %s dist/*" % c(pypi_token(), "pypi_token")
    if k == 12:
        return "huggingface-cli login --token %s" % c(hf_token(), "huggingface_token")
    if k == 13:
        return "sshpass -p '%s' ssh %s@10.20.%d.%d" % (c(password(), "password"), user, R.randint(0, 9), R.randint(2, 250))
    if k == 14:
        return "redis-cli -h %s -p 6379 -a '%s' --no-auth-warning" % (pick(["redis.internal", "10.0.5.9", "cache-01"]), c(password(), "password"))
    if k == 15:
        return "git clone https://%s:%s@github.com/%s/%s.git" % (pick(USERS), c(github_token(), "github_token"), pick(ORGS), pick(REPOS))
    if k == 16:
        return "curl -u admin:%s http://localhost:15672/api/overview" % c(password(url_safe=True), "password")
    if k == 17:
        return "htpasswd -bc /etc/nginx/.htpasswd %s '%s'" % (user, c(password(), "password"))
    if k == 18:
        return "kubectl create secret generic db-creds -n %s --from-literal=username=%s --from-literal=password='%s'" % (pick(NS), user, c(password(), "password"))
    if k == 19:
        return "vault login %s" % c(vault_token(), "vault_token")
    if k == 20:
        return "az login --service-principal -u %s -p %s --tenant %s" % (uuid4(), c(azure_client_secret(), "azure_client_secret"), uuid4())
    if k == 21:
        return "stripe listen --api-key %s --forward-to localhost:3000/webhooks" % c(stripe_key(), "stripe_secret_key")
    if k == 22:
        return "heroku config:set SENDGRID_API_KEY=%s -a %s" % (c(sendgrid_key(), "sendgrid_api_key"), pick(ORGS))
    if k == 23:
        return "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:%s" % c(password(style=pick([0, 2, 4])), "password")
    if k == 24:
        return 'mongosh "mongodb+srv://%s:%s@cluster0.%s.mongodb.net/%s"' % (user, c(password(url_safe=True), "url_credentials"), rs(LO + DIG, 5), db)
    return "wget --header='Authorization: Bearer %s' https://api.openai.com/v1/models -O models.json" % c(openai_key(), "openai_api_key")


def t_shell_history():
    c = C()
    n = R.randint(4, 9)
    nsec = R.randint(1, 3)
    slots = sorted(R.sample(range(n), nsec))
    lines = []
    start = R.randint(100, 2000)
    zsh = chance(0.3)
    t0 = R.randint(1735689600, 1767225600)
    for i in range(n):
        cmd = secret_cmd(c) if i in slots else benign_cmd()
        if zsh:
            lines.append(": %d:0;%s" % (t0 + i * R.randint(3, 90), cmd))
        else:
            lines.append("%5d  %s" % (start + i, cmd))
    head = pick(["$ history | tail -%d\n" % n, "here's my shell history from the box:\n", "", "~/.zsh_history:\n" if zsh else "",
                 "what did I run here? it broke after this:\n"])
    emit(head + "\n".join(lines), c)


def gh_ts():
    return "2025-%02d-%02dT%02d:%02d:%02d.%07dZ" % (R.randint(1, 12), R.randint(1, 28), R.randint(0, 23), R.randint(0, 59),
                                                   R.randint(0, 59), R.randint(0, 9999999))


def t_ci_log():
    c = C()
    style = R.randrange(4)
    if style == 0:
        ts = gh_ts()[:-12]
        p = provider()
        val = p[1]()
        lines = ["##[group]Run ./scripts/deploy.sh %s" % pick(["staging", "production"]),
                 "./scripts/deploy.sh staging",
                 "shell: /usr/bin/bash -e {0}",
                 "env:",
                 "  %s: ***" % p[2],
                 "##[endgroup]",
                 "+ set -x",
                 "+ export %s=%s" % (p[2], c(val, p[0])),
                 "+ curl -sf -H 'Authorization: Bearer %s' https://%s/v1/health" % (val, p[3]),
                 "Deploy finished in %ds" % R.randint(20, 400)]
        out = "\n".join("%s%02d.%07dZ %s" % (ts, R.randint(0, 59), R.randint(0, 9999999), l) for l in lines)
    elif style == 1:
        keys = []
        env = ["CI=true", "CI_PIPELINE_ID=%d" % R.randint(100000, 999999), "CI_COMMIT_SHA=%s" % rs(HEX, 40),
               "HOME=/root", "PATH=/usr/local/bin:/usr/bin:/bin", "CI_PROJECT_PATH=%s/%s" % (pick(ORGS), pick(REPOS))]
        env.append("AWS_ACCESS_KEY_ID=%s" % c(aws_key_id(), "aws_access_key_id"))
        env.append("AWS_SECRET_ACCESS_KEY=%s" % c(aws_secret(), "aws_secret_access_key"))
        for _ in range(R.randint(0, 2)):
            p = provider()
            env.append("%s=%s" % (p[2], c(p[1](), p[0])))
        if chance(0.5):
            env.append("DATABASE_URL=postgres://%s:%s@%s:5432/%s" % (pick(USERS), c(password(url_safe=True), "url_credentials"), pick(HOSTS), pick(DBN)))
        env.sort()
        out = "Running with gitlab-runner 17.%d.%d (%s)\n$ printenv | sort\n%s\n$ ./ci/build.sh\nERROR: Job failed: exit code 1" % (
            R.randint(0, 9), R.randint(0, 3), rs(HEX, 8), "\n".join(env))
    elif style == 2:
        tok = github_token(pick(["ghp_", "ghs_", "github_pat_"]))
        out = ("Started by user %s\n[Pipeline] sh\n+ git config --global url.\"https://x-access-token:%s@github.com/\".insteadOf \"https://github.com/\"\n"
               "+ npm ci\nnpm ERR! code E401\nnpm ERR! Unable to authenticate, need: Basic realm=\"GitHub Package Registry\"\nFinished: FAILURE") % (
            pick(["jenkins", "admin", "release-bot"]), c(tok, "github_token"))
    else:
        pw = password()
        ak = c(aws_key_id(), "aws_access_key_id")
        out = ("#14 [builder 6/9] RUN pip install -r requirements.txt\n"
               "#15 [builder 7/9] RUN --mount=type=secret,id=pip ./scripts/fetch-models.sh\n"
               "#15 0.412 + AWS_ACCESS_KEY_ID=%s\n#15 0.413 + DB_PASSWORD='%s' python manage.py migrate\n"
               "#15 2.118 django.db.utils.OperationalError: connection to server at \"%s\" failed\n"
               "ERROR: failed to solve: process \"/bin/sh -c ./scripts/fetch-models.sh\" did not complete successfully: exit code: 1") % (
            ak, c(pw, "password"), pick(HOSTS))
    emit(out, c)


ENV_BENIGN = ["NODE_ENV=production", "PORT=%d" % 3000, "LOG_LEVEL=info", "APP_URL=https://app.%s" % "harborline.io",
              "TZ=UTC", "FEATURE_FLAGS=checkout_v2,new_search", "WORKERS=4", "DEBUG=false", "CORS_ORIGINS=https://%s" % "bluefinch.app",
              "S3_BUCKET=%s-uploads" % "kestrelpay", "AWS_REGION=eu-west-1", "CACHE_TTL_SECONDS=300",
              "SENTRY_ENVIRONMENT=production", "NEXT_PUBLIC_API_BASE=/api", "RATE_LIMIT_PER_MINUTE=120"]


def env_secret_line(c, quote=""):
    k = R.randrange(12)
    if k <= 4:
        p = provider()
        return "%s=%s%s%s" % (p[2], quote, c(p[1](), p[0]), quote)
    if k == 5:
        return "DATABASE_URL=%spostgresql://%s:%s@%s:5432/%s%s" % (quote, pick(USERS), c(password(url_safe=True), "url_credentials"), pick(HOSTS), pick(DBN), quote)
    if k == 6:
        return "REDIS_URL=%srediss://default:%s@%s.upstash.io:6379%s" % (quote, c(password(style=4), "url_credentials"), pick(["eu1-brave-owl-3", "us1-calm-fox-22", "apt-gnu-41"]), quote)
    if k == 7:
        return "%s=%s%s%s" % (pick(["JWT_SECRET", "SECRET_KEY", "NEXTAUTH_SECRET", "SESSION_SECRET", "APP_KEY"]), quote, c(app_secret(), "app_secret"), quote)
    if k == 8:
        return "SMTP_PASSWORD=%s%s%s" % (quote, c(password(), "password"), quote)
    if k == 9:
        return "AWS_SECRET_ACCESS_KEY=%s%s%s" % (quote, c(aws_secret(), "aws_secret_access_key"), quote)
    if k == 10:
        return "STRIPE_WEBHOOK_SECRET=%s%s%s" % (quote, c(stripe_whsec(), "stripe_webhook_secret"), quote)
    return "DB_PASSWORD=%s%s%s" % (quote, c(password(), "password"), quote)


def t_dotenv():
    c = C()
    quote = pick(["", "", '"', "'"])
    exp = "export " if chance(0.2) else ""
    lines = []
    benign = R.sample(ENV_BENIGN, R.randint(2, 5))
    secrets = [env_secret_line(c, quote) for _ in range(R.randint(2, 5))]
    allv = benign + secrets
    R.shuffle(allv)
    if chance(0.5):
        lines.append("# %s" % pick(["generated by setup.sh, do not commit", "prod values — ask Sam before changing",
                                   ".env.local", "copied from 1password"]))
    lines += [exp + l for l in allv]
    head = pick(["", "cat .env\n", "my .env (why is the app not picking this up?):\n\n", "```env\n"])
    tail = "\n```" if head == "```env\n" else ""
    emit(head + "\n".join(lines) + tail, c)


def t_compose():
    c = C()
    pgpw = password()
    user = pick(USERS)
    db = pick(DBN)
    svc = ["services:", "  db:", "    image: postgres:16-alpine", "    environment:",
           "      POSTGRES_USER: %s" % user, "      POSTGRES_PASSWORD: %s" % c(pgpw, "password"),
           "      POSTGRES_DB: %s" % db, "    ports:", '      - "5432:5432"']
    extra = R.sample(range(6), R.randint(1, 3))
    for e in extra:
        if e == 0:
            svc += ["  redis:", "    image: redis:7", '    command: ["redis-server", "--requirepass", "%s"]' % c(password(), "password")]
        elif e == 1:
            svc += ["  rabbitmq:", "    image: rabbitmq:3-management", "    environment:",
                    "      RABBITMQ_DEFAULT_USER: %s" % pick(USERS), "      RABBITMQ_DEFAULT_PASS: %s" % c(password(), "password")]
        elif e == 2:
            svc += ["  minio:", "    image: minio/minio", "    command: server /data --console-address :9001", "    environment:",
                    "      MINIO_ROOT_USER: minioadmin", "      MINIO_ROOT_PASSWORD: %s" % c(password(style=4), "password")]
        elif e == 3:
            pers = Person()
            svc += ["  pgadmin:", "    image: dpage/pgadmin4", "    environment:",
                    "      PGADMIN_DEFAULT_EMAIL: %s" % c(work_email(pers.first, pers.last), "email"),
                    "      PGADMIN_DEFAULT_PASSWORD: \"%s\"" % c(password(), "password")]
        elif e == 4:
            svc += ["  mysql:", "    image: mysql:8.4", "    environment:",
                    "      - MYSQL_ROOT_PASSWORD=%s" % c(password(), "password"), "      - MYSQL_DATABASE=%s" % pick(DBN)]
        else:
            p = provider()
            svc += ["  worker:", "    build: .", "    environment:",
                    "      - %s=%s" % (p[2], c(p[1](), p[0])), "      - QUEUE=default"]
    svc += ["  app:", "    build: .", "    depends_on: [db]", "    environment:",
            "      DATABASE_URL: postgres://%s:%s@db:5432/%s" % (user, pgpw, db)]
    emit(pick(["", "docker-compose.yml:\n", "# compose file for local dev\n"]) + "\n".join(svc), c)


def t_k8s_secret():
    c = C()
    name = pick(["app-secrets", "db-credentials", "api-keys", "%s-env" % pick(REPOS)])
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", "  name: %s" % name, "  namespace: %s" % pick(NS),
             "type: Opaque"]
    if chance(0.7):
        lines.append("data:")
        for _ in range(R.randint(1, 4)):
            k = R.randrange(4)
            if k == 0:
                v, kind, key = password(), "password", pick(["password", "DB_PASSWORD", "postgres-password", "admin-password"])
            elif k == 1:
                p = provider()
                v, kind, key = p[1](), p[0], p[2]
            elif k == 2:
                v, kind, key = "postgresql://%s:%s@%s:5432/%s" % (pick(USERS), password(url_safe=True), pick(HOSTS), pick(DBN)), "url_credentials", "DATABASE_URL"
            else:
                v, kind, key = aws_secret(), "aws_secret_access_key", "AWS_SECRET_ACCESS_KEY"
            lines.append("  %s: %s" % (key, c(b64(v.encode()), kind)))
        if chance(0.5):
            lines.append("  %s: %s" % (pick(["username", "DB_USER"]), b64(pick(USERS).encode())))
    else:
        lines.append("stringData:")
        for _ in range(R.randint(1, 4)):
            if chance(0.5):
                lines.append("  %s: \"%s\"" % (pick(["password", "db-password", "REDIS_PASSWORD"]), c(password(), "password")))
            else:
                p = provider()
                lines.append("  %s: %s" % (p[2], c(p[1](), p[0])))
    emit(pick(["", "kubectl get secret %s -o yaml\n" % name, "---\n"]) + "\n".join(lines), c)


def t_k8s_deploy_env():
    c = C()
    p = provider()
    lines = ["      containers:", "        - name: %s" % pick(REPOS), "          image: ghcr.io/%s/%s:%s" % (pick(ORGS), pick(REPOS), rs(HEX, 7)),
             "          env:", "            - name: LOG_LEVEL", "              value: info",
             "            - name: %s" % p[2], "              value: \"%s\"" % c(p[1](), p[0]),
             "            - name: DB_PASSWORD", "              valueFrom:", "                secretKeyRef:",
             "                  name: db-credentials", "                  key: password"]
    if chance(0.5):
        lines += ["            - name: SMTP_PASS", "              value: '%s'" % c(password(), "password")]
    emit("\n".join(lines), c)


def t_terraform():
    c = C()
    k = R.randrange(5)
    if k == 0:
        t = 'provider "aws" {\n  region     = "eu-central-1"\n  access_key = "%s"\n  secret_key = "%s"\n}' % (
            c(aws_key_id(), "aws_access_key_id"), c(aws_secret(), "aws_secret_access_key"))
    elif k == 1:
        t = 'resource "aws_db_instance" "main" {\n  identifier        = "%s-prod"\n  engine            = "postgres"\n  instance_class    = "db.t4g.medium"\n  username          = "%s"\n  password          = "%s"\n  skip_final_snapshot = true\n}' % (
            pick(REPOS), pick(USERS), c(password(), "password"))
    elif k == 2:
        lines = ['region = "us-east-1"', 'environment = "prod"']
        lines.append('db_password = "%s"' % c(password(), "password"))
        p = provider()
        lines.append('%s = "%s"' % (p[2].lower(), c(p[1](), p[0])))
        if chance(0.5):
            lines.append('datadog_api_key = "%s"' % c(datadog_api(), "datadog_api_key"))
            lines.append('datadog_app_key = "%s"' % c(datadog_app(), "datadog_app_key"))
        t = "# terraform.tfvars\n" + "\n".join(lines)
    elif k == 3:
        pw = password(style=4)
        t = json.dumps({"version": 4, "terraform_version": "1.9.%d" % R.randint(0, 8), "serial": R.randint(1, 300),
                        "resources": [{"mode": "managed", "type": "random_password", "name": "db", "provider": "provider[\"registry.terraform.io/hashicorp/random\"]",
                                       "instances": [{"schema_version": 3, "attributes": {"id": "none", "length": len(pw), "result": c(pw, "password"), "special": False}}]}]},
                       indent=2)
        t = "terraform.tfstate (partial):\n" + t
    else:
        t = ('provider "azurerm" {\n  features {}\n  subscription_id = "%s"\n  client_id       = "%s"\n  client_secret   = "%s"\n  tenant_id       = "%s"\n}' % (
            uuid4(), uuid4(), c(azure_client_secret(), "azure_client_secret"), uuid4()))
    emit(t, c)


def t_json_api():
    c = C()
    k = R.randrange(6)
    if k == 0:
        d = {"access_token": c(gcp_access_token(), "gcp_oauth_token"), "expires_in": 3599,
             "refresh_token": c(gcp_refresh_token(), "gcp_refresh_token"), "scope": "https://www.googleapis.com/auth/drive.readonly",
             "token_type": "Bearer"}
    elif k == 1:
        p = Person()
        d = {"id": "cus_" + rs(B62, 14), "object": "customer", "email": c(p.email, "email"), "name": p.name,
             "phone": c(p.phone, "phone"), "created": R.randint(1700000000, 1760000000), "livemode": True,
             "invoice_settings": {"default_payment_method": "pm_" + rs(B62, 24)}}
    elif k == 2:
        d = {"token": c(github_token("ghs_"), "github_token"), "expires_at": ts_iso()[:19] + "Z",
             "permissions": {"contents": "read", "metadata": "read"}, "repository_selection": "selected"}
    elif k == 3:
        d = {"data": {"user": {"id": R.randint(1, 99999), "email": None, "api_key": None}}}
        p = Person()
        d["data"]["user"]["email"] = c(p.email, "email")
        if chance(0.5):
            d["data"]["user"]["api_key"] = c(openai_key(), "openai_api_key")
        else:
            d["data"]["user"]["api_key"] = c(anthropic_key(), "anthropic_api_key")
    elif k == 4:
        d = {"ok": True, "access_token": c(slack_token("xoxb"), "slack_token"), "token_type": "bot",
             "scope": "chat:write,channels:read", "bot_user_id": "U" + rs(UP + DIG, 10),
             "team": {"id": "T" + rs(UP + DIG, 10), "name": pick(ORGS).title()},
             "incoming_webhook": {"channel": "#alerts", "url": c(slack_webhook(), "slack_webhook")}}
    else:
        p = Person(pick(["US", "GB", "DE", "FR", "IN", "BR"]))
        d = {"applicant": {"full_name": p.name, "date_of_birth": p.dob, "email": c(p.email, "email"),
                           "phone": c(p.phone, "phone"), "address": {"line1": p.street, "city": p.city}},
             "status": "pending_review"}
        if p.nid:
            d["applicant"]["national_id"] = {"type": p.nid[0], "value": c(p.nid[1], p.nid[0])}
    t = json.dumps(d, indent=pick([None, 2]), ensure_ascii=False)
    emit(pick(["", "response body:\n", "HTTP/1.1 200 OK\nContent-Type: application/json\n\n", "got this back from the API:\n"]) + t, c)


def t_stack_trace():
    c = C()
    k = R.randrange(6)
    host, user, db = pick(HOSTS), pick(USERS), pick(DBN)
    if k == 0:
        pw = password(url_safe=True)
        t = ('Traceback (most recent call last):\n  File "/app/worker.py", line %d, in <module>\n    engine = create_engine(DB_URL)\n'
             '  File "/app/.venv/lib/python3.12/site-packages/sqlalchemy/engine/create.py", line 560, in create_engine\n'
             "sqlalchemy.exc.ArgumentError: Could not parse SQLAlchemy URL from string 'postgresql+psycopg://%s:%s@%s:5432/%s '") % (
            R.randint(10, 300), user, c(pw, "url_credentials"), host, db)
    elif k == 1:
        key = openai_key()
        t = ("AxiosError: Request failed with status code 429\n    at settle (/srv/app/node_modules/axios/lib/core/settle.js:19:12)\n"
             "  config: {\n    url: 'https://api.openai.com/v1/chat/completions',\n    method: 'post',\n"
             "    headers: Object [AxiosHeaders] {\n      Accept: 'application/json, text/plain, */*',\n"
             "      'Content-Type': 'application/json',\n      Authorization: 'Bearer %s',\n      'User-Agent': 'axios/1.7.%d'\n    },\n  }") % (c(key, "openai_api_key"), R.randint(0, 9))
    elif k == 2:
        pw = password()
        t = ("org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'dataSource'\n"
             "Caused by: java.sql.SQLException: Access denied for user '%s'@'10.0.%d.%d' (using password: YES)\n"
             "\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:130)\n"
             "\tat com.zaxxer.hikari.pool.HikariPool.<init>(HikariPool.java:115)\n"
             "HikariConfig: jdbcUrl=jdbc:mysql://%s:3306/%s?useSSL=true, username=%s, password=%s") % (
            user, R.randint(0, 9), R.randint(2, 250), host, db, user, c(pw, "password"))
    elif k == 3:
        pw = password(url_safe=True)
        t = ("panic: failed to connect to `host=%s user=%s database=%s`: failed SASL auth (FATAL: password authentication failed for user \"%s\")\n\n"
             "goroutine 1 [running]:\nmain.main()\n\t/src/cmd/api/main.go:%d +0x2a5\n"
             "exit status 2\n\n(dsn was postgres://%s:%s@%s/%s)") % (host, user, db, user, R.randint(20, 200), user, c(pw, "url_credentials"), host, db)
    elif k == 4:
        key = anthropic_key()
        t = ("anthropic.AuthenticationError: Error code: 401 - {'type': 'error', 'error': {'type': 'authentication_error', 'message': 'invalid x-api-key'}}\n"
             "\nLocals at frame <module>:\n  client = <anthropic.Anthropic object at 0x7f3a%s>\n  api_key = '%s'\n  model = 'claude-sonnet-4-5'") % (
            rs(HEX, 8), c(key, "anthropic_api_key"))
    else:
        tok = stripe_key("sk_live_")
        t = ("Stripe::AuthenticationError (Invalid API Key provided: %s):\n  app/services/charge_customer.rb:%d:in `call'\n"
             "  app/controllers/checkouts_controller.rb:%d:in `create'\n") % (c(tok, "stripe_secret_key"), R.randint(5, 90), R.randint(5, 90))
    emit(t, c)


def sql_q(s):
    return "'" + s.replace("'", "''") + "'"


def t_sql():
    c = C()
    k = R.randrange(5)
    if k in (0, 1):
        cols = ["id", "full_name", "email", "phone"]
        extra = pick([["card_number"], ["iban"], ["national_id"], ["card_number", "iban"], []])
        cols += extra + ["created_at"]
        rows = []
        for i in range(R.randint(2, 5)):
            p = Person()
            vals = [str(R.randint(1000, 99999)), sql_q(p.name), sql_q(c(p.email, "email")), sql_q(c(p.phone, "phone"))]
            for e in extra:
                if e == "card_number":
                    vals.append(sql_q(c(card(style=pick([0, 0, 1])), "card_number")))
                elif e == "iban":
                    if p.iban:
                        vals.append(sql_q(c(iban(p.cc, spaced=False), "iban")))
                    else:
                        vals.append("NULL")
                else:
                    if p.nid:
                        vals.append(sql_q(c(p.nid[1], p.nid[0])))
                    else:
                        vals.append("NULL")
            vals.append(sql_q(ts_plain(2024)))
            rows.append("(" + ", ".join(vals) + ")")
        t = "INSERT INTO customers (%s) VALUES\n%s;" % (", ".join(cols), ",\n".join(rows))
        if k == 1:
            t = "-- MySQL dump 10.13  Distrib 8.0.%d\n-- Host: %s    Database: %s\nLOCK TABLES `customers` WRITE;\n" % (
                R.randint(30, 40), pick(HOSTS), pick(DBN)) + t.replace("INSERT INTO customers", "INSERT INTO `customers`") + "\nUNLOCK TABLES;"
    elif k == 2:
        lines = ["COPY public.users (id, email, phone, date_of_birth, ssn) FROM stdin;"]
        for i in range(R.randint(2, 5)):
            p = Person("US")
            lines.append("%d\t%s\t%s\t%s\t%s" % (R.randint(1, 9999), c(p.email, "email"), c(p.phone, "phone"), p.dob, c(p.nid[1], "ssn")))
        lines.append("\\.")
        t = "\n".join(lines)
    elif k == 3:
        pw = password()
        t = pick(["CREATE USER %s WITH PASSWORD %s;\nGRANT CONNECT ON DATABASE %s TO %s;",
                  "CREATE USER '%s'@'%%' IDENTIFIED BY %s;\nGRANT SELECT ON %s.* TO '%s'@'%%';",
                  "ALTER USER %s WITH PASSWORD %s;\n-- rotated for %s, tell %s"])
        u = pick(USERS)
        t = t % (u, sql_q(c(pw, "password")), pick(DBN), u)
    else:
        p = provider()
        t = "UPDATE integrations SET api_key = %s, updated_at = now() WHERE tenant_id = %d AND provider = '%s';" % (
            sql_q(c(p[1](), p[0])), R.randint(1, 999), p[0].split("_")[0])
    emit(t, c)


def t_csv():
    c = C()
    cc_pool = R.sample(sorted(COUNTRIES), R.randint(1, 4))
    cols = ["customer_id", "first_name", "last_name", "email", "phone"]
    opt = R.sample(["street", "city", "dob", "card_number", "iban", "national_id", "signup_date"], R.randint(2, 4))
    cols += opt
    sep = pick([",", ",", ";", "\t"])
    lines = [sep.join(cols)]
    for i in range(R.randint(2, 5)):
        p = Person(pick(cc_pool))
        row = ["%d" % R.randint(10000, 99999), p.first, p.last, c(p.email, "email"), c(p.phone, "phone")]
        for o in opt:
            if o == "street":
                row.append('"%s"' % p.street if sep in p.street else p.street)
            elif o == "city":
                row.append('"%s"' % p.city if sep in p.city else p.city)
            elif o == "dob":
                row.append(p.dob)
            elif o == "card_number":
                row.append(c(card(style=pick([0, 0, 1, 2])), "card_number"))
            elif o == "iban":
                row.append(c(iban(p.cc, spaced=False), "iban") if p.iban else "")
            elif o == "national_id":
                row.append(c(p.nid[1], p.nid[0]) if p.nid else "")
            else:
                row.append(ts_plain(2024)[:10])
        lines.append(sep.join(row))
    head = pick(["", "customers_export.csv (first rows):\n", "Here's a sample of the export, can you dedupe by email?\n\n",
                 "```csv\n"])
    emit(head + "\n".join(lines) + ("\n```" if head.startswith("```") else ""), c)


# ---------------------------------------------------------------------------
# support chat in many languages
# ---------------------------------------------------------------------------

NIDNAME = {"US": "SSN", "GB": "National Insurance number", "CA": "SIN", "IN": "Aadhaar number", "AU": "tax file number",
           "ZA": "ID number", "SG": "NRIC", "IE": "PPS number", "DE": "Steuer-ID", "CH": "AHV-Nummer",
           "FR": "numéro de sécurité sociale", "BE": "numéro de registre national", "ES": "DNI",
           "IT": "codice fiscale", "BR": "CPF", "PT": "NIF", "NL": "BSN", "PL": "PESEL", "SE": "personnummer",
           "NO": "fødselsnummer", "FI": "henkilötunnus", "CN": "身份证号", "KR": "주민등록번호", "TR": "TC kimlik numaram"}

CHAT = {
    "en": (["US", "GB", "CA", "AU", "IE", "IN", "NZ", "ZA", "SG", "NG", "KE", "PH"], [
        "Customer: Hi, I was double charged. The card is {card}, exp {exp}.\nAgent: Sorry about that! Can you confirm the email on the account?\nCustomer: {email}",
        "Customer: please update my phone number to {phone}, the old one is disconnected\nAgent: Done, anything else I can help with?",
        "Customer: the refund should go to IBAN {iban}, account holder {name}\nAgent: Thanks, I've added it to the ticket.",
        "Agent: For verification I need your {nidname}.\nCustomer: sure, it's {nid}",
        "Customer: I can't log in. My username is {email} and the password I set yesterday was {pw}\nAgent: Please never share your password here, I've sent a reset link instead.",
        "[ticket #{tno}] {name} wrote:\n> hey, new number is {phone}, and please send invoices to {email} from now on",
        "Customer: my {nidname} is {nid} and the card ending in the last four is on file, full number {card}\nAgent: Thank you, verifying now.",
    ]),
    "de": (["DE", "AT", "CH"], [
        "Kunde: Hallo, bitte buchen Sie den Betrag künftig von meinem Konto ab: {iban} (Kontoinhaber {name}).\nAgent: Vielen Dank, ist hinterlegt.",
        "Kunde: Meine neue Handynummer ist {phone}, bitte im Kundenkonto ändern.\nAgent: Erledigt!",
        "Agent: Zur Verifizierung brauche ich Ihre {nidname}.\nKunde: Die lautet {nid}.",
        "Kunde: Ich komme nicht mehr rein. Benutzer {email}, Passwort {pw}. Was mache ich falsch?",
        "Kunde: Die Karte {card} wurde zweimal belastet, bitte prüfen. Rückruf gerne unter {phone}.",
    ]),
    "fr": (["FR", "BE", "CH", "CA"], [
        "Client : Bonjour, mon {nidname} est le {nid}, pouvez-vous mettre à jour mon dossier ?",
        "Client : Voici mon IBAN : {iban}. Merci de modifier le prélèvement.\nConseiller : C'est noté.",
        "Client : vous pouvez me rappeler au {phone} ?\nConseiller : Bien sûr, dans l'après-midi.",
        "Client : Ma carte {card} a été débitée deux fois.\nConseiller : Je vérifie tout de suite.",
        "Client : mon e-mail c'est {email} et le mot de passe {pw}, ça ne marche pas",
    ]),
    "es": (["ES", "MX", "AR"], [
        "Cliente: Hola, mi {nidname} es {nid} y necesito cambiar el titular del contrato.",
        "Cliente: Mi número de teléfono nuevo es {phone}, ¿lo pueden actualizar?\nAgente: Claro, ya está.",
        "Cliente: Me cobraron dos veces en la tarjeta {card}.\nAgente: Lo reviso ahora mismo.",
        "Cliente: la cuenta para la devolución es {iban}, a nombre de {name}",
        "Cliente: mi correo es {email} y la contraseña {pw}, pero me dice que es incorrecta",
    ]),
    "it": (["IT"], [
        "Cliente: Buongiorno, il mio {nidname} è {nid}, serve per la fattura.",
        "Cliente: potete accreditare il rimborso sull'IBAN {iban}? Grazie",
        "Cliente: il mio cellulare è cambiato, ora è {phone}",
        "Cliente: la carta {card} risulta addebitata due volte.\nOperatore: Verifico subito.",
        "Cliente: la mia email è {email}, la password che uso è {pw}",
    ]),
    "pt": (["PT", "BR"], [
        "Cliente: Olá, o meu {nidname} é {nid}, preciso da fatura com ele.",
        "Cliente: o IBAN para o reembolso é {iban}",
        "Cliente: cobraram duas vezes no cartão {card}\nAtendente: Vou verificar.",
        "Cliente: meu e-mail é {email} e a senha {pw}, não consigo entrar",
        "Cliente: podem me ligar no {phone}?",
    ]),
    "nl": (["NL", "BE"], [
        "Klant: Mijn {nidname} is {nid}, kunt u het dossier aanpassen?",
        "Klant: Graag terugstorten op {iban} t.n.v. {name}.\nMedewerker: Komt in orde.",
        "Klant: Bel me even op {phone} aub",
        "Klant: mijn e-mailadres is {email} en mijn wachtwoord is {pw}, inloggen lukt niet",
    ]),
    "pl": (["PL"], [
        "Klient: Dzień dobry, mój {nidname} to {nid}.",
        "Klient: proszę o zwrot na konto {iban}",
        "Klient: mój numer telefonu: {phone}, mail {email}",
        "Klient: karta {card} została obciążona dwa razy",
    ]),
    "sv": (["SE"], [
        "Kund: Hej! Mitt {nidname} är {nid}.",
        "Kund: Ring mig på {phone} efter lunch",
        "Kund: återbetalning till {iban} tack",
        "Kund: min mejl är {email} och lösenordet är {pw}",
    ]),
    "nb": (["NO"], [
        "Kunde: Hei, {nidname}et mitt er {nid}.",
        "Kunde: Ring meg på {phone}",
        "Kunde: IBAN for tilbakebetaling: {iban}",
    ]),
    "da": (["DK"], [
        "Kunde: Mit telefonnummer er {phone}",
        "Kunde: min e-mail er {email}, og kortet er {card}",
        "Kunde: Pengene kan sendes til {iban}",
    ]),
    "fi": (["FI"], [
        "Asiakas: Hei, {nidname}ni on {nid}.",
        "Asiakas: puhelinnumeroni on {phone}",
        "Asiakas: palautus tilille {iban}, kiitos",
    ]),
    "ja": (["JP"], [
        "お客様：カード番号は{card}です。二重に請求されています。",
        "お客様：電話番号は{phone}です。折り返しお願いします。",
        "お客様：メールアドレスは {email} です。パスワードは{pw}に変更しました。",
    ]),
    "zh": (["CN"], [
        "客户：你好，我的{nidname}是{nid}，手机{phone}。",
        "客户：我的邮箱是{email}，密码是{pw}，一直登录不了",
        "客户：银行卡{card}被扣了两次钱",
    ]),
    "ko": (["KR"], [
        "고객: {nidname}는 {nid}입니다.",
        "고객: 연락처는 {phone}입니다.",
        "고객: 이메일 {email} 로 영수증 보내주세요.",
    ]),
    "ru": (["RU"], [
        "Клиент: Здравствуйте, с карты {card} списали дважды.",
        "Клиент: мой телефон {phone}, почта {email}",
        "Клиент: пароль от личного кабинета {pw}, не пускает",
    ]),
    "uk": (["UA"], [
        "Клієнт: Мій номер телефону {phone}",
        "Клієнт: моя пошта {email}, пароль {pw}",
    ]),
    "tr": (["TR"], [
        "Müşteri: Merhaba, {nidname} {nid}.",
        "Müşteri: telefonum {phone}, bana buradan ulaşabilirsiniz",
        "Müşteri: iade için IBAN: {iban}",
        "Müşteri: kartımdan {card} iki kez çekim yapıldı",
    ]),
}

BRAND_OF = {"RU": "mir", "BR": "elo", "TR": "troy", "JP": "jcb", "CN": "unionpay", "IN": "rupay"}


def _slots(tpl):
    out = []
    i = 0
    while True:
        a = tpl.find("{", i)
        if a < 0:
            return out
        b = tpl.find("}", a)
        out.append(tpl[a + 1:b])
        i = b + 1


def fill(tpl, cc, c):
    p = Person(cc)
    vals = {}
    for s in _slots(tpl):
        if s in vals:
            continue
        if s == "name":
            vals[s] = p.name
        elif s == "email":
            vals[s] = c(p.email, "email")
        elif s == "phone":
            vals[s] = c(phone(cc), "phone")
        elif s == "card":
            b = BRAND_OF.get(cc) if chance(0.5) else None
            vals[s] = c(card(b), "card_number")
        elif s == "exp":
            vals[s] = "%02d/%02d" % (R.randint(1, 12), R.randint(26, 31))
        elif s == "iban":
            vals[s] = c(iban(cc if cc in IBAN_CC else pick(["GB", "IE", "DE", "NL"])), "iban")
        elif s == "nid":
            vals[s] = c(p.nid[1], p.nid[0])
        elif s == "nidname":
            vals[s] = NIDNAME[cc]
        elif s == "pw":
            vals[s] = c(password(), "password")
        elif s == "tno":
            vals[s] = str(R.randint(10000, 99999))
        else:
            raise KeyError(s)
    return tpl.format(**vals)


def t_support_chat(lang=None):
    c = C()
    lang = lang or pick(sorted(CHAT))
    ccs, tpls = CHAT[lang]
    for _ in range(100):
        tpl = pick(tpls)
        cc = pick(ccs)
        if "{nid" in tpl and cc not in NATIONAL:
            continue
        break
    emit(fill(tpl, cc, c), c)


# ---------------------------------------------------------------------------
# code review, git, curl
# ---------------------------------------------------------------------------

def t_code_review():
    c = C()
    k = R.randrange(6)
    f = pick(["config/settings.py", "src/client.ts", "internal/llm/client.go", "scripts/seed.py", "app/services/billing.rb",
              "deploy/values-prod.yaml", "notebooks/eval.ipynb"])
    ln = R.randint(5, 400)
    if k == 0:
        p = provider()
        t = "nit: `%s` L%d still has the live key `%s`. Please move it to the secret store and rotate it, it's been in the branch since Tuesday." % (
            f, ln, c(p[1](), p[0]))
    elif k == 1:
        p = provider()
        t = "**%s** line %d:\n> const API_KEY = \"%s\";\n\n:red_circle: Hardcoded credential. Read it from `process.env.%s` instead." % (
            f, ln, c(p[1](), p[0]), p[2])
    elif k == 2:
        pers = [Person(), Person()]
        t = "LGTM overall, but `tests/fixtures/users.json` contains what look like real customer details (%s, %s, %s). Please swap in synthetic data before merging." % (
            c(pers[0].email, "email"), c(pers[0].phone, "phone"), c(pers[1].email, "email"))
    elif k == 3:
        t = "Blocking: the DSN in `migrations/env.py` leaks the prod password: `postgres://%s:%s@%s/%s`. Use `os.environ['DATABASE_URL']`." % (
            pick(USERS), c(password(url_safe=True), "url_credentials"), pick(HOSTS), pick(DBN))
    elif k == 4:
        sk = stripe_key("sk_live_")
        t = "Suggested change:\n```suggestion\nSTRIPE_KEY = os.environ[\"STRIPE_SECRET_KEY\"]\n```\ninstead of\n```python\nSTRIPE_KEY = \"%s\"\n```" % c(sk, "stripe_secret_key")
    else:
        t = ("@%s the test still uses my personal token (`%s`), I've revoked it but please switch the workflow to `${{ secrets.GITHUB_TOKEN }}`." %
             (pick(["ana", "jonas", "li-wei", "sam", "priya"]), c(github_token(pick(["ghp_", "github_pat_"])), "github_token")))
    emit(t, c)


def t_git_urls():
    c = C()
    k = R.randrange(7)
    org, repo, user = pick(ORGS), pick(REPOS), pick(["jdoe", "mkeller", "ana-dev", "build-bot", "li.wei", "oauth2"])
    if k == 0:
        tok = github_token()
        t = '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = https://%s:%s@github.com/%s/%s.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main' % (
            user, c(tok, "github_token"), org, repo)
    elif k == 1:
        lines = []
        for _ in range(R.randint(2, 4)):
            j = R.randrange(4)
            if j == 0:
                lines.append("https://%s:%s@github.com" % (user, c(github_token(), "github_token")))
            elif j == 1:
                lines.append("https://oauth2:%s@gitlab.com" % c(gitlab_token("glpat-"), "gitlab_token"))
            elif j == 2:
                lines.append("https://%s:%s@bitbucket.org" % (user, c(password(url_safe=True), "url_credentials")))
            else:
                lines.append("https://%s:%s@dev.azure.com" % (org, c(azure_devops_pat(), "azure_devops_pat")))
        t = "$ cat ~/.git-credentials\n" + "\n".join(lines)
    elif k == 2:
        tok = gitlab_token("glpat-")
        t = "$ git remote -v\norigin\thttps://oauth2:%s@gitlab.com/%s/%s.git (fetch)\norigin\thttps://oauth2:%s@gitlab.com/%s/%s.git (push)" % (
            c(tok, "gitlab_token"), org, repo, tok, org, repo)
    elif k == 3:
        pw = password(url_safe=True)
        t = "remote: Invalid username or password.\nfatal: Authentication failed for 'https://%s:%s@git.%s.com/%s.git/'" % (
            user, c(pw, "url_credentials"), org, repo)
    elif k == 4:
        tok = github_token(pick(["ghp_", "github_pat_"]))
        t = "# requirements.txt\nrequests==2.32.3\ngit+https://%s@github.com/%s/%s.git@v%d.%d.%d#egg=%s\npydantic>=2.7" % (
            c(tok, "github_token"), org, repo, R.randint(0, 3), R.randint(0, 20), R.randint(0, 9), repo.replace("-", "_"))
    elif k == 5:
        tok = gitlab_token(pick(["glpat-", "gldt-"]))
        t = 'git config --global url."https://%s:%s@gitlab.%s.io/".insteadOf "https://gitlab.%s.io/"\nexport GOPRIVATE=gitlab.%s.io/*' % (
            user, c(tok, "gitlab_token"), org, org, org)
    else:
        tok = github_token()
        t = '  "dependencies": {\n    "react": "^18.3.1",\n    "@%s/ui": "git+https://%s:%s@github.com/%s/ui-kit.git#v2.1.0"\n  }' % (
            org, user, c(tok, "github_token"), org)
    emit(t, c)


def e164(cc):
    nat, itl = PHONE[cc]()
    return "+" + "".join(ch for ch in itl if ch.isdigit())


CURL_PATHS = {
    "openai_api_key": ["/v1/models", "/v1/chat/completions", "/v1/files"],
    "anthropic_api_key": ["/v1/messages", "/v1/models"],
    "anthropic_admin_key": ["/v1/organizations/users", "/v1/organizations/api_keys"],
    "github_token": ["/user", "/repos/%s/%s/pulls" % ("harborline", "api"), "/orgs/kestrelpay/repos"],
    "gitlab_token": ["/api/v4/projects?membership=true", "/api/v4/user"],
    "stripe_secret_key": ["/v1/customers?limit=3", "/v1/balance"],
    "sendgrid_api_key": ["/v3/mail/send", "/v3/user/profile"],
    "huggingface_token": ["/api/whoami-v2"],
    "npm_token": ["/-/whoami"],
    "slack_token": ["/api/auth.test", "/api/chat.postMessage"],
    "gcp_api_key": ["/v1beta/models"],
    "datadog_api_key": ["/api/v1/validate"],
    "groq_api_key": ["/openai/v1/chat/completions", "/openai/v1/models"],
    "openrouter_api_key": ["/api/v1/chat/completions"],
    "mistral_api_key": ["/v1/models"],
    "dockerhub_token": ["/v2/repositories/kestrelpay/"],
}


def t_curl():
    c = C()
    k = R.randrange(8)
    if k <= 3:
        p = provider(0.75)
        kind, gen, env, host, style = p
        val = gen()
        path = pick(CURL_PATHS.get(kind, ["/v1/items", "/api/v2/users/me", "/v1/account"]))
        hdr = auth_header(style, val, c, kind)
        q = pick(['"', "'"])
        parts = ["curl -sS %shttps://%s%s%s" % (q, host, path, q), "-H %s%s%s" % (q, hdr, q),
                 "-H %sContent-Type: application/json%s" % (q, q)]
        if "messages" in path:
            parts.append("-H %santhropic-version: 2023-06-01%s" % (q, q))
        if path in ("/v1/chat/completions", "/v1/messages", "/openai/v1/chat/completions", "/api/v1/chat/completions"):
            model = {"anthropic_api_key": "claude-sonnet-4-5", "groq_api_key": "llama-3.1-70b-versatile"}.get(kind, "gpt-4o-mini")
            parts.append("-d '{\"model\": \"%s\", \"max_tokens\": %d, \"messages\": [{\"role\": \"user\", \"content\": \"ping\"}]}'" % (model, R.randint(16, 2048)))
        t = (" \\\n  " if chance(0.6) else " ").join(parts)
    elif k == 4:
        t = "curl https://api.stripe.com/v1/charges -u %s: -d amount=%d -d currency=eur -d source=tok_visa" % (
            c(stripe_key(pick(["sk_live_", "rk_live_"])), "stripe_secret_key"), R.randint(100, 99999))
    elif k == 5:
        pers = Person()
        t = "curl -s --user 'api:%s' https://api.mailgun.net/v3/mg.%s/messages \\\n  -F from='Support <support@mg.%s>' \\\n  -F to=%s \\\n  -F subject='Your receipt'" % (
            c(mailgun_key(), "mailgun_api_key"), pick(COMPANY_DOMAINS), pick(COMPANY_DOMAINS), c(pers.email, "email"))
    elif k == 6:
        sid = twilio_sid()
        cc = pick(["US", "GB", "DE", "FR", "IN", "BR", "AU", "ES", "NL", "MX"])
        t = "curl -X POST 'https://api.twilio.com/2010-04-01/Accounts/%s/Messages.json' \\\n  --data-urlencode 'To=%s' \\\n  --data-urlencode 'From=+1%s' \\\n  --data-urlencode 'Body=Your code is %s' \\\n  -u %s:%s" % (
            sid, c(e164(cc), "phone"), digits(10), digits(6), sid, c(twilio_token(), "twilio_auth_token"))
    else:
        name, val = session_cookie()
        t = "curl '%s' \\\n  -H 'accept: application/json' \\\n  -H 'cookie: _ga=GA1.1.%d.%d; %s=%s; theme=dark' \\\n  -H 'user-agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' \\\n  --compressed" % (
            "https://app.%s/api/orders?page=%d" % (pick(COMPANY_DOMAINS), R.randint(1, 9)), R.randint(10 ** 8, 10 ** 9), R.randint(1700000000, 1760000000), name, c(val, "session_cookie"))
    emit(t, c)


# ---------------------------------------------------------------------------
# connection strings in config files
# ---------------------------------------------------------------------------

def conn_string(c):
    user, host, db = pick(USERS), pick(HOSTS), pick(DBN)
    k = R.randrange(13)
    if k == 0:
        return "postgresql://%s:%s@%s:5432/%s?sslmode=require" % (user, c(password(url_safe=True), "url_credentials"), host, db)
    if k == 1:
        return "mysql://%s:%s@%s:3306/%s" % (user, c(password(url_safe=True), "url_credentials"), host, db)
    if k == 2:
        return "mongodb+srv://%s:%s@cluster0.%s.mongodb.net/%s?retryWrites=true&w=majority&appName=Cluster0" % (
            user, c(password(url_safe=True), "url_credentials"), rs(LO + DIG, 5), db)
    if k == 3:
        return "redis://:%s@%s:6379/0" % (c(password(url_safe=True), "url_credentials"), pick(["redis.internal", "cache.svc", "10.0.7.21"]))
    if k == 4:
        return "amqps://%s:%s@%s.rmq.cloudamqp.com/%s" % (rs(LO, 8), c(password(style=4), "url_credentials"), pick(["rattlesnake", "goose", "hawk"]), rs(LO, 8))
    if k == 5:
        return "Server=tcp:%s.database.windows.net,1433;Initial Catalog=%s;Persist Security Info=False;User ID=%s;Password=%s;MultipleActiveResultSets=False;Encrypt=True;TrustServerCertificate=False;Connection Timeout=30;" % (
            pick(ORGS), db, user, c(password(), "password"))
    if k == 6:
        return "jdbc:postgresql://%s:5432/%s?user=%s&password=%s&ssl=true" % (host, db, user, c(password(url_safe=True), "password"))
    if k == 7:
        return "jdbc:sqlserver://%s:1433;databaseName=%s;user=%s;password=%s;encrypt=true" % (host, db, user, c(password(), "password"))
    if k == 8:
        return "jdbc:oracle:thin:%s/%s@//%s:1521/ORCLPDB1" % (user, c(password(url_safe=True), "password"), host)
    if k == 9:
        return "mysql+pymysql://%s:%s@%s/%s?charset=utf8mb4" % (user, c(password(url_safe=True), "url_credentials"), host, db)
    if k == 10:
        return "amqp://%s:%s@rabbitmq:5672/%%2F" % (user, c(password(url_safe=True), "url_credentials"))
    if k == 11:
        return "clickhouse://%s:%s@%s:9440/%s?secure=true" % (user, c(password(url_safe=True), "url_credentials"), host, db)
    return "smtp://%s:%s@smtp.%s:587" % (pick(["mailer", "noreply", "apikey"]), c(password(url_safe=True), "url_credentials"), pick(COMPANY_DOMAINS))


def t_conn_config():
    c = C()
    k = R.randrange(9)
    if k == 0:
        t = "spring:\n  datasource:\n    url: jdbc:postgresql://%s:5432/%s\n    username: %s\n    password: %s\n  jpa:\n    hibernate:\n      ddl-auto: validate" % (
            pick(HOSTS), pick(DBN), pick(USERS), c(password(), "password"))
    elif k == 1:
        t = json.dumps({"ConnectionStrings": {"DefaultConnection": conn_string(c)}, "Logging": {"LogLevel": {"Default": "Information"}}}, indent=2)
    elif k == 2:
        t = "production:\n  adapter: postgresql\n  encoding: unicode\n  database: %s\n  username: %s\n  password: \"%s\"\n  host: %s\n  pool: 10" % (
            pick(DBN), pick(USERS), c(password(), "password"), pick(HOSTS))
    elif k == 3:
        t = "define( 'DB_NAME', 'wp_%s' );\ndefine( 'DB_USER', '%s' );\ndefine( 'DB_PASSWORD', '%s' );\ndefine( 'DB_HOST', 'localhost' );" % (
            pick(DBN), pick(USERS), c(password(), "password"))
    elif k == 4:
        t = "DATABASES = {\n    \"default\": {\n        \"ENGINE\": \"django.db.backends.postgresql\",\n        \"NAME\": \"%s\",\n        \"USER\": \"%s\",\n        \"PASSWORD\": \"%s\",\n        \"HOST\": \"%s\",\n        \"PORT\": \"5432\",\n    }\n}" % (
            pick(DBN), pick(USERS), c(password(), "password"), pick(HOSTS))
    elif k == 5:
        t = "[alembic]\nscript_location = migrations\nsqlalchemy.url = %s" % conn_string(c)
    elif k == 6:
        t = ("sasl.mechanism=PLAIN\nsecurity.protocol=SASL_SSL\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"%s\" password=\"%s\";" % (
            rs(UP + DIG, 16), c(rs(B62 + "+/", 64), "password")))
    elif k == 7:
        t = "connection string for the new replica: %s" % conn_string(c)
    else:
        t = "const pool = new Pool({ connectionString: '%s' });" % conn_string(c)
    emit(t, c)


# ---------------------------------------------------------------------------
# cloud CLI configuration
# ---------------------------------------------------------------------------

def escaped_pem():
    pem = pem_private(pick(["pkcs8_rsa", "pkcs8_ec"]))
    return pem.replace("\n", "\\n") + "\\n"


def t_cloud_cli():
    c = C()
    k = R.randrange(8)
    if k == 0:
        lines = ["[default]", "aws_access_key_id = %s" % c(aws_key_id(), "aws_access_key_id"),
                 "aws_secret_access_key = %s" % c(aws_secret(), "aws_secret_access_key")]
        if chance(0.6):
            prof = pick(["prod", "staging", "billing-admin"])
            tmp = chance(0.5)
            lines += ["", "[%s]" % prof, "aws_access_key_id=%s" % c(aws_key_id(tmp), "aws_access_key_id"),
                      "aws_secret_access_key=%s" % c(aws_secret(), "aws_secret_access_key")]
            if tmp:
                lines.append("aws_session_token=%s" % c(aws_session_token(), "aws_session_token"))
            lines.append("region=eu-west-1")
        t = pick(["~/.aws/credentials:\n", "$ cat ~/.aws/credentials\n", ""]) + "\n".join(lines)
    elif k == 1:
        d = {"account": "", "client_id": "%s-%s.apps.googleusercontent.com" % (digits(12), rs(LO + DIG, 32)),
             "client_secret": c(gcp_client_secret(), "gcp_oauth_client_secret"),
             "quota_project_id": "%s-%d" % (pick(ORGS), R.randint(100000, 999999)),
             "refresh_token": c(gcp_refresh_token(), "gcp_refresh_token"), "type": "authorized_user",
             "universe_domain": "googleapis.com"}
        t = "~/.config/gcloud/application_default_credentials.json\n" + json.dumps(d, indent=2)
    elif k == 2:
        proj = "%s-%s" % (pick(ORGS), pick(["prod", "data", "ml"]))
        pk = escaped_pem()
        t = ('{\n  "type": "service_account",\n  "project_id": "%s",\n  "private_key_id": "%s",\n  "private_key": "%s",\n'
             '  "client_email": "%s@%s.iam.gserviceaccount.com",\n  "client_id": "%s",\n  "auth_uri": "https://accounts.google.com/o/oauth2/auth",\n'
             '  "token_uri": "https://oauth2.googleapis.com/token"\n}') % (proj, rs(HEX, 40), pk, pick(["deployer", "bq-reader", "terraform"]), proj, digits(21))
        c(pk[:-2], "private_key")
    elif k == 3:
        d = {"appId": uuid4(), "displayName": "%s-ci" % pick(ORGS), "password": c(azure_client_secret(), "azure_client_secret"), "tenant": uuid4()}
        t = "$ az ad sp create-for-rbac --name %s-ci --role contributor --scopes /subscriptions/%s\n%s" % (
            d["displayName"][:-3], uuid4(), json.dumps(d, indent=2))
    elif k == 4:
        cluster = pick(["prod-eu", "staging", "k3s-homelab", "gke-ml"])
        user = pick(["admin", "deployer", "ci-bot"])
        auth = R.randrange(3)
        lines = ["apiVersion: v1", "kind: Config", "clusters:", "- cluster:",
                 "    certificate-authority-data: %s" % b64(pem_cert().encode())[:180] + "...",
                 "    server: https://%s:6443" % pick(["10.0.0.10", "k8s.%s" % pick(COMPANY_DOMAINS), "127.0.0.1"]),
                 "  name: %s" % cluster, "contexts:", "- context:", "    cluster: %s" % cluster, "    user: %s" % user,
                 "  name: %s" % cluster, "current-context: %s" % cluster, "users:", "- name: %s" % user, "  user:"]
        if auth == 0:
            lines.append("    token: %s" % c(jwt("k8s"), "jwt"))
        elif auth == 1:
            lines.append("    token: %s" % c(k8s_static_token(), "kubernetes_token"))
        else:
            lines.append("    client-certificate-data: %s" % b64(pem_cert().encode()))
            lines.append("    client-key-data: %s" % c(b64(pem_private(pick(["rsa", "ec"])).encode()), "private_key"))
        t = "\n".join(lines)
    elif k == 5:
        t = "github.com:\n    git_protocol: https\n    users:\n        %s:\n            oauth_token: %s\n    oauth_token: %s\n    user: %s" % (
            "mkeller", c(github_token("gho_"), "github_token"), c(github_token("gho_"), "github_token"), "mkeller")
    elif k == 6:
        acct = pick(ORGS) + pick(["prod", "data", "logs"])
        t = "AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net\"" % (
            acct, c(azure_storage_key(), "azure_storage_key"))
    else:
        acct = pick(ORGS) + "blob"
        t = "https://%s.blob.core.windows.net/exports/%s.csv?sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2025-%02d-%02dT18:00:00Z&st=2025-01-01T10:00:00Z&spr=https&sig=%s" % (
            acct, pick(["customers", "daily", "q3-report"]), R.randint(1, 12), R.randint(1, 28), c(azure_sas_sig(), "azure_sas_token"))
    emit(t, c)


# ---------------------------------------------------------------------------
# private keys, certificates, JWT, cookies, webhooks, oauth, smtp
# ---------------------------------------------------------------------------

def indent(s, n):
    return "\n".join(" " * n + l for l in s.split("\n"))


def t_private_key():
    c = C()
    k = R.randrange(7)
    if k == 0:
        key = pem_private()
        t = "$ cat /etc/ssl/private/%s.key\n%s" % (pick(["server", "api", "wildcard"]), c(key, "private_key"))
    elif k == 1:
        key = pem_private(pick(["pkcs8_rsa", "rsa", "ec", "pkcs8_ec"]))
        t = "fullchain + key for the ingress (please check why nginx rejects it):\n%s\n%s\n%s" % (pem_cert(), pem_cert(), c(key, "private_key"))
    elif k == 2:
        key = pem_private(pick(["ec", "pkcs8_ec", "ed25519"]))
        ind = indent(key, 4)
        t = "tls:\n  crt: |\n%s\n  key: |\n%s" % (indent(pem_cert(), 4), ind)
        c(ind.lstrip(" "), "private_key")
    elif k == 3:
        key = pem_private("openssh")
        t = "here's the deploy key for the staging box, add it to the runner:\n\n%s" % c(key, "private_key")
    elif k == 4:
        key = pem_private(pick(["rsa", "pkcs8_rsa"]))
        esc = key.replace("\n", "\\n")
        t = "GITHUB_APP_ID=%d\nGITHUB_APP_PRIVATE_KEY=\"%s\"" % (R.randint(100000, 999999), c(esc, "private_key"))
    elif k == 5:
        key = pem_private(pick(["ec", "ed25519", "pkcs8_ec"]))
        t = "```\n%s\n```\nis this the right format for the JWT signing key or does it need to be PKCS#8?" % c(key, "private_key")
    else:
        key = pem_private("encrypted")
        t = "%s\npassphrase: %s" % (c(key, "private_key"), c(password(), "password"))
    emit(t, c)


def t_jwt():
    c = C()
    k = R.randrange(7)
    if k == 0:
        t = "Authorization: Bearer %s" % c(jwt(), "jwt")
    elif k == 1:
        t = "Cookie: access_token=%s; refresh_token=%s; lang=en" % (c(jwt("hs"), "jwt"), c(jwt("hs"), "jwt"))
    elif k == 2:
        t = "Set-Cookie: id_token=%s; Path=/; HttpOnly; Secure; SameSite=Lax" % c(jwt(pick(["rs", "es"])), "jwt")
    elif k == 3:
        t = "const socket = new WebSocket(\"wss://rt.%s/v1/stream?token=%s\");" % (pick(COMPANY_DOMAINS), c(jwt(), "jwt"))
    elif k == 4:
        t = "SUPABASE_URL=https://%s.supabase.co\nSUPABASE_SERVICE_ROLE_KEY=%s" % (rs(LO, 20), c(jwt("supabase"), "jwt"))
    elif k == 5:
        t = "localStorage:\n  auth.user = {\"id\":%d,\"plan\":\"pro\"}\n  auth.token = %s" % (R.randint(1, 99999), c(jwt(), "jwt"))
    else:
        t = "the token from the login response doesn't validate on the gateway, any idea why?\n\n%s\n\n(it says `invalid signature`)" % c(jwt(), "jwt")
    emit(t, c)


def t_cookie():
    c = C()
    name, val = session_cookie()
    k = R.randrange(5)
    dom = pick(COMPANY_DOMAINS)
    if k == 0:
        t = "Set-Cookie: %s=%s; Path=/; Expires=Wed, 0%d Jan 2026 10:00:00 GMT; HttpOnly; Secure" % (name, c(val, "session_cookie"), R.randint(1, 9))
    elif k == 1:
        t = "GET /account HTTP/1.1\nHost: app.%s\nCookie: _ga=GA1.2.%d.%d; %s=%s; consent=1\nAccept: text/html" % (
            dom, R.randint(10 ** 8, 10 ** 9), R.randint(1700000000, 1760000000), name, c(val, "session_cookie"))
    elif k == 2:
        t = "# Netscape HTTP Cookie File\n.%s\tTRUE\t/\tTRUE\t%d\t%s\t%s" % (dom, R.randint(1760000000, 1800000000), name, c(val, "session_cookie"))
    elif k == 3:
        t = "r = requests.get(\"https://app.%s/api/export\", cookies={\"%s\": \"%s\"})" % (dom, name, c(val, "session_cookie"))
    else:
        t = "copied from devtools > Application > Cookies:\n%s\t%s\t.%s\t/\tSession\t%d\t✓\t✓" % (name, c(val, "session_cookie"), dom, len(val))
    emit(t, c)


def t_webhook():
    c = C()
    k = R.randrange(8)
    if k == 0:
        t = "receivers:\n  - name: slack-alerts\n    slack_configs:\n      - api_url: '%s'\n        channel: '#alerts'\n        send_resolved: true" % c(slack_webhook(), "slack_webhook")
    elif k == 1:
        t = "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy finished\"}' %s" % c(slack_webhook(), "slack_webhook")
    elif k == 2:
        t = "DISCORD_WEBHOOK_URL=%s" % c(discord_webhook(), "discord_webhook")
    elif k == 3:
        t = "requests.post(\"%s\", json={\"content\": f\"Build {build_id} failed\"})" % c(discord_webhook(), "discord_webhook")
    elif k == 4:
        t = "Teams connector for #ops: %s\n(use the Adaptive Card payload, not MessageCard)" % c(teams_webhook(), "teams_webhook")
    elif k == 5:
        t = "- name: Notify Teams\n  run: |\n    curl -H 'Content-Type: application/json' -d @card.json '%s'" % c(teams_webhook(), "teams_webhook")
    elif k == 6:
        t = "why does this return 404? `%s` (we rotated the app last week)" % c(slack_webhook(), "slack_webhook")
    else:
        t = "const HOOK = '%s';\nawait fetch(HOOK, { method: 'POST', body: JSON.stringify({ text: msg }) });" % c(
            pick([slack_webhook, discord_webhook])(), "slack_webhook")
        if "discord" in t:
            c.pairs[-1] = (c.pairs[-1][0], "discord_webhook")
    emit(t, c)


def t_oauth():
    c = C()
    k = R.randrange(7)
    if k == 0:
        d = {"web": {"client_id": "%s-%s.apps.googleusercontent.com" % (digits(12), rs(LO + DIG, 32)), "project_id": "%s-web" % pick(ORGS),
                     "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
                     "client_secret": c(gcp_client_secret(), "gcp_oauth_client_secret"),
                     "redirect_uris": ["https://app.%s/auth/callback" % pick(COMPANY_DOMAINS)]}}
        t = "client_secret.json:\n" + json.dumps(d)
    elif k == 1:
        t = "GITHUB_CLIENT_ID=Iv1.%s\nGITHUB_CLIENT_SECRET=%s" % (rs(HEX, 16), c(gh_oauth_secret(), "github_oauth_client_secret"))
    elif k == 2:
        t = "AUTH0_DOMAIN=%s.eu.auth0.com\nAUTH0_CLIENT_ID=%s\nAUTH0_CLIENT_SECRET=%s" % (pick(ORGS), rs(B62, 32), c(auth0_client_secret(), "auth0_client_secret"))
    elif k == 3:
        t = "okta:\n  oauth2:\n    issuer: https://%s.okta.com/oauth2/default\n    client-id: 0oa%s\n    client-secret: %s" % (
            pick(ORGS), rs(B62, 17), c(okta_client_secret(), "okta_client_secret"))
    elif k == 4:
        t = "GoogleProvider({\n  clientId: process.env.GOOGLE_ID,\n  clientSecret: \"%s\",\n})," % c(gcp_client_secret(), "gcp_oauth_client_secret")
    elif k == 5:
        t = "AzureADProvider({ clientId: \"%s\", clientSecret: \"%s\", tenantId: \"%s\" })" % (uuid4(), c(azure_client_secret(), "azure_client_secret"), uuid4())
    else:
        t = json.dumps({"realm": pick(ORGS), "clientId": "%s-backend" % pick(REPOS), "secret": c(rs(B62, 32), "oauth_client_secret"),
                        "redirectUris": ["https://app.%s/*" % pick(COMPANY_DOMAINS)]}, indent=2)
    emit(t, c)


def t_smtp():
    c = C()
    k = R.randrange(8)
    p = Person()
    em = work_email(p.first, p.last)
    if k == 0:
        t = "EMAIL_HOST = \"smtp.gmail.com\"\nEMAIL_PORT = 587\nEMAIL_USE_TLS = True\nEMAIL_HOST_USER = \"%s\"\nEMAIL_HOST_PASSWORD = \"%s\"" % (
            c(em, "email"), c(gmail_app_password(), "password"))
    elif k == 1:
        t = "MAIL_MAILER=smtp\nMAIL_HOST=smtp.mailgun.org\nMAIL_PORT=587\nMAIL_USERNAME=postmaster@mg.%s\nMAIL_PASSWORD=%s\nMAIL_ENCRYPTION=tls" % (
            pick(COMPANY_DOMAINS), c(password(), "password"))
    elif k == 2:
        t = "/etc/postfix/sasl_passwd:\n[smtp.gmail.com]:587 %s:%s" % (c(em, "email"), c(gmail_app_password().replace(" ", ""), "password"))
    elif k == 3:
        t = "account default\nhost smtp.office365.com\nport 587\nauth on\ntls on\nuser %s\npassword %s\nfrom %s" % (
            c(em, "email"), c(password(), "password"), em)
    elif k == 4:
        t = "const transporter = nodemailer.createTransport({\n  host: 'smtp.sendgrid.net',\n  port: 587,\n  auth: { user: 'apikey', pass: '%s' },\n});" % c(sendgrid_key(), "sendgrid_api_key")
    elif k == 5:
        t = "with smtplib.SMTP_SSL(\"smtp.%s\", 465) as s:\n    s.login(\"%s\", \"%s\")\n    s.send_message(msg)" % (
            pick(["fastmail.com", "zoho.eu", "gmail.com", "mail.ru", "web.de"]), c(em, "email"), c(password(), "password"))
    elif k == 6:
        t = "SMTP relay: smtp://%s:%s@smtp.%s:587 (from address %s)" % (
            "mailer", c(password(url_safe=True), "url_credentials"), pick(COMPANY_DOMAINS), c(em, "email"))
    else:
        t = "spring.mail.host=smtp.%s\nspring.mail.username=%s\nspring.mail.password=%s\nspring.mail.properties.mail.smtp.starttls.enable=true" % (
            pick(COMPANY_DOMAINS), c(em, "email"), c(password(), "password"))
    emit(t, c)


# ---------------------------------------------------------------------------
# passwords in prose
# ---------------------------------------------------------------------------

PW_PROSE = [
    "my password is {p}", "the wifi password is {p}", "login: admin / {p}", "I reset it to {p} for now, change it after",
    "use '{p}' as the password", "temporary password: {p}", "pass = {p}", "the root password on staging is still {p} lol",
    "can you try logging in with {p}?", "creds for the grafana box are ops / {p}", "pw is {p} (case sensitive)",
    "Password for the shared 1Password vault export: {p}", "the zip is encrypted, password \"{p}\"",
    "Mein Passwort ist {p}", "Das Kennwort lautet {p}", "Zugangsdaten: Benutzer admin, Passwort {p}",
    "Mon mot de passe est {p}", "le mdp c'est {p}", "identifiant : admin, mot de passe : {p}",
    "Mi contraseña es {p}", "la clave del wifi es {p}", "usuario: soporte / contraseña: {p}",
    "La mia password è {p}", "la password nuova è {p}", "Minha senha é {p}", "a senha do servidor é {p}",
    "Mijn wachtwoord is {p}", "het wachtwoord is nu {p}", "Moje hasło to {p}", "hasło do bazy: {p}",
    "Mitt lösenord är {p}", "Passordet er {p}", "Adgangskoden er {p}", "Salasana on {p}", "Heslo je {p}",
    "A jelszó: {p}", "Parola: {p}", "Şifrem {p}", "parola şu: {p}",
    "パスワードは{p}です", "仮パスワード：{p}", "我的密码是{p}", "登录密码是 {p}", "密碼：{p}",
    "비밀번호는 {p}입니다", "비번: {p}", "Мой пароль {p}", "пароль от сервера: {p}", "Пароль: {p}",
    "Ο κωδικός είναι {p}", "كلمة المرور هي {p}", "मेरा पासवर्ड {p} है", "Mật khẩu là {p}", "Kata sandinya {p}",
    "Kata laluan: {p}", "הסיסמה היא {p}", "รหัสผ่านคือ {p}",
]


def t_pw_prose():
    c = C()
    tpl = pick(PW_PROSE)
    p = password(style=pick([0, 0, 1, 1, 2, 3, 5, 6]))
    if tpl.endswith("{p}") and p[-1].isalnum() and chance(0.3):
        tpl += pick([".", " 🙂", "\nthanks!", " — don't share it"])
    pre = pick(["", "", "hey, ", "FYI ", "[%s] " % ts_plain()[11:16], "@%s " % pick(["ana", "tom", "mehmet", "yuki"])])
    emit(pre + tpl.format(p=c(p, "password")), c)


# ---------------------------------------------------------------------------
# provider keys quoted in source code of many languages
# ---------------------------------------------------------------------------

SRC = [
    '{env} = "{v}"',
    "os.environ[\"{env}\"] = \"{v}\"",
    "export const {env} = `{v}`;",
    "private static final String {env} = \"{v}\";",
    "var {lenv} = @\"{v}\";",
    "${lenv} = '{v}';",
    "val {lenv} = \"\"\"{v}\"\"\"",
    "let {lenv} = \"{v}\"",
    "$env:{env} = \"{v}\"",
    "set {env}={v}",
    "set -gx {env} {v}",
    "ENV {env}={v}",
    "ARG {env}={v}",
    "export {env} := {v}",
    "%env {env}={v}",
    "{env}: \"{v}\"",
    "<add key=\"{env}\" value=\"{v}\" />",
    "config.{lenv} = \"{v}\";",
    "#define {env} \"{v}\"",
    "(def {lenv} \"{v}\")",
    "{lenv} <- \"{v}\"",
    "Sys.setenv({env} = \"{v}\")",
    "local {lenv} = \"{v}\"",
    "{lenv} = \"{v}\"  # TODO move to vault",
    "std::env::set_var(\"{env}\", \"{v}\");",
    "os.Setenv(\"{env}\", \"{v}\")",
]
SRC_SPECIFIC = {
    "openai_api_key": ["client = OpenAI(api_key='{v}')", "client := openai.NewClient(\"{v}\")",
                       "const openai = new OpenAI({{ apiKey: \"{v}\" }});", "llm = ChatOpenAI(model=\"gpt-4o\", api_key=\"{v}\")"],
    "anthropic_api_key": ["client = anthropic.Anthropic(api_key=\"{v}\")", "const anthropic = new Anthropic({{ apiKey: '{v}' }});",
                          "headers = {{\"x-api-key\": \"{v}\", \"anthropic-version\": \"2023-06-01\"}}"],
    "stripe_secret_key": ["const stripe = require('stripe')('{v}');", "Stripe.api_key = '{v}'", "\\Stripe\\Stripe::setApiKey('{v}');",
                          "StripeConfiguration.ApiKey = \"{v}\";"],
    "github_token": ["g = Github(\"{v}\")", "const octokit = new Octokit({{ auth: \"{v}\" }});"],
    "huggingface_token": ["login(token=\"{v}\")", "model = AutoModel.from_pretrained(\"meta-llama/Llama-3.1-8B\", token=\"{v}\")"],
    "slack_token": ["client = WebClient(token=\"{v}\")", "const app = new App({{ token: '{v}', signingSecret }});"],
    "sendgrid_api_key": ["sg = SendGridAPIClient('{v}')", "sgMail.setApiKey('{v}');"],
    "gcp_api_key": ["genai.configure(api_key=\"{v}\")", "<script src=\"https://maps.googleapis.com/maps/api/js?key={v}&callback=initMap\"></script>"],
}


def t_source(p=None):
    c = C()
    p = p or provider(0.7)
    val = p[1]()
    if p[0] in SRC_SPECIFIC and chance(0.5):
        tpl = pick(SRC_SPECIFIC[p[0]])
    else:
        tpl = pick(SRC)
    line = tpl.format(v="\x00", env=p[2], lenv=p[2].lower())
    line = line.replace("\x00", c(val, p[0]))
    ctx = pick(["", "", "", "in %s:\n" % pick(["main.py", "index.js", "main.go", "Program.cs", "lib.rs", "App.java", "config.php",
                                            "Dockerfile", "Makefile", "notebook cell 3", "setup.ps1", "init.lua"]),
               "why does this fail with 401?\n\n"])
    if chance(0.3):
        line = line + "\n" + pick(["print(client.models.list())", "// TODO: remove before pushing", "fmt.Println(client)",
                                   "resp = client.chat.completions.create(model=\"gpt-4o\", messages=msgs)"])
    emit(ctx + line, c)


def t_query_string():
    c = C()
    k = R.randrange(9)
    if k == 0:
        t = "https://maps.googleapis.com/maps/api/geocode/json?address=%s&key=%s" % (pick(["1600+Amphitheatre+Pkwy", "Rue+de+Rivoli+Paris", "Alexanderplatz+Berlin"]), c(gcp_api_key(), "gcp_api_key"))
    elif k == 1:
        t = "https://api.telegram.org/bot%s/sendMessage?chat_id=-100%s&text=deploy+ok" % (c(telegram_token(), "telegram_bot_token"), digits(10))
    elif k == 2:
        t = "https://slack.com/api/conversations.history?token=%s&channel=C%s&limit=50" % (c(slack_token(pick(["xoxb", "xoxp"])), "slack_token"), rs(UP + DIG, 10))
    elif k == 3:
        t = "https://gitlab.com/api/v4/projects/%d/pipelines?private_token=%s&ref=main" % (R.randint(1000000, 60000000), c(gitlab_token("glpat-"), "gitlab_token"))
    elif k == 4:
        t = "%s - - [%02d/Mar/2025:%02d:%02d:%02d +0000] \"GET /api/v1/export?format=csv&api_key=%s HTTP/1.1\" 200 %d \"-\" \"python-requests/2.32.3\"" % (
            pick(["203.0.113.%d" % R.randint(1, 254), "198.51.100.%d" % R.randint(1, 254), "10.4.%d.%d" % (R.randint(0, 9), R.randint(1, 254))]),
            R.randint(1, 28), R.randint(0, 23), R.randint(0, 59), R.randint(0, 59), c(openai_key() if chance(0.3) else rs(B62, 40), "api_key"), R.randint(200, 90000))
        if c.pairs[-1][0].startswith("sk-"):
            c.pairs[-1] = (c.pairs[-1][0], "openai_api_key")
    elif k == 5:
        t = "wss://api.%s/v1/realtime?model=gpt-4o-realtime&api_key=%s" % (pick(["openai.com", "harborline.io"]), c(openai_key("proj"), "openai_api_key"))
    elif k == 6:
        t = "https://huggingface.co/api/models/%s/%s?token=%s" % (pick(ORGS), pick(["llama-ft", "bert-ner", "whisper-small-de"]), c(hf_token(), "huggingface_token"))
    elif k == 7:
        t = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=%s" % c(gcp_api_key(), "gcp_api_key")
    else:
        t = "GET https://api.github.com/repos/%s/%s/actions/runs?access_token=%s" % (pick(ORGS), pick(REPOS), c(github_token(), "github_token"))
    emit(pick(["", "", "request: ", "the link I used: ", "log line:\n"]) + t, c)


def t_log_fields():
    c = C()
    k = R.randrange(6)
    p = provider()
    val = p[1]()
    ts = ts_iso()
    if k == 0:
        t = "ts=%s level=debug msg=\"outgoing request\" method=POST url=https://%s/v1/x status=401 header.authorization=\"Bearer %s\" duration_ms=%d" % (
            ts, p[3], c(val, p[0]), R.randint(5, 900))
    elif k == 1:
        t = json.dumps({"time": ts, "level": "DEBUG", "logger": "httpx", "msg": "HTTP Request", "request": {"method": "POST", "url": "https://%s/v1/x" % p[3],
                        "headers": {"content-type": "application/json", "authorization": "Bearer " + c(val, p[0])}}, "status": 429})
    elif k == 2:
        t = "%s DEBUG urllib3.connectionpool: https://%s:443 \"GET /v1/account HTTP/1.1\" 401 None\n%s DEBUG app.client: request headers={'User-Agent': 'app/1.4', 'X-Api-Key': '%s'}" % (
            ts[:19].replace("T", " "), p[3], ts[:19].replace("T", " "), c(val, p[0]))
    elif k == 3:
        t = "[%s] ERROR config: invalid value for %s: %s (expected prefix mismatch?)" % (ts, p[2], c(val, p[0]))
    elif k == 4:
        pers = Person()
        t = json.dumps({"ts": ts, "event": "user.updated", "actor": "admin", "changes": {"email": [None, c(pers.email, "email")],
                        "phone": [None, c(pers.phone, "phone")]}, "request_id": uuid4()}, ensure_ascii=False)
    else:
        pw = password()
        t = "%s WARN  [auth] login failed user=%s password=%s ip=10.%d.%d.%d attempts=%d" % (
            ts, pick(USERS), c(pw, "password"), R.randint(0, 255), R.randint(0, 255), R.randint(1, 254), R.randint(2, 9))
    emit(t, c)


def t_dotfile():
    c = C()
    k = R.randrange(12)
    if k == 0:
        t = "# ~/.npmrc\n//registry.npmjs.org/:_authToken=%s\n@%s:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=%s" % (
            c(npm_token(), "npm_token"), pick(ORGS), c(github_token("ghp_"), "github_token"))
    elif k == 1:
        t = "[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = %s" % c(pypi_token(), "pypi_token")
    elif k == 2:
        t = "machine github.com login %s password %s\nmachine api.heroku.com login %s password %s" % (
            pick(["mkeller", "ana-dev"]), c(github_token(), "github_token"), "ops", c(uuid4(), "heroku_api_key"))
    elif k == 3:
        u = pick(ORGS)
        pw = dockerhub_token()
        t = json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": c(b64(("%s:%s" % (u, pw)).encode()), "basic_auth")},
                                  "ghcr.io": {"auth": c(b64(("%s:%s" % (u, github_token("ghp_"))).encode()), "basic_auth")}}}, indent=2)
        t = "~/.docker/config.json\n" + t
    elif k == 4:
        t = "<settings>\n  <servers>\n    <server>\n      <id>%s-releases</id>\n      <username>deployer</username>\n      <password>%s</password>\n    </server>\n  </servers>\n</settings>" % (
            pick(ORGS), c(password(), "password"))
    elif k == 5:
        t = "org.gradle.jvmargs=-Xmx4g\nsigning.keyId=%s\nsigning.password=%s\nossrhUsername=%s\nossrhPassword=%s" % (
            rs(HEX.upper(), 8), c(password(), "password"), pick(USERS), c(password(), "password"))
    elif k == 6:
        t = "npmRegistryServer: \"https://registry.npmjs.org\"\nnpmAuthToken: \"%s\"\nnodeLinker: node-modules" % c(npm_token(), "npm_token")
    elif k == 7:
        t = "[global]\nindex-url = https://%s:%s@pypi.%s/simple\ntrusted-host = pypi.%s" % (
            pick(USERS), c(password(url_safe=True), "url_credentials"), pick(COMPANY_DOMAINS), "internal")
    elif k == 8:
        t = "[default]\naccess_key = %s\nsecret_key = %s\nhost_base = s3.amazonaws.com\nuse_https = True" % (
            c(aws_key_id(), "aws_access_key_id"), c(aws_secret(), "aws_secret_access_key"))
    elif k == 9:
        t = json.dumps({"github-oauth": {"github.com": c(github_token(pick(["ghp_", "gho_"])), "github_token")},
                        "http-basic": {"repo.packagist.com": {"username": "token", "password": c(rs(HEX, 64), "password")}}}, indent=4)
        t = "auth.json (composer):\n" + t
    elif k == 10:
        t = 'credentials "app.terraform.io" {\n  token = "%s"\n}' % c(terraform_token(), "terraform_token")
    else:
        t = "$ cat config/master.key\n%s" % c(rails_master_key(), "rails_master_key")
    emit(t, c)


def t_misc_provider():
    """Less common but still everyday keys, each in its usual home."""
    c = C()
    k = R.randrange(14)
    if k == 0:
        t = "TWILIO_ACCOUNT_SID=%s\nTWILIO_AUTH_TOKEN=%s\nTWILIO_API_KEY=SK%s\nTWILIO_API_SECRET=%s" % (
            twilio_sid(), c(twilio_token(), "twilio_auth_token"), rs(HEX, 32), c(rs(B62, 32), "twilio_api_secret"))
    elif k == 1:
        t = "datadog:\n  apiKey: %s\n  appKey: %s\n  site: datadoghq.eu" % (c(datadog_api(), "datadog_api_key"), c(datadog_app(), "datadog_app_key"))
    elif k == 2:
        t = "DISCORD_BOT_TOKEN=%s" % c(discord_bot_token(), "discord_bot_token")
    elif k == 3:
        t = "bot = telebot.TeleBot(\"%s\")" % c(telegram_token(), "telegram_bot_token")
    elif k == 4:
        t = "export TS_AUTHKEY=%s\ntailscale up --authkey=$TS_AUTHKEY --ssh" % c(tailscale_key(), "tailscale_key")
    elif k == 5:
        t = "# created: %s\n# public key: age1%s\n%s" % (ts_iso()[:19], rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58), c(age_key(), "age_secret_key"))
    elif k == 6:
        t = "mailchimp.setConfig({ apiKey: \"%s\", server: \"us%d\" });" % (c(mailchimp_key(), "mailchimp_api_key"), R.randint(1, 21))
    elif k == 7:
        t = "SLACK_APP_TOKEN=%s\nSLACK_BOT_TOKEN=%s\nSLACK_SIGNING_SECRET=%s" % (c(slack_token("xapp"), "slack_token"), c(slack_token("xoxb"), "slack_token"), c(rs(HEX, 32), "slack_signing_secret"))
    elif k == 8:
        t = "gitlab-runner register --non-interactive --url https://gitlab.com --token %s --executor docker" % c(gitlab_token("glrt-"), "gitlab_token")
    elif k == 9:
        t = "curl -X POST --fail -F token=%s -F ref=main https://gitlab.com/api/v4/projects/%d/trigger/pipeline" % (c(gitlab_token("glptt-"), "gitlab_token"), R.randint(1000, 9999999))
    elif k == 10:
        t = "AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s AWS_SESSION_TOKEN=%s aws s3 ls s3://%s-backups" % (
            c(aws_key_id(True), "aws_access_key_id"), c(aws_secret(), "aws_secret_access_key"), c(aws_session_token(), "aws_session_token"), pick(ORGS))
    elif k == 11:
        t = "azure-pipelines: AZURE_DEVOPS_EXT_PAT=%s az devops login --organization https://dev.azure.com/%s" % (c(azure_devops_pat(), "azure_devops_pat"), pick(ORGS))
    elif k == 12:
        t = "openai:\n  api_type: azure\n  api_base: https://%s.openai.azure.com/\n  api_key: %s\n  api_version: 2024-10-21" % (
            pick(ORGS), c(azure_openai_key(), "azure_openai_key"))
    else:
        t = "stripe:\n  secret_key: %s\n  webhook_secret: %s\n  publishable_key: pk_live_%s" % (
            c(stripe_key("sk_live_"), "stripe_secret_key"), c(stripe_whsec(), "stripe_webhook_secret"), rs(B62, 99))
    emit(t, c)


# ---------------------------------------------------------------------------
# personal data in forms, logs, chat
# ---------------------------------------------------------------------------

def t_form():
    c = C()
    p = Person()
    k = R.randrange(8)
    if k == 0:
        d = {"form_id": "signup-v3", "submitted_at": ts_iso(), "fields": {"name": p.name, "email": c(p.email, "email"),
             "phone": c(p.phone, "phone"), "dob": p.dob, "newsletter": chance(0.5)}}
        t = json.dumps(d, ensure_ascii=False, indent=pick([None, 2]))
    elif k == 1:
        t = "BEGIN:VCARD\nVERSION:3.0\nFN:%s\nTEL;TYPE=CELL:%s\nTEL;TYPE=WORK:%s\nEMAIL;TYPE=INTERNET:%s\nADR;TYPE=HOME:;;%s;%s;;;\nEND:VCARD" % (
            p.name, c(phone(p.cc, True), "phone"), c(phone(p.cc, False), "phone"), c(p.email, "email"), p.street, p.city)
    elif k == 2:
        t = "--\n%s\n%s | %s\nM: %s\n%s" % (p.name, pick(["Head of Finance", "Senior Engineer", "Account Manager", "CTO"]), pick(ORGS).title(),
                                         c(phone(p.cc, True), "phone"), c(work_email(p.first, p.last), "email"))
    elif k == 3:
        t = "[%02d/%02d/2025, %02d:%02d] %s: ok call me on %s when you land\n[%02d/%02d/2025, %02d:%02d] %s: 👍" % (
            R.randint(1, 28), R.randint(1, 12), R.randint(0, 23), R.randint(0, 59), p.first, c(p.phone, "phone"),
            R.randint(1, 28), R.randint(1, 12), R.randint(0, 23), R.randint(0, 59), pick(["Sam", "Ines", "Kenji"]))
    elif k == 4:
        lines = ["employee:", "  name: %s" % p.name, "  date_of_birth: %s" % p.dob, "  email: %s" % c(work_email(p.first, p.last), "email"),
                 "  personal_phone: \"%s\"" % c(p.phone, "phone")]
        if p.nid:
            lines.append("  %s: \"%s\"" % (p.nid[0], c(p.nid[1], p.nid[0])))
        if p.iban:
            lines.append("  payroll_iban: %s" % c(iban(p.cc), "iban"))
        t = "\n".join(lines)
    elif k == 5:
        t = "%s INFO  checkout: order=%s customer=%s card=%s exp=%02d/%d amount=%d.%02d EUR" % (
            ts_iso(), "ORD-" + digits(8), c(p.email, "email"), c(card(style=0), "card_number"), R.randint(1, 12), R.randint(2026, 2031), R.randint(5, 900), R.randint(0, 99))
    elif k == 6:
        t = json.dumps({"shipment": {"to": {"name": p.name, "street": p.street, "city": p.city, "country": p.cc,
                        "phone": c(p.phone, "phone"), "email": c(p.email, "email")}, "service": pick(["express", "standard"]), "weight_kg": round(R.uniform(0.2, 20), 2)}}, ensure_ascii=False)
    else:
        q = ["1. What is your full name?\n%s" % p.name, "2. Email address\n%s" % c(p.email, "email"), "3. Mobile number\n%s" % c(p.phone, "phone")]
        if p.nid:
            q.append("4. %s\n%s" % (NIDNAME.get(p.cc, "National ID"), c(p.nid[1], p.nid[0])))
        t = "New response to \"Onboarding form\"\n\n" + "\n\n".join(q)
    emit(t, c)


def t_contacts():
    c = C()
    ccs = R.sample(sorted(PHONE), R.randint(3, 6))
    lines = [pick(["Emergency contacts:", "Team phone list", "on-call rota (%s):" % pick(["March", "Q3", "this week"]), "Contacts"])]
    for cc in ccs:
        p = Person(cc)
        intl = chance(0.6)
        if chance(0.4):
            lines.append("- %s (%s): %s, %s" % (p.name, cc, c(phone(cc, intl), "phone"), c(p.email, "email")))
        else:
            lines.append("- %s (%s): %s" % (p.name, cc, c(phone(cc, intl), "phone")))
    emit("\n".join(lines), c)


def t_payment():
    c = C()
    k = R.randrange(7)
    p = Person()
    if k == 0:
        t = "<CdtTrfTxInf>\n  <Amt><InstdAmt Ccy=\"EUR\">%d.%02d</InstdAmt></Amt>\n  <Cdtr><Nm>%s</Nm></Cdtr>\n  <CdtrAcct><Id><IBAN>%s</IBAN></Id></CdtrAcct>\n</CdtTrfTxInf>" % (
            R.randint(10, 9000), R.randint(0, 99), p.name, c(iban(spaced=False), "iban"))
    elif k == 1:
        t = "Please pay invoice INV-%d within 14 days.\nBank: %s\nIBAN: %s\nBIC: %s" % (
            R.randint(1000, 99999), pick(["Sparkasse", "BNP Paribas", "ING", "Santander", "Nordea"]), c(iban(spaced=True), "iban"), rs(UP, 6) + rs(UP + DIG, 2))
    elif k == 2:
        t = json.dumps({"payment_method": {"type": "card", "card": {"number": c(card(style=0), "card_number"), "exp_month": R.randint(1, 12),
                        "exp_year": R.randint(2026, 2031), "cvc": digits(3)}, "billing_details": {"email": c(p.email, "email")}}})
    elif k == 3:
        t = "Card: %s  Exp: %02d/%02d  Name on card: %s" % (c(card(style=pick([1, 2, 3])), "card_number"), R.randint(1, 12), R.randint(26, 31), p.name.upper())
    elif k == 4:
        t = "SEPA mandate: %s, IBAN %s, mandate ref MNDT-%s" % (p.name, c(iban(p.cc if p.iban else "DE"), "iban"), digits(8))
    elif k == 5:
        lines = ["date,description,amount,counterparty_iban"]
        for _ in range(R.randint(2, 4)):
            lines.append("2025-%02d-%02d,%s,%s%d.%02d,%s" % (R.randint(1, 12), R.randint(1, 28), pick(["Rent", "Salary", "Refund", "Transfer", "Invoice 2291"]),
                                                        pick(["-", ""]), R.randint(5, 5000), R.randint(0, 99), c(iban(spaced=False), "iban")))
        t = "\n".join(lines)
    else:
        t = "%s payment declined: pan=%s reason=insufficient_funds merchant=%s" % (ts_iso(), c(card(style=0), "card_number"), pick(ORGS))
    emit(t, c)


def t_national_id(cc=None):
    c = C()
    cc = cc or (pick(["US", "GB", "CA", "FR", "DE", "IN"]) if chance(0.6) else pick(sorted(NATIONAL)))
    p = Person(cc)
    kind, val = p.nid
    k = R.randrange(5)
    if k == 0:
        t = "%s: %s" % (pick(["ID", NIDNAME[cc], kind.upper().replace("_", " ")]), c(val, kind))
    elif k == 1:
        t = json.dumps({"kyc": {"country": cc, "document_type": kind, "document_number": c(val, kind), "name": p.name, "dob": p.dob}}, ensure_ascii=False)
    elif k == 2:
        t = "%s;%s;%s;%s" % (p.last, p.first, p.dob, c(val, kind))
    elif k == 3:
        t = "<Person>\n  <Name>%s</Name>\n  <%s>%s</%s>\n</Person>" % (p.name, "NationalId", c(val, kind), "NationalId")
    else:
        t = "payroll import failed for row %d: invalid %s '%s' (employee %s)" % (R.randint(2, 400), NIDNAME[cc], c(val, kind), p.name)
    emit(t, c)


CORE_ID_CTX = {
    "ssn": ["Form W-9, Part I: Social security number %s", "hey can you fix my SSN in payroll? it should be %s not the one on file",
            "applicant_ssn=%s status=pending_verification", "SSN (last 4 is fine, but HR needs full): %s"],
    "uk_nino": ["National Insurance number: %s", "HMRC letter says my NI no. is %s, can you update the P45?", "nino=%s tax_code=1257L"],
    "ca_sin": ["SIN: %s", "Numéro d'assurance sociale : %s", "T4 slip for employee SIN %s is missing box 14"],
    "fr_nir": ["N° de sécurité sociale : %s", "NIR du salarié : %s (vérifié sur la carte Vitale)", "nir=%s mutuelle=OK"],
    "de_tax_id": ["Steuerliche Identifikationsnummer: %s", "Meine Steuer-ID ist %s, bitte für die Lohnabrechnung hinterlegen.", "IdNr. %s lt. Bescheid"],
    "aadhaar": ["Aadhaar: %s", "my aadhaar no is %s, please link it for KYC", "UIDAI number %s linked to PAN"],
}
CORE_ID_GEN = {"ssn": ssn, "uk_nino": uk_nino, "ca_sin": ca_sin, "fr_nir": fr_nir, "de_tax_id": de_tax_id, "aadhaar": aadhaar}


def t_core_ids():
    for kind in ["ssn", "uk_nino", "ca_sin", "fr_nir", "de_tax_id", "aadhaar"]:
        c = C()
        emit(pick(CORE_ID_CTX[kind]) % c(CORE_ID_GEN[kind](), kind), c)


def t_coverage():
    """One row for every national identifier and every catalogued provider key,
    so that each kind appears at least once whatever the draw."""
    for cc in sorted(NATIONAL):
        t_national_id(cc)
    for p in PROVIDERS:
        t_source(p)
    extra = [("slack_signing_secret", "SLACK_SIGNING_SECRET", lambda: rs(HEX, 32)),
             ("shopify_token", "SHOPIFY_ADMIN_API_ACCESS_TOKEN", shopify_token),
             ("replicate_api_token", "REPLICATE_API_TOKEN", replicate_token),
             ("atlassian_api_token", "ATLASSIAN_API_TOKEN", atlassian_token),
             ("heroku_api_key", "HEROKU_API_KEY", uuid4),
             ("rails_master_key", "RAILS_MASTER_KEY", rails_master_key),
             ("discord_bot_token", "DISCORD_TOKEN", discord_bot_token),
             ("mailchimp_api_key", "MAILCHIMP_API_KEY", mailchimp_key),
             ("twilio_api_secret", "TWILIO_API_SECRET", lambda: rs(B62, 32)),
             ("telegram_bot_token", "TELEGRAM_BOT_TOKEN", telegram_token),
             ("age_secret_key", "SOPS_AGE_KEY", age_key),
             ("tailscale_key", "TS_AUTHKEY", tailscale_key),
             ("kubernetes_token", "K8S_BEARER_TOKEN", k8s_static_token),
             ("okta_client_secret", "OKTA_CLIENT_SECRET", okta_client_secret),
             ("auth0_client_secret", "AUTH0_CLIENT_SECRET", auth0_client_secret),
             ("github_oauth_client_secret", "GITHUB_CLIENT_SECRET", gh_oauth_secret),
             ("azure_storage_key", "AZURE_STORAGE_KEY", azure_storage_key),
             ("azure_devops_pat", "AZURE_DEVOPS_EXT_PAT", azure_devops_pat),
             ("aws_session_token", "AWS_SESSION_TOKEN", aws_session_token),
             ("gcp_oauth_token", "GOOGLE_OAUTH_ACCESS_TOKEN", gcp_access_token),
             ("gcp_refresh_token", "GOOGLE_REFRESH_TOKEN", gcp_refresh_token),
             ("gcp_oauth_client_secret", "GOOGLE_CLIENT_SECRET", gcp_client_secret),
             ("stripe_webhook_secret", "STRIPE_WEBHOOK_SECRET", stripe_whsec),
             ("datadog_app_key", "DD_APP_KEY", datadog_app),
             ("app_secret", "SECRET_KEY_BASE", lambda: rs(HEX, 128)),
             ("slack_webhook", "SLACK_WEBHOOK_URL", slack_webhook),
             ("discord_webhook", "DISCORD_WEBHOOK", discord_webhook),
             ("teams_webhook", "TEAMS_WEBHOOK_URL", teams_webhook)]
    for kind, env, gen in extra:
        c = C()
        emit(pick(["%s=%s", "export %s='%s'", "%s: %s"]) % (env, c(gen(), kind)), c)


def t_nhs():
    c = C()
    p = Person("GB")
    t = pick(["Patient: %s, NHS number %s, DOB %s", "NHS no. %s, %s, born %s"])
    if t.startswith("Patient"):
        t = t % (p.name, c(nhs_number(), "gb_nhs_number"), p.dob)
    else:
        t = t % (c(nhs_number(), "gb_nhs_number"), p.name, p.dob)
    emit(t, c)


# ---------------------------------------------------------------------------
# clean rows: must pass unchanged
# ---------------------------------------------------------------------------

def _digit_runs(text):
    """Digit strings with single space / dash separators, as (digits, group boundaries)."""
    runs = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isdigit() and (i == 0 or not text[i - 1].isalnum()):
            ds, bounds, j = "", [0], i
            while j < n:
                if text[j].isdigit():
                    ds += text[j]
                    j += 1
                elif text[j] in " -" and j + 1 < n and text[j + 1].isdigit():
                    bounds.append(len(ds))
                    j += 1
                else:
                    break
            bounds.append(len(ds))
            runs.append((ds, bounds))
            i = j
        else:
            i += 1
    return runs


def looks_like_card(text):
    for ds, bounds in _digit_runs(text):
        if len(ds) < 13:
            continue
        for a in bounds:
            for b in bounds:
                if 13 <= b - a <= 19 and luhn_ok(ds[a:b]):
                    return True
    return False


def isbn13():
    b = "978" + digits(9)
    s = sum(int(x) * (1 if i % 2 == 0 else 3) for i, x in enumerate(b))
    v = b + str((10 - s % 10) % 10)
    return "%s-%s-%s-%s-%s" % (v[:3], v[3], v[4:8], v[8:12], v[12])


def sha(n=40):
    return rs(HEX, n)


def doc_ip():
    return pick(["192.0.2.%d", "198.51.100.%d", "203.0.113.%d"]) % R.randint(1, 254)


COMMIT_MSGS = ["fix: handle empty cart on checkout", "feat(api): paginate /v1/orders", "chore: bump deps", "refactor: extract retry policy",
               "docs: explain token budget in README", "test: cover password reset flow", "fix(auth): session timeout off by one",
               "perf: cache tokenizer", "ci: pin actions to SHAs", "revert \"feat: new search\"", "build: drop python 3.8",
               "fix: rotate logs daily instead of hourly"]
PROSE = [
    "The password reset email now expires after 30 minutes instead of 24 hours.",
    "We blew through the token budget on the eval run again; switching the judge to a smaller model.",
    "Honestly the secret sauce here is just aggressive caching.",
    "Rotate the API keys quarterly and store them in the secrets manager, never in the repo.",
    "Session timeout is 15 minutes of inactivity; refresh tokens last 30 days.",
    "The key insight is that retries must be idempotent, otherwise we double-charge.",
    "Bearer tokens are validated by the gateway before the request reaches the service.",
    "Please don't paste credentials into the agent chat; use the vault reference instead.",
    "Our JWTs are signed with RS256 and the public keys are published at /.well-known/jwks.json.",
    "If the webhook signature check fails we return 400 and log the event id only.",
    "Moved the private key loading into a KMS-backed signer, so the key never leaves the HSM.",
    "The OAuth client secret lives in Key Vault; the app reads it through managed identity.",
    "Customers can update their card number and billing address from the account page.",
    "PII columns (email, phone, national id) are encrypted at rest with per-tenant keys.",
    "The IBAN field is validated with the mod-97 checksum before we create the mandate.",
    "Latency p99 dropped from 840 ms to 310 ms after enabling connection pooling.",
    "We keep 7 days of logs in hot storage and 90 days in the archive bucket.",
    "Token counting uses the same tokenizer as the model, otherwise the limits drift.",
    "The password field must be at least 12 characters and is checked against known breaches.",
    "Secrets are injected at runtime through the CSI driver; nothing is baked into the image.",
    "Cookie consent banner: strictly necessary cookies only until the user opts in.",
    "Key rotation happens automatically every 90 days; old keys stay valid for 24 hours.",
    "The SSH host key fingerprint changed because we rebuilt the bastion, that's expected.",
    "Use `git commit --amend` only on branches nobody else has pulled.",
    "Dear team, the staging database will be read-only between 22:00 and 23:00 UTC tonight.",
]
REVIEW = [
    "nit: rename `tmp` to something meaningful", "Can we add a test for the empty-list case?", "LGTM, ship it 🚢",
    "This loop is O(n²); a dict lookup would make it linear.", "Consider using `pathlib` here instead of string concatenation.",
    "Why do we catch bare `Exception` here? Let's narrow it to `TimeoutError`.", "Approved with minor comments.",
    "Could you split the migration from the code change so we can roll back independently?",
    "The secret is read from `settings.STRIPE_SECRET_KEY`, good, thanks for fixing that.",
    "Please don't log the request headers at INFO, they may contain tokens.",
    "We should mask the password field in the debug output (it's already `********` in prod).",
    "Move the magic number 86400 into a named constant `SECONDS_PER_DAY`.",
]
CHAT_CLEAN = [
    "Kunde: Wann kommt meine Bestellung an? Die Sendung steht seit Montag auf „in Zustellung“.",
    "Client : Bonjour, je voudrais changer l'adresse de livraison de ma commande, est-ce possible ?",
    "Cliente: ¿Pueden enviarme la factura del mes pasado en PDF?",
    "Cliente: buongiorno, il pacco è arrivato danneggiato, posso fare il reso?",
    "Cliente: Olá! Vocês entregam em Coimbra aos sábados?",
    "Klant: Hoi, mijn pakket is nog niet aangekomen, kunnen jullie het nakijken?",
    "Klient: Dzień dobry, czy mogę zmienić rozmiar zamówionych butów?",
    "Kund: Hej! Hur lång är leveranstiden till Umeå?",
    "お客様：注文した商品の配送状況を教えてください。",
    "客户：你好，请问这个型号还有货吗？",
    "고객: 주문 취소는 어떻게 하나요?",
    "Клиент: Здравствуйте, подскажите, когда будет доставка?",
    "Müşteri: Merhaba, siparişimi iptal etmek istiyorum.",
    "Customer: hi, the password reset link in your email doesn't work on mobile, it just reloads the page",
    "Agent: I've escalated this to the billing team; you'll hear back within two business days.",
    "Customer: what's your refund policy for annual plans?",
]


def clean_rows():
    out = []
    gens = []

    def g(f):
        gens.append(f)
        return f

    @g
    def git_oneline():
        return "\n".join("%s %s (#%d)" % (sha(7), pick(COMMIT_MSGS), R.randint(100, 4000)) for _ in range(R.randint(3, 6)))

    @g
    def git_show():
        return "commit %s\nMerge: %s %s\nDate:   %s\n\n    %s" % (sha(), sha(7), sha(7), "Tue Mar %d 14:%02d:%02d 2025 +0100" % (R.randint(1, 28), R.randint(0, 59), R.randint(0, 59)), pick(COMMIT_MSGS))

    @g
    def revert_note():
        k = R.randrange(4)
        if k == 0:
            return "Reverted in %s, the fix is in %s." % (sha(), sha(12))
        if k == 1:
            return "bisect says the first bad commit is %s (parent %s)" % (sha(), sha(7))
        if k == 2:
            return "cherry-pick %s onto release/2.%d" % (sha(), R.randint(1, 9))
        return "HEAD is now at %s %s" % (sha(7), pick(COMMIT_MSGS))

    @g
    def trace_ids():
        return "%s INFO request completed request_id=%s trace_id=%s span_id=%s status=200 duration_ms=%d" % (ts_iso(), uuid4(), sha(32), sha(16), R.randint(2, 900))

    @g
    def docker_digest():
        o, r, tag = pick(ORGS), pick(REPOS), "%d.%d.%d" % (R.randint(0, 5), R.randint(0, 30), R.randint(0, 9))
        return "%s: Pulling from %s/%s\nDigest: sha256:%s\nStatus: Downloaded newer image for ghcr.io/%s/%s:%s" % (tag, o, r, sha(64), o, r, tag)

    @g
    def docker_images():
        lines = ["REPOSITORY                    TAG       IMAGE ID       CREATED        SIZE"]
        for _ in range(R.randint(2, 4)):
            lines.append("%-29s %-9s %s   %d days ago    %dMB" % ("ghcr.io/%s/%s" % (pick(ORGS)[:6], pick(REPOS)[:8]), pick(["latest", "v1.2", "main"]), sha(12), R.randint(1, 40), R.randint(40, 900)))
        return "\n".join(lines)

    @g
    def sha256sum():
        return "\n".join("%s  dist/%s-%d.%d.%d%s" % (sha(64), pick(REPOS), R.randint(0, 3), R.randint(0, 20), R.randint(0, 9), pick([".tar.gz", "-py3-none-any.whl", ".zip"])) for _ in range(R.randint(1, 3)))

    @g
    def npm_integrity():
        pkg = pick(["lodash", "react-dom", "zod", "undici", "esbuild", "@types/node"])
        return '"node_modules/%s": {\n  "version": "%d.%d.%d",\n  "resolved": "https://registry.npmjs.org/%s/-/%s-%d.%d.%d.tgz",\n  "integrity": "sha512-%s=="\n}' % (
            pkg, 1, 2, 3, pkg, pkg.split("/")[-1], 1, 2, 3, rs(B64, 86))

    @g
    def pip_hash():
        return "requests==2.32.3 \\\n    --hash=sha256:%s \\\n    --hash=sha256:%s" % (sha(64), sha(64))

    @g
    def ci_run():
        return "Run #%d (run id %d) for %s on main succeeded in %dm%02ds" % (R.randint(100, 9000), R.randint(10 ** 9, 10 ** 10 - 1), sha(7), R.randint(1, 30), R.randint(0, 59))

    @g
    def env_example():
        lines = ["# copy to .env and fill in"]
        cand = ["OPENAI_API_KEY=your-api-key-here", "ANTHROPIC_API_KEY=sk-ant-...", "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
                "GITHUB_TOKEN=<TOKEN>", "DB_PASSWORD=${DB_PASSWORD}", "HF_TOKEN=hf_...", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ",
                "AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=", "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DB", "SENDGRID_API_KEY=<your SendGrid key>",
                "JWT_SECRET=replace-me", "NPM_TOKEN=${NPM_TOKEN}", "SMTP_PASSWORD=", "DD_API_KEY=<DATADOG_API_KEY>", "REDIS_URL=redis://localhost:6379/0"]
        lines += R.sample(cand, R.randint(3, 6))
        return "\n".join(lines)

    @g
    def redacted():
        return pick(["OPENAI_API_KEY=sk-proj-****************************%s (redacted)", "Authorization: Bearer ***%s",
                     "github token: ghp_************************************ (last used %s)", "password=******** user=admin node=%s",
                     "api_key: [REDACTED] request_id=%s", "Stripe key sk_live_…%s has been rolled", "token=<redacted> session=%s"]) % rs(LO + DIG, 4)

    @g
    def env_refs():
        return pick(['api_key = os.environ["OPENAI_API_KEY"]', "const key = process.env.STRIPE_SECRET_KEY;",
                     "token: ${{ secrets.NPM_TOKEN }}", "password: {{ .Values.postgresql.auth.password }}",
                     'export DB_PASSWORD="$(cat /run/secrets/db_password)"', "client = Anthropic()  # reads ANTHROPIC_API_KEY from the environment",
                     "aws_secret_access_key = var.aws_secret_access_key", 'apiKey: System.getenv("SENDGRID_API_KEY")',
                     "- name: GITHUB_TOKEN\n  valueFrom:\n    secretKeyRef:\n      name: gh\n      key: token",
                     "op read \"op://Engineering/Stripe/secret key\"", "vault kv get -field=password secret/prod/db",
                     "gcloud secrets versions access latest --secret=openai-api-key"])

    @g
    def docs_formats():
        return pick(["OpenAI project keys start with `sk-proj-`; never commit them to git.",
                     "GitHub fine-grained tokens begin with `github_pat_`, classic ones with `ghp_`; both can be scanned by push protection.",
                     "AWS access key IDs are 20 characters and start with AKIA (long-term) or ASIA (temporary credentials).",
                     "Stripe secret keys are prefixed `sk_live_` in live mode and `sk_test_` in test mode; publishable keys use `pk_`.",
                     "Slack bot tokens start with xoxb-, user tokens with xoxp-.",
                     "Hugging Face user access tokens have the prefix hf_ and can be scoped to read or write.",
                     "A GitLab personal access token looks like glpat- followed by 20 characters.",
                     "JWTs are three base64url segments separated by dots: header.payload.signature.",
                     "An IBAN has a two-letter country code, two check digits and up to 30 alphanumeric characters.",
                     "Card numbers are 12 to 19 digits long and the last digit is a Luhn check digit."])

    @g
    def versions():
        return "Bumped %s %d.%d.%d → %d.%d.%d, %s %d.%d.%d → %d.%d.%d (node %d.%d.%d, python 3.%d.%d)" % (
            pick(["pydantic", "fastapi", "django", "react", "next"]), *[R.randint(0, 20) for _ in range(6)],
            pick(["uvicorn", "sqlalchemy", "vite", "typescript"]), *[R.randint(0, 20) for _ in range(6)], R.randint(18, 22), R.randint(0, 20), R.randint(0, 9),
            R.randint(10, 13), R.randint(0, 9))

    @g
    def timestamps():
        t = R.randint(1735689600, 1767225600)
        return "created_at=%s updated_at=%d expires=%d (%s)" % (ts_iso(), t * 1000 + R.randint(0, 999), t + 3600, pick(["Mon, 03 Mar 2025 10:00:00 GMT", "2025-03-03 10:00:00+01", "1 hour"]))

    @g
    def orders():
        s = "Order #ORD-2025-%07d shipped: UPS 1Z%s%s%s, %d items, total €%d.%02d" % (R.randint(0, 9999999), rs(UP + DIG, 6), pick(["01", "02", "03"]), digits(8), R.randint(1, 9), R.randint(5, 900), R.randint(0, 99))
        return s

    @g
    def tracking():
        while True:
            s = "USPS tracking %s %s %s %s %s %s, DHL %s" % (pick(["9400", "9205", "9361"]), digits(4), digits(4), digits(4), digits(4), digits(2), digits(10))
            if not looks_like_card(s):
                return s

    @g
    def isbn():
        return "%s (%s), ISBN %s, %d pages" % (pick(["Designing Data-Intensive Applications", "The Pragmatic Programmer", "Clean Architecture", "Site Reliability Engineering"]),
                                                pick(["2nd ed.", "paperback", "O'Reilly"]), isbn13(), R.randint(200, 700))

    @g
    def sku():
        return "SKU %s-%s-%s-%04d, qty %d, bin %s-%02d" % (pick(["TSH", "HOOD", "MUG", "CAP"]), pick(["BLU", "RED", "BLK"]), pick(["S", "M", "L", "XL"]), R.randint(1, 9999), R.randint(1, 50), pick("ABCDEF"), R.randint(1, 40))

    @g
    def ips():
        return "upstream %s:%d failed, retrying %s:%d (ipv6 2001:db8::%x)" % (doc_ip(), pick([80, 443, 8080, 8443, 5432, 6379]), doc_ip(), pick([80, 443, 8080]), R.randint(1, 65535))

    @g
    def ports():
        return "listening on 0.0.0.0:%d (metrics on :%d, health on :%d)" % (pick([8080, 8443, 3000, 5000]), pick([9090, 9100, 9464]), pick([8081, 8086]))

    @g
    def colours():
        return ":root {\n  --brand: #%s;\n  --accent: #%s;\n  --bg: #%s;\n}" % (sha(6), sha(6), sha(6))

    @g
    def b64_benign():
        txt = pick([b"hello world\n", b"# nginx config\nworker_processes auto;\n", b"{\"feature\":\"dark_mode\",\"enabled\":true}", b"README\n"])
        return pick(["echo '%s' | base64 -d", "binaryData:\n  welcome.txt: %s", "data:text/plain;base64,%s"]) % b64(txt)

    @g
    def words():
        return pick(PROSE)

    @g
    def review():
        return pick(REVIEW)

    @g
    def chat():
        return pick(CHAT_CLEAN)

    @g
    def conn_nopw():
        return pick(["postgres://app@db:5432/orders", "postgres://${DB_USER}:${DB_PASS}@db/app", "redis://localhost:6379/0",
                     "mongodb://localhost:27017/test", "jdbc:postgresql://db.internal:5432/billing", "amqp://rabbitmq:5672/",
                     "mysql://root@127.0.0.1:3306/dev", "Server=tcp:db,1433;Database=app;Authentication=Active Directory Managed Identity;"])

    @g
    def pubkey():
        return "%s\n%s" % (pick(["Add this to authorized_keys:", "my public key:", "deploy key (public):"]), ssh_pubkey())

    @g
    def cert_only():
        return "CA bundle for the internal registry (public):\n%s" % pem_cert()

    @g
    def trace_clean():
        return ('Traceback (most recent call last):\n  File "/app/api/views.py", line %d, in create_order\n    total = sum(i.price for i in cart.items)\n'
                "TypeError: unsupported operand type(s) for +: 'int' and 'NoneType'") % R.randint(10, 400)

    @g
    def k8s_clean():
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s-config\ndata:\n  LOG_LEVEL: info\n  FEATURE_CHECKOUT_V2: \"true\"\n  TOKEN_BUDGET: \"%d\"" % (pick(REPOS), R.randint(1000, 200000))

    @g
    def tf_clean():
        return 'resource "random_password" "db" {\n  length  = 32\n  special = false\n}\n\nresource "aws_db_instance" "main" {\n  password = random_password.db.result\n}'

    @g
    def compose_clean():
        return "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/pg_password\n      POSTGRES_USER: ${POSTGRES_USER:-app}\n    secrets: [pg_password]"

    @g
    def ddl():
        return "CREATE TABLE customers (\n  id BIGSERIAL PRIMARY KEY,\n  email TEXT NOT NULL UNIQUE,\n  phone TEXT,\n  card_last4 CHAR(4),\n  iban_encrypted BYTEA,\n  created_at TIMESTAMPTZ DEFAULT now()\n);"

    @g
    def csv_metrics():
        lines = ["date,signups,orders,revenue_eur"]
        for d in range(R.randint(3, 5)):
            lines.append("2025-03-%02d,%d,%d,%d.%02d" % (d + 1, R.randint(10, 900), R.randint(10, 2000), R.randint(1000, 90000), R.randint(0, 99)))
        return "\n".join(lines)

    @g
    def curl_var():
        return pick(['curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.openai.com/v1/models',
                     "curl -u \"$STRIPE_KEY:\" https://api.stripe.com/v1/balance",
                     'curl -H "x-api-key: ${ANTHROPIC_API_KEY}" -H "anthropic-version: 2023-06-01" https://api.anthropic.com/v1/models',
                     "curl --header \"PRIVATE-TOKEN: <your_access_token>\" https://gitlab.com/api/v4/projects"])

    @g
    def stripe_ids():
        return json.dumps({"id": "ch_3P" + rs(B62, 22), "object": "charge", "amount": R.randint(100, 99999), "currency": "eur",
                           "payment_intent": "pi_3P" + rs(B62, 22), "status": "succeeded", "receipt_number": "%d-%d" % (R.randint(1000, 9999), R.randint(1000, 9999))})

    @g
    def jwt_header_doc():
        return "The header `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9` just decodes to {\"alg\":\"RS256\",\"typ\":\"JWT\"}; the payload is where the claims are."

    @g
    def arn():
        return "arn:aws:iam::123456789012:role/%s-deployer and arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/%s-%s" % (pick(ORGS), pick(["db", "api"]), rs(B62, 6))

    @g
    def prices():
        return "%s: %d.%02d kg, %d × %d mm, €%d.%02d incl. VAT, batch %s" % (pick(["Widget A", "Pump housing", "Desk lamp"]), R.randint(0, 20), R.randint(0, 99), R.randint(10, 500), R.randint(10, 500), R.randint(1, 999), R.randint(0, 99), "B%d-%02d" % (R.randint(2020, 2025), R.randint(1, 52)))

    @g
    def sk_learn():
        return pick(["from sklearn.model_selection import train_test_split  # pip install scikit-learn",
                     "the task-key column is `tk_id` not `task_key`", "AKIA is just the prefix, the rest of the id isn't in this log",
                     "SK-2291 and SK-2292 are the Jira tickets for the key rotation work", "ghp is the prefix the scanner looks for"])

    @g
    def git_ssh():
        return "git remote add upstream git@github.com:%s/%s.git && git fetch upstream" % (pick(ORGS), pick(REPOS))

    @g
    def math():
        a, b = R.randint(100, 99999), R.randint(100, 99999)
        return "%d + %d = %d; throughput went from %s to %s rps" % (a, b, a + b, "{:,}".format(R.randint(1000, 999999)), "{:,}".format(R.randint(1000, 999999)))

    seen = set()
    tries = 0
    while len(out) < 255 and tries < 5000:
        tries += 1
        f = gens[len(out) % len(gens)] if tries < 400 else pick(gens)
        t = f()
        if t in seen or looks_like_card(t):
            continue
        seen.add(t)
        out.append(t)
    return out


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

PLAN = [
    (t_shell_history, 32), (t_ci_log, 22), (t_dotenv, 25), (t_compose, 9), (t_k8s_secret, 18), (t_k8s_deploy_env, 8),
    (t_terraform, 16), (t_json_api, 18), (t_stack_trace, 20), (t_sql, 10), (t_csv, 7), (t_support_chat, 75),
    (t_code_review, 18), (t_git_urls, 18), (t_curl, 26), (t_conn_config, 24), (t_cloud_cli, 21), (t_private_key, 16),
    (t_jwt, 16), (t_cookie, 14), (t_webhook, 16), (t_oauth, 14), (t_smtp, 12), (t_pw_prose, 32), (t_source, 16),
    (t_query_string, 20), (t_log_fields, 20), (t_dotfile, 17), (t_misc_provider, 12), (t_form, 20), (t_contacts, 5),
    (t_payment, 18), (t_national_id, 24), (t_core_ids, 4), (t_coverage, 1), (t_nhs, 4),
]


def build():
    for fn, n in PLAN:
        for _ in range(n):
            fn()
    for t in clean_rows():
        ROWS.append({"text": t, "canaries": [], "kinds": []})
    R.shuffle(ROWS)
    return ROWS


# ---------------------------------------------------------------- labels the masker already gives
# Added after world13's one blind run: where a kind above is another name for a format the masker
# already labels (its provider label, one per provider), the row is written with the masker's name, as
# world12's generator does. Text, values and order are untouched; only the labels written change.
MASKER_LABEL = {
    "anthropic_admin_key": "anthropic_key", "anthropic_api_key": "anthropic_key", "atlassian_api_token": "atlassian_token",
    "aws_access_key_id": "aws_key", "aws_secret_access_key": "aws_secret", "azure_devops_pat": "azure_devops_token",
    "azure_openai_key": "azure_openai_api_key", "cloudflare_api_token": "cloudflare_token", "cohere_api_key": "cohere_key",
    "datadog_api_key": "datadog_key", "datadog_app_key": "datadog_key", "discord_bot_token": "discord_token",
    "gcp_api_key": "google_api_key", "gcp_oauth_client_secret": "google_oauth_secret", "gcp_oauth_token": "google_oauth_token",
    "gcp_refresh_token": "google_oauth_token", "groq_api_key": "groq_key", "heroku_api_key": "heroku_key",
    "langsmith_api_key": "langsmith_key", "linear_api_key": "linear_key", "mailchimp_api_key": "mailchimp_key",
    "mailgun_api_key": "mailgun_key", "mistral_api_key": "mistral_key", "newrelic_api_key": "new_relic_key",
    "openai_api_key": "openai_key", "openrouter_api_key": "openrouter_key", "pinecone_api_key": "pinecone_key",
    "postman_api_key": "postman_key", "replicate_api_token": "replicate_token", "sendgrid_api_key": "sendgrid_key",
    "square_access_token": "square_token", "stripe_secret_key": "stripe_key", "stripe_webhook_secret": "stripe_key",
    "telegram_bot_token": "telegram_token",
}


def masker_label(canary, kind):
    """The label for ``canary`` of ``kind``: an app secret that is a Django secret key as Django's
    ``startproject`` writes it ("django-insecure-…") is ``django_secret_key``, the masker's name for that format."""
    if kind == "app_secret" and canary.startswith("django-insecure-"):
        return "django_secret_key"
    return MASKER_LABEL.get(kind, kind)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    rows = build()
    for r in rows:
        r["kinds"] = [masker_label(c, k) for c, k in zip(r["canaries"], r["kinds"], strict=True)]
    for r in rows:
        assert len(r["canaries"]) == len(r["kinds"])
        for v in r["canaries"]:
            assert v and v in r["text"], v
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "heldout_world13.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %d rows (%d canaries, %d clean) to %s" % (
        len(rows), sum(len(r["canaries"]) for r in rows), sum(1 for r in rows if not r["canaries"]), path))


if __name__ == "__main__":
    main()
