"""Calling processors (``tripwire.hooks``, ``tripwire.groups``): each hook, its order,
binding, validation, wrappers, groups, and what a processor may return."""
