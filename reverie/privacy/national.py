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

from stdnum import luhn, verhoeff
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
from stdnum.ec import ci as ec_ci
from stdnum.ee import ik
from stdnum.es import dni, nie
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.gb import nhs
from stdnum.gr import amka
from stdnum.gr import vat as gr_afm
from stdnum.hr import oib
from stdnum.id import nik
from stdnum.ie import pps
from stdnum.il import idnr as il_idnr
from stdnum.in_ import aadhaar, pan
from stdnum.is_ import kennitala
from stdnum.iso7064 import mod_11_2
from stdnum.it import codicefiscale
from stdnum.jp import in_ as my_number
from stdnum.kr import rrn
from stdnum.lt import asmens
from stdnum.lv import pvn
from stdnum.mx import curp, rfc
from stdnum.my import nric as my_nric
from stdnum.nl import bsn
from stdnum.no import fodselsnummer
from stdnum.nz import ird
from stdnum.pk import cnic
from stdnum.pl import nip, pesel
from stdnum.pt import nif
from stdnum.ro import cnp
from stdnum.ru import inn
from stdnum.se import personnummer
from stdnum.si import emso
from stdnum.th import pin as th_pin
from stdnum.tr import tckimlik
from stdnum.ua import rntrc
from stdnum.us import itin, ssn
from stdnum.za import idnr as za_idnr

from reverie.privacy.findings import Detector, Gated, PatternDetector, Span, value_group
from reverie.privacy.id_records import AlignedIdColumn, PersonArrow
from reverie.privacy.named_ids import (
    BareIdLine,
    Check,
    FailingRow,
    FieldNamed,
    GenericNamed,
    HeadedColumn,
    Named,
    PersonRow,
    named,
)
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
    # Romanized: jumin (deungnok) beonho, "jumin_no".
    ("kr_rrn", named(r"(?:주민(?:등록)?번호|외국인[ \t]?등록[ \t]?번호)(?:는|은|이|가)?|rrn"
                     r"|resident[ \t]+registration[ \t]+(?:number|no)|jumin(?:[ \t]+deungnok)?(?:[ \t]+(?:beonho|no))?",
                     r"\d{6}-?\d{7}"),
     lambda v: kr_rrn_valid(v), ("주민", "등록", "rrn", "resident registration", "resident_registration", "jumin")),
    # Japanese Individual Number, My Number (Digital Agency; 12 digits, a mod-11 check digit),
    # written plain or 4-4-4; Japanese particles (は, が, の) may follow the word.
    ("jp_my_number", named(r"(?:マイナンバー|個人番号)(?:は|が|の)?|my[ \t]?number|individual[ \t]+number|kojin[ \t]+bang[oō]u?",
                           r"\d{12}|\d{4}(?P<s>[ \-])\d{4}(?P=s)\d{4}"),
     lambda v: my_number.is_valid(v), ("マイナンバー", "個人番号", "my number", "my_number", "mynumber", "individual number",
                                        "kojin")),
    # A US SSN, a Canadian SIN or an Aadhaar written as a bare run of digits. For an individual the
    # IRS's taxpayer identification number (TIN) is the SSN (IRS, "Taxpayer Identification Numbers").
    ("ssn", named(r"ssn|social[ \t]+security(?:[ \t]+(?:number|no))?|(?-i:TIN)|taxpayer[ \t]+identification[ \t]+(?:number|no)",
                  r"\d{9}"),
     lambda v: ssn_valid(v), ("ssn", "social", "tin", "taxpayer")),
    # … in French too: "numéro d'assurance sociale" (Service Canada, "Numéro d'assurance sociale").
    ("ca_sin", named(r"sin|nas|social[ \t]+insurance(?:[ \t]+number)?|(?:num[ée]ro[ \t]+d['’][ \t]?)?assurance[ \t]+sociale",
                     r"\d{9}"), lambda v: sin_valid(v),
     ("sin", "nas", "social", "assurance sociale")),
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
    # … or as its pinyin initials, sfzh (shēnfènzhèng hào), a column's usual name.
    ("cn_ric", named(r"(?:居民)?身份[证證](?:号码|號碼|号|號)?(?:是|係|为|為)?|sfzh", r"\d{17}[\dXx]"),
     lambda v: cn_ric_checked(v), ("身份证", "身份證", "sfzh")),
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
    ("th_national_id", named(r"เลข(?:ประจำตัว|บัตร)ประชาชน|บัตรประชาชน"
                             r"|(?:thai|th)[ \t]+(?:national[ \t]+)?id(?:[ \t]+(?:card|number|no))*",
                             r"\d{13}|\d(?P<s>[ \-])\d{4}(?P=s)\d{5}(?P=s)\d{2}(?P=s)\d"),
     lambda v: th_pin.is_valid(v), ("ประชาชน", "thai", "th national", "th_national", "thnational")),
    # Taiwanese national identification number, 身分證字號 (Ministry of the Interior): a letter for
    # the place of registration, 1 or 2 for the sex (8 or 9 for residents' certificates), seven
    # digits and a check digit (tw_national_id_valid).
    # Its full name: 中華民國國民身分證統一編號, "uniform number of the national identity card".
    ("tw_national_id", named(r"(?:國民)?身[分份][證证](?:字[號号]|[號号]碼|[號号]|統一編號)?"
                             r"|(?:taiwan(?:ese)?|roc)[ \t]+(?:national[ \t]+)?id(?:[ \t]+(?:card|number|no))*",
                             r"[A-Z][1289]\d{8}"),
     lambda v: tw_national_id_valid(v), ("身分證", "身份證", "身分证", "taiwan", "roc")),
    # --- identifiers new in world12 ---
    # UK NHS number (NHS Digital, "NHS number"): ten digits written 3-3-4, a mod-11 check digit.
    ("gb_nhs_number", named(r"nhs(?:[ \t]+(?:number|no\.?|num))?", r"\d{3}(?P<s>[ \-]?)\d{3}(?P=s)\d{4}"),
     lambda v: nhs.is_valid(v), ("nhs",)),
    # US Individual Taxpayer Identification Number (IRS, "ITIN"): 9XX-7X-XXXX, the group 50-65, 70-88,
    # 90-92 or 94-99; no check digit. Its 3-2-4 shape also counts alone (ITIN_PRINTED), as the SSN's.
    ("us_itin", named(r"itin|individual[ \t]+taxpayer[ \t]+identification[ \t]+(?:number|no)",
                      r"9\d{2}(?P<s>[ \-]?)\d{2}(?P=s)\d{4}"),
     lambda v: itin.is_valid(v), ("itin", "individual taxpayer")),
    # Australian Medicare card number (Services Australia): ten digits written 4-5-1, the ninth a
    # weighted check digit (au_medicare_valid), the tenth the card's issue number, then optionally
    # the person's reference number (IRN).
    ("au_medicare", named(r"medicare(?:[ \t]+card)?(?:[ \t]+(?:number|no\.?|num))?",
                          r"[2-6]\d{3}(?P<s>[ \-]?)\d{5}(?P=s)\d(?:[ \-/]?[1-9])?"),
     lambda v: au_medicare_valid(v), ("medicare",)),
    # New Zealand IRD number (Inland Revenue, Te Tari Tāke): eight or nine digits, written 123-456-789,
    # a weighted mod-11 check digit.
    ("nz_ird", named(r"ird(?:[ \t]+(?:number|no\.?|num))?|inland[ \t]+revenue[ \t]+(?:number|no)",
                     r"\d{2,3}(?P<s>[ \-]?)\d{3}(?P=s)\d{3}"),
     lambda v: ird.is_valid(v), ("ird", "inland revenue")),
    # Russian taxpayer number, ИНН (Федеральная налоговая служба): 12 digits for a person (two check
    # digits), 10 for an organisation (one).
    ("ru_inn", named(r"инн|inn", r"\d{12}|\d{10}"), lambda v: inn.is_valid(v), ("инн", "inn")),
    # Russian insurance number, СНИЛС (Социальный фонд России): XXX-XXX-XXX YY, a weighted mod-101
    # check number (ru_snils_valid).
    ("ru_snils", named(r"снилс|snils|страховой[ \t]+номер", r"\d{3}(?P<s>[ \-]?)\d{3}(?P=s)\d{3}[ \-]?\d{2}"),
     lambda v: ru_snils_valid(v), ("снилс", "snils", "страховой номер")),
    # Ukrainian taxpayer number, РНОКПП (formerly ІПН; Державна податкова служба): ten digits, the
    # first five the days since 31 December 1899, a weighted mod-11 check digit.
    ("ua_rnokpp", named(r"рнокпп|rnokpp|іпн|ipn|ідентифікаційний[ \t]+(?:податковий[ \t]+)?номер", r"\d{10}"),
     lambda v: rntrc.is_valid(v), ("рнокпп", "rnokpp", "іпн", "ipn", "ідентифікаційний")),
    # Kazakh individual identification number, ИИН / ЖСН (Ministry of Justice): YYMMDD, a century and
    # sex digit, a serial, a two-pass weighted mod-11 check digit (kz_iin_valid).
    ("kz_iin", named(r"иин|iin|жсн|индивидуальный[ \t]+идентификационный[ \t]+номер", r"\d{12}"),
     lambda v: kz_iin_valid(v), ("иин", "iin", "жсн", "индивидуальный")),
    # Greek social security number, ΑΜΚΑ (ΗΔΙΚΑ): DDMMYY, four digits, a Luhn check digit.
    ("gr_amka", named(r"αμκα|amka|α\.μ\.κ\.α\.?", r"\d{11}"), lambda v: amka.is_valid(v), ("αμκα", "amka", "α.μ.κ.α")),
    # Greek tax number, ΑΦΜ (ΑΑΔΕ): nine digits, a weighted mod-11 check digit.
    ("gr_afm", named(r"αφμ|afm|α\.φ\.μ\.?", r"\d{9}"), lambda v: gr_afm.is_valid(v), ("αφμ", "afm", "α.φ.μ")),
    # Hungarian social security number, TAJ szám (NEAK): nine digits written 123 456 789, a weighted
    # check digit (hu_taj_valid).
    ("hu_taj", named(r"taj(?:[ \t]+sz[áa]m)?|t\.a\.j\.", r"\d{3}(?P<s>[ \-]?)\d{3}(?P=s)\d{3}"),
     lambda v: hu_taj_valid(v), ("taj", "t.a.j")),
    # Hungarian tax identification number, adóazonosító jel (NAV): 8, the days since 1 January 1867,
    # a serial, a weighted mod-11 check digit (hu_tax_id_valid).
    ("hu_tax_id", named(r"ad[óo][ \t]?azonos[íi]t[óo](?:[ \t]+jel)?|ad[óo]sz[áa]m", r"8\d{9}"),
     lambda v: hu_tax_id_valid(v), ("adóazonosító", "adoazonosito", "adó azonosító", "adószám", "adoszam")),
    # Latvian personal code, personas kods (PMLP): DDMMYY-CNNNN with a check digit, or since 2017
    # 32NNNN-NNNNN (python-stdnum's PVN, whose personal codes these are).
    ("lv_personas_kods", named(r"personas[ \t]+kod\w*|latvian[ \t]+personal[ \t]+code", r"\d{6}-?\d{5}"),
     lambda v: lv_personas_kods_valid(v), ("personas", "latvian personal")),
    # Mexican taxpayer registry number, RFC (SAT): four letters of the name, YYMMDD, a three-character
    # homoclave whose last is a check character. Six digits in a row: outside the seven-digit gate
    # (MX_RFC below).
    # Uruguayan identity card number, cédula de identidad (DNIC): seven digits and a check digit,
    # written 1.234.567-2 (uy_ci_valid).
    ("uy_ci", named(r"c[ée]dula(?:[ \t]+de[ \t]+identidad)?|c\.[ \t]?i\.", r"\d{1,2}\.?\d{3}\.?\d{3}-?\d|\d{6,7}-?\d"),
     lambda v: uy_ci_valid(v), ("cedula", "cédula", "c.i.", "c. i.")),
    # Ecuadorian identity card number, cédula (Registro Civil): ten digits, the province first, a
    # weighted check digit.
    ("ec_cedula", named(r"(?:n[úu]mero[ \t]+de[ \t]+)?c[ée]dula(?:[ \t]+de[ \t]+(?:identidad|ciudadan[íi]a))?", r"\d{10}"),
     lambda v: ec_ci.is_valid(v), ("cedula", "cédula")),
    # Luxembourg national identification number, matricule (CNS, CCSS): YYYYMMDD, a serial, a Luhn
    # and a Verhoeff check digit (lu_matricule_valid).
    ("lu_matricule", named(r"matricule(?:[ \t]+national)?|num[ée]ro[ \t]+d['’][ \t]?identification(?:[ \t]+national)?"
                           r"|identifiant[ \t]+national|luxembourg(?:ish)?[ \t]+national[ \t]+id",
                           r"\d{4}[ ]?\d{2}[ ]?\d{2}[ ]?\d{3}[ ]?\d{2}"),
     lambda v: lu_matricule_valid(v), ("matricule", "identification", "identifiant", "luxembourg")),
    # Polish tax identification number, NIP (Ministerstwo Finansów): ten digits written 123-456-32-18
    # or 123-45-67-819, a weighted mod-11 check digit.
    ("pl_nip", named(r"nip|numer[ \t]+identyfikacji[ \t]+podatkowej",
                     r"\d{3}-?\d{3}-?\d{2}-?\d{2}|\d{3}-\d{2}-\d{2}-\d{3}"),
     lambda v: nip.is_valid(v), ("nip", "identyfikacji")),
    # Saudi national identity number, رقم الهوية الوطنية (Absher; for residents the iqama): ten digits,
    # 1 for citizens or 2 for residents first, a Luhn check digit.
    ("sa_national_id", named(r"رقم[ \t]+(?:ال)?هوية(?:[ \t]+(?:ال)?وطنية)?|(?:ال)?هوية[ \t]+(?:ال)?وطنية|iqama|رقم[ \t]+الإقامة"
                             r"|saudi[ \t]+(?:national[ \t]+)?id(?:[ \t]+(?:number|no))?",
                             r"[12]\d{9}"),
     lambda v: luhn.is_valid(v), ("هوية", "iqama", "الإقامة", "saudi")),
    # Emirates ID (ICP): 784-YYYY-NNNNNNN-C, 784 the country, the year of birth, a Luhn check digit.
    # Printed with its hyphens it counts alone (AE_EID_PRINTED).
    ("ae_emirates_id", named(r"emirates[ \t]+id(?:[ \t]+(?:card|number|no))*|eid|الهوية[ \t]+الإماراتية",
                             r"784-?\d{4}-?\d{7}-?\d"),
     lambda v: ae_emirates_id_valid(v), ("emirates", "eid", "الإماراتية")),
    # German pension insurance number, Rentenversicherungsnummer or Sozialversicherungsnummer (Deutsche
    # Rentenversicherung): area, DDMMYY, the birth name's initial, a serial, a check digit (de_svnr_valid).
    ("de_svnr", named(r"(?:renten|sozial)?versicherungs(?:nummer|nr\.?)|rvnr|sv[ \t\-]?(?:nummer|nr\.?)|svnr",
                      r"\d{2}[ ]?\d{6}[ ]?[A-Za-z][ ]?\d{3}"),
     lambda v: de_svnr_valid(v), ("versicherungs", "rvnr", "sv-n", "sv n", "svn")),
    # Malaysian identity card number, MyKad / No. Kad Pengenalan (JPN): YYMMDD-PB-###G, the place of
    # birth a state or country code.
    ("my_nric", named(r"(?:no\.?[ \t]+)?(?:mykad|kad[ \t]+pengenalan|k/p)|ic[ \t]+(?:no|number)|nric",
                      r"\d{6}(?P<s>-?)\d{2}(?P=s)\d{4}"),
     lambda v: my_nric.is_valid(v), ("mykad", "pengenalan", "k/p", "ic no", "ic number", "nric")),
    # Indonesian population identity number, NIK (Dukcapil): province, regency, district, DDMMYY (day
    # +40 for women), a serial.
    ("id_nik", named(r"nik|nomor[ \t]+induk[ \t]+kependudukan|(?:no\.?[ \t]+)?ktp", r"\d{16}"),
     lambda v: nik.is_valid(v), ("nik", "induk", "ktp")),
    # Pakistani computerised national identity card number, CNIC (NADRA): 12345-1234567-1, the first
    # digit the province, the last the sex.
    ("pk_cnic", named(r"cnic|nicop|شناختی[ \t]+کارڈ", r"\d{5}(?P<s>-?)\d{7}(?P=s)\d"),
     lambda v: cnic.is_valid(v), ("cnic", "nicop", "شناختی")),
)
# The Mexican RFC, after a word that names it (six digits in a row: outside the seven-digit gate).
MX_RFC = named(r"rfc|registro[ \t]+federal[ \t]+de[ \t]+contribuyentes", r"[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}")
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


# ---- checks python-stdnum does not have -----------------------------------------------------------

def kr_rrn_valid(value: str) -> bool:
    """python-stdnum's check of a Korean RRN without its place-of-birth rule (digits 8-9 at most 96):
    since October 2020 the digits after the sex digit are assigned at random (Ministry of the Interior
    and Safety, "주민등록번호 부여체계 개편"), so a number given or changed since may have any there. The date
    and the check digit, which every number issued before then carries, are required."""
    number = compact(value)
    if len(number) != 13 or not number.isdigit():
        return False
    try:
        rrn.get_birth_date(number)
    except ValueError:
        return False
    return number[-1] == rrn.calc_check_digit(number[:-1])


def digits_of(value: str) -> list[int]:
    return [int(ch) for ch in value if ch.isdigit()]


def au_medicare_valid(value: str) -> bool:
    """Services Australia's Medicare card number: the first digit 2 to 6, the ninth the sum of the
    first eight weighted 1 3 7 9 1 3 7 9, mod 10 (the algorithm as published with the card's format,
    e.g. Wikipedia "Medicare card (Australia)"); the tenth the issue number, then the IRN."""
    digits = digits_of(value)
    if len(digits) not in (10, 11) or not 2 <= digits[0] <= 6:
        return False
    return sum(w * d for w, d in zip((1, 3, 7, 9, 1, 3, 7, 9), digits, strict=False)) % 10 == digits[8]


def ru_snils_valid(value: str) -> bool:
    """СНИЛС's check number (Pension Fund of Russia's rule, Постановление Правления ПФР 1996): the nine
    digits weighted 9 to 1; a sum under 100 is the check, 100 and 101 give 00, a larger sum is taken
    mod 101 first (100 again giving 00). Numbers up to 001-001-998 carry no check."""
    digits = digits_of(value)
    if len(digits) != 11:
        return False
    if int("".join(map(str, digits[:9]))) <= 1001998:
        return False
    total = sum(w * d for w, d in zip(range(9, 0, -1), digits[:9], strict=True))
    check = total if total < 100 else total % 101
    return (0 if check >= 100 else check) == digits[9] * 10 + digits[10]


def kz_iin_valid(value: str) -> bool:
    """The Kazakh ИИН: YYMMDD a date, the seventh digit 1 to 6 (century and sex), the twelfth the
    sum of the first eleven weighted 1 to 11 mod 11, or when that is 10 weighted 3 to 11, 1, 2 mod 11
    (Ministry of Justice order on ИИН; a second 10 is never issued)."""
    digits = digits_of(value)
    if len(digits) != 12 or not 1 <= digits[6] <= 6:
        return False
    century = 1800 + 100 * ((digits[6] + 1) // 2)
    if not valid_date(century + digits[0] * 10 + digits[1], digits[2] * 10 + digits[3], digits[4] * 10 + digits[5]):
        return False
    check = sum(w * d for w, d in zip(range(1, 12), digits, strict=False)) % 11
    if check == 10:
        check = sum(w * d for w, d in zip((3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2), digits, strict=False)) % 11
    return check < 10 and check == digits[11]


def hu_taj_valid(value: str) -> bool:
    """The TAJ szám's ninth digit: the odd places of the first eight weighted 3, the even 7, mod 10
    (NEAK; 1996. évi XX. törvény)."""
    digits = digits_of(value)
    return len(digits) == 9 and sum((3, 7)[i % 2] * d for i, d in enumerate(digits[:8])) % 10 == digits[8]


def hu_tax_id_valid(value: str) -> bool:
    """The adóazonosító jel: 8, five digits counting the days from 1 January 1867 to the birth, a
    serial, and the first nine weighted 1 to 9 mod 11 as the tenth (a 10 is not issued;
    146/1993. (X. 26.) Korm. rendelet)."""
    digits = digits_of(value)
    if len(digits) != 10 or digits[0] != 8:
        return False
    check = sum(w * d for w, d in zip(range(1, 10), digits, strict=False)) % 11
    return check < 10 and check == digits[9]


def lv_personas_kods_valid(value: str) -> bool:
    """A Latvian personal code as python-stdnum's PVN checks it: DDMMYY, a century digit and a check
    digit, or (since 2017) "32" and a check digit. A company's PVN (first digit over 3) is not one."""
    digits = "".join(ch for ch in value if ch.isdigit())
    return (digits[0] <= "3") and pvn.is_valid(digits)


def uy_ci_valid(value: str) -> bool:
    """The Uruguayan cédula's check digit (DNIC): the seven digits (six padded with a 0) weighted 2 9 8
    7 6 3 4, the check the amount that rounds the sum up to a multiple of ten."""
    digits = digits_of(value)
    if not 7 <= len(digits) <= 8:
        return False
    body = [0] * (8 - len(digits)) + digits[:-1]
    return (-sum(w * d for w, d in zip((2, 9, 8, 7, 6, 3, 4), body, strict=True))) % 10 == digits[-1]


def lu_matricule_valid(value: str) -> bool:
    """The Luxembourg matricule (Règlement grand-ducal of 2013 on the identification of natural persons):
    YYYYMMDD a date, a serial, then a Luhn and a Verhoeff check digit, each over the first eleven."""
    digits = "".join(ch for ch in value if ch.isdigit())
    if len(digits) != 13 or not valid_date(int(digits[:4]), int(digits[4:6]), int(digits[6:8])):
        return False
    return luhn.is_valid(digits[:11] + digits[11]) and verhoeff.is_valid(digits[:11] + digits[12])


def ae_emirates_id_valid(value: str) -> bool:
    """Emirates ID: 784, a plausible year of birth, and a Luhn check over the fifteen digits."""
    digits = "".join(ch for ch in value if ch.isdigit())
    return len(digits) == 15 and digits.startswith("784") and 1900 <= int(digits[3:7]) <= 2030 and luhn.is_valid(digits)


# Deutsche Rentenversicherung's weights for the twelve digits of a Versicherungsnummer with the letter
# written as its place in the alphabet (01-26): the cross sums of the products, mod 10, are the check digit.
DE_SVNR_WEIGHTS = (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1)


def de_svnr_valid(value: str) -> bool:
    """A German Versicherungsnummer: two digits of area, DDMMYY, the birth name's initial, two digits
    of serial, a check digit (DRV, "Aufbau der Versicherungsnummer"; VKVV § 2)."""
    compact_value = "".join(ch for ch in value if ch.isalnum()).upper()
    if len(compact_value) != 12 or not compact_value[8].isalpha() or not (compact_value[:8] + compact_value[9:]).isdigit():
        return False
    day, month = int(compact_value[2:4]), int(compact_value[4:6])
    if not (1 <= day <= 31 and 1 <= month <= 12):
        return False
    number = compact_value[:8] + f"{ord(compact_value[8]) - 64:02d}" + compact_value[9:11]
    total = sum(sum(divmod(w * int(d), 10)) for w, d in zip(DE_SVNR_WEIGHTS, number, strict=True))
    return total % 10 == int(compact_value[11])


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


# The Steuer-IdNr in a field named as one (``steuer_id``, ``tax_id``), also grouped with slashes as a
# form writes it (``51/976/036/245``), which alone reads as a path or a fraction.
DE_TAX_ID = named(r"steuer[ \t\-]?id(?:[ \t\-]?nr\.?)?|steuerliche[ \t]+identifikationsnummer|(?:tax|steuer)[ \t]+id",
                  r"\d{11}|\d{2}(?P<s>[ /])\d{3}(?P=s)\d{3}(?P=s)\d{3}")
BR_CPF = named("cpf", r"\d{11}")
# The Finnish henkilötunnus counts alone (FI_HETU), and a Danish CPR only after its word: in a field
# named only as a national identifier the henkilötunnus, whose check character a CPR passes one time in
# 31, is tried first.
FI_HETU_NAMED = named(r"henkil[öo]tunnus|hetu|personbeteckning", r"\d{6}[\-+A-FU-Y]\d{3}[0-9A-Y]")
ANY_ID: tuple[tuple[str, Named, Check], ...] = (
    ("fi_hetu", FI_HETU_NAMED, lambda v: hetu.is_valid(v)),
    *((label, name, check) for label, name, check, _ in NAMED_IDS),
    ("in_pan", IN_PAN, lambda v: pan.is_valid(v)), ("hk_hkid", HK_HKID, hk_hkid_valid),
    # a Brazilian CPF unpunctuated (``national_id=02353338917``): eleven digits, two mod-11 check digits
    ("br_cpf", BR_CPF, lambda v: cpf.is_valid(v)),
    ("mx_rfc", MX_RFC, lambda v: rfc.is_valid(v)),
    ("de_tax_id", DE_TAX_ID, lambda v: idnr.is_valid(compact(v))),
)
# The ITIN printed 3-2-4 counts alone, as the SSN does (its area 9XX is one no SSN has); so does the
# Emirates ID printed 784-YYYY-NNNNNNN-C.
ITIN_PRINTED = re.compile(NOT_A_TAIL + r"9\d{2}(?P<s>[\- ])\d{2}(?P=s)\d{4}(?![\w\-])")
AE_EID_PRINTED = re.compile(NOT_A_TAIL + r"784-\d{4}-\d{7}-\d(?![\w\-])")


def spellings(triggers: tuple[str, ...]) -> tuple[str, ...]:
    """Triggers with a space also as code spells them (``sa_id``, ``sa-id``, ``said`` for ``SaId``;
    triggers are matched against the lower-cased text)."""
    return tuple(dict.fromkeys((*triggers, *(t.replace(" ", sep) for t in triggers if " " in t for sep in ("_", "-", "")))))


def national_id_detectors(is_phone: PhoneCheck) -> tuple[Detector, ...]:
    """``is_phone`` says whether a number reads as a phone number (of the configured regions)."""
    def pii(label: str, pattern: re.Pattern[str], check: Check) -> PatternDetector:
        return PatternDetector("PII", label, pattern, (), checked(check))

    def named_id(label: str, pattern: re.Pattern[str], check: Check, triggers: tuple[str, ...]) -> PatternDetector:
        return PatternDetector("PII", label, pattern, triggers, checked_value(check))

    numbers: tuple[Detector, ...] = (
        *(named_id(label, name.pattern, check, spellings(triggers)) for label, name, check, triggers in NAMED_IDS),
        *(named_id(label, name.noted, check, spellings(triggers)) for label, name, check, triggers in NAMED_IDS),
        *(HeadedColumn(label, name, check, spellings(triggers)) for label, name, check, triggers in NAMED_IDS),
        HeadedColumn("br_cpf", BR_CPF, lambda v: cpf.is_valid(v), ("cpf",)),
        pii("us_itin", ITIN_PRINTED, lambda v: itin.is_valid(v)),
        pii("ae_emirates_id", AE_EID_PRINTED, ae_emirates_id_valid),
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
        PersonArrow(FieldNamed(ANY_ID)),
        AlignedIdColumn(FieldNamed(ANY_ID), GenericNamed.triggers + tuple(t for *_, ts in NAMED_IDS for t in spellings(ts))),
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
        PatternDetector("PII", "mx_rfc", MX_RFC.pattern, ("rfc", "registro federal"), checked_value(lambda v: rfc.is_valid(v))),
        HeadedColumn("in_pan", IN_PAN, lambda v: pan.is_valid(v), ()),
        HeadedColumn("hk_hkid", HK_HKID, hk_hkid_valid, ()),
        HeadedColumn("mx_rfc", MX_RFC, lambda v: rfc.is_valid(v), ("rfc",)),
        FieldNamed(ANY_ID),
        GenericNamed(FieldNamed(ANY_ID)),
        FailingRow(FieldNamed(ANY_ID)),
        BareIdLine(FieldNamed(ANY_ID)),
        PersonRow(FieldNamed(ANY_ID)),
    )
