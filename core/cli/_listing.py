"""The listing commands: ``tripwire plugins``, ``tripwire models``, ``tripwire agents``.

The listing commands of ``tripwire``: ``plugins`` (installed processors, commands from
plugins, cache backends), ``models`` (model providers) and ``agents`` (the agents of a
configuration file), each as a table or, with ``--json``, as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import IO, Any

from tripwire import caches as _caches
from tripwire.cli._render import _jsonable
from tripwire.cli.common import add_config_option
from tripwire.registry import discovery

# ---------------------------------------------------------------- plugins


def register_plugins_command(subparsers: Any) -> None:
    """Add ``tripwire plugins``: installed processors, plugin commands, cache backends."""
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
    processors = discovery.available()
    hidden = discovery.hidden()
    commands = discovery.commands()
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
    """Add ``tripwire models``: installed model providers."""
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
    """Add ``tripwire agents``: the agents of a configuration file (nothing is built)."""
    parser = subparsers.add_parser(
        "agents",
        help="list the agents of a configuration file (model, processors)",
        description=(
            "List the [agents.NAME] tables of a configuration file: each agent's model and "
            "the processor names of its input, output and error lists, as configured "
            "(nothing is built, so a missing plugin does not hide the list)."
        ),
    )
    add_config_option(parser)
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
