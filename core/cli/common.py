"""What several ``tripwire`` subcommands share.

The ``--config`` and ``--verbose`` options, the check of a count option
(``positive_int``), and the one-line error exit (``tripwire: error: ...``, exit code 1).

``--config`` / ``-c`` may come before the command too (``tripwire -c agents.toml run
...``): the program's parser has it as well, and ``resolve_config`` settles which file a
command reads once the command line is parsed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

#: The configuration file a command reads when no ``--config`` is given.
DEFAULT_CONFIG = "tripwire.toml"


def add_config_option(parser: argparse.ArgumentParser, *, before_command: bool = False) -> None:
    """``--config FILE`` / ``-c FILE``, the TOML file (default ``tripwire.toml``), on a
    command that reads one, or (``before_command``) on the program's parser, where it is
    for whichever command follows. It has no default here (one given before the command
    would be overwritten by the command's); ``resolve_config`` sets it."""
    if before_command:
        parser.add_argument(
            "--config", "-c", metavar="FILE", dest="config_before_command",
            default=argparse.SUPPRESS,
            help=f"TOML configuration file of the command that reads one (agents, run, "
                 f"serve); same as giving it after the command (default: {DEFAULT_CONFIG})")
        return
    parser.set_defaults(reads_config=True)
    parser.add_argument(
        "--config", "-c", metavar="FILE", default=argparse.SUPPRESS,
        help=f"TOML configuration file, also accepted before the command (default: "
             f"{DEFAULT_CONFIG})")


def resolve_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``args.config`` for a command that reads a configuration file: the ``--config``
    given after the command, else the one before it, else ``tripwire.toml``. One given
    before a command that reads none is a usage error saying where it goes."""
    before = vars(args).pop("config_before_command", None)
    if getattr(args, "reads_config", False):
        args.config = getattr(args, "config", before or DEFAULT_CONFIG)
    elif before is not None:
        command = getattr(args, "command", None) or "this command"
        parser.error(
            f"argument --config/-c: {command} reads no configuration file; --config goes "
            f"with a command that does (agents, run, serve): tripwire -c FILE run AGENT "
            f"PROMPT, or tripwire run AGENT PROMPT -c FILE")


def add_verbose_option(parser: argparse.ArgumentParser, *, default: Any = 0) -> None:
    """``-v`` / ``-vv`` (counted): log to stderr and show tracebacks."""
    parser.add_argument(
        "--verbose", "-v", action="count", default=default,
        help="log what tripwire does to stderr (-vv: debug) and show tracebacks",
    )


def positive_int(text: str) -> int:
    """An argparse ``type=`` for a count (``--workers N``, ``--last N``): a whole number
    >= 1, else argparse's usage error naming the option (``argument --last: expects a
    whole number >= 1, got '0'``, exit code 2)."""
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"expects a whole number >= 1, got {text!r}")
    return count


def fail(message: str) -> int:
    """Write ``tripwire: error: MESSAGE`` to stderr (after what stdout holds); exit code 1."""
    sys.stdout.flush()
    sys.stderr.write(f"tripwire: error: {message}\n")
    return 1
