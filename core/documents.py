"""Deprecated: `tripwire.documents` is now `tripwire.guards.documents`."""

from tripwire._deprecated import moved

moved(__name__, "tripwire.guards.documents")
