"""Types: every hookspec argument and return is annotated, the runtime checks of what
hooks return take their keys from the TypedDicts of ``tripwire.types``, and mypy
finds no error in the package."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
import typing
from pathlib import Path

import pytest

import tripwire.hookspecs as hookspecs
import tripwire.types as types
from tripwire.hooks import _returns

ROOT = Path(__file__).resolve().parents[2]


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


# ------------------------------------------------------------------ mypy on the package


def test_mypy_finds_no_type_error_in_the_package():
    # .ci/typecheck.py runs `python -m mypy` with pyproject.toml's [tool.mypy] on the
    # package laid out as installed (setup.cfg's package_dir); tox -e lint runs it too.
    done = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "typecheck.py")],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert done.returncode == 0, f"mypy found problems:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.startswith("Success: no issues found"), done.stdout


def test_mypy_checks_a_processor_against_the_hook_types(tmp_path):
    # What a user of the typed contract gets: a return mapping with a misspelt key and
    # a wrong argument to abort are type errors; the correct processor passes.
    source = tmp_path / "budget.py"
    source.write_text(textwrap.dedent("""
        from tripwire import hookimpl
        from tripwire.types import Abort, RetryRequest, StepChanges

        class Budget:
            id = "budget"

            @hookimpl
            def process_input_step(self, step_number: int, abort: Abort) -> StepChanges | None:
                if step_number > 8:
                    abort("step budget spent", retry=True)
                return {"tool_choice": "none"} if step_number > 5 else None

            @hookimpl
            def process_api_error(self, retry_count: int) -> RetryRequest | None:
                return {"retry": True} if retry_count < 2 else None

        class Typo:
            id = "typo"

            @hookimpl
            def process_input_step(self, step_number: int, abort: Abort) -> StepChanges | None:
                if step_number > 8:
                    abort(reason=3)
                return {"tool_choise": "none"}
    """))
    done = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "typecheck.py"), str(source)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, done.stdout + done.stderr
    assert "StepChanges" in errors[1] and "[return-value]" in errors[1], errors
    assert 'Argument "reason"' in errors[0] and '"Abort"' in errors[0], errors
