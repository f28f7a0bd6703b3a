"""The text a document part holds, and how to put a changed text back.

The building block every guard that reads documents uses (``pii-detector``,
``regex-filter``, ``prompt-injection-detector``, ``keyword-guard``).

A document is a ``FilePart`` with a text media type (``text/*``, JSON, XML, YAML, CSV,
Markdown, ...; ``is_text_media_type``) or a ``DataPart`` whose type starts with
``data-document``. A ``FilePart``'s ``data`` holds its text one of four ways, its
*encoding*:

``text``         the text itself;
``base64``       the text's UTF-8 bytes in base64;
``data-base64``  a ``data:`` URL with a base64 body (``data:text/plain;base64,...``);
``data-url``     a ``data:`` URL with a percent-encoded body (``data:text/plain,...``).

A ``DataPart``'s encoding is ``data``: its text is its data (a structured value as its
JSON form).

``read_document(part)`` gives ``(text, encoding)``, or ``None`` for a part that is not a
text document (an image, a PDF, ``data`` that does not decode: they are not read).
``write_document(part, text, encoding)`` puts a changed text back the same way, so a
redacting guard keeps the part's media type and encoding::

    held = read_document(part)
    if held is not None:
        text, encoding = held
        redacted = redact(text)
        if redacted != text:
            write_document(part, redacted, encoding)

``decode_document`` and ``encode_document`` are the same for a ``FilePart.data`` string
alone (a prompt's ``{"type": "file", "data": ..., "media_type": ...}`` part).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any
from urllib.parse import quote, unquote

from tripwire.messages._types import DataPart, FilePart

__all__ = [
    "ENCODINGS",
    "decode_document",
    "encode_document",
    "is_text_media_type",
    "read_document",
    "value_text",
    "write_document",
]

#: How a document part holds its text (see the module's docstring).
ENCODINGS = ("text", "base64", "data-base64", "data-url", "data")

_TEXT_MEDIA = re.compile(
    r"^(?:text/.*|application/(?:json|xml|yaml|x-yaml|javascript|x-ndjson|csv|x-csv"
    r"|markdown|x-markdown|rtf|x-sh|x-python|sql|x-httpd-php|xhtml\+xml)|.*\+(?:json|xml))"
    r"(?:;.*)?$",
    re.I,
)
_BASE64_BODY = re.compile(r"[A-Za-z0-9+/=\r\n]{8,}")
#: The header ``encode_document`` gives a ``data:`` URL when the original had none.
_DEFAULT_HEADER = {
    "data-base64": "data:text/plain;charset=utf-8;base64",
    "data-url": "data:text/plain;charset=utf-8",
}


def is_text_media_type(media_type: str | None) -> bool:
    """Whether a ``FilePart`` of ``media_type`` holds text that is read (``text/*``,
    JSON, XML, YAML, CSV, Markdown, scripts, ``*+json`` / ``*+xml``; parameters such as
    ``; charset=utf-8`` allowed). Images, PDFs and other binary types are not."""
    return bool(_TEXT_MEDIA.match(media_type or ""))


def decode_document(data: str) -> tuple[str, str] | None:
    """``(text, encoding)`` of a text document's ``FilePart.data``: a ``data:`` URL
    (``data-base64``, ``data-url``), base64 of UTF-8 text (at least 8 characters of the
    base64 alphabet, a multiple of 4 long: ``base64``), else the text itself (``text``).
    ``None`` for a base64 ``data:`` URL whose body is not base64 of UTF-8 text."""
    if data.startswith("data:"):
        header, _, body = data.partition(",")
        if header.endswith(";base64"):
            decoded = _b64text(body)
            return (decoded, "data-base64") if decoded is not None else None
        return unquote(body), "data-url"
    if _BASE64_BODY.fullmatch(data) and len(data.strip()) % 4 == 0:
        decoded = _b64text(data)
        if decoded is not None:
            return decoded, "base64"
    return data, "text"


def encode_document(text: str, encoding: str, original: str = "") -> str:
    """``text`` held as ``encoding`` (one of ``ENCODINGS``; ``data`` and ``text``: as
    it is), a ``FilePart.data`` that ``decode_document`` reads back as ``text``. A
    ``data:`` URL keeps the header (media type, parameters) of ``original`` when that
    is one."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown document encoding {encoding!r}; valid: {', '.join(ENCODINGS)}")
    if encoding in _DEFAULT_HEADER:
        header = (
            original.partition(",")[0]
            if original.startswith("data:")
            else _DEFAULT_HEADER[encoding]
        )
        if encoding == "data-base64":
            return header + "," + base64.b64encode(text.encode()).decode()
        return header + "," + quote(text)
    if encoding == "base64":
        return base64.b64encode(text.encode()).decode()
    return text


def read_document(part: Any) -> tuple[str, str] | None:
    """``(text, encoding)`` of a document part: a ``FilePart`` with a text media type
    (``decode_document`` of its data) or a ``DataPart`` whose type starts with
    ``data-document`` (its data as text, encoding ``data``); ``None`` for any other
    part."""
    if type(part) is DataPart:
        return (value_text(part.data), "data") if part.type.startswith("data-document") else None
    if type(part) is not FilePart or not is_text_media_type(part.media_type):
        return None
    return decode_document(part.data or "")


def write_document(part: object, text: str, encoding: str) -> None:
    """Put ``text`` (a changed version of what ``read_document`` gave) back into
    ``part`` (a ``FilePart`` or a ``DataPart``) in place, held as ``encoding``; its
    media type is kept. A ``DataPart``
    whose data was a structured value gets the value ``text`` is the JSON form of (the
    text itself when it is no longer JSON)."""
    if type(part) is DataPart:
        if isinstance(part.data, str):
            part.data = text
        else:
            try:
                part.data = json.loads(text)
            except ValueError:
                part.data = text
        return
    if type(part) is not FilePart:
        raise ValueError(
            f"write_document takes a FilePart or a DataPart, got {type(part).__name__}"
        )
    part.data = encode_document(text, encoding, part.data or "")


def _b64text(body: str) -> str | None:
    try:
        return base64.b64decode("".join(body.split()), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def value_text(value: Any) -> str:
    """A value as the text that is scanned of it (a ``DataPart``'s data, a tool
    result): a string as it is, bytes as UTF-8, anything else as its JSON form."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", errors="replace")
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)
