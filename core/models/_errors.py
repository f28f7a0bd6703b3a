"""Every way a model call fails, as one ``tripwire.APICallError`` each.

The message names the provider and what went wrong (and, where it helps, what to
change), ``is_retryable`` says whether sending the same request again may help, and
nothing shown carries a credential of the provider (``Secrets``)."""

from __future__ import annotations

import abc
import asyncio
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp

from tripwire.errors import APICallError
from tripwire.models._secrets import Secrets, mask_headers
from tripwire.models.retry import is_retryable_status
from tripwire.models.wire import WireError, load_json

if TYPE_CHECKING:
    from tripwire.models._http import Call, Timeout
    from tripwire.models._response import AnyResponse

#: How much of an unexpected body an error message quotes.
SNIPPET_BYTES = 200


class CallErrors:
    """The ``APICallError`` builders of an HTTP provider (a mixin of ``HTTPModel``:
    they read its ``provider``, ``base_url``, ``timeout``, ``max_event_bytes`` and
    secrets, and ``_error_details`` of its wire format)."""

    provider: str
    base_url: str
    _secrets: Secrets

    # Read from the provider's ``Transport`` (``HTTPModel`` defines them).
    @property
    @abc.abstractmethod
    def timeout(self) -> Timeout:
        """The provider's network time limits."""

    @property
    @abc.abstractmethod
    def max_event_bytes(self) -> int:
        """The largest event or body the provider reads."""

    #: (message, error type) from a provider's JSON error body (the wire format's).
    _error_details: Callable[[Any], tuple[str | None, str | None]]

    def _status_of_error_type(self, kind: str | None) -> int | None:
        """The HTTP status a wire format documents for an error type (none here)."""
        return None

    def _redact(self, text: str) -> str:
        return self._secrets.redact(text)

    def _http_error(self, status: int, reason: str | None, text: str, call: Call) -> APICallError:
        """A non-2xx answer, with the provider's own message when its body has one."""
        try:
            body = load_json(text)
        except ValueError:
            body = None
        message, kind = self._error_details(body) if body is not None else (None, None)
        detail = message or text.strip()[:500] or (reason or "")
        if status == 404:
            detail += f" ({self._not_found(call)})"
        label = f"{self.provider} API error {status}" + (f" ({kind})" if kind else "")
        return APICallError(
            self._redact(f"{label}: {detail}"),
            status_code=status,
            is_retryable=is_retryable_status(status, call.headers),
            response_body=self._redact(text),
            url=call.url,
            response_headers={k: self._redact(v) for k, v in mask_headers(call.headers).items()},
        )

    def _not_found(self, call: Call) -> str:
        """What a 404 says besides the server's own words: the URL that answered it
        (no password, query or fragment), and where the wire format's API usually is
        when ``base_url`` looks wrong (``_base_url_hint``)."""
        hint = self._base_url_hint()
        return f"POST {shown_url(call.url)} answered 404 Not Found" + (f"; {hint}" if hint else "")

    def _base_url_hint(self) -> str | None:
        """Why ``base_url`` may be the cause of a 404, or None when it looks right."""
        return None

    def _stream_error(self, data: str, body: Any, call: Call) -> APICallError:
        """An error object in a 2xx answer (an ``error`` event inside a stream)."""
        message, kind = self._error_details(body)
        status = self._status_of_error_type(kind)
        retryable = is_retryable_status(status) if status is not None else False
        text = f"{self.provider} stream error" + (f" ({kind})" if kind else "")
        return APICallError(
            self._redact(f"{text}: {message or data}"),
            status_code=status,
            is_retryable=retryable,
            response_body=self._redact(data),
            url=call.url,
        )

    def _unexpected_content(self, response: AnyResponse, head: bytes, call: Call) -> APICallError:
        """A 2xx answer of the wrong content type: usually not the model API at all
        (a web page, a proxy's login form), so not worth sending again."""
        wanted = "an event stream (text/event-stream)" if call.stream else "JSON (application/json)"
        declared = call.headers.get("content-type")
        shown_type = repr(sanitise(declared)[:100]) if declared else "no content type"
        snippet = self._redact(sanitise(head.decode("utf-8", "replace")))
        return APICallError(
            f"{self.provider} answered HTTP {response.status} with {shown_type} where "
            f"{wanted} was expected; the body starts with {snippet!r}. This is usually not "
            f"the model API: check base_url ({self.base_url}; this call went to {call.url})",
            status_code=response.status,
            is_retryable=False,
            response_body=snippet,
            url=call.url,
        )

    def _malformed(
        self, data: str, call: Call, error: BaseException, *, what: str = "stream event"
    ) -> APICallError:
        """Server data that is not JSON or not of the wire format's shape."""
        if isinstance(error, json.JSONDecodeError):
            reason = f"not JSON: {error}"
        elif isinstance(error, WireError):
            reason = str(error)
        else:
            reason = f"unexpected shape ({type(error).__name__}: {error})"
        shown = self._redact(data[:SNIPPET_BYTES])
        return APICallError(
            self._redact(f"{self.provider} sent a malformed {what} ({reason}): {shown!r}"),
            status_code=call.status,
            is_retryable=False,
            response_body=self._redact(data),
            url=call.url,
        )

    def _not_decodable(self, raw: bytes, charset: str, error: UnicodeDecodeError, call: Call) -> APICallError:
        """A body (``generate()``) or a stream's line (``stream()``) that is not valid in
        its charset; the start of ``raw`` (undecodable bytes as U+FFFD) in
        ``response_body``."""
        return APICallError(
            f"{self.provider} sent a response that is not valid {charset}: {error}",
            status_code=call.status,
            is_retryable=False,
            response_body=self._redact(raw[:SNIPPET_BYTES].decode(charset, "replace")),
            url=call.url,
        )

    def _too_large(self, call: Call, what: str, size: int) -> APICallError:
        """``what`` (e.g. "a stream event") passed ``max_event_bytes``."""
        limit = self.max_event_bytes
        return APICallError(
            f"{self.provider} sent {what} larger than max_event_bytes={limit} "
            f"({limit / 2**20:g} MiB; {size} bytes read or announced); tripwire stopped "
            f"reading it. If the server really sends data this large, raise the provider "
            f"option max_event_bytes (e.g. {type(self).__name__}(..., "
            f"max_event_bytes={4 * limit}))",
            status_code=call.status,
            is_retryable=False,
            url=call.url,
        )

    def _network_error(self, error: BaseException, call: Call) -> APICallError:
        if isinstance(error, asyncio.TimeoutError):
            t = self.timeout
            if call.status is None:
                what = (
                    f"no response from {self.provider} within the timeout "
                    f"(connect={t.connect} s, read={t.read} s, total={t.total} s)"
                )
            else:
                what = f"{self.provider} stream stalled: no data for {t.read} s (Timeout.read)"
                if t.total is not None:
                    what += f" or the whole call exceeded {t.total} s (Timeout.total)"
        elif isinstance(error, aiohttp.ClientPayloadError):
            what = f"{self.provider} connection dropped mid-response ({error})"
        else:
            what = f"cannot reach {self.provider} ({type(error).__name__}: {error})"
        return APICallError(self._redact(what), status_code=call.status, is_retryable=True, url=call.url)

    def _truncated(self, call: Call) -> APICallError:
        return APICallError(
            f"{self.provider} stream ended before the response was complete",
            status_code=call.status,
            is_retryable=True,
            url=call.url,
        )


def sanitise(text: str) -> str:
    """Text for one line of an error message: whitespace runs as one space, other
    control characters as ``?``."""
    return re.sub(r"[\x00-\x08\x0e-\x1f\x7f]", "?", re.sub(r"\s+", " ", text)).strip()


def shown_url(url: str) -> str:
    """``url`` (its password already masked) for a message: without its query and
    fragment, which may carry a key (``?key=...``)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(query="", fragment=""))
