"""Calling processors: from a processor's methods to a hook's effect.

- ``_markers``: the pluggy markers (``hookimpl``, ``hookspec``);
- ``_marked``: which hooks an object marks with ``@hookimpl`` (``hooks_of``);
- ``_validation``: a processor checked against the hookspecs and compiled once;
- ``_binding``: a call's processors bound to their hooks, as chains;
- ``_facade``: ``Hooks``, one typed method per lifecycle hook, which runs a chain;
- ``_call``: ``BoundHook``, calling one implementation (also per chunk);
- ``_state``: what one hook invocation may change;
- ``_returns``: what a hook's return value means, checked and applied.
"""
