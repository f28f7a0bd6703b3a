"""system-prompt-scrubber's stream state: one ``Stream`` per call, in its ``state``.

Text and reasoning deltas go through a ``tripwire.HoldBack`` window per channel (within a
channel, text ids do not separate a leak), and, with the judge, a
``tripwire.SegmentHold`` that releases them once the judge has seen them.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs

from tripwire.chunks import Chunk
from tripwire.guards.segments import SegmentHold
from tripwire.guards.verdicts import Detection
from tripwire.guards.window import CHANNELS, HoldBack, Match
from tripwire.messages import MessageList
from tripwire.plugins.system_prompt_scrubber.leaks import Index, Scan, find_leaks

if TYPE_CHECKING:
    from tripwire.plugins.system_prompt_scrubber import SystemPromptScrubber

__all__ = ["Found", "Stream"]


@attrs.frozen
class Found:
    """A leak's label in the stream (``HoldBack``'s ``rule``): its types, its offsets in
    the whole streamed text, and how many of its characters were not released yet (what
    a mask covers)."""

    types: tuple[str, ...]
    start: int
    end: int
    unreleased: int
    detector: str


class Stream:
    """One call's stream state: the hold-back window over text and reasoning deltas,
    and where in each channel's text it is, so a leak gets offsets into the channel's
    whole streamed text."""

    __slots__ = ("guard", "hold", "index", "scans", "pushed", "pending", "warned", "gate",
                 "state", "message_list", "abort", "writer")

    def __init__(self, guard: SystemPromptScrubber) -> None:
        self.guard = guard
        replace = None if guard.strategy in ("block", "warn") else self._replace
        self.hold = HoldBack(guard.window, self.find, replace)
        self.index: Index | None = None
        #: Per channel: what ``find_leaks`` scanned last, and characters pushed so far.
        self.scans = {"text": Scan(), "reasoning": Scan()}
        self.pushed = {"text": 0, "reasoning": 0}
        #: Detections released and not reported yet, by verdict channel.
        self.pending: dict[str, list[Detection]] = {}
        #: What warn reported, so the final check does not report it again.
        self.warned: Counter[tuple[str, ...]] = Counter()
        #: With the judge: released text waits for it a segment at a time. The call's
        #: state, message list, abort and writer are those of the last chunk.
        self.gate: SegmentHold | None = None
        if (guard.judge is not None and guard.judge_stream != "off"
                and guard.strategy != "warn"):
            async def check(text: str, start: int, channel: str
                            ) -> list[tuple[int, int, str | None]]:
                return await guard._judge_segment(self, text, start, channel)

            self.gate = SegmentHold(check, until=guard.judge_stream)
        self.state: dict[str, Any] = {}
        self.message_list: MessageList | None = None
        self.abort: Any = None
        self.writer: Any = None

    def push(self, part: Chunk) -> tuple[list[Chunk], list[Match]]:
        """``part`` through the window (any chunk: one that is not a delta comes back
        last, after what it released if it ends the text)."""
        channel = CHANNELS.get(part.type)
        if channel is not None:
            self.pushed[channel] += len(part.payload.get("text", ""))
        return self.hold.push(part)

    def discard(self) -> None:
        """Drop what is held (a tripwire ended the run)."""
        self.hold.discard()
        self.pending.clear()
        if self.gate is not None:
            self.gate.discard()

    def _replace(self, match: Match) -> str:
        found: Found = match.rule
        return self.guard._replacement(found.unreleased)

    def find(self, text: str) -> list[tuple[int, int, Found]]:
        """The leaks in the released context followed by the held text of the channel
        being scanned."""
        channel = self.hold.channel
        held = len(self.hold.held)
        base = len(text) - held                       # where the held text starts in ``text``
        origin = self.pushed[channel] - held - base   # ... and ``text`` in the whole channel
        return [(s.start, s.end, Found(s.types, max(0, origin + s.start), origin + s.end,
                                        s.end - max(s.start, base), s.detector))
                for s in find_leaks(self.index, self.guard._patterns, text,
                                    max_span=self.guard.window, scan=self.scans[channel])]
