"""Detectors over a streamed text, each part of it searched once.

A stream guard holds text back (``tripwire.guards.window.HoldBack``) until no detection
can still span what it releases. Searching all it holds again for every chunk costs
the window's length per chunk (4k characters with the ``api-key`` detector), so a text
of 16-character deltas would stream at a hundredth of the speed of its whole search.
``Incremental`` is what such a guard searches with instead, one per channel: for each
detector it keeps how far its detections are *settled* and the ones found there, and
searches only what came after.

Where a detector has settled: its ``hold_from(text)`` (see
``tripwire.guards.verdicts.Detector``) is the earliest index of ``text`` where a
detection that more text could still add, change or remove can start; without one,
such a detection may start in the last ``max_length + 1`` characters (a match and the
two characters after it that may rule it out), and never further back: that bounds
the hold. The detections that start before it are final: they are kept, and that text
is never searched for them again. The next search of a detector covers the text after
its settled point, with its ``lookbehind`` characters before it (default
``max_length``): what it reads before a detection to decide it (a keyword, "order no."
before a number, the character before); a detector with ``detect_from`` is told where
its settled point is in that text, and judges only what may start after it. A detector whose detections depend on text
further back (a table's header far above a row) gives a ``context``: what of the text
before a point matters after it, kept per detector and put before the next search.

When a search runs: once the text has grown by twice as many characters as the last
search left unsettled, and by ``BATCH`` characters for each detector, and at the
latest before the unsettled text is longer than ``span`` (twice the most any detector
holds or reads back: what the caller holds, and lets go of beyond). No character is
then searched more than about one and a half times, however far back a detector holds,
and the fixed cost of a search (a call of each detector) is spread over that many
characters: a guard with one detector searches (and releases) prose about a word at a
time, one with the eleven built-in detectors about every 132 characters. ``final`` (the
text has ended: a step's end) searches everything, as if nothing could follow; what
the next step's text may still change stays unsettled, so a value the step's end cut
in two is still found whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

import attrs

from tripwire.guards.verdicts import Detection, Detector, merge
from tripwire.guards.window_start import checked_hold

__all__ = ["BATCH", "Incremental", "find_from", "lookbehind", "reach"]

#: Characters of new text per detector before a search runs again.
BATCH = 12

#: ``search(text, detector, since)``: what ``detector`` finds in ``text`` from ``since``
#: on (``find_from``; the guard's own filter applied: types wanted, a threshold).
Search = Callable[[str, Detector, int], Iterable[Detection]]


def lookbehind(detector: Detector) -> int:
    """How many characters before a detection ``detector`` reads to decide it: its
    ``lookbehind`` attribute, or its ``max_length``."""
    value = getattr(detector, "lookbehind", None)
    if value is None:
        return int(detector.max_length)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"detector {detector.name!r} has lookbehind {value!r}; it must be "
                         f"an integer >= 0")
    return value


def reach(detector: Detector) -> int:
    """How far back from the end of a text a detection of ``detector`` that more text
    could still change can start, at most (``max_length + 1``): its longest match is
    followed by the two characters that may rule it out (``1.2.3.4.5``, ``...1111.25``);
    ``hold_from`` usually says less."""
    return int(detector.max_length) + 1


def find_from(text: str, detector: Detector, since: int) -> Iterable[Detection]:
    """The detections of ``detector`` in ``text`` that start at ``since`` or after (and
    perhaps some before, which the caller drops): its ``detect_from(text, since)``
    where it has one (it reads the text before ``since`` only for what it says of what
    follows), else ``detect(text)``."""
    detect_from = getattr(detector, "detect_from", None)
    if detect_from is None or not since:
        return detector.detect(text)
    return detect_from(text, since)  # type: ignore[no-any-return]


class Incremental:
    """One channel's detections as its text streams in, each part searched once per
    detector.

    The caller keeps the text (its end, at least: what it holds back and the context
    before it) and passes it to ``update`` after each chunk. Offsets here count the
    channel's characters from its first: ``end`` is the channel's length so far, and
    detections come back with their place in the channel.
    """

    __slots__ = ("detectors", "span", "_search", "_holds", "_keeps", "_behind", "_contexts",
                 "_starts", "_batch", "_settled", "_carry", "_kept", "_merged", "_due")

    def __init__(self, detectors: Sequence[Detector], search: Search | None = None) -> None:
        self.detectors = tuple(detectors)
        self._search = search or find_from
        self._holds = [getattr(d, "hold_from", None) for d in self.detectors]
        self._keeps = [reach(d) for d in self.detectors]
        self._behind = [lookbehind(d) for d in self.detectors]
        self._contexts = [getattr(d, "context", None) for d in self.detectors]
        self._starts = [_checked_starts(d) for d in self.detectors]
        self._batch = BATCH * len(self.detectors)
        #: What the caller holds (and keeps before what it holds): twice the most
        #: characters before the end that a detector may not have settled, or that a
        #: search reads before them, so that searches can wait for more text (a long
        #: word, which the key detector holds whole, is searched about once per
        #: ``reach`` characters, not at every chunk). A search runs before the text
        #: not settled is longer than that.
        self.span = 2 * max((max(k, b) for k, b in zip(self._keeps, self._behind, strict=True)),
                            default=0)
        self.reset()

    @property
    def due(self) -> int:
        """The channel length at which ``update`` searches again: before it (and but
        for ``final``), ``update`` finds what it found last and settles nothing more."""
        return self._due

    def reset(self) -> None:
        """Forget everything: the text that follows is a new one (a retried step)."""
        #: Per detector: the channel offset before which its detections are final.
        self._settled = [0] * len(self.detectors)
        #: Per detector with a ``context``: what it keeps of the text before its next
        #: search (the channel offset that text ends at, and the text).
        self._carry: list[tuple[int, str]] = [(0, "")] * len(self.detectors)
        #: The final detections not released yet, and the same merged (or None: to do).
        self._kept: list[Detection] = []
        self._merged: list[Detection] | None = []
        #: The search runs again once the channel is this long.
        self._due = 0

    def update(self, text: str, end: int, released: int, *, final: bool = False
               ) -> tuple[list[Detection], int]:
        """The detections that end after ``released`` (overlapping ones merged: the
        longest wins), and the channel offset before which every detection is known
        (each in channel offsets).

        ``text`` is the end of the channel's text, which is ``end`` characters long
        (``text[0]`` is its character ``end - len(text)``); it must hold every
        character from ``released`` on (what is held back) and the context before it
        that detectors look back at. With ``final``, ``text`` is complete for now:
        every detection is searched for.
        """
        transient: list[Detection] = []
        if final or end >= self._due:
            transient = self._run(text, end - len(text), end, final)
        kept = self._kept
        if kept and min(d.end for d in kept) <= released:
            kept = self._kept = [d for d in kept if d.end > released]
            self._merged = None
        boundary = min(self._settled, default=end)
        if transient:
            return merge(kept + transient), boundary
        if self._merged is None:
            self._merged = merge(kept)
        return self._merged, boundary

    def _run(self, text: str, start: int, end: int, final: bool) -> list[Detection]:
        """Search each detector's unsettled text; return (with ``final``) what was found
        that more text could still change."""
        transient: list[Detection] = []
        size = len(text)
        for i, detector in enumerate(self.detectors):
            settled = self._settled[i]
            starts = self._starts[i]
            if starts is not None and starts.search(text, max(0, settled - start)) is None:
                # No detection can start in what is not settled: it is, all of it.
                self._settled[i] = end
                if self._contexts[i] is not None:
                    self._carry_to(i, text, start, end)
                continue
            hold = self._holds[i]
            # Where an unsettled detection can start: never further back than the
            # detector's longest match and the two characters after it.
            at = size - self._keeps[i]
            if hold is not None:
                # (asked of the end it is about, with what it reads before: the caller
                # may hold far more)
                tail = max(0, at - self._behind[i])
                at = max(at, tail + checked_hold(hold, text[tail:] if tail else text))
            pending = max(settled, start + at)
            if pending <= settled and not final:
                continue
            lo = max(start, settled - self._behind[i])
            region = text[lo - start:] if lo > start else text
            context = self._contexts[i]
            carried = ""
            if context is not None:
                # What the text before ``lo`` says that a detection after it depends on.
                at, carried = self._carry[i]
                if at < lo:
                    carried = _checked_context(context, carried + text[at - start:lo - start],
                                               detector)
                    self._carry[i] = (lo, carried)
                region = carried + region
                lo -= len(carried)
            for d in self._search(region, detector, max(0, settled - lo)):
                if not (isinstance(d.start, int) and isinstance(d.end, int)
                        and 0 <= d.start < d.end <= len(region)):
                    raise ValueError(
                        f"detector {d.detector or detector.name!r} returned the span "
                        f"({d.start!r}, {d.end!r}) for a text of {len(region)} characters")
                if d.start < len(carried) or d.start + lo < settled:
                    continue  # found before, or decided by text no longer held
                value = region[d.start:d.end] if d.value is None else d.value
                d = (Detection(d.type, d.start + lo, d.end + lo, d.score, d.detector, value)
                     if type(d) is Detection else  # (a subclass keeps its own fields)
                     attrs.evolve(d, start=d.start + lo, end=d.end + lo, value=value))
                if d.start < pending:
                    self._kept.append(d)
                    self._merged = None
                else:
                    transient.append(d)
            self._settled[i] = pending
            if context is not None:
                self._carry_to(i, text, start, pending)
        settled = min(self._settled, default=end)
        # (and before the text not settled is more than ``span`` long: a caller that
        # holds ``span`` characters lets go of what comes before them)
        self._due = end if final else min(end + max(self._batch, 2 * (end - settled)),
                                          settled + self.span)
        return transient

    def _carry_to(self, i: int, text: str, start: int, settled: int) -> None:
        """Detector ``i`` (which has a ``context``) has settled the channel up to
        ``settled``: what it keeps of the text before its next search is carried up to
        where that search starts, while the caller still holds the text before it (it
        may let go of what comes before that)."""
        context = self._contexts[i]
        assert context is not None
        following = max(start, settled - self._behind[i])
        at, carried = self._carry[i]
        if at < following:
            self._carry[i] = (following, _checked_context(
                context, carried + text[at - start:following - start], self.detectors[i]))


def _checked_starts(detector: Detector) -> re.Pattern[str] | None:
    """``detector.starts``, checked: a compiled pattern, or ``None`` (it has none)."""
    starts = getattr(detector, "starts", None)
    if starts is not None and not isinstance(starts, re.Pattern):
        raise ValueError(f"detector {detector.name!r} has starts {starts!r}; it must be a "
                         f"compiled regular expression (re.compile) or None")
    return starts


def _checked_context(context: Callable[[str], str], text: str, detector: Detector) -> str:
    """``detector.context(text)``, checked: a string."""
    out = context(text)
    if not isinstance(out, str):
        raise ValueError(f"detector {detector.name!r}: context returned {out!r}; it must "
                         f"return a string")
    return out
