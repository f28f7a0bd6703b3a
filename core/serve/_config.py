"""The ``[serve]`` table of a configuration file, and the agents a gateway serves from
it: one per ``[agents.NAME]``, and for each key with processor overrides its own copy of
the agents it may use (``Gateway.from_config`` puts them together).
"""

from __future__ import annotations

import math
import os
from typing import Any

from tripwire.agent import Agent, _default_error_processors
from tripwire.config import Config, build_processors
from tripwire.errors import ConfigurationError
from tripwire.options import check
from tripwire.serve._keys import ApiKey, Keys

__all__ = ["DEFAULT_MAX_BODY_BYTES", "DEFAULT_MAX_CONCURRENT", "DEFAULT_SHUTDOWN_TIMEOUT",
           "DEFAULT_WRITE_TIMEOUT", "SERVE_KEYS", "build_agents", "serve_table"]

#: ``[serve]`` keys and the types their values must have.
SERVE_KEYS: dict[str, Any] = {
    "keys": dict[str, Any],
    "keys_file": str,
    "max_body_bytes": int,
    "max_concurrent": int,
    "shutdown_timeout": float,
    "upstream_error_messages": bool,
    "metrics_key": str,
    "metrics_key_env": str,
    "write_timeout": float,
}

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_CONCURRENT = 64
DEFAULT_SHUTDOWN_TIMEOUT = 30.0
DEFAULT_WRITE_TIMEOUT = 30.0


def serve_table(config: Config) -> dict[str, Any]:
    """The ``[serve]`` table of ``config``: every key known and of its type, the limits
    above zero (a ``ConfigurationError`` naming the key otherwise)."""
    serve = dict(config.serve)
    where = f"{config.path}: [serve]"
    for name, value in serve.items():
        if name not in SERVE_KEYS:
            raise ConfigurationError(
                f"{where}: unknown key {name!r}; valid keys: {', '.join(SERVE_KEYS)}")
        serve[name] = check(name, value, SERVE_KEYS[name], owner=where, noun="key")
    for name in ("max_body_bytes", "max_concurrent", "shutdown_timeout", "write_timeout"):
        if name in serve and not serve[name] > 0:
            raise ConfigurationError(
                f"{where} {name}: expects a number > 0, got {serve[name]}")
    if "write_timeout" in serve and not math.isfinite(serve["write_timeout"]):
        raise ConfigurationError(
            f"{where} write_timeout: expects a finite number of seconds > 0, got "
            f"{serve['write_timeout']}")
    if "metrics_key_env" in serve:
        env = serve.pop("metrics_key_env")
        if "metrics_key" in serve:
            raise ConfigurationError(
                f"{where}: give metrics_key or metrics_key_env (the environment variable "
                f"holding it), not both")
        if env not in os.environ:
            raise ConfigurationError(
                f"{where} metrics_key_env: the environment variable {env} is not set")
        serve["metrics_key"] = os.environ[env]
    key = serve.get("metrics_key")
    if key is not None and (not key or key != key.strip()):  # never matched: a header's is stripped
        raise ConfigurationError(
            f"{where} metrics_key: expects the key /metrics asks for (Authorization: Bearer "
            f"KEY), not empty and without spaces around it")
    return serve


def build_agents(config: Config, keys: Keys
                 ) -> tuple[dict[str, Agent], dict[tuple[str, str], Agent]]:
    """The agents of ``config`` by name, and the agents keys with processor overrides
    use instead, by ``(key name, agent name)``."""
    if not config.agents:
        raise ConfigurationError(f"{config.path}: no agents to serve (add [agents.NAME])")
    agents = {name: config.agent(name) for name in config.agents}
    key_agents: dict[tuple[str, str], Agent] = {}
    for key in keys.keys:
        unknown = [a for a in key.agents or () if a not in agents]
        if unknown:
            raise ConfigurationError(
                f"serve.keys.{key.name} agents: no agent {unknown[0]!r}; agents: "
                f"{', '.join(agents)}")
        if key.overrides:
            mine = [name for name in agents if key.may_use(name)]
            _check_disabled(key, [agents[name] for name in mine])
            for name in mine:
                key_agents[(key.name, name)] = _override(config, name, key)
    return agents, key_agents


def _override(config: Config, name: str, key: ApiKey) -> Agent:
    """The agent ``name`` as ``key`` runs it: without the processors it disables, with
    the ones it adds."""
    kwargs = config.agent_kwargs(name)
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
        defaults = _default_error_processors()
        if any(p.id in key.disable for p in defaults):
            kwargs["default_error_processors"] = False
            kwargs["error_processors"] += [p for p in defaults if p.id not in key.disable]
    try:
        return config.build(Agent, name, kwargs)
    except ConfigurationError as e:
        raise ConfigurationError(
            f"serve.keys.{key.name}: the agent {name!r} with this key's processors: {e}"
        ) from e


def _check_disabled(key: ApiKey, agents: list[Agent]) -> None:
    """A disabled id that none of the key's agents has is a typo: say so."""
    ids = {getattr(p, "id", None) for agent in agents for p in agent.list_processors()}
    missing = [d for d in key.disable if d not in ids]
    if missing:
        raise ConfigurationError(
            f"serve.keys.{key.name} disable: no agent of this key has the processor "
            f"{missing[0]!r}")
