"""A small linear model beside the heuristics: logistic regression over hashed
character and word n-grams of the text as the heuristics read it (``fold``'s view
without markup: lower case, evasions folded).

Features (``ngrams``): character n-grams of 2 to 5 characters in every script, and
single characters of the scripts that write a morpheme per character (CJK, kana,
hangul); words and word pairs (words: runs of letters and digits). Digits read as
``0``, whitespace runs as one space. Each n-gram is hashed (a polynomial over its code
points, then multiplicative hashing) to one of ``2 ** BITS`` weights. A text's feature
vector is its n-gram counts over the square root of their number, so the score of a
stretch of text is a sum over its positions: the model scores a short text whole and
a longer one by every window of ``WINDOW`` characters (every ``STEP``), and a text's
probability is the highest, so an instruction hidden at the end of a long page is not
diluted by the page.

The weights (``classifier.npz``: int8 weights with one scale, the bias, and the
threshold chosen by cross-validation) are written by ``bench/injection_train.py`` from
data in the repository; the file loads when a detector is built. Needs numpy (the
``guardrails`` extra).
"""

from __future__ import annotations

import functools
import re
import zlib
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

import attrs

from tripwire.plugins.prompt_injection_detector.views import View, fold

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from tripwire.plugins.prompt_injection_detector.concepts import Occurrence

BITS: Final = 18
WINDOW: Final = 320       # characters of folded text per window
STEP: Final = 80          # between window starts
WEIGHTS_FILE: Final = "classifier.npz"
MIN_WORDS: Final = 6      # a shorter text is not scored (``_too_short``): too little to judge by
PAIR_SPAN: Final = 80     # characters between two concepts read as a pair
CONCEPT_VALUE: Final = 3.0  # what a concept feature counts, against an n-gram's 1
_PAIRS: Final = 6         # pairs per concept at most (the nearest ones after it)

_PRIME: Final = 1_000_003
_GOLDEN: Final = 2_654_435_761
_MASK: Final = 0xFFFF_FFFF
_WS: Final = re.compile(r"\s+")
_DIGIT: Final = re.compile(r"\d")
_WORD: Final = re.compile(r"\w+")
#: Code points of scripts written a morpheme (or syllable) per character.
_IDEOGRAPHIC: Final = ((0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF),
                       (0x20000, 0x2FFFF))


def reading(plain: View) -> View:
    """The heuristics' folded view without markup (``fold(text)[1]``) as the model
    reads it: whitespace runs as one space (one line break if they hold one), digits
    as ``0``."""
    spaced = View.edited(plain, ((m.start(), m.end(), "\n" if "\n" in m.group() else " ")
                                 for m in _WS.finditer(plain.text)
                                 if m.group() not in (" ", "\n")))
    return View(_DIGIT.sub("0", spaced.text), spaced)  # same length: offsets unchanged


def normalised(text: str) -> str:
    """``text`` as the model reads it (``reading`` of its folded view)."""
    return reading(fold(text)[1]).text


def ngrams(s: str, concepts: Sequence[Occurrence] = ()
           ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The features of ``s`` (a ``normalised`` text): ``(positions, buckets, values)``,
    one entry per n-gram (value 1) and per concept of the heuristics' lexicon found in
    ``s`` (``concepts``: ``ConceptMatcher.occurrences(s)``) and pair of concepts within
    ``PAIR_SPAN`` characters (value ``CONCEPT_VALUE``: a few words in any language that
    say what the text asks); ``positions`` where each starts in ``s`` (sorted)."""
    import numpy as np

    cp = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    length = len(cp)
    pos: list[Any] = []
    keys: list[Any] = []
    if length:
        wide = np.zeros(length, dtype=bool)
        for lo, hi in _IDEOGRAPHIC:
            wide |= (cp >= lo) & (cp <= hi)
        at = np.nonzero(wide)[0]
        pos.append(at)
        keys.append(cp[at] * np.uint64(7) + np.uint64(1))
    for n in range(2, 6):
        if length < n:
            break
        h = np.zeros(length - n + 1, dtype=np.uint64)
        for k in range(n):
            h = (h * np.uint64(_PRIME) + cp[k:length - n + 1 + k]) & np.uint64(_MASK)
        pos.append(np.arange(length - n + 1))
        keys.append(h * np.uint64(7) + np.uint64(n))
    words = [(m.start(), zlib.crc32(m.group().encode())) for m in _WORD.finditer(s)]
    if words:
        wpos = np.array([w[0] for w in words], dtype=np.int64)
        wkey = np.array([w[1] for w in words], dtype=np.uint64)
        pos.append(wpos)
        keys.append(wkey * np.uint64(7) + np.uint64(6))
        if len(words) > 1:
            pair = (wkey[:-1] * np.uint64(_PRIME) + wkey[1:]) & np.uint64(_MASK)
            pos.append(wpos[:-1])
            keys.append(pair * np.uint64(7))
    plain = sum(len(at) for at in pos)
    if concepts and length:
        found = _concept_tokens(concepts)
        if found:
            pos.append(np.array([f[0] for f in found], dtype=np.int64))
            keys.append(np.array([f[1] for f in found], dtype=np.uint64) * np.uint64(7)
                        + np.uint64(6))
    if not pos:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, np.float32)
    where = np.concatenate(pos).astype(np.int64)
    hashed = np.concatenate(keys) & np.uint64(_MASK)
    values = np.ones(len(where), dtype=np.float32)
    values[plain:] = CONCEPT_VALUE
    buckets = (((hashed * np.uint64(_GOLDEN)) & np.uint64(_MASK)) >> np.uint64(32 - BITS))
    order = np.argsort(where, kind="stable")
    return where[order], buckets.astype(np.int64)[order], values[order]


def _concept_tokens(concepts: Sequence[Occurrence]) -> list[tuple[int, int]]:
    """``(position, hash)`` of each concept and of each ordered pair of concepts
    within ``PAIR_SPAN`` characters."""
    found = sorted((o.start, o.concept) for o in concepts)
    out = [(at, zlib.crc32(f"\0c:{c}".encode())) for at, c in found]
    for i, (at, c) in enumerate(found):
        for other_at, other in found[i + 1:i + 1 + _PAIRS]:
            if other_at - at > PAIR_SPAN:
                break
            if other != c:
                out.append((at, zlib.crc32(f"\0p:{c}>{other}".encode())))
    return out


def windows(positions: npt.NDArray[np.int64]) -> list[tuple[int, int]]:
    """The ``[lo, hi)`` index ranges into ``positions`` the model scores: the whole
    text when it fits in a window, else each window of ``WINDOW`` characters starting
    every ``STEP`` (a long text is never scored whole: its repeated n-grams would add
    up without bound)."""
    import numpy as np

    n = len(positions)
    if n == 0:
        return [(0, 0)]
    end = int(positions[-1]) + 1
    if end <= WINDOW:
        return [(0, n)]
    starts = np.arange(0, max(1, end - WINDOW + STEP), STEP)
    lo = np.searchsorted(positions, starts)
    hi = np.searchsorted(positions, starts + WINDOW)
    return [(int(a), int(b)) for a, b in zip(lo, hi, strict=True) if b > a]


@attrs.frozen
class Score:
    """The model's probability that a text is an attack, and the stretch of the text
    that scored it (``start``, ``end``: offsets into the text scored)."""

    probability: float
    start: int
    end: int
    #: whether the text is about attacks (a ``META`` concept of the lexicon: prompt
    #: injection, jailbreak, phishing, ... in any language)
    about_attacks: bool = False


class Classifier:
    """The shipped model (or ``weights`` and ``bias`` given), scoring texts."""

    def __init__(self, weights: npt.NDArray[np.float32] | None = None, bias: float = 0.0,
                 threshold: float = 0.5) -> None:
        import numpy as np

        from tripwire.plugins.prompt_injection_detector.concepts import ConceptMatcher

        #: finds the concepts of the heuristics' lexicon (all of them)
        self.concepts = ConceptMatcher()

        if weights is None:
            with resources.files(__package__).joinpath(WEIGHTS_FILE).open("rb") as f, \
                    np.load(f) as data:
                weights = data["weights"].astype(np.float32) * np.float32(data["scale"])
                bias = float(data["bias"])
                threshold = float(data["threshold"])
        self.weights = weights
        self.bias = bias
        #: the probability at or over which the detector counts a text as an attack
        self.threshold = threshold

    def score(self, text: str) -> Score:
        """The highest probability over ``text`` and its windows, and where."""
        return self.score_view(fold(text)[1])

    def score_view(self, plain: View) -> Score:
        """``score`` of the text whose folded view without markup is ``plain``."""
        import numpy as np

        view = reading(plain)
        if _too_short(view.text):
            return Score(0.0, 0, 0)
        concepts = self.concepts.occurrences(view.text)
        about = any(o.concept == "META" for o in concepts)
        positions, buckets, values = ngrams(view.text, concepts)
        if not len(positions):
            return Score(_sigmoid(self.bias), 0, 0, about)
        contrib = np.concatenate(([0.0], np.cumsum(self.weights[buckets] * values,
                                                   dtype=np.float64)))
        spans = windows(positions)
        lo = np.array([a for a, _ in spans])
        hi = np.array([b for _, b in spans])
        logits = self.bias + (contrib[hi] - contrib[lo]) / np.sqrt(np.maximum(hi - lo, 1))
        best = int(np.argmax(logits))
        a, b = spans[best]
        whole = len(spans) == 1 and int(positions[-1]) < WINDOW
        start = 0 if whole else int(positions[a])
        end = len(view.text) if whole else min(len(view.text), start + WINDOW)
        return Score(_sigmoid(float(logits[best])), *view.root_span(start, end), about)


@functools.lru_cache(maxsize=1)
def shipped() -> Classifier:
    """The model shipped in the package, loaded once per process."""
    return Classifier()


def sparse(buckets: npt.NDArray[np.int64], values: npt.NDArray[np.float32]
           ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The feature vector of the features ``buckets`` with ``values``: ``(indices,
    sums)``, each bucket's values summed over the square root of the number of
    features (what ``Classifier.score`` computes, for training)."""
    import numpy as np

    idx, inverse = np.unique(buckets, return_inverse=True)
    sums = np.bincount(inverse, weights=values, minlength=len(idx))
    return idx, (sums / np.sqrt(max(len(buckets), 1))).astype(np.float32)


_WIDE: Final = re.compile("[\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")


def _too_short(s: str) -> bool:
    """Whether ``s`` has fewer than ``MIN_WORDS`` words (a Chinese or Japanese character
    counting half a word)."""
    if len(s) >= 40 * MIN_WORDS:
        return False
    return len(_WORD.findall(s)) < MIN_WORDS and len(_WIDE.findall(s)) < 2 * MIN_WORDS


def _sigmoid(x: float) -> float:
    import math

    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))
