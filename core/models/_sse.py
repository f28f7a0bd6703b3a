"""Server-sent events: ``(event, data)`` pairs from a ``text/event-stream`` body.

Linear in the size of the body whatever the shape of its lines: each block the
network delivers is split once, and the pieces of a line longer than one block are
kept in a list and joined once, when the line ends. One event may be at most
``max_event_bytes`` long (all its lines, counted as they arrive), so a server that
never ends a line cannot make the client buffer without bound.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from typing import Protocol

from tripwire.models.wire import TooLarge

#: Default for the providers' ``max_event_bytes`` option: 16 MiB.
DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024


class _Blocks(Protocol):
    def iter_any(self) -> AsyncIterator[bytes]: ...


async def iter_sse(
    content: _Blocks, *, max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES
) -> AsyncGenerator[tuple[str, str], None]:
    """``(event, data)`` pairs from ``content`` (an ``aiohttp.StreamReader``).

    Follows the WHATWG rules that matter for model APIs: ``data:`` lines of one
    event are joined with newlines, a blank line ends an event, ``:`` lines are
    comments (keep-alives), unknown fields and lines without a colon are ignored,
    the event name defaults to ``"message"``; lines end with LF or CRLF. An event
    left open at end of stream is still delivered (some servers omit the last blank
    line). Raises ``TooLarge`` when one event (all its lines) passes
    ``max_event_bytes``, and ``UnicodeDecodeError`` for a line that is not UTF-8.
    """
    event = ""
    data: list[str] = []
    size = 0  # bytes of the current event's complete lines
    pending: list[bytes] = []  # pieces of the line not yet ended
    pending_size = 0
    async for block in content.iter_any():
        lines = block.split(b"\n")
        tail = lines.pop()
        if lines and pending:
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending, pending_size = [], 0
        for raw in lines:
            size += len(raw) + 1
            if size > max_event_bytes:
                raise TooLarge("a stream event", size, max_event_bytes)
            if not raw or raw == b"\r":  # a blank line (read as bytes: one per event)
                if data:
                    yield event or "message", "\n".join(data)
                    data = []
                event = ""
                size = 0
                continue
            line = raw.decode("utf-8")
            if line.endswith("\r"):
                line = line[:-1]
            if line.startswith("data: "):  # the usual data line first
                data.append(line[6:])
            elif line.startswith("data:"):
                data.append(line[5:])
            elif line.startswith("event:"):
                event = line[6:].lstrip(" ")
            # comments (":..."), id:, retry: and unknown fields are ignored
        if tail:
            pending.append(tail)
            pending_size += len(tail)
            if size + pending_size > max_event_bytes:
                raise TooLarge("a stream event", size + pending_size, max_event_bytes)
    if pending:
        line = b"".join(pending).decode("utf-8").rstrip("\r")
        if line.startswith("data:"):
            data.append(line[6:] if line.startswith("data: ") else line[5:])
    if data:
        yield event or "message", "\n".join(data)
