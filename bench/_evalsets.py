"""The written evaluation sets for the guardrails: loading them and scoring a detector on them.

The sets live in ``bench/evalsets/`` with their labelling rules (``RULES-pii.md``,
``RULES-injection.md``). They were written by people who had not read the detectors, and
each language was split at random into a development half (``dev/``, for tuning) and a
held-out half (``heldout/``, for measuring only: never tuned on). One scorer serves
tripwire's tiers and the peers', so their numbers compare.

PII: a detection matches a labelled value when their types are the same and they
overlap by at least half of each one's length (so a detection that leaves half a card
number out, or swallows the sentence around a name, is a miss and a false positive);
matching is one to one. A hard negative counts as flagged when any detection, of any
type, overlaps it. Injection: a record is flagged or not; recall is over the attacks,
the false-positive rate over the benign records.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parent / "evalsets"
SPLITS = ("dev", "heldout", "train")
"""``train`` is extra tuning data written later by the same rules (evalsets/train/README.md)."""

Span = tuple[int, int, str]
"""``(start, end, type)`` of a detection, offsets into the record's text."""


def load(kind: str, split: str, root: Path = ROOT) -> list[dict[str, Any]]:
    """The records of one set (``kind`` ``"pii"`` or ``"injection"``) and split, every language.

    An absent split is an empty list (the held-out half is not in every checkout an
    engineer tunes in); a malformed record is an error naming its file and line.
    """
    if kind not in ("pii", "injection"):
        raise ValueError(f"kind must be 'pii' or 'injection', not {kind!r}")
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    records: list[dict[str, Any]] = []
    for path in sorted((root / split).glob(f"{kind}-*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n}: not JSON: {exc}") from None
            _check(record, kind, f"{path}:{n}")
            records.append(record)
    return records


def _check(record: dict[str, Any], kind: str, where: str) -> None:
    text = record.get("text")
    if not isinstance(text, str) or not isinstance(record.get("lang"), str):
        raise ValueError(f"{where}: a record needs a string 'text' and 'lang'")
    if kind == "injection":
        if record.get("label") not in ("attack", "benign"):
            raise ValueError(f"{where}: 'label' must be 'attack' or 'benign'")
        return
    for key in ("entities", "negatives"):
        for span in record.get(key, []):
            if text[span["start"]:span["end"]] != span["text"]:
                raise ValueError(f"{where}: {key} span {span['start']}-{span['end']} "
                                 f"is {text[span['start']:span['end']]!r}, not {span['text']!r}")


@attrs.define
class Counts:
    """True positives, false positives and false negatives of one cell of a table."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@attrs.define
class PiiScore:
    """A detector's score on PII records: by type, by (type, language), and the hard negatives."""

    by_type: dict[str, Counts] = attrs.Factory(lambda: defaultdict(Counts))
    by_type_lang: dict[tuple[str, str], Counts] = attrs.Factory(lambda: defaultdict(Counts))
    negatives: dict[str, list[int]] = attrs.Factory(lambda: defaultdict(lambda: [0, 0]))
    """Per hard-negative kind: [flagged, total]."""

    @property
    def negatives_flagged(self) -> float:
        flagged = sum(v[0] for v in self.negatives.values())
        total = sum(v[1] for v in self.negatives.values())
        return flagged / total if total else 0.0


def _overlap(a0: int, a1: int, b0: int, b1: int) -> int:
    return max(0, min(a1, b1) - max(a0, b0))


def score_pii(records: Iterable[dict[str, Any]], detect: Callable[[str], Iterable[Span]],
              types: Iterable[str] | None = None) -> PiiScore:
    """Score ``detect`` (text → spans) on PII records.

    Only the ``types`` given are scored (default: every type the records label); a
    detector's spans of other types are ignored for precision and recall, and still
    count against the hard negatives.
    """
    records = list(records)
    wanted = set(types) if types is not None else {
        e["type"] for r in records for e in r.get("entities", [])}
    score = PiiScore()
    for record in records:
        lang = record["lang"]
        found = list(detect(record["text"]))
        gold = [(e["start"], e["end"], e["type"]) for e in record.get("entities", [])
                if e["type"] in wanted]
        used: set[int] = set()
        for g0, g1, gt in gold:
            hit = next((i for i, (d0, d1, dt) in enumerate(found)
                        if i not in used and dt == gt
                        and 2 * _overlap(g0, g1, d0, d1) >= max(g1 - g0, d1 - d0)), None)
            cell = (score.by_type[gt], score.by_type_lang[gt, lang])
            if hit is None:
                for c in cell:
                    c.fn += 1
            else:
                used.add(hit)
                for c in cell:
                    c.tp += 1
        for i, (_d0, _d1, dt) in enumerate(found):
            if i not in used and dt in wanted:
                score.by_type[dt].fp += 1
                score.by_type_lang[dt, lang].fp += 1
        for neg in record.get("negatives", []):
            row = score.negatives[neg["kind"]]
            row[1] += 1
            if any(_overlap(neg["start"], neg["end"], d0, d1) for d0, d1, _ in found):
                row[0] += 1
    return score


@attrs.define
class InjectionScore:
    """A detector's score on injection records: recall over attacks, false positives over benign text."""

    attacks: dict[tuple[str, str], list[int]] = attrs.Factory(lambda: defaultdict(lambda: [0, 0]))
    """Per (axis, value), axis ``lang``, ``channel`` or ``category``: [caught, total]."""
    benign: dict[tuple[str, str], list[int]] = attrs.Factory(lambda: defaultdict(lambda: [0, 0]))
    """Per (axis, value): [flagged, total]."""

    def rate(self, table: str, axis: str = "all", value: str = "all") -> float:
        """``table`` ``"attacks"`` (recall) or ``"benign"`` (false-positive rate) of one cell."""
        hit, total = getattr(self, table).get((axis, value), (0, 0))
        return hit / total if total else 0.0


def score_injection(records: Iterable[dict[str, Any]],
                    flagged: Callable[[dict[str, Any]], bool]) -> InjectionScore:
    """Score ``flagged`` (record → is it an attack?) on injection records."""
    score = InjectionScore()
    for record in records:
        table = score.attacks if record["label"] == "attack" else score.benign
        hit = bool(flagged(record))
        keys = [(axis, str(record.get(axis, "-"))) for axis in ("lang", "channel", "category")]
        for key in (*keys, ("all", "all")):
            table[key][0] += hit
            table[key][1] += 1
    return score
