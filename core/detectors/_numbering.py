"""Whether a number written in a region's own way is valid there, read from the
numbering plans ``phonenumbers`` ships, without parsing it.

``phonenumbers.is_valid_number(phonenumbers.parse(number, region))`` costs tens of
microseconds, and a text of random digit groups holds a candidate every few
characters (a third of the 10-digit ones are valid US numbers). For most candidates the
parse has nothing to decide: no "+", no international prefix (``011``, ``00``), no
country code or national prefix (``1`` in the US, ``0`` in much of Europe) at the
start, so the national significant number is the digits as written, and its validity
is the plan's patterns: ``national_valid`` says it with one or two regular expression
matches, and leaves the other numbers (``None``) to ``phonenumbers``.

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

__all__ = ["national_valid"]

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
    if plan.idd.match(digits):
        return None  # read as an international number: any country's
    if digits.startswith(plan.code) or (plan.npp is not None and plan.npp.match(digits)):
        # The parse may take the country code or a national prefix off: valid only if
        # what is left (or all of it) matches a general description of the plan's.
        for rest in _left(digits, plan.code, plan.npp):
            if any(general(rest) for general in plan.generals):
                return None
        return False
    if plan.lengths is not None and len(digits) not in plan.lengths:
        return False
    return plan.valid(digits)


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
class _Plan:
    """A region's numbering plan, as a parse there reads a number: its country code,
    international and national prefixes, the lengths a valid number of its country
    code has (``None``: any) and the general descriptions of its regions (a valid
    number matches one), and that number's validity (``valid``)."""

    code: str
    idd: re.Pattern[str]
    npp: re.Pattern[str] | None
    lengths: frozenset[int] | None
    generals: tuple[_Check, ...]
    #: The country code's regions, in ``phonenumbers``' order: each one's leading
    #: digits (``None``: it has none) and validity check.
    regions: tuple[tuple[re.Pattern[str] | None, _Check], ...]
    #: The leading digits of those that have them, one group each, in that order.
    leads: re.Pattern[str] | None
    #: The place in ``regions`` and the check of each region with leading digits, and
    #: of each without.
    led: tuple[tuple[int, _Check], ...]
    unled: tuple[tuple[int, _Check], ...]

    def valid(self, digits: str) -> bool:
        """What ``is_valid_number`` says: the number belongs to the first region whose
        leading digits it starts with, or (before that one) that has none and whose
        patterns it matches, and must match that region's patterns."""
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


@functools.cache
def _plan(pn: Any, region: str) -> _Plan | None:
    """``region``'s numbering plan; ``None`` for a region whose numbers a parse may
    rewrite (a transform rule)."""
    meta = pn.PhoneMetadata.metadata_for_region(region, None)
    if meta is None or meta.national_prefix_transform_rule or not meta.international_prefix:
        return None
    npp = meta.national_prefix_for_parsing
    codes = pn.COUNTRY_CODE_TO_REGION_CODE.get(meta.country_code, ())
    lengths: set[int] | None = set()
    generals: dict[tuple[str, tuple[int, ...]], _Check] = {}
    regions: list[tuple[re.Pattern[str] | None, _Check]] = []
    for code in codes:
        other = pn.PhoneMetadata.metadata_for_region(code.upper(), None)
        if other is None:
            continue
        # (one region: its numbers are its own, whatever their leading digits)
        lead = other.leading_digits if len(codes) > 1 else None
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
    return _Plan(str(meta.country_code), re.compile(meta.international_prefix),
                 re.compile(npp) if npp else None,
                 None if lengths is None else frozenset(lengths), tuple(generals.values()),
                 tuple(regions),
                 re.compile("|".join(f"({p})" for p in leads)) if leads else None,
                 tuple((i, check) for i, (p, check) in enumerate(regions) if p is not None),
                 tuple((i, check) for i, (p, check) in enumerate(regions) if p is None))


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
