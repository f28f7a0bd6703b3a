"""Encoded payloads: base64, hex, URL-encoded, Unicode-tag ("ASCII smuggling") and
variation-selector runs that decode to plausible text (``find_payloads``), within a
decoding budget shared by nested scans.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import Final
from urllib.parse import unquote_plus

MAX_DEPTH: Final = 2           # decode a payload inside a payload, not deeper
MAX_DECODED: Final = 256_000   # characters decoded per scanned text, in all
MAX_CANDIDATE: Final = 64_000  # the longest encoded run tried
MAX_CANDIDATES: Final = 16     # encoded runs tried per text and encoding

_B64 = re.compile(r"(?<![A-Za-z0-9+/=_-])(?:[A-Za-z0-9+/_-]{4}){4,}"
                  r"(?:[A-Za-z0-9+/_-]{2,3}={0,2}|={0,2})(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:(?:\\x|0x|%)?[0-9A-Fa-f]{2}[ ,:]?){8,}(?![0-9A-Za-z])")
_URLENC = re.compile(r"\S*(?:%[0-9A-Fa-f]{2}\S*){3,}")
_TAGS = re.compile("[\U000e0020-\U000e007e]{3,}")
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{4,}")
#: Hex of printable ASCII: every byte starts with 2-7 (a digit: ``re`` skips to it fast).
_HEX_HINT = re.compile(r"[2-7][0-9a-fA-F](?:[ ,:]|\\x|0x|%)?[2-7][0-9a-fA-F](?:[ ,:]|\\x|0x|%)?"
                       r"[2-7][0-9a-fA-F]")
_URL_HINT = re.compile(r"%[0-9A-Fa-f]{2}[^%\s]{0,3}%[0-9A-Fa-f]{2}")
#: A decoded payload that is itself one encoded run (base64 in base64) is opened too.
_ENCODED = re.compile(r"\s*(?:[A-Za-z0-9+/_-]{16,}={0,2}|(?:[0-9A-Fa-f]{2}[ ,:]?){8,})\s*")
_HEX_JUNK = re.compile(r"\\x|0x|%|[ ,:]")


def find_payloads(text: str, budget: list[int]) -> Iterator[tuple[int, int, str]]:
    """``(start, end, decoded)`` for each encoded run in ``text`` that decodes to
    plausible text, within the decoding ``budget`` (shared by nested scans)."""
    sources = []
    if len(text) >= 16 and max(map(len, text.split()), default=0) >= 16:
        sources.append((_B64, _from_base64))
    if _HEX_HINT.search(text):
        sources.append((_HEX, _from_hex))
    if _URL_HINT.search(text):
        sources.append((_URLENC, _from_url))
    if not text.isascii():
        sources.append((_TAGS, _from_tags))
        sources.append((_SELECTORS, _from_selectors))
    for regex, decode in sources:
        tried = 0
        for m in regex.finditer(text):
            if tried >= MAX_CANDIDATES or budget[0] <= 0:
                break
            chunk = m.group()
            if len(chunk) > MAX_CANDIDATE:
                continue
            tried += 1
            decoded = decode(chunk)
            if decoded is None or not (_plausible(decoded) or _ENCODED.fullmatch(decoded)):
                continue
            budget[0] -= len(decoded)
            yield m.start(), m.end(), decoded


def _from_base64(chunk: str) -> str | None:
    core = chunk.rstrip("=")
    if core.isalpha() and (core.islower() or core.isupper()):
        return None  # a long word, not base64
    if core.isdigit():
        return None
    data = core.replace("-", "+").replace("_", "/")
    data += "=" * (-len(data) % 4)
    try:
        return base64.b64decode(data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _from_hex(chunk: str) -> str | None:
    digits = _HEX_JUNK.sub("", chunk)
    if len(digits) % 2:
        return None
    try:
        return bytes.fromhex(digits).decode("utf-8")
    except ValueError:
        return None


def _from_url(chunk: str) -> str | None:
    decoded = unquote_plus(chunk)
    return decoded if decoded != chunk else None


def _from_tags(chunk: str) -> str:
    return "".join(chr(ord(c) - 0xE0000) for c in chunk)


def _from_selectors(chunk: str) -> str | None:
    data = bytes(ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in chunk)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _plausible(decoded: str) -> bool:
    """Decoded bytes that read as text: printable, mostly letters, with spaces between
    words or in a script written without them."""
    if len(decoded) < 6:
        return False
    printable = sum(1 for c in decoded if c.isprintable() or c in "\n\r\t")
    if printable < 0.95 * len(decoded):
        return False
    wordy = sum(1 for c in decoded if c.isalpha() or c.isspace())
    # (Chinese and Japanese are written without spaces: their characters are the words)
    return wordy >= 0.7 * len(decoded) and (
        any(c.isspace() for c in decoded)
        or len(_UNSPACED.findall(decoded)) >= 0.5 * len(decoded))


#: Characters of the scripts written without spaces between words.
_UNSPACED = re.compile("[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
