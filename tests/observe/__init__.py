"""The audit trail and OpenTelemetry spans (``tripwire.observe``)."""
