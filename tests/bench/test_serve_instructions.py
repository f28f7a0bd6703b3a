"""``bench/serve_instructions.py`` reads callgrind's dumps, one per probe, as the steps
of each request: a request whose body came in a read of its own, a request cut off at
either end and a second handler before the first write are told apart."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load() -> Any:
    """``bench/serve_instructions.py``, imported with ``sys.path`` as it was after: the
    script puts ``bench/`` first on it (for ``bench/serve.py``), where ``bench/mcp.py``
    would stand in for the ``mcp`` package in every later test."""
    path, modules = list(sys.path), set(sys.modules)
    try:
        spec = importlib.util.spec_from_file_location("bench_serve_instructions",
                                                      BENCH / "serve_instructions.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path[:] = path
        for name in set(sys.modules) - modules:  # (bench/serve.py, imported as "serve")
            if name == "serve":
                del sys.modules[name]


serve_instructions = _load()


def dumps(*labelled: tuple[str, int]) -> list[tuple[int, str, int]]:
    return [(i, label, count) for i, (label, count) in enumerate(labelled)]


def test_each_step_sums_the_dumps_up_to_the_probe_that_ends_it() -> None:
    request = (("s_read", 1000), ("handler", 90), ("s_read", 5), ("c_write", 700),
               ("c_read", 30), ("c_read", 60), ("c_content", 2), ("c_read", 20),
               ("s_write", 200), ("c_read", 7), ("s_write", 8))
    found = dumps(("c_read", 3), *request, *request)
    assert serve_instructions.request_steps(found) == {
        "read to handler": [90, 90], "handler to upstream write": [705, 705],
        "content read to client write": [220, 220]}


def test_a_request_cut_off_is_left_out() -> None:
    cut_before = (("handler", 90), ("c_write", 700), ("c_content", 2), ("s_write", 200))
    cut_after = (("s_read", 1), ("handler", 90), ("c_write", 700), ("c_read", 30))
    assert serve_instructions.request_steps(dumps(*cut_before, *cut_after)) == {
        "read to handler": [], "handler to upstream write": [],
        "content read to client write": []}
    interleaved = (("s_read", 1), ("handler", 90), ("c_write", 700), ("s_read", 1),
                   ("handler", 80), ("c_content", 2), ("s_write", 200))
    assert serve_instructions.request_steps(dumps(*interleaved))["read to handler"] == []
