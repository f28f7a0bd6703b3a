"""A step's preparation: what the model is asked, before anything streams.

``process_input_step`` shapes the step's configuration (model, tools, system messages,
settings) and may send signals that only this step's prompt carries (transient
messages). Each model call of the step (a failed call may be made again) builds the
provider-facing prompt from them, which ``process_llm_request`` may change or answer
from a cache instead of the model; ``model_request`` is what the model is then sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk
from tripwire.messages import Message, MessageList, message_to_core
from tripwire.models import ModelRequest
from tripwire.run._signals import make_send_signal
from tripwire.stream._json_escapes import CanonicalStream, json_answer

if TYPE_CHECKING:
    from tripwire.run._call import StepConfig
    from tripwire.run._loop import Run


async def prepare_step(
    run: Run, step_number: int
) -> tuple[StepConfig, list[Message], list[Chunk]]:
    """Start step ``step_number`` of ``run`` and run ``process_input_step``: the step's
    configuration, the transient messages its signals added, and the chunks hooks
    wrote meanwhile (after the output processors)."""
    pipeline = run.pipeline
    config = run.call.config.for_step(run.message_list.system_messages)
    transient: list[Message] = []
    pipeline.new_step()
    run.start_step(step_number)
    hooks = run.hooks
    if "process_input_step" in hooks.input_hooks:
        await hooks.process_input_step(
            run.message_list, step_number, run.steps, config,
            lambda: make_send_signal(run.message_list, run.pipeline, transient,
                                     lambda: bool(run.steps)), run.agent._resolve)
    if all(m is not config.model for m in run.models_used):
        run.models_used.append(config.model)
    return config, transient, await pipeline.flush() if pipeline.pending else []


async def request_prompt(
    run: Run, config: StepConfig, transient: list[Message], step_number: int
) -> tuple[list[dict[str, Any]], list[Chunk] | None, list[Chunk]]:
    """The prompt of one model call after ``process_llm_request``, the cached answer a
    processor returned instead of the call (or None), and the chunks hooks wrote
    meanwhile (after the output processors)."""
    prompt = build_prompt(config, run.message_list, transient)
    cached: list[Chunk] | None = None
    hooks = run.hooks
    if "process_llm_request" in hooks.input_hooks:
        prompt, cached = await hooks.process_llm_request(prompt, config, step_number, run.steps)
    pipeline = run.pipeline
    return prompt, cached, await pipeline.flush() if pipeline.pending else []


def build_prompt(
    config: StepConfig, message_list: MessageList, transient: list[Message]
) -> list[dict[str, Any]]:
    """The provider-facing prompt: the step's system messages, the conversation, then
    the step's transient messages."""
    prompt: list[dict[str, Any]] = [dict(s) for s in config.system_messages]
    prompt.extend(message_list.all.core())
    for m in transient:
        prompt.extend(message_to_core(m))
    return prompt


def model_request(config: StepConfig, prompt: list[dict[str, Any]],
                  run_id: str | None = None) -> ModelRequest:
    """What the model is sent: ``prompt`` with the step's active tools and settings, in
    run ``run_id``."""
    # (in ModelRequest's field order: prompt, tools, tool choice, model settings, provider
    # options, structured output, run id)
    return ModelRequest(prompt, list(config.active().values()), config.tool_choice,
                        config.model_settings, config.provider_options,
                        config.structured_output, run_id)


def answer_stream(config: StepConfig, request: ModelRequest,
                  cached: list[Chunk] | None) -> AsyncIterator[Chunk]:
    """The chunks of one model call: the model's answer to ``request``, or the cached
    answer ``process_llm_request`` returned. When the answer is JSON its reader decodes
    (``json_answer``: structured output, a JSON ``response_format``), its text has its
    JSON string escapes canonical (``CanonicalStream``) before any processor sees it."""
    source = replay(cached) if cached is not None else config.model.stream(request)
    if json_answer(config.structured_output, config.provider_options):
        return CanonicalStream(source)
    return source


async def replay(chunks: list[Chunk]) -> AsyncIterator[Chunk]:
    """A cached answer (``process_llm_request``'s), streamed in place of the model's."""
    for c in chunks:
        yield c
