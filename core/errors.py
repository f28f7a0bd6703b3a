"""Exceptions raised by tripwire.

``TripWire`` is control flow (a processor stopped the run on purpose); every other
class here is an error a user should see and fix, a subclass of ``Error``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any


class Error(Exception):
    """Base class of tripwire's errors, ``tripwire.Error`` (as ``sqlite3.Error``); not of
    ``TripWire``, which is not an error but a processor stopping the run."""


class TripWire(Exception):
    """Raised by ``abort()``: a processor stopped the run on purpose.

    ``retry`` asks the agent to run the step again with ``reason`` as feedback to the
    model; ``metadata`` travels to the client on the tripwire chunk unchanged.
    """

    def __init__(
        self,
        reason: str,
        *,
        retry: bool = False,
        metadata: Any = None,
        processor_id: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry = retry
        self.metadata = metadata
        self.processor_id = processor_id

    def __repr__(self) -> str:
        return (
            f"TripWire(reason={self.reason!r}, retry={self.retry!r}, "
            f"metadata={self.metadata!r}, processor_id={self.processor_id!r})"
        )


class ProcessorValidationError(Error, TypeError):
    """A processor does not fit the hook contract; raised at agent construction."""


class ConfigurationError(Error, ValueError):
    """Bad configuration: an unknown plugin name, a wrong option, a bad TOML table."""


class OptionError(ConfigurationError, TypeError):
    """A constructor call that does not fit its signature (a misspelt, missing or extra
    option: ``PIIDetector(strateg=...)``): the ``ConfigurationError`` that ``create()``
    and configuration files raise, and still the ``TypeError`` Python raises for such a
    call, so code that catches either keeps working."""


class ProcessorError(Error):
    """A processor raised something other than ``TripWire`` (fail closed).

    The original exception is chained as ``__cause__``.
    """

    def __init__(self, processor_id: str, hook: str, error: BaseException) -> None:
        super().__init__(
            f"processor {processor_id!r} failed in {hook}: {type(error).__name__}: {error}"
        )
        self.processor_id = processor_id
        self.hook = hook
        self.error = error


class APICallError(Error):
    """A model provider rejected or failed a call.

    ``is_retryable`` says whether sending the same request again may succeed
    (rate limits, overload, server errors, dropped connections).
    ``response_headers`` holds the headers of an HTTP error answer (names in lower
    case, credential values masked), so error processors can read ``Retry-After``.
    """

    def __init__(
        self,
        message: str,
        status_code: int | None = None,
        is_retryable: bool = False,
        response_body: str | None = None,
        url: str | None = None,
        response_headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.is_retryable = is_retryable
        self.response_body = response_body
        self.url = url
        self.response_headers = dict(response_headers) if response_headers else None

    def __repr__(self) -> str:
        return (
            f"APICallError({self.message!r}, status_code={self.status_code!r}, "
            f"is_retryable={self.is_retryable!r}, url={self.url!r})"
        )


class ToolError(Error):
    """A tool answered with an error, or could not be reached (an MCP server that
    timed out, hung, exited or sent a malformed message).

    The run goes on: the model gets ``"ToolError: <message>"`` as the tool's error (a
    ``tool-error`` chunk), and unlike any other exception a tool raises, that text
    passes ``process_tool_result`` first, as a result would: it is the tool's answer
    and can carry what the tool read (an MCP server's ``isError`` content). Raised from
    a run itself only when an agent's MCP server cannot be started or listed.
    """


class MissingDependencyError(ConfigurationError, ImportError):
    """A feature needs a library that is not installed (an extra such as
    ``tripwire[guardrails]``). Raised when the feature is built, never when tripwire
    is imported; the message says what to install."""


def __getattr__(name: str) -> Any:
    if name == "TripwireError":
        return deprecated_error(__name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def deprecated_error(module: str) -> type[Error]:
    """``Error`` under its old name ``TripwireError``, with a ``DeprecationWarning``
    naming the new one (the old name is kept for one release)."""
    warnings.warn(f"{module}.TripwireError is deprecated; use tripwire.Error instead",
                  DeprecationWarning, stacklevel=3)
    return Error
