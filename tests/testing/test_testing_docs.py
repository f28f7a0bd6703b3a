"""The docs on writing and testing a processor say what the code does.

The testing example of docs/writing-processors.md (its code blocks whose first line
names a file) is written into a project of its own and run with ``python -m pytest``,
exactly as written; the other examples are checked against the behaviour they
describe.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from tests.testing.test_testing_project import passed, run_pytest, write
from tripwire import Processor, ProcessorError, hookimpl, tool
from tripwire.testing import MockResponse, mock_agent

ROOT = Path(__file__).resolve().parents[2]
WRITING = ROOT / "docs" / "writing-processors.md"
HOOKS = ROOT / "docs" / "hooks.md"

FILE_MARK = re.compile(r"# ([\w-]+\.(?:py|toml))")


def blocks(doc: Path) -> list[tuple[str, str]]:
    """``(language, text)`` of every fenced code block of ``doc``."""
    return re.findall(r"^```(\w*)\n(.*?)^```", doc.read_text(), re.S | re.M)


def doc_files() -> dict[str, str]:
    """The blocks of writing-processors.md whose first line names a file."""
    files: dict[str, str] = {}
    for _, text in blocks(WRITING):
        mark = FILE_MARK.fullmatch(text.splitlines()[0])
        if mark:
            assert mark.group(1) not in files, f"{mark.group(1)} is written twice in the doc"
            files[mark.group(1)] = text
    return files


def test_the_testing_example_runs_as_written(tmp_path):
    files = doc_files()
    assert set(files) == {"content_filter.py", "stream_guard.py", "pyproject.toml",
                          "test_content_filter.py"}
    project = write(tmp_path / "docs-example", files)
    tests = re.findall(r"^(?:async )?def test_", files["test_content_filter.py"], re.M)

    passed(run_pytest(project), len(tests))


@pytest.mark.parametrize("doc", [WRITING, HOOKS], ids=lambda d: d.name)
def test_every_python_block_is_valid_python(doc):
    python = [text for lang, text in blocks(doc) if lang == "python"]
    assert python
    for text in python:
        compile(text, str(doc), "exec")


async def test_the_signature_of_abort_is_the_one_a_processor_receives():
    received = []

    class Capture(Processor):
        id = "capture"

        @hookimpl
        def process_input(self, abort):
            received.append(abort)

    await mock_agent(["ok"], input_processors=[Capture()]).generate("Hi")
    shown = f"abort{inspect.signature(received[0])}".replace("'", "")

    assert shown == ("abort(reason: str | None = None, *, retry: bool = False, "
                     "metadata: Any = None) -> NoReturn")
    assert f"\n{shown}\n" in WRITING.read_text()
    assert shown.replace("|", "\\|") in HOOKS.read_text()   # inside a table there


@tool
def lookup_customer(name: str) -> dict:
    """Look a customer up."""
    return {"name": name, "ssn": "123-45-6789"}


def redactor_from_hooks_md() -> Processor:
    """The process_tool_result example of hooks.md, as the method of a processor."""
    text = HOOKS.read_text()
    section = text[text.index("### `process_tool_result("):]
    section = section[:section.index("\n### ")]
    (code,) = [t for lang, t in re.findall(r"^```(\w*)\n(.*?)^```", section, re.S | re.M)
               if lang == "python"]
    body = "class Redactor(Processor):\n    id = 'redactor'\n\n" + "".join(
        f"    {line}" if line.strip() else line for line in code.splitlines(keepends=True))
    namespace: dict = {"Processor": Processor, "hookimpl": hookimpl}
    exec(compile(body, str(HOOKS), "exec"), namespace)
    return namespace["Redactor"]()


CALL = MockResponse(tool_calls=[{"tool_name": "lookup_customer", "args": {"name": "Ada"},
                                 "tool_call_id": "c1"}])


async def test_the_tool_result_example_of_hooks_md_replaces_what_model_and_client_see():
    agent = mock_agent([CALL, "Done."], tools=[lookup_customer],
                       output_processors=[redactor_from_hooks_md()])
    chunks = [c async for c in agent.stream("Who is Ada?")]

    redacted = {"name": "Ada", "ssn": "[REDACTED]"}
    (streamed,) = [c.payload["result"] for c in chunks if c.type == "tool-result"]
    assert streamed == redacted
    sent = [p for m in agent.model.requests[1].prompt if m["role"] == "tool"
            for p in m["content"]]
    assert "123-45-6789" not in repr(sent) and "[REDACTED]" in repr(sent)


async def test_a_tool_result_return_of_another_shape_is_a_processor_error_as_documented():
    class Wrong(Processor):
        id = "wrong"

        @hookimpl
        def process_tool_result(self, result):
            return {**result, "ssn": "[REDACTED]"}        # not {"result": ...}

    agent = mock_agent([CALL, "Done."], tools=[lookup_customer], output_processors=[Wrong()])
    with pytest.raises(ProcessorError, match="wrong"):
        await agent.generate("Who is Ada?")
    assert "Any other return is a `ProcessorError`" in " ".join(HOOKS.read_text().split())
