"""batch-parts: fewer, larger text chunks; same text, same order."""

from __future__ import annotations

import pytest

from tripwire import Chunk, ConfigurationError, Processor, hookimpl, tool
from tripwire.plugins.batch_parts import BatchParts
from tripwire.testing import MockModel, MockResponse

TEN_WORDS = "one two three four five six seven eight nine ten"


def delta(text: str, id: str = "t1") -> Chunk:
    return Chunk("text-delta", {"id": id, "text": text}, run_id="r")


def feed(processor: BatchParts, chunks: list[Chunk], state: dict | None = None) -> list[Chunk]:
    """Run chunks through the hook the way the agent does; returns what comes out."""
    state = {} if state is None else state
    out: list[Chunk] = []
    for c in chunks:
        r = processor.process_output_stream(part=c, state=state)
        if r is None:
            continue
        out.extend(r if isinstance(r, list) else [r])
    return out


def texts_of(chunks):
    return [c.payload["text"] for c in chunks if c.type == "text-delta"]


async def collect(stream):
    return [c async for c in stream]


# ---------------------------------------------------------------- batching


async def test_deltas_are_merged_in_batches_and_the_text_is_unchanged(make_bare_agent):
    model = MockModel([TEN_WORDS])
    stream = make_bare_agent(model=model, output_processors=[BatchParts(3)]).stream("q")
    chunks = await collect(stream)
    result = await stream.result
    assert texts_of(chunks) == ["one two three ", "four five six ", "seven eight nine ", "ten"]
    assert result.text == TEN_WORDS
    assert result.messages[0].text == TEN_WORDS


async def test_the_default_batch_is_five_deltas(make_bare_agent):
    model = MockModel([TEN_WORDS])
    chunks = await collect(make_bare_agent(model=model,
                                           output_processors=[BatchParts()]).stream("q"))
    assert texts_of(chunks) == ["one two three four five ", "six seven eight nine ten"]


def test_merged_chunks_keep_the_first_deltas_id_and_fields():
    first = Chunk("text-delta", {"id": "abc", "text": "a", "provider": "x"}, run_id="r",
                  source="MODEL")
    out = feed(BatchParts(2), [first, delta("b", id="abc")])
    assert out == [Chunk("text-delta", {"id": "abc", "text": "ab", "provider": "x"},
                         run_id="r", source="MODEL")]


def test_a_delta_with_another_id_releases_the_batch():
    out = feed(BatchParts(5), [delta("a", "t1"), delta("b", "t1"), delta("c", "t2"),
                               Chunk("step-finish", {})])
    assert [(c.type, c.payload.get("id"), c.payload.get("text")) for c in out] == [
        ("text-delta", "t1", "ab"), ("text-delta", "t2", "c"), ("step-finish", None, None)]


def test_batch_size_one_passes_every_delta_through():
    chunks = [delta("a"), delta("b"), Chunk("step-finish", {})]
    assert feed(BatchParts(1), chunks) == chunks


# ---------------------------------------------------------------- flushing


async def test_non_text_chunks_release_the_batch_first_and_keep_their_order(make_bare_agent):
    @tool
    def ping(n: int) -> str:
        """Ping."""
        return "pong"

    model = MockModel([
        MockResponse(text="a b", reasoning="think hard", tool_calls=[{"tool_name": "ping", "args": {"n": 1}}]),
        "c d e",
    ])
    stream = make_bare_agent(model=model, tools=[ping],
                             output_processors=[BatchParts(10)]).stream("q")
    chunks = await collect(stream)
    assert [(c.type, c.payload.get("text")) for c in chunks] == [
        ("step-start", None),
        ("reasoning-delta", "think "), ("reasoning-delta", "hard"),
        ("text-delta", "a b"),
        ("tool-call", None),
        ("step-finish", None),
        ("tool-result", None),
        ("step-start", None),
        ("text-delta", "c d e"),
        ("step-finish", None),
        ("finish", None),
    ]


async def test_a_data_chunk_written_mid_batch_cannot_overtake_the_text(make_bare_agent):
    class Annotate(Processor):
        id = "annotate"

        @hookimpl
        async def process_output_stream(self, part, writer):
            if part.type == "text-delta" and part.payload["text"].startswith("three"):
                await writer.custom({"type": "data-note", "data": {"at": "three"}})
            return part

    model = MockModel([TEN_WORDS])
    stream = make_bare_agent(model=model, output_processors=[Annotate(), BatchParts(5)]).stream("q")
    chunks = await collect(stream)
    kinds = [(c.type, c.payload.get("text")) for c in chunks if c.type != "step-start"]
    assert kinds[:3] == [("text-delta", "one two three "), ("data-note", None),
                         ("text-delta", "four five six seven eight ")]
    assert "".join(texts_of(chunks)) == TEN_WORDS


def test_max_wait_ms_releases_a_batch_when_the_next_delta_is_late(monkeypatch):
    import tripwire.plugins.batch_parts as module

    now = [100.0]
    monkeypatch.setattr(module.time, "monotonic", lambda: now[0])
    processor = BatchParts(100, max_wait_ms=50)
    state: dict = {}
    assert feed(processor, [delta("a"), delta("b")], state) == []
    now[0] += 0.049
    assert feed(processor, [delta("c")], state) == []
    now[0] += 0.001  # 50 ms after the first delta of the batch
    assert texts_of(feed(processor, [delta("d")], state)) == ["abcd"]
    # The clock starts again with the next batch.
    now[0] += 1.0
    assert feed(processor, [delta("e")], state) == []
    now[0] += 0.02
    assert feed(processor, [delta("f")], state) == []
    assert texts_of(feed(processor, [Chunk("finish", {})], state)) == ["ef"]


def test_without_max_wait_time_does_not_matter(monkeypatch):
    import tripwire.plugins.batch_parts as module

    now = [0.0]
    monkeypatch.setattr(module.time, "monotonic", lambda: now[0])
    processor, state = BatchParts(3), {}
    for text in "ab":
        now[0] += 3600
        assert feed(processor, [delta(text)], state) == []


async def test_an_empty_response_passes_untouched(make_bare_agent):
    model = MockModel([""])
    chunks = await collect(make_bare_agent(model=model,
                                           output_processors=[BatchParts()]).stream("q"))
    assert [c.type for c in chunks] == ["step-start", "step-finish", "finish"]


async def test_held_text_is_not_released_after_a_tripwire(make_bare_agent):
    class StopOnSeven(Processor):
        id = "stop-on-seven"

        @hookimpl
        def process_output_stream(self, part, abort):
            if part.type == "text-delta" and "seven" in part.payload["text"]:
                abort("seven is forbidden")
            return part

    model = MockModel([TEN_WORDS])
    stream = make_bare_agent(model=model,
                             output_processors=[StopOnSeven(), BatchParts(4)]).stream("q")
    chunks = await collect(stream)
    assert texts_of(chunks) == ["one two three four "]
    assert chunks[-1].type == "tripwire" and chunks[-1].payload["reason"] == "seven is forbidden"


async def test_a_guardrail_after_it_sees_merged_chunks(make_bare_agent):
    seen = []

    class Record(Processor):
        id = "record"

        @hookimpl
        def process_output_stream(self, part):
            if part.type == "text-delta":
                seen.append(part.payload["text"])
            return part

    model = MockModel([TEN_WORDS])
    await make_bare_agent(model=model, output_processors=[BatchParts(5), Record()]).generate("q")
    assert seen == ["one two three four five ", "six seven eight nine ten"]


# ---------------------------------------------------------------- options and discovery


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"batch_size": 0}, "batch_size must be an integer >= 1, got 0"),
        ({"batch_size": 2.5}, "batch_size must be an integer >= 1"),
        ({"max_wait_ms": -1}, "max_wait_ms must be an integer >= 0 or None"),
        ({"max_wait_ms": True}, "max_wait_ms must be an integer >= 0 or None"),
    ],
)
def test_bad_options_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        BatchParts(**options)


def test_listed_and_created_by_discovery(only_plugins):
    from tripwire import plugins

    only_plugins("batch-parts")
    entry = plugins.available()["batch-parts"]
    assert entry.cls is BatchParts and entry.hooks == ("process_output_stream",)
    batcher = plugins.create("batch-parts", batch_size=8, max_wait_ms=100)
    assert (batcher.batch_size, batcher.max_wait_ms) == (8, 100)
