"""Type-check tripwire with mypy (its settings: ``[tool.mypy]`` in pyproject.toml).

Usage: ``python .ci/typecheck.py [mypy arguments]``; with none, mypy checks the
packages the settings name. ``tox -e lint`` and ``tests/packaging/test_typing.py`` run it.

Why not ``mypy -p tripwire`` directly: mypy finds a module by its directory name and
cannot follow setuptools' editable-install finder, while setup.cfg's ``package_dir``
builds the package from other directories (``tripwire = core``, ``tripwire.hookspecs =
hookspecs``, ...). So this copies those directories into a temporary tree laid out as
installed (``tripwire/``, ``tripwire/hookspecs/``, ...), runs ``python -m mypy`` on it
(``MYPYPATH``; mypy's cache in the same temporary directory, so every run starts
clean), and reports with the paths of the working tree. The exit status is mypy's.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_dirs(root: Path = ROOT) -> dict[str, str]:
    """setup.cfg's ``package_dir``: ``{package: source directory}``."""
    cfg = configparser.ConfigParser()
    cfg.read(root / "setup.cfg", encoding="utf-8")
    out = {}
    for line in cfg["options"]["package_dir"].splitlines():
        if "=" in line:
            package, directory = (s.strip() for s in line.split("=", 1))
            out[package] = directory
    return out


def build_tree(dest: Path, root: Path = ROOT) -> dict[str, str]:
    """Copy the package directories into ``dest`` as installed; ``{path in the tree:
    path in the working tree}`` (directory prefixes, longest first)."""
    prefixes = {}
    for package, directory in sorted(package_dirs(root).items()):  # parents first
        target = dest.joinpath(*package.split("."))
        shutil.copytree(root / directory, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        prefixes[target.relative_to(dest).as_posix() + "/"] = directory.rstrip("/") + "/"
    return dict(sorted(prefixes.items(), key=lambda kv: -len(kv[0])))


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="tripwire-mypy-") as tmp:
        tree = Path(tmp) / "src"
        prefixes = build_tree(tree)
        env = dict(os.environ)
        env["MYPYPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("MYPYPATH")]))
        done = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
             "--cache-dir", str(Path(tmp) / "cache"), *argv],
            cwd=tree, env=env, capture_output=True, text=True,
        )
    pattern = re.compile("^(" + "|".join(map(re.escape, prefixes)) + ")", re.MULTILINE)
    for stream, text in ((sys.stdout, done.stdout), (sys.stderr, done.stderr)):
        stream.write(pattern.sub(lambda m: prefixes[m.group(1)], text))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
