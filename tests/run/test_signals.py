"""What processors add to a run: custom data chunks (writer), system-reminder signals
(send_signal), and the prepare_step callback that runs after the input processors."""

from __future__ import annotations

import pytest

from tests.support.helpers import user_text
from tripwire import Processor, ProcessorError, hookimpl
from tripwire.testing import MockModel


async def test_writer_custom_chunks_keep_transient_flag_and_are_stored_unless_transient(
    make_bare_agent,
):
    class Progress(Processor):
        id = "progress"

        @hookimpl
        async def process_output_step(self, writer):
            await writer.custom({"type": "data-score", "data": {"score": 0.9}})
            await writer.custom({"type": "data-progress", "data": "done", "transient": True})

    stream = make_bare_agent(["ok"], output_processors=[Progress()]).stream("x")
    chunks = [c async for c in stream]
    data = [(c.type, c.transient) for c in chunks if c.type.startswith("data-")]
    assert data == [("data-score", False), ("data-progress", True)]
    result = await stream.result
    kinds = [p.type for m in result.messages for p in m.content.parts]
    assert "data-score" in kinds and "data-progress" not in kinds


async def test_writer_rejects_non_data_chunks(make_bare_agent):
    class Bad(Processor):
        id = "bad"

        @hookimpl
        async def process_input(self, writer):
            await writer.custom({"type": "text-delta", "data": "x"})

    with pytest.raises(ProcessorError, match="data-"):
        await make_bare_agent(input_processors=[Bad()]).generate("x")


async def test_send_signal_adds_system_reminder_and_transient_ones_are_not_stored(make_bare_agent):
    class Remind(Processor):
        id = "remind"

        @hookimpl
        async def process_input_step(self, send_signal, step_number):
            await send_signal({"type": "reactive", "contents": "Be concise.",
                               "attributes": {"reason": "style", "step": step_number}})
            await send_signal({"contents": "Stay on task.", "transient": True})

    model = MockModel(["ok"])
    result = await make_bare_agent(model=model, input_processors=[Remind()]).generate("x")
    assert user_text(model) == ["x", '<system-reminder reason="style" step="0">Be concise.</system-reminder>',
                     "<system-reminder>Stay on task.</system-reminder>"]
    stored = [m.text for m in result.message_list.all.db()]
    assert '<system-reminder reason="style" step="0">Be concise.</system-reminder>' in stored
    assert "<system-reminder>Stay on task.</system-reminder>" not in stored
    # Signals are hidden from UI messages.
    assert [m["role"] for m in result.message_list.all.ui()] == ["user", "assistant"]


async def test_prepare_step_runs_after_input_processors_with_declared_args(make_bare_agent):
    order = []

    class First(Processor):
        id = "first"

        @hookimpl
        def process_input_step(self, step_number):
            order.append("processor")
            return {"tool_choice": "required"}

    def prepare_step(step_number, tool_choice):
        order.append(("prepare_step", step_number, tool_choice))
        return {"tool_choice": "none"}

    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, input_processors=[First()])
    await agent.generate("x", prepare_step=prepare_step)
    assert order == ["processor", ("prepare_step", 0, "required")]
    assert model.requests[0].tool_choice == "none"


async def test_async_prepare_step_with_kwargs_gets_all_arguments(make_bare_agent):
    seen = {}

    async def prepare_step(**kwargs):
        seen.update(kwargs)

    await make_bare_agent(["ok"]).generate("x", prepare_step=prepare_step)
    assert {"step_number", "model", "tools", "send_signal", "abort"} <= set(seen)
