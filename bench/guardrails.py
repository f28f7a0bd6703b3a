"""The deterministic guardrail tier: how well it finds, how fast it runs.

Run by hand:  python bench/guardrails.py [--split dev|train|heldout] [--only NAME ...]
              [--misses] [--sections 1 2 3] [--samples 4000] [--mb 1] [--repeat 5]

Times are CPU time of this process (``time.process_time``), the best of ``--repeat``
runs: on a shared machine wall-clock time counts whatever else runs meanwhile.

1. Precision, recall and F1 per PII type and per language, and the hard negatives
   flagged per kind, on the written sets (``bench/evalsets/``, loaded and scored by
   ``bench/_evalsets.py``: a detection matches a label of its type that it overlaps by
   at least half of each one's length), the development half and the held-out half
   (``--split``; default both; a split that is absent is skipped with a line saying
   so). Side by side:

   - ``tripwire``: ``pii-detector``'s deterministic tier with its defaults (every
     deterministic type, ``threshold`` 0.6, no ``regions``);
   - the peers a user would pick instead that install from PyPI and run offline
     (``pip install -r bench/requirements.txt``; a peer that is not installed is left
     out with a line saying so), each with its defaults, and only its entities that
     are one of ours (``PEER_TYPES``; a type a peer does not find is ``-``, not 0):
     ``presidio``, presidio-analyzer's predefined pattern recognizers with the
     context words they ship (its spaCy models cannot be installed here: a blank
     spaCy pipeline of the record's language tokenizes, for the context words;
     ``AnalyzerEngine.analyze`` with the record's language and its default
     threshold); ``langchain``, the built-in detectors of LangChain's
     ``PIIMiddleware``; ``scrubadub`` (its detectors of our types, the locale of the
     record's language); ``datafog`` (``datafog.scan``, its regex engine).

   Targets: precision >= 0.97 and recall >= 0.95 for every validated type, hard
   negatives flagged <= 2%. ``--misses`` lists tripwire's misses, false positives and
   flagged negatives on the tuning halves (``dev``, ``train``; never on the held-out
   half: it is not for tuning).

   Then the generated set of ``bench/pii_data.py`` (``--samples`` texts, fixed seed),
   a regression check: it was written against the detectors, so its numbers are an
   upper bound, not a measurement.
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
import sys
import time
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _evalsets import SPLITS, Counts, PiiScore, Span, load, score_pii  # noqa: E402
from pii_data import chat_text, samples  # noqa: E402

from tripwire import Agent, Chunk, HoldBack, Message, Processor, hookimpl  # noqa: E402
from tripwire.detectors import DEFAULT_TYPES, build, detect_all  # noqa: E402
from tripwire.testing import MockModel, MockResponse  # noqa: E402

#: The types with a validation (checksum, numbering plan, registry, format): the
#: targets are for these. ``name`` and ``address`` have none.
VALIDATED = ("email", "phone", "credit-card", "ssn", "api-key", "url-credentials", "url",
             "ip-address", "uuid", "crypto-wallet", "iban", "date-of-birth")
LANGS = ("en", "de", "fr", "es")


# ------------------------------------------------------------------ the columns


@attrs.frozen
class Column:
    """One detector set in the tables: its name, the types it reports (ours), and
    ``detect(text, lang)``: its spans in ``text``, a record in language ``lang``."""

    name: str
    types: frozenset[str]
    detect: Callable[[str, str], list[Span]]


class Unavailable(Exception):
    """A column that cannot run here: the message says why."""


#: Each peer's entity names that are one of our types; its other entities are not
#: asked for (or dropped), so they neither score nor flag hard negatives.
PEER_TYPES: dict[str, dict[str, str]] = {
    "presidio": {"EMAIL_ADDRESS": "email", "PHONE_NUMBER": "phone",
                 "CREDIT_CARD": "credit-card", "US_SSN": "ssn", "URL": "url",
                 "IP_ADDRESS": "ip-address", "UUID": "uuid", "CRYPTO": "crypto-wallet",
                 "IBAN_CODE": "iban"},
    "langchain": {"email": "email", "credit_card": "credit-card", "ip": "ip-address",
                  "url": "url"},
    "scrubadub": {"email": "email", "phone": "phone", "credit_card": "credit-card",
                  "social_security_number": "ssn", "url": "url",
                  "date_of_birth": "date-of-birth"},
    "datafog": {"EMAIL": "email", "PHONE": "phone", "CREDIT_CARD": "credit-card",
                "SSN": "ssn", "IP_ADDRESS": "ip-address"},
}


def tripwire_column() -> Column:
    """``pii-detector``'s deterministic tier with its defaults."""
    from tripwire.plugins.pii_detector import PIIDetector

    defaults = PIIDetector()
    detectors = build(DEFAULT_TYPES)
    threshold = defaults.threshold

    def detect(text: str, lang: str) -> list[Span]:
        return [(d.start, d.end, d.type) for d in detect_all(text, detectors,
                                                            threshold=threshold)]

    return Column("tripwire", frozenset(t for d in detectors for t in d.types), detect)


def _mapped(name: str) -> frozenset[str]:
    return frozenset(PEER_TYPES[name].values())


def presidio_column() -> Column:
    """presidio-analyzer's predefined recognizers, the NLP engine a blank spaCy
    pipeline per language (tokens, and each token's lower case as its lemma, which is
    what the context words are compared with)."""
    try:
        import spacy
        from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
        from presidio_analyzer.nlp_engine import SpacyNlpEngine
        from spacy.language import Language
    except ImportError as e:
        raise Unavailable(f"not installed ({e.name})") from None

    if "tripwire_lower_lemma" not in Language.factories:
        @Language.component("tripwire_lower_lemma")
        def lower_lemma(doc: Any) -> Any:
            for token in doc:
                token.lemma_ = token.lower_
            return doc

    class BlankEngine(SpacyNlpEngine):  # type: ignore[misc]
        def load(self) -> None:
            self.nlp = {}
            for lang in LANGS:
                nlp = spacy.blank(lang)
                nlp.add_pipe("tripwire_lower_lemma")
                self.nlp[lang] = nlp

    engine = BlankEngine(models=[{"lang_code": lang, "model_name": f"blank:{lang}"}
                                 for lang in LANGS])
    engine.load()
    registry = RecognizerRegistry(supported_languages=list(LANGS))
    registry.load_predefined_recognizers(languages=list(LANGS), nlp_engine=engine)
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=engine,
                              supported_languages=list(LANGS))
    names = PEER_TYPES["presidio"]
    entities = list(names)

    def detect(text: str, lang: str) -> list[Span]:
        return [(r.start, r.end, names[r.entity_type])
                for r in analyzer.analyze(text, language=lang, entities=entities)]

    return Column("presidio", _mapped("presidio"), detect)


def langchain_column() -> Column:
    """The built-in detectors of LangChain's ``PIIMiddleware``."""
    try:
        from langchain.agents.middleware import _redaction
    except ImportError as e:
        raise Unavailable(f"not installed ({e.name})") from None
    names = PEER_TYPES["langchain"]
    detectors = [(names[kind], fn) for kind, fn in _redaction.BUILTIN_DETECTORS.items()
                 if kind in names]

    def detect(text: str, lang: str) -> list[Span]:
        return [(m["start"], m["end"], ours) for ours, fn in detectors for m in fn(text)]

    return Column("langchain", _mapped("langchain"), detect)


def scrubadub_column() -> Column:
    """scrubadub's detectors of our types, with the locale of the record's language."""
    try:
        import scrubadub
    except ImportError as e:
        raise Unavailable(f"not installed ({e.name})") from None
    names = PEER_TYPES["scrubadub"]
    locales = {"en": "en_US", "de": "de_DE", "fr": "fr_FR", "es": "es_ES"}
    scrubbers = {}
    with warnings.catch_warnings():
        # (a detector that does not serve a locale says so, and is not added)
        warnings.simplefilter("ignore")
        for lang, locale in locales.items():
            scrubber = scrubbers[lang] = scrubadub.Scrubber(detector_list=[], locale=locale)
            for kind in names:
                try:
                    scrubber.add_detector(kind, warn=False)
                except ValueError:
                    pass  # date_of_birth has context words in English and German only

    def detect(text: str, lang: str) -> list[Span]:
        return [(f.beg, f.end, names[f.type]) for f in scrubbers[lang].iter_filth(text)
                if f.type in names]

    return Column("scrubadub", _mapped("scrubadub"), detect)


def datafog_column() -> Column:
    """``datafog.scan``: DataFog's regex engine (its ``DATE`` is any date, not a date of
    birth: not one of ours)."""
    try:
        import datafog
    except ImportError as e:
        raise Unavailable(f"not installed ({e.name})") from None
    names = PEER_TYPES["datafog"]

    def detect(text: str, lang: str) -> list[Span]:
        return [(e.start, e.end, names[e.type]) for e in datafog.scan(text).entities
                if e.type in names]

    return Column("datafog", _mapped("datafog"), detect)


#: Every column, by name, in the tables' order.
COLUMNS: dict[str, Callable[[], Column]] = {
    "tripwire": tripwire_column,
    "presidio": presidio_column,
    "langchain": langchain_column,
    "scrubadub": scrubadub_column,
    "datafog": datafog_column,
}


# ------------------------------------------------------------------ scoring and tables


def score(column: Column, records: list[dict[str, Any]]) -> PiiScore:
    """``column`` scored on ``records``, language by language (a peer is told the
    record's language), on the labelled types it reports."""
    labelled = {e["type"] for r in records for e in r.get("entities", [])}
    total = PiiScore()
    for lang in sorted({r["lang"] for r in records}):
        part = [r for r in records if r["lang"] == lang]
        one = score_pii(part, lambda text, lang=lang: column.detect(text, lang),
                        types=column.types & labelled)
        for table, into in ((one.by_type, total.by_type),
                            (one.by_type_lang, total.by_type_lang)):
            for key, c in table.items():
                cell = into[key]
                cell.tp, cell.fp, cell.fn = cell.tp + c.tp, cell.fp + c.fp, cell.fn + c.fn
        for kind, (flagged, n) in one.negatives.items():
            row = total.negatives[kind]
            row[0] += flagged
            row[1] += n
    return total


def _prf(c: Counts | None) -> str:
    if c is None:
        return "-"
    return f"{c.precision:.3f} / {c.recall:.3f} / {c.f1:.3f}"


def _micro(cells: Iterable[Counts]) -> Counts:
    out = Counts()
    for c in cells:
        out.tp, out.fp, out.fn = out.tp + c.tp, out.fp + c.fp, out.fn + c.fn
    return out


def tables(records: list[dict[str, Any]], columns: list[Column],
           scores: list[PiiScore]) -> str:
    """The split's tables in Markdown: per type, per type and language, hard negatives."""
    gold: dict[str, int] = defaultdict(int)
    gold_lang: dict[tuple[str, str], int] = defaultdict(int)
    for r in records:
        for e in r.get("entities", []):
            gold[e["type"]] += 1
            gold_lang[e["type"], r["lang"]] += 1
    langs = sorted({r["lang"] for r in records})
    head = "| " + " | ".join(c.name for c in columns) + " |"
    rule = "| --- " * len(columns) + "|"
    out = ["Precision / recall / F1 per type, every language:", "",
           "| type | labels " + head, "| --- | --- " + rule]
    for t in sorted(gold, key=lambda t: (t not in VALIDATED, t)):
        cells = [_prf(s.by_type.get(t, Counts())) if t in c.types else "-"
                 for c, s in zip(columns, scores, strict=True)]
        out.append(f"| {t} | {gold[t]} | " + " | ".join(cells) + " |")
    cells = [_prf(_micro(s.by_type[t] for t in gold if t in c.types and t in s.by_type))
             for c, s in zip(columns, scores, strict=True)]
    out.append("| all its types (micro) | | " + " | ".join(cells) + " |")
    out += ["", "Per type and language:", "",
            "| type | lang | labels " + head, "| --- | --- | --- " + rule]
    for t in sorted(gold, key=lambda t: (t not in VALIDATED, t)):
        for lang in langs:
            if not gold_lang.get((t, lang)):
                continue
            cells = [_prf(s.by_type_lang.get((t, lang), Counts())) if t in c.types else "-"
                     for c, s in zip(columns, scores, strict=True)]
            out.append(f"| {t} | {lang} | {gold_lang[t, lang]} | " + " | ".join(cells) + " |")
    out += ["", "Hard negatives flagged (by a detection of any type the column reports):", "",
            "| kind | n " + head, "| --- | --- " + rule]
    kinds = sorted({k for s in scores for k in s.negatives})
    for kind in kinds:
        n = max(s.negatives[kind][1] for s in scores if kind in s.negatives)
        cells = [str(s.negatives[kind][0]) if kind in s.negatives else "0" for s in scores]
        out.append(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    total = sum(max(s.negatives[k][1] for s in scores if k in s.negatives) for k in kinds)
    cells = [f"{sum(v[0] for v in s.negatives.values())} ({s.negatives_flagged:.1%})"
             for s in scores]
    out.append(f"| all | {total} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def misses(records: list[dict[str, Any]], column: Column) -> str:
    """What ``column`` gets wrong on ``records``, record by record (for tuning on the
    development half)."""
    lines: list[str] = []
    for r in records:
        text = r["text"]
        found = column.detect(text, r["lang"])
        gold = [(e["start"], e["end"], e["type"]) for e in r.get("entities", [])
                if e["type"] in column.types]

        def hit(a: Span, pool: list[Span]) -> bool:
            return any(t == a[2] and 2 * max(0, min(a[1], e) - max(a[0], s))
                       >= max(a[1] - a[0], e - s) for s, e, t in pool)

        for g in gold:
            if not hit(g, found):
                lines.append(f"{r['id']}: missed {g[2]} {text[g[0]:g[1]]!r}   "
                             f"[{_context(text, g[0], g[1])}]")
        for d in found:
            if not hit(d, gold):
                lines.append(f"{r['id']}: false {d[2]} {text[d[0]:d[1]]!r}   "
                             f"[{_context(text, d[0], d[1])}]")
        for neg in r.get("negatives", []):
            if any(max(0, min(neg["end"], e) - max(neg["start"], s)) for s, e, _ in found):
                lines.append(f"{r['id']}: flagged negative {neg['kind']} {neg['text']!r}")
    return "\n".join(lines)


def _context(text: str, start: int, end: int, width: int = 30) -> str:
    return text[max(0, start - width):end + width].replace("\n", " ")


def precision_recall(n: int) -> dict[str, tuple[int, int, int]]:
    """On the generated set: per type, (true positives, false positives, false
    negatives)."""
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


def written_sets(splits: list[str], only: list[str] | None, show_misses: bool,
                 ids: str | None = None) -> None:
    """Section 1 on the written sets: each split's tables, every column side by side."""
    columns: list[Column] = []
    for name, make in COLUMNS.items():
        if only and name not in only:
            continue
        try:
            columns.append(make())
        except Unavailable as e:
            print(f"{name}: left out, {e} (pip install -r bench/requirements.txt)")
    for split in splits:
        records = load("pii", split)
        if ids:  # one writer's files: pii-train3-... for the third tuning set
            records = [r for r in records if r["id"].startswith(ids)]
        if not records:
            print(f"\n{split}: absent (no bench/evalsets/{split}/pii-*.jsonl), skipped")
            continue
        langs = ", ".join(f"{lang} {sum(r['lang'] == lang for r in records)}"
                          for lang in sorted({r["lang"] for r in records}))
        print(f"\n### {split}: {len(records)} records ({langs})\n")
        scores = [score(c, records) for c in columns]
        print(tables(records, columns, scores))
        if show_misses and split != "heldout" and columns and columns[0].name == "tripwire":
            print("\ntripwire's misses, false positives and flagged negatives:\n")
            print(misses(records, columns[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=SPLITS, action="append",
                        help="the written set's half to score (default: both)")
    parser.add_argument("--only", nargs="+", choices=list(COLUMNS),
                        help="the columns to run (default: every one installed)")
    parser.add_argument("--misses", action="store_true",
                        help="list tripwire's errors on the tuning halves (dev, train)")
    parser.add_argument("--ids", metavar="PREFIX",
                        help="score only the records whose id starts so (pii-train3)")
    parser.add_argument("--sections", nargs="+", type=int, choices=(1, 2, 3),
                        default=[1, 2, 3])
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--deltas", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs of each timing; the best counts")
    args = parser.parse_args()

    if 1 in args.sections:
        print("1. PII precision / recall / F1 on the written sets")
        written_sets(args.split or list(SPLITS), args.only, args.misses, args.ids)
        print(f"\nThe generated set (bench/pii_data.py, {args.samples} texts): written "
              f"against the detectors, an upper bound")
        print(f"{'type':<15} {'precision':>9} {'recall':>7} {'tp':>5} {'fp':>4} {'fn':>4}")
        for kind, (tp, fp, fn) in sorted(precision_recall(args.samples).items()):
            precision = tp / (tp + fp) if tp + fp else 1.0
            recall = tp / (tp + fn) if tp + fn else 1.0
            print(f"{kind:<15} {precision:>9.3f} {recall:>7.3f} {tp:>5} {fp:>4} {fn:>4}")

    if 2 in args.sections:
        pii, regex, both = asyncio.run(throughput(args.mb, args.repeat))
        print(f"\n2. throughput on {args.mb:g} MB of chat text, redacting: pii-detector "
              f"{pii:.1f} MB/s, regex-filter {regex:.1f} MB/s, both {both:.1f} MB/s")

    if 3 in args.sections:
        # Best of several runs of each, taken separately (the runs alternate): on a
        # shared machine a run's time is its own plus whatever else ran meanwhile.
        runs = [asyncio.run(holdback_cost(args.deltas)) for _ in range(args.repeat)]
        plain, held = min(r[0] for r in runs), min(r[1] for r in runs)
        print(f"\n3. hold-back window on a {args.deltas}-delta stream: {held:.2f} µs per "
              f"chunk against {plain:.2f} µs through a pass-through processor "
              f"({held / plain:.2f}x)")


if __name__ == "__main__":
    main()
