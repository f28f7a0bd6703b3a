"""The ``[serve]`` table and the agents a gateway serves from it.

The ``[serve]`` table of a configuration file, and the agents a gateway serves from it:
one per ``[agents.NAME]``, and for each key with processor overrides its own copy of the
agents it may use (``Gateway.from_config`` puts them together)."""

from __future__ import annotations

import os
from typing import Any

from tripwire.agent import Agent
from tripwire.config import Config, build_processors
from tripwire.config.serve_table import SERVE_KEYS, check_metrics_key, check_serve
from tripwire.errors import ConfigurationError
from tripwire.registry import discovery
from tripwire.serve._keys import DEFAULT_MAX_CONCURRENT, ApiKey, Keys

__all__ = ["DEFAULT_MAX_BODY_BYTES", "DEFAULT_MAX_CONCURRENT", "DEFAULT_SHUTDOWN_TIMEOUT",
           "DEFAULT_WRITE_TIMEOUT", "SERVE_KEYS", "build_agents", "check_disabled",
           "key_agent_kwargs", "serve_table"]

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
DEFAULT_SHUTDOWN_TIMEOUT = 30.0
DEFAULT_WRITE_TIMEOUT = 30.0


def serve_table(config: Config) -> dict[str, Any]:
    """The ``[serve]`` table of ``config``: its shape checked (``check_serve``: every key
    known and of its type, the limits above zero), ``metrics_key_env`` read from the
    environment (a ``ConfigurationError`` naming the key otherwise)."""
    where = f"{config.path}: [serve]"
    serve = check_serve(dict(config.serve), where)
    if "metrics_key_env" in serve:
        env = serve.pop("metrics_key_env")
        if env not in os.environ:
            raise ConfigurationError(
                f"{where} metrics_key_env: the environment variable {env} is not set")
        serve["metrics_key"] = os.environ[env]
        check_metrics_key(serve["metrics_key"], where)
    return serve


def build_agents(config: Config, keys: Keys
                 ) -> tuple[dict[str, Agent], dict[tuple[str, str], Agent]]:
    """The agents of ``config`` by name, and the agents keys with processor overrides
    use instead, by ``(key name, agent name)``."""
    if not config.agents:
        raise ConfigurationError(f"{config.path}: no agents to serve (add [agents.NAME])")
    agents = {name: Agent.from_config(config, name) for name in config.agents}
    key_agents: dict[tuple[str, str], Agent] = {}
    for key in keys.keys:
        unknown = [a for a in key.agents or () if a not in agents]
        if unknown:
            raise ConfigurationError(
                f"serve.keys.{key.name} agents: no agent {unknown[0]!r}; agents: "
                f"{', '.join(agents)}")
        if key.overrides:
            mine = [name for name in agents if key.may_use(name)]
            check_disabled(key, [agents[name] for name in mine])
            for name in mine:
                key_agents[(key.name, name)] = _override(config, name, key)
    return agents, key_agents


def _override(config: Config, name: str, key: ApiKey) -> Agent:
    """The agent ``name`` as ``key`` runs it: without the processors it disables, with
    the ones it adds."""
    kwargs = key_agent_kwargs(config, name, key)
    try:
        return config.build(Agent, name, kwargs)
    except ConfigurationError as e:
        raise ConfigurationError(
            f"serve.keys.{key.name}: the agent {name!r} with this key's processors: {e}"
        ) from e


def key_agent_kwargs(config: Config, name: str, key: ApiKey,
                     kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``Agent`` arguments of ``[agents.NAME]`` as ``key`` runs it: ``kwargs`` (the
    table's, ``config.agent_kwargs(name)``, unless given) with the processor lists
    without the processors the key disables and with the ones it adds, each built anew
    (the key's own instances). ``tripwire mcp-proxy`` applies a key's overrides with it
    too."""
    kwargs = config.agent_kwargs(name) if kwargs is None else dict(kwargs)
    for kind in ("input_processors", "output_processors", "error_processors"):
        kept = [p for p in kwargs.get(kind) or [] if getattr(p, "id", None) not in key.disable]
        try:
            kept += build_processors(list(getattr(key, kind, ())), config.processor_model)
        except ConfigurationError as e:
            raise ConfigurationError(f"serve.keys.{key.name} {kind}{e}") from e
        kwargs[kind] = kept
    if kwargs.get("default_error_processors", True):
        # the default error processors (prefill-error-handler) are disabled by id too:
        # the agent then gets the others as its own
        defaults = discovery.default_error_processors()
        if any(p.id in key.disable for p in defaults):
            kwargs["default_error_processors"] = False
            kwargs["error_processors"] += [p for p in defaults if p.id not in key.disable]
    return kwargs


def check_disabled(key: ApiKey, agents: list[Agent]) -> None:
    """A disabled id that none of the key's agents has is a typo: say so."""
    ids = {getattr(p, "id", None) for agent in agents for p in agent.list_processors()}
    missing = [d for d in key.disable if d not in ids]
    if missing:
        raise ConfigurationError(
            f"serve.keys.{key.name} disable: no agent of this key has the processor "
            f"{missing[0]!r}")
