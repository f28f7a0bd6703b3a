"""pii-detector's offline tier: ``name`` and ``address`` in ``detection_types`` without
``model=`` are found by ``tripwire.detectors.names`` / ``.addresses`` (the ``names``
extra), on every path a value can take to the model or the client; without the extra
the error names it and ``model=``; with ``model=`` the judge finds them as before."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from tests.support.helpers import Finder, strings, texts
from tripwire import Chunk, ConfigurationError, tool
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.testing import MockModel, MockResponse

NAME = "Jonas Becker"
ADDRESS = "Musterstraße 12a, 10115 Berlin"
MESSAGE = f"Hallo, hier ist {NAME}. Bitte liefern an {ADDRESS}."
REDACTED = "Hallo, hier ist [NAME]. Bitte liefern an [ADDRESS]."


def offline(**options: Any) -> PIIDetector:
    options.setdefault("detection_types", ["name", "address"])
    options.setdefault("redaction_method", "placeholder")
    return PIIDetector(**options)


def holds(value: Any, needle: str) -> bool:
    return any(needle in s for s in strings(value))


@pytest.fixture
def guarded(make_bare_agent):
    def make(detector: PIIDetector, model: MockModel, **options: Any):
        return make_bare_agent(model=model, input_processors=[detector],
                               output_processors=[detector], **options)
    return make


async def collect(agent: Any, prompt: Any) -> tuple[Any, list[Chunk]]:
    stream = agent.stream(prompt)
    chunks = [c async for c in stream]
    return await stream.result, chunks


def test_name_and_address_without_a_model_use_the_offline_tier():
    pii = offline()
    assert pii.detection_types == ("name", "address")
    assert pii.judged_types == ()
    assert pii.judge is None


def test_without_the_extra_the_error_names_it_and_the_judge(monkeypatch):
    monkeypatch.setitem(sys.modules, "probablepeople", None)
    with pytest.raises(ConfigurationError, match=r"pii-detector: detection type\(s\) name, "
                       r"address need the offline tier or the judge tier: .*probablepeople.*"
                       r"pip install 'tripwire\[names\]'; or give model="):
        offline()


def test_with_a_model_the_judge_finds_names_and_addresses_as_before(monkeypatch):
    pii = PIIDetector(model=Finder({}), detection_types=["name", "address"])
    assert pii.judged_types == ("name", "address")
    monkeypatch.setitem(sys.modules, "gender_guesser", None)  # the extra is not needed
    assert PIIDetector(model=Finder({}), detection_types=["name"]).judged_types == ("name",)


async def test_the_model_never_sees_a_name_or_address_of_the_input(guarded):
    model = MockModel(["ok"])
    result = await guarded(offline(), model).generate(MESSAGE)
    assert not holds(model.requests[0].prompt, NAME)
    assert not holds(model.requests[0].prompt, "Musterstraße")
    assert REDACTED in strings(model.requests[0].prompt)
    assert [(v.channel, list(v.types)) for v in result.verdicts] == [("input", ["name", "address"])]


async def test_a_streamed_name_and_address_split_across_deltas_never_reach_the_client(guarded):
    pieces = ["Hallo, hier ist Jo", "nas Be", "cker. Bitte liefern an Muster", "straße 12a, ",
              "10115 Ber", "lin."]
    model = MockModel([MockResponse(chunks=[{"type": "text-delta", "id": "t1", "text": p}
                                            for p in pieces])])
    result, chunks = await collect(guarded(offline(), model), "hi")
    assert texts(chunks) == REDACTED
    assert result.text == REDACTED
    assert not holds(result.messages, "Becker")


async def test_a_tool_result_is_redacted_before_the_model_sees_it(guarded):
    @tool
    def lookup(query: str) -> dict[str, Any]:
        """Look a customer up."""
        return {"customer": NAME, "shipping": ADDRESS, "tier": "gold"}

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "lookup", "args": {"query": "42"}}]),
                       "done"])
    result, chunks = await collect(guarded(offline(), model, tools=[lookup]), "who is 42?")
    expected = {"customer": "[NAME]", "shipping": "[ADDRESS]", "tier": "gold"}
    assert result.tool_results[0].result == expected
    assert next(c for c in chunks if c.type == "tool-result").payload["result"] == expected
    assert not holds(model.requests[1].prompt, NAME)


async def test_a_tool_call_runs_with_redacted_arguments(guarded):
    calls: list[str] = []

    @tool
    def ship(to: str) -> str:
        """Ship the parcel."""
        calls.append(to)
        return "shipped"

    model = MockModel([MockResponse(tool_calls=[{"tool_name": "ship",
                                                 "args": {"to": f"{NAME}, {ADDRESS}"}}]), "ok"])
    await collect(guarded(offline(), model, tools=[ship]), "ship it")
    assert calls == ["[NAME], [ADDRESS]"]


async def test_tokenize_hides_the_name_from_the_model_and_gives_it_back(guarded):
    model = MockModel(["Danke <NAME_1>, wir liefern an <ADDRESS_1>."])
    result = await guarded(offline(strategy="tokenize"), model).generate(MESSAGE)
    assert "hier ist <NAME_1>. Bitte liefern an <ADDRESS_1>." in strings(
        model.requests[0].prompt)[-1]
    assert result.text == f"Danke {NAME}, wir liefern an {ADDRESS}."


async def test_block_stops_the_run_before_the_model_sees_the_input(guarded):
    model = MockModel(["never"])
    result = await guarded(offline(strategy="block"), model).generate(MESSAGE)
    assert result.tripwire.reason == "PII detected. Types: name, address"
    assert model.requests == []
    assert not holds(result.tripwire, NAME)


@pytest.mark.parametrize(("message", "expected"), [
    ("Bonjour, je suis Marie Dubois, 12 rue de la Paix, 75002 Paris.",
     "Bonjour, je suis [NAME], [ADDRESS]."),
    ("Hola, soy Lucía Fernández. Mi dirección: Calle Mayor, 5, 3º B, 28013 Madrid.",
     "Hola, soy [NAME]. Mi dirección: [ADDRESS]."),
    ("Hi, Margaret O'Connor here, 221B Baker Street, London NW1 6XE.",
     "Hi, [NAME] here, [ADDRESS]."),
])
async def test_the_other_languages_are_redacted_too(guarded, message, expected):
    model = MockModel(["ok"])
    await guarded(offline(), model).generate(message)
    assert expected in strings(model.requests[0].prompt)


async def test_hard_negatives_pass_unchanged(guarded):
    message = ("Das Paket liegt bei Schmidt & Partner GmbH in der Goethestraße; "
               "will you forward it to St. Mary's Hospital in San Francisco?")
    model = MockModel(["ok"])
    result = await guarded(offline(), model).generate(message)
    assert message in strings(model.requests[0].prompt)
    assert result.verdicts == []
