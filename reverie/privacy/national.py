"""National identifiers, found by shape and kept when their checksum (``python-stdnum``) holds.

Documented sample numbers (the SSA's advertising SSNs, HMRC's ``QQ`` prefix, the Government of
Canada's sample SIN) are masked too: a number that is a sample is still a number someone typed.

Where the written shape is only a run of digits and the checksum is weak (the Dutch BSN's
eleven-test passes one number in eleven, the Brazilian CPF's one in a hundred), the bare digits
count only after a word that names the identifier ("BSN", "CPF"); the shapes their authorities
print (``1234.56.782``, ``123.456.789-09``) count alone. Likewise a 3-3-3 Canadian SIN that is also
a phone number of a configured region, on a line that speaks of phones, counts as a SIN only
after a word that names it. The same holds for the identifiers of :data:`NAMED_IDS` (Polish PESEL,
Swedish personnummer, Danish CPR, Norwegian fødselsnummer, Portuguese NIF, Australian TFN, South
African ID, Romanian CNP, Korean RRN, Japanese My Number, Irish PPSN, Singapore NRIC/FIN, the Indian
PAN, the Turkish T.C. Kimlik No, the Israeli Mispar Zehut, the Argentine CUIT/CUIL, the Estonian
isikukood, the Hong Kong identity card number, and the bare forms of the Belgian, Chilean, Swiss, US,
Canadian and Indian numbers): the word may also be the header of the table column the number is in
(``employee,nric,dept``), or follow the number in a comment or an aside (``"501964843"  # PT NIF``). The Belgian,
Chilean and Swiss printed shapes, the Finnish henkilötunnus, the Chinese resident identity number
and the Mexican CURP count alone.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from stdnum import luhn
from stdnum.ar import cuit
from stdnum.at import vnr
from stdnum.au import tfn
from stdnum.be import nn
from stdnum.bg import egn
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.ch import ssn as ahv
from stdnum.cl import rut
from stdnum.cn import ric
from stdnum.cz import rc
from stdnum.de import idnr
from stdnum.ee import ik
from stdnum.es import dni, nie
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.hr import oib
from stdnum.ie import pps
from stdnum.il import idnr as il_idnr
from stdnum.in_ import aadhaar, pan
from stdnum.is_ import kennitala
from stdnum.iso7064 import mod_11_2
from stdnum.it import codicefiscale
from stdnum.jp import in_ as my_number
from stdnum.kr import rrn
from stdnum.lt import asmens
from stdnum.mx import curp
from stdnum.nl import bsn
from stdnum.no import fodselsnummer
from stdnum.pl import pesel
from stdnum.pt import nif
from stdnum.ro import cnp
from stdnum.se import personnummer
from stdnum.si import emso
from stdnum.th import pin as th_pin
from stdnum.tr import tckimlik
from stdnum.us import ssn
from stdnum.za import idnr as za_idnr

from reverie.privacy.findings import Detector, Gated, PatternDetector, Span, value_group
from reverie.privacy.named_ids import Check, FailingRow, FieldNamed, GenericNamed, HeadedColumn, Named, named
from reverie.privacy.personal import PHONE_WORDS, line_before

PhoneCheck = Callable[[str, str], bool]  # (number, its line before it) -> reads as a phone number
# Not the end of a longer group of digits, nor after "+" (an international phone number: a
# national identifier is never written with a leading "+").
NOT_A_TAIL = r"(?<![\w\-+])(?<!\d[ \-])"

# SSA: 3-2-4 digits, area not 000, 666 or 9xx, group not 00, serial not 0000 (stdnum); plus the
# numbers SSA documents as misused samples, which stdnum refuses.
SSN = re.compile(NOT_A_TAIL + r"\d{3}(?P<s>[\- ])\d{2}(?P=s)\d{4}(?![\w\-])")
SSN_SAMPLES = frozenset({"078051120", "219099999", "457555462"})
# HMRC National Insurance Manual NIM39110: two prefix letters, six digits, a suffix A-D; there is
# no check digit and stdnum has no module for it. The shape alone is used: the prefixes HMRC does
# not allocate (QQ in its examples, ZZ for temporary numbers) still name someone. Typed in lower
# case ("ab123456c") only with a prefix HMRC allocates (NIM39110: first letter not D, F, I, Q, U
# or V; second not D, F, I, O, Q, U or V; not BG, GB, KN, NK, NT, TN or ZZ), since lower case
# gives less away.
NINO = re.compile(r"(?<![A-Za-z0-9])(?:[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]|[a-z]{2} ?\d{2} ?\d{2} ?\d{2} ?[a-d])"
                  r"(?![A-Za-z0-9])")
NINO_ALLOCATED = re.compile(r"(?!BG|GB|KN|NK|NT|TN|ZZ)[^DFIQUV][^DFIOQUV]")
# Service Canada: nine digits, Luhn; stdnum also refuses first digits 0 and 8.
SIN = re.compile(NOT_A_TAIL + r"\d{3}(?P<s>[\- ])\d{3}(?P=s)\d{3}(?![\w\-])")
SIN_SAMPLES = frozenset({"046454286"})
SIN_WORDS = re.compile(r"(?i)\b(?:SIN|NAS|social[ \t]+insurance|assurance[ \t]+sociale)\b")

# INSEE NIR: sex, year, month, department (2A/2B for Corsica), commune, order, key = 97 - n mod 97.
NIR = re.compile(NOT_A_TAIL + r"[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?![\w\-])")
# BZSt Steuerliche Identifikationsnummer: 11 digits, ISO 7064 MOD 11,10 check digit.
IDNR = re.compile(NOT_A_TAIL + r"(?<!\.)[1-9]\d(?: ?\d{3}){3}(?![\w\-]|\.\d)")
# UIDAI Aadhaar: 12 digits, first not 0 or 1, Verhoeff check digit (one number in ten passes):
# grouped 4-4-4 as UIDAI prints it, or bare after a word naming it (a bare run of twelve digits is
# as often a byte count or an order number).
AADHAAR = re.compile(NOT_A_TAIL + r"(?<!\.)[2-9]\d{3}(?P<s>[ \-])\d{4}(?P=s)\d{4}(?![\w\-]|\.\d)")
# Spanish DNI (Ministerio del Interior, Real Decreto 1553/2005; the letter is
# TRWAGMYFPDXBNJZSQVHLCKE[n mod 23]): eight digits and the letter, often after a hyphen or space.
DNI = re.compile(NOT_A_TAIL + r"\d{8}[ \-]?[A-Za-z](?![\w\-])")
# Spanish NIE (Real Decreto 557/2011, art. 206): X, Y or Z (counting as 0, 1, 2), seven digits,
# the DNI letter of that number.
NIE = re.compile(r"(?<![\w\-])(?:[XYZ][ \-]?\d{7}[ \-]?[A-Z]|[xyz][ \-]?\d{7}[ \-]?[a-z])(?![\w\-])")
# Italian codice fiscale (Agenzia delle Entrate, DM 23 December 1976): three letters of the
# surname, three of the name, year, month letter, day (+40 for women), the Belfiore place code,
# a check letter; digits may be replaced by LMNPQRSTUV (omocodia). One case throughout.
CODICE_FISCALE = re.compile(
    r"(?i)(?<![A-Za-z0-9])[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]"
    r"(?![A-Za-z0-9])"
)
# Dutch BSN (Rijksoverheid, "Burgerservicenummer"; eleven-test): nine digits, printed 1234.56.782
# on identity documents; bare digits after a word naming it.
BSN_PRINTED = re.compile(NOT_A_TAIL + r"\d{4}\.\d{2}\.\d{3}(?![\w\-]|\.\d)")
# Brazilian CPF (Receita Federal, "Cadastro de Pessoas Físicas"; two mod-11 check digits): printed
# 123.456.789-09; bare digits after a word naming it.
CPF_PRINTED = re.compile(NOT_A_TAIL + r"\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w\-]|\.\d)")
CPF_NAMED = re.compile(
    r"(?i)\b(?:cpf|cadastro[ \t]+de[ \t]+pessoas?[ \t]+f[íi]sicas?)\b[^\d\n]{0,24}?"
    r"(?<![\d.\-])(?P<v>\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})(?![\w\-]|\.\d)"
)




# Identifiers whose printed shape is distinctive and whose check is strong count alone:
# Belgian national register number (Rijksregister/Registre national, YY.MM.DD-SSS.CC, 97 - n mod 97),
# Chilean RUT/RUN (SII, 12.345.678-K, mod 11), Swiss AHV/AVS number (ZAS, 756.XXXX.XXXX.XC, EAN-13),
# Finnish henkilötunnus (DVV, DDMMYY, a century sign, 3 digits and a mod-31 check character),
# Mexican CURP (RENAPO, 18 characters, a check digit over 37 symbols).
BE_NRN_PRINTED = re.compile(NOT_A_TAIL + r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}(?![\w\-]|\.\d)")
CL_RUT_PRINTED = re.compile(NOT_A_TAIL + r"(?<!\.)\d{1,2}\.\d{3}\.\d{3}-[\dkK](?![\w\-]|\.\d)")
CH_AHV_PRINTED = re.compile(NOT_A_TAIL + r"(?<!\.)756\.\d{4}\.\d{4}\.\d{2}(?![\w\-]|\.\d)")
FI_HETU = re.compile(NOT_A_TAIL + r"\d{6}[\-+A-FU-Y]\d{3}[0-9A-Y](?![\w\-])")
# Chinese resident identity number (GB 11643-1999): region, YYYYMMDD, serial, an ISO 7064 MOD 11-2
# check character (0-9 or X). The date and the check pass about one run of 18 digits in 10 000.
CN_RIC = re.compile(r"(?<![0-9A-Za-z\-+.])\d{17}[\dXx](?![0-9A-Za-z\-]|\.\d)")
MX_CURP = re.compile(r"(?<![A-Za-z0-9])[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z0-9]\d(?![A-Za-z0-9])")
# Where the check is weak (one number in ten: PESEL's 1-3-7-9 weights, the Swedish personnummer's
# and the South African ID's Luhn, the Korean RRN's; one in eleven: the Portuguese NIF, the
# Australian TFN, the Romanian CNP, the Japanese My Number) or absent (the Danish CPR since 2007),
# or the shape is a bare run of digits, the digits count only after a word that names the
# identifier. Each: (label, pattern, check, triggers).
NAMED_IDS: tuple[tuple[str, Named, Check, tuple[str, ...]], ...] = (
    # PESEL (Poland, Ministry of Digital Affairs): YYMMDD, serial, check digit.
    ("pl_pesel", named("pesel", r"\d{11}"), pesel.is_valid, ("pesel",)),
    # Swedish personnummer (Skatteverket): (YY)YYMMDD-NNNC, Luhn.
    ("se_personnummer", named(r"person(?:nummer|nr)|pnr|personal[ \t]+identity[ \t]+number", r"(?:\d{2})?\d{6}[\-+ ]?\d{4}"),
     lambda v: personnummer.is_valid(v), ("person", "pnr")),
    # Danish CPR-nummer (CPR-kontoret): DDMMYY-SSSS, the date only.
    ("dk_cpr", named(r"cpr(?:-?n(?:umme)?r)?", r"\d{6}[\- ]?\d{4}"), lambda v: dk_cpr_valid(v), ("cpr",)),
    # Norwegian fødselsnummer (Skatteetaten): DDMMYY and five digits, two mod-11 check digits.
    ("no_fnr", named(r"f[øo]dselsnummer(?:et)?|f\.?nr|personnummer", r"\d{6} ?\d{5}"),
     lambda v: fodselsnummer.is_valid(v), ("dselsnummer", "fnr", "f.nr", "personnummer")),
    # Belgian national register number, bare.
    ("be_nrn", named(r"rijksregister(?:nummer)?|num[ée]ro[ \t]+(?:de[ \t]+)?(?:registre[ \t]+)?national|registre[ \t]+national"
                     r"|nrn|insz|niss|national[ \t]+(?:register[ \t]+)?number", r"\d{11}|\d{6}[\- ]?\d{3}[\- .]?\d{2}"),
     lambda v: nn.is_valid(v), ("rijksregister", "national", "nrn", "insz", "niss")),
    # Portuguese NIF (Autoridade Tributária): 9 digits, mod 11.
    ("pt_nif", named(r"nif|nipc|contribuinte", r"\d{9}|\d{3} \d{3} \d{3}"), lambda v: nif.is_valid(v),
     ("nif", "nipc", "contribuinte")),
    # Chilean RUT/RUN, without the dots.
    ("cl_rut", named(r"rut|run|rol[ \t]+[úu]nico[ \t]+tributario", r"\d{7,8}-?[\dkK]|\d{1,2}\.\d{3}\.\d{3}-[\dkK]"),
     lambda v: rut.is_valid(v), ("rut", "run", "rol")),
    # Swiss AHV/AVS number, bare.
    ("ch_ahv", named(r"ahv|avs|sozialversicherungsnummer", r"756\d{10}"), lambda v: ahv.is_valid(v),
     ("ahv", "avs", "sozialvers")),
    # Australian Tax File Number (ATO): 8 or 9 digits, weighted mod 11.
    ("au_tfn", named(r"tfn|tax[ \t_]+file[ \t_]+(?:number|no)", r"\d{3} ?\d{3} ?\d{2,3}"), lambda v: tfn.is_valid(v),
     ("tfn", "tax file", "tax_file")),
    # South African ID number (Home Affairs): YYMMDD SSSS C A Z, Luhn.
    # "FICA" names the identity check South African banks and agents run under the Financial
    # Intelligence Centre Act (38 of 2001), whose document is the ID number ("FICA with ID …").
    ("za_id", named(r"(?:sa|rsa|south[ \t]+african)[ \t]+id|identity[ \t]+number|id[ \t]+number|identiteitsnommer|fica",
                    r"\d{13}|\d{6} \d{4} \d{3}"),
     lambda v: za_idnr.is_valid(v),
     ("sa id", "rsa id", "african id", "identity number", "id number", "identiteitsnommer", "fica")),
    # Romanian CNP (DEPABD): S YYMMDD JJ NNN C, weighted mod 11.
    ("ro_cnp", named(r"cnp|cod[ \t]+numeric[ \t]+personal", r"[1-9]\d{12}"), lambda v: cnp.is_valid(v), ("cnp", "cod numeric")),
    # South Korean resident registration number (Ministry of the Interior and Safety; the same
    # layout for foreigners' registration numbers): YYMMDD-SBBBBNC, weighted mod 11 taken mod 10.
    # Korean particles (는, 은, 이, 가) may follow the word.
    ("kr_rrn", named(r"(?:주민(?:등록)?번호|외국인[ \t]?등록[ \t]?번호)(?:는|은|이|가)?|rrn"
                     r"|resident[ \t]+registration[ \t]+(?:number|no)", r"\d{6}-?\d{7}"),
     lambda v: rrn.is_valid(v), ("주민", "등록", "rrn", "resident registration")),
    # Japanese Individual Number, My Number (Digital Agency; 12 digits, a mod-11 check digit),
    # written plain or 4-4-4; Japanese particles (は, が, の) may follow the word.
    ("jp_my_number", named(r"(?:マイナンバー|個人番号)(?:は|が|の)?|my[ \t]?number|individual[ \t]+number",
                           r"\d{12}|\d{4}(?P<s>[ \-])\d{4}(?P=s)\d{4}"),
     lambda v: my_number.is_valid(v), ("マイナンバー", "個人番号", "my number", "mynumber", "individual number")),
    # A US SSN, a Canadian SIN or an Aadhaar written as a bare run of digits. For an individual the
    # IRS's taxpayer identification number (TIN) is the SSN (IRS, "Taxpayer Identification Numbers").
    ("ssn", named(r"ssn|social[ \t]+security(?:[ \t]+(?:number|no))?|(?-i:TIN)|taxpayer[ \t]+identification[ \t]+(?:number|no)",
                  r"\d{9}"),
     lambda v: ssn_valid(v), ("ssn", "social", "tin", "taxpayer")),
    ("ca_sin", named(r"sin|nas|social[ \t]+insurance(?:[ \t]+number)?", r"\d{9}"), lambda v: sin_valid(v),
     ("sin", "nas", "social")),
    # Named in English or Hindi (आधार, "आधार नंबर").
    ("aadhaar", named(r"aadhaar|aadhar|uid|आधार(?:[ \t]+(?:नंबर|संख्या))?", r"\d{12}"), lambda v: aadhaar.is_valid(v),
     ("aadha", "uid", "आधार")),
    # Irish Personal Public Service Number (Department of Social Protection): seven digits, a check
    # letter (weighted mod 23) and since 2013 a second letter.
    ("ie_ppsn", named(r"ppsn?|pps[ \t]+(?:number|no)|personal[ \t]+public[ \t]+service[ \t]+(?:number|no)",
                      r"\d{7}[A-W][ABHTWX]?"),
     lambda v: pps.is_valid(v), ("pps", "personal public service")),
    # Singapore NRIC and FIN (ICA): S, T, F, G or M, seven digits, a check letter (sg_nric_valid).
    ("sg_nric", named(r"nric(?:[ \t]*/[ \t]*fin)?|fin|uin", r"[STFGM]\d{7}[A-Z]"), lambda v: sg_nric_valid(v),
     ("nric", "fin", "uin")),
    # Turkish identity number, T.C. Kimlik No (Nüfus ve Vatandaşlık İşleri, tckimlik.nvi.gov.tr): 11
    # digits, the first not 0, two check digits.
    ("tr_tckn", named(r"t\.?[ \t]?c\.?[ \t]+kimlik(?:[ \t]+(?:no|numaras[ıi]))?|tckn|t\.?[ \t]?c\.?[ \t]+no\.?"
                      r"|kimlik[ \t]+(?:no|numaras[ıi])",
                      r"[1-9]\d{10}"),
     lambda v: tckimlik.is_valid(v), ("kimlik", "tckn", "tc no", "t.c.")),
    # Israeli identity number, Mispar Zehut (Population and Immigration Authority): nine digits, the
    # last a Luhn-style check digit; written 12345678-9 too. Named in Hebrew (מספר זהות, תעודת זהות,
    # ת"ז), in English, or in Arabic as the Israeli identity number (رقم الهوية الإسرائيلية).
    ("il_tz", named(r"(?:מספר[ \t]+)?(?:תעודת[ \t]+)?ה?זהות|ת[\"״.]ז\.?|teudat[ \t]+zehut|mispar[ \t]+zehut"
                    r"|israeli[ \t]+id(?:entity)?(?:[ \t]+(?:card|number|no))*|(?:رقم[ \t]+)?(?:ال)?هوية[ \t]+(?:ال)?إسرائيلية",
                    r"\d{9}|\d{8}-\d"),
     lambda v: il_idnr.is_valid(v), ("זהות", "ת\"ז", "ת״ז", "ת.ז", "zehut", "israeli", "إسرائيلية")),
    # Argentine CUIT/CUIL (AFIP): a two-digit type (20, 23, 24, 27 persons; 30, 33, 34 companies), the
    # eight-digit DNI, a mod-11 check digit, written 20-12345678-3.
    ("ar_cuit", named(r"cuit|cuil|c\.u\.i\.[tl]\.?", r"\d{2}-?\d{8}-?\d"), lambda v: cuit.is_valid(v),
     ("cuit", "cuil", "c.u.i.")),
    # Estonian personal identification code, isikukood (Riigi Teataja, RT I 2012, 106032012004): sex
    # and century, YYMMDD, a serial, a check digit.
    ("ee_ik", named(r"isikukood\w*|(?:estonian[ \t]+)?personal[ \t]+(?:id(?:entification)?[ \t]+)?code", r"[1-6]\d{10}"),
     lambda v: ik.is_valid(v), ("isikukood", "personal code", "personal id code", "personal identification code")),
    # Dutch BSN, bare (its printed shape counts alone, BSN_PRINTED).
    ("nl_bsn", named(r"bsn|burgerservicenummer|sofi-?nummer", r"\d{9}|\d{4}\.\d{2}\.\d{3}|\d{3} \d{3} \d{3}"),
     lambda v: bsn.is_valid(v), ("bsn", "burgerservicenummer", "sofi")),
    # Bulgarian EGN, ЕГН (Единен граждански номер; GRAO): YYMMDD (month +20 or +40 for other centuries),
    # a serial, a weighted mod-11 check digit.
    ("bg_egn", named(r"егн|egn|единен[ \t]+граждански[ \t]+номер", r"\d{10}"), lambda v: egn.is_valid(v),
     ("егн", "egn", "граждански")),
    # Croatian OIB, osobni identifikacijski broj (Porezna uprava): 11 digits, ISO 7064 MOD 11,10; persons
    # and companies alike.
    ("hr_oib", named(r"oib|osobni[ \t]+identifikacijski[ \t]+broj", r"\d{11}"), lambda v: oib.is_valid(v),
     ("oib", "identifikacijski")),
    # Icelandic kennitala (Þjóðskrá Íslands): DDMMYY, two digits, a mod-11 check digit, the century;
    # written 120174-3399. "Kt." abbreviates it; "kennitalan" is its definite form.
    ("is_kennitala", named(r"kennital\w*|kt\.?", r"\d{6}-?\d{4}"), lambda v: kennitala.is_valid(v),
     ("kennital", "kt")),
    # Czech and Slovak birth number, rodné číslo (Ministry of the Interior): YYMMDD (month +50 for
    # women), "/", three or four digits; since 1954 the ten digits are divisible by 11.
    ("cz_rc", named(r"rodn[éeý]\w*[ \t]+[čc][íi]sl\w*|r\.?[ \t]?č\.?", r"\d{6}/?\d{3,4}"), lambda v: rc.is_valid(v),
     ("rodn", "rč", "r.č")),
    # A Chinese resident identity number after a word naming it, where python-stdnum does not know
    # the birthplace (its region table is not complete): the date and the ISO 7064 MOD 11-2 check.
    ("cn_ric", named(r"(?:居民)?身份[证證](?:号码|號碼|号|號)?(?:是|係|为|為)?", r"\d{17}[\dXx]"),
     lambda v: cn_ric_checked(v), ("身份证", "身份證")),
    # Slovenian EMŠO, enotna matična številka občana (Centralni register prebivalstva): DDMMYYY, a
    # region, a serial, a weighted mod-11 check digit.
    ("si_emso", named(r"em[šs]o|enotna[ \t]+mati[čc]na[ \t]+[šs]tevilka(?:[ \t]+ob[čc]ana)?", r"\d{13}"),
     lambda v: emso.is_valid(v), ("emšo", "emso", "matična", "maticna")),
    # Lithuanian personal code, asmens kodas (Gyventojų registras): sex and century, YYMMDD, a serial,
    # a check digit (the Estonian isikukood's layout and check).
    ("lt_asmens_kodas", named(r"asmens[ \t]+kod\w*|lithuanian[ \t]+personal[ \t]+code", r"[1-6]\d{10}"),
     lambda v: asmens.is_valid(v), ("asmens", "lithuanian personal")),
    # Austrian social insurance number, Versicherungsnummer (Dachverband der Sozialversicherungsträger):
    # three serial digits, a check digit (weights 3 7 9 5 8 4 2 1 6, mod 11), DDMMYY; written 1237 010180.
    ("at_svnr", named(r"sozialversicherungsnummer|(?:sv|versicherungs)[ \t\-]?(?:nummer|nr\.?)|svnr|svn",
                      r"\d{4} ?\d{6}"),
     lambda v: vnr.is_valid(v), ("sozialvers", "svnr", "svn", "sv-n", "sv n", "versicherungsn")),
    # Thai national identification number, เลขประจำตัวประชาชน (Department of Provincial Administration):
    # 13 digits, written 1-2345-67890-12-1, the last a weighted mod-11 check digit.
    ("th_national_id", named(r"เลขประจำตัวประชาชน|บัตรประชาชน|thai[ \t]+(?:national[ \t]+)?id(?:[ \t]+(?:card|number|no))*",
                             r"\d{13}|\d-\d{4}-\d{5}-\d{2}-\d"),
     lambda v: th_pin.is_valid(v), ("ประชาชน", "thai")),
    # Taiwanese national identification number, 身分證字號 (Ministry of the Interior): a letter for
    # the place of registration, 1 or 2 for the sex (8 or 9 for residents' certificates), seven
    # digits and a check digit (tw_national_id_valid).
    ("tw_national_id", named(r"身[分份][證证](?:字[號号]|[號号]碼|[號号])?"
                             r"|(?:taiwan(?:ese)?|roc)[ \t]+(?:national[ \t]+)?id(?:[ \t]+(?:card|number|no))*",
                             r"[A-Z][1289]\d{8}"),
     lambda v: tw_national_id_valid(v), ("身分證", "身份證", "身分证", "taiwan", "roc")),
)
# Indian PAN (Income Tax Department): five letters, the fourth the holder's type (P a person, C a
# company …), four digits, a letter; no check digit, so only after a word that names it.
IN_PAN = named(r"pan|permanent[ \t]+account[ \t]+(?:number|no)|पैन(?:[ \t]+(?:नंबर|कार्ड))?", r"[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]")
# Hong Kong identity card number (Immigration Department): one or two letters, six digits and a
# check digit (0-9 or A), printed in parentheses, ``A123456(7)``; only after a word that names it
# (HKID, 香港身份證). Six digits in a row: outside the seven-digit gate.
HK_HKID = named(r"hkid|hkic|hong[ \t]+kong[ \t]+id(?:entity)?(?:[ \t]+card)?(?:[ \t]+(?:number|no))?"
                r"|(?:香港)?身份[證证](?:號碼|号码)?(?:係|是|為|为)?",
                r"[A-Z]{1,2}\d{6}[ \t]?(?:\([0-9A]\)|[0-9A])")


# The check letter of a Singapore NRIC/FIN: weights 2, 7, 6, 5, 4, 3, 2 on the digits, plus 4 for the
# T and G series (born or issued from 2000), mod 11, looked up in the series' table; the M series
# (2022) adds 3 and reads its table from the end. python-stdnum has no module for it; this follows
# GovTech's FormSG (opengovsg/FormSG, shared/utils/nric-validation.ts).
SG_NRIC_WEIGHTS = (2, 7, 6, 5, 4, 3, 2)
SG_NRIC_LETTERS = {"S": (0, "JZIHGFEDCBA"), "T": (4, "JZIHGFEDCBA"), "F": (0, "XWUTRQPNMLK"), "G": (4, "XWUTRQPNMLK")}


def sg_nric_valid(value: str) -> bool:
    number = value.upper()
    if len(number) != 9 or not number[1:8].isdigit():
        return False
    total = sum(weight * int(digit) for weight, digit in zip(SG_NRIC_WEIGHTS, number[1:8], strict=True))
    if number[0] == "M":
        return number[8] == "KLJNPQRTUWX"[10 - (3 + total) % 11]
    start, letters = SG_NRIC_LETTERS.get(number[0], (0, ""))
    return bool(letters) and number[8] == letters[(start + total) % 11]


def hk_hkid_valid(value: str) -> bool:
    """The check digit of a Hong Kong identity card number. python-stdnum has no module for it; this
    follows the algorithm as the Immigration Department's card layout is documented (Wikipedia, "Hong
    Kong identity card", "Check digit"): a one-letter prefix is padded with a space worth 36, letters
    count A=10 … Z=35, weights 9 to 2 over the eight places, the check digit is 11 - (sum mod 11),
    with 10 written "A" and 11 written "0"."""
    number = "".join(ch for ch in value.upper() if ch.isalnum())
    prefix, digits, check = number[:-7], number[-7:-1], number[-1]
    if not (1 <= len(prefix) <= 2 and prefix.isalpha() and prefix.isascii() and digits.isdigit()):
        return False
    places = ([36] if len(prefix) == 1 else []) + [ord(ch) - 55 for ch in prefix] + [int(d) for d in digits]
    total = sum(weight * place for weight, place in zip(range(9, 1, -1), places, strict=True))
    return check == "0123456789A"[(11 - total % 11) % 11]


def cn_ric_valid(value: str) -> bool:
    """stdnum's check, which looks the birthplace up in its region table; for a code the table lists
    only as a prefecture it raises KeyError (python-stdnum 2.2, ``cn.ric.get_birth_place``): such a
    place is not one stdnum can confirm, so the number does not pass."""
    try:
        return ric.is_valid(value)
    except KeyError:
        return False


def cn_ric_checked(value: str) -> bool:
    number = value.upper()
    try:
        ric.get_birth_date(number)
    except ValueError:
        return False
    return mod_11_2.is_valid(number)


# The Taiwanese ID's letter as two digits (A-H 10-17, J-N 18-22, P-V 23-29, X 30, Y 31, W 32, Z 33,
# I 34, O 35); with the nine digits, weights 1 9 8 7 6 5 4 3 2 1 1, the sum is a multiple of ten.
TW_LETTERS = {letter: n for n, letter in enumerate("ABCDEFGHJKLMNPQRSTUVXYWZIO", start=10)}


def tw_national_id_valid(value: str) -> bool:
    if len(value) != 10 or value[0] not in TW_LETTERS or not value[1:].isdigit():
        return False
    digits = [*divmod(TW_LETTERS[value[0]], 10), *map(int, value[1:])]
    return sum(d * w for d, w in zip(digits, (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1), strict=True)) % 10 == 0


def dk_cpr_valid(value: str) -> bool:
    """A Danish CPR number's DDMMYY is a date, in either century. python-stdnum also reads the
    century from the seventh digit (CPR-kontoret's table: 5-8 with years 00-57 are 2000-2057) and
    refuses a birth date in the future, so ``011151-6391`` (2051) fails; in a field or after a word
    that names a CPR number it is still a person's number as written (mistyped or made up), and
    masking it costs nothing. Without such a name no CPR counts (the number has no check digit)."""
    digits = compact(value).replace("-", "")
    if len(digits) != 10 or not digits.isdigit():
        return False
    day, month, year = int(digits[:2]), int(digits[2:4]), int(digits[4:6])
    return any(valid_date(century + year, month, day) for century in (1900, 2000))


def valid_date(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def compact(value: str) -> str:
    return "".join(ch for ch in value if ch.isalnum()).upper()


def ssn_valid(value: str) -> bool:
    return ssn.is_valid(compact(value)) or compact(value) in SSN_SAMPLES


def sin_valid(value: str) -> bool:
    number = compact(value)
    return sin.is_valid(number) or (number in SIN_SAMPLES and luhn.is_valid(number))


# Every identifier but the NINO, the codice fiscale and the henkilötunnus (whose century sign since
# 2000 is a letter, ``111005A503N``) has seven digits or more in a row, with at most one space, dot,
# hyphen or slash (the Czech rodné číslo's, ``850908/6047``) between two of them: text without such a
# run skips them all.
SEVEN_DIGITS = re.compile(r"\d(?:[ .\-/]?\d){6}")


def nino_valid(value: str) -> bool:
    return value.isupper() or NINO_ALLOCATED.match(value.upper()) is not None


def one_case(value: str) -> bool:
    return value.isupper() or value.islower()


def checked(check: Check) -> Callable[[str, re.Match[str]], Span | None]:
    def locate(text: str, match: re.Match[str]) -> Span | None:
        return match.span() if check(match.group(0)) else None

    return locate


def checked_value(check: Check) -> Callable[[str, re.Match[str]], Span | None]:
    def locate(text: str, match: re.Match[str]) -> Span | None:
        return value_group(text, match) if check(match.group("v")) else None

    return locate


def sin_located(is_phone: PhoneCheck) -> Callable[[str, re.Match[str]], Span | None]:
    """A valid SIN, unless it also reads as a phone number and its line, before it, speaks of
    phones ("móvil 666 82 10 67, Lisboa 930 412 838") and not of a SIN."""
    def locate(text: str, match: re.Match[str]) -> Span | None:
        value = match.group(0)
        if not sin_valid(value):
            return None
        line = line_before(text, match.start())
        if SIN_WORDS.search(line[-48:]) or not PHONE_WORDS.search(line):
            return match.span()
        return None if is_phone(value, line) else match.span()

    return locate


ANY_ID: tuple[tuple[str, Named, Check], ...] = (
    *((label, name, check) for label, name, check, _ in NAMED_IDS),
    ("in_pan", IN_PAN, lambda v: pan.is_valid(v)), ("hk_hkid", HK_HKID, hk_hkid_valid),
    # a Brazilian CPF unpunctuated (``national_id=02353338917``): eleven digits, two mod-11 check digits
    ("br_cpf", named("cpf", r"\d{11}"), lambda v: cpf.is_valid(v)),
)


def national_id_detectors(is_phone: PhoneCheck) -> tuple[Detector, ...]:
    """``is_phone`` says whether a number reads as a phone number (of the configured regions)."""
    def pii(label: str, pattern: re.Pattern[str], check: Check) -> PatternDetector:
        return PatternDetector("PII", label, pattern, (), checked(check))

    def named_id(label: str, pattern: re.Pattern[str], check: Check, triggers: tuple[str, ...]) -> PatternDetector:
        return PatternDetector("PII", label, pattern, triggers, checked_value(check))

    numbers: tuple[Detector, ...] = (
        *(named_id(label, name.pattern, check, triggers) for label, name, check, triggers in NAMED_IDS),
        *(named_id(label, name.noted, check, triggers) for label, name, check, triggers in NAMED_IDS),
        *(HeadedColumn(label, name, check, (*triggers, *(t.replace(" ", "_") for t in triggers if " " in t)))
          for label, name, check, triggers in NAMED_IDS),
        pii("be_nrn", BE_NRN_PRINTED, lambda v: nn.is_valid(v)),
        pii("cl_rut", CL_RUT_PRINTED, lambda v: rut.is_valid(v)),
        pii("ch_ahv", CH_AHV_PRINTED, lambda v: ahv.is_valid(v)),
        pii("cn_ric", CN_RIC, cn_ric_valid),
        pii("ssn", SSN, ssn_valid),
        PatternDetector("PII", "ca_sin", SIN, (), sin_located(is_phone)),
        pii("fr_nir", NIR, lambda v: nir.is_valid(compact(v))),
        pii("de_tax_id", IDNR, lambda v: idnr.is_valid(compact(v))),
        pii("aadhaar", AADHAAR, lambda v: aadhaar.is_valid(compact(v))),
        pii("es_dni", DNI, lambda v: dni.is_valid(compact(v))),
        pii("es_nie", NIE, lambda v: nie.is_valid(compact(v))),
        pii("nl_bsn", BSN_PRINTED, lambda v: bsn.is_valid(v)),
        pii("br_cpf", CPF_PRINTED, lambda v: cpf.is_valid(v)),
        named_id("br_cpf", CPF_NAMED, lambda v: cpf.is_valid(v), ("cpf", "cadastro")),
    )
    return (
        Gated(SEVEN_DIGITS, numbers),
        pii("uk_nino", NINO, nino_valid),
        pii("fi_hetu", FI_HETU, lambda v: hetu.is_valid(v)),
        pii("it_codice_fiscale", CODICE_FISCALE, lambda v: one_case(v) and codicefiscale.is_valid(v)),
        pii("mx_curp", MX_CURP, lambda v: curp.is_valid(v)),
        PatternDetector("PII", "in_pan", IN_PAN.pattern, ("pan", "permanent account", "पैन"),
                        checked_value(lambda v: pan.is_valid(v))),
        PatternDetector("PII", "hk_hkid", HK_HKID.pattern, ("hkid", "hkic", "hong kong", "身份證", "身份证"),
                        checked_value(hk_hkid_valid)),
        HeadedColumn("in_pan", IN_PAN, lambda v: pan.is_valid(v), ()),
        HeadedColumn("hk_hkid", HK_HKID, hk_hkid_valid, ()),
        FieldNamed(ANY_ID),
        GenericNamed(FieldNamed(ANY_ID)),
        FailingRow(FieldNamed(ANY_ID)),
    )
