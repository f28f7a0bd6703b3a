"""How fast token-limiter counts, and what its input-side hook costs per step.

Run by hand: ``python bench/token_limiter.py``. Prints

* tokens counted per second: plain encoding of a long multilingual text, and the
  streaming counter (``StreamCounter``) fed word-sized deltas as the output side is;
* the cost of one ``process_llm_request`` (where the input side trims the outbound
  prompt, once per step) on a 500-message history with tool exchanges, trimmed to
  half its size: with the per-text count cache warm (every step after the first),
  cold (the first step), and with the cache disabled (``cache_size=0``);
* the same with ``max_tool_result_tokens`` set.

Numbers are medians over several runs on this machine; nothing here is asserted.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from tripwire import Message, MessageList, ToolInvocation, ToolInvocationPart
from tripwire.plugins.shared.tokens import StreamCounter, get_encoding
from tripwire.plugins.token_limiter import TokenLimiter

WORDS = (
    "the agent loop runs every processor in order and each hook may change what the model "
    "sees tokens budget context window guardrail streaming chunk tool result summary "
    "日本語 テキスト 한국어 문장 Привет мир données café naïve 12345 3.14159 {json: true}"
).split()


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)) + "."


def history(n: int, seed: int = 1) -> list[Message]:
    """``n`` messages: user and assistant turns of 20-200 words, and every tenth
    message an assistant tool exchange with a 100-800 word result."""
    rng = random.Random(seed)
    out: list[Message] = []
    for i in range(n):
        if i % 10 == 9:
            message = Message.assistant(sentence(rng, 10))
            message.content.parts.append(ToolInvocationPart(ToolInvocation(
                "result", f"call_{i}", "search", {"query": sentence(rng, 5)},
                {"hits": [sentence(rng, 20) for _ in range(rng.randint(5, 40))]},
            )))
        elif i % 2 == 0:
            message = Message.user(sentence(rng, rng.randint(20, 200)))
        else:
            message = Message.assistant(sentence(rng, rng.randint(20, 200)))
        out.append(message)
    return out


def prompt_of(messages: list[Message]) -> list[dict[str, Any]]:
    """The outbound prompt as the agent builds it (system messages, then core form)."""
    ml = MessageList(messages, system_messages=["You are a helpful assistant. " * 20])
    return [dict(s) for s in ml.system_messages] + ml.all.core()


def median_seconds(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def abort(reason: str, **_: Any) -> None:
    raise SystemExit(f"unexpected tripwire: {reason}")


def main() -> None:
    encoding = get_encoding("o200k_base")
    start = time.perf_counter()
    get_encoding("cl100k_base")
    print(f"loading cl100k_base (rank file, hash check, tiktoken build): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms, once per process")

    rng = random.Random(7)
    text = " ".join(sentence(rng, 50) for _ in range(2000))
    tokens = encoding.count(text)
    seconds = median_seconds(lambda: encoding.count(text), 5)
    print(f"counting: {tokens:,} tokens in {seconds * 1000:.1f} ms = "
          f"{tokens / seconds / 1e6:.2f} M tokens/s (tiktoken core)")

    deltas = [w + " " for w in text.split(" ")[:20_000]]
    streamed = encoding.count("".join(deltas))

    def stream() -> None:
        counter = StreamCounter(encoding)
        for d in deltas:
            counter.add(d)

    seconds = median_seconds(stream, 3)
    print(f"streaming: {len(deltas):,} word deltas ({streamed:,} tokens) in "
          f"{seconds * 1000:.0f} ms = {streamed / seconds / 1e3:.0f} k tokens/s, "
          f"{seconds / len(deltas) * 1e6:.1f} us per delta")

    messages = history(500)
    prompt = prompt_of(messages)
    total = TokenLimiter(10**9).counter
    full = sum(total.message(m) for m in prompt) + 3
    limit = full // 2
    print(f"\nhistory: 500 messages -> {len(prompt)} prompt messages, {full:,} tokens; "
          f"limit {limit:,}")

    measure("", prompt, limit, {})
    measure(" with max_tool_result_tokens=200", prompt, limit, {"max_tool_result_tokens": 200})


def measure(label: str, prompt: list[dict[str, Any]], limit: int, options: dict[str, Any]) -> None:
    cached = TokenLimiter(limit, **options)
    first = cached.process_llm_request(prompt=prompt, abort=abort)
    kept = len(first["prompt"]) if first else len(prompt)
    warm = median_seconds(lambda: cached.process_llm_request(prompt=prompt, abort=abort), 20)
    cold = median_seconds(
        lambda: TokenLimiter(limit, **options).process_llm_request(prompt=prompt, abort=abort),
        5,
    )
    uncached = TokenLimiter(limit, cache_size=0, **options)
    none = median_seconds(lambda: uncached.process_llm_request(prompt=prompt, abort=abort), 5)
    print(f"process_llm_request{label} (keeps {kept} of {len(prompt)}):")
    print(f"  cache warm (every later step): {warm * 1000:8.2f} ms")
    print(f"  cache cold (first step):       {cold * 1000:8.2f} ms")
    print(f"  cache disabled:                {none * 1000:8.2f} ms  "
          f"({none / warm:.0f}x the warm cost)")

if __name__ == "__main__":
    main()
