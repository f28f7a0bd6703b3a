"""Deprecated: `tripwire.guardrails` is now `tripwire.guards.verdicts`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.guards.verdicts")
