"""A git revision of tripwire, importable beside this tree: what the ``--against``
benchmarks compare with."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@contextmanager
def revision_path(rev: str, tmp: str | Path) -> Iterator[Path]:
    """A directory to put on ``PYTHONPATH`` (run from a directory outside this tree)
    for ``import tripwire`` to give revision ``rev``: a temporary git worktree under
    ``tmp``, laid out as an install maps it (tripwire = core/, with hookspecs/ and
    plugins/ inside). The worktree is removed afterwards."""
    tree = Path(tmp) / "tree"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(tree),
                    rev], check=True)
    try:
        package = Path(tmp) / "path" / "tripwire"
        package.mkdir(parents=True)
        for item in (tree / "core").iterdir():
            (package / item.name).symlink_to(item)
        for sub in ("hookspecs", "plugins"):
            (package / sub).symlink_to(tree / sub)
        yield package.parent
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                       check=True)
