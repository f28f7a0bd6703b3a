"""Which countries' numbering plans a text's phone numbers may be written for, read
from the text itself (``regions_of``).

A phone number written with ``+`` (or ``00``) and a country code says where it is
from; one written nationally (``07458 912306``, ``02 40 35 76 18``) does not, and a
digit string is valid in some plan or other far more often than it is a phone number.
So the phone detector tries, for a national number, the plans of the countries the
text points at, and no others:

- **the default**, ``US`` (numbers in the North American plan are written without a
  country code the world over);
- **country codes** written in the text: ``+33 6 98 14 72 05`` (or ``0033 ...``) makes
  French national numbers of the same text worth trying;
- **country domains** of the addresses and links in it: ``v.duval@transports-gl.fr``,
  ``https://www.example.co.uk`` (``uk`` is GB; domains sold as generic names, such as
  ``.io``, ``.co``, ``.me``, ``.tv``, ``.ai``, say nothing);
- **the language** of its words, from the short words each language writes all the
  time (articles, pronouns, prepositions; ``LANGUAGES``): English adds GB, IE and AU;
  German DE, AT and CH; French FR, BE, CH, RE, GP and MQ; Spanish ES, MX, CO and AR; Italian IT;
  Portuguese PT and BR; Dutch NL and BE (``LANGUAGE_REGIONS``); letters that one of
  them writes (``é``, ``ß``, ``ñ``, ...) count as its words;
- **places**: the name of a country or of one of its largest cities, or the word for
  its people, in English, German, French or Spanish ("Genève", "Buenos Aires",
  "mexicain", "Österreich": ``PLACES``);
- **signs of a country**: a British postcode (``WC1N 1AB``) or ``£`` say GB
  (``SIGNS``);
- **the script** of its letters: Cyrillic RU and UA, Greek GR, Hebrew IL, Arabic SA, AE,
  EG and MA, Devanagari IN, Thai TH, Hangul KR, kana JP, Han ideographs CN, TW and HK
  (``SCRIPT_REGIONS``).

``pii-detector``'s ``regions`` option overrides all of this: given, exactly those plans
are tried. The reading is made once per text, the first time a national number needs
it, and kept for that text only (as ``tripwire.detectors._views`` keeps its views).
"""

from __future__ import annotations

import bisect
import re
import string
from collections import Counter
from typing import Any

from tripwire.detectors import _views

__all__ = ["DEFAULT_REGIONS", "EVIDENCE", "LANGUAGES", "LANGUAGE_REGIONS", "LETTERS", "NEAR",
           "PLACES", "SCRIPT_REGIONS", "SIGNS", "RegionMap", "languages_of", "region_map", "regions_of"]

#: Tried for every text: the North American plan.
DEFAULT_REGIONS: tuple[str, ...] = ("US",)

#: Short words each language writes all the time, and other languages seldom do.
LANGUAGES: dict[str, frozenset[str]] = {
    "en": frozenset("the and is are you your for with this that please have will our was "
                    "were can could would should thanks what when from been there they "
                    "call phone office mobile".split()),
    "de": frozenset("der die das und ist nicht mit sie ich bitte ein eine für auf den dem "
                    "des wir ihre ihr danke oder auch noch sind bei zum zur wird haben "
                    "mein meine unter vielen dank telefon handy anrufen rufen".split()),
    "fr": frozenset("le les et est pas pour avec vous je une des du sur nous votre merci "
                    "au aux ce qui dans bonjour cette sont mais très être mon téléphone "
                    "portable appeler joindre de la en".split()),
    "es": frozenset("el los las es para con usted por una del que gracias nos como pero muy "
                    "hola está este esta son tiene al mi móvil teléfono llame llámame "
                    "llamar de la en su sus lo se ya también saludos".split()),
    "it": frozenset("il di che per con non una sono grazie della gli alla nel questo anche "
                    "ciao".split()),
    "pt": frozenset("os não com você uma do da obrigado seu sua isso muito olá está em".split()),
    "nl": frozenset("het een en niet van voor met ik je bedankt zijn op dat deze ook maar "
                    "wij".split()),
}
# Each word of ``LANGUAGES`` as ``_views.lower`` writes it (ASCII, "?" for another
# character: "très" is b"tr?s") and the languages it is a word of.
_LANGUAGES_OF: dict[bytes, tuple[str, ...]] = {}
for _lang, _words in LANGUAGES.items():
    for _word in _words:
        _key = _word.encode("ascii", "replace")
        _LANGUAGES_OF[_key] = (*_LANGUAGES_OF.get(_key, ()), _lang)
# ASCII punctuation as spaces: what is left between spaces are words (and numbers).
# Not "?": in the lower view it stands for every letter outside ASCII too (``t?l?fono``);
# a word is looked up as it is, then without the question marks around it.
_PUNCTUATION = bytes(32 if chr(b) in string.punctuation and b != ord("?") else b
                     for b in range(256))

#: Letters that one language writes and the others of ``LANGUAGES`` seldom do: each
#: one in a text counts as one of its words (a CV or a form has few short words).
LETTERS: dict[str, str] = {
    "fr": "éèêàçùûîïôœ", "de": "äöüß", "es": "ñáíóú¿¡", "pt": "ãõ", "it": "ìò",
}
#: The countries whose plans a language's text is tried in (besides ``DEFAULT_REGIONS``).
LANGUAGE_REGIONS: dict[str, tuple[str, ...]] = {
    "en": ("GB", "IE", "AU"), "de": ("DE", "AT", "CH"), "fr": ("FR", "BE", "CH", "RE", "GP", "MQ"),
    "es": ("ES", "MX", "CO", "AR"), "it": ("IT",), "pt": ("PT", "BR"), "nl": ("NL", "BE"),
}
#: A script's letters in the text, and the countries whose plans they add.
SCRIPT_REGIONS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile("[\u0400-\u04ff]"), ("RU", "UA")),
    (re.compile("[\u0370-\u03ff]"), ("GR",)),
    (re.compile("[\u0590-\u05ff]"), ("IL",)),
    (re.compile("[\u0600-\u06ff]"), ("SA", "AE", "EG", "MA")),
    (re.compile("[\u0900-\u097f]"), ("IN",)),
    (re.compile("[\u0e00-\u0e7f]"), ("TH",)),
    (re.compile("[\uac00-\ud7af]"), ("KR",)),
    (re.compile("[\u3040-\u30ff]"), ("JP",)),
    (re.compile("[\u4e00-\u9fff]"), ("CN", "TW", "HK")),
)
#: The names of countries and of their largest cities, and the words for their people,
#: in English, German, French and Spanish (one word each: "Buenos Aires" is "aires",
#: "Nouvelle-Zélande" "zélande"), by the region whose plan a text that names them is
#: tried in: "la agencia de Buenos Aires", "notre bureau de Genève", "our Dublin
#: office". Only unambiguous words: not "Córdoba" (Spain's and Argentina's), "Santiago",
#: "Cali", "Rio", nor the languages' names ("English", "français"), which say how a text
#: is written, not where its numbers are from.
PLACES: dict[str, str] = {
    "GB": "uk england scotland wales britain british london manchester birmingham liverpool "
          "leeds glasgow edinburgh bristol angleterre écosse londres royaume-uni "
          "großbritannien grossbritannien schottland inglaterra escocia británico británica "
          "britannique",
    "IE": "ireland irish dublin galway irlande irlandais irlandaise irland irlanda",
    "AU": "australia australian sydney melbourne brisbane perth adelaide australie "
          "australien australienne",
    "NZ": "zealand auckland wellington christchurch zélande neuseeland zelanda",
    "DE": "germany deutschland allemagne alemania berlin münchen munich hamburg hambourg "
          "köln cologne frankfurt francfort stuttgart düsseldorf leipzig dresden nürnberg "
          "bremen hannover allemand allemande alemán alemana",
    "AT": "austria österreich autriche wien vienna viena graz salzburg linz innsbruck "
          "austrian österreichisch autrichien autrichienne austriaco austriaca",
    "CH": "switzerland schweiz suisse suiza zürich zurich genève geneva genf ginebra basel "
          "bâle bern berne lausanne lugano swiss schweizer suizo suiza",
    "FR": "france francia frankreich paris lyon marseille toulouse bordeaux lille nantes "
          "strasbourg montpellier rennes",
    "BE": "belgium belgique belgien bélgica bruxelles brussels brüssel bruselas liège anvers "
          "antwerpen antwerp gand ghent namur charleroi belge belges belgian belga",
    "LU": "luxembourg luxemburg luxemburgo luxembourgeois",
    "MC": "monaco mónaco",
    "ES": "spain españa espagne spanien madrid barcelona barcelone valencia sevilla "
          "séville bilbao málaga zaragoza saragosse",
    "MX": "mexico méxico mexique mexiko cdmx guadalajara monterrey puebla tijuana mexicano "
          "mexicana mexicain mexicaine mexikanisch",
    "AR": "argentina argentine argentinien aires mendoza argentino argentin argentinisch",
    "CO": "colombia colombie kolumbien bogotá bogota medellín medellin barranquilla "
          "colombiano colombiana colombien colombienne",
    "CL": "chile valparaíso chileno chilena chilien chilienne",
    "PE": "peru perú pérou lima peruano peruana péruvien",
    "VE": "venezuela caracas venezolano venezolana vénézuélien",
    "EC": "ecuador équateur quito guayaquil ecuatoriano ecuatoriana",
    "UY": "uruguay montevideo uruguayo uruguaya",
    "PY": "paraguay asunción paraguayo paraguaya",
    "BO": "bolivia bolivie boliviano boliviana",
    "GT": "guatemala guatemalteco guatemalteca",
    "CU": "cuba habana havane cubano cubana",
    "CR": "costarricense costaricien costaricienne",
    "PA": "panamá panama panameño panameña panaméen panaméenne",
    "HN": "honduras tegucigalpa hondureño hondureña",
    "NI": "nicaragua managua nicaragüense",
    "SV": "salvadoreño salvadoreña salvadorien salvadorienne",
    "CM": "cameroun cameroon kamerun camerún douala yaoundé camerounais camerounaise",
    "BJ": "bénin benin cotonou béninois béninoise",
    "ML": "bamako malien malienne",
    "BF": "burkina ouagadougou burkinabè",
    "MG": "madagascar antananarivo malgache",
    "CD": "kinshasa congolais congolaise",
    "GA": "gabon libreville gabonais gabonaise",
    "TG": "lomé togolais togolaise",
    "GN": "conakry guinéen guinéenne",
    "HT": "haïti haiti haïtien haïtienne haitiano haitiana",
    "IT": "italy italia italie italien roma rome milano milan mailand napoli naples "
          "neapel torino turin firenze florence venezia venise italiano italiana",
    "PT": "portugal lisboa lisbon lisbonne lissabon porto portugais portuguesa portugués",
    "BR": "brazil brasil brésil brasilien brasileiro brasileña brasileño brésilien",
    "NL": "netherlands nederland niederlande holland hollande holanda amsterdam rotterdam "
          "dutch néerlandais niederländisch neerlandés",
    "PL": "poland polska pologne polen polonia warsaw varsovie warschau varsovia kraków",
    "MA": "morocco maroc marokko marruecos casablanca rabat marrakech marocain marocaine "
          "marroquí",
    "DZ": "algeria algérie algerien argelia alger algérien algérienne",
    "TN": "tunisia tunisie tunesien túnez tunis tunisien tunisienne",
    "SN": "senegal sénégal dakar sénégalais sénégalaise",
    "CI": "ivoire abidjan ivoirien ivoirienne",
    "IN": "india inde indien mumbai bangalore bengaluru delhi chennai hyderabad",
}
# Each word of ``PLACES`` as ``_views.lower`` writes it, and its region.
_PLACE_OF: dict[bytes, str] = {
    word.encode("ascii", "replace"): region
    for region, words in PLACES.items() for word in words.split()}
#: Signs of a country in a text, and the regions they add.
SIGNS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"(?<![\w])[A-Z]{1,2}[0-9][0-9A-Z]? [0-9][A-Z]{2}(?!\w)|£"), ("GB",)),
)
# Where a British postcode may be, in ``_views.classes`` (capitals "A", digits "0").
_POSTCODE_SHAPE = re.compile(rb"A0[0A]? 0AA")
# Country-code top-level domains that are sold as generic names: they say nothing of
# where a text is from.
_GENERIC_TLDS = frozenset("io co me tv ai ly to fm gg cc ws am im la sh st vc gl "
                          "so tk ml ga cf nu".split())
# "+33 6 ...", "0033 6 ...": a country code (its digits; separators may follow). (Each
# pattern starts with a small set of characters, which the regex engine skips to.)
_COUNTRY_CODE = re.compile(
    r"[+0](?<![\w+][+0])(?:(?<=\+)|0)([1-9][0-9]{0,2})(?=[\s.\-/()]*[0-9])")
# The domain of an address or a link: its last label.
_DOMAIN_TLD = re.compile(
    r"[@/w](?:(?<=@)|(?<=://)|(?<![\w.]w)ww\.)(?:[\w-]+\.)+([a-zA-Z]{2})(?![\w.-]|\.[\w])")
#: How much of a long text the language is read from.
_SAMPLE = 20_000

#: The last text read and its regions (one entry, compared by identity, as the views).
_last: tuple[str, tuple[str, ...]] = ("", DEFAULT_REGIONS)


def languages_of(text: str) -> list[str]:
    """The languages of ``text`` by its short words (``LANGUAGES``) and letters
    (``LETTERS``): each that has at least two and at least half as many as the
    language with the most; in a text with only one of them, the language it is
    (a short message may have one such word only)."""
    counts: Counter[str] = Counter()
    words = _views.lower(text)[:_SAMPLE].translate(_PUNCTUATION).split()
    for word, n in Counter(words).items():
        for lang in _LANGUAGES_OF.get(word) or _LANGUAGES_OF.get(word.strip(b"?"), ()):
            counts[lang] += n
    if not text.isascii():
        sample = text[:_SAMPLE].lower()
        for lang, letters in LETTERS.items():
            n = sum(map(sample.count, letters))
            if n:  # (a language with none is not one of the text's)
                counts[lang] += n
    if not counts:
        return []
    best = max(counts.values())
    if len(counts) == 1:
        return list(counts)
    return [lang for lang, n in counts.most_common() if n >= 2 and 2 * n >= best]


def regions_of(text: str, pn: Any) -> tuple[str, ...]:
    """The regions whose plans ``text``'s national phone numbers may be written for:
    ``DEFAULT_REGIONS``, then those of the country codes, the country domains, the
    languages and the scripts in it (see the module's documentation). ``pn`` is the
    ``phonenumbers`` module."""
    global _last
    if _last[0] is text:
        return _last[1]
    found: list[str] = list(DEFAULT_REGIONS)
    for m in _COUNTRY_CODE.finditer(text):
        digits = m.group(1)
        for size in (1, 2, 3):
            code = int(digits[:size])
            if len(digits) >= size and code in pn.COUNTRY_CODE_TO_REGION_CODE:
                found.append(pn.region_code_for_country_code(code))
                break
    if "." in text:
        for m in _DOMAIN_TLD.finditer(text):
            tld = m.group(1).lower()
            if tld not in _GENERIC_TLDS:
                found.append("GB" if tld == "uk" else tld.upper())
    for lang in languages_of(text):
        found.extend(LANGUAGE_REGIONS.get(lang, ()))
    for word in _views.lower(text)[:_SAMPLE].translate(_PUNCTUATION).split():
        place = _PLACE_OF.get(word)
        if place is not None:
            found.append(place)
    if "£" in text or _POSTCODE_SHAPE.search(_views.classes(text)):
        for sign, regions in SIGNS:
            if sign.search(text):
                found.extend(regions)
    if not text.isascii():
        for script, regions in SCRIPT_REGIONS:
            if script.search(text):
                found.extend(regions)
    supported = pn.SUPPORTED_REGIONS
    regions = tuple(r for r in dict.fromkeys(found) if r in supported)
    _last = (text, regions)
    return regions


#: How far either side of a phone number the text is read for the regions its plans are
#: tried in (``RegionMap.near``): the sentence, paragraph or signature it stands in. A
#: bound, so that a stream guard decides a number once it has this much text after it.
NEAR = 300
#: How far past a window's end a piece of evidence may need to be read to be sure of
#: it (a country code's separators before its digits, a domain's next characters).
EVIDENCE = 16
_WORD = re.compile(rb"\S+")
#: The longest address or link whose domain is read as a sign.
_LONGEST_HOST = 100
_CODE_DIGIT = re.compile(r"[\s.\-/(]{0,12}[0-9]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# Each letter of ``LETTERS`` and its language.
_LETTER_LANGUAGE = {c: lang for lang, letters in LETTERS.items() for c in letters}


class RegionMap:
    """Where in a text each sign of a region stands, so that the regions around any
    place are read in a few lookups (``near``): the same signs ``regions_of`` reads
    (country codes, country domains, the languages' words and letters, the names of
    places, British postcodes and ``£``, scripts), each placed at its end.

    ``near(start, end)`` reads the text from ``NEAR`` characters before ``start`` to
    ``NEAR`` after ``end``. A sign counts when it ends in that stretch; a country code
    counts when a digit follows it within a few separators.
    """

    __slots__ = ("pn", "signs", "words", "non_ascii", "_cache")

    def __init__(self, text: str, pn: Any) -> None:
        self.pn = pn
        #: Per region (of codes, domains, signs and scripts): the ends of its signs.
        self.signs: dict[str, list[int]] = {}
        #: Per language: the ends of its words and letters (one entry per occurrence).
        self.words: dict[str, list[int]] = {}
        #: Where the characters outside ASCII are (the letters of ``LETTERS`` among them
        #: count for their languages).
        self.non_ascii: list[int] = []
        self._cache: dict[tuple[int, int], tuple[str, ...]] = {}
        supported = pn.SUPPORTED_REGIONS
        signs = self.signs

        def add(region: str, at: int) -> None:
            if region in supported:
                signs.setdefault(region, []).append(at)

        for m in _COUNTRY_CODE.finditer(text):
            if _CODE_DIGIT.match(text, m.end()) is None:
                continue
            digits = m.group(1)
            for size in (1, 2, 3):
                code = int(digits[:size])
                if len(digits) >= size and code in pn.COUNTRY_CODE_TO_REGION_CODE:
                    add(pn.region_code_for_country_code(code), m.end())
                    break
        if "." in text:
            for m in _DOMAIN_TLD.finditer(text):
                tld = m.group(1).lower()
                if tld not in _GENERIC_TLDS and m.end() - m.start() <= _LONGEST_HOST:
                    add("GB" if tld == "uk" else tld.upper(), m.end())
        if "£" in text or _POSTCODE_SHAPE.search(_views.classes(text)):
            for sign, regions in SIGNS:
                for m in sign.finditer(text):
                    for region in regions:
                        add(region, m.end())
        for word in _WORD.finditer(_views.lower(text).translate(_PUNCTUATION)):
            # (as ``languages_of``: a word as it is, then without the "?" around it)
            key = word.group()
            for lang in _LANGUAGES_OF.get(key) or _LANGUAGES_OF.get(key.strip(b"?"), ()):
                self.words.setdefault(lang, []).append(word.end())
            place = _PLACE_OF.get(key)
            if place is not None:
                add(place, word.end())
        if not text.isascii():
            self.non_ascii = [m.end() for m in _NON_ASCII.finditer(text)]
            for lang in LETTERS:
                self.words.setdefault(lang, [])
            for at in self.non_ascii:
                for low in text[at - 1].lower():
                    writer = _LETTER_LANGUAGE.get(low)
                    if writer is not None:
                        self.words[writer].append(at)
            for ends in self.words.values():
                ends.sort()
            for script, regions in SCRIPT_REGIONS:
                for m in script.finditer(text):
                    for region in regions:
                        add(region, m.end())
        for ends in signs.values():
            ends.sort()

    def near(self, start: int, end: int) -> tuple[str, ...]:
        """The regions whose plans a national number at ``start:end`` is tried in:
        ``DEFAULT_REGIONS``, then those the signs within ``NEAR`` characters of it
        point at (a language's when it has at least two words there and at least half
        as many as the language with the most, or is the only one there)."""
        lo, hi = start - NEAR, end + NEAR
        key = (lo, hi)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        found = list(DEFAULT_REGIONS)
        found.extend(region for region, ends in self.signs.items() if _within(ends, lo, hi))
        # (as ``languages_of`` counts: each language with a word or a letter there; a
        # language with none is not one of the text's)
        counts: dict[str, int] = {}
        for lang, ends in self.words.items():
            n = _count(ends, lo, hi)
            if n:
                counts[lang] = n
        if counts:
            best = max(counts.values())
            chosen = (list(counts) if len(counts) == 1
                      else [lang for lang, n in counts.items() if n >= 2 and 2 * n >= best])
            for lang in chosen:
                found.extend(LANGUAGE_REGIONS.get(lang, ()))
        regions = tuple(dict.fromkeys(found))
        if len(self._cache) < 4096:
            self._cache[key] = regions
        return regions


def _within(ends: list[int], lo: int, hi: int) -> bool:
    """Whether one of the sorted ``ends`` lies in ``lo < end <= hi``."""
    i = bisect.bisect_right(ends, lo)
    return i < len(ends) and ends[i] <= hi


def _count(ends: list[int], lo: int, hi: int) -> int:
    """How many of the sorted ``ends`` lie in ``lo < end <= hi``."""
    return bisect.bisect_right(ends, hi) - bisect.bisect_right(ends, lo)


#: The last text mapped (one entry, compared by identity, as the views).
_last_map: RegionMap | None = None
_last_mapped: str = ""


def region_map(text: str, pn: Any) -> RegionMap:
    """``text``'s ``RegionMap``, made once per text (the last one is kept)."""
    global _last_map, _last_mapped
    if _last_map is None or _last_mapped is not text:
        _last_map, _last_mapped = RegionMap(text, pn), text
    return _last_map
