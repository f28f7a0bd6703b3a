"""Agents from a TOML file: ``[agents.NAME]`` tables, and ``[models.NAME]`` tables for
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

``load_config(path)`` reads the file and checks its shape (every key and value type);
``Config.agent(name)`` builds the ``tripwire.agent.Agent``, ``Config.agent_kwargs(name)``
its keyword arguments (processors created through ``tripwire.plugins.create``).
Every error is a ``ConfigurationError`` that names the file, the table and the key.
The format is documented in docs/configuration.md.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import attrs

from tripwire._discovery import create
from tripwire.errors import APICallError, ConfigurationError, TripwireError
from tripwire.options import Range, check, constructor_hints

if TYPE_CHECKING:
    from tripwire.agent import Agent

#: Top-level tables a configuration file may have (``[serve]`` is read by
#: ``tripwire serve``, see docs/serve.md).
TABLES = ("agents", "models", "serve")

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
}

#: Smallest value of the integer keys of an ``[agents.NAME]`` table.
_AGENT_MINIMUMS = {"max_steps": 1, "max_processor_retries": 0}

PROCESSOR_LISTS = ("input_processors", "output_processors", "error_processors")

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
    from tripwire.models import Timeout

    def seconds(v: Any) -> bool:
        return isinstance(v, int | float) and not isinstance(v, bool) and v > 0

    if seconds(value):
        return float(value)
    fields = [a.name for a in attrs.fields(Timeout)]
    if isinstance(value, dict):
        unknown = [k for k in value if k not in fields]
        if unknown:
            raise ConfigurationError(
                f"{where} timeout: unknown key {unknown[0]!r}; valid keys: {', '.join(fields)}"
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


@attrs.frozen
class Config:
    """A checked configuration file: its agent and model tables as read."""

    path: Path
    agents: Mapping[str, Mapping[str, Any]]
    models: Mapping[str, Mapping[str, Any]]
    #: the ``[serve]`` table as read (``tripwire serve`` checks it: docs/serve.md)
    serve: Mapping[str, Any] = attrs.field(factory=dict)

    def _where(self, table: str, key: str | None = None) -> str:
        return f"{self.path}: [{table}]" + (f" {key}" if key else "")

    def _agent_table(self, name: str) -> Mapping[str, Any]:
        table = self.agents.get(name)
        if table is None:
            known = ", ".join(sorted(self.agents)) or "none defined"
            raise ConfigurationError(f"{self.path}: no agent {name!r}; agents: {known}")
        return table

    def agent_kwargs(
        self, name: str, *, model: str | None = None, model_where: str = "model override"
    ) -> dict[str, Any]:
        """Keyword arguments for ``Agent(**kwargs)`` from ``[agents.NAME]``.

        ``model`` (a router id or ``"models.NAME"``) replaces the table's model;
        errors about it are labelled ``model_where``. The settings of the model's
        ``[models.NAME]`` table come first in ``model_settings``, the agent's own
        ``model_settings`` override them.
        """
        table = self._agent_table(name)
        where = f"agents.{name}"
        if model is None:
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
                    kwargs[key] = build_processors(value)
                except ConfigurationError as e:
                    raise ConfigurationError(f"{self._where(where, key)}{e}") from e
            elif key == "tools":
                kwargs[key] = [self._import(v, self._where(where, key)) for v in value]
            elif key == "memory":
                from tripwire.memory import Memory

                try:
                    kwargs[key] = Memory.from_config(value)
                except (ConfigurationError, TypeError, ValueError) as e:
                    raise ConfigurationError(f"{self._where(where, key)}: {e}") from e
            else:
                kwargs[key] = value
        kwargs["model"] = self.model(model, where=model_where)
        settings = {**self.model_settings(model, where=model_where), **table.get("model_settings", {})}
        if settings:
            kwargs["model_settings"] = settings
        return kwargs

    def agent(
        self,
        name: str,
        *,
        model: str | None = None,
        model_where: str = "model override",
        instructions: Sequence[str] = (),
        model_settings: Mapping[str, Any] | None = None,
    ) -> Agent:
        """The agent ``[agents.NAME]``.

        ``model`` replaces the configured model (see ``agent_kwargs``),
        ``instructions`` are added after the configured ones, ``model_settings``
        override the configured ones. An error the ``Agent`` constructor raises is a
        ``ConfigurationError`` naming the file and the table too.

        A model built from an ``openai-compatible`` or ``anthropic`` table belongs to the
        agent: ``await agent.aclose()`` (or ``async with agent``) closes its session.
        """
        from tripwire.agent import Agent

        kwargs = self.agent_kwargs(name, model=model, model_where=model_where)
        if instructions:
            configured = kwargs.get("instructions") or []
            configured = [configured] if isinstance(configured, str) else list(configured)
            kwargs["instructions"] = [*configured, *instructions]
        if model_settings:
            kwargs["model_settings"] = {**kwargs.get("model_settings", {}), **model_settings}
        return self.build(Agent, name, kwargs)

    def build(self, cls: type[Agent], name: str, kwargs: dict[str, Any]) -> Agent:
        """``cls(**kwargs)`` for ``[agents.NAME]``: an error the constructor raises names
        the file and the table; a model built from a ``[models.NAME]`` table belongs to
        the agent (``agent.aclose()`` / ``async with agent`` closes its session)."""
        try:
            agent = cls(**kwargs)
        except (TripwireError, TypeError, ValueError) as e:
            raise ConfigurationError(f"{self._where(f'agents.{name}')}: {e}") from e
        if agent.model is kwargs.get("model") and hasattr(agent.model, "aclose"):
            agent._adopt(agent.model)
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
    """Read a TOML configuration file and check its shape (not yet its processor names)."""
    path = Path(path)
    data = _parse(_read(path), path)
    unknown = [k for k in data if k not in TABLES]
    if unknown:
        raise ConfigurationError(
            f"{path}: unknown top-level key(s) {', '.join(unknown)}; valid: "
            f"{', '.join(f'[{t}.NAME]' for t in TABLES[:2])}, [serve]"
        )
    agents = _tables(data, "agents", path)
    models = _tables(data, "models", path)
    for name, table in agents.items():
        _check_agent(table, f"{path}: [agents.{name}]")
    for name, table in models.items():
        _check_model(table, f"{path}: [models.{name}]")
    serve = data.get("serve", {})
    if not isinstance(serve, dict):
        raise ConfigurationError(f"{path}: serve must be a table [serve], got serve = {serve!r}")
    return Config(path, agents, models, serve)


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
                f"{where}: unknown key {key!r}; valid keys: {', '.join(AGENT_KEYS)}"
            )
        check(key, value, AGENT_KEYS[key], owner=where, noun="key")
        if key in _AGENT_MINIMUMS:
            check(key, value, Annotated[int, Range(min=_AGENT_MINIMUMS[key])], owner=where)
        if key in PROCESSOR_LISTS:
            _check_specs(value, f"{where} {key}")


_GROUP_KINDS = ("parallel", "sequence")


def _group_kind(spec: Mapping[str, Any]) -> str | None:
    kinds = [k for k in _GROUP_KINDS if k in spec]
    return kinds[0] if len(kinds) == 1 and "use" not in spec else None


def _check_specs(specs: Any, where: str) -> None:
    """Check a processor list of names, ``{ use = ... }`` tables and group tables
    (``{ parallel = [...], id = "..." }``, ``{ sequence = [...], id = "..." }``)."""
    if isinstance(specs, str | bytes) or not isinstance(specs, Sequence):
        raise ConfigurationError(f"{where}: expected a list of processors, got {specs!r}")
    for i, spec in enumerate(specs):
        if isinstance(spec, str):
            continue
        here = f"{where}[{i}]"
        if not isinstance(spec, Mapping):
            raise ConfigurationError(f"{here}: expected a processor name or a table, got "
                                     f"{spec!r}")
        kind = _group_kind(spec)
        if kind is not None:
            allowed = {kind, "id"} | ({"select"} if kind == "parallel" else set())
            unknown = set(spec) - allowed
            if unknown:
                raise ConfigurationError(
                    f"{here}: unknown key(s) {sorted(unknown)} in a {kind} group; valid: "
                    f"{', '.join(sorted(allowed))}")
            if not isinstance(spec.get("id"), str) or not spec["id"]:
                raise ConfigurationError(f"{here}: a {kind} group needs id = \"...\"")
            _check_specs(spec[kind], f"{here}.{kind}")
        elif not isinstance(spec.get("use"), str):
            raise ConfigurationError(
                f"{here}: a processor table needs use = \"NAME\" (or is a group: "
                f"{{ parallel = [...], id = \"...\" }} / {{ sequence = [...], id = \"...\" }}), "
                f"got {spec!r}"
            )


def _check_model(table: dict[str, Any], where: str) -> None:
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
                f"{where}: unknown key {key!r}; valid keys: {', '.join(keys)}"
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


def build_processors(spec_list: Sequence[str | Mapping[str, Any]]) -> list[Any]:
    """Processors from a list of names, ``{"use": NAME, **options}`` tables and group
    tables (``{"parallel": [...], "id": ...}``, ``{"sequence": [...], "id": ...}``).

    Two keys of a processor table are not constructor options: ``mode`` (wraps the
    processor as ``WithMode``) and ``fail_open`` (a bool set as the processor's
    ``fail_open`` attribute, so a failure lets its input through)."""
    if isinstance(spec_list, str | bytes) or not isinstance(spec_list, Sequence):
        raise ConfigurationError(
            f"a processor list must be a list of names or {{ use = NAME, ... }} tables, "
            f"got {spec_list!r}"
        )
    from tripwire.groups import parallel, sequence

    out: list[Any] = []
    for i, spec in enumerate(spec_list):
        if isinstance(spec, Mapping) and (kind := _group_kind(spec)) is not None:
            group_id: Any = spec.get("id")  # parallel() and sequence() check it
            try:
                members = build_processors(spec[kind])
                if kind == "parallel":
                    out.append(parallel(*members, id=group_id, select=spec.get("select")))
                else:
                    out.append(sequence(*members, id=group_id))
            except (ConfigurationError, TypeError, ValueError) as e:
                raise ConfigurationError(f"[{i}] ({kind} group): {e}") from e
            continue
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
        mode = options.pop("mode", None)
        fail_open = options.pop("fail_open", None)
        if fail_open is not None and not isinstance(fail_open, bool):
            raise ConfigurationError(
                f"[{i}]: fail_open = {fail_open!r} must be true or false (true: a failure "
                f"of {name!r} lets its input through instead of ending the run)")
        try:
            processor = create(name, **options)
        except ConfigurationError as e:
            raise ConfigurationError(f"[{i}]: {e}") from e
        if fail_open is not None:
            _set_fail_open(processor, fail_open, f"[{i}]: processor {name!r}")
        if mode is not None:
            from tripwire._validation import MODES, WithMode

            if mode not in MODES:
                raise ConfigurationError(
                    f"[{i}]: mode = {mode!r} is not a mode; valid: {', '.join(MODES)}")
            processor = WithMode(processor, mode)
        out.append(processor)
    return out


def _set_fail_open(processor: Any, fail_open: bool, where: str) -> None:
    """Set ``fail_open`` on a built processor (a ``Processor`` attribute; any other
    processor object gets the attribute too, which is where the runner reads it)."""
    try:
        processor.fail_open = fail_open
    except AttributeError as e:  # __slots__ without fail_open, a frozen class
        raise ConfigurationError(
            f"{where}: cannot set fail_open on a {type(processor).__name__} object (its "
            f"class has __slots__ or is frozen); make fail_open a settable attribute"
        ) from e


def processor_ids(spec_list: Sequence[str | Mapping[str, Any]]) -> list[str]:
    """The processor names of a checked processor list, without building them (a
    group shows as ``id(kind: member, ...)``)."""
    out = []
    for spec in spec_list:
        if isinstance(spec, Mapping) and (kind := _group_kind(spec)) is not None:
            out.append(f"{spec['id']}({kind}: {', '.join(processor_ids(spec[kind]))})")
        else:
            out.append(spec if isinstance(spec, str) else str(spec["use"]))
    return out


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
