"""Deprecated: `tripwire.audit` is now `tripwire.observe.audit`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.observe.audit")
