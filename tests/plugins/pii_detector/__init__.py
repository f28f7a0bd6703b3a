"""The built-in ``pii-detector``."""
