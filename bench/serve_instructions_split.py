"""Where the gateway's own work on the way to the first token goes, in instructions:
``bench/serve_instructions.py``'s probed gateway (callgrind dumping its counters at each
probe), with probes at more points of the request path, each a C function of CPython's
that callgrind dumps before. Between the handler and the upstream request's write: the
body read, the API's request checks, the agent picked (the key, ``before``, the
options), the run's set-up (``agent.stream``), the start of its chunks, the input
processors (``process_input``), the step's preparation, the prompt, the step's start,
the provider's request body, the HTTP client (the providers' connection pool). Between the first content event's read
and the write to the client: the provider's parsing of the event, the run, the
renderer, the response made, aiohttp's ``prepare`` and the first write.

The probes wrap the functions they time (private ones of tripwire's and aiohttp's: this
script is a measuring tool, rewritten when they change). One paced request at a time
(``TRIPWIRE_BENCH_STEP_PACE``), the medians of ``N`` requests per step, for each client
API (``TRIPWIRE_BENCH_APIS``). Run by hand:
``python bench/serve_instructions_split.py [N]`` (valgrind must be installed).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import serve_instructions as counted  # noqa: E402

#: The probes of the request path, in the order a request passes them, and the C
#: function each calls (with the argument it takes).
MORE = {
    "body read": ("getsid", 0), "request checked": ("getpgid", 0),
    "agent picked": ("getresuid", None), "run set up": ("getresgid", None),
    "chunks begun": ("times", None), "input processed": ("isatty", 0),
    "step prepared": ("getgroups", None), "prompt built": ("strerror", 1),
    "step started": ("sched_getscheduler", 0), "provider called": ("device_encoding", 0),
    "body encoded": ("getpriority", None), "the HTTP client called": ("getppid", None),
}
#: The probes of the first content's way, reusing functions the path above has passed.
CONTENT = {
    "event parsed": ("getsid", 0), "model chunk": ("isatty", 0), "run chunk": ("getpgid", 0),
    "event rendered": ("getresuid", None), "response made": ("cpu_count", None),
    "response prepared": ("getresgid", None),
}
#: Each probe's function, by the name callgrind gives it, as the label of its dumps
#: (``segments`` names them by where in the request they come).
TRIGGERS = {f"os_{f}": f"fn:{f}" for f, _ in (*MORE.values(), *CONTENT.values())}
_ON_PATH = {f"fn:{f}": label for label, (f, _) in MORE.items()}
_ON_CONTENT = {f"fn:{f}": label for label, (f, _) in CONTENT.items()}


def mark(function: str, argument: Any) -> Any:
    call = getattr(os, function)
    if function == "getpriority":
        return lambda: call(os.PRIO_PROCESS, 0)
    return call if argument is None else (lambda: call(argument))


def patch() -> None:
    """Wrap the functions the probes time."""
    from aiohttp import web

    from tripwire.agent import Agent
    from tripwire.models import _http, _response, openai
    from tripwire.run import _loop
    from tripwire.serve import _app, _chat, _messages, _responses

    m = {label: mark(*spec) for label, spec in MORE.items()}
    c = {label: mark(*spec) for label, spec in CONTENT.items()}
    read = _app.Gateway.read

    async def probed_read(self: Any, exchange: Any) -> Any:
        out = await read(self, exchange)
        m["body read"]()
        return out

    _app.Gateway.read = probed_read  # type: ignore[method-assign]
    for codec in (_chat.ChatCodec, _responses.ResponsesCodec, _messages.MessagesCodec):
        def probed_parse(self: Any, exchange: Any, parse: Any = codec.parse) -> Any:
            out = parse(self, exchange)
            m["request checked"]()
            return out

        codec.parse = probed_parse  # type: ignore[method-assign]
    stream = Agent.stream

    def probed_stream(self: Any, *args: Any, **kwargs: Any) -> Any:
        m["agent picked"]()
        out = stream(self, *args, **kwargs)
        m["run set up"]()
        return out

    Agent.stream = probed_stream  # type: ignore[method-assign]
    events = _loop.Run.events

    async def probed_events(self: Any) -> Any:
        m["chunks begun"]()
        async for chunk in events(self):
            c["run chunk"]()
            yield chunk

    _loop.Run.events = probed_events  # type: ignore[assignment,method-assign]
    start = _loop.Run._start

    async def probed_start(self: Any) -> Any:
        out = await start(self)
        m["input processed"]()
        return out

    _loop.Run._start = probed_start  # type: ignore[method-assign]
    prepare_step = _loop.prepare_step

    async def probed_prepare_step(*args: Any) -> Any:
        out = await prepare_step(*args)
        m["step prepared"]()
        return out

    _loop.prepare_step = probed_prepare_step  # type: ignore[assignment]
    request_prompt = _loop.request_prompt

    async def probed_request_prompt(*args: Any) -> Any:
        out = await request_prompt(*args)
        m["prompt built"]()
        return out

    _loop.request_prompt = probed_request_prompt  # type: ignore[assignment]
    step_start = _loop.Run._step_start

    async def probed_step_start(self: Any, *args: Any) -> Any:
        out = await step_start(self, *args)
        m["step started"]()
        return out

    _loop.Run._step_start = probed_step_start  # type: ignore[method-assign]
    model_stream = _http.HTTPModel.stream

    async def probed_model_stream(self: Any, request: Any) -> Any:
        m["provider called"]()
        async for chunk in model_stream(self, request):
            c["model chunk"]()
            yield chunk

    _http.HTTPModel.stream = probed_model_stream  # type: ignore[method-assign]
    prepare = _http.HTTPModel._prepare

    def probed_prepare(self: Any, *args: Any, **kwargs: Any) -> Any:
        out = prepare(self, *args, **kwargs)
        m["body encoded"]()
        return out

    _http.HTTPModel._prepare = probed_prepare  # type: ignore[method-assign]
    enter = _response.PostResponse.__aenter__

    async def probed_enter(self: Any) -> Any:
        m["the HTTP client called"]()
        return await enter(self)

    _response.PostResponse.__aenter__ = probed_enter  # type: ignore[method-assign]
    for model in (openai.OpenAICompatible,):
        parse_stream = model._parse_stream

        async def probed_parse_stream(self: Any, events: Any, call: Any,
                                      parse: Any = parse_stream) -> Any:
            async for chunk in parse(self, events, call):
                c["event parsed"]()
                yield chunk

        model._parse_stream = probed_parse_stream  # type: ignore[method-assign]
    for renderer in _renderers():
        event = renderer.event

        def probed_event(self: Any, chunk: Any, event: Any = event) -> Any:
            out = event(self, chunk)
            c["event rendered"]()
            return out

        renderer.event = probed_event
    init = web.StreamResponse.__init__

    def probed_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        c["response made"]()

    web.StreamResponse.__init__ = probed_init  # type: ignore[method-assign]
    prepare_response = web.StreamResponse.prepare

    async def probed_prepare_response(self: Any, request: Any) -> Any:
        out = await prepare_response(self, request)
        c["response prepared"]()
        return out

    web.StreamResponse.prepare = probed_prepare_response  # type: ignore[method-assign]


def _renderers() -> list[Any]:
    from tripwire.serve import _messages_response, _response, _responses_render

    return [_response.Completion, _responses_render.ResponseRender,
            _messages_response.MessageAnswer]


def segments(found: list[tuple[int, str, int]]) -> dict[str, list[int]]:
    """Per request: the instructions from each probe to the next, named by where they
    end, from the handler to the upstream write and from the content read to the
    client write."""
    labels = [label for _, label, _ in found]
    out: dict[str, list[int]] = {}
    for h, label in enumerate(labels):
        if label != "handler":
            continue
        try:
            w = labels.index("c_write", h)
            content = labels.index("c_content", w)
            written = labels.index("s_write", content + 1)
        except ValueError:
            continue
        for name, k in ([(_ON_PATH.get(labels[k], labels[k]), k)
                          for k in range(h + 1, w + 1)]
                         + [("content: " + _ON_CONTENT.get(labels[k], labels[k]), k)
                            for k in range(content + 1, written + 1)]):
            out.setdefault(name, []).append(found[k][2])
    return out


def main(n: int) -> None:
    os.environ.setdefault("TRIPWIRE_BENCH_DELTAS", "1")  # (as serve_instructions')
    apis = os.environ.get("TRIPWIRE_BENCH_APIS", ",".join(counted.bench.API_REQUESTS)).split(",")
    up = subprocess.Popen([sys.executable, str(HERE / "serve.py"), "upstream",
                           str(counted.STEP_PACE)], stdout=subprocess.PIPE, text=True)
    assert up.stdout is not None
    up_url = up.stdout.readline().strip()
    counted.__file__ = __file__  # the probed process is this script's
    results: dict[str, dict[str, float]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "gateway.out")
            process, url = counted.start(["gateway", up_url, "1"], out, sys.executable, True)
            try:
                counted.control(process.pid, "-i", "on")
                for api in apis:
                    asyncio.run(counted.send(url, "bench", api, 3))
                    time.sleep(1)
                    first = len(counted.dumps(out))
                    asyncio.run(counted.send(url, "bench", api, n))
                    time.sleep(1)
                    found = counted.dumps(out)[first:]
                    results[api] = {k: statistics.median(v)
                                    for k, v in segments(found).items()}
            finally:
                process.terminate()
                process.wait()
    finally:
        up.terminate()
        up.wait()
    rows = list(dict.fromkeys(k for r in results.values() for k in r))
    print(f"instructions (thousands), medians of {n} requests, one at a time; each row "
          f"the work since the row before, up to the point it names")
    print(f"{'':>42}" + "".join(f"{api:>11}" for api in apis))
    for row in rows:
        print(f"{row:>42}" + "".join(
            f"{results[api][row] / 1e3:>11.1f}" if row in results[api] else f"{'':>11}"
            for api in apis))


def run(argv: list[str]) -> None:
    if argv and argv[0] == "probed":
        counted.probe()
        patch()
        counted.bench.run(argv[1:])
        return
    main(int(argv[0]) if argv else 15)


# (the probed process is started with a dump before each of these functions too)
counted.PROBES.update({f"fn:{f}": f for f, _ in (*MORE.values(), *CONTENT.values())})
counted.TRIGGERS.update(TRIGGERS)

if __name__ == "__main__":
    run(sys.argv[1:])
