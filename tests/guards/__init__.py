"""Guards' building blocks (``tripwire.guards``) and every guard against every path a
value can take."""
