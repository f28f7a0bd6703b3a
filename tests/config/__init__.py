"""Configuration files and option checks (``tripwire.config``, ``tripwire.option_checks``)."""
