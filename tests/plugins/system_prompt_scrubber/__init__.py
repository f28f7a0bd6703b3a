"""The built-in ``system-prompt-scrubber``."""
