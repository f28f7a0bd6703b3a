"""Personal identifiers: US Social Security numbers and dates of birth.

- ``SSNDetector`` (``ssn``): ``AAA-GG-SSSS`` or ``AAA GG SSSS``, and nine bare digits
  or ``AAA.GG.SSSS`` only near an SSN keyword ("SSN", "social security", "Seguro
  Social", "Sozialversicherungsnummer", ...) or in a table's SSN column, that follow
  the SSA's rules: the area is not 000, 666 or 900-999, the group not 00, the serial
  not 0000, and the number is not one of those published in advertising or examples
  (078-05-1120, 219-09-9999, 457-55-5462, 123-45-6789) nor nine times the same digit;
  a field of a table (``...,119-50-6144,...``) too;
- ``DateOfBirthDetector`` (``date-of-birth``): a date (numeric in the common orders,
  or with an English, German, French or Spanish month name: ``14 March 1987``, ``14.
  März 1987``, ``1er février 1990``, ``14 de marzo de 1987``) within 40 characters of a
  birth keyword ("born", "DOB", "date of birth", "birthday", "geboren", "geb.",
  "Geburtsdatum", "né", "naissance", "nacido", "nació", "nacimiento", "F. nac.",
  "cumpleaños", ``dateOfBirth``, ...) with no
  other date between them (``DOB: 01/15/2015 Start date: 09/03/2024`` is one date of
  birth; 64 when a colon ends what stands between them, as after a form's label with
  a note; 100 when the keyword is in a heading above the date, a title or a label on
  a line of its own, and the date is at least 14 years old), that is a real day, after
  1700 and in the past (an ancestor's in a family's history too); a date beside an age ("37 Jahre alt", "45 y/o", "elle a 37
  ans", "tiene 30 años") that makes it the person's birth date; the same day written
  again right after a date of birth, in
  either numeric order ("„3. März 1978“ ... „03.03.1978“"); and a date in the column of
  a table (CSV, TSV, ``;`` or ``|`` separated) whose header names a birth date
  (``dob``, ``date_of_birth``, ``Geburtsdatum``, ...), down to a line with another
  number of fields or longer than 400 characters. Only the date is reported.

Both look at context beyond what they report, so their ``max_length`` covers the
keyword and the distance too: a stream guard then holds back enough text to see the
keyword that makes a number or a date personal data.
"""

from __future__ import annotations

import bisect
import datetime
import re
import string
from collections.abc import Iterable, Iterator
from typing import Any

import attrs

from tripwire.detectors import _views
from tripwire.guards.verdicts import Detection
from tripwire.guards.window_start import trailing_run

__all__ = ["DateOfBirthDetector", "SSNDetector", "ssn_is_valid"]

#: Numbers the SSA never issued to anyone but that circulate: the Woolworth wallet card
#: (078-05-1120), the SSA's own advertising number (219-09-9999), a published CEO's
#: (457-55-5462) and the form example (123-45-6789).
KNOWN_INVALID_SSNS = frozenset({"078051120", "219099999", "457555462", "123456789"})


def ssn_is_valid(digits: str) -> bool:
    """Whether nine digits can be a Social Security number under the SSA's rules."""
    if len(digits) != 9 or not digits.isdigit() or not digits.isascii():
        return False
    area, group, serial = int(digits[:3]), digits[3:5], digits[5:]
    if area == 0 or area == 666 or area >= 900 or group == "00" or serial == "0000":
        return False
    return digits not in KNOWN_INVALID_SSNS and len(set(digits)) > 1


# Found in the text's ASCII bytes with every digit turned into "0" (``_views.classes``),
# so the pattern starts with a literal (far faster for the regex engine than a class).
_SSN_RUN = re.compile(rb"000(?:-00-| 00 |00|\.00\.)0000")
_SSN_KEYWORD = re.compile(
    r"(?i)\b(?:ssns?|ss\s?#|ss\s?no|social\s+security|soc\.?\s?sec|ssa\s+number"
    r"|seguro\s+social|sozialversicherungs-?(?:nummer|nr)|s[ée]curit[ée]\s+sociale)(?![a-z])")
_CONTEXT = 30  # how far from a number its keyword may be
_DOB_CONTEXT = 40  # how far from a date its keyword may be
# how far when a colon ends what stands between: a form's label with a note in it
# ("Date of birth (as shown on your passport, DD/MM/YYYY): 14/03/1987")
_DOB_LABEL_CONTEXT = 64
# how far when the keyword is in a heading above the date (a ticket's or a message's
# title, a form's label on a line of its own: ``_HEADING_LINE``), and the date is
# older than ``_ADULT_YEARS``: "BUG-552: Geburtsdatum in Langform wird nicht erkannt\n
# Import aus dem Bewerberportal: „3. März 1978“ ..."
_DOB_HEADING_CONTEXT = 100
_HEADING_LINE = 80  # the longest line a heading is
_ADULT_YEARS = 14
_DOB_REACH = max(_DOB_LABEL_CONTEXT, _DOB_HEADING_CONTEXT)
_FAR = 1 << 62  # farther than any text
_LONGEST_HEADER = 400  # the longest header line of a table that is looked at
_LONGEST_ROW = 400  # the longest row of a table: a longer line ends it
_SEPARATORS = (",", ";", "\t", "|")  # what separates the fields of a table's line
_FIELD_SEPARATORS = "".join(_SEPARATORS)


class SSNDetector:
    """US Social Security numbers (type ``ssn``), checked against the SSA's rules."""

    name = "ssn"
    types = ("ssn",)
    #: A table's row (at most ``_LONGEST_ROW`` characters), whose end decides whether
    #: nine bare digits in it are in an SSN column.
    max_length = _LONGEST_ROW + 2
    #: Before a number: 11 characters of it, up to 30 of distance and up to 31 of
    #: keyword (a table's header is ``context``).
    lookbehind = 72
    #: A number starts with a digit.
    starts = _views.folded_to(string.digits)

    @staticmethod
    def hold_from(text: str) -> int:
        """Where a number may still change: in the run of digits, spaces and dashes
        that ends ``text`` (and a last ".", "/" or ","), a number whose keyword may
        still come after it (one is looked for up to 54 characters on), or one in the
        line ``text`` ends in when that line may be a table's row."""
        n = len(text)
        # A number in a line that may be a table's row: the row's end decides its column.
        row = n
        line_start = text.rfind("\n") + 1
        if n - line_start <= _LONGEST_ROW and any(s in text[line_start:] for s in _SEPARATORS):
            first = _SSN_RUN.search(_views.classes(_views.fold(text[line_start:])))
            if first is not None:
                row = line_start + first.start()
        tail = _views.fold(text[max(0, n - 72):])
        view = _views.classes(tail)
        if b"0" not in view:  # (every digit is "0" in the view)
            return row
        end = len(tail) - 1 if tail.endswith((".", "/", ",")) else len(tail)
        run = tail[trailing_run(tail[:end], "0123456789 -", 14):end]
        at = end - len(run.lstrip(" -"))
        # (a search from each place: the first number that ends within reach)
        reach = len(tail) - _CONTEXT - 25
        m = _SSN_RUN.search(view, max(0, reach - 11))
        while m is not None and m.end() <= reach:
            m = _SSN_RUN.search(view, m.start() + 1)
        return min(row, n - len(tail) + (at if m is None else min(at, m.start())))

    def detect(self, text: str) -> Iterable[Detection]:
        return self.detect_from(text, 0)

    @_views.reads_folded
    def detect_from(self, text: str, since: int) -> Iterable[Detection]:
        """``detect``'s detections that start at ``since`` or after: the numbers before
        it are not judged (each is judged alone)."""
        found: list[Detection] = []
        for m in _SSN_RUN.finditer(_views.classes(text)):
            start, end = m.span()
            if start < since:
                continue
            value = text[start:end]
            before = text[start - 1] if start else " "
            after = text[end] if end < len(text) else " "
            # a field of a table (CSV, TSV, ``;`` or ``|``): its separators around it
            field = before in _FIELD_SEPARATORS and after in _FIELD_SEPARATORS + "\r\n "
            if not field and before == " " and after in " |":  # a Markdown table's cell
                field = (text[max(0, start - 8):start].rstrip(" ")[-1:] == "|"
                         and text[end:end + 8].lstrip(" ")[:1] == "|")
            if not field and (before.isalnum() or before in "_+$.,/-" or after.isalnum()
                              or after == "_"):
                continue
            if not field and ((before == " " and start >= 2 and text[start - 2].isdigit()) or (
                    after in " -./," and text[end + 1:end + 2].isdigit())):
                continue  # a group of a longer number: 415 123 45 6789, 123-45-6789-0
            digits = value.replace("-", "").replace(" ", "").replace(".", "")
            if not ssn_is_valid(digits):
                continue
            near = any(
                0 <= start - k.end() <= _CONTEXT or 0 <= k.start() - end <= _CONTEXT
                for k in _SSN_KEYWORD.finditer(
                    text, max(0, start - _CONTEXT - 24), min(len(text), end + _CONTEXT + 24)))
            if len(value) == 9 or "." in value:
                if not near and not (field and _in_ssn_column(text, start)):
                    continue  # nine bare digits (or dotted) are an SSN only when called one
                score = 0.9
            elif near:
                score = 1.0
            else:
                score = 0.95 if "-" in value else 0.8
            found.append(Detection("ssn", start, end, score, self.name, value))
        return found

    def context(self, text: str) -> str:
        """What a number after ``text`` depends on beyond the ``lookbehind``: the line
        ``text`` ends in as far as it goes and, when its last whole line is a row of a
        table whose header names an SSN column, that header and a row that stands
        between it and what follows as the rows did (so a header far above still
        makes nine bare digits an SSN, and is never near enough to be their keyword).
        A stream guard searches what follows with this before it."""
        last_line = text.rfind("\n") + 1
        partial = text[last_line:]
        if len(partial) > _LONGEST_ROW:
            return ""  # a line too long to be a table's
        if not last_line:
            return partial
        line_start = text.rfind("\n", 0, last_line - 1) + 1
        line = text[line_start:last_line - 1]
        sep = max(_SEPARATORS, key=line.count)
        fields = line.count(sep)
        if not fields or len(line) > _LONGEST_HEADER:
            return partial
        # (the row that follows is the 200th line below its header at most)
        header = _header_above(text, line_start, line, sep, 199)
        if not any(_SSN_KEYWORD.fullmatch(name.strip(" \"'\r"))
                   for name in header.split(sep)):
            return partial
        width = -(-(_CONTEXT + 24) // (fields + 1))
        filler = sep.join(["x" * width] * (fields + 1))
        if len(filler) > _LONGEST_HEADER:
            return partial
        return header + "\n" + filler + "\n" + partial


def _in_ssn_column(text: str, at: int) -> bool:
    """Whether the field of a table (CSV, TSV, ``;`` or ``|``) at ``at`` is in a column
    whose header is an SSN keyword: the first of the lines above with as many fields
    (at most ``_LONGEST_HEADER`` characters each, 200 lines up)."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line = text[line_start:len(text) if line_end == -1 else line_end]
    if len(line) > _LONGEST_ROW:
        return False  # a line too long to be a table's row
    sep = max(_SEPARATORS, key=line.count)
    column = text.count(sep, line_start, at)
    header = _header_above(text, line_start, line, sep, 200)
    if header is line:
        return False
    name = header.split(sep)[column].strip(" \"'\r")
    return _SSN_KEYWORD.fullmatch(name) is not None


def _header_above(text: str, line_start: int, line: str, sep: str, lines: int) -> str:
    """The header of the table whose line ``line`` (at ``line_start``) is: the first of
    the lines above it with as many ``sep`` (at most ``_LONGEST_HEADER`` characters
    each, ``lines`` up at most); ``line`` itself when there is none."""
    fields = line.count(sep)
    header = line
    for _ in range(lines):
        if line_start == 0:
            break
        above_start = text.rfind("\n", 0, line_start - 1) + 1
        above = text[above_start:line_start - 1]
        if len(above) > _LONGEST_HEADER or above.count(sep) != fields:
            break
        header, line_start = above, above_start
    return header


# -------------------------------------------------------------------- date of birth

# Birth keywords, found in the text's ASCII bytes in lower case (one byte a character,
# "?" for the others, so offsets stay) by patterns that each start with a literal (the
# regex engine finds those far faster than an alternation or a case-insensitive
# pattern): born, birth..., bday, b-day, dob, d.o.b, geb, geb., geboren, geburt...,
# GebDat(um), naissance, naiss., DDN, D.D.N. and a "DN:" label right before its date
# (date de naissance), F.N. and a "FN:" label so (fecha de nacimiento), the forms of French "naître" (né, née, nés, naît, nait, naquit,
# naissent) and Spanish "nacer" (nace, nacer, nacido, nacida, nací, naci, nació, nacio,
# nacimos, nacieron, naciera), nacimiento, nac., "nac" as a label or a field's name
# (``Fecha de nac: ...``, ``fecha_nac=...``), natalicio, cumpleaños,
# anniversaire, and the genealogists' "*" before a date (``Anna Weber, * 12.03.1985``).
_KEYWORD_SCANS = tuple(re.compile(p) for p in (
    rb"b(?:orn|irth[a-z]*|-?day)", rb"d(?:ob|\.o\.b|dn|\.d\.n\.?|n(?=[ \t]*:[ \t]*[0-9]))",
    rb"geb(?:oren|\.|urt[a-z?]*|dat(?:um)?)?", rb"f(?:\.[ \t]?n\.|n(?=[ \t]*:[ \t]*[0-9]))",
    rb"n(?:a(?:iss(?:ance|ent|\.)?|quit|quirent|(?:i|\?)t(?:re)?"
    rb"|c(?:i(?:d[oa]s?|miento|mos|ste|eron|era|o|\?)?|e[ns]?|er|\?|\.|(?=[ \t]*[:=]|[;,|\t\"']))"
    rb"|talicio)"
    rb"|\?(?:es?|s)?)",
    rb"cumplea(?:\?|n)os", rb"anniversaire", rb"\*(?= ?[0-9])",
    # "b." right before a date (``Ann Lee (b. 1987-03-03)``), and the phrases for being
    # born or giving birth: "zur Welt gekommen", "das Licht der Welt erblickt", "venu
    # au monde", "vu le jour", "vino al mundo", "vio la luz", "dio a luz"
    rb"b\.(?= ?(?:[0-9]|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))",
    rb"zur welt", rb"licht der welt", rb"au monde", rb"(?:vu|voit|vit) le jour",
    rb"al mundo", rb"vi[o?] la luz", rb"d(?:i[o?]|ar|ado) a luz"))
# An age, in the lower view: "37 years old", "37 y/o", "37 Jahre alt", "37-jährig",
# "37 años de edad"; "aged 37", "age: 37", "Alter: 37", "edad: 37", "âge : 37"; and "37
# ans", "37 años" after a verb that gives an age ("elle a 37 ans", "âgée de 37 ans",
# "tiene 37 años"). A date beside an age that makes it the person's birth date is one.
# (Each pattern starts with a digit or a literal, which the regex engine skips to.)
_AGE_SCANS = tuple(re.compile(p) for p in (
    rb"(?P<n>[0-9]{1,3})(?: ?(?:years?|yrs?)[ -]old| ?y/o| jahre alt|-j\?hrig"
    rb"|(?P<unit> a\?os| ans))(?![a-z0-9])",
    rb"age[ds]?:? ?(?P<n>[0-9]{1,3})(?![a-z0-9])", rb"alter:? ?(?P<n>[0-9]{1,3})(?![a-z0-9])",
    rb"edad:? ?(?P<n>[0-9]{1,3})(?![a-z0-9])", rb"\?ge ?:? ?(?P<n>[0-9]{1,3})(?![a-z0-9])"))
# The words before "37 ans", "37 años" that make it an age (not "depuis 3 ans", "hace 3
# años"), in the lower view.
_AGE_VERBS = (b" a", b" ai", b" as", b" avait", b"?g?e de", b"?g? de", b"?g?es de", b"tiene",
              b"tengo", b"ten?a", b"cumple", b"cumpli?", b"cumplir?")
# After "geboren" (or "zur Welt gekommen"), in the lower view: what closes the clause
# (a punctuation mark, a line's end, the text's end, "und", "als"): the participle is
# its last word, and its date stood before it.
_CLOSING_AFTER = re.compile(
    rb"(?P<verb>[ \t]+gekommen)?[ \t]*(?P<end>[,.;!?)\n]|\Z|(?:und|oder|als|aber)(?![a-z?]))?")
# The preposition that introduces a date in a sentence ("on", "on the", "le", "el",
# "am", "den"), right before it.
_ON_DATE = re.compile(r"(?i)(?<![^\W\d_])(?:on(?:\ the)?|le|el|am|den|the)\ \Z")
# The end of a sentence (a word's last two letters, a full stop, a capital: not "St.
# Louis", "Dr. Weber"): a birth word's date is in its sentence.
_SENTENCE_END = re.compile(r"[a-zß-ÿ]{2}[.!?][ \t]+[A-ZÀ-Þ]")
# What ends a clause: a sentence's end, a line's, a semicolon or colon, a comma and a
# conjunction ("born, and then years later, on 12.03.1985": no longer the birth).
_CLAUSE_BREAK = re.compile(
    r"[.!?][ \t]+[A-ZÀ-Þ]|[\n;:]|,[ \t]+(?:and|but|then|und|aber|dann|et|mais|puis|y|pero"
    r"|luego)\b")
# Before "37 ans", "37 años" without a verb, in the lower view: a person's noun and
# "de" ("une patiente de 37 ans", "paciente de 37 años", "mujer de 45 años") or a comma
# after a word ("Patient, 37 ans"); not "plus de 20 ans", "más de 20 años", a time.
_AGE_NOUN = re.compile(
    rb"(?<![a-z?])(?!(?:plus|moins|m\?s|menos|pr\?s|cerca|environ|alrededor|hace|depuis"
    rb"|durante|pendant|contrat|contrato|garant[a-z?]*)[ ,])[a-z?]{3,}(?: de|,) \Z")
# Before "37 ans", "37 años" standing alone: a line's start, a bullet, a bracket, a
# separator of fields ("37 ans (14/03/1987)", "Ana López | 37 años | 14/03/1987"); not a
# comma, which the noun before it decides (``_AGE_NOUN``).
_AGE_ALONE = re.compile(rb"[\n(|;?-][ \t]*\Z")  # ("?": a bullet, in the lower view)
# What leads a form's label to its value: dots, underscores, dashes, spaces ("Date of
# birth ........ 14/03/1987", "Geburtsdatum:              14.03.1987").
_LEADER_CHARS = " \t.:_-=|…"
_LEADER = re.compile(r"[._…]{4,}|[ \t]{8,}|_{3,}")
# What joins the dates of a list (after the previous one's end, up to the next one): a
# name in brackets, a comma, "and", "und", "et", "y", and a preposition ("et le", "y el").
_LIST_JOIN = re.compile(
    r"[ \t]*(?:\([^()\n]{1,30}\))?[ \t]*(?:[,;&]|and|und|sowie|et|y|e)[ \t]*"
    r"(?:(?:and|und|et|y)[ \t]+)?(?:(?:on|am|le|el|the)[ \t]+)?"
    # the next person of a list and their date: "; Lorena (mi mujer), 08/05/86"
    r"(?:(?-i:[A-ZÀ-Þ][a-zß-ÿ]+(?:[ \t-][A-ZÀ-Þ][a-zß-ÿ]+){0,2})[ \t]*"
    r"(?:\([^()\n]{1,30}\))?[ \t]*[,:][ \t]*(?:(?:on|am|le|el|the)[ \t]+)?)?")
# How far after the keyword that named the first a date of a list may be (so that what
# decides it is within ``lookbehind``).
_LIST_REACH = 120
# How many years before today a date of birth beside an age may be: the age, one fewer
# (the birthday to come), or up to six more (a text written some years ago).
_AGE_SPAN = (-1, 6)
# A "?" in a keyword above (a letter the lower view does not hold) must be one of these
# in the text: né, née, nés, naît (French), nací, nació (Spanish), cumpleaños.
_KEYWORD_LETTERS = "éÉíÍóÓñÑîÎ"
# Birth words that also name the day it is celebrated: a date near one of them only,
# within the last few years, is a party's (``Geburtstagsfeier am 14.03.2024``).
_EVENT_WORD = re.compile(r"(?i)b(?:irthday|-?day)|geburtstag|cumplea|anniversaire")
_RECENT_YEARS = 4
# Birth words that name something else than the date.
_NOT_BIRTH_DATES = frozenset({b"geburtsort", b"geburtsname", b"geburtsland", b"birthplace",
                              b"birthname", b"birthmark"})
# The words before a birth word that make it a place's ("Place of birth", "lieu de
# naissance", "lugar de nacimiento", "country of birth"), in the lower view, unless a
# date's word is with them ("Date et lieu de naissance", "Place and date of birth").
_PLACE_OF = re.compile(rb"(?:place|country|town|city|lieu|pays|ville|lugar|pa\?s|ciudad|ort)"
                       rb" (?:of|de|del) \Z")
_DATE_WORD = re.compile(rb"(?:date|fecha|datum)")
# A death's sign on the line of a "*" at a line's start: the star is a birth's
# (``* 12. Juni 1936    † 28. November 2026``), not a bullet's.
_DEATH_MARK = re.compile(r"[†✝]|\bgest\.|\bd\.\ [0-9]")
# What stands before a "*" that is no birth sign: a line's start (a bullet), a number
# or an operator (a product).
_NOT_BEFORE_STAR = frozenset("\n0123456789+-*/=×") | {""}

_MONTHS: dict[str, int] = {}
for _number, _names in enumerate((
        "january jan januar jänner jän janvier janv enero ene",
        "february feb februar feber février fevrier févr fevr fév fev febrero",
        "march mar märz maerz mär mrz mars marzo",
        "april apr avril avr abril abr", "may mai mayo", "june jun juni juin junio",
        "july jul juli juillet juil julio", "august aug août aout agosto ago",
        "september sep sept septembre septiembre setiembre set",
        "october oct oktober okt octobre octubre", "november nov novembre noviembre",
        "december dec dezember dez décembre decembre déc diciembre dic"), start=1):
    for _name in _names.split():
        _MONTHS[_name] = _number


def _trie(words: Iterable[str]) -> str:
    """A pattern that matches each of ``words`` (the longest where one is the start of
    another), written as a trie: each character is tried once, however many words share
    it (an alternation of 80 month names would try each at every position)."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [re.escape(c) + pattern(node[c]) for c in sorted(node) if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        if "" not in node:
            return body
        return f"(?:{body})?" if len(branches) > 1 or len(branches[0]) > 1 else f"{body}?"

    return pattern(root)


_MONTH = _trie(_MONTHS)
_DAY_SUFFIX = r"(?:st|nd|rd|th|er|\.?[º°o])?\.?"  # 1st, 1er, 1.º, 1º, 14.

# A month's name in a second language after a slash, as ID documents print it
# (``14 MARS/MAR 1987``, ``14 MAR /MARS 87``, Belgium's ``14 MAR/ MAART 1987``).
_OTHER_MONTH = _trie([*_MONTHS, "maart", "mrt", "mei"])
_SPACE = r"[\ \t]{1,3}"          # between the parts of a date (bounded: see max_length)
_SEP = r"[\ \t\-/.]{1,3}"  # 14 März, 14-mar-1987, 14/Mar/1987, 14.Mar.1987
_DATE = re.compile(
    rf"""(?ix)
    (?P<iy>(?:1[7-9]|20)[0-9]{{2}})(?P<isep>[-/.])(?P<im>[0-9]{{1,2}})(?P=isep)(?P<id>[0-9]{{1,2}})
    | (?P<cy>(?:19|20)[0-9]{{2}})(?P<cm>0[1-9]|1[0-2])(?P<cd>0[1-9]|[12][0-9]|3[01])
    | (?P<a>[0-9]{{1,2}})(?P<sep>[-/.])(?P<b>[0-9]{{1,2}})(?P=sep)(?P<y>[0-9]{{4}}|[0-9]{{2}})
    | (?P<sa>[0-9]{{1,2}})(?P<ssep>\ ?[-/.]\ |\ )(?P<sb>[0-9]{{1,2}})(?P=ssep)(?P<sy>(?:1[7-9]|20)[0-9]{{2}})
    | (?P<dd>[0-9]{{1,2}}){_DAY_SUFFIX}(?:{_SPACE}(?:of|de))?{_SEP}(?P<dm>{_MONTH})\.?
      (?:\ ?/\ ?{_OTHER_MONTH}\.?)?,?
      (?:{_SPACE}(?:de|del)(?:{_SPACE}a[ñn]o)?)?{_SEP}'?(?P<dy>[0-9]{{4}}|[12]\.[0-9]{{3}}|[0-9]{{2}})
    | \b(?P<mm>{_MONTH})\.?{_SPACE}(?:the{_SPACE})?(?P<md>[0-9]{{1,2}})(?:st|nd|rd|th)?,?{_SPACE}'?(?P<my>[0-9]{{4}}|[0-9]{{2}})
    | (?P<rd>[0-9]{{1,2}})(?P<rsep>[-/.\ ])(?-i:(?P<rm>XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I))(?P=rsep)(?P<ry>(?:1[7-9]|20)[0-9]{{2}}|[0-9]{{2}})
    | (?P<xd>[0-9]{{2}})(?-i:(?P<xm>JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC))(?P<xy>(?:19|20)[0-9]{{2}}|[0-9]{{2}})
    """)
# The months in Roman numerals (``8-IV-1989``, ``14.III.1987``).
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9,
          "X": 10, "XI": 11, "XII": 12}


_A_DIGIT = re.compile(r"[0-9]")
# Where a date can start (``hold_from``), in the text's ASCII bytes in lower case ("?"
# for other characters, so "märz" is "m?rz"): a digit or a month's name (or, at the end,
# a word that may become one) not right after a letter, digit or "_./-".
_DATE_START = re.compile(
    rb"(?<![a-z0-9_./-])(?:[0-9]|(?:"
    + "|".join(sorted(_MONTHS, key=len, reverse=True)).encode("ascii", "replace").replace(
        b"?", b"\\?")
    + rb")(?![a-z?])|[a-z?]+\Z)")
# "18 de septiembre del año 1997", "14 MARS / MAR. 1987" (60 at most with the widest
# spacing)
_LONGEST_DATE = 64
_LONGEST_KEYWORD = 32  # "geburtsdatumsangabe" and then some
# What a date's verdict may read before it: a date of birth it repeats (up to
# ``_DOB_CONTEXT`` before it), that one's keyword and the heading line the keyword is in.
_CHAIN_LOOKBEHIND = (_DOB_CONTEXT + _LONGEST_DATE + _DOB_REACH + _LONGEST_KEYWORD
                     + _HEADING_LINE + 4)


@attrs.frozen
class _Table:
    """A table's header line: where it starts, where its rows start, its separator,
    how many fields it has and which one is the birth date's."""

    start: int
    rows: int
    sep: str
    fields: int
    column: int


def _tables(text: str, keywords: list[tuple[int, int]]) -> list[_Table]:
    """The header lines in ``text`` whose field is a birth keyword: a short line of at
    least three short fields, with a line after it."""
    tables: list[_Table] = []
    headers: set[int] = set()
    for ks, ke in keywords:
        line_start = text.rfind("\n", max(0, ks - _LONGEST_HEADER), ks) + 1
        if line_start in headers or (not line_start and ks > _LONGEST_HEADER):
            continue
        headers.add(line_start)
        line_end = text.find("\n", ke, line_start + _LONGEST_HEADER)
        if line_end == -1:
            continue  # a header line is short, and has a line after it
        header = text[line_start:line_end]
        sep = max(_SEPARATORS, key=header.count)
        fields = header.split(sep)
        if len(fields) < 3:
            continue
        column = header.count(sep, 0, ks - line_start)
        if len(fields[column].strip(" \"'\r")) > 24 or max(map(len, fields)) > 40:
            continue  # a sentence with commas, not a header
        tables.append(_Table(line_start, line_end + 1, sep, len(fields), column))
    return tables


def _windows(keywords: list[tuple[int, int]], reach: int, size: int) -> list[tuple[int, int]]:
    """The stretches of text within ``reach`` of a keyword, overlapping ones merged (so
    each character is scanned once however many keywords there are)."""
    out: list[tuple[int, int]] = []
    for ks, ke in keywords:
        lo, hi = max(0, ks - reach), min(size, ke + reach)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _reach(text: str, keyword_end: int, date_start: int) -> int:
    """How far a date may be after the keyword that ends at ``keyword_end``: farther
    when a colon ends what stands between them (a form's label and its note), and
    farther still when the keyword is in a heading above the date (``_heading``)."""
    if date_start - keyword_end <= _DOB_CONTEXT:
        return _DOB_CONTEXT
    between = text[keyword_end:date_start].rstrip(" \t\"'(")
    if "\n" not in between:
        if not between.strip(_LEADER_CHARS):
            return _DOB_REACH  # a form's leader: "Date of birth ........ 14/03/1987"
        return _DOB_LABEL_CONTEXT if between.endswith(":") else _DOB_CONTEXT
    return _DOB_HEADING_CONTEXT if _heading(text, keyword_end) else _DOB_CONTEXT


def _heading(text: str, keyword_end: int) -> bool:
    """Whether the keyword that ends at ``keyword_end`` is in a heading: a line of at
    most ``_HEADING_LINE`` characters with no sentence's end in it but a question's or
    a colon at its end (a title, a subject, a label on a line of its own, the question
    that asks for the date), which names what the lines below it are about."""
    line_start = text.rfind("\n", max(0, keyword_end - _HEADING_LINE - 1), keyword_end) + 1
    if not line_start and keyword_end > _HEADING_LINE:
        return False  # (the line starts farther back)
    line_end = text.find("\n", keyword_end, line_start + _HEADING_LINE + 1)
    if line_end == -1:
        return False
    line = text[line_start:line_end].rstrip(" \t\r")
    return not any(mark in line for mark in (". ", "! ", "? ")) and not line.endswith(
        (".", "!"))


def _two_digit_year(yy: int, today: datetime.date) -> int:
    return 2000 + yy if 2000 + yy <= today.year else 1900 + yy


def _year(digits: str, today: datetime.date) -> int:
    """The year that four digits (``1987``, Spanish ``1.987``), or two (``'87``, ``14 Mar
    87``), write."""
    digits = digits.replace(".", "")
    return int(digits) if len(digits) == 4 else _two_digit_year(int(digits), today)


def _birth_date(m: re.Match[str], today: datetime.date) -> datetime.date | None:
    """The date a match names, if it is a real day after 1700 and before today (the
    likelier reading first: ``12/03/1985`` is the 3rd of December, or the 12th of
    March)."""
    return next(_days(m, today), None)


def _readings(m: re.Match[str], today: datetime.date) -> set[datetime.date]:
    """Every real day after 1700 and before today that a match may name."""
    return set(_days(m, today))


def _days(m: re.Match[str], today: datetime.date) -> Iterator[datetime.date]:
    """The real days after 1700 and before today that a match may name, the likelier
    reading first."""
    for y, mo, d in _candidates(m, today):
        try:
            date = datetime.date(y, mo, d)
        except ValueError:
            continue
        if _EARLIEST <= date < today:
            yield date


def _candidates(m: re.Match[str], today: datetime.date) -> list[tuple[int, int, int]]:
    """The (year, month, day) a match may name, the likelier reading first."""
    candidates: list[tuple[int, int, int]] = []
    if m.group("iy"):
        candidates.append((int(m.group("iy")), int(m.group("im")), int(m.group("id"))))
    elif m.group("a"):
        a, b, y = int(m.group("a")), int(m.group("b")), int(m.group("y"))
        if len(m.group("y")) == 2:
            y = _two_digit_year(y, today)
        if m.group("sep") == ".":
            candidates += [(y, b, a), (y, a, b)]  # 31.12.1985: day first; 12.31.1985
        else:
            candidates += [(y, a, b), (y, b, a)]  # 12/31/1985 or 31/12/1985
    elif m.group("sa"):  # 14 03 1987, 14. 03. 1987, 14 / 03 / 1987: day first
        a, b, y = int(m.group("sa")), int(m.group("sb")), int(m.group("sy"))
        candidates += [(y, b, a), (y, a, b)]
    elif m.group("cy"):
        candidates.append((int(m.group("cy")), int(m.group("cm")), int(m.group("cd"))))
    elif m.group("rd"):  # 8-IV-1989: day, Roman month, year
        candidates.append((_year(m.group("ry"), today), _ROMAN[m.group("rm")], int(m.group("rd"))))
    elif m.group("xd"):  # 14MAR1987, 02FEB85: a ticket's or a chart's
        candidates.append((_year(m.group("xy"), today), _MONTHS[m.group("xm").lower()],
                           int(m.group("xd"))))
    elif m.group("dd"):
        candidates.append((_year(m.group("dy"), today), _MONTHS[m.group("dm").lower()],
                           int(m.group("dd"))))
    else:
        candidates.append((_year(m.group("my"), today), _MONTHS[m.group("mm").lower()],
                           int(m.group("md"))))
    return candidates


# The earliest date of birth: a family's history gives its ancestors' (``né le 3 mars
# 1887``), and a life's story a famous person's.
_EARLIEST = datetime.date(1700, 1, 1)


class DateOfBirthDetector:
    """Dates of birth (type ``date-of-birth``): a past date near a birth keyword, or in
    a table's birth-date column."""

    name = "date-of-birth"
    types = ("date-of-birth",)
    #: A table's row (at most ``_LONGEST_ROW`` characters), whose end decides its date;
    #: elsewhere a date of up to 64 characters, 64 of distance, a keyword of up to 32.
    max_length = _LONGEST_ROW + 2
    #: Before a date: the date of birth it may repeat (40 characters away, 64 long),
    #: that one's keyword (up to 100 characters before it, 32 long) and the heading
    #: line the keyword is in (80); a table's header is ``context``.
    lookbehind = _CHAIN_LOOKBEHIND

    @staticmethod
    def hold_from(text: str) -> int:
        """Where a date may still change: the first place in the last ``max_length``
        characters where one can start (a digit, or a month's name, at the start of a
        word); the keyword that makes it a date of birth may still come."""
        n = len(text)
        lo = max(0, n - 140)
        found = _DATE_START.search(_views.lower(_views.fold(text[lo:])))
        hold = n if found is None else lo + found.start()
        # a table's row: its date is one only if the row ends with as many fields as
        # the header has
        line = text.rfind("\n", max(0, n - _LONGEST_ROW - 1)) + 1
        if line and any(sep in text[line:] for sep in _SEPARATORS) and _A_DIGIT.search(
                text, line):
            hold = min(hold, line)
        return hold

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        if b"0" not in _views.classes(text):
            return []  # every date has a digit (every digit is "0" in the view)
        births = self._keywords(text)
        ages = self._ages(text)
        if not births and not ages:
            return []
        keywords = sorted(births + [(ks, ke) for ks, (ke, _) in ages.items()]) if ages else births
        today = datetime.date.today()
        starts = [ks for ks, _ in keywords]
        closing = self._closing(text, births)
        found = self._in_tables(text, births, today)
        taken = {d.start for d in found}
        reach = _DOB_REACH + 2 * _LONGEST_DATE + _DOB_CONTEXT
        for lo, hi in _windows(keywords, reach, len(text)):
            if _A_DIGIT.search(text, lo, hi) is None:
                continue  # every date has a digit
            dates = list(_DATE.finditer(text, lo, hi))
            # the last date of birth found: its end and its match
            # the last date of birth found: its end, its match, and where the keyword
            # that named it (or the first date of its list) ends
            last_birth: tuple[int, re.Match[str] | None, int] = (-_FAR, None, -_FAR)
            for i, m in enumerate(dates):
                start, end = m.span()
                if start in taken:
                    continue
                first = bisect.bisect_left(starts,
                                           start - _DOB_LABEL_CONTEXT - _LONGEST_KEYWORD)
                last = bisect.bisect_right(starts, end + _DOB_CONTEXT)
                # A keyword's date is the first one after it, or, with none after it
                # near enough, the last one before it: never one with a date between.
                prev_end = dates[i - 1].end() if i else -1
                next_start = dates[i + 1].start() if i + 1 < len(dates) else _FAR
                near = [(ks, ke) for ks, ke in keywords[first:last]
                        if ((ke >= prev_end and ks not in closing
                             and 0 <= start - ke <= _reach(text, ke, start))
                            or (0 <= ks - end <= _DOB_CONTEXT and ks <= next_start
                                and (next_start - ke > _DOB_CONTEXT or ks in closing)))
                        and _SENTENCE_END.search(text, min(ke, end), max(ks, start)) is None]
                if not near and _ON_DATE.search(text, max(0, start - 12), start):
                    # "born in Leeds to a family of teachers on 14 March 1987": a birth
                    # word's date said with its preposition, farther on in its sentence
                    farther = bisect.bisect_left(starts, start - _DOB_REACH - _LONGEST_KEYWORD)
                    near = [(ks, ke) for ks, ke in keywords[farther:last]
                            if ke >= prev_end and ks not in closing and ks not in ages
                            and 0 <= start - ke <= _DOB_REACH
                            and _CLAUSE_BREAK.search(text, ke, start) is None]
                if not near and (text.rfind("\n", max(0, start - _DOB_REACH), start) != -1
                                 or _LEADER.search(text, max(0, start - _DOB_REACH), start)):
                    # a heading's keyword, farther up (``_reach``)
                    farther = bisect.bisect_left(starts, start - _DOB_REACH - _LONGEST_KEYWORD,
                                                 0, first)
                    near = [(ks, ke) for ks, ke in keywords[farther:first]
                            if ke >= prev_end and 0 <= start - ke <= _reach(text, ke, start)]
                # else a date of birth written again: "3. März 1978", "03.03.1978"
                # or the next in a list of them: "Geburtsdaten: 03.05.2010, 04.06.2012
                # und 05.07.2015", "born on 03/05/2010 and 04/06/2012"
                listed = (not near and last_birth[1] is not None
                          and start - last_birth[2] <= _LIST_REACH
                          and _LIST_JOIN.fullmatch(text, last_birth[0], start) is not None)
                again = not near and not listed and start - last_birth[0] <= _DOB_CONTEXT
                if not near and not again and not listed:
                    continue
                before = text[start - 1] if start else " "
                after = text[end] if end < len(text) else " "
                if after == "T" and m.group("iy") and text.startswith("00:00", end + 1):
                    after = " "  # 1987-03-14T00:00:00Z: a date stored as a time (not 10:00)
                if before.isalnum() or before in "_./-" or after.isalnum() or after == "_":
                    continue
                if after in "./-:" and text[end + 1:end + 2].isdigit():
                    continue  # 12.03.1985.4, 1985-03-12-7, a time 12/03/85:10
                date = _birth_date(m, today)
                if date is None or (again and last_birth[1] is not None and _readings(
                        m, today).isdisjoint(_readings(last_birth[1], today))):
                    continue
                if near and date.year > today.year - _RECENT_YEARS and all(
                        _EVENT_WORD.match(text, ks) for ks, _ in near):
                    continue  # "Geburtstagsfeier am 14.03.2024": a party, not a birth
                if near and all(start - ke > _DOB_CONTEXT and "\n" in text[ke:start]
                                for ks, ke in near) and (
                        date.year > today.year - _ADULT_YEARS
                        or any(_EVENT_WORD.match(text, ks) for ks, _ in near)):
                    # under a heading only: an adult's date, and the heading names the
                    # birth date, not a party ("Subject: birthday party")
                    continue
                if ages and all(ks in ages for ks, _ in near) and not any(
                        _AGE_SPAN[0] <= today.year - date.year - ages[ks][1] <= _AGE_SPAN[1]
                        for ks, _ in near):
                    continue  # an age beside a date that is not its birth date
                last_birth = (end, m, max(ke for _, ke in near) if near else last_birth[2])
                found.append(Detection("date-of-birth", start, end, 0.95, self.name, m.group()))
        return found

    @staticmethod
    def _in_tables(text: str, keywords: list[tuple[int, int]],
                   today: datetime.date) -> list[Detection]:
        """The dates in the birth-date column of each table whose header names one:
        a header line of fields separated by ``,``, ``;``, tabs or ``|`` with a field
        that is a birth keyword, then the lines below with as many fields (each at most
        ``_LONGEST_ROW`` characters), up to a line with another number of them."""
        found: list[Detection] = []
        for table in _tables(text, keywords):
            sep, fields, column = table.sep, table.fields, table.column
            pos = table.rows
            while pos < len(text):
                end = text.find("\n", pos)
                end = len(text) if end == -1 else end
                row = text[pos:end].split(sep)
                if len(row) != fields or end - pos > _LONGEST_ROW:
                    break
                offset = pos + sum(len(f) + len(sep) for f in row[:column])
                cell = row[column]
                value = cell.strip(" \"'\r")
                m = _DATE.fullmatch(value)
                if m is not None and _birth_date(m, today) is not None:
                    at = offset + cell.index(value)
                    found.append(Detection("date-of-birth", at, at + len(value), 0.95,
                                           "date-of-birth", value))
                pos = end + 1
        return found

    def context(self, text: str) -> str:
        """What a date after ``text`` depends on beyond the ``lookbehind``: the header
        of each table ``text`` ends in (every whole line after it a row of that table),
        a row of as many fields with no date, long enough to stand between the header
        and what follows as its rows did, and the line ``text`` ends in as far as it
        goes; ``""`` when ``text`` ends in no table. (A stream guard searches what
        follows with this before it.)"""
        last_line = text.rfind("\n") + 1
        if not last_line or len(text) - last_line > _LONGEST_ROW:
            return ""  # no header line yet, or a line too long to be a row
        folded = _views.fold(text)
        headers: list[str] = []
        filler = ""
        for table in _tables(folded, self._keywords(folded)):
            pos = table.rows
            while pos < last_line:
                end = folded.find("\n", pos)
                if (len(folded[pos:end].split(table.sep)) != table.fields
                        or end - pos > _LONGEST_ROW):
                    break
                pos = end + 1
            if pos == last_line:
                headers.append(text[table.start:table.rows])
                width = _DOB_LABEL_CONTEXT + _LONGEST_DATE + _LONGEST_KEYWORD
                filler = table.sep.join(["x" * (width // table.fields + 1)] * table.fields)
        if not headers:
            return ""
        return "".join(headers) + filler + "\n" + text[last_line:]

    @staticmethod
    def _closing(text: str, births: list[tuple[int, int]]) -> set[int]:
        """The starts of the birth words that close their clause after the date they
        name: German puts the participle last ("Anna ist am 7. Juli 1989 geboren,
        Termin am 12.07.2024": the date before "geboren", not the one after it)."""
        view = _views.lower(text)
        out: set[int] = set()
        for ks, ke in births:
            if view.startswith(b"zur welt", ks):
                after = _CLOSING_AFTER.match(view, ke)
                if after is None or not after.group("verb"):
                    continue
            elif not view.startswith(b"geboren", ks):
                continue
            else:
                after = _CLOSING_AFTER.match(view, ke)
            if after is not None and after.group("end"):
                out.add(ks)
        return out

    @staticmethod
    def _ages(text: str) -> dict[int, tuple[int, int]]:
        """Where ages are (``_AGE_SCANS``): per start, the end and the age."""
        view = _views.lower(text)
        ages: dict[int, tuple[int, int]] = {}
        for scan in _AGE_SCANS:
            for m in scan.finditer(view):
                start = m.start()
                if start and view[start - 1:start].isalnum():
                    continue  # 137 years, mage: 3
                if "unit" in scan.groupindex and m.group("unit") and not (
                        view.endswith(_AGE_VERBS, max(0, start - 12), start - 1)
                        or view.startswith(b" de edad", m.end())
                        or ((_AGE_NOUN.search(view, max(0, start - 24), start)
                             or not view[:start].strip(b" \t")
                             or _AGE_ALONE.search(view, max(0, start - 8), start))
                            and 14 <= int(m.group("n")) <= 110)):
                    continue  # "depuis 3 ans", "hace 3 años": a time, not an age
                ages[start] = (m.end(), int(m.group("n")))
        return ages

    @staticmethod
    def _keywords(text: str) -> list[tuple[int, int]]:
        """Where birth keywords are, as whole words."""
        view = _views.lower(text)
        words = []
        for scan in _KEYWORD_SCANS:
            for m in scan.finditer(view):
                start, end = m.span()
                if start and text[start - 1].isalpha() and not (
                        (text[start].isupper() and text[start - 1].islower())
                        or view.endswith(b"dateof", 0, start)):
                    continue  # reborn, stubborn; not dateOfBirth, patientDOB, dateofbirth
                if end < len(text) and text[end].isalpha() and text[end - 1] != ".":
                    continue  # dobby, nacional
                if m.group() in _NOT_BIRTH_DATES or (
                        _PLACE_OF.search(view, max(0, start - 12), start)
                        and not _DATE_WORD.search(view, max(0, start - 28), start)):
                    continue  # Geburtsort, "Place of birth", "lieu de naissance": a place
                if m.group() == b"anniversaire" and view.startswith((b" de ", b" du ", b" d'"), end):
                    continue  # "anniversaire de mariage", "du contrat": not a birthday
                if b"?" in m.group() and view[start] != ord("g") and any(
                        text[i] not in _KEYWORD_LETTERS
                        for i in range(start, end) if view[i] == ord("?")):
                    continue  # n?e must be né, naci? nació
                if view[start] == ord("*") and not (
                        text[start - 1:start] in ("", "\n") and (
                            text[start + 1].isdigit() or _DEATH_MARK.search(
                                text, start, text.find("\n", start) % (len(text) + 1)))
                ) and (text[start - 1:start] not in (" ", "(", "\t")
                       or text[:start].rstrip(" \t(")[-1:] in _NOT_BEFORE_STAR):
                    # "Max Muster (* 14.03.1987)", "*12.04.1985 in Kassel" at a line's
                    # start (a bullet has a space after it); not a bullet, "3 * 12.03"
                    continue
                words.append((start, end))
        return sorted(words)
