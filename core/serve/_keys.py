"""API keys of the gateway: ``[serve.keys.NAME]`` tables (or a keys file of
``[keys.NAME]`` tables) mapping a key to its tenant, the agents it may use, its
processor overrides and its concurrency limit.

The key itself never goes in a file: a table names the environment variable that
holds it (``key_env``) or gives its SHA-256 (``key_sha256``). Presented keys are
hashed and compared with every configured digest by ``hmac.compare_digest`` (no
early exit), so the time a lookup takes says nothing about how much of a key was
right, or which key it was. Logs and metrics name the table (``NAME``), never the key.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from tripwire._call_options import CALLER_SYSTEM
from tripwire._config_processors import check_specs
from tripwire.errors import ConfigurationError
from tripwire.options import check

#: Keys of a ``[serve.keys.NAME]`` table and the types their values must have.
KEY_TABLE: dict[str, Any] = {
    "key_env": str,
    "key_sha256": str,
    "tenant": str,
    "agents": list[str],
    "disable": list[str],
    "input_processors": list[str | dict[str, Any]],
    "output_processors": list[str | dict[str, Any]],
    "max_concurrent": int,
    "caller_system": str,
}

_HEX64 = re.compile(r"[0-9a-f]{64}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class ApiKey:
    """One configured key: ``name`` (its table, what logs show), the SHA-256 of the
    key, the tenant (``RESOURCE_ID_KEY`` of its requests), the agents it may use
    (``None``: all), processor ids it runs without, processors it adds, its limit of
    concurrent requests (``None``: the gateway default), and how its system messages
    count."""

    name: str
    digest: bytes = attrs.field(repr=False)
    tenant: str
    agents: tuple[str, ...] | None = None
    disable: tuple[str, ...] = ()
    input_processors: tuple[Any, ...] = ()
    output_processors: tuple[Any, ...] = ()
    max_concurrent: int | None = None
    #: how the key's system and developer messages, tool definitions and upstream
    #: fields count (the ``caller_system`` option of ``agent.stream()``): ``"input"``,
    #: checked by the input processors, or ``"instructions"``, trusted like the agent's
    #: own
    caller_system: str = "input"

    @property
    def overrides(self) -> bool:
        """Whether the key changes the agents' processor lists."""
        return bool(self.disable or self.input_processors or self.output_processors)

    def may_use(self, agent: str) -> bool:
        return self.agents is None or agent in self.agents


def digest(key: str) -> bytes:
    """The SHA-256 of a key (what tables with ``key_sha256`` hold, as hex). Bytes that
    are not UTF-8 (a header or an environment variable holding them reaches Python as
    surrogates) are hashed as they came: such a key is just another key, not an error."""
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).digest()


class Keys:
    """The configured keys; ``lookup(presented)`` finds one in constant time."""

    def __init__(self, keys: list[ApiKey]) -> None:
        self.keys = keys
        seen: dict[bytes, str] = {}
        for key in keys:
            if key.digest in seen:
                raise ConfigurationError(
                    f"serve.keys.{key.name} and serve.keys.{seen[key.digest]} have the same key"
                )
            seen[key.digest] = key.name

    @property
    def required(self) -> bool:
        """Whether requests must present a key (some are configured)."""
        return bool(self.keys)

    def lookup(self, presented: str) -> ApiKey | None:
        """The key ``presented`` matches, or None. Every configured digest is compared
        (``hmac.compare_digest``), whichever matches."""
        wanted = digest(presented)
        found = None
        for key in self.keys:
            if hmac.compare_digest(wanted, key.digest):
                found = key
        return found


def load_keys(serve: Mapping[str, Any], config_path: Path, keys_file: str | None) -> Keys:
    """The keys of ``[serve.keys.NAME]`` and of the keys file (``keys_file`` argument,
    else ``[serve] keys_file``, relative to the configuration file)."""
    tables: dict[str, tuple[Mapping[str, Any], str]] = {}
    inline = serve.get("keys", {})
    if not isinstance(inline, dict):
        raise ConfigurationError(
            f"{config_path}: [serve] keys must be tables [serve.keys.NAME], got {inline!r:.80}")
    for name, table in inline.items():
        tables[name] = (table, f"{config_path}: [serve.keys.{name}]")
    path = keys_file or serve.get("keys_file")
    if path is not None:
        if not isinstance(path, str):
            raise ConfigurationError(
                f"{config_path}: [serve] keys_file must be a path string, got {path!r}")
        file = Path(path) if keys_file else config_path.parent / path
        for name, table in _read_keys_file(file).items():
            if name in tables:
                raise ConfigurationError(
                    f"{file}: [keys.{name}] is also defined in {config_path} [serve.keys]")
            tables[name] = (table, f"{file}: [keys.{name}]")
    return Keys([_key(name, table, where) for name, (table, where) in tables.items()])


def _read_keys_file(file: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigurationError(f"{file}: no such keys file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigurationError(f"{file}: cannot read the keys file: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigurationError(f"{file}: invalid TOML: {e}") from None
    unknown = [k for k in data if k != "keys"]
    if unknown or not isinstance(data.get("keys", {}), dict):
        raise ConfigurationError(
            f"{file}: a keys file holds only [keys.NAME] tables, got {unknown or ['keys']}")
    keys: dict[str, Any] = data.get("keys", {})
    return keys


def _key(name: str, table: Any, where: str) -> ApiKey:
    if not isinstance(table, dict):
        raise ConfigurationError(f"{where}: must be a table, got {table!r:.80}")
    for key, value in table.items():
        if key not in KEY_TABLE:
            raise ConfigurationError(
                f"{where}: unknown key {key!r}; valid keys: {', '.join(KEY_TABLE)}")
        check(key, value, KEY_TABLE[key], owner=where, noun="key")
    sources = [k for k in ("key_env", "key_sha256") if k in table]
    if len(sources) != 1:
        raise ConfigurationError(
            f"{where}: needs exactly one of key_env = \"ENV_VAR\" (the variable holding the "
            f"key) or key_sha256 = \"<64 hex digits>\" (the key's SHA-256); got "
            f"{', '.join(sources) or 'neither'}")
    if "key_env" in table:
        env = table["key_env"]
        if not _ENV_NAME.fullmatch(env):
            raise ConfigurationError(
                f"{where} key_env: expects the name of an environment variable such as "
                f"\"TEAM_KEY\" (not the key itself)")
        value = os.environ.get(env)
        if not value:
            raise ConfigurationError(f"{where} key_env: the environment variable {env} is not set")
        key_digest = digest(value)
    else:
        hex_digest = table["key_sha256"].lower()
        if not _HEX64.fullmatch(hex_digest):
            raise ConfigurationError(
                f"{where} key_sha256: expects 64 hex digits (python -c \"import hashlib; "
                f"print(hashlib.sha256(b'KEY').hexdigest())\"), got {len(hex_digest)} characters")
        key_digest = bytes.fromhex(hex_digest)
    if table.get("tenant") == "":
        # an empty resource id is no resource: a budget scoped to it would count each
        # run on its own (cost-guard), so the key would have none
        raise ConfigurationError(
            f"{where} tenant: expects a non-empty name (the key's resource id: its "
            f"response-cache entries and budgets); leave it out to use the key's name")
    limit = table.get("max_concurrent")
    if limit is not None and limit < 1:
        raise ConfigurationError(f"{where} max_concurrent: expects an integer >= 1, got {limit}")
    for key in ("input_processors", "output_processors"):
        if key in table:
            check_specs(table[key], f"{where} {key}")
    caller_system = table.get("caller_system", "input")
    if caller_system not in CALLER_SYSTEM:
        raise ConfigurationError(
            f"{where} caller_system: expects {' or '.join(map(repr, CALLER_SYSTEM))}, got "
            f"{caller_system!r:.80}")
    agents = table.get("agents")
    return ApiKey(
        name=name,
        digest=key_digest,
        tenant=table.get("tenant", name),
        agents=tuple(agents) if agents is not None else None,
        disable=tuple(table.get("disable", ())),
        input_processors=tuple(table.get("input_processors", ())),
        output_processors=tuple(table.get("output_processors", ())),
        max_concurrent=limit,
        caller_system=caller_system,
    )
