"""Deprecated: `tripwire.options` is now `tripwire.option_checks`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.option_checks")
