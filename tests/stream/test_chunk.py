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


def test_a_chunk_copies_and_pickles_with_every_field():
    import copy
    import pickle

    c = Chunk("text-delta", {"text": "a"}, "r", "USER", True)
    for other in (copy.copy(c), copy.deepcopy(c), pickle.loads(pickle.dumps(c)),
                  attrs.evolve(c)):
        assert type(other) is Chunk and other == c and other is not c
    with pytest.raises(TypeError, match="type"):
        Chunk()  # type: ignore[call-arg]


def test_a_subclass_of_chunk_is_built_with_its_own_fields():
    class Tagged(Chunk):
        pass

    t = Tagged("data-x", {"data": 1}, "r")
    assert type(t) is Tagged and (t.type, t.payload, t.run_id) == ("data-x", {"data": 1}, "r")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        t.type = "other"  # type: ignore[misc]


async def test_a_models_chunk_reaches_the_client_as_a_frozen_copy_with_the_runs_id(
        make_bare_agent):
    class Prepared:
        """A model that streams the same chunk objects on every call."""

        provider, model_id = "test", "prepared"

        def __init__(self) -> None:
            self.chunks = [Chunk("text-delta", {"id": "t", "text": "a"}, source="S"),
                           Chunk("finish", {"finish_reason": "stop"})]

        async def stream(self, request):
            for c in self.chunks:
                yield c

    model = Prepared()
    stream = make_bare_agent(model=model).stream("hi")
    sent = [c async for c in stream]
    (text,) = [c for c in sent if c.type == "text-delta"]
    assert type(text) is Chunk and text is not model.chunks[0]
    assert (text.payload, text.run_id, text.source) == ({"id": "t", "text": "a"},
                                                        stream.run_id, "S")
    assert model.chunks[0].run_id is None
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        text.run_id = "other"  # type: ignore[misc]
