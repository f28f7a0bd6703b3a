"""tripwire's built-in processors, one module per processor id (a package when it has
helper modules), and ``shared`` for the helpers several of them use.

Every processor, built-in or installed from another distribution, is registered in
the entry point group ``tripwire.processors``; ``available()`` lists them and
``create(name, **options)`` builds one (see ``docs/plugins.md``).
"""

from tripwire.registry.discovery import available, create

__all__ = ["available", "create"]
