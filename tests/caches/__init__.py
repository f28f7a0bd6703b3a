"""Cache backends (``tripwire.caches``) and resources per event loop (``tripwire.per_loop``)."""
