"""The output stream (``tripwire.stream``, ``tripwire.chunks``): the per-chunk path and
what reaches a streaming client."""
