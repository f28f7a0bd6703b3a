"""The README and docs/: examples run, links resolve, every hook documented."""
