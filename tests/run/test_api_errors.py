"""A failed model call: process_api_error runs on the input, output then error
processors; the first that asks for a retry wins; otherwise the original error is raised."""

from __future__ import annotations

import pytest

from tripwire import Processor, hookimpl
from tripwire.errors import APICallError
from tripwire.testing import MockModel, MockResponse


async def test_api_error_processors_run_input_then_output_then_error_and_first_retry_wins(
    make_bare_agent,
):
    order = []

    def proc(pid, retry):
        class P(Processor):
            id = pid

            @hookimpl
            def process_api_error(self, error):
                order.append(pid)
                return {"retry": True} if retry else None

            @hookimpl
            def process_input(self):
                pass

            @hookimpl
            def process_output_result(self):
                pass

        return P()

    model = MockModel([MockResponse(error=APICallError("bad request", 400, False)), "ok"])
    agent = make_bare_agent(model=model, input_processors=[proc("in", False)],
                            output_processors=[proc("out", True)],
                            error_processors=[proc("err", True)])
    result = await agent.generate("x")
    assert order == ["in", "out"]
    assert result.text == "ok"


async def test_api_error_without_retry_raises_the_original_error(make_bare_agent):
    error = APICallError("invalid key", 401, False)
    with pytest.raises(APICallError) as info:
        await make_bare_agent([MockResponse(error=error)]).generate("x")
    assert info.value is error


async def test_api_error_retries_default_to_ten_with_error_processors(make_bare_agent):
    class AlwaysRetry(Processor):
        id = "always-retry"

        @hookimpl
        def process_api_error(self):
            return {"retry": True}

    model = MockModel([MockResponse(error=APICallError("busy", 503, True))] * 12)
    with pytest.raises(APICallError):
        await make_bare_agent(model=model, error_processors=[AlwaysRetry()]).generate("x")
    assert len(model.requests) == 11
