"""Calling hooks: one bound caller for every path.

pluggy's ``firstresult`` stops at the first coroutine and calls implementations in
reverse registration order, while processors must run in the order of the agent's
list, each awaited before the next. So tripwire calls each processor's implementation
itself, through a ``BoundHook``: the implementation's arguments bound once per call
(the common ones: abort, state, writer, ...), the hook's own values filled in per
invocation, positionally, as pluggy does. The same object serves the per-chunk path
(``process_output_stream``) and the once-per-step hooks.
"""

from __future__ import annotations

import asyncio
import dis
import inspect
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from types import CoroutineType
from typing import Any, NoReturn

from tripwire.errors import ProcessorError, TripWire
from tripwire.hooks._validation import COMMON_ARGS, CompiledProcessor
from tripwire.observe._recorder import wall_ns
from tripwire.processor import ProcessorViolation

log = logging.getLogger("tripwire")



_ns = time.perf_counter_ns

#: Applies what a processor returned to the hook's state and says whether that changed
#: anything (``BoundHook.recorded``).
Settle = Callable[[Any], bool]

FAILED_OPEN = object()
"""Returned by ``call_hook`` when a fail-open processor raised: use the input unchanged."""


def make_abort(processor_id: str) -> Callable[..., NoReturn]:
    def abort(reason: str | None = None, *, retry: bool = False, metadata: Any = None) -> NoReturn:
        raise TripWire(
            reason or f"Tripwire triggered by {processor_id}",
            retry=retry,
            metadata=metadata,
            processor_id=processor_id,
        )

    return abort


async def notify_violation(processor: Any, violation: ProcessorViolation) -> None:
    """Call a processor's ``on_violation`` (sync or async); log and swallow what it
    raises. Processors call it for warn/mask detections; aborts call it for them."""
    callback = getattr(processor, "on_violation", None)
    if callback is None:
        return
    try:
        result = callback(violation)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("on_violation of processor %r raised; ignored", violation.processor_id)


#: The common arguments whose values belong to one call (``abort`` depends on the
#: processor alone): a shared binding is given them at each invocation.
RUN_ARGS = frozenset(COMMON_ARGS) - {"abort"}


def shareable(cp: CompiledProcessor, hook: str) -> bool:
    """True when ``hook`` of ``cp`` is bound once for every call: any implementation
    but a wrapper (which keeps per-call timing and its generator's arguments)."""
    return not cp.impls[hook].wrapper


def shared_bound(cp: CompiledProcessor, hook: str) -> BoundHook:
    """The ``BoundHook`` every call shares for ``hook`` of ``cp`` (``shareable``): only
    ``abort`` bound; the call's own values (``RUN_ARGS``) come with each invocation."""
    bound = cp.shared_bounds.get(hook)
    if bound is None:
        argnames = cp.impls[hook].argnames
        common = {"abort": make_abort(cp.id)} if "abort" in argnames else {}
        bound = BoundHook(cp, hook, common)
        bound.shared = True
        bound.run_slots = tuple((a, i) for i, a in enumerate(argnames) if a in RUN_ARGS)
        cp.shared_bounds[hook] = bound
    return bound


class BoundHook:
    """One processor's implementation of one hook, its arguments bound: once for every
    call (``shared_bound``: the call's own common values come with each invocation, as
    ``common``), or for one call (a wrapper: ``common`` bound in when built, and
    ``set(name, value)`` changes one of them for later invocations: ``retry_count``).
    ``bound.call(values, state, common)`` calls the implementation with the hook's own
    ``values`` (``bound.recorded(values, state, recorder, common)`` with the audit or
    tracing on);
    the output pipeline's generated per-chunk path (``tripwire.stream._fastpath``) calls
    ``fn`` itself with ``args`` bound in, the chunk as ``part``. A
    ``TripWire`` gets the processor id and triggers
    ``on_violation``; any other exception becomes ``ProcessorError`` (or
    ``FAILED_OPEN`` for a fail-open processor).
    """

    __slots__ = ("cp", "hook", "fn", "argnames", "args", "own", "only", "part_index",
                 "recorder", "shared", "run_slots", "wrapper", "may_return", "takes_list",
                 "_started")

    def __init__(self, cp: CompiledProcessor, hook: str, common: Mapping[str, Any]) -> None:
        impl = cp.impls[hook]
        self.cp = cp
        self.hook = hook
        self.fn = impl.function
        self.argnames = impl.argnames
        self.args: list[Any] = [common.get(a) for a in impl.argnames]
        #: (name, position) of the hook's own arguments this implementation declares.
        self.own = impl.own
        #: the name of its only argument, when it declares one of the hook's own and
        #: nothing else (``call`` then builds no argument list)
        self.only = impl.own[0][0] if len(impl.argnames) == 1 and impl.own else None
        self.part_index = impl.part_index
        #: a new-style wrapper (``@hookimpl(wrapper=True)``): ``start`` and ``finish``
        self.wrapper = impl.wrapper
        #: it is given the live ``message_list`` (and may change it in place)
        self.takes_list = "message_list" in impl.argnames
        #: the implementation may return something (not only None): with the audit on,
        #: only then is the state compared before and after it (``recorded``'s settle)
        self.may_return = impl.wrapper or may_return_value(impl.function)
        #: the run's audit/trace ``Recorder`` a wrapper records in, or None (then nothing
        #: is timed; plain implementations are given it: ``recorded``)
        self.recorder: Any = None
        #: when each running wrapper started (audit on), by id of its generator
        self._started: dict[int, tuple[int, int]] | None = None
        #: bound once for every call of the processor (``shared_bound``): ``args`` is
        #: then never written (runs in other threads read it too); callers copy it
        self.shared = False
        #: (name, position) of the per-call common arguments a shared binding is given
        #: at each invocation, from the call's ``common`` mapping for the processor
        self.run_slots: tuple[tuple[str, int], ...] = ()

    def declares(self, name: str) -> bool:
        return name in self.argnames

    def set(self, name: str, value: Any) -> None:
        """Bind ``name`` to ``value`` for the following invocations."""
        names = self.argnames
        if name in names:
            self.args[names.index(name)] = value

    def call(self, values: Mapping[str, Callable[[Any], Any]], state: Any,
             common: Mapping[str, Any] | None = None) -> Any:
        """Call the implementation; ``values[name](state)`` gives each of the hook's own
        arguments it declares (only those are computed), ``common`` the call's common
        arguments of the processor (needed when ``run_slots`` is not empty).

        Returns the result, or a coroutine giving it (await it when ``type(r) is
        CoroutineType``): an implementation that is not ``async`` costs no coroutine."""
        only = self.only
        if only is not None:
            value = values[only](state)
        else:
            args = self.args.copy()  # nothing of an earlier invocation kept; may be shared
            for name, i in self.own:
                args[i] = values[name](state)
            if self.run_slots:
                for name, i in self.run_slots:
                    args[i] = common[name]  # type: ignore[index]
        try:
            result = self.fn(value) if only is not None else self.fn(*args)
        except TripWire as tw:
            return self._tripped(tw)
        except Exception as e:
            return handle_failure(self.cp, self.hook, e)
        if result is not None and is_coroutine(result):
            return self._settle(result)
        return result

    async def _settle(self, awaitable: Any) -> Any:
        try:
            return await awaitable
        except TripWire as tw:
            await on_tripwire(self.cp, tw)
            raise
        except Exception as e:
            return handle_failure(self.cp, self.hook, e)

    async def _tripped(self, tw: TripWire) -> NoReturn:
        try:
            await on_tripwire(self.cp, tw)
            raise tw
        finally:
            # The tripwire's traceback holds this frame: without this the frame's
            # ``tw`` would keep the run (its state, its messages) alive in a cycle
            # until the garbage collector ran.
            del tw

    def recorded(self, values: Mapping[str, Callable[[Any], Any]], state: Any,
                 recorder: Any, common: Mapping[str, Any] | None = None,
                 settle: Settle | None = None) -> Any:
        """``call`` with its time and outcome recorded in the run's ``recorder`` (a
        synchronous implementation that returns is recorded without a coroutine).

        ``settle`` (given by the hook facade) applies what the implementation returned
        and says whether that changed anything: ``modified`` means it did, so a
        processor that returns what it was given is ``passed``. The caller then does
        not apply the result itself. Without it, any return is ``modified``."""
        args = self.args.copy()
        for name, i in self.own:
            args[i] = values[name](state)
        if self.run_slots:
            for name, i in self.run_slots:
                args[i] = common[name]  # type: ignore[index]
        sink = recorder.sink
        if sink is not None:  # the audit alone: a note, made a record when it is read
            start = _ns()
            try:
                result = self.fn(*args)
            except BaseException as e:
                return self._recorded_end(None, e, 0, start, recorder, settle)
            if is_coroutine(result):
                return self._recorded_end(result, None, 0, start, recorder, settle)
            duration = _ns() - start
            if result is None and settle is None:
                sink.append((self, recorder.step, "passed", duration))
                return None
            outcome = "error"
            try:
                outcome = self._outcome(result, settle)
            finally:
                sink.append((self, recorder.step, outcome, duration))
            return result
        # spans are on (or the run has ended): ``record`` makes the span too
        wall = wall_ns() if recorder.tracer is not None else 0
        start = _ns()
        try:
            result = self.fn(*args)
        except BaseException as e:
            return self._recorded_end(None, e, wall, start, recorder, settle)
        if result is not None and is_coroutine(result):
            return self._recorded_end(result, None, wall, start, recorder, settle)
        duration = _ns() - start
        cp = self.cp
        outcome = "error"
        try:
            outcome = self._outcome(result, settle)
        finally:
            recorder.record(cp.id, self.hook, wall, duration, outcome, cp.mode)
        return result

    def _outcome(self, result: Any, settle: Settle | None) -> str:
        """The outcome of a return; with ``settle``, the result is applied here, and
        ``modified`` means that (or an edit in place) changed something."""
        if settle is None or result is FAILED_OPEN:
            return outcome_of(self.hook, result)
        changed = settle(result)
        if self.hook == "process_api_error":  # a retry request, or nothing
            return outcome_of(self.hook, result)
        return "modified" if changed else "passed"

    async def _recorded_end(self, awaitable: Any, error: BaseException | None, wall: int,
                            start: int, recorder: Any, settle: Settle | None = None) -> Any:
        """The rest of ``recorded`` for an implementation that raised (``error``) or
        returned an awaitable."""
        outcome = "passed"
        try:
            if error is not None:
                raise error
            result = await awaitable
            outcome = "error"  # (should settling it raise)
            outcome = self._outcome(result, settle)
            return result
        except TripWire as tw:
            outcome = "retry-requested" if tw.retry else "aborted"
            await on_tripwire(self.cp, tw)
            raise
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        except Exception as e:
            outcome = "error"
            result = handle_failure(self.cp, self.hook, e)
            outcome = "fail-open"
            return result
        finally:
            error = None  # the raised error's traceback holds this frame: no cycle
            recorder.record(self.cp.id, self.hook, wall, time.perf_counter_ns() - start,
                            outcome, mode=self.cp.mode)

    # -- wrappers (``@hookimpl(wrapper=True)``)
    async def start(self, values: Mapping[str, Callable[[Any], Any]], state: Any) -> Any:
        """Run a wrapper up to its ``yield``; the suspended generator, or
        ``FAILED_OPEN`` (a fail-open wrapper that failed is left out)."""
        args = list(self.args)
        for name, i in self.own:
            args[i] = values[name](state)
        try:
            gen = self.fn(*args)
            if self.recorder is not None:
                if self._started is None:
                    self._started = {}
                self._started[id(gen)] = (wall_ns(), time.perf_counter_ns())
            next(gen)
            return gen
        except StopIteration:
            return handle_failure(self.cp, self.hook, RuntimeError(
                "a wrapper must yield once (`result = yield`)"))
        except TripWire as tw:
            await on_tripwire(self.cp, tw)
            raise
        except Exception as e:
            return handle_failure(self.cp, self.hook, e)

    async def finish(self, gen: Any, result: Any, settle: Settle | None = None) -> Any:
        """Send what the wrapped processors produced into the wrapper; its replacement
        (``None``: keep the result). With ``settle`` (the audit on), the replacement
        is applied here and is ``modified`` only when it changed something (see
        ``recorded``); the caller then does not apply it."""
        outcome = "error"
        try:
            try:
                gen.send(result)
            except StopIteration as stop:
                replacement = stop.value
            else:
                gen.close()
                raise RuntimeError("a wrapper must yield once; return the replacement "
                                   "instead of yielding it")
        except TripWire as tw:
            outcome = "retry-requested" if tw.retry else "aborted"
            try:
                await on_tripwire(self.cp, tw)
                raise
            finally:
                self._record_wrapper(gen, outcome)
        except Exception as e:
            try:
                failed_open = handle_failure(self.cp, self.hook, e)
                outcome = "fail-open"
                return failed_open
            finally:
                self._record_wrapper(gen, outcome)
        try:
            outcome = self._outcome(replacement, settle)
        finally:
            self._record_wrapper(gen, outcome)
        return replacement

    def _record_wrapper(self, gen: Any, outcome: str) -> None:
        started = self._started.pop(id(gen), None) if self._started else None
        if started is not None and self.recorder is not None:
            self.recorder.record(self.cp.id, self.hook, started[0],
                                 time.perf_counter_ns() - started[1], outcome,
                                 mode=self.cp.mode)

    def close(self, gen: Any) -> None:
        """Close a wrapper whose wrapped processors ended the hook (a tripwire, an
        error, a cancellation): its ``finally`` blocks run; it cannot change that."""
        try:
            gen.close()
        except Exception:
            log.warning("a wrapper raised while being closed; ignored", exc_info=True)
        self._record_wrapper(gen, "cancelled")


def may_return_value(function: Any) -> bool:
    """Whether ``function`` can return anything but None, read from its bytecode: no
    ``return`` of a value (only ``return``, ``return None`` or the end) is False.
    Anything not recognised is True: the audit then compares the state before and
    after the call (``modified`` must mean something changed), which costs a copy of
    the state's values; a processor that only ever returns None is ``passed`` without
    it."""
    code = getattr(function, "__code__", None)
    if code is None:
        return True
    previous = None
    for ins in dis.get_instructions(code):
        if ins.opname == "RETURN_CONST" and ins.argval is not None:
            return True
        if ins.opname == "RETURN_VALUE" and (
                previous is None or previous.opname != "LOAD_CONST" or previous.argval is not None):
            return True
        previous = ins
    return False


def outcome_of(hook: str, result: Any) -> str:
    """The audit outcome of a hook that returned ``result``."""
    if result is None or (hook == "process_output_step" and result == []):
        return "passed"
    if result is FAILED_OPEN:
        return "fail-open"
    if hook == "process_api_error":
        return "retry-requested" if isinstance(result, Mapping) and result.get("retry") \
            else "passed"
    return "modified"


def is_coroutine(value: Any) -> bool:
    """True for what a hook returns that must be awaited (cheap for the common case)."""
    return type(value) is CoroutineType or (
        value is not None and not isinstance(value, list | dict) and inspect.isawaitable(value)
    )


async def on_tripwire(cp: CompiledProcessor, tw: TripWire) -> None:
    if tw.processor_id is None:
        tw.processor_id = cp.id
    await notify_violation(
        cp.processor, ProcessorViolation(tw.processor_id, tw.reason, tw.metadata)
    )


def handle_failure(cp: CompiledProcessor, hook: str, error: Exception) -> Any:
    if cp.fail_open:
        log.warning(
            "processor %r failed in %s (fail_open: input passed on unchanged)",
            cp.id, hook, exc_info=error,
        )
        return FAILED_OPEN
    raise ProcessorError(cp.id, hook, error) from error


def with_hook(processors: Sequence[CompiledProcessor], hook: str) -> list[CompiledProcessor]:
    return [cp for cp in processors if hook in cp.impls]
