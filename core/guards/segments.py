"""Hold streamed text until an asynchronous check has seen it, one segment at a time.

``HoldBack`` serves guards that find what they look for in the text itself: it can
release everything that no match can still span, character by character. A guard that
asks a model (a judge) cannot work that way: each look costs a round trip, and a
model only recognises a name, an address or an insult in a complete phrase.
``SegmentHold`` is the buffer such a guard keeps in ``state``: it holds ``text-delta``
and ``reasoning-delta`` chunks until a segment is complete (a sentence, a line, or the
whole text of the step), awaits the guard's ``check`` on that segment, applies the
edits the check returns, and releases the chunks. Nothing of a segment reaches the
client before the check has seen all of it.

Segments
    ``until="sentence"`` ends a segment after ``.``, ``!``, ``?`` or ``…`` (closing
    quotes and brackets included) followed by whitespace, and at every line break;
    ``"line"`` at line breaks only; ``"step"`` never: the text is checked once, when
    the text ends (``step-finish``, ``finish``, ``step-retry``).
    Each check also gets the last ``context`` characters checked before the segment,
    so a value that a boundary cut (``Dr. Ada Lovelace``) is still seen whole; the
    check edits only the new segment.

Checks run while the stream goes on
    A segment's check starts when the segment is complete and runs while later chunks
    come in (several may be in flight: a judge's own concurrency limit bounds them);
    its chunks are released at the first chunk after it is done, in order. So a stream
    of many sentences costs about one judge round trip at its end, not one per
    sentence. A check that completes at once (a cached verdict) releases its segment
    in the same ``push``. If a check blocks, chunks already checked but still behind
    it may be dropped with it.

The check
    ``await check(text, start, channel)`` gets the context and the segment as one
    string (the segment is ``text[start:]``) and the channel (``"text"`` or
    ``"reasoning"``). It returns the edits to make, as ``(begin, end, replacement)``
    spans of ``text`` with ``start <= begin < end <= len(text)``: ``replacement`` a
    string, or ``None`` to drop every chunk the span touches. A check that blocks calls
    ``abort`` (the held chunks are never emitted); one that only reports returns no
    edits. An exception from the check leaves everything held and propagates
    (``release_unchecked()`` is for a guard that fails open).

Order and boundaries
    Released chunks are the original ones, or copies with the edited text, each
    channel's in arrival order; each channel is released on its own (a reasoning
    delta does not wait behind an open text sentence). Within a channel, text ids do
    not separate segments: the deltas are one text in arrival order, as the client
    concatenates it. A chunk whose text was edited away is dropped, unless it carries
    other payload keys. A chunk of any other kind (a tool call, a ``data-*`` or
    ``source`` chunk, a delta of a type not held) comes back at once, after what is
    checked by then, and cuts no segment: what is held waits for the rest of it. Only
    the end of the text (``tripwire.guards.window.ENDS``: ``step-finish``, ``finish``,
    ``step-retry``) checks what is held and releases it, then follows it; a
    ``tripwire`` or an ``error`` chunk (the run ends) discards what is held, unchecked.
    A ``step-retry`` chunk also drops the context (``new_attempt``): the retried text
    is checked on its own.

Example: a guard that asks a model whether a sentence is insulting::

    from tripwire import Processor, SegmentHold, hookimpl

    class NoInsults(Processor):
        id = "no-insults"

        def __init__(self, judge):
            self.judge = judge          # a tripwire.Judge with {"insult": bool}

        @hookimpl
        async def process_output_stream(self, part, state, abort):
            hold = state.get("hold")
            if hold is None:
                async def check(text, start, channel):
                    if (await self.judge(text[start:], context=text[:start]))["insult"]:
                        abort("Insult detected")
                    return []
                hold = state["hold"] = SegmentHold(check)
            return await hold.push(part)
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal

import attrs

from tripwire.chunks import Chunk
from tripwire.guards.window import CHANNELS, ENDS
from tripwire.guards.window import _render as render_edits

__all__ = ["SEGMENTS", "Check", "SegmentHold"]

log = logging.getLogger("tripwire")

Until = Literal["sentence", "line", "step"]
#: Where each kind of segment ends (``None``: only where the text ends).
SEGMENTS: dict[str, re.Pattern[str] | None] = {
    "sentence": re.compile(r"[.!?\u2026][\"'\u201d\u2019)\]]*\s|\n"),
    "line": re.compile(r"\n"),
    "step": None,
}
#: The most characters a segment boundary covers, bar a run of closing quotes: how far
#: before a new delta the search for one starts.
_BOUNDARY_REACH = 16

Edit = tuple[int, int, "str | None"]
Check = Callable[[str, int, str], Awaitable[Iterable[tuple[int, int, str | None]]]]


@attrs.define
class _Piece:
    """A held chunk: where its text lies in its channel's text."""

    chunk: Chunk
    channel: str
    start: int
    end: int


@attrs.define
class _Channel:
    """One channel's held text (from offset ``base`` of everything it carried), how far
    checks were asked for and how far they are done, the edits not yet applied, and the
    context for the next check (and as of the last one done)."""

    text: str = ""
    base: int = 0
    requested: int = 0
    checked: int = 0
    edits: list[Edit] = attrs.field(factory=list)
    context: str = ""
    checked_context: str = ""

    @property
    def end(self) -> int:
        return self.base + len(self.text)


@attrs.define
class _Pending:
    """A check in flight: for ``channel`` up to ``upto``, on a text of ``length``
    characters whose segment starts at ``start`` (channel offset ``start + shift``)."""

    channel: str
    upto: int
    start: int
    length: int
    shift: int
    context_after: str
    task: asyncio.Future[Iterable[tuple[int, int, str | None]]]


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a finished check's exception as seen (it is raised where it is collected;
    a stream abandoned before that must not log it as never retrieved)."""
    if not task.cancelled():
        task.exception()


class SegmentHold:
    """A buffer over a stream's text and reasoning deltas that releases each segment
    once ``check`` has seen it.

    :param check: ``async (text, start, channel) -> edits``, see the module's
        documentation.
    :param until: ``"sentence"`` (default), ``"line"`` or ``"step"``: where a segment
        ends.
    :param context: how many characters already checked come before each segment.
    :param types: the delta types to hold (default both); other deltas pass like any
        other chunk.
    """

    __slots__ = ("check", "until", "context", "types", "_boundary", "_queue", "_channels",
                 "_pending")

    def __init__(self, check: Check, *, until: Until = "sentence", context: int = 200,
                 types: Iterable[str] = tuple(CHANNELS)) -> None:
        if not callable(check):
            raise TypeError(f"SegmentHold: check must be an async callable (text, start, "
                            f"channel) -> edits, got {check!r}")
        if until not in SEGMENTS:
            raise ValueError(f"SegmentHold: until must be one of {', '.join(SEGMENTS)}, "
                             f"got {until!r}")
        if not isinstance(context, int) or isinstance(context, bool) or context < 0:
            raise ValueError(f"SegmentHold: context must be an integer >= 0, got {context!r}")
        types = tuple(types)
        unknown = [t for t in types if t not in CHANNELS]
        if unknown or not types:
            raise ValueError(f"SegmentHold: types must be a non-empty subset of "
                             f"{', '.join(CHANNELS)}; got {list(types)!r}")
        self.check = check
        self.types = frozenset(types)
        self.until = until
        self.context = context
        self._boundary = SEGMENTS[until]
        self._queue: list[_Piece] = []
        self._channels = {channel: _Channel() for channel in CHANNELS.values()}
        self._pending: deque[_Pending] = deque()

    def __repr__(self) -> str:
        return f"SegmentHold(until={self.until!r}, held={len(self._queue)} chunks)"

    @property
    def held(self) -> list[Chunk]:
        """The chunks held now, in arrival order."""
        return [piece.chunk for piece in self._queue]

    async def push(self, part: Chunk) -> list[Chunk]:
        """Take the next chunk; return the chunks to emit now, in order.

        A delta is held, and the segments it completes are checked and released. Any
        other chunk comes back last: after what is checked by then, or, if it ends the
        text (``tripwire.guards.window.ENDS``), after everything held was checked and
        released (a ``tripwire`` or ``error`` chunk after discarding it: the run ends,
        and what was not checked is not sent)."""
        channel_name = CHANNELS.get(part.type) if part.type in self.types else None
        if channel_name is None:
            kind = part.type
            if kind in ("tripwire", "error"):
                self.discard()
                return [part]
            if kind in ENDS:
                out = await self.flush()
                if kind == "step-retry":
                    self.new_attempt()
            else:  # it passes: what is checked by now goes out before it, nothing else
                await self._collect(wait=False)
                out = self._release()
            out.append(part)
            return out
        text = part.payload.get("text", "")
        if not isinstance(text, str):
            raise TypeError(f"SegmentHold: a {part.type} chunk's payload['text'] must be a "
                            f"string, got {type(text).__name__}")
        channel = self._channels[channel_name]
        start = channel.end
        channel.text += text
        self._queue.append(_Piece(part, channel_name, start, channel.end))
        if self._boundary is not None and text:
            cut = self._last_boundary(channel, start)
            if cut > channel.requested:
                self._request(channel_name, cut)
                await asyncio.sleep(0)  # a check with nothing to wait for is done now
        await self._collect(wait=False)
        return self._release()

    async def push_all(self, chunks: Iterable[Chunk], *, fail_open: bool = False,
                       owner: str = "SegmentHold") -> list[Chunk]:
        """``push`` each of ``chunks`` in order; the chunks to emit now. With
        ``fail_open``, a check that raises does not end the stream: what is held is
        released unchecked (logged as a warning naming ``owner``) and the next chunk is
        taken, as a processor with ``fail_open`` lets its input through. Without it the
        exception propagates and what is held stays held."""
        out: list[Chunk] = []
        for chunk in chunks:
            try:
                out.extend(await self.push(chunk))
            except Exception:
                if not fail_open:
                    raise
                log.warning("%s: the check failed (fail_open: the held text is released "
                            "unchecked)", owner, exc_info=True)
                out.extend(self.release_unchecked())
                if chunk.type not in self.types:
                    out.append(chunk)
        return out

    async def flush(self) -> list[Chunk]:
        """Check everything held (the text is complete) and release it."""
        for name, channel in self._channels.items():
            if channel.requested < channel.end:
                self._request(name, channel.end)
        await self._collect(wait=True)
        return self._release()

    def release_unchecked(self) -> list[Chunk]:
        """Release everything held without checking what is not checked yet (edits of
        what was checked are applied; checks in flight are cancelled): for a guard that
        fails open when its check cannot be made."""
        self._cancel()
        for channel in self._channels.values():
            channel.requested = channel.checked = channel.end
        return self._release()

    def new_attempt(self) -> None:
        """The text that follows does not continue the text so far: the step was
        discarded (a ``step-retry``; ``push`` calls this for one, once what was held is
        checked and released). The context the next check gets is dropped, so the
        next attempt is not judged as the end of the discarded one (its innocent
        ``"Lovelace"`` after a discarded ``"Ada"``), as ``HoldBack.new_attempt`` does
        for a window."""
        for channel in self._channels.values():
            channel.context = channel.checked_context = ""

    def discard(self) -> None:
        """Drop what is held and the context, and cancel the checks in flight (after a
        tripwire)."""
        self._cancel()
        self._queue.clear()
        self._channels = {channel: _Channel() for channel in CHANNELS.values()}

    # ------------------------------------------------------------------ internals

    def _last_boundary(self, channel: _Channel, start: int) -> int:
        """Where the last segment boundary that a delta starting at ``start`` may have
        completed ends (channel offsets), or 0."""
        assert self._boundary is not None
        begin = max(channel.requested, start - _BOUNDARY_REACH) - channel.base
        cut = 0
        for m in self._boundary.finditer(channel.text, begin):
            cut = m.end()
        return cut + channel.base if cut else 0

    def _request(self, name: str, upto: int) -> None:
        """Start the check of ``name``'s text up to ``upto`` (checks run concurrently;
        their edits are applied in the order they were asked for)."""
        channel = self._channels[name]
        segment = channel.text[channel.requested - channel.base:upto - channel.base]
        context = channel.context
        text = context + segment
        task = asyncio.ensure_future(self.check(text, len(context), name))
        task.add_done_callback(_retrieve)
        after = text[-self.context:] if self.context else ""
        self._pending.append(_Pending(name, upto, len(context), len(text),
                                      channel.requested - len(context), after, task))
        channel.requested = upto
        channel.context = after

    async def _collect(self, *, wait: bool) -> None:
        """Apply the checks done, in order (with ``wait``, all of them). A check that
        raised cancels the others, and what they were to check is asked for again next
        time; the exception propagates."""
        while self._pending and (wait or self._pending[0].task.done()):
            pending = self._pending[0]
            try:
                edits = self._edits(pending, await pending.task)
            except BaseException:
                self._cancel()
                for channel in self._channels.values():
                    channel.requested = channel.checked
                    channel.context = channel.checked_context
                raise
            self._pending.popleft()
            channel = self._channels[pending.channel]
            channel.edits.extend(edits)
            channel.checked = pending.upto
            channel.checked_context = pending.context_after

    def _edits(self, pending: _Pending, result: Iterable[tuple[int, int, str | None]]
               ) -> list[Edit]:
        """A check's result, validated, as edits in channel offsets, in order."""
        edits: list[Edit] = []
        for edit in result:
            try:
                begin, end, replacement = edit
            except (TypeError, ValueError):
                raise TypeError(f"SegmentHold: check must return (begin, end, replacement) "
                                f"tuples, got {edit!r}") from None
            if not (isinstance(begin, int) and isinstance(end, int)
                    and pending.start <= begin < end <= pending.length):
                raise ValueError(
                    f"SegmentHold: check returned the span ({begin!r}, {end!r}); a span must "
                    f"satisfy start = {pending.start} <= begin < end <= len(text) = "
                    f"{pending.length}")
            if replacement is not None and not isinstance(replacement, str):
                raise TypeError(f"SegmentHold: a replacement must be a string or None, got "
                                f"{replacement!r}")
            edits.append((begin + pending.shift, end + pending.shift, replacement))
        return sorted(edits, key=lambda e: (e[0], e[1]))

    def _cancel(self) -> None:
        for pending in self._pending:
            pending.task.cancel()
        self._pending.clear()

    def _release(self) -> list[Chunk]:
        """The held chunks whose channel is checked as far as their end, in arrival
        order (each channel's own chunks stay in order: what is checked of a channel is
        a prefix of it)."""
        out: list[Chunk] = []
        kept: list[_Piece] = []
        for piece in self._queue:
            channel = self._channels[piece.channel]
            if piece.end > channel.checked:
                kept.append(piece)
                continue
            chunk = self._render(piece, channel)
            if chunk is not None:
                out.append(chunk)
        if len(kept) < len(self._queue):
            self._queue = kept
            self._trim()
        return out

    def _render(self, piece: _Piece, channel: _Channel) -> Chunk | None:
        touching = [e for e in channel.edits if e[0] < piece.end and e[1] > piece.start]
        if not touching:
            return piece.chunk
        if any(replacement is None for _, _, replacement in touching):
            return None
        base = channel.base
        text = render_edits(channel.text, piece.start - base, piece.end - base,
                            [(s - base, e - base, r) for s, e, r in touching])
        if text == piece.chunk.payload.get("text"):
            return piece.chunk
        if not text and not any(k not in ("id", "text") for k in piece.chunk.payload):
            return None
        return piece.chunk.evolve(payload={**piece.chunk.payload, "text": text})

    def _trim(self) -> None:
        """Forget the text of each channel that no held chunk needs any more."""
        for name, channel in self._channels.items():
            keep = next((p.start for p in self._queue if p.channel == name), channel.end)
            if keep > channel.base:
                channel.text = channel.text[keep - channel.base:]
                channel.base = keep
                channel.edits = [e for e in channel.edits if e[1] > keep]
