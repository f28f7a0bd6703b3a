"""What tripwire gives processor authors to test with (``tripwire.testing``,
``tripwire.pytest_plugin``)."""
