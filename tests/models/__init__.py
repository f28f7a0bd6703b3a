"""Model providers and their HTTP transport (``tripwire.models``)."""
