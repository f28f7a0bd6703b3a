"""The built-in ``regex-filter``."""
