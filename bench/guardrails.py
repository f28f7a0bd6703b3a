"""The deterministic guardrail tier: how well it finds, how fast it runs.

Run by hand:  python bench/guardrails.py [--samples 4000] [--mb 1] [--repeat 5]

Times are CPU time of this process (``time.process_time``), the best of ``--repeat``
runs: on a shared machine wall-clock time counts whatever else runs meanwhile.

1. Precision and recall per PII type of the built-in detectors (``pii-detector``'s
   deterministic tier) on the labelled set of ``bench/pii_data.py`` (fixed seed:
   valid values of every type, and hard negatives: order numbers, ISBNs, version
   strings, Luhn-invalid 16-digit numbers, timestamps, hashes, invalid SSNs and
   IBANs). A detection counts when its type matches a label and their spans overlap.
   Targets: precision >= 0.97 and recall >= 0.95 on the validated types.
2. Throughput of ``pii-detector`` + ``regex-filter`` (presets pii, secrets, urls), both
   redacting, on MB of chat text, one core, the best of ``--repeat`` runs, less the time
   of the same run without processors (the agent and its scripted model). Target:
   >= 20 MB/s.
3. The per-chunk cost of the hold-back window on a 20,000-delta stream: a processor
   that holds text back with ``tripwire.HoldBack`` (and finds nothing), against the
   same stream through a pass-through processor, the best of ``--repeat`` runs of each.
   Target: at most 2x.

(Prompt-injection numbers: ``python bench/injection.py``.)
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import defaultdict

from pii_data import chat_text, samples

from tripwire import Agent, Chunk, HoldBack, Message, Processor, hookimpl
from tripwire.detectors import DEFAULT_TYPES, build, detect_all
from tripwire.testing import MockModel, MockResponse


def precision_recall(n: int) -> dict[str, tuple[int, int, int]]:
    """Per type: (true positives, false positives, false negatives)."""
    detectors = build(DEFAULT_TYPES)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for sample in samples(7, n):
        found = detect_all(sample.text, detectors)
        matched_labels: set[int] = set()
        for d in found:
            hit = next((i for i, (t, s, e) in enumerate(sample.labels)
                        if t == d.type and d.start < e and s < d.end), None)
            if hit is None:
                counts[d.type][1] += 1
            else:
                counts[d.type][0] += 1
                matched_labels.add(hit)
        for i, (t, _s, _e) in enumerate(sample.labels):
            if i not in matched_labels:
                counts[t][2] += 1
    return {t: (c[0], c[1], c[2]) for t, c in counts.items()}


async def throughput(mb: float, repeat: int = 5) -> tuple[float, float, float]:
    """MB/s of pii-detector, regex-filter, and both, redacting input text: the best of
    ``repeat`` runs, each with new processors and messages. The same run with no
    processor (the agent and the scripted model, which counts the prompt's words for
    its usage) is timed too and taken off: what is left is the guardrails' time."""
    from tripwire.plugins.pii_detector import PIIDetector
    from tripwire.plugins.regex_filter import RegexFilter

    def regex() -> RegexFilter:
        return RegexFilter(presets=["pii", "secrets", "urls"], strategy="redact")

    text = chat_text(int(mb * 1_000_000))
    # One message per paragraph, as a long conversation would arrive.
    paragraphs = [text[i:i + 2000] for i in range(0, len(text), 2000)]
    best = [float("inf")] * 4
    for _ in range(repeat):
        for i, procs in enumerate(([], [PIIDetector()], [regex()],
                                   [PIIDetector(), regex()])):
            agent = Agent(id="bench", model=MockModel([MockResponse(text="ok")]),
                          input_processors=procs, default_error_processors=False)
            messages = [Message.user(p) for p in paragraphs]
            start = time.process_time()
            await agent.generate(messages)
            best[i] = min(best[i], time.process_time() - start)
    base = best[0]
    pii, regex_, both = (len(text) / 1e6 / max(t - base, 1e-9) for t in best[1:])
    return pii, regex_, both


class PassThrough(Processor):
    id = "pass"

    @hookimpl
    def process_output_stream(self, part):
        return part


class HoldsBack(Processor):
    """Holds text back as a 40-character-match guard would, and finds nothing."""

    id = "holds-back"

    @hookimpl
    def process_output_stream(self, part, state):
        hold = state.get("hold")
        if hold is None:
            hold = state["hold"] = HoldBack(40, lambda text: ())
        chunks, _matches = hold.push(part)
        return chunks


async def holdback_cost(deltas: int) -> tuple[float, float]:
    """µs per chunk of a whole agent.stream through each processor."""
    chunks = [Chunk("text-delta", {"id": "t", "text": "word "}) for _ in range(deltas)]
    out = []
    for proc in (PassThrough(), HoldsBack()):
        agent = Agent(id="bench", model=MockModel([MockResponse(chunks=chunks)]),
                      output_processors=[proc], default_error_processors=False)
        start = time.process_time()
        async for _ in agent.stream("hi"):
            pass
        out.append((time.process_time() - start) / deltas * 1e6)
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--deltas", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of each timing; the best counts")
    args = parser.parse_args()

    print(f"1. precision / recall per type, {args.samples} labelled texts")
    print(f"{'type':<15} {'precision':>9} {'recall':>7} {'tp':>5} {'fp':>4} {'fn':>4}")
    for kind, (tp, fp, fn) in sorted(precision_recall(args.samples).items()):
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        print(f"{kind:<15} {precision:>9.3f} {recall:>7.3f} {tp:>5} {fp:>4} {fn:>4}")

    pii, regex, both = asyncio.run(throughput(args.mb, args.repeat))
    print(f"\n2. throughput on {args.mb:g} MB of chat text, redacting: pii-detector "
          f"{pii:.1f} MB/s, regex-filter {regex:.1f} MB/s, both {both:.1f} MB/s")

    # Best of several runs of each, taken separately (the runs alternate): on a shared
    # machine a run's time is its own plus whatever else ran meanwhile.
    runs = [asyncio.run(holdback_cost(args.deltas)) for _ in range(args.repeat)]
    plain, held = min(r[0] for r in runs), min(r[1] for r in runs)
    print(f"\n3. hold-back window on a {args.deltas}-delta stream: {held:.2f} µs per chunk "
          f"against {plain:.2f} µs through a pass-through processor ({held / plain:.2f}x)")


if __name__ == "__main__":
    main()
