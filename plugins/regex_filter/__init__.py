"""``regex-filter``: block, redact or report what named regular expressions match, in
everything that reaches the model, the tools or the client.

Each rule is a name, a pattern and a replacement; presets add ready-made rules for
personal data (``pii``), credentials (``secrets``) and links (``urls``). They are
plain patterns, fast and predictable, with no validation: an order number shaped like
a phone number is a phone number here. ``pii-detector`` is the validated tier (Luhn,
issuer ranges, checksums).

Where it looks, by ``phase`` (the lists the processor is put in decide which hooks run;
the same instance can go in both)::

    input    process_input          the input messages (text, reasoning, tool calls
                                    and results they carry, text documents)
    output   process_output_stream  streamed text and reasoning (through a
                                    ``tripwire.HoldBack`` window, so a value split
                                    across chunks or text ids is still found), a tool
                                    call's arguments before the tool runs, a tool
                                    error's text (for the client, the stored history
                                    and the model), every string of the structured
                                    object (``object-result``, ``result.object``),
                                    every string of any other chunk
                                    that carries content (``data-*``, ``source``, a
                                    type the framework does not define)
             process_tool_result    a tool's result, before the model, the client and
                                    the stored history see it
             process_output_result  the final response messages (what other processors
                                    put there after the stream)

What it does on a match, by ``strategy``: ``block`` stops the run
(``Regex filter: blocked content matching patterns: a, b``); ``redact`` replaces each
match with its rule's replacement and reports a ``tripwire.guards.verdicts.Verdict``
(``result.verdicts``); ``warn`` leaves the content as it is, tells ``on_violation`` and
reports a verdict. Tripwire metadata, violations and verdicts name the rules, count the
matches and give their offsets: never the matched text.

Speed: the patterns are compiled once per processor, into as few scans as possible
(``tripwire.plugins.regex_filter.rules``, with the ``Rule`` type, the presets and the computed
``max_length``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Literal

import attrs

from tripwire import hookimpl, notify_violation
from tripwire.chunks import Chunk, carries_other_content, extra_keys
from tripwire.errors import ConfigurationError
from tripwire.guards.documents import read_document, write_document
from tripwire.guards.values import map_strings
from tripwire.guards.verdicts import Detection, Verdict, strategy_of
from tripwire.guards.window import CHANNELS as HOLD_CHANNELS
from tripwire.guards.window import (
    ENDS,
    HoldBack,
    Match,
    in_one_word,
    joint_hold_from,
    replace_all,
    run_start,
)
from tripwire.messages import Message, MessageList, ReasoningPart, TextPart, ToolInvocationPart
from tripwire.option_checks import check
from tripwire.plugins.regex_filter.rules import (
    PRESETS,
    Matcher,
    Rule,
    rules_in_force,
    structure_rules,
)
from tripwire.processor import Processor, ProcessorViolation
from tripwire.types import Abort, ToolResultChange, Writer

__all__ = ["PRESETS", "Phase", "Preset", "RegexFilter", "Rule", "Strategy"]

Strategy = Literal["block", "redact", "warn", "mask"]
Phase = Literal["input", "output", "all"]
Preset = Literal["pii", "secrets", "urls"]


#: Verdict channel of each stream channel of ``HoldBack``.
_STREAM_CHANNEL = {"text": "output", "reasoning": "reasoning"}


class RegexFilter(Processor):
    """Blocks, redacts or reports what named regular expressions match in the input, the
    streamed output (text and reasoning), tool-call arguments, tool results and the
    final response.

    Options:

    ``rules`` = ``None``
        ``Rule`` objects or tables ``{name, pattern, replacement = "[REDACTED]",
        max_length}``; names are unique (presets' too).
    ``presets`` = ``None``
        Any of ``"pii"`` (email, phone, ssn, credit-card), ``"secrets"`` (api-key,
        bearer-token, aws-key), ``"urls"`` (url); their rules come after ``rules``.
        At least one rule or preset is required.
    ``strategy`` = ``"block"``
        ``"block"`` stops the run; ``"redact"`` (or its alias ``"mask"``, as in every
        guard: ``tripwire.guards.verdicts.STRATEGY_ALIASES``) replaces each match with its
        rule's replacement; ``"warn"`` reports and changes nothing.
    ``phase`` = ``"all"``
        ``"input"``, ``"output"`` or ``"all"``: which hooks act (see the module).
    """

    id = "regex-filter"
    name = "Regex Filter"
    #: ``data-*`` chunks (what tools, other processors and the model write) are checked
    #: too; the pipeline never hands a processor the data chunks it wrote itself.
    process_data_parts = True
    description = (
        "Blocks, redacts or reports named regex matches (rules and pii / secrets / urls "
        "presets) in input, streamed text and reasoning, tool calls, tool results and "
        "the final response"
    )

    def __init__(
        self,
        rules: list[Rule | dict[str, Any]] | None = None,
        *,
        presets: list[Preset] | None = None,
        strategy: Strategy = "block",
        phase: Phase = "all",
    ) -> None:
        chosen = strategy_of(strategy, ("block", "redact", "warn"), owner=self.id)
        check("phase", phase, Phase, owner=self.id)
        if presets is not None and (
            not isinstance(presets, list | tuple)
            or any(p not in PRESETS for p in presets)
        ):
            raise ConfigurationError(
                f"{self.id}: presets must be a list of {', '.join(map(repr, PRESETS))}; "
                f"got {presets!r}"
            )
        structured = structure_rules(rules, self.id)
        presets = list(dict.fromkeys(presets or ()))
        if not structured and not presets:
            raise ConfigurationError(
                f"{self.id}: give at least one rule or preset, e.g. rules=[{{name = "
                f"\"order-id\", pattern = 'ORD-\\d{{6}}'}}] or presets=[\"pii\"] (presets: "
                f"pii, secrets, urls)"
            )
        #: The ``rules`` option, as ``Rule`` objects.
        self.rules = structured
        self.presets = presets
        self.strategy = chosen
        self.phase = phase
        every = rules_in_force(structured, presets, self.id)
        #: Every rule in force, in order: ``rules``, then each preset's.
        self.active_rules: tuple[Rule, ...] = every
        self._matcher = Matcher([r.pattern for r in every])
        self._names = [r.name for r in every]
        #: The longest match of any rule: how much streamed text is held back (one
        #: character more, so that a word-start rule sees what precedes a match).
        self.max_length = max(r.max_length or 1 for r in every)
        # Rules whose matches lie within one word hold back only the last word.
        self._hold_from = joint_hold_from(
            ((r.max_length or 1) + 1, run_start if in_one_word(r.pattern) else None)
            for r in every)
        self._replace: Callable[[Match], str] | None = None
        if chosen == "redact":
            for rule in every:
                clash = sorted({self._names[i] for _, _, i in self._matcher.find(rule.replacement)})
                if clash:
                    raise ConfigurationError(
                        f"{self.id}: the replacement {rule.replacement!r} of rule "
                        f"{rule.name!r} is matched by rule {', '.join(map(repr, clash))}; "
                        f"choose a replacement no rule matches"
                    )
            self._replace = self._replacement

    def __repr__(self) -> str:
        return (f"<RegexFilter {len(self.active_rules)} rule(s) strategy={self.strategy!r} "
                f"phase={self.phase!r}>")

    # ------------------------------------------------------------ matching

    def _replacement(self, match: Match) -> str:
        index: int = match.rule[0]
        return self.active_rules[index].replacement

    def _replacement_spans(self, text: str) -> list[tuple[int, int]]:
        """Where the rules' replacements stand in ``text``."""
        spans = []
        for replacement in {r.replacement for r in self.active_rules}:
            at = text.find(replacement)
            while at >= 0 and replacement:
                spans.append((at, at + len(replacement)))
                at = text.find(replacement, at + 1)
        return spans

    def _detections(self, matches: Iterable[Match]) -> list[Detection]:
        """One detection per match, in text order; overlapping matches of one rule (two
        alternatives of it finding the same value) are one."""
        out: list[Detection] = []
        for index, start, end in sorted(m.rule for m in matches):  # by rule, then start
            name = self._names[index]
            if out and out[-1].type == name and start < out[-1].end:
                out[-1] = attrs.evolve(out[-1], end=max(end, out[-1].end))
            else:
                out.append(Detection(name, start, end))
        return sorted(out, key=lambda d: (d.start, d.end))

    def _metadata(self, verdict: Verdict) -> dict[str, Any]:
        """What tripwires, violations and reports say: the verdict (types, offsets) and
        a count per rule - never the matched text."""
        counts = Counter(d.type for d in verdict.detections)
        order = {name: i for i, name in enumerate(self._names)}
        return {
            **verdict.to_metadata(),
            "matches": [{"rule": name, "count": counts[name], "channel": verdict.channel}
                        for name in sorted(counts, key=order.__getitem__)],
        }

    def _verdict(self, channel: str, matches: Iterable[Match]
                 ) -> tuple[Verdict, dict[str, Any], str]:
        """The verdict on ``matches`` under this guard's strategy, its metadata and the
        rule names it reports (comma-separated)."""
        action = {"block": "blocked", "redact": "redacted", "warn": "warned"}[self.strategy]
        verdict = Verdict(self.id, channel, self.strategy, action, tuple(self._detections(matches)))
        metadata = self._metadata(verdict)
        return verdict, metadata, ", ".join(m["rule"] for m in metadata["matches"])

    async def _act(self, channel: str, matches: list[Match], abort: Abort, writer: Writer,
                   state: dict[str, Any] | None = None) -> None:
        """Block (abort), or report what was redacted or found (warn). With ``state``,
        warned matches are remembered for ``process_output_result``."""
        if not matches:
            return
        verdict, metadata, names = self._verdict(channel, matches)
        if self.strategy == "block":
            abort(f"Regex filter: blocked content matching patterns: {names}", metadata=metadata)
        if self.strategy == "warn":
            if state is not None:
                _seen(state, matches)
            await notify_violation(self, ProcessorViolation(
                self.id, f"Regex filter: found content matching patterns: {names}", metadata))
        writer.report(verdict)

    # ------------------------------------------------------------ input

    @hookimpl
    async def process_input(self, messages: list[Message], abort: Abort,
                            writer: Writer) -> list[Message] | None:
        if self.phase == "output":
            return None
        scan = _Scan(self, "input")
        for message in messages:
            scan.message(message)
        await self._act("input", scan.found, abort, writer)
        return messages if scan.changed else None

    # ------------------------------------------------------------ output

    @hookimpl
    async def process_output_stream(self, part: Chunk, state: dict[str, Any], abort: Abort,
                                    writer: Writer, message_list: MessageList
                                    ) -> Chunk | list[Chunk]:
        if self.phase == "input":
            return part
        stream: _Stream | None = state.get("stream")
        if stream is None:
            stream = state["stream"] = _Stream(self)
        if part.type == "tripwire":
            stream.discard()
            return part
        if part.is_data:
            # Checked whole, not through the window (it releases none of the held text).
            return await self._check_payload(part, tuple(part.payload), "output", abort,
                                             writer, state)
        extra = extra_keys(part)
        if extra:  # a provider's provider_metadata, a key a plugin added: every string
            part = await self._check_payload(part, extra, "output", abort, writer, state)
        channel = HOLD_CHANNELS.get(part.type)
        if channel is not None:
            return self._released(stream, stream.push(channel, part), abort)
        # Any other chunk passes; one that ends the text (the end of a step) releases
        # what is held first (``HoldBack`` puts it last).
        out = self._released(stream, stream.push(None, part), abort)
        # One verdict per channel for what was redacted or found since the last chunk
        # that was not a delta.
        for verdict_channel, matches in stream.pending.items():
            await self._act(verdict_channel, matches, abort, writer, state)
        stream.pending.clear()
        if part.type == "tool-call":
            # Before the tool runs: it runs with the arguments of the chunk we return.
            part = await self._check_payload(part, ("args", "raw_args"), "tool-call",
                                             abort, writer, state)
        elif part.type == "tool-error":
            # process_tool_result does not run for a tool that failed: its error text is
            # checked here, for the client and for the stored result the model sees next
            # (and result.tool_results holds).
            checked = await self._check_payload(part, ("error",), "tool-result", abort,
                                                writer, state)
            if checked is not part:
                message_list.store_tool_result(part.payload["tool_call_id"],
                                               checked.payload["error"])
            part = checked
        elif part.type == "object-result":
            # The parsed object (JSON escapes decoded: not the text the stream saw);
            # result.object is what this chunk carries when it leaves the processors.
            part = await self._check_payload(part, ("object",), "result", abort, writer,
                                             state)
        elif carries_other_content(part.type):
            # A source's url and title, a provider's own chunk type: every string.
            part = await self._check_payload(part, tuple(part.payload), "output", abort,
                                             writer, state)
        out[-1] = part  # (``HoldBack`` gives any other chunk back last)
        return out if len(out) > 1 else part

    def _released(self, stream: _Stream, released: tuple[list[Chunk], list[Match]],
                  abort: Abort) -> list[Chunk]:
        """The released chunks; a match in them blocks now (before any of it is
        emitted) or waits in ``stream.pending`` to be reported."""
        chunks, matches = released
        for match in matches:
            stream.pending.setdefault(_STREAM_CHANNEL[match.channel], []).append(match)
        if matches and self.strategy == "block":
            for channel, found in stream.pending.items():
                _, metadata, names = self._verdict(channel, found)
                abort(f"Regex filter: blocked content matching patterns: {names}",
                      metadata=metadata)
        return chunks

    async def _check_payload(self, part: Chunk, keys: tuple[str, ...], channel: str,
                             abort: Abort, writer: Writer, state: dict[str, Any]) -> Chunk:
        scan = _Scan(self, channel)
        changed = {k: scan.value(part.payload[k]) for k in keys if k in part.payload}
        await self._act(channel, scan.found, abort, writer, state)
        return part.evolve(payload={**part.payload, **changed}) if scan.changed else part

    @hookimpl
    async def process_tool_result(self, result: Any, state: dict[str, Any], abort: Abort,
                                  writer: Writer) -> ToolResultChange | None:
        if self.phase == "input":
            return None
        scan = _Scan(self, "tool-result")
        checked = scan.value(result)
        await self._act("tool-result", scan.found, abort, writer, state)
        return {"result": checked} if scan.changed else None

    @hookimpl
    async def process_output_result(self, messages: list[Message], state: dict[str, Any],
                                    abort: Abort, writer: Writer) -> list[Message] | None:
        if self.phase == "input":
            return None
        scan = _Scan(self, "result", after_stream="stream" in state)
        for message in messages:
            scan.message(message)
        found = scan.found
        if self.strategy == "warn":
            # Warn changes nothing, so what the stream and the tool results already
            # reported is still here: report only what is new.
            found = _unseen(state, found)
        await self._act("result", found, abort, writer)
        return messages if scan.changed else None


class _Scan:
    """One check of complete values on one channel: strings are scanned in the order
    walked, offsets count through all of them; ``found`` collects the matches and
    ``changed`` says whether a replacement changed anything."""

    __slots__ = ("guard", "channel", "offset", "found", "changed", "after_stream")

    def __init__(self, guard: RegexFilter, channel: str, *, after_stream: bool = False) -> None:
        self.guard = guard
        self.channel = channel
        self.offset = 0
        self.found: list[Match] = []
        self.changed = False
        #: The text already went through this guard's stream (redacted): a match that
        #: takes in a replacement is not content but the guard's own doing (the start of
        #: a value released before a tool call cut it, then its replacement:
        #: ``https://`` + ``[URL]``), and is left alone.
        self.after_stream = after_stream

    def text(self, text: str) -> str:
        offset = self.offset
        self.offset += len(text)
        found = self.guard._matcher.find(text)
        if self.after_stream and self.guard._replace is not None and found:
            spans = self.guard._replacement_spans(text)
            found = [m for m in found if all(m[1] <= a or m[0] >= b for a, b in spans)]
        if not found:
            return text
        labelled = [(s, e, (i, offset + s, offset + e)) for s, e, i in found]
        out, matches = replace_all(text, lambda _: labelled, self.guard._replace)
        self.found.extend(matches)
        self.changed = self.changed or out != text
        return out

    def value(self, value: Any) -> Any:
        """``value`` with its strings checked at any depth (``tripwire.guards.values.map_strings``:
        dict keys and values, lists, tuples, sets, attrs and dataclass instances, rebuilt
        with their types); an integer is checked as its digits (a card number sent as a
        number) and becomes the replaced string when redacted. Returns ``value`` itself
        when nothing changed."""
        return map_strings(value, self.text, ints=True)

    def message(self, message: Message) -> None:
        """Check ``message`` in place: text and reasoning parts, tool calls' arguments
        and results, text documents (written back in their encoding when redacted), and
        ``content.content``."""
        for part in message.content.parts:
            if type(part) is TextPart or type(part) is ReasoningPart:
                part.text = self.text(part.text)
            elif type(part) is ToolInvocationPart:
                invocation = part.tool_invocation
                invocation.args = self.value(invocation.args)
                invocation.result = self.value(invocation.result)
            elif (held := read_document(part)) is not None:
                text, encoding = held
                new = self.text(text)
                if new != text:
                    write_document(part, new, encoding)
        if isinstance(message.content.content, str):
            message.content.content = self.text(message.content.content)


class _Stream:
    """One call's stream state: the ``HoldBack`` window and where in each channel's
    text it is, so a match gets offsets into the channel's whole streamed text."""

    __slots__ = ("guard", "hold", "keep", "pushed", "emitted", "flushed", "pending")

    def __init__(self, guard: RegexFilter) -> None:
        self.guard = guard
        # One character more than the longest match: a word-start rule needs the
        # character before its match.
        self.hold = HoldBack(guard.max_length + 1, self.find, guard._replace,
                             hold_from=guard._hold_from)
        self.keep = guard.max_length  # what HoldBack keeps: the context's length, at most
        # Per channel: characters pushed, characters released, and how many had been
        # released when the text last ended (a step's end flushed it).
        self.pushed = {"text": 0, "reasoning": 0}
        self.emitted = {"text": 0, "reasoning": 0}
        self.flushed: dict[str, int | None] = {"text": None, "reasoning": None}
        #: Matches released and not reported yet, by verdict channel.
        self.pending: dict[str, list[Match]] = {}

    def push(self, channel: str | None, part: Chunk) -> tuple[list[Chunk], list[Match]]:
        """``part`` through the window: a delta of ``channel``, or (``None``) any other
        chunk, which comes back last (after what it released, if it ends the text)."""
        if channel is not None:
            self.pushed[channel] += len(part.payload.get("text", ""))
        chunks, matches = released = self.hold.push(part)
        for c in chunks:
            name = HOLD_CHANNELS.get(c.type)
            if name is not None:
                self.emitted[name] += len(c.payload.get("text", ""))
        if channel is None and part.type in ENDS:
            self.flushed = dict(self.emitted)
        return released

    def discard(self) -> None:
        """Drop what is held (a tripwire ended the run)."""
        self.hold.discard()
        self.emitted = {"text": 0, "reasoning": 0}
        self.flushed = {"text": None, "reasoning": None}

    def find(self, text: str) -> list[tuple[int, int, tuple[int, int, int]]]:
        """The finder ``HoldBack`` calls with the released context (the last characters
        emitted) followed by the held text of the channel being scanned."""
        channel = self.hold.channel
        emitted = self.emitted[channel]
        base = min(self.keep, emitted)           # where the held text starts in ``text``
        origin = self.pushed[channel] - (len(text) - base)  # ... and in the whole channel
        # The context is all that was emitted, or only its end: then its first
        # character is there only to show what precedes the next one.
        at_start = base == emitted
        # HoldBack released the context because no match could still start in it, unless
        # the end of a step released it (the next step's text may go on with a value):
        # only then may a match start in the context.
        flushed = self.flushed[channel]
        pos = 0 if flushed is not None and emitted - flushed < self.keep else base
        return [(s, e, (i, max(0, origin + s - base), origin + e - base))
                for s, e, i in self.guard._matcher.find(text, at_start=at_start, pos=pos)]


def _seen(state: dict[str, Any], matches: Iterable[Match]) -> None:
    warned: Counter[tuple[Any, int]] = state.setdefault("warned", Counter())
    warned.update((m.rule[0], hash(m.text)) for m in matches)


def _unseen(state: dict[str, Any], matches: list[Match]) -> list[Match]:
    warned: Counter[tuple[Any, int]] = state.get("warned", Counter())
    out = []
    for m in matches:
        key = (m.rule[0], hash(m.text))
        if warned[key] > 0:
            warned[key] -= 1
        else:
            out.append(m)
    return out
