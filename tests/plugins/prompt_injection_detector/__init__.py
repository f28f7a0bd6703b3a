"""The built-in ``prompt-injection-detector``."""
