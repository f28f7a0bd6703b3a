"""The output pipeline's per-chunk fast path, generated once per run.

Most chunks pass every output processor unchanged. For them, ``OutputPipeline.through``
(a loop that looks up each stage's settings per chunk) is replaced by a function
generated for the run's stages, as attrs generates ``__init__``: one straight line of
calls, each implementation called with its arguments bound as constants (``part`` the
only one that changes, ``retry_count`` read live), each result compared with the chunk.

The moment anything else happens (a stage returns something other than the chunk it
was given, raises, or the chunk is a ``data-*`` chunk, or starts further down the list)
the chunk goes on through the general loop, from the stage where it left the fast path,
with that stage's result: the general loop stays the one place that decides what a
result means. With the audit on, the fast path counts the chunks it saw (those that
passed every stage are added to each stage's counts when the step's stats are flushed)
and times one chunk in 32 (the run's first always) stage by stage, into the pipeline's
``audit.timings``: a stage's time in a step is estimated from its average over the run;
with OpenTelemetry spans on, and with a wrapper among the stages, there is no fast
path.
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable
from time import perf_counter_ns
from types import CoroutineType
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from tripwire._call_options import Plans
    from tripwire._pipeline import OutputPipeline
    from tripwire.chunks import Chunk

Through = Callable[..., Awaitable[list["Chunk"]]]
#: ``check(chunk)``: every stage in turn, synchronously (when no stage is ``async``);
#: None when the chunk passed them all unchanged, else ``(chunk, i, result)`` for
#: ``OutputPipeline._resume_emit`` (stage ``i`` returned ``result``)
Check = Callable[["Chunk"], "tuple[Chunk, int, Any] | None"]
#: ``(through, emit, take, check or None)``
Fast = tuple[Through, Through, Callable[[], int], Check | None]


class Raised:
    """A stage's exception, handed to the general loop as that stage's result."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error: Exception | None = error

    def reraise(self) -> NoReturn:
        """Raise the stage's exception, keeping no reference to it here or in this
        frame (its traceback holds the frames: a reference would make a cycle that keeps
        the run alive until the garbage collector runs)."""
        error, self.error = self.error, None
        assert error is not None
        try:
            raise error
        finally:
            del error


#: the generated ``make`` functions, by the shape of the stages they serve
_made: dict[tuple[Any, ...], Callable[..., Fast]] = {}


def generate(pipeline: OutputPipeline, plans: Plans | None = None) -> Fast | None:
    """``(through, emit, take, check)`` for the pipeline's stages, or None when it has no
    fast path; ``take()`` gives the number of chunks the fast path saw since it was last
    called (counted with the audit on, else 0) and starts the step's count again (those
    that left it are counted by ``OutputPipeline._resume``);
    ``check`` (``Check``) is None when some stage is ``async``.

    ``plans``: the agent's ``CallOptions.plans`` when the call runs the agent's own
    lists (the same stages every call): the generated function is looked up there."""
    stages = pipeline.stages
    recorder = pipeline.recorder
    if not stages or (recorder is not None and recorder.tracer is not None):
        return None
    sampled = recorder is not None
    make: Callable[..., Fast] | None = (
        plans.fast_paths.get(sampled, _UNPLANNED) if plans is not None else _UNPLANNED)
    if make is _UNPLANNED:
        make = _make_for(stages, sampled)
        if plans is not None:
            plans.fast_paths[sampled] = make
    if make is None:
        return None
    # A weak proxy: the pipeline holds these functions, and they must not hold it
    # back (a run leaves no reference cycle for the garbage collector).
    values: list[Any] = [weakref.proxy(pipeline), pipeline.pending, pipeline.counts,
                         pipeline.audit.timings if pipeline.audit is not None else []]
    for stage in stages:
        values += (stage.fn, stage.args, stage.parts)
    return make(*values)


_UNPLANNED: Any = object()


def _make_for(stages: list[Any], sampled: bool
              ) -> Callable[..., Fast] | None:
    """The generated ``make`` for stages of this shape (None: no fast path, a wrapper
    being among them)."""
    if any(s.wrapper for s in stages):
        return None
    shape = tuple((s.bound.argnames, s.parts is not None,
                   s.cp.impls["process_output_stream"].is_async) for s in stages)
    key = (shape, sampled)
    make = _made.get(key)
    if make is None:
        make = _made[key] = _compile(*key)
    return make


def _compile(
    shape: tuple[Any, ...], sampled: bool
) -> Callable[..., Fast]:
    """The source of ``make(pl, pending, counts, timings, f0, a0, p0, ...)``, which
    returns the run's ``(through, emit, take, check)``, compiled."""
    params = ["pl", "pending", "counts", "timings"]
    consts: list[str] = []  # arguments bound once per run, read into locals of make

    def stage_calls(indent: str, timed: bool) -> list[str]:
        """Every stage in turn, ``{resume}`` standing for the function to resume in
        (``{resume}(chunk, i, result)``, awaited; ``left`` in the synchronous ``check``:
        it returns ``(chunk, i, result)``); ``timed``: each stage's time added to the run's
        ``timings`` (the one chunk in 32)."""
        lines = [f"{indent}t = ns()"] if timed else []
        for i, (argnames, has_parts, is_async) in enumerate(shape):
            args = []
            for j, name in enumerate(argnames):
                if name == "part":
                    args.append("chunk")
                elif name == "retry_count":  # the only argument that changes during a run
                    args.append(f"a{i}[{j}]")
                else:
                    args.append(f"k{i}_{j}")
            if has_parts:
                lines.append(f"{indent}p{i}.append(chunk)")
            lines.append(f"{indent}try:")
            lines.append(f"{indent}    r = f{i}({', '.join(args)})")
            if is_async:
                lines.append(f"{indent}    if type(r) is Coro:")
                lines.append(f"{indent}        r = await r")
            lines.append(f"{indent}except Exception as e:")
            lines.append(f"{indent}    return await {{resume}}(chunk, {i}, Raised(e))")
            lines.append(f"{indent}if r is not chunk:")
            lines.append(f"{indent}    return await {{resume}}(chunk, {i}, r)")
            if timed:
                lines.append(f"{indent}t2 = ns()")
                lines.append(f"{indent}timings[{2 * i}] += t2 - t")
                lines.append(f"{indent}timings[{2 * i + 1}] += 1")
                lines.append(f"{indent}t = t2")
        return lines

    for i, (argnames, _, _) in enumerate(shape):
        params += [f"f{i}", f"a{i}", f"p{i}"]
        for j, name in enumerate(argnames):
            if name not in ("part", "retry_count"):
                consts.append(f"    k{i}_{j} = a{i}[{j}]")

    def body(resume: str) -> list[str]:
        def fill(lines: list[str]) -> list[str]:
            if resume == "left":
                return [line.replace("await {resume}", "").replace("{resume}", "")
                        for line in lines]
            return [line.replace("{resume}", resume) for line in lines]

        if not sampled:
            return fill(stage_calls("        ", False))
        # A countdown to the next timed chunk (the run's first, then one in 32): the
        # fewest operations per chunk; the chunks seen follow from it and the number
        # of timed ones (``take``).
        return [
            "        nonlocal countdown, rounds",
            "        countdown -= 1",
            "        if countdown:",
            *fill(stage_calls("            ", False)),
            "        else:",
            "            countdown = 32",
            "            rounds += 1",
            *fill(stage_calls("            ", True)),
        ]

    # For the general loop's bookkeeping: a text chunk that passed every stage (so no
    # stage dropped all text).
    epilogue = ["        if chunk.type == 'text-delta':", "            counts[0] = True"]
    source = "\n".join(
        [
            f"def make({', '.join(params)}):",
            *consts,
            # with the audit on: chunks until the next timed one, timed chunks so far,
            # and the chunks seen at the last ``take`` (chunks that left the fast path
            # are counted by the pipeline)
            "    countdown = 1",
            "    rounds = taken = 0",
            "",
            "    def take():",
            "        nonlocal taken",
            "        seen = rounds * 32 - countdown + 1",
            "        n = seen - taken",
            "        taken = seen",
            "        return n",
            "",
            "    async def through(chunk, skip=None, start=0):",
            "        if skip is not None or start or chunk.type.startswith('data-'):",
            "            return await pl._through(chunk, skip, start)",
            *body("pl._resume"),
            *epilogue,
            "        return [chunk]",
            "",
            "    async def emit(chunk):",
            "        if pending or chunk.type.startswith('data-'):",
            "            return await pl._emit(chunk)",
            *body("pl._resume_emit"),
            *epilogue,
            "        if pending:",
            "            return await pl._after_fast([chunk])",
            "        return [chunk]",
            "",
            *([
                "    def check(chunk):",
                *body("left"),
                *epilogue,
                "        return None",
                "",
                "    return through, emit, take, check",
            ] if not any(is_async for _, _, is_async in shape) else [
                "    return through, emit, take, None",
            ]),
        ]
    )
    namespace: dict[str, Any] = {"Coro": CoroutineType, "Raised": Raised, "ns": perf_counter_ns}
    code = compile(source, f"<tripwire fast path: {len(shape)} stages>", "exec")
    exec(code, namespace)  # noqa: S102 - source built above from fixed text and indexes
    make: Callable[..., Fast] = namespace["make"]
    return make
