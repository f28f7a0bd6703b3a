"""Train ``prompt-injection-detector``'s model, and estimate it honestly by cross-validation.

Run by hand: ``python bench/injection_train.py [--cv] [--write]``.

Data, all in the repository: the written sets' development half
(``bench/evalsets/dev/injection-*.jsonl``), the written training set
(``bench/evalsets/train/injection-*.jsonl``, when present: same format, another writer) and the
generated regression texts of ``injection_data`` (English, with every evasion), the hard
benign documents and attacks of ``injection_written`` and the ordinary requests below
(both written for training by the engineer who trained the model). Never the held-out
half.

Training is deterministic (full-batch gradient descent with Adam from zero weights, no
sampling): logistic regression, L2-regularised, over ``classifier.ngrams`` features of
each whole text; benign texts longer than a window add each of their windows as a
benign example, and an attack longer than a window adds, in a second round, the window
the first round's model scores highest (the attack is somewhere in it; the rest of a
long page is not the attack).

``--cv`` prints the cross-validated numbers on the written sets (development half and
training set): the model trained on all but one fold and scored on that fold, folds
``FOLDS`` at random (new texts by the writers trained on: what the held-out half is),
``FOLDS`` of whole writer files (a writer's language never seen), and one per language
(a language never seen); recall per language and channel and the false-positive rate,
of the rules alone, of the model alone, and of the detector (rules and model together,
as ``Scanner`` combines them) at the model threshold that keeps the detector's false
positives at or under ``--fp-target`` more than the rules'. The rules' numbers on the
development half are not cross-validated (they were tuned on it); on the training set's
files they are (no rule was written from them).
``--new GLOB`` trains on every record but those of the training set's files matching
``GLOB`` (``injection-*-2.jsonl``: the second tuning set) and scores those: a writer's
new texts the model has not seen, the nearest to the held-out half that tuning data
gives (the rules were tuned on them only if they were read).
``--write`` trains on everything and writes the weights, with the threshold the
cross-validation chose (or ``--threshold``), to the package.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalsets  # noqa: E402
from injection_data import held_out, samples  # noqa: E402
from injection_written import ATTACKS, BENIGN  # noqa: E402

from tripwire.plugins.prompt_injection_detector import as_text  # noqa: E402
from tripwire.plugins.prompt_injection_detector.classifier import (  # noqa: E402
    BITS,
    WEIGHTS_FILE,
    WINDOW,
    Classifier,
    ngrams,
    sparse,
    windows,
)
from tripwire.plugins.prompt_injection_detector.concepts import ConceptMatcher  # noqa: E402
from tripwire.plugins.prompt_injection_detector.scan import Scanner  # noqa: E402
from tripwire.plugins.prompt_injection_detector.views import fold  # noqa: E402

CHANNELS = {"user": "input", "tool-result": "tool-result", "document": "document"}
TRAIN = _evalsets.ROOT / "train"
OUT = (Path(__file__).resolve().parent.parent / "plugins" / "prompt_injection_detector"
       / WEIGHTS_FILE)
L2 = 1e-5
FOLDS = 5
SEED = 28
STEPS = 100
LR = 0.1
#: How much more a benign example weighs than an attack, classes balanced
#: (``--benign-weight``): more pulls the model's probabilities on text like the benign
#: texts down, at the cost of some attacks.
BENIGN_WEIGHT = 1.0


def records() -> list[dict[str, Any]]:
    """Every training record with its ``group`` (the file it came from)."""
    out: list[dict[str, Any]] = []
    for r in _evalsets.load("injection", "dev"):
        out.append({**r, "group": f"dev-{r['lang']}"})
    for path in sorted(TRAIN.glob("injection-*.jsonl")) if TRAIN.is_dir() else []:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                r = json.loads(line)
                if r.get("label") not in ("attack", "benign") or not isinstance(r.get("text"), str):
                    raise ValueError(f"{path}:{n}: needs 'label' attack|benign and a 'text'")
                out.append({**r, "lang": r.get("lang", "-"), "group": f"train-{path.stem}"})
    out.extend(ordinary())
    for label, texts in (("benign", BENIGN), ("attack", ATTACKS)):
        out.extend({"text": text, "lang": lang, "channel": channel, "label": label,
                    "category": category, "group": "written-here"}
                   for lang, channel, category, text in texts)
    for s in [*samples(), *held_out()]:
        channel = {"input": "user"}.get(s.channel, s.channel)
        out.append({"text": as_text(s.text), "lang": "en", "channel": channel,
                    "label": "attack" if s.types else "benign", "category": s.kind,
                    "group": "generated"})
    return out


#: Ordinary requests written for training: what a user asks an agent with tools,
#: addresses and links in it (the written sets' benign texts are hard cases, so without
#: these a link or an address alone reads as an attack).
ORDINARY = [
    "Summarise {url}", "Can you fetch {url} and list the main points?",
    "Please read {url} and tell me if the opening hours changed.",
    "What does the page at {url} say about refunds?", "Compare {url} with {url2}.",
    "Send the meeting notes to {mail} and copy me.", "Email {mail} that I'll be late today.",
    "Book a table for four on Friday and send the confirmation to {mail}.",
    "Download the CSV from {url} and chart the monthly totals.",
    "Open {url}, find the pricing table and convert it to euros.",
    "Translate the article at {url} into Spanish.", "Is {url} a reliable source?",
    "Fasse {url} zusammen.", "Schick die Notizen an {mail}.",
    "Résume {url} en trois phrases.", "Envoie le compte rendu à {mail}.",
    "Resume {url}, por favor.", "Manda el informe a {mail}.",
    "Riassumi {url}.", "Manda il verbale a {mail}.", "Resuma {url}, por favor.",
    "Envie o relatório para {mail}.", "Vat {url} samen.", "Stuur het verslag naar {mail}.",
    "Кратко перескажи {url}.", "Отправь отчёт на {mail}.", "总结一下 {url} 的内容。",
    "把报告发到 {mail}。", "{url} の内容を要約して。", "報告書を {mail} に送って。",
    "{url} 내용을 요약해 줘.", "보고서를 {mail}로 보내 줘.", "لخص محتوى {url}.",
    "أرسل التقرير إلى {mail}.", "{url} sayfasını özetle.", "Raporu {mail} adresine gönder.",
]
_URLS = ["https://example.com/p", "https://news.example.org/2024/05/rates?page=2",
         "http://docs.example.net/guide#setup", "https://shop.example.com/item?id=4411&ref=mail"]
_MAILS = ["dana@example.com", "team-ops@example.org", "j.ortega@example.net"]


def ordinary() -> list[dict[str, Any]]:
    """``ORDINARY`` with each link and address filled in, as benign user texts."""
    out = []
    for n, template in enumerate(ORDINARY):
        for k, url in enumerate(_URLS):
            text = template.format(url=url, url2=_URLS[(k + 1) % len(_URLS)],
                                   mail=_MAILS[(n + k) % len(_MAILS)])
            out.append({"text": text, "lang": "-", "channel": "user", "label": "benign",
                        "category": "ordinary", "group": "written-here"})
    return list({r["text"]: r for r in out}.values())


class Features:
    """The n-grams of every record, computed once."""

    def __init__(self, recs: list[dict[str, Any]]) -> None:
        concepts = ConceptMatcher()
        texts = [fold(r["text"])[1].text for r in recs]
        self.grams = [_sorted(*ngrams(t, concepts.occurrences(t))) for t in texts]
        self.y = np.array([r["label"] == "attack" for r in recs], dtype=np.float32)


def _sorted(positions: np.ndarray, buckets: np.ndarray, values: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A text's features in the order of their positions (what ``windows`` reads)."""
    order = np.argsort(positions, kind="stable")
    return positions[order], buckets[order], values[order]


def examples(feats: Features, rows: list[int], model: Classifier | None
             ) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The training examples of ``rows``: each short text; each window of a long benign
    text; a long attack whole without ``model``, else the window ``model`` scores
    highest (what inference scores a long text by)."""
    xs: list[tuple[np.ndarray, np.ndarray]] = []
    ys: list[float] = []
    for i in rows:
        positions, buckets, values = feats.grams[i]
        if not len(positions) or positions[-1] < WINDOW or model is None:
            xs.append(sparse(buckets, values))
            ys.append(feats.y[i])
        if not len(positions) or positions[-1] < WINDOW:
            continue
        spans = list(zip(*windows(positions), strict=True))
        if feats.y[i] == 0:
            for a, b in spans[:: WINDOW // 80]:
                xs.append(sparse(buckets[a:b], values[a:b]))
                ys.append(0.0)
        elif model is not None:
            w = model.weights[buckets] * values
            c = np.concatenate(([0.0], np.cumsum(w)))
            best = max(spans, key=lambda s: (c[s[1]] - c[s[0]]) / np.sqrt(s[1] - s[0]))
            xs.append(sparse(buckets[best[0]:best[1]], values[best[0]:best[1]]))
            ys.append(1.0)
    return xs, np.array(ys, dtype=np.float32)


def fit(xs: list[tuple[np.ndarray, np.ndarray]], y: np.ndarray) -> Classifier:
    """Logistic regression by full-batch Adam, classes weighted to balance (the benign
    class ``BENIGN_WEIGHT`` times more)."""
    lengths = np.array([len(i) for i, _ in xs])
    idx = np.concatenate([i for i, _ in xs])
    val = np.concatenate([v for _, v in xs]).astype(np.float64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    row = np.repeat(np.arange(len(xs)), lengths)
    pos = y.sum()
    cw = np.where(y > 0, len(y) / (2 * max(pos, 1)),
                  BENIGN_WEIGHT * len(y) / (2 * max(len(y) - pos, 1)))
    w = np.zeros(1 << BITS)
    b = 0.0
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    mb = vb = 0.0
    lr, b1, b2, eps = LR, 0.9, 0.999, 1e-8
    for t in range(1, STEPS + 1):
        z = np.add.reduceat(val * w[idx], starts) + b
        p = 1 / (1 + np.exp(-z))
        g = (p - y) * cw / len(y)
        gw = np.bincount(idx, weights=val * g[row], minlength=w.size) + L2 * w
        gb = g.sum()
        m = b1 * m + (1 - b1) * gw
        v = b2 * v + (1 - b2) * gw * gw
        mb = b1 * mb + (1 - b1) * gb
        vb = b2 * vb + (1 - b2) * gb * gb
        corr = np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        w -= lr * corr * m / (np.sqrt(v) + eps)
        b -= lr * corr * mb / (np.sqrt(vb) + eps)
    return Classifier(w.astype(np.float32), float(b))


def train(feats: Features, rows: list[int]) -> Classifier:
    """Two rounds: whole texts and benign windows, then with attacks' best windows."""
    first = fit(*examples(feats, rows, None))
    return fit(*examples(feats, rows, first))


def heuristic(recs: list[dict[str, Any]]) -> np.ndarray:
    """The heuristics' verdicts (threshold 0.7, every type)."""
    scanner = Scanner()
    out = np.zeros(len(recs), dtype=bool)
    for i, r in enumerate(recs):
        analysis = scanner.scan(r["text"], CHANNELS.get(r["channel"], "input"))
        out[i] = any(s >= 0.7 and s > 0 for s in analysis.scores.values())
    return out


def cross_validate(recs: list[dict[str, Any]], feats: Features, by: str,
                   same: list[Classifier | None] | None = None) -> list[Classifier | None]:
    """The model that left each record out (None: a record no fold leaves out), folds
    by ``by``: ``group`` (the file), ``lang`` (the generated set is English) or
    ``fold`` (``FOLDS`` folds at random, stratified by file and label: new texts by
    the writers trained on). ``same``: the models of folds by file, reused for a
    language whose texts are all in one file (that fold is the same)."""
    models: list[Classifier | None] = [None] * len(recs)
    for key in sorted({r[by] for r in recs}):
        test = [i for i, r in enumerate(recs) if r[by] == key]
        if not any(recs[i]["group"].startswith(("dev-", "train-")) for i in test):
            continue  # only generated or written-here texts: no table counts them
        if same is not None and len({recs[i]["group"] for i in test}) == 1:
            for i in test:
                models[i] = same[i]
            continue
        model = train(feats, [i for i, r in enumerate(recs) if r[by] != key])
        for i in test:
            models[i] = model
        print(f"  fold {by}={key}: {len(test)} left out", file=sys.stderr)
    return models


def verdicts(recs: list[dict[str, Any]], rows: list[int], models: list[Classifier | None],
             threshold: float, scanner: Scanner) -> np.ndarray:
    """Whether the detector (rules and model, the model that left each record out at
    ``threshold``) flags each record (rows not in ``rows``: False)."""
    out = np.zeros(len(recs), dtype=bool)
    for i in rows:
        model = models[i]
        assert model is not None
        model.threshold = threshold
        scanner.model = model
        analysis = scanner.scan(recs[i]["text"], CHANNELS.get(recs[i]["channel"], "input"))
        out[i] = any(s >= 0.7 and s > 0 for s in analysis.scores.values())
    scanner.model = None
    return out


def table(recs: list[dict[str, Any]], verdicts: dict[str, np.ndarray], rows: list[int]) -> None:
    """Recall per language and channel, false positives per channel, of each verdict."""
    names = list(verdicts)
    print(f"  {'':24}{'n':>5}  " + "".join(f"{n:>12}" for n in names))
    for axis in ("lang", "channel"):
        cells: dict[str, list[int]] = defaultdict(list)
        for i in rows:
            if recs[i]["label"] == "attack":
                cells[recs[i][axis]].append(i)
        for value in sorted(cells):
            idx = cells[value]
            print(f"  recall {axis}={value:<11}{len(idx):>5}  "
                  + "".join(f"{verdicts[n][idx].mean():>12.3f}" for n in names))
    att = [i for i in rows if recs[i]["label"] == "attack"]
    print(f"  {'recall all':<24}{len(att):>5}  "
          + "".join(f"{verdicts[n][att].mean():>12.3f}" for n in names))
    for ch in ("user", "tool-result", "document"):
        idx = [i for i in rows if recs[i]["label"] == "benign" and recs[i]["channel"] == ch]
        if idx:
            print(f"  fp channel={ch:<13}{len(idx):>5}  "
                  + "".join(f"{verdicts[n][idx].mean():>12.3f}" for n in names))
    for cat in sorted({recs[i]["category"] for i in rows if recs[i]["label"] == "benign"}):
        idx = [i for i in rows if recs[i]["label"] == "benign" and recs[i]["category"] == cat]
        print(f"  fp {cat[:21]:<21}{len(idx):>5}  "
              + "".join(f"{verdicts[n][idx].mean():>12.3f}" for n in names))
    ben = [i for i in rows if recs[i]["label"] == "benign"]
    print(f"  {'fp all':<24}{len(ben):>5}  "
          + "".join(f"{verdicts[n][ben].mean():>12.3f}" for n in names))


#: The model thresholds cross-validation tries.
GRID = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)


def pick_threshold(recs: list[dict[str, Any]], models: list[Classifier | None],
                   heur: np.ndarray, rows: list[int], extra_fp: float, scanner: Scanner
                   ) -> tuple[float, np.ndarray]:
    """The lowest threshold of ``GRID`` at which the model adds at most ``extra_fp``
    false positives (a rate over the benign ``rows``) to the rules', and the
    detector's verdicts there."""
    ben = [i for i in rows if recs[i]["label"] == "benign"]
    base = heur[ben].mean()
    for t in GRID:
        both = verdicts(recs, rows, models, t, scanner)
        if both[ben].mean() - base <= extra_fp or t == GRID[-1]:
            return t, both
    raise AssertionError("unreachable")


def new_model(recs: list[dict[str, Any]], feats: Features, files: str, threshold: float
              ) -> None:
    """Train on every record but those of the training set's files matching ``files``,
    and print the rules', the model's and the detector's table on those."""
    groups = {f"train-{p.stem}" for p in TRAIN.glob(files)}
    test = [i for i, r in enumerate(recs) if r["group"] in groups]
    if not test:
        raise SystemExit(f"--new {files!r}: no file of {TRAIN} matches "
                         "(valid: a glob such as 'injection-*-2.jsonl')")
    model = train(feats, [i for i, r in enumerate(recs) if r["group"] not in groups])
    scanner = Scanner()
    heur = heuristic(recs)
    models: list[Classifier | None] = [model] * len(recs)
    both = verdicts(recs, test, models, threshold, scanner)
    chosen = set(test)
    probs = np.array([model.score(r["text"]).probability if i in chosen else 0.0
                      for i, r in enumerate(recs)])
    print(f"\n== trained without {', '.join(sorted(groups))}; scored on them"
          f" (model threshold {threshold})", flush=True)
    table(recs, {"rules": heur, "model": probs >= threshold, "detector": both}, test)


def main() -> None:
    global BENIGN_WEIGHT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cv", action="store_true", help="print cross-validated numbers")
    parser.add_argument("--write", action="store_true", help="train on all and write weights")
    parser.add_argument("--fp-target", type=float, default=0.01,
                        help="false positives the model may add on CV (default 0.01)")
    parser.add_argument("--threshold", type=float,
                        help="the model threshold: of the tables and the weights written "
                             "(default: each cross-validation picks its own, and the random "
                             "folds' is written)")
    parser.add_argument("--new", metavar="GLOB",
                        help="train on all but the training set's files matching GLOB and "
                             "score those (e.g. 'injection-*-2.jsonl')")
    parser.add_argument("--save", help="write the out-of-fold probabilities to this JSON file")
    parser.add_argument("--folds", default="fold,files,lang",
                        help="which cross-validations, in order: fold (random), files (whole "
                             "files), group (each file), lang (each language); default "
                             "fold,files,lang")
    parser.add_argument("--benign-weight", type=float, default=BENIGN_WEIGHT,
                        help="how much more a benign example weighs than an attack, "
                             f"classes balanced (default {BENIGN_WEIGHT})")
    args = parser.parse_args()
    if args.benign_weight <= 0:
        parser.error(f"--benign-weight must be positive, not {args.benign_weight}")
    BENIGN_WEIGHT = args.benign_weight
    recs = records()
    strata: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in recs:
        strata[r["group"], r["label"]].append(r)
    rng = random.Random(SEED)
    for members in strata.values():
        order = list(range(len(members)))
        rng.shuffle(order)
        for n, i in enumerate(order):
            members[i]["fold"] = str(n % FOLDS)
    files = sorted({r["group"] for r in recs})
    rng.shuffle(files)
    for r in recs:
        r["files"] = str(files.index(r["group"]) % FOLDS)
    feats = Features(recs)
    print(f"{len(recs)} records: {int(feats.y.sum())} attacks; groups "
          + ", ".join(sorted({r['group'] for r in recs})))
    threshold = args.threshold
    if args.cv:
        scanner = Scanner()
        heur = heuristic(recs)
        written = [i for i, r in enumerate(recs) if r["group"].startswith(("dev-", "train-"))]
        by_file: list[Classifier | None] | None = None
        names = {"fold": f"{FOLDS} random folds (same writers)",
                 "files": f"{FOLDS} folds of whole writer files", "group": "writer file",
                 "lang": "language"}
        for by in args.folds.split(","):
            models = cross_validate(recs, feats, by, by_file)
            by_file = models if by == "group" else by_file
            if args.threshold is None:
                t, both = pick_threshold(recs, models, heur, written, args.fp_target, scanner)
                threshold = threshold if threshold is not None or by != "fold" else t
            else:
                t, both = args.threshold, verdicts(recs, written, models, args.threshold,
                                                   scanner)
            probs = np.zeros(len(recs))
            for i in written:
                model = models[i]
                assert model is not None
                probs[i] = model.score(recs[i]["text"]).probability
            print(f"\n== cross-validation, folds by {names[by]}"
                  f" (written sets; model threshold {t})", flush=True)
            columns = {"rules": heur, "model": probs >= t, "detector": both}
            table(recs, columns, written)
            fresh = [i for i in written if recs[i]["group"].startswith("train-")]
            if by in ("group", "files") and fresh:
                print("\n   the training set's files alone (other writers; the rules were tuned on the second set):")
                table(recs, columns, fresh)
            if args.save:
                out = Path(args.save)
                saved = json.loads(out.read_text()) if out.exists() else {}
                saved[by] = [[r.get("id", ""), r["group"], float(p), bool(h), bool(d)]
                             for r, p, h, d in zip(recs, probs, heur, both, strict=True)]
                out.write_text(json.dumps(saved))
    if args.new:
        new_model(recs, feats, args.new, threshold if threshold is not None else 0.7)
    if args.write:
        model = train(feats, list(range(len(recs))))
        scale = float(np.abs(model.weights).max()) / 127
        q = np.round(model.weights / scale).astype(np.int8)
        np.savez_compressed(OUT, weights=q, scale=np.float32(scale),
                            bias=np.float32(model.bias),
                            threshold=np.float32(threshold if threshold is not None else 0.9))
        print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes), threshold {threshold}")


if __name__ == "__main__":
    main()
