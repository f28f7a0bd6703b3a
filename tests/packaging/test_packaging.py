"""Packaging and discovery through real metadata.

Discovery is tested at three levels (STYLE.md): fake distributions
(test_discovery.py); a hand-written ``*.dist-info`` on ``sys.path`` (here, in a
subprocess); and real wheels - tripwire's and contrib/keyword-guard's - installed into
a fresh virtual environment (here). Wheels are built from copies of the sources, so
the working tree gets no build/ or *.egg-info litter. No network: ``--no-index``, and
the venv borrows this interpreter's site-packages for the dependencies.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CONTRIB = ROOT / "contrib" / "keyword-guard"
CONTRIB_REDIS = ROOT / "contrib" / "redis"
IGNORE = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist", "*.pyc")


def clean_env(**extra: str) -> dict[str, str]:
    """An environment without this session's plugin settings or PYTHONPATH."""
    env = {
        k: v for k, v in os.environ.items()
        if not k.startswith("TRIPWIRE_") and k not in ("PYTHONPATH", "PYTHONHOME")
    }
    env.update(extra)
    return env


def run(*argv: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, timeout=120, **kwargs
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done


def setup_cfg(root: Path = ROOT) -> configparser.ConfigParser:
    cfg = configparser.ConfigParser()
    cfg.read(root / "setup.cfg", encoding="utf-8")
    return cfg


def declared_entry_points(root: Path) -> dict[str, dict[str, str]]:
    """setup.cfg's [options.entry_points], as {group: {name: value}}."""
    out: dict[str, dict[str, str]] = {}
    for group, lines in setup_cfg(root)["options.entry_points"].items():
        for line in lines.splitlines():
            if "=" in line:
                name, value = (s.strip() for s in line.split("=", 1))
                out.setdefault(group, {})[name] = value
    return out


def copy_tripwire_sources(dest: Path) -> Path:
    """The files setuptools needs to build tripwire: setup.cfg's package dirs and the
    top-level metadata files."""
    dest.mkdir()
    package_dirs = {
        line.split("=", 1)[1].strip().split("/")[0]
        for line in setup_cfg()["options"]["package_dir"].splitlines()
        if "=" in line
    }
    for d in sorted(package_dirs):
        shutil.copytree(ROOT / d, dest / d, ignore=IGNORE)
    for f in ("setup.cfg", "pyproject.toml", "README.md", "MANIFEST.in", "LICENSE"):
        if (ROOT / f).exists():
            shutil.copy2(ROOT / f, dest / f)
    return dest


def build_wheel(source: Path, out: Path) -> Path:
    before = set(out.glob("*.whl"))
    run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--no-index", "--wheel-dir", out, source, "-q",
    )
    (wheel,) = set(out.glob("*.whl")) - before
    return wheel


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("wheels")
    out = tmp / "dist"
    out.mkdir()
    tripwire_src = copy_tripwire_sources(tmp / "tripwire-src")
    contrib_src = tmp / "keyword-guard-src"
    shutil.copytree(CONTRIB, contrib_src, ignore=IGNORE)
    redis_src = tmp / "redis-src"
    shutil.copytree(CONTRIB_REDIS, redis_src, ignore=IGNORE)
    return {
        "tripwire": build_wheel(tripwire_src, out),
        "keyword-guard": build_wheel(contrib_src, out),
        "redis": build_wheel(redis_src, out),
        "tripwire-src": tripwire_src,
    }


@pytest.fixture(scope="module")
def venv(tmp_path_factory, wheels) -> Path:
    """A fresh venv with both wheels installed (dependencies from this interpreter)."""
    root = tmp_path_factory.mktemp("venv") / "env"
    run(sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", root)
    python = root / "bin" / "python"
    # When this interpreter is itself a virtualenv (tox), --system-site-packages reaches
    # the base interpreter only; a .pth adds this environment's site-packages after the
    # venv's own, so the dependencies (and pip) resolve, while the wheels installed
    # below come first.
    outer = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site_packages,) = (root / "lib").glob("python*/site-packages")
    (site_packages / "_outer_environment.pth").write_text("\n".join(sorted(outer)) + "\n")
    # --ignore-installed: never touch the editable tripwire of the outer environment.
    run(
        python, "-m", "pip", "install", "--no-index", "--no-deps", "--ignore-installed",
        "-q", wheels["tripwire"], wheels["keyword-guard"], wheels["redis"], env=clean_env(),
    )
    return root


def wheel_entry_points(wheel: Path) -> dict[str, dict[str, str]]:
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt"))
        text = z.read(name).decode()
    cfg = configparser.ConfigParser()
    cfg.optionxform = str  # keep names as written
    cfg.read_string(text)
    return {group: dict(cfg[group]) for group in cfg.sections()}


# ------------------------------------------------------------------ the wheels


def test_tripwire_wheel_holds_the_three_packages(wheels):
    with zipfile.ZipFile(wheels["tripwire"]) as z:
        names = set(z.namelist())
    for module in (
        "tripwire/__init__.py", "tripwire/cli/__init__.py", "tripwire/__main__.py",
        "tripwire/registry/discovery.py", "tripwire/config/__init__.py",
        "tripwire/run/_loop.py", "tripwire/models/__init__.py",
        "tripwire/hookspecs/__init__.py", "tripwire/plugins/__init__.py",
    ):
        assert module in names
    # Every module of the sources it was built from made it in (a forgotten package
    # would not).
    source = wheels["tripwire-src"]
    for source_dir, package in (("core", "tripwire"), ("hookspecs", "tripwire/hookspecs"),
                                ("plugins", "tripwire/plugins")):
        for path in (source / source_dir).rglob("*.py"):
            assert f"{package}/{path.relative_to(source / source_dir).as_posix()}" in names


def test_tripwire_wheel_is_marked_typed(wheels):
    # PEP 561: type checkers read the annotations of an installed tripwire only when
    # the package holds py.typed (setup.cfg's package_data).
    with zipfile.ZipFile(wheels["tripwire"]) as z:
        assert "tripwire/py.typed" in z.namelist()


def test_tripwire_wheel_ships_the_injection_models_weights(wheels):
    # prompt-injection-detector loads them when it is built (setup.cfg's package_data)
    with zipfile.ZipFile(wheels["tripwire"]) as z:
        assert "tripwire/plugins/prompt_injection_detector/classifier.npz" in z.namelist()


def test_tripwire_wheel_declares_the_entry_points_of_setup_cfg(wheels):
    declared = declared_entry_points(wheels["tripwire-src"])
    found = wheel_entry_points(wheels["tripwire"])
    assert found["console_scripts"]["tripwire"] == "tripwire.cli:main"
    for group in ("tripwire.processors", "tripwire.models", "tripwire.commands"):
        assert found.get(group, {}) == declared.get(group, {})


def test_keyword_guard_wheel_declares_its_processor(wheels):
    assert wheel_entry_points(wheels["keyword-guard"]) == {
        "tripwire.processors": {"keyword-guard": "tripwire_keyword_guard:KeywordGuard"}
    }


def test_keyword_guard_builds_without_deprecation_warnings(tmp_path):
    """Its license is an SPDX expression (setuptools >= 77, the versions pip picks):
    the ``license = {text = ...}`` table and ``License ::`` classifiers are deprecated."""
    source = tmp_path / "src"
    shutil.copytree(CONTRIB, source, ignore=IGNORE)
    done = run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--no-index", "-v", "--wheel-dir", tmp_path / "dist", source,
    )
    log = done.stdout + done.stderr
    assert "Deprecat" not in log, log
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = z.read(name).decode()
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    assert "License ::" not in metadata


def readme_commands() -> list[str]:
    """The shell commands in the code blocks of the README's first section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## ", 2)[1]
    blocks = re.findall(r"```(?:sh|bash|console)\n(.*?)```", section, re.DOTALL)
    return [line for b in blocks for line in b.splitlines() if line and not line.startswith("#")]


def test_ci_runs_exactly_the_readme_commands():
    commands = readme_commands()
    assert len(commands) == 2, commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[0] in ci
    assert any(line.startswith(commands[1]) for line in ci), (commands[1], ci)
    # pip < 23.3 cannot resolve contrib's "tripwire>=0.1" against an editable
    # '.[extra]' alone: the plain editable '-e .' must come first.
    for command in commands:
        assert command.startswith("pip install -e . -e '.["), command


# ------------------------------------------------------------------ level 3: a real venv


def test_installed_tripwire_plugins_lists_the_contrib_plugin_and_the_built_ins(venv, wheels):
    done = run(venv / "bin" / "tripwire", "plugins", "--json", env=clean_env(), cwd=venv)
    rows = {p["name"]: p for p in json.loads(done.stdout)["processors"]}
    guard = rows["keyword-guard"]
    assert (guard["distribution"], guard["version"], guard["status"]) == (
        "tripwire-keyword-guard", "0.1.0", "ok",
    )
    assert guard["hooks"] == ["process_input", "process_output_stream", "process_tool_result"]
    for name in declared_entry_points(wheels["tripwire-src"]).get("tripwire.processors", {}):
        assert rows[name]["distribution"] == "tripwire"
        assert rows[name]["status"] == "ok", rows[name]["error"]


def test_installed_tripwire_plugins_create_builds_the_contrib_plugin(venv):
    code = textwrap.dedent("""
        import tripwire, tripwire.plugins
        guard = tripwire.plugins.create("keyword-guard", patterns=["x"], strategy="mask")
        print(type(guard).__module__, type(guard).__name__, guard.patterns, guard.strategy)
        print(tripwire.__file__)
    """)
    done = run(venv / "bin" / "python", "-c", code, env=clean_env(), cwd=venv)
    first, where = done.stdout.splitlines()
    assert first == "tripwire_keyword_guard KeywordGuard ['x'] redact"  # mask is redact's alias
    assert where.startswith(str(venv))  # the installed wheel, not the editable checkout


def test_installed_tripwire_redis_is_found_through_its_entry_point(venv, redis_server):
    done = run(venv / "bin" / "tripwire", "plugins", "--json", env=clean_env(), cwd=venv)
    caches = {c["scheme"]: c for c in json.loads(done.stdout)["caches"]}
    assert (caches["redis"]["distribution"], caches["redis"]["status"]) == ("tripwire-redis", "ok")
    assert caches["memory"]["distribution"] == caches["sqlite"]["distribution"] == "tripwire"
    code = textwrap.dedent("""
        import asyncio, sys, tripwire_redis
        from tripwire.caches import open_cache

        async def main():
            cache = open_cache(sys.argv[1])
            await cache.set("k", b"through the wheel", 60)
            print(type(cache).__name__, (await cache.get("k")).decode(), await cache.incr("n", 2, 60))
            await cache.close()

        asyncio.run(main())
        print(tripwire_redis.__file__)
    """)
    done = run(venv / "bin" / "python", "-c", code, redis_server.url, env=clean_env(), cwd=venv)
    first, where = done.stdout.splitlines()
    assert first == "RedisCache through the wheel 2"
    assert where.startswith(str(venv))  # the installed wheel, not the editable checkout


def test_installed_python_dash_m_tripwire_runs(venv):
    done = run(venv / "bin" / "python", "-m", "tripwire", "--help", env=clean_env(), cwd=venv)
    assert done.stdout.startswith("usage: tripwire")


# ------------------------------------------------------------------ level 2: a dist-info


def write_dist_info(site: Path, name: str, version: str, entry_points: str) -> None:
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))


def test_a_hand_written_dist_info_on_sys_path_is_discovered(tmp_path):
    site, site2 = tmp_path / "site", tmp_path / "site2"
    site.mkdir()
    (site / "acme_guard.py").write_text(textwrap.dedent("""
        from tripwire import Processor, hookimpl

        class AcmeGuard(Processor):
            id = "acme-guard"

            def __init__(self, words: list[str]):
                self.words = words

            @hookimpl
            def process_input(self, messages):
                return messages
    """))
    # The same entry point listed twice (setuptools #3649) ...
    write_dist_info(site, "acme-guard", "1.0", """
        [tripwire.processors]
        acme-guard = acme_guard:AcmeGuard
        acme-guard = acme_guard:AcmeGuard
    """)
    # ... the same distribution found again further down sys.path ...
    write_dist_info(site2, "acme-guard", "0.9", """
        [tripwire.processors]
        acme-guard = acme_guard:AcmeGuard
    """)
    # ... and a plugin whose module is missing.
    write_dist_info(site, "broken-thing", "0.1", """
        [tripwire.processors]
        broken-thing = broken_thing_missing:Broken
    """)
    env = clean_env(
        PYTHONPATH=f"{site}{os.pathsep}{site2}",
        TRIPWIRE_LOAD_PLUGINS="acme-guard,broken-thing",
    )
    done = run(sys.executable, "-m", "tripwire", "plugins", "--json", env=env, cwd=tmp_path)
    rows = json.loads(done.stdout)["processors"]
    assert [(r["name"], r["distribution"], r["version"], r["status"]) for r in rows] == [
        ("acme-guard", "acme-guard", "1.0", "ok"),
        ("broken-thing", "broken-thing", "0.1", "broken"),
    ]
    assert rows[1]["error"] == "ModuleNotFoundError: No module named 'broken_thing_missing'"

    code = textwrap.dedent("""
        import tripwire.plugins
        from tripwire import ConfigurationError
        print(tripwire.plugins.create("acme-guard", words=["a"]).words)
        try:
            tripwire.plugins.create("broken-thing")
        except ConfigurationError as e:
            print(e)
            print(type(e.__cause__).__name__)
    """)
    done = run(sys.executable, "-c", code, env=env, cwd=tmp_path)
    assert done.stdout.splitlines() == [
        "['a']",
        "processor 'broken-thing' from distribution broken-thing 0.1 "
        "(broken_thing_missing:Broken) failed to load: ModuleNotFoundError: "
        "No module named 'broken_thing_missing'",
        "ModuleNotFoundError",
    ]
