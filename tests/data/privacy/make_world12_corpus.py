#!/usr/bin/env python3
"""Twelfth blind held-out extension ("world12") of the privacy test corpus.

Written blind: nothing here was derived from the masker, its rules or its
tests.  Every value is generated from public descriptions of the formats
(provider documentation of token prefixes / lengths / alphabets, published
national-identifier checksum algorithms, ISO 13616 IBAN check digits, Luhn).

Usage:
    python3 make_world12_corpus.py --out DIR      # writes DIR/heldout_world12.jsonl

Output: one JSON object per line,
    {"text": str, "canaries": [str, ...], "kinds": [str, ...]}
Every canary occurs verbatim in ``text``; ``kinds[i]`` labels ``canaries[i]``.
Clean rows (text that must come through unchanged) have empty lists.
The output is fully reproducible: all randomness comes from
``random.Random(1212)``; nothing depends on time, environment or hash order.

Covered kinds
-------------
Secrets (label ``<provider>_<kind>``): AWS access key id / secret / session
token; GCP API key, OAuth client secret, OAuth access & refresh tokens; Azure
storage key, SAS token, Entra client secret, DevOps PAT, Azure OpenAI key;
Alibaba, Tencent, IBM Cloud, DigitalOcean, Yandex Cloud, Hetzner, Linode,
Vultr; Cloudflare (API token, global key, origin CA key), Fastly, Akamai;
GitHub (classic PAT with CRC32 checksum, fine-grained PAT, OAuth, app
installation, user-to-server), GitLab (PAT, runner, trigger, deploy tokens),
Bitbucket, Atlassian, CircleCI, Buildkite, Jenkins, SonarQube, Terraform Cloud,
Vault, Doppler, Pulumi, npm, PyPI, RubyGems, NuGet, Docker Hub, crates.io,
Clojars, JFrog (API key, reference token), Sourcegraph, Octopus Deploy,
Harness, Netlify, Vercel, Heroku, Fly.io, Render, Supabase, PlanetScale,
Databricks, Fauna, Algolia, Airtable, Notion, Linear, Asana, ClickUp, Figma,
Contentful, HubSpot, Salesforce, Okta, Auth0, Clerk, 1Password service
account, age, Mapbox, X/Twitter, Meta, Dropbox, Shippo, EasyPost, Postman,
ReadMe, Typeform, Prefect, Tailscale, ngrok, Cloudinary, MaxMind, Adafruit IO,
dbt Cloud, Scalingo, Infracost, Trello, Sentry, Datadog, New Relic, Honeycomb,
Grafana, Dynatrace, PagerDuty, Rollbar, PostHog, LaunchDarkly, ConfigCat,
Flagsmith, Statsig, Unleash, Mailgun, SendGrid, Mailchimp, Postmark, Mailjet,
Brevo, Resend, Twilio, Vonage, Slack (bot/user/app tokens, webhooks), Discord
(bot token, webhook), Telegram, Microsoft Teams webhook, Intercom, Zendesk,
Freshdesk, Stripe (secret, restricted, webhook secret), Braintree, Square,
Adyen, Mollie, Razorpay, Paystack, Flutterwave, GoCardless, Plaid, Shopify,
Paddle, Checkout.com, OpenAI, Anthropic, Hugging Face, Replicate, Groq,
Perplexity, Mistral, Cohere, Together, DeepSeek, xAI, OpenRouter, LangSmith,
Pinecone, Weights & Biases, ElevenLabs, Deepgram, AssemblyAI, Stability,
Fireworks, Cerebras.
Generic: password (key/value, CLI flags, connection strings, basic-auth URLs,
prose in ~25 languages), http_basic_auth, private_key (PEM / OpenSSH / PGP),
jwt.

Personal data: email, phone (45+ countries, national and international
forms), card_number (Luhn-valid, many networks), iban (50+ countries, valid
ISO 13616 check digits and national check digits where implemented), and
national identifiers with valid check digits: ssn, uk_nino, ca_sin, fr_nir,
de_tax_id, aadhaar, es_dni, es_nie, it_codice_fiscale, nl_bsn, br_cpf,
pl_pesel, se_personnummer, fi_hetu, dk_cpr, be_nrn, pt_nif, cl_rut, mx_curp,
no_fnr, ch_ahv, au_tfn, za_id, ro_cnp, cn_ric, in_pan, kr_rrn, jp_my_number,
sg_nric, ie_ppsn, tr_tckn, il_tz, ar_cuit, ee_ik, bg_egn, hr_oib,
is_kennitala, cz_rc, tw_national_id, th_national_id, si_emso,
lt_asmens_kodas, at_svnr; plus identifiers of countries outside that list:
gb_nhs_number, us_itin, au_medicare, nz_ird, ru_inn, ru_snils, ua_rnokpp,
kz_iin, gr_amka, gr_afm, hu_taj, hu_tax_id, lv_personas_kods, mx_rfc, uy_ci,
ec_cedula, lu_matricule, pl_nip, hk_hkid, sa_national_id, ae_emirates_id,
de_svnr, sk_rodne_cislo, my_nric, id_nik, pk_cnic.

Clean rows: git SHAs, UUIDs, trace/request ids, digests and integrity hashes,
short base64 image data, versions, build numbers, dates, order/invoice/ticket
numbers, ports, numeric URL ids, obvious placeholders, env-var names without
values, prose about credentials without any, code review, chat in many
languages, maths, measurements, prices, serials and quantities, postal codes,
public SSH keys, masked values.
"""

import argparse
import base64
import json
import os
import string
import zlib
import random

R = random.Random(1212)

DIG = "0123456789"
UP = string.ascii_uppercase
LO = string.ascii_lowercase
AN = UP + LO + DIG
UAN = UP + DIG
LAN = LO + DIG
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
B64 = AN + "+/"
B64U = AN + "-_"
B32 = UP + "234567"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def digs(n, first_nonzero=False):
    s = rs(DIG, n)
    if first_nonzero and s[0] == "0":
        s = R.choice("123456789") + s[1:]
    return s


def uuid4():
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def b64url(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def b64(raw):
    return base64.b64encode(raw).decode()


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def ts_iso():
    return "2024-%02d-%02dT%02d:%02d:%02d%sZ" % (
        R.randint(1, 12), R.randint(1, 28), R.randint(0, 23), R.randint(0, 59),
        R.randint(0, 59), pick(["", ".%03d" % R.randint(0, 999)]))


def ts_log():
    return "2025-%02d-%02d %02d:%02d:%02d,%03d" % (
        R.randint(1, 6), R.randint(1, 28), R.randint(0, 23), R.randint(0, 59),
        R.randint(0, 59), R.randint(0, 999))


def birth(lo=1950, hi=2005):
    y = R.randint(lo, hi)
    m = R.randint(1, 12)
    d = R.randint(1, 28)
    return y, m, d


# ---------------------------------------------------------------- checksums

def luhn_digit(payload):
    s = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return str((10 - s % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
       [2, 3, 4, 0, 1, 7, 8, 9, 5, 6], [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
       [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
       [8, 7, 6, 5, 9, 3, 2, 1, 0, 4], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
       [5, 8, 0, 3, 7, 9, 6, 1, 4, 2], [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
       [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_digit(payload):
    c = 0
    for i, ch in enumerate(reversed(payload)):
        c = _VD[c][_VP[(i + 1) % 8][int(ch)]]
    return str(_VINV[c])


def verhoeff_ok(num):
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def mod11_10(payload):
    """ISO 7064 MOD 11,10 (German Steuer-IdNr, Croatian OIB)."""
    product = 10
    for ch in payload:
        s = (int(ch) + product) % 10
        if s == 0:
            s = 10
        product = (s * 2) % 11
    c = 11 - product
    return str(0 if c == 10 else c)


def wsum(payload, weights):
    return sum(int(a) * w for a, w in zip(payload, weights))


def iban_check(cc, bban):
    conv = "".join(str(int(ch, 36)) for ch in (bban + cc + "00"))
    return "%02d" % (98 - int(conv) % 97)


def iban_ok(iban):
    s = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in s)) % 97 == 1


def crc32_b62(s):
    alpha = DIG + UP + LO
    n = zlib.crc32(s.encode()) & 0xFFFFFFFF
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = alpha[r] + out
    return out.rjust(6, "0")


# ---------------------------------------------------------------- people

import unicodedata
import datetime

NAMES = {
    "en": (["James", "Olivia", "Ethan", "Chloe", "Marcus", "Hannah", "Noah", "Grace", "Dylan", "Megan"],
           ["Walker", "Bennett", "Hughes", "Carter", "Foster", "Reyes", "Morgan", "Sullivan", "Brooks", "Kaplan"]),
    "de": (["Lukas", "Anna", "Jonas", "Lea", "Felix", "Marie", "Tobias", "Katharina"],
           ["Müller", "Schneider", "Fischer", "Weber", "Wagner", "Becker", "Hoffmann", "Schulz"]),
    "fr": (["Camille", "Hugo", "Léa", "Louis", "Manon", "Théo", "Chloé", "Antoine"],
           ["Martin", "Bernard", "Dubois", "Moreau", "Laurent", "Lefèvre", "Girard", "Fontaine"]),
    "es": (["Lucía", "Javier", "Carmen", "Alejandro", "Marta", "Pablo", "Elena", "Sergio"],
           ["García", "Fernández", "López", "Martínez", "Sánchez", "Romero", "Navarro", "Torres"]),
    "pt": (["João", "Ana", "Pedro", "Beatriz", "Lucas", "Mariana", "Rafael", "Juliana"],
           ["Silva", "Santos", "Oliveira", "Souza", "Pereira", "Costa", "Almeida", "Ferreira"]),
    "it": (["Giulia", "Marco", "Francesca", "Luca", "Chiara", "Alessandro", "Sara", "Matteo"],
           ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci"]),
    "nl": (["Daan", "Sanne", "Bram", "Lotte", "Jeroen", "Eva", "Thijs", "Femke"],
           ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder"]),
    "pl": (["Jakub", "Zuzanna", "Kacper", "Julia", "Piotr", "Agnieszka", "Mateusz", "Katarzyna"],
           ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamińska", "Lewandowski", "Zielińska", "Szymański"]),
    "sv": (["Erik", "Elsa", "Oskar", "Maja", "Lars", "Ingrid", "Nils", "Astrid"],
           ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Lindqvist", "Berg"]),
    "fi": (["Mikko", "Aino", "Juha", "Emilia", "Ville", "Sanna", "Antti", "Laura"],
           ["Korhonen", "Virtanen", "Mäkinen", "Nieminen", "Hämäläinen", "Laine", "Heikkinen", "Koskinen"]),
    "da": (["Mads", "Freja", "Rasmus", "Ida", "Søren", "Mette", "Kasper", "Line"],
           ["Jensen", "Nielsen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Sørensen"]),
    "no": (["Henrik", "Ingrid", "Magnus", "Nora", "Sindre", "Kari", "Eirik", "Silje"],
           ["Hansen", "Johansen", "Olsen", "Larsen", "Berg", "Haugen", "Dahl", "Bakken"]),
    "tr": (["Emre", "Elif", "Mehmet", "Zeynep", "Can", "Ayşe", "Burak", "Selin"],
           ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Aydın", "Öztürk", "Arslan"]),
    "ja": (["翔太", "美咲", "健一", "陽菜", "大輔", "さくら"], ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺"]),
    "ko": (["민준", "서연", "지훈", "하은", "도윤", "수빈"], ["김", "이", "박", "최", "정", "강"]),
    "zh": (["伟", "芳", "娜", "磊", "静", "强", "晓明", "丽华"], ["王", "李", "张", "刘", "陈", "杨"]),
    "tw": (["志明", "怡君", "家豪", "雅婷", "冠宇", "淑芬"], ["陳", "林", "黃", "張", "李", "王"]),
    "ru": (["Алексей", "Мария", "Дмитрий", "Анна", "Сергей", "Екатерина"],
           ["Иванов", "Смирнова", "Кузнецов", "Попова", "Соколов", "Лебедева"]),
    "uk": (["Олександр", "Оксана", "Андрій", "Ірина", "Тарас", "Наталія"],
           ["Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Кравчук", "Мельник"]),
    "cs": (["Jan", "Tereza", "Petr", "Lucie", "Tomáš", "Eva"], ["Novák", "Svobodová", "Dvořák", "Černá", "Procházka", "Kučerová"]),
    "sk": (["Martin", "Zuzana", "Michal", "Jana"], ["Horváth", "Kováčová", "Varga", "Tóthová"]),
    "ro": (["Andrei", "Ioana", "Mihai", "Elena", "Bogdan", "Alexandra"], ["Popescu", "Ionescu", "Popa", "Dumitrescu", "Stan", "Constantin"]),
    "el": (["Γιώργος", "Μαρία", "Νίκος", "Ελένη", "Κώστας", "Κατερίνα"],
           ["Παπαδόπουλος", "Παπαδοπούλου", "Γεωργίου", "Οικονόμου", "Νικολάου", "Βασιλείου"]),
    "he": (["נועה", "יוסי", "תמר", "איתי", "מיכל", "אורי"], ["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "אברהם"]),
    "ar": (["محمد", "فاطمة", "أحمد", "نورة", "خالد", "ريم"], ["العتيبي", "الحربي", "القحطاني", "الشمري", "الزهراني", "الدوسري"]),
    "hi": (["Rahul", "Priya", "Amit", "Sneha", "Vikram", "Ananya"], ["Sharma", "Verma", "Gupta", "Iyer", "Reddy", "Nair"]),
    "id": (["Budi", "Siti", "Agus", "Dewi", "Rizky", "Putri"], ["Santoso", "Wijaya", "Saputra", "Lestari", "Hidayat", "Kusuma"]),
    "vi": (["Văn Minh", "Thị Lan", "Quốc Hùng", "Thu Thảo", "Anh Tuấn", "Thị Hương"], ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Vũ"]),
    "th": (["สมชาย", "สุภาพร", "วิชัย", "นภา"], ["ใจดี", "ศรีสุข", "วงศ์ไทย", "บุญมา"]),
    "hu": (["Bence", "Eszter", "Gábor", "Réka"], ["Nagy", "Kovács", "Tóth", "Szabó"]),
    "bg": (["Георги", "Мария", "Иван", "Десислава"], ["Иванов", "Петрова", "Димитров", "Георгиева"]),
    "hr": (["Luka", "Ana", "Ivan", "Petra"], ["Horvat", "Kovačević", "Babić", "Marić"]),
    "sl": (["Luka", "Nina", "Matej", "Eva"], ["Novak", "Horvat", "Krajnc", "Zupančič"]),
    "et": (["Mart", "Kadri", "Rasmus", "Liis"], ["Tamm", "Saar", "Sepp", "Mägi"]),
    "lt": (["Mantas", "Greta", "Lukas", "Ieva"], ["Kazlauskas", "Petrauskienė", "Jankauskas", "Stankevičiūtė"]),
    "lv": (["Jānis", "Anna", "Mārtiņš", "Laura"], ["Bērziņš", "Kalniņa", "Ozoliņš", "Liepiņa"]),
    "is": (["Jón", "Guðrún", "Sigurður", "Anna"], ["Jónsson", "Sigurðardóttir", "Guðmundsson", "Ólafsdóttir"]),
    "ms": (["Ahmad", "Nurul", "Faizal", "Siti"], ["bin Ismail", "binti Hassan", "bin Abdullah", "binti Rahman"]),
    "ur": (["Ali", "Ayesha", "Usman", "Fatima"], ["Khan", "Ahmed", "Malik", "Qureshi"]),
    "za": (["Sipho", "Thandiwe", "Pieter", "Naledi", "Johan", "Lerato"], ["Nkosi", "van der Merwe", "Dlamini", "Botha", "Mokoena", "Pillay"]),
}
LAST_FIRST = ("ja", "ko", "zh", "tw", "hu", "vi")


def person(loc):
    firsts, lasts = NAMES.get(loc, NAMES["en"])
    f, l = pick(firsts), pick(lasts)
    if loc in ("ko", "zh", "tw"):
        return l + f
    if loc in LAST_FIRST:
        return l + " " + f
    return f + " " + l


def ascii_up(s):
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if c.isalpha() and ord(c) < 128).upper()


# form labels: (name, date of birth)
LBL = {
    "en": ("Full name", "Date of birth"), "de": ("Name", "Geburtsdatum"), "fr": ("Nom", "Date de naissance"),
    "es": ("Nombre", "Fecha de nacimiento"), "pt": ("Nome", "Data de nascimento"), "it": ("Nome e cognome", "Data di nascita"),
    "nl": ("Naam", "Geboortedatum"), "pl": ("Imię i nazwisko", "Data urodzenia"), "sv": ("Namn", "Födelsedatum"),
    "fi": ("Nimi", "Syntymäaika"), "da": ("Navn", "Fødselsdato"), "no": ("Navn", "Fødselsdato"),
    "tr": ("Ad Soyad", "Doğum Tarihi"), "ja": ("氏名", "生年月日"), "ko": ("성명", "생년월일"), "zh": ("姓名", "出生日期"),
    "tw": ("姓名", "出生日期"), "ru": ("ФИО", "Дата рождения"), "uk": ("ПІБ", "Дата народження"),
    "cs": ("Jméno a příjmení", "Datum narození"), "sk": ("Meno a priezvisko", "Dátum narodenia"),
    "ro": ("Nume și prenume", "Data nașterii"), "el": ("Ονοματεπώνυμο", "Ημερομηνία γέννησης"),
    "he": ("שם מלא", "תאריך לידה"), "ar": ("الاسم الكامل", "تاريخ الميلاد"), "hi": ("नाम", "जन्म तिथि"),
    "id": ("Nama", "Tanggal lahir"), "vi": ("Họ và tên", "Ngày sinh"), "th": ("ชื่อ-นามสกุล", "วันเกิด"),
    "hu": ("Név", "Születési dátum"), "bg": ("Име", "Дата на раждане"), "hr": ("Ime i prezime", "Datum rođenja"),
    "sl": ("Ime in priimek", "Datum rojstva"), "et": ("Nimi", "Sünniaeg"), "lt": ("Vardas, pavardė", "Gimimo data"),
    "lv": ("Vārds, uzvārds", "Dzimšanas datums"), "is": ("Nafn", "Fæðingardagur"), "ms": ("Nama", "Tarikh lahir"),
}

ID_PROSE = {
    "en": ["My {doc} is {v} if you need it for the form.", "Hi, following up on the claim. {doc}: {v}. Thanks, {name}",
           "Please update the record for {name}; the correct {doc} is {v}.", "Can you confirm you received my {doc} ({v})? The portal keeps timing out."],
    "de": ["Meine {doc} lautet {v}, bitte im Antrag ergänzen.", "Hallo, hier wie besprochen die {doc}: {v}. Viele Grüße, {name}",
           "Im Formular fehlt noch die {doc}. Die ist {v}."],
    "fr": ["Mon {doc} est le {v}, merci de mettre à jour mon dossier.", "Bonjour, voici le {doc} demandé : {v}. Cordialement, {name}"],
    "es": ["Mi {doc} es {v}, por favor actualícenlo en el sistema.", "Hola, le envío mi {doc}: {v}. Saludos, {name}"],
    "pt": ["Meu {doc} é {v}, podem atualizar o cadastro?", "Olá, segue o {doc} solicitado: {v}. Abraço, {name}"],
    "it": ["Il mio {doc} è {v}, potete aggiornare la pratica?", "Buongiorno, come richiesto vi invio il {doc}: {v}. Cordiali saluti, {name}"],
    "nl": ["Mijn {doc} is {v}, kunnen jullie dat aanpassen?", "Hoi, hierbij mijn {doc}: {v}. Groet, {name}"],
    "pl": ["Mój {doc} to {v}, proszę o aktualizację danych.", "Dzień dobry, przesyłam {doc}: {v}. Pozdrawiam, {name}"],
    "sv": ["Mitt {doc} är {v}, kan ni uppdatera ärendet?", "Hej! Här är {doc}: {v}. Mvh {name}"],
    "fi": ["Hei, tässä pyytämänne tieto. {doc}: {v}. Terveisin {name}", "Päivittäkää asiakastietoihin {doc} {v}, kiitos."],
    "da": ["Hej, her er mit {doc}: {v}. Venlig hilsen {name}", "Kan I rette mit {doc} til {v}?"],
    "no": ["Hei, her er {doc}: {v}. Hilsen {name}", "Kan dere oppdatere saken med {doc} {v}?"],
    "tr": ["Merhaba, {doc}: {v}. Kaydımı güncelleyebilir misiniz? {name}", "Başvuru formunda {doc} alanına {v} yazdım ama hata veriyor."],
    "ja": ["{doc}は{v}です。登録情報の更新をお願いします。", "お世話になっております。{name}です。{doc}：{v}"],
    "ko": ["{doc}는 {v} 입니다. 정보 수정 부탁드립니다.", "안녕하세요 {name}입니다. {doc}: {v}"],
    "zh": ["我的{doc}是{v}，麻烦帮我更新一下资料。", "您好，{doc}：{v}，请核对。"],
    "tw": ["我的{doc}是{v}，請協助更新資料。", "您好，{doc}：{v}，麻煩確認。"],
    "ru": ["Мой {doc}: {v}, прошу обновить данные.", "Добрый день, {doc} {v}. С уважением, {name}"],
    "uk": ["Мій {doc}: {v}, прошу оновити дані.", "Доброго дня, {doc}: {v}. {name}"],
    "cs": ["Moje {doc} je {v}, prosím o opravu v systému.", "Dobrý den, zasílám {doc}: {v}. S pozdravem {name}"],
    "sk": ["Dobrý deň, posielam {doc}: {v}. S pozdravom {name}", "Prosím o opravu, moje {doc} je {v}."],
    "ro": ["Bună ziua, {doc}: {v}. Vă rog actualizați dosarul. {name}", "Am completat {doc} {v} dar formularul dă eroare."],
    "el": ["Καλησπέρα, ο {doc} μου είναι {v}.", "Παρακαλώ ενημερώστε τον φάκελο: {doc} {v}. {name}"],
    "he": ["שלום, {doc}: {v}. תודה, {name}", "נא לעדכן בתיק: {doc} {v}"],
    "ar": ["مرحباً، {doc}: {v}. شكراً، {name}", "يرجى تحديث الملف، {doc} هو {v}"],
    "hi": ["मेरा {doc} {v} है, कृपया रिकॉर्ड अपडेट करें।", "नमस्ते, {doc}: {v} ({name})"],
    "id": ["Halo, {doc} saya {v}, mohon diperbarui datanya.", "Berikut {doc}: {v}. Terima kasih, {name}"],
    "vi": ["Xin chào, {doc} của tôi là {v}, nhờ cập nhật giúp.", "{doc}: {v} ({name})"],
    "th": ["{doc} ของฉันคือ {v} ค่ะ รบกวนอัปเดตข้อมูลด้วย", "สวัสดีครับ {doc}: {v} ({name})"],
    "hu": ["Jó napot, a {doc}: {v}. Üdvözlettel, {name}", "Kérem, javítsák a {doc} mezőt erre: {v}"],
    "bg": ["Здравейте, моето {doc} е {v}.", "Моля, актуализирайте данните: {doc} {v}. {name}"],
    "hr": ["Pozdrav, moj {doc} je {v}.", "Molim ažuriranje podataka: {doc} {v}. {name}"],
    "sl": ["Pozdravljeni, moja {doc} je {v}.", "Prosim za posodobitev: {doc} {v}. Lep pozdrav, {name}"],
    "et": ["Tere, minu {doc} on {v}.", "Palun uuendage andmeid: {doc} {v}. {name}"],
    "lt": ["Sveiki, mano {doc} yra {v}.", "Prašau atnaujinti duomenis: {doc} {v}. {name}"],
    "lv": ["Labdien, mans {doc} ir {v}.", "Lūdzu atjaunot datus: {doc} {v}. {name}"],
    "is": ["Halló, {doc} mín er {v}.", "Vinsamlegast uppfærið: {doc} {v}. Kveðja, {name}"],
    "ms": ["Salam, {doc} saya ialah {v}.", "Sila kemas kini rekod: {doc} {v}. {name}"],
}


def dob_str(loc, y, m, d):
    if loc in ("en",) and chance(0.5):
        return "%02d/%02d/%d" % (m, d, y)
    if loc in ("ja", "zh", "tw"):
        return "%d年%d月%d日" % (y, m, d)
    if loc == "ko":
        return "%d.%02d.%02d" % (y, m, d)
    if loc in ("sv", "lt", "hu", "en", "fi") and chance(0.5):
        return "%d-%02d-%02d" % (y, m, d)
    return "%02d.%02d.%d" % (d, m, y) if loc in ("de", "pl", "cs", "sk", "ru", "uk", "fi", "no", "da", "tr", "et", "lv", "hr", "sl", "bg", "ro") else "%02d/%02d/%d" % (d, m, y)


# ---------------------------------------------------------------- national ids
# Each generator returns (value, person_name_or_None, (y, m, d) or None)

def g_ssn():
    while True:
        a = R.randint(1, 899)
        if a != 666:
            break
    v = pick(["%03d-%02d-%04d", "%03d-%02d-%04d", "%03d %02d %04d", "%03d%02d%04d"]) % (a, R.randint(1, 99), R.randint(1, 9999))
    return v, None, None


def g_uk_nino():
    while True:
        p = pick("ABCEGHJKLMNOPRSTWXYZ") + pick("ABCEGHJKLMNPRSTWXYZ")
        if p not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            break
    d, s = digs(6), pick("ABCD")
    return pick([f"{p} {d[:2]} {d[2:4]} {d[4:]} {s}", f"{p}{d}{s}", f"{p} {d} {s}"]), None, None


def g_ca_sin():
    p = pick("1234567") + digs(7)
    n = p + luhn_digit(p)
    return pick([f"{n[:3]} {n[3:6]} {n[6:]}", f"{n[:3]}-{n[3:6]}-{n[6:]}", n]), None, None


def g_fr_nir():
    y, m, d = birth()
    sex = pick("12")
    dept = "%02d" % pick([i for i in range(1, 96) if i != 20])
    base = f"{sex}{y % 100:02d}{m:02d}{dept}{R.randint(1, 990):03d}{R.randint(1, 999):03d}"
    key = 97 - int(base) % 97
    b = base
    return pick([f"{b[0]} {b[1:3]} {b[3:5]} {b[5:7]} {b[7:10]} {b[10:13]} {key:02d}", f"{b}{key:02d}", f"{b} {key:02d}"]), None, (y, m, d)


def g_de_tax_id():
    while True:
        missing = R.randrange(10)
        dup = pick([x for x in range(10) if x != missing])
        ds = [x for x in range(10) if x != missing] + [dup]
        R.shuffle(ds)
        if ds[0] != 0:
            break
    p = "".join(map(str, ds))
    n = p + mod11_10(p)
    return pick([n, f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}", f"{n[:2]}/{n[2:5]}/{n[5:8]}/{n[8:]}"]), None, None


def g_aadhaar():
    p = pick("23456789") + digs(10)
    n = p + verhoeff_digit(p)
    return pick([f"{n[:4]} {n[4:8]} {n[8:]}", f"{n[:4]}-{n[4:8]}-{n[8:]}", n]), None, None


DNI_L = "TRWAGMYFPDXBNJZSQVHLCKE"


def g_es_dni():
    n = R.randint(1000000, 79999999)
    return pick(["%08d%s", "%08d-%s", "%08d %s"]) % (n, DNI_L[n % 23]), None, None


def g_es_nie():
    pre = pick("XYZ")
    n = R.randint(0, 9999999)
    c = DNI_L[int(str("XYZ".index(pre)) + "%07d" % n) % 23]
    return pick([f"{pre}{n:07d}{c}", f"{pre}-{n:07d}-{c}"]), None, None


CF_ODD = dict(zip(DIG + UP, [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20,
                             11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]))


def cf_even(c):
    return int(c) if c.isdigit() else ord(c) - 65


def cf_check(s):
    return chr(65 + sum(CF_ODD[c] if i % 2 == 0 else cf_even(c) for i, c in enumerate(s)) % 26)


def cf_part(s, is_name):
    s = ascii_up(s)
    cons = [c for c in s if c not in "AEIOU"]
    vow = [c for c in s if c in "AEIOU"]
    if is_name and len(cons) >= 4:
        cons = [cons[0], cons[2], cons[3]]
    return ("".join(cons + vow) + "XXX")[:3]


IT_MALE = ["Marco", "Luca", "Alessandro", "Matteo", "Giuseppe", "Francesco", "Davide", "Stefano"]
IT_FEMALE = ["Giulia", "Francesca", "Chiara", "Sara", "Federica", "Valentina", "Martina", "Elisa"]


def g_it_cf():
    female = chance(0.5)
    first = pick(IT_FEMALE if female else IT_MALE)
    last = pick(NAMES["it"][1] + ["Greco", "Marino", "Conti", "De Luca", "Gallo", "Fontana"])
    y, m, d = birth()
    s = cf_part(last, False) + cf_part(first, True) + f"{y % 100:02d}" + "ABCDEHLMPRST"[m - 1] + \
        "%02d" % (d + (40 if female else 0)) + pick(["H501", "F205", "F839", "L219", "G273", "A944", "D612", "L736", "D969", "A662", "C351", "L424"])
    return s + cf_check(s), first + " " + last, (y, m, d)


def g_nl_bsn():
    while True:
        p = pick("123456") + digs(7)
        c = wsum(p, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
        if c < 10:
            n = p + str(c)
            return pick([n, n, f"{n[:4]}.{n[4:6]}.{n[6:]}"]), None, None


def cpf_dv(s):
    r = sum(int(c) * w for c, w in zip(s, range(len(s) + 1, 1, -1))) % 11
    return "0" if r < 2 else str(11 - r)


def g_br_cpf():
    b = digs(9, True)
    b += cpf_dv(b)
    n = b + cpf_dv(b)
    return pick([f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}", f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}", n]), None, None


def g_pl_pesel():
    y, m, d = birth(1950, 2008)
    p = f"{y % 100:02d}{m + (20 if y >= 2000 else 0):02d}{d:02d}" + digs(4)
    return p + str((10 - wsum(p, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10) % 10), None, (y, m, d)


def g_se_pnr():
    y, m, d = birth()
    p = f"{y % 100:02d}{m:02d}{d:02d}" + digs(3)
    n = p + luhn_digit(p)
    if chance(0.35):
        return f"{y}{m:02d}{d:02d}-{n[6:]}", None, (y, m, d)
    return f"{n[:6]}-{n[6:]}", None, (y, m, d)


def g_fi_hetu():
    y, m, d = birth(1950, 2008)
    ind = "%03d" % R.randint(2, 899)
    chk = "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(f"{d:02d}{m:02d}{y % 100:02d}{ind}") % 31]
    return f"{d:02d}{m:02d}{y % 100:02d}{'-' if y < 2000 else 'A'}{ind}{chk}", None, (y, m, d)


def g_dk_cpr():
    while True:
        y, m, d = birth(1958, 2005)
        p = f"{d:02d}{m:02d}{y % 100:02d}" + (pick("0123") if y < 2000 else "4") + digs(2)
        last = (-wsum(p, [4, 3, 2, 7, 6, 5, 4, 3, 2])) % 11
        if last < 10:
            n = p + str(last)
            return pick([f"{n[:6]}-{n[6:]}", n]), None, (y, m, d)


def g_be_nrn():
    y, m, d = birth(1950, 2008)
    base = f"{y % 100:02d}{m:02d}{d:02d}{R.randint(1, 997):03d}"
    c = 97 - int(("2" if y >= 2000 else "") + base) % 97
    s = f"{base}{c:02d}"
    return pick([f"{s[:2]}.{s[2:4]}.{s[4:6]}-{s[6:9]}.{s[9:]}", s, f"{s[:6]} {s[6:9]} {s[9:]}"]), None, (y, m, d)


def g_pt_nif():
    p = pick("123") + digs(7)
    r = wsum(p, [9, 8, 7, 6, 5, 4, 3, 2]) % 11
    n = p + str(0 if r < 2 else 11 - r)
    return pick([n, f"{n[:3]} {n[3:6]} {n[6:]}"]), None, None


def g_cl_rut():
    n = R.randint(5000000, 26999999)
    s, w = 0, 2
    for ch in reversed(str(n)):
        s += int(ch) * w
        w = 2 if w == 7 else w + 1
    r = 11 - s % 11
    dv = "0" if r == 11 else "K" if r == 10 else str(r)
    return pick([("{:,}".format(n)).replace(",", ".") + "-" + dv, f"{n}-{dv}"]), None, None


CURP_CH = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
MX_FIRST = ["JUAN", "MARIA", "JOSE", "GUADALUPE", "FERNANDO", "ANA", "LUIS", "SOFIA", "RICARDO", "VALERIA", "DIEGO", "XIMENA"]
MX_LAST = ["HERNANDEZ", "GARCIA", "MARTINEZ", "LOPEZ", "GONZALEZ", "RODRIGUEZ", "PEREZ", "SANCHEZ", "RAMIREZ", "FLORES", "TORRES", "MORALES", "CASTILLO", "VARGAS"]


def _ivowel(s):
    for c in s[1:]:
        if c in "AEIOU":
            return c
    return "X"


def _icons(s):
    for c in s[1:]:
        if c not in "AEIOU":
            return c
    return "X"


def mx_person():
    f, l1, l2 = pick(MX_FIRST), pick(MX_LAST), pick(MX_LAST)
    y, m, d = birth(1955, 2006)
    return f, l1, l2, y, m, d


def g_mx_curp():
    f, l1, l2, y, m, d = mx_person()
    sex = "M" if f in ("MARIA", "GUADALUPE", "ANA", "SOFIA", "VALERIA", "XIMENA") else "H"
    s = l1[0] + _ivowel(l1) + l2[0] + f[0] + f"{y % 100:02d}{m:02d}{d:02d}" + sex + \
        pick(["AS", "BC", "CH", "DF", "GT", "JC", "MC", "MN", "NL", "OC", "PL", "QT", "SL", "SR", "VZ", "YN"]) + \
        _icons(l1) + _icons(l2) + _icons(f) + (pick(DIG) if y < 2000 else pick(UP))
    total = sum(CURP_CH.index(c) * (18 - i) for i, c in enumerate(s))
    return s + str((10 - total % 10) % 10), f.title() + " " + l1.title() + " " + l2.title(), (y, m, d)


def g_no_fnr():
    while True:
        y, m, d = birth(1950, 2008)
        ind = R.randint(0, 499) if y < 2000 else R.randint(500, 999)
        p = f"{d:02d}{m:02d}{y % 100:02d}{ind:03d}"
        k1 = 11 - wsum(p, [3, 7, 6, 1, 8, 9, 4, 5, 2]) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        p += str(k1)
        k2 = 11 - wsum(p, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 == 10:
            continue
        n = p + str(k2)
        return pick([n, f"{n[:6]} {n[6:]}"]), None, (y, m, d)


def ean13(p12):
    return str((10 - sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(p12)) % 10) % 10)


def g_ch_ahv():
    p = "756" + digs(9)
    n = p + ean13(p)
    return pick([f"{n[:3]}.{n[3:7]}.{n[7:11]}.{n[11:]}", f"{n[:3]}.{n[3:7]}.{n[7:11]}.{n[11:]}", n]), None, None


def g_au_tfn():
    while True:
        p = digs(8, True)
        c = wsum(p, [1, 4, 3, 7, 5, 8, 6, 9]) % 11
        if c < 10:
            n = p + str(c)
            return pick([f"{n[:3]} {n[3:6]} {n[6:]}", n]), None, None


def g_za_id():
    y, m, d = birth(1950, 2005)
    p = f"{y % 100:02d}{m:02d}{d:02d}{R.randint(0, 9999):04d}" + pick("0001") + "8"
    return p + luhn_digit(p), None, (y, m, d)


def g_ro_cnp():
    y, m, d = birth(1950, 2005)
    male = chance(0.5)
    s = ("1" if male else "2") if y < 2000 else ("5" if male else "6")
    p = f"{s}{y % 100:02d}{m:02d}{d:02d}{pick(list(range(1, 47)) + [51, 52]):02d}{R.randint(1, 999):03d}"
    r = wsum(p, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11
    return p + ("1" if r == 10 else str(r)), None, (y, m, d)


def g_cn_ric():
    y, m, d = birth(1955, 2004)
    p = pick(["110101", "110105", "310104", "310115", "440305", "440106", "330106", "510107", "420106", "320102", "610113", "370202", "500103"]) + \
        f"{y}{m:02d}{d:02d}" + digs(3)
    return p + "10X98765432"[wsum(p, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]) % 11], None, (y, m, d)


def g_in_pan():
    nm = person("hi")
    return rs(UP, 3) + "P" + nm.split()[-1][0].upper() + "%04d" % R.randint(1, 9999) + pick(UP), nm, None


def g_kr_rrn():
    y, m, d = birth(1955, 2008)
    male = chance(0.5)
    s = ("1" if male else "2") if y < 2000 else ("3" if male else "4")
    p = f"{y % 100:02d}{m:02d}{d:02d}{s}" + digs(5)
    n = p + str((11 - wsum(p, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]) % 11) % 10)
    return f"{n[:6]}-{n[6:]}", None, (y, m, d)


def jp_mynumber_check(p):
    s = 0
    for n in range(1, 12):
        s += int(p[11 - n]) * (n + 1 if n <= 6 else n - 5)
    r = s % 11
    return str(0 if r <= 1 else 11 - r)


def g_jp_mynumber():
    p = digs(11, True)
    n = p + jp_mynumber_check(p)
    return pick([n, f"{n[:4]} {n[4:8]} {n[8:]}", f"{n[:4]}-{n[4:8]}-{n[8:]}"]), None, None


def g_sg_nric():
    pre = pick("SSTFG")
    if pre == "S":
        p = pick(["7", "8", "9"]) + digs(6)
    elif pre == "T":
        p = "0" + pick("0123456") + digs(5)
    else:
        p = digs(7)
    s = wsum(p, [2, 7, 6, 5, 4, 3, 2]) + (4 if pre in "TG" else 0)
    return pre + p + ("JZIHGFEDCBA" if pre in "ST" else "XWUTRQPNMLK")[s % 11], None, None


def g_ie_ppsn():
    p = digs(7)
    second = pick(["", "A", "A"])
    s = wsum(p, [8, 7, 6, 5, 4, 3, 2]) + (9 * (ord(second) - 64) if second else 0)
    return p + "WABCDEFGHIJKLMNOPQRSTUV"[s % 23] + second, None, None


def g_tr_tckn():
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d11 = (sum(d) + d10) % 10
    return "".join(map(str, d)) + str(d10) + str(d11), None, None


def g_il_tz():
    p = pick("0123") + digs(7)
    return p + luhn_digit(p), None, None


def g_ar_cuit():
    while True:
        pre = pick(["20", "27", "23", "20", "27"])
        dni = "%08d" % R.randint(10000000, 45999999)
        r = 11 - wsum(pre + dni, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
        r = 0 if r == 11 else r
        if r == 10:
            continue
        return pick([f"{pre}-{dni}-{r}", f"{pre}{dni}{r}"]), None, None


def baltic_check(p):
    s = wsum(p, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11
    if s == 10:
        s = wsum(p, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11
        if s == 10:
            s = 0
    return str(s)


def g_ee_ik():
    y, m, d = birth(1950, 2008)
    male = chance(0.5)
    g = (3 if male else 4) if y < 2000 else (5 if male else 6)
    p = f"{g}{y % 100:02d}{m:02d}{d:02d}" + digs(3)
    return p + baltic_check(p), None, (y, m, d)


g_lt_ak = g_ee_ik


def g_bg_egn():
    y, m, d = birth(1950, 2008)
    p = f"{y % 100:02d}{m + (40 if y >= 2000 else 0):02d}{d:02d}" + digs(3)
    r = wsum(p, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11
    return p + ("0" if r == 10 else str(r)), None, (y, m, d)


def g_hr_oib():
    p = digs(10, True)
    return p + mod11_10(p), None, None


def g_is_kt():
    while True:
        y, m, d = birth(1950, 2008)
        p = f"{d:02d}{m:02d}{y % 100:02d}" + "%02d" % R.randint(20, 99)
        r = 11 - wsum(p, [3, 2, 7, 6, 5, 4, 3, 2]) % 11
        r = 0 if r == 11 else r
        if r == 10:
            continue
        n = p + str(r) + ("9" if y < 2000 else "0")
        return pick([f"{n[:6]}-{n[6:]}", n]), None, (y, m, d)


def g_cz_rc():
    while True:
        y, m, d = birth(1954, 2008)
        p = f"{y % 100:02d}{m + (50 if chance(0.5) else 0):02d}{d:02d}" + digs(3)
        c = int(p) % 11
        if c == 10:
            continue
        return pick([f"{p[:6]}/{p[6:]}{c}", f"{p[:6]}/{p[6:]}{c}", f"{p}{c}"]), None, (y, m, d)


TW_L = {'A': 10, 'B': 11, 'C': 12, 'D': 13, 'E': 14, 'F': 15, 'G': 16, 'H': 17, 'I': 34, 'J': 18, 'K': 19, 'L': 20,
        'M': 21, 'N': 22, 'O': 35, 'P': 23, 'Q': 24, 'R': 25, 'S': 26, 'T': 27, 'U': 28, 'V': 29, 'W': 32, 'X': 30,
        'Y': 31, 'Z': 33}


def tw_check(L, p9):
    v = TW_L[L]
    return str((10 - (v // 10 + (v % 10) * 9 + wsum(p9, [8, 7, 6, 5, 4, 3, 2, 1])) % 10) % 10)


def g_tw_id():
    L = pick("ABCDEFHKLNPRST")
    p = pick("12") + digs(7)
    return L + p + tw_check(L, p), None, None


def g_th_id():
    p = pick("12345678") + digs(11)
    n = p + str((11 - sum(int(p[i]) * (13 - i) for i in range(12)) % 11) % 10)
    return pick([n, f"{n[0]}-{n[1:5]}-{n[5:10]}-{n[10:12]}-{n[12]}", f"{n[0]} {n[1:5]} {n[5:10]} {n[10:12]} {n[12]}"]), None, None


def g_si_emso():
    while True:
        y, m, d = birth(1950, 2005)
        p = f"{d:02d}{m:02d}{y % 1000:03d}50{R.randint(0, 999):03d}"
        r = wsum(p, [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
        c = 0 if r == 0 else 11 - r
        if c == 10:
            continue
        return p + str(c), None, (y, m, d)


def g_at_svnr():
    while True:
        y, m, d = birth(1950, 2005)
        serial = "%03d" % R.randint(100, 999)
        dob = f"{d:02d}{m:02d}{y % 100:02d}"
        c = (wsum(serial, [3, 7, 9]) + wsum(dob, [5, 8, 4, 2, 1, 6])) % 11
        if c == 10:
            continue
        n = serial + str(c) + dob
        return pick([f"{n[:4]} {n[4:]}", n]), None, (y, m, d)


# -- identifiers of countries outside the labelled list

def g_gb_nhs():
    while True:
        p = digs(9, True)
        r = 11 - wsum(p, [10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11
        r = 0 if r == 11 else r
        if r == 10:
            continue
        n = p + str(r)
        return pick([f"{n[:3]} {n[3:6]} {n[6:]}", n, f"{n[:3]}-{n[3:6]}-{n[6:]}"]), None, None


def g_us_itin():
    mid = pick(list(range(50, 66)) + list(range(70, 89)) + [90, 91, 92] + list(range(94, 100)))
    return "9%02d-%02d-%04d" % (R.randint(0, 99), mid, R.randint(1, 9999)), None, None


def g_au_medicare():
    p = pick("23456") + digs(7)
    n = p + str(wsum(p, [1, 3, 7, 9, 1, 3, 7, 9]) % 10) + pick("123")
    return pick([f"{n[:4]} {n[4:9]} {n[9]}", n]), None, None


def g_nz_ird():
    while True:
        base = str(R.randint(10000000, 14999999)) if chance(0.5) else str(R.randint(1000000, 9999999))
        b8 = base.rjust(8, "0")
        r = wsum(b8, [3, 2, 7, 6, 5, 4, 3, 2]) % 11
        c = 0 if r == 0 else 11 - r
        if c == 10:
            r = wsum(b8, [7, 4, 3, 2, 5, 2, 7, 6]) % 11
            c = 0 if r == 0 else 11 - r
            if c == 10:
                continue
        n = base + str(c)
        return pick([f"{n[:-6]}-{n[-6:-3]}-{n[-3:]}", n]), None, None


def g_ru_inn():
    p = pick(["77", "78", "50", "54", "66", "16", "23", "52"]) + digs(8)
    p += str(wsum(p, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11 % 10)
    return p + str(wsum(p, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) % 11 % 10), None, None


def g_ru_snils():
    while True:
        p = digs(9)
        if int(p) <= 1001998:
            continue
        s = wsum(p, [9, 8, 7, 6, 5, 4, 3, 2, 1])
        if s < 100:
            c = s
        elif s in (100, 101):
            c = 0
        else:
            c = s % 101
            c = 0 if c == 100 else c
        return pick([f"{p[:3]}-{p[3:6]}-{p[6:]} {c:02d}", f"{p}{c:02d}"]), None, None


def g_ua_rnokpp():
    y, m, d = birth(1950, 2004)
    days = (datetime.date(y, m, d) - datetime.date(1899, 12, 31)).days
    p = "%05d" % days + digs(3) + pick("13579" if chance(0.5) else "02468")
    return p + str(wsum(p, [-1, 5, 7, 9, 4, 6, 10, 5, 7]) % 11 % 10), None, (y, m, d)


def g_kz_iin():
    while True:
        y, m, d = birth(1955, 2006)
        male = chance(0.5)
        cs = (3 if male else 4) if y < 2000 else (5 if male else 6)
        p = f"{y % 100:02d}{m:02d}{d:02d}{cs}" + digs(4)
        r = wsum(p, range(1, 12)) % 11
        if r == 10:
            r = wsum(p, [3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]) % 11
            if r == 10:
                continue
        return p + str(r), None, (y, m, d)


def g_gr_amka():
    y, m, d = birth(1950, 2005)
    p = f"{d:02d}{m:02d}{y % 100:02d}" + digs(4)
    return p + luhn_digit(p), None, (y, m, d)


def g_gr_afm():
    p = pick("01") + digs(7)
    return p + str(sum(int(p[i]) * 2 ** (8 - i) for i in range(8)) % 11 % 10), None, None


def g_hu_taj():
    p = digs(8, True)
    n = p + str(wsum(p, [3, 7, 3, 7, 3, 7, 3, 7]) % 10)
    return pick([f"{n[:3]} {n[3:6]} {n[6:]}", f"{n[:3]}-{n[3:6]}-{n[6:]}", n]), None, None


def g_hu_tax():
    while True:
        y, m, d = birth(1950, 2005)
        p = "8" + "%05d" % (datetime.date(y, m, d) - datetime.date(1867, 1, 1)).days + digs(3)
        c = sum(int(p[i]) * (i + 1) for i in range(9)) % 11
        if c != 10:
            return p + str(c), None, (y, m, d)


def g_lv_pk():
    while True:
        y, m, d = birth(1950, 2016)
        p = f"{d:02d}{m:02d}{y % 100:02d}{'1' if y < 2000 else '2'}" + digs(3)
        c = (1101 - wsum(p, [1, 6, 3, 7, 9, 10, 5, 8, 4, 2])) % 11
        if c != 10:
            n = p + str(c)
            return f"{n[:6]}-{n[6:]}", None, (y, m, d)


RFC_CH = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ"


def rfc_check(s12):
    r = sum(RFC_CH.index(c) * (13 - i) for i, c in enumerate(s12)) % 11
    if r == 0:
        return "0"
    return "A" if 11 - r == 10 else str(11 - r)


def g_mx_rfc():
    f, l1, l2, y, m, d = mx_person()
    s = l1[0] + _ivowel(l1) + l2[0] + f[0] + f"{y % 100:02d}{m:02d}{d:02d}" + rs("123456789ABCDEFGHJKLMNPRSTUVWXYZ", 2)
    return s + rfc_check(s), f.title() + " " + l1.title() + " " + l2.title(), (y, m, d)


def g_uy_ci():
    n = "%07d" % R.randint(1000000, 6999999)
    c = (10 - wsum(n, [2, 9, 8, 7, 6, 3, 4]) % 10) % 10
    return pick([f"{n[0]}.{n[1:4]}.{n[4:]}-{c}", f"{n}{c}"]), None, None


def g_ec_cedula():
    p = "%02d" % R.randint(1, 24) + pick("012345") + digs(6)
    s = 0
    for i, ch in enumerate(p):
        v = int(ch) * (2 if i % 2 == 0 else 1)
        s += v - 9 if v > 9 else v
    return p + str((10 - s % 10) % 10), None, None


def g_lu_mat():
    y, m, d = birth(1950, 2005)
    p = f"{y}{m:02d}{d:02d}" + digs(3)
    return p + luhn_digit(p) + verhoeff_digit(p), None, (y, m, d)


def g_pl_nip():
    while True:
        p = digs(9, True)
        c = wsum(p, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11
        if c != 10:
            n = p + str(c)
            return pick([f"{n[:3]}-{n[3:6]}-{n[6:8]}-{n[8:]}", n, f"{n[:3]}-{n[3:5]}-{n[5:7]}-{n[7:]}"]), None, None


def hkid_check(L, p6):
    r = (36 * 9 + (ord(L) - 55) * 8 + wsum(p6, [7, 6, 5, 4, 3, 2])) % 11
    c = 0 if r == 0 else 11 - r
    return "A" if c == 10 else str(c)


def g_hk_hkid():
    L = pick("ACDEGHKMPRVYZ")
    p = digs(6)
    return pick([f"{L}{p}({hkid_check(L, p)})", f"{L}{p}{hkid_check(L, p)}"]), None, None


def g_sa_nid():
    p = pick("12") + digs(8)
    return p + luhn_digit(p), None, None


def g_ae_eid():
    y, m, d = birth(1960, 2005)
    p = "784" + str(y) + digs(7)
    n = p + luhn_digit(p)
    return pick([f"{n[:3]}-{n[3:7]}-{n[7:14]}-{n[14]}", n]), None, (y, m, d)


def g_de_svnr():
    nm = person("de")
    letter = ascii_up(nm.split()[-1])[0]
    y, m, d = birth(1950, 2004)
    area = pick(["12", "13", "15", "18", "23", "24", "28", "38", "40", "42", "53", "65", "66", "79"])
    serial = "%02d" % R.randint(0, 99)
    s12 = area + f"{d:02d}{m:02d}{y % 100:02d}" + "%02d" % (ord(letter) - 64) + serial
    c = sum(sum(divmod(int(ch) * w, 10)) for ch, w in zip(s12, [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1])) % 10
    core = f"{d:02d}{m:02d}{y % 100:02d}"
    return pick([f"{area} {core} {letter} {serial}{c}", f"{area}{core}{letter}{serial}{c}"]), nm, (y, m, d)


g_sk_rc = g_cz_rc


def g_my_nric():
    y, m, d = birth(1955, 2005)
    return pick(["%02d%02d%02d-%02d-%04d", "%02d%02d%02d%02d%04d"]) % (y % 100, m, d, pick([1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 16]), R.randint(1, 9999)), None, (y, m, d)


def g_id_nik():
    y, m, d = birth(1955, 2005)
    dd = d + (40 if chance(0.5) else 0)
    return pick(["31", "32", "33", "35", "36", "51", "12", "73"]) + "%02d%02d" % (R.randint(1, 20), R.randint(1, 30)) + \
        f"{dd:02d}{m:02d}{y % 100:02d}" + "%04d" % R.randint(1, 999), None, (y, m, d)


def g_pk_cnic():
    return "%d%04d-%07d-%d" % (R.randint(1, 7), R.randint(0, 9999), R.randint(0, 9999999), R.randint(1, 9)), None, None


# ---------------------------------------------------------------- phones
# pattern language: X any digit, N digit 2-9, everything else literal

PHONES = {
    "US": ("en", ["(NXX) NXX-XXXX", "NXX-NXX-XXXX", "+1 NXX NXX XXXX", "+1-NXX-NXX-XXXX", "NXX.NXX.XXXX", "+1 (NXX) NXX-XXXX"]),
    "CA": ("en", ["(416) NXX-XXXX", "+1 604 NXX XXXX", "514-NXX-XXXX", "+1 (613) NXX-XXXX"]),
    "GB": ("en", ["07NXX XXXXXX", "+44 7NXX XXXXXX", "+44 (0)7NXX XXXXXX", "020 3XXX XXXX", "0161 NXX XXXX", "+44 131 NXX XXXX"]),
    "DE": ("de", ["0151 NXXXXXXX", "+49 151 NXXXXXXX", "0171/NXXXXXX", "+49 (0)176 NXXXXXXX", "030 NXXXXXXX", "+49 89 NXXXXXX", "0160-NXXXXXX", "+49 40 NXXXXXXX"]),
    "FR": ("fr", ["06 XX XX XX XX", "07 XX XX XX XX", "+33 6 XX XX XX XX", "+33 (0)7 XX XX XX XX", "01 4X XX XX XX", "+33 4 7X XX XX XX"]),
    "ES": ("es", ["6XX XX XX XX", "+34 6XX XX XX XX", "+34 91 NXX XX XX", "6XX XXX XXX", "+34 7XX XXX XXX"]),
    "IT": ("it", ["+39 34X XXX XXXX", "333 XXXXXXX", "+39 06 NXXX XXXX", "348-XXX-XXXX", "+39 02 NXXXXXXX"]),
    "NL": ("nl", ["06-NXXXXXXX", "+31 6 NXXXXXXX", "020-NXXXXXX", "+31 (0)6 NX XX XX XX", "06 NX XX XX XX"]),
    "BE": ("nl", ["0470 XX XX XX", "+32 47X XX XX XX", "+32 2 NXX XX XX", "0486/XX.XX.XX"]),
    "CH": ("de", ["079 NXX XX XX", "+41 79 NXX XX XX", "+41 44 NXX XX XX", "076 NXX XX XX"]),
    "AT": ("de", ["0664 NXXXXXX", "+43 664 NXXXXXX", "+43 1 NXXXXXX", "0676/NXXXXXX"]),
    "PL": ("pl", ["5XX XXX XXX", "+48 5XX XXX XXX", "+48 22 NXX XX XX", "6XX-XXX-XXX", "+48 7XX XXX XXX"]),
    "SE": ("sv", ["070-NXX XX XX", "+46 70 NXX XX XX", "08-NXX XXX XX", "+46 73 NXX XX XX"]),
    "NO": ("no", ["4XX XX XXX", "+47 9XX XX XXX", "+47 22 XX XX XX"]),
    "DK": ("da", ["2X XX XX XX", "+45 2X XX XX XX", "+45 31 XX XX XX"]),
    "FI": ("fi", ["040 NXX XXXX", "+358 40 NXXXXXX", "050 NXX XXXX", "+358 9 NXXX XXXX"]),
    "PT": ("pt", ["91X XXX XXX", "+351 91X XXX XXX", "+351 21 NXX XXXX", "96X XXX XXX"]),
    "IE": ("en", ["087 NXX XXXX", "+353 87 NXX XXXX", "(01) NXX XXXX", "+353 1 NXX XXXX"]),
    "GR": ("el", ["69X XXX XXXX", "+30 69X XXX XXXX", "+30 210 NXX XXXX"]),
    "TR": ("tr", ["0532 NXX XX XX", "+90 532 NXX XX XX", "(0541) NXX XX XX", "+90 212 NXX XX XX"]),
    "RU": ("ru", ["+7 9XX NXX-XX-XX", "8 (9XX) NXX-XX-XX", "+7 (495) NXX-XX-XX", "+7 916 NXX XX XX"]),
    "UA": ("uk", ["+380 67 NXX XXXX", "067 NXX XX XX", "(050) NXX-XX-XX", "+380 44 NXX XX XX"]),
    "CZ": ("cs", ["+420 60X XXX XXX", "60X XXX XXX", "+420 777 XXX XXX"]),
    "HU": ("hu", ["+36 30 NXX XXXX", "06 30 NXX XXXX", "06-1-NXX-XXXX", "+36 20 NXX XXXX"]),
    "RO": ("ro", ["072X XXX XXX", "+40 72X XXX XXX", "+40 21 NXX XXXX"]),
    "IN": ("hi", ["+91 9XXXX XXXXX", "09XXXX XXXXX", "+91-98XXXXXXXX", "98XXX-XXXXX", "+91 22 NXXX XXXX"]),
    "PK": ("ur", ["+92 300 NXXXXXX", "0300-NXXXXXX", "+92 21 NXXX XXXX"]),
    "JP": ("ja", ["090-NXXX-XXXX", "+81 90-NXXX-XXXX", "03-NXXX-XXXX", "+81 3-NXXX-XXXX", "080-NXXX-XXXX", "06-NXXX-XXXX"]),
    "KR": ("ko", ["010-NXXX-XXXX", "+82 10-NXXX-XXXX", "02-NXX-XXXX", "+82 2-NXXX-XXXX"]),
    "CN": ("zh", ["138 NXXX XXXX", "+86 139 NXXX XXXX", "1580NXXXXXX", "(010) 6XXX XXXX", "+86 21 6XXX XXXX"]),
    "TW": ("tw", ["0912-NXX-XXX", "+886 912 NXX XXX", "(02) 2XXX-XXXX", "+886 2 2XXX XXXX"]),
    "HK": ("zh", ["+852 9XXX XXXX", "6XXX XXXX", "+852 2XXX XXXX"]),
    "SG": ("en", ["+65 9XXX XXXX", "8XXX XXXX", "+65 6XXX XXXX"]),
    "MY": ("ms", ["012-NXX XXXX", "+60 12-NXX XXXX", "+60 3-NXXX XXXX"]),
    "ID": ("id", ["0812-NXXX-XXXX", "+62 812-NXXX-XXXX", "+62 21 NXXXXXX", "0857 NXXX XXXX"]),
    "PH": ("en", ["0917 NXX XXXX", "+63 917 NXX XXXX", "+63 2 8NXX XXXX"]),
    "TH": ("th", ["081-NXX-XXXX", "+66 81 NXX XXXX", "02-NXX-XXXX"]),
    "VN": ("vi", ["0912 NXX XXX", "+84 912 NXX XXX", "090 NXX XX XX", "+84 28 NXXX XXXX"]),
    "AU": ("en", ["04XX XXX XXX", "+61 4XX XXX XXX", "(02) 9XXX XXXX", "+61 2 9XXX XXXX", "(03) 9XXX XXXX"]),
    "NZ": ("en", ["021 NXX XXXX", "+64 21 NXX XXXX", "(09) NXX XXXX", "+64 27 NXX XXXX"]),
    "BR": ("pt", ["(11) 9NXXX-XXXX", "+55 11 9NXXX-XXXX", "+55 (21) 3NXX-XXXX", "(31) 9NXXX-XXXX"]),
    "MX": ("es", ["+52 55 NXXX XXXX", "55 NXXX XXXX", "+52 33 NXXX XXXX", "+52 1 81 NXXX XXXX"]),
    "AR": ("es", ["+54 9 11 NXXX-XXXX", "011 15-NXXX-XXXX", "+54 11 4NXX-XXXX"]),
    "CL": ("es", ["+56 9 NXXX XXXX", "9 NXXX XXXX", "+56 2 2NXX XXXX"]),
    "CO": ("es", ["+57 310 NXX XXXX", "310 NXXXXXX", "+57 601 NXX XXXX"]),
    "PE": ("es", ["+51 9XX XXX XXX", "9XX XXX XXX"]),
    "ZA": ("za", ["082 NXX XXXX", "+27 82 NXX XXXX", "021 NXX XXXX", "+27 11 NXX XXXX"]),
    "NG": ("en", ["0803 NXX XXXX", "+234 803 NXX XXXX", "+234 1 NXX XXXX"]),
    "KE": ("en", ["0712 NXXXXX", "+254 712 NXXXXX", "+254 20 NXXXXXX"]),
    "EG": ("ar", ["010 NXXX XXXX", "+20 10 NXXX XXXX", "+20 2 NXXX XXXX"]),
    "MA": ("fr", ["06 XX XX XX XX", "+212 6 XX XX XX XX", "+212 5 22 XX XX XX"]),
    "SA": ("ar", ["050 NXX XXXX", "+966 50 NXX XXXX", "+966 11 NXX XXXX"]),
    "AE": ("ar", ["050 NXX XXXX", "+971 50 NXX XXXX", "+971 4 NXX XXXX"]),
    "IL": ("he", ["052-NXX-XXXX", "+972 52-NXX-XXXX", "03-NXX-XXXX", "+972 54 NXX XXXX"]),
}


def g_phone(cc=None):
    if cc is None:
        cc = pick(list(PHONES))
    lang, pats = PHONES[cc]
    while True:
        out = "".join(pick(DIG) if ch == "X" else pick("23456789") if ch == "N" else ch for ch in pick(pats))
        if not (cc in ("US", "CA") and "555" in out):
            return out, cc, lang


PHONE_PROSE = {
    "en": ["Call me on {v} after 5pm.", "You can reach the site manager at {v}.", "Text {v} when the courier arrives.", "New mobile number: {v}, please update my contact."],
    "de": ["Ruf mich gerne unter {v} an.", "Bei Rückfragen bin ich unter {v} erreichbar.", "Meine neue Handynummer: {v}"],
    "fr": ["Vous pouvez me joindre au {v}.", "Rappelez-moi au {v} dès que possible."],
    "es": ["Llámame al {v} cuando puedas.", "Mi número es {v}, escríbeme por WhatsApp."],
    "pt": ["Me liga no {v} depois das 18h.", "Meu celular é {v}."],
    "it": ["Chiamami al {v} quando sei libero.", "Il mio numero è {v}."],
    "nl": ["Bel me even op {v}.", "Je kunt me bereiken op {v}."],
    "pl": ["Zadzwoń do mnie pod numer {v}.", "Mój numer to {v}."],
    "sv": ["Ring mig på {v}.", "Mitt nummer är {v}."],
    "fi": ["Soita minulle numeroon {v}.", "Numeroni on {v}."],
    "da": ["Ring til mig på {v}.", "Mit nummer er {v}."],
    "no": ["Ring meg på {v}.", "Nummeret mitt er {v}."],
    "tr": ["Beni {v} numarasından arayabilirsiniz.", "Telefonum: {v}"],
    "ja": ["折り返しは{v}までお願いします。", "携帯番号は{v}です。"],
    "ko": ["{v}로 연락 주세요.", "제 번호는 {v}입니다."],
    "zh": ["有事打我电话 {v}。", "我的手机号是{v}。"],
    "tw": ["請打 {v} 聯絡我。", "我的電話是 {v}。"],
    "ru": ["Позвоните мне по номеру {v}.", "Мой телефон: {v}"],
    "uk": ["Телефонуйте на {v}.", "Мій номер {v}."],
    "cs": ["Zavolejte mi na {v}.", "Moje číslo je {v}."],
    "ro": ["Sunați-mă la {v}.", "Numărul meu este {v}."],
    "el": ["Πάρε με τηλέφωνο στο {v}.", "Το κινητό μου είναι {v}."],
    "he": ["אפשר להתקשר אליי ל-{v}.", "המספר שלי {v}"],
    "ar": ["اتصل بي على {v}.", "رقم جوالي {v}"],
    "hi": ["मुझे {v} पर कॉल करें।", "मेरा नंबर {v} है।"],
    "id": ["Hubungi saya di {v} ya.", "Nomor WA saya {v}."],
    "vi": ["Gọi cho mình số {v} nhé.", "Số điện thoại của tôi là {v}."],
    "th": ["โทรหาฉันที่ {v} ได้เลย", "เบอร์ของผมคือ {v}"],
    "hu": ["Hívj a {v} számon.", "A számom {v}."],
    "ms": ["Hubungi saya di {v}.", "Nombor telefon saya {v}."],
    "ur": ["Please call me at {v}, I am available after Asr.", "Mera number {v} hai."],
    "za": ["Phone me on {v}, I'm in the office till four.", "My cell is {v}."],
}


# ---------------------------------------------------------------- e-mail

EMAIL_DOMAINS = {
    "en": ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "fastmail.com", "hey.com"],
    "de": ["web.de", "gmx.de", "t-online.de", "posteo.de", "gmx.net"],
    "fr": ["orange.fr", "free.fr", "laposte.net", "sfr.fr"],
    "es": ["hotmail.es", "telefonica.net", "yahoo.es"],
    "pt": ["uol.com.br", "bol.com.br", "sapo.pt", "terra.com.br"],
    "it": ["libero.it", "tiscali.it", "virgilio.it"],
    "nl": ["ziggo.nl", "kpnmail.nl", "xs4all.nl"],
    "pl": ["wp.pl", "onet.pl", "interia.pl", "o2.pl"],
    "ru": ["yandex.ru", "mail.ru", "rambler.ru"],
    "ja": ["yahoo.co.jp", "docomo.ne.jp", "ezweb.ne.jp"],
    "ko": ["naver.com", "daum.net", "kakao.com"],
    "zh": ["qq.com", "163.com", "126.com", "sina.com"],
    "tr": ["yandex.com.tr", "hotmail.com.tr"],
    "cs": ["seznam.cz", "centrum.cz", "email.cz"],
    "sv": ["telia.com", "bredband.net"],
}
COMPANY_DOMAINS = ["northwind-traders.com", "kestrel-analytics.io", "brightpath.health", "alpenbahn-logistik.de",
                   "maison-dupre.fr", "vela-robotics.co.uk", "costa-azul-turismo.es", "fjordline-consulting.no",
                   "sakura-denki.co.jp", "tigris-fintech.com.tr", "helios-retail.nl", "pampa-agro.com.ar",
                   "ops.quokka-apps.com.au", "mail.bluefin-data.ca", "krakow-soft.pl", "orbitpay.in"]
ROMAN = {"Ü": "ue", "Ö": "oe", "Ä": "ae", "ü": "ue", "ö": "oe", "ä": "ae", "ß": "ss", "ø": "o", "å": "a", "æ": "ae", "ł": "l", "Ł": "L", "ı": "i", "ş": "s", "ğ": "g", "ç": "c"}
LATIN_LOCALES = ["en", "de", "fr", "es", "pt", "it", "nl", "pl", "sv", "tr", "cs"]


def romanize(s):
    s = "".join(ROMAN.get(c, c) for c in s)
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if c.isascii() and (c.isalnum() or c in " -")).lower()


def g_email(loc=None, nm=None):
    if loc is None:
        loc = pick(LATIN_LOCALES)
    if nm is None:
        nm = person(loc)
    parts = romanize(nm).replace("-", " ").split()
    if len(parts) < 2:
        parts = [rs(LO, 5), rs(LO, 6)]
    f, l = parts[0], parts[-1]
    local = pick([f"{f}.{l}", f"{f[0]}{l}", f"{f}_{l}{R.randint(1, 99)}", f"{f}{l[0]}", f"{l}.{f}", f"{f}.{l}+{pick(['billing', 'github', 'news', 'work'])}", f"{f}{R.randint(70, 99)}"])
    if loc in ("ja", "ko", "zh", "ru") or not local[0].isalpha():
        local = pick(["", "k."]) + rs(LO, R.randint(4, 7)) + str(R.randint(1, 999))
    dom = pick(COMPANY_DOMAINS) if chance(0.4) else pick(EMAIL_DOMAINS.get(loc, EMAIL_DOMAINS["en"]))
    return local + "@" + dom, nm


EMAIL_PROSE = {
    "en": ["Send the signed contract to {v} please.", "You can reach me at {v} until Friday.", "Please cc {v} on the incident report."],
    "de": ["Schick die Unterlagen bitte an {v}.", "Meine neue Adresse ist {v}."],
    "fr": ["Écrivez-moi à {v}.", "Mon adresse e-mail : {v}"],
    "es": ["Escríbeme a {v}.", "Mi correo es {v}."],
    "pt": ["Me manda um e-mail em {v}.", "Meu e-mail é {v}."],
    "it": ["Scrivimi a {v}.", "La mia email è {v}."],
    "nl": ["Mail me op {v}.", "Mijn e-mailadres is {v}."],
    "pl": ["Napisz do mnie na {v}.", "Mój e-mail to {v}."],
    "ja": ["メールアドレスは{v}です。", "資料は{v}宛に送ってください。"],
    "ko": ["메일은 {v}로 보내주세요.", "제 이메일은 {v}입니다."],
    "zh": ["请把文件发到{v}。", "我的邮箱是 {v}"],
    "ru": ["Пишите на {v}.", "Моя почта: {v}"],
    "tr": ["Bana {v} adresinden ulaşabilirsiniz.", "E-posta adresim: {v}"],
    "sv": ["Mejla mig på {v}.", "Min e-post är {v}."],
    "cs": ["Napište mi na {v}.", "Můj e-mail je {v}."],
}


# ---------------------------------------------------------------- cards

CARD_BRANDS = [
    ("Visa", ["4147", "4532", "4916", "4485", "4024", "4263", "4929", "4539", "4716", "4006"], 16, [4, 4, 4, 4]),
    ("Mastercard", ["51", "52", "53", "54", "55", "2221", "2305", "2720", "2567", "2451"], 16, [4, 4, 4, 4]),
    ("American Express", ["34", "37"], 15, [4, 6, 5]),
    ("Discover", ["6011", "644", "65"], 16, [4, 4, 4, 4]),
    ("JCB", ["3528", "3530", "3566", "3589"], 16, [4, 4, 4, 4]),
    ("Diners Club", ["36", "300", "305", "38"], 14, [4, 6, 4]),
    ("UnionPay", ["6212", "6228", "6250"], 16, [4, 4, 4, 4]),
    ("UnionPay", ["6217", "6222"], 19, [4, 4, 4, 4, 3]),
    ("Maestro", ["6759", "5018", "6304"], 16, [4, 4, 4, 4]),
    ("Mir", ["2200", "2202", "2204"], 16, [4, 4, 4, 4]),
    ("RuPay", ["6521", "6522", "6081"], 16, [4, 4, 4, 4]),
    ("Elo", ["636368", "504175", "509066"], 16, [4, 4, 4, 4]),
    ("Troy", ["9792"], 16, [4, 4, 4, 4]),
]


def g_card():
    brand, pres, ln, groups = pick(CARD_BRANDS)
    p = pick(pres)
    p += digs(ln - 1 - len(p))
    n = p + luhn_digit(p)
    sep = pick([" ", " ", "-", ""])
    out, i = [], 0
    for g in groups:
        out.append(n[i:i + g])
        i += g
    return sep.join(out), brand


# ---------------------------------------------------------------- IBAN

def _es_dc(ten):
    r = 11 - wsum(ten, [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11
    return "0" if r == 11 else "1" if r == 10 else str(r)


RIB_MAP = {c: str(v) for v, cs in enumerate(["", "AJ", "BKS", "CLT", "DMU", "ENV", "FOW", "GPX", "HQY", "IRZ"]) for c in cs}


def _rib_key(bank, branch, acct):
    a = int("".join(RIB_MAP.get(c, c) for c in acct))
    return "%02d" % (97 - (89 * int(bank) + 15 * int(branch) + 3 * a) % 97)


def _mod97_10(s):
    return "%02d" % (98 - int(s) * 100 % 97)


def _bb_fr():
    bank = pick(["30004", "30003", "20041", "30002", "10278", "16006", "30066", "17515"])
    branch = digs(5)
    acct = digs(11) if chance(0.7) else digs(8) + pick(UP) + digs(2)
    return bank + branch + acct + _rib_key(bank, branch, acct)


def _bb_it():
    abi = pick(["03069", "02008", "05034", "03062", "05387", "01030", "03111"])
    s = abi + digs(5) + digs(12)
    return cf_check(s) + s


def _bb_es():
    bank = pick(["2100", "0049", "0182", "0081", "2085", "0128", "1465"])
    branch = digs(4)
    acct = digs(10)
    return bank + branch + _es_dc("00" + bank + branch) + _es_dc(acct) + acct


def _bb_be():
    p = pick(["001", "068", "310", "363", "734", "539", "063", "751"]) + digs(7)
    c = int(p) % 97
    return p + "%02d" % (97 if c == 0 else c)


def _bb_no():
    while True:
        p = pick(["1503", "8601", "1254", "9710", "3000", "1594"]) + digs(6)
        r = wsum(p, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11
        c = 0 if r == 0 else 11 - r
        if c != 10:
            return p + str(c)


def _bb_pt():
    p = pick(["0033", "0035", "0007", "0010", "0036", "0018"]) + digs(4) + digs(11)
    return p + _mod97_10(p)


def _bb_fi():
    p = pick(["1", "2", "5", "8"]) + digs(12)
    return p + luhn_digit(p)


def _bb_si():
    p = pick(["02", "03", "05", "10", "19", "26", "29"]) + digs(11)
    return p + _mod97_10(p)


IBAN_BB = {
    "DE": ("de", lambda: pick(["10010010", "37040044", "50010517", "10070000", "12030000", "70150000", "20050550", "43060967", "60050101", "76050101"]) + digs(10)),
    "FR": ("fr", _bb_fr),
    "MC": ("fr", _bb_fr),
    "IT": ("it", _bb_it),
    "SM": ("it", _bb_it),
    "ES": ("es", _bb_es),
    "GB": ("en", lambda: pick(["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "MONZ", "SRLG"]) + digs(6) + digs(8)),
    "IE": ("en", lambda: pick(["AIBK", "BOFI", "IPBS"]) + digs(6) + digs(8)),
    "NL": ("nl", lambda: pick(["ABNA", "INGB", "RABO", "TRIO", "SNSB", "ASNB", "KNAB", "BUNQ"]) + digs(10)),
    "BE": ("nl", _bb_be),
    "LU": ("fr", lambda: pick(["001", "002", "003", "014", "019"]) + digs(13)),
    "CH": ("de", lambda: pick(["00762", "00700", "00230", "08390", "00767"]) + digs(12)),
    "LI": ("de", lambda: pick(["08810", "08800", "08802"]) + digs(12)),
    "AT": ("de", lambda: pick(["20111", "12000", "14000", "32000", "19043", "60000"]) + digs(11)),
    "PL": ("pl", lambda: pick(["10201026", "11402004", "10501445", "12401037", "19401076", "10901014"]) + digs(16)),
    "PT": ("pt", _bb_pt),
    "SE": ("sv", lambda: pick(["500", "800", "600", "300", "957"]) + digs(17)),
    "NO": ("no", _bb_no),
    "DK": ("da", lambda: pick(["3000", "5301", "0040", "2000", "9570"]) + digs(10)),
    "FI": ("fi", _bb_fi),
    "EE": ("et", lambda: pick(["22", "10", "77", "42"]) + digs(14)),
    "LV": ("lv", lambda: pick(["HABA", "UNLA", "RIKO", "PARX"]) + digs(13)),
    "LT": ("lt", lambda: pick(["73000", "70440", "72900", "40100"]) + digs(11)),
    "CZ": ("cs", lambda: pick(["0800", "0100", "0300", "2010", "0600", "5500"]) + digs(16)),
    "SK": ("sk", lambda: pick(["0900", "0200", "1100", "7500"]) + digs(16)),
    "HU": ("hu", lambda: pick(["117", "104", "116", "120", "107"]) + digs(21)),
    "SI": ("sl", _bb_si),
    "HR": ("hr", lambda: pick(["2360000", "2340009", "2484008", "2402006"]) + digs(10)),
    "RO": ("ro", lambda: pick(["BTRL", "RNCB", "BRDE", "INGB", "RZBR"]) + pick(["RONCRT", "EURCRT"]) + digs(10)),
    "BG": ("bg", lambda: pick(["BNBG", "UNCR", "STSA", "FINV"]) + digs(4) + digs(2) + digs(8)),
    "GR": ("el", lambda: pick(["011", "014", "017", "026"]) + digs(4) + digs(16)),
    "CY": ("el", lambda: pick(["002", "005", "007"]) + digs(5) + digs(16)),
    "MT": ("en", lambda: pick(["MALT", "VALL", "APSB"]) + digs(5) + digs(18)),
    "IS": ("is", lambda: pick(["0159", "0111", "0515", "0133"]) + "26" + digs(6) + digs(10)),
    "TR": ("tr", lambda: pick(["00062", "00010", "00046", "00064", "00111"]) + "0" + digs(16)),
    "SA": ("ar", lambda: pick(["80", "10", "45", "20"]) + digs(18)),
    "AE": ("ar", lambda: pick(["033", "026", "035", "030"]) + digs(16)),
    "QA": ("ar", lambda: pick(["QNBA", "DOHB", "CBQA"]) + digs(21)),
    "KW": ("ar", lambda: pick(["NBOK", "CBKU", "GULB"]) + digs(22)),
    "JO": ("ar", lambda: pick(["CBJO", "ARAB", "HBHO"]) + digs(4) + digs(18)),
    "EG": ("ar", lambda: pick(["0019", "0002", "0003"]) + digs(4) + digs(17)),
    "IL": ("he", lambda: pick(["010", "012", "020", "011"]) + digs(3) + digs(13)),
    "UA": ("uk", lambda: pick(["305299", "322001", "300528", "320649"]) + digs(19)),
    "GE": ("en", lambda: pick(["TB", "BG", "LB"]) + digs(16)),
    "AZ": ("en", lambda: pick(["NABZ", "IBAZ", "PAHA"]) + digs(20)),
    "KZ": ("ru", lambda: pick(["125", "601", "722", "998"]) + digs(13)),
    "BR": ("pt", lambda: digs(8) + digs(5) + digs(10) + pick(["C", "P"]) + "1"),
    "PK": ("ur", lambda: pick(["SCBL", "HABB", "MUCB", "UNIL"]) + digs(16)),
    "MU": ("en", lambda: pick(["BOMM", "MCBL"]) + digs(2) + digs(2) + digs(12) + "000" + "MUR"),
    "TN": ("ar", lambda: pick(["10", "08", "25"]) + digs(3) + digs(13) + digs(2)),
    "RS": ("en", lambda: pick(["160", "265", "205"]) + digs(13) + digs(2)),
    "BA": ("hr", lambda: pick(["129", "154", "338"]) + digs(3) + digs(8) + digs(2)),
}


def g_iban(cc=None):
    if cc is None:
        cc = pick(list(IBAN_BB))
    lang, gen = IBAN_BB[cc]
    bban = gen()
    n = cc + iban_check(cc, bban) + bban
    assert iban_ok(n)
    if chance(0.55):
        n = " ".join(n[i:i + 4] for i in range(0, len(n), 4))
    return n, cc, lang


BICS = {"DE": ["COBADEFFXXX", "INGDDEFFXXX", "DEUTDEBBXXX", "GENODEM1GLS", "HASPDEHHXXX"], "FR": ["BNPAFRPPXXX", "SOGEFRPP", "PSSTFRPPPAR"],
        "ES": ["CAIXESBBXXX", "BSCHESMMXXX", "BBVAESMMXXX"], "IT": ["BCITITMM", "UNCRITMM", "BAPPIT21"], "NL": ["ABNANL2A", "INGBNL2A", "RABONL2U"],
        "GB": ["NWBKGB2L", "BARCGB22", "LOYDGB2L"], "AT": ["BKAUATWW", "GIBAATWWXXX"], "CH": ["UBSWCHZH80A", "POFICHBEXXX"], "PL": ["BPKOPLPW", "INGBPLPW"],
        "PT": ["CGDIPTPL", "BCOMPTPL"], "BE": ["GEBABEBB", "KREDBEBB"]}

IBAN_PROSE = {
    "de": ["Bitte überweisen Sie den Betrag auf folgendes Konto: IBAN {v}, BIC {bic}.", "Bankverbindung: {name}, IBAN: {v}", "Kontoinhaber {name}\nIBAN {v}\nVerwendungszweck: Rechnung {inv}"],
    "fr": ["Merci d'effectuer le virement sur l'IBAN {v} (titulaire : {name}).", "Coordonnées bancaires : IBAN {v}, BIC {bic}"],
    "es": ["Realice la transferencia a la cuenta {v} a nombre de {name}.", "IBAN para el reembolso: {v}"],
    "it": ["Coordinate bancarie per il bonifico: IBAN {v}, intestato a {name}.", "Vi prego di accreditare il rimborso sull'IBAN {v}."],
    "nl": ["Graag overmaken naar {v} t.n.v. {name}.", "Mijn rekeningnummer is {v}."],
    "pt": ["Podem fazer a transferência para o IBAN {v}?", "IBAN: {v} ({name})"],
    "pl": ["Proszę o przelew na rachunek {v}.", "Numer konta do zwrotu: {v}"],
    "sv": ["Betala till IBAN {v}, mottagare {name}."],
    "fi": ["Maksu tilille {v}, saaja {name}."],
    "tr": ["Ödemeyi {v} IBAN numarasına yapabilirsiniz.", "Alıcı: {name}, IBAN: {v}"],
    "cs": ["Platbu prosím pošlete na účet {v}."],
    "ro": ["Vă rog transferați suma în contul {v}."],
    "el": ["Παρακαλώ καταθέστε στο IBAN {v}."],
    "hu": ["Kérem, utalják a {v} számlára."],
    "ar": ["يرجى التحويل إلى الآيبان {v}", "رقم الآيبان الخاص بي: {v}"],
    "he": ["נא להעביר לחשבון {v}"],
    "uk": ["Реквізити для оплати: IBAN {v}", "Отримувач: {name}, IBAN {v}"],
    "da": ["Beløbet kan overføres til {v}."],
    "no": ["Send pengene til {v}, takk."],
    "en": ["Please send the refund to {v} (account holder {name}).", "Payout account updated to {v}", "Wire details: beneficiary {name}, IBAN {v}, reference {inv}"],
}


# ---------------------------------------------------------------- secret values

ULID = "0123456789abcdefghjkmnpqrstvwxyz"
BECH = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def gh_tok(prefix):
    body = rs(AN, 30)
    return prefix + body + crc32_b62(body)


def v_openai():
    if chance(0.25):
        return "sk-" + rs(AN, 20) + "T3BlbkFJ" + rs(AN, 20)
    return pick(["sk-proj-", "sk-proj-", "sk-svcacct-"]) + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74)


def v_stripe(prefix):
    return prefix + ("51" + rs(AN, 97) if chance(0.6) else rs(AN, 24))


def v_discord_bot():
    snow = str(R.randint(10 ** 17, 13 * 10 ** 17))
    return b64url(snow.encode()) + "." + rs(B64U, 6) + "." + rs(B64U, 38)


def v_intercom():
    return base64.b64encode(("tok:" + uuid4() + ":1:0").encode()).decode().rstrip("=")


def v_adyen():
    return "AQE" + rs(AN + "+/", 67) + "==-" + rs(B64, 43) + "=-" + rs(AN + "#%;", 16)


def v_1password():
    doc = {"signInAddress": pick(["my.1password.com", "my.1password.eu"]),
           "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64url(rbytes(16))},
           "srpX": rs(HEX, 64), "muk": {"alg": "A256GCM", "ext": True, "k": b64url(rbytes(32)), "kty": "oct"}}
    return "ops_" + b64url(json.dumps(doc, separators=(",", ":")).encode())


def v_mapbox():
    u = pick(["kestrel-maps", "helios-geo", "fieldops", "tundra-io"])
    return "sk." + b64url(('{"u":"%s","a":"cl%s"}' % (u, rs(LAN, 23))).encode()) + "." + rs(B64U, 22)


def v_grafana_cloud():
    doc = {"o": digs(6, True), "n": "stack-%s-%s" % (digs(6, True), pick(["logs", "metrics", "otlp"])), "k": rs(AN, 24),
           "m": {"r": pick(["prod-eu-west-2", "prod-us-central-0", "prod-ap-southeast-1"])}}
    return "glc_" + base64.b64encode(json.dumps(doc, separators=(",", ":")).encode()).decode().rstrip("=")


def v_jfrog_ref():
    return base64.b64encode(("reftkn:01:%s:%s" % (R.randint(1750000000, 1890000000), rs(AN, 30))).encode()).decode().rstrip("=")


def v_azure_sas_sig():
    return b64(rbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def v_sentry_dsn():
    return "https://%s@o%s.ingest.%ssentry.io/%s" % (rs(HEX, 32), digs(R.choice([6, 7]), True), pick(["", "us.", "de."]), digs(7, True))


def v_slack_webhook():
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(UAN, 8), rs(UAN, 10), rs(AN, 24))


def v_discord_webhook():
    return "https://%s/api/webhooks/%s/%s" % (pick(["discord.com", "discordapp.com", "discord.com"]), digs(19, True), rs(B64U, 68))


def v_teams_webhook():
    return "https://%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s" % (
        pick(["northwind", "kestrellabs", "heliosretail", "orbitpay"]), uuid4(), uuid4(), rs(HEX, 32), uuid4())


class Spec:
    def __init__(self, kind, gen, prov, env, n, host="", auth="bearer", key="api_key", extra=(), cls=None, url=False):
        self.kind, self.gen, self.prov, self.env, self.n = kind, gen, prov, env, n
        self.host, self.auth, self.key, self.extra, self.url = host, auth, key, list(extra), url
        self.slug = kind.split("_")[0]
        self.cls = cls or (prov.replace(" ", "").replace(".", "").replace("-", "") + "Client")

    def hdr(self, v):
        a = self.auth
        if a == "bearer":
            return "Authorization", "Bearer " + v
        if a.startswith("scheme:"):
            return "Authorization", a[7:] + " " + v
        if a.startswith("hdr:"):
            return a[4:], v
        return None


S = Spec
SPECS = [
    # ---- big clouds
    S("aws_session_token", lambda: pick(["FwoGZXIvYXdzE", "IQoJb3JpZ2luX2VjE"]) + rs(B64, R.randint(220, 300)), "AWS", ["AWS_SESSION_TOKEN"], 3, "sts.amazonaws.com", "none", "aws_session_token",
      ["[profile {proj}-admin]\nregion = eu-west-1\naws_session_token = {v}", "export AWS_SESSION_TOKEN=\"{v}\"\naws s3 ls s3://{repo}-artifacts/"]),
    S("gcp_api_key", lambda: "AIza" + rs(B64U, 35), "Google Cloud", ["GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_API_KEY", "FIREBASE_API_KEY"], 7, "maps.googleapis.com", "query:key", "api_key",
      ["curl \"https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent?key={v}\" -H 'Content-Type: application/json' -d @prompt.json",
       "<meta-data android:name=\"com.google.android.geo.API_KEY\" android:value=\"{v}\"/>",
       "const firebaseConfig = {\n  apiKey: \"{v}\",\n  authDomain: \"{proj}.firebaseapp.com\",\n  projectId: \"{proj}\",\n};"]),
    S("gcp_oauth_client_secret", lambda: "GOCSPX-" + rs(B64U, 28), "Google OAuth", ["GOOGLE_CLIENT_SECRET"], 4, "oauth2.googleapis.com", "none", "client_secret",
      ["{\"installed\":{\"client_id\":\"%s-%s.apps.googleusercontent.com\",\"project_id\":\"{proj}\",\"client_secret\":\"{v}\",\"redirect_uris\":[\"http://localhost\"]}}" % (digs(12, True), rs(LAN, 32))]),
    S("google_oauth_access_token", lambda: "ya29.a0" + rs(B64U, R.randint(140, 180)), "Google", ["GOOGLE_ACCESS_TOKEN"], 3, "www.googleapis.com", "bearer", "access_token",
      ["curl -H \"Authorization: Bearer {v}\" https://www.googleapis.com/drive/v3/files?pageSize=10"]),
    S("google_oauth_refresh_token", lambda: "1//0" + rs(B64U, R.randint(95, 105)), "Google", ["GOOGLE_REFRESH_TOKEN"], 3, "oauth2.googleapis.com", "none", "refresh_token",
      ["{\"token_uri\": \"https://oauth2.googleapis.com/token\", \"refresh_token\": \"{v}\", \"scopes\": [\"https://www.googleapis.com/auth/gmail.readonly\"]}"]),
    S("azure_storage_account_key", lambda: b64(rbytes(64)), "Azure Storage", ["AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCOUNT_KEY"], 4, "core.windows.net", "none", "account_key",
      ["DefaultEndpointsProtocol=https;AccountName={repo2}store;AccountKey={v};EndpointSuffix=core.windows.net",
       "az storage blob upload --account-name {repo2}store --account-key \"{v}\" -c backups -f db.dump -n db-{n}.dump"]),
    S("azure_sas_token", v_azure_sas_sig, "Azure Storage", ["AZURE_SAS_SIG"], 3, "blob.core.windows.net", "none", "sig",
      ["https://{repo2}store.blob.core.windows.net/exports/report-{n}.csv?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2025-09-30T18:00:00Z&st=2025-03-01T09:00:00Z&spr=https&sig={v}",
       "azcopy copy ./dist \"https://{repo2}cdn.blob.core.windows.net/$web?sv=2023-01-03&ss=b&srt=sco&sp=rwdlac&se=2026-01-01T00:00:00Z&spr=https&sig={v}\" --recursive"]),
    S("azure_client_secret", lambda: rs(AN + "~._-", 3) + pick("78") + "Q~" + rs(AN + "~._-", 34), "Microsoft Entra ID", ["AZURE_CLIENT_SECRET"], 4, "login.microsoftonline.com", "none", "client_secret",
      ["az login --service-principal -u %s -p '{v}' --tenant %s" % (uuid4(), uuid4()),
       "{\n  \"AzureAd\": {\n    \"Instance\": \"https://login.microsoftonline.com/\",\n    \"ClientSecret\": \"{v}\"\n  }\n}"]),
    S("azure_devops_pat", lambda: rs(LO + "234567", 52), "Azure DevOps", ["AZURE_DEVOPS_EXT_PAT", "ADO_PAT"], 3, "dev.azure.com", "none", "pat",
      ["git clone https://pat:{v}@dev.azure.com/{org}/{proj}/_git/{repo}", "echo {v} | az devops login --organization https://dev.azure.com/{org}"]),
    S("azure_openai_api_key", lambda: rs(HEX, 32), "Azure OpenAI", ["AZURE_OPENAI_API_KEY"], 3, "{org}.openai.azure.com", "hdr:api-key", "api_key",
      ["curl https://{org}-oai.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01 -H \"api-key: {v}\" -H 'Content-Type: application/json' -d @body.json"]),
    S("alibaba_access_key_id", lambda: "LTAI5t" + rs(AN, 18), "Alibaba Cloud", ["ALIBABA_CLOUD_ACCESS_KEY_ID"], 1, "ecs.aliyuncs.com", "none", "access_key_id"),
    S("tencent_secret_id", lambda: "AKID" + rs(AN, 32), "Tencent Cloud", ["TENCENTCLOUD_SECRET_ID"], 3, "cvm.tencentcloudapi.com", "none", "secret_id",
      ["tccli configure set secretId {v} region ap-guangzhou", "cred = credential.Credential(\"{v}\", os.environ[\"TENCENTCLOUD_SECRET_KEY\"])"]),
    S("ibm_cloud_api_key", lambda: rs(B64U, 44), "IBM Cloud", ["IBMCLOUD_API_KEY", "IC_API_KEY"], 3, "iam.cloud.ibm.com", "none", "apikey",
      ["ibmcloud login --apikey {v} -r eu-de", "curl -X POST https://iam.cloud.ibm.com/identity/token -d \"grant_type=urn:ibm:params:oauth:grant-type:apikey&apikey={v}\""]),
    S("digitalocean_pat", lambda: "dop_v1_" + rs(HEX, 64), "DigitalOcean", ["DIGITALOCEAN_TOKEN", "DO_TOKEN"], 4, "api.digitalocean.com", "bearer", "token",
      ["doctl auth init --access-token {v}"]),
    S("yandex_cloud_api_key", lambda: "AQVN" + rs(B64U, 36), "Yandex Cloud", ["YC_API_KEY"], 3, "llm.api.cloud.yandex.net", "scheme:Api-Key", "api_key"),
    S("hetzner_api_token", lambda: rs(AN, 64), "Hetzner Cloud", ["HCLOUD_TOKEN"], 3, "api.hetzner.cloud", "bearer", "token",
      ["provider \"hcloud\" {\n  token = \"{v}\"\n}"]),
    S("linode_pat", lambda: rs(HEX, 64), "Linode", ["LINODE_TOKEN", "LINODE_CLI_TOKEN"], 3, "api.linode.com", "bearer", "token"),
    S("vultr_api_key", lambda: rs(UAN, 36), "Vultr", ["VULTR_API_KEY"], 3, "api.vultr.com", "bearer", "api_key"),
    S("cloudflare_api_token", lambda: rs(B64U, 40), "Cloudflare", ["CLOUDFLARE_API_TOKEN", "CF_API_TOKEN"], 5, "api.cloudflare.com", "bearer", "api_token",
      ["dns_cloudflare_api_token = {v}", "wrangler secret put --name {repo} <<< '{v}'"]),
    S("cloudflare_global_api_key", lambda: rs(HEX, 37), "Cloudflare", ["CLOUDFLARE_API_KEY", "CF_API_KEY"], 3, "api.cloudflare.com", "hdr:X-Auth-Key", "api_key",
      ["curl https://api.cloudflare.com/client/v4/zones -H \"X-Auth-Email: $CF_EMAIL\" -H \"X-Auth-Key: {v}\""]),
    S("cloudflare_origin_ca_key", lambda: "v1.0-" + rs(HEX, 24) + "-" + rs(HEX, 146), "Cloudflare", ["CF_ORIGIN_CA_KEY"], 2, "api.cloudflare.com", "hdr:X-Auth-User-Service-Key", "origin_ca_key"),
    S("fastly_api_token", lambda: rs(B64U, 32), "Fastly", ["FASTLY_API_TOKEN"], 3, "api.fastly.com", "hdr:Fastly-Key", "api_token",
      ["curl -X POST -H \"Fastly-Key: {v}\" https://api.fastly.com/service/%s/purge_all" % rs(AN, 22)]),
    S("akamai_client_secret", lambda: b64(rbytes(32)), "Akamai", ["AKAMAI_CLIENT_SECRET"], 2, "luna.akamaiapis.net", "none", "client_secret",
      ["[default]\nclient_secret = {v}\nhost = akab-%s.luna.akamaiapis.net\nmax-body = 131072" % rs(LAN, 16)]),
    # ---- source control & CI
    S("github_pat", lambda: gh_tok("ghp_"), "GitHub", ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"], 8, "api.github.com", "scheme:token", "token",
      ["git remote set-url origin https://{v}@github.com/{org}/{repo}.git", "echo {v} | gh auth login --with-token",
       "https://{user}:{v}@github.com", "//npm.pkg.github.com/:_authToken={v}\n@{org}:registry=https://npm.pkg.github.com"]),
    S("github_fine_grained_pat", lambda: "github_pat_11" + rs(UAN, 9) + rs(AN, 11) + "_" + rs(AN, 59), "GitHub", ["GITHUB_TOKEN", "GH_PAT"], 5, "api.github.com", "bearer", "token",
      ["go env -w GOPRIVATE=github.com/{org}/*\ngit config --global url.\"https://{user}:{v}@github.com/\".insteadOf \"https://github.com/\""]),
    S("github_oauth_token", lambda: gh_tok("gho_"), "GitHub", ["GITHUB_OAUTH_TOKEN"], 3, "api.github.com", "bearer", "oauth_token",
      ["github.com:\n    user: {user}\n    oauth_token: {v}\n    git_protocol: https"]),
    S("github_app_installation_token", lambda: gh_tok("ghs_"), "GitHub App", ["GITHUB_APP_TOKEN"], 3, "api.github.com", "bearer", "token",
      ["git clone https://x-access-token:{v}@github.com/{org}/{repo}.git"]),
    S("github_user_to_server_token", lambda: gh_tok("ghu_"), "GitHub App", ["GH_USER_TOKEN"], 2, "api.github.com", "bearer", "token"),
    S("gitlab_pat", lambda: "glpat-" + rs(AN + "_-", 20), "GitLab", ["GITLAB_TOKEN", "GL_TOKEN", "CI_JOB_TOKEN_OVERRIDE"], 6, "gitlab.com", "hdr:PRIVATE-TOKEN", "private_token",
      ["git clone https://oauth2:{v}@gitlab.com/{org}/{repo}.git", "glab auth login --hostname gitlab.com --token {v}"]),
    S("gitlab_runner_token", lambda: "glrt-" + rs(AN + "_-", 20), "GitLab Runner", ["RUNNER_TOKEN"], 3, "gitlab.com", "none", "token",
      ["gitlab-runner register --non-interactive --url https://gitlab.com --token {v} --executor docker --docker-image alpine:3.20",
       "[[runners]]\n  name = \"ci-{n}\"\n  url = \"https://gitlab.com\"\n  token = \"{v}\"\n  executor = \"docker\""]),
    S("gitlab_pipeline_trigger_token", lambda: "glptt-" + rs(HEX, 40), "GitLab", ["TRIGGER_TOKEN"], 2, "gitlab.com", "none", "token",
      ["curl -X POST --fail -F token={v} -F ref=main https://gitlab.com/api/v4/projects/{n}/trigger/pipeline"]),
    S("gitlab_deploy_token", lambda: "gldt-" + rs(AN + "_-", 20), "GitLab", ["DEPLOY_TOKEN"], 2, "gitlab.com", "none", "token",
      ["git clone https://gitlab+deploy-token-{n}:{v}@gitlab.com/{org}/{repo}.git", "docker login registry.gitlab.com -u gitlab+deploy-token-{n} -p {v}"]),
    S("bitbucket_app_password", lambda: "ATBB" + rs(AN, 32) + rs(UHEX, 8), "Bitbucket", ["BITBUCKET_APP_PASSWORD"], 3, "api.bitbucket.org", "none", "app_password",
      ["git clone https://{user}:{v}@bitbucket.org/{org}/{repo}.git"]),
    S("atlassian_api_token", lambda: "ATATT3xFfGF0" + rs(B64U, 170) + "=" + rs(UHEX, 8), "Atlassian", ["JIRA_API_TOKEN", "CONFLUENCE_API_TOKEN", "ATLASSIAN_API_TOKEN"], 3, "{org}.atlassian.net", "none", "api_token",
      ["jira:\n  server: https://{org}.atlassian.net\n  login: {user}\n  api_token: {v}"]),
    S("circleci_personal_token", lambda: "CCIPAT_" + rs(AN, 22) + "_" + rs(HEX, 40), "CircleCI", ["CIRCLECI_TOKEN", "CIRCLE_TOKEN"], 3, "circleci.com", "hdr:Circle-Token", "token"),
    S("buildkite_api_token", lambda: "bkua_" + rs(HEX, 40), "Buildkite", ["BUILDKITE_API_TOKEN"], 2, "api.buildkite.com", "bearer", "api_token"),
    S("jenkins_api_token", lambda: "11" + rs(HEX, 32), "Jenkins", ["JENKINS_API_TOKEN", "JENKINS_TOKEN"], 3, "ci.{org}.internal", "none", "api_token",
      ["curl -X POST -u {user}:{v} https://jenkins.{org}.dev/job/{repo}/buildWithParameters?BRANCH=main",
       "java -jar jenkins-cli.jar -s https://jenkins.{org}.dev/ -auth {user}:{v} build {repo}"]),
    S("sonarqube_token", lambda: pick(["squ_", "sqp_", "sqa_"]) + rs(HEX, 40), "SonarQube", ["SONAR_TOKEN"], 3, "sonarcloud.io", "bearer", "token",
      ["sonar-scanner -Dsonar.projectKey={repo} -Dsonar.host.url=https://sonar.{org}.dev -Dsonar.token={v}", "mvn verify sonar:sonar -Dsonar.login={v}"]),
    S("terraform_cloud_token", lambda: rs(AN, 14) + ".atlasv1." + rs(AN + "-_", 67), "Terraform Cloud", ["TF_API_TOKEN", "TFE_TOKEN"], 3, "app.terraform.io", "bearer", "token",
      ["{\n  \"credentials\": {\n    \"app.terraform.io\": {\n      \"token\": \"{v}\"\n    }\n  }\n}", "credentials \"app.terraform.io\" {\n  token = \"{v}\"\n}"]),
    S("vault_token", lambda: "hvs." + (rs(AN + "_-", 24) if chance(0.4) else "CAESI" + rs(B64U, 85)), "HashiCorp Vault", ["VAULT_TOKEN"], 4, "vault.{org}.internal:8200", "hdr:X-Vault-Token", "token",
      ["VAULT_ADDR=https://vault.{org}.internal:8200 VAULT_TOKEN={v} vault kv get secret/{repo}/prod"]),
    S("doppler_token", lambda: pick(["dp.st.prd.", "dp.st.stg.", "dp.st.dev.", "dp.pt."]) + rs(AN, 40 + R.randint(0, 3)), "Doppler", ["DOPPLER_TOKEN"], 3, "api.doppler.com", "bearer", "token",
      ["doppler run --token {v} -- npm start", "docker run -e DOPPLER_TOKEN=\"{v}\" {org}/{repo}:latest"]),
    S("pulumi_access_token", lambda: "pul-" + rs(HEX, 40), "Pulumi", ["PULUMI_ACCESS_TOKEN"], 3, "api.pulumi.com", "scheme:token", "access_token"),
    S("npm_access_token", lambda: "npm_" + rs(AN, 36), "npm", ["NPM_TOKEN", "NODE_AUTH_TOKEN"], 6, "registry.npmjs.org", "bearer", "auth_token",
      ["//registry.npmjs.org/:_authToken={v}", "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={v}\nalways-auth=true",
       "npmAuthToken: {v}\nnpmRegistryServer: \"https://registry.npmjs.org\""]),
    S("pypi_api_token", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(B64U, R.randint(130, 160)), "PyPI", ["PYPI_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN"], 4, "upload.pypi.org", "none", "password",
      ["[pypi]\n  username = __token__\n  password = {v}", "twine upload -u __token__ -p {v} dist/*", "poetry config pypi-token.pypi {v}"]),
    S("rubygems_api_key", lambda: "rubygems_" + rs(HEX, 48), "RubyGems", ["GEM_HOST_API_KEY"], 3, "rubygems.org", "hdr:Authorization", "rubygems_api_key",
      ["---\n:rubygems_api_key: {v}"]),
    S("nuget_api_key", lambda: "oy2" + rs(LAN, 43), "NuGet", ["NUGET_API_KEY"], 3, "api.nuget.org", "hdr:X-NuGet-ApiKey", "api_key",
      ["dotnet nuget push bin/Release/*.nupkg --api-key {v} --source https://api.nuget.org/v3/index.json"]),
    S("dockerhub_pat", lambda: "dckr_pat_" + rs(B64U, 27), "Docker Hub", ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD"], 4, "hub.docker.com", "none", "token",
      ["echo \"{v}\" | docker login -u {user} --password-stdin", "docker login -u {user} -p {v} docker.io"]),
    S("crates_io_token", lambda: "cio" + rs(AN, 32), "crates.io", ["CARGO_REGISTRY_TOKEN"], 2, "crates.io", "hdr:Authorization", "token",
      ["cargo login {v}", "[registry]\ntoken = \"{v}\""]),
    S("clojars_deploy_token", lambda: "CLOJARS_" + rs(HEX, 60), "Clojars", ["CLOJARS_PASSWORD", "CLOJARS_TOKEN"], 2, "clojars.org", "none", "password",
      [":deploy-repositories [[\"clojars\" {:url \"https://repo.clojars.org\" :username \"{user}\" :password \"{v}\"}]]"]),
    S("jfrog_api_key", lambda: "AKCp" + rs(AN, 69), "JFrog Artifactory", ["ARTIFACTORY_API_KEY"], 2, "{org}.jfrog.io", "hdr:X-JFrog-Art-Api", "api_key"),
    S("jfrog_reference_token", v_jfrog_ref, "JFrog", ["JFROG_ACCESS_TOKEN"], 2, "{org}.jfrog.io", "bearer", "access_token",
      ["jf c add prod --url https://{org}.jfrog.io --access-token {v} --interactive=false"]),
    S("sourcegraph_access_token", lambda: "sgp_" + rs(HEX, 16) + "_" + rs(HEX, 40), "Sourcegraph", ["SRC_ACCESS_TOKEN"], 2, "sourcegraph.com", "scheme:token", "access_token"),
    S("octopus_deploy_api_key", lambda: "API-" + rs(UAN, 26 + R.randint(0, 4)), "Octopus Deploy", ["OCTOPUS_API_KEY", "OCTOPUS_CLI_API_KEY"], 2, "{org}.octopus.app", "hdr:X-Octopus-ApiKey", "api_key",
      ["octo create-release --project \"{repo}\" --server https://{org}.octopus.app --apiKey {v}"]),
    S("harness_pat", lambda: "pat." + rs(B64U, 22) + "." + rs(AN, 24) + "." + rs(AN, 20), "Harness", ["HARNESS_PLATFORM_API_KEY"], 2, "app.harness.io", "hdr:x-api-key", "api_key"),
    S("netlify_pat", lambda: "nfp_" + rs(AN, 36), "Netlify", ["NETLIFY_AUTH_TOKEN"], 2, "api.netlify.com", "bearer", "auth_token",
      ["netlify deploy --prod --dir=dist --auth {v} --site %s" % uuid4()]),
    S("vercel_token", lambda: rs(AN, 24), "Vercel", ["VERCEL_TOKEN"], 3, "api.vercel.com", "bearer", "token",
      ["vercel deploy --prod --token {v}", "npx vercel pull --yes --environment=production --token={v}"]),
    S("heroku_api_key", lambda: "HRKU-AA" + rs(B64U, 58), "Heroku", ["HEROKU_API_KEY"], 2, "api.heroku.com", "bearer", "api_key",
      ["HEROKU_API_KEY={v} heroku releases -a {repo}-prod"]),
    S("flyio_access_token", lambda: "fm2_" + rs(B64, 96) + ",fm2_" + rs(B64, 64), "Fly.io", ["FLY_API_TOKEN"], 2, "api.machines.dev", "scheme:FlyV1", "access_token",
      ["flyctl deploy --remote-only --access-token \"FlyV1 {v}\""]),
    S("render_api_key", lambda: "rnd_" + rs(AN, 32), "Render", ["RENDER_API_KEY"], 2, "api.render.com", "bearer", "api_key"),
    # ---- data / SaaS
    S("supabase_pat", lambda: "sbp_" + rs(HEX, 40), "Supabase", ["SUPABASE_ACCESS_TOKEN"], 3, "api.supabase.com", "bearer", "access_token",
      ["supabase login --token {v} && supabase db push"]),
    S("supabase_secret_key", lambda: "sb_secret_" + rs(B64U, 31), "Supabase", ["SUPABASE_SECRET_KEY"], 2, "{proj}.supabase.co", "hdr:apikey", "secret_key",
      ["const supabase = createClient('https://%s.supabase.co', '{v}')" % rs(LO, 20)]),
    S("planetscale_service_token", lambda: "pscale_tkn_" + rs(B64U, 43), "PlanetScale", ["PLANETSCALE_SERVICE_TOKEN"], 2, "api.planetscale.com", "none", "service_token",
      ["pscale branch list {repo} --org {org} --service-token-id %s --service-token {v}" % rs(LAN, 12)]),
    S("planetscale_password", lambda: "pscale_pw_" + rs(B64U, 43), "PlanetScale", ["DATABASE_URL"], 2, "aws.connect.psdb.cloud", "none", "password",
      ["DATABASE_URL='mysql://%s:{v}@aws.connect.psdb.cloud/{repo}?sslaccept=strict'" % rs(LAN, 12)]),
    S("databricks_token", lambda: "dapi" + rs(HEX, 32) + pick(["", "", "-2", "-3"]), "Databricks", ["DATABRICKS_TOKEN"], 4, "adb-%s.%s.azuredatabricks.net" % (digs(16, True), R.randint(1, 19)), "bearer", "token",
      ["[DEFAULT]\nhost  = https://adb-%s.%s.azuredatabricks.net\ntoken = {v}" % (digs(16, True), R.randint(1, 19))]),
    S("fauna_secret", lambda: "fnA" + rs(B64U, 37), "Fauna", ["FAUNA_SECRET"], 2, "db.fauna.com", "bearer", "secret",
      ["const client = new Client({ secret: '{v}' });"]),
    S("algolia_admin_api_key", lambda: rs(HEX, 32), "Algolia", ["ALGOLIA_ADMIN_API_KEY", "ALGOLIA_API_KEY"], 3, "%s-dsn.algolia.net" % rs(UAN, 10), "hdr:X-Algolia-API-Key", "admin_api_key",
      ["const client = algoliasearch('%s', '{v}');" % rs(UAN, 10)]),
    S("airtable_pat", lambda: "pat" + rs(AN, 14) + "." + rs(HEX, 64), "Airtable", ["AIRTABLE_API_KEY", "AIRTABLE_TOKEN"], 3, "api.airtable.com", "bearer", "api_key"),
    S("notion_integration_token", lambda: "ntn_" + digs(11, True) + rs(AN, 35) if chance(0.6) else "secret_" + rs(AN, 43), "Notion", ["NOTION_TOKEN", "NOTION_API_KEY"], 4, "api.notion.com", "bearer", "auth",
      ["const notion = new Client({ auth: \"{v}\" });"]),
    S("linear_api_key", lambda: "lin_api_" + rs(AN, 40), "Linear", ["LINEAR_API_KEY"], 3, "api.linear.app", "hdr:Authorization", "api_key"),
    S("asana_pat", lambda: "2/" + digs(16, True) + "/" + digs(16, True) + ":" + rs(HEX, 32), "Asana", ["ASANA_ACCESS_TOKEN"], 2, "app.asana.com", "bearer", "access_token"),
    S("clickup_api_token", lambda: "pk_" + digs(8, True) + "_" + rs(UAN, 32), "ClickUp", ["CLICKUP_API_TOKEN"], 2, "api.clickup.com", "hdr:Authorization", "api_token"),
    S("figma_pat", lambda: "figd_" + rs(B64U, 40), "Figma", ["FIGMA_TOKEN", "FIGMA_ACCESS_TOKEN"], 3, "api.figma.com", "hdr:X-Figma-Token", "access_token"),
    S("contentful_pat", lambda: "CFPAT-" + rs(B64U, 43), "Contentful", ["CONTENTFUL_MANAGEMENT_TOKEN"], 2, "api.contentful.com", "bearer", "management_token",
      ["contentful login --management-token {v}"]),
    S("hubspot_private_app_token", lambda: "pat-" + pick(["na1", "eu1", "na2"]) + "-" + uuid4(), "HubSpot", ["HUBSPOT_ACCESS_TOKEN", "HUBSPOT_PRIVATE_APP_TOKEN"], 3, "api.hubapi.com", "bearer", "access_token"),
    S("salesforce_access_token", lambda: "00D" + rs(AN, 12) + "!" + rs(AN + "._", 96), "Salesforce", ["SF_ACCESS_TOKEN", "SFDC_ACCESS_TOKEN"], 2, "{org}.my.salesforce.com", "bearer", "access_token",
      ["sf org login access-token --instance-url https://{org}.my.salesforce.com --no-prompt <<< '{v}'"]),
    S("okta_api_token", lambda: "00" + rs(B64U, 40), "Okta", ["OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN"], 3, "{org}.okta.com", "scheme:SSWS", "api_token",
      ["okta:\n  client:\n    orgUrl: https://{org}.okta.com\n    token: {v}"]),
    S("auth0_client_secret", lambda: rs(B64U, 64), "Auth0", ["AUTH0_CLIENT_SECRET"], 3, "{org}.eu.auth0.com", "none", "client_secret",
      ["curl --request POST --url https://{org}.eu.auth0.com/oauth/token --header 'content-type: application/json' --data '{\"client_id\":\"%s\",\"client_secret\":\"{v}\",\"audience\":\"https://api.{org}.dev\",\"grant_type\":\"client_credentials\"}'" % rs(AN, 32)]),
    S("clerk_secret_key", lambda: pick(["sk_live_", "sk_test_"]) + rs(AN, 42), "Clerk", ["CLERK_SECRET_KEY"], 2, "api.clerk.com", "bearer", "secret_key"),
    S("onepassword_service_account_token", v_1password, "1Password", ["OP_SERVICE_ACCOUNT_TOKEN"], 2, "my.1password.com", "none", "service_account_token",
      ["OP_SERVICE_ACCOUNT_TOKEN={v} op item get \"prod db\" --vault Infra --fields password"]),
    S("age_secret_key", lambda: "AGE-SECRET-KEY-1" + rs(BECH, 58), "age", ["SOPS_AGE_KEY"], 2, "", "none", "age_key",
      ["# created: 2024-%02d-%02dT10:%02d:11+01:00\n# public key: age1%s\n{v}" % (R.randint(1, 12), R.randint(1, 28), R.randint(0, 59), rs(BECH.lower(), 58))]),
    S("mapbox_secret_token", v_mapbox, "Mapbox", ["MAPBOX_SECRET_TOKEN", "MAPBOX_DOWNLOADS_TOKEN"], 2, "api.mapbox.com", "query:access_token", "access_token",
      ["machine api.mapbox.com\n  login mapbox\n  password {v}"]),
    S("twitter_bearer_token", lambda: "AAAAAAAAAAAAAAAAAAAAA" + rs(AN, 9) + "AAAAAA" + rs(AN, 24) + "%3D" + rs(AN, 50), "X (Twitter)", ["TWITTER_BEARER_TOKEN", "X_BEARER_TOKEN"], 2, "api.twitter.com", "bearer", "bearer_token"),
    S("meta_access_token", lambda: pick(["EAAG", "EAAB", "EAAJ"]) + rs(AN, R.randint(160, 200)), "Meta Graph API", ["FB_ACCESS_TOKEN", "META_ACCESS_TOKEN", "WHATSAPP_TOKEN"], 2, "graph.facebook.com", "query:access_token", "access_token"),
    S("dropbox_access_token", lambda: "sl.B" + rs(B64U, 135), "Dropbox", ["DROPBOX_ACCESS_TOKEN"], 2, "api.dropboxapi.com", "bearer", "access_token"),
    # ---- less common SaaS
    S("shippo_api_token", lambda: "shippo_live_" + rs(HEX, 40), "Shippo", ["SHIPPO_API_TOKEN"], 2, "api.goshippo.com", "scheme:ShippoToken", "api_token"),
    S("easypost_api_key", lambda: "EZAK" + rs(HEX, 54), "EasyPost", ["EASYPOST_API_KEY"], 2, "api.easypost.com", "none", "api_key",
      ["client = EasyPost::Client.new(api_key: '{v}')", "curl -X POST https://api.easypost.com/v2/shipments -u \"{v}:\" -d @shipment.json"]),
    S("postman_api_key", lambda: "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34), "Postman", ["POSTMAN_API_KEY"], 2, "api.getpostman.com", "hdr:X-Api-Key", "api_key"),
    S("readme_api_key", lambda: "rdme_" + rs(LAN, 70), "ReadMe", ["README_API_KEY", "RDME_API_KEY"], 2, "dash.readme.com", "none", "api_key",
      ["npx rdme openapi openapi.yaml --key={v} --id=%s" % rs(HEX, 24)]),
    S("typeform_pat", lambda: "tfp_" + rs(B64U, 44) + "_" + rs(B64U, 14), "Typeform", ["TYPEFORM_TOKEN"], 2, "api.typeform.com", "bearer", "token"),
    S("prefect_api_key", lambda: "pnu_" + rs(AN, 36), "Prefect Cloud", ["PREFECT_API_KEY"], 2, "api.prefect.cloud", "bearer", "api_key",
      ["prefect cloud login -k {v} --workspace {org}/production"]),
    S("tailscale_auth_key", lambda: "tskey-auth-k" + rs(AN, 11) + "CNTRL-" + rs(AN, 33), "Tailscale", ["TS_AUTHKEY", "TAILSCALE_AUTHKEY"], 2, "", "none", "authkey",
      ["tailscale up --authkey={v} --hostname={repo}-{n} --advertise-tags=tag:ci"]),
    S("tailscale_api_key", lambda: "tskey-api-k" + rs(AN, 11) + "CNTRL-" + rs(AN, 33), "Tailscale", ["TAILSCALE_API_KEY"], 2, "api.tailscale.com", "bearer", "api_key"),
    S("ngrok_authtoken", lambda: "2" + rs(AN, 26) + "_" + rs(AN, 21), "ngrok", ["NGROK_AUTHTOKEN"], 2, "api.ngrok.com", "none", "authtoken",
      ["ngrok config add-authtoken {v}", "version: \"2\"\nauthtoken: {v}\ntunnels:\n  web:\n    proto: http\n    addr: 3000"]),
    S("cloudinary_api_secret", lambda: rs(B64U, 27), "Cloudinary", ["CLOUDINARY_API_SECRET"], 2, "api.cloudinary.com", "none", "api_secret",
      ["CLOUDINARY_URL=cloudinary://%s:{v}@{repo2}" % digs(15, True)]),
    S("maxmind_license_key", lambda: rs(AN, 6) + "_" + rs(AN, 29) + "_mmk", "MaxMind", ["MAXMIND_LICENSE_KEY"], 2, "download.maxmind.com", "none", "license_key",
      ["# GeoIP.conf\nAccountID %s\nLicenseKey {v}\nEditionIDs GeoLite2-City GeoLite2-Country" % digs(6, True)]),
    S("adafruit_io_key", lambda: "aio_" + rs(AN, 28), "Adafruit IO", ["ADAFRUIT_IO_KEY", "AIO_KEY"], 2, "io.adafruit.com", "hdr:X-AIO-Key", "aio_key",
      ["#define IO_USERNAME \"{user}\"\n#define IO_KEY \"{v}\""]),
    S("dbt_cloud_token", lambda: "dbtc_" + rs(B64U, 56), "dbt Cloud", ["DBT_CLOUD_API_TOKEN"], 2, "cloud.getdbt.com", "scheme:Token", "api_token"),
    S("scalingo_api_token", lambda: "tk-us-" + rs(B64U, 48), "Scalingo", ["SCALINGO_API_TOKEN"], 2, "api.osc-fr1.scalingo.com", "none", "api_token",
      ["scalingo login --api-token {v}"]),
    S("infracost_api_key", lambda: "ico-" + rs(AN, 32), "Infracost", ["INFRACOST_API_KEY"], 2, "pricing.api.infracost.io", "hdr:X-Api-Key", "api_key",
      ["infracost configure set api_key {v}"]),
    S("trello_api_token", lambda: "ATTA" + rs(HEX, 64) + rs(UHEX, 8), "Trello", ["TRELLO_TOKEN"], 2, "api.trello.com", "query:token", "token",
      ["curl \"https://api.trello.com/1/boards/%s/cards?key=$TRELLO_KEY&token={v}\"" % rs(AN, 8)]),
    # ---- observability / flags
    S("sentry_auth_token", lambda: "sntryu_" + rs(HEX, 64), "Sentry", ["SENTRY_AUTH_TOKEN"], 3, "sentry.io", "bearer", "auth_token",
      ["[auth]\ntoken={v}", "sentry-cli --auth-token {v} releases new -p {repo} $VERSION"]),
    S("sentry_dsn", v_sentry_dsn, "Sentry", ["SENTRY_DSN", "NEXT_PUBLIC_SENTRY_DSN"], 3, "sentry.io", "none", "dsn",
      ["Sentry.init({\n  dsn: \"{v}\",\n  tracesSampleRate: 0.2,\n});", "sentry_sdk.init(dsn=\"{v}\", environment=\"production\")"], url=True),
    S("datadog_api_key", lambda: rs(HEX, 32), "Datadog", ["DD_API_KEY", "DATADOG_API_KEY"], 4, "api.datadoghq.eu", "hdr:DD-API-KEY", "api_key",
      ["DD_API_KEY={v} DD_SITE=\"datadoghq.eu\" bash -c \"$(curl -L https://install.datadoghq.com/scripts/install_script_agent7.sh)\"", "## datadog.yaml\napi_key: {v}\nsite: datadoghq.com\nlogs_enabled: true"]),
    S("datadog_app_key", lambda: rs(HEX, 40), "Datadog", ["DD_APP_KEY", "DATADOG_APP_KEY"], 3, "api.datadoghq.com", "hdr:DD-APPLICATION-KEY", "app_key"),
    S("new_relic_license_key", lambda: rs(HEX, 36) + "NRAL", "New Relic", ["NEW_RELIC_LICENSE_KEY", "NRIA_LICENSE_KEY"], 3, "collector.newrelic.com", "hdr:Api-Key", "license_key",
      ["common: &default_settings\n  license_key: '{v}'\n  app_name: {repo} (production)"]),
    S("new_relic_user_api_key", lambda: "NRAK-" + rs(UAN, 27), "New Relic", ["NEW_RELIC_API_KEY", "NEW_RELIC_USER_KEY"], 3, "api.newrelic.com", "hdr:Api-Key", "api_key"),
    S("honeycomb_api_key", lambda: "hcaik_01" + rs(ULID, 24) + rs(LAN, 32), "Honeycomb", ["HONEYCOMB_API_KEY"], 2, "api.honeycomb.io", "hdr:x-honeycomb-team", "api_key",
      ["OTEL_EXPORTER_OTLP_HEADERS=\"x-honeycomb-team={v}\""]),
    S("grafana_service_account_token", lambda: "glsa_" + rs(AN, 32) + "_" + rs(HEX, 8), "Grafana", ["GRAFANA_TOKEN", "GRAFANA_SA_TOKEN"], 3, "grafana.{org}.dev", "bearer", "token"),
    S("grafana_cloud_token", v_grafana_cloud, "Grafana Cloud", ["GRAFANA_CLOUD_TOKEN", "GCLOUD_RW_API_KEY"], 2, "grafana.net", "bearer", "token"),
    S("dynatrace_api_token", lambda: "dt0c01." + rs(UAN, 24) + "." + rs(UAN, 64), "Dynatrace", ["DT_API_TOKEN"], 3, "%s.live.dynatrace.com" % rs(LAN, 8), "scheme:Api-Token", "api_token"),
    S("pagerduty_api_key", lambda: "u+" + rs(AN + "_-", 18), "PagerDuty", ["PAGERDUTY_TOKEN"], 2, "api.pagerduty.com", "scheme:Token token=", "api_key"),
    S("rollbar_access_token", lambda: rs(HEX, 32), "Rollbar", ["ROLLBAR_ACCESS_TOKEN"], 2, "api.rollbar.com", "hdr:X-Rollbar-Access-Token", "access_token"),
    S("posthog_personal_api_key", lambda: "phx_" + rs(AN, 43), "PostHog", ["POSTHOG_PERSONAL_API_KEY"], 2, "eu.posthog.com", "bearer", "personal_api_key"),
    S("launchdarkly_sdk_key", lambda: "sdk-" + uuid4(), "LaunchDarkly", ["LAUNCHDARKLY_SDK_KEY", "LD_SDK_KEY"], 3, "sdk.launchdarkly.com", "none", "sdk_key",
      ["ldclient.set_config(Config(\"{v}\"))", "client, _ := ld.MakeClient(\"{v}\", 5*time.Second)"]),
    S("launchdarkly_api_token", lambda: "api-" + uuid4(), "LaunchDarkly", ["LAUNCHDARKLY_ACCESS_TOKEN"], 2, "app.launchdarkly.com", "hdr:Authorization", "access_token"),
    S("configcat_sdk_key", lambda: "configcat-sdk-1/" + rs(B64U, 22) + "/" + rs(B64U, 22), "ConfigCat", ["CONFIGCAT_SDK_KEY"], 2, "cdn-global.configcat.com", "none", "sdk_key",
      ["client = configcatclient.get('{v}')"]),
    S("flagsmith_server_key", lambda: "ser." + rs(AN, 22), "Flagsmith", ["FLAGSMITH_SERVER_KEY", "FLAGSMITH_ENVIRONMENT_KEY"], 2, "edge.api.flagsmith.com", "hdr:X-Environment-Key", "environment_key"),
    S("statsig_server_secret", lambda: "secret-" + rs(AN, 43), "Statsig", ["STATSIG_SERVER_SECRET"], 2, "statsigapi.net", "hdr:statsig-api-key", "server_secret",
      ["await Statsig.initialize('{v}', { environment: { tier: 'production' } });"]),
    S("unleash_api_token", lambda: pick(["default", "*", "checkout"]) + ":" + pick(["development", "production"]) + "." + rs(HEX, 56), "Unleash", ["UNLEASH_API_TOKEN"], 2, "unleash.{org}.dev/api", "hdr:Authorization", "api_token"),
    # ---- email / messaging
    S("mailgun_api_key", lambda: "key-" + rs(HEX, 32) if chance(0.4) else rs(HEX, 32) + "-" + rs(HEX, 8) + "-" + rs(HEX, 8), "Mailgun", ["MAILGUN_API_KEY"], 3, "api.eu.mailgun.net", "none", "api_key",
      ["curl -s --user 'api:{v}' https://api.mailgun.net/v3/mg.{org}.dev/messages -F from=\"$MAIL_FROM\" -F to=\"$ONCALL_LIST\" -F subject='disk 91%'"]),
    S("sendgrid_api_key", lambda: "SG." + rs(B64U, 22) + "." + rs(B64U, 43), "SendGrid", ["SENDGRID_API_KEY"], 5, "api.sendgrid.com", "bearer", "api_key",
      ["spring.sendgrid.api-key={v}", "EMAIL_BACKEND = \"sendgrid_backend.SendgridBackend\"\nSENDGRID_API_KEY = \"{v}\""]),
    S("mailchimp_api_key", lambda: rs(HEX, 32) + "-us" + str(R.randint(1, 21)), "Mailchimp", ["MAILCHIMP_API_KEY"], 3, "api.mailchimp.com", "none", "api_key",
      ["mailchimp.setConfig({ apiKey: \"{v}\", server: \"us%s\" });" % R.randint(1, 21)]),
    S("postmark_server_token", uuid4, "Postmark", ["POSTMARK_SERVER_TOKEN", "POSTMARK_API_TOKEN"], 2, "api.postmarkapp.com", "hdr:X-Postmark-Server-Token", "server_token"),
    S("brevo_api_key", lambda: "xkeysib-" + rs(HEX, 64) + "-" + rs(AN, 16), "Brevo", ["BREVO_API_KEY", "SENDINBLUE_API_KEY"], 3, "api.brevo.com", "hdr:api-key", "api_key"),
    S("resend_api_key", lambda: "re_" + rs(AN, 8) + "_" + rs(AN, 24), "Resend", ["RESEND_API_KEY"], 3, "api.resend.com", "bearer", "api_key",
      ["const resend = new Resend('{v}');"]),
    S("twilio_auth_token", lambda: rs(HEX, 32), "Twilio", ["TWILIO_AUTH_TOKEN"], 3, "api.twilio.com", "none", "auth_token",
      ["client = Client(os.environ[\"TWILIO_ACCOUNT_SID\"], \"{v}\")", "curl -X POST \"https://api.twilio.com/2010-04-01/Accounts/$TWILIO_ACCOUNT_SID/Messages.json\" -u \"$TWILIO_ACCOUNT_SID:{v}\" --data-urlencode \"Body=build {n} failed\""]),
    S("vonage_api_secret", lambda: rs(AN, 16), "Vonage", ["VONAGE_API_SECRET", "NEXMO_API_SECRET"], 2, "rest.nexmo.com", "none", "api_secret",
      ["client = vonage.Client(key=os.environ[\"VONAGE_API_KEY\"], secret=\"{v}\")"]),
    S("slack_bot_token", lambda: "xoxb-" + digs(R.randint(10, 13), True) + "-" + digs(R.randint(10, 13), True) + "-" + rs(AN, 24), "Slack", ["SLACK_BOT_TOKEN"], 6, "slack.com/api", "bearer", "bot_token",
      ["client = WebClient(token=\"{v}\")", "const app = new App({ token: '{v}', signingSecret: process.env.SLACK_SIGNING_SECRET });"]),
    S("slack_user_token", lambda: "xoxp-" + digs(11, True) + "-" + digs(11, True) + "-" + digs(13, True) + "-" + rs(HEX, 32), "Slack", ["SLACK_USER_TOKEN"], 3, "slack.com/api", "bearer", "user_token"),
    S("slack_app_token", lambda: "xapp-1-A" + rs(UAN, 10) + "-" + digs(13, True) + "-" + rs(HEX, 64), "Slack", ["SLACK_APP_TOKEN"], 2, "slack.com/api", "bearer", "app_token",
      ["handler = SocketModeHandler(app, \"{v}\")"]),
    S("slack_webhook_url", v_slack_webhook, "Slack", ["SLACK_WEBHOOK_URL"], 5, "hooks.slack.com", "none", "webhook_url",
      ["curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"Deploy of {repo} finished\"}' {v}",
       "- name: Notify\n  uses: slackapi/slack-github-action@v1.26.0\n  env:\n    SLACK_WEBHOOK_URL: {v}"], url=True),
    S("discord_bot_token", v_discord_bot, "Discord", ["DISCORD_TOKEN", "DISCORD_BOT_TOKEN"], 4, "discord.com/api/v10", "scheme:Bot", "token",
      ["client.run(\"{v}\")", "client.login('{v}');"]),
    S("discord_webhook_url", v_discord_webhook, "Discord", ["DISCORD_WEBHOOK"], 3, "discord.com", "none", "webhook_url",
      ["curl -H \"Content-Type: application/json\" -d '{\"content\": \"nightly build green\"}' \"{v}\""], url=True),
    S("telegram_bot_token", lambda: digs(R.randint(9, 10), True) + ":AA" + rs(B64U, 33), "Telegram", ["TELEGRAM_BOT_TOKEN", "TG_TOKEN"], 5, "api.telegram.org", "none", "bot_token",
      ["curl -s \"https://api.telegram.org/bot{v}/sendMessage?chat_id=-100%s&text=backup+ok\"" % digs(10, True), "bot = telebot.TeleBot(\"{v}\")"]),
    S("teams_webhook_url", v_teams_webhook, "Microsoft Teams", ["TEAMS_WEBHOOK_URL"], 3, "webhook.office.com", "none", "webhook_url",
      ["Invoke-RestMethod -Method Post -ContentType 'application/json' -Body '{\"text\":\"Backup finished\"}' -Uri \"{v}\""], url=True),
    S("intercom_access_token", v_intercom, "Intercom", ["INTERCOM_ACCESS_TOKEN"], 2, "api.intercom.io", "bearer", "access_token"),
    S("zendesk_api_token", lambda: rs(AN, 40), "Zendesk", ["ZENDESK_API_TOKEN"], 2, "{org}.zendesk.com", "none", "api_token",
      ["ZENDESK_SUBDOMAIN={org}\nZENDESK_API_TOKEN={v}"]),
    S("freshdesk_api_key", lambda: rs(AN, 20), "Freshdesk", ["FRESHDESK_API_KEY"], 2, "{org}.freshdesk.com", "none", "api_key",
      ["curl -v -u {v}:X -H \"Content-Type: application/json\" -X GET 'https://{org}.freshdesk.com/api/v2/tickets?per_page=5'"]),
    # ---- payments
    S("stripe_secret_key", lambda: v_stripe(pick(["sk_live_", "sk_live_", "sk_test_"])), "Stripe", ["STRIPE_SECRET_KEY", "STRIPE_API_KEY"], 7, "api.stripe.com", "bearer", "secret_key",
      ["curl https://api.stripe.com/v1/charges -u {v}: -d amount=2000 -d currency=eur", "Stripe.api_key = '{v}'", "\\Stripe\\Stripe::setApiKey('{v}');", "stripe.api_key = \"{v}\""]),
    S("stripe_restricted_key", lambda: v_stripe("rk_live_"), "Stripe", ["STRIPE_RESTRICTED_KEY"], 3, "api.stripe.com", "bearer", "restricted_key"),
    S("stripe_webhook_secret", lambda: "whsec_" + rs(AN, 32), "Stripe", ["STRIPE_WEBHOOK_SECRET"], 3, "api.stripe.com", "none", "webhook_secret",
      ["> Ready! You are using Stripe API Version [2024-06-20]. Your webhook signing secret is {v} (^C to quit)",
       "event = stripe.Webhook.construct_event(payload, request.headers[\"Stripe-Signature\"], \"{v}\")"]),
    S("braintree_access_token", lambda: "access_token$production$" + rs(LAN, 16) + "$" + rs(HEX, 32), "Braintree", ["BRAINTREE_ACCESS_TOKEN"], 2, "api.braintreegateway.com", "none", "access_token",
      ["gateway = braintree.BraintreeGateway(access_token=\"{v}\")"]),
    S("square_access_token", lambda: "EAAA" + rs(B64U, 60), "Square", ["SQUARE_ACCESS_TOKEN"], 3, "connect.squareup.com", "bearer", "access_token"),
    S("square_application_secret", lambda: "sq0csp-" + rs(B64U, 43), "Square", ["SQUARE_APPLICATION_SECRET"], 2, "connect.squareup.com", "none", "client_secret",
      ["{\"client_id\": \"sq0idp-%s\", \"client_secret\": \"{v}\", \"code\": \"%s\", \"grant_type\": \"authorization_code\"}" % (rs(B64U, 22), rs(B64U, 22))]),
    S("adyen_api_key", v_adyen, "Adyen", ["ADYEN_API_KEY"], 2, "checkout-test.adyen.com", "hdr:X-API-Key", "api_key"),
    S("mollie_api_key", lambda: pick(["live_", "test_"]) + rs(AN, 30), "Mollie", ["MOLLIE_API_KEY"], 2, "api.mollie.com", "bearer", "api_key",
      ["$mollie->setApiKey(\"{v}\");"]),
    S("razorpay_key_secret", lambda: rs(AN, 24), "Razorpay", ["RAZORPAY_KEY_SECRET"], 2, "api.razorpay.com", "none", "key_secret",
      ["curl -u \"$RAZORPAY_KEY_ID:{v}\" -X POST https://api.razorpay.com/v1/orders -H 'content-type:application/json' -d '{\"amount\":50000,\"currency\":\"INR\"}'"]),
    S("paystack_secret_key", lambda: "sk_live_" + rs(HEX, 40), "Paystack", ["PAYSTACK_SECRET_KEY"], 2, "api.paystack.co", "bearer", "secret_key"),
    S("flutterwave_secret_key", lambda: pick(["FLWSECK-", "FLWSECK_TEST-"]) + rs(HEX, 32) + "-X", "Flutterwave", ["FLW_SECRET_KEY"], 2, "api.flutterwave.com", "bearer", "secret_key"),
    S("gocardless_access_token", lambda: "live_" + rs(B64U, 40), "GoCardless", ["GOCARDLESS_ACCESS_TOKEN"], 2, "api.gocardless.com", "bearer", "access_token"),
    S("plaid_access_token", lambda: "access-production-" + uuid4(), "Plaid", ["PLAID_ACCESS_TOKEN"], 2, "production.plaid.com", "none", "access_token",
      ["{\n  \"client_id\": \"${PLAID_CLIENT_ID}\",\n  \"secret\": \"${PLAID_SECRET}\",\n  \"access_token\": \"{v}\"\n}"]),
    S("plaid_secret", lambda: rs(HEX, 30), "Plaid", ["PLAID_SECRET"], 2, "production.plaid.com", "none", "secret"),
    S("shopify_access_token", lambda: pick(["shpat_", "shpat_", "shpca_", "shppa_"]) + rs(HEX, 32), "Shopify", ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_ADMIN_TOKEN"], 4, "{org}.myshopify.com", "hdr:X-Shopify-Access-Token", "access_token"),
    S("shopify_shared_secret", lambda: "shpss_" + rs(HEX, 32), "Shopify", ["SHOPIFY_API_SECRET"], 2, "{org}.myshopify.com", "none", "api_secret"),
    S("paddle_api_key", lambda: pick(["pdl_live_apikey_", "pdl_sdbx_apikey_"]) + "01" + rs(ULID, 24) + "_" + rs(AN, 22) + "_" + rs(AN, 3), "Paddle", ["PADDLE_API_KEY"], 2, "api.paddle.com", "bearer", "api_key"),
    S("checkout_secret_key", lambda: "sk_sbox_" + rs(LAN, 26), "Checkout.com", ["CKO_SECRET_KEY"], 2, "api.sandbox.checkout.com", "bearer", "secret_key"),
    # ---- AI / ML
    S("openai_api_key", v_openai, "OpenAI", ["OPENAI_API_KEY"], 8, "api.openai.com", "bearer", "api_key",
      ["from openai import OpenAI\nclient = OpenAI(api_key=\"{v}\")", "OPENAI_API_KEY={v} python -m evals.run --model gpt-4o-mini"]),
    S("anthropic_api_key", lambda: "sk-ant-api03-" + rs(B64U, 93) + "AA", "Anthropic", ["ANTHROPIC_API_KEY"], 6, "api.anthropic.com", "hdr:x-api-key", "api_key",
      ["client = anthropic.Anthropic(api_key=\"{v}\")", "curl https://api.anthropic.com/v1/messages -H \"x-api-key: {v}\" -H \"anthropic-version: 2023-06-01\" -H \"content-type: application/json\" -d @req.json"]),
    S("huggingface_token", lambda: "hf_" + rs(UP + LO, 34), "Hugging Face", ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"], 5, "huggingface.co", "bearer", "token",
      ["huggingface-cli login --token {v}", "git clone https://{user}:{v}@huggingface.co/{org}/{repo}"]),
    S("replicate_api_token", lambda: "r8_" + rs(AN, 37), "Replicate", ["REPLICATE_API_TOKEN"], 3, "api.replicate.com", "bearer", "api_token"),
    S("groq_api_key", lambda: "gsk_" + rs(AN, 52), "Groq", ["GROQ_API_KEY"], 3, "api.groq.com/openai", "bearer", "api_key"),
    S("perplexity_api_key", lambda: "pplx-" + rs(AN, 48), "Perplexity", ["PERPLEXITY_API_KEY", "PPLX_API_KEY"], 2, "api.perplexity.ai", "bearer", "api_key"),
    S("mistral_api_key", lambda: rs(AN, 32), "Mistral AI", ["MISTRAL_API_KEY"], 2, "api.mistral.ai", "bearer", "api_key"),
    S("cohere_api_key", lambda: rs(AN, 40), "Cohere", ["COHERE_API_KEY", "CO_API_KEY"], 2, "api.cohere.com", "bearer", "api_key"),
    S("together_api_key", lambda: rs(HEX, 64), "Together AI", ["TOGETHER_API_KEY"], 2, "api.together.xyz", "bearer", "api_key"),
    S("deepseek_api_key", lambda: "sk-" + rs(HEX, 32), "DeepSeek", ["DEEPSEEK_API_KEY"], 2, "api.deepseek.com", "bearer", "api_key"),
    S("xai_api_key", lambda: "xai-" + rs(AN, 80), "xAI", ["XAI_API_KEY"], 2, "api.x.ai", "bearer", "api_key"),
    S("openrouter_api_key", lambda: "sk-or-v1-" + rs(HEX, 64), "OpenRouter", ["OPENROUTER_API_KEY"], 3, "openrouter.ai/api", "bearer", "api_key"),
    S("langsmith_api_key", lambda: pick(["lsv2_pt_", "lsv2_sk_"]) + rs(HEX, 32) + "_" + rs(HEX, 10), "LangSmith", ["LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"], 2, "api.smith.langchain.com", "hdr:x-api-key", "api_key"),
    S("pinecone_api_key", lambda: "pcsk_" + rs(AN, 5) + "_" + rs(AN, 63), "Pinecone", ["PINECONE_API_KEY"], 3, "api.pinecone.io", "hdr:Api-Key", "api_key",
      ["pc = Pinecone(api_key=\"{v}\")"]),
    S("wandb_api_key", lambda: rs(HEX, 40), "Weights & Biases", ["WANDB_API_KEY"], 2, "api.wandb.ai", "none", "api_key",
      ["wandb login {v}", "machine api.wandb.ai\n  login user\n  password {v}"]),
    S("elevenlabs_api_key", lambda: "sk_" + rs(HEX, 48), "ElevenLabs", ["ELEVENLABS_API_KEY", "XI_API_KEY"], 2, "api.elevenlabs.io", "hdr:xi-api-key", "api_key"),
    S("deepgram_api_key", lambda: rs(HEX, 40), "Deepgram", ["DEEPGRAM_API_KEY"], 2, "api.deepgram.com", "scheme:Token", "api_key"),
    S("assemblyai_api_key", lambda: rs(HEX, 32), "AssemblyAI", ["ASSEMBLYAI_API_KEY"], 2, "api.assemblyai.com", "hdr:authorization", "api_key"),
    S("stability_api_key", lambda: "sk-" + rs(AN, 48), "Stability AI", ["STABILITY_API_KEY"], 2, "api.stability.ai", "bearer", "api_key"),
    S("fireworks_api_key", lambda: "fw_" + rs(AN, 24), "Fireworks AI", ["FIREWORKS_API_KEY"], 2, "api.fireworks.ai/inference", "bearer", "api_key"),
    S("cerebras_api_key", lambda: "csk-" + rs(LAN, 48), "Cerebras", ["CEREBRAS_API_KEY"], 2, "api.cerebras.ai", "bearer", "api_key"),
]


# ---------------------------------------------------------------- contexts for secrets

ORGS = ["acme-logistics", "northwind", "kestrel-labs", "bluefin-data", "helios-retail", "orbitpay", "tundra-io", "quokka-apps", "fjordline", "sakura-denki"]
REPOS = ["api-gateway", "billing-service", "web-frontend", "infra", "data-pipeline", "mobile-app", "ml-platform", "docs-site", "checkout", "notifier", "etl-jobs", "search-indexer"]
USERS = ["jdoe", "mkowalski", "adubois", "lhuber", "svc-deploy", "ci-bot", "rnakamura", "pfernandes", "tsato", "okaya"]
PROJS = ["atlas-prod", "helios-staging", "orion-dev", "nebula-412", "kite-analytics", "lumen-eu"]
REGIONS = ["eu-west-1", "us-east-2", "eu-central-1", "ap-southeast-2", "westeurope", "europe-west3"]
ENV_FILL = ["NODE_ENV=production", "LOG_LEVEL=info", "PORT=8080", "APP_URL=https://app.internal.lan", "TZ=UTC", "DEBUG=false",
            "WORKERS=4", "AWS_REGION=eu-central-1", "S3_BUCKET=assets-prod-eu", "CACHE_TTL=300", "FEATURE_NEW_CHECKOUT=true",
            "RAILS_MAX_THREADS=5", "DATABASE_POOL=10", "SENTRY_ENVIRONMENT=staging", "NEXT_PUBLIC_APP_NAME=Lighthouse", "REDIS_DB=2",
            "HTTP_TIMEOUT_MS=15000", "OTEL_SERVICE_NAME=checkout", "QUEUE_CONCURRENCY=8", "LOCALE=de_DE"]
RUN_CMDS = ["npm run dev", "python manage.py runserver", "go run ./cmd/api", "cargo run --release", "make deploy", "./scripts/smoke.sh",
            "pytest -k integration -x", "yarn start", "bundle exec rails s", "terraform plan", "docker compose up -d", "php artisan queue:work"]
IMAGES = ["ghcr.io/{org}/{repo}:1.14.2", "{org}/{repo}:latest", "registry.gitlab.com/{org}/{repo}:main", "node:20-alpine", "python:3.12-slim"]
LOGGERS = ["urllib3.connectionpool", "httpx", "app.integrations", "okhttp.OkHttpClient", "reqwest::connect", "net/http", "Faraday"]


def camel(snake):
    p = snake.split("_")
    return p[0] + "".join(x.title() for x in p[1:])


def pascal(snake):
    return "".join(x.title() for x in snake.split("_"))


def fill(t, s, v):
    repo = pick(REPOS)
    rep = {"{v}": v, "{env}": pick(s.env), "{org}": pick(ORGS), "{repo}": repo, "{repo2}": repo.replace("-", "")[:14],
           "{user}": pick(USERS), "{n}": str(R.randint(12, 9876)), "{proj}": pick(PROJS), "{region}": pick(REGIONS)}
    out = t
    for k in ["{host}"]:
        out = out.replace(k, s.host)
    for k, val in rep.items():
        if k != "{v}":
            out = out.replace(k, val)
    return out.replace("{v}", v)


def api_path(s):
    return pick(["/v1/me", "/v1/status", "/api/v2/projects", "/v1/models", "/v2/accounts", "/api/v1/health", "/v3/users/current", "/v1/items?limit=20"])


def hline(s, v):
    h = s.hdr(v)
    return None if h is None else "%s: %s" % h


def c_env(s, v):
    lines = R.sample(ENV_FILL, R.randint(1, 3))
    q = pick(["", "", '"', "'"])
    lines.insert(R.randint(0, len(lines)), "%s=%s%s%s" % (pick(s.env), q, v, q))
    return pick(["", "# .env\n", "# .env.production\n", "# %s\n" % s.prov, "$ cat .env.local\n"]) + "\n".join(lines)


def c_shell(s, v):
    n = R.randint(100, 1999)
    e = pick(s.env)
    return pick(["$ export %s=%s\n$ %s" % (e, v, pick(RUN_CMDS)),
                 " %d  export %s='%s'\n %d  %s" % (n, e, v, n + 1, pick(RUN_CMDS)),
                 "%s=%s %s" % (e, v, pick(RUN_CMDS)),
                 "❯ set -x %s %s\n❯ %s" % (e, v, pick(RUN_CMDS))])


def c_yaml(s, v):
    q = pick(["", "'", '"'])
    return pick(["%s:\n  enabled: true\n  %s: %s%s%s\n  timeout_seconds: %d" % (s.slug, s.key, q, v, q, pick([5, 10, 30, 60])),
                 "integrations:\n  - name: %s\n    %s: %s%s%s\n    region: %s" % (s.slug, s.key, q, v, q, pick(REGIONS)),
                 "# config/%s.yml\n%s:\n  %s: %s%s%s" % (pick(["settings", "production", "secrets", "local"]), s.slug, s.key, q, v, q)])


def c_toml(s, v):
    return pick(['[%s]\n%s = "%s"\nendpoint = "https://%s"' % (s.slug, s.key, v, fill("{host}", s, v)),
                 '[tool.%s]\n%s = "%s"\nretries = 3' % (s.slug, s.key, v),
                 '# config.toml\n[integrations.%s]\nenabled = true\n%s = "%s"' % (s.slug, s.key, v)])


def c_ini(s, v):
    return pick(["[%s]\n%s = %s\nretries = 3" % (s.slug, s.key, v),
                 "; settings.ini\n[%s]\nenabled=1\n%s=%s" % (s.slug, s.key, v)])


def c_json(s, v):
    d = {s.slug: {camel(s.key): v, "baseUrl": "https://" + fill("{host}", s, v), "timeoutMs": pick([5000, 10000, 30000])}}
    if chance(0.5):
        d = {"name": pick(REPOS), "version": "%d.%d.%d" % (R.randint(0, 4), R.randint(0, 20), R.randint(0, 9)), "integrations": d}
    return json.dumps(d, indent=pick([2, 4]), ensure_ascii=False)


def c_xml(s, v):
    return pick(['<appSettings>\n  <add key="%s%s" value="%s" />\n  <add key="Environment" value="Production" />\n</appSettings>' % (pascal(s.slug), pascal(s.key), v),
                 "<%s>\n  <%s>%s</%s>\n  <timeout>30</timeout>\n</%s>" % (s.slug, camel(s.key), v, camel(s.key), s.slug),
                 '<property name="%s.%s" value="%s"/>' % (s.slug, s.key.replace("_", "-"), v)])


def c_hcl(s, v):
    return pick(['provider "%s" {\n  %s = "%s"\n}' % (s.slug, s.key, v),
                 'variable "%s_%s" {\n  type      = string\n  default   = "%s"\n  sensitive = true\n}' % (s.slug, s.key, v),
                 'resource "kubernetes_secret" "%s" {\n  metadata { name = "%s-creds" }\n  data = {\n    %s = "%s"\n  }\n}' % (s.slug, s.slug, pick(s.env), v)])


def c_py(s, v):
    h = s.hdr(v)
    opts = ['import os\nos.environ["%s"] = "%s"' % (pick(s.env), v),
            'client = %s(%s="%s")' % (s.cls, s.key, v),
            '%s = "%s"  # TODO: move to secrets manager' % (pick(s.env), v),
            "settings = {\n    '%s': '%s',\n    'timeout': 30,\n}" % (s.key, v)]
    if h:
        opts.append('headers = {"%s": "%s"}\nresp = requests.get("https://%s%s", headers=headers, timeout=10)' % (h[0], h[1], fill("{host}", s, v), api_path(s)))
    return pick(opts)


def c_js(s, v):
    h = s.hdr(v)
    opts = ["const %s = process.env.%s || '%s';" % (camel(s.key), pick(s.env), v),
            "const client = new %s({ %s: '%s' });" % (s.cls, camel(s.key), v),
            "module.exports = {\n  %s: {\n    %s: \"%s\",\n  },\n};" % (s.slug, camel(s.key), v)]
    if h:
        opts.append('const res = await fetch("https://%s%s", {\n  headers: { "%s": "%s" },\n});' % (fill("{host}", s, v), api_path(s), h[0], h[1]))
    return pick(opts)


def c_ts(s, v):
    return pick(['export const config = {\n  %s: "%s",\n  retries: 3,\n} as const;' % (camel(s.key), v),
                 "const %s: string = \"%s\";" % (camel(s.key), v)])


def c_go(s, v):
    h = s.hdr(v)
    opts = ['const %s = "%s"' % (camel(s.key), v),
            'cfg := Config{\n\t%s: "%s",\n\tTimeout: 30 * time.Second,\n}' % (pascal(s.key), v),
            'os.Setenv("%s", "%s")' % (pick(s.env), v)]
    if h:
        opts.append('req.Header.Set("%s", "%s")' % h)
    return pick(opts)


def c_rust(s, v):
    h = s.hdr(v)
    opts = ['let %s = "%s";' % (s.key, v), 'std::env::set_var("%s", "%s");' % (pick(s.env), v)]
    if h:
        opts.append('let resp = client\n    .get("https://%s%s")\n    .header("%s", "%s")\n    .send()\n    .await?;' % (fill("{host}", s, v), api_path(s), h[0], h[1]))
    return pick(opts)


def c_java(s, v):
    h = s.hdr(v)
    opts = ['private static final String %s = "%s";' % (s.key.upper(), v),
            '%sConfig config = %sConfig.builder()\n    .%s("%s")\n    .build();' % (pascal(s.slug), pascal(s.slug), camel(s.key), v)]
    if h:
        opts.append('HttpRequest request = HttpRequest.newBuilder(URI.create("https://%s%s"))\n    .header("%s", "%s")\n    .build();' % (fill("{host}", s, v), api_path(s), h[0], h[1]))
    return pick(opts)


def c_cs(s, v):
    h = s.hdr(v)
    opts = ['var %s = "%s";' % (camel(s.key), v), 'Environment.SetEnvironmentVariable("%s", "%s");' % (pick(s.env), v)]
    if h:
        opts.append('client.DefaultRequestHeaders.Add("%s", "%s");' % h)
    return pick(opts)


def c_ruby(s, v):
    return pick(["%s.configure do |c|\n  c.%s = '%s'\nend" % (pascal(s.slug), s.key, v),
                 "ENV['%s'] ||= '%s'" % (pick(s.env), v)])


def c_php(s, v):
    return pick(["$client = new %s('%s');" % (s.cls, v), "define('%s', '%s');" % (pick(s.env), v),
                 "'%s' => [\n    '%s' => env('%s', '%s'),\n]," % (s.slug, s.key, pick(s.env), v)])


def c_kotlin(s, v):
    h = s.hdr(v)
    opts = ['val %s = "%s"' % (camel(s.key), v), 'buildConfigField("String", "%s", "\\"%s\\"")' % (s.key.upper(), v)]
    if h:
        opts.append('val request = Request.Builder()\n    .url("https://%s%s")\n    .addHeader("%s", "%s")\n    .build()' % (fill("{host}", s, v), api_path(s), h[0], h[1]))
    return pick(opts)


def c_swift(s, v):
    h = s.hdr(v)
    opts = ['let %s = "%s"' % (camel(s.key), v)]
    if h:
        opts.append('request.setValue("%s", forHTTPHeaderField: "%s")' % (h[1], h[0]))
    return pick(opts)


def c_ps(s, v):
    h = s.hdr(v)
    opts = ['$env:%s = "%s"' % (pick(s.env), v), '[Environment]::SetEnvironmentVariable("%s", "%s", "User")' % (pick(s.env), v)]
    if h:
        opts.append('Invoke-RestMethod -Uri "https://%s%s" -Headers @{ "%s" = "%s" }' % (fill("{host}", s, v), api_path(s), h[0], h[1]))
    return pick(opts)


def c_curl(s, v):
    host = fill("{host}", s, v)
    if s.auth.startswith("query:"):
        return 'curl -s "https://%s%s%s%s=%s" | jq .' % (host, api_path(s), "&" if "?" in api_path(s) else "?", s.auth[6:], v)
    h = s.hdr(v)
    if h is None:
        return None
    return pick(['curl -s -H "%s: %s" https://%s%s' % (h[0], h[1], host, api_path(s)),
                 "curl --request GET \\\n  --url https://%s%s \\\n  --header '%s: %s' \\\n  --header 'Accept: application/json'" % (host, api_path(s), h[0], h[1])])


def c_http(s, v):
    h = s.hdr(v)
    if h is None:
        return None
    host = fill("{host}", s, v)
    return pick(["GET %s HTTP/1.1\nHost: %s\n%s: %s\nAccept: application/json" % (api_path(s), host.split("/")[0], h[0], h[1]),
                 "POST %s HTTP/2\nhost: %s\n%s: %s\ncontent-type: application/json\ncontent-length: %d" % (api_path(s), host.split("/")[0], h[0].lower(), h[1], R.randint(40, 900))])


def c_ci(s, v):
    e = pick(s.env)
    return pick(["%s ##[group]Run ./scripts/deploy.sh\n  env:\n    %s: %s\n    NODE_VERSION: 20\n##[endgroup]" % (ts_iso(), e, v),
                 "$ echo \"using token $%s\"\nusing token %s\n$ ./gradlew publish" % (e, v),
                 "Step %d/%d : ARG %s=%s\n ---> Running in %s" % (R.randint(3, 9), R.randint(10, 14), e, v, rs(HEX, 12)),
                 "[Pipeline] sh\n+ %s=%s ./release.sh --channel stable" % (e, v)])


def c_trace(s, v):
    return pick(["Traceback (most recent call last):\n  File \"/app/jobs/sync.py\", line %d, in run\n    client.push(batch)\n  File \"/usr/local/lib/python3.11/site-packages/%s/client.py\", line %d, in push\n    raise AuthError(f\"invalid credentials: {self.%s}\")\n%s.errors.AuthError: invalid credentials: %s" % (R.randint(20, 300), s.slug, R.randint(40, 500), s.key, s.slug, v),
                 "Exception in thread \"main\" com.%s.sync.ApiException: 401 Unauthorized (%s=%s)\n\tat com.%s.sync.Client.call(Client.java:%d)\n\tat com.%s.sync.Main.main(Main.java:%d)" % (pick(ORGS).replace("-", ""), s.key, v, pick(ORGS).replace("-", ""), R.randint(50, 400), pick(ORGS).replace("-", ""), R.randint(10, 80)),
                 "Error: Request failed with status code 403\n    at createError (node_modules/axios/lib/core/createError.js:16:15)\n  config: { headers: { %s: '%s' } }" % (camel(s.key), v),
                 "panic: %s: unauthorized (key=%s)\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/cmd/worker/main.go:%d +0x1d4" % (s.slug, v, R.randint(20, 200))])


CHAT_SECRET = {
    "en": ["I keep getting a 401 from {p}. Here's the key I'm using: {v} (is the format wrong?)",
           "can you wire up the {p} client? use {v} for now, I'll move it to the vault later",
           "Why does the {p} SDK say invalid credentials when I pass {v}? it worked yesterday",
           "add this to the staging env pls: {env}={v}",
           "here's the token from the {p} dashboard: {v}. Set it as a repo secret and re-run the pipeline",
           "The integration test for {p} fails locally. My .env has {env}={v}, what am I missing?"],
    "de": ["Kannst du bitte prüfen, warum {p} mit dem Schlüssel {v} immer 403 zurückgibt?",
           "Trag bitte {v} als {env} in die .env.local ein, dann teste ich den Upload nochmal.",
           "Hier der neue Token für {p}: {v}. Der alte ist abgelaufen."],
    "fr": ["Salut, le déploiement échoue sur {p}. J'ai mis la clé {v} dans les variables, tu peux regarder ?",
           "Peux-tu configurer le client {p} avec ce jeton : {v}"],
    "es": ["Oye, ¿puedes revisar por qué {p} rechaza la clave {v}? Ayer funcionaba.",
           "Configura la variable {env} con {v} en el entorno de pruebas, por favor."],
    "pt": ["Pode verificar por que o {p} retorna 401 com esta chave? {v}", "Coloca {v} no {env} do ambiente de homologação, por favor."],
    "it": ["Puoi controllare perché {p} mi dà errore con questa chiave? {v}", "Ecco il token di {p} per lo staging: {v}"],
    "nl": ["Kun je kijken waarom {p} de sleutel {v} weigert? Gisteren werkte hij nog.", "Zet {env} op {v} in de pipeline, dan draai ik hem opnieuw."],
    "pl": ["Możesz sprawdzić, czemu {p} odrzuca klucz {v}? Wczoraj działało.", "Wrzuć {v} do {env} na stagingu, proszę."],
    "tr": ["{p} anahtarı {v} ile 401 alıyorum, neden olabilir?", "Staging ortamına {env} olarak {v} ekler misin?"],
    "ja": ["{p}のAPIキー {v} を使うと401が返ってきます。設定を確認してもらえますか？", "ステージングの{env}に {v} を入れておいてください。"],
    "ko": ["{p} 키 {v} 로 요청하면 계속 401이 나와요. 확인 좀 해줄 수 있어요?", "스테이징 {env} 값을 {v} 로 바꿔주세요."],
    "zh": ["用这个{p}的密钥 {v} 调接口一直报 401，帮我看看哪里配错了？", "把 {env} 设置成 {v}，然后重新跑一下流水线。"],
    "ru": ["Глянь, почему {p} возвращает 401 с ключом {v}? Вчера всё работало.", "Пропиши {env}={v} на стейдже, пожалуйста."],
    "uk": ["Перевір, будь ласка, чому {p} не приймає ключ {v}.", "Ось новий токен {p}: {v}"],
    "id": ["Tolong cek kenapa {p} menolak key {v}, kemarin masih jalan.", "Pasang {env}={v} di staging ya."],
    "vi": ["Bạn xem giúp tại sao {p} trả về 401 với khóa {v} nhé?", "Đặt {env} thành {v} trên môi trường staging giúp mình."],
    "hi": ["{p} की key {v} से 401 error आ रहा है, ज़रा देखो क्या गड़बड़ है?", "staging में {env} को {v} पर set कर दो।"],
    "ar": ["المفتاح {v} الخاص بـ {p} يرجع خطأ 401، هل يمكنك التحقق؟", "أضف {env}={v} إلى بيئة الاختبار من فضلك."],
    "sv": ["Kan du kolla varför {p} nekar nyckeln {v}? Det funkade igår.", "Lägg in {v} som {env} i stagingmiljön."],
    "cs": ["Můžeš se podívat, proč {p} odmítá klíč {v}?", "Nastav prosím {env} na {v} ve stagingu."],
    "el": ["Μπορείς να δεις γιατί το {p} απορρίπτει το κλειδί {v};", "Βάλε το {env}={v} στο staging."],
    "he": ["המפתח {v} של {p} מחזיר 401, אפשר לבדוק?", "תגדיר {env}={v} בסביבת הבדיקות בבקשה"],
    "fi": ["Voitko katsoa, miksi {p} hylkää avaimen {v}?", "Laita {env}={v} staging-ympäristöön."],
    "ro": ["Poți verifica de ce {p} respinge cheia {v}?", "Setează {env}={v} pe staging, te rog."],
    "hu": ["Megnéznéd, miért utasítja el a {p} a {v} kulcsot?"],
    "th": ["ช่วยดูหน่อยว่าทำไม {p} ปฏิเสธคีย์ {v}", "ตั้งค่า {env}={v} บน staging ให้หน่อย"],
}


def c_chat(s, v):
    lang = pick(list(CHAT_SECRET)) if chance(0.6) else "en"
    return pick(CHAT_SECRET[lang]).replace("{p}", s.prov).replace("{env}", pick(s.env)).replace("{v}", v)


def c_ticket(s, v):
    return pick(["Ticket #%d [P%d] %s integration broken\nReporter: %s\nDescription: after rotating keys the sync stopped. Current value in the admin panel is %s, please advise." % (R.randint(1000, 99999), R.randint(1, 4), s.prov, person("en"), v),
                 "SUP-%d | %s | customer pasted their %s credential in the chat: %s -- need to ask them to revoke" % (R.randint(100, 9999), pick(["open", "pending", "escalated"]), s.prov, v),
                 "Incidencia %d: la integración con %s falla. Clave configurada: %s" % (R.randint(100, 9999), s.prov, v),
                 "Störung #%d: Anbindung an %s liefert 401. Hinterlegter Schlüssel: %s" % (R.randint(100, 9999), s.prov, v)])


def c_email(s, v):
    a, b = person("en").split()[0], person(pick(["en", "de", "fr", "nl"])).split()[0]
    return pick(["Subject: %s credentials for staging\n\nHi %s,\n\nthe new key is %s. It replaces the one from last sprint.\n\nCheers,\n%s" % (s.prov, a, v, b),
                 "Subject: Re: %s access\n\n> can you send me the token?\n\nSure: %s\nPlease don't forward this.\n\n-- \n%s" % (s.prov, v, b),
                 "Betreff: Zugangsdaten %s\n\nHallo %s,\n\nhier der Schlüssel für die Testumgebung: %s\n\nGruß\n%s" % (s.prov, b, v, a)])


def c_docker(s, v):
    return pick(["docker run -d --name %s -e %s=%s -p %d:8080 %s" % (pick(REPOS), pick(s.env), v, pick([8080, 3000, 9000]), fill(pick(IMAGES), s, v)),
                 "docker run --rm -it \\\n  -e %s='%s' \\\n  %s" % (pick(s.env), v, fill(pick(IMAGES), s, v))])


def c_k8s(s, v):
    return pick(["kubectl create secret generic %s-creds --from-literal=%s=%s -n %s" % (s.slug, s.key, v, pick(["prod", "staging", "default", "platform"])),
                 "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s-credentials\ntype: Opaque\nstringData:\n  %s: %s" % (s.slug, pick(s.env), v),
                 "        env:\n          - name: %s\n            value: \"%s\"" % (pick(s.env), v)])


def c_gha(s, v):
    return "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      %s: %s\n    steps:\n      - uses: actions/checkout@v4" % (pick(s.env), v)


def c_compose(s, v):
    return "services:\n  %s:\n    image: %s\n    environment:\n      - %s=%s\n      - LOG_LEVEL=info" % (pick(["api", "worker", "web"]), fill(pick(IMAGES), s, v), pick(s.env), v)


def c_dockerfile(s, v):
    return "FROM %s\nWORKDIR /app\nENV %s=%s\nCOPY . .\nCMD [\"npm\", \"start\"]" % (pick(["node:20-alpine", "python:3.12-slim", "golang:1.22"]), pick(s.env), v)


def c_diff(s, v):
    f = pick(["config/%s.env" % s.slug, ".env.example", "deploy/values.yaml", "src/settings.py"])
    line = "%s=%s" % (pick(s.env), v) if f.endswith(".env") or f.endswith("example") else ("  %s: %s" % (s.key, v) if f.endswith(".yaml") else '%s = "%s"' % (pick(s.env), v))
    return "diff --git a/%s b/%s\n@@ -3,3 +3,4 @@\n LOG_LEVEL=info\n+%s\n PORT=8080" % (f, f, line)


def c_log(s, v):
    h = s.hdr(v)
    if h and chance(0.5):
        return "%s DEBUG %s request headers={'%s': '%s', 'User-Agent': 'python-requests/2.32.3'}" % (ts_log(), pick(LOGGERS), h[0], h[1])
    return pick(['time=%s level=debug msg="loaded credentials" provider=%s %s=%s' % (ts_iso(), s.slug, s.key, v),
                 "%s [worker-%d] INFO  config: %s=%s" % (ts_log(), R.randint(1, 16), pick(s.env), v),
                 '{"ts":"%s","level":"warn","msg":"retrying","provider":"%s","%s":"%s"}' % (ts_iso(), s.slug, camel(s.key), v)])


def c_sql(s, v):
    return pick(["INSERT INTO integrations (tenant_id, provider, %s) VALUES (%d, '%s', '%s');" % (s.key, R.randint(1, 900), s.slug, v),
                 "UPDATE app_settings SET value = '%s' WHERE name = '%s';" % (v, pick(s.env)),
                 " id | provider   | %s\n----+------------+-------------\n %2d | %-10s | %s" % (s.key, R.randint(1, 60), s.slug, v)])


def c_csv(s, v):
    return "service,environment,%s,owner\n%s,production,%s,%s" % (s.key, s.slug, v, pick(["platform-team", "payments", "growth", "sre"]))


def c_jupyter(s, v):
    n = R.randint(1, 40)
    return "In [%d]: %s = \"%s\"\nIn [%d]: client = %s(%s)" % (n, s.key, v, n + 1, s.cls, s.key)


def c_props(s, v):
    return "%s.%s=%s\nserver.port=8080\nspring.profiles.active=prod" % (s.slug, s.key.replace("_", "-"), v)


def c_make(s, v):
    return "deploy:\n\t%s=%s ./scripts/deploy.sh --env prod" % (pick(s.env), v)


def c_bash(s, v):
    return '#!/usr/bin/env bash\nset -euo pipefail\n%s="${%s:-%s}"\n%s' % (pick(s.env), pick(s.env), v, pick(RUN_CMDS))


GENERIC = [c_env, c_env, c_shell, c_yaml, c_toml, c_ini, c_json, c_xml, c_hcl, c_py, c_py, c_js, c_ts, c_go, c_rust, c_java, c_cs,
           c_ruby, c_php, c_kotlin, c_swift, c_ps, c_curl, c_curl, c_http, c_ci, c_trace, c_chat, c_chat, c_chat, c_ticket, c_email,
           c_docker, c_k8s, c_gha, c_compose, c_dockerfile, c_diff, c_log, c_log, c_sql, c_csv, c_jupyter, c_props, c_make, c_bash]


def u_post(s, v):
    return pick(['requests.post("%s", json={"text": "nightly job finished"}, timeout=5)' % v,
                 "await fetch('%s', { method: 'POST', body: JSON.stringify(payload) });" % v,
                 'resp, err := http.Post("%s", "application/json", bytes.NewReader(body))' % v,
                 "curl -fsS -X POST -d '{\"msg\":\"ok\"}' '%s'" % v])


def u_log(s, v):
    return pick(["%s WARN notifier POST %s -> 404 Not Found" % (ts_log(), v), 'level=error msg="webhook delivery failed" url=%s attempt=%d' % (v, R.randint(1, 5))])


GENERIC_URL = [c_env, c_env, c_yaml, c_json, c_chat, c_chat, c_ticket, c_diff, c_compose, c_k8s, c_hcl, c_gha, u_post, u_post, u_log, c_toml, c_ps]


# ---------------------------------------------------------------- personal data rows

def row(text, canaries, kinds):
    return {"text": text, "canaries": list(canaries), "kinds": list(kinds)}


ID_SPECS = [
    ("ssn", g_ssn, "en", ["SSN", "Social Security Number", "SSN#"], ["ssn", "social_security_number"], 6),
    ("uk_nino", g_uk_nino, "en", ["National Insurance number", "NI number", "NINO"], ["ni_number", "nino"], 5),
    ("ca_sin", g_ca_sin, "en", ["SIN", "Social Insurance Number"], ["sin", "social_insurance_number"], 5),
    ("fr_nir", g_fr_nir, "fr", ["numéro de sécurité sociale", "NIR", "n° de sécu"], ["nir", "numero_secu"], 5),
    ("de_tax_id", g_de_tax_id, "de", ["Steuer-ID", "Steuerliche Identifikationsnummer", "Steuer-IdNr."], ["steuer_id", "tax_id"], 5),
    ("aadhaar", g_aadhaar, "hi", ["Aadhaar", "आधार नंबर", "Aadhaar No."], ["aadhaar", "aadhaar_number"], 5),
    ("es_dni", g_es_dni, "es", ["DNI", "Documento Nacional de Identidad"], ["dni"], 5),
    ("es_nie", g_es_nie, "es", ["NIE", "Número de Identidad de Extranjero"], ["nie"], 4),
    ("it_codice_fiscale", g_it_cf, "it", ["codice fiscale", "C.F."], ["codice_fiscale", "cf"], 5),
    ("nl_bsn", g_nl_bsn, "nl", ["BSN", "burgerservicenummer"], ["bsn"], 5),
    ("br_cpf", g_br_cpf, "pt", ["CPF"], ["cpf"], 6),
    ("pl_pesel", g_pl_pesel, "pl", ["PESEL", "numer PESEL"], ["pesel"], 5),
    ("se_personnummer", g_se_pnr, "sv", ["personnummer", "personnr"], ["personnummer"], 5),
    ("fi_hetu", g_fi_hetu, "fi", ["henkilötunnus", "HETU"], ["hetu", "henkilotunnus"], 4),
    ("dk_cpr", g_dk_cpr, "da", ["CPR-nummer", "CPR-nr."], ["cpr"], 4),
    ("be_nrn", g_be_nrn, "nl", ["rijksregisternummer", "INSZ-nummer"], ["rijksregisternummer", "nrn"], 4),
    ("pt_nif", g_pt_nif, "pt", ["NIF", "número de contribuinte"], ["nif"], 4),
    ("cl_rut", g_cl_rut, "es", ["RUT", "RUN"], ["rut"], 4),
    ("mx_curp", g_mx_curp, "es", ["CURP"], ["curp"], 4),
    ("no_fnr", g_no_fnr, "no", ["fødselsnummer", "personnummer"], ["fodselsnummer", "fnr"], 4),
    ("ch_ahv", g_ch_ahv, "de", ["AHV-Nummer", "AHV-Nr.", "AHV-Versichertennummer"], ["ahv_nr", "ahv"], 4),
    ("au_tfn", g_au_tfn, "en", ["TFN", "Tax File Number"], ["tfn", "tax_file_number"], 4),
    ("za_id", g_za_id, "za", ["ID number", "SA ID number"], ["id_number", "sa_id"], 4),
    ("ro_cnp", g_ro_cnp, "ro", ["CNP", "cod numeric personal"], ["cnp"], 4),
    ("cn_ric", g_cn_ric, "zh", ["身份证号", "居民身份证号码"], ["id_card", "sfzh"], 5),
    ("in_pan", g_in_pan, "hi", ["PAN", "PAN card number", "पैन नंबर"], ["pan", "pan_number"], 5),
    ("kr_rrn", g_kr_rrn, "ko", ["주민등록번호", "주민번호"], ["rrn", "jumin_no"], 4),
    ("jp_my_number", g_jp_mynumber, "ja", ["マイナンバー", "個人番号"], ["my_number", "kojin_bango"], 4),
    ("sg_nric", g_sg_nric, "en", ["NRIC", "NRIC/FIN"], ["nric"], 4),
    ("ie_ppsn", g_ie_ppsn, "en", ["PPS number", "PPSN"], ["ppsn"], 4),
    ("tr_tckn", g_tr_tckn, "tr", ["T.C. Kimlik No", "TC kimlik numarası"], ["tckn", "tc_kimlik_no"], 5),
    ("il_tz", g_il_tz, "he", ["מספר זהות", "ת.ז."], ["teudat_zehut", "id_number"], 4),
    ("ar_cuit", g_ar_cuit, "es", ["CUIT", "CUIL"], ["cuit"], 4),
    ("ee_ik", g_ee_ik, "et", ["isikukood"], ["isikukood"], 4),
    ("bg_egn", g_bg_egn, "bg", ["ЕГН"], ["egn"], 4),
    ("hr_oib", g_hr_oib, "hr", ["OIB"], ["oib"], 4),
    ("is_kennitala", g_is_kt, "is", ["kennitala"], ["kennitala"], 4),
    ("cz_rc", g_cz_rc, "cs", ["rodné číslo", "RČ"], ["rodne_cislo"], 4),
    ("tw_national_id", g_tw_id, "tw", ["身分證字號", "國民身分證統一編號"], ["id_no"], 4),
    ("th_national_id", g_th_id, "th", ["เลขประจำตัวประชาชน", "เลขบัตรประชาชน"], ["citizen_id"], 4),
    ("si_emso", g_si_emso, "sl", ["EMŠO"], ["emso"], 4),
    ("lt_asmens_kodas", g_lt_ak, "lt", ["asmens kodas"], ["asmens_kodas"], 4),
    ("at_svnr", g_at_svnr, "de", ["Sozialversicherungsnummer", "SV-Nummer", "SVNR"], ["svnr"], 4),
    # outside the labelled list
    ("gb_nhs_number", g_gb_nhs, "en", ["NHS number", "NHS No."], ["nhs_number"], 4),
    ("us_itin", g_us_itin, "en", ["ITIN"], ["itin"], 3),
    ("au_medicare", g_au_medicare, "en", ["Medicare number", "Medicare card no."], ["medicare_number"], 3),
    ("nz_ird", g_nz_ird, "en", ["IRD number"], ["ird_number"], 3),
    ("ru_inn", g_ru_inn, "ru", ["ИНН"], ["inn"], 3),
    ("ru_snils", g_ru_snils, "ru", ["СНИЛС"], ["snils"], 3),
    ("ua_rnokpp", g_ua_rnokpp, "uk", ["РНОКПП", "ІПН"], ["rnokpp", "ipn"], 3),
    ("kz_iin", g_kz_iin, "ru", ["ИИН"], ["iin"], 3),
    ("gr_amka", g_gr_amka, "el", ["ΑΜΚΑ"], ["amka"], 3),
    ("gr_afm", g_gr_afm, "el", ["ΑΦΜ"], ["afm"], 3),
    ("hu_taj", g_hu_taj, "hu", ["TAJ szám"], ["taj"], 3),
    ("hu_tax_id", g_hu_tax, "hu", ["adóazonosító jel"], ["adoazonosito"], 3),
    ("lv_personas_kods", g_lv_pk, "lv", ["personas kods"], ["personas_kods"], 3),
    ("mx_rfc", g_mx_rfc, "es", ["RFC"], ["rfc"], 3),
    ("uy_ci", g_uy_ci, "es", ["cédula de identidad", "C.I."], ["cedula"], 3),
    ("ec_cedula", g_ec_cedula, "es", ["cédula", "número de cédula"], ["cedula"], 3),
    ("lu_matricule", g_lu_mat, "fr", ["matricule", "numéro d'identification national"], ["matricule"], 3),
    ("pl_nip", g_pl_nip, "pl", ["NIP"], ["nip"], 3),
    ("hk_hkid", g_hk_hkid, "en", ["HKID", "HKID number", "香港身份證號碼"], ["hkid"], 3),
    ("sa_national_id", g_sa_nid, "ar", ["رقم الهوية الوطنية", "National ID"], ["national_id"], 3),
    ("ae_emirates_id", g_ae_eid, "en", ["Emirates ID", "EID"], ["emirates_id"], 3),
    ("de_svnr", g_de_svnr, "de", ["Rentenversicherungsnummer", "Versicherungsnummer"], ["rvnr", "sv_nummer"], 3),
    ("sk_rodne_cislo", g_sk_rc, "sk", ["rodné číslo"], ["rodne_cislo"], 3),
    ("my_nric", g_my_nric, "ms", ["No. MyKad", "No. Kad Pengenalan"], ["mykad", "ic_no"], 3),
    ("id_nik", g_id_nik, "id", ["NIK", "Nomor Induk Kependudukan"], ["nik"], 3),
    ("pk_cnic", g_pk_cnic, "ur", ["CNIC", "CNIC No."], ["cnic"], 3),
]

TABLES = {"en": "customers", "de": "kunden", "fr": "clients", "es": "clientes", "pt": "clientes", "it": "clienti", "nl": "klanten",
          "pl": "klienci", "sv": "kunder", "no": "kunder", "da": "kunder", "fi": "asiakkaat", "tr": "musteriler", "cs": "zakaznici",
          "ro": "clienti", "hu": "ugyfelek", "id": "pelanggan"}
CITIES = {"de": ["Berlin", "Köln", "Leipzig"], "fr": ["Lyon", "Nantes", "Lille"], "es": ["Sevilla", "Valencia", "Bilbao"],
          "pt": ["Porto", "Campinas", "Recife"], "it": ["Torino", "Bologna", "Bari"], "nl": ["Utrecht", "Gent", "Eindhoven"],
          "pl": ["Kraków", "Gdańsk", "Poznań"], "en": ["Leeds", "Toronto", "Brisbane"], "sv": ["Malmö", "Uppsala"], "fi": ["Tampere", "Oulu"],
          "tr": ["İzmir", "Bursa"], "ja": ["大阪市", "札幌市"], "ko": ["부산", "대전"], "zh": ["杭州", "成都"], "ru": ["Казань", "Самара"]}


def id_ctx(kind, v, loc, labels, keys, nm, dob):
    doc = pick(labels)
    key = pick(keys)
    nm = nm or person(loc)
    ln, ld = LBL.get(loc, LBL["en"])
    dobs = dob_str(loc, *dob) if dob else None
    n = R.randint(0, 9)
    if n == 0:
        lines = [f"{ln}: {nm}"] + ([f"{ld}: {dobs}"] if dobs else []) + [f"{doc}: {v}"]
        if chance(0.4):
            return "| " + " | ".join(x.split(": ", 1)[0] for x in lines) + " |\n|" + "---|" * len(lines) + "\n| " + " | ".join(x.split(": ", 1)[1] for x in lines) + " |"
        return "\n".join(lines)
    if n == 1:
        d = {"customer": {"name": nm, key: v}}
        if dob:
            d["customer"]["birthDate"] = "%d-%02d-%02d" % dob
        if chance(0.5):
            d = {"event": "kyc.submitted", "id": "evt_%s" % rs(LAN, 16), "data": d}
        return json.dumps(d, ensure_ascii=False)
    if n == 2:
        return pick(["%s WARN [kyc-worker-%d] document check failed %s=%s reason=%s" % (ts_log(), R.randint(1, 9), key, v, pick(["expired", "name_mismatch", "blurry_scan", "checksum"])),
                     'time=%s level=info msg="applicant verified" applicant_id=%d %s="%s"' % (ts_iso(), R.randint(10000, 99999), key, v)])
    if n == 3:
        t = TABLES.get(loc, "customers")
        return "INSERT INTO %s (full_name, %s, created_at) VALUES ('%s', '%s', '2025-0%d-1%d');" % (t, key, nm.replace("'", "''"), v, R.randint(1, 9), R.randint(0, 9))
    if n == 4:
        return "id;name;%s;city\n%d;%s;%s;%s" % (key, R.randint(100, 9999), nm, v, pick(CITIES.get(loc, ["—"])))
    if n in (5, 6):
        return pick(ID_PROSE.get(loc, ID_PROSE["en"])).replace("{doc}", doc).replace("{v}", v).replace("{name}", nm)
    if n == 7:
        return pick(["the %s validator rejects %s but the customer says it's printed on their card. can you check our checksum implementation?" % (doc, v),
                     "Write a unit test for validate_%s() using %s as the valid case." % (kind, v),
                     "Fixture in tests/fixtures/people.yaml has `%s: \"%s\"`. Why does the import step fail on it?" % (key, v)])
    if n == 8:
        tag = pascal(key.replace("-", "_"))
        return "<Person>\n  <Name>%s</Name>\n  <%s>%s</%s>\n</Person>" % (nm, tag, v, tag)
    return "- name: %s\n  %s: \"%s\"\n  active: %s" % (nm, key, v, pick(["true", "false"]))


def id_rows():
    out = []
    for kind, gen, loc, labels, keys, n in ID_SPECS:
        for _ in range(n):
            v, nm, dob = gen()
            t = id_ctx(kind, v, loc, labels, keys, nm, dob)
            out.append(row(t, [v], [kind]))
    return out


PHONE_LBL = {"en": "Phone", "de": "Telefon", "fr": "Téléphone", "es": "Teléfono", "pt": "Telefone", "it": "Telefono", "nl": "Telefoon",
             "pl": "Telefon", "sv": "Telefon", "fi": "Puhelin", "da": "Telefon", "no": "Telefon", "tr": "Telefon", "ja": "電話番号",
             "ko": "전화번호", "zh": "电话", "tw": "電話", "ru": "Телефон", "uk": "Телефон", "cs": "Telefon", "ro": "Telefon",
             "el": "Τηλέφωνο", "he": "טלפון", "ar": "الهاتف", "hi": "फ़ोन", "id": "Telepon", "vi": "Điện thoại", "th": "โทรศัพท์",
             "hu": "Telefon", "ms": "Telefon", "ur": "Phone", "za": "Cell"}


def phone_ctx(v, cc, lang):
    nm = person(lang)
    k = R.randint(0, 9)
    if k <= 2:
        return pick(PHONE_PROSE.get(lang, PHONE_PROSE["en"])).replace("{v}", v), None
    if k == 3:
        return "BEGIN:VCARD\nVERSION:3.0\nFN:%s\nTEL;TYPE=CELL:%s\nEND:VCARD" % (nm, v), None
    if k == 4:
        return json.dumps({"contact": {"name": nm, "phone": v, "country": cc, "opt_in_sms": chance(0.5)}}, ensure_ascii=False), None
    if k == 5:
        return "name,phone,country,segment\n%s,%s,%s,%s" % (nm, v, cc, pick(["b2b", "retail", "vip"])), None
    if k == 6:
        e, _ = g_email(lang if lang in LATIN_LOCALES else "en", nm if lang in LATIN_LOCALES else None)
        return "--\n%s\n%s\n%s: %s\n%s" % (nm, pick(["Head of Operations", "Account Manager", "Support Lead", "CTO"]), PHONE_LBL.get(lang, "Phone"), v, e), e
    if k == 7:
        return "%s INFO sms.gateway sent otp to=%s template=login_code status=queued" % (ts_log(), v), None
    if k == 8:
        return "%s: %s\n%s: %s" % (LBL.get(lang, LBL["en"])[0], nm, PHONE_LBL.get(lang, "Phone"), v), None
    return pick(["The SMS sender keeps failing for %s with 'invalid number format'. Can you normalise it to E.164 in the importer?" % v,
                 "Ticket #%d: customer asks to be called back on %s regarding the delayed delivery." % (R.randint(1000, 99999), v)]), None


def phone_rows(n):
    out = []
    ccs = list(PHONES)
    order = ccs + R.sample(ccs, n - len(ccs)) if n > len(ccs) else R.sample(ccs, n)
    for cc in order:
        v, cc, lang = g_phone(cc)
        t, e = phone_ctx(v, cc, lang)
        if e:
            out.append(row(t, [v, e], ["phone", "email"]))
        else:
            out.append(row(t, [v], ["phone"]))
    return out


def email_ctx(v, loc, nm):
    k = R.randint(0, 11)
    if k == 0:
        return "commit %s\nAuthor: %s <%s>\nDate:   %s\n\n    fix: handle empty cart on checkout" % (rs(HEX, 40), nm, v, pick(["Mon Mar 3 14:02:11 2025 +0100", "Thu Jan 16 09:45:37 2025 -0500"]))
    if k == 1:
        return '{\n  "name": "@%s/%s",\n  "version": "2.%d.0",\n  "author": "%s <%s>"\n}' % (pick(ORGS), pick(REPOS), R.randint(0, 9), nm, v)
    if k == 2:
        return "email,first_name,plan,signup_date\n%s,%s,%s,2024-%02d-%02d" % (v, nm.split()[0], pick(["free", "pro", "team"]), R.randint(1, 12), R.randint(1, 28))
    if k == 3:
        return "%s INFO auth.login succeeded user=%s ip_country=%s mfa=%s" % (ts_log(), v, pick(["DE", "FR", "US", "BR", "JP"]), pick(["totp", "webauthn", "none"]))
    if k == 4:
        return pick(EMAIL_PROSE.get(loc, EMAIL_PROSE["en"])).replace("{v}", v)
    if k == 5:
        return "From: %s <%s>\nTo: support\nSubject: %s" % (nm, v, pick(["Rechnung fehlt", "Cannot reset 2FA", "Problème de livraison", "Pedido duplicado"]))
    if k == 6:
        return 'send_mail(subject="Weekly report", message=body, from_email=settings.DEFAULT_FROM_EMAIL, recipient_list=["%s"])' % v
    if k == 7:
        return "[user]\n\tname = %s\n\temail = %s\n[pull]\n\trebase = true" % (nm, v)
    if k == 8:
        return "MAILTO=%s\n0 3 * * * /opt/backup/run.sh >> /var/log/backup.log 2>&1" % v
    if k == 9:
        return "<developer>\n  <id>%s</id>\n  <name>%s</name>\n  <email>%s</email>\n</developer>" % (pick(USERS), nm, v)
    if k == 10:
        return "SELECT id, plan FROM users WHERE email = '%s';\n-- returned 0 rows, customer says they signed up yesterday" % v
    return "dn: uid=%s,ou=people,dc=corp,dc=local\ncn: %s\nmail: %s" % (pick(USERS), nm, v)


def email_rows(n):
    out = []
    for _ in range(n):
        loc = pick(LATIN_LOCALES + ["ja", "ko", "zh", "ru"])
        v, nm = g_email(loc)
        out.append(row(email_ctx(v, loc, nm), [v], ["email"]))
    return out


CARD_PROSE = {
    "en": ["Please charge my card {v}, exp {exp}.", "my card {v} got charged twice for order #{n}", "Card on file: {v} ({brand}), expires {exp}"],
    "de": ["Bitte buchen Sie von meiner Karte {v} ab, gültig bis {exp}.", "Kartennummer: {v}\nGültig bis: {exp}"],
    "fr": ["Ma carte {v} a été débitée deux fois.", "Numéro de carte : {v}, expiration {exp}"],
    "es": ["Mi tarjeta {v} fue rechazada en el checkout.", "Número de tarjeta: {v} (caduca {exp})"],
    "pt": ["Meu cartão {v} foi cobrado em duplicidade.", "Número do cartão: {v} validade {exp}"],
    "it": ["La mia carta {v} risulta addebitata due volte."],
    "nl": ["Mijn kaart {v} is dubbel afgeschreven."],
    "pl": ["Moja karta {v} została obciążona dwa razy."],
    "ja": ["カード番号 {v} で決済できませんでした。", "クレジットカード番号：{v}（有効期限 {exp}）"],
    "tr": ["{v} numaralı kartımdan iki kez çekim yapıldı."],
    "zh": ["我的银行卡 {v} 被重复扣款了。"],
    "ko": ["카드번호 {v} 로 결제가 두 번 됐어요."],
}


def card_rows(n):
    out = []
    for _ in range(n):
        v, brand = g_card()
        exp = "%02d/%d" % (R.randint(1, 12), R.randint(25, 31))
        k = R.randint(0, 6)
        if k <= 2:
            lang = pick(list(CARD_PROSE))
            t = pick(CARD_PROSE[lang]).replace("{v}", v).replace("{exp}", exp).replace("{brand}", brand).replace("{n}", str(R.randint(10000, 999999)))
        elif k == 3:
            t = json.dumps({"payment_method": {"type": "card", "card": {"number": v, "exp_month": R.randint(1, 12), "exp_year": R.randint(2025, 2031), "brand": brand.lower()}}})
        elif k == 4:
            t = "%s ERROR payments.gateway declined pan=%s amount=%d.%02d currency=%s code=%s" % (ts_log(), v, R.randint(5, 900), R.randint(0, 99), pick(["EUR", "USD", "GBP", "BRL"]), pick(["05", "51", "54", "14"]))
        elif k == 5:
            t = "INSERT INTO payments_legacy (order_id, card_number, expiry) VALUES (%d, '%s', '%s');" % (R.randint(1000, 99999), v, exp)
        else:
            t = "The Luhn check in our checkout form says %s is invalid but the bank accepts it. Can you look at src/validators/card.ts?" % v
        out.append(row(t, [v], ["card_number"]))
    return out


def iban_rows():
    out = []
    for cc in list(IBAN_BB):
        v, cc, lang = g_iban(cc)
        nm = person(lang if lang in NAMES else "en")
        bic = pick(BICS.get(cc, ["%sXX%sXXX" % (rs(UP, 4), cc)]))
        k = R.randint(0, 6)
        if k <= 2:
            t = pick(IBAN_PROSE.get(lang, IBAN_PROSE["en"])).replace("{v}", v).replace("{name}", nm).replace("{bic}", bic).replace("{inv}", "RE-%d-%04d" % (R.randint(2023, 2025), R.randint(1, 9999)))
        elif k == 3:
            t = "<CdtrAcct>\n  <Id>\n    <IBAN>%s</IBAN>\n  </Id>\n</CdtrAcct>" % v.replace(" ", "")
            v = v.replace(" ", "")
        elif k == 4:
            t = json.dumps({"payout": {"beneficiary": nm, "iban": v, "amount": "%d.%02d" % (R.randint(10, 5000), R.randint(0, 99)), "currency": "EUR"}}, ensure_ascii=False)
        elif k == 5:
            t = "employee_id;name;iban;net_salary\n%d;%s;%s;%d,%02d" % (R.randint(100, 999), nm, v, R.randint(1800, 6500), R.randint(0, 99))
        else:
            t = "Our IBAN validation rejects %s for a customer in %s. Is the length table wrong for that country?" % (v, cc)
        out.append(row(t, [v], ["iban"]))
    return out


# ---------------------------------------------------------------- passwords, keys, JWT, pairs

PW_WORDS = ["Sommer", "Winter", "Bayern", "Lisboa", "Kirsche", "Falcon", "Dragon", "Sunshine", "Tiger", "Schalke", "Paris", "Milano",
            "Marzipan", "Ocean", "Kaffee", "Yankees", "Chelsea", "Galata", "Sakura", "Mariposa", "Estrela", "Bulldog", "Zebra",
            "Kangaroo", "Warszawa", "Fjord", "Orchidee", "Gatto", "Koala", "Tramonto", "Lavanda", "Pinguin"]
PP_WORDS = ["maple", "orbit", "quill", "copper", "lantern", "harbor", "velvet", "cactus", "meadow", "granite", "tulip", "ember",
            "walnut", "saffron", "pylon", "glacier", "pepper", "violet", "anchor", "thistle"]
PW_SYMS = "!#$%*-_=+^.?"
URL_SAFE_SYMS = "-_.~!*"


def g_password(url_safe=False):
    k = R.randrange(5)
    syms = URL_SAFE_SYMS if url_safe else PW_SYMS
    if k == 0:
        pw = pick(PW_WORDS) + str(R.randint(1970, 2025)) + pick(syms)
    elif k == 1:
        pw = pick(PW_WORDS) + pick(syms) + str(R.randint(10, 99)) + pick(PW_WORDS).lower()
    elif k == 2:
        w = pick(PW_WORDS)
        pw = w.replace("a", "@" if not url_safe else "4").replace("o", "0").replace("e", "3").replace("i", "1") + pick(syms) + digs(R.randint(2, 4))
    elif k == 3:
        pw = "-".join(R.sample(PP_WORDS, R.randint(3, 4))) + str(R.randint(1, 99))
    else:
        n = R.randint(14, 24)
        while True:
            pw = rs(AN + syms, n)
            if any(c in syms for c in pw) and any(c.isdigit() for c in pw) and any(c.isupper() for c in pw) and pw[0] not in "-#=+^.?":
                break
    return pw


PW_PROSE = {
    "en": ["The admin password is {v}, please change it after first login.", "fyi the wifi password for the office is {v}",
           "Login for the staging box: user deploy, password {v}", "I reset your account, temporary password: {v}",
           "Can you log into the router and fix port forwarding? pw is {v}"],
    "de": ["Das Passwort lautet {v}, bitte nach dem ersten Login ändern.", "Zugang zum Router: Benutzer admin, Kennwort {v}", "WLAN-Passwort fürs Büro: {v}"],
    "fr": ["Le mot de passe est {v}, pense à le changer.", "Identifiant : compta, mot de passe : {v}"],
    "es": ["La contraseña es {v}, cámbiala al entrar.", "Usuario soporte, clave {v}"],
    "pt": ["A senha é {v}, troque no primeiro acesso.", "Login: financeiro / senha: {v}"],
    "it": ["La password è {v}, cambiala al primo accesso.", "Utente admin, password {v}"],
    "nl": ["Het wachtwoord is {v}, graag meteen wijzigen.", "Inlog voor de NAS: gebruiker beheer, wachtwoord {v}"],
    "pl": ["Hasło to {v}, zmień je po zalogowaniu.", "Login: serwis, hasło: {v}"],
    "tr": ["Şifre: {v}, ilk girişte değiştir lütfen.", "Yönetici parolası {v}"],
    "ja": ["パスワードは {v} です。初回ログイン後に変更してください。", "管理者パスワード：{v}"],
    "ko": ["비밀번호는 {v} 입니다. 로그인 후 변경해 주세요.", "관리자 비번: {v}"],
    "zh": ["密码是 {v}，登录后请修改。", "管理员密码：{v}"],
    "ru": ["Пароль: {v}, смени после входа.", "Логин admin, пароль {v}"],
    "uk": ["Пароль: {v}, зміни після першого входу.", "Логін: bot, пароль: {v}"],
    "sv": ["Lösenordet är {v}, byt det när du loggat in.", "Användare: drift, lösenord: {v}"],
    "cs": ["Heslo je {v}, po přihlášení ho změň.", "Uživatel: sklad, heslo: {v}"],
    "el": ["Ο κωδικός είναι {v}, άλλαξέ τον μετά την είσοδο.", "Κωδικός πρόσβασης: {v}"],
    "id": ["Kata sandinya {v}, tolong diganti setelah login.", "User: kasir, password: {v}"],
    "vi": ["Mật khẩu là {v}, nhớ đổi sau khi đăng nhập.", "Tài khoản admin, mật khẩu {v}"],
    "hi": ["पासवर्ड {v} है, लॉगिन के बाद बदल देना।", "admin का password: {v}"],
    "ar": ["كلمة المرور هي {v}، يرجى تغييرها بعد الدخول.", "اسم المستخدم admin وكلمة السر {v}"],
    "fi": ["Salasana on {v}, vaihda se kirjautumisen jälkeen."],
    "da": ["Adgangskoden er {v}, skift den efter første login."],
    "no": ["Passordet er {v}, bytt det etter første innlogging."],
    "hu": ["A jelszó: {v}, belépés után változtasd meg."],
    "ro": ["Parola este {v}, te rog s-o schimbi după logare."],
    "he": ["הסיסמה היא {v}, תחליף אחרי הכניסה הראשונה."],
    "th": ["รหัสผ่านคือ {v} เปลี่ยนหลังเข้าสู่ระบบด้วยนะ"],
}

PW_KV = [
    "DB_PASSWORD={v}\nDB_USER=app\nDB_HOST=db.internal",
    "spring.datasource.url=jdbc:postgresql://db:5432/orders\nspring.datasource.username=orders\nspring.datasource.password={v}",
    "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: {v}",
    "database:\n  host: mysql.internal\n  user: reporting\n  pwd: {v}",
    "MYSQL_ROOT_PASSWORD={v}",
    "SMTP_HOST=smtp.office365.com\nSMTP_USER=alerts\nSMTP_PASSWORD={v}",
    "  - name: configure sudo\n    vars:\n      ansible_become_password: {v}",
    "define( 'DB_PASSWORD', '{v}' );",
    "[client]\nuser=backup\npassword={v}",
    "db.internal:5432:orders:orders_ro:{v}",
    "DATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.postgresql',\n        'USER': 'shop',\n        'PASSWORD': '{v}',\n    }\n}",
    "<server>\n  <id>nexus-releases</id>\n  <username>deployer</username>\n  <password>{v}</password>\n</server>",
    "requirepass {v}",
    "network={\n    ssid=\"Buero-5G\"\n    psk=\"{v}\"\n}",
    "PASSWORD: {v}\nUSERNAME: etl_loader",
    "{\n  \"username\": \"svc_import\",\n  \"password\": \"{v}\"\n}",
    "bindpw {v}\nbinddn cn=nslcd,ou=services,dc=corp,dc=local",
    "[database]\nhost = 10.0.4.12\nuser = grafana\npassword = {v}",
    "RABBITMQ_DEFAULT_USER=orders\nRABBITMQ_DEFAULT_PASS={v}",
    "keystore.password={v}\nkeystore.path=/etc/ssl/app.jks",
    "<add name=\"Crm\" connectionString=\"Server=sql01;Database=crm;User Id=crm_app;Password={v};\" />",
]
PW_CLI = [
    "mysql -u root -p{v} -h db.internal shop",
    "mysql --user=app --password={v} -e 'SHOW PROCESSLIST'",
    "PGPASSWORD='{v}' psql -h db.internal -U orders -d orders -c '\\dt'",
    "docker login -u ci-bot -p '{v}' registry.corp.lan",
    "sshpass -p '{v}' ssh deploy@10.20.3.14 'systemctl restart app'",
    "htpasswd -b -c /etc/nginx/.htpasswd admin '{v}'",
    "redis-cli -h cache.internal -a '{v}' INFO memory",
    "mongosh --host mongo01 -u admin -p '{v}' --authenticationDatabase admin",
    "sqlcmd -S db01 -U sa -P '{v}' -Q \"SELECT @@VERSION\"",
    "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{v}",
    "keytool -importkeystore -srckeystore old.jks -destkeystore new.p12 -deststoretype pkcs12 -deststorepass '{v}'",
    "ldapsearch -x -H ldap://dc01 -D 'cn=admin,dc=corp,dc=local' -w '{v}' -b 'ou=people,dc=corp,dc=local'",
    "smbclient //nas01/backup -U 'backup%{v}'",
    "wget --user=ci --password='{v}' https://artifacts.corp.lan/releases/app-3.2.1.tar.gz",
    "zip -P '{v}' export.zip customers.csv",
    "7z a -p'{v}' -mhe=on archive.7z docs/",
    "rabbitmqctl add_user orders '{v}'",
    "net user svc_backup {v} /add",
    "echo 'deploy:{v}' | sudo chpasswd",
    "vault login -method=userpass username=ops password='{v}'",
    "ansible-playbook site.yml -i hosts -e \"ansible_password={v}\"",
    "mysqldump -u backup -p'{v}' --all-databases > all.sql",
    "lftp -u deploy,'{v}' sftp://files.partner-logistik.de",
    "mc alias set minio http://minio.internal:9000 admin '{v}'",
    "influx setup --username admin --password '{v}' --org ops --bucket metrics --force",
    "helm repo add internal https://charts.corp.lan --username ci --password '{v}'",
    "./manage.py shell -c \"u=User.objects.get(username='ops'); u.set_password('{v}'); u.save()\"",
    "kubectl create secret generic db-auth --from-literal=username=app --from-literal=password='{v}'",
    "$sec = ConvertTo-SecureString '{v}' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential('CORP\\svc_report', $sec)",
    "var cred = new NetworkCredential(\"svc_report\", \"{v}\", \"CORP\");",
    "resp = requests.get(url, auth=(\"svc-metrics\", \"{v}\"), timeout=10)",
    "const transporter = nodemailer.createTransport({ host: 'smtp.corp.lan', auth: { user: 'alerts', pass: '{v}' } });",
    "Connection conn = DriverManager.getConnection(url, \"report\", \"{v}\");",
    "$pdo = new PDO($dsn, 'shop', '{v}');",
    "Net::SMTP.start('smtp.corp.lan', 587, 'corp.lan', 'alerts', '{v}', :login)",
    "POST /api/v1/auth/login HTTP/1.1\nHost: admin.corp.lan\nContent-Type: application/json\n\n{\"username\":\"ops\",\"password\":\"{v}\"}",
    "grant_type=password&username=mobile-tester&password={v}&client_id=mobile-app",
    "mutation { login(username: \"qa-bot\", password: \"{v}\") { token } }",
    "%s DEBUG django.request POST /accounts/login/ form={'username': 'mkowalski', 'password': '{v}'}" % "2025-03-11 09:14:52,201",
]
PW_URL = [
    "DATABASE_URL=postgres://app:{v}@db.internal:5432/orders",
    "sqlalchemy.url = postgresql+psycopg2://etl:{v}@warehouse.prod:5432/analytics",
    "mysql://root:{v}@127.0.0.1:3306/shop",
    "MONGO_URI=mongodb+srv://svc:{v}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true&w=majority",
    "REDIS_URL=redis://:{v}@cache.internal:6379/0",
    "rediss://default:{v}@eu1-relaxed-koala-38122.upstash.io:6379",
    "amqp://orders:{v}@rabbitmq:5672/%2F",
    "Server=tcp:sql01.database.windows.net,1433;Database=crm;User ID=crm_app;Password={v};Encrypt=true;",
    "jdbc:postgresql://db:5432/app?user=app&password={v}&ssl=true",
    "Driver={ODBC Driver 18 for SQL Server};Server=sql02;Database=finance;UID=report;PWD={v};",
    "snowflake://loader:{v}@xy12345.eu-central-1/RAW/PUBLIC?warehouse=LOAD_WH",
    "clickhouse://default:{v}@ch.internal:9000/default",
    "NEO4J_AUTH=neo4j/{v}",
    "Data Source=ora01:1521/ORCL;User Id=hr;Password={v};",
    "db, err := sql.Open(\"mysql\", \"app:{v}@tcp(db:3306)/shop?parseTime=true\")",
    "git clone https://jdoe:{v}@git.internal.corp/team/monorepo.git",
    "pip install --index-url https://ci:{v}@pypi.internal.corp/simple/ internal-utils==2.4.1",
    "https://deploy:{v}@nexus.corp.lan/repository/maven-releases/",
    "export https_proxy=http://jdoe:{v}@proxy.corp.lan:3128",
    "curl -u admin:{v} http://localhost:15672/api/overview",
    "ftp://upload:{v}@ftp.partner-logistik.de/inbound/",
    "http://admin:{v}@192.168.1.1/cgi-bin/luci",
]


def password_rows():
    out = []
    for t in PW_KV:
        v = g_password()
        out.append(row(t.replace("{v}", v), [v], ["password"]))
    for t in PW_CLI:
        v = g_password()
        out.append(row(t.replace("{v}", v), [v], ["password"]))
    for t in PW_URL:
        v = g_password(url_safe=True)
        out.append(row(t.replace("{v}", v), [v], ["password"]))
    langs = list(PW_PROSE)
    for lang in langs + R.sample(langs, 10):
        v = g_password()
        out.append(row(pick(PW_PROSE[lang]).replace("{v}", v), [v], ["password"]))
    # more plain password assignments in code
    for tmpl in ["ADMIN_PASSWORD = \"{v}\"", "let password = \"{v}\"; // TODO remove before merge", "password := \"{v}\"",
                 "val dbPassword = \"{v}\"", "--password {v}", "-p {v}", "\"adminPassword\": \"{v}\","]:
        v = g_password()
        ctx = {"--password {v}": "Usage example from the runbook:\n  ./provision.sh --host db02 --user admin --password {v}",
               "-p {v}": "docker exec -it mariadb mariadb -u root -p {v}"}.get(tmpl, tmpl)
        if ctx == "docker exec -it mariadb mariadb -u root -p {v}":
            ctx = "docker exec -it mariadb mariadb -u root -p'{v}'"
        out.append(row(ctx.replace("{v}", v), [v], ["password"]))
    return out


def basic_auth_rows():
    out = []
    for _ in range(4):
        cred = b64(("%s:%s" % (pick(USERS), g_password())).encode())
        t = pick(["curl -H \"Authorization: Basic %s\" https://jenkins.corp.lan/api/json" % cred,
                  "GET /api/v1/reports HTTP/1.1\nHost: internal-api.corp.lan\nAuthorization: Basic %s" % cred,
                  "%s DEBUG http.client send: Authorization: Basic %s" % (ts_log(), cred),
                  "proxy_set_header Authorization \"Basic %s\";" % cred])
        out.append(row(t, [cred], ["http_basic_auth"]))
    return out


def b64_lines(prefix, nbytes_line_count, last_len):
    body = prefix + b64(rbytes(48 * nbytes_line_count + 3)).replace("=", "")
    lines = [body[i:i + 64] for i in range(0, 64 * nbytes_line_count, 64)]
    lines.append(b64(rbytes(last_len * 3 // 4))[:last_len])
    return lines


def g_pem():
    k = R.randrange(7)
    if k == 0:
        hdr, pre, n = "RSA PRIVATE KEY", pick(["MIIEowIBAAKCAQEA", "MIIEpAIBAAKCAQEA", "MIIEogIBAAKCAQEA"]), R.randint(3, 6)
    elif k == 1:
        hdr, pre, n = "PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", R.randint(3, 5)
    elif k == 2:
        body = "MC4CAQAwBQYDK2VwBCIEI" + b64(rbytes(24))[:27]
        return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % body
    elif k == 3:
        body = "MHcCAQEEI" + b64(rbytes(120))[:155]
        ls = [body[i:i + 64] for i in range(0, len(body), 64)]
        return "-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----" % "\n".join(ls)
    elif k == 4:
        body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACA" + b64(rbytes(180))[:227]
        flat = body.replace("\n", "")
        ls = [flat[i:i + 70] for i in range(0, len(flat), 70)]
        return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % "\n".join(ls)
    elif k == 5:
        ls = b64_lines("lQOYBG" + rs(AN, 6), R.randint(3, 4), R.randint(20, 60))
        return "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PRIVATE KEY BLOCK-----" % ("\n".join(ls), rs(B64, 4))
    else:
        hdr, pre, n = "ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", R.randint(3, 5)
    ls = b64_lines(pre, n, R.randint(16, 60))
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (hdr, "\n".join(ls), hdr)


def pk_rows(n):
    out = []
    for i in range(n):
        pem = g_pem()
        k = i % 7
        if k == 0:
            t, c = "$ cat ~/.ssh/id_%s\n%s" % (pick(["rsa", "ed25519", "deploy"]), pem), pem
        elif k == 1:
            c = pem.replace("\n", "\\n") + "\\n"
            t = '{\n  "type": "service_account",\n  "project_id": "%s",\n  "private_key": "%s"\n}' % (pick(PROJS), c)
        elif k == 2:
            c = pem.replace("\n", "\n    ")
            t = "tls:\n  key: |\n    %s" % c
        elif k == 3:
            t, c = "here's the deploy key for the new box, can you add it to the runner?\n\n%s" % pem, pem
        elif k == 4:
            t, c = 'resource "tls_private_key" "imported" {}\n\nlocals {\n  ssh_key = <<EOT\n%s\nEOT\n}' % pem, pem
        elif k == 5:
            c = pem.replace("\n", "\\n")
            t = 'JWT_PRIVATE_KEY="%s"' % c
        else:
            t, c = "Schlüssel für den SFTP-Zugang (bitte nicht weiterleiten):\n%s" % pem, pem
        if len(t) >= 600:
            t, c = pem, pem
        out.append(row(t, [c], ["private_key"]))
    return out


def g_jwt():
    alg = pick(["HS256", "HS256", "RS256", "ES256"])
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and chance(0.6):
        hdr["kid"] = rs(B64U, 16)
    iat = R.randint(1704067200, 1750000000)
    k = R.randrange(4)
    if k == 0:
        pl = {"sub": uuid4(), "role": pick(["authenticated", "admin", "editor"]), "iat": iat, "exp": iat + pick([900, 3600, 86400])}
    elif k == 1:
        pl = {"iss": "supabase", "ref": rs(LO, 20), "role": pick(["service_role", "anon"]), "iat": iat, "exp": iat + 315360000}
    elif k == 2:
        pl = {"iss": "https://auth.%s.dev/" % pick(ORGS), "aud": "api://%s" % pick(REPOS), "sub": str(R.randint(10000, 999999)), "scope": "read:orders write:orders", "iat": iat, "exp": iat + 3600}
    else:
        pl = {"user_id": R.randint(100, 99999), "tenant": pick(ORGS), "jti": rs(HEX, 16), "iat": iat, "exp": iat + 7200}
    sig = {"HS256": 43, "RS256": 342, "ES256": 86}[alg]
    return b64url(json.dumps(hdr, separators=(",", ":")).encode()) + "." + b64url(json.dumps(pl, separators=(",", ":")).encode()) + "." + rs(B64U, sig)


def jwt_rows(n):
    out = []
    for _ in range(n):
        for _ in range(30):
            v = g_jwt()
            t = pick(["curl -H \"Authorization: Bearer %s\" https://api.%s.dev/v1/orders" % (v, pick(ORGS)),
                      '{"access_token":"%s","token_type":"Bearer","expires_in":3600}' % v,
                      "localStorage.setItem('token', '%s');" % v,
                      "SUPABASE_SERVICE_ROLE_KEY=%s" % v,
                      "can you decode this and tell me why the backend says it's expired? %s" % v,
                      "Cookie: session=%s; theme=dark" % v,
                      "%s INFO gateway auth ok bearer=%s route=/v2/invoices" % (ts_log(), v),
                      "Warum ist dieses Token ungültig? %s" % v])
            if len(t) < 600:
                break
        out.append(row(t, [v], ["jwt"]))
    return out


def pair_rows():
    out = []
    for i in range(7):
        kid = pick(["AKIA", "AKIA", "AKIA", "ASIA"]) + rs(B32, 16)
        sec = rs(B64, 40)
        k = i % 7
        t = ["[default]\naws_access_key_id = %s\naws_secret_access_key = %s\nregion = eu-west-1" % (kid, sec),
             "export AWS_ACCESS_KEY_ID=%s\nexport AWS_SECRET_ACCESS_KEY=%s\naws s3 sync ./build s3://%s-static" % (kid, sec, pick(REPOS)),
             "s3 = boto3.client(\n    \"s3\",\n    aws_access_key_id=\"%s\",\n    aws_secret_access_key=\"%s\",\n)" % (kid, sec),
             '{\n  "AccessKey": {\n    "UserName": "ci-deployer",\n    "AccessKeyId": "%s",\n    "Status": "Active",\n    "SecretAccessKey": "%s",\n    "CreateDate": "%s"\n  }\n}' % (kid, sec, ts_iso()),
             'provider "aws" {\n  region     = "eu-central-1"\n  access_key = "%s"\n  secret_key = "%s"\n}' % (kid, sec),
             "[s3-backup]\ntype = s3\nprovider = AWS\naccess_key_id = %s\nsecret_access_key = %s" % (kid, sec),
             "Hey, Zugangsdaten für den Bucket: Access Key %s / Secret %s. Bitte nach dem Test löschen." % (kid, sec)][k]
        out.append(row(t, [kid, sec], ["aws_access_key_id", "aws_secret_access_key"]))
    for i in range(3):
        kid, sec = "LTAI5t" + rs(AN, 18), rs(AN, 30)
        t = ["aliyun configure set --profile prod --mode AK --region cn-hangzhou --access-key-id %s --access-key-secret %s" % (kid, sec),
             "ALIBABA_CLOUD_ACCESS_KEY_ID=%s\nALIBABA_CLOUD_ACCESS_KEY_SECRET=%s" % (kid, sec),
             "阿里云 AccessKey ID：%s，AccessKey Secret：%s，用完请禁用。" % (kid, sec)][i]
        out.append(row(t, [kid, sec], ["alibaba_access_key_id", "alibaba_access_key_secret"]))
    for i in range(2):
        key, sec = rs(HEX, 32), rs(HEX, 32)
        t = ["curl -s -X POST --user \"%s:%s\" https://api.mailjet.com/v3.1/send -H 'Content-Type: application/json' -d @mail.json" % (key, sec),
             "MJ_APIKEY_PUBLIC=%s\nMJ_APIKEY_PRIVATE=%s" % (key, sec)][i]
        out.append(row(t, [key, sec], ["mailjet_api_key", "mailjet_api_secret"]))
    return out


def secret_rows():
    out = []
    for s in SPECS:
        for _ in range(s.n):
            v = s.gen()
            t = None
            for _ in range(40):
                if s.extra and chance(0.4):
                    t = fill(pick(s.extra), s, v)
                else:
                    t = pick(GENERIC_URL if s.url else GENERIC)(s, v)
                if t and v in t and len(t) < 600:
                    break
            assert t and v in t and len(t) < 600, s.kind
            out.append(row(t, [v], [s.kind]))
    return out


# ---------------------------------------------------------------- clean rows

COMMIT_MSGS = ["fix(api): handle 429 from upstream", "chore: bump eslint to 9.3.0", "feat(cart): persist coupon across sessions",
               "refactor: split OrderService into reader/writer", "docs: explain retry policy", "test: cover empty invoice edge case",
               "perf(search): cache tokenizer output", "ci: run integration suite nightly", "fix: off-by-one in pagination",
               "build(deps): bump pydantic from 2.7.1 to 2.8.2", "revert \"feat: new onboarding\"", "style: format with black"]


def isbn13():
    p = "978" + digs(9)
    c = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(p)) % 10) % 10
    n = p + str(c)
    return "%s-%s-%s-%s-%s" % (n[:3], n[3], n[4:8], n[8:12], n[12])


def cl_git_log():
    return "\n".join("%s %s" % (rs(HEX, 7), m) for m in R.sample(COMMIT_MSGS, R.randint(3, 5)))


def cl_sha_prose():
    return pick(["Cherry-pick %s onto release/2.%d once CI is green." % (rs(HEX, 40), R.randint(1, 9)),
                 "Bisect says the regression starts at %s; the parent %s is fine." % (rs(HEX, 12), rs(HEX, 12)),
                 "Merged in %s. Deployed to staging as build %d." % (rs(HEX, 40), R.randint(1000, 9999))])


def cl_uuid_log():
    return "%s INFO request_id=%s method=%s path=/api/v1/%s/%d status=%d duration_ms=%d" % (
        ts_log(), uuid4(), pick(["GET", "POST", "PATCH"]), pick(["orders", "invoices", "users", "carts"]), R.randint(1, 99999), pick([200, 201, 204, 404]), R.randint(3, 900))


def cl_trace():
    return pick(["traceparent: 00-%s-%s-01" % (rs(HEX, 32), rs(HEX, 16)),
                 "trace_id=%s span_id=%s parent_span_id=%s service=checkout" % (rs(HEX, 32), rs(HEX, 16), rs(HEX, 16)),
                 "X-Amzn-Trace-Id: Root=1-%s-%s" % (rs(HEX, 8), rs(HEX, 24))])


def cl_digest():
    img, tag = pick([("nginx", "1.27-alpine"), ("postgres", "16"), ("redis", "7.2"), ("python", "3.12-slim")])
    return pick(["%s: Pulling from library/%s\nDigest: sha256:%s\nStatus: Downloaded newer image for %s:%s" % (tag, img, rs(HEX, 64), img, tag),
                 "image: ghcr.io/%s/%s@sha256:%s" % (pick(ORGS), pick(REPOS), rs(HEX, 64)),
                 "%s  dist/%s-%d.%d.%d.tar.gz" % (rs(HEX, 64), pick(REPOS), R.randint(0, 3), R.randint(0, 20), R.randint(0, 9))])


def cl_integrity():
    pkg = pick(["lodash", "react", "zod", "date-fns", "chalk", "esbuild"])
    ver = "%d.%d.%d" % (R.randint(1, 19), R.randint(0, 30), R.randint(0, 20))
    return '"node_modules/%s": {\n  "version": "%s",\n  "resolved": "https://registry.npmjs.org/%s/-/%s-%s.tgz",\n  "integrity": "sha512-%s=="\n}' % (pkg, ver, pkg, pkg, ver, b64(rbytes(64))[:86])


def cl_gosum():
    mod = pick(["github.com/stretchr/testify v1.9.0", "golang.org/x/sync v0.7.0", "github.com/google/uuid v1.6.0", "go.uber.org/zap v1.27.0"])
    return "%s h1:%s=\n%s/go.mod h1:%s=" % (mod, b64(rbytes(32))[:43], mod, b64(rbytes(32))[:43])


def cl_changelog():
    return "## [%d.%d.%d] - 2025-%02d-%02d\n### Fixed\n- %s\n### Changed\n- Minimum Node version is now %d" % (
        R.randint(1, 5), R.randint(0, 30), R.randint(0, 9), R.randint(1, 12), R.randint(1, 28), pick(COMMIT_MSGS), pick([18, 20, 22]))


def cl_build():
    return pick(["Build #%d passed in %dm %02ds (pipeline %d, job %d)" % (R.randint(1000, 9999), R.randint(1, 30), R.randint(0, 59), R.randint(10000, 999999), R.randint(100000, 9999999)),
                 "Run %d of workflow 'CI' completed with status success on ref refs/heads/main" % R.randint(1000, 99999),
                 "[INFO] BUILD SUCCESS\n[INFO] Total time:  %d.%03d s\n[INFO] Finished at: %s" % (R.randint(10, 300), R.randint(0, 999), ts_iso())])


def cl_dates():
    return pick(["Termin am %02d.%02d.2025 um %02d:%02d Uhr im Raum B%d." % (R.randint(1, 28), R.randint(1, 12), R.randint(8, 17), pick([0, 15, 30, 45]), R.randint(1, 5)),
                 "Réunion le %d avril à %dh%02d, salle %d." % (R.randint(1, 30), R.randint(9, 17), pick([0, 30]), R.randint(100, 400)),
                 "会議は2025年%d月%d日 %d:00から始まります。" % (R.randint(1, 12), R.randint(1, 28), R.randint(9, 18)),
                 "La entrega está prevista para el %d de mayo de 2025." % R.randint(1, 31),
                 "Sprint %d runs from 2025-%02d-%02d to 2025-%02d-%02d." % (R.randint(20, 80), R.randint(1, 6), R.randint(1, 28), R.randint(7, 12), R.randint(1, 28)),
                 "cutoff: %s (UTC), next window opens %s" % (ts_iso(), ts_iso())])


def cl_orders():
    return pick(["Order #%s-%d-%02d shipped; invoice INV-2025-%05d attached. See JIRA PAY-%d." % (pick(UP), R.randint(10000, 99999), R.randint(1, 99), R.randint(1, 99999), R.randint(100, 9999)),
                 "Rechnung Nr. RE-%d-%04d vom %02d.%02d.2025, Kundennummer K%d" % (R.randint(2023, 2025), R.randint(1, 9999), R.randint(1, 28), R.randint(1, 12), R.randint(10000, 99999)),
                 "Ticket ZD-%d merged into ZD-%d; PR #%d closes issue #%d." % (R.randint(1000, 99999), R.randint(1000, 99999), R.randint(100, 9999), R.randint(100, 9999)),
                 "Commande n° %d expédiée le %02d/%02d, colis %d/%d." % (R.randint(100000, 999999), R.randint(1, 28), R.randint(1, 12), R.randint(1, 3), 3)])


def cl_ports():
    return pick(["services:\n  web:\n    ports:\n      - \"%d:80\"\n      - \"%d:443\"" % (pick([8080, 8000, 3000]), pick([8443, 4443])),
                 "EXPOSE %d\nHEALTHCHECK CMD curl -f http://localhost:%d/healthz || exit 1" % ((p := pick([3000, 8080, 5000])), p),
                 "tcp   LISTEN  0  4096  0.0.0.0:%d  0.0.0.0:*  users:((\"postgres\",pid=%d,fd=7))" % (pick([5432, 6379, 9200]), R.randint(300, 40000))])


def cl_versions():
    return pick(["OS: Windows 10.0.%d.%d, Chrome/%d.0.%d.%d" % (pick([19045, 22631]), R.randint(1000, 4999), R.randint(110, 130), R.randint(5000, 6999), R.randint(10, 200)),
                 "Linux build-%d 6.8.0-%d-generic #%d-Ubuntu SMP x86_64 GNU/Linux" % (R.randint(1, 40), R.randint(20, 60), R.randint(20, 60)),
                 "firmware %d.%d.%d.%d (bootloader %d.%d)" % (R.randint(1, 9), R.randint(0, 20), R.randint(0, 20), R.randint(0, 999), R.randint(1, 3), R.randint(0, 9)),
                 "requires: numpy>=1.26,<2.0; torch==2.%d.%d+cu121; python_version >= \"3.10\"" % (R.randint(1, 5), R.randint(0, 2))])


def cl_urls():
    return pick(["GET /api/v2/orders/%d/items/%d HTTP/1.1" % (R.randint(1000, 999999), R.randint(1, 40)),
                 "See https://github.com/%s/%s/pull/%d#discussion_r%d" % (pick(ORGS), pick(REPOS), R.randint(100, 9999), R.randint(100000000, 999999999)),
                 "https://shop.%s.dev/products/%d?variant=%d&utm_source=newsletter" % (pick(ORGS), R.randint(1000, 99999), R.randint(10 ** 9, 10 ** 10)),
                 "Docs: https://docs.python.org/3/library/secrets.html#secrets.token_urlsafe"])


PLACEHOLDERS = ["OPENAI_API_KEY=YOUR_API_KEY_HERE", "api_key: <your-api-key>", 'token = "${GITHUB_TOKEN}"',
                "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}", "password: ********", "Authorization: Bearer <token>",
                "STRIPE_SECRET_KEY=<paste your secret key>", "export AWS_SECRET_ACCESS_KEY=REPLACE_ME",
                'client = OpenAI(api_key=os.environ["OPENAI_API_KEY"])', "DB_PASSWORD=${DB_PASSWORD:?must be set}",
                "apiKey: process.env.SENDGRID_API_KEY", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ",
                "password = \"\"  # set via env", "token: '{{ vault_token }}'", "ANTHROPIC_API_KEY=your-key-here",
                "IBAN: DEXX XXXX XXXX XXXX XXXX XX", "Tel.: +49 (0) XXX XXXXXXX", "Card: **** **** **** 4242",
                "ssn: XXX-XX-XXXX", "email: <redacted>", "jwt_secret: CHANGE_ME_IN_PRODUCTION", "GITHUB_TOKEN=ghp_your_token_here"]


def cl_placeholder():
    return "\n".join(R.sample(PLACEHOLDERS, R.randint(1, 3)))


ENV_NAMES = ["DATABASE_URL", "REDIS_URL", "STRIPE_SECRET_KEY", "SENTRY_DSN", "OPENAI_API_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
             "GITHUB_TOKEN", "SLACK_BOT_TOKEN", "JWT_SECRET", "SMTP_PASSWORD", "DATADOG_API_KEY", "VAULT_TOKEN", "NPM_TOKEN"]


def cl_envnames():
    names = R.sample(ENV_NAMES, R.randint(3, 5))
    return pick(["Required environment variables: %s (see docs/config.md)." % ", ".join(names),
                 "| Variable | Required |\n|---|---|\n" + "\n".join("| `%s` | %s |" % (n, pick(["yes", "no"])) for n in names),
                 "The app reads %s at startup and fails fast if any is missing." % " and ".join(names[:2]),
                 "Bitte setze %s lokal, die Werte bekommst du aus 1Password." % ", ".join(names[:3])])


CRED_PROSE = ["Rotate the token after the demo.", "The password field must be at least 12 characters and include a digit.",
              "Never paste API keys into the issue tracker; use the secrets manager instead.", "Tokens expire after 30 days; refresh them with the CLI.",
              "We store only salted hashes of passwords (argon2id, m=64MB, t=3).", "Bitte das Passwort nie per Mail verschicken.",
              "Les jetons d'accès expirent au bout de 24 heures.", "La contraseña debe tener al menos 10 caracteres.",
              "A senha deve ser trocada a cada 90 dias.", "Il token viene revocato automaticamente dopo il logout.",
              "Het wachtwoord moet minstens één hoofdletter bevatten.", "Hasło musi mieć co najmniej 12 znaków.",
              "Şifrenizi kimseyle paylaşmayın.", "パスワードは定期的に変更してください。", "비밀번호는 8자 이상이어야 합니다.",
              "请不要把密钥提交到代码仓库。", "Пароль должен содержать цифры и буквы.", "Lösenordet måste bytas var tredje månad.",
              "The secret rotation job runs every Sunday at 02:00.", "If the key leaks, revoke it in the dashboard and open an incident.",
              "MFA is mandatory for all admin accounts starting next month.", "Kata sandi minimal 8 karakter.", "Mật khẩu phải có ít nhất một ký tự đặc biệt."]


def cl_credprose():
    return " ".join(R.sample(CRED_PROSE, R.randint(1, 2)))


REVIEWS = ["nit: rename `tmp` to `retryCount`; also this loop is O(n^2), can we use a map?", "LGTM once the flaky test is quarantined.",
           "Could we extract the pagination logic into a helper? It's duplicated in three handlers.", "Please add a test for the empty-list case.",
           "This changes the public API, needs a major version bump.", "Why catch Exception here? Narrow it to ValueError.",
           "Suggest using `Intl.NumberFormat` instead of manual rounding.", "Ship it 🚀", "Blocking: the migration is not reversible.",
           "Minor: the log message should include the order id for debugging."]


def cl_review():
    return "%s\n> %s" % (pick(["src/orders/service.py L%d" % R.randint(10, 400), "api/handlers.go:%d" % R.randint(10, 400), "web/src/Cart.tsx line %d" % R.randint(10, 400)]), pick(REVIEWS))


CHATS = ["Kannst du den Build nochmal starten? Der Test für den Warenkorb war flaky.", "On se voit demain à la standup ?",
         "¿Alguien sabe por qué el despliegue de ayer tardó tanto?", "Alguém pode revisar meu PR hoje?", "Ho aggiornato la documentazione, date un'occhiata.",
         "Zullen we de release naar donderdag verschuiven?", "Czy ktoś wie, jak uruchomić testy e2e lokalnie?", "Bugün deploy yapmayalım, cuma günü.",
         "明日の打ち合わせは10時からでお願いします。", "오늘 배포는 오후 3시에 진행합니다.", "我们下周一再讨论这个方案吧。", "Кто-нибудь видел падение CI ночью?",
         "Хто може глянути на мій PR?", "Kan någon kolla varför bygget är rött?", "Může někdo zkontrolovat můj merge request?",
         "Μπορεί κάποιος να κάνει review;", "Ada yang tahu kenapa pipeline gagal?", "Ai biết sao build bị lỗi không?", "क्या कोई मेरा PR देख सकता है?",
         "هل يمكن لأحد مراجعة طلب الدمج؟", "Thanks all, great sprint! 🎉", "Lunch at 12:30? The new ramen place on 5th."]


def cl_chat():
    return pick(CHATS) if chance(0.6) else pick(CHATS) + "\n" + pick(CHATS)


def cl_math():
    return pick(["∫₀¹ x² dx = 1/3, and 2^10 = 1024.", "Solve 3x + 7 = 22 → x = 5.", "The variance is σ² = %d.%d, so σ ≈ %d.%d." % (R.randint(1, 99), R.randint(0, 9), R.randint(1, 9), R.randint(0, 99)),
                 "gcd(%d, %d) = %d" % (24 * (a := R.randint(2, 40)), 18 * a, 6 * a), "Matrix [[%d, %d], [%d, %d]] has determinant %d." % ((b := R.randint(1, 9)), (c := R.randint(1, 9)), (d := R.randint(1, 9)), (e := R.randint(1, 9)), b * e - c * d),
                 "p < 0.0%d, n = %d, effect size d = 0.%d" % (R.randint(1, 5), R.randint(40, 4000), R.randint(10, 90))])


def cl_measure():
    return pick(["Package: %d x %d x %d cm, %d.%02d kg. Price: €%d.%02d incl. VAT (19%%)." % (R.randint(10, 80), R.randint(10, 60), R.randint(5, 40), R.randint(0, 20), R.randint(0, 99), R.randint(5, 999), pick([0, 49, 90, 99])),
                 "Preis: %d,%02d € zzgl. Versand %d,%02d €" % (R.randint(5, 999), pick([0, 49, 95, 99]), R.randint(3, 9), pick([90, 95, 99])),
                 "Distance %d.%d km, elevation gain %d m, avg pace 5:%02d /km" % (R.randint(3, 42), R.randint(0, 9), R.randint(20, 1500), R.randint(0, 59)),
                 "Total: $%d,%03d.%02d (tax $%d.%02d)" % (R.randint(1, 99), R.randint(0, 999), R.randint(0, 99), R.randint(1, 999), R.randint(0, 99)),
                 "温度 %d.%d℃、湿度 %d%%" % (R.randint(10, 35), R.randint(0, 9), R.randint(20, 95))])


def cl_serials():
    return pick(["Qty %d %03d %03d units shipped in Q%d." % (R.randint(1, 9), R.randint(0, 999), R.randint(0, 999), R.randint(1, 4)),
                 "Device serial SN %04d-%04d-%04d, firmware 3.%d" % (R.randint(0, 9999), R.randint(0, 9999), R.randint(0, 9999), R.randint(0, 20)),
                 "Part no. %03d-%04d-%02d, lot %d" % (R.randint(100, 999), R.randint(0, 9999), R.randint(0, 99), R.randint(1000, 9999)),
                 "Warehouse bin A-%02d-%03d holds %d pcs" % (R.randint(1, 40), R.randint(1, 400), R.randint(1, 9000)),
                 "Population 2023: %d %03d %03d" % (R.randint(1, 80), R.randint(0, 999), R.randint(0, 999)),
                 "ISBN %s, %d pages" % (isbn13(), R.randint(120, 900)),
                 "EAN %s" % (lambda p: p + ean13(p))("40" + digs(10))])


def cl_postal():
    return pick(["Versand innerhalb Deutschlands, z. B. PLZ %05d Berlin." % R.randint(10115, 14199),
                 "Code postal %05d Paris, livraison en 48h." % R.randint(75001, 75020),
                 "Shipping to ZIP %05d takes 3-5 business days." % R.randint(10001, 99950),
                 "〒%03d-%04d 東京都千代田区" % (R.randint(100, 199), R.randint(1, 9999)),
                 "CEP %05d-%03d, São Paulo" % (R.randint(1000, 9999), R.randint(0, 999)),
                 "Postcode SW1A %dAA area, delivery zone %d" % (R.randint(1, 2), R.randint(1, 6))])


def cl_sshpub():
    return pick(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s %s" % (b64(rbytes(33))[:43], pick(["ci-runner-03", "build-host", "laptop-2024"])),
                 "Added public key to authorized_keys: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ%s... (fingerprint SHA256:%s)" % (b64(rbytes(30))[:40], b64(rbytes(32))[:43])])


def cl_css():
    return ".btn-primary {\n  color: #%s;\n  background: #%s;\n  border-radius: %dpx;\n}" % (rs(HEX, 6), rs(HEX, 6), R.randint(2, 12))


def cl_pods():
    out = ["NAME                         READY   STATUS    RESTARTS   AGE"]
    for _ in range(R.randint(2, 4)):
        out.append("%-28s 1/1     Running   %d          %dd%dh" % ("%s-%s-%s" % (pick(["web", "worker", "api"]), rs(LAN, 10), rs(LAN, 5)), R.randint(0, 3), R.randint(0, 30), R.randint(0, 23)))
    return "\n".join(out)


def cl_dataimg():
    return pick(['<img alt="spacer" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">',
                 "background-image: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk%s);" % rs(B64, 20),
                 "favicon: data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4="])


def cl_http_resp():
    return "HTTP/1.1 200 OK\nContent-Type: application/json\nETag: \"%s\"\nX-Request-Id: %s\nContent-Length: %d\nCache-Control: max-age=%d" % (rs(HEX, 32), uuid4(), R.randint(40, 90000), pick([60, 300, 3600]))


def cl_traceback():
    return "Traceback (most recent call last):\n  File \"/app/%s.py\", line %d, in <module>\n    main()\n  File \"/app/%s.py\", line %d, in main\n    total = sum(x.price for x in cart.items) / len(cart.items)\nZeroDivisionError: division by zero" % (pick(REPOS).replace("-", "_"), R.randint(10, 99), pick(REPOS).replace("-", "_"), R.randint(10, 300))


def cl_sql():
    return pick(["SELECT o.id, o.total FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id IN (%d, %d, %d) GROUP BY o.id;" % (R.randint(1, 99999), R.randint(1, 99999), R.randint(1, 99999)),
                 "UPDATE inventory SET qty = qty - %d WHERE sku = 'SKU-%05d';" % (R.randint(1, 9), R.randint(0, 99999)),
                 "CREATE TABLE customers (\n  id BIGSERIAL PRIMARY KEY,\n  ssn VARCHAR(11),\n  iban VARCHAR(34),\n  email TEXT NOT NULL\n);"])


def cl_csv():
    rows = ["sku,name,stock,price_eur"] + ["SKU-%05d,%s,%d,%d.%02d" % (R.randint(0, 99999), pick(["Desk lamp", "USB-C cable", "Notebook A5", "Water bottle", "Mouse pad"]), R.randint(0, 900), R.randint(1, 120), R.randint(0, 99)) for _ in range(R.randint(2, 4))]
    return "\n".join(rows)


def cl_sports():
    return pick(["1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7", "Final score %d:%d (half-time %d:0)" % (R.randint(0, 5), R.randint(0, 5), R.randint(0, 2)),
                 "Lap %d: 1:%02d.%03d, gap +%d.%03d" % (R.randint(1, 70), R.randint(10, 40), R.randint(0, 999), R.randint(0, 9), R.randint(0, 999))])


def cl_cron():
    return pick(["*/15 * * * * /usr/local/bin/rotate-logs.sh", "0 2 * * 0 /opt/scripts/rotate-secrets.sh --dry-run", "30 6 * * 1-5 cd /srv/app && ./bin/report --weekly"])


def cl_regex():
    return pick(["Password policy regex: ^(?=.*[A-Z])(?=.*\\d)(?=.*[^\\w\\s]).{12,}$", "IBAN format check: ^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$ (then mod 97)",
                 "UUID pattern: ^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"])


def cl_objids():
    return pick(["Stripe event evt_%s for payment_intent pi_%s succeeded." % (rs(AN, 24), rs(AN, 24)),
                 "aws_instance.web: Creation complete after %ds [id=i-0%s]" % (R.randint(10, 90), rs(HEX, 16)),
                 "Created subnet subnet-0%s in vpc-0%s" % (rs(HEX, 16), rs(HEX, 16)),
                 "arn:aws:s3:::%s-assets/*" % pick(REPOS)])


def cl_masked():
    return pick(["password=******** token=[REDACTED] card=**** **** **** %04d" % R.randint(0, 9999), 'Authorization: Bearer [FILTERED]',
                 "api_key: sk-****...****%s (last 4 shown)" % rs(AN, 4).lower(), "IBAN: DE** **** **** **** **%02d" % R.randint(0, 99),
                 "SSN on file: ***-**-%04d" % R.randint(0, 9999)])


def cl_epoch():
    t = R.randint(1700000000, 1800000000)
    return pick(["expires_at=%d" % t, "created=%d%03d (ms since epoch)" % (t, R.randint(0, 999)), "ttl=%d nbf=%d" % (R.randint(60, 86400), t)])


def cl_md5():
    return "\n".join("%s  %s" % (rs(HEX, 32), f) for f in R.sample(["README.md", "setup.py", "dist/app.whl", "data/train.csv", "model.onnx"], R.randint(2, 3)))


def cl_geo():
    return pick(["Eiffel Tower: 48.8584° N, 2.2945° E", "Brandenburger Tor 52.5163, 13.3777", "Shibuya crossing 35.6595, 139.7005",
                 "Sydney Opera House (-33.8568, 151.2153)"])


def cl_flags():
    return "flag %s enabled for %d%% of traffic in %s (rollout id %d)" % (pick(["new-checkout-flow", "dark-mode", "search-v2", "fast-refunds"]), pick([5, 10, 25, 50]), pick(REGIONS), R.randint(100, 9999))


def cl_forms():
    return pick(["Steuer-ID: ____________   IBAN: ______________________", "Name: __________ Date of birth: __/__/____ SSN: ___-__-____",
                 "<label for=\"iban\">IBAN</label> <input id=\"iban\" name=\"iban\" placeholder=\"DE00 0000 0000 0000 0000 00\">",
                 "Numéro de sécurité sociale (15 chiffres) : [                ]"])


def cl_counters():
    return "processed=%d failed=%d retried=%d elapsed=00:%02d:%02d throughput=%d/s" % (R.randint(100, 99999), R.randint(0, 50), R.randint(0, 20), R.randint(0, 59), R.randint(0, 59), R.randint(10, 5000))


def cl_gerrit():
    return "Change-Id: I%s\nReviewed-on: https://review.%s.dev/c/%s/+/%d" % (rs(HEX, 40), pick(ORGS), pick(REPOS), R.randint(1000, 99999))


def cl_weather():
    return pick(["Morgen wird es sonnig bei %d Grad." % R.randint(5, 32), "Il pleuvra toute la journée à Lyon.", "今日は晴れ、最高気温%d度。" % R.randint(5, 35),
                 "서울은 오늘 흐리고 비가 옵니다.", "Hoy hace %d grados en Madrid." % R.randint(5, 40), "Сегодня в Москве %d°C." % R.randint(-20, 30)])


def cl_secretscan():
    return pick(["Push protection blocked the push because it found a credential in config.js; I removed the line and rotated the key.",
                 "gitleaks reported 0 leaks in 3 142 commits scanned.", "trufflehog found nothing verified in the last 200 commits.",
                 "We should add a pre-commit hook that scans for secrets before push."])


def cl_ip_versions():
    return pick(["Build %d.%d.%d.%d" % (R.randint(1, 20), R.randint(0, 9), R.randint(0, 99999), R.randint(0, 9999)), "Upgrade from 4.2.1.0 to 4.3.0.12 is supported.",
                 "Protocol version 1.3.6.1 negotiated"])


def cl_k8s_cm():
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s-config\ndata:\n  LOG_LEVEL: info\n  MAX_CONNECTIONS: \"%d\"\n  FEATURE_FLAGS: search-v2,fast-refunds" % (pick(REPOS), R.randint(10, 500))


def cl_tf_plan():
    return "Plan: %d to add, %d to change, %d to destroy.\n\n  # aws_s3_bucket.logs will be created\n  + bucket = \"%s-logs-%d\"" % (R.randint(0, 9), R.randint(0, 9), R.randint(0, 3), pick(REPOS), R.randint(2023, 2025))


CLEAN_GENS = [cl_git_log, cl_sha_prose, cl_uuid_log, cl_trace, cl_digest, cl_integrity, cl_gosum, cl_changelog, cl_build, cl_dates,
              cl_orders, cl_ports, cl_versions, cl_urls, cl_placeholder, cl_envnames, cl_credprose, cl_review, cl_chat, cl_math,
              cl_measure, cl_serials, cl_postal, cl_sshpub, cl_css, cl_pods, cl_dataimg, cl_http_resp, cl_traceback, cl_sql, cl_csv,
              cl_sports, cl_cron, cl_regex, cl_objids, cl_masked, cl_epoch, cl_md5, cl_geo, cl_flags, cl_forms, cl_counters,
              cl_gerrit, cl_weather, cl_secretscan, cl_ip_versions, cl_k8s_cm, cl_tf_plan]


def cl_pytest():
    return pick(["==== %d passed, %d skipped, %d warnings in %d.%02ds ====" % (R.randint(20, 900), R.randint(0, 9), R.randint(0, 30), R.randint(1, 200), R.randint(0, 99)),
                 "Tests: %d passed, %d total\nSnapshots: 0 total\nTime: %d.%03d s" % ((x := R.randint(10, 400)), x, R.randint(1, 90), R.randint(0, 999)),
                 "ok  \tgithub.com/%s/%s/internal/%s\t%d.%03ds" % (pick(ORGS), pick(REPOS), pick(["cache", "store", "httpx"]), R.randint(0, 9), R.randint(0, 999))])


def cl_audit():
    return pick(["added %d packages, and audited %d packages in %ds\n\nfound 0 vulnerabilities" % (R.randint(1, 90), R.randint(200, 1900), R.randint(2, 40)),
                 "Dependabot: bump %s from %d.%d.%d to %d.%d.%d in /web" % (pick(["axios", "vite", "express", "next"]), 1, R.randint(0, 9), R.randint(0, 9), 1, R.randint(10, 19), R.randint(0, 9))])


def cl_release_de():
    return pick(["Version %d.%d ist live: schnellere Suche, neuer Export als CSV, und der Dark Mode ist jetzt Standard." % (R.randint(2, 9), R.randint(0, 20)),
                 "Nouvelle version %d.%d : correction du bug d'affichage des factures et amélioration des performances." % (R.randint(2, 9), R.randint(0, 20)),
                 "Versione %d.%d: risolto il problema con i filtri di ricerca." % (R.randint(2, 9), R.randint(0, 20))])


def cl_recipe():
    return pick(["Pfannkuchen: %d g Mehl, %d Eier, %d ml Milch, 1 Prise Salz." % (R.randint(150, 300), R.randint(2, 4), R.randint(200, 500)),
                 "Bake at %d°C for %d minutes, then rest for %d minutes." % (pick([160, 180, 200, 220]), R.randint(12, 60), R.randint(5, 20)),
                 "Para 4 personas: %d g de arroz, %d dientes de ajo y %d ml de caldo." % (R.randint(250, 400), R.randint(2, 5), R.randint(600, 1200))])


def cl_json_api():
    return json.dumps({"id": R.randint(1000, 999999), "status": pick(["shipped", "pending", "cancelled"]), "items": R.randint(1, 9),
                       "total": {"amount": R.randint(100, 99999), "currency": pick(["EUR", "USD", "JPY"])}, "updated_at": ts_iso()})


def cl_code_diff():
    return "diff --git a/src/cart.ts b/src/cart.ts\n@@ -%d,%d +%d,%d @@\n-  const total = items.reduce((a, b) => a + b.price, 0)\n+  const total = items.reduce((a, b) => a + b.price * b.qty, 0)" % (R.randint(10, 90), R.randint(3, 8), R.randint(10, 90), R.randint(3, 8))


def cl_ci_yaml():
    return pick(["    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: %d\n      - run: npm ci && npm test" % pick([18, 20, 22]),
                 "deploy:\n  stage: deploy\n  script:\n    - ./deploy.sh\n  variables:\n    AWS_ACCESS_KEY_ID: $AWS_ACCESS_KEY_ID\n  only:\n    - main"])


def cl_license():
    return pick(["Copyright (c) %d %s. Licensed under the Apache License, Version 2.0." % (R.randint(2015, 2025), pick(["Kestrel Labs", "Helios Retail GmbH", "Tundra IO"])),
                 "SPDX-License-Identifier: MIT", "This program is free software: you can redistribute it under the terms of the GNU GPL v3."])


def cl_timezones():
    h = R.randint(8, 18)
    return pick(["%02d:00 CET = %02d:00 UTC = %02d:00 JST" % (h, h - 1, (h + 8) % 24), "Standup moved to %d:30 Europe/Berlin (%d:30 America/New_York)." % (h, h - 6)])


def cl_support_reply():
    return pick(["Thanks for reaching out! We've refunded the order; it should show on your statement within 5-10 business days.",
                 "Vielen Dank für Ihre Geduld. Das Ersatzteil ist unterwegs und sollte in 2-3 Werktagen ankommen.",
                 "Merci pour votre message, votre demande a bien été transmise à notre équipe technique.",
                 "ご連絡ありがとうございます。担当者より改めてご案内いたします。",
                 "Gracias por escribirnos. Hemos reactivado su suscripción sin coste adicional."])


def cl_perf():
    return "p50=%dms p95=%dms p99=%dms rps=%d errors=%d.%02d%%" % (R.randint(5, 40), R.randint(50, 200), R.randint(200, 900), R.randint(50, 9000), R.randint(0, 2), R.randint(0, 99))


def cl_dialing():
    return pick(["+49 is Germany's country code; from abroad you drop the leading 0 of the area code.",
                 "Phone numbers are stored in E.164, max 15 digits, without spaces.",
                 "Die Hotline ist werktags von 8 bis 18 Uhr erreichbar.", "Card numbers are validated with the Luhn algorithm before tokenization."])


CLEAN_GENS += [cl_pytest, cl_audit, cl_release_de, cl_recipe, cl_json_api, cl_code_diff, cl_ci_yaml, cl_license, cl_timezones,
               cl_support_reply, cl_perf, cl_dialing]


def clean_rows(n):
    out, seen = [], set()
    i = 0
    while len(out) < n:
        g = CLEAN_GENS[i % len(CLEAN_GENS)]
        i += 1
        for _ in range(20):
            t = g()
            if t not in seen:
                break
        if t in seen:
            continue
        seen.add(t)
        out.append(row(t, [], []))
    return out


# ---------------------------------------------------------------- assembly

def build():
    rows = []
    rows += secret_rows()
    rows += pair_rows()
    rows += password_rows()
    rows += basic_auth_rows()
    rows += pk_rows(14)
    rows += jwt_rows(16)
    rows += id_rows()
    rows += phone_rows(84)
    rows += email_rows(64)
    rows += card_rows(36)
    rows += iban_rows()
    rows += clean_rows(250)
    all_canaries = []
    for r in rows:
        assert len(r["canaries"]) == len(r["kinds"]) <= 2, r
        assert len(r["text"]) < 600, (len(r["text"]), r["kinds"])
        for c in r["canaries"]:
            assert c and c in r["text"], (c, r["text"])
        all_canaries += r["canaries"]
    for r in rows:
        if not r["canaries"]:
            for c in all_canaries:
                assert c not in r["text"], (c, r["text"])
    R.shuffle(rows)
    return rows


# ---------------------------------------------------------------- labels the masker already gives
# Added after world12's one blind run: where a kind above is another name for a format the masker
# already labels (its provider label, one per provider, or gitleaks' rule id), the row is written with
# the masker's name. Text, values and order are untouched; only the labels written change.
MASKER_LABEL = {
    "adafruit_io_key": "adafruit_api_key", "airtable_pat": "airtable_token", "algolia_admin_api_key": "algolia_api_key",
    "alibaba_access_key_id": "alibaba_key", "alibaba_access_key_secret": "alibaba_key", "anthropic_api_key": "anthropic_key",
    "asana_pat": "asana_token", "atlassian_api_token": "atlassian_token", "aws_access_key_id": "aws_key",
    "aws_secret_access_key": "aws_secret", "azure_devops_pat": "azure_devops_token",
    "azure_storage_account_key": "azure_storage_key", "bitbucket_app_password": "bitbucket_token",
    "braintree_access_token": "braintree_token", "brevo_api_key": "brevo_key", "buildkite_api_token": "buildkite_token",
    "circleci_personal_token": "circleci_token", "clickup_api_token": "clickup_token", "clojars_deploy_token": "clojars_token",
    "cloudflare_api_token": "cloudflare_token", "cloudflare_global_api_key": "cloudflare_key",
    "cloudflare_origin_ca_key": "cloudflare_key", "cohere_api_key": "cohere_key", "contentful_pat": "contentful_token",
    "crates_io_token": "cratesio_token", "datadog_api_key": "datadog_key", "datadog_app_key": "datadog_key",
    "deepseek_api_key": "deepseek_key", "digitalocean_pat": "digitalocean_token", "discord_bot_token": "discord_token",
    "discord_webhook_url": "discord_webhook", "dockerhub_pat": "dockerhub_token", "dropbox_access_token": "dropbox_token",
    "dynatrace_api_token": "dynatrace_token", "easypost_api_key": "easypost_key", "elevenlabs_api_key": "elevenlabs_key",
    "figma_pat": "figma_token", "flutterwave_secret_key": "flutterwave_key", "flyio_access_token": "flyio_token",
    "gcp_api_key": "google_api_key", "gcp_oauth_client_secret": "google_oauth_secret",
    "github_app_installation_token": "github_token", "github_fine_grained_pat": "github_token",
    "github_oauth_token": "github_token", "github_pat": "github_token", "github_user_to_server_token": "github_token",
    "gitlab_deploy_token": "gitlab_token", "gitlab_pat": "gitlab_token", "gitlab_pipeline_trigger_token": "gitlab_token",
    "gitlab_runner_token": "gitlab_token", "gocardless_access_token": "gocardless_api_token",
    "google_oauth_access_token": "google_oauth_token", "google_oauth_refresh_token": "google_oauth_token",
    "grafana_cloud_token": "grafana_token", "grafana_service_account_token": "grafana_token", "groq_api_key": "groq_key",
    "harness_pat": "harness_api_key", "heroku_api_key": "heroku_key", "honeycomb_api_key": "honeycomb_key",
    "http_basic_auth": "basic_auth", "hubspot_private_app_token": "hubspot_token", "infracost_api_key": "infracost_key",
    "intercom_access_token": "intercom_api_key", "jfrog_api_key": "jfrog_token", "jfrog_reference_token": "jfrog_token",
    "langsmith_api_key": "langsmith_key", "launchdarkly_api_token": "launchdarkly_key",
    "launchdarkly_sdk_key": "launchdarkly_key", "linear_api_key": "linear_key", "mailchimp_api_key": "mailchimp_key",
    "mailgun_api_key": "mailgun_key", "mapbox_secret_token": "mapbox_token", "meta_access_token": "facebook_token",
    "mistral_api_key": "mistral_key", "mollie_api_key": "mollie_key", "netlify_pat": "netlify_token",
    "new_relic_license_key": "new_relic_key", "new_relic_user_api_key": "new_relic_key", "ngrok_authtoken": "ngrok_token",
    "notion_integration_token": "notion_token", "npm_access_token": "npm_token", "nuget_api_key": "nuget_key",
    "okta_api_token": "okta_token", "onepassword_service_account_token": "onepassword_token",
    "openai_api_key": "openai_key", "openrouter_api_key": "openrouter_key", "paystack_secret_key": "paystack_key",
    "perplexity_api_key": "perplexity_key", "pinecone_api_key": "pinecone_key", "plaid_access_token": "plaid_token",
    "plaid_secret": "plaid_token", "planetscale_password": "planetscale_token",
    "planetscale_service_token": "planetscale_token", "posthog_personal_api_key": "posthog_personal_key",
    "postman_api_key": "postman_key", "prefect_api_key": "prefect_key", "pulumi_access_token": "pulumi_token",
    "pypi_api_token": "pypi_token", "razorpay_key_secret": "razorpay_key", "readme_api_key": "readme_key",
    "render_api_key": "render_key", "replicate_api_token": "replicate_token", "resend_api_key": "resend_key",
    "rubygems_api_key": "rubygems_key", "salesforce_access_token": "salesforce_token",
    "scalingo_api_token": "scalingo_token", "sendgrid_api_key": "sendgrid_key", "sentry_auth_token": "sentry_token",
    "shippo_api_token": "shippo_token", "shopify_access_token": "shopify_token", "shopify_shared_secret": "shopify_token",
    "slack_app_token": "slack_token", "slack_bot_token": "slack_token", "slack_user_token": "slack_token",
    "slack_webhook_url": "slack_webhook", "sonarqube_token": "sonar_token", "sourcegraph_access_token": "sourcegraph_token",
    "square_access_token": "square_token", "square_application_secret": "square_token",
    "stripe_restricted_key": "stripe_key", "stripe_secret_key": "stripe_key", "stripe_webhook_secret": "stripe_key",
    "supabase_pat": "supabase_token", "supabase_secret_key": "supabase_token", "tailscale_api_key": "tailscale_key",
    "tailscale_auth_key": "tailscale_key", "teams_webhook_url": "teams_webhook", "telegram_bot_token": "telegram_token",
    "tencent_secret_id": "tencent_key", "terraform_cloud_token": "terraform_token", "trello_api_token": "trello_token",
    "twitter_bearer_token": "twitter_bearer", "typeform_pat": "typeform_token", "wandb_api_key": "wandb_key",
    "xai_api_key": "xai_key", "yandex_cloud_api_key": "yandex_key", "zendesk_api_token": "zendesk_secret_key",
    # the Czech and the Slovak birth number are one format (rodné číslo, one check: python-stdnum's sk.rc is cz.rc)
    "sk_rodne_cislo": "cz_rc",
}


def masker_label(text, canary, kind):
    """The label for ``canary`` of ``kind`` in ``text``: a password written as the password of a URL's
    userinfo (``scheme://user:PASSWORD@host``) is ``url_credentials``, as the earlier worlds label it."""
    at = text.find(canary)
    if kind == "password" and text[at - 1:at] == ":" and text[at + len(canary):at + len(canary) + 1] == "@":
        return "url_credentials"
    return MASKER_LABEL.get(kind, kind)


# A Sentry DSN is not a secret: "DSNs are safe to keep public because they only allow submission of new
# events and related event data; they do not allow read access to any information" (docs.sentry.io,
# "Data Source Name (DSN)"). world11 writes one as a clean near miss ("public client-side config") and
# world9 leaves one unlabelled in an env file; world12's rows that hold one are written as clean rows.
PUBLIC_KINDS = {"sentry_dsn"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory")
    args = ap.parse_args()
    rows = build()
    for r in rows:
        kept = [(c, k) for c, k in zip(r["canaries"], r["kinds"]) if k not in PUBLIC_KINDS]
        r["canaries"] = [c for c, _ in kept]
        r["kinds"] = [masker_label(r["text"], c, k) for c, k in kept]
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "heldout_world12.jsonl")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    pos = sum(len(r["canaries"]) for r in rows)
    kinds = len({k for r in rows for k in r["kinds"]})
    clean = sum(1 for r in rows if not r["canaries"])
    print("wrote %s: %d rows, %d positive values, %d kinds, %d clean rows" % (path, len(rows), pos, kinds, clean))


if __name__ == "__main__":
    main()
