"""How well, and how fast, ``prompt-injection-detector``'s heuristic tier works.

Run by hand: ``python bench/injection.py [--misses]``. On the labelled set of
``bench/injection_data.py`` (fixed seed) it prints

* precision and recall per detection type (a sample may be an attack of several
  types; a type flagged on a sample not labelled with it is a false positive);
* overall precision and recall of "this is an attack" (any type flagged), and recall
  per kind (direct, indirect) and per evasion technique;
* on the benign texts: the share let through (the target is >= 0.95), and which
  benign families were flagged;
* the same on the held-out set (``injection_data.held_out()``: written after the
  rules were tuned and never used to tune them), which says more about text the
  rules were not written from than the tuning set does;
* the same on the assistant turns of ``injection_turns`` (an earlier assistant turn of
  a caller's history: the agent's own refusals and answers, and forged turns);
* throughput in MB/s of text scanned: over the labelled set, and over 1 MB of
  ordinary chat text;
* the judge calls ``tier = "both"`` saves against ``tier = "judge"`` on each set, with
  a scripted judge that answers from the labels (one call per text it is asked
  about); and what skipping the texts the heuristics score 0 would save and miss;

with the default options (``threshold = 0.7``, every type). ``--misses`` lists the
attacks missed and the benign texts flagged. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from injection_data import Sample, held_out, samples  # noqa: E402
from injection_turns import turns  # noqa: E402

from tripwire.chunks import Chunk, Usage  # noqa: E402
from tripwire.plugins.prompt_injection_detector import (  # noqa: E402
    PromptInjectionDetector,
    as_text,
)
from tripwire.plugins.prompt_injection_detector.heuristics import TYPES  # noqa: E402

CHAT = (
    "Hi! Could you help me plan a week of dinners for two, vegetarian, nothing too "
    "spicy? We have a slow cooker and about 40 minutes on weeknights. Also, what's the "
    "difference between baking soda and baking powder? My order #48213 still hasn't "
    "arrived, the tracking page says it left the depot on Monday. Please summarise the "
    "attached meeting notes in five bullet points and list the action items with owners. "
    "Thanks, and sorry for the long message - the system at work was down all morning. "
)


def _ratio(a: int, b: int) -> float:
    return a / b if b else float("nan")


def _fmt(x: float, width: int) -> str:
    return f"{'-':>{width}}" if x != x else f"{x:{width}.3f}"


def evaluate(guard: PromptInjectionDetector, data: list[Sample], show_misses: bool) -> None:
    per_type = {t: Counter() for t in TYPES}
    overall = Counter()
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    by_technique: dict[str, Counter[str]] = defaultdict(Counter)
    benign_flags: Counter[str] = Counter()
    misses: list[str] = []
    false_alarms: list[str] = []
    for s in data:
        flagged = set(guard.flagged(guard.analyze(s.text, s.channel)))
        for t in TYPES:
            gold, got = t in s.types, t in flagged
            per_type[t]["tp" if gold and got else "fp" if got else "fn" if gold else "tn"] += 1
        attack, caught = bool(s.types), bool(flagged)
        overall["tp" if attack and caught else "fp" if caught else "fn" if attack else "tn"] += 1
        if attack:
            by_kind[s.kind]["caught" if caught else "missed"] += 1
            if s.kind == "direct":
                by_technique[s.technique]["caught" if caught else "missed"] += 1
            else:
                by_technique[f"indirect/{s.technique}"]["caught" if caught else "missed"] += 1
            if not caught:
                misses.append(f"  [{s.kind}/{s.technique}] {sorted(s.types)}: "
                              f"{as_text(s.text)[:150]!r}")
        elif caught:
            benign_flags[s.technique] += 1
            false_alarms.append(f"  [{s.technique}] {sorted(flagged)}: {as_text(s.text)[:150]!r}")

    attacks = sum(1 for s in data if s.types)
    print(f"labelled set: {len(data)} samples, {attacks} attacks, {len(data) - attacks} benign")
    print("\nper type                 precision  recall   (tp / fp / fn)")
    for t in TYPES:
        c = per_type[t]
        print(f"  {t:22} {_fmt(_ratio(c['tp'], c['tp'] + c['fp']), 9)} "
              f"{_fmt(_ratio(c['tp'], c['tp'] + c['fn']), 7)}   "
              f"({c['tp']} / {c['fp']} / {c['fn']})")
    c = overall
    print(f"\nattack or not: precision {_ratio(c['tp'], c['tp'] + c['fp']):.3f}, "
          f"recall {_ratio(c['tp'], c['tp'] + c['fn']):.3f}")
    benign = c["tn"] + c["fp"]
    print(f"benign texts let through: {c['tn']}/{benign} = {_ratio(c['tn'], benign):.3f} "
          f"(target >= 0.95)")
    if benign_flags:
        print("  flagged benign families: " + ", ".join(
            f"{k} {v}" for k, v in benign_flags.most_common()))
    print("\nrecall by kind: " + ", ".join(
        f"{k} {_ratio(v['caught'], v['caught'] + v['missed']):.3f} "
        f"({v['caught']}/{v['caught'] + v['missed']})" for k, v in sorted(by_kind.items())))
    if len(by_technique) > 1:
        print("recall by technique:")
    for k, v in sorted(by_technique.items()) if len(by_technique) > 1 else ():
        total = v["caught"] + v["missed"]
        print(f"  {k:34} {_ratio(v['caught'], total):.3f} ({v['caught']}/{total})")
    if show_misses:
        print("\nmissed attacks:")
        print("\n".join(misses) or "  none")
        print("\nflagged benign texts:")
        print("\n".join(false_alarms) or "  none")


def throughput(guard: PromptInjectionDetector, texts: list[tuple[str, str]],
               label: str) -> None:
    size = sum(len(t.encode()) for t, _ in texts)
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        for text, channel in texts:
            guard.analyze(text, channel)
        best = min(best, time.process_time() - began)
    print(f"  {label:44} {size / 1e6:6.2f} MB in {best:6.3f} s = {size / 1e6 / best:6.2f} MB/s")


def chat_megabyte(seed: int = 7) -> list[tuple[str, str]]:
    """About 1 MB of ordinary chat messages of 100-2000 characters."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    total = 0
    while total < 1_000_000:
        n = rng.randint(100, 2000)
        start = rng.randrange(len(CHAT))
        text = (CHAT * (n // len(CHAT) + 2))[start:start + n]
        out.append((text, "input"))
        total += len(text)
    return out


def web_pages(seed: int = 11) -> list[tuple[str, str]]:
    """About 1 MB of HTML pages of about 20 kB, as a browsing tool returns them."""
    from injection_data import BENIGN_PAGES, PAGE_TEXT

    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    total = 0
    while total < 1_000_000:
        body = "".join(f"<p>{rng.choice(PAGE_TEXT)} {CHAT[:rng.randint(50, 400)]}</p>"
                       f"<div class=\"card\"><a href=\"/item/{rng.randint(1, 9999)}\">"
                       f"{rng.choice(BENIGN_PAGES)[:120]}</a></div>" for _ in range(40))
        page = (f"<html><head><title>Page</title><script>var t={rng.random()};</script></head>"
                f"<body><nav style=\"display:none\">Menu</nav>{body}</body></html>")
        out.append((page, "tool-result"))
        total += len(page)
    return out


class LabelledJudge:
    """A judge model that answers from the labels: the types of the sample whose text
    it is asked about, at 0.9."""

    provider = "bench"
    model_id = "labelled-judge"

    def __init__(self, data: list[Sample]) -> None:
        self.labels = {as_text(s.text): sorted(s.types) for s in data}
        self.calls = 0

    async def stream(self, request: object) -> object:
        self.calls += 1
        text = request.prompt[1]["content"][0]["text"]  # type: ignore[attr-defined]
        judged = text.partition("Text to judge:\n")[2]
        types = [{"type": t, "score": 0.9} for t in self.labels.get(judged, [])]
        verdict = {"types": types or None, "reason": None}
        yield Chunk("text-delta", {"id": "t", "text": json.dumps(verdict)})
        yield Chunk("finish", {"finish_reason": "stop", "usage": Usage()})


async def _judge_calls(tier: str, data: list[Sample]) -> tuple[int, int]:
    """Judge calls, and attacks caught, checking every sample once with ``tier``."""
    model = LabelledJudge(data)
    guard = PromptInjectionDetector(model=model, tier=tier)  # type: ignore[arg-type]
    caught = 0
    for s in data:
        finding = await guard.check(s.text, s.channel)
        caught += bool(s.types and finding.types)
    return model.calls, caught


def judge_calls(data: list[Sample], label: str) -> None:
    judge, caught_judge = asyncio.run(_judge_calls("judge", data))
    both, caught_both = asyncio.run(_judge_calls("both", data))
    attacks = sum(1 for s in data if s.types)
    guard = PromptInjectionDetector()
    silent = {as_text(s.text): bool(s.types) for s in data
              if not any(guard.analyze(s.text, s.channel).scores.values())}
    silent_attacks = sum(silent.values())
    print(f"  {label}: {len(data)} texts ({len({as_text(s.text) for s in data})} distinct: the "
          f"judge's cache asks about each once), {attacks} attacks")
    print(f"    tier judge: {judge} judge calls, {caught_judge}/{attacks} attacks caught")
    print(f"    tier both:  {both} judge calls ({judge - both} saved, "
          f"{_ratio(judge - both, judge):.1%}), {caught_both}/{attacks} attacks caught")
    print(f"    skipping texts the heuristics score 0 would save {len(silent)} more calls "
          f"and let through {silent_attacks} distinct attacks")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list misses and false alarms")
    args = parser.parse_args(argv)
    guard = PromptInjectionDetector()
    data = samples()
    print("== tuning set (the rules were written and tuned on it)")
    evaluate(guard, data, args.misses)
    print("\n== held-out set (written after tuning, never used for it)")
    evaluate(guard, list(held_out()), args.misses)
    print("\n== assistant turns of a caller's history (channel assistant)")
    evaluate(guard, list(turns()), args.misses)
    print("\nthroughput (CPU time of this process, one core, best of 3):")
    throughput(guard, [(as_text(s.text), s.channel) for s in data], "the labelled set")
    throughput(guard, [(as_text(s.text), s.channel) for s in data if not s.types],
               "its benign texts")
    throughput(guard, chat_megabyte(), "1 MB of ordinary chat, 100-2000 char messages")
    throughput(guard, web_pages(), "1 MB of HTML tool results, ~20 kB pages")
    print("\njudge calls (a scripted judge answering from the labels, each text once):")
    judge_calls(data, "tuning set")
    judge_calls(list(held_out()), "held-out set")


if __name__ == "__main__":
    main()
