"""Test helpers for users of tripwire: a scripted model, agents around it, and fake
plugin distributions.

These are product features: use them in your own processor package's tests.

* ``MockModel`` runs an agent, with all its processors, without a provider or an API key.
* ``mock_agent(responses, **options)`` builds an ``Agent`` around a ``MockModel``.
* ``FakePlugins`` makes processor classes discoverable by entry point name
  (``tripwire.plugins.available()`` / ``create()``, TOML ``use = "name"``) without
  installing a distribution.

With pytest, the fixtures ``make_agent`` and ``fake_plugins`` (``tripwire.pytest_plugin``,
loaded automatically when tripwire is installed) hand you the last two.
"""

from __future__ import annotations

import asyncio
import collections
import importlib.metadata
import os
import re
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from tripwire.chunks import Chunk, ToolCall, Usage
from tripwire.errors import APICallError
from tripwire.messages import new_id
from tripwire.models import ModelRequest

if TYPE_CHECKING:
    from tripwire.agent import Agent

__all__ = [
    "FakeDistribution",
    "FakePlugins",
    "MockModel",
    "MockModelExhausted",
    "MockResponse",
    "mock_agent",
]


class MockModelExhausted(AssertionError, APICallError):
    """The mock model was called more times than it has responses: an assertion of a
    test, and a failed model call (not retryable) to a run, an error processor or
    ``tripwire serve``, like any model's."""

    def __init__(self, message: str) -> None:
        APICallError.__init__(self, message, is_retryable=False)


@attrs.define
class MockResponse:
    """One scripted model response.

    ``text`` streams as several ``text-delta`` chunks (one per word); ``tool_calls``
    are mappings ``{"tool_name", "args", "tool_call_id"}`` or ``ToolCall`` objects;
    ``finish_reason`` defaults to ``"tool-calls"`` when there are tool calls, else
    ``"stop"``; ``error`` is raised instead of streaming; ``chunks`` gives the exact
    chunk sequence (a ``finish`` chunk is added if it has none).
    """

    text: str = ""
    tool_calls: list[Any] = attrs.field(factory=list)
    reasoning: str | None = None
    finish_reason: str | None = None
    usage: Any = None
    error: BaseException | None = None
    chunks: list[Any] | None = None

    @classmethod
    def coerce(cls, value: MockResponse | Mapping[str, Any] | str) -> MockResponse:
        if isinstance(value, MockResponse):
            return value
        if isinstance(value, str):
            return cls(text=value)
        if isinstance(value, Mapping):
            known = {a.name for a in attrs.fields(cls)}
            unknown = set(value) - known
            if unknown:
                raise ValueError(
                    f"unknown MockResponse key(s) {sorted(unknown)}; valid: {sorted(known)}"
                )
            return cls(**value)
        raise TypeError(
            f"a mock response must be a MockResponse, a mapping or a str, got {type(value).__name__}"
        )


def _split_words(text: str) -> list[str]:
    return re.findall(r"\S+\s*|\s+", text) or ([text] if text else [])


def _count_words(prompt: list[dict[str, Any]]) -> int:
    n = 0
    for message in prompt:
        content = message.get("content")
        if isinstance(content, str):
            n += len(content.split())
        elif isinstance(content, list):
            for part in content:
                if isinstance(part.get("text"), str):
                    n += len(part["text"].split())
    return n


#: The most runs a ``per_run`` MockModel keeps its place in.
MAX_RUNS = 10_000


class MockModel:
    """A scripted model: each call streams the next ``MockResponse``.

    ``requests`` records every ``ModelRequest`` received (``.prompt``, ``.tools``,
    ``.tool_choice``, ``.model_settings``, ...), so tests can assert what the model
    saw. Usage, unless scripted, counts words: prompt words in, text words out.
    ``chunk_delay`` (seconds) slows the stream, to test cancellation.
    ``closed_early`` counts streams closed before they finished (cancellation).

    ``per_run``: each run (``ModelRequest.run_id``) starts the script again from its
    first response, so the model answers any number of runs, one after the other or at
    the same time (what a model served by ``tripwire serve`` needs); calls outside a
    run (a judge's) share one script. Without it, the script runs once, over every call.
    """

    provider = "mock"

    def __init__(
        self,
        responses: Iterable[MockResponse | Mapping[str, Any] | str] = (),
        *,
        model_id: str = "mock-model",
        chunk_delay: float = 0.0,
        per_run: bool = False,
    ) -> None:
        if not isinstance(per_run, bool):
            raise TypeError(f"per_run must be a boolean, got {per_run!r}")
        self.model_id = model_id
        self.responses = [MockResponse.coerce(r) for r in responses]
        self.requests: list[ModelRequest] = []
        self.chunk_delay = chunk_delay
        self.per_run = per_run
        self.closed_early = 0
        self._next = 0
        #: per_run: the next response of each run, the most recent runs only
        self._runs: collections.OrderedDict[str, int] = collections.OrderedDict()

    def __repr__(self) -> str:
        return f"MockModel({len(self.responses)} responses, {len(self.requests)} calls)"

    def add_responses(self, *responses: MockResponse | Mapping[str, Any] | str) -> None:
        self.responses.extend(MockResponse.coerce(r) for r in responses)

    def _take(self, request: ModelRequest) -> MockResponse:
        """The response this call gets (``MockModelExhausted`` past the script's end)."""
        run = request.run_id if self.per_run else None
        if run is None:
            position = self._next
            self._next += 1
            calls = f"called {len(self.requests)} times"
        else:
            position = self._runs.pop(run, 0)
            self._runs[run] = position + 1
            while len(self._runs) > MAX_RUNS:  # runs long over, whose ends no call says
                self._runs.popitem(last=False)
            calls = f"called {position + 1} times in run {run}"
        if position >= len(self.responses):
            raise MockModelExhausted(
                f"MockModel was {calls} but has only {len(self.responses)} response(s); add "
                f"more with add_responses()"
            )
        return self.responses[position]

    async def stream(self, request: ModelRequest) -> AsyncIterator[Chunk]:
        self.requests.append(request)
        response = self._take(request)
        if response.error is not None:
            raise response.error
        finished = False
        try:
            for chunk in self._chunks(response, request):
                if self.chunk_delay:
                    await asyncio.sleep(self.chunk_delay)
                yield chunk
            finished = True
        finally:
            if not finished:
                self.closed_early += 1

    def _chunks(self, response: MockResponse, request: ModelRequest) -> list[Chunk]:
        # (the chunks it makes carry the request's run id, so the run takes them as they
        # are; scripted Chunk objects are handed on as given)
        run_id = request.run_id
        if response.chunks is not None:
            chunks = [c if isinstance(c, Chunk) else _chunk_of(c) for c in response.chunks]
            if not any(c.type == "finish" for c in chunks):
                chunks.append(
                    Chunk("finish", {"finish_reason": response.finish_reason or "stop",
                                     "usage": Usage.coerce(response.usage)}, run_id)
                )
            return chunks
        chunks = []
        if response.reasoning:
            rid = new_id()
            chunks.extend(
                Chunk("reasoning-delta", {"id": rid, "text": w}, run_id)
                for w in _split_words(response.reasoning)
            )
        tid = new_id()
        chunks.extend(Chunk("text-delta", {"id": tid, "text": w}, run_id)
                      for w in _split_words(response.text))
        calls = []
        for call in response.tool_calls:
            if isinstance(call, Mapping) and "tool_call_id" not in call:
                call = {**call, "tool_call_id": f"call_{new_id()[:8]}"}
            calls.append(ToolCall.coerce(call))
        chunks.extend(
            Chunk("tool-call", {"tool_call_id": c.tool_call_id, "tool_name": c.tool_name,
                                "args": c.args}, run_id)
            for c in calls
        )
        if response.usage is not None:
            usage = Usage.coerce(response.usage)
        else:
            out = len(response.text.split())
            inp = _count_words(request.prompt)
            usage = Usage(inp, out, inp + out)
        reason = response.finish_reason or ("tool-calls" if calls else "stop")
        chunks.append(Chunk("finish", {"finish_reason": reason, "usage": usage}, run_id))
        return chunks


def _chunk_of(value: Any) -> Chunk:
    if isinstance(value, Mapping) and "type" in value:
        from tripwire.messages.serde import chunk_from_dict

        if "payload" in value:
            return chunk_from_dict(dict(value))
        return chunk_from_dict({"type": value["type"],
                                "payload": {k: v for k, v in value.items() if k != "type"}})
    raise TypeError(f"a scripted chunk must be a Chunk or a mapping with 'type', got {value!r}")


# ----------------------------------------------------------------- agents


def mock_agent(
    responses: Iterable[MockResponse | Mapping[str, Any] | str] = (), /, **options: Any
) -> Agent:
    """An ``Agent`` whose model is a ``MockModel`` scripted with ``responses``.

    ``options`` are the ``Agent`` constructor's (``input_processors``,
    ``output_processors``, ``tools``, ``max_processor_retries``, ...); ``id`` defaults
    to ``"test-agent"``. ``agent.model`` is the ``MockModel``, so a test can assert
    what the model saw (``agent.model.requests[0].prompt``). Pass ``model=`` instead
    of ``responses`` to use a model of your own.

    Example::

        agent = mock_agent(["Hello there"], output_processors=[Shout()])
        result = await agent.generate("Hi")
        assert result.text == "HELLO THERE"
    """
    from tripwire.agent import Agent

    responses = list(responses)
    if "model" in options and responses:
        raise TypeError("mock_agent() takes responses or model=, not both")
    options.setdefault("id", "test-agent")
    if "model" not in options:
        options["model"] = MockModel(responses)
    return Agent(**options)


# ---------------------------------------------------- fake plugin distributions


_IMPORT = object()  # an entry point with no target object: load() imports its value


class _EntryPoint(importlib.metadata.EntryPoint):
    """An entry point of a ``FakeDistribution``: ``load()`` returns ``target`` when one
    was given, else imports ``value`` like a real entry point."""

    target: Any

    def __init__(self, name: str, value: str, group: str, target: Any, dist: Any) -> None:
        super().__init__(name=name, value=value, group=group)
        vars(self).update(target=target, dist=dist)

    def load(self) -> Any:
        if self.target is _IMPORT:
            return super().load()
        return self.target


class FakeDistribution(importlib.metadata.Distribution):
    """A distribution that exists only in this process: a name, a version and entry
    points, as ``importlib.metadata`` reports them for an installed package.

    ``entry_point(name, target, group=...)``: ``target`` is the object to load (a
    processor class) or an entry point string ``"module:Class"``, imported on load
    exactly as an installed package's would be.
    """

    def __init__(self, name: str, version: str = "0.0.0") -> None:
        self._metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        self._entry_points: list[_EntryPoint] = []

    def __repr__(self) -> str:
        return f"<FakeDistribution {self.name} {self.version}>"

    def read_text(self, filename: str) -> str | None:
        return self._metadata if filename in ("METADATA", "PKG-INFO") else None

    def locate_file(self, path: Any) -> Any:
        raise FileNotFoundError(f"{self.name} is a fake distribution: it has no files")

    @property
    def entry_points(self) -> importlib.metadata.EntryPoints:
        return importlib.metadata.EntryPoints(self._entry_points)

    def entry_point(self, name: str, target: Any, *, group: str) -> FakeDistribution:
        if isinstance(target, str):
            value, target = target, _IMPORT
        else:
            owner = getattr(target, "__module__", None) or "fake_module"
            value = f"{owner}:{getattr(target, '__qualname__', name)}"
        self._entry_points.append(_EntryPoint(name, value, group, target, self))
        return self


class FakePlugins:
    """Make plugins discoverable by name without installing a distribution.

    Each call ``fake_plugins({"name": ProcessorClass}, distribution=..., version=...)``
    adds a fake distribution registering those entry points (a value may also be an
    entry point string ``"package.module:Class"``, imported like the real one would
    be). From then on ``tripwire.plugins.available()``, ``create(name, **options)`` and
    TOML configurations (``{ use = "name" }``) see exactly the faked processors:
    ``TRIPWIRE_LOAD_PLUGINS`` is set to their names (plus ``installed``, names of
    really installed plugins to keep visible, such as tripwire's built-ins), so
    plugins installed on the machine do not leak into the test.
    ``TRIPWIRE_DISABLE_PLUGINS`` is cleared. An installed entry point with a faked name
    is replaced by the fake.

    ``close()`` (or leaving the ``with`` block) restores the environment and
    ``importlib.metadata.distributions`` and makes tripwire scan again on next use.
    The pytest fixture ``fake_plugins`` does that after the test.

    ``group`` is any entry point group tripwire reads (``tripwire.registry.GROUPS``):
    ``"tripwire.processors"`` (default), ``"tripwire.models"`` (model providers:
    ``{"acme": factory}`` makes ``"acme/some-model"`` resolve through
    ``factory("some-model")``) or ``"tripwire.commands"`` (CLI subcommand plugins).
    Providers registered with ``tripwire.models.register_provider`` stay registered.
    """

    def __init__(self) -> None:
        self.distributions: list[FakeDistribution] = []
        self._installed: set[str] = set()
        self._saved: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"FakePlugins({self.distributions!r})"

    def __call__(
        self,
        plugins: Mapping[str, Any],
        *,
        distribution: str = "fake-plugins",
        version: str = "0.0.0",
        group: str | None = None,
        installed: Iterable[str] = (),
    ) -> FakeDistribution:
        from tripwire import registry

        group = group or registry.PROCESSORS.name
        if group not in registry.GROUPS:
            raise ValueError(
                f"group must be one of {', '.join(map(repr, registry.GROUPS))}, got {group!r}"
            )
        if not isinstance(plugins, Mapping):
            raise TypeError(
                f"plugins must be a mapping {{name: class or 'module:Class'}}, got "
                f"{type(plugins).__name__}"
            )
        if isinstance(installed, str):
            installed = [installed]
        dist = FakeDistribution(distribution, version)
        for name, target in plugins.items():
            dist.entry_point(name, target, group=group)
        self._start()
        self.distributions.append(dist)
        self._installed.update(installed)
        os.environ[registry.LOAD_ENV] = ",".join(sorted(self._faked() | self._installed))
        os.environ.pop(registry.DISABLE_ENV, None)
        registry.reset(keep_registered=True)
        return dist

    def _faked(self) -> set[str]:
        """The faked names of the groups ``TRIPWIRE_LOAD_PLUGINS`` narrows."""
        from tripwire import registry

        return {
            ep.name for d in self.distributions for ep in d.entry_points
            if registry.GROUPS[ep.group].load_env
        }

    def _start(self) -> None:
        if self._saved is not None:
            return
        from tripwire import registry

        real = importlib.metadata.distributions
        self._saved = {
            "distributions": real,
            "env": {v: os.environ.get(v) for v in (registry.LOAD_ENV, registry.DISABLE_ENV)},
        }

        def distributions(**kwargs: Any) -> Iterable[Any]:
            shadowed = {(ep.group, ep.name) for d in self.distributions for ep in d.entry_points}
            found: list[Any] = list(self.distributions)
            for dist in real(**kwargs):
                eps = dist.entry_points
                if any((ep.group, ep.name) in shadowed for ep in eps):
                    found.append(_Shadowed(
                        dist, [ep for ep in eps if (ep.group, ep.name) not in shadowed]))
                else:
                    found.append(dist)
            return found

        importlib.metadata.distributions = distributions

    def close(self) -> None:
        """Restore what was faked; tripwire scans the real distributions on next use."""
        if self._saved is None:
            return
        from tripwire import registry

        importlib.metadata.distributions = self._saved["distributions"]
        for var, value in self._saved["env"].items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value
        self._saved = None
        self.distributions.clear()
        self._installed.clear()
        registry.reset(keep_registered=True)

    def __enter__(self) -> FakePlugins:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _Shadowed:
    """An installed distribution, minus the entry points a fake replaces."""

    def __init__(self, dist: Any, entry_points: list[Any]) -> None:
        self._dist = dist
        self.entry_points = importlib.metadata.EntryPoints(entry_points)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._dist, name)
