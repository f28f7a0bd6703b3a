"""The ``tripwire`` command line (also ``python -m tripwire``).

Every subcommand, built-in or from a plugin, is added the same way: a function
``register(subparsers)`` adds an ``argparse`` subparser and sets its handler with
``parser.set_defaults(func=handler)``; ``handler(args)`` returns an exit code (or
``None`` for 0) and may be ``async``. Plugins publish such a function in the entry
point group ``tripwire.commands`` (``name = module:register``); one that fails to
load or register is reported by ``tripwire plugins`` and never stops the CLI.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from tripwire import _discovery
from tripwire.errors import ConfigurationError, TripwireError

DESCRIPTION = """\
tripwire runs LLM agents whose every stage passes through processors:
guardrails, rewrites, caches and budgets, installed as Python packages.
"""

EPILOG = """\
examples:
  tripwire plugins                  which processors are installed, and their hooks
  tripwire models                   which model providers are installed
  tripwire run support "Hi" --config tripwire.toml
                                    stream a reply from the agent [agents.support]

Run "tripwire COMMAND --help" for the options of one command.
Docs: docs/cli.md, docs/configuration.md, docs/plugins.md.
"""

Handler = Callable[[argparse.Namespace], Any]


# ---------------------------------------------------------------- plugins


def register_plugins_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "plugins",
        help="list installed processors (name, distribution, version, hooks, status)",
        description=(
            "List the processors installed in the entry point group tripwire.processors, "
            "with the distribution that provides each, its version, the hooks it "
            "implements and whether it loads. A broken plugin shows its import error. "
            "TRIPWIRE_LOAD_PLUGINS / TRIPWIRE_DISABLE_PLUGINS narrow the list."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=_plugins)


def _plugins(args: argparse.Namespace) -> int:
    processors = _discovery.available()
    hidden = _discovery.hidden()
    commands = _discovery.commands()
    out: IO[str] = sys.stdout
    if args.json:
        doc = {
            "processors": [
                {
                    "name": p.name,
                    "distribution": p.distribution,
                    "version": p.version,
                    "entry_point": p.value,
                    "hooks": list(p.hooks),
                    "status": p.status,
                    "error": _error_text(p.error),
                }
                for p in processors.values()
            ],
            "hidden": hidden,
            "commands": [
                {
                    "name": c.name,
                    "distribution": c.distribution,
                    "version": c.version,
                    "entry_point": c.value,
                    "status": c.status,
                    "error": _error_text(c.error),
                }
                for c in commands.values()
            ],
        }
        out.write(json.dumps(doc, indent=2) + "\n")
        return 0
    rows = [
        [
            p.name,
            p.distribution or "?",
            p.version or "?",
            ", ".join(h.removeprefix("process_") for h in p.hooks) or "-",
            p.status if p.error is None else f"broken: {_error_text(p.error)}",
        ]
        for p in processors.values()
    ]
    if rows:
        _table(out, ["NAME", "DISTRIBUTION", "VERSION", "HOOKS (process_*)", "STATUS"], rows)
    else:
        out.write("No processors installed (entry point group tripwire.processors).\n")
    for name, why in hidden.items():
        out.write(f"hidden: {name} ({why})\n")
    if commands:
        out.write("\nCommands from plugins:\n")
        _table(
            out,
            ["COMMAND", "DISTRIBUTION", "VERSION", "STATUS"],
            [
                [c.name, c.distribution or "?", c.version or "?",
                 c.status if c.error is None else f"broken: {_error_text(c.error)}"]
                for c in commands.values()
            ],
        )
    return 0


def _error_text(error: BaseException | None) -> str | None:
    return None if error is None else f"{type(error).__name__}: {error}"


def _table(out: IO[str], header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)] + [row[-1]]
        out.write("  ".join(cells).rstrip() + "\n")


# ---------------------------------------------------------------- models


def register_models_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "models",
        help="list installed model providers (the part before '/' in 'openai/gpt-5-mini')",
        description=(
            "List the model providers in the entry point group tripwire.models. An agent's "
            "model is a router id PROVIDER/MODEL, e.g. openai/gpt-5-mini."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=_models)


def _models(args: argparse.Namespace) -> int:
    from tripwire.models import providers

    rows = [
        [name, getattr(factory, "dist", None) or "(registered at run time)"]
        for name, factory in sorted(providers().items())
    ]
    if args.json:
        doc = [{"name": n, "distribution": d} for n, d in rows]
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
    elif rows:
        _table(sys.stdout, ["PROVIDER", "DISTRIBUTION"], rows)
    else:
        sys.stdout.write("No model providers installed (entry point group tripwire.models).\n")
    return 0


# ---------------------------------------------------------------- run


def register_run_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="stream one reply of an agent defined in a TOML file",
        description=(
            "Build the agent [agents.AGENT] of the configuration file, send it PROMPT and "
            "stream the reply: text as it arrives, tool calls and results on their own "
            "lines, data chunks dimmed. When a processor stops the run, "
            "'[tripwire] <processor id>: <reason>' goes to stderr and the exit code is 2."
        ),
        epilog="exit codes: 0 reply complete, 1 error, 2 stopped by a processor (tripwire)",
    )
    parser.add_argument("agent", metavar="AGENT", help="name of an [agents.AGENT] table")
    parser.add_argument("prompt", metavar="PROMPT", help="the user message to send")
    parser.add_argument(
        "--config", "-c", metavar="FILE", default="tripwire.toml",
        help="TOML configuration file (default: %(default)s)",
    )
    parser.add_argument(
        "--model", "-m", metavar="ID",
        help="use this model instead of the configured one: a router id such as "
        "openai/gpt-5-mini, or models.NAME for a [models.NAME] table of the file",
    )
    parser.set_defaults(func=_run)


async def _run(args: argparse.Namespace) -> int:
    from tripwire.agent import Agent
    from tripwire.config import load_config

    overrides: dict[str, Any] = {}
    if args.model:
        overrides["model"] = load_config(args.config).model(args.model, where="--model")
    agent = Agent.from_config(args.config, args.agent, **overrides)
    render = Renderer(sys.stdout, sys.stderr)
    async with agent:
        stream = agent.stream(args.prompt)
        try:
            async with stream:
                async for chunk in stream:
                    render(chunk)
        except Exception:
            if not render.errors:  # not yet shown as an error chunk
                raise
        finally:
            render.end()
    if stream.tripwire is not None:
        return 2
    return 1 if render.errors else 0


class Renderer:
    """Writes a run's chunks to a terminal as they arrive."""

    def __init__(self, out: IO[str], err: IO[str], *, color: bool | None = None) -> None:
        self.out = out
        self.err = err
        if color is None:
            color = _isatty(out) and "NO_COLOR" not in os.environ
        self.color = color
        self.mid_line = False
        self.errors = 0
        self.last_delta: str | None = None  # text or reasoning: a switch starts a new line

    def _dim(self, text: str) -> str:
        return f"\x1b[2m{text}\x1b[0m" if self.color else text

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        if text:
            self.mid_line = not text.endswith("\n")

    def _line(self, text: str, *, to_err: bool = False) -> None:
        if self.mid_line:
            self._write("\n")
        if to_err:
            self.out.flush()
            self.err.write(text + "\n")
            self.err.flush()
        else:
            self._write(text + "\n")

    def __call__(self, chunk: Any) -> None:
        kind, p = chunk.type, chunk.payload
        if kind in ("text-delta", "reasoning-delta"):
            if self.last_delta not in (None, kind) and self.mid_line:
                self._write("\n")
            self.last_delta = kind
        if kind == "text-delta":
            self._write(p.get("text", ""))
        elif kind == "reasoning-delta":
            self._write(self._dim(p.get("text", "")))
        elif kind == "tool-call":
            self._line(f"[tool-call] {p.get('tool_name')} {_compact(p.get('args'))}")
        elif kind == "tool-result":
            self._line(f"[tool-result] {p.get('tool_name')}: {_compact(p.get('result'))}")
        elif kind == "tool-error":
            self._line(f"[tool-error] {p.get('tool_name')}: {p.get('error')}")
        elif kind == "tripwire":
            retry = " (retry requested)" if p.get("retry") else ""
            self._line(f"[tripwire] {p.get('processor_id')}: {p.get('reason')}{retry}", to_err=True)
        elif kind == "error":
            self.errors += 1
            error = p.get("error")
            text = f"{type(error).__name__}: {error}" if isinstance(error, BaseException) else error
            self._line(f"[error] {text}", to_err=True)
        elif kind == "step-retry":
            self._line(self._dim(
                f"[retry] {p.get('processor_id')}: {p.get('reason')} "
                f"(retry {p.get('retry_count')})"
            ))
        elif kind == "object-result":
            self._line(f"[object] {_compact(p.get('object'), limit=2000)}")
        elif kind.startswith("data-"):
            self._line(self._dim(f"[{kind}] {_compact(p)}"))

    def end(self) -> None:
        if self.mid_line:
            self._write("\n")


def _compact(value: Any, limit: int = 200) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- main


BUILTIN_COMMANDS: dict[str, Callable[[Any], None]] = {
    "plugins": register_plugins_command,
    "models": register_models_command,
    "run": register_run_command,
}


def build_parser() -> argparse.ArgumentParser:
    """The full parser: built-in commands, then commands from plugins."""
    parser = argparse.ArgumentParser(
        prog="tripwire",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for register in BUILTIN_COMMANDS.values():
        register(subparsers)
    for name, command in _plugin_commands().items():
        _add_plugin_command(subparsers, name, command)
    return parser


def _plugin_commands() -> dict[str, _discovery.CommandInfo]:
    try:
        return _discovery.commands()
    except Exception:  # unreadable metadata must not brick the CLI
        return {}


def _add_plugin_command(subparsers: Any, name: str, command: _discovery.CommandInfo) -> None:
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
    broken.set_defaults(func=lambda args: _fail(message), accepts_any_arguments=True)


def _fail(message: str) -> int:
    sys.stderr.write(f"tripwire: error: {message}\n")
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "accepts_any_arguments", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        result = func(args)
        if inspect.isawaitable(result):
            result = asyncio.run(_await(result))
    except KeyboardInterrupt:
        return 130
    except TripwireError as e:
        sys.stdout.flush()
        sys.stderr.write(f"tripwire: error: {e}\n")
        return 1
    return 0 if result is None else int(result)


async def _await(awaitable: Any) -> Any:
    return await awaitable


__all__ = [
    "BUILTIN_COMMANDS",
    "Renderer",
    "build_parser",
    "main",
    "register_models_command",
    "register_plugins_command",
    "register_run_command",
]
