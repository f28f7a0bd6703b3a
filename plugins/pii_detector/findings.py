"""The judge tier's findings as detections: where a value the judge quoted is written
in a text (``locate``), and how its detections join the deterministic ones
(``combine``), which they never drop.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import attrs

from tripwire.guards.verdicts import Detection, merge

#: What separates the words of a quoted value: whitespace, or the escapes a model
#: may copy from a JSON rendering of a tool value (``\\n``).
_GAP = re.compile(r"(?:\s|\\[nrt])+")


@functools.lru_cache(maxsize=4096)
def value_patterns(value: str) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """How to find a value the judge quoted: its words in order, any whitespace between
    them (a model may put an address on one line), not inside a longer word (``Ann`` is
    not found in ``Annual``); exactly as quoted, then ignoring case. ``None`` for a
    value with fewer than two letters or digits (it would be found everywhere)."""
    words = [w for w in _GAP.split(value) if w]
    if sum(c.isalnum() for w in words for c in w) < 2:
        return None
    body = r"\s+".join(map(re.escape, words))
    before = r"(?<!\w)" if re.match(r"\w", words[0]) else ""
    after = r"(?!\w)" if re.search(r"\w$", words[-1]) else ""
    pattern = before + body + after
    return re.compile(pattern), re.compile(pattern, re.IGNORECASE)


def locate(text: str, findings: Iterable[tuple[str, str]], detector: str) -> list[Detection]:
    """Every occurrence in ``text`` of each ``(type, value)`` the judge found, as a
    detection (score 1.0): where the value is written exactly as quoted, or, when it is
    nowhere written so, where it is written in another case. A value that does not occur
    is not reported (the model may have quoted it wrong, or it is in another text of
    the same message)."""
    out: list[Detection] = []
    for kind, value in findings:
        patterns = value_patterns(value)
        if patterns is None:
            continue
        for pattern in patterns:
            matches = list(pattern.finditer(text))
            if matches:
                out.extend(Detection(kind, m.start(), m.end(), 1.0, detector, m.group())
                           for m in matches)
                break
    return out


def combine(text: str, found: list[Detection], judged: list[Detection]) -> list[Detection]:
    """The deterministic detections ``found`` (merged, non-overlapping) with the judge's
    added where they do not overlap: a judge detection overlapping a deterministic one
    keeps only the parts outside it (each part with letters or digits). So every
    deterministic detection stays, with its type, and whatever the judge found is
    covered too. In text order, each with its value."""
    taken = [(d.start, d.end) for d in found]
    extra: list[Detection] = []
    for d in merge(judged):
        pos = d.start
        pieces: list[tuple[int, int]] = []
        for s, e in taken:
            if e <= pos or s >= d.end:
                continue
            pieces.append((pos, s))
            pos = max(pos, e)
        pieces.append((pos, d.end))
        for s, e in pieces:
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if any(c.isalnum() for c in text[s:e]):
                extra.append(attrs.evolve(d, start=s, end=e, value=text[s:e]))
    return sorted([*found, *extra], key=lambda d: d.start)
