"""system-prompt-scrubber's deterministic tier: the instructions' words found in a
text, verbatim or near-verbatim.

Texts are compared as normalised words (NFKC, case-folded, invisible characters
removed). Every window of ``n`` consecutive words of the text that is also a window of
the instructions (exactly, or from ``LOOSE_FROM`` words on with one interior word
different) is a hit; hits that overlap, touch or stand at most ``MAX_GAP`` words apart
form one leak. ``Scan`` lets a stream that only grows look up only its new words.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

import attrs

__all__ = ["LOOSE_FROM", "MAX_GAP", "Index", "Scan", "Span", "find_leaks", "joined", "words"]

#: Hit windows at most this many words apart are one leak (the words between go too).
MAX_GAP = 2
#: From this ``ngram`` on, a window may differ from the instructions in one interior word.
LOOSE_FROM = 5

# A word: letters and digits, with the invisible characters that may be slipped into
# one (zero-width space / joiners, word joiner, BOM, soft hyphen) taken as part of it.
_WORD = re.compile(r"[^\W_](?:[^\W_]|[\u200b-\u200d\u2060\ufeff\u00ad])*")
_INVISIBLE = re.compile(r"[\u200b-\u200d\u2060\ufeff\u00ad]")


def words(text: str) -> list[tuple[str, int, int]]:
    """The normalised words of ``text`` (NFKC, case-folded, invisible characters
    removed) with where each stands in ``text``."""
    out = []
    for m in _WORD.finditer(text):
        word = unicodedata.normalize("NFKC", _INVISIBLE.sub("", m.group())).casefold()
        out.append((word, m.start(), m.end()))
    return out


@attrs.frozen
class Index:
    """The instructions' word n-grams: exact, and with one interior word left out."""

    n: int
    exact: frozenset[tuple[str, ...]]
    loose: frozenset[tuple[str | None, ...]]

    @classmethod
    def build(cls, texts: Iterable[str], n: int) -> Index:
        exact: set[tuple[str, ...]] = set()
        loose: set[tuple[str | None, ...]] = set()
        for text in texts:
            ws = [w for w, _, _ in words(text)]
            for i in range(len(ws) - n + 1):
                gram = tuple(ws[i:i + n])
                exact.add(gram)
                if n >= LOOSE_FROM:
                    for k in range(n):
                        loose.add(gram[:k] + (None,) + gram[k + 1:])
        return cls(n, frozenset(exact), frozenset(loose))

    def hit(self, gram: tuple[str, ...]) -> int | None:
        """-1: the window is in the instructions; ``k``: all but its word ``k`` is;
        ``None``: neither."""
        if gram in self.exact:
            return -1
        if self.loose:
            for k in range(self.n):
                if gram[:k] + (None,) + gram[k + 1:] in self.loose:
                    return k
        return None


@attrs.frozen
class Span:
    """One leak found in a text: ``text[start:end]``, its types (``verbatim``,
    ``near-verbatim``, ``custom-pattern``, or the judge's)."""

    start: int
    end: int
    types: tuple[str, ...]
    detector: str = "ngram"


def find_leaks(
    index: Index | None,
    patterns: Sequence[re.Pattern[str]],
    text: str,
    *,
    max_span: int | None = None,
    scan: Scan | None = None,
) -> list[Span]:
    """The leaks in ``text``, in order and never overlapping (overlapping ones are
    joined, their types together). With ``max_span``, hit windows and pattern matches
    longer than that many characters are not counted (the stream's honest bound).
    ``scan`` is a stream's memory of the text it scanned last: when ``text`` only
    grew, only its new words are looked up."""
    found: list[Span] = []
    if index is not None and index.exact:
        if scan is None:
            scan = Scan()
        ws, hits = scan.update(index, text, max_span)
        found.extend(_runs(ws, hits, index.n))
    for pattern in patterns:
        for m in pattern.finditer(text):
            if m.end() > m.start() and (max_span is None or m.end() - m.start() <= max_span):
                found.append(Span(m.start(), m.end(), ("custom-pattern",), "custom-pattern"))
    return joined(found)


_Word = tuple[str, int, int]


class Scan:
    """The words of the text scanned last and its hit windows ``(first word, the word
    that differs or -1)``, so that a text that only grew costs its new words."""

    __slots__ = ("text", "words", "hits", "index", "max_span")

    def __init__(self) -> None:
        self.text = ""
        self.words: list[_Word] = []
        self.hits: list[tuple[int, int]] = []
        self.index: Index | None = None
        self.max_span: int | None = None

    def update(self, index: Index, text: str, max_span: int | None
               ) -> tuple[list[_Word], list[tuple[int, int]]]:
        n = index.n
        if (index is self.index and max_span == self.max_span and self.words
                and text.startswith(self.text)):
            # The last word may have grown: read again from where it starts.
            keep = len(self.words) - 1
            at = self.words[-1][1]
            ws = self.words[:keep] + [(w, s + at, e + at) for w, s, e in words(text[at:])]
            hits = [h for h in self.hits if h[0] + n - 1 < keep]
            begin = max(0, keep - n + 1)
        else:
            ws, hits, begin = words(text), [], 0
        for i in range(begin, len(ws) - n + 1):
            other = index.hit(tuple(w for w, _, _ in ws[i:i + n]))
            if other is None:
                continue
            if max_span is not None and ws[i + n - 1][2] - ws[i][1] > max_span:
                continue
            hits.append((i, other))
        self.text, self.words, self.hits = text, ws, hits
        self.index, self.max_span = index, max_span
        return ws, hits


def _runs(ws: list[_Word], hits: list[tuple[int, int]], n: int) -> list[Span]:
    """The leaks the hit windows make."""
    found: list[Span] = []
    run: list[int] | None = None  # [first word, last word, gap-free]
    changed: set[int] = set()       # the words that differ from the instructions
    for i, other in hits:
        # The words of the window that matched: a different first or last word is
        # not part of the leak (an interior one is).
        first = i + 1 if other == 0 else i
        last = i + n - 2 if other == n - 1 else i + n - 1
        if other >= 0:
            changed.add(i + other)
        if run is not None and first <= run[1] + 1 + MAX_GAP:
            # one leak: overlapping, touching or a few words apart
            run[2] = run[2] and first <= run[1]
            run[1] = max(run[1], last)
        else:
            if run is not None:
                found.extend(_run_span(ws, run, n, changed))
            run = [first, last, True]
    if run is not None:
        found.extend(_run_span(ws, run, n, changed))
    return found


def _run_span(ws: list[_Word], run: list[int], n: int,
              changed: set[int]) -> list[Span]:
    """The run as a leak, if it covers at least ``n`` words: verbatim when it has no
    gap and no word of it differs from the instructions."""
    first, last, gap_free = run
    if last - first + 1 < n:
        return []
    exact = gap_free and not any(first <= k <= last for k in changed)
    return [Span(ws[first][1], ws[last][2], ("verbatim" if exact else "near-verbatim",))]


def joined(spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out and span.start < out[-1].end:
            prev = out[-1]
            out[-1] = Span(prev.start, max(prev.end, span.end),
                           tuple(dict.fromkeys(prev.types + span.types)), prev.detector)
        else:
            out.append(span)
    return out
