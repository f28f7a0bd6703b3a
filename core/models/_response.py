"""One HTTP POST to a model API and what comes back, read with bounds.

``PostResponse`` is entered around each attempt: inside is a 2xx response of the
content type the call asked for (``text/event-stream`` when streaming, JSON
otherwise); anything else is an ``APICallError`` before the caller sees a byte.
``read_body`` never holds more than ``max_event_bytes`` of a body.
"""

from __future__ import annotations

import asyncio
import codecs
import logging
from typing import TYPE_CHECKING

import aiohttp

from tripwire.models._errors import SNIPPET_BYTES
from tripwire.models._pool import Pool, Response
from tripwire.models.wire import load_json

if TYPE_CHECKING:
    from tripwire.models._http import Call, HTTPModel

logger = logging.getLogger("tripwire.models")

#: Most of a non-2xx body that is read (the rest is not needed to report the error).
MAX_ERROR_BODY_BYTES = 64 * 1024


#: What a POST answers: the connection pool's response, or aiohttp's when httptools is
#: not installed (the same attributes as far as this module reads them).
AnyResponse = Response | aiohttp.ClientResponse


class PostResponse:
    """``async with`` one HTTP POST: a 2xx response of the expected content type
    inside, an ``APICallError`` for anything else; the response is closed on the way
    out (also on cancellation and early exit, so the server sees the client leave)."""

    def __init__(self, model: HTTPModel, call: Call) -> None:
        self.model = model
        self.call = call
        self.response: AnyResponse | None = None

    async def __aenter__(self) -> AnyResponse:
        model, call = self.model, self.call
        call.status = None
        call.headers = {}
        call.event = ""
        session = await model._get_session()
        response: AnyResponse
        try:
            if isinstance(session, Pool):
                timeout = model.timeout
                response = await session.post(model._origin(), call.data, timeout.connect,
                                              timeout.read, timeout.total)
            else:
                response = await session.post(call.target, data=call.data,
                                              headers=model._request_headers(),
                                              timeout=model._client_timeout)
        except (TimeoutError, aiohttp.ClientError) as e:
            raise model._network_error(e, call) from e
        self.response = response
        try:
            call.status = response.status
            call.headers = (response.headers if isinstance(response, Response)
                            else {k.lower(): v for k, v in response.headers.items()})
            if response.status >= 300:
                raw = await read_body(model, response, call, limit=MAX_ERROR_BODY_BYTES)
                text = raw.decode(charset_of(response), "replace")
                raise model._http_error(response.status, response.reason, text, call)
            await self._check_content_type(response)
        except BaseException:
            response.close()
            raise
        return response

    async def _check_content_type(self, response: AnyResponse) -> None:
        model, call = self.model, self.call
        media_type = response.content_type
        if media_type == "text/event-stream" if call.stream else is_json(media_type):
            return
        if call.stream and is_json(media_type):
            # Some servers answer a streaming request with a JSON error and status 200.
            raw = await read_body(model, response, call)
            text = raw.decode(charset_of(response), "replace")
            try:
                body = load_json(text)
            except ValueError:
                body = None
            if body is not None and model._error_details(body)[0]:
                raise model._stream_error(text, body, call)
            raise model._unexpected_content(response, raw[:SNIPPET_BYTES], call)
        head = await read_body(model, response, call, limit=SNIPPET_BYTES)
        raise model._unexpected_content(response, head, call)

    async def __aexit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        response = self.response
        if response is None:
            return
        if kind is None and not response.content.at_eof():
            # Read to the end in the background, then the connection goes back to the pool:
            # a stream's parser stops at its last event ([DONE], message_stop), and the
            # end of the body often comes a moment later, in a read of its own. Closing
            # at once would close the connection, and the next call would wait for a new
            # TCP (and TLS) handshake. The model's session owns the task: closing the
            # model cancels it first.
            self.model._sessions.background(_finish_reading(response, self.model._host),
                                            response)
            return
        response.close()


#: The most of a body's rest that is read to keep its connection, and how long for.
FINISH_BYTES = 64 * 1024
FINISH_SECONDS = 1.0


async def _finish_reading(response: AnyResponse, host: str) -> None:
    """Read what is left of ``response`` (a few bytes: the end of a chunked body) so
    that aiohttp returns its connection to the pool. More than ``FINISH_BYTES``, or no
    end within ``FINISH_SECONDS``, and the connection is closed instead, as it would
    have been."""
    read = 0
    try:
        async with asyncio.timeout(FINISH_SECONDS):
            while read <= FINISH_BYTES and not response.content.at_eof():
                read += len(await response.content.readany())
    except (TimeoutError, aiohttp.ClientError, OSError) as e:
        # nothing is lost but the connection's reuse: the close below drops it
        logger.debug("the end of a stream from %s did not come (%s: %s); its connection "
                     "is closed", host, type(e).__name__, e)
    finally:
        response.close()  # after the end: a no-op (the connection is back in the pool)


async def read_body(
    model: HTTPModel, response: AnyResponse, call: Call, *, limit: int | None = None
) -> bytes:
    """The whole body, at most ``model.max_event_bytes`` (``APICallError`` past it),
    or, when ``limit`` is given, its first ``limit`` bytes (the rest is not read)."""
    most = limit if limit is not None else model.max_event_bytes
    declared = response.content_length
    if limit is None and declared is not None and declared > most:
        raise model._too_large(call, "a response body", declared)
    body = bytearray()
    try:
        async for block in response.content.iter_any():
            body += block
            if len(body) > most:
                if limit is not None:
                    break
                raise model._too_large(call, "a response body", len(body))
    except (TimeoutError, aiohttp.ClientError) as e:
        if limit is not None:  # a quote for an error message: what came is enough
            return bytes(body[:most])
        raise model._network_error(e, call) from e
    return bytes(body[:most])


def decode_body(model: HTTPModel, raw: bytes, response: AnyResponse, call: Call) -> str:
    charset = charset_of(response)
    try:
        return raw.decode(charset)
    except UnicodeDecodeError as e:
        raise model._not_decodable(raw, charset, e, call) from None


def charset_of(response: AnyResponse) -> str:
    """The declared charset when Python knows it, else UTF-8 (what JSON and SSE use)."""
    charset = response.charset
    if charset:
        try:
            return codecs.lookup(charset).name
        except LookupError:
            pass
    return "utf-8"


def is_json(media_type: str) -> bool:
    return media_type in ("application/json", "text/json") or media_type.endswith("+json")
