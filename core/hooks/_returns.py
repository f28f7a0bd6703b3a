"""What hooks return, checked and applied.

Each function takes one processor's return value for one hook and applies it (to the
message list, the step's configuration, ...), or reports a wrong shape as that
processor's failure (``ProcessorError``, or nothing for a fail-open processor).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tripwire.chunks import Chunk, check_chunk
from tripwire.errors import ConfigurationError
from tripwire.hooks._call import FAILED_OPEN, handle_failure
from tripwire.hooks._validation import CompiledProcessor
from tripwire.messages import Message, MessageList, coerce_system_list, replace_untagged
from tripwire.messages.serde import chunk_from_dict
from tripwire.run._call import StepConfig
from tripwire.tools import coerce_tools
from tripwire.types import (
    CachedResponse,
    InputChanges,
    PromptChange,
    StepChanges,
    ToolResultChange,
)

if TYPE_CHECKING:
    from tripwire.models import Model


def keys_of(*mappings: type) -> tuple[str, ...]:
    """The keys of TypedDicts, in declaration order: what a hook's mapping may hold."""
    keys: dict[str, None] = {}
    for td in mappings:
        keys.update(dict.fromkeys(td.__annotations__))
    return tuple(keys)


#: Keys a ``process_input`` mapping may hold.
INPUT_KEYS = keys_of(InputChanges)
#: Keys a ``process_input_step`` mapping may hold.
STEP_KEYS = keys_of(StepChanges)
#: Keys a ``process_llm_request`` mapping may hold.
LLM_REQUEST_KEYS = keys_of(PromptChange, CachedResponse)
#: Keys a ``process_tool_result`` mapping holds.
TOOL_RESULT_KEYS = keys_of(ToolResultChange)


def apply_messages(
    message_list: MessageList, cp: CompiledProcessor, hook: str, result: Any,
    stage: list[Message], source: str,
) -> None:
    """Apply a hook's ``list[Message]`` / ``MessageList`` / ``None`` return: a list is
    reconciled with the messages the hook was given (missing ones removed)."""
    if result is None or result is FAILED_OPEN or result is message_list:
        return
    if isinstance(result, MessageList):
        handle_failure(cp, hook, ValueError(
            "returned a different MessageList instance than the one passed in; mutate "
            "and return the message_list you were given"))
        return
    if isinstance(result, list):
        try:
            message_list.replace_stage(stage, result, source)  # type: ignore[arg-type]
        except (TypeError, ValueError) as e:
            handle_failure(cp, hook, e)
        return
    handle_failure(cp, hook, TypeError(
        f"{hook} must return None, the message_list or a list of Messages, got "
        f"{type(result).__name__}"))


def _known_keys(
    cp: CompiledProcessor, hook: str, result: Mapping[str, Any], valid: Sequence[str]
) -> bool:
    """True when ``result`` has only ``valid`` keys; otherwise the processor's failure
    (naming the unknown keys and the valid ones) and False."""
    unknown = set(result) - set(valid)
    if unknown:
        handle_failure(cp, hook, ValueError(
            f"unknown key(s) {sorted(unknown)}; valid: {', '.join(valid)}"))
        return False
    return True


def apply_input(
    message_list: MessageList, cp: CompiledProcessor, result: Any, stage: list[Message]
) -> None:
    """``process_input``: messages, the same MessageList, or ``{"messages",
    "system_messages"}``."""
    hook = "process_input"
    if not isinstance(result, Mapping):
        apply_messages(message_list, cp, hook, result, stage, "input")
        return
    if not _known_keys(cp, hook, result, INPUT_KEYS):
        return
    if "system_messages" in result:
        try:
            message_list.system_messages = coerce_system_list(result["system_messages"])
        except (TypeError, ValueError) as e:
            handle_failure(cp, hook, e)
            return
    if "messages" in result:
        apply_messages(message_list, cp, hook, result["messages"], stage, "input")


def apply_step_overrides(
    message_list: MessageList, cp: CompiledProcessor, result: Any, config: StepConfig,
    stage: list[Message], resolve_model: Callable[[Any], Model],
) -> None:
    """``process_input_step``: a mapping of step overrides (merged into ``config`` for
    the following processors and the model call), or messages."""
    hook = "process_input_step"
    if not isinstance(result, Mapping):
        apply_messages(message_list, cp, hook, result, stage, "input")
        return
    if not _known_keys(cp, hook, result, STEP_KEYS):
        return
    if "messages" in result and "message_list" in result:
        handle_failure(cp, hook, ValueError("return either messages or message_list, not both"))
        return
    try:
        if "model" in result and result["model"] is not None:
            config.model = resolve_model(result["model"])
        if "tools" in result:
            config.tools = coerce_tools(result["tools"])
        if "active_tools" in result:
            config.active_tools = name_list("active_tools", result["active_tools"])
        if "tool_choice" in result:
            config.tool_choice = result["tool_choice"]
        if "system_messages" in result:  # tagged ones (working memory's) are kept
            config.system_messages = replace_untagged(config.system_messages,
                                                      result["system_messages"])
        for key in ("provider_options", "model_settings"):
            if key in result:
                value = result[key]
                if not isinstance(value, Mapping):
                    raise TypeError(f"{key} must be a mapping, got {type(value).__name__}")
                setattr(config, key, dict(value))
        if "structured_output" in result:
            config.structured_output = result["structured_output"]
    except (TypeError, ValueError, ConfigurationError) as e:
        handle_failure(cp, hook, e)
        return
    if "messages" in result:
        apply_messages(message_list, cp, hook, result["messages"], stage, "input")
    elif "message_list" in result:
        apply_messages(message_list, cp, hook, result["message_list"], stage, "input")


def llm_request(
    cp: CompiledProcessor, result: Any
) -> tuple[list[dict[str, Any]] | None, list[Chunk] | None]:
    """``process_llm_request``: ``(new prompt or None, cached chunks or None)``."""
    hook = "process_llm_request"
    if result is None or result is FAILED_OPEN:
        return None, None
    if not isinstance(result, Mapping) or set(result) - set(LLM_REQUEST_KEYS):
        handle_failure(cp, hook, ValueError(
            f"process_llm_request must return None, {{'prompt': [...]}} or "
            f"{{'response': [chunks]}}, got {result!r:.200}"))
        return None, None
    if result.get("response") is not None:
        try:
            return None, cached_chunks(result["response"])
        except (TypeError, KeyError, ValueError, RecursionError) as e:
            handle_failure(cp, hook, e)
            return None, None
    if result.get("prompt") is not None:
        if not isinstance(result["prompt"], list):
            handle_failure(cp, hook, TypeError("prompt must be a list"))
            return None, None
        return result["prompt"], None
    return None, None


def cached_chunks(response: Any) -> list[Chunk]:
    """The chunks of a ``{"response": [...]}`` cache hit, each checked."""
    if not isinstance(response, list | tuple):
        raise TypeError(
            f"'response' must be a list of chunks (Chunk objects or their dicts), got "
            f"{type(response).__name__}")
    chunks = []
    for i, c in enumerate(response):
        if not isinstance(c, Chunk | Mapping):
            raise TypeError(f"response[{i}] must be a Chunk or a mapping, got "
                            f"{type(c).__name__}")
        try:
            # the model's answer, replayed in its place: never a chunk the run emits
            chunks.append(check_chunk(c if isinstance(c, Chunk) else chunk_from_dict(c),
                                      from_model=True))
        except (TypeError, KeyError, ValueError) as e:
            raise ValueError(f"response[{i}]: {e}") from None
    return chunks


def tool_result(cp: CompiledProcessor, returned: Any) -> tuple[bool, Any]:
    """``process_tool_result``: ``(True, new value)`` for ``{"result": value}``,
    ``(False, None)`` for no change."""
    if returned is None or returned is FAILED_OPEN:
        return False, None
    if not isinstance(returned, Mapping) or set(returned) != set(TOOL_RESULT_KEYS):
        shown = (f"a mapping with key(s) {sorted(map(str, returned))}"
                 if isinstance(returned, Mapping) else type(returned).__name__)
        handle_failure(cp, "process_tool_result", TypeError(
            f"process_tool_result must return None or {{'result': value}}, got {shown}"))
        return False, None
    return True, returned["result"]


def name_list(key: str, value: Any) -> list[str] | None:
    """A list of names (``active_tools``), never a bare string."""
    if value is None:
        return None
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{key} must be a list of tool names or None, got "
                        f"{type(value).__name__} (wrap a single name in a list)")
    names = list(value)
    bad = [n for n in names if not isinstance(n, str)]
    if bad:
        raise TypeError(f"{key} must hold tool names (strings), got {bad[0]!r}")
    return names


def is_unchanged_step(result: Any) -> bool:
    """``return []`` from ``process_output_step``: the reference guide's idiom for "no
    change" (next to a conditional ``abort(..., retry=True)``), never "remove all"."""
    return isinstance(result, list) and not result


__all__: Sequence[str] = (
    "INPUT_KEYS", "STEP_KEYS", "LLM_REQUEST_KEYS", "TOOL_RESULT_KEYS", "keys_of",
    "apply_messages", "apply_input", "apply_step_overrides", "llm_request",
    "cached_chunks", "tool_result", "name_list", "is_unchanged_step",
)
