"""The agent loop: one ``Run`` per ``generate()`` / ``stream()`` call.

A run owns everything its call touches (message list, per-processor state, retry
counters), so concurrent calls on one ``Agent`` never see each other. ``events()``
yields the chunks the client receives; ``generate()`` consumes the same generator as
``stream()``, so no path can skip a processor another path runs.

The order of the stages is the lifecycle diagram in docs/hooks.md ("One run").
This module holds that order and the per-chunk loop (the hot path); the stages around
it live in modules named for them: a step's preparation (``_step_request``), a step the
model finished (``_step_end``), retried and rejected steps (``_step_retry``), tool
execution (``_tool_exec``), the run's end and result (``_end``).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncGenerator, Mapping
from typing import TYPE_CHECKING, Any

from tripwire.chunks import FRAMEWORK_TYPES, Chunk, Usage, _Fields, check_chunk
from tripwire.context import TracingContext
from tripwire.errors import APICallError, ConfigurationError, TripWire
from tripwire.hooks._binding import Bindings
from tripwire.hooks._facade import Hooks
from tripwire.messages import Message, MessageList, new_id
from tripwire.models import model_label
from tripwire.observe import _recorder
from tripwire.processor import TripwireInfo
from tripwire.results import GenerateResult, StepAccumulator, StepResult
from tripwire.run import _end
from tripwire.run._call import StepConfig, resolve_call
from tripwire.run._listed import add_listed_tools
from tripwire.run._modes import read_during_checks
from tripwire.run._step_end import accept_step, output_step
from tripwire.run._step_request import answer_stream, model_request, prepare_step, request_prompt
from tripwire.run._step_retry import RetryStep, StepRetries
from tripwire.run._tool_exec import ToolRunner, runs_on_client, unoffered
from tripwire.stream._json_escapes import canonical_tool_call
from tripwire.stream._pipeline import pipeline_type

if TYPE_CHECKING:
    from tripwire.agent import Agent


class Run:
    """Everything one generate/stream call owns.

    (Fewer than 30 instance attributes: past that CPython 3.11 gives each instance a
    dictionary of its own keys, and every ``self.x`` in the loop gets slower.)"""

    def __init__(self, agent: Agent, messages: Any, options: Mapping[str, Any]) -> None:
        self.agent = agent
        self.call = call = resolve_call(agent, options)
        self.run_id = new_id()
        self.request_context = call.request_context
        self.abort_signal = asyncio.Event()
        # (each message is checked as it is added: a bad one fails the call before the
        # run starts)
        given = messages if isinstance(messages, list) else [messages]
        if call.system_is_input:
            self.message_list = MessageList(system_messages=agent.instructions)
            self.message_list.add(given, "input", keep_system=True)
        else:
            self.message_list = MessageList(given, system_messages=agent.instructions)
        self.tracing_context = TracingContext(self.run_id, agent.id)
        tracer = _recorder.tracer()
        self.recorder = (_recorder.Recorder(self.run_id, agent.id, keep=call.audit, tracer=tracer)
                         if call.audit or tracer is not None else None)
        self.pipeline = pipeline_type(call, self.recorder)(self.run_id)
        self.pipeline.recorder = self.recorder
        self.bindings = Bindings(call, self.pipeline, self.tracing_context, self.abort_signal,
                                 self.recorder)
        self.hooks = Hooks(self.bindings)
        self.pipeline.attach(self.bindings.stream_stages(), self.message_list,
                             self.bindings.common, call.plans)
        self.steps: list[StepResult] = []
        self._tools: ToolRunner | None = None
        self._retries: StepRetries | None = None
        self.tripwire: TripwireInfo | None = None
        self.finish_reason = "unknown"
        self.text = ""
        self.object: Any = None
        self.usage = Usage()
        self.response_rejected = False
        self.current_acc: StepAccumulator | None = None
        self.models_used: list[Any] = []
        #: ``process_input`` checks in ``parallel`` mode, awaited before the model's
        #: first chunk reaches anyone; ``monitor`` ones, which the run never waits for
        self.guards: list[asyncio.Task[Any]] = []
        self.monitors: list[asyncio.Task[Any]] = []
        #: nobody reads the chunks (``generate()``): the model's chunks that passed
        #: the output processors update the step and are not yielded
        self.unread = False
        #: the chunks ``events()`` yielded, each as its consumer took it (what a
        #: finished ``AgentStream`` replays)
        self.sent: list[Chunk] = []
        #: where ``events()`` is: ``"new"``, ``"running"``, ``"ending"`` (its
        #: ``finally``, the run's end, began) or ``"ended"``
        self.phase = "new"
        #: resolved when ``events()`` is over, for whoever waits for another closer
        #: (``wait_ended``)
        self._ended: asyncio.Future[None] | None = None

    # -- the loop
    async def events(self) -> AsyncGenerator[Chunk, None]:
        """The chunks the client receives, stage by stage in the order above; a run a
        processor stopped ends with a ``tripwire`` chunk, a failed one with ``error``.
        The model's chunks are read here, each handed to the output pipeline
        (``OutputPipeline.push``) and sent on as it comes out."""
        if self.phase != "new":
            raise RuntimeError("a run's chunks are read once: this run has started")
        self.phase = "running"
        send = self.sent.append
        try:
            if self.agent._toolsets:  # tools from servers (MCP), listed as the run starts
                await add_listed_tools(self)
            if self.starts:
                for c in await self._start():
                    send(c)
                    yield c
            run_start = self.message_list.checkpoint()
            step_number = 0
            unread = self.unread
            hooks = self.hooks
            pipeline = self.pipeline
            push = pipeline.push
            run_id = self.run_id
            while True:
                checkpoint = self.message_list.checkpoint()
                try:
                    config, transient, out = await prepare_step(self, step_number)
                    for c in out:
                        send(c)
                        yield c
                    api_retries = 0
                    while True:  # the model call, made again when process_api_error asks
                        acc, iterator, out = await self._call_model(config, transient,
                                                                    step_number)
                        for c in out:
                            send(c)
                            yield c
                        # The model's chunks, each through the output processors
                        # (``push``) to the client.
                        failed: Exception | None = None
                        next_chunk = iterator.__anext__
                        # (kept as the model sent them, for ``process_llm_response``)
                        keep = (acc.raw.append if "process_llm_response" in hooks.input_hooks
                                else None)
                        # (the step's record: a text delta's text, any other chunk
                        # read by ``acc.record``)
                        add_text = acc.texts.append
                        record = acc.record
                        offered = config.active()
                        bare = not pipeline.staged  # no processor
                        unseen = unread and bare  # no processor, no reader
                        stamp = None if unseen else run_id
                        try:
                            while True:
                                try:
                                    got = await next_chunk()
                                    # A model's chunk as the run passes it on: checked (a
                                    # text delta, most of what a model streams, here; any
                                    # other by check_chunk, ValueError for a malformed one)
                                    kind = got.type if type(got) is Chunk else None
                                    if not (kind == "text-delta"
                                            and type(payload := got.payload) is dict
                                            and type(text := payload.get("text")) is str
                                            and type(payload.get("id", "")) is str):
                                        check_chunk(got, True)
                                        kind = got.type
                                        text = got.payload["text"] if kind == "text-delta" else ""
                                except StopAsyncIteration:
                                    break
                                except (asyncio.CancelledError, GeneratorExit, TripWire):
                                    raise
                                except Exception as e:
                                    failed = self._model_failed(acc, config, e)
                                    break
                                if kind == "tool-call":
                                    # argument text that is no JSON object reaches the
                                    # client as sent: the guards judge it decoded
                                    got = canonical_tool_call(got)
                                if keep is not None:
                                    keep(got)
                                # ... and carrying the run's id: as it is when the model
                                # built it with the request's (the built-in providers
                                # do), else a copy (built as Chunk.__new__ builds one),
                                # but for no processor and no reader
                                if stamp is None or got.run_id is not None:
                                    raw = got
                                else:
                                    raw = copy = _Fields()
                                    copy.type = kind
                                    copy.payload = got.payload
                                    copy.run_id = stamp
                                    copy.source = got.source
                                    copy.transient = got.transient
                                    copy.__class__ = Chunk  # type: ignore[assignment]
                                if kind != "text-delta":
                                    if kind == "tool-call":
                                        if raw.payload["tool_name"] not in offered:
                                            raw = unoffered(raw, offered, acc.not_run)
                                    elif kind == "finish":
                                        acc.finish = raw.payload
                                        if unseen and not pipeline.pending:
                                            continue
                                        raw = Chunk("step-finish",
                                                    _step_finish_payload(raw.payload),
                                                    run_id=run_id, source=raw.source)
                                        kind = "step-finish"
                                if bare and not pipeline.pending and (
                                        kind in FRAMEWORK_TYPES or not kind.startswith("data-")):
                                    # no processor and nothing a hook wrote to send
                                    # first: the chunk goes on as it is (to no one from
                                    # generate(): the step is all it updates)
                                    if kind == "text-delta":
                                        add_text(text)
                                    else:
                                        record(raw)
                                    if not unread:
                                        send(raw)
                                        yield raw
                                    continue
                                pushed = push(raw)
                                if pushed is None:  # it passed every processor unchanged
                                    if kind == "text-delta":
                                        add_text(text)
                                    else:
                                        record(raw)
                                    if not unread:
                                        send(raw)
                                        yield raw
                                    continue
                                for c in pushed if type(pushed) is list else await pushed:  # type: ignore[misc]
                                    record(c)
                                    if not unread:
                                        send(c)
                                        yield c
                        finally:
                            closer = getattr(iterator, "aclose", None)
                            if closer is not None:
                                await closer()
                        if failed is None:
                            break
                        out = await self._call_failed(acc, failed, step_number, api_retries)
                        api_retries += 1
                        for c in out:
                            send(c)
                            yield c
                    for c in await self._answered(acc, config, step_number):
                        send(c)
                        yield c
                except RetryStep as retry:
                    for c in await self.retries.retry(retry.tripwire, step_number, checkpoint):
                        send(c)
                        yield c
                    continue
                except TripWire as tw:
                    self.retries.reject(tw, step_number, checkpoint)
                    raise
                self.bindings.set_retry_count(0)
                step = self.steps[-1]
                if (step.tool_calls and step_number + 1 < self.call.max_steps
                        and not self._client_calls(step)):
                    step_number += 1
                    continue
                break
            now, finish = await _end.finish_chunks(self)
            for c in now:
                send(c)
                yield c
            output, now = await _end.output_result(self, run_start)
            for c in now:
                send(c)
                yield c
            if _end.take_output(self, output) is not None:
                for c in await _end.object_chunks(self):
                    send(c)
                    yield c
            for c in finish:
                send(c)
                yield c
        except TripWire as tw:
            for c in _end.tripwire_chunks(self, tw):
                send(c)
                yield c
        except (asyncio.CancelledError, GeneratorExit):
            self.abort_signal.set()
            self.text = _end.text_so_far(self)
            raise
        except Exception as e:
            self.finish_reason = "error"
            for c in await _end.error_chunks(self, e):
                send(c)
                yield c
            raise
        finally:
            self.phase = "ending"
            try:
                if self.guards:  # a run that ended before its model call
                    await _end.stop_checks(self)
                _end.close(self, sys.exc_info()[1] if self.finish_reason == "error" else None)
            finally:
                self.phase = "ended"
                if self._ended is not None:
                    self._ended.set_result(None)

    @property
    def started(self) -> bool:
        """``events()`` has started."""
        return self.phase != "new"

    @property
    def ending(self) -> bool:
        """``events()`` is in its ``finally`` (the run's end), in some task."""
        return self.phase == "ending"

    @property
    def ended(self) -> bool:
        """``events()`` is over."""
        return self.phase == "ended"

    async def wait_ended(self) -> None:
        """Wait until ``events()`` is over, when it started: its ``finally`` runs in
        whichever task closes it (a consumer's ``aclose()``, or the event loop's for an
        iteration dropped after ``break``)."""
        if not self.started or self.ended:
            return
        if self._ended is None:
            self._ended = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._ended)

    # (made when a step first needs them: most runs call no tool and retry nothing)
    # (not functools.cached_property: on Python 3.11 it takes a lock on every read)
    @property
    def tools(self) -> ToolRunner:
        """Runs the tools a step called."""
        tools = self._tools
        if tools is None:
            tools = self._tools = ToolRunner(self.hooks, self.pipeline, self.message_list,
                                             self.request_context, self.abort_signal,
                                             self.run_id)
        return tools

    @property
    def retries(self) -> StepRetries:
        """The run's retry limits and what a retried or rejected step leaves."""
        retries = self._retries
        if retries is None:
            retries = self._retries = StepRetries(
                self.agent, self.call, self.hooks, self.bindings, self.pipeline,
                self.message_list, self.steps, self.run_id)
        return retries

    def maybe_retry(self, tw: TripWire) -> None:
        """``StepRetries.maybe_retry`` (the retries are made when a step first needs
        them)."""
        self.retries.maybe_retry(tw)

    @property
    def starts(self) -> bool:
        """Whether the run has a start stage: ``process_input`` or checks beside the
        model call."""
        hooks = self.hooks
        return "process_input" in hooks.input_hooks or hooks.has_checks

    async def _start(self) -> list[Chunk]:
        """``process_input`` (once per run), then the checks that run beside the model
        call; the chunks hooks wrote meanwhile."""
        checks = await self.hooks.start(self.message_list)
        if checks:
            self.guards = checks["parallel"]
            for task in checks["monitor"]:
                self.agent._own_task(task)
                self.monitors.append(task)
        pipeline = self.pipeline
        return await pipeline.flush() if pipeline.pending else []

    # -- a step's model call
    async def _call_model(self, config: StepConfig, transient: list[Message],
                          step_number: int) -> tuple[StepAccumulator, Any, list[Chunk]]:
        """Start a model call of the step: its accumulator, the iterator of its chunks
        (held until the checks beside the model call passed), and the chunks for the
        client before them (hooks' chunks, ``step-start``)."""
        prompt, cached, out = await request_prompt(self, config, transient, step_number)
        request = model_request(config, prompt, self.run_id)
        acc = StepAccumulator(step_number, from_cache=cached is not None)
        out += await self._step_start(acc)
        iterator = answer_stream(config, request, cached).__aiter__()
        self.current_acc = acc
        if self.recorder is not None and self.recorder.tracer is not None:
            self.recorder.start_model_call(config.model)
        if self.guards:
            # checks beside the model call: the model's chunks are read ahead and held
            # until they pass (a failed check raises, nothing seen)
            try:
                iterator = await read_during_checks(iterator, self.guards)
            except BaseException:
                closer = getattr(iterator, "aclose", None)
                if closer is not None:
                    await closer()
                raise
            self.guards = []  # they passed
        return acc, iterator, out

    def _model_failed(self, acc: StepAccumulator, config: StepConfig,
                      error: Exception) -> Exception:
        """The model call failed with ``error`` while streaming: what
        ``process_api_error`` is asked about (a malformed chunk is an ``APICallError``).
        A call that cannot be made as asked (a model setting, a missing key) is the
        caller's to fix, not a failure to retry: raised."""
        if isinstance(error, ConfigurationError):
            self.end_model_call(acc, error)
            raise error
        if isinstance(error, ValueError):
            failed = APICallError(
                f"model {model_label(config.model)} sent a malformed chunk: {error}")
            failed.__cause__ = error
            return failed
        return error

    async def _call_failed(self, acc: StepAccumulator, failed: Exception,
                           step_number: int, api_retries: int) -> list[Chunk]:
        """A failed model call: raised, unless ``process_api_error`` asks for it again
        within the limit; then the failed attempt is discarded like a rejected step (the
        client is told, none of its text reaches the result or the next prompt)."""
        self.end_model_call(acc, failed)
        retry_by = await self.retries.api_error(failed, step_number, api_retries)
        if retry_by is None:
            raise failed
        self.current_acc = None
        out = await self.retries.discard(step_number, str(failed), retry_by, api_retries + 1)
        pipeline = self.pipeline
        return out + await pipeline.flush() if pipeline.pending else out

    async def _answered(self, acc: StepAccumulator, config: StepConfig,
                        step_number: int) -> list[Chunk]:
        """The step the model answered: its end (a ``step-finish`` when the model sent
        no ``finish``), accepted, ``process_output_step``, then its tools; the chunks
        for the client."""
        out: list[Chunk] = []
        if not acc.finish:
            # A model (or cache entry) without a finish chunk: the step still ends.
            acc.finish = {"finish_reason": "tool-calls" if acc.tool_calls else "stop",
                          "usage": Usage()}
            out = await self.pipeline.emit(Chunk("step-finish", dict(acc.finish),
                                                 run_id=self.run_id))
            for c in out:
                acc.record(c)
        step, more = await accept_step(self, acc, config, step_number)
        out += more
        out += await output_step(self, step, config)
        if step.tool_calls:
            chunks = await self.tools.run(step, config, self.steps, acc.not_run,
                                          self.maybe_retry)
            if not self.unread:
                out += chunks
        return out

    # -- around the model call
    async def _step_start(self, acc: StepAccumulator) -> list[Chunk]:
        """The ``step-start`` chunk after the output processors, for the client (none
        when it would reach no processor and no reader)."""
        if self.unseen():
            return []
        out = await self.pipeline.emit(Chunk("step-start", {"step_number": acc.step_number},
                                             run_id=self.run_id))
        for c in out:
            acc.record(c)
        return [] if self.unread else out

    def end_model_call(self, acc: StepAccumulator, error: Exception | None = None) -> None:
        """Close the model call's span (``error`` when the call failed)."""
        if self.recorder is not None and self.recorder.tracer is not None:
            self.recorder.end_model_call(None if error is not None else acc.finish,
                                         from_cache=acc.from_cache, error=error)

    # -- state the stages share
    def unseen(self) -> bool:
        """Whether a chunk emitted now would reach no processor and no reader (a
        ``generate()`` without ``process_output_stream``): then it is not made."""
        pipeline = self.pipeline
        return self.unread and not pipeline.staged and not pipeline.pending

    def _client_calls(self, step: StepResult) -> bool:
        """Whether ``step`` asked for a client-side tool: the run ends there and the
        caller answers the calls (``client_tools`` call option)."""
        tools = self.call.config.tools
        for call in step.tool_calls:
            if runs_on_client(call, tools):
                return True
        return False

    def start_step(self, step_number: int | None) -> None:
        """Audit records and spans from here on belong to ``step_number``."""
        recorder = self.recorder
        if recorder is not None:
            if recorder.tracer is None:  # the audit alone: records only need the step
                recorder.step = step_number
                return
            recorder.start_step(step_number)
            self.tracing_context.span = recorder.span

    def result(self) -> GenerateResult:
        """What ``generate()`` returns (and a stream's awaitables read)."""
        return _end.result(self)


def _step_finish_payload(finish: Mapping[str, Any]) -> dict[str, Any]:
    """What a ``step-finish`` chunk carries to the client: the finish reason, the usage
    and the provider's metadata, never the raw request, response or headers (those stay
    on ``StepResult.request`` / ``.response``)."""
    payload = {"finish_reason": finish["finish_reason"], "usage": finish.get("usage")}
    if finish.get("provider_metadata"):
        payload["provider_metadata"] = finish["provider_metadata"]
    return payload
