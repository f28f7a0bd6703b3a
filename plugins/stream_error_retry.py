"""``stream-error-retry``: retry a model call that failed with a transient error.

The HTTP transport already resends a request that failed before its first chunk
(``max_retries`` of the provider). What it cannot do is resend a stream that broke
*after* chunks reached the client: a dropped connection mid-answer, an ``error`` event
inside the stream, an overloaded server halfway through. Those reach the agent's
error processors (``process_api_error``), and this processor decides, as the
reference's ``StreamErrorRetryProcessor`` does, whether to run the step again:

1. the first matcher that matches (``matchers``, then the built-in one for providers'
   retryable stream error payloads) decides, with its own ``max_retries`` and
   ``delay_ms`` when it gives them;
2. otherwise an error the provider marked retryable (``is_retryable``) is retried;
3. each of these is checked along the cause chain (``__cause__``, else
   ``__context__``), so an error wrapping a provider error is recognised;
4. otherwise, with ``retry_unknown_errors=True``, any error is retried.

A 401 or 403 (or an authentication / permission error type in the body), anywhere in
the chain, is never retried: a wrong key does not get better by asking again.

Before asking for the retry it waits ``max(delay_ms, min(Retry-After,
max_retry_after_ms))``; the wait ends early, without a retry, when the run is
cancelled (``abort_signal``), and cancelling the task cancels it at once.

The agent discards the failed attempt (a ``step-retry`` chunk tells stream clients),
and the retry budget of the call (``max_processor_retries``, 10 by default with
error processors) still applies on top of ``max_retries`` here.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from tripwire import Processor, hookimpl
from tripwire.errors import ConfigurationError
from tripwire.models.retry import parse_retry_after
from tripwire.option_checks import NonNegativeInt, check

__all__ = [
    "MatcherSpec",
    "StreamErrorRetry",
    "cause_chain",
    "is_retryable_stream_error",
    "is_terminal_auth_error",
    "retry_after_ms",
]

log = logging.getLogger("tripwire.plugins.stream_error_retry")

#: Error codes / types in a provider's error payload that mean "try again".
RETRYABLE_ERROR_CODES = (
    "rate_limit",
    "server_error",
    "internal_error",
    "api_error",
    "timeout",
    "temporarily_unavailable",
    "service_unavailable",
    "overloaded",
)
_RETRY_MESSAGE = re.compile(r"you can retry your request", re.I)
#: Error codes / types that mean the credentials are wrong: never retried.
TERMINAL_AUTH_CODES = frozenset(
    {
        "access_denied",
        "authentication_error",
        "forbidden",
        "invalid_api_key",
        "permission_denied",
        "permission_error",
        "unauthorized",
    }
)

DelayMs = float | Callable[[BaseException], Any]
_MATCHER_KEYS = ("match", "status", "message", "max_retries", "delay_ms", "on_retry")


def cause_chain(error: BaseException) -> Iterator[BaseException]:
    """``error``, then what caused it (``__cause__``, else ``__context__``), and so on;
    each exception once, so a cycle ends."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _status(error: BaseException) -> int | None:
    for name in ("status_code", "status"):
        value = getattr(error, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _payloads(error: BaseException) -> Iterator[Mapping[str, Any]]:
    """The error objects in an error's JSON response body: ``{"error": {...}}`` (OpenAI,
    Anthropic), ``{"type": "error", "error": {...}}`` or a bare ``{...}``."""
    body = getattr(error, "response_body", None)
    if not isinstance(body, str) or not body.lstrip().startswith("{"):
        return
    try:
        data = json.loads(body)
    except ValueError:
        return
    if not isinstance(data, Mapping):
        return
    inner = data.get("error")
    if isinstance(inner, Mapping):
        yield inner
    yield data


def _codes(payload: Mapping[str, Any]) -> list[str]:
    return [v.strip().lower() for k in ("code", "type") if isinstance(v := payload.get(k), str)]


def is_retryable_stream_error(error: BaseException) -> bool:
    """The built-in matcher: a provider's error payload whose code or type says the
    failure is transient (rate limit, server error, overloaded, timeout, ...) or whose
    message says "you can retry your request" (OpenAI's wording), whatever its status."""
    for payload in _payloads(error):
        if any(code in c for c in _codes(payload) for code in RETRYABLE_ERROR_CODES):
            return True
        message = payload.get("message")
        if isinstance(message, str) and _RETRY_MESSAGE.search(message):
            return True
    return False


def is_terminal_auth_error(error: BaseException) -> bool:
    """True when ``error`` or anything in its cause chain is a 401 / 403, or carries an
    authentication or permission error type: never worth retrying."""
    for candidate in cause_chain(error):
        if _status(candidate) in (401, 403):
            return True
        if any(c in TERMINAL_AUTH_CODES for p in _payloads(candidate) for c in _codes(p)):
            return True
    return False


def retry_after_ms(error: BaseException) -> float | None:
    """The server's ``Retry-After`` (or ``retry-after-ms``) in milliseconds, from the
    response headers of ``error`` or of an error in its cause chain."""
    for candidate in cause_chain(error):
        headers = getattr(candidate, "response_headers", None)
        if isinstance(headers, Mapping) and headers:
            seconds = parse_retry_after({str(k).lower(): str(v) for k, v in headers.items()})
            if seconds is not None:
                return seconds * 1000.0
    return None


def _delay_ok(name: str, value: Any, owner: str) -> None:
    if callable(value):
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not value >= 0
        or value == float("inf")
    ):
        raise ConfigurationError(
            f"{owner}: {name} must be a finite number of milliseconds >= 0 or a function "
            f"(error) -> milliseconds, got {value!r}"
        )


@attrs.frozen
class MatcherSpec:
    """One entry of ``matchers``: when it matches an error, and the retry policy it
    brings (``None``: the processor's own ``max_retries`` / ``delay_ms``).

    It matches when every given condition holds: ``match(error)`` is true, the error's
    status is in ``status``, its message (or response body) matches the regular
    expression ``message``. ``on_retry(error, delay_ms)`` (sync or async) is called when
    this matcher's policy retries, before the wait.
    """

    match: Callable[[BaseException], bool] | None = None
    status: frozenset[int] = frozenset()
    message: re.Pattern[str] | None = None
    max_retries: int | None = None
    delay_ms: DelayMs | None = None
    on_retry: Callable[[BaseException, float], Any] | None = None

    @classmethod
    def of(cls, entry: Any, index: int, owner: str) -> MatcherSpec:
        """A spec from a callable or a mapping ``{"match", "status", "message",
        "max_retries", "delay_ms", "on_retry"}``; a bad entry is a ``ConfigurationError``."""
        where = f"{owner}: matchers[{index}]"
        if callable(entry):
            return cls(match=entry)
        if not isinstance(entry, Mapping):
            raise ConfigurationError(
                f"{where} must be a function (error) -> bool or a table with keys "
                f"{', '.join(_MATCHER_KEYS)}, got {entry!r}"
            )
        unknown = sorted(set(entry) - set(_MATCHER_KEYS))
        if unknown:
            raise ConfigurationError(
                f"{where}: unknown key(s) {unknown}; valid: {', '.join(_MATCHER_KEYS)}"
            )
        match = entry.get("match")
        if match is not None and not callable(match):
            raise ConfigurationError(
                f"{where}.match must be a function (error) -> bool, got {match!r}"
            )
        status = entry.get("status", ())
        if isinstance(status, int) and not isinstance(status, bool):
            status = [status]
        if not isinstance(status, list | tuple | set | frozenset) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 100 <= s <= 599 for s in status
        ):
            raise ConfigurationError(
                f"{where}.status must be an HTTP status (100-599) or a list of them, got {status!r}"
            )
        message = entry.get("message")
        pattern = None
        if message is not None:
            if not isinstance(message, str) or not message:
                raise ConfigurationError(
                    f"{where}.message must be a regular expression (a non-empty string), "
                    f"got {message!r}"
                )
            try:
                pattern = re.compile(message, re.I)
            except re.error as e:
                raise ConfigurationError(
                    f"{where}.message is not a valid regular expression ({e}): {message!r}"
                ) from None
        if match is None and not status and pattern is None:
            raise ConfigurationError(f"{where} needs at least one of match, status, message")
        max_retries = entry.get("max_retries")
        if max_retries is not None:
            check(f"matchers[{index}].max_retries", max_retries, NonNegativeInt, owner=owner)
        delay = entry.get("delay_ms")
        if delay is not None:
            _delay_ok(f"matchers[{index}].delay_ms", delay, owner)
        on_retry = entry.get("on_retry")
        if on_retry is not None and not callable(on_retry):
            raise ConfigurationError(
                f"{where}.on_retry must be a function (error, delay_ms), got {on_retry!r}"
            )
        return cls(match, frozenset(status), pattern, max_retries, delay, on_retry)

    def matches(self, error: BaseException) -> bool:
        if self.status and _status(error) not in self.status:
            return False
        if self.message is not None:
            texts = [str(error), getattr(error, "response_body", None) or ""]
            if not any(self.message.search(t) for t in texts if isinstance(t, str)):
                return False
        return self.match is None or bool(self.match(error))


_DEFAULT = MatcherSpec(match=is_retryable_stream_error)
_PROVIDER_RETRYABLE = MatcherSpec()  # the policy of "the provider said retryable"


class StreamErrorRetry(Processor):
    """Retry a failed model call when the error is transient (an error processor).

    Options:
        max_retries (int, default ``1``): retries per step (``retry_count`` of
            ``process_api_error``), unless the matching matcher sets its own.
        matchers (list, default ``[]``): functions ``(error) -> bool``, or tables
            ``{"match": fn, "status": 400 | [500, 503], "message": "regex",
            "max_retries": n, "delay_ms": ms, "on_retry": fn}`` (``match``,
            ``status`` and ``message`` all must hold; give at least one). Checked in
            order before the built-in matcher, on every error of the cause chain.
        retry_unknown_errors (bool, default ``False``): also retry errors nothing
            matched (never a 401 / 403).
        delay_ms (float or function ``(error) -> ms``, default ``0``): the wait
            before the retry.
        max_retry_after_ms (float, default ``30000``): a server's ``Retry-After`` is
            honoured up to this; the wait is ``max(delay_ms, min(Retry-After,
            max_retry_after_ms))``.

    Example::

        Agent(..., error_processors=[StreamErrorRetry(
            max_retries=2, delay_ms=250,
            matchers=[{"status": 400, "max_retries": 1}])])
    """

    id = "stream-error-retry"
    description = (
        "Retries a model call that failed with a transient error (also mid-stream), "
        "honouring Retry-After; never on 401/403"
    )

    def __init__(
        self,
        max_retries: NonNegativeInt = 1,
        matchers: list[Any] | None = None,
        retry_unknown_errors: bool = False,
        delay_ms: Any = 0,
        max_retry_after_ms: float = 30000.0,
    ) -> None:
        check("max_retries", max_retries, NonNegativeInt, owner=self.id)
        check("retry_unknown_errors", retry_unknown_errors, bool, owner=self.id)
        _delay_ok("delay_ms", delay_ms, self.id)
        _delay_ok("max_retry_after_ms", max_retry_after_ms, self.id)
        if callable(max_retry_after_ms):
            raise ConfigurationError(
                f"{self.id}: max_retry_after_ms must be a number of milliseconds >= 0, "
                f"got {max_retry_after_ms!r}"
            )
        if matchers is None:
            matchers = []
        if isinstance(matchers, str | bytes | Mapping) or not isinstance(matchers, list | tuple):
            raise ConfigurationError(
                f"{self.id}: matchers must be a list of functions or tables, got {matchers!r}"
            )
        self.max_retries = max_retries
        self.matchers = [MatcherSpec.of(m, i, self.id) for i, m in enumerate(matchers)]
        self.retry_unknown_errors = retry_unknown_errors
        self.delay_ms = delay_ms
        self.max_retry_after_ms = float(max_retry_after_ms)

    def __repr__(self) -> str:
        return (
            f"StreamErrorRetry(max_retries={self.max_retries!r}, "
            f"matchers={len(self.matchers)}, "
            f"retry_unknown_errors={self.retry_unknown_errors!r})"
        )

    def policy(self, error: BaseException) -> MatcherSpec | None:
        """The policy that retries ``error`` (a matcher, the provider's retryable flag,
        or ``retry_unknown_errors``), or None when it is not retried."""
        if is_terminal_auth_error(error):
            return None
        entries = [*self.matchers, _DEFAULT]
        for candidate in cause_chain(error):
            for spec in entries:
                if spec.matches(candidate):
                    return spec
            if getattr(candidate, "is_retryable", None) is True:
                return _PROVIDER_RETRYABLE
        return _PROVIDER_RETRYABLE if self.retry_unknown_errors else None

    async def delay_for(self, error: BaseException, spec: MatcherSpec) -> float:
        """Milliseconds to wait before retrying ``error`` under ``spec``."""
        configured: Any = spec.delay_ms if spec.delay_ms is not None else self.delay_ms
        if callable(configured):
            configured = configured(error)
            if inspect.isawaitable(configured):
                configured = await configured
        try:
            wait = max(0.0, float(configured))
        except (TypeError, ValueError):
            raise ConfigurationError(
                f"{self.id}: the delay_ms function returned {configured!r}, not a number of "
                f"milliseconds"
            ) from None
        if wait != wait or wait == float("inf"):
            wait = 0.0
        asked = retry_after_ms(error)
        if asked is not None:
            wait = max(wait, min(asked, self.max_retry_after_ms))
        return wait

    @hookimpl
    async def process_api_error(
        self, error: BaseException, retry_count: int, abort_signal: asyncio.Event
    ) -> dict[str, Any] | None:
        spec = self.policy(error)
        if spec is None:
            return None
        limit = spec.max_retries if spec.max_retries is not None else self.max_retries
        if retry_count >= limit:
            return None
        wait_ms = await self.delay_for(error, spec)
        if spec.on_retry is not None:
            called = spec.on_retry(error, wait_ms)
            if inspect.isawaitable(called):
                await called
        log.info(
            "retrying after %s (retry %d of %d) in %.0f ms",
            type(error).__name__,
            retry_count + 1,
            limit,
            wait_ms,
        )
        if wait_ms > 0:
            if abort_signal.is_set():
                return None
            try:
                await asyncio.wait_for(abort_signal.wait(), wait_ms / 1000.0)
            except TimeoutError:
                pass  # waited the full delay
            else:
                return None  # the run was stopped while waiting: no retry
        elif abort_signal.is_set():
            return None
        return {"retry": True}
