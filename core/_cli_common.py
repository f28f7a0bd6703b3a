"""What several ``tripwire`` subcommands share: the ``--config`` and ``--verbose``
options, the check of a count option (``positive_int``), and the one-line error exit
(``tripwire: error: ...``, exit code 1).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """``--config FILE`` / ``-c FILE``, the TOML file (default ``tripwire.toml``)."""
    parser.add_argument(
        "--config", "-c", metavar="FILE", default="tripwire.toml",
        help="TOML configuration file (default: %(default)s)",
    )


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
