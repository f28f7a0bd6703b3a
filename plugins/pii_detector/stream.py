"""``pii-detector``'s side of the stream (every strategy but ``tokenize``, which
restores placeholders through its ``Tokenizer``): one ``OutputStream`` per call.

Text and reasoning deltas go through the deterministic hold-back window
(``StreamWindow``) and, with the judge tier, a ``tripwire.SegmentHold`` that releases
them once the judge has seen them. A tool call's arguments, a failed tool's error and
the parsed object are checked whole before they go on, and so is every string of any
other chunk that carries content (``data-*``, ``source``, a type the framework does not
define: ``tripwire.chunks.carries_other_content``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk, carries_other_content, extra_keys
from tripwire.guards.segments import SegmentHold
from tripwire.guards.verdicts import Detection
from tripwire.guards.window import Match
from tripwire.messages import MessageList
from tripwire.plugins.pii_detector.walk import walk
from tripwire.plugins.pii_detector.window import DELTA_CHANNEL, Hit, StreamWindow

if TYPE_CHECKING:
    from tripwire.plugins.pii_detector import PIIDetector

#: The phases that check the parsed object (``result.object``, the ``object-result``
#: chunk): ``result``, and ``step``: the object is parsed from the final step's text as
#: it streamed, not from the stored step that phase checks (and changes).
OBJECT_PHASES = frozenset({"step", "result"})

#: No detection on either channel (``drop_matched``'s ``located`` for a release that found none).
_NOTHING_LOCATED: dict[str, list[Detection]] = {"text": [], "reasoning": []}

#: The stream's HoldBack channels, as verdicts name them.
_STREAM_CHANNEL = {"text": "output", "reasoning": "reasoning"}


class OutputStream:
    """One call's stream through a ``PIIDetector`` (``guard``): what its
    ``process_output_stream`` hands each chunk to.

    Made at the call's first chunk and kept in the call's ``state``. ``abort`` and
    ``writer`` are the current chunk's: the judge's check, which the ``SegmentHold``
    calls, acts with them.
    """

    __slots__ = ("abort", "writer", "_guard", "_state", "_window", "_gate", "_sent", "_found")

    def __init__(self, guard: PIIDetector, state: dict[str, Any]) -> None:
        self._guard = guard
        self._state = state
        self.abort: Any = None
        self.writer: Any = None
        #: The deterministic hold-back window (``output`` phase only).
        self._window: StreamWindow | None = None
        #: The judge's gate (with the judge tier, for ``block``, ``filter`` and
        #: ``redact``; ``warn`` and ``tokenize`` change nothing the client sees, so
        #: they do not wait).
        self._gate: SegmentHold | None = None
        #: Without the judge tier: the text the window released on each channel in
        #: this step, and whether it found a value there (``_settle_step``).
        self._sent: dict[str, list[str]] | None = None
        self._found = False
        if "output" not in guard.phases:
            return
        replace = self._replacement if guard.strategy == "redact" else None
        scan = guard._scan
        self._window = StreamWindow(guard.max_length, scan.find, replace,
                                    detectors=scan.detectors, raw=scan.raw)
        until = guard.judge_stream
        if (scan.tier is not None and until != "off"
                and guard.strategy in ("block", "filter", "redact")):
            self._gate = SegmentHold(self._judge_segment, until=until)
        if scan.tier is None:
            self._sent = {"text": [], "reasoning": []}

    async def push(self, part: Chunk, abort: Any, writer: Any, message_list: MessageList
                   ) -> Chunk | list[Chunk] | None:
        """``part`` checked: the chunks to emit now.

        Text and reasoning go through the hold-back window: values in the released
        text redacted (``redact``), dropped with their chunks (``filter``), or blocked
        / reported; then, with the judge's gate, a segment (``judge_stream``) at a
        time, once the judge has seen it, with what it found redacted, dropped or
        blocked. A tool call (``output``), a failed tool's error (``tool-results``)
        and the parsed object (``step``, ``result``) are checked once the window lets them out.
        """
        guard = self._guard
        kind = part.type
        if part.is_data:
            # Checked whole, not through the window or the judge's gate (it releases
            # none of the held text).
            if "output" not in guard.phases:
                return part
            return await self._payload(part, None, "output", abort, writer)
        if "output" in guard.phases:
            # A provider's provider_metadata, a key a plugin added: every string
            # (``filter``: the key's value is dropped, the chunk kept).
            for key in extra_keys(part):
                part = await self._payload(part, key, "output", abort, writer,
                                           filtered=_nothing) or part
        window = self._window
        if window is None:
            chunks = [part]
        else:
            chunks, matches = window.push(part)
            if matches:
                located: dict[str, list[Detection]] = {"text": [], "reasoning": []}
                for m in matches:
                    located[m.channel].append(window.locate(m))
                for channel, detections in located.items():
                    await guard._act(_STREAM_CHANNEL[channel], detections, abort, writer,
                                     self._state)
                if guard.strategy == "filter":
                    chunks = window.drop_matched(chunks, located)
            elif guard.strategy == "filter" and chunks:
                chunks = window.drop_matched(chunks, _NOTHING_LOCATED)
            # (a delta held back whole, nothing found: nothing to note)
            if self._sent is not None and (chunks or matches or kind not in DELTA_CHANNEL):
                self._note_sent(chunks, bool(matches), kind)
            if self._gate is not None:
                self.abort, self.writer = abort, writer
                chunks = await self._gate.push_all(chunks, fail_open=guard.fail_open,
                                                   owner=guard.id)
        if not chunks or chunks[-1] is not part:
            return chunks
        if kind == "tool-call" and "output" in guard.phases:
            last = await self._tool_call(part, abort, writer)
        elif kind == "tool-error" and "tool-results" in guard.phases:
            last = await self._tool_error(part, message_list, abort, writer)
        elif kind == "object-result" and guard.phases & OBJECT_PHASES:
            last = await self._payload(part, "object", "result", abort, writer)
        elif carries_other_content(kind) and "output" in guard.phases:
            last = await self._payload(part, None, "output", abort, writer)
        else:
            return chunks if len(chunks) > 1 else part
        return [*chunks[:-1], last] if last is not None else chunks[:-1]

    def _note_sent(self, chunks: list[Chunk], found: bool, kind: str) -> None:
        """Keep the text released on each channel in this step; at its end, that text
        is what the step stores: it counts as checked (``Scanner.mark_clean``), as the
        text a check redacts does, so the step's and the result's phases do not search
        it again. The window found in it what a search of it whole finds (a stream
        cut anywhere finds what the whole text has); with ``redact`` it holds the
        values replaced; other strategies count it only when nothing was found."""
        sent = self._sent
        assert sent is not None
        self._found = self._found or found
        for c in chunks:
            channel = DELTA_CHANNEL.get(c.type)
            if channel is not None:
                sent[channel].append(c.payload["text"])
        if kind == "step-start" or kind == "step-retry":
            self._found = False
            for pieces in sent.values():
                pieces.clear()
        elif kind == "step-finish":
            if not self._found or self._guard.strategy == "redact":
                for pieces in sent.values():
                    if pieces:
                        self._guard._scan.mark_clean("".join(pieces), self._state)
            self._found = False
            for pieces in sent.values():
                pieces.clear()

    async def _judge_segment(self, text: str, start: int, channel: str
                             ) -> list[tuple[int, int, str | None]]:
        """The gate's check: the judge's findings in ``text[start:]`` acted on, as
        ``SegmentHold`` edits."""
        guard = self._guard
        tier = guard._scan.tier
        assert tier is not None
        found = await tier.judge_segment(text, start)
        if not found:
            return []
        await guard._act(_STREAM_CHANNEL[channel], [d for d, _ in found], self.abort,
                         self.writer, self._state)
        if guard.strategy == "filter":
            return [(d.start, d.end, None) for d, _ in found]
        if guard.strategy != "redact":
            return []
        return [(d.start, d.end, self._cut_mask(len(d.value or "")) if cut
                 else guard._redacted(d.type, d.value or "")) for d, cut in found]

    def _cut_mask(self, length: int) -> str:
        """The mask of the rest of a value whose start was already sent: whole, so
        what was sent and the mask together reveal nothing more."""
        return "*" * (length if self._guard.preserve_format else min(length, 8))

    def _replacement(self, match: Match) -> str:
        """The window's replacement of a value it releases (``redact``)."""
        hit: Hit = match.rule
        if hit.released and self._guard.redaction_method == "mask":
            # The end of a step cut this value and its start is already out.
            return self._cut_mask(len(match.text) - hit.released)
        return self._guard._redacted(hit.detection.type, match.text)

    async def _tool_call(self, part: Chunk, abort: Any, writer: Any) -> Chunk | None:
        """A tool call's arguments, before the tool runs: it runs with what this returns
        (``filter``: the call is dropped and the tool does not run)."""
        guard, scan, state = self._guard, self._guard._scan, self._state
        args, raw_args = part.payload.get("args"), part.payload.get("raw_args")
        await scan.judge_value(raw_args if isinstance(raw_args, str) else args, state,
                               args, raw_args)
        found: list[Detection] = []
        args = walk(part.payload.get("args"), lambda s: scan.check(s, found, state))
        raw_found: list[Detection] = []
        raw = walk(part.payload.get("raw_args"), lambda s: scan.check(s, raw_found, state))
        found = found or raw_found
        if not found:
            return part
        await guard._act("tool-call", found, abort, writer, state)
        if guard.strategy == "filter":
            return None
        if guard.strategy != "redact":
            return part
        payload = {**part.payload, "args": args}
        if "raw_args" in part.payload:
            payload["raw_args"] = raw
        return part.evolve(payload=payload)

    async def _tool_error(self, part: Chunk, message_list: MessageList, abort: Any,
                          writer: Any) -> Chunk | None:
        """A failed tool's error (``process_tool_result`` does not run for it): the
        client's chunk and the stored result the model sees next."""
        new = await self._payload(part, "error", "tool-result", abort, writer,
                                  filtered=self._guard._withheld)
        if new is not part and new is not None:
            message_list.store_tool_result(part.payload.get("tool_call_id", ""),
                                           new.payload["error"])
        return new

    async def _payload(
        self, part: Chunk, key: str | None, channel: str, abort: Any, writer: Any,
        filtered: Callable[[list[Detection]], Any] | None = None,
    ) -> Chunk | None:
        """``part`` with ``payload[key]`` (``None``: the whole payload) checked:
        redacted, or (``filter``) dropped or replaced by ``filtered(detections)``."""
        guard, scan, state = self._guard, self._guard._scan, self._state
        checked = part.payload if key is None else part.payload.get(key)
        await scan.judge_value(checked, state)
        found: list[Detection] = []
        value = walk(checked, lambda s: scan.check(s, found, state))
        if not found:
            return part
        await guard._act(channel, found, abort, writer, state)
        if guard.strategy == "filter":
            if filtered is None:
                return None
            value = filtered(found)
        elif guard.strategy != "redact":
            return part
        return part.evolve(payload=value if key is None else {**part.payload, key: value})


def _nothing(found: list[Detection]) -> None:
    """What ``filter`` leaves of a value it drops from a chunk it keeps."""
    return None
