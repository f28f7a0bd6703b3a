"""The HTTP transport shared by tripwire's model providers.

One implementation of everything a provider needs from the network, so the OpenAI
and Anthropic providers only describe their wire format:

- one ``aiohttp.ClientSession`` per provider instance, created lazily inside the
  running event loop and closed by ``aclose()``, ``async with provider:`` or the end
  of that loop (``session.py``);
- server-sent events parsed from the response body in linear time, each event at
  most ``max_event_bytes`` long (``_sse.py``);
- connect and read timeouts: a stream that stops sending for ``read`` seconds raises
  ``APICallError(is_retryable=True)`` instead of hanging;
- every non-2xx response, every answer that is not what was asked for (an HTML page
  instead of a stream), every event of the wrong shape and every network failure
  mapped to ``tripwire.APICallError``;
- transport retries with exponential backoff, jitter and ``Retry-After`` (``retry.py``);
- credentials kept out of everything shown: the API key, a password in ``base_url``
  and credential headers are masked in errors, logs, reprs and the ``finish`` chunk
  (``_secrets.py``).

Transport retries are separate from processor retries (``process_api_error``): they
resend the same request and happen only while nothing has been yielded to the
caller, so a retried stream never repeats a chunk. A stream that fails after its
first chunk raises, and the agent's error processors decide.
"""

from __future__ import annotations

import abc
import asyncio
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import aclosing
from typing import Any, TypedDict, Unpack
from urllib.parse import urlsplit

import aiohttp
import attrs

from tripwire.chunks import Chunk, Usage
from tripwire.errors import APICallError, ConfigurationError, Error
from tripwire.models import ModelRequest, _pool
from tripwire.models._errors import CallErrors
from tripwire.models._pool import Origin, Pool
from tripwire.models._response import PostResponse, decode_body, read_body
from tripwire.models._secrets import (
    Secrets,
    basic_auth,
    is_credential_header,
    mask_headers,
    mask_url,
    split_userinfo,
)
from tripwire.models._sse import DEFAULT_MAX_EVENT_BYTES, iter_sse
from tripwire.models.retry import retry_delay
from tripwire.models.session import LoopSession
from tripwire.models.wire import TooLarge, ValidUnicode, load_json
from tripwire.option_checks import NonNegativeInt, PositiveInt, check

logger = logging.getLogger("tripwire.models")

#: ``model_settings`` keys every provider understands.
MODEL_SETTINGS = ("temperature", "max_tokens", "max_output_tokens", "top_p", "stop", "seed")
#: What a bug-free parser can still raise on data of the wrong shape; the transport
#: reports it as a malformed event instead of letting it out bare.
_SHAPE_ERRORS = (
    ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError, ArithmeticError
)


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


class TransportOptions(TypedDict, total=False):
    """The keyword options every HTTP provider takes (``Transport``'s fields)."""

    max_retries: int
    timeout: Timeout | float | None
    headers: Mapping[str, str] | None
    retry_initial_delay: float
    retry_max_delay: float
    max_event_bytes: int
    max_connections: int


def _timeout(value: Timeout | float | None) -> Timeout:
    return Timeout.coerce(value)


def _headers(value: Mapping[str, str] | None) -> dict[str, str]:
    return dict(value or {})


def _non_negative_seconds(name: str) -> Any:
    def check_seconds(instance: Any, attribute: Any, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise ConfigurationError(f"{name} must be >= 0 seconds, got {value!r}")

    return check_seconds


@attrs.frozen(kw_only=True)
class Transport:
    """How a provider talks HTTP, the same for every provider: one settings object.

    ``max_retries``: transport retries of 408, 409, 429, 5xx and network failures
    (before the first chunk of a stream), exponential backoff with jitter from
    ``retry_initial_delay`` up to ``retry_max_delay`` seconds, honouring
    ``Retry-After``; ``timeout``: a ``Timeout`` (a number sets connect and read);
    ``headers``: extra HTTP headers (credential-like ones are masked wherever shown);
    ``max_event_bytes``: the largest server-sent event, non-streaming body or tool
    call's arguments; ``max_connections``: connections open to the server at once (more
    calls at a time wait for one; aiohttp's default, 100, unless set: a gateway serving
    more concurrent streams raises it). Providers take these as keyword options
    (``TransportOptions``).
    """

    max_retries: int = attrs.field(default=2)
    timeout: Timeout = attrs.field(default=None, converter=_timeout)
    headers: dict[str, str] = attrs.field(factory=dict, converter=_headers)
    retry_initial_delay: float = attrs.field(
        default=0.5, validator=_non_negative_seconds("retry_initial_delay"))
    retry_max_delay: float = attrs.field(
        default=8.0, validator=_non_negative_seconds("retry_max_delay"))
    max_event_bytes: int = attrs.field(default=DEFAULT_MAX_EVENT_BYTES)
    max_connections: int = attrs.field(default=100)

    def __attrs_post_init__(self) -> None:
        check("max_retries", self.max_retries, NonNegativeInt)
        check("max_event_bytes", self.max_event_bytes, PositiveInt)
        check("max_connections", self.max_connections, PositiveInt)

    @classmethod
    def of(cls, transport: Transport | None, options: Mapping[str, Any]) -> Transport:
        """``transport`` (or the defaults) with ``options`` applied; an unknown option is
        a ``ConfigurationError`` listing the valid ones."""
        valid = [a.name for a in attrs.fields(cls)]
        unknown = sorted(set(options) - set(valid))
        if unknown:
            raise ConfigurationError(
                f"unknown provider option(s) {unknown}; valid: {', '.join(valid)}")
        base = transport if transport is not None else cls()
        return attrs.evolve(base, **options) if options else base


@attrs.define
class Call:
    """One model call in flight: what was sent and what came back so far.

    ``url`` is the endpoint as shown (a password in it masked), ``target`` the one
    requested (no userinfo: that goes as basic auth). ``body`` is sent as ``data``;
    ``request`` is the body as recorded on the ``finish`` chunk (credentials masked).
    """

    url: str
    target: str
    body: dict[str, Any]
    data: bytes = attrs.field(repr=False)
    request: dict[str, Any] = attrs.field(repr=False)
    warnings: list[dict[str, Any]]
    stream: bool
    secrets: Secrets = attrs.field(repr=False)
    status: int | None = None
    headers: dict[str, str] = attrs.field(factory=dict, repr=False)
    #: The data of the last stream event read, quoted when it cannot be parsed.
    event: str = attrs.field(default="", repr=False)
    #: The run the call is a step of (``ModelRequest.run_id``), which every chunk of
    #: the call carries: the run passes such a chunk on as it is.
    run_id: str | None = None

    def finish(
        self,
        finish_reason: str,
        usage: Usage,
        provider_metadata: dict[str, Any],
        response_id: str | None = None,
        model: str | None = None,
    ) -> Chunk:
        """The final ``finish`` chunk of a model call. ``raw_response.headers`` has
        credential headers masked (``mask_headers``) and any secret of the provider
        masked in the other values."""
        headers = {k: self.secrets.redact(v) for k, v in mask_headers(self.headers).items()}
        return Chunk(
            "finish",
            {
                "finish_reason": finish_reason,
                "usage": usage,
                "provider_metadata": provider_metadata,
                "warnings": list(self.warnings),
                "request": self.request,
                "raw_response": {
                    "id": response_id,
                    "model": model,
                    "status": self.status,
                    "headers": headers,
                },
            },
            self.run_id,
        )


class HTTPModel(CallErrors, abc.ABC):
    """Base of tripwire's HTTP model providers: owns the session, the retries, the
    timeouts and the error mapping (``CallErrors``). A subclass describes one wire
    format: ``_headers``, ``_path``, ``_build_body``, ``_parse_stream``,
    ``_parse_response`` and ``_error_details``."""

    provider: str = ""
    #: ``model_settings`` this provider reads (the ``MODEL_SETTINGS`` vocabulary).
    _settings_aliases = {"max_output_tokens": "max_tokens"}

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str | None,
        model: str,
        transport: Transport | None = None,
        **options: Unpack[TransportOptions],
    ) -> None:
        if not isinstance(model, str) or not model:
            raise ConfigurationError(f"model must be a non-empty string, got {model!r}")
        self.transport = Transport.of(transport, options)
        self.model_id = model
        self._api_key = api_key or None
        self._extra_headers = self.transport.headers
        self._secrets = Secrets()
        self._secrets.add(self._api_key)
        self._secrets.add(*(v for k, v in self._extra_headers.items() if is_credential_header(k)))
        self.base_url = base_url
        self._sessions = LoopSession(lambda: repr(self), self.transport.max_connections)
        #: aiohttp's timeouts of every call (``Timeout.client_timeout``), made once
        self._client_timeout = self.transport.timeout.client_timeout()
        #: Set by router factories: the environment variable the key came from,
        #: named in the error when it is missing.
        self._key_env: str | None = None

    # The transport settings, as attributes (read by the call machinery).
    @property
    def max_retries(self) -> int:
        return self.transport.max_retries

    @property
    def timeout(self) -> Timeout:
        return self.transport.timeout

    @property
    def retry_initial_delay(self) -> float:
        return float(self.transport.retry_initial_delay)

    @property
    def retry_max_delay(self) -> float:
        return float(self.transport.retry_max_delay)

    @property
    def max_event_bytes(self) -> int:
        return self.transport.max_event_bytes

    @property
    def base_url(self) -> str:
        """The API root as given, with a password in it shown as ``***``."""
        return self._shown_url

    @base_url.setter
    def base_url(self, value: str) -> None:
        if not isinstance(value, str) or not value.startswith(("http://", "https://")):
            shown = mask_url(value) if isinstance(value, str) else value
            raise ConfigurationError(f"base_url must be an http:// or https:// URL, got {shown!r}")
        url, user, password = split_userinfo(value.rstrip("/"))
        #: The ``Authorization: Basic`` value from the URL's userinfo, if any.
        self._basic_auth: str | None = None
        if user is not None:
            clash = [k for k in self._headers() if k.lower() == "authorization"]
            if clash:
                raise ConfigurationError(
                    f"base_url {mask_url(value)!r} carries credentials, which are sent as the "
                    f"Authorization header, and {type(self).__name__} sends one "
                    f"already (from api_key or headers); give only one of them"
                )
            self._basic_auth = basic_auth(user, password or "")
            self._secrets.add(password, self._basic_auth.split(" ", 1)[1])
            if password is None:  # a token given as the user name
                self._secrets.add(user)
        self._url = url
        self._shown_url = mask_url(value.rstrip("/"))
        #: the host named in logs
        self._host = urlsplit(url).hostname or ""
        #: the headers of every call (``_request_headers``), made on its first call
        self._sent_headers: dict[str, str] | None = None
        #: where every call goes and its request's head, as bytes (``_origin``)
        self._sent_origin: Origin | None = None

    def _request_headers(self) -> dict[str, str]:
        """The headers of every call: ``Content-Type``, the wire format's ``_headers``
        and the basic auth of the URL's userinfo. They are the same for each call of
        this provider, so they are built once (a call makes no dictionary of its own
        on its way to the upstream; aiohttp copies them into the request's)."""
        headers = self._sent_headers
        if headers is None:
            headers = {"Content-Type": "application/json", **self._headers()}
            if self._basic_auth:
                headers["Authorization"] = self._basic_auth
            for name, value in headers.items():
                _pool.header_line(name, value)  # (a header no request can carry: said now)
            self._sent_headers = headers
        return headers

    def _origin(self) -> Origin:
        """The connection pool's ``Origin`` of every call: the endpoint and the request's
        head (``_request_headers``) as bytes, built once."""
        origin = self._sent_origin
        if origin is None:
            origin = self._sent_origin = Origin.of(self._url + self._path,
                                                   self._request_headers())
        return origin

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
    ) -> AsyncGenerator[Chunk, None]:
        """tripwire chunks from the wire format's server-sent events. Data of the
        wrong shape raises ``WireError`` (or any of ``_SHAPE_ERRORS``), which the
        transport reports as a malformed event."""

    @abc.abstractmethod
    def _parse_response(self, data: Any, call: Call) -> list[Chunk]:
        """tripwire chunks from a non-streaming JSON response (same error rule)."""

    @abc.abstractmethod
    def _error_details(self, body: Any) -> tuple[str | None, str | None]:
        """(message, error type) from a provider's JSON error body, strings or None
        whatever the body's shape."""

    # -- lifecycle

    async def _get_session(self) -> aiohttp.ClientSession | Pool:
        """The connection pool (aiohttp's session when httptools is not installed)."""
        if _pool.AVAILABLE:
            return await self._sessions.pool()
        return await self._sessions.get()

    async def aclose(self) -> None:
        """Close the HTTP session (idempotent). The provider can be used again
        afterwards: a new session is made on the next call."""
        await self._sessions.close()

    @property
    def closed(self) -> bool:
        """True when the provider holds no open HTTP session."""
        return self._sessions.closed

    async def __aenter__(self) -> HTTPModel:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model_id!r}, base_url={self.base_url!r})"

    # -- the two ways to call the model

    async def stream(self, request: ModelRequest) -> AsyncGenerator[Chunk, None]:
        """Stream one model call: ``text-delta``, ``reasoning-delta``, ``tool-call``
        chunks and one final ``finish``. Raises ``APICallError`` when it fails."""
        call = self._prepare(request, stream=True)
        retries = 0
        while True:
            yielded = False
            try:
                async with self._open(call) as response:
                    # (the parser notes each event's data in ``call.event`` as it reads
                    # it: what a malformed-event error shows)
                    events = iter_sse(response.content, max_event_bytes=self.max_event_bytes)
                    chunks = self._parse_stream(events, call)
                    valid = ValidUnicode()
                    async with aclosing(events), aclosing(chunks):
                        while True:
                            try:
                                chunk = await anext(chunks)
                            except StopAsyncIteration:
                                break
                            except Error:
                                raise
                            except TooLarge as e:
                                raise self._too_large(call, e.what, e.size) from None
                            except (TimeoutError, aiohttp.ClientError) as e:
                                raise self._network_error(e, call) from e
                            except UnicodeDecodeError as e:  # SSE is UTF-8 (WHATWG)
                                raise self._not_decodable(e.object, "utf-8", e, call) from None
                            except _SHAPE_ERRORS as e:
                                raise self._malformed(call.event, call, e) from e
                            kind = chunk.type
                            if kind == "text-delta" or kind == "reasoning-delta":
                                fixed = valid.delta(chunk)
                                if fixed is None:
                                    continue
                                chunk = fixed
                            else:
                                if kind == "finish":
                                    for rest in valid.rest(chunk.run_id):
                                        yielded = True
                                        yield rest
                                chunk = valid.other(chunk)
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
                    text = decode_body(self, await read_body(self, response, call), response, call)
                call.event = text
                try:
                    return valid_chunks(self._parse_response(load_json(text), call))
                except Error:
                    raise
                except _SHAPE_ERRORS as e:
                    raise self._malformed(text, call, e, what="response") from e
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
        if options:  # (none, the usual call: nothing to check or apply)
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
        try:
            data = encode_body(body)
        except (TypeError, ValueError, RecursionError) as e:
            raise ConfigurationError(
                f"the {self.provider} request body cannot be encoded as JSON ({e}); prompt, "
                f"tools, model_settings and provider_options must hold JSON values only"
            ) from None
        secrets = self._secrets
        return Call(
            url=self.base_url + self._path,
            target=self._url + self._path,
            body=body,
            data=data,
            request=secrets.redact_value(body) if secrets else body,
            warnings=warnings,
            stream=stream,
            secrets=secrets,
            run_id=request.run_id,
        )

    def _settings(self, model_settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validated model settings, aliases resolved, ``None`` values dropped."""
        if not model_settings:  # (the usual call: none)
            return {}
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

    def _open(self, call: Call) -> PostResponse:
        return PostResponse(self, call)

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
            self._redact(error.message),
            retry_number,
            self.max_retries,
            delay,
        )
        await asyncio.sleep(delay)


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


#: JSON's C encoder with ``json.dumps``'s settings, made once: ``json.dumps`` makes one
#: for each call, a third of the cost of encoding a request's body. Without the circular
#: check (a cycle is a ``RecursionError``), so that no state is kept between calls.
_BODY_ENCODER = (json.encoder.c_make_encoder(  # type: ignore[attr-defined]
    None, _not_json, json.encoder.encode_basestring_ascii, None, ": ", ", ", False,
    False, True) if json.encoder.c_make_encoder is not None else None)  # type: ignore[attr-defined]


def encode_body(body: Any) -> bytes:
    """A request's JSON body as sent: the bytes of ``json.dumps(body)``, as aiohttp's
    ``json=`` would send them (ASCII); ``TypeError`` for a value JSON cannot hold,
    ``ValueError`` or ``RecursionError`` for a cycle."""
    if _BODY_ENCODER is None:
        return json.dumps(body).encode("ascii")
    return "".join(_BODY_ENCODER(body, 0)).encode("ascii")


def valid_chunks(chunks: list[Chunk]) -> list[Chunk]:
    """A non-streaming answer's chunks as valid text (``ValidUnicode``)."""
    valid = ValidUnicode()
    out: list[Chunk] = []
    for chunk in chunks:
        if chunk.type in ("text-delta", "reasoning-delta"):
            fixed = valid.delta(chunk)
            if fixed is not None:
                out.append(fixed)
            continue
        if chunk.type == "finish":
            out.extend(valid.rest())
        out.append(valid.other(chunk))
    return out
