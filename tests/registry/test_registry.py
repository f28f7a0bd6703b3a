"""One registry for every entry point group (tripwire.registry): model providers get
the lazy single scan, de-duplication, broken-plugin record and environment block list
processors have, and a new group needs only a ``Group``."""

from __future__ import annotations

import json

import pytest

import tripwire.caches
import tripwire.caches.memory
import tripwire.memory
import tripwire.models
import tripwire.plugins
from tripwire import (
    Agent,
    ConfigurationError,
    MissingDependencyError,
    Processor,
    hookimpl,
    registry,
)
from tripwire.cli import main
from tripwire.models import register_provider, resolve_model
from tripwire.registry import discovery as _discovery
from tripwire.testing import FakePlugins, MockModel


class Acme:
    """A model provider's model: ``acme/<id>``."""

    provider = "acme"

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    async def stream(self, request):
        yield  # never called here


class Shout(Processor):
    id = "shout"

    @hookimpl
    def process_output_stream(self, part):
        return part


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ model providers


def test_an_installed_provider_resolves_through_the_registry(fake_distributions):
    fake_distributions.add("tripwire-acme", "1.0").entry_point("acme", Acme, group="tripwire.models")

    model = resolve_model("acme/rocket-1")

    assert isinstance(model, Acme) and model.model_id == "rocket-1"
    acme = tripwire.models.available()["acme"]
    assert (acme.distribution, acme.version, acme.status) == ("tripwire-acme", "1.0", "ok")


def test_listing_providers_imports_none_of_them(fake_distributions):
    dist = fake_distributions.add("tripwire-acme").entry_point("acme", Acme, group="tripwire.models")

    assert list(tripwire.models.providers()) == ["acme"]
    assert dist.entry_points[0].loads == 0
    resolve_model("acme/x")
    resolve_model("acme/y")
    assert dist.entry_points[0].loads == 1


def test_a_broken_provider_is_recorded_and_raised_only_when_used(fake_distributions):
    cause = ImportError("No module named 'acme_sdk'")
    fake_distributions.add("tripwire-acme", "2.1").entry_point(
        "acme", cause, group="tripwire.models", value="tripwire_acme:from_router"
    )
    fake_distributions.add("tripwire-other").entry_point("other", Acme, group="tripwire.models")

    found = tripwire.models.available()
    assert (found["acme"].status, found["other"].status) == ("broken", "ok")
    assert found["acme"].error is cause
    assert isinstance(resolve_model("other/x"), Acme)
    with pytest.raises(ConfigurationError) as e:
        resolve_model("acme/x")
    assert str(e.value) == (
        "model provider 'acme' from distribution tripwire-acme 2.1 (tripwire_acme:from_router) "
        "failed to load: ImportError: No module named 'acme_sdk'"
    )
    assert e.value.__cause__ is cause


def test_a_provider_entry_point_that_is_not_callable_is_broken(fake_distributions):
    fake_distributions.add("tripwire-acme").entry_point(
        "acme", "not a factory", group="tripwire.models", value="tripwire_acme:NAME"
    )
    acme = tripwire.models.available()["acme"]
    assert acme.status == "broken"
    assert str(acme.error) == (
        "model provider entry point acme = tripwire_acme:NAME must be a factory "
        "function(model_id) -> Model, got str"
    )


def test_a_provider_listed_twice_by_one_distribution_is_one_provider(fake_distributions):
    dist = fake_distributions.add("tripwire-acme")
    dist.entry_point("acme", Acme, group="tripwire.models")
    dist.entry_point("acme", Acme, group="tripwire.models")
    assert tripwire.models.available()["acme"].status == "ok"


def test_two_distributions_claiming_one_provider_make_it_broken_naming_both(fake_distributions):
    fake_distributions.add("tripwire-acme").entry_point(
        "acme", Acme, group="tripwire.models", value="a:f"
    )
    fake_distributions.add("acme-fork").entry_point("acme", Acme, group="tripwire.models", value="b:f")
    with pytest.raises(ConfigurationError, match=r"by tripwire-acme \(a:f\) and by acme-fork \(b:f\)"):
        resolve_model("acme/x")


def test_disable_plugins_hides_a_provider(fake_distributions, monkeypatch):
    fake_distributions.add("tripwire-acme").entry_point("acme", Acme, group="tripwire.models")
    fake_distributions.add("tripwire-shout").entry_point("shout", Shout)
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "acme")

    assert tripwire.models.providers() == {}
    assert tripwire.models.hidden() == {"acme": "disabled by TRIPWIRE_DISABLE_PLUGINS"}
    with pytest.raises(ConfigurationError, match="model provider 'acme' is disabled by "
                                                 "TRIPWIRE_DISABLE_PLUGINS"):
        resolve_model("acme/x")
    assert list(tripwire.plugins.available()) == ["shout"]  # a provider's name is known


def test_load_plugins_narrows_processors_not_providers(fake_distributions, monkeypatch):
    fake_distributions.add("tripwire-acme").entry_point("acme", Acme, group="tripwire.models")
    fake_distributions.add("tripwire-shout").entry_point("shout", Shout)
    monkeypatch.setenv("TRIPWIRE_LOAD_PLUGINS", "")

    assert tripwire.plugins.available() == {}
    assert isinstance(resolve_model("acme/x"), Acme)


def test_an_unknown_disabled_name_lists_processors_and_providers(fake_distributions, monkeypatch):
    fake_distributions.add("tripwire-acme").entry_point("acme", Acme, group="tripwire.models")
    fake_distributions.add("tripwire-shout").entry_point("shout", Shout)
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "acmee")

    message = (
        "TRIPWIRE_DISABLE_PLUGINS names unknown processor(s) or model provider(s) acmee; "
        "available processors: shout; model providers: acme"
    )
    with pytest.raises(ConfigurationError) as e:
        resolve_model("acme/x")
    assert str(e.value) == message
    with pytest.raises(ConfigurationError) as e:
        tripwire.plugins.available()
    assert str(e.value) == message


def test_a_provider_registered_at_run_time_wins_over_an_installed_one(fake_distributions):
    fake_distributions.add("tripwire-acme").entry_point("acme", Acme, group="tripwire.models")
    register_provider("acme", lambda model_id: MockModel())

    assert isinstance(resolve_model("acme/x"), MockModel)
    assert tripwire.models.available()["acme"].distribution is None


def test_registering_a_provider_that_is_not_callable_is_a_type_error(fake_distributions):
    with pytest.raises(TypeError, match="must be a factory function"):
        register_provider("acme", "acme")


def test_reset_forgets_providers_registered_at_run_time_fake_plugins_keeps_them(fake_distributions):
    register_provider("local", lambda model_id: MockModel())
    with FakePlugins() as fake:
        fake({"shout": Shout})
        assert "local" in tripwire.models.providers()
    assert "local" in tripwire.models.providers()
    _discovery.reset()
    assert "local" not in tripwire.models.providers()


def test_an_agent_from_a_faked_provider(fake_plugins):
    fake_plugins({"acme": lambda model_id: MockModel([f"{model_id} says hi"])},
                 group="tripwire.models")
    agent = Agent(id="a", model="acme/rocket-1")
    assert agent.generate_sync("Hi").text == "rocket-1 says hi"


def test_one_scan_serves_every_group(fake_distributions):
    dist = fake_distributions.add("tripwire-all")
    dist.entry_point("acme", Acme, group="tripwire.models")
    dist.entry_point("shout", Shout)
    dist.entry_point("hello", lambda subparsers: None, group="tripwire.commands")
    assert fake_distributions.calls == 0  # nothing at import or fixture time

    tripwire.models.providers()
    tripwire.plugins.available()
    _discovery.commands()
    resolve_model("acme/x")

    assert fake_distributions.calls == 1


# ------------------------------------------------------------------ tripwire models


def test_tripwire_models_shows_a_broken_provider_with_its_error(fake_distributions, capsys):
    fake_distributions.add("tripwire-acme", "1.0").entry_point("acme", Acme, group="tripwire.models")
    fake_distributions.add("tripwire-bad", "0.1").entry_point(
        "bad", ImportError("No module named 'torch'"), group="tripwire.models"
    )
    code, out, _ = cli(capsys, "models")
    assert code == 0
    assert out.splitlines() == [
        "PROVIDER  DISTRIBUTION",
        "acme      tripwire-acme",
        "bad       tripwire-bad",
        "  broken: ImportError: No module named 'torch'",
    ]
    _, out, _ = cli(capsys, "models", "--json")
    assert json.loads(out) == [
        {"name": "acme", "distribution": "tripwire-acme"},
        {"name": "bad", "distribution": "tripwire-bad",
         "error": "ImportError: No module named 'torch'"},
    ]


def test_tripwire_models_notes_hidden_providers(fake_distributions, capsys, monkeypatch):
    fake_distributions.add("tripwire-acme").entry_point("acme", Acme, group="tripwire.models")
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "acme")
    code, out, _ = cli(capsys, "models")
    assert (code, out) == (
        0,
        "No model providers installed (entry point group tripwire.models).\n"
        "hidden: acme (disabled by TRIPWIRE_DISABLE_PLUGINS)\n",
    )


# ------------------------------------------------------------------ a new group


def _cache_class(name, value, target):
    if not isinstance(target, type):
        raise TypeError(f"cache entry point {name} = {value} must name a class")


CACHES = registry.Group("tripwire.caches", "cache", _cache_class, disable_env=True)


class Memory:
    pass


@pytest.fixture
def caches(fake_distributions):
    return registry.Registry([registry.PROCESSORS, CACHES])


def test_a_new_group_gets_the_same_registry(fake_distributions, caches, monkeypatch):
    dist = fake_distributions.add("tripwire-memory", "3.0")
    dist.entry_point("memory", Memory, group="tripwire.caches")
    dist.entry_point("memory", Memory, group="tripwire.caches")  # setuptools #3649
    fake_distributions.add("tripwire-bad").entry_point(
        "disk", ImportError("no disk"), group="tripwire.caches"
    )
    fake_distributions.add("tripwire-odd").entry_point("odd", len, group="tripwire.caches")
    fake_distributions.add("tripwire-gone").entry_point("gone", Memory, group="tripwire.caches")
    monkeypatch.setenv("TRIPWIRE_DISABLE_PLUGINS", "gone")

    found = caches.plugins(CACHES)
    assert list(found) == ["disk", "memory", "odd"]
    assert (found["memory"].target, found["memory"].version) == (Memory, "3.0")
    assert str(found["disk"].error) == "no disk"
    assert "must name a class" in str(found["odd"].error)
    assert caches.hidden(CACHES) == {"gone": "disabled by TRIPWIRE_DISABLE_PLUGINS"}
    with pytest.raises(ConfigurationError, match="^cache 'gone' is disabled by"):
        caches.get(CACHES, "gone")
    with pytest.raises(ConfigurationError, match="^unknown cache 'memroy'; available: disk, "):
        caches.get(CACHES, "memroy")
    assert fake_distributions.calls == 1


def test_a_group_the_registry_does_not_serve_is_named(caches):
    with pytest.raises(ValueError, match="unknown entry point group 'tripwire.models'; valid: "
                                         "tripwire.processors, tripwire.caches"):
        caches.names("tripwire.models")


# ------------------------------------------------------------------ plugins published beside tripwire


@pytest.mark.parametrize(
    ("ask", "distribution", "install"),
    [
        (lambda: tripwire.caches.open_cache("redis://127.0.0.1:6379/0"), "tripwire-redis",
         "pip install ./contrib/redis"),
        (lambda: tripwire.caches.open_cache("rediss://cache.example:6380/0"), "tripwire-redis",
         "pip install ./contrib/redis"),
        (lambda: tripwire.plugins.create("keyword-guard", patterns=["x"]),
         "tripwire-keyword-guard", "pip install ./contrib/keyword-guard"),
        (lambda: tripwire.memory.open_store("postgresql://db.example/chat"),
         "tripwire-postgres", "pip install ./contrib/postgres"),
    ],
    ids=["redis", "rediss", "keyword-guard", "postgresql"],
)
def test_a_plugin_of_a_contrib_distribution_not_installed_says_what_to_install(
        fake_distributions, ask, distribution, install):
    fake_distributions.add("tripwire").entry_point(
        "memory", tripwire.caches.memory.MemoryCache.from_url, group="tripwire.caches")
    with pytest.raises(MissingDependencyError) as raised:
        ask()
    message = str(raised.value)
    assert f"comes with the distribution {distribution}, which is not installed" in message
    assert install in message
    assert isinstance(raised.value, ConfigurationError)


def test_an_unknown_name_that_no_contrib_distribution_provides_stays_unknown(fake_distributions):
    with pytest.raises(ConfigurationError, match="unknown cache backend 'nope'; available: ") as e:
        tripwire.caches.open_cache("nope://x")
    assert not isinstance(e.value, MissingDependencyError)
