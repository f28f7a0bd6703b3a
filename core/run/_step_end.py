"""A step the model finished: accepted, then checked.

Accepting it records its usage and its message (the step's text, reasoning, tool calls
and the ``data-*`` chunks hooks wrote) and runs ``process_llm_response``; then
``process_output_step`` sees the step as the conversation now holds it and may abort it
(with ``retry=True``, to have it run again). Its tools run after that
(``_tool_exec``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tripwire.chunks import Chunk
from tripwire.errors import TripWire

if TYPE_CHECKING:
    from tripwire.results import StepAccumulator, StepResult
    from tripwire.run._call import StepConfig
    from tripwire.run._loop import Run


async def accept_step(
    run: Run, acc: StepAccumulator, config: StepConfig, step_number: int
) -> tuple[StepResult, list[Chunk]]:
    """Accept the step ``acc`` gathered: its usage and message recorded,
    ``process_llm_response`` run; the step, and the chunks hooks wrote meanwhile (after
    the output processors)."""
    run.end_model_call(acc)
    run.current_acc = None
    step = acc.result()
    run.usage = run.usage + step.usage
    pipeline = run.pipeline
    message = acc.message(pipeline.take_step_data())
    if message is not None:
        run.message_list.add(message, "response")
        pipeline.current_message = message
    hooks = run.hooks
    if "process_llm_response" in hooks.input_hooks:
        await hooks.process_llm_response(acc.raw, config.model, step_number,
                                         run.steps, step, acc.from_cache, acc.finish)
    run.steps.append(step)
    return step, await pipeline.flush() if pipeline.pending else []


async def output_step(run: Run, step: StepResult, config: StepConfig) -> list[Chunk]:
    """Run ``process_output_step`` on the accepted ``step`` (an abort with
    ``retry=True`` becomes a step retry when the limit allows); the chunks hooks wrote
    meanwhile (after the output processors)."""
    hooks = run.hooks
    try:
        if "process_output_step" in hooks.output_hooks:
            await hooks.process_output_step(run.message_list, step, config, run.steps)
    except TripWire as tw:
        run.retries.maybe_retry(tw)
        raise
    pipeline = run.pipeline
    return await pipeline.flush() if pipeline.pending else []
