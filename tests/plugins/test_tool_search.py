"""tool-search: the model sees search_tools/load_tool, then only what it loaded."""

from __future__ import annotations

import asyncio

import pytest

from tripwire import (
    THREAD_ID_KEY,
    Agent,
    Processor,
    ProcessorError,
    Tool,
    hookimpl,
    tool,
)
from tripwire.errors import ConfigurationError
from tripwire.plugins import available, create
from tripwire.plugins.tool_search import INSTRUCTIONS, BM25Index, ToolSearch, tokenize
from tripwire.testing import MockModel, MockResponse

META = ["search_tools", "load_tool"]

VERBS = {
    "get": "Get", "list": "List all", "create": "Create a new", "update": "Update an existing",
    "delete": "Delete a",
}
NOUNS = [
    "invoice", "customer", "order", "shipment", "ticket", "refund", "coupon", "product",
    "review", "employee", "payslip", "meeting", "calendar_event", "reminder", "note",
    "document", "folder", "photo", "album", "playlist", "song", "podcast", "flight",
    "hotel_booking", "car_rental", "restaurant_table", "recipe", "workout", "medication",
    "appointment", "invoice_template", "bank_transfer", "stock_quote", "crypto_wallet",
    "github_issue", "pull_request", "slack_message", "email_draft", "sms_message",
]


def make_library() -> list[Tool]:
    """200 tools: 39 nouns x 5 verbs, plus five city tools (weather, time, ...)."""

    def make(name: str, description: str) -> Tool:
        def execute(**args):
            return {"tool": name, "ok": True, **args}

        return Tool(name, description, {"type": "object", "properties": {
            "id": {"type": "string"}}, "additionalProperties": False}, execute)

    library = [
        make(f"{verb}_{noun}", f"{text} {noun.replace('_', ' ')} record.")
        for noun in NOUNS for verb, text in VERBS.items()
    ]

    @tool
    def get_weather(city: str) -> dict:
        """Get the current weather forecast (sky, temperature) for a city."""
        return {"city": city, "sky": "sunny", "celsius": 21}

    @tool
    def get_air_quality(city: str) -> str:
        """Air pollution index for a city."""
        return "good"

    @tool
    def get_sunrise(city: str) -> str:
        """Sunrise and sunset times for a city."""
        return "06:12"

    @tool
    def get_time(city: str) -> str:
        """The local time in a city."""
        return "12:00"

    @tool
    def convert_temperature(celsius: float) -> float:
        """Convert a temperature from Celsius to Fahrenheit."""
        return celsius * 9 / 5 + 32

    library += [get_weather, get_air_quality, get_sunrise, get_time, convert_temperature]
    assert len(library) == 200
    return library


def names(request) -> list[str]:
    return [t.name for t in request.tools]


def call(name: str, args: dict, call_id: str) -> MockResponse:
    return MockResponse(tool_calls=[{"tool_name": name, "args": args, "tool_call_id": call_id}])


def search_load_call_script(city: str = "Rome") -> list:
    return [
        call("search_tools", {"query": "weather forecast"}, "s1"),
        call("load_tool", {"name": "get_weather"}, "l1"),
        call("get_weather", {"city": city}, "w1"),
        f"It is sunny in {city}.",
    ]


def results_of(result) -> dict[str, object]:
    return {r.tool_call_id: r.result for r in result.tool_results}


@pytest.fixture
def make_agent_with(make_bare_agent):
    """An agent with the tool library (``make_library()`` unless given) and the search
    as its input processor."""

    def make(model, processor, library=None, **kwargs):
        return make_bare_agent(model=model, tools=make_library() if library is None else library,
                               input_processors=[processor], max_steps=8, **kwargs)

    return make


# ---------------------------------------------------------------- the loop


async def test_the_model_searches_loads_then_calls_a_tool_from_a_200_tool_library(make_agent_with):
    model = MockModel(search_load_call_script())
    agent = make_agent_with(model, ToolSearch())
    stream = agent.stream("What's the weather in Rome?")
    chunks = [c async for c in stream]
    result = await stream.result

    assert names(model.requests[0]) == META
    assert names(model.requests[1]) == META
    assert names(model.requests[2]) == [*META, "get_weather"]
    assert names(model.requests[3]) == [*META, "get_weather"]

    found = results_of(result)["s1"]
    assert found["results"][0]["name"] == "get_weather"
    assert results_of(result)["l1"]["loaded"] == "get_weather"
    assert results_of(result)["w1"] == {"city": "Rome", "sky": "sunny", "celsius": 21}
    assert result.text == "It is sunny in Rome."
    client_results = [c.payload["tool_name"] for c in chunks if c.type == "tool-result"]
    assert client_results == ["search_tools", "load_tool", "get_weather"]


async def test_a_loaded_tool_stays_active_for_the_rest_of_the_call(make_agent_with):
    model = MockModel([
        call("load_tool", {"name": "get_weather"}, "l1"),
        call("load_tool", {"name": "convert_temperature"}, "l2"),
        call("get_weather", {"city": "Oslo"}, "w1"),
        call("convert_temperature", {"celsius": 21.0}, "c1"),
        "Done.",
    ])
    result = await make_agent_with(model, ToolSearch()).generate("Weather in Oslo in Fahrenheit?")

    assert [names(r) for r in model.requests] == [
        META,
        [*META, "get_weather"],
        [*META, "get_weather", "convert_temperature"],
        [*META, "get_weather", "convert_temperature"],
        [*META, "get_weather", "convert_temperature"],
    ]
    assert results_of(result)["c1"] == pytest.approx(69.8)


async def test_a_tool_that_is_not_loaded_cannot_be_called(make_agent_with):
    model = MockModel([call("get_weather", {"city": "Rome"}, "w1"), "Sorry."])
    stream = make_agent_with(model, ToolSearch()).stream("Weather?")
    chunks = [c async for c in stream]

    error = next(c for c in chunks if c.type == "tool-error")
    assert "not available" in error.payload["error"]
    assert "search_tools" in error.payload["error"]


async def test_loading_an_unknown_tool_is_an_error_for_the_model_with_suggestions(make_agent_with):
    model = MockModel([call("load_tool", {"name": "weather"}, "l1"), "Sorry."])
    stream = make_agent_with(model, ToolSearch()).stream("Weather?")
    chunks = [c async for c in stream]

    error = next(c for c in chunks if c.type == "tool-error")
    assert "no tool named 'weather' in the library" in error.payload["error"]
    assert "get_weather" in error.payload["error"]
    assert names(model.requests[1]) == META


async def test_loading_a_tool_twice_says_so_and_lists_it_once(make_agent_with):
    model = MockModel([
        call("load_tool", {"name": "get_time"}, "l1"),
        call("load_tool", {"name": "get_time"}, "l2"),
        "ok",
    ])
    result = await make_agent_with(model, ToolSearch()).generate("Time?")

    assert results_of(result)["l2"]["message"].startswith("Already loaded")
    assert names(model.requests[2]) == [*META, "get_time"]


async def test_search_results_are_ranked_and_capped_by_top_k(make_agent_with):
    model = MockModel([call("search_tools", {"query": "invoice"}, "s1"), "ok"])
    result = await make_agent_with(model, ToolSearch(top_k=3)).generate("Invoices?")

    found = results_of(result)["s1"]["results"]
    assert len(found) == 3
    assert all("invoice" in r["name"] for r in found)
    assert {"name", "description", "loaded"} == set(found[0])


async def test_a_search_without_matches_says_so(make_agent_with):
    model = MockModel([call("search_tools", {"query": "quantum teleportation"}, "s1"), "ok"])
    result = await make_agent_with(model, ToolSearch()).generate("Teleport me")

    out = results_of(result)["s1"]
    assert out["results"] == []
    assert "No tool matched" in out["message"]


async def test_an_empty_query_is_an_error_for_the_model(make_agent_with):
    model = MockModel([call("search_tools", {"query": "  "}, "s1"), "ok"])
    result = await make_agent_with(model, ToolSearch()).generate("?")

    assert result.tool_results[0].is_error
    assert "query must not be empty" in result.tool_results[0].result


async def test_search_results_mark_already_loaded_tools(make_agent_with):
    model = MockModel([
        call("load_tool", {"name": "get_weather"}, "l1"),
        call("search_tools", {"query": "weather"}, "s1"),
        "ok",
    ])
    result = await make_agent_with(model, ToolSearch()).generate("Weather?")

    first = results_of(result)["s1"]["results"][0]
    assert first == {"name": "get_weather", "description": first["description"], "loaded": True}


# ---------------------------------------------------------------- the instruction


def system_prompt(request) -> list[str]:
    return [m["content"] for m in request.prompt if m["role"] == "system"]


async def test_every_model_call_gets_one_system_instruction_about_the_meta_tools(make_agent_with):
    model = MockModel(search_load_call_script())
    agent = make_agent_with(model, ToolSearch(), instructions="You are an operations assistant.")
    await agent.generate("What's the weather in Rome?")

    assert len(model.requests) == 4
    for request in model.requests:  # after the agent's instructions, never accumulated
        assert system_prompt(request) == ["You are an operations assistant.", INSTRUCTIONS]


def test_the_instruction_explains_search_load_and_when_a_loaded_tool_can_be_called():
    assert INSTRUCTIONS.startswith(
        "To discover available tools, call search_tools with a keyword query. "
        "To add a tool to the conversation, call load_tool with the tool name. "
        "Tools must be loaded before they can be used")
    assert "from your next step on" in INSTRUCTIONS


async def test_instructions_false_adds_no_system_message(make_agent_with):
    model = MockModel(search_load_call_script())
    agent = make_agent_with(model, ToolSearch(instructions=False), instructions="Be brief.")
    await agent.generate("What's the weather in Rome?")

    assert [system_prompt(r) for r in model.requests] == [["Be brief."]] * 4
    assert names(model.requests[2]) == [*META, "get_weather"]  # the tools still work


async def test_an_instructions_string_replaces_the_default_text(make_agent_with):
    model = MockModel(["ok"])
    agent = make_agent_with(model, ToolSearch(instructions="Find tools with search_tools."))
    await agent.generate("Hi")

    assert system_prompt(model.requests[0]) == ["Find tools with search_tools."]


# ---------------------------------------------------------------- state per call


async def test_loaded_tools_do_not_leak_into_the_next_call_by_default(make_agent_with):
    processor = ToolSearch()
    model = MockModel([*search_load_call_script(), "Hello again."])
    agent = make_agent_with(model, processor)
    await agent.generate("Weather in Rome?")
    await agent.generate("Hi")

    assert names(model.requests[4]) == META


async def test_concurrent_calls_sharing_one_processor_keep_their_own_loaded_tools(make_agent_with):
    processor = ToolSearch()
    weather = MockModel([call("load_tool", {"name": "get_weather"}, "a1"), "A"], chunk_delay=0.001)
    invoices = MockModel([call("load_tool", {"name": "list_invoice"}, "b1"), "B"],
                         chunk_delay=0.001)
    first, second = make_agent_with(weather, processor), make_agent_with(invoices, processor)
    await asyncio.gather(first.generate("weather"), second.generate("invoices"))

    assert names(weather.requests[1]) == [*META, "get_weather"]
    assert names(invoices.requests[1]) == [*META, "list_invoice"]


async def test_remember_per_thread_keeps_loaded_tools_across_calls_of_one_thread(make_agent_with):
    processor = ToolSearch(remember_per_thread=True)
    model = MockModel([*search_load_call_script(), "Again.", "Other thread."])
    agent = make_agent_with(model, processor)
    await agent.generate("Weather?", request_context={THREAD_ID_KEY: "t1"})
    await agent.generate("Again?", request_context={THREAD_ID_KEY: "t1"})
    await agent.generate("Hi", request_context={THREAD_ID_KEY: "t2"})

    assert names(model.requests[4]) == [*META, "get_weather"]
    assert names(model.requests[5]) == META


async def test_remember_per_thread_without_a_thread_id_remembers_nothing(make_agent_with):
    processor = ToolSearch(remember_per_thread=True)
    model = MockModel([*search_load_call_script(), "Again."])
    agent = make_agent_with(model, processor)
    await agent.generate("Weather?")
    await agent.generate("Again?")

    assert names(model.requests[4]) == META


async def test_remember_per_thread_forgets_the_least_recently_used_thread(make_agent_with):
    processor = ToolSearch(remember_per_thread=True, max_threads=1)
    model = MockModel([
        call("load_tool", {"name": "get_weather"}, "a"), "one",
        call("load_tool", {"name": "get_time"}, "b"), "two",
        "three",
    ])
    agent = make_agent_with(model, processor)
    await agent.generate("1", request_context={THREAD_ID_KEY: "t1"})
    await agent.generate("2", request_context={THREAD_ID_KEY: "t2"})
    await agent.generate("3", request_context={THREAD_ID_KEY: "t1"})

    assert names(model.requests[4]) == META


class RejectLoads(Processor):
    """Rejects (retry) the first step that calls load_tool."""

    id = "reject-loads"

    def __init__(self) -> None:
        self.done = False

    @hookimpl
    def process_output_step(self, tool_calls, abort):
        if not self.done and any(c.tool_name == "load_tool" for c in tool_calls):
            self.done = True
            abort("Answer without tools.", retry=True)


async def test_a_load_in_a_step_rejected_by_a_retry_never_happens(make_agent_with):
    model = MockModel([call("load_tool", {"name": "get_weather"}, "l1"), "No tools then."])
    agent = make_agent_with(model, ToolSearch(), output_processors=[RejectLoads()],
                            max_processor_retries=1)
    result = await agent.generate("Weather?")

    assert names(model.requests[1]) == META
    assert result.text == "No tools then."


class RejectLoadResults(Processor):
    """Rejects (retry) the step whose load_tool already ran, from process_tool_result."""

    id = "reject-load-results"

    def __init__(self) -> None:
        self.done = False

    @hookimpl
    def process_tool_result(self, tool_name, abort):
        if tool_name == "load_tool" and not self.done:
            self.done = True
            abort("That tool is not for you.", retry=True)


async def test_a_load_that_ran_in_a_step_rejected_afterwards_is_undone(make_agent_with):
    model = MockModel([call("load_tool", {"name": "get_weather"}, "l1"), "No tools then."])
    agent = make_agent_with(model, ToolSearch(), output_processors=[RejectLoadResults()],
                            max_processor_retries=1)
    result = await agent.generate("Weather?")

    assert result.steps[0].tripwire.processor_id == "reject-load-results"
    assert names(model.requests[1]) == META


class CutStream(Processor):
    id = "cut-stream"

    @hookimpl
    def process_output_stream(self, part, abort):
        if part.type == "tool-result" and part.payload["tool_name"] == "load_tool":
            abort("no loading today")
        return part


async def test_a_stream_cut_by_a_tripwire_ends_the_call_and_the_next_call_starts_clean(
    make_agent_with,
):
    processor = ToolSearch()
    model = MockModel([call("load_tool", {"name": "get_weather"}, "l1"), "fresh"])
    agent = make_agent_with(model, processor, output_processors=[CutStream()])
    stream = agent.stream("Weather?")
    chunks = [c async for c in stream]
    assert chunks[-1].type == "tripwire"
    assert len(model.requests) == 1

    await agent.generate("again")
    assert names(model.requests[1]) == META


# ---------------------------------------------------------------- what is active


async def test_always_active_tools_are_visible_and_not_searchable(make_agent_with):
    model = MockModel([call("search_tools", {"query": "local time city"}, "s1"), "ok"])
    result = await make_agent_with(model, ToolSearch(always_active=["get_time"])).generate("Time?")

    assert names(model.requests[0]) == [*META, "get_time"]
    assert "get_time" not in [r["name"] for r in results_of(result)["s1"]["results"]]


async def test_a_separate_library_leaves_the_agents_own_tools_active(make_agent_with):
    @tool
    def escalate(reason: str) -> str:
        """Escalate to a human."""
        return "escalated"

    model = MockModel([call("load_tool", {"name": "get_weather"}, "l1"), "ok"])
    agent = make_agent_with(model, ToolSearch(tools=make_library()), library=[escalate])
    await agent.generate("Weather?")

    assert names(model.requests[0]) == [*META, "escalate"]
    assert names(model.requests[1]) == [*META, "escalate", "get_weather"]


async def test_tools_the_caller_made_active_stay_active(make_agent_with):
    model = MockModel(["ok"])
    await make_agent_with(model, ToolSearch()).generate("Hi", active_tools=["get_sunrise"])

    assert names(model.requests[0]) == [*META, "get_sunrise"]


async def test_an_agent_tool_named_like_a_meta_tool_is_a_clear_error(make_agent_with):
    @tool
    def search_tools(query: str) -> str:
        """Clashes."""
        return ""

    agent = make_agent_with(MockModel(["ok"]), ToolSearch(), library=[search_tools])
    with pytest.raises(ProcessorError, match="already has a tool named 'search_tools'"):
        await agent.generate("Hi")


async def test_always_active_naming_an_unknown_tool_is_a_clear_error(make_agent_with):
    agent = make_agent_with(MockModel(["ok"]), ToolSearch(always_active=["nope"]))
    with pytest.raises(ProcessorError, match=r"always_active names unknown tool\(s\) \['nope'\]"):
        await agent.generate("Hi")


def test_an_agent_without_tools_gets_the_meta_tools_over_an_empty_library():
    processor = ToolSearch()
    state: dict = {}
    out = processor.process_input_step(tools={}, active_tools=None, steps=[], state=state,
                                       request_context={}, system_messages=[])
    assert out["active_tools"] == META
    assert out["system_messages"] == [{"role": "system", "content": INSTRUCTIONS}]
    assert state["meta"]["search_tools"].execute(query="anything")["results"] == []


# ---------------------------------------------------------------- the search itself


def test_tokenize_splits_names_and_folds_plurals():
    assert tokenize("get_weatherForecast HTTPServer sends emails, class 2") == [
        "get", "weather", "forecast", "http", "server", "send", "email", "class", "2"]


def test_bm25_prefers_name_matches_and_rare_terms():
    index = BM25Index([
        ("get_weather", "Current conditions for a city."),
        ("get_city_info", "Facts about a city, including its weather history."),
        ("get_population", "Population of a city."),
    ])
    ranked = index.search("weather", 5)
    assert [n for n, _ in ranked] == ["get_weather", "get_city_info"]
    assert ranked[0][1] > ranked[1][1] > 0
    assert [n for n, _ in index.search("city population", 1)] == ["get_population"]


def test_bm25_of_unknown_words_or_an_empty_index_finds_nothing():
    assert BM25Index([("a_tool", "does a thing")]).search("zebra", 3) == []
    assert BM25Index([]).search("anything", 3) == []


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"top_k": 0}, "top_k must be an integer >= 1"),
        ({"always_active": "get_time"}, "always_active must be a list of tool names"),
        ({"always_active": ["load_tool"]}, "other than search_tools and load_tool"),
        ({"tools": ["get_weather"]}, "tools must hold Tool objects"),
        ({"remember_per_thread": 1}, "remember_per_thread must be true or false"),
        ({"max_threads": 0}, "max_threads must be an integer >= 1"),
        ({"instructions": ""}, "instructions must be true, false or a non-empty string"),
        ({"instructions": None}, "instructions must be true, false or a non-empty string"),
    ],
)
def test_bad_options_are_rejected_with_a_clear_error(options, message):
    with pytest.raises(ConfigurationError, match=message):
        ToolSearch(**options)


def test_two_library_tools_with_one_name_are_rejected():
    lib = make_library()
    with pytest.raises(ConfigurationError, match="two library tools are named 'get_weather'"):
        ToolSearch(tools=[*lib, lib[-5]])


def test_it_is_discovered_through_the_entry_point_group(only_plugins):
    only_plugins("tool-search")
    info = available()["tool-search"]
    assert info.cls is ToolSearch
    assert info.distribution == "tripwire"
    assert info.hooks == ("process_input_step",)


async def test_an_agent_from_toml_searches_its_own_tools(only_plugins, tmp_path):
    only_plugins("tool-search")
    (tmp_path / "tool_search_toml_tools.py").write_text('''
from tripwire import tool

@tool
def get_weather(city: str) -> str:
    """Get the weather forecast for a city."""
    return "sunny"

@tool
def get_time(city: str) -> str:
    """The local time in a city."""
    return "12:00"
''')
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.assistant]
model = "models.scripted"
tools = ["tool_search_toml_tools:get_weather", "tool_search_toml_tools:get_time"]
input_processors = [{ use = "tool-search", top_k = 1 }]
default_error_processors = false

[models.scripted]
use = "mock"
responses = [
  { tool_calls = [{ tool_name = "search_tools", args = { query = "weather" }, tool_call_id = "s" }] },
  { tool_calls = [{ tool_name = "load_tool", args = { name = "get_weather" }, tool_call_id = "l" }] },
  { text = "ok" },
]
''')
    agent = Agent.from_config(config, "assistant")
    result = await agent.generate("Weather?")

    assert [r["name"] for r in results_of(result)["s"]["results"]] == ["get_weather"]
    assert names(agent.model.requests[2]) == [*META, "get_weather"]


def test_it_is_built_from_configuration_options(only_plugins):
    only_plugins("tool-search")
    processor = create("tool-search", top_k=3, always_active=["get_time"])
    assert (processor.top_k, processor.always_active, processor.tools) == (3, ["get_time"], None)
    assert create("tool-search", instructions=False).instructions is None
    assert create("tool-search", instructions="Search first.").instructions == "Search first."
    with pytest.raises(ConfigurationError, match="instructions"):
        create("tool-search", instructions=1)
    with pytest.raises(ConfigurationError, match="top_k"):
        create("tool-search", top_k="3")
