"""What several ``tripwire`` subcommands share: the ``--config`` and ``--verbose``
options, and the one-line error exit (``tripwire: error: ...``, exit code 1).
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


def fail(message: str) -> int:
    """Write ``tripwire: error: MESSAGE`` to stderr (after what stdout holds); exit code 1."""
    sys.stdout.flush()
    sys.stderr.write(f"tripwire: error: {message}\n")
    return 1
