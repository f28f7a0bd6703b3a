"""Messages, parts, MessageList and their cattrs round trip."""

from __future__ import annotations

import json

import pytest

from tripwire import (
    Chunk,
    DataPart,
    FilePart,
    Message,
    MessageList,
    ReasoningPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
    Usage,
)
from tripwire.messages.serde import (
    chunk_from_dict,
    chunk_to_dict,
    message_from_dict,
    message_to_dict,
)


def assistant_with_tool() -> Message:
    m = Message.assistant("Let me check.")
    m.content.parts += [
        ReasoningPart("thinking"),
        ToolInvocationPart(ToolInvocation("result", "c1", "lookup", {"q": "x"}, {"hits": 2})),
        DataPart("data-score", {"v": 1}),
    ]
    return m


def test_named_constructors_and_text():
    assert Message.user("hi").role == "user"
    assert Message.system("rules").text == "rules"
    m = Message.assistant("")
    m.content.content = "legacy flattened text"
    assert m.text == "legacy flattened text"


def test_message_round_trips_through_json():
    m = assistant_with_tool()
    m.content.parts.append(FilePart("aGVsbG8=", "text/plain"))
    as_json = json.dumps(message_to_dict(m))
    back = message_from_dict(json.loads(as_json))
    assert back == m
    assert json.loads(as_json)["content"]["parts"][0] == {"type": "text", "text": "Let me check."}


def test_unknown_part_type_is_a_clear_error():
    d = message_to_dict(Message.user("x"))
    d["content"]["parts"] = [{"type": "video", "url": "u"}]
    with pytest.raises(ValueError, match="unknown message part type .video."):
        message_from_dict(d)
    with pytest.raises(ValueError, match=r"required field missing .* @ message.id"):
        message_from_dict({k: v for k, v in message_to_dict(Message.user("x")).items() if k != "id"})


def test_chunk_round_trips_with_usage():
    c = Chunk("finish", {"finish_reason": "stop", "usage": Usage(1, 2, 3)}, run_id="r")
    back = chunk_from_dict(json.loads(json.dumps(chunk_to_dict(c))))
    assert back == c


def test_chunks_are_immutable():
    c = Chunk("text-delta", {"id": "1", "text": "a"})
    with pytest.raises(AttributeError):
        c.type = "x"
    assert c.evolve(payload={"id": "1", "text": "b"}).text == "b"


def test_message_list_views_and_sources():
    ml = MessageList(["hello"], system_messages=["be kind"])
    ml.add(assistant_with_tool(), "response")
    ml.add(Message.user("earlier"), "memory")
    assert [m.text for m in ml.input] == ["hello"]
    assert [m.role for m in ml.response.db()] == ["assistant"]
    assert [m.text for m in ml.remembered] == ["earlier"]
    assert len(ml.all) == 3
    assert ml.system_messages == [{"role": "system", "content": "be kind"}]


def test_core_form_splits_tool_results_into_a_tool_message():
    ml = MessageList(["q"])
    ml.add(assistant_with_tool(), "response")
    assert ml.all.core() == [
        {"role": "user", "content": [{"type": "text", "text": "q"}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "reasoning", "text": "thinking"},
            {"type": "tool-call", "tool_call_id": "c1", "tool_name": "lookup", "input": {"q": "x"}},
        ]},
        {"role": "tool", "content": [
            {"type": "tool-result", "tool_call_id": "c1", "tool_name": "lookup", "output": {"hits": 2}},
        ]},
    ]


def test_ui_form_keeps_parts():
    ml = MessageList([])
    ml.add(assistant_with_tool(), "response")
    ui = ml.all.ui()[0]
    assert ui["role"] == "assistant"
    assert [p["type"] for p in ui["parts"]] == ["text", "reasoning", "tool-invocation", "data-score"]


def test_add_same_id_replaces_in_place():
    m = Message.user("v1")
    ml = MessageList([m, "after"])
    m2 = message_from_dict(message_to_dict(m))
    m2.content.parts = [TextPart("v2")]
    ml.add(m2)
    assert [x.text for x in ml.all] == ["v2", "after"]


def test_remove_by_ids_and_update_tool_invocation():
    ml = MessageList(["a", "b"])
    ml.add(assistant_with_tool(), "response")
    first = ml.all[0]
    assert ml.remove_by_ids([first.id]) == [first]
    ml.update_tool_invocation(ToolInvocationPart(ToolInvocation("result", "c1", "lookup", {}, "redacted")))
    assert ml.find_tool_invocation("c1").result == "redacted"
    with pytest.raises(KeyError, match="no message holds a tool invocation with tool_call_id 'zz'"):
        ml.update_tool_invocation({"tool_invocation": {"state": "result", "tool_call_id": "zz",
                                                       "tool_name": "t"}})


def test_store_tool_result_replaces_only_the_result_of_that_call():
    """What an output processor uses for a tool-error chunk it changed: the stored call
    keeps its name, arguments and error flag, and gets the new result."""
    ml = MessageList(["a"])
    ml.add(assistant_with_tool(), "response")
    before = ml.find_tool_invocation("c1")
    assert ml.store_tool_result("c1", "[REDACTED]") is True
    after = ml.find_tool_invocation("c1")
    assert after.result == "[REDACTED]"
    assert (after.tool_name, after.args, after.is_error, after.state) == (
        before.tool_name, before.args, before.is_error, before.state)
    assert ml.store_tool_result("zz", "x") is False  # no message holds that call


def test_bad_source_and_bad_message_are_clear_errors():
    ml = MessageList()
    with pytest.raises(ValueError, match="unknown message source 'output'; valid: input, response, memory"):
        ml.add("x", "output")
    with pytest.raises(TypeError, match="expected a Message, a str or a dict"):
        ml.add([42])
    with pytest.raises(ValueError, match="role must be one of"):
        ml.add({"role": "robot", "content": "x"})


def test_system_role_messages_go_to_system_messages():
    ml = MessageList([{"role": "system", "content": "rule"}, {"role": "user", "content": "q"}])
    assert ml.system_messages == [{"role": "system", "content": "rule"}]
    assert [m.text for m in ml.all] == ["q"]


def test_usage_adds_and_coerces():
    assert Usage(1, 2, 3) + Usage(1, 1, 2) == Usage(2, 3, 5)
    assert Usage.coerce({"input_tokens": 2, "output_tokens": 3}).total_tokens == 5
    with pytest.raises(ValueError, match="unknown usage keys"):
        Usage.coerce({"prompt_tokens": 1})


def test_ids_are_unique_and_a_reseeded_generator_gives_new_ones():
    from tripwire.messages import _ids, new_id

    ids = {new_id() for _ in range(10_000)}
    assert len(ids) == 10_000
    before = new_id()
    _ids.reseed()  # what a forked child does (os.register_at_fork)
    after = new_id()
    assert after[:16] != before[:16] and after not in ids


def test_remembered_messages_go_before_this_calls_messages_oldest_first():
    from datetime import timedelta

    ml = MessageList(["now"])
    ml.add(Message.assistant("reply"), "response")
    old, older = Message.user("old"), Message.user("older")
    older.created_at = old.created_at - timedelta(minutes=5)
    ml.add(old, "memory")
    ml.add(older, "memory")
    assert [m.text for m in ml.all] == ["older", "old", "now", "reply"]
    assert [m.text for m in ml.remembered] == ["older", "old"]


def test_replacing_system_messages_keeps_the_tagged_ones():
    ml = MessageList(["q"], system_messages=["be kind"])
    ml.add_system({"role": "system", "content": "remembered", "tag": "memory"})
    ml.system_messages = ["be brief"]
    assert ml.system_messages == [{"role": "system", "content": "be brief"},
                                  {"role": "system", "content": "remembered", "tag": "memory"}]
    ml.system_messages = list(ml.system_messages)  # handing them all back adds nothing
    assert len(ml.system_messages) == 2
