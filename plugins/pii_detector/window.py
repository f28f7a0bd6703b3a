"""The stream's hold-back window (``StreamWindow``): text and reasoning deltas held
back until no value can still be cut across the chunks, with a search that looks
again only at the end of the window for detectors that allow it. ``pii-detector``
finds values through it, ``tokenize`` restores placeholders through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

import attrs

from tripwire.chunks import Chunk
from tripwire.guards.incremental import Incremental
from tripwire.guards.verdicts import Detection, Detector
from tripwire.guards.window import ENDS, HoldBack, Match

#: ``find(text)``: the detections in a text.
Search = Callable[[str], list[Detection]]

#: The delta chunk types a hold-back window holds, by HoldBack channel.
DELTA_CHANNEL = {"text-delta": "text", "reasoning-delta": "reasoning"}


class Hit(NamedTuple):
    """A detection in the stream, as HoldBack carries it until it is released:
    ``tail`` is how far from the end of the searched text it starts (its place in
    the channel is known once it is released; ``None``: the detection is in the
    channel's offsets already, as a search's are), ``released`` how many of its
    characters had already gone out (it began in the previous step's text: only the
    rest can be replaced)."""

    detection: Detection
    tail: int | None
    released: int


class StreamWindow:
    """One call's hold-back window and where each channel of the stream is.

    With ``detectors``, each channel's text is searched through a
    ``tripwire.guards.incremental.Incremental``: each part once per detector (with the
    few characters before it that a detector looks back at), what a detector has
    settled kept, and text released as soon as every detector has settled it;
    ``raw(text, detectors)`` finds and filters (the types wanted, a threshold), and
    overlapping detections are merged (the longest wins); a delta that comes before the
    channel's next search is due is only buffered (``HoldBack.hold``): until that
    search, nothing more is found or settled, so nothing more can be released. Without
    them, ``find(text)`` searches all the window holds for every chunk (the
    tokenizer's placeholders).
    """

    __slots__ = ("hold", "pushed", "sent", "_marks", "_find", "_searches", "_boundary",
                 "_ending", "_last")

    def __init__(
        self, max_length: int, find: Search, replace: Callable[[Match], str] | None, *,
        detectors: Iterable[Detector] = (),
        raw: Callable[[str, list[Detector], int], list[Detection]] | None = None,
    ) -> None:
        detectors = list(detectors)
        #: characters the model sent on each channel (detection offsets count these)
        self.pushed = {"text": 0, "reasoning": 0}
        #: characters released on each channel (``filter``: which chunks a match spans)
        self.sent = {"text": 0, "reasoning": 0}
        self._marks = (dict(self.pushed), dict(self.sent))
        self._find = find
        self._searches: dict[str, Incremental] = {}
        if detectors:
            assert raw is not None
            self._searches = {
                channel: Incremental(detectors, lambda text, d, since: raw(text, [d], since))
                for channel in ("text", "reasoning")}
            # What is held and kept: a match and the two characters after it that may
            # rule it out, and what a detector looks back at before it.
            max_length = 1 + self._searches["text"].span
        #: The last search's boundary (``hold_from`` of the text it searched).
        self._boundary: tuple[str, int] = ("", 0)
        #: Whether the chunk being pushed ends the text (the held text is complete).
        self._ending = False
        #: The last hits given and what they were made of (the search's detections,
        #: where the text starts in the channel, where the held text starts): a delta
        #: that brings no search gets the same tuple, which ``HoldBack`` has grouped.
        self._last: tuple[object, int, int, tuple[tuple[int, int, Hit], ...]] = (None, 0, 0, ())
        self.hold = HoldBack(max_length, self._hits, replace,
                             hold_from=self._hold_from if detectors else None)

    def push(self, part: Chunk) -> tuple[list[Chunk], list[Match]]:
        kind = part.type
        channel = DELTA_CHANNEL.get(kind)
        if channel is not None and isinstance(part.payload.get("text"), str):
            end = self.pushed[channel] = self.pushed[channel] + len(part.payload["text"])
            search = self._searches.get(channel)
            if search is not None and end < search.due and self.hold.holds(channel):
                # No search is due: what is found and settled stays as the last delta
                # left it, and so does what can be released (nothing more).
                self._ending = False
                self.hold.hold(part)
                return [], []
        elif kind == "step-start":
            self._marks = (dict(self.pushed), dict(self.sent))
        elif kind == "step-retry":
            # The retried attempt reaches neither the client nor the result: drop what
            # is held of it and count from the step's start again.
            self.hold.discard()
            self.pushed, self.sent = dict(self._marks[0]), dict(self._marks[1])
            for search in self._searches.values():
                search.reset()
        self._ending = channel is None and kind in ENDS
        return self.hold.push(part)

    def _hits(self, text: str) -> Sequence[tuple[int, int, Hit]]:
        channel = self.hold.channel
        search = self._searches.get(channel)
        end = self.pushed[channel]
        released = end - self.hold.held_length  # the held text ends ``text``
        start = end - len(text)  # (``text[0]``'s place in the channel)
        if search is None:
            return [(d.start, d.end, Hit(d, len(text) - d.start,
                                         max(0, released - start - d.start)))
                    for d in self._find(text)]
        found, boundary = search.update(text, end, released, final=self._ending)
        self._boundary = (text, max(0, boundary - start))
        last = self._last
        if found is last[0] and start == last[1] and released == last[2]:
            return last[3]
        hits = tuple((d.start - start, d.end - start,
                      Hit(d, None, max(0, released - d.start))) for d in found)
        self._last = (found, start, released, hits)
        return hits

    def _hold_from(self, text: str) -> int:
        """``HoldBack``'s ``hold_from``: the boundary the search of ``text`` found."""
        searched, boundary = self._boundary
        return boundary if searched is text else 0

    def locate(self, match: Match) -> Detection:
        """A released match as a detection with its offsets in the channel's text."""
        hit: Hit = match.rule
        d = hit.detection
        if hit.tail is None:
            return d
        start = self.pushed[match.channel] - hit.tail
        return attrs.evolve(d, start=start, end=start + d.end - d.start)

    def drop_matched(self, chunks: list[Chunk], located: dict[str, list[Detection]]
                     ) -> list[Chunk]:
        """``filter``: the released chunks without the deltas a match touches (the
        window kept their text, so each one's place in its channel is known)."""
        out = []
        for c in chunks:
            channel = DELTA_CHANNEL.get(c.type)
            if channel is None:
                out.append(c)
                continue
            start = self.sent[channel]
            end = self.sent[channel] = start + len(c.payload["text"])
            if not any(d.start < end and d.end > start for d in located[channel]):
                out.append(c)
        return out
