"""Meta-tests: every hookspec is documented and tested (datasette's test_docs.py idea)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import tripwire
import tripwire.hookspecs as hookspecs

ROOT = Path(__file__).resolve().parents[2]


def signature_of(hook: str) -> str:
    params = inspect.signature(getattr(hookspecs, hook)).parameters
    own = [p for p in params if p not in hookspecs.COMMON_ARGS]
    return f"{hook}({', '.join(own)})"


@pytest.mark.parametrize("hook", hookspecs.ALL_HOOKS)
def test_every_hookspec_signature_is_documented(hook):
    assert f"`{signature_of(hook)}`" in (ROOT / "docs" / "hooks.md").read_text()


@pytest.mark.parametrize("hook", hookspecs.ALL_HOOKS)
def test_every_hookspec_has_a_reference_docstring(hook):
    doc = inspect.getdoc(getattr(hookspecs, hook)) or ""
    assert "Return" in doc and "Example::" in doc, hook


@pytest.mark.parametrize("hook", hookspecs.ALL_HOOKS)
def test_every_hookspec_has_a_test_named_for_it(hook):
    sources = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    assert re.search(rf"def test_hook_{hook}\b", sources), f"no test_hook_{hook}"


def test_every_hookspec_takes_the_common_arguments():
    for hook in hookspecs.ALL_HOOKS:
        params = inspect.signature(getattr(hookspecs, hook)).parameters
        assert set(hookspecs.COMMON_ARGS) <= set(params), hook


def test_public_names_are_exported():
    for name in tripwire.__all__:
        assert hasattr(tripwire, name), name


def _toml_blocks() -> list[tuple[str, int, str]]:
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
                 *sorted((ROOT / "contrib").glob("*/README.md"))]:
        text = path.read_text()
        for m in re.finditer(r"```toml\n(.*?)```", text, re.S):
            found.append((str(path.relative_to(ROOT)), text.count("\n", 0, m.start()) + 2,
                          m.group(1)))
    return found


@pytest.mark.parametrize(("path", "line", "block"), _toml_blocks(),
                         ids=lambda v: v if isinstance(v, str) and "\n" not in v else "")
def test_every_toml_block_in_the_docs_is_valid_toml(path, line, block):
    """A user copies these into a file: each must parse (Python 3.11's tomllib, TOML
    1.0: an inline table on one line)."""
    import tomllib

    try:
        tomllib.loads(block)
    except tomllib.TOMLDecodeError as e:
        pytest.fail(f"{path}:{line}: {e}")
