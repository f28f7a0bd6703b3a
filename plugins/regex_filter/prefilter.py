"""Where a regular expression can match: the literal anchors every match contains, so
that a scan runs only near them (``regex-filter``'s ``Matcher``).

A scan with the regex engine costs every character of the text, even for a pattern
that starts with a class it can skip to; ``str.find`` for a literal costs a fraction of
that. So each pattern gets a ``Gate`` when one can be proven: a set of *atoms* (a
literal string, one matched ignoring case, or "a digit"), one of which lies inside any
match, and how far a match (and the look-arounds around it) can reach. A text is then
scanned only in the windows around the atoms it holds, and most chat text holds none.

Why a window scan finds what a full scan finds: at a position ``p``, the engine reads
what look-behinds need before ``p`` (``pattern.search(text, pos)`` still sees the text
before ``pos``) and at most ``width + ahead`` characters from ``p`` on (the match, then
look-aheads, ``\\b``, ``$``). A window scanned with ``endpos`` at least that far past a
position decides that position exactly as the full text does. Every match contains an
atom, so it starts at most ``before`` characters before one (at most its width; less
when the atom comes early in the pattern): the windows' *exact ranges* (from
``before`` ahead of their first atom to their last atom) hold every match start, and
starts outside them are never reported.

Case: an atom matched ignoring case is searched in a folded view of the text (ASCII
letters in lower case; the four non-ASCII characters that Python's ``re`` matches to an
ASCII letter ignoring case, ``İ ı ſ K``, as that letter; any other non-ASCII character as
``?``). A digit atom is searched in a view with every ASCII digit as ``0`` and, in a
text with non-ASCII characters, each of those as a possible digit too (``\\d`` matches
every Unicode digit). Both views keep offsets (one byte a character).

Patterns the analysis does not prove (no atom in every match, no bound on a match or a
look-around, back-references) get no gate and are scanned whole, as before.
"""

from __future__ import annotations

import functools
import importlib
import math
import re
from collections.abc import Iterable
from typing import Any

import attrs

__all__ = ["Gate", "Locator", "gate", "windows"]

try:
    _P: Any = importlib.import_module("re._parser")
except ImportError:  # a Python whose re no longer has it: nothing is gated
    _P = None

#: An atom: ``("lit", s)`` (``s`` as written), ``("ci", s)`` (``s`` ignoring case, in
#: lower case) or ``("digit", "")``.
Atom = tuple[str, str]
_DIGIT: Atom = ("digit", "")
#: How often each character occurs in English chat text, roughly (for choosing the
#: rarest atom of a pattern, and the character that tells fastest that a literal is
#: absent). Capitals are a twentieth of their letter; other characters are rare.
_FREQUENCY = {
    **dict(zip("etaoinshrdlcumwfgypbvkjxqz", (
        .12, .09, .08, .075, .07, .067, .063, .06, .06, .043, .04, .028, .028, .024, .024,
        .022, .02, .02, .019, .015, .01, .008, .0015, .0015, .001, .0007), strict=True)),
    " ": .17, ".": .015, ",": .01, "\n": .005, "'": .002,
}
_FREQUENCY.update({c.upper(): f / 20 for c, f in list(_FREQUENCY.items()) if c.isalpha()})
_FREQUENCY.update(dict.fromkeys("0123456789", .005))
_RARE = .0005
#: Characters read around a position beyond what the parser's widths say (``\\b``,
#: ``$`` and ``\\Z`` look at one neighbour): a margin.
_MARGIN = 2

#: The non-ASCII characters Python's ``re`` matches to an ASCII letter ignoring case
#: (checked against ``re`` over every code point by the tests).
CASE_FOLDS = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
_DIGITS = bytes(ord("0") if 48 <= b <= 57 else ord(" ") for b in range(256))
# In a text with non-ASCII characters (each is ``?`` in the ASCII bytes), a ``?`` may be
# a Unicode digit.
_DIGITS_WIDE = bytes(ord("0") if 48 <= b <= 57 or b == ord("?") else ord(" ")
                     for b in range(256))


@attrs.frozen
class Gate:
    """What a pattern's matches must contain, and how far from it they reach.

    ``atoms``: one of them lies inside every match, at most ``before`` characters after
    its start; ``width``: the most characters a match covers; ``ahead``: the most
    characters the engine reads after a match's end (look-aheads, with a margin). What
    it reads before a match's start needs no bound: ``pattern.search(text, pos)`` sees
    the text before ``pos``."""

    atoms: frozenset[Atom]
    width: int
    ahead: int
    before: int


def gate(pattern: str, *, extra_width: int = 0) -> Gate | None:
    """The gate of ``pattern`` (``extra_width``: characters a scan adds in front of it,
    such as the ``\\W`` of a word-start scan), or ``None`` when none can be proven."""
    if _P is None:
        return None
    try:
        parsed = _P.parse(pattern)
    except re.error:
        return None
    ci = bool(parsed.state.flags & re.IGNORECASE)
    reach = _reach(parsed.data)
    best = _sequence(parsed.data, ci, parsed.state)
    if reach is None or best is None:
        return None
    _low, high = parsed.getwidth()
    if high >= _P.MAXREPEAT:
        return None
    return Gate(best[1], high + extra_width, reach + _MARGIN,
                min(best[2], high) + extra_width)


def _reach(data: Any) -> int | None:
    """The widest look-ahead in ``data``; ``None`` when a look-around is unbounded or
    the pattern refers back to a group."""
    ahead = 0
    for op, av in data:
        subs: list[Any] = []
        if op in (_P.ASSERT, _P.ASSERT_NOT):
            high = av[1].getwidth()[1]
            if high >= _P.MAXREPEAT:
                return None
            if av[0] > 0:
                ahead = max(ahead, high)
            subs = [av[1]]
        elif op in (_P.GROUPREF, _P.GROUPREF_EXISTS):
            return None
        elif op is _P.SUBPATTERN:
            subs = [av[3]]
        elif op is _P.BRANCH:
            subs = list(av[1])
        elif op in (_P.MAX_REPEAT, _P.MIN_REPEAT, _P.POSSESSIVE_REPEAT):
            subs = [av[2]]
        elif op is _P.ATOMIC_GROUP:
            subs = [av]
        for sub in subs:
            inner = _reach(sub.data)
            if inner is None:
                return None
            ahead = max(ahead, inner)
    return ahead


def _frequency(char: str, ci: bool) -> float:
    if ci and char.isalpha():
        return _FREQUENCY.get(char, _RARE) + _FREQUENCY.get(char.upper(), _RARE)
    return _FREQUENCY.get(char, _RARE)


@functools.cache
def trigger(atom: Atom) -> str:
    """The rarest character of a literal atom: where it is absent, so is the atom."""
    return min(atom[1], key=lambda c: _frequency(c, atom[0] == "ci"))


def _weight(atom: Atom) -> float:
    """How good a gate an atom is: the rarer its rarest character, the better (then the
    longer, the better)."""
    if atom[0] == "digit":
        return -math.log(10 * _FREQUENCY["0"])
    return -math.log(_frequency(trigger(atom), atom[0] == "ci")) + len(atom[1]) / 100


#: An atom set with the weight of its worst atom, and the most characters between the
#: start of a match and the atom it contains.
Found = tuple[float, frozenset[Atom], int]


def _better(a: Found | None, b: Found | None) -> Found | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if b[0] > a[0] else a


def _after(found: Found | None, offset: int) -> Found | None:
    """``found`` in a sequence where the item holding it starts ``offset`` characters in
    at most."""
    return None if found is None else (found[0], found[1], found[2] + offset)


def _sequence(data: Any, ci: bool, state: Any) -> Found | None:
    """The best atom set of a sequence: one item every match of it must contain."""
    best: Found | None = None
    run: list[str] = []
    offset = 0  # the most characters the items so far can cover
    run_at = 0

    def close() -> None:
        nonlocal best
        text = "".join(run)
        run.clear()
        if text.strip():
            atom = ("ci", text) if ci else ("lit", text)
            best = _better(best, (_weight(atom), frozenset({atom}), run_at))

    for op, av in data:
        if op is _P.LITERAL:
            char = chr(av)
            if ci and not char.isascii():
                close()
            else:
                if not run:
                    run_at = offset
                run.append(char.lower() if ci else char)
            offset += 1
            continue
        close()
        if op is _P.SUBPATTERN:
            _group, add, remove, sub = av
            inner_ci = (ci or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE
            best = _better(best, _after(_sequence(sub.data, inner_ci, state), offset))
        elif op is _P.ATOMIC_GROUP:
            best = _better(best, _after(_sequence(av.data, ci, state), offset))
        elif op is _P.BRANCH:
            found = [_sequence(b.data, ci, state) for b in av[1]]
            if all(f is not None for f in found):
                best = _better(best, (min(f[0] for f in found if f),
                                      frozenset().union(*(f[1] for f in found if f)),
                                      max(f[2] for f in found if f) + offset))
        elif op in (_P.MAX_REPEAT, _P.MIN_REPEAT, _P.POSSESSIVE_REPEAT):
            if av[0] >= 1:  # the first repetition holds the atom
                best = _better(best, _after(_sequence(av[2].data, ci, state), offset))
        elif op is _P.IN and _digits_only(av):
            best = _better(best, (_weight(_DIGIT), frozenset({_DIGIT}), offset))
        offset = min(offset + _P.SubPattern(state, [(op, av)]).getwidth()[1], _P.MAXREPEAT)
    close()
    return best


def _digits_only(members: Any) -> bool:
    """A class (``[0-9]``, ``\\d``, ``[13579]``) whose every member is a digit."""
    for op, av in members:
        if op is _P.CATEGORY and av is _P.CATEGORY_DIGIT:
            continue
        if op is _P.RANGE and 48 <= av[0] <= av[1] <= 57:
            continue
        if op is _P.LITERAL and 48 <= av <= 57:
            continue
        return False
    return bool(members)


class Views:
    """The views of one text the atoms are searched in, made on first use."""

    __slots__ = ("text", "wide", "_folded", "_digits")

    def __init__(self, text: str) -> None:
        self.text = text
        self._folded: bytes | None = None
        self._digits: bytes | None = None
        #: the text has non-ASCII characters
        self.wide = not text.isascii()

    def folded(self) -> bytes:
        if self._folded is None:
            text = self.text
            if self.wide:
                for char, letter in CASE_FOLDS.items():
                    if char in text:
                        text = text.replace(char, letter)
            self._folded = text.encode("ascii", "replace").lower()
        return self._folded

    def has_digits(self) -> bool:
        """Whether the text may hold a digit (a text with non-ASCII characters may)."""
        if self._digits is not None:
            return b"0" in self._digits
        t = self.text
        return (self.wide or "0" in t or "1" in t or "2" in t or "3" in t or "4" in t
                or "5" in t or "6" in t or "7" in t or "8" in t or "9" in t)

    def digits(self) -> bytes:
        if self._digits is None:
            self._digits = self.text.encode("ascii", "replace").translate(
                _DIGITS_WIDE if self.wide else _DIGITS)
        return self._digits


_CLUSTERS: dict[int, re.Pattern[bytes]] = {}

Span = tuple[int, int]


class Locator:
    """Finds the atoms of some gates in a text, each atom once: ``locate(text)`` gives
    ``{atom: [(first, last), ...]}`` (character positions of each occurrence) for the
    atoms the text holds. Runs of digits with few other characters between them are one
    occurrence (closer than any gate's windows could be apart)."""

    __slots__ = ("atoms", "_cluster", "_literals", "_folded", "_digit")

    def __init__(self, gates: Iterable[Gate]) -> None:
        gates = list(gates)
        self.atoms = sorted({a for g in gates for a in g.atoms})
        gap = min((g.before + g.width + g.ahead for g in gates if _DIGIT in g.atoms),
                  default=0)
        cluster = _CLUSTERS.get(gap)
        if cluster is None:
            cluster = _CLUSTERS[gap] = re.compile(rb"0(?:[^0]{0,%d}+0)*" % gap)
        self._cluster = cluster
        # Each atom with its rarest character: ``in`` for one character is a memchr,
        # many times faster than a search for the atom, and most texts lack it.
        self._literals = [(a, a[1], trigger(a)) for a in self.atoms if a[0] == "lit"]
        self._folded = [(a, a[1].encode(), trigger(a), trigger(a).upper())
                        for a in self.atoms if a[0] == "ci"]
        self._digit = _DIGIT in self.atoms

    def locate(self, text: str) -> dict[Atom, list[Span]]:
        found: dict[Atom, list[Span]] = {}
        views = Views(text)
        if self._digit and views.has_digits():
            out = [(m.start(), m.end() - 1) for m in self._cluster.finditer(views.digits())]
            if out:
                found[_DIGIT] = out
        for atom, s, char in self._literals:
            if char in text:
                _occurrences(text.find, s, len(s) - 1, atom, found)
        wide = views.wide
        for atom, needle, char, upper in self._folded:
            if wide or char in text or upper in text:
                _occurrences(views.folded().find, needle, len(needle) - 1, atom, found)
        return found


def _occurrences(find: Any, needle: Any, last: int, atom: Atom,
                 found: dict[Atom, list[Span]]) -> None:
    i = find(needle)
    if i == -1:
        return
    out = found[atom] = []
    while i != -1:
        out.append((i, i + last))
        i = find(needle, i + 1)


def windows(found: dict[Atom, list[Span]], g: Gate) -> list[tuple[int, int, int]]:
    """The windows of a text to scan for ``g``'s pattern, given where the atoms are in
    it (``Locator.locate``): ``(start, last, endpos)`` in the text's offsets (``start``
    may be negative). Every match starts within some ``start .. last``; scanned with
    ``pattern.search(text, pos, endpos)``, a position up to ``last`` is decided as in
    the whole text."""
    spans = [span for atom in g.atoms for span in found.get(atom, ())]
    if not spans:
        return []
    width, ahead, before = g.width, g.ahead, g.before
    if len(spans) == 1:
        first, last = spans[0]
        return [(first - before, last, last + width + ahead)]
    spans.sort()
    out: list[tuple[int, int, int]] = []
    start, last = spans[0][0] - before, spans[0][1]
    for first, end in spans[1:]:
        if first - before <= last + width + ahead:
            last = max(last, end)
            continue
        out.append((start, last, last + width + ahead))
        start, last = first - before, end
    out.append((start, last, last + width + ahead))
    return out
