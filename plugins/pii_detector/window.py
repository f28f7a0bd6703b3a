"""The stream's hold-back window (``StreamWindow``): text and reasoning deltas held
back until no value can still be cut across the chunks, with a search that looks
again only at the end of the window for detectors that allow it. ``pii-detector``
finds values through it, ``tokenize`` restores placeholders through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

import attrs

from tripwire.chunks import Chunk
from tripwire.guards.verdicts import Detection, Detector
from tripwire.guards.window import ENDS, HoldBack, Match, joint_hold_from

#: ``find(text)``: the detections in a text.
Search = Callable[[str], list[Detection]]

#: The delta chunk types a hold-back window holds, by HoldBack channel.
DELTA_CHANNEL = {"text-delta": "text", "reasoning-delta": "reasoning"}


class Hit(NamedTuple):
    """A detection in the stream, as HoldBack carries it until it is released:
    ``tail`` is how far from the end of the searched text it starts (its place in
    the channel is known once it is released), ``released`` how many of its
    characters had already gone out (it began in the previous step's text: only the
    rest can be replaced)."""

    detection: Detection
    tail: int
    released: int


class StreamWindow:
    """One call's hold-back window and where each channel of the stream is.

    Searching the whole window again for every chunk costs the window's length each
    time (4k characters with ``api-key``). With ``local`` detectors (the built-in ones:
    a detection depends on at most ``max_length`` characters around it) a chunk costs
    about ``3 * max_length`` per detector instead: a detection with ``max_length``
    characters after it cannot change any more, so it is kept (in the channel's
    offsets) and only the end of the window is searched again. The end of a step ends
    that: the text it releases may hold the start of a value the next step goes on
    with, so the channel is searched whole for twice the window.
    ``raw(text, detectors)`` finds and filters, ``finish(text, found)`` merges.
    """

    __slots__ = ("hold", "pushed", "sent", "_marks", "_find", "_local", "_others", "_raw",
                 "_finish", "_known", "_whole_until", "_ending")

    def __init__(
        self, max_length: int, find: Search, replace: Callable[[Match], str] | None, *,
        local: Iterable[Detector] = (), others: Iterable[Detector] = (),
        raw: Callable[[str, list[Detector]], list[Detection]] | None = None,
        finish: Callable[[str, list[Detection]], list[Detection]] | None = None,
    ) -> None:
        self.hold = HoldBack(max_length, self._hits, replace, hold_from=joint_hold_from(
            (d.max_length, getattr(d, "hold_from", None)) for d in [*local, *others]))
        #: characters the model sent on each channel (detection offsets count these)
        self.pushed = {"text": 0, "reasoning": 0}
        #: characters released on each channel (``filter``: which chunks a match spans)
        self.sent = {"text": 0, "reasoning": 0}
        self._marks = (dict(self.pushed), dict(self.sent))
        self._find = find
        self._local, self._others = list(local), list(others)
        self._raw, self._finish = raw, finish
        # Per channel and local detector: up to where (a channel offset) its detections
        # are known, and those of them still held, as (start, end, detection).
        self._known: dict[str, dict[int, tuple[int, list[tuple[int, int, Detection]]]]] = {
            "text": {}, "reasoning": {}}
        self._whole_until = {"text": 0, "reasoning": 0}
        #: Whether the chunk being pushed ends the text (the held text is complete).
        self._ending = False

    def push(self, part: Chunk) -> tuple[list[Chunk], list[Match]]:
        kind = part.type
        channel = DELTA_CHANNEL.get(kind)
        if channel is not None and isinstance(part.payload.get("text"), str):
            self.pushed[channel] += len(part.payload["text"])
        elif kind == "step-start":
            self._marks = (dict(self.pushed), dict(self.sent))
        elif kind == "step-retry":
            # The retried attempt reaches neither the client nor the result: drop what
            # is held of it and count from the step's start again.
            self.hold.discard()
            self.pushed, self.sent = dict(self._marks[0]), dict(self._marks[1])
            self._known = {"text": {}, "reasoning": {}}
        self._ending = channel is None and kind in ENDS
        if self._ending:
            for name in ("text", "reasoning"):
                if self.hold.holds(name):
                    # The end of a step releases the held text whole: the next step's
                    # text may go on with a value it started, so the channel is
                    # searched whole for twice the window.
                    self._known[name] = {}
                    self._whole_until[name] = self.pushed[name] + 2 * self.hold.max_match_length
        return self.hold.push(part)

    def _hits(self, text: str) -> list[tuple[int, int, Hit]]:
        base = len(text) - len(self.hold.held)  # the held text ends ``text``
        channel = self.hold.channel
        if (not self._ending and self._local
                and self.pushed[channel] >= self._whole_until[channel]):
            found = self._search_end(text, base, channel)
        else:
            found = self._find(text)
        return [(d.start, d.end, Hit(d, len(text) - d.start, max(0, base - d.start)))
                for d in found]

    def _search_end(self, text: str, base: int, channel: str) -> list[Detection]:
        assert self._raw is not None and self._finish is not None
        end = self.pushed[channel]
        held_at = end - (len(text) - base)  # the channel offset of ``text[base]``
        known = self._known[channel]
        found = self._raw(text, self._others)
        for i, detector in enumerate(self._local):
            upto, kept = known.get(i, (held_at, []))
            kept = [k for k in kept if k[0] >= held_at]  # the released ones are done
            found.extend(attrs.evolve(d, start=s - held_at + base, end=e - held_at + base)
                         for s, e, d in kept)
            # New detections end after ``upto``: search from where one could start,
            # with as much before it again as the detector may look at.
            t0 = max(0, base + upto - 2 * detector.max_length - held_at)
            done = max(upto, end - detector.max_length)
            for d in self._raw(text[t0:], [detector]):
                s, e = d.start + t0, d.end + t0
                if held_at + e - base > upto:
                    found.append(attrs.evolve(d, start=s, end=e))
                    if held_at + e - base <= done and s >= base:
                        kept.append((held_at + s - base, held_at + e - base, d))
            known[i] = (done, kept)
        return self._finish(text, found)

    def locate(self, match: Match) -> Detection:
        """A released match as a detection with its offsets in the channel's text."""
        hit: Hit = match.rule
        d = hit.detection
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
