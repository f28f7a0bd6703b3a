"""How a run ends: its last stages, what the client is told last, what the caller gets.

After the last step the ``finish`` chunk passes the output processors, then
``process_output_result`` sees the whole response (it may reject it, or set the text and
object the caller gets); an ``object-result`` chunk and the ``finish`` chunk go out
last. A run a processor stopped ends with a ``tripwire`` chunk instead, one that failed
with an ``error`` chunk. ``result`` is the ``GenerateResult`` of any of them.

These functions read and set the state a ``Run`` owns (text, finish reason, tripwire);
``Run.events()`` calls them in the order above.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from tripwire.chunks import Chunk
from tripwire.errors import TripWire
from tripwire.results import GenerateResult, OutputResult, response_text, tripwire_info

if TYPE_CHECKING:
    from tripwire.run._loop import Run
    from tripwire.run._step_retry import Checkpoint

log = logging.getLogger("tripwire")


async def finish_chunks(run: Run) -> tuple[list[Chunk], list[Chunk]]:
    """End the step loop: the response's text (read after ``process_output_result``
    when a processor implements it) and finish reason so far, and the
    ``finish`` chunk through the output processors, as (the chunks they released with
    it, for the client now; the ``finish`` chunk, for the client last). ``finish``
    passes the stream processors before process_output_result runs (state they write on
    it is visible there) but reaches the client last."""
    pipeline = run.pipeline
    pipeline.flush_stats()
    run.start_step(None)
    if "process_output_result" not in run.hooks.output_hooks:  # (else: ``output_result``)
        run.text = response_text(run.message_list)
    run.finish_reason = run.steps[-1].finish_reason if run.steps else "unknown"
    now: list[Chunk] = []
    finish: list[Chunk] = []
    for c in () if run.unseen() else await pipeline.emit(Chunk(
        "finish", {"finish_reason": run.finish_reason, "usage": run.usage},
        run_id=run.run_id,
    )):
        if c.type == "finish":
            finish.append(c)
        else:
            now.append(c)
    return now, finish


async def output_result(run: Run, run_start: Checkpoint
                        ) -> tuple[OutputResult | None, list[Chunk]]:
    """Run ``process_output_result`` on the whole response: what it left (None when no
    processor implements it), and the chunks hooks wrote meanwhile. A rejected
    response is rolled back to ``run_start``: none of it is kept or returned."""
    hooks = run.hooks
    if "process_output_result" not in hooks.output_hooks:
        pipeline = run.pipeline
        return None, await pipeline.flush() if pipeline.pending else []
    output = OutputResult("", run.usage, run.finish_reason, list(run.steps))
    output._follow(run.message_list)  # (its text, read from the messages when asked for)
    try:
        await hooks.process_output_result(run.message_list, output)
    except TripWire:
        run.response_rejected = True
        run.message_list.rollback(run_start)
        raise
    pipeline = run.pipeline
    return output, await pipeline.flush() if pipeline.pending else []


def take_output(run: Run, output: OutputResult | None) -> object:
    """Take the text and object ``process_output_result`` left; the object (None when
    there is none)."""
    if output is None:  # (no process_output_result: the text is the response's)
        return None
    # the response's text after process_output_result (or what a processor set for the
    # caller when the stored messages hold something else)
    run.text = output.text if output.caller_text is None else output.caller_text
    run.object = output.object
    return output.object


async def object_chunks(run: Run) -> list[Chunk]:
    """The ``object-result`` chunk of the run's object, after the output processors.
    The caller gets the object the chunk carries when it leaves them (as a tool runs
    with the arguments of the ``tool-call`` chunk they return): one a guard masked is
    masked in ``result.object`` too, one dropped is ``None`` there, whatever the order
    of the processors that set and checked it; a run one of them stops has none."""
    chunk = Chunk("object-result", {"object": run.object}, run_id=run.run_id)
    run.object = None
    out = await run.pipeline.emit(chunk)
    run.object = next((c.payload.get("object") for c in reversed(out)
                       if c.type == "object-result"), None)
    return out


def tripwire_chunks(run: Run, tw: TripWire) -> list[Chunk]:
    """Record that ``tw`` stopped the run; the chunks that tell the client. Chunks
    released together with the one that tripped, and that passed every processor,
    still reach the client, before the tripwire."""
    run.tripwire = info = tripwire_info(tw)
    run.finish_reason = "other"
    run.text = "" if run.response_rejected else response_text(run.message_list)
    out: list[Chunk] = list(getattr(tw, "_released", ()))
    payload = {"reason": tw.reason, "retry": tw.retry, "metadata": tw.metadata,
               "processor_id": tw.processor_id}
    if info.model_call_cancelled:
        payload["model_call_cancelled"] = True
    out.append(Chunk("tripwire", payload, run_id=run.run_id))
    return out


async def error_chunks(run: Run, error: Exception) -> list[Chunk]:
    """The ``error`` chunk, after the output processors (once). A processor may
    change it but not swallow it: dropped, tripped or failed, the original is sent."""
    chunk = Chunk("error", {"error": error}, run_id=run.run_id)
    try:
        out = await run.pipeline.through(chunk)
    except Exception:  # TripWire included
        log.debug(
            "an output processor failed on the error chunk; sending the original",
            exc_info=True)
        out = []
    if not any(c.type == "error" for c in out):
        out.append(chunk)
    return out


def text_so_far(run: Run) -> str:
    """The text of a run closed early: accepted steps, plus what the current step
    had streamed."""
    text = response_text(run.message_list)
    if run.current_acc is not None:
        text += run.current_acc.text()
    return text


async def stop_checks(run: Run) -> None:
    """Stop the checks that never got to run beside a model call (the run ended
    before it)."""
    for task in run.guards:
        task.cancel()
    await asyncio.gather(*run.guards, return_exceptions=True)


def close(run: Run, error: BaseException | None) -> None:
    """However the run ended (after ``stop_checks``): warn about a processor that
    dropped every text chunk, close the audit record (``error`` when it failed) and
    drop the processors' per-call state."""
    pipeline = run.pipeline
    pipeline.warn_if_dropped_all()
    if run.recorder is not None:
        pipeline.flush_stats()
        run.recorder.end_run(
            finish_reason=run.finish_reason,
            tripwire_by=run.tripwire.processor_id if run.tripwire else None,
            error=error)
    run.bindings.drop_states(run.monitors)


def result(run: Run) -> GenerateResult:
    """What ``generate()`` returns (and a stream's awaitables read)."""
    message_list = run.message_list
    # (in GenerateResult's field order: text, finish reason, usage, steps, messages,
    # message list, tripwire, object, run id, audit (records made when read), verdicts)
    return GenerateResult(
        run.text, run.finish_reason, run.usage, list(run.steps),
        message_list.response.db(), message_list, run.tripwire, run.object, run.run_id,
        run.recorder if run.recorder is not None else [], run.pipeline.verdicts,
    )
