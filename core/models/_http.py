"""The HTTP transport shared by tripwire's model providers.

One implementation of everything a provider needs from the network, so the OpenAI
and Anthropic providers only describe their wire format:

- one ``aiohttp.ClientSession`` per provider instance, created lazily inside the
  running event loop and closed by ``aclose()`` (or ``async with provider:``);
- server-sent events parsed from the response body (``iter_sse``);
- connect and read timeouts: a stream that stops sending for ``read`` seconds raises
  ``APICallError(is_retryable=True)`` instead of hanging;
- every non-2xx response and every network failure mapped to ``tripwire.APICallError``;
- transport retries with exponential backoff, jitter and ``Retry-After``.

Transport retries are separate from processor retries (``process_api_error``): they
resend the same request and happen only while nothing has been yielded to the
caller, so a retried stream never repeats a chunk. A stream that fails after its
first chunk raises, and the agent's error processors decide.
"""

from __future__ import annotations

import abc
import asyncio
import email.utils
import json
import logging
import random
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import aclosing
from typing import Any

import aiohttp
import attrs

from tripwire.chunks import Chunk, Usage
from tripwire.errors import APICallError, ConfigurationError
from tripwire.models import ModelRequest
from tripwire.options import check_int

logger = logging.getLogger("tripwire.models")

#: HTTP statuses worth sending again: timeout, conflict, rate limit, server errors.
RETRYABLE_STATUSES = frozenset({408, 409, 429})
#: ``model_settings`` keys every provider understands.
MODEL_SETTINGS = ("temperature", "max_tokens", "max_output_tokens", "top_p", "stop", "seed")
#: A ``Retry-After`` longer than this is not waited for; backoff is used instead.
MAX_RETRY_AFTER = 60.0


@attrs.frozen
class Timeout:
    """Network time limits of one provider, in seconds (``None``: no limit).

    ``connect``: establishing the TCP/TLS connection. ``read``: the longest silence
    allowed while waiting for the response or between two reads of a stream; a
    stalled stream raises ``APICallError(is_retryable=True)`` after it. ``total``: the
    whole request including the stream (off by default: long answers are fine as
    long as bytes keep coming). A plain number sets both ``connect`` and ``read``.
    """

    connect: float | None = 10.0
    read: float | None = 600.0
    total: float | None = None

    @classmethod
    def coerce(cls, value: Timeout | float | None) -> Timeout:
        if value is None:
            return cls()
        if isinstance(value, Timeout):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            return cls(connect=float(value), read=float(value))
        raise ConfigurationError(
            f"timeout must be a positive number of seconds or a tripwire.models.Timeout, "
            f"got {value!r}"
        )

    def client_timeout(self) -> aiohttp.ClientTimeout:
        return aiohttp.ClientTimeout(
            total=self.total, connect=None, sock_connect=self.connect, sock_read=self.read
        )


# ---------------------------------------------------------------- retries


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds the server asked us to wait, from ``retry-after-ms`` or ``Retry-After``
    (delta-seconds or an HTTP-date); ``None`` when absent or unreadable."""
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def retry_delay(
    retry_number: int,
    headers: Mapping[str, str] | None,
    *,
    initial_delay: float,
    max_delay: float,
) -> float:
    """How long to wait before retry number ``retry_number`` (1-based).

    The server's ``Retry-After`` wins when it is at most ``MAX_RETRY_AFTER`` seconds;
    otherwise exponential backoff ``initial_delay * 2**(n-1)`` capped at ``max_delay``,
    with jitter (a random 50-100 % of it) so that many clients do not retry in step.
    """
    asked = parse_retry_after(headers) if headers else None
    if asked is not None and asked <= MAX_RETRY_AFTER:
        return asked
    backoff = min(max_delay, initial_delay * 2 ** (retry_number - 1))
    return backoff * random.uniform(0.5, 1.0)


def is_retryable_status(status: int, headers: Mapping[str, str] | None = None) -> bool:
    """408, 409, 429 and 5xx are retryable; an ``x-should-retry`` header (sent by
    OpenAI and Anthropic) overrides that, as the official SDKs do."""
    hint = (headers or {}).get("x-should-retry")
    if hint == "true":
        return True
    if hint == "false":
        return False
    return status in RETRYABLE_STATUSES or status >= 500


# ---------------------------------------------------------------- server-sent events


async def iter_sse(content: aiohttp.StreamReader) -> AsyncIterator[tuple[str, str]]:
    """``(event, data)`` pairs from a ``text/event-stream`` body.

    Follows the WHATWG rules that matter for model APIs: ``data:`` lines of one
    event are joined with newlines, a blank line ends an event, ``:`` lines are
    comments (keep-alives), unknown fields and lines without a colon are ignored,
    the event name defaults to ``"message"``. An event left open at end of stream is
    still delivered (some servers omit the last blank line).
    """
    event = ""
    data: list[str] = []
    buffer = b""
    async for block in content.iter_any():
        buffer += block
        lines = buffer.split(b"\n")
        buffer = lines.pop()
        for raw in lines:
            line = raw.decode("utf-8")
            if line.endswith("\r"):
                line = line[:-1]
            if not line:
                if data:
                    yield event or "message", "\n".join(data)
                    data = []
                event = ""
                continue
            if line.startswith("data:"):
                data.append(line[6:] if line.startswith("data: ") else line[5:])
            elif line.startswith("event:"):
                event = line[6:].lstrip(" ")
            # comments (":..."), id:, retry: and unknown fields are ignored
    if buffer.strip():
        line = buffer.decode("utf-8").rstrip("\r")
        if line.startswith("data:"):
            data.append(line[6:] if line.startswith("data: ") else line[5:])
    if data:
        yield event or "message", "\n".join(data)


# ---------------------------------------------------------------- calls


@attrs.define
class Call:
    """One model call in flight: what was sent and what came back so far."""

    url: str
    body: dict[str, Any]
    warnings: list[dict[str, Any]]
    status: int | None = None
    headers: dict[str, str] = attrs.field(factory=dict)

    def finish(
        self,
        finish_reason: str,
        usage: Usage,
        provider_metadata: dict[str, Any],
        response_id: str | None = None,
        model: str | None = None,
    ) -> Chunk:
        """The final ``finish`` chunk of a model call."""
        return Chunk(
            "finish",
            {
                "finish_reason": finish_reason,
                "usage": usage,
                "provider_metadata": provider_metadata,
                "warnings": list(self.warnings),
                "request": self.body,
                "raw_response": {
                    "id": response_id,
                    "model": model,
                    "status": self.status,
                    "headers": dict(self.headers),
                },
            },
        )


ErrorParser = Callable[[int | None, str], tuple[str, str | None]]


class HTTPModel(abc.ABC):
    """Base of tripwire's HTTP model providers: owns the session, the retries, the
    timeouts and the error mapping. A subclass describes one wire format:
    ``_headers``, ``_path``, ``_build_body``, ``_parse_stream``, ``_parse_response``
    and ``_error_details``."""

    provider: str = ""
    #: ``model_settings`` this provider reads (the ``MODEL_SETTINGS`` vocabulary).
    _settings_aliases = {"max_output_tokens": "max_tokens"}

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None,
        model: str,
        max_retries: int = 2,
        timeout: Timeout | float | None = None,
        headers: Mapping[str, str] | None = None,
        retry_initial_delay: float = 0.5,
        retry_max_delay: float = 8.0,
    ) -> None:
        if not isinstance(model, str) or not model:
            raise ConfigurationError(f"model must be a non-empty string, got {model!r}")
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigurationError(
                f"base_url must be an http:// or https:// URL, got {base_url!r}"
            )
        check_int("max_retries", max_retries)
        if retry_initial_delay < 0 or retry_max_delay < 0:
            raise ConfigurationError("retry delays must be >= 0 seconds")
        self.model_id = model
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.timeout = Timeout.coerce(timeout)
        self.retry_initial_delay = float(retry_initial_delay)
        self.retry_max_delay = float(retry_max_delay)
        self._api_key = api_key or None
        self._extra_headers = dict(headers or {})
        self._session: aiohttp.ClientSession | None = None
        self._session_loop: asyncio.AbstractEventLoop | None = None
        #: Set by router factories: the environment variable the key came from,
        #: named in the error when it is missing.
        self._key_env: str | None = None

    # -- what subclasses provide

    _path: str = ""

    @abc.abstractmethod
    def _headers(self) -> dict[str, str]:
        """The wire format's headers (authentication, version)."""

    @abc.abstractmethod
    def _build_body(
        self, request: ModelRequest, settings: dict[str, Any], *, stream: bool
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The JSON body for ``request``, and the warnings the mapping produced."""

    @abc.abstractmethod
    def _parse_stream(
        self, events: AsyncIterator[tuple[str, str]], call: Call
    ) -> AsyncIterator[Chunk]:
        """tripwire chunks from the wire format's server-sent events."""

    @abc.abstractmethod
    def _parse_response(self, data: Any, call: Call) -> list[Chunk]:
        """tripwire chunks from a non-streaming JSON response."""

    @abc.abstractmethod
    def _error_details(self, body: Any) -> tuple[str | None, str | None]:
        """(message, error type) from a provider's JSON error body."""

    # -- lifecycle

    async def _get_session(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        session = self._session
        if session is not None and not session.closed and self._session_loop is not loop:
            old_loop = self._session_loop
            if old_loop is not None and not old_loop.is_closed():
                raise RuntimeError(
                    f"{self!r} is in use on another running event loop; create one provider "
                    f"per event loop (or call aclose() on the other loop first)"
                )
            # The loop that owned the session is gone (e.g. one asyncio.run per
            # generate_sync call): its connections died with it, so this only marks
            # the session closed and a fresh one is made for this loop.
            await session.close()
            session = None
        if session is None or session.closed:
            session = aiohttp.ClientSession()
            self._session = session
            self._session_loop = loop
        return session

    async def aclose(self) -> None:
        """Close the HTTP session (idempotent). The provider can be used again
        afterwards: a new session is made on the next call."""
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()

    @property
    def closed(self) -> bool:
        """True when the provider holds no open HTTP session."""
        return self._session is None or self._session.closed

    async def __aenter__(self) -> HTTPModel:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model_id!r}, base_url={self.base_url!r})"

    # -- the two ways to call the model

    async def stream(self, request: ModelRequest) -> AsyncIterator[Chunk]:
        """Stream one model call: ``text-delta``, ``reasoning-delta``, ``tool-call``
        chunks and one final ``finish``. Raises ``APICallError`` when it fails."""
        call = self._prepare(request, stream=True)
        retries = 0
        while True:
            yielded = False
            try:
                async with self._open(call) as response:
                    events = self._guard(iter_sse(response.content), call)
                    chunks = self._parse_stream(events, call)
                    async with aclosing(events), aclosing(chunks):
                        async for chunk in chunks:
                            yielded = True
                            yield chunk
                return
            except APICallError as error:
                if yielded or not error.is_retryable or retries >= self.max_retries:
                    raise
                retries += 1
                await self._wait_before_retry(error, call, retries)

    async def generate(self, request: ModelRequest) -> list[Chunk]:
        """One non-streaming call; returns the same chunks ``stream`` would yield
        (whole texts instead of many deltas)."""
        call = self._prepare(request, stream=False)
        retries = 0
        while True:
            try:
                async with self._open(call) as response:
                    try:
                        text = await response.text()
                    except (TimeoutError, aiohttp.ClientError) as e:
                        raise self._network_error(e, call) from e
                data = self._load_json(text, call)
                return self._parse_response(data, call)
            except APICallError as error:
                if not error.is_retryable or retries >= self.max_retries:
                    raise
                retries += 1
                await self._wait_before_retry(error, call, retries)

    # -- internals

    def _prepare(self, request: ModelRequest, *, stream: bool) -> Call:
        if not isinstance(request, ModelRequest):
            raise TypeError(f"expected a tripwire.models.ModelRequest, got {type(request).__name__}")
        if self._key_env and not self._api_key:
            raise ConfigurationError(
                f"{self._key_env} is not set: export it, or build the model yourself with "
                f"api_key=... (model {self.provider}/{self.model_id})"
            )
        settings = self._settings(request.model_settings)
        body, warnings = self._build_body(request, settings, stream=stream)
        options = (request.provider_options or {}).get(self.provider) or {}
        if not isinstance(options, Mapping):
            raise ConfigurationError(
                f"provider_options[{self.provider!r}] must be a mapping, got {options!r}"
            )
        reserved = {"stream", "messages"} & set(options)
        if reserved:
            raise ConfigurationError(
                f"provider_options[{self.provider!r}] cannot set {sorted(reserved)}: "
                f"tripwire sets them from the call"
            )
        for key, value in options.items():
            if value is None:  # None removes a field tripwire would send
                body.pop(key, None)
            else:
                body[key] = value
        return Call(url=self.base_url + self._path, body=body, warnings=warnings)

    def _settings(self, model_settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated model settings, aliases resolved, ``None`` values dropped."""
        settings: dict[str, Any] = {}
        unknown = sorted(set(model_settings or {}) - set(MODEL_SETTINGS))
        if unknown:
            raise ConfigurationError(
                f"unknown model setting(s) {unknown} for {self.provider}; valid: "
                f"{', '.join(MODEL_SETTINGS)} (provider-specific fields go in "
                f"provider_options[{self.provider!r}])"
            )
        for key, value in (model_settings or {}).items():
            if value is None:
                continue
            name = self._settings_aliases.get(key, key)
            if name in settings:
                raise ConfigurationError(
                    "model settings 'max_tokens' and 'max_output_tokens' are the same "
                    "setting; give one"
                )
            settings[name] = value
        if "stop" in settings:
            stop = settings["stop"]
            if isinstance(stop, str):
                stop = [stop]
            if not isinstance(stop, list | tuple) or not all(isinstance(s, str) for s in stop):
                raise ConfigurationError(f"model setting 'stop' must be a string or a list of strings, got {stop!r}")
            settings["stop"] = list(stop)
        return settings

    def _open(self, call: Call) -> _Response:
        return _Response(self, call)

    async def _guard(
        self, events: AsyncIterator[tuple[str, str]], call: Call
    ) -> AsyncIterator[tuple[str, str]]:
        """The SSE events, with network failures mapped to ``APICallError``."""
        async with aclosing(events):
            while True:
                try:
                    event = await anext(events)
                except StopAsyncIteration:
                    return
                except (TimeoutError, aiohttp.ClientError) as e:
                    raise self._network_error(e, call) from e
                except UnicodeDecodeError as e:
                    raise APICallError(
                        f"{self.provider} stream is not valid UTF-8: {e}",
                        status_code=call.status,
                        is_retryable=False,
                        url=call.url,
                    ) from None
                yield event

    def _load_json(self, text: str, call: Call) -> Any:
        try:
            return json.loads(text)
        except ValueError:
            raise APICallError(
                f"{self.provider} sent a response that is not valid JSON: {self._redact(text[:200])!r}",
                status_code=call.status,
                is_retryable=False,
                response_body=self._redact(text),
                url=call.url,
            ) from None

    def _stream_error(self, data: str, body: Any, call: Call) -> APICallError:
        """An error event inside a stream (the HTTP status was 2xx)."""
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

    def _status_of_error_type(self, kind: str | None) -> int | None:
        return None

    def _http_error(self, status: int, reason: str | None, text: str, call: Call) -> APICallError:
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        message, kind = self._error_details(body) if body is not None else (None, None)
        detail = message or text.strip()[:500] or (reason or "")
        label = f"{self.provider} API error {status}" + (f" ({kind})" if kind else "")
        return APICallError(
            self._redact(f"{label}: {detail}"),
            status_code=status,
            is_retryable=is_retryable_status(status, call.headers),
            response_body=self._redact(text),
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
        return APICallError(
            self._redact(what), status_code=call.status, is_retryable=True, url=call.url
        )

    def _truncated(self, call: Call) -> APICallError:
        return APICallError(
            f"{self.provider} stream ended before the response was complete",
            status_code=call.status,
            is_retryable=True,
            url=call.url,
        )

    def _malformed(self, data: str, call: Call) -> APICallError:
        return APICallError(
            f"{self.provider} sent a malformed stream event (not JSON): {self._redact(data[:200])!r}",
            status_code=call.status,
            is_retryable=False,
            response_body=self._redact(data),
            url=call.url,
        )

    async def _wait_before_retry(self, error: APICallError, call: Call, retry_number: int) -> None:
        delay = retry_delay(
            retry_number,
            call.headers if error.status_code is not None else None,
            initial_delay=self.retry_initial_delay,
            max_delay=self.retry_max_delay,
        )
        logger.info(
            "%s call to %s failed (%s); retry %d of %d in %.2f s",
            self.provider,
            call.url,
            error.message,
            retry_number,
            self.max_retries,
            delay,
        )
        await asyncio.sleep(delay)

    def _redact(self, text: str) -> str:
        key = self._api_key
        if key and text and key in text:
            return text.replace(key, "***")
        return text


class _Response:
    """``async with`` one HTTP POST: a 2xx ``aiohttp.ClientResponse`` inside, an
    ``APICallError`` for anything else; the response is closed on the way out
    (also on cancellation and early exit, so the server sees the client leave)."""

    def __init__(self, model: HTTPModel, call: Call) -> None:
        self.model = model
        self.call = call
        self.response: aiohttp.ClientResponse | None = None

    async def __aenter__(self) -> aiohttp.ClientResponse:
        model, call = self.model, self.call
        call.status = None
        call.headers = {}
        session = await model._get_session()
        try:
            response = await session.post(
                call.url,
                json=call.body,
                headers=model._headers(),
                timeout=model.timeout.client_timeout(),
            )
        except (TimeoutError, aiohttp.ClientError) as e:
            raise model._network_error(e, call) from e
        self.response = response
        call.status = response.status
        call.headers = {k.lower(): v for k, v in response.headers.items()}
        if response.status >= 300:
            try:
                text = await response.text(errors="replace")
            except (TimeoutError, aiohttp.ClientError):
                text = ""
            finally:
                response.close()
            raise model._http_error(response.status, response.reason, text, call)
        return response

    async def __aexit__(self, *exc: object) -> None:
        if self.response is not None:
            self.response.close()


def structured_output_schema(value: Any) -> tuple[str, dict[str, Any]] | None:
    """``(name, JSON Schema)`` from ``ModelRequest.structured_output``:
    ``{"schema": {...}, "name": "..."}`` (what the structured-output processor sends)
    or a bare JSON Schema mapping; ``None`` when there is none."""
    if value is None:
        return None
    if isinstance(value, Mapping) and isinstance(value.get("schema"), Mapping):
        schema, name = dict(value["schema"]), value.get("name") or "response"
    elif isinstance(value, Mapping) and ("type" in value or "properties" in value):
        schema, name = dict(value), "response"
    else:
        raise ConfigurationError(
            f"structured_output must be {{'schema': <JSON Schema>, 'name': str}} or a JSON "
            f"Schema mapping, got {value!r:.200}"
        )
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(name))[:64] or "response"
    return name, schema


def tool_choice_name(tool_choice: Any, tools: list[Any]) -> str | None:
    """Validate ``tool_choice``; return the forced tool's name for ``{"type": "tool"}``.

    Valid: ``None``, ``"auto"``, ``"none"``, ``"required"``,
    ``{"type": "tool", "tool_name": name}`` where ``name`` is one of ``tools``.
    """
    if tool_choice is None or tool_choice in ("auto", "none", "required"):
        return None
    if isinstance(tool_choice, Mapping) and tool_choice.get("type") == "tool":
        name = tool_choice.get("tool_name")
        names = [t.name for t in tools]
        if name not in names:
            raise ConfigurationError(
                f"tool_choice names tool {name!r}, which is not among this call's tools: "
                f"{names or 'none'}"
            )
        return name
    raise ConfigurationError(
        f"tool_choice must be 'auto', 'none', 'required' or "
        f"{{'type': 'tool', 'tool_name': name}}, got {tool_choice!r}"
    )


def parse_tool_args(text: str) -> tuple[dict[str, Any], str | None]:
    """A tool call's JSON arguments as a dict, and the parse error (``None`` if fine).

    Empty text means no arguments. Text that is not a JSON object gives ``{}`` plus
    the error, so the caller can pass the raw text along instead of failing the call.
    """
    if not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except ValueError as e:
        return {}, f"arguments are not valid JSON: {e}"
    if not isinstance(value, dict):
        return {}, f"arguments must be a JSON object, got {type(value).__name__}"
    return value, None


def tool_call_chunk(tool_call_id: str, tool_name: str, raw_args: str) -> Chunk:
    """A ``tool-call`` chunk from the model's raw argument text.

    Arguments that are not a JSON object become ``args = {}`` with the model's text
    under ``raw_args`` and the reason under ``args_error``, instead of failing the
    whole call: the agent (or a processor) can hand the error back to the model.
    """
    args, error = parse_tool_args(raw_args)
    payload: dict[str, Any] = {"tool_call_id": tool_call_id, "tool_name": tool_name, "args": args}
    if error is not None:
        payload["raw_args"] = raw_args
        payload["args_error"] = error
    return Chunk("tool-call", payload)


def tool_output_text(output: Any) -> str:
    """A tool result as the text a provider expects (strings as they are, else JSON)."""
    if isinstance(output, str):
        return output
    try:
        return json.dumps(output, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(output)


def file_url(part: Mapping[str, Any]) -> str:
    """An ``http(s):`` or ``data:`` URL for a file part (base64 data becomes a data URL)."""
    data = part.get("data")
    if not isinstance(data, str):
        raise ConfigurationError(
            f"a file part needs 'data' as a base64 string or a URL, got {type(data).__name__}"
        )
    if data.startswith(("http://", "https://", "data:")):
        return data
    return f"data:{part.get('media_type')};base64,{data}"


def prompt_error(index: int, message: Any, why: str) -> ConfigurationError:
    shown = repr(message)
    if len(shown) > 200:
        shown = shown[:200] + "..."
    return ConfigurationError(f"prompt[{index}] {why}: {shown}")
