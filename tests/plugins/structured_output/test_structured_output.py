"""structured-output: the final answer becomes a validated object, or the model retries."""

from __future__ import annotations

import json
import logging
import sys

import attrs
import pytest

from tripwire import Agent, Processor, ProcessorViolation, hookimpl, tool
from tripwire.errors import ConfigurationError
from tripwire.plugins import available, create
from tripwire.plugins.structured_output import NoJSONFound, StructuredOutput, extract_json
from tripwire.testing import MockModel, MockResponse
from tripwire.tools import json_schema

INVOICE_SCHEMA = {
    "type": "object",
    "properties": {
        "number": {"type": "string"},
        "total": {"type": "number", "minimum": 0},
        "lines": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["number", "total"],
    "additionalProperties": False,
}


@attrs.define
class Invoice:
    number: str
    total: float
    paid: bool = False


@attrs.define
class Order:
    item: str
    quantity: int = attrs.field(validator=attrs.validators.gt(0))


@pytest.fixture
def make_agent_with(make_bare_agent):
    """The documented set-up: one instance in both lists (input: the schema reaches the
    model; output: the answer is validated)."""

    def make(model, processor, **kwargs):
        return make_bare_agent(model=model, input_processors=[processor],
                               output_processors=[processor], **kwargs)

    return make


GOOD = '{"number": "INV-1", "total": 12.5}'


# ---------------------------------------------------------------- JSON in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("  [1, 2]\n", [1, 2]),
        ('Here you go:\n```json\n{"a": 1}\n```\nAnything else?', {"a": 1}),
        ('```\n{"a": 2}\n```', {"a": 2}),
        ('Sure! The result is {"a": 3} as requested.', {"a": 3}),
        ('I used {curly braces} first, then {"a": 4}', {"a": 4}),
        ('```js\nnot json\n```\n```json\n{"a": 5}\n```', {"a": 5}),
        ('Partial answer:\n```json\n{"a": 6}', {"a": 6}),
        ("42", 42),
    ],
)
def test_extract_json_finds_the_value_in_a_reply(text, expected):
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "the answer is empty"), ("   ", "the answer is empty"),
     ("No JSON here, sorry.", "no JSON value found"), ('{"a": ', "no JSON value found")],
)
def test_extract_json_without_a_value_says_why(text, message):
    with pytest.raises(NoJSONFound, match=message):
        extract_json(text)


# ---------------------------------------------------------------- what the model sees


async def test_the_schema_goes_to_the_model_request_and_as_a_system_instruction(make_agent_with):
    model = MockModel([GOOD])
    agent = make_agent_with(model, StructuredOutput(INVOICE_SCHEMA, schema_name="invoice"))
    await agent.generate("x")

    request = model.requests[0]
    assert request.structured_output == {"schema": INVOICE_SCHEMA, "name": "invoice"}
    system = [m["content"] for m in request.prompt if m["role"] == "system"]
    assert len(system) == 1
    assert system[0].startswith("Reply with only a JSON value")
    assert json.loads(system[0].split("\n", 1)[1]) == INVOICE_SCHEMA


async def test_instructions_false_sends_only_the_request_schema(make_agent_with):
    model = MockModel([GOOD])
    agent = make_agent_with(model, StructuredOutput(INVOICE_SCHEMA, instructions=False),
                            instructions="You extract invoices.")
    await agent.generate("x")

    request = model.requests[0]
    assert request.structured_output["schema"] == INVOICE_SCHEMA
    assert [m for m in request.prompt if m["role"] == "system"] == [
        {"role": "system", "content": "You extract invoices."}]


async def test_an_attrs_class_sends_its_derived_schema(make_agent_with):
    model = MockModel([GOOD])
    await make_agent_with(model, StructuredOutput(Invoice)).generate("x")

    schema = model.requests[0].structured_output["schema"]
    assert schema == json_schema(Invoice)
    assert schema["required"] == ["number", "total"]


async def test_in_output_processors_alone_it_validates_but_the_model_gets_no_schema(
    make_bare_agent,
):
    model = MockModel([GOOD])
    agent = make_bare_agent(model=model, output_processors=[StructuredOutput(Invoice)])
    result = await agent.generate("x")

    assert model.requests[0].structured_output is None
    assert result.object == Invoice("INV-1", 12.5)


async def test_two_configured_copies_work_like_one_instance(make_bare_agent):
    # From TOML each list builds its own instance (same id, so one state per call).
    model = MockModel(['{"number": 1}', GOOD])
    agent = make_bare_agent(model=model, input_processors=[StructuredOutput(Invoice)],
                            output_processors=[StructuredOutput(Invoice)],
                            max_processor_retries=1)
    result = await agent.generate("x")

    assert [r.structured_output["name"] for r in model.requests] == ["output", "output"]
    assert result.object == Invoice("INV-1", 12.5)


# ---------------------------------------------------------------- success


async def test_a_valid_answer_becomes_result_object(make_agent_with):
    model = MockModel([f"Here it is:\n```json\n{GOOD}\n```"])
    result = await make_agent_with(model, StructuredOutput(INVOICE_SCHEMA)).generate("x")

    assert result.object == {"number": "INV-1", "total": 12.5}
    assert result.text.startswith("Here it is:")
    assert result.tripwire is None


async def test_the_stream_carries_an_object_result_chunk_before_finish(make_agent_with):
    model = MockModel([GOOD])
    stream = make_agent_with(model, StructuredOutput(Invoice)).stream("x")
    chunks = [c async for c in stream]

    kinds = [c.type for c in chunks]
    assert kinds[-2:] == ["object-result", "finish"]
    assert chunks[-2].payload["object"] == Invoice("INV-1", 12.5)
    assert await stream.object == Invoice("INV-1", 12.5)


async def test_an_attrs_class_gives_an_instance_with_defaults(make_agent_with):
    model = MockModel(['{"number": "INV-2", "total": 3}'])
    result = await make_agent_with(model, StructuredOutput(Invoice)).generate("x")

    assert result.object == Invoice("INV-2", 3.0, paid=False)


async def test_tool_steps_are_not_validated_only_the_final_answer(make_agent_with):
    @tool
    def lookup(number: str) -> dict:
        """Look an invoice up."""
        return {"total": 12.5}

    model = MockModel([
        MockResponse(text="Let me look that up.",
                     tool_calls=[{"tool_name": "lookup", "args": {"number": "INV-1"}}]),
        GOOD,
    ])
    result = await make_agent_with(model, StructuredOutput(INVOICE_SCHEMA), tools=[lookup],
                                   max_processor_retries=2).generate("x")

    assert result.object == {"number": "INV-1", "total": 12.5}
    assert all(s.tripwire is None for s in result.steps)
    assert model.requests[0].structured_output == model.requests[1].structured_output


async def test_reasoning_does_not_disturb_parsing(make_agent_with):
    model = MockModel([MockResponse(text=GOOD, reasoning="Maybe {total: 12}? Let me think.")])
    result = await make_agent_with(model, StructuredOutput(INVOICE_SCHEMA)).generate("x")

    assert result.object == {"number": "INV-1", "total": 12.5}


# ---------------------------------------------------------------- strategy retry


async def test_an_invalid_answer_is_retried_with_the_errors_as_feedback(make_agent_with):
    model = MockModel(['{"number": "INV-1"}', GOOD])
    stream = make_agent_with(model, StructuredOutput(INVOICE_SCHEMA),
                             max_processor_retries=2).stream("x")
    chunks = [c async for c in stream]
    result = await stream.result

    feedback = model.requests[1].prompt[-1]["content"][0]["text"]
    assert feedback.startswith("<system-reminder")
    assert "$: 'total' is a required property" in feedback
    assert "Reply again with only a JSON value" in feedback
    retry = next(c for c in chunks if c.type == "step-retry")
    assert retry.payload["processor_id"] == "structured-output"
    assert result.steps[0].tripwire.processor_id == "structured-output"
    assert result.text == GOOD
    assert result.object == {"number": "INV-1", "total": 12.5}


async def test_every_error_of_an_answer_is_reported(make_agent_with):
    model = MockModel(['{"number": 7, "total": -1, "extra": true}', GOOD])
    agent = make_agent_with(model, StructuredOutput(INVOICE_SCHEMA), max_processor_retries=1)
    await agent.generate("x")

    feedback = model.requests[1].prompt[-1]["content"][0]["text"]
    assert "$.number: 7 is not of type 'string'" in feedback
    assert "$.total: -1 is less than the minimum of 0" in feedback
    assert "('extra' was unexpected)" in feedback


async def test_prose_without_json_is_retried(make_agent_with):
    model = MockModel(["The invoice total is 12.50.", GOOD])
    result = await make_agent_with(model, StructuredOutput(Invoice),
                                   max_processor_retries=1).generate("x")

    assert "no JSON value found" in model.requests[1].prompt[-1]["content"][0]["text"]
    assert result.object == Invoice("INV-1", 12.5)


async def test_an_empty_answer_is_retried(make_agent_with):
    model = MockModel(["", GOOD])
    result = await make_agent_with(model, StructuredOutput(Invoice),
                                   max_processor_retries=1).generate("x")

    assert "the answer is empty" in model.requests[1].prompt[-1]["content"][0]["text"]
    assert result.object == Invoice("INV-1", 12.5)


async def test_an_attrs_validator_failure_is_retried_with_its_message(make_agent_with):
    model = MockModel(['{"item": "pen", "quantity": 0}', '{"item": "pen", "quantity": 2}'])
    result = await make_agent_with(model, StructuredOutput(Order),
                                   max_processor_retries=1).generate("x")

    assert "quantity" in model.requests[1].prompt[-1]["content"][0]["text"]
    assert result.object == Order("pen", 2)


async def test_without_max_processor_retries_an_invalid_answer_ends_as_a_tripwire(make_agent_with):
    model = MockModel(['{"number": "INV-1"}'])
    stream = make_agent_with(model, StructuredOutput(INVOICE_SCHEMA)).stream("x")
    chunks = [c async for c in stream]
    result = await stream.result

    assert chunks[-1].type == "tripwire"
    assert "object-result" not in [c.type for c in chunks]
    assert result.tripwire.processor_id == "structured-output"
    assert result.tripwire.retry is True
    assert result.tripwire.metadata == {"errors": ["$: 'total' is a required property"]}
    assert result.finish_reason == "other"
    assert result.object is None
    assert len(model.requests) == 1


async def test_retries_used_up_end_the_run_as_a_tripwire(make_agent_with):
    violations: list[ProcessorViolation] = []
    processor = StructuredOutput(INVOICE_SCHEMA)
    processor.on_violation = violations.append
    model = MockModel(["nope", "still nope"])
    result = await make_agent_with(model, processor, max_processor_retries=1).generate("x")

    assert len(model.requests) == 2
    assert result.tripwire.processor_id == "structured-output"
    assert result.object is None
    assert len(violations) == 2


async def test_a_run_out_of_steps_with_tools_pending_is_a_tripwire_under_retry(make_agent_with):
    @tool
    def lookup(number: str) -> str:
        """Look an invoice up."""
        return "12.5"

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"number": "1"}}])])
    result = await make_agent_with(model, StructuredOutput(INVOICE_SCHEMA), tools=[lookup],
                                   max_steps=1, max_processor_retries=3).generate("x")

    assert result.tripwire.processor_id == "structured-output"
    assert "tool calls were still pending" in result.tripwire.reason
    assert result.tripwire.retry is False


# ---------------------------------------------------------------- strategies warn / fallback


async def test_warn_keeps_the_text_logs_and_calls_on_violation(make_agent_with, caplog):
    violations: list[ProcessorViolation] = []
    processor = StructuredOutput(INVOICE_SCHEMA, strategy="warn")
    processor.on_violation = violations.append
    model = MockModel(["Total: 12.50"])
    with caplog.at_level(logging.WARNING, logger="tripwire.plugins.structured_output"):
        stream = make_agent_with(model, processor, max_processor_retries=3).stream("x")
        chunks = [c async for c in stream]
    result = await stream.result

    assert result.text == "Total: 12.50"
    assert result.object is None
    assert result.tripwire is None
    assert len(model.requests) == 1
    assert "object-result" not in [c.type for c in chunks]
    assert "not valid structured output" in caplog.text
    assert violations[0].processor_id == "structured-output"
    assert violations[0].detail["strategy"] == "warn"
    assert violations[0].detail["text"] == "Total: 12.50"


async def test_warn_when_tools_were_still_pending(make_agent_with):
    @tool
    def lookup(number: str) -> str:
        """Look an invoice up."""
        return "12.5"

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"number": "1"}}])])
    result = await make_agent_with(model, StructuredOutput(INVOICE_SCHEMA, strategy="warn"),
                                   tools=[lookup], max_steps=1).generate("x")

    assert result.tripwire is None
    assert result.object is None


async def test_fallback_uses_the_configured_value(make_agent_with):
    fallback = {"number": "UNKNOWN", "total": 0}
    processor = StructuredOutput(INVOICE_SCHEMA, strategy="fallback", fallback=fallback)
    model = MockModel(["I could not find an invoice."])
    result = await make_agent_with(model, processor).generate("x")

    assert result.object == fallback
    assert result.object is not processor.fallback  # callers may mutate their copy
    assert result.text == "I could not find an invoice."


async def test_fallback_mapping_for_an_attrs_class_becomes_an_instance(make_agent_with):
    processor = StructuredOutput(Invoice, strategy="fallback",
                                 fallback={"number": "NONE", "total": 0})
    result = await make_agent_with(MockModel(["no"]), processor).generate("x")

    assert result.object == Invoice("NONE", 0.0)


async def test_fallback_is_not_used_when_the_answer_is_valid(make_agent_with):
    processor = StructuredOutput(Invoice, strategy="fallback", fallback=Invoice("NONE", 0))
    result = await make_agent_with(MockModel([GOOD]), processor).generate("x")

    assert result.object == Invoice("INV-1", 12.5)


# ---------------------------------------------------------------- tripwires from elsewhere


class CutStream(Processor):
    id = "cut-stream"

    @hookimpl
    def process_output_stream(self, part, abort):
        if part.type == "text-delta" and "12.5" in part.payload["text"]:
            abort("no totals on the wire")
        return part


async def test_a_stream_cut_by_a_tripwire_has_no_object(make_bare_agent):
    model = MockModel([GOOD])
    agent = make_bare_agent(model=model,
                            output_processors=[CutStream(), StructuredOutput(Invoice)])
    stream = agent.stream("x")
    chunks = [c async for c in stream]

    assert chunks[-1].type == "tripwire"
    assert chunks[-1].payload["processor_id"] == "cut-stream"
    assert "object-result" not in [c.type for c in chunks]
    assert await stream.object is None


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"schema": {"type": "objet"}}, r"not a valid JSON Schema at \$.type"),
        ({"schema": dict}, "is not an attrs class"),
        ({"schema": 42}, "schema must be a JSON Schema mapping"),
        ({"schema": "no_colon"}, "must be 'package.module:ClassName'"),
        ({"schema": "no_such_module_xyz:Thing"}, "cannot import module 'no_such_module_xyz'"),
        ({"schema": "tripwire.chunks:Nope"}, "has no 'Nope'"),
        ({"schema": "tripwire.chunks:FINISH_REASONS"}, "names a tuple, not a class"),
        ({"schema": INVOICE_SCHEMA, "strategy": "ignore"}, "unknown strategy 'ignore'"),
        ({"schema": INVOICE_SCHEMA, "strategy": "fallback"}, "needs a fallback value"),
        ({"schema": INVOICE_SCHEMA, "strategy": "fallback", "fallback": {"total": 1}},
         "fallback value does not match the schema: \\$: 'number' is a required property"),
        ({"schema": INVOICE_SCHEMA, "fallback": {}}, "only used with strategy 'fallback'"),
        ({"schema": INVOICE_SCHEMA, "schema_name": "my schema"}, "schema_name must be 1-64"),
        ({"schema": INVOICE_SCHEMA, "instructions": "yes"}, "instructions must be true or false"),
    ],
)
def test_bad_options_are_rejected_with_a_clear_error(options, message):
    with pytest.raises(ConfigurationError, match=message):
        StructuredOutput(**options)


def test_a_class_path_names_an_attrs_class_for_toml():
    processor = StructuredOutput(f"{__name__}:Invoice")
    assert processor.cls is Invoice
    assert processor.schema == json_schema(Invoice)


def test_without_jsonschema_installed_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(ConfigurationError, match=r"pip install 'tripwire\[structured\]'"):
        StructuredOutput(INVOICE_SCHEMA)


def test_it_is_discovered_through_the_entry_point_group(only_plugins):
    only_plugins("structured-output")
    info = available()["structured-output"]
    assert info.cls is StructuredOutput
    assert info.distribution == "tripwire"
    assert info.hooks == ("process_input_step", "process_output_step", "process_output_result")


async def test_an_agent_from_toml_gets_a_validated_object(only_plugins, tmp_path):
    only_plugins("structured-output")
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.extractor]
model = "models.scripted"
max_processor_retries = 1
input_processors = [{ use = "structured-output", schema = { type = "object", required = ["total"], properties = { total = { type = "number" } } } }]
output_processors = [{ use = "structured-output", schema = { type = "object", required = ["total"], properties = { total = { type = "number" } } } }]
default_error_processors = false

[models.scripted]
use = "mock"
responses = [{ text = "The total is 12." }, { text = '{"total": 12}' }]
''')
    agent = Agent.from_config(config, "extractor")
    result = await agent.generate("Total?")

    assert result.object == {"total": 12}
    assert agent.model.requests[0].structured_output["schema"]["required"] == ["total"]


def test_it_is_built_from_configuration_options(only_plugins):
    only_plugins("structured-output")
    processor = create("structured-output", schema=INVOICE_SCHEMA, strategy="warn")
    assert (processor.schema, processor.strategy) == (INVOICE_SCHEMA, "warn")
    with pytest.raises(ConfigurationError, match="unknown strategy"):
        create("structured-output", schema=INVOICE_SCHEMA, strategy="loud")
