"""A processor list compiled: its processors validated, its groups and modes checked, ids unique.

An item of a list is a processor, a group (``tripwire.sequence`` / ``parallel`` /
``branch``), a processor with a mode, or the name of an installed processor plugin,
built through the registry as TOML's names are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

import tripwire.hookspecs as hookspecs
from tripwire.errors import ProcessorValidationError
from tripwire.groups import Branch, Parallel, ProcessorGroup, WithMode
from tripwire.hooks._validation import CompiledProcessor, compile_processor

#: The hooks a processor of each list must implement one of.
KIND_HOOKS: dict[str, tuple[str, ...]] = {
    "input": hookspecs.INPUT_HOOKS,
    "output": hookspecs.OUTPUT_HOOKS + hookspecs.TOOL_HOOKS,
    "error": hookspecs.ERROR_HOOKS,
}
KINDS = tuple(KIND_HOOKS)


def compile_list(processors: Iterable[Any] | None, kind: str) -> list[CompiledNode]:
    """Validate one processor list (``input``, ``output`` or ``error``).

    Items are processors, groups (``tripwire.sequence`` / ``parallel`` / ``branch``),
    or names of installed processor plugins (built with their default options, like
    ``"unicode-normalizer"`` in TOML; for options use
    ``tripwire.plugins.create(name, **options)``). Ids (of processors and groups) must
    be unique across the list, groups included.
    """
    if kind not in KIND_HOOKS:
        raise ValueError(f"unknown processor list kind {kind!r}; valid: {', '.join(KINDS)}")
    if processors is None:
        return []
    if isinstance(processors, str) or not isinstance(processors, Iterable):
        raise ProcessorValidationError(
            f"{kind}_processors must be a list of processors (or a callable returning one), "
            f"got {type(processors).__name__}"
        )
    seen: set[str] = set()
    return [_compile_node(p, kind, seen, where=f"{kind}_processors") for p in processors]


def _compile_node(item: Any, kind: str, seen: set[str], where: str) -> CompiledNode:
    if isinstance(item, str):
        # A plugin name, as in TOML: built with its default options (the registry's
        # discovery, and the option checks it brings, load only then).
        from tripwire.registry import discovery

        item = discovery.create(item)
    if isinstance(item, ProcessorGroup):
        _claim(item.id, seen, kind)
        inner = f"{where} > {item.id}"
        members = [_compile_node(m, kind, seen, inner) for m in item.members]
        if isinstance(item, Parallel) and kind == "error":
            raise ProcessorValidationError(
                f"parallel group {item.id!r} is in error_processors: process_api_error runs "
                f"in order and the first retry request wins; use a plain list or a sequence")
        shape = "branch" if isinstance(item, Branch) else (
            "parallel" if isinstance(item, Parallel) else "sequence")
        return CompiledGroup(item, item.id, shape, members)
    mode = None
    if isinstance(item, WithMode):
        item, mode = item.processor, item.mode
    cp = compile_processor(item)
    mode = mode if mode is not None else getattr(cp.processor, "mode", None) or "blocking"
    if mode != "blocking":
        _check_mode(cp, mode, kind, where)
        cp = attrs.evolve(cp, mode=mode)
    _claim(cp.id, seen, kind)
    relevant = KIND_HOOKS[kind]
    if not any(h in cp.impls for h in relevant):
        has = ", ".join(cp.impls) or "no hooks"
        raise ProcessorValidationError(
            f"processor {cp.id!r} is in {where} but implements none of "
            f"{', '.join(relevant)} (it implements {has})"
        )
    return cp


#: Execution modes of an input processor's ``process_input``.
MODES = ("blocking", "parallel", "monitor")


def _check_mode(cp: CompiledProcessor, mode: Any, kind: str, where: str) -> None:
    if mode not in MODES:
        raise ProcessorValidationError(
            f"processor {cp.id!r}: mode={mode!r} is not a mode; valid: {', '.join(MODES)}")
    if kind != "input":
        raise ProcessorValidationError(
            f"processor {cp.id!r} in {where} has mode={mode!r}: modes apply to input "
            f"processors (their process_input), not to {kind}_processors")
    if "process_input" not in cp.impls:
        raise ProcessorValidationError(
            f"processor {cp.id!r} has mode={mode!r} but no process_input: the mode decides "
            f"how process_input runs (its other hooks always run in order)")


def _claim(pid: str, seen: set[str], kind: str) -> None:
    if pid in seen:
        raise ProcessorValidationError(
            f"two processors in {kind}_processors have the id {pid!r}; ids must be unique "
            f"within a list, groups and their members included"
        )
    seen.add(pid)


@attrs.define(eq=False)
class CompiledGroup:
    """A validated group: its members compiled; ``shape`` is ``sequence``,
    ``parallel`` or ``branch``."""

    group: Any
    id: str
    shape: str
    members: list[CompiledNode]

    def processors(self) -> list[CompiledProcessor]:
        """Every processor in the group, nested ones and both arms of a branch."""
        return [p for m in self.members for p in processors_of(m)]


CompiledNode = CompiledProcessor | CompiledGroup


def processors_of(node: CompiledNode) -> list[CompiledProcessor]:
    return node.processors() if isinstance(node, CompiledGroup) else [node]
