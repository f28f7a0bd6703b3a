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


def normalised(text: str) -> str:
    """``text`` as the model reads it: its folded view without markup, whitespace runs
    as one space (one line break if they hold one), digits as ``0``."""
    import numpy as np

    read, _ = _read(fold(text)[1].text)
    return read.astype(np.uint32).tobytes().decode("utf-32-le")


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per code point of the Basic Multilingual Plane: whitespace, a decimal digit, a
    word character (``\\w``)."""
    import numpy as np

    chars = [chr(i) for i in range(0x10000)]
    space = np.array([c.isspace() for c in chars])
    digit = np.array([c.isdecimal() for c in chars])
    word = np.array([c.isalnum() or c == "_" for c in chars])
    return space, digit, word


def _read(s: str) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64]]:
    """The code points of ``s`` as the model reads them (``normalised``), and where in
    ``s`` each one is (so features' positions are offsets into ``s``)."""
    import numpy as np

    cp = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32)
    space_table, digit_table, _ = _tables()
    bmp = np.minimum(cp, 0xFFFF)
    space = space_table[bmp]
    cp = np.where(digit_table[bmp], np.uint32(0x30), cp)
    if not space.any():
        return cp, np.arange(len(cp))
    run_start = space.copy()
    run_start[1:] &= ~space[:-1]
    # each whitespace run reads as its first character: a line break if the run holds
    # one, else a space
    run = np.cumsum(run_start) - 1
    newline = np.zeros(int(run_start.sum()), dtype=bool)
    newline[run[space & (cp == 10)]] = True
    cp = np.where(run_start, np.where(newline[np.maximum(run, 0)], np.uint32(10), np.uint32(32)),
                  cp)
    where = np.nonzero(~space | run_start)[0]
    return cp[where], where


def ngrams(s: str, concepts: Sequence[Occurrence] = ()
           ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """The features of ``s`` (a folded view's text, read as ``normalised`` reads it):
    ``(positions, buckets, values)``, one entry per n-gram (value 1) and per concept of
    the heuristics' lexicon found in ``s`` (``concepts``: ``ConceptMatcher.occurrences(s)``)
    and pair of concepts within ``PAIR_SPAN`` characters (value ``CONCEPT_VALUE``: a few
    words in any language that say what the text asks); ``positions`` where each starts
    in ``s``, in no particular order."""
    import numpy as np

    cp, at_s = _read(s)
    length = len(cp)
    pos: list[Any] = []
    keys: list[Any] = []
    u = np.uint32
    if length:
        wide = np.zeros(length, dtype=bool)
        for lo, hi in _IDEOGRAPHIC:
            wide |= (cp >= lo) & (cp <= hi)
        at = np.nonzero(wide)[0]
        pos.append(at)
        keys.append(cp[at] * u(7) + u(1))
        h = cp.copy()
        for n in range(2, 6):
            if length < n:
                break
            # (wraps modulo 2 ** 32)
            h = h[:-1] * u(_PRIME) + cp[n - 1:]
            pos.append(np.arange(length - n + 1))
            keys.append(h * u(7) + u(n))
        wpos, wkey = _words(cp)
        if len(wpos):
            pos.append(wpos)
            keys.append(wkey * u(7) + u(6))
            if len(wpos) > 1:
                pos.append(wpos[:-1])
                keys.append((wkey[:-1] * u(_PRIME) + wkey[1:]) * u(7))
    where = at_s[np.concatenate(pos)] if pos else np.zeros(0, np.int64)
    plain = len(where)
    if concepts and length:
        found = _concept_tokens(concepts)
        if found:
            where = np.concatenate((where, np.array([f[0] for f in found], dtype=np.int64)))
            keys.append(np.array([f[1] for f in found], dtype=np.uint32) * u(7) + u(6))
    if not len(where):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, np.float32)
    values = np.ones(len(where), dtype=np.float32)
    values[plain:] = CONCEPT_VALUE
    buckets = (np.concatenate(keys) * u(_GOLDEN)) >> u(32 - BITS)
    return where.astype(np.int64), buckets.astype(np.int64), values


def _words(cp: npt.NDArray[np.uint32]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint32]]:
    """Where each word (a run of word characters) of the read code points ``cp``
    starts, and its 32-bit hash: a polynomial over its code points, computed for all
    words at once from prefix sums (the sum over a word of ``c * P ** k``, times ``P``
    to the minus power of where the word starts, modulo ``2 ** 64``)."""
    import numpy as np

    _, _, word_table = _tables()
    word = word_table[np.minimum(cp, 0xFFFF)] | ((cp >= 0x20000) & (cp <= 0x2FFFF))
    edges = np.diff(word.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts = np.nonzero(edges == 1)[0]
    if not len(starts):
        return starts.astype(np.int64), np.zeros(0, dtype=np.uint32)
    ends = np.nonzero(edges == -1)[0]
    powers, inverses = _powers(len(cp))
    prefix = np.zeros(len(cp) + 1, np.uint64)
    np.cumsum(cp * powers, dtype=np.uint64, out=prefix[1:])
    h = (prefix[ends] - prefix[starts]) * inverses[starts]
    return starts.astype(np.int64), (h ^ (h >> np.uint64(32))).astype(np.uint32)


_P64: Final = 1_000_003
_P64_INVERSE: Final = pow(_P64, -1, 1 << 64)


@functools.lru_cache(maxsize=8)
def _powers_of(n: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    import numpy as np

    powers = np.cumprod(np.full(n, _P64, dtype=np.uint64), dtype=np.uint64)
    inverses = np.cumprod(np.full(n, _P64_INVERSE, dtype=np.uint64), dtype=np.uint64)
    one = np.ones(1, dtype=np.uint64)
    return np.concatenate((one, powers[:-1])), np.concatenate((one, inverses[:-1]))


def _powers(n: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """``P ** k`` and ``P ** -k`` modulo ``2 ** 64`` for ``k < n`` (slices of a cached
    table whose size is a power of two)."""
    size = 1 << max(10, (n - 1).bit_length())
    powers, inverses = _powers_of(size)
    return powers[:n], inverses[:n]


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


def windows(positions: npt.NDArray[np.int64]
            ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The ``[lo, hi)`` index ranges into ``positions`` (sorted) of the windows the
    model scores (``Classifier.score_view``; two arrays, for training):
    the whole text when it fits in a window, else each window of ``WINDOW`` characters
    starting every ``STEP`` that holds a feature (a long text is never scored whole: its
    repeated n-grams would add up without bound)."""
    import numpy as np

    n = len(positions)
    if n == 0:
        return np.zeros(1, np.int64), np.zeros(1, np.int64)
    end = int(positions[-1]) + 1
    if end <= WINDOW:
        return np.zeros(1, np.int64), np.full(1, n, np.int64)
    starts = np.arange(0, max(1, end - WINDOW + STEP), STEP)
    lo = np.searchsorted(positions, starts)
    hi = np.searchsorted(positions, starts + WINDOW)
    keep = hi > lo
    return lo[keep].astype(np.int64), hi[keep].astype(np.int64)


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

    def score_view(self, plain: View, occurrences: Sequence[Occurrence] | None = None
                   ) -> Score:
        """``score`` of the text whose folded view without markup is ``plain``;
        ``occurrences``: the lexicon's concepts in ``plain.text``, when the caller has
        found them already (the scanner has: one pass serves the rules and the model)."""
        import numpy as np

        text = plain.text
        if _too_short(text):
            return Score(0.0, 0, 0)
        concepts = self.concepts.occurrences(text) if occurrences is None else occurrences
        about = any(o.concept == "META" for o in concepts)
        positions, buckets, values = ngrams(text, concepts)
        if not len(positions):
            return Score(_sigmoid(self.bias), 0, 0, about)
        # per position of the text: the weight of the features starting there, and
        # their number; a window's logit is a difference of their running sums
        size = int(positions.max()) + 1
        weight = np.bincount(positions, self.weights[buckets] * values, size)
        count = np.bincount(positions, minlength=size)
        if size <= WINDOW:
            logit = self.bias + float(weight.sum()) / np.sqrt(len(positions))
            return Score(_sigmoid(logit), *plain.root_span(0, len(text)), about)
        run = np.concatenate(([0.0], np.cumsum(weight)))
        seen = np.concatenate(([0], np.cumsum(count)))
        lo = np.arange(0, size - WINDOW + STEP, STEP)
        hi = np.minimum(lo + WINDOW, size)
        n = seen[hi] - seen[lo]
        logits = self.bias + (run[hi] - run[lo]) / np.sqrt(np.maximum(n, 1))
        logits[n == 0] = -np.inf
        best = int(np.argmax(logits))
        start = int(lo[best])
        end = min(len(text), start + WINDOW)
        return Score(_sigmoid(float(logits[best])), *plain.root_span(start, end), about)


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
