"""Stream chunks, token usage and tool calls: what models emit and clients receive."""

from __future__ import annotations

import re
from typing import Any

import attrs


@attrs.define
class Usage:
    """Token counts of one model call (or the sum over a run)."""

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    reasoning_tokens: int | None = None
    cached_input_tokens: int | None = None

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.total_tokens + other.total_tokens,
            _add_optional(self.reasoning_tokens, other.reasoning_tokens),
            _add_optional(self.cached_input_tokens, other.cached_input_tokens),
        )

    @classmethod
    def coerce(cls, value: Usage | dict[str, Any] | None) -> Usage:
        if value is None:
            return cls()
        if isinstance(value, Usage):
            return value
        check_usage(value)
        usage = cls(**value) if None not in value.values() else cls(**{
            k: v for k, v in value.items() if v is not None or k not in
            ("input_tokens", "output_tokens", "total_tokens")})
        if not usage.total_tokens:
            usage.total_tokens = usage.input_tokens + usage.output_tokens
        return usage


#: The most tokens one model call may report in any count of its usage. No call comes
#: near it (the largest context windows hold about ten million tokens), and budgets'
#: counters (64-bit integers in SQLite and Redis) hold many such calls. A figure from the
#: wire that is not a whole number from 0 to this is read as this (``out_of_range``).
MAX_TOKEN_COUNT = 100_000_000


def out_of_range(usage: Usage) -> dict[str, Any]:
    """The counts of ``usage`` that are not a token count a model call can report: not an
    ``int`` from 0 to ``MAX_TOKEN_COUNT`` - less than ``MAX_TOKEN_COUNT`` for input,
    output and total tokens, since a figure the wire could not read comes as exactly
    that. ``{}`` for a usage that can be counted as it is. A budget charges such a call at
    the bound and trips (``cost-guard``)."""
    bad = {}
    for name in ("input_tokens", "output_tokens", "total_tokens"):
        count = getattr(usage, name)
        if type(count) is not int or not 0 <= count < MAX_TOKEN_COUNT:
            bad[name] = count
    return bad


def check_usage(value: Any) -> None:
    """Raise, naming what is wrong, unless ``value`` is a ``Usage`` or a mapping that
    ``Usage.coerce`` reads: known keys, each count a non-negative int or None."""
    if isinstance(value, Usage):
        return
    if not isinstance(value, dict):
        raise TypeError(f"usage must be a Usage or a mapping, got {type(value).__name__}")
    if not _USAGE_KEYS.issuperset(value):
        raise ValueError(f"unknown usage keys {sorted(value.keys() - _USAGE_KEYS)}; "
                         f"valid: {sorted(_USAGE_KEYS)}")
    for key, count in value.items():
        if count is not None and (type(count) is not int or count < 0):
            raise ValueError(
                f"usage[{key!r}] must be a non-negative int or None, got {count!r}"
            )


def _add_optional(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)


_USAGE_KEYS = frozenset(a.name for a in attrs.fields(Usage))


@attrs.define
class ToolCall:
    """A tool call the model asked for."""

    tool_call_id: str
    tool_name: str
    args: dict[str, Any] = attrs.field(factory=dict)

    @classmethod
    def coerce(cls, value: ToolCall | dict[str, Any]) -> ToolCall:
        if isinstance(value, ToolCall):
            return value
        if isinstance(value, dict):
            try:
                return cls(
                    tool_call_id=value["tool_call_id"],
                    tool_name=value["tool_name"],
                    args=dict(value.get("args") or {}),
                )
            except KeyError as e:
                raise ValueError(
                    f"a tool call mapping needs 'tool_name' and 'tool_call_id' (and 'args'); "
                    f"missing {e.args[0]!r} in {value!r}"
                ) from None
        raise TypeError(f"tool call must be a ToolCall or a mapping, got {type(value).__name__}")


@attrs.define
class ToolResult:
    """The result of one executed tool call, as the model saw it."""

    tool_call_id: str
    tool_name: str
    args: dict[str, Any]
    result: Any
    is_error: bool = False


@attrs.frozen(init=False, weakref_slot=False)
class Chunk:
    """One stream event. Immutable: a processor that changes a chunk returns a new one
    (``chunk.evolve(payload={...})``).

    Types and payload keys: ``text-delta`` {id, text}; ``reasoning-delta`` {id, text};
    ``tool-call`` {tool_call_id, tool_name, args}; ``tool-result`` {tool_call_id,
    tool_name, result}; ``tool-error`` {tool_call_id, tool_name, error}; ``step-start``
    {step_number}; ``step-finish`` {finish_reason, usage}; ``finish`` {finish_reason,
    usage}; ``step-retry`` {step_number, reason, processor_id, retry_count};
    ``tripwire`` {reason, retry, metadata, processor_id}; ``error`` {error};
    ``data-*``: the data (``payload["data"]``). A model (a provider plugin) may stream
    other types too (a citation, say): they reach the client as they are
    (``check_chunk`` checks only that the payload is a dict); see
    ``carries_other_content``. A cache replay carries none of them
    (``tripwire.caches.REPLAY_KEYS``).
    """

    type: str
    payload: dict[str, Any] = attrs.field(factory=dict)
    run_id: str | None = None
    source: str = "AGENT"
    transient: bool = False

    def __new__(cls, type: str, payload: dict[str, Any] | None = None,  # noqa: A002
                run_id: str | None = None, source: str = "AGENT",
                transient: bool = False) -> Chunk:
        # Every chunk the run makes comes through here: filled in as a ``_Fields`` (plain
        # slot stores, where attrs' frozen __init__ calls object.__setattr__ per field)
        # and made a Chunk by ``__class__`` assignment; the result is a Chunk like any
        # other (tests/stream/test_chunk.py). ``payload`` defaults to a new dict.
        if cls is not Chunk:  # a subclass may add slots: its fields set one by one
            out = object.__new__(cls)
            for name, value in (("type", type), ("payload", {} if payload is None else payload),
                                ("run_id", run_id), ("source", source),
                                ("transient", transient)):
                object.__setattr__(out, name, value)
            return out
        fields = _Fields()
        fields.type = type
        fields.payload = {} if payload is None else payload
        fields.run_id = run_id
        fields.source = source
        fields.transient = transient
        fields.__class__ = Chunk  # type: ignore[assignment]
        return fields  # type: ignore[return-value]

    def __getnewargs__(self) -> tuple[str]:
        """What copy and pickle pass to ``__new__`` (then they set every field)."""
        return (self.type,)

    def evolve(self, **changes: Any) -> Chunk:
        """A copy with ``changes`` (``type``, ``payload``, ``run_id``, ``source``,
        ``transient``) applied."""
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"Chunk.evolve() got unknown field(s) {sorted(unknown)}; valid: "
                            f"{', '.join(sorted(_FIELDS))}")
        get = changes.get
        return Chunk(get("type", self.type), get("payload", self.payload),
                     get("run_id", self.run_id), get("source", self.source),
                     get("transient", self.transient))

    @property
    def text(self) -> str:
        """The text of a text/reasoning delta (``""`` for other chunks)."""
        return self.payload.get("text", "") if self.type in _TEXTY else ""

    @property
    def is_data(self) -> bool:
        return self.type.startswith("data-")


class _Fields:
    """A ``Chunk``'s slots, writable: how tripwire builds a chunk (``Chunk.__new__``, the
    run's copy of a model's chunk): fill one in, then make it a Chunk by ``__class__``
    assignment, which Python allows between two classes with the same slots and base
    (Chunk keeps no ``__weakref__`` slot for this). The object is then a Chunk in every
    way (equality, hash, copy, pickle, ``attrs.evolve``, frozen), at about a quarter of
    the instructions of attrs' per-field ``object.__setattr__``."""

    __slots__ = ("type", "payload", "run_id", "source", "transient")
    type: str
    payload: dict[str, Any]
    run_id: str | None
    source: str
    transient: bool


_TEXTY = frozenset({"text-delta", "reasoning-delta"})

#: The chunk types the framework defines, other than ``data-*``: each guard reads the
#: ones that carry content (text, reasoning, tool calls, errors, results) by their keys;
#: the rest carry ids, counts and the framework's own reasons.
FRAMEWORK_TYPES = frozenset({
    "text-delta", "reasoning-delta", "tool-call", "tool-result", "tool-error",
    "object-result", "step-start", "step-finish", "finish", "step-retry", "tripwire",
    "error",
})


def carries_other_content(kind: str) -> bool:
    """Whether a chunk of type ``kind`` carries content no key-by-key check reads: a
    ``data-*`` chunk (what a tool, a processor or the model wrote), a ``source`` (a
    citation's url and title) or any type the framework does not define (a provider
    plugin's). The output guards check every string of such a chunk's payload, so a
    value cannot reach the client through a chunk type they do not know."""
    return kind not in FRAMEWORK_TYPES


#: The payload keys the run defines for the framework's chunk types a model sends (and
#: the step chunks the run makes of them): what the guards read by key, ids and counts.
_DEFINED_KEYS: dict[str, frozenset[str]] = {
    "text-delta": frozenset({"id", "text"}),
    "reasoning-delta": frozenset({"id", "text"}),
    "tool-call": frozenset({"tool_call_id", "tool_name", "args", "raw_args", "args_error"}),
    "step-start": frozenset({"step_number"}),
    "step-finish": frozenset({"finish_reason", "usage"}),
}


def extra_keys(chunk: Chunk) -> tuple[str, ...]:
    """The keys of a ``text-delta``, ``reasoning-delta``, ``tool-call``, ``step-start`` or
    ``step-finish`` chunk's payload besides those the run defines: a provider's
    ``provider_metadata`` (a citation's quoted text, an annotation), any key a provider
    plugin adds. They carry content no key-by-key check reads: the output guards check
    every string of them, as of a chunk that ``carries_other_content``. ``()`` for any
    other type."""
    known = _DEFINED_KEYS.get(chunk.type)
    if known is None or known.issuperset(chunk.payload):
        return ()
    return tuple(k for k in chunk.payload if k not in known)


_FIELDS = frozenset({"type", "payload", "run_id", "source", "transient"})

# Payload keys a chunk of each type must carry, with the types they must have.
_REQUIRED: dict[str, tuple[tuple[str, type | tuple[type, ...]], ...]] = {
    "text-delta": (("text", str),),
    "reasoning-delta": (("text", str),),
    "tool-call": (("tool_call_id", str), ("tool_name", str)),
    "tool-result": (("tool_call_id", str), ("tool_name", str)),
    "finish": (("finish_reason", str),),
    "step-finish": (("finish_reason", str),),
}


#: What a tool call's id must be: the ids providers give (``call_...``, ``toolu_...``,
#: ``functions.name:0``), and those of gateways that carry Gemini's thought signature
#: (base64, hundreds of characters) in the id, which must come back to them unchanged
#: (LiteLLM's ``call_<id>__thought__<signature>``). The model (or the server in front of
#: it) chooses the id and no guard reads it, yet the client, the stored thread and the
#: next prompt get it: no free text (an address, a sentence) fits in one.
TOOL_CALL_ID = re.compile(r"[A-Za-z0-9_.:+/=-]{1,4096}")
#: ``TOOL_CALL_ID`` in words, for the errors that name it.
ID_RULE = ("1-4096 letters, digits, '_', '-', '.', ':', '+', '/' or '=' (an id as providers "
           "and gateways give them)")


#: The chunk types only the run itself emits: the edges of a step, a retry that tells the
#: client to discard what it showed, the run's end (a tripwire, an error), the parsed
#: object and the results of the tools it ran (checked by ``process_tool_result`` before
#: their chunk is made; tripwire runs no tool on a provider's side). The output guards
#: read these by their keys, as the run's own word; one from a model would reach the
#: client as the run's word with whatever the model put in it.
RUN_TYPES = frozenset({"step-start", "step-finish", "step-retry", "tripwire", "error",
                       "object-result", "tool-result", "tool-error"})


def check_chunk(chunk: Any, from_model: bool = False) -> Chunk:
    """Return ``chunk`` if it has the shape its type promises; raise ``ValueError``
    naming the chunk type, the key and what is valid otherwise.

    The runner checks every chunk that comes from a model, a cache entry or a
    processor before anything reads it, so a malformed chunk becomes a clear
    ``APICallError`` / ``ProcessorError`` instead of a ``KeyError`` deep in the loop.
    ``from_model``: a model's chunk, which may not be of a type in ``RUN_TYPES`` (a model
    ends its step with ``finish``).
    """
    if type(chunk) is not Chunk:
        raise ValueError(f"expected a Chunk, got {type(chunk).__name__}")
    kind = chunk.type
    payload = chunk.payload
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"a chunk's type must be a non-empty string, got {kind!r}")
    if not isinstance(payload, dict):
        raise ValueError(f"the payload of a {kind!r} chunk must be a dict, got "
                         f"{type(payload).__name__}")
    for key, types in _REQUIRED.get(kind, ()):
        value = payload.get(key)
        if not isinstance(value, types):
            raise ValueError(
                f"a {kind!r} chunk needs payload[{key!r}] of type {_names(types)}, got "
                f"{'nothing' if key not in payload else type(value).__name__}"
            )
    if from_model and kind in RUN_TYPES:
        raise ValueError(
            f"a model's chunk cannot be of type {kind!r}: the run emits those itself (a "
            f"model streams text-delta, reasoning-delta, tool-call, source, data-* and "
            f"its own types, and ends its step with finish)")
    if kind == "tool-call":
        if not TOOL_CALL_ID.fullmatch(payload["tool_call_id"]):
            # (the id is not quoted: it is what the check keeps from the client)
            raise ValueError(f"a 'tool-call' chunk's payload['tool_call_id'] must be {ID_RULE}")
        args = payload.get("args")
        if args is not None and not isinstance(args, dict):
            raise ValueError(f"a 'tool-call' chunk's payload['args'] must be a dict, got "
                             f"{type(args).__name__}")
    elif kind in ("finish", "step-finish"):
        usage = payload.get("usage")
        if usage is not None:
            check_usage(usage)
    if kind in _TEXTY and not isinstance(payload.get("id", ""), str):
        raise ValueError(f"a {kind!r} chunk's payload['id'] must be a string, got "
                         f"{type(payload['id']).__name__}")
    return chunk


def _names(types: type | tuple[type, ...]) -> str:
    if isinstance(types, tuple):
        return " or ".join(t.__name__ for t in types)
    return types.__name__

#: Finish reasons a step or run can end with.
FINISH_REASONS = ("stop", "length", "tool-calls", "content-filter", "error", "other", "unknown")
