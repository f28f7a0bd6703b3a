"""Agents, models and processors from a TOML file.

Agents from a TOML file: ``[agents.NAME]`` tables, and ``[models.NAME]`` tables for
models that are more than a plain router id: a server with its own base URL, timeout,
retries, headers or settings, or the scripted demo model.

.. code-block:: toml

    [agents.support]
    model = "openai/gpt-5-mini"
    instructions = "You are a helpful assistant"
    input_processors = ["unicode-normalizer", { use = "token-limiter", limit = 4000 }]
    output_processors = [{ use = "pii-detector", strategy = "redact" }]
    max_processor_retries = 3

    [agents.local]
    model = "models.local"

    [models.local]
    use = "openai-compatible"
    base_url = "http://localhost:11434/v1"
    model = "llama3.2"
    api_key_env = "LOCAL_API_KEY"        # the key itself never goes in the file
    timeout = 30
    settings = { temperature = 0 }

    [models.scripted]
    use = "mock"
    responses = [{ text = "Hello from a scripted model." }]

``load_config(path)`` reads the file and checks the shape of all of it (every key and
value type, ``[serve]`` included, whichever command reads the file);
``Config.agent_kwargs(name)`` builds the keyword arguments of ``[agents.NAME]``'s
``tripwire.agent.Agent`` (``Agent.from_config`` builds the agent) (processors created through ``tripwire.plugins.create``).
Every error is a ``ConfigurationError`` that names the file, the table and the key.
The format is documented in docs/configuration.md.

This module reads the file and turns ``[agents.NAME]`` tables into agents; a
``[models.NAME]`` table is checked and built by ``_models``, a processor list by
``_processors`` and the ``[serve]`` table by ``serve_table`` (the first two re-exported here).
"""

from __future__ import annotations

import importlib
import os
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import attrs

from tripwire.config._models import MODEL_KINDS, ModelKind, check_model
from tripwire.config._processors import build_processors, check_specs, processor_ids
from tripwire.config.serve_table import check_serve
from tripwire.errors import ConfigurationError, Error
from tripwire.option_checks import Range, check, unknown_name

if TYPE_CHECKING:
    from tripwire.agent import Agent

#: Top-level tables a configuration file may have (``[serve]`` is read by
#: ``tripwire serve``, see docs/serve.md).
TABLES = ("agents", "models", "serve", "mcp")

#: Keys of an ``[agents.NAME]`` table and the types their values must have.
AGENT_KEYS: dict[str, Any] = {
    "model": str,
    "instructions": str | list[str],
    "name": str,
    "description": str,
    "tools": list[str],
    "input_processors": list[str | dict[str, Any]],
    "output_processors": list[str | dict[str, Any]],
    "error_processors": list[str | dict[str, Any]],
    "max_processor_retries": int,
    "max_steps": int,
    "default_error_processors": bool,
    "model_settings": dict[str, Any],
    "provider_options": dict[str, Any],
    "tool_choice": str | dict[str, Any],
    "memory": dict[str, Any],
    "mcp_servers": list[str],
}

#: Smallest value of the integer keys of an ``[agents.NAME]`` table.
_AGENT_MINIMUMS = {"max_steps": 1, "max_processor_retries": 0}

PROCESSOR_LISTS = ("input_processors", "output_processors", "error_processors")


@attrs.frozen
class Config:
    """A checked configuration file: its agent and model tables as read."""

    path: Path
    agents: Mapping[str, Mapping[str, Any]]
    models: Mapping[str, Mapping[str, Any]]
    #: the ``[serve]`` table as read (``tripwire serve`` checks it: docs/serve.md)
    serve: Mapping[str, Any] = attrs.field(factory=dict)
    #: the ``[mcp.NAME]`` tables as read (``tripwire.mcp.config``: docs/mcp.md)
    mcp: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    #: models built from ``[models.NAME]`` tables for processors' ``model`` options and
    #: not yet handed to an agent (``build`` makes them its to close)
    _processor_models: list[Any] = attrs.field(factory=list, init=False, eq=False,
                                               repr=False)

    def _where(self, table: str, key: str | None = None) -> str:
        return f"{self.path}: [{table}]" + (f" {key}" if key else "")

    def _agent_table(self, name: str) -> Mapping[str, Any]:
        table = self.agents.get(name)
        if table is None:
            known = ", ".join(sorted(self.agents)) or "none defined"
            raise ConfigurationError(f"{self.path}: no agent {name!r}; agents: {known}")
        return table

    def agent_kwargs(
        self, name: str, *, model: str | None = None, model_where: str = "model override",
        overrides: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Keyword arguments for ``Agent(**kwargs)`` from ``[agents.NAME]``.

        ``model`` (a router id or ``"models.NAME"``) replaces the table's model;
        errors about it are labelled ``model_where``. The settings of the model's
        ``[models.NAME]`` table come first in ``model_settings``, the agent's own
        ``model_settings`` override them.

        ``overrides`` are ``Agent`` arguments that replace the table's: what they
        replace is never built (no model from the table, no processor, tool import or
        memory), so it cannot fail or open anything. An overriding ``model`` that is a
        string is resolved as ``model`` is; a model object is used as it is, and the
        replaced model table's ``settings`` do not apply to it.
        """
        given = dict(overrides or {})
        if isinstance(given.get("model"), str):
            model = given.pop("model")
        table = {k: v for k, v in self._agent_table(name).items() if k not in given}
        kwargs = self._table_kwargs(name, table, model, model_where,
                                    build_model="model" not in given)
        kwargs.update(given)
        return kwargs

    def _table_kwargs(
        self, name: str, table: Mapping[str, Any], model: str | None, model_where: str, *,
        build_model: bool,
    ) -> dict[str, Any]:
        """``agent_kwargs`` of the keys of ``table`` (the ones not overridden), the model
        included when ``build_model`` (not when a model object replaces it)."""
        where = f"agents.{name}"
        if not build_model:
            model = None
        elif model is None:
            if "model" not in table:
                raise ConfigurationError(
                    f"{self._where(where)} needs a model: a router id such as "
                    f"\"openai/gpt-5-mini\" or a reference \"models.NAME\""
                )
            model, model_where = table["model"], self._where(where, "model")
        kwargs: dict[str, Any] = {"id": name}
        for key, value in table.items():
            if key == "model":
                continue
            if key in PROCESSOR_LISTS:
                try:
                    kwargs[key] = build_processors(value, self.processor_model)
                except ConfigurationError as e:
                    raise ConfigurationError(f"{self._where(where, key)}{e}") from e
            elif key == "tools":
                kwargs[key] = [*kwargs.get(key, []),
                               *(self._import(v, self._where(where, key)) for v in value)]
            elif key == "mcp_servers":  # (the agent takes an MCP server among its tools)
                from tripwire.mcp import config as mcp_config

                kwargs["tools"] = [*kwargs.get("tools", []), *(
                    mcp_config.build(v, self.mcp[v], self._where(f"mcp.{v}"))
                    for v in value)]
            elif key == "memory":
                from tripwire.memory import Memory

                try:
                    kwargs[key] = Memory.from_config(value)
                except (ConfigurationError, TypeError, ValueError) as e:
                    said = str(e).removeprefix("memory: ")   # the table is named already
                    raise ConfigurationError(f"{self._where(where, key)}: {said}") from e
            else:
                kwargs[key] = value
        table_settings = (self.model_settings(model, where=model_where)
                          if model is not None else {})
        if model is not None:
            kwargs["model"] = self.model(model, where=model_where)
        settings = {**table_settings, **table.get("model_settings", {})}
        if settings:
            kwargs["model_settings"] = settings
        return kwargs

    def build(self, cls: type[Agent], name: str, kwargs: dict[str, Any], *,
              owns_model: bool = True) -> Agent:
        """``cls(**kwargs)`` for ``[agents.NAME]``: an error the constructor raises names
        the file and the table; a model built from a ``[models.NAME]`` table belongs to
        the agent (``agent.aclose()`` / ``async with agent`` closes its session), the
        model object a caller gave (``owns_model=False``) stays the caller's."""
        built = list(self._processor_models)  # for this agent's processors
        self._processor_models.clear()
        try:
            agent = cls(**kwargs)
        except (Error, TypeError, ValueError) as e:
            raise ConfigurationError(f"{self._where(f'agents.{name}')}: {e}") from e
        own = owns_model and agent.model is kwargs.get("model")
        for model in (agent.model, *built) if own else built:
            if hasattr(model, "aclose"):
                agent._adopt(model)
        return agent

    def _model_table(self, ref: str, where: str) -> tuple[str, Mapping[str, Any]]:
        table_name = ref.removeprefix("models.")
        if not ref.startswith("models.") or table_name not in self.models:
            defined = ", ".join(f"models.{m}" for m in sorted(self.models)) or "none defined"
            raise ConfigurationError(
                f"{where}: {ref!r} is neither a router id \"provider/model\" nor a "
                f"reference \"models.NAME\" to a [models.NAME] table (defined: {defined})"
            )
        return table_name, self.models[table_name]

    def model(self, ref: str, *, where: str = "model") -> Any:
        """A router id as is, or the model a ``"models.NAME"`` reference describes
        (built afresh on every call)."""
        if "/" in ref:
            return ref
        table_name, table = self._model_table(ref, where)
        return MODEL_KINDS[table["use"]].build(table, self._where(f"models.{table_name}"))

    def processor_model(self, ref: str) -> Any:
        """The model a processor's ``model = "models.NAME"`` option refers to, built
        afresh; the next agent ``build`` makes it its own to close."""
        built = self.model(ref)
        self._processor_models.append(built)
        return built

    def model_settings(self, ref: str, *, where: str = "model") -> dict[str, Any]:
        """The ``settings`` of the ``[models.NAME]`` table ``ref`` refers to (``{}`` for a
        router id)."""
        if "/" in ref:
            return {}
        return dict(self._model_table(ref, where)[1].get("settings", {}))

    def _import(self, target: str, where: str) -> Any:
        module_name, sep, attr = target.partition(":")
        if not sep or not module_name or not attr:
            raise ConfigurationError(
                f"{where}: {target!r} is not of the form \"module:function\""
            )
        # Modules next to the configuration file are importable, like pytest's rootdir.
        folder = str(self.path.resolve().parent)
        added = folder not in sys.path
        if added:
            sys.path.insert(0, folder)
        try:
            obj: Any = importlib.import_module(module_name)
            for part in attr.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError) as e:
            raise ConfigurationError(f"{where}: cannot import {target!r}: {e}") from e
        except Exception as e:  # the module itself raises (a syntax error, a bug)
            raise ConfigurationError(
                f"{where}: cannot import {target!r}: {type(e).__name__}: {e}"
            ) from e
        finally:
            if added:
                sys.path.remove(folder)
        return obj


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read a TOML configuration file and check the shape of every table, ``[serve]``
    included (not yet its processor names, nor the environment variables it names)."""
    path = Path(path)
    data = _parse(_read(path), path)
    unknown = [k for k in data if k not in TABLES]
    if unknown:
        raise ConfigurationError(
            f"{path}: unknown top-level key(s) {', '.join(unknown)}; valid: "
            f"{', '.join(f'[{t}.NAME]' for t in TABLES[:2])}, [serve], [mcp.NAME]"
        )
    agents = _tables(data, "agents", path)
    models = _tables(data, "models", path)
    for name, table in agents.items():
        _check_agent(table, f"{path}: [agents.{name}]")
    for name, table in models.items():
        check_model(table, f"{path}: [models.{name}]")
    serve = data.get("serve", {})
    if not isinstance(serve, dict):
        raise ConfigurationError(f"{path}: serve must be a table [serve], got serve = {serve!r}")
    check_serve(serve, f"{path}: [serve]")
    mcp = _tables(data, "mcp", path)
    if mcp:
        from tripwire.mcp.config import check_table

        for name, table in mcp.items():
            check_table(name, table, f"{path}: [mcp.{name}]")
    for name, table in agents.items():
        for server in table.get("mcp_servers", ()):
            if server not in mcp:
                defined = ", ".join(f"mcp.{m}" for m in sorted(mcp)) or "none defined"
                raise ConfigurationError(
                    f"{path}: [agents.{name}] mcp_servers: {server!r} names no [mcp.NAME] "
                    f"table (defined: {defined})")
    return Config(path, agents, models, serve, mcp)


def _read(path: Path) -> str:
    """The file's text; every way of failing is one ``ConfigurationError`` line."""
    if path.is_dir():
        raise ConfigurationError(f"{path}: is a directory, not a configuration file")
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigurationError(f"{path}: no such configuration file") from None
    except UnicodeDecodeError as e:
        raw = bytes(e.object)
        line = raw.count(b"\n", 0, e.start) + 1
        column = e.start - raw.rfind(b"\n", 0, e.start)
        raise ConfigurationError(
            f"{path}: not UTF-8 text (byte 0x{raw[e.start]:02x} at line {line}, column "
            f"{column}); TOML files must be saved as UTF-8"
        ) from None
    except OSError as e:
        raise ConfigurationError(
            f"{path}: cannot read the configuration file: {e.strerror or e}"
        ) from None


def _parse(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigurationError(f"{path}: invalid TOML: {e}") from e


def _tables(data: dict[str, Any], key: str, path: Path) -> dict[str, dict[str, Any]]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ConfigurationError(
            f"{path}: {key} must be tables [{key}.NAME], got {key} = {value!r}"
        )
    for name, table in value.items():
        if not isinstance(table, dict):
            raise ConfigurationError(
                f"{path}: {key}.{name} must be a table [{key}.{name}], got "
                f"{key}.{name} = {table!r}"
            )
    return value


def _check_agent(table: dict[str, Any], where: str) -> None:
    for key, value in table.items():
        if key not in AGENT_KEYS:
            raise ConfigurationError(
                f"{where}: {unknown_name('key', key, AGENT_KEYS)}"
            )
        check(key, value, AGENT_KEYS[key], owner=where, noun="key")
        if key in _AGENT_MINIMUMS:
            check(key, value, Annotated[int, Range(min=_AGENT_MINIMUMS[key])], owner=where)
        if key in PROCESSOR_LISTS:
            check_specs(value, f"{where} {key}")


def agent_kwargs(path: str | os.PathLike[str], name: str) -> dict[str, Any]:
    """Keyword arguments for ``tripwire.agent.Agent(**kwargs)`` from ``[agents.NAME]``."""
    return load_config(path).agent_kwargs(name)


__all__ = [
    "AGENT_KEYS",
    "MODEL_KINDS",
    "TABLES",
    "Config",
    "ModelKind",
    "agent_kwargs",
    "build_processors",
    "load_config",
    "processor_ids",
]
