"""The ``tripwire`` command (``tripwire.cli``)."""
