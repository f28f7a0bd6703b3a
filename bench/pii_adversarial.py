"""pii-detector's detectors on text built to be slow for them: what a client can make a
guard cost.

Run by hand:  python bench/pii_adversarial.py [--kb 200] [--stream-kb 50] [--delta 16]
              [--repeat 3] [--only KIND ...] [--against REV [--rounds 2]]

A guard sits on every request (``tripwire serve`` runs it on what clients send, in the
event loop of a worker), so a text that is slow to search is a lever on the gateway.
The inputs (``KINDS``) are chat prose and texts made of what each detector has to look
at twice: digit groups (random ones too, which a phone number check has to take
seriously), ``@``, ``://``, ``www.`` and ``eyJ`` runs, key lines, long hex, base58 and
base64 words, IBAN-like groups, dates and keywords, one long word, and for the offline
``name`` and ``address`` detectors (with the ``names`` extra; left out, with a note,
without it) texts of nothing but given names, greetings and titles, and of numbers and
capitalised words. It prints:

1. per detector, its slowest input: each detector alone (``detect``) on every input
   (``--kb`` KB), and on the one it is slowest on, MB/s *whole* (the text in one piece:
   an input message, a tool result, a reply from ``generate``) and *streamed*:
   ``pii-detector`` with that type alone as an output processor on the same text in
   ``--delta``-character deltas (``--stream-kb`` KB), less the same stream without it;
2. per input, ``pii-detector`` with every default type on it, streamed the same way.

Targets: every detector at least 1 MB/s whole on its slowest input, and a stream of
every default type at least 0.5 MB/s on any input.

``--against REV`` measures the git revision REV too (a temporary worktree; both trees
run this script in turns, ``--rounds`` times, the best of each cell kept), each
detector on the input this tree finds slowest for it, side by side.

Times are CPU time (``time.process_time``), the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import string
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pii_data import chat_text

Maker = Callable[[int], str]


def _repeat(unit: str) -> Maker:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _words(make_word: Callable[[random.Random], str], sep: str = " ") -> Maker:
    """Words from ``make_word`` (fixed seed: no cache helps) joined by ``sep``."""
    def make(n: int) -> str:
        rng = random.Random(7)
        out: list[str] = []
        size = 0
        while size < n:
            word = make_word(rng) + sep
            out.append(word)
            size += len(word)
        return "".join(out)[:n]
    return make


def _chars(alphabet: str, k: int) -> Callable[[random.Random], str]:
    return lambda rng: "".join(rng.choice(alphabet) for _ in range(k))


def _groups(*sizes: int, joiner: str = " ", prefix: str = "") -> Callable[[random.Random], str]:
    """Random digit groups of ``sizes`` (a word of them, ``joiner`` between)."""
    return lambda rng: prefix + joiner.join(_chars(string.digits, k)(rng) for k in sizes)


#: Given names of the four languages (the name detector judges each run of capitals).
GIVEN = ("Anna Maria John Pierre Hans José Emma Lucas Olivia Noah Liam Sofia Léa Jürgen "
         "Carmen Pablo Claire Thomas Laura David Julia Marc Elena Luis").split()


def _date(rng: random.Random) -> str:
    return f"born {rng.randint(1, 28)}/{rng.randint(1, 12)}/{rng.randint(1900, 2020)}"


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B64 = string.ascii_letters + string.digits + "+/"
B64URL = string.ascii_letters + string.digits + "_-"
HEX = "0123456789abcdef"

#: Input -> (the detector it aims at, a maker of ``n`` characters of it).
KINDS: dict[str, tuple[str, Maker]] = {
    "prose": ("-", chat_text),
    # email: "@"s without an address, addresses, local parts too long to be one
    "a@": ("email", _repeat("a@")),
    "@b.cc": ("email", _repeat("@b.cc")),
    "a.a@a.": ("email", _repeat("a.a@a.")),
    "a:b@c ": ("email", _repeat("a:b@c ")),
    "٣@ (other digits)": ("email", _repeat("٣@")),
    "70-char local parts": ("email", _repeat("a" * 70 + "@b.cc ")),
    "addresses": ("email", _words(lambda r: _chars(string.ascii_lowercase, 6)(r) + "@example.com")),
    # phone: digit groups, repeated and random, national and international
    "12 12 12": ("phone", _repeat("12 ")),
    "(55) (55)": ("phone", _repeat("(55) ")),
    "random 2-digit groups": ("phone", _words(_groups(2))),
    "random 3-3-4": ("phone", _words(_groups(3, 3, 4))),
    "random 1 3-3-4": ("phone", _words(_groups(1, 3, 3, 4))),
    "random +2 3-3-4": ("phone", _words(_groups(2, 3, 3, 4, prefix="+"))),
    "random 00 2-3-3-4": ("phone", _words(_groups(2, 3, 3, 4, prefix="00"))),
    # credit-card: digit runs and groups of four
    "digits": ("credit-card", _repeat("1234567890")),
    "4111 4111": ("credit-card", _repeat("4111 ")),
    "4111-4111": ("credit-card", _repeat("4111-")),
    "random 4-digit groups": ("credit-card", _words(_groups(4))),
    "random 16 digits": ("credit-card", _words(_chars(string.digits, 16))),
    # iban
    "DE00 DE00": ("iban", _repeat("DE00 ")),
    "DE00AAAA": ("iban", _repeat("DE00AAAA")),
    "random IBAN-like groups": ("iban", _words(lambda r: "GB" + _chars(string.digits, 2)(r) + " "
                                               + " ".join(_chars(string.ascii_uppercase
                                                                 + string.digits, 4)(r)
                                                          for _ in range(5)))),
    # ssn and date-of-birth: numbers and dates near their keywords
    "123-45-6789": ("ssn", _repeat("123-45-6789 ")),
    "SSN random 3-2-4": ("ssn", _words(_groups(3, 2, 4, joiner="-", prefix="SSN "))),
    "born 1/1/1990": ("date-of-birth", _repeat("born 1/1/1990 ")),
    "born random dates": ("date-of-birth", _words(_date)),
    "March 1 March 1": ("date-of-birth", _repeat("born March 1 ")),
    # ip-address and uuid
    "1.1.1.1.": ("ip-address", _repeat("1.1.")),
    "a::a::": ("ip-address", _repeat("a::")),
    "a://a:": ("ip-address", _repeat("a://a:")),
    "random dotted quads": ("ip-address", _words(_groups(3, 3, 3, 3, joiner="."))),
    "hex:colon runs": ("ip-address", _words(lambda r: ":".join(_chars(HEX, 4)(r)
                                                              for _ in range(9)))),
    "aaaa-aaaa-": ("uuid", _repeat("-aaaa")),
    "random 8-4-4-4-13": ("uuid", _words(lambda r: "-".join(_chars(HEX, k)(r)
                                                            for k in (8, 4, 4, 4, 13)))),
    # url
    "http://": ("url", _repeat("http://")),
    "www.": ("url", _repeat("www.")),
    "url)))": ("url", _repeat("http://a.bc/" + ")" * 2000 + " ")),
    "URLs": ("url", _words(lambda r: "https://" + _chars(string.ascii_lowercase, 6)(r)
                           + ".com/" + _chars(B64URL, 10)(r))),
    # api-key
    "END PRIVATE KEY lines": ("api-key", _repeat("-----END PRIVATE KEY-----\n")),
    "BEGIN PRIVATE KEY lines": ("api-key", _repeat("-----BEGIN RSA PRIVATE KEY-----\n")),
    "eyJ": ("api-key", _repeat("eyJ")),
    "eyJ segments": ("api-key", _words(lambda r: "eyJ" + _chars(B64URL, 20)(r) + "."
                                       + _chars(B64URL, 20)(r) + "." + _chars(B64URL, 8)(r))),
    "api_key=<token>": ("api-key", _repeat("api_key=" + "a1" * 15 + " ")),
    "password: random tokens": ("api-key", _words(lambda r: "password: " + _chars(B64, 32)(r))),
    "sk-": ("api-key", _repeat("sk-")),
    "scheme://user:pass@": ("api-key", _repeat("https://u:p@")),
    "one base64 word": ("api-key", _words(_chars(B64, 1000), sep="")),
    # crypto-wallet
    "bc1": ("crypto-wallet", _repeat("bc1")),
    "111...": ("crypto-wallet", _repeat("1")),
    "hex": ("crypto-wallet", _repeat("0123456789abcdef")),
    "random base58 words": ("crypto-wallet", _words(_chars(B58, 34))),
    "random 0x mixed-case hex": ("crypto-wallet", _words(lambda r: "0x" + _chars(
        "0123456789abcdefABCDEF", 40)(r))),
    # name (the names extra): runs of capitals, each a name to judge in its context
    "Anna, Anna": ("name", _repeat("Anna, ")),
    "Anna,Anna (a row)": ("name", _repeat("Anna,")),
    "random given names, commas": ("name", _words(lambda r: r.choice(GIVEN), sep=", ")),
    "Dear John, Hi Anna": ("name", _repeat("Dear John, Hi Anna, Hallo Hans, ")),
    "titles and names": ("name", _repeat("Mr Smith met Dr Anna Maria Müller at Rue de la Paix 12. ")),
    # address (the names extra): numbers and capitalised words, street words
    "A 1 A 1": ("address", _repeat("A 1 ")),
    "1 St 1 St": ("address", _repeat("1 St ")),
    "random street lines": ("address", _words(lambda r: f"{r.randint(1, 999)} "
                                              f"{r.choice(['Main', 'Oak', 'Haupt', 'Lange'])} "
                                              f"{r.choice(['St', 'Street', 'Str.', 'Weg', 'rue'])}")),
    # one long word
    "aaaa...": ("-", _repeat("a")),
    "one random word": ("-", _words(_chars(string.ascii_letters, 1000), sep="")),
}


# ------------------------------------------------------------------ measurements


def _best(run: Callable[[], float], repeat: int) -> float:
    return min(run() for _ in range(repeat))


def whole(name: str, text: str, repeat: int) -> float:
    """Seconds of detector ``name`` alone on ``text``, whole (best of ``repeat``), each
    run a new detector: what one keeps of the verdicts it gave (a stream reads its text
    more than once) does not carry over to the next run."""
    from tripwire.detectors import build

    (detector,) = build([name])
    list(detector.detect(text))  # (phonenumbers loads its metadata, the address detector
    # makes its patterns, on first use)

    def run() -> float:
        (detector,) = build([name])
        fresh = (" " + text)[1:]  # (a new string: the views of the last text are kept)
        start = time.process_time()
        list(detector.detect(fresh))
        return time.process_time() - start

    return _best(run, repeat)


async def _stream(text: str, delta: int, types: list[str] | None) -> float:
    from tripwire import Agent, Chunk
    from tripwire.plugins.pii_detector import PIIDetector
    from tripwire.testing import MockModel, MockResponse

    chunks = [Chunk("text-delta", {"id": "t", "text": text[i:i + delta]})
              for i in range(0, len(text), delta)]
    options = {} if types is None else {"detection_types": types}
    procs = [] if types == [] else [PIIDetector(strategy="redact", **options)]
    agent = Agent(id="bench", model=MockModel([MockResponse(chunks=chunks)]),
                  output_processors=procs, default_error_processors=False)
    start = time.process_time()
    async for _ in agent.stream("hi"):
        pass
    return time.process_time() - start


def streamed(text: str, delta: int, types: list[str] | None, repeat: int) -> float:
    """Seconds ``pii-detector`` (``types``, or the default ones) adds to streaming
    ``text`` in ``delta``-character deltas (best of ``repeat``)."""
    base = _best(lambda: asyncio.run(_stream(text, delta, [])), repeat)
    return max(1e-9, _best(lambda: asyncio.run(_stream(text, delta, types)), repeat) - base)


#: The type sets ``--held`` measures.
HELD_TYPES: list[list[str] | None] = [
    ["credit-card"], ["phone"], ["ssn"], ["iban"], ["ip-address"], ["uuid"], ["email"],
    ["url"], ["api-key"], ["crypto-wallet"], ["date-of-birth"], ["email", "url", "api-key"],
    None]


def held_back(types: list[str] | None, text: str, delta: int) -> list[int]:
    """How many characters ``pii-detector``'s window (``types``, or the default ones)
    holds back after each ``delta``-character delta of ``text``."""
    from tripwire import Chunk
    from tripwire.plugins.pii_detector import PIIDetector
    from tripwire.plugins.pii_detector.window import StreamWindow

    guard = PIIDetector(strategy="redact", **({"detection_types": types} if types else {}))
    scan = guard._scan
    window = StreamWindow(guard.max_length, scan.find, lambda match: "[REDACTED]",
                          detectors=scan.detectors, raw=scan.raw)
    out = []
    for i in range(0, len(text), delta):
        window.push(Chunk("text-delta", {"id": "t", "text": text[i:i + delta]}))
        out.append(len(window.hold.held))
    return out


def report_held(args: argparse.Namespace) -> None:
    """``--held``: characters held back, chat text in ``delta``-character deltas."""
    text = chat_text(int(args.stream_kb * 1000))
    print(f"Characters held back after each {args.delta}-character delta of chat text "
          f"({args.stream_kb:g} KB)\n")
    print("| types | median | 95th percentile | most |\n| --- | --- | --- | --- |")
    for types in HELD_TYPES:
        held = sorted(held_back(types, text, args.delta))
        label = "every default type" if types is None else ", ".join(f"`{t}`" for t in types)
        print(f"| {label} | {held[len(held) // 2]} | {held[int(0.95 * len(held))]} "
              f"| {held[-1]} |")


def mbps(size: int, seconds: float) -> float:
    return size / 1e6 / seconds


def detector_types() -> list[str]:
    """The types measured: every default one, and ``name`` and ``address`` when the
    ``names`` extra is installed."""
    from tripwire.detectors import DEFAULT_TYPES, OFFLINE_TYPES, build
    from tripwire.errors import MissingDependencyError

    try:
        build(list(OFFLINE_TYPES))
    except MissingDependencyError:
        return list(DEFAULT_TYPES)
    return [*DEFAULT_TYPES, *OFFLINE_TYPES]


def measure(plan: dict, args: argparse.Namespace) -> dict:
    """The cells ``plan`` asks for, in MB/s: ``survey`` (every detector on every input,
    once), ``whole`` and ``streamed`` ([detector, input] pairs), ``all`` (inputs)."""
    whole_n, stream_n = int(args.kb * 1000), int(args.stream_kb * 1000)
    out: dict = {"survey": {}, "whole": {}, "streamed": {}, "all": {}}
    survey_n = min(whole_n, 50_000)  # (enough to tell the slowest input)
    types = detector_types() if plan.get("survey") else []
    for kind in plan.get("survey", []):
        text = KINDS[kind][1](survey_n)
        out["survey"][kind] = {name: mbps(survey_n, whole(name, text, 1)) for name in types}
    for name, kind in plan.get("whole", []):
        out["whole"][f"{name}/{kind}"] = mbps(whole_n, whole(name, KINDS[kind][1](whole_n),
                                                             args.repeat))
    for name, kind in plan.get("streamed", []):
        out["streamed"][f"{name}/{kind}"] = mbps(stream_n, streamed(
            KINDS[kind][1](stream_n), args.delta, [name], args.repeat))
    for kind in plan.get("all", []):
        out["all"][kind] = mbps(stream_n, streamed(KINDS[kind][1](stream_n), args.delta, None,
                                                   args.repeat))
    return out


def _run_tree(env: dict[str, str], cwd: str, plan: dict, args: argparse.Namespace) -> dict:
    """``measure(plan)`` in a fresh interpreter with ``env`` (whose ``PYTHONPATH``
    chooses the tree)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir=cwd, delete=False) as f:
        json.dump(plan, f)
    command = [sys.executable, __file__, "--plan", f.name, "--kb", str(args.kb),
               "--stream-kb", str(args.stream_kb), "--delta", str(args.delta),
               "--repeat", str(args.repeat)]
    done = subprocess.run(command, env=env, cwd=cwd, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def _merge(into: dict, more: dict) -> None:
    """Keep the best (highest MB/s) of each cell."""
    for table, cells in more.items():
        for cell, value in cells.items():
            old = into.setdefault(table, {}).get(cell)
            into[table][cell] = value if old is None or isinstance(value, dict) else max(old, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=float, default=200, help="KB per whole measurement")
    parser.add_argument("--stream-kb", type=float, default=50, help="KB per stream")
    parser.add_argument("--delta", type=int, default=16, help="characters per streamed delta")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timing; the best counts")
    parser.add_argument("--only", nargs="*", default=None, help="inputs to run")
    parser.add_argument("--against", metavar="REV", help="measure the git revision REV too")
    parser.add_argument("--rounds", type=int, default=1, help="turns of each tree, with --against")
    parser.add_argument("--held", action="store_true",
                        help="characters the window holds back on chat text, per type set")
    parser.add_argument("--plan", help=argparse.SUPPRESS)  # (a tree's share of --against)
    args = parser.parse_args()
    if args.held:
        report_held(args)
        return
    if args.plan:
        print(json.dumps(measure(json.loads(Path(args.plan).read_text()), args)))
        return
    kinds = [k for k in KINDS if args.only is None or k in args.only]
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _trees import revision_path

    with tempfile.TemporaryDirectory() as tmp:
        here = dict(os.environ)
        survey = _run_tree(here, tmp, {"survey": kinds}, args)["survey"]
        names = list(next(iter(survey.values())))
        slowest = {name: min(kinds, key=lambda k: survey[k][name]) for name in names}
        plan = {"whole": list(slowest.items()), "streamed": list(slowest.items()), "all": kinds}
        trees = {"this tree": here}
        results: dict[str, dict] = {}
        with revision_path(args.against, tmp) if args.against else _nothing() as path:
            if path is not None:
                trees[args.against] = {**here, "PYTHONPATH": str(path)}
            for _ in range(args.rounds if args.against else 1):
                for label, env in trees.items():
                    _merge(results.setdefault(label, {}), _run_tree(env, tmp, plan, args))
    report(results, slowest, kinds, args)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def report(results: dict[str, dict], slowest: dict[str, str], kinds: list[str],
           args: argparse.Namespace) -> None:
    labels = list(results)
    other = labels[1:]
    if "name" not in slowest:
        print("(name and address left out: the names extra is not installed, "
              "pip install 'tripwire[names]')\n")
    print(f"Each detector on its slowest input: MB/s whole ({args.kb:g} KB) and streamed "
          f"({args.stream_kb:g} KB in {args.delta}-character deltas, that type alone)\n")
    head = "| detector | slowest input | whole | streamed |" + "".join(
        f" {r} whole | {r} streamed |" for r in other)
    print(head)
    print("|" + " --- |" * (head.count("|") - 1))
    for name, kind in slowest.items():
        cell = f"{name}/{kind}"
        row = f"| {name} | {kind} |" + "".join(
            f" {results[label]['whole'][cell]:.2f} | {results[label]['streamed'][cell]:.2f} |"
            for label in labels)
        print(row)
    print(f"\npii-detector with every default type, streamed ({args.stream_kb:g} KB in "
          f"{args.delta}-character deltas): MB/s\n")
    head = "| input | aims at | MB/s |" + "".join(f" {r} |" for r in other)
    print(head)
    print("|" + " --- |" * (head.count("|") - 1))
    for kind in kinds:
        print(f"| {kind} | {KINDS[kind][0]} |" + "".join(
            f" {results[label]['all'][kind]:.2f} |" for label in labels))


if __name__ == "__main__":
    main()
