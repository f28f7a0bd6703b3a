"""Memory (``tripwire.memory``): stores, the memory processors, ``tripwire memory``."""
