"""``prefill-error-handler``: recover when a model refuses a conversation that ends
with an assistant message.

Claude models from 4.6 on reject "assistant message prefill": a request whose last
turn is the assistant's gets ``400 invalid_request_error`` "This model does not
support assistant message prefill. The conversation must end with a user
message." Agent loops hit this after a tool-less assistant turn, a rolled-back step
or a remembered thread that ended on the assistant. This processor answers that
error once per step: it adds the user message
``<system-reminder>continue</system-reminder>`` and asks for a retry.

Every agent gets it as an error processor unless ``default_error_processors=False``.
"""

from __future__ import annotations

import re
from typing import Any

from tripwire import hookimpl
from tripwire.messages import MessageList, signal_message
from tripwire.processor import Processor

#: Provider messages that mean "the conversation may not end with the assistant".
PREFILL_ERROR_PATTERNS = (
    # Anthropic (Messages API, Bedrock, Vertex) for models without prefill support.
    re.compile(r"does not support assistant message prefill", re.I),
    # Servers that refuse a trailing assistant turn while thinking is enabled.
    re.compile(r"assistant response prefill is incompatible with enable[_\s-]?thinking", re.I),
)


def is_prefill_error(error: BaseException) -> bool:
    """True when ``error`` (its message or, for ``APICallError``, its response body)
    is a provider's refusal of assistant message prefill."""
    texts = [str(error)]
    body = getattr(error, "response_body", None)
    if isinstance(body, str):
        texts.append(body)
    return any(p.search(t) for p in PREFILL_ERROR_PATTERNS for t in texts if t)


class PrefillErrorHandler(Processor):
    """On the first prefill refusal of a step, add ``<system-reminder>continue
    </system-reminder>`` as a user message and retry the call.

    The reminder is added with source ``"input"``: it is part of the request, not of
    the model's answer, so it stays out of ``result.messages``; it is a signal
    message (``message.is_signal``), hidden from ``ui()`` views. A second refusal in
    the same step (``retry_count > 0``) is left alone, so it cannot loop.
    """

    id = "prefill-error-handler"
    name = "Prefill Error Handler"
    description = (
        "Retries once with a '<system-reminder>continue</system-reminder>' user message "
        "when the model rejects a conversation ending with an assistant message."
    )

    def __init__(self) -> None:
        """No options (written out so that ``Processor`` names a misspelt one)."""

    @hookimpl
    def process_api_error(
        self, error: BaseException, message_list: MessageList, retry_count: int
    ) -> dict[str, Any] | None:
        if retry_count > 0 or not is_prefill_error(error):
            return None
        message_list.add(signal_message("continue"), "input")
        return {"retry": True}
