"""``tripwire.Error`` is the base class of tripwire's errors; ``TripwireError``, its old
name, still works for one release with a ``DeprecationWarning`` naming the new one."""

from __future__ import annotations

import pytest

import tripwire
import tripwire.errors


def test_every_error_of_tripwire_is_a_tripwire_error_and_a_tripwire_is_not() -> None:
    for cls in (tripwire.ConfigurationError, tripwire.ProcessorError, tripwire.APICallError,
                tripwire.ProcessorValidationError, tripwire.OptionError, tripwire.JudgeError,
                tripwire.MissingDependencyError):
        assert issubclass(cls, tripwire.Error)
    assert not issubclass(tripwire.TripWire, tripwire.Error)


@pytest.mark.parametrize("module", [tripwire, tripwire.errors])
def test_the_old_name_warns_and_gives_the_new_class(module: object) -> None:
    with pytest.warns(DeprecationWarning, match=r"TripwireError is deprecated; use tripwire\.Error"):
        old = module.TripwireError  # type: ignore[attr-defined]
    assert old is tripwire.Error


def test_from_import_of_the_old_name_warns() -> None:
    with pytest.warns(DeprecationWarning, match="tripwire.Error"):
        from tripwire import TripwireError
    assert TripwireError is tripwire.Error


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        tripwire.NoSuchName  # type: ignore[attr-defined]  # noqa: B018
