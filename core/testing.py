"""Test helpers for users of tripwire: a scripted model.

``MockModel`` is a product feature: use it in your own tests and demos to run an
agent, with all its processors, without a provider or an API key.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import Any

import attrs

from tripwire.chunks import Chunk, ToolCall, Usage
from tripwire.messages import new_id
from tripwire.models import ModelRequest

__all__ = ["MockModel", "MockResponse"]


class MockModelExhausted(AssertionError):
    """The mock model was called more times than it has responses."""


@attrs.define
class MockResponse:
    """One scripted model response.

    ``text`` streams as several ``text-delta`` chunks (one per word); ``tool_calls``
    are mappings ``{"tool_name", "args", "tool_call_id"}`` or ``ToolCall`` objects;
    ``finish_reason`` defaults to ``"tool-calls"`` when there are tool calls, else
    ``"stop"``; ``error`` is raised instead of streaming; ``chunks`` gives the exact
    chunk sequence (a ``finish`` chunk is added if it has none).
    """

    text: str = ""
    tool_calls: list[Any] = attrs.field(factory=list)
    reasoning: str | None = None
    finish_reason: str | None = None
    usage: Any = None
    error: BaseException | None = None
    chunks: list[Any] | None = None

    @classmethod
    def coerce(cls, value: MockResponse | Mapping[str, Any] | str) -> MockResponse:
        if isinstance(value, MockResponse):
            return value
        if isinstance(value, str):
            return cls(text=value)
        if isinstance(value, Mapping):
            known = {a.name for a in attrs.fields(cls)}
            unknown = set(value) - known
            if unknown:
                raise ValueError(
                    f"unknown MockResponse key(s) {sorted(unknown)}; valid: {sorted(known)}"
                )
            return cls(**value)
        raise TypeError(
            f"a mock response must be a MockResponse, a mapping or a str, got {type(value).__name__}"
        )


def _split_words(text: str) -> list[str]:
    return re.findall(r"\S+\s*|\s+", text) or ([text] if text else [])


def _count_words(prompt: list[dict[str, Any]]) -> int:
    n = 0
    for message in prompt:
        content = message.get("content")
        if isinstance(content, str):
            n += len(content.split())
        elif isinstance(content, list):
            for part in content:
                if isinstance(part.get("text"), str):
                    n += len(part["text"].split())
    return n


class MockModel:
    """A scripted model: each call streams the next ``MockResponse``.

    ``requests`` records every ``ModelRequest`` received (``.prompt``, ``.tools``,
    ``.tool_choice``, ``.model_settings``, ...), so tests can assert what the model
    saw. Usage, unless scripted, counts words: prompt words in, text words out.
    ``chunk_delay`` (seconds) slows the stream, to test cancellation.
    ``closed_early`` counts streams closed before they finished (cancellation).
    """

    provider = "mock"

    def __init__(
        self,
        responses: Iterable[MockResponse | Mapping[str, Any] | str] = (),
        *,
        model_id: str = "mock-model",
        chunk_delay: float = 0.0,
    ) -> None:
        self.model_id = model_id
        self.responses = [MockResponse.coerce(r) for r in responses]
        self.requests: list[ModelRequest] = []
        self.chunk_delay = chunk_delay
        self.closed_early = 0
        self._next = 0

    def __repr__(self) -> str:
        return f"MockModel({len(self.responses)} responses, {len(self.requests)} calls)"

    def add_responses(self, *responses: MockResponse | Mapping[str, Any] | str) -> None:
        self.responses.extend(MockResponse.coerce(r) for r in responses)

    async def stream(self, request: ModelRequest) -> AsyncIterator[Chunk]:
        self.requests.append(request)
        if self._next >= len(self.responses):
            raise MockModelExhausted(
                f"MockModel was called {len(self.requests)} times but has only "
                f"{len(self.responses)} response(s); add more with add_responses()"
            )
        response = self.responses[self._next]
        self._next += 1
        if response.error is not None:
            raise response.error
        finished = False
        try:
            for chunk in self._chunks(response, request):
                if self.chunk_delay:
                    await asyncio.sleep(self.chunk_delay)
                yield chunk
            finished = True
        finally:
            if not finished:
                self.closed_early += 1

    def _chunks(self, response: MockResponse, request: ModelRequest) -> list[Chunk]:
        if response.chunks is not None:
            chunks = [c if isinstance(c, Chunk) else _chunk_of(c) for c in response.chunks]
            if not any(c.type == "finish" for c in chunks):
                chunks.append(
                    Chunk("finish", {"finish_reason": response.finish_reason or "stop",
                                     "usage": Usage.coerce(response.usage)})
                )
            return chunks
        chunks = []
        if response.reasoning:
            rid = new_id()
            chunks.extend(
                Chunk("reasoning-delta", {"id": rid, "text": w})
                for w in _split_words(response.reasoning)
            )
        tid = new_id()
        chunks.extend(Chunk("text-delta", {"id": tid, "text": w}) for w in _split_words(response.text))
        calls = []
        for call in response.tool_calls:
            if isinstance(call, Mapping) and "tool_call_id" not in call:
                call = {**call, "tool_call_id": f"call_{new_id()[:8]}"}
            calls.append(ToolCall.coerce(call))
        chunks.extend(
            Chunk("tool-call", {"tool_call_id": c.tool_call_id, "tool_name": c.tool_name,
                                "args": c.args})
            for c in calls
        )
        if response.usage is not None:
            usage = Usage.coerce(response.usage)
        else:
            out = len(response.text.split())
            inp = _count_words(request.prompt)
            usage = Usage(inp, out, inp + out)
        reason = response.finish_reason or ("tool-calls" if calls else "stop")
        chunks.append(Chunk("finish", {"finish_reason": reason, "usage": usage}))
        return chunks


def _chunk_of(value: Any) -> Chunk:
    if isinstance(value, Mapping) and "type" in value:
        from tripwire._serde import chunk_from_dict

        if "payload" in value:
            return chunk_from_dict(dict(value))
        return chunk_from_dict({"type": value["type"],
                                "payload": {k: v for k, v in value.items() if k != "type"}})
    raise TypeError(f"a scripted chunk must be a Chunk or a mapping with 'type', got {value!r}")
