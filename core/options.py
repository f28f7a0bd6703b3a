"""Checks for processor and agent options, with one wording for every bad option.

Processor authors can use them too: a bad option is a ``ConfigurationError`` that
names the option, what is valid and what was given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tripwire.errors import ConfigurationError

__all__ = ["check_bool", "check_choice", "check_int"]


def check_int(
    name: str, value: Any, *, minimum: int = 0, allow_none: bool = False, owner: str | None = None
) -> None:
    """``value`` must be an ``int`` (not a bool) ``>= minimum``, or None if allowed."""
    if value is None and allow_none:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        valid = f"an integer >= {minimum}" + (" or None" if allow_none else "")
        raise ConfigurationError(f"{_prefix(owner)}{name} must be {valid}, got {value!r}")


def check_bool(name: str, value: Any, *, owner: str | None = None) -> None:
    """``value`` must be True or False."""
    if not isinstance(value, bool):
        raise ConfigurationError(f"{_prefix(owner)}{name} must be true or false, got {value!r}")


def check_choice(name: str, value: Any, valid: Iterable[Any], *, owner: str | None = None) -> None:
    """``value`` must be one of ``valid``."""
    valid = tuple(valid)
    if value not in valid:
        raise ConfigurationError(
            f"{_prefix(owner)}{name} must be one of {', '.join(map(str, valid))}; got {value!r}"
        )


def _prefix(owner: str | None) -> str:
    return f"{owner}: " if owner else ""
