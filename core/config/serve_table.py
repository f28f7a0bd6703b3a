"""The shape of a configuration file's ``[serve]`` table, checked whenever the file is loaded.

The shape of a configuration file's ``[serve]`` table and its ``[serve.keys.NAME]``
tables, checked whenever the file is loaded (``load_config``), so ``tripwire run`` and
``tripwire agents`` reject a misspelt ``[serve]`` key exactly as ``tripwire serve``
does.

What needs more than the file is read when the gateway is built (``tripwire.serve``):
the environment variables ``metrics_key_env`` and ``key_env`` name, and the keys file.
"""

from __future__ import annotations

import math
import re
from typing import Any

from tripwire.config._processors import check_specs
from tripwire.errors import ConfigurationError
from tripwire.option_checks import check, unknown_name
from tripwire.run._call import CALLER_SYSTEM

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

#: Keys of a ``[serve.keys.NAME]`` table (or a keys file's ``[keys.NAME]``) and the
#: types their values must have.
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

_POSITIVE = ("max_body_bytes", "max_concurrent", "shutdown_timeout", "write_timeout")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def check_serve(serve: Any, where: str) -> dict[str, Any]:
    """The ``[serve]`` table ``serve`` with each value checked against ``SERVE_KEYS``
    (and converted: ``shutdown_timeout = 5`` is ``5.0``), its limits above zero and its
    ``[serve.keys.NAME]`` tables checked by ``check_key_table``. ``where`` starts every
    error (``"agents.toml: [serve]"``)."""
    if not isinstance(serve, dict):
        raise ConfigurationError(f"{where} must be a table, got serve = {serve!r:.80}")
    checked: dict[str, Any] = {}
    for name, value in serve.items():
        if name not in SERVE_KEYS:
            raise ConfigurationError(f"{where}: {unknown_name('key', name, SERVE_KEYS)}")
        checked[name] = check(name, value, SERVE_KEYS[name], owner=where, noun="key")
    for name in _POSITIVE:
        if name in checked and not checked[name] > 0:
            raise ConfigurationError(f"{where} {name}: expects a number > 0, got {checked[name]}")
    if "write_timeout" in checked and not math.isfinite(checked["write_timeout"]):
        raise ConfigurationError(
            f"{where} write_timeout: expects a finite number of seconds > 0, got "
            f"{checked['write_timeout']}")
    if "metrics_key_env" in checked and "metrics_key" in checked:
        raise ConfigurationError(
            f"{where}: give metrics_key or metrics_key_env (the environment variable "
            f"holding it), not both")
    if "metrics_key" in checked:
        check_metrics_key(checked["metrics_key"], where)
    table = where.removesuffix("[serve]")
    for name, keys in checked.get("keys", {}).items():
        check_key_table(keys, f"{table}[serve.keys.{name}]")
    return checked


def check_metrics_key(key: str, where: str) -> None:
    """``metrics_key`` (from the file, or the variable ``metrics_key_env`` names) is not
    empty and has no spaces around it: a header's value is stripped, so such a key
    would never match."""
    if not key or key != key.strip():
        raise ConfigurationError(
            f"{where} metrics_key: expects the key /metrics asks for (Authorization: Bearer "
            f"KEY), not empty and without spaces around it")


def check_key_table(table: Any, where: str) -> None:
    """Check one key's table: its keys and their types, exactly one of ``key_env`` (a
    variable name) and ``key_sha256`` (64 hex digits), a non-empty ``tenant``,
    ``max_concurrent >= 1``, its processor lists and ``caller_system``. Whether the
    variable ``key_env`` names is set is the gateway's check, when it starts."""
    if not isinstance(table, dict):
        raise ConfigurationError(f"{where}: must be a table, got {table!r:.80}")
    for key, value in table.items():
        if key not in KEY_TABLE:
            raise ConfigurationError(f"{where}: {unknown_name('key', key, KEY_TABLE)}")
        check(key, value, KEY_TABLE[key], owner=where, noun="key")
    sources = [k for k in ("key_env", "key_sha256") if k in table]
    if len(sources) != 1:
        raise ConfigurationError(
            f"{where}: needs exactly one of key_env = \"ENV_VAR\" (the variable holding the "
            f"key) or key_sha256 = \"<64 hex digits>\" (the key's SHA-256); got "
            f"{', '.join(sources) or 'neither'}")
    if "key_env" in table and not _ENV_NAME.fullmatch(table["key_env"]):
        raise ConfigurationError(
            f"{where} key_env: expects the name of an environment variable such as "
            f"\"TEAM_KEY\" (not the key itself)")
    if "key_sha256" in table and not _HEX64.fullmatch(table["key_sha256"].lower()):
        raise ConfigurationError(
            f"{where} key_sha256: expects 64 hex digits (python -c \"import hashlib; "
            f"print(hashlib.sha256(b'KEY').hexdigest())\"), got {len(table['key_sha256'])} "
            f"characters")
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
