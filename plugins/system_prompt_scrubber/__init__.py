"""``system-prompt-scrubber``: find the agent's own instructions leaking into its output,
and block, report, drop or redact them.

Two tiers:

Deterministic (always on)
    The system messages of the call and the output are normalised the same way
    (NFKC, case-folded, split into words: letters and digits, so case, whitespace and
    punctuation do not count) and compared as word n-grams of ``ngram`` words. A
    *window* of ``ngram`` output words **hits** when it equals a window of the
    instructions, or (``ngram >= 5``) equals one in every word but one interior word
    (its first and last words always match exactly). Hit windows that overlap, touch
    or stand at most ``MAX_GAP`` words apart form one **leak**: the output's characters
    from its first hit word to its last. A leak with every window exact and no gap is
    ``verbatim``; otherwise ``near-verbatim`` (a changed, inserted or dropped word,
    changed punctuation or case inside a long run). ``custom_patterns`` are regular
    expressions whose matches are leaks too (type ``custom-pattern``).

Judge (``model=``)
    A ``tripwire.Judge`` is given the system prompt as context and a text of the
    output, and answers ``{leaked, types, spans}`` (``JUDGE_SCHEMA``): paraphrases and
    summaries the n-grams cannot see. In the stream, text waits in a
    ``tripwire.SegmentHold`` until the judge has seen its sentence (``judge_stream``);
    each text and reasoning of the final response is judged too, and so are a tool
    call's arguments, the structured object and each other content chunk as they
    stream. Its spans
    are merged with the deterministic detections (which it never drops). A judge
    failure is this processor's error: its ``fail_open`` decides (default: the run
    fails).

Where the system messages come from
    ``process_output_stream`` and ``process_output_result`` have no
    ``system_messages`` argument. They read ``message_list.system_messages`` (the
    agent's instructions and the input's system messages), unless the processor is
    also in ``input_processors`` (the same instance in both lists): then
    ``process_input_step`` records the system messages each model call was given
    (with what earlier input processors changed) in ``state``, and those are used.

What is checked
    ``process_output_stream``: text and reasoning deltas through the hold-back window
    (below; reasoning is its own channel, verdict channel ``reasoning``); a tool
    call's arguments (``args``, ``raw_args``) before the tool runs (it runs with what
    this returns; ``filter`` drops the call and the tool does not run); the parsed
    object (``object-result``: ``result.object`` is what it leaves); every string of
    any other chunk that carries content (``data-*``, ``source``, a type the framework
    does not define: ``tripwire.chunks.carries_other_content``; ``process_data_parts
    = True``); every string of the keys a provider adds to a text, reasoning,
    tool-call or step chunk (``provider_metadata``: ``tripwire.chunks.extra_keys``;
    ``filter`` drops the key's value and keeps the chunk). A value is checked whole, at
    any depth: its strings (dict keys and values, list items) one after another, a
    line break between two, so a leak split across strings is found; each string's
    share of a leak is replaced in place (a string the leak only takes in as a gap
    between its hits, such as a key between two quoted values, is left), ``filter``
    drops the chunk, ``block`` aborts. With
    ``model=``, the judge sees each value too. ``process_output_result``: per
    assistant message its text parts as one text (or ``content.content``), its
    reasoning parts as one, and each tool call's arguments. Not checked: tool
    results and a tool's error text (what tools return, not the model's output), the
    text of documents and files.

Streaming
    ``text-delta`` and ``reasoning-delta`` chunks go through a ``tripwire.HoldBack``
    window of ``ngram * CHARS_PER_WORD`` characters per channel, each channel matched
    as one text whatever its ids (so a leak across text or reasoning ids is found) and
    whatever other chunks come between its deltas (they release nothing): a hit
    window is found once its last word arrives, while its first is still held, so no
    ``ngram`` words of a leak reach the client together. While a leak goes on, every
    chunk of it stays held (its run grows with each new hit word), so a long leak is
    replaced as one. What the client may still see: a window whose words span more
    than the hold-back window (very long words) is not found in the stream (the final
    check finds it in the stored response); the end of a step releases what is held,
    and up to ``ngram - 1`` words of a leak that the next step's text goes on with are
    not enough for a hit of their own (the judge, with ``model=``, sees them with the
    text before them as context).

Tripwire metadata, violations and reports name the leak types and give offsets, never
the system prompt's text or the leaked text.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal

import attrs

from tripwire import hookimpl, notify_violation
from tripwire.chunks import Chunk, carries_other_content, extra_keys
from tripwire.errors import ConfigurationError
from tripwire.guards.judge import DEFAULT_TIMEOUT, Judge, JudgeTimeout
from tripwire.guards.verdicts import Detection, Verdict, strategy_of
from tripwire.guards.window import CHANNELS as HOLD_CHANNELS
from tripwire.guards.window import ENDS, Match
from tripwire.messages import Message, MessageList, ReasoningPart, TextPart, ToolInvocationPart
from tripwire.models import Model
from tripwire.option_checks import Range, check
from tripwire.plugins.system_prompt_scrubber.leaks import (
    Index,
    Span,
    Value,
    find_leaks,
    joined,
    shares,
    value_redacted,
    value_text,
    words,
)
from tripwire.plugins.system_prompt_scrubber.stream import Found, Stream
from tripwire.processor import Processor, ProcessorViolation
from tripwire.types import Abort, Writer

__all__ = ["JUDGE_INSTRUCTIONS", "JUDGE_SCHEMA", "JUDGE_TYPES", "RedactionMethod", "Span", "Strategy",
           "SystemPromptScrubber", "find_leaks", "words"]

Strategy = Literal["block", "warn", "filter", "redact", "mask"]
RedactionMethod = Literal["mask", "placeholder", "remove"]
NGram = Annotated[int, Range(min=3)]
JudgeStream = Literal["sentence", "line", "step", "off"]

#: The stream's hold-back window is ``ngram`` times this many characters.
CHARS_PER_WORD = 16

#: What the judge may call a leak.
JUDGE_TYPES = ("verbatim", "paraphrase", "summary", "partial")

#: The judge's verdict: whether the text reveals the system prompt, how, and where
#: (character offsets in the judged text, end exclusive).
JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "leaked": {"type": "boolean"},
        "types": {"type": "array", "items": {"type": "string", "enum": list(JUDGE_TYPES)}},
        "spans": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"start": {"type": "integer", "minimum": 0},
                               "end": {"type": "integer", "minimum": 0}},
                "required": ["start", "end"],
            },
        },
    },
    "required": ["leaked"],
}

JUDGE_INSTRUCTIONS = (
    "You check an AI assistant's reply for leaks of its own system prompt. The context "
    "is the assistant's system prompt; the text to judge is its reply. Set leaked to true "
    "only when the reply reveals the system prompt's content: quoted (verbatim), "
    "reworded (paraphrase), condensed (summary) or in part (partial). Doing what the "
    "instructions ask, or mentioning that instructions exist, is not a leak. In types "
    "say how it leaked; in spans give where, as 0-based character offsets into the "
    "reply (start inclusive, end exclusive)."
)

_ACTIONS = {"block": "blocked", "warn": "warned", "filter": "filtered", "redact": "redacted"}
# What a leak is replaced with under ``filter`` while streaming: a chunk holding it is
# dropped. A Unicode noncharacter: no model writes it.
_DROP = "\ufdd0"
#: The verdict channel of each stream channel (``tripwire.guards.window.CHANNELS``).
_VERDICT_CHANNEL = {"text": "output", "reasoning": "reasoning"}

def _system_texts(messages: Iterable[Any]) -> list[str]:
    """The text of each system message (a string, ``{"content": str}`` or content
    parts with ``text``)."""
    out = []
    for m in messages:
        content = m.get("content") if isinstance(m, dict) else getattr(m, "text", m)
        if isinstance(content, str):
            out.append(content)
        elif isinstance(content, list):
            out.append(" ".join(p["text"] for p in content
                                if isinstance(p, dict) and isinstance(p.get("text"), str)))
    return [t for t in out if t]


class SystemPromptScrubber(Processor):
    """Finds the agent's system prompt leaking into its output (streamed text and
    reasoning, tool calls' arguments, the structured object, data and other content
    chunks, the final response) and blocks, reports, drops or redacts it.

    Options:

    ``strategy`` = ``"redact"``
        ``"block"`` stops the run (``System prompt detected: <types>``); ``"warn"``
        reports (``on_violation``, ``result.verdicts``) and changes nothing;
        ``"filter"`` drops the chunk or the message holding a leak; ``"redact"``
        replaces each leak (``"mask"`` is ``"redact"`` with ``redaction_method =
        "mask"``: ``tripwire.guards.verdicts.STRATEGY_ALIASES``).
    ``redaction_method`` = ``"mask"``
        ``"mask"``: ``*`` as many as the leak's characters; ``"placeholder"``:
        ``placeholder_text``; ``"remove"``: nothing.
    ``placeholder_text`` = ``"[SYSTEM_PROMPT]"``
    ``custom_patterns`` = ``None``
        Regular expressions whose matches count as leaks (a secret code word, the
        prompt's title).
    ``include_detections`` = ``False``
        Put each detection (type, offsets) in the tripwire's and the violation's
        metadata; without it they hold the types and a count.
    ``ngram`` = ``8``
        Words per n-gram (>= 3): fewer find shorter leaks and risk more false alarms.
    ``model`` = ``None``
        A router id or a model object: adds the judge tier for paraphrases.
    ``instructions`` = ``JUDGE_INSTRUCTIONS``
        The judge's system prompt (needs ``model``; the verdict's schema,
        ``JUDGE_SCHEMA``, is appended to it): to say what counts as a leak for this
        agent, e.g. that its persona's name may be repeated.
    ``judge_timeout`` = ``30.0``
        Seconds one judge attempt may take; past it a ``JudgeError`` (kind ``timeout``).
    ``judge_stream`` = ``"sentence"``
        With ``model``, how streamed text waits for the judge (``block``, ``filter``,
        ``redact``): released a ``"sentence"`` or a ``"line"`` at a time, or at the end
        of the text (``"step"``), once the judge has seen it; ``"off"``: not held (the
        judge then sees the complete response only).
    """

    id = "system-prompt-scrubber"
    name = "System Prompt Scrubber"
    #: ``data-*`` chunks (what tools, other processors and the model write) are checked
    #: too; the pipeline never hands a processor the data chunks it wrote itself.
    process_data_parts = True
    description = (
        "Finds the agent's system prompt leaking into its output (verbatim and "
        "near-verbatim word n-grams, custom patterns, a judge for paraphrases) and "
        "blocks, warns, filters or redacts it"
    )

    def __init__(
        self,
        *,
        strategy: Strategy = "redact",
        redaction_method: RedactionMethod = "mask",
        placeholder_text: str = "[SYSTEM_PROMPT]",
        custom_patterns: list[str] | None = None,
        include_detections: bool = False,
        ngram: NGram = 8,
        model: str | Model | None = None,
        instructions: str | None = None,
        judge_timeout: JudgeTimeout = DEFAULT_TIMEOUT,
        judge_stream: JudgeStream = "sentence",
    ) -> None:
        judge_timeout = check("judge_timeout", judge_timeout, JudgeTimeout, owner=self.id)
        check("instructions", instructions, str | None, owner=self.id)
        if model is None and instructions is not None:
            raise ConfigurationError(
                f"{self.id}: instructions are the judge's and need a model (model = "
                f"\"provider/model\" or a model object)")
        self.judge_stream = check("judge_stream", judge_stream, JudgeStream, owner=self.id)
        check("redaction_method", redaction_method, RedactionMethod, owner=self.id)
        chosen = strategy_of(strategy, ("block", "warn", "filter", "redact"), owner=self.id,
                             redaction_method=redaction_method)
        check("placeholder_text", placeholder_text, str, owner=self.id)
        check("custom_patterns", custom_patterns, list[str] | None, owner=self.id)
        check("include_detections", include_detections, bool, owner=self.id)
        check("ngram", ngram, NGram, owner=self.id)
        patterns = []
        for index, pattern in enumerate(custom_patterns or ()):
            try:
                compiled = re.compile(pattern)
            except re.error as e:
                raise ConfigurationError(
                    f"{self.id}: custom_patterns[{index}] {pattern!r} is not a valid "
                    f"regular expression: {e}") from e
            if compiled.search("") is not None:
                raise ConfigurationError(
                    f"{self.id}: custom_patterns[{index}] {pattern!r} can match the empty "
                    f"string; a pattern must match at least one character")
            patterns.append(compiled)
        self.strategy = chosen
        self.redaction_method = redaction_method
        self.placeholder_text = placeholder_text
        self.custom_patterns = list(custom_patterns or ())
        self.include_detections = include_detections
        self.ngram = ngram
        #: How many characters of streamed text are held back.
        self.window = ngram * CHARS_PER_WORD
        self._patterns = patterns
        self.judge: Judge | None = None
        if model is not None:
            self.judge = Judge(model, instructions=JUDGE_INSTRUCTIONS if instructions is None
                               else instructions, schema=JUDGE_SCHEMA,
                               name="system-prompt-leak", timeout=judge_timeout)
        #: The judge's system prompt (``None`` without ``model``).
        self.instructions = self.judge.instructions if self.judge is not None else None
        self._indexes: dict[tuple[str, ...], Index] = {}

    def __repr__(self) -> str:
        return (f"<SystemPromptScrubber strategy={self.strategy!r} ngram={self.ngram} "
                f"judge={'yes' if self.judge else 'no'}>")

    # ------------------------------------------------------------ finding

    def index(self, system_texts: Sequence[str]) -> Index | None:
        """The n-gram index of these instructions (kept for the last few prompts)."""
        key = tuple(system_texts)
        if not key:
            return None
        found = self._indexes.get(key)
        if found is None:
            if len(self._indexes) >= 16:
                self._indexes.pop(next(iter(self._indexes)))
            found = self._indexes[key] = Index.build(key, self.ngram)
        return found

    def find(self, text: str, system_texts: Sequence[str]) -> list[Span]:
        """The deterministic tier's leaks in a complete ``text``."""
        return find_leaks(self.index(system_texts), self._patterns, text)

    def _instructions(self, state: dict[str, Any], message_list: MessageList | None) -> list[str]:
        captured = state.get("system")
        if captured is not None:
            return list(captured)
        if message_list is None:
            return []
        return _system_texts(message_list.system_messages)

    def _replacement(self, length: int) -> str:
        if self.strategy == "filter":
            return _DROP
        if self.redaction_method == "mask":
            return "*" * length
        if self.redaction_method == "placeholder":
            return self.placeholder_text
        return ""

    # ------------------------------------------------------------ reporting

    def _verdict(self, channel: str, detections: Iterable[Detection]) -> Verdict:
        return Verdict(self.id, channel, self.strategy, _ACTIONS[self.strategy],
                       tuple(sorted(detections, key=lambda d: (d.start, d.end))))

    def _metadata(self, verdict: Verdict) -> dict[str, Any]:
        metadata = verdict.to_metadata()
        if not self.include_detections:
            metadata.pop("detections")
        metadata["count"] = len(verdict.detections)
        return metadata

    async def _act(self, channel: str, detections: list[Detection], abort: Abort,
                   writer: Writer) -> None:
        """Block (abort), or report what was found (and, for warn, tell on_violation)."""
        if not detections:
            return
        verdict = self._verdict(channel, detections)
        metadata = self._metadata(verdict)
        if self.strategy == "block":
            abort(f"System prompt detected: {', '.join(verdict.types)}", metadata=metadata)
        if self.strategy == "warn":
            await notify_violation(self, ProcessorViolation(
                self.id, f"System prompt detected: {', '.join(verdict.types)}", metadata))
        writer.report(verdict)

    # ------------------------------------------------------------ hooks

    @hookimpl
    def process_input_step(self, system_messages: list[dict[str, Any]],
                           state: dict[str, Any]) -> None:
        # Only when this instance is in input_processors too: the system messages this
        # model call is given, for the output hooks (which have no such argument).
        state["system"] = _system_texts(system_messages)

    @hookimpl
    async def process_output_stream(self, part: Chunk, state: dict[str, Any],
                                    message_list: MessageList | None, abort: Abort,
                                    writer: Writer) -> list[Chunk]:
        stream: Stream | None = state.get("stream")
        if stream is None:
            stream = state["stream"] = Stream(self)
        if part.type == "tripwire":
            stream.discard()
            return [part]
        stream.state, stream.message_list = state, message_list
        stream.abort, stream.writer = abort, writer
        if part.is_data:
            # Checked whole, not through the window or the judge's gate (it releases
            # none of the held text).
            checked = await self._check_payload(stream, part, None, "output")
            return [] if checked is None else [checked]
        extra = extra_keys(part)
        if extra:
            # A provider's provider_metadata, a key a plugin added: checked whole before
            # the chunk goes on (``filter``: the key's value is dropped, the chunk kept).
            part = await self._check_payload(stream, part, extra, "output",
                                             keep=True) or part
        channel = HOLD_CHANNELS.get(part.type)
        if channel is not None and stream.index is None:
            stream.index = self.index(self._instructions(state, message_list))
        # Any other chunk passes; one that ends the text (the end of a step) releases
        # what is held first.
        chunks = await self._released(stream, stream.push(part))
        if channel is None:
            # One verdict per channel for what was found since the last chunk that was
            # not a delta.
            for verdict_channel, pending in stream.pending.items():
                await self._act(verdict_channel, pending, abort, writer)
            stream.pending.clear()
            if part.type in ENDS:
                stream.index = None  # the next step may run with other system messages
            where = _payload(part.type)
            if where is not None and chunks and chunks[-1] is part:
                # A tool call's arguments (before the tool runs: it runs with what this
                # returns), the parsed object (result.object is what this chunk carries
                # when it leaves the processors), a source's or another chunk's payload.
                checked = await self._check_payload(stream, part, where[1], where[0])
                chunks[-1:] = [] if checked is None else [checked]
        if self.strategy == "filter":
            chunks = [c for c in chunks
                      if not (c.type in HOLD_CHANNELS and _DROP in c.payload.get("text", ""))]
        if stream.gate is None:
            return chunks
        return await stream.gate.push_all(chunks, fail_open=self.fail_open, owner=self.id)

    async def _released(self, stream: Stream, released: tuple[list[Chunk], list[Match]]
                        ) -> list[Chunk]:
        """The released chunks; a leak in them blocks now (before any of it is emitted)
        or waits in ``stream.pending`` to be reported."""
        chunks, matches = released
        for match in matches:
            span: Found = match.rule
            stream.pending.setdefault(_VERDICT_CHANNEL[match.channel], []).extend(
                Detection(t, span.start, span.end, detector=span.detector) for t in span.types)
            if self.strategy == "warn":
                stream.warned.update([_key(match.text)])
        if matches and self.strategy == "block":
            for verdict_channel, pending in stream.pending.items():
                await self._act(verdict_channel, pending, stream.abort, stream.writer)
        return chunks

    # ------------------------------------------------------------ whole values

    async def _check_payload(self, stream: Stream, part: Chunk, keys: tuple[str, ...] | None,
                             channel: str, *, keep: bool = False) -> Chunk | None:
        """``part`` with ``payload[key]`` for each of ``keys`` (``None``: the whole
        payload) checked at any depth, each value as one text: blocked, reported, the
        chunk dropped (``filter``; with ``keep``, the value of each key that leaks is
        ``None`` instead), or the leaks replaced in place (``redact``)."""
        system = self._instructions(stream.state, stream.message_list)
        if not system:
            return part
        index = self.index(system)
        payload = part.payload
        values: dict[str | None, Any] = (
            {None: payload} if keys is None else {k: payload[k] for k in keys if k in payload})
        found: dict[str | None, tuple[Value, list[Span]]] = {}
        detections: list[Detection] = []
        offset = 0
        for key, value in values.items():
            target = value_text(index, value)
            text = target.text
            spans = find_leaks(index, self._patterns, text)
            if self.judge is not None and any(c.isalnum() for c in text):
                verdict = await self.judge(text, context="\n\n".join(system))
                spans = joined([*spans, *_judged(verdict, len(text))])
            if self.strategy == "warn":
                stream.warned.update(_key(text[s.start:s.end]) for s in spans
                                     if s.detector != "judge")
            detections.extend(Detection(t, offset + s.start, offset + s.end, detector=s.detector)
                              for s in spans for t in s.types)
            offset += len(text) + 1
            if spans:
                found[key] = target, spans
        await self._act(channel, detections, stream.abort, stream.writer)
        if not found or self.strategy == "warn":
            return part
        if self.strategy == "filter":
            if keep:
                return part.evolve(payload={**payload, **{k: None for k in found if k}})
            return None
        if None in found:
            return part.evolve(payload=value_redacted(payload, *found[None], self._replacement))
        return part.evolve(payload={**payload, **{
            k: value_redacted(payload[k], *found[k], self._replacement) for k in found
            if k is not None}})

    async def _judge_segment(self, stream: Stream, text: str, start: int, channel: str
                             ) -> list[tuple[int, int, str | None]]:
        """The stream's judge check (``SegmentHold``): the leaks the judge finds in
        ``text[start:]`` (with the text before it as context) acted on, as edits."""
        assert self.judge is not None
        system = self._instructions(stream.state, stream.message_list)
        if not system or not any(c.isalnum() for c in text[start:]):
            return []
        verdict = await self.judge(text, context="\n\n".join(system))
        spans = [Span(max(sp.start, start), sp.end, sp.types, sp.detector)
                 for sp in _judged(verdict, len(text)) if sp.end > start]
        if not spans:
            return []
        await self._act(_VERDICT_CHANNEL[channel],
                        [Detection(t, sp.start, sp.end, detector=sp.detector)
                         for sp in spans for t in sp.types],
                        stream.abort, stream.writer)
        if self.strategy == "filter":
            return [(sp.start, sp.end, None) for sp in spans]
        return [(sp.start, sp.end, self._replacement(sp.end - sp.start)) for sp in spans]

    @hookimpl
    async def process_output_result(self, messages: list[Message], state: dict[str, Any],
                                    message_list: MessageList | None, abort: Abort,
                                    writer: Writer) -> list[Message] | None:
        system = self._instructions(state, message_list)
        index = self.index(system)
        # Per assistant message: its text parts as one text (the stream matched them as
        # one, whatever their ids), or content.content; its reasoning parts as one; and
        # each tool call's arguments.
        targets: list[tuple[Message, list[Any], Value]] = []
        for message in messages:
            if message.role != "assistant":
                continue
            parts = message.content.parts
            text_parts: list[TextPart | ReasoningPart] = [p for p in parts if type(p) is TextPart]
            reasoning_parts: list[TextPart | ReasoningPart] = [
                p for p in parts if type(p) is ReasoningPart]
            if not text_parts and isinstance(message.content.content, str):
                content = message.content.content
                targets.append((message, [], Value([content], content, 0, None)))
            for same in (text_parts, reasoning_parts):
                if same:
                    texts = [p.text for p in same]
                    targets.append((message, same, Value(texts, "".join(texts), 0, None)))
            targets.extend((message, [p], value_text(index, p.tool_invocation.args))
                           for p in parts if type(p) is ToolInvocationPart)
        found = [find_leaks(index, self._patterns, target.text) for _, _, target in targets]
        if self.judge is not None and system:
            # Text and reasoning are judged; tool calls' arguments were, in the stream.
            judge = self.judge
            context = "\n\n".join(system)
            judged = [i for i, (_, _, target) in enumerate(targets) if target.hits is None]
            verdicts = await asyncio.gather(*(judge(targets[i][2].text, context=context)
                                              for i in judged))
            for i, verdict in zip(judged, verdicts, strict=True):
                found[i] = joined([*found[i], *_judged(verdict, len(targets[i][2].text))])
        detections: list[Detection] = []
        dropped: set[str] = set()
        changed = False
        stream: Stream | None = state.get("stream")
        warned = stream.warned.copy() if stream is not None else Counter()
        offset = 0
        for (message, held, target), spans in zip(targets, found, strict=True):
            if self.strategy == "warn":
                spans = _unseen(warned, spans, target.text)
            detections.extend(Detection(t, offset + s.start, offset + s.end, detector=s.detector)
                              for s in spans for t in s.types)
            offset += len(target.text)
            if not spans:
                continue
            if self.strategy == "filter":
                dropped.add(message.id)
            elif self.strategy == "redact":
                changed = True
                if not held:
                    message.content.content = shares(target, spans, self._replacement)[0]
                elif type(held[0]) is ToolInvocationPart:
                    inv = held[0].tool_invocation
                    held[0].tool_invocation = attrs.evolve(
                        inv, args=value_redacted(inv.args, target, spans, self._replacement))
                else:
                    for part, text in zip(held, shares(target, spans, self._replacement),
                                          strict=True):
                        part.text = text
        await self._act("result", detections, abort, writer)
        if dropped:
            return [m for m in messages if m.id not in dropped]
        return messages if changed else None


def _payload(kind: str) -> tuple[str, tuple[str, ...] | None] | None:
    """Whether a chunk of type ``kind`` carries values checked whole: the verdict's
    channel and the payload keys (``None``: every string of the payload)."""
    if kind == "tool-call":
        return "tool-call", ("args", "raw_args")
    if kind == "object-result":
        return "result", ("object",)
    if carries_other_content(kind):
        return "output", None
    return None


def _key(text: str) -> tuple[str, ...]:
    return tuple(w for w, _, _ in words(text))


def _unseen(warned: Counter[tuple[str, ...]], spans: list[Span], text: str) -> list[Span]:
    """``spans`` less those the stream already reported (warn changes nothing, so the
    final response still holds them)."""
    out = []
    for span in spans:
        key = _key(text[span.start:span.end])
        if warned[key] > 0 and span.detector != "judge":
            warned[key] -= 1
        else:
            out.append(span)
    return out


def _judged(verdict: dict[str, Any], length: int) -> list[Span]:
    """The judge's verdict as spans of the judged text: its spans that fit in it, or the
    whole text when it says leaked without a usable span."""
    if not verdict.get("leaked") or not length:
        return []
    kind = (verdict.get("types") or ["paraphrase"])[0]
    spans = [Span(s["start"], min(s["end"], length), (kind,), "judge")
             for s in verdict.get("spans") or () if s["start"] < min(s["end"], length)]
    return spans or [Span(0, length, (kind,), "judge")]
