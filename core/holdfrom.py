"""Deprecated: `tripwire.holdfrom` is now `tripwire.guards.window_start`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.guards.window_start")
