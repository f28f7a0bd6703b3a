"""Every ```python block of README.md and docs/ runs, so the examples cannot rot.

A page is one session, as a reader takes it: its blocks run in order in one namespace
(a block may use what an earlier one defined), top-level ``await`` allowed. A block
preceded by ``<!-- fragment -->`` (optionally with a reason: ``<!-- fragment: uses your
own PolicyJudge -->``) is a piece of a larger program, names something the reader
supplies or needs a server the page starts elsewhere: it is compiled, not run. A block
followed directly by a bare fenced block is checked to print exactly that block. Every
processor class a page defines passes the checks an agent makes when it is built (hook
names, argument names), whether or not the page builds an agent with it.

Router ids reach a fake model server on 127.0.0.1 (``OPENAI_BASE_URL`` /
``ANTHROPIC_BASE_URL``) that answers every call with ``{"flagged": false}``, a verdict a
judge accepts; the blocks run in a temporary directory (their SQLite files go there).
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_llm_server import BackgroundLLMServer, Reply
from tripwire.hooks._markers import PROJECT_NAME
from tripwire.hooks._validation import compile_processor

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n?", re.S | re.M)
FRAGMENT = re.compile(r"<!-- fragment(?::[^>]*)? -->\n\Z")


class Block:
    def __init__(self, page: Path, text: str, match: re.Match[str]) -> None:
        self.where = f"{page.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}"
        self.code = match.group(2)
        self.fragment = FRAGMENT.search(text, 0, match.start()) is not None
        shown = FENCE.match(text, match.end() + 1) if text[match.end():].startswith("\n") else None
        self.prints = shown.group(2) if shown and shown.group(1) == "" else None


def python_blocks(page: Path) -> list[Block]:
    text = page.read_text()
    return [Block(page, text, m) for m in FENCE.finditer(text) if m.group(1) == "python"]


def run(block: Block, namespace: dict[str, Any]) -> None:
    code = compile(block.code, block.where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    if block.fragment:
        return
    done = eval(code, namespace)
    if asyncio.iscoroutine(done):
        asyncio.run(done)


@pytest.fixture(scope="module")
def model_server() -> Iterator[BackgroundLLMServer]:
    with BackgroundLLMServer() as server:
        server.script(*[Reply(text='{"flagged": false}') for _ in range(200)])
        yield server


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_python_examples_of_a_page_run(page, model_server, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-docs-example")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-docs-example")
    monkeypatch.setenv("OPENAI_BASE_URL", model_server.server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", model_server.server.url)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for block in python_blocks(page):
        capsys.readouterr()
        try:
            run(block, namespace)
        except Exception as error:
            raise AssertionError(f"the example at {block.where} fails (mark it "
                                 f"<!-- fragment --> if it is not meant to run)") from error
        if block.prints is not None and not block.fragment:
            assert capsys.readouterr().out == block.prints, block.where
    for processor_class in defined_processor_classes(namespace):
        compile_processor(processor_class.__new__(processor_class))   # no options needed


def defined_processor_classes(namespace: dict[str, Any]) -> list[type]:
    marker = f"{PROJECT_NAME}_impl"
    return [value for value in namespace.values()
            if inspect.isclass(value) and value.__module__ == "__main__"
            and any(hasattr(getattr(value, name, None), marker) for name in dir(value))]


def test_the_fragment_marker_is_spelled_as_the_test_reads_it():
    """A misspelt marker would silently make a fragment a runnable block (and fail), or
    a marker on another block type would do nothing: both are caught here."""
    for page in PAGES:
        text = page.read_text()
        for marker in re.finditer(r"<!--\s*fragment[^>]*-->", text):
            rest = text[marker.end():]
            assert FRAGMENT.fullmatch(marker.group() + "\n") and rest.startswith("\n```python\n"), (
                f"{page.relative_to(ROOT)}: {marker.group()!r} must be the line just above "
                "a ```python fence")


def test_the_cli_pages_demo_prints_what_the_page_shows(tmp_path, monkeypatch, cli, only_plugins):
    """docs/cli.md's demo that needs no API key: its demo.toml, its command, the reply
    written under the command."""
    only_plugins("keyword-guard")
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "cli.md").read_text()
    config = next(m.group(2) for m in FENCE.finditer(text)
                  if m.group(1) == "toml" and m.group(2).startswith("# demo.toml\n"))
    (tmp_path / "demo.toml").write_text(config)
    commands = next(m.group(2) for m in FENCE.finditer(text)
                    if m.group(1) == "bash" and "--config demo.toml" in m.group(2))
    command, shown = commands.splitlines()[-2:]
    assert command.startswith("tripwire run ") and shown.startswith("# ")
    code, out, err = cli("run", "demo", "What is the word?", "--config", "demo.toml")
    assert command == 'tripwire run demo "What is the word?" --config demo.toml'
    assert (code, out.strip(), err) == (0, shown[2:], "")
