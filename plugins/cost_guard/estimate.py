"""What ``cost-guard`` charges a step before, and while, its model call streams.

A step's real usage arrives with the end of its model call (the ``finish`` chunk). A
caller that stops reading before that (a ``break`` out of ``agent.stream()``, a client
that disconnects from ``tripwire serve``), or a stream an output processor trips, would
never be charged the tokens it received. So while the call streams, ``cost-guard``
estimates it with the offline BPE counter ``token-limiter`` uses (``_tokens``,
``o200k_base``) and charges the estimate in batches: the prompt once the model has
started answering (a call refused with an error answered nothing), then the text,
reasoning and tool calls as they pass. When the real usage arrives it replaces the
estimate (the counters get the difference).

``StepCharge`` is one step's account: what the shared counters hold for it (a
reservation taken before the step included) and what its model calls are estimated
to have used. A call that fails and is made again (``process_api_error``) keeps what
it used; the usage the provider reports is the last call's only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripwire.chunks import Chunk, Usage
from tripwire.plugins.shared.tokens import REPLY_PRIMING_TOKENS, StreamCounter, TokenCounter

__all__ = ["ENCODING", "CallEstimate", "StepCharge", "prompt_tokens"]

#: The encoding estimates are counted in (GPT-4o and later; close enough for others:
#: the real usage replaces the estimate of every step that completes).
ENCODING = "o200k_base"
#: Chunks that show the model is answering the call (and so has read the prompt).
_ANSWERS = frozenset({"text-delta", "reasoning-delta", "tool-call", "step-finish"})
_STREAMED = frozenset({"text-delta", "reasoning-delta"})


def prompt_tokens(counter: TokenCounter, prompt: Sequence[Mapping[str, Any]]) -> int:
    """The estimated input tokens of a provider-facing prompt, counted as
    ``token-limiter`` counts it (chat overhead and reply priming included)."""
    return sum(counter.message(m) for m in prompt) + REPLY_PRIMING_TOKENS


class CallEstimate:
    """The estimated tokens of one model call, from the chunks that passed the guard.

    Streamed text is counted as a whole, not delta by delta (a word cut between two
    deltas is one token), and only when the guard needs the number: until then its
    UTF-8 length bounds its tokens (a BPE token is at least one byte), which is
    enough to know that a batch is not due yet.
    """

    __slots__ = (
        "counter",
        "prompt",
        "streams",
        "buffered",
        "unsure",
        "counted",
        "answered",
    )

    def __init__(self, prompt: int, counter: TokenCounter) -> None:
        self.counter = counter
        self.prompt = prompt
        #: a counter per streamed kind (text, reasoning), and the text not counted yet
        self.streams: dict[str, StreamCounter] = {}
        self.buffered: dict[str, list[str]] = {}
        #: at least the tokens added since the last count (the UTF-8 bytes of the
        #: buffered text, and the tool calls')
        self.unsure = 0
        #: the output tokens counted so far (the buffered text left out)
        self.counted = 0
        self.answered = False

    def add(self, part: Chunk) -> None:
        """Take ``part`` into account when it is something the model produced."""
        kind = part.type
        if kind not in _ANSWERS:
            return
        self.answered = True
        if kind in _STREAMED:
            text = part.text
            if text:
                pieces = self.buffered.get(kind)
                if pieces is None:
                    pieces = self.buffered[kind] = []
                pieces.append(text)
                self.unsure += len(text) if text.isascii() else len(text.encode())
        elif kind == "tool-call":
            payload = part.payload
            tokens = self.counter.part(
                {
                    "type": "tool-call",
                    "tool_name": payload["tool_name"],
                    "input": payload.get("args") or {},
                }
            )
            self.counted += tokens
            self.unsure += tokens

    def count(self) -> None:
        """Count the buffered text."""
        for kind, pieces in self.buffered.items():
            stream = self.streams.get(kind)
            if stream is None:
                stream = self.streams[kind] = StreamCounter(self.counter.encoding)
            before = stream.total
            self.counted += stream.add("".join(pieces)) - before
        self.buffered.clear()
        self.unsure = 0

    @property
    def input_tokens(self) -> int:
        """The prompt, once the model has answered (a refused call used nothing)."""
        return self.prompt if self.answered else 0

    @property
    def output_tokens(self) -> int:
        if self.buffered:
            self.count()
        return self.counted


class StepCharge:
    """One step's account in the shared counters."""

    __slots__ = ("charged", "failed_input", "failed_output", "call", "room")

    def __init__(self) -> None:
        #: what the counters hold for this step, by counter name (``steps`` and a
        #: ``total_tokens`` reservation are taken before the step)
        self.charged: dict[str, int] = {}
        #: the estimate of the step's model calls that failed (made again, or not)
        self.failed_input = 0
        self.failed_output = 0
        #: the model call streaming now, or None (none yet, or a cache answered it)
        self.call: CallEstimate | None = None
        #: how many more tokens the call may add before a batch can be due (0: look)
        self.room = 0

    def new_call(self, prompt: int | None, counter: TokenCounter) -> None:
        """A model call of this step starts (``prompt``: its estimated input tokens;
        None when a cache answers it, which costs nothing)."""
        self.end_call()
        self.call = None if prompt is None else CallEstimate(prompt, counter)
        self.room = 0

    def end_call(self) -> None:
        """The current call failed: what it used stays the step's."""
        call = self.call
        if call is not None:
            self.failed_input += call.input_tokens
            self.failed_output += call.output_tokens
            self.call = None

    def estimate(self) -> tuple[int, int]:
        """Estimated (input, output) tokens of the step so far."""
        call = self.call
        if call is None:
            return self.failed_input, self.failed_output
        return self.failed_input + call.input_tokens, self.failed_output + call.output_tokens

    def pending(self) -> int:
        """Estimated tokens not charged yet."""
        used_input, used_output = self.estimate()
        return used_input + used_output - self._charged()

    def due(self, every: int) -> bool:
        """Whether ``every`` estimated tokens or more are not charged yet. The
        buffered text is counted only when what was added since the last look could
        make it so; after a charge, set ``room`` to 0."""
        call = self.call
        if call is None or call.unsure < self.room:
            return False
        pending = self.pending()
        self.room = every - pending
        return pending >= every

    def _charged(self) -> int:
        charged = self.charged
        return charged.get("input_tokens", 0) + charged.get("output_tokens", 0)

    def spent(self, used: Usage) -> tuple[int, int, int]:
        """What the step used in the end, (input, output, total) tokens: the usage the
        model reported for its last call, or, when it reported none, the estimate of
        that call; plus the estimate of the calls that failed before it."""
        if used.total_tokens or used.input_tokens or used.output_tokens:
            input_tokens, output_tokens = used.input_tokens, used.output_tokens
            total = used.total_tokens or input_tokens + output_tokens
        elif self.call is not None:
            input_tokens, output_tokens = self.call.input_tokens, self.call.output_tokens
            total = input_tokens + output_tokens
        else:
            input_tokens = output_tokens = total = 0
        failed = self.failed_input + self.failed_output
        return (
            input_tokens + self.failed_input,
            output_tokens + self.failed_output,
            total + failed,
        )
