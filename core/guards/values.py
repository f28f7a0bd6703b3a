"""Every string of a nested value, at any depth, for guards to check and mask.

Every string of a nested value, at any depth: the walk the guards use to check (and
mask) tool arguments and results, ``data-*`` payloads and the structured object
(``result.object``, the ``object-result`` chunk), and that a processor of your own can
use the same way.

``map_strings(value, change)`` is ``value`` with ``change`` applied to every string in it;
``strings(value)`` lists those strings, in the same order. They go into:

- dicts (any ``dict`` subclass keeps its type), keys and values: a mapping's keys are
  data the model or a tool wrote (``{"hunter2": 1}`` is valid JSON for ``{"type":
  "object"}``); two keys changed to the same one keep the later value;
- lists, tuples (a named tuple keeps its type), sets and frozensets;
- attrs instances (``structured-output`` with an attrs class) and dataclass instances,
  field by field; a field's name is the class's schema, not data, and is not visited;
- bytes and bytearrays that decode as UTF-8 (a tool that returns ``b"..."``: the model
  gets that text), as their text; a changed text is encoded back into the same type.

The result has the types of ``value``: a changed instance is a new instance of its class
(``attrs.evolve`` / ``dataclasses.replace``: frozen and slotted classes work, the
class's converters, validators and ``__attrs_post_init__``/``__post_init__`` run on the
changed values; a field with ``init=False`` is set on the new instance), and the
instance, list or dict passed in is never changed. Where no string changed, the same
object comes back (``map_strings(v, f) is v``), so a caller tells "changed" by identity.
Anything else (numbers, ``None``, bytes that are not UTF-8, objects of other classes)
is left as it is.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

__all__ = ["map_strings", "strings"]

T = TypeVar("T")


def map_strings(value: T, change: Callable[[str], str], *, ints: bool = False) -> T:
    """``value`` with ``change`` applied to every string in it, at any depth (see the
    module's docstring for what is walked); ``value`` itself when nothing changed.

    With ``ints`` an integer (not a bool) is passed to ``change`` as its digits too (a
    card number written as a number) and becomes the changed string when ``change``
    changed it (the field then holds a ``str``). Strings are visited in a fixed order
    (a dict's key before its value, fields in definition order), the one ``strings``
    lists them in."""
    return _Walk(change, ints).value(value)  # type: ignore[no-any-return]


def strings(value: Any) -> list[str]:
    """Every string ``map_strings`` visits in ``value``, in its order."""
    found: list[str] = []

    def keep(text: str) -> str:
        found.append(text)
        return text

    map_strings(value, keep)
    return found


class _Walk:
    __slots__ = ("change", "ints")

    def __init__(self, change: Callable[[str], str], ints: bool) -> None:
        self.change = change
        self.ints = ints

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            new = self.change(value)
            return value if new == value and type(new) is type(value) else new
        if self.ints and isinstance(value, int) and not isinstance(value, bool):
            digits = str(value)
            new = self.change(digits)
            return value if new == digits else new
        if isinstance(value, bytes | bytearray):
            return self.octets(value)
        if isinstance(value, Mapping):
            return self.mapping(value)
        if isinstance(value, list | tuple | set | frozenset):
            return self.collection(value)
        if attrs.has(type(value)):
            return self.instance(value, attrs.fields(type(value)), attrs.evolve)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self.instance(value, dataclasses.fields(value), dataclasses.replace)
        return value

    def octets(self, value: bytes | bytearray) -> Any:
        """Bytes that are UTF-8 text (a tool's ``b"found ..."``): the text is walked as a
        string, and a changed one is encoded back into the same type. Other bytes (an
        image, a zip) are not text and are left as they are."""
        try:
            text = bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return value
        new = self.change(text)
        if new == text and type(new) is str:
            return value
        return type(value)(new.encode("utf-8")) if isinstance(new, str) else new

    def mapping(self, value: Mapping[Any, Any]) -> Any:
        items = [(self.value(k), self.value(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(),
                                                                strict=True)):
            return value
        if type(value) is dict or not isinstance(value, dict):
            return dict(items)
        new = copy.copy(value)  # a subclass (OrderedDict, defaultdict...) keeps its type
        new.clear()
        new.update(items)
        return new

    def collection(self, value: Any) -> Any:
        items = [self.value(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
            return type(value)(*items)
        return type(value)(items)

    def instance(self, value: Any, fields: Any, rebuild: Callable[..., Any]) -> Any:
        """An attrs or dataclass instance: its fields walked in order; a new instance
        with the changed ones (``rebuild``: ``attrs.evolve``, ``dataclasses.replace``)."""
        init: dict[str, Any] = {}
        late: dict[str, Any] = {}
        for field in fields:
            old = getattr(value, field.name)
            new = self.value(old)
            if new is not old:
                if field.init:
                    init[getattr(field, "alias", None) or field.name] = new
                else:
                    late[field.name] = new
        if not init and not late:
            return value
        cls = type(value).__qualname__
        try:
            out = rebuild(value, **init) if init else copy.copy(value)
        except Exception as e:
            raise ValueError(
                f"could not rebuild {cls} with the changed value of field(s) "
                f"{sorted(init)}: {type(e).__name__}: {e} (its converters, validators or "
                f"post-init ran on the changed strings)") from e
        for name, new in late.items():
            # init=False: no constructor argument sets it; the instance is ours (new).
            object.__setattr__(out, name, new)
        return out
