"""The ``tripwire`` command line (also ``python -m tripwire``).

Every subcommand, built-in or from a plugin, is added the same way: a function
``register(subparsers)`` adds an ``argparse`` subparser and sets its handler with
``parser.set_defaults(func=handler)``; ``handler(args)`` returns an exit code (or
``None`` for 0) and may be ``async``. Plugins publish such a function in the entry
point group ``tripwire.commands`` (``name = module:register``); one that fails to
load or register is reported by ``tripwire plugins`` and never stops the CLI.

This module assembles the parser and runs a command (``main``); the built-in
commands live in ``_listing`` (``plugins``, ``models``, ``agents``), ``_run``
(``run``, shown by ``_render``; ``common`` holds the shared options), ``tripwire.memory.cli`` (``memory``), ``tripwire.serve`` (``serve``) and ``tripwire.mcp.cli`` (``mcp-proxy``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import inspect
import logging
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tripwire.cli._listing import (
    register_agents_command,
    register_models_command,
    register_plugins_command,
)
from tripwire.cli._render import JSONRenderer, Renderer, _error_message, chunk_json
from tripwire.cli._run import UsageError, configured_agent, model_options, register_run_command
from tripwire.cli.common import add_config_option, add_verbose_option, fail, resolve_config
from tripwire.errors import ConfigurationError, Error
from tripwire.registry import discovery

DESCRIPTION = """\
tripwire runs LLM agents whose every stage passes through processors:
guardrails, rewrites, caches and budgets, installed as Python packages.
"""

EPILOG = """\
examples:
  tripwire plugins                  which processors are installed: hooks, options
  tripwire models                   which model providers are installed
  tripwire agents                   the agents of ./tripwire.toml and their processors
  tripwire run support "Hi" --config tripwire.toml
                                    stream a reply from the agent [agents.support]
                                    (-c FILE may also go before the command)
  echo "Hi" | tripwire run support - -o temperature 0 --json
                                    prompt from stdin, a model setting, NDJSON chunks
  tripwire serve -c agents.toml --port 8080
                                    the agents as an OpenAI-compatible API (docs/serve.md)
  tripwire mcp-proxy support -c agents.toml
                                    the agent's MCP servers as one, guarded (docs/mcp.md)

Run "tripwire COMMAND --help" for the options of one command.
Docs: docs/cli.md, docs/configuration.md, docs/plugins.md, docs/serve.md.
"""

Handler = Callable[[argparse.Namespace], Any]


def _register_memory_command(subparsers: Any) -> None:
    from tripwire.memory.cli import register_memory_command

    register_memory_command(subparsers)


BUILTIN_COMMANDS: dict[str, Callable[[Any], None]] = {
    "plugins": register_plugins_command,
    "models": register_models_command,
    "agents": register_agents_command,
    "run": register_run_command,
    "memory": _register_memory_command,
    "serve": lambda subparsers: _register_serve(subparsers),
    "mcp-proxy": lambda subparsers: _register_mcp_proxy(subparsers),
}


def _register_serve(subparsers: Any) -> None:
    from tripwire.serve import register

    register(subparsers)


def _register_mcp_proxy(subparsers: Any) -> None:
    from tripwire.mcp.cli import register

    register(subparsers)


def version() -> str:
    """tripwire's version, from the installed distribution's metadata."""
    try:
        return importlib.metadata.version("tripwire")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The full parser: built-in commands, then commands from plugins."""
    parser = argparse.ArgumentParser(
        prog="tripwire",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tripwire {version()}")
    add_verbose_option(parser)
    add_config_option(parser, before_command=True)
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for register in BUILTIN_COMMANDS.values():
        register(subparsers)
    for name, command in _plugin_commands().items():
        _add_plugin_command(subparsers, name, command)
    return parser


def _plugin_commands() -> dict[str, discovery.CommandInfo]:
    try:
        return discovery.commands()
    except Exception:  # unreadable metadata must not brick the CLI
        return {}


def _add_plugin_command(subparsers: Any, name: str, command: discovery.CommandInfo) -> None:
    error = command.error
    if error is None and name in BUILTIN_COMMANDS:
        error = ConfigurationError(f"the name {name!r} is a built-in command")
    if error is None and command.register is not None:
        try:
            command.register(subparsers)
            return
        except Exception as e:  # noqa: BLE001 - reported when the command is used
            error = e
    where = " ".join(filter(None, [command.distribution, command.version]))
    message = (
        f"command {name!r} from {where or 'an unknown distribution'} ({command.value}) "
        f"is broken: {type(error).__name__}: {error}"
    )
    if name in subparsers.choices:
        return
    broken = subparsers.add_parser(name, help=f"(broken: {type(error).__name__})", add_help=False)
    broken.set_defaults(func=lambda args: fail(message), accepts_any_arguments=True)


@contextlib.contextmanager
def _logging_to_stderr(verbose: int) -> Iterator[None]:
    """``-v``: tripwire's loggers (``tripwire``, ``tripwire.models``, ...) to stderr at
    INFO, ``-vv`` at DEBUG; removed again when the command ends."""
    if not verbose:
        yield
        return
    logger = logging.getLogger("tripwire")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s: %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if verbose == 1 else logging.DEBUG)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _silence_stdout() -> None:
    """stdout's reader went away (``tripwire run ... | head``): send what is left to
    /dev/null, so that Python's final flush does not complain (Python docs, SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "accepts_any_arguments", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    resolve_config(parser, args)
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    verbose = getattr(args, "verbose", 0) or 0
    with _logging_to_stderr(verbose):
        try:
            result = func(args)
            if inspect.isawaitable(result):
                result = asyncio.run(_await(result))
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            _silence_stdout()
            return 1
        except Error as e:
            return fail(str(e))
        except Exception as e:
            if verbose:
                sys.stdout.flush()
                traceback.print_exc(file=sys.stderr)
                return fail(_error_message(e))
            return fail(f"{_error_message(e)} (tripwire -v shows the traceback)")
    return 0 if result is None else int(result)


async def _await(awaitable: Any) -> Any:
    return await awaitable


__all__ = [
    "BUILTIN_COMMANDS",
    "JSONRenderer",
    "Renderer",
    "UsageError",
    "build_parser",
    "chunk_json",
    "configured_agent",
    "main",
    "model_options",
    "register_agents_command",
    "register_models_command",
    "register_plugins_command",
    "register_run_command",
    "version",
]
