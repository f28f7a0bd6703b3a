"""tripwire: every stage of an LLM agent's loop is a pluggy hook.

Processors (guardrails, rewrites, caches, budgets) are pluggy plugins; see
``tripwire.hookspecs`` for the nine lifecycle hooks.
"""

from typing import TYPE_CHECKING

from tripwire.agent import Agent, AgentStream, GenerateResult, OutputResult, StepResult
from tripwire.chunks import Chunk, ToolCall, ToolResult, Usage
from tripwire.context import RESOURCE_ID_KEY, THREAD_ID_KEY, RequestContext, TracingContext
from tripwire.errors import (
    APICallError,
    ConfigurationError,
    Error,
    MissingDependencyError,
    OptionError,
    ProcessorError,
    ProcessorValidationError,
    ToolError,
    TripWire,
)
from tripwire.hooks._call import notify_violation
from tripwire.hooks._markers import hookimpl, hookspec
from tripwire.messages import (
    DataPart,
    FilePart,
    Message,
    MessageContent,
    MessageList,
    ReasoningPart,
    StepStartPart,
    TextPart,
    ToolInvocation,
    ToolInvocationPart,
)
from tripwire.processor import Processor, ProcessorViolation, TripwireInfo
from tripwire.tools import Tool, client_tool, tool

if TYPE_CHECKING:
    from tripwire.caches.keys import build_response_cache_key
    from tripwire.groups import branch, monitor, parallel, parallel_with_model, sequence
    from tripwire.guards.judge import Judge, JudgeError
    from tripwire.guards.segments import SegmentHold
    from tripwire.guards.window import HoldBack
    from tripwire.memory import Memory

#: Names whose module is imported when the name is first used (PEP 562): an agent that
#: does not use them does not load their modules.
_LAZY = {
    "build_response_cache_key": "tripwire.caches.keys",
    **dict.fromkeys(["branch", "monitor", "parallel", "parallel_with_model", "sequence"],
                    "tripwire.groups"),
    "HoldBack": "tripwire.guards.window",
    "Judge": "tripwire.guards.judge",
    "JudgeError": "tripwire.guards.judge",
    "Memory": "tripwire.memory",
    "SegmentHold": "tripwire.guards.segments",
}

if not TYPE_CHECKING:  # a type checker reads the imports above, and flags a misspelt name

    def __getattr__(name):
        import importlib

        if name == "TripwireError":  # the old name of tripwire.Error, for one release
            from tripwire.errors import deprecated_error

            return deprecated_error(__name__)
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = globals()[name] = getattr(importlib.import_module(module), name)
        return value

    def __dir__():
        return sorted({*globals(), *_LAZY})


__all__ = [
    "APICallError",
    "Agent",
    "AgentStream",
    "GenerateResult",
    "HoldBack",
    "Judge",
    "JudgeError",
    "OutputResult",
    "StepResult",
    "Chunk",
    "ConfigurationError",
    "Error",
    "DataPart",
    "FilePart",
    "Memory",
    "Message",
    "MissingDependencyError",
    "OptionError",
    "MessageContent",
    "MessageList",
    "Processor",
    "ProcessorError",
    "ProcessorValidationError",
    "ProcessorViolation",
    "RESOURCE_ID_KEY",
    "ReasoningPart",
    "RequestContext",
    "SegmentHold",
    "StepStartPart",
    "THREAD_ID_KEY",
    "TextPart",
    "Tool",
    "ToolCall",
    "ToolError",
    "ToolInvocation",
    "ToolInvocationPart",
    "ToolResult",
    "TracingContext",
    "TripWire",
    "TripwireInfo",
    "Usage",
    "branch",
    "build_response_cache_key",
    "client_tool",
    "hookimpl",
    "hookspec",
    "monitor",
    "notify_violation",
    "parallel",
    "parallel_with_model",
    "sequence",
    "tool",
]

