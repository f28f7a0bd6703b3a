"""Build injection-LANG-2.jsonl from the hand-written records in src2/LANG.py.

Each LANG.py holds R = [(channel, label, category, text), ...], written one by one.
This script only numbers them, checks them and writes the JSONL file.
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
CHANNELS = {"user", "tool-result", "document"}
ATTACK = {"instruction-override", "role-manipulation", "refusal-suppression", "fake-authority",
          "context-continuation", "tool-hijack", "data-exfiltration", "system-prompt-extraction",
          "obfuscated"}
BENIGN = {"security-discussion", "role-play", "developer-chat", "human-instructions", "ordinary"}
TRIGGERS = ["ignore", "instruction", "system prompt", "jailbreak", "dan "]


def build(lang):
    spec = importlib.util.spec_from_file_location(lang, os.path.join(HERE, lang + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    seen = set()
    rows = []
    for i, (ch, label, cat, text) in enumerate(mod.R, 1):
        assert ch in CHANNELS, (lang, i, ch)
        assert (label == "attack" and cat in ATTACK) or (label == "benign" and cat in BENIGN), (lang, i)
        text = text.strip("\n")
        assert text and text not in seen, (lang, i, "empty or duplicate")
        seen.add(text)
        rows.append({"id": "inj-train2-%s-%04d" % (lang, i), "lang": lang, "channel": ch,
                     "label": label, "category": cat, "text": text})
    path = os.path.join(OUT, "injection-%s-2.jsonl" % lang)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(path, encoding="utf-8") as f:
        for line in f:
            json.loads(line)
    att = [r for r in rows if r["label"] == "attack"]
    ben = [r for r in rows if r["label"] == "benign"]
    ua = [r for r in att if r["channel"] == "user"]
    notrig = [r for r in ua if not any(t in r["text"].lower() for t in TRIGGERS)]
    bdoc = [r for r in ben if r["channel"] != "user"]
    print("%s: %d attack (%d user, %d user w/o EN triggers), %d benign (%d doc/tool)"
          % (lang, len(att), len(ua), len(notrig), len(ben), len(bdoc)))


if __name__ == "__main__":
    for lang in sys.argv[1:]:
        build(lang)
