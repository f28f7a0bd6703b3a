"""When and how long to retry a failed model call: retryable statuses, the
server's ``Retry-After``, exponential backoff with jitter."""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Mapping

#: HTTP statuses worth sending again: timeout, conflict, rate limit, server errors.
RETRYABLE_STATUSES = frozenset({408, 409, 429})
#: A ``Retry-After`` longer than this is not waited for; backoff is used instead.
MAX_RETRY_AFTER = 60.0


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
    backoff: float = min(max_delay, initial_delay * 2 ** (retry_number - 1))
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

