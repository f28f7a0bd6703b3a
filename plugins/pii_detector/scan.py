"""What ``pii-detector`` finds in a text: the detectors it loads (``load_detectors``:
the built-in ones for ``detection_types`` and those given), and the ``Scanner`` that
runs them (the types wanted, scoring at least ``threshold``), adds the judge tier's
findings, and checks a text (its detections collected, the text redacted).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tripwire.detectors import BUILTIN_TYPES, JUDGE_TYPES, OFFLINE_TYPES, build
from tripwire.errors import ConfigurationError, MissingDependencyError
from tripwire.guards.incremental import find_from
from tripwire.guards.verdicts import Detection, Detector, load_detector, merge
from tripwire.messages import Message
from tripwire.plugins.pii_detector.findings import combine
from tripwire.plugins.pii_detector.judge import JudgeTier
from tripwire.plugins.pii_detector.redaction import splice
from tripwire.plugins.shared.judge_types import check_names, unknown_types


def load_detectors(
    owner: str, detection_types: Sequence[str], regions: Sequence[str] | None,
    specs: Sequence[Any], *, judged: bool = False,
) -> tuple[list[Detector], frozenset[str], tuple[str, ...]]:
    """The detectors for ``detection_types`` (built-in) plus those ``specs`` name, every
    type wanted (theirs, and with ``judged``, the judge tier's), and the types the
    judge finds that no detector given provides (``name``, ``address`` and, with
    ``judged``, any other name: a type of your own,
    ``tripwire.plugins.shared.judge_types``).

    ``name`` and ``address`` go to the judge with ``judged``; without it they are
    found by the offline tier (``tripwire.detectors.OFFLINE_TYPES``), and are an
    error naming its extra and ``model=`` when the extra is not installed. Without
    ``judged`` any other type no detector provides is an error that says a judge
    would find it."""
    custom: list[Detector] = []
    for i, spec in enumerate(specs):
        try:
            custom.append(load_detector(spec))
        except ConfigurationError as e:
            raise ConfigurationError(f"{owner}: detectors[{i}]: {e}") from e
    custom_types = {t for d in custom for t in d.types}
    offline = [] if judged else [t for t in dict.fromkeys(detection_types)
                                 if t in OFFLINE_TYPES and t not in custom_types]
    offline_detectors: list[Detector] = []
    if offline:
        try:
            offline_detectors = build(offline)
        except MissingDependencyError as e:
            raise MissingDependencyError(
                f"{owner}: detection type(s) {', '.join(offline)} need the offline tier or "
                f"the judge tier: {e}; or give model= (a router id or a model object)"
            ) from e
    judge = [t for t in dict.fromkeys(detection_types)
             if t not in BUILTIN_TYPES and t not in custom_types and t not in offline]
    if not judged:
        if judge:
            raise unknown_types(owner, judge, f"{', '.join(BUILTIN_TYPES)} (and the types "
                                f"of the detectors given), {' and '.join(JUDGE_TYPES)} (with "
                                f"the names extra or model=)")
    check_names(owner, [t for t in judge if t not in JUDGE_TYPES])
    builtin = [t for t in dict.fromkeys(detection_types) if t in BUILTIN_TYPES]
    try:
        detectors = [*build(builtin, **({} if regions is None else {"regions": list(regions)})),
                     *offline_detectors, *custom]
    except ValueError as e:
        raise ConfigurationError(f"{owner}: {e}") from e
    if not detectors and not judge:
        raise ConfigurationError(f"{owner}: nothing to detect: detection_types is empty and "
                                 f"no detectors are given")
    for d in detectors:
        n = d.max_length
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ConfigurationError(f"{owner}: detector {d.name!r} has max_length {n!r}; it "
                                     f"must be an integer >= 1")
    return (detectors, frozenset(builtin) | frozenset(offline) | custom_types | frozenset(judge),
            tuple(judge))


class Scanner:
    """The search of one ``pii-detector``: ``detectors`` (reporting the ``wanted``
    types, scoring at least ``threshold``) and, with the judge tier (``tier``), the
    values the judge quoted, wherever they occur.

    ``check`` serves every phase but the streamed text, which the stream's window
    searches itself with ``find`` (``raw`` and ``finish`` for the end of the window).
    ``redact(type, value)`` is the replacement of a value (``None``: texts are not
    changed, only their detections collected); ``clean_key`` the ``state`` key of the
    texts found clean in a call.
    """

    __slots__ = ("detectors", "wanted", "threshold", "tier", "_redact", "_clean_key")

    def __init__(self, detectors: list[Detector], wanted: frozenset[str], threshold: float,
                 tier: JudgeTier | None, *, redact: Callable[[str, str], str] | None,
                 clean_key: str) -> None:
        self.detectors = detectors
        self.wanted = wanted
        self.threshold = threshold
        self.tier = tier
        self._redact = redact
        self._clean_key = clean_key

    def find(self, text: str) -> list[Detection]:
        """The deterministic detections in ``text`` (merged, in text order), each with
        its value."""
        return self.finish(text, self.raw(text, self.detectors)) if text else []

    def detect(self, text: str, state: dict[str, Any]) -> list[Detection]:
        """The detections in ``text``: the deterministic ones, and the judge's findings
        for it in this call (``judge_messages`` or ``judge_value`` ran first) wherever
        they occur in it."""
        found = self.find(text)
        judged = self.tier.found_in(text, state) if self.tier is not None else []
        return combine(text, found, judged) if judged else found

    async def judge_messages(self, messages: Iterable[Message], state: dict[str, Any]
                             ) -> None:
        """With the judge tier: ``messages`` judged (their findings kept for the call)."""
        if self.tier is not None:
            await self.tier.judge_messages(messages, state)

    async def judge_value(self, value: Any, state: dict[str, Any], *more: Any) -> None:
        """With the judge tier: ``value`` judged (its findings kept for the call)."""
        if self.tier is not None:
            await self.tier.judge_value(value, state, *more)

    def raw(self, text: str, detectors: list[Detector], since: int = 0) -> list[Detection]:
        """What ``detectors`` find in ``text`` (from ``since`` on, and perhaps before:
        ``tripwire.guards.incremental.find_from``), of the types wanted and scoring
        enough."""
        return [d for detector in detectors for d in find_from(text, detector, since)
                if d.score >= self.threshold and d.type in self.wanted]

    def finish(self, text: str, found: list[Detection]) -> list[Detection]:
        """``found`` checked, merged (the longest of overlapping ones wins) and given
        their values."""
        for d in found:
            if not (isinstance(d.start, int) and isinstance(d.end, int)
                    and 0 <= d.start < d.end <= len(text)):
                raise ValueError(f"detector {d.detector!r} returned the span ({d.start!r}, "
                                 f"{d.end!r}) for a text of {len(text)} characters")
        return [d if d.value is not None else attrs.evolve(d, value=text[d.start:d.end])
                for d in merge(found)]

    def mark_clean(self, text: str, state: dict[str, Any]) -> None:
        """``text`` counts as checked for the rest of the call (``check`` returns it as it
        is): the stream's window searched it as it went out."""
        state.setdefault(self._clean_key, set()).add(text)

    def check(self, text: str, found: list[Detection], state: dict[str, Any]) -> str:
        """``text`` with its detections redacted (``redact``) or as it is (the other
        strategies; a redacted text that is only white space becomes ``""``); the
        detections are added to ``found``. Texts found clean are
        remembered for the call, so the history is not searched again at every phase."""
        clean: set[str] = state.setdefault(self._clean_key, set())
        if text in clean:
            return text
        detections = self.detect(text, state)
        if not detections:
            clean.add(text)
            return text
        found.extend(detections)
        redact = self._redact
        if redact is None:
            return text
        out = splice(text, detections, lambda d, value: redact(d.type, value))
        if not out.strip():
            # Nothing but white space is left (``remove``): the text is empty, so a
            # message left with nothing else is not sent, as an emptied one is not.
            out = ""
        clean.add(out)  # what a later phase meets again is not searched (nor judged) again
        return out
