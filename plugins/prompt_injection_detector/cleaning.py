"""What ``strategy = "rewrite"`` makes of a flagged text or value, and whether it is
clean: the judge's ``rewritten_content`` when it gave one, else the offending
sentences cut out (``rewrite``); ``None`` or ``UNCLEAN`` when that changes nothing or
the heuristics still flag the result (the text is then filtered).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from tripwire.plugins.prompt_injection_detector.findings import Finding
from tripwire.plugins.prompt_injection_detector.rewrite import rewrite
from tripwire.plugins.prompt_injection_detector.scan import Analysis, Hit, Scanner

__all__ = ["REWRITE_MIN", "UNCLEAN", "Guard", "cleaned_text", "cleaned_value", "removable"]

#: What a removal must weigh for ``rewrite`` to cut it out.
REWRITE_MIN = 0.3

#: What ``cleaned_value`` returns when a value cannot be cleaned.
UNCLEAN: Any = object()


class Guard(Protocol):
    """What cleaning asks of the processor: its scanner, and its judgement of what is
    still flagged (``PromptInjectionDetector``'s own ``analyze`` and ``flagged``)."""

    scanner: Scanner

    def analyze(self, value: Any, channel: str = "input") -> Analysis: ...

    def flagged(self, analysis: Analysis) -> list[str]: ...


def cleaned_text(guard: Guard, text: str, finding: Finding, channel: str) -> str | None:
    """``text`` cleaned: the judge's ``rewritten_content`` when it gave one, else
    the offending sentences cut out; None when that changes nothing or the
    heuristics still flag the result."""
    if finding.rewritten_content is not None and finding.rewritten_content.strip():
        cleaned = finding.rewritten_content
    else:
        cleaned = rewrite(text, removable(finding.analysis, finding.types), finding.types)
    if cleaned == text or guard.flagged(guard.scanner.scan(cleaned, channel)):
        return None
    return cleaned


def cleaned_value(guard: Guard, value: Any, finding: Finding, channel: str) -> Any:
    """A tool result or document data cleaned (the judge's rewrite when it gave
    one: for a structured value, when it is JSON), else ``UNCLEAN``."""
    cleaned: Any = UNCLEAN
    rewritten = finding.rewritten_content
    if rewritten is not None and rewritten.strip():
        if isinstance(value, str):
            cleaned = rewritten
        else:
            try:
                cleaned = json.loads(rewritten)
            except ValueError:
                cleaned = UNCLEAN
    if cleaned is UNCLEAN:
        cleaned = _rewrite_value(guard.scanner, value, finding.types, channel)
    if cleaned == value or guard.flagged(guard.analyze(cleaned, channel)):
        return UNCLEAN
    return cleaned


def _rewrite_value(scanner: Scanner, value: Any, types: list[str], channel: str) -> Any:
    """A tool result (or document data) with the offending sentences of each of
    its strings removed."""
    if isinstance(value, str):
        analysis = scanner.scan(value, channel)
        return rewrite(value, removable(analysis, types), types)
    if isinstance(value, dict):
        return {k: _rewrite_value(scanner, v, types, channel) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rewrite_value(scanner, v, types, channel) for v in value]
    return value


def removable(analysis: Analysis, types: list[str]) -> list[Hit]:
    """The hits of ``analysis`` weighty enough for ``types`` to be cut out (not the
    model's: its window is no sentence, so a text only the model flags is filtered)."""
    return [h for h in analysis.hits if h.rule.name != "model"
            and any(h.weights.get(t, 0.0) >= REWRITE_MIN for t in types)]
