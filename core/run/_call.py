"""The options of one ``generate()`` / ``stream()`` call, resolved against the agent.

Everything a call may override (processor lists, limits, model settings, tools) is
checked and resolved here, once, before the run starts: a bad option fails the call
before any hook runs.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

import tripwire.hookspecs as hookspecs
from tripwire import registry
from tripwire.context import RequestContext
from tripwire.errors import ConfigurationError
from tripwire.hooks._lists import CompiledGroup, CompiledNode
from tripwire.hooks._validation import CompiledProcessor, HookImplInfo, compile_processor
from tripwire.option_checks import NonNegativeInt, PositiveInt, check
from tripwire.tools import Tool

if TYPE_CHECKING:
    from tripwire.agent import Agent
    from tripwire.hooks._call import BoundHook
    from tripwire.stream._pipeline import OutputPipeline

#: The keyword options ``generate()`` and ``stream()`` accept.
OPTIONS = frozenset({
    "max_steps", "max_processor_retries", "input_processors", "output_processors",
    "error_processors", "prepare_step", "request_context", "model_settings",
    "provider_options", "tool_choice", "active_tools", "structured_output", "audit",
    "memory",
    "client_tools", "caller_system",
})

#: Where the system-role messages among a call's messages go (the ``caller_system``
#: option): after the agent's instructions (the reference's way), or into the
#: conversation as input that input processors check.
CALLER_SYSTEM = ("instructions", "input")

#: API-error retries granted when error processors run and max_processor_retries is unset.
DEFAULT_API_ERROR_RETRIES = 10


@attrs.define
class StepConfig:
    """What one model call uses; ``process_input_step`` may change it for its step."""

    model: Any
    tools: dict[str, Tool]
    tool_choice: Any
    active_tools: list[str] | None
    system_messages: list[dict[str, Any]]
    provider_options: dict[str, Any]
    model_settings: dict[str, Any]
    structured_output: Any

    def for_step(self, system_messages: list[dict[str, Any]]) -> StepConfig:
        """A copy for one step (its mappings copied too, so a step's changes stay in it)."""
        return StepConfig(self.model, dict(self.tools), self.tool_choice, self.active_tools,
                          list(system_messages), dict(self.provider_options),
                          dict(self.model_settings), self.structured_output)

    def active(self) -> dict[str, Tool]:
        """The tools the model may call in this step."""
        if self.active_tools is None:
            return self.tools
        return {n: t for n, t in self.tools.items() if n in self.active_tools}


@attrs.define(eq=False)
class ParallelUnit:
    """A parallel group as one call runs it: each member a chain of units (a
    sequence member is a chain; branches are resolved)."""

    id: str
    chains: list[list[Unit]]
    member_ids: list[str]
    select: str | None

    def processors(self) -> list[CompiledProcessor]:
        return [p for chain in self.chains for p in flat(chain)]


Unit = CompiledProcessor | ParallelUnit


def flat(units: list[Unit]) -> list[CompiledProcessor]:
    """The processors of a list of units, in order (parallel members one after another)."""
    out: list[CompiledProcessor] = []
    for u in units:
        out.extend(u.processors() if isinstance(u, ParallelUnit) else [u])
    return out


def resolve_units(nodes: list[CompiledNode], request_context: RequestContext) -> list[Unit]:
    """The units one call runs: sequences spliced in place, branches decided by their
    condition on this call's request context, parallel groups kept as units."""
    out: list[Unit] = []
    for node in nodes:
        if isinstance(node, CompiledProcessor):
            out.append(node)
        elif node.shape == "sequence":
            out.extend(resolve_units(node.members, request_context))
        elif node.shape == "branch":
            out.extend(resolve_units(_choose(node, request_context), request_context))
        else:
            chains, ids = [], []
            for member in node.members:
                chain = resolve_units([member], request_context)
                if chain:
                    chains.append(chain)
                    ids.append(member.id)
            if chains:
                out.append(ParallelUnit(node.id, chains, ids, node.group.select))
    return out


def _choose(node: CompiledGroup, request_context: RequestContext) -> list[CompiledNode]:
    try:
        take = node.group.condition(request_context)
    except Exception as e:
        raise ConfigurationError(
            f"the condition of branch {node.id!r} raised {type(e).__name__}: {e}") from e
    if take:
        return [node.members[0]]
    return node.members[1:2]


@attrs.define
class Plans:
    """What the hooks of a call bind the same way for every call with the same units
    (``CallOptions.plans``: the agent's, ``Agent._plans``, when the call runs the
    agent's own lists, else the call's own). Each field is built once, by the module
    named beside it, and read as it is after that."""

    #: the processors of the three lists in order: a processor's ``processor_index``
    #: (``resolve_call``)
    indexed: list[Any] | None = None
    #: the hooks some input (output) processor implements, and whether some input
    #: processor runs ``process_input`` beside the run (``tripwire.hooks._facade``)
    hooks: tuple[frozenset[str], frozenset[str], bool] | None = None
    #: the chain of a (list, hook), when it binds nothing per call (``tripwire.hooks._binding``)
    chains: dict[tuple[str, str], list[Any]] = attrs.field(factory=dict)
    #: the output stages, when they bind nothing per call (``tripwire.hooks._binding``)
    stages: list[BoundHook] | None = None
    #: the output stages' ids, for the audit (``tripwire.observe._stagestats``)
    stage_ids: tuple[str, ...] | None = None
    #: the class of the output pipeline, whose per-chunk path is generated for the
    #: stages, by whether the audit counts and whether it traces
    #: (``tripwire.stream._pipeline.pipeline_type``)
    pipelines: dict[tuple[bool, bool], type[OutputPipeline]] = attrs.field(factory=dict)


@attrs.define
class CallOptions:
    """One call's options, resolved: processors compiled and grouped into the units
    the call runs, limits checked."""

    request_context: RequestContext
    max_steps: int
    max_retries: int | None
    inputs: list[Unit]
    outputs: list[Unit]
    errors: list[Unit]
    config: StepConfig
    #: keep an audit trail (``result.audit``)
    audit: bool = False
    #: what the hooks of a call bind the same way for every call with these units
    plans: Plans = attrs.field(factory=Plans)
    #: the caller's system-role messages are input (``caller_system="input"``)
    system_is_input: bool = False
    #: the names of the call's ``client_tools`` it offers (a name the agent has a
    #: tool for is the agent's tool)
    caller_tools: tuple[str, ...] = ()
    #: the names of the tools the run listed from servers (MCP) as it started: their
    #: definitions are input, whatever ``system_is_input`` (``tripwire.run._listed``)
    listed_tools: tuple[str, ...] = ()
    #: the agent's own ``provider_options`` and ``model_settings`` (what of the call's
    #: is not the caller's: ``tripwire.run._caller_texts``)
    own_settings: tuple[Mapping[str, Any], Mapping[str, Any]] = ({}, {})

    def processors(self, *kinds: str) -> list[CompiledProcessor]:
        """The processors of the given lists (default: all three), in order."""
        return [p for k in (kinds or ("input", "output", "error"))
                for p in flat(getattr(self, f"{k}s"))]

    @property
    def api_error_retries(self) -> int:
        """How many API-error retries a step may make."""
        if self.max_retries is not None:
            return self.max_retries
        return DEFAULT_API_ERROR_RETRIES if self.errors else 0


def resolve_call(agent: Agent, options: Mapping[str, Any]) -> CallOptions:
    """Check a call's ``options`` and resolve them against ``agent``'s defaults."""
    # The agent's own values were checked when it was built; only a call's are new.
    request_context = RequestContext()
    max_steps, max_retries = agent.max_steps, agent.max_processor_retries
    tool_choice, active_tools = agent.tool_choice, None
    provider_options, model_settings = agent.provider_options, agent.model_settings
    audit, caller_system = agent.audit, "instructions"
    callers: dict[str, Tool] = {}
    if options:
        unknown = set(options) - OPTIONS
        if unknown:
            raise TypeError(
                f"unknown option(s) {sorted(unknown)}; valid: {', '.join(sorted(OPTIONS))}"
            )
        request_context = RequestContext.coerce(options.get("request_context"))
        if options.get("memory") is not None:
            from tripwire.memory._memory import apply_call_option

            request_context = apply_call_option(request_context, options["memory"])
        if "max_steps" in options:
            max_steps = options["max_steps"]
            check("max_steps", max_steps, PositiveInt)
        if "max_processor_retries" in options:
            max_retries = options["max_processor_retries"]
            check("max_processor_retries", max_retries, NonNegativeInt | None)
        # (each step works on a copy: ``StepConfig.for_step``; the agent's own mappings
        # are not copied for a call that adds nothing to them)
        callers = client_tools(options.get("client_tools"))
        tool_choice = options.get("tool_choice", tool_choice)
        active_tools = options.get("active_tools")
        if options.get("provider_options"):
            provider_options = {**provider_options, **options["provider_options"]}
        if options.get("model_settings"):
            model_settings = {**model_settings, **options["model_settings"]}
        audit = options.get("audit", audit)
        caller_system = options.get("caller_system", caller_system)
        if caller_system not in CALLER_SYSTEM:
            raise ConfigurationError(
                f"caller_system must be {' or '.join(map(repr, CALLER_SYSTEM))}, got "
                f"{caller_system!r:.100}")
    if not isinstance(audit, bool):
        raise TypeError(f"audit must be True or False, got {audit!r}")
    units = agent._units if not options or _AGENT_LISTS.isdisjoint(options) else None
    if units is not None:  # the agent's own lists, the same for every call
        inputs, outputs, errors = units
        plans = agent._plans
    else:
        inputs, outputs, errors, plans = _call_units(agent, options, request_context)
    _index(plans, inputs, outputs, errors)
    config = StepConfig(agent.model, {**callers, **agent.tools} if callers else agent.tools,
                        tool_choice, active_tools, [], provider_options, model_settings, None)
    return CallOptions(request_context, max_steps, max_retries, inputs, outputs, errors, config,
                       audit, plans, caller_system == "input",
                       tuple(n for n in callers if n not in agent.tools) if callers else (),
                       (), (agent.provider_options, agent.model_settings))


def _call_units(agent: Agent, options: Mapping[str, Any], request_context: RequestContext
                ) -> tuple[list[Unit], list[Unit], list[Unit], Plans]:
    """The units of a call whose lists are not the agent's resolved ones (the agent's
    first call, dynamic lists, a call's own lists or options that add processors),
    and the plans they share."""

    def processors(kind: str) -> list[Unit]:
        key = f"{kind}_processors"
        nodes = agent._processor_list(kind, request_context, options[key]) if key in options \
            else agent._processor_list(kind, request_context)
        return resolve_units(nodes, request_context)

    inputs = processors("input")
    if options.get("prepare_step") is not None:
        inputs.append(prepare_step_processor(options["prepare_step"]))
    outputs = processors("output")
    if options.get("structured_output") is not None:
        so = compile_processor(structured_output_processor(options["structured_output"]))
        if all(cp.id != so.id for cp in flat(inputs)):
            inputs.append(so)
        if all(cp.id != so.id for cp in flat(outputs)):
            outputs.append(so)
    errors = processors("error")
    errors += resolve_units(
        [d for d in agent._defaults if all(d.id != e.id for e in flat(errors))],
        request_context)
    if _AGENT_LISTS.isdisjoint(options) and all(
            _static(agent._compiled[k]) for k in ("input", "output", "error")):
        agent._units = (inputs, outputs, errors)
        return inputs, outputs, errors, agent._plans
    return inputs, outputs, errors, Plans()


#: The plans whose processors last had their ``processor_index`` set (weakly held).
_indexed: list[weakref.ref[Plans] | None] = [None]


def _index(plans: Plans, inputs: list[Unit], outputs: list[Unit], errors: list[Unit]) -> None:
    """Set each processor's ``processor_index``, its place in the three lists of the
    call: unless the call before ran the same lists (a processor in several agents'
    lists has the index of the one whose call ran last)."""
    last = _indexed[0]
    if last is not None and last() is plans:
        return
    indexed = plans.indexed
    if indexed is None:
        indexed = plans.indexed = [cp.processor for cp in
                                   flat(inputs) + flat(outputs) + flat(errors)]
    for index, processor in enumerate(indexed):
        try:
            processor.processor_index = index
        except AttributeError:
            pass
    _indexed[0] = weakref.ref(plans)


def client_tools(value: Any) -> dict[str, Tool]:
    """The ``client_tools`` call option: tools the caller runs (``client_tool(...)``
    objects or ``{"name", "description", "parameters"}`` mappings). A name the agent
    has a tool for is the agent's tool: the agent runs it."""
    if value is None:
        return {}
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, list | tuple):
        raise ConfigurationError(
            f"client_tools must be a list of client_tool(...) objects or "
            f"{{'name', 'description', 'parameters'}} mappings, got {value!r:.100}")
    from tripwire.tools import client_tool

    out: dict[str, Tool] = {}
    for i, item in enumerate(value):
        try:
            if isinstance(item, Mapping):
                unknown = set(item) - {"name", "description", "parameters"}
                if unknown:
                    raise TypeError(f"unknown key(s) {sorted(unknown)}; valid: name, "
                                    f"description, parameters")
                item = client_tool(item.get("name"), item.get("description") or "",  # type: ignore[arg-type]
                                   item.get("parameters"))
            elif not (isinstance(item, Tool) and item.client_side):
                raise TypeError(f"expected client_tool(...) or a mapping, got {item!r:.80}")
        except (TypeError, ValueError) as e:
            raise ConfigurationError(f"client_tools[{i}]: {e}") from None
        if item.name in out:
            raise ConfigurationError(f"client_tools: two tools are named {item.name!r}")
        out[item.name] = item
    return out
#: The options that change a call's processor lists (else the agent's are used as
#: they are, resolved once when they hold no branch: ``Agent._units``).
_AGENT_LISTS = frozenset({"input_processors", "output_processors", "error_processors",
                          "prepare_step", "structured_output"})


def _static(nodes: list[CompiledNode] | None) -> bool:
    """True when ``nodes`` resolve to the same units for every call (a fixed list
    without branches)."""
    if nodes is None:
        return False
    return all(isinstance(n, CompiledProcessor) or (n.shape != "branch" and _static(n.members))
               for n in nodes)


def prepare_step_processor(fn: Callable[..., Any]) -> CompiledProcessor:
    """``prepare_step`` as a processor (id ``prepare-step``) whose process_input_step
    calls ``fn`` with the arguments it declares (all of them if it takes ``**kwargs``)."""
    if not callable(fn):
        raise ConfigurationError(f"prepare_step must be callable, got {type(fn).__name__}")
    spec_args = list(inspect.signature(hookspecs.process_input_step).parameters)
    params = inspect.signature(fn).parameters
    takes_all = any(p.kind is p.VAR_KEYWORD for p in params.values())
    unknown = [n for n, p in params.items()
               if p.kind is not p.VAR_KEYWORD and n not in spec_args and p.default is p.empty]
    if unknown:
        raise ConfigurationError(
            f"prepare_step declares argument(s) {unknown} that process_input_step does not "
            f"have; valid: {', '.join(spec_args)}"
        )
    wanted = spec_args if takes_all else [n for n in params if n in spec_args]

    def process_input_step(*args: Any) -> Any:  # called with every argument, in order
        values = dict(zip(spec_args, args, strict=True))
        return fn(**{k: values[k] for k in wanted})

    class _PrepareStep:
        id = "prepare-step"

    return CompiledProcessor(
        _PrepareStep(), "prepare-step",
        {"process_input_step": HookImplInfo("process_input_step", process_input_step,
                                            tuple(spec_args))},
    )


def structured_output_processor(spec: Any) -> Any:
    """The ``structured_output`` call option as a ``structured-output`` processor.

    Accepts a ``StructuredOutput`` instance, an attrs class, a JSON Schema mapping, or
    ``{"schema": ..., "name"/"schema_name": ..., "strategy": ..., ...}`` (its options).
    """
    StructuredOutput = registry.builtin(registry.PROCESSORS, "structured-output")
    if isinstance(spec, StructuredOutput):
        return spec
    if isinstance(spec, Mapping) and "schema" in spec:
        options = dict(spec)
        if "name" in options:
            options["schema_name"] = options.pop("name")
        try:
            return StructuredOutput(**options)
        except TypeError as e:
            raise ConfigurationError(f"structured_output: {e}") from None
    return StructuredOutput(spec)
