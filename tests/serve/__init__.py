"""The gateway, ``tripwire serve`` (``tripwire.serve``)."""
