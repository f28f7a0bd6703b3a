"""Entry-point discovery: processors (``tripwire.processors``) and CLI commands
(``tripwire.commands``) published by installed distributions.

Distributions are scanned once per process, lazily (on the first ``available()``,
``create()`` or ``commands()`` call, never at import), under a lock. The registry is
tripwire's own: for every entry point it keeps the distribution, its version and the
entry point value, and - once loaded - the class or the error its import raised. A
plugin that fails to import is recorded as broken, so discovery of the others goes on;
asking for it by name raises its error with the distribution named.

Two environment variables, read at scan time, narrow what is visible:

``TRIPWIRE_DISABLE_PLUGINS=a,b``
    blocks those processor names everywhere (the block list is a pluggy
    ``PluginManager``'s ``set_blocked`` / ``is_blocked``).
``TRIPWIRE_LOAD_PLUGINS=a,b``
    makes only those processor names visible; set but empty means none.

An unknown name in either is a ``ConfigurationError`` listing the discovered names.
Tests call ``reset()`` to forget the scan (e.g. after faking distributions).
"""

from __future__ import annotations

import importlib.metadata
import inspect
import os
import re
import threading
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs
import pluggy
from cattrs.cols import (
    homogenous_tuple_structure_factory,
    is_any_set,
    is_mapping,
    is_sequence,
    list_structure_factory,
    mapping_structure_factory,
)
from cattrs.errors import StructureHandlerNotFoundError

import tripwire.hookspecs as hookspecs
from tripwire._markers import PROJECT_NAME
from tripwire._serde import converter as _base_converter
from tripwire._validation import compile_processor, hooks_of
from tripwire.errors import ConfigurationError

PROCESSORS_GROUP = "tripwire.processors"
COMMANDS_GROUP = "tripwire.commands"
DISABLE_ENV = "TRIPWIRE_DISABLE_PLUGINS"
LOAD_ENV = "TRIPWIRE_LOAD_PLUGINS"

_GROUPS = (PROCESSORS_GROUP, COMMANDS_GROUP)


@attrs.frozen
class PluginInfo:
    """One discovered processor: where it comes from and what it implements.

    ``cls`` is the loaded processor class (``None`` when broken), ``hooks`` the
    lifecycle hooks it implements, ``error`` the exception that made it broken.
    """

    name: str
    distribution: str | None
    version: str | None
    value: str
    cls: type | None = None
    hooks: tuple[str, ...] = ()
    error: BaseException | None = attrs.field(default=None, eq=False)

    @property
    def status(self) -> str:
        """``"ok"`` or ``"broken"``."""
        return "ok" if self.error is None else "broken"

    @property
    def description(self) -> str | None:
        return getattr(self.cls, "description", None) if self.cls is not None else None

    @property
    def options(self) -> tuple[OptionInfo, ...]:
        """The constructor's options (empty when broken: the class could not be read)."""
        return options_of(self.cls) if self.cls is not None else ()


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


@attrs.frozen
class CommandInfo:
    """One discovered CLI command plugin: ``register(subparsers)`` adds its subparser."""

    name: str
    distribution: str | None
    version: str | None
    value: str
    register: Callable[[Any], Any] | None = None
    error: BaseException | None = attrs.field(default=None, eq=False)

    @property
    def status(self) -> str:
        return "ok" if self.error is None else "broken"


@attrs.define
class _Found:
    """An entry point as found in a distribution's metadata (not imported yet)."""

    name: str
    group: str
    distribution: str | None
    version: str | None
    entry_point: Any
    conflict: str | None = None

    @property
    def value(self) -> str:
        return str(self.entry_point.value)


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _names_from_env(var: str) -> list[str] | None:
    raw = os.environ.get(var)
    if raw is None:
        return None
    return [n.strip() for n in raw.split(",") if n.strip()]


class _Registry:
    """The result of one scan, plus what was loaded from it so far."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.scanned = False
        self.found: dict[str, dict[str, _Found]] = {g: {} for g in _GROUPS}
        self.loaded: dict[tuple[str, str], PluginInfo | CommandInfo] = {}
        self.blocklist = pluggy.PluginManager(PROJECT_NAME)
        self.hidden: dict[str, str] = {}  # name -> why it is not visible
        self.env_applied: bool | ConfigurationError | None = None

    # ------------------------------------------------------------ scanning

    def ensure_scanned(self) -> None:
        with self.lock:
            if self.scanned:
                return
            self._scan()
            self.scanned = True

    def ensure_env(self) -> None:
        """Apply the environment's block list once; a bad variable keeps raising (for
        processors only: command plugins stay usable, so the CLI can report it)."""
        with self.lock:
            self.ensure_scanned()
            if self.env_applied is None:
                try:
                    self._apply_env()
                    self.env_applied = True
                except ConfigurationError as e:
                    self.env_applied = e
            if isinstance(self.env_applied, ConfigurationError):
                raise ConfigurationError(str(self.env_applied))

    def _scan(self) -> None:
        found: dict[str, dict[str, _Found]] = {g: {} for g in _GROUPS}
        seen_dists: set[str] = set()
        for dist in importlib.metadata.distributions():
            dist_name = _dist_name(dist)
            if dist_name is not None:
                key = _normalize(dist_name)
                # The same distribution found twice on sys.path: the first one wins,
                # as it does for imports.
                if key in seen_dists:
                    continue
                seen_dists.add(key)
            for ep in dist.entry_points:
                if ep.group not in found:
                    continue
                group = found[ep.group]
                new = _Found(ep.name, ep.group, dist_name, _dist_version(dist), ep)
                old = group.get(ep.name)
                if old is None:
                    group[ep.name] = new
                elif old.distribution == new.distribution and old.value == new.value:
                    # Listed twice by one distribution (editable installs with both
                    # setup.cfg and pyproject.toml, setuptools #3649): one plugin.
                    continue
                else:
                    old.conflict = (
                        f"the name {ep.name!r} is claimed twice: by {old.distribution} "
                        f"({old.value}) and by {new.distribution} ({new.value}); "
                        f"uninstall one of them"
                    )
        self.found = found

    def _apply_env(self) -> None:
        names = sorted(self.found[PROCESSORS_GROUP])
        disabled = _names_from_env(DISABLE_ENV)
        only = _names_from_env(LOAD_ENV)
        for var, listed in ((DISABLE_ENV, disabled), (LOAD_ENV, only)):
            unknown = [n for n in listed or () if n not in self.found[PROCESSORS_GROUP]]
            if unknown:
                raise ConfigurationError(
                    f"{var} names unknown processor(s) {', '.join(unknown)}; "
                    f"available: {', '.join(names) or 'none installed'}"
                )
        for name in disabled or ():
            self.blocklist.set_blocked(name)
            self.hidden[name] = f"disabled by {DISABLE_ENV}"
        if only is not None:
            for name in names:
                if name not in only and not self.blocklist.is_blocked(name):
                    self.blocklist.set_blocked(name)
                    self.hidden[name] = f"not listed in {LOAD_ENV}"

    # ------------------------------------------------------------- loading

    def visible(self) -> list[str]:
        self.ensure_env()
        return sorted(
            n for n in self.found[PROCESSORS_GROUP] if not self.blocklist.is_blocked(n)
        )

    def load(self, group: str, name: str) -> PluginInfo | CommandInfo:
        with self.lock:
            key = (group, name)
            if key not in self.loaded:
                self.loaded[key] = _load(self.found[group][name])
            return self.loaded[key]


def _dist_name(dist: Any) -> str | None:
    name = getattr(dist, "name", None)
    if name is None:
        try:
            name = dist.metadata["Name"]
        except (KeyError, TypeError):
            name = None
    return name


def _dist_version(dist: Any) -> str | None:
    try:
        return dist.version
    except Exception:  # a malformed METADATA file must not stop discovery
        return None


def _load(found: _Found) -> PluginInfo | CommandInfo:
    """Import one entry point, recording (not raising) what goes wrong."""
    error: BaseException | None = None
    target: Any = None
    if found.conflict:
        error = ConfigurationError(found.conflict)
    else:
        try:
            target = found.entry_point.load()
        except Exception as e:
            error = e
    common = dict(
        name=found.name,
        distribution=found.distribution,
        version=found.version,
        value=found.value,
    )
    if found.group == COMMANDS_GROUP:
        if error is None and not callable(target):
            error = TypeError(
                f"command entry point {found.name} = {found.value} must be a function "
                f"register(subparsers), got {type(target).__name__}"
            )
        if error is not None:
            return CommandInfo(**common, error=error)
        return CommandInfo(**common, register=target)
    hooks: tuple[str, ...] = ()
    if error is None:
        if not isinstance(target, type):
            error = TypeError(
                f"entry point {found.name} = {found.value} must name a processor class, "
                f"got {type(target).__name__}"
            )
        else:
            hooks = tuple(hooks_of(target))
            unknown = [h for h in hooks if h not in hookspecs.ALL_HOOKS]
            if not hooks:
                error = TypeError(
                    f"{target.__name__} implements no tripwire hook; mark its methods "
                    f"with @tripwire.hookimpl"
                )
            elif unknown:
                error = TypeError(
                    f"{target.__name__} marks unknown hook(s) {', '.join(unknown)}; "
                    f"valid hook names: {', '.join(hookspecs.ALL_HOOKS)}"
                )
    if error is not None:
        return PluginInfo(**common, hooks=hooks, error=error)
    return PluginInfo(**common, cls=target, hooks=hooks)


_registry_lock = threading.Lock()
_registry = _Registry()


def _current() -> _Registry:
    with _registry_lock:
        return _registry


def reset() -> None:
    """Forget the scan (and everything loaded from it); the next call scans again."""
    global _registry
    with _registry_lock:
        _registry = _Registry()


# ------------------------------------------------------------------ public


def available() -> dict[str, PluginInfo]:
    """Every visible processor plugin by name, each loaded (broken ones included).

    Visible means installed and not hidden by ``TRIPWIRE_DISABLE_PLUGINS`` /
    ``TRIPWIRE_LOAD_PLUGINS``.
    """
    reg = _current()
    out: dict[str, PluginInfo] = {}
    for name in reg.visible():
        info = reg.load(PROCESSORS_GROUP, name)
        assert isinstance(info, PluginInfo)
        out[name] = info
    return out


def hidden() -> dict[str, str]:
    """Installed processor names hidden by the environment, with the reason."""
    reg = _current()
    reg.ensure_env()
    return dict(sorted(reg.hidden.items()))


def is_blocked(name: str) -> bool:
    """True when ``TRIPWIRE_DISABLE_PLUGINS`` / ``TRIPWIRE_LOAD_PLUGINS`` hide ``name``."""
    reg = _current()
    reg.ensure_env()
    return reg.blocklist.is_blocked(name)


def info(name: str) -> PluginInfo:
    """The entry of one visible processor; a clear error if there is none."""
    reg = _current()
    visible = reg.visible()
    if name not in visible:
        why = reg.hidden.get(name)
        if why:
            raise ConfigurationError(f"processor {name!r} is {why}")
        raise ConfigurationError(
            f"unknown processor {name!r}; available: {', '.join(visible) or 'none installed'}"
        )
    found = reg.load(PROCESSORS_GROUP, name)
    assert isinstance(found, PluginInfo)
    return found


def create(name: str, /, **options: Any) -> Any:
    """Build the processor registered as ``name`` with ``options``.

    Options are checked with cattrs against the constructor's annotations: an unknown
    or missing option, or a value of the wrong type, is a ``ConfigurationError`` naming
    the processor and the option and listing the valid options. A broken plugin raises
    a ``ConfigurationError`` naming it and its distribution, its import error chained.
    """
    entry = info(name)
    if entry.error is not None or entry.cls is None:
        err = entry.error
        dist = " ".join(filter(None, [entry.distribution or "?", entry.version]))
        raise ConfigurationError(
            f"processor {name!r} from distribution {dist} ({entry.value}) failed to load: "
            f"{type(err).__name__}: {err}"
        ) from err
    kwargs = check_options(entry.cls, options, label=f"processor {name!r}")
    try:
        processor = entry.cls(**kwargs)
    except (TypeError, ValueError) as e:
        raise ConfigurationError(f"processor {name!r}: {e}") from e
    except Exception as e:  # a missing optional dependency, a bug: still one clear line
        raise ConfigurationError(f"processor {name!r}: {type(e).__name__}: {e}") from e
    compile_processor(processor)
    return processor


def commands() -> dict[str, CommandInfo]:
    """Every CLI command plugin (group ``tripwire.commands``) by name, loaded."""
    reg = _current()
    reg.ensure_scanned()
    out: dict[str, CommandInfo] = {}
    for name in sorted(reg.found[COMMANDS_GROUP]):
        cmd = reg.load(COMMANDS_GROUP, name)
        assert isinstance(cmd, CommandInfo)
        out[name] = cmd
    return out


# --------------------------------------------------------- option checking


def _strict_converter() -> cattrs.Converter:
    """A copy of tripwire's converter that checks instead of coercing.

    cattrs converts by default (``int("3")``, ``str(3)``, a string iterated into a
    list of characters); options from a config file must have the right type.
    """
    conv = _base_converter.copy()

    def exact(kind: type | tuple[type, ...], label: str) -> Callable[[Any, Any], Any]:
        def hook(value: Any, _: Any) -> Any:
            if isinstance(value, bool) and bool not in (
                kind if isinstance(kind, tuple) else (kind,)
            ):
                raise TypeError(f"expected {label}, got {value!r}")
            if not isinstance(value, kind):
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

    seq = (list, tuple)
    conv.register_structure_hook_factory(is_any_set, guarded(set_factory, (*seq, set, frozenset), "a list"))
    conv.register_structure_hook_factory(is_mapping, guarded(mapping_structure_factory, (Mapping,), "a table (mapping)"))
    conv.register_structure_hook_factory(
        lambda t: is_sequence(t) and not is_tuple(t) and t not in (str, bytes),
        guarded(list_structure_factory, seq, "a list"),
    )
    conv.register_structure_hook_factory(is_tuple, guarded(tuple_factory, seq, "a list"))
    return conv


_options_converter = _strict_converter()


def _type_name(hint: Any) -> str:
    if hint is inspect.Parameter.empty or hint is Any:
        return "any"
    if isinstance(hint, type) and not typing.get_args(hint):
        return hint.__name__
    return str(hint).replace("typing.", "")


def _init_hints(cls: type) -> dict[str, Any]:
    """The constructor's annotations, resolved where possible (``Any`` where not)."""
    if attrs.has(cls):
        try:
            attrs.resolve_types(cls)
        except Exception:
            pass
        return {a.alias or a.name: a.type for a in attrs.fields(cls) if a.init}
    init = cls.__init__
    try:
        return typing.get_type_hints(init)
    except Exception:
        pass
    hints: dict[str, Any] = {}
    namespace = getattr(init, "__globals__", {})
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


def options_of(cls: type) -> tuple[OptionInfo, ...]:
    """The options ``create()`` accepts for ``cls``, read from its constructor's
    signature and annotations, in signature order."""
    params = _option_params(cls)
    if not params:
        return ()
    hints = _init_hints(cls)
    return tuple(
        OptionInfo(
            name=p.name,
            type=_type_name(hints.get(p.name, p.annotation)),
            default=None if p.default is p.empty else p.default,
            required=p.default is p.empty,
        )
        for p in params
    )


def _describe(cls: type) -> str:
    return ", ".join(str(o) for o in options_of(cls)) or "none"


def check_options(cls: type, options: Mapping[str, Any], *, label: str) -> dict[str, Any]:
    """``options`` checked and converted against ``cls``'s constructor annotations."""
    params = _option_params(cls)
    if params is None:
        return dict(options)
    takes_any = any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(cls).parameters.values()
    )
    hints = _init_hints(cls)
    by_name = {p.name: p for p in params}
    valid = _describe(cls)
    unknown = [k for k in options if k not in by_name]
    if unknown and not takes_any:
        raise ConfigurationError(
            f"{label} has no option {', '.join(map(repr, unknown))}; valid options: {valid}"
        )
    missing = [p.name for p in params if p.default is p.empty and p.name not in options]
    if missing:
        raise ConfigurationError(
            f"{label} needs option {', '.join(map(repr, missing))}; valid options: {valid}"
        )
    out: dict[str, Any] = {}
    for key, value in options.items():
        hint = hints.get(key, Any)
        out[key] = _check_value(value, hint, label=label, key=key)
    return out


def _check_value(
    value: Any, hint: Any, *, label: str, key: str, noun: str = "option"
) -> Any:
    if hint is Any or hint is inspect.Parameter.empty:
        return value
    if typing.get_origin(hint) is typing.Literal and value not in typing.get_args(hint):
        choices = ", ".join(repr(c) for c in typing.get_args(hint))
        raise ConfigurationError(f"{label}: {noun} {key!r} must be one of {choices}, got {value!r}")
    plain = typing.get_origin(hint) is None and isinstance(hint, type)
    if plain and hint not in (int, float, str, bool) and isinstance(value, hint):
        return value
    try:
        return _options_converter.structure(value, hint)
    except StructureHandlerNotFoundError:
        return value  # a type cattrs cannot check (a callable, a protocol): passed as is
    except Exception as e:
        if isinstance(e, cattrs.BaseValidationError):
            detail = "; ".join(cattrs.transform_error(e, path="value"))
        else:
            detail = str(e)
        raise ConfigurationError(
            f"{label}: {noun} {key!r} expects {_type_name(hint)}, got {value!r}: {detail}"
        ) from e


__all__ = [
    "PROCESSORS_GROUP",
    "COMMANDS_GROUP",
    "DISABLE_ENV",
    "LOAD_ENV",
    "PluginInfo",
    "OptionInfo",
    "CommandInfo",
    "available",
    "hidden",
    "is_blocked",
    "info",
    "create",
    "commands",
    "check_options",
    "options_of",
    "reset",
]
