"""``valid_value`` and ``ValidUnicode.other``: a lone surrogate anywhere in a chunk's
payload (a value, a key, deep in the response's headers or the provider's metadata)
becomes U+FFFD, and a payload that holds none is passed on as the same object, whatever
else it holds (objects JSON cannot encode, tuples, keys that are not strings)."""

from __future__ import annotations

import json

import pytest

from tripwire.chunks import Chunk, Usage
from tripwire.models.wire import ValidUnicode, may_hold_surrogate, valid_value


def finish(headers: dict[str, str], metadata: dict[str, object]) -> Chunk:
    return Chunk("finish", {
        "finish_reason": "stop", "usage": Usage(), "provider_metadata": metadata,
        "warnings": [], "request": {"messages": [{"content": "\ud800 as sent"}]},
        "raw_response": {"id": "r", "model": "m", "status": 200, "headers": headers}}, "run")


def test_a_payload_without_surrogates_is_the_same_object() -> None:
    chunk = finish({"server": "x", "date": "now"}, {"openai": {"fingerprint": "fp", "n": (1, "é")}})
    assert ValidUnicode().other(chunk) is chunk
    value = {1: ["a", {"b": ("c",)}], None: Usage(), "é😀": [1.5, True, None]}
    assert valid_value(value) is value
    assert not may_hold_surrogate(value)


@pytest.mark.parametrize("where", ["header", "header name", "metadata key", "metadata list"])
def test_a_lone_surrogate_anywhere_becomes_the_replacement_character(where: str) -> None:
    headers = {"server": "x"}
    metadata: dict[str, object] = {"openai": {"fingerprint": "fp", "list": ["a"]}}
    if where == "header":
        headers["x-note"] = "a\udc80b"  # (aiohttp decodes bytes that are no UTF-8 so)
    elif where == "header name":
        headers["x-\udc80"] = "v"
    elif where == "metadata key":
        metadata["openai"] = {"\ud800k": 1}
    else:
        metadata["openai"] = {"list": [{"deep": ["\udfff"]}]}
    chunk = finish(headers, metadata)
    fixed = ValidUnicode().other(chunk)
    assert fixed is not chunk
    shown = {k: v for k, v in fixed.payload.items() if k not in ("request", "usage")}
    json.dumps(shown, ensure_ascii=False).encode("utf-8")  # no surrogate is left
    assert "\ufffd" in json.dumps(shown, ensure_ascii=False)
    # what tripwire sent is recorded as it was sent
    assert fixed.payload["request"] is chunk.payload["request"]


def test_a_value_json_cannot_encode_is_walked() -> None:
    value = {("a", "tuple", "key"): "\ud800", "ok": "x"}  # (a key JSON cannot write)
    assert may_hold_surrogate(value)
    assert valid_value(value) == {("a", "tuple", "key"): "\ufffd", "ok": "x"}
    assert not may_hold_surrogate({"k": {1, 2}, "o": object()})  # (read as null)
    assert valid_value({"k": ["\ud800", {"\udc00"}]}) == {"k": ["\ufffd", {"\udc00"}]}
