"""``working-memory``: the document as a tagged system message, the
``update_working_memory`` tool, markdown replacement, JSON merge, concurrency."""

from __future__ import annotations

import asyncio
import json

import pytest

from tripwire import Agent, ConfigurationError, Memory, Processor, hookimpl
from tripwire.memory import open_store
from tripwire.plugins.working_memory import DEFAULT_TEMPLATE, WorkingMemory, merge
from tripwire.testing import MockModel, MockResponse

T1 = {"thread": "t1", "resource": "ann"}


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path}/chat.db"


def update(memory, call_id="c1"):
    return MockResponse(tool_calls=[{"tool_name": "update_working_memory",
                                     "args": {"memory": memory}, "tool_call_id": call_id}])


def systems(model, i):
    return [p for p in model.requests[i].prompt if p["role"] == "system"]


async def test_the_model_updates_the_document_and_sees_it_next_run(url):
    model = MockModel([update("# User\n- **First Name**: Ann"), "Noted.", "Hi Ann."])
    async with Agent(id="a", model=model, memory=Memory(url, working_memory=True),
                     instructions="Be kind.") as a:
        await a.generate("I am Ann", memory=T1)
        first = systems(model, 0)
        assert first[0]["content"] == "Be kind."
        assert first[1]["tag"] == "memory" and DEFAULT_TEMPLATE in first[1]["content"]
        assert "update_working_memory" in [t.name for t in model.requests[0].tools]
        await a.generate("Hello again", memory={"thread": "t2", "resource": "ann"})
        assert "<working_memory_data>\n# User\n- **First Name**: Ann\n</working_memory_data>" \
            in systems(model, 2)[1]["content"]
    async with open_store(url) as s:
        assert await s.get_working_memory("resource:ann") == "# User\n- **First Name**: Ann"


async def test_thread_scope_keeps_one_document_per_thread(url):
    model = MockModel([update("thread one notes"), "ok", "ok"])
    memory = Memory(url, working_memory={"scope": "thread"})
    async with Agent(id="a", model=model, memory=memory) as a:
        await a.generate("x", memory=T1)
        await a.generate("y", memory={"thread": "t2", "resource": "ann"})
        assert "thread one notes" not in systems(model, 2)[0]["content"]
    async with open_store(url) as s:
        assert await s.get_working_memory("thread:t1") == "thread one notes"


async def test_json_updates_merge_and_null_deletes(url):
    wm = WorkingMemory(url, template={"format": "json", "content": '{"name": null}'})
    await wm.update("resource:r", json.dumps({"name": "Ann", "prefs": {"tea": True}}))
    await wm.update("resource:r", json.dumps({"prefs": {"milk": False}, "name": None}))
    assert json.loads(await wm.store.get_working_memory("resource:r")) == \
        {"prefs": {"tea": True, "milk": False}}
    with pytest.raises(ValueError, match="JSON object"):
        await wm.update("resource:r", "[1, 2]")
    with pytest.raises(ValueError, match="JSON object"):
        await wm.update("resource:r", "not json")
    await wm.store.close()


async def test_concurrent_tool_updates_never_lose_a_write(url):
    wm = WorkingMemory(url, template={"format": "json", "content": "{}"})
    await asyncio.gather(*(wm.update("resource:r", json.dumps({f"k{i}": i}))
                           for i in range(30)))
    assert json.loads(await wm.store.get_working_memory("resource:r")) == \
        {f"k{i}": i for i in range(30)}
    await wm.store.close()


async def test_concurrent_runs_updating_through_the_tool_keep_both_writes(url):
    memory = Memory(url, working_memory={"template": {"format": "json"}})
    replies = {}

    class Script:
        provider = "script"
        model_id = "script"

        async def stream(self, request):
            from tripwire import Chunk, Usage

            text = request.prompt[-1]["content"][0]["text"] if request.prompt[-1]["role"] == \
                "user" else None
            if text is not None:
                replies[text] = True
                yield Chunk("tool-call", {"tool_call_id": text, "tool_name":
                                          "update_working_memory",
                                          "args": {"memory": json.dumps({text: True})}})
                yield Chunk("finish", {"finish_reason": "tool-calls", "usage": Usage()})
            else:
                yield Chunk("text-delta", {"id": "t", "text": "ok"})
                yield Chunk("finish", {"finish_reason": "stop", "usage": Usage()})

    async with Agent(id="a", model=Script(), memory=memory) as a:
        await asyncio.gather(*(a.generate(f"fact{i}", memory={"thread": f"t{i}",
                                                               "resource": "ann"})
                               for i in range(8)))
        stored = json.loads(await memory.store.get_working_memory("resource:ann"))
    assert stored == {f"fact{i}": True for i in range(8)}


async def test_read_only_shows_the_document_but_adds_no_tool(url):
    async with open_store(url) as s:
        await s.update_working_memory("resource:ann", lambda old: "known facts")
    model = MockModel(["ok"])
    async with Agent(id="a", model=model, memory=Memory(url, working_memory=True,
                                                        read_only=True)) as a:
        await a.generate("x", memory=T1)
    assert "known facts" in systems(model, 0)[0]["content"]
    assert model.requests[0].tools == []


async def test_without_a_thread_there_is_no_document_and_no_tool(url):
    model = MockModel(["ok"])
    async with Agent(id="a", model=model, memory=Memory(url, working_memory=True)) as a:
        await a.generate("x")
    assert systems(model, 0) == [] and model.requests[0].tools == []


async def test_a_processor_replacing_system_messages_keeps_the_memory_message(url):
    class Replace(Processor):
        id = "replace"

        @hookimpl
        def process_input(self, system_messages):
            return {"system_messages": ["Only this."]}

    model = MockModel(["ok"])
    async with Agent(id="a", model=model, memory=Memory(url, working_memory=True),
                     instructions="original", input_processors=[Replace()]) as a:
        await a.generate("x", memory=T1)
    got = systems(model, 0)
    assert got[0]["content"] == "Only this." and got[1]["tag"] == "memory" and len(got) == 2


def test_merge():
    assert merge({"a": {"b": 1, "c": 2}}, {"a": {"c": None, "d": 3}}) == {"a": {"b": 1, "d": 3}}
    assert merge({"a": 1}, {"a": [1]}) == {"a": [1]}
    assert merge([1], {"a": 1}) == {"a": 1}


@pytest.mark.parametrize("options, match", [
    ({"scope": "user"}, "scope"),
    ({"template": {"format": "yaml"}}, "format"),
    ({"template": {"format": "json", "content": "[1]"}}, "must be an object"),
    ({"template": {"format": "json", "content": "{"}}, "not JSON"),
    ({"template": {"fmt": "json"}}, "template must be"),
])
def test_bad_options_are_refused(url, options, match):
    with pytest.raises(ConfigurationError, match=match):
        WorkingMemory(url, **options)
    with pytest.raises(ConfigurationError, match="^working-memory: option 'store' is required"):
        WorkingMemory()


async def test_a_thread_document_of_another_resource_is_refused(url):
    from tripwire.memory import ThreadOwnerError

    wm = WorkingMemory(url, scope="thread")
    await wm.store.save_messages("t1", "ann", [])
    await wm.update("thread:t1", "ann's notes")
    from tripwire import MessageList

    with pytest.raises(ThreadOwnerError):
        await wm.process_input(MessageList(["x"]), {"tripwire__thread_id": "t1",
                                                    "tripwire__resource_id": "bob"})
    ml = MessageList(["x"])
    await wm.process_input(ml, {"tripwire__thread_id": "t1", "tripwire__resource_id": "ann"})
    ml.lift_recalled_system()  # (what the run does after its input processors)
    assert "ann's notes" in ml.system_messages[-1]["content"]
    await wm.store.close()


async def test_a_step_processor_replacing_system_messages_keeps_the_memory_message(url):
    class StepReplace(Processor):
        id = "step-replace"

        @hookimpl
        def process_input_step(self, system_messages):
            return {"system_messages": ["Step only."]}

    model = MockModel(["ok"])
    async with Agent(id="a", model=model, memory=Memory(url, working_memory=True),
                     instructions="original", input_processors=[StepReplace()]) as a:
        await a.generate("x", memory=T1)
    got = systems(model, 0)
    assert got[0]["content"] == "Step only." and got[1]["tag"] == "memory" and len(got) == 2


@pytest.mark.parametrize("setup", ["working-memory-alone", "run-tripped-after-the-tool"])
async def test_a_thread_document_is_its_writers_even_before_a_message_is_saved(store, setup):
    """The tool's write makes the thread the writer's: another resource naming the thread
    is refused, though no message of it was saved (no message history, or a run that
    tripped after the tool ran and so saved nothing)."""
    from tripwire import ProcessorError
    from tripwire.memory import ThreadOwnerError
    from tripwire.plugins.regex_filter import RegexFilter

    secret = "ann-note-4411"
    model = MockModel([update(f"notes: {secret}"), "Noted, BLOCKME.", "ok"])
    if setup == "working-memory-alone":
        wm = WorkingMemory(store, scope="thread")
        options = {"input_processors": [wm]}
    else:
        options = {"memory": Memory(store, working_memory={"scope": "thread"}),
                   "output_processors": [RegexFilter([{"name": "b", "pattern": "BLOCKME"}],
                                                     strategy="block")]}
    async with Agent(id="a", model=model, default_error_processors=False, **options) as a:
        first = await a.generate("remember this", memory=T1)
        assert (first.tripwire is not None) == (setup != "working-memory-alone")
        with pytest.raises(ProcessorError) as caught:
            await a.generate("what do you know?", memory={"thread": "t1", "resource": "bob"})
        assert isinstance(caught.value.__cause__, ThreadOwnerError)
        assert len(model.requests) == 2  # ann's two steps; bob's call never reached it
    assert (await store.get_thread("t1")).resource_id == "ann"
