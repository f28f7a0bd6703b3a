"""Signals: what ``send_signal`` (an argument of ``process_input_step``) does.

A signal becomes a ``<system-reminder>`` user message: stored with the conversation,
or, when transient, seen by the current model call only. Clients see it too, as a
transient ``data-signal`` chunk (never stored).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tripwire.messages import Message, MessageList, signal_message

if TYPE_CHECKING:
    from tripwire.stream._pipeline import OutputPipeline
    from tripwire.types import SendSignal

_KEYS = ("type", "contents", "attributes", "transient", "tag_name")


def make_send_signal(
    message_list: MessageList, pipeline: OutputPipeline, transient: list[Message],
    after_first_step: Callable[[], bool],
) -> SendSignal:
    """The ``send_signal`` function of one step: transient signals go to ``transient``
    (this model call only), the others to ``message_list`` (as input before the first
    step, as response after it)."""

    async def send_signal(signal: Mapping[str, Any]) -> Message:
        if not isinstance(signal, Mapping) or not isinstance(signal.get("contents"), str):
            raise ValueError("send_signal needs a mapping with a string 'contents'")
        unknown = set(signal) - set(_KEYS)
        if unknown:
            raise ValueError(
                f"send_signal: unknown key(s) {sorted(unknown)}; valid: {', '.join(_KEYS)}")
        message = signal_message(
            signal["contents"],
            attributes=signal.get("attributes"),
            tag_name=signal.get("tag_name", "system-reminder"),
            signal_type=signal.get("type", "reactive"),
        )
        if signal.get("transient"):
            # signal_message() always sets metadata (typed Optional on MessageContent)
            message.content.metadata["signal"]["transient"] = True  # type: ignore[index]
            transient.append(message)
        else:
            message_list.add(message, "response" if after_first_step() else "input")
        await pipeline.writer().custom({
            "type": "data-signal", "transient": True, "data": {
                "type": signal.get("type", "reactive"),
                "contents": signal["contents"],
                "attributes": dict(signal.get("attributes") or {}),
                "tag_name": signal.get("tag_name", "system-reminder"),
                "transient": bool(signal.get("transient", False)),
            }})
        return message

    return send_signal
