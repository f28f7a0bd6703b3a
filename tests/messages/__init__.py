"""Messages, parts and their serialisation (``tripwire.messages``)."""
