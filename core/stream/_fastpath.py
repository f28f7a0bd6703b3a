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

``generate`` returns two families of functions, one per stage to start at (the last
one, past every stage, returns at once): ``runs[i](pipeline, chunk)`` for a chunk that
reaches every stage, and ``data_runs[i](pipeline, chunk, skip)`` for ``data-*`` chunks
(only the stages that take them, never the ``skip`` stage: the one that wrote it).
They keep nothing of a run: every run of the same processors shares them, each
passing its own pipeline. Each returns None when the chunk passed every stage
unchanged, else the chunks that come out (a list), or an awaitable of either. With the
audit on, every call is counted in the stage's ``counts`` and one chunk in 32 (the
run's first always) is timed stage by stage.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter_ns, time_ns
from types import CoroutineType
from typing import TYPE_CHECKING, Any

from tripwire.hooks._call import RUN_ARGS

if TYPE_CHECKING:
    from tripwire.run._call import Plans
    from tripwire.stream._pipeline import OutputPipeline
    from tripwire.stream._stage import Stage

#: ``runs[i](pipeline, chunk)`` / ``data_runs[i](pipeline, chunk, skip)`` (see the
#: module docstring)
Run = Callable[..., Any]
Runs = tuple[tuple[Run, ...], tuple[Run, ...]]


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
_made: dict[tuple[Any, ...], Callable[..., Runs]] = {}


def generate(pipeline: OutputPipeline, plans: Plans | None = None) -> Runs:
    """``(runs, data_runs)`` for the pipeline's stages (see the module docstring).

    The functions hold what every call of the same processors shares (each stage's
    implementation, the arguments bound for every call) and read what belongs to the
    run from the pipeline they are given. ``plans``: the call's ``CallOptions.plans``
    (the agent's, when the call runs the agent's own lists): they are made once
    there."""
    stages = pipeline.stages
    recorder = pipeline.recorder
    audited = recorder is not None and bool(stages)
    key = (audited, audited and recorder.tracer is not None)
    made = plans.fast_paths.get(key) if plans is not None else None
    if made is None:
        made = _make_for(stages, *key)
        if plans is not None:
            plans.fast_paths[key] = made
    return made


def _make_for(stages: list[Stage], audited: bool, traced: bool) -> Runs:
    shape = tuple((s.bound.argnames, s.parts is not None, s.bound.wrapper, s.data,
                   s.cp.impls["process_output_stream"].is_async) for s in stages)
    key = (shape, audited, traced)
    make = _made.get(key)
    if make is None:
        make = _made[key] = _compile(*key)
    values: list[Any] = []
    for stage in stages:
        values += (stage.bound.fn, stage.id)
        values += [stage.bound.args[j] for j, name in enumerate(stage.bound.argnames)
                   if name not in RUN_VALUES]
    return make(*values)


#: The arguments of ``process_output_stream`` a stage is given per run (read from the
#: run's ``Stage.args``) or per chunk (``part``): the others are bound for every call.
RUN_VALUES = frozenset({"part", "stream_parts", "message_list", *RUN_ARGS})


def _compile(shape: tuple[Any, ...], audited: bool, traced: bool) -> Callable[..., Runs]:
    """``make(f0, id0, <f0's bound arguments>, f1, ...)``, which returns the
    ``(runs, data_runs)`` of the stages it is given, compiled."""
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

    def stage(i: int, start: int, data: bool) -> list[str]:
        argnames, has_parts, wrapper, takes_data, stage_async = shape[i]
        out: list[str] = []
        indent = "        "
        if data:  # only the stages that take data chunks, never the writer's own
            cond = f"skip != id{i}" if takes_data else f"not data and skip != id{i}"
            out.append(f"{indent}if {cond}:")
            indent += "    "
        if has_parts:
            out.append(f"{indent}p{i}.append(chunk)")
        if wrapper:  # it calls the stages after it itself
            out.append(f"{indent}return {'await ' if is_async else ''}pl.wrap({i}, chunk, skip)")
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
        out.extend(_leave(indent + "    ", i, start, is_async))
        if audited:
            out.append(f"{indent}c{i}[1] += 1")
            out.append(f"{indent}if t:")
            out.append(f"{indent}    now = ns()")
            out.append(f"{indent}    tm{i}[0] += now - t")
            out.append(f"{indent}    tm{i}[1] += 1")
            out.append(f"{indent}    t = now")
        return out

    names: dict[bool, list[str]] = {False: [], True: []}
    for data in (False, True):
        for start in range(n + 1):
            name = f"{'data' if data else 'run'}{start}"
            names[data].append(name)
            head = "async def" if is_async else "def"
            lines.append(f"    {head} {name}(pl, chunk, skip=None):")
            if audited and start == 0:
                # one chunk in 32 timed (the run's first), counted down
                lines += ["        countdown = pl.countdown - 1",
                          "        if countdown:",
                          "            pl.countdown = countdown",
                          "            t = 0",
                          "        else:",
                          "            pl.countdown = 32",
                          "            t = ns()"]
            else:
                lines.append("        t = 0")
            reads = [line for i in range(start, n) for line in loads(i)]
            if reads:
                lines += ["        S = pl.stages", *reads]
            if data:
                lines.append("        data = chunk.type.startswith('data-')")
            for i in range(start, n):
                lines += stage(i, start, data)
            if not data:  # a text chunk passed every stage from ``start`` on
                lines += [f"        if not pl.kept_from_start[{start}] and "
                          f"chunk.type == 'text-delta':",
                          f"            pl.kept_from({start})"]
            lines += ["        return None", ""]
    lines.append(f"    return ({', '.join(names[False])},), ({', '.join(names[True])},)")
    source = "\n".join([f"def make({', '.join(params)}):", *lines])
    namespace: dict[str, Any] = {"Coro": CoroutineType, "Raised": Raised,
                                 "ns": perf_counter_ns, "wall": time_ns}
    code = compile(source, f"<tripwire per-chunk path: {n} stages>", "exec")
    exec(code, namespace)  # noqa: S102 - source built above from fixed text and indexes
    make: Callable[..., Runs] = namespace["make"]
    return make


def _leave(indent: str, i: int, start: int, is_async: bool) -> list[str]:
    """The chunk leaves the straight line at stage ``i`` with its result ``r``."""
    call = f"pl.left({i}, chunk, r, skip, t, {start})"
    if not is_async:
        return [f"{indent}return {call}"]
    return [f"{indent}out = {call}",
            f"{indent}return out if out is None or type(out) is list else await out"]

