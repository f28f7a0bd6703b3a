"""``tripwire mcp-proxy``'s resources and prompts, and the tool definitions it passes on
(title, annotations, output schema), with the SDK's own client against the proxy in
front of the test server (tests/support/mcp_servers.py): every text the upstream
sends is checked as a tool's result is, on every method it can take to the client."""

from __future__ import annotations

import base64
import json
import sys

import pytest

from tests.mcp.helpers import Proxied, config, http_client
from tests.support.mcp_servers import CHANGING, EMAIL, INJECTED, PNG, POISON, ROOT, SECRET
from tripwire.config import load_config
from tripwire.mcp.proxy import MCPProxy

mcp = pytest.importorskip("mcp")

BLOCKED = "blocked by processor 'prompt-injection-detector'"
#: The upstream passes its resources (but not evil://, whose template is poisoned) and
#: its prompts.
PASSED = 'resources = true\ndeny_resources = ["evil://*"]\nprompts = true'


class Session:
    """The SDK's client over streamable HTTP to the proxy of a configuration file."""

    def __init__(self, tmp_path, notes: str = PASSED, allow: list[str] | None = None) -> None:
        self.path = config(tmp_path, allow or ["search"], notes=notes)

    async def __aenter__(self):
        self.served = Proxied(MCPProxy.from_config(load_config(self.path), "guarded"))
        await self.served.__aenter__()
        self.http, client = http_client(self.served.url, None)
        await self.http.__aenter__()
        self.client = client(self.http)
        return await self.client.__aenter__()

    async def __aexit__(self, *exc) -> None:
        await self.client.__aexit__(*exc)
        await self.http.__aexit__(*exc)
        await self.served.__aexit__(*exc)


def text_of(result) -> str:
    return "".join(getattr(c, "text", "") or "" for c in result.contents)


async def test_resources_and_prompts_are_not_advertised_unless_configured(tmp_path) -> None:
    async with Session(tmp_path, notes="") as session:
        capabilities = session.server_capabilities
        assert capabilities.resources is None and capabilities.prompts is None
        with pytest.raises(mcp.MCPError):
            await session.list_resources()
    async with Session(tmp_path, notes="prompts = true") as session:
        assert session.server_capabilities.resources is None
        assert session.server_capabilities.prompts is not None
    proxy = MCPProxy.from_config(config(tmp_path, ["search"], notes="prompts = true"),
                                 "guarded")
    with pytest.raises(mcp.MCPError, match="tripwire: no upstream passes resources through"):
        await proxy.passthrough("resources/read", {"uri": "notes://readme"})


async def test_an_injection_in_a_resource_is_blocked_naming_the_processor(tmp_path) -> None:
    async with Session(tmp_path) as session:
        with pytest.raises(mcp.MCPError) as caught:
            await session.read_resource("notes://injected")
    message = str(caught.value)
    assert message == f"tripwire: the resources/read answer was {BLOCKED}"
    assert INJECTED not in message and SECRET not in message


async def test_a_secret_and_pii_in_resources_are_redacted(tmp_path) -> None:
    async with Session(tmp_path) as session:
        listed = {str(r.uri): r for r in (await session.list_resources()).resources}
        contact = await session.read_resource("notes://contact")
        key = await session.read_resource("secret://key")
        readme = await session.read_resource("notes://readme")
    assert "secret://key" in listed and "evil://1" not in listed
    assert listed["notes://contact"].description.startswith("Who to write to: ")
    assert EMAIL not in listed["notes://contact"].description
    assert text_of(contact).startswith("Write to ") and EMAIL not in text_of(contact)
    assert SECRET not in text_of(key)
    assert text_of(readme) == "Welcome to the notes."  # a clean text passes as it is


async def test_a_resource_that_changes_is_checked_at_every_read(tmp_path) -> None:
    async with Session(tmp_path) as session:
        first = await session.read_resource("notes://changing")
        with pytest.raises(mcp.MCPError, match=BLOCKED):
            await session.read_resource("notes://changing")
    assert text_of(first) == CHANGING[0]


async def test_a_blob_is_passed_on_as_it_is(tmp_path) -> None:
    async with Session(tmp_path) as session:
        (contents,) = (await session.read_resource("notes://pixel")).contents
    assert base64.b64decode(contents.blob) == PNG and contents.mime_type == "image/png"


async def test_a_poisoned_template_description_blocks_the_listing(tmp_path) -> None:
    async with Session(tmp_path, notes="resources = true") as session:
        with pytest.raises(mcp.MCPError) as caught:
            await session.list_resource_templates()
    assert str(caught.value) == f"tripwire: the resources/templates/list answer was {BLOCKED}"
    assert POISON not in str(caught.value)


async def test_only_the_resources_configured_pass_through(tmp_path) -> None:
    notes = 'resources = ["notes://*"]\ndeny_resources = ["notes://injected"]'
    async with Session(tmp_path, notes=notes) as session:
        listed = [str(r.uri) for r in (await session.list_resources()).resources]
        templates = (await session.list_resource_templates()).resource_templates
        page = await session.read_resource("notes://pages/3")
        refused = []
        for uri in ("secret://key", "notes://injected", "evil://1"):
            with pytest.raises(mcp.MCPError) as caught:
                await session.read_resource(uri)
            refused.append((caught.value.error.code, str(caught.value)))
    assert "secret://key" not in listed and "notes://injected" not in listed
    assert [t.uri_template for t in templates] == ["notes://pages/{page}"]
    assert text_of(page) == "Page 3 of the notes."
    assert refused == [(-32602, "tripwire: resource 'secret://key' is not passed through by "
                                "the proxy"),
                       (-32602, "tripwire: resource 'notes://injected' is not passed through "
                                "by the proxy"),
                       (-32602, "tripwire: resource 'evil://1' is not passed through by the "
                                "proxy")]
    assert not any(SECRET in text for _, text in refused)


async def test_an_upstream_error_keeps_its_code(tmp_path) -> None:
    async with Session(tmp_path) as session:
        with pytest.raises(mcp.MCPError) as caught:
            await session.read_resource("notes://missing")
    assert caught.value.error.code == -32002
    assert str(caught.value) == ("tripwire: resources/read of MCP server 'notes' failed with "
                                 "protocol error -32002: no resource notes://missing")


async def test_prompts_are_checked_both_ways(tmp_path) -> None:
    async with Session(tmp_path) as session:
        listed = {p.name: p for p in (await session.list_prompts()).prompts}
        greeting = await session.get_prompt("greeting", {"who": EMAIL})
        with pytest.raises(mcp.MCPError) as caught:
            await session.get_prompt("poisoned")
        picture = await session.get_prompt("picture")
    assert sorted(listed) == ["contact", "greeting", "picture", "poisoned"]
    assert EMAIL not in listed["contact"].description
    # the argument is redacted before the upstream gets it, as a tool call's is
    (message,) = greeting.messages
    assert message.content.text.startswith("Say hello to ") and EMAIL not in message.content.text
    assert str(caught.value) == f"tripwire: the prompts/get answer was {BLOCKED}"
    assert INJECTED not in str(caught.value)
    assert base64.b64decode(picture.messages[0].content.data) == PNG


async def test_only_the_prompts_configured_pass_through(tmp_path) -> None:
    notes = 'prompts = true\ndeny_prompts = ["poisoned"]\nprefix = "notes_"'
    async with Session(tmp_path, notes=notes) as session:
        listed = [p.name for p in (await session.list_prompts()).prompts]
        greeting = await session.get_prompt("notes_greeting", {"who": "Ann"})
        with pytest.raises(mcp.MCPError) as caught:
            await session.get_prompt("notes_poisoned")
    assert listed == ["notes_greeting", "notes_contact", "notes_picture"]
    assert greeting.messages[0].content.text == "Say hello to Ann."
    assert str(caught.value) == ("tripwire: no prompt 'notes_poisoned' is passed through by "
                                 "the proxy")


async def test_a_tool_s_title_annotations_and_output_schema_are_passed_on_checked(
        tmp_path) -> None:
    async with Session(tmp_path, notes="", allow=["annotated", "owner"]) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        owner = await session.call_tool("owner", {})
    annotated = tools["annotated"]
    assert annotated.title == "Annotated notes"
    assert annotated.annotations.read_only_hint is True
    assert annotated.annotations.title.startswith("Reads the notes of ")
    assert EMAIL not in annotated.annotations.title
    assert EMAIL not in json.dumps(annotated.output_schema)
    assert annotated.output_schema["properties"]["owner"]["type"] == "string"
    # structured content is checked as text is
    assert owner.structured_content == {**owner.structured_content, "note": "owns the notes"}
    assert EMAIL not in json.dumps(owner.structured_content)


async def test_a_poisoned_title_blocks_the_tool_list(tmp_path) -> None:
    async with Session(tmp_path, notes="", allow=["search", "poisoned_title"]) as session:
        with pytest.raises(mcp.MCPError) as caught:
            await session.list_tools()
    assert str(caught.value) == f"tripwire: the tool list was {BLOCKED}"


async def test_the_agent_s_own_tools_cannot_be_called_through_the_proxy(tmp_path) -> None:
    async with Session(tmp_path) as session:
        result = await session.call_tool("tripwire_resources_read", {"uri": "secret://key"})
    assert result.is_error
    assert result.content[0].text == "tripwire: there is no tool 'tripwire_resources_read'"


async def test_resources_through_the_command_over_stdio(tmp_path) -> None:
    path = config(tmp_path, ["search"], notes=PASSED)
    params = mcp.StdioServerParameters(
        command=sys.executable, args=["-m", "tripwire", "mcp-proxy", "guarded", "-c", str(path)],
        cwd=str(ROOT))
    async with mcp.Client(params, mode="legacy") as client:
        contact = await client.read_resource("notes://contact")
        with pytest.raises(mcp.MCPError, match=BLOCKED):
            await client.read_resource("notes://injected")
    assert EMAIL not in text_of(contact)
