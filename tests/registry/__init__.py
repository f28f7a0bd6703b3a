"""Entry-point discovery (``tripwire.registry``)."""
