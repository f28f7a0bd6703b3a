"""Deprecated: `tripwire.values` is now `tripwire.guards.values`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.guards.values")
