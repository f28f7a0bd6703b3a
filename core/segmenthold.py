"""Deprecated: `tripwire.segmenthold` is now `tripwire.guards.segments`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.guards.segments")
