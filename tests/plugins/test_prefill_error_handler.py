"""prefill-error-handler: one retry with a 'continue' reminder when the provider
refuses a conversation that ends with an assistant message."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from tests.support.fake_llm_server import PREFILL_ERROR_MESSAGE, ErrorReply, Reply
from tripwire import Agent, APICallError, Message, MessageList
from tripwire.plugins.prefill_error_handler import PrefillErrorHandler, is_prefill_error

REAL_BODY = (
    '{"type":"error","error":{"type":"invalid_request_error","message":'
    f'"{PREFILL_ERROR_MESSAGE}"}},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}}'
)


def prefill_error() -> APICallError:
    return APICallError(
        f"anthropic API error 400 (invalid_request_error): {PREFILL_ERROR_MESSAGE}",
        status_code=400,
        is_retryable=False,
        response_body=REAL_BODY,
        url="https://api.anthropic.com/v1/messages",
    )


def conversation() -> MessageList:
    return MessageList([Message.user("Write a haiku"), Message.assistant("Autumn moon")])


def test_prefill_error_adds_a_continue_reminder_and_asks_for_a_retry():
    messages = conversation()
    result = PrefillErrorHandler().process_api_error(
        error=prefill_error(), message_list=messages, retry_count=0
    )

    assert result == {"retry": True}
    last = messages.all.db()[-1]
    assert (last.role, last.text) == ("user", "<system-reminder>continue</system-reminder>")
    assert last.is_signal
    assert messages.source_of(last.id) == "input"


def test_second_refusal_in_a_step_is_left_alone():
    messages = conversation()
    result = PrefillErrorHandler().process_api_error(
        error=prefill_error(), message_list=messages, retry_count=1
    )
    assert result is None
    assert len(messages) == 2


def test_other_errors_are_left_alone():
    messages = conversation()
    error = APICallError("anthropic API error 400: max_tokens: must be positive", 400, False)
    assert PrefillErrorHandler().process_api_error(error=error, message_list=messages, retry_count=0) is None
    assert len(messages) == 2


def test_error_recognised_from_its_response_body_alone():
    error = APICallError("Bad Request", status_code=400, is_retryable=False, response_body=REAL_BODY)
    assert is_prefill_error(error)
    assert is_prefill_error(ValueError("Assistant response prefill is incompatible with enable_thinking."))
    assert not is_prefill_error(ValueError("prefill"))


def test_registered_as_a_builtin_processor():
    (ep,) = [e for e in entry_points(group="tripwire.processors") if e.name == "prefill-error-handler"]
    assert ep.load() is PrefillErrorHandler
    assert PrefillErrorHandler.id == "prefill-error-handler"


def history_ending_with_assistant() -> list[Message]:
    return [Message.user("Write a haiku about autumn"), Message.assistant("Crisp leaves drift and fall")]


async def test_agent_recovers_from_the_real_anthropic_refusal(llm_server):
    llm_server.script(ErrorReply(400, PREFILL_ERROR_MESSAGE), Reply(text="Moonlight on the pond"))
    async with llm_server.anthropic() as model:
        agent = Agent(id="poet", model=model)
        result = await agent.generate(history_ending_with_assistant())

    assert result.text == "Moonlight on the pond"
    first, retry = (r.body["messages"] for r in llm_server.requests)
    assert first[-1]["role"] == "assistant"
    assert retry[-1] == {
        "role": "user",
        "content": [{"type": "text", "text": "<system-reminder>continue</system-reminder>"}],
    }
    assert retry[:-1] == first


async def test_agent_gives_up_when_the_refusal_repeats(llm_server):
    llm_server.script(ErrorReply(400, PREFILL_ERROR_MESSAGE), ErrorReply(400, PREFILL_ERROR_MESSAGE))
    async with llm_server.anthropic() as model:
        agent = Agent(id="poet", model=model)
        with pytest.raises(APICallError) as info:
            await agent.generate(history_ending_with_assistant())
    assert info.value.status_code == 400
    assert len(llm_server.requests) == 2


async def test_default_error_processors_false_opts_out(llm_server):
    llm_server.script(ErrorReply(400, PREFILL_ERROR_MESSAGE))
    async with llm_server.anthropic() as model:
        agent = Agent(id="poet", model=model, default_error_processors=False)
        with pytest.raises(APICallError) as info:
            await agent.generate(history_ending_with_assistant())
    assert PREFILL_ERROR_MESSAGE in info.value.message
    assert len(llm_server.requests) == 1
