"""The built-in processors (``tripwire.plugins``): a file, or a folder, per built-in."""
