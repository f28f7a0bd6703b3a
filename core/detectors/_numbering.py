"""Whether a number written in a region's own way is valid there, read from the
numbering plans ``phonenumbers`` ships, without parsing it.

``phonenumbers.is_valid_number(phonenumbers.parse(number, region))`` costs tens of
microseconds, and a text of random digit groups holds a candidate every few
characters (a third of the 10-digit ones are valid US numbers). For most candidates the
parse has nothing to decide: no "+", no international prefix (``011``, ``00``), no
country code or national prefix (``1`` in the US, ``0`` in much of Europe) at the
start, so the national significant number is the digits as written, and its validity
is the plan's patterns: ``national_valid`` says it with one or two regular expression
matches, and leaves the other numbers (``None``) to ``phonenumbers``. A number with "+"
or an international prefix is read the same way once its country code is taken off
(``international_valid``).

The answer is the one ``is_valid_number`` gives, step by step: the region a number of
that country code belongs to (its leading digits, or the first whose patterns it
matches), then its general description and one of its number types, each with their
possible lengths (``tests/detectors/test_numbering.py`` checks it against
``phonenumbers`` on random digits in many regions).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["international_valid", "national_valid"]

#: The number types whose match makes a number valid, in ``phonenumbers``' order.
_TYPES = ("premium_rate", "toll_free", "shared_cost", "voip", "personal_number", "pager",
          "uan", "voicemail", "fixed_line")


def national_valid(pn: Any, digits: str, region: str) -> bool | None:
    """Whether ``digits`` (ASCII digits only: a number written without "+", its
    punctuation taken out) is a valid number of ``region``, as ``phonenumbers`` parses
    it there; ``None`` when the parse has something to decide (a prefix to strip, a
    region that rewrites its numbers)."""
    plan = _plan(pn, region)
    if plan is None or not 2 <= len(digits) <= 17:
        return None
    idd = plan.idd.match(digits)
    if idd is not None and digits[idd.end():idd.end() + 1] != "0":
        # Read as an international number (unless a 0 follows: no country code does),
        # with the national prefix of its country's main region, unless that country
        # is the region's own: then with the region's (left to the parse).
        rest = digits[idd.end():]
        return None if rest.startswith(plan.code) else international_valid(pn, rest)
    country = plan.country
    if digits.startswith(plan.code) or (plan.npp is not None and plan.npp.match(digits)):
        # The parse may take the country code or a national prefix off: valid only if
        # what is left (or all of it) matches a general description of the plan's.
        for rest in _left(digits, plan.code, plan.npp):
            if any(general(rest) for general in country.generals):
                return None
        return False
    return country.valid(digits)


def international_valid(pn: Any, digits: str) -> bool | None:
    """Whether ``digits`` (ASCII digits: what follows the "+" or the international
    prefix) is a valid number, as ``phonenumbers`` parses it: a country code, then a
    national significant number; ``None`` when the parse has a national prefix to
    strip. Without a country code (too few digits, a leading 0, none of the codes) the
    parse fails: not valid."""
    if len(digits) <= 2 or digits[0] == "0":
        return False
    head = _heads(pn).get(digits[:3])
    if head is None:
        return False
    size, code = head
    rest = digits[size:]
    if not 2 <= len(rest) <= 17:
        return None
    if code == 52 and len(rest) == 11 and rest[0] == "1":
        rest = rest[1:]  # "+52 1 55 1234 5678": Mexico's mobiles as written before 2019
    country = _country(pn, code)
    if country is None or (country.npp is not None and country.npp.match(rest)):
        return None
    return country.valid(rest)


@functools.cache
def _heads(pn: Any) -> dict[str, tuple[int, int]]:
    """The country code each three digits after a "+" start with (its length and the
    code), as a parse reads it: the shortest code that is one; three digits that start
    with none are not there."""
    codes = pn.COUNTRY_CODE_TO_REGION_CODE
    out: dict[str, tuple[int, int]] = {}
    for n in range(100, 1000):
        head = str(n)
        for size in (1, 2, 3):
            if int(head[:size]) in codes:
                out[head] = (size, int(head[:size]))
                break
    return out


def _left(digits: str, code: str, npp: re.Pattern[str] | None) -> list[str]:
    """What a parse may keep of ``digits``: all, or less the country code, and less a
    national prefix (up to twice: once when it takes the country code off, once after)."""
    out = [digits]
    if digits.startswith(code):
        out.append(digits[len(code):])
    if npp is not None:
        for _ in range(2):
            for rest in out[:]:
                m = npp.match(rest)
                if m is not None and rest[m.end():] not in out:
                    out.append(rest[m.end():])
    return out


_Check = Callable[[str], bool]


@attrs.frozen
class _Country:
    """The numbering plans of a country code, as ``is_valid_number`` reads them: the
    lengths a valid number has (``None``: any), its regions' general descriptions (a
    valid number matches one), its regions in ``phonenumbers``' order (each one's
    leading digits, ``None`` for none, and validity check), and the national prefix of
    its main region (what a parse of an international number strips)."""

    lengths: frozenset[int] | None
    generals: tuple[_Check, ...]
    regions: tuple[tuple[re.Pattern[str] | None, _Check], ...]
    npp: re.Pattern[str] | None
    #: The leading digits of the regions that have them, one group each, in order;
    #: the place in ``regions`` and the check of each of those, and of each without.
    leads: re.Pattern[str] | None
    led: tuple[tuple[int, _Check], ...]
    unled: tuple[tuple[int, _Check], ...]

    def valid(self, digits: str) -> bool:
        """What ``is_valid_number`` says: the number belongs to the first region whose
        leading digits it starts with, or (before that one) that has none and whose
        patterns it matches, and must match that region's patterns."""
        if self.lengths is not None and len(digits) not in self.lengths:
            return False
        regions = self.regions
        if len(regions) == 1 and regions[0][0] is None:
            return regions[0][1](digits)
        m = self.leads.match(digits) if self.leads is not None else None
        # (the region whose leading digits match, and where it is in the order)
        at, lead = self.led[m.lastindex - 1] if m is not None and m.lastindex else (
            len(regions), None)
        for place, check in self.unled:
            if place > at:
                break
            if check(digits):
                return True
        return lead is not None and lead(digits)


@attrs.frozen
class _Plan:
    """A region's plan as a parse there reads a number written without "+": its
    country code, international and national prefixes, and its country's plans."""

    code: str
    idd: re.Pattern[str]
    npp: re.Pattern[str] | None
    country: _Country


@functools.cache
def _plan(pn: Any, region: str) -> _Plan | None:
    """``region``'s plan; ``None`` for a region whose numbers a parse may rewrite (a
    transform rule)."""
    meta = pn.PhoneMetadata.metadata_for_region(region, None)
    if meta is None or meta.national_prefix_transform_rule or not meta.international_prefix:
        return None
    country = _country(pn, meta.country_code)
    if country is None:
        return None
    npp = meta.national_prefix_for_parsing
    return _Plan(str(meta.country_code), re.compile(meta.international_prefix),
                 re.compile(npp) if npp else None, country)


@functools.cache
def _country(pn: Any, code: int) -> _Country | None:
    """The plans of country code ``code``; ``None`` when its main region may rewrite
    its numbers (a transform rule)."""
    codes = pn.COUNTRY_CODE_TO_REGION_CODE.get(code, ())
    if not codes:
        return None
    main = pn.region_code_for_country_code(code)
    main_meta = pn.PhoneMetadata.metadata_for_region_or_calling_code(code, main)
    if main_meta is None or main_meta.national_prefix_transform_rule:
        return None
    lengths: set[int] | None = set()
    generals: dict[tuple[str, tuple[int, ...]], _Check] = {}
    regions: list[tuple[re.Pattern[str] | None, _Check]] = []
    for name in codes:
        if len(codes) == 1:
            # (one region: its numbers are its own, whatever their leading digits; a
            # country code of no region, such as +800, has plans of its own)
            other = pn.PhoneMetadata.metadata_for_region_or_calling_code(code, name)
            lead = None
        else:
            other = pn.PhoneMetadata.metadata_for_region(name.upper(), None)
            lead = other.leading_digits if other is not None else None
        if other is None:
            continue
        regions.append((re.compile(lead) if lead is not None else None, _validity(other)))
        general = other.general_desc
        check = _desc(general)
        if check is not None:
            generals[general.national_number_pattern, tuple(general.possible_length)] = check
        if general is None or lengths is None:
            continue
        if general.possible_length:
            lengths.update(general.possible_length)
        else:
            lengths = None  # (a description without lengths takes any)
    leads = [p.pattern for p, _ in regions if p is not None]
    npp = main_meta.national_prefix_for_parsing
    return _Country(None if lengths is None else frozenset(lengths), tuple(generals.values()),
                    tuple(regions), re.compile(npp) if npp else None,
                    re.compile("|".join(f"({p})" for p in leads)) if leads else None,
                    tuple((i, c) for i, (p, c) in enumerate(regions) if p is not None),
                    tuple((i, c) for i, (p, c) in enumerate(regions) if p is None))


def _validity(meta: Any) -> _Check:
    """``meta``'s check: its general description, then any number type (mobile only
    when its pattern differs from the fixed line's), as ``phonenumbers`` matches them."""
    general = _desc(meta.general_desc)
    descs = [getattr(meta, name) for name in _TYPES]
    if not meta.same_mobile_and_fixed_line_pattern:
        descs.append(meta.mobile)
    # The types with the same possible lengths, as one pattern (one match, not one each).
    alike: dict[tuple[int, ...], list[str]] = {}
    for desc in descs:
        if desc is not None and desc.national_number_pattern:
            alike.setdefault(tuple(desc.possible_length), []).append(
                f"(?:{desc.national_number_pattern})")
    checks = [_matcher("|".join(patterns), lengths) for lengths, patterns in alike.items()]

    def valid(digits: str) -> bool:
        if general is None or not general(digits):
            return False
        return any(check(digits) for check in checks)

    return valid


def _desc(desc: Any) -> _Check | None:
    """A number description's check (its possible lengths, then a whole match of its
    pattern); ``None`` for one that matches nothing."""
    if desc is None or not desc.national_number_pattern:
        return None
    return _matcher(desc.national_number_pattern, tuple(desc.possible_length))


def _matcher(pattern_text: str, possible: tuple[int, ...]) -> _Check:
    """Whether a number has one of the ``possible`` lengths (any, when there are none)
    and matches ``pattern_text`` whole."""
    pattern = re.compile(pattern_text)
    lengths = frozenset(possible)

    def matches(digits: str) -> bool:
        return (not lengths or len(digits) in lengths) and pattern.fullmatch(digits) is not None

    return matches
