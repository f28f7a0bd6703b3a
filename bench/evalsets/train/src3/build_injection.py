"""Build injection-LANG-3.jsonl from the hand-written records in src3/LANG.py.

Each LANG.py defines R, a list of (channel, label, category, text) tuples, each
written by hand. This script only numbers them, checks them and writes JSONL.
Usage: python3 build_injection.py LANG [LANG ...]
"""
import importlib.util
import json
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
CHANNELS = {"user", "tool-result", "document"}
ATTACK = {"instruction-override", "role-manipulation", "refusal-suppression", "fake-authority",
          "context-continuation", "tool-hijack", "data-exfiltration", "system-prompt-extraction",
          "obfuscated"}
BENIGN = {"security-discussion", "role-play", "developer-chat", "human-instructions", "ordinary"}


def load(lang):
    spec = importlib.util.spec_from_file_location(lang, os.path.join(HERE, lang + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.R


def build(lang):
    recs = load(lang)
    seen = set()
    out = []
    for i, (ch, label, cat, text) in enumerate(recs, 1):
        assert ch in CHANNELS, (lang, i, ch)
        assert label in ("attack", "benign"), (lang, i, label)
        assert cat in (ATTACK if label == "attack" else BENIGN), (lang, i, cat)
        text = text.strip()
        assert text and text not in seen, (lang, i, text[:60])
        seen.add(text)
        out.append({"id": "inj-train3-%s-%04d" % (lang, i), "lang": lang, "channel": ch,
                    "label": label, "category": cat, "text": text})
    path = os.path.join(OUT, "injection-%s-3.jsonl" % lang)
    with open(path, "w", encoding="utf-8") as f:
        for r in out:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    lab = Counter(r["label"] for r in out)
    ch = Counter((r["label"], r["channel"]) for r in out)
    cats = Counter((r["label"], r["category"]) for r in out)
    print(lang, dict(lab), dict(ch))
    print("   ", dict(cats))
    return path


if __name__ == "__main__":
    for lang in sys.argv[1:]:
        build(lang)
