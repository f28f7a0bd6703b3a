"""Tools: typed Python functions the model may call.

``@tool`` derives a JSON Schema from the function's signature and docstring; at call
time the model's arguments are checked and converted against the annotations by
``tripwire.option_checks.conform`` (the checker options use), so a model that sends ``"3"``
for an ``int`` gets a clear error back instead of a crash.
"""

from __future__ import annotations

import enum
import inspect
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Protocol,
    Union,
    get_args,
    get_origin,
    runtime_checkable,
)

import attrs

from tripwire.messages.serde import converter, plain_value
from tripwire.option_checks import Mismatch, Range, conform, type_text

if TYPE_CHECKING:
    from tripwire.observe._recorder import Recorder

#: Parameter names a tool function may declare to receive run services; they are
#: injected by the agent and never shown to the model.
INJECTED_PARAMS = frozenset({"writer", "request_context", "abort_signal"})
#: What a tool's name must be (OpenAI's and Anthropic's rule for function names).
TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The name a tool call is recorded and shown under when the model named a tool it was
#: not offered: the model's name, which no guard reads, reaches only the tool's error
#: (the output guards check that); no tool may have it.
UNOFFERED_TOOL = "unoffered_tool"


class ToolArgumentError(ValueError):
    """The model's arguments do not fit the tool's parameters."""


class ToolResultError(ValueError):
    """A tool returned a value the run can neither show the model nor store (a
    generator's items are read into a list; anything else without a JSON form)."""


#: What a tool may return, as the message of a ``ToolResultError`` says it.
VALID_RESULTS = (
    "str, int, float (finite), bool, None; lists, tuples, sets and dicts (str keys) of "
    "them; attrs and dataclass instances; bytes, bytearray; dates, enums, paths")


@attrs.define
class Tool:
    """A tool the model may call. ``parameters`` is a JSON Schema object.

    A *client-side* tool (``client_side=True``, made by ``client_tool``) has no
    function here: the caller runs it. A run never executes its calls; the step that
    asked for one ends the run with ``finish_reason == "tool-calls"`` and the calls on
    ``result.tool_calls`` (and as ``tool-call`` chunks), for the caller to answer.

    ``stores_arguments=True`` says the tool persists what it is given (a note, a
    memory, a CRM field): guards that hand tools real values in place of what the
    model saw (``pii-detector``'s ``tokenize`` with ``store="placeholders"``) give
    such a tool the placeholders the model wrote instead, so the data never rests in
    its store. Working memory's ``update_working_memory`` sets it.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    execute: Callable[..., Any]
    _arg_types: dict[str, Any] = attrs.field(factory=dict, repr=False, alias="arg_types")
    _injected: frozenset[str] = attrs.field(factory=frozenset, repr=False, alias="injected")
    client_side: bool = attrs.field(default=False, kw_only=True)
    #: The tool persists its arguments (see above).
    stores_arguments: bool = attrs.field(default=False, kw_only=True)
    #: What a server listed of the tool beside its description and parameters (MCP:
    #: ``title``, ``annotations``, ``outputSchema``): no model reads it, but
    #: ``tripwire mcp-proxy``'s client does, so a run checks it as input with the rest
    #: of a listed definition (``tripwire.run._caller_texts``).
    listed_fields: dict[str, Any] | None = attrs.field(default=None, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.stores_arguments, bool):
            raise ValueError(f"tool {self.name!r}: stores_arguments must be a bool (True "
                             f"when the tool persists its arguments), got "
                             f"{self.stores_arguments!r}")
        if not TOOL_NAME.fullmatch(self.name):
            raise ValueError(
                f"tool name {self.name!r} must be 1-64 letters, digits, '_' or '-'"
            )
        if self.name == UNOFFERED_TOOL:
            raise ValueError(f"tool name {UNOFFERED_TOOL!r} is reserved: calls of tools the "
                             f"model was not offered are recorded under it")

    def convert_args(self, args: dict[str, Any]) -> dict[str, Any]:
        """The model's JSON arguments converted to the function's annotated types."""
        if not isinstance(args, dict):
            raise ToolArgumentError(f"arguments must be a JSON object, got {args!r}")
        if not self._arg_types:
            return dict(args)
        unknown = set(args) - set(self._arg_types)
        if unknown:
            raise ToolArgumentError(
                f"unknown argument(s) {sorted(unknown)} for tool {self.name!r}; "
                f"valid: {sorted(self._arg_types)}"
            )
        required = self.parameters.get("required", [])
        missing = [r for r in required if r not in args]
        if missing:
            raise ToolArgumentError(f"missing required argument(s) {missing} for {self.name!r}")
        out = {}
        for key, value in args.items():
            hint = self._arg_types[key]
            if hint is inspect.Parameter.empty or hint is Any:
                out[key] = value
                continue
            try:
                out[key] = conform(value, hint)
            except Mismatch as e:
                raise ToolArgumentError(
                    f"argument {key!r} of tool {self.name!r}: {value!r} is not a valid "
                    f"{type_text(hint)} ({e.detail})"
                ) from None
        return out

    async def run(self, args: dict[str, Any], **services: Any) -> Any:
        """Call the tool with the model's arguments (and the services it declared)."""
        kwargs = self.convert_args(args)
        for name in self._injected:
            kwargs[name] = services.get(name)
        result = self.execute(**kwargs)
        if type(result) in _SIMPLE:
            return result
        if inspect.isawaitable(result):
            result = await result
        if inspect.isasyncgen(result):
            result = [item async for item in result]
        elif inspect.isgenerator(result):
            result = list(result)
        check_result(self.name, result)
        return result


@runtime_checkable
class ToolSource(Protocol):
    """Where tools come from that an agent lists when a run starts, not functions it
    holds: a server (``tripwire.mcp.MCPServer``). ``Agent(tools=[...])`` takes one
    beside its tools and asks it once for its own ``Toolset``."""

    def toolset(self) -> Toolset:
        """A new toolset for one agent: opened on first use, closed by its ``aclose``."""
        ...


class Toolset(Protocol):
    """One agent's tools from a ``ToolSource``. Their definitions come from a third
    party: every run checks their strings as input (``tripwire.run._listed``)."""

    async def open(self) -> None:
        """Connect now, not at the first run (``async with agent``)."""

    async def tools(self, recorder: Recorder | None) -> dict[str, Tool]:
        """The tools to offer this run, by name, connecting first when needed; what
        was listed goes to ``recorder``'s audit."""
        ...

    async def aclose(self) -> None:
        """Disconnect (the next ``tools`` connects again)."""


def client_tool(name: str, description: str = "", parameters: Mapping[str, Any] | None = None) -> Tool:
    """A tool the caller runs (an OpenAI client's ``tools`` entry, say): the model sees
    its name, description and JSON Schema ``parameters``; the run returns its calls
    instead of executing them (pass it in the ``client_tools`` call option)."""
    if not isinstance(name, str):
        raise TypeError(f"a client tool's name must be a string, got {type(name).__name__}")
    if not isinstance(description, str):
        raise TypeError(f"client tool {name!r}: description must be a string, got "
                        f"{type(description).__name__}")
    if parameters is not None and not isinstance(parameters, Mapping):
        raise TypeError(f"client tool {name!r}: parameters must be a JSON Schema object, got "
                        f"{type(parameters).__name__}")
    schema = dict(parameters) if parameters else {"type": "object", "properties": {}}
    return Tool(name, description, schema, _run_by_client, client_side=True)


def _run_by_client(**_: Any) -> Any:
    raise RuntimeError("a client-side tool is run by the caller, never by the agent")
#: What a tool commonly returns that is JSON as it is (no check needed).
_SIMPLE = frozenset({str, int, bool, type(None)})


def check_result(tool_name: str, value: Any) -> None:
    """Raise ``ToolResultError`` unless ``value`` has a JSON form: the run shows it to
    the model and memory stores it as such, so a value without one is refused where the
    tool returned it (the model gets the error, as for a tool that raised) rather than
    failing a later processor or reaching the model as its ``repr``."""
    if type(value) in _SIMPLE:
        return
    try:
        plain = plain_value(value)
        json.dumps(plain, allow_nan=False)
        _str_keys(plain)
    except (TypeError, ValueError, RecursionError) as e:
        raise ToolResultError(
            f"tool {tool_name!r} returned a value of type {type(value).__name__} that cannot be shown to "
            f"the model or stored ({e}); a tool returns {VALID_RESULTS} (a generator is "
            f"read into a list)") from None


def _str_keys(value: Any) -> None:
    """Raise ``TypeError`` for a mapping key in ``value`` (JSON data) that is not a
    string: ``json.dumps`` writes ``{1: "a", "1": "b"}`` as text with the key twice and
    ``{True: 1}`` as ``{"true": 1}``, so the model would read one thing on the turn the
    tool ran and memory give back another on every later one."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"a mapping key must be a string, got {type(k).__name__} {k!r:.40}")
            _str_keys(v)
    elif isinstance(value, list):
        for v in value:
            _str_keys(v)


def tool(
    fn: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    stores_arguments: bool = False,
) -> Any:
    """Turn a typed function (sync or async) into a ``Tool``.

    The description is the docstring's first paragraph; ``:param x: text`` lines (or
    Google-style ``Args:``) describe parameters. Parameters named ``writer``,
    ``request_context`` or ``abort_signal`` are injected by the agent.
    ``stores_arguments=True``: the tool persists what it is given
    (``Tool.stores_arguments``).

    Example::

        @tool
        async def lookup_customer(customer_id: str) -> dict:
            '''Look a customer up by id.'''
            return await crm.get(customer_id)
    """

    def wrap(func: Callable[..., Any]) -> Tool:
        return _make_tool(func, name=name, description=description,
                          stores_arguments=stores_arguments)

    return wrap(fn) if fn is not None else wrap


def _make_tool(func: Callable[..., Any], *, name: str | None, description: str | None,
               stores_arguments: bool = False) -> Tool:
    sig = inspect.signature(func)
    try:
        hints = typing.get_type_hints(func, include_extras=True)
    except Exception as e:  # unresolvable forward references
        raise TypeError(f"cannot read the type hints of tool {func.__name__!r}: {e}") from e
    doc = inspect.getdoc(func) or ""
    summary, param_docs = _parse_doc(doc)
    properties: dict[str, Any] = {}
    required: list[str] = []
    arg_types: dict[str, Any] = {}
    injected = set()
    for pname, param in sig.parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise TypeError(f"tool {func.__name__!r}: *args/**kwargs cannot be described to a model")
        if pname in INJECTED_PARAMS:
            injected.add(pname)
            continue
        hint = hints.get(pname, inspect.Parameter.empty)
        schema = json_schema(hint) if hint is not inspect.Parameter.empty else {}
        if pname in param_docs:
            schema = {**schema, "description": param_docs[pname]}
        if param.default is not inspect.Parameter.empty:
            try:
                schema = {**schema, "default": converter.unstructure(param.default)}
            except Exception:
                pass
        else:
            required.append(pname)
        properties[pname] = schema
        arg_types[pname] = hint
    parameters: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return Tool(
        name=name or func.__name__,
        description=description if description is not None else summary,
        parameters=parameters,
        execute=func,
        arg_types=arg_types,
        injected=frozenset(injected),
        stores_arguments=stores_arguments,
    )


def _parse_doc(doc: str) -> tuple[str, dict[str, str]]:
    summary = doc.split("\n\n", 1)[0].strip() if doc else ""
    params: dict[str, str] = {}
    for m in re.finditer(r":param\s+(\w+):\s*(.+)", doc):
        params[m.group(1)] = m.group(2).strip()
    args_block = re.search(r"^Args:\s*\n((?:[ \t]+.+\n?)+)", doc, re.M)
    if args_block:
        for m in re.finditer(r"^\s+(\w+)(?:\s*\([^)]*\))?:\s*(.+)$", args_block.group(1), re.M):
            params.setdefault(m.group(1), m.group(2).strip())
    if summary.startswith(":param") or summary.startswith("Args:"):
        summary = ""
    return " ".join(summary.split()), params


def json_schema(hint: Any) -> dict[str, Any]:
    """A JSON Schema for a Python type hint (the subset models understand)."""
    if get_origin(hint) is typing.Annotated:
        base, *meta = get_args(hint)
        schema = json_schema(base)
        for bound in (m for m in meta if isinstance(m, Range)):
            if bound.min is not None:
                schema["minimum"] = bound.min
            if bound.max is not None:
                schema["maximum"] = bound.max
        texts = [m for m in meta if isinstance(m, str)]
        return {**schema, "description": texts[0]} if texts else schema
    if hint is Any or hint is inspect.Parameter.empty:
        return {}
    if hint is type(None):
        return {"type": "null"}
    if hint is str:
        return {"type": "string"}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is float:
        return {"type": "number"}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return {"enum": [m.value for m in hint]}
    if attrs.has(hint):
        fields = attrs.fields(hint)
        field_hints = typing.get_type_hints(hint)
        return {
            "type": "object",
            "properties": {f.name: json_schema(field_hints.get(f.name, Any)) for f in fields},
            "required": [f.name for f in fields if f.default is attrs.NOTHING],
            "additionalProperties": False,
        }
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (Union, types.UnionType):
        options = [json_schema(a) for a in args]
        return {"anyOf": options}
    if origin in (list, tuple, set, frozenset) or hint in (list, tuple, set):
        item = json_schema(args[0]) if args else {}
        return {"type": "array", "items": item}
    if origin is dict or hint is dict:
        mapping: dict[str, Any] = {"type": "object"}
        if len(args) == 2:
            mapping["additionalProperties"] = json_schema(args[1])
        return mapping
    raise TypeError(f"cannot describe type {hint!r} as JSON Schema for a tool parameter")


def coerce_tools(tools: Any) -> dict[str, Tool]:
    """``{name: Tool}`` from a list of tools / decorated functions, or a mapping."""
    return split_tools(tools)[0]


def split_tools(tools: Any) -> tuple[dict[str, Tool], list[ToolSource]]:
    """``{name: Tool}`` from a list of tools / decorated functions, or a mapping; and the
    tool sources (MCP servers) among them, in order."""
    if tools is None:
        return {}, []
    if isinstance(tools, str | bytes) or not isinstance(tools, Iterable | Mapping):
        raise TypeError(
            "tools must be a list of tools (or @tool functions) or a mapping name -> tool, "
            f"got {type(tools).__name__}: {tools!r:.80}")
    items = tools.values() if isinstance(tools, Mapping) else tools
    out: dict[str, Tool] = {}
    sources: list[ToolSource] = []
    for t in items:
        if not isinstance(t, Tool) and isinstance(t, ToolSource):
            sources.append(t)
            continue
        if not isinstance(t, Tool):
            if callable(t):
                t = _make_tool(t, name=None, description=None)
            else:
                raise TypeError(f"expected a Tool or a function, got {type(t).__name__}: {t!r}")
        if t.name in out:
            raise ValueError(f"two tools are named {t.name!r}")
        out[t.name] = t
    return out, sources
