"""Building blocks for guardrail processors, the same ones the built-ins use.

- ``Detection``: one thing a detector found in a text (its type, where, how sure);
- ``Detector``: what finds them (a class with ``detect(text)``), pluggable through the
  entry point group ``tripwire.detectors``;
- ``Verdict``: what a guard decided about one channel (the input, the stream, a tool
  result, ...), in one shape for every guardrail: on the tripwire's metadata when it
  blocks (``verdict.to_metadata()``), in ``result.verdicts`` when it only warns or
  changes something (``writer.report(verdict)``);
- ``STRATEGIES`` / ``STRATEGY_ALIASES`` / ``strategy_of``: one vocabulary for what a
  guard does with what it finds, so ``strategy = "redact"`` (or ``"mask"``) means the
  same in every guard that redacts.

Detections and verdicts never carry the detected value unless asked for
(``include_values``): a caller can log them as they are.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from tripwire.errors import ConfigurationError
from tripwire.option_checks import did_you_mean

__all__ = [
    "ACTIONS",
    "CHANNELS",
    "REDACTION_METHODS",
    "STRATEGIES",
    "STRATEGY_ALIASES",
    "Detection",
    "Detector",
    "Verdict",
    "available_detectors",
    "load_detector",
    "strategy_of",
]

#: Where a guard looked: what a verdict's ``channel`` may be.
CHANNELS = (
    "input",         # the input messages (process_input)
    "output",        # the streamed text (process_output_stream)
    "reasoning",     # streamed reasoning
    "tool-call",     # a tool call's arguments, before the tool runs
    "tool-result",   # a tool's result, before the model and the client see it
    "step",          # a step's messages (process_output_step)
    "result",        # the final response (process_output_result)
    "document",      # a document the agent was given
)

#: What a guard did about what it found.
ACTIONS = ("blocked", "warned", "filtered", "redacted", "tokenized", "rewritten", "restored")

#: What a guard may be told to do with what it finds (its ``strategy``), one vocabulary
#: for every guard; each guard takes the ones that make sense for it.
STRATEGIES = {
    "block": "stop the run with a tripwire",
    "warn": "report (on_violation, result.verdicts) and change nothing",
    "filter": "drop the message or the chunk holding it",
    "redact": "replace each finding and go on (how: redaction_method, or the guard's "
              "replacement)",
    "tokenize": "replace each value with a placeholder the client gets back as the value",
    "rewrite": "replace the message with a judge's rewrite",
}

#: Other spellings a guard accepts for a strategy, mapped to its name in ``STRATEGIES``:
#: ``"mask"`` (keyword-guard's name for it, and the reference's default redaction
#: method) is ``"redact"``.
STRATEGY_ALIASES = {"mask": "redact"}

#: How a redacting guard replaces a finding (its ``redaction_method``, where it has one):
#: ``mask`` hides the characters (``*``), ``placeholder`` writes a label in their place,
#: ``hash`` a short digest, ``remove`` nothing.
REDACTION_METHODS = ("mask", "placeholder", "hash", "remove")


def strategy_of(strategy: Any, valid: Iterable[str], *, owner: str,
                redaction_method: str | None = None) -> str:
    """``strategy`` by its name in ``STRATEGIES`` (an alias such as ``"mask"`` resolved),
    or a ``ConfigurationError`` naming ``owner``, the value and the valid names of
    ``valid`` (the guard's strategies, by their ``STRATEGIES`` names) with their
    aliases.

    For a guard with a ``redaction_method``: ``"mask"`` says the method too, so it
    with another method (``strategy="mask", redaction_method="hash"``) is an error
    rather than a guess."""
    names = list(valid)
    name = STRATEGY_ALIASES.get(strategy, strategy) if isinstance(strategy, str) else strategy
    if name in names:
        if strategy == "mask" and redaction_method not in (None, "mask"):
            raise ConfigurationError(
                f"{owner}: strategy 'mask' is 'redact' with redaction_method 'mask', but "
                f"redaction_method is {redaction_method!r}; write strategy 'redact' with "
                f"redaction_method {redaction_method!r}, or leave out redaction_method")
        return str(name)
    aliases = [f"{alias!r} (= {name!r})" for alias, name in STRATEGY_ALIASES.items()
               if name in names]
    hint = did_you_mean(strategy, names) if isinstance(strategy, str) else ""
    raise ConfigurationError(
        f"{owner}: option 'strategy' must be one of {', '.join(map(repr, names))}"
        f"{' or ' + ', '.join(aliases) if aliases else ''}, got {strategy!r}{hint}")


@attrs.frozen
class Detection:
    """One finding: ``type`` (``"email"``, ``"credit-card"``, ``"injection"``, ...) at
    ``text[start:end]`` of the checked text, with a ``score`` in [0, 1] and the name of
    the ``detector`` (or rule) that found it. ``value`` is the matched text, kept only
    for the guard's own use (redaction) and never shown unless asked for."""

    type: str
    start: int
    end: int
    score: float = 1.0
    detector: str | None = None
    value: str | None = attrs.field(default=None, repr=False)

    def to_dict(self, *, include_value: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "start": self.start, "end": self.end,
                               "score": round(self.score, 4)}
        if self.detector is not None:
            out["detector"] = self.detector
        if include_value and self.value is not None:
            out["value"] = self.value
        return out


@runtime_checkable
class Detector(Protocol):
    """Finds one or more types of thing in a text.

    ``name``: how options and reports refer to it; ``types``: the detection types it
    reports; ``max_length``: an upper bound of one match's length in characters (what
    a stream guard holds back, see ``tripwire.HoldBack``). ``detect`` returns the
    detections in ``text`` (any order; overlapping ones are resolved by the guard).

    Optional, for a stream guard (``tripwire.guards.incremental``), which searches
    each part of a stream once:

    - ``hold_from(text) -> int``: the earliest index of ``text`` where a detection that
      more text could still add, change or remove can start (a value not complete yet,
      one whose next character may rule it out, a number whose keyword may still
      follow). The detections that start before it are final: the guard keeps them,
      releases that text, and never searches it again. ``run_start`` (the last word)
      for values without white space, ``trailing_run`` (the run of a few characters
      that ends the text) for numbers (both in ``tripwire.guards.window``). Without
      it, the last ``max_length + 1`` characters; never more than those. It is asked
      of the end of a stream's text: those characters and ``lookbehind`` before them.
    - ``lookbehind``: how many characters before a detection ``detect`` reads to decide
      it (a keyword, "order no." before a number, the character before); the guard
      searches what is not settled with that many characters before it. Default
      ``max_length``.
    - ``context(text) -> str``: what a detection after ``text`` depends on from further
      back than ``lookbehind`` (the header of the table ``text`` ends in, for a date
      in its birth-date column), as a text that ``detect`` reads as it reads ``text``:
      ``detect(context(a) + b)`` must find in ``b`` what ``detect(a + b)`` finds there.
      The guard keeps it for each detector, computed from the last one and the text
      since, and searches the unsettled text with it before.

    - ``detect_from(text, since) -> Iterable[Detection]``: ``detect``'s detections that
      start at ``since`` or after (others may come too: the guard drops them), the
      text before ``since`` read only for what it says of what follows. The guard
      searches the unsettled text with the ``lookbehind`` before it, which it has
      searched before: a detector that judges its candidates one by one need not
      judge again those wholly before ``since`` (``tripwire.guards.incremental.find_from``).
    - ``starts``: a compiled pattern that matches the first character of every
      detection, in the text as given (so it matches what the detector reads as that
      character too: another script's digit, a tag character). Where the text not
      settled yet holds no match of it, no detection can start there, now or after
      more text: the guard settles that text without asking ``hold_from`` or
      searching it (a text with no digit, for numbers).

    A detection must depend on no more than that: the context, the text from
    ``lookbehind`` characters before it, and what ``hold_from`` holds after it.
    """

    name: str
    types: tuple[str, ...]
    max_length: int

    def detect(self, text: str) -> Iterable[Detection]: ...


@attrs.frozen
class Verdict:
    """What one guard decided about one channel of a run."""

    processor_id: str
    channel: str
    strategy: str
    action: str
    detections: tuple[Detection, ...] = ()

    @property
    def types(self) -> list[str]:
        """The detection types, each once, in the order first found."""
        return list(dict.fromkeys(d.type for d in self.detections))

    def to_metadata(self, *, include_values: bool = False) -> dict[str, Any]:
        """The verdict as plain data (a tripwire's metadata, a log line)."""
        return {
            "processor_id": self.processor_id,
            "channel": self.channel,
            "strategy": self.strategy,
            "action": self.action,
            "types": self.types,
            "detections": [d.to_dict(include_value=include_values) for d in self.detections],
        }


def available_detectors() -> dict[str, Any]:
    """Detectors installed through the entry point group ``tripwire.detectors``, by
    name (broken ones included: ``.error`` says why)."""
    from tripwire import registry

    return dict(registry.current().plugins(registry.DETECTORS))


def load_detector(spec: Any) -> Detector:
    """A detector from an option value: a ``Detector``, a class or factory returning
    one, or the name of one installed in ``tripwire.detectors``."""
    from tripwire import registry
    from tripwire.errors import ConfigurationError

    if isinstance(spec, str):
        plugin = registry.current().get(registry.DETECTORS, spec)
        if plugin.error is not None:
            raise plugin.failure()
        spec = plugin.target
    if isinstance(spec, type) or (callable(spec) and not isinstance(spec, Detector)):
        spec = spec()
    if not isinstance(spec, Detector):
        raise ConfigurationError(
            f"a detector needs name, types, max_length and detect(text); got "
            f"{type(spec).__name__}")
    return spec


def merge(detections: Sequence[Detection]) -> list[Detection]:
    """Non-overlapping detections, in text order: where two overlap, the longer wins
    (then the higher score, then the earlier)."""
    if len(detections) < 2:  # most texts: nothing to resolve
        return list(detections)
    ranked = sorted(detections, key=lambda d: (-(d.end - d.start), -d.score, d.start))
    starts: list[int] = []  # the taken spans, sorted by start (they never overlap)
    ends: list[int] = []
    taken: list[Detection] = []
    for d in ranked:
        i = bisect.bisect_left(starts, d.end)  # taken spans starting before d ends
        if i and ends[i - 1] > d.start:  # the last of them reaches into d
            continue
        starts.insert(i, d.start)
        ends.insert(i, d.end)
        taken.append(d)
    return sorted(taken, key=lambda d: d.start)
