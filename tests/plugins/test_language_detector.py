"""language-detector: offline detection (py3langid), the four strategies, the options,
translation through a judge (MockModel verdicts, and the HTTP providers against the local
server in both wire formats), discovery and TOML."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.fake_llm_server import ErrorReply, Reply
from tripwire import Agent, ConfigurationError, JudgeError, Message, ProcessorError
from tripwire.guards.verdicts import Verdict
from tripwire.messages import FilePart, TextPart
from tripwire.plugins.language_detector import (
    INSTRUCTIONS,
    LANGUAGES,
    TRANSLATION_SCHEMA,
    LanguageDetector,
)
from tripwire.processor import ProcessorViolation
from tripwire.testing import MockModel, MockResponse

ENGLISH = "What is the weather like in Paris today?"
GERMAN = "Wie ist das Wetter heute in Berlin?"
FRENCH = "Quel temps fait-il à Paris aujourd'hui ?"
SPANISH = "¿Qué tiempo hace hoy en Madrid?"
JAPANESE = "今日の東京の天気はどうですか？"


def seen_by_model(agent) -> list[str]:
    """The user texts of the model's first request."""
    return [p["text"] for m in agent.model.requests[0].prompt if m["role"] == "user"
            for p in m["content"] if p["type"] == "text"]


def input_metadata(result) -> list[dict | None]:
    """``language_detection`` of each input message of the run."""
    return [(m.content.metadata or {}).get("language_detection")
            for m in result.message_list.input.db()]


def translation(text: str, source: str = "German") -> str:
    return json.dumps({"translated_text": text, "source_language": source})


# ------------------------------------------------------------------ detection


@pytest.mark.parametrize(("text", "code", "name"), [
    (ENGLISH, "en", "English"),
    (GERMAN, "de", "German"),
    (FRENCH, "fr", "French"),
    (SPANISH, "es", "Spanish"),
    (JAPANESE, "ja", "Japanese"),
])
def test_short_samples_of_five_languages_are_recognised(text, code, name):
    found = LanguageDetector().detect(text)
    assert (found["iso_code"], found["detected_language"]) == (code, name)
    assert 0.7 <= found["confidence"] <= 1
    assert found["is_target_language"] is (code == "en")


def test_text_shorter_than_min_text_length_is_not_classified():
    text = "  Ich bin müde  "  # 12 characters, stripped
    assert LanguageDetector(min_text_length=13).detect(text) is None
    assert LanguageDetector(min_text_length=12).detect(text)["iso_code"] == "de"


def test_a_detection_below_the_threshold_is_no_detection():
    text = "Necesito ayuda con mi pedido."
    confidence = LanguageDetector(threshold=0).detect(text)["confidence"]
    assert 0 < confidence < 1
    assert LanguageDetector(threshold=min(1.0, confidence + 0.01)).detect(text) is None
    assert LanguageDetector(threshold=confidence).detect(text)["iso_code"] == "es"


def test_text_without_language_is_no_detection():
    assert LanguageDetector(threshold=0).detect("12345 67890 !!! ???") is None


def test_detection_details_name_the_next_likely_languages():
    found = LanguageDetector(include_detection_details=True).detect(SPANISH)
    details = found["details"]
    assert details["detector"] == "py3langid" and details["characters"] == len(SPANISH)
    assert 1 <= len(details["alternatives"]) <= 3
    assert all(set(a) == {"language", "iso_code", "confidence"} and a["iso_code"] != "es"
               for a in details["alternatives"])
    assert "details" not in LanguageDetector().detect(SPANISH)


def test_every_language_the_classifier_knows_has_a_name():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    labels = set(LanguageIdentifier.from_model_file(MODEL_FILE).labels) - {"zxx"}
    assert labels <= set(LANGUAGES)


# ------------------------------------------------------------------ options


def test_defaults():
    guard = LanguageDetector()
    assert guard.target_languages == ["English", "en"] and guard.target_codes == ["en"]
    assert (guard.threshold, guard.strategy, guard.preserve_original, guard.min_text_length,
            guard.include_detection_details, guard.fail_open, guard.judge) == (
        0.7, "detect", True, 10, False, False, None)


def test_target_languages_take_names_and_codes_with_or_without_a_region():
    guard = LanguageDetector(target_languages=["german", "FR", "pt-BR", "es_MX", "de"])
    assert guard.target_codes == ["de", "fr", "pt", "es"]
    assert guard.target_language == "German"


@pytest.mark.parametrize(("options", "message"), [
    ({"target_languages": []}, "at least one language"),
    ({"target_languages": ["Klingon", "xx"]}, r"unknown language\(s\) \['Klingon', 'xx'\]"),
    ({"target_languages": "en"}, "target_languages"),
    ({"threshold": 1.5}, "threshold"),
    ({"threshold": "0.7"}, "threshold"),
    ({"strategy": "filter"}, "strategy"),
    ({"preserve_original": "yes"}, "preserve_original"),
    ({"min_text_length": -1}, "min_text_length"),
    ({"include_detection_details": 1}, "include_detection_details"),
    ({"strategy": "translate"}, "strategy 'translate' needs model="),
    ({"instructions": "Use British spelling."},
     "instructions are the translating model's and need strategy 'translate'"),
    ({"strategy": "translate", "model": MockModel([]), "instructions": 3}, "instructions"),
])
def test_bad_options_are_named(options, message):
    with pytest.raises(ConfigurationError, match=message):
        LanguageDetector(**options)


def test_a_missing_library_names_the_extra(monkeypatch):
    import sys

    from tripwire import MissingDependencyError
    from tripwire.plugins import language_detector

    language_detector._identifier.cache_clear()
    monkeypatch.setitem(sys.modules, "py3langid", None)
    monkeypatch.setitem(sys.modules, "py3langid.langid", None)
    try:
        with pytest.raises(MissingDependencyError, match=r"pip install 'tripwire\[language\]'"):
            LanguageDetector()
    finally:
        language_detector._identifier.cache_clear()


# ------------------------------------------------------------ strategies on input


async def test_target_language_is_recorded_and_passes(make_bare_agent):
    agent = make_bare_agent(["Sunny."], input_processors=[LanguageDetector(strategy="block")])
    result = await agent.generate(ENGLISH)

    assert result.text == "Sunny." and seen_by_model(agent) == [ENGLISH]
    (found,) = input_metadata(result)
    assert found["is_target_language"] is True
    assert (found["detected_language"], found["iso_code"]) == ("English", "en")
    assert found["target_languages"] == ["English", "en"] and found["confidence"] >= 0.7
    assert result.verdicts == []


async def test_detect_records_a_foreign_language_and_changes_nothing(make_bare_agent):
    violations: list[ProcessorViolation] = []
    guard = LanguageDetector()
    guard.on_violation = violations.append
    agent = make_bare_agent(["Sonnig."], input_processors=[guard])
    result = await agent.generate(GERMAN)

    assert seen_by_model(agent) == [GERMAN] and result.tripwire is None
    (found,) = input_metadata(result)
    assert set(found) == {"detected_language", "iso_code", "confidence", "is_target_language",
                          "target_languages"}
    assert (found["detected_language"], found["iso_code"], found["is_target_language"]) == (
        "German", "de", False)
    assert violations == [] and result.verdicts == []


async def test_block_stops_the_run_with_the_reference_message(make_bare_agent):
    agent = make_bare_agent(["unused"], input_processors=[LanguageDetector(strategy="block")])
    result = await agent.generate(FRENCH)

    assert agent.model.requests == []
    assert result.finish_reason == "other" and result.text == ""
    confidence = result.tripwire.metadata["language_detection"]["confidence"]
    assert result.tripwire.reason == (
        f"Non-target language detected: Language detected: French (fr) with confidence "
        f"{confidence:.2f}")
    assert result.tripwire.processor_id == "language-detector"
    meta = result.tripwire.metadata
    assert (meta["channel"], meta["strategy"], meta["action"], meta["types"]) == (
        "input", "block", "blocked", ["non-target-language"])
    assert FRENCH not in json.dumps(meta)


async def test_block_in_a_stream_ends_it_with_a_tripwire_chunk(make_bare_agent):
    stream = make_bare_agent(["unused"], input_processors=[LanguageDetector(
        strategy="block")]).stream(JAPANESE)
    chunks = [c async for c in stream]
    assert chunks[-1].type == "tripwire"
    assert re.fullmatch(
        r"Non-target language detected: Language detected: Japanese \(ja\) with confidence "
        r"[01]\.\d\d", chunks[-1].payload["reason"])


async def test_warn_records_reports_and_lets_the_text_through(make_bare_agent):
    violations: list[ProcessorViolation] = []
    guard = LanguageDetector(strategy="warn")
    guard.on_violation = violations.append
    agent = make_bare_agent(["Soleado."], input_processors=[guard])
    result = await agent.generate([Message.user(ENGLISH), Message.user(SPANISH)])

    assert result.text == "Soleado." and seen_by_model(agent) == [ENGLISH, SPANISH]
    english, spanish = input_metadata(result)
    assert english["is_target_language"] and not spanish["is_target_language"]
    (verdict,) = result.verdicts
    assert isinstance(verdict, Verdict)
    assert (verdict.channel, verdict.strategy, verdict.action, verdict.types) == (
        "input", "warn", "warned", ["non-target-language"])
    (detection,) = verdict.detections
    assert (detection.start, detection.end) == (len(ENGLISH), len(ENGLISH) + len(SPANISH))
    (violation,) = violations
    assert violation.processor_id == "language-detector"
    assert violation.message.startswith(
        "Non-target language detected: Language detected: Spanish (es) with confidence 0.")
    assert violation.detail["language_detection"]["iso_code"] == "es"


async def test_several_target_languages(make_bare_agent):
    guard = LanguageDetector(target_languages=["English", "German"], strategy="block")
    agent = make_bare_agent(["ok"], input_processors=[guard])
    result = await agent.generate(GERMAN)
    assert result.tripwire is None
    assert input_metadata(result)[0]["is_target_language"] is True
    assert input_metadata(result)[0]["target_languages"] == ["English", "German"]


async def test_short_and_uncertain_messages_are_left_alone(make_bare_agent):
    guard = LanguageDetector(strategy="block", threshold=0.99)
    agent = make_bare_agent(["ok"], input_processors=[guard])
    result = await agent.generate([Message.user("Hola!"), Message.user(
        "Necesito ayuda con mi pedido.")])  # short; Spanish at about 0.7
    assert result.tripwire is None
    assert input_metadata(result) == [None, None]


async def test_system_and_assistant_messages_are_not_checked(make_bare_agent):
    agent = make_bare_agent(["ok"], input_processors=[LanguageDetector(strategy="block")],
                            instructions="Antworte immer freundlich und auf Deutsch, bitte.")
    result = await agent.generate([Message.assistant(GERMAN), Message.user(ENGLISH)])
    assert result.tripwire is None and result.text == "ok"


async def test_include_detection_details_reaches_the_metadata(make_bare_agent):
    guard = LanguageDetector(include_detection_details=True)
    result = await make_bare_agent(["ok"], input_processors=[guard]).generate(GERMAN)
    assert input_metadata(result)[0]["details"]["alternatives"]


# ------------------------------------------------------------------ translate


async def test_translate_replaces_the_text_and_keeps_the_original(make_bare_agent):
    judge_model = MockModel([translation("How is the weather in Berlin today?")])
    guard = LanguageDetector(strategy="translate", model=judge_model)
    agent = make_bare_agent(["Sunny."], input_processors=[guard])
    result = await agent.generate(GERMAN)

    assert seen_by_model(agent) == ["How is the weather in Berlin today?"]
    (found,) = input_metadata(result)
    assert found["translation"] == {"original_language": "German", "target_language": "English"}
    assert found["original_content"] == GERMAN
    assert (found["iso_code"], found["is_target_language"]) == ("de", False)
    (verdict,) = result.verdicts
    assert (verdict.strategy, verdict.action) == ("translate", "rewritten")
    (request,) = judge_model.requests
    assert request.structured_output["schema"] == TRANSLATION_SCHEMA
    assert request.structured_output["name"] == "translation"
    assert "into English" in request.prompt[0]["content"]
    assert request.prompt[1]["content"][0]["text"] == GERMAN


async def test_translate_without_preserve_original_drops_it(make_bare_agent):
    judge_model = MockModel([translation("How is the weather in Berlin today?")])
    guard = LanguageDetector(strategy="translate", model=judge_model, preserve_original=False)
    result = await make_bare_agent(["ok"], input_processors=[guard]).generate(GERMAN)
    (found,) = input_metadata(result)
    assert "original_content" not in found and found["translation"]["original_language"] == (
        "German")


async def test_translate_aims_at_the_first_target_language(make_bare_agent):
    judge_model = MockModel([translation("Wie ist das Wetter heute in Paris?", "French")])
    guard = LanguageDetector(strategy="translate", model=judge_model,
                             target_languages=["de", "English"])
    agent = make_bare_agent(["ok"], input_processors=[guard])
    result = await agent.generate([Message.user(ENGLISH), Message.user(FRENCH)])

    assert seen_by_model(agent) == [ENGLISH, "Wie ist das Wetter heute in Paris?"]
    assert "into German" in judge_model.requests[0].prompt[0]["content"]
    assert input_metadata(result)[1]["translation"] == {
        "original_language": "French", "target_language": "German"}


async def test_translate_keeps_a_messages_other_parts(make_bare_agent):
    message = Message.user("Was steht in dieser Datei? ")
    message.content.parts += [FilePart("aGk=", "text/plain"), TextPart("Bitte kurz.")]
    judge_model = MockModel([translation("What is in this file? Briefly, please.")])
    guard = LanguageDetector(strategy="translate", model=judge_model)
    result = await make_bare_agent(["ok"], input_processors=[guard]).generate([message])

    (stored,) = result.message_list.input.db()
    assert [type(p).__name__ for p in stored.content.parts] == ["TextPart", "FilePart"]
    assert stored.text == "What is in this file? Briefly, please."
    assert stored.content.metadata["language_detection"]["original_content"] == (
        "Was steht in dieser Datei? Bitte kurz.")


async def test_target_language_messages_are_not_sent_to_the_translator(make_bare_agent):
    judge_model = MockModel([])
    guard = LanguageDetector(strategy="translate", model=judge_model)
    agent = make_bare_agent(["ok"], input_processors=[guard])
    await agent.generate(ENGLISH)
    assert judge_model.requests == [] and seen_by_model(agent) == [ENGLISH]


async def test_a_failed_translation_fails_closed(make_bare_agent):
    guard = LanguageDetector(strategy="translate", model=MockModel(["not json", "still not"]))
    agent = make_bare_agent(["never sent"], input_processors=[guard])
    with pytest.raises(ProcessorError) as info:
        await agent.generate(GERMAN)
    assert info.value.processor_id == "language-detector"
    assert info.value.hook == "process_input"
    assert isinstance(info.value.__cause__, JudgeError)
    assert info.value.__cause__.kind == "unparsable"
    assert agent.model.requests == []


async def test_a_failed_translation_fails_open_when_asked(make_bare_agent):
    from tripwire.errors import APICallError

    judge_model = MockModel([MockResponse(error=APICallError("down", status_code=503))])
    guard = LanguageDetector(strategy="translate", model=judge_model)
    guard.fail_open = True
    agent = make_bare_agent(["Sonnig."], input_processors=[guard], audit=True)
    result = await agent.generate(GERMAN)

    assert result.text == "Sonnig." and seen_by_model(agent) == [GERMAN]
    outcomes = [(r.processor_id, r.hook, r.outcome) for r in result.audit]
    assert ("language-detector", "process_input", "fail-open") in outcomes


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_translation_over_http_sends_the_schema_and_rewrites_the_input(
        llm_server, make_bare_agent, wire):
    llm_server.script(Reply(text=translation("How is the weather in Berlin today?")))
    async with llm_server.model(wire) as judge_model:
        guard = LanguageDetector(strategy="translate", model=judge_model)
        agent = make_bare_agent(["Sunny."], input_processors=[guard])
        result = await agent.generate(GERMAN)

    assert seen_by_model(agent) == ["How is the weather in Berlin today?"]
    assert input_metadata(result)[0]["translation"] == {
        "original_language": "German", "target_language": "English"}
    (request,) = llm_server.requests
    body = request.body
    if wire == "openai":
        assert body["response_format"]["json_schema"]["schema"] == TRANSLATION_SCHEMA
        assert body["temperature"] == 0
        sent = json.dumps(body["messages"], ensure_ascii=False)
    else:
        assert body["output_config"]["format"]["schema"] == TRANSLATION_SCHEMA
        sent = json.dumps(body["messages"], ensure_ascii=False)
    assert GERMAN in sent


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_a_malformed_translation_over_http_is_retried_once_then_fails_closed(
        llm_server, make_bare_agent, wire):
    llm_server.script(Reply(text='{"translated_text": 3}'), Reply(text="Sorry, no."))
    async with llm_server.model(wire) as judge_model:
        guard = LanguageDetector(strategy="translate", model=judge_model)
        agent = make_bare_agent(["never sent"], input_processors=[guard])
        with pytest.raises(ProcessorError) as info:
            await agent.generate(GERMAN)
    assert len(llm_server.requests) == 2
    assert isinstance(info.value.__cause__, JudgeError)
    assert GERMAN not in str(info.value.__cause__)
    assert agent.model.requests == []


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
async def test_a_rate_limited_translator_over_http_fails_open_when_asked(
        llm_server, make_bare_agent, wire):
    llm_server.script(*[ErrorReply(429, "Rate limit reached")] * 5)
    async with llm_server.model(wire) as judge_model:
        guard = LanguageDetector(strategy="translate", model=judge_model)
        guard.fail_open = True
        agent = make_bare_agent(["Sonnig."], input_processors=[guard])
        result = await agent.generate(GERMAN)
    assert result.text == "Sonnig." and seen_by_model(agent) == [GERMAN]


# -------------------------------------------------------- discovery and TOML


def test_listed_and_created_by_discovery(only_plugins):
    from tripwire import plugins

    only_plugins("language-detector")
    entry = plugins.available()["language-detector"]
    assert entry.cls is LanguageDetector and entry.status == "ok"
    assert entry.hooks == ("process_input",)
    guard = plugins.create("language-detector", strategy="warn", threshold=0.5,
                           target_languages=["fr"])
    assert (guard.strategy, guard.threshold, guard.target_codes) == ("warn", 0.5, ["fr"])
    with pytest.raises(ConfigurationError, match="strategy"):
        plugins.create("language-detector", strategy="filter")


def test_tripwire_plugins_lists_it_with_its_options(only_plugins, cli):
    only_plugins("language-detector")
    code, out, _ = cli("plugins")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("language-detector"))
    assert "input" in line
    assert "target_languages" in out and "min_text_length" in out


async def test_an_agent_from_toml_uses_it_by_name(only_plugins, tmp_path):
    only_plugins("language-detector")
    config = tmp_path / "tripwire.toml"
    config.write_text('''
[agents.support]
model = "models.scripted"
input_processors = [{ use = "language-detector", strategy = "block", target_languages = ["English", "fr"] }]
default_error_processors = false

[models.scripted]
use = "mock"
responses = [{ text = "unused" }]
''')
    agent = Agent.from_config(config, "support")
    assert (await agent.generate(FRENCH)).tripwire is None
    result = await agent.generate(SPANISH)
    assert result.tripwire.reason.startswith(
        "Non-target language detected: Language detected: Spanish (es)")


async def test_instructions_are_the_translators_system_prompt(make_bare_agent):
    """The reference's option: detection is offline here, so the instructions are the
    translating model's, ``{target}`` standing for the first target language."""
    judge_model = MockModel([translation("How is the weather in Berlin today?")])
    mine = "Translate into {target} with British spelling; keep product names as they are."
    guard = LanguageDetector(strategy="translate", model=judge_model, instructions=mine)
    assert guard.instructions == mine.replace("{target}", "English")
    await make_bare_agent(["ok"], input_processors=[guard]).generate(GERMAN)
    (request,) = judge_model.requests
    assert request.prompt[0]["content"].startswith(
        "Translate into English with British spelling; keep product names as they are.")
    default = LanguageDetector(strategy="translate", model=judge_model)
    assert default.instructions == INSTRUCTIONS.replace("{target}", "English")


def test_instructions_are_an_option_in_a_configuration_file(tmp_path):

    path = tmp_path / "tripwire.toml"
    path.write_text(
        '[agents.a]\nmodel = "models.m"\ninput_processors = [{ use = "language-detector", '
        'strategy = "translate", model = "models.m", instructions = "Into {target}, tersely." }]\n'
        '[models.m]\nuse = "mock"\n')
    (guard,) = Agent.from_config(path, "a").input_processors
    assert guard.instructions == "Into English, tersely."
