"""Postal addresses (type ``address``), found offline: ``AddressDetector``.

An address is a street and a house number, or a PO box, with whatever follows it in
the same run: a unit, a postal code, a city, a region, a country. The street is known
by its type word, as each language writes it:

- German: a word ending in ``straße``, ``str.``, ``weg``, ``gasse``, ``allee``,
  ``platz``, ``ring``, ``damm``, ... or such a word after others (``Berliner Straße``,
  ``Straße des 17. Juni``), or a street named with a preposition (``Am Markt``, ``An der
  Alster``, ``Unter den Linden``), then the number: ``Hauptstr. 5a``;
- English: the number, the name and a suffix (``Street``, ``St``, ``Ave``, ``Road``,
  ``Blvd``, ``Lane``, ``Drive``, ``Close``, ``Crescent``, ...), a direction and a unit
  (``Apt 4B``, ``Suite 200``): ``1600 Pennsylvania Ave NW``; a UK flat before it
  (``Flat 3, 12 High Street``);
- French: the number (``12``, ``12 bis``), the type (``rue``, ``avenue``, ``bd``,
  ``place``, ``chemin``, ``allée``, ``impasse``, ``quai``, ...) and the name: ``3, rue
  de la Paix``;
- Spanish: the type (``Calle``, ``C/``, ``Avda.``, ``Paseo``, ``Plaza``, ``Carrer``,
  ...), the name, the number (``nº 5``) and the floor and door (``3º B``, ``2.º
  izda.``): ``C/ Alcalá 45, 3º B``;
- PO boxes: ``P.O. Box 1234``, ``Postfach 12 34 56``, ``BP 123``, ``Apartado de
  correos 45``.

What follows on the same line, or on the next when it starts with a postal code, is
taken while it is one: a postal code and a city (``10115 Berlin``, ``75002 Paris
Cedex 02``, ``28013 Madrid (Madrid)``, ``Springfield, IL 62704``, ``London SW1A 1AA``),
a region and a country.

Needs the ``names`` extra like the ``name`` detector (``pip install
'tripwire[names]'``), although it reads no data of it: the two are one tier.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from tripwire.detectors import _gazetteers, _views
from tripwire.guards.verdicts import Detection

__all__ = ["AddressDetector"]

_UP = "A-ZÀ-ÖØ-ÞĀ-ſ"  # capitals (and, for Latin Extended-A, both cases: harmless here)
_W = r"[^\W\d_]"  # a letter
# A word of a street's or a city's name: capitalised, or a number in a name (17. Juni).
_NAME = rf"(?:[{_UP}]{_W}*(?:['’.-]{_W}+)*\.?|\d{{1,2}}\.)"
# A word of a name without dots or digits.
_PLAIN = rf"[{_UP}]{_W}*(?:['’-]{_W}+)*"
# A house number: 12, 12a, 12 A, 12-14, 12/3, 12 bis.
_NUMBER = (r"\d{1,5}(?:[ \t]?[a-zA-Z](?![\w]))?(?:[ \t]?[-–/][ \t]?\d{1,5}[a-zA-Z]?(?!\w))?"
           r"(?:[ \t](?:bis|ter|quater)\b)?")

_DE_TYPES = (r"straße|strasse|str\.|weg|gasse|allee|platz|ring|damm|ufer|chaussee|steig|"
             r"pfad|markt|graben|kamp|wall|zeile|steg|stieg|promenade|passage|hof|garten|"
             r"berg|feld|tor|brücke|anger|höhe|winkel|redder|twiete|grund|acker|aue|bogen|"
             r"blick|busch|heide|hain|hang|leite|mühle|siedlung|tal|terrasse|trift|wiese|"
             r"wald|wende|graben|deich|koppel|kai|gässchen|gässle|gäßchen|stiege|rain|"
             r"halde|matt|matte|brunnen|park")


def _behind(words: Iterable[str]) -> str:
    """A pattern that matches where the text before ends with one of ``words``
    (patterns of literal characters): a lookbehind for each length, so a place where
    none ends is ruled out in a few steps, not one per word."""
    widths: dict[int, list[str]] = {}
    for word in dict.fromkeys(words):
        widths.setdefault(len(word.replace("\\", "")), []).append(word)
    return "|".join(f"(?<={'|'.join(same)})" for same in widths.values())


# A word that ends in one of them (Hauptstraße, Karl-Marx-Allee): checked once at the
# word's end.
_DE_TYPE_WORDS = [t for w in _DE_TYPES.split("|") for t in (w, w.capitalize())]
_DOTTED = [t[:-2] for t in _DE_TYPE_WORDS if t.endswith(r"\.")]  # str\. : "str" and a dot
_DE_ENDS = (_behind(t for t in _DE_TYPE_WORDS if not t.endswith(r"\."))
            + rf"|(?:{_behind(_DOTTED)})\.")
# The words a German street's name starts with: Am Markt, Unter den Linden, Alte Gasse.
_DE_BEFORE = (r"Am|An[ \t]de[rmn]|Auf[ \t]de[rmn]|Im|In[ \t]de[rmn]|Unter[ \t]de[rmn]|Zum|Zur|"
              r"Hinter[ \t]de[rmn]|Vor[ \t]de[rmn]|Bei[ \t]de[rmn]|Alt|Alte[rns]?|Neue[rns]?|"
              r"Obere[rns]?|Untere[rns]?|Große[rns]?|Kleine[rns]?")
_DE_STREET = (
    rf"(?:[{_UP}][\w-]*+(?:{_DE_ENDS})"                              # Hauptstraße, Karl-Marx-Allee
    rf"|(?:{_NAME}[ \t]){{1,3}}(?:Stra(?:ß|ss)e|Str\.|Weg|Gasse|Allee|Platz|Ring|Damm|Ufer|"
    rf"Chaussee|Markt|Steig|Pfad|Promenade)"                         # Berliner Straße
    rf"|(?:Stra(?:ß|ss)e|Platz|Allee)[ \t](?:de[rsnm]|am|an[ \t]der)[ \t]{_NAME}(?:[ \t]{_NAME})?"
    rf"|(?:{_DE_BEFORE})[ \t-]{_PLAIN}(?:[ \t]{_PLAIN})?)")

_EN_SUFFIX = (r"Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|"
              r"Place|Pl|Way|Terrace|Ter|Close|Crescent|Cres|Square|Sq|Parkway|Pkwy|"
              r"Highway|Hwy|Circle|Cir|Trail|Trl|Row|Gardens|Gdns|Hill|Mews|Grove|Walk|"
              r"Park|Green|Plaza|Alley|Loop|Pike|Turnpike|Expressway|Freeway|Causeway|"
              r"Embankment|Parade|Rise|Vale|View|Wharf|Quay|Yard|Broadway|Gate|Hollow|"
              r"Ridge|Run|Point|Pointe|Crossing|Commons|Heights|Estate|Center|Centre")
_DIRECTION = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?"
_UNIT = (r"(?:,?[ \t]*(?:Apt|Apartment|Suite|Ste|Unit|Fl|Floor|Room|Rm|Bldg|Building|"
         r"Flat|Dept|appartement|appt|app|bâtiment|bât|étage|escalier|esc|porte|"
         r"Wohnung|Whg|Aufgang|Etage|App)\.?[ \t]*(?:n[°º]|#)?[ \t]*[\w-]{1,6}"
         r"|,?[ \t]*\#[ \t]?[\w-]{1,6})")
_EN_STREET = (
    # a unit on an estate, without a street number: Unit 7, Bridge Industrial Estate
    rf"(?:Unit|Units|Suite)[ \t]+[\w-]{{1,5}},[ \t]*(?:{_NAME}[ \t]+){{1,4}}(?:{_EN_SUFFIX}|Estate)"
    rf"(?!\w)|(?:(?:Flat|Apartment|Apt|Unit|Suite)[ \t]+[\w-]{{1,5}},[ \t]*)?"
    rf"{_NUMBER}[ \t]+(?:{_DIRECTION}[ \t]+)?"
    rf"(?:(?:{_NAME}|\d{{1,3}}(?:st|nd|rd|th))[ \t]+){{1,4}}(?:{_EN_SUFFIX})\.?"
    rf"(?:[ \t]+{_DIRECTION}(?!\w))?{_UNIT}?")

_FR_TYPES = (r"rue|avenue|av\.|ave\.?|boulevard|bd\.?|bld\.?|blvd\.?|place|pl\.|chemin|"
             r"ch\.|allée|all\.|impasse|imp\.|quai|route|rte\.?|cours|square|sq\.|voie|"
             r"passage|rond-point|faubourg|fbg\.?|cité|sentier|esplanade|promenade|villa|"
             r"hameau|lieu-dit|parvis|résidence|montée|traverse|rampe|mail|clos|carrefour|"
             r"chaussée|ruelle|venelle|galerie|domaine|lotissement|square")


def _any_case(types: str) -> str:
    """``types`` (alternatives of lower-case words) with their first letter in either
    case, grouped by that letter: a place whose letter starts none is ruled out in one
    step, not one per word (and the words of a letter are tried in their order)."""
    by_letter: dict[str, list[str]] = {}
    for t in types.split("|"):
        by_letter.setdefault(t[0], []).append(t[1:])
    return "(?:" + "|".join(f"[{c.upper()}{c}](?:{'|'.join(rest)})"
                            for c, rest in by_letter.items()) + ")"


_FR_ANY_CASE = _any_case(_FR_TYPES)
_FR_LINK = r"(?:de|du|des|la|le|les|l['’]|d['’]|aux|au|en|sur|sous|et|à)"
_FR_NAME = rf"(?:(?:{_FR_LINK}[ \t]?)*(?:{_NAME}|\d{{1,2}}(?:er)?(?!\d))[ \t]?){{1,6}}"
_FR_STREET = (
    rf"{_NUMBER},?[ \t]+{_FR_ANY_CASE}[ \t]+{_FR_NAME}{_UNIT}?"
    # street first, as Belgium and Switzerland write it: Chaussée de Wavre 214
    rf"|{_FR_ANY_CASE}[ \t]+(?:(?:{_FR_LINK}[ \t]?)*{_NAME}[ \t]?){{1,6}},?[ \t]*\d{{1,4}}(?:[ \t]?[a-zA-Z](?!\w))?"
    rf"(?:[ \t](?:bis|ter))?(?!\w){_UNIT}?")

_ES_TYPES = (r"Calle|C/|C\.|Cl\.|Avenida|Avda\.?|Av\.|Avd\.|Paseo|Pº\.?|P°\.?|Po\.?|Plaza|Pza\.?|"
             r"Pl\.|Plaça|Camino|Cno\.|Carrer|Carretera|Ctra\.?|Ronda|Rda\.|Travesía|"
             r"Trav\.|Glorieta|Gta\.|Vía|Rambla|Passeig|Pg\.|Avinguda|Urbanización|Urb\.|"
             r"Callejón|Pasaje|Pje\.|Cuesta|Costanilla|Bulevar|Polígono|Pol\.|Alameda|"
             r"Carrera|Calzada|Camí|Travessera|Via|Rúa|Rua|Travessa|Largo|Praça|Estrada|Colonia")
_ES_LINK = r"(?:de|del|la|las|los|el|y|i|d['’]|l['’]|dels|en|do|da|dos|das)"
_FLOOR = (r"(?:,?[ \t]*(?:\d{1,2}[ \t]?\.?[ \t]?[º°ª](?:[ \t]?-?[ \t]?(?:[A-Z]|\d{1,2}|"
          r"izq(?:uierda|da)?\.?|izda\.?|izqda\.?|dcha\.?|dch\.?|der(?:echa)?\.?|ctro\.?|centro|"
          r"planta|piso))?|bajo|entlo\.?|"
          r"entresuelo|ático|planta[ \t]\d{1,2}|piso[ \t]\d{1,2}|"
          r"(?:puerta|pta|dpto|depto|departamento|nave|oficina|of|parcela|casa|int|"
          r"interior)\.?[ \t]\w{1,4}|"
          r"esc(?:alera)?\.?[ \t]\w{1,3}|portal[ \t]\w{1,3}|bloque[ \t]\w{1,3}|"
          r"local[ \t]\w{1,3}|[A-Z](?![\w]))){0,4}")
# Colombia and its neighbours number their streets: Calle 85 # 11-53, Cra. 7 No. 32-16
_ES_NUMBERED = r"Calle|Cl\.?|Carrera|Cra\.?|Kr\.?|Avenida|Av\.?|Diagonal|Dg\.?|Transversal|Tv\.?"
_ES_STREET = (
    rf"(?:{_ES_NUMBERED})"
    rf"[ \t]+\d{{1,3}}[A-Z]?(?:[ \t](?:bis|Sur|Norte|Este))?[ \t]*(?:#|No\.?|N[º°o]\.?)[ \t]*"
    rf"\d{{1,3}}[A-Z]?[ \t]?-[ \t]?\d{{1,3}}{_FLOOR}"
    rf"|(?:{_ES_TYPES})[ \t]*(?:(?:{_ES_LINK}[ \t]?)*{_NAME}[ \t]?){{1,6}}"
    rf"(?:,[ \t]*|[ \t]+)(?:(?:n[º°o]\.?|n\.[º°]|núm\.?|número|nave|km\.?|parcela)[ \t]*)?"
    rf"(?:{_NUMBER}|s/n)"
    rf"{_FLOOR}")

_PO_BOX = (r"(?:P\.?[ \t]?O\.?[ \t]?Box|PO[ \t]Box|Post[ \t]Office[ \t]Box|Postfach|"
           r"B\.?P\.?|CS|TSA|Boîte[ \t]postale|Apartado(?:[ \t](?i:de[ \t]correos))?|Apdo\.?)"
           r"[ \t]*\d[\d \t]{0,9}\d?")
#: The words one of them holds, whichever way it is written.
_PO_WORDS = ("Box", "Postfach", "BP", "B.P", "CS", "TSA", "Boîte", "Apartado", "Apdo")

# A postal code and a city, a region, a country: what may follow a street, after a
# comma, a space or a line break.
_UK_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}"
# A city: Berlin, Frankfurt am Main, Aix-en-Provence, Santiago de Compostela, New York,
# Paris Cedex 08; a capitalised word goes on a city's name only after a particle or
# a word that starts one (San, New, Bad, ...), so "Köln Telefon" is Köln.
_CITY_START = (r"(?:New|San|Santa|Santo|São|Saint|Sainte|St\.|Ste\.|Bad|Le|La|Les|Los|Las|El|"
               r"Port|Fort|North|South|East|West|Ciudad|Villa|Puerto|Mont|Val|Sankt|Schwäbisch|"
               r"Hann\.|Markt|Neu|Alt|Groß|Klein|Nieder|Ober|Unter)")
_CITY = (rf"(?:{_CITY_START}[ \t-]|(?:Col|Fracc|Urb|Bo|Bº|Res|Lot)\.[ \t])?{_PLAIN}(?:\.(?=[ \t]*[,)]))?(?:(?:[ \t-](?:am|an|der|den|im|bei|"
         rf"ob|vor|sur|sous|de|del|la|le|les|en|lès|d['’]|l['’])){{1,3}}[ \t-]?{_PLAIN}"
         rf"|[ \t]Cedex(?:[ \t]\d{{1,2}})?|[ \t]\d{{1,2}}(?=[ \t]*(?:,|\n|$))"
         # a second word that ends the address: Buenos Aires, Hong Kong
         rf"|[ \t]{_PLAIN}(?=[ \t]*(?:[,\n.;()]|$)))*")
_POSTAL_CITY = (
    rf"(?:(?:[A-Z]{{1,2}}-)?\d{{5}}|(?:[A-Z]{{1,2}}-)?\d{{4}}(?:-\d{{3}})?(?=[ \t;]{_W})"
    rf"|[A-Z]\d{{4}}[A-Z]{{3}}|C\d{{4}})"  # Argentina: C1043AAZ
    rf"(?:[ \t]+|[ \t]*;[ \t]*){_CITY}(?:[ \t]*\({_NAME}(?:[ \t]{_NAME})*\))?")
_SEP = r"(?:[ \t]*[,;][ \t]*|[ \t]*\n[ \t]*|[ \t]+)"
# Postal codes that end an address after its places: a US state and ZIP code, a
# Canadian province and postal code, a UK postcode.
_CODE = (rf"(?:[A-Z]{{2}}[ \t]*,?[ \t]*\d{{5}}(?:-\d{{4}})?(?!\w)"
         rf"|(?:[A-Z]{{2}}[ \t]+)?[A-Z]\d[A-Z][ \t]?\d[A-Z]\d(?!\w)|{_UK_POSTCODE}(?!\w))")
# The end of a line or a sentence: places before it belong to the address.
_LINE_END = r"(?=[ \t]*(?:\n|$|[.;)\"»–—]))"
_TAIL = (rf"(?:{_SEP}(?:{_CITY}{_SEP}){{0,2}}(?:{_POSTAL_CITY}|{_CODE})"
         rf"|(?:,[ \t]*{_CITY}){{1,3}}{_LINE_END})")
_REGION = rf"(?:,[ \t]*{_PLAIN}(?:[ \t]{_PLAIN}){{0,2}}(?=[ \t]*(?:\n|$|[.;)!?])))?"

# After an address's field label and the space after it (each separator ends with a
# space, a tab or a line break, and a capital follows: tried only there).
_LABELS = ("Anschrift", "Adresse", "Address", "Dirección", "Direccion", "Domicilio", "Wohnort",
           "Wohnanschrift", "Lieferadresse", "Rechnungsadresse", "Sitz", "domicile", "adresse",
           "address", "dirección", "domicilio", "Domicile")
_ADDRESS_LABEL = rf"(?<=[ \t\n])(?=[{_UP}])(?:" + _behind(
    f"{label}{sep}" for label in _LABELS for sep in (": ", " : ", ":\t", ": \n", ":\n", " ")) + ")"
# The streets of each kind, in the order the address pattern tries them: an English
# number and suffix, a Spanish type, a French type, a German type and the number after
# it, a PO box.
_STREETS = (_EN_STREET, _ES_STREET, _FR_STREET, rf"{_DE_STREET}[ \t]*,?[ \t]*{_NUMBER}{_UNIT}?",
            _PO_BOX)
# After an address label, a street without a type word (Eigelstein 112) when its postal
# code and city follow.
_LABELLED = (rf"(?:{_ADDRESS_LABEL})(?:{_PLAIN}[ \t]){{1,3}}\d{{1,4}}[a-z]?(?!\w)[ \t]*,?[ \t]*"
             rf"{_POSTAL_CITY}(?:{_REGION})")


@functools.cache
def _address(kinds: tuple[bool, ...]) -> re.Pattern[str]:
    """The address pattern with the streets of ``_STREETS`` whose flag is set (and the
    labelled street, the last flag): the part of a text that holds none of a kind's
    words (``_KIND_WORDS``) is searched without trying that kind at every word. Each
    is made on first use (the whole pattern in about 0.06 s)."""
    streets = "|".join(s for s, wanted in zip(_STREETS, kinds, strict=False) if wanted)
    alternatives = [f"(?:{streets})(?:{_TAIL}(?:{_REGION}))?"] if streets else []
    if kinds[-1]:
        alternatives.append(_LABELLED)
    return re.compile(rf"(?<![\w/.-])(?:{'|'.join(alternatives)})(?![\w])")


def _literal_start(alternative: str) -> str:
    """The characters every match of ``alternative`` (one alternative of the patterns
    above: literal characters, escapes and quantifiers) starts with."""
    out = ""
    for token in re.findall(r"\\.|.", alternative):
        if token in ("?", "*", "{"):
            return out[:-1]  # (the character before may be left out)
        if len(token) == 2 and not token[1].isalnum():
            out += token[1]  # an escaped character
        elif len(token) == 2 or token in "[](){}+|^$.":
            break  # a class, a group, an alternative, an anchor
        else:
            out += token
    return out


def _any_of(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern that finds where one of ``words`` is written: the words that start with
    another are left out, the others grouped by their first character (which the
    regex engine checks before trying a group)."""
    words = set(words)
    by_first: dict[str, list[str]] = {}
    for word in sorted(words, key=len, reverse=True):
        if not any(word.startswith(other) for other in words if other != word):
            by_first.setdefault(word[0], []).append(re.escape(word[1:]))
    return re.compile("|".join(re.escape(c) + (f"(?:{'|'.join(rest)})" if any(rest) else "")
                               for c, rest in by_first.items()))


# The words each kind of ``_STREETS`` (and the labelled street) holds, one of them or
# its start: a street's type (its end, in German; a word a German street's name starts
# with), a PO box's word, an address's label.
_KIND_WORDS = tuple(_any_of(w for w in words if w) for words in (
    map(_literal_start, (*_EN_SUFFIX.split("|"), "Estate")),
    map(_literal_start, (*_ES_NUMBERED.split("|"), *_ES_TYPES.split("|"))),
    (case(t) for t in map(_literal_start, _FR_TYPES.split("|"))
     for case in (str.lower, str.capitalize)),
    map(_literal_start, (*_DE_TYPE_WORDS, *_DE_BEFORE.split("|"))),
    _PO_WORDS,
    _LABELS))

# Which kinds' words are quick to look for: those that start with a capital or a mark
# (a try at few places), looked for in every part; the French and German ones (words in
# lower case: a try at most letters, as much as searching with them costs on chat text)
# only in a part with a number every ``_DENSE`` characters or closer (a text built to be
# slow: a number in every few words), and taken as there in another.
_CHEAP = (True, True, False, False, True, True)
_DENSE = 10


class AddressDetector:
    """Postal addresses (type ``address``) in English, German, French and Spanish:
    a street known by its type word and a house number, or a PO box, with the postal
    code, city, region and country that follow (see the module). Needs ``pip install
    'tripwire[names]'``."""

    name = "address"
    types = ("address",)
    # a street, number, unit, postal code, city, region and country
    max_length = 160

    def __init__(self) -> None:
        _gazetteers.require("the address detector")

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        found: list[Detection] = []
        for w0, w1, numbers in _windows(text):
            part = text[w0:w1]
            dense = numbers * _DENSE >= w1 - w0
            kinds = tuple(words.search(part) is not None if dense or cheap else True
                          for words, cheap in zip(_KIND_WORDS, _CHEAP, strict=True))
            if not any(kinds):
                continue  # (no street's word: no address)
            for m in _address(kinds).finditer(part):
                start, end = m.start() + w0, m.end() + w0
                value = text[start:end].rstrip(" \t,.")
                if not any(c.isdigit() for c in value) or len(value) < 6:
                    continue
                found.append(Detection("address", start, start + len(value), 0.85, self.name,
                                       value))
        return found


def _windows(text: str) -> list[tuple[int, int, int]]:
    """The parts of ``text`` an address can be in, and how many numbers each holds:
    every address has a number, with at most ``_BEFORE`` characters of street, label
    and unit before its first digit and ``_AFTER`` of postal code, city, region and
    country after its last one. Each starts after white space (or at the start), so a
    match cannot start inside a word."""
    windows: list[tuple[int, int, int]] = []
    for m in _DIGITS.finditer(text):
        w0, w1 = max(0, m.start() - _BEFORE), min(len(text), m.end() + _AFTER)
        if windows and w0 <= windows[-1][1]:
            windows[-1] = (windows[-1][0], w1, windows[-1][2] + 1)
            continue
        space = max(text.rfind(" ", 0, w0), text.rfind("\n", 0, w0), text.rfind("\t", 0, w0))
        windows.append((space + 1 if space >= 0 else 0, w1, 1))
    return windows


_DIGITS = re.compile(r"\d+")
_BEFORE, _AFTER = 120, 160
