"""``semantic-recall`` and embedders: same-thread hits as memory messages, other-thread
hits as one tagged system message, scope, threshold, message_range, the embedding
cache, the OpenAI-compatible client against the local server, embedder plugins."""

from __future__ import annotations

import pytest

from tests.support.fake_llm_server import ErrorReply, RawReply, letter_vector
from tripwire import Agent, APICallError, ConfigurationError, Memory, Message
from tripwire.memory import (
    CachedEmbedder,
    HashingEmbedder,
    OpenAIEmbedder,
    open_store,
    resolve_embedder,
)
from tripwire.memory.store import cosine
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.semantic_recall import OTHER_THREAD_INTRO, SemanticRecall
from tripwire.testing import MockModel


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path}/chat.db"


def prompt_of(model, i=0):
    return model.requests[i].prompt


async def seed(a, thread, texts, resource="ann"):
    for t in texts:
        await a.generate(t, memory={"thread": thread, "resource": resource})


async def test_other_thread_hits_become_one_tagged_system_message(url):
    model = MockModel(["ok"] * 4)
    memory = Memory(url, last_messages=0, semantic_recall={"top_k": 1, "message_range": 0})
    async with Agent(id="a", model=model, memory=memory) as a:
        await seed(a, "old", ["my cat is called Whiskers", "the weather is grey"])
        await a.generate("what is my cat called", memory={"thread": "new", "resource": "ann"})
    system = [p for p in prompt_of(model, 2) if p["role"] == "system"]
    assert len(system) == 1 and system[0]["tag"] == "memory"
    assert system[0]["content"].startswith(OTHER_THREAD_INTRO)
    assert "Whiskers" in system[0]["content"] and "grey" not in system[0]["content"]


async def test_same_thread_hits_become_memory_messages_with_neighbours(url):
    model = MockModel([f"reply {i}" for i in range(6)])
    memory = Memory(url, last_messages=0, semantic_recall={"top_k": 1, "message_range": 1})
    async with Agent(id="a", model=model, memory=memory) as a:
        await seed(a, "t", ["my dog is called Rex", "tell me about tea", "and coffee"])
        result = await a.generate("what is my dog called", memory={"thread": "t",
                                                                   "resource": "ann"})
    remembered = [m.text for m in result.message_list.remembered]
    assert remembered == ["my dog is called Rex", "reply 0"]


async def test_thread_scope_and_other_resources_are_never_searched(url):
    model = MockModel(["ok"] * 4)
    memory = Memory(url, last_messages=0, semantic_recall={"scope": "thread"})
    async with Agent(id="a", model=model, memory=memory) as a:
        await seed(a, "other-thread", ["my cat is called Whiskers"])
        await seed(a, "bobs", ["my cat is called Tom"], resource="bob")
        await a.generate("what is my cat called", memory={"thread": "new", "resource": "ann"})
    assert all(p["role"] != "system" for p in prompt_of(model, 2))
    assert [p["content"][0]["text"] for p in prompt_of(model, 2)] == ["what is my cat called"]


async def test_threshold_drops_weak_hits(url):
    model = MockModel(["ok"] * 3)
    recall = {"threshold": 0.99, "embedder": "hashing/64"}
    async with Agent(id="a", model=model, memory=Memory(url, last_messages=0,
                                                        semantic_recall=recall)) as a:
        await seed(a, "old", ["the capital of France is Paris"])
        await a.generate("something unrelated entirely", memory={"thread": "new",
                                                                 "resource": "ann"})
    assert all(p["role"] != "system" for p in prompt_of(model, 1))


async def test_a_pii_redactor_sees_recalled_messages(url):
    model = MockModel(["ok", "ok"])
    memory = Memory(url, last_messages=0, semantic_recall={"top_k": 2})
    async with Agent(id="a", model=model, memory=memory,
                     input_processors=[PIIDetector(strategy="redact")]) as a:
        async with open_store(url) as s:
            msg = Message.user("my email is ann@example.com")
            await s.save_messages("t", "ann", [msg])
        recall = a.resolve_processor("semantic-recall")
        (vector,) = await recall.embedder.embed([msg.text])
        from tripwire.memory import VectorRow

        await recall.store.save_vectors(recall.index_name, [VectorRow(msg.id, "t", "ann",
                                                                      vector)])
        result = await a.generate("what is my email", memory={"thread": "t",
                                                              "resource": "ann"})
    assert [m.id for m in result.message_list.remembered] == [msg.id]
    seen = str(prompt_of(model, 0))
    assert "ann@example.com" not in seen and "what is my email" in seen


async def test_recall_failures_never_fail_the_run(url, caplog):
    class Broken:
        name = "broken"

        async def embed(self, texts):
            raise RuntimeError("embedder down")

    model = MockModel(["fine"])
    memory = Memory(url, semantic_recall={"embedder": Broken()})
    async with Agent(id="a", model=model, memory=memory) as a:
        result = await a.generate("q", memory={"thread": "t"})
    assert result.text == "fine"
    assert "recall failed" in caplog.text and "indexing the run's messages failed" in caplog.text
    async with open_store(url) as s:  # message history still saved the run
        assert len(await s.last_messages("t", 10)) == 2


async def test_the_cache_embeds_each_text_once():
    calls = []

    class Counting:
        name = "counting"

        async def embed(self, texts):
            calls.append(list(texts))
            return [[float(len(t)), 1.0] for t in texts]

    cached = CachedEmbedder(Counting(), size=2)
    assert await cached.embed(["a", "bb", "a"]) == [[1.0, 1.0], [2.0, 1.0], [1.0, 1.0]]
    assert await cached.embed(["bb", "a"]) == [[2.0, 1.0], [1.0, 1.0]]
    assert calls == [["a", "bb"]]
    await cached.embed(["ccc"])  # size 2: "bb" (least recently used) is dropped
    await cached.embed(["bb"])
    assert calls[-1] == ["bb"]


async def test_a_cached_embedder_checks_what_it_is_given():
    class Short:
        name = "short"

        async def embed(self, texts):
            return [[1.0]]

    with pytest.raises(ValueError, match="returned 1 vectors for 2 texts"):
        await CachedEmbedder(Short()).embed(["a", "b"])


async def test_hashing_embedder_is_deterministic_and_finds_shared_words():
    e = HashingEmbedder(128)
    a, b, c = await e.embed(["the red fox jumps", "a red fox", "quantum chromodynamics"])
    assert a == (await HashingEmbedder(128).embed(["the red fox jumps"]))[0]
    assert cosine(a, b) > cosine(a, c)
    assert len(a) == 128 and abs(sum(x * x for x in a) - 1) < 1e-9
    assert await e.embed([""]) == [[0.0] * 128]


async def test_openai_embedder_against_the_local_server(llm_server):
    e = OpenAIEmbedder("text-embedding-test", base_url=llm_server.openai_base_url,
                       api_key="sk-test", dimensions=26, batch_size=2)
    try:
        got = await e.embed(["abc", "zz", "hello"])
        assert got == [letter_vector("abc"), letter_vector("zz"), letter_vector("hello")]
        first = llm_server.requests[0]
        assert first.path == "/v1/embeddings"
        assert first.body == {"model": "text-embedding-test", "input": ["abc", "zz"],
                              "dimensions": 26}
        assert first.headers["Authorization"] == "Bearer sk-test"
        llm_server.script(ErrorReply(429, "slow down"))
        with pytest.raises(APICallError, match="HTTP 429") as info:
            await e.embed(["x"])
        assert info.value.is_retryable and info.value.status_code == 429
        llm_server.script(RawReply('{"data": [{"index": 0}]}', content_type="application/json"))
        with pytest.raises(APICallError, match="malformed embeddings response"):
            await e.embed(["x"])
        llm_server.script(RawReply('{"data": []}', content_type="application/json"))
        with pytest.raises(APICallError, match="0 vectors for 1 texts"):
            await e.embed(["x"])
    finally:
        await e.aclose()


async def test_recall_through_the_openai_embedder_router_id(url, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    model = MockModel(["ok", "ok"])
    memory = Memory(url, last_messages=0, semantic_recall={
        "embedder": "openai/text-embedding-test", "top_k": 1, "message_range": 0})
    async with Agent(id="a", model=model, memory=memory) as a:
        await a.generate("zzz yyy", memory={"thread": "old", "resource": "ann"})
        await a.generate("zzy", memory={"thread": "new", "resource": "ann"})
        await a.resolve_processor("semantic-recall").embedder.embedder.aclose()
    system = [p for p in prompt_of(model, 1) if p["role"] == "system"]
    assert "zzz yyy" in system[0]["content"]
    assert {r.path for r in llm_server.requests} == {"/v1/embeddings"}


def test_embedders_are_plugins_resolved_by_router_id():
    assert isinstance(resolve_embedder("hashing"), HashingEmbedder)
    assert resolve_embedder("hashing/64").dimensions == 64
    assert isinstance(resolve_embedder("openai/text-embedding-3-small"), OpenAIEmbedder)
    with pytest.raises(ConfigurationError, match="unknown embedder provider 'nope'"):
        resolve_embedder("nope/x")
    with pytest.raises(ConfigurationError, match="dimensions"):
        resolve_embedder("hashing/many")
    with pytest.raises(ConfigurationError, match="async embed"):
        resolve_embedder(42)


def test_an_installed_embedder_plugin_is_found(fake_distributions):
    class Mine:
        name = "mine"

        def __init__(self, model_id):
            self.model_id = model_id

        async def embed(self, texts):
            return [[1.0] for _ in texts]

    fake_distributions.add("tripwire-mine", "1.0").entry_point("mine", Mine,
                                                                group="tripwire.embedders")
    assert resolve_embedder("mine/v2").model_id == "v2"


@pytest.mark.parametrize("options, match", [
    ({"embedder": "hashing", "top_k": 0}, "top_k"),
    ({"embedder": "hashing", "scope": "world"}, "scope"),
    ({"embedder": "hashing", "message_range": {"before": 1, "later": 2}}, "before and after"),
    ({"embedder": "hashing", "message_range": -1}, "message_range"),
    ({}, "option 'embedder' is required"),
])
def test_bad_options_are_refused(url, options, match):
    with pytest.raises(ConfigurationError, match=match):
        SemanticRecall(url, **options)
