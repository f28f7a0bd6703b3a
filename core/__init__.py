"""tripwire: every stage of an LLM agent's loop is a pluggy hook.

Processors (guardrails, rewrites, caches, budgets) are pluggy plugins; see
``tripwire.hookspecs`` for the nine lifecycle hooks.
"""

from tripwire.agent import Agent, AgentStream, GenerateResult, OutputResult, StepResult
from tripwire.caches.keys import build_response_cache_key
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
    TripWire,
)
from tripwire.groups import branch, monitor, parallel, parallel_with_model, sequence
from tripwire.guards.judge import Judge, JudgeError
from tripwire.guards.segments import SegmentHold
from tripwire.guards.window import HoldBack
from tripwire.hooks._call import notify_violation
from tripwire.hooks._markers import hookimpl, hookspec
from tripwire.memory import Memory
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


def __getattr__(name: str) -> object:
    if name == "TripwireError":
        from tripwire.errors import deprecated_error

        return deprecated_error(__name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
