"""The ``Processor`` base class and the small records processors deal in."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, cast

import attrs

from tripwire.option_checks import names_the_valid_options


@attrs.frozen
class ProcessorViolation:
    """What ``on_violation`` receives: who detected what, with processor-specific detail."""

    processor_id: str
    message: str
    detail: Any = None


@attrs.frozen
class TripwireInfo:
    """Why a run was stopped by a processor (``result.tripwire``)."""

    reason: str
    retry: bool = False
    metadata: Any = None
    processor_id: str | None = None
    #: True when a check running beside the model call (``parallel`` mode) aborted
    #: and the model call was cancelled: no chunk of it reached the client.
    model_call_cancelled: bool = False


class Processor:
    """Base class for processors (subclassing is optional: any object with an ``id``
    and ``@hookimpl`` methods works).

    Attributes:
        id: unique identifier (required), used for state, tracing and errors.
        name: display name; defaults to ``id``.
        description: optional text shown by ``tripwire plugins``.
        process_data_parts: when True, ``process_output_stream`` also sees ``data-*``
            chunks.
        on_violation: called with a ``ProcessorViolation`` on every abort and on
            warn-strategy detections; what it raises is logged and swallowed.
        processor_index: position in the combined list, set by the runtime.
        fail_open: when True, an exception from this processor is logged and its
            input passed on unchanged, instead of ending the run.
        mode: how ``process_input`` of an input processor runs: ``"blocking"``
            (before the model call, may change the input), ``"parallel"`` (beside the
            model call, whose chunks are held until it passes; it may only check) or
            ``"monitor"`` (beside the run, never delaying or changing it; its verdict
            goes to ``on_violation`` and the audit).
    """

    id: str
    description: str | None = None
    process_data_parts: bool = False
    on_violation: Callable[[ProcessorViolation], Any] | None = None
    processor_index: int | None = None
    fail_open: bool = False
    mode: str = "blocking"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass's ``__init__`` names the processor, the misspelt or missing
        option(s) and the valid ones when a call does not fit its signature
        (``processor 'pii-detector' has no option 'strateg'; valid options: ...``), as
        ``tripwire.plugins.create()`` and configuration files do, instead of Python's
        bare ``TypeError``; a call that fits costs nothing more.

        Only an ``__init__`` the class body defines (or a slotted attrs class's) is
        wrapped; none is added to a class without one: ``@dataclass`` and
        ``@attrs.define`` write their own only where the class has none, and a class
        earlier in a subclass's order would hide a mixin's ``__init__``."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if inspect.isfunction(init):
            setattr(cls, "__init__", names_the_valid_options(init))  # noqa: B010 (mypy: method-assign)

    @property
    def name(self) -> str:
        return cast(str, self.__dict__.get("_name") or getattr(self, "id", type(self).__name__))

    @name.setter
    def name(self, value: str) -> None:
        self.__dict__["_name"] = value

    def __repr__(self) -> str:
        return f"<{type(self).__name__} id={getattr(self, 'id', None)!r}>"
