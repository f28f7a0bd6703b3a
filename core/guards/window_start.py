"""Where a stream guard must start holding text back: ``hold_from`` functions.

``tripwire.HoldBack`` holds the last ``max_match_length - 1`` characters of a channel,
unless its guard says where a match that is not complete yet can start. These build
that answer: ``run_start`` for matches that never hold white space (the last word),
``in_one_word`` to show it of a regular expression, ``joint_hold_from`` for a guard
that looks for several kinds of match, ``trailing_run`` for matches made of a few
characters (digits and separators, hex digits). (Importable from
``tripwire.guards.window`` too.)
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["checked_hold", "in_one_word", "joint_hold_from", "run_start", "trailing_run"]

# The stdlib's regular expression parser (``in_one_word``): private (``re._parser``), so
# looked up, not imported; without it no pattern is shown to lie within one word.
try:
    _PARSER: Any = importlib.import_module("re._parser")
except ImportError:  # a Python whose re no longer has it
    _PARSER = None

#: What ends a run for ``run_start``: ASCII white space (a subset of every pattern's
#: ``\s``, so a value that holds no ``\s`` lies within one run).
_SPACES = " \t\r\n"


def run_start(text: str) -> int:
    """Where the last run of characters without white space (space, tab, CR, LF)
    begins in ``text``; ``len(text)`` when ``text`` ends with white space.

    The ``hold_from`` of a guard (or a ``Detector``) whose matches never hold white
    space: a match that is not complete yet can only lie in the last run.
    """
    end = len(text)
    i = end
    while i and text[i - 1] not in _SPACES:
        i -= 1
        if i < end - 64:  # a long run: find its start in one pass from the right
            j = max(text.rfind(" ", 0, i), text.rfind("\n", 0, i), text.rfind("\t", 0, i),
                    text.rfind("\r", 0, i))
            return j + 1
    return i


def trailing_run(text: str, chars: str, limit: int) -> int:
    """Where the run of characters of ``chars`` (ASCII ones) that ends ``text`` begins,
    looking back no further than ``limit`` characters: ``len(text) - limit`` when the
    run is at least that long (``len(text)`` when ``text`` does not end with one).

    The ``hold_from`` of a detector whose values are made of ``chars`` (digits and the
    characters that group them, hex digits, ...) and at most ``limit`` long: one not
    complete yet lies in that run.
    """
    lo = max(0, len(text) - limit)
    view = text[lo:].encode("ascii", "replace").translate(_run_table(chars))
    return lo + view.rfind(b" ") + 1


@functools.lru_cache(maxsize=64)
def _run_table(chars: str) -> bytes:
    """``bytes.translate``'s table that makes each of ``chars`` ``a`` and every other
    byte a space (non-ASCII characters are ``?`` by then)."""
    return bytes(ord("a") if chr(b) in chars else ord(" ") for b in range(256))


_SPACE_CODES = frozenset(map(ord, _SPACES))


def in_one_word(pattern: str) -> bool:
    """Whether every match of ``pattern`` lies within one run of characters without
    white space, and depends on at most one character after it (a lookahead of one
    character, ``\\b``, ``$``): then a stream guard need only hold back the last word
    (``tripwire.guards.window.run_start``). ``False`` when that cannot be shown."""
    if _PARSER is None:
        return False
    try:
        parsed = _PARSER.parse(pattern)
    except re.error as e:
        raise ValueError(f"in_one_word: {pattern!r} is not a regular expression: {e}") from None
    return _no_space(parsed)


def _no_space(sub: Any) -> bool:
    """``in_one_word`` of a parsed (sub)pattern."""
    for op, av in sub:
        name = str(op)
        if name == "LITERAL":
            if av in _SPACE_CODES:
                return False
        elif name == "IN":
            if any(_set_has(av, ch) for ch in _SPACE_CODES):
                return False
        elif name == "BRANCH":
            if not all(_no_space(b) for b in av[1]):
                return False
        elif name == "SUBPATTERN":
            if not _no_space(av[-1]):
                return False
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if not _no_space(av[2]):
                return False
        elif name == "ATOMIC_GROUP":
            if not _no_space(av):
                return False
        elif name in ("ASSERT", "ASSERT_NOT"):
            direction, inner = av
            # A lookbehind looks at what was released (kept as context); a lookahead
            # may look at one character past the match, no further.
            if direction > 0 and inner.getwidth()[1] > 1:
                return False
        elif name == "GROUPREF_EXISTS":
            if not all(p is None or _no_space(p) for p in av[1:]):
                return False
        elif name not in ("AT", "GROUPREF"):
            return False  # ANY, NOT_LITERAL, and anything not known to be safe
    return True


def _set_has(items: list[tuple[Any, Any]], ch: int) -> bool:
    """Whether the character class ``items`` (the parser's ``IN`` argument) holds ``ch``."""
    negate = False
    found = False
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            found = found or av == ch
        elif name == "RANGE":
            found = found or av[0] <= ch <= av[1]
        elif name == "CATEGORY":
            found = found or _category_has(str(av), ch)
        else:
            return True  # not known: assume it may
    return found != negate


#: Classes that hold no white space (``\\d``, ``\\S``, ``\\w``).
_NO_SPACE_CATEGORIES = frozenset({"CATEGORY_DIGIT", "CATEGORY_NOT_SPACE", "CATEGORY_WORD"})


def _category_has(category: str, ch: int) -> bool:
    """Whether the class ``category`` holds the white space character ``ch``."""
    if category in _NO_SPACE_CATEGORIES:
        return False
    if category == "CATEGORY_LINEBREAK":
        return ch == 10
    return True


def joint_hold_from(
    parts: Iterable[tuple[int, Callable[[str], int] | None]],
) -> Callable[[str], int] | None:
    """The ``hold_from`` of a guard that looks for several kinds of match at once, each
    given as ``(max_match_length, hold_from or None)``: the earliest place where a match
    of any kind that is not complete yet can start (a kind without ``hold_from``: its
    last ``max_match_length - 1`` characters). ``None`` when no kind has one: the
    window's own length then says it all."""
    # One entry per distinct ``hold_from`` (kinds sharing one, such as ``run_start``,
    # call it once per text), with the most characters any of its kinds may hold.
    keeps: dict[Callable[[str], int], int] = {}
    plain: int | None = None  # kinds without one: their last characters
    for length, hold in parts:
        if hold is None:
            plain = max(plain or 0, length - 1)
        else:
            keeps[hold] = max(keeps.get(hold, 0), length - 1)
    if not keeps:
        return None

    def earliest(text: str) -> int:
        n = len(text)
        out = n if plain is None else n - plain
        for hold, keep in keeps.items():
            out = min(out, max(n - keep, checked_hold(hold, text)))
        return max(0, out)

    return earliest


def checked_hold(hold_from: Callable[[str], int], text: str) -> int:
    """``hold_from(text)``, checked: an index of ``text``."""
    index = hold_from(text)
    if type(index) is not int or not 0 <= index <= len(text):
        raise ValueError(
            f"HoldBack: hold_from returned {index!r} for a text of {len(text)} characters; "
            f"it must return an index from 0 to len(text)")
    return index
