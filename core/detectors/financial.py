"""Payment data: card numbers and IBANs.

- ``CreditCardDetector`` (``credit-card``): 13 to 19 digits, bare or in consistent
  groups (``4-4-4-4``, ``4-4-4-4-3``, Amex ``4-6-5``, Diners ``4-6-4``, one separator,
  spaces or dashes), that pass the Luhn check *and* fall in an issuer's range with one
  of its lengths (Visa, Mastercard with the 2-series, Amex, Discover, JCB, Diners Club,
  UnionPay, Maestro, Mir). A number right after "order", "invoice", "#", ... or a
  test card ("the test card", "Testkarte", "carte de test", "tarjeta de prueba") is
  still reported but with a score of 0.5, under the default threshold of
  ``pii-detector``;
- ``IBANDetector`` (``iban``): a country code from the IBAN registry, two check digits
  and a BBAN of exactly that country's length, compact or in groups of four separated
  by spaces, whose mod-97 checksum is 1 (ISO 13616).
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Iterable

from tripwire.detectors import _views
from tripwire.guards.verdicts import Detection
from tripwire.guards.window_start import trailing_run

__all__ = ["CreditCardDetector", "IBANDetector", "card_issuer", "iban_is_valid",
           "in_grouped_iban", "luhn_is_valid"]


def luhn_is_valid(digits: str) -> bool:
    """The Luhn (mod 10) check of a string of ASCII digits."""
    # every other digit from the right doubled (less 9 when above 9): a table lookup
    total = sum(map(int, digits[::-1][::2])) + sum(map(_DOUBLED.__getitem__, digits[-2::-2]))
    return total % 10 == 0


_DOUBLED = {str(d): 2 * d - 9 if d > 4 else 2 * d for d in range(10)}



#: ``bytes.translate`` tables: an ASCII digit to its value, and to its ``_DOUBLED``.
_VALUE = bytes.maketrans(b"0123456789", bytes(range(10)))
_DOUBLED_VALUE = bytes.maketrans(b"0123456789",
                                 bytes(2 * d - 9 if d > 4 else 2 * d for d in range(10)))


def _luhn_sums(digits: str) -> tuple[list[int], list[int]]:
    """Prefix sums of ``digits`` (ASCII) for Luhn checks of any stretch of it: the
    first with the digits at odd indexes doubled, the second with those at even ones.
    ``digits[a:b]`` passes the Luhn check when the sum whose undoubled digits have
    the parity of ``b - 1`` gains a multiple of 10 from ``a`` to ``b``."""
    raw = digits.encode()
    plain, doubled = raw.translate(_VALUE), raw.translate(_DOUBLED_VALUE)
    odd, even = bytearray(plain), bytearray(doubled)
    odd[1::2] = doubled[1::2]
    even[1::2] = plain[1::2]
    return [0, *itertools.accumulate(odd)], [0, *itertools.accumulate(even)]


_ALL = frozenset(range(16, 20))
# (issuer, prefix length, lowest prefix, highest prefix, valid lengths)
_ISSUERS: tuple[tuple[str, int, int, int, frozenset[int]], ...] = (
    ("visa", 1, 4, 4, frozenset({13, 16, 19})),
    ("mastercard", 2, 51, 55, frozenset({16})),
    ("mastercard", 4, 2221, 2720, frozenset({16})),
    ("amex", 2, 34, 34, frozenset({15})),
    ("amex", 2, 37, 37, frozenset({15})),
    ("discover", 4, 6011, 6011, _ALL),
    ("discover", 3, 644, 649, _ALL),
    ("discover", 2, 65, 65, _ALL),
    ("jcb", 4, 3528, 3589, _ALL),
    ("diners", 3, 300, 305, frozenset(range(14, 20))),
    ("diners", 4, 3095, 3095, frozenset(range(14, 20))),
    ("diners", 2, 36, 36, frozenset(range(14, 20))),
    ("diners", 2, 38, 39, frozenset(range(14, 20))),
    ("unionpay", 2, 62, 62, _ALL),
    ("maestro", 4, 5018, 5018, frozenset(range(13, 20))),
    ("maestro", 4, 5020, 5020, frozenset(range(13, 20))),
    ("maestro", 4, 5038, 5038, frozenset(range(13, 20))),
    ("maestro", 4, 5893, 5893, frozenset(range(13, 20))),
    ("maestro", 4, 6304, 6304, frozenset(range(13, 20))),
    ("maestro", 4, 6759, 6759, frozenset(range(13, 20))),
    ("maestro", 4, 6761, 6763, frozenset(range(13, 20))),
    ("mir", 4, 2200, 2204, _ALL),
)


def card_issuer(digits: str) -> str | None:
    """The issuer whose range and lengths ``digits`` fits (``"visa"``, ``"amex"``,
    ...), or ``None``; the Luhn check is separate (``luhn_is_valid``)."""
    n = len(digits)
    for issuer, plen, lo, hi, lengths in _ISSUERS:
        if n in lengths and lo <= int(digits[:plen]) <= hi:
            return issuer
    return None


# The patterns run on the text's ASCII bytes with every digit turned into "0" and every
# capital into "A" (``_views.classes``, made once per text for every detector that
# needs it): they then start with a literal, which the regex engine finds far faster
# than a class. (Offsets are the same: one byte per character, "?" for others.)

# A run of digits, spaces and dashes that starts and ends with a digit.
# Digits with at most one separator between them: two separators in a row end a run,
# so cards side by side ("4111...1111  4111...1111") are separate runs.
_CARD_RUN = re.compile(rb"0(?:[ \-]?0){12,}")
_DIGITS = re.compile(r"[0-9]+")
# What comes right before a number that makes it an identifier: "#", "order no.",
# "invoice number", "ref:", "tracking", ... (a plain "order 4111..." is still a card).
_ID_CONTEXT = re.compile(
    r"(?i)(?:\b(?:order|invoice|inv|item|part|po|customer|member|policy|claim|account|"
    r"acct|id)\.?\s*(?:no\.?|nr\.?|num(?:ber)?\.?|id|#)\s*[:#=]?\s*"
    r"|\b(?:ref|reference|tracking|isbn|sku|serial|transaction|txn|confirmation|booking|"
    r"ticket|case|receipt|shipment|parcel)\b\.?\s*(?:no\.?|nr\.?|num(?:ber)?\.?|id|#)?"
    r"\s*[:#=]?\s*|#\s*)\Z")


# What comes right before a card number a payment provider publishes for tests: "the
# test card", "Testkarte", "carte de test", "tarjeta de prueba", "sandbox card".
_TEST_CONTEXT = re.compile(
    r"(?i)\b(?:test|testing|sandbox|dummy|fake|sample|example|testkarte|testkreditkarte|"
    r"beispiel|exemple|prueba|ejemplo)\b[^\n.;]{0,20}\Z")


# The start of an IBAN written in groups ("DE75 ", "NL23 RIDT 2696 "), right before.
_IBAN_HEAD = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: [A-Z0-9]{4}){0,7} \Z")


def in_grouped_iban(text: str, start: int) -> bool:
    """Whether ``text[start:]`` continues an IBAN written in groups of four (valid or
    not): its groups are neither a card number nor a phone number."""
    return (start > 5 and text[start - 1] == " "
            and _IBAN_HEAD.search(text, max(0, start - 45), start) is not None)


class CreditCardDetector:
    """Payment card numbers (type ``credit-card``), Luhn- and issuer-validated."""

    name = "credit-card"
    types = ("credit-card",)
    max_length = 23  # 19 digits and 4 separators
    #: Before a number: "order no." and the like (32), an IBAN's first groups (45).
    lookbehind = 48
    #: A card number starts with a digit.
    starts = _views.folded_to(string.digits)

    @staticmethod
    def hold_from(text: str) -> int:
        """A card number not complete yet, or whose next characters may still make it
        part of a longer number (``...1111.25``), lies in the run of digits, spaces and
        dashes that ends ``text`` (and a last ".", "," or "/"), from its first digit."""
        n = len(text)
        tail = _views.fold(text[max(0, n - 26):])
        end = len(tail) - 1 if tail.endswith((".", ",", "/")) else len(tail)
        run = tail[trailing_run(tail[:end], "0123456789 -", 25):end]
        return n - len(tail) + end - len(run.lstrip(" -"))

    def detect(self, text: str) -> Iterable[Detection]:
        return self.detect_from(text, 0)

    @_views.reads_folded
    def detect_from(self, text: str, since: int) -> Iterable[Detection]:
        """``detect``'s detections that start at ``since`` or after, and some before:
        the runs of digit groups that end before ``since`` are not judged."""
        found: list[Detection] = []
        for run in _CARD_RUN.finditer(_views.classes(text)):
            if run.end() <= since:
                continue  # (every number in it starts before ``since``)
            groups = [g.span() for g in _DIGITS.finditer(text, *run.span())]
            found.extend(self._cards(text, groups))
        return found

    def _cards(self, text: str, groups: list[tuple[int, int]]) -> Iterable[Detection]:
        """The card numbers among a run's digit groups: the longest valid sequences of
        whole groups, left to right, with one and the same separator between them."""
        i, k = 0, len(groups)
        # digits[n]: the digits in the first n groups (a sequence of groups whose digits
        # are not 13 to 19 is no card: not even looked at)
        digits = [0]
        for s, e in groups:
            digits.append(digits[-1] + e - s)
        # Luhn sums from the run's first digit, of every other digit doubled from the
        # first (odd) or the second (even) on (made once per run, in C): a sequence of
        # groups whose sum is not a multiple of 10 fails the check that rules out nine
        # numbers in ten (``_is_card``'s first), and is not looked at
        sums: tuple[list[int], list[int]] | None = None
        while i < k:
            first = groups[i][1] - groups[i][0]
            if first != 4 and not 13 <= first <= 19:
                i += 1  # a card starts with a group of four, or is one group
                continue
            for j in range(min(k, i + 5) if first == 4 else i + 1, i, -1):
                lo, hi = digits[i], digits[j]
                if not 13 <= hi - lo <= 19:
                    continue
                if sums is None:
                    sums = _luhn_sums("".join(text[s:e] for s, e in groups))
                # (the last digit is never doubled: the sums whose doubled digits are
                # those of the other parity than its)
                luhn = sums[(hi - 1) & 1]
                if (luhn[hi] - luhn[lo]) % 10:
                    continue
                start, end = groups[i][0], groups[j - 1][1]
                if self._is_card(text, groups[i:j]):
                    value = text[start:end]
                    context = text[max(0, start - 32):start]
                    score = 0.5 if _ID_CONTEXT.search(context) or _TEST_CONTEXT.search(
                        context) else (0.99 if j - i > 1 else 0.95)
                    yield Detection("credit-card", start, end, score, self.name, value)
                    i = j
                    break
            else:
                i += 1

    @staticmethod
    def _is_card(text: str, groups: list[tuple[int, int]]) -> bool:
        start, end = groups[0][0], groups[-1][1]
        # (a run's groups are apart by one space or dash)
        digits = text[start:end].replace(" ", "").replace("-", "")
        if not 13 <= len(digits) <= 19 or not luhn_is_valid(digits):
            return False  # (first: the check that rules out nine numbers in ten)
        lengths = [e - s for s, e in groups]
        if len(groups) > 1:
            seps = {text[e:s] for (_, e), (s, _) in zip(groups, groups[1:], strict=False)}
            if len(seps) != 1 or seps.pop() not in (" ", "-"):
                return False
            if not (all(n == 4 for n in lengths[:-1]) and 1 <= lengths[-1] <= 4
                    or lengths in ([4, 6, 5], [4, 6, 4])):
                return False
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if before.isalnum() or before in "_+.,/" or after.isalnum() or after == "_":
            return False
        if after in ".,/" and text[end + 1:end + 2].isdigit():
            return False  # part of a longer number: 4111111111111111.25
        return card_issuer(digits) is not None and not in_grouped_iban(text, start)


# ------------------------------------------------------------------------------ IBAN

#: The length of an IBAN in each country of the IBAN registry (SWIFT, ISO 13616).
IBAN_LENGTHS: dict[str, int] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
    "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24,
    "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
    "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27,
    "GT": 28, "HN": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
    "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
    "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24,
    "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25,
    "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
    "YE": 30,
}

_IBAN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
# Country code, check digits, then letters and digits with single spaces between.
_IBAN_RUN = re.compile(rb"AA00(?: ?[A0]){10,31}")
_IBAN_START = re.compile(rb"(?<![A-Za-z0-9_])AA00")


def iban_is_valid(iban: str) -> bool:
    """Whether ``iban`` (compact, upper case) has its country's length and a mod-97
    checksum of 1, with check digits 02 to 98."""
    if IBAN_LENGTHS.get(iban[:2]) != len(iban) or not iban.isalnum() or not iban.isascii():
        return False
    if iban[2:4] in ("00", "01", "99"):
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


class IBANDetector:
    """International bank account numbers (type ``iban``), mod-97 validated."""

    name = "iban"
    types = ("iban",)
    max_length = 42  # 34 characters in 9 groups of four
    lookbehind = 1  # the character before

    @staticmethod
    def hold_from(text: str) -> int:
        """An IBAN not complete yet (or whose next character is still to come) lies in
        the run of capitals, digits and spaces that ends ``text``."""
        n = len(text)
        tail = _views.fold(text[max(0, n - 43):])
        run = tail[trailing_run(tail, _IBAN_CHARS, 43):]
        return n - len(run.lstrip(" "))

    @_views.reads_folded
    def detect(self, text: str) -> Iterable[Detection]:
        found: list[Detection] = []
        view = _views.classes(text)
        # Each place an IBAN can start (not right after a letter, digit or "_"), and the
        # run from there: what a run found further back took in does not hide it.
        for at in _IBAN_START.finditer(view):
            start = at.start()
            run = _IBAN_RUN.match(view, start)
            if run is None or (start and (text[start - 1].isalnum() or text[start - 1] == "_")):
                continue
            length = IBAN_LENGTHS.get(text[start:start + 2])
            if length is None:
                continue
            end = self._end(text[start:run.end()], length)
            if end is None:
                continue
            end += start
            if end < len(text) and (text[end].isalnum() or text[end] == "_"):
                continue
            value = text[start:end]
            if iban_is_valid(value.replace(" ", "")):
                found.append(Detection("iban", start, end, 1.0, self.name, value))
        return found

    @staticmethod
    def _end(run: str, length: int) -> int | None:
        """Where the IBAN of ``length`` characters ends in ``run`` (which may go on
        with other words): compact, or with a space after every fourth character."""
        if " " not in run[:length]:
            return length if len(run) >= length else None
        end = length + (length - 1) // 4
        if len(run) < end:
            return None
        grouped = run[:end]
        if any(grouped[i] != " " for i in range(4, end, 5)) or grouped.count(" ") != (length - 1) // 4:
            return None
        return end
