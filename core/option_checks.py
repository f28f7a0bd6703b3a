"""Checking options against their annotations: one checker for every option.

A processor's constructor options, an agent's and a provider's arguments, the keys of
a configuration file and a tool's arguments are all checked here, against a type hint:

    from typing import Annotated, Literal
    from tripwire.option_checks import Range, check

    Mode = Literal["abort", "warn"]

    class Budget(Processor):
        id = "budget"

        def __init__(self, max_tokens: Annotated[int, Range(min=1)], mode: Mode = "abort"):
            check("max_tokens", max_tokens, Annotated[int, Range(min=1)], owner=self.id)
            check("mode", mode, Mode, owner=self.id)

A bad value is a ``ConfigurationError`` naming the owner, the option, what is valid
and what was given: ``budget: max_tokens must be an integer >= 1, got 0``.

The hints understood: ``bool``, ``int``, ``float`` (an ``int`` is accepted and
converted), ``str``, ``None``, ``Literal[...]``, unions (``X | None``), ``list[X]`` /
``tuple[X, ...]`` / ``set[X]`` (from a list), ``dict[K, V]`` / ``Mapping[K, V]``, attrs
classes (an instance, or a table of their fields), enums, and
``Annotated[X, Range(min=..., max=...)]`` for bounds. Checks are strict: ``"3"`` is not
an ``int``, ``True`` is not an ``int``, ``"abc"`` is not a ``list[str]``. A hint the
checker has no rule for (a callable, a protocol, a plain class) lets the value through.
Structuring is done by a strict copy of tripwire's private cattrs converter.
"""

from __future__ import annotations

import enum
import functools
import inspect
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, Literal, ParamSpec

import attrs
import cattrs
from cattrs.cols import (
    homogenous_tuple_structure_factory,
    is_any_set,
    is_mapping,
    is_sequence,
    list_structure_factory,
    mapping_structure_factory,
)
from cattrs.errors import StructureHandlerNotFoundError
from cattrs.gen import make_dict_structure_fn
from cattrs.v import format_exception

from tripwire.errors import ConfigurationError, OptionError
from tripwire.messages.serde import converter as _base_converter

_P = ParamSpec("_P")

__all__ = [
    "Mismatch",
    "NonNegativeInt",
    "OptionInfo",
    "PositiveInt",
    "Range",
    "check",
    "check_bool",
    "check_choice",
    "check_int",
    "check_options",
    "conform",
    "constructor_hints",
    "describe",
    "did_you_mean",
    "options_of",
    "type_text",
    "unknown_name",
]


@attrs.frozen
class Range:
    """Inclusive bounds for a number, as ``Annotated`` metadata:
    ``Annotated[int, Range(min=1)]``, ``Annotated[float, Range(min=0, max=2)]``."""

    min: float | None = None
    max: float | None = None

    def __attrs_post_init__(self) -> None:
        if self.min is None and self.max is None:
            raise TypeError("Range needs min, max or both")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise TypeError(f"Range min {self.min} is greater than max {self.max}")

    def __contains__(self, value: Any) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def __str__(self) -> str:
        if self.min is not None and self.max is not None:
            return f"between {self.min} and {self.max}"
        return f">= {self.min}" if self.min is not None else f"<= {self.max}"


#: An integer >= 1 (a count, a size, a limit).
PositiveInt = Annotated[int, Range(min=1)]
#: An integer >= 0.
NonNegativeInt = Annotated[int, Range(min=0)]


class Mismatch(ValueError):
    """``conform()``'s error: ``value`` does not fit ``hint``. ``detail`` says where and
    why (``expected str @ value[1]`` for a nested value)."""

    def __init__(self, value: Any, hint: Any, detail: str, *, nested: bool = False) -> None:
        super().__init__(detail)
        self.value = value
        self.hint = hint
        self.detail = detail
        #: True when the problem is inside the value (an item, a field), not the value itself.
        self.nested = nested


# ------------------------------------------------------------------ checking


def check(
    name: str, value: Any, hint: Any, *, owner: str | None = None, noun: str | None = None
) -> Any:
    """``value`` checked against ``hint`` and returned (converted where the hint says:
    an ``int`` for a ``float`` becomes a float, a list for a ``tuple[...]`` a tuple, a
    table for an attrs class an instance).

    A mismatch raises ``ConfigurationError``: ``"{owner}: {name} must be {what is
    valid}, got {value!r}"``. With ``noun`` (``"option"``, ``"key"``), the message quotes
    the name and its declared type, as ``tripwire.plugins.create()`` and configuration
    files report a bad option: ``"{owner}: option 'limit' expects int, got '3': ..."``.
    """
    try:
        return conform(value, hint)
    except Mismatch as e:
        raise ConfigurationError(_message(name, e, owner=owner, noun=noun)) from e


def conform(value: Any, hint: Any) -> Any:
    """The checking behind ``check()``, for callers that word their own error: returns
    the (converted) value or raises ``Mismatch``."""
    if hint is Any or hint is inspect.Parameter.empty or hint is object:
        return value
    if typing.get_origin(hint) is Literal:
        if any(value == c and type(value) is type(c) for c in typing.get_args(hint)):
            return value
        raise Mismatch(value, hint, f"expected {describe(hint)}")
    if isinstance(hint, type) and hint not in _SCALARS and isinstance(value, hint):
        return value
    try:
        return _converter.structure(value, hint)
    except StructureHandlerNotFoundError:
        return value  # a type cattrs cannot check (a callable, a protocol): passed as is
    except Exception as e:
        nested = isinstance(e, cattrs.BaseValidationError)
        detail = "; ".join(_where(e)) if nested else str(e)
        raise Mismatch(value, hint, detail, nested=nested) from e


def _where(e: Exception) -> list[str]:
    """Each problem inside a value, with its path: ``expected str @ value[1]``."""

    def what(exc: BaseException, type_: Any) -> str:
        if isinstance(exc, ValueError | TypeError) and type_ is not None:
            return f"invalid value for type, expected {_text(type_)}"
        return format_exception(exc, type_)

    return cattrs.transform_error(e, path="value", format_exception=what)


def _message(name: str, e: Mismatch, *, owner: str | None, noun: str | None) -> str:
    prefix = f"{owner}: " if owner else ""
    hint = e.hint
    if noun is None:
        valid = describe(hint)
        sep = ";" if "," in valid else ","
        extra = f" ({e.detail})" if e.nested else ""
        return f"{prefix}{name} must be {valid}{sep} got {e.value!r}{extra}"
    if typing.get_origin(hint) is Literal:
        choices = ", ".join(repr(c) for c in typing.get_args(hint))
        return f"{prefix}{noun} {name!r} must be one of {choices}, got {e.value!r}"
    return f"{prefix}{noun} {name!r} expects {type_text(hint)}, got {e.value!r}: {e.detail}"


def check_int(
    name: str, value: Any, *, minimum: int = 0, allow_none: bool = False, owner: str | None = None
) -> None:
    """Shorthand for ``check(name, value, Annotated[int, Range(min=minimum)])``
    (``| None`` with ``allow_none``)."""
    hint: Any = Annotated[int, Range(min=minimum)]
    check(name, value, hint | None if allow_none else hint, owner=owner)


def check_bool(name: str, value: Any, *, owner: str | None = None) -> None:
    """Shorthand for ``check(name, value, bool)``."""
    check(name, value, bool, owner=owner)


def check_choice(name: str, value: Any, valid: Iterable[Any], *, owner: str | None = None) -> None:
    """Shorthand for ``check(name, value, Literal[*valid])``; where the choices are a
    ``Literal`` type already, pass that to ``check``."""
    check(name, value, Literal[tuple(valid)], owner=owner)


# ------------------------------------------------------------------ wording


_SCALARS: dict[Any, str] = {
    bool: "true or false",
    int: "an integer",
    float: "a number",
    str: "a string",
    bytes: "bytes",
}
_PLURALS: dict[Any, str] = {
    bool: "true/false values",
    int: "integers",
    float: "numbers",
    str: "strings",
    Any: "values",
}
_UNIONS = (typing.Union, types.UnionType)


def describe(hint: Any) -> str:
    """What ``hint`` accepts, in words: ``an integer >= 1 or None``, ``one of a, b``."""
    if hint is Any or hint is inspect.Parameter.empty or hint is object:
        return "any value"
    if hint is None or hint is type(None):
        return "None"
    if hint in _SCALARS:
        return _SCALARS[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Annotated:
        ranges = [str(m) for m in hint.__metadata__ if isinstance(m, Range)]
        return " ".join([describe(args[0]), *ranges])
    if origin is Literal:
        return "one of " + ", ".join(str(c) for c in args)
    if origin in _UNIONS:
        ordered = sorted(args, key=lambda a: a is type(None))
        return " or ".join(describe(a) for a in ordered)
    if origin is tuple and args and args[-1] is not Ellipsis:
        return f"a list of {len(args)} items ({type_text(hint)})"
    if _is_sequence(origin or hint):
        return f"a list of {_plural(args[0])}" if args else "a list"
    if _is_mapping(origin or hint):
        if len(args) == 2:
            return f"a table (mapping) of {_text(args[0])} to {_text(args[1])}"
        return "a table (mapping)"
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "one of " + ", ".join(str(m.value) for m in hint)
    if attrs.has(hint):
        return f"{_a(hint.__name__)} (or a table of its fields)"
    return _a(type_text(hint))


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _plural(hint: Any) -> str:
    return _PLURALS.get(hint) or f"{_text(hint)} values"


def _is_sequence(t: Any) -> bool:
    return isinstance(t, type) and t not in (str, bytes) and (
        issubclass(t, (list, tuple, set, frozenset))
        or t.__module__ == "collections.abc" and t.__name__ in ("Sequence", "Iterable", "Set")
    )


def _is_mapping(t: Any) -> bool:
    return isinstance(t, type) and (issubclass(t, dict) or t is Mapping)


def type_text(hint: Any) -> str:
    """``hint`` as people write it: ``int``, ``list[str]``, ``int >= 1 | None``,
    ``Literal['a', 'b']`` (``any`` for a missing annotation)."""
    if hint is inspect.Parameter.empty or hint is Any:
        return "any"
    return _text(hint)


def _text(hint: Any) -> str:
    if hint is Any:
        return "Any"
    if hint is None or hint is type(None):
        return "None"
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is None:
        if isinstance(hint, type):
            return hint.__name__
        return _plain(hint)
    if origin is Annotated:
        ranges = [str(m) for m in hint.__metadata__ if isinstance(m, Range)]
        return " ".join([_text(args[0]), *ranges])
    if origin is Literal:
        return f"Literal[{', '.join(repr(a) for a in args)}]"
    if origin in _UNIONS:
        return " | ".join(_text(a) for a in args)
    if not isinstance(origin, type) or any(isinstance(a, list) for a in args):
        return _plain(hint)  # Callable[[...], ...] and other special forms
    inner = ", ".join("..." if a is Ellipsis else _text(a) for a in args)
    return f"{origin.__name__}[{inner}]"


def _plain(hint: Any) -> str:
    return str(hint).replace("typing.", "").replace("collections.abc.", "")


# ------------------------------------------------------------------ the converter


def _strict_converter() -> cattrs.Converter:
    """A copy of tripwire's converter that checks instead of coercing.

    cattrs converts by default (``int("3")``, ``str(3)``, a string iterated into a
    list of characters); options must have the right type.
    """
    conv = _base_converter.copy()

    def exact(kind: type | tuple[type, ...], label: str) -> Callable[[Any, Any], Any]:
        kinds = kind if isinstance(kind, tuple) else (kind,)

        def hook(value: Any, _: Any) -> Any:
            if isinstance(value, bool) and bool not in kinds:
                raise TypeError(f"expected {label}, got {value!r}")
            if not isinstance(value, kinds):
                raise TypeError(f"expected {label}, got {value!r} ({type(value).__name__})")
            return value

        return hook

    conv.register_structure_hook(int, exact(int, "an integer"))
    conv.register_structure_hook(str, exact(str, "a string"))
    conv.register_structure_hook(bool, exact(bool, "true or false"))
    float_hook = exact((int, float), "a number")
    conv.register_structure_hook(float, lambda v, t: float(float_hook(v, t)))

    def guarded(make: Callable[[Any, Any], Any], kinds: tuple[type, ...], label: str) -> Any:
        def factory(type_: Any, c: Any) -> Callable[[Any, Any], Any]:
            inner = make(type_, c)

            def hook(value: Any, t: Any) -> Any:
                if not isinstance(value, kinds):
                    raise TypeError(
                        f"expected {label}, got {value!r} ({type(value).__name__})"
                    )
                return inner(value, t)

            return hook

        return factory

    def tuple_factory(type_: Any, c: Any) -> Callable[[Any, Any], Any]:
        args = typing.get_args(type_)
        if len(args) == 2 and args[1] is Ellipsis or not args:
            return homogenous_tuple_structure_factory(type_, c)

        def hook(value: Any, _: Any) -> tuple[Any, ...]:
            if len(value) != len(args):
                raise TypeError(f"expected {len(args)} items, got {len(value)}")
            return tuple(c.structure(v, a) for v, a in zip(value, args, strict=True))

        return hook

    def set_factory(type_: Any, c: Any) -> Callable[[Any, Any], Any]:
        args = typing.get_args(type_)
        item = args[0] if args else Any
        origin = typing.get_origin(type_) or type_
        build = frozenset if origin is frozenset else set
        return lambda value, _: build(c.structure(v, item) for v in value)

    def is_tuple(t: Any) -> bool:
        return (typing.get_origin(t) or t) is tuple

    def has_range(t: Any) -> bool:
        return typing.get_origin(t) is Annotated and any(
            isinstance(m, Range) for m in t.__metadata__
        )

    def range_factory(type_: Any, c: Any) -> Callable[[Any, Any], Any]:
        base = typing.get_args(type_)[0]
        ranges = [m for m in type_.__metadata__ if isinstance(m, Range)]

        def hook(value: Any, _: Any) -> Any:
            value = c.structure(value, base)
            if not all(value in r for r in ranges):
                raise ValueError(f"expected {describe(type_)}, got {value!r}")
            return value

        return hook

    def attrs_factory(type_: Any, c: Any) -> Callable[[Any, Any], Any]:
        try:
            from_table = make_dict_structure_fn(type_, c)
        except StructureHandlerNotFoundError:  # a field cattrs cannot build: instances only
            from_table = None
        name = type_.__name__

        def hook(value: Any, t: Any) -> Any:
            if isinstance(value, type_):
                return value
            if from_table is None:
                raise TypeError(f"expected {_a(name)}, got {value!r} ({type(value).__name__})")
            if not isinstance(value, Mapping):
                raise TypeError(
                    f"expected {_a(name)} or a table of its fields, got {value!r} "
                    f"({type(value).__name__})"
                )
            return from_table(value, t)

        return hook

    seq = (list, tuple)
    conv.register_structure_hook_factory(attrs.has, attrs_factory)
    conv.register_structure_hook_factory(
        is_any_set, guarded(set_factory, (*seq, set, frozenset), "a list")
    )
    conv.register_structure_hook_factory(
        is_mapping, guarded(mapping_structure_factory, (Mapping,), "a table (mapping)")
    )
    conv.register_structure_hook_factory(
        lambda t: is_sequence(t) and not is_tuple(t) and t not in (str, bytes),
        guarded(list_structure_factory, seq, "a list"),
    )
    conv.register_structure_hook_factory(is_tuple, guarded(tuple_factory, seq, "a list"))
    conv.register_structure_hook_factory(has_range, range_factory)
    return conv


_converter = _strict_converter()


# ------------------------------------------------------------ constructor options


@attrs.frozen
class OptionInfo:
    """One constructor option of a processor: its name, its type as text, and its
    default (``required`` when it has none)."""

    name: str
    type: str
    default: Any = None
    required: bool = False

    def __str__(self) -> str:
        if self.required:
            return f"{self.name} ({self.type}, required)"
        return f"{self.name} ({self.type}, default {self.default!r})"


def options_of(cls: type) -> tuple[OptionInfo, ...]:
    """The options ``cls``'s constructor takes by keyword, read from its signature and
    annotations, in signature order (what ``tripwire plugins`` lists)."""
    params = _option_params(cls)
    if not params:
        return ()
    hints = constructor_hints(cls)
    return tuple(
        OptionInfo(
            name=p.name,
            type=type_text(hints.get(p.name, p.annotation)),
            default=None if p.default is p.empty else p.default,
            required=p.default is p.empty,
        )
        for p in params
    )


def check_options(cls: type, options: Mapping[str, Any], *, owner: str) -> dict[str, Any]:
    """``options`` for ``cls``'s constructor, each checked against its annotation with
    ``check(..., noun="option")``; an unknown or missing option is a
    ``ConfigurationError`` listing the valid ones. ``owner`` starts every message
    (``"processor 'shout'"``)."""
    params = _option_params(cls)
    if params is None:
        return dict(options)
    takes_any = any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(cls).parameters.values()
    )
    unfit = _unknown_or_missing(cls, params, options, takes_any, owner=owner)
    if unfit:
        raise ConfigurationError(unfit)
    hints = constructor_hints(cls)
    return {
        key: check(key, value, hints.get(key, Any), owner=owner, noun="option")
        for key, value in options.items()
    }


def _unknown_or_missing(cls: type, params: list[inspect.Parameter], given: Iterable[str],
                        takes_any: bool, *, owner: str) -> str | None:
    """What ``check_options`` and ``names_the_valid_options`` say of an unknown or a
    missing option (None when neither)."""
    given = list(given)
    by_name = [p.name for p in params]
    unknown = [k for k in given if k not in by_name]
    if unknown and not takes_any:
        named = ", ".join(f"{k!r}{did_you_mean(k, by_name)}" for k in unknown)
        return f"{owner} has no option {named}; valid options: {_listing(cls)}"
    missing = [p.name for p in params if p.default is p.empty and p.name not in given]
    if missing:
        return (f"{owner} needs option {', '.join(map(repr, missing))}; "
                f"valid options: {_listing(cls)}")
    return None


def did_you_mean(name: str, valid: Iterable[str]) -> str:
    """``" (did you mean 'strategy'?)"`` when one of ``valid`` is close to ``name``
    (``difflib``, case ignored), else ``""``: the hint every unknown option or key gets."""
    import difflib  # imported by the first hint, not with tripwire

    names = list(valid)
    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
    return f" (did you mean {lowered[close[0]]!r}?)" if close else ""


def unknown_name(noun: str, name: str, valid: Iterable[str]) -> str:
    """``unknown key 'max_concurent' (did you mean 'max_concurrent'?); valid keys: ...``:
    what a configuration table says of a key it does not have (``noun``), with the
    closest valid name and every valid one."""
    names = list(valid)
    return (f"unknown {noun} {name!r}{did_you_mean(name, names)}; valid {noun}s: "
            f"{', '.join(names) or 'none'}")


def names_the_valid_options(init: Callable[_P, None]) -> Callable[_P, None]:
    """``init`` (a class's ``__init__``), wrapped so that a call its signature cannot
    bind (a misspelt, missing or extra argument) raises an ``OptionError`` saying what
    ``check_options`` says (``processor 'pii-detector' has no option 'strateg'; valid
    options: ...``) instead of Python's bare message; an ``OptionError`` is both a
    ``ConfigurationError`` and a ``TypeError``, so code catching either still does.

    The owner named is ``processor '<id>'`` for a class with a string ``id``, else the
    class name. The signature and type hints stay ``init``'s (``functools.wraps``); a
    call that binds costs one ``try``; a ``TypeError`` raised inside ``init`` passes
    unchanged. ``Processor`` wraps every subclass's ``__init__`` with it; ``Agent`` too.
    """

    @functools.wraps(init)
    def checked(*args: _P.args, **kwargs: _P.kwargs) -> None:
        try:
            init(*args, **kwargs)
        except TypeError as e:
            try:
                inspect.signature(init).bind(*args, **kwargs)
            except TypeError:
                raise OptionError(_unbound(checked, args, kwargs, e)) from None
            raise

    return checked


def _unbound(init: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any], e: TypeError) -> str:
    """The message for a constructor call ``init``'s signature could not bind."""
    self = args[0] if args else None
    cls = next((k for k in type(self).__mro__ if k.__dict__.get("__init__") is init),
               type(self))
    pid = getattr(cls, "id", None)
    owner = f"processor {pid!r}" if isinstance(pid, str) else cls.__name__
    params = list(inspect.signature(cls).parameters.values())
    kinds = inspect.Parameter
    positional = [p for p in params if p.kind in (kinds.POSITIONAL_ONLY,
                                                   kinds.POSITIONAL_OR_KEYWORD)]
    if len(args) - 1 > len(positional) and all(p.kind is not kinds.VAR_POSITIONAL
                                                for p in params):
        takes = (f"at most {len(positional)} option(s) by position, got {len(args) - 1}"
                 if positional else f"its options by keyword, got {len(args) - 1} by position")
        return f"{owner} takes {takes}: name them; valid options: {_listing(cls)}"
    given = [p.name for p in positional[:len(args) - 1]] + list(kwargs)
    takes_any = any(p.kind is kinds.VAR_KEYWORD for p in params)
    said = _unknown_or_missing(cls, _option_params(cls) or [], given, takes_any, owner=owner)
    return said or f"{owner}: {e}; valid options: {_listing(cls)}"


def constructor_hints(cls: type) -> dict[str, Any]:
    """The annotations of ``cls``'s constructor (or attrs fields), resolved where
    possible (``Any`` where a string annotation cannot be evaluated)."""
    if attrs.has(cls):
        try:
            attrs.resolve_types(cls)
        except Exception:
            pass
        return {a.alias or a.name: a.type for a in attrs.fields(cls) if a.init}
    init = cls.__init__  # type: ignore[misc]
    try:
        return typing.get_type_hints(init, include_extras=True)
    except Exception:
        pass
    hints: dict[str, Any] = {}
    namespace = getattr(inspect.unwrap(init), "__globals__", {})
    for key, ann in getattr(init, "__annotations__", {}).items():
        if isinstance(ann, str):
            try:
                ann = eval(ann, dict(namespace))  # noqa: S307 - annotation text
            except Exception:
                ann = Any
        hints[key] = ann
    return hints


def _option_params(cls: type) -> list[inspect.Parameter] | None:
    """The constructor's keyword-capable parameters (``None``: no readable signature)."""
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p for p in sig.parameters.values() if p.kind in kinds]


def _listing(cls: type) -> str:
    """The names of ``cls``'s options: one short line (``tripwire plugins`` shows each
    option's type and default)."""
    return ", ".join(o.name for o in options_of(cls)) or "none"
