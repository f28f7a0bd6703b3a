"""Shared fixtures, for every folder of the suite. Keep them generic: several test
modules use them.

tripwire's own pytest plugin (``tripwire.pytest_plugin``) is loaded here as in any
project, so its public fixtures ``make_agent`` and ``fake_plugins`` are available too;
the fixtures below build on them where they can.

``make_bare_agent``      an Agent around a MockModel, with only the processors listed
``only_plugins``         only these installed processors are discoverable
``fake_distributions``   the installed distributions replaced by fakes
``llm_server``           a local OpenAI / Anthropic server (tests/support/fake_llm_server.py)
``cli``                  tripwire's command line, run in-process
``no_gc``                the cyclic garbage collector off for the test
``redis_server``         a real redis-server on loopback (tests/support/redis_server.py)
``store``, ``make_store``  a memory store of every kind, one test per kind
                         (tests/support/memory_stores.py)
``postgres_server``, ``postgres_url``  a PostgreSQL server for the session, a fresh
                         database per test (tests/support/postgres_server.py)

Every test must leave tripwire's loggers as it found them (an autouse check): a handler
left behind, or propagation turned off, hides later tests' log records from ``caplog``.

Plain helpers shared by several modules (processors, what the model saw) are in
``tests/support/helpers.py``; everything in ``tests/support`` is imported as
``from tests.support.<module> import ...``, in tests and bench scripts alike.
"""

from __future__ import annotations

import gc
import importlib.metadata
import logging
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import settings

from tripwire import registry

# Hypothesis: no deadline (a property's examples are judged by what they find, not by
# how fast a shared, loaded machine runs them: a deadline made the suite flaky), and
# under CI each property draws the same examples every run (derandomize), so a run's
# outcome depends on the code alone; known failing cases are explicit @examples.
settings.register_profile("tripwire", deadline=None)
settings.register_profile("tripwire-ci", deadline=None, derandomize=True, database=None)
settings.load_profile("tripwire-ci" if os.environ.get("CI") else "tripwire")


def _tripwire_loggers() -> dict[str, tuple[Any, ...]]:
    return {name: (tuple(logger.handlers), logger.level, logger.propagate, logger.disabled)
            for name, logger in logging.Logger.manager.loggerDict.items()
            if name.split(".")[0] == "tripwire" and isinstance(logger, logging.Logger)}


@pytest.fixture(autouse=True)
def _loggers_left_as_found() -> Iterator[None]:
    """Fails the test that leaves a tripwire logger changed (a handler, its level, its
    propagation): CI once lost nine tests' log records to one that did."""
    before = _tripwire_loggers()
    yield
    after = _tripwire_loggers()
    changed = sorted(name for name in before.keys() & after.keys() if before[name] != after[name])
    added = sorted(name for name in after.keys() - before.keys()
                   if after[name][0] or not after[name][2] or after[name][1])
    assert not changed and not added, f"loggers left changed by the test: {changed + added}"


class FakeEntryPoint(importlib.metadata.EntryPoint):
    """A real ``EntryPoint`` whose ``load()`` returns ``target`` (or raises it, when it
    is an exception) instead of importing ``value``."""

    def __init__(self, name: str, group: str, target: Any, value: str | None, dist: Any) -> None:
        value = value or f"fake_module:{getattr(target, '__name__', name)}"
        super().__init__(name=name, value=value, group=group)
        vars(self).update(target=target, dist=dist)

    def load(self) -> Any:
        vars(self)["loads"] = self.loads + 1
        if isinstance(self.target, BaseException):
            raise self.target
        return self.target

    @property
    def loads(self) -> int:
        """How many times ``load()`` was called (imported, for a real entry point)."""
        return vars(self).get("loads", 0)


class FakeDistribution:
    """Quacks like ``importlib.metadata.Distribution`` (name, version, entry_points)."""

    def __init__(self, name: str, version: str) -> None:
        self.name = name
        self.version = version
        self.metadata = {"Name": name}
        self.entry_points: list[FakeEntryPoint] = []

    @property
    def _normalized_name(self) -> str:  # used by importlib.metadata.entry_points()
        return re.sub(r"[-_.]+", "_", self.name).lower()

    def entry_point(
        self,
        name: str,
        target: Any,
        *,
        group: str = "tripwire.processors",
        value: str | None = None,
    ) -> FakeDistribution:
        self.entry_points.append(FakeEntryPoint(name, group, target, value, self))
        return self


class FakeDistributions:
    """The distributions the process sees, replaced by fakes (pluggy's
    ``test_load_setuptools_instantiation`` style). ``calls`` counts scans."""

    def __init__(self) -> None:
        self.dists: list[FakeDistribution] = []
        self.calls = 0

    def add(self, name: str, version: str = "1.0") -> FakeDistribution:
        dist = FakeDistribution(name, version)
        self.dists.append(dist)
        return dist

    def __call__(self, **_: Any) -> list[FakeDistribution]:
        self.calls += 1
        return list(self.dists)


@pytest.fixture
def make_bare_agent(make_agent: Callable[..., Any]) -> Callable[..., Any]:
    """The public ``make_agent`` fixture without the default error processors, so a
    run has exactly the processors the test lists.

    ``make_bare_agent(["reply"], output_processors=[Shout()])`` scripts a MockModel
    (``agent.model``); ``make_bare_agent(model=model, ...)`` uses the given model.
    """

    def make(responses: Any = (), /, **options: Any) -> Any:
        options.setdefault("default_error_processors", False)
        return make_agent(responses, **options)

    return make


@pytest.fixture
def no_gc() -> Iterator[None]:
    """The cyclic garbage collector off for the test: what must happen when the last
    reference goes (a stream left by ``break``) cannot lean on a collection."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.fixture
def only_plugins(fake_plugins: Any) -> Callable[..., None]:
    """``only_plugins("token-limiter", ...)``: of the installed processors only these
    are discoverable (``tripwire.plugins.available()``, ``create()``, TOML ``use``);
    TRIPWIRE_DISABLE_PLUGINS is cleared and discovery scans afresh. Undone after the
    test. Built on the public ``fake_plugins`` fixture (nothing faked, ``installed=``
    kept visible)."""

    def only(*names: str) -> None:
        fake_plugins({}, installed=names)

    return only


@pytest.fixture
def fake_distributions(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDistributions]:
    """Only fake distributions are installed; the plugin registry scans afresh.

    ``fake_distributions.add("tripwire-x", "1.2").entry_point("x", XProcessor)``
    registers a processor; ``group="tripwire.commands"`` / ``"tripwire.models"`` for
    CLI commands and model providers. Also clears TRIPWIRE_LOAD_PLUGINS and
    TRIPWIRE_DISABLE_PLUGINS, and restores everything afterwards.
    """
    fakes = FakeDistributions()
    monkeypatch.setattr(importlib.metadata, "distributions", fakes)
    monkeypatch.delenv("TRIPWIRE_LOAD_PLUGINS", raising=False)
    monkeypatch.delenv("TRIPWIRE_DISABLE_PLUGINS", raising=False)
    registry.reset()  # processors, model providers and commands alike
    yield fakes
    registry.reset()


@pytest.fixture
async def llm_server():
    """A running ``FakeLLMServer`` (tests/support/fake_llm_server.py): OpenAI and Anthropic
    wire formats on 127.0.0.1, scripted replies and fault injection."""
    from tests.support.fake_llm_server import FakeLLMServer

    async with FakeLLMServer() as server:
        yield server


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``code, out, err = cli("run", "support", "Hi")``: ``tripwire.cli.main`` run with
    those arguments, its exit code and what it wrote to stdout and stderr."""
    from tripwire.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real ``redis-server`` of this test's own, on a free loopback port
    (``tests/support/redis_server.py``; skipped without the binary, failed under ``CI``)."""
    from tests.support.redis_server import RedisServer

    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()
# the memory store fixtures (``store``, ``make_store``): one suite, every store kind,
# PostgreSQL included (``postgres_server``, ``postgres_url``)
from tests.support.memory_stores import make_store, store  # noqa: E402, F401
from tests.support.postgres_server import postgres_server, postgres_url  # noqa: E402, F401
