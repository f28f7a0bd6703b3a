"""The seam between the gateway's one request path and the client APIs it speaks.

Each client API (OpenAI's chat completions, OpenAI's Responses, Anthropic's Messages)
is a ``Codec``: it reads its request body as an ``AgentCall`` (the messages, the
client's tools, settings, the stream flag), renders the run's chunks as its events or
its response body (a ``Renderer``), and writes errors in its API's shape. Everything
else is the path's, written once in ``tripwire.serve._app``: keys (the codec only says
where its API carries one), per-key slots, draining, the body limit and JSON checks,
the agent's lookup and permissions, the run with its processors, memory, budgets and
caches, the access log and the metrics (labelled with ``Codec.api``).

A codec takes part before and after the run where its API needs it, through the same
two steps for every API (no branch per API in the path): ``before`` runs once the
agent is known (the chat codec names the ``X-Tripwire-Thread`` memory thread there;
the Responses codec loads ``previous_response_id``); ``after`` runs once the run
ended, before the answer's last bytes leave (the Responses codec stores the response
there, so a client that reads ``response.completed`` can continue from it at once; and
undoes what ``before`` prepared for a run that ended before its answer began).
An API's other endpoints (``GET /v1/responses/{id}``, ``POST
/v1/messages/count_tokens``) are the codec's ``routes``, served behind the same keys,
slots, access log and metrics by ``Gateway.endpoint``.

The path speaks of errors in OpenAI's vocabulary (``invalid_request_error``,
``permission_error``, ``rate_limit_error``, ``service_unavailable``, ``server_error``,
``upstream_error``, ``tripwire`` with the processor id as code); ``Codec.error`` and
``Renderer.failed`` write them in the codec's API's shape.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import attrs
from aiohttp import web

from tripwire.context import RequestContext
from tripwire.messages import Message
from tripwire.serve._metrics import AccessRecord
from tripwire.serve._response import error_body, utf8

if TYPE_CHECKING:
    from tripwire.agent import Agent, AgentStream
    from tripwire.chunks import Chunk, Usage
    from tripwire.processor import TripwireInfo
    from tripwire.results import GenerateResult
    from tripwire.serve._app import Gateway
    from tripwire.serve._keys import ApiKey

__all__ = ["AgentCall", "BadRequest", "Codec", "Exchange", "Handler", "Renderer", "bearer",
           "openai_error"]

#: An endpoint of a codec's: it gets the request's ``Exchange`` (its key already
#: checked and a slot of the key's taken) and answers it.
Handler = Callable[["Exchange"], Awaitable[web.StreamResponse]]


class BadRequest(ValueError):
    """The request is not one the API takes; ``param`` names the field (OpenAI's
    ``error.param``). The path answers it with a 400 (``Codec.error``)."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


@attrs.define
class AgentCall:
    """What one request asks of an agent, whatever the API it came in: the agent's
    name, the messages (tripwire ``Message`` objects), the stream flag, and the
    ``stream()`` options (``options``). A codec whose API says more subclasses it."""

    agent: str
    messages: list[Message]
    stream: bool = False
    #: the tools the client runs (``client_tools`` entries: their calls are returned
    #: to it, not run)
    client_tools: list[dict[str, Any]] = attrs.field(factory=list)
    tool_choice: Any = None
    model_settings: dict[str, Any] = attrs.field(factory=dict)
    #: fields for the upstream's request body (``provider_options`` of the agent's
    #: model's provider)
    upstream_fields: dict[str, Any] = attrs.field(factory=dict)

    def options(self, provider: str | None = None,
                provider_options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The ``agent.stream()`` options of this request (request context aside), for
        an agent whose model's ``provider`` gets the upstream fields over the agent's
        own ``provider_options``. The client's system and developer messages, the
        texts of its tools and of its upstream fields and settings are input, checked
        by the agent's input processors like the rest of what it sends
        (``caller_system="input"``)."""
        options: dict[str, Any] = {"caller_system": "input"}
        if self.upstream_fields and provider is not None:
            own = (provider_options or {}).get(provider)
            options["provider_options"] = {
                provider: {**own, **self.upstream_fields} if isinstance(own, Mapping)
                else self.upstream_fields}
        if self.client_tools:
            options["client_tools"] = self.client_tools
        if self.tool_choice is not None:
            options["tool_choice"] = self.tool_choice
        if self.model_settings:
            options["model_settings"] = self.model_settings
        return options


@attrs.define
class Exchange:
    """One request of a codec's API on its way through the path: what the path
    learnt (written by ``tripwire.serve._app``) and the memory thread a codec's
    ``before`` names."""

    request: web.Request
    codec: Codec
    record: AccessRecord
    #: the request's API key (None: the gateway takes requests without keys)
    key: ApiKey | None = None
    #: the decoded JSON body, and what it asks of an agent (``Codec.parse``)
    body: Any = None
    call: AgentCall | None = None
    #: the agent (the key's own copy when the key changes its processors)
    agent: Agent | None = None
    #: the run's request context: the key's tenant as ``RESOURCE_ID_KEY``; the path
    #: adds the memory thread
    context: RequestContext = attrs.field(factory=RequestContext)
    #: the memory thread of the request as the client named it (``before`` sets it;
    #: the path stores it in the tenant's namespace, ``_thread.store_thread_id``)
    thread: str | None = None
    #: the names of the client's tools whose calls go back to it (the agent runs its
    #: own tools of the same name)
    client_tools: frozenset[str] = frozenset()

    @property
    def tenant(self) -> str | None:
        """The key's tenant (None without keys)."""
        return None if self.key is None else self.key.tenant


class Renderer(Protocol):
    """One answer in a codec's API, built from the run's chunks: streamed
    (``start``, ``event`` per chunk, then one of ``finish``, ``tripped``, ``failed``)
    or whole (``collect`` per chunk, then ``body``). ``event`` runs once per chunk on
    the gateway's latency-critical path."""

    def start(self) -> bytes:
        """The stream's first bytes, sent with its first event."""

    def event(self, chunk: Chunk) -> bytes | None:
        """The event(s) for one chunk that passed the output processors, or None when
        the client is not told about it."""

    def finish(self, finish_reason: str, usage: Usage) -> bytes:
        """The stream's last bytes when the run finished (tripwire's finish reason)."""

    def tripped(self, info: TripwireInfo, usage: Usage) -> bytes:
        """The stream's last bytes when a processor stopped the run after it began:
        they name the processor and hold nothing of the blocked text."""

    def failed(self, status: int, message: str, type: str, code: Any) -> bytes:
        """The stream's last bytes when the run failed after it began (the status,
        message, type and code of the error, as for ``Codec.error``)."""

    def collect(self, chunk: Chunk) -> None:
        """Keep what a whole (not streamed) answer reports from a chunk."""

    def body(self, result: GenerateResult) -> bytes:
        """The whole answer's JSON body."""


def openai_error(status: int, message: str, type: str, code: Any = None,
                 param: str | None = None) -> web.Response:
    """An HTTP error in OpenAI's format: ``{"error": {message, type, param, code}}``."""
    return web.Response(status=status, body=utf8(error_body(message, type, code, param)),
                        content_type="application/json", charset="utf-8")


def bearer(request: web.Request) -> str | None:
    """The key of the request's ``Authorization: Bearer KEY`` header (None: none)."""
    scheme, _, presented = request.headers.get("Authorization", "").partition(" ")
    presented = presented.strip()
    return presented if scheme.lower() == "bearer" and presented else None


class Codec:
    """A client API over the gateway's request path (the module's docstring). A codec
    is made once per gateway; its methods get the request's ``Exchange``.

    Subclasses set ``api`` and ``path`` and write ``parse`` and ``renderer``; the
    other steps have the defaults of OpenAI's APIs."""

    #: the API's name: the access log's and the metrics' ``api`` label
    api: ClassVar[str]
    #: the endpoint that runs an agent (``POST``); paths under it are the API's too
    #: (their errors are in its shape, their requests counted with its label)
    path: ClassVar[str]
    #: how a client of the API sends its key (what a 401 for a missing key says)
    key_help: ClassVar[str] = "Authorization: Bearer KEY"

    def presented_key(self, request: web.Request) -> str | None:
        """The API key the request presents (None: none): a bearer key."""
        return bearer(request)

    def error(self, status: int, message: str, type: str, code: Any = None,
              param: str | None = None) -> web.Response:
        """An HTTP error in the API's shape (``type`` and ``code`` in OpenAI's
        vocabulary, see the module's docstring): OpenAI's error object."""
        return openai_error(status, message, type, code, param)

    def parse(self, exchange: Exchange) -> AgentCall:
        """The agent call of the request's decoded JSON body (``exchange.body``; its
        headers are ``exchange.request``'s); ``BadRequest`` (a 400 naming the field)
        for anything the API's request cannot hold or this gateway does not take. It
        may name the memory thread (``exchange.thread``) the request's headers or body
        name."""
        raise NotImplementedError

    async def before(self, exchange: Exchange) -> web.StreamResponse | None:
        """Once the agent is known (``exchange.agent``, ``exchange.call``), before the
        run: set ``exchange.thread`` or change the call; a response to answer with
        instead of running (an error). ``BadRequest`` is a 400."""
        return None

    def renderer(self, exchange: Exchange, run: AgentStream) -> Renderer:
        """The answer of the run, in the API's shape."""
        raise NotImplementedError

    async def after(self, exchange: Exchange, renderer: Renderer) -> None:
        """The run ended, once per run whatever its end: its answer is written (a whole
        body built, or a stream's last event about to leave) and the renderer holds it,
        or the run ended before its answer began (a tripwire or a failure answered with
        an error response; the renderer rendered nothing). Keep what the API keeps of
        it, or undo what ``before`` prepared."""

    def routes(self, gateway: Gateway) -> list[tuple[str, str, Handler]]:
        """The API's other endpoints, as ``(method, path, handler)``: served by the
        gateway behind its keys, slots, access log and metrics (``Gateway.endpoint``)."""
        return []

    def owns(self, path: str) -> bool:
        """Whether ``path`` is one of the API's (``path`` or under it)."""
        own = self.path
        return path == own or path.startswith(own) and path[len(own)] == "/"
