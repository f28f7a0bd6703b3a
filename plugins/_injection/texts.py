"""The texts ``prompt-injection-detector`` checks, and where a cleaned one goes back.

``as_text`` is what is scanned of a value (a tool result, a ``DataPart``'s data),
``document`` the text a document part holds and how (``FilePart.data`` plain, base64
or a ``data:`` URL), ``Item`` one text a hook checks with where it came from.
``encode`` and ``set_text`` put a text cleaned by ``strategy = "rewrite"`` back the
way the original held it.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any
from urllib.parse import quote, unquote

import attrs

from tripwire.messages import DataPart, FilePart, Message, TextPart
from tripwire.plugins._injection.scan import Analysis

__all__ = ["Item", "as_text", "document", "encode", "is_json", "set_text"]

_TEXT_MEDIA = re.compile(
    r"^(?:text/.*|application/(?:json|xml|yaml|x-yaml|javascript|x-ndjson|csv|x-csv"
    r"|markdown|x-markdown|rtf|x-sh|x-python|sql|x-httpd-php|xhtml\+xml)|.*\+(?:json|xml))"
    r"(?:;.*)?$",
    re.I,
)
_BASE64_BODY = re.compile(r"[A-Za-z0-9+/=\r\n]{8,}")


@attrs.define
class Item:
    """One text a hook checks: its message, its part (a document) or neither (the
    message's text, a tool result), what the heuristics and the judge are given."""

    text: str
    channel: str
    analysis: Analysis
    message: Message | None = None
    part: Any = None
    encoding: str = "text"


def as_text(value: Any) -> str:
    """What is scanned of a value: a string as it is, bytes as UTF-8, anything else
    as its JSON form (offsets of detections are into that form)."""
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


def is_json(value: Any) -> bool:
    """Whether ``value`` is read as JSON: a structured value (scanned as its JSON
    form), or a string holding a JSON object or array (a tool result as the OpenAI wire
    carries it, or a tool that returns JSON text). In JSON the quotes around every
    string are syntax, not quotations."""
    if isinstance(value, bytes | bytearray) or value is None:
        return False
    if not isinstance(value, str):
        return True
    text = value.strip()
    if not (text[:1] == "{" and text[-1:] == "}" or text[:1] == "[" and text[-1:] == "]"):
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def document(part: Any) -> tuple[str, str] | None:
    """``(text, encoding)`` of a document part (``encoding``: how ``FilePart.data``
    holds it: ``text``, ``base64``, ``data-base64`` or ``data-url``), else None."""
    if type(part) is DataPart:
        return (as_text(part.data), "data") if part.type.startswith("data-document") else None
    if type(part) is not FilePart or not _TEXT_MEDIA.match(part.media_type or ""):
        return None
    data = part.data or ""
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


def _b64text(body: str) -> str | None:
    try:
        return base64.b64decode("".join(body.split()), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def encode(text: str, encoding: str, original: str) -> str:
    """``text`` held the way the original ``FilePart.data`` was."""
    if encoding == "base64":
        return base64.b64encode(text.encode()).decode()
    if encoding == "data-base64":
        return original.partition(",")[0] + "," + base64.b64encode(text.encode()).decode()
    if encoding == "data-url":
        return original.partition(",")[0] + "," + quote(text)
    return text


def set_text(message: Message, cleaned: str) -> None:
    """Replace the message's text in place (one text part where the first was, and
    ``content.content`` when it had one)."""
    parts = message.content.parts
    first = next((i for i, p in enumerate(parts) if type(p) is TextPart), None)
    rest = [p for p in parts if type(p) is not TextPart]
    if first is None:
        message.content.content = cleaned
    else:
        rest.insert(first, TextPart(cleaned))
        message.content.parts = rest
        if isinstance(message.content.content, str):
            message.content.content = cleaned
