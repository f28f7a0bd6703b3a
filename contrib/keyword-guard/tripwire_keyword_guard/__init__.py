"""``keyword-guard``: a tripwire processor that blocks or masks configured keywords or
regular expressions everywhere text reaches the model, the tools or the client.

Put it in ``input_processors`` to guard what users send (with the reasoning, tool-call
arguments, tool results and text documents of the history they send), in
``output_processors`` to guard what the model streams back (text and reasoning), the
arguments it calls tools with, the results the tools return, the structured object
(``object-result``, ``result.object``) and every other chunk that carries content
(``data-*``, ``source``), or in both::

    [agents.support]
    input_processors = [{ use = "keyword-guard", patterns = ["password"] }]
    output_processors = [{ use = "keyword-guard", patterns = ['ACME-\\d{1,8}'], regex = true,
                           strategy = "redact", max_match_length = 13 }]

A keyword can arrive split across stream chunks (``"pass"`` then ``"word"``, in one
text id or two), so the streamed text goes through a ``tripwire.HoldBack`` window: the
last ``max_match_length - 1`` characters wait until the next chunk shows they do not
start a match. Reports never repeat what matched: a rule is named by its index in
``patterns`` (or by ``names``), with a count.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Literal

from tripwire import (
    Chunk,
    HoldBack,
    Message,
    MessageList,
    Processor,
    ProcessorViolation,
    ReasoningPart,
    TextPart,
    ToolInvocationPart,
    hookimpl,
    notify_violation,
)
from tripwire.chunks import carries_other_content, extra_keys
from tripwire.guards.documents import read_document, write_document
from tripwire.guards.values import map_strings
from tripwire.guards.verdicts import strategy_of
from tripwire.guards.window import Match, in_one_word, joint_hold_from, replace_all, run_start

__all__ = ["KeywordGuard"]
__version__ = "0.2.0"

#: Where a stream match was found, by HoldBack channel.
_WHERE = {"text": "output", "reasoning": "reasoning"}


class KeywordGuard(Processor):
    """Blocks or masks keywords / regex patterns in input, streamed output (text and
    reasoning), tool-call arguments and tool results.

    Options:
        patterns: the keywords (or regular expressions when ``regex`` is true).
        regex: treat ``patterns`` as Python regular expressions.
        case_sensitive: match case exactly (default: ignore case).
        strategy: ``"block"`` stops the run with a tripwire; ``"redact"`` (or its alias
            ``"mask"``, the names every tripwire guard takes:
            ``tripwire.guards.verdicts.STRATEGY_ALIASES``) replaces each match with ``mask``
            and lets the run go on (``on_violation`` is told).
        mask: the replacement text for ``strategy = "redact"``; no pattern may match it.
        max_match_length: the most characters one match can cover: how much streamed
            text is held back. Default: the longest keyword; required with ``regex``
            (give an upper bound, e.g. 13 for ``ACME-\\d{1,8}``).
        names: a name per pattern, used in reports instead of its index.
    """

    id = "keyword-guard"
    #: ``data-*`` chunks (what tools, other processors and the model write) are checked
    #: too; the pipeline never hands a processor the data chunks it wrote itself.
    process_data_parts = True
    description = (
        "Blocks or masks keywords and regex patterns in input, streamed text and reasoning, "
        "tool-call arguments, tool results and other content chunks (data-*, source)"
    )

    def __init__(
        self,
        patterns: list[str],
        regex: bool = False,
        case_sensitive: bool = False,
        strategy: Literal["block", "redact", "mask"] = "block",
        mask: str = "[REDACTED]",
        max_match_length: int | None = None,
        names: list[str] | None = None,
    ) -> None:
        if isinstance(patterns, str) or not isinstance(patterns, list | tuple) or not patterns:
            raise ValueError(
                f"patterns must be a non-empty list of strings, got {patterns!r}"
            )
        strategy = strategy_of(strategy, ("block", "redact"), owner=self.id)
        if not isinstance(mask, str):
            raise ValueError(f"mask must be a string, got {mask!r}")
        if max_match_length is not None and (
            not isinstance(max_match_length, int) or isinstance(max_match_length, bool)
            or max_match_length < 1
        ):
            raise ValueError(f"max_match_length must be an integer >= 1, got {max_match_length!r}")
        if regex and max_match_length is None:
            raise ValueError(
                "max_match_length is required with regex = true: give the most characters "
                "one match can cover (e.g. 13 for 'ACME-\\d{1,8}'); the stream holds back "
                "that many characters minus one"
            )
        if names is not None and (
            not isinstance(names, list | tuple) or len(names) != len(patterns)
            or not all(isinstance(n, str) and n for n in names) or len(set(names)) != len(names)
        ):
            raise ValueError(
                f"names must be a list of {len(patterns)} different non-empty strings, one "
                f"per pattern, got {names!r}"
            )
        flags = 0 if case_sensitive else re.IGNORECASE
        self.patterns = list(patterns)
        self.regex = regex
        self.case_sensitive = case_sensitive
        self.strategy = strategy
        self.mask = mask
        self.names = list(names) if names is not None else None
        self._compiled: list[re.Pattern[str]] = []
        for i, p in enumerate(self.patterns):
            if not isinstance(p, str) or not p:
                raise ValueError(f"each pattern must be a non-empty string, got {p!r} at index {i}")
            try:
                compiled = re.compile(p if regex else re.escape(p), flags)
            except re.error as e:
                raise ValueError(
                    f"pattern {i} ({p!r}) is not a valid regular expression: {e}"
                ) from e
            if compiled.search("") is not None:
                raise ValueError(f"pattern {i} ({p!r}) matches the empty string")
            self._compiled.append(compiled)
        if max_match_length is None:
            max_match_length = max(len(p) for p in self.patterns)
        self.max_match_length = max_match_length
        # A pattern whose matches lie within one word holds back only the last word.
        self._hold_from = joint_hold_from(
            (max_match_length, run_start if in_one_word(c.pattern) else None)
            for c in self._compiled)
        if strategy == "redact" and self._find(mask):
            raise ValueError(
                f"mask {mask!r} is matched by the patterns themselves; choose a mask that "
                f"no pattern matches"
            )
        self._replace = mask if strategy == "redact" else None

    def __repr__(self) -> str:
        return (f"KeywordGuard({len(self.patterns)} pattern(s), strategy={self.strategy!r}, "
                f"max_match_length={self.max_match_length})")

    # ------------------------------------------------------------ matching

    def _rule(self, index: int) -> str | int:
        return self.names[index] if self.names is not None else index

    def _find(self, text: str) -> list[tuple[int, int, str | int]]:
        """Every match of every pattern in ``text``: ``(start, end, rule)``."""
        return [
            (m.start(), m.end(), self._rule(i))
            for i, compiled in enumerate(self._compiled)
            for m in compiled.finditer(text)
        ]

    def _check(self, value: Any, found: list[Match]) -> Any:
        """``value`` with matches in its strings replaced (mask) or kept (block), at any
        depth (``tripwire.guards.values.map_strings``: dicts, lists, tuples, sets, attrs and
        dataclass instances, rebuilt with their types); matches go to ``found``.
        Returns ``value`` itself when nothing matched."""
        def check(text: str) -> str:
            out, matches = replace_all(text, self._find, self._replace)
            found.extend(matches)
            return out if matches else text

        return map_strings(value, check)

    def _detail(self, where: str, matches: Iterable[Match]) -> dict[str, Any]:
        """What tripwires and reports say: where, and how often each rule matched -
        never the matched text or the pattern."""
        counts = Counter(m.rule for m in matches)
        order = {self._rule(i): i for i in range(len(self.patterns))}
        return {
            "processor_id": self.id,
            "strategy": self.strategy,
            "where": where,
            "matches": [{"rule": rule, "count": counts[rule]}
                        for rule in sorted(counts, key=order.__getitem__)],
        }

    async def _found(self, abort: Any, where: str, matches: list[Match]) -> None:
        """Block (abort) or report masked matches to ``on_violation``."""
        if not matches:
            return
        detail = self._detail(where, matches)
        if self.strategy == "block":
            abort(f"Blocked content detected in {where}", metadata=detail)
        await notify_violation(self, ProcessorViolation(
            self.id, f"Masked {len(matches)} match(es) in {where}", detail))

    # ------------------------------------------------------------ input

    @hookimpl
    async def process_input(self, messages: list[Message], abort: Any) -> list[Message] | None:
        """Check the input messages: their text and reasoning parts, the tool calls'
        arguments and results they carry (a caller's history, every turn of which the
        caller wrote: no other hook of this guard saw them), and their text documents
        (``tripwire.guards.documents``: a masked one is written back in its encoding). Images,
        PDFs and other binary files are not read. None when nothing matched (unchanged:
        a check in ``parallel`` or ``monitor`` mode may not change the input)."""
        found: list[Match] = []
        for message in messages:
            for part in message.content.parts:
                if type(part) is TextPart or type(part) is ReasoningPart:
                    part.text = self._check(part.text, found)
                elif type(part) is ToolInvocationPart:
                    invocation = part.tool_invocation
                    invocation.args = self._check(invocation.args, found)
                    invocation.result = self._check(invocation.result, found)
                elif (held := read_document(part)) is not None:
                    text, encoding = held
                    new = self._check(text, found)
                    if new is not text:
                        write_document(part, new, encoding)
            if isinstance(message.content.content, str):
                message.content.content = self._check(message.content.content, found)
        # With block the text was left as it was; abort() ends the run before anyone
        # sees it.
        await self._found(abort, "input", found)
        return messages if found else None

    # ------------------------------------------------------------ output

    @hookimpl
    async def process_output_stream(
        self, part: Chunk, state: dict[str, Any], abort: Any, message_list: MessageList
    ) -> list[Chunk]:
        """Streamed text and reasoning through the hold-back window; a tool call's
        arguments, a tool error's text and every string of any other chunk that carries
        content (``data-*``, ``source``, a type the framework does not define:
        ``tripwire.chunks.carries_other_content``) checked whole."""
        if part.is_data:
            # Not through the window (it releases none of the held text).
            return [await self._check_payload(part, tuple(part.payload), "data", abort)]
        extra = extra_keys(part)
        if extra:  # a provider's provider_metadata, a key a plugin added: every string
            part = await self._check_payload(part, extra, f"{part.type} chunk", abort)
        hold: HoldBack | None = state.get("hold")
        if hold is None:
            hold = state["hold"] = HoldBack(self.max_match_length, self._find, self._replace,
                                            hold_from=self._hold_from)
        chunks, matches = hold.push(part)
        for channel in ("text", "reasoning"):
            await self._found(abort, _WHERE[channel], [m for m in matches if m.channel == channel])
        if part.type == "tool-call":
            # Before the tool runs: it runs with the arguments of the chunk we return.
            chunks[-1] = await self._check_payload(part, ("args", "raw_args"),
                                                   "tool call arguments", abort)
        elif part.type == "tool-error":
            # process_tool_result does not run for a tool that failed: its error text is
            # masked here, for the client and for the stored result the model sees next.
            chunks[-1] = checked = await self._check_payload(part, ("error",), "tool error",
                                                             abort)
            if checked is not part:
                message_list.store_tool_result(part.payload["tool_call_id"],
                                               checked.payload["error"])
        elif part.type == "object-result":
            # The parsed object (JSON escapes decoded: not the text the window saw);
            # result.object is what this chunk carries when it leaves the processors.
            chunks[-1] = await self._check_payload(part, ("object",), "structured object",
                                                   abort)
        elif carries_other_content(part.type):
            chunks[-1] = await self._check_payload(part, tuple(part.payload),
                                                   f"{part.type} chunk", abort)
        return chunks

    async def _check_payload(
        self, part: Chunk, keys: tuple[str, ...], where: str, abort: Any
    ) -> Chunk:
        found: list[Match] = []
        changed = {k: self._check(part.payload[k], found) for k in keys if k in part.payload}
        await self._found(abort, where, found)
        return part.evolve(payload={**part.payload, **changed}) if found else part

    @hookimpl
    async def process_tool_result(self, result: Any, abort: Any) -> dict[str, Any] | None:
        found: list[Match] = []
        checked = self._check(result, found)
        await self._found(abort, "tool result", found)
        return {"result": checked} if found else None
