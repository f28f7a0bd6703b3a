"""One output processor's ``process_output_stream`` as a stage of the pipeline, and what its return means.

One output processor's ``process_output_stream``, bound for a call's chunks: a stage of
the output pipeline, and what its return for a chunk means (``Stage.settle``,
``Stage.failed``), with what it did over the run (to warn about a processor that dropped
every text chunk) and, with the audit on, over the step."""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tripwire.chunks import Chunk, check_chunk
from tripwire.hooks._call import BoundHook, handle_failure
from tripwire.hooks._validation import CompiledProcessor
from tripwire.messages import MessageList

log = logging.getLogger("tripwire")

#: Indexes into ``Stage.counts`` (the audit's counts of one step).
CALLS, EMITTED, DROPPED, MODIFIED, FIRST_NS = range(5)


class Stage:
    """One output processor's ``process_output_stream`` in the pipeline."""

    __slots__ = ("bound", "cp", "args", "parts", "dropped", "kept_text", "released", "counts",
                 "outcome", "timings")

    def __init__(self, bound: BoundHook, message_list: MessageList,
                 common: Callable[[CompiledProcessor], Mapping[str, Any]]) -> None:
        self.bound = bound
        self.cp = bound.cp
        # bound once per call; per chunk only the ``part`` slot changes (as pluggy does)
        self.parts: list[Chunk] | None = None
        if bound.shared:  # bound for every call: this call's values in a copy
            argnames = bound.argnames
            if bound.run_slots or "stream_parts" in argnames or "message_list" in argnames:
                args = bound.args.copy()
                for name, i in bound.own:
                    if name == "stream_parts":
                        args[i] = self.parts = []
                    elif name == "message_list":
                        args[i] = message_list
                if bound.run_slots:
                    values = common(bound.cp)
                    for name, i in bound.run_slots:
                        args[i] = values[name]
                self.args = args
            else:  # (none: the binding's arguments, never written)
                self.args = bound.args
        else:
            self.args = bound.args
            if bound.declares("stream_parts"):
                self.parts = []
                bound.set("stream_parts", self.parts)
            bound.set("message_list", message_list)
        # Text deltas dropped, and whether one was not: a processor that drops every
        # one it sees and never releases held chunks has most likely forgotten to
        # ``return part`` (warned once, after the run).
        self.dropped = 0
        self.kept_text = False
        self.released = False
        #: with the audit on, the step's counts (``CALLS``, ``EMITTED``, ...) and the
        #: outcome that ended a call (an abort, a failure), for ``StageAudit``
        self.counts: list[int] | None = None
        self.outcome: str | None = None
        #: with the audit on, the time of the calls timed over the run: [ns, calls]
        self.timings = [0, 0]

    @property
    def id(self) -> str:
        return self.cp.id

    def set_retry_count(self, value: int) -> None:
        """The ``retry_count`` the stage is given from now on (a bound-per-call stage
        shares its binding's arguments, which ``BoundHook.set`` changes)."""
        if self.bound.shared:
            for name, i in self.bound.run_slots:
                if name == "retry_count":
                    self.args[i] = value

    def settle(self, chunk: Chunk, result: Any, began: int = 0) -> Chunk | list[Chunk] | None:
        """What the stage's ``result`` for ``chunk`` (awaited, when it was awaitable)
        means: the chunk to pass on (itself or a replacement), ``None`` (the chunk is
        dropped) or a list (released together: each passes the later stages on its
        own). Anything else, or a malformed chunk, is the processor's failure
        (``failed``). ``began``: when the call was timed, its start (the audit)."""
        try:
            if type(result) is Chunk:
                if result is not chunk:
                    check_chunk(result)
            elif type(result) is list:
                for c in result:
                    check_chunk(c)
            elif result is not None:
                raise TypeError(
                    f"process_output_stream must return a Chunk, None or a list of Chunks, "
                    f"got {type(result).__name__}")
        except Exception as e:
            return self.failed(chunk, e, began)
        if result is None:
            if chunk.type == "text-delta":
                self.dropped += 1
        else:
            if type(result) is list:
                self.released = True
            if chunk.type == "text-delta":
                self.kept_text = True
        counts = self.counts
        if counts is not None:
            self.took(began)
            if result is None:
                counts[DROPPED] += 1
            elif type(result) is list:
                counts[EMITTED] += len(result)
                # a change, or several released; the chunk itself (equal, in a list) is none
                if len(result) != 1 or (result[0] is not chunk and result[0] != chunk):
                    counts[MODIFIED] += 1
            else:
                counts[EMITTED] += 1
                if result is not chunk and result != chunk:  # by value: an equal copy is none
                    counts[MODIFIED] += 1
        return result  # type: ignore[no-any-return]

    def failed(self, chunk: Chunk, error: Exception, began: int = 0) -> Chunk:
        """The stage raised ``error`` (not a ``TripWire``) or returned something
        malformed: ``ProcessorError``, or for a fail-open processor ``chunk`` passed on
        as it came."""
        if chunk.type == "text-delta":
            self.kept_text = True
        if self.counts is not None:
            self.took(began, "fail-open" if self.cp.fail_open else "error")
        handle_failure(self.cp, "process_output_stream", error)
        return chunk

    def tripped(self, chunk: Chunk, retry: bool, began: int = 0) -> None:
        """The stage aborted on ``chunk`` (a ``TripWire``; ``retry`` asked for)."""
        if chunk.type == "text-delta":
            self.kept_text = True
        if self.counts is not None:
            self.took(began, "retry-requested" if retry else "aborted")

    def took(self, began: int, outcome: str | None = None) -> None:
        """The audit: a timed call's time (``began``: its start, 0 when untimed) and the
        outcome that ended it, if any."""
        if began:
            timings = self.timings
            timings[0] += time.perf_counter_ns() - began
            timings[1] += 1
        if outcome is not None:
            self.outcome = outcome

_warned_drop_all: weakref.WeakSet[Any] = weakref.WeakSet()


def warn_dropped_all(stages: Sequence[Stage], kept_from_start: Sequence[bool]) -> None:
    """Name, once per processor, one that dropped every text chunk it saw in the run
    (``kept_from_start[i]``: a text chunk passed every stage from ``i`` on)."""
    for i, stage in enumerate(stages):
        if not stage.dropped or stage.kept_text or stage.released or any(
                kept_from_start[:i + 1]):
            continue
        processor = stage.cp.processor
        try:
            if processor in _warned_drop_all:
                continue
            _warned_drop_all.add(processor)
        except TypeError:  # not weak-referenceable: warn every time
            pass
        log.warning(
            "processor %r dropped every text-delta of this run (%d): its "
            "process_output_stream returned None for each. Return the part (or a new "
            "chunk) to pass it on; None drops that one chunk.", stage.cp.id, stage.dropped,
        )
