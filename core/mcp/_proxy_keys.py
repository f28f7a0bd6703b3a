"""A key's processor overrides in ``tripwire mcp-proxy``, applied as ``tripwire serve``
applies them.

A ``[serve.keys.NAME]`` key that disables processors or adds some (``disable``,
``input_processors``, ``output_processors``: docs/serve.md) runs the proxy's agent
with lists of its own, built once at start by the gateway's ``key_agent_kwargs``: the
key's own instances, so a ``cost-guard`` it adds keeps its counter across its
requests, and a disabled id no processor of the agent has is an error
(``check_disabled``). The proxy's model makes no API call, so error processors never
run in it. An option that cannot mean anything here is an error at start naming the key
and the option: ``caller_system = "instructions"`` (the proxy's clients send no system
messages or tool definitions of their own; the upstreams' definitions are input
whatever a key says).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tripwire.errors import ConfigurationError

if TYPE_CHECKING:
    from tripwire.agent import Agent
    from tripwire.config import Config
    from tripwire.serve import Keys

#: The processor lists a key's overrides change in the proxy's runs.
LISTS = ("input_processors", "output_processors")


def key_lists(config: Config, agent: Agent, keys: Keys) -> dict[str, dict[str, list[Any]]]:
    """The processor lists of each key that may use ``agent`` and overrides them, by
    the key's name (see the module)."""
    from tripwire.serve import check_disabled, key_agent_kwargs

    lists: dict[str, dict[str, list[Any]]] = {}
    for key in keys.keys:
        if not key.may_use(agent.id):
            continue
        if key.caller_system != "input":
            raise ConfigurationError(
                f"serve.keys.{key.name} caller_system: {key.caller_system!r} means nothing "
                f"to tripwire mcp-proxy (its clients send no system messages or tool "
                f"definitions; the upstreams' definitions are always input): remove it, "
                f"or give the proxy a keys file of its own (--keys-file)")
        if not key.overrides:
            continue
        check_disabled(key, [agent])
        table = config.agent_kwargs(agent.id, overrides={"model": agent.model})
        kwargs = key_agent_kwargs(config, agent.id, key, table)
        lists[key.name] = {kind: list(kwargs.get(kind) or []) for kind in LISTS}
    return lists
