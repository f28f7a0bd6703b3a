"""Core (``core/``, the package ``tripwire`` outside ``tripwire.plugins``) never
imports a built-in processor: it reaches the ones it places itself through the
registry (``tripwire.registry.builtin``), as any third party's processors are."""

from __future__ import annotations

import ast
from collections.abc import Iterator
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


# ------------------------------------------------------------------ import cycles

#: Source folders and the packages they are.
PACKAGES = [(ROOT / "core", "tripwire"), (ROOT / "hookspecs", "tripwire.hookspecs"),
            (ROOT / "plugins", "tripwire.plugins")]



def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for folder, package in PACKAGES:
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement at any depth, except in ``if TYPE_CHECKING:`` blocks (never
    run; their ``else`` is)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child.test):
            for stmt in child.orelse:
                yield from _import_nodes(ast.Module(body=[stmt], type_ignores=[]))
        elif isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        else:
            yield from _import_nodes(child)


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports: ``from a import b`` is
    ``a.b`` when that is a module, else ``a``; ``import a.b.c`` is its longest known
    prefix."""

    def known_prefix(module: str) -> str | None:
        while module and module not in known:
            module = module.rpartition(".")[0]
        return module or None

    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [known_prefix(alias.name) for alias in node.names]
        else:
            module = node.module or ""
            if node.level:
                base = name if path.name == "__init__.py" else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = f"{base}.{module}" if module else base
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known
                else known_prefix(module)
                for alias in node.names
            ]
        found.update(t for t in targets if t and t != name)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_no_import_cycle() -> None:
    """No cycle in the import graph, function-level imports included."""
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_graph_sees_function_level_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg import b\n")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import c\n"
        "def f():\n    from . import b\n")
    (pkg / "b.py").write_text("class X:\n    def m(self):\n        import pkg.a\n")
    (pkg / "c.py").write_text("")
    known = {"pkg": pkg / "__init__.py", "pkg.a": pkg / "a.py", "pkg.b": pkg / "b.py",
             "pkg.c": pkg / "c.py"}
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    assert graph == {"pkg": {"pkg.b"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": set()}
    assert find_cycle(graph) == ["pkg.b", "pkg.a", "pkg.b"]
