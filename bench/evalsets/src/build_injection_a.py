"""Build the prompt-injection evaluation records of writer A (en de fr es it pt nl).

Each language's hand-written records live in ``injection_{lang}.py`` next to this script,
as two lists of ``(channel, category, text)``: ``ATTACK`` and ``BENIGN``. This script
numbers them (attacks first, then benign records, in source order), checks them and
splits each language 50/50 into ``../dev/injection-{lang}.jsonl`` and
``../heldout/injection-{lang}.jsonl``, stratified by label and channel, with
``random.Random(2026)`` (a fresh generator per language, so rebuilding one language
never changes another's split).

    python build_injection_a.py            # every language whose source exists
    python build_injection_a.py de fr      # only these
    python build_injection_a.py --report   # also print the counts of each split

Standard library only.
"""

import collections
import importlib.util
import json
import random
import re
import sys

sys.dont_write_bytecode = True
from pathlib import Path  # noqa: E402

LANGS = ("en", "de", "fr", "es", "it", "pt", "nl")
CHANNELS = ("user", "tool-result", "document")
ATTACK_CATEGORIES = (
    "instruction-override",
    "role-manipulation",
    "refusal-suppression",
    "fake-authority",
    "context-continuation",
    "tool-hijack",
    "data-exfiltration",
    "system-prompt-extraction",
    "obfuscated",
)
BENIGN_CATEGORIES = (
    "security-discussion",
    "role-play",
    "developer-chat",
    "human-instructions",
    "ordinary",
)
MINIMUM = {"en": (90, 110)}  # (attacks, benign); other languages: DEFAULT_MINIMUM
DEFAULT_MINIMUM = (50, 60)
SEED = 2026

SRC = Path(__file__).resolve().parent
OUT = SRC.parent


def load(lang):
    path = SRC / f"injection_{lang}.py"
    spec = importlib.util.spec_from_file_location(f"injection_{lang}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def records(lang):
    module = load(lang)
    out = []
    for label, rows, categories in (
        ("attack", module.ATTACK, ATTACK_CATEGORIES),
        ("benign", module.BENIGN, BENIGN_CATEGORIES),
    ):
        for channel, category, text in rows:
            if channel not in CHANNELS:
                raise SystemExit(f"{lang}: bad channel {channel!r} in {text[:60]!r}")
            if category not in categories:
                raise SystemExit(f"{lang}: bad {label} category {category!r} in {text[:60]!r}")
            text = text.strip()
            if not text:
                raise SystemExit(f"{lang}: empty text")
            out.append({"lang": lang, "channel": channel, "label": label,
                        "category": category, "text": text})
    for number, record in enumerate(out, 1):
        record["id"] = f"inj-{lang}-{number:04d}"
    return out


def check(lang, recs):
    problems = []
    seen = {}
    for record in recs:
        key = re.sub(r"\s+", " ", record["text"]).casefold()
        if key in seen:
            problems.append(f"duplicate text: {seen[key]} and {record['id']}")
        seen[key] = record["id"]
        line = json.dumps(record, ensure_ascii=False)
        if json.loads(line) != record:
            problems.append(f"{record['id']} does not round-trip through JSON")
    attacks = sum(r["label"] == "attack" for r in recs)
    benign = len(recs) - attacks
    want = MINIMUM.get(lang, DEFAULT_MINIMUM)
    if attacks < want[0] or benign < want[1]:
        problems.append(f"too few records: {attacks} attacks, {benign} benign, want {want}")
    if problems:
        raise SystemExit(f"{lang}:\n  " + "\n  ".join(problems))


def split(recs):
    rng = random.Random(SEED)
    dev, heldout = [], []
    extra_to_dev = True
    for label in ("attack", "benign"):
        for channel in CHANNELS:
            stratum = [r for r in recs if r["label"] == label and r["channel"] == channel]
            rng.shuffle(stratum)
            half = len(stratum) // 2
            if len(stratum) % 2:
                if extra_to_dev:
                    half += 1
                extra_to_dev = not extra_to_dev
            dev.extend(stratum[:half])
            heldout.extend(stratum[half:])
    dev.sort(key=lambda r: r["id"])
    heldout.sort(key=lambda r: r["id"])
    return dev, heldout


FIELDS = ("id", "lang", "channel", "label", "category", "text")


def write(path, recs):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for record in recs:
            f.write(json.dumps({k: record[k] for k in FIELDS}, ensure_ascii=False) + "\n")


def report(lang, name, recs):
    print(f"  {name}: {len(recs)} records")
    for label in ("attack", "benign"):
        part = [r for r in recs if r["label"] == label]
        by_channel = collections.Counter(r["channel"] for r in part)
        by_category = collections.Counter(r["category"] for r in part)
        print(f"    {label} {len(part)}: "
              + ", ".join(f"{c} {by_channel[c]}" for c in CHANNELS))
        print("      " + ", ".join(f"{c} {n}" for c, n in sorted(by_category.items())))


def main(argv):
    want_report = "--report" in argv
    langs = [a for a in argv if not a.startswith("--")]
    for lang in langs:
        if lang not in LANGS:
            raise SystemExit(f"not one of writer A's languages: {lang}")
    if not langs:
        langs = [lg for lg in LANGS if (SRC / f"injection_{lg}.py").exists()]
    for lang in langs:
        recs = records(lang)
        check(lang, recs)
        dev, heldout = split(recs)
        write(OUT / "dev" / f"injection-{lang}.jsonl", dev)
        write(OUT / "heldout" / f"injection-{lang}.jsonl", heldout)
        print(f"{lang}: {len(recs)} records, dev {len(dev)}, heldout {len(heldout)}")
        if want_report:
            report(lang, "all", recs)
            report(lang, "dev", dev)
            report(lang, "heldout", heldout)


if __name__ == "__main__":
    main(sys.argv[1:])
