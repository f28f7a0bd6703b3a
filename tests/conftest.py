"""Shared fixtures. Keep them generic: several test modules use them."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from typing import Any

import pytest

from tripwire import _discovery


class FakeEntryPoint:
    """Quacks like ``importlib.metadata.EntryPoint``; ``load()`` returns ``target``
    (or raises it, when it is an exception)."""

    def __init__(self, name: str, group: str, target: Any, value: str | None = None) -> None:
        self.name = name
        self.group = group
        self.target = target
        self.value = value or f"fake_module:{getattr(target, '__name__', name)}"

    def load(self) -> Any:
        if isinstance(self.target, BaseException):
            raise self.target
        return self.target


class FakeDistribution:
    """Quacks like ``importlib.metadata.Distribution`` (name, version, entry_points)."""

    def __init__(self, name: str, version: str) -> None:
        self.name = name
        self.version = version
        self.metadata = {"Name": name}
        self.entry_points: list[FakeEntryPoint] = []

    def entry_point(
        self,
        name: str,
        target: Any,
        *,
        group: str = _discovery.PROCESSORS_GROUP,
        value: str | None = None,
    ) -> FakeDistribution:
        self.entry_points.append(FakeEntryPoint(name, group, target, value))
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
def fake_distributions(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDistributions]:
    """Only fake distributions are installed; the discovery scan starts afresh.

    ``fake_distributions.add("tripwire-x", "1.2").entry_point("x", XProcessor)``
    registers a processor; ``group="tripwire.commands"`` / ``"tripwire.models"`` for
    CLI commands and model providers. Also clears TRIPWIRE_LOAD_PLUGINS and
    TRIPWIRE_DISABLE_PLUGINS, and restores everything afterwards.
    """
    fakes = FakeDistributions()
    monkeypatch.setattr(importlib.metadata, "distributions", fakes)
    monkeypatch.delenv(_discovery.LOAD_ENV, raising=False)
    monkeypatch.delenv(_discovery.DISABLE_ENV, raising=False)
    import tripwire.models as models

    # The model provider registry scans the same metadata once per process.
    if hasattr(models, "_factories") and hasattr(models, "_loaded"):
        monkeypatch.setattr(models, "_factories", {})
        monkeypatch.setattr(models, "_loaded", False)
    _discovery.reset()
    yield fakes
    _discovery.reset()
