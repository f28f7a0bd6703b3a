"""tripwire.option_checks: one checker, driven by the annotation, for every option."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

import attrs
import pytest

from tripwire import ConfigurationError
from tripwire.option_checks import (
    Mismatch,
    NonNegativeInt,
    PositiveInt,
    Range,
    check,
    check_bool,
    check_choice,
    check_int,
    check_options,
    conform,
    describe,
    options_of,
    type_text,
)

Mode = Literal["fast", "deep"]


@attrs.define
class Address:
    city: str
    zip: str | None = None


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


# ------------------------------------------------------------------ check


@pytest.mark.parametrize(
    ("hint", "value"),
    [
        (int, 3),
        (PositiveInt, 1),
        (NonNegativeInt, 0),
        (Annotated[float, Range(min=0, max=2)], 2.0),
        (bool, False),
        (str, ""),
        (Mode, "deep"),
        (PositiveInt | None, None),
        (list[str], ["a", "b"]),
        (dict[str, int], {"a": 1}),
        (Mapping[str, Any], {"a": [1]}),
        (Address, Address("Oslo")),
        (Any, object),
    ],
)
def test_a_fitting_value_is_returned_as_given(hint, value):
    assert check("x", value, hint) == value


@pytest.mark.parametrize(
    ("hint", "value", "converted"),
    [
        (float, 2, 2.0),
        (tuple[int, ...], [1, 2], (1, 2)),
        (set[str], ["a", "a"], {"a"}),
        (Address, {"city": "Oslo"}, Address("Oslo")),
        (list[Address], [{"city": "Oslo", "zip": "0150"}], [Address("Oslo", "0150")]),
        (Colour, "red", Colour.RED),
    ],
)
def test_a_value_is_converted_where_the_hint_says(hint, value, converted):
    result = check("x", value, hint)
    assert result == converted and type(result) is type(converted)


@pytest.mark.parametrize(
    ("hint", "value", "message"),
    [
        (PositiveInt, 0, "budget: limit must be an integer >= 1, got 0"),
        (PositiveInt, True, "budget: limit must be an integer >= 1, got True"),
        (PositiveInt, "3", "budget: limit must be an integer >= 1, got '3'"),
        (PositiveInt | None, 1.5, "budget: limit must be an integer >= 1 or None, got 1.5"),
        (Annotated[int, Range(max=9)], 10, "budget: limit must be an integer <= 9, got 10"),
        (Annotated[float, Range(min=0, max=2)], 3,
         "budget: limit must be a number between 0 and 2, got 3"),
        (bool, 1, "budget: limit must be true or false, got 1"),
        (str, None, "budget: limit must be a string, got None"),
        (Mode, "slow", "budget: limit must be one of fast, deep; got 'slow'"),
        (list[str], "abc", "budget: limit must be a list of strings, got 'abc'"),
        (list[str], ["a", 2],
         "budget: limit must be a list of strings, got ['a', 2] "
         "(invalid value for type, expected str @ value[1])"),
        (dict[str, int], {"a": "1"},
         "budget: limit must be a table (mapping) of str to int, got {'a': '1'} "
         "(invalid value for type, expected int @ value['a'])"),
        (list[PositiveInt], [1, 0],
         "budget: limit must be a list of int >= 1 values, got [1, 0] "
         "(invalid value for type, expected int >= 1 @ value[1])"),
        (Address, {"zip": "1"},
         "budget: limit must be an Address (or a table of its fields), got {'zip': '1'} "
         "(required field missing @ value.city)"),
        (Address, 3, "budget: limit must be an Address (or a table of its fields), got 3"),
        (Colour, "green", "budget: limit must be one of red, blue; got 'green'"),
    ],
)
def test_a_bad_value_names_owner_option_what_is_valid_and_the_value(hint, value, message):
    with pytest.raises(ConfigurationError) as e:
        check("limit", value, hint, owner="budget")
    assert str(e.value) == message
    assert isinstance(e.value.__cause__, Mismatch)


def test_without_an_owner_the_message_starts_with_the_option():
    with pytest.raises(ConfigurationError, match=r"^limit must be an integer >= 1, got 0$"):
        check("limit", 0, PositiveInt)


@pytest.mark.parametrize(
    ("hint", "value", "message"),
    [
        (int, "3", "processor 'x': option 'limit' expects int, got '3': "
                   "expected an integer, got '3' (str)"),
        (PositiveInt, 0, "processor 'x': option 'limit' expects int >= 1, got 0: "
                         "expected an integer >= 1, got 0"),
        (Mode, "slow", "processor 'x': option 'limit' must be one of 'fast', 'deep', got 'slow'"),
        (list[str], ["a", 2], "processor 'x': option 'limit' expects list[str], got ['a', 2]: "
                              "invalid value for type, expected str @ value[1]"),
    ],
)
def test_with_a_noun_the_message_quotes_the_declared_type(hint, value, message):
    with pytest.raises(ConfigurationError) as e:
        check("limit", value, hint, owner="processor 'x'", noun="option")
    assert str(e.value) == message


def test_a_hint_the_checker_cannot_read_lets_the_value_through():
    def callback() -> None:
        pass

    from collections.abc import Callable

    assert check("on_done", callback, Callable[[], None]) is callback


def test_conform_raises_a_mismatch_callers_can_word():
    with pytest.raises(Mismatch) as e:
        conform(["a", 2], list[str])
    assert (e.value.value, e.value.hint, e.value.nested) == (["a", 2], list[str], True)
    assert e.value.detail == "invalid value for type, expected str @ value[1]"


def test_range_needs_a_bound_in_order():
    with pytest.raises(TypeError, match="needs min, max or both"):
        Range()
    with pytest.raises(TypeError, match="min 2 is greater than max 1"):
        Range(min=2, max=1)


# ------------------------------------------------------------------ wording


@pytest.mark.parametrize(
    ("hint", "text", "words"),
    [
        (int, "int", "an integer"),
        (PositiveInt | None, "int >= 1 | None", "an integer >= 1 or None"),
        (None | PositiveInt, "None | int >= 1", "an integer >= 1 or None"),
        (Mode, "Literal['fast', 'deep']", "one of fast, deep"),
        (list[str], "list[str]", "a list of strings"),
        (Sequence[Address], "Sequence[Address]", "a list of Address values"),
        (tuple[int, str], "tuple[int, str]", "a list of 2 items (tuple[int, str])"),
        (dict[str, Any], "dict[str, Any]", "a table (mapping) of str to Any"),
        (Annotated[float, "kilograms"], "float", "a number"),
        (Any, "any", "any value"),
    ],
)
def test_type_text_and_describe(hint, text, words):
    assert (type_text(hint), describe(hint)) == (text, words)


# ------------------------------------------------------------------ constructors


class Budget:
    def __init__(self, limit: PositiveInt, *, mode: Mode = "fast", words: list[str] | None = None):
        self.limit, self.mode, self.words = limit, mode, words


def test_options_of_reads_the_constructor():
    assert [str(o) for o in options_of(Budget)] == [
        "limit (int >= 1, required)",
        "mode (Literal['fast', 'deep'], default 'fast')",
        "words (list[str] | None, default None)",
    ]


def test_check_options_checks_each_option_against_its_annotation():
    assert check_options(Budget, {"limit": 3, "mode": "deep"}, owner="budget") == {
        "limit": 3, "mode": "deep",
    }
    with pytest.raises(ConfigurationError, match=r"^budget: option 'limit' expects int >= 1, got 0"):
        check_options(Budget, {"limit": 0}, owner="budget")
    with pytest.raises(ConfigurationError, match=r"^budget needs option 'limit'; valid options: limit"):
        check_options(Budget, {}, owner="budget")
    with pytest.raises(ConfigurationError, match=r"^budget has no option 'limt' \(did you mean 'limit'\?\); valid options: limit"):
        check_options(Budget, {"limt": 1}, owner="budget")


# ------------------------------------------------------------------ shorthands


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


def test_the_shorthands_word_errors_as_check_does():
    for shorthand, hint, value in [
        (lambda v: check_int("n", v, minimum=1, allow_none=True), PositiveInt | None, 0),
        (lambda v: check_bool("n", v), bool, "no"),
        (lambda v: check_choice("n", v, ("fast", "deep")), Mode, "slow"),
    ]:
        with pytest.raises(ConfigurationError) as short:
            shorthand(value)
        with pytest.raises(ConfigurationError) as full:
            check("n", value, hint)
        assert str(short.value) == str(full.value)


# ------------------------------------------------------------------ the docs


def test_the_example_in_writing_processors_behaves_as_documented(fake_distributions):
    import re
    from pathlib import Path

    import tripwire.plugins

    doc = (Path(__file__).resolve().parents[2] / "docs" / "writing-processors.md").read_text()
    section = doc.split("## Checking your options", 1)[1].split("\n## ", 1)[0]
    namespace: dict[str, Any] = {}
    exec(re.search(r"```python\n(.*?)```", section, re.S).group(1), namespace)  # noqa: S102
    budget = namespace["Budget"]

    for call, message in [
        (lambda: budget(0), "budget: max_tokens must be an integer >= 1, got 0"),
        (lambda: budget(10, mode="stop"), "budget: mode must be one of abort, warn; got 'stop'"),
    ]:
        with pytest.raises(ConfigurationError) as e:
            call()
        assert str(e.value) == message and f"`{message}`" in section
    assert budget(10, words=["a"]).words == ("a",)

    fake_distributions.add("tripwire-budget").entry_point("budget", budget)
    assert "max_tokens (int >= 1, required)" in [
        str(o) for o in tripwire.plugins.available()["budget"].options
    ]
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.create("budget", max_tokens=0)
    assert str(e.value).startswith("processor 'budget': option 'max_tokens' expects int >= 1, got 0")
    assert "`processor 'budget': option 'max_tokens' expects int >= 1, got 0`" in section
