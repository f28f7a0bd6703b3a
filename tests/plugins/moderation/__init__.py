"""The built-in ``moderation``."""
