"""unicode-normalizer on the output side: a value the model writes disguised with
invisible characters, compatibility forms (fullwidth, math bold) or look-alike letters
never gets past the guards listed after the normalizer in ``output_processors``,
whatever the path (text split anywhere, reasoning, tool-call arguments, tool results,
the structured object, data chunks), streamed or not; what is not disguised (emoji,
Persian joiners, plain ASCII) comes through as it was."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.helpers import keyword_guard, run_collected, strings, texts
from tripwire import Agent, Message, Processor, hookimpl, tool
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.plugins.unicode_normalizer import UnicodeNormalizer, read_lookalikes
from tripwire.plugins.unicode_normalizer.stream import HOLD
from tripwire.testing import MockModel, MockResponse

KEY = "AKIAIOSFODNN7EXAMPLE"
EMAIL = "ann.lee@example.com"

#: Each guard, and the value it must keep from the client.
GUARDS = {
    "regex-filter": (lambda: RegexFilter(presets=["secrets"], strategy="redact"), KEY),
    "keyword-guard": (lambda: keyword_guard()(patterns=[KEY], strategy="mask"), KEY),
    "pii-detector": (lambda: PIIDetector(detection_types=("email",)), EMAIL),
}
#: Where an invisible character goes: inside the part each guard's pattern needs whole.
CUT = {KEY: 4, EMAIL: 11}


def _inside(mark: str):
    return lambda value: value[:CUT[value]] + mark + value[CUT[value]:]


def _fullwidth(value: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)


def _math_bold(value: str) -> str:
    def bold(c: str) -> str:
        if "A" <= c <= "Z":
            return chr(0x1D400 + ord(c) - ord("A"))
        if "a" <= c <= "z":
            return chr(0x1D41A + ord(c) - ord("a"))
        if "0" <= c <= "9":
            return chr(0x1D7CE + ord(c) - ord("0"))
        return c

    return "".join(bold(c) for c in value)


def _cyrillic(value: str) -> str:
    # A Cyrillic A (or a and e) in a word of Latin letters.
    return value.replace("A", "\u0410", 1).replace("a", "\u0430", 1).replace("e", "\u0435", 1)


DISGUISES = {
    "zwsp": _inside("\u200b"),
    "zwj": _inside("\u200d"),
    "soft-hyphen": _inside("\u00ad"),
    "word-joiner": _inside("\u2060"),
    "tags": _inside("".join(chr(0xE0000 + ord(c)) for c in "hi")),
    "fullwidth": _fullwidth,
    "math-bold": _math_bold,
    "cyrillic": _cyrillic,
}
#: How a client would read a string: every disguise undone.
READ = UnicodeNormalizer(fold_lookalikes=True).characters


def normalizer(disguise: str) -> UnicodeNormalizer:
    return UnicodeNormalizer(fold_lookalikes=disguise == "cyrillic")


def agent(model: MockModel, disguise: str, guard: str, *, tools=None,
          before: list[Processor] = ()) -> Agent:
    return Agent(id="a", model=model, tools=tools, default_error_processors=False,
                 output_processors=[*before, normalizer(disguise), GUARDS[guard][0]()])


async def run(agent: Agent, mode: str):
    return await run_collected(agent, "hi", mode == "stream")


def leaks(value: str, *outputs: Any) -> list[str]:
    """The strings of ``outputs`` in which a reader finds ``value``."""
    return [s for s in strings(list(outputs)) if value in READ(s) or value in s]


def check(value: str, chunks, result, *more: Any) -> None:
    assert result.tripwire is None
    assert not leaks(value, [c.payload for c in chunks], result.text, result.messages,
                     result.object, [r.result for r in result.tool_results], *more)


def recording_tool(calls: list[dict[str, Any]], result: Any = "done"):
    @tool
    def lookup(query: str) -> Any:
        """Look something up."""
        calls.append({"query": query})
        return result

    return lookup


# ---------------------------------------------------------------- the attack


def test_every_disguise_is_seen_through():
    for disguise, make in DISGUISES.items():
        for value in (KEY, EMAIL):
            assert make(value) != value
            assert READ(make(value)) == value, disguise


SETTINGS = settings(max_examples=15, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("disguise", DISGUISES)
@pytest.mark.parametrize("guard", GUARDS)
@SETTINGS
@given(data=st.data())
def test_a_disguised_value_split_anywhere_never_reaches_the_client(guard, disguise, data):
    value = GUARDS[guard][1]
    text = f"It is {DISGUISES[disguise](value)}, keep it."
    kind = data.draw(st.sampled_from(["text-delta", "reasoning-delta"]), label="channel")
    cuts = sorted(data.draw(st.sets(st.integers(1, len(text) - 1)), label="cuts"))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    for mode in ("stream", "generate"):
        model = MockModel([MockResponse(chunks=[{"type": kind, "id": "t1", "text": p}
                                                for p in pieces])])
        chunks, result = asyncio.run(run(agent(model, disguise, guard), mode))
        check(value, chunks, result)
        if mode == "stream":  # the rest of the text came through
            assert texts(chunks, kind).startswith("It is ")
            assert texts(chunks, kind).endswith(", keep it.")


@pytest.mark.parametrize("mode", ["stream", "generate"])
@pytest.mark.parametrize("disguise", DISGUISES)
@pytest.mark.parametrize("guard", GUARDS)
async def test_disguised_tool_call_arguments_never_reach_the_tool(guard, disguise, mode):
    value = GUARDS[guard][1]
    calls: list[dict[str, Any]] = []
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": f"find {DISGUISES[disguise](value)}"}}]),
        "ok"])
    chunks, result = await run(agent(model, disguise, guard, tools=[recording_tool(calls)]),
                               mode)
    check(value, chunks, result, calls)
    assert len(calls) == 1


@pytest.mark.parametrize("mode", ["stream", "generate"])
@pytest.mark.parametrize("disguise", DISGUISES)
@pytest.mark.parametrize("guard", GUARDS)
async def test_a_disguised_tool_result_never_reaches_the_client_or_the_model(guard, disguise,
                                                                            mode):
    value = GUARDS[guard][1]
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": "x"}}]),
        "ok"])
    lookup = recording_tool([], {"found": DISGUISES[disguise](value)})
    chunks, result = await run(agent(model, disguise, guard, tools=[lookup]), mode)
    check(value, chunks, result, [r.prompt for r in model.requests])


@pytest.mark.parametrize("mode", ["stream", "generate"])
@pytest.mark.parametrize("disguise", ["zwsp", "fullwidth", "cyrillic"])
@pytest.mark.parametrize("guard", GUARDS)
async def test_a_disguised_value_in_a_tool_error_never_reaches_the_client_or_the_model(
        guard, disguise, mode):
    value = GUARDS[guard][1]

    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        raise ValueError(f"no account for {DISGUISES[disguise](value)}")

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": "x"}}]),
        "sorry"])
    chunks, result = await run(agent(model, disguise, guard, tools=[lookup]), mode)
    check(value, chunks, result, [r.prompt for r in model.requests])
    if mode == "stream":
        assert "tool-error" in [c.type for c in chunks]


@pytest.mark.parametrize("disguise", DISGUISES)
@pytest.mark.parametrize("guard", GUARDS)
async def test_a_disguised_value_in_the_input_never_reaches_the_model(guard, disguise):
    value = GUARDS[guard][1]
    model = MockModel(["ok"])
    agent = Agent(id="a", model=model, default_error_processors=False,
                  input_processors=[normalizer(disguise), GUARDS[guard][0]()])
    result = await agent.generate(f"remember {DISGUISES[disguise](value)} please")
    assert result.tripwire is None
    assert not leaks(value, [r.prompt for r in model.requests], result.messages)


async def test_a_tool_errors_text_is_normalized_for_the_model_and_the_history_too():
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        raise ValueError("bad AKIA\u200bIOSF\uff2fDNN7EXAMPLE")

    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "lookup", "tool_call_id": "c1",
                                  "args": {"query": "x"}}]),
        "sorry"])
    agent = Agent(id="a", model=model, tools=[lookup], default_error_processors=False,
                  output_processors=[UnicodeNormalizer()])
    chunks, result = await run(agent, "stream")
    (error,) = [c for c in chunks if c.type == "tool-error"]
    assert error.payload["error"] == "ValueError: bad AKIAIOSFODNN7EXAMPLE"
    seen = strings([model.requests[1].prompt, result.messages])
    assert any("bad AKIAIOSFODNN7EXAMPLE" in s for s in seen)
    assert not any("\u200b" in s or "\uff2f" in s for s in seen)


class SetsObject(Processor):
    """Puts a structured object holding ``value`` on the result (as structured output
    does with what the model wrote)."""

    id = "sets-object"

    def __init__(self, value: str):
        self.value = value

    @hookimpl
    def process_output_result(self, result):
        result.object = {"contact": {"key": self.value}, "list": [self.value]}


@pytest.mark.parametrize("mode", ["stream", "generate"])
@pytest.mark.parametrize("disguise", DISGUISES)
@pytest.mark.parametrize("guard", GUARDS)
async def test_a_disguised_value_in_the_structured_object_never_reaches_the_client(
        guard, disguise, mode):
    value = GUARDS[guard][1]
    model = MockModel(["here"])
    setter = SetsObject(DISGUISES[disguise](value))
    chunks, result = await run(agent(model, disguise, guard, before=[setter]), mode)
    check(value, chunks, result)
    assert result.object is not None


@pytest.mark.parametrize("mode", ["stream", "generate"])
@pytest.mark.parametrize("disguise", DISGUISES)
@pytest.mark.parametrize("guard", GUARDS)
async def test_a_disguised_value_in_a_data_chunk_never_reaches_the_client(guard, disguise,
                                                                         mode):
    value = GUARDS[guard][1]
    model = MockModel([MockResponse(chunks=[
        {"type": "text-delta", "id": "t1", "text": "see "},
        {"type": "data-note", "data": {"note": [f"it is {DISGUISES[disguise](value)}"]}},
        {"type": "source", "url": "https://example.com", "title": DISGUISES[disguise](value)},
    ])])
    chunks, result = await run(agent(model, disguise, guard), mode)
    check(value, chunks, result)
    if mode == "stream":
        assert {"data-note", "source"} <= {c.type for c in chunks}


async def test_without_fold_lookalikes_a_cyrillic_letter_is_left_as_written():
    model = MockModel(["key \u0410KIAIOSFODNN7EXAMPLE"])
    result = await Agent(id="a", model=model, default_error_processors=False,
                         output_processors=[UnicodeNormalizer()]).generate("hi")
    assert result.text == "key \u0410KIAIOSFODNN7EXAMPLE"


# ---------------------------------------------------------------- what is not disguised

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
UNCHANGED = (f"Hi {FAMILY} and 👍🏿 🇫🇷 {SCOTLAND} 1\ufe0f\u20e3 ℹ\ufe0f "
             "\u2764\ufe0f\u200d\U0001f525 می\u200cخواهم  क्\u200dष café\n\tdone ")


@settings(max_examples=60, deadline=None, database=None)
@given(cuts=st.sets(st.integers(1, len(UNCHANGED) - 1)),
       kind=st.sampled_from(["text-delta", "reasoning-delta"]),
       lookalikes=st.booleans())
def test_emoji_and_joiners_that_spell_words_survive_the_output_split_anywhere(cuts, kind,
                                                                               lookalikes):
    cuts = sorted(cuts)
    pieces = [UNCHANGED[a:b] for a, b in zip([0, *cuts], [*cuts, len(UNCHANGED)], strict=True)]
    model = MockModel([MockResponse(chunks=[{"type": kind, "id": "t1", "text": p}
                                            for p in pieces])])
    normalizer = UnicodeNormalizer(fold_lookalikes=lookalikes)
    agent = Agent(id="a", model=model, output_processors=[normalizer],
                  default_error_processors=False)
    chunks, result = asyncio.run(run(agent, "stream"))
    assert texts(chunks, kind) == UNCHANGED
    assert result.messages[0].content.parts[0].text == UNCHANGED


@settings(max_examples=40, deadline=None, database=None)
@given(cuts=st.sets(st.integers(1, 30)))
def test_a_letter_and_the_accent_of_the_next_delta_become_one_character(cuts):
    text = "cafe\u0301 \uff21\uff2b\u200b\uff29\uff21 x\u0323\u0301 \u1100\u1161\u11a8"
    cuts = sorted(c for c in cuts if c < len(text))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    model = MockModel([MockResponse(chunks=[{"type": "text-delta", "id": "t1", "text": p}
                                            for p in pieces])])
    agent = Agent(id="a", model=model, output_processors=[UnicodeNormalizer()],
                  default_error_processors=False)
    chunks, result = asyncio.run(run(agent, "stream"))
    expected = UnicodeNormalizer().characters(text)
    assert expected == "café AKIA \u1e0d\u0301 \uac01".replace("\u1e0d\u0301", "x\u0323\u0301")
    assert texts(chunks) == result.text == expected


#: Characters whose normalization depends on their neighbours, and plain ones.
ALPHABET = [*"aeAK1 \n\r\t.#*<", "\u0301", "\u0323", "\u200b", "\u200c", "\u200d", "\u00ad",
            "\u2060", "\U0001f468", "\U0001f469", "\U0001f3ff", "\ufe0f", "\u20e3", "\u2139",
            "\U0001f3f4", "\U000e0067", "\U000e007f", "\u0645", "\u06cc", "\uff21", "\U0001d400",
            "\u0410", "\u0430", "\u1100", "\u1161", "\u11a8", "\uac00", "\x00", "\u0915",
            "\u094d", "\uff76", "\uff9e", "\u3164", "\ufb01"]


@settings(max_examples=150, deadline=None, database=None)
@given(text=st.lists(st.sampled_from(ALPHABET), max_size=30).map("".join),
       cuts=st.sets(st.integers(1, 29)),
       options=st.fixed_dictionaries({
           "form": st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"]),
           "fold_lookalikes": st.booleans(), "preserve_emoji": st.booleans(),
           "strip_control_chars": st.booleans(), "strip_invisible": st.booleans()}))
def test_property_a_stream_split_anywhere_is_normalized_as_the_whole_text(text, cuts, options):
    cuts = sorted(c for c in cuts if c < len(text))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    model = MockModel([MockResponse(chunks=[{"type": "text-delta", "id": "t1", "text": p}
                                            for p in pieces])])
    normalizer = UnicodeNormalizer(**options)
    agent = Agent(id="a", model=model, output_processors=[normalizer],
                  default_error_processors=False)
    chunks, result = asyncio.run(run(agent, "stream"))
    assert texts(chunks) == result.text == normalizer.characters(text)


async def test_a_clean_ascii_stream_comes_through_chunk_for_chunk():
    sent = [{"type": "text-delta", "id": "t1", "text": t}
            for t in ["Hello", " wor", "ld", ", all", " fine", ".\n", "Bye"]]
    model = MockModel([MockResponse(chunks=sent)])
    agent = Agent(id="a", model=model, output_processors=[UnicodeNormalizer()],
                  default_error_processors=False)
    chunks, result = await run(agent, "stream")
    assert [c.payload for c in chunks if c.type == "text-delta"] == [
        {"id": s["id"], "text": s["text"]} for s in sent]
    assert result.text == "Hello world, all fine.\nBye"


async def test_output_keeps_a_deltas_spaces_and_the_same_instance_serves_both_lists():
    normalizer = UnicodeNormalizer()
    model = MockModel([MockResponse(chunks=[
        {"type": "text-delta", "id": "t1", "text": "  two  spaces\uff01 "},
        {"type": "text-delta", "id": "t1", "text": " and more  "}])])
    agent = Agent(id="a", model=model, input_processors=[normalizer],
                  output_processors=[normalizer], default_error_processors=False)
    chunks, result = await run(agent, "stream")
    assert texts(chunks) == result.text == "  two  spaces!  and more  "
    # ... while the input was collapsed and trimmed, as before.
    assert model.requests[0].prompt[-1]["content"][0]["text"] == "hi"


async def test_control_characters_and_carriage_returns_go_from_the_stream():
    model = MockModel([MockResponse(chunks=[
        {"type": "text-delta", "id": "t1", "text": "a\x00b\r"},
        {"type": "text-delta", "id": "t1", "text": "\nc\rd\x07"}])])
    agent = Agent(id="a", model=model, output_processors=[UnicodeNormalizer()],
                  default_error_processors=False)
    chunks, result = await run(agent, "stream")
    assert texts(chunks) == result.text == "ab\nc\nd"


# ---------------------------------------------------------------- fold_lookalikes


@pytest.mark.parametrize(("text", "expected"), [
    ("\u0410KIAIOSFODNN7EXAMPLE", KEY),                 # a Cyrillic A in a Latin word
    ("p\u0430ssword", "password"),                      # a Cyrillic a
    ("\u039fpen \u03a4he d\u03bfor", "Open The door"),  # Greek capitals, a small omicron
    ("Привет, мир", "Привет, мир"),                     # all Cyrillic: as written
    ("Καλημέρα", "Καλημέρα"),                           # all Greek
    ("Łódź ıstanbul", "Łódź ıstanbul"),                 # Latin letters are not look-alikes
    ("Москва and Paris", "Москва and Paris"),           # one script per word
])
def test_fold_lookalikes_reads_look_alike_letters_in_latin_words(text, expected):
    assert read_lookalikes(text) == expected
    assert UnicodeNormalizer(fold_lookalikes=True).normalize(text) == expected


def test_fold_lookalikes_is_off_by_default_and_applies_to_input_too():
    assert UnicodeNormalizer().normalize("p\u0430ssword") == "p\u0430ssword"
    message = Message.user("my p\u0430ssword")
    UnicodeNormalizer(fold_lookalikes=True).process_input([message])
    assert message.text == "my password"


def test_a_look_alike_read_as_latin_composes_with_its_accent():
    # A Cyrillic A and a combining acute: read as Latin, they are one character, as an
    # accented Latin A would have been; the result is normalized (a second pass keeps it).
    normalizer = UnicodeNormalizer(form="NFC", fold_lookalikes=True)
    assert normalizer.characters("a\u0410\u0301") == "a\u00c1"
    assert normalizer.characters("a\u00c1") == "a\u00c1"


async def test_a_long_word_being_read_is_not_held_to_its_end():
    # A word of 300 letters with a look-alike in it, one letter a delta: the stream keeps
    # flowing (it does not wait for the end of the word), and the look-alike is read.
    word = "\u0410" + "b" * 299
    model = MockModel([MockResponse(chunks=[{"type": "text-delta", "id": "t1", "text": c}
                                            for c in word])])

    class Counter(Processor):
        """Counts the model's deltas (it comes before the normalizer)."""

        id = "count"

        def __init__(self):
            self.seen = 0

        @hookimpl
        def process_output_stream(self, part):
            self.seen += part.type == "text-delta"
            return part

    counter = Counter()
    agent = Agent(id="a", model=model, default_error_processors=False,
                  output_processors=[counter, UnicodeNormalizer(fold_lookalikes=True)])
    stream = agent.stream("hi")
    first = None
    async for chunk in stream:
        if chunk.type == "text-delta" and first is None:
            first = counter.seen
    result = await stream.result
    assert result.text == "A" + "b" * 299
    assert first is not None and first <= 2 * HOLD  # not 300: the end of the word
