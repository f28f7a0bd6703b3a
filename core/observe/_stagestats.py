"""What the output pipeline's stages did with each step's chunks, for the audit.

What the output pipeline's stages did with the chunks of each step, for the audit
(``result.audit``, OpenTelemetry spans): each stage's counts of the step
(``Stage.counts``) and the calls timed over the run (``Stage.timings``: one chunk in 32,
the run's first always), handed to the run's recorder step by step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tripwire.stream._stage import CALLS, DROPPED, EMITTED, FIRST_NS, MODIFIED

if TYPE_CHECKING:
    from tripwire.run._call import Plans
    from tripwire.stream._stage import Stage


class StageAudit:
    """The pipeline's stage statistics over a run with the audit on: handed to the
    recorder step by step (``flush``)."""

    __slots__ = ("recorder", "stage_ids")

    def __init__(self, recorder: Any, stages: Sequence[Stage],
                 plans: Plans | None = None) -> None:
        self.recorder = recorder
        for stage in stages:
            stage.counts = [0] * 5
        ids = plans.stage_ids if plans is not None else None
        if ids is None:
            ids = tuple([stage.id for stage in stages])
            if plans is not None:
                plans.stage_ids = ids
        self.stage_ids: tuple[str, ...] = ids

    def flush(self, stages: Sequence[Stage]) -> None:
        """Hand each stage's counts of the step to the recorder (one record each, or
        one note for all stages when every chunk passed every stage unchanged)."""
        if not any(stage.counts[CALLS] for stage in stages):  # type: ignore[index]
            return  # no chunk since the last flush
        recorder = self.recorder
        sink = recorder.sink
        first = stages[0].counts[CALLS]  # type: ignore[index]
        if sink is not None and all(
                s.outcome is None and s.counts[CALLS] == s.counts[EMITTED] == first  # type: ignore[index]
                and not s.counts[MODIFIED] and not s.counts[DROPPED] for s in stages):  # type: ignore[index]
            # One note for every stage, made into records when the audit is read
            # (``Recorder.records``), with the run's timings as they are then.
            sink.append((self.stage_ids, recorder.step, first, _Timings(stages)))
            for stage in stages:
                stage.counts[CALLS] = stage.counts[EMITTED] = 0  # type: ignore[index]
            return
        for stage in stages:
            counts = stage.counts
            assert counts is not None
            calls = counts[CALLS]
            if calls:
                ns, timed = stage.timings
                outcome = stage.outcome or (
                    "modified" if counts[MODIFIED] else "dropped" if counts[DROPPED]
                    else "passed")
                recorder.record(stage.id, "process_output_stream", counts[FIRST_NS],
                                ns * calls // timed if timed else 0, outcome, "blocking", ...,
                                calls, counts[DROPPED], counts[MODIFIED], counts[EMITTED])
            counts[:] = [0] * 5
            stage.outcome = None


class _Timings:
    """The run's timings of the stages, read when the audit is read: ``[ns0, timed0,
    ns1, timed1, ...]`` (the sequence ``Recorder.records`` indexes)."""

    __slots__ = ("_stages",)

    def __init__(self, stages: Sequence[Stage]) -> None:
        self._stages = stages

    def __getitem__(self, index: int) -> int:
        return self._stages[index // 2].timings[index % 2]
