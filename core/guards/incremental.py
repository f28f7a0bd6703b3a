"""Detectors over a streamed text, each part of it searched once.

A stream guard holds text back (``tripwire.guards.window.HoldBack``) until no detection
can still span what it releases. Searching all it holds again for every chunk costs
the window's length per chunk: 4k characters for the ``api-key`` detector, so a text
of 16-character deltas streams at a hundredth of the speed its whole search takes.
``Incremental`` is what such a guard searches with instead, one per channel: for each
detector it keeps how far the detections are *settled*, the ones found there, and
searches only what came after.

Where a detection is settled: the detector's ``hold_from(text)`` (see
``tripwire.guards.verdicts.Detector``) is the earliest index of ``text`` where a
detection that more text could still add, change or remove can start; a detector
without one may have such a detection in its last ``max_length + 1`` characters (a
match and the two characters after it; never further back: that bounds the hold). Detections that start before it are final:
they are kept, and that text is never searched for them again. The next search of a
detector covers the text after its settled point, and its ``lookbehind`` characters
before it (default ``max_length``): what the detector reads before a detection to
decide it (a keyword, an "order no." before a number, the character before).

When a search runs: once the text has grown by as many characters as the last search
left unsettled (at least one chunk), so no character is searched more than about twice
however far back a detector holds, and a text that settles word by word (prose) is
searched at every chunk. ``final`` (the text has ended: a step's end) searches
everything, as if nothing could follow; what the next step's text may still change
stays unsettled, so a value that the step's end cut in two is still found whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from tripwire.guards.verdicts import Detection, Detector
from tripwire.guards.window_start import checked_hold

__all__ = ["Incremental", "lookbehind", "reach"]

#: ``search(text, detector)``: what ``detector`` finds in ``text`` (the guard's own
#: filter applied: types wanted, a threshold).
Search = Callable[[str, Detector], Iterable[Detection]]


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


def _direct(text: str, detector: Detector) -> Iterable[Detection]:
    return detector.detect(text)


class Incremental:
    """One channel's detections as its text streams in, each part searched once per
    detector.

    The caller keeps the text (its end, at least: what it holds back and the context
    before it) and passes it to ``update`` after each chunk; offsets here count the
    channel's characters from its first (``end`` is the channel's length so far).
    """

    __slots__ = ("detectors", "_search", "_holds", "_keeps", "_behind", "_settled",
                 "_found", "_due")

    def __init__(self, detectors: Sequence[Detector], search: Search | None = None) -> None:
        self.detectors = tuple(detectors)
        self._search = search or _direct
        self._holds = [getattr(d, "hold_from", None) for d in self.detectors]
        self._keeps = [reach(d) for d in self.detectors]
        self._behind = [lookbehind(d) for d in self.detectors]
        self.reset()

    def reset(self) -> None:
        """Forget everything: the text that follows is a new one (a retried step)."""
        n = len(self.detectors)
        #: Per detector: the channel offset before which its detections are final.
        self._settled = [0] * n
        #: Per detector: its final detections not released yet, in channel offsets.
        self._found: list[list[Detection]] = [[] for _ in range(n)]
        #: The search runs again once the channel is this long.
        self._due = 0

    def update(self, text: str, end: int, released: int, *, final: bool = False
               ) -> tuple[list[Detection], int]:
        """The detections in ``text`` that end after ``released``, and the index of
        ``text`` before which every detection is known.

        ``text`` is the end of the channel's text, which is ``end`` characters long
        (``text[0]`` is its character ``end - len(text)``); it must hold every
        character from ``released`` on (what is held back) and the context before it
        that detectors look back at. Detections are in ``text``'s offsets. With
        ``final``, ``text`` is complete for now: every detection is searched for.
        """
        start = end - len(text)
        transient: list[Detection] = []
        if final or end >= self._due:
            transient = self._run(text, start, end, final)
        out: list[Detection] = []
        for found in self._found:
            if found:
                found[:] = [d for d in found if d.end > released]
            out.extend(attrs.evolve(d, start=max(0, d.start - start), end=d.end - start)
                       for d in found)
        out.extend(transient)
        return out, max(0, min(self._settled) - start) if self._settled else len(text)

    def _run(self, text: str, start: int, end: int, final: bool) -> list[Detection]:
        """Search each detector's unsettled text; return (with ``final``) what was found
        that more text could still change, in ``text``'s offsets."""
        transient: list[Detection] = []
        size = len(text)
        for i, detector in enumerate(self.detectors):
            settled = self._settled[i]
            hold = self._holds[i]
            # Where an unsettled detection can start: never further back than the
            # detector's longest match and the two characters after it.
            at = size - self._keeps[i]
            if hold is not None:
                at = max(at, checked_hold(hold, text))
            pending = max(settled, start + at)
            if pending <= settled and not final:
                continue
            lo = max(start, settled - self._behind[i])
            shift = lo - start
            for d in self._search(text[shift:] if shift else text, detector):
                s = d.start + lo
                if s < settled:
                    continue  # found before, or decided by text no longer held
                e = d.end + lo
                if s < pending:
                    self._found[i].append(attrs.evolve(d, start=s, end=e))
                else:
                    transient.append(attrs.evolve(d, start=s - start, end=e - start))
            self._settled[i] = pending
        unsettled = end - min(self._settled, default=end)
        self._due = end if final else end + max(1, unsettled)
        return transient

