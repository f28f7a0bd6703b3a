"""What judge-based guardrails cost: model calls the verdict cache saves, and the
latency three of them add to a run.

Run by hand:  python bench/judge.py [--conversations 300] [--runs 30] [--judge-ms 50]

1. Judge calls saved by the verdict cache (``tripwire.Judge``), with ``moderation`` on
   input judging every user message, on a chat workload with a fixed seed: each
   conversation has 1-6 user turns; a quarter of the messages are short stock phrases
   ("thanks!", "ok"), the rest are drawn with replacement from the user-channel texts
   of the labelled injection set (``bench/injection_data.py``), so some questions
   recur across conversations. Two ways of sending it: the client sends the whole
   history each turn (as chat APIs do: ``moderation`` sees every earlier user message
   again), or only the new message. Then judge calls saved by
   ``prompt-injection-detector``'s ``tier = "both"`` (the heuristics first; what they
   block costs no judge call) against ``tier = "judge"``, on the user-channel texts of
   the labelled injection set. The judge is an in-process model that counts its calls
   and finds nothing.
2. Latency added per run by three judge-based input guardrails (three ``moderation``
   instances with their own ids and categories) whose judge answers in ``--judge-ms``
   (50 ms): a local aiohttp server on 127.0.0.1 speaking OpenAI's chat wire format
   answers every request after that delay (a verdict for a judge's request, which
   carries ``response_format``; a short reply for the agent's model call, which takes
   ``--model-ms``, 50 ms by default). The guardrails run one after the other, in a
   ``tripwire.parallel(...)`` group, and in ``parallel`` mode beside the model call
   (``tripwire.parallel_with_model``), against no guardrails; one more row has one
   guardrail judging three new user messages (its judge calls run concurrently).
   Every run sends a new text, so no verdict comes from the cache. Target: a parallel
   group, or ``parallel`` mode, adds about one judge call of latency, not three.
3. What holding the stream for the judge costs (``judge_stream``): a reply of
   ``--sentences`` sentences streamed in 5-character deltas, one every ``--delta-ms``
   (2 ms), through ``pii-detector`` (judge tier, names only) and ``moderation``, whose
   judge (in-process) answers in ``--judge-ms``. Time to the first text byte, to the
   end of the stream, and judge calls, per ``judge_stream``; ``moderation``'s
   ``"chunk"`` is the reference's per-delta check.

Nothing here is asserted; the numbers are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent))

from injection_data import samples  # noqa: E402

from tripwire import Agent, Chunk, Message, parallel, parallel_with_model  # noqa: E402
from tripwire.models import ModelRequest, OpenAICompatible  # noqa: E402
from tripwire.plugins.moderation import Moderation  # noqa: E402
from tripwire.plugins.pii_detector import PIIDetector  # noqa: E402
from tripwire.testing import MockModel, MockResponse  # noqa: E402

#: A verdict that flags nothing (the judge's schema allows ``null`` scores).
CLEAN = json.dumps({"category_scores": None, "reason": None})

STOCK = ["hi", "hello", "thanks!", "thank you", "ok", "yes", "no", "great, thanks",
         "can you explain that again?", "what do you mean?", "go on", "perfect",
         "that didn't work", "sorry, I meant the other one", "bye"]

#: Three guardrails that look at different things (each its own judge and id).
GUARDS = [
    ("moderation-abuse", ("hate", "hate/threatening", "harassment", "harassment/threatening")),
    ("moderation-self-harm", ("self-harm", "self-harm/intent", "self-harm/instructions")),
    ("moderation-violence", ("violence", "violence/graphic", "sexual", "sexual/minors")),
]


# ------------------------------------------------------------------ 1. the cache


class CountingModel:
    """An in-process model that answers every call at once with ``text``, counting
    calls."""

    provider = "bench"

    def __init__(self, model_id: str, text: str) -> None:
        self.model_id = model_id
        self.text = text
        self.calls = 0

    async def stream(self, request: ModelRequest) -> AsyncIterator[Chunk]:
        self.calls += 1
        yield Chunk("text-delta", {"id": "t", "text": self.text})
        yield Chunk("finish", {"finish_reason": "stop"})


def conversations(n: int, seed: int = 11) -> list[list[str]]:
    """``n`` conversations, each a list of 1-6 user messages (fixed seed)."""
    rng = random.Random(seed)
    pool = [s.text for s in samples() if s.channel == "input" and isinstance(s.text, str)]
    return [[rng.choice(STOCK) if rng.random() < 0.25 else rng.choice(pool)
             for _ in range(rng.randint(1, 6))] for _ in range(n)]


async def cache_savings(convs: list[list[str]], history: bool) -> tuple[int, int, int]:
    """(turns, texts judged, judge model calls) for the workload: every judged text the
    cache did not answer is a model call (the judge's verdicts are all valid, so there
    are no retries)."""
    judge_model = CountingModel("judge", CLEAN)
    guard = Moderation(judge_model)
    agent = Agent(id="bench", model=CountingModel("chat", "Sure."), input_processors=[guard],
                  default_error_processors=False)
    turns = judged = 0
    for conv in convs:
        sent: list[Message] = []
        for text in conv:
            new = Message.user(text)
            messages = [*sent, new] if history else [new]
            result = await agent.generate(messages)
            turns += 1
            judged += sum(1 for m in messages if m.role == "user")
            sent += [new, Message.assistant(result.text)]
    return turns, judged, judge_model.calls


async def tier_savings() -> tuple[int, int, int, int]:
    """(texts, attacks, judge calls with ``tier = "judge"``, with ``tier = "both"``):
    ``prompt-injection-detector`` on the user-channel texts of the labelled injection
    set, one text per run; the judge finds nothing, so only the heuristics block."""
    from tripwire.plugins.prompt_injection_detector import PromptInjectionDetector

    texts = [s for s in samples() if s.channel == "input" and isinstance(s.text, str)]
    calls = []
    for tier in ("judge", "both"):
        judge_model = CountingModel("judge", json.dumps({"types": None, "reason": None}))
        agent = Agent(id="bench", model=CountingModel("chat", "Sure."),
                      input_processors=[PromptInjectionDetector(model=judge_model, tier=tier)],
                      default_error_processors=False)
        for sample in texts:
            await agent.generate(sample.text)
        calls.append(judge_model.calls)
    return len(texts), sum(1 for s in texts if s.types), calls[0], calls[1]


# ------------------------------------------------------------------ 2. latency


def _sse(model: str, text: str) -> bytes:
    def event(delta: dict[str, Any], finish: str | None) -> bytes:
        data = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0,
                "model": model, "choices": [{"index": 0, "delta": delta,
                                             "finish_reason": finish}]}
        return f"data: {json.dumps(data)}\n\n".encode()

    return (event({"role": "assistant", "content": text}, None) + event({}, "stop")
            + b"data: [DONE]\n\n")


async def serve(judge_s: float, model_s: float) -> tuple[web.AppRunner, str]:
    """A server on 127.0.0.1 answering ``POST /v1/chat/completions`` after a delay: a
    clean verdict after ``judge_s`` for a request with ``response_format`` (a judge's),
    ``"Hello."`` after ``model_s`` for any other; ``(runner, base_url)``."""

    async def chat(request: web.Request) -> web.StreamResponse:
        body = await request.json()
        judge = "response_format" in body
        await asyncio.sleep(judge_s if judge else model_s)
        blob = _sse(body.get("model", "m"), CLEAN if judge else "Hello.")
        if not body.get("stream"):
            return web.json_response({
                "id": "chatcmpl-bench", "object": "chat.completion", "created": 0,
                "model": body.get("model", "m"),
                "choices": [{"index": 0, "finish_reason": "stop", "message": {
                    "role": "assistant", "content": CLEAN if judge else "Hello."}}]})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(blob)
        await response.write_eof()
        return response

    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    return runner, f"http://{host}:{port}/v1"


def guards(judge_model: OpenAICompatible, ids: int = 3) -> list[Moderation]:
    out = []
    for guard_id, categories in GUARDS[:ids]:
        guard = Moderation(judge_model, categories=categories)
        guard.id = guard_id
        out.append(guard)
    return out


async def timed(agent: Agent, runs: int, messages: Callable[[int], list[Message]],
                counter: list[int]) -> list[float]:
    """Seconds per ``agent.generate``, ``runs`` times, a new text each time (after one
    warm-up run)."""
    times = []
    for i in range(runs + 1):
        counter[0] += 1
        started = time.perf_counter()
        result = await agent.generate(messages(counter[0]))
        took = time.perf_counter() - started
        if result.text != "Hello." or result.tripwire is not None:
            raise RuntimeError(f"unexpected result: {result.text!r}, {result.tripwire}")
        if i:
            times.append(took)
    return times


async def latency(runs: int, judge_s: float, model_s: float) -> list[tuple[str, list[float]]]:
    runner, base_url = await serve(judge_s, model_s)
    judge_model = OpenAICompatible(base_url=base_url, api_key="sk-bench", model="judge")
    chat_model = OpenAICompatible(base_url=base_url, api_key="sk-bench", model="chat")
    counter = [0]

    def one(n: int) -> list[Message]:
        return [Message.user(f"Hello, I need help with order {n}.")]

    def three(n: int) -> list[Message]:
        return [Message.user(f"Order {n}-{k}: where is it?") for k in range(3)]

    setups: list[tuple[str, list[Any], Callable[[int], list[Message]]]] = [
        ("no guardrails", [], one),
        ("3 guardrails in a row", guards(judge_model), one),
        ("3 guardrails in a parallel(...) group",
         [parallel(*guards(judge_model), id="input-guards")], one),
        ("3 guardrails in parallel mode (parallel_with_model)",
         [parallel_with_model(g) for g in guards(judge_model)], one),
        ("1 guardrail, 3 new user messages", guards(judge_model, ids=1), three),
    ]
    rows = []
    try:
        for label, processors, messages in setups:
            agent = Agent(id="bench", model=chat_model, input_processors=processors,
                          default_error_processors=False)
            rows.append((label, await timed(agent, runs, messages, counter)))
    finally:
        await judge_model.aclose()
        await chat_model.aclose()
        await runner.cleanup()
    return rows


# ------------------------------------------------------------------ the stream


class SlowJudge:
    """An in-process judge model: answers ``verdict`` after ``delay`` seconds."""

    provider = "bench"
    model_id = "slow-judge"

    def __init__(self, delay: float, verdict: str) -> None:
        self.delay = delay
        self.verdict = verdict
        self.started: list[float] = []

    async def stream(self, request: ModelRequest) -> AsyncIterator[Chunk]:
        self.started.append(time.perf_counter())
        await asyncio.sleep(self.delay)
        yield Chunk("text-delta", {"id": "v", "text": self.verdict})
        yield Chunk("finish", {"finish_reason": "stop", "usage": None})


SENTENCE = "Parcel {} left our warehouse on Monday and should arrive by Friday. "


async def stream_cost(sentences: int, delta_s: float, judge_s: float
                      ) -> list[tuple[str, float, float, int]]:
    """``(label, first text byte s, end of stream s, judge calls)`` per setup."""
    text = "".join(SENTENCE.format(i) for i in range(sentences))
    pieces = [text[i:i + 5] for i in range(0, len(text), 5)]
    rows = []
    setups: list[tuple[str, Callable[[Any], Any] | None, str]] = [
        ("no guardrail", None, CLEAN),
        ("pii-detector judge_stream=\"off\"",
         lambda j: PIIDetector(model=j, detection_types=["name"], judge_stream="off"),
         '{"findings": []}'),
        ("pii-detector judge_stream=\"sentence\"",
         lambda j: PIIDetector(model=j, detection_types=["name"]), '{"findings": []}'),
        ("pii-detector judge_stream=\"step\"",
         lambda j: PIIDetector(model=j, detection_types=["name"], judge_stream="step"),
         '{"findings": []}'),
        ("moderation judge_stream=\"chunk\" (reference)",
         lambda j: Moderation(j, judge_stream="chunk"), CLEAN),
        ("moderation judge_stream=\"sentence\"", lambda j: Moderation(j), CLEAN),
    ]
    for label, build, verdict in setups:
        judge = SlowJudge(judge_s, verdict)
        model = MockModel([MockResponse(chunks=[{"type": "text-delta", "id": "t", "text": p}
                                                for p in pieces])], chunk_delay=delta_s)
        agent = Agent(id="bench", model=model,
                      output_processors=[build(judge)] if build else [],
                      default_error_processors=False)
        started = time.perf_counter()
        first = last = None
        async for chunk in agent.stream("where is my parcel?"):
            if chunk.type == "text-delta":
                last = time.perf_counter()
                first = first or last - started
        took = time.perf_counter() - started
        # The stream's judgements: those started before the last text went out (the
        # final response's judgement comes after it).
        calls = sum(1 for t in judge.started if last is not None and t <= last)
        rows.append((label, first or took, took, calls))
    return rows


# ------------------------------------------------------------------ report


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f}"


async def main_async(args: argparse.Namespace) -> None:
    convs = conversations(args.conversations)
    print(f"1. verdict cache: moderation on input, {len(convs)} conversations "
          f"(fixed seed), default cache_size 1024")
    print(f"   {'the client sends':30} {'turns':>6} {'judged':>7} {'calls':>6} {'saved':>6}")
    for label, history in (("the whole history each turn", True),
                           ("only the new message", False)):
        turns, judged, calls = await cache_savings(convs, history)
        print(f"   {label:30} {turns:6} {judged:7} {calls:6} {1 - calls / judged:6.1%}")

    texts, attacks, judge_only, both = await tier_savings()
    print(f"\n   prompt-injection-detector on the labelled set's {texts} user texts "
          f"({attacks} attacks), one per run:")
    print(f"   tier = \"judge\": {judge_only} judge calls; tier = \"both\": {both} "
          f"(the heuristics block {judge_only - both} texts without one: "
          f"{1 - both / judge_only:.1%} saved)")

    print(f"\n2. latency per run: judge answers in {args.judge_ms:g} ms, the model call "
          f"in {args.model_ms:g} ms (local server), {args.runs} runs each")
    rows = await latency(args.runs, args.judge_ms / 1000, args.model_ms / 1000)
    base = statistics.median(rows[0][1])
    print(f"   {'input processors':52} {'median':>7} {'p90':>7} {'added':>7}  (ms)")
    for label, times in rows:
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"   {label:52} {_ms(median)} {_ms(p90)} {_ms(median - base)}")

    print(f"\n3. the stream held for the judge: {args.sentences} sentences in "
          f"{len(SENTENCE) * args.sentences // 5} deltas, one every {args.delta_ms:g} ms; "
          f"the judge answers in {args.judge_ms:g} ms")
    print(f"   {'output processor':44} {'first byte':>10} {'end':>7} {'judge calls':>12}  (ms)")
    for label, first, took, calls in await stream_cost(args.sentences, args.delta_ms / 1000,
                                                       args.judge_ms / 1000):
        print(f"   {label:44} {_ms(first):>10} {_ms(took)} {calls:12}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=300)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--judge-ms", type=float, default=50.0)
    parser.add_argument("--model-ms", type=float, default=50.0)
    parser.add_argument("--sentences", type=int, default=5)
    parser.add_argument("--delta-ms", type=float, default=2.0)
    asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
