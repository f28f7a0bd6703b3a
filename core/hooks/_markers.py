"""The pluggy markers for the project name ``tripwire``.

Kept in their own module so that ``tripwire.hookspecs`` can import the spec
marker without importing the whole package.
"""

import pluggy

PROJECT_NAME = "tripwire"

#: Marks a hook specification (used only in ``tripwire.hookspecs``).
hookspec = pluggy.HookspecMarker(PROJECT_NAME)
#: Marks a processor method as the implementation of a lifecycle hook.
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)
