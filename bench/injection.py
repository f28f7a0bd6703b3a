"""How well, and how fast, ``prompt-injection-detector``'s heuristic tier works, beside
the offline peers a user would pick instead.

Run by hand: ``python bench/injection.py [--split dev|train|heldout|both] [--files GLOB]
[--peers ...] [--misses]``. It prints

* on the **written sets** (``bench/evalsets/``, loaded and scored by ``_evalsets``:
  realistic text in 13 languages written by people who had not read the detector,
  each language split into a development half, for tuning, and a held-out half, for
  measuring only; ``--split train``: the training set of ``bench/evalsets/train/``,
  other writers' texts by the same rules, which the model is trained on; ``--files``:
  only the split's files whose names match a glob, ``injection-*-2.jsonl`` for the
  second tuning set, ``injection-??.jsonl`` for the first): recall per language, per channel (``user``, ``tool-result``,
  ``document``) and per attack category, and the false-positive rate per language and
  per benign category, for the heuristic tier with its defaults (``tripwire``: the rules
  and the model; ``rules``: the rules alone) and each peer side by
  side (an absent split is skipped with a line saying so);
* on the **regression sets** the rules were written against (``injection_data``: its
  tuning set and the set written after tuning; ``injection_turns``: assistant turns of
  a caller's history): per type precision and recall, attack-or-not recall and the
  benign texts let through. They are checks that nothing known regressed, and an
  upper bound, not a measure of text the rules have not seen;
* throughput in MB/s of text scanned (``--speed``): over the labelled set, 1 MB of
  ordinary chat text and 1 MB of HTML pages (those two with the rules alone too);
* the judge calls ``tier = "both"`` saves against ``tier = "judge"`` (``--judge``), with
  a scripted judge that answers from the labels;

with the default options (``threshold = 0.7``, every type). ``--misses`` lists the
attacks missed and the benign texts flagged. Nothing here is asserted.

The peers (``bench/requirements.txt``) are the offline prompt-injection detectors that
install from PyPI and run with no network: rebuff's heuristic (its
``detect_pi_heuristics`` module, loaded from the installed package: the package's own
``__init__`` imports its SDK, which wants LangChain, OpenAI and Pinecone), last-layer
(a compiled library shipped in the package), ``prompt-injection-detector`` (a TF-IDF
and logistic-regression model shipped in the package) and promptshield-core (pattern
rules). A peer that is not installed, or fails, is reported as such. The ones that
cannot run here are listed by ``--peers list`` with the reason.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import types
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalsets  # noqa: E402
from injection_data import Sample, held_out, samples  # noqa: E402
from injection_turns import turns  # noqa: E402

from tripwire.chunks import Chunk, Usage  # noqa: E402
from tripwire.plugins.prompt_injection_detector import (  # noqa: E402
    PromptInjectionDetector,
    as_text,
)
from tripwire.plugins.prompt_injection_detector.heuristics import TYPES  # noqa: E402

#: The written sets' channels as the detector's: what a user types is ``input``.
CHANNELS = {"user": "input", "tool-result": "tool-result", "document": "document"}

Detector = Callable[[str, str], bool]
"""``(text, channel) -> flagged``: one detector's verdict on one text."""


def tripwire_detector(classifier: bool = True) -> Detector:
    """The heuristic tier with its defaults (``classifier = False``: the rules alone,
    without the model)."""
    guard = PromptInjectionDetector(classifier=classifier)
    return lambda text, channel: bool(guard.flagged(guard.analyze(text, channel)))


def rebuff_module() -> Any:
    """rebuff's ``detect_pi_heuristics``, loaded from the installed package by path
    (the package's ``__init__`` imports its SDK: LangChain, OpenAI, Pinecone)."""
    import importlib.util

    spec = importlib.util.find_spec("rebuff")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("rebuff is not installed")
    path = Path(list(spec.submodule_search_locations)[0]) / "detect_pi_heuristics.py"
    loader = importlib.util.spec_from_file_location("rebuff_heuristics", path)
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


def rebuff_detector() -> Detector:
    """rebuff's heuristic at its default ``max_heuristic_score`` (0.75): the best
    fuzzy match of the input's word runs against its 4,400 generated override phrases.

    rebuff's own function takes tens of seconds per paragraph (it regenerates and
    compares every phrase with every run of words), so this computes the same verdict
    faster: a run scores ``0.5 + 0.5 * min(matches / 5, 1) - similarity / 10`` where
    ``matches`` counts the words equal at the same position, so only runs with three
    or more matching words can pass 0.75, and only those are scored (with rebuff's own
    functions)."""
    from difflib import SequenceMatcher

    rebuff = rebuff_module()
    phrases = [rebuff.normalize_string(k) for k in rebuff.generate_injection_keywords()]
    by_length: dict[int, dict[tuple[int, str], list[int]]] = defaultdict(
        lambda: defaultdict(list))
    for i, phrase in enumerate(phrases):
        for position, word in enumerate(phrase.split(" ")):
            by_length[len(phrase.split(" "))][position, word].append(i)

    def score(text: str) -> float:
        words = rebuff.normalize_string(text).split(" ")
        best = 0.0
        for length, index in by_length.items():
            for start in range(len(words) - length + 1):
                run = words[start:start + length]
                hits = Counter(i for position, word in enumerate(run)
                               for i in index.get((position, word), ()))
                for i, n in hits.items():
                    if n < 3:
                        continue
                    phrase = phrases[i]
                    substring = " ".join(run)
                    similarity = SequenceMatcher(None, substring, phrase).ratio()
                    matched = rebuff.get_matched_words_score(substring, phrase.split(" "), 5)
                    best = max(best, matched - similarity / 10)
        return best

    return lambda text, channel: score(text) > 0.75


def last_layer_detector() -> Detector:
    """last-layer's ``scan_prompt``: flagged when it does not pass."""
    try:
        import pkg_resources  # noqa: F401
    except ImportError:
        # last-layer finds its library with pkg_resources, which setuptools 81 and
        # later no longer ship: the one function it calls, over importlib.resources
        import importlib.resources

        shim = types.ModuleType("pkg_resources")
        shim.resource_filename = (  # type: ignore[attr-defined]
            lambda package, name: str(importlib.resources.files(package) / name))
        sys.modules["pkg_resources"] = shim
    import last_layer

    return lambda text, channel: not last_layer.scan_prompt(text).passed


def pid_detector() -> Detector:
    """``prompt-injection-detector`` (PyPI): its shipped TF-IDF and logistic-regression
    model; flagged when its decision is not ``allow`` (risk over 0.5)."""
    import warnings

    from prompt_injection_detector import Scanner

    scanner = Scanner()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scikit-learn's version warning on unpickling
        scanner.scan("warm up")
    return lambda text, channel: scanner.scan(text).decision != "allow"


def promptshield_detector() -> Detector:
    """promptshield-core's ``PromptGuard`` at its default threshold (40)."""
    from promptshield import PromptGuard

    guard = PromptGuard()
    return lambda text, channel: not guard.scan(text).is_safe


#: The offline peers: name, how to build one, the package that provides it.
PEERS: dict[str, tuple[Callable[[], Detector], str]] = {
    "rebuff": (rebuff_detector, "rebuff"),
    "last-layer": (last_layer_detector, "last-layer"),
    "pi-detector": (pid_detector, "prompt-injection-detector"),
    "promptshield": (promptshield_detector, "promptshield-core"),
}

#: Peers a user would pick that cannot run on this machine, and why.
UNAVAILABLE = {
    "LLM Guard PromptInjection": "its model (protectai/deberta-v3-base-prompt-injection-v2) "
    "is downloaded from the Hugging Face hub at first use; the package's input scanners "
    "import torch, transformers and presidio even for its model-free scanners, none of "
    "which detects injection (BanSubstrings needs your own list, InvisibleText flags "
    "invisible characters only)",
    "NeMo Guardrails jailbreak heuristics": "length-per-perplexity and prefix/suffix "
    "perplexity score with GPT-2 large, downloaded from the Hugging Face hub; its "
    "injection_detection rails are YARA rules for code, SQL, XSS and template injection "
    "in model output, not prompt injection",
    "vigil": "not published on PyPI (installed from its Git repository, which this "
    "machine cannot reach); its YARA signatures are its offline part, its vector and "
    "transformer scanners need embeddings or a model from the Hugging Face hub",
    "jailguard": "its embedded classifier needs all-MiniLM-L6-v2 (ONNX, about 90 MB), "
    "downloaded at first use: it panics without network",
    "LlamaFirewall": "PromptGuard 2 is a model downloaded from the Hugging Face hub",
    "pytector": "a transformer model downloaded from the Hugging Face hub",
}


def build_detectors(names: list[str]) -> dict[str, Detector]:
    """tripwire's heuristics and the peers named (each built, or reported missing)."""
    detectors = {"tripwire": tripwire_detector(), "rules": tripwire_detector(classifier=False)}
    for name in names:
        build, package = PEERS[name]
        try:
            detectors[name] = build()
        except Exception as exc:  # noqa: BLE001 - a peer that fails is reported, not fatal
            print(f"peer {name}: not run ({type(exc).__name__}: {exc}; "
                  f"pip install {package})")
    return detectors


def load_files(split: str, files: str | None) -> list[dict[str, Any]]:
    """The injection records of ``split`` (``_evalsets.load``), only those of its files
    whose names match the glob ``files`` when given (an error when none does)."""
    records = _evalsets.load("injection", split)
    if files is None:
        return records
    paths = sorted((_evalsets.ROOT / split).glob(files))
    if not paths:
        raise SystemExit(f"--files {files!r}: no file of bench/evalsets/{split}/ matches "
                         f"(valid: a glob such as 'injection-*-2.jsonl')")
    wanted = {line for path in paths
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    keys = {(r.get("id"), r["text"]) for r in map(json.loads, wanted)}
    return [r for r in records if (r.get("id"), r["text"]) in keys]


def _cells(scores: dict[str, _evalsets.InjectionScore], table: str, axis: str,
           value: str) -> str:
    return "".join(f" {scores[name].rate(table, axis, value):>12.3f}" for name in scores)


def report_written(records: list[dict[str, Any]], detectors: dict[str, Detector],
                   show_misses: bool) -> None:
    """Recall and false-positive rate per language, channel and category, each
    detector side by side."""
    verdicts: dict[str, dict[int, bool]] = {}
    for name, detect in detectors.items():
        verdicts[name] = {i: detect(r["text"], CHANNELS.get(r.get("channel", "user"), "input"))
                          for i, r in enumerate(records)}
    index = {id(r): i for i, r in enumerate(records)}
    scores = {name: _evalsets.score_injection(records, lambda r, v=v: v[index[id(r)]])
              for name, v in verdicts.items()}
    attacks = [r for r in records if r["label"] == "attack"]
    benign = [r for r in records if r["label"] != "attack"]
    print(f"{len(records)} records: {len(attacks)} attacks, {len(benign)} benign")
    head = "".join(f" {name:>12}" for name in detectors)
    for table, title, rows in (("attacks", "recall", attacks), ("benign", "false positives",
                                                                 benign)):
        for axis in ("lang", "channel", "category"):
            counts = Counter(str(r.get(axis, "-")) for r in rows)
            print(f"\n{title} by {axis:10}      n{head}")
            for value in sorted(counts):
                print(f"  {value:22} {counts[value]:5}{_cells(scores, table, axis, value)}")
        print(f"  {'all':22} {len(rows):5}{_cells(scores, table, 'all', 'all')}")
    if show_misses:
        flags = verdicts["tripwire"]
        print("\nmissed attacks (tripwire):")
        for i, r in enumerate(records):
            if r["label"] == "attack" and not flags[i]:
                print(f"  [{r.get('id')} {r.get('channel')}/{r.get('category')}] "
                      f"{r['text'][:160]!r}")
        print("\nflagged benign texts (tripwire):")
        for i, r in enumerate(records):
            if r["label"] != "attack" and flags[i]:
                print(f"  [{r.get('id')} {r.get('channel')}/{r.get('category')}] "
                      f"{r['text'][:160]!r}")


def report_regression(data: list[Sample], detectors: dict[str, Detector]) -> None:
    """Attack-or-not recall and false-positive rate of each detector on a regression set."""
    attacks = [s for s in data if s.types]
    benign = [s for s in data if not s.types]
    print(f"  {'':14} {'recall':>8} {'false pos.':>10}")
    for name, detect in detectors.items():
        caught = sum(detect(as_text(s.text), s.channel) for s in attacks)
        flagged = sum(detect(as_text(s.text), s.channel) for s in benign)
        print(f"  {name:14} {_ratio(caught, len(attacks)):8.3f} "
              f"{_ratio(flagged, len(benign)):10.3f}")


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


def written_check(show_misses: bool) -> None:
    """The detector (rules and model) and the rules alone on ``injection_written``'s
    check texts: documents about attacks and for a human reader, and attacks without
    trigger words, in the 13 languages."""
    from injection_written import CHECK_ATTACKS, CHECK_BENIGN

    for name, guard in (("tripwire", PromptInjectionDetector()),
                        ("rules", PromptInjectionDetector(classifier=False))):
        flagged = [r for r in CHECK_BENIGN
                   if guard.flagged(guard.analyze(r[3], CHANNELS[r[1]]))]
        missed = [r for r in CHECK_ATTACKS
                  if not guard.flagged(guard.analyze(r[3], CHANNELS[r[1]]))]
        caught = len(CHECK_ATTACKS) - len(missed)
        print(f"  {name:9} attacks caught {caught}/{len(CHECK_ATTACKS)} "
              f"({_ratio(caught, len(CHECK_ATTACKS)):.2f}), benign flagged "
              f"{len(flagged)}/{len(CHECK_BENIGN)} ({_ratio(len(flagged), len(CHECK_BENIGN)):.2f})")
        for r in (missed + flagged) if show_misses else ():
            print(f"    {'missed' if r in missed else 'flagged'} {r[0]} {r[1]}: {r[3][:80]}")


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
    parser.add_argument("--split", choices=("dev", "train", "heldout", "both"), default="both",
                        help="which written set to report: the development half, the "
                             "training set (bench/evalsets/train/), the held-out half, or "
                             "both halves (default both)")
    parser.add_argument("--files", help="only the split's files matching this glob "
                                            "(e.g. 'injection-*-2.jsonl')")
    parser.add_argument("--peers", default="all",
                        help="comma-separated peers to run beside tripwire, 'all', 'none', "
                             "or 'list' to list them and those that cannot run here")
    parser.add_argument("--misses", action="store_true", help="list misses and false alarms")
    parser.add_argument("--no-regression", action="store_true",
                        help="skip the regression sets")
    parser.add_argument("--speed", action="store_true", help="measure throughput")
    parser.add_argument("--judge", action="store_true", help="count judge calls")
    args = parser.parse_args(argv)
    if args.peers == "list":
        for name, (_, package) in PEERS.items():
            print(f"{name:14} pip install {package}")
        print("\ncannot run here:")
        for name, why in UNAVAILABLE.items():
            print(f"  {name}: {why}")
        return
    names = (list(PEERS) if args.peers == "all" else [] if args.peers == "none"
             else [n.strip() for n in args.peers.split(",") if n.strip()])
    unknown = [n for n in names if n not in PEERS]
    if unknown:
        parser.error(f"unknown peers {', '.join(unknown)}; valid: {', '.join(PEERS)}")
    detectors = build_detectors(names)
    for split in ("dev", "heldout") if args.split == "both" else (args.split,):
        records = load_files(split, args.files)
        if not records:
            print(f"== written set, {split}: no records in bench/evalsets/{split}/ (skipped)")
            continue
        print(f"== written set, {split} {'set' if split == 'train' else 'half'}")
        report_written(records, detectors, args.misses)
        print()
    guard = PromptInjectionDetector()
    data = samples()
    if not args.no_regression:
        print("== regression sets (written against the rules: an upper bound)")
        print("\n-- tuning set (the rules were written and tuned on it)")
        evaluate(guard, data, args.misses)
        report_regression(data, detectors)
        print("\n-- set written after tuning, then used to write rules")
        evaluate(guard, list(held_out()), args.misses)
        report_regression(list(held_out()), detectors)
        print("\n-- assistant turns of a caller's history (channel assistant)")
        evaluate(guard, list(turns()), args.misses)
        print("\n-- hard texts written after tuning, never tuned or trained on "
              "(injection_written.CHECK_*)")
        written_check(args.misses)
    if args.speed:
        print("\nthroughput (CPU time of this process, one core, best of 3):")
        throughput(guard, [(as_text(s.text), s.channel) for s in data], "the labelled set")
        throughput(guard, [(as_text(s.text), s.channel) for s in data if not s.types],
                   "its benign texts")
        rules = PromptInjectionDetector(classifier=False)
        chat, pages = chat_megabyte(), web_pages()
        throughput(guard, chat, "1 MB of ordinary chat, 100-2000 char messages")
        throughput(rules, chat, "  the same, the rules alone (classifier=False)")
        throughput(guard, pages, "1 MB of HTML tool results, ~20 kB pages")
        throughput(rules, pages, "  the same, the rules alone (classifier=False)")
    if args.judge:
        print("\njudge calls (a scripted judge answering from the labels, each text once):")
        judge_calls(data, "tuning set")
        judge_calls(list(held_out()), "held-out set")


if __name__ == "__main__":
    main()
