"""Tools listed from servers (MCP) when a run starts, their definitions as input.

An agent's toolsets (``Agent(tools=[MCPServer...])``, ``tripwire.tools.Toolset``) give
their tools as each run starts; they join the call's tools, and their names go to
``CallOptions.listed_tools``: a third party wrote their descriptions and schemas, so
``tripwire.run._caller_texts`` puts every string of them among the input for the input
processors, as it does for a caller's client tools with ``caller_system="input"``,
whatever the call's ``caller_system``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from tripwire.tools import Tool

if TYPE_CHECKING:
    from tripwire.run._loop import Run

log = logging.getLogger("tripwire")


async def add_listed_tools(run: Run) -> None:
    """Ask each of the agent's toolsets for its tools and add them to the call's. A
    name the call already has (the agent's own tool, a client tool, an earlier
    server's) keeps its tool: the listed one is not offered, and a warning names it."""
    config = run.call.config
    listed: dict[str, Tool] = {}
    for toolset in run.agent._toolsets:
        for name, tool in (await toolset.tools(run.recorder)).items():
            if name in config.tools or name in listed:
                log.warning("agent %r: a listed tool is named %r as another tool of the run "
                            "is; it is not offered (give its MCP server a prefix)",
                            run.agent.id, name)
                continue
            listed[name] = tool
    if listed:
        config.tools = {**config.tools, **listed}
        run.call.listed_tools = tuple(listed)
