"""Observing runs: the audit trail and OpenTelemetry spans.

- ``audit``: ``AuditRecord``, what every processor decided in a run (public);
- ``_recorder``: a run's ``Recorder`` of audit records and spans;
- ``_stagestats``: what the output pipeline's stages did per step, for the audit.
"""
