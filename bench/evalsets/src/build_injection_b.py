"""Build the prompt-injection evaluation records for ru, zh, ja, ko, ar, tr.

The hand-written records live in injection_{lang}.py next to this script
(each defines LANG and RECORDS, a list of (channel, label, category, text)).
This script numbers them, checks them and splits each language 50/50 into
bench/evalsets/dev/injection-{lang}.jsonl and
bench/evalsets/heldout/injection-{lang}.jsonl, stratified by label and
channel (and, within that, category), with random.Random(2026).

    python bench/evalsets/src/build_injection_b.py [lang ...]
"""
import importlib.util
import json
import os
import random
import sys
from collections import Counter

LANGS = ["ru", "zh", "ja", "ko", "ar", "tr"]
CHANNELS = ("user", "tool-result", "document")
ATTACK = ("instruction-override", "role-manipulation", "refusal-suppression",
          "fake-authority", "context-continuation", "tool-hijack",
          "data-exfiltration", "system-prompt-extraction", "obfuscated")
BENIGN = ("security-discussion", "role-play", "developer-chat",
          "human-instructions", "ordinary")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load(lang):
    path = os.path.join(HERE, f"injection_{lang}.py")
    spec = importlib.util.spec_from_file_location(f"injection_{lang}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.LANG == lang, (mod.LANG, lang)
    return mod.RECORDS


def check(lang, rows):
    seen = {}
    for i, (channel, label, category, text) in enumerate(rows, 1):
        where = f"{lang} #{i}"
        assert channel in CHANNELS, (where, channel)
        assert label in ("attack", "benign"), (where, label)
        cats = ATTACK if label == "attack" else BENIGN
        assert category in cats, (where, label, category)
        assert isinstance(text, str) and text.strip() == text and text, where
        key = " ".join(text.split())
        assert key not in seen, ("duplicate text", where, seen.get(key))
        seen[key] = where


def records(lang):
    rows = load(lang)
    check(lang, rows)
    out = []
    for i, (channel, label, category, text) in enumerate(rows, 1):
        out.append({"id": f"inj-{lang}-{i:04d}", "lang": lang,
                    "channel": channel, "label": label,
                    "category": category, "text": text})
    return out


def split(recs):
    """50/50 split, stratified by label and channel.

    Within each (label, channel) group the records are shuffled with
    random.Random(2026), then ordered by category (stable) and dealt
    alternately to the two halves from a random start, so that every
    category is also shared out as evenly as the group sizes allow."""
    rng = random.Random(2026)
    groups = {}
    for r in recs:
        groups.setdefault((r["label"], r["channel"]), []).append(r)
    dev, held = [], []
    spare = rng.randrange(2)
    for key in sorted(groups):
        g = sorted(groups[key], key=lambda r: r["text"])
        rng.shuffle(g)
        g.sort(key=lambda r: r["category"])
        first = rng.randrange(2)
        if len(g) % 2:
            # the odd record of odd groups goes to each half in turn
            first, spare = spare, 1 - spare
        for i, r in enumerate(g):
            (dev if (i + first) % 2 == 0 else held).append(r)
    order = {r["id"]: n for n, r in enumerate(recs)}
    dev.sort(key=lambda r: order[r["id"]])
    held.sort(key=lambda r: order[r["id"]])
    return dev, held


def write(path, recs):
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    # read back: every line is valid JSON
    with open(path, encoding="utf-8") as f:
        for line in f:
            json.loads(line)


def report(name, recs):
    c = Counter((r["label"], r["channel"]) for r in recs)
    k = Counter((r["label"], r["category"]) for r in recs)
    print(f"  {name}: {len(recs)} records")
    for label in ("attack", "benign"):
        total = sum(v for (lb, _), v in c.items() if lb == label)
        per_channel = ", ".join(f"{ch} {c[(label, ch)]}" for ch in CHANNELS)
        print(f"    {label} {total} | {per_channel}")
        cats = ATTACK if label == "attack" else BENIGN
        print("      " + ", ".join(f"{ca} {k[(label, ca)]}" for ca in cats))


def main(langs):
    for lang in langs:
        recs = records(lang)
        dev, held = split(recs)
        write(os.path.join(ROOT, "dev", f"injection-{lang}.jsonl"), dev)
        write(os.path.join(ROOT, "heldout", f"injection-{lang}.jsonl"), held)
        print(lang)
        report("all", recs)
        report("dev", dev)
        report("heldout", held)


if __name__ == "__main__":
    main(sys.argv[1:] or LANGS)
