"""``tripwire run``: one prompt to an agent of a configuration file.

``tripwire run``: build an agent of a configuration file, send it one prompt and stream
the reply to the terminal (or as NDJSON); exit code 2 when a processor stops the run."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tripwire.cli._render import JSONRenderer, Renderer
from tripwire.cli.common import add_config_option, add_verbose_option, fail
from tripwire.errors import Error

if TYPE_CHECKING:
    from tripwire.agent import Agent


def register_run_command(subparsers: Any) -> None:
    """Add ``tripwire run AGENT PROMPT``: stream one reply of a configured agent."""
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
    add_config_option(parser)
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
    add_verbose_option(parser, default=argparse.SUPPRESS)
    parser.set_defaults(func=_run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


class UsageError(Error):
    """A command line that cannot be carried out (an empty prompt on stdin, ...)."""


def configured_agent(path: str, name: str, *, model: str | None = None,
                     instructions: Sequence[str] = (),
                     model_settings: Mapping[str, Any] | None = None) -> Agent:
    """The agent ``[agents.NAME]`` of the file at ``path`` as ``tripwire run`` runs it:
    ``model`` (``--model``: a router id or ``"models.NAME"``) replaces the configured
    model, ``instructions`` (``--system``) are added after the configured ones and
    ``model_settings`` (``-o``) override the configured ones."""
    from tripwire.agent import Agent
    from tripwire.config import load_config

    config = load_config(path)
    kwargs = config.agent_kwargs(name, model=model, model_where="--model")
    if instructions:
        configured = kwargs.get("instructions") or []
        configured = [configured] if isinstance(configured, str) else list(configured)
        kwargs["instructions"] = [*configured, *instructions]
    if model_settings:
        kwargs["model_settings"] = {**kwargs.get("model_settings", {}), **model_settings}
    return config.build(Agent, name, kwargs)


async def _run(args: argparse.Namespace) -> int:
    prompt = _read_prompt(args.prompt)
    agent = configured_agent(args.config, args.agent, model=args.model,
                             instructions=args.system,
                             model_settings=model_options(args.options))
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
        from tripwire.observe.audit import format_audit

        print(format_audit(await stream.audit), file=sys.stderr)
    if timed_out:
        return fail(f"no complete reply within {args.timeout:g} s (--timeout)")
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
