"""``rewrite``: a text with the sentences holding hits cut out and fake role
delimiters neutralised (``strategy = "rewrite"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from tripwire.plugins.prompt_injection_detector.scan import Hit


REMOVED: Final = "[removed: suspected prompt injection]"
DELIMITER_REMOVED: Final = "[removed: fake role delimiter]"

_SENTENCE_END = re.compile(r"[.!?\n]")


def rewrite(text: str, hits: Iterable[Hit], types: Iterable[str]) -> str:
    """``text`` with the sentences holding hits of ``types`` replaced by ``REMOVED``
    and fake role delimiters by ``DELIMITER_REMOVED``."""
    wanted = set(types)
    spans: list[tuple[int, int, str]] = []
    for h in hits:
        if not any(t in wanted and w > 0 for t, w in h.weights.items()):
            continue
        if h.rule.delimiter:
            spans.append((h.start, h.end, DELIMITER_REMOVED))
        else:
            spans.append((*_sentence(text, h.start, h.end), REMOVED))
    spans.sort()
    merged: list[tuple[int, int, str]] = []
    for start, end, label in spans:
        if merged and start <= merged[-1][1]:
            prev_start, prev_end, prev_label = merged[-1]
            merged[-1] = (prev_start, max(prev_end, end),
                          REMOVED if REMOVED in (label, prev_label) else prev_label)
        else:
            merged.append((start, end, label))
    out = []
    pos = 0
    for start, end, label in merged:
        out.append(text[pos:start])
        out.append(label)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or line) around ``text[start:end]``, at most 400 characters
    either side."""
    lo = max(0, start - 400)
    head = lo
    for m in _SENTENCE_END.finditer(text, lo, start):
        head = m.end()
    while head < start and text[head].isspace():
        head += 1
    hi = min(len(text), end + 400)
    stop = _SENTENCE_END.search(text, end, hi)
    return head, stop.end() if stop else hi
