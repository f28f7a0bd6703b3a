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
import contextlib
import importlib.metadata
import inspect
import json
import logging
import math
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

from tripwire import _discovery
from tripwire import caches as _caches
from tripwire._render import JSONRenderer, Renderer, _error_message, _jsonable, chunk_json
from tripwire.errors import ConfigurationError, TripwireError

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
  echo "Hi" | tripwire run support - -o temperature 0 --json
                                    prompt from stdin, a model setting, NDJSON chunks
  tripwire serve -c agents.toml --port 8080
                                    the agents as an OpenAI-compatible API (docs/serve.md)

Run "tripwire COMMAND --help" for the options of one command.
Docs: docs/cli.md, docs/configuration.md, docs/plugins.md, docs/serve.md.
"""

Handler = Callable[[argparse.Namespace], Any]


# ---------------------------------------------------------------- plugins


def register_plugins_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "plugins",
        help="list installed processors (name, distribution, version, hooks, status, options) and cache backends",
        description=(
            "List the processors installed in the entry point group tripwire.processors, "
            "with the distribution that provides each, its version, the hooks it "
            "implements, whether it loads, and its options (read from the constructor: "
            "name, type, default). A broken plugin shows its import error. "
            "TRIPWIRE_LOAD_PLUGINS / TRIPWIRE_DISABLE_PLUGINS narrow the list. Cache "
            "backends (group tripwire.caches) are listed by URL scheme."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=_plugins)


def _plugins(args: argparse.Namespace) -> int:
    processors = _discovery.available()
    hidden = _discovery.hidden()
    commands = _discovery.commands()
    caches = _caches.available()
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
                    "options": None if p.error is not None else [
                        {"name": o.name, "type": o.type, "required": o.required,
                         "default": _jsonable(o.default)}
                        for o in p.options
                    ],
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
            "caches": [
                {
                    "scheme": c.name,
                    "distribution": c.distribution,
                    "version": c.version,
                    "entry_point": c.value,
                    "status": c.status,
                    "error": _error_text(c.error),
                }
                for c in caches.values()
            ],
        }
        out.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
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
        notes = {
            i: f"  options: {', '.join(str(o) for o in p.options)}"
            for i, p in enumerate(processors.values())
            if p.options
        }
        _table(out, ["NAME", "DISTRIBUTION", "VERSION", "HOOKS (process_*)", "STATUS"], rows,
               notes=notes)
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
    if caches:
        out.write("\nCache backends (by URL scheme):\n")
        _table(
            out,
            ["SCHEME", "DISTRIBUTION", "VERSION", "STATUS"],
            [
                [f"{c.name}://", c.distribution or "?", c.version or "?",
                 c.status if c.error is None else f"broken: {_error_text(c.error)}"]
                for c in caches.values()
            ],
        )
    return 0


def _error_text(error: BaseException | None) -> str | None:
    return None if error is None else f"{type(error).__name__}: {error}"


def _table(
    out: IO[str], header: list[str], rows: list[list[str]], *,
    notes: Mapping[int, str] | None = None,
) -> None:
    """Columns padded to their widest cell (not the last); ``notes[i]`` is a line
    printed under row ``i``."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for i, row in enumerate([header, *rows], start=-1):
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)] + [row[-1]]
        out.write("  ".join(cells).rstrip() + "\n")
        if notes and i in notes:
            out.write(notes[i] + "\n")


# ---------------------------------------------------------------- models


def register_models_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "models",
        help="list installed model providers (the part before '/' in 'openai/gpt-5-mini')",
        description=(
            "List the model providers in the entry point group tripwire.models, with the "
            "distribution that provides each. A provider that fails to load is shown "
            "with its error. An agent's model is a router id PROVIDER/MODEL, e.g. "
            "openai/gpt-5-mini. TRIPWIRE_DISABLE_PLUGINS hides providers."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=_models)


def _models(args: argparse.Namespace) -> int:
    import tripwire.models

    found = tripwire.models.available()
    hidden = tripwire.models.hidden()
    rows = [
        [name, p.distribution or "(registered at run time)"] for name, p in found.items()
    ]
    if args.json:
        doc: list[dict[str, str | None]] = [
            {"name": name, "distribution": dist,
             **({"error": _error_text(p.error)} if p.error is not None else {})}
            for (name, dist), p in zip(rows, found.values(), strict=True)
        ]
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0
    if rows:
        notes = {
            i: f"  broken: {_error_text(p.error)}"
            for i, p in enumerate(found.values())
            if p.error is not None
        }
        _table(sys.stdout, ["PROVIDER", "DISTRIBUTION"], rows, notes=notes)
    else:
        sys.stdout.write("No model providers installed (entry point group tripwire.models).\n")
    for name, why in hidden.items():
        sys.stdout.write(f"hidden: {name} ({why})\n")
    return 0


# ---------------------------------------------------------------- agents


def register_agents_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "agents",
        help="list the agents of a configuration file (model, processors)",
        description=(
            "List the [agents.NAME] tables of a configuration file: each agent's model and "
            "the processor names of its input, output and error lists, as configured "
            "(nothing is built, so a missing plugin does not hide the list)."
        ),
    )
    _add_config_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=_agents)


def _agents(args: argparse.Namespace) -> int:
    from tripwire.config import PROCESSOR_LISTS, load_config, processor_ids

    config = load_config(args.config)
    agents: list[dict[str, Any]] = [
        {
            "name": name,
            "model": table.get("model"),
            "description": table.get("description"),
            **{key: processor_ids(table.get(key, [])) for key in PROCESSOR_LISTS},
        }
        for name, table in config.agents.items()
    ]
    if args.json:
        sys.stdout.write(json.dumps(agents, indent=2, ensure_ascii=False) + "\n")
    elif agents:
        _table(
            sys.stdout,
            ["AGENT", "MODEL", "INPUT", "OUTPUT", "ERROR"],
            [
                [a["name"], a["model"] or "-",
                 *(", ".join(a[key]) or "-" for key in PROCESSOR_LISTS)]
                for a in agents
            ],
        )
    else:
        sys.stdout.write(f"No agents in {config.path} (add an [agents.NAME] table).\n")
    return 0


def _add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", "-c", metavar="FILE", default="tripwire.toml",
        help="TOML configuration file (default: %(default)s)",
    )


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
    parser.add_argument(
        "prompt", metavar="PROMPT", help="the user message to send; - reads it from stdin"
    )
    _add_config_option(parser)
    parser.add_argument(
        "--model", "-m", metavar="ID",
        help="use this model instead of the configured one: a router id such as "
        "openai/gpt-5-mini, or models.NAME for a [models.NAME] table of the file",
    )
    parser.add_argument(
        "--system", "-s", metavar="TEXT", action="append", default=[],
        help="an extra system instruction, after the agent's instructions (repeatable)",
    )
    parser.add_argument(
        "--option", "-o", nargs=2, metavar=("KEY", "VALUE"), action="append", default=[],
        dest="options",
        help="a model setting for this run, e.g. -o temperature 0 (repeatable); VALUE is "
        "parsed as JSON when it parses, else taken as a string",
    )
    parser.add_argument(
        "--timeout", metavar="SECONDS", type=_seconds,
        help="give up when the reply is not complete after SECONDS (exit code 1)",
    )
    parser.add_argument(
        "--json", action="store_true",
        help="print every chunk as one JSON object per line (NDJSON) instead of text",
    )
    parser.add_argument(
        "--explain", action="store_true",
        help="after the reply, print the audit trail (every processor decision) to stderr",
    )
    parser.add_argument(
        "--thread", metavar="ID",
        help="the memory thread of this run: with memory configured on the agent, earlier "
        "runs of the thread are remembered and this one is saved to it",
    )
    parser.add_argument(
        "--resource", metavar="ID",
        help="the memory resource (user) the thread belongs to (working memory and "
        "semantic recall are per resource by default)",
    )
    _add_verbose_option(parser, default=argparse.SUPPRESS)
    parser.set_defaults(func=_run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def _add_verbose_option(parser: argparse.ArgumentParser, *, default: Any = 0) -> None:
    parser.add_argument(
        "--verbose", "-v", action="count", default=default,
        help="log what tripwire does to stderr (-vv: debug) and show tracebacks",
    )


class UsageError(TripwireError):
    """A command line that cannot be carried out (an empty prompt on stdin, ...)."""


async def _run(args: argparse.Namespace) -> int:
    from tripwire.config import load_config

    prompt = _read_prompt(args.prompt)
    agent = load_config(args.config).agent(
        args.agent,
        model=args.model,
        model_where="--model",
        instructions=args.system,
        model_settings=model_options(args.options),
    )
    render: Renderer | JSONRenderer = (
        JSONRenderer(sys.stdout) if args.json else Renderer(sys.stdout, sys.stderr)
    )
    timed_out = False
    try:
        async with agent:
            options: dict[str, Any] = {"audit": True} if args.explain else {}
            if args.thread is not None or args.resource is not None:
                options["memory"] = {"thread": args.thread, "resource": args.resource}
            stream = agent.stream(prompt, **options)
            try:
                async with asyncio.timeout(args.timeout) as deadline:
                    async with stream:
                        async for chunk in stream:
                            render(chunk)
            except TimeoutError:
                if not deadline.expired():
                    raise
                timed_out = True
            except Exception:
                if not render.errors:  # not yet shown as an error chunk
                    raise
            finally:
                render.end()
    finally:
        # A model built from a [models.NAME] table is not the agent's to close.
        closer = getattr(agent.model, "aclose", None)
        if closer is not None:
            await closer()
    if args.explain:
        from tripwire.audit import format_audit

        print(format_audit(await stream.audit), file=sys.stderr)
    if timed_out:
        return _fail(f"no complete reply within {args.timeout:g} s (--timeout)")
    if stream.tripwire is not None:
        return 2
    return 1 if render.errors else 0


def _read_prompt(prompt: str) -> str:
    """``PROMPT`` as given, or read from stdin when it is ``-``."""
    if prompt != "-":
        return prompt
    if sys.stdin is None:
        raise UsageError("PROMPT is -, but there is no stdin to read it from")
    buffer = getattr(sys.stdin, "buffer", None)
    raw: str | bytes = buffer.read() if buffer is not None else sys.stdin.read()
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UsageError(
                f"the prompt on stdin is not UTF-8 text (byte 0x{e.object[e.start]:02x} "
                f"at offset {e.start})"
            ) from None
    text = raw.rstrip("\r\n")
    if not text.strip():
        raise UsageError("PROMPT is -, but stdin was empty")
    return text


def model_options(pairs: Sequence[Sequence[str]]) -> dict[str, Any]:
    """``-o KEY VALUE`` pairs as model settings: VALUE parsed as JSON when it parses
    (``0`` -> 0, ``true`` -> True, ``["a"]`` -> a list), else kept as the string."""
    settings: dict[str, Any] = {}
    for key, value in pairs:
        try:
            settings[key] = json.loads(value)
        except ValueError:
            settings[key] = value
    return settings


# ---------------------------------------------------------------- main


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
}


def _register_serve(subparsers: Any) -> None:
    from tripwire.serve import register

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
    _add_verbose_option(parser)
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
    sys.stdout.flush()
    sys.stderr.write(f"tripwire: error: {message}\n")
    return 1


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
        except TripwireError as e:
            return _fail(str(e))
        except Exception as e:
            if verbose:
                sys.stdout.flush()
                traceback.print_exc(file=sys.stderr)
                return _fail(_error_message(e))
            return _fail(f"{_error_message(e)} (tripwire -v shows the traceback)")
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
    "main",
    "model_options",
    "register_agents_command",
    "register_models_command",
    "register_plugins_command",
    "register_run_command",
    "version",
]
