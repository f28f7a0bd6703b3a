"""The agent and its loop: where the nine hooks are called, in order.

One ``_Run`` per ``generate()``/``stream()`` call holds everything that call owns
(message list, per-processor state, retry counters), so concurrent calls on one
``Agent`` never see each other. ``generate()`` consumes the same chunk stream as
``stream()``: no path can skip a processor that another path runs.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import aclosing
from types import CoroutineType
from typing import Any

import attrs

import tripwire.hookspecs as hookspecs
from tripwire._runner import (
    FAILED_OPEN,
    CompiledProcessor,
    HookImplInfo,
    call_hook,
    compile_list,
    compile_processor,
    handle_failure,
    make_abort,
    on_tripwire,
    with_hook,
)
from tripwire._serde import chunk_from_dict
from tripwire.chunks import Chunk, ToolCall, ToolResult, Usage, check_chunk
from tripwire.context import RequestContext, TracingContext
from tripwire.errors import APICallError, ConfigurationError, TripWire
from tripwire.messages import (
    DataPart,
    Message,
    MessageList,
    ReasoningPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    coerce_message,
    coerce_system_list,
    message_to_core,
    new_id,
    signal_message,
)
from tripwire.models import Model, ModelRequest, model_label, resolve_model
from tripwire.options import check_int
from tripwire.processor import TripwireInfo
from tripwire.tools import Tool, coerce_tools

log = logging.getLogger("tripwire")

ProcessorList = Sequence[Any] | Callable[[RequestContext], Sequence[Any]] | None

# Chunks that carry a step's content (what a discarded attempt must not leak).
_STEP_CONTENT = frozenset({"text-delta", "reasoning-delta", "tool-call", "tool-result",
                           "tool-error"})

_STEP_KEYS = (
    "model", "tool_choice", "active_tools", "tools", "messages", "message_list",
    "system_messages", "provider_options", "model_settings", "structured_output",
)


# ---------------------------------------------------------------- results


@attrs.define
class StepResult:
    """One model call of a run. A step rejected by a retry keeps its ``tripwire``."""

    step_number: int
    text: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCall] = attrs.field(factory=list)
    tool_results: list[ToolResult] = attrs.field(factory=list)
    finish_reason: str = "unknown"
    usage: Usage = attrs.field(factory=Usage)
    from_cache: bool = False
    provider_metadata: dict[str, Any] | None = None
    warnings: list[Any] = attrs.field(factory=list)
    tripwire: TripwireInfo | None = None
    #: The provider's request body and raw response (status, headers with credentials
    #: masked) of this step: server-side only, never streamed to the client.
    request: Any = attrs.field(default=None, repr=False)
    response: Any = attrs.field(default=None, repr=False)


_READ_ONLY = frozenset({"text", "usage", "finish_reason", "steps"})


@attrs.define
class OutputResult:
    """What ``process_output_result`` receives as ``result``.

    ``text``, ``usage``, ``finish_reason`` and ``steps`` describe the response and are
    read-only: to change what the client and the stored history get, edit or return
    the response ``messages`` (``result.text`` then follows them). A processor may set
    ``object`` (a parsed structured output); it becomes ``result.object`` and an
    ``object-result`` chunk.
    """

    text: str
    usage: Usage
    finish_reason: str
    steps: list[StepResult]
    object: Any = None

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _READ_ONLY and hasattr(self, "object"):
            raise AttributeError(
                f"result.{name} is read-only in process_output_result: to change the "
                f"response, edit the messages (message.content.parts) or return a list of "
                f"messages; result.text follows them. result.object may be set."
            )
        object.__setattr__(self, name, value)


@attrs.define
class GenerateResult:
    """The outcome of ``agent.generate()``.

    ``messages`` are the messages this call produced; ``message_list`` the whole
    conversation. ``tripwire`` is set (and ``finish_reason`` is ``"other"``) when a
    processor stopped the run.
    """

    text: str
    finish_reason: str
    usage: Usage
    steps: list[StepResult]
    messages: list[Message]
    message_list: MessageList
    tripwire: TripwireInfo | None = None
    object: Any = None
    run_id: str = ""

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [c for s in self.steps if s.tripwire is None for c in s.tool_calls]

    @property
    def tool_results(self) -> list[ToolResult]:
        return [r for s in self.steps if s.tripwire is None for r in s.tool_results]


# ---------------------------------------------------------------- services handed to hooks


class Writer:
    """Lets a hook (or a tool) emit ``data-*`` chunks to the client."""

    __slots__ = ("_run", "_emitter")

    def __init__(self, run: _Run, emitter: str | None) -> None:
        self._run = run
        self._emitter = emitter

    async def custom(self, chunk: Mapping[str, Any] | Chunk) -> None:
        """Emit ``{"type": "data-...", "data": ..., "transient": bool}``.

        Transient chunks reach the client but are not stored with the message.
        """
        if isinstance(chunk, Chunk):
            out = chunk
        elif isinstance(chunk, Mapping):
            kind = chunk.get("type")
            if not isinstance(kind, str) or not kind.startswith("data-"):
                raise ValueError(
                    f"writer.custom() needs a chunk whose type starts with 'data-', got {kind!r}"
                )
            unknown = set(chunk) - {"type", "data", "transient", "id"}
            if unknown:
                raise ValueError(
                    f"writer.custom(): unknown key(s) {sorted(unknown)}; valid: type, data, "
                    f"transient, id"
                )
            payload = {"data": chunk.get("data")}
            if "id" in chunk:
                payload["id"] = chunk["id"]
            out = Chunk(kind, payload, run_id=self._run.run_id,
                        transient=bool(chunk.get("transient", False)))
        else:
            raise TypeError(f"writer.custom() takes a mapping, got {type(chunk).__name__}")
        if not out.type.startswith("data-"):
            raise ValueError(f"writer.custom() only emits data-* chunks, got {out.type!r}")
        self._run.pending.append((out, self._emitter))


class _RetryStep(Exception):
    """Internal: a processor asked for the current step to be run again."""

    def __init__(self, tripwire: TripWire) -> None:
        self.tripwire = tripwire


@attrs.define
class _StepConfig:
    model: Any
    tools: dict[str, Tool]
    tool_choice: Any
    active_tools: list[str] | None
    system_messages: list[dict[str, Any]]
    provider_options: dict[str, Any]
    model_settings: dict[str, Any]
    structured_output: Any


class _StreamStage:
    """One output processor's ``process_output_stream`` with its arguments bound once
    per call: per chunk, the runner stores the chunk in one slot and calls the
    function positionally (as pluggy does), nothing else."""

    __slots__ = ("cp", "fn", "args", "part_index", "parts", "data", "texts", "dropped",
                 "released")

    def __init__(self, cp: CompiledProcessor, common: dict[str, Any], message_list: MessageList):
        impl = cp.impls["process_output_stream"]
        self.cp = cp
        self.fn = impl.function
        self.part_index = impl.argnames.index("part") if "part" in impl.argnames else -1
        self.parts: list[Chunk] | None = [] if "stream_parts" in impl.argnames else None
        self.data = cp.process_data_parts
        values = {"stream_parts": self.parts, "message_list": message_list, "part": None}
        self.args = [values[a] if a in values else common[a] for a in impl.argnames]
        # Text deltas seen and dropped: a processor that drops every one of them and
        # never releases held chunks has most likely forgotten to ``return part``
        # (warned once, after the run).
        self.texts = 0
        self.dropped = 0
        self.released = False

    def set_arg(self, name: str, value: Any) -> None:
        impl = self.cp.impls["process_output_stream"]
        if name in impl.argnames:
            self.args[impl.argnames.index(name)] = value


_warned_drop_all: weakref.WeakSet[Any] = weakref.WeakSet()


def _warn_if_dropped_all(stages: Sequence[_StreamStage]) -> None:
    for stage in stages:
        if stage.texts and stage.dropped == stage.texts and not stage.released:
            processor = stage.cp.processor
            try:
                if processor in _warned_drop_all:
                    continue
                _warned_drop_all.add(processor)
            except TypeError:  # not weak-referenceable: warn every time
                pass
            log.warning(
                "processor %r dropped every text-delta of this run (%d): its "
                "process_output_stream returned None for each. Return the part (or a new "
                "chunk) to pass it on; None drops that one chunk.", stage.cp.id, stage.texts,
            )


# ---------------------------------------------------------------- the agent


class Agent:
    """An LLM agent whose every stage runs the processors' hooks.

    ``input_processors``, ``output_processors`` and ``error_processors`` are lists (or
    callables taking the ``RequestContext`` and returning a list). ``max_processor_retries``
    bounds retries requested by processors (unset: a retry request ends the run as a
    tripwire; API-error retries then default to 10 when error processors run).
    """

    def __init__(
        self,
        *,
        id: str,
        model: str | Model,
        instructions: str | Sequence[str] | None = None,
        name: str | None = None,
        description: str | None = None,
        tools: Iterable[Tool | Callable[..., Any]] | Mapping[str, Tool] | None = None,
        input_processors: ProcessorList = None,
        output_processors: ProcessorList = None,
        error_processors: ProcessorList = None,
        max_processor_retries: int | None = None,
        max_steps: int = 5,
        default_error_processors: bool = True,
        model_settings: Mapping[str, Any] | None = None,
        provider_options: Mapping[str, Any] | None = None,
        tool_choice: Any = None,
    ) -> None:
        if not isinstance(id, str) or not id:
            raise ConfigurationError("Agent needs a non-empty string id")
        self.id = id
        self.name = name or id
        self.description = description
        self._owned_models: dict[str, Model] = {}
        self.model = self._resolve(model)
        if instructions is None:
            self.instructions: list[str] = []
        elif isinstance(instructions, str):
            self.instructions = [instructions]
        else:
            self.instructions = list(instructions)
        self.tools = coerce_tools(tools)
        self.input_processors = input_processors
        self.output_processors = output_processors
        self.error_processors = error_processors
        # Validate static lists now: a misspelt hook fails at construction, not mid-run.
        self._compiled = {
            kind: compile_list(procs, kind) if not callable(procs) else None
            for kind, procs in (
                ("input", input_processors),
                ("output", output_processors),
                ("error", error_processors),
            )
        }
        check_int("max_processor_retries", max_processor_retries, allow_none=True)
        check_int("max_steps", max_steps, minimum=1)
        self.max_processor_retries = max_processor_retries
        self.max_steps = max_steps
        self.default_error_processors = default_error_processors
        self._defaults = compile_list(_default_error_processors(), "error") if default_error_processors else []
        self.model_settings = dict(model_settings or {})
        self.provider_options = dict(provider_options or {})
        self.tool_choice = tool_choice
        self._warned_retry_budget = False

    @classmethod
    def from_config(cls, path: str, name: str, **overrides: Any) -> Agent:
        """Build the agent ``[agents.NAME]`` of a TOML file (see docs/configuration.md)."""
        from tripwire.config import agent_kwargs

        kwargs = agent_kwargs(path, name)
        kwargs.update(overrides)
        return cls(**kwargs)

    def _resolve(self, model: str | Model) -> Model:
        if isinstance(model, str):
            if model not in self._owned_models:
                self._owned_models[model] = resolve_model(model)
            return self._owned_models[model]
        return resolve_model(model)

    async def aclose(self) -> None:
        """Close the HTTP sessions of the models this agent created from router ids.

        The models stay usable: a closed provider opens a new session on its next call.
        """
        await _close_models(self._owned_models.values())

    async def __aenter__(self) -> Agent:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"<Agent id={self.id!r}>"

    def _warn_implicit_retry_budget(self) -> None:
        """Say once per agent that API-error retries run on the implicit budget."""
        if self._warned_retry_budget:
            return
        self._warned_retry_budget = True
        log.warning(
            "agent %r: an error processor asked to retry a failed model call and "
            "max_processor_retries is not set, so up to %d API-error retries per step are "
            "allowed; set max_processor_retries on the agent or the call to choose the "
            "limit (this is said once per agent)", self.id, _DEFAULT_API_ERROR_RETRIES,
        )

    # -- public calls
    async def generate(self, messages: Any, **options: Any) -> GenerateResult:
        """Run the agent to completion and return the result.

        ``messages``: a string, a ``Message``, a ``{"role", "content"}`` dict, or a list.
        Options: max_steps, max_processor_retries, input_processors, output_processors,
        error_processors, prepare_step, request_context, model_settings,
        provider_options, tool_choice, active_tools, structured_output (an attrs class, a
        JSON Schema, or StructuredOutput options: adds a ``structured-output`` processor to
        both lists for this call; the parsed value is ``result.object``).
        """
        return await _complete(_Run(self, messages, options))

    def stream(self, messages: Any, **options: Any) -> AgentStream:
        """Start a run and return its ``AgentStream`` (same options as ``generate``)."""
        return AgentStream(_Run(self, messages, options))

    def generate_sync(self, messages: Any, **options: Any) -> GenerateResult:
        """Blocking ``generate`` for scripts and notebooks without a running loop.

        It runs its own event loop, then closes the HTTP sessions the run opened in it
        (of every model the run used, yours included: they reopen on their next call),
        so repeated calls leak no connection. Inside a running event loop, use
        ``await agent.generate(...)``.
        """
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError(
                "generate_sync() was called inside a running event loop (it runs its own); "
                "use `await agent.generate(...)` there"
            )
        run = _Run(self, messages, options)

        async def main() -> GenerateResult:
            try:
                return await _complete(run)
            finally:
                await _close_models([*run.models_used, *self._owned_models.values()])

        return asyncio.run(main())


async def _complete(run: _Run) -> GenerateResult:
    events = run.events()
    try:
        async for _ in events:
            pass
    finally:
        await events.aclose()
    return run.result()


async def _close_models(models: Iterable[Any]) -> None:
    """``aclose()`` each distinct model that has one (HTTP providers)."""
    seen: set[int] = set()
    for model in models:
        closer = getattr(model, "aclose", None)
        if closer is None or id(model) in seen:
            continue
        seen.add(id(model))
        await closer()


def _default_error_processors() -> list[Any]:
    """The error processors every agent gets, unless the environment disables them
    (``TRIPWIRE_DISABLE_PLUGINS`` / ``TRIPWIRE_LOAD_PLUGINS``, as for any plugin)."""
    from tripwire.plugins.prefill_error_handler import PrefillErrorHandler

    if os.environ.get("TRIPWIRE_DISABLE_PLUGINS") or "TRIPWIRE_LOAD_PLUGINS" in os.environ:
        from tripwire import _discovery

        if _discovery.is_blocked(PrefillErrorHandler.id):
            return []
    return [PrefillErrorHandler()]


#: API-error retries granted when error processors run and max_processor_retries is unset.
_DEFAULT_API_ERROR_RETRIES = 10

_OPTIONS = frozenset({
    "max_steps", "max_processor_retries", "input_processors", "output_processors",
    "error_processors", "prepare_step", "request_context", "model_settings",
    "provider_options", "tool_choice", "active_tools", "structured_output",
})


# ---------------------------------------------------------------- the stream


class AgentStream:
    """The chunks of one run, after output processors.

    ``async for chunk in stream`` drives the run. ``await stream.text`` (``usage``,
    ``finish_reason``, ``steps``, ``result``) finishes the run if needed; iterating
    a finished stream replays its chunks. ``stream.tripwire`` is set once a processor
    stopped the run. Breaking out of the loop or cancelling the task stops the model
    call and runs no further hooks; ``await stream.aclose()`` does so explicitly.
    """

    def __init__(self, run: _Run) -> None:
        self._run = run
        self._events: AsyncIterator[Chunk] | None = None
        self._live: Any = None  # the async generator a consumer is iterating
        self._done = False
        self.chunks: list[Chunk] = []

    @property
    def run_id(self) -> str:
        return self._run.run_id

    @property
    def tripwire(self) -> TripwireInfo | None:
        return self._run.tripwire

    def __aiter__(self) -> AsyncIterator[Chunk]:
        if self._events is not None and not self._done:
            raise RuntimeError(
                "this stream is already being consumed; iterate it once (a finished "
                "stream replays its chunks), or await stream.text / stream.result")
        self._live = self._iterate()
        return self._live

    async def _iterate(self) -> AsyncIterator[Chunk]:
        if self._events is not None:
            for chunk in list(self.chunks):
                yield chunk
            return
        self._events = events = self._run.events()
        try:
            async for chunk in events:
                self.chunks.append(chunk)
                yield chunk
        finally:
            self._done = True
            await events.aclose()

    async def _finish(self) -> GenerateResult:
        if self._events is None:
            async for _ in self:
                pass
        elif not self._done:
            # The consumer stopped iterating (``break``) before the end: the run is over,
            # and the result holds what it had produced so far.
            live = self._live
            if live is not None and live.ag_running:
                raise RuntimeError(
                    "the stream is being iterated elsewhere right now; await its result "
                    "after that loop ends")
            await self.aclose()
        return self._run.result()

    def _awaitable(self, attr: str) -> Awaitable[Any]:
        async def get() -> Any:
            return getattr(await self._finish(), attr)

        return get()

    @property
    def result(self) -> Awaitable[GenerateResult]:
        return self._finish()

    @property
    def text(self) -> Awaitable[str]:
        return self._awaitable("text")

    @property
    def usage(self) -> Awaitable[Usage]:
        return self._awaitable("usage")

    @property
    def finish_reason(self) -> Awaitable[str]:
        return self._awaitable("finish_reason")

    @property
    def steps(self) -> Awaitable[list[StepResult]]:
        return self._awaitable("steps")

    @property
    def object(self) -> Awaitable[Any]:
        return self._awaitable("object")

    async def aclose(self) -> None:
        """Stop the run: the model call is closed and no further hook runs.

        Afterwards ``await stream.text`` (``result``, ...) gives what the run had produced
        so far: the accepted steps and the text the current step had streamed."""
        self._run.abort_signal.set()
        if self._events is None:
            self._events = self._run.events()
            self._done = True
        if self._live is not None:
            await self._live.aclose()
        await self._events.aclose()  # type: ignore[attr-defined]
        self._done = True

    async def __aenter__(self) -> AgentStream:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if not self._done:
            await self.aclose()


# ---------------------------------------------------------------- one run


class _Run:
    """Everything one generate/stream call owns."""

    def __init__(self, agent: Agent, messages: Any, options: dict[str, Any]) -> None:
        unknown = set(options) - _OPTIONS
        if unknown:
            raise TypeError(
                f"unknown option(s) {sorted(unknown)}; valid: {', '.join(sorted(_OPTIONS))}"
            )
        self.agent = agent
        self.run_id = new_id()
        self.request_context = RequestContext.coerce(options.get("request_context"))
        self.tracing_context = TracingContext(self.run_id, agent.id)
        self.abort_signal = asyncio.Event()
        self.max_steps = options.get("max_steps", agent.max_steps)
        check_int("max_steps", self.max_steps, minimum=1)
        self.max_retries = options.get("max_processor_retries", agent.max_processor_retries)
        check_int("max_processor_retries", self.max_retries, allow_none=True)
        self.inputs = self._processors("input", options, agent.input_processors)
        prepare_step = options.get("prepare_step")
        if prepare_step is not None:
            self.inputs = self.inputs + [_prepare_step_processor(prepare_step)]
        self.outputs = self._processors("output", options, agent.output_processors)
        if options.get("structured_output") is not None:
            so = compile_processor(_structured_output_processor(options["structured_output"]))
            if all(cp.id != so.id for cp in self.inputs):
                self.inputs = self.inputs + [so]
            if all(cp.id != so.id for cp in self.outputs):
                self.outputs = self.outputs + [so]
        self.errors = self._processors("error", options, agent.error_processors)
        self.errors = self.errors + [d for d in agent._defaults
                                     if all(d.id != e.id for e in self.errors)]
        everything = self.inputs + self.outputs + self.errors
        for index, cp in enumerate(everything):
            try:
                cp.processor.processor_index = index
            except AttributeError:
                pass
        self.states: dict[str, dict[str, Any]] = {}
        self.commons: dict[int, dict[str, Any]] = {}
        self.pending: list[tuple[Chunk, str | None]] = []
        self.message_list = MessageList(system_messages=agent.instructions)
        initial = messages if isinstance(messages, list) else [messages]
        self.message_list.add([coerce_message(m) for m in initial], "input")
        self.base_config = _StepConfig(
            model=agent.model,
            tools=dict(agent.tools),
            tool_choice=options.get("tool_choice", agent.tool_choice),
            active_tools=options.get("active_tools"),
            system_messages=[],
            provider_options={**agent.provider_options, **(options.get("provider_options") or {})},
            model_settings={**agent.model_settings, **(options.get("model_settings") or {})},
            structured_output=None,
        )
        self.steps: list[StepResult] = []
        self.retry_count = 0
        self.tripwire: TripwireInfo | None = None
        self.finish_reason = "unknown"
        self.text = ""
        self.object: Any = None
        self.usage = Usage()
        self.response_rejected = False
        self.writer = Writer(self, None)
        self.stream_stages = [
            _StreamStage(cp, self.common(cp), self.message_list)
            for cp in with_hook(self.outputs, "process_output_stream")
        ]
        self.step_data: list[DataPart] = []
        self.current_message: Message | None = None
        self.current_acc: _StepAccumulator | None = None
        self.models_used: list[Any] = []

    def _processors(self, kind: str, options: dict[str, Any], default: Any) -> list[CompiledProcessor]:
        key = f"{kind}_processors"
        procs = options[key] if key in options else default
        if key not in options and self.agent._compiled[kind] is not None:
            return list(self.agent._compiled[kind])
        if callable(procs):
            procs = procs(self.request_context)
        return compile_list(procs, kind)

    def common(self, cp: CompiledProcessor) -> dict[str, Any]:
        """The common hook arguments of one processor, built once per call."""
        key = id(cp.processor)
        common = self.commons.get(key)
        if common is None:
            common = self.commons[key] = {
                "abort": make_abort(cp.id),
                "retry_count": self.retry_count,
                "request_context": self.request_context,
                "tracing_context": self.tracing_context,
                "state": self.states.setdefault(cp.id, {}),
                "writer": Writer(self, cp.id),
                "abort_signal": self.abort_signal,
            }
        return common

    def _set_retry_count(self, value: int) -> None:
        self.retry_count = value
        for common in self.commons.values():
            common["retry_count"] = value
        for stage in self.stream_stages:
            stage.set_arg("retry_count", value)

    async def call(self, cp: CompiledProcessor, hook: str, values: dict[str, Any]) -> Any:
        return await call_hook(cp, hook, values, self.common(cp))

    # -- the chunk pipeline
    async def through(self, chunk: Chunk, skip: str | None = None, start: int = 0) -> list[Chunk]:
        """Pass one chunk through ``process_output_stream`` of the output processors
        from index ``start`` on; returns what comes out (zero, one or more chunks).

        When a later processor trips on one of several chunks a processor released
        together, the ones before it (which passed every processor) are kept on the
        ``TripWire`` (``_released``) so the client still gets them, in order."""
        stages = self.stream_stages
        is_data = chunk.type.startswith("data-")
        for i in range(start, len(stages)):
            stage = stages[i]
            if (is_data and not stage.data) or (skip is not None and stage.cp.id == skip):
                continue
            if stage.parts is not None:
                stage.parts.append(chunk)
            args = stage.args
            if stage.part_index >= 0:
                args[stage.part_index] = chunk
            is_text = chunk.type == "text-delta"
            if is_text:
                stage.texts += 1
            try:
                r = stage.fn(*args)
                if type(r) is CoroutineType or (
                    r is not None and type(r) is not Chunk and inspect.isawaitable(r)
                ):
                    r = await r
                if r is not chunk and r is not None:
                    if type(r) is list:
                        for c in r:
                            check_chunk(c)
                    elif type(r) is Chunk:
                        check_chunk(r)
                    else:
                        raise TypeError(
                            f"process_output_stream must return a Chunk, None or a list of "
                            f"Chunks, got {type(r).__name__}")
            except TripWire as tw:
                await on_tripwire(stage.cp, tw)
                raise
            except Exception as e:
                handle_failure(stage.cp, "process_output_stream", e)
                r = chunk
            if type(r) is Chunk:
                if r is not chunk:
                    chunk = r
                    is_data = r.type.startswith("data-")
                continue
            if r is None:
                if is_text:
                    stage.dropped += 1
                return []
            # Several chunks: each passes the later processors on its own.
            stage.released = True
            out: list[Chunk] = []
            for c in r:
                try:
                    out.extend(await self.through(c, skip, i + 1))
                except TripWire as tw:
                    tw._released = out + getattr(tw, "_released", [])  # type: ignore[attr-defined]
                    raise
            return out
        return [chunk]

    async def emit(self, chunk: Chunk) -> list[Chunk]:
        """Process a chunk, then any data chunks hooks wrote meanwhile."""
        out = await self.through(chunk)
        if self.pending:
            out.extend(await self.drain())
        for c in out:
            self._observe(c)
        return out

    async def drain(self) -> list[Chunk]:
        out: list[Chunk] = []
        while self.pending:
            chunk, emitter = self.pending.pop(0)
            out.extend(await self.through(chunk, skip=emitter))
        return out

    def _observe(self, chunk: Chunk) -> None:
        # Non-transient data chunks are stored on the current step's assistant message
        # (buffered until the step has one).
        if chunk.type.startswith("data-") and not chunk.transient:
            part = DataPart(chunk.type, chunk.payload.get("data"))
            if self.current_message is not None:
                self.current_message.content.parts.append(part)
            else:
                self.step_data.append(part)

    async def flush(self) -> list[Chunk]:
        """Data chunks written by non-stream hooks, processed and ready to yield."""
        if not self.pending:
            return []
        out = await self.drain()
        for c in out:
            self._observe(c)
        return out

    # -- message-returning hooks
    def apply_messages(
        self, cp: CompiledProcessor, hook: str, result: Any, stage: list[Message], source: str
    ) -> None:
        """Apply a hook's ``list[Message]`` / ``MessageList`` / ``None`` return."""
        if result is None or result is FAILED_OPEN or result is self.message_list:
            return
        if isinstance(result, MessageList):
            handle_failure(cp, hook, ValueError(
                "returned a different MessageList instance than the one passed in; mutate "
                "and return the message_list you were given"))
            return
        if isinstance(result, list):
            try:
                self.message_list.replace_stage(stage, result, source)  # type: ignore[arg-type]
            except (TypeError, ValueError) as e:
                handle_failure(cp, hook, e)
            return
        handle_failure(cp, hook, TypeError(
            f"{hook} must return None, the message_list or a list of Messages, got "
            f"{type(result).__name__}"))

    # -- the loop
    async def events(self) -> AsyncIterator[Chunk]:
        try:
            await self._process_input()
            for c in await self.flush():
                yield c
            run_start = self.message_list.checkpoint()
            step_number = 0
            while True:
                checkpoint = self.message_list.checkpoint()
                try:
                    async with aclosing(self._step(step_number)) as step_chunks:
                        async for c in step_chunks:
                            yield c
                except _RetryStep as retry:
                    tw = retry.tripwire
                    self.steps[-1].tripwire = _info(tw) if self.steps else None
                    self.message_list.rollback(checkpoint)
                    self.message_list.add(
                        signal_message(tw.reason, attributes={"type": "retry-feedback"}),
                        "response",
                    )
                    self._set_retry_count(self.retry_count + 1)
                    for c in await self._step_retry(step_number, tw.reason, tw.processor_id,
                                                    self.retry_count):
                        yield c
                    continue
                except TripWire as tw:
                    # A tripped step is not accepted: its messages are not kept.
                    self.message_list.rollback(checkpoint)
                    last = self.steps[-1] if self.steps else None
                    if last is not None and last.step_number == step_number and last.tripwire is None:
                        last.tripwire = _info(tw)
                    raise
                self._set_retry_count(0)
                step = self.steps[-1]
                if step.tool_calls and step_number + 1 < self.max_steps:
                    step_number += 1
                    continue
                break
            self.text = self._response_text()
            self.finish_reason = self.steps[-1].finish_reason if self.steps else "unknown"
            # ``finish`` passes the stream processors before process_output_result runs
            # (state they write on it is visible there) but reaches the client last.
            finish: list[Chunk] = []
            for c in await self.emit(Chunk(
                "finish", {"finish_reason": self.finish_reason, "usage": self.usage},
                run_id=self.run_id,
            )):
                if c.type == "finish":
                    finish.append(c)
                else:
                    yield c
            output = OutputResult(self.text, self.usage, self.finish_reason, list(self.steps))
            try:
                await self._process_output_result(output)
            except TripWire:
                # The whole response is rejected: none of it is kept or returned.
                self.response_rejected = True
                self.message_list.rollback(run_start)
                raise
            for c in await self.flush():
                yield c
            self.text = self._response_text()
            self.object = output.object
            if output.object is not None:
                for c in await self.emit(Chunk("object-result", {"object": output.object},
                                               run_id=self.run_id)):
                    yield c
            for c in finish:
                yield c
        except TripWire as tw:
            self.tripwire = _info(tw)
            self.finish_reason = "other"
            self.text = "" if self.response_rejected else self._response_text()
            # Chunks released together with the one that tripped, and that passed
            # every processor, still reach the client, before the tripwire.
            for c in getattr(tw, "_released", ()):
                yield c
            yield Chunk("tripwire", {"reason": tw.reason, "retry": tw.retry,
                                     "metadata": tw.metadata, "processor_id": tw.processor_id},
                        run_id=self.run_id)
        except (asyncio.CancelledError, GeneratorExit):
            self.abort_signal.set()
            self.text = self._text_so_far()
            raise
        except Exception as e:
            self.finish_reason = "error"
            for c in await self._error_chunks(e):
                yield c
            raise
        finally:
            _warn_if_dropped_all(self.stream_stages)

    async def _error_chunks(self, error: Exception) -> list[Chunk]:
        """The ``error`` chunk, after the output processors (once). A processor may
        change it but not swallow it: dropped, tripped or failed, the original is sent."""
        chunk = Chunk("error", {"error": error}, run_id=self.run_id)
        try:
            out = await self.through(chunk)
        except Exception:  # TripWire included
            log.debug("an output processor failed on the error chunk; sending the original",
                      exc_info=True)
            out = []
        if not any(c.type == "error" for c in out):
            out.append(chunk)
        return out

    async def _step_retry(
        self, step_number: int, reason: str, processor_id: str | None, retry_count: int
    ) -> list[Chunk]:
        """The ``step-retry`` chunk that tells clients to discard the step, after the
        output processors. Content a processor held back from the discarded attempt and
        releases now is dropped with it: it must reach neither the client nor the text."""
        self.step_data = []
        out = await self.emit(Chunk(
            "step-retry",
            {"step_number": step_number, "reason": reason, "processor_id": processor_id,
             "retry_count": retry_count},
            run_id=self.run_id,
        ))
        return [c for c in out if c.type not in _STEP_CONTENT]

    def _text_so_far(self) -> str:
        """The text of a run closed early: accepted steps, plus what the current step
        had streamed."""
        text = self._response_text()
        if self.current_acc is not None:
            text += "".join(self.current_acc.text)
        return text

    def _response_text(self) -> str:
        return "".join(
            m.text for m in self.message_list.response.db()
            if m.role == "assistant" and not m.is_signal
        )

    async def _process_input(self) -> None:
        for cp in with_hook(self.inputs, "process_input"):
            stage = self.message_list.all.db()
            result = await self.call(cp, "process_input", {
                "messages": stage,
                "system_messages": list(self.message_list.system_messages),
                "message_list": self.message_list,
            })
            if isinstance(result, Mapping):
                unknown = set(result) - {"messages", "system_messages"}
                if unknown:
                    handle_failure(cp, "process_input", ValueError(
                        f"unknown key(s) {sorted(unknown)}; valid: messages, system_messages"))
                    continue
                if "system_messages" in result:
                    try:
                        self.message_list.system_messages = coerce_system_list(
                            result["system_messages"])
                    except (TypeError, ValueError) as e:
                        handle_failure(cp, "process_input", e)
                        continue
                if "messages" in result:
                    self.apply_messages(cp, "process_input", result["messages"], stage, "input")
            else:
                self.apply_messages(cp, "process_input", result, stage, "input")

    async def _process_input_step(
        self, step_number: int, config: _StepConfig, transient: list[Message]
    ) -> None:
        async def send_signal(signal: Mapping[str, Any]) -> Message:
            if not isinstance(signal, Mapping) or not isinstance(signal.get("contents"), str):
                raise ValueError("send_signal needs a mapping with a string 'contents'")
            unknown = set(signal) - {"type", "contents", "attributes", "transient", "tag_name"}
            if unknown:
                raise ValueError(
                    f"send_signal: unknown key(s) {sorted(unknown)}; valid: type, contents, "
                    f"attributes, transient, tag_name")
            message = signal_message(
                signal["contents"],
                attributes=signal.get("attributes"),
                tag_name=signal.get("tag_name", "system-reminder"),
                signal_type=signal.get("type", "reactive"),
            )
            if signal.get("transient"):
                message.content.metadata["signal"]["transient"] = True
                transient.append(message)
            else:
                self.message_list.add(message, "response" if self.steps else "input")
            # Clients see the signal too, as a transient data chunk (never stored).
            await self.writer.custom({"type": "data-signal", "transient": True, "data": {
                "type": signal.get("type", "reactive"),
                "contents": signal["contents"],
                "attributes": dict(signal.get("attributes") or {}),
                "tag_name": signal.get("tag_name", "system-reminder"),
                "transient": bool(signal.get("transient", False)),
            }})
            return message

        for cp in with_hook(self.inputs, "process_input_step"):
            stage = self.message_list.all.db()
            result = await self.call(cp, "process_input_step", {
                "messages": stage,
                "message_list": self.message_list,
                "step_number": step_number,
                "steps": list(self.steps),
                "system_messages": list(config.system_messages),
                "model": config.model,
                "tool_choice": config.tool_choice,
                "active_tools": config.active_tools,
                "tools": dict(config.tools),
                "provider_options": config.provider_options,
                "model_settings": config.model_settings,
                "structured_output": config.structured_output,
                "send_signal": send_signal,
            })
            if isinstance(result, Mapping):
                self._apply_step_overrides(cp, result, config, stage)
            else:
                self.apply_messages(cp, "process_input_step", result, stage, "input")

    def _apply_step_overrides(
        self, cp: CompiledProcessor, result: Mapping[str, Any], config: _StepConfig,
        stage: list[Message],
    ) -> None:
        hook = "process_input_step"
        unknown = set(result) - set(_STEP_KEYS)
        if unknown:
            handle_failure(cp, hook, ValueError(
                f"unknown key(s) {sorted(unknown)}; valid: {', '.join(_STEP_KEYS)}"))
            return
        if "messages" in result and "message_list" in result:
            handle_failure(cp, hook, ValueError("return either messages or message_list, not both"))
            return
        try:
            if "model" in result and result["model"] is not None:
                config.model = self.agent._resolve(result["model"])
            if "tools" in result:
                config.tools = coerce_tools(result["tools"])
            if "active_tools" in result:
                config.active_tools = _name_list("active_tools", result["active_tools"])
            if "tool_choice" in result:
                config.tool_choice = result["tool_choice"]
            if "system_messages" in result:
                config.system_messages = coerce_system_list(result["system_messages"])
            for key in ("provider_options", "model_settings"):
                if key in result:
                    value = result[key]
                    if not isinstance(value, Mapping):
                        raise TypeError(f"{key} must be a mapping, got {type(value).__name__}")
                    setattr(config, key, dict(value))
            if "structured_output" in result:
                config.structured_output = result["structured_output"]
        except (TypeError, ValueError, ConfigurationError) as e:
            handle_failure(cp, hook, e)
            return
        if "messages" in result:
            self.apply_messages(cp, hook, result["messages"], stage, "input")
        elif "message_list" in result:
            self.apply_messages(cp, hook, result["message_list"], stage, "input")

    def _prompt(self, config: _StepConfig, transient: list[Message]) -> list[dict[str, Any]]:
        prompt: list[dict[str, Any]] = [dict(s) for s in config.system_messages]
        prompt.extend(self.message_list.all.core())
        for m in transient:
            prompt.extend(message_to_core(m))
        return prompt

    async def _process_llm_request(
        self, prompt: list[dict[str, Any]], config: _StepConfig, step_number: int
    ) -> tuple[list[dict[str, Any]], list[Chunk] | None]:
        for cp in with_hook(self.inputs, "process_llm_request"):
            result = await self.call(cp, "process_llm_request", {
                "prompt": prompt, "model": config.model, "step_number": step_number,
                "steps": list(self.steps),
            })
            if result is None or result is FAILED_OPEN:
                continue
            if not isinstance(result, Mapping) or set(result) - {"prompt", "response"}:
                handle_failure(cp, "process_llm_request", ValueError(
                    f"process_llm_request must return None, {{'prompt': [...]}} or "
                    f"{{'response': [chunks]}}, got {result!r:.200}"))
                continue
            if result.get("response") is not None:
                try:
                    chunks = _cached_chunks(result["response"])
                except (TypeError, KeyError, ValueError, RecursionError) as e:
                    handle_failure(cp, "process_llm_request", e)
                    continue
                return prompt, chunks
            if result.get("prompt") is not None:
                if not isinstance(result["prompt"], list):
                    handle_failure(cp, "process_llm_request", TypeError("prompt must be a list"))
                    continue
                prompt = result["prompt"]
        return prompt, None

    async def _process_api_error(
        self, error: Exception, step_number: int, retries: int
    ) -> str | None:
        """Run ``process_api_error``; the id of the processor whose retry request is
        granted, or None."""
        limit = self.max_retries
        if limit is None:
            limit = _DEFAULT_API_ERROR_RETRIES if self.errors else 0
        seen: set[int] = set()
        for cp in self.inputs + self.outputs + self.errors:
            if "process_api_error" not in cp.impls or id(cp.processor) in seen:
                continue
            seen.add(id(cp.processor))
            common = self.common(cp)
            result = await call_hook(cp, "process_api_error", {
                "error": error,
                "messages": self.message_list.all.db(),
                "message_list": self.message_list,
                "step_number": step_number,
                "steps": list(self.steps),
                "retry_count": retries,
            }, common)
            if isinstance(result, Mapping) and result.get("retry"):
                if retries >= limit:
                    log.info("API-error retry requested by %r but the limit (%d) is reached",
                             cp.id, limit)
                    return None
                if self.max_retries is None and cp not in self.agent._defaults:
                    self.agent._warn_implicit_retry_budget()
                return cp.id
        return None

    def _tools_for(self, config: _StepConfig) -> dict[str, Tool]:
        if config.active_tools is None:
            return config.tools
        return {n: t for n, t in config.tools.items() if n in config.active_tools}

    async def _step(self, step_number: int) -> AsyncIterator[Chunk]:
        base = self.base_config
        config = attrs.evolve(base, system_messages=list(self.message_list.system_messages),
                              tools=dict(base.tools), provider_options=dict(base.provider_options),
                              model_settings=dict(base.model_settings))
        transient: list[Message] = []
        self.step_data = []
        self.current_message = None
        await self._process_input_step(step_number, config, transient)
        if all(m is not config.model for m in self.models_used):
            self.models_used.append(config.model)
        for c in await self.flush():
            yield c
        api_retries = 0
        while True:
            prompt, cached = await self._process_llm_request(
                self._prompt(config, transient), config, step_number)
            for c in await self.flush():
                yield c
            tools = self._tools_for(config)
            request = ModelRequest(
                prompt=prompt, tools=list(tools.values()), tool_choice=config.tool_choice,
                model_settings=config.model_settings, provider_options=config.provider_options,
                structured_output=config.structured_output,
            )
            acc = _StepAccumulator(step_number, from_cache=cached is not None)
            for c in await self.emit(Chunk("step-start", {"step_number": step_number},
                                           run_id=self.run_id)):
                acc.observe(c)
                yield c
            source = _replay(cached) if cached is not None else config.model.stream(request)
            self.current_acc = acc
            try:
                async with aclosing(self._model_chunks(source, acc, config.model)) as model_chunks:
                    async for c in model_chunks:
                        yield c
            except _ModelFailed as failed:
                retry_by = await self._process_api_error(failed.error, step_number, api_retries)
                if retry_by is not None:
                    # The failed attempt is discarded like a rejected step: the client is
                    # told, and none of its text reaches the result or the next prompt.
                    api_retries += 1
                    self.current_acc = None
                    for c in await self._step_retry(step_number, str(failed.error), retry_by,
                                                    api_retries):
                        yield c
                    for c in await self.flush():
                        yield c
                    continue
                raise failed.error from None
            break
        self.current_acc = None
        step = acc.result()
        self.usage = self.usage + step.usage
        message = acc.message(self.step_data)
        self.step_data = []
        if message is not None:
            self.message_list.add(message, "response")
            self.current_message = message
        for cp in with_hook(self.inputs, "process_llm_response"):
            await self.call(cp, "process_llm_response", {
                "chunks": list(acc.raw), "model": config.model, "step_number": step_number,
                "steps": [*self.steps, step], "from_cache": acc.from_cache,
                "warnings": acc.finish.get("warnings") or [],
                "request": acc.finish.get("request"),
                "raw_response": acc.finish.get("raw_response"),
            })
        self.steps.append(step)
        for c in await self.flush():
            yield c
        for cp in with_hook(self.outputs, "process_output_step"):
            stage = self.message_list.all.db()
            try:
                result = await self.call(cp, "process_output_step", {
                    "messages": stage,
                    "message_list": self.message_list,
                    "step_number": step_number,
                    "finish_reason": step.finish_reason,
                    "provider_metadata": step.provider_metadata,
                    "tool_calls": list(step.tool_calls),
                    "text": step.text,
                    "usage": step.usage,
                    "system_messages": list(config.system_messages),
                    "steps": list(self.steps),
                })
            except TripWire as tw:
                self._maybe_retry(tw)
                raise
            if isinstance(result, list) and not result:
                # ``return []`` is the reference guide's idiom for "no change" here
                # (next to ``abort(..., retry=True)``); it never empties the conversation.
                continue
            self.apply_messages(cp, "process_output_step", result, stage, "response")
        for c in await self.flush():
            yield c
        if step.tool_calls:
            async with aclosing(self._run_tools(step, config, step_number, acc.bad_args)) as tool_chunks:
                async for c in tool_chunks:
                    yield c

    def _maybe_retry(self, tw: TripWire) -> None:
        """Turn a ``retry=True`` abort into a step retry when the limit allows."""
        if tw.retry and self.max_retries is not None and self.retry_count < self.max_retries:
            raise _RetryStep(tw) from None

    async def _model_chunks(self, source: AsyncIterator[Chunk], acc: _StepAccumulator,
                            model: Any):
        iterator = source.__aiter__()
        try:
            while True:
                try:
                    raw = await iterator.__anext__()
                    if not acc.from_cache:  # cache entries were checked when returned
                        check_chunk(raw)
                except StopAsyncIteration:
                    break
                except (asyncio.CancelledError, GeneratorExit):
                    raise
                except ValueError as e:
                    raise _ModelFailed(APICallError(
                        f"model {model_label(model)} sent a malformed chunk: {e}")) from e
                except Exception as e:
                    raise _ModelFailed(e) from e
                acc.raw.append(raw)
                if raw.type == "finish":
                    acc.finish = raw.payload
                    raw = Chunk("step-finish", _step_finish_payload(raw.payload),
                                run_id=self.run_id, source=raw.source)
                elif raw.run_id is None:
                    raw = raw.evolve(run_id=self.run_id)
                for c in await self.emit(raw):
                    acc.observe(c)
                    yield c
        finally:
            closer = getattr(iterator, "aclose", None)
            if closer is not None:
                await closer()
        if not acc.finish:
            # A model (or cache entry) without a finish chunk: the step still ends.
            acc.finish = {"finish_reason": "tool-calls" if acc.tool_calls else "stop",
                          "usage": Usage()}
            for c in await self.emit(Chunk("step-finish", dict(acc.finish), run_id=self.run_id)):
                acc.observe(c)
                yield c

    async def _run_tools(
        self, step: StepResult, config: _StepConfig, step_number: int, bad_args: dict[str, str]
    ) -> AsyncIterator[Chunk]:
        tools = self._tools_for(config)
        outcomes = await asyncio.gather(
            *(self._execute(call, tools, bad_args) for call in step.tool_calls))
        outputs = with_hook(self.outputs, "process_tool_result")
        for call, (ok, value) in zip(step.tool_calls, outcomes, strict=True):
            self.message_list.update_tool_invocation(ToolInvocationPart(ToolInvocation(
                "result", call.tool_call_id, call.tool_name, call.args, value, is_error=not ok)))
            if ok:
                for cp in outputs:
                    current = self.message_list.find_tool_invocation(call.tool_call_id)
                    try:
                        returned = await self.call(cp, "process_tool_result", {
                            "messages": self.message_list.all.db(),
                            "message_list": self.message_list,
                            "step_number": step_number,
                            "tool_name": call.tool_name,
                            "tool_call_id": call.tool_call_id,
                            "args": call.args,
                            "result": current.result if current else value,
                            "provider_executed": False,
                            "system_messages": list(config.system_messages),
                            "steps": list(self.steps),
                        })
                    except TripWire as tw:
                        self._maybe_retry(tw)
                        raise
                    self._apply_tool_result(cp, call, returned)
                final = self.message_list.find_tool_invocation(call.tool_call_id)
                result = final.result if final is not None else value
                step.tool_results.append(ToolResult(call.tool_call_id, call.tool_name, call.args,
                                                    result))
                chunk = Chunk("tool-result", {"tool_call_id": call.tool_call_id,
                                              "tool_name": call.tool_name, "result": result},
                              run_id=self.run_id)
            else:
                step.tool_results.append(ToolResult(call.tool_call_id, call.tool_name, call.args,
                                                    value, is_error=True))
                chunk = Chunk("tool-error", {"tool_call_id": call.tool_call_id,
                                             "tool_name": call.tool_name, "error": value},
                              run_id=self.run_id)
            for c in await self.emit(chunk):
                yield c

    def _apply_tool_result(self, cp: CompiledProcessor, call: ToolCall, returned: Any) -> None:
        """Apply ``process_tool_result``'s return: ``None`` or ``{"result": value}``,
        which replaces what the client, the stored history and the model see."""
        if returned is None or returned is FAILED_OPEN:
            return
        if not isinstance(returned, Mapping) or set(returned) != {"result"}:
            shown = (f"a mapping with key(s) {sorted(map(str, returned))}"
                     if isinstance(returned, Mapping) else type(returned).__name__)
            handle_failure(cp, "process_tool_result", TypeError(
                f"process_tool_result must return None or {{'result': value}}, got {shown}"))
            return
        current = self.message_list.find_tool_invocation(call.tool_call_id)
        base = current or ToolInvocation("result", call.tool_call_id, call.tool_name, call.args)
        self.message_list.update_tool_invocation(ToolInvocationPart(
            attrs.evolve(base, state="result", result=returned["result"])))

    async def _execute(
        self, call: ToolCall, tools: dict[str, Tool], bad_args: dict[str, str]
    ) -> tuple[bool, Any]:
        tool = tools.get(call.tool_name)
        if tool is None:
            available = ", ".join(sorted(tools)) or "none"
            return False, f"Tool {call.tool_name!r} is not available. Available tools: {available}"
        if call.tool_call_id in bad_args:
            return False, f"Tool {call.tool_name!r} was not run: {bad_args[call.tool_call_id]}"
        try:
            return True, await tool.run(
                call.args, writer=self.writer, request_context=self.request_context,
                abort_signal=self.abort_signal,
            )
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.info("tool %r raised %s: %s", call.tool_name, type(e).__name__, e)
            return False, f"{type(e).__name__}: {e}"

    async def _process_output_result(self, output: OutputResult) -> None:
        for cp in with_hook(self.outputs, "process_output_result"):
            stage = self.message_list.response.db()
            result = await self.call(cp, "process_output_result", {
                "messages": stage, "message_list": self.message_list, "result": output,
            })
            self.apply_messages(cp, "process_output_result", result, stage, "response")
            object.__setattr__(output, "text", self._response_text())

    def result(self) -> GenerateResult:
        return GenerateResult(
            text=self.text,
            finish_reason=self.finish_reason,
            usage=self.usage,
            steps=list(self.steps),
            messages=self.message_list.response.db(),
            message_list=self.message_list,
            tripwire=self.tripwire,
            object=self.object,
            run_id=self.run_id,
        )


def _cached_chunks(response: Any) -> list[Chunk]:
    """The chunks of a ``{"response": [...]}`` cache hit, each checked."""
    if not isinstance(response, list | tuple):
        raise TypeError(
            f"'response' must be a list of chunks (Chunk objects or their dicts), got "
            f"{type(response).__name__}")
    chunks = []
    for i, c in enumerate(response):
        if not isinstance(c, Chunk | Mapping):
            raise TypeError(f"response[{i}] must be a Chunk or a mapping, got "
                            f"{type(c).__name__}")
        try:
            chunks.append(check_chunk(c if isinstance(c, Chunk) else chunk_from_dict(c)))
        except (TypeError, KeyError, ValueError) as e:
            raise ValueError(f"response[{i}]: {e}") from None
    return chunks


def _name_list(key: str, value: Any) -> list[str] | None:
    """A list of names (``active_tools``), never a bare string."""
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{key} must be a list of tool names or None, got "
                        f"{type(value).__name__} (wrap a single name in a list)")
    names = list(value)
    bad = [n for n in names if not isinstance(n, str)]
    if bad:
        raise TypeError(f"{key} must hold tool names (strings), got {bad[0]!r}")
    return names


def _step_finish_payload(finish: Mapping[str, Any]) -> dict[str, Any]:
    """What a ``step-finish`` chunk carries to the client: the finish reason, the usage
    and the provider's metadata, never the raw request, response or headers (those stay
    on ``StepResult.request`` / ``.response``)."""
    payload = {"finish_reason": finish["finish_reason"], "usage": finish.get("usage")}
    if finish.get("provider_metadata"):
        payload["provider_metadata"] = finish["provider_metadata"]
    return payload


class _ModelFailed(Exception):
    def __init__(self, error: Exception) -> None:
        self.error = error


def _merge(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    """Merge provider metadata one level deep (``{"anthropic": {...}}``)."""
    out = dict(a or {})
    for key, value in b.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _info(tw: TripWire) -> TripwireInfo:
    return TripwireInfo(tw.reason, tw.retry, tw.metadata, tw.processor_id)


async def _replay(chunks: list[Chunk]) -> AsyncIterator[Chunk]:
    for c in chunks:
        yield c


class _StepAccumulator:
    """Builds a step's result and response message from the processed chunks."""

    def __init__(self, step_number: int, *, from_cache: bool) -> None:
        self.step_number = step_number
        self.from_cache = from_cache
        self.raw: list[Chunk] = []
        self.finish: dict[str, Any] = {}
        self.text: list[str] = []
        self.reasoning: list[str] = []
        # One reasoning part per reasoning id, with the provider metadata (signatures)
        # providers attach, so the reasoning can be sent back on later steps.
        self.reasoning_parts: dict[str, ReasoningPart] = {}
        self.tool_calls: list[ToolCall] = []
        self.bad_args: dict[str, str] = {}

    def observe(self, chunk: Chunk) -> None:
        kind = chunk.type
        if kind == "text-delta":
            self.text.append(chunk.payload.get("text", ""))
        elif kind == "reasoning-delta":
            p = chunk.payload
            text = p.get("text", "")
            self.reasoning.append(text)
            part = self.reasoning_parts.get(p.get("id", ""))
            if part is None:
                part = self.reasoning_parts[p.get("id", "")] = ReasoningPart("")
            part.text += text
            if p.get("provider_metadata"):
                part.provider_metadata = _merge(part.provider_metadata, p["provider_metadata"])
        elif kind == "tool-call":
            p = chunk.payload
            self.tool_calls.append(ToolCall(p["tool_call_id"], p["tool_name"], dict(p.get("args") or {})))
            if p.get("args_error"):
                raw = str(p.get("raw_args", ""))[:200]
                self.bad_args[p["tool_call_id"]] = (
                    f"the arguments were not valid JSON ({p['args_error']}): {raw}"
                )

    def result(self) -> StepResult:
        return StepResult(
            step_number=self.step_number,
            text="".join(self.text),
            reasoning="".join(self.reasoning),
            tool_calls=list(self.tool_calls),
            finish_reason=self.finish.get("finish_reason", "unknown"),
            usage=Usage.coerce(self.finish.get("usage")),
            from_cache=self.from_cache,
            provider_metadata=self.finish.get("provider_metadata"),
            warnings=list(self.finish.get("warnings") or []),
            request=self.finish.get("request"),
            response=self.finish.get("raw_response"),
        )

    def message(self, data: list[DataPart]) -> Message | None:
        parts: list[Any] = []
        parts.extend(p for p in self.reasoning_parts.values() if p.text or p.provider_metadata)
        text = "".join(self.text)
        if text:
            parts.append(TextPart(text))
        for call in self.tool_calls:
            parts.append(ToolInvocationPart(ToolInvocation(
                "call", call.tool_call_id, call.tool_name, call.args)))
        parts.extend(data)
        if not parts:
            return None
        message = Message.assistant("")
        message.content.parts = parts
        return message


def _prepare_step_processor(fn: Callable[..., Any]) -> CompiledProcessor:
    """``prepare_step`` as a processor (id ``prepare-step``) whose process_input_step
    calls ``fn`` with the arguments it declares (all of them if it takes ``**kwargs``)."""
    if not callable(fn):
        raise ConfigurationError(f"prepare_step must be callable, got {type(fn).__name__}")
    spec_args = list(inspect.signature(hookspecs.process_input_step).parameters)
    params = inspect.signature(fn).parameters
    takes_all = any(p.kind is p.VAR_KEYWORD for p in params.values())
    unknown = [n for n, p in params.items()
               if p.kind is not p.VAR_KEYWORD and n not in spec_args and p.default is p.empty]
    if unknown:
        raise ConfigurationError(
            f"prepare_step declares argument(s) {unknown} that process_input_step does not "
            f"have; valid: {', '.join(spec_args)}"
        )
    wanted = spec_args if takes_all else [n for n in params if n in spec_args]

    def process_input_step(**kwargs: Any) -> Any:
        return fn(**{k: kwargs[k] for k in wanted})

    class _PrepareStep:
        id = "prepare-step"

    return CompiledProcessor(
        _PrepareStep(), "prepare-step",
        {"process_input_step": HookImplInfo("process_input_step", process_input_step,
                                            tuple(spec_args))},
    )


def _structured_output_processor(spec: Any) -> Any:
    """The ``structured_output`` call option as a ``structured-output`` processor.

    Accepts a ``StructuredOutput`` instance, an attrs class, a JSON Schema mapping, or
    ``{"schema": ..., "name"/"schema_name": ..., "strategy": ..., ...}`` (its options).
    """
    from tripwire.plugins.structured_output import StructuredOutput

    if isinstance(spec, StructuredOutput):
        return spec
    if isinstance(spec, Mapping) and "schema" in spec:
        options = dict(spec)
        if "name" in options:
            options["schema_name"] = options.pop("name")
        try:
            return StructuredOutput(**options)
        except TypeError as e:
            raise ConfigurationError(f"structured_output: {e}") from None
    return StructuredOutput(spec)
