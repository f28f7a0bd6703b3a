"""Views of a text that several detectors scan, made once per text.

Detectors search byte views of the text (one byte a character, ``?`` for a non-ASCII
one, so offsets carry over) with patterns that start with a literal, which the regex
engine finds far faster than a class. ``detect_all`` runs every detector on the same
text object in turn, so each view is made on first use and kept for that text only:
the cache holds the last text seen (compared by identity, and kept alive by the cache,
so its id cannot be reused) and is replaced by the next one. A stale entry costs a
recomputation, never a wrong view.

- ``fold(text)``: the text as a person reads it, one character for one: every Unicode
  decimal digit (Arabic-Indic ``٤``, Devanagari ``४``, fullwidth ``４``, ...) as its
  ASCII digit, the ideographic and fullwidth full stops (``。 ｡ ． ﹒``) as ``.``, the
  no-break and thin spaces between a number's groups as a space, and tag characters as
  the ASCII they hide. Every built-in detector searches this view
  (``reads_folded``) and reports spans and values of the text it was given;
- ``classes(text)``: every digit as ``0`` and every capital as ``A`` (card numbers,
  IBANs, phone numbers, SSNs);
- ``lower(text)``: ASCII letters in lower case (keywords: birth words, key-like words);
- ``pem_lines(text)``: ``a`` for each character that can be in the base64 lines of a
  private-key block (base64, white space, the ``\\`` of a ``\\n`` escape), ``x`` for
  the others: where such lines before a point start is a reverse ``bytes.rfind``;
- ``token_runs(text)``: the spans of at least ``RUN_MIN`` characters in a row of
  ``[A-Za-z0-9+/=_~-]``, where every key, token and wallet address lies: a pattern
  made only of those characters needs to search these spans only.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from collections.abc import Callable, Iterable
from typing import Concatenate, ParamSpec, TypeVar

import attrs

from tripwire.guards.verdicts import Detection

__all__ = ["RUN_MIN", "TOKEN_CHARS", "ascii_bytes", "classes", "fold", "folded_to", "lower",
           "pem_lines", "reads_folded", "token_runs"]

#: The full stops other scripts write where a host name has its dots: the ideographic
#: full stop and its halfwidth form (which IDNA reads as label separators, as browsers
#: and mail clients do), the fullwidth and the small full stop.
FULL_STOPS = "\u3002\uff61\uff0e\ufe52"
#: The spaces typography puts between a number's groups (French writes
#: ``06\u00a012\u00a034\u00a056\u00a078`` and ``1\u202f234,56``): the no-break, narrow
#: no-break, figure and thin spaces, read as a space.
SPACES = "\u00a0\u202f\u2007\u2009"
# A character ``fold`` changes: a decimal digit other than 0-9 (``\d`` is every Unicode
# decimal digit, category Nd: one that is neither ASCII nor a non-digit), one of the
# other full stops, a tag character (U+E0020 to U+E007E spell ASCII, invisibly: "ASCII
# smuggling").
_FOLDS = re.compile(f"[^\\x00-\\x7f\\D]|[{FULL_STOPS}{SPACES}\U000e0020-\U000e007e]")


@functools.cache
def _table() -> dict[int, int]:
    """``str.translate``'s table for ``fold``, made on first use (a few tens of ms)."""
    # Unicode's decimal digits are all in planes 0 and 1 (up to U+1FBF9 in Unicode 15).
    everything = "".join(map(chr, range(0x80, 0x20000)))
    table = {ord(c): ord("0") + unicodedata.decimal(c) for c in re.findall(r"\d", everything)}
    table.update((ord(c), ord(".")) for c in FULL_STOPS)
    table.update((ord(c), ord(" ")) for c in SPACES)
    table.update((cp, cp - 0xE0000) for cp in range(0xE0020, 0xE007F))
    return table


#: The last text folded and its fold (one entry: ``detect_all`` runs every detector on
#: the same text in turn; compared by identity, as the views are).
_last_fold: tuple[str, str] = ("", "")


def fold(text: str) -> str:
    """``text`` as a person (or ``int()``) reads its digits and dots, one character for
    one, so offsets carry over: every Unicode decimal digit as its ASCII digit, the
    ideographic, halfwidth ideographic, fullwidth and small full stops as ``.``, the
    no-break, narrow no-break, figure and thin spaces as a space, tag characters as the
    ASCII characters they hide. ``text`` itself when there is none."""
    global _last_fold
    last = _last_fold
    if last[0] is text:
        return last[1]
    folded = text if text.isascii() or _FOLDS.search(text) is None else text.translate(_table())
    _last_fold = (text, folded)
    return folded


def folded_to(chars: str) -> re.Pattern[str]:
    """A pattern that matches, in a text as written, each character that ``fold`` reads
    as one of the ASCII ``chars`` (and, for a digit, any decimal digit): what a
    detector's ``starts`` is made of (``tripwire.guards.verdicts.Detector``)."""
    out = {re.escape(c) for c in chars}
    out.update(re.escape(chr(0xE0000 + ord(c))) for c in chars if 0x20 <= ord(c) < 0x7F)
    if any(c in string.digits for c in chars):
        out.add(r"\d")
        out.update(re.escape(chr(0xE0000 + ord(c))) for c in string.digits)
    if "." in chars:
        out.update(FULL_STOPS)
    if " " in chars:
        out.update(SPACES)
    return re.compile("[" + "".join(sorted(out)) + "]")


_D = TypeVar("_D")
_P = ParamSpec("_P")


def reads_folded(
    detect: Callable[Concatenate[_D, str, _P], Iterable[Detection]],
) -> Callable[Concatenate[_D, str, _P], list[Detection]]:
    """A detector's ``detect(self, text)`` (or ``detect_from(self, text, start)``) that
    searches ``fold(text)``: a value written in other digits, with other full stops or
    in tag characters is found at its place in ``text``, and reported with the
    characters ``text`` has there (what a redaction covers)."""

    @functools.wraps(detect)
    def wrapper(self: _D, text: str, /, *args: _P.args, **kwargs: _P.kwargs) -> list[Detection]:
        folded = fold(text)
        found = list(detect(self, folded, *args, **kwargs))
        if folded is text:
            return found
        return [d if d.value is None else attrs.evolve(d, value=text[d.start:d.end])
                for d in found]

    return wrapper

_CLASSES = bytes.maketrans(b"123456789BCDEFGHIJKLMNOPQRSTUVWXYZ", b"000000000" + b"A" * 25)

#: The characters of keys, tokens and wallet addresses.
TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "+/=_~-")
#: The shortest run ``token_runs`` reports (the shortest token it serves: a generic
#: secret or an AWS access key, 20 characters).
RUN_MIN = 20
_TOKEN = bytes(ord("a") if chr(b) in TOKEN_CHARS else ord(" ") for b in range(256))
_RUN = b"a" * RUN_MIN
_PEM_CHARS = frozenset(string.ascii_letters + string.digits + "+/= \t\r\n\\")
_PEM = bytes(ord("a") if chr(b) in _PEM_CHARS else ord("x") for b in range(256))


class _Views:
    """The views of one text made so far."""

    __slots__ = ("text", "ascii", "classes", "lower", "pem", "runs")

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii: bytes | None = None
        self.classes: bytes | None = None
        self.lower: bytes | None = None
        self.pem: bytes | None = None
        self.runs: list[tuple[int, int]] | None = None


_last = _Views("")


def _views(text: str) -> _Views:
    """The views made so far of ``text`` (none yet for a new text)."""
    global _last
    views = _last
    if views.text is not text:
        views = _last = _Views(text)
    return views


def ascii_bytes(text: str) -> bytes:
    """``text`` as ASCII bytes, ``?`` for each other character."""
    views = _views(text)
    if views.ascii is None:
        views.ascii = text.encode("ascii", "replace")
    return views.ascii


def classes(text: str) -> bytes:
    """``text``'s ASCII bytes with every digit turned into ``0`` and every capital
    into ``A``."""
    views = _views(text)
    if views.classes is None:
        views.classes = ascii_bytes(text).translate(_CLASSES)
    return views.classes


def lower(text: str) -> bytes:
    """``text``'s ASCII bytes with ASCII letters in lower case."""
    views = _views(text)
    if views.lower is None:
        views.lower = ascii_bytes(text).lower()  # (ASCII letters only: bytes)
    return views.lower


def pem_lines(text: str) -> bytes:
    """``text`` as ``a`` for each character of ``[A-Za-z0-9+/=]``, space, tab, CR, LF
    and ``\\``, and ``x`` for every other character (non-ASCII ones too)."""
    views = _views(text)
    if views.pem is None:
        views.pem = ascii_bytes(text).translate(_PEM)
    return views.pem


def token_runs(text: str) -> list[tuple[int, int]]:
    """The maximal spans of ``text`` made of ``TOKEN_CHARS`` only that are at least
    ``RUN_MIN`` characters long, in text order. A match of a pattern that consists
    of those characters only (and has no look-around) lies inside one of them, so
    ``pattern.finditer(text, start, end)`` over these spans finds what a search of
    the whole text finds."""
    views = _views(text)
    if views.runs is None:
        view = ascii_bytes(text).translate(_TOKEN)
        runs: list[tuple[int, int]] = []
        i = view.find(_RUN)
        while i != -1:
            end = view.find(b" ", i + RUN_MIN)
            if end == -1:
                end = len(view)
            runs.append((i, end))
            i = view.find(_RUN, end)
        views.runs = runs
    return views.runs
