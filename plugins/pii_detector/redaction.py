"""How ``pii-detector`` replaces a value: the reference's redaction formats (``mask``,
``hash``, ``placeholder``, ``remove``) and ``splice``, which puts the replacements
into a text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable

from tripwire.detectors import fold
from tripwire.guards.verdicts import Detection

#: The redaction methods, as ``redaction_method`` names them.
METHODS = ("mask", "hash", "remove", "placeholder")

_HEX = re.compile(r"[0-9a-fA-F]")


def label(kind: str) -> str:
    """A detection type as placeholders spell it: ``credit-card`` -> ``CREDIT_CARD``."""
    return kind.upper().replace("-", "_")


def mask(kind: str, value: str, preserve_format: bool = True) -> str:
    """``value`` (a detection of type ``kind``) masked the reference's way.

    email: the local part keeps its first and last character (``***`` when it has two
    or fewer), the first domain label becomes ``*``, the rest is kept
    (``test@example.com`` -> ``t**t@*******.com``); phone: every digit before the last
    four characters becomes ``X`` (``(555) 123-4567`` -> ``(XXX) XXX-4567``);
    credit-card and ssn: the same with ``*``; uuid: every hex digit becomes ``*``;
    crypto-wallet: the first and last 4 characters kept; iban: the first 2 and last 4
    kept; url-credentials: the scheme kept, every letter and digit after it becomes
    ``*`` (``postgres://***:*******@**.********:****/***``); anything else: the first and last character kept (``*`` only up to 3
    characters). Without ``preserve_format``: ``*`` times the length, at most 8.
    """
    n = len(value)
    if not preserve_format:
        return "*" * min(n, 8)
    # Digits and dots as the detectors read them (any script's digits, the ideographic
    # full stop, tag characters), one character for one: what is kept or masked is
    # decided on that reading and taken from ``value``.
    read = fold(value)
    if kind == "email" and "@" in read:
        at = read.rindex("@")
        local = value[:at]
        local = local[0] + "*" * (len(local) - 2) + local[-1] if len(local) > 2 else "***"
        dot = read.find(".", at + 1)
        first = (dot if dot != -1 else n) - at - 1
        return f"{local}@{'*' * first}{value[dot:] if dot != -1 else ''}"
    if kind == "phone":
        return _digits_before_last_four(value, read, "X")
    if kind in ("credit-card", "ssn"):
        return _digits_before_last_four(value, read, "*")
    if kind == "uuid":
        return "".join("*" if _HEX.match(r) else c for c, r in zip(value, read, strict=True))
    if kind == "url-credentials" and "://" in value:
        rest = value.index("://") + 3
        return value[:rest] + "".join("*" if c.isalnum() else c for c in value[rest:])
    if kind == "crypto-wallet" and n > 8:
        return value[:4] + "*" * (n - 8) + value[-4:]
    if kind == "iban" and n > 6:
        return value[:2] + "*" * (n - 6) + value[-4:]
    if n <= 3 or kind in ("crypto-wallet", "iban"):
        return "*" * n
    return value[0] + "*" * (n - 2) + value[-1]


def _digits_before_last_four(value: str, read: str, char: str) -> str:
    """``value`` with ``char`` for each digit (as ``read`` has it) before the last four
    characters."""
    cut = len(value) - 4
    return "".join(char if i < cut and (r.isdigit() or c.isdigit()) else c
                   for i, (c, r) in enumerate(zip(value, read, strict=True)))


def redact(kind: str, value: str, method: str, preserve_format: bool = True) -> str:
    """The replacement of ``value``: ``mask`` (above), ``hash``
    (``[HASH:<first 8 hex digits of its sha256>]``), ``placeholder`` (``[EMAIL]``,
    ``[CREDIT_CARD]``) or ``remove`` (nothing)."""
    if method == "mask":
        return mask(kind, value, preserve_format)
    if method == "hash":
        return f"[HASH:{hashlib.sha256(value.encode()).hexdigest()[:8]}]"
    if method == "placeholder":
        return f"[{label(kind)}]"
    if method == "remove":
        return ""
    raise ValueError(f"unknown redaction method {method!r}; valid: {', '.join(METHODS)}")


def splice(text: str, detections: Iterable[Detection],
           replacement: Callable[[Detection, str], str]) -> str:
    """``text`` with each detection (non-overlapping, in order) replaced by
    ``replacement(detection, the text it covers)``."""
    out: list[str] = []
    pos = 0
    for d in detections:
        out.append(text[pos:d.start])
        out.append(replacement(d, text[d.start:d.end]))
        pos = d.end
    out.append(text[pos:])
    return "".join(out)
