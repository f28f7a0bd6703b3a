"""The exact order in which every hook fires across one run with tools and retries."""

from __future__ import annotations

from tripwire import Processor, hookimpl, tool
from tripwire.errors import APICallError
from tripwire.testing import MockModel, MockResponse


@tool
def get_weather(city: str) -> str:
    """Current weather of a city."""
    return f"sunny in {city}"


class Recorder(Processor):
    """Implements all nine hooks and records each call."""

    def __init__(self, pid: str, log: list, *, reject_first_answer: bool = False,
                 retry_api_error: bool = False):
        self.id = pid
        self.log = log
        self.reject_first_answer = reject_first_answer
        self.retry_api_error = retry_api_error

    def _rec(self, hook, *extra):
        self.log.append((self.id, hook, *extra))

    @hookimpl
    def process_input(self, messages):
        self._rec("process_input")

    @hookimpl
    def process_input_step(self, step_number, retry_count):
        self._rec("process_input_step", step_number, retry_count)

    @hookimpl
    def process_llm_request(self, step_number):
        self._rec("process_llm_request", step_number)

    @hookimpl
    def process_llm_response(self, step_number, from_cache):
        self._rec("process_llm_response", step_number)

    @hookimpl
    def process_api_error(self, error, retry_count):
        self._rec("process_api_error", retry_count)
        if self.retry_api_error:
            return {"retry": True}
        return None

    @hookimpl
    def process_output_stream(self, part):
        self._rec("process_output_stream", part.type)
        return part

    @hookimpl
    def process_output_step(self, step_number, text, abort, retry_count):
        self._rec("process_output_step", step_number, retry_count)
        if self.reject_first_answer and text == "too short" and retry_count == 0:
            abort("Answer in a full sentence.", retry=True)

    @hookimpl
    def process_tool_result(self, tool_name):
        self._rec("process_tool_result", tool_name)

    @hookimpl
    def process_output_result(self, result):
        self._rec("process_output_result")


async def test_hook_order_across_a_run_with_tools_retries_and_api_errors(make_bare_agent):
    log: list = []
    model = MockModel([
        MockResponse(tool_calls=[{"tool_name": "get_weather", "args": {"city": "Oslo"}}]),
        MockResponse(error=APICallError("overloaded", 529, True)),
        MockResponse(text="too short"),
        MockResponse(text="It is sunny in Oslo."),
    ])
    inp = Recorder("in", log)
    out = Recorder("out", log, reject_first_answer=True)
    err = Recorder("err", log, retry_api_error=True)
    agent = make_bare_agent(model=model, tools=[get_weather], input_processors=[inp],
                            output_processors=[out], error_processors=[err],
                            max_processor_retries=2)
    result = await agent.generate("Weather in Oslo?")
    assert result.text == "It is sunny in Oslo."

    def stream(*types):
        return [("out", "process_output_stream", t) for t in types]

    expected = [
        ("in", "process_input"),
        # step 0: a tool call
        ("in", "process_input_step", 0, 0),
        ("in", "process_llm_request", 0),
        *stream("step-start", "tool-call", "step-finish"),
        ("in", "process_llm_response", 0),
        ("out", "process_output_step", 0, 0),
        ("out", "process_tool_result", "get_weather"),
        *stream("tool-result"),
        # step 1: the API fails once, then answers too briefly and is retried
        ("in", "process_input_step", 1, 0),
        ("in", "process_llm_request", 1),
        *stream("step-start"),
        ("in", "process_api_error", 0),
        ("out", "process_api_error", 0),
        ("err", "process_api_error", 0),
        *stream("step-retry"),  # the failed attempt is discarded, as a rejected step is
        ("in", "process_llm_request", 1),
        *stream("step-start", "text-delta", "text-delta", "step-finish"),
        ("in", "process_llm_response", 1),
        ("out", "process_output_step", 1, 0),
        *stream("step-retry"),
        # step 1 again, with retry_count 1
        ("in", "process_input_step", 1, 1),
        ("in", "process_llm_request", 1),
        *stream("step-start", *["text-delta"] * 5, "step-finish"),
        ("in", "process_llm_response", 1),
        ("out", "process_output_step", 1, 1),
        # finish passes the stream processors first (state they write on it is visible
        # in process_output_result), and still reaches the client last
        *stream("finish"),
        ("out", "process_output_result"),
    ]
    assert log == expected
