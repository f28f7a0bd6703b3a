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
    ``text-delta`` and ``reasoning-delta`` are two channels: a match never spans text
    and reasoning. Within a channel, text ids do not separate matches: the deltas are
    matched as one text in arrival order, which is the text the client concatenates,
    ``result.text`` and the stored message hold. So ``"pass"`` ending id ``t1`` and
    ``"word"`` starting id ``t2`` (or ids interleaved) are one match.

What is released, and when
    Released chunks are the original ones (same id, same boundaries, same payload),
    new ones with the replaced text where a match was, in the original order; a chunk
    whose text was all replaced away is dropped (unless it carries other payload keys,
    such as ``provider_metadata``). Any chunk that is not a delta of the held channel
    (a tool call, a delta of the other channel, ``step-finish``, ``finish``) first
    flushes what is held, then follows it. The last ``max_match_length - 1``
    characters released on each channel stay as context until the call ends: a match
    that a flush cut in two (``"pass"``, a tool call, ``"word"``) is still found, and
    its part not released yet is replaced, so the whole match never reaches the
    client. A ``tripwire`` chunk discards what is held.

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
            return chunks          # a list: released text, then ``part`` if it is not text

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
from tripwire.holdfrom import checked_hold, in_one_word, joint_hold_from, run_start

__all__ = ["HoldBack", "Match", "Released", "in_one_word", "joint_hold_from", "replace_all",
           "run_start"]

#: The chunk types ``HoldBack`` holds, and the channel each belongs to.
CHANNELS: dict[str, str] = {"text-delta": "text", "reasoning-delta": "reasoning"}

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


class HoldBack:
    """A hold-back window over ``text-delta`` and ``reasoning-delta`` chunks.

    :param max_match_length: the most characters one match can cover (>= 1); the
        last ``max_match_length - 1`` characters of a channel are held.
    :param find: ``find(text)`` returns the matches in ``text`` as ``(start, end,
        rule)`` tuples (``text[start:end]`` matched, ``rule`` any label). Overlapping
        matches are merged into one replacement.
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

    __slots__ = ("max_match_length", "find", "replace", "types", "hold_from", "_keep",
                 "_channel", "_chunks", "_buffer", "_base", "_held_at", "_ends", "_context")

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
        # The channel of the held chunks (``None``: nothing is held).
        self._channel: str | None = None
        # While something is held: the held chunks in arrival order, and ``_buffer`` the
        # text ``find`` sees, the channel's context (``_base`` characters) then the held
        # text. ``_ends``: where each held chunk ends, counted in the held text since the
        # first of them arrived (so they need no update when chunks go out);
        # ``_held_at``: where the held text starts, counted the same way.
        self._chunks: list[Chunk] = []
        self._buffer = ""
        self._base = 0
        self._held_at = 0
        self._ends: list[int] = []
        # The context of each channel while nothing of it is held: its last ``_keep``
        # characters released.
        self._context: dict[str, str] = {}

    def __repr__(self) -> str:
        return (f"HoldBack(max_match_length={self.max_match_length}, "
                f"held={len(self.held)} chars of {self._channel or 'nothing'})")

    @property
    def held(self) -> str:
        """The text held back now."""
        return self._buffer[self._base:] if self._chunks else ""

    def push(self, part: Chunk) -> Released:
        """Take the next chunk; return the chunks to emit now and the matches in them.

        A held delta is buffered and what no match can still span is released; any
        other chunk comes back last, after what was held (a ``tripwire`` chunk after
        discarding it).
        """
        kind = part.type
        if kind not in self.types:
            if kind == "tripwire":
                self.discard()
                return Released([part], [])
            released = self.flush()
            if kind == "step-retry":
                self.new_attempt()
            released.chunks.append(part)
            return released
        text = part.payload.get("text", "")
        if type(text) is not str and not isinstance(text, str):
            raise TypeError(
                f"HoldBack: a {part.type} chunk's payload['text'] must be a string, "
                f"got {type(text).__name__}"
            )
        channel = CHANNELS[kind]
        if self._channel == channel:  # the common case: more of the held channel
            self._buffer += text
            self._ends.append(self._ends[-1] + len(text))
            self._chunks.append(part)
            return self._release(final=False)
        if self._channel is None:
            self._hold(channel, part, text)
            return self._release(final=False)
        out = self.flush()
        self._hold(channel, part, text)
        more = self._release(final=False)
        out.chunks.extend(more.chunks)
        out.matches.extend(more.matches)
        return out

    def flush(self) -> Released:
        """Release everything held (matches in it replaced): the text is complete."""
        if not self._chunks:
            return Released([], [])
        return self._release(final=True)

    def new_attempt(self) -> None:
        """The text that follows does not continue the text so far: the step was
        discarded (a ``step-retry``; ``push`` calls this for one). The context kept for
        matches that span chunks is dropped, so the next attempt is not read as the end
        of the discarded one (its innocent ``"456"`` after a discarded ``"ORD-123"``)."""
        self._context.clear()

    def discard(self) -> None:
        """Drop what is held, and the context (after a tripwire)."""
        self._chunks.clear()
        self._ends.clear()
        self._buffer = ""
        self._base = self._held_at = 0
        self._context.clear()
        self._channel = None

    # ------------------------------------------------------------------ internals

    def _hold(self, channel: str, part: Chunk, text: str) -> None:
        """Start holding ``channel`` with ``part``: its context comes first."""
        context = self._context.pop(channel, "")
        self._channel = channel
        self._chunks.append(part)
        self._buffer = context + text
        self._base = len(context)
        self._held_at = 0
        self._ends.append(len(text))

    def _release(self, final: bool) -> Released:
        channel = self._channel
        assert channel is not None
        text = self._buffer
        base = self._base
        try:
            result = self.find(text)
            # (most texts hold no match: an empty list or tuple needs no grouping)
            groups = _groups(result, text, base) if result or type(result) not in _EMPTY else []
            # No unfinished match can start before ``boundary``.
            boundary = len(text) - self._keep
            if self.hold_from is not None and not final:
                boundary = max(boundary, checked_hold(self.hold_from, text))
        except BaseException:
            self.discard()
            raise
        ends = self._ends
        # ``ends[i] + shift``: where held chunk ``i`` ends in ``text``. Whole chunks are
        # released or held.
        shift = base - self._held_at
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
            out = self._chunks[:released]
            # The new context: the last ``_keep`` characters up to ``cut``.
            keep_from = cut - self._keep
            if released < len(self._chunks):  # (``_forget``, inlined: the common case)
                if keep_from < 0:
                    keep_from = 0
                self._held_at = ends[released - 1]
                del self._chunks[:released]
                del ends[:released]
                self._buffer = text[keep_from:]
                self._base = cut - keep_from
            else:
                self._forget(released, text, max(0, keep_from), cut)
            return _new(Released, (out, []))
        edits: list[tuple[int, int, str | None]] = []
        matches: list[Match] = []
        for start, end, members in groups:
            if end > cut:
                break
            found = [Match(rule, text[s:e], channel) for s, e, rule in members]
            matches.extend(found)
            # Positions in ``text``: a match that began in the released context is
            # replaced from its first character not released yet.
            edits.append((max(start, base), end, _replacement(self.replace, found[0])))
        chunks: list[Chunk] = []
        emitted: list[str] = [text[:base]]
        offset = base
        for chunk, end in zip(self._chunks[:released], ends, strict=False):
            end += shift
            piece_text = text[offset:end]
            rendered = _render(text, offset, end, edits)
            emitted.append(rendered)
            if rendered == piece_text:
                chunks.append(chunk)
            elif rendered or _extra_keys(chunk):
                chunks.append(chunk.evolve(payload={**chunk.payload, "text": rendered}))
            offset = end
        # The released text as emitted (replacements in it) is the new context.
        context = "".join(emitted)
        self._forget(released, context + text[cut:], max(0, len(context) - self._keep),
                     len(context))
        return Released(chunks, matches)

    def _forget(self, released: int, text: str, keep_from: int, cut: int) -> None:
        """The first ``released`` held chunks went out: ``text[cut:]`` is what is still
        held, ``text[keep_from:cut]`` the channel's context from now on."""
        if released == len(self._chunks):
            if self._keep:
                assert self._channel is not None
                self._context[self._channel] = text[keep_from:cut]
            self._chunks.clear()
            self._ends.clear()
            self._buffer = ""
            self._base = self._held_at = 0
            self._channel = None
            return
        self._held_at = self._ends[released - 1]
        del self._chunks[:released]
        del self._ends[:released]
        self._buffer = text[keep_from:]
        self._base = cut - keep_from


def _render(text: str, start: int, end: int, edits: list[tuple[int, int, str | None]]) -> str:
    """``text[start:end]`` with the edits applied; an edit's replacement goes where the
    edit starts, the rest of its span is removed."""
    out: list[str] = []
    pos = start
    for s, e, replacement in edits:
        if replacement is None or e <= start or s >= end:
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
