"""Processor validation: a processor is checked against the hookspecs once.

pluggy parses and validates the hookimpls (names, argument names) against the
hookspecs; tripwire adds what pluggy lets pass silently (arguments with defaults,
``process_*`` methods without ``@hookimpl``, ids) and reads each implementation once
(function + argument names) into a ``CompiledProcessor``. Calling the implementations
is ``tripwire.hooks._call``'s job.
"""

from __future__ import annotations

import inspect
import threading
import weakref
from collections.abc import Callable
from typing import Any

import attrs
import pluggy

import tripwire.hookspecs as hookspecs
from tripwire.errors import ProcessorValidationError
from tripwire.hooks._marked import hooks_of
from tripwire.hooks._markers import PROJECT_NAME

#: The arguments every hook may declare besides its own (API.md section 3).
COMMON_ARGS = ("abort", "retry_count", "request_context", "tracing_context", "state",
               "writer", "abort_signal")



@attrs.frozen
class HookImplInfo:
    """One processor's implementation of one hook."""

    hook: str
    function: Callable[..., Any]
    argnames: tuple[str, ...]
    #: a new-style wrapper (``@hookimpl(wrapper=True)``): wraps the processors after it
    wrapper: bool = False

    #: (name, position) of the hook's own arguments it declares (not the common ones
    #: every hook may take), read once
    own: tuple[tuple[str, int], ...] = attrs.field(init=False, default=attrs.Factory(
        lambda self: tuple((a, i) for i, a in enumerate(self.argnames)
                           if a not in COMMON_ARGS), takes_self=True))
    part_index: int = attrs.field(init=False, default=attrs.Factory(
        lambda self: self.argnames.index("part") if "part" in self.argnames else -1,
        takes_self=True))
    #: an ``async def`` implementation
    is_async: bool = attrs.field(init=False, default=attrs.Factory(
        lambda self: inspect.iscoroutinefunction(self.function), takes_self=True))


@attrs.define(eq=False)
class CompiledProcessor:
    """A validated processor and its hook implementations, read once."""

    processor: Any
    id: str
    impls: dict[str, HookImplInfo]
    #: how its ``process_input`` runs: ``blocking``, ``parallel`` (beside the model
    #: call) or ``monitor`` (beside the run, never delaying or changing it)
    mode: str = "blocking"
    #: every argument its implementations declare (a call binds only those)
    declared: frozenset[str] = attrs.field(init=False, default=attrs.Factory(
        lambda self: frozenset(a for impl in self.impls.values() for a in impl.argnames),
        takes_self=True))

    #: ``BoundHook``s every call of this processor shares, by hook: those of the
    #: implementations that declare nothing bound per call (``tripwire.hooks._call``)
    shared_bounds: dict[str, Any] = attrs.field(init=False, factory=dict)

    @property
    def fail_open(self) -> bool:
        return bool(getattr(self.processor, "fail_open", False))

    @property
    def process_data_parts(self) -> bool:
        return bool(getattr(self.processor, "process_data_parts", False))

    def implements(self, hook: str) -> bool:
        return hook in self.impls


_pm_lock = threading.Lock()
_pm = pluggy.PluginManager(PROJECT_NAME)
_pm.add_hookspecs(hookspecs)
# Keyed by identity, never by equality: two processors that compare equal (same id,
# different settings) must each run their own methods.
_cache: dict[int, tuple[weakref.ref[Any], CompiledProcessor]] = {}


def _cached(processor: Any) -> CompiledProcessor | None:
    entry = _cache.get(id(processor))
    if entry is not None and entry[0]() is processor:
        return entry[1]
    return None


def _remember(processor: Any, compiled: CompiledProcessor) -> None:
    key = id(processor)

    def forget(ref: weakref.ref[Any], cache: dict[int, Any] = _cache) -> None:
        # ``cache`` is bound here: at interpreter exit the module's globals may be gone
        if cache.get(key, (None,))[0] is ref:
            del cache[key]

    try:
        ref = weakref.ref(processor, forget)
    except TypeError:  # not weak-referenceable (e.g. __slots__ without __weakref__)
        return
    _cache[key] = (ref, compiled)


def _valid_args(hook: str) -> list[str]:
    spec = getattr(_pm.hook, hook).spec
    assert spec is not None
    return list(spec.argnames)


def compile_processor(processor: Any) -> CompiledProcessor:
    """Validate a processor against the hookspecs and read its implementations.

    Raises ``ProcessorValidationError`` naming the processor id, the method and the
    valid names for: a missing id, a ``process_*`` method without ``@hookimpl``, a
    hookimpl whose name or argument names match no hookspec, an argument with a
    default value, ``*args`` / ``**kwargs`` / keyword-only arguments (never passed),
    ``tryfirst`` / ``trylast`` (the list decides the order) and old-style wrappers.
    """
    cached = _cached(processor)
    if cached is not None:
        _check_settings(processor, cached.id)
        return cached
    if isinstance(processor, type):
        raise ProcessorValidationError(
            f"{processor.__name__} is a class; pass an instance (e.g. {processor.__name__}())"
        )
    pid = getattr(processor, "id", None)
    if not isinstance(pid, str) or not pid:
        raise ProcessorValidationError(
            f"processor {processor!r} has no id: set a non-empty string attribute `id`"
        )
    _check_settings(processor, pid)
    marker = f"{PROJECT_NAME}_impl"
    valid_hooks = ", ".join(hookspecs.ALL_HOOKS)
    for attr in dir(type(processor)):
        if not attr.startswith("process_"):
            continue
        value = inspect.getattr_static(type(processor), attr, None)
        if callable(value) and getattr(value, marker, None) is None:
            if attr in hookspecs.ALL_HOOKS:
                raise ProcessorValidationError(
                    f"processor {pid!r}: method {attr} is not marked with @hookimpl "
                    f"(from tripwire import hookimpl), so it would never run"
                )
            raise ProcessorValidationError(
                f"processor {pid!r}: method {attr} matches no hook and is not marked with "
                f"@hookimpl; valid hook names: {valid_hooks}"
            )
    _check_wrappers(processor, pid)
    impls: dict[str, HookImplInfo] = {}
    with _pm_lock:
        name = f"{pid}#{id(processor)}"
        try:
            _pm.register(processor, name=name)
        except pluggy.PluginValidationError as e:
            raise ProcessorValidationError(_explain(pid, e)) from None
        except ValueError as e:  # already registered (concurrent validation)
            raise ProcessorValidationError(f"processor {pid!r}: {e}") from None
        try:
            try:
                _pm.check_pending()
            except pluggy.PluginValidationError as e:
                bad = [h for h in hooks_of(processor) if h not in hookspecs.ALL_HOOKS]
                method = bad[0] if bad else "?"
                raise ProcessorValidationError(
                    f"processor {pid!r}: @hookimpl method {method} matches no hook; "
                    f"valid hook names: {valid_hooks}"
                ) from e
            for caller in _pm.get_hookcallers(processor) or []:
                for impl in caller.get_hookimpls():
                    if impl.plugin is not processor:
                        continue
                    hook = caller.name
                    if impl.hookwrapper:
                        raise ProcessorValidationError(
                            f"processor {pid!r}: {hook} uses the old-style hookwrapper=True; "
                            f"use @hookimpl(wrapper=True) (code before `result = yield` runs "
                            f"first, then return a replacement or None)"
                        )

                    if impl.kwargnames:
                        raise ProcessorValidationError(
                            f"processor {pid!r}: {hook} argument(s) "
                            f"{', '.join(impl.kwargnames)} have default values; pluggy never "
                            f"passes such arguments, so they would silently keep their "
                            f"defaults. Remove the defaults. Valid arguments: "
                            f"{', '.join(_valid_args(hook))}"
                        )
                    _check_pluggy_passes_everything(pid, hook, impl)
                    impls[hook] = HookImplInfo(hook, impl.function, tuple(impl.argnames),
                                               wrapper=bool(impl.wrapper))
        finally:
            _pm.unregister(name=name)
    compiled = CompiledProcessor(processor, pid, impls)
    _remember(processor, compiled)
    return compiled


def _check_settings(processor: Any, pid: str) -> None:
    """``fail_open`` and ``on_violation``, however they were set (a constructor option,
    an attribute), checked as a configuration file's are: the runner reads them only
    when a processor fails or reports, so a wrong one would go unnoticed until then.
    Checked at every compile (the cache must not let a later assignment through)."""
    fail_open = getattr(processor, "fail_open", False)
    if not isinstance(fail_open, bool):
        raise ProcessorValidationError(
            f"processor {pid!r}: fail_open must be True or False, got {fail_open!r} (True: "
            f"a failure of the processor lets its input through instead of ending the run)")
    on_violation = getattr(processor, "on_violation", None)
    if on_violation is not None and not callable(on_violation):
        raise ProcessorValidationError(
            f"processor {pid!r}: on_violation must be None or a callable taking a "
            f"ProcessorViolation, got {on_violation!r}")


def _check_pluggy_passes_everything(pid: str, hook: str, impl: pluggy.HookImpl) -> None:
    """What pluggy would silently get wrong: it passes only the plain arguments a
    hookimpl names (``**kwargs`` stays empty, a keyword-only argument is never given and
    fails mid-run), and ``tryfirst`` / ``trylast`` would lose to tripwire's list order."""
    for option in ("tryfirst", "trylast"):
        if getattr(impl, option):
            raise ProcessorValidationError(
                f"processor {pid!r}: {hook} uses {option}=True, which has no effect: "
                f"processors run in the list order of the agent (or group); move it in "
                f"the list instead"
            )
    valid = ", ".join(_valid_args(hook))
    kinds = inspect.Parameter
    for param in inspect.signature(impl.function).parameters.values():
        if param.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD):
            star = "*" if param.kind is kinds.VAR_POSITIONAL else "**"
            raise ProcessorValidationError(
                f"processor {pid!r}: {hook} takes {star}{param.name}, which pluggy never "
                f"fills (it passes only the arguments a hookimpl names); name the "
                f"arguments you use. Valid arguments: {valid}"
            )
        if param.kind is kinds.KEYWORD_ONLY:
            raise ProcessorValidationError(
                f"processor {pid!r}: {hook} argument {param.name} is keyword-only (after "
                f"`*`); pluggy passes only plain arguments, so drop the `*`. "
                f"Valid arguments: {valid}"
            )


def _check_wrappers(processor: Any, pid: str) -> None:
    """A wrapper is a plain generator function, as pluggy's new-style wrappers are; any
    other hookimpl returns its result, so one that yields is a mistake (a stream hook
    written as a generator) caught here rather than as a wrong return mid-run."""
    marker = f"{PROJECT_NAME}_impl"
    for attr in dir(type(processor)):
        fn = inspect.getattr_static(type(processor), attr, None)
        opts = getattr(fn, marker, None)
        if not opts:
            continue
        if not opts.get("wrapper"):
            generator = inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn)
            if generator and not opts.get("hookwrapper"):   # that one is named below
                raise ProcessorValidationError(
                    f"processor {pid!r}: {attr} yields, but a hook returns its result "
                    f"(`return part`; a list of chunks to emit several; None to drop one); "
                    f"only a @hookimpl(wrapper=True) yields"
                )
            continue
        if inspect.isasyncgenfunction(fn):
            raise ProcessorValidationError(
                f"processor {pid!r}: {attr} is marked wrapper=True but is an async generator; "
                f"a wrapper is a plain generator (`result = yield`, then return a replacement "
                f"or None), as in pluggy: do async work in a plain hookimpl of another "
                f"processor before or after it"
            )
        if not inspect.isgeneratorfunction(fn):
            raise ProcessorValidationError(
                f"processor {pid!r}: {attr} is marked wrapper=True but does not yield; a "
                f"wrapper is a generator: `result = yield`, then return a replacement (or "
                f"None to keep the result)"
            )


def _explain(pid: str, error: pluggy.PluginValidationError) -> str:
    text = str(error)
    hook = next((h for h in hookspecs.ALL_HOOKS if f"'{h}'" in text), None)
    if hook and "can not be found in the hookspec" in text:
        bad = text.split("Argument(s)")[-1].split("are declared")[0].strip()
        return (
            f"processor {pid!r}: {hook} declares argument(s) {bad} that the hook does not "
            f"have; valid arguments: {', '.join(_valid_args(hook))}"
        )
    return f"processor {pid!r}: {text}"
