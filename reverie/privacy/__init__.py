"""Masking of secrets and personal data before the first write (DESIGN.md §7).

``Masker(settings).mask(text)`` replaces every secret with ``[SECRET:<label>]`` and every piece of
personal data with ``[PII:<label>]``, and reports each replacement as a :class:`Finding` whose
offsets point into the original text::

    >>> Masker(PrivacySettings()).mask("mail jane.doe@acme.io").text
    'mail [PII:email]'

What is found, and by what (one module each):

- ``ruleset``: gitleaks' maintained rule set (about 220 providers' tokens), vendored as data in
  ``reverie/data/gitleaks/`` and compiled once; ``goregex`` translates its Go regexes;
- ``plugins``: detect-secrets' regex plugins, beside it;
- ``providers``: provider token formats neither has, or has only after an assignment naming the
  provider (Netlify, Airtable, Atlassian, Kubernetes bootstrap tokens …), each naming its documentation;
- ``provider_names``: provider keys without a shape of their own (32 hex, a UUID …), under the
  names their tools read or in a text that names the provider (Datadog, Hetzner, Linode, Vercel,
  RevenueCat …);
- ``tool_keys``: keys of the tools around AI agents (Tavily, Firecrawl, LiteLLM's master key);
- ``messaging``: message brokers' and realtime services' credentials (Ably keys, Confluent Cloud API
  keys in a Kafka client's JAAS config, Azure Service Bus shared access keys);
- ``webhooks``: chat and automation webhook URLs (Zapier, Mattermost, Google Chat);
- ``own_rules``: what neither has (PEM blocks over many lines, ``password = ...`` assignments,
  credential files such as ``.netrc``, credentials in URLs, bearer headers), each naming the
  format's documentation;
- ``configs``: passwords in particular config, export and API formats (Redis' ``requirepass``, Cisco
  IOS' ``secret 0``, HAProxy's ``stats auth``, Wi-Fi QR codes, PgBouncer's auth file, a CSV column
  headed "Password", ``NetworkCredential``, ``ConvertTo-SecureString``, ``setPassword("…")``),
  BitLocker recovery passwords and 2FA backup codes;
- ``calls``: passwords handed to an API by position (``server.login("user", "…")``, requests'
  ``auth=(user, password)``, ``mysqli_connect``, ``Net::SMTP.start``) or as the default of a
  secret-named environment variable (``env('DB_PASSWORD', '…')``);
- ``commands``: credentials on command lines (``curl -u``, ``mysql -p``, ``sqlcmd -P``, ``htpasswd -b``,
  ``--token``, a password piped or given as a here-string to ``sudo -S``, ``passwd --stdin``,
  ``chpasswd`` or ``gpg --passphrase-fd 0``, smbclient's ``-U user%password``, 7-Zip's ``-p``, ``net user NAME PASSWORD``,
  rabbitmqadmin's ``-p``, HTTPie's ``-a``,
  Git's password prompt, a printed OpenVPN credentials file);
- ``http_exports``: passwords in exported HTTP traffic and API clients' files (a HAR's escaped JSON
  request body, Postman's environment records);
- ``cookies``: session ids in cookies (``Cookie:``/``Set-Cookie:`` headers, cookie jars, code that sets
  cookies), by the names frameworks give them (``PHPSESSID``, ``JSESSIONID``, ``sessionid`` …);
- ``encoded``: secrets inside a Kubernetes Secret's base64 ``data``, decoded and run through the
  secret detectors;
- ``prose``: secrets said in prose ("the root password is X", "pw X", "X as the password", a PIN or
  a door code after a word that names it, a generated value in reply to a request for a password);
- ``personal``: e-mail addresses (also non-ASCII, percent-encoded, or spelled out as
  ``[at]``/``dot``), phone numbers (libphonenumber, in the regions
  ``REVERIE_PRIVACY__PHONE_REGIONS`` names; any region's under a column named for phones, also of a
  printed DataFrame: ``aligned_tables``), card numbers and IBANs (python-stdnum);
- ``bank_accounts``: US bank account numbers beside a named ABA routing number and in NACHA entry
  detail records (the routing number, public, is no phone number and stays);
- ``national``: national identifiers (US SSN, UK NINO, Canadian SIN, French NIR, German
  Steuer-IdNr, Indian Aadhaar, Spanish DNI and NIE, Italian codice fiscale, Dutch BSN, Brazilian
  CPF, Polish PESEL, Swedish personnummer, Finnish henkilötunnus, Danish CPR, Belgian national
  number, Portuguese NIF, Chilean RUT, Mexican CURP, Norwegian fødselsnummer, Swiss AHV, Australian
  TFN, South African ID, Romanian CNP, Korean RRN, Japanese My Number, Irish PPSN, Singapore
  NRIC/FIN, Turkish T.C. Kimlik No, Israeli Mispar Zehut, Argentine CUIT/CUIL, Estonian isikukood,
  Hong Kong identity card number, Bulgarian EGN, Croatian OIB, Icelandic kennitala, Czech rodné
  číslo, and those of Taiwan, Thailand, Slovenia, Lithuania, Austria, the UK's NHS, the US ITIN, Australia's
  Medicare, New Zealand, Russia, Ukraine, Kazakhstan, Greece, Hungary, Latvia, Mexico's RFC, Uruguay,
  Ecuador, Luxembourg, Poland's NIP, Saudi Arabia, the Emirates, Germany's Versicherungsnummer,
  Malaysia, Indonesia, Pakistan) by shape and checksum, the weak ones after a word naming them
  (``named_ids``: or under a table column, in an SQL INSERT's column or a typed JSON record the word
  names, the word also spelled as code spells it; ``id_records``: mapped to a person in a log that
  names an identifier, or in a printed DataFrame's column named for one).

Every detector names trigger literals or pre-filters itself, which keeps clean prose cheap.
Overlapping spans merge into one placeholder labelled by the most specific detector
(``masker.rank``). Placeholders already in a text are never masked again, and masking is
idempotent: after a pass, the pieces between placeholders are scanned again until nothing new is
found, so ``mask(mask(t).text) == mask(t).text`` holds by construction.
"""

from reverie.privacy.findings import PLACEHOLDER, Category, Finding, Masked
from reverie.privacy.masker import Masker

__all__ = ["PLACEHOLDER", "Category", "Finding", "Masked", "Masker"]
