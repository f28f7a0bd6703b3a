"""One output processor's ``process_output_stream``, bound for a call's chunks: a stage
of the output pipeline, with what it did over the run (to warn about a processor that
dropped every text chunk).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tripwire.chunks import Chunk
from tripwire.hooks._call import BoundHook
from tripwire.hooks._validation import CompiledProcessor
from tripwire.messages import MessageList
from tripwire.observe._stagestats import UNCOUNTED, StepStats

log = logging.getLogger("tripwire")


class Stage:
    """One output processor's ``process_output_stream`` in the pipeline."""

    __slots__ = ("bound", "cp", "id", "fn", "args", "part_index", "parts", "data",
                 "texts", "dropped", "released", "wrapper", "stats")

    def __init__(self, bound: BoundHook, message_list: MessageList,
                 common: Callable[[CompiledProcessor], Mapping[str, Any]]) -> None:
        self.bound = bound
        self.cp = cp = bound.cp
        self.id = cp.id
        # bound once per call; per chunk only the ``part`` slot changes (as pluggy does)
        self.fn = bound.fn
        self.part_index = bound.part_index
        self.parts: list[Chunk] | None = None
        if bound.shared:  # bound for every call: this call's values in a copy
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
        else:
            self.args = bound.args
            if bound.declares("stream_parts"):
                self.parts = []
                bound.set("stream_parts", self.parts)
            bound.set("message_list", message_list)
        self.data = cp.process_data_parts
        self.wrapper = bound.wrapper
        # Text deltas seen and dropped: a processor that drops every one of them and
        # never releases held chunks has most likely forgotten to ``return part``
        # (warned once, after the run).
        self.texts = 0
        self.dropped = 0
        self.released = False
        # (one shared, never written, until the general loop counts a chunk with the
        # audit on: ``counting``)
        self.stats = UNCOUNTED

    def counting(self) -> StepStats:
        """The stage's stats for this step, made when first needed (audit on)."""
        stats = self.stats
        if stats is UNCOUNTED:
            stats = self.stats = StepStats()
        return stats

    def set_retry_count(self, value: int) -> None:
        """The ``retry_count`` the stage is given from now on (a bound-per-call stage
        shares its binding's arguments, which ``BoundHook.set`` changes)."""
        if self.bound.shared:
            for name, i in self.bound.run_slots:
                if name == "retry_count":
                    self.args[i] = value


_warned_drop_all: weakref.WeakSet[Any] = weakref.WeakSet()


def warn_dropped_all(stages: Sequence[Stage]) -> None:
    """Name, once per processor, one that dropped every text chunk of the run (none
    of them passed every stage)."""
    for stage in stages:
        if not stage.texts or stage.dropped != stage.texts or stage.released:
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
            "chunk) to pass it on; None drops that one chunk.", stage.cp.id, stage.texts,
        )
