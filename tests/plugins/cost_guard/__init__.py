"""The built-in ``cost-guard``."""
