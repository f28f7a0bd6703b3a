"""Contact details: email addresses, phone numbers and URLs.

- ``EmailDetector`` (``email``): a practical RFC 5322 address (dot-atom local part,
  host names with a letter TLD), not the user part of a URL (``https://user@host``)
  and not a file name such as ``icon@2x.png``;
- ``PhoneDetector`` (``phone``): numbers that ``phonenumbers`` says are valid, written
  as that country writes them (its trunk prefix where its numbers are written with
  one: ``07458 912306``, not ``7458 912306``); a number written without ``+`` and a
  country code is tried in the plans of the ``regions`` given, or, without
  ``regions``, of the countries the text points at (US always; the country codes,
  country domains, language and script of the text: ``tripwire.detectors.regions``;
  right after a phone word such as "Tel.", "Fax" or "Mobil", those of the countries of
  English, German, French and Spanish too; and a number grouped as only one country
  writes them, ``06 12 34 56 78``, ``612 34 56 78``, ``07911 123456``, in its plan). A dash and one or two digits after a
  number are its extension (``0221 9438-0``, ``0561 93188-0 · Fax``), left out; a
  number with its country code may stand after ``=`` or before the ``@`` of a dial
  string (``caller_id=+49...``, ``[+34915527840@entrantes:1]``).
  Dates, IP addresses, ISBNs, version strings, amounts and numbers after "order",
  "invoice", "#", "n°", "Kundennummer", "pedido", ... are not phone numbers (a phone's
  "Nr." is not an identifier's: "Tel.-Nr.", "Phone no."), and bare
  digits (no separator) are one only after a word that says so ("tel", "phone",
  "Handy", "portable", "móvil", "call", ...; else they score 0.5, under
  ``pii-detector``'s threshold). Needs ``pip install 'tripwire[guardrails]'``;
- ``UrlDetector`` (``url``, ``url-credentials``): ``http``, ``https`` and ``ftp`` URLs
  and bare ``www.`` ones, without the punctuation that ends a sentence or a bracket
  around them (``url``); a URL or connection string of any scheme that carries a
  password (``postgres://user:password@host/db``, ``mongodb+srv://...``,
  ``redis://:password@host``, ``jdbc:mysql://...``), whole from its scheme to its end
  (``url-credentials``; a template password such as ``password``, ``***`` or
  ``${DB_PASSWORD}`` is none). Such a URL is reported as ``url`` too when its scheme is
  a web one, with a lower score, so that asking for ``url`` alone still covers it and
  ``merge`` keeps ``url-credentials`` when both are wanted.

Each scans the text with one compiled pattern whose first character is a literal or a
small class (so the regex engine skips ahead in C) and validates only what it finds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from tripwire.detectors import _views
from tripwire.detectors._numbering import international_valid, national_valid
from tripwire.detectors.financial import card_issuer, in_grouped_iban, luhn_is_valid
from tripwire.detectors.regions import (
    DEFAULT_REGIONS,
    EVIDENCE,
    LANGUAGE_REGIONS,
    NEAR,
    region_map,
)
from tripwire.errors import ConfigurationError, MissingDependencyError
from tripwire.guards.verdicts import Detection
from tripwire.guards.window_start import run_start, trailing_run

__all__ = ["EmailDetector", "PhoneDetector", "UrlDetector", "url_password", "webhook_end"]


# ---------------------------------------------------------------------------- email

# The local part: letters, digits and ``. _ % + -`` (what addresses use in practice;
# RFC 5322 also allows ``! # $ & ' * / = ? ^ ` { | } ~``, which in chat text are far
# more often punctuation around an address than part of it).
_LOCAL_CHAR = re.compile(r"[\w.%+\-]")
# Where the local part before an "@" starts: after the last character that cannot be in
# it (one greedy pass, whatever the text before the "@" looks like).
_LOCAL_STOP = re.compile(r"(?s).*[^\w.%+\-]")
# The domain: labels of letters, digits and inner hyphens, then a TLD of letters (or an
# IDN's ``xn--`` form); nothing word-like right after it.
_DOMAIN_PATTERN = (
    r"(?:[^\W_](?:(?:[^\W_]|-){0,61}[^\W_])?\.){1,10}"
    r"([^\W\d_]{2,63}|[Xx][Nn]--[A-Za-z0-9\-]{1,59})(?![\w\-]|\.[^\W_])")
_DOMAIN = re.compile(_DOMAIN_PATTERN)
# An "@" with a domain after it: the regex engine skips every other "@" (``"a@" *
# 500_000``: a text of candidates that are none) without a step in Python.
_AT = re.compile(rf"@(?={_DOMAIN_PATTERN})")
# An image's scale before its extension: "icon@2x.png", "crash_0603@2x.ips".
_SCALE = re.compile(r"[1-9]x\.")
# File extensions that are not TLDs: ``icon@2x.png``, ``logo@3x.webp``, ``pkg@1.2.tgz``.
_NOT_TLDS = frozenset("""
    png jpg jpeg gif svg webp bmp ico tif tiff heic avif psd css scss less js mjs cjs jsx
    ts tsx json yaml yml toml xml html htm txt csv tsv pdf doc docx xls xlsx ppt pptx odt
    exe dll dylib lock wav ogg flac webm mkv avi woff woff2 ttf otf eot tar gz tgz bz2 xz
    rar whl egg pyc pyo java class jar kt kts rb php swift scala sql log ini cfg conf env
    bak tmp swp orig patch diff proto wasm vue svelte ipynb
""".split())


class EmailDetector:
    """Email addresses (type ``email``)."""

    name = "email"
    types = ("email",)
    max_length = 254  # RFC 5321: the longest address a mail path can carry
    #: Before an address: the rest of its word up to 256 characters (a URL's user info).
    lookbehind = 257
    #: An address holds no white space: only the last word can be one not complete yet.
    hold_from = staticmethod(run_start)

    def detect(self, text: str) -> Iterable[Detection]:
        return self.detect_from(text, 0)

    @_views.reads_folded
    def detect_from(self, text: str, since: int) -> Iterable[Detection]:
        """``detect``'s detections that start at ``since`` or after, and some before:
        the ``@`` before ``since`` are not judged (an address has one ``@``, after its
        start)."""
        found: list[Detection] = []
        if "@" not in text:  # a memchr: most text has no address at all
            return found
        covered = 0
        for m in _AT.finditer(text, since):
            at = m.start()
            if at < covered or not at or _LOCAL_CHAR.match(text, at - 1) is None:
                continue
            hit = self._at(text, at)
            if hit is not None:
                start, covered = hit
                found.append(Detection("email", start, covered, 1.0, self.name,
                                       text[start:covered]))
        return found

    def _at(self, text: str, at: int) -> tuple[int, int] | None:
        """The address around the ``@`` at ``at``, if there is one."""
        lo = max(0, at - 64)
        stop = _LOCAL_STOP.match(text, lo, at)
        start = stop.end() if stop else lo
        if start == lo and lo > 0 and _LOCAL_CHAR.match(text, lo - 1):
            return None  # a local part longer than 64 characters
        while start < at and text[start] == ".":
            start += 1
        part = text[start:at]
        if not part or part.endswith(".") or ".." in part or not any(c.isalnum() for c in part):
            return None
        if (start and text[start - 1] == "@") or self._in_url_userinfo(text, start):
            return None
        domain = _DOMAIN.match(text, at + 1)
        if domain is None or domain.group(1).lower() in _NOT_TLDS or _SCALE.match(text, at + 1):
            return None
        end = domain.end()
        if end - start > self.max_length or text.startswith("@", end):
            return None
        return start, end

    @staticmethod
    def _in_url_userinfo(text: str, start: int) -> bool:
        """``https://user:secret@host``: the ``user:secret@host`` is a URL's
        credentials and host, not an address (the URL and secret detectors see it)."""
        if start < 3 or text[start - 1] not in ":/":
            return False
        before = text[max(0, start - 256):start]
        token = before.split()[-1] if before.strip() else ""
        scheme = token.rfind("://")
        return scheme != -1 and "/" not in token[scheme + 3:]


# ---------------------------------------------------------------------------- phone

# Candidates: a run of digits and the characters that group them, found in the text's
# ASCII bytes with every digit turned into "0" (``_views.classes``: the pattern starts
# with a literal, which the regex engine finds far faster than a class); a "+" or "("
# before it is taken in. Validation decides; the pattern only finds.
_PHONE_RUN = re.compile(rb"0[0 ().\-/]{5,40}")
_TOKEN = re.compile(r"\S+")
# What a run holds but its digits (a run is ASCII: ``_runs``): deleted, the digits are left.
_RUN_PUNCTUATION = str.maketrans("", "", " ().-/+")
_GROUPS = re.compile(r"[0-9]+")
_DATE = re.compile(
    r"\(?(?:[0-9]{4}[\-/.][0-9]{1,2}[\-/.][0-9]{1,2}|[0-9]{1,2}[\-/.][0-9]{1,2}[\-/.](?:[0-9]{4}|[0-9]{2}))\)?\Z")
_SSN_SHAPE = re.compile(r"[0-9]{3}(?:-[0-9]{2}-| [0-9]{2} )[0-9]{4}\Z")
_YEAR_RANGE = re.compile(r"(?:1[89]|20)[0-9]{2} ?[\-/] ?(?:1[89]|20)[0-9]{2}\Z")
# Words after which a national number is an identifier, not a phone number (and the
# words that may follow them: "order no.", "numéro de série", "n°").
_ID_WORDS = frozenset("""
    order invoice inv ref reference tracking track isbn issn id account acct transaction
    txn ticket case serial sku po confirmation booking customer member policy claim receipt
    item part model version ver build release patch pr issue bug siret siren tva vat ust
    ust-id ust-idnr nif cif dni nie identifiant client commande facture contrat dossier
    suivi colis référence réf kunde kundennummer bestellung rechnung vertrag auftrag
    sendung artikel artikelnummer art.-nr art-nr seriennummer serie série modell modèle
    modelo produkt produit producto pedido factura cliente contrato expediente envío
    lieferschein albarán albaran bordereau steuer-id steuernummer steuer-nr st.-nr idnr
    identifikationsnummer tin ean gtin upc referencia referenz tag tags label labels barcode
    baggage luggage parcel parcels paquete paquetes étiquette étiquettes etiqueta etiquetas
    gepäck paket pakete
""".split())
_ID_QUALIFIERS = frozenset("no nr num number id n° nº núm número de".split())
_ID_MARKS = ("#", "n°", "nº", "nr.", "no.")
# The words (and "n°") of the text before a number, with their ends.
_WORDS_BEFORE = re.compile(r"[^\W\d_]+(?:[.-]+[^\W\d_]+)*[°º]?")


def _after_identifier(text: str, start: int) -> bool:
    """Whether the number at ``start`` comes right after an identifier's word ("order",
    "invoice no.", "Kundennummer:", "n°", "#", "pedido", ...): only spaces, ``: # = .
    -`` and words such as "no" or "number" between them."""
    window = text[max(0, start - 32):start].lower()
    tail = window.rstrip(" \t:=")
    for mark in _ID_MARKS:
        if tail.endswith(mark) and (mark == "#" or not tail[-len(mark) - 1:-len(mark)].isalpha()):
            # "#", "n°", "Nr.", "no." (not "Tfno."), but not a phone's: "Tel.-Nr.",
            # "Handy-Nr.", "Phone no.", "Notfall-Nr."
            head = list(_WORDS_BEFORE.finditer(tail[:-len(mark)]))
            return not head or not (_CALLED.fullmatch(head[-1].group().rstrip(".-"))
                                    or head[-1].group().rstrip(".-") in _SERVICE_WORDS)
    words = list(_WORDS_BEFORE.finditer(window))
    while words and words[-1].group() in _ID_QUALIFIERS:
        words.pop()
    if not words:
        return False
    last = words[-1]
    rest = window[last.end():]
    word = last.group()
    if word in _CUSTOMER_WORDS and _serves(words[:-1]):
        return False  # "Service client :", "Atención al cliente:": a line, not an id
    return ((word in _ID_WORDS or (word.endswith("nummer") and not word.startswith(
        _PHONE_NUMBER_WORDS))) and not any(c.isdigit() for c in rest)
            and all(w.group() in _ID_QUALIFIERS for w in _WORDS_BEFORE.finditer(rest)))


# "client", "customer": an identifier's word ("n° client"), but a phone line's after
# a service word ("Service client", "Atención al cliente", "Relation clients").
_CUSTOMER_WORDS = frozenset("client clients cliente clientes customer customers".split())
_SERVICE_LINES = frozenset("service services servicio servicios atención atencion relation "
                           "relations care support soporte assistance asistencia".split())
_ARTICLES = frozenset("al au aux à a del de du des la le los las".split())


def _serves(words: list[re.Match[str]]) -> bool:
    """Whether the last of ``words`` (past articles and prepositions) names a service."""
    for m in reversed(words):
        if m.group() not in _ARTICLES:
            return m.group() in _SERVICE_LINES
    return False


# The number before a number in a list of them: its digits, a comma or a conjunction.
_LISTED = re.compile(
    r"(?P<number>(?<![0-9])(?<![0-9][ ./-])[0-9][0-9 ./-]{5,30}[0-9])[ \t]*(?:,|;|/|and|und|et|y|e|o|or|oder|ou"
    r"|sowie)[ \t]+\Z")


# German compounds in "-nummer" that name a phone's number; any other is an
# identifier's ("Bestellnummer", "Sendungsnummer", "Vertragsnummer").
_PHONE_NUMBER_WORDS = ("telefon", "tel", "handy", "mobil", "fax", "ruf", "notruf", "durchwahl",
                       "festnetz", "service", "hotline", "kontakt", "zentral", "whatsapp",
                       "rückruf", "privat", "büro", "nummer")


# Words that say a number nearby is a phone number (bare digits need one): a phone's
# names and the verbs of calling in any of their forms ("rappelle-moi", "joignable",
# "composez", "llámeme", "márcanos", "erreichbar", "wählen Sie", "dial", "reach").
_PHONE_WORDS = re.compile(
    r"(?i)(?<![^\W\d_])(?:t[eé]l|t[ée]l[ée]?phone|tel[ée]fono|telefon|phone|mobile?|m[óo]vil|"
    r"cell|cel(?:ular)?(?![^\W\d_])|handy|portable|fax|call|ring|text|whatsapp|sms|rufnummer|"
    r"anruf|r?appel|llam|ll[áa]m|m[áa]rca(?:me|nos|r)|joindre|joign|compos(?:ez|er)|erreich|"
    r"w[äa]hlen|dial|reach|tfno|tlf|gsm|natel|mob(?![^\W\d_])|port(?=\.)|contact[eo]?|kontakt"
    r"|n[uú]m[eé]ro|number|nummer)")
# Words that name a phone (not a number of any kind: "Nummer", "contact"); a national
# number right after one is tried in the plans of ``CALLED_REGIONS`` too.
_CALLED = re.compile(
    r"(?i)(?<![^\W\d_])(?:tel|t[ée]l|t[ée]l[ée]?phone|tel[ée]fono|telefon|phone|mobile?|"
    r"m[óo]vil|cell|cel|celular|handy|portable|fax|whatsapp|sms|rufnummer|festnetz|fijo|"
    r"durchwahl|zentrale|hotline|anrufen|r?appel(?:er|ez|le|lez)?|ll[áa]m[ae]|ll[áa]mame|llamar|"
    r"joindre|joignable|erreichbar|ruf|rufen|tfno|tlf|tlfno|telf|mob|port(?=\.)|gsm|natel|sip|"
    r"pbx|voip|"
    r"[tmf](?=[ \t]?:))(?![^\W\d_])")
#: The countries a number right after a phone word is tried in (``_CALLED``): those of
#: the languages the detectors read (``regions.LANGUAGE_REGIONS``), but Mexico, whose
#: ten digits without a trunk prefix are any North American grouping too (it stays
#: with Spanish words in the text).
CALLED_REGIONS: tuple[str, ...] = tuple(dict.fromkeys(
    r for lang in ("en", "de", "fr", "es") for r in LANGUAGE_REGIONS[lang]
    if r not in ("MX", "CO")))
# An extension of one or two digits after a dash that ends a number, as German and
# Austrian numbers write the switchboard's and the direct lines (``0221 9438-0``,
# ``+49 30 123456-12``, ``089/12 34 56-0``; not the last pair of ``01-42-68-53-00``).
_SWITCHBOARD = re.compile(r"(?:(?<=[0-9]{3})|(?<=[ /][0-9]{2}))-[0-9]{1,2}(?![0-9]|[.\-/][0-9])\Z")
# The same extension right after a number, whatever follows it ("0561 93188-0 · Fax").
_EXTENSION = re.compile(r"-[0-9]{1,2}(?![0-9]|[.\-/][0-9])")
# Lines a number is called by, before "Nr.", "No.": "Notfall-Nr.", "Service-Nr.".
_SERVICE_WORDS = frozenset("notfall notruf service hotline kontakt contact zentrale "
                           "durchwahl urgence urgencias emergency".split())
# A table's column of phone numbers: its header's name ("tel", "Phone", "Telefon",
# "teléfono", "mobile", "móvil", "portable", "Handy", "fax", "gsm", "phone_number",
# "tel_fixe", "numero_tel"), how far above the header may be, and what separates fields.
_COLUMN_NAME = re.compile(
    r"(?:[a-z_ ]{0,12}[_ ])?(?:tel|t[ée]l|t[ée]l[ée]phone|tel[ée]fono|telefon|telefonnummer|phone"
    r"|mobile?|m[óo]vil|portable|handy|fax|gsm|cel|celular|cell|natel)(?:[_ ][a-z_ ]{0,12})?")
_COLUMN_REACH = 400
_FIELD_SEPARATORS = (";", ",", "\t", "|")
# A setting that holds a phone number, before its "=" (``TEL_ASTREINTE=``, ``phone=``,
# ``mobile_number=``, ``support.hotline=``).
_PHONE_SETTING = re.compile(
    r"(?i)(?<![^\W\d_])(?:[a-z0-9]+[_.-])*(?:tel|telefon|telephone|phone|mobile?|fax|handy|movil"
    r"|cell?|gsm|hotline)(?:[_.-]?[a-z0-9]+)*[\"']?=\Z")
# A link that dials or messages the number after it, written without its "+":
# ``wa.me/32478215906``, ``api.whatsapp.com/send?phone=34612345678``, ``?phone=...``.
_LINK = re.compile(r"(?i)(?:wa\.me/|whatsapp\.com/send/?\?phone=|[?&](?:phone|tel)=)\Z")


def _linked(text: str, start: int) -> bool:
    """Whether the number at ``start`` is a link's (``_LINK``): a country code and the
    national number, the "+" left out."""
    return _LINK.search(text, max(0, start - 30), start) is not None


# How a number with a country code starts: "+49 ..." or "(+49) ...".
_PLUS = ("+", "(+")
# A currency right after a number: it is an amount.
_MONEY_AFTER = re.compile(r"[ \u00a0]?(?:€|\$|£|¥|(?:EUR|USD|GBP|CHF|euros?|dollars?)\b)")
# The last group of a code of capitals and digits right before a number ("1Z 9W8 47E"):
# the number is the rest of that code (not text-speak: "call back 2nite 646...").
_CODE_GROUP = re.compile(r"(?<![^\s])(?=[A-Z]*[0-9])(?=[0-9]*[A-Z])[A-Z0-9]{2,8}\Z")
_BAD_BEFORE = frozenset("#$€£¥@/.-_&=%")
_BAD_AFTER = frozenset("%€$£¥@_")
_MAX_PHONE_TRIES = 16
# The characters before and after a run that its verdicts read (its runs' context:
# "order no." 32 before, a phone word 40, an IBAN's first groups 45; a currency 12
# after), and then some; and how many runs' verdicts a detector remembers.
_READS_BEFORE, _READS_AFTER = 64, 16
_MEMO_SIZE = 4096


class _Verdicts(NamedTuple):
    """``PhoneDetector._verdicts``: a run's numbers and first regional candidate."""

    numbers: tuple[tuple[int, int, float], ...] | None
    probe: int | None


def _dialled(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is the number of a dial string or a SIP address
    (``[675418203@entrantes:1]``, ``sip:0612345678@host``): the "@" after it says so."""
    return text.startswith("@", end) and (text[start - 1:start] == "["
                                          or text.endswith("sip:", 0, start))


def _relative(found: list[Detection], start: int) -> tuple[tuple[int, int, float], ...]:
    return tuple((d.start - start, d.end - start, d.score) for d in found) if found else ()


def _count(text: str, s: int, e: int) -> tuple[int, int, int]:
    """The token ``text[s:e]``'s digits, one-digit groups and groups."""
    tok = text[s:e]
    if tok.isdigit():
        return e - s, int(e - s == 1), 1
    if tok[0] == "+" and tok[1:].isdigit():  # "+49": a country code
        return e - s - 1, int(e - s == 2), 1
    # (a "(0)" after a country code is the trunk prefix, not a group: "(0)6", "+33(0)6")
    found = _GROUPS.findall(tok.replace("(0)", "", 1) if "(0)" in tok else tok)
    return sum(map(len, found)), sum(len(g) == 1 for g in found), len(found)


def _runs(text: str, lo: int) -> Iterator[tuple[int, int]]:
    """The runs of digits and the characters that group them in ``text`` (folded) from
    ``lo`` on that may hold a phone number, each as its span (``_tokens``: its
    space-separated tokens)."""
    for run in _PHONE_RUN.finditer(_views.classes(text), lo):
        start, end = run.span()
        if start and text[start - 1] in "+(":
            start -= 1
            if text[start - 1:start] == "(" and text[start] == "+":
                start -= 1  # "(+49) 30 1234567"
        end = start + len(text[start:end].rstrip(" ().-/"))
        if text[start] == "(" and ")" not in text[start:end]:
            start += 1  # "(call 020 7946 0958": a bracket around, not in, the number
        switchboard = _SWITCHBOARD.search(text, start, end)
        if switchboard is not None:
            end = switchboard.start()  # "0221 9438-0": the number, less its extension
        if end - start < 7:
            continue
        if _is_card(text[start:end]):
            continue
        # two numbers joined by "/" ("06 12 34 56 78/07 12 34 56 78"): two runs
        for alt in _ALTERNATIVE.finditer(text, start, end):
            if _alternative(text, text.index("/", alt.start())):
                yield start, alt.start()
                start = alt.end()
        yield start, end


# Where a second number starts after a first and a "/": the trunk prefix or "+"; and
# the run of digits and what groups them after it.
_ALTERNATIVE = re.compile(r"[ ]?/[ ]?(?=[0+])")
_RUN_AFTER = re.compile(r"[0-9 ().+-]*")


def _digits_before(text: str, start: int, at: int) -> int:
    """How many digits ``text[start:at]`` holds."""
    return sum(c.isdigit() for c in text[start:at])


def _alternative(text: str, at: int) -> bool:
    """Whether the "/" at ``at`` joins two whole numbers (``_runs``): a trunk prefix or
    "+" after it, eight digits or more right before it and after it."""
    if text[at + 1:at + 2] not in ("0", "+"):
        return False
    head = trailing_run(text[max(0, at - 24):at], "0123456789 ().-+", 24)
    tail = _RUN_AFTER.match(text, at + 1, at + 25)
    return (_digits_before(text[max(0, at - 24):at], head, 24) >= 8
            and tail is not None and _digits_before(tail.group(), 0, 24) >= 8)


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the space-separated tokens of the run ``text[start:end]``."""
    return [t.span() for t in _TOKEN.finditer(text, start, end)]


class PhoneDetector:
    """Phone numbers (type ``phone``), validated with ``phonenumbers``.

    ``regions``: the regions (ISO 3166 codes such as ``"US"``, ``"GB"``, ``"DE"``) a
    number written without ``+`` and a country code may belong to; it is reported if
    it is valid in any of them. Numbers with ``+`` (or ``00``) and a country code are
    validated as they are. Default (``None``): the regions the text points at
    (``tripwire.detectors.regions.RegionMap``: US, and the countries of the country
    codes, country domains, language and script within 300 characters of the number).
    """

    name = "phone"
    types = ("phone",)
    #: The longest candidate run the pattern takes, and then some; without
    #: ``regions``, the ``NEAR`` characters after it whose signs say its plans too.
    max_length = 48 + NEAR + EVIDENCE
    #: Before a number: "order no." and the like (32), an IBAN's first groups (45);
    #: without ``regions``, the ``NEAR`` characters whose signs say its plans.
    lookbehind = 48 + NEAR + 128
    #: A number starts with a digit, "+" or "(".
    starts = _views.folded_to("0123456789+(")
    OPTIONS = ("regions",)

    def hold_from(self, text: str) -> int:
        """A number not complete yet, or whose next characters may still rule it out,
        lies in the run of digits and the characters that group them that ends
        ``text``, from its first digit, "+" or "("; without ``regions``, a number
        whose plans the text after it may still say starts within ``max_length``."""
        n = len(text)
        tail = _views.fold(text[max(0, n - 50):])
        run = tail[trailing_run(tail, "0123456789 ().-/+", 50):]
        hold = n - len(run.lstrip(" ).-/"))
        if self.regions is None:
            regional = self._regional_from(text, max(0, n - self.max_length))
            if regional is not None:
                hold = min(hold, regional)
        return hold

    def __init__(self, regions: Sequence[str] | str | None = None) -> None:
        try:
            import phonenumbers
        except ImportError as e:
            raise MissingDependencyError(
                "the phone detector needs the phonenumbers library: "
                "pip install 'tripwire[guardrails]'") from e
        self._pn: Any = phonenumbers
        #: The regions given (``None``: read from each text).
        self.regions: tuple[str, ...] | None = None
        #: While a run is judged (``_verdicts``): the candidates whose regions decide
        #: them, and whether the judging stops at them (``_regional_from`` asks only
        #: where the first one is) or reads the regions.
        self._probe: list[int] | None = None
        self._probing = False
        #: Whether the last run's verdicts read the regions around it (``_is_number``).
        self._read_regions = False
        #: Whether they read a table's header above them (``_in_phone_column``): then
        #: they are not kept by the characters around the run.
        self._read_far = False
        # What each run holds, by the characters its verdicts read (``_verdicts``).
        self._memo: dict[str, _Verdicts] = {}
        # the fewest digits a number written without "+" can have in these regions (a
        # 7-digit number is never a whole US one): shorter ones are not parsed at all
        self._min_digits = 7
        # a stream guard looks at the same text more than once while it holds it back
        self._valid: Callable[[str, str | None], bool] = functools.lru_cache(
            maxsize=4096)(self._check)
        self._shaped: Callable[[str], bool] = functools.lru_cache(maxsize=1024)(self._shape)
        if regions is None:
            return
        if isinstance(regions, str):
            regions = [regions]
        if not isinstance(regions, Sequence) or not regions:
            raise ConfigurationError(
                f"phone detector: regions must be a non-empty list of region codes such "
                f"as ['US', 'GB']; got {regions!r}")
        supported = phonenumbers.SUPPORTED_REGIONS
        wrong = [r for r in regions if not isinstance(r, str) or r.upper() not in supported]
        if wrong:
            raise ConfigurationError(
                f"phone detector: unknown region(s) {wrong}; valid: two-letter region "
                f"codes phonenumbers knows, e.g. US, GB, DE, FR, IN "
                f"({len(supported)} in all)")
        self.regions = tuple(dict.fromkeys(r.upper() for r in regions))
        self.max_length, self.lookbehind = 48, 48  # the regions are given
        self._min_digits = max(7, min(_shortest(phonenumbers, r) for r in self.regions))

    def detect(self, text: str) -> Iterable[Detection]:
        return self.detect_from(text, 0)

    @_views.reads_folded
    def detect_from(self, text: str, since: int) -> Iterable[Detection]:
        """``detect``'s detections that start at ``since`` or after, and some before:
        the runs of digits that end before ``since`` are not judged (a stream guard
        searches the text before what is new only for what it says of what follows)."""
        found: list[Detection] = []
        name = self.name
        for start, end in _runs(text, 0):
            if end <= since:
                continue  # (every number in it starts before ``since``)
            numbers = self._verdicts(text, start, end, found).numbers
            if numbers:
                found.extend(Detection("phone", start + a, start + b, score, name,
                                       text[start + a:start + b]) for a, b, score in numbers)
        return found

    def _regional_from(self, text: str, lo: int) -> int | None:
        """Where the first candidate from ``lo`` on whose verdict the regions around it
        decide starts (``None``: there is none): a national number the US plan does
        not take, in a text that calls it a phone number."""
        text = _views.fold(text)
        for start, end in _runs(text, lo):
            probe = self._verdicts(text, start, end, probing=True).probe
            if probe is not None and probe >= 0:
                return start + probe
        return None

    def _verdicts(self, text: str, start: int, end: int, regional: list[Detection] | None = None,
                  *, probing: bool = False) -> _Verdicts:
        """What the run ``text[start:end]`` holds: the numbers found in it (``None``:
        the regions around it decide one, so they are not kept: they are added to
        ``regional`` as they are found each time) and where its first
        number whose regions decide it starts (``-1``: none), both relative to
        ``start``; judged once for both (``probing``: for ``_regional_from``, the numbers
        only where no regions decide one). A run's verdicts read no more than ``_READS_BEFORE``
        characters before it and ``_READS_AFTER`` after it (and the regions): they are
        kept by those characters, so a text searched again (a stream's end, with more
        after it, and the window's end for ``hold_from``) reads each run once."""
        key = known = None
        if start >= _READS_BEFORE and end + _READS_AFTER <= len(text):
            # (the run's place in the key is then fixed: the key says it all)
            key = text[start - _READS_BEFORE:end + _READS_AFTER]
            known = self._memo.get(key)
            if known is not None and (known[1] is not None if probing
                                      else known[0] is not None):
                return known
        tokens = _tokens(text, start, end)
        self._read_regions = False
        self._read_far = False
        # (both questions are answered at once: up to the first candidate whose regions
        # decide it, judging reads the same either way; that is where probing stops)
        probes: list[int] = []
        self._probe, self._probing = probes, probing
        try:
            spans = list(self._spans(text, tokens))
        finally:
            self._probe = None
        probe = probes[0] - start if probes else -1
        if probing:
            # No candidate whose regions decide it: the numbers are those found
            verdicts = _Verdicts(None if probes else _relative(spans, start), probe)
        else:
            # (regions read: a candidate is theirs to decide, where probing stops)
            verdicts = _Verdicts(None if self._read_regions else _relative(spans, start), probe)
            if self._read_regions and regional is not None:
                regional.extend(spans)
        if key is not None and not self._read_far:
            memo = self._memo
            if known is not None:  # (what the other question found is kept too)
                verdicts = _Verdicts(verdicts.numbers if verdicts.numbers is not None
                                     else known.numbers,
                                     verdicts.probe if verdicts.probe is not None
                                     else known.probe)
            elif len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[key] = verdicts
        return verdicts

    def _spans(self, text: str, tokens: list[tuple[int, int]]) -> Iterable[Detection]:
        """The phone numbers among a run's space-separated tokens: the whole run if it
        is one, else the longest valid spans of whole tokens, left to right. Spans are
        first sized up by arithmetic (digits, groups), so a run such as ``1 2 3 4 ...``
        costs next to nothing."""
        # per token, read when a span reaches it: digits, one-digit groups, groups
        counts: list[tuple[int, int, int] | None] = [None] * len(tokens)
        tries = 0
        i, k = 0, len(tokens)
        while i < k and tries < _MAX_PHONE_TRIES:
            if i and text[tokens[i - 1][0]] == "+":
                i += 1  # "+1 555 ...": the number is not what follows the country code
                continue
            first = tokens[i][0]
            national = not text.startswith(_PLUS, first)
            if national and first > 1 and text[first - 1] == " " and text[first - 2].isdigit():
                i += 1  # a piece of a longer number, however it ends (``_plausible``)
                continue
            if text[first] not in "+(0123456789":
                i += 1  # ("- 555 ...", ") 555 ...": no number starts so, ``_shape``)
                continue
            # (fewer digits than a national number has: not a number, unless it has
            # an international prefix; ``_shape`` says so too)
            fewest = 7 if text[first] in "+(0" else self._min_digits
            ends: list[int] = []
            digits = singles = groups = 0
            for j in range(i, k):
                count = counts[j]
                if count is None:
                    count = counts[j] = _count(text, *tokens[j])
                digits += count[0]
                singles += count[1]
                groups += count[2]
                if digits > 15 or singles > 1 or groups > 7:
                    break
                if digits >= fewest and text[tokens[j][1] - 1].isdigit():
                    ends.append(j + 1)  # (a number ends with a digit: ``_shape``)
            for j in reversed(ends):
                start, end = first, tokens[j - 1][1]
                if national and text[end:end + 1] == " " and text[end + 1:end + 2].isdigit():
                    continue  # a piece of a longer number (``_plausible``)
                value = text[start:end]
                if not national and international_valid(
                        self._pn, value.translate(_RUN_PUNCTUATION)) is False:
                    # No country's plan has it (no country code, or a length none of
                    # its numbers has): ruled out before its context or shape is read.
                    tries += 1
                    if tries >= _MAX_PHONE_TRIES:
                        return
                    continue
                if not self._plausible(text, start, end, value):
                    continue
                tries += 1
                # bare digits are a phone number where the text says so
                said = not value.isdigit() or _PHONE_WORDS.search(
                    text, max(0, start - 40), start) is not None or _dialled(
                    text, start, end) or _linked(text, start) or self._in_phone_column(text, start)
                if self._is_number(text, start, end, said):
                    score = 0.95 if not value.isdigit() else 0.85 if said else 0.5
                    yield Detection("phone", start, end, score, self.name, value)
                    i = j
                    break
                if tries >= _MAX_PHONE_TRIES:
                    return
            else:
                i += 1

    def _in_phone_column(self, text: str, start: int) -> bool:
        """Whether the number at ``start`` is a field of a table (``;``, ``,``, tabs,
        ``|``) in the column whose header, up to ``_COLUMN_REACH`` characters above,
        names a phone (``nom;prenom;tel;ville``, ``Name,Phone,Email``)."""
        self._read_far = True  # (the line and its header may start beyond the memo's key)
        line = text.rfind("\n", 0, start) + 1
        if not line:
            return False
        row = text[line:text.find("\n", start) if "\n" in text[start:] else len(text)]
        sep = max(_FIELD_SEPARATORS, key=row.count)
        if not row.count(sep) or text[line:start].rstrip(" \"'").rsplit(sep, 1)[-1]:
            return False  # (not a field of its own)
        column, fields = text.count(sep, line, start), row.count(sep) + 1
        top = max(0, line - _COLUMN_REACH)
        while line > top:
            above = text.rfind("\n", 0, line - 1) + 1
            if above < top:
                return False
            header = text[above:line - 1].split(sep)
            if len(header) != fields:
                return False
            name = header[column].strip(" \"'\r").lower()
            if _COLUMN_NAME.fullmatch(name):
                return True
            line = above
        return False

    def _plausible(self, text: str, start: int, end: int, value: str) -> bool:
        """Cheap checks before asking phonenumbers: context and shape (``_shaped``)."""
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        plus = value.startswith(_PLUS)
        if before in "/=" and (_linked(text, start) or (before == "=" and (
                value.startswith("00") or _PHONE_SETTING.search(text, max(0, start - 40), start)))):
            before = " "  # wa.me/3247..., TEL_ASTREINTE=0033 7 ..., PHONE=0612345678
        elif before == "/" and _alternative(text, start - 1):
            before = "\t"  # the second of "06 12 34 56 78/07 12 34 56 78"
        alternative = after == "/" and _alternative(text, end)
        if (before.isalnum() or (before in _BAD_BEFORE and not (plus and before == "="))
                or after.isalnum() or (after in _BAD_AFTER and not (
                    (plus or before in "[:") and after == "@"))):
            # (a number with its country code is one after "caller_id=" and before the
            # "@" of a dial string or SIP address: "[+34915527840@entrantes:1]"; so is a
            # national one right after the "[" of a dial string or a "sip:":
            # "[675418203@entrantes:1]", "sip:0612345678@")
            return False
        if not alternative and after in ".-/" and text[end + 1:end + 2].isdigit() and not _EXTENSION.match(
                text, end):
            return False
        national = not value.startswith(_PLUS)
        if national and ((after == " " and text[end + 1:end + 2].isdigit())
                         or (before == " " and start > 1 and text[start - 2].isdigit())):
            return False  # "812 345 674 00021": a piece of a longer number
        if national and before == " " and _CODE_GROUP.search(text, max(0, start - 12), start - 1):
            return False  # "1Z 9W8 47E 03 4417 2285": the rest of a code of letters and digits
        if not self._shaped(value):
            return False
        if after in " \u00a0€$£¥EUCeud" and _MONEY_AFTER.match(text, end, end + 12):
            return False  # "612 345 678 €": an amount
        if in_grouped_iban(text, start):
            return False  # "DE18 1917 0482 3184 3129 95": the rest of an IBAN
        # a national number right after "order", "invoice", "ref", ... is that identifier,
        # and so is the next of a list of them ("tags 0098 412 663 0157 and 0098 ...")
        if not national:
            return True
        if _after_identifier(text, start):
            return False
        listed = _LISTED.search(text, max(0, start - 40), start)
        if listed is None:
            return True
        self._read_far = True  # (what it reads goes back beyond the memo's key)
        return not _after_identifier(text, listed.start("number"))

    def _shape(self, value: str) -> bool:
        """Whether ``value`` itself may be a phone number: its digits and groups, not a
        date, a version, an IP address or an ISBN. (``_shaped`` remembers the answer: a
        text of one grouping repeated asks again and again.)"""
        if not value[-1].isdigit() or value[0] not in "+(0123456789":
            return False
        # "+33 (0)1 23 45 67 89": the "(0)" is a trunk prefix, not a group
        groups = _GROUPS.findall(value.replace("(0)", "", 1) if "(0)" in value else value)
        digits = sum(len(g) for g in groups)
        if not (7 if value.startswith((*_PLUS, "00", "(00")) else self._min_digits) <= digits <= 15:
            return False
        international = value.startswith((*_PLUS, "00", "(00"))
        if len(groups) > 1 and len(groups[-1]) == 1 and not international:
            # "0-306-40615-2": an ISBN's check digit, not a subscriber number (with a
            # country code it is the switchboard's digit: "0049 711 26 84 93 0")
            return False
        if len(groups) > 7 or sum(len(g) == 1 for g in groups) > 1:
            return False  # "1 2 3 4 5 6 7 8 9 10": a list, not a grouping
        # (with its country code, the first national group may be one digit:
        # "+33.6.12.34.56.78")
        national = groups[2:] if value.startswith(_PLUS) else groups
        if "." in value and (any(len(g) < 2 for g in national) or (
                len(groups) == 4 and value.count(".") == 3
                and all(len(g) <= 3 and int(g) <= 255 for g in groups))):
            # "1.2.33.4567" (a version), "192.168.10.200" (an IP address; not
            # "91.563.84.20", grouped as Spain writes its numbers)
            return False
        if _SSN_SHAPE.match(value):
            return False  # "413-53-1057", "413 53 1057": a Social Security number's shape
        if _YEAR_RANGE.match(value):
            return False  # "2015-2020" (a valid number in some regions)
        if value.count("(") != value.count(")"):
            return False
        if ("-" in value or "/" in value or "." in value) and any(
                _DATE.match(tok) for tok in value.split()):
            return False  # (a date has two of "-", "/", ".")
        return value.startswith(_PLUS) or not _is_isbn13(groups)

    def _is_number(self, text: str, start: int, end: int, said: bool = True) -> bool:
        """Whether ``text[start:end]`` is a valid phone number: with ``+`` or an
        international prefix, in its own country's plan; else in one of the regions
        given, or, without ``regions``, of those the text within ``NEAR`` characters of
        it points at (``tripwire.detectors.regions.RegionMap``; US first: most texts
        need no more; bare digits that no word calls a number, ``said``, in US only),
        or, right after a word that names a phone ("Tel.", "Fax", "Mobil", "portable",
        "móvil": ``_CALLED``), of the countries of English, German, French and Spanish
        (``CALLED_REGIONS``): a line such as ``Tel. 030/12345678`` says too little of
        its language to tell the country, and needs no more."""
        valid = self._valid
        value = text[start:end]
        if value.startswith(_PLUS):
            return valid(value, None)
        if value.isdigit() and value[0] != "0" and _linked(text, start):
            return valid("+" + value, None)
        compact = value.lstrip("(")
        if compact.startswith(("00", "011")) and valid(value, None):
            return True
        if self.regions is not None:
            return any(valid(value, region) for region in self.regions)
        if valid(value, DEFAULT_REGIONS[0]):
            return True
        if not said:
            return False
        if self._probe is not None:
            self._probe.append(start)  # (the regions decide it: ``_verdicts`` keeps where)
            if self._probing:
                return False  # (``_regional_from`` asks no more)
        self._read_regions = True
        pointed = region_map(text, self._pn).near(start, end)
        if any(valid(value, region) for region in pointed[len(DEFAULT_REGIONS):]):
            return True
        # bare digits right after the word only ("sms ... numéro 06528147" is not called
        # so) or dialled, or in a phone's column of a table
        called = _CALLED.search(text, max(0, start - 24), start)
        if ((called is not None and not (value.isdigit() and not _dialled(text, start, end)
                                         and any(c.isalpha() for c in text[called.end():start])))
                or (value.isdigit() and self._in_phone_column(text, start))) and any(
                valid(value, region) for region in CALLED_REGIONS if region not in pointed):
            return True
        return any(valid(value, region) for shape, region in _NATIONAL_SHAPES
                   if region not in pointed and shape.match(value))

    def _check(self, value: str, region: str | None) -> bool:
        """Whether phonenumbers says ``value`` is a valid number in ``region`` (``None``:
        written with ``+`` or an international prefix, in its own), written as that
        region writes its numbers: with its trunk prefix where it writes one
        (``_trunk_prefix``)."""
        pn = self._pn
        if region is None:
            compact = value.lstrip("(")
            for idd in ("00", "011"):
                if compact.startswith(idd):
                    value = "+" + compact[len(idd):]
                    break
            else:
                if compact.startswith("+"):
                    value = compact.replace(")", " ", 1)  # "(+49) 30 1234567"
            if not value.startswith("+"):
                return False
            known = international_valid(pn, "".join(_GROUPS.findall(value)))
        else:
            prefix = _trunk_prefix(pn, region)
            if prefix and not value.lstrip("(").startswith(prefix) and not (
                    region in _TRUNK_LEFT_OUT and _TRUNK_LEFT_OUT[region].match(value)):
                return False  # "7458 912306" is no way to write a British number
            if region in _NANP and _group_sizes(value) not in _NANP_GROUPS:
                return False  # "800 3456 712" is no way to write a North American one
            known = national_valid(pn, "".join(_GROUPS.findall(value)), region)
        if known is not None:
            return known  # the numbering plans say it, without a parse
        try:
            parsed = pn.parse(value, region)
        except pn.NumberParseException:
            return False
        lengths = _valid_lengths(pn, parsed.country_code)
        if lengths is not None and len(pn.national_significant_number(parsed)) not in lengths:
            return False  # (what is_valid_number finds too, at a tenth of its cost)
        return bool(pn.is_valid_number(parsed))


# Groupings that one country writes its national numbers in and others seldom do: a
# number grouped so is tried in that country's plan whatever the text around it says
# (a signature of a name, a number and an address at gmail.com says nothing else).
_NATIONAL_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    # France: five pairs from the trunk prefix, "06 12 34 56 78", "01.42.68.53.00"
    (re.compile(r"0[1-9](?P<s>[ .\-])[0-9]{2}(?:(?P=s)[0-9]{2}){3}\Z"), "FR"),
    # Spain: "612 34 56 78", "968 24 17 50"; Madrid's and Barcelona's "91 552 78 40"
    (re.compile(r"[6-9][0-9]{2}(?P<s>[ .\-])[0-9]{2}(?:(?P=s)[0-9]{2}){2}\Z"), "ES"),
    (re.compile(r"9[1-8](?P<s>[ .\-])[0-9]{3}(?:(?P=s)[0-9]{2}){2}\Z"), "ES"),
    # Mexico City's, Guadalajara's and Monterrey's ten digits, 2-4-4 (North American
    # numbers are 3-3-4): "55 1234 5678", "(55) 1234-5678", "33-1234-5678"
    (re.compile(r"(?:55|33|81|\((?:55|33|81)\))[ \-][0-9]{4}[ \-][0-9]{4}\Z"), "MX"),
    # Germany's mobiles: "0171 2345678", "0151-23456789", "0176/98765432"
    (re.compile(r"01[5-7][0-9][ /\-][0-9]{7,8}\Z"), "DE"),
    # Britain: mobiles "07911 123456", "0161 496 0000", London's and the other 02x
    # areas' "020 7946 0958"
    (re.compile(r"0(?:7[0-9]{3}(?P<m>[ \-])[0-9]{6}|1[0-9]{2}(?P<g>[ \-])[0-9]{3}(?P=g)[0-9]{4}"
                r"|2[0-9](?P<l>[ \-])[0-9]{4}(?P=l)[0-9]{4})\Z"), "GB"),
)

# North American numbers as people write them: (415) 555-2671, 1-800-555-0199,
# 415-5552671, 4155552671, 14155552671.
_NANP = frozenset({"US", "CA"})
# Where a national number is as often written without its trunk prefix as with it, in
# the grouping that shows it: Argentina's area code, then the number with a dash before
# its last four digits, "11 4123-4567", "(351) 412-3456", as well as "011 4123-4567".
_TRUNK_LEFT_OUT = {"AR": re.compile(r"(?:[1-9][0-9]{1,3}|\([1-9][0-9]{1,3}\)) [0-9]{2,4}-[0-9]{4}\Z")}
_NANP_GROUPS = frozenset({(3, 3, 4), (1, 3, 3, 4), (3, 7), (10,), (11,), (1, 10)})


def _group_sizes(value: str) -> tuple[int, ...]:
    return tuple(len(g) for g in _GROUPS.findall(value))


@functools.cache
def _trunk_prefix(pn: Any, region: str) -> str:
    """The trunk prefix ``region``'s national numbers are written with (``"0"`` in GB,
    DE, FR, ...), or ``""`` where they are written without one (US, ES, IT, BR, ...):
    its example number as phonenumbers formats it nationally tells."""
    meta = pn.PhoneMetadata.metadata_for_region(region)
    prefix = meta.national_prefix if meta is not None else None
    if not prefix:
        return ""
    example = pn.example_number(region)
    if example is None:
        return ""
    national = pn.format_number(example, pn.PhoneNumberFormat.NATIONAL)
    return prefix if national.lstrip("(").startswith(prefix) else ""


@functools.cache
def _valid_lengths(pn: Any, country_code: int) -> frozenset[int] | None:
    """The lengths a valid national number with ``country_code`` can have (``None``:
    any). ``is_valid_number`` takes a number as valid only if it matches the general
    description of one of the regions with that code, and that needs one of its
    possible lengths when it lists any: a number of another length is not valid, and
    is not worth the full check (a text of random digit groups makes many)."""
    lengths: set[int] = set()
    for region in pn.COUNTRY_CODE_TO_REGION_CODE.get(country_code, ()):
        meta = pn.PhoneMetadata.metadata_for_region_or_calling_code(country_code, region)
        if meta is None or meta.general_desc is None:
            continue  # never valid through this region
        if not meta.general_desc.possible_length:
            return None
        lengths.update(meta.general_desc.possible_length)
    return frozenset(lengths)


def _shortest(pn: Any, region: str) -> int:
    """The fewest digits of a whole national number in ``region`` (0 if unknown)."""
    meta = pn.PhoneMetadata.metadata_for_region(region)
    lengths = meta.general_desc.possible_length if meta and meta.general_desc else None
    return min(lengths) if lengths else 0


def _is_card(run: str) -> bool:
    """A run that is (or is written like) a payment card number is no phone number, nor
    are parts of it: ``4111 1111 1111 1111``, ``4835 0049 8709 9150``."""
    if run[:1] == "+" or "(" in run:
        return False  # "+44 (0) 7911 123456": a card is written with no "+" or bracket
    groups = _GROUPS.findall(run)
    digits = "".join(groups)
    if not 13 <= len(digits) <= 19:
        return False
    if len(groups) >= 4 and all(len(g) == 4 for g in groups[:-1]):
        return True
    return luhn_is_valid(digits) and card_issuer(digits) is not None


def _is_isbn13(groups: list[str]) -> bool:
    digits = "".join(groups)
    if len(digits) != 13 or digits[:3] not in ("978", "979"):
        return False
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits))
    return total % 10 == 0


# ------------------------------------------------------------------------------ url

_SCHEME = re.compile(r"(?i)(?:https?|ftp)\Z")
# Everything up to white space or a character that cannot be in a URL as written in text.
_URL_BODY = re.compile(r"[^\s<>\"`{}|\\^]{1,2040}")
_URL_HOST = re.compile(
    r"(?:[^\s/?#@<>\"`]{0,256}@)?"                        # user info
    r"(?:\[[0-9A-Fa-f:.]{2,45}\]"                         # [IPv6]
    r"|(?:[^\W_](?:(?:[^\W_]|-){0,61}[^\W_])?\.){1,20}[^\W\d_]{2,63}"  # a name with a TLD
    r"|[0-9]{1,3}(?:\.[0-9]{1,3}){3}"                     # IPv4
    r"|localhost)"
    r"(?::[0-9]{1,5})?")
_TRAILING = ".,;:!?*'\"~_"
_CLOSERS = {")": "(", "]": "[", "}": "{"}


# Any URI scheme before "://" (postgres, mongodb+srv, postgresql+psycopg2, amqps, ...),
# with a "jdbc:" before it taken in.
_ANY_SCHEME = re.compile(r"(?<![A-Za-z0-9+.\-])(?:jdbc:)?[A-Za-z][A-Za-z0-9+.\-]{0,30}\Z")
# The user information of a URL with a password, right after "://": a user (maybe
# empty), ":", the password (a ":", "@", "#" or "?" in it too, as people write them:
# the last "@" before the host ends it), "@", and the start of a host.
_USERINFO = re.compile(
    r"[^\s:/?#@\[\]\"'<>`\\]{0,128}:(?P<pw>[^\s/\"'<>`\\]{1,256})@(?=[A-Za-z0-9\[])")
# Passwords that are a template's, not anyone's.
_TEMPLATE_PASSWORDS = frozenset(
    {"password", "passwd", "pass", "pwd", "secret", "changeme", "pw", "xxx", "yourpassword",
     "your_password", "mypassword", "my_password", "example", "placeholder", "redacted"})


# Webhook URLs, whose path is the secret that lets anyone post (from the host on):
# Slack's, Discord's (the webhook's id and its token), Microsoft Teams' incoming ones.
_WEBHOOK = re.compile(
    r"(?:hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,200}"
    r"|(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,80}"
    r"|[A-Za-z0-9-]{1,60}\.webhook\.office\.com/webhookb2/[0-9a-f-]{36}@[0-9a-f-]{36}"
    r"/IncomingWebhook/[0-9a-f]{32}/[0-9a-f-]{36}(?:/[A-Za-z0-9_-]{20,60})?)")


def webhook_end(text: str, host_at: int) -> int | None:
    """Where the webhook URL whose host starts at ``host_at`` ends (``None``: it is no
    webhook's): Slack's ``hooks.slack.com/services/...``, Discord's
    ``discord.com/api/webhooks/<id>/<token>``, Teams' ``*.webhook.office.com/webhookb2/...``.
    Such a URL is a secret (``api-key``) from its scheme to that end."""
    hook = _WEBHOOK.match(text, host_at)
    return None if hook is None else hook.end()


def url_password(text: str, sep: int) -> tuple[int, int, int] | None:
    """The URL whose ``://`` is at ``sep``, if it carries a password: where its scheme
    starts and where the password starts and ends. ``None`` without a password, or with
    a template's (``password``, ``***``, ``xxxx``, ``<password>``, ``${DB_PASSWORD}``,
    ``{pw}``, ``%s``)."""
    userinfo = _USERINFO.match(text, sep + 3)
    if userinfo is None:
        return None
    scheme = _ANY_SCHEME.search(text, max(0, sep - 36), sep)
    if scheme is None:
        return None
    pw = userinfo.group("pw")
    if (pw.lower() in _TEMPLATE_PASSWORDS or len(set(pw)) == 1 or pw[0] in "$<[{"
            or pw.startswith(("%s", "%("))):
        return None
    return scheme.start(), userinfo.start("pw"), userinfo.end("pw")


class UrlDetector:
    """URLs (type ``url``): ``http://``, ``https://``, ``ftp://`` and ``www.``; and URLs
    of any scheme that carry a password (type ``url-credentials``), whole."""

    name = "url"
    types = ("url", "url-credentials")
    max_length = 2048
    lookbehind = 8  # its scheme starts it; the character before
    #: A URL ends at white space: only the last word can be one not complete yet.
    hold_from = staticmethod(run_start)

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        found: list[Detection] = []
        covered = 0
        for at in _anchors(text):
            if at < covered:
                continue
            if text.startswith("://", at):
                with_password = url_password(text, at)
                if with_password is not None:
                    start, _, pw_end = with_password
                    whole = self._credentials_end(text, pw_end + 1)
                    value = text[start:whole]
                    found.append(Detection("url-credentials", start, whole, 1.0, self.name,
                                           value))
                    if _SCHEME.search(text, max(0, at - 5), at):
                        found.append(Detection("url", start, whole, 0.9, self.name, value))
                    covered = whole
                    continue
                scheme = _SCHEME.search(text, max(0, at - 5), at)
                if scheme is None:
                    continue
                start, host_at, score = scheme.start(), at + 3, 1.0
                if webhook_end(text, host_at) is not None:
                    score = 0.9  # a secret (``api-key``), which ``merge`` keeps
            else:
                start = host_at = at
                score = 0.9
            if start and (text[start - 1].isalnum() or text[start - 1] in "./@_-"):
                continue
            end = self._end(text, start, host_at)
            if end is None:
                continue
            found.append(Detection("url", start, end, score, self.name, text[start:end]))
            covered = end
        return found

    def _end(self, text: str, start: int, host_at: int) -> int | None:
        """Where the URL whose host starts at ``host_at`` ends: the host (and port),
        then a path, query or fragment up to white space, trimmed."""
        limit = min(len(text), start + self.max_length)
        host = _URL_HOST.match(text, host_at, limit)
        if host is None:
            return None
        end = host.end()
        if end < len(text) and (text[end].isalnum() or text[end] in "_-@"):
            return None  # "https://example.com-x", "http://a.b_c": not a host
        if end < limit and text[end] in "/?#":
            rest = _URL_BODY.match(text, end, limit)
            if rest is not None:
                end = host_at + len(_trim(text[host_at:rest.end()]))
        return max(end, host.end())


    def _credentials_end(self, text: str, host_at: int) -> int:
        """Where a URL with a password whose host starts at ``host_at`` ends: at white
        space (or a character no URL holds), less what ends a sentence or closes a
        bracket around it. Any host: a connection string's need not be a domain name
        (``db:5432``, ``mongo1:27017,mongo2:27017``)."""
        rest = _URL_BODY.match(text, host_at, min(len(text), host_at + self.max_length))
        assert rest is not None  # the host's first character is one
        return host_at + len(_trim(rest.group()))


def _anchors(text: str) -> list[int]:
    """Where a URL may be: each ``://`` and each ``www.`` (``str.find``, the fastest
    scan there is; not at all without a ``:`` or a ``W``), in text order."""
    out: list[int] = []
    for needle in ("://", "www.", "WWW."):
        if needle[0] in ":W" and needle[0] not in text:
            continue
        i = text.find(needle)
        while i != -1:
            out.append(i)
            i = text.find(needle, i + 3)
    return sorted(out)


def _trim(url: str) -> str:
    """Drop what ends a sentence or closes a bracket around the URL: ``(see
    https://x.org/a).`` keeps ``https://x.org/a``; ``https://x.org/Foo_(bar)`` keeps
    its own balanced brackets."""
    end = len(url)
    # How many of each bracket ``url[:end]`` holds, counted once (not again for each
    # character dropped: a URL that ends in 2,000 ")" is not counted 2,000 times).
    counts: dict[str, int] = {}
    while end:
        last = url[end - 1]
        if last in _TRAILING:
            end -= 1
            continue
        opener = _CLOSERS.get(last)
        if opener is None:
            break
        if last not in counts:
            counts[last] = url.count(last, 0, end)
            counts[opener] = url.count(opener, 0, end)
        if counts[last] <= counts[opener]:
            break
        counts[last] -= 1
        end -= 1
    return url[:end]
