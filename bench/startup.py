"""Start-up: what ``import tripwire`` and ``tripwire plugins`` cost, against a git revision.

Run by hand:  python bench/startup.py [--against 83a478e] [--rounds 30]

Three commands, each a fresh interpreter (this one, ``sys.executable``):
- bare: ``python -c pass``, the interpreter alone;
- import: ``python -c "import tripwire"``;
- plugins: ``tripwire plugins`` (the console script's ``main``), output discarded.

This tree and the git revision REV run in turns, each command once per round and side,
``--rounds`` times; the host's speed drifts over minutes, so only numbers taken in turns
compare. Prints the median ms of each, wall-clock and CPU time (user and system, which
other work on the machine moves less), and the import's median as a multiple of the
bare interpreter's. REV is checked out in a temporary git worktree and imported from
there (its ``contrib/`` packages too), with its own entry points: a ``dist-info``
written from its ``setup.cfg``, found before the installed one. Before timing, each
side's ``tripwire plugins --json`` is read once to check that every processor loads;
that run also writes the modules' bytecode (under a temporary ``PYTHONPYCACHEPREFIX``),
which the timed runs read, as an installed package's are. ``--no-bytecode`` times them
compiling every module from source instead (``PYTHONDONTWRITEBYTECODE=1``, no cache).
"""

from __future__ import annotations

import argparse
import configparser
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

COMMANDS: dict[str, str] = {
    "bare": "pass",
    "import": "import tripwire",
    "plugins": "import sys; from tripwire.cli import main; sys.argv[1:] = ['plugins']; main()",
}
LISTING = "import sys; from tripwire.cli import main; sys.argv[1:] = ['plugins', '--json']; main()"


def write_dist_info(tree: Path, path: Path) -> None:
    """A ``tripwire`` dist-info in ``path`` with the entry points of ``tree``'s setup.cfg."""
    cfg = configparser.ConfigParser(interpolation=None)
    cfg.optionxform = str  # type: ignore[assignment,method-assign]  # keys as written
    cfg.read(tree / "setup.cfg")
    info = path / f"tripwire-{cfg['metadata']['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: tripwire\nVersion: {cfg['metadata']['version']}\n")
    lines = []
    for group, body in cfg["options.entry_points"].items():
        lines.append(f"[{group}]")
        lines.extend(line.strip() for line in body.splitlines() if line.strip())
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")


def check_listing(name: str, env: dict[str, str], cwd: str) -> int:
    """The number of processors ``tripwire plugins --json`` lists; every one must load."""
    out = subprocess.run([sys.executable, "-c", LISTING], env=env, cwd=cwd, check=True,
                         capture_output=True, text=True).stdout
    processors = json.loads(out)["processors"]
    broken = [p["name"] for p in processors if p["status"] != "ok"]
    if broken:
        sys.exit(f"{name}: broken processors: {', '.join(broken)}")
    return len(processors)


def timed(code: str, env: dict[str, str], cwd: str) -> tuple[float, float]:
    """Milliseconds for one fresh interpreter running ``code``: wall-clock, and CPU (user
    and system) time, which other work on the machine moves less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall * 1000, cpu * 1000


def against(rev: str, rounds: int, bytecode: bool) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _trees import revision_path

    with tempfile.TemporaryDirectory() as tmp, revision_path(rev, tmp) as path:
        tree = Path(tmp) / "tree"
        write_dist_info(tree, path)
        contrib = [str(p) for p in sorted((tree / "contrib").iterdir()) if p.is_dir()]
        base = dict(os.environ)
        if bytecode:
            base.pop("PYTHONDONTWRITEBYTECODE", None)
            base["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        else:
            base["PYTHONDONTWRITEBYTECODE"] = "1"
            stale = [str(p) for d in ("core", "hookspecs", "plugins", "contrib")
                     for p in (REPO / d).rglob("__pycache__")]
            if stale:
                sys.exit("--no-bytecode: this tree has bytecode its runs would read; remove "
                         "it first: " + " ".join(stale))
        envs = {
            "this tree": base,
            rev: {**base, "PYTHONPATH": os.pathsep.join([str(path), *contrib])},
        }
        for name, env in envs.items():
            print(f"{name}: tripwire plugins lists {check_listing(name, env, tmp)} processors, "
                  f"all ok")
        times: dict[str, dict[str, list[tuple[float, float]]]] = {
            name: {cmd: [] for cmd in COMMANDS} for name in envs}
        order = list(envs.items())
        for _ in range(rounds):
            for cmd, code in COMMANDS.items():
                for name, env in order:
                    times[name][cmd].append(timed(code, env, tmp))
            order.reverse()  # neither side always goes first
    cache = "modules' bytecode cached" if bytecode else "every module compiled from source"
    print(f"\nmedian ms of {rounds} rounds, in turns; {cache}")
    print(f"{'':<14} {'wall-clock':^29}  {'CPU':^29}".rstrip())
    print((f"{'command':<14}" + f" {'this tree':>10} {rev:>10} {'ratio':>6} " * 2).rstrip())
    median = {name: {cmd: [statistics.median(t[i] for t in cells[cmd]) for i in (0, 1)]
                     for cmd in COMMANDS} for name, cells in times.items()}
    for cmd in COMMANDS:
        ours, theirs = median["this tree"][cmd], median[rev][cmd]
        print((f"{cmd:<14}" + "".join(f" {ours[i]:>10.0f} {theirs[i]:>10.0f} "
                                      f"{ours[i] / theirs[i]:>6.2f} " for i in (0, 1))).rstrip())
    ours = [median["this tree"]["import"][i] / median["this tree"]["bare"][i] for i in (0, 1)]
    theirs = [median[rev]["import"][i] / median[rev]["bare"][i] for i in (0, 1)]
    print((f"{'import / bare':<14}" + "".join(f" {ours[i]:>9.1f}x {theirs[i]:>9.1f}x {'':>6} "
                                              for i in (0, 1))).rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REV", default="83a478e",
                        help="the git revision to compare with (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=30, help="turns each (default: 30)")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="compile every module from source each time, as a checkout "
                             "run with PYTHONDONTWRITEBYTECODE=1 does")
    args = parser.parse_args()
    against(args.against, args.rounds, not args.no_bytecode)


if __name__ == "__main__":
    main()
