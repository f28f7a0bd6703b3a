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


class _Hashable(dict):  # type: ignore[type-arg]
    """A payload that hashes, so that a chunk's own hash can be compared."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))


_NAMES = ("type", "payload", "run_id", "source", "transient")


def _built_by_attrs(chunk: Chunk) -> Chunk:
    """A chunk with ``chunk``'s fields, built as attrs' own frozen ``__init__`` builds
    one: a bare instance, each field set through ``object.__setattr__``."""
    out = object.__new__(Chunk)
    for name in _NAMES:
        object.__setattr__(out, name, getattr(chunk, name))
    return out


def _behaves_as_built_by_attrs(chunk: Chunk) -> None:
    """``chunk`` (built by class assignment, as ``Chunk(...)`` and the run build one)
    is equal to, hashes as, copies, pickles, evolves and stays frozen as one built by
    attrs."""
    import copy
    import pickle

    normal = _built_by_attrs(chunk)
    assert type(chunk) is Chunk and chunk == normal and not chunk != normal
    assert hash(chunk) == hash(normal) and repr(chunk) == repr(normal)
    assert attrs.asdict(chunk) == attrs.asdict(normal)
    for other in (copy.copy(chunk), copy.deepcopy(chunk), pickle.loads(pickle.dumps(chunk)),
                  attrs.evolve(chunk), chunk.evolve()):
        assert type(other) is Chunk and other == chunk == normal and other is not chunk
        assert [getattr(other, n) for n in _NAMES] == [getattr(normal, n) for n in _NAMES]
    assert attrs.evolve(chunk, run_id="x") == attrs.evolve(normal, run_id="x")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        chunk.run_id = "other"  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del chunk.payload  # type: ignore[misc]
    with pytest.raises(AttributeError):
        chunk.other = 1  # type: ignore[attr-defined]


def test_a_chunk_behaves_as_one_attrs_builds():
    _behaves_as_built_by_attrs(Chunk("text-delta", _Hashable(text="a"), "r", "USER", True))
    _behaves_as_built_by_attrs(Chunk("finish", _Hashable(finish_reason="stop")))
    with pytest.raises(TypeError, match="unhashable"):  # a dict payload, as attrs' would
        hash(Chunk("finish"))
    with pytest.raises(TypeError, match="type"):
        Chunk()  # type: ignore[call-arg]


def test_a_subclass_of_chunk_is_built_with_its_own_fields():
    class Tagged(Chunk):
        pass

    t = Tagged("data-x", {"data": 1}, "r")
    assert type(t) is Tagged and (t.type, t.payload, t.run_id) == ("data-x", {"data": 1}, "r")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        t.type = "other"  # type: ignore[misc]


async def test_a_models_chunk_with_the_runs_id_reaches_the_client_as_it_is(make_bare_agent):
    class Stamping:
        """A model that builds its chunks with the request's run id, as the built-in
        providers do."""

        provider, model_id = "test", "stamping"

        def __init__(self) -> None:
            self.sent: list[Chunk] = []

        async def stream(self, request):
            for c in (Chunk("text-delta", {"id": "t", "text": "a"}, request.run_id),
                      Chunk("finish", {"finish_reason": "stop"}, request.run_id)):
                self.sent.append(c)
                yield c

    model = Stamping()
    stream = make_bare_agent(model=model).stream("hi")
    sent = [c async for c in stream]
    (text,) = [c for c in sent if c.type == "text-delta"]
    assert text is model.sent[0] and text.run_id == stream.run_id
    assert await stream.text == "a"


async def test_a_models_chunk_reaches_the_client_as_a_frozen_copy_with_the_runs_id(
        make_bare_agent):
    class Prepared:
        """A model that streams the same chunk objects on every call."""

        provider, model_id = "test", "prepared"

        def __init__(self) -> None:
            self.chunks = [Chunk("text-delta", _Hashable(id="t", text="a"), source="S"),
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
    _behaves_as_built_by_attrs(text)
