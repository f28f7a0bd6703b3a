"""pii-detector, regex-filter and keyword-guard read the text documents of the input
messages: a secret in a ``FilePart`` (plain, base64, a ``data:`` URL) or a
``data-document`` ``DataPart`` of any message the caller sends never reaches the model,
with every strategy, on both paths. A redacted document keeps its media type and its
encoding. Images and PDFs are not read."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.helpers import chunks_and_result, keyword_guard, strings
from tripwire import Agent, Message
from tripwire.guards.documents import decode_document, encode_document, is_text_media_type
from tripwire.messages import DataPart, FilePart, TextPart
from tripwire.plugins.pii_detector import PIIDetector
from tripwire.plugins.regex_filter import RegexFilter
from tripwire.testing import MockModel

KeywordGuard = keyword_guard()

EMAIL = "jane.doe@example.com"
ORDER = "ORD-123456"
KEYWORD = "hunter2"
PII = ("email",)

#: Per guard: the secret, and its strategies (the blocking one first).
GUARDS: dict[str, tuple[str, dict[str, Any]]] = {
    "pii-detector": (
        EMAIL,
        {
            "block": lambda: PIIDetector(strategy="block", detection_types=PII),
            "redact": lambda: PIIDetector(detection_types=PII),
            "mask-placeholder": lambda: PIIDetector(
                detection_types=PII, redaction_method="placeholder"
            ),
            "filter": lambda: PIIDetector(strategy="filter", detection_types=PII),
            "tokenize": lambda: PIIDetector(strategy="tokenize", detection_types=PII),
            "tokenize-values": lambda: PIIDetector(
                strategy="tokenize", detection_types=PII, store="values"
            ),
        },
    ),
    "regex-filter": (
        ORDER,
        {
            "block": lambda: RegexFilter([{"name": "order-id", "pattern": r"ORD-\d{6}"}]),
            "redact": lambda: RegexFilter(
                [{"name": "order-id", "pattern": r"ORD-\d{6}"}], strategy="redact"
            ),
        },
    ),
    "keyword-guard": (
        KEYWORD,
        {
            "block": lambda: KeywordGuard(patterns=[KEYWORD]),
            "mask": lambda: KeywordGuard(patterns=[KEYWORD], strategy="mask"),
        },
    ),
}

ENCODINGS = ("text", "base64", "data-base64", "data-url", "data")
MEDIA_TYPES = (
    "text/plain",
    "text/markdown",
    "text/html",
    "application/json",
    "text/csv; charset=utf-8",
)
#: Words around the secret (no digits: a digit next to ``ORD-123456`` is another value).
WORDS = st.text(st.characters(categories=("L", "P", "Zs"), exclude_characters="\\"), max_size=24)


def document(text: str, encoding: str, media_type: str) -> FilePart | DataPart:
    if encoding == "data":
        return DataPart("data-document", {"title": "Notes", "body": text})
    return FilePart(data=encode_document(text, encoding), media_type=media_type)


def with_document(role: str, part: FilePart | DataPart) -> Message:
    message = Message.user("") if role == "user" else Message.assistant("")
    message.content.parts = [TextPart("Here are the notes."), part]
    return message


def run(agent: Agent, messages: list[Any], stream: bool) -> tuple[list[Any], Any]:
    return chunks_and_result(agent, messages, stream, caller_system="input")


def sent(model: MockModel) -> list[str]:
    """Every string the model was sent, and the decoded text of every file it got."""
    out = strings([r.prompt for r in model.requests])
    for request in model.requests:
        for entry in request.prompt:
            content = entry.get("content")
            for part in content if isinstance(content, list) else ():
                if part.get("type") == "file" and is_text_media_type(part.get("media_type")):
                    held = decode_document(part["data"])
                    out.extend(held[:1] if held else ())
    return out


def check(
    guard: str,
    strategy: str,
    encoding: str,
    media_type: str,
    role: str,
    before: str,
    after: str,
    stream: bool,
) -> None:
    secret, strategies = GUARDS[guard]
    text = f"{before} {secret} {after}"
    part = document(text, encoding, media_type)
    model = MockModel(["ok"])
    processor = strategies[strategy]()
    # (tokenize needs the same instance in both lists)
    agent = Agent(
        id="notes",
        model=model,
        input_processors=[processor],
        output_processors=[processor] if "tokenize" in strategy else [],
        default_error_processors=False,
    )
    chunks, result = run(
        agent, [Message.user("Summarise the notes."), with_document(role, part)], stream
    )
    leaked = [s for s in sent(model) if secret in s]
    assert not leaked, f"the model received {leaked}"
    assert not [s for s in strings([c.payload for c in chunks]) if secret in s]
    if strategy == "block":
        assert result.tripwire is not None and result.tripwire.processor_id == guard
        assert model.requests == []
        return
    assert result.tripwire is None and model.requests
    if type(part) is FilePart and strategy not in ("filter", "tokenize-values"):
        # redacted in place (tokenize-values: only in the prompt): the same media type,
        # the same encoding, the rest kept
        assert part.media_type == media_type
        held = decode_document(part.data)
        assert held is not None and held[1] == encoding
        assert secret not in held[0] and held[0].startswith(before)


def cases(guard: str) -> Any:
    return given(
        strategy=st.sampled_from(list(GUARDS[guard][1])),
        encoding=st.sampled_from(ENCODINGS),
        media_type=st.sampled_from(MEDIA_TYPES),
        role=st.sampled_from(["user", "assistant"]),
        before=WORDS,
        after=WORDS,
        stream=st.booleans(),
    )


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@cases("pii-detector")
def test_pii_detector_keeps_a_documents_value_from_the_model(
    strategy, encoding, media_type, role, before, after, stream
):
    check("pii-detector", strategy, encoding, media_type, role, before, after, stream)


@SETTINGS
@cases("regex-filter")
def test_regex_filter_keeps_a_documents_value_from_the_model(
    strategy, encoding, media_type, role, before, after, stream
):
    check("regex-filter", strategy, encoding, media_type, role, before, after, stream)


@SETTINGS
@cases("keyword-guard")
def test_keyword_guard_keeps_a_documents_value_from_the_model(
    strategy, encoding, media_type, role, before, after, stream
):
    check("keyword-guard", strategy, encoding, media_type, role, before, after, stream)


@pytest.mark.parametrize("guard", list(GUARDS))
@pytest.mark.parametrize("media_type", ["image/png", "application/pdf"])
def test_binary_files_are_not_read(guard, media_type):
    """A binary file is passed on as it is (documented: only text documents are read)."""
    secret, strategies = GUARDS[guard]
    part = FilePart(data=encode_document(f"{secret} ", "base64"), media_type=media_type)
    model = MockModel(["ok"])
    agent = Agent(
        id="notes",
        model=model,
        input_processors=[strategies["block"]()],
        default_error_processors=False,
    )
    _, result = run(agent, [with_document("user", part)], False)
    assert result.tripwire is None
    assert model.requests[0].prompt[-1]["content"][-1]["data"] == part.data
