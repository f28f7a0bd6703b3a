"""docs/architecture.md is the map of core/: every module it names exists, and every
room (a subpackage of core/) and every hook has its row."""

from __future__ import annotations

import re
from pathlib import Path

import tripwire.hookspecs

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_module_path_the_map_names_exists() -> None:
    paths = set(re.findall(r"\b([a-z_]+/_?[a-z_]+\.py)\b", PAGE)) - {"hookspecs/__init__.py"}
    assert paths
    missing = sorted(p for p in paths if not (ROOT / "core" / p).exists())
    assert missing == []


def test_every_room_and_every_hook_is_on_the_map() -> None:
    rooms = sorted(p.parent.name for p in (ROOT / "core").glob("*/__init__.py"))
    assert [r for r in rooms if f"`tripwire/{r}/`" not in PAGE and f"`{r}/`" not in PAGE] == []
    hooks = [n for n in dir(tripwire.hookspecs) if n.startswith("process_")]
    assert len(hooks) == 9
    assert [h for h in hooks if f"| `{h}` |" not in PAGE] == []
