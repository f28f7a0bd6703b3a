"""A processor built in Python with a misspelt, missing or extra option gets the error
``tripwire.plugins.create()`` and configuration files give (the processor, the option,
the valid ones), not Python's bare ``TypeError``: ``Processor`` wraps every subclass's
``__init__`` (``tripwire.option_checks.names_the_valid_options``)."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tripwire
from tripwire import Agent, Processor
from tripwire.errors import ConfigurationError
from tripwire.option_checks import options_of
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.token_limiter import TokenLimiter


def test_a_misspelt_option_names_the_processor_the_option_the_closest_and_the_valid_ones():
    with pytest.raises(ConfigurationError) as info:
        PIIDetector(strateg="redact")  # type: ignore[call-arg]
    assert str(info.value) == (
        "processor 'pii-detector' has no option 'strateg' (did you mean 'strategy'?); valid "
        "options: detection_types, strategy, redaction_method, include_detections, "
        "preserve_format, threshold, regions, detectors, phases, store, model, "
        "type_descriptions, instructions, judge_timeout, judge_stream")


def test_a_typo_reads_the_same_from_python_and_from_a_configuration_file(tmp_path):

    with pytest.raises(ConfigurationError) as python:
        PIIDetector(stratgy="redact")  # type: ignore[call-arg]
    path = tmp_path / "tripwire.toml"
    path.write_text('[agents.a]\nmodel = "openai/x"\n'
                    'output_processors = [{ use = "pii-detector", stratgy = "redact" }]\n')
    with pytest.raises(ConfigurationError) as toml:
        Agent.from_config(path, "a")
    assert str(toml.value) == f"{path}: [agents.a] output_processors[0]: {python.value}"
    assert "(did you mean 'strategy'?)" in str(python.value)
    assert len(str(python.value)) < 300   # names, not ~900 characters of signatures


def test_an_option_nothing_is_close_to_gets_no_suggestion():
    with pytest.raises(ConfigurationError) as info:
        PIIDetector(no_such_option=1)  # type: ignore[call-arg]
    assert "did you mean" not in str(info.value)


def test_the_error_is_still_the_type_error_python_raises_for_such_a_call():
    """Code written before (``except TypeError``) still catches it."""
    from tripwire.errors import OptionError

    with pytest.raises(TypeError) as info:
        PIIDetector(strateg="redact")  # type: ignore[call-arg]
    assert isinstance(info.value, OptionError) and isinstance(info.value, ConfigurationError)
    with pytest.raises(TypeError, match="valid options"):
        tripwire.Agent(id="a", input_processor=[])  # type: ignore[call-arg]


def test_a_missing_option_names_the_processor_the_option_and_the_valid_ones():
    with pytest.raises(ConfigurationError, match=r"^processor 'token-limiter' needs option "
                                                 r"'limit'; valid options: limit, encoding, "):
        TokenLimiter()  # type: ignore[call-arg]


def test_options_given_by_position_to_a_keyword_only_constructor_say_to_name_them():
    with pytest.raises(ConfigurationError, match=r"^processor 'pii-detector' takes its options "
                                                 r"by keyword, got 1 by position: name them; "
                                                 r"valid options: detection_types"):
        PIIDetector("redact")  # type: ignore[misc]


def _builtin_classes() -> list[type]:
    return sorted({info.cls for info in tripwire.plugins.available().values()
                   if info.cls is not None and issubclass(info.cls, Processor)},
                  key=lambda c: c.__name__)


@pytest.mark.parametrize("cls", _builtin_classes(), ids=lambda c: c.__name__)
def test_every_builtin_names_an_unknown_option(cls):
    with pytest.raises(ConfigurationError) as info:
        cls(no_such_option=1)
    assert str(info.value).startswith(f"processor {cls.id!r} has no option 'no_such_option'; "
                                      f"valid options: ")
    assert "did you mean" not in str(info.value)


class Budget(Processor):
    """A third-party processor: it gets the same errors without doing anything."""

    id = "budget"

    def __init__(self, *, max_tokens: int, mode: str = "abort") -> None:
        if mode not in ("abort", "warn"):
            raise TypeError("budget: mode must be 'abort' or 'warn'")   # its own TypeError
        self.max_tokens = max_tokens
        self.mode = mode


class StrictBudget(Budget):
    id = "strict-budget"

    def __init__(self, *, limit: int) -> None:
        super().__init__(max_token=limit)  # type: ignore[call-arg]  # the author's typo


def test_a_third_party_processor_gets_the_same_errors():
    with pytest.raises(ConfigurationError, match=r"^processor 'budget' has no option 'max_token' "
                                                 r"\(did you mean 'max_tokens'\?\); valid options: "
                                                 r"max_tokens, mode$"):
        Budget(max_token=3)  # type: ignore[call-arg]
    with pytest.raises(ConfigurationError, match=r"^processor 'budget' needs option 'max_tokens'"):
        Budget()  # type: ignore[call-arg]
    assert Budget(max_tokens=3).max_tokens == 3


def test_a_type_error_raised_inside_the_constructor_passes_unchanged():
    with pytest.raises(TypeError, match="^budget: mode must be 'abort' or 'warn'$") as info:
        Budget(max_tokens=3, mode="loud")
    assert not isinstance(info.value, ConfigurationError)


def test_a_bad_super_call_names_the_class_whose_signature_did_not_fit():
    """The subclass's own call fits; its call of the base's constructor does not, and the
    error names the base (whose options are the valid ones there)."""
    with pytest.raises(ConfigurationError, match=r"^processor 'budget' has no option "
                                                 r"'max_token' .*; valid options: max_tokens"):
        StrictBudget(limit=3)
    with pytest.raises(ConfigurationError, match=r"^processor 'strict-budget' has no option "
                                                 r"'max_tokens'; valid options: limit$"):
        StrictBudget(max_tokens=3)  # type: ignore[call-arg]


def test_the_signature_and_options_stay_the_constructors():
    assert str(inspect.signature(Budget)) == "(*, max_tokens: 'int', mode: 'str' = 'abort') -> 'None'"
    assert [o.name for o in options_of(Budget)] == ["max_tokens", "mode"]
    assert inspect.unwrap(Budget.__init__).__qualname__ == "Budget.__init__"


def test_a_processor_without_a_constructor_or_with_an_id_per_instance():
    class Plain(Processor):
        id = "plain"

    class Named(Processor):
        def __init__(self, id: str) -> None:
            self.id = id

    assert Plain().id == "plain"
    assert Named("n").id == "n"
    with pytest.raises(ConfigurationError, match=r"^Named has no option 'name'; valid options: "
                                                 r"id$"):
        Named(name="n")  # type: ignore[call-arg]


@given(st.from_regex(r"[a-z_]{1,12}", fullmatch=True).filter(
    lambda n: n not in {"max_tokens", "mode"}))
def test_any_unknown_option_is_named(name):
    with pytest.raises(ConfigurationError) as info:
        Budget(max_tokens=1, **{name: 1})
    assert str(info.value).startswith(f"processor 'budget' has no option {name!r}")
    assert str(info.value).endswith("; valid options: max_tokens, mode")


def test_dataclass_and_attrs_processors_keep_their_generated_constructors():
    """``@dataclass`` and ``@attrs.define`` write ``__init__`` only where the class has
    none: ``Processor`` must not have put one there."""
    import dataclasses

    import attrs

    @dataclasses.dataclass
    class Data(Processor):
        id: str = "data"
        word: str = "x"

    @attrs.define
    class Slotted(Processor):
        id: str = "slotted"
        word: str = "x"

    @attrs.define(slots=False)
    class Plain(Processor):
        id: str = "plain"
        word: str = "x"

    for cls in (Data, Slotted, Plain):
        assert cls(word="y").word == "y"
        assert cls().word == "x"
    with pytest.raises(ConfigurationError, match=r"^Slotted has no option 'wrd' \(did you mean "
                                                 r"'word'\?\); valid options: id, word$"):
        Slotted(wrd="y")  # type: ignore[call-arg]


def test_a_mixins_constructor_is_not_hidden_by_a_base_processor_without_one():
    class Limit:
        def __init__(self, limit: int) -> None:
            self.limit = limit

    class Base(Processor):
        id = "base"

    class Limited(Base, Limit):
        pass

    assert Limited(limit=3).limit == 3
