"""``keyword-guard``: a tripwire processor that blocks or masks configured keywords or
regular expressions, in the input messages and in the streamed output.

Put it in ``input_processors`` to guard what users send, in ``output_processors`` to
guard what the model streams back, or in both::

    [agents.support]
    input_processors = [{ use = "keyword-guard", patterns = ["password"] }]
    output_processors = [{ use = "keyword-guard", patterns = ["ACME-\\\\d+"], regex = true,
                           strategy = "mask" }]

A keyword can arrive split across stream chunks (``"pass"`` then ``"word"``), so the
guard holds back the last few characters of the streamed text until it knows they
do not start a match, and releases them at the end of the step.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from tripwire import (
    Chunk,
    Message,
    Processor,
    ProcessorViolation,
    TextPart,
    hookimpl,
    notify_violation,
)

__all__ = ["KeywordGuard"]
__version__ = "0.1.0"


#: Chunks that may sit between two pieces of one text without ending it.
_PASS_THROUGH = frozenset({"text-delta", "reasoning-delta"})


class KeywordGuard(Processor):
    """Blocks or masks keywords / regex patterns in input and streamed output.

    Options:
        patterns: the keywords (or regular expressions when ``regex`` is true).
        regex: treat ``patterns`` as Python regular expressions.
        case_sensitive: match case exactly (default: ignore case).
        strategy: ``"block"`` stops the run with a tripwire; ``"mask"`` replaces each
            match with ``mask`` and lets the run go on (``on_violation`` is told).
        mask: the replacement text for ``strategy = "mask"``.
        max_match_length: the longest text a pattern can match, i.e. how many trailing
            characters of the streamed text are held back; default: the longest
            keyword, or 100 characters for regular expressions.
    """

    id = "keyword-guard"
    description = "Blocks or masks keywords and regex patterns in input and streamed output"

    def __init__(
        self,
        patterns: list[str],
        regex: bool = False,
        case_sensitive: bool = False,
        strategy: Literal["block", "mask"] = "block",
        mask: str = "[REDACTED]",
        max_match_length: int | None = None,
    ) -> None:
        if isinstance(patterns, str) or not patterns:
            raise ValueError("patterns must be a non-empty list of strings")
        if strategy not in ("block", "mask"):
            raise ValueError(f"strategy must be 'block' or 'mask', got {strategy!r}")
        if max_match_length is not None and max_match_length < 1:
            raise ValueError(f"max_match_length must be >= 1, got {max_match_length}")
        flags = 0 if case_sensitive else re.IGNORECASE
        self.patterns = list(patterns)
        self.regex = regex
        self.case_sensitive = case_sensitive
        self.strategy = strategy
        self.mask = mask
        self._compiled: list[re.Pattern[str]] = []
        for p in self.patterns:
            if not isinstance(p, str) or not p:
                raise ValueError(f"each pattern must be a non-empty string, got {p!r}")
            try:
                compiled = re.compile(p if regex else re.escape(p), flags)
            except re.error as e:
                raise ValueError(f"pattern {p!r} is not a valid regular expression: {e}") from e
            if compiled.search("") is not None:
                raise ValueError(f"pattern {p!r} matches the empty string")
            self._compiled.append(compiled)
        if max_match_length is None:
            max_match_length = 100 if regex else max(len(p) for p in self.patterns)
        self.max_match_length = max_match_length

    # ------------------------------------------------------------ matching

    def _spans(self, text: str) -> list[tuple[int, int, str]]:
        """Match spans (start, end, pattern), overlapping ones merged, in order."""
        found = sorted(
            (m.start(), m.end(), p)
            for p, c in zip(self.patterns, self._compiled, strict=True)
            for m in c.finditer(text)
        )
        merged: list[tuple[int, int, str]] = []
        for start, end, p in found:
            if merged and start < merged[-1][1]:
                s, e, q = merged[-1]
                merged[-1] = (s, max(e, end), q)
            else:
                merged.append((start, end, p))
        return merged

    def _masked(self, text: str, spans: list[tuple[int, int, str]]) -> str:
        out, pos = [], 0
        for start, end, _ in spans:
            out.append(text[pos:start])
            out.append(self.mask)
            pos = end
        out.append(text[pos:])
        return "".join(out)

    async def _report(self, where: str, spans: list[tuple[int, int, str]]) -> None:
        """Tell ``on_violation`` about masked matches; what it raises is logged."""
        if self.on_violation is None:
            return
        patterns = sorted({p for _, _, p in spans})
        await notify_violation(self, ProcessorViolation(
            self.id,
            f"masked {len(spans)} match(es) in {where}",
            {"where": where, "count": len(spans), "patterns": patterns},
        ))

    def _block(self, abort: Any, where: str, spans: list[tuple[int, int, str]]) -> None:
        abort(
            f"Blocked content detected in {where}",
            metadata={"where": where, "patterns": sorted({p for _, _, p in spans})},
        )

    # ------------------------------------------------------------ input

    @hookimpl
    async def process_input(self, messages: list[Message], abort: Any) -> list[Message]:
        masked: list[tuple[int, int, str]] = []
        for message in messages:
            for part in message.content.parts:
                if type(part) is not TextPart:
                    continue
                spans = self._spans(part.text)
                if not spans:
                    continue
                if self.strategy == "block":
                    self._block(abort, "input", spans)
                part.text = self._masked(part.text, spans)
                masked += spans
            content = message.content.content
            if isinstance(content, str):
                spans = self._spans(content)
                if spans and self.strategy == "block":
                    self._block(abort, "input", spans)
                if spans:
                    message.content.content = self._masked(content, spans)
                    masked += spans
        if masked:
            await self._report("input", masked)
        return messages

    # ------------------------------------------------------------ output

    @hookimpl
    async def process_output_stream(
        self, part: Chunk, state: dict[str, Any], abort: Any
    ) -> Chunk | list[Chunk] | None:
        held: dict[str, tuple[Chunk, str]] = state.setdefault("held", {})
        if part.type == "text-delta":
            text_id = str(part.payload.get("id"))
            _, before = held.pop(text_id, (part, ""))
            text = before + part.payload.get("text", "")
            cut = max(0, len(text) - (self.max_match_length - 1))
            released, kept = await self._release(text, cut, abort)
            if kept:
                held[text_id] = (part, kept)
            if not released:
                return None
            return part.evolve(payload={**part.payload, "text": released})
        if part.type in _PASS_THROUGH or not held:
            return part
        # Anything else (tool call, step-finish, finish, ...) ends the texts: flush them.
        out = []
        for template, kept in held.values():
            released, _ = await self._release(kept, len(kept), abort)
            out.append(template.evolve(payload={**template.payload, "text": released}))
        held.clear()
        return [*out, part]

    async def _release(self, text: str, cut: int, abort: Any) -> tuple[str, str]:
        """Split ``text`` into what can be emitted now (masked) and what is held."""
        spans = self._spans(text)
        if spans and self.strategy == "block":
            self._block(abort, "output", spans)
        for start, end, _ in spans:
            if start < cut < end:  # a complete match straddles the cut: release it whole
                cut = end
        done = [s for s in spans if s[1] <= cut]
        if done:
            await self._report("output", done)
        return self._masked(text[:cut], done), text[cut:]
