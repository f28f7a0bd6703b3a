"""Names and addresses without a model: tripwire's offline tier against the peers.

Run by hand:  python bench/pii_names.py [--split dev|heldout|both] [--mb 1] [--repeat 3]
              [--errors]

1. Precision, recall and F1 of ``name`` and ``address`` on the written evaluation sets
   (``bench/evalsets/``, loaded and scored by ``bench/_evalsets.py``: a detection
   matches a labelled value of its type that it overlaps by at least half of each
   one's length), per language, for each split asked for (an absent split is
   skipped), and the share of hard negatives of the kinds a name or address finder
   can take (organisations, place names, handles, postal codes alone, file names)
   that is flagged. Target: F1 >= 0.80 for each type in each of en, de, fr, es, on
   the held-out half.
2. Speed: MB/s of ``detect`` over chat text, one core, the best of ``--repeat`` runs
   (CPU time): the texts of the sets' records joined until ``--mb`` MB, and the
   synthetic chat text of ``bench/pii_data.py``. Target: >= 1 MB/s.

Peers, each where it is installed (``pip install pyap commonregex``): ``pyap``
(addresses of the US, Canada and the UK in running text) and ``commonregex``
(``street_addresses``, English). Presidio's pattern recognizers and LangChain's PII
middleware have no name or address detector; Presidio's and GLiNER's need model files
that are not on PyPI.

``--errors`` lists the misses and false positives of tripwire's tier on the
development half (never the held-out one).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _evalsets import Span, load, score_pii  # noqa: E402
from pii_data import chat_text  # noqa: E402

from tripwire.detectors import build, detect_all  # noqa: E402

TYPES = ("name", "address")
LANGS = ("en", "de", "fr", "es")
#: Hard-negative kinds a name or address finder can wrongly take.
NEGATIVE_KINDS = ("organisation", "place-name", "handle", "postal-code-alone", "file-name",
                  "product-code", "other")


def tripwire_tier() -> Callable[[str], list[Span]]:
    detectors = build(TYPES)

    def detect(text: str) -> list[Span]:
        return [(d.start, d.end, d.type) for d in detect_all(text, detectors)]
    return detect


def pyap_peer() -> Callable[[str], list[Span]] | None:
    if importlib.util.find_spec("pyap") is None:
        return None
    import pyap

    def detect(text: str) -> list[Span]:
        spans: list[Span] = []
        for country in ("US", "CA", "GB"):
            for address in pyap.parse(text, country=country):
                found = text.find(address.full_address)
                if found >= 0:
                    spans.append((found, found + len(address.full_address), "address"))
        return _dedupe(spans)
    return detect


def commonregex_peer() -> Callable[[str], list[Span]] | None:
    if importlib.util.find_spec("commonregex") is None:
        return None
    from commonregex import street_address  # a compiled pattern

    def detect(text: str) -> list[Span]:
        return [(m.start(), m.end(), "address") for m in street_address.finditer(text)]
    return detect


def _dedupe(spans: Iterable[Span]) -> list[Span]:
    taken: list[Span] = []
    for span in sorted(set(spans), key=lambda s: (s[0], -(s[1] - s[0]))):
        if not taken or span[0] >= taken[-1][1]:
            taken.append(span)
    return taken


#: The types each finder looks for (a peer is scored on those only).
COVERS = {"tripwire offline": TYPES, "pyap": ("address",), "commonregex": ("address",)}


def finders() -> dict[str, Callable[[str], list[Span]]]:
    """tripwire's tier and the peers that are installed, by label."""
    out: dict[str, Callable[[str], list[Span]]] = {"tripwire offline": tripwire_tier()}
    for label, make in (("pyap", pyap_peer), ("commonregex", commonregex_peer)):
        finder = make()
        if finder is not None:
            out[label] = finder
        else:
            print(f"({label} is not installed: pip install {label})")
    return out


def table(split: str, records: list[dict[str, Any]],
          detect: dict[str, Callable[[str], list[Span]]]) -> None:
    langs = [lang for lang in LANGS if any(r["lang"] == lang for r in records)]
    print(f"\n{split}: {len(records)} records ({', '.join(langs)})")
    print(f"{'finder':<17} {'type':<8} {'lang':<4} {'prec':>5} {'rec':>5} {'F1':>5} "
          f"{'tp':>4} {'fp':>4} {'fn':>4}")
    for label, finder in detect.items():
        score = score_pii(records, finder, types=COVERS[label])
        for kind in COVERS[label]:
            for lang in [*langs, "all"]:
                c = score.by_type[kind] if lang == "all" else score.by_type_lang[kind, lang]
                if c.tp + c.fp + c.fn == 0:
                    continue
                print(f"{label:<17} {kind:<8} {lang:<4} {c.precision:>5.2f} {c.recall:>5.2f} "
                      f"{c.f1:>5.2f} {c.tp:>4} {c.fp:>4} {c.fn:>4}")
        kinds = {k: v for k, v in score.negatives.items() if k in NEGATIVE_KINDS}
        flagged, total = sum(v[0] for v in kinds.values()), sum(v[1] for v in kinds.values())
        if total:
            print(f"{label:<17} hard negatives flagged: {flagged}/{total} "
                  + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(kinds.items())))


def speed(text: str, finder: Callable[[str], list[Span]], repeat: int) -> float:
    """MB/s of ``finder`` over ``text`` in 2,000-character messages: the best of
    ``repeat`` runs, CPU time."""
    parts = [text[i:i + 2000] for i in range(0, len(text), 2000)]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for part in parts:
            finder(part)
        best = min(best, time.process_time() - t0)
    return len(text.encode()) / 1e6 / best


def errors(records: list[dict[str, Any]], finder: Callable[[str], list[Span]]) -> None:
    """The misses and false positives of ``finder`` on ``records``, by type."""
    for record in records:
        text = record["text"]
        found = [s for s in finder(text) if s[2] in TYPES]
        gold = [(e["start"], e["end"], e["type"]) for e in record["entities"]
                if e["type"] in TYPES]

        def matches(a: Span, b: Span) -> bool:
            overlap = max(0, min(a[1], b[1]) - max(a[0], b[0]))
            return a[2] == b[2] and 2 * overlap >= max(a[1] - a[0], b[1] - b[0])
        for g in gold:
            if not any(matches(g, f) for f in found):
                print(f"MISS {record['id']} {g[2]}: {text[g[0]:g[1]]!r}   "
                      f"…{_around(text, g)}…")
        for f in found:
            if not any(matches(g, f) for g in gold):
                print(f"FP   {record['id']} {f[2]}: {text[f[0]:f[1]]!r}   …{_around(text, f)}…")


def _around(text: str, span: Span, width: int = 30) -> str:
    return re.sub(r"\s+", " ", text[max(0, span[0] - width):span[1] + width])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "heldout", "both"), default="both")
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--errors", action="store_true",
                        help="list the tier's errors on the development half")
    args = parser.parse_args()
    detect = finders()
    if args.errors:
        errors(load("pii", "dev"), detect["tripwire offline"])
        return
    splits = ("dev", "heldout") if args.split == "both" else (args.split,)
    print("1. name and address: precision, recall, F1 per language")
    dev: list[dict[str, Any]] = []
    for split in splits:
        records = load("pii", split)
        if split == "dev":
            dev = records
        if records:
            table(split, records, detect)
    print(f"\n2. speed, MB/s (one core, best of {args.repeat})")
    texts = {"synthetic chat (bench/pii_data.py)": chat_text(int(args.mb * 1_000_000))}
    if dev:
        joined = "\n\n".join(r["text"] for r in dev)
        texts["the development set's texts"] = (joined * (int(args.mb * 1e6) // len(joined) + 1)
                                                )[:int(args.mb * 1e6)]
    for label, finder in detect.items():
        for what, text in texts.items():
            print(f"{label:<17} {speed(text, finder, args.repeat):>7.2f} MB/s  {what}")


if __name__ == "__main__":
    main()
