"""Public module paths that moved still import for one release, with a warning naming
the new path, and give the new module itself."""

from __future__ import annotations

import importlib
import sys

import pytest

import tripwire

MOVED = {
    "tripwire.holdback": "tripwire.guards.window",
    "tripwire.holdfrom": "tripwire.guards.window_start",
    "tripwire.segmenthold": "tripwire.guards.segments",
    "tripwire.documents": "tripwire.guards.documents",
    "tripwire.values": "tripwire.guards.values",
    "tripwire.judge": "tripwire.guards.judge",
    "tripwire.guardrails": "tripwire.guards.verdicts",
    "tripwire.audit": "tripwire.observe.audit",
    "tripwire.options": "tripwire.option_checks",
    "tripwire.loops": "tripwire.per_loop",
}


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch):
    """Forget the old paths, so each test imports one for the first time."""
    for old in MOVED:
        monkeypatch.delitem(sys.modules, old, raising=False)
        monkeypatch.delattr(tripwire, old.rsplit(".", 1)[1], raising=False)
    yield
    for old in MOVED:
        sys.modules.pop(old, None)
        vars(tripwire).pop(old.rsplit(".", 1)[1], None)


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_old_path_warns_and_is_the_new_module(fresh, old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=rf"{old} is deprecated; import {new} instead"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert sys.modules[old] is module


def test_from_import_of_an_old_path_gives_its_names(fresh) -> None:
    with pytest.warns(DeprecationWarning, match="tripwire.guards.window") as seen:
        from tripwire.holdback import HoldBack
    assert HoldBack is tripwire.HoldBack
    assert seen[0].filename == __file__  # the warning points at the importing line


def test_nothing_imports_an_old_path() -> None:
    """``import tripwire`` and its rooms never reach a deprecated path."""
    import subprocess

    code = ("import sys, tripwire, tripwire.config, tripwire.cli, tripwire.serve, "
            f"tripwire.guards.judge; print(sorted(set(sys.modules) & set({list(MOVED)!r})))")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"
