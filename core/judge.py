"""Deprecated: `tripwire.judge` is now `tripwire.guards.judge`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.guards.judge")
