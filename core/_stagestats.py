"""What the output pipeline's stages did with the chunks of each step, for the audit
(``result.audit``, OpenTelemetry spans): ``StepStats`` per stage, counted by the
pipeline's general loop, and ``StageAudit``, which adds what the fast path saw and
hands each step's counts to the run's recorder.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tripwire._call_options import Plans
    from tripwire._stage import Stage


class StepStats:
    """What one stage did with the chunks of one step in the general loop (for the
    audit; made when that loop first counts a chunk of the stage: ``Stage.counting``).

    The counts start at the class's zeros: nothing is set until counted."""

    calls = ns = timed = dropped = modified = emitted = first_ns = 0
    outcome: str | None = None

    def reset(self) -> None:
        """Start the next step's counts."""
        vars(self).clear()

    def duration_ns(self) -> int:
        """The time spent in the stage this step, estimated from the timed calls."""
        return self.ns * self.calls // self.timed if self.timed else 0

    def took(self, began: int, outcome: str | None, result: Any = None,
             chunk: Any = None) -> None:
        if began:
            self.ns += time.perf_counter_ns() - began
            self.timed += 1
        if outcome is not None:
            self.outcome = outcome
        elif result is None:
            self.dropped += 1
        elif type(result) is list:
            self.emitted += len(result)
            # a change, or several released; the chunk itself (equal, in a list) is none
            if len(result) != 1 or (result[0] is not chunk and result[0] != chunk):
                self.modified += 1
        else:
            self.emitted += 1
            if result is not chunk and result != chunk:  # by value: an equal copy is none
                self.modified += 1

    def final_outcome(self) -> str:
        if self.outcome is not None:
            return self.outcome
        if self.modified:
            return "modified"
        return "dropped" if self.dropped else "passed"


#: the stats of a stage the general loop has not counted a chunk of (never written)
UNCOUNTED = StepStats()


class StageAudit:
    """The pipeline's stage statistics over a run with the audit on: handed to the
    recorder step by step (``flush``)."""

    __slots__ = ("recorder", "counted", "left_fast", "timings", "stage_ids", "take_passed")

    def __init__(self, recorder: Any, stages: Sequence[Stage],
                 plans: Plans | None = None) -> None:
        self.recorder = recorder
        #: the general loop counted chunks in stage stats since the last flush
        self.counted = False
        #: chunks that left the fast path since the last flush (it counts all it saw)
        self.left_fast = 0
        #: the fast path's timed chunks over the run: per stage, the ns spent and the
        #: number timed (``[ns0, timed0, ns1, timed1, ...]``)
        self.timings: list[int] = [0] * (2 * len(stages))
        ids = plans.stage_ids if plans is not None else None
        if ids is None:
            ids = tuple([stage.id for stage in stages])
            if plans is not None:
                plans.stage_ids = ids
        self.stage_ids: tuple[str, ...] = ids
        #: the chunks the fast path saw since it was last called (none without it:
        #: ``OutputPipeline.attach`` puts the generated counter here)
        self.take_passed: Callable[[], int] = _none_passed

    def flush(self, stages: Sequence[Stage]) -> None:
        """Hand each stage's counts of the step to the recorder (one record each, or
        one note for all stages when only the fast path saw chunks)."""
        fast = self.take_passed() - self.left_fast  # those that passed every stage
        self.left_fast = 0
        recorder = self.recorder
        if not (fast or self.counted):
            return  # no chunk since the last flush
        sink = recorder.sink
        if not self.counted and sink is not None:
            # Only the fast path saw chunks, all passed unchanged: one note for every
            # stage, made into records when the audit is read (``Recorder.records``),
            # with the run's timings as they are then.
            sink.append((self.stage_ids, recorder.step, fast, self.timings))
            return
        self.counted = False
        timings = self.timings
        for i, stage in enumerate(stages):
            stats = stage.stats
            timed = timings[2 * i + 1]
            fast_ns = timings[2 * i] * fast // timed if timed else 0
            if not stats.calls:  # only the fast path saw chunks: all passed unchanged
                if fast:
                    recorder.record(stage.id, "process_output_stream", 0, fast_ns, "passed",
                                    "blocking", ..., fast, 0, 0, fast)
                continue
            duration = stats.duration_ns() + fast_ns
            stats.calls += fast
            stats.emitted += fast
            recorder.record(stage.id, "process_output_stream", stats.first_ns, duration,
                            stats.final_outcome(), "blocking", ..., stats.calls, stats.dropped,
                            stats.modified, stats.emitted)
            stats.reset()


def _none_passed() -> int:
    """``StageAudit.take_passed`` without a fast path: it saw no chunk."""
    return 0
