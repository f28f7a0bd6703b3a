"""``tool-call-filter``: hide tool calls and their results from the model.

Long tool interactions (search results, file dumps) cost tokens on every later model
call. This processor removes them from the *outbound prompt* only, in
``process_llm_request``: the ``MessageList``, memory and ``result.messages`` keep every
call and result, so nothing is lost for storage, the UI or later processing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tripwire import Processor, hookimpl
from tripwire.agent import StepResult
from tripwire.errors import ConfigurationError
from tripwire.option_checks import NonNegativeInt, PositiveInt, check

__all__ = ["ToolCallFilter"]


class ToolCallFilter(Processor):
    """Remove tool calls and results from what the model sees; storage stays whole.

    A tool call and its result are always removed together (matched by
    ``tool_call_id``), so the prompt never holds a call without its result or a
    result without its call. An assistant message or tool message left empty is
    dropped; assistant messages that become neighbours are merged.

    Options:
        exclude (list[str] | None, default ``None``): names of the tools to filter;
            ``None`` filters every tool.
        filter_after_tool_steps (int | None, default ``None``): ``None`` filters only
            the history the call started with (tool calls not made by this call's
            steps). A number ``N`` also filters this call's own tool steps, keeping
            the results of the most recent ``N`` tool-producing steps visible (``0``
            hides even the latest results, so the model never sees what its tools
            returned: rarely what you want).
        preserve_model_output (bool, default ``False``): replace each filtered call
            with a short text part ``[tool NAME returned: RESULT]`` (``[tool NAME
            failed: ERROR]`` for errors) in the assistant message that made it; the
            arguments and the full result are dropped. Calls without a result are
            dropped without a summary.
        max_output_chars (int, default ``200``): length limit of the result text in
            such a summary (longer results end in ``...``).

    Example::

        Agent(..., input_processors=[ToolCallFilter(exclude=["web_search"],
                                                    filter_after_tool_steps=2)])
    """

    id = "tool-call-filter"
    description = "Hides tool calls and results from the model; stored history stays whole"

    def __init__(
        self,
        exclude: list[str] | None = None,
        filter_after_tool_steps: NonNegativeInt | None = None,
        preserve_model_output: bool = False,
        max_output_chars: PositiveInt = 200,
    ) -> None:
        if exclude is not None:
            if isinstance(exclude, str) or not isinstance(exclude, Iterable):
                raise ConfigurationError(
                    f"tool-call-filter: exclude must be a list of tool names or None, "
                    f"got {exclude!r}"
                )
            exclude = list(exclude)
            bad = [n for n in exclude if not isinstance(n, str) or not n]
            if bad:
                raise ConfigurationError(
                    f"tool-call-filter: exclude must hold non-empty tool names, got {bad!r}"
                )
        check("filter_after_tool_steps", filter_after_tool_steps, NonNegativeInt | None,
              owner=self.id)
        check("preserve_model_output", preserve_model_output, bool, owner=self.id)
        check("max_output_chars", max_output_chars, PositiveInt, owner=self.id)
        self.exclude = None if exclude is None else frozenset(exclude)
        self.filter_after_tool_steps = filter_after_tool_steps
        self.preserve_model_output = preserve_model_output
        self.max_output_chars = max_output_chars

    def __repr__(self) -> str:
        return (
            f"ToolCallFilter(exclude={sorted(self.exclude) if self.exclude else None!r}, "
            f"filter_after_tool_steps={self.filter_after_tool_steps!r}, "
            f"preserve_model_output={self.preserve_model_output!r})"
        )

    @hookimpl
    def process_llm_request(
        self, prompt: list[dict[str, Any]], steps: list[StepResult]
    ) -> dict[str, Any] | None:
        hidden = self._hidden_ids(prompt, steps)
        if not hidden:
            return None
        return {"prompt": self._rewrite(prompt, hidden)}

    # -- which calls to hide

    def _hidden_ids(
        self, prompt: list[dict[str, Any]], steps: list[StepResult]
    ) -> set[str | None]:
        """The ``tool_call_id``s to remove from this prompt."""
        accepted = [s for s in steps if s.tripwire is None and s.tool_calls]
        this_call = {c.tool_call_id for s in accepted for c in s.tool_calls}
        keep: set[str] = set(this_call)
        if self.filter_after_tool_steps is not None:
            recent = accepted[-self.filter_after_tool_steps:] if self.filter_after_tool_steps else []
            keep = {c.tool_call_id for s in recent for c in s.tool_calls}
        hidden: set[str | None] = set()  # None: a tool part without an id
        for part in _tool_parts(prompt):
            call_id = part.get("tool_call_id")
            if call_id in keep:
                continue
            if self.exclude is None or part.get("tool_name") in self.exclude:
                hidden.add(call_id)
        return hidden

    # -- rewriting the prompt

    def _rewrite(
        self, prompt: list[dict[str, Any]], hidden: set[str | None]
    ) -> list[dict[str, Any]]:
        results = {
            p["tool_call_id"]: p
            for p in _tool_parts(prompt)
            if p.get("type") == "tool-result" and p.get("tool_call_id") in hidden
        }
        out: list[dict[str, Any]] = []
        removed_since_kept = False
        for message in prompt:
            content = message.get("content")
            if isinstance(content, list) and any(
                _is_tool_part(p) and p.get("tool_call_id") in hidden for p in content
            ):
                parts: list[dict[str, Any]] = []
                for part in content:
                    if not (_is_tool_part(part) and part.get("tool_call_id") in hidden):
                        parts.append(part)
                    elif part["type"] == "tool-call" and self.preserve_model_output:
                        summary = self._summary(part, results.get(part["tool_call_id"]))
                        if summary is not None:
                            parts.append({"type": "text", "text": summary})
                if not parts:
                    removed_since_kept = True
                    continue
                message = {**message, "content": parts}
            previous = out[-1] if out else None
            if (
                removed_since_kept
                and previous is not None
                and previous.get("role") == "assistant" == message.get("role")
                and isinstance(previous.get("content"), list)
                and isinstance(message.get("content"), list)
            ):
                # Filtering made two assistant messages neighbours: send them as one.
                out[-1] = {**previous, "content": [*previous["content"], *message["content"]]}
            else:
                out.append(message)
            removed_since_kept = False
        return out

    def _summary(self, call: dict[str, Any], result: dict[str, Any] | None) -> str | None:
        if result is None:
            return None
        output = result.get("output")
        text = output if isinstance(output, str) else _compact_json(output)
        if len(text) > self.max_output_chars:
            text = text[: self.max_output_chars].rstrip() + "..."
        verb = "failed" if result.get("is_error") else "returned"
        return f"[tool {call.get('tool_name')} {verb}: {text}]"


def _is_tool_part(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") in ("tool-call", "tool-result")


def _tool_parts(prompt: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for message in prompt:
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if _is_tool_part(part):
                    yield part


def _compact_json(value: Any) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)
