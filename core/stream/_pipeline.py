"""The output pipeline: every chunk a client receives passes ``process_output_stream``
of the output processors here, in list order, exactly once.

The stages are called by the per-chunk path ``tripwire.stream._fastpath`` generates for them;
what a stage's return means is ``tripwire.stream._stage.Stage.settle``; ``left`` joins the two
when a stage returns anything but the chunk it was given. The pipeline also carries the
``data-*`` chunks hooks and tools write (``tripwire.stream._writer``), and keeps the
non-transient ones for the step's stored message. With the audit on,
``tripwire.observe._stagestats`` hands what the stages did to the recorder, step by step.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from tripwire.chunks import FRAMEWORK_TYPES, Chunk, check_chunk
from tripwire.errors import TripWire
from tripwire.hooks._binding import stream_processors
from tripwire.hooks._call import FAILED_OPEN, BoundHook, handle_failure, is_coroutine, on_tripwire
from tripwire.hooks._validation import CompiledProcessor
from tripwire.messages import DataPart, Message, MessageList
from tripwire.observe._stagestats import StageAudit
from tripwire.stream import _fastpath
from tripwire.stream._fastpath import Raised
from tripwire.stream._stage import Stage, warn_dropped_all
from tripwire.stream._writer import Writer

if TYPE_CHECKING:
    from tripwire.run._call import CallOptions, Plans

__all__ = ["OutputPipeline", "Writer", "pipeline_type"]

#: What ``push`` returns: None (the chunk passed every stage unchanged), the chunks
#: that come out, or an awaitable of them.
Pushed = list[Chunk] | Awaitable[list[Chunk]] | None


def _passed(pipeline: OutputPipeline, chunk: Chunk, skip: str | None = None) -> None:
    """The per-chunk path of a pipeline without stages."""
    return None


def pipeline_type(call: CallOptions, recorder: Any = None) -> type[OutputPipeline]:
    """The class of ``call``'s output pipeline: ``OutputPipeline`` when no output
    processor implements ``process_output_stream``, else the subclass whose ``push``
    and per-stage paths ``tripwire.stream._fastpath`` generated for those stages. Made
    once per list of processors (``call.plans``) and per audit setting: whether the
    run's ``recorder`` counts calls, and whether it traces."""
    audited = recorder is not None
    key = (audited, audited and recorder.tracer is not None)
    plans = call.plans
    found = plans.pipelines.get(key)
    if found is None:
        stages = stream_processors(call)
        found = OutputPipeline
        if stages:
            push, runs, data_runs = _fastpath.generate(stages, *key)
            found = type("OutputPipeline", (OutputPipeline,), {
                "__slots__": (), "__module__": __name__, "__doc__": OutputPipeline.__doc__,
                "push": push, "_runs": runs, "_data_runs": data_runs,
                "_reads_stages": _fastpath.reads_stages(stages)})
        plans.pipelines[key] = found
    return found


def _no_common(cp: CompiledProcessor) -> Mapping[str, Any]:
    """A stage made after its run started binds nothing of the run (see ``stages``)."""
    raise AssertionError(f"stage {cp.id!r} asked for the run's arguments")


class OutputPipeline:
    """The output processors' ``process_output_stream`` for one call (an instance of
    the class ``pipeline_type`` gives for the call)."""

    #: the generated per-chunk path (``tripwire.stream._fastpath``), per stage to start
    #: at: ``_runs[i](pipeline, chunk)``, ``_data_runs[i](pipeline, chunk, skip)``
    _runs: tuple[_fastpath.Run, ...] = (_passed,)
    _data_runs: tuple[_fastpath.Run, ...] = (_passed,)
    #: the generated path reads the run's stages for each chunk (a stage's arguments
    #: of the run, its ``stream_parts``): they are made with the pipeline
    _reads_stages = False

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.recorder: Any = None  # the run's audit/trace Recorder, when on
        #: the output processors' stages of this run, made when first needed (most runs
        #: with plain stages need none: ``stages``); ``staged`` says there are some
        self._stages: list[Stage] | None = []
        self.staged = False
        self._bound: Sequence[BoundHook] = ()
        self.message_list: MessageList | None = None
        #: data chunks hooks wrote and not yet processed, with the id of their writer
        self.pending: list[tuple[Chunk, str | None]] = []
        #: guard verdicts reported with ``writer.report`` (``result.verdicts``)
        self.verdicts: list[Any] = []
        #: non-transient data parts of the current step, until it has a message
        self.step_data: list[DataPart] = []
        self.current_message: Message | None = None
        #: the stages' statistics for the audit, when the run has a ``recorder``
        self.audit: StageAudit | None = None
        #: per stage to start at: a text chunk passed every stage from there on
        self.kept_from_start: list[bool] = [False]
        #: with the audit on, chunks until the next one timed stage by stage
        self.countdown = 1

    def attach(self, bound: Sequence[BoundHook], message_list: MessageList,
               common: Callable[[CompiledProcessor], Mapping[str, Any]],
               plans: Plans | None = None) -> None:
        """The output processors' ``process_output_stream``, in list order; ``common``
        gives a processor's common arguments for this call; ``plans`` is the call's
        ``CallOptions.plans`` (what every call of the same lists shares)."""
        self.message_list = message_list
        self.staged = bool(bound)
        self.kept_from_start = [False] * (len(bound) + 1)
        if not bound:
            return
        if self.recorder is not None:
            self._stages = [Stage(b, message_list, common) for b in bound]
            self.audit = StageAudit(self.recorder, self._stages, plans)
        elif self._reads_stages:
            self._stages = [Stage(b, message_list, common) for b in bound]
        else:  # made when first needed (``stages``); they bind nothing of the run
            self._bound = bound
            self._stages = None

    @property
    def stages(self) -> list[Stage]:
        """The stages of this run, made on first use (a stage keeps what its processor
        did over the run: ``Stage``)."""
        stages = self._stages
        if stages is None:
            assert self.message_list is not None
            stages = self._stages = [Stage(b, self.message_list, _no_common)
                                     for b in self._bound]
        return stages

    def set_retry_count(self, value: int) -> None:
        """The ``retry_count`` the stages are given from now on (stages not made yet
        read it when they are)."""
        for stage in self._stages or ():
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

    # -- a chunk to the client
    def push(self, chunk: Chunk) -> Pushed:
        """``chunk`` through every stage, then the data chunks hooks wrote meanwhile:
        None when it passed every stage unchanged and nothing was pending (send the
        chunk itself), else the chunks to send, or an awaitable of them. The
        non-transient data chunks among them are stored (``current_message``).

        A pipeline with stages has this method generated for them (``pipeline_type``),
        which does the same with each stage called in turn; without stages a chunk
        goes on as it is."""
        kind = chunk.type  # (a framework type is never ``data-*``: no string search)
        if self.pending or (kind not in FRAMEWORK_TYPES and kind.startswith("data-")):
            return self._emit(chunk)
        return None

    def _pushed(self, out: list[Chunk] | Awaitable[list[Chunk] | None], chunk: Chunk
                ) -> list[Chunk] | Awaitable[list[Chunk]]:
        """What ``push`` returns for ``chunk`` when a stage did not pass it on: ``out``,
        what came out of the stages (or an awaitable of it), with the data chunks hooks
        wrote meanwhile when it must be awaited, each non-transient one stored."""
        if type(out) is not list:
            return self._emitted(out, chunk)  # type: ignore[arg-type]
        for c in out:
            self._observe(c)
        return out

    async def emit(self, chunk: Chunk) -> list[Chunk]:
        """``push``, awaited: the chunks to send."""
        out = self.push(chunk)
        if out is None:
            return [chunk]
        return out if isinstance(out, list) else await out

    async def through(self, chunk: Chunk, skip: str | None = None, start: int = 0
                      ) -> list[Chunk]:
        """One chunk through the stages from index ``start`` on (all but ``skip``'s):
        what comes out (zero, one or more chunks). When a later stage trips on one of
        several chunks a stage released together, the ones before it (which passed
        every stage) are kept on the ``TripWire`` (``_released``) so the client still
        gets them, in order."""
        out = self._from(start, chunk, skip)
        if out is None:
            return [chunk]
        if type(out) is list:
            return out
        return await self._resolved(out, chunk)

    async def flush(self) -> list[Chunk]:
        """Data chunks written by non-stream hooks, processed and ready to yield."""
        if not self.pending:
            return []
        out = await self._drain()
        for c in out:
            self._observe(c)
        return out

    async def _emit(self, chunk: Chunk) -> list[Chunk]:
        out = await self.through(chunk)
        if self.pending:
            out.extend(await self._drain())
        for c in out:
            self._observe(c)
        return out

    async def _emitted(self, out: Awaitable[list[Chunk] | None], chunk: Chunk) -> list[Chunk]:
        done = await self._resolved(out, chunk)
        if self.pending:
            done.extend(await self._drain())
        for c in done:
            self._observe(c)
        return done

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

    # -- the per-chunk path's way out (``tripwire.stream._fastpath``)
    def _from(self, start: int, chunk: Chunk, skip: str | None) -> Any:
        """The generated path for ``chunk`` from stage ``start`` on."""
        if skip is None and not chunk.type.startswith("data-"):
            return self._runs[start](self, chunk)
        return self._data_runs[start](self, chunk, skip)

    def left(self, i: int, chunk: Chunk, result: Any, skip: str | None, began: int,
             start: int) -> list[Chunk] | Awaitable[Any]:
        """Stage ``i`` returned ``result`` for ``chunk`` (not the chunk itself; a
        ``Raised`` when it raised), which stages ``start`` to ``i - 1`` passed on
        unchanged: what comes out of the pipeline (or an awaitable of it).
        ``began``: when the call was timed (the audit), its start."""
        stages = self.stages
        stage = stages[i]
        if start < i and chunk.type == "text-delta":
            for passed in stages[start:i]:
                passed.kept_text = True
        out: Chunk | list[Chunk] | None
        if type(result) is Raised:
            error = result.take()
            if isinstance(error, TripWire):
                return self._tripped(stage, chunk, error, began)
            out = stage.failed(chunk, error, began)
        elif (result is not None and type(result) is not Chunk and type(result) is not list
              and is_coroutine(result)):
            return self._awaited(i, chunk, result, skip, began)
        else:
            out = stage.settle(chunk, result, began)
        return self._after(i, out, skip)

    def kept_from(self, start: int) -> None:
        """A text chunk passed every stage from ``start`` on (each of them kept one)."""
        self.kept_from_start[start] = True

    def _after(self, i: int, out: Chunk | list[Chunk] | None, skip: str | None
               ) -> list[Chunk] | Awaitable[list[Chunk]]:
        """What comes out of the stages after ``i`` for what stage ``i`` settled on."""
        if type(out) is Chunk:
            res = self._from(i + 1, out, skip)
            if res is None:
                return [out]
            return res if type(res) is list else self._resolved(res, out)
        if out is None:
            return []
        if i + 1 == len(self.stages):  # (none after this one: they are out as they are)
            return list(out)  # type: ignore[arg-type]
        return self._released(i + 1, out, skip)  # type: ignore[arg-type]

    def _released(self, start: int, chunks: list[Chunk], skip: str | None
                  ) -> list[Chunk] | Awaitable[list[Chunk]]:
        """Chunks a stage released together, each through the stages from ``start``."""
        out: list[Chunk] = []
        for k, c in enumerate(chunks):
            res = self._from(start, c, skip)
            if res is None:
                out.append(c)
            elif type(res) is list:
                out.extend(res)
            else:
                return self._released_later(start, chunks, k, res, out, skip)
        return out

    async def _released_later(self, start: int, chunks: list[Chunk], k: int, res: Any,
                              out: list[Chunk], skip: str | None) -> list[Chunk]:
        """``_released`` from chunk ``k`` on, whose path ``res`` must be awaited."""
        try:
            out.extend(await self._resolved(res, chunks[k]))
            for c in chunks[k + 1:]:
                res = self._from(start, c, skip)
                out.extend([c] if res is None else res if type(res) is list
                           else await self._resolved(res, c))
        except TripWire as tw:
            tw._released = out + getattr(tw, "_released", [])  # type: ignore[attr-defined]
            raise
        return out

    async def _resolved(self, res: Awaitable[list[Chunk] | None], chunk: Chunk
                        ) -> list[Chunk]:
        out = await res
        return [chunk] if out is None else out

    async def _awaited(self, i: int, chunk: Chunk, awaitable: Any, skip: str | None,
                       began: int) -> list[Chunk]:
        """``left`` for a stage that returned an awaitable."""
        stage = self.stages[i]
        out: Chunk | list[Chunk] | None
        try:
            result = await awaitable
        except TripWire as tw:
            stage.tripped(chunk, tw.retry, began)
            await on_tripwire(stage.cp, tw)
            raise
        except Exception as e:
            out = stage.failed(chunk, e, began)
        else:
            if (result is not None and type(result) is not Chunk and type(result) is not list
                    and is_coroutine(result)):
                return await self._awaited(i, chunk, result, skip, began)
            out = stage.settle(chunk, result, began)
        res = self._after(i, out, skip)
        return res if isinstance(res, list) else await res

    async def _tripped(self, stage: Stage, chunk: Chunk, tw: TripWire, began: int) -> NoReturn:
        """``left`` for a stage that aborted."""
        stage.tripped(chunk, tw.retry, began)
        try:
            await on_tripwire(stage.cp, tw)
            raise tw
        finally:
            # The tripwire's traceback holds this frame: without this the frame's
            # ``tw`` would keep the run alive in a cycle until the garbage collector ran.
            del tw

    async def wrap(self, i: int, chunk: Chunk, skip: str | None) -> list[Chunk]:
        """Stage ``i`` is a wrapper: its code before ``yield`` sees the chunk,
        ``result = yield`` receives the chunks the stages after it emitted, and it may
        return a replacement list (which goes to the client as it is)."""
        stage = self.stages[i]
        gen = await stage.bound.start({"part": lambda _: chunk, "stream_parts": lambda _: stage.parts,
                                       "message_list": lambda _: self.message_list}, None)
        if gen is FAILED_OPEN:
            return await self.through(chunk, skip, i + 1)
        try:
            out = await self.through(chunk, skip, i + 1)
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

    def warn_if_dropped_all(self) -> None:
        """Name, once per processor, one that dropped every text chunk of the run."""
        if not self.kept_from_start[0] and self._stages:  # (else a text chunk passed
            warn_dropped_all(self._stages, self.kept_from_start)  # every stage / none dropped)
