"""How a text is read: folded views that map each offset back to the original.

``fold(text)`` gives two views of ``text``: one keeping its markup (for role delimiters
and destinations) and one without it (for phrases). Folding lower-cases; removes
invisible characters and applies NFKC (``unicode-normalizer``); strips accents; reads
look-alike letters as Latin (``HOMOGLYPHS``, unicode-normalizer's table); removes HTML
and Markdown comment markers and tags and decodes entities and escapes; joins letters
spaced or punctuated apart; reads leetspeak inside words that mix letters and digits. ``View.root_span``
maps a match in a view back to offsets into the original text.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from typing import Final

from tripwire.plugins.unicode_normalizer import HOMOGLYPHS, UnicodeNormalizer


class View:
    """A text derived from another by edits, mapping its offsets back.

    ``segments`` are the edits in this view's coordinates, ``(start, end,
    parent_start, parent_end)``: ``text[start:end]`` replaced ``parent[parent_start:
    parent_end]``; between them the text is the parent's, shifted.
    """

    __slots__ = ("text", "parent", "_segments", "_starts")

    def __init__(self, text: str, parent: View | None = None,
                 segments: list[tuple[int, int, int, int]] | None = None) -> None:
        self.text = text
        self.parent = parent
        self._segments = segments or []
        self._starts = [s[0] for s in self._segments]

    @classmethod
    def edited(cls, parent: View, edits: Iterable[tuple[int, int, str]]) -> View:
        """``parent`` with ``text[start:end]`` replaced by each edit's string (edits
        sorted and not overlapping); ``parent`` itself when there are none."""
        src = parent.text
        out: list[str] = []
        segments: list[tuple[int, int, int, int]] = []
        pos = length = 0
        for start, end, repl in edits:
            out.append(src[pos:start])
            length += start - pos
            out.append(repl)
            segments.append((length, length + len(repl), start, end))
            length += len(repl)
            pos = end
        if not segments:
            return parent
        out.append(src[pos:])
        return cls("".join(out), parent, segments)

    def _start(self, p: int) -> int:
        i = bisect_right(self._starts, p) - 1
        if i < 0:
            return p
        start, end, pstart, pend = self._segments[i]
        return pstart if p < end else pend + (p - end)

    def _end(self, p: int) -> int:
        q = p - 1
        i = bisect_right(self._starts, q) - 1
        if i < 0:
            return p
        start, end, pstart, pend = self._segments[i]
        return pend if q < end else pend + (q - end) + 1

    def root_span(self, start: int, end: int) -> tuple[int, int]:
        """``text[start:end]`` as offsets into the original text."""
        view: View | None = self
        while view is not None and view.parent is not None:
            if end > start:
                start, end = view._start(start), view._end(end)
            else:
                start = end = view._start(start)
            view = view.parent
        return start, end


_NORMALIZER = UnicodeNormalizer(form="NFKC", strip_control_chars=False,
                                collapse_whitespace=False, trim=False, preserve_emoji=False)

#: Leetspeak, read only inside words that mix letters with these.
LEET: Final = str.maketrans({"1": "i", "0": "o", "3": "e", "4": "a", "5": "s", "7": "t",
                             "@": "a", "$": "s"})
_LEET_DIGITS: Final = str.maketrans({k: v for k, v in
                                     {"1": "i", "0": "o", "3": "e", "4": "a", "5": "s",
                                      "7": "t"}.items()})
ROT13: Final = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")


@functools.lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character as the matcher reads it: ``""`` when invisible, else NFKC
    (``unicode-normalizer``'s rules), without accents, lower case, homoglyphs folded."""
    out = _NORMALIZER.normalize(ch)
    if not out:
        return out
    out = "".join(c for c in unicodedata.normalize("NFD", out) if not unicodedata.combining(c))
    return out.lower().translate(HOMOGLYPHS)




_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_MARKUP = re.compile(
    r"<!--|--!?>"
    r"|</?[a-z][a-z0-9:_-]*(?:\s[^<>]{0,500})?/?>"
    r"|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});"
    r"|\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\[nrt\"'/\\]"
)
_SPACED = re.compile(
    r"(?<![a-z0-9])[a-z](?P<s>[ .\-_*|/+~,:;^·•]{1,2})[a-z](?:(?P=s)[a-z])+(?![a-z0-9])")
_PUNCTUATED = re.compile(
    r"(?<![a-z0-9])[a-z]{1,5}(?:[.\-_*|~^`·•]{1,2}[a-z]{1,5}){2,}(?![a-z0-9])"
    r"|(?<![a-z0-9])[a-z]{1,4}[*|~^`·•]{1,2}[a-z]{1,4}(?![a-z0-9])")
#: Cheap necessary conditions of the two above (they start on a separator, which
#: ``re`` skips to quickly, where the full patterns start on any letter).
_SPACED_HINT = re.compile(r"[ .\-_*|/+~,:;^·•](?<=(?<![a-z0-9])[a-z].)[a-z][ .\-_*|/+~,:;^·•]")
_PUNCTUATED_HINT = re.compile(
    r"[*|~^`·•](?<=[a-z].)[a-z]|[._\-](?<=[a-z].)[a-z]{1,5}[.\-_*|~^`·•]{1,2}[a-z]")
SEPARATOR = re.compile(r"[^a-z]+")
TOKEN = re.compile(r"[a-z0-9]+")
#: Everything but ``[a-z0-9]`` (and non-ASCII, which folding leaves) to a space:
#: ``text.translate(NOT_WORD).split()`` lists the words, faster than a regex.
NOT_WORD: Final = {c: " " for c in range(128) if not chr(c).isalnum() or not chr(c).isascii()
                    or chr(c).isupper()}
_LEET_HINT = re.compile(r"[013457@$](?:(?<=[a-z].)|(?=[a-z]))")
_LEET_WORD = re.compile(
    r"(?<![a-z0-9@$])(?=[a-z0-9@$]*[a-z])(?=[a-z0-9@$]*[013457@$])[a-z0-9@$]{3,}")
_DOMAIN = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}")
_ESCAPES = {"n": "\n", "r": "\n", "t": "\t"}


def fold(text: str) -> tuple[View, View]:
    """The folded views of ``text``: with its markup (for role delimiters and
    destinations) and without it (for phrases), both mapping back to ``text``."""
    root = View(text)
    cased = View(text.lower(), root) if text.isascii() else _fold_unicode(root)
    plain = cased
    t = cased.text
    if "<" in t or "&" in t or "\\" in t or "--" in t:
        plain = View.edited(plain, ((m.start(), m.end(), _unmarkup(m.group()))
                                    for m in _MARKUP.finditer(plain.text)))
    t = plain.text
    if _LEET_HINT.search(t):
        t = _LEET_WORD.sub(_unleet, t)
        plain = View(t, plain)  # same length: offsets unchanged
    plain = View.edited(plain, _join_edits(plain.text))
    return cased, plain


def fold_term(term: str) -> str:
    """``term`` as the view without markup reads it: folded a character at a time
    (``fold_char`` outside ASCII, lower case inside), then leetspeak read in words that
    mix letters and digits (a Cyrillic ``з`` folds to ``3``, and then reads ``e``)."""
    folded = "".join(fold_char(c) if ord(c) > 127 else c.lower() for c in term)
    return _LEET_WORD.sub(_unleet, folded) if _LEET_HINT.search(folded) else folded


def _unleet(m: re.Match[str]) -> str:
    word = m.group()
    at = word.find("@")
    if at >= 0 and _DOMAIN.match(m.string, m.start() + at + 1):
        return word.translate(_LEET_DIGITS)  # an email address: its "@" is no "a"
    return word.translate(LEET)


def _fold_unicode(root: View) -> View:
    text = root.text
    lowered = text.lower()
    if len(lowered) == len(text):
        base = View(lowered, root)
        edits = [(m.start(), m.end(), f) for m in _NON_ASCII.finditer(text)
                 if (f := fold_char(m.group())) != lowered[m.start()]]
        return View.edited(base, edits)
    edits = [(i, i + 1, fold_char(ch) if ord(ch) > 127 else ch.lower())
             for i, ch in enumerate(text)]
    return View.edited(root, [e for e in edits if e[2] != text[e[0]]])


def _unmarkup(token: str) -> str:
    if token[0] == "&":
        return "".join(fold_char(c) for c in html.unescape(token))
    if token[0] == "\\":
        kind = token[1]
        if kind == "u" or kind == "x":
            return fold_char(chr(int(token[2:], 16)))
        return _ESCAPES.get(kind, kind)
    return " "


def _join_edits(text: str) -> list[tuple[int, int, str]]:
    """Deletions of the separators inside ``i g n o r e`` and ``ig.no.re``."""
    edits: list[tuple[int, int, str]] = []
    regexes = [r for r, hint in ((_SPACED, _SPACED_HINT), (_PUNCTUATED, _PUNCTUATED_HINT))
               if hint.search(text)]
    for regex in regexes:
        for m in regex.finditer(text):
            if edits and m.start() < edits[-1][1]:
                continue
            base = m.start()
            edits.extend((base + s.start(), base + s.end(), "")
                         for s in SEPARATOR.finditer(m.group()))
    edits.sort()
    merged: list[tuple[int, int, str]] = []
    for e in edits:
        if not merged or e[0] >= merged[-1][1]:
            merged.append(e)
    return merged

