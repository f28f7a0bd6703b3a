"""A guarded value spelled with JSON string escapes, in an answer the client decodes as
JSON: structured output, a ``response_format`` of ``json_object`` / ``json_schema``, a
tool call's argument text. ``"ann.lee\\u0040example.com"`` is an e-mail address once
decoded; the guards (pii-detector and regex-filter, redact) must find it, streamed or
not, however the text is cut into deltas, and their redaction must hold in what the
client decodes: ``result.text``, the streamed text, ``result.object``, the tool call's
arguments as the tool and the client get them, and the gateway's answer to the
``openai`` client.

The assertions decode with ``json.loads`` (what a client does) or, for prose that holds
argument text, with ``decoded`` below: never with the code under test.
"""

from __future__ import annotations

import json
import re
from typing import Any

import hypothesis.strategies as st
import openai
import pytest
from hypothesis import example, given, settings

from tests.support.fake_llm_server import FakeLLMServer, FakeToolCall, Reply
from tripwire import Agent, Chunk, tool
from tripwire.guards.values import strings
from tripwire.models.wire import tool_call_chunk
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.serve import Gateway, running
from tripwire.stream._json_escapes import Canonicalizer, canonical
from tripwire.testing import MockModel, MockResponse

EMAIL = "ann.lee@example.com"
CARD = "4111 1111 1111 1111"
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"

#: guard -> (the value it hides, the guard)
GUARDS: dict[str, tuple[str, Any]] = {
    "pii-email": (EMAIL, lambda: PIIDetector(detection_types=["email"])),
    "pii-card": (CARD, lambda: PIIDetector(detection_types=["credit-card"])),
    "regex-aws-key": (AWS_KEY, lambda: RegexFilter(presets=["secrets"], strategy="redact")),
    "regex-email": (EMAIL, lambda: RegexFilter(presets=["pii"], strategy="redact")),
}

SCHEMA = {"type": "object", "properties": {"note": {"type": "string"}}}
#: the call options that make an answer JSON the client decodes
MODES: dict[str, dict[str, Any]] = {
    "structured_output": {"structured_output": SCHEMA},
    "json_object": {"provider_options": {"mock": {"response_format": {
        "type": "json_object"}}}},
    "json_schema": {"provider_options": {"mock": {"response_format": {
        "type": "json_schema", "json_schema": {"name": "note", "schema": SCHEMA}}}}},
}

#: how each character of the value is written: as it is, or as a \\u escape
SPELLINGS = ("as-is", "lower", "upper")


def spell(value: str, spelling: list[str]) -> str:
    """``value`` with character ``i`` written as ``spelling[i]`` says (cycled)."""
    out = []
    for i, c in enumerate(value):
        how = spelling[i % len(spelling)] if spelling else "as-is"
        out.append(c if how == "as-is" else
                   f"\\u{ord(c):04x}" if how == "lower" else f"\\u{ord(c):04X}")
    return "".join(out)


def cut(text: str, cuts: list[int]) -> list[str]:
    """``text`` cut at ``cuts`` (taken modulo its length + 1)."""
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    return [text[a:b] for a, b in zip(points, points[1:], strict=False) if b > a]


def decoded(text: str) -> str:
    """``text`` with its ``\\uXXXX`` escapes decoded (pairs too): what a JSON parser makes
    of argument text quoted in prose."""
    def one(m: re.Match[str]) -> str:
        return m[0].encode("ascii").decode("unicode-escape")
    return re.sub(r"(?:\\u[0-9a-fA-F]{4})+", lambda m: one(m).encode(
        "utf-16", "surrogatepass").decode("utf-16"), text)


def holds(value: str, found: Any) -> bool:
    """Whether any string in ``found`` holds ``value`` (a card number in any grouping)."""
    texts = strings(found)
    if value == CARD:
        return any(value.replace(" ", "") in re.sub(r"[\s-]", "", t) for t in texts)
    return any(value in t for t in texts)


async def run_both(agent: Agent, options: dict[str, Any]) -> tuple[str, Any, Any]:
    """The streamed text of one run, and ``result.text`` and ``result.object`` of a
    ``generate`` (the model answers both the same)."""
    stream = agent.stream("hi", **options)
    streamed = "".join([c.payload["text"] async for c in stream if c.type == "text-delta"])
    assert stream.tripwire is None
    result = await agent.generate("hi", **options)
    assert result.tripwire is None
    return streamed, result.text, result.object


# ---------------------------------------------------------------- the text


@settings(max_examples=60, deadline=None, database=None)
@given(guard=st.sampled_from(sorted(GUARDS)), mode=st.sampled_from(sorted(MODES)),
       spelling=st.lists(st.sampled_from(SPELLINGS), max_size=6),
       cuts=st.lists(st.integers(0, 400), max_size=8))
@example(guard="pii-email", mode="json_object", spelling=["as-is"] * 7 + ["lower"] + ["as-is"] * 11,
         cuts=[])
@example(guard="pii-email", mode="structured_output", spelling=["lower"], cuts=list(range(400)))
@example(guard="pii-card", mode="json_schema", spelling=["as-is", "upper"], cuts=[13, 14, 15])
@example(guard="regex-aws-key", mode="json_object", spelling=["as-is"] * 19 + ["upper"],
         cuts=[31, 32, 33, 34, 35])
async def test_an_escaped_value_in_a_json_answer_is_redacted_in_what_the_client_decodes(
        guard: str, mode: str, spelling: list[str], cuts: list[int]) -> None:
    value, make = GUARDS[guard]
    text = '{"note": "write to ' + spell(value, spelling) + ' today", "n": 1}'
    chunks = [Chunk("text-delta", {"id": "t", "text": piece}) for piece in cut(text, cuts)]
    guard_ = make()
    agent = Agent(id="a", model=MockModel([MockResponse(chunks=chunks)] * 2),
                  output_processors=[guard_], default_error_processors=False)
    streamed, text_out, obj = await run_both(agent, MODES[mode])
    for answer in (streamed, text_out):
        note = json.loads(answer)  # still JSON, as the model sent it
        assert not holds(value, note), answer
        assert note["note"].startswith("write to ") and note["n"] == 1
    if mode == "structured_output":
        assert obj == json.loads(text_out)


async def test_an_answer_the_client_does_not_decode_is_left_as_written() -> None:
    text = 'In JSON, "\\u0040" is how "@" can be written.'
    agent = Agent(id="a", model=MockModel([text] * 2), output_processors=[PIIDetector()],
                  default_error_processors=False)
    streamed, text_out, _ = await run_both(agent, {})
    assert streamed == text_out == text


async def test_escapes_a_json_string_needs_stay_and_decode_to_the_same_value() -> None:
    text = ('{"a": "\\u0022q\\u0022 \\\\u0040 \\u005C \\u000a\\u0001 \\/ \\ud83d\\ude00 '
            '\\uDE00"}')
    agent = Agent(id="a", model=MockModel([text] * 2), default_error_processors=False)
    streamed, text_out, _ = await run_both(agent, MODES["json_object"])
    assert streamed == text_out == (
        '{"a": "\\"q\\" \\\\u0040 \\\\ \\n\\u0001 / \U0001f600 \\ude00"}')
    assert json.loads(text_out) == json.loads(text)


async def test_an_escape_a_step_leaves_unfinished_cannot_join_the_next_steps_text() -> None:
    """The step's text ends in ``\\u00``, the next step's starts with ``40``: the client
    joins them, so the unfinished escape's backslash is escaped."""
    @tool
    def lookup() -> str:
        """Look it up."""
        return "ok"

    first = MockResponse(chunks=[Chunk("text-delta", {"id": "t", "text": '{"note": "ann.lee\\u00'}),
                                 Chunk("tool-call", {"tool_call_id": "c1", "tool_name": "lookup",
                                                     "args": {}})])
    second = MockResponse(text='40example.com"}')
    agent = Agent(id="a", model=MockModel([first, second]), tools=[lookup],
                  output_processors=[PIIDetector(detection_types=["email"])],
                  default_error_processors=False)
    result = await agent.generate("hi", **MODES["json_object"])
    assert not holds(EMAIL, json.loads(result.text))


# ---------------------------------------------------------------- tool-call arguments

#: argument text the model may send: a JSON object (parsed: the tool gets it decoded),
#: and JSON that is no object (passed on as written, to the client and in the tool
#: error the model reads)
ARGUMENTS = {
    "object": '{"to": "%s"}',
    "array": '["%s"]',
    "string": '"%s"',
}


@settings(max_examples=30, deadline=None, database=None)
@given(guard=st.sampled_from(sorted(GUARDS)), shape=st.sampled_from(sorted(ARGUMENTS)),
       spelling=st.lists(st.sampled_from(SPELLINGS), min_size=1, max_size=6))
@example(guard="pii-email", shape="array", spelling=["as-is"] * 7 + ["lower"] + ["as-is"] * 11)
async def test_escaped_tool_arguments_are_redacted_for_the_tool_the_client_and_the_model(
        guard: str, shape: str, spelling: list[str]) -> None:
    value, make = GUARDS[guard]
    raw = ARGUMENTS[shape] % spell(value, spelling)
    got: list[Any] = []

    @tool
    def send_mail(to: str) -> str:
        """Send a mail."""
        got.append(to)
        return "sent"

    model = MockModel([MockResponse(chunks=[tool_call_chunk("call_1", "send_mail", raw)]),
                       "done"])
    agent = Agent(id="a", model=model, tools=[send_mail], output_processors=[make()],
                  default_error_processors=False)
    stream = agent.stream("hi")
    chunks = [c async for c in stream]
    (call,) = [c for c in chunks if c.type == "tool-call"]
    if "raw_args" in call.payload:  # what a client decodes
        assert not holds(value, json.loads(call.payload["raw_args"]))
    assert not holds(value, call.payload["args"])
    assert not holds(value, got)  # what the tool ran with
    for c in chunks:
        assert not holds(value, [decoded(s) for s in strings(c.payload)]), c
    # the tool's result or error as the model reads it next
    assert not holds(value, [decoded(s) for s in strings(model.requests[1].prompt)])


# ---------------------------------------------------------------- through the gateway

SEND = {"type": "function", "function": {
    "name": "send_mail", "description": "Send a mail.",
    "parameters": {"type": "object", "properties": {"to": {"type": "string"}}}}}

FORMATS = {
    "json_object": {"type": "json_object"},
    "json_schema": {"type": "json_schema", "json_schema": {"name": "note", "schema": SCHEMA}},
}


def gateway(upstream: FakeLLMServer) -> Gateway:
    pii = PIIDetector(detection_types=["email"])
    return Gateway({"support": Agent(id="support", model=upstream.openai(max_retries=0),
                                     output_processors=[pii],
                                     default_error_processors=False)})


async def ask(url: str, stream: bool, **fields: Any) -> tuple[str, list[str]]:
    """The content of the gateway's answer and its tool calls' argument texts, as the
    ``openai`` client reads them."""
    async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="none",
                                  max_retries=0) as api:
        create = api.chat.completions.create
        messages = [{"role": "user", "content": "Hi"}]
        if not stream:
            reply = await create(model="support", messages=messages, **fields)
            message = reply.choices[0].message
            return message.content or "", [c.function.arguments
                                           for c in message.tool_calls or ()]
        content, arguments = "", {}
        async for event in await create(model="support", messages=messages, stream=True,
                                        **fields):
            for choice in event.choices:
                content += choice.delta.content or ""
                for c in choice.delta.tool_calls or ():
                    arguments[c.index] = arguments.get(c.index, "") + c.function.arguments
        return content, [arguments[i] for i in sorted(arguments)]


@pytest.mark.parametrize("delta_size", [1, 3, 7, 100])
@pytest.mark.parametrize("stream", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize("fmt", sorted(FORMATS))
async def test_the_gateway_answers_a_json_format_with_the_value_redacted_once_decoded(
        fmt: str, stream: bool, delta_size: int) -> None:
    text = '{"note": "write to ' + spell(EMAIL, ["as-is"] * 7 + ["lower"]) + '"}'
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(text=text, delta_size=delta_size))
        async with running(gateway(upstream), "127.0.0.1", 0) as url:
            content, _ = await ask(url, stream, response_format=FORMATS[fmt])
    assert upstream.requests[0].body["response_format"] == FORMATS[fmt]
    note = json.loads(content)
    assert note["note"].startswith("write to ") and not holds(EMAIL, note), content


@pytest.mark.parametrize("stream", [False, True], ids=["complete", "stream"])
@pytest.mark.parametrize("shape", sorted(ARGUMENTS))
async def test_the_gateway_returns_escaped_tool_arguments_redacted_once_decoded(
        shape: str, stream: bool) -> None:
    raw = ARGUMENTS[shape] % spell(EMAIL, ["lower"])
    async with FakeLLMServer() as upstream:
        upstream.script(Reply(tool_calls=[FakeToolCall("call_1", "send_mail", raw)],
                              delta_size=3))
        async with running(gateway(upstream), "127.0.0.1", 0) as url:
            _, arguments = await ask(url, stream, tools=[SEND])
    (text,) = arguments
    assert not holds(EMAIL, json.loads(text)), text


# ---------------------------------------------------------------- the rewriting itself

#: strings whose escapes are worth spelling several ways: every JSON-required escape,
#: a character outside the BMP (a surrogate pair), lone surrogates, a backslash
CHARS = st.sampled_from(['"', "\\", "/", "\n", "\t", "\x01", "\x7f", "@", "é", "\u2028",
                         "\U0001f600", "\ud800", "\udc00", "a", "u", "0"])


@st.composite
def escaped_json(draw: st.DrawFn) -> str:
    """A JSON string literal of random characters, each written as it may be (as it
    is where JSON allows, a \\u escape in either case, a short escape, ``\\/``)."""
    out = ['"']
    for c in draw(st.lists(CHARS, max_size=12)):
        options = [f"\\u{ord(c):04x}", f"\\u{ord(c):04X}"] if ord(c) <= 0xFFFF else [
            "".join(f"\\u{u:04x}" for u in _utf16(c))]
        if c in '"\\':
            options.append("\\" + c)
        elif c == "/":
            options += ["/", "\\/"]
        elif c == "\n":
            options.append("\\n")
        elif ord(c) >= 0x20 and not 0xD800 <= ord(c) < 0xE000:
            options.append(c)
        out.append(draw(st.sampled_from(options)))
    return "".join(out) + '"'


def _utf16(c: str) -> list[int]:
    data = c.encode("utf-16-be")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


@settings(max_examples=300, deadline=None, database=None)
@given(literal=escaped_json(), cuts=st.lists(st.integers(0, 200), max_size=10))
@example(literal='"ann.lee\\u0040example.com"', cuts=[8, 9, 10, 11, 12, 13])
@example(literal='"\\ud83d\\ude00\\\\u0040"', cuts=[2, 7, 8, 13])
def test_the_rewritten_text_decodes_to_the_same_value_however_it_is_cut(
        literal: str, cuts: list[int]) -> None:
    whole = canonical(literal)
    assert json.loads(whole) == json.loads(literal)
    assert canonical(whole) == whole
    # no escape is left that stands for a character a JSON string may hold as it is
    for m in re.finditer(r"\\(\\|u([0-9a-f]{4})|.)", whole):
        if m[2] is not None:
            cp = int(m[2], 16)
            assert cp < 0x20 or cp in (0x22, 0x5C) or 0xD800 <= cp < 0xE000, whole
        assert m[1] != "/"
    canon = Canonicalizer()
    pieces = [canon.push(piece) for piece in cut(literal, cuts)]
    assert "".join(pieces) + canon.end() == whole


@pytest.mark.parametrize(("text", "expected"), [
    ("x\\", "x\\\\"), ("\\u00", "\\\\u00"), ("\\uD83D", "\\ud83d"),
    ("\\uD83D\\uDE0", "\\ud83d\\\\uDE0"), ("\\x41", "\\x41"), ("\\uZZ", "\\uZZ"),
])
def test_an_unfinished_escape_at_the_end_has_its_backslash_escaped(text: str,
                                                                   expected: str) -> None:
    assert canonical(text) == expected
    canon = Canonicalizer()
    assert canon.push(text) + canon.end() == expected
