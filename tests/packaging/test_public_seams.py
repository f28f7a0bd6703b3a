"""Built-ins (plugins/), contrib packages and the gateway (core/serve) use only public
names of tripwire: no import of a module path with a component starting with ``_``,
no imported name starting with ``_``, no ``module._name`` on a tripwire module. A
module may use its own package's private modules (``tripwire.serve._app`` from
``tripwire.serve``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Source folders and the packages they are.
SCANNED = [
    (ROOT / "plugins", "tripwire.plugins"),
    (ROOT / "core" / "serve", "tripwire.serve"),
]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _sources() -> Iterator[tuple[Path, str]]:
    """Each scanned file and the package that owns it (its private modules are its own)."""
    for folder, package in SCANNED:
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).parts
            top = parts[0].removesuffix(".py")
            own = package if folder.name == "serve" or top == "__init__" else f"{package}.{top}"
            yield path, own
    for path in sorted((ROOT / "contrib").rglob("*.py")):
        if ".venv" in path.parts or "build" in path.parts:
            continue
        yield path, "(contrib)"


def _inside(module: str, own: str) -> bool:
    return module == own or module.startswith(own + ".")


def private_uses(path: Path, own: str, root: Path = ROOT) -> list[str]:
    """``file:line what`` for each private name of tripwire the file uses."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    modules: set[str] = set()  # local names bound to tripwire modules or their names
    where = path.relative_to(root)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "tripwire":
                    continue
                modules.add((alias.asname or alias.name).split(".")[0])
                if any(_private(c) for c in alias.name.split(".")) and not _inside(alias.name, own):
                    found.append(f"{where}:{node.lineno} import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "tripwire":
                continue
            for alias in node.names:
                modules.add(alias.asname or alias.name)
                full = f"{node.module}.{alias.name}"
                if _inside(full, own):
                    continue
                if any(_private(c) for c in full.split(".")):
                    found.append(f"{where}:{node.lineno} from {node.module} import {alias.name}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in modules):
            found.append(f"{where}:{node.lineno} {node.value.id}.{node.attr}")
    return found


def test_built_ins_contrib_and_the_gateway_use_only_public_names() -> None:
    found = [use for path, own in _sources() for use in private_uses(path, own)]
    assert found == []


def test_the_check_finds_each_kind_of_private_use(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "import tripwire.hooks._call\n"
        "from tripwire.models import _wire\n"
        "from tripwire.agent import _defaults\n"
        "from tripwire import agent\n"
        "agent._private()\n"
        "from tripwire.plugins.mine._helpers import x\n",
        encoding="utf-8",
    )
    assert private_uses(source, "tripwire.plugins.mine", tmp_path) == [
        "mod.py:1 import tripwire.hooks._call",
        "mod.py:2 from tripwire.models import _wire",
        "mod.py:3 from tripwire.agent import _defaults",
        "mod.py:5 agent._private",
    ]
