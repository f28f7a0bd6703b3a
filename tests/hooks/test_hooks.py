"""One test per lifecycle hook (test_hook_<name>): what it receives, what its return does."""

from __future__ import annotations

from tests.support.helpers import user_text
from tripwire import (
    Chunk,
    Message,
    Processor,
    ToolInvocation,
    ToolInvocationPart,
    hookimpl,
    tool,
)
from tripwire.errors import APICallError
from tripwire.testing import MockModel, MockResponse


@tool
def lookup_customer(customer_id: str) -> dict:
    """Look a customer up by id."""
    return {"id": customer_id, "name": "Ada", "ssn": "123-45-6789"}


async def test_hook_process_input(make_bare_agent):
    class Lowercase(Processor):
        id = "lowercase"

        @hookimpl
        def process_input(self, messages, system_messages):
            for m in messages:
                for p in m.content.parts:
                    p.text = p.text.lower()
            return {"messages": messages, "system_messages": [*system_messages, "Use French."]}

    model = MockModel(["bonjour"])
    agent = make_bare_agent(model=model, instructions="Be brief.", input_processors=[Lowercase()])
    result = await agent.generate("HELLO There")
    prompt = model.requests[0].prompt
    assert prompt[0] == {"role": "system", "content": "Be brief."}
    assert prompt[1] == {"role": "system", "content": "Use French."}
    assert prompt[2]["content"] == [{"type": "text", "text": "hello there"}]
    assert result.text == "bonjour"


async def test_hook_process_input_list_return_reconciles(make_bare_agent):
    class DropFirst(Processor):
        id = "drop-first"

        @hookimpl
        def process_input(self, messages):
            return [*messages[1:], Message.user("added by processor")]

    model = MockModel(["ok"])
    await make_bare_agent(model=model, input_processors=[DropFirst()]).generate(["one", "two"])
    assert user_text(model) == ["two", "added by processor"]


async def test_hook_process_input_step(make_bare_agent):
    seen = []

    class PerStep(Processor):
        id = "per-step"

        @hookimpl
        def process_input_step(self, step_number, steps, tools, system_messages):
            seen.append((step_number, len(steps), sorted(tools)))
            if step_number == 1:
                return {"tool_choice": "none", "system_messages": [*system_messages, "Step two."],
                        "model_settings": {"temperature": 0}}
            return None

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup_customer", "args": {"customer_id": "7"}}]),
        "Ada it is.",
    ])
    agent = make_bare_agent(model=model, instructions="Be brief.", tools=[lookup_customer],
                            input_processors=[PerStep()])
    await agent.generate("who is 7?")
    assert seen == [(0, 0, ["lookup_customer"]), (1, 1, ["lookup_customer"])]
    first, second = model.requests
    assert first.tool_choice is None and second.tool_choice == "none"
    assert second.model_settings == {"temperature": 0}
    assert [m["content"] for m in second.prompt if m["role"] == "system"] == ["Be brief.", "Step two."]
    # System-message changes last for one step only.
    assert [m["content"] for m in first.prompt if m["role"] == "system"] == ["Be brief."]


async def test_hook_process_input_step_chains_overrides_in_order(make_bare_agent):
    class First(Processor):
        id = "first"

        @hookimpl
        def process_input_step(self, model):
            return {"model": other}

    class Second(Processor):
        id = "second"

        @hookimpl
        def process_input_step(self, model):
            seen.append(model)
            return {"active_tools": []}

    seen = []
    other = MockModel(["from other"])
    base = MockModel([])
    result = await make_bare_agent(model=base, tools=[lookup_customer],
                                   input_processors=[First(), Second()]).generate("hi")
    assert seen == [other]
    assert result.text == "from other"
    assert other.requests[0].tools == []
    assert base.requests == []


async def test_hook_process_llm_request(make_bare_agent):
    class StripTools(Processor):
        id = "strip-system"

        @hookimpl
        def process_llm_request(self, prompt, step_number):
            return {"prompt": [m for m in prompt if m["role"] != "system"]}

    model = MockModel(["one", "two"])
    agent = make_bare_agent(model=model, instructions="Be brief.", input_processors=[StripTools()])
    result = await agent.generate("hi")
    assert all(m["role"] != "system" for m in model.requests[0].prompt)
    # Never persisted: the stored conversation still has the instructions.
    assert result.message_list.system_messages == [{"role": "system", "content": "Be brief."}]


async def test_process_llm_request_sees_the_calls_tools_and_settings(make_bare_agent):
    seen = {}

    @tool
    def search(query: str) -> str:
        """Search."""
        return query

    class Reader(Processor):
        id = "reader"

        @hookimpl
        def process_llm_request(self, tools, tool_choice, model_settings, provider_options,
                                structured_output):
            seen.update(tools=sorted(tools), tool_choice=tool_choice,
                        settings=dict(model_settings), structured=structured_output)
            model_settings["temperature"] = 2.0  # a copy: the call is not changed

    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, tools=[search], input_processors=[Reader()],
                            model_settings={"temperature": 0.1})
    await agent.generate("hi")
    assert seen == {"tools": ["search"], "tool_choice": None,
                    "settings": {"temperature": 0.1}, "structured": None}
    assert model.requests[0].model_settings == {"temperature": 0.1}


async def test_hook_process_llm_response(make_bare_agent):
    calls = []

    class Recorder(Processor):
        id = "recorder"

        @hookimpl
        def process_llm_request(self, state, step_number):
            state["key"] = f"step-{step_number}"

        @hookimpl
        def process_llm_response(self, chunks, from_cache, state, step_number, steps, warnings):
            calls.append((state["key"], [c.type for c in chunks], from_cache, len(steps), warnings))

    model = MockModel(["hello world"])
    await make_bare_agent(model=model, input_processors=[Recorder()]).generate("hi")
    assert calls == [("step-0", ["text-delta", "text-delta", "finish"], False, 1, [])]


async def test_hook_process_api_error(make_bare_agent):
    class ContextTrimmer(Processor):
        id = "context-trimmer"

        @hookimpl
        def process_api_error(self, error, message_list, retry_count):
            if retry_count == 0 and "context length" in str(error):
                message_list.remove_by_ids([message_list.all.db()[0].id])
                return {"retry": True}
            return None

    model = MockModel([
        MockResponse(error=APICallError("context length exceeded", 400, False)),
        "short answer",
    ])
    agent = make_bare_agent(model=model, error_processors=[ContextTrimmer()])
    result = await agent.generate(["old history", "question"])
    assert result.text == "short answer"
    assert user_text(model, 1) == ["question"]


async def test_hook_process_output_stream(make_bare_agent):
    class Redact(Processor):
        id = "redact"

        @hookimpl
        def process_output_stream(self, part):
            if part.type == "text-delta" and "secret" in part.payload["text"]:
                return None
            return part

    model = MockModel(["the secret plan"])
    stream = make_bare_agent(model=model, output_processors=[Redact()]).stream("hi")
    texts = [c.payload["text"] async for c in stream if c.type == "text-delta"]
    assert texts == ["the ", "plan"]
    assert await stream.text == "the plan"


async def test_hook_process_output_step(make_bare_agent):
    class Checker(Processor):
        id = "checker"

        @hookimpl
        def process_output_step(self, text, tool_calls, finish_reason, usage, step_number):
            seen.append((text, tool_calls, finish_reason, usage.output_tokens, step_number))

    seen = []
    model = MockModel([MockResponse(text="fine answer", usage={"input_tokens": 3, "output_tokens": 2})])
    await make_bare_agent(model=model, output_processors=[Checker()]).generate("hi")
    assert seen == [("fine answer", [], "stop", 2, 0)]


async def test_hook_process_tool_result(make_bare_agent):
    class RedactSSN(Processor):
        id = "redact-ssn"

        @hookimpl
        def process_tool_result(self, tool_name, tool_call_id, args, result, message_list):
            message_list.update_tool_invocation(ToolInvocationPart(ToolInvocation(
                "result", tool_call_id, tool_name, args, {**result, "ssn": "[REDACTED]"})))

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup_customer", "args": {"customer_id": "7"},
                                  "tool_call_id": "c1"}]),
        "done",
    ])
    stream = make_bare_agent(model=model, tools=[lookup_customer],
                             output_processors=[RedactSSN()]).stream("x")
    chunks = [c async for c in stream]
    tool_chunk = next(c for c in chunks if c.type == "tool-result")
    assert tool_chunk.payload["result"]["ssn"] == "[REDACTED]"
    tool_message = next(m for m in model.requests[1].prompt if m["role"] == "tool")
    assert tool_message["content"][0]["output"]["ssn"] == "[REDACTED]"


async def test_hook_process_output_result(make_bare_agent):
    class Signature(Processor):
        id = "signature"

        @hookimpl
        def process_output_result(self, messages, result):
            seen.append((result.text, result.finish_reason, len(result.steps)))
            last = messages[-1]
            last.content.parts[-1].text += " -- bot"

    seen = []
    model = MockModel(["hello"])
    stream = make_bare_agent(model=model, output_processors=[Signature()]).stream("hi")
    chunks = [c async for c in stream]
    assert seen == [("hello", "stop", 1)]
    assert await stream.text == "hello -- bot"
    assert chunks[-1].type == "finish"


async def test_process_output_stream_sees_data_chunks_only_when_opted_in(make_bare_agent):
    class Emitter(Processor):
        id = "emitter"

        @hookimpl
        async def process_output_stream(self, part, writer):
            if part.type == "step-start":
                await writer.custom({"type": "data-progress", "data": {"pct": 0}})
            return part

    class Blind(Processor):
        id = "blind"

        @hookimpl
        def process_output_stream(self, part):
            seen["blind"].append(part.type)
            return part

    class Sees(Processor):
        id = "sees"
        process_data_parts = True

        @hookimpl
        def process_output_stream(self, part):
            seen["sees"].append(part.type)
            return part

    seen = {"blind": [], "sees": []}
    agent = make_bare_agent(["hi"], output_processors=[Emitter(), Blind(), Sees()])
    chunks = [c async for c in agent.stream("x")]
    assert "data-progress" in [c.type for c in chunks]
    assert "data-progress" in seen["sees"]
    assert "data-progress" not in seen["blind"]


async def test_process_output_stream_list_return_releases_held_chunks(make_bare_agent):
    class HoldBack(Processor):
        """Holds text back until the step finishes, then releases it as one list."""

        id = "hold-back"

        @hookimpl
        def process_output_stream(self, part, state):
            if part.type == "text-delta":
                state.setdefault("held", []).append(part)
                return None
            if part.type == "step-finish":
                held, state["held"] = state.get("held", []), []
                return [*held, part]
            return part

    class Count(Processor):
        id = "count"

        @hookimpl
        def process_output_stream(self, part, stream_parts):
            order.append(part.type)
            return part

    order = []
    chunks = [c async for c in make_bare_agent(["a b c"],
                                               output_processors=[HoldBack(), Count()]).stream("x")]
    types = [c.type for c in chunks]
    assert types == ["step-start", "text-delta", "text-delta", "text-delta", "step-finish", "finish"]
    # Each released chunk passed the later processor.
    assert order == types
    assert isinstance(chunks[1], Chunk)


async def test_hook_process_input_chain_gives_each_processor_the_messages_as_they_stand(
        make_bare_agent):
    """A chain of ``process_input`` returning None: processors that change nothing are
    given one ``messages`` list; after one that changed that list, or was given the
    message list, the next is given the messages built anew (its change included)."""
    seen: list[tuple[str, list[Message]]] = []

    class Look(Processor):
        def __init__(self, id):
            self.id = id

        @hookimpl
        def process_input(self, messages):
            seen.append((self.id, messages))

    class DropInPlace(Processor):
        id = "drop"

        @hookimpl
        def process_input(self, messages):
            messages.clear()

    class AddToList(Processor):
        id = "add"

        @hookimpl
        def process_input(self, message_list):
            message_list.add(Message.user("added"), "input")

    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, input_processors=[
        Look("a"), Look("b"), DropInPlace(), Look("c"), AddToList(), Look("d")])
    await agent.generate("hi")
    assert [i for i, _ in seen] == ["a", "b", "c", "d"]
    (_, a), (_, b), (_, c), (_, d) = seen
    assert a is b and a == []  # (the list DropInPlace emptied)
    assert c is not b and [p.text for m in c for p in m.content.parts] == ["hi"]
    assert d is not c and [p.text for m in d for p in m.content.parts] == ["hi", "added"]
    assert user_text(model) == ["hi", "added"]
