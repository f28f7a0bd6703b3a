"""unicode-normalizer's stream state: one ``Stream`` per call, in its ``state``.

Text and reasoning deltas go through one ``tripwire.HoldBack`` window. Its finder
cuts the held text where normalizing the pieces apart gives what normalizing the
whole would (``cut_ok``), and reports each piece that normalization changes, with its
normalized form as the replacement; its ``hold_from`` holds back the last piece while
a character still to come could change it (a letter the next delta gives an accent, an
emoji the next gives a skin tone or a joiner). A clean ASCII delta is released as it
came, one delta later at most.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tripwire.guards.window import HoldBack, Match
from tripwire.plugins.unicode_normalizer.chars import INERT, ZWJ, ZWNJ, glues

if TYPE_CHECKING:
    from tripwire.plugins.unicode_normalizer import UnicodeNormalizer

__all__ = ["HOLD", "Stream", "cut_ok"]

#: The most characters one piece may have (a letter and its combining marks, an emoji
#: sequence, a word with ``fold_lookalikes``): a longer one is cut, so the stream never
#: waits longer than that for a piece to end.
HOLD = 64
_ASCII_FIX = re.compile(r"\r\n?|[\x00-\x08\x0b-\x1f\x7f]")


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def cut_ok(text: str, i: int, words: bool) -> bool:
    """Whether ``text[:i]`` and ``text[i:]`` normalize apart to what ``text`` does
    (``0 < i < len(text)``): ``text[i]`` does not glue to what is before it, nor does
    a joiner or a ``\\r`` before it wait for it; with ``words`` (``fold_lookalikes``,
    which reads a word whole) no word is cut."""
    ch, prev = text[i], text[i - 1]
    if prev in (ZWJ, ZWNJ, "\r") or glues(ch):
        return False
    return not (words and _word(ch) and (_word(prev) or glues(prev)))


def _replacement(match: Match) -> str:
    normalized: str = match.rule
    return normalized


class Stream:
    """One call's hold-back window over text and reasoning deltas."""

    __slots__ = ("normalizer", "hold")

    def __init__(self, normalizer: UnicodeNormalizer) -> None:
        self.normalizer = normalizer
        self.hold = HoldBack(HOLD + 1, self.find, _replacement, hold_from=self.hold_from)

    def hold_from(self, text: str) -> int:
        """Where the last piece that a character still to come could change starts."""
        n = len(text)
        if not n or text[-1] in INERT:
            return n
        words = self.normalizer.fold_lookalikes
        for i in range(n - 1, max(0, n - HOLD), -1):
            if cut_ok(text, i, words):
                return i
        return 0

    def find(self, text: str) -> list[tuple[int, int, str]]:
        """The pieces of the held text (the end of ``text``, after the released
        context) that normalization changes, each with its normalized form. A piece
        that began in the context (released unchanged: an emoji whose joiner came in
        this delta) is replaced from where the held text starts."""
        base = len(text) - len(self.hold.held)
        words = self.normalizer.fold_lookalikes
        if text.isascii() or (text[base:].isascii() and (base == 0 or cut_ok(text, base, words))):
            # Nothing to normalize but control characters and line ends.
            if not self.normalizer.strip_control_chars:
                return []
            return [(m.start(), m.end(), "\n" if m.group()[0] == "\r" else "")
                    for m in _ASCII_FIX.finditer(text, base)]
        characters = self.normalizer.characters
        held = text[base:]
        if (base == 0 or cut_ok(text, base, words)) and characters(held) == held:
            return []  # the common case: clean text of any script, one pass
        found: list[tuple[int, int, str]] = []
        start, n = 0, len(text)
        for i in range(1, n + 1):
            if i < n and not cut_ok(text, i, words) and i - start < HOLD:
                continue  # (a piece longer than HOLD is cut: nothing waits for ever)
            piece = text[start:i]
            if i > base and (not piece.isascii() or _ASCII_FIX.search(piece)):
                new = characters(piece)
                if new != piece:
                    if start >= base:
                        found.append((start, i, new))
                    else:
                        done, rest = text[start:base], text[base:i]
                        new = new[len(done):] if new.startswith(done) else characters(rest)
                        if new != rest:
                            found.append((base, i, new))
            start = i
        return found
