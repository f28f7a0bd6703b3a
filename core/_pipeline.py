"""The output pipeline: every chunk a client receives passes ``process_output_stream``
of the output processors here, in list order, exactly once.

It also carries the ``data-*`` chunks hooks and tools write (``tripwire._writer``), and
keeps the non-transient ones for the step's stored message. Each processor is a
``tripwire._stage.Stage``; with the audit on, ``tripwire._stagestats`` hands what the
stages did to the recorder, step by step.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tripwire import _fastpath
from tripwire._hookcall import (
    FAILED_OPEN,
    BoundHook,
    handle_failure,
    is_coroutine,
    on_tripwire,
)
from tripwire._observe import wall_ns
from tripwire._stage import Stage, warn_dropped_all
from tripwire._stagestats import StageAudit
from tripwire._validation import CompiledProcessor
from tripwire._writer import Writer
from tripwire.chunks import Chunk, check_chunk
from tripwire.errors import TripWire
from tripwire.messages import DataPart, Message, MessageList

if TYPE_CHECKING:
    from tripwire._call_options import Plans

__all__ = ["OutputPipeline", "Writer"]


_NOTHING: Any = object()


class OutputPipeline:
    """The output processors' ``process_output_stream`` for one call."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.recorder: Any = None  # the run's audit/trace Recorder, when on
        self.stages: list[Stage] = []
        self.message_list: MessageList | None = None
        #: data chunks hooks wrote and not yet processed, with the id of their writer
        self.pending: list[tuple[Chunk, str | None]] = []
        #: guard verdicts reported with ``writer.report`` (``result.verdicts``)
        self.verdicts: list[Any] = []
        #: non-transient data parts of the current step, until it has a message
        self.step_data: list[DataPart] = []
        self.current_message: Message | None = None
        self.fast = False
        #: the stages' statistics for the audit, when the run has a ``recorder``
        self.audit: StageAudit | None = None
        #: the fast path's synchronous ``_fastpath.Check``, when there is one: the loop
        #: calls it instead of awaiting ``emit`` (no coroutine per chunk), and
        #: ``went_on`` with what it returned
        self.check: _fastpath.Check | None = None
        #: the fast path's notes: [whether a text chunk passed every stage (then no
        #: stage dropped every text chunk)]
        self.counts: list[Any] = [False]

    def attach(self, bound: Sequence[BoundHook], message_list: MessageList,
               common: Callable[[CompiledProcessor], Mapping[str, Any]],
               plans: Plans | None = None) -> None:
        """The output processors' ``process_output_stream``, in list order; ``common``
        gives a processor's common arguments for this call; ``plans`` is the call's
        ``CallOptions.plans`` (what every call of the same lists shares)."""
        self.message_list = message_list
        self.stages = [Stage(b, message_list, common) for b in bound]
        if self.recorder is not None:
            self.audit = StageAudit(self.recorder, self.stages, plans)
        fast = _fastpath.generate(self, plans)
        if fast is not None:
            through, emit, take, check = fast
            # instance attributes in front of the methods of the same names (the
            # generated functions hold this pipeline through a weak proxy: no cycle)
            vars(self).update(through=through, emit=emit, check=check)
            if self.audit is not None:
                self.audit.take_passed = take
            self.fast = True

    def set_retry_count(self, value: int) -> None:
        """The ``retry_count`` the stages are given from now on."""
        for stage in self.stages:
            stage.set_retry_count(value)

    def writer(self, emitter: CompiledProcessor | None = None) -> Writer:
        """A writer whose chunks skip ``emitter``'s own ``process_output_stream``."""
        return Writer(self, emitter.id if emitter is not None else None)

    def new_step(self) -> None:
        self.flush_stats()
        self.step_data = []
        self.current_message = None

    def flush_stats(self) -> None:
        """Hand each stage's counts of the step to the audit (``StageAudit.flush``)."""
        if self.audit is not None:
            self.audit.flush(self.stages)

    def take_step_data(self) -> list[DataPart]:
        """The step's data parts so far (for its message); later ones go to
        ``current_message``."""
        data, self.step_data = self.step_data, []
        return data

    async def _through(self, chunk: Chunk, skip: str | None = None, start: int = 0,
                       first: Any = _NOTHING) -> list[Chunk]:
        """Pass one chunk through the processors from index ``start`` on; returns what
        comes out (zero, one or more chunks). ``first``, when given, is what stage
        ``start`` returned (or a ``_fastpath.Raised``): the fast path resuming here.

        When a later processor trips on one of several chunks a processor released
        together, the ones before it (which passed every processor) are kept on the
        ``TripWire`` (``_released``) so the client still gets them, in order."""
        stages = self.stages
        kind = chunk.type
        is_data = kind.startswith("data-")
        is_text = kind == "text-delta"
        audit = self.audit
        if audit is not None:
            audit.counted = True  # stage stats to flush
        for i in range(start, len(stages)):
            stage = stages[i]
            if (is_data and not stage.data) or (skip is not None and stage.id == skip):
                continue
            if stage.parts is not None and first is _NOTHING:
                stage.parts.append(chunk)
            if stage.wrapper:
                return await self._wrap(stage, chunk, skip, i)
            if is_text:
                stage.texts += 1
            args = stage.args
            if stage.part_index >= 0:
                args[stage.part_index] = chunk
            if audit is not None:
                stats = stage.counting()
                if not stats.calls and audit.recorder.tracer is not None:
                    stats.first_ns = wall_ns()
                stats.calls += 1
                # One call in 32 is timed (the first always): the duration is estimated
                # from them, so the audit costs little on the per-chunk path. (With the
                # fast path, the chunks it sends here are the one in 32.)
                began = time.perf_counter_ns() if first is _NOTHING and (
                    self.fast or stats.calls & 31 == 1) else 0
            try:
                if first is not _NOTHING:
                    r, first = first, _NOTHING
                    if type(r) is _fastpath.Raised:
                        r.reraise()
                else:
                    r = stage.fn(*args)
                if r is chunk:  # passed on unchanged: the fast path
                    if audit is not None:
                        stats = stage.stats
                        stats.emitted += 1
                        if began:
                            stats.ns += time.perf_counter_ns() - began
                            stats.timed += 1
                    continue
                if r is not None and type(r) is not Chunk and type(r) is not list \
                        and is_coroutine(r):
                    r = await r
                if r is not chunk and r is not None:
                    if type(r) is list:
                        for c in r:
                            check_chunk(c)
                    elif type(r) is Chunk:
                        check_chunk(r)
                    else:
                        raise TypeError(
                            f"process_output_stream must return a Chunk, None or a list of "
                            f"Chunks, got {type(r).__name__}")
            except TripWire as tw:
                if audit is not None:
                    stage.stats.took(began, "retry-requested" if tw.retry else "aborted")
                await on_tripwire(stage.cp, tw)
                raise
            except Exception as e:
                if audit is not None:
                    stage.stats.took(began, "error" if not stage.cp.fail_open else "fail-open")
                handle_failure(stage.cp, "process_output_stream", e)
                r = chunk
            else:
                if audit is not None:
                    stage.stats.took(began, None, r, chunk)
            if type(r) is Chunk:
                if r is not chunk:
                    chunk = r
                    kind = r.type
                    is_data = kind.startswith("data-")
                    is_text = kind == "text-delta"
                continue
            if r is None:
                if is_text:
                    stage.dropped += 1
                return []
            # Several chunks: each passes the later processors on its own.
            stage.released = True
            if i + 1 == len(stages):  # (none after this one: they are out as they are)
                return list(r)
            out: list[Chunk] = []
            for c in r:
                try:
                    out.extend(await self._through(c, skip, i + 1))
                except TripWire as tw:
                    tw._released = out + getattr(tw, "_released", [])  # type: ignore[attr-defined]
                    raise
            return out
        return [chunk]

    async def _wrap(self, stage: Stage, chunk: Chunk, skip: str | None, i: int) -> list[Chunk]:
        """A wrapper stage: its code before ``yield`` sees the chunk, ``result = yield``
        receives the chunks the processors after it emitted, and it may return a
        replacement list (which goes to the client as it is)."""
        gen = await stage.bound.start({"part": lambda _: chunk, "stream_parts": lambda _: stage.parts,
                                       "message_list": lambda _: self.message_list}, None)
        if gen is FAILED_OPEN:
            return await self._through(chunk, skip, i + 1)
        try:
            out = await self._through(chunk, skip, i + 1)
        except BaseException:
            stage.bound.close(gen)
            raise
        replacement = await stage.bound.finish(gen, list(out))
        if replacement is None or replacement is FAILED_OPEN:
            return out
        try:
            if type(replacement) is not list:
                raise TypeError(f"a process_output_stream wrapper returns None or a list of "
                                f"Chunks, got {type(replacement).__name__}")
            for c in replacement:
                check_chunk(c)
        except Exception as e:
            handle_failure(stage.cp, "process_output_stream", e)
            return out
        stage.released = True
        return replacement

    #: ``through(chunk, skip=None, start=0)``: one chunk through the processors from
    #: index ``start`` on; ``emit(chunk)``: that, then the data chunks hooks wrote
    #: meanwhile. ``attach`` puts the generated fast path in front of both.
    through = _through

    async def _resume(self, chunk: Chunk, i: int, result: Any) -> list[Chunk]:
        """The fast path left at stage ``i`` with its ``result``: the stages before it
        passed the chunk (counted here), the general loop goes on from ``i``."""
        is_text = chunk.type == "text-delta"
        audit = self.audit
        if audit is not None:
            audit.counted = True
            audit.left_fast += 1
        for stage in self.stages[:i]:
            if is_text:
                stage.texts += 1
            if audit is not None:
                stats = stage.counting()
                stats.calls += 1
                stats.emitted += 1
        return await self._through(chunk, None, i, result)

    async def _resume_emit(self, chunk: Chunk, i: int, result: Any) -> list[Chunk]:
        return await self._after_fast(await self._resume(chunk, i, result))

    def released_at_once(self, left: tuple[Chunk, int, Any]) -> list[Chunk] | None:
        """``went_on(chunk, left)``'s result when it needs no await: the last stage
        returned a list of well-formed chunks (a hold-back guard releasing text),
        nothing is pending and no audit counts. ``None``: await ``went_on``."""
        chunk, i, result = left
        stages = self.stages
        if (type(result) is not list or i != len(stages) - 1 or self.pending
                or self.audit is not None or stages[i].wrapper):
            return None
        data = False
        try:
            for c in result:
                check_chunk(c)
                if c.type.startswith("data-"):
                    data = True
        except ValueError:
            return None  # (the general loop reports it as the stage's failure)
        if chunk.type == "text-delta":  # (as ``_resume`` and ``_through`` count it)
            for stage in stages:
                stage.texts += 1
        stages[i].released = True
        if data:
            for c in result:
                self._observe(c)
        return list(result)

    async def went_on(self, chunk: Chunk, left: tuple[Chunk, int, Any] | None) -> list[Chunk]:
        """``emit(chunk)``'s result after ``check(chunk)`` returned ``left``: the general
        loop from the stage that did not pass the chunk, or (None: all passed it) the
        data chunks they wrote meanwhile."""
        if left is None:
            return await self._after_fast([chunk])
        return await self._resume_emit(*left)

    async def _after_fast(self, out: list[Chunk]) -> list[Chunk]:
        """``emit``'s end: the data chunks hooks wrote meanwhile, then what is stored."""
        if self.pending:
            out.extend(await self._drain())
        for c in out:
            self._observe(c)
        return out

    async def _emit(self, chunk: Chunk) -> list[Chunk]:
        """Process a chunk, then any data chunks hooks wrote meanwhile."""
        if not self.stages and not self.pending:  # nothing to run: the common fast path
            if chunk.type.startswith("data-"):
                self._observe(chunk)
            return [chunk]
        out = await self.through(chunk)
        if self.pending:
            out.extend(await self._drain())
        for c in out:
            self._observe(c)
        return out

    emit = _emit

    async def flush(self) -> list[Chunk]:
        """Data chunks written by non-stream hooks, processed and ready to yield."""
        if not self.pending:
            return []
        out = await self._drain()
        for c in out:
            self._observe(c)
        return out

    async def _drain(self) -> list[Chunk]:
        out: list[Chunk] = []
        while self.pending:
            chunk, emitter = self.pending.pop(0)
            out.extend(await self.through(chunk, skip=emitter))
        return out

    def _observe(self, chunk: Chunk) -> None:
        # Non-transient data chunks are stored on the current step's assistant message
        # (buffered until the step has one).
        if chunk.type.startswith("data-") and not chunk.transient:
            part = DataPart(chunk.type, chunk.payload.get("data"))
            if self.current_message is not None:
                self.current_message.content.parts.append(part)
            else:
                self.step_data.append(part)

    def warn_if_dropped_all(self) -> None:
        """Name, once per processor, one that dropped every text chunk of the run."""
        if not self.counts[0]:  # (else a text chunk passed every stage)
            warn_dropped_all(self.stages)
