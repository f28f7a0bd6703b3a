"""Start-up: ``import tripwire`` and ``tripwire plugins`` load no field library.

Each runs in a fresh interpreter, which then reports the modules it holds. A built-in
imports the libraries of its field (phonenumbers, tiktoken, numpy...) when an instance
is built, so listing reads every processor's hooks and options without them. How long
start-up takes is measured by bench/startup.py, not here.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys

import pytest

from tripwire import registry

#: Libraries that neither importing tripwire nor listing its plugins may load.
FIELD_LIBRARIES = ("phonenumbers", "tiktoken", "jsonschema", "numpy", "regex", "py3langid",
                   "aiosqlite", "opentelemetry")
#: What listing may not load either: the HTTP client and server, the Redis client.
LISTING_ALSO = ("aiohttp", "redis")

REPORT = "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"

#: ``tripwire plugins ARGS`` in-process; prints its exit code and output as JSON.
LIST = """\
import contextlib, io, json
from tripwire.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main({argv!r})
print(json.dumps([code, out.getvalue()]))
"""


def processors_of_this_project() -> list[str]:
    """The processor names of tripwire and of the contrib distributions installed."""
    names = []
    for dist in importlib.metadata.distributions():
        if dist.metadata["Name"] in ("tripwire", *registry.CONTRIB):
            names += [ep.name for ep in dist.entry_points
                      if ep.group == registry.PROCESSORS.name]
    return sorted(set(names))


def run(code: str, **env: str) -> tuple[list[str], list[str]]:
    """The lines ``code`` prints, and the top-level packages of the modules loaded."""
    done = subprocess.run(
        [sys.executable, "-c", code + REPORT], capture_output=True, text=True, check=True,
        env={**os.environ, **env})
    *printed, modules = done.stdout.splitlines()
    return printed, sorted({m.partition(".")[0] for m in json.loads(modules)})


def test_import_tripwire_loads_no_field_library():
    _, loaded = run("import tripwire")
    assert "tripwire" in loaded
    assert [m for m in loaded if m in FIELD_LIBRARIES] == []


@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_listing_the_plugins_loads_no_field_library(as_json):
    names = processors_of_this_project()
    argv = ["plugins", "--json"] if as_json else ["plugins"]
    printed, loaded = run(LIST.format(argv=argv), TRIPWIRE_LOAD_PLUGINS=",".join(names))
    code, output = json.loads(printed[-1])
    assert code == 0
    if as_json:
        listed = {p["name"]: p for p in json.loads(output)["processors"]}
        assert sorted(listed) == names
        assert all(p["status"] == "ok" and p["hooks"] for p in listed.values())
        assert all(p["options"] is not None for p in listed.values())
    else:
        assert all(f"\n{name} " in output for name in names)
    assert [m for m in loaded if m in FIELD_LIBRARIES + LISTING_ALSO] == []
