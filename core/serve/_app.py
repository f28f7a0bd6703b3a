"""The gateway: an aiohttp application serving a configuration file's agents over the
client APIs of its codecs (OpenAI's chat completions first).

``Gateway`` holds the routes and the one request path every API's request takes
(``Gateway._run``): it authenticates keys, admits requests (per-key concurrency,
draining at shutdown), reads and checks the body, has the API's codec read it as an
agent call (``tripwire.serve._codec``), picks the agent and checks the key may use it,
lets the codec take part before the run (its memory thread, ``_thread``), runs it,
and counts and logs every request. Every request runs through ``agent.stream()``,
streamed to the client or not, so both paths run the same processors on the same
chunks; how a run's chunks become the answer is ``_answer`` with the codec's renderer,
how ``[serve]`` and the agents are read from a configuration file ``_config``.
"""

from __future__ import annotations

import asyncio
import contextvars
import hmac
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from aiohttp import web

from tripwire.agent import Agent
from tripwire.config import Config
from tripwire.context import RESOURCE_ID_KEY, THREAD_ID_KEY
from tripwire.errors import ConfigurationError
from tripwire.models.wire import load_json
from tripwire.serve._answer import INTERNAL_ERROR, STARTED, complete, stream
from tripwire.serve._chat import CHAT_PATH, ChatCodec
from tripwire.serve._codec import (
    AgentCall,
    BadRequest,
    Codec,
    Exchange,
    Handler,
    bearer,
)
from tripwire.serve._config import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_CONCURRENT,
    DEFAULT_SHUTDOWN_TIMEOUT,
    DEFAULT_WRITE_TIMEOUT,
    build_agents,
    serve_table,
)
from tripwire.serve._keys import ApiKey, Keys, digest, load_keys
from tripwire.serve._messages import MessagesCodec
from tripwire.serve._metrics import AccessRecord, Metrics, log_access
from tripwire.serve._request import check_unicode
from tripwire.serve._response import dumps
from tripwire.serve._responses import ResponsesCodec
from tripwire.serve._shared import KeySlots, gather_metrics
from tripwire.serve._thread import store_thread_id

__all__ = ["CHAT_PATH", "Gateway", "default_codecs"]

Route = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: The access-log record of the request being served: the middleware makes it (every
#: request gets its line), the handlers add what they learn (key, agent, tokens).
_RECORD: contextvars.ContextVar[AccessRecord] = contextvars.ContextVar("tripwire_serve_record")

log = logging.getLogger("tripwire.serve")


def default_codecs() -> list[Codec]:
    """The client APIs a gateway speaks unless told otherwise, one codec each."""
    return [ChatCodec(), ResponsesCodec(), MessagesCodec()]


class Gateway:
    """The agents, keys, limits and counters of one ``tripwire serve``.

    ``agents`` maps the names clients use as ``model`` to agents; ``key_agents`` holds
    the agents a key with processor overrides uses instead (``(key name, agent)``);
    ``codecs`` are the client APIs served (``default_codecs()``).
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
        upstream_error_messages: bool = False,
        metrics_key: str | None = None,
        write_timeout: float = DEFAULT_WRITE_TIMEOUT,
        codecs: Sequence[Codec] | None = None,
    ) -> None:
        self.agents = dict(agents)
        self.keys = keys or Keys([])
        self.key_agents = dict(key_agents or {})
        self.max_body_bytes = max_body_bytes
        self.max_concurrent = max_concurrent
        self.shutdown_timeout = shutdown_timeout
        #: seconds a stream's client may leave a write waiting (it stopped reading)
        #: before the gateway drops it, cancelling its run and freeing its key's slot
        self.write_timeout = write_timeout
        #: a failed model call's error tells the client the upstream's own message,
        #: which may quote the agent's instructions (docs/serve.md#errors)
        self.upstream_error_messages = upstream_error_messages
        #: the SHA-256 of the key ``/metrics`` asks for (None: it is open)
        self.metrics_digest = digest(metrics_key) if metrics_key is not None else None
        #: the client APIs served; the first one's error shape answers paths of none
        self.codecs = list(default_codecs() if codecs is None else codecs)
        self.metrics = Metrics()
        self.draining = False
        #: requests in flight per key (shared by the workers of ``--workers N``)
        self.slots = KeySlots()
        #: the other workers' Unix sockets (``/metrics`` reports their counts too), and
        #: this one's number (``/healthz`` says which worker answered); None: one worker
        self.peers: list[str] = []
        self.worker: int | None = None
        #: requests being served, whatever the path (a drain waits for them)
        self._active = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.created = int(time.time())

    # -- building

    @classmethod
    def from_config(cls, config: Config, *, keys_file: str | None = None) -> Gateway:
        """The gateway of a loaded configuration: one agent per ``[agents.NAME]``, the
        keys and limits of ``[serve]``."""
        serve = serve_table(config)
        keys = load_keys(serve, config.path, keys_file)
        agents, key_agents = build_agents(config, keys)
        return cls(agents, keys, key_agents=key_agents,
                   max_body_bytes=serve.get("max_body_bytes", DEFAULT_MAX_BODY_BYTES),
                   max_concurrent=serve.get("max_concurrent", DEFAULT_MAX_CONCURRENT),
                   shutdown_timeout=serve.get("shutdown_timeout", DEFAULT_SHUTDOWN_TIMEOUT),
                   upstream_error_messages=serve.get("upstream_error_messages", False),
                   metrics_key=serve.get("metrics_key"),
                   write_timeout=serve.get("write_timeout", DEFAULT_WRITE_TIMEOUT))

    def app(self) -> web.Application:
        """The aiohttp application (the body limit is enforced here, see ``read``):
        each codec's endpoint that runs an agent and its other endpoints, then
        ``/v1/models``, ``/healthz`` and ``/metrics``."""
        app = web.Application(client_max_size=self.max_body_bytes,
                              middlewares=[self._middleware])
        for codec in self.codecs:
            app.router.add_post(codec.path, self.endpoint(codec, self._run))
            for method, path, handler in codec.routes(self):
                app.router.add_route(method, path, self.endpoint(codec, handler))
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
        if self._idle.is_set():
            return True
        try:
            await asyncio.wait_for(self._idle.wait(), self.shutdown_timeout if timeout is None
                                   else timeout)
        except TimeoutError:
            return False
        return True

    def codec_for(self, path: str) -> Codec | None:
        """The codec whose API ``path`` is (None: no API's, such as ``/metrics``)."""
        for codec in self.codecs:
            if codec.owns(path):
                return codec
        return None

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Route) -> web.StreamResponse:
        """Every request: refused while draining, counted in flight, its access-log line
        written (and, for a request an API's endpoint takes, counted in the metrics)
        once it is done. Errors are in the shape of the API the path is one of (the
        first codec's for other paths)."""
        started = time.perf_counter()
        record = AccessRecord(round(time.time(), 3), request.method, request.path)
        _RECORD.set(record)
        STARTED.set(None)
        codec = self.codec_for(request.path)
        api = codec is not None and request.match_info.http_exception is None
        if codec is None:
            codec = self.codecs[0]
        elif api:
            record.api = codec.api
        try:
            try:
                response = await self._admit(request, handler, codec, api)
            except Exception as e:  # anything: the client gets the API's 500
                response = _unexpected(request, codec, e)
                if isinstance(e, ConnectionResetError):
                    record.status = 499
                else:
                    record.unexpected = type(e).__name__
            if record.status is None:
                record.status = response.status
            return response
        except asyncio.CancelledError:
            record.status = 499  # the client went away
            raise
        finally:
            record.latency_ms = round((time.perf_counter() - started) * 1000, 3)
            if record.status is None:
                record.status = 500
            if api:
                self.metrics.observe(record)
            log_access(record)

    async def _admit(self, request: web.Request, handler: Route, codec: Codec,
                     api: bool) -> web.StreamResponse:
        """Serve the request unless the gateway drains; ``api``: a request of an API's
        endpoint, which the ``in_flight`` gauge counts (a scrape of ``/metrics`` is not
        one)."""
        if self.draining:
            return codec.error(503, "The gateway is shutting down; retry on another instance.",
                               "service_unavailable", "shutting_down")
        self._active += 1
        self.metrics.in_flight += api
        self._idle.clear()
        try:
            return await handler(request)
        except web.HTTPException as e:  # no such route or method: the API's error too
            if e.status < 400:
                raise
            return _http_error(request, codec, e)
        finally:
            self._active -= 1
            self.metrics.in_flight -= api
            if not self._active:
                self._idle.set()

    # -- small endpoints

    async def models(self, request: web.Request) -> web.Response:
        key, failure = self._authenticate(self.codecs[0], request)
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
        """The metrics of every worker; with ``metrics_key``, only for a request that
        presents it (compared in constant time, as API keys are: an API key is not it)."""
        if self.metrics_digest is not None:
            presented = bearer(request)
            if presented is None:
                return _missing_key(self.codecs[0])
            if not hmac.compare_digest(digest(presented), self.metrics_digest):
                return _wrong_key(self.codecs[0])
        metrics = await gather_metrics(self.metrics, self.peers) if self.peers else self.metrics
        return web.Response(text=metrics.render(),
                            content_type="text/plain", charset="utf-8",
                            headers={"X-Content-Type-Options": "nosniff"})

    # -- the request path

    def _authenticate(self, codec: Codec, request: web.Request
                      ) -> tuple[ApiKey | None, web.Response | None]:
        if not self.keys.required:
            return None, None
        presented = codec.presented_key(request)
        if presented is None:
            return None, _missing_key(codec)
        key = self.keys.lookup(presented)
        if key is None:
            return None, _wrong_key(codec)
        record = _RECORD.get()
        record.key, record.tenant = key.name, key.tenant
        return key, None

    def endpoint(self, codec: Codec, handler: Handler) -> Route:
        """The aiohttp handler of one of ``codec``'s endpoints: the request's key is
        checked (the codec says where its API carries it) and holds one of the key's
        slots while ``handler`` answers the request's ``Exchange``."""
        async def serve(request: web.Request) -> web.StreamResponse:
            key, failure = self._authenticate(codec, request)
            if failure is not None:
                return failure
            exchange = Exchange(request, codec, _RECORD.get(), key)
            if key is None:
                return await handler(exchange)
            limit = key.max_concurrent or self.max_concurrent
            if not self.slots.acquire(key.name, limit):
                return codec.error(429, f"Too many concurrent requests for this key (limit "
                                   f"{limit}).", "rate_limit_error", "concurrency_limit")
            try:
                return await handler(exchange)
            finally:
                self.slots.release(key.name)

        return serve

    async def read(self, exchange: Exchange) -> web.Response | None:
        """Read the request's JSON body into ``exchange.body``; the error response for
        a body too large, not JSON or not Unicode text (None: it was read)."""
        request, codec = exchange.request, exchange.codec
        if request.content_length is not None and request.content_length > self.max_body_bytes:
            return _too_large(codec, self.max_body_bytes)
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _too_large(codec, self.max_body_bytes)
        try:
            body = load_json(raw, constants=False, strict=True)
        except ValueError as e:
            return codec.error(400, f"The request body is not valid JSON: {e}",
                               "invalid_request_error")
        try:
            check_unicode(body, raw)
        except BadRequest as e:
            return codec.error(400, str(e), "invalid_request_error", None, e.param)
        exchange.body = body
        return None

    def pick_agent(self, exchange: Exchange, name: str) -> web.Response | None:
        """The agent ``name`` for the request's key into ``exchange.agent`` (the key's
        own copy when it changes the agent's processors); the 404 for no such agent or
        the 403 for one the key may not use (None: it is picked)."""
        codec, key = exchange.codec, exchange.key
        agent = self.agents.get(name)
        if agent is None:  # not logged or counted by name: clients choose any text here
            return codec.error(404, f"The model {name!r} does not exist (agents: "
                               f"{', '.join(self._visible(key))}).", "invalid_request_error",
                               "model_not_found", "model")
        exchange.record.agent = name
        if key is not None:
            if not key.may_use(name):
                return codec.error(403, f"This key may not use the model {name!r}.",
                                   "permission_error", "model_not_allowed", "model")
            agent = self.key_agents.get((key.name, name), agent)
        exchange.agent = agent
        return None

    async def _run(self, exchange: Exchange) -> web.StreamResponse:
        """The request path of every API: the body, the codec's agent call, the agent,
        the codec's ``before``, the run, its answer in the codec's renderer (and the
        codec's ``after``)."""
        codec, record = exchange.codec, exchange.record
        failure = await self.read(exchange)
        if failure is not None:
            return failure
        try:
            call = exchange.call = codec.parse(exchange)
        except BadRequest as e:
            return codec.error(400, str(e), "invalid_request_error", None, e.param)
        record.stream = call.stream
        failure = self.pick_agent(exchange, call.agent)
        if failure is not None:
            return failure
        agent = exchange.agent
        assert agent is not None
        try:
            answer = await codec.before(exchange)
        except BadRequest as e:
            return codec.error(400, str(e), "invalid_request_error", None, e.param)
        if answer is not None:
            return answer
        exchange.client_tools = frozenset(t["name"] for t in call.client_tools) - set(agent.tools)
        failure = _check_tool_choice(codec, call, agent)
        if failure is not None:
            return failure
        key = exchange.key
        context = exchange.context
        if key is not None:
            context[RESOURCE_ID_KEY] = key.tenant
        if exchange.thread is not None:  # each tenant's own namespace of thread ids
            context[THREAD_ID_KEY] = store_thread_id(exchange.tenant, exchange.thread)
        options = call.options(getattr(agent.model, "provider", None), agent.provider_options)
        if key is not None:
            options["caller_system"] = key.caller_system
        try:
            run = agent.stream(call.messages, request_context=context, **options)
        except (ConfigurationError, TypeError) as e:
            return codec.error(400, str(e), "invalid_request_error")
        try:
            renderer = codec.renderer(exchange, run)
            shown = self.upstream_error_messages
            if call.stream:
                return await stream(exchange, run, renderer, write_timeout=self.write_timeout,
                                    upstream_messages=shown)
            return await complete(exchange, run, renderer, upstream_messages=shown)
        finally:
            await run.aclose()

    def _visible(self, key: ApiKey | None) -> list[str]:
        return [n for n in self.agents if key is None or key.may_use(n)]

def _unexpected(request: web.Request, codec: Codec, error: Exception) -> web.StreamResponse:
    """The answer to an exception no handler caught (a bug, the workers' shared key
    counters locked too long): the API's 500, saying nothing of the error (the
    gateway's log has it, with its traceback). A response already begun cannot be
    followed by another: its connection is closed (a stream's own failures end it with
    an error event first, see ``stream``). A client that went away
    (``ConnectionResetError``) is no failure of the gateway's: not logged."""
    if not isinstance(error, ConnectionResetError):
        log.error("%s %s failed: %s", request.method, request.path, type(error).__name__,
                  exc_info=error)
    started = STARTED.get()
    if started is None:
        return codec.error(500, INTERNAL_ERROR, "server_error")
    if request.transport is not None:
        request.transport.close()  # what was written is sent first
    return started


def _missing_key(codec: Codec) -> web.Response:
    return codec.error(401, f"You didn't provide an API key. Send it as '{codec.key_help}'.",
                       "invalid_request_error", "missing_api_key")


def _wrong_key(codec: Codec) -> web.Response:
    return codec.error(401, "Incorrect API key provided.", "invalid_request_error",
                       "invalid_api_key")


def _too_large(codec: Codec, limit: int) -> web.Response:
    return codec.error(413, f"The request body is larger than {limit} bytes.",
                       "invalid_request_error", "request_too_large")


def _check_tool_choice(codec: Codec, call: AgentCall, agent: Agent) -> web.Response | None:
    choice = call.tool_choice
    if isinstance(choice, dict):
        names = {t["name"] for t in call.client_tools} | set(agent.tools)
        if choice["tool_name"] not in names:
            return codec.error(
                400, f"tool_choice names the function {choice['tool_name']!r}, which is not "
                f"among the tools ({', '.join(sorted(names)) or 'none'}).",
                "invalid_request_error", None, "tool_choice")
    return None


def _http_error(request: web.Request, codec: Codec, e: web.HTTPException) -> web.Response:
    """aiohttp's own error (an unknown path, a method the path does not take) in the
    API's format, as the API answers one."""
    if isinstance(e, web.HTTPMethodNotAllowed):
        allowed = ", ".join(sorted(e.allowed_methods))
        response = codec.error(405, f"Method {request.method} is not allowed for "
                                    f"{request.path} (allowed: {allowed}).",
                               "invalid_request_error")
        response.headers["Allow"] = allowed
        return response
    if isinstance(e, web.HTTPNotFound):
        return codec.error(404, f"Invalid URL ({request.method} {request.path}); this "
                                f"gateway serves {_served(request)}.", "invalid_request_error")
    return codec.error(e.status, e.reason, "invalid_request_error")


def _served(request: web.Request) -> str:
    """The endpoints of the request's application, as a 404 lists them."""
    routes = [f"{route.method} {route.resource.canonical}" for route in request.app.router.routes()
              if route.resource is not None and route.method != "HEAD"]
    return ", ".join(routes[:-1]) + " and " + routes[-1]
