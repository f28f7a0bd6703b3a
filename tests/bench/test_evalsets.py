"""The written evaluation sets stay frozen and well-formed (bench/evalsets/README.md)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "bench"
SETS = ROOT / "evalsets"


def _evalsets():
    spec = importlib.util.spec_from_file_location("bench_evalsets", ROOT / "_evalsets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_file_is_the_frozen_one() -> None:
    listed = {}
    for line in (SETS / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split()
        listed[name] = digest
    present = {str(p.relative_to(SETS)) for split in ("dev", "heldout")
               for p in (SETS / split).glob("*.jsonl")}
    assert present == set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((SETS / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.parametrize("kind", ["pii", "injection"])
def test_both_halves_load_and_share_no_text(kind: str) -> None:
    evalsets = _evalsets()
    dev, heldout = evalsets.load(kind, "dev"), evalsets.load(kind, "heldout")
    assert len(dev) > 200 and len(heldout) > 200
    assert {r["lang"] for r in dev} == {r["lang"] for r in heldout}
    assert not {r["text"] for r in dev} & {r["text"] for r in heldout}
    ids = [r["id"] for r in dev + heldout]
    assert len(ids) == len(set(ids))


def _grams(text: str) -> set[str]:
    text = text.lower()
    return {text[i:i + 5] for i in range(len(text) - 4)}


@pytest.mark.parametrize("kind", ["pii", "injection"])
def test_the_training_set_shares_no_text_with_the_halves(kind: str) -> None:
    evalsets = _evalsets()
    train = evalsets.load(kind, "train")
    assert len(train) > 200
    halves = {r["text"] for split in ("dev", "heldout") for r in evalsets.load(kind, split)}
    assert not {r["text"] for r in train} & halves
    if kind == "injection":  # nor a close paraphrase of a held-out text
        held: dict[str, list[set[str]]] = {}
        for r in evalsets.load(kind, "heldout"):
            held.setdefault(r["lang"], []).append(_grams(r["text"]))
        for record in train:
            grams = _grams(record["text"])
            assert all(len(grams & h) <= 0.5 * len(grams | h)
                       for h in held[record["lang"]]), record["id"]
    ids = [r["id"] for r in train]
    assert len(ids) == len(set(ids))


def test_pii_spans_do_not_overlap() -> None:
    for split in ("dev", "heldout", "train"):
        for record in _evalsets().load("pii", split):
            spans = sorted((s["start"], s["end"]) for key in ("entities", "negatives")
                           for s in record[key])
            for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
                assert end <= start, (record["id"], json.dumps(spans))


def test_the_loader_names_a_span_that_does_not_match(tmp_path: Path) -> None:
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "pii-xx.jsonl").write_text(json.dumps(
        {"id": "x", "lang": "xx", "text": "mail a@b.cd", "negatives": [],
         "entities": [{"start": 0, "end": 4, "type": "email", "text": "a@b.cd"}]}) + "\n")
    with pytest.raises(ValueError, match=r"pii-xx.jsonl:1: entities span 0-4 is 'mail'"):
        _evalsets().load("pii", "dev", tmp_path)


def test_scoring_matches_by_type_and_half_overlap() -> None:
    evalsets = _evalsets()
    record = {"id": "r", "lang": "en", "text": "card 4111 1111 1111 1111 order 123456",
              "entities": [{"start": 5, "end": 24, "type": "credit-card",
                            "text": "4111 1111 1111 1111"}],
              "negatives": [{"start": 31, "end": 37, "kind": "order-number", "text": "123456"}]}
    whole = evalsets.score_pii([record], lambda text: [(5, 24, "credit-card")])
    assert (whole.by_type["credit-card"].tp, whole.negatives_flagged) == (1, 0.0)
    part = evalsets.score_pii([record], lambda text: [(5, 9, "credit-card"), (31, 37, "phone")])
    card = part.by_type["credit-card"]
    assert (card.tp, card.fp, card.fn, part.negatives_flagged) == (0, 1, 1, 1.0)
