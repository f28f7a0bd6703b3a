"""``tripwire.guards.documents``: the text a document part holds, and a changed text put back
the way the part held it."""

from __future__ import annotations

import base64

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tripwire.guards.documents import (
    ENCODINGS,
    decode_document,
    encode_document,
    is_text_media_type,
    read_document,
    write_document,
)
from tripwire.messages import DataPart, FilePart, TextPart

#: The ``FilePart.data`` encodings (``data`` is a ``DataPart``'s).
FILE_ENCODINGS = ("text", "base64", "data-base64", "data-url")
_BASE64_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\r\n")


def readable_as(text: str, encoding: str) -> bool:
    """Whether ``decode_document`` can tell ``text`` held as ``encoding``: plain text
    that is itself a ``data:`` URL or base64 is read as one (``FilePart.data`` says
    nothing else about its encoding), and base64 shorter than 8 characters as text."""
    if encoding == "text":
        return not text.startswith("data:") and not set(text) <= _BASE64_ALPHABET
    if encoding == "base64":
        return len(text.encode()) >= 4
    return True


@given(st.text(), st.sampled_from(FILE_ENCODINGS))
def test_decode_reads_back_what_encode_wrote(text, encoding):
    assume(readable_as(text, encoding))
    assert decode_document(encode_document(text, encoding)) == (text, encoding)


@given(st.text(min_size=1), st.text(), st.sampled_from(FILE_ENCODINGS))
def test_write_keeps_the_parts_encoding_and_media_type(original, changed, encoding):
    assume(readable_as(original, encoding) and readable_as(changed, encoding))
    part = FilePart(data=encode_document(original, encoding), media_type="text/markdown")
    assert read_document(part) == (original, encoding)
    write_document(part, changed, encoding)
    assert read_document(part) == (changed, encoding)
    assert part.media_type == "text/markdown"


def test_a_data_url_keeps_its_header():
    part = FilePart(
        data="data:text/csv;charset=utf-8;base64,"
        + base64.b64encode(b"name,email\nJane,jane@example.com").decode(),
        media_type="text/csv",
    )
    text, encoding = read_document(part)
    assert (text, encoding) == ("name,email\nJane,jane@example.com", "data-base64")
    write_document(part, text.replace("jane@example.com", "[EMAIL]"), encoding)
    assert part.data.startswith("data:text/csv;charset=utf-8;base64,")
    assert read_document(part) == ("name,email\nJane,[EMAIL]", "data-base64")

    part = FilePart(data="data:text/plain,Hello%2C%20Jane", media_type="text/plain")
    assert read_document(part) == ("Hello, Jane", "data-url")
    write_document(part, "Hello, [NAME]", "data-url")
    assert part.data == "data:text/plain,Hello%2C%20%5BNAME%5D"


@pytest.mark.parametrize(
    "media_type",
    [
        "text/plain",
        "text/html",
        "text/markdown",
        "application/json",
        "application/ld+json",
        "application/xml; charset=utf-8",
        "text/csv",
    ],
)
def test_text_media_types_are_read(media_type):
    assert is_text_media_type(media_type)
    assert read_document(FilePart(data="a note", media_type=media_type)) == ("a note", "text")


@pytest.mark.parametrize(
    "media_type", ["image/png", "application/pdf", "application/octet-stream", "audio/wav", ""]
)
def test_binary_files_are_not_read(media_type):
    assert not is_text_media_type(media_type)
    assert read_document(FilePart(data="aGVsbG8gd29ybGQ=", media_type=media_type)) is None


def test_a_base64_data_url_that_is_not_utf8_text_is_not_read():
    bad = "data:text/plain;base64," + base64.b64encode(b"\xff\xfe\x00").decode()
    assert decode_document(bad) is None


def test_data_document_parts():
    part = DataPart("data-document", {"title": "Notes", "text": "call jane@example.com"})
    text, encoding = read_document(part)
    assert encoding == "data" and "jane@example.com" in text
    write_document(part, text.replace("jane@example.com", "[EMAIL]"), encoding)
    assert part.data == {"title": "Notes", "text": "call [EMAIL]"}
    part = DataPart("data-document-note", "call jane")
    assert read_document(part) == ("call jane", "data")
    write_document(part, "call [NAME]", "data")
    assert part.data == "call [NAME]"
    assert read_document(DataPart("data-chart", {"text": "x"})) is None
    assert read_document(TextPart("not a document")) is None


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown document encoding 'gzip'; valid: text"):
        encode_document("x", "gzip")
    with pytest.raises(ValueError, match="takes a FilePart or a DataPart, got TextPart"):
        write_document(TextPart("x"), "y", "text")
    assert set(FILE_ENCODINGS) < set(ENCODINGS)
