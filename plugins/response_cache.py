"""``response-cache``: answer a model call from a cache when the same call was made
before, and compute concurrent identical calls once.

It hooks two stages of every step (put it in ``input_processors``)::

    process_llm_request    derive the call's key; on a hit return {"response": chunks}:
                           the model is not called and the chunks are replayed through
                           the output processors (from_cache=True), so every guardrail
                           still sees them; on a miss remember the key in ``state``
    process_llm_response   write the step's chunks under that key, with the TTL - never
                           for a cache replay, nor for a failed step (an error or
                           tripwire chunk, or a finish reason other than stop, length
                           or tool-calls), nor for a step with a chunk a replay does
                           not carry (``tripwire.caches.REPLAY_KEYS``: a data-*,
                           source or provider-defined chunk type, a payload key of a
                           plugin's own); a step whose stream an output processor
                           tripped never gets here, and the entry of a step tripped
                           later (process_output_step, a tool result) is deleted

The key (``tripwire.build_response_cache_key``) covers the agent id, the step number, the
scope, the model and the prompt as it is sent (after memory and earlier processors),
plus the tools offered and the call's settings: agents with different instructions,
tools or models never share an entry. ``scope`` defaults to the request context's
resource id (``tripwire.RESOURCE_ID_KEY``), so users never see each other's entries;
``scope=None`` shares entries between all callers.

Concurrent identical calls (same key, same process, same event loop) are computed once:
the first caller calls the model, the others wait for its answer and replay it
(``coalesce=False`` turns this off). A waiter whose leader fails, is tripped or
cancelled, calls the model itself (no waiter waits longer than ``coalesce_timeout``).

The cache is a URL (``memory://``, the default, ``sqlite:///path.db``,
``redis://host:6379/0`` with ``tripwire-redis`` installed) or a backend object
(``tripwire.caches``). A backend error never fails the run: it is logged as a warning
and the step goes on uncached.

Per call, ``ResponseCache.context(key=..., scope=..., bust=...)`` builds a request
context that overrides those options (``ResponseCache.apply_context(ctx, ...)`` adds
them to an existing one); ``cache`` and ``ttl`` belong to the instance.
"""

from __future__ import annotations

import asyncio
import enum
import inspect
import logging
import math
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import quote

from tripwire import hookimpl
from tripwire.caches import (
    FORMAT_VERSION,
    REPLAY_KEYS,
    CacheBackend,
    decode_chunks,
    encode_chunks,
    open_cache,
    replay_chunks,
    unreplayable,
)
from tripwire.caches.keys import (
    CUSTOM_KEY_PREFIX,
    KEY_PREFIX,
    CacheKeyInputs,
    ModelIdentity,
    build_response_cache_key,
)
from tripwire.chunks import Chunk
from tripwire.context import RESOURCE_ID_KEY, RequestContext
from tripwire.errors import ConfigurationError
from tripwire.option_checks import Mismatch, check, conform
from tripwire.processor import Processor

log = logging.getLogger(__name__)

#: The request context key under which per-call overrides travel.
CONTEXT_KEY = "tripwire__response_cache_context"
_OVERRIDES = ("key", "scope", "bust")
#: Finish reasons of a step worth caching.
_CACHEABLE_FINISH = frozenset({"stop", "length", "tool-calls"})
#: The first line of an entry in the current format (``encode_chunks``).
_ENTRY_HEADER = b"tripwire-chunks/%d\n" % FORMAT_VERSION

KeyFunction = Callable[[CacheKeyInputs], "str | Awaitable[str]"]


class Scope(enum.Enum):
    """``RESOURCE``: the default scope, the request context's resource id."""

    RESOURCE = "resource"


RESOURCE = Scope.RESOURCE


class ResponseCache(Processor):
    """Replay a cached response for a model call made before; see the module docs.

    :param cache: a cache URL (``"memory://"``, ``"sqlite:///path.db"``,
        ``"redis://127.0.0.1:6379/0"``) or a backend object; default ``memory://``.
    :param ttl: seconds an entry lives, a positive, finite number (default 300).
    :param key: a fixed key (``str``; the step number is added after the first step) or
        a function of the ``CacheKeyInputs`` returning one (sync or async); a function
        that raises or returns no string falls back to the default key, with a warning.
        Either is stored under ``tripwire:response-key:scope:<scope>:key:<key>``
        (``tripwire:response-key:key:<key>`` unscoped), so tenants never share an entry
        through a key of their own, and no such key is ever a derived one; a
        function's key that already starts with ``tripwire:response:`` (a derived key,
        ``build_response_cache_key``'s) is used as it is (the function then answers
        for the scope: ``inputs.scope``).
    :param scope: a tenant scope; default ``RESOURCE`` (the request context's resource
        id, unscoped when there is none); ``None`` or ``False`` for unscoped.
    :param bust: skip the read (the answer is still written): a forced refresh.
    :param agent_id: the agent id in the key; default the running agent's id.
    :param coalesce: compute concurrent identical calls once (default True).
    :param coalesce_timeout: the longest a waiting call waits for the first one before
        calling the model itself (seconds, a positive, finite number; default 120).
    """

    id = "response-cache"
    #: the default ``scope``: the request context's resource id
    RESOURCE = Scope.RESOURCE
    description = "replays cached model responses (memory, SQLite, Redis) through the guardrails"

    def __init__(
        self,
        cache: str | CacheBackend = "memory://",
        *,
        ttl: float = 300,
        key: str | KeyFunction | None = None,
        scope: str | Scope | bool | None = RESOURCE,
        bust: bool = False,
        agent_id: str | None = None,
        coalesce: bool = True,
        coalesce_timeout: float = 120,
    ) -> None:
        ttl = _seconds("ttl", ttl, owner=self.id)
        coalesce_timeout = _seconds("coalesce_timeout", coalesce_timeout, owner=self.id)
        _check_overrides({"key": key, "scope": scope, "bust": bust}, owner=self.id)
        check("agent_id", agent_id, str | None, owner=self.id)
        check("coalesce", coalesce, bool, owner=self.id)
        self.cache = open_cache(cache)
        self.ttl = ttl
        self.key = key
        self.scope = scope
        self.bust = bust
        self.agent_id = agent_id
        self.coalesce = coalesce
        self.coalesce_timeout = coalesce_timeout
        # event loop -> key -> the future of the call computing it
        # keys of entries whose step tripped after the write, to delete before the next read
        self._tripped: list[str] = []
        self._inflight: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[str, asyncio.Future[bytes | None]]
        ] = weakref.WeakKeyDictionary()

    # ------------------------------------------------------------ per-call overrides

    @staticmethod
    def context(**overrides: Any) -> RequestContext:
        """A new request context carrying per-call overrides of ``key``, ``scope``
        and/or ``bust``: ``agent.generate(..., request_context=ResponseCache.context(
        bust=True))``."""
        ctx = RequestContext()
        ResponseCache.apply_context(ctx, **overrides)
        return ctx

    @staticmethod
    def apply_context(ctx: RequestContext | dict[str, Any], **overrides: Any) -> Any:
        """Add per-call overrides (``key``, ``scope``, ``bust``) to ``ctx``, merged with
        any already there; returns ``ctx``. An unknown name is a ``ConfigurationError``."""
        unknown = sorted(set(overrides) - set(_OVERRIDES))
        if unknown:
            raise ConfigurationError(
                f"response-cache: unknown per-call override(s) {', '.join(unknown)}; "
                f"valid: {', '.join(_OVERRIDES)} (cache and ttl belong to the instance)"
            )
        _check_overrides(overrides, owner="response-cache")
        merged = {**(ctx.get(CONTEXT_KEY) or {}), **overrides}
        ctx[CONTEXT_KEY] = merged
        return ctx

    # ------------------------------------------------------------ hooks

    @hookimpl
    async def process_llm_request(
        self,
        prompt: list[dict[str, Any]],
        model: Any,
        step_number: int,
        tools: dict[str, Any],
        tool_choice: Any,
        model_settings: Any,
        provider_options: Any,
        structured_output: Any,
        request_context: RequestContext,
        tracing_context: Any,
        state: dict[str, Any],
    ) -> dict[str, Any] | None:
        written: _Written | None = state.get("written")
        if written is not None:
            written.collect()  # a step of this run tripped since it was written
        if self._tripped:
            await self._purge()
        overrides: Mapping[str, Any] = request_context.get(CONTEXT_KEY) or {}
        scope = self._scope(overrides.get("scope", self.scope), request_context)
        inputs = CacheKeyInputs(
            agent_id=self.agent_id
            or getattr(tracing_context, "agent_id", None)
            or "tripwire-response-cache",
            model=ModelIdentity.of(model),
            prompt=prompt,
            step_number=step_number,
            scope=scope,
            tools=tools,
            tool_choice=tool_choice,
            model_settings=model_settings,
            provider_options=provider_options,
            structured_output=structured_output,
        )
        key = await self._key(overrides.get("key", self.key), inputs)
        old = state.get("lease")
        if old is not None and old.key != key:  # a retried call with a changed prompt
            old.release(None)
            state.pop("lease")
        state["key"] = key
        if not overrides.get("bust", self.bust):
            chunks = await self._read(key)
            if chunks:
                state.pop("key")
                return {"response": chunks}
        if not self.coalesce or "lease" in state:
            return None
        while True:
            inflight = self._calls()
            future = inflight.get(key)
            if future is None:
                state["lease"] = _Lease(inflight, key)
                return None
            if overrides.get("bust", self.bust):
                return None  # a forced refresh does not reuse a concurrent answer
            try:
                data = await asyncio.wait_for(asyncio.shield(future), self.coalesce_timeout)
            except TimeoutError:
                log.warning(
                    "response-cache: waited %.0f s for an identical call in "
                    "flight; calling the model",
                    self.coalesce_timeout,
                )
                return None
            chunks = _replayable(data, key)
            if chunks:
                state.pop("key")
                return {"response": chunks}
            # the leader failed or gave up: the next waiter leads

    @hookimpl
    async def process_llm_response(
        self,
        chunks: list[Chunk],
        from_cache: bool,
        steps: list[Any],
        state: dict[str, Any],
    ) -> None:
        key = state.pop("key", None)
        lease: _Lease | None = state.pop("lease", None)
        stored = [_storable(c) for c in chunks]
        if key is None or from_cache or not _cacheable(stored) or not _replays(stored):
            if lease is not None:
                lease.release(None)
            return
        try:
            data = encode_chunks(stored)
        except (TypeError, ValueError) as e:
            log.warning("response-cache: the response cannot be stored (%s); not cached", e)
            if lease is not None:
                lease.release(None)
            return
        if lease is not None:
            lease.release(data)
        try:
            await self.cache.set(key, data, self.ttl)
        except Exception as e:  # the contract: a backend error never fails the run
            log.warning(
                "response-cache: writing to the cache failed (%s: %s); the run goes on uncached",
                type(e).__name__,
                e,
            )
            return
        if steps:
            written = state.get("written")
            if written is None:
                written = state["written"] = _Written(self._tripped)
            written.add(key, steps[-1])

    @hookimpl
    def process_api_error(self, state: dict[str, Any]) -> None:
        """A failed model call: let waiting identical calls go on (a retry of this one
        leads, or waits, again)."""
        lease: _Lease | None = state.pop("lease", None)
        if lease is not None:
            lease.release(None)

    # ------------------------------------------------------------ internals

    def _scope(self, scope: Any, request_context: RequestContext) -> str | None:
        if scope is RESOURCE:
            resource = request_context.get(RESOURCE_ID_KEY)
            return None if resource is None else str(resource)
        if scope is None or scope is False:
            return None
        return str(scope)

    async def _key(self, key: Any, inputs: CacheKeyInputs) -> str:
        if key is None:
            return build_response_cache_key(inputs)
        # a key of one's own is still the scope's: one tenant's entry under key "faq"
        # is not another's; and it lives under its own prefix, which no derived key
        # starts with (an agent whose id is "key" derives "tripwire:response:key:...")
        scope = "" if inputs.scope is None else f":scope:{quote(inputs.scope, safe='')}"
        mine = f"{CUSTOM_KEY_PREFIX}{scope}:key:"
        if isinstance(key, str):
            # the step goes before the key, which is written last as it was given: no
            # key can spell another key's later step ("faq:step-1" is not step 1 of "faq")
            step = f":step:{inputs.step_number}" if inputs.step_number else ""
            return f"{CUSTOM_KEY_PREFIX}{scope}{step}:key:{key}"
        try:
            value = key(inputs)
            if inspect.isawaitable(value):
                value = await value
            if not isinstance(value, str) or not value:
                raise TypeError(f"it returned {type(value).__name__}, not a non-empty str")
        except Exception as e:
            log.warning(
                "response-cache: the key function failed (%s: %s); using the default key",
                type(e).__name__,
                e,
            )
            return build_response_cache_key(inputs)
        # Keys of their own stay in the response cache's namespace for them: a key
        # function cannot overwrite another user of the backend (a budget's counters,
        # a derived key). One that gives a whole derived key (build_response_cache_key's)
        # takes charge of the scope itself.
        return value if value.startswith(KEY_PREFIX + ":") else f"{mine}{value}"

    async def _read(self, key: str) -> list[Chunk] | None:
        try:
            data = await self.cache.get(key)
        except Exception as e:  # the contract: a backend error never fails the run
            log.warning(
                "response-cache: reading the cache failed (%s: %s); the run goes on uncached",
                type(e).__name__,
                e,
            )
            return None
        return _replayable(data, key)

    async def _purge(self) -> None:
        """Delete the entries of steps tripped after they were written."""
        keys = list(dict.fromkeys(self._tripped))
        del self._tripped[: len(keys)]
        for key in keys:
            try:
                await self.cache.delete(key)
            except Exception as e:  # the contract: a backend error never fails the run
                log.warning(
                    "response-cache: deleting the entry of a tripped step failed (%s: %s)",
                    type(e).__name__,
                    e,
                )

    def _calls(self) -> dict[str, asyncio.Future[bytes | None]]:
        loop = asyncio.get_running_loop()
        calls = self._inflight.get(loop)
        if calls is None:
            calls = self._inflight[loop] = {}
        return calls

    def __repr__(self) -> str:
        return f"<ResponseCache cache={self.cache!r} ttl={self.ttl}>"


class _Lease:
    """The right (and duty) to compute one key's answer for the identical calls that
    wait for it. Released with the stored bytes, or ``None`` when there is no answer;
    a lease dropped without release (a run tripped, failed, closed or left with
    ``break`` mid-step) releases itself when the run ends and empties its ``state``,
    so waiters never hang on it."""

    def __init__(self, inflight: dict[str, asyncio.Future[bytes | None]], key: str) -> None:
        loop = asyncio.get_running_loop()
        self.key = key
        self.future: asyncio.Future[bytes | None] = loop.create_future()
        self._inflight = inflight
        inflight[key] = self.future
        self._finalizer = weakref.finalize(self, _settle, loop, inflight, key, self.future, None)

    def release(self, data: bytes | None) -> None:
        self._finalizer.detach()
        _settle(None, self._inflight, self.key, self.future, data)


class _Written:
    """The entries one run wrote, with their steps. ``process_llm_response`` runs
    before ``process_output_step`` and the tools, which may still trip the step (the
    runner then marks its ``StepResult``): such an entry is handed to ``tripped`` - at
    the run's next model call, or when the run's state is dropped at its end - and
    deleted before the processor's next read."""

    def __init__(self, tripped: list[str]) -> None:
        self.entries: list[tuple[str, Any]] = []
        self.tripped = tripped
        weakref.finalize(self, _collect, self.entries, tripped)

    def add(self, key: str, step: Any) -> None:
        self.entries.append((key, step))

    def collect(self) -> None:
        _collect(self.entries, self.tripped)


def _collect(entries: list[tuple[str, Any]], tripped: list[str]) -> None:
    keep = []
    for key, step in entries:
        if getattr(step, "tripwire", None) is not None:
            tripped.append(key)
        else:
            keep.append((key, step))
    entries[:] = keep


def _settle(
    loop: asyncio.AbstractEventLoop | None,
    inflight: dict[str, asyncio.Future[bytes | None]],
    key: str,
    future: asyncio.Future[bytes | None],
    data: bytes | None,
) -> None:
    def settle() -> None:
        if inflight.get(key) is future:
            del inflight[key]
        if not future.done():
            future.set_result(data)

    if loop is None:
        settle()
    elif not loop.is_closed():
        loop.call_soon_threadsafe(settle)


def _cacheable(chunks: list[Chunk]) -> bool:
    """A complete, successful step: no error or tripwire chunk, and a finish whose
    reason is stop, length or tool-calls."""
    finish = None
    for c in chunks:
        if c.type in ("error", "tripwire"):
            return False
        if c.type == "finish":
            finish = c.payload.get("finish_reason")
    return finish in _CACHEABLE_FINISH


def _replayable(data: bytes | None, key: str) -> list[Chunk] | None:
    """The chunks of an entry as a replay streams them (``replay_chunks``), or ``None``
    (a miss) unless it is what ``process_llm_response`` writes: chunks of a valid shape
    and of the types and keys a replay carries (``REPLAY_KEYS``), making a complete,
    successful step (``_cacheable``). A backend holds whatever bytes were put in it: an
    entry that does not parse, a malformed or foreign chunk or a failed step is a miss
    with a warning, never a failed run nor a replay of what was never written."""
    chunks = decode_chunks(data)
    if chunks is not None:
        try:
            # what a model sends (no chunk of the run's, no type or key name of the
            # entry's own), with every field a consumer reads either checked by the
            # guards or set by tripwire
            chunks = replay_chunks(chunks)
        except (ValueError, TypeError) as e:
            problem = f"has a malformed or foreign chunk ({e})"
        else:
            if _cacheable(chunks):
                return chunks
            problem = "is not a complete, successful step"
    elif data and data.startswith(_ENTRY_HEADER):
        problem = "does not parse"
    else:
        return None  # no entry, or one of another format version
    log.warning("response-cache: the entry %s %s; read as a miss", key, problem)
    return None


def _replays(chunks: list[Chunk]) -> bool:
    """Whether a replay can carry every chunk of the step (``unreplayable``): one that a
    model's ``data-*``, ``source`` or own chunk type, or a payload key of its own, would
    make a miss on every read is not written, and says why at INFO."""
    for chunk in chunks:
        problem = unreplayable(chunk)
        if problem is not None:
            log.info("response-cache: the step has %s; not cached", problem)
            return False
    return True


def _storable(chunk: Chunk) -> Chunk:
    """The chunk as it is stored: no run id (a replay gets the new run's), and a finish
    without the provider's raw request, response or warnings."""
    payload = chunk.payload
    if chunk.type == "finish":
        payload = {k: v for k, v in payload.items() if k in REPLAY_KEYS["finish"]}
    return Chunk(chunk.type, payload, None, "AGENT", chunk.transient)


def _seconds(name: str, value: Any, *, owner: str) -> float:
    """``value`` as a positive, finite number of seconds, else a ``ConfigurationError``
    naming the option. ``None`` is not "no limit" here: an entry without expiry would
    stay in an SQLite file or Redis forever, and a waiter without a timeout could wait
    forever on a call that never ends."""
    try:
        seconds: float = conform(value, float)
    except Mismatch:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise ConfigurationError(
            f"{owner}: {name} must be a positive, finite number of seconds, got {value!r}"
        )
    return seconds


def _check_overrides(values: Mapping[str, Any], *, owner: str) -> None:
    if "key" in values:
        key = values["key"]
        if key is not None and not callable(key) and (not isinstance(key, str) or not key):
            raise ConfigurationError(
                f"{owner}: key must be a non-empty str, a function of the key inputs or "
                f"None, got {key!r}"
            )
    if "scope" in values:
        scope = values["scope"]
        if not (
            scope is None
            or scope is False
            or scope is RESOURCE
            or (isinstance(scope, str) and scope)
        ):
            raise ConfigurationError(
                f"{owner}: scope must be a non-empty str, None / False (unscoped) or "
                f"ResponseCache.RESOURCE (the resource id), got {scope!r}"
            )
    if "bust" in values:
        check("bust", values["bust"], bool, owner=owner)


__all__ = ["CONTEXT_KEY", "RESOURCE", "ResponseCache", "Scope", "build_response_cache_key"]
