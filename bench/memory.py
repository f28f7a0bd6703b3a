"""Memory store timings (run by hand: ``python bench/memory.py [--messages N]``).

- load: ``last_messages(thread, 40)`` from a SQLite store holding 100k messages (1,000
  threads of 100), what ``message-history`` does before every run;
- recall: exact top-4 search over 100k stored vectors of 256 dimensions (the
  ``hashing`` embedder's) within one resource, what ``semantic-recall`` does: the
  first query of a process (every vector read from the file), then with the vectors
  in memory, and after a run added two (only those are read);
- save: one run (a user message and an assistant reply) saved in one transaction,
  what ``message-history`` does after every accepted run; and the whole agent run
  with memory against a scripted model, with and without memory, for the overhead.

Each figure is the median of repeated runs on a warm store (the file in a temp dir).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tripwire import Agent, Memory, Message
from tripwire.memory import VectorRow, open_store
from tripwire.testing import MockModel


async def timed(fn: Callable[[], Awaitable[Any]], repeat: int) -> float:
    """Median milliseconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def main(messages: int, dims: int) -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        store = open_store(url)
        per_thread = 100
        threads = messages // per_thread
        start = time.perf_counter()
        for t in range(threads):
            batch = [Message.user(f"message {i} of thread {t}: " + "lorem ipsum " * 8)
                     for i in range(per_thread)]
            await store.save_messages(f"t{t}", f"r{t % 10}", batch)
            await store.save_vectors("bench", [
                VectorRow(m.id, f"t{t}", "r0", [rng.uniform(-1, 1) for _ in range(dims)])
                for m in batch])
        fill = time.perf_counter() - start
        print(f"filled {messages:,} messages and {messages:,} vectors ({dims} dims) "
              f"in {fill:.1f} s")

        load = await timed(lambda: store.last_messages("t500", 40), 50)
        print(f"load last 40 of {messages:,} messages: {load:.2f} ms")

        query = [rng.uniform(-1, 1) for _ in range(dims)]
        colds = []
        for _ in range(3):  # a store that has not read the vectors yet (a new process)
            cold_store = open_store(url)
            start = time.perf_counter()
            await cold_store.query_vectors("bench", query, 4, resource_id="r0")
            colds.append((time.perf_counter() - start) * 1000)
            await cold_store.close()
        print(f"exact recall top_k 4 over {messages:,} vectors, first query of a process: "
              f"{statistics.median(colds):.0f} ms")
        await store.query_vectors("bench", query, 4, resource_id="r0")
        warm = await timed(lambda: store.query_vectors("bench", query, 4, resource_id="r0"), 10)
        print(f"exact recall top_k 4 over {messages:,} vectors, vectors in memory: "
              f"{warm:.1f} ms")
        added = 0

        async def after_a_run() -> None:
            nonlocal added
            added += 1
            await store.save_vectors("bench", [
                VectorRow(f"new-{added}-{i}", "t-new", "r0",
                          [rng.uniform(-1, 1) for _ in range(dims)]) for i in range(2)])
            await store.query_vectors("bench", query, 4, resource_id="r0")

        incremental = await timed(after_a_run, 10)
        print(f"save 2 vectors, then recall over all of them: {incremental:.1f} ms")

        async def save() -> None:
            await store.save_messages("t-new", "r1", [Message.user("hello"),
                                                      Message.assistant("hi there")])

        saved = await timed(save, 50)
        print(f"save of one run (2 messages, one transaction): {saved:.2f} ms")

        plain = Agent(id="plain", model=MockModel(["ok"] * 200))
        remembering = Agent(id="mem", model=MockModel(["ok"] * 200),
                            memory=Memory(store, last_messages=40))
        without = await timed(lambda: plain.generate("hi"), 100)
        with_memory = await timed(
            lambda: remembering.generate("hi", memory={"thread": "t500", "resource": "r0"}), 100)
        print(f"agent run, scripted model: {without:.2f} ms without memory, "
              f"{with_memory:.2f} ms with message history (load 40 + save)")
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=256)
    args = parser.parse_args()
    asyncio.run(main(args.messages, args.dims))
