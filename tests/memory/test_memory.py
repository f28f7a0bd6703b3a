"""Memory on an agent: message-history through ``Agent(memory=...)``, in the
reference's place in the pipeline (before the user's input processors, after the
user's output processors), saving only accepted runs, once."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.helpers import Blocker
from tripwire import (
    RESOURCE_ID_KEY,
    THREAD_ID_KEY,
    Agent,
    ConfigurationError,
    Memory,
    Message,
    Processor,
    ProcessorViolation,
    hookimpl,
)
from tripwire.memory import open_store
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.testing import MockModel, MockResponse

T1 = {"thread": "t1", "resource": "ann"}


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path}/chat.db"


async def stored(url, thread="t1"):
    async with open_store(url) as s:
        return [(m.role, m.text) for m in await s.last_messages(thread, 1000)]


def agent(url, responses, **options):
    memory = options.pop("memory", None) or Memory(url)
    return Agent(id="a", model=MockModel(responses), memory=memory,
                 default_error_processors=False, **options)


def user_texts(model, i):
    return [p["content"][0]["text"] for p in model.requests[i].prompt if p["role"] != "system"]


async def test_the_thread_is_remembered_across_runs_and_agents(url):
    async with agent(url, ["Hi Ann!"]) as a:
        await a.generate("I am Ann", memory=T1)
    async with agent(url, ["You are Ann."]) as b:
        result = await b.generate("Who am I?", memory=T1)
        assert result.text == "You are Ann."
        assert user_texts(b.model, 0) == ["I am Ann", "Hi Ann!", "Who am I?"]
        assert [m.text for m in result.message_list.remembered] == ["I am Ann", "Hi Ann!"]
    assert await stored(url) == [("user", "I am Ann"), ("assistant", "Hi Ann!"),
                                 ("user", "Who am I?"), ("assistant", "You are Ann.")]


async def test_ids_come_from_the_request_context_too(url):
    async with agent(url, ["one", "two"]) as a:
        await a.generate("a", request_context={THREAD_ID_KEY: "t1", RESOURCE_ID_KEY: "r"})
        await a.generate("b", request_context={THREAD_ID_KEY: "t1"})
        assert user_texts(a.model, 1) == ["a", "one", "b"]
    async with open_store(url) as s:
        assert (await s.get_thread("t1")).resource_id == "r"


async def test_without_a_thread_memory_does_nothing(url):
    async with agent(url, ["one", "two"]) as a:
        await a.generate("a")
        await a.generate("b", memory={"resource": "ann"})
        assert user_texts(a.model, 1) == ["b"]
    async with open_store(url) as s:
        assert await s.list_threads() == []


async def test_threads_are_separate_and_last_messages_bounds_the_history(url):
    async with agent(url, ["r1", "r2", "r3", "r4"],
                     memory=Memory(url, last_messages=3)) as a:
        await a.generate("q1", memory=T1)
        await a.generate("q2", memory=T1)
        await a.generate("other", memory={"thread": "t2"})
        await a.generate("q3", memory=T1)
        assert user_texts(a.model, 2) == ["other"]
        assert user_texts(a.model, 3) == ["r1", "q2", "r2", "q3"]


async def test_read_only_loads_but_never_saves(url):
    async with agent(url, ["r1"]) as a:
        await a.generate("q1", memory=T1)
    async with agent(url, ["r2"], memory=Memory(url, read_only=True)) as b:
        await b.generate("q2", memory=T1)
        assert user_texts(b.model, 0) == ["q1", "r1", "q2"]
    assert await stored(url) == [("user", "q1"), ("assistant", "r1")]


async def test_memory_runs_before_the_users_input_processors_so_a_redactor_sees_history(url):
    async with open_store(url) as s:
        await s.save_messages("t1", "ann", [Message.user("mail me at ann@example.com")])
    async with agent(url, ["ok"], input_processors=[PIIDetector(strategy="redact")]) as a:
        result = await a.generate("hello", memory=T1)
        seen = " ".join(user_texts(a.model, 0))
        assert "ann@example.com" not in seen and "hello" in seen
        assert [p.id for p in a.list_processors("input")] == ["message-history", "pii-detector"]
        assert result.text == "ok"


async def test_saving_runs_after_the_users_output_processors(url):
    class Upper(Processor):
        id = "upper"

        @hookimpl
        def process_output_result(self, messages):
            for m in messages:
                m.content.parts[0].text = m.content.parts[0].text.upper()
            return messages

    async with agent(url, ["quiet reply"], output_processors=[Upper()]) as a:
        await a.generate("q", memory=T1)
        assert [p.id for p in a.list_processors("output")] == ["upper", "message-history"]
    assert await stored(url) == [("user", "q"), ("assistant", "QUIET REPLY")]


@pytest.mark.parametrize("hook, kind", [
    ("process_input", "input"), ("process_output_stream", "output"),
    ("process_output_step", "output"), ("process_output_result", "output"),
])
async def test_a_blocked_run_saves_nothing(url, hook, kind):
    async with agent(url, ["secret reply"], **{f"{kind}_processors": [Blocker(hook)]}) as a:
        result = await a.generate("q", memory=T1)
        assert result.tripwire is not None
    assert await stored(url) == []


async def test_a_failed_run_saves_nothing(url):
    async with agent(url, [MockResponse(error=RuntimeError("boom"))]) as a:
        with pytest.raises(RuntimeError):
            await a.generate("q", memory=T1)
    assert await stored(url) == []


class RejectFirst(Processor):
    """Asks for a retry of the first attempt of every run, naming the text it saw."""

    id = "reject-first"

    @hookimpl
    def process_output_step(self, text, retry_count, abort):
        if retry_count == 0:
            abort(f"rejected {text!r}", retry=True)


async def test_a_retried_away_attempt_is_not_saved_and_the_accepted_run_is(url):
    async with agent(url, ["draft answer", "final answer"], output_processors=[RejectFirst()],
                     max_processor_retries=1) as a:
        result = await a.generate("q", memory=T1)
        assert result.text == "final answer"
    assert await stored(url) == [("user", "q"), ("assistant", "final answer")]


async def test_a_run_whose_retries_run_out_saves_nothing(url):
    async with agent(url, ["draft", "again"], output_processors=[RejectFirst()]) as a:
        result = await a.generate("q", memory=T1)
        assert result.tripwire is not None
    assert await stored(url) == []


async def test_an_accepted_run_is_saved_once_with_its_tool_calls(url):
    from tests.support.helpers import delete_account

    responses = [MockResponse(tool_calls=[{"tool_name": "delete_account",
                                           "args": {"user_id": "u1"}, "tool_call_id": "c1"}]),
                 "done"]
    async with agent(url, responses, tools=[delete_account]) as a:
        await a.generate("delete u1", memory=T1)
    async with open_store(url) as s:
        saved = await s.last_messages("t1", 100)
    assert [m.role for m in saved] == ["user", "assistant", "assistant"]
    call = saved[1].tool_invocations[0]
    assert (call.state, call.tool_name, call.result) == ("result", "delete_account", "deleted")
    assert len({m.id for m in saved}) == 3


async def test_two_concurrent_runs_on_one_thread_lose_no_message(url):
    async with agent(url, [f"r{i}" for i in range(12)]) as a:
        await asyncio.gather(*(a.generate(f"q{i}", memory=T1) for i in range(12)))
    texts = [t for _, t in await stored(url)]
    assert sorted(texts) == sorted([f"q{i}" for i in range(12)] + [f"r{i}" for i in range(12)])


async def test_a_memory_processor_the_user_listed_is_not_added_twice(url):
    from tripwire.plugins.message_history import MessageHistory

    mine = MessageHistory(url, last_messages=1)
    async with agent(url, ["a"], input_processors=[mine]) as a:
        assert [p.id for p in a.list_processors("input")] == ["message-history"]
        assert a.resolve_processor("message-history") is mine
        await mine.store.close()


async def test_a_calls_own_processor_lists_keep_memory(url):
    async with agent(url, ["r1", "r2"]) as a:
        await a.generate("q1", memory=T1)
        await a.generate("q2", memory=T1, input_processors=[], output_processors=[])
        assert user_texts(a.model, 1) == ["q1", "r1", "q2"]
    assert len(await stored(url)) == 4


def test_bad_memory_values_are_refused_clearly(url):
    with pytest.raises(ConfigurationError, match="memory must be"):
        Agent(id="a", model=MockModel([]), memory=42)
    with pytest.raises(ConfigurationError, match="last_messages"):
        Memory(url, last_messages=-1)
    with pytest.raises(ConfigurationError, match="unknown key"):
        Memory.from_config({"store": url, "last": 3})
    with pytest.raises(ConfigurationError, match="needs store"):
        Memory.from_config({"last_messages": 3})


async def test_bad_memory_call_options_are_refused(url):
    async with agent(url, ["x"]) as a:
        with pytest.raises(TypeError, match="valid: thread, resource"):
            await a.generate("q", memory={"thred": "t"})
        with pytest.raises(TypeError, match="non-empty string"):
            await a.generate("q", memory={"thread": ""})


def test_generate_sync_remembers_across_event_loops(url):
    a = agent(url, ["r1", "r2"])
    a.generate_sync("q1", memory=T1)
    result = a.generate_sync("q2", memory=T1)
    assert result.text == "r2" and user_texts(a.model, 1) == ["q1", "r1", "q2"]


async def test_a_store_url_alone_gives_message_history(url):
    async with Agent(id="a", model=MockModel(["r"]), memory=url,
                     default_error_processors=False) as a:
        await a.generate("q", memory=T1)
        assert [p.id for p in a.list_processors("input")] == ["message-history"]
    assert await stored(url) == [("user", "q"), ("assistant", "r")]


def test_memory_from_toml(tmp_path, url):
    path = tmp_path / "tripwire.toml"
    path.write_text(f'[agents.chat]\nmodel = "openai/gpt-5-mini"\n'
                    f'memory = {{ store = "{url}", last_messages = 5 }}\n')
    a = Agent.from_config(str(path), "chat")
    assert a.memory.message_history.last_messages == 5
    assert a.memory.store.url == url
    path.write_text('[agents.chat]\nmodel = "openai/gpt-5-mini"\nmemory = { last = 5 }\n')
    with pytest.raises(ConfigurationError) as e:
        Agent.from_config(str(path), "chat")
    assert str(e.value).endswith("[agents.chat] memory: unknown key(s) ['last']; valid: store, "
                                 "last_messages, working_memory, semantic_recall, read_only")


async def test_on_violation_is_untouched_by_memory(url):
    seen = []

    class Flag(Processor):
        id = "flag"
        on_violation = seen.append

        @hookimpl
        def process_input(self, messages, abort):
            if any("forbidden" in m.text for m in messages):
                abort("history holds forbidden text")

    async with open_store(url) as s:
        await s.save_messages("t1", "ann", [Message.user("forbidden words")])
    async with agent(url, ["x"], input_processors=[Flag()]) as a:
        result = await a.generate("innocent", memory=T1)
    assert result.tripwire.reason == "history holds forbidden text"
    assert isinstance(seen[0], ProcessorViolation)
    assert await stored(url) == [("user", "forbidden words")]


async def test_a_thread_of_another_resource_is_refused_before_anything_is_loaded(url):
    from tripwire.errors import ProcessorError
    from tripwire.memory import ThreadOwnerError

    async with agent(url, ["secret reply", "x"]) as a:
        await a.generate("my secret", memory={"thread": "t1", "resource": "ann"})
        with pytest.raises(ProcessorError) as info:
            await a.generate("what did ann say?", memory={"thread": "t1", "resource": "bob"})
        assert isinstance(info.value.__cause__, ThreadOwnerError)
        assert len(a.model.requests) == 1
    assert await stored(url) == [("user", "my secret"), ("assistant", "secret reply")]


async def test_every_store_keeps_both_of_two_concurrent_runs_and_saves_nothing_blocked(store):
    """The agent-level guarantees on each store kind (SQLite file, in memory, Postgres)."""
    memory = Memory(store)
    async with Agent(id="a", model=MockModel([f"r{i}" for i in range(11)]), memory=memory,
                     default_error_processors=False) as a:
        await asyncio.gather(*(a.generate(f"q{i}", memory=T1) for i in range(10)))
        blocked = await a.generate("blocked", memory=T1,
                                   output_processors=[Blocker("process_output_result")])
        assert blocked.tripwire is not None
    texts = [m.text for m in await store.last_messages("t1", 100)]
    assert sorted(texts) == sorted([f"q{i}" for i in range(10)] + [f"r{i}" for i in range(10)])


def test_memory_from_toml_with_working_memory_and_semantic_recall(tmp_path, url):
    path = tmp_path / "tripwire.toml"
    path.write_text(
        '[agents.chat]\nmodel = "openai/gpt-5-mini"\n'
        f'memory = {{ store = "{url}", working_memory = {{ scope = "thread", template = '
        '{ format = "json", content = "{}" } }, semantic_recall = { embedder = "hashing/64", '
        'top_k = 2, message_range = { before = 0, after = 1 } } }\n')
    a = Agent.from_config(str(path), "chat")
    assert [p.id for p in a.list_processors("input")] == \
        ["working-memory", "message-history", "semantic-recall"]
    assert [p.id for p in a.list_processors("output")] == ["semantic-recall", "message-history"]
    recall = a.resolve_processor("semantic-recall")
    assert (recall.top_k, recall.before, recall.after, recall.embedder.name) == \
        (2, 0, 1, "hashing-64")
    assert a.resolve_processor("working-memory").format == "json"
    path.write_text('[agents.chat]\nmodel = "openai/gpt-5-mini"\n'
                    f'memory = {{ store = "{url}", semantic_recall = {{ top = 2 }} }}\n')
    with pytest.raises(ConfigurationError, match="semantic_recall.*top"):
        Agent.from_config(str(path), "chat")


@pytest.mark.parametrize("name", ["message-history", "working-memory", "semantic-recall"])
def test_memory_processors_are_installed_processors_not_cache_backends(tmp_path, name):
    """Each memory processor is an entry point in tripwire.processors (an agent's list
    can name it, ``tripwire plugins`` lists it) and not a cache backend's URL scheme."""
    from tripwire import registry

    reg = registry.current()
    assert name in reg.names(registry.PROCESSORS)
    assert name not in reg.names(registry.CACHES)
    db = tmp_path / "chat.db"
    extra = ', embedder = "hashing/64"' if name == "semantic-recall" else ""
    path = tmp_path / "tripwire.toml"
    path.write_text(f'[agents.chat]\nmodel = "openai/gpt-5-mini"\n'
                    f'input_processors = [{{ use = "{name}", store = "sqlite:///{db}"{extra} }}]\n')
    a = Agent.from_config(str(path), "chat")
    assert [p.id for p in a.list_processors("input")] == [name]
