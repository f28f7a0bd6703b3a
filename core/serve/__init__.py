"""``tripwire serve``: a configuration file's agents behind OpenAI's chat completions
and Responses APIs and Anthropic's Messages API, so any OpenAI or Anthropic client (any
language) gets the agents' processors.

.. code-block:: sh

    tripwire serve -c agents.toml --host 127.0.0.1 --port 8080 [--loop uvloop]

``POST /v1/chat/completions``, ``POST /v1/responses`` and ``POST /v1/messages``
(Anthropic's; streamed or not; the request's ``model`` names the agent), ``GET`` /
``DELETE /v1/responses/{id}``, ``POST /v1/messages/count_tokens``, ``GET /v1/models``,
``GET /healthz``, ``GET /metrics``. Keys, tenants, limits, logs and metrics:
docs/serve.md.

- ``_codec``: the seam between the one request path and a client API (``Codec``);
- ``_app``: ``Gateway``, its routes and the request path;
- ``_answer``: a run as the answer, whole or streamed;
- ``_chat``, ``_request``, ``_response``: OpenAI's chat completions codec;
- ``_responses``, ``_responses_request``, ``_responses_render``: OpenAI's Responses codec;
- ``_messages``, ``_messages_request``, ``_messages_response``: Anthropic's Messages codec;
- ``_thread``: memory threads; ``_keys``: API keys; ``_config``: ``[serve]``;
- ``_metrics``: access log and metrics; ``_shared``, ``_server``, ``_workers``: serving.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from tripwire.cli.common import add_config_option, positive_int
from tripwire.serve._keys import ApiKey, Keys, digest, load_keys
from tripwire.serve._metrics import Metrics, access_log
from tripwire.serve._server import (
    CANCEL_GRACE,
    GC_THRESHOLD,
    LOOPS,
    event_loop,
    prepare_collector,
    running,
    serve,
)
from tripwire.serve._workers import serve_workers

if TYPE_CHECKING:
    from tripwire.serve._app import Gateway
    from tripwire.serve._config import check_disabled, key_agent_kwargs

__all__ = ["CANCEL_GRACE", "GC_THRESHOLD", "ApiKey", "Gateway", "Keys", "Metrics",
           "check_disabled", "digest", "event_loop", "key_agent_kwargs", "load_keys",
           "prepare_collector", "register", "running", "serve", "serve_workers"]

if not TYPE_CHECKING:  # a type checker reads the import above, and flags a misspelt name

    def __getattr__(name):
        # The gateway (and aiohttp's server) is imported when first used, so that the
        # command line can add ``tripwire serve`` without loading it; so are the
        # helpers that build a key's agents.
        if name == "Gateway":
            from tripwire.serve._app import Gateway

            return Gateway
        if name in ("check_disabled", "key_agent_kwargs"):  # (they build agents)
            from tripwire.serve import _config

            return getattr(_config, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def register(subparsers: Any) -> None:
    """Add ``tripwire serve`` to the command line."""
    parser = subparsers.add_parser(
        "serve",
        help="serve the agents of a TOML file over OpenAI's chat completions and Responses "
             "APIs and Anthropic's Messages API",
        description=(
            "Serve every [agents.NAME] of the configuration file as an OpenAI-compatible "
            "and Anthropic-compatible API: POST /v1/chat/completions, POST /v1/responses "
            "and POST /v1/messages (the request's model field names the agent), "
            "GET/DELETE /v1/responses/{id}, POST /v1/messages/count_tokens, GET "
            "/v1/models, GET /healthz, GET /metrics. Keys, tenants and limits come "
            "from the [serve] table (docs/serve.md). Access log: one JSON line per request "
            "on stdout. SIGINT / SIGTERM: in-flight requests finish, new ones get 503."
        ),
    )
    add_config_option(parser)
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8080,
                        help="port to listen on, 0 for a free one (default: %(default)s)")
    parser.add_argument("--keys", metavar="FILE",
                        help="a TOML file of [keys.NAME] tables (instead of [serve] keys_file)")
    parser.add_argument("--no-access-log", action="store_true",
                        help="do not write the access log to stdout")
    parser.add_argument("--loop", choices=LOOPS, default="auto",
                        help="event loop: auto takes uvloop when it is installed "
                             "(pip install 'tripwire[serve]'), else asyncio "
                             "(default: %(default)s)")
    parser.add_argument("--workers", type=positive_int, default=1, metavar="N",
                        help="worker processes sharing the port, one per core to use "
                             "(POSIX; default: %(default)s); in-memory caches, budgets and "
                             "memory stores are per worker (docs/serve.md)")
    parser.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    def make() -> Gateway:
        from tripwire.config import load_config
        from tripwire.serve._app import Gateway

        return Gateway.from_config(load_config(args.config), keys_file=args.keys)

    # before the workers fork: they inherit it
    with contextlib.nullcontext() if args.no_access_log else _access_log_to_stdout():
        if args.workers > 1:
            return serve_workers(make, args.workers, args.host, args.port, loop=args.loop)
        name, run = event_loop(args.loop)  # (a missing uvloop is said before the file is read)
        return run(_serve_alone(make(), args.host, args.port, name))


@contextlib.contextmanager
def _access_log_to_stdout() -> Iterator[None]:
    """The access log's JSON lines to stdout (and only there) while the command runs;
    the logger is as it was afterwards, so a program that calls ``main(["serve", ...])``
    twice does not get every line twice, nor its own handlers bypassed after."""
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    level, propagate = access_log.level, access_log.propagate
    access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False
    try:
        yield
    finally:
        access_log.removeHandler(handler)
        access_log.setLevel(level)
        access_log.propagate = propagate


async def _serve_alone(gateway: Gateway, host: str, port: int, loop_name: str) -> int:
    await serve(gateway, host, port, loop_name=loop_name)
    return 0
