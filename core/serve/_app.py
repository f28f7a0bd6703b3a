"""The gateway: an aiohttp application serving a configuration file's agents over
OpenAI's chat completions API.

Every request runs through ``agent.stream()``, streamed to the client or not, so
both paths run the same processors on the same chunks. Nothing reaches a streaming
client before the first chunk that passed the output processors: a tripwire until
then is an HTTP 400, after it a last event with ``finish_reason: "content_filter"``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web

from tripwire.agent import Agent, AgentStream
from tripwire.config import Config, build_processors
from tripwire.context import RESOURCE_ID_KEY, RequestContext
from tripwire.errors import APICallError, ConfigurationError
from tripwire.models._wire import load_json
from tripwire.processor import TripwireInfo
from tripwire.serve._keys import ApiKey, Keys, load_keys
from tripwire.serve._metrics import Metrics, log_access
from tripwire.serve._request import BadRequest, ChatRequest, parse_request
from tripwire.serve._response import Completion, dumps, error_body
from tripwire.serve._shared import KeySlots, gather_metrics

log = logging.getLogger("tripwire.serve")

#: ``[serve]`` keys and the types their values must have.
SERVE_KEYS: dict[str, Any] = {
    "keys": dict[str, Any],
    "keys_file": str,
    "max_body_bytes": int,
    "max_concurrent": int,
    "shutdown_timeout": float,
}

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_CONCURRENT = 64
DEFAULT_SHUTDOWN_TIMEOUT = 30.0

_SSE_HEADERS = {"Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _error(status: int, message: str, type: str, code: Any = None,
           param: str | None = None) -> web.Response:
    return web.Response(status=status, text=error_body(message, type, code, param),
                        content_type="application/json")


class Gateway:
    """The agents, keys, limits and counters of one ``tripwire serve``.

    ``agents`` maps the names clients use as ``model`` to agents; ``key_agents`` holds
    the agents a key with processor overrides uses instead (``(key name, agent)``).
    """

    def __init__(
        self,
        agents: Mapping[str, Agent],
        keys: Keys | None = None,
        *,
        key_agents: Mapping[tuple[str, str], Agent] | None = None,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_concurrent: int = DEFAULT_MAX_CONCURRENT,
        shutdown_timeout: float = DEFAULT_SHUTDOWN_TIMEOUT,
    ) -> None:
        self.agents = dict(agents)
        self.keys = keys or Keys([])
        self.key_agents = dict(key_agents or {})
        self.max_body_bytes = max_body_bytes
        self.max_concurrent = max_concurrent
        self.shutdown_timeout = shutdown_timeout
        self.metrics = Metrics()
        self.draining = False
        #: requests in flight per key (shared by the workers of ``--workers N``)
        self.slots = KeySlots()
        #: the other workers' Unix sockets (``/metrics`` reports their counts too), and
        #: this one's number (``/healthz`` says which worker answered); None: one worker
        self.peers: list[str] = []
        self.worker: int | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self.created = int(time.time())

    # -- building

    @classmethod
    def from_config(cls, config: Config, *, keys_file: str | None = None) -> Gateway:
        """The gateway of a loaded configuration: one agent per ``[agents.NAME]``, the
        keys and limits of ``[serve]``."""
        serve = dict(config.serve)
        where = f"{config.path}: [serve]"
        from tripwire.options import check

        for name, value in serve.items():
            if name not in SERVE_KEYS:
                raise ConfigurationError(
                    f"{where}: unknown key {name!r}; valid keys: {', '.join(SERVE_KEYS)}")
            serve[name] = check(name, value, SERVE_KEYS[name], owner=where, noun="key")
        for name in ("max_body_bytes", "max_concurrent", "shutdown_timeout"):
            if name in serve and not serve[name] > 0:
                raise ConfigurationError(
                    f"{where} {name}: expects a number > 0, got {serve[name]}")
        keys = load_keys(serve, config.path, keys_file)
        if not config.agents:
            raise ConfigurationError(f"{config.path}: no agents to serve (add [agents.NAME])")
        agents = {name: config.agent(name) for name in config.agents}
        key_agents = {}
        for key in keys.keys:
            unknown = [a for a in key.agents or () if a not in agents]
            if unknown:
                raise ConfigurationError(
                    f"serve.keys.{key.name} agents: no agent {unknown[0]!r}; agents: "
                    f"{', '.join(agents)}")
            if key.overrides:
                mine = [name for name in agents if key.may_use(name)]
                _check_disabled(key, [agents[name] for name in mine])
                for name in mine:
                    key_agents[(key.name, name)] = _override(config, name, key)
        return cls(agents, keys, key_agents=key_agents,
                   max_body_bytes=serve.get("max_body_bytes", DEFAULT_MAX_BODY_BYTES),
                   max_concurrent=serve.get("max_concurrent", DEFAULT_MAX_CONCURRENT),
                   shutdown_timeout=serve.get("shutdown_timeout", DEFAULT_SHUTDOWN_TIMEOUT))

    def app(self) -> web.Application:
        """The aiohttp application (the body limit is enforced here, see ``_read``)."""
        app = web.Application(client_max_size=self.max_body_bytes,
                              middlewares=[self._middleware])
        app.router.add_post("/v1/chat/completions", self.chat_completions)
        app.router.add_get("/v1/models", self.models)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics_text)
        return app

    async def aclose(self) -> None:
        """Close the agents' model sessions."""
        for agent in [*self.agents.values(), *self.key_agents.values()]:
            await agent.aclose()

    # -- shutdown

    async def drain(self, timeout: float | None = None) -> bool:
        """Stop taking requests (new ones get 503) and wait until the ones in flight
        are done, at most ``timeout`` seconds (default ``shutdown_timeout``); whether
        they all finished."""
        self.draining = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout or self.shutdown_timeout)
        except TimeoutError:
            return False
        return True

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if self.draining:
            return _error(503, "The gateway is shutting down; retry on another instance.",
                          "service_unavailable", "shutting_down")
        self.metrics.in_flight += 1
        self._idle.clear()
        try:
            return await handler(request)
        finally:
            self.metrics.in_flight -= 1
            if not self.metrics.in_flight:
                self._idle.set()

    # -- small endpoints

    async def models(self, request: web.Request) -> web.Response:
        key, failure = self._authenticate(request)
        if failure is not None:
            return failure
        data = [{"id": name, "object": "model", "created": self.created, "owned_by": "tripwire"}
                for name in self.agents if key is None or key.may_use(name)]
        return web.Response(text=dumps({"object": "list", "data": data}),
                            content_type="application/json")

    async def healthz(self, request: web.Request) -> web.Response:
        health: dict[str, Any] = {"status": "ok", "agents": len(self.agents)}
        if self.worker is not None:
            health["worker"] = self.worker
        return web.json_response(health)

    async def metrics_text(self, request: web.Request) -> web.Response:
        metrics = await gather_metrics(self.metrics, self.peers) if self.peers else self.metrics
        return web.Response(text=metrics.render(),
                            content_type="text/plain", charset="utf-8",
                            headers={"X-Content-Type-Options": "nosniff"})

    # -- chat completions

    def _authenticate(self, request: web.Request) -> tuple[ApiKey | None, web.Response | None]:
        if not self.keys.required:
            return None, None
        header = request.headers.get("Authorization", "")
        scheme, _, presented = header.partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            return None, _error(
                401, "You didn't provide an API key. Send it as 'Authorization: Bearer KEY'.",
                "invalid_request_error", "missing_api_key")
        key = self.keys.lookup(presented.strip())
        if key is None:
            return None, _error(401, "Incorrect API key provided.", "invalid_request_error",
                                "invalid_api_key")
        return key, None

    async def chat_completions(self, request: web.Request) -> web.StreamResponse:
        started = time.perf_counter()
        record: dict[str, Any] = {"time": round(time.time(), 3), "method": "POST",
                                  "path": request.path, "agent": None,
                                  "tenant": None, "key": None, "stream": False}
        key: ApiKey | None = None
        admitted = False
        try:
            key, failure = self._authenticate(request)
            if failure is not None:
                record["status"] = failure.status
                return failure
            if key is not None:
                record.update(key=key.name, tenant=key.tenant)
                limit = key.max_concurrent or self.max_concurrent
                if not self.slots.acquire(key.name, limit):
                    record["status"] = 429
                    return _error(429, f"Too many concurrent requests for this key (limit "
                                  f"{limit}).", "rate_limit_error", "concurrency_limit")
                admitted = True
            response = await self._chat(request, key, record)
            record["status"] = response.status
            return response
        except asyncio.CancelledError:
            record["status"] = 499  # the client went away
            raise
        finally:
            if admitted:
                assert key is not None
                self.slots.release(key.name)
            record["latency_ms"] = round((time.perf_counter() - started) * 1000, 3)
            record.setdefault("status", 500)
            self.metrics.observe(record)
            log_access(record)

    async def _chat(self, request: web.Request, key: ApiKey | None,
                    record: dict[str, Any]) -> web.StreamResponse:
        body = await self._read(request)
        if isinstance(body, web.Response):
            return body
        try:
            chat = parse_request(body)
        except BadRequest as e:
            return _error(400, str(e), "invalid_request_error", None, e.param)
        record["stream"] = chat.stream
        agent = self.agents.get(chat.agent)
        if agent is None:  # not logged or counted by name: clients choose any text here
            return _error(404, f"The model {chat.agent!r} does not exist (agents: "
                          f"{', '.join(self._visible(key))}).", "invalid_request_error",
                          "model_not_found", "model")
        record["agent"] = chat.agent
        if key is not None:
            if not key.may_use(chat.agent):
                return _error(403, f"This key may not use the model {chat.agent!r}.",
                              "permission_error", "model_not_allowed", "model")
            agent = self.key_agents.get((key.name, chat.agent), agent)
        client_tools = frozenset(t["name"] for t in chat.client_tools) - set(agent.tools)
        failure = _check_tool_choice(chat, agent)
        if failure is not None:
            return failure
        context = RequestContext({RESOURCE_ID_KEY: key.tenant} if key is not None else None)
        options = chat.options()
        if key is not None:
            options["caller_system"] = key.caller_system
        try:
            run = agent.stream(chat.messages, request_context=context, **options)
        except (ConfigurationError, TypeError) as e:
            return _error(400, str(e), "invalid_request_error")
        completion = Completion(chat.agent, run.run_id, client_tools)
        try:
            if chat.stream:
                return await self._stream(request, run, completion, chat, record)
            return await self._complete(run, completion, record)
        finally:
            await run.aclose()

    def _visible(self, key: ApiKey | None) -> list[str]:
        return [n for n in self.agents if key is None or key.may_use(n)]

    async def _read(self, request: web.Request) -> Any:
        """The decoded JSON body, or the error response for a body too large or not JSON."""
        if request.content_length is not None and request.content_length > self.max_body_bytes:
            return _too_large(self.max_body_bytes)
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _too_large(self.max_body_bytes)
        try:
            return load_json(raw)
        except ValueError as e:
            return _error(400, f"The request body is not valid JSON: {e}",
                          "invalid_request_error")

    async def _complete(self, run: AgentStream, completion: Completion,
                        record: dict[str, Any]) -> web.Response:
        async for chunk in run:
            if chunk.type == "tripwire":
                return self._tripped(run.tripwire, record)
            if chunk.type == "error":
                return self._failed(chunk.payload["error"], record)
            completion.collect(chunk)
        result = await run.result
        _usage(record, result.usage)
        return web.Response(text=completion.body(result.text, result.finish_reason, result.usage),
                            content_type="application/json")

    async def _stream(self, request: web.Request, run: AgentStream, completion: Completion,
                      chat: ChatRequest, record: dict[str, Any]) -> web.StreamResponse:
        writer: _Coalescing | None = None

        async def send(data: bytes, *, last: bool = False) -> None:
            """Write ``data``; ``last``: with the end of the response, in one write
            (the client's last byte then waits for one system call, not two)."""
            nonlocal writer
            if writer is None:
                response = web.StreamResponse(headers=_SSE_HEADERS)
                await response.prepare(request)
                writer = _Coalescing(response)
                data = completion.start() + data
            if last:
                await writer.close(data)
            else:
                await writer.send(data)

        try:
            async for chunk in run:
                kind = chunk.type
                if kind == "finish":
                    usage = chunk.payload["usage"]
                    _usage(record, usage)
                    await send(completion.finish_events(
                        completion.stream_finish(chunk.payload["finish_reason"]),
                        usage if chat.include_usage else None), last=True)
                    break
                if kind == "tripwire":
                    if writer is None:
                        return self._tripped(run.tripwire, record)
                    info = run.tripwire
                    assert info is not None
                    record["tripwire"] = info.processor_id
                    await send(completion.finish_events(
                        "content_filter", (await run.usage) if chat.include_usage else None,
                        extra={"tripwire": {"message": info.reason, "type": "tripwire",
                                            "code": info.processor_id}}), last=True)
                    break
                if kind == "error":
                    error = chunk.payload["error"]
                    if writer is None:
                        return self._failed(error, record)
                    status, message, kind = _error_details(error, record)
                    await send(f"data: {error_body(message, kind, status)}\n\n".encode(),
                               last=True)
                    break
                data = completion.event(chunk)
                if data is not None:
                    await send(data)
            else:
                if writer is None:  # the run ended without a finish chunk (closed early)
                    return _error(500, "The run ended without a response.", "server_error")
                await writer.close()
            assert writer is not None
            return writer.response
        finally:
            if writer is not None:
                writer.cancel()

    def _tripped(self, info: TripwireInfo | None, record: dict[str, Any]) -> web.Response:
        assert info is not None
        record["tripwire"] = info.processor_id
        return _error(400, info.reason, "tripwire", info.processor_id)

    def _failed(self, error: BaseException, record: dict[str, Any]) -> web.Response:
        status, message, kind = _error_details(error, record)
        return _error(status, message, kind, None if status >= 500 else status)


class _Coalescing:
    """Writes a stream's events: the first of a turn of the event loop at once, the
    ones ready in that same turn (events a processor releases together, or that came
    from the upstream in one read) joined into one write on the next turn. A paced
    stream's event goes out with no wait and no task; a burst reaches the client in two
    packets instead of one each (fewer system calls and wake-ups). At most ``limit``
    bytes wait before ``send`` waits for the client."""

    def __init__(self, response: web.StreamResponse, limit: int = 256 * 1024) -> None:
        self.response = response
        self.limit = limit
        self._pending: list[bytes] = []
        self._size = 0
        self._task: asyncio.Task[None] | None = None
        self._busy = False  # written in this turn of the loop
        self._loop = asyncio.get_running_loop()

    def _next_turn(self) -> None:
        self._busy = False

    async def send(self, data: bytes) -> None:
        task = self._task
        if task is not None and task.done():
            self._task = None
            task.result()  # a failed write (the client went away) ends the stream
        if not self._busy and self._task is None:
            self._busy = True
            self._loop.call_soon(self._next_turn)
            await self.response.write(data)
            return
        self._pending.append(data)
        self._size += len(data)
        if self._task is None:
            self._task = asyncio.ensure_future(self._flush())
        elif self._size > self.limit:
            await self._task

    async def _flush(self) -> None:
        while self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            self._size = 0
            await self.response.write(data)
        self._task = None

    async def close(self, data: bytes = b"") -> None:
        """Write what is pending, then ``data`` with the end of the response."""
        if self._task is not None:
            await self._task
        await self.response.write_eof(data)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()


def _error_details(error: BaseException, record: dict[str, Any]) -> tuple[int, str, str]:
    """HTTP status, message and OpenAI error type of a run's error: an upstream's own
    status for a failed model call (502 when it sent none), 500 for anything else."""
    if isinstance(error, APICallError):
        status = error.status_code or 0
        record["upstream_status"] = status
        kind = "upstream_error" if status >= 500 or not status else "invalid_request_error"
        return status or 502, f"Upstream model call failed: {error.message}", kind
    log.error("a run failed: %s: %s", type(error).__name__, error)
    return 500, f"The gateway failed: {type(error).__name__}", "server_error"


def _usage(record: dict[str, Any], usage: Any) -> None:
    record["prompt_tokens"] = usage.input_tokens
    record["completion_tokens"] = usage.output_tokens


def _too_large(limit: int) -> web.Response:
    return _error(413, f"The request body is larger than {limit} bytes.",
                  "invalid_request_error", "request_too_large")


def _check_tool_choice(chat: ChatRequest, agent: Agent) -> web.Response | None:
    choice = chat.tool_choice
    if isinstance(choice, dict):
        names = {t["name"] for t in chat.client_tools} | set(agent.tools)
        if choice["tool_name"] not in names:
            return _error(400, f"tool_choice names the function {choice['tool_name']!r}, which "
                          f"is not among the tools ({', '.join(sorted(names)) or 'none'}).",
                          "invalid_request_error", None, "tool_choice")
    return None


def _override(config: Config, name: str, key: ApiKey) -> Agent:
    """The agent ``name`` as ``key`` runs it: without the processors it disables, with
    the ones it adds."""
    kwargs = config.agent_kwargs(name)
    for kind in ("input_processors", "output_processors", "error_processors"):
        kept = [p for p in kwargs.get(kind) or [] if getattr(p, "id", None) not in key.disable]
        try:
            kept += build_processors(list(getattr(key, kind, ())))
        except ConfigurationError as e:
            raise ConfigurationError(f"serve.keys.{key.name} {kind}{e}") from e
        kwargs[kind] = kept
    return config.build(Agent, name, kwargs)


def _check_disabled(key: ApiKey, agents: list[Agent]) -> None:
    """A disabled id that none of the key's agents has is a typo: say so."""
    ids = {getattr(p, "id", None) for agent in agents for p in agent.list_processors()}
    missing = [d for d in key.disable if d not in ids]
    if missing:
        raise ConfigurationError(
            f"serve.keys.{key.name} disable: no agent of this key has the processor "
            f"{missing[0]!r}")
