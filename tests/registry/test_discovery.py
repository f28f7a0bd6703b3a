"""Entry-point discovery with fake distributions (level 1 of 3; the dist-info and
installed-wheel levels are in test_packaging.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Literal

import pytest

import tripwire.plugins
from tripwire import ConfigurationError, Processor, ProcessorValidationError, hookimpl, registry


class Shout(Processor):
    """Upper-cases streamed text."""

    id = "shout"
    description = "Upper-cases streamed text"

    def __init__(self, suffix: str = "!", times: int = 1, mode: Literal["upper", "title"] = "upper"):
        self.suffix = suffix
        self.times = times
        self.mode = mode

    @hookimpl
    def process_output_stream(self, part):
        return part


class Gate(Processor):
    id = "gate"

    def __init__(self, words: list[str], limit: int | None = None):
        if limit is not None and limit < 0:
            raise ValueError("limit must be >= 0")
        self.words = words
        self.limit = limit

    @hookimpl
    async def process_input(self, messages, abort):
        return messages

    @hookimpl
    def process_api_error(self, error):
        return None


class NoHooks(Processor):
    id = "no-hooks"


class Misspelt(Processor):
    id = "misspelt"

    @hookimpl
    def process_inputs(self, messages):
        return messages


def register_hello(subparsers):
    subparsers.add_parser("hello")


@pytest.fixture
def two(fake_distributions):
    fake_distributions.add("tripwire-shout", "1.2.0").entry_point("shout", Shout)
    fake_distributions.add("tripwire-gate", "0.3").entry_point("gate", Gate)
    return fake_distributions


def test_available_lists_name_distribution_version_class_and_hooks(two):
    found = tripwire.plugins.available()
    assert list(found) == ["gate", "shout"]
    shout = found["shout"]
    assert (shout.distribution, shout.version, shout.cls, shout.status) == (
        "tripwire-shout", "1.2.0", Shout, "ok",
    )
    assert shout.hooks == ("process_output_stream",)
    assert shout.value == "fake_module:Shout"
    assert shout.description == "Upper-cases streamed text"
    assert found["gate"].hooks == ("process_input", "process_api_error")


def test_create_builds_the_processor_with_its_options(two):
    shout = tripwire.plugins.create("shout", suffix="?", times=3)
    assert isinstance(shout, Shout)
    assert (shout.suffix, shout.times) == ("?", 3)


def test_create_rejects_an_unknown_option_naming_it_and_the_valid_ones(two):
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.create("shout", sufix="?")
    msg = str(e.value)
    assert msg == ("processor 'shout' has no option 'sufix' (did you mean 'suffix'?); valid "
                   "options: suffix, times, mode")


def test_create_rejects_a_wrong_type_naming_processor_and_option(two):
    with pytest.raises(ConfigurationError, match=r"processor 'shout': option 'times' expects int"):
        tripwire.plugins.create("shout", times="3")
    with pytest.raises(ConfigurationError, match=r"option 'words' expects list\[str\]"):
        tripwire.plugins.create("gate", words="secret")  # not silently split into letters
    with pytest.raises(ConfigurationError, match=r"expected str @ value\[1\]"):
        tripwire.plugins.create("gate", words=["a", 2])
    with pytest.raises(ConfigurationError, match=r"option 'mode' must be one of 'upper', 'title'"):
        tripwire.plugins.create("shout", mode="lower")


def test_create_reports_a_missing_required_option(two):
    with pytest.raises(ConfigurationError, match=r"processor 'gate' needs option 'words'"):
        tripwire.plugins.create("gate")


def test_create_turns_a_constructor_value_error_into_a_configuration_error(two):
    with pytest.raises(ConfigurationError, match="processor 'gate': limit must be >= 0") as e:
        tripwire.plugins.create("gate", words=[], limit=-1)
    assert isinstance(e.value.__cause__, ValueError)


def test_a_constructor_error_that_names_the_processor_is_not_prefixed_twice():
    """The built-ins' own checks say ``pii-detector: ...``; create() adds the processor
    once, not ``processor 'pii-detector': pii-detector: ...``."""
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.create("pii-detector", detection_types=["emial"])
    assert str(e.value).startswith("processor 'pii-detector': unknown detection type(s) emial")


@pytest.mark.parametrize(("name", "options", "said"), [
    ("message-history", {}, "option 'store' is required: a URL such as 'sqlite:///chat.db'"),
    ("working-memory", {}, "option 'store' is required"),
    ("semantic-recall", {"store": "memory://"}, "option 'embedder' is required: a router id"),
])
def test_a_memory_processors_missing_store_or_embedder_names_it_once(name, options, said):
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.create(name, **options)
    assert str(e.value).startswith(f"processor {name!r}: {said}")
    assert str(e.value).count(name) == 1


class NeedsTorch(Processor):
    id = "needs-torch"

    def __init__(self):
        raise RuntimeError("torch is not installed; pip install tripwire-x[torch]")

    @hookimpl
    def process_input(self, messages):
        return messages


def test_create_turns_any_constructor_error_into_one_configuration_error(fake_distributions):
    fake_distributions.add("tripwire-x").entry_point("needs-torch", NeedsTorch)
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.create("needs-torch")
    assert str(e.value) == (
        "processor 'needs-torch': RuntimeError: torch is not installed; "
        "pip install tripwire-x[torch]"
    )
    assert isinstance(e.value.__cause__, RuntimeError)


def test_options_are_read_from_the_constructor_signature(two):
    found = tripwire.plugins.available()
    assert [(o.name, o.type, o.default, o.required) for o in found["shout"].options] == [
        ("suffix", "str", "!", False),
        ("times", "int", 1, False),
        ("mode", "Literal['upper', 'title']", "upper", False),
    ]
    assert [str(o) for o in found["gate"].options] == [
        "words (list[str], required)", "limit (int | None, default None)",
    ]


def test_a_processor_without_a_constructor_has_no_options(fake_distributions):
    fake_distributions.add("tripwire-x").entry_point("misspelt-free", NoHooksButOne)
    assert tripwire.plugins.available()["misspelt-free"].options == ()


def test_a_broken_plugin_has_no_options(fake_distributions):
    fake_distributions.add("tripwire-x").entry_point("gone", ImportError("gone"))
    assert tripwire.plugins.available()["gone"].options == ()


class NoHooksButOne(Processor):
    id = "misspelt-free"

    @hookimpl
    def process_input(self, messages):
        return messages


def test_create_of_an_unknown_name_lists_the_available_ones(two):
    with pytest.raises(ConfigurationError, match=r"unknown processor 'shot'; available: gate, shout"):
        tripwire.plugins.create("shot")


def test_a_broken_plugin_is_listed_and_does_not_hide_the_others(fake_distributions):
    fake_distributions.add("tripwire-shout", "1.0").entry_point("shout", Shout)
    fake_distributions.add("tripwire-broken", "2.1").entry_point(
        "broken", ImportError("No module named 'numpyy'"), value="tripwire_broken:Broken"
    )
    found = tripwire.plugins.available()
    assert found["shout"].status == "ok"
    broken = found["broken"]
    assert (broken.status, broken.cls, broken.distribution) == ("broken", None, "tripwire-broken")
    assert isinstance(broken.error, ImportError)


def test_creating_a_broken_plugin_names_it_its_distribution_and_the_cause(fake_distributions):
    cause = ImportError("No module named 'numpyy'")
    fake_distributions.add("tripwire-broken", "2.1").entry_point(
        "broken", cause, value="tripwire_broken:Broken"
    )
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.create("broken")
    assert str(e.value) == (
        "processor 'broken' from distribution tripwire-broken 2.1 (tripwire_broken:Broken) "
        "failed to load: ImportError: No module named 'numpyy'"
    )
    assert e.value.__cause__ is cause


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (lambda: None, "must name a processor class, got function"),
        (NoHooks, "NoHooks implements no tripwire hook"),
        (Misspelt, "Misspelt marks unknown hook(s) process_inputs; valid hook names: process_input,"),
    ],
)
def test_an_entry_point_that_is_not_a_processor_class_is_broken(fake_distributions, target, message):
    fake_distributions.add("tripwire-odd").entry_point("odd", target)
    odd = tripwire.plugins.available()["odd"]
    assert odd.status == "broken"
    assert message in str(odd.error)


def test_create_validates_the_processor_against_the_hookspecs(fake_distributions):
    class BadArgs(Processor):
        id = "bad-args"

        @hookimpl
        def process_input(self, messages, colour):
            return messages

    fake_distributions.add("tripwire-bad").entry_point("bad-args", BadArgs)
    with pytest.raises(ProcessorValidationError, match="declares argument"):
        tripwire.plugins.create("bad-args")


def test_an_entry_point_listed_twice_by_one_distribution_is_one_plugin(fake_distributions):
    # setuptools #3649: editable installs may list an entry point twice.
    dist = fake_distributions.add("tripwire-shout", "1.0")
    dist.entry_point("shout", Shout).entry_point("shout", Shout)
    found = tripwire.plugins.available()
    assert list(found) == ["shout"] and found["shout"].status == "ok"


def test_a_distribution_found_twice_on_the_path_counts_once_first_wins(fake_distributions):
    fake_distributions.add("tripwire-shout", "2.0").entry_point("shout", Shout)
    fake_distributions.add("tripwire_shout", "1.0").entry_point("shout", Gate)
    found = tripwire.plugins.available()
    assert (found["shout"].version, found["shout"].cls, found["shout"].status) == ("2.0", Shout, "ok")


def test_two_distributions_claiming_one_name_make_it_broken_naming_both(fake_distributions):
    fake_distributions.add("tripwire-shout").entry_point("shout", Shout, value="a:Shout")
    fake_distributions.add("other-shout").entry_point("shout", Gate, value="b:Gate")
    shout = tripwire.plugins.available()["shout"]
    assert shout.status == "broken"
    assert "by tripwire-shout (a:Shout) and by other-shout (b:Gate)" in str(shout.error)


def test_entry_points_of_other_groups_are_ignored(fake_distributions):
    fake_distributions.add("something").entry_point("shout", Shout, group="console_scripts")
    assert tripwire.plugins.available() == {}


def test_the_scan_is_lazy_and_happens_once(two):
    assert two.calls == 0
    tripwire.plugins.available()
    tripwire.plugins.create("shout")
    registry.current().plugins("tripwire.commands")
    tripwire.plugins.available()
    assert two.calls == 1


def test_concurrent_first_calls_scan_once(two):
    barrier = threading.Barrier(6)
    results = []

    def first_call():
        barrier.wait()
        results.append(sorted(tripwire.plugins.available()))

    threads = [threading.Thread(target=first_call) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [["gate", "shout"]] * 6
    assert two.calls == 1


def test_reset_forgets_the_scan(two):
    tripwire.plugins.available()
    two.add("tripwire-late").entry_point("late", Shout)
    assert "late" not in tripwire.plugins.available()
    registry.reset()
    assert "late" in tripwire.plugins.available()
    assert two.calls == 2


def test_importing_tripwire_does_not_scan_entry_points():
    code = (
        "import importlib.metadata as m\n"
        "calls = []\n"
        "orig = m.distributions\n"
        "m.distributions = lambda **kw: (calls.append(1), orig(**kw))[1]\n"
        "import tripwire, tripwire.plugins, tripwire.config, tripwire.cli\n"
        "print(len(calls))\n"
        "tripwire.plugins.available(); tripwire.plugins.available()\n"
        "print(len(calls))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={"TRIPWIRE_LOAD_PLUGINS": "", "PATH": ""},
    ).stdout.split()
    assert out == ["0", "1"]


# -------------------------------------------------------- environment


def test_disable_plugins_hides_the_names_everywhere(two, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "shout")
    assert list(tripwire.plugins.available()) == ["gate"]
    plugins = registry.current()
    assert plugins.is_blocked("tripwire.processors", "shout")
    assert not plugins.is_blocked("tripwire.processors", "gate")
    assert plugins.hidden("tripwire.processors") == {
        "shout": "disabled by TRIPWIRE_DISABLE_PLUGINS"}
    with pytest.raises(ConfigurationError, match="'shout' is disabled by TRIPWIRE_DISABLE_PLUGINS"):
        tripwire.plugins.create("shout")


def test_disable_plugins_ignores_spaces_and_empty_names(two, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", " shout , ")
    assert list(tripwire.plugins.available()) == ["gate"]
    assert registry.current().is_blocked("tripwire.processors", "shout")


def test_load_plugins_makes_only_those_names_visible(two, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "gate")
    assert list(tripwire.plugins.available()) == ["gate"]
    with pytest.raises(ConfigurationError, match="'shout' is not listed in TRIPWIRE_LOAD_PLUGINS"):
        tripwire.plugins.create("shout")


def test_load_plugins_set_but_empty_means_none(two, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "")
    assert tripwire.plugins.available() == {}


def test_load_plugins_does_not_import_the_others(fake_distributions, monkeypatch):
    fake_distributions.add("tripwire-shout").entry_point("shout", Shout)
    broken = fake_distributions.add("tripwire-broken").entry_point("broken", ImportError("boom"))
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "shout")
    assert list(tripwire.plugins.available()) == ["shout"]
    assert broken.entry_points[0].loads == 0


@pytest.mark.parametrize("var", ["TRIPWIRE_DISABLE_PLUGINS", "TRIPWIRE_LOAD_PLUGINS"])
def test_an_unknown_name_in_the_environment_lists_the_available_ones(two, monkeypatch, var):
    monkeypatch.setenv(var, "gate,shuot")
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.available()
    assert str(e.value) == f"{var} names unknown processor(s) shuot; available: gate, shout"


def test_disable_wins_over_load(two, monkeypatch):
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "gate,shout")
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "gate")
    assert list(tripwire.plugins.available()) == ["shout"]


# -------------------------------------------------------- commands


def test_command_plugins_are_discovered_in_their_own_group(fake_distributions):
    dist = fake_distributions.add("tripwire-hello", "0.1")
    dist.entry_point("hello", register_hello, group="tripwire.commands")
    dist.entry_point("bye", ImportError("gone"), group="tripwire.commands")
    cmds = registry.current().plugins("tripwire.commands")
    assert cmds["hello"].target is register_hello and cmds["hello"].status == "ok"
    assert cmds["bye"].status == "broken" and str(cmds["bye"].error) == "gone"
    assert tripwire.plugins.available() == {}

