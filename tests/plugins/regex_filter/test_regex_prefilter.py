"""regex-filter's prefilter (``tripwire.plugins.regex_filter.prefilter``): a pattern whose every
match holds a literal or a digit is scanned only near them. The matches must be the
same as a scan of the whole text, for the presets and for any rule, at any ``pos``,
with or without the text's start, in ASCII and non-ASCII text."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripwire.plugins.regex_filter import prefilter as _prefilter
from tripwire.plugins.regex_filter import rules as _regex
from tripwire.plugins.regex_filter.rules import PRESETS, Matcher

PRESET_PATTERNS = [r.pattern for rules in PRESETS.values() for r in rules]

# Pieces that make the presets (and the rules below) match, nearly match and overlap,
# with the characters the folded and digit views treat specially.
PIECES = [
    " ", "  ", ".", ",", "-", "_", "(", ")", "+", "@", ":", "/", "=", '"', "\n", "\t",
    "a", "Z", "0", "4", "7", "9", "12", "123", "4111", "1111", "555", "555-0100",
    "123-45-6789", "4111 1111 1111 1111", "+44 20 7946 0958", "(555) 123-4567",
    "ann.lee@example.com", "x@y.io", "sk-", "sk-abcdefghijklmnopqrstuv", "ghp_",
    "A" * 36, "github_pat_", "xoxb-", "AIza", "sk_live_", "rk_test_", "AKIA", "ASIA",
    "ABCDEFGHIJKLMNOP", "bearer ", "Bearer ", "BEARER\t", "api_key", "API-KEY",
    "secret_key", "access-key", "=", ": ", "'", "https://", "HTTP://", "ftp://",
    "www.", "WWW.", "example.com/a?b=1", "\u0130", "\u0131", "\u017f", "\u212a",
    "KEY", "\u212aey", "\u017fk-", "\u0663", "\u0663\u0664\u0665", "é", "—", "?",
    "ID", "ID12", "REF-", "hunter2!",
]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)

# Rules a user might write: literals, case-insensitive ones, digits, look-arounds at
# both ends, groups (scanned alone), unbounded ones (never gated).
USER_PATTERNS = [
    r"ID\d{2,6}", r"(?i:ref)-\d{3}", r"(?<!\w)\d{3}-\d{4}(?!\d)", r"hunter2\!",
    r"(?i)bearer\s\S{4,12}", r"(\d)\1{2}", r"(?<=@)[a-z]{1,10}\.(?:io|com)",
    r"\b[A-Z]{4}\d{2}\b", r"ID\d+", r"(?i:k)ey=\w{1,8}", r"[0-9]{2}(?=[ab])",
    r"(?<!\w)(?:foo|ba[rz])\d", r"\u0663\d",
]


def unfiltered(patterns: list[str], monkeypatch: pytest.MonkeyPatch) -> Matcher:
    """The same rules scanned over the whole text: one scan per kind, as before the
    prefilter."""
    with monkeypatch.context() as m:
        m.setattr(_regex, "gate", lambda pattern: None)
        return Matcher(patterns)


def same_matches(patterns: list[str], text: str, reference: Matcher) -> None:
    """The same matches as ``reference``, with the windows (``_SHORT = 0``: however
    short the text) and as the matcher decides (a short text is scanned whole)."""
    matcher = Matcher(patterns)
    for short in (0, _regex._SHORT):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(_regex, "_SHORT", short)
            for at_start in (True, False):
                for pos in sorted({0, 1, len(text) // 2, len(text)}):
                    got = matcher.find(text, at_start=at_start, pos=pos)
                    want = reference.find(text, at_start=at_start, pos=pos)
                    assert sorted(got) == sorted(want), (text, short, at_start, pos)


@pytest.fixture(scope="module")
def preset_reference() -> Matcher:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_regex, "gate", lambda pattern: None)
        return Matcher(PRESET_PATTERNS)


@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts)
def test_the_presets_find_what_a_whole_scan_finds(text, preset_reference):
    same_matches(PRESET_PATTERNS, text, preset_reference)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, chosen=st.lists(st.sampled_from(USER_PATTERNS), min_size=1, max_size=4,
                                   unique=True))
def test_any_rules_find_what_a_whole_scan_finds(text, chosen, monkeypatch):
    same_matches(chosen, text, unfiltered(chosen, monkeypatch))


def test_a_long_text_is_scanned_in_windows_and_loses_nothing(preset_reference):
    filler = "we will ship the order within three days, please let us know. " * 40
    values = ["ann.lee@example.com", "4111 1111 1111 1111", "123-45-6789",
              "https://example.com/a", "Bearer abcdefgh12345678", "AKIA" + "A" * 16,
              "api_key = 'abcd1234efgh'", "(555) 123-4567",
              "postgres://app:Xk29fLq7@db.internal/shop"]
    text = filler.join(f" {v} " for v in values) + filler
    matcher = Matcher(PRESET_PATTERNS)
    got = matcher.find(text)
    assert sorted(got) == sorted(preset_reference.find(text))
    assert len({rule for _, _, rule in got}) == len(PRESET_PATTERNS)


def test_the_gates_of_the_presets():
    """Every preset alternative is gated (so plain prose costs a few ``in`` checks),
    each on a literal or a digit."""
    matcher = Matcher(PRESET_PATTERNS)
    scans = [*matcher.word, *matcher.combined, *matcher.alone]
    assert all(scan.gate is not None for scan in scans)
    atoms = {a for scan in scans for a in scan.gate.atoms}
    assert ("lit", "@") in atoms and ("digit", "") in atoms and ("ci", "bearer") in atoms


@pytest.mark.parametrize(("pattern", "atoms"), [
    (r"sk-[a-z]{20}", {("lit", "sk-")}),
    (r"(?i:bearer)\s\S+", None),                       # unbounded: scanned whole
    (r"(?i:bearer)\s\S{1,9}", {("ci", "bearer")}),
    (r"\d{3}-\d{4}", {("lit", "-")}),                   # the rarer of "-" and a digit
    (r"[0-9]{3}[a-z]{4}", {("digit", "")}),
    (r"(?:AKIA|ASIA)[0-9A-Z]{16}", {("lit", "KIA"), ("lit", "SIA")}),
    (r"[a-z]{1,5}", None),                              # nothing every match holds
    (r"(a)\1", None),                                   # a back-reference
    (r"x(?=\w+)", None),                                # an unbounded look-ahead
    (r"(?i)\u0130x", {("ci", "x")}),                    # a non-ASCII letter ignoring case
    (r"(?i)key|(?-i:VAL)", {("ci", "key"), ("lit", "VAL")}),
])
def test_what_every_match_holds(pattern, atoms):
    found = _prefilter.gate(pattern)
    assert (found and set(found.atoms)) == atoms if atoms else found is None


def test_the_case_folds_are_those_of_re():
    """The folded view maps exactly the non-ASCII characters that ``re`` matches to an
    ASCII letter ignoring case."""
    letters = re.compile(r"(?i)[a-z]")
    found = {chr(c): chr(c).lower() if chr(c).lower().isascii() else None
             for c in range(128, sys.maxunicode + 1) if letters.fullmatch(chr(c))}
    assert set(found) == set(_prefilter.CASE_FOLDS)
    for char, letter in _prefilter.CASE_FOLDS.items():
        assert re.fullmatch(f"(?i){letter}", char)
