"""Processor groups: named chains, parallel groups and per-call branches.

A group goes anywhere a processor goes (an agent's lists, a call's lists, TOML) and has
an ``id``, so it is added, removed or looked up as a unit::

    from tripwire import parallel, sequence, branch

    input_guards = parallel(Moderation(...), PromptInjectionDetector(...), id="input-guards")
    agent = Agent(..., input_processors=[UnicodeNormalizer(), input_guards])

``sequence(a, b, id=...)`` runs its members one after the other, exactly as if they
were listed in its place. ``parallel(a, b, id=...)`` runs its members concurrently on
the same input, for every hook they share: the first member in list order among
those that abort ends the run, whatever the timing (an abort waits for the members
before it still running; the members after it are cancelled); once all have passed, their changes are applied in list order, and two members changing the same
message, prompt, setting or tool result is an error naming both, unless
``select="<member id>"`` names the one whose changes count (the others only check).
Per-chunk hooks (``process_output_stream``) gain nothing from concurrency: members
run them in list order. ``branch(condition, then, otherwise=None)`` calls
``condition(request_context)`` once per call and uses ``then`` when it is true, else
``otherwise`` (nothing when that is None).

A tripwire inside a group keeps the id of the member that aborted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from tripwire.context import RequestContext

__all__ = ["Branch", "Parallel", "ProcessorGroup", "Sequence", "WithMode", "branch", "monitor",
           "parallel", "parallel_with_model", "sequence"]


@attrs.frozen
class WithMode:
    """A processor with an execution mode set for one list (``tripwire.parallel_with_model``
    / ``tripwire.monitor``), leaving the processor object itself unchanged."""

    processor: Any
    mode: str

    @property
    def id(self) -> str:
        return getattr(self.processor, "id", "?")


@attrs.define(eq=False, repr=False)
class ProcessorGroup:
    """Base of the group kinds; ``members`` are processors or groups."""

    id: str
    members: tuple[Any, ...]

    def __repr__(self) -> str:
        inner = ", ".join(repr(getattr(m, "id", m)) for m in self.members)
        return f"{type(self).__name__.lower()}({inner}, id={self.id!r})"


@attrs.define(eq=False, repr=False)
class Sequence(ProcessorGroup):
    """Members run one after the other, as if listed in the group's place."""


@attrs.define(eq=False, repr=False)
class Parallel(ProcessorGroup):
    """Members run concurrently on the same input; see the module docstring."""

    select: str | None = None


@attrs.define(eq=False, repr=False)
class Branch(ProcessorGroup):
    """``members`` is ``(then,)`` or ``(then, otherwise)``; ``condition`` picks one per
    call from the request context."""

    condition: Callable[[RequestContext], Any] = attrs.field(kw_only=True)

    @property
    def then(self) -> Any:
        return self.members[0]

    @property
    def otherwise(self) -> Any:
        return self.members[1] if len(self.members) > 1 else None

    def __repr__(self) -> str:
        return (f"branch({getattr(self.condition, '__name__', self.condition)!s}, "
                f"{getattr(self.then, 'id', self.then)!r}, "
                f"{getattr(self.otherwise, 'id', self.otherwise)!r}, id={self.id!r})")


def _check(kind: str, members: tuple[Any, ...], id: Any) -> None:
    if not isinstance(id, str) or not id:
        raise TypeError(f"{kind}() needs id='...' (a non-empty string): a group is enabled, "
                        f"disabled and reported under its id")
    if not members:
        raise TypeError(f"{kind}(id={id!r}) needs at least one processor")
    for m in members:
        if isinstance(m, str):
            # API.md: tripwire.sequence(*processors, ...); names are a list's and TOML's
            raise TypeError(
                f"{kind}(id={id!r}): members must be processors or groups, got the plugin "
                f"name {m!r}; pass tripwire.plugins.create({m!r}) (options as keywords: "
                f"tripwire.plugins.create({m!r}, strategy=...)). Plugin names are taken by a "
                f"plain processor list and by a TOML group, not by {kind}()")
        if m is None or isinstance(m, bytes | type):
            hint = " (an instance, not the class)" if isinstance(m, type) else ""
            raise TypeError(f"{kind}(id={id!r}): members must be processors or groups, got "
                            f"{m!r}{hint}")


def sequence(*processors: Any, id: str) -> Sequence:
    """A named chain: its members run in order, as if listed in its place."""
    _check("sequence", processors, id)
    return Sequence(id, tuple(processors))


def parallel(*processors: Any, id: str, select: str | None = None) -> Parallel:
    """Members run concurrently on the same input for every hook they share.

    ``select``: the id of the member whose changes are applied (the others may only
    abort), the reference's ``.map`` that picks one branch.
    """
    _check("parallel", processors, id)
    if select is not None:
        ids = [getattr(p, "id", None) for p in processors]
        if select not in ids:
            raise ValueError(f"parallel(id={id!r}): select={select!r} names no member; "
                             f"members: {', '.join(map(str, ids))}")
    return Parallel(id, tuple(processors), select)


def branch(
    condition: Callable[[RequestContext], Any], then: Any, otherwise: Any = None, *,
    id: str | None = None,
) -> Branch:
    """``then`` when ``condition(request_context)`` is true for the call, else
    ``otherwise`` (or nothing). The id defaults to ``branch:<then id>``."""
    if not callable(condition):
        raise TypeError(f"branch(): condition must be callable with the request context, got "
                        f"{type(condition).__name__}")
    members = (then,) if otherwise is None else (then, otherwise)
    gid = id if id is not None else f"branch:{getattr(then, 'id', '?')}"
    _check("branch", members, gid)
    return Branch(gid, members, condition=condition)


def parallel_with_model(processor: Any) -> Any:
    """Run ``processor``'s ``process_input`` beside the model call instead of before it:
    the model's answer is read meanwhile (up to 1,024 chunks held) and released only
    once it passes; if it aborts, no chunk reaches the client, and a model call still
    answering is cancelled (its HTTP response closed). It may only
    check, never change, the input. The processor object itself is not changed."""
    return WithMode(processor, "parallel")


def monitor(processor: Any) -> Any:
    """Run ``processor``'s ``process_input`` beside the run, never delaying or changing
    it: its verdict goes to ``on_violation`` and the audit, not to the run."""
    return WithMode(processor, "monitor")
