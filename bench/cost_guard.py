"""How far 100 concurrent runs sharing one budget can overspend it, per backend.

Run by hand: ``python bench/cost_guard.py``. For each backend (in-process
``memory://``, an SQLite file, and a real ``redis-server`` on loopback when the binary
is installed) 100 runs of one resource start at once, each wanting 3 model steps of
15 tokens (a mock model, 1 ms between chunks, so the steps overlap):

* ``max_total_tokens = 600``: tokens spent, the overspend past the limit, how many
  steps were in flight (past the check, not yet recorded) when the counter reached the
  limit, and the overspend beyond those in-flight steps (the target: 0);
* the same with ``reserve_tokens = 15`` (each step holds its estimated size first):
  tokens spent (the target: at most 600);
* ``max_steps = 120``: model steps taken (the target: exactly 120, steps are reserved
  atomically before they run);
* the wall time of the 100 runs (three rounds), and the mean time a step waits on the
  cache (its check and its record) while all 100 runs use it at once;
* callers that stop reading: 20 runs each read 1,000 of an answer's ~2,000 tokens and
  close the stream; the tokens they received and what the budget was charged (with the
  default ``charge_every``);
* the time a streamed chunk takes with the guard in the output list, against none
  (one answer of 20,000 text deltas, best of 3).

Numbers come from one run on this machine; nothing here is asserted.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support

from tripwire import RESOURCE_ID_KEY, Agent, tool  # noqa: E402
from tripwire.caches import open_cache  # noqa: E402
from tripwire.plugins.cost_guard import CostGuard  # noqa: E402
from tripwire.testing import MockModel, MockResponse  # noqa: E402

RUNS, STEPS, STEP_TOKENS = 100, 3, 15
USAGE = {"input_tokens": 10, "output_tokens": 5, "total_tokens": STEP_TOKENS}


@tool
def lookup(q: str) -> str:
    """Look something up."""
    return "found"


class MeasuredGuard(CostGuard):
    """A cost guard that notes the steps in flight when the token counter first
    reaches the limit, and the time its cache reads and writes take."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.in_flight = 0  # model calls started and not yet recorded
        self.in_flight_at_limit: int | None = None
        self.seconds = 0.0
        self.steps = 0

    async def _stored(self, prefix: str) -> Any:
        start = time.perf_counter()
        try:
            return await super()._stored(prefix)
        finally:
            self.seconds += time.perf_counter() - start

    async def _record(self, steps: list[Any], state: dict[str, Any], prefix: str) -> None:
        start = time.perf_counter()
        before = state.get("recorded", 0)
        await super()._record(steps, state, prefix)
        self.seconds += time.perf_counter() - start
        self.steps += state.get("recorded", 0) - before

    async def _add(self, prefix: str, name: str, amount: int) -> int:
        value = await super()._add(prefix, name, amount)
        limit = self.limits.get("max_total_tokens")
        if name == "total_tokens":
            self.in_flight -= 1
            if limit is not None and value >= limit and self.in_flight_at_limit is None:
                self.in_flight_at_limit = self.in_flight + 1  # with the one that crossed
        return value


class CountingModel(MockModel):
    """A mock model that counts its calls in flight on the guard."""

    guard: MeasuredGuard

    def stream(self, request: Any) -> Any:
        self.guard.in_flight += 1
        return super().stream(request)


async def _runs(guard: MeasuredGuard) -> tuple[list[Any], float]:
    model = CountingModel(
        [
            MockResponse(
                tool_calls=[{"tool_name": "lookup", "args": {"q": "x"}, "tool_call_id": f"c{i}"}],
                usage=USAGE,
            )
            for i in range(RUNS * STEPS)
        ],
        chunk_delay=0.001,
    )
    model.guard = guard
    agent = Agent(
        id="bench",
        model=model,
        tools=[lookup],
        input_processors=[guard],
        output_processors=[guard],
        max_steps=STEPS,
        default_error_processors=False,
    )
    ctx = {RESOURCE_ID_KEY: "shared"}
    start = time.perf_counter()
    results = await asyncio.gather(
        *(agent.generate("go", request_context=ctx) for _ in range(RUNS))
    )
    return results, time.perf_counter() - start


async def _reset(cache: Any) -> None:
    for counter in ("input_tokens", "output_tokens", "total_tokens", "steps", "cost_nano_usd"):
        await cache.delete(f"cost-guard:resource:shared:{counter}")


async def bench(name: str, url: str) -> None:
    cache = open_cache(url)
    tokens = MeasuredGuard(limits={"max_total_tokens": 600}, scope="resource", cache=cache)
    results, wall = await _runs(tokens)
    spent = sum(r.usage.total_tokens for r in results)
    over = spent - 600
    in_flight = tokens.in_flight_at_limit or 0
    beyond = max(0, over - in_flight * STEP_TOKENS)
    per_step = tokens.seconds / max(1, tokens.steps) * 1e6
    await _reset(cache)
    reserving = MeasuredGuard(
        limits={"max_total_tokens": 600}, scope="resource", cache=cache, reserve_tokens=15
    )
    results3, wall3 = await _runs(reserving)
    spent3 = sum(r.usage.total_tokens for r in results3)
    await _reset(cache)
    steps_guard = MeasuredGuard(limits={"max_steps": 120}, scope="resource", cache=cache)
    results2, wall2 = await _runs(steps_guard)
    taken = sum(len(r.steps) for r in results2)
    print(
        f"{name:8} tokens: spent {spent} of 600 (+{over} = {over // STEP_TOKENS} steps), "
        f"in flight at the limit {in_flight} steps, beyond in-flight {beyond} tokens; "
        f"with reserve_tokens=15: spent {spent3} of 600; steps: {taken} of 120; "
        f"wall {wall:.2f} s / {wall3:.2f} s / {wall2:.2f} s; "
        f"mean cache wait per step (check + record, 100 runs at once) {per_step / 1000:.1f} ms"
    )
    close = getattr(cache, "close", None)
    if close is not None:
        await close()


ANSWER = " ".join(f"word{i % 97} and more" for i in range(700))  # ~2,000 tokens
READ = 1000  # tokens each caller reads before it goes away


async def disconnects(url: str) -> tuple[int, int]:
    """(tokens the callers received, tokens their budget was charged)."""
    from tripwire.plugins.shared.tokens import get_encoding

    count = get_encoding("o200k_base").count
    cache = open_cache(url)
    guard = CostGuard(limits={"max_total_tokens": 10**9}, scope="resource", cache=cache)
    usage = {"input_tokens": 10, "output_tokens": 2000, "total_tokens": 2010}
    agent = Agent(
        id="bench",
        model=MockModel([MockResponse(ANSWER, usage=usage)] * 20),
        input_processors=[guard],
        output_processors=[guard],
        default_error_processors=False,
    )
    received = 0
    for _ in range(20):
        run = agent.stream("go", request_context={RESOURCE_ID_KEY: "leaver"})
        text = ""
        async for chunk in run:
            if chunk.type == "text-delta":
                text += chunk.text
                if count(text) >= READ:
                    break
        await run.aclose()
        received += count(text)
    charged = int(await cache.get("cost-guard:resource:leaver:total_tokens") or 0)
    await _reset_key(cache, "leaver")
    close = getattr(cache, "close", None)
    if close is not None:
        await close()
    return received, charged


async def _reset_key(cache: Any, resource: str) -> None:
    for counter in ("input_tokens", "output_tokens", "total_tokens", "steps", "cost_nano_usd"):
        await cache.delete(f"cost-guard:resource:{resource}:{counter}")


async def per_chunk() -> tuple[float, float]:
    """Microseconds a streamed chunk takes (best of 3) without and with the guard."""
    deltas = 20_000
    text = "word " * deltas
    out = []
    for guarded in (False, True):
        guard = CostGuard(limits={"max_total_tokens": 10**9}, scope="resource", cache="memory://")
        procs = [guard] if guarded else []
        agent = Agent(
            id="bench",
            model=MockModel([MockResponse(text)] * 3),
            input_processors=procs,
            output_processors=procs,
            default_error_processors=False,
        )
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            async for _chunk in agent.stream("go", request_context={RESOURCE_ID_KEY: "x"}):
                pass
            best = min(best, time.perf_counter() - start)
        out.append(best / deltas * 1e6)
    return out[0], out[1]


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        received, charged = await disconnects("memory://")
        print(
            f"callers that stop reading: 20 runs received {received} tokens, the budget "
            f"was charged {charged}"
        )
        bare, guarded = await per_chunk()
        print(f"per streamed chunk: {bare:.1f} us without the guard, {guarded:.1f} us with it")
        await bench("memory", "memory://")
        await bench("sqlite", f"sqlite:///{tmp}/budget.db")
        try:
            from tests.support.redis_server import RedisServer

            server = RedisServer(Path(tmp))
        except BaseException as e:  # pytest.skip raises outside pytest too
            print(f"redis    skipped: {e}")
            return
        server.start()
        try:
            await bench("redis", server.url)
        finally:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
