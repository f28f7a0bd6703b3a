"""The types of the hook contract: the callables a hook is given and the mappings it
may return.

The hookspecs (``tripwire.hookspecs``) are annotated with these, and the runtime checks
of what hooks return (``tripwire.hooks._returns``) take their valid keys from the TypedDicts
below, so the types and the checks cannot drift apart. Annotate an implementation with
them to have mypy check it::

    from tripwire import hookimpl
    from tripwire.types import Abort, StepChanges

    class Budget:
        @hookimpl
        def process_input_step(self, step_number: int, abort: Abort) -> StepChanges | None:
            if step_number > 8:
                abort("step budget spent")
            return {"tool_choice": "none"} if step_number > 5 else None

The TypedDicts are ``total=False``: a hook returns any subset of their keys (the
hookspec's docstring says what each one does). An ``async def`` implementation returns
an awaitable of the same shape.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypedDict

from tripwire.stream._writer import Writer

if TYPE_CHECKING:
    from tripwire.chunks import Chunk
    from tripwire.messages import Message, MessageList
    from tripwire.models import Model
    from tripwire.tools import Tool


class Abort(Protocol):
    """The ``abort`` argument of every hook: raises ``tripwire.TripWire`` and never
    returns. ``retry=True`` asks for the step to be run again with ``reason`` as
    feedback (honoured from ``process_output_step`` and ``process_tool_result``)."""

    def __call__(
        self, reason: str | None = None, *, retry: bool = False, metadata: Any = None
    ) -> NoReturn: ...


class SendSignal(Protocol):
    """The ``send_signal`` argument of ``process_input_step``: ``await
    send_signal({"type": "reactive", "contents": str, "attributes": {...},
    "transient": False, "tag_name": "system-reminder"})`` adds the signal as a user
    message (and returns it); only ``contents`` is required."""

    def __call__(self, signal: Mapping[str, Any], /) -> Awaitable[Message]: ...


#: A system message as hooks receive it (``{"role": "system", "content": str}``); they
#: may return plain strings (or ``Message`` objects) in its place.
SystemMessage = dict[str, Any]


class InputChanges(TypedDict, total=False):
    """``process_input`` may return this mapping: replaces either or both."""

    messages: list[Message]
    system_messages: Iterable[str | SystemMessage | Message]


class StepChanges(TypedDict, total=False):
    """``process_input_step`` may return this mapping: each key given replaces that
    setting for this step (for the following processors and the model call)."""

    #: a ``Model`` or a router id such as ``"openai/gpt-5-mini"``
    model: Model | str
    tool_choice: Any
    #: names of the tools the model may call this step (``None``: all of them)
    active_tools: Iterable[str] | None
    #: tools (or ``@tool`` functions), as a list or a mapping name -> tool
    tools: Iterable[Tool | Any] | Mapping[str, Tool | Any]
    messages: list[Message]
    #: the same ``message_list`` (mutated in place); not with ``messages``
    message_list: MessageList
    system_messages: Iterable[str | SystemMessage | Message]
    provider_options: Mapping[str, Any]
    model_settings: Mapping[str, Any]
    structured_output: Any


class PromptChange(TypedDict, total=False):
    """``process_llm_request`` may return this mapping: the provider-facing prompt of
    this one model call."""

    prompt: list[dict[str, Any]]


class CachedResponse(TypedDict, total=False):
    """``process_llm_request`` may return this mapping: the model call is skipped and
    these chunks (``Chunk`` objects or their dicts) are replayed (a cache hit)."""

    response: Sequence[Chunk | Mapping[str, Any]]


class RetryRequest(TypedDict, total=False):
    """``process_api_error`` may return this mapping: ``{"retry": True}`` retries the
    failed model call."""

    retry: bool


class ToolResultChange(TypedDict, total=False):
    """``process_tool_result`` may return this mapping: ``{"result": value}`` replaces
    the tool's result everywhere it goes (the model, the history, the client)."""

    result: Any


__all__ = [
    "Abort",
    "CachedResponse",
    "InputChanges",
    "PromptChange",
    "RetryRequest",
    "SendSignal",
    "StepChanges",
    "SystemMessage",
    "ToolResultChange",
    "Writer",
]
