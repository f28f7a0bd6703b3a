"""The nine lifecycle hooks of a tripwire agent run.

Each docstring below is the reference for its stage. The order in which one
``agent.generate()`` or ``agent.stream()`` call runs them is the lifecycle diagram in
docs/hooks.md ("One run"): ``process_input`` once; per step ``process_input_step``,
``process_llm_request``, the model call (``process_api_error`` when it fails),
``process_output_stream`` per chunk, ``process_llm_response``, ``process_output_step``,
the tools and ``process_tool_result`` per result; ``process_output_result`` once.

**Common arguments.** Besides its own arguments every hook may declare any of:

``abort(reason=None, *, retry=False, metadata=None)``
    Raises ``tripwire.TripWire`` and stops the run. The default reason is
    ``"Tripwire triggered by <processor id>"``. ``retry=True`` asks for the step to be run
    again with the reason given to the model as feedback; this is honoured from
    ``process_output_step`` and ``process_tool_result`` when ``max_processor_retries``
    allows, and reported on the tripwire otherwise.
``retry_count``
    Consecutive processor retries so far (0 on the first try; reset after an accepted
    step). In ``process_api_error`` it counts the API-error retries of this step.
``request_context``
    The call's ``tripwire.RequestContext`` (a mutable mapping).
``tracing_context``
    The call's ``tripwire.TracingContext`` (run id, agent id) for observability.
``state``
    A dict private to this processor (keyed by its id), fresh for each call and shared
    by all of this processor's hooks within the call.
``writer``
    ``await writer.custom({"type": "data-x", "data": {...}, "transient": False})``
    emits a ``data-*`` chunk to the client.
``abort_signal``
    An ``asyncio.Event`` set when the caller cancels the run.

An implementation declares only the arguments it needs (pluggy passes those it
names) and may be ``def`` or ``async def``. Arguments of a hookimpl must not have
default values: pluggy would never pass them.

**Types.** The specs below are fully annotated. The callables a hook is given
(``Abort``, ``SendSignal``, ``Writer``) and the mappings it may return (``InputChanges``,
``StepChanges``, ``PromptChange``, ``CachedResponse``, ``RetryRequest``,
``ToolResultChange``) are in ``tripwire.types``; annotate an implementation with them
to have mypy check it. An ``async def`` implementation returns an awaitable of the
annotated return type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tripwire.hooks._markers import hookspec

if TYPE_CHECKING:
    import asyncio

    from tripwire.chunks import Chunk, ToolCall, Usage
    from tripwire.context import RequestContext, TracingContext
    from tripwire.messages import Message, MessageList
    from tripwire.models import Model
    from tripwire.results import OutputResult, StepResult
    from tripwire.tools import Tool
    from tripwire.types import (
        Abort,
        CachedResponse,
        InputChanges,
        PromptChange,
        RetryRequest,
        SendSignal,
        StepChanges,
        SystemMessage,
        ToolResultChange,
        Writer,
    )

#: Hooks that make a processor an input processor.
INPUT_HOOKS = ("process_input", "process_input_step", "process_llm_request", "process_llm_response")
#: Hooks that make a processor an output processor.
OUTPUT_HOOKS = ("process_output_stream", "process_output_step", "process_output_result")
#: Output processors also run this one.
TOOL_HOOKS = ("process_tool_result",)
#: Hooks that make a processor an error processor.
ERROR_HOOKS = ("process_api_error",)
ALL_HOOKS = INPUT_HOOKS + ERROR_HOOKS + OUTPUT_HOOKS + TOOL_HOOKS

#: Arguments every hook may declare.
COMMON_ARGS = (
    "abort",
    "retry_count",
    "request_context",
    "tracing_context",
    "state",
    "writer",
    "abort_signal",
)


@hookspec
def process_input(
    messages: list[Message],
    system_messages: list[SystemMessage],
    message_list: MessageList,
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> list[Message] | MessageList | InputChanges | None:
    """Validate or transform the user's input, once, before the agent loop starts.

    Runs on input processors in list order, each receiving the previous one's output.

    :param messages: the input messages of this call (no system messages). Editing
        ``content.parts`` in place is seen by later processors.
    :param system_messages: the system messages (``{"role": "system", "content": str}``).
    :param message_list: the live ``MessageList``.

    Return one of:

    * ``None`` or the same ``message_list``: unchanged (or mutated in place);
    * a ``list[Message]``: replaces the input messages (missing ones are removed);
    * ``{"messages": [...], "system_messages": [...]}``: replaces either or both.

    Example::

        @hookimpl
        def process_input(self, messages, abort):
            if any("DROP TABLE" in m.text for m in messages):
                abort("SQL in input")
    """


@hookspec
def process_input_step(
    messages: list[Message],
    message_list: MessageList,
    step_number: int,
    steps: list[StepResult],
    system_messages: list[SystemMessage],
    model: Model,
    tool_choice: Any,
    active_tools: list[str] | None,
    tools: dict[str, Tool],
    provider_options: dict[str, Any],
    model_settings: dict[str, Any],
    structured_output: Any,
    send_signal: SendSignal,
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> list[Message] | MessageList | StepChanges | None:
    """Adjust one step before its model call: messages, model, tools, settings.

    Runs at every step (0-based ``step_number``), on input processors in list order,
    then on ``prepare_step``. Each processor sees the values the previous one chose.
    System-message changes last for this step only: they are reset at each step.

    :param messages: all messages so far, including earlier steps' tool calls/results.
    :param steps: the ``StepResult`` of each earlier step.
    :param model: the model this step will call.
    :param tools: ``{name: Tool}`` available this step; ``active_tools`` limits them.
    :param send_signal: ``await send_signal({"type": "reactive", "contents": str,
        "attributes": {...}, "transient": False, "tag_name": "system-reminder"})`` adds a
        user message ``<system-reminder k="v">contents</system-reminder>``; a transient
        signal reaches this model call only and is never stored.

    Return ``None``, the same ``message_list``, a ``list[Message]`` (replaces the
    messages), or a mapping with any of ``model`` (a ``Model`` or a router id such as
    ``"openai/gpt-5-mini"``), ``tool_choice``, ``active_tools``, ``tools``, ``messages``,
    ``message_list``, ``system_messages``, ``provider_options``, ``model_settings``,
    ``structured_output``.

    Example::

        @hookimpl
        def process_input_step(self, step_number):
            if step_number > 3:
                return {"tool_choice": "none"}
    """


@hookspec
def process_llm_request(
    prompt: list[dict[str, Any]],
    model: Model,
    step_number: int,
    steps: list[StepResult],
    tools: dict[str, Tool],
    tool_choice: Any,
    model_settings: dict[str, Any],
    provider_options: dict[str, Any],
    structured_output: Any,
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> PromptChange | CachedResponse | None:
    """Rewrite the provider-facing prompt of this one model call, or answer it.

    Runs after the ``MessageList`` was converted to the provider-facing prompt and
    just before the provider is called, on input processors in list order. Changes
    are never persisted: they do not reach the ``MessageList``, memory, or later calls.

    :param prompt: ``[{"role": "system", "content": str}, {"role": "user", "content":
        [parts]}, ...]`` with parts ``{"type": "text", "text"}``, ``{"type": "file", ...}``,
        ``{"type": "reasoning", "text"}``, ``{"type": "tool-call", ...}``,
        ``{"type": "tool-result", ...}``.
    :param tools: the tools this call offers the model (the active ones), by name;
        ``tool_choice``, ``model_settings``, ``provider_options``, ``structured_output``:
        this call's settings, as ``process_input_step`` left them. Read-only here: they
        are what a response cache must key on besides the prompt.
    :param state: the same object ``process_llm_response`` will get for this step.

    Return ``None`` (unchanged), ``{"prompt": [...]}`` to replace the prompt for this
    call, or ``{"response": [Chunk, ...]}`` to skip the model call: the chunks are
    replayed through the output processors like a live response (a cache hit).

    Example::

        @hookimpl
        def process_llm_request(self, prompt):
            return {"prompt": [m for m in prompt if m["role"] != "tool"]}
    """


@hookspec
def process_llm_response(
    chunks: list[Chunk],
    model: Model,
    step_number: int,
    steps: list[StepResult],
    from_cache: bool,
    warnings: list[Any],
    request: Any,
    raw_response: Any,
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> None:
    """See the complete response of one step, after its stream was processed.

    Pairs with ``process_llm_request`` (same ``state`` object): store a cache key
    there, write the cache here. Runs on input processors in list order.

    :param chunks: the chunks the model produced (or the cache replayed), before
        output processing.
    :param from_cache: True when ``process_llm_request`` answered the call; a cache
        writer should skip writing then.
    :param warnings: warnings the provider reported; ``request``/``raw_response``:
        provider request body and raw response, when the provider gives them.

    Return ``None``; the return value is reserved.

    Example::

        @hookimpl
        async def process_llm_response(self, chunks, from_cache, state):
            if not from_cache:
                await self.cache.set(state["key"], chunks)
    """


@hookspec
def process_api_error(
    error: BaseException,
    messages: list[Message],
    message_list: MessageList,
    step_number: int,
    steps: list[StepResult],
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> RetryRequest | None:
    """Recover from a failed model call by changing the request and retrying.

    Runs when the model call raises (typically ``tripwire.APICallError`` for a 400 or
    422 the provider rejected), on every processor of the call that implements it:
    input processors, then output processors, then error processors. The first one
    that returns ``{"retry": True}`` wins: later ones are not called and the call is
    retried with the (possibly changed) ``message_list``. The limit is
    ``max_processor_retries``, default 10 when error processors are configured.

    :param error: the exception the model call raised.
    :param retry_count: API-error retries already made in this step.

    Return ``{"retry": True}`` to retry, ``None`` to let the error end the run.

    Example::

        @hookimpl
        def process_api_error(self, error, message_list, retry_count):
            if retry_count == 0 and "context length" in str(error):
                message_list.remove_by_ids([message_list.all.db()[0].id])
                return {"retry": True}
    """


@hookspec
def process_output_stream(
    part: Chunk,
    stream_parts: list[Chunk],
    message_list: MessageList,
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> Chunk | list[Chunk] | None:
    """Filter, rewrite or hold back each streamed chunk before the client sees it.

    Runs on output processors in list order for every chunk of every step, live or
    replayed from a cache, including ``step-start``, ``tool-call`` (the tool runs with
    the arguments that come out), ``tool-result``, ``step-finish``, ``step-retry`` (the
    step is discarded: content released in answer to it is dropped), a terminal
    ``error`` (once; it cannot be dropped) and the final ``finish`` chunk (so a
    processor that buffers can flush there; ``finish`` passes before
    ``process_output_result`` runs). ``data-*`` chunks reach only processors with
    ``process_data_parts = True``. A returned chunk is checked: a malformed one (a
    ``text-delta`` without string ``text``, a ``tool-call`` without its ids) is a
    ``ProcessorError``.

    :param part: the current chunk.
    :param stream_parts: every chunk this processor has been given so far in the call,
        the current one last.

    Return the chunk (or a new one) to pass it on; ``None`` to drop this one chunk for
    every later processor and the client; a ``list[Chunk]`` to emit several chunks in
    order (each passes the later processors): this is how a processor that held
    chunks back releases them (if a later processor aborts on one of them, those
    before it still reach the client). Call ``abort()`` to end the stream with a
    tripwire.

    Example::

        @hookimpl
        def process_output_stream(self, part):
            if part.type == "text-delta" and "secret" in part.payload["text"]:
                return None
            return part
    """


@hookspec
def process_output_step(
    messages: list[Message],
    message_list: MessageList,
    step_number: int,
    finish_reason: str,
    provider_metadata: dict[str, Any] | None,
    tool_calls: list[ToolCall],
    text: str,
    usage: Usage,
    system_messages: list[SystemMessage],
    steps: list[StepResult],
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> list[Message] | MessageList | None:
    """Check each model step before its tools run; the place for retrying guardrails.

    Runs after every model step on output processors in list order.
    ``abort(reason, retry=True)`` rejects the step: it stays in ``steps`` marked with
    its tripwire, its text leaves the final text, its tool calls never run, the
    messages roll back to the step boundary and the model is called again with the
    reason as a ``<system-reminder>`` at the end of the prompt (while
    ``max_processor_retries`` allows; otherwise the run ends as a tripwire).

    :param messages: all messages, including this step's response.
    :param text: this step's text; ``tool_calls``: the calls it asked for.
    :param steps: all steps so far, including this one.

    Return ``None``, the same ``message_list``, or a ``list[Message]`` (reconciled
    with the messages it was given: missing ones are removed). An empty list means
    no change, as in the reference guide's validators that ``return []`` after a
    conditional ``abort(..., retry=True)``.

    Example::

        @hookimpl
        def process_output_step(self, text, abort, retry_count):
            if len(text) < 20 and retry_count < 2:
                abort("Answer in full sentences.", retry=True)
    """


@hookspec
def process_tool_result(
    messages: list[Message],
    message_list: MessageList,
    step_number: int,
    tool_name: str,
    tool_call_id: str,
    args: dict[str, Any],
    result: Any,
    provider_executed: bool,
    system_messages: list[SystemMessage],
    steps: list[StepResult],
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> ToolResultChange | None:
    """Inspect or redact a tool's result before the model and the client see it.

    Runs on output processors in list order after each tool call that succeeded
    (never for a tool that raised, except with ``tripwire.ToolError``: its text is
    the tool's answer, an MCP server's error included, and passes here as ``result``
    before it reaches the model as the tool's error). To change the result return ``{"result": value}``
    (or call ``message_list.update_tool_invocation(part)``): the next model call, the
    stored history, ``result.steps`` and the streamed ``tool-result`` chunk all carry
    the processed value, and later processors see it as ``result``. ``abort()`` ends
    the run (the raw result is not kept); ``abort(reason, retry=True)`` rejects the
    whole step like ``process_output_step`` does.

    :param result: the value the tool returned (after earlier processors' changes).
    :param provider_executed: True for tools the provider ran itself.

    Return ``None`` (unchanged) or ``{"result": value}``; anything else is a
    ``ProcessorError``.

    Example::

        @hookimpl
        def process_tool_result(self, result):
            return {"result": {**result, "ssn": "[REDACTED]"}}
    """


@hookspec
def process_output_result(
    messages: list[Message],
    message_list: MessageList,
    result: OutputResult,
    abort: Abort,
    retry_count: int,
    request_context: RequestContext,
    tracing_context: TracingContext,
    state: dict[str, Any],
    writer: Writer,
    abort_signal: asyncio.Event,
) -> list[Message] | MessageList | None:
    """Post-process the finished response, once, after the last step.

    Runs on output processors in list order, before the final ``finish`` chunk.
    Changes to the response messages are reflected in the final text.

    :param messages: the response messages of this call.
    :param result: ``OutputResult(text, usage, finish_reason, steps, object)``; its
        ``text``, ``usage``, ``finish_reason`` and ``steps`` are read-only (assigning
        them is an error: change the messages, and ``result.text`` follows them);
        ``object`` may be set (it becomes ``result.object``).

    Return ``None``, the same ``message_list``, or a ``list[Message]`` (replaces the
    response messages). An ``abort()`` here rejects the whole response: the run's
    text is ``""`` and none of its response messages are kept. The ``finish`` chunk
    has already passed ``process_output_stream`` (state written there is visible
    here); the client receives it after this hook.

    Example::

        @hookimpl
        def process_output_result(self, result, state):
            log.info("tokens used: %s", result.usage.total_tokens)
    """
