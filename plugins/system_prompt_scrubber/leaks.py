"""system-prompt-scrubber's deterministic tier: the instructions' words found in a
text, verbatim or near-verbatim.

Texts are compared as normalised words (NFKC, case-folded, invisible characters
removed). Every window of ``n`` consecutive words of the text that is also a window of
the instructions (exactly, or from ``LOOSE_FROM`` words on with one interior word
different) is a hit; hits that overlap, touch or stand at most ``MAX_GAP`` words apart
form one leak. ``Scan`` lets a stream that only grows look up only its new words.

Several strings can be checked as one text (``Value``): a nested value's (a tool call's
arguments, the structured object, a data chunk's payload), so a leak split across its
strings is still found, or a message's parts; ``shares`` and ``value_redacted`` replace
each string's share of the leaks found in it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tripwire.guards.values import map_strings as walk
from tripwire.guards.values import strings
from tripwire.guards.verdicts import Detection, merge
from tripwire.guards.window import replace_all

__all__ = ["LOOSE_FROM", "MAX_GAP", "Index", "Scan", "Span", "Value", "find_leaks",
           "hit_ranges", "joined", "redacted", "shares", "value_redacted", "value_text",
           "words"]

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


def hit_ranges(index: Index | None, text: str) -> list[tuple[int, int]]:
    """Where the hit windows of ``text`` lie (from their first matching word's start to
    their last one's end): the words of a leak that match the instructions, without the
    gaps ``MAX_GAP`` lets a leak take in."""
    if index is None or not index.exact:
        return []
    n = index.n
    ws, hits = Scan().update(index, text, None)
    # (A different first or last word is not part of the leak, as in ``_runs``.)
    return [(ws[i + 1 if other == 0 else i][1], ws[i + n - 2 if other == n - 1 else i + n - 1][2])
            for i, other in hits]


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


#: The deterministic tier's leak types (the n-grams').
NGRAM_TYPES = frozenset({"verbatim", "near-verbatim"})


@attrs.frozen
class Value:
    """Strings checked as one ``text``: a nested value's (``sep`` 1: a line break
    between two; ``hits``: where the n-grams' hit windows lie in ``text``) or a
    message's parts (``sep`` 0, ``hits`` None)."""

    texts: list[str]
    text: str
    sep: int
    hits: list[tuple[int, int]] | None


def value_text(index: Index | None, value: Any) -> Value:
    """Every string of ``value``, as ``walk`` visits them (dict keys and values, lists,
    tuples, attrs and dataclass fields: ``tripwire.guards.values``), as one text: a line break between two, so a leak split across strings
    is still found (a word split across two is not)."""
    texts = list(strings(value))
    text = "\n".join(texts)
    return Value(texts, text, 1, hit_ranges(index, text))


def shares(target: Value, spans: list[Span], replacement: Callable[[int], str]) -> list[str]:
    """Each of ``target.texts`` with its share of ``spans`` (offsets in ``target.text``)
    replaced (``replacement(length)``). With ``target.hits``, a string that a leak of
    the n-grams only takes in as a gap between its hits (a key between two quoted
    values) is left as it is."""
    edited: list[str] = []
    start = 0
    for text in target.texts:
        end = start + len(text)
        mine = [Span(max(s.start, start) - start, min(s.end, end) - start, s.types)
                for s in spans if s.start < end and s.end > start
                and (target.hits is None or not NGRAM_TYPES.issuperset(s.types)
                     or any(a < min(s.end, end) and b > max(s.start, start)
                            for a, b in target.hits))]
        edited.append(redacted(text, mine, replacement) if mine else text)
        start = end + target.sep
    return edited


def value_redacted(value: Any, target: Value, spans: list[Span],
                   replacement: Callable[[int], str]) -> Any:
    """``value`` (``target`` is its ``value_text``) with its strings' shares of
    ``spans`` replaced in place; ``value`` itself when nothing changed."""
    changed = iter(zip(target.texts, shares(target, spans, replacement), strict=True))

    def change(text: str) -> str:
        old, new = next(changed)
        return text if new == old else new

    return walk(value, change)


def redacted(text: str, spans: list[Span], replacement: Callable[[int], str]) -> str:
    """``text`` with each span replaced by ``replacement(its length)`` (spans never
    overlap)."""
    detections = merge([Detection(s.types[0], s.start, s.end) for s in spans])
    labelled = [(d.start, d.end, d.end - d.start) for d in detections]
    out, _ = replace_all(text, lambda _: labelled, lambda m: replacement(m.rule))
    return out
