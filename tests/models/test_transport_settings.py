"""One transport settings object for every HTTP provider."""

from __future__ import annotations

import pytest

from tripwire import ConfigurationError
from tripwire.models import Anthropic, OpenAICompatible, Timeout, Transport


def test_every_provider_takes_one_transport_object():
    transport = Transport(max_retries=5, timeout=30, headers={"x-team": "a"},
                          max_event_bytes=1024)
    openai = OpenAICompatible("http://127.0.0.1:9/v1", None, "m", transport=transport)
    anthropic = Anthropic(model="c", api_key="k", transport=transport)
    for model in (openai, anthropic):
        assert model.transport is transport
        assert (model.max_retries, model.max_event_bytes) == (5, 1024)
        assert model.timeout == Timeout(connect=30.0, read=30.0)


def test_keyword_options_override_the_transport_object():
    base = Transport(max_retries=5, timeout=30)
    model = OpenAICompatible("http://127.0.0.1:9/v1", None, "m", transport=base, max_retries=0)
    assert model.transport == Transport(max_retries=0, timeout=30)
    assert base.max_retries == 5  # the shared object is not changed
    assert OpenAICompatible("http://127.0.0.1:9/v1", None, "m").transport == Transport()


@pytest.mark.parametrize(("options", "message"), [
    ({"max_retries": -1}, "max_retries must be"),
    ({"max_event_bytes": 0}, "max_event_bytes must be"),
    ({"max_connections": 0}, "max_connections must be"),
    ({"retry_max_delay": -2}, "retry_max_delay must be >= 0 seconds"),
    ({"timeout": "soon"}, "timeout must be a positive number of seconds"),
])
def test_bad_transport_settings_are_clear_errors(options, message):
    with pytest.raises(ConfigurationError, match=message):
        Transport(**options)
    with pytest.raises(ConfigurationError, match=message):
        OpenAICompatible("http://127.0.0.1:9/v1", None, "m", **options)


def test_an_unknown_provider_option_lists_the_valid_ones():
    with pytest.raises(ConfigurationError, match=r"unknown provider option\(s\) \['retries'\]; "
                                                 r"valid: max_retries, timeout, headers"):
        Anthropic(model="c", retries=3)


async def test_max_connections_bounds_the_connections_to_the_server(tmp_path):
    """More concurrent calls than ``max_connections`` wait for a connection: the limit
    is the connection pool's (100 unless set, e.g. from TOML)."""
    from tripwire.config import load_config

    path = tmp_path / "t.toml"
    path.write_text('[agents.a]\nmodel = "models.m"\n[models.m]\nuse = "openai-compatible"\n'
                    'base_url = "http://127.0.0.1:9/v1"\nmodel = "x"\nmax_connections = 500\n')
    model = load_config(path).model("models.m")
    default = OpenAICompatible("http://127.0.0.1:9/v1", None, "m")
    try:
        assert (await model._get_session()).limit == 500  # (the connection pool's)
        assert (await default._get_session()).limit == 100
    finally:
        await model.aclose()
        await default.aclose()
