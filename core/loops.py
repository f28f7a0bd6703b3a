"""Deprecated: `tripwire.loops` is now `tripwire.per_loop`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.per_loop")
