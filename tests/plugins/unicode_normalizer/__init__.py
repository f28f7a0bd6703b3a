"""The built-in ``unicode-normalizer``."""
