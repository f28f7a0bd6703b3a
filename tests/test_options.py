"""tripwire.options: one wording for every bad option."""

from __future__ import annotations

import pytest

from tripwire import ConfigurationError
from tripwire.options import check_bool, check_choice, check_int


@pytest.mark.parametrize("value", [-1, 1.5, "3", True, None])
def test_check_int_rejects_with_the_valid_range(value):
    with pytest.raises(ConfigurationError, match=rf"my-proc: limit must be an integer >= 0, got {value!r}"):
        check_int("limit", value, owner="my-proc")


def test_check_int_accepts_and_allows_none_when_asked():
    check_int("limit", 0)
    check_int("limit", None, allow_none=True)
    with pytest.raises(ConfigurationError, match="an integer >= 2 or None, got 1"):
        check_int("limit", 1, minimum=2, allow_none=True)


def test_check_bool_and_check_choice():
    check_bool("flag", False)
    with pytest.raises(ConfigurationError, match="flag must be true or false, got 'yes'"):
        check_bool("flag", "yes")
    check_choice("mode", "a", ("a", "b"))
    with pytest.raises(ConfigurationError, match="mode must be one of a, b; got 'c'"):
        check_choice("mode", "c", ("a", "b"))
