"""Which lifecycle hooks an object marks with ``@hookimpl``.

Read by validation and by the registry (which checks an entry point's class before
anything is compiled)."""

from __future__ import annotations

import inspect
from typing import Any

import tripwire.hookspecs as hookspecs
from tripwire.hooks._markers import PROJECT_NAME


def hooks_of(obj: Any) -> list[str]:
    """Names of the lifecycle hooks an object or class marks with ``@hookimpl``."""
    found = []
    for attr in dir(obj):
        if attr.startswith("__"):
            continue
        fn = inspect.getattr_static(obj, attr, None)
        if isinstance(fn, staticmethod | classmethod):
            fn = fn.__func__
        opts = getattr(fn, f"{PROJECT_NAME}_impl", None)
        if opts is not None:
            found.append(opts.get("specname") or attr)
    order = {h: i for i, h in enumerate(hookspecs.ALL_HOOKS)}
    return sorted(found, key=lambda h: order.get(h, len(order)))
