"""``pii-detector``: find personal data and secrets wherever a value can travel, and
block, warn, filter, redact or tokenize it.

Detection is deterministic and offline: the built-in detectors of
``tripwire.detectors`` (validated: Luhn for cards, mod-97 for IBANs, ``phonenumbers``
for phones, ...) for ``detection_types``, plus any detector given in ``detectors``
(an object, a class, or a name installed in the ``tripwire.detectors`` entry point
group). Detections scoring under ``threshold`` are ignored.

With ``model=`` a ``tripwire.Judge`` also finds names, addresses and dates of birth
(``tripwire.plugins.pii_detector.judge``), and any type of your own named in
``detection_types`` (``employee-id``; what it means from ``type_descriptions``). It
quotes each value; the processor redacts it at every occurrence, and merges the
findings with the deterministic ones, which they never drop. In the stream, text waits in a ``tripwire.SegmentHold`` until the judge has seen
its sentence (``judge_stream``), so a name is redacted before any of it is sent.

Put the same instance in both lists: ``input_processors=[pii],
output_processors=[pii]``. Each phase named in ``phases`` is checked:

``input``         the input messages (``process_input``): text and reasoning parts,
                  ``content.content``, tool calls and results in the history, text
                  documents (``tripwire.guards.documents``; images and PDFs are not read);
``output``        the stream (``process_output_stream``): text and reasoning deltas through
                  a ``tripwire.HoldBack`` window (a value split across chunks, text ids or
                  a cache replay is still found), tool-call arguments before the tool
                  runs (it runs with what this returns), and every string of any other
                  chunk that carries content: ``data-*`` (what tools, other processors
                  and the model write), ``source`` (a citation's url, title), a type
                  the framework does not define (``process_data_parts = True``);
``step``          each step's stored messages (``process_output_step``);
``tool-results``  each tool result, walking nested values (``process_tool_result``), and
                  a failed tool's error;
``result``        the final response messages and ``result.object``
                  (``process_output_result``).

``step`` and ``result`` each check the structured object (``result.object`` and the
``object-result`` chunk): it is parsed from the final step's text as it streamed, which
a guard checking the stored step alone never changed.

Strategies: ``block`` aborts (``PII detected. Types: email, phone``, the verdict as
metadata); ``warn`` reports (``on_violation`` and ``result.verdicts``) and changes
nothing; ``filter`` drops the message (the chunk, in the stream); ``redact`` (the
default) replaces each value (``redaction_method``); ``tokenize`` replaces values with
placeholders (``<EMAIL_1>``) before the model sees them and restores them in what the
client receives (``tripwire.plugins.pii_detector.tokenizer.Tokenizer``; with ``store="placeholders"`` a
tool that stores its arguments, ``Tool.stores_arguments``, is run with the
placeholders). See
``docs/processors/pii-detector.md``.

This module holds the options and the hooks; the machinery is in the package's
modules, one per concern:

``redaction``  the reference's redaction formats (``mask``, ``redact``) and ``splice``;
``findings``   the judge tier's quoted values located in a text and combined with the
               deterministic detections;
``walk``       walks over nested tool values, stored messages and prompt messages;
``window``     the stream's hold-back window (``StreamWindow``);
``tokenizer``  the ``tokenize`` strategy (``Vault``, ``Tokenizer``);
``judge``      the judge tier (a model asked for the values the detectors cannot find);
``scan``       what the detector finds in a text (``load_detectors``, ``Scanner``);
``stream``     the detector's side of the stream (``OutputStream``, one per call).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

import attrs

from tripwire import hookimpl, notify_violation
from tripwire.chunks import Chunk
from tripwire.detectors import DEFAULT_TYPES, JUDGE_TYPES
from tripwire.errors import ConfigurationError
from tripwire.guards.judge import DEFAULT_TIMEOUT, Judge, JudgeTimeout
from tripwire.guards.verdicts import Detection, Verdict, strategy_of
from tripwire.messages import Message, MessageList, ReasoningPart, TextPart
from tripwire.models import Model
from tripwire.option_checks import Range, check
from tripwire.plugins.pii_detector.judge import (
    DEFAULT_INSTRUCTIONS,
    JUDGED_TYPES,
    JudgeTier,
    instructions_for,
    schema_for,
)
from tripwire.plugins.pii_detector.redaction import redact
from tripwire.plugins.pii_detector.scan import Scanner, load_detectors
from tripwire.plugins.pii_detector.stream import OBJECT_PHASES, OutputStream
from tripwire.plugins.pii_detector.tokenizer import Tokenizer
from tripwire.plugins.pii_detector.walk import edit_message, walk
from tripwire.plugins.shared.judge_types import check_descriptions
from tripwire.processor import Processor, ProcessorViolation
from tripwire.tools import Tool

__all__ = ["DEFAULT_INSTRUCTIONS", "JUDGED_TYPES", "OBJECT_PHASES", "PHASES", "PIIDetector", "instructions_for",
           "schema_for"]

Phase = Literal["input", "output", "step", "tool-results", "result"]
Strategy = Literal["block", "warn", "filter", "redact", "tokenize", "mask"]
RedactionMethod = Literal["mask", "hash", "remove", "placeholder"]
Store = Literal["placeholders", "values"]
JudgeStream = Literal["sentence", "line", "step", "off"]
Threshold = Annotated[float, Range(min=0, max=1)]

#: Every phase, the default of ``phases``.
PHASES: tuple[Phase, ...] = ("input", "output", "step", "tool-results", "result")

_ACTION = {"warn": "warned", "filter": "filtered", "redact": "redacted",
           "tokenize": "tokenized"}

class PIIDetector(Processor):
    """Detects personal data and secrets and blocks, warns, filters, redacts or
    tokenizes them in every phase of a run.

    Options (all keyword-only):

    ``detection_types`` = every deterministic type (``tripwire.detectors.DEFAULT_TYPES``),
        and ``name`` and ``address`` with ``model``
        email, phone, credit-card, ssn, api-key, ip-address, url, uuid, crypto-wallet,
        iban, date-of-birth, url-credentials (and the types of the ``detectors`` given);
        ``name`` and ``address``: without ``model`` the offline tier finds them
        (``tripwire.detectors.names``, ``.addresses``; ``pip install
        'tripwire[names]'``), with ``model`` the judge; a type of your own (any other
        name, ``employee-id``) needs ``model``: the judge is asked for it.
    ``strategy`` = ``"redact"``
        ``"block"``, ``"warn"``, ``"filter"``, ``"redact"`` or ``"tokenize"``;
        ``"mask"`` is ``"redact"`` with ``redaction_method = "mask"``, as keyword-guard
        names it (``tripwire.guards.verdicts.STRATEGY_ALIASES``).
    ``redaction_method`` = ``"mask"``
        For ``redact``: ``"mask"``, ``"hash"``, ``"remove"`` or ``"placeholder"``.
    ``include_detections`` = ``False``
        Put the detected values in verdicts and tripwire metadata (and the count in
        the block message). Off: types, offsets and scores only.
    ``preserve_format`` = ``True``
        ``mask`` keeps each type's shape; off, every value becomes ``*`` (at most 8).
    ``threshold`` = ``0.6``
        Detections scoring lower are ignored.
    ``regions`` = ``None``
        Regions for phone numbers written without a country code (``["US", "GB"]``):
        exactly these. ``None``: the regions each text points at (US, and those of its
        country codes, country domains, language and script:
        ``tripwire.detectors.regions``).
    ``detectors`` = ``()``
        More detectors: objects, classes, or names in ``tripwire.detectors``.
    ``phases`` = all of ``input``, ``output``, ``step``, ``tool-results``, ``result``
        Where to look.
    ``store`` = ``"placeholders"``
        For ``tokenize``: what the stored history keeps, ``"placeholders"`` or
        ``"values"`` (the model sees placeholders either way), and what a tool that
        stores its arguments (``Tool.stores_arguments``) is run with.
    ``model`` = ``None``
        A router id (``"openai/gpt-5-nano"``) or a model object: adds the judge tier,
        a ``tripwire.Judge`` that finds the ``name``, ``address`` and ``date-of-birth``
        values of ``detection_types`` in every phase. Its findings are merged with the
        deterministic ones, which it never drops.
    ``type_descriptions`` = ``None``
        With ``model``, what judged types mean, by type (``{"employee-id": "an
        employee number: EMP- and six digits"}``): in the judge's instructions, for a
        type of your own (without one the judge has its name only), or in place of a
        built-in type's meaning.
    ``instructions`` = ``None``
        The judge's system prompt (default: ``DEFAULT_INSTRUCTIONS`` and the meaning
        of each judged type; the ``type_descriptions`` given and the verdict's schema
        are appended to it).
    ``judge_timeout`` = ``30.0``
        Seconds one judge attempt may take; past it a ``JudgeError`` (kind ``timeout``).
    ``judge_stream`` = ``"sentence"``
        With ``model``, how streamed text and reasoning wait for the judge (``block``,
        ``filter`` and ``redact``): released a ``"sentence"`` or a ``"line"`` at a
        time, or at the end of the text (``"step"``), once the judge has seen it;
        ``"off"`` streams without waiting (the judge's findings are then redacted in
        the stored messages and ``result.text`` only).

    ``fail_open`` is the attribute every processor has (in TOML: ``fail_open = true``):
    when a check fails (a detector raises, the judge gives no verdict), ``False`` (the
    default) ends the run, ``True`` lets the content through unchecked (logged).
    """

    id = "pii-detector"
    #: ``data-*`` chunks (what tools, other processors and the model write) are checked
    #: too (phase ``output``); the pipeline never hands a processor its own.
    process_data_parts = True
    name = "PII Detector"
    description = (
        "Finds personal data and secrets (validated, offline) in input, streamed output, "
        "tool calls and results; blocks, warns, filters, redacts or tokenizes them"
    )

    def __init__(
        self,
        *,
        detection_types: tuple[str, ...] | None = None,
        strategy: Strategy = "redact",
        redaction_method: RedactionMethod = "mask",
        include_detections: bool = False,
        preserve_format: bool = True,
        threshold: Threshold = 0.6,
        regions: tuple[str, ...] | None = None,
        detectors: tuple[Any, ...] = (),
        phases: tuple[Phase, ...] = PHASES,
        store: Store = "placeholders",
        model: str | Model | None = None,
        type_descriptions: dict[str, str] | None = None,
        instructions: str | None = None,
        judge_timeout: JudgeTimeout = DEFAULT_TIMEOUT,
        judge_stream: JudgeStream = "sentence",
    ) -> None:
        owner = self.id
        judge_timeout = check("judge_timeout", judge_timeout, JudgeTimeout, owner=owner)
        check("judge_stream", judge_stream, JudgeStream, owner=owner)
        detection_types = check("detection_types", detection_types, tuple[str, ...] | None,
                                owner=owner)
        if detection_types is None:
            detection_types = (*DEFAULT_TYPES, *JUDGE_TYPES) if model is not None else DEFAULT_TYPES
        instructions = check("instructions", instructions, str | None, owner=owner)
        check("redaction_method", redaction_method, RedactionMethod, owner=owner)
        chosen = strategy_of(strategy, ("block", "warn", "filter", "redact", "tokenize"),
                             owner=owner, redaction_method=redaction_method)
        check("include_detections", include_detections, bool, owner=owner)
        check("preserve_format", preserve_format, bool, owner=owner)
        threshold = check("threshold", threshold, Threshold, owner=owner)
        regions = check("regions", regions, tuple[str, ...] | None, owner=owner)
        detectors = check("detectors", detectors, tuple[Any, ...], owner=owner)
        phases = check("phases", phases, tuple[Phase, ...], owner=owner)
        check("store", store, Store, owner=owner)
        if not phases:
            raise ConfigurationError(f"{owner}: phases must name at least one of "
                                     f"{', '.join(PHASES)}, got an empty list")
        loaded, wanted, judge_only = load_detectors(owner, detection_types, regions,
                                                    detectors, judged=model is not None)
        #: The types the judge looks for (none without ``model``): the built-in ones it
        #: finds, and the types of your own.
        self.judged_types = tuple(t for t in dict.fromkeys(detection_types)
                                  if t in JUDGED_TYPES or t in judge_only
                                  ) if model is not None else ()
        # The call's state is shared by the instances of this id (from TOML each list
        # builds its own): what depends on this instance's options is keyed by it.
        clean_key = f"clean:{id(self)}"
        self._stream_key = f"stream:{id(self)}"
        if model is not None and not self.judged_types:
            raise ConfigurationError(
                f"{owner}: model= adds the judge tier, but detection_types names none of "
                f"the types it finds ({', '.join(JUDGED_TYPES)}) and no type of your own "
                f"(any other name, such as 'employee-id')")
        #: What judged types mean (``type_descriptions``), by type.
        self.type_descriptions = check_descriptions(owner, type_descriptions,
                                                    self.judged_types, has_judge=model is not None)
        tier: JudgeTier | None = None
        if model is not None:
            tier = JudgeTier(owner, model, self.judged_types, instructions, judge_timeout,
                             key=f"judged:{id(self)}", clean_key=clean_key,
                             descriptions=self.type_descriptions)
        #: The judge tier's ``tripwire.Judge`` (``None`` without ``model``).
        self.judge: Judge | None = None if tier is None else tier.judge
        self.instructions = None if self.judge is None else self.judge.instructions
        #: How the stream waits for the judge (``"off"``: it does not).
        self.judge_stream: JudgeStream = judge_stream
        self.detection_types = tuple(dict.fromkeys(
            [*(t for t in detection_types if t in wanted), *sorted(wanted)]))
        self.strategy = chosen
        self.redaction_method = redaction_method
        self.include_detections = include_detections
        self.preserve_format = preserve_format
        self.threshold = threshold
        self.regions = regions
        self.detectors = tuple(loaded[len(loaded) - len(detectors):])
        self.phases = frozenset(phases)
        self.store = store
        #: The most characters one value can cover: what the stream holds back.
        self.max_length = max((d.max_length for d in loaded), default=1)
        self._scan = Scanner(loaded, wanted, threshold, tier,
                             redact=self._redacted if chosen == "redact" else None,
                             clean_key=clean_key)
        self._tokenizer = (Tokenizer(owner, self._scan.detect, self.phases, store, wanted)
                           if chosen == "tokenize" else None)

    def __repr__(self) -> str:
        judge = f" judge={self.judge.label!r}" if self.judge is not None else ""
        return (f"<PIIDetector strategy={self.strategy!r} types={list(self.detection_types)} "
                f"phases={sorted(self.phases)}{judge}>")

    async def aclose(self) -> None:
        """Close the judge's model when it was built from a router id (it stays
        usable); a model object passed in stays yours to close."""
        if self.judge is not None:
            await self.judge.aclose()

    async def __aenter__(self) -> PIIDetector:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _redacted(self, kind: str, value: str) -> str:
        """The replacement of ``value`` (``redact``: ``redaction_method``)."""
        return redact(kind, value, self.redaction_method, self.preserve_format)

    # ------------------------------------------------------------ acting

    def _message(self, detections: list[Detection]) -> str:
        types = ", ".join(dict.fromkeys(d.type for d in detections))
        message = f"PII detected. Types: {types}"
        if self.include_detections:
            message += f". Detections: {len(detections)} items"
        return message

    def _verdict(self, channel: str, action: str, detections: Iterable[Detection]) -> Verdict:
        if not self.include_detections:
            detections = [attrs.evolve(d, value=None) for d in detections]
        return Verdict(self.id, channel, self.strategy, action, tuple(detections))

    async def _act(self, channel: str, detections: list[Detection], abort: Any, writer: Any,
                   state: dict[str, Any]) -> None:
        """Block (abort), or report what was done with ``detections`` in ``channel``."""
        if not detections:
            return
        if self.strategy == "block":
            abort(self._message(detections), metadata=self._verdict(
                channel, "blocked", detections).to_metadata(include_values=self.include_detections))
        if self.strategy == "warn":
            # A value is warned about once on each side of the call: not again when the
            # step's or the result's messages hold what the stream or a tool result
            # already reported.
            group = "input" if channel == "input" else "output"
            warned: set[tuple[str, str, str | None]] = state.setdefault("warned", set())
            detections = [d for d in detections if (group, d.type, d.value) not in warned]
            warned.update((group, d.type, d.value) for d in detections)
            if not detections:
                return
            verdict = self._verdict(channel, "warned", detections)
            await notify_violation(self, ProcessorViolation(
                self.id, self._message(detections),
                verdict.to_metadata(include_values=self.include_detections)))
            writer.report(verdict)
            return
        writer.report(self._verdict(channel, _ACTION[self.strategy], detections))

    def _withheld(self, detections: list[Detection]) -> str:
        types = ", ".join(dict.fromkeys(d.type for d in detections))
        return f"[withheld by {self.id}: PII detected ({types})]"

    # ------------------------------------------------------------ messages

    async def _check_messages(
        self, messages: list[Message], channel: str, state: dict[str, Any], abort: Any,
        writer: Any, *, keep_tool_calls: bool = False,
    ) -> set[str]:
        """Check (and redact, in place) ``messages``; the ids of those ``filter`` drops.
        With ``keep_tool_calls`` a message holding tool calls is not dropped (its calls
        would lose their record): its text and reasoning parts holding PII are."""
        await self._scan.judge_messages(messages, state)
        found_all: list[Detection] = []
        dropped: set[str] = set()
        for message in messages:
            found: list[Detection] = []

            def check(text: str, found: list[Detection] = found) -> str:
                return self._scan.check(text, found, state)

            edit_message(message, check)
            if found and self.strategy == "filter":
                if keep_tool_calls and message.tool_invocations:
                    message.content.parts = [
                        p for p in message.content.parts
                        if not isinstance(p, TextPart | ReasoningPart)
                        or not self._scan.detect(p.text, state)]
                else:
                    dropped.add(message.id)
            found_all.extend(found)
        await self._act(channel, found_all, abort, writer, state)
        return dropped

    @hookimpl
    async def process_input(
        self, messages: list[Message], state: dict[str, Any], abort: Any, writer: Any
    ) -> list[Message] | None:
        if self._tokenizer is not None:
            if "input" in self.phases:
                await self._scan.judge_messages(messages, state)
            await self._act("input", self._tokenizer.input(messages, state), abort, writer, state)
            return None
        if "input" not in self.phases:
            return None
        dropped = await self._check_messages(messages, "input", state, abort, writer)
        return [m for m in messages if m.id not in dropped] if dropped else None

    @hookimpl
    def process_input_step(self, tools: dict[str, Tool], state: dict[str, Any]) -> None:
        """``tokenize``: which tools store their arguments (also noted in
        ``process_llm_request``, which a cache answering first skips)."""
        if self._tokenizer is not None:
            self._tokenizer.note_tools(tools, state)

    @hookimpl
    def process_llm_request(self, prompt: list[dict[str, Any]], tools: dict[str, Tool],
                            state: dict[str, Any]) -> dict[str, Any] | None:
        """``tokenize``: every prompt with values replaced by placeholders."""
        if self._tokenizer is None:
            return None
        self._tokenizer.note_tools(tools, state)
        tokenized = self._tokenizer.prompt(prompt, state)
        return None if tokenized is None else {"prompt": tokenized}

    @hookimpl
    async def process_output_step(
        self, message_list: MessageList, state: dict[str, Any], abort: Any, writer: Any
    ) -> list[Message] | None:
        if "step" not in self.phases:
            return None
        if self._tokenizer is not None:
            # Judged now, the model's own values are found when its answer is tokenized
            # on its way back to the model (``process_llm_request``).
            await self._scan.judge_messages(message_list.response.db(), state)
            if self.store == "placeholders":
                self._tokenizer.sweep(message_list.response.db(), state)
            return None
        dropped = await self._check_messages(message_list.response.db(), "step", state, abort,
                                             writer, keep_tool_calls=True)
        return [m for m in message_list.all.db() if m.id not in dropped] if dropped else None

    @hookimpl
    async def process_output_result(
        self, messages: list[Message], message_list: MessageList, result: Any,
        state: dict[str, Any], abort: Any, writer: Any,
    ) -> list[Message] | None:
        if self._tokenizer is not None:
            self._tokenizer.finish(messages, message_list, result, state)
            return None
        if not self.phases & OBJECT_PHASES:
            return None
        dropped: set[str] = set()
        if "result" in self.phases:
            dropped = await self._check_messages(messages, "result", state, abort, writer)
        if result.object is not None:
            await self._scan.judge_value(result.object, state)
            found: list[Detection] = []
            checked = walk(result.object, lambda s: self._scan.check(s, found, state))
            await self._act("result", found, abort, writer, state)
            if found and self.strategy in ("redact", "filter"):
                result.object = checked if self.strategy == "redact" else None
        return [m for m in messages if m.id not in dropped] if dropped else None

    @hookimpl
    async def process_tool_result(
        self, result: Any, tool_call_id: str, message_list: MessageList,
        state: dict[str, Any], abort: Any, writer: Any,
    ) -> dict[str, Any] | None:
        if "tool-results" not in self.phases:
            return None
        await self._scan.judge_value(result, state)
        found: list[Detection] = []
        if self._tokenizer is not None:
            checked, found = self._tokenizer.tool_result(result, tool_call_id, message_list,
                                                         state)
        else:
            checked = walk(result, lambda s: self._scan.check(s, found, state))
        await self._act("tool-result", found, abort, writer, state)
        if found and self.strategy == "filter":
            return {"result": self._withheld(found)}
        return None if checked is result else {"result": checked}

    # ------------------------------------------------------------ the stream

    @hookimpl
    async def process_output_stream(
        self, part: Chunk, state: dict[str, Any], abort: Any, writer: Any,
        message_list: MessageList,
    ) -> Chunk | list[Chunk] | None:
        """The call's ``OutputStream`` (``tokenize``: the ``Tokenizer``) checks ``part``."""
        if self._tokenizer is not None:
            return self._tokenizer.stream(part, state)
        stream: OutputStream | None = state.get(self._stream_key)
        if stream is None:
            stream = state[self._stream_key] = OutputStream(self, state)
        return await stream.push(part, abort, writer, message_list)
