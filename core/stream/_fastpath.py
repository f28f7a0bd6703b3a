"""The per-chunk path of the output pipeline, generated once per shape of stages and
made once per list of processors.

A chunk passes the output processors' ``process_output_stream`` in list order. For the
stages of a pipeline this module writes that path as straight-line code, as attrs
writes ``__init__``: each implementation called with its arguments (``part`` the chunk,
those bound for every call as constants, the run's own read from the run's
``Stage.args``: ``retry_count`` changes within a run), each result compared with the
chunk. A stage that returns the chunk itself passes it to the next; anything else (a
replacement, ``None``, a list, an awaitable, an exception) goes to
``OutputPipeline.left``, which asks the stage what it means (``Stage.settle``) and
goes on with what comes out from the next stage (``runs[i + 1]``). This code is the
only place the stages are called for a chunk.

``generate`` returns ``push(pipeline, chunk)``, the pipeline's ``push`` (a chunk from
the loop, through every stage: ``OutputPipeline.push``), and two families of
functions, one per stage to start at (the last one, past every stage, returns at
once): ``runs[i](pipeline, chunk)`` for a chunk that reaches every stage, and
``data_runs[i](pipeline, chunk, skip)`` for ``data-*`` chunks (only the stages that
take them, never the ``skip`` stage: the one that wrote it). They keep nothing of a
run: every run of the same processors shares them, each passing its own pipeline.
Each returns None when the chunk passed every stage unchanged, else the chunks that
come out (a list), or an awaitable of either. With the audit on, every call is
counted in the stage's ``counts`` and one chunk in 32 (the run's first always) is
timed stage by stage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from time import perf_counter_ns, time_ns
from types import CoroutineType
from typing import TYPE_CHECKING, Any

from tripwire.chunks import FRAMEWORK_TYPES
from tripwire.hooks._call import RUN_ARGS, shared_bound

if TYPE_CHECKING:
    from tripwire.hooks._validation import CompiledProcessor

#: ``push(pipeline, chunk)``, ``runs[i](pipeline, chunk)``, ``data_runs[i](pipeline,
#: chunk, skip)`` (see the module docstring)
Run = Callable[..., Any]
Made = tuple[Run, tuple[Run, ...], tuple[Run, ...]]


class Raised:
    """A stage's exception, handed to ``OutputPipeline.left`` as that stage's result."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error: Exception | None = error

    def take(self) -> Exception:
        """The exception, no longer held here (its traceback holds the frames: a
        reference would make a cycle that keeps the run alive until the garbage
        collector runs)."""
        error, self.error = self.error, None
        assert error is not None
        return error


#: the generated ``make`` functions, by the shape of the stages they serve
_made: dict[tuple[Any, ...], Callable[..., Made]] = {}

#: The hook each stage implements.
HOOK = "process_output_stream"


def generate(stages: Sequence[CompiledProcessor], audited: bool, traced: bool) -> Made:
    """``(push, runs, data_runs)`` for the stages of these processors (see the module
    docstring): what every call of them shares (each implementation, the arguments
    bound for every call) is bound in; what belongs to a run is read from the pipeline
    the functions are given. ``audited``: every call is counted (the audit or
    tracing is on); ``traced``: spans are made too."""
    shape = []
    values: list[Any] = []
    for cp in stages:
        impl = cp.impls[HOOK]
        shape.append((impl.argnames, "stream_parts" in impl.argnames, impl.wrapper,
                      cp.process_data_parts, impl.is_async))
        values += (impl.function, cp.id)
        if not impl.wrapper:
            bound = shared_bound(cp, HOOK)
            values += [bound.args[j] for j, name in enumerate(impl.argnames)
                       if name not in RUN_VALUES]
        else:  # (a wrapper calls the stages after it: ``OutputPipeline.wrap``)
            values += [None for name in impl.argnames if name not in RUN_VALUES]
    key = (tuple(shape), audited, traced)
    make = _made.get(key)
    if make is None:
        make = _made[key] = _compile(*key)
    return make(*values)


def reads_stages(stages: Sequence[CompiledProcessor]) -> bool:
    """Whether the generated path reads the run's stages for each chunk: a stage's
    arguments of the run or its ``stream_parts``."""
    return any(not impl.wrapper and any(name in RUN_VALUES and name != "part"
                                        for name in impl.argnames)
               for impl in (cp.impls[HOOK] for cp in stages))


#: The arguments of ``process_output_stream`` a stage is given per run (read from the
#: run's ``Stage.args``) or per chunk (``part``): the others are bound for every call.
RUN_VALUES = frozenset({"part", "stream_parts", "message_list", *RUN_ARGS})


def _compile(shape: tuple[Any, ...], audited: bool, traced: bool) -> Callable[..., Made]:
    """``make(f0, id0, <f0's bound arguments>, f1, ...)``, which returns the
    ``(push, runs, data_runs)`` of the stages it is given, compiled."""
    n = len(shape)
    is_async = any(s[4] for s in shape)
    params: list[str] = []
    for i, (argnames, _, _, _, _) in enumerate(shape):
        params += [f"f{i}", f"id{i}"]
        params += [f"k{i}_{j}" for j, name in enumerate(argnames) if name not in RUN_VALUES]
    lines: list[str] = []

    def loads(i: int) -> list[str]:
        """What stage ``i`` reads from the run, at the start of a function."""
        argnames, has_parts, wrapper, _, _ = shape[i]
        if wrapper:
            return []
        out = []
        if any(name in RUN_VALUES and name != "part" for name in argnames):
            out.append(f"        a{i} = S[{i}].args")
        if has_parts:
            out.append(f"        p{i} = S[{i}].parts")
        if audited:
            out += [f"        c{i} = S[{i}].counts", f"        tm{i} = S[{i}].timings"]
        return out

    def stage(i: int, start: int, data: bool, pushed: bool) -> list[str]:
        argnames, has_parts, wrapper, takes_data, stage_async = shape[i]
        out: list[str] = []
        indent = "        "
        if data:  # only the stages that take data chunks, never the writer's own
            cond = f"skip != id{i}" if takes_data else f"not data and skip != id{i}"
            out.append(f"{indent}if {cond}:")
            indent += "    "
        if has_parts:
            out.append(f"{indent}p{i}.append(chunk)")
        skip = "None" if pushed else "skip"
        if wrapper:  # it calls the stages after it itself
            call = f"pl.wrap({i}, chunk, {skip})"
            out.append(f"{indent}return {'pl._pushed(' + call + ', chunk)' if pushed else call}")
            return out
        args = []
        for j, name in enumerate(argnames):
            args.append("chunk" if name == "part" else f"a{i}[{j}]" if name in RUN_VALUES
                        else f"k{i}_{j}")
        if traced:
            out.append(f"{indent}if not c{i}[0]:")
            out.append(f"{indent}    c{i}[4] = wall()")
        if audited:
            out.append(f"{indent}c{i}[0] += 1")
        out.append(f"{indent}try:")
        out.append(f"{indent}    r = f{i}({', '.join(args)})")
        if stage_async:
            out.append(f"{indent}    if type(r) is Coro:")
            out.append(f"{indent}        r = await r")
        out.append(f"{indent}except Exception as e:")
        out.append(f"{indent}    r = Raised(e)")
        out.append(f"{indent}if r is not chunk:")
        call = f"pl.left({i}, chunk, r, {skip}, {'t' if audited else 0}, {start})"
        if pushed:
            out.append(f"{indent}    return pl._pushed({call}, chunk)")
        elif is_async:
            out.append(f"{indent}    out = {call}")
            out.append(f"{indent}    return out if out is None or type(out) is list "
                       f"else await out")
        else:
            out.append(f"{indent}    return {call}")
        if audited:
            out.append(f"{indent}c{i}[1] += 1")
            out.append(f"{indent}if t:")
            out.append(f"{indent}    now = ns()")
            out.append(f"{indent}    tm{i}[0] += now - t")
            out.append(f"{indent}    tm{i}[1] += 1")
            out.append(f"{indent}    t = now")
        return out

    def body(start: int, data: bool, pushed: bool = False) -> list[str]:
        """A function's lines after its ``def``: the stages from ``start`` on."""
        out = []
        if audited and start == 0:
            # one chunk in 32 timed (the run's first), counted down
            out += ["        countdown = pl.countdown - 1",
                    "        if countdown:",
                    "            pl.countdown = countdown",
                    "            t = 0",
                    "        else:",
                    "            pl.countdown = 32",
                    "            t = ns()"]
        elif audited:  # (the start of a timed chunk: 0, this one is not timed)
            out.append("        t = 0")
        reads = [line for i in range(start, n) for line in loads(i)]
        if reads:
            out += ["        S = pl._stages", *reads]
        if data:
            out.append("        data = chunk.type.startswith('data-')")
        for i in range(start, n):
            out += stage(i, start, data, pushed)
        if not data:  # a text chunk passed every stage from ``start`` on
            out += [f"        if not pl.kept_from_start[{start}] and "
                    f"{'kind' if pushed else 'chunk.type'} == 'text-delta':",
                    f"            pl.kept_from({start})"]
        return [*out, "        return None", ""]

    # ``push``: a chunk from the loop; data chunks, and any chunk while hooks' data
    # chunks wait, take the general way (``OutputPipeline._emit``)
    lines += ["    def push(pl, chunk):",
              "        kind = chunk.type",
              "        if pl.pending or (kind not in FRAMEWORK and kind.startswith('data-')):",
              "            return pl._emit(chunk)"]
    if is_async:  # (every chunk takes a coroutine: ``runs[0]``'s)
        lines += ["        return pl._pushed(run0(pl, chunk), chunk)", ""]
    else:
        lines += body(0, False, pushed=True)
    names: dict[bool, list[str]] = {False: [], True: []}
    for data in (False, True):
        for start in range(n + 1):
            name = f"{'data' if data else 'run'}{start}"
            names[data].append(name)
            head = "async def" if is_async else "def"
            lines.append(f"    {head} {name}(pl, chunk, skip=None):")
            lines += body(start, data)
    lines.append(f"    return push, ({', '.join(names[False])},), "
                 f"({', '.join(names[True])},)")
    source = "\n".join([f"def make({', '.join(params)}):", *lines])
    namespace: dict[str, Any] = {"Coro": CoroutineType, "Raised": Raised,
                                 "ns": perf_counter_ns, "wall": time_ns,
                                 "FRAMEWORK": FRAMEWORK_TYPES}
    code = compile(source, f"<tripwire per-chunk path: {n} stages>", "exec")
    exec(code, namespace)  # noqa: S102 - source built above from fixed text and indexes
    make: Callable[..., Made] = namespace["make"]
    return make
