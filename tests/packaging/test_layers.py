"""Core (``core/``, the package ``tripwire`` outside ``tripwire.plugins``) never
imports a built-in processor: it reaches the ones it places itself through the
registry (``tripwire.registry.builtin``), as any third party's processors are."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def plugin_imports(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line module`` for each import of ``tripwire.plugins`` in the file, at any
    depth (functions and ``TYPE_CHECKING`` blocks included)."""
    found = []
    where = path.relative_to(root)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        else:
            continue
        hits = [m for m in modules if m == "tripwire.plugins" or m.startswith("tripwire.plugins.")]
        if hits:
            found.append(f"{where}:{node.lineno} {hits[0]}")
    return sorted(found, key=lambda hit: int(hit.split(":")[1].split(" ")[0]))


def test_core_never_imports_plugins() -> None:
    found = [hit for path in sorted((ROOT / "core").rglob("*.py")) for hit in plugin_imports(path)]
    assert not found, "core imports built-in processors:\n" + "\n".join(found)


def test_the_check_sees_imports_at_any_depth(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import tripwire.plugins.moderation\n"
        "def f():\n    from tripwire.plugins.structured_output import StructuredOutput\n"
        "from tripwire import plugins\n"
    )
    assert plugin_imports(source, tmp_path) == [
        "probe.py:3 tripwire.plugins.moderation",
        "probe.py:5 tripwire.plugins.structured_output",
        "probe.py:6 tripwire.plugins",
    ]
