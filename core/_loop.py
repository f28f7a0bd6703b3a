"""The agent loop: one ``Run`` per ``generate()`` / ``stream()`` call.

A run owns everything its call touches (message list, per-processor state, retry
counters), so concurrent calls on one ``Agent`` never see each other. ``events()``
yields the chunks the client receives; ``generate()`` consumes the same generator as
``stream()``, so no path can skip a processor another path runs.

The order of the stages is the diagram in docs/hooks.md::

    process_input                      once
    per step:  process_input_step -> process_llm_request -> model call (on error:
               process_api_error) -> process_output_stream per chunk ->
               process_llm_response -> process_output_step -> tools ->
               process_tool_result
    process_output_result              once, then the finish chunk
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from tripwire import _observe
from tripwire._binding import Bindings
from tripwire._call_options import resolve_call
from tripwire._hooks import Hooks
from tripwire._modes import next_after_checks
from tripwire._pipeline import OutputPipeline
from tripwire._signals import make_send_signal
from tripwire._tool_exec import ToolRunner, runs_on_client
from tripwire.chunks import Chunk, Usage, check_chunk, stamp_run_id
from tripwire.context import TracingContext
from tripwire.errors import APICallError, TripWire
from tripwire.messages import (
    Message,
    MessageList,
    message_to_core,
    new_id,
    signal_message,
)
from tripwire.models import ModelRequest, model_label
from tripwire.processor import TripwireInfo
from tripwire.results import (
    GenerateResult,
    OutputResult,
    StepAccumulator,
    StepResult,
    response_text,
    tripwire_info,
)

if TYPE_CHECKING:
    from tripwire._call_options import StepConfig
    from tripwire.agent import Agent

log = logging.getLogger("tripwire")

# Chunks that carry a step's content (what a discarded attempt must not leak).
_STEP_CONTENT = frozenset({"text-delta", "reasoning-delta", "tool-call", "tool-result",
                           "tool-error"})


class _RetryStep(Exception):
    """A processor asked for the current step to be run again, and the limit allows."""

    def __init__(self, tripwire: TripWire) -> None:
        self.tripwire = tripwire


class Run:
    """Everything one generate/stream call owns."""

    def __init__(self, agent: Agent, messages: Any, options: Mapping[str, Any]) -> None:
        self.agent = agent
        self.call = call = resolve_call(agent, options)
        self.run_id = new_id()
        self.request_context = call.request_context
        self.abort_signal = asyncio.Event()
        self.message_list = MessageList(system_messages=agent.instructions)
        # (``add`` checks each message: a bad one fails the call before the run starts)
        self.message_list.add(messages if isinstance(messages, list) else [messages], "input",
                              keep_system=call.system_is_input)
        self.pipeline = OutputPipeline(self.run_id)
        self.tracing_context = TracingContext(self.run_id, agent.id)
        tracer = _observe.tracer()
        self.recorder = (_observe.Recorder(self.run_id, agent.id, keep=call.audit, tracer=tracer)
                         if call.audit or tracer is not None else None)
        self.pipeline.recorder = self.recorder
        self.bindings = Bindings(call, self.pipeline, self.tracing_context, self.abort_signal,
                                 self.recorder)
        self.hooks = Hooks(self.bindings)
        self.pipeline.attach(self.bindings.stream_stages(), self.message_list,
                             self.bindings.common, call.plans)
        self.tools = ToolRunner(self.hooks, self.pipeline, self.message_list,
                                self.request_context, self.abort_signal, self.run_id)
        self.steps: list[StepResult] = []
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

    # -- the loop
    async def events(self) -> AsyncGenerator[Chunk, None]:
        pipeline = self.pipeline
        try:
            hooks = self.hooks
            if "process_input" in hooks.input_hooks:
                await hooks.process_input(self.message_list)
            if hooks.has_checks:
                checks = hooks.start_checks(self.message_list)
                self.guards = checks["parallel"]
                for task in checks["monitor"]:
                    self.agent._own_task(task)
                    self.monitors.append(task)
            for c in await pipeline.flush() if pipeline.pending else ():
                yield c
            run_start = self.message_list.checkpoint()
            step_number = 0
            while True:
                checkpoint = self.message_list.checkpoint()
                try:
                    async with aclosing(self._step(step_number)) as step_chunks:
                        if self.unread:  # nobody reads them: one hop less per chunk
                            async for _ in step_chunks:
                                pass
                        else:
                            async for c in step_chunks:
                                yield c
                except _RetryStep as retry:
                    tw = retry.tripwire
                    self.steps[-1].tripwire = tripwire_info(tw) if self.steps else None
                    self.message_list.rollback(checkpoint)
                    self.message_list.add(
                        signal_message(tw.reason, attributes={"type": "retry-feedback"}),
                        "response",
                    )
                    self.bindings.set_retry_count(self.bindings.retry_count + 1)
                    for c in await self._step_retry(step_number, tw.reason, tw.processor_id,
                                                    self.bindings.retry_count):
                        yield c
                    continue
                except TripWire as tw:
                    # A tripped step is not accepted: its messages are not kept.
                    self.message_list.rollback(checkpoint)
                    last = self.steps[-1] if self.steps else None
                    if last is not None and last.step_number == step_number and last.tripwire is None:
                        last.tripwire = tripwire_info(tw)
                    raise
                self.bindings.set_retry_count(0)
                step = self.steps[-1]
                if (step.tool_calls and step_number + 1 < self.call.max_steps
                        and not self._client_calls(step)):
                    step_number += 1
                    continue
                break
            pipeline.flush_stats()
            self._start_step(None)
            self.text = self._response_text()
            self.finish_reason = self.steps[-1].finish_reason if self.steps else "unknown"
            # ``finish`` passes the stream processors before process_output_result runs
            # (state they write on it is visible there) but reaches the client last.
            finish: list[Chunk] = []
            for c in () if self._unseen() else await pipeline.emit(Chunk(
                "finish", {"finish_reason": self.finish_reason, "usage": self.usage},
                run_id=self.run_id,
            )):
                if c.type == "finish":
                    finish.append(c)
                else:
                    yield c
            output = OutputResult(self.text, self.usage, self.finish_reason, list(self.steps))
            try:
                if "process_output_result" in hooks.output_hooks:
                    await hooks.process_output_result(self.message_list, output)
            except TripWire:
                # The whole response is rejected: none of it is kept or returned.
                self.response_rejected = True
                self.message_list.rollback(run_start)
                raise
            for c in await pipeline.flush() if pipeline.pending else ():
                yield c
            # the response's text after process_output_result (or what a processor set
            # for the caller when the stored messages hold something else)
            self.text = output.text if output.caller_text is None else output.caller_text
            self.object = output.object
            if output.object is not None:
                for c in await pipeline.emit(Chunk("object-result", {"object": output.object},
                                                   run_id=self.run_id)):
                    yield c
            for c in finish:
                yield c
        except TripWire as tw:
            self.tripwire = tripwire_info(tw)
            self.finish_reason = "other"
            self.text = "" if self.response_rejected else self._response_text()
            # Chunks released together with the one that tripped, and that passed
            # every processor, still reach the client, before the tripwire.
            for c in getattr(tw, "_released", ()):
                yield c
            payload = {"reason": tw.reason, "retry": tw.retry, "metadata": tw.metadata,
                       "processor_id": tw.processor_id}
            if self.tripwire.model_call_cancelled:
                payload["model_call_cancelled"] = True
            yield Chunk("tripwire", payload, run_id=self.run_id)
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
            for task in self.guards:  # a run that ended before its model call
                task.cancel()
            if self.guards:
                await asyncio.gather(*self.guards, return_exceptions=True)
            pipeline.warn_if_dropped_all()
            if self.recorder is not None:
                pipeline.flush_stats()
                self.recorder.end_run(
                    finish_reason=self.finish_reason,
                    tripwire_by=self.tripwire.processor_id if self.tripwire else None,
                    error=sys.exc_info()[1] if self.finish_reason == "error" else None)

    async def _step(self, step_number: int) -> AsyncGenerator[Chunk, None]:
        pipeline = self.pipeline
        config = self.call.config.for_step(self.message_list.system_messages)
        transient: list[Message] = []
        pipeline.new_step()
        self._start_step(step_number)
        hooks = self.hooks
        if "process_input_step" in hooks.input_hooks:
            await hooks.process_input_step(
                self.message_list, step_number, self.steps, config,
                lambda: make_send_signal(self.message_list, self.pipeline, transient,
                                         lambda: bool(self.steps)), self.agent._resolve)
        if all(m is not config.model for m in self.models_used):
            self.models_used.append(config.model)
        for c in await pipeline.flush() if pipeline.pending else ():
            yield c
        api_retries = 0
        while True:
            prompt: list[dict[str, Any]] = self._prompt(config, transient)
            cached: list[Chunk] | None = None
            if "process_llm_request" in hooks.input_hooks:
                prompt, cached = await hooks.process_llm_request(
                    prompt, config, step_number, self.steps)
            for c in await pipeline.flush() if pipeline.pending else ():
                yield c
            request = ModelRequest(
                prompt=prompt, tools=list(config.active().values()),
                tool_choice=config.tool_choice, model_settings=config.model_settings,
                provider_options=config.provider_options,
                structured_output=config.structured_output,
            )
            acc = StepAccumulator(step_number, from_cache=cached is not None)
            if not self._unseen():
                for c in await pipeline.emit(Chunk("step-start", {"step_number": step_number},
                                                   run_id=self.run_id)):
                    acc.observe(c)
                    if not self.unread:
                        yield c
            source = _replay(cached) if cached is not None else config.model.stream(request)
            self.current_acc = acc
            if self.recorder is not None and self.recorder.tracer is not None:
                self.recorder.start_model_call(config.model)
            # The model's chunks, each through the output processors to the client.
            # (Inline rather than a nested generator: one hop less per chunk.)
            failed: Exception | None = None
            iterator = source.__aiter__()
            next_chunk = iterator.__anext__
            keep = acc.raw.append
            observe = acc.observe
            emit = pipeline.emit
            check = pipeline.check
            direct = not pipeline.stages  # no processor runs per chunk
            unread = self.unread
            unseen = direct and unread
            run_id = self.run_id
            try:
                while True:
                    try:
                        if self.guards:
                            raw = await next_after_checks(iterator, self.guards)
                            self.guards = []  # they passed
                        else:
                            raw = await next_chunk()
                        if cached is None:  # cache entries were checked when returned
                            check_chunk(raw)
                    except StopAsyncIteration:
                        break
                    except (asyncio.CancelledError, GeneratorExit):
                        raise
                    except TripWire:  # a check beside the model call aborted
                        raise
                    except ValueError as e:
                        failed = APICallError(
                            f"model {model_label(config.model)} sent a malformed chunk: {e}")
                        failed.__cause__ = e
                        break
                    except Exception as e:
                        failed = e
                        break
                    keep(raw)
                    kind = raw.type
                    if unseen and not pipeline.pending and not kind.startswith("data-"):
                        # no processor and no reader: the step is all it updates
                        if kind == "finish":
                            acc.finish = raw.payload
                        else:
                            observe(raw)
                        continue
                    if kind == "finish":
                        acc.finish = raw.payload
                        raw = Chunk("step-finish", _step_finish_payload(raw.payload),
                                    run_id=run_id, source=raw.source)
                    elif raw.run_id is None:
                        raw = stamp_run_id(raw, run_id)
                    if pipeline.pending or kind.startswith("data-"):
                        out = await emit(raw)
                    elif direct:
                        observe(raw)  # what emit() would do, without its coroutine
                        yield raw
                        continue
                    elif check is not None:
                        left = check(raw)  # every stage in turn, without a coroutine
                        if left is None and not pipeline.pending:
                            observe(raw)
                            if not unread:
                                yield raw
                            continue
                        at_once = (pipeline.released_at_once(left) if left is not None
                                   else None)  # (a last stage's list: no coroutine)
                        out = at_once if at_once is not None else await pipeline.went_on(
                            raw, left)
                    else:
                        out = await emit(raw)
                    for c in out:
                        observe(c)
                        if not unread:
                            yield c
            finally:
                closer = getattr(iterator, "aclose", None)
                if closer is not None:
                    await closer()
            if failed is not None:
                if self.recorder is not None and self.recorder.tracer is not None:
                    self.recorder.end_model_call(None, from_cache=acc.from_cache, error=failed)
                retry_by = await self._retry_api_error(failed, step_number, api_retries)
                if retry_by is not None:
                    # The failed attempt is discarded like a rejected step: the client is
                    # told, and none of its text reaches the result or the next prompt.
                    api_retries += 1
                    self.current_acc = None
                    for c in await self._step_retry(step_number, str(failed), retry_by,
                                                    api_retries):
                        yield c
                    for c in await pipeline.flush() if pipeline.pending else ():
                        yield c
                    continue
                raise failed
            if not acc.finish:
                # A model (or cache entry) without a finish chunk: the step still ends.
                acc.finish = {"finish_reason": "tool-calls" if acc.tool_calls else "stop",
                              "usage": Usage()}
                for c in await pipeline.emit(Chunk("step-finish", dict(acc.finish),
                                                   run_id=self.run_id)):
                    acc.observe(c)
                    yield c
            break
        if self.recorder is not None and self.recorder.tracer is not None:
            self.recorder.end_model_call(acc.finish, from_cache=acc.from_cache)
        self.current_acc = None
        step = acc.result()
        self.usage = self.usage + step.usage
        message = acc.message(pipeline.take_step_data())
        if message is not None:
            self.message_list.add(message, "response")
            pipeline.current_message = message
        if "process_llm_response" in hooks.input_hooks:
            await hooks.process_llm_response(acc.raw, config.model, step_number,
                                             self.steps, step, acc.from_cache, acc.finish)
        self.steps.append(step)
        for c in await pipeline.flush() if pipeline.pending else ():
            yield c
        try:
            if "process_output_step" in hooks.output_hooks:
                await hooks.process_output_step(self.message_list, step, config, self.steps)
        except TripWire as tw:
            self._maybe_retry(tw)
            raise
        for c in await pipeline.flush() if pipeline.pending else ():
            yield c
        if step.tool_calls:
            chunks = await self.tools.run(step, config, self.steps, acc.bad_args,
                                          self._maybe_retry)
            if not self.unread:
                for c in chunks:
                    yield c

    def _unseen(self) -> bool:
        """Whether a chunk emitted now would reach no processor and no reader (a
        ``generate()`` without ``process_output_stream``): then it is not made."""
        pipeline = self.pipeline
        return self.unread and not pipeline.stages and not pipeline.pending

    def _client_calls(self, step: StepResult) -> bool:
        """Whether ``step`` asked for a client-side tool: the run ends there and the
        caller answers the calls (``client_tools`` call option)."""
        tools = self.call.config.tools
        return any(runs_on_client(c, tools) for c in step.tool_calls)

    def _start_step(self, step_number: int | None) -> None:
        """Audit records and spans from here on belong to ``step_number``."""
        recorder = self.recorder
        if recorder is not None:
            if recorder.tracer is None:  # the audit alone: records only need the step
                recorder.step = step_number
                return
            recorder.start_step(step_number)
            self.tracing_context.span = recorder.span

    def _maybe_retry(self, tw: TripWire) -> None:
        """Turn a ``retry=True`` abort into a step retry when the limit allows."""
        limit = self.call.max_retries
        if tw.retry and limit is not None and self.bindings.retry_count < limit:
            raise _RetryStep(tw) from None

    async def _retry_api_error(
        self, error: Exception, step_number: int, retries: int
    ) -> str | None:
        """Run ``process_api_error``; the id of the processor whose retry request is
        granted, or None."""
        cp = await self.hooks.process_api_error(error, self.message_list, step_number,
                                                self.steps, retries)
        if cp is None:
            return None
        limit = self.call.api_error_retries
        if retries >= limit:
            log.info(
                "API-error retry requested by %r but the limit (%d) is reached", cp.id, limit)
            return None
        if self.call.max_retries is None and cp not in self.agent._defaults:
            self.agent._warn_implicit_retry_budget()
        return cp.id

    # -- what clients are told
    async def _error_chunks(self, error: Exception) -> list[Chunk]:
        """The ``error`` chunk, after the output processors (once). A processor may
        change it but not swallow it: dropped, tripped or failed, the original is sent."""
        chunk = Chunk("error", {"error": error}, run_id=self.run_id)
        try:
            out = await self.pipeline.through(chunk)
        except Exception:  # TripWire included
            log.debug(
                "an output processor failed on the error chunk; sending the original",
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
        self.pipeline.new_step()
        out = await self.pipeline.emit(Chunk(
            "step-retry",
            {"step_number": step_number, "reason": reason, "processor_id": processor_id,
             "retry_count": retry_count},
            run_id=self.run_id,
        ))
        return [c for c in out if c.type not in _STEP_CONTENT]

    # -- text and result
    def _prompt(self, config: StepConfig, transient: list[Message]) -> list[dict[str, Any]]:
        prompt: list[dict[str, Any]] = [dict(s) for s in config.system_messages]
        prompt.extend(self.message_list.all.core())
        for m in transient:
            prompt.extend(message_to_core(m))
        return prompt

    def _response_text(self) -> str:
        return response_text(self.message_list)

    def _text_so_far(self) -> str:
        """The text of a run closed early: accepted steps, plus what the current step
        had streamed."""
        text = self._response_text()
        if self.current_acc is not None:
            text += "".join(self.current_acc.text)
        return text

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
            audit=self.recorder if self.recorder is not None else [],  # records when read
            verdicts=self.pipeline.verdicts,
        )


def _step_finish_payload(finish: Mapping[str, Any]) -> dict[str, Any]:
    """What a ``step-finish`` chunk carries to the client: the finish reason, the usage
    and the provider's metadata, never the raw request, response or headers (those stay
    on ``StepResult.request`` / ``.response``)."""
    payload = {"finish_reason": finish["finish_reason"], "usage": finish.get("usage")}
    if finish.get("provider_metadata"):
        payload["provider_metadata"] = finish["provider_metadata"]
    return payload


async def _replay(chunks: list[Chunk]) -> AsyncIterator[Chunk]:
    for c in chunks:
        yield c
