"""``cost-guard``'s options, checked: the limits, the price table and the message
template. A bad value is a ``ConfigurationError`` naming the option, what is valid and
what was given, raised when the guard is built, never mid-run."""

from __future__ import annotations

import math
import string
from collections.abc import Mapping
from typing import Any

import attrs

from tripwire.errors import ConfigurationError

__all__ = [
    "DEFAULT_MESSAGE",
    "LIMIT_TYPES",
    "Price",
    "check_limits",
    "check_message",
    "check_prices",
    "dollars",
    "is_amount",
]

DEFAULT_MESSAGE = "Cost guard: {limit_type} limit exceeded ({usage}/{limit})"
#: The limits, in the order they are checked.
LIMIT_TYPES = (
    "max_total_tokens",
    "max_input_tokens",
    "max_output_tokens",
    "max_steps",
    "max_cost_usd",
)
_PLACEHOLDERS = {"limit_type", "usage", "limit", "scope", "scope_key"}


@attrs.frozen
class Price:
    """A model's price in US dollars per million tokens."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


def dollars(value: float) -> str:
    """Dollars as plain decimals (``0.00001``, ``12.5``), to the nano-dollar."""
    return f"{value:.9f}".rstrip("0").rstrip(".") or "0"


def is_amount(value: Any) -> bool:
    """Whether ``value`` is a finite number >= 0 (not a bool)."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def check_prices(value: Any, owner: str) -> dict[str, Price]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ConfigurationError(
            f"{owner}: prices must be a table of model -> {{input, output}} (US dollars per "
            f"million tokens), got {value!r}"
        )
    out: dict[str, Price] = {}
    for model, price in value.items():
        if isinstance(price, Price):
            out[str(model)] = price
            continue
        if (
            not isinstance(model, str)
            or not model
            or not isinstance(price, Mapping)
            or set(price) != {"input", "output"}
            or not all(is_amount(price[k]) for k in ("input", "output"))
        ):
            raise ConfigurationError(
                f"{owner}: prices[{model!r}] must be {{input = N, output = N}} with N >= 0 "
                f"US dollars per million tokens, got {price!r}"
            )
        out[model] = Price(float(price["input"]), float(price["output"]))
    return out


def check_limits(value: Any, owner: str) -> dict[str, float]:
    if not isinstance(value, Mapping):
        raise ConfigurationError(
            f"{owner}: limits must be a table with at least one of {', '.join(LIMIT_TYPES)}, "
            f"got {value!r}"
        )
    unknown = sorted(set(value) - set(LIMIT_TYPES))
    if unknown:
        raise ConfigurationError(
            f"{owner}: unknown limit(s) {unknown}; valid: {', '.join(LIMIT_TYPES)}"
        )
    limits = {k: v for k, v in value.items() if v is not None}
    if not limits:
        raise ConfigurationError(f"{owner}: limits needs at least one of {', '.join(LIMIT_TYPES)}")
    for name, limit in limits.items():
        if name == "max_cost_usd":
            if not is_amount(limit) or limit <= 0:
                raise ConfigurationError(
                    f"{owner}: limits.max_cost_usd must be a number of US dollars > 0, "
                    f"got {limit!r}"
                )
        elif isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ConfigurationError(
                f"{owner}: limits.{name} must be an integer >= 1, got {limit!r}"
            )
    return limits


def check_message(message: Any, owner: str) -> str:
    if not isinstance(message, str) or not message:
        raise ConfigurationError(f"{owner}: message must be a non-empty string, got {message!r}")
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(message) if f is not None}
    except ValueError as e:
        raise ConfigurationError(
            f"{owner}: message is not a valid template ({e}): {message!r}"
        ) from None
    bad = sorted(fields - _PLACEHOLDERS)
    if bad:
        raise ConfigurationError(
            f"{owner}: message has unknown placeholder(s) {bad}; valid: "
            f"{', '.join('{' + p + '}' for p in sorted(_PLACEHOLDERS))}"
        )
    # Format it now with values of the types it gets (usage and limit are text,
    # scope_key is None for a run): a format spec or conversion that cannot apply
    # ("{limit:d}", "{usage!z}") fails here, not at the first violation mid-run.
    for scope_key in (None, "cost-guard:resource:id"):
        try:
            message.format(
                limit_type="max_total_tokens",
                usage="1",
                limit="1",
                scope="run",
                scope_key=scope_key,
            )
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            raise ConfigurationError(
                f"{owner}: message is not a valid template ({type(e).__name__}: {e}; "
                f"{{usage}} and {{limit}} are text, {{scope_key}} is None for the run "
                f"scope): {message!r}"
            ) from None
    return message
