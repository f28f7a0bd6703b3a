"""What happens to a step that fails: retried or rolled back.

Two things can retry a step, each within its own limit: a processor that aborts with
``retry=True`` (``max_retries``; the step runs again from ``process_input_step`` with the
reason as feedback) and a ``process_api_error`` implementation that asks for a failed
model call to be made again (``api_error_retries``; only the call is repeated). Either
way the client gets a ``step-retry`` chunk that tells it to discard the attempt. A step
aborted without a retry is rolled back: none of its messages are kept.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk
from tripwire.errors import TripWire
from tripwire.messages import Message, MessageList, signal_message
from tripwire.results import StepResult, tripwire_info

if TYPE_CHECKING:
    from tripwire.agent import Agent
    from tripwire.hooks._binding import Bindings
    from tripwire.hooks._facade import Hooks
    from tripwire.run._call import CallOptions
    from tripwire.stream._pipeline import OutputPipeline

log = logging.getLogger("tripwire")

#: What ``MessageList.checkpoint()`` returns: the state a rejected step rolls back to.
Checkpoint = tuple[list[tuple[Message, str]], list[dict[str, Any]]]

# Chunks that carry a step's content (what a discarded attempt must not leak).
_STEP_CONTENT = frozenset({"text-delta", "reasoning-delta", "tool-call", "tool-result",
                           "tool-error"})


class RetryStep(Exception):
    """A processor asked for the current step to be run again, and the limit allows."""

    def __init__(self, tripwire: TripWire) -> None:
        self.tripwire = tripwire


class StepRetries:
    """The retry limits of one run, and what a retried or rejected step leaves behind."""

    def __init__(
        self, agent: Agent, call: CallOptions, hooks: Hooks, bindings: Bindings,
        pipeline: OutputPipeline, message_list: MessageList, steps: list[StepResult],
        run_id: str,
    ) -> None:
        self._agent = agent
        self._call = call
        self._hooks = hooks
        self._bindings = bindings
        self._pipeline = pipeline
        self._message_list = message_list
        self._steps = steps  # the run's list, appended to as steps are accepted
        self._run_id = run_id

    def maybe_retry(self, tw: TripWire) -> None:
        """Turn a ``retry=True`` abort into a step retry (raise ``RetryStep``) when the
        limit allows; otherwise return and let the abort stand."""
        limit = self._call.max_retries
        if tw.retry and limit is not None and self._bindings.retry_count < limit:
            raise RetryStep(tw) from None

    async def retry(self, tw: TripWire, step_number: int, checkpoint: Checkpoint) -> list[Chunk]:
        """Undo the step ``tw`` aborted and give the model the reason as feedback for
        its next attempt; the ``step-retry`` chunks for the client."""
        if self._steps:  # the step being retried (a retry comes after the step is accepted)
            self._steps[-1].tripwire = tripwire_info(tw)
        self._message_list.rollback(checkpoint)
        self._message_list.add(
            signal_message(tw.reason, attributes={"type": "retry-feedback"}),
            "response",
        )
        self._bindings.set_retry_count(self._bindings.retry_count + 1)
        return await self.discard(step_number, tw.reason, tw.processor_id,
                                  self._bindings.retry_count)

    def reject(self, tw: TripWire, step_number: int, checkpoint: Checkpoint) -> None:
        """A tripped step is not accepted: its messages are not kept, and its result
        (when it got that far) records the tripwire."""
        self._message_list.rollback(checkpoint)
        last = self._steps[-1] if self._steps else None
        if last is not None and last.step_number == step_number and last.tripwire is None:
            last.tripwire = tripwire_info(tw)

    async def api_error(self, error: Exception, step_number: int, retries: int) -> str | None:
        """Run ``process_api_error``; the id of the processor whose retry request is
        granted, or None."""
        cp = await self._hooks.process_api_error(error, self._message_list, step_number,
                                                 self._steps, retries)
        if cp is None:
            return None
        limit = self._call.api_error_retries
        if retries >= limit:
            log.info(
                "API-error retry requested by %r but the limit (%d) is reached", cp.id, limit)
            return None
        if self._call.max_retries is None and cp not in self._agent._defaults:
            self._agent._warn_implicit_retry_budget()
        return cp.id

    async def discard(
        self, step_number: int, reason: str, processor_id: str | None, retry_count: int
    ) -> list[Chunk]:
        """The ``step-retry`` chunk that tells clients to discard the step, after the
        output processors. Content a processor held back from the discarded attempt and
        releases now is dropped with it: it must reach neither the client nor the text."""
        self._pipeline.new_step()
        out = await self._pipeline.emit(Chunk(
            "step-retry",
            {"step_number": step_number, "reason": reason, "processor_id": processor_id,
             "retry_count": retry_count},
            run_id=self._run_id,
        ))
        return [c for c in out if c.type not in _STEP_CONTENT]
