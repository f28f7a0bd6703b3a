"""The built-in detectors (``tripwire.detectors``)."""
