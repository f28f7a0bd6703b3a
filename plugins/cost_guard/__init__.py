"""``cost-guard``: stop (or flag) an agent once it has used its token, step or dollar
budget, for one run or across runs of a thread or a resource (a user, a tenant).

Before each step (``process_input_step``) the usage so far is compared with the
limits, in the reference's order (total, input, output tokens, then steps, then
dollars), each with ``>=``: at or past a limit the ``block`` strategy aborts (a
tripwire, ``retry=False``) before the model is called; ``warn`` lets the step run and
reports the violation to ``on_violation`` and as a transient ``data-cost-guard``
chunk. Once the model has answered a step (``process_llm_response``, before any
output processor's ``process_output_step`` can end the run) its usage is recorded.

``scope="run"`` counts the current call's steps. ``"thread"`` and ``"resource"`` count
every run of the thread / resource (``tripwire.THREAD_ID_KEY`` /
``tripwire.RESOURCE_ID_KEY`` of the request context) in a cache backend
(``tripwire.caches``: ``memory://``, ``sqlite:///path.db``, ``redis://host:port/db``)
with atomic increments, so runs in many tasks, processes or machines share one budget.
The check happens before a step and the usage is known only after it, so concurrent
runs can pass a limit by at most the steps in flight when it was reached; ``max_steps``
is exact even then (a step is reserved atomically before it runs), and
``reserve_tokens`` does the same for tokens with an estimate of a step's size.

A shared budget is also charged while a step streams (``_cost_estimate``): the
prompt's and the streamed output's estimated tokens, every ``charge_every`` of them, so
a caller that stops reading mid-stream (or whose stream a processor trips) is charged
what it received; the real usage replaces the estimate when it arrives. Limits are
still checked between steps only, as in the reference.

A step whose usage is out of range (``tripwire.chunks.out_of_range``: a count the wire
could not read, which the providers read as ``MAX_TOKEN_COUNT``) is charged at that
bound and spends the budget: every token and dollar limit reads as reached, and a
shared scope counts it (``usage_out_of_range``) so that every run of it trips.

A run without the thread / resource id its scope needs is counted as a run of its own
(as the reference does); a backend error ends the run (``ProcessorError``, fail
closed) unless the processor is ``fail_open``.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Generator, Mapping
from typing import Any, Literal

import attrs

from tripwire import Processor, ProcessorViolation, hookimpl, notify_violation
from tripwire.caches import CacheBackend, close_cache, open_cache
from tripwire.chunks import MAX_TOKEN_COUNT, Chunk, Usage, out_of_range
from tripwire.context import RESOURCE_ID_KEY, THREAD_ID_KEY
from tripwire.errors import ConfigurationError
from tripwire.models import model_label
from tripwire.option_checks import NonNegativeInt, check
from tripwire.plugins.cost_guard.estimate import ENCODING, StepCharge, prompt_tokens
from tripwire.plugins.cost_guard.options import (
    DEFAULT_MESSAGE,
    LIMIT_TYPES,
    Price,
    check_limits,
    check_message,
    check_prices,
    dollars,
    is_amount,
)
from tripwire.plugins.shared.tokens import TokenCounter, get_encoding, require

__all__ = ["DEFAULT_MESSAGE", "LIMIT_TYPES", "CostGuard", "Price"]


def _bounded(count: Any) -> int:
    """A count of a usage out of range as it is charged: ``MAX_TOKEN_COUNT`` unless it
    is an int from 0 to below it."""
    if type(count) is int and 0 <= count < MAX_TOKEN_COUNT:
        return count
    return MAX_TOKEN_COUNT

log = logging.getLogger("tripwire.plugins.cost_guard")

#: ``charge_every``'s default when the ``tokens`` extra is installed
DEFAULT_CHARGE_EVERY = 256
_warned_no_estimate = False


def _charge_every(owner: str, given: int | None) -> int:
    """``charge_every`` as given, else its default: 256 when the tokens can be
    estimated; without the ``tokens`` extra 0, said once in the log (an explicit
    number is then an error: what it asks for cannot be done)."""
    global _warned_no_estimate
    if given == 0:
        return 0
    try:
        require(owner)
    except ConfigurationError as e:
        if given is not None:
            raise ConfigurationError(
                f"{e} (or set charge_every = 0 to charge a step only when its usage "
                f"arrives: a caller that stops reading mid-stream is then not charged)"
            ) from None
        if not _warned_no_estimate:
            _warned_no_estimate = True
            log.warning(
                "%s: the tokens extra is not installed, so a thread or resource budget "
                "is charged only when a step's usage arrives: a caller that stops "
                "reading mid-stream is not charged (pip install 'tripwire[tokens]')",
                owner,
            )
        return 0
    return DEFAULT_CHARGE_EVERY if given is None else given

Scope = Literal["run", "thread", "resource"]
Strategy = Literal["block", "warn"]
#: Dollars are counted in nano-dollars, so counters stay integers (atomic increments).
_NANO = 1_000_000_000
_COUNTERS = ("input_tokens", "output_tokens", "total_tokens", "steps", "cost_nano_usd",
             "usage_out_of_range")
#: The limits a step's usage counts toward.
_SPENDING = ("max_total_tokens", "max_input_tokens", "max_output_tokens", "max_cost_usd")


#: ``memory://`` backends by URL: every cost guard of this process given the same
#: ``memory://`` URL shares one (the two instances TOML builds for the input and
#: output lists, two agents guarding one user's budget).
_MEMORY: dict[str, CacheBackend] = {}


def _open(cache: Any) -> CacheBackend:
    if isinstance(cache, str) and cache.lower().startswith("memory://"):
        if cache not in _MEMORY:
            _MEMORY[cache] = open_cache(cache)
        return _MEMORY[cache]
    return open_cache(cache)


@attrs.define
class _Totals:
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    steps: int = 0
    cost_nano_usd: int = 0
    #: steps whose model reported a usage out of range (``tripwire.chunks.out_of_range``)
    usage_out_of_range: int = 0

    def value(self, limit_type: str) -> float:
        if limit_type == "max_cost_usd":
            return self.cost_nano_usd / _NANO
        return float(getattr(self, limit_type[len("max_") :]))

    def usage(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "total_tokens": self.total_tokens,
        }


class CostGuard(Processor):
    """Token, step and dollar budgets per run, thread or resource (put the same
    instance in ``input_processors`` and ``output_processors``).

    Options:
        limits (table, required): at least one of ``max_total_tokens``,
            ``max_input_tokens``, ``max_output_tokens``, ``max_steps`` (integers >= 1)
            and ``max_cost_usd`` (dollars; needs ``prices``).
        scope (``"run"`` | ``"thread"`` | ``"resource"``, default ``"run"``).
        strategy (``"block"`` | ``"warn"``, default ``"block"``).
        message (str, default ``"Cost guard: {limit_type} limit exceeded
            ({usage}/{limit})"``): the abort reason; placeholders ``{limit_type}``
            (snake_case, e.g. ``max_total_tokens``), ``{usage}``, ``{limit}``,
            ``{scope}``, ``{scope_key}``.
        prices (table, default none): model -> ``{input, output}`` in US dollars per
            million tokens. A model is looked up as ``provider/model_id``, then
            ``model_id``, then ``"*"``; with ``max_cost_usd`` a model without a price
            is an error.
        cache (URL or backend, default ``"memory://"``): where ``thread`` and
            ``resource`` counters live; share one (``sqlite:///budget.db``,
            ``redis://host:6379/0``) between processes to share the budget.
        window_seconds (number, default none): counters of non-run scopes expire this
            long after their first use (a budget per day: ``86400``).
        reserve_tokens (int, default ``0``): with ``max_total_tokens`` and a shared
            scope, hold this many tokens of the budget atomically before each step
            (an estimate of a step's size) and settle the difference after it; a step
            whose reservation does not fit is refused. Concurrent runs then overspend
            by the estimate's error instead of by every step in flight (stricter
            than the reference, which lets the last step run past the limit).
        charge_every (int, default ``256`` with the ``tokens`` extra): shared scopes:
            charge a step's estimated tokens (the prompt once the model answers, then
            the streamed output) every this many while it streams, so a caller that
            stops reading mid-stream is charged what it got (to within this many
            tokens); the real usage replaces the estimate. ``0`` charges only when the
            usage arrives. Estimating needs the ``tokens`` extra (``pip install
            'tripwire[tokens]'``): without it the default is ``0``, with a warning
            logged once, and a number given is an error.

    The tripwire's metadata is ``{processor_id, usage: {input_tokens, output_tokens,
    total_tokens}, limit, scope, scope_key}`` (``limit``: the configured limits;
    ``scope_key``: the counter key prefix, None for ``run``).
    """

    id = "cost-guard"
    description = "Token, step and dollar budgets per run, thread or resource"

    def __init__(
        self,
        limits: Mapping[str, Any],
        scope: Scope = "run",
        strategy: Strategy = "block",
        message: str = DEFAULT_MESSAGE,
        prices: dict[str, Any] | None = None,
        cache: Any = "memory://",
        window_seconds: float | None = None,
        reserve_tokens: int = 0,
        charge_every: NonNegativeInt | None = None,
    ) -> None:
        self.limits = check_limits(limits, self.id)
        check("scope", scope, Scope, owner=self.id)
        check("strategy", strategy, Strategy, owner=self.id)
        self.scope: str = scope
        self.strategy: str = strategy
        self.message = check_message(message, self.id)
        self.prices = check_prices(prices, self.id)
        if "max_cost_usd" in self.limits and not self.prices:
            raise ConfigurationError(
                f"{self.id}: limits.max_cost_usd needs prices (model -> {{input, output}} US "
                f"dollars per million tokens)"
            )
        if window_seconds is not None and (not is_amount(window_seconds) or window_seconds <= 0):
            raise ConfigurationError(
                f"{self.id}: window_seconds must be a number of seconds > 0 or None, "
                f"got {window_seconds!r}"
            )
        self.window_seconds = None if window_seconds is None else float(window_seconds)
        if (
            isinstance(reserve_tokens, bool)
            or not isinstance(reserve_tokens, int)
            or (reserve_tokens < 0)
        ):
            raise ConfigurationError(
                f"{self.id}: reserve_tokens must be an integer >= 0, got {reserve_tokens!r}"
            )
        if reserve_tokens and ("max_total_tokens" not in self.limits or scope == "run"):
            raise ConfigurationError(
                f"{self.id}: reserve_tokens needs limits.max_total_tokens and a thread or "
                f"resource scope (it holds part of a shared budget for a step in flight)"
            )
        if reserve_tokens > self.limits.get("max_total_tokens", reserve_tokens):
            raise ConfigurationError(
                f"{self.id}: reserve_tokens {reserve_tokens} is more than "
                f"limits.max_total_tokens {self.limits['max_total_tokens']}: no step could "
                f"ever run (it is the estimate of one step's tokens)"
            )
        self.reserve_tokens = reserve_tokens
        if charge_every is not None:
            check("charge_every", charge_every, NonNegativeInt, owner=self.id)
        #: estimated tokens charged at a time while a step streams (0: none; only
        #: shared scopes charge as they go, a run's own steps are its result's)
        self.charge_every: int = 0 if scope == "run" else _charge_every(self.id,
                                                                          charge_every)
        self._counter: TokenCounter | None = None
        #: models already logged for reporting no usage
        self._no_usage: set[str] = set()
        self.cache: CacheBackend | None = None if scope == "run" else _open(cache)
        #: a backend this guard opened from a URL (not a shared ``memory://`` one)
        self._owns_cache = (
            self.cache is not None
            and isinstance(cache, str)
            and not cache.lower().startswith("memory://")
        )

    def __repr__(self) -> str:
        return (
            f"CostGuard(limits={self.limits!r}, scope={self.scope!r}, strategy={self.strategy!r})"
        )

    async def aclose(self) -> None:
        """Close the cache backend this guard opened from its URL (an SQLite
        connection, a Redis pool); a backend object given to it is its owner's to close."""
        if self._owns_cache and self.cache is not None:
            await close_cache(self.cache)

    # -------------------------------------------------------------- pricing

    def price_of(self, model: Any) -> Price | None:
        """The price of ``model`` from ``prices`` (``provider/model_id``, ``model_id``,
        ``"*"``), or None."""
        for key in (model_label(model), getattr(model, "model_id", None), "*"):
            if isinstance(key, str) and key in self.prices:
                return self.prices[key]
        return None

    def _cost_nano(self, model: Any, input_tokens: int, output_tokens: int) -> int:
        if not self.prices:
            return 0
        price = self.price_of(model)
        if price is None:
            if "max_cost_usd" not in self.limits:
                return 0
            raise ConfigurationError(
                f"{self.id}: no price for model {model_label(model)!r}; prices has "
                f"{', '.join(sorted(self.prices))} (add it, or a '*' entry)"
            )
        return math.ceil(price.cost(input_tokens, output_tokens) * _NANO)

    # -------------------------------------------------------------- counters

    def scope_key(self, request_context: Mapping[str, Any]) -> str | None:
        """``cost-guard:resource:<id>`` / ``cost-guard:thread:<id>``, or None for a run
        scope (or a run without the id its scope needs)."""
        if self.scope == "run":
            return None
        key = RESOURCE_ID_KEY if self.scope == "resource" else THREAD_ID_KEY
        value = request_context.get(key)
        if value is None or value == "":
            return None
        return f"cost-guard:{self.scope}:{value}"

    async def _stored(self, prefix: str) -> _Totals:
        assert self.cache is not None
        totals = _Totals()
        for name in _COUNTERS:
            raw = await self.cache.get(f"{prefix}:{name}")
            setattr(totals, name, int(raw) if raw is not None else 0)
        return totals

    async def _add(self, prefix: str, name: str, amount: int) -> int:
        assert self.cache is not None
        return await self.cache.incr(f"{prefix}:{name}", amount, self.window_seconds)

    async def _settle(self, prefix: str, name: str, amount: int) -> None:
        """Add ``amount`` to a counter; a negative one gives back part of what this
        step was charged. That cannot take the counter below zero unless its window
        ended since the step was charged: the new window then starts at zero, not in
        debt."""
        value = await self._add(prefix, name, amount)
        if amount < 0 and value < 0:
            await self._add(prefix, name, -value)

    @property
    def counter(self) -> TokenCounter:
        """The token counter estimates are made with (the encoding is loaded on first
        use, once per process)."""
        if self._counter is None:
            self._counter = TokenCounter(get_encoding(ENCODING))
        return self._counter

    def _usage(self, step: Any, model: Any, state: dict[str, Any], index: int) -> Usage:
        """What ``step`` spent: nothing when a cache replayed it (no model call), else
        the usage its model reported. A model call that reports none is logged, once
        per model: token and dollar limits cannot count it exactly (an
        OpenAI-compatible server that ignores ``stream_options.include_usage`` would
        otherwise make every step silently free; a shared scope keeps its estimate).

        A usage out of range (``1e20`` tokens from the wire, a negative count) is no
        count at all: it is charged at the bound (``MAX_TOKEN_COUNT`` per count), logged
        once per step, and marked in ``state["out_of_range"]``: the budget trips."""
        if step.from_cache:
            return Usage()
        used: Usage = step.usage
        bad = out_of_range(used)
        if bad:
            seen: set[int] = state.setdefault("out_of_range", set())
            if index not in seen:
                seen.add(index)
                log.warning(
                    "%s: %s reported a token usage out of range (%s); charged at the "
                    "bound, %d tokens a count, and the budget trips",
                    self.id,
                    model_label(model) if model is not None else "the model",
                    ", ".join(f"{k}={v!r:.50}" for k, v in bad.items()),
                    MAX_TOKEN_COUNT,
                )
            return Usage(*(_bounded(getattr(used, k))
                           for k in ("input_tokens", "output_tokens", "total_tokens")))
        if not (used.total_tokens or used.input_tokens or used.output_tokens):
            counted = [t for t in self.limits if t != "max_steps"]
            label = model_label(model) if model is not None else "the model"
            if counted and label not in self._no_usage:
                self._no_usage.add(label)
                log.warning(
                    "%s: %s reported no token usage for a step; %s cannot count it "
                    "exactly (does the server send usage, e.g. honour "
                    "stream_options.include_usage?)",
                    self.id,
                    label,
                    ", ".join(counted),
                )
        return used

    def _run_totals(self, steps: list[Any], state: dict[str, Any]) -> _Totals:
        models = state.get("models", {})
        totals = _Totals(steps=len(steps))
        for i, step in enumerate(steps):
            used = self._usage(step, models.get(i), state, i)
            totals.input_tokens += used.input_tokens
            totals.output_tokens += used.output_tokens
            totals.total_tokens += used.total_tokens or used.input_tokens + used.output_tokens
            totals.cost_nano_usd += self._cost_nano(
                models.get(i), used.input_tokens, used.output_tokens
            )
        totals.usage_out_of_range = len(state.get("out_of_range", ()))
        return totals

    @staticmethod
    def _step(state: dict[str, Any], index: int) -> StepCharge:
        """The account of step ``index`` of the run (made on first use)."""
        charges: dict[int, StepCharge] = state.setdefault("charges", {})
        step = charges.get(index)
        if step is None:
            step = charges[index] = StepCharge()
        return step

    async def _charge(
        self,
        prefix: str,
        step: StepCharge,
        model: Any,
        spent: tuple[int, int, int],
        *,
        settle: bool,
        out_of_range: bool = False,
    ) -> None:
        """Bring the counters of ``prefix`` to ``spent`` (input, output and total
        tokens, and their dollars) for ``step``. While the step streams they only go
        up (``total_tokens`` only past a reservation); when it is recorded
        (``settle``) they are set to what it used, and the step is counted (and, when
        its usage was ``out_of_range``, counted as such)."""
        input_tokens, output_tokens, total = spent
        charged = step.charged
        targets = [
            ("input_tokens", input_tokens),
            ("output_tokens", output_tokens),
            ("total_tokens", total),
            ("cost_nano_usd", self._cost_nano(model, input_tokens, output_tokens)),
        ]
        if settle:
            targets.append(("steps", 1))
            if out_of_range:
                targets.append(("usage_out_of_range", 1))
        for name, target in targets:
            amount = target - charged.get(name, 0)
            if amount > 0 or (settle and amount):
                await self._settle(prefix, name, amount)
                charged[name] = target

    async def _charge_estimate(self, prefix: str, step: StepCharge, model: Any) -> None:
        input_tokens, output_tokens = step.estimate()
        spent = (input_tokens, output_tokens, input_tokens + output_tokens)
        await self._charge(prefix, step, model, spent, settle=False)

    async def _record(self, steps: list[Any], state: dict[str, Any], prefix: str) -> None:
        """Charge the steps not yet recorded what they used (each step once, whichever
        hook gets to it first), less what they were charged before: a reservation,
        the estimate while they streamed."""
        models = state.get("models", {})
        for i in range(state.get("recorded", 0), len(steps)):
            step = self._step(state, i)
            model = models.get(i)
            spent = step.spent(self._usage(steps[i], model, state, i))
            await self._charge(prefix, step, model, spent, settle=True,
                               out_of_range=i in state.get("out_of_range", ()))
            del state["charges"][i]
            streaming = state.get("streaming")
            if streaming is not None and streaming[1] is step:
                state["streaming"] = None
            state["recorded"] = i + 1

    # -------------------------------------------------------------- hooks

    @hookimpl
    async def process_input_step(
        self,
        steps: list[Any],
        model: Any,
        state: dict[str, Any],
        request_context: Mapping[str, Any],
        abort: Any,
        writer: Any,
    ) -> None:
        state.setdefault("models", {})[len(steps)] = model
        prefix = self.scope_key(request_context)
        if prefix is None:
            totals = self._run_totals(steps, state)
        else:
            # steps whose process_output_step did not record them (another output
            # processor stopped the chain, or this one is not in the output list)
            await self._record(steps, state, prefix)
            totals = await self._stored(prefix)
        violation = self._first_violation(totals, skip_steps=prefix is not None)
        if violation is None and prefix is not None and "max_steps" in self.limits:
            taken = await self._add(prefix, "steps", 1)  # reserve this step atomically
            if taken > self.limits["max_steps"]:
                await self._add(prefix, "steps", -1)
                totals.steps = taken - 1
                violation = "max_steps"
            else:
                self._step(state, len(steps)).charged["steps"] = 1
        if violation is None and prefix is not None and self.reserve_tokens:
            violation = await self._reserve_tokens(prefix, len(steps), totals, state)
        if violation is not None:
            await self._violated(violation, totals, prefix, abort, writer, state)

    async def _reserve_tokens(
        self, prefix: str, index: int, totals: _Totals, state: dict[str, Any]
    ) -> str | None:
        """Hold ``reserve_tokens`` of the total budget for step ``index`` before it
        runs; ``"max_total_tokens"`` (and nothing held) when they do not fit."""
        limit = self.limits["max_total_tokens"]
        step = self._step(state, index)
        taken = await self._add(prefix, "total_tokens", self.reserve_tokens)
        if taken <= limit:
            step.charged["total_tokens"] = self.reserve_tokens
            return None
        await self._add(prefix, "total_tokens", -self.reserve_tokens)
        if step.charged.get("steps"):  # the step reserved above will not run
            await self._add(prefix, "steps", -1)
            step.charged["steps"] = 0
        totals.total_tokens = taken
        return "max_total_tokens"

    @hookimpl(wrapper=True)
    def process_llm_request(
        self,
        model: Any,
        steps: list[Any],
        state: dict[str, Any],
        request_context: Mapping[str, Any],
    ) -> Generator[None, Mapping[str, Any], None]:
        """Start the estimate of the model call about to be made (a shared scope that
        charges as it streams): its prompt as the processors after this one left it,
        or nothing when one of them answered the call from a cache (a replay spends
        nothing). A wrapper, so that a cache after this guard in the list is seen."""
        result = yield
        prefix = self.scope_key(request_context) if self.charge_every else None
        if prefix is None:
            return None
        step = self._step(state, len(steps))
        counter = self.counter
        if result.get("response") is not None:
            step.new_call(None, counter)
            state["streaming"] = None
        else:
            step.new_call(prompt_tokens(counter, result["prompt"]), counter)
            state["streaming"] = (prefix, step, model)
        return None

    @hookimpl
    async def process_output_stream(self, part: Chunk, state: dict[str, Any]) -> Chunk:
        """Count what the model streams and charge it every ``charge_every`` estimated
        tokens. A call that fails (``step-retry``: it is made again; ``error``: the run
        ends) is charged all it is estimated to have used, and keeps it."""
        streaming = state.get("streaming")
        if streaming is None:
            return part
        prefix, step, model = streaming
        kind = part.type
        if kind == "step-retry" or kind == "error":
            state["streaming"] = None
            await self._charge_estimate(prefix, step, model)
            step.end_call()
            return part
        call = step.call
        if call is None:
            return part
        call.add(part)
        if step.due(self.charge_every):
            await self._charge_estimate(prefix, step, model)
            step.room = 0
        return part

    @hookimpl
    async def process_llm_response(
        self, steps: list[Any], state: dict[str, Any], request_context: Mapping[str, Any]
    ) -> None:
        """Record the step the model just answered (the last of ``steps``) as soon as
        its usage is known: an output processor that aborts in ``process_output_step``
        before the guard's own ends the run, and the spend must not be lost with it."""
        prefix = self.scope_key(request_context)
        if prefix is not None:
            await self._record(steps, state, prefix)

    @hookimpl
    async def process_output_step(
        self, steps: list[Any], state: dict[str, Any], request_context: Mapping[str, Any]
    ) -> None:
        # (already recorded by process_llm_response when the guard is an input
        # processor too; this covers a guard only in the output list)
        prefix = self.scope_key(request_context)
        if prefix is not None:
            await self._record(steps, state, prefix)

    # -------------------------------------------------------------- violations

    def _first_violation(self, totals: _Totals, *, skip_steps: bool) -> str | None:
        if totals.usage_out_of_range:
            self._spend_all(totals)
        for limit_type in LIMIT_TYPES:
            if limit_type not in self.limits or (skip_steps and limit_type == "max_steps"):
                continue
            if totals.value(limit_type) >= self.limits[limit_type]:
                return limit_type
        return None

    def _spend_all(self, totals: _Totals) -> None:
        """A usage out of range was charged: the budget is spent. Every token and dollar
        limit reads as reached (at least), so the first of them in the reference's order
        trips; a guard with only ``max_steps`` counts no usage."""
        for limit_type in _SPENDING:
            limit = self.limits.get(limit_type)
            if limit is None:
                continue
            if limit_type == "max_cost_usd":
                totals.cost_nano_usd = max(totals.cost_nano_usd, math.ceil(limit * _NANO))
            else:
                name = limit_type[len("max_"):]
                setattr(totals, name, max(getattr(totals, name), int(limit)))

    async def _violated(
        self,
        limit_type: str,
        totals: _Totals,
        prefix: str | None,
        abort: Any,
        writer: Any,
        state: dict[str, Any],
    ) -> None:
        limit = self.limits[limit_type]
        value = totals.value(limit_type)
        shown = (
            (dollars(value), dollars(limit))
            if limit_type == "max_cost_usd"
            else (str(int(value)), str(int(limit)))
        )
        reason = self.message.format(
            limit_type=limit_type,
            usage=shown[0],
            limit=shown[1],
            scope=self.scope,
            scope_key=prefix,
        )
        metadata = {
            "processor_id": self.id,
            "usage": totals.usage(),
            "limit": dict(self.limits),
            "scope": self.scope,
            "scope_key": prefix,
        }
        if self.strategy == "block":
            abort(reason, retry=False, metadata=metadata)
        warned: set[str] = state.setdefault("warned", set())
        log.warning("%s", reason)
        await notify_violation(self, ProcessorViolation(self.id, reason, metadata))
        if limit_type not in warned:
            warned.add(limit_type)
            await writer.custom(
                {
                    "type": "data-cost-guard",
                    "data": {**metadata, "limit_type": limit_type, "value": value},
                    "transient": True,
                }
            )
