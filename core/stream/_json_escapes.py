"""JSON string escapes in their canonical spelling, so the guards judge what a client's
JSON parser decodes.

An answer the client will JSON-decode (structured output, a ``response_format`` of
``json_object`` / ``json_schema``, a tool call's argument text) can spell any
character as an escape: ``"ann.lee\\u0040example.com"`` decodes to an e-mail address
that no guard reading the text as written finds. Before any output processor sees such
text, the run rewrites every escape that decodes to a character a JSON string may hold
as it is into that character: ``\\u0040`` becomes ``@``, a surrogate pair
(``\\ud83d\\ude00``) its one character, ``\\/`` a ``/``. The escapes JSON requires stay,
in one spelling each: ``\\"``, ``\\\\``, ``\\b``, ``\\f``, ``\\n``, ``\\r``, ``\\t``, the
other control characters and lone surrogates as lower-case ``\\u00xx`` / ``\\udxxx``. The
text decodes to the same value as before; what the guards see is what the client
decodes, and a guard's replacement holds in the decoded value.

The whole text is read as the inside of a JSON string (in valid JSON a backslash occurs
in strings only, so prose or fences around the value change nothing): an escaped
backslash (``\\\\u0040``) stays the backslash and the letters after it. A backslash that
starts no escape JSON knows (``\\x41``) is left as it is, with the character after it.

``canonical(text)`` rewrites a whole text (a tool call's arguments). ``Canonicalizer``
does the same to text that arrives in pieces: it holds back an escape that a piece cut
in two (``\\u00`` | ``40``, a high surrogate waiting for its low half), so a text split
at any point comes out as the whole text does; ``end()`` gives what it still holds. An
escape the text never finishes (a model call whose text ends in ``\\u00``) gets its
backslash escaped (``\\\\u00``), so it cannot combine with text after it (the next
step's) into a character no guard saw.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterable, Mapping
from typing import Any

from tripwire.chunks import Chunk

__all__ = ["CanonicalStream", "Canonicalizer", "canonical", "canonical_tool_call",
           "json_answer"]

#: The short escapes JSON defines for the characters a string must escape.
_SHORT = {0x22: '\\"', 0x5C: "\\\\", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r",
          0x09: "\\t"}
_HEX = frozenset("0123456789abcdefABCDEF")
#: A low surrogate's escape, whole.
_LOW = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
#: The start of a low surrogate's escape that more text could finish (``""`` included).
_LOW_START = re.compile(r"(?:\\(?:u(?:[dD](?:[c-fC-F][0-9a-fA-F]?)?)?)?)?")


def _spelling(cp: int) -> str:
    """How the escaped code point ``cp`` (not half of a pair) is written."""
    if cp < 0x20 or cp == 0x22 or cp == 0x5C:
        return _SHORT.get(cp) or f"\\u{cp:04x}"
    if 0xD800 <= cp < 0xE000:  # a lone surrogate: no character to write
        return f"\\u{cp:04x}"
    return chr(cp)


def _rewrite(text: str, final: bool) -> tuple[str, str]:
    """``text`` with its escapes canonical, and the end of it held back: an escape that
    more text could still finish or change (``""`` when ``final``: then an unfinished
    escape's backslash is escaped instead)."""
    out: list[str] = []
    add = out.append
    i = 0
    while True:
        j = text.find("\\", i)
        if j < 0:
            add(text[i:])
            return "".join(out), ""
        add(text[i:j])
        nxt = text[j + 1:j + 2]
        if nxt != "u":
            if not nxt:  # a backslash at the end
                break
            add("/" if nxt == "/" else text[j:j + 2])
            i = j + 2
            continue
        digits = text[j + 2:j + 6]
        if not all(c in _HEX for c in digits):
            add("\\u")  # no escape JSON knows: left as it is
            i = j + 2
            continue
        if len(digits) < 4:
            break
        cp = int(digits, 16)
        if 0xD800 <= cp < 0xDC00:  # a high surrogate: its pair decodes to one character
            after = text[j + 6:j + 12]
            if _LOW.match(after):
                low = int(after[2:], 16)
                add(chr(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)))
                i = j + 12
                continue
            if not final and len(after) < 6 and _LOW_START.fullmatch(after):
                break
        add(_spelling(cp))
        i = j + 6
    # text[j:] is an escape more text could still finish
    if not final:
        return "".join(out), text[j:]
    add("\\\\" + text[j + 1:])  # (only "u" and hex digits follow the backslash)
    return "".join(out), ""


def canonical(text: str) -> str:
    """``text`` (a whole JSON text, or prose around one) with every JSON string escape in
    its canonical spelling; an escape cut off at the end gets its backslash escaped."""
    if "\\" not in text:
        return text
    return _rewrite(text, True)[0]


class Canonicalizer:
    """``canonical`` over a text that arrives in pieces: ``push`` each piece, and what
    it returns (in order), then ``end()``, join to ``canonical`` of the whole text."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held = ""

    @property
    def holding(self) -> bool:
        """Whether an unfinished escape is held back."""
        return bool(self._held)

    def push(self, piece: str) -> str:
        """The canonical text that ``piece`` completes; an escape it leaves unfinished is
        held back for the next piece."""
        text = self._held + piece if self._held else piece
        if "\\" not in text:
            self._held = ""
            return text
        out, self._held = _rewrite(text, False)
        return out

    def end(self) -> str:
        """What is held back, finished as ``canonical`` finishes a text's end."""
        held, self._held = self._held, ""
        return _rewrite(held, True)[0] if held else ""


#: ``response_format`` types whose answer is JSON the client decodes.
_JSON_FORMATS = frozenset({"json_object", "json_schema"})


def json_answer(structured_output: Any, provider_options: Mapping[str, Any]) -> bool:
    """Whether a model call's text is JSON its reader decodes: the call asks for
    structured output, or a provider's options (``provider_options``, by provider) ask
    for a ``response_format`` of type ``json_object`` or ``json_schema`` (what the
    gateway passes on from its client)."""
    if structured_output is not None:
        return True
    for options in provider_options.values():
        if isinstance(options, Mapping):
            fmt = options.get("response_format")
            if isinstance(fmt, Mapping) and fmt.get("type") in _JSON_FORMATS:
                return True
    return False


def canonical_tool_call(chunk: Chunk) -> Chunk:
    """A ``tool-call`` chunk whose argument text (``raw_args``: text that did not parse
    as a JSON object, passed on as the model sent it) is ``canonical``; ``chunk`` itself
    when it has none or nothing changes. (Parsed arguments, ``args``, are decoded
    already.)"""
    payload = chunk.payload
    raw = payload.get("raw_args") if type(payload) is dict else None
    if type(raw) is not str or "\\" not in raw:
        return chunk
    new = canonical(raw)
    return chunk if new == raw else chunk.evolve(payload={**payload, "raw_args": new})


class CanonicalStream:
    """A model's chunks with the text of its ``text-delta`` chunks ``canonical``, as the
    text of the whole call. A delta that ends in an unfinished escape has that escape
    held back for the next one (other chunks pass meanwhile); what is held when the
    model finishes goes out, finished, in a delta before its ``finish`` chunk (or at the
    end of the stream). A delta all of whose text is held is not passed on unless its
    payload carries more than its id and text. Anything else, malformed chunks
    included, passes as it came (the run checks chunks after this). ``aclose()`` closes
    ``source``."""

    __slots__ = ("_canon", "_last", "_next", "_out", "_source")

    def __init__(self, source: AsyncIterable[Chunk]) -> None:
        self._source = source.__aiter__()
        self._next = self._source.__anext__
        self._canon = Canonicalizer()
        self._last: Chunk | None = None  # the last text delta: held text goes out as its kin
        self._out: list[Chunk] = []  # chunks due before the next one read

    def __aiter__(self) -> CanonicalStream:
        return self

    async def __anext__(self) -> Chunk:
        if self._out:
            return self._out.pop(0)
        canon = self._canon
        while True:
            try:
                chunk = await self._next()
            except StopAsyncIteration:
                if canon.holding:
                    return _held(self._last, canon.end())
                raise
            if type(chunk) is Chunk:
                if chunk.type == "text-delta":
                    payload = chunk.payload
                    text = payload.get("text") if type(payload) is dict else None
                    if type(text) is str:
                        self._last = chunk
                        out = canon.push(text)
                        if out != text:
                            if not out and payload.keys() <= {"id", "text"}:
                                continue
                            chunk = chunk.evolve(payload={**payload, "text": out})
                elif chunk.type == "finish" and canon.holding:
                    self._out.append(chunk)
                    return _held(self._last, canon.end())
            return chunk

    async def aclose(self) -> None:
        closer = getattr(self._source, "aclose", None)
        if closer is not None:
            await closer()


def _held(last: Chunk | None, text: str) -> Chunk:
    """A text delta with ``text``, in the place of the last one."""
    assert last is not None  # (only a text delta makes the canonicalizer hold)
    return last.evolve(payload={"id": last.payload.get("id", ""), "text": text})
