"""Processors and CLI commands from installed distributions.

Processors (``tripwire.processors``) and CLI commands (``tripwire.commands``) from
installed distributions, read through the one plugin registry (``tripwire.registry``: a
lazy single scan, de-duplication, broken plugins recorded, the environment's
``TRIPWIRE_LOAD_PLUGINS`` / ``TRIPWIRE_DISABLE_PLUGINS`` lists).

A plugin that fails to import is recorded as broken, so discovery of the others goes
on; asking for it by name raises its error with the distribution named. Tests call
``reset()`` to forget the scan (e.g. after faking distributions).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import attrs

from tripwire import registry
from tripwire.errors import ConfigurationError
from tripwire.hooks._marked import hooks_of
from tripwire.hooks._validation import compile_processor
from tripwire.option_checks import OptionInfo, check_options, options_of
from tripwire.registry import DISABLE_ENV, LOAD_ENV, reset

PROCESSORS_GROUP = registry.PROCESSORS.name
COMMANDS_GROUP = registry.COMMANDS.name


@attrs.frozen
class PluginInfo:
    """One discovered processor: where it comes from and what it implements.

    ``cls`` is the loaded processor class (``None`` when broken), ``hooks`` the
    lifecycle hooks it implements, ``error`` the exception that made it broken.
    """

    name: str
    distribution: str | None
    version: str | None
    value: str
    cls: type | None = None
    hooks: tuple[str, ...] = ()
    error: BaseException | None = attrs.field(default=None, eq=False)

    @classmethod
    def of(cls, plugin: registry.Plugin) -> PluginInfo:
        target = plugin.target
        return cls(
            name=plugin.name,
            distribution=plugin.distribution,
            version=plugin.version,
            value=plugin.value,
            cls=target if plugin.error is None else None,
            hooks=tuple(hooks_of(target)) if isinstance(target, type) else (),
            error=plugin.error,
        )

    @property
    def status(self) -> str:
        """``"ok"`` or ``"broken"``."""
        return "ok" if self.error is None else "broken"

    @property
    def description(self) -> str | None:
        return getattr(self.cls, "description", None) if self.cls is not None else None

    @property
    def options(self) -> tuple[OptionInfo, ...]:
        """The constructor's options (empty when broken: the class could not be read)."""
        return options_of(self.cls) if self.cls is not None else ()


@attrs.frozen
class CommandInfo:
    """One discovered CLI command plugin: ``register(subparsers)`` adds its subparser."""

    name: str
    distribution: str | None
    version: str | None
    value: str
    register: Callable[[Any], Any] | None = None
    error: BaseException | None = attrs.field(default=None, eq=False)

    @classmethod
    def of(cls, plugin: registry.Plugin) -> CommandInfo:
        return cls(
            name=plugin.name,
            distribution=plugin.distribution,
            version=plugin.version,
            value=plugin.value,
            register=plugin.target if plugin.error is None else None,
            error=plugin.error,
        )

    @property
    def status(self) -> str:
        return "ok" if self.error is None else "broken"


def available() -> dict[str, PluginInfo]:
    """Every visible processor plugin by name, each loaded (broken ones included).

    Visible means installed and not hidden by ``TRIPWIRE_DISABLE_PLUGINS`` /
    ``TRIPWIRE_LOAD_PLUGINS``.
    """
    plugins = registry.current().plugins(registry.PROCESSORS)
    return {name: PluginInfo.of(plugin) for name, plugin in plugins.items()}


def hidden() -> dict[str, str]:
    """Installed processor names hidden by the environment, with the reason."""
    return registry.current().hidden(registry.PROCESSORS)


def is_blocked(name: str) -> bool:
    """True when ``TRIPWIRE_DISABLE_PLUGINS`` / ``TRIPWIRE_LOAD_PLUGINS`` hide ``name``."""
    return registry.current().is_blocked(registry.PROCESSORS, name)


def info(name: str) -> PluginInfo:
    """The entry of one visible processor; a clear error if there is none."""
    return PluginInfo.of(registry.current().get(registry.PROCESSORS, name))


def create(name: str, /, **options: Any) -> Any:
    """Build the processor registered as ``name`` with ``options``.

    Options are checked against the constructor's annotations
    (``tripwire.option_checks.check_options``): an unknown or missing option, or a value of
    the wrong type, is a ``ConfigurationError`` naming the processor and the option and
    listing the valid options. A broken plugin raises a ``ConfigurationError`` naming it
    and its distribution, its import error chained.
    """
    plugin = registry.current().get(registry.PROCESSORS, name)
    if plugin.error is not None:
        raise plugin.failure() from plugin.error
    cls = plugin.target
    kwargs = check_options(cls, options, owner=f"processor {name!r}")
    try:
        processor = cls(**kwargs)
    except (TypeError, ValueError) as e:
        said = str(e)   # a built-in's own check names it already: "pii-detector: ..."
        said = said.removeprefix(f"{getattr(cls, 'id', name)}: ")
        raise ConfigurationError(f"processor {name!r}: {said}") from e
    except Exception as e:  # a missing optional dependency, a bug: still one clear line
        raise ConfigurationError(f"processor {name!r}: {type(e).__name__}: {e}") from e
    compile_processor(processor)
    return processor


def commands() -> dict[str, CommandInfo]:
    """Every CLI command plugin (group ``tripwire.commands``) by name, loaded."""
    plugins = registry.current().plugins(registry.COMMANDS)
    return {name: CommandInfo.of(plugin) for name, plugin in plugins.items()}


def default_error_processors() -> list[Any]:
    """The error processors every agent gets (``prefill-error-handler``), unless the
    environment blocks them (``TRIPWIRE_DISABLE_PLUGINS`` / ``TRIPWIRE_LOAD_PLUGINS``, as
    for any plugin). The gateway reads them to let a key disable one by id."""
    name = "prefill-error-handler"
    if os.environ.get(DISABLE_ENV) or LOAD_ENV in os.environ:
        if is_blocked(name):
            return []
    return [registry.builtin(registry.PROCESSORS, name)()]


__all__ = [
    "default_error_processors",
    "PROCESSORS_GROUP",
    "COMMANDS_GROUP",
    "DISABLE_ENV",
    "LOAD_ENV",
    "PluginInfo",
    "CommandInfo",
    "available",
    "hidden",
    "is_blocked",
    "info",
    "create",
    "commands",
    "reset",
]
