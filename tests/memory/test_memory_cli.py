"""``tripwire memory`` (threads, show, delete) and ``tripwire run --thread/--resource``
with ``memory = { store = ... }`` in TOML: an agent remembers across invocations."""

from __future__ import annotations

import asyncio
import json
import textwrap

import pytest

from tripwire import Chunk, Message, ToolInvocation, ToolInvocationPart, Usage
from tripwire.memory import open_store
from tripwire.models import register_provider


class Echo:
    """Answers with the texts of the prompt's user and assistant messages."""

    provider = "echo"

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    async def stream(self, request):
        seen = [p["content"][0]["text"] for p in request.prompt if p["role"] != "system"]
        yield Chunk("text-delta", {"id": "t", "text": json.dumps(seen)})
        yield Chunk("finish", {"finish_reason": "stop", "usage": Usage(1, 1, 2)})


@pytest.fixture
def config(tmp_path, fake_distributions):
    register_provider("echo", Echo)
    path = tmp_path / "tripwire.toml"
    path.write_text(textwrap.dedent(f"""
        [agents.chat]
        model = "echo/v1"
        memory = {{ store = "sqlite:///{tmp_path}/chat.db" }}
    """), encoding="utf-8")
    return path


def test_an_agent_remembers_across_run_invocations(config, cli):
    code, out, _ = cli("run", "chat", "I am Ann", "-c", str(config), "--thread", "t1",
                       "--resource", "ann")
    assert code == 0 and json.loads(out) == ["I am Ann"]
    code, out, _ = cli("run", "chat", "Who am I?", "-c", str(config), "--thread", "t1")
    assert json.loads(out) == ["I am Ann", '["I am Ann"]', "Who am I?"]
    code, out, _ = cli("run", "chat", "Fresh", "-c", str(config), "--thread", "t2")
    assert json.loads(out) == ["Fresh"]
    code, out, _ = cli("run", "chat", "No thread", "-c", str(config))
    assert json.loads(out) == ["No thread"]


@pytest.fixture
async def url(tmp_path):
    url = f"sqlite:///{tmp_path}/m.db"
    async with open_store(url) as s:
        await s.save_messages("t1", "ann", [Message.user("hello"), Message.assistant("hi")])
        await s.save_messages("t2", "ann", [Message.user("again")])
        await s.save_messages("t3", "bob", [Message.user("bob here")])
        await s.update_working_memory("resource:ann", lambda old: "# Ann")
    return url


def test_threads_lists_every_thread_or_a_resources(url, cli):
    code, out, _ = cli("memory", "threads", "--store", url)
    assert code == 0 and [line.split("\t")[0] for line in out.splitlines()] == ["t3", "t2", "t1"]
    code, out, _ = cli("memory", "threads", "--store", url, "--resource", "ann", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["message_count"]) for r in rows] == [("t2", 1), ("t1", 2)]


def test_show_prints_a_thread(url, cli):
    code, out, _ = cli("memory", "show", "t1", "--store", url)
    assert out.splitlines() == ["user: hello", "assistant: hi"]
    code, out, _ = cli("memory", "show", "t1", "--store", url, "--json", "--last", "1")
    assert json.loads(out)["content"]["parts"] == [{"type": "text", "text": "hi"}]
    code, _, err = cli("memory", "show", "nope", "--store", url)
    assert code == 1 and "no thread 'nope'" in err


async def test_show_prints_a_tool_result_of_bytes_as_the_model_reads_it(tmp_path, cli):
    url = f"sqlite:///{tmp_path}/b.db"
    call = Message.assistant("")
    call.content.parts = [ToolInvocationPart(ToolInvocation("result", "c1", "read", {},
                                                            {"page": b"hello"}))]
    async with open_store(url) as s:
        await s.save_messages("t1", "ann", [call])
    code, out, _ = await asyncio.to_thread(cli, "memory", "show", "t1", "--store", url)
    assert code == 0 and out.splitlines() == ['assistant: [tool read({}) -> {"page": "hello"}]']


@pytest.mark.parametrize("last", ["0", "-1", "x", "1.5"])
def test_show_last_takes_a_whole_number_of_at_least_one(url, cli, capsys, last):
    # --last 0 printed the whole thread and --last -1 nothing, both with exit code 0
    with pytest.raises(SystemExit) as exited:
        cli("memory", "show", "t1", "--store", url, "--last", last)
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == ""
    assert f"argument --last: expects a whole number >= 1, got '{last}'" in err


def test_show_last_n_prints_the_last_n_messages(url, cli):
    code, out, _ = cli("memory", "show", "t1", "--store", url, "--last", "1")
    assert code == 0 and out.splitlines() == ["assistant: hi"]
    code, out, _ = cli("memory", "show", "t1", "--store", url, "--last", "5")
    assert code == 0 and out.splitlines() == ["user: hello", "assistant: hi"]


def test_delete_a_thread_or_everything_of_a_resource(url, cli):
    code, out, _ = cli("memory", "delete", "--store", url, "--thread", "t1")
    assert code == 0 and out.strip() == "deleted thread t1: 2 messages"
    code, out, _ = cli("memory", "delete", "--store", url, "--resource", "ann")
    assert out.strip() == "deleted resource ann: 1 messages"

    async def left():
        async with open_store(url) as s:
            return [t.id for t in await s.list_threads()], \
                await s.get_working_memory("resource:ann")

    assert asyncio.run(left()) == (["t3"], None)


def test_store_comes_from_the_environment_or_the_error_says_how(url, cli, monkeypatch, tmp_path):
    monkeypatch.delenv("TRIPWIRE_MEMORY_STORE", raising=False)
    code, _, err = cli("memory", "threads")
    assert code == 1 and "--store URL" in err
    code, _, err = cli("memory", "threads", "--store", f"sqlite:///{tmp_path}/missing.db")
    assert code == 1 and "no memory store at" in err
    assert not (tmp_path / "missing.db").exists()
