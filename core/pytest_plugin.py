"""pytest fixtures for testing tripwire processors in your own project.

Registered through the ``pytest11`` entry point ``tripwire = tripwire.pytest_plugin``,
so pytest loads it wherever tripwire is installed. It only defines fixtures (no
autouse fixtures, hooks, options or configuration changes): loading it imports the
``tripwire`` package and nothing runs until a test asks for a fixture. ``-p no:tripwire``
turns it off.

``make_agent(responses, **agent_options)``
    builds an ``Agent`` around a ``tripwire.testing.MockModel`` scripted with
    ``responses``; ``agent.model.requests`` records what the model was sent.
``fake_plugins({"name": ProcessorClass}, distribution=..., version=..., installed=())``
    makes processors discoverable by entry point name (``tripwire.plugins.available()``,
    ``create()``, TOML ``use = "name"``) without installing anything, with every other
    installed plugin hidden; undone after the test.

Both fixtures are synchronous, so they work whatever pytest-asyncio mode the project
uses; the tests that ``await agent.generate(...)`` need pytest-asyncio with
``asyncio_mode = "auto"`` or ``@pytest.mark.asyncio``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tripwire.agent import Agent
    from tripwire.testing import FakePlugins


@pytest.fixture
def make_agent() -> Callable[..., Agent]:
    """Build an ``Agent`` around a scripted ``MockModel``.

    ``make_agent(["reply one", "reply two"], input_processors=[MyFilter()])``;
    responses are ``MockResponse`` objects, mappings of their fields or plain strings,
    options are the ``Agent`` constructor's (``id`` defaults to ``"test-agent"``).
    ``agent.model`` is the ``MockModel``: ``agent.model.requests[0].prompt`` is what
    the model was sent.
    """
    from tripwire.testing import mock_agent

    return mock_agent


@pytest.fixture
def fake_plugins() -> Iterator[FakePlugins]:
    """Register processor classes under entry point names without installing them.

    ``fake_plugins({"my-filter": MyFilter}, distribution="tripwire-my-filter")``; then
    ``tripwire.plugins.available()["my-filter"]`` and ``create("my-filter", **options)``
    work as they will once your package is installed. Only the faked processors (and the
    names in ``installed=[...]``) are visible; everything is restored after the test.
    """
    from tripwire.testing import FakePlugins

    with FakePlugins() as fakes:
        yield fakes
