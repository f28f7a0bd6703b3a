"""Hold streamed text back until no match can still span it.

A stream guard that looks for words or patterns in ``text-delta`` chunks cannot check
each chunk alone: ``"pass"`` and ``"word"`` arrive as two deltas (or two text ids),
and each is harmless. ``HoldBack`` is the buffer such a guard keeps in ``state``: it
takes every chunk the guard's ``process_output_stream`` sees, finds matches with the
guard's own function, and gives back the chunks that are safe to emit, with the
matches replaced. keyword-guard (contrib/) is built on it.

How it decides what is safe
    The guard declares ``max_match_length``: the most characters one match can cover
    (exact for keywords, an upper bound for regular expressions). A match that is not
    complete yet needs at least one character still to come, so it can only start in
    the last ``max_match_length - 1`` characters seen. Chunks are held whole: a chunk
    is released once it ends before those characters and no complete match runs past
    its end; matches in it are replaced first. A guard that knows more about where an
    unfinished match can start passes ``hold_from``: ``hold_from(text)`` is the
    earliest index of ``text`` where a match that more text could still complete (or
    change) can start, and the text before it is released sooner. For matches that
    never hold white space (addresses, URLs, tokens), that is ``run_start``: the start
    of the last word, so a stream is held back one word at a time, not
    ``max_match_length`` characters.

Channels and text ids
    ``text-delta`` and ``reasoning-delta`` are two channels, each with its own window:
    a match never spans text and reasoning. Within a channel, text ids do not separate
    matches: the deltas are matched as one text in arrival order, which is the text
    the client concatenates, ``result.text`` and the stored message hold. So ``"pass"``
    ending id ``t1`` and ``"word"`` starting id ``t2`` (or ids interleaved) are one
    match.

What is released, and when
    Released chunks are the original ones (same id, same boundaries, same payload),
    new ones with the replaced text where a match was, each channel's in its original
    order; a chunk whose text was all replaced away is dropped (unless it carries
    other payload keys, such as ``provider_metadata``). A chunk of any other kind (a
    delta of the other channel, a tool call, a ``data-*``, ``source`` or
    ``step-start`` chunk) releases nothing: it comes back at once, ahead of what is
    still held, so however text, reasoning and other chunks interleave, the text that
    goes out is the text sent whole with its matches replaced. Only the end of the
    text (``ENDS``: ``step-finish``, ``finish``, ``step-retry``, ``error``) releases
    what is held, then follows it; a ``tripwire`` chunk discards it. The last
    ``max_match_length - 1`` characters released on each channel stay as context: a
    match that the end of a step cut in two (the next step's text goes on with it) is
    still found, and its part not released yet is replaced. A ``step-retry`` drops the
    context (``new_attempt``).

Example: a guard that masks card-like numbers in text and reasoning::

    import re
    from tripwire import HoldBack, Processor, hookimpl

    CARD = re.compile(r"\\d{4}-\\d{4}-\\d{4}-\\d{4}")

    class CardMask(Processor):
        id = "card-mask"

        @hookimpl
        def process_output_stream(self, part, state):
            hold = state.get("hold")
            if hold is None:
                hold = state["hold"] = HoldBack(
                    19, lambda text: ((m.start(), m.end(), "card") for m in CARD.finditer(text)),
                    replace="[CARD]",
                )
            chunks, matches = hold.push(part)
            return chunks          # a list: released text, and ``part`` if it is not text

Keep one ``HoldBack`` per call in ``state``, never on the processor: one processor
instance serves concurrent calls. A processor that blocks instead of masking passes
``replace=None`` and aborts when ``matches`` is not empty: the chunks holding the
match are then never emitted.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import attrs

from tripwire.chunks import Chunk
from tripwire.guards.window_start import (
    checked_hold,
    in_one_word,
    joint_hold_from,
    run_start,
    trailing_run,
)

__all__ = ["CHANNELS", "ENDS", "HoldBack", "Match", "Released", "in_one_word",
           "joint_hold_from", "replace_all", "run_start", "trailing_run"]

#: The chunk types ``HoldBack`` holds, and the channel each belongs to.
CHANNELS: dict[str, str] = {"text-delta": "text", "reasoning-delta": "reasoning"}

#: The chunks after which a step's text cannot go on: they release what is held (a
#: ``tripwire`` discards it). Any other chunk (a delta of the other channel, a tool call,
#: a ``data-*``, ``source`` or ``step-start`` chunk) passes without releasing anything.
ENDS = frozenset({"step-finish", "finish", "step-retry", "error", "tripwire"})

Finder = Callable[[str], Iterable[tuple[int, int, Any]]]
_EMPTY = (list, tuple)


@attrs.frozen
class Match:
    """One match that was released (replaced, or kept when ``replace`` is None).

    ``rule`` is what the finder labelled it with (a name or an index: report this,
    not ``text``); ``text`` the matched characters (they may include already released
    context); ``channel`` ``"text"`` or ``"reasoning"``.
    """

    rule: Any
    text: str
    channel: str


class Released(NamedTuple):
    """What ``HoldBack.push`` / ``flush`` give back: the chunks to emit now, in order,
    and the matches in them (each match is reported once)."""

    chunks: list[Chunk]
    matches: list[Match]


# ``Released(chunks, matches)`` without the Python-level ``__new__`` of a named tuple
# (the per-chunk path makes one for every chunk).
_new = tuple.__new__


class _Window:
    """One channel's window: its held chunks and the text ``find`` sees.

    ``buffer`` is the channel's context (``base`` characters: the last ones released)
    then the held text. ``ends``: where each held chunk ends, counted in the held text
    since the first of them arrived (so they need no update when chunks go out);
    ``held_at``: where the held text starts, counted the same way. ``since``: when
    the held text began (an end releases the channels in that order).
    """

    __slots__ = ("name", "chunks", "buffer", "base", "held_at", "ends", "since")

    def __init__(self, name: str) -> None:
        self.name = name
        self.chunks: list[Chunk] = []
        self.buffer = ""
        self.base = 0
        self.held_at = 0
        self.ends: list[int] = []
        self.since = 0


class HoldBack:
    """A hold-back window over ``text-delta`` and ``reasoning-delta`` chunks, one per
    channel.

    :param max_match_length: the most characters one match can cover (>= 1); the
        last ``max_match_length - 1`` characters of a channel are held.
    :param find: ``find(text)`` returns the matches in ``text`` as ``(start, end,
        rule)`` tuples (``text[start:end]`` matched, ``rule`` any label). Overlapping
        matches are merged into one replacement. While it runs, ``channel`` names the
        channel ``text`` is of and ``held`` is that channel's held text (the end of
        ``text``).
    :param replace: the replacement text for each match, or a callable ``(Match) ->
        str``; ``None`` keeps the text (for guards that block or only report).
    :param types: the delta types to hold (default both); other deltas pass like any
        other chunk.
    :param hold_from: ``hold_from(text)``, the earliest index of ``text`` (the held
        text with the channel's context before it) where a match that more text could
        still complete or change can start; what comes before it is not held back
        (never more than ``max_match_length - 1`` characters are). ``run_start`` for
        matches without white space. ``None``: the last ``max_match_length - 1``
        characters are held.
    """

    __slots__ = ("max_match_length", "find", "replace", "types", "hold_from", "channel",
                 "_keep", "_windows", "_current", "_started", "_grouped")

    def __init__(
        self,
        max_match_length: int,
        find: Finder,
        replace: str | Callable[[Match], str] | None = None,
        *,
        types: Iterable[str] = tuple(CHANNELS),
        hold_from: Callable[[str], int] | None = None,
    ) -> None:
        if (not isinstance(max_match_length, int) or isinstance(max_match_length, bool)
                or max_match_length < 1):
            raise ValueError(
                f"HoldBack: max_match_length must be an integer >= 1, got {max_match_length!r}"
            )
        if not callable(find):
            raise TypeError(f"HoldBack: find must be a callable (text) -> matches, got {find!r}")
        if replace is not None and not isinstance(replace, str) and not callable(replace):
            raise TypeError(
                f"HoldBack: replace must be a string, a callable (Match) -> str or None, "
                f"got {replace!r}"
            )
        if hold_from is not None and not callable(hold_from):
            raise TypeError(
                f"HoldBack: hold_from must be a callable (text) -> index or None, got "
                f"{hold_from!r}")
        types = tuple(types)
        unknown = [t for t in types if t not in CHANNELS]
        if unknown or not types:
            raise ValueError(
                f"HoldBack: types must be a non-empty subset of {', '.join(CHANNELS)}; "
                f"got {list(types)!r}"
            )
        self.max_match_length = max_match_length
        self.find = find
        self.replace = replace
        self.types = frozenset(types)
        self.hold_from = hold_from
        self._keep = max_match_length - 1
        #: The channel of the last delta taken, or of the text ``find`` searches now.
        self.channel = CHANNELS[types[0]]
        # One window per held delta type (so per channel).
        self._windows = {kind: _Window(CHANNELS[kind]) for kind in types}
        self._current = self._windows[types[0]]
        self._started = 0  # windows that began holding so far (``_Window.since``)
        #: The last tuple ``find`` returned, the ``base`` and text length it was grouped
        #: at, and its groups: a finder that returns the same tuple again (nothing new
        #: found) is not grouped again.
        self._grouped: tuple[object, int, int, list[Any]] = (None, 0, 0, [])

    def __repr__(self) -> str:
        held = ", ".join(f"{len(w.buffer) - w.base} chars of {w.name}"
                         for w in self._windows.values() if w.chunks)
        return f"HoldBack(max_match_length={self.max_match_length}, held={held or 'nothing'})"

    @property
    def held(self) -> str:
        """The text held back now on ``channel`` (in ``find``: the end of its text)."""
        window = self._current
        return window.buffer[window.base:] if window.chunks else ""

    @property
    def held_length(self) -> int:
        """``len(held)``, without copying the text."""
        window = self._current
        return len(window.buffer) - window.base if window.chunks else 0

    def holds(self, channel: str | None = None) -> bool:
        """Whether ``channel`` (``"text"`` or ``"reasoning"``; ``None``: any) holds
        text now."""
        return any(w.chunks for w in self._windows.values()
                   if channel is None or w.name == channel)

    def push(self, part: Chunk) -> Released:
        """Take the next chunk; return the chunks to emit now and the matches in them.

        A held delta is buffered in its channel's window and what no match can still
        span is released. Any other chunk comes back at once, releasing nothing, unless
        it ends the text (``ENDS``): then it comes back last, after everything held (a
        ``tripwire`` chunk after discarding it).
        """
        window = self._windows.get(part.type)
        if window is None:
            kind = part.type
            if kind not in ENDS:
                return _new(Released, ([part], []))
            if kind == "tripwire":
                self.discard()
                return _new(Released, ([part], []))
            released = self.flush()
            if kind == "step-retry":
                self.new_attempt()
            released.chunks.append(part)
            return released
        self._take(window, part)
        return self._release(window, final=False)

    def hold(self, part: Chunk) -> None:
        """Take the next delta of a channel that holds text already, and release
        nothing: for a caller that knows ``find`` and ``hold_from`` would say of the
        text with it what they said at the last ``push`` (a search that is not due
        yet), so that no chunk more could go out."""
        window = self._windows.get(part.type)
        if window is None or not window.chunks:
            raise ValueError(f"HoldBack.hold: a {part.type} chunk on a channel that holds "
                             f"no text; push it")
        self._take(window, part)

    def _take(self, window: _Window, part: Chunk) -> None:
        """Buffer the delta ``part`` in ``window``."""
        text = part.payload.get("text", "")
        if type(text) is not str and not isinstance(text, str):
            raise TypeError(
                f"HoldBack: a {part.type} chunk's payload['text'] must be a string, "
                f"got {type(text).__name__}"
            )
        self._current = window
        self.channel = window.name
        ends = window.ends
        if ends:  # the common case: more of a channel that holds text
            ends.append(ends[-1] + len(text))
        else:
            window.held_at = 0
            ends.append(len(text))
            window.since = self._started
            self._started += 1
        window.buffer += text
        window.chunks.append(part)

    def flush(self) -> Released:
        """Release everything held (matches in it replaced): the text is complete.
        Each channel's held text goes out whole, the one held first first."""
        holding = [w for w in self._windows.values() if w.chunks]
        if not holding:
            return Released([], [])
        if len(holding) == 1:
            return self._release(holding[0], final=True)
        out = Released([], [])
        for window in sorted(holding, key=lambda w: w.since):
            released = self._release(window, final=True)
            out.chunks.extend(released.chunks)
            out.matches.extend(released.matches)
        return out

    def new_attempt(self) -> None:
        """The text that follows does not continue the text so far: the step was
        discarded (a ``step-retry``; ``push`` calls this for one). The context kept for
        matches that span chunks is dropped, so the next attempt is not read as the end
        of the discarded one (its innocent ``"456"`` after a discarded ``"ORD-123"``)."""
        for window in self._windows.values():
            window.buffer = window.buffer[window.base:]
            window.base = 0

    def discard(self) -> None:
        """Drop what is held, and the context (after a tripwire)."""
        for kind, window in self._windows.items():
            self._windows[kind] = _Window(window.name)
        self._current = self._windows[next(iter(self._windows))]
        self.channel = self._current.name

    # ------------------------------------------------------------------ internals

    def _release(self, window: _Window, final: bool) -> Released:
        self._current = window
        channel = self.channel = window.name
        text = window.buffer
        base = window.base
        try:
            result = self.find(text)
            grouped = self._grouped
            if result is grouped[0] and base == grouped[1] and len(text) >= grouped[2]:
                groups = grouped[3]  # (spans checked against a text no longer than this)
            # (most texts hold no match: an empty list or tuple needs no grouping)
            elif result or type(result) not in _EMPTY:
                groups = _groups(result, text, base)
                if type(result) is tuple:
                    self._grouped = (result, base, len(text), groups)
            else:
                groups = []
            # No unfinished match can start before ``boundary``.
            boundary = len(text) - self._keep
            if self.hold_from is not None and not final:
                boundary = max(boundary, checked_hold(self.hold_from, text))
        except BaseException:
            self.discard()
            raise
        ends = window.ends
        # ``ends[i] + shift``: where held chunk ``i`` ends in ``text``. Whole chunks are
        # released or held.
        shift = base - window.held_at
        if final:
            cut = len(text)
            released = len(ends)
        else:
            # Release the chunks that end at ``boundary`` or earlier, unless a match
            # crosses their end.
            released = bisect.bisect_right(ends, boundary - shift)
            cut = ends[released - 1] + shift if released else base
            for start, end, _ in reversed(groups):
                if start < cut < end:
                    released = bisect.bisect_right(ends, start - shift)
                    cut = ends[released - 1] + shift if released else base
            if cut <= base:
                return _new(Released, ([], []))
        if not groups:  # nothing found: release the whole chunks before ``cut`` as they are
            out = window.chunks[:released]
            # The new context: the last ``_keep`` characters up to ``cut``.
            self._forget(window, released, text, max(0, cut - self._keep), cut)
            return _new(Released, (out, []))
        edits: list[tuple[int, int, str | None]] = []
        matches: list[Match] = []
        for start, end, members in groups:
            if end > cut:
                break
            found = [Match(rule, text[s:e], channel) for s, e, rule in members]
            matches.extend(found)
            # Positions in ``text``: a match that began in the released context (the
            # previous step's text) is replaced from its first character not released.
            edits.append((max(start, base), end, _replacement(self.replace, found[0])))
        chunks: list[Chunk] = []
        emitted: list[str] = [text[:base]]
        offset = base
        first = 0  # (the first edit that ends after ``offset``: edits are in order)
        for chunk, end in zip(window.chunks[:released], ends, strict=False):
            end += shift
            piece_text = text[offset:end]
            while first < len(edits) and edits[first][1] <= offset:
                first += 1
            rendered = _render(text, offset, end, edits, first)
            emitted.append(rendered)
            if rendered == piece_text:
                chunks.append(chunk)
            elif rendered or _extra_keys(chunk):
                chunks.append(chunk.evolve(payload={**chunk.payload, "text": rendered}))
            offset = end
        # The released text as emitted (replacements in it) is the new context.
        context = "".join(emitted)
        self._forget(window, released, context + text[cut:],
                     max(0, len(context) - self._keep), len(context))
        return Released(chunks, matches)

    def _forget(self, window: _Window, released: int, text: str, keep_from: int, cut: int
                ) -> None:
        """The first ``released`` held chunks of ``window`` went out: ``text[cut:]`` is
        what is still held, ``text[keep_from:cut]`` the channel's context from now on."""
        window.buffer = text[keep_from:]
        window.base = cut - keep_from
        if released == len(window.chunks):
            window.chunks.clear()
            window.ends.clear()
            window.held_at = 0
            return
        window.held_at = window.ends[released - 1]
        del window.chunks[:released]
        del window.ends[:released]


def _render(text: str, start: int, end: int, edits: list[tuple[int, int, str | None]],
            first: int = 0) -> str:
    """``text[start:end]`` with the edits applied; an edit's replacement goes where the
    edit starts, the rest of its span is removed. ``edits`` are in order and do not
    overlap; those before ``first`` end before ``start``."""
    out: list[str] = []
    pos = start
    for i in range(first, len(edits)):
        s, e, replacement = edits[i]
        if s >= end:
            break
        if replacement is None or e <= start:
            continue
        if s >= start:
            out.append(text[pos:s])
            out.append(replacement)
        pos = max(pos, min(e, end))
    out.append(text[pos:end])
    return "".join(out)


def _extra_keys(chunk: Chunk) -> bool:
    return any(k not in ("id", "text") for k in chunk.payload)


def replace_all(
    text: str,
    find: Finder,
    replace: str | Callable[[Match], str] | None = None,
    *,
    channel: str = "text",
) -> tuple[str, list[Match]]:
    """``text`` with every match of ``find`` replaced, and the matches: what
    ``HoldBack`` does to the stream, for text that is complete (input messages, tool
    arguments and results). Same arguments as ``HoldBack``."""
    groups = _groups(find(text), text, 0)
    if not groups:
        return text, []
    matches: list[Match] = []
    edits: list[tuple[int, int, str | None]] = []
    for start, end, members in groups:
        found = [Match(rule, text[s:e], channel) for s, e, rule in members]
        matches.extend(found)
        edits.append((start, end, _replacement(replace, found[0])))
    return _render(text, 0, len(text), edits), matches


def _groups(matches: Iterable[Any], text: str, base: int
            ) -> list[tuple[int, int, list[tuple[int, int, Any]]]]:
    """The matches a finder returned for ``text`` that end after ``base``, overlapping
    ones merged: ``(start, end, members)`` in order."""
    found = []
    for m in matches:
        try:
            start, end, rule = m
        except (TypeError, ValueError):
            raise TypeError(
                f"HoldBack: find must return (start, end, rule) tuples, got {m!r}"
            ) from None
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
            raise ValueError(
                f"HoldBack: find returned the span ({start!r}, {end!r}); a span must "
                f"satisfy 0 <= start < end <= len(text) = {len(text)}"
            )
        if end > base:
            found.append((start, end, rule))
    found.sort(key=lambda m: (m[0], m[1]))
    groups: list[tuple[int, int, list[tuple[int, int, Any]]]] = []
    for start, end, rule in found:
        if groups and start < groups[-1][1]:
            s, e, members = groups[-1]
            members.append((start, end, rule))
            groups[-1] = (s, max(e, end), members)
        else:
            groups.append((start, end, [(start, end, rule)]))
    return groups


def _replacement(replace: str | Callable[[Match], str] | None, match: Match) -> str | None:
    if replace is None or isinstance(replace, str):
        return replace
    out = replace(match)
    if not isinstance(out, str):
        raise TypeError(f"HoldBack: replace must return a string, got {out!r}")
    return out
