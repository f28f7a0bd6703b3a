"""What one hook invocation may change, as one object the hook facade passes along a
chain of processors.

A parallel group gives each member its own ``fork()``; once all have passed, the
group applies each member's ``changes_since()`` (in list order) to the real state.
Every change is keyed by what it touched (a message id, the system messages, a step
setting, the prompt, ...), which is how two members changing the same thing are found.
"""

from __future__ import annotations

import copy
import pickle
from typing import TYPE_CHECKING, Any

import attrs

from tripwire.messages import MessageList

if TYPE_CHECKING:
    from tripwire.chunks import Chunk
    from tripwire.hooks._validation import CompiledProcessor
    from tripwire.messages import Message
    from tripwire.results import OutputResult
    from tripwire.run._call import StepConfig

_CONFIG_KEYS = ("model", "tools", "tool_choice", "active_tools", "system_messages",
                "provider_options", "model_settings", "structured_output")


@attrs.define
class HookState:
    """The message list, plus what the current hook may change besides it."""

    message_list: MessageList | None
    config: StepConfig | None = None
    prompt: list[dict[str, Any]] | None = None
    cached: list[Chunk] | None = None
    output: OutputResult | None = None
    retry_by: CompiledProcessor | None = None
    #: the ``messages`` the chain's processors are given, one list while none of them
    #: may have changed them (``give``, ``ran``), and what it held when first given
    given: list[Message] | None = attrs.field(default=None, init=False)
    given_was: list[Message] | None = attrs.field(default=None, init=False)

    # The parts a hook has, typed as present: the facade reads them only for the hooks
    # that have them (no message list around the model call, a config only for
    # process_input_step, an output only for process_output_result).
    @property
    def ml(self) -> MessageList:
        if self.message_list is None:
            raise RuntimeError("this hook has no message list")
        return self.message_list

    @property
    def cfg(self) -> StepConfig:
        if self.config is None:
            raise RuntimeError("this hook has no step configuration")
        return self.config

    @property
    def out(self) -> OutputResult:
        if self.output is None:
            raise RuntimeError("this hook has no output result")
        return self.output

    def give(self, messages: list[Message]) -> list[Message]:
        """``messages``, handed to the chain's processors from now on (``ran`` says
        when they are built anew)."""
        self.given = messages
        self.given_was = messages.copy()
        return messages

    def ran(self, changed: bool) -> None:
        """A processor ran: the next one is given its ``messages`` built anew when this
        one may have changed them (``changed``: it returned a change, or it was given
        the message list) or changed the list it was given."""
        given = self.given
        if given is not None and (changed or given != self.given_was):
            self.given = None

    @property
    def stopped(self) -> bool:
        """True once the chain must not go on: a cache answered the model call, or a
        processor asked to retry a failed one (the first wins)."""
        return self.cached is not None or self.retry_by is not None

    def fork(self) -> HookState:
        return HookState(
            None if self.message_list is None else self.message_list.fork(),
            None if self.config is None else self.config.for_step(self.config.system_messages),
            copy.deepcopy(self.prompt),
            self.cached,
            None if self.output is None else self.output._copy(),
            self.retry_by,
        )

    def changes_since(self, base: HookState) -> dict[tuple[str, ...], Any]:
        changes: dict[tuple[str, ...], Any] = {}
        if self.message_list is not None and base.message_list is not None:
            changes.update(self.message_list.changes_since(base.message_list))
        if self.config is not None and base.config is not None:
            for key in _CONFIG_KEYS:
                mine, theirs = getattr(self.config, key), getattr(base.config, key)
                if mine is not theirs and (key == "model" or mine != theirs):
                    changes[("setting", key)] = mine
        if self.prompt != base.prompt:
            changes[("prompt",)] = self.prompt
        if self.cached is not None and base.cached is None:
            changes[("response",)] = self.cached
        if self.output is not None and base.output is not None \
                and self.output.object is not base.output.object:
            changes[("object",)] = self.output.object
        if self.output is not None and base.output is not None \
                and self.output.caller_text != base.output.caller_text:
            changes[("caller_text",)] = self.output.caller_text
        if self.retry_by is not None and base.retry_by is None:
            changes[("retry",)] = self.retry_by
        return changes

    def apply_changes(self, changes: dict[tuple[str, ...], Any]) -> None:
        if self.message_list is not None:
            self.message_list.apply_changes(
                {k: v for k, v in changes.items() if k[0] in ("message", "system")})
        for key, value in changes.items():
            if key[0] == "setting":
                setattr(self.config, key[1], value)
            elif key == ("prompt",):
                self.prompt = value
            elif key == ("response",):
                self.cached = value
            elif key == ("object",) and self.output is not None:
                self.output.object = value
            elif key == ("caller_text",) and self.output is not None:
                self.output.caller_text = value
            elif key == ("retry",) and self.retry_by is None:
                self.retry_by = value


    # -- whether a processor changed anything (the audit's ``modified``)
    def snapshot(self) -> Snapshot:
        """What the state holds now, to tell later whether a processor changed it
        (``unchanged_since``): its values as pickled bytes (None when one cannot be
        pickled), the objects compared by identity (a model, the tools, the result
        object, a cached response, a retry request)."""
        values, objects = self._parts()
        try:
            data: bytes | None = pickle.dumps(values, pickle.HIGHEST_PROTOCOL)
        except Exception:  # a value pickle cannot take: any return counts as a change
            data = None
        return Snapshot(data, objects)

    def unchanged_since(self, snapshot: Snapshot) -> bool:
        """True when the state equals, by value, what ``snapshot`` saw: the messages
        (edited in place or replaced), the system messages, the step's settings, the
        prompt, the tool results and the result's text are as they were, and the
        objects it compares by identity are the same ones. Not comparable (a value
        pickle cannot take): False, a change."""
        values, objects = self._parts()
        if snapshot.data is None or len(objects) != len(snapshot.objects) or any(
                a is not b for a, b in zip(objects, snapshot.objects, strict=True)):
            return False
        try:
            now = pickle.dumps(values, pickle.HIGHEST_PROTOCOL)
        except Exception:  # (as in snapshot)
            return False
        # equal bytes are equal values; different bytes may still be (a string now
        # a copy of the one it was, a dict in another order): compare the values
        return now == snapshot.data or bool(pickle.loads(snapshot.data) == values)

    def _parts(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The state's values (compared by value) and objects (by identity)."""
        ml, cfg, out = self.message_list, self.config, self.output
        records, system = ml.checkpoint() if ml is not None else ([], [])
        settings: tuple[Any, ...] = ()
        objects: list[Any] = [self.cached, self.retry_by]
        if cfg is not None:
            settings = (tuple(cfg.tools), cfg.tool_choice, cfg.active_tools,
                        cfg.system_messages, cfg.provider_options, cfg.model_settings,
                        cfg.structured_output)
            objects.append(cfg.model)
            objects.extend(cfg.tools.values())
        if out is not None:
            objects.append(out.object)
        return ((records, system, settings, self.prompt,
                 None if out is None else out.caller_text), tuple(objects))


@attrs.frozen
class Snapshot:
    """A ``HookState`` as it was (``HookState.snapshot``)."""

    data: bytes | None
    objects: tuple[Any, ...]


def describe(key: tuple[str, ...]) -> str:
    """A change key in words, for the conflict error."""
    kind = key[0]
    if kind == "message":
        return f"message {key[1]!r}"
    if kind == "setting":
        return f"the step's {key[1]}"
    return {"system": "the system messages", "prompt": "the prompt",
            "response": "the cached response", "object": "result.object",
            "caller_text": "result.caller_text"}.get(kind, kind)
