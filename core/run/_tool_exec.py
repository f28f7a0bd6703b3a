"""Running the tools a step asked for, each result through ``process_tool_result``.

Running the tools a step asked for: concurrently, each result through
``process_tool_result`` and then to the client as a ``tool-result`` (or ``tool-error``)
chunk, in the order the model called them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk, ToolCall, ToolResult
from tripwire.errors import ToolError, TripWire
from tripwire.messages import MessageList, ToolInvocation, ToolInvocationPart
from tripwire.tools import UNOFFERED_TOOL, Tool

if TYPE_CHECKING:
    from tripwire.context import RequestContext
    from tripwire.hooks._facade import Hooks
    from tripwire.results import StepResult
    from tripwire.run._call import StepConfig
    from tripwire.stream._pipeline import OutputPipeline

log = logging.getLogger("tripwire")


def unoffered(chunk: Chunk, offered: dict[str, Tool], not_run: dict[str, str]) -> Chunk:
    """A model's ``tool-call`` chunk naming a tool not in ``offered`` (the step's tools,
    the caller's client tools among them), as the run records and shows it: under
    ``UNOFFERED_TOOL``. The model chooses a call's name and no guard reads one, so the
    model's name goes only into the tool's error (``not_run``, keyed by the call's id),
    which the model gets back as the reference's unknown-tool error would and which the
    output guards check on its way to the client and the stored thread."""
    payload = chunk.payload
    available = ", ".join(sorted(offered)) or "none"
    not_run[payload["tool_call_id"]] = (
        f"Tool {payload['tool_name']!r} is not available: it is not one of the tools you "
        f"were offered. Available tools: {available}")
    return chunk.evolve(payload={**payload, "tool_name": UNOFFERED_TOOL})


def runs_on_client(call: ToolCall, tools: dict[str, Tool]) -> bool:
    """Whether ``call`` is for a client-side tool (the caller runs it, the run ends)."""
    tool = tools.get(call.tool_name)
    return tool is not None and tool.client_side


class ToolRunner:
    """Executes one call's tools with the services tools may ask for."""

    def __init__(
        self, hooks: Hooks, pipeline: OutputPipeline, message_list: MessageList,
        request_context: RequestContext, abort_signal: asyncio.Event, run_id: str,
    ) -> None:
        self._hooks = hooks
        self._pipeline = pipeline
        self._message_list = message_list
        self._request_context = request_context
        self._abort_signal = abort_signal
        self._run_id = run_id

    async def run(
        self, step: StepResult, config: StepConfig, steps: list[StepResult],
        not_run: dict[str, str], retryable: Callable[[TripWire], None],
    ) -> list[Chunk]:
        """Run ``step``'s tool calls; their result chunks after the output processors.
        ``retryable`` turns a ``retry=True`` abort of ``process_tool_result`` into a
        step retry when the limit allows. When a later call's result trips, the chunks
        of the calls before it go with the tripwire (``_released``): the client gets
        them before it, as it would had they been sent one by one."""
        tools = config.active()
        calls = [c for c in step.tool_calls if not runs_on_client(c, tools)]
        if len(calls) == 1:  # nothing to run beside it: no task, no trip through the loop
            outcomes = [await self._execute(calls[0], tools, not_run)]
        else:
            outcomes = await asyncio.gather(
                *(self._execute(call, tools, not_run) for call in calls))
        message_list = self._message_list
        out: list[Chunk] = []
        try:
            for call, (ok, value) in zip(calls, outcomes, strict=True):
                message_list.update_tool_invocation(ToolInvocationPart(ToolInvocation(
                    "result", call.tool_call_id, call.tool_name, call.args, value,
                    is_error=ok is not True)))
                # a result, or a ToolError's text (the tool's answer), when an output
                # processor implements process_tool_result
                if ok is not False and "process_tool_result" in self._hooks.output_hooks:
                    try:
                        value = await self._hooks.process_tool_result(
                            message_list, call, value, step.step_number, config, steps)
                    except TripWire as tw:
                        retryable(tw)
                        raise
                if ok:
                    chunk = Chunk("tool-result", {"tool_call_id": call.tool_call_id,
                                                  "tool_name": call.tool_name, "result": value},
                                  run_id=self._run_id)
                else:
                    chunk = Chunk("tool-error", {"tool_call_id": call.tool_call_id,
                                                 "tool_name": call.tool_name, "error": value},
                                  run_id=self._run_id)
                out.extend(await self._pipeline.emit(chunk))
                # The result as the model sees it next, read after the output processors:
                # one that redacts a tool error does so in its chunk and in the stored
                # result (process_tool_result does not run for a failed tool), and the
                # raw error must not stay in ``result.tool_results``. A processor that
                # drops the chunk hides it from the client only: the model still gets
                # the stored result (every call needs one), and so does this.
                stored = message_list.find_tool_invocation(call.tool_call_id)
                step.tool_results.append(ToolResult(
                    call.tool_call_id, call.tool_name, call.args,
                    stored.result if stored is not None else value, is_error=ok is not True))
        except TripWire as tw:
            if out:  # the results before it, after the output processors
                tw._released = [*out, *getattr(tw, "_released", ())]  # type: ignore[attr-defined]
            raise
        return out

    async def _execute(
        self, call: ToolCall, tools: dict[str, Tool], not_run: dict[str, str]
    ) -> tuple[bool | None, Any]:
        """``(True, result)``; ``(None, text)`` for a ``ToolError`` (the tool's answer,
        whose text passes ``process_tool_result`` as a result would, then reaches the
        model as the tool's error); ``(False, text)`` for anything else that failed."""
        error = not_run.get(call.tool_call_id)
        if error is not None:
            return False, error
        tool = tools.get(call.tool_name)
        if tool is None:  # (a processor's chunk or step changed the name after the check)
            available = ", ".join(sorted(tools)) or "none"
            return False, f"Tool {call.tool_name!r} is not available. Available tools: {available}"
        try:
            return True, await tool.run(
                call.args, writer=self._pipeline.writer(), request_context=self._request_context,
                abort_signal=self._abort_signal,
            )
        except asyncio.CancelledError:
            raise
        except ToolError as e:
            log.info("tool %r answered with a ToolError", call.tool_name)
            return None, f"ToolError: {e}"
        except Exception as e:
            # The type only: the message can hold what the tool was given or found (a
            # guarded value), and reaches the model and the client as the tool's error
            # after the output processors, which the log would bypass.
            log.info("tool %r raised %s", call.tool_name, type(e).__name__)
            return False, f"{type(e).__name__}: {e}"
