"""Messages and their parts, message ids, and system messages.

Messages and their parts (the stored form of a conversation), message ids, and the
coercion of what users pass (a string, a ``{role, content}`` dict) into messages and
system messages.

Messages and parts are mutable on purpose: processors may edit ``content.parts``
in place and the edit is seen by later processors and by storage.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, ClassVar, Literal

import attrs

Role = Literal["user", "assistant", "system", "tool"]
#: Where a message in a ``MessageList`` came from.
Source = Literal["input", "response", "memory"]
SOURCES: tuple[str, ...] = ("input", "response", "memory")


class _Ids:
    """Unique ids without a system call each: a random 64-bit prefix per process
    (drawn again in a forked child) and a counter; 32 hex digits, unique across
    processes and machines."""

    def __init__(self) -> None:
        self.reseed()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self.reseed)

    def reseed(self) -> None:
        self.prefix = os.urandom(8).hex()
        self.counter = itertools.count(int.from_bytes(os.urandom(6), "big"))


_ids = _Ids()


def new_id() -> str:
    """A fresh message / chunk / run id."""
    return f"{_ids.prefix}{next(_ids.counter):016x}"


def _now() -> datetime:
    return datetime.now(UTC)


# ---------------------------------------------------------------- parts


@attrs.define
class TextPart:
    text: str
    type: ClassVar[str] = "text"


@attrs.define
class ReasoningPart:
    """The model's reasoning. ``provider_metadata`` keeps what a provider needs to
    accept the reasoning back on a later call (e.g. Anthropic's thinking signature)."""

    text: str
    provider_metadata: dict[str, Any] | None = None
    type: ClassVar[str] = "reasoning"


@attrs.define
class ToolInvocation:
    """One tool call and, once it ran, its result.

    ``state`` is ``"call"`` until the tool ran, then ``"result"``. ``is_error`` marks a
    result that is the error the tool raised (given to the model as its result).
    """

    state: Literal["call", "result"]
    tool_call_id: str
    tool_name: str
    args: dict[str, Any] = attrs.field(factory=dict)
    result: Any = None
    is_error: bool = False


@attrs.define
class ToolInvocationPart:
    tool_invocation: ToolInvocation
    type: ClassVar[str] = "tool-invocation"


@attrs.define
class FilePart:
    data: str
    media_type: str
    type: ClassVar[str] = "file"


@attrs.define
class StepStartPart:
    type: ClassVar[str] = "step-start"


@attrs.define
class DataPart:
    """Custom data kept with an assistant message (from ``writer.custom``)."""

    type: str
    data: Any = None

    def __attrs_post_init__(self) -> None:
        if not self.type.startswith("data-"):
            raise ValueError(f"DataPart type must start with 'data-', got {self.type!r}")


Part = TextPart | ReasoningPart | ToolInvocationPart | FilePart | StepStartPart | DataPart


# ---------------------------------------------------------------- messages


@attrs.define
class MessageContent:
    format: int = 2
    parts: list[Part] = attrs.field(factory=list)
    content: str | None = None
    metadata: dict[str, Any] | None = None


@attrs.define
class Message:
    """One stored conversation message (the reference's ``MastraDBMessage``)."""

    id: str
    role: Role
    content: MessageContent
    created_at: datetime
    thread_id: str | None = None
    resource_id: str | None = None

    @classmethod
    def _of(cls, role: Role, parts: list[Part], metadata: dict[str, Any] | None) -> Message:
        return cls(
            id=new_id(),
            role=role,
            content=MessageContent(parts=parts, metadata=metadata),
            created_at=_now(),
        )

    @classmethod
    def user(cls, text: str, *, metadata: dict[str, Any] | None = None) -> Message:
        return cls._of("user", [TextPart(text)], metadata)

    @classmethod
    def assistant(cls, text: str, *, metadata: dict[str, Any] | None = None) -> Message:
        return cls._of("assistant", [TextPart(text)] if text else [], metadata)

    @classmethod
    def system(cls, text: str) -> Message:
        return cls._of("system", [TextPart(text)], None)

    @property
    def text(self) -> str:
        """The concatenated text parts, falling back to ``content.content``."""
        text = "".join(p.text for p in self.content.parts if type(p) is TextPart)
        if not text and isinstance(self.content.content, str):
            return self.content.content
        return text

    @property
    def tool_invocations(self) -> list[ToolInvocation]:
        return [p.tool_invocation for p in self.content.parts if type(p) is ToolInvocationPart]

    @property
    def is_signal(self) -> bool:
        """True for ``<system-reminder>`` messages added by signals or retry feedback."""
        return bool(self.content.metadata and "signal" in self.content.metadata)

    @property
    def is_caller_text(self) -> bool:
        """True for a system message that holds one string a caller gave besides its
        messages (a client tool's description or schema text, a provider option's or
        model setting's text) while the input processors run, with
        ``caller_system="input"``: it is never history, and goes back to its place in
        the model call as the processors leave it (a processor that keeps values in
        the stored messages and replaces them only in the prompt, such as
        ``pii-detector``'s ``tokenize`` with ``store="values"``, replaces them in it)."""
        return bool(self.content.metadata and CALLER_TEXT in self.content.metadata)


#: The metadata key that marks a caller's text (``Message.is_caller_text``).
CALLER_TEXT = "caller_text"


def signal_message(
    contents: str,
    *,
    attributes: dict[str, Any] | None = None,
    tag_name: str = "system-reminder",
    signal_type: str = "reactive",
) -> Message:
    """A user message ``<tag k="v">contents</tag>`` carrying a signal for the model."""
    attrs_text = "".join(f' {k}="{_escape_attr(v)}"' for k, v in (attributes or {}).items())
    text = f"<{tag_name}{attrs_text}>{contents}</{tag_name}>"
    return Message.user(
        text,
        metadata={
            "signal": {
                "type": signal_type,
                "tag_name": tag_name,
                "attributes": dict(attributes or {}),
                "contents": contents,
            }
        },
    )


def _escape_attr(value: Any) -> str:
    return str(value).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


# ---------------------------------------------------------------- system messages


def replace_untagged(current: list[dict[str, Any]], value: Any) -> list[dict[str, Any]]:
    """``current`` system messages with the untagged ones replaced by ``value``
    (coerced); tagged ones (a ``"tag"`` key) are kept, after the untagged ones, and a
    tagged one in ``value`` not there yet is added."""
    new = coerce_system_list(value)
    tagged = [s for s in current if s.get("tag")]
    return ([s for s in new if not s.get("tag")] + tagged
            + [s for s in new if s.get("tag") and s not in tagged])


def coerce_system_list(value: Any) -> list[dict[str, Any]]:
    """A list of system messages, each coerced; a bare string is rejected (it would
    otherwise become one system message per character)."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(
            "system_messages must be a list of strings or {'role': 'system', 'content': "
            f"str}} mappings, got {type(value).__name__} (wrap a single one in a list)")
    return [coerce_system(s) for s in value]


def coerce_system(message: str | dict[str, Any] | Message) -> dict[str, Any]:
    """One system message as a ``{"role": "system", "content": str}`` dict (a dict's
    other keys, such as ``tag``, are kept); anything else is a ``ValueError``."""
    if isinstance(message, str):
        return {"role": "system", "content": message}
    if isinstance(message, Message):
        return {"role": "system", "content": message.text}
    if isinstance(message, dict) and message.get("role", "system") == "system":
        content = message.get("content")
        if not isinstance(content, str):
            raise ValueError(f"a system message needs string content, got {content!r}")
        return {**message, "role": "system"}
    raise ValueError(
        f"a system message must be a string or {{'role': 'system', 'content': str}}, got {message!r}"
    )
