"""A call's processors bound to their hooks.

The common arguments each processor is given, one ``BoundHook`` per (processor, hook),
the chain of bound hooks each list runs for each hook (``ParallelGroup`` for a parallel
unit), and the ``retry_count`` they all see.

What is the same for every call of the same lists (a chain whose processors are bound
once for all calls, the output stages) is kept in ``CallOptions.plans``; the rest is
bound once per call. ``tripwire.hooks._facade`` runs the chains.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import attrs

from tripwire.context import TracingContext
from tripwire.hooks._call import BoundHook, make_abort, shareable, shared_bound
from tripwire.hooks._validation import CompiledProcessor
from tripwire.run._call import CallOptions, ParallelUnit, Unit, flat

if TYPE_CHECKING:
    from tripwire.stream._pipeline import OutputPipeline


@attrs.define(eq=False)
class ParallelGroup:
    """A parallel group's chains, bound for one hook."""

    unit: ParallelUnit
    chains: list[list[Any]]
    member_ids: list[str]


class Bindings:
    """The hooks of one call's processors, bound to the call's services."""

    def __init__(
        self,
        call: CallOptions,
        pipeline: OutputPipeline,
        tracing_context: TracingContext,
        abort_signal: asyncio.Event,
        recorder: Any = None,
    ) -> None:
        self.call = call
        self.recorder = recorder
        self._pipeline = pipeline
        self._tracing_context = tracing_context
        self._abort_signal = abort_signal
        self._retry_count = 0
        #: ``state`` per processor id: shared by that processor's hooks for the call
        self.states: dict[str, dict[str, Any]] = {}
        self._commons: dict[int, dict[str, Any]] = {}
        self._bound: dict[tuple[int, str], BoundHook] = {}
        self._chains: dict[tuple[str, str], list[Any]] = {}

    def common(self, cp: CompiledProcessor) -> dict[str, Any]:
        """The common hook arguments of one processor, built once per call."""
        key = id(cp.processor)
        common = self._commons.get(key)
        if common is None:
            declared = cp.declared  # only what its implementations take is built
            common = self._commons[key] = {
                "abort": make_abort(cp.id) if "abort" in declared else None,
                "retry_count": self._retry_count,
                "request_context": self.call.request_context,
                "tracing_context": self._tracing_context,
                "state": self.states.setdefault(cp.id, {}) if "state" in declared else None,
                "writer": self._pipeline.writer(cp) if "writer" in declared else None,
                "abort_signal": self._abort_signal,
            }
        return common

    def bound(self, cp: CompiledProcessor, hook: str) -> BoundHook:
        """``hook`` of one processor, bound once per call (or once for every call,
        when it binds nothing per call: ``shareable``)."""
        key = (id(cp.processor), hook)
        bound = self._bound.get(key)
        if bound is None:
            if shareable(cp, hook):
                bound = self._bound[key] = shared_bound(cp, hook)
            else:
                bound = self._bound[key] = BoundHook(cp, hook, self.common(cp))
                bound.recorder = self.recorder
        return bound

    def chain(self, units: list[Unit], hook: str) -> list[Any]:
        """The units that implement ``hook``, bound: ``BoundHook``s, and
        ``ParallelGroup``s for parallel units. ``process_input`` of a processor in
        ``parallel`` or ``monitor`` mode is not part of the chain (it runs beside it)."""
        out: list[Any] = []
        for u in units:
            if isinstance(u, ParallelUnit):
                chains, ids = [], []
                for member_id, member in zip(u.member_ids, u.chains, strict=True):
                    bound = self.chain(member, hook)
                    if bound:
                        chains.append(bound)
                        ids.append(member_id)
                if chains:
                    out.append(ParallelGroup(u, chains, ids))
            elif hook in u.impls and (u.mode == "blocking" or hook != "process_input"):
                out.append(self.bound(u, hook))
            elif hook in u.impls and self.recorder is not None:
                self.recorder.record(u.id, hook, 0, 0, "skipped-by-mode", mode=u.mode)
        return out

    def chain_of(self, kind: str, hook: str) -> list[Any]:
        """``chain()`` of one list for one hook, built once per call (once for every
        call when it binds nothing per call: ``CallOptions.plans``)."""
        key = (kind, hook)
        found = self._chains.get(key)
        if found is None:
            found = self.call.plans.chains.get(key)
            if found is None:
                units = getattr(self.call, kind)
                found = self.chain(units, hook)
                if _shared_chain(units, hook, found):
                    self.call.plans.chains[key] = found
            self._chains[key] = found
        return found

    def stream_stages(self) -> list[BoundHook]:
        """``process_output_stream`` of the output processors, in order
        (``stream_processors``)."""
        found = self.call.plans.stages
        if found is not None:
            return found
        stages = [self.bound(cp, "process_output_stream") for cp in stream_processors(self.call)]
        if all(b.shared for b in stages):
            self.call.plans.stages = stages
        return stages

    def drop_states(self, busy: list[asyncio.Task[Any]]) -> None:
        """Empty every processor's ``state`` at the run's end (however it ended), so
        what a processor keeps there (a cache's lease on a model call in flight) goes
        with the run, not with the ``AgentStream`` its caller still holds. With checks
        in ``monitor`` mode still running (``busy``: they may outlive the run), once
        they are done."""
        pending = [task for task in busy if not task.done()]
        if pending:
            asyncio.gather(*pending, return_exceptions=True).add_done_callback(
                lambda _: self.drop_states([]))
            return
        for state in self.states.values():
            state.clear()

    @property
    def retry_count(self) -> int:
        """How many times the current step has been retried (the hooks' ``retry_count``)."""
        return self._retry_count

    def set_retry_count(self, value: int) -> None:
        """The ``retry_count`` every processor is given from now on."""
        if value == self._retry_count:
            return
        self._retry_count = value
        for common in self._commons.values():
            common["retry_count"] = value
        for bound in self._bound.values():
            if not bound.shared:  # a shared one reads it from the call's common values
                bound.set("retry_count", value)
        self._pipeline.set_retry_count(value)

    def set_retry_count_of(self, bound: BoundHook, value: int) -> None:
        """The ``retry_count`` ``bound``'s processor is given from now on."""
        if bound.shared:
            if bound.run_slots:
                self.common(bound.cp)["retry_count"] = value
        else:
            bound.set("retry_count", value)


def stream_processors(call: CallOptions) -> list[CompiledProcessor]:
    """The output processors that implement ``process_output_stream``, in order: the
    stages of the output pipeline (a parallel group's members one after another:
    per-chunk hooks gain nothing from concurrency)."""
    return [cp for cp in flat(call.outputs) if "process_output_stream" in cp.impls]


def _shared_chain(units: list[Unit], hook: str, chain: list[Any]) -> bool:
    """True when ``chain`` (``Bindings.chain(units, hook)``) is the same for every
    call: each of its processors bound once for all calls, none left out by its mode
    (that is recorded in the audit per call) and no parallel group (bound per call)."""
    return all(type(b) is BoundHook and b.shared for b in chain) and len(chain) == sum(
        1 if isinstance(u, ParallelUnit) else hook in u.impls for u in units)
