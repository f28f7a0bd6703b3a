"""``Chunk``: its constructor (written by hand for speed) keeps attrs' contract."""

from __future__ import annotations

import attrs
import pytest

from tripwire import Chunk


def test_defaults_and_keywords():
    c = Chunk("text-delta")
    assert (c.type, c.payload, c.run_id, c.source, c.transient) == (
        "text-delta", {}, None, "AGENT", False)
    k = Chunk(type="data-x", payload={"data": 1}, run_id="r", source="USER", transient=True)
    assert (k.type, k.payload, k.run_id, k.source, k.transient) == (
        "data-x", {"data": 1}, "r", "USER", True)
    assert Chunk("a", {"x": 1}, "r") == Chunk(type="a", payload={"x": 1}, run_id="r")


def test_each_chunk_without_a_payload_gets_its_own_dict():
    a, b, c = Chunk("x"), Chunk("x"), Chunk("x", None)
    a.payload["k"] = 1
    assert b.payload == {} and c.payload == {}


def test_a_chunk_is_frozen_and_evolves_into_a_copy():
    c = Chunk("text-delta", {"text": "a"})
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        c.type = "other"  # type: ignore[misc]
    d = c.evolve(payload={"text": "b"}, run_id="r")
    assert (c.payload, c.run_id, d.payload, d.run_id) == ({"text": "a"}, None, {"text": "b"}, "r")
    assert [f.name for f in attrs.fields(Chunk)] == ["type", "payload", "run_id", "source",
                                                     "transient"]
    assert "payload={'text': 'a'}" in repr(c)
