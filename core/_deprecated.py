"""Deprecated module paths: an old import path that hands over its new module.

A public module that moved keeps its old path for one release as a module of two
lines that calls ``moved``: importing the old path warns (``DeprecationWarning``,
naming the new path) and gives the new module itself, so ``from tripwire.holdback
import HoldBack`` and ``tripwire.holdback.HoldBack`` both still work.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from types import FrameType


def moved(old: str, new: str) -> None:
    """Make the module being imported as ``old`` the module ``new``, with a warning.

    Called from the old module's body; the warning points at the line that imports it.
    """
    warnings.warn(f"{old} is deprecated; import {new} instead", DeprecationWarning,
                  stacklevel=_importer_level())
    sys.modules[old] = importlib.import_module(new)


def _importer_level() -> int:
    """The ``stacklevel`` of the frame that imports the old module, for ``moved``: past
    the old module's body, the import system's frames (which ``warnings`` skips by
    itself) and a loader's ``exec_module`` (pytest's assertion rewriter runs the
    modules of an installed plugin's distribution, tripwire's among them, through
    its own)."""
    level = 3
    frame: FrameType | None = sys._getframe(2).f_back  # 1: moved, 2: the old module's body
    while frame is not None:
        name = frame.f_code.co_filename
        if not ("importlib" in name and "_bootstrap" in name):
            if frame.f_code.co_name != "exec_module":
                return level
            level += 1
        frame = frame.f_back
    return level
