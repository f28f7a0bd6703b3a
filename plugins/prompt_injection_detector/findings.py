"""``Finding``: what a tier of ``prompt-injection-detector`` decides about one text,
the heuristics' or the judge's, in one shape the strategies act on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from tripwire.guards.judge import unquoted_reason
from tripwire.guards.verdicts import Detection
from tripwire.plugins.prompt_injection_detector.judge import JudgeVerdict
from tripwire.plugins.prompt_injection_detector.scan import Analysis

__all__ = ["Finding"]


@attrs.frozen
class Finding:
    """What decided about one text, and how: ``tier`` (``"heuristic"`` or ``"judge"``),
    the flagged ``types`` (empty: the text passes), every type's ``scores`` from that
    tier, the ``detections`` behind the flag (the heuristics' rules with their offsets;
    the judge's span the whole text, ``detector = "judge"``), the judge's ``reason``
    and ``rewritten_content``, and the heuristic ``analysis`` (always made: it is what
    ``rewrite`` cuts from when the judge gives no rewritten text)."""

    tier: Literal["heuristic", "judge"]
    types: list[str]
    scores: dict[str, float]
    detections: tuple[Detection, ...]
    analysis: Analysis
    reason: str | None = None
    rewritten_content: str | None = None

    @classmethod
    def heuristic(cls, analysis: Analysis, types: list[str]) -> Finding:
        """The heuristics' finding: ``analysis`` with the ``types`` it flags."""
        return cls("heuristic", types, dict(analysis.scores), analysis.detections(types),
                   analysis)

    @classmethod
    def judged(cls, text: str, analysis: Analysis, verdict: JudgeVerdict,
               types: Sequence[str], threshold: float) -> Finding:
        """The judge's finding on ``text``: the ``types`` its ``verdict`` scores at or
        over ``threshold``, each detected over the whole text."""
        flagged = [t for t in types if verdict.scores[t] >= threshold and verdict.scores[t] > 0]
        detections = tuple(Detection(t, 0, len(text), verdict.scores[t], detector="judge")
                           for t in flagged)
        return cls("judge", flagged, verdict.scores, detections, analysis,
                   unquoted_reason(verdict.reason, text), verdict.rewritten_content)
