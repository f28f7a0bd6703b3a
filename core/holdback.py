"""Deprecated: `tripwire.holdback` is now `tripwire.guards.window`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.guards.window")
