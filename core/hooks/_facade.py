"""A typed facade over the lifecycle hooks of one call: one method per hook.

A typed facade over the lifecycle hooks of one call (as tox 4 puts one over
``pm.hook``): one method per hook, so the loop reads like the diagram in docs/hooks.md.

Each method builds the hook's ``HookState`` and an adapter (the arguments a processor
is given, how its return is applied, what a wrapper receives), then runs the chain
``tripwire.hooks._binding`` bound: processors in list order, a wrapper around the rest of
the chain, a parallel group's members concurrently on forks of the state, merged once
all have passed.

A ``TripWire`` raised by a processor propagates to the caller (the loop decides
between a retry and the end of the run); everything else a processor does wrong is
handled in ``tripwire.hooks._returns`` and ``tripwire.hooks._call``.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable, Mapping
from types import CoroutineType
from typing import TYPE_CHECKING, Any

import attrs

from tripwire.chunks import Chunk, ToolCall
from tripwire.errors import ProcessorError
from tripwire.hooks import _returns
from tripwire.hooks._binding import Bindings, ParallelGroup
from tripwire.hooks._call import FAILED_OPEN, BoundHook, Settle, handle_failure
from tripwire.hooks._state import HookState, describe
from tripwire.hooks._validation import CompiledProcessor
from tripwire.messages import MessageList, ToolInvocation, ToolInvocationPart
from tripwire.run._call import CallOptions, StepConfig, flat
from tripwire.run._caller_texts import add_caller_texts, lift_caller_texts
from tripwire.run._modes import settle_in_order

if TYPE_CHECKING:
    from tripwire.models import Model
    from tripwire.results import OutputResult, StepResult
    from tripwire.types import SendSignal


#: Changes two parallel members may both make: the first in list order counts.
_MERGEABLE = frozenset({("retry",)})


@attrs.define
class _Adapter:
    """How one hook invocation talks to each processor of the chain."""

    hook: str
    #: each argument of the hook (common ones aside) by name: computed only for the
    #: processors that declare it
    values: Mapping[str, Callable[[HookState], Any]]
    apply: Callable[[CompiledProcessor, Any, HookState], None]
    #: what a wrapper receives as ``result = yield``
    view: Callable[[HookState], Any] = lambda state: None


class Hooks:
    """The nine hooks of one call, run over its processors as ``bindings`` binds them."""

    def __init__(self, bindings: Bindings) -> None:
        self.bindings = bindings
        self.call = bindings.call
        self.recorder = bindings.recorder
        #: the hooks some input (output) processor of the call implements: the loop
        #: calls no hook that none does
        self.input_hooks: frozenset[str]
        self.output_hooks: frozenset[str]
        #: some input processor runs ``process_input`` beside the run (``start_checks``)
        self.has_checks: bool
        found = self.call.plans.hooks
        if found is None:
            found = self.call.plans.hooks = _implemented(self.call)
        self.input_hooks, self.output_hooks, self.has_checks = found

    async def start(self, message_list: MessageList) -> dict[str, list[asyncio.Task[Any]]]:
        """The run's start: ``process_input`` of the chain, then the checks beside the
        run (``start_checks``) on what the chain left; their tasks by mode (``{}``
        when there are none). Both see
        the system messages memory recalled in the conversation, as ``memory``
        messages with role system (``MessageList.add_recalled_system``); then (even
        when the chain aborted) those go back among the system messages. With
        ``caller_system="input"`` they see the strings of the caller's tool
        definitions, provider options and model settings as input too, and those of
        the tools listed from servers (MCP) always (``tripwire.run._caller_texts``)."""
        call = self.call
        texts = (add_caller_texts(message_list, call)
                 if call.system_is_input or call.listed_tools else None)
        try:
            if "process_input" in self.input_hooks:
                await self.process_input(message_list)
            return self.start_checks(message_list) if self.has_checks else {}
        finally:
            message_list.lift_recalled_system()
            if texts:
                lift_caller_texts(message_list, texts, call)

    def start_checks(self, message_list: MessageList) -> dict[str, list[asyncio.Task[Any]]]:
        """Start ``process_input`` of the processors in ``parallel`` and ``monitor``
        mode, each on its own copy of the input; their tasks by mode."""
        tasks: dict[str, list[asyncio.Task[Any]]] = {"parallel": [], "monitor": []}
        for cp in flat(self.call.inputs):
            if cp.mode != "blocking" and "process_input" in cp.impls:
                tasks[cp.mode].append(asyncio.ensure_future(
                    self._check_input(cp, message_list.fork())))
        return tasks

    async def _check_input(self, cp: CompiledProcessor, message_list: MessageList) -> None:
        bound = self.bindings.bound(cp, "process_input")
        state = HookState(message_list)
        common = self.bindings.common(cp) if bound.run_slots else None
        settle = None
        if self.recorder is not None and bound.may_return:
            # its copy is never applied: "modified" when it changed (or returned) other
            # messages than it was given
            before = state.snapshot()

            def settle(result: Any) -> bool:
                return not (result is None or result is message_list) \
                    or not state.unchanged_since(before)

        result = (bound.call(_INPUT_VALUES, state, common) if self.recorder is None
                  else bound.recorded(_INPUT_VALUES, state, self.recorder, common, settle))
        if type(result) is CoroutineType:
            result = await result
        if result is not None and result is not FAILED_OPEN and result is not message_list:
            handle_failure(cp, "process_input", ValueError(
                f"it runs in mode={cp.mode!r}, beside the run, so it may check the input but "
                f"not change it (it returned {type(result).__name__}); make it blocking to "
                f"change the input"))

    # -- running a chain
    async def _run(self, chain: list[Any], adapter: _Adapter, state: HookState) -> None:
        recorder = self.recorder
        values = adapter.values
        for i, item in enumerate(chain):
            if type(item) is ParallelGroup:
                await self._parallel(item, adapter, state)
                state.given = None
            elif item.wrapper:
                await self._wrap(item, chain[i + 1:], adapter, state)
                return
            else:
                common = self.bindings.common(item.cp) if item.run_slots else None
                if recorder is None:
                    result = item.call(values, state, common)
                    if type(result) is CoroutineType:
                        result = await result
                    if result is None or result is FAILED_OPEN:  # nothing to apply
                        # (``HookState.ran``, inline: the chain's most common step)
                        given = state.given
                        if given is not None and (item.takes_list
                                                  or given != state.given_was):
                            state.given = None
                        continue
                    adapter.apply(item.cp, result, state)
                    state.given = None
                else:
                    if item.may_return:  # the audit: applied when recorded, to tell
                        result = item.recorded(values, state, recorder, common,  # a change
                                               _settler(item.cp, adapter, state))
                    else:  # it only ever returns None: "passed" needs no comparison
                        result = item.recorded(values, state, recorder, common)
                    if type(result) is CoroutineType:
                        result = await result
                    state.ran(item.takes_list or result is not None)
            if state.cached is not None or state.retry_by is not None:  # state.stopped
                return

    async def _wrap(
        self, bound: BoundHook, rest: list[Any], adapter: _Adapter, state: HookState
    ) -> None:
        gen = await bound.start(adapter.values, state)
        state.given = None  # (it may have changed them before its ``yield``)
        if gen is FAILED_OPEN:
            await self._run(rest, adapter, state)
            return
        try:
            await self._run(rest, adapter, state)
        except BaseException:
            bound.close(gen)
            raise
        if self.recorder is not None:  # applied when recorded (see ``_settler``)
            await bound.finish(gen, adapter.view(state), _settler(bound.cp, adapter, state))
            return
        replacement = await bound.finish(gen, adapter.view(state))
        if replacement is not None and replacement is not FAILED_OPEN:
            adapter.apply(bound.cp, replacement, state)

    async def _parallel(self, group: ParallelGroup, adapter: _Adapter, state: HookState) -> None:
        forks = [state.fork() for _ in group.chains]
        tasks = [asyncio.ensure_future(self._run(chain, adapter, fork))
                 for chain, fork in zip(group.chains, forks, strict=True)]
        # the first member in list order among those that aborted or failed ends the
        # run: a later member's abort waits for the earlier ones still running
        error = await settle_in_order(tasks)
        if error is not None:
            raise error
        select = group.unit.select
        found = [(member_id, fork.changes_since(state))  # all against the same input
                 for member_id, fork in zip(group.member_ids, forks, strict=True)
                 if select is None or member_id == select]
        applied: dict[tuple[str, ...], str] = {}
        for member_id, changes in found:
            for key in changes:
                if key in applied and key not in _MERGEABLE:
                    raise ProcessorError(group.unit.id, adapter.hook, ValueError(
                        f"members {applied[key]!r} and {member_id!r} of parallel group "
                        f"{group.unit.id!r} both changed {describe(key)}; give the group "
                        f"select='<member id>' to choose whose changes count"))
            state.apply_changes(changes)
            applied.update(dict.fromkeys(changes, member_id))

    # -- the hooks, in the order they run
    async def process_input(self, message_list: MessageList) -> None:
        chain = self.bindings.chain_of("inputs", "process_input")
        if chain:
            await self._run(chain, _PROCESS_INPUT, HookState(message_list))

    async def process_input_step(
        self, message_list: MessageList, step_number: int, steps: list[StepResult],
        config: StepConfig, send_signal: Callable[[], SendSignal],
        resolve_model: Callable[[Model | str], Model],
    ) -> None:
        """``send_signal()`` makes the step's ``send_signal`` (only when a processor
        runs)."""
        chain = self.bindings.chain_of("inputs", "process_input_step")
        if not chain:
            return
        signal = send_signal()
        values = {**_STEP_CONFIG_VALUES, "messages": _all_messages, "message_list": _message_list,
                  "step_number": lambda s: step_number, "steps": lambda s: list(steps),
                  "send_signal": lambda s: signal}

        def apply(cp: CompiledProcessor, result: Any, s: HookState) -> None:
            _returns.apply_step_overrides(s.ml, cp, result, s.cfg,
                                          s.ml.all.db(), resolve_model)

        await self._run(chain, _Adapter("process_input_step", values, apply, _stage_view),
                        HookState(message_list, config=config))

    async def process_llm_request(
        self, prompt: list[dict[str, Any]], config: StepConfig, step_number: int,
        steps: list[StepResult],
    ) -> tuple[list[dict[str, Any]], list[Chunk] | None]:
        """The prompt to send (processors may rewrite it for this call only), and the
        cached chunks when a processor answered the call itself."""
        chain = self.bindings.chain_of("inputs", "process_llm_request")
        if not chain:
            return prompt, None
        values = {"prompt": lambda s: s.prompt, "model": lambda s: config.model,
                  "step_number": lambda s: step_number, "steps": lambda s: list(steps),
                  "tools": lambda s: dict(config.active()),
                  "tool_choice": lambda s: config.tool_choice,
                  "model_settings": lambda s: _copy(config.model_settings),
                  "provider_options": lambda s: _copy(config.provider_options),
                  "structured_output": lambda s: config.structured_output}

        def apply(cp: CompiledProcessor, result: Any, s: HookState) -> None:
            new_prompt, cached = _returns.llm_request(cp, result)
            if cached is not None:
                s.cached = cached
            elif new_prompt is not None:
                s.prompt = new_prompt

        def view(s: HookState) -> dict[str, Any]:
            return {"response": s.cached} if s.cached is not None else {"prompt": s.prompt}

        state = HookState(None, prompt=prompt)
        await self._run(chain, _Adapter("process_llm_request", values, apply, view), state)
        return state.prompt or [], state.cached

    async def process_llm_response(
        self, chunks: list[Chunk], model: Model, step_number: int, steps: list[StepResult],
        step: StepResult, from_cache: bool, finish: Mapping[str, Any],
    ) -> None:
        """``steps`` are the accepted steps before ``step``, the one just answered."""
        chain = self.bindings.chain_of("inputs", "process_llm_response")
        if not chain:
            return
        values = {"chunks": lambda s: list(chunks), "model": lambda s: model,
                  "step_number": lambda s: step_number, "steps": lambda s: [*steps, step],
                  "from_cache": lambda s: from_cache,
                  "warnings": lambda s: finish.get("warnings") or [],
                  "request": lambda s: finish.get("request"),
                  "raw_response": lambda s: finish.get("raw_response")}
        await self._run(chain, _Adapter("process_llm_response", values, _ignore),
                        HookState(None))

    async def process_api_error(
        self, error: Exception, message_list: MessageList, step_number: int,
        steps: list[StepResult], retries: int,
    ) -> CompiledProcessor | None:
        """The processor that asks to retry the failed call (input, output, then error
        processors; the first to ask wins), or None. The retry limit is the caller's."""
        values = {"error": lambda s: error, "messages": _all_messages,
                  "message_list": _message_list, "step_number": lambda s: step_number,
                  "steps": lambda s: list(steps)}

        def apply(cp: CompiledProcessor, result: Any, s: HookState) -> None:
            if isinstance(result, Mapping) and result.get("retry"):
                s.retry_by = cp

        def view(s: HookState) -> dict[str, Any]:
            return {"retry": s.retry_by is not None}

        seen: set[int] = set()
        chain: list[Any] = []
        for cp in self.call.processors():
            if "process_api_error" in cp.impls and id(cp.processor) not in seen:
                seen.add(id(cp.processor))
                chain.append(self.bindings.bound(cp, "process_api_error"))
        state = HookState(message_list)
        for bound in chain:  # API-error retries of this step, not processor retries
            self.bindings.set_retry_count_of(bound, retries)
        try:
            await self._run(chain, _Adapter("process_api_error", values, apply, view), state)
        finally:
            for bound in chain:
                self.bindings.set_retry_count_of(bound, self.bindings.retry_count)
        return state.retry_by

    async def process_output_step(
        self, message_list: MessageList, step: StepResult, config: StepConfig,
        steps: list[StepResult],
    ) -> None:
        chain = self.bindings.chain_of("outputs", "process_output_step")
        if not chain:
            return
        values = {
            "messages": _all_messages, "message_list": _message_list,
            "step_number": lambda s: step.step_number,
            "finish_reason": lambda s: step.finish_reason,
            "provider_metadata": lambda s: step.provider_metadata,
            "tool_calls": lambda s: list(step.tool_calls),
            "text": lambda s: step.text, "usage": lambda s: step.usage,
            "system_messages": lambda s: list(config.system_messages),
            "steps": lambda s: list(steps),
        }

        def apply(cp: CompiledProcessor, result: Any, s: HookState) -> None:
            if not _returns.is_unchanged_step(result):
                _returns.apply_messages(s.ml, cp, "process_output_step", result,
                                        s.ml.all.db(), "response")

        await self._run(chain, _Adapter("process_output_step", values, apply, _stage_view),
                        HookState(message_list))

    async def process_tool_result(
        self, message_list: MessageList, call: ToolCall, value: Any, step_number: int,
        config: StepConfig, steps: list[StepResult],
    ) -> Any:
        """The tool's result after every output processor (``{"result": value}``
        replaces it, as does ``message_list.update_tool_invocation``)."""
        chain = self.bindings.chain_of("outputs", "process_tool_result")
        if not chain:
            return value

        def current(s: HookState) -> Any:
            found = s.ml.find_tool_invocation(call.tool_call_id)
            return found.result if found is not None else value

        values = {
            "messages": _all_messages, "message_list": _message_list,
            "step_number": lambda s: step_number, "tool_name": lambda s: call.tool_name,
            "tool_call_id": lambda s: call.tool_call_id, "args": lambda s: call.args,
            "result": current, "provider_executed": lambda s: False,
            "system_messages": lambda s: list(config.system_messages),
            "steps": lambda s: list(steps),
        }

        def apply(cp: CompiledProcessor, result: Any, s: HookState) -> None:
            replaced, new_value = _returns.tool_result(cp, result)
            if replaced:
                found = s.ml.find_tool_invocation(call.tool_call_id)
                base = found or ToolInvocation("result", call.tool_call_id, call.tool_name,
                                               call.args)
                s.ml.update_tool_invocation(ToolInvocationPart(
                    attrs.evolve(base, state="result", result=new_value)))

        await self._run(chain, _Adapter("process_tool_result", values, apply,
                                        lambda s: {"result": current(s)}),
                        HookState(message_list))
        found = message_list.find_tool_invocation(call.tool_call_id)
        return found.result if found is not None else value

    async def process_output_result(self, message_list: MessageList, output: OutputResult) -> None:
        chain = self.bindings.chain_of("outputs", "process_output_result")
        if not chain:
            return  # output.text is already the response's text
        await self._run(chain, _PROCESS_OUTPUT_RESULT, HookState(message_list, output=output))
        output._follow(message_list)


def _settler(cp: CompiledProcessor, adapter: _Adapter, state: HookState) -> Settle:
    """For the audit: what ``cp`` returns, applied to ``state`` as ``adapter`` applies
    it, and whether the state differs, by value, from what it was before ``cp`` ran
    (edits in place included): ``modified`` means something changed, not that
    something was returned."""
    before = state.snapshot()

    def settle(result: Any) -> bool:
        if result is not None and result is not FAILED_OPEN:
            adapter.apply(cp, result, state)
        return not state.unchanged_since(before)

    return settle


def _all_messages(state: HookState) -> list[Any]:
    given = state.given
    if given is None:
        message_list = state.message_list
        if message_list is None:
            raise RuntimeError("this hook has no message list")
        given = state.give(message_list.all.db())
    return given


def _response_messages(state: HookState) -> list[Any]:
    given = state.given
    if given is None:
        message_list = state.message_list
        if message_list is None:
            raise RuntimeError("this hook has no message list")
        given = state.give(message_list.response.db())
    return given


def _message_list(state: HookState) -> MessageList | None:
    return state.message_list


def _result(state: HookState) -> Any:
    # processors see result.text as the messages stand (an earlier one may have
    # edited them in place)
    output = state.output
    assert output is not None and state.message_list is not None
    if output._source is not state.message_list:  # (until a processor reads the text)
        output._follow(state.message_list)
    return output


_INPUT_VALUES: dict[str, Callable[[HookState], Any]] = {
    "messages": _all_messages,
    "system_messages": lambda s: list(s.ml.system_messages),
    "message_list": _message_list,
}


def _copy(value: Any) -> Any:
    """A mapping handed to a hook as a copy: read-only there, the call's own unchanged."""
    return copy.deepcopy(value) if isinstance(value, dict) else value


_STEP_CONFIG_VALUES: dict[str, Callable[[HookState], Any]] = {
    "system_messages": lambda s: list(s.cfg.system_messages),
    "model": lambda s: s.cfg.model,
    "tool_choice": lambda s: s.cfg.tool_choice,
    "active_tools": lambda s: s.cfg.active_tools,
    "tools": lambda s: dict(s.cfg.tools),
    "provider_options": lambda s: s.cfg.provider_options,
    "model_settings": lambda s: s.cfg.model_settings,
    "structured_output": lambda s: s.cfg.structured_output,
}
_RESULT_VALUES: dict[str, Callable[[HookState], Any]] = {
    "messages": _response_messages,
    "message_list": _message_list,
    "result": _result,
}


def _stage_view(state: HookState) -> list[Any]:
    """What a wrapper of a message hook receives: the messages after the rest of the
    chain (return a list to replace them, as a plain processor would)."""
    return state.ml.all.db()


def _apply_input(cp: CompiledProcessor, result: Any, state: HookState) -> None:
    _returns.apply_input(state.ml, cp, result, state.ml.all.db())


def _apply_output_result(cp: CompiledProcessor, result: Any, state: HookState) -> None:
    _returns.apply_messages(state.ml, cp, "process_output_result", result,
                            state.ml.response.db(), "response")


_PROCESS_INPUT = _Adapter("process_input", _INPUT_VALUES, _apply_input, _stage_view)
_PROCESS_OUTPUT_RESULT = _Adapter("process_output_result", _RESULT_VALUES,
                                  _apply_output_result, lambda s: s.ml.response.db())


def _ignore(cp: CompiledProcessor, result: Any, state: HookState) -> None:
    """``process_llm_response`` is for side effects: what it returns is not used."""


def _implemented(call: CallOptions) -> tuple[frozenset[str], frozenset[str], bool]:
    """The hooks some input (output) processor of ``call`` implements, and whether
    some input processor runs ``process_input`` beside the run."""
    inputs, outputs = flat(call.inputs), flat(call.outputs)
    return (frozenset(h for cp in inputs for h in cp.impls),
            frozenset(h for cp in outputs for h in cp.impls),
            any(cp.mode != "blocking" and "process_input" in cp.impls for cp in inputs))
