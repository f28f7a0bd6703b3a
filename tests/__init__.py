"""tripwire's test suite, in folders named as the source's rooms (docs/architecture.md);
shared fakes and servers in ``tests.support``, shared fixtures in ``tests/conftest.py``."""
