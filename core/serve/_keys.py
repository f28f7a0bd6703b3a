"""API keys of the gateway: tenant, agents, processor overrides, concurrency limit.

API keys of the gateway: ``[serve.keys.NAME]`` tables (or a keys file of ``[keys.NAME]``
tables) mapping a key to its tenant, the agents it may use, its processor overrides and
its concurrency limit.

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
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from tripwire.config.serve_table import check_key_table
from tripwire.errors import ConfigurationError

#: Requests in flight at once for a key that sets no ``max_concurrent`` of its own,
#: unless ``[serve] max_concurrent`` says otherwise.
DEFAULT_MAX_CONCURRENT = 64


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
    """The configured keys; ``lookup(presented)`` finds one in constant time.
    ``max_concurrent``: the limit of a key that sets none (``[serve] max_concurrent``)."""

    def __init__(self, keys: list[ApiKey], max_concurrent: int = DEFAULT_MAX_CONCURRENT) -> None:
        self.keys = keys
        self.max_concurrent = max_concurrent
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

    def limit(self, key: ApiKey) -> int:
        """How many requests ``key`` may have in flight at once."""
        return key.max_concurrent or self.max_concurrent

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
    else ``[serve] keys_file``, relative to the configuration file), with ``[serve]
    max_concurrent`` as the limit of a key that sets none."""
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
    return Keys([_key(name, table, where) for name, (table, where) in tables.items()],
                serve.get("max_concurrent", DEFAULT_MAX_CONCURRENT))


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
    check_key_table(table, where)
    if "key_env" in table:
        env = table["key_env"]
        value = os.environ.get(env)
        if not value:
            raise ConfigurationError(f"{where} key_env: the environment variable {env} is not set")
        key_digest = digest(value)
    else:
        key_digest = bytes.fromhex(table["key_sha256"].lower())
    agents = table.get("agents")
    limit = table.get("max_concurrent")
    return ApiKey(
        name=name,
        digest=key_digest,
        tenant=table.get("tenant", name),
        agents=tuple(agents) if agents is not None else None,
        disable=tuple(table.get("disable", ())),
        input_processors=tuple(table.get("input_processors", ())),
        output_processors=tuple(table.get("output_processors", ())),
        max_concurrent=limit,
        caller_system=table.get("caller_system", "input"),
    )
