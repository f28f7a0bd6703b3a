"""The ``[models.NAME]`` tables of a configuration file.

The model kinds a table may ``use``, the keys each kind takes (read from its class's
constructor), checking a table, and building the model it describes (the API key read
from the environment variable the table names: keys never go in files). The format is
documented in docs/configuration.md."""

from __future__ import annotations

import importlib
import inspect
import os
import re
from collections.abc import Mapping
from typing import Any

import attrs

from tripwire.errors import APICallError, ConfigurationError
from tripwire.option_checks import check, constructor_hints, unknown_name

#: The type a TOML value must have where the constructor's annotation cannot say it.
_TOML_TYPES: dict[str, Any] = {
    "responses": list[Any],  # each item is checked by MockResponse
    "headers": dict[str, str],
    "timeout": Any,  # a number or a { connect, read, total } table: see _timeout
}

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class ModelKind:
    """One ``use = "..."`` value of a ``[models.NAME]`` table.

    ``module`` / ``attr`` name the model class; its constructor's keyword arguments
    are the table's keys, except that ``api_key`` is replaced by ``api_key_env`` (the
    name of the environment variable holding the key: keys never go in files). Every
    kind also takes ``settings``, the ``model_settings`` sent with each call.
    ``api_key_env`` is the variable used when the table names neither ``api_key_env``
    nor ``base_url`` (the provider's own API, as its router id does).
    """

    module: str
    attr: str
    api_key_env: str | None = None

    def cls(self) -> type:
        return getattr(importlib.import_module(self.module), self.attr)  # type: ignore[no-any-return]

    def _params(self) -> list[inspect.Parameter]:
        """The constructor's options; for an HTTP provider, its ``transport`` object's
        fields stand in for the object itself (a table gives them as keys)."""
        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        signature = inspect.signature(self.cls()).parameters
        params = [p for p in signature.values() if p.kind in kinds and p.name != "transport"]
        if "transport" in signature:
            from tripwire.models._http import Transport

            params += [inspect.Parameter(a.name, inspect.Parameter.KEYWORD_ONLY, default=None)
                       for a in attrs.fields(Transport)]
        return params

    def keys(self) -> dict[str, Any]:
        """Every key the table may have, in order, and the type its value must have."""
        hints = dict(constructor_hints(self.cls()))
        if "transport" in inspect.signature(self.cls()).parameters:
            import typing

            from tripwire.models._http import TransportOptions

            hints.update(typing.get_type_hints(TransportOptions))
        keys: dict[str, Any] = {"use": str}
        for p in self._params():
            if p.name == "api_key":
                keys["api_key_env"] = str
            else:
                keys[p.name] = _TOML_TYPES.get(p.name, hints.get(p.name, Any))
        keys["settings"] = dict[str, Any]
        return keys

    def required(self) -> list[str]:
        return [p.name for p in self._params() if p.default is p.empty and p.name != "api_key"]

    def build(self, table: Mapping[str, Any], where: str) -> Any:
        """The model a checked table describes (``api_key`` read from the environment)."""
        cls = self.cls()
        params = {p.name for p in self._params()}
        kwargs = {k: v for k, v in table.items() if k not in ("use", "settings", "api_key_env")}
        if "responses" in kwargs:
            kwargs["responses"] = [_mock_response(r, where) for r in kwargs["responses"]]
        if "timeout" in kwargs:
            kwargs["timeout"] = _timeout(kwargs["timeout"], where)
        if "api_key" in params:
            env = table.get("api_key_env")
            if env is None and "base_url" not in table:
                env = self.api_key_env
            kwargs["api_key"] = _api_key(env, where) if env else None
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as e:
            raise ConfigurationError(f"{where}: {e}") from e


#: ``use = ...`` values of a ``[models.NAME]`` table.
MODEL_KINDS: dict[str, ModelKind] = {
    "mock": ModelKind("tripwire.testing", "MockModel"),
    "openai-compatible": ModelKind("tripwire.models", "OpenAICompatible"),
    "openai-responses": ModelKind("tripwire.models", "OpenAIResponses"),
    "anthropic": ModelKind("tripwire.models", "Anthropic", api_key_env="ANTHROPIC_API_KEY"),
}


def _mock_response(value: Any, where: str) -> Any:
    """A TOML response table; ``error = { message = ..., status_code = ... }`` becomes
    the ``APICallError`` the mock raises."""
    if isinstance(value, dict) and isinstance(value.get("error"), dict):
        try:
            return {**value, "error": APICallError(**value["error"])}
        except TypeError as e:
            raise ConfigurationError(
                f"{where} responses: error = {value['error']!r}: {e}; valid keys: message, "
                f"status_code, is_retryable, response_body, url"
            ) from e
    return value


def _timeout(value: Any, where: str) -> Any:
    """A number of seconds, or a ``{ connect, read, total }`` table as a ``Timeout``."""
    from tripwire.models._http import Timeout

    def seconds(v: Any) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool) and v > 0

    if seconds(value):
        return float(value)
    fields = [a.name for a in attrs.fields(Timeout)]
    if isinstance(value, dict):
        unknown = [k for k in value if k not in fields]
        if unknown:
            raise ConfigurationError(
                f"{where} timeout: {unknown_name('key', unknown[0], fields)}"
            )
        for k, v in value.items():
            if not seconds(v):
                raise ConfigurationError(
                    f"{where} timeout.{k}: expects a number of seconds > 0, got {v!r}"
                )
        return Timeout(**{k: float(v) for k, v in value.items()})
    raise ConfigurationError(
        f"{where}: key 'timeout' expects a number of seconds > 0 or a table "
        f"{{ {', '.join(fields)} }}, got {value!r}"
    )


def _api_key(env: str, where: str) -> str:
    key = os.environ.get(env)
    if not key:
        raise ConfigurationError(
            f"{where} api_key_env: the environment variable {env} is not set; "
            f"export {env}=... (the key itself never goes in the file)"
        )
    return key


def check_model(table: dict[str, Any], where: str) -> None:
    """Check a ``[models.NAME]`` table as read: a known ``use`` kind, only that kind's
    keys with values of their types, its required keys, and no ``api_key`` (only the
    name of the variable holding it). ``where`` starts every error message."""
    kinds = ", ".join(MODEL_KINDS)
    if "use" not in table:
        raise ConfigurationError(
            f"{where}: needs use = \"KIND\"; kinds: {kinds} (router ids go straight into "
            f"an agent's model key)"
        )
    kind = table["use"]
    if kind not in MODEL_KINDS:
        raise ConfigurationError(
            f"{where}: use = {kind!r} is not a model kind; valid: {kinds} "
            f"(router ids go straight into an agent's model key)"
        )
    keys = MODEL_KINDS[kind].keys()
    if "api_key" in table:
        raise ConfigurationError(
            f"{where}: api_key does not belong in a configuration file; put the key in an "
            f"environment variable and name it: api_key_env = \"MY_API_KEY\""
        )
    for key, value in table.items():
        if key not in keys:
            raise ConfigurationError(
                f"{where}: {unknown_name('key', key, keys)}"
            )
        if key == "timeout":
            _timeout(value, where)
            continue
        check(key, value, keys[key], owner=where, noun="key")
        if key == "api_key_env" and not _ENV_NAME.fullmatch(value):
            raise ConfigurationError(
                f"{where} api_key_env: expects the name of an environment variable such as "
                f"\"MY_API_KEY\" (not the key itself)"
            )
    missing = [k for k in MODEL_KINDS[kind].required() if k not in table]
    if missing:
        raise ConfigurationError(
            f"{where}: needs key {', '.join(map(repr, missing))}; valid keys: {', '.join(keys)}"
        )
