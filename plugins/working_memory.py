"""``working-memory``: a document the model keeps about the user (or the thread).

Before a run (``process_input``) the document (or its template, while empty) is
added as a system message tagged ``memory``, with an instruction to keep it up to date
through the ``update_working_memory`` tool, which this processor adds to every step
(``process_input_step``). The document belongs to the resource (``scope="resource"``,
the default: every thread of a user shares it) or to the thread (``scope="thread"``).

Formats (``template={"format": "markdown" | "json", "content": ...}``):

- ``markdown``: the tool's ``memory`` replaces the whole document;
- ``json``: the tool's ``memory`` is a JSON object merged into the stored one
  (objects merge key by key, recursively; ``null`` deletes a key).

Every update is a read-modify-write inside one store transaction
(``MemoryStore.update_working_memory``), so concurrent updates never lose a write: two
merges of different keys both land, and two replacements land one after the other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tripwire import Processor, hookimpl
from tripwire.context import RequestContext
from tripwire.errors import ConfigurationError
from tripwire.memory.common import check_owner, memory_ids, store_option
from tripwire.messages import MessageList
from tripwire.option_checks import check, check_choice
from tripwire.tools import Tool, tool

__all__ = ["WorkingMemory", "DEFAULT_TEMPLATE", "TOOL_NAME", "merge"]

TOOL_NAME = "update_working_memory"
#: The reference's default markdown template.
DEFAULT_TEMPLATE = """# User Information
- **First Name**:
- **Last Name**:
- **Location**:
- **Occupation**:
- **Interests**:
- **Goals**:
- **Events**:
- **Facts**:
- **Projects**:
"""
#: The tag of the system message working memory adds.
TAG = "memory"


class WorkingMemory(Processor):
    """Keep a per-resource (or per-thread) document and let the model update it.

    Options:
        store (str | MemoryStore, required): where the document lives.
        scope (``"resource"`` | ``"thread"``, default ``"resource"``): whose document;
            without a resource id, resource scope falls back to the thread.
        template (mapping, default markdown "# User Information"): ``{"format":
            "markdown" | "json", "content": str}`` (JSON content must be an object).
        read_only (bool, default ``False``): show the document, add no tool.
    """

    id = "working-memory"
    description = "A document about the user the model keeps up to date through a tool"

    def __init__(self, store: Any = None, scope: str = "resource",
                 template: dict[str, Any] | None = None, read_only: bool = False) -> None:
        check_choice("scope", scope, ("resource", "thread"), owner=self.id)
        check("read_only", read_only, bool, owner=self.id)
        self.store = store_option(store, self.id)
        self.scope = scope
        self.read_only = read_only
        self.format, self.template = _template(template)
        self.tool = self._make_tool()

    def key(self, request_context: RequestContext | Mapping[str, Any] | None) -> str | None:
        """The store key of a call's document, or None (no thread: nothing to do)."""
        thread_id, resource_id = memory_ids(request_context)
        if thread_id is None:
            return None
        if self.scope == "resource" and resource_id is not None:
            return f"resource:{resource_id}"
        return f"thread:{thread_id}"

    @hookimpl
    async def process_input(self, message_list: MessageList,
                            request_context: RequestContext) -> None:
        key = self.key(request_context)
        if key is None:
            return
        thread_id, resource_id = memory_ids(request_context)
        if key.startswith("thread:") and thread_id is not None:
            await check_owner(self.store, thread_id, resource_id)
        data = await self.store.get_working_memory(key)
        message_list.add_recalled_system({"role": "system", "content": self.instruction(data),
                                          "tag": TAG})

    @hookimpl
    def process_input_step(self, tools: dict[str, Tool],
                           request_context: RequestContext) -> dict[str, Any] | None:
        if self.read_only or self.key(request_context) is None:
            return None
        return {"tools": {**tools, TOOL_NAME: self.tool}}

    def instruction(self, data: str | None) -> str:
        """The system message text: how to use the tool, the template and the data."""
        how = ("Replace the whole document: pass it complete, in the template's Markdown "
               "format." if self.format == "markdown" else
               "Pass a JSON object: its keys are merged into the stored object (nested "
               "objects merge too; null deletes a key).")
        return (
            "WORKING_MEMORY_SYSTEM_INSTRUCTION: store and update any information about "
            "the user that will help in later conversations (names, preferences, goals, "
            f"facts) by calling the {TOOL_NAME} tool as soon as you learn it. {how} Never "
            "mention working memory to the user.\n"
            f"<working_memory_template>\n{self.template}\n</working_memory_template>\n"
            f"<working_memory_data>\n{data if data is not None else ''}\n"
            "</working_memory_data>")

    async def claim(self, key: str,
                    request_context: RequestContext | Mapping[str, Any] | None) -> None:
        """Before a thread's document is written with a resource id: the thread becomes
        that resource's, as saving its messages makes it (``ThreadOwnerError`` when it
        is another's). Otherwise a document written where no message was saved yet (a
        ``working-memory`` without message history, a run that tripped after the tool
        ran) would belong to no one, and any resource naming the thread would read it."""
        thread_id, resource_id = memory_ids(request_context)
        if key.startswith("thread:") and thread_id is not None and resource_id is not None:
            await self.store.save_messages(thread_id, resource_id, [])

    async def update(self, key: str, memory: str) -> str:
        """Apply one update (as the tool does); the stored document."""
        if self.format == "markdown":
            return str(await self.store.update_working_memory(key, lambda _old: memory))
        try:
            change = json.loads(memory)
        except ValueError as e:
            raise ValueError(f"memory must be a JSON object for this JSON working memory: "
                             f"{e}") from None
        if not isinstance(change, dict):
            raise ValueError(f"memory must be a JSON object, got {type(change).__name__}")

        def apply(old: str | None) -> str:
            base = json.loads(old) if old else json.loads(self.template)
            return json.dumps(merge(base, change), ensure_ascii=False)

        return str(await self.store.update_working_memory(key, apply))

    def _make_tool(self) -> Tool:
        processor = self

        async def update_working_memory(memory: str, request_context: RequestContext) -> str:
            key = processor.key(request_context)
            if key is None:
                raise ValueError("no thread id in this call: working memory is off")
            await processor.claim(key, request_context)
            await processor.update(key, memory)
            return "Working memory updated."

        update_working_memory.__doc__ = (
            "Update the working memory about the user.\n\n:param memory: the whole "
            "Markdown document" if self.format == "markdown" else
            "Update the working memory about the user.\n\n:param memory: a JSON object "
            "to merge into the stored one (null deletes a key)")
        # It persists its argument: a tokenizing guard gives it the placeholders the
        # model wrote, never the values (``Tool.stores_arguments``).
        built: Tool = tool(update_working_memory, name=TOOL_NAME, stores_arguments=True)
        return built


def merge(base: Any, change: Any) -> Any:
    """``change`` merged into ``base``: objects key by key (recursively), ``None``
    deletes a key, anything else replaces."""
    if not isinstance(base, dict) or not isinstance(change, dict):
        return change
    out = dict(base)
    for k, v in change.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge(out.get(k), v)
    return out


def _template(template: Any) -> tuple[str, str]:
    if template is None:
        return "markdown", DEFAULT_TEMPLATE
    if not isinstance(template, Mapping) or set(template) - {"format", "content"}:
        raise ConfigurationError(
            f"working-memory: template must be {{'format': 'markdown' | 'json', 'content': "
            f"str}}, got {template!r}")
    fmt = template.get("format", "markdown")
    check_choice("template format", fmt, ("markdown", "json"), owner="working-memory")
    content = template.get("content")
    if content is None:
        content = DEFAULT_TEMPLATE if fmt == "markdown" else "{}"
    if fmt == "json" and not isinstance(content, str):
        content = json.dumps(content)
    if not isinstance(content, str):
        raise ConfigurationError(f"working-memory: template content must be a string, got "
                                 f"{content!r}")
    if fmt == "json":
        try:
            parsed = json.loads(content)
        except ValueError as e:
            raise ConfigurationError(f"working-memory: the JSON template is not JSON: {e}") \
                from None
        if not isinstance(parsed, dict):
            raise ConfigurationError("working-memory: a JSON template must be an object")
    return fmt, content
