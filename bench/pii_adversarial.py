"""pii-detector's deterministic tier on adversarial text: what a client can make it cost.

Run by hand:  python bench/pii_adversarial.py [--mb 1] [--repeat 3] [--stream-kb 100]
              [--delta 16] [--only KIND ...]

A guard sits on every request (``tripwire serve`` runs it on what clients send), so a
text that is slow to search is a lever on the gateway. For each kind of input (chat
prose, then texts built of partial matches of each detector: repeated ``a@``, digit
groups, card-like groups, ``-----END ... KEY-----`` lines, URLs that end in
brackets, ...) this prints:

1. whole: MB/s of ``detect_all`` with every built-in detector (what ``pii-detector``
   runs on a message) on ``--mb`` MB, the slowest detector, and the time for twice the
   text over the time for ``--mb`` (2.0 is linear; more is super-linear);
2. stream (``--stream-kb``, 0 to skip): MB/s of ``pii-detector`` (``redact``) as an
   output processor on a stream of ``--delta``-character deltas (the hold-back window),
   less the same stream without it, at that size and at twice it (the ratio again).

Times are CPU time (``time.process_time``), the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Callable

from pii_data import chat_text

from tripwire import Agent, Chunk
from tripwire.detectors import DEFAULT_TYPES, build, detect_all
from tripwire.testing import MockModel, MockResponse


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _random_groups(sizes: tuple[int, ...], sep: str = " ") -> Callable[[int], str]:
    """Random digit groups of ``sizes`` (in turn), fixed seed: no cache helps."""
    def make(n: int) -> str:
        rng = random.Random(7)
        out: list[str] = []
        size = 0
        while size < n:
            for k in sizes:
                out.append("".join(rng.choice("0123456789") for _ in range(k)) + sep)
                size += k + len(sep)
        return "".join(out)[:n]
    return make


#: Input kind -> (the detector it aims at, a maker of ``n`` characters of it).
KINDS: dict[str, tuple[str, Callable[[int], str]]] = {
    "prose": ("-", chat_text),
    "a@": ("email", _repeat("a@")),
    "@b.cc": ("email", _repeat("@b.cc")),
    "a.a@a.": ("email", _repeat("a.a@a.")),
    "a:b@c ": ("email", _repeat("a:b@c ")),
    "unicode-digit@": ("email", _repeat("٣@")),
    "12 12 12": ("phone", _repeat("12 ")),
    "(55) (55)": ("phone", _repeat("(55) ")),
    "random 2-digit groups": ("phone", _random_groups((2,))),
    "random 3-3-4": ("phone", _random_groups((3, 3, 4))),
    "digits": ("credit-card", _repeat("1234567890")),
    "4111 4111": ("credit-card", _repeat("4111 ")),
    "4111-4111": ("credit-card", _repeat("4111-")),
    "random 4-digit groups": ("credit-card", _random_groups((4,))),
    "DE00 DE00": ("iban", _repeat("DE00 ")),
    "DE00AAAA": ("iban", _repeat("DE00AAAA")),
    "123-45-6789": ("ssn", _repeat("123-45-6789 ")),
    "born 1/1/1990": ("date-of-birth", _repeat("born 1/1/1990 ")),
    "1.1.1.1.": ("ip-address", _repeat("1.1.")),
    "a::a::": ("ip-address", _repeat("a::")),
    "a://a:": ("ip-address", _repeat("a://a:")),
    "aaaa-aaaa-": ("uuid", _repeat("-aaaa")),
    "http://": ("url", _repeat("http://")),
    "www.": ("url", _repeat("www.")),
    "url)))": ("url", _repeat("http://a.bc/" + ")" * 2000 + " ")),
    "END PRIVATE KEY lines": ("api-key", _repeat("-----END PRIVATE KEY-----\n")),
    "BEGIN PRIVATE KEY lines": ("api-key", _repeat("-----BEGIN RSA PRIVATE KEY-----\n")),
    "eyJ": ("api-key", _repeat("eyJ")),
    "api_key=<token>": ("api-key", _repeat("api_key=" + "a1" * 15 + " ")),
    "sk-": ("api-key", _repeat("sk-")),
    "bc1": ("crypto-wallet", _repeat("bc1")),
    "111...": ("crypto-wallet", _repeat("1")),
    "hex": ("crypto-wallet", _repeat("0123456789abcdef")),
}


def whole(text: str, repeat: int) -> tuple[float, str]:
    """Seconds of ``detect_all`` on ``text`` (best of ``repeat``), the slowest detector."""
    detectors = build(DEFAULT_TYPES)
    detect_all(text[:10_000], detectors)  # (phonenumbers loads its metadata on first use)
    best, per = float("inf"), {}
    for _ in range(repeat):
        start = time.process_time()
        detect_all(text, detectors)
        best = min(best, time.process_time() - start)
    for d in detectors:  # each alone (their shared views made by the first)
        start = time.process_time()
        list(d.detect(text))
        per[d.name] = time.process_time() - start
    return best, max(per, key=per.__getitem__)


async def _stream(text: str, delta: int, guarded: bool) -> float:
    from tripwire.plugins.pii_detector import PIIDetector

    chunks = [Chunk("text-delta", {"id": "t", "text": text[i:i + delta]})
              for i in range(0, len(text), delta)]
    procs = [PIIDetector(strategy="redact")] if guarded else []
    agent = Agent(id="bench", model=MockModel([MockResponse(chunks=chunks)]),
                  output_processors=procs, default_error_processors=False)
    start = time.process_time()
    async for _ in agent.stream("hi"):
        pass
    return time.process_time() - start


def stream(text: str, delta: int, repeat: int) -> float:
    """Seconds ``pii-detector`` adds to streaming ``text`` (best of ``repeat``)."""
    base = min(asyncio.run(_stream(text, delta, False)) for _ in range(repeat))
    return max(1e-9, min(asyncio.run(_stream(text, delta, True)) for _ in range(repeat))
               - base)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing; the best counts")
    parser.add_argument("--stream-kb", type=int, default=100, help="0: no stream timings")
    parser.add_argument("--delta", type=int, default=16, help="characters per streamed delta")
    parser.add_argument("--only", nargs="*", default=None, help="input kinds to run")
    args = parser.parse_args()
    n = int(args.mb * 1e6)
    print(f"{'input':<22} {'aims at':<14} {'whole MB/s':>10} {'2x time':>7}  {'slowest':<14}"
          + (f" {'stream MB/s':>11} {'2x time':>7}" if args.stream_kb else ""))
    for name, (target, make) in KINDS.items():
        if args.only and name not in args.only:
            continue
        t1, slowest = whole(make(n), args.repeat)
        t2, _ = whole(make(2 * n), args.repeat)
        line = (f"{name:<22} {target:<14} {n / 1e6 / t1:>10.2f} {t2 / t1:>7.2f}  "
                f"{slowest:<14}")
        if args.stream_kb:
            size = args.stream_kb * 1000
            s1 = stream(make(size), args.delta, args.repeat)
            s2 = stream(make(2 * size), args.delta, args.repeat)
            line += f" {size / 1e6 / s1:>11.3f} {s2 / s1:>7.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
