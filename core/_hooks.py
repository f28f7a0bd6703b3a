"""A typed facade over the lifecycle hooks of one call (as tox 4 puts one over
``pm.hook``): one method per hook, each calling the processors that implement it in
list order and applying what they return, so the loop reads like the diagram in
docs/hooks.md.

A ``TripWire`` raised by a processor propagates to the caller (the loop decides
between a retry and the end of the run); everything else a processor does wrong is
handled in ``tripwire._returns`` and ``tripwire._hookcall``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from tripwire import _returns
from tripwire._call_options import CallOptions, StepConfig
from tripwire._hookcall import BoundHook, make_abort
from tripwire._validation import CompiledProcessor
from tripwire.chunks import Chunk, ToolCall
from tripwire.context import TracingContext
from tripwire.messages import MessageList, ToolInvocation, ToolInvocationPart

if TYPE_CHECKING:
    import asyncio

    from tripwire._pipeline import OutputPipeline
    from tripwire.results import OutputResult, StepResult


class Hooks:
    """The nine hooks of one call, bound to its processors and services."""

    def __init__(
        self,
        call: CallOptions,
        pipeline: OutputPipeline,
        tracing_context: TracingContext,
        abort_signal: asyncio.Event,
    ) -> None:
        self.inputs = call.inputs
        self.outputs = call.outputs
        self.errors = call.errors
        self._call = call
        self._pipeline = pipeline
        self._tracing_context = tracing_context
        self._abort_signal = abort_signal
        self._retry_count = 0
        #: ``state`` per processor id: shared by that processor's hooks for the call
        self.states: dict[str, dict[str, Any]] = {}
        self._commons: dict[int, dict[str, Any]] = {}
        self._bound: dict[tuple[int, str], BoundHook] = {}

    # -- binding
    def common(self, cp: CompiledProcessor) -> dict[str, Any]:
        """The common hook arguments of one processor, built once per call."""
        key = id(cp.processor)
        common = self._commons.get(key)
        if common is None:
            common = self._commons[key] = {
                "abort": make_abort(cp.id),
                "retry_count": self._retry_count,
                "request_context": self._call.request_context,
                "tracing_context": self._tracing_context,
                "state": self.states.setdefault(cp.id, {}),
                "writer": self._pipeline.writer(cp),
                "abort_signal": self._abort_signal,
            }
        return common

    def bound(self, cp: CompiledProcessor, hook: str) -> BoundHook:
        key = (id(cp.processor), hook)
        bound = self._bound.get(key)
        if bound is None:
            bound = self._bound[key] = BoundHook(cp, hook, self.common(cp))
        return bound

    def implementing(self, processors: list[CompiledProcessor], hook: str) -> list[BoundHook]:
        return [self.bound(cp, hook) for cp in processors if hook in cp.impls]

    @property
    def retry_count(self) -> int:
        return self._retry_count

    def set_retry_count(self, value: int) -> None:
        self._retry_count = value
        for common in self._commons.values():
            common["retry_count"] = value
        for bound in self._bound.values():
            bound.set("retry_count", value)

    # -- the hooks, in the order they run
    async def process_input(self, message_list: MessageList) -> None:
        for bound in self.implementing(self.inputs, "process_input"):
            stage = message_list.all.db()
            result = await bound({
                "messages": stage,
                "system_messages": list(message_list.system_messages),
                "message_list": message_list,
            })
            _returns.apply_input(message_list, bound.cp, result, stage)

    async def process_input_step(
        self, message_list: MessageList, step_number: int, steps: list[StepResult],
        config: StepConfig, send_signal: Callable[..., Any],
        resolve_model: Callable[[Any], Any],
    ) -> None:
        for bound in self.implementing(self.inputs, "process_input_step"):
            stage = message_list.all.db()
            result = await bound({
                "messages": stage,
                "message_list": message_list,
                "step_number": step_number,
                "steps": list(steps),
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
            _returns.apply_step_overrides(message_list, bound.cp, result, config, stage,
                                          resolve_model)

    async def process_llm_request(
        self, prompt: list[dict[str, Any]], config: StepConfig, step_number: int,
        steps: list[StepResult],
    ) -> tuple[list[dict[str, Any]], list[Chunk] | None]:
        """The prompt to send (processors may rewrite it for this call only), and the
        cached chunks when a processor answered the call itself."""
        for bound in self.implementing(self.inputs, "process_llm_request"):
            result = await bound({"prompt": prompt, "model": config.model,
                                  "step_number": step_number, "steps": list(steps)})
            new_prompt, cached = _returns.llm_request(bound.cp, result)
            if cached is not None:
                return prompt, cached
            if new_prompt is not None:
                prompt = new_prompt
        return prompt, None

    async def process_llm_response(
        self, chunks: list[Chunk], model: Any, step_number: int, steps: list[StepResult],
        from_cache: bool, finish: Mapping[str, Any],
    ) -> None:
        for bound in self.implementing(self.inputs, "process_llm_response"):
            await bound({
                "chunks": list(chunks), "model": model, "step_number": step_number,
                "steps": list(steps), "from_cache": from_cache,
                "warnings": finish.get("warnings") or [],
                "request": finish.get("request"),
                "raw_response": finish.get("raw_response"),
            })

    async def process_api_error(
        self, error: Exception, message_list: MessageList, step_number: int,
        steps: list[StepResult], retries: int,
    ) -> CompiledProcessor | None:
        """The processor that asks to retry the failed call (input, output, then error
        processors; the first to ask wins), or None. The retry limit is the caller's."""
        seen: set[int] = set()
        for cp in self.inputs + self.outputs + self.errors:
            if "process_api_error" not in cp.impls or id(cp.processor) in seen:
                continue
            seen.add(id(cp.processor))
            bound = self.bound(cp, "process_api_error")
            bound.set("retry_count", retries)  # API-error retries of this step
            try:
                result = await bound({
                    "error": error,
                    "messages": message_list.all.db(),
                    "message_list": message_list,
                    "step_number": step_number,
                    "steps": list(steps),
                })
            finally:
                bound.set("retry_count", self._retry_count)
            if isinstance(result, Mapping) and result.get("retry"):
                return cp
        return None

    async def process_output_step(
        self, message_list: MessageList, step: StepResult, config: StepConfig,
        steps: list[StepResult],
    ) -> None:
        for bound in self.implementing(self.outputs, "process_output_step"):
            stage = message_list.all.db()
            result = await bound({
                "messages": stage,
                "message_list": message_list,
                "step_number": step.step_number,
                "finish_reason": step.finish_reason,
                "provider_metadata": step.provider_metadata,
                "tool_calls": list(step.tool_calls),
                "text": step.text,
                "usage": step.usage,
                "system_messages": list(config.system_messages),
                "steps": list(steps),
            })
            if _returns.is_unchanged_step(result):
                continue
            _returns.apply_messages(message_list, bound.cp, "process_output_step", result,
                                    stage, "response")

    async def process_tool_result(
        self, message_list: MessageList, call: ToolCall, value: Any, step_number: int,
        config: StepConfig, steps: list[StepResult],
    ) -> Any:
        """The tool's result after every output processor (``{"result": value}``
        replaces it, as does ``message_list.update_tool_invocation``)."""
        for bound in self.implementing(self.outputs, "process_tool_result"):
            current = message_list.find_tool_invocation(call.tool_call_id)
            returned = await bound({
                "messages": message_list.all.db(),
                "message_list": message_list,
                "step_number": step_number,
                "tool_name": call.tool_name,
                "tool_call_id": call.tool_call_id,
                "args": call.args,
                "result": current.result if current else value,
                "provider_executed": False,
                "system_messages": list(config.system_messages),
                "steps": list(steps),
            })
            replaced, new_value = _returns.tool_result(bound.cp, returned)
            if replaced:
                current = message_list.find_tool_invocation(call.tool_call_id)
                base = current or ToolInvocation("result", call.tool_call_id, call.tool_name,
                                                 call.args)
                message_list.update_tool_invocation(ToolInvocationPart(
                    _evolve(base, result=new_value)))
        final = message_list.find_tool_invocation(call.tool_call_id)
        return final.result if final is not None else value

    async def process_output_result(
        self, message_list: MessageList, output: OutputResult,
        response_text: Callable[[], str],
    ) -> None:
        for bound in self.implementing(self.outputs, "process_output_result"):
            stage = message_list.response.db()
            result = await bound({"messages": stage, "message_list": message_list,
                                  "result": output})
            _returns.apply_messages(message_list, bound.cp, "process_output_result", result,
                                    stage, "response")
            output._set_text(response_text())


def _evolve(invocation: ToolInvocation, **changes: Any) -> ToolInvocation:
    return attrs.evolve(invocation, state="result", **changes)
