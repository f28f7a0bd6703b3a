"""Agents from a TOML file: ``[agents.NAME]`` tables, and ``[models.NAME]`` tables for
models that are not a plain router id (the scripted demo model).

.. code-block:: toml

    [agents.support]
    model = "openai/gpt-5-mini"
    instructions = "You are a helpful assistant"
    input_processors = ["unicode-normalizer", { use = "token-limiter", limit = 4000 }]
    output_processors = [{ use = "pii-detector", strategy = "redact" }]
    max_processor_retries = 3

    [agents.demo]
    model = "models.scripted"

    [models.scripted]
    use = "mock"
    responses = [{ text = "Hello from a scripted model." }]

``load_config(path)`` reads and checks the file's shape; ``agent_kwargs(path, name)``
builds the keyword arguments of ``tripwire.agent.Agent`` (processors created through
``tripwire.plugins.create``); ``Agent.from_config(path, name)`` does both. Every error
is a ``ConfigurationError`` that names the file, the table and the key. The format is
documented in docs/configuration.md.
"""

from __future__ import annotations

import importlib
import os
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tripwire._discovery import _check_value, check_options, create
from tripwire.errors import APICallError, ConfigurationError

#: Top-level tables a configuration file may have.
TABLES = ("agents", "models")

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
}

PROCESSOR_LISTS = ("input_processors", "output_processors", "error_processors")


def _mock_model(options: dict[str, Any], label: str) -> Any:
    from tripwire.testing import MockModel

    responses = options.get("responses")
    if isinstance(responses, list):
        options = {**options, "responses": [_mock_response(r) for r in responses]}
    kwargs = check_options(MockModel, options, label=label)
    try:
        return MockModel(**kwargs)
    except (TypeError, ValueError) as e:
        raise ConfigurationError(f"{label}: {e}") from e


def _mock_response(value: Any) -> Any:
    """A TOML response table; ``error = { message = ..., status_code = ... }`` becomes
    the ``APICallError`` the mock raises."""
    if isinstance(value, dict) and isinstance(value.get("error"), dict):
        try:
            return {**value, "error": APICallError(**value["error"])}
        except TypeError as e:
            raise ConfigurationError(
                f"error = {value['error']!r}: {e}; valid keys: message, status_code, "
                f"is_retryable, response_body, url"
            ) from e
    return value


#: ``use = ...`` values of a ``[models.NAME]`` table and the function building each.
MODEL_KINDS: dict[str, Callable[[dict[str, Any], str], Any]] = {"mock": _mock_model}


@attrs.frozen
class Config:
    """A checked configuration file: its agent and model tables as read."""

    path: Path
    agents: Mapping[str, Mapping[str, Any]]
    models: Mapping[str, Mapping[str, Any]]

    def _where(self, table: str, key: str | None = None) -> str:
        return f"{self.path}: [{table}]" + (f" {key}" if key else "")

    def agent_kwargs(self, name: str) -> dict[str, Any]:
        """Keyword arguments for ``Agent(**kwargs)`` from ``[agents.NAME]``."""
        table = self.agents.get(name)
        if table is None:
            known = ", ".join(sorted(self.agents)) or "none defined"
            raise ConfigurationError(f"{self.path}: no agent {name!r}; agents: {known}")
        where = f"agents.{name}"
        if "model" not in table:
            raise ConfigurationError(
                f"{self._where(where)} needs a model: a router id such as "
                f"\"openai/gpt-5-mini\" or a reference \"models.NAME\""
            )
        kwargs: dict[str, Any] = {"id": name}
        for key, value in table.items():
            if key == "model":
                kwargs["model"] = self.model(value, where=self._where(where, key))
            elif key in PROCESSOR_LISTS:
                try:
                    kwargs[key] = build_processors(value)
                except ConfigurationError as e:
                    raise ConfigurationError(f"{self._where(where, key)}{e}") from e
            elif key == "tools":
                kwargs[key] = [self._import(v, self._where(where, key)) for v in value]
            else:
                kwargs[key] = value
        return kwargs

    def model(self, ref: str, *, where: str = "model") -> Any:
        """A router id as is, or the model a ``"models.NAME"`` reference describes."""
        if "/" in ref:
            return ref
        table_name = ref.removeprefix("models.")
        if not ref.startswith("models.") or table_name not in self.models:
            defined = ", ".join(f"models.{m}" for m in sorted(self.models)) or "none defined"
            raise ConfigurationError(
                f"{where}: {ref!r} is neither a router id \"provider/model\" nor a "
                f"reference \"models.NAME\" to a [models.NAME] table (defined: {defined})"
            )
        table = dict(self.models[table_name])
        kind = table.pop("use")
        return MODEL_KINDS[kind](table, self._where(f"models.{table_name}"))

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
        finally:
            if added:
                sys.path.remove(folder)
        return obj


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read a TOML configuration file and check its shape (not yet its processor names)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigurationError(f"{path}: no such configuration file") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigurationError(f"{path}: invalid TOML: {e}") from e
    unknown = [k for k in data if k not in TABLES]
    if unknown:
        raise ConfigurationError(
            f"{path}: unknown top-level key(s) {', '.join(unknown)}; valid: "
            f"{', '.join(f'[{t}.NAME]' for t in TABLES)}"
        )
    agents = _tables(data, "agents", path)
    models = _tables(data, "models", path)
    for name, table in agents.items():
        _check_agent(table, f"{path}: [agents.{name}]")
    for name, table in models.items():
        _check_model(table, f"{path}: [models.{name}]")
    return Config(path, agents, models)


def _tables(data: dict[str, Any], key: str, path: Path) -> dict[str, dict[str, Any]]:
    value = data.get(key, {})
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ConfigurationError(
            f"{path}: {key} must be tables [{key}.NAME], got {key} = {value!r}"
        )
    return value


def _check_agent(table: dict[str, Any], where: str) -> None:
    for key, value in table.items():
        if key not in AGENT_KEYS:
            raise ConfigurationError(
                f"{where}: unknown key {key!r}; valid keys: {', '.join(AGENT_KEYS)}"
            )
        _check_value(value, AGENT_KEYS[key], label=where, key=key, noun="key")
        if key in PROCESSOR_LISTS:
            for i, spec in enumerate(value):
                if isinstance(spec, dict) and not isinstance(spec.get("use"), str):
                    raise ConfigurationError(
                        f"{where} {key}[{i}]: a processor table needs use = \"NAME\", "
                        f"got {spec!r}"
                    )


def _check_model(table: dict[str, Any], where: str) -> None:
    kind = table.get("use")
    if kind not in MODEL_KINDS:
        raise ConfigurationError(
            f"{where}: use = {kind!r} is not a model kind; valid: "
            f"{', '.join(MODEL_KINDS)} (router ids go straight into an agent's model key)"
        )


def build_processors(spec_list: Sequence[str | Mapping[str, Any]]) -> list[Any]:
    """Processors from a list of names and ``{"use": NAME, **options}`` tables."""
    if isinstance(spec_list, str | bytes) or not isinstance(spec_list, Sequence):
        raise ConfigurationError(
            f"a processor list must be a list of names or {{ use = NAME, ... }} tables, "
            f"got {spec_list!r}"
        )
    out = []
    for i, spec in enumerate(spec_list):
        if isinstance(spec, str):
            name, options = spec, {}
        elif isinstance(spec, Mapping) and isinstance(spec.get("use"), str):
            name = spec["use"]
            options = {k: v for k, v in spec.items() if k != "use"}
        else:
            raise ConfigurationError(
                f"[{i}]: expected a processor name or a table with use = \"NAME\", "
                f"got {spec!r}"
            )
        try:
            out.append(create(name, **options))
        except ConfigurationError as e:
            raise ConfigurationError(f"[{i}]: {e}") from e
    return out


def agent_kwargs(path: str | os.PathLike[str], name: str) -> dict[str, Any]:
    """Keyword arguments for ``tripwire.agent.Agent(**kwargs)`` from ``[agents.NAME]``."""
    return load_config(path).agent_kwargs(name)


__all__ = [
    "AGENT_KEYS",
    "MODEL_KINDS",
    "TABLES",
    "Config",
    "agent_kwargs",
    "build_processors",
    "load_config",
]
