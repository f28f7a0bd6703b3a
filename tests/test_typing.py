"""The typed hook contract: every hookspec argument and return is annotated, and the
runtime checks of what hooks return take their keys from the TypedDicts of
``tripwire.types``."""

from __future__ import annotations

import inspect
import typing

import pytest

import tripwire.hookspecs as hookspecs
import tripwire.types as types
from tripwire import _returns


@pytest.mark.parametrize("hook", hookspecs.ALL_HOOKS)
def test_every_hookspec_argument_and_return_is_annotated(hook):
    sig = inspect.signature(getattr(hookspecs, hook))
    untyped = [name for name, p in sig.parameters.items() if p.annotation is p.empty]
    assert not untyped, f"{hook}: untyped {untyped}"
    assert sig.return_annotation not in (sig.empty, "Any"), hook


@pytest.mark.parametrize("hook", hookspecs.ALL_HOOKS)
def test_hookspec_annotations_name_real_types(hook):
    # The annotations are imported under TYPE_CHECKING: resolve them the way a type
    # checker would, against the modules they come from.
    import asyncio

    import tripwire
    from tripwire import chunks, context, messages, models, results, tools

    namespace = {
        **vars(typing), "asyncio": asyncio, **vars(tripwire), **vars(chunks),
        **vars(context), **vars(messages), **vars(results), **vars(tools),
        "Model": models.Model, **{name: getattr(types, name) for name in types.__all__},
    }
    hints = typing.get_type_hints(getattr(hookspecs, hook), globalns=namespace)
    assert set(hookspecs.COMMON_ARGS) <= set(hints)
    assert hints["abort"] is types.Abort
    assert hints["writer"] is types.Writer


@pytest.mark.parametrize(("keys", "typed_dicts"), [
    (_returns.INPUT_KEYS, [types.InputChanges]),
    (_returns.STEP_KEYS, [types.StepChanges]),
    (_returns.LLM_REQUEST_KEYS, [types.PromptChange, types.CachedResponse]),
    (_returns.TOOL_RESULT_KEYS, [types.ToolResultChange]),
])
def test_return_checks_take_their_keys_from_the_typed_dicts(keys, typed_dicts):
    expected: set[str] = set()
    for td in typed_dicts:
        expected |= td.__required_keys__ | td.__optional_keys__
    assert set(keys) == expected
    assert len(keys) == len(expected)


def test_step_keys_are_the_documented_ones():
    assert _returns.STEP_KEYS == (
        "model", "tool_choice", "active_tools", "tools", "messages", "message_list",
        "system_messages", "provider_options", "model_settings", "structured_output",
    )
