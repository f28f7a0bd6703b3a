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


def moved(old: str, new: str) -> None:
    """Make the module being imported as ``old`` the module ``new``, with a warning.

    Called from the old module's body; the warning points at the line that imports it.
    """
    warnings.warn(f"{old} is deprecated; import {new} instead", DeprecationWarning,
                  stacklevel=3)
    sys.modules[old] = importlib.import_module(new)
