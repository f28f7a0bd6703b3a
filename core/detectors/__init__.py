"""tripwire's deterministic detectors: validated finders for personal data and secrets.

Each is a ``tripwire.guards.verdicts.Detector`` (``name``, ``types``, ``max_length``,
``detect(text)``); guardrails (``pii-detector``, ``regex-filter`` presets) build them by
type name with ``build``. Detectors validate what a pattern finds (Luhn and issuer
ranges for cards, mod-97 for IBANs, the SSA rules for SSNs, ``phonenumbers`` for phone
numbers, ``ipaddress`` for IPs, checksums for crypto wallets, known formats and entropy
for secrets), so an order number or an ISBN is not reported as a card.

Every detector reads a value the way a person does (``fold``): digits of any script
(Arabic-Indic, Devanagari, fullwidth, ... every Unicode decimal digit) as 0-9, the
ideographic and fullwidth full stops as ``.`` (``ann@example。com``), and tag characters
as the ASCII they hide; spans and values are those of the text given, so a redaction
covers the characters as written; ``folded_to(chars)`` matches, in the text as written,
what ``fold`` reads as one of ``chars`` (a detector's ``starts``).

Names and addresses have no checksum: the offline tier (``names``: given names, titles,
greetings, sign-offs and labels; ``addresses``: streets by their type word and a
number, with the postal code and city after them) finds them in English, German,
French and Spanish with the data of the ``names`` extra (``pip install
'tripwire[names]'``), when asked for ``name`` or ``address`` by name.

The modules are imported on first use, by type.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from typing import Any

from tripwire.detectors._views import fold, folded_to
from tripwire.guards.verdicts import Detection, Detector, merge

__all__ = ["BUILTIN_TYPES", "DEFAULT_TYPES", "JUDGE_TYPES", "OFFLINE_TYPES", "build", "detect_all",
           "fold", "folded_to"]

#: The built-in detector of each type: ``module:Class`` under ``tripwire.detectors``.
_BUILTIN: dict[str, str] = {
    "email": "contact:EmailDetector",
    "phone": "contact:PhoneDetector",
    "url": "contact:UrlDetector",
    "url-credentials": "contact:UrlDetector",
    "ip-address": "network:IPAddressDetector",
    "uuid": "network:UUIDDetector",
    "credit-card": "financial:CreditCardDetector",
    "iban": "financial:IBANDetector",
    "crypto-wallet": "crypto:CryptoWalletDetector",
    "ssn": "identity:SSNDetector",
    "date-of-birth": "identity:DateOfBirthDetector",
    "api-key": "secrets:SecretDetector",
    "name": "names:NameDetector",
    "address": "addresses:AddressDetector",
}

#: Types a deterministic detector finds: the reference's, in its order, then
#: ``url-credentials`` (a URL or connection string with a password, whole).
BUILTIN_TYPES: tuple[str, ...] = (
    "email", "phone", "credit-card", "ssn", "api-key", "ip-address", "url", "uuid",
    "crypto-wallet", "iban", "date-of-birth", "url-credentials",
)
#: Types without a checksum: the judge tier of ``pii-detector`` finds them, and so do
#: the offline detectors of the ``names`` extra (``pip install 'tripwire[names]'``),
#: which ``build`` builds only when asked for them by name.
JUDGE_TYPES: tuple[str, ...] = ("name", "address")
#: The types of the offline tier (``tripwire.detectors.names``, ``.addresses``).
OFFLINE_TYPES: tuple[str, ...] = JUDGE_TYPES
#: What ``pii-detector`` looks for by default: every deterministic type.
DEFAULT_TYPES: tuple[str, ...] = BUILTIN_TYPES


def build(types: Sequence[str], **options: Any) -> list[Detector]:
    """The built-in detectors for ``types`` (each built once, even when it serves
    several types). ``options`` go to the detectors that take them (e.g.
    ``regions=["US", "GB"]`` for phone numbers). An unknown type is a ``ValueError``
    naming the valid ones; ``name`` and ``address`` (``OFFLINE_TYPES``) without the
    ``names`` extra a ``MissingDependencyError`` saying what to install."""
    unknown = [t for t in types if t not in _BUILTIN]
    if unknown:
        raise ValueError(f"unknown detection type(s) {unknown}; valid: "
                         f"{', '.join(BUILTIN_TYPES)}, and with the names extra "
                         f"{', '.join(OFFLINE_TYPES)}")
    built: dict[str, Detector] = {}
    for t in types:
        target = _BUILTIN[t]
        if target not in built:
            module, cls_name = target.split(":")
            cls = getattr(importlib.import_module(f"tripwire.detectors.{module}"), cls_name)
            built[target] = cls(**{k: v for k, v in options.items()
                                   if k in getattr(cls, "OPTIONS", ())})
    return list(built.values())


def detect_all(text: str, detectors: Iterable[Detector], types: Iterable[str] | None = None,
               threshold: float = 0.0) -> list[Detection]:
    """Every detection of ``detectors`` in ``text`` (of ``types`` only, when given) with a
    score of at least ``threshold``; overlaps resolved (``tripwire.guards.verdicts.merge``)."""
    wanted = None if types is None else set(types)
    found = [d for det in detectors for d in det.detect(text)
             if d.score >= threshold and (wanted is None or d.type in wanted)]
    return merge(found)
