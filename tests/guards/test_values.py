"""``tripwire.guards.values``: the walk over every string of a nested value that the guards
use for tool values, data chunks and the structured object (attrs and dataclass
instances included), rebuilt with the same types and never changed in place."""

from __future__ import annotations

import collections
import dataclasses
from typing import Any, NamedTuple

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tripwire.guards.values import map_strings, strings

SECRET = "hunter2"


def hide(text: str) -> str:
    return text.replace(SECRET, "*" * len(SECRET))


@attrs.frozen
class Frozen:
    value: str
    _private: str = "p"
    derived: str = attrs.field(init=False, default="kept")


@attrs.define
class Mutable:
    items: list[Any]
    mapping: dict[str, Any] = attrs.Factory(dict)


@attrs.define(slots=False)
class Dicted:
    value: Any


@dataclasses.dataclass(frozen=True)
class FrozenDC:
    value: str
    late: str = dataclasses.field(init=False, default=SECRET)


@dataclasses.dataclass
class DC:
    value: Any


class Pair(NamedTuple):
    left: str
    right: str


def test_attrs_instances_at_any_depth_are_rebuilt_with_their_classes() -> None:
    original = Mutable([Frozen(SECRET, private=f"a {SECRET}"), (SECRET, 1)],
                       {SECRET: Dicted(DC([SECRET]))})
    masked = map_strings(original, hide)
    assert SECRET not in repr(masked)
    assert type(masked) is Mutable and type(masked.items[0]) is Frozen
    assert masked.items[0].value == "*******" and masked.items[0]._private == "a *******"
    assert masked.items[1] == ("*******", 1)
    assert type(masked.mapping["*******"]) is Dicted
    assert type(masked.mapping["*******"].value) is DC
    # The value passed in is untouched (a frozen instance could not be, a mutable one
    # is the caller's).
    assert original.items[0].value == SECRET and SECRET in original.mapping


def test_a_field_with_init_false_is_set_on_the_new_instance() -> None:
    frozen = FrozenDC("ok")
    assert frozen.late == SECRET
    masked = map_strings(frozen, hide)
    assert masked is not frozen and masked.late == "*******" and frozen.late == SECRET
    attrs_one = Frozen("x")
    object.__setattr__(attrs_one, "derived", SECRET)
    assert map_strings(attrs_one, hide).derived == "*******"


def test_containers_keep_their_types() -> None:
    value = {"pair": Pair(SECRET, "b"), "set": {SECRET, "b"}, "fset": frozenset({SECRET}),
             "od": collections.OrderedDict([(SECRET, 1)]),
             "dd": collections.defaultdict(list, {"k": [SECRET]})}
    masked = map_strings(value, hide)
    assert masked["pair"] == Pair("*******", "b") and type(masked["pair"]) is Pair
    assert masked["set"] == {"*******", "b"} and masked["fset"] == frozenset({"*******"})
    assert type(masked["od"]) is collections.OrderedDict and list(masked["od"]) == ["*******"]
    assert type(masked["dd"]) is collections.defaultdict and masked["dd"]["k"] == ["*******"]
    assert masked["dd"].default_factory is list


def test_unchanged_values_come_back_as_the_same_object() -> None:
    value = Mutable([Frozen("a"), DC("b"), {"c": ("d",)}])
    assert map_strings(value, hide) is value
    assert strings(value) == ["a", "p", "kept", "b", "c", "d"]


def test_field_names_are_not_visited_but_dict_keys_are() -> None:
    assert strings(DC({"key": 1})) == ["key"]
    assert strings(Frozen("v")) == ["v", "p", "kept"]


def test_ints_are_checked_as_digits_when_asked() -> None:
    def no_digits(text: str) -> str:
        return "[N]" if text.isdigit() else text

    value = DC([4111111111111111, True, 2.5])
    assert map_strings(value, no_digits) is value
    assert map_strings(value, no_digits, ints=True).value == ["[N]", True, 2.5]


def test_an_instance_its_validators_reject_is_a_clear_error() -> None:
    @attrs.frozen
    class Code:
        code: str = attrs.field(validator=attrs.validators.matches_re(r"[a-z0-9]+"))

    with pytest.raises(ValueError, match=r"could not rebuild .*Code .*\['code'\]"):
        map_strings(Code(SECRET), hide)


def test_utf8_bytes_are_walked_as_their_text_and_keep_their_type() -> None:
    """A tool that returns ``b"..."``: the model gets the text, so the guards see it."""
    value = {"raw": f"id {SECRET}".encode(), "buf": bytearray(SECRET.encode()), "ok": b"fine"}
    masked = map_strings(value, hide)
    assert masked["raw"] == b"id *******" and masked["buf"] == bytearray(b"*******")
    assert type(masked["buf"]) is bytearray and masked["ok"] is value["ok"]
    assert strings(value) == ["raw", f"id {SECRET}", "buf", SECRET, "ok", "fine"]
    binary = b"\xff\xfe" + SECRET.encode("utf-16-le")  # not UTF-8: not text, left as it is
    assert map_strings(binary, hide) is binary and strings(binary) == []


# ------------------------------------------------------------------ property


@attrs.frozen
class HFrozen:
    a: Any
    b: Any = None


@attrs.define
class HMutable:
    a: Any


@dataclasses.dataclass(frozen=True)
class HFrozenDC:
    a: Any


texts = st.sampled_from(["", "x", SECRET, f"a {SECRET} b", "hunter", "2"])
leaves = (texts | texts.map(str.encode) | texts.map(lambda t: bytearray(t.encode()))
          | st.integers() | st.none() | st.booleans())


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return (st.lists(children, max_size=3) | st.tuples(children, children)
            | st.dictionaries(texts, children, max_size=3)
            | st.builds(HFrozen, children, children) | st.builds(HMutable, children)
            | st.builds(HFrozenDC, children) | st.builds(DC, children)
            | st.frozensets(texts, max_size=3))


def _shape(value: Any) -> Any:
    """The types of ``value``, at any depth (what a walk must keep)."""
    if isinstance(value, dict):
        return (type(value), [_shape(v) for v in value.values()])
    if isinstance(value, list | tuple):
        return (type(value), [_shape(v) for v in value])
    if attrs.has(type(value)) or dataclasses.is_dataclass(value):
        fields = (attrs.fields(type(value)) if attrs.has(type(value))
                  else dataclasses.fields(value))
        return (type(value), [_shape(getattr(value, f.name)) for f in fields])
    return type(value)


@given(st.recursive(leaves, _containers, max_leaves=20))
def test_no_string_anywhere_keeps_the_secret(value: Any) -> None:
    before = repr(value)
    masked = map_strings(value, hide)
    assert SECRET not in repr(masked)
    assert repr(value) == before  # nothing changed in place
    assert _shape(masked) == _shape(value)
    assert (masked is value) == all(SECRET not in s for s in strings(value))
    # (a set's order is its own)
    assert sorted(strings(masked)) == sorted(hide(s) for s in strings(value))
