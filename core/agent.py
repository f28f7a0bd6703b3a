"""The agent: what users build and call.

``Agent`` holds the configuration; ``generate()`` / ``stream()`` start a run
(``tripwire.run._loop``) and ``AgentStream`` hands its chunks to the caller.

The loop's parts live in rooms named for them (docs/architecture.md is the map):
``tripwire.run`` (the loop, a call's options, a step, tools, a run's end),
``tripwire.hooks`` (processors bound to their hooks, what hooks return) and
``tripwire.stream`` (the output pipeline).
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Mapping,
    Sequence,
)
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk, Usage
from tripwire.context import RequestContext
from tripwire.errors import ConfigurationError, TripWire
from tripwire.hooks._lists import CompiledNode, compile_list
from tripwire.models import Model, resolve_model
from tripwire.option_checks import NonNegativeInt, PositiveInt, check, names_the_valid_options
from tripwire.processor import TripwireInfo
from tripwire.registry import discovery
from tripwire.results import GenerateResult, OutputResult, StepResult
from tripwire.run._call import DEFAULT_API_ERROR_RETRIES, Plans
from tripwire.run._loop import Run
from tripwire.tools import Tool, Toolset, split_tools

if TYPE_CHECKING:
    from tripwire.config import Config
    from tripwire.memory import Memory

__all__ = ["Agent", "AgentStream", "GenerateResult", "OutputResult", "StepResult"]

log = logging.getLogger("tripwire")

ProcessorList = Sequence[Any] | Callable[[RequestContext], Sequence[Any]] | None

_UNSET: Any = object()


class Agent:
    """An LLM agent whose every stage runs the processors' hooks.

    ``input_processors``, ``output_processors`` and ``error_processors`` are lists (or
    callables taking the ``RequestContext`` and returning a list). ``max_processor_retries``
    bounds retries requested by processors (unset: a retry request ends the run as a
    tripwire; API-error retries then default to 10 when error processors run).
    ``memory`` (a ``tripwire.Memory`` or a store URL) adds the memory processors
    around the lists (see ``tripwire.memory``).
    """

    @names_the_valid_options
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
        audit: bool = False,
        memory: Any = None,
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
        self.tools, sources = split_tools(tools)
        #: the agent's own toolset of each tool source (MCP server) among ``tools``,
        #: listed when a run starts (``tripwire.run._listed``)
        self._toolsets: list[Toolset] = [source.toolset() for source in sources]
        self.input_processors = input_processors
        self.output_processors = output_processors
        self.error_processors = error_processors
        #: message history, working memory, semantic recall (``tripwire.Memory``)
        self.memory: Memory | None = None
        if memory is not None:  # the memory package is imported by an agent that has one
            from tripwire.memory._memory import coerce_memory

            self.memory = coerce_memory(memory)
        # Validate static lists now: a misspelt hook fails at construction, not mid-run.
        self._compiled = {
            kind: compile_list(procs, kind) if not callable(procs) else None
            for kind, procs in (
                ("input", input_processors),
                ("output", output_processors),
                ("error", error_processors),
            )
        }
        check("max_processor_retries", max_processor_retries, NonNegativeInt | None)
        check("max_steps", max_steps, PositiveInt)
        self.max_processor_retries = max_processor_retries
        self.max_steps = max_steps
        self.default_error_processors = default_error_processors
        self._defaults = compile_list(discovery.default_error_processors(), "error") if default_error_processors else []
        self.model_settings = dict(model_settings or {})
        self.provider_options = dict(provider_options or {})
        self.tool_choice = tool_choice
        if not isinstance(audit, bool):
            raise ConfigurationError(f"audit must be True or False, got {audit!r}")
        #: keep an audit trail of every processor decision (``result.audit``)
        self.audit = audit
        #: the call units of the agent's own lists, once a call has resolved them (and
        #: when they are the same for every call: see ``tripwire.run._call.resolve_call``)
        self._units: tuple[Any, Any, Any] | None = None
        #: what every call with those units binds the same way (``CallOptions.plans``)
        self._plans = Plans()
        self._warned_retry_budget = False
        self._background: set[asyncio.Task[Any]] = set()

    @classmethod
    def from_config(cls, path: str | os.PathLike[str] | Config, name: str,
                    **overrides: Any) -> Agent:
        """Build the agent ``[agents.NAME]`` of a TOML file, or of a ``Config`` already
        loaded with ``tripwire.config.load_config`` (see docs/configuration.md).

        ``overrides`` are ``Agent`` arguments that replace the configured ones before
        anything is built: an overriding ``model`` (or processor list, tools, memory)
        means the configured one is never built, so its missing API key or broken
        option cannot fail the call. A string ``model`` is a router id or
        ``"models.NAME"`` of the file; a model object stays the caller's to close."""
        from tripwire.config import Config, load_config

        config = path if isinstance(path, Config) else load_config(path)
        kwargs = config.agent_kwargs(name, overrides=overrides)
        given = overrides.get("model")
        return config.build(cls, name, kwargs,
                            owns_model=given is None or isinstance(given, str))

    def _processor_list(
        self, kind: str, request_context: RequestContext, processors: Any = _UNSET
    ) -> list[CompiledNode]:
        """The compiled ``kind`` list of one call: the call's own list when it gives
        one, else the agent's (a callable list is resolved with the request context)."""
        if processors is _UNSET:
            compiled = self._compiled[kind]
            if compiled is not None:
                return self._with_memory(kind, list(compiled))
            processors = getattr(self, f"{kind}_processors")
        if callable(processors):
            processors = processors(request_context)
        return self._with_memory(kind, compile_list(processors, kind))

    def _with_memory(self, kind: str, nodes: list[CompiledNode]) -> list[CompiledNode]:
        return nodes if self.memory is None else self.memory.around(kind, nodes)

    # -- introspection
    def list_processors(
        self, kind: str | None = None, request_context: RequestContext | Mapping[str, Any] |
        None = None,
    ) -> list[Any]:
        """The processors a call would run, as you gave them: ``kind`` ``"input"``,
        ``"output"`` or ``"error"`` (None: all three, in that order). Dynamic lists
        (callables) are resolved with ``request_context``; a group is one item (see
        ``resolve_processor`` for its members); the default error processors are
        included."""
        kinds = _kinds(kind)
        context = RequestContext.coerce(request_context)
        out: list[Any] = []
        for k in kinds:
            nodes = self._processor_list(k, context)
            if k == "error":
                nodes = nodes + [d for d in self._defaults
                                 if all(d.id != n.id for n in nodes)]
            out.extend(_given(n) for n in nodes)
        return out

    def resolve_processor(
        self, id: str, request_context: RequestContext | Mapping[str, Any] | None = None
    ) -> Any:
        """The processor or group with this id in any of the agent's lists, members of
        groups included (both arms of a branch). ``KeyError`` names the ids there are."""
        from tripwire.hooks._lists import CompiledGroup

        found: dict[str, Any] = {}

        def walk(node: Any) -> None:
            found.setdefault(node.id, _given(node))
            if isinstance(node, CompiledGroup):
                for member in node.members:
                    walk(member)

        context = RequestContext.coerce(request_context)
        for k in _kinds(None):
            for node in self._processor_list(k, context) + (self._defaults if k == "error"
                                                             else []):
                walk(node)
        if id not in found:
            raise KeyError(f"agent {self.id!r} has no processor or group {id!r}; ids: "
                           f"{', '.join(found) or 'none'}")
        return found[id]

    def _own_task(self, task: asyncio.Task[Any]) -> None:
        """Keep a run's background task (a check in ``monitor`` mode) until it ends;
        ``aclose()`` cancels the ones still running."""
        self._background.add(task)
        task.add_done_callback(_forget_task(self._background))

    def _adopt(self, model: Model) -> None:
        """Make ``model`` the agent's to close (a model built from a config table)."""
        self._owned_models[f"adopted:{id(model)}"] = model

    def _resolve(self, model: str | Model) -> Model:
        if isinstance(model, str):
            if model not in self._owned_models:
                self._owned_models[model] = resolve_model(model)
            return self._owned_models[model]
        return resolve_model(model)

    async def aclose(self) -> None:
        """Close the HTTP sessions of the models this agent created from router ids, and
        its MCP servers' sessions (a stdio server's process ends).

        The models stay usable: a closed provider opens a new session on its next call,
        and an MCP server is started again by the next run.
        """
        background, self._background = list(self._background), set()
        for task in background:
            task.cancel()
        if background:
            await asyncio.gather(*background, return_exceptions=True)
        await _close_models(self._owned_models.values())
        if self.memory is not None:
            await self.memory.aclose()
        for toolset in self._toolsets:
            await toolset.aclose()

    async def __aenter__(self) -> Agent:
        try:
            for toolset in self._toolsets:  # (MCP servers: started now, not at a run)
                await toolset.open()
        except BaseException:
            await self.aclose()
            raise
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
            "limit (this is said once per agent)", self.id, DEFAULT_API_ERROR_RETRIES,
        )

    # -- public calls
    async def generate(self, messages: Any, **options: Any) -> GenerateResult:
        """Run the agent to completion and return the result.

        ``messages``: a string, a ``Message``, a ``{"role", "content"}`` dict, or a list.
        Options: max_steps, max_processor_retries, input_processors, output_processors,
        error_processors, prepare_step, request_context, model_settings,
        provider_options, tool_choice, active_tools, memory (``{"thread": id,
        "resource": id}`` for the agent's memory), structured_output (an attrs class, a
        JSON Schema, or StructuredOutput options: adds a ``structured-output`` processor to
        both lists for this call; the parsed value is ``result.object``), client_tools
        (tools the caller runs), audit, caller_system (``"instructions"``, the default:
        system-role messages among ``messages`` join the agent's instructions;
        ``"input"``: they are input that input processors check, kept where they are,
        for callers you do not trust as you trust your instructions; so are the strings
        of the call's client_tools, provider_options and model_settings).
        """
        return await _complete(Run(self, messages, options))

    def stream(self, messages: Any, **options: Any) -> AgentStream:
        """Start a run and return its ``AgentStream`` (same options as ``generate``)."""
        return AgentStream(Run(self, messages, options))

    def generate_sync(self, messages: Any, **options: Any) -> GenerateResult:
        """Blocking ``generate`` for scripts and notebooks without a running loop.

        It runs its own event loop, then closes the HTTP sessions the run opened in it
        (of every model the run used, yours included: they reopen on their next call),
        so repeated calls leak no connection. Inside a running event loop, use
        ``await agent.generate(...)``. When the run failed, its error is raised even if
        closing fails too (that failure is logged, and noted on the error).
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
        run = Run(self, messages, options)

        async def main() -> GenerateResult:
            try:
                result = await _complete(run)
            except BaseException as error:
                await self._end_sync_run(run, error)
                raise
            await self._end_sync_run(run, None)
            return result

        return asyncio.run(main())

    async def _end_sync_run(self, run: Run, error: BaseException | None) -> None:
        """What ``generate_sync`` does before its loop ends: wait for the run's monitors,
        close the models' HTTP sessions and the memory's connection (they belong to this
        loop). A failure to close never replaces ``error``, the run's: it is logged and
        noted on ``error``; after a run that succeeded it is raised."""
        if run.monitors:  # the loop ends here: let this run's monitors report
            await asyncio.gather(*run.monitors, return_exceptions=True)
        closers: list[Callable[[], Awaitable[None]]] = [
            lambda: _close_models([*run.models_used, *self._owned_models.values()])
        ]
        if self.memory is not None:  # its connection belongs to this loop
            closers.append(self.memory.aclose)
        closers.extend(toolset.aclose for toolset in self._toolsets)  # (MCP sessions)
        failures: list[Exception] = []
        for close in closers:
            try:
                await close()
            except Exception as e:
                failures.append(e)
        if not failures:
            return
        if error is None:
            raise failures[0]
        for failure in failures:
            log.warning(
                "agent %r: closing after a failed generate_sync run failed too; the run's "
                "error is raised", self.id, exc_info=failure,
            )
            error.add_note(
                f"(closing after this error failed too, with {type(failure).__name__}: "
                f"logged as a warning on the 'tripwire' logger)"
            )


async def _complete(run: Run) -> GenerateResult:
    run.unread = True
    events = run.events()
    try:
        async for _ in events:
            pass
    finally:
        if not run.ended:  # (it stopped early: a generator run to its end is closed)
            await events.aclose()
    return run.result()


def _kinds(kind: str | None) -> tuple[str, ...]:
    from tripwire.hooks._lists import KINDS

    if kind is None:
        return KINDS
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)} or None, got {kind!r}")
    return (kind,)


def _given(node: Any) -> Any:
    """The object the user gave for a compiled node (a processor or a group)."""
    return getattr(node, "group", None) or node.processor


def _forget_task(tasks: set[asyncio.Task[Any]]) -> Callable[[asyncio.Task[Any]], None]:
    def done(task: asyncio.Task[Any]) -> None:
        tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()  # retrieved: a monitor's verdict never fails the run
        if error is not None and not isinstance(error, TripWire):
            log.warning("a check in monitor mode failed: %s", error)

    return done


async def _close_models(models: Iterable[Any]) -> None:
    """``aclose()`` each distinct model that has one (HTTP providers); one that fails
    does not keep the others open (the first failure is raised after)."""
    seen: set[int] = set()
    failures: list[Exception] = []
    for model in models:
        closer = getattr(model, "aclose", None)
        if closer is None or id(model) in seen:
            continue
        seen.add(id(model))
        try:
            await closer()
        except Exception as e:
            failures.append(e)
    if failures:
        raise failures[0]




class AgentStream:
    """The chunks of one run, after output processors.

    ``async for chunk in stream`` drives the run. ``await stream.text`` (``usage``,
    ``finish_reason``, ``steps``, ``result``) finishes the run if needed; iterating
    a finished stream replays its chunks. ``stream.tripwire`` is set once a processor
    stopped the run. Breaking out of the loop or cancelling the task stops the model
    call and runs no further hooks; ``await stream.aclose()`` does so explicitly.
    After a ``break`` the event loop closes the dropped iteration in its next turns,
    held stream or not (nothing here waits for the garbage collector).
    """

    def __init__(self, run: Run) -> None:
        self._run = run
        #: the run's ``events()`` a consumer is iterating, held weakly: a strong
        #: reference would keep it alive after a loop's ``break`` (its refcount reaching
        #: 0 is what has the event loop close it, which ends the run)
        self._live: weakref.ref[Any] | None = None
        #: closed by ``aclose()`` (a stream closed before it started never runs)
        self._closed = False
        #: the chunks the consumer received, in order (the run records them)
        self.chunks: list[Chunk] = run.sent

    @property
    def run_id(self) -> str:
        return self._run.run_id

    @property
    def tripwire(self) -> TripwireInfo | None:
        return self._run.tripwire

    def __aiter__(self) -> AsyncIterator[Chunk]:
        run = self._run
        if run.ended or self._closed:
            return self._replay()
        if run.started:
            raise RuntimeError(
                "this stream is already being consumed; iterate it once (a finished "
                "stream replays its chunks), or await stream.text / stream.result")
        live = run.events()
        self._live = weakref.ref(live)
        return live

    async def _replay(self) -> AsyncGenerator[Chunk, None]:
        for chunk in list(self.chunks):
            yield chunk

    def _iteration(self) -> Any:
        """The run's ``events()`` a consumer is iterating, while it exists
        (``ag_running`` is read: the generator type, not the ``AsyncGenerator``
        protocol)."""
        return None if self._live is None else self._live()

    async def _finish(self) -> GenerateResult:
        run = self._run
        if not (run.started or self._closed):
            async for _ in self:
                pass
        elif not run.ended:
            # The consumer stopped iterating (``break``) before the end: the run is over,
            # and the result holds what it had produced so far.
            live = self._iteration()
            if live is not None and live.ag_running and not run.ending:
                raise RuntimeError(
                    "the stream is being iterated elsewhere right now; await its result "
                    "after that loop ends")
            await self.aclose()
        return run.result()

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

    @property
    def verdicts(self) -> Awaitable[list[Any]]:
        """What guards reported (``tripwire.guards.verdicts.Verdict``), once the run is done."""
        return self._awaitable("verdicts")

    @property
    def audit(self) -> Awaitable[list[Any]]:
        """The audit trail, once the run is done (empty when the audit is off)."""
        return self._awaitable("audit")

    async def aclose(self) -> None:
        """Stop the run: the model call is closed and no further hook runs.

        Afterwards ``await stream.text`` (``result``, ...) gives what the run had produced
        so far: the accepted steps and the text the current step had streamed."""
        run = self._run
        run.abort_signal.set()
        self._closed = True
        live = self._iteration()
        if live is not None and not run.ending:
            await live.aclose()
        # (another task may be closing it: the event loop, for an iteration dropped
        # after ``break``, or a concurrent ``aclose()``)
        await run.wait_ended()

    async def __aenter__(self) -> AgentStream:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if not (self._run.ended or self._closed):
            await self.aclose()
