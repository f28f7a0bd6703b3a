"""What a run produces: the result of each step and of the run.

What a run produces: the result of each step, of the run, and what
``process_output_result`` is given; and the accumulator that builds a step's result and
response message from the chunks the client received."""

from __future__ import annotations

from typing import Any

import attrs

from tripwire.chunks import Chunk, ToolCall, ToolResult, Usage
from tripwire.errors import TripWire
from tripwire.messages import (
    DataPart,
    Message,
    MessageList,
    ReasoningPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
)
from tripwire.processor import TripwireInfo

__all__ = ["GenerateResult", "OutputResult", "StepResult", "StepAccumulator", "tripwire_info"]


@attrs.define
class StepResult:
    """One model call of a run. A step rejected by a retry keeps its ``tripwire``."""

    step_number: int
    text: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCall] = attrs.field(factory=list)
    tool_results: list[ToolResult] = attrs.field(factory=list)
    finish_reason: str = "unknown"
    usage: Usage = attrs.field(factory=Usage)
    from_cache: bool = False
    provider_metadata: dict[str, Any] | None = None
    warnings: list[Any] = attrs.field(factory=list)
    tripwire: TripwireInfo | None = None
    #: The provider's request body and raw response (status, headers with credentials
    #: masked) of this step: server-side only, never streamed to the client.
    request: Any = attrs.field(default=None, repr=False)
    response: Any = attrs.field(default=None, repr=False)


def _read_only(instance: Any, attribute: Any, value: Any) -> Any:
    """``on_setattr`` of OutputResult's read-only fields (set once, by ``__init__``)."""
    raise _read_only_error(attribute.alias if attribute.alias != "_text" else "text")


def _settable(instance: Any, attribute: Any, value: Any) -> Any:
    """``on_setattr`` of OutputResult's other fields: set as given. (A field without one
    would go through attrs' ``__setattr__`` by a ``KeyError`` on every write, its
    ``__init__`` included.)"""
    return value


def _read_only_error(name: str) -> AttributeError:
    return AttributeError(
        f"result.{name} is read-only in process_output_result: to change the "
        f"response, edit the messages (message.content.parts) or return a list of "
        f"messages; result.text follows them. result.object may be set."
    )


@attrs.define
class OutputResult:
    """What ``process_output_result`` receives as ``result``.

    ``text``, ``usage``, ``finish_reason`` and ``steps`` describe the response and are
    read-only: to change what the client and the stored history get, edit or return
    the response ``messages`` (``result.text`` then follows them). A processor may set
    ``object`` (a parsed structured output); it becomes ``result.object`` and an
    ``object-result`` chunk.

    ``caller_text``, when a processor sets it, is what the caller gets as
    ``result.text`` instead of the stored messages' text: for a processor that keeps
    something else in the history than it shows the caller (``pii-detector``'s
    ``tokenize`` keeps placeholders in the history and gives the caller the values).
    """

    _text: str = attrs.field(alias="text", on_setattr=_read_only)
    usage: Usage = attrs.field(on_setattr=_read_only)
    finish_reason: str = attrs.field(on_setattr=_read_only)
    steps: list[StepResult] = attrs.field(on_setattr=_read_only)
    object: Any = attrs.field(default=None, on_setattr=_settable)
    caller_text: str | None = attrs.field(default=None, on_setattr=_settable)
    #: the messages ``text`` is to be read from when next asked for (see ``_follow``)
    _source: MessageList | None = attrs.field(default=None, init=False, repr=False, eq=False,
                                              on_setattr=_settable)

    @property
    def text(self) -> str:
        """The response's text: its assistant messages as they stand."""
        if self._source is not None:
            object.__setattr__(self, "_text", response_text(self._source))
            object.__setattr__(self, "_source", None)
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        raise _read_only_error("text")

    def _copy(self) -> OutputResult:
        return OutputResult(self.text, self.usage, self.finish_reason, self.steps, self.object,
                            self.caller_text)

    def _set_text(self, text: str) -> None:
        """The runner's way to update ``text``."""
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_source", None)

    def _follow(self, message_list: MessageList) -> None:
        """``text`` is the text of ``message_list``'s response as it stands when next
        read (computed then: most processors never read it)."""
        object.__setattr__(self, "_source", message_list)



@attrs.define
class GenerateResult:
    """The outcome of ``agent.generate()``.

    ``messages`` are the messages this call produced; ``message_list`` the whole
    conversation. ``tripwire`` is set (and ``finish_reason`` is ``"other"``) when a
    processor stopped the run.
    """

    text: str
    finish_reason: str
    usage: Usage
    steps: list[StepResult]
    messages: list[Message]
    message_list: MessageList
    tripwire: TripwireInfo | None = None
    object: Any = None
    run_id: str = ""
    #: the audit trail (``audit``), or the run's recorder until it is first read
    _audit: Any = attrs.field(factory=list, alias="audit", eq=False, repr=False)
    #: what guards reported (``tripwire.guards.verdicts.Verdict``: warnings, redactions, ...)
    verdicts: list[Any] = attrs.field(factory=list)

    @property
    def audit(self) -> list[Any]:
        """The audit trail (``tripwire.observe.audit.AuditRecord`` list) when the run's audit is
        on, else empty. The records are built when first read: a run whose audit nobody
        reads pays only for noting the raw values."""
        audit = self._audit
        if type(audit) is not list:
            audit = self._audit = audit.records
        records: list[Any] = audit
        return records

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [c for s in self.steps if s.tripwire is None for c in s.tool_calls]

    @property
    def tool_results(self) -> list[ToolResult]:
        return [r for s in self.steps if s.tripwire is None for r in s.tool_results]


def _masked(raw_response: Any) -> Any:
    """A provider's raw response with credential headers masked (tripwire's providers
    mask them already; a third-party provider may not)."""
    if isinstance(raw_response, dict) and isinstance(raw_response.get("headers"), dict):
        from tripwire.models import mask_headers

        return {**raw_response, "headers": mask_headers(raw_response["headers"])}
    return raw_response


def response_text(message_list: MessageList) -> str:
    """The text of a run's response: its assistant messages, signals left out."""
    return "".join(
        m.text for m in message_list.response.db() if m.role == "assistant" and not m.is_signal
    )


def tripwire_info(tw: TripWire) -> TripwireInfo:
    """The ``TripwireInfo`` recorded for a ``TripWire``."""
    if getattr(tw, "model_call_cancelled", False):
        return TripwireInfo(tw.reason, tw.retry, tw.metadata, tw.processor_id,
                            model_call_cancelled=True)
    return TripwireInfo(tw.reason, tw.retry, tw.metadata, tw.processor_id)


def _merge(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    """Merge provider metadata one level deep (``{"anthropic": {...}}``)."""
    out = dict(a or {})
    for key, value in b.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


#: The chunk types besides text deltas a step's record reads (``StepAccumulator``).
_READ = frozenset({"reasoning-delta", "step-finish", "tool-call"})


class StepAccumulator:
    """A step's record: the model's chunks as they came (``raw``, kept when an input
    processor implements ``process_llm_response``), and what the step's result and
    response message need of the chunks that left the output processors, read as each
    leaves (``record``): the texts of its text deltas, its reasoning, its tool calls.
    The chunks themselves are not kept (the client's copy is the stream's)."""

    def __init__(self, step_number: int, *, from_cache: bool) -> None:
        self.step_number = step_number
        self.from_cache = from_cache
        self.raw: list[Chunk] = []
        #: the text of each text delta that left the output processors, in order (the
        #: loop appends a text delta's here itself; ``record`` takes any chunk)
        self.texts: list[str] = []
        self.finish: dict[str, Any] = {}
        self._reasoning: list[str] = []
        # The reasoning parts, with the provider metadata (signatures) providers attach
        # so the reasoning can be sent back on later steps: one per reasoning block as
        # the deltas arrive, a new one whenever the reasoning id changes. Providers send
        # one block after another; should ids interleave, the stored parts still read,
        # in order, exactly as the stream did (what guards checked), never regrouped.
        self._reasoning_parts: list[ReasoningPart] = []
        self._reasoning_id: str | None = None
        self._tool_calls: list[ToolCall] = []
        #: the tool error of each call the run does not run (its arguments are not JSON,
        #: its tool was not offered), by the call's id
        self.not_run: dict[str, str] = {}

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The tool calls among the chunks so far."""
        return self._tool_calls

    def text(self) -> str:
        """The text of the chunks so far."""
        return "".join(self.texts)

    def record(self, chunk: Chunk) -> None:
        """Read ``chunk``, which left the output processors, into the step."""
        kind = chunk.type
        if kind == "text-delta":  # (checked: it has text)
            self.texts.append(chunk.payload["text"])
        elif kind in _READ:
            self._take(chunk)

    def _take(self, chunk: Chunk) -> None:
        kind = chunk.type
        if kind == "reasoning-delta":
            p = chunk.payload
            text = p.get("text", "")
            self._reasoning.append(text)
            rid = p.get("id", "")
            if rid != self._reasoning_id or not self._reasoning_parts:
                self._reasoning_parts.append(ReasoningPart(""))
                self._reasoning_id = rid
            part = self._reasoning_parts[-1]
            part.text += text
            if p.get("provider_metadata"):
                part.provider_metadata = _merge(part.provider_metadata, p["provider_metadata"])
        elif kind == "step-finish":
            # the provider's metadata as it left the output processors (a guard that
            # checked it): what result.steps[i].provider_metadata holds
            if self.finish and "provider_metadata" in self.finish:
                self.finish = {**self.finish,
                               "provider_metadata": chunk.payload.get("provider_metadata")}
        elif kind == "tool-call":
            p = chunk.payload
            self._tool_calls.append(ToolCall(p["tool_call_id"], p["tool_name"],
                                             dict(p.get("args") or {})))
            if p.get("args_error") and p["tool_call_id"] not in self.not_run:
                raw = str(p.get("raw_args", ""))[:200]
                self.not_run[p["tool_call_id"]] = (
                    f"Tool {p['tool_name']!r} was not run: the arguments were not valid "
                    f"JSON ({p['args_error']}): {raw}")

    def result(self) -> StepResult:
        get = self.finish.get
        raw_response = get("raw_response")
        # (in StepResult's field order: step number, text, reasoning, tool calls, tool
        # results, finish reason, usage, from cache, provider metadata, warnings,
        # tripwire, request, response)
        return StepResult(
            self.step_number, "".join(self.texts), "".join(self._reasoning),
            list(self._tool_calls), [], get("finish_reason", "unknown"),
            Usage.coerce(get("usage")), self.from_cache, get("provider_metadata"),
            list(get("warnings") or ()), None, get("request"),
            None if raw_response is None else _masked(raw_response),
        )

    def message(self, data: list[DataPart]) -> Message | None:
        parts: list[Any] = []
        if self._reasoning_parts:
            parts.extend(p for p in self._reasoning_parts if p.text or p.provider_metadata)
        text = "".join(self.texts)
        if text:
            parts.append(TextPart(text))
        for call in self._tool_calls:
            parts.append(ToolInvocationPart(ToolInvocation(
                "call", call.tool_call_id, call.tool_name, call.args)))
        parts.extend(data)
        if not parts:
            return None
        message = Message.assistant("")
        message.content.parts = parts
        return message
