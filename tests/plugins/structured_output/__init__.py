"""The built-in ``structured-output``."""
